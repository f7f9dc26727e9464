"""The table top for miniatures rules: positions, bodies (bases), facing, arcs, terrain.

Ruleset-neutral geometry shared by the miniatures rulesets (2 by 2 Napoleonics, Kuryakin's
Solo Napoleonic rules). Every computation that needs intersections, distances or containment
goes through shapely; this module only builds the shapes and names the questions. shapely (and
numpy under it) is imported by the functions that build shapes, not with this module: a command
that measures nothing does not load it (issue 16, start-up).

Conventions (fixed; a ruleset converts its own units at its edges):

* **Lengths are millimetres** (floats). A ruleset with base units (2 by 2's ``[1]`` = 3/4 inch)
  or yards (Kuryakin, 1 mm = 1 yard) multiplies at the edge; :data:`INCH` helps.
* **The table** runs ``0 <= x <= width`` (left to right as seen from the "south" edge) and
  ``0 <= y <= depth`` ("south" to "north").
* **Facing and bearings are compass degrees**: 0 faces +y ("north", up the table), 90 faces +x
  ("east"), clockwise positive, normalised to ``[0, 360)``. A *relative bearing* is in
  ``(-180, 180]``: negative to the body's left, positive to its right.
* **A body** (a base, a unit's footprint) is a rectangle given by its centre, its facing and its
  :class:`Footprint` (``width`` along the front edge, ``depth`` front to rear).

The questions a rule asks of the table top are functions here: edge-to-edge
:func:`distance`, :func:`in_contact` (base to base, within a tolerance), :func:`touching_side`
(which side of a body another touches), :func:`arc_of` / :func:`side_facing` (front, flank or
rear), :func:`in_arc` (fire arcs of a given half-angle), :func:`path_crossings` (which terrain a
move path crosses and how far it runs inside each), :func:`features_at` / :func:`body_features`
("in cover"), :func:`within` (bodies within a radius) and :func:`sweep` (the ground a straight
move passes over).
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal

from vedette.geometry import flat

__all__ = [
    "INCH",
    "Body",
    "Crossing",
    "Feature",
    "Footprint",
    "Side",
    "TableTop",
    "Vec",
    "arc_of",
    "arc_polygon",
    "bearing",
    "body_features",
    "centre_distance",
    "contact_distance",
    "distance",
    "feature_distance",
    "features_at",
    "features_between",
    "in_arc",
    "in_contact",
    "maybe_within",
    "nearest_edge",
    "normalise",
    "overlaps",
    "path_crossings",
    "path_length",
    "relative_bearing",
    "rotate",
    "segment_meets_body",
    "side_facing",
    "sweep",
    "touching_side",
    "union",
    "within",
]

INCH = 25.4
"""One inch in millimetres."""

_EPS = 1e-9

Shape = Any
"""A shapely geometry (shapely ships no type information)."""


def normalise(degrees: float) -> float:
    """An angle in ``[0, 360)``."""
    d = math.fmod(degrees, 360.0)
    if d < 0:
        d += 360.0
    # fmod of e.g. -1e-17 gives 360.0 after the shift
    return 0.0 if d >= 360.0 else d


def _relative(degrees: float) -> float:
    """An angle in ``(-180, 180]``."""
    d = normalise(degrees)
    return d - 360.0 if d > 180.0 else d


@dataclass(frozen=True, slots=True)
class Vec:
    """A point (or displacement) on the table, in mm."""

    x: float
    y: float

    def __add__(self, other: Vec) -> Vec:
        return Vec(self.x + other.x, self.y + other.y)

    def __sub__(self, other: Vec) -> Vec:
        return Vec(self.x - other.x, self.y - other.y)

    def scale(self, k: float) -> Vec:
        return Vec(self.x * k, self.y * k)

    def length(self) -> float:
        return math.hypot(self.x, self.y)

    def distance(self, other: Vec) -> float:
        # (self - other).length(), on floats: the same difference, the same hypot
        return math.hypot(self.x - other.x, self.y - other.y)

    @staticmethod
    def heading(degrees: float, length: float = 1.0) -> Vec:
        """The displacement of ``length`` mm toward compass bearing ``degrees``."""
        r = math.radians(degrees)
        return Vec(math.sin(r) * length, math.cos(r) * length)

    def as_tuple(self) -> tuple[float, float]:
        return (self.x, self.y)

    def point(self) -> Shape:
        """This point as a shapely ``Point``."""
        from shapely.geometry import Point

        return Point(self.x, self.y)


def bearing(origin: Vec, target: Vec) -> float:
    """Compass bearing (degrees, ``[0, 360)``) from ``origin`` to ``target``; 0 if they coincide."""
    dx, dy = target.x - origin.x, target.y - origin.y  # target - origin, on floats
    if math.hypot(dx, dy) < _EPS:
        return 0.0
    return normalise(math.degrees(math.atan2(dx, dy)))


@dataclass(frozen=True, slots=True)
class Footprint:
    """A rectangular footprint: ``width`` along the front edge, ``depth`` front to rear (mm)."""

    width: float
    depth: float
    #: half the diagonal (worked out once: every body's radius, asked many times a step)
    radius: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not (self.width > 0 and self.depth > 0):
            raise ValueError(f"footprint must have positive width and depth, not {self!r}")
        object.__setattr__(self, "radius", math.hypot(self.width, self.depth) / 2)


class Side(Enum):
    """A side of a body (or the arc beyond it)."""

    FRONT = "front"
    RIGHT = "right"
    REAR = "rear"
    LEFT = "left"

    @property
    def is_flank(self) -> bool:
        return self in (Side.LEFT, Side.RIGHT)


@dataclass(frozen=True, slots=True)
class Body:
    """A rectangle on the table: a base or a unit's footprint, with a centre and a facing."""

    centre: Vec
    facing: float
    footprint: Footprint

    @classmethod
    def at(cls, x: float, y: float, facing: float, width: float, depth: float) -> Body:
        return cls(Vec(x, y), normalise(facing), Footprint(width, depth))

    # -- frame -------------------------------------------------------------------------------
    def forward(self) -> Vec:
        """Unit vector straight ahead."""
        return Vec.heading(self.facing)

    def right(self) -> Vec:
        """Unit vector to the body's right."""
        return Vec.heading(self.facing + 90.0)

    def to_world(self, ahead: float, rightward: float) -> Vec:
        """The table point ``ahead`` mm forward and ``rightward`` mm right of the centre."""
        return self.centre + self.forward().scale(ahead) + self.right().scale(rightward)

    def corners(self) -> tuple[Vec, Vec, Vec, Vec]:
        """Front-left, front-right, rear-right, rear-left (computed once per body value)."""
        return _corners(self)

    def polygon(self) -> Shape:
        """The body as a shapely ``Polygon`` (built once per body value: bodies are immutable
        values and so are shapely geometries, so the cache is safe)."""
        return _polygon(self)

    @property
    def radius(self) -> float:
        """Half the diagonal: no point of the body is farther than this from its centre."""
        return self.footprint.radius

    def edge(self, side: Side) -> Shape:
        """One side of the body as a shapely ``LineString`` (front edge runs left to right)."""
        from shapely.geometry import LineString

        fl, fr, rr, rl = self.corners()
        ends = {
            Side.FRONT: (fl, fr),
            Side.RIGHT: (fr, rr),
            Side.REAR: (rr, rl),
            Side.LEFT: (rl, fl),
        }[side]
        return LineString([ends[0].as_tuple(), ends[1].as_tuple()])

    def edge_midpoint(self, side: Side) -> Vec:
        hw, hd = self.footprint.width / 2, self.footprint.depth / 2
        ahead, rightward = {
            Side.FRONT: (hd, 0.0),
            Side.REAR: (-hd, 0.0),
            Side.LEFT: (0.0, -hw),
            Side.RIGHT: (0.0, hw),
        }[side]
        return self.to_world(ahead, rightward)

    # -- moves -------------------------------------------------------------------------------
    def moved_to(self, centre: Vec, facing: float | None = None) -> Body:
        return Body(centre, self.facing if facing is None else normalise(facing), self.footprint)

    def advanced(self, mm: float) -> Body:
        """The body moved ``mm`` straight ahead (negative: straight back)."""
        return self.moved_to(self.centre + self.forward().scale(mm))

    def turned(self, degrees: float) -> Body:
        """The body wheeled about its centre by ``degrees`` (clockwise positive)."""
        return self.moved_to(self.centre, self.facing + degrees)

    def facing_toward(self, point: Vec) -> Body:
        return self.moved_to(self.centre, bearing(self.centre, point))


@functools.lru_cache(maxsize=16384)
def _corners(body: Body) -> tuple[Vec, Vec, Vec, Vec]:
    """``to_world`` at the four corners, the forward and right vectors computed once (the
    same arithmetic, in the same order: the same floats)."""
    hw, hd = body.footprint.width / 2, body.footprint.depth / 2
    f, r = math.radians(body.facing), math.radians(body.facing + 90.0)
    fx, fy, rx, ry = math.sin(f), math.cos(f), math.sin(r), math.cos(r)
    cx, cy = body.centre.x, body.centre.y
    return (
        Vec(cx + fx * hd + rx * -hw, cy + fy * hd + ry * -hw),
        Vec(cx + fx * hd + rx * hw, cy + fy * hd + ry * hw),
        Vec(cx + fx * -hd + rx * hw, cy + fy * -hd + ry * hw),
        Vec(cx + fx * -hd + rx * -hw, cy + fy * -hd + ry * -hw),
    )


@functools.lru_cache(maxsize=16384)
def _polygon(body: Body) -> Shape:
    from shapely.geometry import Polygon

    return Polygon([c.as_tuple() for c in _corners(body)])


def maybe_within(a: Body | Vec, b: Body | Vec, mm: float) -> bool:
    """A cheap prefilter: ``False`` only when ``a`` and ``b`` are surely more than ``mm`` apart
    edge to edge (their centres are farther apart than ``mm`` plus both radii). Use it before
    :func:`distance` and the other shapely questions when scanning many bodies."""
    ca, cb = _centre(a), _centre(b)
    reach = mm + _radius(a) + _radius(b)
    dx, dy = ca.x - cb.x, ca.y - cb.y
    return dx * dx + dy * dy <= reach * reach + 1e-9


def _radius(thing: Body | Vec) -> float:
    return thing.radius if isinstance(thing, Body) else 0.0


def distance(a: Body | Vec, b: Body | Vec) -> float:
    """Shortest distance (mm) between two bodies or points, edge to edge; 0 if they touch.

    Plain arithmetic on the corners (bodies are convex): 0 where one outline holds a corner
    of the other or two sides cross, else the least corner-to-side distance; what shapely's
    ``distance`` gives, without importing shapely (start-up time). Two bodies: measured once
    per pair of positions (:func:`_body_distance`, the same arithmetic)."""
    if type(a) is Body and type(b) is Body:
        return _body_distance(a, b)
    if type(a) is Vec and type(b) is Body:
        return _point_distance(a, b)
    if type(a) is Body and type(b) is Vec:
        return _point_distance(b, a)
    return _distance(a, b)


def _flat_inside(px: float, py: float, q: tuple[float, ...]) -> bool:
    """:func:`_inside` of the point ``px, py`` and a body's flat corners ``q``: on the same
    side of every side it is not on (the same arithmetic on the same floats)."""
    sign = 0.0
    for i in (0, 2, 4, 6):
        x0, y0 = q[i], q[i + 1]
        j = (i + 2) % 8
        c = (q[j] - x0) * (py - y0) - (q[j + 1] - y0) * (px - x0)
        if abs(c) <= 1e-9:
            continue
        if sign and (c > 0) != (sign > 0):
            return False  # outside
        sign = c
    return True


def _point_distance(p: Vec, b: Body) -> float:
    """:func:`_distance` of a point and a body, in the same arithmetic on the body's corners
    (the same floats): 0 where the body holds the point (:func:`_inside`), else the least of
    :func:`_to_segment` to its four sides."""
    q = _flat_corners(b)
    px, py = p.x, p.y
    if _flat_inside(px, py, q):
        return 0.0
    best = math.inf
    for i in (0, 2, 4, 6):
        a0, a1 = q[i], q[i + 1]
        j = (i + 2) % 8
        dx, dy = q[j] - a0, q[j + 1] - a1
        den = dx * dx + dy * dy
        t = 0.0 if den == 0 else max(0.0, min(1.0, ((px - a0) * dx + (py - a1) * dy) / den))
        best = min(best, math.hypot(px - a0 - t * dx, py - a1 - t * dy))
    return best


def _distance(a: Body | Vec, b: Body | Vec) -> float:
    pa, pb = _outline(a), _outline(b)
    if _inside(pa[0], pb) or _inside(pb[0], pa):
        return 0.0
    best = math.inf
    for p, q in ((pa, pb), (pb, pa)):
        n = len(q)
        for i in range(n if n > 1 else 0):
            s0, s1 = q[i], q[(i + 1) % n]
            for v in p:
                best = min(best, _to_segment(v, s0, s1))
    if best == math.inf:  # two points
        return math.hypot(pa[0][0] - pb[0][0], pa[0][1] - pb[0][1])
    if (
        len(pa) > 1
        and len(pb) > 1
        and any(
            _cross_segments(pa[i], pa[(i + 1) % len(pa)], pb[j], pb[(j + 1) % len(pb)])
            for i in range(len(pa))
            for j in range(len(pb))
        )
    ):
        return 0.0
    return best


_first = operator.itemgetter(0)


@functools.lru_cache(maxsize=65536)
def _body_distance(a: Body, b: Body) -> float:
    """:func:`_distance` of two bodies, remembered per pair of values (bodies are immutable).
    Two bodies whose bounding boxes lie apart (by more than a micron) neither hold a corner of
    each other nor have crossing sides: the least corner-to-side distance is the answer, each
    computed as :func:`_to_segment` computes it (the same floats, inlined)."""
    pa, pb = _flat_corners(a), _flat_corners(b)
    xa, ya, xb, yb = pa[0::2], pa[1::2], pb[0::2], pb[1::2]
    if (
        min(xa) - max(xb) <= 1e-6
        and min(xb) - max(xa) <= 1e-6
        and min(ya) - max(yb) <= 1e-6
        and min(yb) - max(ya) <= 1e-6
    ) and _meet(pa, pb):
        return 0.0  # one holds a corner of the other, or two sides cross (as _distance asks)
    hypot = math.hypot
    # each corner with a lower bound of its distance to the other body (to the other's
    # centre, less the other's radius: a micron to spare), nearest first: a corner whose bound
    # passes the least distance found cannot beat it, nor can any after it (the least of the
    # same values: the same float)
    corners = []
    for p, q, c, r in ((pa, pb, b.centre, b.radius), (pb, pa, a.centre, a.radius)):
        sides = []
        for i in (0, 2, 4, 6):
            a0, a1 = q[i], q[i + 1]
            j = (i + 2) % 8
            dx, dy = q[j] - a0, q[j + 1] - a1
            sides.append((a0, a1, dx, dy, dx * dx + dy * dy))
        cx, cy = c.x, c.y
        for k in (0, 2, 4, 6):
            p0, p1 = p[k], p[k + 1]
            corners.append((hypot(p0 - cx, p1 - cy) - r, k, p0, p1, sides))
    corners.sort(key=_first)
    best = math.inf
    for low, _, p0, p1, sides in corners:
        if low > best + 1e-6:
            break
        for a0, a1, dx, dy, den in sides:
            ux, uy = p0 - a0, p1 - a1
            t = 0.0  # clamped to [0, 1] as max(0.0, min(1.0, ...)) clamps it
            if den != 0:
                t = (ux * dx + uy * dy) / den
                t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
            ex, ey = ux - t * dx, uy - t * dy
            # hypot is at least either leg: a leg of best or more cannot beat it
            if -best < ex < best and -best < ey < best:
                d = hypot(ex, ey)
                if d < best:
                    best = d
    return best


def _meet(pa: tuple[float, ...], pb: tuple[float, ...]) -> bool:
    """Whether two bodies' outlines (flat corners) meet as :func:`_distance` asks it: one
    holds the other's first corner (:func:`_inside`) or a side of one crosses a side of the
    other (:func:`_cross_segments`), the same arithmetic on the same floats, in line."""
    if _flat_inside(pa[0], pa[1], pb) or _flat_inside(pb[0], pb[1], pa):
        return True  # _inside(pa[0], pb), then _inside(pb[0], pa)
    for i in (0, 2, 4, 6):
        ax, ay = pa[i], pa[i + 1]
        k = (i + 2) % 8
        bx, by = pa[k], pa[k + 1]
        for j in (0, 2, 4, 6):
            cx, cy = pb[j], pb[j + 1]
            m = (j + 2) % 8
            dx, dy = pb[m], pb[m + 1]
            d1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx)
            d2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx)
            if (d1 > 0) == (d2 > 0):
                continue
            d3 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
            d4 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax)
            if (d3 > 0) != (d4 > 0) and 0 not in (d1, d2, d3, d4):
                return True
    return False


@functools.lru_cache(maxsize=16384)
def _box(body: Body) -> tuple[float, float, float, float]:
    """The body's bounding box along the table's axes: (min x, min y, max x, max y)."""
    q = _flat_corners(body)
    xs, ys = q[0::2], q[1::2]
    return min(xs), min(ys), max(xs), max(ys)


def box_gap(a: Body, b: Body) -> float:
    """The distance between the two bodies' bounding boxes (along the table's axes): at most
    their :func:`distance` edge to edge (each body lies in its box), and cheap."""
    ax0, ay0, ax1, ay1 = _box(a)
    bx0, by0, bx1, by1 = _box(b)
    gx = max(ax0 - bx1, bx0 - ax1, 0.0)
    gy = max(ay0 - by1, by0 - ay1, 0.0)
    return math.hypot(gx, gy)


@functools.lru_cache(maxsize=16384)
def _flat_corners(body: Body) -> tuple[float, ...]:
    """The corners of :func:`_corners` as x0, y0, x1, y1, ... (front-left first)."""
    return tuple(v for c in _corners(body) for v in (c.x, c.y))


def _outline(thing: Body | Vec) -> list[tuple[float, float]]:
    return (
        [c.as_tuple() for c in _corners(thing)] if isinstance(thing, Body) else [(thing.x, thing.y)]
    )


def _inside(pt: tuple[float, float], poly: list[tuple[float, float]]) -> bool:
    """Whether ``pt`` lies in the convex polygon ``poly`` (its edge included)."""
    if len(poly) < 3:
        return False
    sign = 0.0
    for i in range(len(poly)):
        (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % len(poly)]
        c = (x1 - x0) * (pt[1] - y0) - (y1 - y0) * (pt[0] - x0)
        if abs(c) <= 1e-9:
            continue
        if sign and (c > 0) != (sign > 0):
            return False
        sign = c
    return True


def _to_segment(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    den = dx * dx + dy * dy
    t = 0.0 if den == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / den))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def _cross_segments(
    a: tuple[float, float], b: tuple[float, float], c: tuple[float, float], d: tuple[float, float]
) -> bool:
    """Whether segments ab and cd cross at a point inside both (touching ends: the corner to
    side distance is then 0 already)."""

    def orient(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float]) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    d1, d2 = orient(c, d, a), orient(c, d, b)
    d3, d4 = orient(a, b, c), orient(a, b, d)
    return ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and 0 not in (d1, d2, d3, d4)


def segment_meets_body(a: Vec, b: Vec, body: Body, margin: float = 1e-6) -> bool | None:
    """Whether the segment ``ab`` meets ``body`` (its outline or inside: shapely's
    ``intersects`` of the line and ``body.polygon()``), in plain arithmetic where the answer is
    clear by more than ``margin`` mm, else None (the caller asks shapely). Separating axes:
    the two are apart when, across some edge of the outline (or across the segment), their
    shadows on that edge's normal lie more than ``margin`` apart; they meet when on every
    such normal the shadows overlap by more than ``margin`` (two convex shapes that no line
    separates meet). An overlap or a gap within ``margin`` on some normal, or ``a`` equal to
    ``b``: not clear."""
    pts = _flat_corners(body)
    ax, ay, bx, by = a.x, a.y, b.x, b.y
    axes = [(pts[(i + 3) % 8] - pts[i + 1], pts[i] - pts[(i + 2) % 8]) for i in (0, 2, 4, 6)]
    if ax == bx and ay == by:
        return None  # not a line: shapely's answer for it, whatever that is
    axes.append((ay - by, bx - ax))
    clear_overlap = True
    for nx, ny in axes:
        n = math.hypot(nx, ny)
        if n == 0:
            return None
        nx, ny = nx / n, ny / n
        shadow = [pts[i] * nx + pts[i + 1] * ny for i in (0, 2, 4, 6)]
        lo, hi = min(shadow), max(shadow)
        pa, pb = ax * nx + ay * ny, bx * nx + by * ny
        slo, shi = (pa, pb) if pa <= pb else (pb, pa)
        overlap = min(hi, shi) - max(lo, slo)  # negative: the gap between the shadows
        if overlap < -margin:
            return False
        if overlap <= margin:
            clear_overlap = False
    return True if clear_overlap else None


def centre_distance(a: Body | Vec, b: Body | Vec) -> float:
    """Distance between the centres (mm)."""
    return _centre(a).distance(_centre(b))


def overlaps(a: Body, b: Body, tolerance: float = 0.01) -> bool:
    """Whether two bodies interpenetrate by more than ``tolerance`` mm² of area.

    The common area is clipped by plain arithmetic (start-up time: no shapely); only an area
    within a hair of ``tolerance`` is asked of shapely, so the answer is always shapely's."""
    if not maybe_within(a, b, 0.0):
        return False
    pa, pb = _outline(a), _outline(b)
    # boxes apart by more than a hair: nothing shared (the clip's own answer, 0.0, found dear)
    if (
        min(x for x, _ in pa) > max(x for x, _ in pb) + 1e-9
        or min(x for x, _ in pb) > max(x for x, _ in pa) + 1e-9
        or min(y for _, y in pa) > max(y for _, y in pb) + 1e-9
        or min(y for _, y in pb) > max(y for _, y in pa) + 1e-9
    ):
        return tolerance < 0
    area = _common_area(pa, pb)
    if abs(area - tolerance) > 1e-6 * max(1.0, tolerance, area):
        return area > tolerance
    return float(a.polygon().intersection(b.polygon()).area) > tolerance


def _ccw(poly: list[tuple[float, float]]) -> list[tuple[float, float]]:
    twice = sum(
        x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1], strict=True)
    )
    return poly if twice >= 0 else poly[::-1]


def _common_area(pa: list[tuple[float, float]], pb: list[tuple[float, float]]) -> float:
    """The area two convex polygons share (Sutherland-Hodgman: ``pa`` clipped by each side of
    ``pb`` in turn). Each point's side of a clipping line is worked out once (the same
    arithmetic as ``(d - c) x (p - c)`` written out: the same floats), not once as each end
    of the two sides that meet at it."""
    out = _ccw(pa)
    clip = _ccw(pb)
    for (cx, cy), (dx, dy) in zip(clip, clip[1:] + clip[:1], strict=True):
        if not out:
            return 0.0
        src, out = out, []
        ex, ey = dx - cx, dy - cy
        sides = [ex * (y - cy) - ey * (x - cx) for x, y in src]
        last = len(src) - 1
        for i, p in enumerate(src):
            sp, j = sides[i], (i + 1 if i < last else 0)
            sq = sides[j]
            if sp >= 0:
                out.append(p)
            if (sp >= 0) != (sq >= 0):
                q = src[j]
                t = sp / (sp - sq)
                out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    if len(out) < 3:
        return 0.0
    twice = sum(
        x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(out, out[1:] + out[:1], strict=True)
    )
    return abs(twice) / 2


def in_contact(a: Body, b: Body, tolerance: float = 1.0) -> bool:
    """Base-to-base contact: the bodies are within ``tolerance`` mm of each other."""
    return maybe_within(a, b, tolerance) and distance(a, b) <= tolerance


def touching_side(body: Body, other: Body | Vec, tolerance: float = 1.0) -> Side | None:
    """Which side of ``body`` the ``other`` touches (within ``tolerance`` mm), or ``None``.

    When ``other`` touches along more than one side (corner contact), the side with the longest
    length of ``body``'s edge within tolerance of ``other`` wins; ties go in the order front,
    right, rear, left.
    """
    if not maybe_within(body, other, tolerance):
        return None
    zone = _shape(other).buffer(tolerance)
    best: tuple[float, Side] | None = None
    for side in Side:
        edge = body.edge(side)
        if float(edge.distance(_shape(other))) > tolerance:
            continue
        run = float(edge.intersection(zone).length)
        if best is None or run > best[0] + _EPS:
            best = (run, side)
    return None if best is None else best[1]


def relative_bearing(body: Body, target: Body | Vec) -> float:
    """Bearing of ``target`` (its centre) from ``body``'s centre, relative to its facing.

    In ``(-180, 180]``: 0 dead ahead, negative to the left, positive to the right.
    """
    return _relative(bearing(body.centre, _centre(target)) - body.facing)


def arc_of(
    body: Body,
    target: Body | Vec,
    front_half_angle: float = 45.0,
    rear_half_angle: float = 45.0,
) -> Side:
    """The arc of ``body`` that ``target`` (its centre) lies in, by angle from ``body``'s centre.

    Front if within ``front_half_angle`` of straight ahead, rear if within ``rear_half_angle``
    of straight behind, otherwise the left or right flank. A target exactly on a boundary belongs
    to the front (or rear) arc.
    """
    if not (0 <= front_half_angle <= 180 and 0 <= rear_half_angle <= 180):
        raise ValueError("arc half-angles must be between 0 and 180 degrees")
    if front_half_angle + rear_half_angle > 180 + _EPS:
        raise ValueError("front and rear arcs overlap")
    rel = relative_bearing(body, target)
    if abs(rel) <= front_half_angle + _EPS:
        return Side.FRONT
    if abs(rel) >= 180.0 - rear_half_angle - _EPS:
        return Side.REAR
    return Side.RIGHT if rel > 0 else Side.LEFT


def side_facing(body: Body, target: Body | Vec) -> Side:
    """Which side of ``body`` faces ``target``'s centre, by the extended diagonals of the body.

    The lines through the centre and the corners split the table into four zones, one beyond
    each side: the usual miniatures test for "is the attacker on the front, flank or rear".
    """
    fp = body.footprint
    front_half = math.degrees(math.atan2(fp.width / 2, fp.depth / 2))
    return arc_of(body, target, front_half, front_half)


#: the corners of an arc (None: a whole circle)
_Arc = list[tuple[float, float]] | None


def arc_polygon(
    body: Body,
    half_angle: float,
    reach: float,
    origin: Literal["front", "centre"] = "front",
    direction: float = 0.0,
) -> Shape:
    """The ground covered by an arc of ``half_angle`` degrees either side of the facing.

    ``origin="front"``: the arc is the front edge projected forward ``reach`` mm, its sides
    splayed outward by ``half_angle`` from each front corner (the usual fire arc; ``half_angle``
    0 is a straight-ahead corridor). ``origin="centre"``: a wedge from the centre. ``direction``
    turns the arc relative to the facing (e.g. 180 for a rear arc). ``half_angle`` must be below
    90 for ``"front"``.
    """
    from shapely.geometry import Point, Polygon

    pts = _arc_points(body, half_angle, reach, origin, direction)
    if pts is None:
        return Point(body.centre.as_tuple()).buffer(reach, quad_segs=32)
    return Polygon(pts)


def _arc_points(body: Body, half_angle: float, reach: float, origin: str, turn: float) -> _Arc:
    """The corners of :func:`arc_polygon` (``None``: a whole circle, which shapely draws)."""
    if reach <= 0:
        raise ValueError("arc reach must be positive")
    axis = normalise(body.facing + turn)
    if origin == "centre":
        if not 0 < half_angle <= 180:
            raise ValueError("centre arc half-angle must be in (0, 180]")
        if half_angle >= 180:
            return None
        steps = max(2, int(half_angle // 5) + 2)
        pts = [body.centre.as_tuple()]
        for i in range(steps + 1):
            ang = axis - half_angle + 2 * half_angle * i / steps
            pts.append((body.centre + Vec.heading(ang, reach)).as_tuple())
        return pts
    if not 0 <= half_angle < 90:
        raise ValueError("front arc half-angle must be in [0, 90)")
    turned = body.turned(turn)
    fl, fr, _, _ = turned.corners()
    slant = reach / math.cos(math.radians(half_angle))
    far_left = fl + Vec.heading(axis - half_angle, slant)
    far_right = fr + Vec.heading(axis + half_angle, slant)
    return [fl.as_tuple(), far_left.as_tuple(), far_right.as_tuple(), fr.as_tuple()]


def in_arc(
    body: Body,
    target: Body | Vec,
    half_angle: float,
    reach: float | None = None,
    origin: Literal["front", "centre"] = "front",
    mode: Literal["any", "centre", "all"] = "any",
    direction: float = 0.0,
) -> bool:
    """Whether ``target`` is in ``body``'s arc (see :func:`arc_polygon`).

    ``mode``: ``"any"`` part of the target, its ``"centre"``, or ``"all"`` of it. ``reach``
    (mm) limits the range, measured along the arc's axis from its origin; ``None`` means the
    whole table (a large reach).
    """
    far = (
        reach
        if reach is not None
        else (10_000.0 + centre_distance(body, target) + _size(target) + _size(body))
    )
    if mode == "any":  # in arithmetic when no edge comes within a hair of the other
        pts = _arc_points(body, half_angle, far, origin, direction)
        try:
            if pts is not None and isinstance(target, Body):
                return flat.intersects(flat.Flat("ring", tuple(pts)), _flat_body(target))
        except flat.Unsure:
            pass
    zone = arc_polygon(body, half_angle, far, origin, direction)
    shape = _shape(target)
    if mode == "centre":
        return bool(zone.buffer(_EPS).covers(_centre(target).point()))
    if mode == "all":
        return bool(zone.buffer(_EPS).covers(shape))
    return bool(zone.intersects(shape))


@dataclass(frozen=True, slots=True)
class Feature:
    """A terrain feature: a ``kind`` (the ruleset's word: "road", "woods", "stream" ...), a
    ``name`` and a shapely shape (polygon for areas, line string for roads, streams, hedges).

    The shape is built from ``recipe`` when first read (start-up time: opening a game sets up
    its terrain, and most CLI steps never ask a question of it, so shapely is not imported)."""

    kind: str
    name: str
    #: how the shape is made: ("area", points), ("line", points, width), ("circle", centre, r)
    recipe: tuple[Any, ...] = field(compare=False, repr=False)
    _built: list[Shape] = field(default_factory=list, init=False, compare=False, repr=False)
    _flat: list[flat.Flat | None] = field(
        default_factory=list, init=False, compare=False, repr=False
    )

    @property
    def flat(self) -> flat.Flat | None:
        """The shape in plain points (:mod:`vedette.geometry.flat`), the same vertices as
        :attr:`shape`; ``None`` for a shape only shapely builds (a bent band, a self-crossing
        area)."""
        if not self._flat:
            self._flat.append(flat.of_recipe(self.recipe))
        return self._flat[0]

    @property
    def shape(self) -> Shape:
        if not self._built:
            self._build()
        return self._built[0]

    def _build(self) -> None:
        """The shape, and what every question asks of it first: whether it is an area, and
        its bounding box (asked of shapely once per feature, not once per question)."""
        shape = _build_shape(self.recipe)
        self._built[:] = [shape, float(shape.area) > 0, tuple(map(float, shape.bounds))]

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """The bounding box (min x, min y, max x, max y) of the shape."""
        if not self._built:
            self._build()
        return self._built[2]  # type: ignore[no-any-return]

    @classmethod
    def area(cls, kind: str, name: str, points: Sequence[tuple[float, float]]) -> Feature:
        if len(points) < 3:
            raise ValueError(f"an area needs at least 3 points ({len(points)} given)")
        return cls(kind, name, ("area", tuple(map(tuple, points))))

    @classmethod
    def line(
        cls, kind: str, name: str, points: Sequence[tuple[float, float]], width: float = 0.0
    ) -> Feature:
        """A linear feature; with ``width`` > 0 it is the band of that width along the line."""
        if len(points) < 2:
            raise ValueError(f"a line needs at least 2 points ({len(points)} given)")
        return cls(kind, name, ("line", tuple(map(tuple, points)), float(width)))

    @classmethod
    def circle(cls, kind: str, name: str, centre: tuple[float, float], radius: float) -> Feature:
        return cls(kind, name, ("circle", tuple(centre), float(radius)))

    @property
    def is_area(self) -> bool:
        if not self._built:
            self._build()
        return self._built[1]  # type: ignore[no-any-return]

    @property
    def box(self) -> tuple[float, float, float, float]:
        """A box (min x, min y, max x, max y) holding the whole shape, from the recipe alone
        (no shapely: start-up time). The exact :attr:`bounds` of an area or a bare line; a
        band or a circle's box may be a little larger (the line's points grown by half the
        width; the circle's, not its polygon's). A box to rule a question out, never in."""
        return _recipe_box(self.recipe)


#: each recipe's box, by the recipe's identity (recipes are immutable tuples; the entry keeps
#: the recipe alive so its id is not reused): a table's features are asked for it every move
_BOXES: dict[int, tuple[tuple[Any, ...], tuple[float, float, float, float]]] = {}


def _recipe_box(recipe: tuple[Any, ...]) -> tuple[float, float, float, float]:
    hit = _BOXES.get(id(recipe))
    if hit is not None and hit[0] is recipe:
        return hit[1]
    box = _box_of(recipe)
    if len(_BOXES) > 4096:
        _BOXES.clear()
    _BOXES[id(recipe)] = (recipe, box)
    return box


def _box_of(recipe: tuple[Any, ...]) -> tuple[float, float, float, float]:
    if recipe[0] == "circle":
        (x, y), r = recipe[1], recipe[2]
        return (x - r, y - r, x + r, y + r)
    grow = recipe[2] / 2 if recipe[0] == "line" else 0.0
    xs = [p[0] for p in recipe[1]]
    ys = [p[1] for p in recipe[1]]
    return (min(xs) - grow, min(ys) - grow, max(xs) + grow, max(ys) + grow)


def _build_shape(recipe: tuple[Any, ...]) -> Shape:
    """A :class:`Feature`'s shapely shape from its recipe."""
    from shapely.geometry import LineString, Point, Polygon

    if recipe[0] == "area":
        return Polygon(recipe[1])
    if recipe[0] == "line":
        shape = LineString(recipe[1])
        return shape.buffer(recipe[2] / 2, cap_style="flat") if recipe[2] > 0 else shape
    return Point(recipe[1]).buffer(recipe[2], quad_segs=16)


@dataclass(frozen=True, slots=True)
class TableTop:
    """The table: ``width`` × ``depth`` mm and its terrain features."""

    width: float
    depth: float
    features: tuple[Feature, ...] = ()

    def outline(self) -> Shape:
        from shapely.geometry import box

        return box(0.0, 0.0, self.width, self.depth)

    def on_table(self, thing: Body | Vec) -> bool:
        return bool(self.outline().buffer(_EPS).covers(_shape(thing)))

    def edge_distance(
        self, thing: Body | Vec, edge: Literal["south", "north", "west", "east"]
    ) -> float:
        """Distance (mm) from the nearest part of ``thing`` to one table edge (0 if over it)."""
        from shapely.geometry import LineString

        line = {
            "south": LineString([(0, 0), (self.width, 0)]),
            "north": LineString([(0, self.depth), (self.width, self.depth)]),
            "west": LineString([(0, 0), (0, self.depth)]),
            "east": LineString([(self.width, 0), (self.width, self.depth)]),
        }[edge]
        if not self.on_table(thing):
            outside = _shape(thing).difference(self.outline().buffer(_EPS))
            if not outside.is_empty:
                return 0.0
        return float(line.distance(_shape(thing)))


def nearest_edge(table: TableTop, thing: Body | Vec) -> tuple[str, float]:
    """The table edge nearest ``thing`` and its distance (mm); ties: south, north, west, east."""
    edges: tuple[Literal["south", "north", "west", "east"], ...] = (
        "south",
        "north",
        "west",
        "east",
    )
    best = min(edges, key=lambda e: table.edge_distance(thing, e))
    return best, table.edge_distance(thing, best)


@dataclass(frozen=True, slots=True)
class Crossing:
    """How a path meets one feature: ``inside`` mm of the path within it, ``crossings`` times
    the path crosses it (a line feature) or its boundary (an area), and whether the path starts
    or ends inside it."""

    feature: Feature
    inside: float
    crossings: int
    starts_inside: bool
    ends_inside: bool

    @property
    def kind(self) -> str:
        return self.feature.kind


def path_length(path: Sequence[Vec]) -> float:
    """Length (mm) of a polyline."""
    return sum(a.distance(b) for a, b in itertools.pairwise(path))


def path_crossings(
    path: Sequence[Vec], features: Iterable[Feature], tolerance: float = 1e-6
) -> list[Crossing]:
    """Every feature a move path (polyline of centre positions) meets, in the order first met.

    Areas report the length of path inside them; lines report how many times the path crosses
    them (touching without crossing counts, as meeting the feature). A path of one point meets
    the features containing it.
    """
    if not path:
        raise ValueError("a path needs at least one point")
    features = list(features)
    if not features:  # nothing to meet: no geometry to build (nor shapely imported)
        return []
    pts = [p.as_tuple() for p in path]
    found: list[tuple[float, Crossing]] = []
    line: list[Shape] = []  # shapely's line, built for the first feature arithmetic leaves
    for feature in features:
        shape = feature.flat
        try:
            if shape is None:
                raise flat.Unsure
            met = flat.meet(shape, pts, tolerance)
        except flat.Unsure:  # a shape only shapely builds, or a touch within a hair: shapely
            if not line:
                line.append(_line(path))
            hit = _shapely_crossing(feature, path, line[0], tolerance)
            if hit is not None:
                found.append(hit)
            continue
        if met is not None:
            crossing = Crossing(
                feature, met.inside, met.crossings, met.starts_inside, met.ends_inside
            )
            found.append((met.first, crossing))
    found.sort(key=lambda fc: fc[0])
    return [c for _, c in found]


def _line(path: Sequence[Vec]) -> Shape:
    from shapely.geometry import LineString  # start-up time: only where arithmetic is unsure

    return LineString([p.as_tuple() for p in path]) if len(path) > 1 else path[0].point()


def _shapely_crossing(
    feature: Feature, path: Sequence[Vec], line: Shape, tolerance: float
) -> tuple[float, Crossing] | None:
    """How ``path`` (``line``: its shapely shape) meets ``feature``, asked of shapely, with how
    far along the path it first meets it; ``None`` when it does not."""
    shape = feature.shape
    if float(shape.distance(line)) > tolerance:
        return None
    hit = shape.intersection(line)
    inside = float(hit.length) if feature.is_area else 0.0
    if feature.is_area:
        crossings = _count_points(shape.boundary.intersection(line))
    else:
        crossings = max(1, _count_points(hit)) if len(path) > 1 else 1
    first = _first_along(line, hit) if len(path) > 1 else 0.0
    start, end = path[0].point(), path[-1].point()
    return (
        first,
        Crossing(
            feature,
            inside,
            crossings,
            bool(_buffered(shape, tolerance).covers(start)),
            bool(_buffered(shape, tolerance).covers(end)),
        ),
    )


#: a feature's shape grown by a tolerance, by the shape's identity (shapely geometries are
#: immutable; the entry keeps the shape alive so its id is not reused): a table's features are
#: the same objects for a whole game, and every move path asks the same question of them
_BUFFERED: dict[tuple[int, float], tuple[Shape, Shape]] = {}


def _buffered(shape: Shape, tolerance: float) -> Shape:
    key = (id(shape), tolerance)
    hit = _BUFFERED.get(key)
    if hit is not None and hit[0] is shape:
        return hit[1]
    grown = shape.buffer(tolerance)
    if len(_BUFFERED) > 4096:
        _BUFFERED.clear()
    _BUFFERED[key] = (shape, grown)
    return grown


def _first_along(line: Shape, hit: Shape) -> float:
    """How far along ``line`` (mm) the geometry ``hit`` first meets it."""
    import shapely
    from shapely.geometry import Point

    coords = shapely.get_coordinates(hit)
    if len(coords) == 0:
        return float(line.length)
    return min(float(line.project(Point(float(x), float(y)))) for x, y in coords)


def _count_points(geom: Shape) -> int:
    if geom.is_empty:
        return 0
    if geom.geom_type == "Point":
        return 1
    if geom.geom_type == "MultiPoint":
        return len(geom.geoms)
    if geom.geom_type in ("LineString", "LinearRing"):
        return 1
    return sum(_count_points(g) for g in getattr(geom, "geoms", ()))


def features_at(point: Vec, features: Iterable[Feature], tolerance: float = 1e-6) -> list[Feature]:
    """The features containing (or, for lines, touching) ``point``."""
    p = point.point()
    return [f for f in features if float(f.shape.distance(p)) <= tolerance]


def body_features(
    body: Body,
    features: Iterable[Feature],
    mode: Literal["any", "centre", "all", "half"] = "half",
) -> list[Feature]:
    """Area features a body is in: ``"any"`` part overlapping, its ``"centre"`` inside, ``"all"``
    of it inside, or at least ``"half"`` its area inside. Line features count when the body
    touches them (``"any"``, ``"half"``) or its centre is on them (``"centre"``)."""
    out: list[Feature] = []
    p, q, r, s = body.corners()
    e = 1e-6  # touching counts (a line feature, a covered centre)
    x0 = min(p.x, q.x, r.x, s.x) - e
    x1 = max(p.x, q.x, r.x, s.x) + e
    y0 = min(p.y, q.y, r.y, s.y) - e
    y1 = max(p.y, q.y, r.y, s.y) + e
    for f in features:
        a, b, c, d = f.box  # from the recipe: no shapely when no box meets the body's
        if a > x1 or c < x0 or b > y1 or d < y0:
            continue  # the boxes do not meet: the body is in no part of it (every mode)
        if mode == "any":  # (an area only: a line's answer is None)
            known = _any_in_arithmetic(f, body)
            if known is not None:
                if known:
                    out.append(f)
                continue
        poly = body.polygon()  # built only for a feature whose box meets the body's
        if not f.is_area:
            hit = (
                float(f.shape.distance(body.centre.point())) <= 1e-6
                if mode == "centre"
                else bool(f.shape.intersects(poly)) and mode != "all"
            )
        elif mode == "any":
            hit = float(f.shape.intersection(poly).area) > _EPS
        elif mode == "centre":
            hit = bool(f.shape.covers(body.centre.point()))
        elif mode == "all":
            hit = bool(_buffered(f.shape, 1e-6).covers(poly))
        else:
            hit = float(f.shape.intersection(poly).area) >= float(poly.area) / 2 - 1e-6
        if hit:
            out.append(f)
    return out


def features_between(
    a: Body | Vec, b: Body | Vec, features: Iterable[Feature], tolerance: float = 1e-6
) -> list[Crossing]:
    """The features met by the straight line from ``a``'s centre to ``b``'s centre (line of
    sight, line of fire), in order from ``a``."""
    return path_crossings([_centre(a), _centre(b)], features, tolerance)


def within(
    origin: Body | Vec,
    others: Mapping[str, Body | Vec],
    radius: float,
    measure: Literal["edge", "centre"] = "edge",
) -> list[tuple[str, float]]:
    """``(key, distance)`` of every body within ``radius`` mm of ``origin``, nearest first.

    ``measure="edge"`` is edge to edge (:func:`distance`), ``"centre"`` centre to centre. Ties
    sort by key.
    """
    measured: list[tuple[str, float]] = []
    for key, other in others.items():
        d = distance(origin, other) if measure == "edge" else centre_distance(origin, other)
        if d <= radius + _EPS:
            measured.append((key, d))
    return sorted(measured, key=lambda kd: (kd[1], kd[0]))


def sweep(start: Body, end: Body) -> Shape:
    """The ground a body passes over moving in a straight line from ``start`` to ``end``
    (convex hull of both placements; exact when the facing does not change)."""
    from shapely.geometry import MultiPoint

    return MultiPoint([c.as_tuple() for c in (*start.corners(), *end.corners())]).convex_hull


def _ray_hits(
    points: Sequence[Vec], d: Vec, polygon: Sequence[Vec], best: float | None
) -> float | None:
    # cross products of the edge and the ray, on floats (the same operations: the same answers)
    n = len(polygon)
    dx, dy = d.x, d.y
    for p in points:
        px, py = p.x, p.y
        for i in range(n):
            a, b = polygon[i], polygon[(i + 1) % n]
            ex, ey = b.x - a.x, b.y - a.y
            denom = dx * ey - dy * ex
            if abs(denom) < 1e-12:
                continue
            apx, apy = a.x - px, a.y - py
            t = (apx * ey - apy * ex) / denom
            s = (apx * dy - apy * dx) / denom
            if t >= -1e-9 and -1e-9 <= s <= 1 + 1e-9 and (best is None or t < best):
                best = max(t, 0.0)
    return best


def contact_distance(body: Body, heading: float, other: Body) -> float | None:
    """How far (mm) ``body`` can slide straight along ``heading`` (compass degrees) before it
    touches ``other``: 0 if they touch or overlap already, ``None`` if it would pass by.

    Exact for rectangles (both are convex): the least distance along the direction at which a
    corner of one meets a side of the other. Pure arithmetic, no shapely.
    """
    if distance(body, other) <= _EPS:
        return 0.0
    d = Vec.heading(heading)
    mine, theirs = body.corners(), other.corners()
    best = _ray_hits(mine, d, theirs, None)
    best = _ray_hits(theirs, Vec(-d.x, -d.y), mine, best)
    return best


def union(shapes: Iterable[Shape]) -> Shape:
    """Union of shapely shapes (e.g. several features of one kind)."""
    from shapely.ops import unary_union

    return unary_union(list(shapes))


def rotate(shape: Shape, degrees: float, about: Vec) -> Shape:
    """A shape turned ``degrees`` clockwise about a point."""
    from shapely import affinity

    return affinity.rotate(shape, -degrees, origin=about.as_tuple())


# -- helpers ---------------------------------------------------------------------------------
def _flat_body(body: Body) -> flat.Flat:
    """The body as a plain ring, the corners of :meth:`Body.polygon`."""
    return flat.Flat("ring", tuple(c.as_tuple() for c in _corners(body)))


def _any_in_arithmetic(feature: Feature, body: Body) -> bool | None:
    """Whether part of ``body`` lies in the area ``feature`` (``body_features``' ``"any"``: an
    overlap of positive area), in arithmetic where the answer is clear: the two apart by more
    than a hair (no); the body's centre or one of its corners inside the area, farther than
    ``_DEEP`` from its sides (yes: a piece of the body around that point, of area far above
    ``_EPS``, is inside). ``None`` otherwise (shapely answers)."""
    shape = feature.flat
    if shape is None or shape.kind != "ring" or not abs(flat.area(shape)) > 1e-6:
        return None  # not a plain area (a bare line, a shape only shapely builds)
    try:
        if flat.shapes_apart(shape, _flat_body(body), 1e-6):
            return False
    except flat.Unsure:
        return None
    if min(body.footprint.width, body.footprint.depth) / 2 <= _DEEP:
        return None
    for p in (body.centre.as_tuple(), *(c.as_tuple() for c in _corners(body))):
        edge = min((flat.point_segment(p, a, b) for a, b in shape.edges), default=0.0)
        if edge > _DEEP and flat.in_ring(p, shape):
            return True
    return None


#: how far inside an area a point of a body must be for ``_any_in_arithmetic`` to say the body
#: is partly in it (a quarter disc of this radius at a corner: about 8e-7 mm2, above ``_EPS``)
_DEEP = 1e-3


def feature_distance(feature: Feature, body: Body) -> float:
    """Distance (mm) from a feature to a body (0 where they meet), shapely's ``distance``;
    in arithmetic unless they come within a hair of touching."""
    shape = feature.flat
    if shape is not None:
        try:
            return flat.shapes_distance(shape, _flat_body(body))
        except flat.Unsure:
            pass
    return float(feature.shape.distance(body.polygon()))


def _shape(thing: Body | Vec) -> Shape:
    return thing.polygon() if isinstance(thing, Body) else thing.point()


def _centre(thing: Body | Vec) -> Vec:
    return thing.centre if isinstance(thing, Body) else thing


def _size(thing: Body | Vec) -> float:
    if isinstance(thing, Body):
        return math.hypot(thing.footprint.width, thing.footprint.depth)
    return 0.0
