"""The events of a solitaire ASL game: typed, versioned, each named for what happened.

Every event is the core's :class:`~vedette.rules.patch.Patches` (version 3): one step's changes
to the entities of the board (``ENTITIES``): stacks, fortifications, minefields, OBA modules and
locations put in (their whole record) or removed, a shift counted (``count``: side, phase and
operation), a window of shifting closed (``window``), a dummy allotment used (``allotment``),
the game's ``acted`` and ``serial`` set (entity ``game``, id ``-``), plus the facts of its own
kind (the shift's row and final DR, the phase entered, a decision awaited ...). The core decodes
and folds the changes (docs/architecture.md, "Patches and domain facts"); fold.py adds what a
kind's own facts add (a phase begun, a decision owed, a minefield exchange offered). One step
is one event, so an older log is refereed again event for event.

Upgrade ladder (one step per version): release 0.1 logged the same kinds as untyped patches
(version 1); ``upgrade_v1`` turns them into version 2: the nested ``phase`` record becomes
fields, ``pending_add``/``pending_remove`` become a ``candidate`` hex and the obligations it
owes (``State.owed``), a counter's ``boresight_location`` becomes its one ``boresight`` field.
Release 0.2 logged version 2, every kind a ``Changes`` (``put_stacks``, ``remove_stacks``,
``put_forts``, ``put_mines``, ``remove_mines``, ``put_oba``, ``put_locations``, ``count``,
``close``, ``acted``, ``allot``, ``serial``); ``upgrade_v2`` turns them into the changes of
version 3 (the same, in the same order), with no ``was`` (not recorded). The folds are in
fold.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from vedette.errors import VedetteError
from vedette.rules.evolve import evolve as replace
from vedette.rules.patch import Change, Entities, Patches, patch_kind
from vedette.rules.solitaire_asl.model import (
    Allotment,
    Fortification,
    Location,
    Minefield,
    ObaModule,
    Stack,
    State,
    natural_key,
)


# -- the entities a step changes ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Count:
    """The successful shifts of one side, phase and operation that bear the +1 DRM (O'Leary
    2.5); its id is ``side|phase key|operation``, a count never made is 0."""

    id: str
    n: int = 0


@dataclass(frozen=True, slots=True)
class Window:
    """Whether shifting is over for one side, operation and window (O'Leary 2.5, 3.3.5); its
    id is ``side|operation|window key``."""

    id: str
    closed: bool = False


def _key(ident: str) -> tuple[str, str, str]:
    parts = ident.split("|")
    if len(parts) != 3:
        raise VedetteError(f"{ident!r} is not 'side|...|...'")
    return parts[0], parts[1], parts[2]


def _count(state: State, ident: str) -> Count:
    k = _key(ident)
    return Count(ident, next((n for (a, b, c, n) in state.counts if (a, b, c) == k), 0))


def _put_count(state: State, ident: str, values: Mapping[str, Any]) -> State:
    k, n = _key(ident), int(values["n"])
    counts = [c for c in state.counts]
    at = next((i for i, c in enumerate(counts) if c[:3] == k), None)
    if at is None:
        counts.append((*k, n))
    else:
        counts[at] = (*k, n)
    return replace(state, counts=tuple(counts))


def _window(state: State, ident: str) -> Window:
    return Window(ident, _key(ident) in state.closed)


def _put_window(state: State, ident: str, values: Mapping[str, Any]) -> State:
    k = _key(ident)
    if values.get("closed"):
        return state if k in state.closed else replace(state, closed=(*state.closed, k))
    return replace(state, closed=tuple(c for c in state.closed if c != k))


def _put_allotment(state: State, side: str, values: Mapping[str, Any]) -> State:
    allots = tuple(replace(a, **values) if a.side == side else a for a in state.allotments)
    return replace(state, allotments=allots)


def _game(state: State, ident: str) -> State:
    if ident != "-":
        raise VedetteError(f"the game is entity '-', not {ident!r}")
    return state


def _put_game(state: State, ident: str, values: Mapping[str, Any]) -> State:
    return replace(_game(state, ident), **values)


def _records(
    attr: str, model: type[Any], sort: bool = False, removed: bool = False
) -> Entities[State]:
    """A tuple of records of the state (``attr``), by id: put in where a new one goes last
    (``sort``: in natural order of ids), removed (``removed``: its id remembered)."""

    def find(state: State, ident: str) -> Any:
        return next((x for x in getattr(state, attr) if x.id == ident), None)

    def get(state: State, ident: str) -> Any:
        x = find(state, ident)
        if x is None:
            raise VedetteError(f"there is no {attr} entry {ident!r}")
        return x

    def insert(state: State, obj: Any) -> State:
        items = list(getattr(state, attr))
        at = next((i for i, x in enumerate(items) if x.id == obj.id), None)
        if at is None:
            items.append(obj)
        else:
            items[at] = obj
        if sort:
            items.sort(key=lambda x: natural_key(x.id))
        return replace(state, **{attr: tuple(items)})

    def delete(state: State, ident: str) -> State:
        kept = tuple(x for x in getattr(state, attr) if x.id != ident)
        if removed:
            return replace(state, **{attr: kept, "removed": (*state.removed, ident)})
        return replace(state, **{attr: kept})

    def put(state: State, ident: str, values: Mapping[str, Any]) -> State:
        return insert(state, replace(get(state, ident), **values))

    return Entities(model, get, put, find=find, insert=insert, delete=delete)


#: how a game holds what its events change, for the core's patch fold (vedette.rules.patch)
ENTITIES: dict[str, Entities[State]] = {
    "stack": _records("stacks", Stack, sort=True, removed=True),
    "fortification": _records("fortifications", Fortification),
    "minefield": _records("minefields", Minefield),
    "oba": _records("oba", ObaModule),
    "location": _records("locations", Location, sort=True),
    "count": Entities(Count, _count, _put_count),
    "window": Entities(Window, _window, _put_window),
    "allotment": Entities(Allotment, State.allotment, _put_allotment),
    "game": Entities(
        State, _game, lambda s, i, v: replace(_game(s, i), **v), only=("acted", "serial")
    ),
}


def changes_of(d: Mapping[str, Any]) -> list[Change]:
    """The changes of a step given as release 0.2 logged them (a ``Changes``: ``put_stacks``
    ... ``serial``), in the order its fold made them: the game's ``acted``/``serial``, stacks
    removed then put in, fortifications, minefields removed then put in, OBA modules,
    locations, counts, windows closed, the allotment used. The builder and ``upgrade_v2`` both
    read it, so a new step and an upgraded one are the same changes."""
    out: list[Change] = []
    game: dict[str, Any] = {}
    if d.get("acted"):
        game["acted"] = True
    if d.get("serial") is not None:
        game["serial"] = int(d["serial"])
    if game:
        out.append(Change("game", "-", "set", game))
    for entity, put, remove in (
        ("stack", "put_stacks", "remove_stacks"),
        ("fortification", "put_forts", None),
        ("minefield", "put_mines", "remove_mines"),
        ("oba", "put_oba", None),
        ("location", "put_locations", None),
    ):
        for ident in (d.get(remove) or ()) if remove else ():
            out.append(Change(entity, str(ident), "remove", True))
        for rec in d.get(put) or ():
            out.append(Change(entity, str(rec["id"]), "put", rec))
    for side, pk, op in d.get("count") or ():
        out.append(Change("count", f"{side}|{pk}|{op}", "add", {"n": 1}))
    for side, op, w in d.get("close") or ():
        out.append(Change("window", f"{side}|{op}|{w}", "set", {"closed": True}))
    a = d.get("allot")
    if a:
        used = {f"{k}_placed": int(a[k]) for k in ("dummy_hip", "dummy_minefields") if a.get(k)}
        out.append(Change("allotment", str(a["side"]), "add", used))
    return out


# -- events ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Step(Patches):
    """One step's changes to the board (every ASL event is one)."""

    kind: ClassVar[str] = "changes"
    version: ClassVar[int] = 3
    entities: ClassVar[frozenset[str] | None] = frozenset(ENTITIES)
    #: the kind marks that a friendly unit has acted (a release 0.2 payload may not say so)
    acts: ClassVar[bool] = False

    @classmethod
    def upgrade_v1(cls, d: dict[str, Any]) -> dict[str, Any]:
        pend = d.pop("pending_add", None) or []
        d.pop("pending_remove", None)
        if pend:
            d["candidate"] = str(pend[0][2])
        return d

    @classmethod
    def upgrade_v2(cls, d: dict[str, Any]) -> dict[str, Any]:
        """Version 2 (release 0.2's ``Changes``) to 3: its changes as the core's, with no
        ``was`` (not recorded); the kind's own fields kept, any other dropped."""
        if cls.acts:
            d = {**d, "acted": True}
        own = {f.name.rstrip("_") for f in dataclasses.fields(cls)} - {"patches", "why"}
        out: dict[str, Any] = {"patches": [c.to_json() for c in changes_of(d)]}
        out.update((k, v) for k, v in d.items() if k in own)
        return out


@dataclass(frozen=True)
class PhaseEntered(Step):
    """A new phase begins (ASL A3); a new player turn ends TI and the counts of the last."""

    kind: ClassVar[str] = "phase"
    phase: str = ""
    phasing: str = ""
    player_turn: int = 0
    new_player_turn: bool = False

    @classmethod
    def upgrade_v1(cls, d: dict[str, Any]) -> dict[str, Any]:
        p = d.pop("phase", {}) or {}
        return {**d, **{k: p[k] for k in ("phase", "phasing", "player_turn", "new_player_turn")}}


@dataclass(frozen=True)
class StackMoved(Step):
    kind: ClassVar[str] = "move"
    stack: str = ""
    to: str = ""


@dataclass(frozen=True)
class MinefieldShifted(Step):
    """A minefield's shift DR (4.6): the row read and the final DR."""

    kind: ClassVar[str] = "minefield_shift"
    row: str = ""
    final: int = 0


@dataclass(frozen=True)
class Shifted(MinefieldShifted):
    """A shift DR (2.5) and the row's consequences."""

    kind: ClassVar[str] = "shift"
    op: str = ""


@dataclass(frozen=True)
class Scattered(Step):
    """A die that may scatter (6.1, 7.1): the row read; ``candidate``, the scattered hex of a
    6 that awaits the player's word (a ``decide`` is then owed)."""

    row: str = ""
    candidate: str | None = None


@dataclass(frozen=True)
class BoresightRolled(Scattered):
    """The third die (6.1): each weapon owes a ``decide`` before it fires again."""

    kind: ClassVar[str] = "boresight"
    weapons: tuple[str, ...] = ()
    target: str = ""


@dataclass(frozen=True)
class PreregRolled(Scattered):
    """The pre-registration die (7.1)."""

    kind: ClassVar[str] = "prereg"
    module: str = ""
    ar: str = ""


@dataclass(frozen=True)
class Decided(Step):
    """The player's word on a scattered hex (6.1, 7.1): the owed decision is discharged."""

    kind: ClassVar[str] = "decide"
    id: str = ""
    ok: bool = False
    hex: str = ""
    what: str = ""  # boresight | prereg (empty in release 0.1's logs: found from the id)


#: the kinds that carry only their changes (a name the log shows for each)
PLAIN: dict[str, type[Step]] = {
    k: patch_kind(Step, k, doc, **extra)  # type: ignore[arg-type]
    for k, doc, extra in (
        (
            "acted",
            "A friendly unit has moved, advanced or fired: the start of the phase is over (2.3).",
            {"acts": True},
        ),
        ("merge", "Two stacks in one location made one (ASL A4).", {}),
        ("mark", "A stack marked a potential dummy (O'Leary 3.2).", {}),
        ("drop", "A stack's concealment dropped (O'Leary 3.2).", {}),
        ("reveal", "A hidden unit, fortification or minefield revealed (O'Leary 3.3, 4.6).", {}),
        ("place", "A dummy placed (O'Leary 3.1, 4.6).", {}),
        ("location", "A location's facts stated by the player.", {}),
        ("fort", "A fortification recorded.", {}),
        ("settle", "A vehicle's or Gun's arcs, CE/BU or emplacement after a shift (2.3).", {}),
    )
}
EVENTS: tuple[type[Step], ...] = (
    PhaseEntered,
    StackMoved,
    *PLAIN.values(),
    Shifted,
    MinefieldShifted,
    BoresightRolled,
    PreregRolled,
    Decided,
)
BY_KIND: dict[str, type[Step]] = {e.kind: e for e in EVENTS}


# -- building events ---------------------------------------------------------------------------
class BoardChanges:
    """Builds a step's changes (what to put in, remove, count and close) in release 0.2's
    terms, made the core's changes by :func:`changes_of` (one order for new and old)."""

    def __init__(self) -> None:
        self.d: dict[str, Any] = {}

    def _add(self, key: str, value: Any) -> BoardChanges:
        self.d.setdefault(key, []).append(value)
        return self

    def put_stack(self, s: Stack) -> BoardChanges:
        return self._add("put_stacks", s.to_json())

    def remove_stack(self, sid: str) -> BoardChanges:
        return self._add("remove_stacks", sid)

    def put_fort(self, f: Fortification) -> BoardChanges:
        return self._add("put_forts", f.to_json())

    def put_mine(self, m: Minefield) -> BoardChanges:
        return self._add("put_mines", m.to_json())

    def remove_mine(self, mid: str) -> BoardChanges:
        return self._add("remove_mines", mid)

    def put_oba(self, o: ObaModule) -> BoardChanges:
        return self._add("put_oba", o.to_json())

    def put_location(self, loc: Location) -> BoardChanges:
        return self._add("put_locations", loc.to_json())

    def count(self, side: str, phase_key: str, op: str) -> BoardChanges:
        return self._add("count", (side, phase_key, op))

    def close(self, side: str, op: str, window: str) -> BoardChanges:
        return self._add("close", (side, op, window))

    def allot(self, side: str, dummy_hip: int = 0, dummy_minefields: int = 0) -> BoardChanges:
        """Dummies of ``side``'s allotment placed (O'Leary 3.1.1, 4.6.1)."""
        a = {"side": side, "dummy_hip": dummy_hip, "dummy_minefields": dummy_minefields}
        self.d["allot"] = {k: v for k, v in a.items() if v}
        return self

    def set(self, key: str, value: Any) -> BoardChanges:
        """The game's ``acted`` or ``serial``."""
        self.d[key] = value
        return self

    def event(self, kind: str, **extra: Any) -> Step:
        cls = BY_KIND[kind]
        own = {k: tuple(v) if isinstance(v, list) else v for k, v in extra.items()}
        return cls(patches=tuple(changes_of(self.d)), **own)  # type: ignore[arg-type]
