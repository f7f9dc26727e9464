"""Issue 29's Solitaire ASL shortcuts, each against the code it stands for, over the states of
simulated games: a move judged by ``check_move`` (the refusals of ``run_move`` without the
move worked out), the neighbours of a hex kept per layout, the location choices' tail kept per
state, the shift table of an operation kept per table, a shift window asked once per side and
kind. ``todo`` with the shortcuts is ``todo``
with plain ``plan``."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from vedette import rules
from vedette.engine import Game, Store
from vedette.errors import VedetteError
from vedette.rules.protocol import derive_todo
from vedette.rules.solitaire_asl import ids, offers, procedures, shift
from vedette.rules.solitaire_asl import ruleset as asl_ruleset
from vedette.rules.solitaire_asl.ids import BOARD_COLUMNS, BOARD_ROWS, HexId
from vedette.rules.solitaire_asl.model import (
    Counter,
    Fortification,
    Location,
    Op,
    Stack,
    State,
    Status,
    natural_key,
)
from vedette.rules.solitaire_asl.requests import ShiftRequest
from vedette.rules.solitaire_asl.turn import querying, window
from vedette.sim.play import Setup, play_game

RS = rules.get("solitaire_asl")


def _states(seed: int, index: int, most: int) -> Iterator[State]:
    """Each state of simulated game ``index`` of ``seed``, as the engine reaches it."""
    setup = Setup(RS.name, RS.scenario("sample"), max_actions=most)
    played = play_game(setup, seed, index, record=True)
    g = Game.create(Store(":memory:"), "s", RS.name, dict(setup.scenario), played.dice_seed)
    for name, req in played.actions:
        yield g.state
        g.perform(name, req)
    yield g.state


@pytest.fixture(scope="module")
def states() -> list[State]:
    return [*_states(7, 0, 150), *_states(7, 3, 150)]


def _verdict(fn: Any, *args: Any) -> tuple[str, str]:
    try:
        fn(*args)
    except VedetteError as e:
        return type(e).__name__, str(e)
    return "accepted", ""


def _requests(state: State) -> Iterator[dict[str, Any]]:
    """Moves of every stack: to each neighbour, its own location, an off-board hex and a
    described location; all of it, one counter, an unknown counter, some dummies, a part
    named as a stack that exists."""
    known = [x.id for x in state.locations][:2]
    for s in state.stacks:
        near = state.layout.neighbors(s.location)[:3]
        for to in (*near, s.location, "9Z9", *known):
            yield {"stack": s.id, "to": to}
        to = near[0] if near else s.location
        if s.counters:
            yield {"stack": s.id, "to": to, "counters": [s.counters[0].id]}
            yield {"stack": s.id, "to": to, "counters": [s.counters[0].name], "name": s.id}
        yield {"stack": s.id, "to": to, "counters": ["nobody"]}
        for n in (0, 1, 2, 9):
            yield {"stack": s.id, "to": to, "dummies": n}
        yield {"stack": s.id, "to": s.location, "position": "foxhole"}


def test_check_move_refuses_exactly_what_run_move_refuses(states: list[State]) -> None:
    proc = RS.procedures["move"]
    seen = set()
    for st in states:
        for raw in _requests(st):
            req = proc.parse(raw)
            want = _verdict(procedures.run_move, st, req)
            assert _verdict(procedures.check_move, st, req) == want, raw
            seen.add(want[0])
    # the walk meets acceptances and both kinds of refusal
    assert {"accepted", "BadRequest", "RuleViolation"} <= seen


def test_todo_judged_by_check_is_todo_judged_by_plan(states: list[State]) -> None:
    for st in states[::3]:
        owed = RS.obligations(st)
        phase = RS.current_phase(st)

        def by_plan(p: str, r: Any, st: State = st, owed: Any = owed, phase: Any = phase) -> Any:
            return RS._judge(st, p, r, owed, False, phase, False)[1]

        plain = derive_todo(owed, RS.options(st), by_plan)
        assert [t.to_json() for t in RS.fresh_todo(st)] == [t.to_json() for t in plain]


def _board_ids(board: str) -> Iterator[str]:
    for col in range(BOARD_COLUMNS):
        for row in range(0 if col % 2 == 0 else 1, BOARD_ROWS + 1):
            yield HexId(board, col, row).text


def test_kept_neighbours_are_the_grids(states: list[State]) -> None:
    layout = states[0].layout
    hexes = [h for b in layout.boards for h in _board_ids(b.id)]
    for h in [*hexes, *(f"{h}:1" for h in hexes[:40])]:
        assert layout.neighbors(h) == layout.fresh_neighbors(h), h
        assert layout.neighbors(h) == layout.fresh_neighbors(h), h  # (the kept answer)
    # the same id on another layout: its own neighbours (here a board 9 lies below board 4)
    assert [b.id for b in layout.boards] == ["4"]
    other = ids.BoardLayout((ids.Board("4"), ids.Board("9", 0, BOARD_ROWS)))
    assert other.neighbors("4C10") == other.fresh_neighbors("4C10")
    assert "9C1" in other.neighbors("4C10")
    assert "9C1" not in layout.neighbors("4C10")


def _old_locations(
    state: State, *extra: Iterable[str], but: Iterable[str] = (), most: int = 24
) -> tuple[str, ...]:
    """The choices as they were worked out before the tail was kept per state."""
    skip = set(but)
    seen: dict[str, None] = {}
    for group in (
        *extra,
        sorted({x.id for x in state.locations}, key=natural_key),
        sorted({s.location for s in state.stacks}, key=natural_key),
        sorted({m.location for m in state.minefields}, key=natural_key),
    ):
        for loc in group:
            if loc not in skip:
                seen.setdefault(loc, None)
    return tuple(seen)[:most]


def test_location_choices_are_the_old_ones(states: list[State]) -> None:
    for st in states:
        for s in st.stacks:
            near = st.layout.neighbors(s.location)
            for most in (1, 5, 10, 24, 200):
                for extra in ((), (near,), (near, [s.location, near[-1]])):
                    got = offers._locations(st, *extra, but=(s.location,), most=most)
                    assert got == _old_locations(st, *extra, but=(s.location,), most=most)
                    assert offers._locations(st, *extra, most=most) == _old_locations(
                        st, *extra, most=most
                    )


def test_kept_shift_tables_are_worked_out_afresh_per_table(states: list[State]) -> None:
    table = states[0].config.tables["shift"]
    for op in Op:
        assert shift.op_table(table, op) == shift.fresh_op_table(table, op)
        assert shift.op_table(table, op) is shift.op_table(table, op)
    # another table (a house rule's text): its own rows, never the first table's
    rows = tuple(shift.replace(r, data={**r.data, "result_dummy": "changed"}) for r in table.rows)
    changed = shift.replace(table, rows=rows)
    assert shift.op_table(changed, Op.DUMMY) == shift.fresh_op_table(changed, Op.DUMMY)
    assert shift.op_table(changed, Op.DUMMY).rows[0].result == "changed"
    assert shift.op_table(table, Op.DUMMY).rows[0].result != "changed"


def _old_shifts(state: State) -> list[dict[str, Any]]:
    """The shifts offered, each candidate's window asked afresh (before it was asked once a
    side and kind)."""
    out = []
    for side in state.sides:
        for ra, rb, kind in procedures.shift_candidates(state, side):
            if not window(state, side, Op(kind)).open:
                continue
            try:
                req = ShiftRequest(a=ra, b=rb, kind=kind, side=side)  # type: ignore[arg-type]
                shift.plan_shift(state, req, state.config, state.config.tables)
            except VedetteError:
                continue
            out.append({"a": ra, "b": rb, "kind": kind, "side": side})
    return out


def test_shift_offers_ask_each_window_once_and_offer_the_same(states: list[State]) -> None:
    offered = 0
    for st in states:
        _, shifts = offers.shift_offers(st, st.config, st.config.tables)
        assert [dict(t.request) for t in shifts] == _old_shifts(st)
        offered += len(shifts)
    assert offered > 0


def _offered(got: tuple[list[Any], list[Any]]) -> list[Any]:
    return [t.to_json() for part in got for t in part]


def test_kept_shift_verdicts_are_the_plans(
    states: list[State], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A candidate's verdict kept while what its plan reads is unchanged: the offers (facts
    and shifts) are those of every candidate planned afresh, state after state as a game
    goes, then in a shuffled order (states of two games mixed, so that a kept verdict meets
    states it was not made on), and some candidates are not planned again."""
    planned = 0
    real = offers._shift_verdict

    def counted(*args: Any) -> Any:
        nonlocal planned
        planned += 1
        return real(*args)

    monkeypatch.setattr(offers, "_SHIFT_MEMO", {})
    fresh = [
        _offered(offers.shift_offers(st, st.config, st.config.tables, memo=False)) for st in states
    ]
    monkeypatch.setattr(offers, "_shift_verdict", counted)
    order = [*range(len(states)), *random.Random(5).sample(range(len(states)), len(states))]
    asked = 0
    for i in order:
        st = states[i]
        assert _offered(offers.shift_offers(st, st.config, st.config.tables)) == fresh[i], i
        asked += sum(
            1
            for side in st.sides
            for _, _, kind in procedures.shift_candidates(st, side)
            if offers._window_open(st, side, kind, st.config)
        )
    assert sum(len(x) for x in fresh) > 0
    assert 0 < planned < asked  # the kept verdicts are read, not only made


def _changed(st: State, la: str, lb: str) -> Iterator[State]:
    """``st`` with one thing a shift between ``la`` and ``lb`` reads changed at a time: a
    stack there TI, of another status, with a vehicle that used more MP, or gone; an enemy
    unit there (it sees the location, reading A38); a hidden fortification there; the
    locations described (in enemy LOS, no Concealment Terrain, forbidding every kind); the
    counter-size option; the stacks moved this phase."""
    vehicle = Counter("zv", "tank", kind="vehicle", size="large", mp=1, mp_used=9)
    here = [s for s in st.stacks if s.location in (la, lb)]
    for s in here:
        others = tuple(x for x in st.stacks if x.id != s.id)
        yield replace(st, stacks=others)
        yield st.with_stack(replace(s, ti=True))
        yield st.with_stack(replace(s, counters=(*s.counters, vehicle)))
        for status in Status:
            if status != s.status:
                yield st.with_stack(replace(s, status=status))
    for loc in (la, lb):
        for side in st.sides:
            yield st.with_stack(Stack(f"z{loc}{side}", side, loc, Status.REVEALED, (vehicle,)))
            fort = Fortification(f"zf{loc}{side}", side, "pillbox", loc, 3)
            yield replace(st, fortifications=(*st.fortifications, fort))
        kinds = ("pillbox", "foxhole", "trench", "cave", "tunnel")
        told = Location(loc, 2, "woods", los=True, concealment_terrain=False, forbid=kinds)
        yield replace(st, locations=(*(x for x in st.locations if x.id != loc), told))
    sizes = replace(st, options={**st.options, "separate_counter_sizes": True})
    yield sizes
    for s in here:
        yield sizes.with_stack(replace(s, counters=(*s.counters, vehicle)))
    yield replace(st, moved_now=tuple(s.id for s in st.stacks))


def test_kept_shift_verdicts_follow_what_the_plan_reads(states: list[State]) -> None:
    """Each thing a shift's plan reads, changed after its verdict was kept: the offers are
    those planned afresh (and some changes do change them)."""
    differ = 0
    hidden = (Status.POTENTIAL_DUMMY, Status.DUMMY)
    for st in (
        x
        for base in states[::4]
        for x in (
            base,  # and at night, the dummy stacks cloaked (5.1: a moved one shifts no more)
            replace(
                base,
                night=True,
                stacks=tuple(
                    replace(s, status=Status.CLOAKED) if s.status in hidden else s
                    for s in base.stacks
                ),
            ),
        )
    ):
        cands = {
            (ra, rb, kind)
            for side in st.sides
            for ra, rb, kind in procedures.shift_candidates(st, side)
            if offers._window_open(st, side, kind, st.config)
        }
        for ra, rb, kind in sorted(cands):
            la, lb = (ra, rb) if kind == "hip" else (st.stack(ra).location, st.stack(rb).location)  # type: ignore[union-attr]
            base = _offered(offers.shift_offers(st, st.config, st.config.tables, memo=False))
            for ch in _changed(st, la, lb):
                offers.shift_offers(st, st.config, st.config.tables)  # (kept on st)
                want = _offered(offers.shift_offers(ch, ch.config, ch.config.tables, memo=False))
                assert _offered(offers.shift_offers(ch, ch.config, ch.config.tables)) == want
                differ += want != base
    assert differ > 0


def test_a_shift_planned_twice_is_planned_once_as_afresh(states: list[State]) -> None:
    """The simulator judges the shift it draws, then plays it: the second plan is the first
    (the same state and request), equal to a plan made afresh; a query's plan (its window
    opened, turn.QUERY) is never the play's, nor the play's the query's, and another state
    is planned for itself."""
    plan = RS.procedures["shift"].plan
    shifts = 0
    for st in states:
        for side in st.sides:
            for ra, rb, kind in procedures.shift_candidates(st, side):
                req = ShiftRequest(a=ra, b=rb, kind=kind, side=side)  # type: ignore[arg-type]
                with querying():
                    want_q = _verdict(asl_ruleset.fresh_shift_plan, st, req)
                    got_q = _verdict(plan, st, req)
                want = _verdict(asl_ruleset.fresh_shift_plan, st, req)
                assert _verdict(plan, st, req) == want  # (after the query's)
                with querying():
                    assert _verdict(plan, st, req) == got_q == want_q  # (after the play's)
                if want[0] != "accepted":
                    continue
                shifts += 1
                first = plan(st, req)
                assert plan(st, req) is first
                assert first == asl_ruleset.fresh_shift_plan(st, req)
                other = states[0] if st is not states[0] else states[1]
                assert _verdict(plan, other, req) == _verdict(
                    asl_ruleset.fresh_shift_plan, other, req
                )
    assert shifts > 0


def _old_candidates(state: State, side: str) -> list[tuple[str, str, str]]:
    """``shift_candidates`` as it was, every pair of the side's stacks tried."""
    mine = [s for s in state.stacks if s.side == side]
    pairs: list[tuple[str, str, str]] = []
    for i, a in enumerate(mine):
        for b in mine[i:]:
            if a.status == Status.POTENTIAL_DUMMY and b.status in shift.DUMMY_KINDS:
                pairs.append((a.id, b.id, "dummy"))
            elif b.status == Status.POTENTIAL_DUMMY and a.status == Status.DUMMY:
                pairs.append((b.id, a.id, "dummy"))
            elif a.status == b.status == Status.CLOAKED and a.id != b.id:
                pairs.append((a.id, b.id, "cloaked"))
    hip_locs = sorted(
        {s.location for s in mine if s.status in shift.HIP_KINDS}
        | {f.location for f in state.fortifications if f.side == side and f.hidden}
    )
    for i, la in enumerate(hip_locs):
        for lb in hip_locs[i + 1 :]:
            pairs.append((la, lb, "hip"))
    return pairs


def test_shift_candidates_pair_only_the_stacks_that_pair(states: list[State]) -> None:
    """The candidates from the stacks whose status may pair are every pair's, in order: on
    the games' states, with their dummy stacks cloaked, and with each stack's status turned
    to every other."""
    kinds = set()
    for st in states[::2]:
        cloaked = tuple(
            replace(s, status=Status.CLOAKED) if s.status in shift.DUMMY_KINDS else s
            for s in st.stacks
        )
        variants = [st, replace(st, stacks=cloaked)] + [
            st.with_stack(replace(s, status=status))
            for s in st.stacks[:6]
            for status in Status
            if status != s.status
        ]
        for v in variants:
            for side in v.sides:
                got = procedures.shift_candidates(v, side)
                assert got == _old_candidates(v, side)
                kinds |= {k for _, _, k in got}
    assert kinds == {"dummy", "cloaked", "hip"}
