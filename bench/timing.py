"""Timing helpers shared by the benchmarks.

``interleaved`` times several functions batch by batch in turn (a, b, c, a, b, c, ...) and
takes the best batch of each (per call): on a shared machine a busy moment slows whichever side
it falls on, and the least disturbed batch of each side is the one to compare (as ``timeit``
advises). The ratios printed are always against a baseline measured in the same run.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping


def _batch(fn: Callable[[], object], min_time: float) -> int:
    """How many calls make a batch of at least ``min_time`` seconds."""
    n = 1
    while True:
        t = time.perf_counter()
        for _ in range(n):
            fn()
        if time.perf_counter() - t >= min_time:
            return n
        n *= 2


def interleaved(
    fns: Mapping[str, Callable[[], object]], repeat: int = 15, min_time: float = 0.01
) -> dict[str, float]:
    """Seconds per call of each function in its best batch, the batches interleaved."""
    sizes = {k: _batch(f, min_time) for k, f in fns.items()}
    times: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(repeat):
        for k, f in fns.items():
            n = sizes[k]
            t = time.perf_counter()
            for _ in range(n):
                f()
            times[k].append((time.perf_counter() - t) / n)
    return {k: min(v) for k, v in times.items()}


def once(fn: Callable[[], object], repeat: int = 5) -> float:
    """Best seconds of single calls (for calls long enough to time one by one)."""
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return min(out)
