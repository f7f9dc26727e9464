"""2 by 2, Melee: every row of the loser's table, draws, every modifier, follow-ups, who may
not initiate, routs and rout contagion (Unit Summary **), voluntary routs (***)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.two_by_two.battle import Battle
from vedette.errors import RuleViolation

N = 19.05


def fight(
    a: str = "infantry",
    d: str = "infantry",
    terrain: tuple[dict[str, Any], ...] = (),
    extra: tuple[dict[str, Any], ...] = (),
    av: dict[str, Any] | None = None,
    dv: dict[str, Any] | None = None,
) -> Battle:
    """Blue ``a`` at (300,100) facing north in contact with red ``d`` facing south; blue is
    player 1, so the battle is taken to blue's melee phase (phase 4)."""
    units = [
        {"id": "A", "side": "blue", "type": a, "x": 300, "y": 100, **(av or {})},
        {"id": "D", "side": "red", "type": d, "x": 300, "y": 112, **(dv or {})},
        *extra,
    ]
    b = Battle.quick(units, terrain)
    b.until("melee", "blue")
    return b


def mods(out: Any, side: str = "a") -> dict[str, int]:
    if not out.rolls:  # the check_melee query
        return dict(out.details["modifiers"]["attacker" if side == "a" else "defender"])
    r = out.rolls[0].a if side == "a" else out.rolls[0].b
    return {m.reason: m.value for m in r.modifiers}


@pytest.mark.parametrize(
    ("faces", "row"),
    [
        ([4, 3], "defender_repulsed"),
        ([5, 3], "defender_recoils"),
        ([6, 3, 4], "defender_routs"),
        ([5, 1], "defender_destroyed"),
        ([6, 1], "defender_destroyed"),
        ([3, 4], "attacker_repulsed"),
        ([1, 3], "attacker_recoils"),
        ([1, 5], "attacker_destroyed"),
    ],
)
def test_rows(faces: list[int], row: str) -> None:
    b = fight()
    out = b.do("melee", dice=faces, attacker="A", defender="D")
    assert out.rolls[0].row == row


def test_repulsed_two_and_recoil_full_move() -> None:
    b = fight()
    b.do("melee", dice=[4, 3], attacker="A", defender="D")
    d = b.state.unit("D")
    assert d.body is not None and d.body.centre.y == pytest.approx(112 + 2 * N)
    assert d.body.facing == pytest.approx(180)  # keeps its facing
    b = fight()
    b.do("melee", dice=[5, 3], attacker="A", defender="D")
    d = b.state.unit("D")
    assert d.body is not None and d.body.centre.y == pytest.approx(112 + 4 * N)


def test_repulse_and_recoil_say_town_or_woods_only_where_it_applies() -> None:
    # Melee: "Repulsed [2] (unit in town or woods remain in control)", "Recoils full move
    # unless in town or woods then Disrupted". The result said the row's town-or-woods clause
    # to a loser in the open too; now only to a loser in a town or woods
    b = fight()
    out = b.do("melee", dice=[4, 3], attacker="A", defender="D")
    assert "D repulsed [2]" in out.message
    assert "town or woods" not in out.message
    b = fight()
    out = b.do("melee", dice=[5, 3], attacker="A", defender="D")
    assert "D recoils a full move" in out.message
    assert "town or woods" not in out.message
    town = {"kind": "town", "name": "t", "area": [[250, 106], [350, 106], [350, 160], [250, 160]]}
    out = fight(terrain=(town,)).do("melee", dice=[4, 3], attacker="A", defender="D")
    assert "D is in a town or woods: it stays in control" in out.message
    out = fight(terrain=(town,)).do("melee", dice=[5, 3], attacker="A", defender="D")
    assert "D is in a town or woods: disrupted instead" in out.message


def test_town_or_woods_holds() -> None:
    town = {"kind": "town", "name": "t", "area": [[250, 106], [350, 106], [350, 160], [250, 160]]}
    b = fight(terrain=(town,))
    out = b.do("melee", dice=[4, 3], attacker="A", defender="D")
    assert "stays in control" in out.message
    d = b.state.unit("D")
    assert d.body is not None and d.body.centre.y == pytest.approx(112) and not d.disrupted
    b = fight(terrain=(town,))
    b.do("melee", dice=[5, 3], attacker="A", defender="D")
    d = b.state.unit("D")
    assert d.disrupted and d.body is not None and d.body.centre.y == pytest.approx(112)


def test_draws_are_rerolled() -> None:
    b = fight()
    out = b.do("melee", dice=[3, 3, 2, 2, 4, 3], attacker="A", defender="D")
    assert len(out.rolls[0].draws) == 2
    assert out.rolls[0].row == "defender_repulsed"


def test_loser_distribution_with_draws_rerolled() -> None:
    b = fight()
    o = b.odds("melee", attacker="A", defender="D")[0]
    assert o.p("draw") == 0
    # equal sides: 30 non-draw outcomes; difference 1 in 5 of them each way
    assert o.p("defender_repulsed") == Fraction(5, 30)
    assert o.p("attacker_destroyed") == Fraction(1 + 2, 30)  # -4, -5
    assert o.p("defender_destroyed_mandatory") == 0
    assert sum(r.p for r in o.rows) == 1


def test_rout_destroyed_and_follow_up() -> None:
    b = fight()
    out = b.do("melee", dice=[6, 3, 1], attacker="A", defender="D")
    assert b.state.unit("D").status == "destroyed"
    assert "voluntary follow-up" in out.message
    assert b.state.follow_ups[0].unit == "A" and not b.state.follow_ups[0].mandatory
    b.do("follow_up", unit="A", decline=True)
    assert b.state.follow_ups == ()


def test_mandatory_follow_up_must_be_made() -> None:
    b = fight(av={"formation": "attack_column"})
    out = b.do("melee", dice=[6, 1], attacker="A", defender="D")
    assert out.rolls[0].row == "defender_destroyed_mandatory"
    with pytest.raises(RuleViolation, match="mandatory"):
        b.do("follow_up", unit="A", decline=True)
    with pytest.raises(RuleViolation, match="mandatory follow-up owed"):
        b.do("next")
    b.do("follow_up", unit="A")
    a = b.state.unit("A")
    assert a.body is not None and a.body.centre.y == pytest.approx(112)
    b.do("next")


def test_mandatory_follow_up_voluntary_when_winner_in_town() -> None:
    town = {"kind": "town", "name": "t", "area": [[250, 80], [350, 80], [350, 106], [250, 106]]}
    b = fight(av={"formation": "attack_column"}, terrain=(town,))
    b.do("melee", dice=[6, 1], attacker="A", defender="D")
    assert not b.state.follow_ups[0].mandatory


def test_follow_up_into_a_subsequent_melee_with_minus_one() -> None:
    second = {"id": "D2", "side": "red", "type": "infantry", "x": 300, "y": 124}
    b = fight(extra=(second,), av={"formation": "attack_column"})
    b.do("melee", dice=[6, 1], attacker="A", defender="D")
    b.do("follow_up", unit="A")
    assert [(m.attacker, m.defender) for m in b.state.melees] == [("A", "D2")]
    out = b.do("melee", dice=[3, 1], attacker="A", defender="D2")
    assert mods(out)["attacker's subsequent melee"] == -1


def test_infantry_may_not_initiate_against_cavalry_nor_artillery_at_all() -> None:
    b = fight(d="heavy_cavalry")
    with pytest.raises(RuleViolation, match="infantry cannot initiate"):
        b.do("melee", dice=[1, 1], attacker="A", defender="D")
    b = fight(a="foot_artillery")
    with pytest.raises(RuleViolation, match="artillery cannot initiate"):
        b.do("melee", dice=[1, 1], attacker="A", defender="D")


def test_modifiers_each() -> None:
    assert (
        mods(fight(a="guard").do("check_melee", attacker="A", defender="D"))["unit is Guards"] == 1
    )
    m = mods(
        fight(a="light_cavalry", d="heavy_cavalry").do("check_melee", attacker="A", defender="D")
    )
    assert m["Light Cavalry or Lancers vs cavalry"] == -1
    m = mods(
        fight(a="lancers", dv={"disrupted": True}).do("check_melee", attacker="A", defender="D")
    )
    assert m["Lancers vs disrupted"] == 2 and m["enemy is disrupted"] == 2
    m = mods(fight(a="heavy_cavalry").do("check_melee", attacker="A", defender="D"))
    assert m["unit is Heavy Cavalry"] == 2 and m["cavalry vs ordered infantry"] == -2
    m = mods(
        fight(a="heavy_cavalry", dv={"disrupted": True}).do(
            "check_melee", attacker="A", defender="D"
        )
    )
    assert "cavalry vs ordered infantry" not in m
    m = mods(fight(a="heavy_cavalry").do("check_melee", attacker="A", defender="D", a_town=True))
    assert m["cavalry in town, stated"] == -2
    m = mods(fight(av={"formation": "attack_column"}).do("check_melee", attacker="A", defender="D"))
    assert m["column of attack"] == 1
    m = mods(fight(av={"formation": "road_column"}).do("check_melee", attacker="A", defender="D"))
    assert m["unit in road column"] == -2
    hq = {"id": "H", "side": "blue", "type": "hq_corps", "x": 300, "y": 88}
    m = mods(fight(extra=(hq,)).do("check_melee", attacker="A", defender="D"))
    assert m["HQ in base contact"] == 1
    hill = {"kind": "hill", "name": "h", "circle": [300, 95], "radius": 15}
    m = mods(fight(terrain=(hill,)).do("check_melee", attacker="A", defender="D"))
    assert m["higher than opponent"] == 1
    out = fight(d="foot_artillery").do("check_melee", attacker="A", defender="D")
    assert mods(out, "b")["unit is artillery/HQ"] == -3
    out = fight(d="hq_division").do("check_melee", attacker="A", defender="D")
    assert mods(out, "b")["unit is artillery/HQ"] == -3


def test_overlap_support() -> None:
    left = {"id": "S1", "side": "blue", "type": "infantry", "x": 275, "y": 100}
    right = {"id": "S2", "side": "blue", "type": "infantry", "x": 325, "y": 100}
    out = fight(extra=(left, right)).do("check_melee", attacker="A", defender="D")
    assert mods(out)["overlap support: 2 extra unit(s)"] == 2
    out = fight().do("check_melee", attacker="A", defender="D", a_support=1)
    assert mods(out)["overlap support: 1 extra unit(s), stated"] == 1


def test_rout_contagion_of_double_star_units() -> None:
    # red militia within [3] of the routing red infantry routs too (and rolls)
    mil = {"id": "M", "side": "red", "type": "militia", "x": 350, "y": 130, "facing": 180}
    far = {"id": "M2", "side": "red", "type": "militia", "x": 550, "y": 500, "facing": 180}
    b = fight(extra=(mil, far))
    out = b.do("melee", dice=[6, 3, 4, 1], attacker="A", defender="D")
    assert b.state.unit("D").disrupted
    assert b.state.unit("M").status == "destroyed"
    assert b.state.unit("M2").status == "table" and not b.state.unit("M2").disrupted
    assert "(**) routs" in out.message


def test_voluntary_rout_of_triple_star_units() -> None:
    b = Battle.quick(
        [
            {"id": "A", "side": "blue", "type": "heavy_cavalry", "x": 300, "y": 100},
            {"id": "D", "side": "red", "type": "light_cavalry", "x": 300, "y": 100 + 12 + 3 * N},
            {"id": "I", "side": "red", "type": "infantry", "x": 100, "y": 500},
        ]
    )
    b.do("move", unit="A", path=[[300, 100], [300, 100 + 3 * N]])
    assert b.state.melees
    # a voluntary rout is a rout: 1d6, 1-2 destroyed, else a full move away, disrupted
    (odds,) = b.odds("rout", unit="D")
    assert odds.p("destroyed") == Fraction(1, 3) and odds.p("flees") == Fraction(2, 3)
    before = b.state
    out = b.do("rout", dice=[3], unit="D")
    d = b.state.unit("D")
    assert d.disrupted and d.routed and d.status == "table" and b.state.melees == ()
    assert out.rolls[0].row == "flees"
    b.state = before
    b.do("rout", dice=[2], unit="D")
    assert b.state.unit("D").status == "destroyed" and b.state.melees == ()
    with pytest.raises(RuleViolation, match=r"not \*\*\*"):
        b.do("rout", unit="I")


def test_a_routed_or_disrupted_unit_does_not_rout_voluntarily_again() -> None:
    # 2 by 2, Unit Summary "*** may voluntarily rout" and Resolving shooting "Disrupted: may
    # not move": a rout leaves the unit disrupted, so it flees of its own will once, not again
    # and again in the same move phase (each a full move away and a new destruction roll)
    b = Battle.quick(
        [
            {"id": "L", "side": "blue", "type": "lancers", "x": 300, "y": 300},
            {"id": "I", "side": "red", "type": "infantry", "x": 300, "y": 500},
        ]
    )
    assert ("rout", {"unit": "L"}) in [(t.procedure, dict(t.request)) for t in b.todo()]
    b.do("rout", dice=[5], unit="L")
    assert b.state.unit("L").disrupted and b.state.unit("L").routed
    assert "rout" not in [t.procedure for t in b.todo()]
    with pytest.raises(RuleViolation, match=r"disrupted: it may not move.*Resolving shooting"):
        b.do("rout", dice=[5], unit="L")


def test_voluntary_rout_without_the_roll_is_a_knob() -> None:
    b = Battle.quick(
        [
            {"id": "A", "side": "blue", "type": "infantry", "x": 300, "y": 100},
            {"id": "L", "side": "blue", "type": "lancers", "x": 400, "y": 100},
            {"id": "I", "side": "red", "type": "infantry", "x": 100, "y": 500},
        ],
        options={"house_rules": {"rout": {"voluntary_rolls": False}}},
    )
    assert b.odds("rout", unit="L") == []
    out = b.do("rout", dice=[], unit="L")
    assert out.rolls == () and b.state.unit("L").disrupted
    with pytest.raises(RuleViolation, match="Unit Summary"):
        b.do("rout", unit="A")


def test_two_attackers_on_one_defender_fight_one_melee() -> None:
    # blue A and S both charge red D; S counts as overlap support of A and its melee is settled
    b = Battle.quick(
        [
            {"id": "A", "side": "blue", "type": "infantry", "x": 300, "y": 100},
            {"id": "S", "side": "blue", "type": "infantry", "x": 325, "y": 100},
            {"id": "D", "side": "red", "type": "infantry", "x": 312, "y": 112 + 2 * N},
        ]
    )
    b.do("move", unit="A", path=[[300, 100], [300, 100 + 2 * N]])
    b.do("move", unit="S", path=[[325, 100], [325, 100 + 2 * N]])
    assert len(b.state.melees) == 2
    b.until("melee", "blue")
    out = b.do("melee", dice=[2, 1], attacker="A", defender="D")
    assert mods(out)["overlap support: 1 extra unit(s)"] == 1
    assert b.state.melees == ()
