"""Hex maps declared in data: printed hex ids, terrain per hex and per hexside, movement costs,
zones of control and a bounded movement-point search.

A map is declared in a data file (TOML)::

    [map]
    letter = "W"            # printed map letter (may be "")
    id_digits = 2           # digits of the column and of the row: W1920 = column 19, row 20
    orientation = "flat"    # flat or pointy top
    shifted = "even"        # which columns (flat) or rows (pointy) are shifted by half a hex
    columns = [17, 28]      # inclusive
    rows = [16, 26]
    default_terrain = "clear"
    [map.areas]             # terrain -> hexes
    forest = ["W2219", "W2220"]
    [map.names]
    W1920 = "Vilnius"
    [[map.roads]]           # a road along consecutive hexes of a path
    path = ["W1920", "W2020", "W2121"]
    [[map.hexsides]]        # features on the hexsides between pairs of adjacent hexes
    feature = "river"
    pairs = [["W2221", "W2321"]]

Movement costs are exact: every cost is read as a :class:`~fractions.Fraction` and kept
internally as integer *ticks* (``cost * denominator``), so ties are exact and the search runs
on integers. Terrain and hexside kinds (their costs, whether they block movement or zones of
control) come from the ruleset's data (see :class:`TerrainKind`, :class:`HexsideKind`).
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import math
import re
from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, TypeVar

from vedette.errors import DataError
from vedette.geometry.hexgrid import DIRECTIONS, Hex, OffsetConvention
from vedette.numerals import ascii_fraction

IMPASSABLE = "impassable"
#: the largest movement cost data may give (a whole number in the data is bounded by the
#: input limits, 2**64; a cost written as text is held to the same)
MAX_COST = 2**64
V = TypeVar("V")
#: Integer key of an axial hex: q * _STRIDE + r (maps up to a million hexes across).
_SHIFT = 21
_STRIDE = 1 << _SHIFT
#: half a stride: ``(key + _HALF) >> _SHIFT`` is a key's axial column q (|r| < _HALF)
_HALF = _STRIDE >> 1


_NO_FEATURES: frozenset[str] = frozenset()


def _axial_pairs(conv: OffsetConvention, cells: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """``(q, r)`` of each cell, as ``conv.to_hex`` gives them, without making the objects."""
    flat, even = conv.orientation == "flat", conv.shifted == "even"
    out: list[tuple[int, int]] = []
    for c, r in cells:
        if flat:
            par = c & 1
            out.append((c, r - (c + par) // 2 if even else r - (c - par) // 2))
        else:
            par = r & 1
            out.append((c - (r + par) // 2 if even else c - (r - par) // 2, r))
    return out


class _Axial(Sequence[Hex]):
    """A map's hexes in axial coordinates, each made when first read."""

    __slots__ = ("_hexes", "_pairs")

    def __init__(self, pairs: list[tuple[int, int]]) -> None:
        self._pairs = pairs
        self._hexes: list[Hex | None] = [None] * len(pairs)

    def __len__(self) -> int:
        return len(self._pairs)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        h = self._hexes[i]
        if h is None:
            h = self._hexes[i] = Hex(*self._pairs[i])
        return h


class _Rows:
    """A map's per-hex step table (out, in or ZOC), each row made when first read."""

    __slots__ = ("_map", "_part", "_rows")

    def __init__(self, hexmap: HexMap, part: int) -> None:
        self._map = hexmap
        self._part = part
        self._rows: list[Any] = [None] * len(hexmap.ids)

    def __getitem__(self, i: int) -> Any:
        row = self._rows[i]
        if row is None:
            rows = self._map._row(i)
            m = self._map
            for part, table in enumerate((m.out_edges, m.in_edges, m._zoc)):
                if table._rows[i] is None:
                    table._rows[i] = rows[part]
            row = rows[self._part]
        return row

    def __len__(self) -> int:
        return len(self._rows)


def _cost(value: Any, source: str, what: str) -> Fraction | None:
    """A movement cost from data: a number, a fraction text ("1/2"), or "impassable"."""
    if isinstance(value, str) and value.strip().lower() == IMPASSABLE:
        return None
    try:
        c = ascii_fraction(str(value))  # (not "１/2" nor "1_0", which Fraction reads)
    except (ValueError, ZeroDivisionError):
        raise DataError(source, f"{what}: cost {value!r} is not a number or 'impassable'") from None
    if c < 0:
        raise DataError(source, f"{what}: cost {value!r} is negative")
    if c > MAX_COST:  # ("1e400" as text: a number no check of the data's numbers bounded)
        raise DataError(source, f"{what}: cost {value!r} is out of range (at most {MAX_COST})")
    return c


@dataclass(frozen=True, slots=True)
class TerrainKind:
    """A terrain type: cost to enter (None = impassable) and a map symbol."""

    name: str
    cost: Fraction | None
    symbol: str = "."


@dataclass(frozen=True, slots=True)
class HexsideKind:
    """A hexside feature. ``extra``: MP added to cross it (None = cannot be crossed);
    ``road``: moving along it costs ``road_cost`` instead of the terrain; ``negates``: features
    it cancels (a bridge cancels the river); ``blocks_zoc``: no zone of control across it."""

    name: str
    extra: Fraction | None = Fraction(0)
    road: bool = False
    road_cost: Fraction = Fraction(1)
    negates: tuple[str, ...] = ()
    blocks_zoc: bool = False


def terrain_kinds(data: Mapping[str, Any], source: str = "<terrain>") -> dict[str, TerrainKind]:
    out: dict[str, TerrainKind] = {}
    for name, d in data.items():
        if not isinstance(d, Mapping) or "cost" not in d:
            raise DataError(source, f"terrain {name!r} needs a 'cost'")
        out[name] = TerrainKind(
            name, _cost(d["cost"], source, f"terrain {name!r}"), str(d.get("symbol", "."))
        )
    return out


def hexside_kinds(data: Mapping[str, Any], source: str = "<hexsides>") -> dict[str, HexsideKind]:
    out: dict[str, HexsideKind] = {}
    for name, d in data.items():
        if not isinstance(d, Mapping):
            raise DataError(source, f"hexside {name!r} must be a table")
        extra = _cost(d.get("extra", 0), source, f"hexside {name!r}")
        road_cost = _cost(d.get("road_cost", 1), source, f"hexside {name!r}")
        if road_cost is None:
            raise DataError(source, f"hexside {name!r}: road_cost cannot be impassable")
        out[name] = HexsideKind(
            name,
            extra,
            bool(d.get("road", False)),
            road_cost,
            tuple(str(x) for x in d.get("negates", ())),
            bool(d.get("blocks_zoc", False)),
        )
    return out


@dataclass(frozen=True, slots=True)
class HexIds:
    """How printed ids are written: ``{letter}{column:0Nd}{row:0Nd}``."""

    letter: str = ""
    digits: int = 2

    def format(self, col: int, row: int) -> str:
        return f"{self.letter}{col:0{self.digits}d}{row:0{self.digits}d}"

    def parse(self, text: str) -> tuple[int, int]:
        t = text.strip().upper()
        m = re.fullmatch(rf"{re.escape(self.letter.upper())}(\d{{{2 * self.digits}}})", t)
        if not m:
            raise ValueError(
                f"hex id {text!r} does not read as {self.letter}"
                f"{'C' * self.digits}{'R' * self.digits} (column, row)"
            )
        d = m[1]
        return int(d[: self.digits]), int(d[self.digits :])


class HexMap:
    """A declared map: hexes by printed id, terrain, hexside features, costs and searches.

    Hexes are numbered 0..n-1 internally; ``index(id)`` and ``ids[i]`` convert. Immutable once
    built (only read after ``__init__``).
    """

    __slots__ = (
        "_by_axial",
        "_by_key",
        "_disk_runs",
        "_disks",
        "_id_by_key",
        "_index",
        "_key_of",
        "_keys",
        "_memo",
        "_near",
        "_steps",
        "_zoc",
        "axial",
        "convention",
        "denominator",
        "hexside_features",
        "hexside_kinds",
        "id_format",
        "ids",
        "in_edges",
        "name",
        "names",
        "out_edges",
        "terrain",
        "terrain_kinds",
    )

    def __init__(
        self,
        name: str,
        convention: OffsetConvention,
        id_format: HexIds,
        cells: Sequence[tuple[int, int]],
        terrain: Sequence[str],
        terrain_kinds: Mapping[str, TerrainKind],
        hexside_kinds: Mapping[str, HexsideKind],
        hexside_features: Mapping[tuple[int, int], frozenset[str]],
        names: Mapping[str, str] | None = None,
        source: str = "<map>",
    ) -> None:
        self.name = name
        self.convention = convention
        self.id_format = id_format
        self.ids: tuple[str, ...] = tuple(id_format.format(c, r) for c, r in cells)
        self._index: dict[str, int] = {h: i for i, h in enumerate(self.ids)}
        pairs = _axial_pairs(convention, cells)
        self.axial: Sequence[Hex] = _Axial(pairs)
        self._by_axial: dict[tuple[int, int], int] = {qr: i for i, qr in enumerate(pairs)}
        self.terrain: tuple[str, ...] = tuple(terrain)
        # integer keys (q, r) -> q * STRIDE + r, so a disk of hexes is a list of int offsets
        self._keys: tuple[int, ...] = tuple(q * _STRIDE + r for q, r in pairs)
        self._by_key: dict[int, int] = {k: i for i, k in enumerate(self._keys)}
        self._id_by_key: dict[int, str] = {k: self.ids[i] for i, k in enumerate(self._keys)}
        self._key_of: dict[str, int] = dict(zip(self.ids, self._keys, strict=True))
        self._disks: dict[int, tuple[int, ...]] = {}
        self._disk_runs: dict[int, tuple[tuple[int, int, int], ...]] = {}
        self._near: dict[str, tuple[str, ...]] = {}  # adjacent(): each hex's, when first asked
        self.terrain_kinds = dict(terrain_kinds)
        self.hexside_kinds = dict(hexside_kinds)
        self.hexside_features = dict(hexside_features)
        self.names = dict(names or {})
        for t in set(self.terrain):
            if t not in self.terrain_kinds:
                raise DataError(
                    source, f"unknown terrain {t!r} (known: {', '.join(terrain_kinds)})"
                )
        for feats in self.hexside_features.values():
            for f in feats:
                if f not in self.hexside_kinds:
                    raise DataError(
                        source, f"unknown hexside feature {f!r} (known: {', '.join(hexside_kinds)})"
                    )
        # exact costs in integer ticks
        fracs: list[Fraction] = [k.cost for k in self.terrain_kinds.values() if k.cost is not None]
        fracs += [k.extra for k in self.hexside_kinds.values() if k.extra is not None]
        fracs += [k.road_cost for k in self.hexside_kinds.values()]
        den = 1
        for fr in fracs:
            den = den * fr.denominator // math.gcd(den, fr.denominator)
        self.denominator = den
        # the steps out of, into and the ZOC of each hex, worked out when first asked for (a
        # search visits few hexes of a big map: opening a game on it builds none of them)
        self._steps = tuple(d.q * _STRIDE + d.r for d in DIRECTIONS)
        self._memo: dict[tuple[str, frozenset[str]], tuple[bool, int | None]] = {}
        self.out_edges = _Rows(self, 0)
        self.in_edges = _Rows(self, 1)
        self._zoc = _Rows(self, 2)

    def _row(self, i: int) -> tuple[Any, Any, Any]:
        """(steps out of hex ``i``, steps into it, its ZOC): each step ``(j, ticks)``; a step
        depends only on the hexside's features and the terrain entered, each such pair worked
        out once. Steps into ``i`` are in the order of the hexes they come from."""
        key = self._keys[i]
        by_key = self._by_key
        side_feats = self.hexside_features.get
        terrain = self.terrain
        memo = self._memo
        out: list[tuple[int, int]] = []
        into: list[tuple[int, int]] = []
        zoc: list[int] = []
        for d in self._steps:
            j = by_key.get(key + d)
            if j is None:
                continue
            feats = side_feats((i, j) if i < j else (j, i), _NO_FEATURES)
            there = memo.get((terrain[j], feats))
            if there is None:
                there = memo[(terrain[j], feats)] = self._step(j, feats)
            here = memo.get((terrain[i], feats))
            if here is None:
                here = memo[(terrain[i], feats)] = self._step(i, feats)
            if there[0]:
                zoc.append(j)
            if there[1] is not None:
                out.append((j, there[1]))
            if here[1] is not None:
                into.append((j, here[1]))
        into.sort()
        return tuple(out), tuple(into), tuple(zoc)

    def _step(self, j: int, feats: frozenset[str]) -> tuple[bool, int | None]:
        return (
            not any(k.blocks_zoc for k in self._active(feats)),
            self._step_ticks(j, feats),
        )

    # -- construction from data ---------------------------------------------------------------
    @classmethod
    def from_data(
        cls,
        data: Mapping[str, Any],
        terrain: Mapping[str, TerrainKind],
        hexsides: Mapping[str, HexsideKind],
        source: str = "<map>",
    ) -> HexMap:
        """Build a map from its data-file table (see the module docstring)."""
        try:
            orientation = str(data.get("orientation", "flat"))
            shifted = str(data.get("shifted", "even"))
            if orientation not in ("flat", "pointy") or shifted not in ("even", "odd"):
                raise DataError(source, "orientation must be flat|pointy and shifted even|odd")
            conv = OffsetConvention(
                "flat" if orientation == "flat" else "pointy",
                "even" if shifted == "even" else "odd",
            )
            fmt = HexIds(str(data.get("letter", "")), int(data.get("id_digits", 2)))
            c0, c1 = (int(x) for x in data["columns"])
            r0, r1 = (int(x) for x in data["rows"])
        except (KeyError, TypeError, ValueError) as e:
            raise DataError(
                source, f"map needs columns=[first,last] and rows=[first,last]: {e}"
            ) from None
        cells = [(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)]
        index = {fmt.format(c, r): i for i, (c, r) in enumerate(cells)}

        def idx(h: Any, what: str) -> int:
            key = str(h).strip().upper()
            if key not in index:
                raise DataError(source, f"{what}: hex {h!r} is not on the map")
            return index[key]

        default = str(data.get("default_terrain", "clear"))
        ter = [default] * len(cells)
        for tname, hexes in dict(data.get("areas", {})).items():
            for h in hexes:
                ter[idx(h, f"areas.{tname}")] = str(tname)
        for h, tname in dict(data.get("terrain", {})).items():
            ter[idx(h, "terrain")] = str(tname)
        feats: dict[tuple[int, int], set[str]] = {}

        def side(a: int, b: int, what: str) -> tuple[int, int]:
            if conv.to_hex(*cells[a]).distance(conv.to_hex(*cells[b])) != 1:
                raise DataError(
                    source,
                    f"{what}: {fmt.format(*cells[a])} and {fmt.format(*cells[b])} are not adjacent",
                )
            return (a, b) if a < b else (b, a)

        for k, road in enumerate(data.get("roads", ()), start=1):
            path = [idx(h, f"roads[{k}]") for h in road.get("path", ())]
            kind = str(road.get("feature", "road"))
            for a, b in itertools.pairwise(path):
                feats.setdefault(side(a, b, f"roads[{k}]"), set()).add(kind)
        for k, hs in enumerate(data.get("hexsides", ()), start=1):
            kind = str(hs.get("feature", ""))
            for pair in hs.get("pairs", ()):
                if len(pair) != 2:
                    raise DataError(source, f"hexsides[{k}]: a pair needs two hexes")
                a, b = idx(pair[0], f"hexsides[{k}]"), idx(pair[1], f"hexsides[{k}]")
                feats.setdefault(side(a, b, f"hexsides[{k}]"), set()).add(kind)
        names = {str(h).upper(): str(n) for h, n in dict(data.get("names", {})).items()}
        for h in names:
            idx(h, "names")
        return cls(
            str(data.get("name", "map")),
            conv,
            fmt,
            cells,
            ter,
            terrain,
            hexsides,
            {k: frozenset(v) for k, v in feats.items()},
            names,
            source,
        )

    def _key(self) -> tuple[Any, ...]:
        return (
            self.name,
            self.convention,
            self.id_format,
            self.ids,
            self.terrain,
            self.terrain_kinds,
            self.hexside_kinds,
            self.hexside_features,
            self.names,
        )

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, HexMap):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.name, self.ids))

    def __repr__(self) -> str:
        return f"HexMap({self.name!r}, {len(self.ids)} hexes)"

    # -- ids ----------------------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.ids)

    def __contains__(self, hex_id: object) -> bool:
        return isinstance(hex_id, str) and hex_id.strip().upper() in self._index

    def index(self, hex_id: str) -> int:
        """Internal index of a printed id; ValueError if the hex is not on this map."""
        i = self._index.get(hex_id)  # (an id as printed: the usual case, nothing to normalize)
        if i is not None:
            return i
        try:
            return self._index[hex_id.strip().upper()]
        except KeyError:
            raise ValueError(f"hex {hex_id!r} is not on map {self.name!r}") from None

    def id_at(self, h: Hex) -> str | None:
        i = self._by_axial.get((h.q, h.r))
        return None if i is None else self.ids[i]

    def hex(self, hex_id: str) -> Hex:
        return self.axial[self.index(hex_id)]

    def label(self, hex_id: str) -> str:
        """``W1920 (Vilnius)`` or just the id."""
        n = self.names.get(hex_id)
        return f"{hex_id} ({n})" if n else hex_id

    # -- geometry -----------------------------------------------------------------------------
    def distance(self, a: str, b: str) -> int:
        return self.axial[self.index(a)].distance(self.axial[self.index(b)])

    def dist_i(self, a: int, b: int) -> int:
        return self.axial[a].distance(self.axial[b])

    def neighbors(self, hex_id: str) -> list[str]:
        """The on-map hexes adjacent to ``hex_id`` (whatever lies on the hexsides), in the
        order of ``DIRECTIONS``."""
        return list(self.near(hex_id))

    def near(self, hex_id: str) -> tuple[str, ...]:
        """:meth:`neighbors` as a tuple, worked out once per hex (read by integer keys: no Hex
        made); the folds ask it of every fixed force on every event."""
        near = self._near.get(hex_id)
        if near is None:
            key = self._keys[self.index(hex_id)]
            ids = self._id_by_key
            near = self._near[hex_id] = tuple(
                ids[k] for k in [key + s for s in self._steps] if k in ids
            )
        return near

    def adjacent(self, a: str, b: str) -> bool:
        return self.distance(a, b) == 1

    def zoc(self, hex_id: str) -> list[str]:
        """Hexes into which a force in ``hex_id`` exerts a zone of control: the adjacent hexes,
        except across a hexside whose feature blocks zones of control."""
        return [self.ids[j] for j in self._zoc[self.index(hex_id)]]

    def zoc_i(self, i: int) -> tuple[int, ...]:
        row: tuple[int, ...] = self._zoc[i]
        return row

    def disk(self, radius: int) -> tuple[int, ...]:
        """Key offsets of every hex within ``radius`` (cached per radius)."""
        d = self._disks.get(radius)
        if d is None:
            d = tuple(
                dq * _STRIDE + dr
                for dq in range(-radius, radius + 1)
                for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1)
            )
            self._disks[radius] = d
        return d

    def within_i(self, i: int, radius: int) -> list[int]:
        """On-map hexes within ``radius`` hexes of hex ``i`` (in hexes, terrain ignored)."""
        k = self._keys[i]
        get = self._by_key.get
        return [j for j in (get(k + off) for off in self.disk(radius)) if j is not None]

    def contents_within(self, hex_id: str, radius: int, contents: Mapping[str, V]) -> list[V]:
        """The values of ``contents`` (hex id -> anything, e.g. the pieces in a hex) for every
        hex within ``radius`` hexes of ``hex_id``: one dictionary probe per hex."""
        k = self._keys[self.index(hex_id)]
        id_get = self._id_by_key.get
        get = contents.get
        out: list[V] = []
        for off in self.disk(radius):
            h = id_get(k + off)
            if h is not None:
                v = get(h)
                if v is not None:
                    out.append(v)
        return out

    # -- an index of some hexes by axial column (e.g. the occupied ones) ----------------------
    # A hex's key is ``q * _STRIDE + r``: the hexes of one axial column (one q) have consecutive
    # keys in the order of r, and the hexes within a radius of a hex are, in each of the
    # 2 * radius + 1 columns the disk crosses, one run of consecutive keys. So an index that
    # keeps each column's hexes as sorted keys answers "which of them are within the radius"
    # with two bisections per column, whatever the radius and however few the hexes.

    def key(self, hex_id: str) -> int:
        """A hex's integer key, ``q * _STRIDE + r`` of its axial coordinates."""
        k = self._key_of.get(hex_id)  # (an id as printed: the usual case)
        return self._keys[self.index(hex_id)] if k is None else k

    def columns(self, hexes: Iterable[str]) -> dict[int, tuple[int, ...]]:
        """An index of ``hexes`` for :meth:`indexed_within`: axial column -> the sorted keys
        of its hexes (columns with none left out)."""
        cols: dict[int, list[int]] = {}
        for h in hexes:
            k = self.key(h)
            cols.setdefault((k + _HALF) >> _SHIFT, []).append(k)
        return {q: tuple(sorted(ks)) for q, ks in cols.items()}

    def columns_changed(
        self,
        columns: Mapping[int, tuple[int, ...]],
        added: Iterable[str] = (),
        removed: Iterable[str] = (),
    ) -> dict[int, tuple[int, ...]]:
        """The index ``columns`` with the hexes ``added`` put in and ``removed`` taken out
        (a new mapping: ``columns`` is left as it was)."""
        out = dict(columns)
        key, left = self.key, bisect.bisect_left
        for h in removed:
            k = key(h)
            q = (k + _HALF) >> _SHIFT
            col = out.get(q, ())
            i = left(col, k)
            if i < len(col) and col[i] == k:
                if len(col) > 1:
                    out[q] = col[:i] + col[i + 1 :]
                else:
                    del out[q]
        for h in added:
            k = key(h)
            q = (k + _HALF) >> _SHIFT
            col = out.get(q, ())
            i = left(col, k)
            if i == len(col) or col[i] != k:
                out[q] = (*col[:i], k, *col[i:])
        return out

    def indexed_within(
        self, hex_id: str, radius: int, columns: Mapping[int, Sequence[int]]
    ) -> list[str]:
        """The hexes of the index ``columns`` (:meth:`columns`) within ``radius`` hexes of
        ``hex_id`` (terrain ignored): per column the disk crosses, the run of keys inside it,
        found by bisection. It costs the 2 * radius + 1 columns and the hexes found, not the
        disk's hexes (:meth:`contents_within` probes each of them)."""
        k = self.key(hex_id)
        q = (k + _HALF) >> _SHIFT
        ids = self._id_by_key.__getitem__
        get = columns.get
        left, right = bisect.bisect_left, bisect.bisect_right
        out: list[str] = []
        for dq, lo, hi in self._runs(radius):
            col = get(q + dq)
            if col:
                a = left(col, k + lo)
                b = right(col, k + hi, a)
                if a < b:
                    out += map(ids, col[a:b])
        return out

    def _runs(self, radius: int) -> tuple[tuple[int, int, int], ...]:
        """The disk of ``radius`` as runs of keys, one per column it crosses: ``(dq, first,
        last)``, the key offsets of its hexes ``dq`` columns away (r from max(-R, -dq - R)
        to min(R, R - dq)); cached per radius."""
        runs = self._disk_runs.get(radius)
        if runs is None:
            runs = self._disk_runs[radius] = tuple(
                (
                    dq,
                    dq * _STRIDE + max(-radius, -dq - radius),
                    dq * _STRIDE + min(radius, radius - dq),
                )
                for dq in range(-radius, radius + 1)
            )
        return runs

    # -- terrain and movement -----------------------------------------------------------------
    def passable(self, hex_id: str) -> bool:
        return self.terrain_kinds[self.terrain[self.index(hex_id)]].cost is not None

    def features(self, a: str, b: str) -> frozenset[str]:
        i, j = self.index(a), self.index(b)
        return self.hexside_features.get((i, j) if i < j else (j, i), frozenset())

    def _active(self, feats: frozenset[str]) -> list[HexsideKind]:
        """The features of a hexside that count (a bridge cancels the river it crosses)."""
        kinds = [self.hexside_kinds[f] for f in sorted(feats)]
        negated = {n for k in kinds for n in k.negates}
        return [k for k in kinds if k.name not in negated]

    def _step_ticks(self, j: int, feats: frozenset[str]) -> int | None:
        """Ticks to move into hex ``j`` across a hexside with ``feats`` (None: cannot)."""
        active = self._active(feats)
        roads = [k for k in active if k.road]
        if roads:
            base: Fraction | None = min(k.road_cost for k in roads)
        else:
            base = self.terrain_kinds[self.terrain[j]].cost
        if base is None:
            return None
        total = base
        for k in active:
            if k.road:
                continue
            if k.extra is None:
                return None
            total += k.extra
        return int(total * self.denominator)

    def step_cost(self, a: str, b: str) -> Fraction | None:
        """MP to move from ``a`` into the adjacent hex ``b`` (None: not possible)."""
        i, j = self.index(a), self.index(b)
        for k, c in self.out_edges[i]:
            if k == j:
                return Fraction(c, self.denominator)
        return None

    def mp(self, ticks: int) -> Fraction:
        return Fraction(ticks, self.denominator)

    def search(
        self,
        sources: Iterable[int],
        bound: int | None = None,
        targets: Iterable[int] | None = None,
        direction: Literal["from", "to"] = "from",
    ) -> Iterator[tuple[int, int]]:
        """Bounded Dijkstra: yields ``(ticks, hex)`` in non-decreasing cost order.

        ``direction="from"``: the cost to move from the nearest source to each hex;
        ``"to"``: the cost to move from each hex to the nearest source (the search walks the
        edges backwards, so entry costs are those of the hexes moved into). ``bound`` (ticks)
        stops the search beyond it. With ``targets``, only target hexes are yielded and the
        search stops once all were reached. The consumer may stop at any time (a generator):
        "closest first" costs only what it explores.
        """
        edges = self.out_edges if direction == "from" else self.in_edges
        shift = len(self.ids).bit_length()  # entries ``cost << shift | hex`` (see nearest)
        low = (1 << shift) - 1
        dist: dict[int, int] = {}
        heap: list[int] = []
        for s in sources:
            if s not in dist:
                dist[s] = 0
                heap.append(s)
        heapq.heapify(heap)
        want = None if targets is None else set(targets)
        done: set[int] = set()
        pop, push = heapq.heappop, heapq.heappush
        lim = bound if bound is not None else 1 << 62
        while heap:
            x = pop(heap)
            d = x >> shift
            u = x & low
            if u in done:
                continue
            done.add(u)
            if want is None:
                yield d, u
            elif u in want:
                yield d, u
                want.discard(u)
                if not want:
                    return
            for v, c in edges[u]:
                nd = d + c
                if nd <= lim and (v not in dist or nd < dist[v]):
                    dist[v] = nd
                    push(heap, nd << shift | v)

    def nearest(
        self,
        sources: Iterable[int],
        targets: Container[int],
        bound: int | None = None,
        direction: Literal["from", "to"] = "from",
    ) -> tuple[int | None, list[int]]:
        """The closest tier of ``targets``: ``(ticks, hexes at exactly that cost)``, the hexes
        in index order, or ``(None, [])`` if none is within ``bound``. Once a target is found
        the bound drops to its cost, so nothing farther is pushed: the search costs only the
        ground it needs.

        Dijkstra with a bucket per cost (Dial's queue): costs are whole ticks, small and never
        negative, so the hexes are taken cost by cost from a dict of lists, without a heap's
        ordering work per push and pop (about a quarter of the search; issue 29)."""
        edges = self.out_edges if direction == "from" else self.in_edges
        over = (bound if bound is not None else 1 << 62) + 1  # the least cost beyond the bound
        dist: dict[int, int] = {}
        start: list[int] = []
        for s in sources:
            if s not in dist:
                dist[s] = 0
                start.append(s)
        buckets: dict[int, list[int]] = {0: start} if start else {}
        get, bucket_at = dist.get, buckets.get
        rows = edges._rows  # the rows made so far (a row not yet made: ``edges[u]`` makes it)
        found: list[int] = []
        d = 0
        while buckets:
            bucket = bucket_at(d)
            if bucket is None:  # (no hex at this cost)
                d += 1
                continue
            for u in bucket:  # (a hex reached at no extra cost joins this list as it runs)
                if get(u) != d:
                    continue  # stale entry: reached later at less
                if u in targets:
                    if not found:
                        over = d + 1  # nothing farther than the closest tier is pushed
                    found.append(u)
                row = rows[u]
                if row is None:
                    row = edges[u]
                for v, c in row:
                    nd = d + c
                    # within the bound and better than known
                    if nd < get(v, over):
                        dist[v] = nd
                        later = bucket_at(nd)
                        if later is None:
                            buckets[nd] = [v]
                        else:
                            later.append(v)
            if found:
                found.sort()
                return d, found
            del buckets[d]
            d += 1
        return None, []

    def costs(
        self,
        source: str,
        bound: Fraction | int | None = None,
        direction: Literal["from", "to"] = "from",
    ) -> dict[str, Fraction]:
        """Every hex reachable within ``bound`` MP (exact), by printed id."""
        b = None if bound is None else int(Fraction(bound) * self.denominator)
        return {
            self.ids[i]: Fraction(d, self.denominator)
            for d, i in self.search([self.index(source)], b, direction=direction)
        }

    def cheapest_tree(
        self,
        source: int,
        blocked: Iterable[int] = (),
        terminal: Iterable[int] = (),
        bound: int | None = None,
        target: int | None = None,
    ) -> tuple[dict[int, int], dict[int, int]]:
        """Ticks from ``source`` to every hex reached without entering a ``blocked`` hex and
        going on from no ``terminal`` hex (a hex a move must stop in), within ``bound``, and
        each hex's predecessor on its cheapest path (Dijkstra; ties go to the lower hex index,
        so the tree is a pure function of the map). ``target``: stop once it is settled."""
        stop = set(terminal)
        no = set(blocked)
        dist: dict[int, int] = {source: 0}
        prev: dict[int, int] = {}
        heap: list[tuple[int, int]] = [(0, source)]
        done: set[int] = set()
        lim = bound if bound is not None else 1 << 62
        while heap:
            d, u = heapq.heappop(heap)
            if u in done:
                continue
            done.add(u)
            if u == target or (u in stop and u != source):
                if u == target:
                    break
                continue
            for v, c in self.out_edges[u]:
                if v in no:
                    continue
                nd = d + c
                if nd <= lim and (v not in dist or nd < dist[v]):
                    dist[v] = nd
                    prev[v] = u
                    heapq.heappush(heap, (nd, v))
        return dist, prev

    def cheapest_path(
        self,
        source: int,
        target: int,
        blocked: Iterable[int] = (),
        terminal: Iterable[int] = (),
        bound: int | None = None,
    ) -> tuple[int, list[int]] | None:
        """The cheapest path (ticks, hexes from ``source`` to ``target``) that never enters a
        ``blocked`` hex and goes on from no ``terminal`` hex (a hex a move must stop in), or
        None (:meth:`cheapest_tree` stopped at ``target``)."""
        dist, prev = self.cheapest_tree(source, blocked, terminal, bound, target)
        if target not in dist:
            return None
        path = [target]
        while path[-1] != source:
            path.append(prev[path[-1]])
        return dist[target], path[::-1]

    def path_ticks(self, path: Sequence[int]) -> int | None:
        """The cost of moving along ``path`` hex by hex (None: a step is not possible)."""
        total = 0
        for a, b in itertools.pairwise(path):
            c = next((c for v, c in self.out_edges[a] if v == b), None)
            if c is None:
                return None
            total += c
        return total

    def movement_cost(self, a: str, b: str, bound: Fraction | int | None = None) -> Fraction | None:
        """Least MP to move from ``a`` to ``b`` (None: not reachable within ``bound``)."""
        bt = None if bound is None else int(Fraction(bound) * self.denominator)
        for d, _ in self.search([self.index(a)], bt, targets=[self.index(b)]):
            return Fraction(d, self.denominator)
        return None
