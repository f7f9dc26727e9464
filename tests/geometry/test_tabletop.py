"""Table-top geometry (vedette.geometry.tabletop): bodies, distances, arcs, terrain, contact."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.sizes import examples
from vedette.geometry import tabletop as tt
from vedette.geometry.tabletop import (
    INCH,
    Body,
    Feature,
    Footprint,
    Side,
    TableTop,
    Vec,
    arc_of,
    arc_polygon,
    bearing,
    body_features,
    centre_distance,
    distance,
    features_at,
    features_between,
    in_arc,
    in_contact,
    nearest_edge,
    normalise,
    overlaps,
    path_crossings,
    path_length,
    relative_bearing,
    side_facing,
    sweep,
    touching_side,
    within,
)

BASE = Footprint(25.0, 12.0)


def unit(x: float, y: float, facing: float = 0.0) -> Body:
    return Body(Vec(x, y), facing, BASE)


def test_inch() -> None:
    assert INCH == 25.4


def test_normalise_and_bearing() -> None:
    assert normalise(-90) == 270
    assert normalise(720) == 0
    assert bearing(Vec(0, 0), Vec(0, 10)) == pytest.approx(0)
    assert bearing(Vec(0, 0), Vec(10, 0)) == pytest.approx(90)
    assert bearing(Vec(0, 0), Vec(0, -10)) == pytest.approx(180)
    assert bearing(Vec(0, 0), Vec(-10, 0)) == pytest.approx(270)
    assert bearing(Vec(1, 1), Vec(1, 1)) == 0.0


def test_footprint_must_be_positive() -> None:
    with pytest.raises(ValueError):
        Footprint(0, 12)


def test_corners_facing_north() -> None:
    b = unit(100, 100)
    fl, fr, rr, rl = b.corners()
    assert fl.as_tuple() == pytest.approx((87.5, 106))
    assert fr.as_tuple() == pytest.approx((112.5, 106))
    assert rr.as_tuple() == pytest.approx((112.5, 94))
    assert rl.as_tuple() == pytest.approx((87.5, 94))
    assert b.polygon().area == pytest.approx(300)


def test_corners_facing_east() -> None:
    b = unit(100, 100, 90)
    fl, fr, _, _ = b.corners()
    # facing east, the front edge is the east side, running north (left) to south (right)
    assert fl.as_tuple() == pytest.approx((106, 112.5))
    assert fr.as_tuple() == pytest.approx((106, 87.5))
    assert b.edge_midpoint(Side.FRONT).as_tuple() == pytest.approx((106, 100))
    assert b.edge_midpoint(Side.LEFT).as_tuple() == pytest.approx((100, 112.5))


def test_moves() -> None:
    b = unit(0, 0, 90).advanced(10)
    assert b.centre.as_tuple() == pytest.approx((10, 0))
    assert b.turned(-180).facing == pytest.approx(270)
    assert unit(0, 0).facing_toward(Vec(-5, 0)).facing == pytest.approx(270)
    assert Body.at(1, 2, -10, 25, 12).facing == pytest.approx(350)


def test_distance_edge_to_edge() -> None:
    a, b = unit(0, 0), unit(0, 32)
    assert distance(a, b) == pytest.approx(20)  # 32 - 6 - 6
    assert centre_distance(a, b) == pytest.approx(32)
    assert distance(a, Vec(0, 6)) == 0
    assert distance(Vec(0, 0), Vec(3, 4)) == pytest.approx(5)


def test_contact_and_overlap() -> None:
    a = unit(0, 0)
    b = unit(0, 12.5, 180)  # face to face, 0.5 mm apart
    assert in_contact(a, b)
    assert not in_contact(a, b, tolerance=0.1)
    assert not overlaps(a, b)
    assert overlaps(a, unit(0, 5))
    assert touching_side(a, b) is Side.FRONT
    assert touching_side(b, a) is Side.FRONT
    side_on = unit(-25, 0)
    assert touching_side(a, side_on) is Side.LEFT
    assert touching_side(a, unit(0, -12)) is Side.REAR
    assert touching_side(a, unit(0, 40)) is None


def test_touching_corner_prefers_longest_run() -> None:
    a = unit(0, 0)
    # b sits in front of a, offset right so it overlaps the front edge by 5 mm
    b = unit(20, 12)
    assert touching_side(a, b) is Side.FRONT


def test_relative_bearing_and_arcs() -> None:
    a = unit(0, 0)  # faces north
    assert relative_bearing(a, Vec(0, 10)) == pytest.approx(0)
    assert relative_bearing(a, Vec(10, 0)) == pytest.approx(90)
    assert relative_bearing(a, Vec(-10, 0)) == pytest.approx(-90)
    assert relative_bearing(a, Vec(0, -10)) == pytest.approx(180)
    assert arc_of(a, Vec(5, 10)) is Side.FRONT
    assert arc_of(a, Vec(10, 10)) is Side.FRONT  # exactly 45: front
    assert arc_of(a, Vec(11, 10)) is Side.RIGHT
    assert arc_of(a, Vec(-11, 10)) is Side.LEFT
    assert arc_of(a, Vec(-1, -10)) is Side.REAR
    assert arc_of(a, Vec(10, -9), front_half_angle=45, rear_half_angle=60) is Side.REAR
    assert arc_of(a, unit(30, 0)) is Side.RIGHT
    assert Side.LEFT.is_flank and not Side.REAR.is_flank
    with pytest.raises(ValueError):
        arc_of(a, Vec(0, 1), 100, 100)


def test_side_facing_by_diagonals() -> None:
    a = unit(0, 0)  # 25 wide, 12 deep: the front zone is wide
    assert side_facing(a, Vec(20, 10)) is Side.FRONT
    assert side_facing(a, Vec(20, 5)) is Side.RIGHT
    assert side_facing(a, Vec(-20, -5)) is Side.LEFT
    assert side_facing(a, Vec(0, -1)) is Side.REAR


def test_fire_arc_from_front_edge() -> None:
    a = unit(0, 0)
    assert in_arc(a, unit(0, 100), 45)
    assert in_arc(a, unit(80, 100), 45, mode="any")
    assert not in_arc(a, unit(150, 100), 45)
    assert not in_arc(a, unit(0, -50), 45)
    # corridor straight ahead (half-angle 0): exactly the width of the front edge
    assert in_arc(a, Vec(12, 50), 0, mode="centre")
    assert not in_arc(a, Vec(13, 50), 0, mode="centre")
    # reach limits the range
    assert not in_arc(a, unit(0, 100), 45, reach=50)
    assert in_arc(a, unit(0, 100), 45, reach=90)
    # "all": every part of the target
    assert not in_arc(a, unit(60, 60), 45, mode="all")
    assert in_arc(a, unit(0, 60), 45, mode="all")
    # rear arc via direction
    assert in_arc(a, unit(0, -60), 45, direction=180)
    with pytest.raises(ValueError):
        arc_polygon(a, 90, 10)


def test_centre_arc_wedge() -> None:
    a = unit(0, 0)
    assert in_arc(a, Vec(0, 50), 30, origin="centre", mode="centre")
    assert not in_arc(a, Vec(50, 50), 30, origin="centre", mode="centre")
    assert in_arc(a, Vec(0, -50), 180, reach=60, origin="centre", mode="centre")
    assert arc_polygon(a, 180, 10, origin="centre").area == pytest.approx(math.pi * 100, rel=0.01)


def test_path_crossings() -> None:
    woods = Feature.area("woods", "Bois", [(0, 100), (100, 100), (100, 200), (0, 200)])
    stream = Feature.line("stream", "Ru", [(-50, 300), (150, 300)])
    road = Feature.line("road", "Chaussée", [(50, -50), (50, 500)], width=10)
    path = [Vec(50, 0), Vec(50, 400)]
    found = path_crossings(path, [stream, woods, road])
    assert [c.feature.name for c in found] == ["Chaussée", "Bois", "Ru"]
    by = {c.kind: c for c in found}
    assert by["woods"].inside == pytest.approx(100)
    assert by["woods"].crossings == 2
    assert not by["woods"].starts_inside
    assert by["stream"].crossings == 1 and by["stream"].inside == 0
    assert by["road"].inside == pytest.approx(400)
    assert by["road"].starts_inside and by["road"].ends_inside
    # a path beside everything meets nothing
    assert path_crossings([Vec(500, 0), Vec(500, 400)], [woods, stream, road]) == []
    # a one-point path meets what contains it
    assert [c.kind for c in path_crossings([Vec(50, 150)], [woods, stream])] == ["woods"]
    with pytest.raises(ValueError):
        path_crossings([], [woods])


def test_path_length_and_zigzag_crossings() -> None:
    stream = Feature.line("stream", "Ru", [(0, 50), (200, 50)])
    zig = [Vec(0, 0), Vec(10, 100), Vec(20, 0)]
    assert path_length(zig) == pytest.approx(2 * math.hypot(10, 100))
    assert path_crossings(zig, [stream])[0].crossings == 2


def test_features_at_and_body_features() -> None:
    town = Feature.area("town", "Ville", [(0, 0), (50, 0), (50, 50), (0, 50)])
    hedge = Feature.line("hedge", "Haie", [(0, 60), (50, 60)])
    assert features_at(Vec(10, 10), [town, hedge]) == [town]
    assert features_at(Vec(10, 60), [town, hedge]) == [hedge]
    inside = unit(25, 25)
    half = unit(25, 50)  # straddles the edge exactly half in
    assert body_features(inside, [town], "all") == [town]
    assert body_features(half, [town], "half") == [town]
    assert body_features(half, [town], "all") == []
    assert body_features(half, [town], "any") == [town]
    assert body_features(unit(25, 55), [town], "half") == []
    assert body_features(unit(25, 58), [hedge], "any") == [hedge]
    assert body_features(unit(25, 58), [hedge], "centre") == []
    assert Feature.circle("copse", "c", (0, 0), 10).is_area


def test_features_between() -> None:
    wall = Feature.line("wall", "Mur", [(-50, 50), (50, 50)])
    assert [c.kind for c in features_between(unit(0, 0), unit(0, 100), [wall])] == ["wall"]
    assert features_between(unit(0, 0), unit(100, 0), [wall]) == []


def test_within_sorted() -> None:
    here = unit(0, 0)
    others = {"b": unit(0, 40), "a": unit(0, 40), "far": unit(0, 400), "c": Vec(0, 20)}
    got = within(here, others, 30)
    assert [k for k, _ in got] == ["c", "a", "b"]
    assert got[0][1] == pytest.approx(14)
    assert [k for k, _ in within(here, others, 30, measure="centre")] == ["c"]


def test_table_edges() -> None:
    t = TableTop(1000, 600)
    b = unit(500, 20)
    assert t.on_table(b)
    assert not t.on_table(unit(5, 20))
    assert t.edge_distance(b, "south") == pytest.approx(14)
    assert t.edge_distance(b, "north") == pytest.approx(574)
    assert t.edge_distance(unit(5, 300), "west") == 0.0
    assert nearest_edge(t, b) == ("south", pytest.approx(14))


def test_union_rotate_and_wide_lines() -> None:
    from vedette.geometry.tabletop import rotate, union

    a = Feature.area("town", "a", [(0, 0), (10, 0), (10, 10), (0, 10)])
    b = Feature.area("town", "b", [(10, 0), (20, 0), (20, 10), (10, 10)])
    assert union([a.shape, b.shape]).area == pytest.approx(200)
    r = rotate(a.shape, 90, Vec(0, 0))  # clockwise: (10, 0) goes to (0, -10)
    assert r.bounds == pytest.approx((0, -10, 10, 0))
    road = Feature.line("road", "r", [(0, 0), (100, 0)], width=10)
    assert road.is_area and road.shape.area == pytest.approx(1000)
    assert not Feature.line("stream", "s", [(0, 0), (100, 0)]).is_area


def test_sweep() -> None:
    s = sweep(unit(0, 0), unit(0, 100))
    assert s.area == pytest.approx(25 * 112)
    assert s.intersects(unit(0, 50).polygon())
    assert not s.intersects(unit(40, 50).polygon())


def _spin(b: Body, theta: float) -> Body:
    """The body carried round the origin by ``theta`` degrees clockwise."""
    r = math.radians(theta)
    c = b.centre
    x = c.x * math.cos(r) + c.y * math.sin(r)
    y = -c.x * math.sin(r) + c.y * math.cos(r)
    return Body(Vec(x, y), b.facing + theta, b.footprint)


@settings(max_examples=examples(60), deadline=None)
@given(
    st.floats(-500, 500),
    st.floats(-500, 500),
    st.floats(0, 359.9),
    st.floats(-500, 500),
    st.floats(-500, 500),
    st.floats(0, 359.9),
)
def test_distance_symmetric_and_rotation_invariant(
    x: float, y: float, f: float, x2: float, y2: float, theta: float
) -> None:
    a, b = Body(Vec(x, y), f, BASE), Body(Vec(x2, y2), 0.0, BASE)
    assert distance(a, b) == pytest.approx(distance(b, a), abs=1e-6)
    assert distance(a, b) <= centre_distance(a, b) + 1e-6
    # carrying the whole layout round together changes no relative fact
    a2, b2 = _spin(a, theta), _spin(b, theta)
    assert distance(a2, b2) == pytest.approx(distance(a, b), abs=1e-6)
    if centre_distance(a, b) > 1e-3:  # the bearing of a coincident point is arbitrary
        rel, rel2 = relative_bearing(a, b), relative_bearing(a2, b2)
        assert min(abs(rel2 - rel), 360 - abs(rel2 - rel)) < 1e-6


@settings(max_examples=examples(60), deadline=None)
@given(st.floats(0, 359.9), st.floats(-179, 179))
def test_relative_bearing_round_trip(facing: float, rel: float) -> None:
    a = Body(Vec(0, 0), facing, BASE)
    target = a.centre + Vec.heading(facing + rel, 100)
    assert relative_bearing(a, target) == pytest.approx(rel, abs=1e-6)


def test_distance_is_shapelys_edge_to_edge_distance() -> None:
    """``distance`` is plain arithmetic on the corners (no shapely at start-up): it gives what
    shapely gives for bodies apart, touching, overlapping or one inside another, and points."""
    import random

    rng = random.Random(3)
    for _ in range(examples(3000)):
        a, b = (
            Body.at(
                rng.uniform(0, 200),
                rng.uniform(0, 200),
                rng.uniform(0, 360),
                rng.uniform(2, 80),
                rng.uniform(2, 40),
            )
            for _ in range(2)
        )
        p = Vec(rng.uniform(0, 200), rng.uniform(0, 200))
        for x, y in ((a, b), (a, p), (p, b), (p, Vec(1.0, 2.0)), (a, a)):
            assert tt.distance(x, y) == pytest.approx(tt._shape(x).distance(tt._shape(y)), abs=1e-9)
    # base to base: a body and the one just in front of it touch (0), one mm apart is 1
    front = Body.at(0, 0, 0, 40, 20)
    assert tt.distance(front, front.advanced(20)) == pytest.approx(0, abs=1e-9)
    assert tt.distance(front, front.advanced(21)) == pytest.approx(1)


def test_a_points_distance_to_a_body_is_the_general_arithmetics() -> None:
    """A point's distance to a body (a general to a unit: issue 29) is worked out on the
    body's corners alone: the very float the general case gives (``_distance``), either way
    round, for points inside, on a corner or a side, and outside."""
    import random

    rng = random.Random(7)
    for _ in range(examples(3000)):
        b = Body.at(
            rng.uniform(0, 200),
            rng.uniform(0, 200),
            rng.choice([0.0, 90.0, 45.0, rng.uniform(0, 360)]),
            rng.uniform(2, 80),
            rng.uniform(2, 40),
        )
        corners = tt._corners(b)
        p = rng.choice(
            [
                Vec(rng.uniform(0, 200), rng.uniform(0, 200)),
                b.centre,
                corners[rng.randrange(4)],
                (corners[0] + corners[1]).scale(0.5),
            ]
        )
        assert tt.distance(p, b) == tt._distance(p, b)
        assert tt.distance(b, p) == tt._distance(b, p)


def test_overlaps_gives_shapelys_answer() -> None:
    """``overlaps`` clips the two rectangles by arithmetic (no shapely at start-up): the same
    answer as shapely's common area against the tolerance, for bodies apart, touching, side
    by side, overlapping a little or much, and one inside another."""
    import random

    rng = random.Random(5)
    cases = [(Body.at(0, 0, 0, 40, 20), Body.at(0, 20, 0, 40, 20))]  # base to base
    cases.append((Body.at(0, 0, 0, 40, 20), Body.at(40, 0, 0, 40, 20)))  # side by side
    cases.append((Body.at(0, 0, 0, 40, 20), Body.at(0, 0, 0, 10, 5)))  # one inside
    for _ in range(examples(3000)):
        a = Body.at(rng.uniform(0, 100), rng.uniform(0, 100), rng.uniform(0, 360), 40, 20)
        b = Body.at(rng.uniform(0, 100), rng.uniform(0, 100), rng.choice([0, 90, 45, 7.5]), 40, 20)
        cases.append((a, b))
    for a, b in cases:
        for tol in (0.01, 1.0, 50.0):
            want = float(a.polygon().intersection(b.polygon()).area) > tol
            assert tt.overlaps(a, b, tol) == want, (a, b, tol)


def test_a_features_box_holds_its_shape() -> None:
    """A feature's ``box`` (from its recipe, no shapely) holds the shape's exact bounds: the
    same for an area or a bare line, no smaller for a band or a circle."""
    feats = [
        Feature.area("woods", "w", [(0, 0), (30, 5), (12, 40)]),
        Feature.line("stream", "s", [(0, 0), (50, 10), (60, 60)]),
        Feature.line("road", "r", [(0, 0), (50, 10), (60, 60)], 12.0),
        Feature.circle("hill", "h", (5, 5), 10.0),
    ]
    for f in feats:
        a, b, c, d = f.box
        x0, y0, x1, y1 = f.shape.bounds
        assert a <= x0 and b <= y0 and c >= x1 and d >= y1, f.name
        if f.name in ("w", "s"):
            assert f.box == pytest.approx(f.shape.bounds)


def test_two_bodies_distance_is_the_general_arithmetics_float_for_float() -> None:
    """Two bodies' distance (issue 29: the corners nearest first, a corner whose bound passes
    the least found not measured; meeting bodies found in line) is the very float the general
    case gives (``_distance``, every corner to every side), for bodies far apart, near, side
    by side, touching, crossing and one inside the other, of sizes alike and unlike."""
    import random

    rng = random.Random(29)
    kinds: set[str] = set()
    for _ in range(examples(8000)):
        a = Body.at(100.0, 100.0, rng.choice([0.0, 90.0, rng.uniform(0, 360)]), 40.0, 20.0)
        far = rng.choice([0.0, 20.0, 20.5, 40.0, rng.uniform(0, 60), rng.uniform(0, 400)])
        c = a.centre + Vec.heading(rng.uniform(0, 360), far)
        w, d = rng.choice([(40.0, 20.0), (40.0, 20.0), (10.0, 5.0), (80.0, 30.0)])
        facing = rng.choice([a.facing, a.facing + 90.0, rng.uniform(0, 360)])
        b = Body(c, facing, tt.Footprint(w, d))
        got = tt._body_distance.__wrapped__(a, b)
        assert got == tt._distance(a, b), (a, b)
        kinds.add("apart" if got > 1.0 else "near" if got > 0.0 else "meet")
    assert kinds == {"apart", "near", "meet"}
    # side by side, front to rear, corner to corner: touching (0.0) as the general case says
    for b in (a.advanced(20.0), a.moved_to(a.centre + a.right().scale(40.0)), a.turned(45.0)):
        assert tt._body_distance.__wrapped__(a, b) == tt._distance(a, b)


def test_distance_and_bearing_of_points_are_the_vectors_float_for_float() -> None:
    """A point's distance and bearing to another (issue 29: worked on floats, no difference
    vector made) are the very floats the difference vector gave: its length, the compass
    bearing of it (0 for points closer than a nanometre)."""
    import random

    rng = random.Random(123)
    zero = 0
    for _ in range(examples(8000)):
        a = Vec(rng.choice([0.0, 19.05, rng.uniform(-700, 700)]), rng.uniform(-700, 700))
        step = rng.choice([0.0, 1e-10, 1e-9, 2e-9, rng.uniform(0, 1), rng.uniform(0, 900)])
        b = a + Vec.heading(rng.uniform(0, 360), step)
        d = b - a
        assert a.distance(b) == (a - b).length() and b.distance(a) == d.length()
        want = 0.0 if d.length() < 1e-9 else tt.normalise(math.degrees(math.atan2(d.x, d.y)))
        assert tt.bearing(a, b) == want
        zero += want == 0.0
    assert zero > 100
