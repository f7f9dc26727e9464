"""Plane geometry in plain arithmetic: the questions a move's or a shot's offer asks of the
table (what a path crosses, whether a path keeps to a road, whether a body lies in a fire arc),
answered without shapely so that a CLI step does not import shapely and numpy (issue 26 item 8,
start-up time).

Every function answers only when the answer is robust: when a point lies within a hair
(:data:`HAIR`, plus the question's own tolerance) of a boundary, two segments touch or run
together, or a point of one shape lies on another, it raises :class:`Unsure` and the caller asks
shapely instead (:mod:`vedette.geometry.tabletop`). So the booleans and counts are shapely's,
and the lengths are shapely's to a few units in the last place (tests/geometry/test_flat.py
compares each function with shapely on random and degenerate inputs).

Shapes are :class:`Flat` values: a ``ring`` (a simple polygon, its points without the closing
one) or a ``line`` (a polyline). :func:`of_recipe` builds the shape of a
:class:`~vedette.geometry.tabletop.Feature` recipe with shapely's own vertices (a circle's
64 points and a two-point band's four corners, computed as GEOS computes them); a shape it
cannot build exactly (a band of more than two points, a self-crossing area) is ``None``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Pt = tuple[float, float]

#: how near (mm) a point may come to a boundary before the answer is left to shapely
HAIR = 1e-7


class Unsure(Exception):
    """The answer lies within a hair of a boundary (touching, collinear, a vertex on an edge):
    ask shapely."""


@dataclass(frozen=True, slots=True)
class Flat:
    """A shape of plain points: a simple polygon (``ring``) or a polyline (``line``)."""

    kind: Literal["ring", "line"]
    points: tuple[Pt, ...]
    #: the segments, the ring closed; zero-length ones left out (made once, with the shape:
    #: a move's offers ask them of the table's features again and again)
    edges: tuple[tuple[Pt, Pt], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        pts = self.points
        ends = pts[1:] + pts[:1] if self.kind == "ring" else pts[1:]
        pairs = zip(pts[: len(ends)], ends, strict=True)
        object.__setattr__(self, "edges", tuple((a, b) for a, b in pairs if a != b))


def of_recipe(recipe: tuple[Any, ...]) -> Flat | None:
    """The shape of a feature recipe (tabletop's ``("area", points)``, ``("line", points,
    width)``, ``("circle", centre, radius)``) with the vertices shapely builds, or ``None``."""
    if recipe[0] == "circle":
        (cx, cy), r = recipe[1], recipe[2]
        if r <= 0:
            return None
        n = 64  # GEOS: quad_segs=16, clockwise from east
        pts = tuple(
            (cx + r * math.cos(-i * 2 * math.pi / n), cy + r * math.sin(-i * 2 * math.pi / n))
            for i in range(n)
        )
        return Flat("ring", pts)
    points = tuple((float(x), float(y)) for x, y in recipe[1])
    if recipe[0] == "line" and recipe[2] > 0:
        if len(points) != 2 or _norm(*points) <= HAIR:
            return None  # a bent band: GEOS's round joins are left to shapely
        (x0, y0), (x1, y1) = points
        d = recipe[2] / 2
        dx, dy = x1 - x0, y1 - y0
        ln = math.sqrt(dx * dx + dy * dy)
        ux, uy = d * dx / ln, d * dy / ln  # GEOS's offset segment, the same arithmetic
        vx, vy = -d * dx / ln, -d * dy / ln
        return Flat(
            "ring", ((x0 - uy, y0 + ux), (x1 - uy, y1 + ux), (x1 - vy, y1 + vx), (x0 - vy, y0 + vx))
        )
    if recipe[0] == "line":
        return Flat("line", points) if len(set(points)) > 1 else None
    shape = Flat("ring", points)
    return shape if _simple(shape) else None


def _simple(ring: Flat) -> bool:
    """A ring of positive area whose sides meet only their neighbours, at their shared ends."""
    edges = ring.edges
    if len(edges) < 3 or abs(area(ring)) <= HAIR:
        return False
    n = len(edges)
    for i in range(n):
        for j in range(i + 1, n):
            a, b = edges[i]
            c, d = edges[j]
            if j == i + 1 or (i == 0 and j == n - 1):
                # neighbours: they must not fold back over each other
                if abs(orient(a, b, d if j == i + 1 else c)) <= HAIR * _norm(a, b) and (
                    (b[0] - a[0]) * (d[0] - c[0]) + (b[1] - a[1]) * (d[1] - c[1]) < 0
                ):
                    return False
                continue
            if segment_distance(a, b, c, d) <= HAIR:
                return False
    return True


def area(ring: Flat) -> float:
    """Signed area (counter-clockwise positive)."""
    pts = ring.points
    return (
        sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(pts, pts[1:] + pts[:1], strict=True))
        / 2
    )


# -- primitives ------------------------------------------------------------------------------
def orient(p: Pt, q: Pt, r: Pt) -> float:
    """Twice the signed area of p, q, r (positive: r left of p→q)."""
    return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])


def _norm(a: Pt, b: Pt) -> float:
    return math.hypot(b[0] - a[0], b[1] - a[1])


def point_segment(p: Pt, a: Pt, b: Pt) -> float:
    """Distance from ``p`` to the segment ``ab``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    den = dx * dx + dy * dy
    t = 0.0 if den == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / den))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def crossing(a: Pt, b: Pt, c: Pt, d: Pt, near: float = 0.0) -> float | None:
    """Where segment ``ab`` properly crosses ``cd``: the fraction along ``ab``; ``None`` when
    they lie more than ``near`` + :data:`HAIR` apart. :class:`Unsure` when they touch, run
    together or an end lies within that distance of the other segment."""
    margin = near + HAIR
    if _apart(a, b, c, d, margin):  # their boxes lie apart: so do they (arithmetic first)
        return None
    lab, lcd = _norm(a, b), _norm(c, d)
    if lab <= HAIR or lcd <= HAIR:  # a side or a step within a hair of a point
        if segment_distance(a, b, c, d) <= margin:
            raise Unsure
        return None
    d1, d2 = orient(c, d, a) / lcd, orient(c, d, b) / lcd
    d3, d4 = orient(a, b, c) / lab, orient(a, b, d) / lab
    if (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0):
        if min(abs(d1), abs(d2), abs(d3), abs(d4)) > margin:
            return d1 / (d1 - d2)
        raise Unsure
    if segment_distance(a, b, c, d) <= margin:
        raise Unsure
    return None


def _apart(a: Pt, b: Pt, c: Pt, d: Pt, gap: float) -> bool:
    """Whether the boxes of segments ``ab`` and ``cd`` lie more than ``gap`` apart along x or
    y (then so do the segments: no two of their points are nearer than the boxes' gap)."""
    ax, bx, cx, dx = a[0], b[0], c[0], d[0]
    if (ax if ax < bx else bx) - (cx if cx > dx else dx) > gap:
        return True
    if (cx if cx < dx else dx) - (ax if ax > bx else bx) > gap:
        return True
    ay, by, cy, dy = a[1], b[1], c[1], d[1]
    if (ay if ay < by else by) - (cy if cy > dy else dy) > gap:
        return True
    return (cy if cy < dy else dy) - (ay if ay > by else by) > gap


def segment_distance(a: Pt, b: Pt, c: Pt, d: Pt) -> float:
    """Distance between segments ``ab`` and ``cd`` (0 when they cross)."""
    d1, d2, d3, d4 = orient(c, d, a), orient(c, d, b), orient(a, b, c), orient(a, b, d)
    if (
        ((d1 > 0) != (d2 > 0) or d1 == 0 or d2 == 0)
        and ((d3 > 0) != (d4 > 0) or d3 == 0 or d4 == 0)
        and (d1 or d2 or d3 or d4)
    ):
        return 0.0
    return min(
        point_segment(a, c, d),
        point_segment(b, c, d),
        point_segment(c, a, b),
        point_segment(d, a, b),
    )


def in_ring(p: Pt, ring: Flat) -> bool:
    """Whether ``p`` lies inside the ring (even-odd; ``p`` must lie off its boundary)."""
    x, y = p
    inside = False
    pts = ring.points
    j = len(pts) - 1
    for i in range(len(pts)):
        (xi, yi), (xj, yj) = pts[i], pts[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def point_distance(p: Pt, shape: Flat) -> float:
    """Distance from ``p`` to the shape (0 inside a ring)."""
    edges = shape.edges
    best = min((point_segment(p, a, b) for a, b in edges), default=math.inf)
    if shape.kind == "ring" and best > HAIR and in_ring(p, shape):
        return 0.0
    return best


def _robust_distance(p: Pt, shape: Flat, near: float) -> float:
    """:func:`point_distance`, :class:`Unsure` when ``p`` lies within ``near`` + a hair of the
    boundary."""
    d = min((point_segment(p, a, b) for a, b in shape.edges), default=0.0)
    if d <= near + HAIR:
        raise Unsure
    return 0.0 if shape.kind == "ring" and in_ring(p, shape) else d


def project(path: Sequence[Pt], p: Pt) -> float:
    """How far along ``path`` its point nearest ``p`` lies (GEOS's ``project``: the first
    nearest segment; a point before a segment's start measures at its start)."""
    best, where, run = math.inf, 0.0, 0.0
    for a, b in itertools.pairwise(path):
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy)
        den = dx * dx + dy * dy
        f = 0.0 if den == 0 else ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / den
        d = point_segment(p, a, b)
        if d < best:
            best = d
            where = run if f <= 0 else run + f * length if f <= 1 else run + length
        run += length
    return where


# -- what tabletop asks ----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Met:
    """How a path meets a shape (tabletop's ``Crossing`` without the feature): ``inside`` mm of
    path within a ring, ``crossings`` points where it crosses a line or a ring's boundary,
    ``first`` how far along the path it first meets the shape."""

    inside: float
    crossings: int
    first: float
    starts_inside: bool
    ends_inside: bool


def _no_overlap(path: Sequence[Pt]) -> None:
    """:class:`Unsure` when ``path`` runs over itself (a point visited twice, or two of its
    segments along one line sharing a stretch, as a path doubling back): shapely merges the
    overlap, which these measures would count twice."""
    if len(set(path)) < len(path):
        raise Unsure
    segs = list(itertools.pairwise(path))
    for i, (a, b) in enumerate(segs):
        n = _norm(a, b)
        for c, d in segs[i + 1 :]:
            if abs(orient(a, b, c)) > HAIR * n or abs(orient(a, b, d)) > HAIR * n:
                continue  # not along the same line
            ux, uy = (b[0] - a[0]) / n, (b[1] - a[1]) / n
            tc = (c[0] - a[0]) * ux + (c[1] - a[1]) * uy
            td = (d[0] - a[0]) * ux + (d[1] - a[1]) * uy
            if min(max(tc, td), n) - max(min(tc, td), 0.0) > HAIR:
                raise Unsure


def hits(shape: Flat, path: Sequence[Pt], tolerance: float = 0.0) -> list[tuple[float, Pt]]:
    """Where ``path`` (two points or more) crosses the sides of ``shape``: how far along it, and
    the point, in order; :class:`Unsure` when it comes within ``tolerance`` + a hair of a side
    without crossing it cleanly (touching, running along, through a vertex)."""
    if len(path) > 2 or (len(path) == 2 and path[0] == path[1]):
        _no_overlap(path)
    segs = list(itertools.pairwise(path))
    if any(_norm(a, b) <= HAIR for a, b in segs):
        raise Unsure  # a repeated point: left to shapely's own measures
    edges = shape.edges
    found: list[tuple[float, Pt]] = []
    run = 0.0
    for a, b in segs:
        length = _norm(a, b)
        for c, d in edges:
            t = crossing(a, b, c, d, tolerance)
            if t is not None:
                found.append(
                    (run + t * length, (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
                )
        run += length
    found.sort()
    for i, (_, p) in enumerate(found):  # two crossings at one point: GEOS counts one
        if any(_norm(p, q) <= HAIR for _, q in found[i + 1 :]):
            raise Unsure
    return found


def meet(shape: Flat, path: Sequence[Pt], tolerance: float) -> Met | None:
    """How ``path`` meets ``shape`` within ``tolerance`` mm, as tabletop's ``path_crossings``
    measures it with shapely; ``None`` when it does not."""
    if len(path) > 2 or (len(path) == 2 and path[0] == path[1]):
        _no_overlap(path)
    if len(path) == 1:
        d = _robust_distance(path[0], shape, tolerance)
        if d > 0.0:
            return None
        return Met(0.0, 0, 0.0, True, True)
    found = hits(shape, path, tolerance)
    if shape.kind == "line":
        if not found:
            return None
        return Met(0.0, len(found), min(project(path, p) for _, p in found), False, False)
    start_in = in_ring(path[0], shape)
    if not found and not start_in:
        return None
    # the pieces inside: entries and exits alternate along the path; shapely's pieces hold
    # their ends and the path's points between
    alongs = [0.0]
    for a, b in itertools.pairwise(path):
        alongs.append(alongs[-1] + _norm(a, b))
    marks = [0.0, *(s for s, _ in found), alongs[-1]]
    inside = 0.0
    state = start_in
    coords: list[Pt] = []
    for i in range(len(marks) - 1):
        if state:
            inside += marks[i + 1] - marks[i]
            coords.extend(
                p for p, s in zip(path, alongs, strict=True) if marks[i] < s < marks[i + 1]
            )
        if i < len(found):
            state = not state
            coords.append(found[i][1])
    first = 0.0 if start_in else min(project(path, p) for p in coords)
    return Met(inside, len(found), first, start_in, state)


def covered(path: Sequence[Pt], shapes: Sequence[Flat], grow: float) -> bool:
    """Whether every point of ``path`` lies within ``grow`` mm of one of ``shapes`` (shapely:
    ``union(shapes).buffer(grow).covers(path)``, whose round corners are chords of the true
    circles: answered here when the answer is the same for ``grow`` and for the chords' depth,
    else :class:`Unsure`)."""
    if len(path) > 2 or (len(path) == 2 and path[0] == path[1]):
        _no_overlap(path)
    # the buffer's round corners are chords (8 a quarter circle), inside the true circle by
    # at most cos(pi/32); GEOS simplifies the ring it grows by 1% of the distance, outwards
    inner = grow * math.cos(math.pi / 32) - HAIR
    outer = grow * 1.011 + HAIR
    if len(path) == 1:
        d = min(point_distance(path[0], s) for s in shapes)
        if d <= inner:
            return True
        if d > outer:
            return False
        raise Unsure
    # covered at the outer reach first: most paths asked are not (then neither are they at the
    # inner one: each span grows with the reach, in floats too, so the answer is the same)
    if not _covered(path, shapes, outer):
        return False
    if _covered(path, shapes, inner):
        return True
    raise Unsure


def _covered(path: Sequence[Pt], shapes: Sequence[Flat], r: float) -> bool:
    for a, b in itertools.pairwise(path):
        spans: list[tuple[float, float]] = []
        for s in shapes:
            for c, d in s.edges:
                spans.extend(_capsule(a, b, c, d, r))
            if s.kind == "ring":
                spans.extend(_inside_spans(a, b, s))
        spans.sort()
        reach = 0.0
        for lo, hi in spans:
            if lo > reach + 1e-12:
                return False
            reach = max(reach, hi)
        if reach < 1.0 - 1e-12:
            return False
    return True


def _inside_spans(a: Pt, b: Pt, ring: Flat) -> list[tuple[float, float]]:
    """The fractions of segment ``ab`` inside ``ring`` (approximate at the boundary: the
    capsules around the sides cover a hair either side of it)."""
    ts = [0.0, 1.0]
    for c, d in ring.edges:
        o1, o2 = orient(c, d, a), orient(c, d, b)
        o3, o4 = orient(a, b, c), orient(a, b, d)
        if (o1 > 0) != (o2 > 0) and (o3 > 0) != (o4 > 0) and o1 != o2:
            ts.append(o1 / (o1 - o2))
    # a corner on ab: the segment may leave the ring there without crossing a side strictly
    # (a path along a side and on through its corner; the test above counts a corner on ab on
    # one side only, by the sign of the side's far end): cut there too
    ex, ey = b[0] - a[0], b[1] - a[1]
    ee = ex * ex + ey * ey
    for v in ring.points:
        if ee and abs(orient(a, b, v)) <= HAIR * math.sqrt(ee):
            t = ((v[0] - a[0]) * ex + (v[1] - a[1]) * ey) / ee
            if 0.0 < t < 1.0:
                ts.append(t)
    ts.sort()
    out = []
    for lo, hi in itertools.pairwise(ts):
        m = (lo + hi) / 2
        if hi > lo and in_ring((a[0] + m * (b[0] - a[0]), a[1] + m * (b[1] - a[1])), ring):
            out.append((lo, hi))
    return out


def _capsule(a: Pt, b: Pt, c: Pt, d: Pt, r: float) -> list[tuple[float, float]]:
    """The fractions of segment ``ab`` within ``r`` of segment ``cd``: its meets with the
    discs about ``c`` and ``d`` and with the band along ``cd``."""
    if _apart(a, b, c, d, r + 1e-6):  # no point of ab within r of cd: no span
        return []
    out: list[tuple[float, float]] = []
    ex, ey = b[0] - a[0], b[1] - a[1]
    for p in (c, d):  # |a + t e - p| <= r
        fx, fy = a[0] - p[0], a[1] - p[1]
        qa, qb, qc = ex * ex + ey * ey, 2 * (fx * ex + fy * ey), fx * fx + fy * fy - r * r
        disc = qb * qb - 4 * qa * qc
        if qa == 0 or disc < 0:
            continue
        root = math.sqrt(disc)
        out.append(((-qb - root) / (2 * qa), (-qb + root) / (2 * qa)))
    ux, uy = d[0] - c[0], d[1] - c[1]
    ln = math.hypot(ux, uy)
    ux, uy = ux / ln, uy / ln
    lo, hi = 0.0, 1.0
    # along cd in [0, ln], across within r
    for k0, k1, low, high in (
        ((a[0] - c[0]) * ux + (a[1] - c[1]) * uy, ex * ux + ey * uy, 0.0, ln),
        ((a[0] - c[0]) * -uy + (a[1] - c[1]) * ux, ex * -uy + ey * ux, -r, r),
    ):
        if k1 == 0:
            if not low <= k0 <= high:
                lo, hi = 1.0, 0.0
            continue
        t0, t1 = (low - k0) / k1, (high - k0) / k1
        lo, hi = max(lo, min(t0, t1)), min(hi, max(t0, t1))
    if lo <= hi:
        out.append((lo, hi))
    return [(max(0.0, s), min(1.0, e)) for s, e in out if e >= 0.0 and s <= 1.0]


def shapes_distance(a: Flat, b: Flat) -> float:
    """Distance between two shapes (0 when they meet), :class:`Unsure` when they come within
    a hair of touching."""
    if not a.edges or not b.edges:
        raise Unsure
    best = math.inf
    for p, q in a.edges:
        for c, d in b.edges:
            if crossing(p, q, c, d) is not None:
                return 0.0
            best = min(best, segment_distance(p, q, c, d))
    for inner, outer in ((a, b), (b, a)):
        if outer.kind == "ring" and in_ring(inner.points[0], outer):
            return 0.0
    return best


def shapes_apart(a: Flat, b: Flat, gap: float) -> bool:
    """Whether :func:`shapes_distance` is more than ``gap`` (>= 0), with its :class:`Unsure`
    (the same crossings asked, in the same order): a pair of sides whose boxes lie more than
    ``gap`` apart is not measured (it cannot bring the distance to ``gap``)."""
    if not a.edges or not b.edges:
        raise Unsure
    near = False
    for p, q in a.edges:
        for c, d in b.edges:
            if crossing(p, q, c, d) is not None:
                return False
            if not near and not _apart(p, q, c, d, gap) and segment_distance(p, q, c, d) <= gap:
                near = True
    for inner, outer in ((a, b), (b, a)):
        if outer.kind == "ring" and in_ring(inner.points[0], outer):
            return False
    return not near


def intersects(a: Flat, b: Flat) -> bool:
    """Whether two shapes share a point (shapely's ``intersects``: touching counts)."""
    return shapes_distance(a, b) == 0.0


# -- a ray against a convex ring ---------------------------------------------------------------
#: a corner sharper than this (degrees inside) is not taken as a convex ring's: the side
#: half-planes would leave a point near it further from the ring than their excess
SHARPEST = 5.0


def convex_sides(ring: Flat) -> tuple[tuple[float, float, float], ...] | None:
    """The sides of a convex ring as half-planes ``(nx, ny, h)`` (``(nx, ny)`` the unit
    normal outward: a point ``p`` lies in the ring when ``nx * px + ny * py <= h`` for every
    side); ``None`` for a line, a ring that turns both ways, or one with a corner sharper
    than :data:`SHARPEST`."""
    edges = ring.edges
    if ring.kind != "ring" or len(edges) < 3:
        return None
    turn = 1.0 if area(ring) > 0 else -1.0  # counter-clockwise: every corner turns left
    sharp = math.radians(180.0 - SHARPEST)
    for (a, b), (_, d) in zip(edges, edges[1:] + edges[:1], strict=True):
        ux, uy, vx, vy = b[0] - a[0], b[1] - a[1], d[0] - b[0], d[1] - b[1]
        bend = math.atan2(turn * (ux * vy - uy * vx), ux * vx + uy * vy)
        if bend < -HAIR or bend > sharp:
            return None
    sides = []
    for a, b in edges:
        ln = _norm(a, b)
        nx, ny = turn * (b[1] - a[1]) / ln, -turn * (b[0] - a[0]) / ln
        sides.append((nx, ny, nx * a[0] + ny * a[1]))
    return tuple(sides)


def ray_entry(
    sides: Sequence[tuple[float, float, float]], c: Pt, d: Pt, most: float, grow: float
) -> float:
    """The least ``t`` in [0, ``most``] at which ``c + t * d`` (``d`` a unit vector) lies in
    the convex ring of ``sides`` (:func:`convex_sides`) with each side pushed ``grow`` out
    (inf: at none), to about 1e-9 mm: the ring's sides cut in turn (Cyrus and Beck).
    :class:`Unsure` when a side nearly along the ray is crossed before ``most`` (its cut
    would be ill measured)."""
    cx, cy = c
    dx, dy = d
    t_in, t_out = 0.0, most
    for nx, ny, h in sides:
        den = nx * dx + ny * dy
        num = h + grow - nx * cx - ny * cy  # the ray lies within the side while t * den <= num
        if -1e-3 < den < 1e-3:  # nearly along the side: on which side it stays throughout
            end = num - most * den
            if num >= 1e-9 and end >= 1e-9:
                continue
            if num <= -1e-9 and end <= -1e-9:
                return math.inf
            raise Unsure
        if den > 0.0:
            t_out = min(t_out, num / den)
        else:
            t_in = max(t_in, num / den)
    return t_in if t_in <= t_out else math.inf
