"""The cold exact-odds kernel (issue 16): integer counts convolved die by die, a table's rows
read as slices, Fractions only at the end. Checked against brute-force enumeration of the faces
and against the per-figure table reading (``Table.odds`` through ``Table.lookup``).

The brute force enumerates every face of every die: an expression of up to 3 terms of 1-3 dice
is up to 9 dice (6^9 = 10 million faces for 9d6, a minute per property). The normal run keeps
the same grammar and properties with at most ``MAX_DICE`` (5) dice a side; with
``VEDETTE_CONFORMANCE_LONG=1`` every size up to 9 dice, and more examples."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conformance import LONG
from tests.sizes import examples
from vedette.dice import (
    Check,
    Die,
    Expression,
    Modifier,
    Opposed,
    UnderCheck,
    dist,
    notation,
    parse,
)
from vedette.dice import check as check_module
from vedette.dice.tables import Row, Table
from vedette.errors import DataError

DICE = {
    "X": Die("dX", (0, 0, 2, 5)),
    "Y": Die("dY", (-3, 1, 1)),
    "F": Die("dF", (-1, -1, 0, 0, 1, 1)),
}


def brute(expr: Expression) -> dict[int, int]:
    """Oracle: every combination of faces, counted."""
    dice = expr.dice()
    out: dict[int, int] = {}
    for faces in product(*(d.faces for d in dice)):
        v = expr.total(list(faces))
        out[v] = out.get(v, 0) + 1
    return out


#: dice of one expression (one side of an opposed roll) that the brute force enumerates
MAX_DICE = 9 if LONG else 5
#: hypothesis examples per property (the long run: four times as many; the normal run a
#: quarter of CI's, tests/sizes.py)
EXAMPLES = 4 if LONG else 1

term = st.tuples(
    st.sampled_from(["+", "-"]),
    st.integers(1, 3),
    st.sampled_from(["d2", "d3", "d6", "dX", "dY", "dF"]),
)


@st.composite
def expressions(draw: st.DrawFn) -> str:
    terms = draw(
        st.lists(term, min_size=1, max_size=3).filter(
            lambda ts: sum(n for _s, n, _d in ts) <= MAX_DICE
        )
    )
    text = "".join(f"{s}{n}{d}" for s, n, d in terms).lstrip("+")
    const = draw(st.integers(-5, 5))
    return f"{text}{const:+d}" if const else text


@settings(max_examples=examples(150 * EXAMPLES), deadline=None)
@given(expressions())
def test_counts_equal_brute_force(text: str) -> None:
    e = parse(text, DICE)
    assert isinstance(e, Expression)
    assert dist.expression_weights(e) == brute(e)
    _lo, counts = dist.expression_counts(e)
    assert counts[0] and counts[-1]  # the ends have weight


@settings(max_examples=examples(150 * EXAMPLES), deadline=None)
@given(expressions(), expressions(), st.integers(-4, 4), st.integers(-4, 4), st.booleans())
def test_opposed_counts_equal_the_mapping_convolution(
    a: str, b: str, ma: int, mb: int, reroll: bool
) -> None:
    e = parse(f"{a} vs {b}", DICE)
    assert isinstance(e, Opposed)
    wa = {v + ma: n for v, n in brute(e.a).items()}
    wb = {v + mb: n for v, n in brute(e.b).items()}
    try:
        expected = dist.opposed_weights(wa, wb, reroll)
    except ValueError:
        with pytest.raises(ValueError):
            dist.weights_of(e, ma, mb, reroll)
        return
    assert dist.weights_of(e, ma, mb, reroll) == expected


def _table(clamp: bool, lo: int, hi: int) -> Table:
    cut = (lo + hi) // 2
    return Table(
        "t",
        (
            Row(lo, cut, "low", "low", ""),
            Row(cut + 1, cut + 1, "mid", "mid", ""),
            Row(cut + 2, hi, "high", "high", ""),
        ),
        clamp=clamp,
    )


@settings(max_examples=examples(200 * EXAMPLES), deadline=None)
@given(expressions(), st.booleans(), st.integers(-12, 6), st.integers(7, 20))
def test_row_counts_read_as_lookup_does(text: str, clamp: bool, lo: int, hi: int) -> None:
    e = parse(text, DICE)
    assert isinstance(e, Expression)
    t = _table(clamp, lo, hi)
    w = brute(e)
    c_lo, counts = dist.expression_counts(e)
    try:
        expected = t.odds(dict(sorted(w.items())))  # figure by figure, through Table.lookup
    except DataError as err:
        with pytest.raises(DataError) as ours:
            t.odds_counts(c_lo, counts)
        assert str(ours.value) == str(err)
        return
    assert t.odds_counts(c_lo, counts) == expected


def test_cold_odds_equal_warm_odds() -> None:
    table = _table(True, -3, 3)
    c = Check("1d6 vs 1d6", (Modifier(1, "x"),), table, reroll_draws=True)
    warm = c.odds()
    check_module.clear_caches()
    table.memo.clear()
    cold = c.odds()
    assert cold == warm and sum(r.p for r in cold.rows) == 1
    u = UnderCheck(65, (Modifier(-9, "casualties"),))
    warm_u = u.odds()
    check_module.clear_caches()
    assert u.odds() == warm_u
    assert warm_u.p("pass") == Fraction(56, 100)
    assert notation._parse_cached.cache_info().currsize == 1
