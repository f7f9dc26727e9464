"""Solitaire ASL's own properties: odds sum to 1; a shift conserves real counters (and dummies
when allowed); a closed phase allows no further shift of that kind (minefields excepted); these
requests are refused. The generic properties (a refusal changes nothing, replay and export ->
import equal live play) are checked once for every ruleset in tests/core/test_core_conformance.py,
through the helpers of tests/conformance.py used here."""

from __future__ import annotations

from collections import Counter as Multiset
from fractions import Fraction
from pathlib import Path
from typing import Any

from asl_helpers import ds, make, odds, pds, play, to_phase
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conformance import check_game, try_perform
from tests.sizes import examples
from vedette.engine import Game, Store
from vedette.errors import RuleViolation, VedetteError
from vedette.rules.solitaire_asl import RULESET
from vedette.rules.solitaire_asl.model import State, Status

SIZES = [
    ("vehicle", "small"),
    ("vehicle", "large"),
    ("vehicle", "very_large"),
    ("gun", "large"),
    ("squad", ""),
]


@settings(max_examples=examples(60), deadline=None)
@given(
    tem_a=st.integers(-2, 6),
    tem_b=st.integers(-2, 6),
    los=st.booleans(),
    lv=st.booleans(),
    night=st.booleans(),
    extra=st.integers(-2, 0),
    size=st.sampled_from(SIZES),
)
def test_odds_sum_to_one(
    tem_a: int, tem_b: int, los: bool, lv: bool, night: bool, extra: int, size: tuple[str, str]
) -> None:
    c = {"name": "X", "kind": size[0]} | ({"size": size[1]} if size[1] else {})
    s = make(
        [pds("P1", "4P5", c), ds("D1", "4Q6", 2)],
        locations=[{"id": "4P5", "tem": tem_a, "los": los}, {"id": "4Q6", "tem": tem_b, "lv": lv}],
        night=night,
        extra_drm=extra,
    )
    o = odds(to_phase(s, "MPh"), "shift", a="P1", b="D1")
    assert sum((r.p for r in o.rows), Fraction(0)) == 1


def sample_in(phase: str, side: str = "Russian") -> State:
    s = RULESET.initial_state(RULESET.scenario("sample"), {})
    return to_phase(s, phase, side)


def real_ids(s: State) -> Multiset[str]:
    return Multiset(c.id for x in s.stacks for c in x.counters)


def dummies(s: State) -> int:
    return sum(x.dummies for x in s.stacks if x.status in (Status.DUMMY, Status.DUMMY_HIP))


REQUESTS: list[dict[str, Any]] = [
    {"a": "P1", "b": "D1"},
    {"a": "P1"},
    {"a": "P2", "b": "D2"},
    {"a": "P2", "b": "D1"},
    {"a": "H1", "b": "X1"},
    {"a": "4M6", "b": "X1"},
    {"a": "4M6", "b": "4N3"},
    {"a": "r5", "b": "4O8"},
    {"a": "F2", "b": "H1", "back": []},
]


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(req=st.sampled_from(REQUESTS), d1=st.integers(1, 6), d2=st.integers(1, 6))
def test_a_shift_conserves_counters(req: dict[str, Any], d1: int, d2: int) -> None:
    s = sample_in("MPh")
    try:
        s2, out = play(s, "shift", [d1, d2], **req)
    except RuleViolation:
        return
    assert real_ids(s2) == real_ids(s)
    if out.details["row"] in ("free", "allowed"):
        added = sum(1 for c in out.details["changes"] if "place a dummy HIP" in c)
        assert dummies(s2) == dummies(s) + added
    else:
        assert dummies(s2) <= dummies(s)


@settings(max_examples=examples(60), deadline=None)
@given(
    first=st.sampled_from(REQUESTS),
    second=st.sampled_from(REQUESTS),
    d1=st.integers(4, 6),
    d2=st.integers(4, 6),
)
def test_a_closed_phase_allows_no_further_shift(
    first: dict[str, Any], second: dict[str, Any], d1: int, d2: int
) -> None:
    s = sample_in("MPh")
    try:
        s, out = play(s, "shift", [d1, d2], **first)
    except RuleViolation:
        return
    if out.details["row"] in ("free", "allowed"):
        return
    op = out.details["op"]
    try:
        from vedette.rules.solitaire_asl.shift import plan_shift

        plan = plan_shift(
            s, RULESET.procedures["shift"].parse(second), RULESET.config(), RULESET.tables()
        )
    except VedetteError:
        return
    assert plan.op.value != op, f"a {op} shift was allowed after the phase closed"
    # minefields are never closed (4.6.4)
    play(s, "minefield", [1, 1], entered="M1", other="M2")


BAD: list[tuple[str, dict[str, Any]]] = [
    ("shift", {"a": "P1", "b": "D2"}),
    ("shift", {"a": "H1", "b": "D1"}),
    ("shift", {"a": "P9"}),
    ("shift", {"a": "P1", "b": "D1", "consistent": False}),
    ("shift", {"a": "P1", "b": "D1", "counters": ["r1"]}),
    ("minefield", {"entered": "M1", "other": "M1"}),
    ("boresight", {"weapons": ["r1"], "target": "4Q6"}),
    ("move", {"stack": "H1", "to": "4M7"}),
    ("merge", {"a": "P1", "b": "P2"}),
    ("place", {"kind": "dummy_hip", "side": "Russian", "location": "4A1"}),
    ("prereg", {"module": "O9", "ar": "4P5"}),
    ("decide", {"id": "r2", "ok": True}),
    ("shift", {"a": "P1", "b": "D1", "emplaced": ["r1"]}),
]


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(bad=st.sampled_from(BAD), phase=st.sampled_from(["MPh", "DFPh", "APh"]))
def test_these_requests_are_refused(
    tmp_path: Path, bad: tuple[str, dict[str, Any]], phase: str
) -> None:
    st_ = Store(tmp_path / f"g{abs(hash((bad[0], str(bad[1]), phase)))}.db")
    g = Game.create(st_, "g", "asl", RULESET.scenario("sample"), seed=3)
    g.perform("phase", {"to": phase})
    # try_perform: a refusal leaves state, log and dice unchanged
    assert try_perform(g, bad[0], bad[1], "asl", faces=[1, 1]) is None, f"{bad} was accepted"


def test_a_scripted_game_replays(tmp_path: Path) -> None:
    st_ = Store(tmp_path / "r.db")
    g = Game.create(st_, "r", "solitaire_asl", RULESET.scenario("sample"), seed=11)
    g.perform("phase", {"to": "MPh"})
    g.perform("shift", {"a": "P1", "b": "D1"})
    g.perform("shift", {"a": "H1", "b": "X1"})
    g.perform("act", {})
    g.perform("move", {"stack": "P2", "to": "4N4", "mp": 4})
    g.perform("boresight", {"weapons": ["r2"], "target": "4Q6"}, faces=[6, 1, 2])
    g.perform("decide", {"id": "r2", "ok": True})  # owed before anything else (6.1, A21)
    g.perform("phase", {"to": "MPh"})
    g.perform("minefield", {"entered": "M1", "other": "M2"})
    g.perform("location", {"id": "4P5", "los": False})
    check_game(g, st_)
    g.undo()
    check_game(g, st_)


def test_house_rules_change_the_numbers(tmp_path: Path) -> None:
    """A house-rule file replaces data: night worth -1, every shift of the side counted."""
    house = {"drm": {"night": -1, "previous_counts": "all"}}
    scen = dict(RULESET.scenario("sample"), night=True)
    g = Game.create(Store(tmp_path / "h.db"), "h", "asl", scen, seed=2, house_rules=house)
    g.perform("phase", {"to": "MPh"})
    g.perform("shift", {"a": "P1", "b": "D1"}, faces=[1, 2])
    o = g.odds("shift", {"a": "H1", "b": "X1"})[0]
    reasons = {m.reason: m.value for m in o.modifiers}
    assert reasons["night scenario"] == -1
    assert reasons["1 previous shift this phase"] == 1


@settings(max_examples=examples(40), deadline=None)
@given(
    req=st.sampled_from(REQUESTS),
    phase=st.sampled_from(["PFPh", "MPh", "APh"]),
    d1=st.integers(1, 6),
    d2=st.integers(1, 6),
)
def test_the_odds_shown_are_those_of_the_roll_made(
    req: dict[str, Any], phase: str, d1: int, d2: int
) -> None:
    """The odds before a DR use the same DRMs and table as the DR itself, and the row rolled is
    one the odds gave a chance."""
    s = sample_in(phase)
    try:
        o = odds(s, "shift", **req)
    except VedetteError:
        return
    assert sum((r.p for r in o.rows), Fraction(0)) == 1
    _, out = play(s, "shift", [d1, d2], **req)
    r = out.rolls[0]
    assert [m.to_json() for m in r.modifiers] == [m.to_json() for m in o.modifiers]  # type: ignore[union-attr]
    assert o.p(str(r.row)) > 0  # type: ignore[union-attr]
