"""Core benchmarks: exact odds of shipped checks, single and multi-roll, against icepool (cold:
icepool computing; warm: icepool's answer under functools.cache), the sampler that runs when a
tree is too large to enumerate against the previous one, durable appends against raw sqlite3
with the same durability, on disk. Every section asserts that vedette and its baseline computed
the same answer, and prints ratios against the baseline measured in the same run (batches
interleaved, see ``bench/timing.py``), with the machine's load. Replay: ``bench/bench_replay.py``.

Run: ``python bench/bench_core.py`` (or ``make bench``). Not a test: nothing here fails on time.
"""

from __future__ import annotations

import functools
import json
import sqlite3
import sys
import tempfile
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "solo_napoleonic"))

import icepool

from bench.timing import disk_dir, interleaved, load, quick
from vedette import rules
from vedette.dice import Check, Modifier, Table, UnderCheck, check
from vedette.dice.die import CUSTOM
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


# -- multi-roll checks: Kuryakin's casualties (dice, a fraction by percentile dice, saves) ------
def _kuryakin(firer: dict[str, Any], target: dict[str, Any]) -> Any:
    from tests.solo_napoleonic.solonap_helpers import activate, make, unit

    return activate(make([unit("f", **firer), unit("t", "Allies", **target)]), "f")


def _fire_plan(firer: dict[str, Any], target: dict[str, Any], req: dict[str, Any]) -> Any:
    from tests.solo_napoleonic.solonap_helpers import request
    from vedette.rules.solo_napoleonic.fire import plan

    s = _kuryakin(firer, target)
    return s, plan(s, request("fire", {"unit": "f", "target": "t", **req}))


def _melee_side(a: dict[str, Any], b: dict[str, Any]) -> Any:
    from tests.solo_napoleonic.solonap_helpers import activate, make, request, unit
    from vedette.rules.solo_napoleonic.melee import sides

    ua = unit("a", charge_state="home", charge_target="b", **a)
    s = activate(make([ua, unit("b", "Allies", **b)]), "a")
    return sides(s, request("melee", {"unit": "a", "target": "b", "contact": True}))[1]


def _ice_fraction(h: int, frac: Fraction) -> Any:
    """h x frac: the whole number, one more when percentile dice (00-99) fall under the
    remainder's percent (pct faces of the 100)."""
    exact = h * frac
    whole = exact.numerator // exact.denominator
    pct = round((exact - whole) * 100)
    if pct == 0:
        return whole
    return icepool.Die({whole: 100 - pct, whole + 1: pct})


def _ice_saves(n: int, save: int) -> Any:
    return n @ (icepool.d6 < save) if n > 0 else 0


def _ice_capped(d: Any, cap: int) -> dict[Any, Fraction]:
    return {k: v for k, v in _probs(d.map(lambda c: min(c, cap))).items() if v}


def ice_volley(p: Any) -> Callable[[], dict[Any, Fraction]]:
    plus = sum(m.value for m in p.modifiers)

    def run() -> dict[Any, Fraction]:
        hits = p.dice_count @ (icepool.d6 + plus).map(lambda v: max(0, v))
        actual = hits.map(lambda h: _ice_fraction(h, p.fraction))
        return _ice_capped(actual.map(lambda n: _ice_saves(n, p.save)), p.target.figures)

    return run


def ice_skirmish(p: Any) -> Callable[[], dict[Any, Fraction]]:
    def run() -> dict[Any, Fraction]:
        hits = p.dice_count @ (icepool.d6 >= p.hit_on)
        return _ice_capped(hits.map(lambda n: _ice_saves(n, p.save)), p.target.figures)

    return run


def ice_battery(p: Any) -> Callable[[], dict[Any, Fraction]]:
    n, _, rest = p.die.partition("d")
    plus = sum(m.value for m in p.modifiers)

    def run() -> dict[Any, Fraction]:
        hits = (int(n or 1) @ icepool.Die(range(1, int(rest) + 1)) + plus).map(lambda v: max(0, v))
        return _ice_capped(hits.map(lambda h: _ice_saves(h, p.save)), p.target.figures)

    return run


def ice_side(s: Any) -> Callable[[], dict[Any, Fraction]]:
    plus = sum(m.value for m in s.modifiers)

    def run() -> dict[Any, Fraction]:
        total = s.dice @ (icepool.d6 + plus).map(lambda v: max(0, v))
        pot = total.map(lambda t: _ice_fraction(t, Fraction(1, 2)))
        cas = pot.map(lambda n: _ice_saves(n, s.save))
        if s.halve:
            cas = cas.map(lambda c: _ice_fraction(c, Fraction(1, 2)) if c else 0)
        return _ice_capped(cas, s.enemy.figures)

    return run


def fire_case(
    firer: dict[str, Any], target: dict[str, Any], req: dict[str, Any]
) -> tuple[Any, ...]:
    from vedette.rules.solo_napoleonic.fire import fire_casualties

    s, p = _fire_plan(firer, target, req)
    ice = {"volley": ice_volley, "skirmish": ice_skirmish}.get(p.method, ice_battery)(p)
    return (lambda: fire_casualties(s, p)), ice, p


def melee_case(a: dict[str, Any], b: dict[str, Any]) -> tuple[Any, ...]:
    from vedette.rules.solo_napoleonic.melee import side_odds

    side = _melee_side(a, b)
    return (lambda: side_odds(side, "dP")), ice_side(side), side


def clear() -> None:
    """What a cold call forgets first (timed apart and subtracted): every memo of the dice
    package and of the tables, and the Kuryakin stages' own (sums, fractions, binomials,
    melee sides)."""
    from vedette.rules.solo_napoleonic import common, melee

    check.clear_caches()
    for t in TABLES:
        t.memo.clear()
    for f in (common._floored_sum, common._passes, common.count_dist, melee.side_odds):
        f.cache_clear()


def cold(fn: Callable[[], object]) -> Callable[[], object]:
    """The first odds of a procedure's check: every memo forgotten first (see ``clear``)."""

    def run() -> object:
        clear()
        return fn()

    return run


def bench_odds() -> None:
    print(
        f"exact odds (Fractions) of shipped checks; baseline: icepool on the same dice ({load()})"
    )
    print("  cold = the first odds of the procedure's check, every vedette memo cleared first (the")
    print("  clearing timed apart and subtracted), against icepool computing it; warm = the same")
    print("  odds again, against icepool's answer kept with functools.cache (a competent user's")
    print("  memo). Asserted: both give the same exact Fractions.")
    cases: list[tuple[str, Callable[[], object], Callable[[], dict[Any, Fraction]]]] = []
    for name, build, ice in (
        ("NAB fixing 1d6+2, fixing table", nab_fixing, ice_nab),
        ("2x2 melee 1d6+2 vs 1d6-2, rerolled", two_by_two_melee, ice_melee),
        ("ASL shift 2d6, starred DRMs", asl_shift, ice_shift),
        ("Kuryakin morale d100 < 66", kuryakin_morale, ice_morale),
        ("Kuryakin swerve 1d6, table", kuryakin_swerve, ice_swerve),
        ("Kuryakin random move dK12", kuryakin_random_move, ice_random_move),
    ):
        c = build()  # the check the procedure builds (its rules are not timed)
        cases.append((name, lambda c=c: c.odds().as_dict(), ice))
    volley = fire_case({"grade": "D", "figures": 24, "front": 12}, {}, {"range": "short"})
    multi = [
        ("Kuryakin volley 2x1d6-1, x3/4 dP, saves 5+", volley),
        (
            "Kuryakin volley 6x1d6, x1/4 dP, saves 4+",
            fire_case({"figures": 24, "front": 12}, {}, {"range": "long"}),
        ),
        (
            "Kuryakin skirmish 6d6 hit 5+, saves",
            fire_case({"figures": 6, "formation": "skirmish"}, {}, {"range": "short"}),
        ),
        (
            "Kuryakin battery, canister",
            fire_case(
                {"kind": "foot_artillery", "formation": "unlimbered", "figures": 3},
                {},
                {"range": "canister"},
            ),
        ),
        (
            "Kuryakin melee side, infantry",
            melee_case({"figures": 24, "front": 8, "advancing": True}, {"figures": 18, "front": 9}),
        ),
        (
            "Kuryakin melee side, skirmishers halve",
            melee_case({"figures": 12, "formation": "skirmish", "front": 12}, {"figures": 16}),
        ),
    ]
    for name, (ours, ice, _) in multi:
        cases.append((name, ours, ice))
    worst = float("inf")
    worst_multi = float("inf")
    for i, (name, ours, ice) in enumerate(cases):
        want = {k: v for k, v in ice().items() if v}
        got = {k: v for k, v in dict(ours()).items() if v}  # type: ignore[call-overload]
        assert got == want, name
        assert cold(ours)() == ours(), name  # cold and warm give the same odds
        ice_warm = functools.cache(ice)
        t = interleaved(
            {"ice": ice, "cold": cold(ours), "warm": ours, "ice_warm": ice_warm, "clear": clear}
        )
        t["cold"] -= t["clear"]  # the clearing is the bench's, not part of a first call
        r = t["ice"] / t["cold"]
        worst = min(worst, r)
        if i >= len(cases) - len(multi):
            worst_multi = min(worst_multi, r)
        print(
            f"  {name:<44} icepool {t['ice'] * 1e6:7.1f} µs | cold {t['cold'] * 1e6:6.1f} µs"
            f" = {r:5.1f}x | warm {t['warm'] * 1e6:6.1f} µs vs icepool cached"
            f" {t['ice_warm'] * 1e6:5.2f} µs = {t['ice_warm'] / t['warm']:5.2f}x"
        )
    print(f"  worst cold ratio {worst:.1f}x; multi-roll checks {worst_multi:.1f}x (target >= 1x)")
    print(f"  ({load()})")


# -- Monte Carlo ------------------------------------------------------------------------------
def bench_monte_carlo() -> None:
    """The sampler that runs when a tree is too large to enumerate (``protocol.chances``):
    Kuryakin's whole infantry charge (``charge_to_melee``, about 40,000 branches), sampled by
    walking the same whole-check branches with each step replayed from the sequence's cache,
    against the previous sampler (a seeded source rolling every die, every step played),
    the same number of runs each, interleaved; both must estimate the same chances (every
    facet within 4.5 standard errors of the other's)."""
    import tempfile as tf

    from tests.solo_napoleonic.test_solonap_sequences import duel
    from vedette.dice.sources import SeededSource
    from vedette.rules.protocol import _sampled, result_of

    runs = quick(2_000, 150)
    g = duel(Path(tf.mkdtemp()), {"grade": "B"}, {"grade": "C"})
    proc = g.sequences()["charge_to_melee"]
    state = g.state
    request = proc.parse({"unit": "F1", "target": "A1"})

    def ours() -> dict[str, float]:
        plan = proc.plan(state, request)  # a new plan: its step cache starts empty
        c = _sampled(lambda d: proc.resolve(state, plan, d), runs, 7, 0)
        return {r.result: float(r.p) for r in c.rows}

    def before() -> dict[str, float]:
        plan = proc.plan(state, request)
        counts: dict[str, int] = {}
        for i in range(runs):
            k = result_of(proc.resolve(state, plan, SeededSource(7 + i, 0)))
            counts[k] = counts.get(k, 0) + 1
        return {k: n / runs for k, n in counts.items()}

    a, b = ours(), before()
    for facet in ("will not charge", "routs before contact", "halted by fire", "melee: "):
        pa = sum(p for k, p in a.items() if facet in k)
        pb = sum(p for k, p in b.items() if facet in k)
        se = max(((pa * (1 - pa) + pb * (1 - pb)) / runs) ** 0.5, 1e-9)
        assert abs(pa - pb) <= 4.5 * se, (facet, pa, pb)
    t = interleaved({"ours": ours, "before": before}, repeat=3, min_time=0)
    print(f"sampling a tree too large to enumerate ({load()}):")
    print(
        f"  Kuryakin charge_to_melee, B vs C infantry, {runs:,} runs: {t['ours']:.2f} s"
        f" ({runs / t['ours']:,.0f} runs/s) vs the previous sampler {t['before']:.2f} s"
        f" = {t['before'] / t['ours']:.1f}x (same facets within their errors)"
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
    with tempfile.TemporaryDirectory(dir=disk_dir()) as d:
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
        # each side made its own number of appends (batch sizes differ): each holds all of its
        # own, every one the same payload
        got = [r.payload for r in st.records(gid)[1:]]
        want = [json.loads(p) for (p,) in raw.execute("SELECT payload FROM events ORDER BY seq")]
        assert len(got) == seq["ours"] - 1 and len(want) == seq["raw"], (len(got), seq)
        assert all(x == payload for x in got) and all(x == payload for x in want)
        raw.close()
        st.close()
    print(
        f"durable single-event appends (WAL, synchronous=FULL): {1 / t['ours']:,.0f}/s ="
        f" {t['raw'] / t['ours'] * 100:.0f}% of raw sqlite3 INSERT+COMMIT ({1 / t['raw']:,.0f}/s)"
        f" (target >= 2,000/s; {load()}; on disk)"
    )


if __name__ == "__main__":
    bench_odds()
    bench_monte_carlo()
    bench_store()
