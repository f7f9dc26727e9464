"""2 by 2 (seed 003): facts the player states that the referee can check, and the last typed
ones. A stated HQ in base contact with no other HQ of the unit's side in play is refused
(shots and melees here; rallies in test_2x2_session20.py); a Light Infantry target's enemy
cavalry near is picked on the shot line, and refused where the firer's side has no cavalry; a
shot's contagion leaves out a target the line knows; a pinned unit does not rout voluntarily
(reading 18). Driven through the public ``Game`` API (``tests/two_by_two/battle.py``)."""

from __future__ import annotations

import pytest

from tests.two_by_two.battle import Battle
from vedette.errors import RuleViolation


def test_a_stated_hq_contact_with_no_hq_of_the_side_in_play_is_refused() -> None:
    # Resolving shooting, Rallying, Melee: "HQ in base to base contact +1". Stated, the +1
    # was given whatever the table held: blue has no HQ at all, so none can touch its units
    b = Battle.stated(
        ("B", "blue", "infantry"),
        ("B2", "blue", "infantry"),
        ("R", "red", "infantry"),
        ("R2", "red", "infantry"),
        ("RH", "red", "hq_division"),
    )
    b.until("shoot", "blue")
    with pytest.raises(RuleViolation, match=r"no other HQ of its side.*Resolving shooting"):
        b.do("shoot", dice=[4], firer="B", target="R", band="musket", hq_contact=True)
    # "no" is no claim to check; and red, whose HQ is in play, may state its contact
    out = b.do("shoot", dice=[4], firer="B", target="R", band="musket", hq_contact=False)
    assert "HQ" not in " ".join(m.reason for m in out.rolls[0].modifiers)
    b.until("move", "red")
    b.do("charge", unit="R2", into="B2", distance=2)
    b.until("melee", "red")
    with pytest.raises(RuleViolation, match=r"B2 has no HQ.*\(2 by 2, Melee\)"):
        b.do("melee", dice=[6, 1, 4], attacker="R2", defender="B2", b_hq_contact=True)
    out = b.do("melee", dice=[6, 1], attacker="R2", defender="B2", a_hq_contact=True)
    assert "HQ in base contact, stated" in [m.reason for m in out.rolls[0].a.modifiers]


def test_a_light_infantry_targets_cavalry_near_is_picked_not_typed() -> None:
    # Resolving shooting: "Target is Light Infantry -1 (negate if in the open and enemy
    # cavalry within 1/2 move)". Stated, "cavalry_near" and "in_open" were typed; now the
    # cavalry is a choice (a free one: read only of a Light Infantry target) where a target
    # is Light Infantry and the firer's side has cavalry, the open ground read off the cover
    b = Battle.stated(
        ("B", "blue", "infantry"),
        ("BC", "blue", "light_cavalry"),
        ("L", "red", "light"),
        ("R", "red", "infantry"),
    )
    b.until("shoot", "blue")
    (line,) = b.lines("shoot", firer="B")
    assert line.open["cavalry_near"] == (False, True) and "cavalry_near" in line.free
    shot = {**line.request, "target": "L", "band": "musket", "dice": [4]}
    out = b.do("shoot", **shot, cover="none", cavalry_near=True)
    reasons = [m.reason for m in out.rolls[0].modifiers]
    assert any("its -1 negated" in r for r in reasons), reasons
    # in woods the Light Infantry is not in the open: its -1 stands
    b2 = Battle.stated(
        ("B", "blue", "infantry"),
        ("BC", "blue", "light_cavalry"),
        ("L", "red", "light"),
    )
    b2.until("shoot", "blue")
    out = b2.do("shoot", **shot, cover="area", cavalry_near=True)
    assert "target is Light Infantry" in [m.reason for m in out.rolls[0].modifiers]


def test_no_cavalry_near_is_asked_or_accepted_where_the_firers_side_has_none() -> None:
    b = Battle.stated(("B", "blue", "infantry"), ("L", "red", "light"))
    b.until("shoot", "blue")
    (line,) = b.lines("shoot", firer="B")
    assert "cavalry_near" not in line.open
    with pytest.raises(RuleViolation, match=r"side has no cavalry in play.*Resolving shooting"):
        b.do("shoot", dice=[4], firer="B", target="L", band="musket", cavalry_near=True)


def test_a_stated_shots_contagion_leaves_out_a_target_it_knows() -> None:
    # Unit Summary: "** rout whenever any rout w/in [3]": a shot that routs its target may
    # take along the ** units near it, not the target itself (it is the rout). Stated, the
    # target was among the contagion's choices (ignored). Where the line knows its target
    # (in contact, or the one target there is) it is left out; a line picking among several
    # keeps them all (one field's choices cannot follow another's pick)
    b = Battle.stated(
        ("M", "blue", "militia"),
        ("M2", "blue", "militia"),
        ("R", "red", "infantry"),
        ("R2", "red", "infantry"),
    )
    b.do("charge", unit="M", into="R", distance=2)
    (fire,) = b.lines("shoot", firer="R", target="M")
    assert "fire on its charger" in fire.text and fire.open["contagion"] == ((), ("M2",))
    b.until("shoot", "red")
    (contact,) = b.lines("shoot", firer="R", target="M")
    assert contact.open["contagion"] == ((), ("M2",))
    (one,) = b.lines("shoot", firer="R", band="musket")  # (picking its target: M2 alone)
    assert one.open["target"] == ("M2",) and one.open["contagion"] == ((), ("M",))
    (two,) = b.lines("shoot", firer="R2")
    assert set(two.open["target"]) == {"M", "M2"}
    assert two.open["contagion"] == ((), ("M",), ("M2",), ("M", "M2"))


def test_a_pinned_unit_does_not_rout_voluntarily() -> None:
    # Unit Summary "*** may voluntarily rout"; Resolving shooting "Pinned: may only change
    # facing": a rout is a move away (a full move), so a pinned Light unit may not take it
    # by choice, in its move phase or when charged (reading 18 named only the disrupted)
    b = Battle.quick(
        [
            {"id": "L", "side": "blue", "type": "light", "x": 300, "y": 300, "pinned": True},
            {"id": "F", "side": "blue", "type": "light", "x": 500, "y": 300},
            {"id": "I", "side": "red", "type": "infantry", "x": 300, "y": 500},
        ]
    )
    routs = [dict(t.request) for t in b.todo() if t.procedure == "rout"]
    assert routs == [{"unit": "F"}]
    with pytest.raises(RuleViolation, match=r"L is pinned: it may only change facing.*shooting"):
        b.do("rout", dice=[5], unit="L")
    assert not b.state.unit("L").routed
