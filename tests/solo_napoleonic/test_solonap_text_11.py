"""Kuryakin's text as acceptance cases (seed 004), session 20, helper K12: a move is not an
attack, a charger's move up is its move, a melee is not a rest. Each case is played through the
public API (``Game.create`` / ``perform`` / ``todo`` / ``is_legal``) with forced dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.solo_napoleonic.test_solonap_text_3 import ready, unit
from tests.solo_napoleonic.test_solonap_text_10 import MELEE
from vedette.engine import Game
from vedette.rules.solo_napoleonic import geom


def _owed(g: Game) -> list[tuple[str, dict[str, Any]]]:
    return [(t.procedure, dict(t.request)) for t in g.todo() if t.owed]


# == reading K89: a move stops at contact with an enemy ===========================================
def test_a_move_stops_at_contact_with_an_enemy_the_die_and_swerve_included(
    tmp_path: Path,
) -> None:
    """Move Sequence: a unit "physically attacked (i.e. with the intention of melee)" is charged
    (Charge Test: the charge test, the target's own test, the charge home test). A plain move of
    150mm ran F1 right through A1 (90mm off) to stand behind it, costing only the collision's
    chits; one that had failed its Charge Test did the same. Reading K89: a move never enters an
    enemy's base; it stops where it first touches one, what the random movement die and the
    swerve add included (the table's practice), and no collision is owed with the enemy; a
    friend run into before that is still a collision (Disorder: "Each collision D3")."""
    f1 = unit("F1", x=1000.0, y=0.0)
    g = ready(tmp_path / "a", [f1, unit("A1", "Allies", x=1000.0, y=120.0)])
    out = g.perform("move", {"unit": "F1", "mode": "move", "distance": 150}, [6, 0, 3])
    f = g.state.unit("F1")
    assert (f.x, f.y) == (1000.0, 90.0) and "stops at contact with A1" in out.message
    assert "K89" in out.message and f.collided == () and _owed(g) == []
    assert geom.unit_distance(f, g.state.unit("A1")) < 0.5  # touching: in contact
    assert g.state.unit("A1").disorder == 0
    # a shorter move the die carries on into the enemy: it stops at contact too
    g = ready(tmp_path / "b", [f1, unit("A1", "Allies", x=1000.0, y=120.0)])
    g.perform("move", {"unit": "F1", "mode": "move", "distance": 80}, [6, 3, 3])  # +3cm: 110mm
    assert (g.state.unit("F1").x, g.state.unit("F1").y) == (1000.0, 90.0)
    # one short of it is made as rolled
    g = ready(tmp_path / "c", [f1, unit("A1", "Allies", x=1000.0, y=120.0)])
    g.perform("move", {"unit": "F1", "mode": "move", "distance": 60}, [6, 2, 3])
    assert g.state.unit("F1").y == 80.0
    # a friend on the way is still run into (its collision owed); the enemy beyond stops it
    friend = unit("F2", x=1000.0, y=80.0, width=40.0, depth=20.0, facing=0.0)
    g = ready(tmp_path / "d", [f1, unit("A1", "Allies", x=1000.0, y=160.0), friend])
    g.perform("move", {"unit": "F1", "mode": "move", "distance": 150}, [6, 0, 3])
    f = g.state.unit("F1")
    assert f.y == 130.0 and f.collided == ("F2",)
    assert _owed(g) == [("disorder", {"cause": "collision", "units": ["F1", "F2"]})]


def test_a_unit_that_failed_its_charge_test_does_not_pass_through_its_target(
    tmp_path: Path,
) -> None:
    """The charge K10 found: F1 failed its Charge Test on A1, then advanced its whole move and
    ended behind A1, the charge test sidestepped. Now its advance stops at contact with A1
    (reading K89): the every move offered on its card is still accepted as shown."""
    g = ready(tmp_path, [unit("F1", x=1000.0, y=0.0), unit("A1", "Allies", x=1000.0, y=120.0)])
    out = g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 99])
    assert not out.details["charges"]
    moves = [t for t in g.todo() if t.procedure == "move" and t.request.get("unit") == "F1"]
    assert moves
    for t in moves:
        for d in t.open.get("distance", ()):
            for way in t.open.get("direction", (None,)):
                req = {**t.request, "distance": d} | ({} if way is None else {"direction": way})
                assert g.is_legal("move", req).ok, req
    g.perform("move", {"unit": "F1", "mode": "advance", "distance": 150, "direction": 0}, [3, 3])
    f = g.state.unit("F1")
    assert (f.x, f.y) == (1000.0, 90.0) and f.collided == ()
    assert not g.is_legal("melee", {"unit": "F1", "target": "A1"}).ok


# == reading K88: a charger moves up no further than its move =====================================
def test_a_charger_does_not_follow_a_retiring_target_beyond_its_move(tmp_path: Path) -> None:
    """Charge Test: "the attacker moves up to the target"; its reach is its move (reading K50).
    A1, 90mm off, failed the test F1's charge forced and retired 140mm; F1 then closed 230mm on
    its 150mm move and fought it. Reading K88: the move up is the charger's move: F1 moves all
    of it straight at A1 and stops short, the charge over (no charge home test, no melee); a
    target still within the move is reached and fought as before."""
    g = ready(tmp_path / "a", [unit("F1", x=1000.0, y=0.0, grade="B"),
                               unit("A1", "Allies", x=1000.0, y=120.0, grade="B")])  # fmt: skip
    for procedure, request, dice in MELEE[:4]:
        g.perform(procedure, request, dice or None)
    assert g.state.unit("A1").y == 260.0  # 140mm back
    out = g.perform("close", {"unit": "F1"})
    f = g.state.unit("F1")
    assert f.y == 150.0 and f.moved_mm == 150.0 and "beyond its reach" in out.message
    assert "K88" in out.message and f.charge_step is None and f.charge_state == "done"
    assert _owed(g) == [] and not g.is_legal("charge_home", {"unit": "F1"}).ok
    assert not g.is_legal("melee", {"unit": "F1", "target": "A1"}).ok
    # 10mm off, the same retirement leaves A1 150mm away: within F1's move, caught
    g = ready(tmp_path / "b", [unit("F1", x=1000.0, y=0.0, grade="B"),
                               unit("A1", "Allies", x=1000.0, y=40.0, grade="B")])  # fmt: skip
    for procedure, request, dice in MELEE[:5]:
        g.perform(procedure, request, dice or None)
    assert g.state.unit("F1").y == 150.0 and _owed(g) == [("charge_home", {"unit": "F1"})]


# == reading K90: a unit that fought a melee does not reform that turn ============================
def test_a_unit_that_fought_a_melee_round_does_not_reform_that_turn(tmp_path: Path) -> None:
    """Disorder: to reform a unit must have taken no casualties "up to the point in the round
    when they attempt to reform", and "reforming takes the whole turn, meaning that the unit can
    do nothing else". A1, charged, held its test and its fire and lost no figure in the round of
    melee it won (1D from the round); F1 lost and retired. A1 was then offered, and allowed, a
    reform on its card. Reading K90: a unit that fought a round of melee this turn has done
    something else: the reform is refused naming the reading, and not offered."""
    g = ready(tmp_path, [unit("F1", x=1000.0, y=0.0, grade="B"),
                         unit("A1", "Allies", x=1000.0, y=120.0, grade="B")])  # fmt: skip
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    g.perform("next", {})
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [5])
    g.perform("waive", {"obligation": "charge:F1:fire", "reason": "A1 holds its fire"})
    g.perform("close", {"unit": "F1"})
    g.perform("charge_home", {"unit": "F1"}, [1])
    out = g.perform("melee", {"unit": "F1", "target": "A1"},
                    [1, 1, 1, 99, 5, 5, 5, 5, 6, 6, 6, 99, *[1] * 10])  # fmt: skip
    assert out.details["inflicted"] == {"F1": 0, "A1": 10}
    g.perform("morale", {"unit": "F1"}, [99, 3])
    g.perform("move", {"unit": "F1", "mode": "retire"}, [0, 3])
    a1 = g.state.unit("A1")
    assert g.state.active == "A1" and a1.casualties_turn == 0 and a1.disorder == 1
    verdict = g.is_legal("reform", {"unit": "A1"})
    assert not verdict.ok and "melee" in verdict.reason and "K90" in verdict.reason
    assert not [t for t in g.todo() if t.procedure == "reform"]
