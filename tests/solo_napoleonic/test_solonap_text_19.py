"""Kuryakin's text as acceptance cases (seed 004), session 22, helper K20: the Charge Test's
own list of modifiers, the morale list's losses only by a house rule (reading K107); a halted
unit's step back from the enemy gets no test to move off, as its retirement gets none (reading
K108). Played through ``Game`` with forced dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.solo_napoleonic import test_solonap_text as text
from tests.solo_napoleonic.test_solonap_text_3 import ready, unit


# == Charge Test: "The method is as for ordinary morale" and its own list (K107) ================
def _worn(tmp_path: Path, house: dict[str, Any] | None = None) -> Any:
    """F1 (grade C) has lost 3 of its 18 figures and carries 2 'D' chits; A1 (grade C) 200 mm
    ahead. No general attached, no optional rule: no modifier of either list but the losses."""
    units = [text.unit("F1", figures=15, start_figures=18, disorder=2),
             text.unit("A1", "Allies", y=200.0)]  # fmt: skip
    return text.ready(tmp_path, units, house=house)


def test_the_charge_test_takes_its_own_list_the_morale_lists_losses_only_by_a_house_rule(
    tmp_path: Path,
) -> None:
    """Charge Test: "The method is as for ordinary morale", then BPLs and a list of modifiers
    of its own, without the morale list's "Each casualty (in figures) -3%" and "Each 'D' factor
    -5%"; the Charge Home Test's list names "Each casualty this move -5%" and "Each 'D' factor
    -5%" where they count. Reading K107: the method is the D100 under the BPL and the test's
    own modifiers (the officer's "-5% to all morale" apart, K46), so F1's losses do not count
    in its Charge Test but do in its morale test and its Charge Home Test's own terms.
    ``[options] charge_morale_losses = true``: the Charge Test adds the morale list's -3% a
    casualty and -5% a 'D' factor."""
    g = _worn(tmp_path / "own")
    assert _charge_test(g).modifiers == ()
    assert text.mods(g, "morale", {"unit": "F1", "in_command": False}) == -3 * 3 - 5 * 2
    h = _worn(tmp_path / "house", {"options": {"charge_morale_losses": True}})
    test = _charge_test(h)
    assert test.target is not None and test.base_target is not None
    assert test.target - test.base_target == -3 * 3 - 5 * 2
    why = {m.reason for m in test.modifiers}
    assert why == {"-3% per casualty (figures) ×3", "-5% per 'D' factor ×2"}


def _charge_test(g: Any) -> Any:
    """The odds of F1's Charge Test on A1 (after its test to move off, where one is due)."""
    odds = g.odds("charge", {"unit": "F1", "target": "A1"})
    (test,) = [o for o in odds if "charge test" in o.label]
    return test


# == Moving From A Standstill and a step back, a move of Retreat (K74, K105, K108) =============
def _halted(tmp_path: Path, house: dict[str, Any] | None = None) -> Any:
    """F1 (steady, halted, its card up, facing 0) faces A1 600 mm off, straight ahead."""
    return ready(tmp_path, [unit("F1", x=1000.0, y=0.0), unit("A1", "Allies", x=1000.0, y=600.0)],
                 house=house)  # fmt: skip


def _step(direction: float, mode: str = "move") -> dict[str, Any]:
    return {"unit": "F1", "mode": mode, "distance": 100, "direction": direction}


def test_a_halted_units_step_back_gets_no_test_to_move_off_as_its_retirement_gets_none(
    tmp_path: Path,
) -> None:
    """Moving From A Standstill: "To get troops moving who have halted, roll a D6. A result of
    '1' means that the unit does not advance". A halted F1's `mode=retire` went back with no
    test (reading K74: a move away is no advance), but the same step back typed `mode=move
    direction=180`, a move of Retreat since K105, rolled the D6 first and could "not advance"
    backwards. Reading K108: a plain move away from the enemy is tested as a retirement is,
    not at all; a move to a flank or forward still tests. ``[options] away_move_chit = false``
    (no plain move is a retreat) tests it again."""
    g = _halted(tmp_path / "back")
    (std, *_rest) = g.odds("move", _step(0.0))
    assert "standstill" in std.label
    assert all("standstill" not in o.label for o in g.odds("move", _step(180.0)))
    out = g.perform("move", _step(180.0), [0, 3])  # random movement 0, no swerve: no D6
    assert len(out.rolls) == 2 and "does not advance" not in out.message
    f1 = g.state.unit("F1")
    assert f1.y < 0.0 and not f1.advancing and f1.disorder == 1
    r = _halted(tmp_path / "retire")
    assert len(r.perform("move", _step(180.0, "retire"), [0, 3]).rolls) == 2
    for i, d in enumerate((90.0, 0.0)):
        h = _halted(tmp_path / f"tested{i}")
        assert "does not advance" in h.perform("move", _step(d), [1]).message
    old = _halted(tmp_path / "house", {"options": {"away_move_chit": False}})
    assert "does not advance" in old.perform("move", _step(180.0), [1]).message


def _plain_line(g: Any) -> str:
    (t,) = [t for t in g.todo() if t.procedure == "move" and t.request.get("mode") == "move"]
    return str(t.text)


def test_the_plain_move_line_says_a_move_away_is_a_retreat_of_1d(tmp_path: Path) -> None:
    """Reading K105: a plain move away from the enemy is a move of Retreat, 1D (Disorder: "Each
    move of Retreat/Pursuit 1D"), but todo's line offered "a plain move, any way" with no word
    of it: a player stepping back learnt of the chit only from the result. The line says it;
    where no plain move takes it (``[options] away_move_chit = false``; skirmishers, who take
    no 'D' chits) it says nothing more."""
    assert (
        _plain_line(_halted(tmp_path / "a")) == "F1 moves: a plain move, any way (away: Retreat 1D)"
    )
    old = _halted(tmp_path / "b", {"options": {"away_move_chit": False}})
    assert _plain_line(old) == "F1 moves: a plain move, any way"
    units = [unit("F1", x=1000.0, y=0.0, formation="skirmish"),
             unit("A1", "Allies", x=1000.0, y=600.0)]  # fmt: skip
    assert _plain_line(ready(tmp_path / "c", units)) == "F1 moves: a plain move, any way"


def test_the_plain_move_line_of_a_unit_that_halted_on_its_card_says_only_away(
    tmp_path: Path,
) -> None:
    """Readings K72 and K108: an advancing F1 that halts on its card has had its test, so of its
    plain moves only a step back from the enemy (a move of Retreat, no test) remains. Its todo
    line said "a plain move, any way" while todo kept straight back only; it says which way it
    may go, and the step it offers is accepted."""
    units = [unit("F1", x=1000.0, y=0.0, advancing=True), unit("A1", "Allies", x=1000.0, y=600.0)]
    g = ready(tmp_path / "a", units)
    assert "halts" in g.perform("halt", {"unit": "F1"}, [1]).message
    line = _plain_line(g)
    assert line == "F1 moves: a plain move, only away from the enemy (away: Retreat 1D)"
    (t,) = [t for t in g.todo() if t.procedure == "move" and t.request.get("mode") == "move"]
    assert t.open is not None and list(t.open["direction"]) == [180.0]
    g.perform("move", {**t.request, "distance": 50, "direction": 180.0}, [0, 3])
    f1 = g.state.unit("F1")
    assert f1.y < 0.0 and f1.disorder == 1  # stepped back, no test, its Retreat 1D
    assert _plain_line(ready(tmp_path / "b", [unit("F1", x=1000.0, y=0.0), units[1]])) == (
        "F1 moves: a plain move, any way (away: Retreat 1D)"
    )
