"""Core benchmarks (issue 2): exact odds vs icepool, vectorised Monte Carlo vs raw numpy and a
``random.randint`` loop, durable appends, replay speed. Prints ratios measured in one run."""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import icepool
import numpy as np

import tests.toy  # noqa: F401
from vedette.dice import Check, Modifier, UnderCheck, check, dist, notation, table_from_data
from vedette.dice.montecarlo import row_counts
from vedette.engine import Game, Store, replay


def per_call(fn: Callable[[], object], repeat: int = 7, min_time: float = 0.2) -> float:
    """Median seconds per call over ``repeat`` timed batches."""
    n = 1
    while True:
        t = time.perf_counter()
        for _ in range(n):
            fn()
        if time.perf_counter() - t > min_time / repeat:
            break
        n *= 2
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        times.append((time.perf_counter() - t) / n)
    return statistics.median(times)


COLD = False


def cold() -> None:
    """In the cold runs every memo is cleared (notation parse and distributions)."""
    if COLD:
        dist.clear_caches()
        for t in (MELEE, SHIFT, K):
            t.memo.clear()
        check._under_rows.cache_clear()
        check._under_odds.cache_clear()
        notation._parse_cached.cache_clear()


MELEE = table_from_data(
    "melee",
    {
        "rows": [
            {"range": "<=-6"},
            *({"range": str(i)} for i in range(-5, 0)),
            *({"range": str(i)} for i in range(0, 6)),
            {"range": ">=6"},
        ]
    },
)
SHIFT = table_from_data(
    "shift",
    {
        "rows": [
            {"range": "<=0"},
            {"range": "1-7"},
            {"range": "8-10"},
            {"range": "11-12"},
            {"range": ">=13"},
        ]
    },
)
K = table_from_data("k", {"rows": [{"range": "<=-1"}, {"range": "0"}, {"range": ">=1"}]})


def key_of(table: object) -> Callable[[int], str]:
    return lambda v: table.lookup(v).key  # type: ignore[attr-defined,no-any-return]


def ours_melee() -> object:
    cold()
    return Check("1d6 vs 1d6", (Modifier(1, "x"),), MELEE, reroll_draws=True).odds()


def ice_melee() -> object:
    d = (icepool.d6 + 1 - icepool.d6).reroll([0], depth="inf")
    return d.map(key_of(MELEE)).probabilities()


def ours_shift() -> object:
    cold()
    mods = (Modifier(1, "a", group="s"), Modifier(3, "b", group="s"), Modifier(-1, "c"))
    return Check("2d6", mods, SHIFT).odds()


def ice_shift() -> object:
    m = max(1, 3) - 1
    return (icepool.d6 + icepool.d6 + m).map(key_of(SHIFT)).probabilities()


def ours_custom() -> object:
    cold()
    return Check("dK8+dK12", (), K).odds()


K8 = [1, 2, 3, 0, 0, -1, -2, -3]
K12 = [5, 4, 3, 2, 1, 0, 0, -1, -2, -3, -4, -5]


def ice_custom() -> object:
    return (icepool.Die(K8) + icepool.Die(K12)).map(key_of(K)).probabilities()


def ours_under() -> object:
    cold()
    return UnderCheck(65, (Modifier(-9, "casualties"), Modifier(10, "friends"))).odds()


def ice_under() -> object:
    return (icepool.d100 <= 66).probabilities()


def bench_odds() -> None:
    global COLD
    print("exact odds as Fractions, median per call; icepool is the baseline")
    print("  warm = vedette's memoised distributions (as in play); cold = every memo cleared")
    for name, ours, ice in [
        ("opposed d6 melee, draws rerolled", ours_melee, ice_melee),
        ("2d6 with a starred DRM group", ours_shift, ice_shift),
        ("custom D8 + D12", ours_custom, ice_custom),
        ("d100 under-roll", ours_under, ice_under),
    ]:
        COLD = False
        t_warm = per_call(ours)
        COLD = True
        t_cold = per_call(ours)
        COLD = False
        t_ice = per_call(ice)
        print(
            f"  {name:<34} icepool {t_ice * 1e6:7.1f} µs | warm {t_warm * 1e6:6.1f} µs"
            f" = {t_ice / t_warm:5.1f}x | cold {t_cold * 1e6:6.1f} µs = {t_ice / t_cold:4.1f}x"
            " (target >= 15x)"
        )


def bench_monte_carlo() -> None:
    n = 1_000_000
    c = Check("2d6", (Modifier(2, "x"),), SHIFT)
    t = per_call(lambda: row_counts(c, n, 1), repeat=5)
    t_cdf = per_call(lambda: row_counts(c, n, 1, method="cdf"), repeat=5)
    rng = np.random.default_rng(1)
    t_raw = per_call(lambda: rng.integers(1, 7, size=n), repeat=5)
    rr = random.Random(1)

    def loop() -> None:
        for _ in range(20_000):
            v = rr.randint(1, 6) + rr.randint(1, 6) + 2
            SHIFT.lookup(v)

    t_loop = per_call(loop, repeat=3) * (n / 20_000)
    raw = n / t_raw
    print("vectorised Monte Carlo (2d6+2 read on a 5-row table, 1,000,000 per batch)")
    print(
        f"  baseline: raw numpy bounded-integer draws {raw:,.0f}/s;"
        f" plain random.randint loop {n / t_loop:,.0f} resolutions/s"
    )
    for name, tt in (("cdf (one draw per resolution)", t_cdf), ("dice (every die rolled)", t)):
        ours = n / tt
        print(
            f"  vedette {name:<30} {ours:>13,.0f}/s = {ours / raw * 100:3.0f}% of raw"
            f" (target >= 40%), {ours / (n / t_loop):4.0f}x the loop (target >= 100x)"
        )


def bench_store() -> None:
    with tempfile.TemporaryDirectory() as d:
        st = Store(Path(d) / "b.db")
        gid = st.create_game("b", "toy", {"ruleset": "toy", "scenario": {}, "seed": 1})
        payload = {
            "procedure": "advance",
            "request": {},
            "events": [{"kind": "moved", "data": {"by": 3}}],
            "rolls": [],
            "message": "",
            "dice": {"source": "seeded", "before": 0, "after": 1},
        }
        n = 1000
        t = time.perf_counter()
        for i in range(n):
            st.append(gid, i + 2, "action", payload)
        dt = time.perf_counter() - t
        print(
            f"durable single-event appends (synchronous=FULL, WAL): {n / dt:,.0f}/s"
            " (target >= 2,000/s)"
        )
        g = Game.create(st, "r", "toy", {"limit": 10**9}, seed=1)
        recs = st.records(gid)
        recs[0] = st.records(g.id)[0]
        t = time.perf_counter()
        for _ in range(20):
            replay(g.ruleset, recs)
        dt = (time.perf_counter() - t) / 20
        print(
            f"replay: {len(recs) / dt:,.0f} events/s over {len(recs)} events (target >= 50,000/s)"
        )


if __name__ == "__main__":
    bench_odds()
    bench_monte_carlo()
    bench_store()
