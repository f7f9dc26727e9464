"""A toy ruleset on the typed protocol, for the conformance suite: a counter moved by dice,
with a toll owed at every multiple of five (an obligation), typed events, a procedure that rolls
twice on a six, a lane picked with a d6 re-rolled above 4 (a roll made again on some results)
and a volley of three dice (a tree too large to play branch by branch). Its
``legal_requests`` gives only legal requests, as a protocol ruleset's should."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from vedette import rules
from vedette.dice import Check, DiceSource, Modifier, table_from_data
from vedette.dice.die import standard
from vedette.dice.roll import single
from vedette.dice.sources import begin_attempt, reject_attempt
from vedette.errors import RuleViolation
from vedette.referee import (
    DomainEvent,
    Obligation,
    Outcome,
    Plan,
    Procedure,
    Ruleset,
    Todo,
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
D6 = standard(6)


@dataclass(frozen=True, slots=True)
class State:
    position: int = 0
    limit: int = 40
    tolls: int = 0
    owed: tuple[Obligation, ...] = ()


def _toll(at: int) -> Obligation:
    return Obligation(f"toll{at}", "pay", {"at": at}, "Toy 3", f"the toll at {at}")


# -- events -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Advanced(DomainEvent):
    kind: ClassVar[str] = "advanced"
    by: int


@dataclass(frozen=True, slots=True)
class Paid(DomainEvent):
    kind: ClassVar[str] = "paid"
    at: int


def fold_advanced(s: State, e: Advanced) -> State:
    owed = list(s.owed)
    for n in range(s.position + 1, s.position + e.by + 1):
        if n % 5 == 0:
            owed.append(_toll(n))
    return replace(s, position=s.position + e.by, owed=tuple(owed))


def fold_paid(s: State, e: Paid) -> State:
    if not any(o.id == f"toll{e.at}" for o in s.owed):
        raise RuleViolation("Toy 3", f"no toll is owed at {e.at}")
    return replace(s, tolls=s.tolls + 1, owed=tuple(o for o in s.owed if o.id != f"toll{e.at}"))


# -- procedures -------------------------------------------------------------------------------
@procedure("advance", rule="Toy 1")
@dataclass(frozen=True, slots=True)
class AdvanceRequest:
    """roll to advance"""

    bonus: int = arg("added to the roll", default=0)


def _check(bonus: int) -> Check:
    mods = (Modifier(bonus, "bonus", "Toy 1"),) if bonus else ()
    return Check("1d6", mods, TABLE, "advance", "Toy 1")


def plan_advance(s: State, r: AdvanceRequest) -> Plan:
    if s.position >= s.limit:
        raise RuleViolation("Toy 2", "the counter is at its limit")
    if not -2 <= r.bonus <= 2:
        raise RuleViolation("Toy 1", "a bonus is -2 to +2")
    return Plan(r, (_check(r.bonus),))


def resolve_advance(s: State, plan: Plan, dice: DiceSource) -> Outcome:
    """A roll on the table; a natural six rolls again and adds the second die."""
    r = _check(plan.request.bonus).resolve(dice)
    rolls: list[Any] = [r]
    if r.row != "go":
        return Outcome((), tuple(rolls), "the counter stays", result="stays")
    by = r.final
    result = "advances"
    if r.natural == 6:
        f = dice.face(D6)
        rolls.append(single(6, f, dice.kind, "again", "Toy 1", f"+{f}"))
        by += f
        result = "advances twice"
    return Outcome((Advanced(by),), tuple(rolls), f"the counter advances {by}", result=result)


@procedure("lane", rule="Toy 4")
@dataclass(frozen=True, slots=True)
class LaneRequest:
    """take a lane"""


def plan_lane(s: State, r: LaneRequest) -> Plan:
    if s.position >= s.limit:
        raise RuleViolation("Toy 2", "the counter is at its limit")
    return Plan(r)


def resolve_lane(s: State, plan: Plan, dice: DiceSource) -> Outcome:
    """One of four lanes with a d6, re-rolled above 4."""
    rolls = []
    while True:
        begin_attempt(dice)
        f = dice.face(D6)
        rolls.append(single(6, f, dice.kind, "lane", "Toy 4", "again" if f > 4 else f"lane {f}"))
        if f > 4:
            reject_attempt(dice)
            continue
        return Outcome((Advanced(f),), tuple(rolls), f"lane {f}", result=f"lane {f}")


@procedure("volley", rule="Toy 5")
@dataclass(frozen=True, slots=True)
class VolleyRequest:
    """fire a volley"""


D8 = standard(8)


def resolve_volley(s: State, plan: Plan, dice: DiceSource) -> Outcome:
    """Two d6 and a d8: each 5+ (7+ on the d8) is a hit; the counter advances one a hit."""
    rolls = []
    hits = 0
    for die, at in ((D6, 5), (D6, 5), (D8, 7)):
        f = dice.face(die)
        hits += f >= at
        rolls.append(single(die.sides, f, dice.kind, "volley", "Toy 5", "hit" if f >= at else None))
    events = (Advanced(hits),) if hits else ()
    return Outcome(events, tuple(rolls), f"{hits} hits", result=f"{hits} hits")


@procedure("pay", rule="Toy 3")
@dataclass(frozen=True, slots=True)
class PayRequest:
    """pay a toll"""

    at: int = arg("the square the toll is owed at", positional=True)


def plan_pay(s: State, r: PayRequest) -> Plan:
    if not any(o.id == f"toll{r.at}" for o in s.owed):
        raise RuleViolation("Toy 3", f"no toll is owed at {r.at}")
    return Plan(r)


@procedure("where", query=True)
@dataclass(frozen=True, slots=True)
class WhereRequest:
    """where the counter is"""


PROCEDURES = procedure_table(
    Procedure(AdvanceRequest, plan_advance, resolve_advance),
    Procedure(LaneRequest, plan_lane, resolve_lane),
    Procedure(VolleyRequest, plan_lane, resolve_volley),
    Procedure(
        PayRequest,
        plan_pay,
        lambda s, plan, dice: Outcome((Paid(plan.request.at),), (), "paid", result="paid"),
    ),
    Procedure.nodice(WhereRequest, lambda s, r: Outcome((), (), f"at {s.position}")),
)


class ToyTyped(Ruleset[State]):
    name = "toy_typed"
    title = "Toy (typed protocol)"
    procedures = PROCEDURES
    events = (Advanced, Paid)
    folds: Mapping[type[Any], Any] = {Advanced: fold_advanced, Paid: fold_paid}

    def initial_state(self, scenario: Mapping[str, Any], options: Mapping[str, Any]) -> State:
        return State(limit=int(scenario.get("limit", 40)))

    def options(self, state: State) -> list[Any]:
        if state.position >= state.limit:
            return []
        return [
            Todo("advance", {}, "roll to advance", "Toy 1"),
            Todo("lane", {}, "take a lane", "Toy 4"),
            Todo("volley", {}, "fire a volley", "Toy 5"),
        ]

    def legal_requests(
        self, state: State, rng: random.Random, n: int = 40
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        for o in state.owed:
            yield o.procedure, dict(o.request)
        if state.owed or state.position >= state.limit:
            return
        yield "lane", {}
        yield "volley", {}
        for _ in range(3):
            yield "advance", {"bonus": rng.randint(-2, 2)}


RULESET = ToyTyped()
rules.register("toy_typed", "tests.toy_typed")
