"""Monte Carlo sampling of the same checks and tables (numpy, vectorised; the ``sim`` extra).

Two ways to sample a check, both read on the check's own table with ``Table.lookup``, the very
lookup that play uses (each distinct figure is counted with ``bincount``, then looked up once):

* ``"dice"``: every die is rolled (an ordinary die draws its face, a die with declared faces
  draws an index into them), so it is an independent check of the exact odds;
* ``"cdf"``: each final figure is drawn from the check's exact integer weights in one bounded
  draw (fast, for simulations of many battles).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vedette.dice.check import Check, UnderCheck
from vedette.dice.notation import Expression, Opposed
from vedette.dice.tables import Table
from vedette.errors import VedetteError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


def _require_numpy() -> Any:
    try:
        import numpy
    except ImportError as e:  # pragma: no cover - exercised only without the extra
        raise VedetteError("Monte Carlo sampling needs numpy: pip install 'vedette[sim]'") from e
    return numpy


def _bounds(expr: Expression) -> tuple[int, int]:
    """Lowest and highest total of the dice alone (no constant)."""
    lo = hi = 0
    for t in expr.terms:
        a, b = min(t.die.faces) * t.count, max(t.die.faces) * t.count
        lo, hi = (lo + a, hi + b) if t.sign > 0 else (lo - b, hi - a)
    return lo, hi


def sample_dice(expr: Expression, n: int, rng: np.random.Generator) -> npt.NDArray[Any]:
    """``n`` totals of an expression's dice (without its constant), every die rolled.

    Small dice are drawn as 8-bit integers and summed in the narrowest type that holds the
    total: the draws, not the arithmetic, dominate."""
    np = _require_numpy()
    lo, hi = _bounds(expr)
    acc = np.int16 if lo > -(2**15) and hi < 2**15 else np.int64
    total = np.zeros(n, dtype=acc)
    for t in expr.terms:
        sides = t.die.sides
        plain = t.die.faces == tuple(range(1, sides + 1))
        small = np.int8 if sides < 127 else np.int64
        for _ in range(t.count):
            if plain:  # an ordinary die: draw the face itself
                drawn = rng.integers(1, sides + 1, size=n, dtype=small)
            else:  # declared faces: draw an index into them
                drawn = np.asarray(t.die.faces, dtype=acc)[
                    rng.integers(0, sides, size=n, dtype=small)
                ]
            if t.sign > 0:
                total += drawn
            else:
                total -= drawn
    result: npt.NDArray[Any] = total
    return result


def sample_expression(expr: Expression, n: int, rng: np.random.Generator) -> npt.NDArray[Any]:
    """``n`` totals of an expression (dice and constant)."""
    out: npt.NDArray[Any] = sample_dice(expr, n, rng).astype("int64") + expr.constant
    return out


def sample_figures(check: Check, n: int, rng: np.random.Generator) -> npt.NDArray[Any]:
    """``n`` final figures of a check (opposed draws rerolled when the check says so)."""
    np = _require_numpy()
    e = check.parsed()
    if isinstance(e, Opposed):
        out = np.empty(0, dtype=np.int64)
        need = n
        while need > 0:
            a = sample_expression(e.a, need, rng) + check.modifier_total()
            b = sample_expression(e.b, need, rng) + check.b_modifier_total()
            d = a - b
            if check.reroll_draws:
                d = d[d != 0]
            out = np.concatenate([out, d])
            need = n - len(out)
        result: npt.NDArray[Any] = out[:n]
        return result
    figures: npt.NDArray[Any] = sample_expression(e, n, rng) + check.modifier_total()
    return figures


def _read(per_value: npt.NDArray[Any], shift: int, table: Table | None) -> dict[str, int]:
    """Counts per row: value ``i`` of ``per_value`` is the figure ``i + shift``."""
    np = _require_numpy()
    out: dict[str, int] = {} if table is None else {r.key: 0 for r in table.rows}
    for offset in np.flatnonzero(per_value):
        figure = shift + int(offset)
        key = str(figure) if table is None else table.lookup(figure).key
        out[key] = out.get(key, 0) + int(per_value[offset])
    return out


def row_counts(
    check: Check | UnderCheck, n: int, seed: int = 0, method: str = "dice"
) -> dict[str, int]:
    """How often each row of the check's table came up in ``n`` samples (``method`` is
    ``"dice"`` or ``"cdf"``, see the module docstring)."""
    np = _require_numpy()
    rng = np.random.default_rng(seed)
    if isinstance(check, UnderCheck):
        e = check.parsed_expression()
        lo = min(_bounds(e)[0], 0)
        totals = sample_dice(e, n, rng)
        per_value = np.bincount(totals - lo if lo else totals)
        return _read(per_value, lo + e.constant, check.table())
    parsed = check.parsed()
    if method == "cdf":
        w = check.weights()
        lo = min(w)
        codes = np.repeat(
            np.asarray([v - lo for v in sorted(w)], dtype=np.intp),
            np.asarray([w[v] for v in sorted(w)]),
        )
        dtype = np.int16 if len(codes) < 2**15 else np.int64
        per_value = np.bincount(codes[rng.integers(0, len(codes), size=n, dtype=dtype)])
        return _read(per_value, lo, check.table)
    if isinstance(parsed, Opposed):
        figures = sample_figures(check, n, rng)
        lo = int(figures.min())
        return _read(np.bincount(figures - lo), lo, check.table)
    lo, _ = _bounds(parsed)
    lo = min(lo, 0)  # non-negative totals are counted as they are (no subtraction pass)
    totals = sample_dice(parsed, n, rng)
    per_value = np.bincount(totals - lo if lo else totals)
    return _read(per_value, lo + parsed.constant + check.modifier_total(), check.table)
