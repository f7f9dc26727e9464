"""The dice audit: every die rolled in a game, counted per die type against the expected
(uniform over its faces) distribution, with a chi-square statistic."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from vedette.dice.die import CUSTOM, Die, standard
from vedette.engine.session import counted_rolls
from vedette.engine.store import Record
from vedette.errors import VedetteError


def _faces(roll: Mapping[str, Any]) -> Iterator[tuple[str, int]]:
    if roll.get("type") == "opposed":
        for a, b in roll.get("draws", []):
            yield from _faces(a)
            yield from _faces(b)
        yield from _faces(roll["a"])
        yield from _faces(roll["b"])
        return
    for d in roll.get("dice", []):
        yield str(d["die"]), int(d["face"])


def _die(name: str) -> Die | None:
    if name.startswith("d") and name[1:].isdigit() and len(name) < 6:
        try:
            return standard(int(name[1:]))
        except (ValueError, VedetteError):
            return None
    for d in CUSTOM.values():
        if d.name == name:
            return d
    return None


def dice_audit(records: Sequence[Record]) -> list[dict[str, Any]]:
    """Per die type: rolls, observed and expected count per face, chi-square and its degrees of
    freedom. Every die drawn counts once: undone rolls count (they were rolled), but an undone
    roll made again from the same stream positions (a redo) counts once."""
    seen: dict[str, Counter[int]] = {}
    sources: dict[str, Counter[str]] = {}
    for r, roll in counted_rolls(records):
        source = str(r.payload.get("dice", {}).get("source", "seeded"))
        try:
            faces = list(_faces(roll))
        except (KeyError, TypeError, ValueError, AttributeError, RecursionError):
            continue  # a malformed record (an edited import): not a die we can count
        for die, face in faces:
            seen.setdefault(die, Counter())[face] += 1
            sources.setdefault(die, Counter())[source] += 1
    out = []
    for name in sorted(seen, key=lambda n: (len(n), n)):
        counts = seen[name]
        n = sum(counts.values())
        known = _die(name)
        weights = known.weights() if known is not None else {f: 1 for f in counts}
        total_w = sum(weights.values())
        rows = []
        chi2 = 0.0
        for face in sorted(weights):
            expected = n * weights[face] / total_w
            observed = counts.get(face, 0)
            chi2 += (observed - expected) ** 2 / expected if expected else 0.0
            rows.append({"face": face, "observed": observed, "expected": round(expected, 2)})
        out.append(
            {
                "die": name,
                "rolls": n,
                "sources": dict(sources[name]),
                "faces": rows,
                "chi_square": round(chi2, 3),
                "degrees_of_freedom": max(len(weights) - 1, 0),
            }
        )
    return out


def chi_square_p(chi2: float, dof: int) -> float:
    """P(X >= chi2) for a chi-square variable with ``dof`` degrees of freedom: the regularised
    upper incomplete gamma function Q(dof/2, chi2/2) (series below a+1, continued fraction
    above; Numerical Recipes 6.2)."""
    if dof <= 0:
        return 1.0
    a, x = dof / 2, chi2 / 2
    if x <= 0:
        return 1.0
    lg = math.lgamma(a)
    if x < a + 1:  # series for P, then Q = 1 - P
        term = total = 1 / a
        n = a
        for _ in range(500):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1 - total * math.exp(-x + a * math.log(x) - lg))
    b = x + 1 - a  # Lentz's continued fraction for Q
    c = 1 / 1e-300
    d = 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - lg) * h)


#: below this p-value the dice are called unusual
UNUSUAL = 0.01


def verdict(chi2: float, dof: int, rolls: int) -> str:
    """The chi-square in plain words."""
    p = chi_square_p(chi2, dof)
    if rolls < 5 * (dof + 1):
        return (
            f"too few rolls to judge ({rolls}; about {5 * (dof + 1)} give a fair test)"
            f" · p = {p:.3g}"
        )
    if p < UNUSUAL:
        return (
            f"unusual: p = {p:.3g} (fair dice give counts this far from the expected"
            f" {p * 100:.2g}% of the time)"
        )
    return f"consistent with fair dice (p = {p:.3g})"


def with_charts(found: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The audit with, per die, its observed-against-expected chart and its verdict."""
    # start-up: the charts load with the first audit page
    from vedette.web.charts import observed_expected

    out = []
    for a in found:
        rows = [(str(f["face"]), float(f["observed"]), float(f["expected"])) for f in a["faces"]]
        out.append(
            {
                **a,
                "p": chi_square_p(a["chi_square"], a["degrees_of_freedom"]),
                "verdict": verdict(a["chi_square"], a["degrees_of_freedom"], a["rolls"]),
                "chart": observed_expected(rows, f"{a['die']}: observed and expected per face"),
            }
        )
    return out
