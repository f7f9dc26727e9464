"""Session 15 third audit (helper F8): whole player turns played as a player would, through the
public API with forced dice; each place where the referee differed from O'Leary's text is held
here by a test quoting the rule."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.solitaire_asl.test_asl_flow import GE, RU, game, goto, refused, sample
from vedette.engine import Game, Store
from vedette.errors import DataError
from vedette.rules.solitaire_asl import RULESET


def night(tmp_path: Path, house_rules: dict[str, Any] | None = None) -> Game:
    """A night scenario: three Russian cloaked stacks (one a dummy cloaking counter) in
    described locations."""
    sq = {"kind": "squad"}
    scenario: dict[str, Any] = {
        "name": "night",
        "sides": [RU, "German"],
        "first": RU,
        "night": True,
        "locations": [
            {"id": "4A1", "terrain": "woods", "tem": 1},
            {"id": "4C1", "terrain": "woods", "tem": 1},
            {"id": "4E1", "terrain": "woods", "tem": 1},
        ],
        "stacks": [
            {"id": "C1", "side": RU, "location": "4A1", "status": "cloaked",
             "counters": [{"id": "c1", "name": "4-5-8", **sq}]},
            {"id": "C2", "side": RU, "location": "4C1", "status": "cloaked"},
            {"id": "C3", "side": RU, "location": "4E1", "status": "cloaked",
             "counters": [{"id": "c3", "name": "4-4-7", **sq}]},
        ],
    }  # fmt: skip
    return Game.create(
        Store(tmp_path / "night.db"), "g", "asl", scenario, seed=1, house_rules=house_rules or {}
    )


def cloaked_offers(g: Game) -> set[tuple[str, str]]:
    return {
        (str(t.request["a"]), str(t.request["b"]))
        for t in g.todo()
        if t.procedure == "shift" and t.request.get("kind") == "cloaked"
    }


# == 5.1: "at the start of that unit's MPh" (reading A37) =========================================
def test_5_1_a_cloaked_unit_that_has_not_moved_still_shifts_after_another_moved(
    tmp_path: Path,
) -> None:
    """5.1: cloaked units shift "at the start of that unit's MPh, at the start of that side's
    AFPh or the start of that unit's APh". The referee closed every cloaked shift with the
    side's first move (as 2.3 does for dummy stacks, "provided no friendly unit has yet
    moved"): C3 moving barred C1 and C2, which had not begun their MPh. Now only a stack that
    moved itself is barred; 2.5's +1 still counts the phase's earlier shifts."""
    for phase in ("MPh", "APh"):
        g = night(tmp_path / phase)
        goto(g, phase)
        g.perform("move", {"stack": "C3", "to": "4E2"})
        assert cloaked_offers(g) == {("C1", "C2")}
        refused(g, "shift", {"a": "C3", "b": "C2"}, [1, 1], "O'Leary 5.1", "already moved")
        out = g.perform("shift", {"a": "C1", "b": "C2"}, faces=[3, 4])
        assert out.rolls[0].final == 4  # type: ignore[union-attr]  # 7 -1 woods -2 night
        assert g.state.stack("C1").location == "4C1"
        assert g.state.stack("C2").location == "4A1"


def test_5_1_the_afph_start_is_the_sides(tmp_path: Path) -> None:
    """5.1: "at the start of that side's AFPh": there the side's first act ends every cloaked
    shift (unchanged)."""
    g = night(tmp_path)
    goto(g, "AFPh")
    g.perform("act", {})
    assert cloaked_offers(g) == set()
    refused(g, "shift", {"a": "C1", "b": "C2"}, [1, 1], "O'Leary 5.1")


def test_5_1_the_units_own_start_ends_with_the_phase(tmp_path: Path) -> None:
    """A stack that moved in its MPh has a fresh start in its APh (5.1: "that unit's APh")."""
    g = night(tmp_path)
    goto(g, "MPh")
    g.perform("move", {"stack": "C3", "to": "4E2"})
    g.perform("move", {"stack": "C3", "to": "4E1"})
    goto(g, "APh")
    assert ("C1", "C3") in cloaked_offers(g)
    out = g.perform("shift", {"a": "C3", "b": "C2"}, faces=[2, 2])
    assert g.state.stack("C3").location == "4C1", out.message


def test_5_1_reading_a37_side_start_by_house_rule(tmp_path: Path) -> None:
    """Reading A37 is data: ``[flow] cloaked_start = "side"`` ends every cloaked shift of the
    MPh/APh with the side's first move, as before."""
    g = night(tmp_path, {"flow": {"cloaked_start": "side"}})
    goto(g, "MPh")
    g.perform("move", {"stack": "C3", "to": "4E2"})
    assert cloaked_offers(g) == set()
    refused(g, "shift", {"a": "C1", "b": "C2"}, [1, 1], "O'Leary 5.1", "already begun")


def test_5_1_reading_a37_takes_only_its_two_words(tmp_path: Path) -> None:
    """``cloaked_start`` is "unit" or "side": another word is refused in one line naming the
    key and both words, and no game is stored."""
    with pytest.raises(DataError, match=r"\[flow\] cloaked_start must be one of 'unit', 'side'"):
        night(tmp_path, {"flow": {"cloaked_start": "nobody"}})
    assert Store(tmp_path / "night.db").games() == []


# == 3.3.5 played in the sample: the enemy MPh and own DFPh are one phase ==========================
def test_3_3_5_a_failed_hip_shift_in_the_enemy_mph_closes_the_dfph_and_says_so(
    tmp_path: Path,
) -> None:
    """3.3.2/3.3.5 played over the German player turn of the sample: the Russian HIP stack
    tries in the German MPh (9 - 1 both HIP = 8: refused, closed); `todo` offers no Russian HIP
    shift in the DFPh that follows and the shift is refused there; the Russian PFPh opens it
    again. The message said "no more hip shifts by russian ... (the enemy mph and own dfph
    ...)": str.capitalize lowered every other letter of the sentence."""
    g = sample(tmp_path)
    goto(g, "MPh", GE)
    out = g.perform("shift", {"a": "4M6", "b": "4O8"}, faces=[5, 4])
    assert out.rolls[0].final == 8  # type: ignore[union-attr]
    assert "No more HIP shifts by Russian in this phase (the enemy MPh and own DFPh" in out.message
    g.perform("phase", {})
    assert g.state.phase == "DFPh"
    assert not [t for t in g.todo() if t.procedure == "shift"]
    refused(g, "shift", {"a": "4M6", "b": "4O8"}, [1, 1], "O'Leary 3.3.5")
    goto(g, "PFPh", RU)
    assert ("4M6", "4O8") in {
        (t.request["a"], t.request["b"]) for t in g.todo() if t.procedure == "shift"
    }


# == 4.6.2 / reading A8: whose unit entered ========================================================
def test_4_6_2_an_own_unit_entering_its_minefield_brings_no_enemy_los(tmp_path: Path) -> None:
    """Reading A8 counts the entered location as in enemy LOS because "the entering unit is
    there". In the sample the Russian P1 (4-5-8, DP, 8-1) enters the Russian dummy minefield in
    4Q6 (woods, out of enemy LOS): the unit there is no enemy, yet the exchange with the one in
    4O8 (wooden building, out of LOS) had +1 for enemy LOS. Now: -1 (worst TEM, woods) -1 (both
    hidden minefields) = -2, so 9 is allowed (7). A German unit entering the one in 4N3 (where
    Russians stand too) still brings the +1."""
    g = sample(tmp_path)
    for loc in ("4Q6", "4O8", "4N3"):
        g.perform("place", {"kind": "dummy_minefield", "side": RU, "location": loc})
    goto(g, "MPh", RU)
    g.perform("move", {"stack": "P1", "to": "4Q6"})
    assert [t for t in g.todo() if t.procedure == "minefield"]
    out = g.perform("minefield", {"entered": "M4Q6", "other": "M4O8"}, faces=[4, 5])
    assert out.rolls[0].final == 7, out.rolls[0]  # type: ignore[union-attr]
    assert "enemy" not in str(out.rolls[0])
    goto(g, "MPh", GE)
    g.perform("move", {"stack": "G1", "to": "4N3"})
    out = g.perform("minefield", {"entered": "M4N3", "other": "M2"}, faces=[4, 5])
    mods = {m.reason: m.value for m in out.rolls[0].modifiers}  # type: ignore[union-attr]
    assert mods["in LOS of an enemy unit: 4N3"] == 1


# == 2.5 / reading A38: enemy units see the location they stand in ================================
def test_2_5_a_location_holding_enemy_units_is_in_their_los(tmp_path: Path) -> None:
    """2.5: "+1 If either location is in the LOS of an enemy unit". In the sample the German
    4-6-7 and 8-0 (G1) stand in 4S7, whose stated LOS is none: the Russian minefield M2 there
    exchanged with the one P1 entered in 4Q6 without the +1, as if the Germans did not see the
    ground they stand on. Now +1 (4S7) -1 (both hidden minefields) = 0; a stated `los_b=false`
    still overrides it, and house rule `[drm] enemy_there_sees = false` restores the stated LOS
    alone (reading A38)."""

    def entered(g: Game) -> None:
        g.perform("place", {"kind": "dummy_minefield", "side": RU, "location": "4Q6"})
        goto(g, "MPh", RU)
        g.perform("move", {"stack": "P1", "to": "4Q6"})

    g = sample(tmp_path)
    entered(g)
    req = {"entered": "M4Q6", "other": "M2"}
    (o,) = g.odds("minefield", req)
    assert {m.reason: m.value for m in o.modifiers} == {
        "in LOS of an enemy unit: 4S7": 1,
        "both hidden minefields": -1,
    }
    (o,) = g.odds("minefield", {**req, "los_b": False})
    assert [m.value for m in o.modifiers] == [-1]
    house = Game.create(
        Store(tmp_path / "house.db"),
        "h",
        "asl",
        RULESET.scenario("sample"),
        seed=1,
        house_rules={"drm": {"enemy_there_sees": False}},
    )
    entered(house)
    (o,) = house.odds("minefield", req)
    assert [m.value for m in o.modifiers] == [-1]


def test_2_4_a_vehicle_may_not_shift_into_open_ground_where_enemies_stand(tmp_path: Path) -> None:
    """2.4's second example: a vehicle shifting into a location outside Concealment Terrain and
    in enemy LOS would lose concealment at once, so the shift is refused. Enemy units standing
    in that open ground see it (reading A38) even when its stated LOS is none: the T-34 of P1
    used to shift there."""
    tank = {"id": "t", "name": "T-34/76", "kind": "vehicle", "size": "normal", "mp": 16}
    g = game(
        tmp_path,
        [
            {"id": "P1", "location": "4A1", "status": "potential_dummy", "counters": [tank]},
            {"id": "D1", "location": "4C1", "status": "dummy", "dummies": 2},
            {"id": "G1", "side": GE, "location": "4C1", "status": "revealed",
             "counters": [{"id": "g", "name": "4-6-7", "kind": "squad"}]},
        ],
        locations=[
            {"id": "4A1", "terrain": "woods", "tem": 1},
            {"id": "4C1", "terrain": "open ground", "tem": 0, "concealment_terrain": False},
        ],
    )  # fmt: skip
    goto(g, "MPh")
    assert not [t for t in g.todo() if t.procedure == "shift" and t.request["a"] == "P1"
                and t.request["b"] == "D1"]  # fmt: skip
    refused(g, "shift", {"a": "P1", "b": "D1"}, [1, 1], "O'Leary 2.4", "lose concealment")
