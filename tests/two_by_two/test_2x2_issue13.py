"""Issue 13: the defects found playing the bundled sample as a new user would, as tests.

2 by 2, Reinforcements ("Phasing player may roll 1D6 twice for reinforcements. Rear: (3+)
Flank: (4+) May enter edge within [4] of RP."), Melee ("Infantry cannot initiate melee with
cavalry. Artillery cannot initiate melee with an enemy unit."), Moving to contact.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.two_by_two.battle import Battle
from vedette.cli.main import main
from vedette.errors import BadRequest, RuleViolation, VedetteError

N = 19.05


# -- the bundled sample: queued reinforcements are off the table until they arrive -----------
def test_sample_reinforcements_wait_off_the_table() -> None:
    b = Battle.sample()
    waiting = {u.id for u in b.state.units if u.status == "reserve"}
    assert waiting == {"A7", "A8", "F6", "F7", "F8"}
    assert all(b.state.unit(u).body is None for u in waiting)
    with pytest.raises(RuleViolation, match="has not arrived"):
        b.do("move", unit="A7", distance=8)
    b.do("next")
    b.do("next")  # phase 3: the French shoot; their horse artillery is still at its RP
    with pytest.raises(RuleViolation, match="has not arrived"):
        b.do("shoot", firer="F8", target="A4", range=3)


def test_sample_from_the_cli_moves_no_waiting_unit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "g.db")
    assert main(["--db", db, "2x2", "new", "g", "--seed", "1"]) == 0
    assert main(["--db", db, "2x2", "move", "unit=A7", "distance=8"]) != 0
    err = capsys.readouterr().err
    assert "Reinforcements" in err and "not arrived" in err


# -- an arriving reinforcement enters from the edge within [4] of its RP, never stranded -----
def reinf() -> Battle:
    units = [
        {"id": "B", "side": "blue", "type": "infantry", "x": 100, "y": 100},
        {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 500},
        {"id": "C", "side": "blue", "type": "heavy_cavalry"},
        {"id": "D", "side": "blue", "type": "infantry"},
    ]
    rps = [{"id": "rear", "side": "blue", "kind": "rear", "at": [300, 0], "queue": ["C", "D"]}]
    return Battle.quick(units, rps=rps)


def test_reinforcement_must_start_on_the_edge() -> None:
    b = reinf()
    b.do("reinforce", dice=[3], rp="rear")
    # within [4] of the RP, but 120 mm inside the table: refused
    with pytest.raises(RuleViolation, match="from the south table edge"):
        b.do("move", unit="C", path=[[300, 126], [300, 200]])
    b.do("move", unit="C", path=[[300, 6], [300, 100]])
    assert b.state.unit("C").body is not None


def test_arrived_reinforcement_not_moved_is_not_stranded() -> None:
    b = reinf()
    b.do("reinforce", dice=[3], rp="rear")
    b.until("move", "red")
    b.until("move", "blue")  # its side's next move phase: it may still enter
    assert b.state.unit("C").entry == "rear"
    b.do("move", unit="C", path=[[330, 6], [330, 90]])
    assert b.state.unit("C").body is not None and not b.state.unit("C").entry


def test_place_checks_the_rules() -> None:
    b = reinf()
    b.do("reinforce", dice=[3], rp="rear")
    with pytest.raises(RuleViolation, match="table edge"):
        b.do("place", unit="C", x=300, y=200)
    with pytest.raises(RuleViolation, match=r"within \[4\]"):
        b.do("place", unit="C", x=500, y=6)
    b.do("place", unit="C", x=310, y=6)
    c = b.state.unit("C")
    assert c.body is not None and c.body.facing == 0 and not c.entry  # faces onto the table
    with pytest.raises(RuleViolation, match="would stand on"):
        b.do("place", unit="C", x=100, y=100)
    # placed at the edge, it may move in this phase (or the next)
    b.do("move", unit="C", distance=3)


def test_reinforcement_placed_by_reinforce_checks_the_edge() -> None:
    b = reinf()
    with pytest.raises(RuleViolation, match="table edge"):
        b.do("reinforce", dice=[3], rp="rear", x=300, y=120)
    b.do("reinforce", dice=[3], rp="rear", x=290, y=6)
    assert b.state.unit("C").body is not None


# -- initiation rules apply to every melee, however it starts ---------------------------------
def follow_up_battle(winner: str = "infantry") -> Battle:
    units = [
        {"id": "B", "side": "blue", "type": winner, "x": 300, "y": 100},
        {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 112},
        {"id": "C", "side": "red", "type": "heavy_cavalry", "x": 300, "y": 124.5},
    ]
    return Battle.quick(units)


def test_follow_up_into_cavalry_starts_no_infantry_melee() -> None:
    b = follow_up_battle()
    b.until("melee", "blue")
    b.do("melee", dice=[6, 1], attacker="B", defender="R", contact=True)  # R destroyed
    out = b.do("follow_up", unit="B")
    assert "infantry cannot initiate melee with cavalry" in out.message
    assert b.state.melees == ()
    with pytest.raises(RuleViolation, match="infantry cannot initiate melee with cavalry"):
        b.do("melee", attacker="B", defender="C")


def test_artillery_never_initiates_a_melee() -> None:
    units = [
        {"id": "A", "side": "blue", "type": "foot_artillery", "x": 300, "y": 100},
        {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 112},
    ]
    b = Battle.quick(units)
    b.until("melee", "blue")
    with pytest.raises(RuleViolation, match="artillery cannot initiate"):
        b.do("melee", dice=[6, 1], attacker="A", defender="R", contact=True)


# -- a stated move never leaves a tracked position stale --------------------------------------
def test_stated_distance_on_a_tracked_unit_moves_it_along_its_facing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "g.db")
    new = ["--db", db, "2x2", "new", "g", "--scenario", "sample_far", "--seed", "1"]
    assert main(new) == 0
    assert main(["--db", db, "2x2", "move", "unit=A2", "distance=3"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "2x2", "show", "--json"]) == 0
    a2 = next(u for u in json.loads(capsys.readouterr().out)["state"]["units"] if u["id"] == "A2")
    # A2 stood at (220, 520) facing south (180): [3] straight ahead
    assert a2["position"] == {"x": 220.0, "y": round(520 - 3 * N, 3), "facing": 180.0}
    # the facts of a tracked unit are measured, never stated
    assert main(["--db", db, "2x2", "move", "unit=A6", "distance=2", "road=true"]) != 0
    assert "tracked" in capsys.readouterr().err


# -- after a counter-charge the message says only what is allowed ----------------------------
def test_countercharge_message_offers_no_turn_and_fire() -> None:
    units = [
        {"id": "M", "side": "blue", "type": "infantry", "x": 300, "y": 100},
        {"id": "C", "side": "red", "type": "light_cavalry", "x": 300, "y": 146 + 6 + 3 * N},
    ]
    b = Battle.quick(units)
    b.do("move", unit="M", to=[300, 140])
    b.until("shoot", "red")
    out = b.do("countercharge", unit="C", target="M", to=[300, 152])
    assert "turn to face and fire:" not in out.message
    assert "melee phase" in out.message
    assert out.details["move"]["may_turn_and_fire"] == []
    for proc, req in (
        ("face", {"unit": "M", "toward": "C"}),
        ("shoot", {"firer": "M", "target": "C"}),
    ):
        with pytest.raises(VedetteError):
            b.do(proc, **req)


# -- two ways to play, never mixed silently ---------------------------------------------------
def test_stated_game_keeps_no_positions() -> None:
    b = Battle.sample({"play": "stated"})
    assert b.state.play == "stated"
    assert all(u.body is None for u in b.state.units)
    with pytest.raises(BadRequest, match="stated game"):
        b.do("move", unit="A1", to=[300, 480])
    with pytest.raises(RuleViolation, match="stated game"):
        b.do("place", unit="A1", x=300, y=480)
    b.do("move", unit="A1", distance=2, town=2)
    assert b.state.unit("A1").body is None


def test_tracked_game_refuses_to_drop_a_position() -> None:
    b = Battle.sample()
    assert b.state.play == "tracked"
    with pytest.raises(RuleViolation, match="tracked game"):
        b.do("place", unit="A1", clear=True)


def test_unknown_play_refused() -> None:
    with pytest.raises(BadRequest, match="play must be"):
        Battle.sample({"play": "guessed"})


# -- typed, versioned events: release 0.1's untyped payloads are upgraded --------------------
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "saved_games_v0_1" / "tt1.jsonl"


def test_release_0_1_game_imports_and_replays_typed() -> None:
    from vedette.engine import Game, Store
    from vedette.rules.two_by_two import RULESET
    from vedette.rules.two_by_two.events import UNIT_EVENTS, PhaseBegan, UnitPatch

    g = Game.import_jsonl(Store(":memory:"), FIXTURE.read_text(encoding="utf-8"), "tt1")
    a1, f4 = g.state.unit("A1"), g.state.unit("F4")
    assert a1.body is not None and (a1.body.centre.x, a1.body.centre.y) == (300.0, 480.0)
    assert a1.body.facing == 180 and a1.moved and a1.through_town and a1.entry == ""
    assert f4.body is not None and f4.body.centre.y == 380.0 and f4.shot
    events = [RULESET.decode(e) for r in g.records[1:] for e in r.payload.get("events") or []]
    assert isinstance(events[0], UNIT_EVENTS["moved"])
    assert events[0].set_["body"] == {"x": 300.0, "y": 480.0, "facing": 180.0}
    assert events[0].set_["entry"] == "" and events[0].was is None  # not recorded in 0.1
    assert isinstance(events[1], PhaseBegan)
    assert isinstance(events[-1], UNIT_EVENTS["shot"]) and events[-1].set_["shot"]
    # a new action logs the current versions, and the game goes on
    g.perform("next", {})
    assert g.records[-1].payload["events"][0]["v"] == 1  # phase: version 1 is current
    g.perform("next", {})
    g.perform("move", {"unit": "F1", "distance": 1})
    moved = g.records[-1].payload["events"][0]
    assert moved["v"] == UnitPatch.version == 3
    assert moved["data"]["was"]["moved"] is False and moved["data"]["set"]["moved"] is True


def test_unit_event_upgrade_ladder() -> None:
    """Each version's step in turn: 1 (release 0.1) to 2, 2 (release 0.2) to 3 (the core
    patch, its previous values not recorded)."""
    from vedette.rules.two_by_two.events import UNIT_EVENTS

    moved, destroyed = UNIT_EVENTS["moved"], UNIT_EVENTS["destroyed"]
    v1 = {"unit": "A1", "set": {"body": {"x": 1, "y": 2, "facing": 3}}}
    assert moved.upgrade_v1(v1) == {"unit": "A1", "position": {"x": 1, "y": 2, "facing": 3}}
    up = moved.upgrade(1, v1)
    assert up == {"entity": "unit", "id": "A1", "set": {"body": {"x": 1, "y": 2, "facing": 3}}}
    gone = destroyed.upgrade(1, {"unit": "A1", "set": {"status": "destroyed", "body": None}})
    assert gone == {"entity": "unit", "id": "A1", "set": {"body": None, "status": "destroyed"}}
    v2 = {"unit": "A1", "position": None, "off_table": False, "pinned": True, "moved": None}
    assert moved.upgrade(2, v2) == {"entity": "unit", "id": "A1", "set": {"pinned": True}}
