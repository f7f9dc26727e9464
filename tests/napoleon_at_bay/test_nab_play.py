"""Session 15 third audit (helper F10): whole turns played as a player, each finding held by a
test through the public API (``Game.perform``) with forced dice, quoting the rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.acceptance.test_accept_nab import T, fr, ru


@pytest.mark.parametrize("variant", ["final", "draft"])
def test_a22_a_force_moves_once_so_it_cannot_roll_a_screen_twice(
    tmp_path: Path, variant: str
) -> None:
    """Herman (1)-(2) and reading A22: `todo` offers a move only to a force that has not moved
    this phase, but `move` used to accept a second one. F1 entered R1's ZOC, the fixing held
    (die 1: R1 stays, fixed); F1 then stepped back (R1, no longer next to an enemy, lost its
    fixed state) and in again, and rolled the same screen a second time. A force now moves
    once in its movement phase (refused with a one-line error, nothing changed)."""
    t = T(tmp_path, [fr("F1", "A0705", infantry=4), ru("R1", "A1005", infantry=3)], variant=variant)
    t.move("F1", "A0905")
    t.fix([1])
    assert t.fixed("R1")
    msg = t.refused("A22", "move", force="F1", to=["A0705"])
    assert "has moved this phase" in msg
    assert [x.request["force"] for x in t.game.todo() if x.procedure == "move"] == []


def test_a22_option_lets_a_force_move_again(tmp_path: Path) -> None:
    """A22's knob `one_move_per_phase=false` (a series that splits a move in legs): the second
    move is accepted, and stepping back into the screen's ZOC makes a fixing owed again."""
    t = T(
        tmp_path,
        [fr("F1", "A0705", infantry=4), ru("R1", "A1005", infantry=3)],
        one_move_per_phase=False,
    )
    t.move("F1", "A0905")
    t.fix([1])
    t.move("F1", "A0705")
    assert not t.fixed("R1")
    t.move("F1", "A0905")
    assert [o.id for o in t.game.obligations()] == ["fix:F1:R1"]
