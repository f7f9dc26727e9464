"""The shortcuts that spare the 2 by 2 offers and moves work (issue 29) give the answers the
work gives: each arithmetic test is checked against the question it stands in for, on random
placements and on the edge cases (bodies touching, side by side, just behind), and the offers
kept from step to step against the offers built afresh, after every step of simulated games."""

from __future__ import annotations

import dataclasses
import itertools
import math
import random
from typing import Any

import pytest

from tests.sizes import examples
from vedette import rules
from vedette.engine import Game, Store
from vedette.errors import RuleViolation, VedetteError
from vedette.geometry import flat
from vedette.geometry import tabletop as tt
from vedette.geometry.tabletop import Body
from vedette.rules import base, patch, protocol
from vedette.rules.simulation import todo_lines
from vedette.rules.two_by_two import (
    events,
    facts,
    model,
    movement,
    relative,
    setup,
    simplay,
    todo,
)
from vedette.sim.play import Setup, play_game


def _bodies(rng: random.Random, n: int) -> list[Body]:
    out = []
    for _ in range(n):
        w, d = rng.choice([(40.0, 20.0), (40.0, 40.0), (30.0, 15.0), (60.0, 30.0)])
        x, y = rng.uniform(0, 400), rng.uniform(0, 400)
        facing = rng.choice([0.0, 90.0, 180.0, 270.0, 45.0, rng.uniform(0, 360)])
        out.append(Body.at(x, y, facing, w, d))
    return out


def _band(body: Body, other: Body) -> bool:
    f = math.radians(body.facing)
    return todo._in_band(
        other,
        body.centre.x,
        body.centre.y,
        math.sin(f),
        math.cos(f),
        body.footprint.width / 2 + 1.0,
        body.footprint.depth / 2 + 1.0,
    )


def test_outside_the_band_a_straight_slide_never_meets_the_other() -> None:
    rng = random.Random(29)
    ruled_out = met = 0
    n = examples(4000)  # (tests/sizes.py: a quarter in make test)
    for _ in range(n):
        a, b = _bodies(rng, 2)
        hit = tt.contact_distance(a, a.facing, b)
        if not _band(a, b):
            ruled_out += 1
            assert hit is None, (a, b, hit)
        elif hit is not None:
            met += 1
    assert ruled_out > n // 4 and met > n // 40  # both answers were put to the test


def test_the_band_keeps_touching_side_by_side_and_just_behind_bodies() -> None:
    a = Body.at(100.0, 100.0, 0.0, 40.0, 20.0)
    cases = [
        Body.at(100.0, 120.0, 0.0, 40.0, 20.0),  # front to rear: touching
        Body.at(140.0, 100.0, 0.0, 40.0, 20.0),  # flank to flank: touching
        Body.at(125.0, 200.0, 90.0, 40.0, 20.0),  # ahead, its edge just in the band
        Body.at(100.0, 80.5, 0.0, 40.0, 20.0),  # just behind, overlapping a hair
        Body.at(100.0, 100.0, 45.0, 40.0, 20.0),  # on top of it
    ]
    for b in cases:
        assert _band(a, b), b
        assert tt.contact_distance(a, a.facing, b) is not None, b


def test_segments_whose_boxes_lie_apart_lie_apart() -> None:
    """flat's box test before a crossing or a road's cover: when it rules two segments apart
    by more than a gap, their true distance is more than that gap (so the exact answer, "no
    crossing", "no cover", is the one it gives)."""
    rng = random.Random(27)

    def pt() -> tuple[float, float]:
        return (
            (float(rng.randint(0, 8)), float(rng.randint(0, 8)))
            if rng.random() < 0.5
            else (
                rng.uniform(0, 8),
                rng.uniform(0, 8),
            )
        )

    apart = 0
    n = examples(20000)
    for _ in range(n):
        a, b, c, d = pt(), pt(), pt(), pt()
        gap = rng.choice([0.0, flat.HAIR, 0.5, 1.0])
        if flat._apart(a, b, c, d, gap):
            apart += 1
            assert flat.segment_distance(a, b, c, d) > gap
    assert apart > n // 10


def _lines(lines: list[Any]) -> list[tuple[Any, ...]]:
    return [(t.command(), repr(t.open), dict(t.open), t.text, t.rule) for t in lines]


_LINE_MEMOS = (
    todo._steps,
    todo._ways,
    todo._own_lines,
    todo._face_text,
    todo._about,
    todo._formation_lines,
    todo._rout_line,
    todo._reinforce,
)


def test_the_offers_kept_from_step_to_step_are_the_offers_built_afresh() -> None:
    """After every step of simulated games (replayed by the engine), the move lines a unit
    keeps while it and what they read stay the same (the last step's lines, but for the
    units that are not the same objects), and the "turn to face" line measured
    only when read, give the lines ``todo`` builds with nothing kept."""
    rs = rules.get("two_by_two")
    s = Setup(rs.name, rs.scenario("sample"), max_actions=300)
    compared = faces = 0
    for index in (0, 1):
        played = play_game(s, 2026, index, record=True)
        g = Game.create(
            Store(":memory:"), f"o{index}", rs.name, dict(s.scenario), played.dice_seed, {}
        )
        for proc, req in played.actions:
            kept = todo.options(g.state)
            todo._UNIT_MOVES.clear()
            todo._LAST_MOVES[0] = None
            todo._LAST_OPTIONS.clear()
            todo._NEXT[:] = [None, None]
            for memo in _LINE_MEMOS:  # the lines built once per what they read, built again
                memo.cache_clear()
            fresh = todo._options(g.state)
            assert _lines(kept) == _lines(fresh), f"game {index}, before {proc} {req}"
            compared += 1
            faces += sum("face" in t.open for t in kept)
            g.perform(proc, req)
    assert compared > 200 and faces > 50


def _fresh_options(state: Any) -> list[Any]:
    """``todo``'s options of ``state`` built with nothing kept (the memos emptied for the
    build, then put back: the game goes on with them)."""
    saved = (dict(todo._UNIT_MOVES), todo._LAST_MOVES[0], list(todo._SHARED), list(todo._NEXT))
    todo._UNIT_MOVES.clear()
    todo._LAST_MOVES[0] = None
    todo._NEXT[:] = [None, None]
    for memo in _LINE_MEMOS:
        memo.cache_clear()
    try:
        return todo._options(state)
    finally:
        todo._UNIT_MOVES.clear()
        todo._UNIT_MOVES.update(saved[0])
        todo._LAST_MOVES[0] = saved[1]
        todo._SHARED[:] = saved[2]
        todo._NEXT[:] = saved[3]


def test_a_move_phase_s_options_carried_over_a_step_are_the_options_built_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a move phase, a step that changes one unit of the moving side and nothing else
    (``model.DERIVED``) has the last step's options but for that unit's lines and the
    reactions (``todo._carried``); in simulated games (tracked and stated, each policy) every
    such carry gives the lines ``todo`` builds afresh, in order."""
    rs = rules.get("two_by_two")
    real = todo._carried
    carried: dict[str, int] = {}

    def checked(state: Any, old: Any, new: Any, parts: Any) -> Any:
        made = real(state, old, new, parts)
        if made is not None:
            assert _lines(made[0]) == _lines(_fresh_options(state)), (new.id, state.turn)
            carried[state.play] = carried.get(state.play, 0) + 1
        return made

    monkeypatch.setattr(todo, "_carried", checked)
    for options, policies in (
        ({}, ("random",)),
        ({}, ("aggressive", "cautious")),
        ({"play": "stated"}, ("random",)),
    ):
        s = Setup(rs.name, rs.scenario("sample"), options, policies=policies, max_actions=300)
        for index in range(3 if options else 2):  # (stated games are shorter: a third)
            play_game(s, 2026, index)
    assert carried.get("tracked", 0) > 300 and carried.get("stated", 0) > 20, carried


def test_the_simulator_s_lines_are_todo_s_lines_built_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The simulator reads the lines ``todo`` keeps, not a copy (``offers``), or the owed
    lines alone while something is owed: at every step of simulated games (tracked and
    stated, each policy) they are the lines ``todo_lines`` gives with nothing kept, in
    order, and left as they were by the game (never written to)."""
    rs = rules.get("two_by_two")
    real = simplay.TwoByTwoSim.lines
    seen: list[tuple[Any, list[Any], Any]] = []

    def checked(self: Any, state: Any, ruleset: Any, rng: Any) -> Any:
        got = real(self, state, ruleset, rng)
        lines = list(got._todo)
        if ruleset.obligations(state):
            fresh = list(todo_lines(state, ruleset))
        else:
            fresh = _fresh_options(state)
        assert _lines(lines) == _lines(fresh), (state.turn, state.phase)
        seen.append((state, lines, got._todo))
        return got

    monkeypatch.setattr(simplay.TwoByTwoSim, "lines", checked)
    for options, policies in (
        ({}, ("random",)),
        ({}, ("aggressive", "cautious")),
        ({"play": "stated"}, ("random",)),
    ):
        s = Setup(rs.name, rs.scenario("sample"), options, policies=policies, max_actions=200)
        play_game(s, 2026, 1)
    for state, lines, kept in seen:  # (the lists read: as they were made)
        assert list(kept) == lines, (state.turn, state.phase)
    assert len(seen) > 400 and any(rs.obligations(st) for st, _, _ in seen)


def test_options_carried_over_any_one_unit_change_are_the_options_built_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The carry's guards: on move-phase states of simulated games, one unit changed by
    ``with_unit_values`` (a unit of either side destroyed, disrupted, pinned, spent, moved,
    a reinforcement put on the table), the options asked next are the options built afresh:
    carried when the change is of the kind the carry takes, built again when not."""
    rs = rules.get("two_by_two")
    states: list[Any] = []
    offers = rs.offers

    def seen(state: Any) -> Any:  # (the simulator's lines: todo's options, kept)
        if state.stage == "battle" and state.phase == "move":
            states.append(state)
        return offers(state)

    monkeypatch.setattr(rs, "offers", seen)
    play_game(Setup(rs.name, rs.scenario("sample"), max_actions=400), 2026, 4)
    monkeypatch.setattr(rs, "offers", offers)
    real, carried = todo._carried, []
    monkeypatch.setattr(
        todo, "_carried", lambda *a: carried.append(real(*a) is not None) or real(*a)
    )
    rng = random.Random(29)
    kinds = 0
    for st in states[::4]:
        u = rng.choice(st.units)
        far = None if u.body is None else u.body.advanced(7.0)
        for changes in (
            {"status": "destroyed", "body": None},
            {"status": "table"},
            {"disrupted": not u.disrupted},
            {"pinned": True},
            {"moved": True, "spent": 99.0},
            {"body": far},
        ):
            todo.options(st)
            new = st.with_unit_values(u.id, changes)
            got = todo.options(new)
            assert _lines(got) == _lines(_fresh_options(new)), (u.id, changes)
            kinds += 1
    assert kinds > 300 and 50 < sum(carried) < len(carried), (sum(carried), len(carried))


def _unit_moves_as_before(state: Any, u: Any, enemies: list[Any]) -> list[Any]:
    """A unit's move lines as they were built before session 15 (the oracle): each part asked
    in turn, the turns first (a pinned unit keeps only them), then the steps and the charge,
    the turns, the formations."""
    out: list[Any] = []
    tracked = state.play == "tracked"
    t = state.utype(u)
    if u.disrupted or todo._charged_this_phase(state, u):
        return out
    if u.body is None and u.entry:  # (stated: its formation before it enters, F6; its charge, F9)
        if u.pinned:  # ("Pinned: may only change facing": no formation, F9)
            return [todo._arrival(state, u)]
        if tracked:  # (its formation before it is placed, T16)
            return [todo._arrival(state, u), *todo._formations(state, u)]
        foes = tuple(e.id for e in enemies if not e.entry)  # (entered, T16)
        charge = todo.Todo(
            "charge",
            {"unit": u.id},
            f"{u.name} may charge into contact (state the distance)",
            todo.R_CONTACT,
            open={"into": foes, "distance": todo._distances(t.move)},
        )
        return [todo._arrival(state, u), *([charge] if foes else []), *todo._formations(state, u)]
    if u.moved and u.spent <= 0:
        return out
    mv = state.rules.movement
    half = mv.bridge_rate if u.bridged and mv.bridge_mode == "whole_move" else 1.0  # (reading 7)
    left = t.move * half - u.spent
    turns: list[Any] = []
    if tracked and u.body is not None and not u.turned_last:  # (T16, T3)
        turns = [*todo._ways(u.id, u.name, "turn", "turn", (45, 90, 135))]
        turns.append(todo._about(u.id, u.name))
        placed = [e for e in enemies if e.body is not None]
        if placed:
            text = f"{u.name} may turn to face an enemy"
            face = todo._FaceChoices(u.body, placed)
            turns.append(todo.Todo("turn", {"unit": u.id}, text, todo.R_MOVE, open=face))
    if u.pinned:
        return turns
    if left > 1e-6:
        bonus = state.rules.movement.road_bonus
        if tracked and u.body is not None:
            road = (t.move + bonus) * half - u.spent if u.road_only else left
            halved = () if half < 1.0 else todo._halved(state, u, t, road)  # (reading 7)
            short = (None, None) if half < 1.0 else todo._bridge_way(state, u, road)  # (T3)
            out += [*todo._steps(u.id, u.name, left, road, halved, *short)]
            out += [*todo._ways(u.id, u.name, "wheel", "wheel", (45, 90))]
            reach = state.rules.mm(road) + 1.0
            targets = tuple(e.id for e in enemies if e.body and todo._ahead(u.body, e.body, reach))
            text = f"{u.name} may charge straight ahead into contact"
            out += todo._choose("charge", {"unit": u.id}, text, todo.R_CONTACT, "into", targets)
        else:
            text = (
                f"{u.name} may move ([{left:g}]; +[{bonus:g}] wholly on a road: state"
                " road=true, and town, rough, streams crossed)"
            )
            distances = todo._distances(left)
            out.append(
                todo.Todo("move", {"unit": u.id}, text, todo.R_MOVE, open={"distance": distances})
            )
            foes = tuple(e.id for e in enemies if not e.entry)  # (entered, T16)
            if foes and not u.moved:
                text = f"{u.name} may charge into contact (state the distance)"
                choices = {"into": foes, "distance": distances}
                out.append(todo.Todo("charge", {"unit": u.id}, text, todo.R_CONTACT, open=choices))
    return out + turns + todo._formations(state, u)


def test_a_units_move_lines_are_the_lines_built_part_by_part(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A unit's move lines (its own lines built once per what they read, the charge and the
    turn to face asked of its enemies) are the lines built part by part as before, for every
    unit of the moving side at every move-phase step of simulated games (tracked and
    stated): the same lines in the same order."""
    rs = rules.get("two_by_two")
    states: list[Any] = []
    offers = rs.offers

    def seen(state: Any) -> Any:  # (the simulator's lines: todo's options, kept)
        if state.stage == "battle" and state.phase == "move":
            states.append(state)
        return offers(state)

    monkeypatch.setattr(rs, "offers", seen)
    for opts in ({}, {"play": "stated"}):
        for index in (0, 5):
            s = Setup(rs.name, rs.scenario("sample"), opts, max_actions=300)
            play_game(s, 2026, index)
    kinds: set[str] = set()
    for st in states:
        enemies = st.live(st.enemy_of(st.actor))
        for u in st.live(st.actor):
            got = todo._unit_moves(st, u, enemies)
            assert _lines(got) == _lines(_unit_moves_as_before(st, u, enemies)), u.id
            kinds |= {t.procedure for t in got}
    assert len(states) > 300
    assert kinds >= {"advance", "retire", "wheel", "turn", "formation", "charge", "move", "place"}


def _clamped_by_bodies(state: Any, body: Body, heading: float, dist: float) -> Body:
    """The bisection as it was written before issue 29's last round: a trial body each
    step, asked ``facts.on_table`` (the oracle)."""
    lo, hi = 0.0, dist
    end = body.moved_to(body.centre + tt.Vec.heading(heading, dist), heading)
    if facts.on_table(state, end):
        return end
    for _ in range(40):
        mid = (lo + hi) / 2
        trial = body.moved_to(body.centre + tt.Vec.heading(heading, mid), heading)
        if facts.on_table(state, trial):
            lo = mid
        else:
            hi = mid
    return body.moved_to(body.centre + tt.Vec.heading(heading, lo), heading)


def test_a_move_stopped_at_the_table_edge_ends_where_trial_bodies_put_it() -> None:
    """A rout or a recoil stopped at the table edge (2 by 2, Melee; Rout) ends at the very
    same floats as the bisection over trial bodies."""
    rs = rules.get("two_by_two")
    state = rs.initial_state(rs.scenario("sample"), {})
    w, d = state.table.width, state.table.depth
    rng = random.Random(2026)
    stopped = 0
    for _ in range(600):
        fw, fd = state.rules.footprint.width, state.rules.footprint.depth
        body = Body.at(
            rng.uniform(fw, w - fw), rng.uniform(fw, d - fw), rng.uniform(0, 360), fw, fd
        )
        heading = rng.choice([0.0, 90.0, 180.0, 270.0, 45.0, rng.uniform(-360, 720)])
        dist = rng.uniform(0, w)
        got = facts._clamped(state, body, heading, dist)
        assert got == _clamped_by_bodies(state, body, heading, dist)
        stopped += got.centre.distance(body.centre) < dist - 1e-6
    assert stopped > 200  # most were stopped by an edge


def test_a_body_on_the_table_is_wholly_on_it_corner_by_corner() -> None:
    """``facts.on_table`` of a body, its corners worked on floats and asked in line, answers
    as ``all()`` over the body's corners did (the oracle): bodies well inside, across each
    edge and corner, and exactly on an edge."""
    rs = rules.get("two_by_two")
    state = rs.initial_state(rs.scenario("sample"), {})
    w, d = state.table.width, state.table.depth
    rng = random.Random(29)
    answers = set()
    for _ in range(2000):
        fw, fd = state.rules.footprint.width, state.rules.footprint.depth
        x = rng.choice([rng.uniform(-fw, w + fw), fw / 2, w - fw / 2, 0.0, w])
        y = rng.choice([rng.uniform(-fw, d + fw), fd / 2, d - fd / 2, 0.0, d])
        facing = rng.choice([0.0, 90.0, 180.0, 270.0, rng.uniform(0, 360)])
        body = Body.at(x, y, facing, fw, fd)
        e = facts._EDGE_EPS
        oracle = all(-e <= p.x <= w + e and -e <= p.y <= d + e for p in body.corners())
        assert facts.on_table(state, body) is oracle, body
        answers.add(oracle)
    assert answers == {True, False}


def test_a_wheel_ends_where_the_turned_body_put_it() -> None:
    """A wheel's end (2 by 2, Movement: about the front corner on the side it wheels to),
    worked on floats, is the very same point as the vectors and the turned body gave it
    (the oracle, as ``judge_wheel`` wrote it before)."""
    rng = random.Random(45)
    for body in _bodies(rng, 3000):
        sign = rng.choice([-1.0, 1.0])
        facing = tt.normalise(body.facing + sign * rng.choice([45.0, 90.0, rng.uniform(0, 180)]))
        w = body.footprint.width
        pivot = body.to_world(body.footprint.depth / 2, sign * w / 2)
        turned = Body(body.centre, facing, body.footprint)
        offset = pivot - turned.to_world(turned.footprint.depth / 2, sign * w / 2)
        assert relative._wheeled(body, facing, sign * w / 2) == body.centre + offset


def _scan_near(state: Any, where: Body, mm: float, side: str | None) -> list[str]:
    """``near`` of a freshly built index (the oracle): every placed unit of ``side``, in the
    order of the units, whose centre lies within the reach."""
    ix = model._UnitIndex(state.units)
    reach = mm + where.radius + ix.radius
    limit = reach * reach + 1e-9
    x, y = where.centre.x, where.centre.y
    return [
        u.id
        for _, u in ix.placed
        if u.body is not None
        and (side is None or u.side == side)
        and (u.body.centre.x - x) ** 2 + (u.body.centre.y - y) ** 2 <= limit
    ]


def _left_undone_by_generator(state: Any) -> str:
    """``next``'s "left undone" as it was written before issue 29's last round (the oracle)."""
    groups: dict[str, list[str]] = {}
    for t in todo.options(state):
        if t.procedure == "next":
            continue
        who = next((str(v) for k, v in t.request.items() if k in ("unit", "firer", "rp")), "")
        groups.setdefault(t.procedure, [])
        if who and who not in groups[t.procedure]:
            groups[t.procedure].append(who)
    return "; ".join(f"{p} {', '.join(ids)}".strip() for p, ids in groups.items())


def test_the_units_kept_by_index_are_the_units_listed_afresh() -> None:
    """After every step of simulated games (replayed by the engine, whose states derive each
    index from the last), the units on the table by side (``live``: their places kept while
    no status changes, picked in C) and the units near a body (``near``, of the index patched
    unit by unit) are what a scan of every unit gives; what ``next`` says was left undone is
    what it said before (each line's unit found in a loop, not a generator)."""
    rs = rules.get("two_by_two")
    s = Setup(rs.name, rs.scenario("sample"), max_actions=400)
    statuses = nears = 0
    for index in (0, 3):
        played = play_game(s, 2026, index, record=True)
        g = Game.create(
            Store(":memory:"), f"i{index}", rs.name, dict(s.scenario), played.dice_seed, {}
        )
        seen = {u.id: u.status for u in g.state.units}
        for proc, req in played.actions:
            g.perform(proc, req)
            st = g.state
            now = {u.id: u.status for u in st.units}
            statuses += now != seen
            seen = now
            assert setup.left_undone(todo.options(st)) == _left_undone_by_generator(st)
            for side in (None, *(x.id for x in st.sides)):
                oracle = [
                    u for u in st.units if u.status == "table" and (side is None or u.side == side)
                ]
                assert st.live(side) == oracle, (proc, req, side)
            for u in st.live():
                if u.body is None:
                    continue
                for mm in (0.0, st.rules.contact_mm, 40.0, 300.0):
                    for side in (None, u.side, st.enemy_of(u.side)):
                        got = [o.id for o in st.near(u.body, mm, side)]
                        assert got == _scan_near(st, u.body, mm, side), (proc, req, u.id, mm)
                        nears += len(got) > 1
    assert nears > 1000 and statuses > 5


def _straight_ahead_by_vectors(
    path: list[Any], facing: float, start_facing: float, tail_mm: float, tol: float
) -> bool:
    """``facts.straight_ahead`` as written before issue 29's last round (the oracle): each
    leg measured by ``Vec.distance`` and headed by ``tt.bearing``."""
    run = 0.0
    for a, b in itertools.pairwise(reversed(path)):
        seg = a.distance(b)
        if seg < 1e-9:
            continue
        heading = tt.bearing(b, a)
        if abs(((heading - facing + 180) % 360) - 180) > tol:
            return False
        run += seg
        if run >= tail_mm - 1e-6:
            return True
    return abs(((start_facing - facing + 180) % 360) - 180) <= tol


def test_straight_ahead_on_floats_is_the_vectors_answer() -> None:
    """Whether a path's last stretch runs straight ahead (2 by 2, Moving to contact), its
    legs worked on floats, answers as the vectors did: straight runs, bends within and beyond
    the tolerance, repeated points, legs a hair long."""
    rng = random.Random(356)
    answers = set()
    for _ in range(examples(6000)):
        start = tt.Vec(rng.uniform(0, 600), rng.uniform(0, 600))
        facing = rng.choice([0.0, 90.0, 359.9, rng.uniform(0, 360)])
        path = [start]
        for _ in range(rng.randint(0, 3)):
            turn = rng.choice([0.0, 0.5, -0.5, 1.0, 30.0, rng.uniform(-180, 180)])
            step = rng.choice([0.0, 1e-10, 5.0, 19.05, 38.1, rng.uniform(0, 100)])
            path.append(path[-1] + tt.Vec.heading(facing + turn, step))
        start_facing = rng.choice([facing, facing + 0.5, facing + 45.0])
        tail = rng.choice([19.05, 38.1, 0.0])
        tol = rng.choice([1.0, 0.1])
        got = facts.straight_ahead(path, facing, start_facing, tail, tol)
        assert got is _straight_ahead_by_vectors(path, facing, start_facing, tail, tol)
        answers.add(got)
    assert answers == {True, False}


def test_a_straight_step_ends_where_the_vectors_put_it() -> None:
    """An advance's or a retire's end (issue 29: worked on floats) is the very point the
    forward vector, scaled and added to the centre, gave."""
    rng = random.Random(93)
    for body in _bodies(rng, 3000):
        mm = rng.choice([0.0, 19.05, -19.05, rng.uniform(-300, 300)])
        want = body.centre + body.forward().scale(mm)
        assert relative._ahead_of(body, mm) == (want.x, want.y)


def test_a_units_patch_folds_as_the_cores_patch_fold(monkeypatch: pytest.MonkeyPatch) -> None:
    """2 by 2 folds a unit's patch itself (``events.fold_unit``: no core dispatch, the
    changes not unpacked into keywords); over every patch of simulated games (each policy),
    the state it gives is the one the core's fold gives (``patch.fold_patch``, the oracle),
    field for field, and a field a unit has not is refused with the core's words."""
    rs = rules.get("two_by_two")
    assert all(rs.folds[cls] is events.fold_unit for cls in events.UNIT_EVENTS.values())
    seen: list[tuple[Any, Any]] = []
    fold = rs.fold

    def recorded(state: Any, e: Any) -> Any:
        if isinstance(e, events.UnitPatch):
            seen.append((state, e))
        return fold(state, e)

    monkeypatch.setattr(rs, "fold", recorded)
    monkeypatch.setattr(relative, "built", _not_built)  # every event folded
    for policies in (("random",), ("aggressive", "cautious")):
        s = Setup(rs.name, rs.scenario("sample"), policies=policies, max_actions=400)
        for index in (0, 1):
            play_game(s, 2026, index)
    bodies = 0
    for st, e in seen:
        want = patch.fold_patch(st, e, events.ENTITIES)
        got = events.fold_unit(st, e)
        assert got == want and got.units == want.units, e
        bodies += "body" in e.set_
    assert len(seen) > 300 and bodies > 100
    st = seen[-1][0]
    bad = events.UNIT_EVENTS["moved"](st.units[0].id, {"spent": 1.0, "colour": "red"})
    with pytest.raises(VedetteError) as mine:
        events.fold_unit(st, bad)
    with pytest.raises(VedetteError) as core:
        patch.fold_patch(st, bad, events.ENTITIES)
    assert str(mine.value) == str(core.value) == "event 'moved': a unit has no field 'colour'"


def test_a_path_meeting_no_feature_has_the_facts_the_sums_give(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A path of two points or more that meets no feature has its facts without adding up
    crossings (``facts._plain_facts``, issue 29): over every such path of simulated games and
    random paths on the sample table (on and off it, straight and bent, the road or not),
    the facts are those the crossings' sums give over no crossing (``_summed_facts``, the
    code it stands in for), field for field and of the same types."""
    rs = rules.get("two_by_two")
    seen: list[tuple[Any, ...]] = []
    plain = facts._plain_facts

    def recorded(state: Any, rules_: Any, ln: float, road: bool, *rest: Any) -> Any:
        seen.append((state, ln, road, *rest))
        return plain(state, rules_, ln, road, *rest)

    monkeypatch.setattr(facts, "_plain_facts", recorded)
    facts._PREPARED.clear()  # every path measured again (not found among those measured)
    s = Setup(rs.name, rs.scenario("sample"), max_actions=300)
    for index in (0, 1):
        play_game(s, 2026, index)
    st = seen[0][0]
    rng = random.Random(31)
    for _ in range(examples(2000)):
        a = tt.Vec(rng.uniform(-50, 1300), rng.uniform(-50, 1000))
        path = [a]
        for _ in range(rng.randint(1, 3)):
            path.append(path[-1] + tt.Vec.heading(rng.uniform(0, 360), rng.uniform(0, 200)))
        facing, start = rng.uniform(0, 360), rng.choice([0.0, 90.0, rng.uniform(0, 360)])
        facts.path_facts(st, model.Unit("x", "a", "line", "x"), path, facing, start)
    monkeypatch.undo()
    assert len(seen) > 500
    answers = set()
    for state, ln, road, path, facing, start, end, whole in seen:
        for on_road in (road, not road):  # (a road is a feature: a path on it is never plain)
            want = facts._summed_facts(state, ln, on_road, [], path, facing, start, end, whole)
            got = facts._plain_facts(
                state, state.rules, ln, on_road, path, facing, start, end, whole
            )
            assert got == want, (path, facing)
            assert got.on_table is facts.on_table(
                state, end or Body(path[-1], facing, st.rules.footprint)
            )
            assert [type(v) for v in vars_of(got)] == [type(v) for v in vars_of(want)]
        answers.add((got.on_table, got.straight_ahead, end is None))
    assert {a[:2] for a in answers} == {(True, True), (True, False), (False, True), (False, False)}
    assert {a[2] for a in answers} == {True, False}  # with the end body made, and without


def vars_of(pf: Any) -> list[Any]:
    return [getattr(pf, f) for f in pf.__slots__]


def _nearest_by_measuring_all(body: Body, placed: list[Any]) -> Any:
    """A routing unit's nearest enemy as ``rout_destination`` found it before issue 29's
    second pass (the oracle): every enemy measured, the least (distance, id)."""
    near = [(tt.distance(body, e.body), e.id, e) for e in placed if e.body is not None]
    return min(near)[2] if near else None


def test_the_nearest_enemy_found_by_bounds_is_the_one_measuring_all_finds() -> None:
    """The enemy a rout runs from when no cause is given (``facts.nearest``: enemies too far
    to beat the nearest measured are not measured) is the one measuring every enemy finds:
    on random bodies (many touching or overlapping: ties at 0 go by id; some at equal
    distances) and for every unit of simulated games (replayed by the engine)."""
    rng = random.Random(464)
    ties = 0
    n = examples(3000)
    for _ in range(n):
        bodies = _bodies(rng, rng.randint(1, 9))
        if rng.random() < 0.3:  # a crowd about the first: many touching or overlapping it
            c = bodies[0].centre
            bodies[1:] = [
                Body.at(c.x + rng.uniform(-50, 50), c.y + rng.uniform(-50, 50), 0, 40, 20)
                for _ in bodies[1:]
            ]
        elif rng.random() < 0.3:  # a ring of equal distances about the first
            c = bodies[0]
            bodies[1:] = [
                Body.at(c.centre.x + 80 * math.sin(a), c.centre.y + 80 * math.cos(a), 0, 40, 20)
                for a in (0.0, math.pi / 2, math.pi, 3 * math.pi / 2)
            ]
        units = [
            model.Unit(f"e{rng.randint(0, 99):02d}{i}", "b", "line", "e", body=b)
            for i, b in enumerate(bodies[1:])
        ]
        rng.shuffle(units)
        got = facts.nearest(bodies[0], units)
        assert got is _nearest_by_measuring_all(bodies[0], units)
        ties += sum(tt.distance(bodies[0], u.body) == 0.0 for u in units) > 1
    assert ties > n // 20
    rs = rules.get("two_by_two")
    s = Setup(rs.name, rs.scenario("sample"), max_actions=300)
    compared = 0
    for index in (0, 2):
        played = play_game(s, 2026, index, record=True)
        g = Game.create(
            Store(":memory:"), f"n{index}", rs.name, dict(s.scenario), played.dice_seed, {}
        )
        for proc, req in played.actions:
            g.perform(proc, req)
            st = g.state
            for u in st.live():
                if u.body is None:
                    continue
                enemies = [e for e in st.live(st.enemy_of(u.side)) if e.body is not None]
                got = facts.nearest(u.body, enemies)
                assert got is _nearest_by_measuring_all(u.body, enemies), (proc, req, u.id)
                compared += got is not None
    assert compared > 1000


def test_the_units_near_a_body_asked_at_once_are_those_asked_one_by_one() -> None:
    """A move's end asks who is near it at several reaches in one scan (``near_each``: the
    snap, an overlap, a contact, a counter-charge); after every step of simulated games
    (replayed by the engine), for bodies of units and points about them, each list is what
    ``near`` gives asked alone (the oracle), in the same order."""
    rs = rules.get("two_by_two")
    s = Setup(rs.name, rs.scenario("sample"), max_actions=300)
    rng = random.Random(58)
    compared = found = 0
    for index in (1, 4):
        played = play_game(s, 2026, index, record=True)
        g = Game.create(
            Store(":memory:"), f"e{index}", rs.name, dict(s.scenario), played.dice_seed, {}
        )
        for proc, req in played.actions:
            g.perform(proc, req)
            st = g.state
            sides = (None, *(x.id for x in st.sides))
            for u in st.live():
                if u.body is None:
                    continue
                where = rng.choice([u.body, u.body.centre, u.body.advanced(rng.uniform(-80, 80))])
                asks = [
                    (rng.choice([0.0, st.rules.contact_mm, 1.0, rng.uniform(0, 300)]), side)
                    for side in rng.choices(sides, k=rng.randint(1, 4))
                ]
                got = st.near_each(where, asks)
                assert got == [st.near(where, mm, side) for mm, side in asks], (proc, req)
                compared += 1
                found += sum(len(x) > 1 for x in got)
    assert compared > 1000 and found > 500


def _new_phase_as_before(state: Any, stage: str, turn: int, index: int) -> Any:
    """``events._new_phase`` as written before issue 29's third round of session 15 (the
    oracle): the state replaced field by field, a new units tuple made in every phase."""
    st = dataclasses.replace(state, stage=stage, turn=turn, phase_index=index)
    if stage != "battle":
        return st
    kind = model.PHASES[index][0]
    units = st.units
    if kind == "move":
        mover = st.player_order[model.PHASES[index][2]]
        shooter = st.player_order[1 - model.PHASES[index][2]]
        units = tuple(events._cleared_for_move(u, mover, shooter, index == 0) for u in units)
        st = dataclasses.replace(st, reinforcement_rolls=0)
    elif kind == "rally":
        units = tuple(dataclasses.replace(u, rallied=False) if u.rallied else u for u in units)
    elif kind == "melee":
        units = tuple(dataclasses.replace(u, meleed=False) if u.meleed else u for u in units)
    # (session 19: the units that charged in a move phase are kept for that phase only)
    return dataclasses.replace(st, units=units, follow_ups=(), charged=())


def test_a_new_phase_is_the_state_the_phase_made_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """Entering any phase from any state of simulated games (each policy) gives the state
    entering it gave before (the oracle: a new units tuple every time), field for field; the
    units tuple is the same object when no unit's marker changes (its index stands), a new one
    otherwise."""
    rs = rules.get("two_by_two")
    seen: list[Any] = []
    fold = rs.fold

    def recorded(state: Any, e: Any) -> Any:
        if state.stage == "battle" and (not seen or seen[-1] is not state):
            seen.append(state)
        return fold(state, e)

    monkeypatch.setattr(rs, "fold", recorded)
    monkeypatch.setattr(relative, "built", _not_built)  # every event folded
    for policies in (("random",), ("aggressive", "cautious")):
        s = Setup(rs.name, rs.scenario("sample"), policies=policies, max_actions=300)
        play_game(s, 2026, 4)
    kept = changed = 0
    for st in seen[::3]:
        for index in range(len(model.PHASES)):
            for stage, turn in (("battle", st.turn), ("battle", st.turn + 1), ("over", st.turn)):
                want = _new_phase_as_before(st, stage, turn, index)
                got = events._new_phase(st, stage, turn, index)
                assert got == want and got.units == want.units, (index, stage)
                assert got.reinforcement_rolls == want.reinforcement_rolls
                same = all(a is b for a, b in zip(got.units, st.units, strict=True))
                assert (got.units is st.units) is same
                kept += same
                changed += not same
    assert kept > 100 and changed > 100


def _obligations_as_before(state: Any) -> tuple[Any, ...]:
    """``todo.obligations`` without its first test (nothing pending: nothing owed)."""
    out: list[Any] = []
    if state.stage == "battle" and state.phase == "melee":
        for m in state.melees:
            out.append(
                protocol.Obligation(
                    f"melee:{m.attacker}:{m.defender}",
                    "melee",
                    {"attacker": m.attacker, "defender": m.defender},
                    model.R_MELEE,
                    f"the melee {m.attacker} vs {m.defender}"
                    " (resolve every melee before the phase ends)",
                    blocks=todo._END,
                )
            )
    for f in state.follow_ups:
        if f.mandatory:
            out.append(
                protocol.Obligation(
                    f"follow_up:{f.unit}",
                    "follow_up",
                    {"unit": f.unit},
                    model.R_MELEE,
                    f"the mandatory follow-up owed by {f.unit}",
                    blocks=todo._END,
                )
            )
    return tuple(out)


def _not_built(state: Any, events: Any) -> None:
    """``relative.built`` that never hands a state over: every event of a simulated game is
    folded (a test that records the states the fold is given sees them all)."""
    return None


def _straight_steps(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """Every state of simulated games (each policy) and the straight steps judged on it."""
    rs = rules.get("two_by_two")
    out: list[tuple[Any, ...]] = []
    step = relative._straight_step

    def recorded(state: Any, u: Any, n: float, back: bool, words: bool = True) -> Any:
        out.append((state, u, n, back))
        return step(state, u, n, back, words)

    monkeypatch.setattr(relative, "_straight_step", recorded)
    for policies in (("random",), ("aggressive", "cautious")):
        s = Setup(rs.name, rs.scenario("sample"), policies=policies, max_actions=400)
        for index in (0, 1, 2):
            play_game(s, 2026, index)
    monkeypatch.undo()
    return out


def test_owed_steps_are_those_the_pending_melees_and_follow_ups_make(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What is owed (its first test: nothing pending, nothing owed) is what listing every
    pending melee and follow-up gives, in every state of simulated games."""
    owed = 0
    for state, *_ in _straight_steps(monkeypatch)[::3]:
        assert todo.obligations(state) == _obligations_as_before(state)
    rs = rules.get("two_by_two")
    seen: list[Any] = []
    fold = rs.fold
    monkeypatch.setattr(rs, "fold", lambda st, e: seen.append(st) or fold(st, e))
    monkeypatch.setattr(relative, "built", _not_built)  # every event folded
    for index in range(4):
        play_game(Setup(rs.name, rs.scenario("sample"), max_actions=800), 2026, index)
    for state in seen:
        want = _obligations_as_before(state)
        assert todo.obligations(state) == want
        owed += bool(want)
    assert owed > 0


def _step_verdict(state: Any, u: Any, req: Any, first: bool) -> Any:
    """A straight step's plan as ``_straight_step`` judges it (its first problem raised), or
    the refusal's kind and words; the path measured afresh (not remembered)."""
    facts._prepared(state).paths.clear()
    try:
        plan = movement.plan_move(state, u, req, u.spent, u.road_only, first=first)
        if plan.problems:
            raise RuleViolation(*plan.problems[0])
        return plan
    except VedetteError as e:
        return (type(e), str(e))


def test_a_step_refused_at_its_first_problem_is_refused_as_the_whole_plan_refuses_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An advance or a retire plans its move asking only for the first problem (``first``:
    an end off the table found before the path is measured, a problem of the allowance
    before the counter-charges): over every straight step of simulated games, and steps of
    every length from the units' places there (off the table, into woods, beyond the
    allowance), the verdict is the one the whole plan gives (the same plan, or the same
    refusal in the same words)."""
    refused: dict[str, int] = {}
    cases = _straight_steps(monkeypatch)
    for k, (state, u, n, back) in enumerate(cases):
        lengths = [n] if k % 4 else [n, 0.5, 3.0, 9.0, 16.0, 30.0]
        for length in lengths:
            for way in (back, not back) if k % 4 == 0 else (back,):
                sign = -1.0 if way else 1.0
                path = (relative._ahead_of(u.body, sign * state.rules.mm(length)),)
                req = relative.Move(unit=u.id, path=path, facing=u.body.facing)

                got = _step_verdict(state, u, req, True)
                want = _step_verdict(state, u, req, False)
                assert got == want, (u.id, length, way)
                if isinstance(want, tuple):
                    key = "off" if "off the table" in want[1] else "other"
                    refused[key] = refused.get(key, 0) + 1
    assert refused.get("off", 0) > 50 and refused.get("other", 0) > 50


def _straight_verdict(state: Any, u: Any, n: float, back: bool) -> Any:
    """A straight step's plan as ``_straight_step`` judges it (``plan_move`` handed its end,
    ``straight_to``), or the refusal's kind and words; the path measured afresh."""
    facts._prepared(state).paths.clear()
    try:
        return relative._straight_step(state, u, n, back).plan
    except VedetteError as e:
        return (type(e), str(e))


def test_a_straight_step_judged_from_its_end_is_judged_as_its_move_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An advance or a retire hands ``plan_move`` the point it ends at, not a ``Move`` request
    to make and read: over every straight step of simulated games, and steps of every length
    from the units' places there (a hair's length, off the table, into woods, beyond the
    allowance), the verdict is the one the request ``Move(unit, path=(that point,), facing
    kept)`` gets (the same plan, or the same refusal in the same words)."""
    seen = {"plan": 0, "off": 0, "other": 0}
    cases = _straight_steps(monkeypatch)
    for k, (state, u, n, back) in enumerate(cases):
        lengths = [n] if k % 4 else [n, 1e-8, 0.5, 3.0, 9.0, 16.0, 30.0]
        for length in lengths:
            for way in (back, not back) if k % 4 == 0 else (back,):
                sign = -1.0 if way else 1.0
                path = (relative._ahead_of(u.body, sign * state.rules.mm(length)),)
                req = relative.Move(unit=u.id, path=path, facing=u.body.facing)
                want = _step_verdict(state, u, req, True)
                assert _straight_verdict(state, u, length, way) == want, (u.id, length, way)
                kind = "plan" if not isinstance(want, tuple) else "other"
                seen["off" if kind == "other" and "off the table" in want[1] else kind] += 1
    assert min(seen.values()) > 50, seen


def _events_or_refusal(p: Any, state: Any, req: Any, played: bool) -> Any:
    """A procedure's events (played in one run, or planned then resolved) or its refusal."""
    try:
        out = p.play(state, req, None) if played else p.resolve(state, p.plan(state, req), None)
        return ("events", out.events)
    except VedetteError as e:
        return (type(e), str(e))


def test_a_relative_step_played_for_the_simulator_has_the_events_its_resolve_makes() -> None:
    """An advance, a retire, a wheel and a turn played in one run for the simulator
    (``Procedure.play``: ``relative.play_step``, its words and details not written) is
    refused as its plan refuses it, and else makes the events its resolve makes: every
    candidate of those lines, in states of simulated games (each policy)."""
    rs = rules.get("two_by_two")
    procs = rs.protocol_procedures()
    names = ("advance", "retire", "wheel", "turn")
    assert all(procs[n].play is not None for n in names)
    states: list[Any] = []
    fold = rs.fold
    mp = pytest.MonkeyPatch()
    mp.setattr(rs, "fold", lambda st, e: states.append(st) or fold(st, e))
    mp.setattr(relative, "built", _not_built)  # every event folded
    try:
        for policies in (("random",), ("aggressive", "cautious")):
            s = Setup(rs.name, rs.scenario("sample"), policies=policies, max_actions=500)
            play_game(s, 2026, 3)
    finally:
        mp.undo()
    seen: dict[str, int] = {}
    play = rs.simulation()
    for k, state in enumerate(states[::3]):
        if state.stage != "battle" or state.phase != "move":
            continue
        for line in play.lines(state, rs, random.Random(k)):
            for name, req in line:
                if name not in names:
                    continue
                p, parsed = procs[name], procs[name].parse(dict(req))
                want = _events_or_refusal(p, state, parsed, False)
                got = _events_or_refusal(p, state, parsed, True)
                assert got == want, (name, req)
                key = f"{name}:{'played' if want[0] == 'events' else 'refused'}"
                seen[key] = seen.get(key, 0) + 1
    assert len(seen) == 8 and min(seen.values()) > 10, seen


def _plan_or_refusal(state: Any, u: Any, to: Any, words: bool) -> Any:
    """A straight step's plan (``plan_move`` handed its end, its first problem raised, the
    path measured afresh) with or without its words, or the refusal's kind and words."""
    facts._prepared(state).paths.clear()
    try:
        return movement.plan_move(
            state, u, relative._NO_MOVE, u.spent, u.road_only, True, to, words
        )
    except VedetteError as e:
        return (type(e), str(e))


_JUDGED = (
    "unit",
    "end",
    "length",
    "allowance",
    "cost",
    "problems",
    "contacts",
    "through_town",
    "source",
    "crossed",
    "facing_changed",
    "road_bonus",
    "bridge_halved",
)


def test_a_step_planned_without_words_is_judged_as_the_plan_with_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The simulator's advance and retire plan their move without its words (no breakdown, no
    counter-charges or reactions looked for: ``plan_move(words=False)``): over every straight
    step of simulated games, steps of every length from the units' places there, and steps
    over the bridge (its allowance halved), the plan is refused in the same words or gives
    the same end, cost, contacts and flags; and the two flags a later step reads say what the
    breakdown's words said ("whole move on road": the road bonus counted; "crosses a
    bridge": the allowance halved for it)."""
    seen = {"plan": 0, "refused": 0, "road": 0, "bridge": 0}
    cases = _straight_steps(monkeypatch)[::2]
    state0 = cases[0][0]
    # a unit of each kind set just short of the bridge, facing across it (reading 7)
    for u in state0.units[:6]:
        fp = state0.rules.footprint
        body = Body.at(300.0, 285.0, 0.0, fp.width, fp.depth)
        placed = dataclasses.replace(u, body=body, status="table", entry="", spent=0.0)
        state = dataclasses.replace(
            state0, units=tuple(placed if o.id == u.id else o for o in state0.units)
        )
        cases.append((state, placed, 2.0, False))
    for k, (state, u, n, back) in enumerate(cases):
        for length in [n] if k % 4 else [n, 0.5, 3.0, 9.0, 16.0]:
            for way in (back, not back) if k % 4 == 0 else (back,):
                sign = -1.0 if way else 1.0
                to = tt.Vec(*relative._ahead_of(u.body, sign * state.rules.mm(length)))
                full = _plan_or_refusal(state, u, to, True)
                lean = _plan_or_refusal(state, u, to, False)
                if isinstance(full, tuple):
                    assert lean == full, (u.id, length, way)
                    seen["refused"] += 1
                    continue
                assert [getattr(lean, f) for f in _JUDGED] == [getattr(full, f) for f in _JUDGED]
                assert lean.breakdown == () and lean.countercharge == () == lean.reactions
                road = any("whole move on road" in b for b in full.breakdown)
                bridge = any("crosses a bridge" in b for b in full.breakdown)
                assert (full.road_bonus, full.bridge_halved) == (road, bridge), full.breakdown
                seen["plan"] += 1
                seen["road"] += road
                seen["bridge"] += bridge
    assert min(seen.values()) > 3, seen


def test_a_turn_ending_far_from_every_wood_is_found_so_without_its_corners() -> None:
    """A wheel or a turn asks which woods or rough its end enters only when the box about the
    circle holding its corners meets a wood's box (``relative._may_touch``): whenever it says
    no, ``body_features`` finds no such feature, on random placements about a wood (touching
    it, in it, just clear of it) and about a wood's corners."""
    rng = random.Random(31)
    woods = (
        tt.Feature.area("woods", "square", [(100, 100), (200, 100), (200, 200), (100, 200)]),
        tt.Feature.area("woods", "slant", [(300, 80), (380, 120), (340, 220), (270, 160)]),
    )
    ruled_out = kept = 0
    n = examples(6000)
    for _ in range(n):
        (b,) = _bodies(rng, 1)
        if rng.random() < 0.5:  # about a corner or a side of one wood
            x, y = rng.choice([(100, 100), (200, 200), (380, 120), (150, 100), (270, 160)])
            reach = rng.choice([0.0, 1.0, b.radius, b.radius + 1e-3, 40.0])
            a = rng.uniform(0, 2 * math.pi)
            b = Body.at(x + reach * math.cos(a), y + reach * math.sin(a), b.facing, *_size(b))
        found = tt.body_features(b, woods, "any")
        if relative._may_touch(b, woods):
            kept += 1
        else:
            ruled_out += 1
            assert found == [], b
    assert ruled_out > n // 10 and kept > n // 10


def _size(b: Body) -> tuple[float, float]:
    return b.footprint.width, b.footprint.depth


def _common_area_as_before(pa: list[Any], pb: list[Any]) -> float:
    """The Sutherland-Hodgman clip as written before each point's side was worked out once."""
    out = tt._ccw(pa)
    clip = tt._ccw(pb)
    for (cx, cy), (dx, dy) in zip(clip, clip[1:] + clip[:1], strict=True):
        if not out:
            return 0.0
        src, out = out, []

        def side(p: tuple[float, float]) -> float:
            return (dx - cx) * (p[1] - cy) - (dy - cy) * (p[0] - cx)  # noqa: B023

        for p, q in zip(src, src[1:] + src[:1], strict=True):
            sp, sq = side(p), side(q)
            if sp >= 0:
                out.append(p)
            if (sp >= 0) != (sq >= 0):
                t = sp / (sp - sq)
                out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    if len(out) < 3:
        return 0.0
    twice = sum(
        x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(out, out[1:] + out[:1], strict=True)
    )
    return abs(twice) / 2


def test_the_common_area_of_two_bases_is_the_clip_as_before() -> None:
    """Two bodies' common area (``overlaps``: may a move end on top of another base?) is the
    very float the clip gave before each point's side was worked out once: on random
    placements, bodies touching side by side and end to end, turned on each other and on
    top of each other."""
    rng = random.Random(33)
    shared = 0
    n = examples(4000)
    for _ in range(n):
        a, b = _bodies(rng, 2)
        if rng.random() < 0.6:  # close: touching, overlapping a little or much
            gap = rng.choice([0.0, 0.5, -0.5, -5.0, a.footprint.width / 2])
            b = Body.at(
                a.centre.x + rng.choice([-1, 1]) * (a.footprint.width / 2 + gap),
                a.centre.y + rng.uniform(-a.footprint.depth, a.footprint.depth),
                rng.choice([a.facing, a.facing + 90.0, rng.uniform(0, 360)]),
                *_size(b),
            )
        pa, pb = tt._outline(a), tt._outline(b)
        got = tt._common_area(pa, pb)
        assert got == _common_area_as_before(pa, pb), (a, b)
        shared += got > 1.0
    assert shared > n // 20


def test_the_state_a_relative_step_makes_with_its_event_is_the_state_its_events_fold_to() -> None:
    """The simulator's advance, retire, wheel and turn make the state their one event leaves as
    they make the event (``relative.built``, handed over by the ruleset's ``folded``): over
    every candidate of those lines in states of simulated games (each policy), it is the
    state the events fold to one by one (``Ruleset.folded``: each event's fold), and the
    ruleset's ``folded`` hands it over only for those very events from that very state."""
    rs = rules.get("two_by_two")
    procs = rs.protocol_procedures()
    states: list[Any] = []
    folded = rs.folded
    mp = pytest.MonkeyPatch()
    mp.setattr(rs, "folded", lambda st, es: states.append(st) or folded(st, es))
    try:
        for policies in (("random",), ("aggressive", "cautious")):
            s = Setup(rs.name, rs.scenario("sample"), policies=policies, max_actions=500)
            play_game(s, 2026, 4)
    finally:
        mp.undo()
    seen: dict[str, int] = {}
    play = rs.simulation()
    for k, state in enumerate(states[::3]):
        if state.stage != "battle" or state.phase != "move":
            continue
        for line in play.lines(state, rs, random.Random(k)):
            for name, req in line:
                if name not in ("advance", "retire", "wheel", "turn"):
                    continue
                try:
                    out = procs[name].play(state, procs[name].parse(dict(req)), None)
                except VedetteError:
                    continue
                made = rs.folded(state, out.events)
                assert made == base.Ruleset.folded(rs, state, out.events), (name, req)
                assert relative.built(state, list(out.events)) is None  # not these events
                seen[name] = seen.get(name, 0) + (made is relative.built(state, out.events))
    assert len(seen) == 4 and min(seen.values()) > 10, seen


def test_a_turn_to_face_line_s_requests_are_the_requests_made_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A "turn to face" line is made afresh at each step; the simulator's candidates of it
    (``_fixed``) are the requests made from its choices afresh (``{**request, "face": id}``,
    in the order of its choices, a tuple for one), each pair's the same object step after step
    (the loop then knows it by its identity)."""
    rs = rules.get("two_by_two")
    fixed = todo._fixed
    seen: dict[tuple[str, str], Any] = {}
    again = 0

    def checked(t: Any) -> Any:
        nonlocal again
        got = fixed(t)
        if type(t.open) is not todo._FaceChoices:
            return got
        ((f, cs),) = t.open.items()
        fresh = [(t.procedure, {**t.request, f: c}) for c in cs]
        assert list(got) == fresh and list(map(list, map(dict.items, (r for _, r in got)))) == [
            list(r.items()) for _, r in fresh
        ]
        assert isinstance(got, tuple) == (len(fresh) == 1)
        for _, req in got:
            key = (req["unit"], req["face"])
            again += key in seen
            assert seen.setdefault(key, req) is req
        return got

    monkeypatch.setattr(todo, "_fixed", checked)
    s = Setup(rs.name, rs.scenario("sample"), policies=("random",), max_actions=400)
    for index in (0, 1, 2):
        play_game(s, 2026, index)
    assert len(seen) > 10 and again > 10, (len(seen), again)
