"""Kuryakin, Disorder: "Each collision D3 D's per unit involved". A move whose base runs into
another unit's (``actions.collisions``) owes the collision's chits at once: ``todo`` shows the
owed ``disorder cause=collision`` naming the mover and every unit it ran into (one move is one
collision: each unit rolls its D3 once), the engine refuses anything else naming the rule, and
``waive`` is the logged way round. The debt is a folded fact (``Unit.collided``): undo, export
and import keep it."""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from solonap_helpers import make, unit

from vedette import rules
from vedette.engine import Game, Store
from vedette.errors import RuleViolation
from vedette.geometry import tabletop as tt
from vedette.rules.solo_napoleonic import actions, geom
from vedette.sim.play import Setup, play_game

OWED = "disorder cause=collision units=F1,F2"


def game(
    units: Sequence[Mapping[str, Any]],
    db: str = ":memory:",
    house: Mapping[str, Any] | None = None,
) -> Game:
    """No brigadiers: every unit its own card in the order given; F1's card is active. A1
    stands far off (the enemy a game needs)."""
    units = [*units, unit("A1", "Allies", x=1500, y=1500)]
    scen = {"title": "collide", "sides": ["French", "Allies"], "units": units, "generals": []}
    g = Game.create(Store(db), "g", "solonap", scen, seed=3, house_rules=house)
    g.perform("control", {})
    g.perform("deal", {"cards": {u["id"]: i + 1 for i, u in enumerate(units)}, "chance": {}})
    g.perform("next", {})
    return g


def owed(g: Game) -> list[str]:
    return [t.command() for t in g.todo() if t.owed]


def collide(house: Mapping[str, Any] | None = None, **f1: Any) -> Game:
    """F1 moves 120mm straight up the table into F2 (bases 30mm deep, centres 120mm apart;
    forced dice: random movement 0, no swerve)."""
    g = game([unit("F1", x=500, y=400, **f1), unit("F2", x=500, y=520)], house=house)
    g.perform("move", {"unit": "F1", "distance": 120, "mode": "move"}, [6, 0, 3])
    return g


def test_a_move_into_another_unit_owes_the_collision_chits_before_anything_else() -> None:
    g = collide()
    assert g.state.unit("F1").collided == ("F2",)
    owe = [t for t in g.todo() if t.owed]
    assert [t.command() for t in owe] == [OWED]
    assert owe[0].rule == "Kuryakin, Disorder"
    # nothing else goes on, naming the rule, the owed command and the waiver
    with pytest.raises(RuleViolation, match="Kuryakin, Disorder") as e:
        g.perform("next", {})
    assert OWED in str(e.value) and "waive collision:F1" in str(e.value)
    with pytest.raises(RuleViolation, match="Kuryakin, Disorder"):  # not another collision
        g.perform("disorder", {"cause": "collision", "units": ["F2", "A1"]}, [1, 1])
    # the chits: a D3 for each unit involved, and the debt is paid
    out = g.perform("disorder", {"cause": "collision", "units": ["F1", "F2"]}, [2, 3])
    assert [r.final for r in out.rolls] == [2, 3]
    assert (g.state.unit("F1").disorder, g.state.unit("F2").disorder) == (2, 3)
    assert g.state.unit("F1").collided == () and owed(g) == []
    g.perform("next", {})  # play goes on


def test_a_move_into_two_units_is_one_collision_each_unit_rolling_once() -> None:
    g = game([unit("F1", x=500, y=400), unit("F2", x=420, y=520), unit("F3", x=580, y=520)])
    g.perform("move", {"unit": "F1", "distance": 120, "mode": "move"}, [6, 0, 3])
    assert owed(g) == ["disorder cause=collision units=F1,F2,F3"]
    out = g.perform("disorder", {"cause": "collision", "units": ["F1", "F2", "F3"]}, [1, 2, 3])
    assert [g.state.unit(x).disorder for x in ("F1", "F2", "F3")] == [1, 2, 3]
    assert len(out.rolls) == 3 and owed(g) == []


def test_a_skirmishing_mover_rolls_and_takes_no_chits_and_the_debt_is_paid() -> None:
    # Kuryakin, Disorder: skirmishers take no D while unformed; the unit it ran into does
    # (a friendly unit: a collision only by the house rule of reading K64)
    g = collide(formation="skirmish", house={"options": {"friendly_skirmishers_collide": True}})
    assert owed(g) == [OWED]
    g.perform("disorder", {"cause": "collision", "units": ["F1", "F2"]}, [2, 3])
    assert (g.state.unit("F1").disorder, g.state.unit("F2").disorder) == (0, 3)
    assert owed(g) == []


def test_a_move_that_meets_no_base_owes_nothing() -> None:
    # 50mm up to F2's rear edge: edge to edge is no collision
    g = game([unit("F1", x=500, y=400), unit("F2", x=500, y=480)])
    g.perform("move", {"unit": "F1", "distance": 50, "mode": "move"}, [6, 0, 3])
    assert g.state.unit("F1").collided == () and owed(g) == []


def test_waiving_the_collision_is_logged_and_undo_brings_it_back() -> None:
    g = collide()
    g.perform("waive", {"obligation": "collision:F1", "reason": "the bases did not meet"})
    assert owed(g) == [] and g.state.unit("F1").collided == ()
    assert (g.state.unit("F1").disorder, g.state.unit("F2").disorder) == (0, 0)
    assert g.records[-1].payload["procedure"] == "waive"
    assert "the bases did not meet" in g.records[-1].payload["message"]
    g.undo()
    assert owed(g) == [OWED]
    g.undo()  # the move itself undone: nothing owed
    assert owed(g) == [] and g.state.unit("F1").y == 400


def test_the_owed_collision_survives_export_and_import(tmp_path: Any) -> None:
    g = collide()
    again = Game.import_jsonl(Store(str(tmp_path / "i.db")), g.export_jsonl(), "again")
    assert again.state.unit("F1").collided == ("F2",) and owed(again) == [OWED]
    again.perform("disorder", {"cause": "collision", "units": ["F1", "F2"]}, [1, 1])
    assert owed(again) == []
    back = Game.import_jsonl(Store(str(tmp_path / "j.db")), again.export_jsonl(), "back")
    assert back.state.unit("F1").collided == () and back.state.unit("F2").disorder == 1


def _collisions_measured_at_every_place(state: Any, before: Any, after: Any) -> tuple[str, ...]:
    """The collision test as first written: a body made for every place along the move and
    each asked of ``tt.overlaps`` (the oracle of the places' prefilter)."""
    a, b = geom.body(before), geom.body(after)
    if a is None or b is None:
        return ()
    ax, ay = a.centre.x, a.centre.y
    vx, vy = b.centre.x - ax, b.centre.y - ay
    length2 = vx * vx + vy * vy
    out = []
    for o in state.units:
        ob = geom.body(o) if o.id != before.id and o.on_table else None
        if ob is None:
            continue
        if o.side == before.side and (o.skirmishing or before.skirmishing):
            continue  # a friendly skirmish screen (reading K64: the scenario's own default)
        k = 0.0 if length2 <= 0 else ((ob.centre.x - ax) * vx + (ob.centre.y - ay) * vy) / length2
        k = min(1.0, max(0.0, k))
        gap = math.hypot(ob.centre.x - ax - k * vx, ob.centre.y - ay - k * vy)
        if gap > a.footprint.radius + ob.footprint.radius + 1.0 or tt.overlaps(a, ob, 1.0):
            continue
        step = max(1.0, min(a.footprint.width, a.footprint.depth) / 2)
        n = max(1, math.ceil(math.sqrt(length2) / step))
        ways = [
            tt.Body(tt.Vec(ax + vx * i / n, ay + vy * i / n), b.facing, b.footprint)
            for i in range(1, n + 1)
        ]
        if any(tt.overlaps(w, ob, 1.0) for w in ways) and not actions.leaves_contact(
            state, before, o, b, ob, [(w.centre.x, w.centre.y) for w in ways]
        ):  # (reading K67: a unit touched before and only left is not run into)
            out.append(o.id)
    return tuple(out)


def test_collisions_ask_only_the_places_near_each_unit_and_find_what_every_place_finds() -> None:
    """``actions.collisions`` makes a body only for the places along a move whose centre is
    within both radii of the other unit's (the first test of ``tt.overlaps``) and whose base
    no side of either holds clear of the other (``actions._apart``): over the states
    of simulated games, each unit moved to random places (some far, some into its neighbours),
    it names the units the test of every place names."""
    rs = rules.get("solo_napoleonic")
    setup = Setup(rs.name, rs.scenario("sample"), max_actions=120)
    rng = random.Random(11)
    checked = hits = 0
    for index in range(3):
        played = play_game(setup, 2026, index, record=True)
        g = Game.create(Store(":memory:"), "c", rs.name, dict(setup.scenario), played.dice_seed)
        for proc, req in played.actions:
            g.perform(proc, req)
            state = g.state
            placed = [u for u in state.units if u.on_table]
            for _ in range(3):
                u = rng.choice(placed)
                other = rng.choice(placed)
                x = other.x + rng.uniform(-60, 60) if rng.random() < 0.6 else rng.uniform(0, 1800)
                y = other.y + rng.uniform(-60, 60) if rng.random() < 0.6 else rng.uniform(0, 1200)
                moved = dataclasses.replace(u, x=round(x, 1), y=round(y, 1))
                if rng.random() < 0.3:  # wheeled as well: its start and its way face apart
                    moved = dataclasses.replace(moved, facing=rng.choice((45.0, 90.0, 200.0)))
                got = actions.collisions(state, u, moved)
                assert got == _collisions_measured_at_every_place(state, u, moved), (u.id, x, y)
                checked += 1
                hits += bool(got)
    assert checked > 300 and hits > 20, (checked, hits)


def test_bases_told_apart_across_a_side_share_no_area_and_most_near_misses_are_told() -> None:
    """``actions._apart`` (the collision test's separating axes): two bases it says lie clear
    of each other share no area (``tt.overlaps`` with no tolerance, shapely's answer where
    close), over random bases of every facing and size, near each other, touching, and
    overlapping; and it tells most of the pairs that share none (it is what spares the test a
    body per place)."""
    rng = random.Random(5)
    told = clear = 0
    for _ in range(4000):
        a = tt.Body.at(
            rng.uniform(0, 200),
            rng.uniform(0, 200),
            rng.choice((0.0, 90.0, 180.0, rng.uniform(0, 360))),
            rng.choice((20.0, 40.0, 120.0, rng.uniform(5, 150))),
            rng.choice((10.0, 30.0, rng.uniform(5, 80))),
        )
        o = tt.Body.at(
            rng.uniform(0, 200),
            rng.uniform(0, 200),
            rng.choice((0.0, 45.0, 270.0, rng.uniform(0, 360))),
            rng.uniform(10, 150),
            rng.uniform(10, 80),
        )
        apart = actions._apart(actions._axes(a, o), a.centre.x, a.centre.y)
        share = tt.overlaps(a, o, 0.0)
        assert not (apart and share), (a, o)
        clear += not share
        told += apart
    assert clear > 1000 and told > 0.8 * clear, (clear, told)


def _nearest_measuring_every_enemy(state: Any, u: Any) -> Any:
    """The nearest enemy as ``actions.flee_direction`` first found it: every enemy on the table
    measured, the first of the nearest kept (the oracle of ``actions.nearest_enemy``)."""
    near = None
    for o in state.units:
        if o.side != u.side and o.on_table:
            d = geom.unit_distance(u, o)
            if d is not None and (near is None or d < near[0]):
                near = (d, o)
    return None if near is None else near[1]


def test_the_nearest_enemy_measures_only_those_that_may_be_nearest_and_finds_the_same() -> None:
    """Kuryakin, Morale (a rout runs away from the nearest enemy): ``actions.nearest_enemy``
    measures only the enemies whose least possible distance does not pass another's greatest;
    over the states of simulated games, each unit also set down at random places and facings
    (some among the enemy), it finds the enemy that measuring every one finds."""
    rs = rules.get("solo_napoleonic")
    setup = Setup(rs.name, rs.scenario("sample"), max_actions=150)
    rng = random.Random(3)
    checked = pruned = 0
    for index in range(3):
        played = play_game(setup, 2026, index, record=True)
        g = Game.create(Store(":memory:"), "n", rs.name, dict(setup.scenario), played.dice_seed)
        for proc, req in played.actions:
            g.perform(proc, req)
            state = g.state
            placed = [u for u in state.units if u.on_table]
            for u in placed:
                if rng.random() < 0.5:
                    other = rng.choice(placed)
                    x, y = other.x + rng.uniform(-150, 150), other.y + rng.uniform(-150, 150)
                    u = dataclasses.replace(u, x=x, y=y, facing=rng.uniform(0, 360))
                b = geom.body(u)
                assert b is not None
                got = actions.nearest_enemy(state, u, b)
                assert got is _nearest_measuring_every_enemy(state, u), u.id
                checked += 1
                enemies = sum(o.side != u.side and o.on_table for o in state.units)
                pruned += enemies > 1
    assert checked > 1000 and pruned > 500, (checked, pruned)


def test_the_first_of_two_enemies_equally_near_is_the_nearest() -> None:
    """Two enemies at the same distance, either side of a unit: the first in the scenario's
    order is the one it flees from, as when every enemy is measured."""
    s = make(
        [
            unit("F1", x=500.0, y=500.0, facing=0.0),
            unit("A1", "Allies", x=500.0, y=700.0, facing=180.0),
            unit("A2", "Allies", x=500.0, y=300.0, facing=0.0),
        ]
    )
    u = s.unit("F1")
    b = geom.body(u)
    assert b is not None
    assert geom.unit_distance(u, s.unit("A1")) == geom.unit_distance(u, s.unit("A2"))
    assert actions.nearest_enemy(s, u, b) is s.unit("A1")
    assert actions.flee_direction(s, u) == 180.0
