"""The contract between a ruleset and the engine.

A ruleset is a plug-in: it folds events into its state and offers procedures (declared once:
see :func:`vedette.rules.protocol.procedure`) that plan and then resolve into an
:class:`Outcome`. A procedure never touches the database or the RNG; it takes dice from the
injected source and returns the rolls it made, the events that change the game and a human
sentence. Queries return an Outcome with no events and are not logged. Ruleset authors import
all of this from :mod:`vedette.referee`.
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from vedette.data import load_toml_text, merge, package_toml
from vedette.dice.roll import AnyRoll, Roll
from vedette.dice.tables import Table, tables_from_data
from vedette.engine.snapshot import restore_state, snapshot_state
from vedette.errors import BadRequest, RuleViolation
from vedette.rules.fields import json_value, to_json, unquote
from vedette.rules.patch import (
    Entities,
    Patch,
    Patches,
    fold_patch,
    fold_patches,
    previous,
    previous_all,
)
from vedette.rules.protocol import (
    Todo,
    Waived,
    decode_event,
    derive_todo,
    flow_violation,
    judged,
    parsed_shared,
    stored_decoder,
    verdict_of,
)
from vedette.rules.simulation import SimPlay

if TYPE_CHECKING:
    from pydantic import BaseModel

    from vedette.dice.check import Odds  # start-up time: the odds module loads when used
    from vedette.rules.editor import Editor
    from vedette.rules.protocol import Event, GameOutcome, Procedure

S = TypeVar("S")

#: ``Ruleset.judge``'s phase when the caller gives none (None is a phase: no declared one)
_NOT_GIVEN: Any = object()

#: initial states kept per ruleset (``Ruleset.initial``) before they are forgotten
INITIAL_KEPT = 64
#: whether a state type is a frozen dataclass (``Ruleset.todo`` keeps its answer only then)
_FROZEN: dict[type, bool] = {}


def _immutable(t: type) -> bool:
    frozen = _FROZEN.get(t)
    if frozen is None:
        params = getattr(t, "__dataclass_params__", None)
        frozen = _FROZEN[t] = bool(params is not None and params.frozen)
    return frozen


_WAIVED: list[type[Waived]] = []  # protocol.Waived, imported by the first fold


def _waived() -> type[Waived]:
    """The referee's own ``Waived`` event class, imported on first use as before, but once: an
    import statement on every fold of a long log cost about a microsecond per event."""
    if not _WAIVED:
        _WAIVED.append(Waived)
    return _WAIVED[0]


#: how many plain rolls of one kind in a row print as one line (Outcome.lines)
FOLD_RUN = 4


@dataclass(frozen=True)
class Outcome:
    """What a procedure did: the rolls (each explains itself), the events, a sentence, and
    structured details (chosen units, changes the player must make on the table)."""

    events: tuple[Any, ...] = ()  # protocol.DomainEvent (or an untyped protocol.Event)
    rolls: tuple[AnyRoll, ...] = ()
    message: str = ""
    details: Any = field(default_factory=dict)  # a typed dataclass, or a mapping (legacy)
    odds: tuple[Odds, ...] = ()
    result: str = ""  # the outcome's short name, for the odds of the whole procedure
    #: the message as earlier releases worded it (never logged): a saved game of theirs whose
    #: record has those words re-referees equal (engine/referee.py)
    earlier: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        """One line per roll, then the message. A run of four or more plain rolls of one kind
        (the same label before its first ':', no modifiers, no consequence: a shuffle's swaps)
        is one line listing their dice; the JSON keeps every roll whole."""
        out: list[str] = []
        run: list[Any] = []

        def flush() -> None:
            if len(run) >= FOLD_RUN:
                kind = run[0].label.split(": ", 1)[0]
                dice = ", ".join(r.dice_text() for r in run)
                out.append(f"{kind} ({len(run)} rolls): {dice}")
            else:
                out.extend(r.line() for r in run)
            run.clear()

        for r in self.rolls:
            plain = isinstance(r, Roll) and ": " in r.label and not (r.modifiers or r.consequence)
            if run and not (plain and r.label.split(": ", 1)[0] == run[0].label.split(": ", 1)[0]):
                flush()
            if plain:
                run.append(r)
            else:
                out.append(r.line())
        flush()
        if self.message:
            out.append(self.message)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "message": self.message,
            "rolls": [r.to_json() for r in self.rolls],
            "events": [e.to_json() for e in self.events],
            "details": _jsonable(self.details),
            "odds": [o.to_json() for o in self.odds],
            "result": self.result,
        }


def _is_package(module: str) -> bool:
    return hasattr(sys.modules.get(module), "__path__")


def load_sequences(module: str) -> dict[str, Procedure[Any, Any]]:
    """``SEQUENCES`` of ``module`` (a ruleset package's ``sequences``) if the module exists,
    else none."""
    try:
        if find_spec(module) is None:
            return {}
    except ModuleNotFoundError:
        return {}
    return dict(getattr(import_module(module), "SEQUENCES", {}))


def parse_value(text: str) -> Any:
    """A request value typed by a person (CLI ``KEY=VALUE``, a web form, ``--option``): JSON
    when it parses as JSON (numbers, true/false, lists, objects, double-quoted strings), else
    the text itself. One pair of single quotes around the whole value is quoting, as in a
    shell (``unit='A1'`` passed on quoted, or typed in a form): taken off, then the rest read
    the same way. A number no float holds (``1e400``), ``NaN`` and ``Infinity`` stay text
    (``fields.json_value``), for the field to refuse in its own words."""
    text = unquote(text)
    try:
        return json_value(text)
    except (json.JSONDecodeError, ValueError, RecursionError):
        # double quotes JSON does not read (a backslash: "C:\maps"): quoting all the same
        return unquote(text, '"')


def _jsonable(x: Any) -> Any:
    return json.loads(json.dumps(to_json(x), default=str))


class LazyModel:
    """A ruleset's pydantic model named by ``"module:Name"``, imported when first read
    (start-up time: pydantic and the schemas cost more than a CLI step's own work)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self.model: type[BaseModel] | None = None

    def __get__(self, obj: object, owner: type | None = None) -> type[BaseModel] | None:
        if self.model is None and self.path is not None:
            module, _, name = self.path.partition(":")
            self.model = getattr(import_module(module), name)
        return self.model


class Ruleset(Generic[S]):
    """Base class for a ruleset plug-in. Subclasses set the class attributes and implement
    ``initial_state`` and ``apply``; procedures are registered in ``procedures``."""

    name: str = ""
    aliases: tuple[str, ...] = ()
    title: str = ""
    data_package: str = ""  # package holding data/*.toml, e.g. "vedette.rules.napoleon_at_bay.data"
    data_files: tuple[str, ...] = ()  # merged in order, then the game's house rules
    scenarios: Mapping[str, str] = {}  # bundled scenario name -> file name in data_package
    procedures: Mapping[str, Procedure[S, Any]] = {}  # protocol.procedure_table(...)
    #: typed events this ruleset folds (protocol.DomainEvent subclasses) and their folds
    events: tuple[type[Any], ...] = ()
    folds: Mapping[type[Any], Callable[[S, Any], S]] = {}
    #: how the state holds each kind of entity its patch events change (patch.Entities)
    entities: Mapping[str, Entities[S]] = {}

    # -- the referee protocol ------------------------------------------------------------
    def protocol_procedures(self) -> dict[str, Any]:
        """Every procedure of the ruleset by name (a copy of ``procedures``)."""
        return dict(self.procedures)

    def sequences(self) -> dict[str, Any]:
        """The ruleset's sequences (protocol.Procedure queries whose resolve plays several of
        its procedures on a private copy of the state; see :mod:`vedette.rules.sequence`):
        by default ``SEQUENCES`` of the package's optional ``sequences`` module, imported on
        first use."""
        memo = self.__dict__.get("_sequences_memo")
        if memo is None:
            mod = type(self).__module__
            pkg = mod if _is_package(mod) else (mod.rpartition(".")[0] or mod)
            memo = load_sequences(f"{pkg}.sequences")
            self.__dict__["_sequences_memo"] = memo
        return dict(memo)

    def event_registry(self) -> dict[str, type[Any]]:
        return {e.kind: e for e in self.events}

    def decode(self, d: Mapping[str, Any]) -> Any:
        """A logged event as a value (typed where the ruleset registered its kind)."""
        reg = self.__dict__.get("_event_reg")
        if reg is None:
            reg = self.__dict__["_event_reg"] = self.event_registry()
            self.__dict__["_decode_event"] = decode_event
        return self.__dict__["_decode_event"](reg, d)

    def decode_stored(self, d: Mapping[str, Any]) -> Any:
        """:meth:`decode` for an event of the game's own store (see ``decode_event``): an
        event of a kind's current version straight to its kept decoder (the replay of a long
        log decodes every event here), any other through ``decode_event``."""
        current = self.__dict__.get("_stored_current")
        if current is None:
            self.decode({"kind": ""})
            current = self.__dict__["_stored_current"] = {
                kind: (cls.version, stored_decoder(cls))
                for kind, cls in {"waived": Waived, **self.__dict__["_event_reg"]}.items()
            }
        kind = d.get("kind")
        hit = current.get(kind) if type(kind) is str else None
        if hit is not None and d.get("v", 1) == hit[0]:
            return hit[1](d.get("data") or {})
        return self.__dict__["_decode_event"](self.__dict__["_event_reg"], d, True)

    def fold(self, state: S, event: Any) -> S:
        """The one fold dispatcher: the referee's own events, typed events by their
        registered fold, legacy events through ``apply``."""
        f = self.folds.get(type(event))
        if f is not None:
            return f(state, event)
        if isinstance(event, Patch):
            return fold_patch(state, event, self.entities)
        if isinstance(event, Patches):
            return fold_patches(state, event, self.entities)
        if isinstance(event, _waived()):
            return self.waive(state, event.obligation)
        return self.apply(state, event)

    def folded(self, state: S, events: Sequence[Any]) -> S:
        """The state ``events`` leave, folded in turn from ``state`` (an outcome's events,
        performed on the state its procedure was given: the simulator asks). A ruleset whose
        procedures build that very state as they record the events may hand it over instead of
        folding them again (Kuryakin: ``common.built``)."""
        for e in events:
            state = self.fold(state, e)
        return state

    def recorded(self, state: S, event: Any) -> Any:
        """The event as it is logged when performed on ``state``: a patch with the values
        its fields had (``was``), any other as it is."""
        if isinstance(event, Patch) and event.was is None:
            return previous(state, event, self.entities)
        if isinstance(event, Patches):
            return previous_all(state, event, self.entities)
        return event

    def obligations(self, state: S) -> tuple[Any, ...]:
        """What the rules require now (protocol.Obligation), from the state."""
        return tuple(getattr(state, "owed", ()))

    def waive(self, state: S, obligation: str) -> S:
        """Drop an owed step the player waived (a logged event)."""
        import dataclasses

        owed = self.obligations(state)
        if not any(o.id == obligation for o in owed):
            raise BadRequest(
                f"nothing owed is called {obligation!r}"
                + (f" (owed: {', '.join(o.id for o in owed)})" if owed else " (nothing is owed)")
            )
        return dataclasses.replace(  # type: ignore[type-var]
            state,
            owed=tuple(o for o in owed if o.id != obligation),
        )

    def options(self, state: S) -> list[Any]:
        """The actions open now (protocol.Todo), requests pre-filled where the state knows
        them. Default: every procedure that needs no argument."""

        out = []
        for name, p in self.protocol_procedures().items():
            if not p.query and not any(f.required for f in p.spec.fields):
                out.append(Todo(name, {}, p.help, p.rule))
        return out

    def game_over(self, state: S) -> bool:
        """Whether the battle has ended by the rules (no action is owed or open after it)."""
        return False

    # -- the end of a battle and its result (simulation, reports) -------------------------
    #: how a battle of this ruleset ends, in words (a study reports it)
    end_condition: ClassVar[str] = (
        "none: every game runs to --max-actions and is reported as unfinished"
    )

    def sides(self, state: S) -> list[str]:
        """The sides' ids, in the scenario's order ([]: no sides the simulator knows)."""
        return []

    def turn(self, state: S) -> int:
        """The turn the game is in (0 before the first)."""
        t = getattr(state, "turn", 0)
        return t if isinstance(t, int) else 0

    def losses(self, state: S) -> dict[str, int]:
        """Each side's losses so far (units routed or destroyed, as the ruleset counts them)."""
        return {}

    def outcome(self, state: S) -> GameOutcome | None:
        """The game's end and result, or None while it goes on (OpenSpiel's ``is_terminal`` and
        ``returns``). Default: no end is declared (a ruleset that has one says so)."""
        return None

    def standing(self, state: S) -> dict[str, Any] | None:
        """How the battle stands by the end a study plays to (:meth:`outcome`) where that end
        is no rule of the text, so a played game is shown it, not ended by it (``show``,
        ``todo``): JSON data with its words in ``text``; None: nothing to show."""
        return None

    def simulation(self) -> SimPlay:
        """How ``vedette simulate`` plays this ruleset: its policies, whose move it is, what
        may be done (default: the random policy over ``legal_requests``)."""
        return SimPlay()

    # -- what the web app, the CLI and the reports ask of a ruleset (issue 28: nothing about
    #    a ruleset lives outside its package) ----------------------------------------------
    #: what a drag on the board performs: ``{"procedure": ..., "kind": "hex" | "point" |
    #: "relative"}`` (how the page builds the request); None: pieces are not moved by hand
    hand_move: ClassVar[Mapping[str, str] | None] = None
    #: the procedures that end the current phase or step and move play on (the web keeps
    #: their Next entry in view beside Roll, however long the list); (): none is named
    phase_end: ClassVar[tuple[str, ...]] = ()
    #: the request fields that name the board piece a ``todo`` entry is about (a unit, a
    #: general, a force; a list field names each of its pieces): a tap on that piece lists
    #: its entries at the top of the web's Next list, as ``todo`` gives them; (): none
    pick_fields: ClassVar[tuple[str, ...]] = ()
    #: what :meth:`strength` counts (the after-action report's unit of loss)
    strength_unit: ClassVar[str] = ""
    #: texts the referee words otherwise than an earlier release did: (now, then) pairs. A
    #: saved game of that release, re-refereed on import, says the same with ``then`` where
    #: the referee says ``now`` (in a message or a roll's line: engine/referee.py)
    reworded: ClassVar[tuple[tuple[str, str], ...]] = ()
    #: kinds of event a later release added to some actions, changing nothing an earlier one
    #: showed (2 by 2's ``facts_held``): a saved action that has none of them, re-refereed on
    #: import, is compared without the referee's (engine/referee.py)
    added_events: ClassVar[frozenset[str]] = frozenset()
    #: rules an earlier release played by that today's referee plays with an option:
    #: (release, options, what the options keep). A saved game that today's rules refuse on
    #: import, and that those options (none of which it sets) re-referee equal, is imported
    #: with them recorded in its created record and said (engine/session.py)
    earlier_readings: ClassVar[tuple[tuple[str, Mapping[str, Any], str], ...]] = ()
    #: the options a game played with the player's own dice (``--physical-dice``) takes
    #: unless the player gives them (stored in the game like any option given): the dice a
    #: player has at the table rather than the odd dice some cases would need
    physical_dice_options: ClassVar[Mapping[str, Any]] = {}

    def earlier_roll(self, roll: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """``roll`` (a roll's JSON as the referee logs it) as an earlier release logged the same
        dice, where it explained them otherwise (a modifier it applied unlisted); None: no
        other. A saved game of that release, re-refereed on import, says the same with that
        roll (engine/referee.py)."""
        return None

    def counter_actions(self, state: S) -> Mapping[str, Sequence[Any]]:
        """The player's own reports on a counter, not offered by ``todo`` (a report, not a
        choice: ASL's loss of concealment, a potential dummy stack's status dropped) but kept
        short by being reached from the counter itself: the board pick id of a counter -> its
        entries (protocol.Todo), as ``todo``'s are. {}: none (default)."""
        return {}

    def judged_counter_actions(self, state: S) -> dict[str, list[Any]]:
        """:meth:`counter_actions` as ``plan`` judges them (``todo``'s judge: an entry it
        refuses now is left out, an open one keeps its accepted choices)."""
        entries = self.counter_actions(state)
        if not entries:
            return {}
        judge = self.todo_judge(state, self.obligations(state))
        out: dict[str, list[Any]] = {}
        for pick, todo in entries.items():
            kept = [j for t in todo if (j := judged(t, judge, False)) is not None]
            if kept:
                out[pick] = kept
        return out

    def strength(self, state_json: Mapping[str, Any]) -> dict[str, float]:
        """Each side's strength in a state given as its JSON (the after-action report shows
        its fall turn by turn as losses); {}: no losses are reported."""
        return {}

    def editor(self) -> Editor | None:
        """What the scenario builder edits for this ruleset (rules/editor.py); None: the
        builder cannot make its scenarios."""
        return None

    def demo(self, db: str, as_json: bool) -> bool:
        """Play this ruleset's worked example in the terminal (``vedette demo``) into the
        database ``db``; False: it has none."""
        return False

    def todo(self, state: S, strict: bool = False) -> list[Any]:
        """Obligations first, then the actions open now: derived from ``plan`` (see
        ``protocol.derive_todo``): a complete entry is one ``judge`` accepts as shown, an open
        one lists only the choices it accepts; an owed step it refuses is marked ``refused``.

        Kept for the state object last asked (compared by identity: a state is an immutable
        value, a frozen dataclass, and each action folds a new one): the CLI and the web app
        ask again of the state they just showed, random play and the simulator's
        ``legal_requests`` before every action. Derived afresh by :meth:`fresh_todo` for any
        other state, for a state that is not a frozen dataclass, and whenever
        :meth:`memos_on` says no (a ruleset's memos switched off: the old path)."""
        if not (self.memos_on() and _immutable(type(state))):
            return self.fresh_todo(state, strict)
        kept = self.__dict__.get("_todo_kept")  # (state, strict, entries): one tuple, read once
        if kept is not None and kept[0] is state and kept[1] is strict:
            return list(kept[2])
        got = self.fresh_todo(state, strict)
        self.__dict__["_todo_kept"] = (state, strict, tuple(got))
        return list(got)

    def fresh_todo(self, state: S, strict: bool = False) -> list[Any]:
        """:meth:`todo` derived afresh (what a ruleset with memos of its own overrides)."""
        owed = self.obligations(state)
        return derive_todo(owed, self.options(state), self.todo_judge(state, owed), strict)

    def memos_on(self) -> bool:
        """Whether :meth:`todo` and :meth:`initial` keep their answers (False while a
        ruleset's own memos are switched off, so that the old path is the old path)."""
        return True

    def todo_judge(self, state: S, owed: Sequence[Any]) -> Callable[[str, Mapping[str, Any]], Any]:
        """The verdict ``todo`` asks of each offer on ``state`` (``owed``: its obligations):
        :meth:`judge`'s parsed request, or its refusal raised."""
        if type(self).judge is Ruleset.judge:  # the state's phase read once, not once an offer
            phase = self.current_phase(state) if self.flow is not None else None
            return lambda p, r: self._judge(state, p, r, owed, False, phase, True)[1]
        return lambda p, r: self.judge(state, p, r, owed=owed)[1]

    #: the sequence of play (protocol.Flow), read by the engine; None: no declared phases
    flow: ClassVar[Any] = None
    #: a ContextVar[bool] set while a query (odds, chances) is planned, for rules code whose
    #: plan answers a query differently (e.g. as if a shift window were open); None: none
    query_context: ClassVar[Any] = None

    def current_phase(self, state: S) -> str | None:
        """The name of the flow's phase the game is in now (None: no declared flow)."""
        return None

    def judge(
        self,
        state: S,
        procedure: str,
        request: Any,
        owed: Sequence[Any] | None = None,
        query: bool = False,
    ) -> Any:
        """Parse and plan ``procedure`` with ``request`` (a mapping or a parsed request) as the
        engine would before rolling: the declared flow, then what is owed, then ``plan``.
        Raises the refusal (a VedetteError naming the rule); returns ``(procedure, request,
        plan)``. ``query``: odds and checks, which no phase and no obligation forbid."""
        return self._judge(state, procedure, request, owed, query, _NOT_GIVEN)

    def _judge(
        self,
        state: S,
        procedure: str,
        request: Any,
        owed: Sequence[Any] | None,
        query: bool,
        phase: Any,
        checking: bool = False,
    ) -> Any:
        """:meth:`judge`, given the state's phase when the caller has it (``todo`` judges
        every offer of one state). ``checking``: only the verdict is read (``todo``): a
        procedure's ``check``, where it has one, stands for its ``plan`` (no plan returned)."""
        if type(self).protocol_procedures is Ruleset.protocol_procedures:
            proc = self.procedures.get(procedure)  # (no copy of the table for one look-up)
        else:
            proc = self.protocol_procedures().get(procedure)
        if proc is None:
            raise BadRequest(f"{self.name} has no procedure {procedure!r}")
        if isinstance(request, Mapping):
            req, logged = parsed_shared(proc, request)
        else:
            req, logged = request, None
        if not proc.query and not query:
            if self.flow is not None:
                if phase is _NOT_GIVEN:
                    phase = self.current_phase(state)
                refusal = self.flow.violation(phase, procedure)
                if refusal is not None:
                    raise refusal
            owed = self.obligations(state) if owed is None else owed
            if owed and logged is None:
                logged = proc.request_json(req)
            o = flow_violation(owed, procedure, logged) if owed else None  # type: ignore[arg-type]
            if o is not None:
                raise RuleViolation(
                    o.rule,
                    f"{o.text} is owed first: '{o.command()}' (or waive it: 'waive {o.id}')",
                )
        if not query or self.query_context is None:
            if checking and proc.check is not None:
                proc.check(state, req)
                return proc, req, None
            return proc, req, proc.plan(state, req)
        token = self.query_context.set(True)
        try:
            return proc, req, proc.plan(state, req)
        finally:
            self.query_context.reset(token)

    def is_legal(self, state: S, procedure: str, request: Any) -> Any:
        """Whether the rules accept ``request`` now (a protocol.Verdict: never raises)."""

        return verdict_of(lambda: self.judge(state, procedure, request))

    def entity_ids(self, state: S) -> list[str]:
        """The ids of the things in the game (pieces, units, stacks), for random requests."""
        found: list[str] = []

        def walk(x: Any, depth: int = 0) -> None:
            if depth > 6:
                return
            if isinstance(x, Mapping):
                v = x.get("id")
                if isinstance(v, str) and v not in found:
                    found.append(v)
                for y in x.values():
                    walk(y, depth + 1)
            elif isinstance(x, list | tuple):
                for y in x:
                    walk(y, depth + 1)

        walk(self.state_json(state))
        return found

    def legal_requests(
        self, state: S, rng: Any, n: int = 40
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        """Candidate requests for random play: the ``todo`` list first, then procedures with
        random fields drawn from the game's ids. The engine refuses the illegal ones, so a
        random player tries them in turn. Rulesets on the protocol override this with
        requests that are all legal."""
        for t in self.todo(state):
            yield t.procedure, dict(t.request)
        ids = self.entity_ids(state) or ["x"]
        procs = [p for p in self.protocol_procedures().values() if not p.query]
        for _ in range(n):
            p = rng.choice(procs)
            req: dict[str, Any] = {}
            for f in p.spec.fields:
                if not f.required and rng.random() < 0.7:
                    continue
                if f.choices:
                    req[f.name] = rng.choice(f.choices)
                elif f.kind == "bool":
                    req[f.name] = rng.random() < 0.5
                elif f.kind in ("int", "float"):
                    req[f.name] = rng.randint(0, 6)
                elif f.kind == "list":
                    req[f.name] = [rng.choice(ids)]
                else:
                    req[f.name] = rng.choice(ids)
            yield p.name, req

    #: the game options (``--option KEY=VALUE``) this ruleset reads: a pydantic model (unknown
    #: keys refused, typed fields with descriptions and defaults); None accepts none. Declared
    #: as ``LazyModel("package.module:Name")``: imported when first read, not with the ruleset
    options_model: LazyModel = LazyModel(None)
    #: the scenario schema (a pydantic model), checked before a game is stored
    scenario_model: LazyModel = LazyModel(None)
    #: house-rule tables that may gain new entries shaped like their siblings (e.g. unit types)
    house_rule_open_maps: ClassVar[tuple[str, ...]] = ()
    #: house-rule values that must be more than 0 (paths, ``*`` matching one key: a scale's
    #: sizes, a move); any length (a key ending ``_mm``) must be 0 or more in every ruleset
    house_rule_positive: ClassVar[tuple[str, ...]] = ()
    #: the event kinds ``apply`` folds, when declared (an import naming another is refused)
    event_kinds: ClassVar[tuple[str, ...]] = ()

    # -- validation at the trust boundary (see vedette.schemas) -------------------------
    def validate_options(self, raw: Mapping[str, Any], source: str = "options") -> dict[str, Any]:
        """The game options checked against ``options_model``: only the keys given, typed."""
        # start-up: pydantic loads only where options or a scenario are checked
        from vedette.schemas.rules import check_options

        return check_options(self, raw, source)

    def validate_scenario(self, raw: Mapping[str, Any], source: str = "scenario") -> None:
        """Refuse a scenario that does not fit ``scenario_model`` (one DataError line)."""
        # start-up: pydantic loads only where options or a scenario are checked
        from vedette.schemas.rules import check_scenario

        check_scenario(self, raw, source)

    def validate_house_rules(self, raw: Mapping[str, Any], source: str = "house rules") -> None:
        """Refuse house rules whose keys or value kinds are not the shipped data's, or whose
        merged data does not load (tables with gaps or overlaps)."""
        # start-up: pydantic loads only where options or a scenario are checked
        from vedette.schemas.rules import check_house_rules

        check_house_rules(self, raw, source)

    # -- data ---------------------------------------------------------------------------
    def data(self, house_rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The ruleset's shipped data merged with a game's house rules."""
        key = json.dumps(house_rules or {}, sort_keys=True, default=str)
        memo: dict[str, dict[str, Any]] = self.__dict__.setdefault("_data_memo", {})
        if key not in memo:
            out: dict[str, Any] = {}
            for f in self.data_files:
                out = merge(out, package_toml(self.data_package, f))
            if house_rules:
                out = merge(out, house_rules)
            memo[key] = out
        return copy.deepcopy(memo[key])

    def tables(self, house_rules: Mapping[str, Any] | None = None) -> dict[str, Table]:
        return tables_from_data(self.data(house_rules), f"{self.name} data")

    def scenario(self, name: str) -> dict[str, Any]:
        if name not in self.scenarios:
            raise BadRequest(
                f"no bundled {self.name} scenario {name!r} (bundled: {', '.join(self.scenarios)})"
            )
        return package_toml(self.data_package, self.scenarios[name])

    def help_page(self) -> str:
        """The players' page on this ruleset (``help.md`` beside its data; Markdown): how to
        play it here, with examples, and every reading chosen where its text is unclear.
        The web app shows it at ``/help/RULESET``; '' when the ruleset has none."""
        from importlib import resources

        if not self.data_package:
            return ""
        f = resources.files(self.data_package) / "help.md"
        return f.read_text(encoding="utf-8") if f.is_file() else ""

    def scenario_info(self, name: str) -> dict[str, str]:
        """A bundled scenario's name, title (its ``title``, ``scenario.title`` or ``name``) and
        description (the file's opening comment, in words), for lists a player chooses from."""
        from importlib import resources

        data = self.scenario(name)
        inner = data.get("scenario")
        title = data.get("title") or (inner.get("title") if isinstance(inner, Mapping) else None)
        title = title or data.get("name") or name
        text = resources.files(self.data_package).joinpath(self.scenarios[name]).read_text("utf-8")
        lead: list[str] = []
        for line in text.splitlines():
            if not line.startswith("#"):
                break
            lead.append(line.lstrip("#").strip())
        return {"name": name, "title": str(title), "description": " ".join(lead).strip()}

    @staticmethod
    def scenario_from_text(text: str, source: str) -> dict[str, Any]:
        return load_toml_text(text, source)

    # -- state --------------------------------------------------------------------------
    def initial_state(self, scenario: Mapping[str, Any], options: Mapping[str, Any]) -> S:
        raise NotImplementedError

    def initial(self, scenario: Mapping[str, Any], options: Mapping[str, Any]) -> S:
        """:meth:`initial_state`, one value per scenario and options: a game is created,
        opened, replayed and refereed again from its scenario each time (a web request opens
        its game; an import creates the game it referees, replays it, then opens it), and
        the state it starts from is an immutable value. Kept only for a frozen dataclass, and
        while :meth:`memos_on`; a scenario or options that are not plain JSON data, or that
        do not set up (the refusal is raised again), are not kept."""
        if not self.memos_on():
            return self.initial_state(scenario, options)
        try:
            key = json.dumps([scenario, options], sort_keys=True, allow_nan=False)
        except (TypeError, ValueError):
            return self.initial_state(scenario, options)
        kept: dict[str, Any] = self.__dict__.setdefault("_initial_kept", {})
        state = kept.get(key)
        if state is None:
            state = self.initial_state(scenario, options)
            if _immutable(type(state)):
                if len(kept) >= INITIAL_KEPT:
                    kept.clear()
                kept[key] = state
        return state

    def apply(self, state: S, event: Event) -> S:
        raise NotImplementedError

    def board_svg(self, state: S, state_json: Mapping[str, Any], inline: bool = True) -> str | None:
        """The board as an SVG document, drawn by the ruleset's own ``board`` module
        (``<package>/board.py``: ``board(state, state_json) -> str``); None if it has none.
        A board may leave a static layer (its map) as a slot (``render.svg.layer_slot``):
        filled here unless ``inline`` is false (the web app's answer to a page that shows
        that layer already)."""
        fn = self._board_fn("board")
        if fn is None:
            return None
        # start-up: the drawing code loads only for a board
        from vedette.render.svg import splice_layers

        text = str(fn(state, state_json))
        return splice_layers(text) if inline else text

    def _board_fn(self, name: str) -> Callable[..., Any] | None:
        """A function of the ruleset's ``board`` module (None where it has none); looked up
        once per ruleset."""
        memo: dict[str, Callable[..., Any] | None] = self.__dict__.setdefault("_board_fns", {})
        if name not in memo:
            memo[name] = self._find_board_fn(name)
        return memo[name]

    def _find_board_fn(self, name: str) -> Callable[..., Any] | None:
        pkg = type(self).__module__.rpartition(".")[0] or type(self).__module__
        for mod in (f"{type(self).__module__}.board", f"{pkg}.board"):
            try:
                if find_spec(mod) is None:
                    continue
            except ModuleNotFoundError:
                continue
            fn = getattr(import_module(mod), name, None)
            if fn is not None:
                return fn  # type: ignore[no-any-return]
        return None

    def legend(self, state: S) -> list[dict[str, Any]]:
        """What the board's colours, lines and markers mean (``board.legend``)."""
        fn = self._board_fn("legend")
        return [] if fn is None else list(fn(state))

    def roster(self, state: S) -> list[dict[str, Any]]:
        """Every unit with its status, strength and markers, as its owner may know them
        (``board.roster``): one dict a unit, keys id, side, name, where, strength, status."""
        fn = self._board_fn("roster")
        return [] if fn is None else list(fn(state))

    def table_changes(self, before_state: S, events: Sequence[Any]) -> list[str]:
        """What to change on the real table after ``events`` (folded onto ``before_state``), in
        words: "move R2 from W2421 to W2121; mark it fixed" (``board.changes``)."""
        fn = self._board_fn("changes")
        if fn is None or not events:
            return []
        after = before_state
        for e in events:
            after = self.fold(after, self.decode(e) if isinstance(e, Mapping) else e)
        return list(fn(before_state, after))

    def move_check(self, state: S, procedure: str, plan: Any) -> dict[str, Any]:
        """What a hand move costs, from the procedure's plan (``board.move_check``): e.g.
        ``{"used": ..., "left": ..., "units": ..., "path": [...], "text": ...}``; a
        ``{"problem": ...}`` where the rules refuse it."""
        fn = self._board_fn("move_check")
        return {} if fn is None else dict(fn(state, procedure, plan))

    def render(self, state: S) -> str:
        """The game as text (map, units, phase)."""
        return repr(state)

    def snapshot(self, state: S, initial: S) -> dict[str, Any]:
        """The state as JSON for the store's snapshots (a cache, never the truth); fields it
        shares with ``initial`` (the scenario's set-up: maps, tables) are written as
        references. Default: the engine's tagged JSON codec (no pickle); it raises
        ``vedette.engine.snapshot.Unsnapshottable`` for a state it cannot write, and the game
        then keeps no snapshot."""
        return snapshot_state(state, initial)

    def restore(self, data: Mapping[str, Any], initial: S) -> S:
        """The state :meth:`snapshot` wrote, on the same scenario's ``initial`` state."""
        return restore_state(dict(data), initial)  # type: ignore[no-any-return]

    def state_json(self, state: S) -> dict[str, Any]:
        """The game state as JSON for shells."""
        return {"repr": repr(state)}
