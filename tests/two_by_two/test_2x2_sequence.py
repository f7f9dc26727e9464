"""2 by 2, Sequence of play, Game Setup, Reinforcements and the default victory count."""

from __future__ import annotations

import pytest

from tests.two_by_two.battle import Battle
from vedette.errors import RuleViolation

N = 19.05
W = 609.6


def test_sequence_of_play_exactly_as_written() -> None:
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry"},
            {"id": "R", "side": "red", "type": "infantry"},
        ],
        p1="red",
    )
    seen = []
    for _ in range(8):
        seen.append((b.state.turn, b.state.phase, b.state.actor))
        b.do("next")
    assert seen == [
        (1, "move", "red"),
        (1, "rally", "red"),
        (1, "shoot", "blue"),
        (1, "melee", "red"),
        (1, "move", "blue"),
        (1, "rally", "blue"),
        (1, "shoot", "red"),
        (1, "melee", "blue"),
    ]
    assert (b.state.turn, b.state.phase, b.state.actor) == (2, "move", "red")


def test_out_of_phase_refused_naming_the_rule() -> None:
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100},
            {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 500},
        ]
    )
    with pytest.raises(RuleViolation, match=r"\(2 by 2, Sequence of play\)"):
        b.do("move", unit="R", path=[[300, 480]])
    with pytest.raises(RuleViolation, match="Sequence of play"):
        b.do("melee", dice=[1, 2], attacker="B", defender="R", contact=True)


def test_melees_must_be_resolved_before_the_phase_ends() -> None:
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100},
            {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 112 + 2 * N},
        ]
    )
    b.do("move", unit="B", path=[[300, 100], [300, 100 + 2 * N]])
    b.until("melee", "blue")
    with pytest.raises(RuleViolation, match="resolve every melee"):
        b.do("next")
    b.do("melee", dice=[4, 3], attacker="B", defender="R")
    b.do("next")


def test_shot_marker_lasts_the_turn_and_resets() -> None:
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100},
            {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 122},
        ]
    )
    b.until("shoot", "red")
    b.do("shoot", dice=[1], firer="R", target="B")
    assert b.state.unit("R").shot
    b.until("move", "red")
    assert b.state.unit("R").shot  # its window is still blue's half-turn of this turn
    b.until("move", "blue")
    assert not b.state.unit("R").shot  # turn 2: a fresh shot


def setup_battle() -> Battle:
    units = [
        {"id": "B1", "side": "blue", "type": "infantry"},
        {"id": "B2", "side": "blue", "type": "guard"},
        {"id": "B3", "side": "blue", "type": "heavy_cavalry"},
        {"id": "R1", "side": "red", "type": "infantry"},
        {"id": "R2", "side": "red", "type": "militia"},
        {"id": "R3", "side": "red", "type": "cossacks"},
    ]
    return Battle.quick(units, start="setup")


def test_game_setup() -> None:
    b = setup_battle()
    assert b.state.stage == "setup" and b.state.unit("B1").status == "reserve"
    with pytest.raises(RuleViolation, match="Game Setup"):
        b.do("deploy", unit="R1", x=300, y=550)
    odds = b.odds("setup_roll")[0]
    assert odds.p("tie") == 0 and odds.p("a_attacks") == odds.p("b_attacks")
    out = b.do("setup_roll", dice=[3, 3, 2, 5])  # a tie, then red (second side) high
    assert b.state.attacker == "red" and b.state.defender == "blue"
    assert b.state.extra_ap == 12 and "extra 12 AP" in out.message
    # reading 30: "Place Terrain (4+ features)" is not enforced, the roll notes a bare table
    assert "the table has 0 terrain features; the set-up asks for 4 or more" in out.message
    # the Defender (blue) deploys first, within [8] of the south edge, [4] from the sides
    with pytest.raises(RuleViolation, match="deploys now"):
        b.do("deploy", unit="R1", x=300, y=550)
    with pytest.raises(RuleViolation, match=r"within \[8\]"):
        b.do("deploy", unit="B1", x=300, y=8 * N)
    with pytest.raises(RuleViolation, match=r"closer than \[4\]"):
        b.do("deploy", unit="B1", x=4 * N, y=50)
    b.do("deploy", unit="B1", x=300, y=8 * N - 6)
    b.do("deploy", unit="B2", x=90, y=50)
    b.do("next")
    b.do("deploy", unit="R1", x=300, y=W - 50)
    b.do("next")
    assert b.state.setup_step == "rp_def"
    b.do("rp", x=300, y=0, units=["B3"])
    with pytest.raises(RuleViolation, match=r"within \[8\] of defending"):
        b.do("rp", x=0, y=100, units=["R2"])  # flank RP too near blue's B2
    with pytest.raises(RuleViolation, match="own"):
        b.do("rp", x=300, y=0, units=["R2"])
    b.do("rp", x=0, y=400, units=["R2"])
    assert b.state.rps[-1].kind == "flank"
    with pytest.raises(RuleViolation, match="own"):
        b.do("rp", x=0, y=300)  # the Defender may not pick a flank
    b.do("rp", x=200, y=0)
    b.do("rp", x=300, y=W, units=["R3"])
    assert b.state.stage == "battle" and b.state.turn == 1
    assert b.state.actor == "blue"  # the Defender takes the first move


def test_deploy_ap_limit() -> None:
    units = [{"id": f"B{i}", "side": "blue", "type": "guard"} for i in range(5)]
    units.append({"id": "R", "side": "red", "type": "infantry"})
    b = Battle.quick(units, start="setup")
    b.do("setup_roll", dice=[1, 6])
    for i in range(4):
        b.do("deploy", unit=f"B{i}", x=100 + 50 * i, y=60)
    with pytest.raises(RuleViolation, match="exceed 12 AP"):
        b.do("deploy", unit="B4", x=400, y=100)


def reinf_battle() -> Battle:
    units = [
        {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100},
        {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 500},
        {"id": "C1", "side": "blue", "type": "light_cavalry", "status": "reserve"},
        {"id": "C2", "side": "blue", "type": "lancers", "status": "reserve"},
        {"id": "C3", "side": "blue", "type": "cossacks", "status": "reserve"},
    ]
    rps = [
        {"id": "rear", "side": "blue", "kind": "rear", "at": [300, 0], "queue": ["C1", "C2"]},
        {"id": "flank", "side": "blue", "kind": "flank", "at": [0, 200], "queue": ["C3"]},
    ]
    return Battle.quick(units, rps=rps)


def test_reinforcement_rolls() -> None:
    b = reinf_battle()
    o = b.odds("reinforce", rp="rear")[0]
    assert o.p("arrives") == pytest.approx(4 / 6)
    assert b.odds("reinforce", rp="flank")[0].p("arrives") == pytest.approx(3 / 6)
    b.do("reinforce", dice=[2], rp="rear")
    assert b.state.unit("C1").status == "reserve"
    b.do("reinforce", dice=[3], rp="rear")
    c1 = b.state.unit("C1")
    assert c1.status == "table" and c1.entry == "rear" and c1.body is None
    with pytest.raises(RuleViolation, match="only 2 reinforcement rolls"):
        b.do("reinforce", dice=[6], rp="flank")
    # enters the edge within [4] of the RP
    with pytest.raises(RuleViolation, match=r"within \[4\]"):
        b.do("move", unit="C1", path=[[420, 6], [420, 100]])
    b.do("move", unit="C1", path=[[350, 6], [350, 150]])
    assert b.state.unit("C1").body is not None
    b.do("next")
    b.until("move", "blue")
    b.do("reinforce", dice=[3], rp="flank")
    assert b.state.unit("C3").status == "reserve"
    b.do("reinforce", dice=[4], rp="flank", x=6, y=220, facing=90)
    assert b.state.unit("C3").body is not None


def test_reinforcements_only_in_own_move_phase() -> None:
    b = reinf_battle()
    b.do("next")
    with pytest.raises(RuleViolation, match="Sequence of play"):
        b.do("reinforce", dice=[6], rp="rear")


def test_default_victory_by_ap_destroyed() -> None:
    units = [
        {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100},
        {"id": "R", "side": "red", "type": "guard", "x": 300, "y": 112},
        {"id": "R2", "side": "red", "type": "infantry", "x": 500, "y": 500},
    ]
    b = Battle.quick(units, victory={"threshold_ap": 3})
    b.until("melee", "blue")
    b.do("melee", dice=[6, 1], attacker="B", defender="R", contact=True)
    assert b.state.score("blue") == 3
    b.do("follow_up", unit="B", decline=True)
    for _ in range(4):
        b.do("next")
    assert b.state.stage == "battle"  # victory is counted at the end of the turn
    b.do("next")
    assert b.state.stage == "over" and b.state.winner == "blue"
    with pytest.raises(RuleViolation, match="over"):
        b.do("next")


def test_max_turns_draw() -> None:
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry"},
            {"id": "R", "side": "red", "type": "infantry"},
        ],
        victory={"max_turns": 1},
    )
    for _ in range(8):
        b.do("next")
    assert b.state.stage == "over" and b.state.winner is None


def test_scenario_rules_and_house_rules_override_data() -> None:
    scn = dict(Battle.sample().scenario)
    scn["rules"] = {"units": {"infantry": {"move": 5}}, "rally": {"hq_rule": "off"}}
    b = Battle(scn)
    assert b.state.rules.unit_types["infantry"].move == 5
    b = Battle(scn, {"house_rules": {"units": {"infantry": {"move": 3}}}})
    assert b.state.rules.unit_types["infantry"].move == 3
    assert b.state.rules.rally.hq_rule == "off"


def test_a_deployment_ended_short_of_its_ap_is_noted() -> None:
    # 2 by 2, Game Setup: "The Def places 12AP of units ... Att places 12AP likewise": ending a
    # deployment with less placed while a waiting unit would still fit is noted (not refused,
    # like the 4+ terrain features); a full deployment, or one no unit can fill, is not
    units = [{"id": f"B{i}", "side": "blue", "type": "infantry"} for i in range(7)]
    units += [{"id": f"R{i}", "side": "red", "type": "guard"} for i in range(5)]
    b = Battle.quick(units, start="setup")
    b.do("setup_roll", dice=[1, 6])  # red attacks: blue deploys first
    b.do("deploy", unit="B0", x=100, y=60)
    assert "note: Blue placed 2 of the 12 AP" in b.do("next").message
    for i in range(4):  # 4 Guard x 3 AP = 12 AP
        b.do("deploy", unit=f"R{i}", x=100 + 50 * i, y=550)
    assert "note" not in b.do("next").message
