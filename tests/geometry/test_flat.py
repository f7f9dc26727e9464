"""vedette.geometry.flat answers as shapely does (issue 26 item 8: a 2 by 2 ``todo`` judges moves
and shots without importing shapely, and must judge them the same).

Each plain-arithmetic question is put to shapely too, on random shapes and paths: coordinates
drawn from a coarse grid as often as not, so that paths touch sides, run along them, pass
through vertices and end on edges. Wherever ``flat`` answers (it may leave a case within a hair
of a boundary to shapely by raising ``Unsure``), the booleans and counts are shapely's and the
lengths agree to 1e-9 mm. Shapes as tabletop's features make them: areas, bare lines, bands of
a width, circles.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import LineString, Point
from shapely.ops import unary_union

from tests.sizes import examples
from vedette import rules
from vedette.geometry import flat
from vedette.geometry import tabletop as tt
from vedette.geometry.tabletop import Body, Feature, Vec

#: a coordinate: on a coarse grid (touching, collinear, shared vertices) or anywhere
coord = st.one_of(
    st.integers(0, 8).map(float),
    st.floats(0, 8, allow_nan=False, allow_infinity=False),
)
point = st.tuples(coord, coord)


@st.composite
def features(draw: Any) -> Feature:
    kind = draw(st.sampled_from(["area", "box", "line", "band", "circle"]))
    if kind == "area":
        return Feature.area("woods", "w", draw(st.lists(point, min_size=3, max_size=5)))
    if kind == "box":
        (x0, y0), (x1, y1) = draw(point), draw(point)
        return Feature.area("town", "t", [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    if kind == "line":
        return Feature.line("stream", "s", draw(st.lists(point, min_size=2, max_size=4)))
    if kind == "band":
        ends = draw(st.lists(point, min_size=2, max_size=2))
        return Feature.line("road", "r", ends, draw(st.sampled_from([0.5, 1.0, 2.0, 3.7])))
    return Feature.circle("hill", "h", draw(point), draw(st.sampled_from([0.5, 1.0, 2.5])))


paths = st.lists(point, min_size=1, max_size=4)


def shapely_crossing(feature: Feature, pts: list[tuple[float, float]]) -> Any:
    path = [Vec(*p) for p in pts]
    return tt._shapely_crossing(feature, path, tt._line(path), 1e-6)


def test_feature_shapes_have_shapelys_vertices() -> None:
    """A circle's 64 points and a band's corners are the ones shapely builds, to the bit."""
    circle = Feature.circle("hill", "h", (300.5, 200.25), 50.0)
    band = Feature.line("road", "r", [(10.3, 20.7), (500.1, 300.9)], 12.0)
    area = Feature.area("woods", "w", [(0, 0), (4, 0), (4, 3), (0, 3)])
    for f in (circle, band, area):
        shape = f.flat
        assert shape is not None and shape.kind == "ring"
        assert set(shape.points) == set(f.shape.exterior.coords)
    assert Feature.line("road", "r", [(0, 0), (5, 0), (5, 5)], 2.0).flat is None  # bent band
    assert Feature.area("woods", "w", [(0, 0), (4, 4), (4, 0), (0, 4)]).flat is None  # bow tie


def test_a_path_through_a_wood_is_measured_in_arithmetic() -> None:
    """The usual case is answered (not left to shapely): a path crossing a wood and a stream."""
    wood = Feature.area("woods", "w", [(10, 10), (30, 10), (30, 30), (10, 30)]).flat
    stream = Feature.line("stream", "s", [(0, 50), (100, 40)]).flat
    assert wood is not None and stream is not None
    met = flat.meet(wood, [(0, 20), (20, 20), (40, 25)], 1e-6)
    assert met is not None and met.crossings == 2 and not met.starts_inside
    assert met.inside == pytest.approx(10 + math.hypot(10, 2.5))
    assert met.first == pytest.approx(10)
    across = flat.meet(stream, [(50, 0), (50, 100)], 1e-6)
    assert across is not None and across.crossings == 1 and across.first == pytest.approx(45)
    assert flat.meet(stream, [(0, 0), (100, 0)], 1e-6) is None


@settings(max_examples=examples(250), deadline=None)
@given(features(), paths)
def test_meet_is_shapelys_crossing(feature: Feature, pts: list[tuple[float, float]]) -> None:
    shape = feature.flat
    if shape is None:
        return
    try:
        met = flat.meet(shape, pts, 1e-6)
    except flat.Unsure:
        return
    theirs = shapely_crossing(feature, pts)
    if met is None:
        assert theirs is None
        return
    assert theirs is not None
    first, c = theirs
    assert (met.crossings, met.starts_inside, met.ends_inside) == (
        c.crossings,
        c.starts_inside,
        c.ends_inside,
    )
    assert met.inside == pytest.approx(c.inside, abs=1e-9)
    assert met.first == pytest.approx(first, abs=1e-9)


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(features(), min_size=1, max_size=4), paths)
def test_path_crossings_are_shapelys(fs: list[Feature], pts: list[tuple[float, float]]) -> None:
    """tabletop.path_crossings (arithmetic where it can) lists what shapely finds, in order."""
    assume(all(f.shape.is_valid for f in fs))  # shapely's overlay refuses a bow tie
    path = [Vec(*p) for p in pts]
    mine = tt.path_crossings(path, fs)
    theirs = [c for c in (shapely_crossing(f, pts) for f in fs) if c is not None]
    theirs.sort(key=lambda fc: fc[0])
    assert [c.feature for c in mine] == [c.feature for _, c in theirs]
    for a, (_, b) in zip(mine, theirs, strict=True):
        assert (a.crossings, a.starts_inside, a.ends_inside) == (
            b.crossings,
            b.starts_inside,
            b.ends_inside,
        )
        assert a.inside == pytest.approx(b.inside, abs=1e-9)


@pytest.mark.parametrize(
    "pts",
    [
        [(4.0, 0.0), (0.0, 0.0)],
        [(0.0, 0.0), (4.0, 0.0)],
        [(-1.0, 1.0), (3.0, 1.0)],
        [(3.0, -1.0), (3.0, 0.5)],
    ],
)
def test_a_path_along_a_side_and_on_past_its_corner_is_not_covered(
    pts: list[tuple[float, float]],
) -> None:
    """A path that runs along a side of an area and on past its corner, farther than the
    margin: not covered (hypothesis found flat saying covered: the corner on the path was not a
    cut, so the part outside was taken for inside)."""
    town = Feature.area("town", "t", [(0.0, 0.0), (3.0, 0.0), (3.0, 1.0), (0.0, 1.0)])
    assert town.flat is not None
    assert not LineString(pts).covered_by(town.shape.buffer(0.5))
    assert flat.covered(pts, [town.flat], 0.5) is False


@settings(max_examples=examples(120), deadline=None)
@given(st.lists(features(), min_size=1, max_size=3), paths)
def test_covered_is_shapelys_grown_union(fs: list[Feature], pts: list[tuple[float, float]]) -> None:
    shapes = [f.flat for f in fs]
    if None in shapes:
        return
    try:
        mine = flat.covered(pts, [s for s in shapes if s is not None], 0.5)
    except flat.Unsure:
        return
    line = LineString(pts) if len(pts) > 1 else Point(pts[0])
    assert mine == bool(unary_union([f.shape for f in fs]).buffer(0.5).covers(line))


def _covered_both_ways(pts: list[tuple[float, float]], shapes: list[Any], grow: float) -> Any:
    """``flat.covered`` of a path of two points or more as it was before issue 29 (the
    oracle): covered at both reaches always asked, the inner one deciding first."""
    inner = grow * math.cos(math.pi / 32) - flat.HAIR
    outer = grow * 1.011 + flat.HAIR
    hi = flat._covered(pts, shapes, outer)
    lo = flat._covered(pts, shapes, inner)
    return True if lo else False if not hi else flat.Unsure


@settings(max_examples=examples(400), deadline=None)
@given(
    st.lists(features(), min_size=1, max_size=3),
    st.lists(point, min_size=2, max_size=4),
    st.sampled_from([0.5, 0.25, 1.0, 2.0]),
)
def test_covered_asks_the_inner_reach_only_of_a_path_covered_at_the_outer(
    fs: list[Feature], pts: list[tuple[float, float]], grow: float
) -> None:
    """``covered`` asks the inner reach only when the outer one covers the path (each span
    grows with the reach, in floats too): the same answer, or the same Unsure, as asking
    both; and a path covered at a reach is covered at any larger one."""
    shapes = [f.flat for f in fs]
    assume(None not in shapes)
    grown = [s for s in shapes if s is not None]
    try:
        flat._no_overlap(pts)
    except flat.Unsure:
        return  # a path that runs over itself: Unsure either way, before any reach is asked
    try:
        mine: Any = flat.covered(pts, grown, grow)
    except flat.Unsure:
        mine = flat.Unsure
    assert mine == _covered_both_ways(pts, grown, grow)
    for r in (0.0, 0.1, grow / 2, grow):
        if flat._covered(pts, grown, r):
            assert flat._covered(pts, grown, r + 1e-9) and flat._covered(pts, grown, r * 1.5)


@settings(max_examples=examples(100), deadline=None)
@given(features(), st.lists(point, min_size=2, max_size=4))
def test_hits_are_shapelys_intersection_points(
    feature: Feature, pts: list[tuple[float, float]]
) -> None:
    shape = feature.flat
    if shape is None or shape.kind != "line":
        return
    try:
        mine = flat.hits(shape, pts)
    except flat.Unsure:
        return
    hit = feature.shape.intersection(LineString(pts))
    theirs = [] if hit.is_empty else [(g.x, g.y) for g in getattr(hit, "geoms", [hit])]
    flat_mine = [v for _, p in sorted(mine, key=lambda h: h[1]) for v in p]
    assert flat_mine == pytest.approx([v for p in sorted(theirs) for v in p], abs=1e-9)


bodies = st.builds(
    Body.at,
    st.floats(0, 8, allow_nan=False),
    st.floats(0, 8, allow_nan=False),
    st.one_of(st.sampled_from([0.0, 45.0, 90.0, 180.0]), st.floats(0, 360, allow_nan=False)),
    st.sampled_from([1.0, 2.0, 3.5]),
    st.sampled_from([0.5, 1.0, 2.0]),
)


@settings(max_examples=examples(100), deadline=None)
@given(features(), bodies)
def test_feature_distance_is_shapelys(feature: Feature, body: Body) -> None:
    assume(not feature.shape.is_empty)  # a band of no length: shapely's distance is NaN
    assert tt.feature_distance(feature, body) == pytest.approx(
        float(feature.shape.distance(body.polygon())), abs=1e-9
    )


@settings(max_examples=examples(200), deadline=None)
@given(features(), bodies)
def test_a_body_partly_in_an_area_is_shapelys(feature: Feature, body: Body) -> None:
    """``body_features(..., "any")`` (a wheel or turn into woods, 2 by 2) answers in arithmetic
    where clear (apart, or wholly inside) and as shapely's overlap of positive area always."""
    assume(not feature.shape.is_empty and feature.shape.is_valid)
    if not feature.is_area:  # a bare line: shapely's intersects, as before
        assert tt._any_in_arithmetic(feature, body) is None
        return
    expected = float(feature.shape.intersection(body.polygon()).area) > tt._EPS
    assert (tt.body_features(body, [feature], "any") == [feature]) == expected
    known = tt._any_in_arithmetic(feature, body)
    assert known is None or known == expected


def test_a_body_well_inside_or_apart_from_a_wood_needs_no_shapely() -> None:
    wood = Feature.area("woods", "w", [(0, 0), (100, 0), (100, 100), (0, 100)])
    assert tt._any_in_arithmetic(wood, Body.at(50, 50, 30, 25, 12)) is True
    assert tt._any_in_arithmetic(wood, Body.at(150, 50, 0, 25, 12)) is False
    assert tt._any_in_arithmetic(wood, Body.at(100, 50, 0, 25, 12)) is True  # astride the edge
    assert tt._any_in_arithmetic(wood, Body.at(112.5, 50, 0, 25, 12)) is None  # touching


@settings(max_examples=examples(100), deadline=None)
@given(bodies, bodies, st.sampled_from([0.0, 30.0, 45.0, 60.0]))
def test_in_arc_is_shapelys(firer: Body, target: Body, half: float) -> None:
    """Whether any part of the target lies in the firer's arc: shapely's ``intersects``."""
    far = 10_000.0 + tt.centre_distance(firer, target) + 2 * (firer.radius + target.radius)
    zone = tt.arc_polygon(firer, half, far)
    assert tt.in_arc(firer, target, half, mode="any") == bool(zone.intersects(target.polygon()))


def _apart_or_unsure(fa: Any, fb: Any, gap: float, ask: Any) -> Any:
    try:
        return ask(fa, fb, gap)
    except flat.Unsure:
        return flat.Unsure


@settings(max_examples=examples(400), deadline=None)
@given(
    st.one_of(
        features(), bodies.map(lambda b: Feature.area("woods", "b", tt._flat_body(b).points))
    ),
    st.one_of(bodies.map(tt._flat_body), features().map(lambda f: f.flat)),
    st.sampled_from([0.0, 1e-6, 0.5, 1.0]),
)
def test_shapes_apart_is_shapes_distance_beyond_the_gap(a: Feature, fb: Any, gap: float) -> None:
    """``shapes_apart`` (issue 29: a pair of sides whose boxes lie apart by more than the gap
    not measured) answers as ``shapes_distance`` compared with the gap does, Unsure alike."""
    fa = a.flat
    assume(fa is not None and fb is not None)
    mine = _apart_or_unsure(fa, fb, gap, flat.shapes_apart)
    oracle = _apart_or_unsure(fa, fb, gap, lambda x, y, g: flat.shapes_distance(x, y) > g)
    assert mine == oracle


@settings(max_examples=examples(100), deadline=None)
@given(features(), features())
def test_shapes_distance_is_shapelys(a: Feature, b: Feature) -> None:
    fa, fb = a.flat, b.flat
    if fa is None or fb is None:
        return
    try:
        mine = flat.shapes_distance(fa, fb)
    except flat.Unsure:
        return
    assert mine == pytest.approx(float(a.shape.distance(b.shape)), abs=1e-9)
    assert flat.intersects(fa, fb) == bool(a.shape.intersects(b.shape))


def _edges_as_before(shape: flat.Flat) -> list[tuple[Any, Any]]:
    """``Flat.edges`` as the property worked them out at each read before issue 29's third
    round of session 15 (the oracle)."""
    pts = shape.points
    ends = pts[1:] + pts[:1] if shape.kind == "ring" else pts[1:]
    pairs = zip(pts[: len(ends)], ends, strict=True)
    return [(a, b) for a, b in pairs if a != b]


@given(
    st.lists(st.tuples(coord, coord), min_size=1, max_size=7),
    st.sampled_from(["ring", "line"]),
)
def test_a_shapes_edges_made_with_it_are_those_worked_out_from_its_points(
    points: list[tuple[float, float]], kind: Any
) -> None:
    """A shape's sides, made once with it, are the sides its points give (the ring closed,
    repeated points giving no side), for rings and lines, repeated points included, and for
    the shapes of the features of every shipped scenario's table."""
    shape = flat.Flat(kind, tuple(points))
    assert list(shape.edges) == _edges_as_before(shape)
    assert shape == flat.Flat(kind, tuple(points)) and hash(shape) == hash(
        flat.Flat(kind, shape.points)
    )


def test_the_shipped_tables_shapes_have_the_sides_their_points_give() -> None:
    rs = rules.get("two_by_two")
    n = 0
    for name in rs.scenarios:
        state = rs.initial(rs.scenario(name), {})
        for f in state.table.features:
            if f.flat is not None:
                assert list(f.flat.edges) == _edges_as_before(f.flat)
                n += 1
    assert n > 5
