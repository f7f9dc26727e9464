"""The referee's offer is a promise: seeded random games played only from ``todo``.

Each step reads ``todo``, picks one entry (an owed one first, as the rules require), fills each
open field with one of the choices the entry offers, and performs it. The properties (issue 22):

* every offered action is accepted (``offered_refused`` counts the ones that were not);
* every owed step is performable as offered (``dead_ends``: an owed entry ``plan`` refuses);
* ``todo`` is never empty before the game has ended (``empty``);
* replay == live (checked every ``REPLAY_EVERY`` steps and at the end);
* no step reaches a state the rules forbid (``forbidden``: the ruleset's ``INVARIANTS``, e.g.
  Kuryakin's routing unit that stops routing without a rally).

Kept apart from the tests so that a failing seed can be replayed by hand::

    from tests.todo_play import play
    play("twobytwo", "sample", seed=3, steps=80)

``python -m tests.todo_play RULESET [GAMES] [STEPS]`` runs many and prints the counts
(``JOBS=N`` processes; ``OPTIONS='{"play": "stated"}'`` game options, e.g. 2 by 2's stated
play).
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from typing import Any

from vedette import rules
from vedette.engine import Game, Store, replay
from vedette.errors import VedetteError

#: replay the whole log and compare with the live state every this many steps
REPLAY_EVERY = 25


def solonap_forbidden(before: Any, after: Any, proc: str) -> list[str]:
    """What a Kuryakin step from ``before`` to ``after`` (by ``proc``) did that the rules forbid
    (issue 23): a routing unit that stopped routing without a rally, a unit that halted where it
    stood and moved, a general left behind by the unit he is attached to, a unit out of command
    from its own attached general who passed his control roll."""
    from vedette.rules.solo_napoleonic import geom

    out = []
    for b in before.units:
        a = after.unit(b.id)
        stopped = b.status == "routing" and a.status != "routing" and a.on_table
        if stopped and proc != "rally":
            out.append(f"{b.id} stopped routing without a rally ({proc})")
        # (it may still change formation where it stands)
        moved = (a.x, a.y) != (b.x, b.y) or (proc == "move" and a.moved_mm != b.moved_mm)
        # (an evade is the skirmisher rule's move, made even by a unit that halted: help page)
        if b.bound == "halt" and a.bound == "halt" and moved and proc != "evade":
            out.append(f"{b.id} halted where it stood, yet moved ({proc})")
    for g in after.generals:
        if g.attached_to and not g.killed and after.has_unit(g.attached_to):
            u = after.unit(g.attached_to)
            d = geom.general_distance(g, u)
            if u.on_table and d is not None and d > 1.0:
                out.append(f"{g.id} left behind by {u.id} ({d:.0f}mm, {proc})")
            rolled = after.phase == "cards" and before.phase == "control"
            passed = after.control.get(g.id) == "passed" and u.brigade == g.id
            if rolled and passed and u.on_table and not u.in_command:
                out.append(f"{u.id} out of command from its own attached general {g.id}")
    return out


#: per ruleset: what a step must never do, beyond being accepted (a list of problems)
INVARIANTS: dict[str, Any] = {"solo_napoleonic": solonap_forbidden}


@dataclass
class Counts:
    games: int = 0
    actions: int = 0
    offered_refused: int = 0
    dead_ends: int = 0
    empty: int = 0
    forbidden: int = 0
    ended: int = 0
    problems: list[str] = field(default_factory=list)
    procedures: dict[str, int] = field(default_factory=dict)

    def add(self, o: Counts) -> None:
        self.games += o.games
        self.actions += o.actions
        self.offered_refused += o.offered_refused
        self.dead_ends += o.dead_ends
        self.empty += o.empty
        self.forbidden += o.forbidden
        self.ended += o.ended
        self.problems.extend(o.problems)
        for k, v in o.procedures.items():
            self.procedures[k] = self.procedures.get(k, 0) + v

    @property
    def failures(self) -> int:
        return self.offered_refused + self.dead_ends + self.empty + self.forbidden

    def line(self) -> str:
        return (
            f"games {self.games}, actions {self.actions}, offered-but-refused"
            f" {self.offered_refused}, dead ends {self.dead_ends}, empty todo {self.empty},"
            f" forbidden states {self.forbidden}, ended {self.ended}"
        )


def ended(g: Game) -> bool:
    """Whether the game is over by its own rules (the ruleset's end, where it declares one)."""
    over = getattr(g.ruleset, "game_over", None)
    return bool(over(g.state)) if over is not None else False


def fill(t: Any, rng: random.Random) -> dict[str, Any]:
    """The entry's request with each open field set to one of its offered choices."""
    req = dict(t.request)
    for k, choices in t.open.items():
        req[k] = rng.choice(list(choices))
    return req


def play(
    ruleset: str,
    scenario: str,
    seed: int,
    steps: int = 60,
    store: Store | None = None,
    options: dict[str, Any] | None = None,
) -> Counts:
    """One seeded game of ``steps`` actions chosen from ``todo`` alone."""
    rs = rules.get(ruleset)
    rng = random.Random(seed)
    store = store or Store(":memory:")
    g = Game.create(
        store, f"todo-{seed}", rs.name, rs.scenario(scenario), seed=seed, options=options or {}
    )
    c = Counts(games=1)
    where = f"{ruleset}/{scenario} seed={seed}"
    for step in range(steps):
        if ended(g):
            c.ended += 1
            break
        try:
            todo = g.todo(strict=True)
        except VedetteError as e:  # a malformed offer (protocol.MalformedOffer)
            c.offered_refused += 1
            c.problems.append(f"{where} step {step}: {e}")
            break
        except Exception as e:  # a defect judging an offer (strict mode hides none)
            c.offered_refused += 1
            c.problems.append(f"{where} step {step}: todo failed: {type(e).__name__}: {e}")
            break
        if not todo:
            c.empty += 1
            c.problems.append(f"{where} step {step}: todo is empty mid-game")
            break
        owed = [t for t in todo if t.owed]
        dead = [t for t in owed if t.refused]
        if dead:
            c.dead_ends += len(dead)
            c.problems.extend(
                f"{where} step {step}: owed {t.command()!r} is a dead end: {t.refused}"
                for t in dead
            )
            break
        t = rng.choice(owed or todo)
        req = fill(t, rng)
        before = g.state
        try:
            g.perform(t.procedure, req)
        except VedetteError as e:
            c.offered_refused += 1
            c.problems.append(f"{where} step {step}: offered {t.procedure} {req} refused: {e}")
            break
        check = INVARIANTS.get(rs.name)
        wrong = check(before, g.state, t.procedure) if check else []
        if wrong:
            c.forbidden += len(wrong)
            c.problems.extend(f"{where} step {step}: {w}" for w in wrong)
            break
        c.actions += 1
        c.procedures[t.procedure] = c.procedures.get(t.procedure, 0) + 1
        if step % REPLAY_EVERY == REPLAY_EVERY - 1 and replay(rs, g.records).state != g.state:
            c.problems.append(f"{where} step {step}: replay differs from live play")
            c.offered_refused += 1
            break
    if replay(rs, g.records).state != g.state:
        c.problems.append(f"{where}: replay differs from live play at the end")
        c.offered_refused += 1
    return c


def _chunk(args: tuple[str, list[tuple[str, int]], int, dict[str, Any] | None]) -> Counts:
    ruleset, games, steps, options = args
    total = Counts()
    for scenario, seed in games:
        total.add(play(ruleset, scenario, seed, steps, options=options))
    return total


def run(
    ruleset: str,
    games: int,
    steps: int,
    seed0: int = 0,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
) -> Counts:
    """``games`` games (the bundled scenarios in turn), on ``jobs`` processes."""
    scenarios = list(rules.get(ruleset).scenarios)
    todo = [(scenarios[i % len(scenarios)], seed0 + i) for i in range(games)]
    if jobs <= 1:
        return _chunk((ruleset, todo, steps, options))
    from concurrent.futures import ProcessPoolExecutor

    parts = [(ruleset, todo[i :: jobs * 8], steps, options) for i in range(jobs * 8)]
    total = Counts()
    with ProcessPoolExecutor(jobs) as pool:
        for c in pool.map(_chunk, parts):
            total.add(c)
    return total


if __name__ == "__main__":
    import os
    import time

    name = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    k = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    jobs = int(os.environ.get("JOBS", "1"))
    import json

    opts = json.loads(os.environ.get("OPTIONS", "{}"))
    t0 = time.perf_counter()
    out = run(name, n, k, jobs=jobs, options=opts)
    print(name, out.line(), f"({time.perf_counter() - t0:.0f} s, {jobs} processes)")
    print(" ", dict(sorted(out.procedures.items())))
    for p in out.problems[:40]:
        print("  -", p)
