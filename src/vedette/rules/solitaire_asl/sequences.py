"""Solitaire ASL sequences (docs/rules/solitaire_asl.md, "Sequences").

``shifts``: the shifts the shift planner plans (``plan``: A:B pairs in order, the same fields),
each made by the ruleset's own ``shift`` in turn with the same dice: every later shift gets the
+1 of those counted before it, and once a shift of a kind is refused (8+) the shifts of that
kind behind it are not tried (O'Leary 2.5). Where ``plan`` gives the odds of how many get
through, this gives each end state: what each planned shift did, and then where each stack
concerned ends, which lost concealment and which dummies were eliminated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vedette.referee import procedure, procedure_table
from vedette.rules.fields import arg
from vedette.rules.sequence import Steps, sequence
from vedette.rules.solitaire_asl.model import Stack, State, kind_words
from vedette.rules.solitaire_asl.planner import _facts, _pair, sequencing
from vedette.rules.solitaire_asl.requests import PlanRequest
from vedette.rules.solitaire_asl.turn import querying


@procedure("shifts", rule="O'Leary 2.3-2.5", query=True)
@dataclass(frozen=True, slots=True)
class ShiftsRequest:
    """the planner's shifts made in turn with the same dice: what each did, where each stack
    ends, which lose concealment or are eliminated"""

    shifts: tuple[str, ...] = arg(
        "the planned shifts in order: A:B pairs ('P1:D1,H1:X1'; A alone shifts with itself)",
        positional=True,
    )
    side: str | None = arg("whose shifts (default: from the stacks)", default=None)
    tem: dict[str, int] | None = arg('TEM stated per location: {"4P5": 3}', default=None)
    los: dict[str, bool] | None = arg("enemy LOS stated per location", default=None)


def _plan_request(r: ShiftsRequest) -> PlanRequest:
    return PlanRequest(shifts=r.shifts, side=r.side, order="given", tem=r.tem, los=r.los)


def check_shifts(state: State, r: ShiftsRequest) -> None:
    """The planner's own checks: each pair is a legal shift now, each stack planned once."""
    sequencing(state, _plan_request(r), state.config, state.config.tables)


def play_shifts(steps: Steps, r: ShiftsRequest) -> str:
    """The planned shifts in order, each judged as ``shift`` would be (as a query: a sequence
    has odds only, asked in any phase like ``chances shift``, issue 24)."""
    with querying():
        return _play_shifts(steps, r)


def _play_shifts(steps: Steps, r: ShiftsRequest) -> str:
    start: State = steps.state
    before = {s.id: s for s in start.stacks}
    preq = _plan_request(r)
    done = []
    for text in r.shifts:
        a, b = _pair(str(text))
        req: dict[str, Any] = {"a": a, "b": b, **_facts(start, preq, a, b)}
        if r.side is not None:
            req["side"] = r.side
        out = steps.attempt("shift", req)
        done.append(f"{text} {'not tried' if isinstance(out, Exception) else out.result}")
    after = {s.id: s for s in steps.state.stacks}
    changes = [c for sid in sorted(before) if (c := _change(before[sid], after.get(sid)))]
    return f"{', '.join(done)} | {', '.join(changes) or 'no stack changed'}"


def _change(s: Stack, t: Stack | None) -> str:
    if t is None:
        return f"{s.id} eliminated" + (" (a dummy)" if s.is_dummy else "")
    words = []
    if t.location != s.location or t.position != s.position:
        words.append(f"in {t.location}{f' ({kind_words(t.position)})' if t.position else ''}")
    if t.status != s.status:
        words.append(f"now {t.status.value}")
    if t.dummies != s.dummies:
        words.append(f"{t.dummies} dummies")
    if t.ti and not s.ti:
        words.append("TI")
    return f"{s.id} {' '.join(words)}" if words else ""


def shifts_facets(label: str) -> list[str]:
    """How many shifts got through (O'Leary 2.5: a DR of 7 or less), and each that did."""
    done = label.split(" | ")[0].split(", ")
    through = [d.rsplit(" ", 1)[0] for d in done if d.endswith((" free", " allowed"))]
    return [f"{len(through)} through", *(f"{t} through" for t in through)]


SEQUENCES = procedure_table(
    sequence(ShiftsRequest, "solitaire_asl", play_shifts, check_shifts, shifts_facets)
)
