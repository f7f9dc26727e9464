"""Exact distributions with integer weights (never floats).

A distribution is a mapping ``value -> weight`` (positive ints); probabilities are
``Fraction(weight, sum_of_weights)``. Distributions of expressions are memoised: they are
immutable values of the expression text.

The kernel (issue 16) works on *counts*: ``(lo, [w0, w1, ...])``, the weight of each value from
the lowest one up, zeros included. Dice are convolved as integer counts (a die with faces
``1..n`` by a sliding window sum, any other die face by face), a table's row is a sum over a
slice of the counts, and ``Fraction`` appears only at the very end, once per row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction as Fraction  # re-exported: check.py takes it from here
from functools import lru_cache
from itertools import accumulate, chain, repeat
from operator import sub

from vedette.dice.die import _COMMON, Die
from vedette.dice.notation import Expression, Opposed
from vedette.errors import DiceError

Weights = dict[int, int]
#: ``(lo, counts)``: ``counts[i]`` is the weight of the value ``lo + i``
Counts = tuple[int, list[int]]

#: exact odds are refused beyond this many (dice x possible totals): the work and the size of
#: the integer weights grow with both (1000d20, about 2 * 10**7, took four seconds and more
#: memory with each die; a web request asking for 1000d10000 would hold a server process)
MAX_ODDS_WORK = 10_000_000


def die_weights(die: Die, sign: int = 1) -> Weights:
    out: Weights = {}
    for f in die.faces:
        out[sign * f] = out.get(sign * f, 0) + 1
    return out


def convolve(a: Mapping[int, int], b: Mapping[int, int]) -> Weights:
    """Weights of the sum of two independent variables."""
    out: Weights = {}
    for va, wa in a.items():
        for vb, wb in b.items():
            v = va + vb
            out[v] = out.get(v, 0) + wa * wb
    return out


# -- the counts kernel ------------------------------------------------------------------------
def _plain_sides(die: Die) -> int:
    """``n`` if the die's faces are exactly 1..n in order (an ordinary die), else 0."""
    faces = die.faces
    n = len(faces)
    if die is _COMMON.get(n) or (
        faces[0] == 1 and faces[-1] == n and faces == tuple(range(1, n + 1))
    ):
        return n
    return 0


def die_counts(die: Die, sign: int = 1) -> Counts:
    """Counts of one die's face (negated for ``sign`` -1)."""
    n = _plain_sides(die)
    if n:
        return (1, [1] * n) if sign > 0 else (-n, [1] * n)
    faces = die.faces if sign > 0 else tuple(-f for f in die.faces)
    lo = min(faces)
    counts = [0] * (max(faces) - lo + 1)
    for f in faces:
        counts[f - lo] += 1
    return lo, counts


def convolve_counts(a: tuple[int, Sequence[int]], b: tuple[int, Sequence[int]]) -> Counts:
    """Counts of the sum of two independent variables."""
    (la, ca), (lb, cb) = a, b
    if len(ca) < len(cb):
        ca, cb = cb, ca
    if len(cb) == 1:  # a single value: a shift (and a scale)
        w = cb[0]
        return la + lb, list(ca) if w == 1 else [x * w for x in ca]
    out = [0] * (len(ca) + len(cb) - 1)
    for j, w in enumerate(cb):
        if w == 1:
            for i, x in enumerate(ca, j):
                out[i] += x
        elif w:
            for i, x in enumerate(ca, j):
                out[i] += x * w
    return la + lb, out


def _add_plain(a: tuple[int, Sequence[int]], n: int) -> Counts:
    """Counts of ``a`` plus a die with faces 1..n: a sliding window sum of width n, taken as a
    difference of prefix sums (``out[k] = P[k+1] - P[k+1-n]``)."""
    lo, ca = a
    m = len(ca)
    if m == 1:
        return lo + 1, [ca[0]] * n
    prefix = list(accumulate(chain(ca, repeat(0, n - 1)), initial=0))
    return lo + 1, list(map(sub, prefix[1:], chain(repeat(0, n - 1), prefix[:m])))


def _term_counts(acc: Counts, die: Die, count: int, sign: int) -> Counts:
    n = _plain_sides(die)
    if n and sign > 0:
        for _ in range(count):
            acc = _add_plain(acc, n)
        return acc
    if n:  # minus an ordinary die: plus a die with faces 1..n, less n + 1
        for _ in range(count):
            acc = _add_plain(acc, n)
        return acc[0] - count * (n + 1), acc[1]
    d = die_counts(die, sign)
    for _ in range(count):
        acc = convolve_counts(acc, d)
    return acc


def _expression_counts(expr: Expression) -> Counts:
    dice = sum(t.count for t in expr.terms)
    span = sum(t.count * (max(t.die.faces) - min(t.die.faces)) for t in expr.terms)
    if dice * (span + 1) > MAX_ODDS_WORK:
        raise DiceError(
            f"{expr.text!r} is too large for exact odds: {dice} dice over {span + 1} totals "
            f"(dice x totals at most {MAX_ODDS_WORK:,})"
        )
    acc: Counts = (expr.constant, [1])
    for t in expr.terms:
        acc = _term_counts(acc, t.die, t.count, t.sign)
    return acc


@lru_cache(maxsize=4096)
def expression_counts(expr: Expression) -> tuple[int, tuple[int, ...]]:
    """Counts of an expression's total (dice and constant, no modifiers); memoised."""
    lo, counts = _expression_counts(expr)
    return lo, tuple(counts)


def _trim(lo: int, counts: list[int]) -> Counts:
    """Drop zero counts at either end (the lowest and highest values have weight)."""
    start, end = 0, len(counts)
    while start < end and not counts[start]:
        start += 1
    while end > start and not counts[end - 1]:
        end -= 1
    return lo + start, counts[start:end]


def final_counts(
    expr: Expression | Opposed, modifier: int = 0, b_modifier: int = 0, reroll_draws: bool = False
) -> Counts:
    """Counts of the final figure: the expression plus ``modifier``; for an opposed roll
    (A + modifier) - (B + b_modifier), a draw removed when ``reroll_draws`` (a draw is rolled
    again until it is not one: the distribution conditioned on no draw). Not memoised."""
    if not isinstance(expr, Opposed):
        lo, counts = expression_counts(expr)
        return lo + modifier, list(counts)
    la, ca = expression_counts(expr.a)
    lb, cb = expression_counts(expr.b)
    # A - B: A plus B reflected (B's counts reversed, from -hi_b up)
    lo, out = convolve_counts((la + modifier, ca), (-(lb + b_modifier + len(cb) - 1), cb[::-1]))
    if reroll_draws:
        if lo <= 0 < lo + len(out):
            out[-lo] = 0
        lo, out = _trim(lo, out)
        if not out:
            raise ValueError("every outcome is a draw: a reroll can never end")
    return lo, out


def counts_to_weights(c: tuple[int, Sequence[int]]) -> Weights:
    lo, counts = c
    return {lo + i: w for i, w in enumerate(counts) if w}


# -- the mapping API --------------------------------------------------------------------------
def expression_weights(expr: Expression) -> Weights:
    """Exact weights of an expression's total (dice and constant, no modifiers)."""
    lo, counts = expression_counts(expr)
    return {lo + i: w for i, w in enumerate(counts) if w}


def shift(w: Mapping[int, int], k: int) -> Weights:
    return {v + k: n for v, n in w.items()}


def opposed_weights(
    a: Mapping[int, int], b: Mapping[int, int], reroll_draws: bool = False
) -> Weights:
    """Weights of A - B. With ``reroll_draws`` the 0 outcome is removed: a draw is rolled
    again until it is not a draw, so the result is the distribution conditioned on no draw."""
    neg_b = {-v: n for v, n in b.items()}
    out = convolve(a, neg_b)
    if reroll_draws:
        out.pop(0, None)
        if not out:
            raise ValueError("every outcome is a draw: a reroll can never end")
    return out


def weights_of(
    expr: Expression | Opposed, modifier: int = 0, b_modifier: int = 0, reroll_draws: bool = False
) -> Weights:
    """Weights of the final figure. For an opposed roll: (A + modifier) - (B + b_modifier),
    a draw (on the modified totals) rerolled when ``reroll_draws``."""
    return counts_to_weights(final_counts(expr, modifier, b_modifier, reroll_draws))


def clear_caches() -> None:
    """Forget memoised distributions (benchmarks measure cold as well as warm)."""
    expression_counts.cache_clear()


def probabilities(w: Mapping[int, int]) -> dict[int, Fraction]:
    tot = sum(w.values())
    return {v: Fraction(n, tot) for v, n in sorted(w.items())}


def mean(w: Mapping[int, int]) -> Fraction:
    tot = sum(w.values())
    return Fraction(sum(v * n for v, n in w.items()), tot)
