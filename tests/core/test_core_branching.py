"""Check-level branching in the chance algebra (``dice.sources.branch``) and a typed event's
own decoder (``DomainEvent.decode``)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import pytest

from vedette.dice import SeededSource, standard
from vedette.dice.sources import begin_attempt, branch, reject_attempt
from vedette.errors import VedetteError
from vedette.rules.base import Outcome
from vedette.rules.protocol import DomainEvent, chances, decode_event

THIRDS = [Fraction(1, 3), Fraction(2, 3)]


def test_a_branch_is_explored_once_per_outcome_with_its_weight() -> None:
    def run(d: Any) -> Outcome:
        k = branch(d, THIRDS)
        assert k is not None
        return Outcome(result=f"{k}:{d.face(standard(2)) > 1}")

    ch = chances(run)
    assert ch.exact and ch.leaves == 4
    assert ch.p("1:True") == Fraction(1, 3) and ch.p("0:False") == Fraction(1, 6)


def test_a_real_source_rolls_instead_of_branching() -> None:
    assert branch(SeededSource(1, 0), THIRDS) is None


def test_a_rejected_attempt_after_a_branch_is_conditioned_where_it_began() -> None:
    """A weighted branch, then a d6 rolled again on a 6: the d6 is uniform on 1-5 under each
    branch, so the branch keeps its weight."""

    def run(d: Any) -> Outcome:
        k = branch(d, THIRDS)
        while True:
            begin_attempt(d)
            f = d.face(standard(6))
            if f < 6:
                break
            reject_attempt(d)
        return Outcome(result=f"{k}:{f == 1}")

    ch = chances(run)
    assert ch.exact
    assert ch.p("1:True") == Fraction(2, 3) * Fraction(1, 5)
    assert sum(c.p for c in ch.rows) == 1


def test_a_tree_too_large_is_sampled_at_once_within_a_point() -> None:
    """Eight d6 (1.7 million branches) and a weighted branch: the size is estimated after the
    first leaves, so the tree is sampled without first enumerating up to the limit; every
    95% interval is within one percentage point (the sample stops once they all are) and the
    estimates are near the exact chances;
    the sample walks the same branches (a whole check drawn once with its weights)."""
    runs = 0

    def run(d: Any) -> Outcome:
        nonlocal runs
        runs += 1
        k = branch(d, THIRDS)
        total = sum(d.face(standard(6)) for _ in range(8))
        return Outcome(result=f"{k}:{total > 28}")

    ch = chances(run, limit=20_000)
    assert not ch.exact and "estimated" in ch.note
    assert runs < 20_000 + ch.leaves  # never enumerated up to the limit first
    # up to 10,000 runs, fewer once every interval is within a point (checked every 1,000)
    assert 1_000 <= ch.leaves <= 10_000 and ch.leaves % 1_000 == 0
    # the exact chances: P(8d6 > 28) by convolution, times each branch's weight
    ways = [1]
    for _ in range(8):
        ways = [
            sum(ways[t - f] for f in range(1, 7) if 0 <= t - f < len(ways))
            for t in range(len(ways) + 6)
        ]
    over = Fraction(sum(ways[29:]), 6**8)
    exact = {"1:True": THIRDS[1] * over, "0:False": THIRDS[0] * (1 - over)}
    for row in ch.rows:
        assert row.low is not None and row.high is not None
        assert row.high - row.low <= 0.02
        assert row.p == Fraction(round(row.p * ch.leaves), ch.leaves)  # a share of the runs
        if row.result in exact:  # (seeded: within 3 standard errors, 1.4 points)
            assert abs(row.p - exact[row.result]) <= Fraction(14, 1000), row.result


@dataclass(frozen=True, slots=True)
class Fast(DomainEvent):
    kind: ClassVar[str] = "fast"
    version: ClassVar[int] = 2
    n: int

    @classmethod
    def upgrade(cls, version: int, data: dict[str, Any]) -> dict[str, Any]:
        return {"n": data["old"]}

    @classmethod
    def decode(cls, data: dict[str, Any]) -> Fast:
        if type(data.get("n")) is not int:
            raise VedetteError("fast.n must be a whole number")
        return cls(data["n"] * 10)  # visibly its own decoder


def test_an_event_kind_may_decode_itself_after_the_upgrade() -> None:
    reg = {"fast": Fast}
    assert decode_event(reg, {"kind": "fast", "v": 2, "data": {"n": 3}}) == Fast(30)
    assert decode_event(reg, {"kind": "fast", "v": 1, "data": {"old": 4}}) == Fast(40)
    with pytest.raises(VedetteError, match=r"fast\.n"):
        decode_event(reg, {"kind": "fast", "v": 2, "data": {"n": "x"}})
