"""Kuryakin's text as acceptance cases (seed 004), session 22, helper K19: a brigadier and his
corps commander both attached in the morale test (reading K104), and a plain move away from
the enemy as a move of Retreat (reading K105). Played through ``Game`` with forced dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.solo_napoleonic import test_solonap_text as text
from tests.solo_napoleonic.test_solonap_text_3 import ready, unit


# == Morale: "Brigadier or Division CO attached +10%", "Corps Commander attached +20%" (K104) ==
def _attached(tmp_path: Path, ranks: tuple[str, ...], house: dict[str, Any] | None = None) -> int:
    """The morale test's attached-general modifiers of F1, its generals of ``ranks`` attached."""
    gens = [text.gen(f"G{i}", rank=r, attached_to="F1") for i, r in enumerate(ranks)]
    gens += [text.gen("FB"), text.gen("AB", "Allies")]
    g = text.ready(tmp_path, [text.unit("F1"), text.unit("A1", "Allies")], gens=gens, house=house)
    return text.mods(g, "morale", {"unit": "F1", "in_command": False})


def test_a_brigadier_and_his_corps_commander_both_attached_both_count_in_morale(
    tmp_path: Path,
) -> None:
    """Morale lists "Brigadier or Division CO attached +10%" and "Corps Commander attached
    +20%" on lines of their own, as the Charge Test and the Charge Home Test list the brigadier
    and the "Div./Corps commander" (reading K103: both count there). The morale test took only
    the larger (K45, +20 for both). Reading K104: each line counts, +30; a brigadier and a
    divisional commander share the one line "Brigadier or Division CO", +10 once. A house rule
    giving both entries one `group` takes the larger again."""
    assert _attached(tmp_path / "b", ("brigadier",)) == 10
    assert _attached(tmp_path / "c", ("corps",)) == 20
    assert _attached(tmp_path / "bc", ("brigadier", "corps")) == 10 + 20
    assert _attached(tmp_path / "bd", ("brigadier", "division")) == 10
    assert _attached(tmp_path / "bdc", ("brigadier", "division", "corps")) == 10 + 20
    larger = {
        "modifiers": {
            "morale": {
                "brigadier_attached": {"group": "attached"},
                "corps_attached": {"group": "attached"},
            }
        }
    }
    assert _attached(tmp_path / "h", ("brigadier", "corps"), larger) == 20


# == Disorder: "Each move of Retreat/Pursuit 1D" and a plain move away from the enemy (K105) ==
def _steady(tmp_path: Path, house: dict[str, Any] | None = None) -> Any:
    """F1 (steady, halted, its card up, facing 0) faces A1 600 mm off, straight ahead."""
    return ready(tmp_path, [unit("F1", x=1000.0, y=0.0), unit("A1", "Allies", x=1000.0, y=600.0)],
                 house=house)  # fmt: skip


def _plain(g: Any, direction: float) -> str:
    """F1's plain move of 100 mm ``direction`` degrees from its facing (its standstill test
    passed where it takes one, a step back none: K108; no random movement, no swerve); the
    referee's answer."""
    req = {"unit": "F1", "mode": "move", "distance": 100, "direction": direction}
    tested = any("standstill" in o.label for o in g.odds("move", req))
    return str(g.perform("move", req, [6, 0, 3] if tested else [0, 3]).message)


def test_a_step_back_from_the_enemy_is_a_move_of_retreat_whatever_its_word(
    tmp_path: Path,
) -> None:
    """Disorder: "Each move of Retreat/Pursuit 1D". A steady unit's `mode=retire` or
    `mode=retreat` takes the 1D (K98), but the same step back typed `mode=move direction=180`
    took none: the word chose the dice. The text has no rule for moving backwards; a move away
    from the enemy is what it calls a retirement. Reading K105: a plain move (or an advance)
    whose direction is within ``[options] retire_arc_deg`` (at most a rear oblique) of straight
    away from the enemy is a move of Retreat, 1D; a move to a flank or forward is not.
    ``[options] away_move_chit = false``: none (earlier builds)."""
    g = _steady(tmp_path / "back")
    assert _plain(g, 180.0).endswith("+1D (move away from the enemy, a Retreat 1D)")
    assert g.state.unit("F1").disorder == 1
    g = _steady(tmp_path / "oblique")
    assert "+1D" in _plain(g, 135.0)
    assert g.state.unit("F1").disorder == 1
    for i, direction in enumerate((90.0, -90.0, 0.0, 45.0)):
        g = _steady(tmp_path / f"not{i}")
        assert "+1D" not in _plain(g, direction)
        assert g.state.unit("F1").disorder == 0
    h = _steady(tmp_path / "house", {"options": {"away_move_chit": False}})
    _plain(h, 180.0)
    assert h.state.unit("F1").disorder == 0


def test_a_plain_move_away_from_an_enemy_behind_is_a_retreat(tmp_path: Path) -> None:
    """Reading K105 judges the move against the enemy, not the unit's facing: F1 faces away
    from A1 (behind it) and its plain move straight ahead goes away from A1, a Retreat, 1D;
    a step back toward A1 is none."""
    units = [unit("F1", x=1000.0, y=0.0, facing=180.0), unit("A1", "Allies", x=1000.0, y=600.0)]
    g = ready(tmp_path / "a", units)
    assert "+1D" in _plain(g, 0.0)
    g = ready(tmp_path / "b", units)
    assert "+1D" not in _plain(g, 180.0)
    assert g.state.unit("F1").disorder == 0


# == Firing: "Firer Moved this turn -2" after a formation change (K106) =======================
def test_a_firer_that_only_changed_formation_is_told_why_it_moved(tmp_path: Path) -> None:
    """Firing: "Firer Moved this turn -2"; Formation Changing: a change takes "quarters of
    movement". A unit that failed to move off ("does not advance") and then changed formation
    was given "firer moved this turn" with no word of why. Reading K106: the change spent
    part of its move, so it has moved, and the modifier says so; ``moved=false`` on the shot
    gives none; a unit that made its move is told the plain reason."""
    units = [unit("F1", x=1000.0, y=0.0, formation="column"),
             unit("A1", "Allies", x=1000.0, y=200.0)]  # fmt: skip
    g = ready(tmp_path / "a", units)
    g.perform("formation", {"unit": "F1", "to": "line"}, [1])
    out = g.perform("fire", {"unit": "F1", "target": "A1", "range": "short"}, [4, 4, 4, 4])
    (m,) = out.rolls[0].modifiers
    why = "firer moved this turn: its formation change spent part of its move (K106)"
    assert (m.value, m.reason) == (-2, why)
    g = ready(tmp_path / "b", units)
    g.perform("formation", {"unit": "F1", "to": "line"}, [1])
    out = g.perform("fire", {"unit": "F1", "target": "A1", "range": "short", "moved": False},
                    [4, 4, 4, 4])  # fmt: skip
    assert out.rolls[0].modifiers == ()
    g = ready(tmp_path / "c", [unit("F1", x=1000.0, y=0.0),
                               unit("A1", "Allies", x=1000.0, y=300.0)])  # fmt: skip
    g.perform("move", {"unit": "F1", "mode": "advance", "distance": 50}, [6, 0, 3])
    out = g.perform("fire", {"unit": "F1", "target": "A1", "range": "short"}, [4, 4, 4, 4])
    assert [x.reason for x in out.rolls[0].modifiers] == ["firer moved this turn"]
