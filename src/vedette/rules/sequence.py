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

from vedette import rules
from vedette.dice.die import Die
from vedette.dice.sources import DiceSource, branch
from vedette.errors import RuleViolation, VedetteError
from vedette.rules.base import Outcome
from vedette.rules.protocol import (
    Chance,
    Chances,
    EnumeratingSource,
    Plan,
    Procedure,
    SampleSource,
    _Branch,
    _Rejected,
    _TooLarge,
    _wilson,
    declared,
    flow_violation,
)

#: the leaves a step merged by the state it leaves (``Steps.merged``) may have at most
MERGE_LIMIT = 2_000


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


def _key(name: str, request: Mapping[str, Any]) -> str:
    """A step's name and request as one string (the same request, the same string)."""
    if all(type(v) in (str, int, bool) for v in request.values()):
        return name + repr(sorted(request.items()))
    return json.dumps([name, request], sort_keys=True, default=str)


class _Node:
    """One die (``face``), whole-check branch (``branch``) or attempt mark (``begin_attempt``,
    ``reject_attempt``) a step drew, in the order it drew them, with a child per value
    drawn; a leaf holds the step's outcome and the state it left (see :class:`StepCache`)."""

    __slots__ = ("arg", "call", "children", "leaf")

    def __init__(self) -> None:
        self.call = ""
        self.arg: Any = None
        self.children: dict[Any, _Node] = {}
        self.leaf: Any = None


class _Recorder:
    """The dice a step draws on a cache miss: the values already drawn (``taken``, while the
    cache was walked) first, then the outer source's, each call logged for the cache."""

    cacheable = True  # steps inside a replayed whole replay from their own caches too

    def __init__(self, outer: Any, taken: list[Any]) -> None:
        self.outer = outer
        self.kind = outer.kind
        self.taken = taken
        self.i = 0
        self.log: list[tuple[str, Any, Any]] = []

    def _next(self, call: str, arg: Any, draw: Callable[[], Any]) -> Any:
        v = self.taken[self.i] if self.i < len(self.taken) else draw()
        self.i += 1
        self.log.append((call, arg, v))
        return v

    def face(self, die: Die) -> int:
        return int(self._next("face", die, lambda: self.outer.face(die)))

    def branch(self, weights: Any) -> int:
        return int(self._next("branch", weights, lambda: self.outer.branch(weights)))

    def begin_attempt(self) -> None:
        self._next("begin_attempt", None, lambda: _hook(self.outer, "begin_attempt"))

    def reject_attempt(self) -> None:
        # the enumeration stops here (the attempt is conditioned away); a sample rolls again
        self._next("reject_attempt", None, lambda: _hook(self.outer, "reject_attempt"))


def _hook(source: Any, name: str) -> None:
    """Call the source's ``begin_attempt`` or ``reject_attempt`` if it has one."""
    f = getattr(source, name, None)
    if f is not None:
        f()


def replayed(root: _Node, dice: Any, compute: Callable[[Any], Any]) -> Any:
    """``compute(dice)`` as it was when the same draws were made before (the tree under
    ``root`` of the draws seen, walked drawing from ``dice`` in the same order), else computed
    with a recorder that gives it the draws already made and logs the rest into the tree."""
    node = root
    taken: list[Any] = []
    while node.leaf is None and node.call:  # the path seen so far, drawn again
        if node.call == "face":
            v: Any = dice.face(node.arg)
        elif node.call == "branch":
            v = dice.branch(node.arg)
        else:  # an attempt begun or rejected (see dice.sources.begin_attempt)
            _hook(dice, node.call)
            v = None
        taken.append(v)
        nxt = node.children.get(v)
        if nxt is None:
            break
        node = nxt
    else:
        if node.leaf is not None:
            return node.leaf
    rec = _Recorder(dice, taken)
    value = compute(rec)
    node = root
    for call, arg, v in rec.log:
        node.call, node.arg = call, arg
        node = node.children.setdefault(v, _Node())
    node.leaf = value
    return value


def _sampling(dice: Any) -> bool:
    """Is ``dice`` (or the source a step's recorder draws from) a sample's source, drawing
    by the odds (not the uniform walk of ``protocol.estimate_leaves``)?"""
    while isinstance(dice, _Recorder):
        dice = dice.outer
    return isinstance(dice, SampleSource) and not dice.uniform


class StepCache:
    """What each step of a sequence did on each state it was taken on, kept with the plan so
    that every run of the sequence (a dice branch re-executed, or a sample) replays a step it
    has seen: the cache is walked drawing from the run's own source the same dice (or whole
    checks) in the same order as the step drew them, and a path seen before gives the step's
    outcome and the state it left at once. A path not seen yet runs the real step (plan,
    resolve, fold), so every outcome is still the procedure's own. Used only under the core's
    enumerating and sampling sources (``cacheable``); states are kept by identity (they are
    immutable, and the cache holds them so that an identity is never reused).

    ``same_state(state)``: the state's value as a hashable key (a sequence may declare it): a
    state a step leaves that equals one seen before, by another path of draws, is replaced by
    that one, so the steps after it replay from the caches kept for it (the same value, the
    same steps: states are values) instead of running again."""

    def __init__(self, same_state: Callable[[Any], Any] | None = None) -> None:
        #: per state and step: the tree of its draws seen, with the step's procedure and plan
        self.roots: dict[tuple[int, str], tuple[Any, _Node, Any, Plan]] = {}
        self.plans: dict[tuple[int, str], tuple[Any, Any, Plan]] = {}
        self.owed: dict[int, tuple[Any, Any]] = {}
        self.seen: dict[tuple[int, str], tuple[Any, Any]] = {}
        #: per state and step: its leaves grouped by the state they leave (``Steps.merged``)
        self.merged: dict[tuple[int, str], tuple[Any, Any]] = {}
        self.same_state = same_state
        self.states: dict[Any, Any] = {}

    def interned(self, state: Any) -> Any:
        """The state seen first of those equal to ``state`` (itself without ``same_state``)."""
        if self.same_state is None:
            return state
        return self.states.setdefault(self.same_state(state), state)


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
    #: the steps seen by earlier runs of the same plan (see :class:`StepCache`)
    cache: StepCache | None = None

    def __post_init__(self) -> None:
        self.start = self.state
        if not getattr(self.dice, "cacheable", False):
            self.cache = None

    def per_state(self, tag: str, fn: Callable[[Any], Any]) -> Any:
        """``fn(state)`` of the current state, kept per state while caching (what a
        sequence's label reads of a state, e.g. a unit's view)."""
        c = self.cache
        if c is None:
            return fn(self.state)
        k = (id(self.state), tag)
        got = c.seen.get(k)
        if got is None or got[0] is not self.state:
            got = c.seen[k] = (self.state, fn(self.state))
        return got[1]

    def obligations(self) -> Any:
        """The ruleset's obligations in the current state (kept per state while caching)."""
        c = self.cache
        if c is None:
            return self.ruleset.obligations(self.state)
        got = c.owed.get(id(self.state))
        if got is None or got[0] is not self.state:
            got = c.owed[id(self.state)] = (self.state, self.ruleset.obligations(self.state))
        return got[1]

    def _plan(self, name: str, request: Mapping[str, Any], key: str = "") -> tuple[Any, Plan]:
        key = key or _key(name, request)
        if self.memo is not None and self.state is self.start and key in self.memo:
            return self.memo[key]
        c = self.cache
        if c is not None:
            hit = c.plans.get((id(self.state), key))
            if hit is not None and hit[0] is self.state:
                return hit[1], hit[2]
        procs = self.ruleset.protocol_procedures()
        if name not in procs:
            raise VedetteError(f"{self.ruleset.name} has no procedure {name!r}")
        proc = procs[name]
        req = proc.parse(request)
        if not proc.query:
            owed = flow_violation(self.obligations(), name, proc.request_json(req))
            if owed is not None:
                raise RuleViolation(owed.rule, f"{owed.text} is owed first: '{owed.command()}'")
        found = (proc, proc.plan(self.state, req))
        if self.memo is not None and self.state is self.start:
            self.memo[key] = found
        if c is not None:
            c.plans[(id(self.state), key)] = (self.state, *found)
        return found

    def step(self, name: str, request: Mapping[str, Any]) -> Outcome:
        key = _key(name, request)
        c = self.cache
        if c is None:
            proc, plan = self._plan(name, request, key)
            outcome: Outcome = proc.resolve(self.state, plan, self.dice)
            for e in outcome.events:
                self.state = self.ruleset.fold(self.state, e)
        else:
            outcome = self._cached(c, name, request, key)
        self.rolls.extend(outcome.rolls)
        if outcome.message:
            self.lines.append(str(outcome.message))
        return outcome

    def merged(self, name: str, request: Mapping[str, Any], value: Callable[[Any], Any]) -> Outcome:
        """``step``, drawn once per distinct state it may leave: for a step whose outcome the
        sequence reads only through the state it leaves (a move a result owes, say, whose dice
        give many places and few distinct states). Under the core's enumerating and sampling
        sources (those a sequence caches under) the step's own dice are enumerated once on the
        current state, its leaves grouped by the value of the state they leave (``value``,
        a state's value as a hashable key: ``StepCache.same_state``'s kind), and one
        whole-check branch drawn among the groups with their exact odds; the outcome is the
        first leaf's of its group. A sample (not the uniform walk that estimates the tree's
        size) draws the step's own dice, the same odds at less cost. Under any other source,
        or a step too large to enumerate, or one that rolls again on some results: ``step``."""
        c = self.cache
        key = _key(name, request)
        if c is None or _sampling(self.dice):
            return self.step(name, request)
        got = c.merged.get((id(self.state), key))
        if got is None or got[0] is not self.state:
            groups = self._groups(c, name, request, value)
            got = c.merged[(id(self.state), key)] = (self.state, groups)
        groups = got[1]
        if groups is None:
            return self.step(name, request)
        weights, leaves = groups
        k = branch(self.dice, weights) or 0 if len(weights) > 1 else 0
        outcome, self.state = leaves[k]
        self.rolls.extend(outcome.rolls)
        if outcome.message:
            self.lines.append(str(outcome.message))
        return outcome

    def _groups(
        self, c: StepCache, name: str, request: Mapping[str, Any], value: Callable[[Any], Any]
    ) -> tuple[list[Fraction], list[tuple[Outcome, Any]]] | None:
        """The step's leaves from the current state grouped by the state each leaves: their
        summed odds and each group's first (outcome, state); None past ``MERGE_LIMIT`` leaves
        or for a roll made again on some results."""
        proc, plan = self._plan(name, request)
        start = self.state
        by_state: dict[Any, int] = {}
        weights: list[Fraction] = []
        leaves: list[tuple[Outcome, Any]] = []
        paths: list[list[int]] = [[]]
        seen = 0
        while paths:
            path = paths.pop()
            src = EnumeratingSource(path)
            try:
                outcome = proc.resolve(start, plan, src)
            except _Branch as b:
                paths.extend([*path, k] for k in reversed(range(b.n)))
                continue
            except (_Rejected, _TooLarge):
                return None
            seen += 1
            if seen > MERGE_LIMIT:
                return None
            state = start
            for e in outcome.events:
                state = self.ruleset.fold(state, e)
            k = by_state.setdefault(value(state), len(leaves))
            if k == len(leaves):
                weights.append(src.weight)
                leaves.append((outcome, c.interned(state)))
            else:
                weights[k] += src.weight
        return weights, leaves

    def _cached(self, c: StepCache, name: str, request: Mapping[str, Any], key: str) -> Any:
        got = c.roots.get((id(self.state), key))
        if got is None or got[0] is not self.state:
            proc_, plan_ = self._plan(name, request, key)
            got = c.roots[(id(self.state), key)] = (self.state, _Node(), proc_, plan_)
        start, proc, plan = self.state, got[2], got[3]

        def take(dice: Any) -> tuple[Outcome, Any]:
            outcome = proc.resolve(start, plan, dice)
            state = start
            for e in outcome.events:
                state = self.ruleset.fold(state, e)
            return outcome, c.interned(state)

        outcome, self.state = replayed(got[1], self.dice, take)
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
    steps: StepCache = field(default_factory=StepCache)
    #: the whole sequence's outcome per path of draws seen (see ``replayed``)
    whole: _Node = field(default_factory=_Node)


def sequence(
    request: type[Any],
    ruleset: str,
    play: Play,
    check: Callable[[Any, Any], None] | None = None,
    facets: Callable[[str], Iterable[str]] | None = None,
    same_state: Callable[[Any], Any] | None = None,
) -> SequenceProcedure:
    """A sequence of ruleset ``ruleset`` (its registry name) as a query procedure; its name,
    help and rule are its request class's (declared with ``@procedure(..., query=True)``).

    ``check(state, request)`` refuses what is wrong with the request itself; plan then plays
    the sequence up to its first die, so every refusal that does not depend on the dice is a
    refusal of the request. During resolve, a step refused in a branch (after some dice) ends
    that branch: its label says which step and why. ``facets(label)`` names what an end state
    counts towards (see :class:`SequenceProcedure`). ``same_state(state)``: the state's value
    as a hashable key, so that equal states reached by different draws share the steps' caches
    (see :class:`StepCache`; only a key that two states share when they are equal values).
    """

    found: list[Any] = []

    def get_ruleset() -> Any:
        if not found:
            found.append(rules.get(ruleset))
        return found[0]

    def plan(state: Any, req: Any) -> Plan:
        if check is not None:
            check(state, req)
        memo: dict[str, tuple[Any, Plan]] = {}
        with contextlib.suppress(_FirstDie):  # up to the first die: refusals are the request's
            play(Steps(get_ruleset(), state, _DryDice(), memo=memo), req)
        return Plan(req, data=_Memo(state, memo, StepCache(same_state)))

    def resolve(state: Any, plan: Plan, dice: DiceSource) -> Outcome:
        m = plan.data
        ours = isinstance(m, _Memo) and m.state is state
        memo = m.plans if ours else None

        def whole(src: Any) -> Outcome:
            steps = Steps(get_ruleset(), state, src, memo=memo, cache=m.steps if ours else None)
            try:
                label = play(steps, plan.request)
            except VedetteError as e:
                label = f"stopped: {e}"
            return Outcome((), tuple(steps.rolls), "\n".join(steps.lines), result=label)

        if ours and getattr(dice, "cacheable", False):  # a path of draws seen: its end state
            out: Outcome = replayed(m.whole, dice, whole)
            return out
        return whole(dice)

    if not declared(request).query:
        raise TypeError(f"sequence {declared(request).name!r}: declare its request a query")
    return SequenceProcedure(request, plan, resolve, facets=facets)


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
