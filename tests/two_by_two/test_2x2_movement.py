"""2 by 2, Movement Modifiers and Moving to contact: allowances, terrain costs, contact rules,
counter-charges and turning to face."""

from __future__ import annotations

from typing import Any

import pytest

from tests.two_by_two.battle import Battle
from vedette.errors import BadRequest, RuleViolation
from vedette.geometry import tabletop as tt

N = 19.05
ROAD = {"kind": "road", "name": "road", "line": [[300, 0], [300, 609.6]], "width": 12}
STREAM = {"kind": "stream", "name": "stream", "line": [[0, 150], [609.6, 150]]}
BRIDGE = {
    "kind": "bridge",
    "name": "bridge",
    "area": [[290, 140], [310, 140], [310, 160], [290, 160]],
}
TOWN = {"kind": "town", "name": "town", "area": [[250, 120], [350, 120], [350, 160], [250, 160]]}
WOODS = {"kind": "woods", "name": "woods", "area": [[250, 120], [350, 120], [350, 160], [250, 160]]}
HEDGE = {"kind": "hedge", "name": "hedge", "line": [[200, 130], [400, 130]]}


def one(kind: str = "infantry", terrain: tuple[dict[str, Any], ...] = (), **u: Any) -> Battle:
    units = [
        {"id": "B", "side": "blue", "type": kind, "x": 300, "y": 100, **u},
        {"id": "R", "side": "red", "type": "infantry", "x": 100, "y": 550},
    ]
    return Battle.quick(units, terrain)


def north(n: float) -> list[list[float]]:
    return [[300, 100], [300, 100 + n * N]]


def cost(b: Battle, **req: Any) -> dict[str, Any]:
    out = b.do("check_move", unit="B", **req)
    plan: dict[str, Any] = out.details["move"]
    return plan


def test_allowance_from_the_unit_summary() -> None:
    for kind, mv in (
        ("infantry", 4),
        ("guard", 5),
        ("light", 6),
        ("militia", 4),
        ("hq_corps", 10),
        ("hq_division", 10),
        ("heavy_cavalry", 6),
        ("light_cavalry", 8),
        ("lancers", 8),
        ("cossacks", 10),
        ("foot_artillery", 4),
        ("horse_artillery", 6),
    ):
        b = one(kind)
        assert cost(b, path=north(1))["allowance"] == mv
        assert cost(b, path=north(mv))["legal"]
        assert not cost(b, path=north(mv + 0.05))["legal"]


def test_move_is_applied_and_once_per_phase() -> None:
    b = one()
    b.do("move", unit="B", path=north(4))
    u = b.state.unit("B")
    assert u.moved and u.body is not None
    assert u.body.centre.y == pytest.approx(100 + 4 * N)
    with pytest.raises(RuleViolation, match="already moved"):
        b.do("move", unit="B", path=[[300, 180]])


def test_road_bonus_only_for_a_whole_move_on_road() -> None:
    b = one(terrain=(ROAD,))
    p = cost(b, path=north(5))
    assert p["allowance"] == 5 and p["legal"]
    off = cost(b, path=[[300, 100], [300, 150], [330, 160]])
    assert off["allowance"] == 4


def test_no_road_bonus_through_a_town_and_half_rate() -> None:
    b = one(terrain=(ROAD, TOWN))
    p = cost(b, path=north(3))
    assert p["allowance"] == 4  # no road bonus
    inside = (100 + 3 * N - 120) / N
    assert p["cost"] == pytest.approx(3 + inside, abs=1e-3)
    assert p["through_town"]


def test_bridge_halves_unless_whole_move_on_road_in_road_column() -> None:
    b = one(terrain=(ROAD, STREAM, BRIDGE))
    p = cost(b, path=north(3))
    assert p["allowance"] == pytest.approx(2.5)  # ([4] + [1] road) x 1/2
    assert not p["legal"]
    b = one(terrain=(ROAD, STREAM, BRIDGE), formation="road_column")
    p = cost(b, path=north(3))
    assert p["allowance"] == 5 and p["legal"]
    assert p["cost"] == pytest.approx(3)  # the stream is crossed by the bridge: no +[1]


def test_stream_costs_an_extra_one() -> None:
    b = one(terrain=(STREAM,))
    p = cost(b, path=[[300, 100], [300, 100 + 3 * N]])
    assert p["cost"] == pytest.approx(4) and p["legal"]
    assert not cost(b, path=[[300, 100], [300, 100 + 3.1 * N]])["legal"]


def test_woods_impassable_except_light_infantry_and_cossacks_at_half() -> None:
    b = one(terrain=(WOODS,))
    p = cost(b, path=north(2))
    assert not p["legal"] and "impassable" in p["problems"][0]["problem"]
    with pytest.raises(RuleViolation, match="impassable"):
        b.do("move", unit="B", path=north(2))
    for kind in ("light", "cossacks"):
        b = one(kind, terrain=(WOODS,))
        p = cost(b, path=north(2))
        assert p["legal"]
        assert p["cost"] == pytest.approx(2 + (100 + 2 * N - 120) / N, abs=1e-3)


def test_hedges_cost_nothing() -> None:
    b = one(terrain=(HEDGE,))
    p = cost(b, path=north(4))
    assert p["cost"] == pytest.approx(4) and p["legal"]
    assert "hedge" in p["crossed"]


def test_pinned_may_only_change_facing_disrupted_may_not_move() -> None:
    b = one(pinned=True)
    with pytest.raises(RuleViolation, match="pinned"):
        b.do("move", unit="B", path=north(1))
    b.do("move", unit="B", facing=90)
    u = b.state.unit("B")
    assert u.body is not None and u.body.facing == 90
    b = one(disrupted=True)
    with pytest.raises(RuleViolation, match="disrupted"):
        b.do("move", unit="B", facing=90)


def test_off_table_and_overlap_refused() -> None:
    b = one(x=40)
    with pytest.raises(RuleViolation, match="off the table"):
        b.do("move", unit="B", path=[[40, 100], [5, 100]], facing=0)
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100},
            {"id": "B2", "side": "blue", "type": "infantry", "x": 300, "y": 150},
        ]
    )
    with pytest.raises(RuleViolation, match="on top of"):
        b.do("move", unit="B", path=north(2.6))


def contact_battle(
    kind: str = "infantry", enemy: str = "infantry", gap: float = 2.0, **kw: Any
) -> Battle:
    """Blue ``kind`` at (300,100) facing north, red ``enemy`` ``gap`` [n] ahead facing south."""
    units = [
        {"id": "B", "side": "blue", "type": kind, "x": 300, "y": 100},
        {"id": "R", "side": "red", "type": enemy, "x": 300, "y": 100 + 12 + gap * N},
        *kw.get("extra", ()),
    ]
    return Battle.quick(units, kw.get("terrain", ()))


def test_move_to_contact_makes_a_pending_melee() -> None:
    b = contact_battle()
    out = b.do("move", unit="B", path=north(2))
    assert out.details["move"]["contacts"] == ["R"]
    assert [(m.attacker, m.defender) for m in b.state.melees] == [("B", "R")]
    assert out.details["move"]["may_turn_and_fire"] == ["R"]


def test_last_two_straight_ahead() -> None:
    b = contact_battle(gap=2.0)
    # wheel in the last [2]: approach from the side, turning into contact
    with pytest.raises(RuleViolation, match="straight ahead"):
        b.do("move", unit="B", path=[[300, 100], [280, 110], [300, 100 + 2 * N]], facing=0)
    # a move shorter than [2] may not turn
    b = contact_battle(gap=1.0)
    with pytest.raises(RuleViolation, match="straight ahead"):
        b.do("move", unit="B", path=[[300, 100], [310, 100 + 1 * N]], facing=0)


def test_who_may_not_initiate() -> None:
    b = contact_battle(enemy="heavy_cavalry")
    with pytest.raises(RuleViolation, match="infantry cannot initiate melee with cavalry"):
        b.do("move", unit="B", path=north(2))
    b = contact_battle(kind="foot_artillery")
    with pytest.raises(RuleViolation, match="artillery cannot initiate"):
        b.do("move", unit="B", path=north(2))
    town = {"kind": "town", "name": "t", "area": [[280, 105], [320, 105], [320, 120], [280, 120]]}
    b = contact_battle(kind="heavy_cavalry", terrain=(town,))
    with pytest.raises(RuleViolation, match="through a town"):
        b.do("move", unit="B", path=north(2))
    assert b.state.melees == ()


def test_countercharge_trigger_and_procedure() -> None:
    cav = {"id": "RC", "side": "red", "type": "light_cavalry", "x": 340, "y": 200, "facing": 180}
    b = contact_battle(gap=6, extra=(cav,))
    out = b.do("move", unit="B", path=north(2))
    cc = out.details["move"]["countercharge_possible_by"]
    assert [c["unit"] for c in cc] == ["RC"]  # within [4] (1/2 of [8])
    with pytest.raises(RuleViolation, match="Sequence of play"):
        b.do("countercharge", unit="RC", target="B", path=[[340, 200], [300, 100 + 2 * N + 12]])
    b.do("next")
    b.do("next")  # red shoots and counter-charges
    b.do(
        "countercharge",
        unit="RC",
        target="B",
        path=[[340, 200], [300, 200], [300, 100 + 2 * N + 12]],
        facing=180,
    )
    assert b.state.melees[-1].attacker == "RC" and b.state.melees[-1].counter_charge


def test_countercharge_out_of_reach_refused() -> None:
    cav = {"id": "RC", "side": "red", "type": "heavy_cavalry", "x": 340, "y": 300, "facing": 180}
    b = contact_battle(gap=12, extra=(cav,))
    b.do("move", unit="B", path=north(2))
    b.until("shoot", "red")
    with pytest.raises(RuleViolation, match="1/2 move"):
        b.do("countercharge", unit="RC", target="B", path=[[340, 300], [300, 160]])


def test_infantry_turns_to_face_and_fires_on_charger() -> None:
    # blue cavalry charges red infantry in its flank
    units = [
        {"id": "BC", "side": "blue", "type": "heavy_cavalry", "x": 200, "y": 300, "facing": 90},
        {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 300, "facing": 180},
    ]
    b = Battle.quick(units)
    b.do("move", unit="BC", path=[[200, 300], [300 - 6 - 12.5, 300]], facing=90)
    assert b.state.melees
    b.do("face", unit="R", toward="BC")
    r, c = b.state.unit("R"), b.state.unit("BC")
    assert r.body is not None and c.body is not None
    assert r.body.facing == pytest.approx(270)
    assert c.body.facing == pytest.approx(90)
    out = b.do("shoot", dice=[4], firer="R", target="BC")
    assert out.details["reaction_fire"]
    assert "enfilade: target's flank or rear" not in {m.reason for m in out.rolls[0].modifiers}
    # it has had its shot for the turn
    b.until("shoot", "red")
    with pytest.raises(RuleViolation, match="once"):
        b.do("shoot", dice=[4], firer="R", target="BC")


def test_infantry_engaged_with_another_enemy_may_not_turn_or_fire() -> None:
    # red R is already in base contact with blue E; blue BC charges it in the flank
    units = [
        {"id": "BC", "side": "blue", "type": "heavy_cavalry", "x": 200, "y": 300, "facing": 90},
        {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 300, "facing": 180},
        {"id": "E", "side": "blue", "type": "infantry", "x": 300, "y": 288, "facing": 0},
    ]
    b = Battle.quick(units)
    b.do("move", unit="BC", path=[[200, 300], [300 - 6 - 12.5, 300]], facing=90)
    assert [m.defender for m in b.state.melees] == ["R"]
    with pytest.raises(RuleViolation, match=r"engaged.*Moving to contact"):
        b.do("face", unit="R", toward="BC")
    with pytest.raises(RuleViolation, match="engaged"):
        b.do("shoot", dice=[4], firer="R", target="BC")


def test_stated_move_without_positions() -> None:
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "heavy_cavalry"},
            {"id": "R", "side": "red", "type": "infantry"},
        ]
    )
    out = b.do("check_move", unit="B", distance=6.5, road=True)
    assert out.details["move"]["legal"] and out.details["move"]["allowance"] == 7
    with pytest.raises(RuleViolation, match="through a town"):
        b.do("move", unit="B", distance=4, town=1, contact=["R"])
    b.do("move", unit="B", distance=5, contact=["R"])
    assert b.state.melees[0].defender == "R"
    b = Battle.quick([{"id": "B", "side": "blue", "type": "infantry"}])
    with pytest.raises(BadRequest, match="no position"):
        b.do("move", unit="B", path=[[1, 1]])


def test_check_move_changes_nothing() -> None:
    b = one(terrain=(WOODS,))
    before = b.state
    b.do("check_move", unit="B", path=north(9))
    assert b.state == before and b.events == []


def test_no_contact_in_the_turn_cavalry_moved_through_a_town() -> None:
    town = {"kind": "town", "name": "t", "area": [[100, 80], [200, 80], [200, 140], [100, 140]]}
    units = [
        {"id": "BC", "side": "blue", "type": "light_cavalry", "x": 150, "y": 60},
        {"id": "R", "side": "red", "type": "infantry", "x": 150, "y": 290},
    ]
    b = Battle.quick(units, (town,))
    b.do("move", unit="BC", path=[[150, 60], [150, 150]], facing=0)
    assert b.state.unit("BC").through_town
    b.until("move", "red")
    out = b.do("move", unit="R", to=[150, 225], facing=180)
    # within its reach, but the move does not name it: its counter-charge would be refused
    assert out.details["move"]["countercharge_possible_by"] == []
    b.until("shoot", "blue")  # phase 7, the same turn
    with pytest.raises(RuleViolation, match="through a town"):
        b.do("countercharge", unit="BC", target="R", path=[[150, 150], [150, 213]], facing=0)
    b.do("next")
    b.do("next")
    assert not b.state.unit("BC").through_town  # a new turn


def test_formation_changes_and_screens_are_free_in_the_units_move_phase() -> None:
    """Reading 25 (the text prices no formation change): a change of formation or of the
    skirmisher screen costs none of the move, in the unit's own move phase; a pinned or
    disrupted unit may not change, and neither may a unit outside its move phase."""
    b = one()
    b.do("formation", unit="B", formation="attack_column")
    b.do("formation", unit="B", screen=True)
    u = b.state.unit("B")
    assert u.formation == "attack_column" and u.screened
    plan = cost(b, path=north(4))
    assert plan["legal"] and plan["allowance"] == 4  # the whole move is still there
    for marker in ("pinned", "disrupted"):
        with pytest.raises(RuleViolation, match=marker):
            one(**{marker: True}).do("formation", unit="B", formation="attack_column")
    b.do("next")  # to blue's rally phase
    with pytest.raises(RuleViolation, match="Sequence of play"):
        b.do("formation", unit="B", formation="line")


def test_a_second_charge_does_not_take_back_the_first_chargers_reaction() -> None:
    # 2 by 2, Moving to contact: "Infantry may turn to face when charged if not engaged and may
    # fire on charging unit". R was not engaged when B1 charged it; B2's later charge (into its
    # flank) engages it, which bars a reaction to B2 but not the one B1's charge gave it.
    units = [
        {"id": "B1", "side": "blue", "type": "infantry", "x": 300, "y": 240},
        {"id": "B2", "side": "blue", "type": "heavy_cavalry", "x": 200, "y": 300, "facing": 90},
        {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 300, "facing": 180},
    ]
    b = Battle.quick(units)
    b.do("charge", unit="B1", into="R")
    b.do("move", unit="B2", path=[[200, 300], [300 - 6 - 12.5, 300]], facing=90)
    assert [(m.attacker, m.defender) for m in b.state.melees] == [("B1", "R"), ("B2", "R")]
    with pytest.raises(RuleViolation, match="engaged"):
        b.do("face", unit="R", toward="B2")
    assert ("shoot", {"firer": "R", "target": "B1"}) in [
        (t.procedure, dict(t.request)) for t in b.todo()
    ]
    b.do("shoot", dice=[4], firer="R", target="B1")
    assert b.state.unit("R").shot


def test_a_countercharge_at_an_enemy_not_dead_ahead_turns_to_face_it_first() -> None:
    # 2 by 2, Moving to contact: "Cavalry may counter-charge an enemy unit which moves within a
    # 1/2 move or less". The charge's message names R2 as able to counter-charge B1, 25 degrees
    # off its front: it turns to face B1 (turning is free, reading 33) and runs straight in.
    # Before, without a path it was refused and todo offered nothing.
    units = [
        {"id": "B1", "side": "blue", "type": "heavy_cavalry", "x": 300, "y": 200},
        {"id": "R1", "side": "red", "type": "infantry", "x": 300, "y": 300, "facing": 180},
        {"id": "R2", "side": "red", "type": "light_cavalry", "x": 380, "y": 250, "facing": 270},
    ]
    b = Battle.quick(units)
    assert "may be counter-charged by R2" in b.do("charge", unit="B1", into="R1").message
    b.do("next")
    b.do("next")
    offered = [(t.procedure, dict(t.request), dict(t.open)) for t in b.todo()]
    assert ("countercharge", {"unit": "R2"}, {"target": ("B1",)}) in offered
    b.do("countercharge", unit="R2", target="B1")
    r2, b1 = b.state.unit("R2"), b.state.unit("B1")
    assert r2.body is not None and b1.body is not None
    assert abs(tt.relative_bearing(r2.body, b1.body.centre)) < 1.0
    assert ("R2", "B1", True) in [
        (m.attacker, m.defender, m.counter_charge) for m in b.state.melees
    ]
