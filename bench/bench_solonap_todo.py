"""Kuryakin (Solo Napoleonic): the referee's memos (``rules/solo_napoleonic/memo.py``: each
offer's verdict kept per state, ``todo`` and the obligations once per state, geometry by
footprint, the rules data shared) against the old path, every memo off (``todo`` derived by the
core, each offer's dry run made afresh), in one process.

Two workloads, each on both paths, batches interleaved (old, new, old, new, ...), every batch
cold (every memo and cache of the ruleset, and the core's parsed requests, emptied first), the
best batch of each side kept (a shared machine: a busy moment should not decide the ratio),
timed by the process's CPU time:

* todo-play games (``tests/todo_play.py``: 40 actions chosen from ``todo`` alone, as the
  conformance suite plays them), the bundled scenarios in turn; the same answer checked: every
  ``todo`` line of every step (command, open choices, refusals, owed steps), the log and the
  final state;
* ``vedette simulate solo_napoleonic``'s games (the random policy, up to 2000 actions), the same
  games checked action by action.

Run: ``python bench/bench_solonap_todo.py [GAMES]`` (games per batch; default 6, quick: 2).
Not a test: it fails only if the two paths disagree.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import QUICK, load, quick
from vedette import rules
from vedette.engine import Game, Store
from vedette.rules import protocol
from vedette.rules.solo_napoleonic import chance, memo, model, ruleset

RS = rules.get("solo_napoleonic")
STEPS = 40
ROUNDS = quick(5, 2)


def cold() -> None:
    """Every memo and cache the ruleset keeps (and the core's parsed requests) emptied."""
    memo.clear()
    for cache in (ruleset._UNIT_OPTIONS, chance._DECKS, model._CARD_MEMO):
        cache.clear()
    protocol._PARSED.clear()


def fill(t: Any, rng: random.Random) -> dict[str, Any]:
    req = dict(t.request)
    for k, choices in t.open.items():
        req[k] = rng.choice(list(choices))
    return req


def todo_game(scenario: str, seed: int, h: Any) -> None:
    """One game of ``STEPS`` actions from ``todo`` alone (tests/todo_play.py), hashed."""
    rng = random.Random(seed)
    g = Game.create(Store(":memory:"), f"b{seed}", RS.name, RS.scenario(scenario), seed=seed)
    for _ in range(STEPS):
        if RS.outcome(g.state) is not None:
            break
        todo = g.todo(strict=True)
        for t in todo:
            line = [t.command(), {k: list(v) for k, v in t.open.items()}, t.refused, t.owed]
            h.update(json.dumps(line, default=str).encode())
        t = rng.choice([t for t in todo if t.owed] or todo)
        g.perform(t.procedure, fill(t, rng))
    for r in g.records:
        h.update(json.dumps(r.payload, sort_keys=True, default=str).encode())
    h.update(json.dumps(RS.state_json(g.state), sort_keys=True, default=str).encode())


def todo_games(n: int) -> Callable[[], str]:
    scenarios = list(RS.scenarios)

    def run() -> str:
        h = hashlib.sha256()
        for i in range(n):
            todo_game(scenarios[i % len(scenarios)], i, h)
        return h.hexdigest()

    return run


def simulated_games(n: int) -> Callable[[], str]:
    from vedette.sim.play import Setup, play_game

    setup = Setup(RS.name, RS.scenario("sample"), max_actions=quick(2000, 400))

    def run() -> str:
        h = hashlib.sha256()
        for i in range(n):
            p = play_game(setup, 2026, i, record=True)
            r = p.result
            row = [r.winner, r.end, r.turns, r.actions, p.actions]
            h.update(json.dumps(row, sort_keys=True, default=str).encode())
        return h.hexdigest()

    return run


def compare(name: str, work: Callable[[], str], games: int) -> float:
    """Seconds (CPU) per game of the old path and with the memos, interleaved; the ratio."""
    best = {False: float("inf"), True: float("inf")}
    answers: dict[bool, set[str]] = {False: set(), True: set()}
    for _ in range(ROUNDS):
        for on in (False, True):
            memo.set_enabled(on)
            cold()
            t = time.process_time()
            answers[on].add(work())
            best[on] = min(best[on], time.process_time() - t)
    memo.set_enabled(True)
    same = answers[False] == answers[True] and len(answers[True]) == 1
    old, new = best[False] / games, best[True] / games
    print(
        f"{name:<28} old path {old * 1000:8.1f} ms/game   memos {new * 1000:8.1f} ms/game"
        f"   {old / new:5.2f}x   same games: {'yes' if same else 'NO'}"
    )
    if not same:
        raise SystemExit(f"{name}: the memos changed the games")
    return old / new


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else quick(6, 2)
    sims = quick(4, 1)
    print(f"Kuryakin: memos against the old path, CPU time, best of {ROUNDS} cold batches")
    print(f"({load()})")
    compare(f"todo play ({STEPS} actions)", todo_games(games), games)
    compare("simulate (random policy)", simulated_games(sims), sims)
    print(f"({load()})" + (" quick: rough figures" if QUICK else ""))


if __name__ == "__main__":
    main()
