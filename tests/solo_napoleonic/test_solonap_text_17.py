"""Kuryakin's text as acceptance cases (seed 004), session 22, helper K18: a steady unit's move
away of its own takes the retreat's chit whichever word it is typed with (reading K98).
Played through ``Game`` with forced dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.solo_napoleonic.test_solonap_text_3 import ready, unit
from vedette import rules
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


# == The study's army break (reading K56, a house rule): the moment standing says BROKEN ======
def test_a_study_ends_on_an_army_break_at_the_moment_show_and_todo_say_broken(
    tmp_path: Path,
) -> None:
    """``[battle_end]`` (reading K56) ends a simulated battle when half a side's units are
    routing or lost; ``show`` and ``todo`` count it at any moment, but the study's end hook
    (``Ruleset.outcome``) looked only at a turn's start, so a game whose army broke on a card
    played on to the turn's end (and a unit rallied meanwhile was never seen broken). Now the
    hook ends it at the moment ``standing`` says BROKEN, and not once a rally mends it."""
    rs = rules.get("solonap")
    units = [unit("F1", x=1000.0, y=0.0), unit("F2", x=600.0, y=0.0),
             unit("A1", "Allies", x=1000.0, y=600.0),
             unit("A2", "Allies", x=600.0, y=600.0)]  # fmt: skip
    g = ready(tmp_path, units)
    assert rs.outcome(g.state) is None
    g.perform("morale", {"unit": "F1"}, [99, 1])  # fails: our chart's 1-2, a rout
    assert (g.state.phase, g.state.unit("F1").status) == ("activation", "routing")
    assert rs.standing(g.state)["sides"]["French"] == {
        "lost": 1, "units": 2, "breaks_at": 1, "broken": True
    }  # fmt: skip
    over = rs.outcome(g.state)
    assert over is not None
    assert (over.winner, over.how, over.turns) == ("Allies", "army broken", 1)
    assert dict(over.losses) == {"French": 1, "Allies": 0}
    g.perform("move", {"unit": "F1", "mode": "rout"}, [0, 3])  # its run, owed at once
    g.perform("rally", {"unit": "F1"}, [0])
    assert g.state.unit("F1").status != "routing"
    assert not rs.standing(g.state)["sides"]["French"]["broken"]
    assert rs.outcome(g.state) is None
