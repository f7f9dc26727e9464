"""Session 15 audit (helper F1): places where the referee differed from what a player holding
O'Leary's text would expect, each fixed and held here by a test quoting the rule (session 18,
helper A: the facts a terrain brings, 2.4 and 2.5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.seeds.test_asl_examples import PILLBOX_AND_CAVE
from tests.solitaire_asl.test_asl_flow import GE, RU, game, goto, refused, sample
from vedette.engine import Game, Store
from vedette.errors import VedetteError


def dummy_hip_count(g: object, location: str) -> int:
    state = g.state
    return sum(1 for s in state.stacks if s.location == location and s.status == "dummy_hip")


# == 3.1.1: a dummy HIP counter is one counter of the allotment ===================================
def test_3_1_1_two_dummy_hip_counters_in_one_location_do_not_merge(tmp_path: Path) -> None:
    """3.1.1 allots dummy HIP counters one by one; 2.2's merge is for potential dummy stacks.
    Merging two dummy HIP counters used to leave one stack showing a single dummy HIP counter
    (one of the allotment silently lost), and `todo` offered it."""
    g = sample(tmp_path)
    for _ in range(2):
        g.perform("place", {"kind": "dummy_hip", "side": RU, "location": "4Q6"})
    goto(g, "PFPh")
    assert dummy_hip_count(g, "4Q6") == 2
    assert not [t for t in g.todo() if t.procedure == "merge" and t.request["a"] == "X4Q6"]
    refused(g, "merge", {"a": "X4Q6", "b": "X4Q6b"}, [], "O'Leary 3.1.1", "single counter")
    assert dummy_hip_count(g, "4Q6") == 2


def test_5_two_dummy_cloaking_counters_do_not_merge(tmp_path: Path) -> None:
    g = game(
        tmp_path,
        [
            {"id": "C1", "location": "4A1", "status": "cloaked"},
            {"id": "C2", "location": "4A1", "status": "cloaked"},
        ],
        night=True,
    )
    goto(g, "CCPh")
    refused(g, "merge", {"a": "C1", "b": "C2"}, [], "O'Leary 5.2", "single counter")


def test_2_2_potential_dummy_stacks_still_merge(tmp_path: Path) -> None:
    g = game(
        tmp_path,
        [
            {
                "id": "P1",
                "location": "4A1",
                "status": "potential_dummy",
                "counters": [{"id": "a", "name": "4-4-7"}],
            },
            {
                "id": "P2",
                "location": "4A1",
                "status": "potential_dummy",
                "counters": [{"id": "b", "name": "4-4-7"}],
            },
        ],
    )
    goto(g, "CCPh")
    g.perform("merge", {"a": "P1", "b": "P2"})
    assert [len(s.counters) for s in g.state.stacks] == [2]


# == 3.3.3: a dummy HIP counter is placed where HIP units left, not where a dummy left ===========
def test_3_3_3_a_dummy_hip_counter_moving_alone_leaves_no_new_one_behind(tmp_path: Path) -> None:
    """3.3.3: "If all of the HIP units in a location shift to different locations, the original
    location is marked with a dummy HIP counter." The sample's dummy HIP counter X1 (4O8, alone)
    shifts to 4M6, whose HIP squads need not come back (``back=[]``). 4O8 never held HIP units:
    it is simply vacated. It used to get a new dummy HIP counter, so each such shift added one
    beyond the side's allotment (3.1.1: capacity + 1)."""
    g = sample(tmp_path)
    goto(g, "PFPh")
    before = sum(1 for s in g.state.stacks if s.status == "dummy_hip")
    out = g.perform("shift", {"a": "4O8", "b": "4M6", "back": []}, faces=[1, 1])
    assert out.rolls[0].row == "allowed", out.message
    assert "3.3.3" not in out.message, out.message
    assert dummy_hip_count(g, "4O8") == 0 and dummy_hip_count(g, "4M6") == 1
    assert sum(1 for s in g.state.stacks if s.status == "dummy_hip") == before


def test_3_3_3_hip_units_leaving_still_leave_a_dummy(tmp_path: Path) -> None:
    """The same rule's own case: both 4-4-7s of 4M6 shift to 4O8 and the dummy HIP counter there
    stays (``back=[]``): 4M6 held HIP units and now holds none, so it gets a dummy HIP counter
    (the hidden foxhole goes with them by default, 4.5)."""
    g = sample(tmp_path)
    goto(g, "PFPh")
    out = g.perform("shift", {"a": "4M6", "b": "4O8", "back": []}, faces=[1, 1])
    assert out.rolls[0].row == "allowed", out.message
    assert dummy_hip_count(g, "4M6") == 1 and "3.3.3" in out.message


# == 6.3: one die for several weapons only within one firing stack ===============================
def test_6_3_weapons_of_different_stacks_do_not_share_a_die(tmp_path: Path) -> None:
    """6.3: "If a firing stack contains more than one weapon eligible to throw a third die ...
    two or more weapons may use the same die". A grouping of weapons in two locations (or of
    both sides) used to be accepted and rolled one die for all; it is refused, and the weapons
    of one stack still share their die."""

    def sw(cid: str, name: str) -> dict[str, object]:
        return {"id": cid, "name": name, "kind": "sw", "boresight": True}

    g = game(
        tmp_path,
        [
            {
                "id": "P1",
                "location": "4A1",
                "status": "potential_dummy",
                "counters": [sw("w1", "HMG")],
            },
            {
                "id": "P2",
                "location": "4E5",
                "status": "potential_dummy",
                "counters": [sw("w2", "MMG")],
            },
            {
                "id": "P3",
                "location": "4E5",
                "status": "potential_dummy",
                "counters": [sw("w3", "LMG")],
                "position": "foxhole",
            },
        ],
    )
    goto(g, "PFPh")
    refused(g, "boresight", {"weapons": ["w1", "w2"], "target": "4C3"}, [1], "O'Leary 6.3")
    g.perform("boresight", {"weapons": ["w2", "w3"], "target": "4C3"}, faces=[1])
    assert {c.id: c.boresight_location for s in g.state.stacks for c in s.counters} == {
        "w1": None,
        "w2": "4C3",
        "w3": "4C3",
    }


# == 2.5 (>= 13): TI binds for the rest of the player turn =======================================
def ti_game(tmp_path: Path) -> Game:
    """P1 (a squad and an HMG able to bore sight) in open ground in enemy LOS; its self-shift
    on 6+6 (+1 LOS) is 13: TI."""
    g = game(
        tmp_path,
        [
            {
                "id": "P1",
                "location": "4A1",
                "status": "potential_dummy",
                "counters": [
                    {"id": "s1", "name": "4-4-7", "kind": "squad"},
                    {"id": "w1", "name": "HMG", "kind": "sw", "boresight": True},
                ],
            }
        ],
        locations=[{"id": "4A1", "terrain": "open ground", "los": True}],
    )
    goto(g, "MPh")
    out = g.perform("shift", {"a": "P1"}, faces=[6, 6])
    assert out.rolls[0].row == "revealed" and g.state.stack("P1").ti
    return g


def test_2_5_a_ti_stack_neither_moves_nor_fires_until_the_next_player_turn(tmp_path: Path) -> None:
    """2.5, final DR >= 13: "both stacks become TI for the remainder of the player turn". A
    TI stack used to move and advance, and its weapon to throw the bore-sight die, as if
    nothing had happened. The self-shift of P1 (open ground in enemy LOS: 6+6+1 = 13) makes
    it TI: its move and its weapon's die are refused all player turn; the next player turn
    it is free again (``[flow] ti_binds = false`` leaves TI to the table)."""
    g = ti_game(tmp_path)
    refused(g, "move", {"stack": "P1", "to": "4A2"}, [], "O'Leary 2.5", "TI")
    goto(g, "AFPh")
    refused(g, "boresight", {"weapons": ["w1"], "target": "4C3"}, [1], "O'Leary 2.5", "TI")
    goto(g, "APh")
    refused(g, "move", {"stack": "P1", "to": "4A2"}, [], "O'Leary 2.5", "TI")
    assert not [t for t in g.todo() if t.procedure == "move" and t.request.get("stack") == "P1"]
    goto(g, "RtPh", GE)  # the German player turn: TI is over
    assert not g.state.stack("P1").ti
    g.perform("move", {"stack": "P1", "to": "4A2"})


# == bad input changes nothing ====================================================================
def test_a_move_to_where_the_stack_already_is_is_refused(tmp_path: Path) -> None:
    """A 'move' of a whole stack to its own location and portion is no move: it used to be
    logged, cost the DP its bore-sight eligibility (2.3) and end the start of the MPh (no
    more dummy shifts). It is refused and changes nothing; entering a foxhole there is a move."""
    g = sample(tmp_path)
    goto(g, "MPh")
    refused(g, "move", {"stack": "P1", "to": "4P5"}, [], "already in 4P5")
    assert not g.state.acted
    g.perform("move", {"stack": "P1", "to": "4P5", "position": "foxhole"})
    assert g.state.stack("P1").position == "foxhole" and g.state.acted


# == 5.1: the start of the AFPh at night ==========================================================
def test_5_1_todo_offers_to_close_the_start_of_the_afph_at_night(tmp_path: Path) -> None:
    """5.1: cloaked units shift "at the start of that side's AFPh". A unit that fired on the
    table ends that start; `todo` offered `act` only in the MPh and APh, so a night game had no
    offered way to say so in the AFPh (typed, `act` was accepted). Now offered, and it binds."""

    cloaked = {
        "id": "C1",
        "location": "4A1",
        "status": "cloaked",
        "counters": [{"id": "c1", "name": "4-4-7"}],
    }
    g = game(tmp_path, [cloaked, {"id": "C2", "location": "4C1", "status": "cloaked"}], night=True)
    goto(g, "AFPh")
    (act,) = [t for t in g.todo() if t.procedure == "act"]
    assert "AFPh" in act.text and act.rule == "O'Leary 5.1"
    g.perform("act", {})
    refused(g, "shift", {"a": "C1", "b": "C2"}, [1, 1], "O'Leary 5.1")
    day = sample(tmp_path / "day")
    goto(day, "AFPh")
    assert not [t for t in day.todo() if t.procedure == "act"]


def test_2_5_a_ti_stack_that_routs_is_no_longer_ti(tmp_path: Path) -> None:
    """ASL's TI ends when the unit breaks: a TI stack that routs in the RtPh of the same player
    turn moves, and is no longer TI (else a broken TI unit could never rout)."""
    g = ti_game(tmp_path)
    goto(g, "RtPh")
    out = g.perform("move", {"stack": "P1", "to": "4A2"})
    assert "no longer TI" in out.message and not g.state.stack("P1").ti


# == 2.5 -TEM: a scenario's location stated by its terrain ========================================
def test_2_5_a_scenario_location_given_by_terrain_has_that_terrains_tem(tmp_path: Path) -> None:
    """2.5 "-TEM": a location the scenario gives as woods (no TEM written) counted TEM 0, while
    the same words through ``location id=.. terrain=woods`` bring woods' +1: the shift DR of
    two cloaked stacks in woods lost its -1 and the line said nothing of it. A terrain of
    ``[terrain_tem]`` written without a TEM now brings its TEM in a scenario too; a TEM
    written wins."""
    c1 = {"id": "C1", "location": "4P5", "status": "cloaked", "counters": ["4-4-7"]}
    c2 = {"id": "C2", "location": "4Q6", "status": "cloaked"}
    locations = [
        {"id": "4P5", "terrain": "woods"},
        {"id": "4Q6", "terrain": "stone building"},
        {"id": "4R4", "terrain": "woods", "tem": 0},
    ]
    g = game(tmp_path, [c1, c2], night=True, locations=locations)
    tems = {x: g.state.location(x).tem for x in ("4P5", "4Q6", "4R4")}
    assert tems == {"4P5": 1, "4Q6": 3, "4R4": 0}
    goto(g, "MPh")
    out = g.perform("shift", {"a": "C1", "b": "C2"}, faces=[2, 2])
    assert out.rolls[0].final == 4 - 1 - 2  # type: ignore[union-attr]
    assert "(worst TEM +1: woods 4P5)" in out.rolls[0].line()


# == 2.4: open ground is no Concealment Terrain ==================================================
def test_2_4_a_location_stated_as_open_ground_is_not_concealment_terrain(tmp_path: Path) -> None:
    """2.4, second example: a T-34 may not shift into a dummy stack's open ground location in
    enemy LOS, "for a vehicle in OG and LOS of an enemy unit immediately loses concealment".
    A location stated as open ground (``location terrain="open ground"``, or in the scenario)
    still counted as Concealment Terrain unless ``concealment_terrain=false`` was added, so the
    shift was allowed. Open ground now is none ([terrain_concealment], reading A41); a stated
    ``concealment_terrain`` wins."""
    t34 = {"id": "P1", "location": "4P5", "status": "potential_dummy"}
    t34["counters"] = [{"id": "t", "name": "T-34", "kind": "vehicle", "size": "normal"}]
    d1 = {"id": "D1", "location": "4Q6", "status": "dummy", "dummies": 2}
    d2 = {"id": "D2", "location": "4R4", "status": "dummy", "dummies": 2}
    locations = [{"id": "4R4", "terrain": "open ground", "los": True}]
    g = game(tmp_path, [t34, d1, d2], locations=locations)
    assert not g.state.location("4R4").concealment_terrain
    g.perform("location", {"id": "4Q6", "terrain": "open ground", "los": True})
    assert not g.state.location("4Q6").concealment_terrain
    goto(g, "MPh")
    for b in ("D1", "D2"):
        refused(g, "shift", {"a": "P1", "b": b}, [1, 1], "O'Leary 2.4", "Concealment Terrain")
    g.perform("location", {"id": "4Q6", "terrain": "open ground", "concealment_terrain": True})
    g.perform("shift", {"a": "P1", "b": "D1"}, faces=[1, 1])  # the player's word wins


def test_2_4_reading_a41_concealment_terrain_by_kind_is_data(tmp_path: Path) -> None:
    """Reading A41's table is data: a house rule makes orchards no Concealment Terrain either;
    restating a location's terrain restates it. A kind of your own may be added to it and to
    ``[terrain_tem]`` (its comment invites it; the house rules refused any new key)."""
    scenario = {"name": "a41", "sides": [RU, GE], "first": RU, "boards": [{"id": "4"}]}
    house = {"terrain_concealment": {"orchard": False, "marsh": False}, "terrain_tem": {"marsh": 1}}
    g = Game.create(Store(tmp_path / "a41.db"), "g", "asl", scenario, seed=1, house_rules=house)
    g.perform("location", {"id": "4Q6", "terrain": "orchard"})
    assert not g.state.location("4Q6").concealment_terrain
    g.perform("location", {"id": "4Q6", "terrain": "woods"})
    assert g.state.location("4Q6").concealment_terrain
    g.perform("location", {"id": "4Q7", "terrain": "marsh"})
    assert (g.state.location("4Q7").tem, g.state.location("4Q7").concealment_terrain) == (1, False)
    with pytest.raises(VedetteError, match=r"terrain_tem\.marsh"):
        Game.create(
            Store(tmp_path / "bad.db"),
            "b",
            "asl",
            scenario,
            seed=1,
            house_rules={"terrain_tem": {"marsh": "deep"}},
        )


# == session 22 audit (helper A9): the numbers of the text against the data ======================
def test_2_5_a_cave_without_a_stated_tem_is_the_text_s_1_4_6_cave(tmp_path: Path) -> None:
    """2.5, third example: a 4-4-8 in a 1+5+7 pillbox and a dummy stack of 2 in a "1+4+6 cave",
    neither in enemy LOS: DR 3, "-4 (worst TEM of cave with sign reversed)", final -1. The one
    cave of the text has TEM +4; a cave set up without a TEM took +3 from the data, so the same
    example written without the cave's TEM gave a final 0 and "-3". Now +4."""
    g = game(
        tmp_path,
        PILLBOX_AND_CAVE,
        fortifications=[
            {"id": "F1", "kind": "pillbox", "location": "4P5", "tem": 5},
            {"id": "F2", "kind": "cave", "location": "4Q6"},
        ],
    )
    goto(g, "MPh")
    out = g.perform("shift", {"a": "P1", "b": "D1"}, faces=[1, 2])
    r = out.rolls[0]
    assert (r.natural, r.final, r.row) == (3, -1, "free")  # type: ignore[union-attr]
    assert "-4 (worst TEM +4: cave 4Q6)" in r.line()
