"""ASL hex ids on the hex grid (flat-topped columns, B-type columns half a hex higher)."""

from __future__ import annotations

import pytest

from vedette.errors import BadRequest
from vedette.rules.solitaire_asl.ids import (
    Board,
    BoardLayout,
    column_index,
    column_letters,
    parse_hex_id,
)


def test_parse_ids() -> None:
    h = parse_hex_id("4P5")
    assert (h.board, h.column, h.row, h.text) == ("4", 15, 5, "4P5")
    assert parse_hex_id("12GG10").column == 32
    assert parse_hex_id("4P5:1").text == "4P5"
    assert column_index("AA") == 26 and column_letters(27) == "BB"


@pytest.mark.parametrize("bad", ["P5", "4P11", "4B0", "4HH5", "4AB5", "x"])
def test_bad_ids(bad: str) -> None:
    with pytest.raises(BadRequest):
        parse_hex_id(bad)


def test_neighbours_and_directions() -> None:
    lay = BoardLayout((Board("4"),))
    assert lay.neighbor("4A1", "NE") == "4B1"
    assert lay.neighbor("4A1", "SE") == "4B2"
    assert lay.neighbor("4B1", "SW") == "4A1"
    assert lay.neighbor("4P5", "N") == "4P4"
    assert lay.neighbor("4P5", "S", 3) == "4P8"
    assert lay.neighbor("4A1", "NW") is None  # off the board
    assert sorted(lay.neighbors("4C5")) == ["4B5", "4B6", "4C4", "4C6", "4D5", "4D6"]
    assert lay.distance("4A1", "4E3") == 4


def test_two_boards_stacked() -> None:
    lay = BoardLayout((Board("4"), Board("5", 0, 10)))
    assert lay.neighbor("4A10", "S") == "5A1"
    assert lay.hex("4A10") == lay.hex("5A0")
