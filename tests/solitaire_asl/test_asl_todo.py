"""Issue 22 (ASL part) and issue 24 items 8-11: a declared flow, a ``todo`` a player can play
from (complete or open entries, owed decisions open on their answer), the 4.6.2 minefield
exchange prompted on entry, the 6.1 bore-sight die offered with each eligible shot, the facts
of undescribed locations asked for and stated as assumed, the self-shift's starred DRM, two
stacks in one location, and the ids of placed dummy HIP counters."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.sizes import runs
from tests.solitaire_asl.test_asl_flow import game, goto, refused, sample, weapon
from tests.todo_play import run
from vedette.engine import Game
from vedette.rules.solitaire_asl import RULESET

RU, GE = "Russian", "German"
SQUAD = [{"id": "r1", "name": "4-4-7"}]


def entries(g: Game, proc: str, **req: Any) -> list[Any]:
    return [
        t
        for t in g.todo(strict=True)
        if t.procedure == proc and all(t.request.get(k) == v for k, v in req.items())
    ]


# == the flow =====================================================================================
def test_the_flow_is_setup_then_the_seven_phases() -> None:
    names = [p.name for p in RULESET.flow.phases]
    assert names == ["setup", "PFPh", "MPh", "DFPh", "AFPh", "RtPh", "APh", "CCPh"]


def test_an_out_of_phase_action_is_refused_naming_the_rule(tmp_path: Path) -> None:
    g = sample(tmp_path)
    refused(g, "move", {"stack": "P1", "to": "4P6"}, [], "O'Leary 2.3", "set-up")
    goto(g, "CCPh")
    refused(g, "shift", {"a": "P1", "b": "D1"}, [1, 1], "not part of the CCPh", "O'Leary 2.3")
    refused(g, "boresight", {"weapons": ["r2"], "target": "4S7"}, [1], "not part of the CCPh")


# == set-up: placing the allotted dummies =========================================================
def test_setup_offers_place_open_on_location_and_every_choice_is_accepted(tmp_path: Path) -> None:
    g = sample(tmp_path)
    (hip,) = entries(g, "place", kind="dummy_hip")
    assert set(hip.open) == {"location"} and "4M6" in hip.open["location"]
    for loc in hip.open["location"]:
        assert g.is_legal("place", {**hip.request, "location": loc})


def test_placed_dummy_hip_counters_are_named_after_their_location(tmp_path: Path) -> None:
    """Item 11: the docs said X<n>; the referee names a placed dummy HIP counter after its
    location (X4Q6, then X4Q6b), as the docs now say."""
    g = sample(tmp_path)
    g.perform("place", {"kind": "dummy_hip", "side": RU, "location": "4Q6"})
    g.perform("place", {"kind": "dummy_hip", "side": RU, "location": "4Q6"})
    ids = {s.id for s in g.state.stacks if s.location == "4Q6" and s.status == "dummy_hip"}
    assert ids == {"X4Q6", "X4Q6b"}
    help_text = (Path(__file__).parents[2] / "docs" / "rules" / "solitaire_asl.md").read_text()
    assert "X4Q6" in help_text and "`X<n>`" not in help_text


# == 6.1: the bore-sight die with each eligible shot ==============================================
@pytest.mark.parametrize(("phase", "side"), [("PFPh", RU), ("AFPh", RU), ("DFPh", GE)])
def test_the_bore_sight_die_is_offered_with_each_eligible_shot(
    tmp_path: Path, phase: str, side: str
) -> None:
    """Item 9: r2 (DP, Russian, eligible) fires in its PFPh/AFPh and, in the German player
    turn, in its DFPh: the third die is offered, open on the target."""
    g = sample(tmp_path)
    goto(g, phase, side)
    (t,) = entries(g, "boresight")
    assert t.request["weapons"] == ["r2"] and "4S7" in t.open["target"]
    out = g.perform("boresight", {**t.request, "target": "4S7"}, faces=[2])
    # 6.1: "If that die is a 1 or a 2, the target location is ... the Bore Sighted location"
    assert weapon(g, "r2").boresight_location == "4S7", out.message
    assert not entries(g, "boresight")  # determined for good: no more dice


def test_no_bore_sight_die_where_the_weapon_does_not_fire(tmp_path: Path) -> None:
    g = sample(tmp_path)
    for phase, side in (("PFPh", GE), ("RtPh", RU), ("CCPh", RU)):
        goto(g, phase, side)
        assert not entries(g, "boresight"), phase


def test_the_owed_decision_is_open_on_its_answer(tmp_path: Path) -> None:
    """Issue 22: 'decide id=r2 hex=4Q4' was offered without 'ok': now open on yes/no, and
    either answer discharges it (6.1)."""
    g = sample(tmp_path)
    goto(g, "PFPh")
    g.perform("boresight", {"weapons": ["r2"], "target": "4Q6"}, faces=[6, 1, 2])
    (owed,) = [t for t in g.todo(strict=True) if t.owed]
    assert owed.command() == "decide id=r2 hex=4Q4" and owed.open == {"ok": (True, False)}
    assert not owed.refused
    g.perform("decide", {**owed.request, "ok": False})
    assert g.obligations() == () and weapon(g, "r2").boresight == "eligible"


# == 4.6.2: a hidden minefield prompted on entry ==================================================
def _into_minefield(tmp_path: Path) -> Game:
    g = sample(tmp_path)
    goto(g, "MPh", GE)
    (mv,) = entries(g, "move", stack="G1")
    assert "4R4" in mv.open["to"]  # where the hidden minefield M1 is
    g.perform("move", {"stack": "G1", "to": "4R4"})
    return g


def test_entering_an_unrevealed_minefield_offers_the_exchange(tmp_path: Path) -> None:
    """Item 8: G1 enters 4R4 (M1, strength hidden): the Russian player may attempt to exchange
    M1 with another unrevealed minefield (M2): owed first, open on the other minefield."""
    g = _into_minefield(tmp_path)
    (owed,) = [t for t in g.todo(strict=True) if t.owed]
    assert owed.procedure == "minefield" and owed.request == {"entered": "M1"}
    assert owed.open == {"other": ("M2",)} and owed.rule == "O'Leary 4.6.2"
    assert all(t.owed for t in g.todo())  # the entering unit meets the mines first
    # the board's text (shown, and checked on import) says the owed exchange in words
    assert "attempt to exchange minefield M1" in RULESET.render(g.state)


def test_the_minefield_exchange_allowed_swaps_and_reveals_both(tmp_path: Path) -> None:
    g = _into_minefield(tmp_path)
    out = g.perform("minefield", {"entered": "M1", "other": "M2"}, faces=[1, 1])
    m1, m2 = g.state.minefield("M1"), g.state.minefield("M2")
    assert m1 is not None and m2 is not None
    # 4.6.2: "If the shift is allowed, the minefield counters are exchanged"; both revealed
    assert (m1.location, m2.location) == ("4S7", "4R4") and m1.revealed and m2.revealed
    assert "1 AT" in out.message and g.obligations() == ()


def test_the_minefield_exchange_refused_leaves_them_but_reveals_both(tmp_path: Path) -> None:
    g = _into_minefield(tmp_path)
    g.perform("minefield", {"entered": "M1", "other": "M2"}, faces=[6, 6])
    m1, m2 = g.state.minefield("M1"), g.state.minefield("M2")
    assert m1 is not None and m2 is not None
    # "If the shift is not allowed the two minefield counters remain ... Regardless of the
    # outcome of the shift, the strength factors of both minefields are now revealed."
    assert (m1.location, m2.location) == ("4R4", "4S7") and m1.revealed and m2.revealed


def test_the_player_may_decline_the_exchange(tmp_path: Path) -> None:
    g = _into_minefield(tmp_path)
    g.perform("waive", {"obligation": "minefield:M1"})
    m1 = g.state.minefield("M1")
    assert m1 is not None and not m1.revealed and g.obligations() == ()


def test_no_exchange_is_owed_without_another_unrevealed_minefield(tmp_path: Path) -> None:
    g = game(
        tmp_path,
        [{"id": "P1", "location": "4A1", "status": "revealed", "counters": SQUAD}],
        minefields=[{"id": "M1", "location": "4A2", "ap": 6}],
    )
    goto(g, "MPh")
    g.perform("move", {"stack": "P1", "to": "4A2"})
    assert g.obligations() == ()


# == item 10: undescribed locations ===============================================================
def _undescribed(tmp_path: Path) -> Game:
    g = game(
        tmp_path,
        [
            {"id": "P1", "location": "4A1", "status": "potential_dummy", "counters": SQUAD},
            {"id": "D1", "location": "4A3", "status": "dummy", "dummies": 2},
        ],
    )
    goto(g, "MPh")
    return g


def test_todo_asks_for_the_facts_of_an_undescribed_location(tmp_path: Path) -> None:
    g = _undescribed(tmp_path)
    asks = entries(g, "location")
    assert {t.request["id"] for t in asks} == {"4A1", "4A3"}
    t = asks[0]
    # terrain first, then los with its assumed answer first (A29: out of enemy LOS), the one
    # the page presets when the entry is chosen
    assert list(t.open) == ["terrain", "los"]
    assert "woods" in t.open["terrain"] and t.open["los"] == (False, True)
    g.perform("location", {"id": "4A1", "terrain": "woods", "los": True})
    loc = g.state.location("4A1")
    assert (loc.tem, loc.los) == (1, True)  # woods: TEM +1 from [terrain_tem]
    assert {t.request["id"] for t in entries(g, "location")} == {"4A3"}  # asked once


def test_a_shift_line_says_which_facts_were_assumed(tmp_path: Path) -> None:
    g = _undescribed(tmp_path)
    out = g.perform("shift", {"a": "P1", "b": "D1"}, faces=[1, 1])
    line = out.rolls[0].line()
    assert "assumed, location not described: 4A1 (TEM 0, not in enemy LOS)" in line
    assert "4A3 (TEM 0, not in enemy LOS)" in line
    # what to do next, in words both the CLI and the web page show (the action's name), not a
    # command to type that the web has no box for
    assert "- describe them with the location action (terrain, enemy LOS)]:" in line
    assert "state it with" not in out.message and "terrain=" not in line


def test_a_described_location_is_not_assumed(tmp_path: Path) -> None:
    g = _undescribed(tmp_path)
    g.perform("location", {"id": "4A1", "terrain": "woods", "los": False})
    g.perform("location", {"id": "4A3", "terrain": "open ground", "los": True})
    out = g.perform("shift", {"a": "P1", "b": "D1"}, faces=[1, 1])
    line = out.rolls[0].line()
    assert "assumed" not in line and "+1 (in LOS of an enemy unit: 4A3)" in line


# == item 11 ======================================================================================
def test_a_self_shift_counts_its_starred_drm_once_and_says_nothing_else(tmp_path: Path) -> None:
    """P2 (T-34/76, a normal vehicle) shifts with itself (2.3): +2 once (2.5 starred DRMs);
    before, the same counter was listed again as '[not counted: +2 ...]'."""
    g = sample(tmp_path)
    goto(g, "MPh")
    out = g.perform("shift", {"a": "P2"}, faces=[1, 1])
    line = out.rolls[0].line()
    assert "+2 (normal vehicle: T-34/76)" in line and "not counted" not in line
    assert sum(m.value for m in out.rolls[0].modifiers if "T-34" in m.reason) == 2


def test_two_stacks_in_one_location_do_not_shift(tmp_path: Path) -> None:
    """G1 and G2 share 4S7: a shift exchanges two locations (2.3): refused, nothing counted."""
    g = sample(tmp_path)
    goto(g, "MPh", GE)
    refused(g, "shift", {"a": "G1", "b": "G2"}, [1, 1], "O'Leary 2.3", "both in 4S7")
    assert not any(t.request.get("b") == "G2" for t in entries(g, "shift"))


# == the property =================================================================================
def test_random_play_from_todo_reaches_the_main_procedures() -> None:
    # (every main procedure in 8 games, make test's share and CI's: tests/sizes.py; 12 games
    # before, 4 until the 3.3.3 part-shifts shared the random picks, reading A46)
    c = run("solitaire_asl", runs(8, 8), 80)
    assert c.failures == 0, c.problems[:5]
    for proc in ("place", "shift", "move", "boresight", "prereg", "decide", "minefield"):
        assert c.procedures.get(proc, 0) > 0, (proc, c.procedures)


def test_each_counter_lists_the_player_s_own_reports(tmp_path: Path) -> None:
    """``counter_actions`` (the web page lists them when a counter is tapped): what the player
    reports on that counter and ``todo`` does not offer (a report, not a suggestion): a hidden
    stack's reveal (HIP units also keeping a "?", 3.4), a potential dummy stack's drop (2.2), a
    hidden fortification's reveal and its CA not yet recorded (4.4, one choice a hexside), a
    minefield turned face up. Each entry is one ``plan`` accepts; set-up has none."""
    g = sample(tmp_path)
    assert RULESET.judged_counter_actions(g.state) == {}  # set-up: nothing is hidden yet
    g.perform("phase", {})
    got = RULESET.judged_counter_actions(g.state)
    cmds = {k: [t.command() for t in v] for k, v in got.items()}
    assert cmds["P1"] == ["reveal what=P1", "drop stack=P1"]
    assert cmds["H1"] == ["reveal what=H1", "reveal what=H1 keep_concealment=true"]
    assert cmds["D1"] == ["reveal what=D1"] and cmds["M1"] == ["reveal what=M1"]
    assert cmds["F2"] == ["reveal what=F2", "fort id=F2"]  # a pillbox: a CA to record
    assert cmds["F1"] == ["reveal what=F1"]  # a foxhole has no CA (A39)
    (ca,) = [t for t in got["F2"] if t.procedure == "fort"]
    assert len(ca.open["ca"]) == 6 and ca.open["ca"][0].startswith("facing 4")
    g.perform("reveal", {"what": "P1"})
    assert "P1" not in RULESET.judged_counter_actions(g.state)  # revealed: nothing to report
