"""Kuryakin's dice as rule data (``[dice]``): the faces the text names by default; a house
rule's faces are what the referee rolls, what its odds give and what its messages print; a die
that is no die is refused in one line naming the key; the reference sheet shows each."""

from __future__ import annotations

import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from solonap_helpers import activate, make, odds, run, unit

from vedette import rules
from vedette.dice.odds import Odds
from vedette.errors import DataError, RuleViolation
from vedette.rules.quickref import relevant, sheet
from vedette.rules.solo_napoleonic import flow
from vedette.rules.solo_napoleonic.model import State


def _faces(o: Odds) -> dict[str, Fraction]:
    return {r.key: r.p for r in o.rows}


def _even(n: int) -> dict[str, Fraction]:
    return {str(k): Fraction(1, n) for k in range(1, n + 1)}


def test_the_dice_of_the_text() -> None:
    """Disorder: "Each collision D3 D's per unit involved", reforming's "ubiquitous D6"; Melee:
    "Roll 1d6 per 5 points", "D3 further rounds"; Formation Changing: "roll a D4"; Moving From
    A Standstill: "roll a D6"."""
    d = make([]).config.dice
    assert (d.collision, d.further_rounds, d.melee) == (3, 3, 6)
    assert (d.formation_change, d.reform) == (4, 6)
    move_off, stop = make([]).config.standstill
    assert (move_off.dice, stop.dice) == ("1d6", "1d6")
    assert [(r.key, r.range_text) for r in move_off.rows] == [("stays", "<=1"), ("moves", "2+")]
    assert [(r.key, r.range_text) for r in stop.rows] == [("stops", "<=5"), ("carries_on", "6+")]
    assert d.swerve_distance == 6  # Random Movement: "amended D6 centimetres"
    assert make([]).config.swerve.dice == "1d6"  # "Each unit rolls a D6" for swerving
    # Generals: "Troop Handling (D6)", "Attack Value (D6)", the grade "on a D8 roll"
    r = make([]).config.ratings
    assert (r["th"].dice, r["av"].dice, r["cr"].dice) == ("1d6", "1d6", "1d8")


def _collided(house: dict[str, Any] | None) -> tuple[State, str]:
    """F1 moves 120mm up into F2 (random movement 0, no swerve): the chits are owed."""
    s = make([unit("F1", x=500, y=400, facing=0), unit("F2", x=500, y=520, facing=0)], house=house)
    s, out = run(activate(s, "F1"), "move", [6, 3, 3], unit="F1", distance=120, mode="move")
    return s, out.message


def test_a_house_rule_collision_die_is_rolled_and_printed() -> None:
    """[dice] collision = 4: the move says D4, the owed step says D4, each unit's odds are a
    quarter each of 1-4, and a 4 rolled gives 4 chits (the shipped D3: D3 and thirds)."""
    s, msg = _collided(None)
    assert "collides with F2: D3 'D' chits each" in msg
    (owed,) = flow.obligations(s)
    assert owed.text == "F1's move ran into F2: D3 'D' chits each"
    a, _ = odds(s, "disorder", cause="collision", units=["F1", "F2"])
    assert _faces(a) == _even(3)

    s, msg = _collided({"dice": {"collision": 4}})
    assert "collides with F2: D4 'D' chits each" in msg
    (owed,) = flow.obligations(s)
    assert owed.text == "F1's move ran into F2: D4 'D' chits each"
    a, b = odds(s, "disorder", cause="collision", units=["F1", "F2"])
    assert _faces(a) == _faces(b) == _even(4)
    s, out = run(s, "disorder", [4, 2], cause="collision", units=["F1", "F2"])
    assert (s.unit("F1").disorder, s.unit("F2").disorder) == (4, 2)
    assert out.message == "F1 +4D; F2 +2D"


def _in_brawl(house: dict[str, Any] | None) -> State:
    """F1 and A1 in melee, its loser held: the further rounds are owed."""
    s = make([unit("F1"), unit("A1", "Allies")], house=house)
    f1 = replace(s.unit("F1"), charge_target="A1", charge_step="brawl", melee_round=1)
    return activate(s.with_unit(f1), "F1")


def test_a_house_rule_further_rounds_die_is_rolled_and_printed() -> None:
    """[dice] further_rounds = 4: the owed step says D4, the odds are 1-4 a quarter each, and
    a 4 rolled allows four further rounds; a brawl out of turn names the D4 too."""
    (o,) = flow.obligations(_in_brawl(None))
    assert o.text == "the melee of F1 and A1 goes on: D3 further rounds"
    assert _faces(odds(_in_brawl(None), "brawl", unit="F1", target="A1")[0]) == _even(3)
    s = _in_brawl({"dice": {"further_rounds": 4}})
    with pytest.raises(RuleViolation, match="only within a begun melee and its D4 further rounds"):
        run(s, "melee", [], unit="F1", target="A1", round=2)  # before the rounds are rolled
    (o,) = flow.obligations(s)
    assert o.text == "the melee of F1 and A1 goes on: D4 further rounds"
    assert _faces(odds(s, "brawl", unit="F1", target="A1")[0]) == _even(4)
    s, out = run(s, "brawl", [4], unit="F1", target="A1")
    assert out.details["rounds"] == 4 and s.unit("F1").melee_rounds == 5
    with pytest.raises(RuleViolation, match="no D4 further rounds for F1 and A1 now"):
        run(s, "brawl", [1], unit="F1", target="A1")


def test_a_house_rule_melee_die_is_rolled_and_printed() -> None:
    """[dice] melee = 8: 20 points are four dice of eight faces (+1 each, the enemy hit
    standing), the odds' note says 4d8, and four 8s (36) give 18 potential casualties."""
    for house, note in (
        (None, "20 points: 4d6+1 (hit enemy standing) each"),
        ({"dice": {"melee": 8}}, "4d8+1 (hit enemy standing) each"),
    ):
        attacker = unit("att", grade="C", figures=20, front=5, advancing=True)
        defender = unit("def", "Allies", figures=16, front=4)
        s = activate(make([attacker, defender], house=house), "att")
        s = s.with_unit(replace(s.unit("att"), charge_state="home", charge_target="def"))
        (o,) = [
            x
            for x in odds(s, "melee", unit="att", target="def")
            if x.label.startswith("att inflicts")
        ]
        assert note in (o.note or "")
    # defender: 16 points, 3 dice 1,1,1 = 3: half 1.5 (d100 80 -> 1), its save a 6
    faces = [8, 8, 8, 8] + [1] * 18 + [1, 1, 1, 80, 6]  # 18 saves, all failed
    _, out = run(s, "melee", faces, unit="att", target="def")
    assert out.details["inflicted"]["att"] == 16  # 18 potential, none saved, 16 figures


def test_a_house_rule_formation_standstill_and_reform_dice() -> None:
    """[dice] formation_change = 6, reform = 8 and the standstill tables' dice 1d8: the
    formation change takes 1-6 quarters, a unit moves off on 2-8 (7/8) and stops an advance on
    1-5 (5/8), a reform removes 1-8 chits (the shipped D4 and D6s: quarters and sixths)."""
    s = activate(make([unit("F1", disorder=8)]), "F1")
    assert _faces(odds(s, "formation", unit="F1", to="column")[0]) == _even(4)
    assert _faces(odds(s, "start", unit="F1")[0]) == {
        "stays": Fraction(1, 6),
        "moves": Fraction(5, 6),
    }
    assert _faces(odds(s, "reform", unit="F1")[0]) == _even(6)
    house = {
        "dice": {"formation_change": 6, "reform": 8},
        "tables": {"standstill": {"dice": "1d8"}, "standstill_halt": {"dice": "1d8"}},
    }
    s = activate(make([unit("F1", disorder=8)], house=house), "F1")
    assert _faces(odds(s, "formation", unit="F1", to="column")[0]) == _even(6)
    assert _faces(odds(s, "start", unit="F1")[0]) == {
        "stays": Fraction(1, 8),
        "moves": Fraction(7, 8),
    }
    halt = _faces(odds(s, "halt", unit="F1")[0])
    assert halt == {"stops": Fraction(5, 8), "carries_on": Fraction(3, 8)}
    assert _faces(odds(s, "reform", unit="F1")[0]) == _even(8)
    s2, _ = run(s, "reform", [8], unit="F1")
    assert s2.unit("F1").disorder == 0
    s2, _ = run(s, "formation", [6], unit="F1", to="column")
    assert s2.unit("F1").formation_target == "column"  # 6 quarters: carried into next turn


def test_a_house_rule_standstill_table() -> None:
    """Moving From A Standstill: a house rule's rows are what the tests read: moving off fails on
    1-2 and an advance carries on on 5-6 (1/3 each); the roll's record keeps the table's name."""
    house = {
        "tables": {
            "standstill": {
                "rows": [
                    {"range": "<=2", "key": "stays", "result": "does not advance"},
                    {"range": "3+", "key": "moves", "result": "advances"},
                ]
            },
            "standstill_halt": {
                "rows": [
                    {"range": "<=4", "key": "stops", "result": "halts"},
                    {"range": "5+", "key": "carries_on", "result": "carries on regardless"},
                ]
            },
        }
    }
    s = activate(make([unit("F1")], house=house), "F1")
    assert odds(s, "start", unit="F1")[0].p("stays") == Fraction(1, 3)
    assert odds(s, "halt", unit="F1")[0].p("carries_on") == Fraction(1, 3)
    _, out = run(s, "start", [2], unit="F1")
    (roll,) = out.rolls
    assert (roll.table, roll.row) == ("standstill", "stays")
    bad = {"tables": {"standstill_halt": {"rows": [{"range": "1+", "key": "halts"}]}}}
    with pytest.raises(DataError, match=r"\[tables.standstill_halt\] rows must have the keys"):
        make([], house=bad)


def test_a_house_rule_swerve_distance_die() -> None:
    """[dice] swerve_distance = 10: a unit that swerves left (a 1) on its move is moved a D10 of
    cm aside: a 10 rolled is 100mm, and the odds give a tenth to each distance."""
    for house, faces in ((None, 6), ({"dice": {"swerve_distance": 10}}, 10)):
        s = activate(make([unit("F1", x=500, y=400, facing=0)], house=house), "F1")
        *_, swerve = odds(s, "move", unit="F1", distance=100, mode="move")
        assert _faces(swerve) == _even(faces)
        # moves off (6), random movement 0, swerves left (1), then the distance die
        s, out = run(s, "move", [6, 0, 1, faces], unit="F1", distance=100, mode="move")
        assert out.details["lateral_mm"] == -10.0 * faces


@pytest.mark.parametrize(
    ("house", "says"),
    [
        ({"dice": {"collision": 1}}, r"\[dice\] collision must be a die's faces, 2-100"),
        ({"dice": {"melee": 101}}, r"\[dice\] melee must be a die's faces, 2-100"),
        ({"dice": {"reform": "d6"}}, r"\[dice\] reform must be a whole number"),
        ({"options": {"percentile_reading": "0-99"}}, r"\[options\] percentile_reading must be"),
        ({"tables": {"swerve": {"dice": "D"}}}, r"\[tables.swerve\] dice must be dice such as 1d6"),
        (
            {"tables": {"standstill_halt": {"dice": "6"}}},
            r"\[tables.standstill_halt\] dice must be dice such as 1d6",
        ),
    ],
)
def test_a_die_that_is_no_die_is_refused_in_one_line(house: dict[str, Any], says: str) -> None:
    with pytest.raises(DataError, match=says) as e:
        make([], house=house)
    assert "\n" not in str(e.value)


def test_the_reference_sheet_shows_the_dice() -> None:
    """`vedette reference` lists [dice], a house rule's die marked, and shows it beside the
    odds of the steps that roll it."""
    rs = rules.get("solo_napoleonic")
    (sec,) = [s for s in sheet(rs, {"dice": {"collision": 4}}) if s.path == "dice"]
    got = {e.path: e for e in sec.entries}
    assert got["dice.collision"].value == "4" and got["dice.collision"].house
    assert got["dice.further_rounds"].value == "3" and not got["dice.further_rounds"].house
    assert "D3" in got["dice.further_rounds"].note
    for proc in ("disorder", "brawl", "melee", "formation", "start", "halt", "reform", "move"):
        assert "dice" in [s.path for s in relevant(rs, proc)], proc
