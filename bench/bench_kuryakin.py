"""Kuryakin (Solo Napoleonic): a whole turn of card activations at 25, 100 and 400 units.

Each unit holds its own card (no brigadiers), the cards are dealt by hand in a shuffled order,
then the turn's ``next``s are run until every card has acted (each folds its events into the
state, as the engine does). The issue's target: the turn at 400 units within 20 times the turn
at 25 (a turn of N activations O(N log N) or better: 16 times the units).

Run: ``python bench/bench_kuryakin.py`` (prints numbers and the ratio; not a test).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import QUICK, load, quick
from vedette.dice import ScriptedSource
from vedette.rules.solo_napoleonic import RULESET as R
from vedette.rules.solo_napoleonic.model import State

SIZES = (25, 100) if QUICK else (25, 100, 400)
REPEATS = quick(5, 2)


def scenario(n: int) -> dict[str, Any]:
    units = [
        {
            "id": f"U{i}",
            "name": f"U{i}",
            "side": "French" if i % 2 else "Allies",
            "kind": "infantry",
            "grade": "C",
            "figures": 18,
        }
        for i in range(n)
    ]
    return {"title": f"bench {n}", "sides": ["French", "Allies"], "units": units}


def run(state: State, proc: str, **req: Any) -> State:
    out = R.procedures[proc].run(state, req, ScriptedSource([]))
    for e in out.events:
        state = R.fold(state, e)
    return state


def dealt(n: int) -> State:
    s = R.initial_state(scenario(n), {})
    s = run(s, "control")
    order = list(range(1, n + 1))
    random.Random(n).shuffle(order)  # the benchmark's own deal, not a game's dice
    return run(s, "deal", cards={u.id: k for u, k in zip(s.units, order, strict=True)}, chance={})


def turn(s: State) -> tuple[float, int]:
    t0 = time.perf_counter()
    k = 0
    while s.phase == "activation":
        s = run(s, "next")
        R.obligations(s)  # the engine asks what is owed before every action
        k += 1
    return time.perf_counter() - t0, k


def main() -> None:
    times: dict[int, list[float]] = {n: [] for n in SIZES}
    steps: dict[int, int] = {}
    print(f"a turn of Kuryakin activations, sizes interleaved, best of {REPEATS} ({load()})")
    for _ in range(REPEATS):  # interleaved: each round plays every size once
        for n in SIZES:
            dt, steps[n] = turn(dealt(n))
            times[n].append(dt)
    best = {n: min(v) for n, v in times.items()}
    for n in SIZES:
        assert steps[n] == n + 1, (n, steps[n])  # every card acted, then the turn ended
        print(
            f"{n:4d} units: a turn of {steps[n]} activations {best[n] * 1000:8.2f} ms "
            f"(median {statistics.median(times[n]) * 1000:.2f} ms)"
        )
    ratio = best[SIZES[-1]] / best[SIZES[0]]
    x = SIZES[-1] // SIZES[0]
    print(
        f"ratio {SIZES[-1]} vs {SIZES[0]} units: {ratio:.1f}x (target at 400 vs 25: within 20x"
        + ("" if QUICK else f": {'met' if ratio <= 20 else 'NOT met'}")
        + f"; {x}x the units; {load()})"
    )


if __name__ == "__main__":
    main()
