"""ASL board hex ids (``4P5`` = board 4, column P, row 5) on :mod:`vedette.geometry.hexgrid`.

ASL geomorphic boards are flat-topped hex columns lettered ``A``..``Z`` then ``AA``, ``BB``, ..
``GG`` (33 columns), rows numbered from the top: the ``A``-type columns (A, C, E, ..) run 0-10
(0 and 10 are half hexes on the board edges), the ``B``-type columns (B, D, ..) run 1-10 and sit
half a hex higher. That is :class:`OffsetConvention` ("flat", "even"): B1 is the north-east
neighbour of A1. A scenario places its boards on one grid by column and row offsets; a location
id may add a level or part after a colon (``4P5:1``), which shares the hex of ``4P5``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from vedette.errors import BadRequest, DataError
from vedette.geometry.hexgrid import Hex, OffsetConvention

_ID = re.compile(r"^(?P<board>[0-9]+[a-z]*)(?P<col>[A-Z]{1,2})(?P<row>[0-9]{1,2})$")

#: columns per board (A..GG) and the highest row number
BOARD_COLUMNS = 33
BOARD_ROWS = 10


def column_index(letters: str) -> int:
    """``A`` -> 0 .. ``Z`` -> 25, ``AA`` -> 26 .. ``GG`` -> 32 (doubled letters)."""
    if len(letters) == 1 and "A" <= letters <= "Z":
        return ord(letters) - ord("A")
    if len(letters) == 2 and letters[0] == letters[1] and "A" <= letters[0] <= "Z":
        return 26 + ord(letters[0]) - ord("A")
    raise ValueError(f"column {letters!r} is not an ASL column (A..Z, AA..GG)")


def column_letters(index: int) -> str:
    if 0 <= index < 26:
        return chr(ord("A") + index)
    if 26 <= index < 52:
        return chr(ord("A") + index - 26) * 2
    raise ValueError(f"column index {index} out of range")


@dataclass(frozen=True, slots=True)
class HexId:
    """A printed ASL hex id, parsed."""

    board: str
    column: int
    row: int

    @property
    def text(self) -> str:
        return f"{self.board}{column_letters(self.column)}{self.row}"


#: ids parsed already (a pure function of the text; a refusal is not kept: it raises again)
_PARSED: dict[str, HexId] = {}


def parse_hex_id(text: str) -> HexId:
    """``"4P5"`` -> HexId("4", 15, 5); a location suffix (``4P5:1``) is ignored."""
    if isinstance(text, str):
        hit = _PARSED.get(text)
        if hit is not None:
            return hit
    h = _parse_hex_id(text)
    if isinstance(text, str):
        if len(_PARSED) > 100_000:
            _PARSED.clear()
        _PARSED[text] = h
    return h


def _parse_hex_id(text: str) -> HexId:
    t = str(text).strip().split(":", 1)[0]
    m = _ID.match(t)
    if not m:
        raise BadRequest(f"{text!r} is not an ASL hex id (write board, column, row: 4P5)")
    try:
        col = column_index(m["col"])
    except ValueError as e:
        raise BadRequest(f"{text!r}: {e}") from None
    row = int(m["row"])
    if col >= BOARD_COLUMNS:
        raise BadRequest(f"{text!r}: a board has columns A..GG only")
    if not _row_ok(col, row):
        raise BadRequest(f"{text!r}: column {m['col']} has no row {row}")
    return HexId(m["board"], col, row)


def _row_ok(col: int, row: int) -> bool:
    lo = 0 if col % 2 == 0 else 1
    return lo <= row <= BOARD_ROWS


#: the neighbours of a hex id, by layout identity and id (the entry holds the layout, so that
#: its id is not reused while the entry stands); cleared when large
_NEIGHBORS: dict[tuple[int, str], tuple[Any, tuple[str, ...]]] = {}

#: ASL boards: flat-topped hex columns, B-type (odd-index) columns half a hex higher
ASL_CONVENTION = OffsetConvention("flat", "even")


@dataclass(frozen=True, slots=True)
class Board:
    """A board placed on the grid: its column 0 / row 0 sit at global (col, row)."""

    id: str
    col: int = 0
    row: int = 0


@dataclass(frozen=True, slots=True)
class BoardLayout:
    """The boards of a scenario on one hex grid (O'Leary 6.1 needs neighbours and directions)."""

    boards: tuple[Board, ...] = (Board("1"),)
    convention: OffsetConvention = ASL_CONVENTION

    def board(self, board_id: str) -> Board:
        for b in self.boards:
            if b.id == board_id:
                return b
        known = ", ".join(b.id for b in self.boards)
        raise BadRequest(f"board {board_id!r} is not in this scenario (boards: {known})")

    def hex(self, hex_id: str) -> Hex:
        """The grid hex of a printed id (or of a location id such as ``4P5:1``)."""
        h = parse_hex_id(hex_id)
        b = self.board(h.board)
        return self.convention.to_hex(b.col + h.column, b.row + h.row)

    def hex_id(self, h: Hex) -> str | None:
        """The printed id of a grid hex (first board that holds it), or None if off the boards."""
        gcol, grow = self.convention.to_offset(h)
        for b in self.boards:
            col, row = gcol - b.col, grow - b.row
            if 0 <= col < BOARD_COLUMNS and _row_ok(col, row):
                return HexId(b.id, col, row).text
        return None

    def neighbor(self, hex_id: str, direction: str, distance: int = 1) -> str | None:
        """The hex ``distance`` hexes from ``hex_id`` in compass ``direction`` (N, NE, SE, S,
        SW, NW on flat-topped ASL boards), or None if that is off the boards."""
        h = self.hex(hex_id)
        d = self.convention.direction(direction)
        for _ in range(distance):
            h = h.neighbor(d)
        return self.hex_id(h)

    def distance(self, a: str, b: str) -> int:
        return self.hex(a).distance(self.hex(b))

    def neighbors(self, hex_id: str) -> list[str]:
        """The printed ids of the on-board hexes next to ``hex_id``, in the grid's direction
        order; worked out once per layout and id (a layout never changes: ``todo`` asks the
        same hexes step after step)."""
        key = (id(self), hex_id)
        hit = _NEIGHBORS.get(key)
        if hit is None or hit[0] is not self:
            if len(_NEIGHBORS) > 100_000:
                _NEIGHBORS.clear()
            hit = _NEIGHBORS[key] = (self, tuple(self.fresh_neighbors(hex_id)))
        return list(hit[1])

    def fresh_neighbors(self, hex_id: str) -> list[str]:
        """:meth:`neighbors` worked out afresh (the code the memo keeps; its tests' oracle)."""
        out = []
        for n in self.hex(hex_id).neighbors():
            i = self.hex_id(n)
            if i is not None:
                out.append(i)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "boards": [{"id": b.id, "col": b.col, "row": b.row} for b in self.boards],
            "orientation": self.convention.orientation,
            "shifted": self.convention.shifted,
        }


def layout_from_data(
    boards: Sequence[Any] | None, grid: Mapping[str, Any] | None, source: str, used: Iterable[str]
) -> BoardLayout:
    """Boards from a scenario's ``[[boards]]`` (``id``, ``col``, ``row``); boards not listed but
    used by a hex id are stacked below the listed ones, 10 rows apart."""
    out: list[Board] = []
    for i, b in enumerate(boards or [], start=1):
        if isinstance(b, str | int):
            out.append(Board(str(b), 0, BOARD_ROWS * len(out)))
            continue
        if not isinstance(b, Mapping) or "id" not in b:
            raise DataError(source, "a board needs an 'id'", f"boards {i}")
        col = int(b.get("col", 0))
        if col % 2:
            raise DataError(source, "a board's column offset must be even", f"boards {i}")
        out.append(Board(str(b["id"]), col, int(b.get("row", BOARD_ROWS * len(out)))))
    known = {b.id for b in out}
    for hid in used:
        try:
            board = parse_hex_id(hid).board
        except BadRequest as e:
            raise DataError(source, str(e)) from None
        if board not in known:
            out.append(Board(board, 0, BOARD_ROWS * len(out)))
            known.add(board)
    g = grid or {}
    orientation: Literal["flat", "pointy"] = (
        "pointy" if g.get("orientation") == "pointy" else "flat"
    )
    shifted: Literal["even", "odd"] = "odd" if g.get("shifted") == "odd" else "even"
    return BoardLayout(tuple(out) or (Board("1"),), OffsetConvention(orientation, shifted))
