"""Solitaire ASL 'shifts' sequence (issue 17): the planner's shifts made in turn by ``shift``
with the same dice, each end state checked against an enumeration of every pip written here
from O'Leary 2.5 (each shift 2d6 + its own DRM + 1 per earlier counted shift; <= 0 through
uncounted, 1-7 through and counted, 8-10 refused, 11-12 exposed, 13+ revealed; any 8+ ends
shifting of that kind, so the shifts behind it are not tried)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from tests.solitaire_asl.test_asl_planner import OWN_DRM, three
from vedette.errors import BadRequest
from vedette.rules.protocol import chances
from vedette.rules.sequence import summary_of
from vedette.rules.solitaire_asl import RULESET
from vedette.rules.solitaire_asl.planner import odds_of, sequencing
from vedette.rules.solitaire_asl.requests import PlanRequest

DATA = (RULESET.config(), RULESET.tables())

PAIRS = (("P1", "D1", "4A1", "4C1"), ("P2", "D2", "4E1", "4G1"))


def row(final: int) -> str:
    if final <= 0:
        return "free"
    if final <= 7:
        return "allowed"
    return "refused" if final <= 10 else ("exposed" if final <= 12 else "revealed")


def brute_force() -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for pips in itertools.product(range(1, 7), repeat=4):
        counted, done, changes, closed = 0, [], {}, False
        for i, (p, d, lp, ld) in enumerate(PAIRS):
            if closed:
                done.append(f"{p}:{d} not tried")
                continue
            r = row(pips[2 * i] + pips[2 * i + 1] + OWN_DRM[i] + counted)
            done.append(f"{p}:{d} {r}")
            if r in ("free", "allowed"):
                changes[p], changes[d] = f"{p} in {ld}", f"{d} in {lp}"
                counted += r == "allowed"
            else:
                closed = True
                if r == "exposed":
                    changes[p], changes[d] = f"{p} now concealed", f"{d} eliminated (a dummy)"
                elif r == "revealed":
                    changes[p], changes[d] = f"{p} now revealed TI", f"{d} eliminated (a dummy)"
        what = ", ".join(changes[k] for k in sorted(changes)) or "no stack changed"
        label = f"{', '.join(done)} | {what}"
        out[label] = out.get(label, Fraction(0)) + Fraction(1, 6**4)
    return out


def test_planned_shifts_equal_brute_force() -> None:
    s = three()
    seq = RULESET.sequences()["shifts"]
    plan = seq.plan(s, seq.parse({"shifts": ["P1:D1", "P2:D2"]}))
    c = chances(lambda dice: seq.resolve(s, plan, dice))
    assert c.exact
    assert {r.result: r.p for r in c.rows} == brute_force()
    # how many got through, summed over the end states, is what the planner computes
    each = {r.result: r.p for r in summary_of(seq, c)}
    counts = odds_of(sequencing(s, PlanRequest(shifts=("P1:D1", "P2:D2")), *DATA), (0, 1))
    for n in range(3):
        assert each.get(f"{n} through", Fraction(0)) == counts.p(f"{n} through"), n


def test_sampled_shifts_hold_the_exact_value() -> None:
    s = three()
    seq = RULESET.sequences()["shifts"]
    plan = seq.plan(s, seq.parse({"shifts": ["P1:D1", "P2:D2"]}))
    c = chances(lambda dice: seq.resolve(s, plan, dice), limit=100, samples=2000)
    assert not c.exact
    exact = brute_force()
    top = c.rows[0]
    assert top.low is not None and top.high is not None
    assert top.low <= exact[top.result] <= top.high


def test_the_planner_refusals_are_the_sequence_refusals() -> None:
    s = three()
    seq = RULESET.sequences()["shifts"]
    with pytest.raises(BadRequest, match="earlier planned shift"):
        seq.plan(s, seq.parse({"shifts": ["P1:D1", "P1:D3"]}))
    with pytest.raises(BadRequest, match="A:B"):
        seq.plan(s, seq.parse({"shifts": ["P1:D1:D2"]}))
