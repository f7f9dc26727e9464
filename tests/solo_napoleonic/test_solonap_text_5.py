"""Kuryakin's text as acceptance cases (seed 004), session 17: the card of a unit that is gone
(reading K69) and a rout from a melee (reading K70). Played through the public API
(``Game.create`` / ``perform`` / ``todo``) with forced dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.solo_napoleonic.test_solonap_text import to_melee
from tests.solo_napoleonic.test_solonap_text_3 import cavalry, owed, ready, unit
from vedette.engine import Game
from vedette.errors import RuleViolation


# == Movement: "One card is required for each unit on the table" (reading K69) ==================
def test_the_card_of_an_eliminated_unit_is_put_aside_not_played(tmp_path: Path) -> None:
    """A1 (card #2) is shot away on F1's card (#1). 'next' passes over its card, saying why,
    and A2's card (#3) acts: no card comes up for a unit no longer on the table (it did, its
    units listed as 'no longer on the table', only 'next' left to do); the order shown
    leaves it out. When the last card left is a gone unit's, the turn is over."""
    units = [
        unit("F1", x=500.0, y=0.0),
        unit("A1", "Allies", x=500.0, y=150.0, figures=1, status="routing", must_rally=True),
        unit("A2", "Allies", x=900.0, y=900.0),
    ]
    g = ready(tmp_path / "a", units)
    g.perform("fire", {"unit": "F1", "target": "A1"}, [6, 0, 1, 1])  # its last figure falls
    assert not g.state.unit("A1").on_table
    assert "A1" not in g.perform("order", {}).message
    out = g.perform("next", {})
    assert "card #2 (A1) put aside: no unit of it on the table" in out.message
    assert g.state.active == "A2" and out.details["units"] == ["A2"]
    assert any(t.request.get("unit") == "A2" for t in g.todo())
    # the last card is the gone unit's: after F1's card, the turn ends
    h = ready(tmp_path / "b", [units[0], units[2], units[1]])
    h.perform("fire", {"unit": "F1", "target": "A1"}, [6, 0, 1, 1])
    h.perform("next", {})
    assert h.state.active == "A2"
    out = h.perform("next", {})
    assert "card #3 (A1) put aside" in out.message and h.state.phase == "end"
    assert [t.procedure for t in h.todo()] == ["end_turn"]


# == Morale: a rout "flees a full move away" from a melee (reading K70) ===========================
#: F1's lancers charge home on A1's line; A2's small column stands at the lancers' rear left
#: corner, touching it as A1 does their front: both are 0 mm off, A2 listed first
_MELEE_DICE = [3, 4, 15, 2, 1, 6, 4, 2, 2, 1, 6, 4, 2, 1, 3, 6, 4, 4, 2, 3, 5, 1]


def _beaten(tmp_path: Path, house: dict[str, Any] | None = None) -> Game:
    units = [
        cavalry("F1", x=500.0, y=150.0),
        unit("A2", "Allies", x=435.0, y=245.0, facing=0.0, width=40.0, depth=20.0),
        unit("A1", "Allies", x=500.0, y=300.0, figures=30, front=10),
    ]
    g = ready(tmp_path, units, house=house)
    to_melee(g, "F1", "A1")
    out = g.perform("melee", {"unit": "F1", "target": "A1"}, _MELEE_DICE)
    assert out.details["losers"] == ["F1"], out.message
    assert "routs" in g.perform("morale", {"unit": "F1"}, [99, 1]).message
    assert owed(g) == [("move", {"unit": "F1", "mode": "rout"})]
    return g


def test_a_rout_from_a_melee_flees_its_opponent_not_through_it(tmp_path: Path) -> None:
    """The lancers lose the melee and rout. Fleeing the nearest enemy (A2, touching their rear
    corner, found first) took them straight through A1, the line they had just fought, and
    owed that collision; they now flee A1 (straight back, clear of both). ``[options]
    flee_from = "nearest"`` keeps the old reading."""
    g = _beaten(tmp_path / "a")
    out = g.perform("move", {"unit": "F1", "mode": "rout"}, [0, 3])
    f1 = g.state.unit("F1")
    assert "collides" not in out.message and owed(g) == []
    assert (f1.x, f1.y) == (500.0, 270.0 - 400.0)  # a full move straight back from A1
    h = _beaten(tmp_path / "b", {"options": {"flee_from": "nearest"}})
    out = h.perform("move", {"unit": "F1", "mode": "rout"}, [0, 3])
    # (into A1: an enemy, it stops at contact, reading K89)
    assert owed(h) == [] and "stops at contact with A1" in out.message


# == Moving From A Standstill: "A result of '1' means that the unit does not advance" ===========
def test_a_unit_that_failed_to_move_from_a_standstill_does_not_charge(tmp_path: Path) -> None:
    """F1 rolls a 1 to get moving: it does not advance this turn. A charge (the charger moving
    up to its target) was still offered and made, found playing from ``todo``; it is now
    neither offered nor accepted, before any die."""
    units = [unit("F1", x=500.0, y=0.0), unit("A1", "Allies", x=500.0, y=150.0)]
    g = ready(tmp_path, units)
    assert any(t.procedure == "charge" for t in g.todo())
    assert "does not advance" in g.perform("start", {"unit": "F1"}, [1]).message
    assert not [t for t in g.todo() if t.procedure == "charge"]
    with pytest.raises(RuleViolation, match="failed to move from a standstill"):
        g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    with pytest.raises(RuleViolation, match="failed to move from a standstill"):
        g.odds("charge", {"unit": "F1", "target": "A1"})
