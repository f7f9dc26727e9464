"""O'Leary's rolled tables roll the dice their data names (``[tables.shift] dice`` and the
others: the text's 2d6 DR, 1d6 dr): a house rule's dice are what the shift, its odds and the
planner use; dice that are no dice are refused when the game is made, in one line."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from vedette.engine import Game, Store
from vedette.errors import DataError
from vedette.rules.solitaire_asl import RULESET

RU = "Russian"


def _sample(house: dict[str, Any] | None = None) -> Game:
    g = Game.create(Store(":memory:"), "g", "asl", RULESET.scenario("sample"), 1, None, house)
    g.perform("phase", {"to": "MPh", "side": RU})
    return g


def _through(g: Game) -> Fraction:
    (o,) = g.odds("shift", {"a": "P1", "b": "D1"})
    return sum((r.p for r in o.rows if r.key in ("free", "allowed")), Fraction(0))


def test_a_house_rule_shift_dice_are_rolled() -> None:
    """O'Leary 2.5: the shift DR is 2d6 (P1 <-> D1 gets through on a final 7 or less, -1 +1:
    21/36); with [tables.shift] dice = "1d20" it is 7 in 20, in the odds and the planner alike,
    and a 20 is rolled (the row >=13: refused, both revealed)."""
    assert _through(_sample()) == Fraction(7, 12)
    g = _sample({"tables": {"shift": {"dice": "1d20"}}})
    assert _through(g) == Fraction(7, 20)
    assert "1 through:  35.00%  (7/20)" in g.perform("plan", {"shifts": ["P1:D1"]}).message
    out = g.perform("shift", {"a": "P1", "b": "D1"}, faces=[20])
    (roll,) = out.rolls
    assert (roll.expression, roll.final, roll.row) == ("1d20", 20, "revealed")


@pytest.mark.parametrize("name", ["shift", "minefield_shift", "boresight", "prereg"])
def test_dice_that_are_no_dice_are_refused_in_one_line(name: str) -> None:
    with pytest.raises(DataError, match=rf"\[tables.{name}\] dice must be dice such as 1d6") as e:
        _sample({"tables": {name: {"dice": "2d"}}})
    assert "\n" not in str(e.value)
