"""The shift planner: for a planned order of shifts in one phase, the exact odds of getting 0,
1, 2 ... of them through before the phase closes, and the order that gets the most through on
average.

Why the order matters (O'Leary 2.5): each shift that gets through on a final DR of 1-7 adds +1
to every later shift DR of the phase (one of <= 0 does not), and a final DR of 8 or more ends
shifting of that kind for the side in that phase, so the shifts behind it are never tried.

The odds come from the core's chance algebra (:func:`vedette.rules.protocol.chances`): it
enumerates every chance node of :func:`roll_sequence`, which rolls the planned shifts in
order; each shift is one node whose outcomes (through and counted, through on <= 0, closed) carry
the exact weights of the same check (the same modifiers and the same shift table) a ``shift``
would roll, with the +1 of the shifts counted before it. Each
shift's own DRMs are those of ``shift`` for the same pair now (its plan checks it is legal);
the planner adds the +1 of the shifts before it in the plan. A stack may appear in one planned
shift only (its DRMs would change once it has moved).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from vedette.dice import Check, DiceSource, Modifier, Table
from vedette.dice.die import Die
from vedette.errors import BadRequest
from vedette.rules.base import Outcome
from vedette.rules.fields import spec_of
from vedette.rules.protocol import Chances, Plan, chances
from vedette.rules.solitaire_asl.config import Config
from vedette.rules.solitaire_asl.model import State
from vedette.rules.solitaire_asl.requests import PlanRequest, ShiftRequest
from vedette.rules.solitaire_asl.shift import location_of, plan_shift, side_named
from vedette.rules.solitaire_asl.turn import Effects, phase_key, querying

#: the most shifts whose every order is searched (4! = 24 orders)
MAX_SEARCH = 4
#: dice branches enumerated per order before the core samples instead
LIMIT = 400_000


@dataclass(frozen=True)
class Planned:
    """One planned shift: its pair, its own DRMs (without the +1 of earlier shifts), its
    bookkeeping group (the +1 count and the closure) and the shift table for its kind."""

    label: str
    mods: tuple[Modifier, ...]
    group: str
    table: Table
    stacks: frozenset[str]


@dataclass(frozen=True)
class Sequencing:
    side: str
    shifts: tuple[Planned, ...]
    per_shift: int  # the DRM per previous shift (2.5: +1)
    shared: bool  # previous shifts of every operation count (the default reading)
    start: Mapping[str, int]  # shifts already counted this phase, per group ("*": all)
    closed: frozenset[str]  # groups closed before the plan (none: each planned shift's plan holds)


def _pair(text: str) -> tuple[str, str]:
    parts = [p.strip() for p in text.split(":")]
    if len(parts) == 1 and parts[0]:
        return parts[0], parts[0]
    if len(parts) != 2 or not all(parts):
        raise BadRequest(f"a planned shift is A:B (or A alone), not {text!r}")
    return parts[0], parts[1]


def _facts(state: State, req: PlanRequest, a: str, b: str) -> dict[str, Any]:
    la, lb = location_of(state, a), location_of(state, b)
    out: dict[str, Any] = {}
    tem, los = dict(req.tem or {}), dict(req.los or {})
    if la in tem:
        out["tem_a"] = tem[la]
    if lb in tem:
        out["tem_b"] = tem[lb]
    if la in los:
        out["los_a"] = los[la]
    if lb in los:
        out["los_b"] = los[lb]
    return out


def sequencing(
    state: State, req: PlanRequest, config: Config, tables: Mapping[str, Table]
) -> Sequencing:
    """Check every planned shift as ``shift`` would (as a query: in any phase, each as if its
    window were open, issue 24), and keep what the planner rolls."""
    with querying():
        return _sequencing(state, req, config, tables)


def _sequencing(
    state: State, req: PlanRequest, config: Config, tables: Mapping[str, Table]
) -> Sequencing:
    if not req.shifts:
        raise BadRequest("plan at least one shift: shifts=P1:D1,H1:X1")
    side0 = side_named(state, req.side) if req.side is not None else None
    planned: list[Planned] = []
    seen: set[str] = set()
    side = side0
    for i, text in enumerate(req.shifts):
        a, b = _pair(str(text))
        raw = {"a": a, "b": b, **_facts(state, req, a, b)}
        if side is not None:
            raw["side"] = side
        sreq: ShiftRequest = spec_of(ShiftRequest).build(raw, f"shifts[{i}].")
        sp = plan_shift(state, sreq, config, tables)
        if side is not None and sp.side != side:
            raise BadRequest(f"{text}: a shift of {sp.side}, not {side}")
        side = sp.side
        ids = {s.id for s in (*sp.a.stacks, *sp.b.stacks)} | set(sp.moving_ids)
        ids |= {s.id for pair in sp.extra for s in pair}
        if ids & seen:
            raise BadRequest(
                f"{text}: {', '.join(sorted(ids & seen))} is in an earlier planned shift (plan"
                " each stack once)"
            )
        seen |= ids
        mods = tuple(m for m in sp.check.modifiers if "previous shift" not in m.reason)
        planned.append(Planned(f"{a}:{b}", mods, sp.book, sp.table, frozenset(ids)))
    assert side is not None
    drm = config.drm
    shared = drm.previous_counts == "all"
    pk = phase_key(state)
    start = {"*": state.count(side, pk, None)}
    for p in planned:
        start[p.group] = state.count(side, pk, p.group)
    # every planned shift passed its plan, so none of their kinds is closed yet this phase
    return Sequencing(side, tuple(planned), drm.previous_shift, shared, start, frozenset())


#: what a shift's row does, for the planner: (gets through, bears the +1, closes the phase)
Effect = tuple[bool, bool, bool]


def _effects(p: Planned, mods: tuple[Modifier, ...]) -> tuple[Die, tuple[Effect, ...]]:
    """One shift as one chance node: a die whose faces are the effects of the shift table's
    rows, each repeated in proportion to its exact probability under the shift's own Check
    (its modifiers, the same table ``shift`` reads). Rows with the same effect share faces,
    so the tree branches on what matters to the sequence, not on every pip."""
    odds = Check(p.table.dice, mods, p.table, f"planned shift {p.label}", "O'Leary 2.5").odds()
    by_key = {r.key: r for r in p.table.rows}
    weights: dict[Effect, Fraction] = {}
    for row in odds.rows:
        if row.p == 0:
            continue
        flags = Effects.of(by_key[row.key])
        eff = (flags.allowed, flags.counted, flags.closes)
        weights[eff] = weights.get(eff, Fraction(0)) + row.p
    effects = tuple(weights)
    denom = math.lcm(*(w.denominator for w in weights.values()))
    counts = [int(w * denom) for w in weights.values()]
    g = math.gcd(*counts)
    faces = tuple(i for i, n in enumerate(counts) for _ in range(n // g))
    return Die(f"shift {p.label}", faces), effects


def _count_mods(seq: Sequencing, p: Planned, n: int) -> tuple[Modifier, ...]:
    if not n:
        return p.mods
    reason = f"{n} previous shift{'s' if n > 1 else ''} this phase"
    return (Modifier(seq.per_shift * n, reason, "O'Leary 2.5"), *p.mods)


def roll_sequence(
    seq: Sequencing,
    order: Sequence[int],
    dice: DiceSource,
    nodes: dict[tuple[int, int], tuple[Die, tuple[Effect, ...]]] | None = None,
) -> Outcome:
    """Roll the planned shifts in ``order`` as the phase would: each with the +1 of the
    shifts counted before it (2.5), none after an 8+ closed its kind of shift. The result is
    how many got through. ``nodes`` caches each (shift, count)'s chance node."""
    nodes = {} if nodes is None else nodes
    counted: dict[str, int] = {}
    closed = set(seq.closed)
    through = 0
    for i in order:
        p = seq.shifts[i]
        if p.group in closed:
            continue
        key = "*" if seq.shared else p.group
        n = seq.start.get(key, 0) + counted.get(key, 0)
        node = nodes.get((i, n))
        if node is None:
            node = nodes[(i, n)] = _effects(p, _count_mods(seq, p, n))
        die, effects = node
        allowed, counts, closes = effects[dice.face(die)]
        if allowed:
            through += 1
        if counts:
            counted[key] = counted.get(key, 0) + 1
        if closes:
            closed.add(p.group)
    return Outcome((), (), f"{through} through", result=f"{through} through")


def odds_of(seq: Sequencing, order: Sequence[int]) -> Chances:
    """The exact distribution of the number of shifts through, for one order."""
    nodes: dict[tuple[int, int], tuple[Die, tuple[Effect, ...]]] = {}
    return chances(lambda dice: roll_sequence(seq, order, dice, nodes), limit=LIMIT)


def expected(c: Chances) -> Fraction:
    return sum((int(r.result.split()[0]) * r.p for r in c.rows), Fraction(0))


def distribution(c: Chances, k: int) -> list[Fraction]:
    """P(0 through), P(1 through) ... P(k through)."""
    return [c.p(f"{n} through") for n in range(k + 1)]


@dataclass(frozen=True)
class PlanData:
    seq: Sequencing
    search: bool


def plan_planner(
    state: State, req: PlanRequest, config: Config, tables: Mapping[str, Table]
) -> Plan:
    seq = sequencing(state, req, config, tables)
    search = req.order == "best" and len(seq.shifts) <= MAX_SEARCH
    return Plan(req, (), PlanData(seq, search))


def resolve_planner(
    state: State,
    plan: Plan,
    dice: DiceSource,
    config: Config,
    tables: Mapping[str, Table],
) -> Outcome:
    d: PlanData = plan.data
    seq = d.seq
    k = len(seq.shifts)
    given = tuple(range(k))
    c = odds_of(seq, given)
    lines = [f"{seq.side}: {' then '.join(p.label for p in seq.shifts)}"]
    lines += _lines(c, k)
    details: dict[str, Any] = {
        "side": seq.side,
        "order": [p.label for p in seq.shifts],
        "distribution": [_frac(x) for x in distribution(c, k)],
        "expected": _frac(expected(c)),
        "exact": c.exact,
    }
    if d.search and k > 1:
        best, best_c = given, c
        for order in itertools.permutations(range(k)):
            if order == given:
                continue
            oc = odds_of(seq, order)
            if expected(oc) > expected(best_c):
                best, best_c = order, oc
        labels = [seq.shifts[i].label for i in best]
        if best == given:
            lines.append("this order gets the most through on average (of every order)")
        else:
            lines.append(f"best order: {' then '.join(labels)}")
            lines += _lines(best_c, k)
        details["best"] = {
            "order": labels,
            "distribution": [_frac(x) for x in distribution(best_c, k)],
            "expected": _frac(expected(best_c)),
        }
    elif k > MAX_SEARCH and plan.request.order == "best":
        lines.append(f"(more than {MAX_SEARCH} shifts: only this order is computed)")
    return Outcome((), (), "\n".join(lines), details)


def _lines(c: Chances, k: int) -> list[str]:
    out = [
        f"  {n} through: {float(p) * 100:6.2f}%  ({p})" for n, p in enumerate(distribution(c, k))
    ]
    e = expected(c)
    out.append(f"  expected: {float(e):.3f} shifts ({e})" + ("" if c.exact else " (sampled)"))
    return out


def _frac(x: Fraction) -> dict[str, Any]:
    return {"p": f"{x.numerator}/{x.denominator}", "value": round(float(x), 6)}
