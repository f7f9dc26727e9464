"""Kuryakin's text as acceptance cases (seed 004), session 17: what a unit does on one card.
Formation changes (reading K71), tests to move off or to halt (reading K72) and a charger's move
after its charge (reading K73), played through the public API (``Game.create`` / ``perform`` /
``todo``) with forced dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.solo_napoleonic.test_solonap_text_3 import cavalry, gen, ready, unit
from vedette.engine import Game
from vedette.errors import RuleViolation

#: an Allied unit far off (the control phase rolls for both brigadiers)
FAR = unit("A9", "Allies", x=2000.0, y=2000.0)


def offered(g: Game, procedure: str, uid: str = "F1") -> list[dict[str, Any]]:
    return [
        {**t.request, **{k: list(v) for k, v in t.open.items()}}
        for t in g.todo()
        if t.procedure == procedure and t.request.get("unit") == uid
    ]


# == Formation Changing: how many changes a card (reading K71) ====================================
def test_a_unit_changes_formation_once_a_card(tmp_path: Path) -> None:
    """Formation Changing: a change takes D4 quarters of a move (A class -2, out of command +2:
    a 1 costs one quarter). The text does not say how many changes a unit makes on its card;
    A1 formed column and then went back to line, to column ... four times on one card (each a
    quarter; with a 0, without end). Reading K71: one change a card, a change carried on from
    the last turn counting as that card's change; ``formation_changes_per_card = 0`` lifts it."""
    g = ready(tmp_path / "a", [unit("F1", grade="A", x=500.0, y=0.0), FAR])
    out = g.perform("formation", {"unit": "F1", "to": "column"}, [1])
    assert "in column now" in out.message
    assert offered(g, "formation") == []
    with pytest.raises(RuleViolation, match="K71"):
        g.perform("formation", {"unit": "F1", "to": "line"}, [1])
    assert g.state.unit("F1").formation == "column"
    assert offered(g, "move")  # it may still move on with what is left of its move
    house = {"options": {"formation_changes_per_card": 0}}
    h = ready(tmp_path / "b", [unit("F1", grade="A", x=500.0, y=0.0), FAR], house=house)
    h.perform("formation", {"unit": "F1", "to": "column"}, [1])
    h.perform("formation", {"unit": "F1", "to": "line"}, [1])
    assert h.state.unit("F1").formation == "line"


def test_a_change_carried_into_the_next_turn_is_that_cards_change(tmp_path: Path) -> None:
    """A change needing more than the move left goes on next turn ("some units have to carry a
    change into the next turn"); going on with it is the next card's change: once formed, the
    unit starts no other change on that card."""
    g = ready(tmp_path, [unit("F1", x=500.0, y=0.0), FAR])
    g.perform("formation", {"unit": "F1", "to": "square"}, [4])  # 4 + 2 (out of command): 6
    assert g.state.unit("F1").formation_quarters == 2
    g.perform("next", {})
    g.perform("end_turn", {})
    g.perform("control", {}, [1, 1])
    g.perform("deal", {"cards": {"F1": 1, "A9": 2}, "chance": {}})
    g.perform("next", {})
    assert offered(g, "formation") == [{"unit": "F1", "to": "square"}]
    g.perform("formation", {"unit": "F1"})
    assert g.state.unit("F1").formation == "square"
    assert offered(g, "formation") == []
    with pytest.raises(RuleViolation, match="K71"):
        g.perform("formation", {"unit": "F1", "to": "line"}, [1])


# == Moving From A Standstill: how many tries a card (reading K72) ================================
def test_a_unit_tests_to_move_off_or_halt_once_a_card(tmp_path: Path) -> None:
    """Moving From A Standstill: a D6 to move off (1 fails), a 6 to carry on when stopping.
    The text gives each try its die, not how many tries: F1 moved off, halted, moved off,
    halted ... on one card, every die that passed undone by the next. Reading K72: one test a
    card, whatever its result; after a halt, an advance (which tests first) waits for the next
    card too. ``standstill_tests_per_card = 0`` lifts it."""
    g = ready(tmp_path / "a", [unit("F1", x=500.0, y=0.0), FAR])
    assert offered(g, "start") == [{"unit": "F1"}]
    assert "advances" in g.perform("start", {"unit": "F1"}, [4]).message
    assert offered(g, "halt") == [] and offered(g, "start") == []
    with pytest.raises(RuleViolation, match="K72"):
        g.perform("halt", {"unit": "F1"}, [1])
    assert g.state.unit("F1").advancing
    # an advancing unit halts: it does not advance again on this card
    h = ready(tmp_path / "b", [unit("F1", x=500.0, y=0.0, advancing=True), FAR])
    assert "halts" in h.perform("halt", {"unit": "F1"}, [1]).message
    assert offered(h, "start") == []
    with pytest.raises(RuleViolation, match="K72"):
        h.perform("move", {"unit": "F1", "mode": "advance"}, [6, 0, 3])
    assert all("advance" not in o.get("mode", []) for o in offered(h, "move"))
    house = {"options": {"standstill_tests_per_card": 0}}
    k = ready(tmp_path / "c", [unit("F1", x=500.0, y=0.0), FAR], house=house)
    k.perform("start", {"unit": "F1"}, [4])
    k.perform("halt", {"unit": "F1"}, [1])
    k.perform("start", {"unit": "F1"}, [4])
    assert k.state.unit("F1").advancing


# == Charge Test / Disorder: a charger's move after its charge (reading K73) ======================
def _charged(tmp_path: Path, house: dict[str, Any] | None = None) -> Game:
    """F1's lancers charge A1 (d100 00 passes); A1 fails its forced test and routs (99, then
    1 on the result chart), runs (its owed rout move), and F1 moves up: it takes the ground."""
    units = [cavalry("F1", x=500.0, y=150.0), unit("A1", "Allies", x=500.0, y=300.0)]
    g = ready(tmp_path, units, house=house)
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    assert "routs" in g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [99, 1]).message
    g.perform("move", {"unit": "A1", "mode": "rout"}, [0, 3])
    out = g.perform("close", {"unit": "F1"})
    assert "takes the ground" in out.message
    return g


def test_a_charger_moves_on_only_in_pursuit(tmp_path: Path) -> None:
    """A charge's move up is the charger's move (Charge Test: "units who charge do so in a
    straight line"); after it the charger made a plain move with the rest of its move, and so
    escaped the pursuit's 1D (Disorder: "Each move of Retreat/Pursuit 1D"), or changed
    formation with it. Reading K73: what is left of its move is a pursuit only;
    ``after_charge_move = "any"`` gives the old way."""
    g = _charged(tmp_path / "a")
    assert [o.get("mode") for o in offered(g, "move")] == ["pursuit"]
    for mode in ("move", "advance"):
        with pytest.raises(RuleViolation, match="K73"):
            g.perform("move", {"unit": "F1", "mode": mode, "distance": 50.0}, [0, 3])
    assert offered(g, "formation") == []  # (a change spends quarters of the move: no pursuit)
    with pytest.raises(RuleViolation, match="K73"):
        g.perform("formation", {"unit": "F1", "to": "dismounted"}, [1])
    out = g.perform("move", {"unit": "F1", "mode": "pursuit", "distance": 50.0}, [0, 3])
    assert "+1D (pursuit move 1D)" in out.message and g.state.unit("F1").disorder == 1
    h = _charged(tmp_path / "b", {"options": {"after_charge_move": "any"}})
    h.perform("move", {"unit": "F1", "mode": "move", "distance": 50.0}, [0, 3])
    assert h.state.unit("F1").disorder == 0


def test_a_charger_that_failed_to_charge_home_halts(tmp_path: Path) -> None:
    """Charge Home Test: chargers who fail "will halt" (cavalry: in front of the target, K48);
    the lancers then rode on with the rest of their move. Reading K73: no move after it."""
    units = [cavalry("F1", x=500.0, y=150.0), unit("A1", "Allies", x=500.0, y=300.0)]
    g = ready(tmp_path, units)
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [0])
    g.perform("fire", {"unit": "A1", "target": "F1", "hold": True})
    g.perform("close", {"unit": "F1"})
    assert "halts" in g.perform("charge_home", {"unit": "F1"}, [99]).message
    assert offered(g, "move") == []
    with pytest.raises(RuleViolation, match="K73"):
        g.perform("move", {"unit": "F1", "mode": "move", "distance": 50.0, "direction": 180.0})


# == Disorder: "reforming takes the whole turn, meaning that the unit can do nothing else" ========
def test_a_unit_that_did_something_else_on_its_card_does_not_reform(tmp_path: Path) -> None:
    """A unit that tested to move off, or changed formation at no cost in its move (A class,
    an Above Average brigadier, out of command: a 1 on the D4 is 0 quarters), then reformed:
    only a move, a fire or a charge barred it. Both are something done on its card now."""
    g = ready(tmp_path / "a", [unit("F1", x=500.0, y=0.0, disorder=3), FAR])
    assert offered(g, "reform") == [{"unit": "F1"}]
    g.perform("start", {"unit": "F1"}, [4])
    assert offered(g, "reform") == []
    with pytest.raises(RuleViolation, match="whole turn"):
        g.perform("reform", {"unit": "F1"}, [6])
    gens = [gen("FB", x=0.0, y=0.0, th="above_average"), gen("AB", "Allies", x=0.0, y=900.0)]
    units = [unit("F1", grade="A", x=500.0, y=0.0, disorder=3), FAR]
    h = ready(tmp_path / "b", units, gens=gens)
    out = h.perform("formation", {"unit": "F1", "to": "column"}, [1])
    assert "0 quarter(s)" in out.message and h.state.unit("F1").moved_mm == 0
    assert offered(h, "reform") == []
    with pytest.raises(RuleViolation, match="whole turn"):
        h.perform("reform", {"unit": "F1"}, [6])


# == Moving From A Standstill: which moves get a halted unit moving (reading K74) =================
def test_a_halted_units_plain_move_tests_to_move_off_first(tmp_path: Path) -> None:
    """Moving From A Standstill: "To get troops moving who have halted, roll a D6. A result of
    '1' means that the unit does not advance". Only `move mode=advance` rolled it: a halted F1
    moved forward as `mode=move` untested, even on the card it halted. Reading K74: every move
    of its own but a retirement, retreat or rout tests first (one test a card, K72), and a
    failed test binds for the card; ``standstill_moves = "advance"`` gives the old way."""
    g = ready(tmp_path / "a", [unit("F1", x=500.0, y=0.0), FAR])
    assert {o["mode"] for o in offered(g, "move")} == {"advance", "move"}
    out = g.perform("move", {"unit": "F1", "mode": "move", "distance": 50}, [1])
    assert "does not advance" in out.message
    f1 = g.state.unit("F1")
    assert f1.start_failed and (f1.x, f1.y) == (500.0, 0.0)
    assert offered(g, "move") == [] and offered(g, "charge") == []
    with pytest.raises(RuleViolation, match="failed to move from a standstill"):
        g.perform("move", {"unit": "F1", "mode": "move", "distance": 50, "direction": 90.0})
    # passed: it moves off (advancing: it tests to halt now, not to move)
    h = ready(tmp_path / "b", [unit("F1", x=500.0, y=0.0), FAR])
    out = h.perform("move", {"unit": "F1", "mode": "move", "distance": 50}, [2, 0, 3])
    assert h.state.unit("F1").advancing and h.state.unit("F1").y != 0.0
    # the old way: a plain move untested
    house = {"options": {"standstill_moves": "advance"}}
    k = ready(tmp_path / "c", [unit("F1", x=500.0, y=0.0), FAR], house=house)
    k.perform("move", {"unit": "F1", "mode": "move", "distance": 50}, [0, 3])
    assert not k.state.unit("F1").advancing


def test_a_unit_that_halted_moves_no_more_on_that_card(tmp_path: Path) -> None:
    """F1 advancing halts (a 1: it stops); on that card its plain move went on forward with no
    test. Reading K74 with K72: getting it moving again is a test, and it has had its test this
    card: no move but a step back is offered and `move mode=move` is refused; a retirement (a
    move away, no test) is still its to make, and a plain step back from the enemy, a retreat
    as the retirement is, too (K108)."""
    g = ready(tmp_path / "a", [unit("F1", x=500.0, y=0.0, advancing=True), FAR])
    assert "halts" in g.perform("halt", {"unit": "F1"}, [1]).message
    (back,) = offered(g, "move")
    assert back["mode"] == "move" and back["direction"] == [180.0]
    for d in (0.0, 90.0):
        with pytest.raises(RuleViolation, match="K72"):
            g.perform("move", {"unit": "F1", "mode": "move", "distance": 50, "direction": d})
    out = g.perform("move", {"unit": "F1", "mode": "retire", "distance": 50}, [0, 3])
    assert "retires" in out.message and not g.state.unit("F1").advancing


def test_a_halted_units_charge_tests_to_move_off_first(tmp_path: Path) -> None:
    """A charge is an advance on the enemy: a halted F1 charged with no test to move off, even
    on the card it halted. Reading K74: it rolls its standstill D6 first (a 1: it does not
    advance, no charge this card), none after it halted on this card (K72);
    ``standstill_moves = "moves"`` lets a charge go in on its Charge Test alone."""
    units = [cavalry("F1", x=500.0, y=150.0), unit("A1", "Allies", x=500.0, y=300.0)]
    g = ready(tmp_path / "a", units)
    odds = g.odds("charge", {"unit": "F1", "target": "A1"})
    assert "standstill" in str(odds[0]).lower() and len(odds) == 2
    out = g.perform("charge", {"unit": "F1", "target": "A1"}, [1])
    assert "does not advance" in out.message and not out.details["charges"]
    assert offered(g, "charge") == [] and g.state.unit("F1").charge_state is None
    h = ready(tmp_path / "b", units)
    out = h.perform("charge", {"unit": "F1", "target": "A1"}, [2, 0])
    assert out.details["charges"] and h.state.unit("F1").standstill_tests == 1
    units[0] = cavalry("F1", x=500.0, y=150.0, advancing=True)
    k = ready(tmp_path / "c", units)
    k.perform("halt", {"unit": "F1"}, [1])
    assert offered(k, "charge") == []
    with pytest.raises(RuleViolation, match="K72"):
        k.perform("charge", {"unit": "F1", "target": "A1"}, [2, 0])
    house = {"options": {"standstill_moves": "moves"}}
    d = ready(tmp_path / "d", [cavalry("F1", x=500.0, y=150.0), units[1]], house=house)
    assert d.perform("charge", {"unit": "F1", "target": "A1"}, [0]).details["charges"]
