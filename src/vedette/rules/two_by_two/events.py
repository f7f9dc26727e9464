"""Events of a 2 by 2 game: typed, versioned (the referee protocol), and their folds.

* A unit event (``moved``, ``pinned``, ``disrupted``, ``rallied``, ``routed``, ``destroyed``,
  ``shot``, ``arrived``, ``deployed``, ``placed``, ``formation``, ``screen``, ``faced``,
  ``marker``, ``repulsed``, ``recoiled``, ``followed_up``, ``meleed``) is the core's patch of
  one unit (:mod:`vedette.rules.patch`): the fields it sets and what they were, folded by the
  core. Version 3; versions 2 (release 0.2) and 1 (release 0.1) are upgraded on reading
  (:class:`UnitPatch`: one step per version).
* The others (pending melees, follow-ups, reinforcement points, roles, phases, the end) keep
  the field names of version 1, which is their current version.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from vedette.errors import VedetteError
from vedette.geometry.tabletop import Body, Vec
from vedette.rules.evolve import evolve as replace
from vedette.rules.evolve import evolved
from vedette.rules.patch import Entities, Patch, fold_patch, patch_kinds
from vedette.rules.protocol import DomainEvent
from vedette.rules.two_by_two.model import (
    PHASES,
    FollowUp,
    GameState,
    PendingMelee,
    ReinforcementPoint,
    Unit,
)


def _body_json(b: Body | None) -> dict[str, float] | None:
    """A unit's position as a patch logs it: centre (mm) and facing (degrees), to 3 places;
    null when the unit has none (destroyed, cleared, stated play)."""
    if b is None:
        return None
    return {"x": round(b.centre.x, 3), "y": round(b.centre.y, 3), "facing": round(b.facing, 3)}


def _body(state: GameState, p: Any) -> Body | None:
    if p is None:
        return None
    if not isinstance(p, Mapping):
        raise VedetteError("a unit's body is logged as {x, y, facing} or null")
    return Body(Vec(float(p["x"]), float(p["y"])), float(p["facing"]), state.rules.footprint)


def _put_unit(state: GameState, uid: str, values: Mapping[str, Any]) -> GameState:
    if "spent" in values:  # a step of its move (:func:`_free_turn`)
        return state.with_unit_values(uid, {**values, "turned_last": _free_turn(values)})
    return state.with_unit(uid, **values)


def _free_turn(values: Mapping[str, Any]) -> bool:
    """Whether a step of a unit's move (a patch setting what it has spent) was a free turn:
    it turned and did not move (reading 33). Folded as the unit's ``turned_last`` (``todo``
    offers no turn again straight after one), worked out from the step's own fields so that
    the steps log what they logged in release 0.2 (its saved games import as they were)."""
    return "moved" not in values and values.get("turned") is True


#: how a game holds its units, for the core's patch fold (vedette.rules.patch)
ENTITIES = {
    "unit": Entities(
        Unit, GameState.unit, _put_unit, read={"body": _body}, write={"body": _body_json}
    )
}


class UnitPatch(Patch):
    """A change to one unit: the fields it sets (``body``: its position, null off the table).

    Version 3 is the core patch. Version 2 (release 0.2) had a field per marker (``None``:
    unchanged) with ``position``/``off_table`` and ``entry_cleared``; version 1 (release 0.1)
    ``{"unit", "set": {...}}`` with the position as ``body``."""

    __slots__ = ()
    entity: ClassVar[str] = "unit"
    version: ClassVar[int] = 3

    @classmethod
    def upgrade_v1(cls, data: dict[str, Any]) -> dict[str, Any]:
        """Version 1 to 2: the position as ``position`` (or ``off_table``), a cleared entry
        as ``entry_cleared``."""
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

    @classmethod
    def upgrade_v2(cls, data: dict[str, Any]) -> dict[str, Any]:
        """Version 2 to 3: the fields given (not None) as the patch's ``set``; its previous
        values were not recorded."""
        d = dict(data)
        uid = d.pop("unit")
        changes: dict[str, Any] = {}
        if d.pop("off_table", False):
            changes["body"] = None
        position = d.pop("position", None)
        if position is not None:
            changes["body"] = {k: position[k] for k in ("x", "y", "facing")}
        if d.pop("entry_cleared", False):
            changes["entry"] = ""
        changes.update((k, v) for k, v in d.items() if v is not None)
        return {"entity": "unit", "id": uid, "set": changes}


#: the unit events by kind: each a name the log shows for the one patch of a unit
UNIT_EVENTS: dict[str, type[UnitPatch]] = patch_kinds(
    UnitPatch,
    "moved pinned disrupted rallied routed destroyed shot arrived deployed corrected placed"
    " formation screen faced marker repulsed recoiled followed_up meleed",
)


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


@dataclass(frozen=True, slots=True)
class FactsHeld(DomainEvent):
    """Stated play: the facts of a unit's own ground an action ruled on (stated, or their
    default), held until the melee phase ends (reading 54); ``None``: not ruled on.
    ``town`` and ``woods``: in a town, in woods/rough (a melee); ``hq_contact``: an HQ in base
    contact (a melee, a shot's firer); ``in_cover``: an infantry target in woods/rough or town
    (a shot)."""

    kind: ClassVar[str] = "facts_held"
    unit: str
    town: bool | None = None
    woods: bool | None = None
    hq_contact: bool | None = None
    in_cover: bool | None = None


#: the facts :class:`FactsHeld` holds, by field name
HELD_FACTS = ("town", "woods", "hq_contact", "in_cover")


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
    FactsHeld,
)
EVENTS: tuple[type[DomainEvent], ...] = (*UNIT_EVENTS.values(), *OTHER_EVENTS)


def unit_event(kind: str, uid: str, **changes: Any) -> UnitPatch:
    """An event changing one unit (a ``body`` given as a Body, or None; ``corrected``: a
    position corrected by the player, ``place`` of a unit on the table, not a move of the
    rules)."""
    unit = ENTITIES["unit"]
    if not changes.keys() <= unit.fields:
        raise ValueError(f"unit has no field {sorted(set(changes) - unit.fields)[0]!r}")
    if "body" in changes:
        changes["body"] = _body_json(changes["body"])
    return UNIT_EVENTS[kind](uid, changes)


# -- folds -----------------------------------------------------------------------------------
_UNIT_FIELDS = ENTITIES["unit"].fields


def fold_unit(state: GameState, e: UnitPatch) -> GameState:
    """A unit's patch folded as the core folds it (:func:`vedette.rules.patch.fold_patch`:
    each field name checked, the body read back from its logged form, the unit's fields set),
    without the core's dispatch (a game folds one at nearly every step; issue 29)."""
    s = e.set_
    if not s.keys() <= _UNIT_FIELDS:
        bad = sorted(k for k in s if k not in _UNIT_FIELDS)
        raise VedetteError(f"event {e.kind!r}: a unit has no field {bad[0]!r}")
    if state.held and e.kind in _LEAVES:
        state = _released(state, e.id)
    if "body" in s or "spent" in s:
        return state.with_unit_values(e.id, unit_values(state, s))
    return state.with_unit_values(e.id, s)


#: the unit patches that move a unit (or take it off the table): the facts of its ground held
#: are released (reading 54)
_LEAVES = frozenset(
    {
        *("moved", "routed", "destroyed", "arrived", "deployed", "corrected", "placed"),
        *("repulsed", "recoiled", "followed_up"),
    }
)


def _released(state: GameState, uid: str) -> GameState:
    """``state`` with the facts held for unit ``uid`` released, and, when it is an HQ, every
    HQ contact held for a unit of its side (reading 54)."""
    u = state.unit(uid)
    hq = state.utype(u).is_hq
    held = tuple(
        h
        for h in state.held
        if h[0] != uid and not (hq and h[1] == "hq_contact" and state.unit(h[0]).side == u.side)
    )
    return replace(state, held=held)


def fold_facts_held(state: GameState, e: FactsHeld) -> GameState:
    new = {(e.unit, f): v for f in HELD_FACTS if (v := getattr(e, f)) is not None}
    kept = tuple(h for h in state.held if (h[0], h[1]) not in new)
    return replace(state, held=(*kept, *((u, f, v) for (u, f), v in new.items())))


def unit_values(state: GameState, s: Mapping[str, Any], body: Body | None = None) -> dict[str, Any]:
    """The values a unit's patch setting ``s`` (its fields as logged, checked) gives the unit:
    the body read back from its logged form (``body``: that very body, when the caller has
    read it back already, as the simulator's relative step has), and for a step of its move
    (a patch setting what it has spent) whether it was a free turn (``turned_last``)."""
    values = dict(s)
    if "body" in s:
        values["body"] = _body(state, values["body"]) if body is None else body
    if "spent" in s:  # a step of its move
        values["turned_last"] = _free_turn(s)
    return values


def fold_melee_pending(state: GameState, e: MeleePending) -> GameState:
    m = PendingMelee(e.attacker, e.defender, e.counter_charge)
    if m in state.melees:
        return state
    charged = state.charged
    in_move = state.stage == "battle" and state.phase == "move"
    if in_move and not e.counter_charge and e.attacker not in charged:
        charged = (*charged, e.attacker)  # its move ended in contact (reading 37)
    return replace(state, melees=(*state.melees, m), charged=charged)


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
    FactsHeld: fold_facts_held,
    **dict.fromkeys(UNIT_EVENTS.values(), fold_unit),
}


def apply_event(state: GameState, event: Any) -> GameState:
    """Fold one typed event into the state (a unit's patch by the core's one fold)."""
    f = FOLDS.get(type(event))
    if f is None:
        if isinstance(event, UnitPatch):
            return fold_patch(state, event, ENTITIES)
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
        if u.turned_last:
            ch["turned_last"] = False
        if not u.road_only:
            ch["road_only"] = True
        if u.bridged:
            ch["bridged"] = False
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
    if stage != "battle":
        return replace(state, stage=stage, turn=turn, phase_index=index)
    kind = PHASES[index][0]
    old = state.units
    units = old
    changes: dict[str, Any] = {"stage": stage, "turn": turn, "phase_index": index}
    if kind == "move":
        order = state.player_order  # (the roles: the same in the new phase)
        mover = order[PHASES[index][2]]
        shooter = order[1 - PHASES[index][2]]
        new_turn = index == 0
        units = tuple(_cleared_for_move(u, mover, shooter, new_turn) for u in old)
        changes["reinforcement_rolls"] = 0
    elif kind == "rally":
        units = tuple(replace(u, rallied=False) if u.rallied else u for u in old)
    elif kind == "melee":
        units = tuple(replace(u, meleed=False) if u.meleed else u for u in old)
    # the units tuple kept when no unit changed (its index, built once per tuple, stands)
    if units is not old and any(a is not b for a, b in zip(units, old, strict=True)):
        changes["units"] = units
    changes["follow_ups"] = ()
    if state.held and kind == "move":  # (stated: held until the melee phase ends, reading 54)
        changes["held"] = ()
    if state.charged:
        changes["charged"] = ()
    return evolved(state, changes)
