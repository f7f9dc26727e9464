"""A toy ruleset with a declared flow, for the referee core's tests (issue 22): a march phase
(march a unit some hexes, at most to the limit) and a rally phase (rally a shaken unit: 4+);
a march of more than 3 hexes shakes the unit and owes its rally in the rally phase."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from vedette import rules
from vedette.dice import Check, DiceSource, table_from_data
from vedette.errors import RuleViolation
from vedette.referee import (
    DomainEvent,
    Event,
    Flow,
    Obligation,
    Outcome,
    Phase,
    Plan,
    Procedure,
    Ruleset,
    Todo,
    arg,
    procedure,
    procedure_table,
)

RALLY = table_from_data(
    "rally",
    {
        "rows": [
            {"range": "<=3", "key": "shaken", "result": "stays shaken"},
            {"range": "4+", "key": "rallied", "result": "rallies"},
        ]
    },
)


@dataclass(frozen=True, slots=True)
class FlowState:
    phase: str = "march"
    positions: tuple[tuple[str, int], ...] = (("A", 0), ("B", 0))
    shaken: tuple[str, ...] = ()
    limit: int = 8
    owed: tuple[Obligation, ...] = ()

    def at(self, unit: str) -> int:
        return dict(self.positions)[unit]


@procedure("march", rule="Flow 1")
@dataclass(frozen=True, slots=True)
class March:
    """march"""

    unit: str = arg("the unit that marches", positional=True)
    distance: int = arg("how far", units="hexes", positional=True)


@procedure("rally", rule="Flow 2")
@dataclass(frozen=True, slots=True)
class Rally:
    """rally"""

    unit: str = arg("the shaken unit", positional=True)


@procedure("end_phase", rule="Flow 3")
@dataclass(frozen=True, slots=True)
class EndPhase:
    """end"""


@dataclass(frozen=True, slots=True)
class Marched(DomainEvent):
    kind: ClassVar[str] = "marched"
    unit: str
    by: int


@dataclass(frozen=True, slots=True)
class Rallied(DomainEvent):
    kind: ClassVar[str] = "rallied"
    unit: str
    ok: bool


@dataclass(frozen=True, slots=True)
class PhaseEnded(DomainEvent):
    kind: ClassVar[str] = "phase_ended"


def plan_march(s: FlowState, r: March) -> Plan:
    if r.unit not in dict(s.positions):
        raise RuleViolation("Flow 1", f"no unit {r.unit!r}")
    if r.distance < 1 or s.at(r.unit) + r.distance > s.limit:
        raise RuleViolation("Flow 1", f"{r.unit} cannot march {r.distance} (limit {s.limit})")
    return Plan(r)


def resolve_march(s: FlowState, p: Plan, dice: DiceSource) -> Outcome:
    r: March = p.request
    return Outcome((Marched(r.unit, r.distance),), (), f"{r.unit} marches {r.distance}")


def rally_check(r: Rally) -> Check:
    return Check("1d6", (), RALLY, f"rally {r.unit}", "Flow 2")


def plan_rally(s: FlowState, r: Rally) -> Plan:
    if r.unit not in s.shaken:
        raise RuleViolation("Flow 2", f"{r.unit} is not shaken")
    return Plan(r, (rally_check(r),))


def resolve_rally(s: FlowState, p: Plan, dice: DiceSource) -> Outcome:
    r: Rally = p.request
    roll = rally_check(r).resolve(dice)
    ok = roll.row == "rallied"
    return Outcome((Rallied(r.unit, ok),), (roll,), f"{r.unit} {roll.consequence}")


def plan_end(s: FlowState, r: EndPhase) -> Plan:
    return Plan(r)


def resolve_end(s: FlowState, p: Plan, dice: DiceSource) -> Outcome:
    return Outcome((PhaseEnded(),), (), "the phase ends")


def fold_marched(s: FlowState, e: Marched) -> FlowState:
    pos = tuple((u, x + e.by if u == e.unit else x) for u, x in s.positions)
    shaken = (*s.shaken, e.unit) if e.by > 3 and e.unit not in s.shaken else s.shaken
    return replace(s, positions=pos, shaken=shaken)


def fold_rallied(s: FlowState, e: Rallied) -> FlowState:
    shaken = tuple(u for u in s.shaken if u != e.unit or not e.ok)
    return replace(s, shaken=shaken, owed=tuple(o for o in s.owed if o.id != f"rally-{e.unit}"))


def fold_phase(s: FlowState, e: PhaseEnded) -> FlowState:
    if s.phase == "march":  # Flow 2: every shaken unit owes a rally
        owed = tuple(
            Obligation(f"rally-{u}", "rally", {"unit": u}, "Flow 2", f"{u} must try to rally")
            for u in s.shaken
        )
        return replace(s, phase="rally", owed=owed)
    return replace(s, phase="march", owed=())


class FlowToy(Ruleset[FlowState]):
    name = "flow_toy"
    aliases = ("ft",)
    title = "Flow toy (march, then rally)"
    events = (Marched, Rallied, PhaseEnded)
    folds: Mapping[type[Any], Any] = {
        Marched: fold_marched,
        Rallied: fold_rallied,
        PhaseEnded: fold_phase,
    }
    procedures = procedure_table(
        Procedure(March, plan_march, resolve_march),
        Procedure(Rally, plan_rally, resolve_rally),
        Procedure(EndPhase, plan_end, resolve_end),
    )
    flow = Flow(
        (
            Phase.of("march phase", ("march", "end_phase"), "Flow 1", "end_phase"),
            Phase.of("rally phase", ("rally", "end_phase"), "Flow 2", "end_phase"),
        )
    )

    def current_phase(self, state: FlowState) -> str | None:
        return f"{state.phase} phase"

    def initial_state(self, scenario: Mapping[str, Any], options: Mapping[str, Any]) -> FlowState:
        return FlowState(limit=int(scenario.get("limit", 8)))

    def options(self, state: FlowState) -> list[Todo]:
        out = [
            Todo("march", {"unit": u}, f"march {u}", "Flow 1", open={"distance": tuple(range(7))})
            for u, _ in state.positions
        ]
        out += [Todo("rally", {"unit": u}, f"rally {u}", "Flow 2") for u, _ in state.positions]
        out.append(Todo("end_phase", {}, "end the phase", "Flow 3"))
        return out

    def apply(self, state: FlowState, event: Event) -> FlowState:
        raise ValueError(event.kind)


RULESET = FlowToy()
rules.register("flow_toy", "tests.flow_toy", ("ft",))
