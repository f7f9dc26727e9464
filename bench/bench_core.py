"""Core benchmarks: exact odds of shipped checks against icepool (cold and warm), vectorised Monte
Carlo against raw numpy drawing the same dice in the same dtype, durable appends against raw
sqlite3. Every section asserts that vedette and its baseline computed the same answer, and
prints ratios against the baseline measured in the same run (batches interleaved, see
``bench/timing.py``). Replay and open per ruleset: ``bench/bench_replay.py``.

Run: ``python bench/bench_core.py`` (or ``make bench``). Not a test: nothing here fails on time.
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
import tempfile
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import icepool
import numpy as np

from bench.timing import interleaved
from vedette import rules
from vedette.dice import Check, Modifier, Table, UnderCheck, check
from vedette.dice.die import CUSTOM
from vedette.dice.montecarlo import row_counts
from vedette.engine import Store
from vedette.rules.napoleon_at_bay import RULESET as NAB
from vedette.rules.napoleon_at_bay import fixing as fx
from vedette.rules.solo_napoleonic.common import under
from vedette.rules.two_by_two.melee import signed_table

# -- exact odds -------------------------------------------------------------------------------
NAB_STATE = NAB.initial_state(NAB.scenario("sample"), {})
NAB_TABLE = NAB_STATE.config.table
MELEE = signed_table(rules.get("two_by_two").tables()["melee"])
SHIFT = rules.get("solitaire_asl").tables()["shift"]
SWERVE = rules.get("solo_napoleonic").tables()["swerve"]
TABLES: tuple[Table, ...] = (NAB_TABLE, MELEE, SHIFT, SWERVE)


def nab_fixing() -> Check:
    """Herman (3): F1 moves into R1's ZOC in the sample scenario; only Ru has a vedette: +2."""
    return fx.fixing_check(NAB_STATE, NAB_STATE.pieces["F1"], NAB_STATE.pieces["R1"])


def two_by_two_melee() -> Check:
    """2 by 2 melee as melee.judge builds it: 1d6 vs 1d6 with each side's modifiers, read on
    the shipped melee table made signed, draws rerolled."""
    a = (Modifier(1, "column of attack"), Modifier(1, "charging"))
    b = (Modifier(-2, "road column"),)
    return Check("1d6 vs 1d6", a, MELEE, "melee", "2 by 2, Melee", b, reroll_draws=True)


def asl_shift() -> Check:
    """O'Leary 2.5: 2d6 with starred size DRMs (only the largest applies) and a plain DRM."""
    mods = (
        Modifier(1, "squad", group="size"),
        Modifier(3, "two squads", group="size"),
        Modifier(-1, "concealed"),
    )
    return Check("2d6", mods, SHIFT, "shift", "O'Leary 2.5")


def kuryakin_morale() -> UnderCheck:
    """Kuryakin, Morale: d100 below the BPL plus modifiers (common.under, strict)."""
    mods = (Modifier(-9, "3 casualties"), Modifier(10, "friends near"))
    return under(65, mods, "morale", "Kuryakin, Morale")


def kuryakin_swerve() -> Check:
    return Check("1d6", (), SWERVE, "swerve", "Kuryakin, Movement")


def kuryakin_random_move() -> Check:
    """Kuryakin's random movement die: dK12 (+5..+1, 0, 0, -1..-5 cm), no table."""
    return Check("1dK12", (), None, "random movement (cm)", "Kuryakin, Movement")


def by_table(table: Table) -> Callable[[int], str]:
    return lambda v: table.lookup(v).key


def ice_nab() -> dict[Any, Fraction]:
    return _probs((icepool.d6 + 2).map(by_table(NAB_TABLE)))


def ice_melee() -> dict[Any, Fraction]:
    d = ((icepool.d6 + 2) - (icepool.d6 - 2)).reroll([0], depth="inf")
    return _probs(d.map(by_table(MELEE)))


def ice_shift() -> dict[Any, Fraction]:
    return _probs((2 @ icepool.d6 + 2).map(by_table(SHIFT)))


def ice_morale() -> dict[Any, Fraction]:
    p = _probs((icepool.d100 - 1) < 66)  # percentile dice read 00-99 (Kuryakin, Morale)
    return {"pass": p.get(True, Fraction(0)), "fail": p.get(False, Fraction(0))}


def ice_swerve() -> dict[Any, Fraction]:
    return _probs(icepool.d6.map(by_table(SWERVE)))


def ice_random_move() -> dict[Any, Fraction]:
    return {str(k): v for k, v in _probs(icepool.Die(list(CUSTOM["K12"].faces))).items()}


def _probs(d: Any) -> dict[Any, Fraction]:
    return dict(zip(d.outcomes(), d.probabilities(), strict=True))


def clear() -> None:
    """What cold_odds does before the odds (timed apart and subtracted)."""
    check.clear_caches()
    for t in TABLES:
        t.memo.clear()


def cold_odds(c: Check | UnderCheck) -> Callable[[], object]:
    """The first odds of a procedure's check: every memo of the dice package and of the tables
    forgotten first (parsed notation, distributions, row odds, under-roll odds)."""

    def run() -> object:
        check.clear_caches()
        for t in TABLES:
            t.memo.clear()
        return c.odds()

    return run


def bench_odds() -> None:
    print("exact odds (Fractions) of shipped checks; baseline: icepool on the same distribution")
    print("  cold = the first odds of the procedure's check: every vedette memo cleared first (the")
    print("  clearing timed apart and subtracted); warm = the same odds again: a memo hit, not a")
    print("  computation. icepool keeps its own caches (e.g. its standard dice) as in normal use.")
    cases: list[tuple[str, Callable[[], Check | UnderCheck], Callable[[], dict[Any, Fraction]]]]
    cases = [
        ("NAB fixing 1d6+2, fixing table", nab_fixing, ice_nab),
        ("2x2 melee 1d6+2 vs 1d6-2, rerolled", two_by_two_melee, ice_melee),
        ("ASL shift 2d6, starred DRMs", asl_shift, ice_shift),
        ("Kuryakin morale d100 < 66", kuryakin_morale, ice_morale),
        ("Kuryakin swerve 1d6, table", kuryakin_swerve, ice_swerve),
        ("Kuryakin random move dK12", kuryakin_random_move, ice_random_move),
    ]
    worst = float("inf")
    for name, build, ice in cases:
        c = build()  # the check the procedure builds (its rules are not timed)
        ours = c.odds().as_dict()
        theirs = ice()
        assert {k: v for k, v in ours.items() if v} == {k: v for k, v in theirs.items() if v}, name
        assert cold_odds(c)() == c.odds(), name  # cold and warm give the same odds
        t = interleaved({"ice": ice, "cold": cold_odds(c), "warm": c.odds, "clear": clear})
        t["cold"] -= t["clear"]  # the clearing is the bench's, not part of a first call
        worst = min(worst, t["ice"] / t["cold"])
        print(
            f"  {name:<36} icepool {t['ice'] * 1e6:7.1f} µs | cold {t['cold'] * 1e6:6.1f} µs"
            f" = {t['ice'] / t['cold']:5.1f}x | warm (memo hit) {t['warm'] * 1e6:5.1f} µs"
            f" = {t['ice'] / t['warm']:5.1f}x"
        )
    print(f"  worst cold ratio {worst:.1f}x (target >= 5x icepool)")


# -- Monte Carlo ------------------------------------------------------------------------------
def bench_monte_carlo() -> None:
    n = 1_000_000
    seed = 1
    c = Check("2d6", (Modifier(2, "x"),), SHIFT)
    bounds = np.asarray(SHIFT.boundaries(), dtype=np.int16)
    keys = [r.key for r in SHIFT.rows]

    def read(values: Any, shift: int) -> dict[str, int]:
        """The best raw numpy read: count each value once, then each row of its figures
        (value + shift); no pass over the samples but the count."""
        per = np.bincount(values)
        present = np.flatnonzero(per)
        counts = np.zeros(len(keys), dtype=np.int64)
        np.add.at(counts, np.searchsorted(bounds, present + shift), per[present])
        return {k: int(x) for k, x in zip(keys, counts, strict=True)}

    def raw_dice() -> dict[str, int]:
        """Raw numpy, every die drawn as vedette draws it (8-bit faces summed in 16 bits)."""
        rng = np.random.default_rng(seed)
        total = rng.integers(1, 7, size=n, dtype=np.int8).astype(np.int16)
        total += rng.integers(1, 7, size=n, dtype=np.int8)
        return read(total, 2)

    def draws_only() -> object:
        rng = np.random.default_rng(seed)
        rng.integers(1, 7, size=n, dtype=np.int8)
        return rng.integers(1, 7, size=n, dtype=np.int8)

    w = c.weights()
    lo = min(w)
    codes = np.repeat(
        np.asarray([v - lo for v in sorted(w)], dtype=np.intp), [w[v] for v in sorted(w)]
    )

    def raw_cdf() -> dict[str, int]:
        """Raw numpy, one 16-bit draw per resolution from the same 36 weighted codes."""
        rng = np.random.default_rng(seed)
        return read(codes[rng.integers(0, len(codes), size=n, dtype=np.int16)], lo)

    rr = random.Random(seed)
    loop_n = 20_000

    def loop() -> dict[str, int]:
        out = {k: 0 for k in keys}
        for _ in range(loop_n):
            out[SHIFT.lookup(rr.randint(1, 6) + rr.randint(1, 6) + 2).key] += 1
        return out

    ours_dice = row_counts(c, n, seed)
    ours_cdf = row_counts(c, n, seed, method="cdf")
    assert ours_dice == raw_dice(), "every-die mode: same draws, same counts"
    assert ours_cdf == raw_cdf(), "cdf mode: same draws, same counts"
    exact = c.odds().as_dict()
    sample = loop()
    for k, p in exact.items():  # the loop's own stream: the same odds within 5 sigma
        sd = (float(p) * (1 - float(p)) / loop_n) ** 0.5
        assert abs(sample[k] / loop_n - float(p)) <= 5 * sd + 1e-12, k
    t = interleaved(
        {
            "dice": lambda: row_counts(c, n, seed),
            "raw_dice": raw_dice,
            "draws": draws_only,
            "cdf": lambda: row_counts(c, n, seed, method="cdf"),
            "raw_cdf": raw_cdf,
            "loop": loop,
        },
        repeat=5,
    )
    loop_rate = loop_n / t["loop"]
    print("vectorised Monte Carlo: 2d6+2 read on ASL's shift table, 1,000,000 per batch")
    print(
        "  baselines: raw numpy drawing the same dice in the same dtype from the same seed"
        " (asserted: the same row counts);"
    )
    print(f"  a plain random.randint loop: {loop_rate:,.0f} resolutions/s")
    for name, ours, raw, what in (
        ("every die (int8 faces)", "dice", "raw_dice", "raw numpy draw+sum+read"),
        ("cdf (one int16 draw)", "cdf", "raw_cdf", "raw numpy draw+read"),
    ):
        rate = n / t[ours]
        print(
            f"  vedette {name:<24} {rate:>12,.0f}/s = {t[raw] / t[ours] * 100:3.0f}% of {what}"
            f" ({n / t[raw]:,.0f}/s), {rate / loop_rate:4.0f}x the loop"
        )
    print(
        f"  (drawing the two int8 dice alone: {n / t['draws']:,.0f}/s;"
        f" every-die mode is {t['draws'] / t['dice'] * 100:.0f}% of that)"
    )


# -- durable appends --------------------------------------------------------------------------
def bench_store() -> None:
    payload = {
        "procedure": "advance",
        "request": {},
        "events": [{"kind": "moved", "data": {"by": 3}}],
        "rolls": [],
        "message": "",
        "dice": {"source": "seeded", "before": 0, "after": 1},
    }
    with tempfile.TemporaryDirectory() as d:
        st = Store(Path(d) / "b.db")
        gid = st.create_game("b", "toy", {"ruleset": "toy", "scenario": {}, "seed": 1})
        raw = sqlite3.connect(Path(d) / "raw.db", isolation_level=None)
        raw.execute("PRAGMA journal_mode=WAL")
        raw.execute("PRAGMA synchronous=FULL")
        raw.execute("CREATE TABLE events(seq INTEGER PRIMARY KEY, payload TEXT NOT NULL)")
        seq = {"ours": 1, "raw": 0}

        def ours() -> None:
            seq["ours"] += 1
            st.append(gid, seq["ours"], "action", payload)

        def baseline() -> None:
            seq["raw"] += 1
            raw.execute("BEGIN IMMEDIATE")
            raw.execute("INSERT INTO events VALUES (?, ?)", (seq["raw"], json.dumps(payload)))
            raw.execute("COMMIT")

        t = interleaved({"ours": ours, "raw": baseline}, repeat=5, min_time=0.05)
        got = [r.payload for r in st.records(gid)[1:]]
        want = [json.loads(p) for (p,) in raw.execute("SELECT payload FROM events ORDER BY seq")]
        assert got == want and len(got) == seq["raw"]
        raw.close()
        st.close()
    print(
        f"durable single-event appends (WAL, synchronous=FULL): {1 / t['ours']:,.0f}/s ="
        f" {t['raw'] / t['ours'] * 100:.0f}% of raw sqlite3 INSERT+COMMIT ({1 / t['raw']:,.0f}/s)"
        " (target >= 2,000/s)"
    )


if __name__ == "__main__":
    bench_odds()
    bench_monte_carlo()
    bench_store()
