"""Where positions are tracked: the table-top questions Kuryakin's rules ask, answered by
:mod:`vedette.geometry.tabletop` (mm; 1mm = 1 yard). A unit without a position answers
``None`` and the player states the fact in the request instead."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from vedette.geometry.tabletop import (
    Body,
    Side,
    Vec,
    box_gap,
    distance,
    in_arc,
    segment_meets_body,
    side_facing,
)
from vedette.rules.solo_napoleonic import memo
from vedette.rules.solo_napoleonic.model import General, State, Unit

FIGURE_FRONTAGE_MM = 15.0  # default footprint when the scenario gives none (15mm figures)
RANK_DEPTH_MM = 15.0


#: answers by the identity of the (immutable) units and generals asked about: a game changes
#: one unit an action, so the others' bodies and distances are asked again and again. Each entry
#: keeps its objects alive (an id is never reused while it is cached); cleared when large.
_BODIES: dict[int, tuple[Unit, Body | None]] = {}
_DISTANCES: dict[tuple[int, int], tuple[object, object, float | None]] = {}
_MOST = 8192


def footprint_key(u: Unit) -> tuple[Any, ...]:
    """What a unit's body is made from (:func:`_body`): two units with the same key stand on
    the same footprint (and share one Body object while the memos keep it)."""
    return (u.x, u.y, u.facing, u.width, u.depth, u.front, u.figures)


def body(u: Unit) -> Body | None:
    """The unit's body on the table (None if unplaced). With the memos on, kept with the unit
    object once asked (in its ``__dict__``, as ``_body``: ``model.updated`` drops it when a
    field of the footprint changes, ``model.FOOTPRINT_FIELDS``)."""
    kept = u.__dict__.get("_body", _UNSET)
    if kept is not _UNSET:
        return kept  # type: ignore[no-any-return]
    hit = _BODIES.get(id(u))
    if hit is not None and hit[0] is u:
        return hit[1]
    if memo.enabled() and u.x is not None and u.y is not None:
        # one Body object per footprint on the table (a unit that acted, fired or took a
        # chit stands where it stood): what is measured from it is remembered by identity
        b = memo.pure("body", footprint_key(u), lambda: _body(u))
    else:
        b = _body(u)
    if memo.enabled():
        u.__dict__["_body"] = b
        return b
    if len(_BODIES) > _MOST:
        _BODIES.clear()
    _BODIES[id(u)] = (u, b)
    return b


#: no body kept with the unit yet
_UNSET = object()


def _clear() -> None:
    _BODIES.clear()
    _DISTANCES.clear()
    _CROSSES.clear()


memo.also_clear(_clear)


def _distance(a: General | Unit, b: Unit, measure: Callable[[], float | None]) -> float | None:
    key = (id(a), id(b))
    hit = _DISTANCES.get(key)
    if hit is not None and hit[0] is a and hit[1] is b:
        return hit[2]
    d = measure()
    if len(_DISTANCES) > _MOST:
        _DISTANCES.clear()
    _DISTANCES[key] = (a, b, d)
    return d


def _body(u: Unit) -> Body | None:
    if u.x is None or u.y is None:
        return None
    w = u.width or max(1, u.front_rank()) * FIGURE_FRONTAGE_MM
    ranks = math.ceil(u.figures / max(1, u.front_rank())) if u.figures else 1
    d = u.depth or max(1, ranks) * RANK_DEPTH_MM
    return Body.at(u.x, u.y, u.facing, w, d)


def point(g: General) -> Vec | None:
    if g.x is None or g.y is None:
        return None
    return Vec(g.x, g.y)


def general_distance(g: General, u: Unit) -> float | None:
    """Distance (mm) from a general to a unit's nearest edge (None if either is unplaced)."""
    return _distance(g, u, lambda: _general_distance(g, u))


def _general_distance(g: General, u: Unit) -> float | None:
    p, b = point(g), body(u)
    if p is None or b is None:
        return None
    if not memo.enabled():
        return distance(p, b)
    got = memo.pure("general_distance", (p.x, p.y, id(b)), lambda: (b, distance(p, b)))
    if got[0] is not b:  # (an id reused by another body since: measured afresh)
        return distance(p, b)
    return got[1]


def general_to_general(a: General, b: General) -> float | None:
    pa, pb = point(a), point(b)
    if pa is None or pb is None:
        return None
    return pa.distance(pb)


def unit_distance(a: Unit, b: Unit) -> float | None:
    return _distance(a, b, lambda: _unit_distance(a, b))


def _unit_distance(a: Unit, b: Unit) -> float | None:
    ba, bb = body(a), body(b)
    if ba is None or bb is None:
        return None
    return memo.pair("distance", ba, bb, lambda: distance(ba, bb))


#: how clear (mm) a bound must be for :func:`within` to answer from it alone
BOUND_MM = 1e-6


def within(a: Unit, b: Unit, reach: float) -> bool | None:
    """``unit_distance(a, b) <= reach`` (None if either is unplaced), measured only when the
    bounds of :func:`bodies_within` leave it open."""
    ba, bb = body(a), body(b)
    if ba is None or bb is None:
        return None
    near = bodies_within(ba, bb, reach)
    if near is not None:
        return near
    d = unit_distance(a, b)
    return d is not None and d <= reach


def inner(b: Body) -> float:
    """The radius of the body's inscribed circle (half its lesser side): every point this
    near its centre lies in it."""
    fp = b.footprint
    return (fp.width if fp.width < fp.depth else fp.depth) / 2


def point_gap(x: float, y: float, b: Body) -> float:
    """The distance (mm) from the point (``x``, ``y``) to the body ``b`` (0 inside it), worked
    out in the body's own frame: how far beyond its half-depth ahead or behind, and beyond its
    half-width to either side. The same distance ``tabletop.distance`` measures on its
    corners, to within rounding (a few units in the last place of a table's mm): the bounds
    below allow :data:`BOUND_MM` for that."""
    fp = b.footprint
    f = math.radians(b.facing)
    fx, fy = math.sin(f), math.cos(f)  # straight ahead (``Vec.heading``); its right: (fy, -fx)
    dx, dy = x - b.centre.x, y - b.centre.y
    ahead = abs(dx * fx + dy * fy) - fp.depth / 2
    side = abs(dx * fy - dy * fx) - fp.width / 2
    if ahead <= 0.0:
        return side if side > 0.0 else 0.0
    if side <= 0.0:
        return ahead
    return math.hypot(ahead, side)


def bodies_within(ba: Body, bb: Body, reach: float) -> bool | None:
    """``distance(ba, bb) <= reach`` where cheap bounds tell it clearly (by more than
    :data:`BOUND_MM`), else None (measure). The distance edge to edge is at most the distance
    between the centres (each centre is a point of its body), and at most that less both
    inscribed radii (the line between the centres leaves each body no nearer its centre than
    that), and at most a centre's distance to the other body less its own inscribed radius
    (the same, along the line to the nearest point); it is at least the distance between the
    centres less both half-diagonals (no point of a body is farther from its centre than its
    half-diagonal), at least a centre's distance to the other body less its own half-diagonal,
    and at least the distance between the bodies' bounding boxes."""
    ca, cb = ba.centre, bb.centre
    c = math.hypot(ca.x - cb.x, ca.y - cb.y)
    if c < reach - BOUND_MM:
        return True
    ra, rb = ba.radius, bb.radius
    if c - ra - rb > reach + BOUND_MM:
        return False
    # (the bounds less an inscribed radius may fall below 0, the distance never: a reach of 0
    # or less is never within them)
    ia, ib = inner(ba), inner(bb)
    if c - ia - ib < reach - BOUND_MM and reach > BOUND_MM:
        return True
    pa, pb = point_gap(ca.x, ca.y, bb), point_gap(cb.x, cb.y, ba)
    if reach > BOUND_MM and (pa - ia < reach - BOUND_MM or pb - ib < reach - BOUND_MM):
        return True
    if pa - ra > reach + BOUND_MM or pb - rb > reach + BOUND_MM:
        return False
    if box_gap(ba, bb) > reach + BOUND_MM:  # the boxes apart: a closer bound, still cheap
        return False
    return None


def general_within(g: General, u: Unit, reach: float) -> bool | None:
    """``general_distance(g, u) <= reach`` (None if either is unplaced), measured only when
    the point's distance in the body's own frame (:func:`point_gap`, to within rounding)
    lies within :data:`BOUND_MM` of the reach."""
    if g.x is None or g.y is None:
        return None
    b = body(u)
    if b is None:
        return None
    c = math.hypot(g.x - b.centre.x, g.y - b.centre.y)  # (the centre's bounds: cheapest)
    if c < reach - BOUND_MM:
        return True
    if c - b.radius > reach + BOUND_MM:
        return False
    gap = point_gap(g.x, g.y, b)
    if gap < reach - BOUND_MM:
        return True
    if gap > reach + BOUND_MM:
        return False
    d = general_distance(g, u)
    return d is not None and d <= reach


def general_reach(g: General, u: Unit, reach: float) -> tuple[bool, float] | None:
    """``general_distance(g, u) <= reach`` and a distance that reads the same in whole mm as
    that distance (None if either is unplaced): the point's distance in the body's frame
    (:func:`point_gap`, to within rounding), measured edge to edge only where it lies within
    :data:`BOUND_MM` of the reach or of half a mm (where rounding could tip either)."""
    if g.x is None or g.y is None:
        return None
    b = body(u)
    if b is None:
        return None
    gap = point_gap(g.x, g.y, b)
    if abs(gap - reach) <= BOUND_MM or abs(gap % 1.0 - 0.5) <= BOUND_MM:
        d = general_distance(g, u)
        assert d is not None
        return d <= reach, d
    return gap <= reach, gap


def friends_within(state: State, u: Unit, radius: float) -> int | None:
    """Friendly units (not routing) within ``radius`` mm, edge to edge; None if unplaced."""
    if body(u) is None:
        return None
    n = 0
    for o in state.units:
        if o.id == u.id or o.side != u.side or not o.on_table or o.status == "routing":
            continue
        if within(u, o, radius):
            n += 1
    return n


def in_fire_arc(firer: Unit, target: Unit, half_angle: float) -> bool | None:
    bf, bt = body(firer), body(target)
    if bf is None or bt is None:
        return None
    return bodies_in_arc(bf, bt, half_angle)


def bodies_in_arc(bf: Body, bt: Body, half_angle: float) -> bool:
    """:func:`in_fire_arc` of the two bodies, in hand."""
    angle = min(half_angle, 89.9)
    name = _ARC_NAMES.get(angle)
    if name is None:
        name = _ARC_NAMES[angle] = f"arc {angle}"
    return memo.pair(name, bf, bt, lambda: _in_arc(bf, bt, angle))


#: the memo's name of each arc asked (one string per half-angle, not one per question)
_ARC_NAMES: dict[float, str] = {}


#: how far (mm) a corner must lie from an edge of the arc for :func:`_arc_clear` to answer
CLEAR_MM = 1e-4


def _in_arc(bf: Body, bt: Body, angle: float) -> bool:
    """``in_arc(bf, bt, angle)`` (a front arc over the whole table, any part of the target):
    in plain arithmetic where the answer is clear (:func:`_arc_clear`), else ``in_arc``."""
    if memo.enabled():
        clear = _arc_quick(bf, bt, angle)
        if clear is None:
            clear = _arc_clear(bf, bt, angle)
        if clear is not None:
            return clear
    return in_arc(bf, bt, angle)


def _arc_quick(bf: Body, bt: Body, angle: float) -> bool | None:
    """:func:`_arc_clear`'s answer where the target's centre tells it: in the firer's own frame
    (ahead, to the right), the signed distance of the target's centre from each of the arc's
    three sides (+ inside); every corner of the target lies within its half-diagonal of the
    centre, so a centre farther outside one side than that (and :data:`CLEAR_MM`, and a hair
    for rounding) has every corner outside it (no), and one farther inside all three has every
    corner inside (yes); else None (the corners decide)."""
    fp = bf.footprint
    hd, hw = fp.depth / 2, fp.width / 2
    f = math.radians(bf.facing)
    fx, fy = math.sin(f), math.cos(f)
    dx, dy = bt.centre.x - bf.centre.x, bt.centre.y - bf.centre.y
    ahead = dx * fx + dy * fy - hd  # beyond the front edge
    right = dx * fy - dy * fx
    a = math.radians(angle)
    sa, ca = math.sin(a), math.cos(a)
    sides = (ahead, ahead * sa + (right + hw) * ca, ahead * sa - (right - hw) * ca)
    m = bt.radius + CLEAR_MM + ARC_HAIR_MM
    if min(sides) < -m:
        return False
    if min(sides) > m:
        return True
    return None


#: what :func:`_arc_quick` allows for rounding between its arithmetic and ``_arc_clear``'s
ARC_HAIR_MM = 1e-6


def _arc_clear(bf: Body, bt: Body, angle: float) -> bool | None:
    """Whether the target ``bt`` reaches into the front arc of ``bf`` (half-angle ``angle``,
    0 <= angle < 90: the region ahead of its front edge between the two lines drawn from its
    front corners, each ``angle`` outward from straight ahead; ``in_arc`` closes it far beyond
    the table, and no target reaches that far), answered only when clear: every corner of the
    target farther than :data:`CLEAR_MM` outside one of the arc's three sides (no: a line
    separates two convex shapes), or one corner farther than that inside all three (yes).
    ``None`` when neither holds (a corner near a side, or the target across a side with no
    corner inside): ``in_arc`` decides."""
    fl, fr, _, _ = bf.corners()
    left = Vec.heading(bf.facing - angle)
    right = Vec.heading(bf.facing + angle)
    # the arc's sides, each a point on it and its direction, listed so that the arc lies on
    # the same hand of each: the left line outward, the right one inward, the front edge
    # right to left (the order of in_arc's own outline: fl, far left, far right, fr)
    sides = (
        (fl.x, fl.y, left.x, left.y),
        (fr.x, fr.y, -right.x, -right.y),
        (fr.x, fr.y, fl.x - fr.x, fl.y - fr.y),
    )
    # which hand is inside: the midpoint of the front edge a little ahead (inside the arc)
    ahead = Vec.heading(bf.facing)
    mx, my = (fl.x + fr.x) / 2 + ahead.x, (fl.y + fr.y) / 2 + ahead.y
    ax, ay, dx, dy = sides[2]
    hand = 1.0 if dx * (my - ay) - dy * (mx - ax) > 0 else -1.0
    corners = [(c.x, c.y) for c in bt.corners()]
    inside = [True] * 4
    for ax, ay, dx, dy in sides:
        n = math.hypot(dx, dy)
        if n == 0:
            return None
        out = 0
        for i, (x, y) in enumerate(corners):
            d = hand * (dx * (y - ay) - dy * (x - ax)) / n  # signed distance, + inside
            if d < -CLEAR_MM:
                out += 1
            if d <= CLEAR_MM:
                inside[i] = False
        if out == 4:
            return False
    return True if any(inside) else None


def attack_side(target: Unit, attacker: Unit) -> str | None:
    """Which side of ``target`` the attacker comes from: front, flank or rear."""
    bt, ba = body(target), body(attacker)
    if bt is None or ba is None:
        return None
    s = side_facing(bt, ba)
    return "flank" if s.is_flank else ("rear" if s is Side.REAR else "front")


def screening(state: State, firer: Unit, target: Unit) -> list[str] | None:
    """Skirmishing units standing across the line of fire (centre to centre) between two placed
    units (Kuryakin, Skirmishers: they screen other units); None if either is unplaced."""
    bf, bt = body(firer), body(target)
    if bf is None or bt is None:
        return None
    if not memo.enabled():
        return _screening(state.units, firer.id, target.id, bf, bt)
    # the skirmishers standing on the table (once per state), then the line between the two
    # bodies across them (by value: most units do not move from one action to the next)
    skirm = memo.per_state(state, "skirmishers", lambda: _skirmishers(state))
    out = []
    for oid, bo in skirm:
        if oid in (firer.id, target.id) or bo is None:
            continue
        # by the bodies' identity (one object per footprint: see body), each entry holding
        # its three bodies alive; a body not kept there is asked by value
        key = (id(bf), id(bt), id(bo))
        hit = _CROSSES.get(key)
        if hit is not None and hit[0] is bf and hit[1] is bt and hit[2] is bo:
            crosses = hit[3]
        else:
            crosses = memo.pure("crosses", (bf, bt, bo), lambda: _crosses(bf, bt, bo))  # noqa: B023
            if len(_CROSSES) > _MOST:
                _CROSSES.clear()
            _CROSSES[key] = (bf, bt, bo, crosses)
        if crosses:
            out.append(oid)
    return out


_CROSSES: dict[tuple[int, int, int], tuple[Body, Body, Body, bool]] = {}


def _crosses(bf: Body, bt: Body, bo: Body) -> bool:
    """Whether the line between the centres of ``bf`` and ``bt`` meets ``bo``: in arithmetic
    where the answer is clear (``segment_meets_body``), else by shapely (``_line``)."""
    clear = segment_meets_body(bf.centre, bt.centre, bo)
    if clear is not None:
        return clear
    line = memo.pair("line", bf, bt, lambda: _line(bf, bt))
    return bool(line.intersects(bo.polygon()))


def _skirmishers(state: State) -> tuple[tuple[str, Body | None], ...]:
    return tuple((o.id, body(o)) for o in state.units if o.on_table and o.skirmishing)


def _line(bf: Body, bt: Body) -> Any:
    from shapely.geometry import LineString

    return LineString([bf.centre.as_tuple(), bt.centre.as_tuple()])


def _screening(units: Sequence[Unit], fid: str, tid: str, bf: Body, bt: Body) -> list[str]:
    from shapely.geometry import LineString

    line = LineString([bf.centre.as_tuple(), bt.centre.as_tuple()])
    out = []
    for o in units:
        if o.id in (fid, tid) or not o.on_table or not o.skirmishing:
            continue
        bo = body(o)
        if bo is not None and line.intersects(bo.polygon()):
            out.append(o.id)
    return out


def moved(u: Unit, ahead: float, rightward: float) -> tuple[float, float] | None:
    """The centre after moving ``ahead`` mm forward and ``rightward`` mm to the right."""
    b = body(u)
    if b is None:
        return None
    c = b.to_world(ahead, rightward)
    return (round(c.x, 1), round(c.y, 1))


def moved_away(u: Unit, other: Unit, mm: float) -> tuple[float, float] | None:
    """The centre after moving ``mm`` straight away from ``other`` (centre to centre); straight
    back when ``other`` is unplaced or stands on the same centre; None if ``u`` is unplaced."""
    b, o = body(u), body(other)
    if b is None:
        return None
    if o is None:
        return moved(u, -mm, 0.0)
    dx, dy = b.centre.x - o.centre.x, b.centre.y - o.centre.y
    n = math.hypot(dx, dy)
    if n < 1e-9:
        return moved(u, -mm, 0.0)
    return (round(b.centre.x + dx / n * mm, 1), round(b.centre.y + dy / n * mm, 1))
