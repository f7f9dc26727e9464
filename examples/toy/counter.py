"""The counter's procedures by rule: ``plan`` refuses (naming the rule) and lists the chance
steps; ``resolve`` rolls them and returns the events."""

from __future__ import annotations

from examples.toy.events import Moved
from examples.toy.model import ToyState
from examples.toy.requests import Advance, Cheer
from vedette.dice import Roll
from vedette.referee import (
    Check,
    DiceSource,
    Modifier,
    Outcome,
    Plan,
    RuleViolation,
    table_from_data,
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


def _check(req: Advance) -> Check:
    mods = (Modifier(req.bonus, "bonus", "Toy 1"),) if req.bonus else ()
    return Check("1d6", mods, TABLE, "advance", "Toy 1")


def plan_advance(state: ToyState, req: Advance) -> Plan:
    if state.position >= state.limit:
        raise RuleViolation("Toy 2", "the counter is at its limit")
    return Plan(req, steps=(_check(req),))


def resolve_advance(state: ToyState, plan: Plan, dice: DiceSource) -> Outcome:
    r = plan.steps[0].resolve(dice)
    assert isinstance(r, Roll)  # (a single check: one roll, never an opposed one)
    events = (Moved(r.final, r.natural == 6),) if r.row == "go" else ()
    return Outcome(events, (r,), f"counter {'advances' if events else 'stays'}", result=str(r.row))


def plan_cheer(state: ToyState, req: Cheer) -> Plan:
    if not any(o.id == "cheer" for o in state.owed):
        raise RuleViolation("Toy 3", "nothing to cheer")
    return Plan(req)
