"""Sequences (issue 17): what playing procedures in turn on a private copy costs.

A sequence's exact odds come from re-running its resolve once per dice branch (depth first,
by re-execution), and its resolve plays the real procedures (plan, resolve, fold) on a copy.
Two cases, each against a baseline measured in the same run that must give the same answer
(asserted):

* 2 by 2 ``attack melee`` (a melee with rout contagion among three ** units: 696 branches)
  against the core's enumeration of ``melee`` alone on the same state: the same dice tree,
  so the ratio is the overhead of the sequence machinery (the copy, the fold, the end-state
  label); the baseline's "defender routs" probability must equal the sum over the sequence's
  end states where the defender routs.
* Solitaire ASL ``shifts`` of two planned shifts (1,296 branches) against the planner's own
  chance nodes (``planner.odds_of``, which folds each 2d6 into its effects and never plays
  ``shift``): the price of end states (where each stack ends) over counts (how many got
  through); the distributions of "how many through" must agree.

Run: ``python bench/bench_sequences.py`` (prints numbers and ratios; not a test).
"""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from bench.timing import QUICK, load, once  # noqa: E402
from tests.solitaire_asl.test_asl_planner import three  # noqa: E402
from tests.two_by_two.test_2x2_sequences import battle  # noqa: E402
from vedette.rules.protocol import chances  # noqa: E402
from vedette.rules.solitaire_asl import RULESET as ASL  # noqa: E402
from vedette.rules.solitaire_asl.planner import odds_of, sequencing  # noqa: E402
from vedette.rules.solitaire_asl.requests import PlanRequest  # noqa: E402


def two_by_two() -> None:
    g = battle().game
    seq = lambda: g.chances("attack", {"action": "melee", "unit": "A", "target": "D"})  # noqa: E731
    base = lambda: g.chances("melee", {"attacker": "A", "defender": "D"})  # noqa: E731
    s, b = seq(), base()
    assert s.exact and b.exact and s.leaves == b.leaves
    routs = sum((r.p for r in s.rows if "D routs" in r.result), Fraction(0))
    assert routs == sum((r.p for r in b.rows if "defender routs" in r.result), Fraction(0))
    ts, tb = once(seq, 3), once(base, 3)
    print(f"2x2 attack melee ({s.leaves} branches, {len(s.rows)} end states): {ts * 1e3:.0f} ms")
    print(f"  baseline melee alone ({len(b.rows)} outcomes): {tb * 1e3:.0f} ms")
    print(f"  ratio sequence / procedure: {ts / tb:.2f} ({load()})")


def asl() -> None:
    state = three()
    pairs = ("P1:D1", "P2:D2")
    proc = ASL.sequences()["shifts"]
    plan = proc.plan(state, proc.parse({"shifts": list(pairs)}))
    seq = lambda: chances(lambda d: proc.resolve(state, plan, d))  # noqa: E731
    sq = sequencing(state, PlanRequest(shifts=pairs), ASL.config(), ASL.tables())
    base = lambda: odds_of(sq, (0, 1))  # noqa: E731
    s, b = seq(), base()
    assert s.exact and b.exact
    for n in range(3):  # how many got through: free or allowed, from each end state's label
        got = sum(
            (
                r.p
                for r in s.rows
                if sum(w.strip(",") in ("free", "allowed") for w in r.result.split("|")[0].split())
                == n
            ),
            Fraction(0),
        )
        assert got == b.p(f"{n} through"), n
    ts, tb = once(seq, 3), once(base, 3)
    print(f"ASL shifts x2 ({s.leaves} branches, {len(s.rows)} end states): {ts * 1e3:.0f} ms")
    print(f"  baseline planner odds_of ({b.leaves} branches): {tb * 1e3:.1f} ms")
    print(f"  ratio sequence / planner: {ts / tb:.0f} ({load()})")


def kuryakin() -> None:
    """The whole infantry charge (issue 29: answered in 2 s or less, every 95% interval within
    one percentage point): its size estimated, then sampled at once (a fresh plan, so its step
    cache starts empty, as a CLI call's does), timed once, wall and CPU. Shown beside it for
    scale: the cavalry charge, enumerated exactly. Asserted: sampled with the estimate in its
    note, no end state stopped short, every interval within a point (full mode); the cavalry
    charge exact and summing to 1. (The sampler against the previous one: bench_core.)"""
    import tempfile
    import time

    sys.path.insert(0, str(ROOT / "tests" / "solo_napoleonic"))
    from test_solonap_sequences import duel

    from vedette.rules.protocol import SAMPLES

    samples = 1_000 if QUICK else SAMPLES
    inf = duel(Path(tempfile.mkdtemp()), {"grade": "B"}, {"grade": "C"})
    cav = duel(Path(tempfile.mkdtemp()), {"kind": "cavalry"}, {"kind": "cavalry"})
    proc = inf.sequences()["charge_to_melee"]
    req = {"unit": "F1", "target": "A1"}

    def sampled() -> Any:
        plan = proc.plan(inf.state, proc.parse(req))
        return chances(lambda d: proc.resolve(inf.state, plan, d), samples=samples)

    t0, cpu0 = time.perf_counter(), time.process_time()
    c = sampled()  # as a CLI call: a new plan, its step cache empty
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    assert not c.exact and c.leaves <= samples and "estimated" in c.note, c.note
    assert not any(r.result.startswith("stopped") for r in c.rows)
    widest = max((r.high or 0) - (r.low or 0) for r in c.rows) / 2
    if not QUICK:
        assert widest <= 0.01, widest
    t1 = time.perf_counter()
    exact = cav.chances("charge_to_melee", req)
    tc = time.perf_counter() - t1
    assert exact.exact and sum(r.p for r in exact.rows) == 1
    print(
        f"Kuryakin charge_to_melee, B vs C infantry: sampled at once ({c.note}), {c.leaves:,} runs"
        f" (at most {samples:,}),"
        f" widest 95% interval +-{widest * 100:.2f} points: {wall:.2f} s ({cpu:.2f} s CPU;"
        f" target <= 2 s; {load()})"
    )
    print(f"  beside it, the cavalry charge, exact ({exact.leaves:,} branches): {tc:.2f} s")


if __name__ == "__main__":
    two_by_two()
    asl()
    kuryakin()
