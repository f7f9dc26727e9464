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
