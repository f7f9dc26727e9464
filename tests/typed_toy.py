"""A toy ruleset on the typed protocol, for the shell's tests: typed request fields with units,
choices, defaults and a positional field; a forced march that leaves a rally owed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal

from vedette import rules
from vedette.dice import Check, DiceSource, table_from_data
from vedette.errors import RuleViolation
from vedette.referee import (
    DomainEvent,
    Event,
    Obligation,
    Outcome,
    Plan,
    Procedure,
    Ruleset,
    arg,
    procedure,
    procedure_table,
)

RALLY = table_from_data(
    "rally",
    {
        "rows": [
            {"range": "<=2", "key": "shaken", "result": "stays shaken"},
            {"range": "3+", "key": "rallied", "result": "rallies"},
        ]
    },
)


@dataclass(frozen=True, slots=True)
class TypedState:
    position: int = 0
    limit: int = 20
    owed: tuple[Obligation, ...] = ()


@procedure("march", rule="Typed 1")
@dataclass(frozen=True, slots=True)
class MarchRequest:
    """march a unit"""

    unit: str = arg("the unit that marches")
    distance: int = arg("how far it marches", units="hexes")
    pace: Literal["normal", "forced"] = arg("march pace", default="normal")


@procedure("rally", rule="Typed 2")
@dataclass(frozen=True, slots=True)
class RallyRequest:
    """rally a unit"""

    unit: str = arg("the unit that rallies", positional=True)
    bonus: int = arg("a die modifier", units="pips", default=0)


@dataclass(frozen=True, slots=True)
class Marched(DomainEvent):
    kind: ClassVar[str] = "marched"
    unit: str
    by: int
    forced: bool = False


@dataclass(frozen=True, slots=True)
class Rallied(DomainEvent):
    kind: ClassVar[str] = "rallied"
    unit: str


def plan_march(state: TypedState, req: MarchRequest) -> Plan:
    if state.position + req.distance > state.limit:
        raise RuleViolation("Typed 1", f"{req.unit} cannot march past hex {state.limit}")
    return Plan(req)


def resolve_march(state: TypedState, plan: Plan, dice: DiceSource) -> Outcome:
    req: MarchRequest = plan.request
    forced = req.pace == "forced"
    return Outcome(
        (Marched(req.unit, req.distance, forced),),
        (),
        f"{req.unit} marches {req.distance} hexes" + (" (forced: it must rally)" if forced else ""),
    )


def rally_check(req: RallyRequest) -> Check:
    return Check("1d6", (), RALLY, f"rally {req.unit}", "Typed 2")


def plan_rally(state: TypedState, req: RallyRequest) -> Plan:
    return Plan(req, (rally_check(req),))


def resolve_rally(state: TypedState, plan: Plan, dice: DiceSource) -> Outcome:
    req: RallyRequest = plan.request
    r = rally_check(req).resolve(dice)
    events = (Rallied(req.unit),) if r.row == "rallied" else ()
    return Outcome(events, (r,), f"{req.unit} {r.consequence}", result=str(r.consequence))


def fold_marched(state: TypedState, e: Marched) -> TypedState:
    owed = state.owed
    if e.forced:
        owed = (
            *owed,
            Obligation(
                f"rally-{e.unit}",
                "rally",
                {"unit": e.unit},
                "Typed 3",
                f"{e.unit} must rally after its forced march",
            ),
        )
    return replace(state, position=state.position + e.by, owed=owed)


def fold_rallied(state: TypedState, e: Rallied) -> TypedState:
    return replace(state, owed=tuple(o for o in state.owed if o.id != f"rally-{e.unit}"))


class TypedToy(Ruleset[TypedState]):
    name = "typed_toy"
    aliases = ("tt",)
    title = "Typed toy (march and rally)"
    events = (Marched, Rallied)
    folds: Mapping[type[Any], Any] = {Marched: fold_marched, Rallied: fold_rallied}
    procedures = procedure_table(
        Procedure(MarchRequest, plan_march, resolve_march),
        Procedure(RallyRequest, plan_rally, resolve_rally),
    )

    def initial_state(self, scenario: Mapping[str, Any], options: Mapping[str, Any]) -> TypedState:
        return TypedState(limit=int(scenario.get("limit", 20)))

    def apply(self, state: TypedState, event: Event) -> TypedState:
        raise ValueError(event.kind)


RULESET = TypedToy()
rules.register("typed_toy", "tests.typed_toy", ("tt",))
