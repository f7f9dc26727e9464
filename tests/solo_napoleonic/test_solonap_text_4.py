"""Kuryakin's text as acceptance cases (seed 004), session 16, the leftovers of
test_solonap_text_3: an eliminated unit's marks, the result chart's "retires half a move facing
the enemy", a retirement out of contact (reading K67) and a charge with a unit in its way
(reading K68). Played through the public API (``Game.create`` / ``perform`` / ``todo``) with
forced dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.solo_napoleonic.test_solonap_text_3 import cavalry, owed, ready, skirmishers, unit
from vedette.engine import Game, Store
from vedette.errors import RuleViolation


# == Morale: "The first two results require rallying": not once the unit is gone ==============
def test_an_eliminated_unit_no_longer_shows_it_must_rally(tmp_path: Path) -> None:
    """A routing unit that must rally is shot away (its last figure falls): the board and its
    status show it eliminated, not a rally it can no longer make (nor its command)."""
    units = [
        unit("F1", x=500.0, y=0.0),
        unit("A1", "Allies", x=500.0, y=150.0, figures=1, status="routing", must_rally=True),
    ]
    g = ready(tmp_path, units)
    assert "must rally" in g.perform("status", {"unit": "A1"}).message
    # a volley of 6 at long range (x1/4: 1.5, the half made a hit by 00), two failed saves
    g.perform("fire", {"unit": "F1", "target": "A1"}, [6, 0, 1, 1])
    assert not g.state.unit("A1").on_table
    shown = g.perform("status", {"unit": "A1"}).message
    a1_line = next(line for line in g.render().splitlines() if line.strip().startswith("A1 "))
    for text in (shown, a1_line):
        assert "eliminated" in text and "must rally" not in text and "command" not in text
    assert not any(t.request.get("unit") == "A1" for t in g.todo())


# == Morale result chart (reading K41): "retires half a move facing the enemy" ===================
def test_a_half_move_retirement_ends_facing_the_enemy(tmp_path: Path) -> None:
    """Charged in the flank, a line fails its forced test with a 5 ("retires half a move
    facing the enemy"): it turns to face the lancers and backs half a move straight away from
    them (it kept its old facing, its flank still to them)."""
    units = [
        cavalry("F1", x=200.0, y=300.0, facing=90.0),
        unit("A1", "Allies", x=500.0, y=300.0),  # faces 180: F1 on its flank
    ]
    g = ready(tmp_path, units)
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    g.perform("next", {})
    out = g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [99, 5])
    assert "retires half a move facing the enemy" in out.message
    retire = ("move", {"unit": "A1", "mode": "retire"})
    assert owed(g)[0] == retire
    g.perform(*retire, [0, 3])  # no random movement, no swerve
    a1 = g.state.unit("A1")
    assert (a1.x, a1.y, a1.facing) == (575.0, 300.0, 270.0)  # half of 150mm, facing F1


# == Disorder: a retirement out of contact is no collision with the unit left (K67) ============
def _flanked(tmp_path: Path, house: dict[str, Any] | None = None) -> Game:
    """A retiring French line, a French column's front (40mm wide) touching its right flank
    (0.6mm off), the Austrian line far ahead (the retirement goes straight away from it, K75;
    an enemy touching its flank would be the enemy it moves away from)."""
    units = [
        unit("F1", x=500.0, y=300.0, status="retiring", must_rally=True),
        unit("F2", x=575.6, y=300.0, facing=270.0, width=40.0, depth=60.0),
        unit("A2", "Allies", x=500.0, y=900.0),
    ]
    return ready(tmp_path, units, house=house)


def test_a_retirement_out_of_contact_is_no_collision_with_the_unit_it_leaves(
    tmp_path: Path,
) -> None:
    """Disorder: 'Each collision D3 D's per unit involved'. The line carries out its
    retirement straight back and pulls 1cm left into the column it was touching, grazing its
    corner as it leaves: no collision is owed (the graze is within the contact tolerance,
    ``[options] leave_contact_mm``, 0 making it one)."""
    g = _flanked(tmp_path / "a")
    out = g.perform("move", {"unit": "F1", "mode": "retire"}, [0, 1, 1])  # swerve: 1, 1cm
    assert "swerves 10mm left" in out.message and "collides" not in out.message
    assert g.state.unit("F1").collided == () and owed(g) == []
    h = _flanked(tmp_path / "b", {"options": {"leave_contact_mm": 0}})
    h.perform("move", {"unit": "F1", "mode": "retire"}, [0, 1, 1])
    assert owed(h) == [("disorder", {"cause": "collision", "units": ["F1", "F2"]})]


def test_a_move_into_the_unit_it_touches_is_still_a_collision(tmp_path: Path) -> None:
    """The tolerance is for leaving: the line pulling 6cm left into the column it touches
    as it retires runs into it."""
    g = _flanked(tmp_path)
    out = g.perform("move", {"unit": "F1", "mode": "retire"}, [0, 1, 6])
    assert "swerves 60mm left" in out.message
    assert owed(g) == [("disorder", {"cause": "collision", "units": ["F1", "F2"]})]


# == Charge Test: "units who charge do so in a straight line" (reading K68) ====================
def _charges(g: Game, uid: str) -> list[str]:
    return [t.request.get("target") for t in g.todo() if t.procedure == "charge"
            and t.request.get("unit") == uid]  # fmt: skip


def test_a_unit_in_the_way_bars_a_charge(tmp_path: Path) -> None:
    """The lancers' straight line to A1 runs into their own F2: the charge is not offered
    and is refused before any die (it was offered, and made through F2, a collision owed);
    ``[options] charge_through_friends`` lets them through. An Austrian unit in the way bars
    it whatever the option (it is that unit the lancers would meet); their own skirmish screen
    does not (reading K64)."""
    target = unit("A1", "Allies", x=500.0, y=245.0, width=120.0)
    lancers = cavalry("F1", x=500.0, y=0.0, width=90.0)
    own = unit("F2", x=500.0, y=115.0, width=40.0, depth=20.0)
    g = ready(tmp_path / "a", [lancers, own, target])
    assert "A1" not in _charges(g, "F1")
    with pytest.raises(RuleViolation, match="F2 in the way"):
        g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    house = {"options": {"charge_through_friends": True}}
    h = ready(tmp_path / "b", [lancers, own, target], house=house)
    assert "A1" in _charges(h, "F1")
    enemy = unit("A2", "Allies", x=500.0, y=115.0, width=40.0, depth=20.0)
    k = ready(tmp_path / "c", [lancers, enemy, target], house=house)
    assert "A1" not in _charges(k, "F1") and "A2" in _charges(k, "F1")
    with pytest.raises(RuleViolation, match="A2 in the way"):
        k.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    screen = skirmishers("F2", "French", x=500.0, y=115.0, width=60.0, depth=10.0)
    foot = unit("F1", x=500.0, y=0.0)
    s = ready(tmp_path / "d", [foot, screen, unit("A1", "Allies", x=500.0, y=140.0)])
    assert "A1" in _charges(s, "F1")


# == Determining Casualties: a saved game with the player's own dice reloads ===================
def test_own_dice_rolled_again_for_a_casualty_reload_from_a_saved_game(tmp_path: Path) -> None:
    """A casualty's die names a front-rank figure; a face above them is 'ignored' and rolled
    again. Given by the player (own dice, ``--dice``), the void faces were kept nowhere in the
    record: the saved game could not be imported ('the referee gives' the roll without them).
    The dice record now keeps every face given, in order."""
    units = [unit("F1", x=500.0, y=0.0), unit("A1", "Allies", x=500.0, y=150.0, figures=2,
                                              front=2)]  # fmt: skip
    g = ready(tmp_path, units)
    g.perform("attach", {"general": "AB", "unit": "A1"})
    # a volley of 6 at long range (1.5, the half made a hit by 00), both saves failed; the
    # first casualty's d4 gives 4 and 3 (no such figure: rolled again), then 2; the second 2
    out = g.perform("fire", {"unit": "F1", "target": "A1"}, [6, 0, 1, 1, 4, 3, 2, 2])
    assert "(ignored 4, 3)" in out.rolls[3].line()
    again = Game.import_jsonl(Store(tmp_path / "i.db"), g.export_jsonl(), "again")
    assert again.state == g.state and again.log_lines() == g.log_lines()
