"""Kuryakin's text as acceptance cases (seed 004), session 22, helper K18: a steady unit's move
away of its own takes the retreat's chit whichever word it is typed with (reading K98).
Played through ``Game`` with forced dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.solo_napoleonic.test_solonap_text_3 import ready, unit
from vedette.engine import Game


# == Disorder: "Each move of Retreat/Pursuit 1D" and a steady unit's own move away (K98) =======
def _steady(tmp_path: Path, house: dict[str, Any] | None = None) -> Game:
    """F1 (steady, its card up) faces A1 600 mm off."""
    return ready(tmp_path, [unit("F1", x=1000.0, y=0.0), unit("A1", "Allies", x=1000.0, y=600.0)],
                 house=house)  # fmt: skip


def test_a_steady_units_own_retirement_is_a_retreat_move_as_its_retreat_is(
    tmp_path: Path,
) -> None:
    """Disorder: "Each move of Retreat/Pursuit 1D". A steady unit's `move mode=retreat` took
    the 1D while the same move typed `mode=retire` took none: the text does not tell the two
    apart (reading K97: its only retreats are retirements). Reading K98: both are a move of
    Retreat, 1D; ``[options] own_retreat_chit = false``: neither (only a result's moves)."""
    for i, mode in enumerate(("retire", "retreat")):
        g = _steady(tmp_path / str(i))
        out = g.perform("move", {"unit": "F1", "mode": mode, "distance": 100}, [0, 3])
        assert out.message.endswith(f"+1D ({mode} move 1D)")
        assert g.state.unit("F1").disorder == 1
    for i, mode in enumerate(("retire", "retreat")):
        h = _steady(tmp_path / f"h{i}", {"options": {"own_retreat_chit": False}})
        h.perform("move", {"unit": "F1", "mode": mode, "distance": 100}, [0, 3])
        assert h.state.unit("F1").disorder == 0
    # a plain move backwards is no retreat (halted, F1 tests to move off first: K74)
    k = _steady(tmp_path / "k")
    k.perform("move", {"unit": "F1", "mode": "move", "distance": 100, "direction": 180}, [6, 0, 3])
    assert k.state.unit("F1").disorder == 0
