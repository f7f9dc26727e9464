"""Kuryakin's text as acceptance cases (seed 004), session 21, helper K17: a retiring unit and
its formation change under way (reading K96), the retreat's chit on a morale result's half-move
retirement and a timid CO's 100 mm (reading K97). Played through ``Game`` with forced dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.solo_napoleonic.test_solonap_text_3 import owed, ready, unit
from tests.solo_napoleonic.test_solonap_text_15 import _timid_charge
from vedette.engine import Game


# == Formation Changing / Morale: a retirement and a change under way (reading K96) ============
def _failed(tmp_path: Path, result: int, house: dict[str, Any] | None = None) -> tuple[Game, str]:
    """F1 (C, out of command) begins a change to square on its card (2 quarters carried into
    the next turn), then fails a morale test with the D10 ``result`` (the words returned)."""
    g = ready(tmp_path, [unit("F1", x=1000.0, y=0.0), unit("A1", "Allies", x=1000.0, y=600.0)],
              house=house)  # fmt: skip
    g.perform("formation", {"unit": "F1", "to": "square"}, [4])
    assert g.state.unit("F1").formation_target == "square"
    return g, g.perform("morale", {"unit": "F1"}, [99, result]).message


def test_a_unit_that_retires_in_disorder_abandons_its_change_one_backing_off_keeps_it(
    tmp_path: Path,
) -> None:
    """Our chart's 3-4 ("retires a full move in disorder, must rally") leaves the unit retiring:
    like a routing unit it only retires or rallies, so its change could not go on and every
    turn's end gave it "Formation Incomplete" 1D until it rallied. Reading K96: it abandons the
    change as a rout does (K94); 5-6 ("retires half a move facing the enemy") leaves it steady,
    its change under way. ``[options] rout_keeps_change = true`` keeps it for both."""
    g, said = _failed(tmp_path / "a", 3)
    assert owed(g) == [("move", {"unit": "F1", "mode": "retire"})]
    f1 = g.state.unit("F1")
    assert (f1.status, f1.formation, f1.formation_target) == ("retiring", "line", None)
    assert said.endswith("its change to square is abandoned: it stays in line (K96)")
    g.perform("move", {"unit": "F1", "mode": "retire"}, [0, 3])
    g.perform("next", {})
    g.perform("next", {})
    assert "formation incomplete" not in g.perform("end_turn", {}).message
    h, said = _failed(tmp_path / "b", 5)
    assert h.state.unit("F1").formation_target == "square" and "abandoned" not in said
    k, said = _failed(tmp_path / "c", 3, {"options": {"rout_keeps_change": True}})
    assert said.endswith("its change to square stays under way (reading K96)")
    assert k.state.unit("F1").formation_target == "square"


# == Disorder: "Each move of Retreat/Pursuit 1D" and the retirements a result forces (K97) =====
def test_a_half_move_back_and_a_timid_cos_retirement_are_retreat_moves(tmp_path: Path) -> None:
    """Disorder charges "Each move of Retreat/Pursuit 1D"; the text names no retreat but a
    retirement (Morale: "Unit retiring"; Charge Home Test: a Timid CO's men "retire 100mm").
    Only a retiring unit's move took the 1D: the chart's half move back facing the enemy and
    the timid CO's 100 mm took none. Reading K97: both are moves of Retreat, 1D each;
    ``[options] forced_retire_chit = false`` gives the old way."""
    g, _ = _failed(tmp_path / "a", 5)
    out = g.perform("move", {"unit": "F1", "mode": "retire"}, [0, 3])
    assert out.message.endswith("+1D (retire move 1D)") and g.state.unit("F1").disorder == 1
    h, _ = _failed(tmp_path / "b", 5, {"options": {"forced_retire_chit": False}})
    h.perform("move", {"unit": "F1", "mode": "retire"}, [0, 3])
    assert h.state.unit("F1").disorder == 0
    k = _timid_charge(tmp_path / "c", "alive")
    out = k.perform("charge_home", {"unit": "F1"}, [99])
    assert out.message == "F1 retires 100mm; +1D (a retirement is a retreat move: reading K97)"
    assert k.state.unit("F1").disorder == 1
