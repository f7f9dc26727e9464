"""Result tables keyed by ranges of a final figure, loaded from data files.

Ranges are written as in the rulebooks: ``<=0``, ``1-7``, ``8+``, ``>=13``, ``5``, ``-3--1``,
``<3``, ``>12``. A table is validated at load: rows in order, no gap and no overlap (an error
naming the file and row). Ends may be open or closed; a figure beyond a closed end is an error
unless the table says ``clamp = true`` (then the end rows apply).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vedette.errors import DataError

if TYPE_CHECKING:  # start-up: fractions is loaded by the odds, not with the tables
    from fractions import Fraction

INF = 10**9

_RANGE: list[tuple[re.Pattern[str], Callable[[re.Match[str]], tuple[int, int]]]] = [
    (re.compile(r"^(-?\d+)\s*-\s*(-?\d+)$", re.ASCII), lambda m: (int(m[1]), int(m[2]))),
    (re.compile(r"^(-?\d+)\s*\+$", re.ASCII), lambda m: (int(m[1]), INF)),
    (
        re.compile(r"^(-?\d+)\s*(or more|and up|\+ or more)$", re.I | re.ASCII),
        lambda m: (int(m[1]), INF),
    ),
    (re.compile(r"^(-?\d+)\s*(or less|-)$", re.I | re.ASCII), lambda m: (-INF, int(m[1]))),
    (re.compile(r"^(>=|≥)\s*(-?\d+)$", re.ASCII), lambda m: (int(m[2]), INF)),
    (re.compile(r"^(<=|≤)\s*(-?\d+)$", re.ASCII), lambda m: (-INF, int(m[2]))),
    (re.compile(r"^>\s*(-?\d+)$", re.ASCII), lambda m: (int(m[1]) + 1, INF)),
    (re.compile(r"^<\s*(-?\d+)$", re.ASCII), lambda m: (-INF, int(m[1]) - 1)),
    (re.compile(r"^(-?\d+)$", re.ASCII), lambda m: (int(m[1]), int(m[1]))),
]


def parse_range(text: str) -> tuple[int, int]:
    """``"1-7"`` -> (1, 7); open ends are ±10**9. Raises ValueError if unreadable."""
    t = str(text).strip()
    for rx, fn in _RANGE:
        m = rx.match(t)
        if m:
            lo, hi = fn(m)
            if lo > hi:
                raise ValueError(f"range {text!r} is empty ({lo} > {hi})")
            return lo, hi
    raise ValueError(f"cannot read range {text!r} (write e.g. <=0, 1-7, 8+, >=13)")


@dataclass(frozen=True, slots=True)
class Row:
    """One row: the range it covers, its key, the consequence, and the table's further columns
    (declared by the table, typed and checked at load: ``row.follow_up``)."""

    lo: int
    hi: int
    key: str
    result: str
    range_text: str
    data: Mapping[str, Any] = field(default_factory=dict)  # the columns this row gives
    #: the table's optional columns and their defaults (a row that omits one reads the default)
    defaults: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def __getattr__(self, name: str) -> Any:
        """A declared column, as typed at load (the row's value, else the column's default)."""
        if not name.startswith("_") and name not in ("data", "defaults"):  # (unset while built)
            for values in (self.data, self.defaults):
                if name in values:
                    return values[name]
        raise AttributeError(f"table row {self.key!r} has no column {name!r}")

    def covers(self, figure: int) -> bool:
        return self.lo <= figure <= self.hi

    def to_json(self) -> dict[str, Any]:
        return {"range": self.range_text, "key": self.key, "result": self.result, **dict(self.data)}


@dataclass(frozen=True, slots=True)
class Table:
    """A result table. ``lookup`` is the only way a figure becomes a row, for play and odds."""

    name: str
    rows: tuple[Row, ...]
    title: str = ""
    rule: str = ""
    dice: str = ""
    clamp: bool = False
    source: str = "<table>"
    _bounds: tuple[int, ...] = field(init=False, repr=False, compare=False, default=())
    #: memo of derived values (row odds per distribution); a table never changes, so it is safe
    memo: dict[Any, Any] = field(init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_bounds", tuple(r.hi for r in self.rows[:-1]))
        if not self.rows:
            raise DataError(self.source, f"table {self.name!r} has no rows")
        for i in range(1, len(self.rows)):
            prev, row = self.rows[i - 1], self.rows[i]
            if row.lo <= prev.hi:
                raise DataError(
                    self.source,
                    f"table {self.name!r}: {row.range_text!r} overlaps {prev.range_text!r}",
                    i + 1,
                )
            if row.lo > prev.hi + 1:
                raise DataError(
                    self.source,
                    f"table {self.name!r}: gap between {prev.range_text!r} and {row.range_text!r}"
                    f" ({prev.hi + 1}..{row.lo - 1} not covered)",
                    i + 1,
                )
        keys = [r.key for r in self.rows]
        if len(set(keys)) != len(keys):
            raise DataError(self.source, f"table {self.name!r}: duplicate row keys")

    @property
    def lo(self) -> int:
        return self.rows[0].lo

    @property
    def hi(self) -> int:
        return self.rows[-1].hi

    def lookup(self, figure: int) -> Row:
        rows = self.rows
        if rows[0].lo <= figure <= rows[-1].hi:
            return rows[bisect_left(self._bounds, figure)]
        if self.clamp:
            return rows[0] if figure < rows[0].lo else rows[-1]
        raise DataError(self.source, f"table {self.name!r} has no row for {figure}")

    def row(self, key: str) -> Row:
        for r in self.rows:
            if r.key == key:
                return r
        raise DataError(self.source, f"table {self.name!r} has no row {key!r}")

    def odds(self, weights: Mapping[int, int]) -> dict[str, Fraction]:
        """Exact probability of each row (by key, in table order) for a figure's weights."""
        tot = 0
        acc = [0] * len(self.rows)
        bounds = self._bounds
        lo, hi = self.rows[0].lo, self.rows[-1].hi
        for v, n in weights.items():
            tot += n
            if lo <= v <= hi:
                acc[bisect_left(bounds, v)] += n
            else:
                acc[self.rows.index(self.lookup(v))] += n
        from fractions import Fraction  # start-up: a CLI step reading a table needs no odds

        return {r.key: Fraction(n, tot) for r, n in zip(self.rows, acc, strict=True)}

    def row_counts(self, lo: int, counts: Sequence[int]) -> list[int]:
        """The weight of each row (in table order) for counts: ``counts[i]`` is the weight of
        the figure ``lo + i``. Each row is the sum of a slice of the counts; a figure beyond
        the table's ends is read as :meth:`lookup` reads it (the end row if ``clamp``, else
        the error naming the lowest such figure)."""
        rows = self.rows
        n = len(counts)
        hi = lo + n - 1
        beyond = lo < rows[0].lo or hi > rows[-1].hi
        if beyond and not self.clamp:
            first, last = rows[0].lo, rows[-1].hi
            below = [lo + i for i in range(min(first - lo, n)) if counts[i]]
            above = [v for v in range(max(last + 1, lo), hi + 1) if counts[v - lo]]
            if below or above:
                self.lookup((below or above)[0])  # raises, naming the figure
        out: list[int] = []
        for r in rows:
            a = r.lo - lo
            if a < 0:
                a = 0
            b = r.hi - lo + 1
            out.append(sum(counts[a:b]) if b > a else 0)
        if beyond and self.clamp:  # the end rows take what lies beyond them
            out[0] += sum(counts[: max(0, min(rows[0].lo - lo, n))])
            out[-1] += sum(counts[max(0, rows[-1].hi - lo + 1) :])
        return out

    def odds_counts(self, lo: int, counts: Sequence[int]) -> dict[str, Fraction]:
        """The same as :meth:`odds` for counts (see :meth:`row_counts`): one ``Fraction`` per
        row, at the end."""
        from fractions import Fraction  # start-up: a CLI step reading a table needs no odds

        tot = sum(counts)
        return {
            r.key: Fraction(n, tot)
            for r, n in zip(self.rows, self.row_counts(lo, counts), strict=True)
        }

    def boundaries(self) -> list[int]:
        """Upper bounds of every row but the last (for vectorised lookup)."""
        return [r.hi for r in self.rows[:-1]]

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "rule": self.rule,
            "dice": self.dice,
            "clamp": self.clamp,
            "rows": [r.to_json() for r in self.rows],
        }


_ROW_FIELDS = {"range", "key", "result"}

#: the kinds a table's column may declare, and the TOML values each takes (an integer is a
#: float too; a boolean is neither)
KINDS: dict[str, tuple[type, ...]] = {
    "str": (str,),
    "int": (int,),
    "float": (int, float),
    "bool": (bool,),
}


@dataclass(frozen=True, slots=True)
class Column:
    """A table's further column: its kind, and its default if rows may omit it."""

    kind: str
    required: bool = True
    default: Any = None

    def fits(self, value: Any) -> bool:
        return isinstance(value, KINDS[self.kind]) and (self.kind == "bool") == isinstance(
            value, bool
        )


def table_columns(name: str, data: Mapping[str, Any], source: str) -> dict[str, Column]:
    """A table's ``columns``: ``NAME = "KIND"`` (every row gives it) or ``NAME = { type =
    "KIND", default = VALUE }`` (a row may omit it), KIND one of str, int, float, bool."""
    raw = data.get("columns", {})
    if not isinstance(raw, Mapping):
        raise DataError(source, f"table {name!r}: 'columns' must be a table of column kinds")
    out: dict[str, Column] = {}
    for col, spec in raw.items():
        kind = spec.get("type") if isinstance(spec, Mapping) else spec
        if kind not in KINDS or col in _ROW_FIELDS:
            raise DataError(
                source,
                f"table {name!r}: column {col!r} must be declared as one of"
                f" {', '.join(KINDS)} (or {{ type = KIND, default = VALUE }})",
            )
        c = Column(kind)
        if isinstance(spec, Mapping):
            c = Column(kind, "default" not in spec, spec.get("default"))
            if not c.required and not c.fits(c.default):
                raise DataError(source, f"table {name!r}: column {col!r}'s default is not {kind}")
        out[str(col)] = c
    return out


def table_from_data(name: str, data: Mapping[str, Any], source: str = "<data>") -> Table:
    """Build a table from a data-file mapping (``rows`` = list of {range, key?, result, ...};
    a row's further keys are the table's declared ``columns``, each of its declared kind: an
    undeclared column, a missing required one or a value of another kind is refused)."""
    raw_rows = data.get("rows")
    if not isinstance(raw_rows, Sequence) or isinstance(raw_rows, str):
        raise DataError(source, f"table {name!r} needs a list of rows")
    columns = table_columns(name, data, source)
    defaults = {c: col.default for c, col in columns.items() if not col.required}
    rows: list[Row] = []
    for i, r in enumerate(raw_rows, start=1):
        if not isinstance(r, Mapping) or "range" not in r:
            raise DataError(source, f"table {name!r}: row needs a 'range'", i)
        try:
            lo, hi = parse_range(str(r["range"]))
        except ValueError as e:
            raise DataError(source, f"table {name!r}: {e}", i) from None
        key = str(r.get("key", r["range"]))
        extra = {k: v for k, v in r.items() if k not in _ROW_FIELDS}
        for k, v in extra.items():
            col = columns.get(k)
            if col is None:
                known = f" (columns: {', '.join(columns)})" if columns else " (it declares none)"
                raise DataError(source, f"table {name!r}: no column {k!r}{known}", i)
            if not col.fits(v):
                raise DataError(source, f"table {name!r}: column {k!r} must be {col.kind}", i)
        missing = [c for c, col in columns.items() if col.required and c not in extra]
        if missing:
            raise DataError(source, f"table {name!r}: row lacks {', '.join(missing)}", i)
        rows.append(Row(lo, hi, key, str(r.get("result", key)), str(r["range"]), extra, defaults))
    return Table(
        name=name,
        rows=tuple(rows),
        title=str(data.get("title", name)),
        rule=str(data.get("rule", "")),
        dice=str(data.get("dice", "")),
        clamp=bool(data.get("clamp", False)),
        source=source,
    )


def tables_from_data(data: Mapping[str, Any], source: str = "<data>") -> dict[str, Table]:
    """All tables under a data file's ``[tables.NAME]`` sections."""
    raw = data.get("tables", {})
    if not isinstance(raw, Mapping):
        raise DataError(source, "'tables' must be a table of tables")
    return {name: table_from_data(name, t, source) for name, t in raw.items()}
