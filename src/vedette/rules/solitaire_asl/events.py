"""The events of a solitaire ASL game: typed, versioned, each named for what happened.

Every event is a :class:`Changes` (version 2): what to put, remove, count and close, as whole
values (stacks, fortifications, minefields, OBA modules and locations are carried as their
JSON records, folded with their ``from_json``), plus the fields of its own kind (the shift's
row and final DR, the phase entered, a decision awaited ...). These are domain facts, not the
core's patch (:mod:`vedette.rules.patch`): an event creates and removes whole records, counts
the shifts of a phase and closes their windows, and one event is one step of the log, so an
older log is refereed again event for event (docs/architecture.md, "Patches and domain
facts").

Upgrade ladder: release 0.1 logged the same kinds as untyped patches (version 1);
``upgrade_v1`` turns them into version 2: the nested ``phase`` record becomes fields,
``pending_add``/``pending_remove`` become a ``candidate`` hex and the obligations it owes
(``State.owed``), a counter's ``boresight_location`` becomes its one ``boresight`` field. The
folds are in fold.py.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

from vedette.rules.protocol import DomainEvent, event_kind
from vedette.rules.solitaire_asl.model import (
    Fortification,
    Location,
    Minefield,
    ObaModule,
    Stack,
)


# -- events ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Changes(DomainEvent):
    """The board changes an event makes (every ASL event carries them)."""

    kind: ClassVar[str] = "changes"
    version: ClassVar[int] = 2
    put_stacks: tuple[Any, ...] = ()
    remove_stacks: tuple[str, ...] = ()
    put_forts: tuple[Any, ...] = ()
    put_mines: tuple[Any, ...] = ()
    remove_mines: tuple[str, ...] = ()
    put_oba: tuple[Any, ...] = ()
    put_locations: tuple[Any, ...] = ()
    count: tuple[tuple[str, str, str], ...] = ()
    close: tuple[tuple[str, str, str], ...] = ()
    acted: bool = False
    allot: dict[str, Any] | None = None
    serial: int | None = None

    @classmethod
    def upgrade(cls, version: int, data: dict[str, Any]) -> dict[str, Any]:
        """The upgrade ladder (``upgrade_v1``: release 0.1's untyped patches of the same
        kinds), then only the fields of the kind kept."""
        d = super().upgrade(version, dict(data))
        known = {f.name.rstrip("_") for f in dataclasses.fields(cls)}
        return {k: v for k, v in d.items() if k in known}

    @classmethod
    def upgrade_v1(cls, d: dict[str, Any]) -> dict[str, Any]:
        pend = d.pop("pending_add", None) or []
        d.pop("pending_remove", None)
        if pend:
            d["candidate"] = str(pend[0][2])
        return d


@dataclass(frozen=True)
class PhaseEntered(Changes):
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
class Acted(Changes):
    """A friendly unit has moved, advanced or fired: the start of the phase is over (2.3)."""

    kind: ClassVar[str] = "acted"
    acted: bool = True


@dataclass(frozen=True)
class StackMoved(Changes):
    kind: ClassVar[str] = "move"
    stack: str = ""
    to: str = ""


@dataclass(frozen=True)
class MinefieldShifted(Changes):
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
class Scattered(Changes):
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
class Decided(Changes):
    """The player's word on a scattered hex (6.1, 7.1): the owed decision is discharged."""

    kind: ClassVar[str] = "decide"
    id: str = ""
    ok: bool = False
    hex: str = ""
    what: str = ""  # boresight | prereg (empty in release 0.1's logs: found from the id)


#: the kinds that carry only their board changes (a name the log shows for each)
PLAIN: dict[str, type[Changes]] = {
    k: event_kind(Changes, k, doc)
    for k, doc in {
        "merge": "Two stacks in one location made one (ASL A4).",
        "mark": "A stack marked a potential dummy (O'Leary 3.2).",
        "drop": "A stack's concealment dropped (O'Leary 3.2).",
        "reveal": "A hidden unit, fortification or minefield revealed (O'Leary 3.3, 4.6).",
        "place": "A dummy placed (O'Leary 3.1, 4.6).",
        "location": "A location's facts stated by the player.",
        "fort": "A fortification recorded.",
    }.items()
}
EVENTS: tuple[type[Changes], ...] = (
    PhaseEntered,
    Acted,
    StackMoved,
    *PLAIN.values(),
    Shifted,
    MinefieldShifted,
    BoresightRolled,
    PreregRolled,
    Decided,
)
BY_KIND: dict[str, type[Changes]] = {e.kind: e for e in EVENTS}


# -- building events ---------------------------------------------------------------------------
class BoardChanges:
    """Builds an event's changes: what to put, remove, count and close."""

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

    def set(self, key: str, value: Any) -> BoardChanges:
        self.d[key] = value
        return self

    def event(self, kind: str, **extra: Any) -> Changes:
        cls = BY_KIND[kind]
        data = {k: tuple(v) if isinstance(v, list) else v for k, v in {**self.d, **extra}.items()}
        return cls(**data)  # type: ignore[arg-type]
