"""Exact odds: Fractions, the same path as play, opposed and under-roll tests, Monte Carlo."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.sizes import examples
from vedette.dice import Check, Modifier, ScriptedSource, UnderCheck, table_from_data
from vedette.dice.montecarlo import row_counts

SHIFT = table_from_data(
    "shift",
    {
        "rows": [
            {"range": "<=0", "key": "a"},
            {"range": "1-7", "key": "b"},
            {"range": "8-10", "key": "c"},
            {"range": "11-12", "key": "d"},
            {"range": ">=13", "key": "e"},
        ]
    },
)


def brute(check: Check) -> dict[str, Fraction]:
    """Oracle: enumerate every face combination and resolve it through play."""
    e = check.parsed()
    dice = e.dice()  # type: ignore[union-attr]
    counts: dict[str, int] = {}
    n = 0
    for faces in product(*(d.faces for d in dice)):
        r = check.resolve(ScriptedSource(list(faces)))
        counts[r.row] = counts.get(r.row, 0) + 1  # type: ignore[index]
        n += 1
    return {k: Fraction(v, n) for k, v in counts.items()}


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(-8, 8), st.integers(-3, 3))
def test_odds_equal_brute_force_of_play(m1: int, m2: int) -> None:
    c = Check(
        "2d6", (Modifier(m1, "a"), Modifier(m2, "b", group="g"), Modifier(0, "c", group="g")), SHIFT
    )
    odds = c.odds().as_dict()
    assert sum(odds.values()) == 1
    oracle = brute(c)
    assert {k: v for k, v in odds.items() if v} == oracle


def test_opposed_odds_condition_on_no_draw() -> None:
    c = Check("1d6 vs 1d6", (Modifier(1, "x"),), None, reroll_draws=True)
    w = c.weights()
    assert 0 not in w
    assert sum(c.odds().as_dict().values()) == 1
    # P(A wins) with +1 for A: 21 of 36 wins, 5 draws rerolled -> 21/31
    assert sum(p for k, p in c.odds().as_dict().items() if int(k) > 0) == Fraction(21, 31)


def test_under_roll_is_exact() -> None:
    o = UnderCheck(65, (Modifier(-9, "3 casualties"),)).odds()
    assert o.p("pass") == Fraction(56, 100)
    assert UnderCheck(65, strict=True).odds().p("pass") == Fraction(64, 100)
    assert UnderCheck(150).odds().p("pass") == 1


@pytest.mark.parametrize(
    "check",
    [
        Check("2d6", (Modifier(2, "x"),), SHIFT),
        Check("1d6 vs 1d6", (Modifier(1, "x"),), SHIFT, reroll_draws=True),
        UnderCheck(72),
    ],
    ids=["2d6", "opposed", "under"],
)
@pytest.mark.parametrize("method", ["dice", "cdf"])
def test_monte_carlo_agrees_with_exact_odds(check: Check | UnderCheck, method: str) -> None:
    n = 200_000
    counts = row_counts(check, n, seed=42, method=method)
    exact = check.odds().as_dict()
    for key, p in exact.items():
        # 5 standard deviations of a binomial proportion, at a fixed seed
        sd = (float(p) * (1 - float(p)) / n) ** 0.5
        assert abs(counts[key] / n - float(p)) <= 5 * sd + 1e-9, key


def test_under_roll_odds_name_the_target_not_the_roll() -> None:
    o = UnderCheck(80, (Modifier(20, "friends"),), strict=True, label="morale").odds()
    assert o.lines()[0] == "morale: d100 vs <80+20 (friends)=100"
