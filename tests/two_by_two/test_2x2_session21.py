"""2 by 2 (seed 003): session 21's stated play. A fact of a unit's own ground stated (or left
to its default) in a melee or a shot is held for the rest of the phase (reading 54): a
contradicting one is refused naming the rule, ``todo`` offers the held value alone, and the
unit's move (a follow-up) or the phase's end releases it. Driven through the public ``Game``
API (``tests/two_by_two/battle.py``)."""

from __future__ import annotations

import pytest

from tests.two_by_two.battle import Battle
from vedette import rules
from vedette.errors import RuleViolation


def _two_melees() -> Battle:
    """Blue's B1 has charged red's R, and red's light cavalry RC has counter-charged B1 (2 by
    2, Moving to contact): in blue's melee phase B1 fights two melees, attacker and defender.
    Red has an HQ in play (so its units may state an HQ in contact)."""
    b = Battle.stated(
        ("B1", "blue", "infantry"),
        ("R", "red", "infantry"),
        ("RC", "red", "light_cavalry"),
        ("RH", "red", "hq_division"),
    )
    b.do("charge", unit="B1", into="R", distance=2)
    b.until("shoot", "red")
    b.do("countercharge", unit="RC", target="B1", distance=3, within=True)
    b.until("melee", "blue")
    return b


def _held(b: Battle) -> list[dict[str, object]]:
    return rules.get("two_by_two").state_json(b.state)["held"]  # type: ignore[no-any-return]


def test_a_units_stated_ground_holds_for_the_phase_across_its_melees() -> None:
    # Melee: "Repulsed [2] (unit in town or woods remain in control)", "Recoils full move
    # unless in town or woods then Disrupted", "Unit is Cavalry in town -2". B1 was stated in
    # a town in its first melee and could be stated out of one in its second, the same phase:
    # two rulings on one unit's ground that cannot both be true
    b = _two_melees()
    out = b.do("melee", dice=[6, 3], attacker="B1", defender="R", a_town=True)
    assert "B1 wins" in out.message
    with pytest.raises(RuleViolation, match=r"B1 was ruled in a town.*reading 54.*b_town=true"):
        b.do("melee", dice=[1, 6], attacker="RC", defender="B1", b_town=False)
    # todo offers the held value alone, and the line runs as shown with it left out
    (line,) = b.lines("melee", attacker="RC", defender="B1")
    assert line.owed and line.open["b_town"] == (True,)
    assert line.open["a_town"] == (False, True)  # (RC's ground: nothing held)
    # RC 6, less 2 (cavalry vs ordered infantry), against B1's 2: B1 loses by 2 and, held
    # in a town, is disrupted instead of recoiling
    out = b.do("melee", dice=[6, 2], attacker="RC", defender="B1")
    assert out.details["melee"]["defender"]["town"] is True
    assert "B1 is in a town or woods: disrupted instead" in out.message
    assert b.replayed().held == b.state.held


def test_a_follow_up_and_the_phases_end_release_a_units_held_ground() -> None:
    # the ground was the unit's where it stood: once it has moved (a follow-up, Melee: "(voluntary
    # follow-up)") it may stand elsewhere, and the next phase rules afresh
    b = _two_melees()
    out = b.do("melee", dice=[6, 1], attacker="B1", defender="R", a_town=True)
    assert "B1: voluntary follow-up" in out.message
    assert {"unit": "B1", "fact": "town", "value": True} in _held(b)
    b.do("follow_up", unit="B1")
    assert not any(h["unit"] == "B1" for h in _held(b))
    (line,) = b.lines("melee", attacker="RC", defender="B1")
    assert line.open["b_town"] == (False, True)
    b.do("melee", dice=[6, 1], attacker="RC", defender="B1", a_town=True, b_town=False)
    assert {"unit": "RC", "fact": "town", "value": True} in _held(b)
    b.do("next")
    assert _held(b) == []


def test_a_shot_targets_stated_cover_holds_for_the_phase() -> None:
    # Resolving shooting: "Target is Infantry in cover ... in woods/rough or town -1". Two
    # blue firers at red's R in one shooting phase: R in a town for one, in the open for the
    # other
    b = Battle.stated(
        ("B1", "blue", "infantry"),
        ("B2", "blue", "infantry"),
        ("R", "red", "infantry"),
        ("R2", "red", "infantry"),
    )
    b.until("shoot", "blue")
    b.do("shoot", dice=[4], firer="B1", target="R", band="musket", cover="area")
    with pytest.raises(RuleViolation, match=r"R was ruled in woods/rough or town.*reading 54"):
        b.do("shoot", dice=[4], firer="B2", target="R", band="musket", cover="none")
    # R has a line of its own, its cover's choices those plan accepts; R2 keeps the shared line
    (own,) = b.lines("shoot", firer="B2", target="R")
    assert own.open["cover"] == ("area", "both") and "held" in own.text
    (shared,) = [t for t in b.lines("shoot", firer="B2") if "target" not in t.request]
    assert shared.open["target"] == ("R2",)
    out = b.do("shoot", dice=[4], **own.request)
    reasons = [m.reason for m in out.rolls[0].modifiers]
    assert "target infantry in woods/rough or town, held this phase" in reasons
