"""Kuryakin's text as acceptance cases (seed 004), session 18: which way a retirement goes
(reading K75), when a unit tests to move off (Moving From A Standstill), and which way a queue
jumper pursues (Movement). Played through the public API (``Game.create`` / ``perform`` /
``todo`` / ``is_legal``) with forced dice."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from tests.solo_napoleonic.test_solonap_text_3 import TIMID, cavalry, ready, unit
from tests.solo_napoleonic.test_solonap_text_6 import offered
from vedette.engine import Game
from vedette.errors import DataError, RuleViolation


def _legal(g: Game, request: dict[str, Any]) -> bool:
    return g.is_legal("move", request).ok


# == reading K75: a retirement, a retreat or a rout goes away from the enemy ======================
def test_a_retirement_goes_away_from_the_enemy(tmp_path: Path) -> None:
    """Morale names a unit "retiring" (-10%), Disorder a "Retreat", the Charge Home Test a Timid
    CO's men who "retire 100mm": moves away from the enemy. A voluntary `move mode=retire`
    took any direction, straight ahead at the enemy included, and so went forward with no test
    to move off (K74 spares the moves away). Reading K75: within ``retire_arc_deg`` (45) of
    straight away from the enemy; no direction given: straight away; 180 lifts it."""
    g = ready(tmp_path / "a", [unit("F1", x=500.0, y=0.0), unit("A1", "Allies", x=500.0, y=400.0)])
    for mode in ("retire", "retreat"):
        for d in (0.0, 90.0, -90.0, 120.0):
            req = {"unit": "F1", "mode": mode, "distance": 100.0, "direction": d}
            assert not _legal(g, req)
            with pytest.raises(RuleViolation, match="K75"):
                g.perform("move", req)  # refused before any die
        for d in (135.0, -135.0, 180.0, 225.0):
            assert _legal(g, {"unit": "F1", "mode": mode, "distance": 100.0, "direction": d})
    out = g.perform("move", {"unit": "F1", "mode": "retire", "distance": 100.0}, [0, 3])
    assert "retires" in out.message and g.state.unit("F1").y == pytest.approx(-100.0)
    # the enemy on its flank: straight away from it, not straight back
    h = ready(tmp_path / "b", [unit("F1", x=500.0, y=0.0), unit("A1", "Allies", x=900.0, y=0.0)])
    assert not _legal(h, {"unit": "F1", "mode": "retire", "distance": 100.0, "direction": 180.0})
    h.perform("move", {"unit": "F1", "mode": "retire", "distance": 100.0}, [0, 3])
    f1 = h.state.unit("F1")
    assert (f1.x, f1.y, f1.facing) == (pytest.approx(400.0), pytest.approx(0.0), 0.0)
    house = {"options": {"retire_arc_deg": 180}}
    units = [unit("F1", x=500.0, y=0.0), unit("A1", "Allies", x=500.0, y=400.0)]
    k = ready(tmp_path / "c", units, house=house)
    assert _legal(k, {"unit": "F1", "mode": "retire", "distance": 100.0, "direction": 0.0})


def test_a_steady_unit_does_not_rout_by_choice(tmp_path: Path) -> None:
    """A rout is a failed morale test's result (Morale: "Unit Routing"; the chart, K41): a steady
    F1 could `move mode=rout` (2D, no test to move off), in any direction."""
    g = ready(tmp_path, [unit("F1", x=500.0, y=0.0), unit("A1", "Allies", x=500.0, y=400.0)])
    with pytest.raises(RuleViolation, match="not routing"):
        g.perform("move", {"unit": "F1", "mode": "rout", "distance": 100.0})


def test_a_retiring_units_retirement_is_offered_away_from_the_enemy(tmp_path: Path) -> None:
    """A unit retiring by its morale result (must rally) carries out its retirement on its card:
    todo offered it in six directions, straight ahead at the enemy among them. Now the offer is
    straight away (no direction open), and a direction toward the enemy is refused."""
    f1 = unit("F1", x=500.0, y=0.0, status="retiring", must_rally=True)
    g = ready(tmp_path, [f1, unit("A1", "Allies", x=500.0, y=400.0)])
    (offer,) = offered(g, "move")
    assert offer["mode"] == "retire" and "direction" not in offer
    with pytest.raises(RuleViolation, match="K75"):
        g.perform("move", {"unit": "F1", "mode": "retire", "distance": 75.0, "direction": 0.0})
    g.perform("move", {"unit": "F1", "mode": "retire", "distance": 75.0}, [0, 3])
    assert g.state.unit("F1").y == pytest.approx(-75.0)


# == Moving From A Standstill: a test gets the unit's move going ==================================
def test_no_test_to_move_off_after_the_move_or_for_unlimbered_guns(tmp_path: Path) -> None:
    """Moving From A Standstill: "To get troops moving who have halted, roll a D6". `start` was
    offered and passed after F1 had made its move on the card (a retirement), leaving it
    advancing into the next turn untested; and to unlimbered guns, which cannot move (0mm).
    Neither is offered nor accepted now; a battery limbers first."""
    g = ready(tmp_path / "a", [unit("F1", x=500.0, y=0.0), unit("A1", "Allies", x=500.0, y=400.0)])
    assert offered(g, "start") == [{"unit": "F1"}]
    g.perform("move", {"unit": "F1", "mode": "retire", "distance": 100.0}, [0, 3])
    assert offered(g, "start") == []
    with pytest.raises(RuleViolation, match="nothing to get moving"):
        g.perform("start", {"unit": "F1"}, [4])
    assert not g.state.unit("F1").advancing
    guns = unit("F1", kind="foot_artillery", formation="unlimbered", figures=4, x=500.0, y=0.0)
    h = ready(tmp_path / "b", [guns, unit("A1", "Allies", x=500.0, y=400.0)])
    assert offered(h, "start") == []
    with pytest.raises(RuleViolation, match="unlimbered"):
        h.perform("start", {"unit": "F1"}, [4])


# == Movement: a queue jumper pursues only its charger ============================================
def test_a_queue_jumper_pursues_and_retires_only_against_its_charger(tmp_path: Path) -> None:
    """Movement: a unit charged "jump[s] ahead of the queue" and is "restricted to actions
    directly against the unit charging them": its advance had to go toward its charger, but
    `move mode=pursuit` went any way and `mode=retire` away from it. Now a pursuit goes
    straight at the charger (``toward``) and a retirement of its own is refused."""
    units = [cavalry("F1", x=500.0, y=0.0), unit("A1", "Allies", x=620.0, y=90.0, facing=180.0)]
    g = ready(tmp_path, units, TIMID)
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    g.perform("next", {})
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [0])
    g.perform("fire", {"unit": "A1", "target": "F1", "hold": True})
    g.perform("close", {"unit": "F1"})
    g.perform("charge_home", {"unit": "F1"}, [99])  # the lancers (timid CO) retire 100mm
    for d in (0.0, 90.0, 180.0):
        req = {"unit": "A1", "mode": "pursuit", "distance": 50.0, "direction": d}
        with pytest.raises(RuleViolation, match="only against F1"):
            g.perform("move", req, [4, 0, 3])
    with pytest.raises(RuleViolation, match="only against F1"):
        g.perform("move", {"unit": "A1", "mode": "retire", "distance": 50.0}, [0, 3])
    f1 = g.state.unit("F1")
    before = math.hypot(f1.x - 620.0, f1.y - 90.0)
    out = g.perform(
        "move", {"unit": "A1", "mode": "pursuit", "toward": "F1", "distance": 50.0}, [4, 0, 3]
    )
    a1 = g.state.unit("A1")
    assert "pursuit" in out.message
    assert math.hypot(f1.x - a1.x, f1.y - a1.y) == pytest.approx(before - 50.0, abs=0.2)


# == Movement: a queue jumper whose charger is gone (reading K76) =================================
def test_a_queue_jumper_does_not_move_toward_a_charger_no_longer_on_the_table(
    tmp_path: Path,
) -> None:
    """Movement: a unit charged is "restricted to actions directly against the unit charging
    them". A1's volley destroyed the lancer charging it; todo then offered A1 an advance toward
    F1, off the table, and it went to where F1 had stood. Reading K76: no move toward a unit no
    longer on the table, so A1 has nothing left to move against this turn."""
    units = [
        cavalry("F1", x=500.0, y=150.0, figures=1, front=1),
        unit("A1", "Allies", x=500.0, y=300.0, front=5),
        unit("A2", "Allies", x=900.0, y=300.0),
    ]
    g = ready(tmp_path, units)
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    g.perform("next", {})
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [0])
    g.perform("fire", {"unit": "A1", "target": "F1"}, [6, 1, 1, 1, 1, 1, 1])
    assert not g.state.unit("F1").on_table
    assert offered(g, "move", "A1") == []
    with pytest.raises(RuleViolation, match="K76"):
        g.perform("move", {"unit": "A1", "mode": "advance", "toward": "F1", "distance": 50.0})
    assert (g.state.unit("A1").x, g.state.unit("A1").y) == (500.0, 300.0)


def test_a_negative_retirement_arc_is_refused(tmp_path: Path) -> None:
    """A house rule ``retire_arc_deg`` below 0 would refuse every retirement, the owed ones
    too (a dead end): the game is not made."""
    units = [unit("F1", x=500.0, y=0.0), unit("A1", "Allies", x=500.0, y=400.0)]
    with pytest.raises(DataError, match="retire_arc_deg"):
        ready(tmp_path, units, house={"options": {"retire_arc_deg": -1}})
