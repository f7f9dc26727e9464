"""Kuryakin's text as acceptance cases (seed 004), session 20, helper K14: the charge home's move
into contact is the charger's move too (reading K88 carried on). Played through the public API
(``Game.create`` / ``perform`` / ``todo`` / ``is_legal``) with forced dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.solo_napoleonic.test_solonap_text_3 import ready, unit
from tests.solo_napoleonic.test_solonap_text_10 import MELEE
from vedette.engine import Game


def _owed(g: Game) -> list[tuple[str, dict[str, Any]]]:
    return [(t.procedure, dict(t.request)) for t in g.todo() if t.owed]


def _closed_before_the_retirement(tmp_path: Path, y: float) -> Game:
    """F1 charges A1 (``y`` mm off); A1 fails the test it forced and owes its retirement; F1
    moves up first (todo offers both), then A1 retires 140mm."""
    g = ready(tmp_path, [unit("F1", x=1000.0, y=0.0, grade="B"),
                         unit("A1", "Allies", x=1000.0, y=y, grade="B")])  # fmt: skip
    for procedure, request, dice in MELEE[:3]:
        g.perform(procedure, request, dice or None)
    assert ("close", {"unit": "F1"}) in _owed(g)
    g.perform("close", {"unit": "F1"})
    g.perform("move", {"unit": "A1", "mode": "retire"}, [-1, 2])
    return g


def test_a_charger_does_not_charge_home_beyond_its_move(tmp_path: Path) -> None:
    """Charge Test: "the attacker moves up to the target", its reach its move (readings K50,
    K88). F1 moved up 90mm to A1; A1 then carried out its retirement (140mm) and F1's charge
    home, needing no test, followed it 140mm into contact: 230mm on a 150mm move. Reading K88
    holds for that move too: F1 goes the 60mm left straight at A1 and the charge ends (no test,
    no melee); a target still within what is left is followed into contact and fought."""
    g = _closed_before_the_retirement(tmp_path / "a", 120.0)
    assert g.state.unit("F1").moved_mm == 90.0 and g.state.unit("A1").y == 260.0
    assert _owed(g) == [("charge_home", {"unit": "F1"})]
    out = g.perform("charge_home", {"unit": "F1"})
    f = g.state.unit("F1")
    assert f.y == 150.0 and f.moved_mm == 150.0 and "beyond its reach" in out.message
    assert "K88" in out.message and f.charge_step is None and f.charge_state == "done"
    assert out.rolls == () and _owed(g) == []
    assert not g.is_legal("melee", {"unit": "F1", "target": "A1"}).ok
    # 40mm off: F1 moves up 10mm, A1 retires to 180mm: 140mm more, within the 140mm left
    g = _closed_before_the_retirement(tmp_path / "b", 40.0)
    g.perform("charge_home", {"unit": "F1"})
    f = g.state.unit("F1")
    assert f.y == 150.0 and f.charge_step == "melee" and f.charge_state == "home"
    assert _owed(g) == [("melee", {"unit": "F1", "target": "A1"})]
