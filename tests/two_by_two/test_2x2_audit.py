"""2 by 2 (seed 003): helper T12's finds, session 22 (the left-alone items and an audit of the
tables): a scenario may not start Militia screened (Unit Summary, reading 55); a support stated
below the friends known counts none of them, on either side (Melee, reading 29); a shot's **
target named in its own contagion routs once (left: documented); an HQ near the enemy may rally
itself (Rallying, reading 57); the board's counter-charge ring is the game's fraction (Moving to
contact); the Attacker's own-edge RP is not held [8] off the defenders (Game Setup, reading
58). Driven through the public ``Game`` API (``tests/two_by_two/battle.py``) and the web
board's resource."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.two_by_two.battle import Battle
from vedette.errors import DataError, RuleViolation
from vedette.rules.two_by_two import RULESET
from vedette.web.app import create_app
from vedette.web.moves import board_view

N = 19.05  # mm in [1] (2 by 2, Scale)


@pytest.mark.parametrize("play", ["tracked", "stated"])
def test_a_scenario_may_not_start_militia_screened(play: str) -> None:
    # Unit Summary: only "[1,2*]" units have a screen ("*if skirmisher screen is present");
    # Militia's range is "[1]": formation refuses it one in play, and so does a scenario
    militia = {"id": "M", "side": "blue", "type": "militia", "x": 100, "y": 100}
    red = {"id": "R", "side": "red", "type": "infantry", "x": 100, "y": 400}
    with pytest.raises(DataError, match=r"M: Militia has no skirmisher screen.*Unit Summary"):
        Battle.quick([{**militia, "screened": True}, red], options={"play": play})
    b = Battle.quick([{**militia, "id": "I", "type": "infantry", "screened": True}, red])
    assert b.state.unit("I").screened


def _two_chargers() -> Battle:
    """Blue's B1 and B2 have both charged red's R (stated): blue's melee phase."""
    b = Battle.stated(("B1", "blue", "infantry"), ("B2", "blue", "infantry"), ("R", "red", "guard"))
    b.do("charge", unit="B1", into="R", distance=2)
    b.do("charge", unit="B2", into="R", distance=2)
    b.until("melee", "blue")
    return b


def test_a_support_stated_below_the_chargers_known_leaves_their_melees_standing() -> None:
    # Melee: "Overlap support +1 / extra unit beyond 1" counts the units in a melee, either
    # side's alike (reading 29). A defender's b_support=0 named none of its friends and left
    # their melees standing; an attacker's a_support=0 still settled B2's charge on R with
    # B1's melee, B2 neither counted nor fighting
    b = _two_chargers()
    out = b.do("melee", dice=[3, 4], attacker="B1", defender="R", a_support=0)  # 3 vs 4+1
    assert "R wins; B1 recoils a full move" in out.message
    assert [(m.attacker, m.defender) for m in b.state.melees] == [("B2", "R")]
    assert not b.state.unit("B2").meleed
    assert [t.request["attacker"] for t in b.lines("melee")] == ["B2"]
    # the support counted: B2 fought beside B1, its charge settled with it
    b = _two_chargers()
    out = b.do("melee", dice=[4, 4, 5, 3], attacker="B1", defender="R")  # a draw, then 6 vs 4
    assert "B1 wins; R recoils" in out.message
    assert b.state.melees == () and b.state.unit("B2").meleed


def test_a_shots_target_named_in_its_own_contagion_routs_once() -> None:
    # Unit Summary: "** rout whenever any rout w/in [3]". A stated shot's line offers several
    # targets and one contagion list for them all (one field's choices cannot change with
    # another's pick): a ** target is among its own contagion's choices, and naming it must
    # change nothing, the target routing once with its own roll
    b = Battle.stated(
        ("M1", "blue", "militia"), ("M2", "blue", "militia"), ("R", "red", "foot_artillery")
    )
    b.until("shoot", "red")
    (line,) = b.lines("shoot", firer="R")
    assert line.open["target"] == ("M1", "M2") and ("M1",) in line.open["contagion"]
    # canister +1, enfilade +2: 6 + 3 = 9, a rout; its roll 4: M1 flees; no second roll
    out = b.do(
        "shoot",
        dice=[6, 4],
        firer="R",
        target="M1",
        band="canister",
        enfilade=True,
        contagion=["M1"],
    )
    assert out.message == "M1 routs a full move away and is disrupted"
    assert len(out.rolls) == 2  # the shot's and M1's rout roll
    assert b.state.unit("M1").disrupted and b.state.unit("M2").status == "table"
    assert not b.state.unit("M2").disrupted


def _hq_near_enemy(rule: str | None = None) -> Battle:
    """Blue's disrupted Division HQ H with red infantry [1.5] ahead, blue's rally phase."""
    house = {"house_rules": {"rally": {"enemy_within_rule": rule}}} if rule else {}
    b = Battle.quick(
        [
            {"id": "H", "side": "blue", "type": "hq_division", "x": 300, "y": 100},
            {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 100 + 12 + 1.5 * N},
        ],
        options=house,
    )
    b.state = b.state.with_unit_values("H", {"disrupted": True})
    b.until("rally", "blue")
    return b


def test_an_hq_near_the_enemy_may_rally_itself() -> None:
    # Rallying: "Enemy within [2] -2*", "*only Guards and units in contact with HQ", "HQ self
    # rally +2": an HQ rallying itself is where its HQ is (reading 57); it was refused, so an
    # HQ with an enemy within [2] could never rally
    b = _hq_near_enemy()
    (odds,) = b.odds("rally", unit="H")
    assert [(m.value, m.reason) for m in odds.modifiers] == [
        (-2, "enemy within [2]"),
        (-1, "disrupted"),
        (2, "HQ self rally"),
    ]
    assert [t.request for t in b.lines("rally")] == [{"unit": "H"}]
    out = b.do("rally", dice=[5], unit="H")  # 5 - 2 - 1 + 2 = 4: fails
    assert out.message == "H fails to rally"
    # the other reading, as a house rule: only in contact with another HQ
    b = _hq_near_enemy("only_guards_or_hq_contact")
    with pytest.raises(RuleViolation, match=r"only in contact with another.*Rallying"):
        b.do("rally", dice=[6], unit="H")
    assert not b.lines("rally")


def test_a_stated_hq_rallying_itself_is_offered_an_enemy_within_two() -> None:
    # the same in stated play: the HQ's own line offers enemy_near (as a Guards unit's), and
    # the roll is accepted with it
    b = Battle.stated(("H", "blue", "hq_division"), ("R", "red", "infantry"))
    b.state = b.state.with_unit_values("H", {"pinned": True})
    b.until("rally", "blue")
    (line,) = b.lines("rally")
    assert line.open["enemy_near"] == (False, True)
    out = b.do("rally", dice=[5], unit="H", enemy_near=True)  # 5 - 2 + 2 = 5: rallies
    assert out.message == "H rallies: no longer pinned"


@pytest.mark.parametrize(("house", "label", "reach"), [(None, "1/2", 4.0), (0.75, "0.75", 6.0)])
def test_the_boards_counter_charge_ring_is_the_games_fraction(
    house: float | None, label: str, reach: float
) -> None:
    # Moving to contact: "Cavalry may counter-charge an enemy unit which moves within a ½ move"
    # ([movement] countercharge_fraction): the web board's ring drew half the move whatever
    # the house rule said, while the referee judged the counter-charge by the house rule
    rules = {"movement": {"countercharge_fraction": house}} if house else None
    b = Battle.quick(
        [{"id": "C", "side": "blue", "type": "light_cavalry", "x": 300, "y": 100}],
        options={"house_rules": rules} if rules else None,
    )
    view = board_view(b.game)
    assert view["rings"][f"counter-charge: {label} its move"] == "half-move"
    assert f'data-half-move="{reach * N:.1f}"' in view["svg"]


def _set_up_on_a_shallow_table(house: dict[str, Any] | None = None) -> Battle:
    """A table [12] deep; blue defends, its B1 [5.4] from red's (north) edge; both sides
    deployed, blue's first RP picked: the Attacker (red) picks its first RP."""
    units = [{"id": f"B{i}", "side": "blue", "type": "infantry"} for i in (1, 2, 3)]
    units += [{"id": f"R{i}", "side": "red", "type": "infantry"} for i in (1, 2, 3)]
    b = Battle.quick(
        units,
        start="setup",
        size=(609.6, 12 * N),
        options={"house_rules": house} if house else None,
    )
    b.do("setup_roll", dice=[2, 5])  # red attacks
    b.do("deploy", unit="B1", x=100, y=120)
    b.do("next")
    b.do("deploy", unit="R1", x=400, y=12 * N - 20)
    b.do("next")
    b.do("rp", x=300, y=0, units=["B2"])
    return b


def test_the_attackers_rp_on_his_own_edge_is_not_held_off_the_defenders() -> None:
    # Game Setup: "The Att then picks a RP anywhere on his edge of the board OR anywhere on
    # either flank that is not within [8] of a defending unit or RP": the [8] binds a flank
    # RP (reading 58); an RP on his own edge was refused within [8] of a defender too
    b = _set_up_on_a_shallow_table()
    with pytest.raises(RuleViolation, match=r"RP within \[8\] of defending B1"):
        b.do("rp", x=0, y=120, units=["R2"])  # a flank RP [4.6] from B1
    out = b.do("rp", x=100, y=12 * N, units=["R2"])  # his own edge, [5.4] from B1
    assert out.message == "Red picked rear RP red-1 (R2)"
    # the other reading, as a house rule: his own edge's RP held off [8] too
    b = _set_up_on_a_shallow_table({"setup": {"rp_clearance_on": "both"}})
    with pytest.raises(RuleViolation, match=r"RP within \[8\] of defending B1"):
        b.do("rp", x=100, y=12 * N, units=["R2"])


def test_the_scenario_builder_says_a_screened_militia_beside_its_unit(tmp_path: Path) -> None:
    # reading 55 in a scenario file, as the web builder checks it: one problem, beside the unit
    c = TestClient(create_app(tmp_path / "web.db"), base_url="http://localhost")
    page = c.get("/scenarios/new?ruleset=two_by_two").text
    h = {"X-CSRF-Token": page.split('name="csrf-token" content="')[1].split('"')[0]}
    data = RULESET.scenario("close")
    data["units"][0] = {**data["units"][0], "type": "militia", "screened": True}
    r = c.post("/api/scenarios/check", json={"ruleset": "2x2", "data": data}, headers=h)
    uid = data["units"][0]["id"]
    assert r.json()["problems"] == [
        {
            "loc": "units[0]",
            "msg": f"{uid}: Militia has no skirmisher screen: only units whose range shows [2*]"
            " put one out (2 by 2, Unit Summary)",
        }
    ]
