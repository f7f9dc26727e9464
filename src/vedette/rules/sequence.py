"""Sequences: the exact odds of several procedures played one after another.

A sequence is a query :class:`~vedette.rules.protocol.Procedure` (a typed request, a plan
that refuses with ``RuleViolation(rule)``, a resolve) whose resolve plays the ruleset's own
procedures, in turn, on a private copy of the state: each step is the real ``plan`` then the
real ``resolve`` with the SAME dice source, and its events are folded into the copy before
the next step plans. The outcome's ``result`` names the end state, so
:func:`~vedette.rules.protocol.chances` (which enumerates every die the whole thing draws)
gives the exact odds of each end state, or samples them and says so when the tree is too
large.

A ruleset declares its sequences in ``<package>/sequences.py`` as ``SEQUENCES`` (see
``Ruleset.sequences``), each built with :func:`sequence`: the request, a ``check`` run by plan
before any die (refusals), and a ``play(steps, request) -> str`` that drives :class:`Steps` and
returns the end-state label. Sequences are never performed (the engine refuses them): they
only answer "how likely is each end state".
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from vedette.dice.die import Die
from vedette.dice.sources import DiceSource
from vedette.errors import RuleViolation, VedetteError
from vedette.rules.base import Outcome
from vedette.rules.protocol import Chance, Chances, Plan, Procedure, _wilson, flow_violation


class _FirstDie(Exception):
    """Raised by :class:`_DryDice` at the first die: plan has seen every refusal that comes
    before the dice."""


class _DryDice:
    kind = "dry"

    def face(self, die: Die) -> int:
        raise _FirstDie

    def begin_attempt(self) -> None:
        pass

    def reject_attempt(self) -> None:
        raise _FirstDie


@dataclass
class Steps:
    """A private copy of the game played forward by the ruleset's own procedures.

    ``step(name, request)`` plans and resolves procedure ``name`` on the current copy with the
    sequence's dice source, then folds its events in; the owed steps of the rules are
    respected as the engine respects them (a step an obligation blocks is refused). ``state``
    is the copy after every step so far; ``rolls`` and ``lines`` gather what the steps
    rolled and said.
    """

    ruleset: Any
    state: Any
    dice: DiceSource
    rolls: list[Any] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    #: plans made on the starting state (the same in every dice branch: plans are pure)
    memo: dict[str, tuple[Any, Plan]] | None = None

    def __post_init__(self) -> None:
        self.start = self.state

    def _plan(self, name: str, request: Mapping[str, Any]) -> tuple[Any, Plan]:
        key = json.dumps([name, request], sort_keys=True, default=str)
        if self.memo is not None and self.state is self.start and key in self.memo:
            return self.memo[key]
        procs = self.ruleset.protocol_procedures()
        if name not in procs:
            raise VedetteError(f"{self.ruleset.name} has no procedure {name!r}")
        proc = procs[name]
        req = proc.parse(request)
        if not proc.query:
            owed = flow_violation(
                self.ruleset.obligations(self.state), name, proc.request_json(req)
            )
            if owed is not None:
                raise RuleViolation(owed.rule, f"{owed.text} is owed first: '{owed.command()}'")
        found = (proc, proc.plan(self.state, req))
        if self.memo is not None and self.state is self.start:
            self.memo[key] = found
        return found

    def step(self, name: str, request: Mapping[str, Any]) -> Outcome:
        proc, plan = self._plan(name, request)
        outcome: Outcome = proc.resolve(self.state, plan, self.dice)
        for e in outcome.events:
            self.state = self.ruleset.fold(self.state, e)
        self.rolls.extend(outcome.rolls)
        if outcome.message:
            self.lines.append(str(outcome.message))
        return outcome

    def attempt(self, name: str, request: Mapping[str, Any]) -> Outcome | VedetteError:
        """``step``, or the refusal when the rules forbid the step in the state the earlier
        steps left (a branch where, say, a kind of shift closed): the caller names it."""
        try:
            return self.step(name, request)
        except VedetteError as e:
            return e


Play = Callable[[Steps, Any], str]


@dataclass(frozen=True)
class _Memo:
    """The plans a sequence's steps made on the state it was planned on, kept with its plan
    so that each dice branch (a re-run of resolve) does not plan them again."""

    state: Any
    plans: dict[str, tuple[Any, Plan]]


def sequence(
    name: str,
    request: type[Any],
    ruleset: str,
    play: Play,
    help: str,
    rule: str,
    check: Callable[[Any, Any], None] | None = None,
    facets: Callable[[str], Iterable[str]] | None = None,
) -> SequenceProcedure:
    """A sequence of ruleset ``ruleset`` (its registry name) as a query procedure.

    ``check(state, request)`` refuses what is wrong with the request itself; plan then plays
    the sequence up to its first die, so every refusal that does not depend on the dice is a
    refusal of the request. During resolve, a step refused in a branch (after some dice) ends
    that branch: its label says which step and why. ``facets(label)`` names what an end state
    counts towards (see :class:`SequenceProcedure`).
    """

    def get_ruleset() -> Any:
        from vedette import rules

        return rules.get(ruleset)

    def plan(state: Any, req: Any) -> Plan:
        if check is not None:
            check(state, req)
        memo: dict[str, tuple[Any, Plan]] = {}
        with contextlib.suppress(_FirstDie):  # up to the first die: refusals are the request's
            play(Steps(get_ruleset(), state, _DryDice(), memo=memo), req)
        return Plan(req, data=_Memo(state, memo))

    def resolve(state: Any, plan: Plan, dice: DiceSource) -> Outcome:
        m = plan.data
        memo = m.plans if isinstance(m, _Memo) and m.state is state else None
        steps = Steps(get_ruleset(), state, dice, memo=memo)
        try:
            label = play(steps, plan.request)
        except VedetteError as e:
            label = f"stopped: {e}"
        return Outcome((), tuple(steps.rolls), "\n".join(steps.lines), result=label)

    return SequenceProcedure(name, request, plan, resolve, help, rule, query=True, facets=facets)


@dataclass(frozen=True)
class SequenceProcedure(Procedure[Any, Any]):
    """A sequence: a query procedure, and ``facets(label)``: what each end state counts
    towards (e.g. "the screen holds", "M routs"), so that the chance of each is shown beside
    the end states (the sum over the end states that count towards it)."""

    facets: Callable[[str], Iterable[str]] | None = field(default=None, compare=False)

    def summary(self, c: Chances) -> tuple[Chance, ...]:
        """The chance of each facet; sampled, with its own Wilson 95% interval."""
        if self.facets is None:
            return ()
        total: dict[str, Fraction] = {}
        for row in c.rows:
            for f in dict.fromkeys(self.facets(row.result)):
                total[f] = total.get(f, Fraction(0)) + row.p
        out = []
        for f, p in sorted(total.items(), key=lambda kv: (-kv[1], kv[0])):
            if c.exact:
                out.append(Chance(f, p))
            else:
                lo, hi = _wilson(round(p * c.leaves), c.leaves)
                out.append(Chance(f, p, lo, hi))
        return tuple(out)


def summary_of(proc: Any, c: Chances) -> tuple[Chance, ...]:
    """A sequence's facets (none for a plain procedure)."""
    return proc.summary(c) if isinstance(proc, SequenceProcedure) else ()


def load_sequences(module: str) -> dict[str, Procedure[Any, Any]]:
    """``SEQUENCES`` of ``module`` if the module exists, else none."""
    from importlib import import_module
    from importlib.util import find_spec

    try:
        if find_spec(module) is None:
            return {}
    except ModuleNotFoundError:
        return {}
    return dict(getattr(import_module(module), "SEQUENCES", {}))
