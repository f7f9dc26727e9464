"""A toy ruleset for engine tests: a counter moved by d6 rolls."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from vedette import rules
from vedette.dice import Check, DiceSource, Modifier, table_from_data
from vedette.errors import RuleViolation
from vedette.rules.base import Event, Outcome, Param, Procedure, Request, Ruleset

TABLE = table_from_data(
    "advance",
    {
        "rows": [
            {"range": "<=2", "key": "stay", "result": "stays"},
            {"range": "3+", "key": "go", "result": "advances"},
        ]
    },
)


@dataclass(frozen=True, slots=True)
class ToyState:
    position: int = 0
    limit: int = 100
    history: tuple[int, ...] = ()


def _check(req: Request) -> Check:
    mods = (Modifier(req.get_int("bonus", 0), "bonus", "Toy 1"),) if req.get_int("bonus", 0) else ()
    return Check("1d6", mods, TABLE, "advance", "Toy 1")


def advance(state: ToyState, req: Request, dice: DiceSource) -> Outcome:
    check = _check(req)
    if state.position >= state.limit:
        raise RuleViolation("Toy 2", "the counter is at its limit")
    r = check.resolve(dice)
    events = (Event("moved", {"by": r.final}),) if r.row == "go" else ()
    return Outcome(events, (r,), f"counter {'advances' if events else 'stays'}")


class Toy(Ruleset[ToyState]):
    name = "toy"
    title = "Toy"

    def __init__(self) -> None:
        self.procedures = {
            "advance": Procedure(
                "advance",
                advance,
                "roll to advance",
                (Param("bonus", kind="int"),),
                odds=lambda s, r: [_check(r).odds()],
            ),
        }

    def initial_state(self, scenario: Mapping[str, Any], options: Mapping[str, Any]) -> ToyState:
        return ToyState(limit=int(scenario.get("limit", 100)))

    def apply(self, state: ToyState, event: Event) -> ToyState:
        if event.kind == "moved":
            by = int(event.data["by"])
            return replace(state, position=state.position + by, history=(*state.history, by))
        raise ValueError(event.kind)


RULESET = Toy()
rules.register("toy", "tests.toy")
