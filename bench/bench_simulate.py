"""Balance studies (issue 17): games per second on 1 and on 2 local worker processes.

The study: ``GAMES`` games of the 2 by 2 sample ("The bridge at Neudorf"), random-legal
policy, played whole (to the ruleset's victory check). Baseline, measured in the same run: the
same study on 1 worker (in this process). Printed: games/s of each and the ratio 2 workers vs
1. Asserted: both runs give identical results (every game's result, in game-index order).

Each side is timed twice, alternating (1, 2, 1, 2), and the faster run of each is kept: the
machine is shared, and a busy moment should not decide the ratio. The 2-worker run includes
starting its processes (as the command does).

Run: ``python bench/bench_simulate.py [GAMES]`` (default 40). Not a test.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from vedette import rules
from vedette.sim.play import GameResult, Setup
from vedette.sim.run import run_local

GAMES = int(sys.argv[1]) if len(sys.argv) > 1 else 40
SEED = 2026


def timed(setup: Setup, workers: int) -> tuple[float, list[GameResult]]:
    t = time.perf_counter()
    results = run_local(setup, SEED, GAMES, workers)
    return time.perf_counter() - t, results


def main() -> None:
    rs = rules.get("two_by_two")
    setup = Setup(rs.name, rs.scenario("sample"))
    timed(setup, 1)  # warm: imports, the ruleset's data
    best: dict[int, float] = {}
    answers: dict[int, list[GameResult]] = {}
    for _ in range(2):
        for workers in (1, 2):
            s, res = timed(setup, workers)
            best[workers] = min(best.get(workers, s), s)
            answers[workers] = res
    assert answers[1] == answers[2], "1 and 2 workers disagree"
    for w in (1, 2):
        print(f"{w} worker(s): {GAMES / best[w]:7.2f} games/s ({best[w]:.2f} s for {GAMES})")
    print(f"2 workers vs 1 (baseline): {best[1] / best[2]:.2f}x")
    acts = sum(r.actions for r in answers[1]) / GAMES
    print(f"mean actions a game: {acts:.1f}; identical results: yes")


if __name__ == "__main__":
    main()
