"""Kuryakin's text as acceptance cases (seed 004), session 19, helper K9: a failed morale test
binds the charge (reading K82); a brigadier killed leaves his units out of command control
(reading K83); a unit that jumped the queue and failed its test does not act (reading K84).
Played through the public API (``Game.create`` / ``perform`` / ``todo`` / ``is_legal``) with
forced dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.solo_napoleonic.test_solonap_text_2 import killed_with_f1
from tests.solo_napoleonic.test_solonap_text_3 import cavalry, ready, unit
from tests.solo_napoleonic.test_solonap_text_6 import offered
from vedette.engine import Game
from vedette.errors import RuleViolation

CHARGE = {"unit": "F1", "target": "A1"}


def _fell_back(tmp_path: Path, house: dict[str, Any] | None = None) -> Game:
    """F1's lancers fail a morale test on their card (d100 99) and draw the chart's 5, "retires
    half a move facing the enemy": their owed retirement takes them 180mm back from A1 (half of
    their 400mm, the random move's -2cm), leaving A1 within the rest of their move."""
    units = [cavalry("F1", x=500.0, y=0.0), unit("A1", "Allies", x=500.0, y=40.0)]
    g = ready(tmp_path, units, house=house)
    out = g.perform("morale", {"unit": "F1"}, [99, 5])
    assert "retires half a move facing the enemy" in out.message
    g.perform("move", {"unit": "F1", "mode": "retire"}, [-2, 3])
    assert g.state.unit("F1").y == pytest.approx(-180.0)
    return g


# == reading K82: no charge after a failed morale test ============================================
def test_a_unit_that_failed_morale_does_not_charge_that_turn(tmp_path: Path) -> None:
    """Movement: a charged unit "if they pass their morale test may act accordingly"; Morale:
    a failure's result applies at once. Lancers that failed a test and fell back half a move
    facing the enemy were offered, and allowed, a charge at that enemy on the same card with
    what was left of their move. Reading K82: a unit that failed a morale test charges no more
    that turn (refused before any die, and not offered); the next turn it may;
    ``charge_after_failed_morale = true`` gives the old way."""
    g = _fell_back(tmp_path / "a")
    assert offered(g, "charge") == []
    assert not g.is_legal("charge", CHARGE).ok
    with pytest.raises(RuleViolation, match="K82"):
        g.perform("charge", CHARGE)  # (no dice given: refused before any)
    g.perform("next", {})  # A1's card: it does nothing
    g.perform("next", {})
    g.perform("end_turn", {})
    g.perform("control", {}, [1, 1])
    g.perform("deal", {"cards": {"F1": 1, "A1": 2}, "chance": {}})
    g.perform("next", {})
    assert offered(g, "charge") == [CHARGE]  # a new turn: the failure no longer binds
    h = _fell_back(tmp_path / "b", {"options": {"charge_after_failed_morale": True}})
    assert offered(h, "charge") == [CHARGE]
    assert "F1 charges A1" in h.perform("charge", CHARGE, [6, 0]).message


# == reading K83: a brigadier killed leaves his units out of command control at once ==============
def _reasons(g: Game, uid: str) -> list[str]:
    (test, _) = g.odds("morale", {"unit": uid})
    return [m.reason for m in test.modifiers]


def test_a_brigadier_killed_leaves_his_units_out_of_command_at_once(tmp_path: Path) -> None:
    """Generals: a unit beyond 150mm "from its brigade commander is automatically out of command
    control"; Morale: "Under Command Control +15%", "Brigade or Divisional CO killed in influence
    range -15%". F1's attached brigadier FB fell to A1's fire, and F1's called test counted
    both: +15% for a command whose commander lay dead, against -15% for his loss (no loss at
    all). Reading K83: his units are out of command control from that moment (F2 too, far off);
    ``killed_brigadier_command = "kept"`` keeps them in command until the next control phase."""
    g = killed_with_f1(tmp_path / "a", "brigadier")
    assert not g.state.unit("F1").in_command and not g.state.unit("F2").in_command
    reasons = _reasons(g, "F1")
    assert "Brigade or Divisional CO killed in influence range" in reasons
    assert "under command control" not in reasons
    assert "out of command" in g.perform("status", {"unit": "F2"}).message
    h = killed_with_f1(tmp_path / "b", "brigadier", options={"killed_brigadier_command": "kept"})
    assert h.state.unit("F1").in_command
    assert "under command control" in _reasons(h, "F1")
    # a corps commander killed is no brigade commander: command control is the brigadier's
    c = killed_with_f1(tmp_path / "c", "corps")
    assert c.state.unit("F1").in_command and "under command control" in _reasons(c, "F1")


# == reading K84: a unit that jumped the queue and failed its test does not act ==================
def _failed_jumper(tmp_path: Path, house: dict[str, Any] | None = None) -> Game:
    """F1 charges A1 (standstill 6, d100 00); A1 jumps to card 1.5 and fails its forced test
    (99), halting where it stands (9); F1 moves up and comes home (no test: A1 failed and F1
    took no casualties); the melee is waived (logged), so the charge is over on A1's card."""
    g = ready(tmp_path, [unit("F1", x=500.0, y=0.0), unit("A1", "Allies", x=500.0, y=120.0)],
              house=house)  # fmt: skip
    g.perform("charge", CHARGE, [6, 0])
    g.perform("next", {})
    assert g.state.active == "A1"
    out = g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [99, 9])
    assert "halts where it stands" in out.message
    g.perform("close", {"unit": "F1"})
    g.perform("charge_home", {"unit": "F1"})
    g.perform("waive", {"obligation": "charge:F1:melee"})
    return g


def test_a_queue_jumper_that_failed_its_test_does_not_act(tmp_path: Path) -> None:
    """Movement: the charged unit jumps the queue "and if they pass their morale test may act
    accordingly as the player sees fit". A1, which failed its test and halted, was offered and
    allowed on its jumped card what a halt allows (a volley at F1, a change to square), and its
    card listed them. Reading K84: it does not act (its result's move is still made, a routing
    jumper still runs, a rally is still tried); ``failed_jumper_acts = true`` gives the old way."""
    g = _failed_jumper(tmp_path / "a")
    assert offered(g, "fire", "A1") == [] and offered(g, "formation", "A1") == []
    assert g.perform("status", {"unit": "A1"}).details["may"] == []
    for proc, req in (("fire", {"unit": "A1", "target": "F1"}),
                      ("formation", {"unit": "A1", "to": "square"})):  # fmt: skip
        with pytest.raises(RuleViolation, match="K84"):
            g.perform(proc, req)  # (no dice given: refused before any)
    # a jumper that routs still runs on its card (reading K60), its result's move waived
    r = ready(tmp_path / "r", [unit("F1", x=500.0, y=0.0), unit("A1", "Allies", x=500.0, y=120.0)])
    r.perform("charge", CHARGE, [6, 0])
    r.perform("next", {})
    assert "routs" in r.perform("morale", {"unit": "A1", "charged_by": "F1"}, [99, 1]).message
    r.perform("waive", {"obligation": "result:A1"})
    r.perform("close", {"unit": "F1"})
    assert [t.obligation for t in r.todo() if t.owed] == ["rout:A1"]
    assert "A1 routs" in r.perform("move", {"unit": "A1", "mode": "rout"}, [0, 3]).message
    h = _failed_jumper(tmp_path / "b", {"options": {"failed_jumper_acts": True}})
    assert offered(h, "fire", "A1") == [{"unit": "A1", "target": "F1"}]
    assert "A1 fires at F1" in h.perform("fire", {"unit": "A1", "target": "F1"}).message
