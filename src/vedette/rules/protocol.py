"""The referee protocol: typed procedures that plan and resolve, obligations, ``todo``, typed
events, and the chance algebra that gives the exact odds of a whole procedure.

* A :class:`Procedure` declares a frozen request dataclass (see :mod:`vedette.rules.fields`);
  ``plan(state, request) -> Plan`` checks the rules (raising :class:`RuleViolation` naming the
  rule) and lists the chance steps it will take; ``resolve(state, plan, dice) -> Outcome`` rolls
  them (every die drawn is a recorded roll) and returns typed events.
* The odds of *every* outcome of a procedure, also one with several rolls, come from the same
  ``resolve``: :func:`chances` runs it against an enumerating dice source that branches on every
  die (OpenSpiel's chance nodes, explored by re-execution), with exact ``Fraction`` weights; a
  roll that is made again on some results (a draw rerolled, a d6 re-rolled above N) is
  conditioned exactly. A tree too large to enumerate is sampled, and says so.
* :class:`Obligation` s are state: what the rules require next. The engine refuses a step that
  skips one (naming the rule and the owed step) unless the player waives it, which is a logged
  :class:`Waived` event. ``todo(state)`` lists obligations first, then the actions open now.
* Events are typed, versioned dataclasses (:class:`DomainEvent`) registered per ruleset; an
  ``upgrade`` hook turns an old payload into the current shape, so a saved game never stops
  opening.
"""

from __future__ import annotations

import bisect
import inspect
import itertools
import json
import math
import random
import shlex
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property, partial
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from vedette.dice.check import Check, Odds, UnderCheck
from vedette.dice.die import Die
from vedette.dice.sources import DiceSource
from vedette.errors import BadRequest, DiceError, RuleViolation, VedetteError
from vedette.numerals import ascii_int
from vedette.rules.fields import FieldSpec, RequestSpec, arg, spec_of, to_json

if TYPE_CHECKING:
    from random import Random

S = TypeVar("S")
R = TypeVar("R")


# -- the end of a game ------------------------------------------------------------------------
@dataclass(frozen=True)
class GameOutcome:
    """How a game ended (OpenSpiel's ``is_terminal``/``returns``): ``winner`` a side id or
    ``"draw"``; ``how`` in words ("army broken", "turn limit", "score", ...); the turns
    played and each side's losses (units routed or destroyed; the ruleset's own count)."""

    winner: str
    how: str
    turns: int
    losses: Mapping[str, int] = field(default_factory=dict)

    @property
    def draw(self) -> bool:
        return self.winner == "draw"


# -- plans -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Plan:
    """What a procedure will do: the request, the chance steps it knows it will take (shown
    with their own odds before the roll), and anything ``plan`` computed for ``resolve``."""

    request: Any
    steps: tuple[Check | UnderCheck, ...] = ()
    data: Any = None
    step_odds_fn: Callable[[], Sequence[Odds]] | None = field(default=None, compare=False)

    def step_odds(self) -> list[Odds]:
        if self.step_odds_fn is not None:
            return list(self.step_odds_fn())
        return [s.odds() for s in self.steps]


# -- procedures ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Declared:
    """What a request class declares of its procedure (see :func:`procedure`)."""

    name: str
    help: str
    rule: str
    query: bool = False
    omit_none: bool = False


def procedure(
    name: str, *, rule: str = "", query: bool = False, omit_none: bool = False
) -> Callable[[type[R]], type[R]]:
    """Declare a request class (a frozen dataclass of :func:`~vedette.rules.fields.arg`
    fields) as the request of procedure ``name``: the one place its name, its help and its
    rule are written. The help is the class docstring's first paragraph (in one line; later
    paragraphs are for developers). ``query``: a question that changes nothing (not logged,
    never phase-bound). ``omit_none``: the request is logged without the fields left None
    (facts the rules measure or default when the game is replayed)::

        @procedure("move", rule="Herman (1)")
        @dataclass(frozen=True, slots=True)
        class Move:
            \"\"\"move a piece along a hex path\"\"\"

            force: str = arg("the piece that moves", positional=True)
    """

    def declare(cls: type[R]) -> type[R]:
        doc = cls.__dict__.get("__doc__") or ""
        if not doc.strip() or doc.startswith(cls.__name__ + "("):  # dataclass's own
            raise TypeError(f"request {cls.__name__} ({name!r}): its docstring is the help")
        text = inspect.cleandoc(doc).split("\n\n", 1)[0]
        cls.__procedure__ = Declared(name, " ".join(text.split()), rule, query, omit_none)  # type: ignore[attr-defined]
        return cls

    return declare


def declared(request: type[Any]) -> Declared:
    """The declaration of a request class (a TypeError naming it if it has none)."""
    d = getattr(request, "__procedure__", None)
    if not isinstance(d, Declared):
        raise TypeError(f"{request.__name__} is not declared with @procedure(...)")
    return d


@dataclass(frozen=True)
class Procedure(Generic[S, R]):
    """A rule procedure: a declared request class (:func:`procedure`: name, help, rule),
    ``plan(state, request) -> Plan`` then ``resolve(state, plan, dice) -> Outcome``.
    ``check(state, request)``: optional, what ``plan`` refuses without building the plan
    (``todo`` may ask it of every offer). A procedure that rolls no dice is
    :meth:`nodice`. ``play(state, request, dice)``: optional, ``plan`` then ``resolve`` in one
    run, for a procedure whose plan is a dry run of the same steps (the simulator: the same
    refusals, the same dice and the same events, the checks made once; the outcome's words
    and details, which the simulator does not read, may be left out)."""

    request: type[R]
    plan: Callable[[S, R], Plan]
    resolve: Callable[[S, Plan, DiceSource], Any]
    check: Callable[[S, R], None] | None = field(default=None, compare=False)
    play: Callable[[S, R, DiceSource], Any] | None = field(default=None, compare=False)
    name: str = field(init=False)
    help: str = field(init=False)
    rule: str = field(init=False)
    query: bool = field(init=False)
    omit_none: bool = field(init=False, repr=False)

    def __post_init__(self) -> None:
        d = declared(self.request)
        for k in ("name", "help", "rule", "query", "omit_none"):
            object.__setattr__(self, k, getattr(d, k))

    @classmethod
    def nodice(
        cls,
        request: type[R],
        fn: Callable[[S, R], Any],
        check: Callable[[S, R], None] | None = None,
    ) -> Procedure[S, R]:
        """A procedure that rolls no dice: ``fn(state, request) -> Outcome`` checks the rules
        and works out the outcome in ``plan`` (refusing before anything is written);
        ``resolve`` hands it over. ``check``: ``fn``'s refusals alone (see the class)."""
        return cls(request, partial(_plan_nodice, fn), _resolve_nodice, check)

    @cached_property
    def spec(self) -> RequestSpec:
        s = spec_of(self.request)  # type: ignore[arg-type]
        return RequestSpec(self.name, s.fields, s._build)

    def parse(self, raw: Mapping[str, Any]) -> R:
        return self.spec.build(raw)  # type: ignore[no-any-return]

    @property
    def params(self) -> tuple[FieldSpec, ...]:
        return self.spec.fields

    def run(self, state: S, request: Mapping[str, Any], dice: DiceSource) -> Any:
        """Plan and resolve in one call (scripts and tests; the engine adds the flow)."""
        return self.resolve(state, self.plan(state, self.parse(request)), dice)

    def odds(self, state: S, request: Mapping[str, Any]) -> list[Odds]:
        """The odds of the chance steps the plan shows before the roll."""
        return self.plan(state, self.parse(request)).step_odds()

    def request_json(self, request: Any) -> dict[str, Any]:
        """The request as it is logged: every field given or defaulted (but those left None,
        where the request class says so)."""
        data = to_json(request)
        if not isinstance(data, Mapping):
            return {}
        if self.omit_none:
            return {k: v for k, v in data.items() if v is not None}
        return dict(data)


def _plan_nodice(fn: Callable[[Any, Any], Any], state: Any, req: Any) -> Plan:
    return Plan(req, data=fn(state, req))


def _resolve_nodice(state: Any, plan: Plan, dice: DiceSource) -> Any:
    return plan.data


def procedure_table(*procs: Procedure[Any, Any]) -> dict[str, Procedure[Any, Any]]:
    """A ruleset's procedures by name (``Ruleset.procedures``), each name once."""
    out: dict[str, Procedure[Any, Any]] = {}
    for p in procs:
        if p.name in out:
            raise ValueError(f"two procedures are named {p.name!r}")
        out[p.name] = p
    return out


# -- obligations and todo --------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Obligation:
    """A step the rules require before play goes on.

    ``procedure`` with ``request`` (pre-filled fields) discharges it. ``blocks`` names the
    procedures refused while it is owed; ``None`` means every procedure but the one that
    discharges it (and queries).
    """

    id: str
    procedure: str
    request: Mapping[str, Any]
    rule: str
    text: str
    blocks: tuple[str, ...] | None = None
    #: fields the player still chooses, with their choices (a decision: ``{"ok": (True,
    #: False)}``); the owed step is discharged by the request with any one of them
    open: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    #: open fields whose every choice ``plan`` accepts where their first is (as ``Todo.free``)
    free: frozenset[str] = frozenset()

    def command(self) -> str:
        return command_text(self.procedure, self.request)

    def matches(self, procedure: str, request: Mapping[str, Any]) -> bool:
        return procedure == self.procedure and all(
            _same(request.get(k), v) for k, v in self.request.items()
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "procedure": self.procedure,
            "request": to_json(self.request),
            "rule": self.rule,
            "text": self.text,
            "blocks": None if self.blocks is None else list(self.blocks),
            "command": self.command(),
            "open": {k: [to_json(c) for c in cs] for k, cs in self.open.items()},
        }


def _arg_text(v: Any) -> str:
    """A request value as a person types it after ``KEY=`` (read back by ``parse_value``):
    a list of plain words as ``a,b``, an empty one as ``none`` (as a player says it; a list
    field reads it back as empty); anything else JSON can say and text cannot, as JSON."""
    if isinstance(v, list | tuple):
        if not v:
            return "none"
        if all(isinstance(x, str) and x and "," not in x and x == x.strip() for x in v) and v:
            return ",".join(v)
        return json.dumps(to_json(list(v)), separators=(",", ":"))
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, Mapping):
        return json.dumps(to_json(v), separators=(",", ":"))
    if v is None:
        return "null"
    return str(v)


def command_text(procedure: str, request: Mapping[str, Any]) -> str:
    """``procedure KEY=VALUE ...`` as a shell runs it verbatim (values quoted where needed)."""
    args = " ".join(shlex.quote(f"{k}={_arg_text(v)}") for k, v in request.items())
    return f"{procedure} {args}".strip()


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return [str(x) for x in a] == [str(x) for x in b]
    return a == b or str(a) == str(b)


@dataclass(frozen=True, slots=True)
class Todo:
    """One line of 'what next': an owed step (``owed``) or an action open now.

    An entry is *complete* (``open`` empty: its request, run as shown, is accepted) or *open*:
    the state leaves a choice, and ``open`` names each missing field with the values ``plan``
    accepts for it (a target in range, a hex the move reaches, a distance). ``typed`` is the
    parsed request of a complete entry, as ``plan`` judged it. ``refused`` is set only on an
    owed step the rules cannot carry out as offered (a defect the conformance suite reports:
    the rules must lapse such a step instead)."""

    procedure: str
    request: Mapping[str, Any]
    text: str
    rule: str = ""
    owed: bool = False
    obligation: str | None = None
    open: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    typed: Any = field(default=None, compare=False)
    refused: str = ""
    #: open fields whose every choice ``plan`` accepts wherever their first is accepted (a
    #: stated fact read for a modifier only), the first what leaving the field out rules (the
    #: CLI prints them apart, optional): judged at their first choice, not in every
    #: combination with the others (four such yes-or-no facts are 16 times the work)
    free: frozenset[str] = field(default=frozenset(), compare=False)

    def command(self) -> str:
        return command_text(self.procedure, self.request)

    @property
    def complete(self) -> bool:
        return not self.open

    def choices_text(self, most: int = 8, free: bool | None = None) -> str:
        """The open fields and their choices, in words ('' when complete); each choice quoted
        as the shell needs it after ``KEY=`` (``terrain='open ground'``), as ``command`` does.
        Fields with the same choices are named together (``a_town=, b_town= each one of
        false, true``), in the order of their first. ``free``: only the free fields (True),
        only the others (False), or all (None)."""
        return "; ".join(self.choice_groups(most, free))

    def choice_groups(self, most: int = 8, free: bool | None = None) -> list[str]:
        """:meth:`choices_text`'s parts: each field, or fields with the same choices."""
        groups: dict[str, list[str]] = {}
        for k, cs in self.open.items():
            if free is not None and (k in self.free) != free:
                continue
            shown = ", ".join(shlex.quote(_arg_text(c)) for c in cs[:most])
            more = f", ... ({len(cs)} in all)" if len(cs) > most else ""
            groups.setdefault(shown + more, []).append(k)
        parts = []
        for shown, keys in groups.items():
            if len(keys) == 1:
                parts.append(f"{keys[0]}= one of {shown}")
            else:
                parts.append(f"{', '.join(k + '=' for k in keys)} each one of {shown}")
        return parts

    def to_json(self) -> dict[str, Any]:
        out = {
            "procedure": self.procedure,
            "request": to_json(self.request),
            "text": self.text,
            "rule": self.rule,
            "owed": self.owed,
            "obligation": self.obligation,
            "command": self.command(),
            "open": {k: [to_json(c) for c in cs] for k, cs in self.open.items()},
        }
        if self.refused:
            out["refused"] = self.refused
        return out


# -- the declared flow -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Phase:
    """One step of a ruleset's sequence of play: the procedures it allows (queries are never
    phase-bound), the rule that says so, and what ends it."""

    name: str
    allows: frozenset[str]
    rule: str
    ends: str = ""

    @classmethod
    def of(cls, name: str, allows: Sequence[str], rule: str, ends: str = "") -> Phase:
        return cls(name, frozenset(allows), rule, ends)


@dataclass(frozen=True)
class Flow:
    """A ruleset's sequence of play as data (boardgame.io's phases): the engine reads it to
    refuse an out-of-phase action, naming the rule, before ``plan`` is asked. ``always``:
    procedures open in every phase (corrections, waivers)."""

    phases: tuple[Phase, ...]
    always: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        names = [p.name for p in self.phases]
        if len(set(names)) != len(names):
            raise ValueError(f"a flow names a phase twice: {names}")

    def phase(self, name: str) -> Phase | None:
        for p in self.phases:
            if p.name == name:
                return p
        return None

    def procedures(self) -> frozenset[str]:
        out: set[str] = set(self.always)
        for p in self.phases:
            out |= p.allows
        return frozenset(out)

    def violation(self, phase: str | None, procedure: str) -> RuleViolation | None:
        """The refusal of ``procedure`` in ``phase``, or None if the flow allows it."""
        if phase is None or procedure in self.always:
            return None
        p = self.phase(phase)
        if p is None or procedure in p.allows:
            return None
        return RuleViolation(
            p.rule,
            f"{procedure} is not part of the {p.name}"
            + (f" (open now: {', '.join(sorted(p.allows | self.always))})" if p.allows else ""),
        )


@dataclass(frozen=True, slots=True)
class Verdict:
    """``Game.is_legal``'s answer (python-chess's ``is_legal``): whether the rules accept a
    request now and, if not, why, naming the rule. Never raised, always returned."""

    ok: bool
    reason: str = ""
    rule: str = ""

    def __bool__(self) -> bool:
        return self.ok

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "reason": self.reason, "rule": self.rule}


def verdict_of(fn: Callable[[], Any]) -> Verdict:
    """Run ``fn`` (a plan); the verdict it implies. Never raises: a refusal of any kind is a
    'no' with its one-line reason (an unexpected error is a 'no' that says so)."""
    try:
        fn()
    except VedetteError as e:
        return Verdict(False, str(e), str(getattr(e, "rule", "")))
    except Exception as e:  # a defect in a ruleset's plan: a 'no', not a crash
        return Verdict(False, f"internal error: {type(e).__name__}: {e}")
    return Verdict(True)


#: combinations of open choices tried together before each field is judged alone
OPEN_COMBINATIONS = 256


class MalformedOffer(VedetteError):
    """A ruleset offered an entry that cannot even be parsed (a required field neither given
    nor declared open): a defect of the ruleset's ``options``, raised in strict mode."""


def derive_todo(
    obligations: Sequence[Obligation],
    options: Sequence[Todo],
    judge: Callable[[str, Mapping[str, Any]], Any],
    strict: bool = False,
) -> list[Todo]:
    """``todo`` derived from ``plan`` (python-chess: pseudo-legal moves filtered by legality).

    ``judge(procedure, request)`` parses and plans (with the flow's and the obligations'
    checks) and raises on a refusal, returning the parsed request. Obligations come first,
    each as offered (an owed step ``plan`` refuses is marked ``refused``: a dead end); then each
    option ``plan`` accepts: a complete one as it is, an open one with only the choices
    ``plan`` accepts (dropped when none is left). One line a step: an option with the key
    (:func:`todo_key`) of an owed entry (as offered or as judged) or of an earlier option is
    dropped (the owed step is listed once, owed). ``strict``: an option that is not even a
    well-formed request (a required field neither given nor open) raises
    :class:`MalformedOffer` instead of being dropped, and an unexpected error (a defect, such
    as a module the judgement needs missing) propagates instead of silently dropping the offer
    or its choice (the conformance suite's mode)."""
    out: list[Todo] = []
    seen: set[str] = set()
    for t, owed in todo_entries(obligations, options):
        if owed:
            step = judged(t, judge, owed=True) or t
            seen.add(todo_key(t))  # an option repeating an owed step is not listed again
            seen.add(todo_key(step))
            out.append(step)
            continue
        j = judged(t, judge, owed=False, strict=strict)
        if j is None:
            continue
        key = todo_key(j)
        if key in seen:
            continue
        seen.add(key)
        out.append(j)
    return out


def todo_entries(
    obligations: Sequence[Obligation], options: Sequence[Todo]
) -> list[tuple[Todo, bool]]:
    """``todo``'s entries before ``plan`` judges them, each with whether it is owed: every
    obligation, then each option the declared flow allows while they stand."""
    out = [
        (Todo(o.procedure, o.request, o.text, o.rule, True, o.id, open=o.open, free=o.free), True)
        for o in obligations
    ]
    out += [
        (t, False) for t in options if flow_violation(obligations, t.procedure, t.request) is None
    ]
    return out


def todo_key(t: Todo) -> str:
    """Two entries with the same key are one ``todo`` line: an option with the key of an owed
    entry or of an earlier option is dropped."""
    return t.command() + "|" + repr(sorted(t.open.items()))


def judged(
    t: Todo, judge: Callable[[str, Mapping[str, Any]], Any], owed: bool, strict: bool = False
) -> Todo | None:
    """``t`` as ``plan`` judges it: complete and accepted (with its typed request), open with
    its accepted choices, or None (an owed step: marked refused)."""
    if not t.open:
        try:
            typed = judge(t.procedure, t.request)
        except BadRequest as e:
            if strict and not owed and "missing '" in str(e):
                raise MalformedOffer(
                    f"todo offers {t.command()!r}, which is not complete: {e}"
                ) from None
            return replace(t, refused=str(e)) if owed else None
        except VedetteError as e:
            return replace(t, refused=str(e)) if owed else None
        except Exception as e:
            if strict and not owed:
                raise  # a defect (a missing module, a bug): never a silently dropped offer
            why = f"internal error: {type(e).__name__}: {e}"
            return replace(t, refused=why) if owed else None
        return replace(t, typed=typed)
    fields = list(t.open)
    # a free field is judged at its first choice only, and keeps all of them (Todo.free)
    choices = [tuple(t.open[f])[: 1 if f in t.free else None] for f in fields]
    kept: list[list[Any]] = [[] for _ in fields]

    def ok(values: Sequence[Any]) -> bool:
        req = {**t.request, **dict(zip(fields, values, strict=True))}
        try:
            judge(t.procedure, req)
        except VedetteError:
            return False
        except Exception:
            if strict and not owed:
                raise  # (as above: strict mode shows a defect instead of hiding the choice)
            return False
        return True

    if math.prod(len(c) for c in choices) <= OPEN_COMBINATIONS:
        for combo in itertools.product(*choices):
            if ok(combo):
                for i, v in enumerate(combo):
                    if v not in kept[i]:
                        kept[i].append(v)
    else:  # each field judged with the others at their first accepted choice
        base = [c[0] if c else None for c in choices]
        for i, cs in enumerate(choices):
            for v in cs:
                trial = list(base)
                trial[i] = v
                if ok(trial):
                    kept[i].append(v)
                    if not kept[i][1:]:
                        base[i] = v
    if any(not k for k in kept):
        if owed:
            return replace(t, refused="no choice of " + ", ".join(fields) + " is accepted")
        return None
    opened = {
        f: tuple(t.open[f]) if f in t.free else tuple(k) for f, k in zip(fields, kept, strict=True)
    }
    return replace(t, open=opened)


#: parsed requests and their logged form, by procedure object and request (each value with its
#: type: 1, 1.0 and True are equal keys otherwise). Parsing is a pure function of the request,
#: and ``todo``, the simulator and the conformance runs judge the same requests step after step.
#: Cleared when large.
_PARSED: dict[tuple[Any, ...], tuple[Any, Any, dict[str, Any]]] = {}


def parsed_request(proc: Any, raw: Mapping[str, Any]) -> tuple[Any, dict[str, Any]]:
    """``proc.parse(raw)`` and ``proc.request_json`` of it, remembered for requests of plain
    values and lists of them (a refusal is not remembered: it raises again; a table in the
    request, or a list of lists, is not a key, and is parsed each time). The logged form is the
    caller's own copy."""
    req, logged = parsed_shared(proc, raw)
    return req, dict(logged)


def parsed_shared(proc: Any, raw: Mapping[str, Any]) -> tuple[Any, Mapping[str, Any]]:
    """:func:`parsed_request` without the copy: the logged form is the one remembered, to read
    and never to change (the referee's checks, the simulator's step)."""
    try:
        # the pairs, then each value's type (1, 1.0 and True are equal, and hash alike)
        key: tuple[Any, ...] | None = (id(proc), tuple(raw.items()), tuple(map(type, raw.values())))
        hit = _PARSED.get(key)  # type: ignore[arg-type]
    except TypeError:  # a list in the request (a path of hexes): its items and their types
        try:
            key = _listed_key(proc, raw)
            hit = _PARSED.get(key)
        except TypeError:
            key, hit = None, None
    if hit is not None and hit[0] is proc:
        return hit[1], hit[2]
    req = proc.parse(raw)
    logged = proc.request_json(req)
    if key is not None:
        if len(_PARSED) > 50_000:
            _PARSED.clear()
        _PARSED[key] = (proc, req, dict(logged))
        return req, _PARSED[key][2]
    return req, logged


def _listed_key(proc: Any, raw: Mapping[str, Any]) -> tuple[Any, ...]:
    """The memo's key of a request whose values include lists of plain values: each list as
    the tuple of its items, with their types (a TypeError for a list of lists or tables)."""
    pairs = tuple((k, tuple(v) if type(v) is list else v) for k, v in raw.items())
    inner = tuple(tuple(map(type, v)) for v in raw.values() if type(v) is list)
    key = (id(proc), pairs, tuple(map(type, raw.values())), inner)
    hash(key)
    return key


def flow_violation(
    owed: Sequence[Obligation], procedure: str, request: Mapping[str, Any]
) -> Obligation | None:
    """The obligation that forbids ``procedure`` now, if any."""
    if procedure == "waive" or any(o.matches(procedure, request) for o in owed):
        return None
    for o in owed:
        if o.blocks is None or procedure in o.blocks:
            return o
    return None


# -- events ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Event:
    """An untyped change to the game (a kind no typed event class claims). ``data`` must be
    JSON-serialisable."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": dict(self.data)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Event:
        return cls(str(d["kind"]), dict(d.get("data", {})))


class DomainEvent:
    """Base of typed events: frozen dataclasses with a ``kind`` and a ``version``.

    ``upgrade(version, data)`` turns the payload of an older version into this one's shape;
    the core calls it when it reads an old log.
    """

    kind: ClassVar[str] = ""
    version: ClassVar[int] = 1

    @classmethod
    def upgrade(cls, version: int, data: dict[str, Any]) -> dict[str, Any]:
        """The payload of ``version`` in this version's shape, by the upgrade ladder: each
        step ``upgrade_vN`` (a classmethod turning version N's payload into version N+1's)
        in turn; a version whose payload kept its shape has no step."""
        for n in range(version, cls.version):
            step = getattr(cls, f"upgrade_v{n}", None)
            if step is not None:
                data = step(data)
        return data

    @classmethod
    def decode(cls, data: dict[str, Any]) -> DomainEvent:
        """The event from its current-version payload, every field checked (a kind may
        override this with a faster decoder that checks as much)."""
        return spec_of(cls).build(data, f"{cls.kind}.")  # type: ignore[arg-type, no-any-return]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "v": self.version, "data": to_json(self)}


E = TypeVar("E", bound=DomainEvent)


def event_kind(base: type[E], kind: str, doc: str = "", **classvars: Any) -> type[E]:
    """A kind of event that only names what happened: a subclass of ``base`` (which holds the
    fields, the version, the upgrade ladder and the fold) with its own ``kind``, its
    docstring and any other class variable ``base`` declares (``touches``, ``entity``)."""
    ns: dict[str, Any] = {"kind": kind, "__slots__": (), "__doc__": doc or base.__doc__}
    ns["__module__"] = base.__module__  # the ruleset's events module, not this one
    ns.update(classvars)
    name = "".join(w.capitalize() for w in kind.split("_"))
    return type(name, (base,), ns)


@dataclass(frozen=True, slots=True)
class Waived(DomainEvent):
    """The player waived an owed step (Herman: the rules 'are easily circumvented if
    desired'); the log shows it."""

    kind: ClassVar[str] = "waived"
    obligation: str
    reason: str = ""


@procedure("waive", rule="vedette referee")
@dataclass(frozen=True, slots=True)
class WaiveRequest:
    """waive an owed step (logged)

    The step is dropped, and the log says so."""

    obligation: str = arg("the owed step's id (see 'todo')", positional=True)
    reason: str = arg("why (kept in the log)", default="")


def decode_event(
    registry: Mapping[str, type[DomainEvent]], d: Mapping[str, Any], stored: bool = False
) -> Any:
    """A logged event as its typed value (upgraded from an older version), or the legacy
    untyped :class:`Event` for a kind no typed class claims. ``stored``:
    the event comes from the game's own store (written by this program, or imported after a
    checked replay), decoded without the input limits (see ``fields.trusted``)."""
    kind = d.get("kind", "")
    if type(kind) is not str:
        kind = str(kind)
    cls = registry.get(kind) or (Waived if kind == "waived" else None)
    if cls is None:
        return Event(kind, dict(d.get("data", {}) or {}))
    data = d.get("data") or {}
    v = d.get("v", 1)
    if type(v) is not int:
        try:
            v = ascii_int(v) if isinstance(v, str) else int(v)  # (not "３" nor "1_0")
        except (TypeError, ValueError):
            raise VedetteError(f"event {kind!r}: its version {v!r} is not a number") from None
    if v > cls.version:
        raise VedetteError(
            f"event {kind!r} is version {v}, newer than this release reads ({cls.version})"
        )
    if v < cls.version:
        data = _upgraded(cls, kind, v, data)
    if stored:
        return stored_decoder(cls)(data)
    return cls.decode(data)  # the kind's own decoder, or every field checked


def _upgraded(cls: type[DomainEvent], kind: str, v: int, data: Any) -> dict[str, Any]:
    """An old version's payload in the current shape; one line naming what it lacks if the
    kind's ``upgrade`` cannot read it (a damaged or hand-made log), never a traceback."""
    if not isinstance(data, Mapping):
        raise VedetteError(f"event {kind!r} version {v}: its data is not an object")
    try:
        return cls.upgrade(v, dict(data))
    except KeyError as e:
        problem = f"missing {e.args[0]!r}" if e.args else "a field is missing"
    except (TypeError, ValueError, AttributeError, IndexError) as e:
        problem = f"a field has the wrong shape ({type(e).__name__})"
    raise VedetteError(f"event {kind!r} version {v} cannot be read: {problem}")


_STORED: dict[type[DomainEvent], Callable[[dict[str, Any]], Any]] = {}


def stored_decoder(cls: type[DomainEvent]) -> Callable[[dict[str, Any]], Any]:
    """How a stored event of class ``cls`` (its current version's payload) is decoded: the
    kind's own decoder, or the trusted build of its fields (kept per class)."""
    decode = _STORED.get(cls)
    if decode is not None:
        return decode
    decode = cls.decode
    if cls.decode.__func__ is DomainEvent.decode.__func__:  # type: ignore[attr-defined]
        build = spec_of(cls).trusted_decoder()  # type: ignore[arg-type]
        decode = partial(build, prefix=f"{cls.kind}.")  # type: ignore[call-arg]
    _STORED[cls] = decode
    return decode


# -- the chance algebra ----------------------------------------------------------------------
class _Branch(Exception):
    def __init__(self, n: int) -> None:
        self.n = n


class _Rejected(Exception):
    pass


class _TooLarge(Exception):
    pass


#: dice drawn along one branch before the tree is called too large to enumerate
MAX_DEPTH = 64


class EnumeratingSource:
    """A dice source that follows a given path of branch choices and raises at the first
    die (or whole-check branch, ``branch``) beyond it, so the caller can explore every branch
    (by re-execution)."""

    kind = "enumerated"
    cacheable = True  # a sequence may replay a step it has seen (sequence.StepCache)

    def __init__(self, path: Sequence[int]) -> None:
        self.path = path
        self.i = 0
        self.weight = Fraction(1)
        self.attempts: list[int] = []  # depth at which each attempt began
        self.probs: list[Fraction] = []  # probability of each step taken, in order

    def face(self, die: Die) -> int:
        if self.i >= MAX_DEPTH:
            raise _TooLarge()
        if self.i < len(self.path):
            k = self.path[self.i]
            self.i += 1
            p = Fraction(1, die.sides)
            self.weight *= p
            self.probs.append(p)
            return die.faces[k]
        raise _Branch(die.sides)

    def branch(self, weights: Sequence[Fraction]) -> int:
        """One outcome of a whole check (``dice.sources.branch``): outcome k with weight k."""
        if self.i >= MAX_DEPTH:
            raise _TooLarge()
        if self.i < len(self.path):
            k = self.path[self.i]
            self.i += 1
            self.weight *= weights[k]
            self.probs.append(Fraction(weights[k]))
            return k
        raise _Branch(len(weights))

    def begin_attempt(self) -> None:
        self.attempts.append(self.i)

    def reject_attempt(self) -> None:
        raise _Rejected()


@dataclass(frozen=True, slots=True)
class Chance:
    """One outcome of a whole procedure with its probability."""

    result: str
    p: Fraction
    low: float | None = None  # sampled: a 95% interval
    high: float | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "result": self.result,
            "p": f"{self.p.numerator}/{self.p.denominator}",
            "percent": round(float(self.p) * 100, 2),
        }
        if self.low is not None:
            out["interval95"] = [round(self.low * 100, 2), round(float(self.high or 0) * 100, 2)]
        return out


@dataclass(frozen=True, slots=True)
class Chances:
    """The distribution of a procedure's outcomes: exact (enumerated) or sampled."""

    rows: tuple[Chance, ...]
    exact: bool
    leaves: int
    note: str = ""

    def p(self, result: str) -> Fraction:
        return sum((c.p for c in self.rows if c.result == result), Fraction(0))

    def lines(self) -> list[str]:
        head = (
            f"all outcomes (exact, {self.leaves} dice branches)"
            if self.exact
            else f"all outcomes (sampled, {self.leaves} runs; {self.note})"
        )
        out = [head]
        for c in self.rows:
            ci = (
                f"  [95%: {c.low * 100:.1f}-{(c.high or 0) * 100:.1f}%]"
                if c.low is not None
                else ""
            )
            out.append(f"  {float(c.p) * 100:6.2f}%  {c.p!s:>9}  {c.result}{ci}")
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "chances",
            "exact": self.exact,
            "leaves": self.leaves,
            "note": self.note,
            "rows": [c.to_json() for c in self.rows],
        }


def result_of(outcome: Any) -> str:
    """The short name of an outcome, for the odds of a whole procedure."""
    if getattr(outcome, "result", ""):
        return str(outcome.result)
    cons = [str(r.consequence) for r in getattr(outcome, "rolls", ()) if r.consequence]
    if cons:
        return "; ".join(cons)
    return str(getattr(outcome, "message", "")) or "done"


#: leaves enumerated before the size of the whole tree is estimated (a smaller tree never is)
PROBE_AFTER = 200
#: random descents of the tree that estimate its size (at most: see ``estimate_leaves``)
PROBES = 200
#: runs when a tree is sampled: every 95% interval (Wilson) is then within 1 percentage point
#: (the widest, at 50%, is 1.96 * sqrt(0.25 / 10000) = 0.98 points)
SAMPLES = 10_000
#: a sample stops before ``SAMPLES`` runs once every 95% interval is within this (checked
#: after each ``BATCH`` runs): a distribution with no result near 50% needs fewer runs for the
#: same promise (issue 29: sequence odds in seconds)
WITHIN = 0.01
BATCH = 1_000


#: the running sums of the weights of a whole check, as floats, kept with the weights
_CUMULATIVE: dict[int, tuple[Sequence[Fraction], list[float]]] = {}


class SampleSource:
    """A seeded walk down the same tree the enumeration explores, with the same weights: a
    whole check (``branch``) is one draw of its exact distribution, a die one uniform face.
    Under it a procedure takes the same steps (and ``outcome_of`` the same branches) as under
    the enumeration, so a sampled answer estimates exactly what the exact one would be.
    A roll made again on some results is made again (the hooks of attempts are absent).
    ``uniform``: every branch equally likely instead, and ``size`` the product of the
    branching factors met (Knuth's estimator of a tree's leaves)."""

    kind = "sampled"
    cacheable = True

    def __init__(self, rng: Random, uniform: bool = False) -> None:
        self.rng = rng
        self.uniform = uniform
        self.size = 1
        self.depth = 0

    def face(self, die: Die) -> int:
        self._deeper(die.sides)
        return die.faces[self.rng.randrange(die.sides)]

    def branch(self, weights: Sequence[Fraction]) -> int:
        n = len(weights)
        self.depth += 1  # (``_deeper``, inline: the sampler's innermost call)
        self.size *= n
        if self.depth > MAX_DEPTH * 4:
            raise _TooLarge()
        if self.uniform:
            return int(self.rng.randrange(n))
        got = _CUMULATIVE.get(id(weights))
        if got is None or got[0] is not weights:
            if len(_CUMULATIVE) > 4096:
                _CUMULATIVE.clear()
            got = _CUMULATIVE[id(weights)] = (
                weights,
                list(itertools.accumulate(map(float, weights))),
            )
        k = bisect.bisect_right(got[1], self.rng.random())
        return k if k < n else n - 1

    def _deeper(self, n: int) -> None:
        self.depth += 1
        self.size *= n
        if self.depth > MAX_DEPTH * 4:
            raise _TooLarge()


def estimate_leaves(
    run: Callable[[DiceSource], Any],
    probes: int = PROBES,
    seed: int = 1,
    near: float = 0.0,
) -> float:
    """The number of dice branches of ``run``'s tree, estimated from up to ``probes`` uniform
    random descents (Knuth 1975: the mean of the products of the branching factors met is
    unbiased, if spread). ``near``: stop early, after a batch of 25, once the estimate is ten
    times below or above it (the question is only which side of ``near`` the tree is). A tree
    deeper than the enumeration goes is infinite."""
    import random  # (not at start-up: only the odds need it)

    rng = random.Random(seed)
    total = 0.0
    for i in range(1, probes + 1):
        src = SampleSource(rng, uniform=True)
        try:
            run(src)
        except _TooLarge:
            return math.inf
        if src.depth > MAX_DEPTH:
            return math.inf
        total += src.size
        if near and i % 25 == 0 and not near / 10 <= total / i <= near * 10:
            break
    return total / i


def chances(
    run: Callable[[DiceSource], Any],
    limit: int = 20_000,
    samples: int = SAMPLES,
    seed: int = 20261123,
    within: float | None = WITHIN,
) -> Chances:
    """The exact distribution of ``result_of(run(dice))`` over every die ``run`` draws.

    Depth-first by re-execution: each run follows a path of face indices and stops at the
    first die past it. An attempt rejected (a draw rerolled) is conditioned away at the point
    it began. A tree of more than ``limit`` branches is sampled instead: ``samples`` seeded
    runs (:class:`SampleSource`), with Wilson 95% intervals, and ``exact=False``; fewer once
    every interval is within ``within`` (checked every ``BATCH`` runs; None: all of them, the
    first runs the same either way). Whether it
    is that large is estimated (:func:`estimate_leaves`) once ``PROBE_AFTER`` leaves are seen,
    so a large tree is sampled at once rather than after ``limit`` branches.
    """
    totals: dict[str, Fraction] = {}
    # rejected weight under each attempt node, relative to that node
    rejected: dict[tuple[int, ...], Fraction] = {}
    leaves: list[tuple[str, Fraction, tuple[tuple[int, ...], ...], tuple[int, ...]]] = []
    stack: list[tuple[int, ...]] = [()]
    seen = 0
    probe_at = min(PROBE_AFTER, limit)
    while stack:
        if seen >= probe_at:
            probe_at = limit + 1
            size = estimate_leaves(run, near=limit)
            if size > limit:
                about = "an endless number" if math.isinf(size) else f"about {size:,.0f}"
                why = f"{about} dice branches (estimated), more than {limit}: too many to enumerate"
                return _sampled(run, samples, seed, limit, why, within)
        path = stack.pop()
        src = EnumeratingSource(path)
        try:
            outcome = run(src)
        except _Branch as b:
            stack.extend((*path, k) for k in range(b.n - 1, -1, -1))
            continue
        except _TooLarge:
            return _sampled(run, samples, seed, limit, within=within)
        except _Rejected:
            start = src.attempts[-1]
            node = path[:start]
            rel = src.weight / math.prod(src.probs[:start])
            rejected[node] = rejected.get(node, Fraction(0)) + rel
            seen += 1
            if seen > limit:
                return _sampled(run, samples, seed, limit, within=within)
            continue
        seen += 1
        if seen > limit:
            return _sampled(run, samples, seed, limit, within=within)
        nodes = tuple(path[:a] for a in src.attempts)
        leaves.append((result_of(outcome), src.weight, nodes, path))
    for result, w, nodes, _ in leaves:
        for node in nodes:
            w /= 1 - rejected.get(node, Fraction(0))
        totals[result] = totals.get(result, Fraction(0)) + w
    rows = tuple(Chance(k, v) for k, v in sorted(totals.items(), key=lambda kv: -kv[1]))
    return Chances(rows, True, seen)


def _sampled(
    run: Callable[[DiceSource], Any],
    samples: int,
    seed: int,
    limit: int,
    why: str = "",
    within: float | None = None,
) -> Chances:

    rng = random.Random(seed)
    counts: dict[str, int] = {}
    done = 0
    while done < samples:
        batch = min(BATCH, samples - done)
        for _ in range(batch):
            try:
                outcome = run(SampleSource(rng))
            except (VedetteError, DiceError):
                raise
            k = result_of(outcome)
            counts[k] = counts.get(k, 0) + 1
        done += batch
        if within is not None and done < samples and _narrow(counts, done, within):
            break  # every interval within the promise already
    rows = []
    for k, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        lo, hi = _wilson(n, done)
        rows.append(Chance(k, Fraction(n, done), lo, hi))
    why = why or f"more than {limit} dice branches: too many to enumerate"
    return Chances(tuple(rows), False, done, why)


def _narrow(counts: Mapping[str, int], n: int, within: float) -> bool:
    """Every result's 95% interval after ``n`` runs is within ``within`` of its middle (a
    result not seen yet has a narrower one than any seen)."""
    for k in counts.values():
        lo, hi = _wilson(k, n)
        if hi - lo > 2 * within:
            return False
    return True


def _wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def iter_todo(obligations: Sequence[Obligation], options: Sequence[Todo]) -> Iterator[Todo]:
    for o in obligations:
        yield Todo(o.procedure, o.request, o.text, o.rule, True, o.id, open=o.open, free=o.free)
    if not obligations:  # nothing owed: nothing blocked
        yield from options
        return
    # an action an obligation blocks is not open now
    yield from (t for t in options if flow_violation(obligations, t.procedure, t.request) is None)
