"""A toy ruleset on the referee protocol, the worked example of docs/architecture.md: a counter
moved by d6 rolls.

* ``advance`` (Toy 1): roll 1d6 (+ a bonus); 3+ advances the counter by the roll. A natural 6
  makes a ``cheer`` owed (Toy 3): the turn may not end (``rest``) until it is made or waived.
* ``cheer`` (Toy 3): discharges the owed step. ``rest`` (Toy 4): ends the turn.
* At the limit, ``advance`` is refused (Toy 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from vedette import rules
from vedette.dice import Check, DiceSource, Modifier, table_from_data
from vedette.errors import RuleViolation
from vedette.referee import (
    DomainEvent,
    Obligation,
    Outcome,
    Plan,
    Procedure,
    Ruleset,
    arg,
    procedure,
    procedure_table,
)

TABLE = table_from_data(
    "advance",
    {
        "rows": [
            {"range": "<=2", "key": "stay", "result": "stays"},
            {"range": "3+", "key": "go", "result": "advances"},
        ]
    },
)


# 1. the state: a frozen dataclass; ``owed`` holds the obligations (the core reads it)
@dataclass(frozen=True, slots=True)
class ToyState:
    position: int = 0
    limit: int = 100
    history: tuple[int, ...] = ()
    owed: tuple[Obligation, ...] = ()


# 2. typed, versioned events
@dataclass(frozen=True, slots=True)
class Moved(DomainEvent):
    kind: ClassVar[str] = "moved"
    version: ClassVar[int] = 2
    by: int
    cheer: bool = False  # a natural 6: a cheer is owed (Toy 3)

    @classmethod
    def upgrade(cls, version: int, data: dict[str, Any]) -> dict[str, Any]:
        return {**data, "cheer": False}  # v1 had no cheers


@dataclass(frozen=True, slots=True)
class Cheered(DomainEvent):
    kind: ClassVar[str] = "cheered"


CHEER = Obligation("cheer", "cheer", {}, "Toy 3", "a cheer for the six", blocks=("rest",))


def fold_moved(state: ToyState, e: Moved) -> ToyState:
    owed = (*state.owed, CHEER) if e.cheer else state.owed
    return replace(state, position=state.position + e.by, history=(*state.history, e.by), owed=owed)


def fold_cheered(state: ToyState, e: Cheered) -> ToyState:
    return replace(state, owed=tuple(o for o in state.owed if o.id != "cheer"))


# 3. typed requests: one frozen dataclass per procedure, declared with @procedure: its name,
#    its rule, its help (the docstring); each field's help, units and default in ``arg``
@procedure("advance", rule="Toy 1")
@dataclass(frozen=True, slots=True)
class Advance:
    """roll to advance"""

    bonus: int = arg("added to the roll", units="pips", default=0)


@procedure("rest", rule="Toy 4")
@dataclass(frozen=True, slots=True)
class Rest:
    """end the turn"""


@procedure("cheer", rule="Toy 3")
@dataclass(frozen=True, slots=True)
class Cheer:
    """cheer a six"""


# 4. procedures: plan (refuses, names the rule, lists the chance steps) and resolve
def _check(req: Advance) -> Check:
    mods = (Modifier(req.bonus, "bonus", "Toy 1"),) if req.bonus else ()
    return Check("1d6", mods, TABLE, "advance", "Toy 1")


def plan_advance(state: ToyState, req: Advance) -> Plan:
    if state.position >= state.limit:
        raise RuleViolation("Toy 2", "the counter is at its limit")
    return Plan(req, steps=(_check(req),))


def resolve_advance(state: ToyState, plan: Plan, dice: DiceSource) -> Outcome:
    r = plan.steps[0].resolve(dice)
    events = (Moved(r.final, r.natural == 6),) if r.row == "go" else ()
    return Outcome(events, (r,), f"counter {'advances' if events else 'stays'}", result=str(r.row))


def plan_cheer(state: ToyState, req: Cheer) -> Plan:
    if not any(o.id == "cheer" for o in state.owed):
        raise RuleViolation("Toy 3", "nothing to cheer")
    return Plan(req)


class Toy(Ruleset[ToyState]):
    name = "toy"
    title = "Toy"
    events = (Moved, Cheered)

    def __init__(self) -> None:
        self.folds = {Moved: fold_moved, Cheered: fold_cheered}
        self.procedures = procedure_table(
            Procedure(Advance, plan_advance, resolve_advance),
            Procedure(Cheer, plan_cheer, lambda s, p, d: Outcome((Cheered(),), (), "hurrah")),
            Procedure.nodice(Rest, lambda s, r: Outcome((), (), "the turn ends")),
        )

    def initial_state(self, scenario: Mapping[str, Any], options: Mapping[str, Any]) -> ToyState:
        return ToyState(limit=int(scenario.get("limit", 100)))


RULESET = Toy()
rules.register("toy", "tests.toy")
