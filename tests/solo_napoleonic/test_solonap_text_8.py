"""Kuryakin's text as acceptance cases (seed 004), session 18, helper K7: what a card lists
(the referee's own refusals), guns that unlimber (reading K77) and which way an advance or a
pursuit goes (reading K78). Played through the public API (``Game.create`` / ``perform`` /
``todo`` / ``is_legal``) with forced dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.solo_napoleonic.test_solonap_text_3 import ready, unit
from tests.solo_napoleonic.test_solonap_text_6 import _charged, offered
from vedette.engine import Game
from vedette.errors import DataError, RuleViolation

ENEMY = unit("A1", "Allies", x=500.0, y=400.0)


def _listed(g: Game, uid: str = "F1") -> tuple[list[str], list[str]]:
    """What the card's ``next`` listed for the unit, and what ``status`` lists now."""
    nxt = next(r for r in reversed(g.records) if r.payload.get("procedure") == "next")
    line = next(x for x in nxt.payload["message"].splitlines() if x.startswith(f"  {uid}: "))
    may = g.perform("status", {"unit": uid}).details["may"]
    return line.removeprefix(f"  {uid}: ").split(", "), list(may)


def _guns(**kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": "foot_artillery", "formation": "unlimbered", "figures": 4}
    d.update(kw)
    return unit("F1", x=500.0, y=0.0, **d)


# == the card's listing: what the referee accepts (Moving From A Standstill; Disorder) ============
def test_a_cards_listing_names_only_what_the_referee_accepts(tmp_path: Path) -> None:
    """`next` and `status` listed "move, formation, fire, reform, start" for unlimbered guns,
    which cannot move (a move of 0mm) and so have nothing to start (todo offered neither, and
    both were refused), and "reform" for a unit without a 'D' chit. After F1's move, `status`
    still listed a move and a start. The listing now names only what the referee accepts."""
    g = ready(tmp_path / "a", [_guns(), ENEMY])
    listed, may = _listed(g)
    assert listed == may == ["formation", "fire"]
    assert not offered(g, "move") and not offered(g, "start") and not offered(g, "reform")
    h = ready(tmp_path / "b", [unit("F1", x=500.0, y=0.0, disorder=1), ENEMY])
    listed, may = _listed(h)
    # (A1, 370mm away, is beyond F1's fire and charge: neither is listed, session 19)
    assert listed == may == ["move", "formation", "reform", "start"]
    h.perform("move", {"unit": "F1", "mode": "move", "distance": 50.0}, [4, 0, 3])
    assert h.state.unit("F1").move_done
    assert _listed(h)[1] == ["formation"]
    assert not offered(h, "start") and not offered(h, "reform") and not offered(h, "move")


# == reading K77: guns that unlimber have stopped =================================================
def test_guns_that_unlimber_end_their_advance(tmp_path: Path) -> None:
    """Moving From A Standstill: "To get troops moving who have halted, roll a D6"; "the reverse
    is true for stopping an advance". A battery unlimbering as it advanced stayed "advancing":
    `halt` was offered for guns that cannot move, and once limbered again it moved off with no
    test. Reading K77: guns in a formation that does not move have stopped; the advance ends
    as they unlimber, and no halt is offered or accepted for unlimbered guns."""
    g = ready(tmp_path / "a", [_guns(formation="limbered", advancing=True), ENEMY])
    assert offered(g, "halt") == [{"unit": "F1"}]
    out = g.perform("formation", {"unit": "F1", "to": "unlimbered"}, [1])
    assert "in unlimbered now; its advance ends" in out.message
    assert not g.state.unit("F1").advancing
    assert offered(g, "halt") == [] and offered(g, "start") == []
    assert "halt" not in _listed(g)[1]
    # a battery set out unlimbered and advancing (a scenario, an older game): nothing to halt
    h = ready(tmp_path / "b", [_guns(advancing=True), ENEMY])
    assert offered(h, "halt") == [] and "halt" not in _listed(h)[0]
    with pytest.raises(RuleViolation, match="no advance to stop"):
        h.perform("halt", {"unit": "F1"}, [6])


# == reading K78: an advance or a pursuit goes forward ============================================
def test_an_advance_goes_forward(tmp_path: Path) -> None:
    """Moving From A Standstill speaks of a unit that "does not advance"; `move mode=advance`
    went any way, straight back included (an "advance" away from the enemy, past K75's arc for
    retirements). Reading K78: an advance goes within ``advance_arc_deg`` (45) of straight
    ahead, or toward an enemy unit; a move back or to a flank is a plain move (``mode=move``).
    todo offers the advance forward and the plain move every way; 180 lifts the arc."""
    g = ready(tmp_path / "a", [unit("F1", x=500.0, y=0.0, advancing=True), ENEMY])
    for d in (90.0, -90.0, 135.0, 180.0):
        req = {"unit": "F1", "mode": "advance", "distance": 50.0, "direction": d}
        assert not g.is_legal("move", req).ok
        with pytest.raises(RuleViolation, match="K78"):
            g.perform("move", req)  # refused before any die
        assert g.is_legal("move", {**req, "mode": "move"}).ok
    for d in (0.0, 45.0, -45.0, 30.0):
        req = {"unit": "F1", "mode": "advance", "distance": 50.0, "direction": d}
        assert g.is_legal("move", req).ok
    modes = {o["mode"]: o["direction"] for o in offered(g, "move")}
    assert modes == {
        "advance": [0.0, 45.0, -45.0],
        "move": [0.0, 45.0, -45.0, 90.0, -90.0, 180.0],
    }
    g.perform("move", {"unit": "F1", "mode": "advance", "distance": 50.0}, [0, 3])
    assert g.state.unit("F1").y == pytest.approx(50.0)
    units = [unit("F1", x=500.0, y=0.0, advancing=True), ENEMY]
    h = ready(tmp_path / "b", units, house={"options": {"advance_arc_deg": 180}})
    req = {"unit": "F1", "mode": "advance", "distance": 50.0, "direction": 180.0}
    assert h.is_legal("move", req).ok
    with pytest.raises(DataError, match="advance_arc_deg"):
        ready(tmp_path / "c", units, house={"options": {"advance_arc_deg": -1}})


def test_a_chargers_pursuit_goes_forward_or_at_its_enemy(tmp_path: Path) -> None:
    """Disorder: "Each move of Retreat/Pursuit 1D"; after its charge a charger moves on only in
    pursuit (K73). The pursuit went any way, straight back included. Reading K78: forward (45
    degrees either side of straight ahead), or straight at an enemy (``toward``); todo offers
    it forward only."""
    g = _charged(tmp_path)
    (offer,) = offered(g, "move")
    assert offer["mode"] == "pursuit" and offer["direction"] == [0.0, 45.0, -45.0]
    for d in (90.0, 180.0):
        req = {"unit": "F1", "mode": "pursuit", "distance": 50.0, "direction": d}
        with pytest.raises(RuleViolation, match="K78"):
            g.perform("move", req)
    at_a1 = {"unit": "F1", "mode": "pursuit", "toward": "A1", "distance": 50.0}
    assert g.is_legal("move", at_a1).ok
    x = g.state.unit("F1").x
    out = g.perform("move", {"unit": "F1", "mode": "pursuit", "distance": 50.0}, [0, 3])
    # straight ahead, after A1, whose rout F1's move up followed into contact: it goes no
    # further into the enemy (reading K89)
    assert g.state.unit("F1").x == x and "stops at contact with A1" in out.message


# == reading K79: "Unit retiring" is a morale state, not a unit's own step back ===================
def test_unit_retiring_is_the_state_a_failed_test_leaves(tmp_path: Path) -> None:
    """Morale: "Unit retiring -10%" beside "Unit Routing -20%", and "The first two results
    require rallying" (the chart is missing, K41). Reading K79: a retiring unit is one a failed
    test left retiring (our chart's 3-4, until it rallies), as a routing unit is one it left
    routing; a unit that steps back by its own move (`move mode=retire`) stays steady, without
    the -10% (only its retreat's 1D, reading K98, takes its -5%)."""
    g = ready(tmp_path / "a", [unit("F1", x=500.0, y=0.0), ENEMY])
    (steady, _) = g.odds("morale", {"unit": "F1"})
    g.perform("move", {"unit": "F1", "mode": "retire", "distance": 100.0}, [0, 3])
    f1 = g.state.unit("F1")
    assert f1.y == pytest.approx(-100.0) and f1.status == "steady"
    (after, _) = g.odds("morale", {"unit": "F1"})
    assert steady.target == 65  # C, out of command, no friend near
    assert f1.disorder == 1 and after.target == 65 - 5  # its 'D' factor, not "Unit retiring"
    f2 = unit("F1", x=500.0, y=0.0, status="retiring", must_rally=True)
    h = ready(tmp_path / "b", [f2, ENEMY])
    (retiring, _) = h.odds("morale", {"unit": "F1"})
    assert retiring.target == 65 - 10
