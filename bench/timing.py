"""Timing helpers shared by the benchmarks.

``interleaved`` times several functions batch by batch in turn (a, b, c, a, b, c, ...) and
takes the best batch of each (per call): on a shared machine a busy moment slows whichever side
it falls on, and the least disturbed batch of each side is the one to compare (as ``timeit``
advises). The ratios printed are always against a baseline measured in the same run.

``QUICK`` (``python -m bench --quick``, or ``VEDETTE_BENCH_QUICK=1``): every bench runs small
(fewer batches, smaller inputs) so that CI can run them all in seconds and see that they still
run and still agree with their baselines; its figures are rough. ``load()`` is the machine's
load average, printed beside the figures (timings taken on a busy machine are inflated).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path

QUICK = os.environ.get("VEDETTE_BENCH_QUICK", "") not in ("", "0")


def quick(full: int, small: int) -> int:
    """``small`` in quick mode, else ``full`` (a bench's size)."""
    return small if QUICK else full


def load() -> str:
    """The load average (1, 5, 15 minutes), to print beside figures."""
    a, b, c = os.getloadavg()
    return f"load {a:.2f} {b:.2f} {c:.2f} on {os.cpu_count()} cores" + (" (quick)" if QUICK else "")


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
    if QUICK:
        repeat, min_time = min(repeat, 2), min(min_time, 0.002)
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
    if QUICK:
        repeat = 1
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return min(out)


def _on_tmpfs(path: str) -> bool:
    """Whether ``path`` lies on a memory file system (its writes never reach a disk)."""
    try:
        mounts = [ln.split() for ln in Path("/proc/mounts").read_text().splitlines()]
    except OSError:
        return False
    best, kind = "", ""
    real = os.path.realpath(path)
    for m in mounts:
        inside = len(m) > 2 and (real == m[1] or real.startswith(m[1].rstrip("/") + "/"))
        if inside and len(m[1]) > len(best):
            best, kind = m[1], m[2]
    return kind in ("tmpfs", "ramfs")


def disk_dir() -> str:
    """A directory on a disk for a bench's databases (``VEDETTE_BENCH_DIR``, else the system's
    temporary directory unless that is in memory, else ``.bench/`` in the checkout): logs are
    timed as a user's are written, never on tmpfs."""
    given = os.environ.get("VEDETTE_BENCH_DIR")
    if given:
        return given
    tmp = tempfile.gettempdir()
    if not _on_tmpfs(tmp):
        return tmp
    d = Path(__file__).resolve().parent.parent / ".bench"
    d.mkdir(exist_ok=True)
    return str(d)
