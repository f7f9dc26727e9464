"""Monte Carlo sampling of the same checks and tables (numpy, vectorised; the ``sim`` extra).

Each die is sampled as an index into its faces (so custom dice with repeated faces are exact),
modifiers are the check's own, and the figure is read on the check's own table with a
vectorised ``searchsorted`` over the table's row bounds: the same rows ``Table.lookup`` uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vedette.dice.check import Check, UnderCheck
from vedette.dice.notation import Expression, Opposed

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


def _require_numpy() -> Any:
    try:
        import numpy
    except ImportError as e:  # pragma: no cover - exercised only without the extra
        from vedette.errors import VedetteError

        raise VedetteError("Monte Carlo sampling needs numpy: pip install 'vedette[sim]'") from e
    return numpy


def sample_expression(expr: Expression, n: int, rng: np.random.Generator) -> npt.NDArray[Any]:
    """``n`` totals of an expression (dice and constant)."""
    np = _require_numpy()
    total = np.full(n, expr.constant, dtype=np.int64)
    for t in expr.terms:
        faces = np.asarray(t.die.faces, dtype=np.int64)
        idx = (
            rng.integers(0, len(faces), size=(t.count, n))
            if t.count > 1
            else rng.integers(0, len(faces), size=n)
        )
        drawn = faces[idx]
        total += t.sign * (drawn.sum(axis=0) if t.count > 1 else drawn)
    result: npt.NDArray[Any] = total
    return result


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


def row_counts(check: Check | UnderCheck, n: int, seed: int = 0) -> dict[str, int]:
    """How often each row of the check's table came up in ``n`` samples."""
    np = _require_numpy()
    rng = np.random.default_rng(seed)
    if isinstance(check, UnderCheck):
        e = check.parsed_expression()
        figures = sample_expression(e, n, rng)
        table = check.table()
    else:
        figures = sample_figures(check, n, rng)
        if check.table is None:
            vals, counts = np.unique(figures, return_counts=True)
            return {str(int(v)): int(c) for v, c in zip(vals, counts, strict=True)}
        table = check.table
    if not table.clamp:
        lo, hi = figures.min(), figures.max()
        table.lookup(int(lo))  # same error as play for a figure the table lacks
        table.lookup(int(hi))
    idx = np.searchsorted(np.asarray(table.boundaries(), dtype=np.int64), figures, side="left")
    counts = np.bincount(idx, minlength=len(table.rows))
    return {r.key: int(c) for r, c in zip(table.rows, counts, strict=True)}
