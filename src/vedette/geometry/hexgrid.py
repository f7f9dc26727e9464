"""Hex grids (Red Blob Games' model): a hex is an axial value (q, r) with s = -q - r; the six
directions are a table; printed offset ids (column, row) convert at the edges only.

An :class:`OffsetConvention` says how a map's printed columns and rows sit on the grid:
``orientation`` flat (columns of hexes, the usual wargame map) or pointy (rows of hexes), and
which columns (or rows) are shifted by half a hex: ``"even"`` (shifted down/right) or ``"odd"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    """An axial hex coordinate."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scale(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k)

    def distance(self, other: Hex) -> int:
        d = self - other
        return max(abs(d.q), abs(d.r), abs(d.s))

    def neighbors(self) -> tuple[Hex, ...]:
        return tuple(self + d for d in DIRECTIONS)

    def neighbor(self, direction: int) -> Hex:
        return self + DIRECTIONS[direction % 6]

    def ring(self, radius: int) -> list[Hex]:
        if radius == 0:
            return [self]
        out: list[Hex] = []
        h = self + DIRECTIONS[4].scale(radius)
        for i in range(6):
            for _ in range(radius):
                out.append(h)
                h = h + DIRECTIONS[i]
        return out

    def within(self, radius: int) -> list[Hex]:
        return [h for k in range(radius + 1) for h in self.ring(k)]


#: Axial directions, counter-clockwise from "east"/"south-east" depending on orientation.
#: For flat-top hexes: 0 = SE, 1 = NE, 2 = N, 3 = NW, 4 = SW, 5 = S (screen y grows down).
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)

#: Flat-top compass names of the axial directions (screen y grows down the map).
FLAT_NAMES = {"SE": 0, "NE": 1, "N": 2, "NW": 3, "SW": 4, "S": 5}
#: Pointy-top compass names.
POINTY_NAMES = {"E": 0, "NE": 1, "NW": 2, "W": 3, "SW": 4, "SE": 5}


@dataclass(frozen=True, slots=True)
class OffsetConvention:
    """How printed (column, row) ids sit on the grid.

    The default fits Herman's example (Napoleon At Bay): flat-topped hexes, even columns
    shifted down half a hex, so W2522 is the hex SE of W2421 and W2421 is 3 hexes from W2121.
    """

    orientation: Literal["flat", "pointy"] = "flat"
    shifted: Literal["even", "odd"] = "even"

    def to_hex(self, col: int, row: int) -> Hex:
        if self.orientation == "flat":
            par = col & 1
            q = col
            r = row - (col + par) // 2 if self.shifted == "even" else row - (col - par) // 2
            return Hex(q, r)
        par = row & 1
        r = row
        q = col - (row + par) // 2 if self.shifted == "even" else col - (row - par) // 2
        return Hex(q, r)

    def to_offset(self, h: Hex) -> tuple[int, int]:
        if self.orientation == "flat":
            col = h.q
            par = col & 1
            row = h.r + (col + par) // 2 if self.shifted == "even" else h.r + (col - par) // 2
            return col, row
        row = h.r
        par = row & 1
        col = h.q + (row + par) // 2 if self.shifted == "even" else h.q + (row - par) // 2
        return col, row

    def direction(self, name: str) -> int:
        names = FLAT_NAMES if self.orientation == "flat" else POINTY_NAMES
        try:
            return names[name.upper()]
        except KeyError:
            raise ValueError(f"no direction {name!r} on a {self.orientation}-top grid") from None

    def direction_name(self, d: int) -> str:
        names = FLAT_NAMES if self.orientation == "flat" else POINTY_NAMES
        return next(k for k, v in names.items() if v == d % 6)


def line(a: Hex, b: Hex) -> list[Hex]:
    """Hexes on the straight line from a to b (inclusive), by cube lerp with a nudge."""
    n = a.distance(b)
    if n == 0:
        return [a]
    out: list[Hex] = []
    for i in range(n + 1):
        t = i / n
        q = a.q + (b.q - a.q) * t + 1e-6
        r = a.r + (b.r - a.r) * t + 1e-6
        out.append(cube_round(q, r))
    return out


def cube_round(fq: float, fr: float) -> Hex:
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)
