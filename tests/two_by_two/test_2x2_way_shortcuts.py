"""2 by 2: ``todo._halved``'s bridge boxes (looked up once per table) and its memo of the
ways that cross a bridge (an advance or retire over a bridge is offered its 1/2-rate
maximum, reading 7), against both ways measured, over simulated game states and bases set
down at random around the bridges. The test counts both verdicts so it can fail."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

from vedette import rules
from vedette.engine import Game, Store
from vedette.geometry.tabletop import Body, Feature, Vec
from vedette.rules.two_by_two import facts, todo
from vedette.sim.play import Setup, play_game


def _states(index: int, most: int) -> Iterator[Any]:
    """Each state of simulated 2 by 2 game ``index`` (seed 2026), as the engine reaches it."""
    rs = rules.get("two_by_two")
    setup = Setup(rs.name, rs.scenario("sample"), max_actions=most)
    played = play_game(setup, 2026, index, record=True)
    g = Game.create(Store(":memory:"), "ways", rs.name, dict(setup.scenario), played.dice_seed)
    for name, req in played.actions:
        yield g.state
        g.perform(name, req)


def _halved_measured(state: Any, u: Any, t: Any, reach: float) -> tuple[float, ...]:
    """``todo._halved`` without its boxes or memo: both ways measured."""
    mv = state.rules.movement
    b, mm = u.body, state.rules.mm(reach)
    ends = (b.centre + b.forward().scale(mm), b.centre + b.forward().scale(-mm))
    if not any(facts.crosses_bridge(state, [b.centre, e]) for e in ends):
        return ()
    figures = [t.move * mv.bridge_rate - u.spent]
    if u.road_only:
        figures.append((t.move + mv.road_bonus) * mv.bridge_rate - u.spent)
    return tuple(f for f in figures if f > 0.01)


def test_a_bridge_s_halved_maximum_is_the_one_measured() -> None:
    """Units of simulated states as they stand, and bases set down at random around each
    bridge (several facings and reaches at one place, each asked twice: the memo), by
    ``todo._halved`` and by measuring both ways: the same figures."""
    rng = random.Random(7)
    crossed = apart = 0
    for n, played in enumerate(_states(0, 300)):
        if n % 10:
            continue
        for state in (played, _bridged(played)):
            crossed, apart = _asked(rng, n, state, crossed, apart)
    assert crossed and apart


def _bridged(state: Any) -> Any:
    """``state`` on its table with two more bridges (the sample has one: each box counts)."""
    more = (
        Feature.circle("bridge", "Mill ford", (150.0, 420.0), 12.0),
        Feature.circle("bridge", "Weir", (480.0, 200.0), 9.0),
    )
    table = dataclasses.replace(state.table, features=(*state.table.features, *more))
    return dataclasses.replace(state, table=table)


def _asked(rng: random.Random, n: int, state: Any, crossed: int, apart: int) -> tuple[int, int]:
    """Units of ``state`` and random bases around its bridges, asked of both: the counts."""
    bridges = facts.features(state, "bridge")
    assert bridges
    fp = state.rules.footprint
    units = [u for u in state.units if u.body is not None and u.status == "table"]
    asks: list[tuple[Any, Any, float]] = []
    for u in units:
        asks.append((u, state.utype(u), rng.uniform(0.0, 6.0)))
    for f in bridges:
        x0, y0, x1, y1 = f.box
        for _ in range(10):
            at = Vec(rng.uniform(x0 - 100, x1 + 100), rng.uniform(y0 - 100, y1 + 100))
            u = rng.choice(units)
            t = state.utype(u)
            for facing, reach in itertools.product(
                (rng.uniform(0, 360), rng.choice((0.0, 90.0, 180.0))), (1.0, 4.5)
            ):
                spot = SimpleNamespace(
                    body=Body(at, facing, fp),
                    spent=rng.choice((0.0, 0.5)),
                    road_only=rng.random() < 0.5,
                )
                asks.append((spot, t, reach))
    for u, t, reach in asks:
        want = _halved_measured(state, u, t, reach)
        assert todo._halved(state, u, t, reach) == want, (n, u.body, reach)
        assert todo._halved(state, u, t, reach) == want  # (the memo's answer)
        if want:
            crossed += 1
        elif any(
            math.dist(u.body.centre.as_tuple(), b.shape.centroid.coords[0]) < 60 for b in bridges
        ):
            apart += 1
    return crossed, apart


def _short_searched(state: Any, b: Body, reach: float, sign: float) -> float | None:
    """``todo._short_of`` as T3 made it: a search over the lengths (1/100 [n]), each path
    measured against the bridges (``facts.crosses_bridge``)."""
    c, ahead, mm = b.centre, b.forward(), state.rules.mm

    def meets(n: float) -> bool:
        return facts.crosses_bridge(state, [c, c + ahead.scale(sign * mm(n))])

    if not meets(reach):
        return None
    top = math.floor(reach * 100 + 1e-6)
    if top <= 0 or not meets(top / 100):
        return max(top, 0) / 100
    lo, hi = 0, top
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if meets(mid / 100):
            hi = mid
        else:
            lo = mid
    return lo / 100


def test_the_way_short_of_a_bridge_is_the_one_searched() -> None:
    """``todo._short_of`` (where the way first comes near a bridge and enters it, worked out
    once: ``facts.bridge_window``) against the search over every length, for bases set down
    at random around each bridge of simulated states (the sample's square, two round ones, a
    slanting band, a five-sided deck): any facing, the table's axes, along a side (on its
    line, or a hair off its direction) and aimed at a corner (grazing ways), ahead and back:
    the same figure to 1/100 [n]. It counts ways stopped short, ways that meet no bridge,
    and those the window answered (most) and left to the search (grazing), so it can fail."""
    rng = random.Random(29)
    seen = {"short": 0, "none": 0, "window": 0, "searched": 0}
    answered = todo._short_in

    def counted(*args: Any) -> tuple[bool, float | None]:
        known, found = answered(*args)
        seen["window" if known else "searched"] += 1
        return known, found

    todo._short_in = counted  # type: ignore[assignment]
    try:
        for n, played in enumerate(_states(0, 300)):
            if n % 30:
                continue
            for state in (played, _bridged(played), _slanted(played)):
                _ways_near(rng, state, seen)
    finally:
        todo._short_in = answered  # type: ignore[assignment]
    assert seen["short"] > 100 and seen["none"] > 100
    assert seen["window"] > 10 * seen["searched"] > 0


def _slanted(state: Any) -> Any:
    """``state`` on its table with its bridge replaced by two whose sides slant: a band across
    the stream at an angle and a five-sided deck (sides nearly along a way are cut badly)."""
    more = (
        Feature.line("bridge", "Skew bridge", [(280.0, 300.0), (330.0, 345.0)], 14.0),
        Feature.area(
            "bridge",
            "Deck",
            [(420.0, 300.0), (452.0, 306.0), (461.0, 333.0), (437.0, 351.0), (413.0, 331.0)],
        ),
    )
    kept = tuple(f for f in state.table.features if f.kind != "bridge")
    return dataclasses.replace(state, table=dataclasses.replace(state.table, features=kept + more))


def _ways_near(rng: random.Random, state: Any, seen: dict[str, int]) -> None:
    """Bases around each bridge of ``state``, their ways ahead and back by both measures."""
    fp = state.rules.footprint
    for f in facts.features(state, "bridge"):
        x0, y0, x1, y1 = f.box
        corners = f.flat.points
        for _ in range(60):
            at = Vec(rng.uniform(x0 - 120, x1 + 120), rng.uniform(y0 - 120, y1 + 120))
            pick = rng.random()
            if pick < 0.2:  # along the table's axes, some on a box side's line
                facing = rng.choice((0.0, 90.0, 180.0, 270.0, 45.0))
                if rng.random() < 0.5:
                    at = Vec(rng.choice((x0, x1)), at.y)
            elif pick < 0.35:  # along a side, from a point of its line
                (ax, ay), (bx, by) = rng.choice(f.flat.edges)
                k = rng.uniform(-1.0, 2.0)
                at = Vec(ax + k * (bx - ax), ay + k * (by - ay))
                along = math.degrees(math.atan2(bx - ax, by - ay))
                facing = along + rng.choice((0.0, 180.0, 1e-9, 1e-5, 0.01))
            elif pick < 0.6:  # aimed at a corner: a grazing way
                px, py = rng.choice(corners)
                facing = math.degrees(math.atan2(px - at.x, py - at.y))
            else:
                facing = rng.uniform(0.0, 360.0)
            b = Body(at, facing, fp)
            reach = rng.choice((rng.uniform(0.0, 8.0), 2.0, 4.5, 6.0))
            for sign in (1.0, -1.0):
                want = _short_searched(state, b, reach, sign)
                assert todo._short_of(state, b, reach, sign) == want, (at, facing, reach, sign)
                seen["none" if want is None else "short"] += 1
