"""2 by 2 (seed 003): helper T11's finds. Militia puts out no skirmisher screen (Unit
Summary, reading 55); a unit's ground in a melee is a town or woods/rough, not both (reading
56); a friend that supported a fight against an enemy has fought that enemy (reading 29); a
stated shot's cover and a stated melee's ground are one fact of the unit (reading 54).
Driven through the public ``Game`` API (``tests/two_by_two/battle.py``)."""

from __future__ import annotations

import pytest

from tests.two_by_two.battle import Battle
from vedette.errors import RuleViolation


def test_militia_puts_out_no_skirmisher_screen() -> None:
    # Unit Summary: Infantry, Guard and Light have range "[1,2*]", "*if skirmisher screen is
    # present"; Militia has "[1]" alone: the screen is what the star marks, and Militia has none
    b = Battle.stated(("M", "blue", "militia"), ("I", "blue", "infantry"), ("R", "red", "infantry"))
    screens = {t.request["unit"] for t in b.lines("formation") if "screen" in t.request}
    assert screens == {"I"}
    with pytest.raises(RuleViolation, match=r"M has no skirmisher screen.*Unit Summary"):
        b.do("formation", unit="M", screen=True)
    b.do("formation", unit="I", screen=True)
    assert b.state.unit("I").screened and not b.state.unit("M").screened


def _charged_and_countercharged() -> Battle:
    """Blue's B1 has charged red's R, and red's light cavalry RC has counter-charged B1 (2 by
    2, Moving to contact): both red units are in contact with B1 in blue's melee phase."""
    b = Battle.stated(
        ("B1", "blue", "infantry"), ("R", "red", "infantry"), ("RC", "red", "light_cavalry")
    )
    b.do("charge", unit="B1", into="R", distance=2)
    b.until("shoot", "red")
    b.do("countercharge", unit="RC", target="B1", distance=3, within=True)
    b.until("melee", "blue")
    return b


def test_a_defenders_friend_that_supported_it_does_not_fight_the_attacker_again() -> None:
    # Melee: "Overlap support +1 / extra unit beyond 1": RC, in contact with B1, fought beside R
    # as its extra unit; its own melee on B1 was then fought a second time the same phase, RC
    # counted twice against B1 (reading 29: units on one enemy fight one melee)
    b = _charged_and_countercharged()
    (melee, *_) = b.odds("melee", attacker="B1", defender="R")
    assert (1, "overlap support: 1 extra unit(s), in contact: melee pending") in [
        (m.value, m.reason) for m in melee.b_modifiers
    ]
    b.do("melee", dice=[6, 3], attacker="B1", defender="R")  # 6 vs 3+1: B1 wins by 2
    assert b.state.melees == () and not b.lines("melee")
    assert b.state.unit("RC").meleed
    # either order: RC's charge fought first, R beside it, settles B1's charge on R
    b = _charged_and_countercharged()
    b.do("melee", dice=[6, 6], attacker="RC", defender="B1")
    assert b.state.melees == ()
    # a support stated below the friends known names none of them: RC fought apart
    b = _charged_and_countercharged()
    b.do("melee", dice=[6, 4], attacker="B1", defender="R", b_support=0)
    assert [(m.attacker, m.defender) for m in b.state.melees] == [("RC", "B1")]


def _light_charged() -> Battle:
    """Red's R has charged blue's light infantry B (a unit that may enter woods/rough)."""
    b = Battle.stated(("B", "blue", "light"), ("R", "red", "infantry"))
    b.until("move", "red")
    b.do("charge", unit="R", into="B", distance=2)
    b.until("melee", "red")
    return b


def test_a_melee_side_is_in_a_town_or_in_woods_not_both() -> None:
    # Movement Modifiers name "Woods/rough" and "Towns" as two kinds of ground; Melee reads them
    # apart ("Unit is Cavalry in town", a winner "in a town/village"): b_town and b_woods were
    # two yes/no picks, and both "yes" was accepted
    b = _light_charged()
    with pytest.raises(RuleViolation, match=r"B stands in a town or in woods/rough, not in both"):
        b.do("melee", dice=[3, 4], attacker="R", defender="B", b_town=True, b_woods=True)
    # todo offers one field for B: a town, woods/rough or neither (no woods for R: reading 55's
    # neighbour, Movement Modifiers: woods impassable to line infantry)
    (line,) = b.lines("melee")
    assert line.open["b_ground"] == ("neither", "town", "woods")
    assert "b_town" not in line.open and "b_woods" not in line.open
    out = b.do("melee", dice=[3, 4], attacker="R", defender="B", b_ground="woods")
    assert out.details["melee"]["defender"]["woods"] is True
    assert out.details["melee"]["defender"]["town"] is False


def _charger_shot(cover: str) -> Battle:
    """Blue's light infantry B has charged red's R; in red's shooting phase R2 shoots B,
    stating its cover; then blue's melee phase, B's ground not changed since."""
    b = Battle.stated(("B", "blue", "light"), ("R", "red", "infantry"), ("R2", "red", "infantry"))
    b.do("charge", unit="B", into="R", distance=2)
    b.until("shoot", "red")
    b.do("shoot", dice=[1], firer="R2", target="B", band="musket", cover=cover)
    b.until("melee", "blue")
    return b


def test_a_shots_cover_and_a_melees_ground_are_one_fact_of_the_unit() -> None:
    # Resolving shooting: "Target is Infantry in cover ... in woods/rough or town"; Melee:
    # "(unit in town or woods remain in control)". Red's shot ruled B in the open; blue's melee
    # right after could put B, which had not moved, in woods (reading 54 held a fact for one
    # phase only, and a shot and a melee are never in one phase)
    b = _charger_shot("none")
    with pytest.raises(RuleViolation, match=r"B was ruled not in woods/rough.*reading 54"):
        b.do("melee", dice=[3, 4], attacker="B", defender="R", a_ground="woods")
    (line,) = b.lines("melee")
    assert line.open["a_ground"] == ("neither",)
    # in cover: the melee puts B in a town (left out) or in woods/rough, never in neither
    b = _charger_shot("area")
    with pytest.raises(RuleViolation, match=r"B was ruled in woods/rough or town.*a_ground=town"):
        b.do("melee", dice=[3, 4], attacker="B", defender="R", a_ground="neither")
    (line,) = b.lines("melee")
    assert line.open["a_ground"] == ("town", "woods")
    out = b.do("melee", dice=[3, 4], attacker="B", defender="R")  # R wins by 1
    assert out.details["melee"]["attacker"]["town"] is True
    assert "B is in a town or woods: it stays in control" in out.message
    b.do("next")  # (red's move phase: released)
    assert b.state.held == ()
