"""Activation and chance cards (Kuryakin, Move Sequence; Movement)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from solonap_helpers import general, make, odds, run, unit

from vedette.errors import BadRequest, RuleViolation
from vedette.rules.solo_napoleonic.model import State


def rated(gid: str, side: str = "French") -> dict[str, object]:
    return general(gid, side, th="average", av="normal", cr=6, grade="average")


def three_units() -> State:
    s = make([unit("a", brigade="B1"), unit("b", brigade="B1"), unit("x", "Allies")], [rated("B1")])
    return s


def test_controlled_formation_gets_one_card() -> None:
    s, _ = run(three_units(), "control", [1])
    # 3 units -> cards 1-3; holders: B1 (a, b) and x. Fisher-Yates: d3, d2; chance: d10, d9
    s, out = run(s, "deal", [3, 1, 1, 1])
    holders = {c.holder: c for c in s.cards}
    assert set(holders) == {"B1", "x"}
    assert holders["B1"].units == ("a", "b") and holders["B1"].formation
    assert s.deck_size == 3 and s.phase == "activation"
    assert len(out.details["spare"]) == 1


def test_failed_formation_one_card_per_unit() -> None:
    s, _ = run(three_units(), "control", [6])
    s, _ = run(s, "deal", [3, 1, 1, 1])
    assert {c.holder for c in s.cards} == {"a", "b", "x"}
    assert sorted(c.number for c in s.cards) == [1, 2, 3]


def test_out_of_command_unit_gets_own_card() -> None:
    s, _ = run(three_units(), "control", [1], out_of_command=["b"])
    s, _ = run(s, "deal", [3, 1, 1, 1])
    assert {c.holder for c in s.cards} == {"B1", "b", "x"}


def test_fisher_yates_shuffle_is_forced_by_the_dice() -> None:
    s, _ = run(three_units(), "control", [6])
    # deck [1,2,3]; i=2: d3=1 swaps places 3 and 1 -> [3,2,1]; i=1: d2=2 keeps -> [3,2,1]
    s, out = run(s, "deal", [1, 2, 10, 9])
    assert {c.holder: c.number for c in s.cards} == {"a": 3, "b": 2, "x": 1}
    assert out.details["chance"] == {"French": "nothing", "Allies": "steady_lads"}


def test_cards_dealt_by_hand() -> None:
    s, _ = run(three_units(), "control", [6])
    s, _ = run(
        s, "deal", [], cards={"a": 2, "b": 3, "x": 1}, chance={"French": "smoke", "Allies": "rally"}
    )
    assert [c.holder for c in s.queue()] == ["x", "a", "b"]
    assert s.chance == {"French": "smoke", "Allies": "rally"}
    with pytest.raises(BadRequest):
        run(run(three_units(), "control", [6])[0], "deal", [], cards={"a": 1, "b": 1, "x": 2})


def test_deal_odds_sum_to_one() -> None:
    s, _ = run(three_units(), "control", [6])
    o, fr, al = odds(s, "deal")
    for x in (o, fr, al):
        assert sum((r.p for r in x.rows), Fraction(0)) == 1
    assert fr.p("smoke") == Fraction(1, 10) and "chance card" in al.label
    assert odds(s, "deal", cards={"a": 1, "b": 2, "x": 3}) == []


def test_next_reveals_lowest_and_marks_acted() -> None:
    s, _ = run(three_units(), "control", [6])
    s, _ = run(s, "deal", [], cards={"a": 2, "b": 3, "x": 1}, chance={})
    s, out = run(s, "next")
    assert s.active == "x" and out.details["units"] == ["x"]
    s, _ = run(s, "next")
    assert s.active == "a" and s.unit("x").acted
    s, _ = run(s, "next")
    s, out = run(s, "next")
    assert s.phase == "end" and "end the turn" in out.message
    assert all(u.acted for u in s.units)


def test_deal_before_control_refused() -> None:
    with pytest.raises(RuleViolation, match="control"):
        run(three_units(), "deal", [])


def test_chance_card_played_once_and_lost_at_turn_end() -> None:
    s, _ = run(three_units(), "control", [6])
    s, _ = run(
        s, "deal", [], cards={"a": 2, "b": 3, "x": 1}, chance={"French": "smoke", "Allies": "rally"}
    )
    s, out = run(s, "chance", [], side="French", on="x")
    assert "Smoke" in out.message and s.chance_played == ("smoke",)
    with pytest.raises(RuleViolation):
        run(s, "chance", [], side="French")
    for _ in range(4):
        s, _ = run(s, "next")
    s, out = run(s, "end_turn")
    assert "Allies loses rally" in out.message
    assert s.chance == {} and s.turn == 2 and s.phase == "control"


def test_require_marker_or_at_once() -> None:
    s, _ = run(three_units(), "control", [6])
    s, _ = run(s, "deal", [], cards={"a": 2, "b": 3, "x": 1}, chance={})
    s, _ = run(s, "next")  # x active
    s, out = run(s, "require", [], unit="b")
    assert s.unit("b").morale_due and out.rolls == ()
    s, _ = run(s, "next")  # x done (acted)
    # x has already acted: it tests at once (d100=10 passes C 65)
    s, out = run(s, "require", [10], unit="x", friendly_within_300=0, in_command=False)
    assert "tests at once" in out.message and len(out.rolls) == 1


def test_no_unit_acts_twice() -> None:
    s, _ = run(three_units(), "control", [6])
    s, _ = run(s, "deal", [], cards={"a": 2, "b": 3, "x": 1}, chance={})
    s, _ = run(s, "next")
    s, _ = run(s, "next")  # a active, x acted
    with pytest.raises(RuleViolation, match="not x's card"):
        run(s, "move", [1, 3], unit="x")
