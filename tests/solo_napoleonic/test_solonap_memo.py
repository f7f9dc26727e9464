"""The referee's memos change no answer (issues 22, 29: ``todo`` made faster): seeded games
played from ``todo`` with every memo on and with every memo off (the old path: each offer's
dry run made afresh) give the same ``todo`` lines at every step (command, open choices,
refusals, owed steps), the same log and the same final state; and so do simulated games."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from tests.sizes import examples
from tests.todo_play import ended, fill
from vedette import rules
from vedette.engine import Game, Store
from vedette.errors import VedetteError
from vedette.rules.protocol import parsed_request, to_json
from vedette.rules.solo_napoleonic import flow, memo

RS = rules.get("solo_napoleonic")


def _lines(todo: list[Any]) -> list[str]:
    return [
        json.dumps(
            [
                t.command(),
                {k: [to_json(c) for c in cs] for k, cs in t.open.items()},
                t.refused,
                t.owed,
                t.text,
                t.obligation,
            ],
            default=str,
        )
        for t in todo
    ]


def game_trace(scenario: str, seed: int, steps: int = 40) -> list[str]:
    """Every todo line of a seeded game played from todo, the log and the final state."""
    rng = random.Random(seed)
    g = Game.create(Store(":memory:"), f"m{seed}", RS.name, RS.scenario(scenario), seed=seed)
    out: list[str] = []
    for _ in range(steps):
        if ended(g):
            break
        todo = g.todo(strict=True)
        out += _lines(todo)
        # asked again of the same state: the same answer (the todo is kept per state)
        assert _lines(g.todo(strict=True)) == _lines(todo)
        t = rng.choice([t for t in todo if t.owed] or todo)
        req = fill(t, rng)
        out.append(f"> {t.procedure} {json.dumps(req, sort_keys=True, default=str)}")
        g.perform(t.procedure, req)
    out += [json.dumps(r.payload, sort_keys=True, default=str) for r in g.records]
    out.append(json.dumps(RS.state_json(g.state), sort_keys=True, default=str))
    return out


@pytest.fixture
def memos_off() -> Iterator[None]:
    memo.set_enabled(False)
    try:
        yield
    finally:
        memo.set_enabled(True)


def traces(seeds: range) -> list[list[str]]:
    return [game_trace(s, seed) for s in RS.scenarios for seed in seeds]


def test_todo_play_is_the_same_with_and_without_memos() -> None:
    seeds = range(3)
    memo.set_enabled(True)
    fast = traces(seeds)
    memo.set_enabled(False)
    try:
        slow = traces(seeds)
    finally:
        memo.set_enabled(True)
    assert len(fast) == len(slow) == 2 * len(seeds)
    for a, b in zip(fast, slow, strict=True):
        assert a == b


def test_simulated_games_are_the_same_with_and_without_memos() -> None:
    from vedette.sim.play import Setup, play_game

    setup = Setup(RS.name, RS.scenario("sample"), max_actions=300)

    def games() -> list[Any]:
        out = []
        for i in range(2):
            p = play_game(setup, 7, i, record=True)
            out.append((p.result.winner, p.result.end, p.result.actions, p.actions))
        return out

    memo.set_enabled(True)
    fast = games()
    memo.set_enabled(False)
    try:
        slow = games()
    finally:
        memo.set_enabled(True)
    assert fast == slow


def test_the_simulators_quick_refusals_are_the_rules_refusals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Kuryakin, Firing (45° arc, range table) and Charge Test (reach: the charger's move): a
    fire or charge the simulator refuses at once, from the bodies' centres (issue 29), is one
    the rules refuse before any die, at every step of simulated games; and such games are the
    games played without the quick check (the memos off)."""
    from vedette.errors import VedetteError
    from vedette.rules.solo_napoleonic import fire, morale
    from vedette.rules.solo_napoleonic.requests import dry_run
    from vedette.rules.solo_napoleonic.ruleset import SoloNapoleonic
    from vedette.sim import play as sim_play

    told = {"fire": 0, "charge": 0, "open": 0}

    def checked(name: str, quick: Any, body: Any) -> Any:
        def check(state: Any, req: Any) -> bool:
            sure = bool(quick(state, req))
            if sure:
                told[name] += 1
                with pytest.raises(VedetteError):
                    dry_run(body, state, req)
            else:
                told["open"] += 1
            return sure

        return check

    monkeypatch.setattr(fire, "refused", checked("fire", fire.refused, fire.fire))
    monkeypatch.setattr(
        morale, "charge_refused", checked("charge", morale.charge_refused, morale.charge)
    )
    rs = SoloNapoleonic()  # its procedures made with the checked quick checks
    monkeypatch.setattr(sim_play.rules, "get", lambda name: rs)
    setup = sim_play.Setup(rs.name, rs.scenario("sample"), max_actions=400)
    memo.clear()
    quick = [sim_play.play_game(setup, 11, i, record=True).actions for i in range(3)]
    assert told["fire"] > 50 and told["charge"] > 50 and told["open"] > 50, told
    memo.set_enabled(False)
    try:
        slow = [sim_play.play_game(setup, 11, i, record=True).actions for i in range(3)]
    finally:
        memo.set_enabled(True)
    assert quick == slow


def test_a_verdict_is_remembered_for_its_own_state_only(memos_off: None) -> None:
    """The memo of one state is never read for another, even an equal one."""
    memo.set_enabled(True)
    s = RS.initial_state(RS.scenario("sample"), {})
    assert memo.of_state(s) is memo.of_state(s)
    from dataclasses import replace

    other = replace(s)
    assert other == s and memo.of_state(other) is not memo.of_state(s)


def test_facts_are_the_core_patch_event() -> None:
    """Every fact is the core's patch of a unit, a general or the turn (issue 28): logged in the
    patch's shape and read back equal by the core's one decoder."""
    from vedette.rules.patch import Patch
    from vedette.rules.solo_napoleonic import events as E

    for c in (*E.UNIT_FACTS, *E.GENERAL_FACTS, *E.TURN_FACTS):
        assert issubclass(c, Patch) and c.entity in ("unit", "general", "turn"), c
        f = sorted(c.touches or ())[0]
        e = c("U1", {f: (1, 2)}, {f: [0, 0]}, "why")  # held as a tuple, logged as a list
        data = {"entity": c.entity, "id": "U1", "set": {f: [1, 2]}, "was": {f: [0, 0]}}
        assert e.to_json() == {"kind": c.kind, "v": 2, "data": {**data, "why": "why"}}
        assert c.decode(e.to_json()["data"]) == e


def test_the_fire_arc_in_arithmetic_gives_in_arcs_answer() -> None:
    """Kuryakin, Firing (45° volley arc) and Skirmishers (180°, read as 89.9° each side of the
    front edge): the arc answered in arithmetic when clear (issue 29) is the geometry's own
    answer, for bodies anywhere, and for targets placed with a corner on a side of the arc."""
    from vedette.geometry.tabletop import Body, Vec, in_arc
    from vedette.rules.solo_napoleonic import geom

    rng = random.Random(29)
    answered = quick_answered = 0
    n = examples(4000)  # (tests/sizes.py: a quarter in make test, every kind of case still met)
    for k in range(n):
        f = Body.at(rng.uniform(0, 900), rng.uniform(0, 900), rng.uniform(0, 360), 60, 30)
        angle = rng.choice([45.0, 89.9, 0.0])
        if k % 2:  # a corner of the target on the arc's left or right side, or near it
            left = k % 4 == 1
            corner = f.corners()[0 if left else 1]
            c = corner + Vec.heading(f.facing + (-angle if left else angle), rng.uniform(5, 400))
            c = c + Vec(rng.choice([0.0, 1e-6, -1e-3, 0.5]), 0.0)
            t = Body.at(c.x, c.y, rng.choice([f.facing, f.facing + angle, 0.0]), 40, 20)
            if k % 8 == 3:  # or its centre there: the target across the side
                t = Body.at(
                    corner.x + (c.x - corner.x) / 2, corner.y + (c.y - corner.y) / 2, 0, 40, 20
                )
        else:
            t = Body.at(rng.uniform(0, 900), rng.uniform(0, 900), rng.uniform(0, 360), 40, 20)
        clear = geom._arc_clear(f, t, angle)
        if clear is not None:
            answered += 1
            assert clear == in_arc(f, t, angle), (f, t, angle)
        quick = geom._arc_quick(f, t, angle)  # (from the centre alone: fewer, never wrong)
        if quick is not None:
            quick_answered += 1
            assert quick == in_arc(f, t, angle) and clear in (None, quick), (f, t, angle)
        assert geom._in_arc(f, t, angle) == in_arc(f, t, angle), (f, t, angle)
    assert answered > n * 3 // 4  # most are clear: the arithmetic answers them
    assert quick_answered > n // 3


def test_within_a_reach_from_the_centres_is_the_measured_answer() -> None:
    """Kuryakin, Morale (friends within 300mm) and Generals (150mm control range): whether a
    unit or a general is within reach, answered from the centres when clear (issue 29), is the
    answer of the distance measured edge to edge, for units anywhere, touching, overlapping, and
    at a reach exactly the distance or a hair either side of it; unplaced: no answer."""
    from dataclasses import replace

    from vedette.rules.solo_napoleonic import geom

    s = RS.initial_state(RS.scenario("sample"), {})
    a0, b0, g0 = s.units[0], s.units[1], s.generals[0]
    rng = random.Random(29)
    bounded = 0
    n = examples(3000)
    for k in range(n):
        a = replace(a0, x=rng.uniform(0, 600), y=rng.uniform(0, 600), facing=rng.uniform(0, 360))
        if k % 3 == 0:  # close by: touching, overlapping or just apart
            x, y = a.x + rng.uniform(-40, 40), a.y + rng.uniform(-40, 40)
        else:
            x, y = rng.uniform(0, 600), rng.uniform(0, 600)
        b = replace(b0, x=x, y=y, facing=rng.choice([a.facing, 0.0, rng.uniform(0, 360)]))
        g = replace(g0, x=x, y=y)
        for d, ask in (
            (geom.unit_distance(a, b), lambda r: geom.within(a, b, r)),  # noqa: B023
            (geom.general_distance(g, a), lambda r: geom.general_within(g, a, r)),  # noqa: B023
        ):
            assert d is not None
            reach = rng.choice([d, d + 1e-9, d - 1e-9, d + 0.5, d - 0.5, 150.0, 300.0])
            assert ask(reach) is (d <= reach), (a, b, g, reach)
            bounded += abs(d - reach) > 50
    assert bounded > n // 3  # (most asked far from the reach: the bounds answer them)
    assert geom.within(replace(a0, x=None), b0, 300.0) is None
    assert geom.general_reach(replace(g0, x=None), a0, 150.0) is None


def test_a_generals_reach_reads_as_the_measured_distance() -> None:
    """Kuryakin, Generals (150mm control range): the control phase's verdict for a unit and
    the distance its words give ("212mm from Morand"), told from the general's distance in the
    unit's own frame (issue 29), are the measured ones: in or out alike, the same whole mm,
    for generals anywhere, a reach exactly the distance or a hair either side, and distances
    of exactly half a mm (where rounding could tip the words either way)."""
    from dataclasses import replace

    from vedette.geometry.tabletop import Vec
    from vedette.rules.solo_napoleonic import geom

    s = RS.initial_state(RS.scenario("sample"), {})
    a0, g0 = s.units[0], s.generals[0]
    rng = random.Random(150)
    for k in range(examples(3000)):
        a = replace(a0, x=rng.uniform(0, 600), y=rng.uniform(0, 600), facing=rng.uniform(0, 360))
        b = geom.body(a)
        assert b is not None
        if k % 3 == 0:  # straight ahead of its front edge, at a whole mm and a half
            front = b.to_world(b.footprint.depth / 2, rng.uniform(-10, 10))
            p = front + Vec.heading(a.facing, rng.randrange(0, 300) + 0.5)
        else:
            p = Vec(a.x + rng.uniform(-400, 400), a.y + rng.uniform(-400, 400))
        g = replace(g0, x=p.x, y=p.y)
        d = geom.general_distance(g, a)
        assert d is not None
        for reach in (d, d + 1e-9, d - 1e-9, 150.0, round(d)):
            got = geom.general_reach(g, a, reach)
            assert got is not None
            assert got[0] is (d <= reach) and f"{got[1]:.0f}" == f"{d:.0f}", (g, a, reach)
    assert geom.general_within(replace(g0, x=None), a0, 150.0) is None


def test_bodies_within_answers_only_what_the_measure_says() -> None:
    """Issue 29: ``geom.bodies_within`` answers "is the distance edge to edge within the
    reach" from cheap bounds (centres, inscribed and half-diagonal radii, boxes, a centre's
    distance to the other body) and is never wrong: for bodies of every shape (long lines,
    squares, columns), any facing, apart, touching, overlapping, and a reach exactly the
    distance, a hair either side, far either side, 0 or less, its answer (where it gives one)
    is the measured one; the bounds beyond the centres' answer a good share of the near
    questions (those it is there for: charges, contact, range bands)."""
    from vedette.geometry.tabletop import Body, Vec, distance
    from vedette.rules.solo_napoleonic import geom

    rng = random.Random(2029)
    n = examples(4000)
    answered = near_answered = 0
    for k in range(n):
        wa, da = rng.choice(
            [(120.0, 30.0), (60.0, 60.0), (30.0, 90.0), (rng.uniform(5, 200), rng.uniform(5, 200))]
        )
        wb, db = rng.choice(
            [(120.0, 30.0), (45.0, 45.0), (rng.uniform(5, 200), rng.uniform(5, 200))]
        )
        a = Body.at(rng.uniform(0, 400), rng.uniform(0, 400), rng.uniform(0, 360), wa, da)
        spread = 60.0 if k % 2 else 400.0
        b = Body.at(
            a.centre.x + rng.uniform(-spread, spread),
            a.centre.y + rng.uniform(-spread, spread),
            rng.choice([a.facing, a.facing + 180.0, rng.uniform(0, 360)]),
            wb,
            db,
        )
        d = distance(a, b)
        c = a.centre.distance(b.centre)
        for reach in (d, d + 1e-9, d - 1e-9, d + 0.5, d - 0.5, d + 50, d - 50, 0.0, -1.0, 5.0):
            got = geom.bodies_within(a, b, reach)
            if got is not None:
                assert got is (d <= reach), (a, b, reach, d)
                answered += 1
                if d <= reach < c:  # within, but not told by the centres alone
                    near_answered += 1
        for p in (a.centre, b.centre, Vec(a.centre.x + rng.uniform(-300, 300), a.centre.y)):
            # a point's distance in the body's frame is the measured one, to within rounding
            assert abs(geom.point_gap(p.x, p.y, b) - distance(p, b)) < 1e-9
            assert abs(geom.point_gap(p.x, p.y, a) - distance(p, a)) < 1e-9
    assert answered > n * 4
    assert near_answered > n // 4


def test_memos_off_keep_no_offers(memos_off: None) -> None:
    """``VEDETTE_SOLONAP_MEMO=0`` is the old path: a unit's offers (its fire and charges too),
    the brigadiers' offers and a general's distant units are worked out afresh, none kept for
    the next state."""
    from vedette.rules.solo_napoleonic import ruleset as R

    s = RS.initial_state(RS.scenario("sample"), {})
    R.unit_options(s, s.unit("F1"))
    R._beyond(s.general("Morand"), s.brigade_units("Morand"), 150.0)
    R.general_offers(s)
    assert not R._UNIT_OPTIONS and not R._BEYOND
    assert not R._ENEMY_OFFERS and not R._ENEMY_KEPT and not R._GENERAL_OFFERS


def test_a_units_kept_offers_are_its_offers_made_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """A unit's own offers are kept by what they read of it (issue 29: the unit that acts
    changes every action, mostly in fields they do not read; of its place, only whether it is
    placed) and its offers against the enemy by theirs, the last ones and those made before:
    at every step of simulated games, each active unit's offers are those made afresh (with
    the memos off); many own offers are kept ones (over half: over 40% until session 18, when
    a unit that moved found them again at its next activation; most until session 17, when
    one formation change and one standstill test a card, readings K71 and K72, ended the
    line/column and start/halt loops whose repeated states the kept offers served), and
    offers against the enemy are found again among those made before."""
    from vedette.rules.solo_napoleonic import ruleset as R
    from vedette.sim.play import Setup, play_game

    kept = R.unit_options
    asked = {"all": 0, "kept": 0}

    class Found(dict[Any, Any]):
        """The offers against the enemy made before, counting those found again."""

        again = 0

        def get(self, key: Any, default: Any = None) -> Any:
            hit = super().get(key, default)
            Found.again += hit is not None
            return hit

    monkeypatch.setattr(R, "_ENEMY_KEPT", Found())

    def both(state: Any, u: Any, make: Any = R._todo) -> list[Any]:
        hit = R._UNIT_OPTIONS.get((R._own_key(u), make))
        asked["kept"] += hit is not None
        asked["all"] += 1
        got = kept(state, u, make)
        memo.ENABLED = False  # (the offers made afresh, every memo left as it is)
        try:
            fresh = kept(state, u, make)
        finally:
            memo.ENABLED = True
        assert [list(x) for x in got] == [list(x) for x in fresh]
        return got

    monkeypatch.setattr(R, "unit_options", both)
    memo.clear()
    setup = Setup(RS.name, RS.scenario("sample"), max_actions=300)
    for i in range(2):
        play_game(setup, 5, i)
    assert asked["all"] > 200 and asked["kept"] > asked["all"] * 0.5, asked
    assert Found.again > 20, Found.again


def _afresh(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` with the memos off (made afresh, every memo left as it is)."""
    memo.ENABLED = False
    try:
        return fn(*args)
    finally:
        memo.ENABLED = True


def test_a_unit_finds_its_own_offers_again_wherever_it_stands() -> None:
    """Kuryakin, Movement and Formation Changing: a unit's own offers (its move, formation
    change, reform, try to move off, rally) read whether it is placed, not where it stands, so
    a unit that moved finds them again when its marks are as they were (issue 29: its next
    activation), the same as made afresh; an unplaced unit's move is open on no direction,
    and it does not find a placed unit's offers."""
    from dataclasses import replace

    from vedette.rules.solo_napoleonic import ruleset as R

    def opened(offers: list[Any]) -> dict[str, tuple[Any, ...]]:
        return next(dict(t.open) for t in offers if t.procedure == "move")

    memo.clear()
    s = RS.initial_state(RS.scenario("sample"), {})
    u = s.unit("F1")
    here = R.unit_options(s, u)
    assert "direction" in opened(here)
    moved = s.with_unit(replace(u, x=u.x + 60.0, y=u.y - 25.0))
    m = moved.unit("F1")
    assert (R._own_key(m), R._todo) in R._UNIT_OPTIONS  # found again: not made afresh
    assert R.unit_options(moved, m) == _afresh(R.unit_options, moved, m) == here
    off = s.with_unit(replace(u, x=None, y=None))
    o = off.unit("F1")
    unplaced = R.unit_options(off, o)
    assert unplaced == _afresh(R.unit_options, off, o)
    assert "direction" not in opened(unplaced)


def test_a_routing_units_offers_follow_whether_its_run_is_owed() -> None:
    """Reading K60 (a routing unit on the active card owes its run, a full move away, before its
    card ends, unless the rules forbid the move): whether the run is owed reads more than the
    unit's own fields, so a routing unit's offers are made afresh, never kept: with its run
    owed it offers its rally alone (the run is listed as owed), and the same unit with its
    move forbidden (it failed to move from a standstill this turn) its run and its rally."""
    from dataclasses import replace

    from vedette.rules.solo_napoleonic import flow
    from vedette.rules.solo_napoleonic import ruleset as R
    from vedette.rules.solo_napoleonic.model import Card

    memo.clear()
    s = RS.initial_state(RS.scenario("sample"), {})
    s = s.but(phase="activation", cards=(Card("F5", 1, 1.0, ("F5",), False),), active="F5")
    routing = s.with_unit(replace(s.unit("F5"), status="routing"))
    u = routing.unit("F5")
    assert [o.request["unit"] for o in flow.routing_runs(routing)] == ["F5"]
    assert [t.procedure for t in R.unit_options(routing, u)] == ["rally"]
    stuck = routing.with_unit(replace(u, start_failed=True))
    v = stuck.unit("F5")
    assert R._own_key(v) == R._own_key(u) and not flow.routing_runs(stuck)
    got = R.unit_options(stuck, v)
    assert got == _afresh(R.unit_options, stuck, v)
    assert [t.procedure for t in got] == ["move", "rally"]


def test_a_units_offers_against_the_enemy_are_found_again_as_made_afresh() -> None:
    """Kuryakin, Firing and Charge Test: a unit that fired offers no volley; at its next
    activation, unfired and facing the enemy as before, it finds its earlier offers against
    them again (issue 29: the very list, though the last ones kept were its fired ones); an
    enemy gone from the table, placed or not, or charging it (its volley then at short range,
    no band to state) changes them: each as made afresh."""
    from dataclasses import replace

    from vedette.rules.solo_napoleonic import ruleset as R

    def targets(offers: list[Any]) -> list[tuple[str, Any, Any]]:
        return [(t.procedure, t.request["target"], t.request.get("range")) for t in offers]

    memo.clear()
    placed = RS.initial_state(RS.scenario("sample"), {})
    s = placed.with_unit(replace(placed.unit("F1"), x=None, y=None))  # unplaced: ranges stated
    u = s.unit("F1")
    first = R.enemy_offers(s, u)
    assert ("fire", "A1", "short") in targets(first) and ("charge", "A1", None) in targets(first)
    fired = s.with_unit(replace(u, fired=True))
    f = fired.unit("F1")
    assert R.enemy_offers(fired, f) == _afresh(R.enemy_offers, fired, f)
    assert "fire" not in {p for p, _, _ in targets(R.enemy_offers(fired, f))}
    back = fired.with_unit(replace(f, fired=False))
    b = back.unit("F1")
    assert R.enemy_offers(back, b) is first
    cases = [
        (back, {"status": "eliminated"}),
        (back, {"charge_state": "declared", "charge_target": "F1"}),
        (placed, {"x": None, "y": None}),  # (both placed: the distance decides, no band)
    ]
    for state, change in cases:
        mine = state.unit("F1")
        before = R.enemy_offers(state, mine)
        other = state.with_unit(replace(state.unit("A1"), **change))
        got = R.enemy_offers(other, mine)
        assert got == _afresh(R.enemy_offers, other, mine) != before, change
        assert R.enemy_offers(state, mine) is before  # (and back as it was: found again)
    charged = back.with_unit(replace(back.unit("A1"), charge_state="declared", charge_target="F1"))
    assert ("fire", "A1", None) in targets(R.enemy_offers(charged, b))


def test_a_brigadiers_distant_units_follow_their_moves() -> None:
    """Kuryakin, Generals (control range 150mm): the units beyond it are remembered by where
    the general and his units stand, so a unit that only fired keeps the answer, and one that
    moved out of range (or back) changes it."""
    from dataclasses import replace

    from vedette.rules.solo_napoleonic import ruleset as R

    memo.clear()
    s = RS.initial_state(RS.scenario("sample"), {})
    g = s.general("Morand")

    def far(state: Any) -> list[str]:
        return R._beyond(g, state.brigade_units("Morand"), 150.0)

    before = far(s)
    assert "F1" not in before
    fired = s.with_unit(replace(s.unit("F1"), fired=True))
    assert far(fired) == before
    away = s.with_unit(replace(s.unit("F1"), x=100.0))
    assert far(away) == sorted([*before, "F1"], key=[u.id for u in s.units].index)
    assert far(s) == before


def test_a_line_of_fire_across_a_skirmisher_in_arithmetic_gives_shapelys_answer() -> None:
    """Kuryakin, Skirmishers (they screen the line of fire): the line between two centres meets
    a skirmisher's body as shapely says, answered in arithmetic when clear (issue 29): lines
    anywhere, with an end on a corner or a side (or a hair off it), along a side, grazing a
    corner; a line of no length is left to shapely."""
    from shapely.geometry import LineString

    from vedette.geometry.tabletop import Body, Vec, segment_meets_body

    rng = random.Random(29)
    answered = 0
    n = examples(6000)
    for k in range(n):
        facing = rng.choice([0.0, 90.0, 45.0, rng.uniform(0, 360)])
        bo = Body.at(rng.uniform(0, 900), rng.uniform(0, 900), facing, 40, rng.choice([20, 30]))
        cs = bo.corners()
        far = Vec(rng.uniform(0, 900), rng.uniform(0, 900))
        c, d = cs[k % 4], cs[(k + rng.randrange(1, 4)) % 4]
        t = rng.choice([0.0, 0.5, 1.0, rng.random()])
        on = Vec(c.x + (d.x - c.x) * t, c.y + (d.y - c.y) * t)
        e = rng.choice([0.0, 1e-9, -1e-9, 1e-6, -1e-3, 1e-3])
        kind = k % 4
        if kind == 0:  # anywhere
            a, b = Vec(rng.uniform(0, 900), rng.uniform(0, 900)), far
        elif kind == 1:  # an end on the outline, or a hair off it
            a, b = Vec(on.x + e, on.y - e), far
        elif kind == 2:  # along a side's line
            s0, s1 = rng.uniform(-2, 2), rng.uniform(-2, 2)
            a = Vec(c.x + (d.x - c.x) * s0 + e, c.y + (d.y - c.y) * s0)
            b = Vec(c.x + (d.x - c.x) * s1 + e, c.y + (d.y - c.y) * s1)
        else:  # grazing a corner
            step = Vec.heading(rng.uniform(0, 360), 300)
            a, b = Vec(c.x + e - step.x, c.y - step.y), Vec(c.x + e + step.x, c.y + step.y)
        want = LineString([a.as_tuple(), b.as_tuple()]).intersects(bo.polygon())
        got = segment_meets_body(a, b, bo)
        if got is not None:
            answered += kind == 0
            assert got == want, (a, b, bo)
    assert answered > n * 0.24  # lines anywhere are clear: the arithmetic answers them
    p = Vec(1.0, 2.0)
    assert segment_meets_body(p, p, Body.at(1, 2, 0, 40, 20)) is None


def test_simulated_lines_are_the_todo_lines_at_every_step() -> None:
    """``simulate`` makes its lines straight from the options (issue 29: no ``Todo`` it would
    only take apart): at every step of seeded simulated games they are the lines made from
    the ruleset's ``todo`` entries (the same candidates, in the same order); a line drawn (a
    fire, charge, reform, halt, start or move) reads empty only where the rules refuse its
    every candidate (Kuryakin, Firing: arc and range; Charge Test: reach, one charge a turn,
    no charge after firing; Disorder; Moving From A Standstill), so no such refused candidate
    is tried; and the generals' offers, kept from step to step, are those worked out
    afresh."""
    from vedette.rules.simulation import todo_lines
    from vedette.rules.solo_napoleonic import ruleset as R
    from vedette.rules.solo_napoleonic import simplay
    from vedette.sim.play import Setup

    setup = Setup(RS.name, RS.scenario("sample"), max_actions=400)
    play, rng = RS.simulation(), random.Random(0)
    seen: list[int] = []
    rides: list[bool] = []
    procs = RS.protocol_procedures()
    told = {"kept": 0}

    class Checked(type(RS)):  # type: ignore[misc]
        def outcome(self, state: Any) -> Any:
            if all(g.cr is not None for g in state.generals):
                lines = play.lines(state, self, rng)
                fast = [list(x) for x in lines]
                slow = [list(simplay.todo_line(t)) for t in todo_lines(state, RS)]
                assert fast == slow, state.phase
                seen.append(len(fast))
                for i, made in enumerate(fast):  # as the random policy draws them
                    drawn = list(lines[i])
                    if drawn != made:  # told refused at once: the rules refuse each candidate
                        assert drawn == [] and made, made
                        for name, req in made:
                            p = procs[name]
                            with pytest.raises(VedetteError):
                                p.plan(state, parsed_request(p, req)[0])
                        told[made[0][0]] = told.get(made[0][0], 0) + 1
                    elif made and made[0][0] in simplay.QUICK | {"move"}:
                        told["kept"] += 1
            if state.phase == "activation":
                assert R.general_offers(state) == R._general_offers(state, R._todo)
                rides.append(bool(R.general_offers(state)))
            return super().outcome(state)

    checked = Checked()
    _play_checked(checked, setup, 29, 3)
    assert len(seen) > 300 and max(seen) > 10
    assert any(rides) and not all(rides)
    assert told["kept"] > 100 and len(told) == 7 and min(told.values()) > 5, told


def test_a_general_looked_up_by_id_is_the_one_the_state_holds() -> None:
    """A state's generals by id (issue 29: kept with its generals tuple, not scanned at every
    look-up) are the ones it holds: a general changed is found changed in the new state and
    as he was in the old; a state ``but`` makes from another (sharing the kept entry) finds
    its own generals; the first of two with one id; no such general: refused, none held."""
    from dataclasses import replace

    from vedette.errors import BadRequest
    from vedette.rules.solo_napoleonic.model import updated

    s = RS.initial_state(RS.scenario("sample"), {})

    def scan(state: Any, gid: str) -> Any:
        return next((g for g in state.generals if g.id == gid), None)

    for g in s.generals:
        assert s.general(g.id) is g and s.has_general(g.id)
    g0 = s.generals[0]
    moved = s.with_general(updated(g0, {"x": 1.0, "y": 2.0}))
    assert moved.general(g0.id) is scan(moved, g0.id) and moved.general(g0.id).x == 1.0
    assert s.general(g0.id) is g0
    again = moved.but(generals=s.generals)
    assert again.general(g0.id) is g0
    u = next(u for u in s.units if u.brigade is not None)
    assert s.brigadier_of(u) is scan(s, u.brigade)
    assert s.brigadier_of(replace(u, brigade="nobody")) is None
    twice = s.but(generals=(g0, updated(g0, {"name": "another"})))
    assert twice.general(g0.id) is g0
    assert not s.has_general("nobody")
    with pytest.raises(BadRequest):
        s.general("nobody")


def test_a_modifier_made_once_is_the_one_made_afresh() -> None:
    """The modifiers of the rule data (issue 29: made once per rule data, options and what is
    asked) are those made afresh: every entry of every section, with and without a count and
    a reason of its own; and a game with the optional rules on (other options) gets its own,
    not the first game's (an officer's modifier exists only with the officers rule on)."""
    from vedette.rules.solo_napoleonic import common

    off = RS.initial_state(RS.scenario("sample"), {})
    on = RS.initial_state(RS.scenario("sample"), {"officers": True, "musicians": True})
    optional = 0
    for s in (off, on, off):
        for section, entries in s.config.modifiers.items():
            for key, e in entries.items():
                for count in (None, 0, 1, 4):
                    for reason in (None, "stated"):
                        want = common._modifier(s, section, key, count, reason)
                        assert common.modifier(s, section, key, count, reason) == want
                        assert common.modifier(s, section, key, count, reason) == want
                        optional += bool(e.optional) and want is not None
    assert optional > 0  # (an optional rule's modifier met, with its rule on)


def test_find_is_has_unit_and_unit_in_one() -> None:
    """``State.find`` (issue 29: the simulator's quick checks look a unit up once) gives the
    unit ``unit`` gives where ``has_unit`` holds, else None: by the index, and on a state whose
    units stand elsewhere than its index says (built by hand)."""
    s = RS.initial_state(RS.scenario("sample"), {})
    shuffled = s.but(units=tuple(reversed(s.units)))  # (the index kept: every place wrong)
    for st in (s, shuffled):
        for u in st.units:
            assert st.find(u.id) is st.unit(u.id) is u
        assert st.find("nobody") is None and not st.has_unit("nobody")


def test_on_table_kept_with_a_unit_follows_its_status_and_figures() -> None:
    """``Unit.on_table`` is kept with the unit object once asked (issue 29): through any run of
    changes (``updated``, the fold's copy; ``dataclasses.replace``), asked or not between them,
    it is what the unit's status and figures say (not eliminated, figures left), never the
    value kept for the unit it was copied from."""
    from dataclasses import replace

    from vedette.rules.solo_napoleonic.model import updated

    s = RS.initial_state(RS.scenario("sample"), {})
    rng = random.Random(23)
    for _ in range(examples(400)):
        u = rng.choice(s.units)
        for _ in range(12):
            change = rng.choice(
                [
                    {"figures": rng.choice([0, 1, 5])},
                    {"status": rng.choice(["steady", "routing", "eliminated"])},
                    {"disorder": rng.randint(0, 3)},
                    {"figures": rng.choice([0, 4]), "status": "steady"},
                ]
            )
            u = updated(u, change) if rng.random() < 0.8 else replace(u, **change)
            if rng.random() < 0.6:
                assert u.on_table is (u.status != "eliminated" and u.figures > 0), u
        assert u.on_table is (u.status != "eliminated" and u.figures > 0)


def test_a_body_kept_with_a_unit_follows_its_footprint() -> None:
    """A unit's body is kept with the unit object once asked (issue 29): through any run of
    changes (``updated``, the fold's copy), asked or not between them, it is the body its
    place, facing and size make (``geom._body`` afresh), never the one kept for the unit it was
    copied from; every field of the footprint counts (``model.FOOTPRINT_FIELDS``)."""
    from vedette.rules.solo_napoleonic import geom
    from vedette.rules.solo_napoleonic.model import FOOTPRINT_FIELDS, updated

    s = RS.initial_state(RS.scenario("sample"), {})
    rng = random.Random(42)
    changes = {
        "x": lambda: rng.uniform(0, 900),
        "y": lambda: rng.uniform(0, 900),
        "facing": lambda: rng.uniform(0, 360),
        "width": lambda: rng.choice([0.0, 80.0, 120.0]),
        "depth": lambda: rng.choice([0.0, 30.0]),
        "front": lambda: rng.randint(1, 12),
        "figures": lambda: rng.randint(0, 24),
        "disorder": lambda: rng.randint(0, 3),
    }
    assert changes.keys() > FOOTPRINT_FIELDS
    for _ in range(examples(400)):
        u = rng.choice(s.units)
        for _ in range(10):
            k = rng.choice(list(changes))
            u = updated(u, {k: changes[k]()})
            if rng.random() < 0.6:
                assert geom.body(u) == geom._body(u), (k, u)
        assert geom.body(u) == geom._body(u)


def test_the_cards_a_deal_leaves_are_those_its_log_reads_back() -> None:
    """The fold of a procedure's own cards event takes the cards it was given (issue 29: not
    equal copies made from their logged tables): the same values, of the same types, as the
    cards read back from the log's JSON (a replay's), after a deal."""
    import dataclasses

    from vedette.engine import Game, Store
    from vedette.rules.solo_napoleonic import common

    g = Game.create(Store(":memory:"), "cards", RS.name, dict(RS.scenario("sample")), 3)
    for proc in ("staff", "control", "deal"):
        g.perform(proc, {})
    logged = [c for e in g.records[-1].payload["events"] for c in e["data"]["set"]["cards"]]
    read = common._cards(json.loads(json.dumps(logged)))
    assert g.state.cards == read
    for mine, theirs in zip(g.state.cards, read, strict=True):
        for f in dataclasses.fields(mine):
            a, b = getattr(mine, f.name), getattr(theirs, f.name)
            assert type(a) is type(b) and a == b, f.name


def test_the_states_indexes_of_owed_units_are_the_units_that_owe() -> None:
    """What is owed is asked before every action (``flow.none_owed``), so the state keeps the
    units with an open charge, a morale marker, a result's bound move, a collision's chits
    and a routing status (whose run may be owed) as indexes patched unit by unit, not a scan
    of every unit (bench_kuryakin: a turn at 400 units was 24x the turn at 25, the scans
    alone a seventh of it): at every step of seeded simulated games each index is the scan
    of the units, and each is seen non-empty; whether a routing unit is on the active card
    (told from the index) is the scan of the card's units, seen both ways."""
    from vedette.sim.play import Setup

    setup = Setup(RS.name, RS.scenario("sample"), max_actions=600)
    seen = {"charging": 0, "due": 0, "bound": 0, "collided": 0, "routing": 0, "up": 0, "not": 0}

    class Checked(type(RS)):  # type: ignore[misc]
        def outcome(self, state: Any) -> Any:
            scans = {
                "charging": {u.id for u in state.units if u.charge_step is not None},
                "due": {u.id for u in state.units if u.morale_due},
                "bound": {u.id for u in state.units if u.bound is not None},
                "collided": {u.id for u in state.units if u.collided},
                "routing": {u.id for u in state.units if u.status == "routing"},
            }
            kept = {
                "charging": state.charging_ids(),
                "due": state.due_ids(),
                "bound": state.bound_ids(),
                "collided": state.collided_ids(),
                "routing": state.routing_ids(),
            }
            assert kept == scans
            for k, ids in kept.items():
                seen[k] += bool(ids)
            if state.active is not None and state.phase == "activation":
                up = any(state.unit(uid).status == "routing" for uid in state.active_units())
                assert flow._routing_up(state) == up
                seen["up" if up else "not"] += 1
            return super().outcome(state)

    checked = Checked()
    _play_checked(checked, setup, 31, 4)
    assert min(seen.values()) > 0, seen


def _play_checked(checked: Any, setup: Any, seed: int, games: int) -> None:
    """Games 0 .. ``games``-1 of the study seeded ``seed``, simulated with ``checked`` (a
    subclass of the ruleset whose hooks check each state) in the ruleset's place."""
    from vedette.sim.play import play_game

    real = rules.get
    try:
        rules.get = lambda name: checked if name == RS.name else real(name)  # type: ignore[assignment]
        for i in range(games):
            play_game(setup, seed, i)
    finally:
        rules.get = real  # type: ignore[assignment]
