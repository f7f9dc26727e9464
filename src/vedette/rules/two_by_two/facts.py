"""Geometric facts the rules ask about, worked out from the table when positions are known.

Every function here is a *query*: it never raises on a rules question, it answers it (a fact
the table cannot tell, e.g. a unit without a position, is ``None``). The procedures take these
facts, or the player's statement of them when vedette does not know where the units stand.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

from vedette.geometry import flat
from vedette.geometry import tabletop as tt
from vedette.geometry.tabletop import Body, Feature, Vec
from vedette.rules.two_by_two.model import GameState, Unit

AREA_COVER = ("woods", "rough", "town")
LINE_COVER = ("wall", "hedge")


def features(state: GameState, *kinds: str) -> list[Feature]:
    return [f for f in state.table.features if f.kind in kinds]


def distance_n(state: GameState, a: Unit, b: Unit) -> float | None:
    """Edge-to-edge distance in [n], or ``None`` if either position is unknown."""
    if a.body is None or b.body is None:
        return None
    return state.rules.n(tt.distance(a.body, b.body))


def in_contact(state: GameState, a: Unit, b: Unit) -> bool | None:
    """Base-to-base contact (within the contact tolerance)."""
    if a.body is None or b.body is None:
        return None
    return tt.in_contact(a.body, b.body, state.rules.contact_mm)


def in_kinds(state: GameState, u: Unit, *kinds: str) -> bool | None:
    """Whether at least half the unit's footprint is in a feature of these kinds."""
    if u.body is None:
        return None
    return bool(tt.body_features(u.body, features(state, *kinds), "half"))


def enemies_in_contact(state: GameState, u: Unit) -> list[Unit] | None:
    if u.body is None:
        return None
    tol = state.rules.contact_mm
    return [
        e
        for e in state.near(u.body, tol, state.enemy_of(u.side))
        if e.body is not None and tt.in_contact(u.body, e.body, tol)
    ]


def enemies_within(state: GameState, u: Unit, n: float) -> list[Unit] | None:
    if u.body is None:
        return None
    out = []
    for e in state.near(u.body, state.rules.mm(n) + 1e-6, state.enemy_of(u.side)):
        d = distance_n(state, u, e)
        if d is not None and d <= n + 1e-9:
            out.append(e)
    return out


def hq_in_contact(state: GameState, u: Unit) -> bool | None:
    """A friendly HQ (other than the unit itself) in base-to-base contact."""
    if u.body is None:
        return None
    for h in state.near(u.body, state.rules.contact_mm, u.side):
        if h.id != u.id and state.utype(h).is_hq and in_contact(state, u, h):
            return True
    return False


def hq_distances(state: GameState, u: Unit) -> tuple[float | None, float | None]:
    """(nearest Division HQ, Corps HQ) distance in [n] (``None``: none known)."""
    div: float | None = None
    corps: float | None = None
    for h in state.live(u.side):
        t = state.utype(h)
        if not t.is_hq or h.id == u.id:
            continue
        d = distance_n(state, u, h)
        if d is None:
            continue
        if t.hq_level == "division":
            div = d if div is None else min(div, d)
        elif t.hq_level == "corps":
            corps = d if corps is None else min(corps, d)
    return div, corps


def flank_or_rear(state: GameState, target: Unit, other: Unit) -> str | None:
    """Which arc of ``target`` ``other`` is in: ``front``, ``left``, ``right``, ``rear``."""
    if target.body is None or other.body is None:
        return None
    g = state.rules.geometry
    return tt.arc_of(target.body, other.body, g.front_half_angle, g.rear_half_angle).value


def in_fire_arc(state: GameState, firer: Unit, target: Unit) -> bool | None:
    if firer.body is None or target.body is None:
        return None
    half = state.rules.geometry.fire_half_angle
    return tt.in_arc(firer.body, target.body, half, mode="any")


def behind_wall_or_hedge(state: GameState, firer: Unit, target: Unit) -> bool | None:
    """The line of fire crosses a wall or hedge within the cover distance of the target."""
    if firer.body is None or target.body is None:
        return None
    near = state.rules.mm(state.rules.geometry.cover_distance)
    for c in tt.features_between(firer.body, target.body, features(state, *LINE_COVER)):
        if tt.feature_distance(c.feature, target.body) <= near + 1e-9:
            return True
    return False


def on_hill(state: GameState, u: Unit) -> bool | None:
    return in_kinds(state, u, "hill")


def overlap_supports(state: GameState, unit: Unit, enemy: Unit) -> list[Unit] | None:
    """Friendly units beyond ``unit`` that join its melee against ``enemy``: in contact with
    the enemy, or side by side (flank to flank) with ``unit`` and facing the same way.

    ASSUMPTION (2 by 2, Melee, "Overlap support"): disrupted units do not support.
    """
    if unit.body is None or enemy.body is None:
        return None
    out: list[Unit] = []
    tol = state.rules.contact_mm
    # every candidate touches the unit or the enemy: within this reach of the unit's centre
    reach = tol + tt.centre_distance(unit.body, enemy.body) + enemy.body.radius
    for f in state.near(unit.body, reach, unit.side):
        if f.id == unit.id or f.body is None or f.disrupted:
            continue
        if state.utype(f).is_hq:
            continue
        touching_enemy = tt.in_contact(f.body, enemy.body, tol)
        side = tt.touching_side(unit.body, f.body, tol)
        same_way = abs(((f.body.facing - unit.body.facing + 180) % 360) - 180) < 15
        if touching_enemy or (side is not None and side.is_flank and same_way):
            out.append(f)
    return out


# -- movement ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PathFacts:
    """What a move path meets (2 by 2, Movement Modifiers), in [n]."""

    length: float
    whole_on_road: bool
    bridge: bool
    bridge_len: float
    streams: int
    town: float
    rough: float
    through_town: bool
    on_table: bool
    straight_ahead: bool
    crossed: tuple[str, ...]


class _Prepared:
    """A table's features made ready once for the many paths a turn's offers measure: their
    bounding boxes, the roads' and the bridges' cover (the table never changes in a game)."""

    def __init__(self, state: GameState) -> None:
        self.table = state.table
        self.rules = state.rules
        #: the facts of paths measured already (a unit that has not moved is offered the same
        #: steps again after another unit's action)
        self.paths: dict[tuple[tuple[tuple[float, float], ...], float, float], PathFacts] = {}
        #: each feature's box from its recipe (no shapely: a turn's offers often meet none)
        self.boxes = [(f, f.box) for f in state.table.features]
        self.roads = features(state, "road", "bridge")
        self.bridges = features(state, "bridge")
        self.road_boxes = [f.box for f in self.roads]
        self._covers: dict[str, Any] = {}
        #: each bridge's sides as half-planes (:func:`flat.convex_sides`), none when one is
        #: not a convex ring; made when first asked (:func:`bridge_window`)
        self._bridge_sides: list[Any] = []

    @property
    def bridge_sides(self) -> list[tuple[tuple[float, float, float], ...]] | None:
        if not self._bridge_sides:
            rings = [f.flat for f in self.bridges]
            sides = [flat.convex_sides(r) if r is not None else None for r in rings]
            self._bridge_sides.append(None if None in sides else sides)
        return self._bridge_sides[0]  # type: ignore[no-any-return]

    def _cover(self, which: str, of: list[Feature]) -> Any:
        """The features ``of`` grown by 0.5 mm, as one shape, built when first asked."""
        if which not in self._covers:
            cover = tt.union([f.shape for f in of]).buffer(0.5) if of else None
            if cover is not None:  # asked of every path: GEOS prepares it once (same answers)
                import shapely  # start-up: shapely loads only where geometry is asked

                shapely.prepare(cover)
            self._covers[which] = cover
        return self._covers[which]

    @property
    def road_cover(self) -> Any:
        return self._cover("road", self.roads)

    @property
    def bridge_cover(self) -> Any:
        return self._cover("bridge", self.bridges)

    def on_road(self, path: list[Vec]) -> bool:
        """Whether the roads' cover holds the whole path: in arithmetic (flat.covered) unless
        the path comes within a hair of the cover's edge or a road is a shape only shapely
        builds; then asked of shapely."""
        pts = [p.as_tuple() for p in path]
        shapes = [f.flat for f in self.roads]
        try:
            if None not in shapes:
                return flat.covered(pts, [s for s in shapes if s is not None], 0.5)
        except flat.Unsure:
            pass
        from shapely.geometry import LineString  # start-up time: only where arithmetic is unsure

        return bool(self.road_cover.covers(LineString(pts)))

    def bridged(self, stream: Feature, path: list[Vec]) -> bool:
        """Whether every point where the path crosses ``stream`` lies in the bridges' cover
        (arithmetic as :meth:`on_road`, else shapely)."""
        pts = [p.as_tuple() for p in path]
        shapes = [f.flat for f in self.bridges]
        line = stream.flat
        try:
            if None not in shapes and line is not None and line.kind == "line":
                hits = flat.hits(line, pts)
                if hits:
                    grown = [s for s in shapes if s is not None]
                    return all(flat.covered([p], grown, 0.5) for _, p in hits)
        except flat.Unsure:
            pass
        from shapely.geometry import LineString  # start-up time: only where arithmetic is unsure

        hit = stream.shape.intersection(LineString(pts))
        return bool(self.bridge_cover.covers(hit))

    def may_cover(
        self, path: list[Vec], box: tuple[float, float, float, float] | None = None
    ) -> bool:
        """Whether the roads' cover may hold the path: ``False`` when the path's box meets no
        road's box grown by the cover's 0.5 mm (it then lies outside the cover). ``box``:
        the path's (:func:`_box`), when the caller has it."""
        e = 0.5 + 1e-3
        x0, x1, y0, y1 = box or _box(path)
        return any(
            a - e <= x1 and c + e >= x0 and b - e <= y1 and d + e >= y0
            for a, b, c, d in self.road_boxes
        )

    def near(
        self, path: list[Vec], box: tuple[float, float, float, float] | None = None
    ) -> list[Feature]:
        """The features whose bounding box meets the path's (the others cannot meet it)."""
        e = 1e-3
        x0, x1, y0, y1 = box or _box(path)
        x0, x1, y0, y1 = x0 - e, x1 + e, y0 - e, y1 + e
        return [f for f, (a, b, c, d) in self.boxes if a <= x1 and c >= x0 and b <= y1 and d >= y0]


def _box(path: list[Vec]) -> tuple[float, float, float, float]:
    """The path's box: (least x, greatest x, least y, greatest y)."""
    xs = [p.x for p in path]
    ys = [p.y for p in path]
    return min(xs), max(xs), min(ys), max(ys)


def crosses_bridge(state: GameState, path: list[Vec]) -> bool:
    """Whether ``path`` crosses a bridge (as :func:`path_facts` finds it), measured only
    against the bridges whose box meets the path's (most paths are nowhere near one)."""
    prepared = _prepared(state)
    if not prepared.bridges:
        return False
    e = 1e-3
    x0, x1, y0, y1 = _box(path)
    near = [
        f
        for f in prepared.bridges
        if f.box[0] <= x1 + e and f.box[2] >= x0 - e and f.box[1] <= y1 + e and f.box[3] >= y0 - e
    ]
    return bool(near) and any(c.kind == "bridge" for c in tt.path_crossings(path, near))


#: how much further than the crossings' tolerance (mm) :func:`bridge_window`'s ``lo`` is
#: measured: a path that stops short of it lies clear of every bridge, beyond a hair
_CLEAR = 1e-8


def bridge_window(
    state: GameState, c: tuple[float, float], d: tuple[float, float], most: float
) -> tuple[float, float] | None:
    """How far (mm, ``lo`` and ``hi``) the straight path from ``c`` toward ``d`` (a unit
    vector) may run, up to ``most``, before :func:`crosses_bridge` finds it crosses a bridge,
    without asking it at each length: it finds none for a path shorter than ``lo`` and finds
    one for any longer than ``hi`` (to about 1e-9 mm; inf: none up to ``most``), from where
    the ray first comes near each bridge and first enters it. ``None`` when a bridge is not
    a convex ring or the ray runs along a side within a hair of it: ask
    :func:`crosses_bridge`."""
    sides = _prepared(state).bridge_sides
    if sides is None:
        return None
    lo = hi = math.inf
    near = 1e-6 + _CLEAR  # (path_crossings' tolerance: a path within it meets the bridge)
    try:
        for s in sides:
            lo = min(lo, flat.ray_entry(s, c, d, most, near))
            hi = min(hi, flat.ray_entry(s, c, d, most, 0.0))
    except flat.Unsure:
        return None
    return lo, hi


_PREPARED: dict[int, _Prepared] = {}


def _prepared(state: GameState) -> _Prepared:
    hit = _PREPARED.get(id(state.table))
    if hit is None or hit.table is not state.table or hit.rules is not state.rules:
        if len(_PREPARED) > 64:
            _PREPARED.clear()
        hit = _PREPARED[id(state.table)] = _Prepared(state)
    return hit


def path_facts(
    state: GameState,
    unit: Unit,
    path: list[Vec],
    facing: float,
    start_facing: float,
    end: Body | None = None,
    whole: bool | None = None,
) -> PathFacts:
    """The facts of a move along ``path`` (unit centre positions, mm) ending at ``facing``
    (they depend on the table and the path alone: measured once per path). ``end``: the
    body at the path's end, when the caller has made it, and ``whole`` whether it lies wholly
    on the table (:func:`on_table` of it), when the caller has asked."""
    prepared = _prepared(state)
    key = (tuple(p.as_tuple() for p in path), facing, start_facing)
    known = prepared.paths.get(key)
    if known is None:
        if len(prepared.paths) > 20_000:
            prepared.paths.clear()
        known = prepared.paths[key] = _path_facts(state, path, facing, start_facing, end, whole)
    return known


def _path_facts(
    state: GameState,
    path: list[Vec],
    facing: float,
    start_facing: float,
    end: Body | None = None,
    whole: bool | None = None,
) -> PathFacts:
    rules = state.rules
    ln = tt.path_length(path)
    prepared = _prepared(state)
    box = _box(path)
    crossings = tt.path_crossings(path, prepared.near(path, box)) if len(path) > 1 else []
    whole_on_road = False
    if prepared.roads and len(path) > 1 and prepared.may_cover(path, box):
        whole_on_road = prepared.on_road(path)
    if not crossings and len(path) > 1:  # most paths meet no feature: nothing to add up
        return _plain_facts(state, rules, ln, whole_on_road, path, facing, start_facing, end, whole)
    return _summed_facts(
        state, ln, whole_on_road, crossings, path, facing, start_facing, end, whole
    )


def _summed_facts(
    state: GameState,
    ln: float,
    whole_on_road: bool,
    crossings: list[tt.Crossing],
    path: list[Vec],
    facing: float,
    start_facing: float,
    end: Body | None,
    whole: bool | None = None,
) -> PathFacts:
    """:func:`_path_facts` from the path's length, road and crossings: what each crossing
    adds (bridges, streams not bridged, town, woods and rough), the table, straight ahead."""
    rules = state.rules
    prepared = _prepared(state)
    bridge = any(c.kind == "bridge" for c in crossings)
    streams = 0
    for c in crossings:
        if c.kind != "stream":
            continue
        if prepared.bridges and len(path) > 1 and prepared.bridged(c.feature, path):
            continue  # crossed by the bridge: the bridge rule applies instead
        streams += c.crossings
    town = sum(c.inside for c in crossings if c.kind == "town")
    rough = sum(c.inside for c in crossings if c.kind in ("woods", "rough"))
    through_town = any(c.kind == "town" for c in crossings)
    if len(path) == 1 and features(state, "town"):
        through_town = bool(tt.features_at(path[0], features(state, "town")))
    if whole is None:
        whole = on_table(state, Body(path[-1], facing, rules.footprint) if end is None else end)
    straight = straight_ahead(path, facing, start_facing, rules.mm(_straight_n(state)), _tol(state))
    return PathFacts(
        length=rules.n(ln),
        whole_on_road=whole_on_road,
        bridge=bridge,
        bridge_len=rules.n(sum(c.inside for c in crossings if c.kind == "bridge")),
        streams=streams,
        town=rules.n(town),
        rough=rules.n(rough),
        through_town=through_town,
        on_table=whole,
        straight_ahead=straight,
        crossed=tuple(dict.fromkeys(c.feature.name for c in crossings)),
    )


def _plain_facts(
    state: GameState,
    rules: Any,
    ln: float,
    whole_on_road: bool,
    path: list[Vec],
    facing: float,
    start_facing: float,
    end: Body | None,
    whole: bool | None = None,
) -> PathFacts:
    """:func:`_path_facts` of a path of two points or more that meets no feature: no bridge,
    stream, town or rough (each sum over no crossing is 0, each ``any`` False), nothing
    crossed; the length, the road, the table and straight ahead as measured."""
    if whole is None:
        whole = on_table(state, Body(path[-1], facing, rules.footprint) if end is None else end)
    straight = straight_ahead(path, facing, start_facing, rules.mm(_straight_n(state)), _tol(state))
    zero = rules.n(0)
    return PathFacts(
        length=rules.n(ln),
        whole_on_road=whole_on_road,
        bridge=False,
        bridge_len=zero,
        streams=0,
        town=zero,
        rough=zero,
        through_town=False,
        on_table=whole,
        straight_ahead=straight,
        crossed=(),
    )


def _straight_n(state: GameState) -> float:
    return state.rules.movement.straight_ahead


def _tol(state: GameState) -> float:
    return state.rules.geometry.straight_tolerance_deg


def straight_ahead(
    path: list[Vec], facing: float, start_facing: float, tail_mm: float, tol: float
) -> bool:
    """Whether the last ``tail_mm`` of the path run straight ahead along ``facing``
    (2 by 2, Moving to contact). A path shorter than that must keep the starting facing."""
    run = 0.0
    for a, b in itertools.pairwise(reversed(path)):
        # a.distance(b) and tt.bearing(b, a) on floats: the same operations (one difference,
        # its length; a length of at least 1e-9 gives the bearing of the difference)
        dx, dy = a.x - b.x, a.y - b.y
        seg = math.hypot(dx, dy)
        if seg < 1e-9:
            continue
        heading = tt.normalise(math.degrees(math.atan2(dx, dy)))
        if abs(((heading - facing + 180) % 360) - 180) > tol:
            return False
        run += seg
        if run >= tail_mm - 1e-6:
            return True
    return abs(((start_facing - facing + 180) % 360) - 180) <= tol


def rout_destination(state: GameState, unit: Unit, away_from: Unit | None) -> Body | None:
    """Where a routing unit ends: a full move straight away from the cause (ASSUMPTION: the
    nearest enemy when no cause is given), facing away, stopped at the table edge."""
    if unit.body is None:
        return None
    cause = away_from
    if cause is None or cause.body is None:
        placed = [e for e in state.live(state.enemy_of(unit.side)) if e.body is not None]
        cause = nearest(unit.body, placed)
    if cause is None or cause.body is None:
        heading = tt.normalise(unit.body.facing + 180)
    else:
        heading = tt.bearing(cause.body.centre, unit.body.centre)
    frac = state.rules.movement.rout_move_fraction
    dist = state.rules.mm(state.utype(unit).move * frac)
    return _clamped(state, unit.body, heading, dist)


def nearest(body: Body, placed: list[Unit]) -> Unit | None:
    """The unit of ``placed`` (each with a body) nearest ``body`` edge to edge, ties by id:
    ``min`` of every unit's (distance, id), but a unit whose centre is so far that it cannot
    beat the nearest measured so far is not measured (a lower bound: the centres' distance
    less both radii, a micron to spare; issue 29)."""
    if not placed:
        return None
    x, y, r, hypot = body.centre.x, body.centre.y, body.radius, math.hypot
    bounds = sorted(
        (max(0.0, hypot(x - b.centre.x, y - b.centre.y) - r - b.radius), i)
        for i, b in enumerate(e.body for e in placed)
        if b is not None
    )
    best: tuple[float, str, int] | None = None
    for low, i in bounds:
        if best is not None and low > best[0] + 1e-6:
            break  # this one and every later one are farther than the nearest
        e = placed[i]
        assert e.body is not None
        found = (tt.distance(body, e.body), e.id, i)
        if best is None or found < best:
            best = found
    return None if best is None else placed[best[2]]


def pushed_back(state: GameState, unit: Unit, away_from: Unit, n: float) -> Body | None:
    """``unit`` moved ``n`` [n] straight away from ``away_from``, keeping its facing
    (2 by 2, Melee: repulsed [2], recoils a full move), stopped at the table edge."""
    if unit.body is None or away_from.body is None:
        return None
    heading = tt.bearing(away_from.body.centre, unit.body.centre)
    b = _clamped(state, unit.body, heading, state.rules.mm(n))
    return b.moved_to(b.centre, unit.body.facing)


def _clamped(state: GameState, body: Body, heading: float, dist: float) -> Body:
    lo, hi = 0.0, dist
    end = body.moved_to(body.centre + Vec.heading(heading, dist), heading)
    if on_table(state, end):
        return end
    w, d, e = state.table.width, state.table.depth, _EDGE_EPS
    # each trial is body.moved_to(body.centre + Vec.heading(heading, mid), heading), asked
    # on_table: its centre and corners computed here as Vec.heading, Vec.__add__ and
    # Body.corners compute them (the same operations in the same order: the same floats),
    # without making the trial bodies
    r = math.radians(heading)
    sx, sy = math.sin(r), math.cos(r)
    x0, y0 = body.centre.x, body.centre.y
    facing = tt.normalise(heading)
    hw, hd = body.footprint.width / 2, body.footprint.depth / 2
    f, q = math.radians(facing), math.radians(facing + 90.0)
    fx, fy, rx, ry = math.sin(f), math.cos(f), math.sin(q), math.cos(q)
    lo_x, hi_x, lo_y, hi_y = -e, w + e, -e, d + e
    for _ in range(40):  # bisection for the furthest point still on the table
        mid = (lo + hi) / 2
        cx, cy = x0 + sx * mid, y0 + sy * mid
        if _corners_within(cx, cy, fx, fy, rx, ry, hw, hd, lo_x, hi_x, lo_y, hi_y):
            lo = mid
        else:
            hi = mid
    return body.moved_to(body.centre + Vec.heading(heading, lo), heading)


# -- the table's edges, in arithmetic (the table is a rectangle: no shapely needed) -----------
_EDGE_EPS = 1e-6


def _corners_within(
    cx: float,
    cy: float,
    fx: float,
    fy: float,
    rx: float,
    ry: float,
    hw: float,
    hd: float,
    lo_x: float,
    hi_x: float,
    lo_y: float,
    hi_y: float,
) -> bool:
    """A body's four corners (centre ``cx, cy``, facing ``fx, fy``, right ``rx, ry``, half
    width and half depth) all within the box, worked on floats as ``Body.corners`` works them
    (the same operations in the same order: the same floats), in its corners' order."""
    return (
        lo_x <= cx + fx * hd + rx * -hw <= hi_x
        and lo_y <= cy + fy * hd + ry * -hw <= hi_y
        and lo_x <= cx + fx * hd + rx * hw <= hi_x
        and lo_y <= cy + fy * hd + ry * hw <= hi_y
        and lo_x <= cx + fx * -hd + rx * hw <= hi_x
        and lo_y <= cy + fy * -hd + ry * hw <= hi_y
        and lo_x <= cx + fx * -hd + rx * -hw <= hi_x
        and lo_y <= cy + fy * -hd + ry * -hw <= hi_y
    )


def _points(thing: Body | Vec) -> list[Vec]:
    return list(thing.corners()) if isinstance(thing, Body) else [thing]


def on_table(state: GameState, thing: Body | Vec) -> bool:
    """Wholly on the table (TableTop.on_table, for the rectangle it is)."""
    w, d, e = state.table.width, state.table.depth, _EDGE_EPS
    if type(thing) is Body:  # its four corners, in order, as all() over _points asks them,
        # worked on floats as Body.corners works them (the same operations in the same order:
        # the same floats), without making the corners' vectors (issue 29)
        hw, hd = thing.footprint.width / 2, thing.footprint.depth / 2
        fr, rr = math.radians(thing.facing), math.radians(thing.facing + 90.0)
        fx, fy, rx, ry = math.sin(fr), math.cos(fr), math.sin(rr), math.cos(rr)
        cx, cy = thing.centre.x, thing.centre.y
        return _corners_within(cx, cy, fx, fy, rx, ry, hw, hd, -e, w + e, -e, d + e)
    return all(-e <= p.x <= w + e and -e <= p.y <= d + e for p in _points(thing))


def edge_distance(state: GameState, thing: Body | Vec, edge: str) -> float:
    """Distance (mm) from the nearest part of ``thing`` to one table edge (0 if over it)."""
    if not on_table(state, thing):
        return 0.0
    w, d = state.table.width, state.table.depth
    pts = _points(thing)
    if edge == "south":
        gap = min(p.y for p in pts)
    elif edge == "north":
        gap = min(d - p.y for p in pts)
    elif edge == "west":
        gap = min(p.x for p in pts)
    else:
        gap = min(w - p.x for p in pts)
    return max(0.0, gap)


def nearest_edge(state: GameState, thing: Body | Vec) -> tuple[str, float]:
    """The edge nearest ``thing`` and its distance; ties: south, north, west, east."""
    best = min(("south", "north", "west", "east"), key=lambda e: edge_distance(state, thing, e))
    return best, edge_distance(state, thing, best)


#: a unit faces a point when the point's bearing is within this many degrees of its facing
#: (a turn to face it would change nothing: reading 49; facings are recorded to 0.01 degree)
FACED_DEG = 0.01


def faces(body: Body, point: Vec) -> bool:
    """Whether ``body`` already faces ``point`` (a turn to face it would be no turn)."""
    return abs(tt.relative_bearing(body, point)) < FACED_DEG


def passed_through(
    state: GameState,
    mover: Unit,
    path: list[Vec],
    facing: float,
    end: Body,
) -> Unit | None:
    """The first unit (not ``mover``) whose base ``mover``'s base would pass
    through on ``path`` (its centre's points, mm) rather than stop at (reading 50: a move may
    not pass through an enemy, nor through a friend unless ``[movement]
    pass_through_friends``). Along each leg the base faces the way it goes (``facing``
    kept, or its reverse, on a leg that runs along it: an advance or a retire); a unit the
    base touches at a leg's start stands in the way only if the leg would enter it (a
    neighbour in line does not), one the base overlaps there once turned to the leg is not
    judged for that leg (the turn at a corner is, by :func:`turned_onto`: reading 33), and a
    leg may end up to 1 mm into a base (the overlap a move may end with, reading 26). The
    last leg reaches the bases the move ends touching (``end``, the base at its end: turned
    to its final facing there, a move to contact): they are where it stops, not in its way."""
    fp = state.rules.footprint
    skip: tuple[str, ...] = (mover.id,)
    friends = mover.side if state.rules.movement.pass_through_friends else None
    last = len(path) - 2
    for i, (a, b) in enumerate(itertools.pairwise(path)):
        run = a.distance(b)
        if run <= 1.0:
            continue
        heading = tt.bearing(a, b)
        along = (heading - facing) % 360.0
        turned = 1e-6 < along < 180.0 - 1e-6 or 180.0 + 1e-6 < along < 360.0 - 1e-6
        body = Body(a, heading if turned else facing, fp)
        here = skip
        if turned:  # (turned at the corner: a base it overlaps there is not judged)
            near = state.near(body, 0.0)
            here = (*here, *(o.id for o in near if o.body and tt.overlaps(body, o.body, 1.0)))
        while True:
            way = in_the_way(state, body, heading, run - 1.0, here, friends)
            if way is None:
                break
            o = way[0]
            if i == last and o.body and tt.in_contact(end, o.body, state.rules.contact_mm):
                here = (*here, o.id)  # where it stops: look beyond it
                continue
            return o
    return None


def turned_onto(state: GameState, mover: Unit, path: list[Vec], facing: float) -> Unit | None:
    """The first unit (not ``mover``) whose base ``mover``'s base would come to lie on where it
    turns at a corner of ``path`` (its centre's points, mm; ``facing`` its facing at the
    start) to face the next leg: a turn may not end on another base (reading 33), at a
    corner of a path as in place (up to the 1 mm a move may end with, reading 26). A leg
    along its facing or straight back (an advance, a retire) turns it not."""
    fp = state.rules.footprint
    was = facing
    for a, b in itertools.pairwise(path):
        if a.distance(b) <= 1.0:
            continue
        heading = tt.bearing(a, b)
        along = (heading - facing) % 360.0  # (as :func:`passed_through` faces each leg)
        turned = 1e-6 < along < 180.0 - 1e-6 or 180.0 + 1e-6 < along < 360.0 - 1e-6
        now = heading if turned else facing
        if abs((now - was + 180.0) % 360.0 - 180.0) > 1e-6:  # a corner: it turns here
            body = Body(a, now, fp)
            for o in state.near(body, 0.0):
                if o.id != mover.id and o.body is not None and tt.overlaps(body, o.body, 1.0):
                    return o
        was = now
    return None


def in_the_way(
    state: GameState,
    body: Body,
    heading: float,
    run: float,
    skip: tuple[str, ...],
    passed: str | None = None,
) -> tuple[Unit, float] | None:
    """The first unit (not in ``skip``) that ``body`` sliding ``run`` mm straight along
    ``heading`` would run into, and how far it gets first (mm); None when the way is clear.
    A unit already touching it (a neighbour in line, side to side) stands in the way only if
    the slide would enter it, not when it slides along it (2 by 2, Moving to contact).
    ``passed``: a side whose units the slide passes through (reading 50)."""
    found: tuple[Unit, float] | None = None
    for o in state.near(body, run + 1.0):  # only a base within the slide's reach may block
        if o.id in skip or o.body is None or o.side == passed:
            continue
        block = tt.contact_distance(body, heading, o.body)
        if block is None or block >= run - 1e-6:
            continue
        if block <= 1e-6:  # touching already: does the slide enter it?
            probe = body.moved_to(body.centre + Vec.heading(heading, min(run, 2.0)))
            if not tt.overlaps(probe, o.body, 0.01):
                continue
        if found is None or block < found[1]:
            found = (o, block)
    return found


def faced(state: GameState, u: Unit, charger: Unit) -> tuple[Body, Body, str | None]:
    """A charged unit turned (about its centre) to face its charger, the charger set front to
    front with it (2 by 2, Moving to contact), and what stops it, if anything: no base ends on
    another nor off the table (readings 26, 33, 52: the referee never places a base on
    another; the text gives the turn, not a shove of the bases around)."""
    assert u.body is not None and charger.body is not None
    turned = u.body.facing_toward(charger.body.centre)
    gap = state.rules.footprint.depth
    spot = turned.centre + turned.forward().scale(gap)
    moved = Body(spot, tt.normalise(turned.facing + 180), charger.body.footprint)
    for who, body in ((u, turned), (charger, moved)):
        if not on_table(state, body):
            return turned, moved, f"{who.name} would end off the table"
        for o in state.near(body, 0.0):
            if o.id in (u.id, charger.id) or o.body is None:
                continue
            if tt.overlaps(body, o.body, 1.0):
                return turned, moved, f"{who.name} would end on {o.name}"
    return turned, moved, None
