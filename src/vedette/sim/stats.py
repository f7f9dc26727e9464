"""What a study reports: each side's win rate with a 95% Wilson interval, draws and unfinished
games, how the battles ended, the distribution of game length (turns, actions) and of each
side's losses, and the roll kinds that differ most between winners and losers."""

from __future__ import annotations

import hashlib
import json
import math
from collections import Counter
from collections.abc import Sequence
from typing import Any

from vedette.sim.play import GameResult

Z95 = 1.959963984540054  # the normal quantile of 0.975


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k/n`` (95% by default); (0, 1) for n = 0."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    # the rate itself always lies inside (rounding could put 1.0 just above mid + half)
    return max(0.0, min(p, mid - half)), min(1.0, max(p, mid + half))


def rate(k: int, n: int) -> dict[str, Any]:
    low, high = wilson(k, n)
    return {"n": k, "rate": k / n if n else 0.0, "low": low, "high": high}


def quantile(sorted_xs: Sequence[int], q: float) -> float:
    """The ``q`` quantile by linear interpolation (numpy's default)."""
    if not sorted_xs:
        return 0.0
    pos = (len(sorted_xs) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (pos - lo)


def distribution(xs: Sequence[int]) -> dict[str, Any]:
    s = sorted(xs)
    return {
        "mean": sum(s) / len(s) if s else 0.0,
        "min": s[0] if s else 0,
        "p10": quantile(s, 0.1),
        "median": quantile(s, 0.5),
        "p90": quantile(s, 0.9),
        "max": s[-1] if s else 0,
        "counts": {str(k): v for k, v in sorted(Counter(s).items())},
    }


def summarize(results: Sequence[GameResult], sides: Sequence[str]) -> dict[str, Any]:
    """Win rates (per side, draws, unfinished) with 95% intervals and the length figures."""
    n = len(results)
    won = Counter(r.winner for r in results)
    return {
        "games": n,
        "wins": {s: rate(won.get(s, 0), n) for s in sides},
        "draws": rate(won.get("draw", 0), n),
        "unfinished": rate(won.get("unfinished", 0), n),
        "ends": dict(sorted(Counter(r.end for r in results).items())),
        "how": {k: rate(v, n) for k, v in sorted(Counter(r.how or r.end for r in results).items())},
        "turns": distribution([r.turns for r in results]),
        "actions": distribution([r.actions for r in results]),
        "losses": {s: distribution([dict(r.losses).get(s, 0) for r in results]) for s in sides},
        "decisive_rolls": decisive_rolls(results, sides),
        "digest": digest(results),
    }


def decisive_rolls(
    results: Sequence[GameResult], sides: Sequence[str], most: int = 5
) -> list[dict[str, Any]]:
    """The roll kinds (procedures that rolled dice) whose count differs most between the
    winner and the loser of the games won by one of two sides: the mean of (the winner's rolls
    of that kind - the loser's) over those games, largest difference first. A count, not the
    luck of the dice: which kinds of roll the winners made more (or fewer) of."""
    if len(sides) != 2:
        return []
    decided = [r for r in results if r.winner in sides]
    if not decided:
        return []
    diff: Counter[str] = Counter()
    for r in decided:
        loser = sides[1] if r.winner == sides[0] else sides[0]
        for side, proc, k in r.rolls:
            if side == r.winner:
                diff[proc] += k
            elif side == loser:
                diff[proc] -= k
    means = sorted(
        ((round(d / len(decided), 3), proc) for proc, d in diff.items() if d),
        key=lambda x: (-abs(x[0]), x[1]),
    )
    return [{"roll": proc, "winner_minus_loser": m} for m, proc in means[:most]]


def show(value: object) -> str:
    """A swept value as the user wrote it (true, 0.5, stated)."""
    return value if isinstance(value, str) else json.dumps(value)


def digest(results: Sequence[GameResult]) -> str:
    """SHA-256 of every game's result in game-index order: equal digests, equal studies."""
    rows = [[r.index, r.winner, r.end, r.turns, r.actions] for r in results]
    return hashlib.sha256(json.dumps(rows, separators=(",", ":")).encode()).hexdigest()
