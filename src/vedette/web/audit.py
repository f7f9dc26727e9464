"""The dice audit: every die rolled in a game, counted per die type against the expected
(uniform over its faces) distribution, with a chi-square statistic."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from vedette.dice.die import CUSTOM, Die, standard
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
    from vedette.engine.session import counted_rolls

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
