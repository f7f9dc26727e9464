"""Exact distributions with integer weights (never floats).

A distribution is a mapping ``value -> weight`` (positive ints); probabilities are
``Fraction(weight, sum_of_weights)``. Distributions of expressions are memoised: they are
immutable values of the expression text.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache

from vedette.dice.die import Die
from vedette.dice.notation import Expression, Opposed

Weights = dict[int, int]


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


def _power(w: Weights, n: int) -> Weights:
    result: Weights = {0: 1}
    base = w
    while n:
        if n & 1:
            result = convolve(result, base)
        n >>= 1
        if n:
            base = convolve(base, base)
    return result


@lru_cache(maxsize=4096)
def _expression_weights(expr: Expression) -> tuple[tuple[int, int], ...]:
    w: Weights = {expr.constant: 1}
    for t in expr.terms:
        w = convolve(w, _power(die_weights(t.die, t.sign), t.count))
    return tuple(sorted(w.items()))


def expression_weights(expr: Expression) -> Weights:
    """Exact weights of an expression's total (dice and constant, no modifiers)."""
    return dict(_expression_weights(expr))


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
    return dict(_final_weights(expr, modifier, b_modifier, reroll_draws))


@lru_cache(maxsize=8192)
def _final_weights(
    expr: Expression | Opposed, modifier: int, b_modifier: int, reroll_draws: bool
) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(_compute_final(expr, modifier, b_modifier, reroll_draws).items()))


def clear_caches() -> None:
    """Forget memoised distributions (benchmarks measure cold as well as warm)."""
    _final_weights.cache_clear()
    _expression_weights.cache_clear()


def _compute_final(
    expr: Expression | Opposed, modifier: int, b_modifier: int, reroll_draws: bool
) -> Weights:
    if isinstance(expr, Opposed):
        return opposed_weights(
            shift(expression_weights(expr.a), modifier),
            shift(expression_weights(expr.b), b_modifier),
            reroll_draws,
        )
    return shift(expression_weights(expr), modifier)


def probabilities(w: Mapping[int, int]) -> dict[int, Fraction]:
    tot = sum(w.values())
    return {v: Fraction(n, tot) for v, n in sorted(w.items())}


def mean(w: Mapping[int, int]) -> Fraction:
    tot = sum(w.values())
    return Fraction(sum(v * n for v, n in w.items()), tot)
