"""2 by 2's path facts in plain arithmetic (issue 26 item 8) answer as shapely does, also where
a path runs along the edge of a road's cover and the arithmetic leaves the answer to shapely."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from shapely.geometry import LineString
from shapely.ops import unary_union

from vedette.geometry import flat
from vedette.geometry.tabletop import Feature, TableTop, Vec
from vedette.rules.two_by_two.facts import _Prepared

ROAD = Feature.line("road", "road", [(0.0, 100.0), (600.0, 100.0)], 12.0)
BRIDGE = Feature.area(
    "bridge", "bridge", [(290.0, 90.0), (310.0, 90.0), (310.0, 110.0), (290.0, 110.0)]
)
STREAM = Feature.line("stream", "stream", [(300.0, 0.0), (300.0, 600.0)])


def prepared() -> _Prepared:
    table = TableTop(600.0, 600.0, (ROAD, BRIDGE, STREAM))
    return _Prepared(SimpleNamespace(table=table, rules=None))  # type: ignore[arg-type]


def shapely_on_road(path: list[tuple[float, float]]) -> bool:
    cover = unary_union([ROAD.shape, BRIDGE.shape]).buffer(0.5)
    return bool(cover.covers(LineString(path)))


@pytest.mark.parametrize(
    ("path", "sure"),
    [
        ([(10.0, 100.0), (200.0, 101.0)], True),  # down the road
        ([(10.0, 100.0), (200.0, 130.0)], True),  # off it
        ([(10.0, 106.5), (200.0, 106.5)], False),  # along the cover's very edge
        ([(10.0, 106.502), (200.0, 106.502)], False),  # within a hair outside it
        ([(10.0, 100.0), (298.0, 100.0), (298.0, 112.0)], True),  # onto the bridge's corner
    ],
)
def test_on_road_is_shapelys_cover(path: list[tuple[float, float]], sure: bool) -> None:
    shapes = [f.flat for f in (ROAD, BRIDGE)]
    try:
        flat.covered(path, [s for s in shapes if s is not None], 0.5)
        answered = True
    except flat.Unsure:
        answered = False
    assert answered == sure
    assert prepared().on_road([Vec(*p) for p in path]) == shapely_on_road(path)


@pytest.mark.parametrize(
    "path",
    [
        [(250.0, 100.0), (350.0, 100.0)],  # over the bridge
        [(250.0, 300.0), (350.0, 300.0)],  # through the water
        [(250.0, 110.5), (350.0, 110.5)],  # by the bridge's edge
        [(300.0, 50.0), (300.0, 150.0)],  # down the stream itself
    ],
)
def test_bridged_is_shapelys(path: list[tuple[float, float]]) -> None:
    line = LineString(path)
    hit = STREAM.shape.intersection(line)
    want = bool(BRIDGE.shape.buffer(0.5).covers(hit))
    assert prepared().bridged(STREAM, [Vec(*p) for p in path]) == want
