"""Events of a 2 by 2 game: typed, versioned (the referee protocol), and their folds.

* A unit event (``moved``, ``pinned``, ``disrupted``, ``rallied``, ``routed``, ``destroyed``,
  ``shot``, ``arrived``, ``deployed``, ``placed``, ``formation``, ``screen``, ``faced``,
  ``marker``, ``repulsed``, ``recoiled``, ``followed_up``, ``meleed``) is a :class:`UnitChange`:
  the unit and exactly the fields that change (``None``: unchanged). Version 2; version 1
  (release 0.1) carried ``{"unit": id, "set": {field: value}}`` with the position as ``body``
  (``None`` = no position), and is upgraded on reading.
* The others (pending melees, follow-ups, reinforcement points, roles, phases, the end) keep
  the field names of version 1, which is their current version.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from vedette.geometry.tabletop import Body, Vec
from vedette.rules.evolve import evolve as replace
from vedette.rules.protocol import DomainEvent
from vedette.rules.two_by_two.model import (
    PHASES,
    FollowUp,
    GameState,
    PendingMelee,
    ReinforcementPoint,
)


@dataclass(frozen=True, slots=True)
class Position:
    """Where a unit stands: its centre (mm) and facing (degrees)."""

    x: float
    y: float
    facing: float


@dataclass(frozen=True, slots=True)
class UnitChange(DomainEvent):
    """A change to one unit: the fields given change, the others (``None``) do not."""

    version: ClassVar[int] = 2
    unit: str
    position: Position | None = None
    off_table: bool = False  # the unit has no position any more (destroyed, cleared)
    status: str | None = None
    pinned: bool | None = None
    disrupted: bool | None = None
    shot: bool | None = None
    formation: str | None = None
    screened: bool | None = None
    moved: bool | None = None
    through_town: bool | None = None
    rallied: bool | None = None
    meleed: bool | None = None
    entry: str | None = None  # the RP it arrived at and must enter by
    entry_cleared: bool = False  # it has entered (the empty text would read as "unchanged")
    routed: bool | None = None
    countercharged: bool | None = None
    spent: float | None = None
    turned: bool | None = None
    straight_run: float | None = None
    road_only: bool | None = None

    @classmethod
    def upgrade(cls, version: int, data: dict[str, Any]) -> dict[str, Any]:
        """Version 1: ``{"unit", "set": {...}}`` with the position as ``body``."""
        changes = dict(data.get("set", {}) or {})
        out: dict[str, Any] = {"unit": data["unit"]}
        if "body" in changes:
            body = changes.pop("body")
            if body is None:
                out["off_table"] = True
            else:
                out["position"] = {k: body[k] for k in ("x", "y", "facing")}
        if changes.get("entry") == "":
            del changes["entry"]
            out["entry_cleared"] = True
        out.update(changes)
        return out


@dataclass(frozen=True, slots=True)
class Moved(UnitChange):
    kind: ClassVar[str] = "moved"


@dataclass(frozen=True, slots=True)
class Pinned(UnitChange):
    kind: ClassVar[str] = "pinned"


@dataclass(frozen=True, slots=True)
class Disrupted(UnitChange):
    kind: ClassVar[str] = "disrupted"


@dataclass(frozen=True, slots=True)
class Rallied(UnitChange):
    kind: ClassVar[str] = "rallied"


@dataclass(frozen=True, slots=True)
class Routed(UnitChange):
    kind: ClassVar[str] = "routed"


@dataclass(frozen=True, slots=True)
class Destroyed(UnitChange):
    kind: ClassVar[str] = "destroyed"


@dataclass(frozen=True, slots=True)
class Shot(UnitChange):
    kind: ClassVar[str] = "shot"


@dataclass(frozen=True, slots=True)
class Arrived(UnitChange):
    kind: ClassVar[str] = "arrived"


@dataclass(frozen=True, slots=True)
class Deployed(UnitChange):
    kind: ClassVar[str] = "deployed"


@dataclass(frozen=True, slots=True)
class Corrected(UnitChange):
    """A position corrected by the player (``place`` of a unit on the table): not a move of
    the rules, logged as what it is."""

    kind: ClassVar[str] = "corrected"


@dataclass(frozen=True, slots=True)
class Placed(UnitChange):
    kind: ClassVar[str] = "placed"


@dataclass(frozen=True, slots=True)
class FormationChanged(UnitChange):
    kind: ClassVar[str] = "formation"


@dataclass(frozen=True, slots=True)
class Screen(UnitChange):
    kind: ClassVar[str] = "screen"


@dataclass(frozen=True, slots=True)
class Faced(UnitChange):
    kind: ClassVar[str] = "faced"


@dataclass(frozen=True, slots=True)
class Marker(UnitChange):
    kind: ClassVar[str] = "marker"


@dataclass(frozen=True, slots=True)
class Repulsed(UnitChange):
    kind: ClassVar[str] = "repulsed"


@dataclass(frozen=True, slots=True)
class Recoiled(UnitChange):
    kind: ClassVar[str] = "recoiled"


@dataclass(frozen=True, slots=True)
class FollowedUp(UnitChange):
    kind: ClassVar[str] = "followed_up"


@dataclass(frozen=True, slots=True)
class Meleed(UnitChange):
    kind: ClassVar[str] = "meleed"


UNIT_EVENTS: dict[str, type[UnitChange]] = {
    c.kind: c
    for c in (
        Moved,
        Pinned,
        Disrupted,
        Rallied,
        Routed,
        Destroyed,
        Shot,
        Arrived,
        Deployed,
        Corrected,
        Placed,
        FormationChanged,
        Screen,
        Faced,
        Marker,
        Repulsed,
        Recoiled,
        FollowedUp,
        Meleed,
    )
}
_UNIT_FIELDS = frozenset(f.name for f in fields(UnitChange)) - {
    "unit",
    "position",
    "off_table",
    "entry_cleared",
}


# -- the other events (version 1 is current) -------------------------------------------------
@dataclass(frozen=True, slots=True)
class MeleePending(DomainEvent):
    kind: ClassVar[str] = "melee_pending"
    attacker: str
    defender: str
    counter_charge: bool = False


@dataclass(frozen=True, slots=True)
class MeleeResolved(DomainEvent):
    kind: ClassVar[str] = "melee_resolved"
    attacker: str
    defender: str


@dataclass(frozen=True, slots=True)
class MeleeCancelled(DomainEvent):
    """A pending melee whose two units are no longer in contact: it lapses, with the reason
    (2 by 2, Moving to contact: the melee is between units in contact)."""

    kind: ClassVar[str] = "melee_cancelled"
    attacker: str
    defender: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class MeleesCleared(DomainEvent):
    kind: ClassVar[str] = "melees_cleared"
    units: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FollowUpOffered(DomainEvent):
    kind: ClassVar[str] = "follow_up_offered"
    unit: str
    mandatory: bool
    x: float | None = None
    y: float | None = None


@dataclass(frozen=True, slots=True)
class FollowUpClosed(DomainEvent):
    kind: ClassVar[str] = "follow_up_closed"
    unit: str


@dataclass(frozen=True, slots=True)
class ReinforcementRolled(DomainEvent):
    kind: ClassVar[str] = "reinforcement_rolled"
    rp: str


@dataclass(frozen=True, slots=True)
class RpChosen(DomainEvent):
    kind: ClassVar[str] = "rp_chosen"
    id: str
    side: str
    kind_: str  # rear | flank (logged as "kind")
    x: float
    y: float
    queue: tuple[str, ...] = ()
    next_step: str | None = None


@dataclass(frozen=True, slots=True)
class RpDequeued(DomainEvent):
    kind: ClassVar[str] = "rp_dequeued"
    rp: str
    unit: str


@dataclass(frozen=True, slots=True)
class Roles(DomainEvent):
    kind: ClassVar[str] = "roles"
    attacker: str
    defender: str
    extra_ap: int = 0
    next_step: str | None = None


@dataclass(frozen=True, slots=True)
class SetupStep(DomainEvent):
    kind: ClassVar[str] = "setup_step"
    step: str


@dataclass(frozen=True, slots=True)
class PhaseBegan(DomainEvent):
    kind: ClassVar[str] = "phase"
    stage: str
    turn: int
    phase_index: int


@dataclass(frozen=True, slots=True)
class GameOver(DomainEvent):
    kind: ClassVar[str] = "game_over"
    winner: str | None = None


OTHER_EVENTS: tuple[type[DomainEvent], ...] = (
    MeleePending,
    MeleeResolved,
    MeleeCancelled,
    MeleesCleared,
    FollowUpOffered,
    FollowUpClosed,
    ReinforcementRolled,
    RpChosen,
    RpDequeued,
    Roles,
    SetupStep,
    PhaseBegan,
    GameOver,
)
EVENTS: tuple[type[DomainEvent], ...] = (*UNIT_EVENTS.values(), *OTHER_EVENTS)


def unit_event(kind: str, uid: str, **changes: Any) -> UnitChange:
    """An event changing one unit; a ``body`` change is given as a Body (or None)."""
    data: dict[str, Any] = {"unit": uid}
    for k, v in changes.items():
        if k == "body":
            if v is None:
                data["off_table"] = True
            else:
                data["position"] = Position(
                    round(v.centre.x, 3), round(v.centre.y, 3), round(v.facing, 3)
                )
        elif k == "entry" and v == "":
            data["entry_cleared"] = True
        elif k in _UNIT_FIELDS:
            data[k] = v
        else:
            raise ValueError(f"unit has no field {k!r}")
    return UNIT_EVENTS[kind](**data)


# -- folds -----------------------------------------------------------------------------------
def fold_unit(state: GameState, e: UnitChange) -> GameState:
    changes: dict[str, Any] = {k: getattr(e, k) for k in _UNIT_FIELDS if getattr(e, k) is not None}
    if e.entry_cleared:
        changes["entry"] = ""
    if e.off_table:
        changes["body"] = None
    elif e.position is not None:
        p = e.position
        changes["body"] = Body(Vec(p.x, p.y), p.facing, state.rules.footprint)
    return state.with_unit(e.unit, **changes)


def fold_melee_pending(state: GameState, e: MeleePending) -> GameState:
    m = PendingMelee(e.attacker, e.defender, e.counter_charge)
    if m in state.melees:
        return state
    return replace(state, melees=(*state.melees, m))


def fold_melee_resolved(state: GameState, e: MeleeResolved | MeleeCancelled) -> GameState:
    key = (e.attacker, e.defender)
    return replace(state, melees=tuple(m for m in state.melees if (m.attacker, m.defender) != key))


def fold_melees_cleared(state: GameState, e: MeleesCleared) -> GameState:
    gone = set(e.units)
    return replace(
        state,
        melees=tuple(m for m in state.melees if m.attacker not in gone and m.defender not in gone),
    )


def fold_follow_up_offered(state: GameState, e: FollowUpOffered) -> GameState:
    into = None if e.x is None or e.y is None else Vec(e.x, e.y)
    f = FollowUp(e.unit, into, e.mandatory)
    rest = tuple(x for x in state.follow_ups if x.unit != f.unit)
    return replace(state, follow_ups=(*rest, f))


def fold_follow_up_closed(state: GameState, e: FollowUpClosed) -> GameState:
    return replace(state, follow_ups=tuple(x for x in state.follow_ups if x.unit != e.unit))


def fold_reinforcement_rolled(state: GameState, e: ReinforcementRolled) -> GameState:
    return replace(state, reinforcement_rolls=state.reinforcement_rolls + 1)


def fold_rp_chosen(state: GameState, e: RpChosen) -> GameState:
    rp = ReinforcementPoint(e.id, e.side, e.kind_, Vec(e.x, e.y), tuple(e.queue))
    return replace(state, rps=(*state.rps, rp), setup_step=e.next_step or state.setup_step)


def fold_rp_dequeued(state: GameState, e: RpDequeued) -> GameState:
    rps = tuple(
        replace(r, queue=tuple(u for u in r.queue if u != e.unit)) if r.id == e.rp else r
        for r in state.rps
    )
    return replace(state, rps=rps)


def fold_roles(state: GameState, e: Roles) -> GameState:
    return replace(
        state,
        attacker=e.attacker,
        defender=e.defender,
        extra_ap=e.extra_ap,
        setup_step=e.next_step or state.setup_step,
    )


def fold_setup_step(state: GameState, e: SetupStep) -> GameState:
    return replace(state, setup_step=e.step)


def fold_phase(state: GameState, e: PhaseBegan) -> GameState:
    return _new_phase(state, e.stage, e.turn, e.phase_index)


def fold_game_over(state: GameState, e: GameOver) -> GameState:
    return replace(state, stage="over", winner=e.winner)


FOLDS: Mapping[type[Any], Callable[[GameState, Any], GameState]] = {
    **{c: fold_unit for c in UNIT_EVENTS.values()},
    MeleePending: fold_melee_pending,
    MeleeResolved: fold_melee_resolved,
    MeleeCancelled: fold_melee_resolved,
    MeleesCleared: fold_melees_cleared,
    FollowUpOffered: fold_follow_up_offered,
    FollowUpClosed: fold_follow_up_closed,
    ReinforcementRolled: fold_reinforcement_rolled,
    RpChosen: fold_rp_chosen,
    RpDequeued: fold_rp_dequeued,
    Roles: fold_roles,
    SetupStep: fold_setup_step,
    PhaseBegan: fold_phase,
    GameOver: fold_game_over,
}


def apply_event(state: GameState, event: Any) -> GameState:
    """Fold one typed event into the state."""
    f = FOLDS.get(type(event))
    if f is None:
        raise ValueError(f"unknown 2 by 2 event {getattr(event, 'kind', event)!r}")
    return f(state, event)


def _cleared_for_move(u: Any, mover: str, shooter: str, new_turn: bool) -> Any:
    """A unit at the start of a move phase (see :func:`_new_phase`); itself, not a copy, if
    no marker of it changes (a phase then copies only the units it changes)."""
    ch: dict[str, Any] = {}
    if u.side == mover:
        if u.moved:
            ch["moved"] = False
        if u.spent != 0.0:
            ch["spent"] = 0.0
        if u.turned:
            ch["turned"] = False
        if u.straight_run != 0.0:
            ch["straight_run"] = 0.0
        if not u.road_only:
            ch["road_only"] = True
    if u.side == shooter and u.shot:
        ch["shot"] = False
    if new_turn:
        if u.through_town:
            ch["through_town"] = False
        if u.countercharged:
            ch["countercharged"] = False
    return replace(u, **ch) if ch else u


def _new_phase(state: GameState, stage: str, turn: int, index: int) -> GameState:
    """Enter a phase; clear the markers that last one phase (2 by 2, Sequence of play).

    * a move phase: the phasing side's ``moved`` and relative-move markers are cleared (an
      arrived reinforcement keeps its ``entry`` until it enters: never stranded), the reinforcement
      rolls counted afresh, and the *non-phasing* side's ``shot`` markers cleared: its one shot
      of the turn falls in this half-turn (reaction fire now, or the shooting phase that
      follows); at the first phase of a turn every unit's ``through_town`` and
      ``countercharged`` are cleared ("cavalry may not move to contact on the same turn it
      moves through a town");
    * a rally phase clears ``rallied``; a melee phase clears ``meleed``.
    """
    st = replace(state, stage=stage, turn=turn, phase_index=index)
    if stage != "battle":
        return st
    kind = PHASES[index][0]
    units = st.units
    if kind == "move":
        mover = st.player_order[PHASES[index][2]]
        shooter = st.player_order[1 - PHASES[index][2]]
        new_turn = index == 0
        units = tuple(_cleared_for_move(u, mover, shooter, new_turn) for u in units)
        st = replace(st, reinforcement_rolls=0)
    elif kind == "rally":
        units = tuple(replace(u, rallied=False) if u.rallied else u for u in units)
    elif kind == "melee":
        units = tuple(replace(u, meleed=False) if u.meleed else u for u in units)
    return replace(st, units=units, follow_ups=())
