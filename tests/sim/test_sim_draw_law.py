"""The random policy's law (docs/simulation.md, "The policies"): each line equally likely,
a line none of whose candidates the referee accepts skipped. Drawing the lines one at a time
(``RANDOM_DRAWN``, 2 by 2 and Napoleon At Bay) must follow the same law as sorting them by a
key drawn for each (``RANDOM``'s ``Policy.choose``): checked by a chi-square test over many
seeds, each seed fixed (the test gives the same answer every run)."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from tests.sizes import SCALE
from vedette import rules
from vedette.engine import Game, Store
from vedette.errors import VedetteError
from vedette.rules.protocol import Todo, judged
from vedette.rules.simulation import (
    RANDOM,
    RANDOM_DRAWN,
    Candidate,
    Policy,
    SimPlay,
    TodoSim,
    drawn,
    todo_lines,
)
from vedette.rules.two_by_two.simplay import _refused
from vedette.rules.two_by_two.todo import _complete
from vedette.sim.play import Setup, play_game


def chi2_999(df: int) -> float:
    """The chi-square quantile at p = 0.999 (Wilson-Hilferty; 16.5 for 3 degrees of freedom,
    the table's 16.27): the seeds are fixed, so a true law passes every run."""
    a = 2 / (9 * df)
    return float(df * (1 - a + 3.090 * math.sqrt(a)) ** 3)


def chi2(counts: Sequence[int], expected: Sequence[float]) -> float:
    return sum((c - e) ** 2 / e for c, e in zip(counts, expected, strict=True))


def first_line(
    policy: Policy, lines: Sequence[Sequence[Candidate]], ok: Callable[[Candidate], bool], seed: int
) -> int | None:
    """The line of the first candidate ``ok`` accepts, as play_game takes it (None: none)."""
    where = {id(c): i for i, line in enumerate(lines) for c in line}
    for c in policy.choose(None, lines, random.Random(seed)):
        if ok(c):
            return where[id(c)]
    return None


def test_draw_and_sort_give_each_accepted_line_alike() -> None:
    """Six lines, two of them wholly refused, one accepted only at its second candidate: the
    first line played is uniform over the four others, drawn or sorted."""
    lines = [[(f"p{i}", {"k": j}) for j in range(3)] for i in range(6)]
    refused = {("p1", 0), ("p1", 1), ("p1", 2), ("p4", 0), ("p4", 1), ("p4", 2), ("p2", 0)}

    def ok(c: Candidate) -> bool:
        return (c[0], c[1]["k"]) not in refused

    n = 4000
    for policy in (RANDOM, RANDOM_DRAWN):
        seen = Counter(first_line(policy, lines, ok, seed) for seed in range(n))
        assert set(seen) == {0, 2, 3, 5}  # never a refused line, never nothing
        counts = [seen[i] for i in (0, 2, 3, 5)]
        assert chi2(counts, [n / 4] * 4) < chi2_999(3), (policy.draw, counts)


def test_a_drawn_line_is_read_only_when_tried() -> None:
    reads: list[int] = []

    class Line(list[Candidate]):
        def __iter__(self) -> Any:
            reads.append(i_of[id(self)])
            return super().__iter__()

    lines = [Line([("p", {"i": i})]) for i in range(5)]
    i_of = {id(line): i for i, line in enumerate(lines)}
    it = iter(drawn(lines, random.Random(1)))
    first = next(it)
    assert reads == [first[1]["i"]]  # one line read for the first candidate
    rest = [c[1]["i"] for c in it]
    assert sorted([first[1]["i"], *rest]) == list(range(5)) and sorted(reads) == list(range(5))


class _Read(Sequence[Any]):
    """Lines, remembering the last one read (the line of the candidate a policy gives)."""

    def __init__(self, lines: Sequence[Any]) -> None:
        self.lines, self.last = lines, -1

    def __len__(self) -> int:
        return len(self.lines)

    def __getitem__(self, i: Any) -> Any:
        self.last = i
        return self.lines[i]


def accepts(rs: Any, state: Any) -> Callable[[Candidate], bool]:
    """The referee's verdict on a candidate in ``state`` (``Ruleset.judge``: the flow, what is
    owed, ``plan``): True when it would be accepted."""

    def ok(c: Candidate) -> bool:
        try:
            rs.judge(state, *c)
        except VedetteError:
            return False
        return True

    return ok


def _states(
    seed: int, index: int, most: int, ruleset: str = "two_by_two"
) -> Iterator[tuple[Any, Callable[[Candidate], bool]]]:
    """Each state of game ``index`` of ``seed`` (2 by 2 unless said, the random policy) in
    turn, as the engine reaches it performing the game's actions, with the referee's verdict
    on a candidate there (``Ruleset.judge``: the flow, what is owed, ``plan``)."""
    rs = rules.get(ruleset)
    setup = Setup(rs.name, rs.scenario("sample"), max_actions=most)
    played = play_game(setup, seed, index, record=True)
    g = Game.create(Store(":memory:"), "law", rs.name, dict(setup.scenario), played.dice_seed)

    for name, req in played.actions:
        yield g.state, accepts(rs, g.state)
        g.perform(name, req)


def _state_and_judge() -> tuple[Any, Callable[[Candidate], bool], Any]:
    """A 2 by 2 state in a move phase, 45 actions into game 0 of seed 4, and the referee's
    verdict on a candidate there (memoised: the state does not change)."""
    *_, (state, judge) = _states(4, 0, 46)
    verdicts: dict[str, bool] = {}

    def ok(c: Candidate) -> bool:
        key = json.dumps(c, sort_keys=True, default=str)
        if key not in verdicts:
            verdicts[key] = judge(c)
        return verdicts[key]

    return state, ok, rules.get("two_by_two")


def test_lines_the_simulator_skips_are_refused() -> None:
    """A retire of [0] and a wheel dearer than the move left are skipped unjudged (the same
    law: a refused line is skipped): the referee refuses each of their candidates."""
    rs = rules.get("two_by_two")
    skipped: Counter[str] = Counter()
    for state, ok in _states(2026, 0, 400):
        for t in todo_lines(state, rs):
            if _refused(state, t):
                skipped[t.procedure] += 1
                assert not any(ok(c) for c in _complete(state, t, random.Random(0))), t
    assert skipped["retire"] and skipped["wheel"]  # both kinds were met and checked


def test_two_by_two_first_line_drawn_as_sorted() -> None:
    """On a real 2 by 2 state: the first line played, over 1,500 seeds, drawn (the lines
    completed lazily) and sorted (the lines completed first, as before): the same law, by a
    two-sample chi-square on the lines seen."""
    state, ok, rs = _state_and_judge()
    assert state.phase == "move"
    play = rs.simulation()
    n = 1500

    def seen(policy: Policy, eager: bool) -> Counter[int | None]:
        out: Counter[int | None] = Counter()
        for seed in range(n):
            rng = random.Random(seed)
            lines: Sequence[Iterable[Candidate]] = play.lines(state, rs, rng)
            if eager:  # the old order of draws: every line completed, then the keys
                lines = [list(line) for line in lines]
            read = _Read(lines)
            out[next((read.last for c in policy.choose(state, read, rng) if ok(c)), None)] += 1
        return out

    old, new = seen(RANDOM, eager=True), seen(RANDOM_DRAWN, eager=False)
    assert_same_law(old, new, cells=4)


def assert_same_law(old: Counter[Any], new: Counter[Any], cells: int) -> None:
    """Two samples of the same size from the same law, by a two-sample chi-square test; at
    least ``cells`` different outcomes seen (so the test can tell laws apart)."""
    seen = sorted(set(old) | set(new), key=str)
    assert len(seen) >= cells, (old, new)
    total = [old[c] + new[c] for c in seen]
    stat = sum(
        (side[c] - t / 2) ** 2 / (t / 2)
        for c, t in zip(seen, total, strict=True)
        for side in (old, new)
    )
    assert stat < chi2_999(len(seen) - 1), (old, new)


def test_napoleon_at_bay_first_move_drawn_as_listed() -> None:
    """Napoleon At Bay: the first action played from the sample's opening, over 1,500 seeds,
    by the old way (``legal_requests`` plans a move for every force, then the lines are sorted
    by a key each) and the simulator's (a force's moves shuffled and judged only when its line
    is drawn): the same law (which force moves, or the phase ends), by a two-sample
    chi-square. The destination is not compared: both try up to 6 hexes 1 to 3 away in a
    uniformly random order, the first accepted played."""
    rs = rules.get("napoleon_at_bay")
    state = rs.initial_state(rs.scenario("sample"), {})
    assert state.phase == "movement"
    n = 1500
    ok = accepts(rs, state)

    def seen(play: SimPlay, policy: Policy) -> Counter[Any]:
        out: Counter[Any] = Counter()
        for seed in range(n):
            rng = random.Random(seed)
            c = next(c for c in policy.choose(state, play.lines(state, rs, rng), rng) if ok(c))
            out[c[0], c[1].get("force")] += 1
        return out

    old, new = seen(SimPlay(), RANDOM), seen(rs.simulation(), RANDOM_DRAWN)
    assert rs.simulation().policies["random"] is RANDOM_DRAWN
    assert_same_law(old, new, cells=4)  # each of the three French forces, and the phase's end


def _line_key(t: Todo) -> tuple[str, str, str]:
    return t.procedure, repr(sorted(dict(t.request).items())), repr(sorted(t.open.items()))


def test_asl_lines_judged_when_drawn_are_todos_lines() -> None:
    """Solitaire ASL: the simulator's lines, each judged as ``todo`` judges it, are exactly the
    lines ``legal_requests`` fills (``todo``'s, without the refused, the owed only while
    something is owed), in order, on every state of whole random games (300 actions each;
    two in CI, one in make test): so drawing them one at a time and judging only the drawn
    is the same law."""
    rs = rules.get("solitaire_asl")
    play = rs.simulation()
    assert isinstance(play, TodoSim) and play.policies["random"] is RANDOM_DRAWN
    states = 0
    games = (0, 1) if SCALE >= 1 else (0,)  # make test: one game (tests/sizes.py); CI: two
    for index in games:
        for state, _ in _states(2026, index, 300, "solitaire_asl"):
            judge, entries = play.entries(state, rs)
            mine = [judged(t, judge, owed) for t, owed in entries]
            lazy = [_line_key(j) for j in mine if j is not None and not j.refused]
            procs = {o.procedure for o in rs.obligations(state)}
            old = [
                _line_key(t)
                for t in rs.todo(state)
                if not t.refused and (not procs or t.procedure in procs)
            ]
            assert lazy == old, state
            states += 1
    assert states >= 200 * len(games)


def test_asl_first_line_drawn_as_sorted() -> None:
    """Solitaire ASL, a state with several kinds of line: the first action played over 800
    seeds, the old way (``legal_requests`` from ``todo``, the lines sorted by a key each) and
    the simulator's (drawn one at a time, judged when drawn): the same law by a two-sample
    chi-square on the procedure and unit played (the choice within a line is
    ``rng.choice`` of the accepted choices either way)."""
    rs = rules.get("solitaire_asl")
    state, ok = next(
        (s, ok)
        for s, ok in _states(2026, 0, 300, "solitaire_asl")
        if len({t.procedure for t in rs.todo(s)}) >= 3 and not rs.obligations(s)
    )
    n = 800
    verdicts: dict[str, bool] = {}

    def once(c: Candidate) -> bool:  # the same state every seed: each verdict asked once
        key = json.dumps(c, sort_keys=True, default=str)
        if key not in verdicts:
            verdicts[key] = ok(c)
        return verdicts[key]

    def seen(play: SimPlay, policy: Policy, ruleset: Any) -> Counter[Any]:
        out: Counter[Any] = Counter()
        for seed in range(n):
            rng = random.Random(seed)
            lines = play.lines(state, ruleset, rng)
            c = next((c for c in policy.choose(state, lines, rng) if once(c)), None)
            out[None if c is None else (c[0], json.dumps(sorted(c[1].items())[:1]))] += 1
        return out

    old = seen(SimPlay(), RANDOM, _TodoOnce(rs, state))
    new = seen(rs.simulation(), RANDOM_DRAWN, rs)
    assert_same_law(old, new, cells=3)


class _TodoOnce:
    """A ruleset whose ``todo`` of one state is worked out once: the old way's
    ``legal_requests`` (the ruleset's own code, run on this object) fills ``todo``'s lines
    afresh for each seed from the same judged lines."""

    def __init__(self, rs: Any, state: Any) -> None:
        self.rs, self.lines = rs, rs.todo(state)

    def todo(self, state: Any) -> list[Todo]:
        return self.lines

    def obligations(self, state: Any) -> Any:
        return self.rs.obligations(state)

    def legal_requests(self, state: Any, rng: random.Random) -> Any:
        return type(self.rs).legal_requests(self, state, rng)
