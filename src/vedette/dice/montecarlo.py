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


def sample_cdf(check: Check, n: int, rng: np.random.Generator) -> npt.NDArray[Any]:
    """``n`` final figures drawn from the check's exact integer weights: one bounded draw per
    resolution, mapped through a lookup array (fast, for simulations; ``sample_figures``
    rolls each die)."""
    np = _require_numpy()
    w = check.weights()
    outcomes = np.repeat(
        np.asarray(sorted(w), dtype=np.int64), np.asarray([w[v] for v in sorted(w)])
    )
    dtype = np.int16 if len(outcomes) < 2**15 else np.int64
    figures: npt.NDArray[Any] = outcomes[rng.integers(0, len(outcomes), size=n, dtype=dtype)]
    return figures


def row_counts(
    check: Check | UnderCheck, n: int, seed: int = 0, method: str = "dice"
) -> dict[str, int]:
    """How often each row of the check's table came up in ``n`` samples.

    ``method="dice"`` rolls every die (an independent check of the exact odds);
    ``method="cdf"`` draws each final figure from the exact distribution in one draw.
    Figures are counted (``bincount``) and each distinct figure is read on the table with
    ``Table.lookup``, the very lookup that play uses.
    """
    np = _require_numpy()
    rng = np.random.default_rng(seed)
    if isinstance(check, UnderCheck):
        table = check.table()
        figures = sample_expression(check.parsed_expression(), n, rng)
        lo = int(figures.min())
        per_figure = np.bincount(figures - lo)
    elif method == "cdf":
        table = check.table  # type: ignore[assignment]
        w = check.weights()
        lo = min(w)
        codes = np.repeat(
            np.asarray([v - lo for v in sorted(w)], dtype=np.intp),
            np.asarray([w[v] for v in sorted(w)]),
        )
        dtype = np.int16 if len(codes) < 2**15 else np.int64
        per_figure = np.bincount(codes[rng.integers(0, len(codes), size=n, dtype=dtype)])
    else:
        table = check.table  # type: ignore[assignment]
        figures = sample_figures(check, n, rng)
        lo = int(figures.min())
        per_figure = np.bincount(figures - lo)
    out: dict[str, int] = {} if table is None else {r.key: 0 for r in table.rows}
    for offset in np.flatnonzero(per_figure):
        figure = lo + int(offset)
        key = str(figure) if table is None else table.lookup(figure).key
        out[key] = out.get(key, 0) + int(per_figure[offset])
    return out
