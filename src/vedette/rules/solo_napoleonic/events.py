"""The events of a Kuryakin game: domain facts named from the rules, typed and versioned.

Each event says what happened (a unit ``Moved``, ``Fired``, took ``CasualtiesTaken``, its
``MoraleFailed``, a ``ChargeDeclared``, a ``GeneralKilled``, the ``CardsDealt`` ...) and carries
the values it left on the unit, general or turn (``set``), what they were (``was``) and the
referee's words (``why``). Every kind declares the fields it may change (``touches``): a
procedure cannot record a fact under the wrong name (``Changes`` refuses it), and an imported
log cannot smuggle a change under one (decoding refuses it, one line naming the event and the
field). The ruleset folds them all by the same three folds (unit, general, turn).

Release 0.1 and the first protocol release logged field patches (``unit_changed``,
``general_changed``, ``game_changed``): they are still decoded and folded the same way, so old
saved games replay to the same state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from vedette.errors import VedetteError
from vedette.rules.fields import to_json as _json
from vedette.rules.protocol import DomainEvent

_SCALARS = frozenset({str, int, float, bool, type(None)})


def _changes(cls: type[Fact], data: Mapping[str, Any], game: bool = False) -> dict[str, Any]:
    """The ``set`` of a logged fact: only fields its kind may change; a unit's or general's
    values are JSON scalars or lists of them (a list is the tuple the state holds)."""
    s = data.get("set")
    if type(s) is not dict:
        raise VedetteError(f"event {cls.kind!r}: 'set' must be a table of changes")
    if not s.keys() <= cls.touches:
        bad = sorted(k for k in s if k not in cls.touches)
        raise VedetteError(f"event {cls.kind!r} cannot change {bad[0]!r}")
    out = dict(s)  # the event's own (the record's payload stays the record's)
    if game:
        return out
    for k, v in s.items():
        if type(v) in _SCALARS:
            continue
        if isinstance(v, list | tuple) and all(type(x) in _SCALARS for x in v):
            out[k] = tuple(v)
            continue
        raise VedetteError(f"event {cls.kind!r}: '{k}' is not a value a unit or general holds")
    return out


def _fields(cls: type[Fact], data: Mapping[str, Any], keys: frozenset[str], who: str) -> Any:
    """Check a logged fact's fields; its subject (``who``: the unit or general id)."""
    if not data.keys() <= keys:
        bad = sorted(k for k in data if k not in keys)
        raise VedetteError(f"event {cls.kind!r} has no field {bad[0]!r}")
    for k in (who, "why"):
        v = data.get(k, "")
        if type(v) is not str:
            raise VedetteError(f"event {cls.kind!r}: '{k}' must be text")
    was = data.get("was", {})
    if type(was) is not dict:
        raise VedetteError(f"event {cls.kind!r}: 'was' must be a table")
    return data.get(who, ""), was


_UNIT_KEYS = frozenset({"unit", "set", "was", "why"})
_GENERAL_KEYS = frozenset({"general", "set", "was", "why"})
_TURN_KEYS = frozenset({"set", "why"})


@dataclass(frozen=True, slots=True)
class Fact(DomainEvent):
    """Base of the game's facts: the fields a kind may change."""

    touches: ClassVar[frozenset[str]] = frozenset()


# -- a unit's facts ---------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class UnitFact(Fact):
    """Something that happened to one unit: ``set`` holds the values it left."""

    unit: str
    set_: dict[str, Any]
    was: dict[str, Any] = field(default_factory=dict)
    why: str = ""

    @classmethod
    def decode(cls, data: Mapping[str, Any]) -> UnitFact:
        uid, was = _fields(cls, data, _UNIT_KEYS, "unit")
        return cls(uid, _changes(cls, data), was, data.get("why", ""))

    def to_json(self) -> dict[str, Any]:
        """What ``DomainEvent.to_json`` gives, its four fields written out (every action's
        events are logged)."""
        data = {"unit": _json(self.unit), "set": _json(self.set_), "was": _json(self.was)}
        data["why"] = _json(self.why)
        return {"kind": self.kind, "v": self.version, "data": data}


@dataclass(frozen=True, slots=True)
class Placed(UnitFact):
    """Set out on the table (position, facing, frontage, depth)."""

    kind: ClassVar[str] = "placed"
    touches: ClassVar[frozenset[str]] = frozenset({"x", "y", "facing", "width", "depth"})


@dataclass(frozen=True, slots=True)
class CommandChecked(UnitFact):
    """Kuryakin, Generals (control phase): in or out of command control."""

    kind: ClassVar[str] = "command_checked"
    touches: ClassVar[frozenset[str]] = frozenset({"in_command"})


@dataclass(frozen=True, slots=True)
class ActivationEnded(UnitFact):
    """Kuryakin, Move Sequence: its card is finished, it has acted."""

    kind: ClassVar[str] = "activation_ended"
    touches: ClassVar[frozenset[str]] = frozenset({"acted"})


@dataclass(frozen=True, slots=True)
class StandstillTested(UnitFact):
    """Kuryakin, Moving From A Standstill: it moves off, or stays where it is for the turn."""

    kind: ClassVar[str] = "standstill_tested"
    touches: ClassVar[frozenset[str]] = frozenset({"bound", "advancing", "start_failed"})


@dataclass(frozen=True, slots=True)
class Halted(UnitFact):
    """Kuryakin, Moving From A Standstill: the advance stops."""

    kind: ClassVar[str] = "halted"
    touches: ClassVar[frozenset[str]] = frozenset({"advancing"})


@dataclass(frozen=True, slots=True)
class Moved(UnitFact):
    """Kuryakin, Random Movement: a move (distance, swerve, the chits a move costs)."""

    kind: ClassVar[str] = "moved"
    touches: ClassVar[frozenset[str]] = frozenset(
        {"bound", "moved_mm", "move_done", "advancing", "x", "y", "disorder"}
    )


@dataclass(frozen=True, slots=True)
class FormationChanged(UnitFact):
    """Kuryakin, Formation Changing: formed, or still changing (quarters carried over)."""

    kind: ClassVar[str] = "formation_changed"
    touches: ClassVar[frozenset[str]] = frozenset(
        {"formation", "formation_target", "formation_quarters", "front", "moved_mm", "width"}
    )


@dataclass(frozen=True, slots=True)
class Disordered(UnitFact):
    """Kuryakin, Disorder: 'D' chits added (or taken away by the player's word)."""

    kind: ClassVar[str] = "disordered"
    touches: ClassVar[frozenset[str]] = frozenset({"disorder"})


@dataclass(frozen=True, slots=True)
class Reformed(UnitFact):
    """Kuryakin, Disorder: a whole turn spent reforming, chits removed."""

    kind: ClassVar[str] = "reformed"
    touches: ClassVar[frozenset[str]] = frozenset({"disorder", "acted", "reformed"})


@dataclass(frozen=True, slots=True)
class Fired(UnitFact):
    """Kuryakin, Firing: the unit fired (volleys, skirmish fire or a battery)."""

    kind: ClassVar[str] = "fired"
    touches: ClassVar[frozenset[str]] = frozenset({"fired", "volleys_fired", "disorder", "bound"})


@dataclass(frozen=True, slots=True)
class CasualtiesTaken(UnitFact):
    """Kuryakin, Firing/Determining Casualties: figures lost, special figures hit."""

    kind: ClassVar[str] = "casualties_taken"
    touches: ClassVar[frozenset[str]] = frozenset(
        {"figures", "casualties_turn", "officer", "musician", "standard", "status"}
    )


@dataclass(frozen=True, slots=True)
class MoraleMarked(UnitFact):
    """Kuryakin, Movement: a marker directs a morale test (with the facts the game knows)."""

    kind: ClassVar[str] = "morale_marked"
    touches: ClassVar[frozenset[str]] = frozenset({"morale_due", "restricted_to", "morale_facts"})


@dataclass(frozen=True, slots=True)
class MoraleHeld(UnitFact):
    """Kuryakin, Morale: the test passed (or was waived)."""

    kind: ClassVar[str] = "morale_held"
    touches: ClassVar[frozenset[str]] = frozenset({"bound", "morale_due", "morale_facts"})


@dataclass(frozen=True, slots=True)
class MoraleFailed(UnitFact):
    """Kuryakin, Morale: the test failed; the result chart's outcome (retire, rout ...)."""

    kind: ClassVar[str] = "morale_failed"
    touches: ClassVar[frozenset[str]] = frozenset(
        {
            "bound",
            "morale_due",
            "morale_facts",
            "morale_failed",
            "status",
            "disorder",
            "must_rally",
            "advancing",
            "charge_state",
            "charge_step",
        }
    )


@dataclass(frozen=True, slots=True)
class Rallied(UnitFact):
    """Kuryakin, Morale: rallied (the rout or retirement ends)."""

    kind: ClassVar[str] = "rallied"
    touches: ClassVar[frozenset[str]] = frozenset({"must_rally", "status"})


@dataclass(frozen=True, slots=True)
class RallyFailed(UnitFact):
    """Kuryakin, Morale: the rally failed (binds for the turn: one try per activation)."""

    kind: ClassVar[str] = "rally_failed"
    touches: ClassVar[frozenset[str]] = frozenset({"rally_failed"})


@dataclass(frozen=True, slots=True)
class ChargeRefused(UnitFact):
    """Kuryakin, Charge Test: will not charge (binds for the turn)."""

    kind: ClassVar[str] = "charge_refused"
    touches: ClassVar[frozenset[str]] = frozenset({"charge_failed"})


@dataclass(frozen=True, slots=True)
class ChargeDeclared(UnitFact):
    """Kuryakin, Charge Test: passed, the charge is on (its target and flank)."""

    kind: ClassVar[str] = "charge_declared"
    touches: ClassVar[frozenset[str]] = frozenset(
        {"charge_state", "charge_target", "advancing", "charge_step", "charge_flank"}
    )


@dataclass(frozen=True, slots=True)
class ClosedUp(UnitFact):
    """Kuryakin, Charge Test: the charger moves up to its target."""

    kind: ClassVar[str] = "closed_up"
    touches: ClassVar[frozenset[str]] = frozenset({"x", "y", "facing", "moved_mm"})


@dataclass(frozen=True, slots=True)
class ChargedHome(UnitFact):
    """Kuryakin, Charge Home Test: in contact, melee follows."""

    kind: ClassVar[str] = "charged_home"
    touches: ClassVar[frozenset[str]] = frozenset({"charge_state", "x", "y", "facing", "moved_mm"})


@dataclass(frozen=True, slots=True)
class ChargeHomeFailed(UnitFact):
    """Kuryakin, Charge Home Test: halts (or falls back, a timid brigadier); binds."""

    kind: ClassVar[str] = "charge_home_failed"
    touches: ClassVar[frozenset[str]] = frozenset(
        {"charge_state", "advancing", "x", "y", "home_failed", "bound"}
    )


@dataclass(frozen=True, slots=True)
class ChargeStep(UnitFact):
    """The guided charge held by the charger: the step owed next, the melee's rounds."""

    kind: ClassVar[str] = "charge_step"
    touches: ClassVar[frozenset[str]] = frozenset(
        {
            "charge_step",
            "charge_state",
            "charge_target",
            "melee_round",
            "melee_rounds",
            "home_failed",
        }
    )


@dataclass(frozen=True, slots=True)
class MeleeRound(UnitFact):
    """Kuryakin, Melee: a round fought (1D each; the loser marked to test morale)."""

    kind: ClassVar[str] = "melee_round"
    touches: ClassVar[frozenset[str]] = frozenset({"disorder", "lost_melee", "morale_due"})


@dataclass(frozen=True, slots=True)
class Evaded(UnitFact):
    """Kuryakin, Cavalry vs. Infantry: skirmishers evade (those caught ridden down)."""

    kind: ClassVar[str] = "evaded"
    touches: ClassVar[frozenset[str]] = frozenset(
        {"morale_due", "restricted_to", "x", "y", "figures", "casualties_turn", "status"}
    )


@dataclass(frozen=True, slots=True)
class ChanceCardApplied(UnitFact):
    """Kuryakin, Movement (chance cards): a card's effect falls on the unit, or is spent."""

    kind: ClassVar[str] = "chance_card_applied"
    touches: ClassVar[frozenset[str]] = frozenset(
        {"bound", "disorder", "chance_effects", "charge_step", "charge_state"}
    )


@dataclass(frozen=True, slots=True)
class TurnMarksCleared(UnitFact):
    """Kuryakin, Move Sequence: the turn's marks come off (a change still under way: 1D)."""

    kind: ClassVar[str] = "turn_marks_cleared"
    touches: ClassVar[frozenset[str]] = frozenset(
        {
            "bound",
            "acted",
            "moved_mm",
            "move_done",
            "fired",
            "volleys_fired",
            "reformed",
            "casualties_turn",
            "restricted_to",
            "lost_melee",
            "morale_failed",
            "charge_state",
            "charge_target",
            "charge_step",
            "charge_failed",
            "charge_flank",
            "home_failed",
            "rally_failed",
            "melee_round",
            "melee_rounds",
            "morale_facts",
            "chance_effects",
            "start_failed",
            "morale_due",
            "disorder",
        }
    )


# -- a general's facts ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class GeneralFact(Fact):
    """Something that happened to one general: ``set`` holds the values it left."""

    general: str
    set_: dict[str, Any]
    was: dict[str, Any] = field(default_factory=dict)
    why: str = ""

    @classmethod
    def decode(cls, data: Mapping[str, Any]) -> GeneralFact:
        gid, was = _fields(cls, data, _GENERAL_KEYS, "general")
        return cls(gid, _changes(cls, data), was, data.get("why", ""))

    def to_json(self) -> dict[str, Any]:
        data = {"general": _json(self.general), "set": _json(self.set_), "was": _json(self.was)}
        data["why"] = _json(self.why)
        return {"kind": self.kind, "v": self.version, "data": data}


@dataclass(frozen=True, slots=True)
class GeneralRated(GeneralFact):
    """Kuryakin, Generals: TH, AV and Grade/CR rolled (or historical ratings entered)."""

    kind: ClassVar[str] = "general_rated"
    touches: ClassVar[frozenset[str]] = frozenset({"th", "av", "grade", "cr"})


@dataclass(frozen=True, slots=True)
class GeneralPlaced(GeneralFact):
    """Set out on the table."""

    kind: ClassVar[str] = "general_placed"
    touches: ClassVar[frozenset[str]] = frozenset({"x", "y"})


@dataclass(frozen=True, slots=True)
class GeneralMoved(GeneralFact):
    """Kuryakin, Generals: an unattached general rides (his move this turn), or goes with the
    unit he is attached to (Firing: attached generals are in its front rank)."""

    kind: ClassVar[str] = "general_moved"
    touches: ClassVar[frozenset[str]] = frozenset({"x", "y", "moved_mm"})


@dataclass(frozen=True, slots=True)
class GeneralAttached(GeneralFact):
    """Kuryakin, Firing: attached to a unit (its front rank), or detached."""

    kind: ClassVar[str] = "general_attached"
    touches: ClassVar[frozenset[str]] = frozenset({"attached_to"})


@dataclass(frozen=True, slots=True)
class GeneralKilled(GeneralFact):
    """Kuryakin, Firing/Determining Casualties: hit with his unit and failed his save."""

    kind: ClassVar[str] = "general_killed"
    touches: ClassVar[frozenset[str]] = frozenset({"killed", "attached_to"})


# -- the turn's facts -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TurnFact(Fact):
    """Something that happened to the turn (phase, cards, chance cards): ``set`` as JSON."""

    set_: dict[str, Any]
    why: str = ""

    @classmethod
    def decode(cls, data: Mapping[str, Any]) -> TurnFact:
        _fields(cls, data, _TURN_KEYS, "why")
        return cls(_changes(cls, data, game=True), data.get("why", ""))

    def to_json(self) -> dict[str, Any]:
        data = {"set": _json(self.set_), "why": _json(self.why)}
        return {"kind": self.kind, "v": self.version, "data": data}


@dataclass(frozen=True, slots=True)
class ControlRolled(TurnFact):
    """Kuryakin, Generals: the control phase's rolls; the cards come next."""

    kind: ClassVar[str] = "control_rolled"
    touches: ClassVar[frozenset[str]] = frozenset({"control", "phase"})


@dataclass(frozen=True, slots=True)
class CardsDealt(TurnFact):
    """Kuryakin, Move Sequence: activation cards dealt and revealed, chance cards drawn."""

    kind: ClassVar[str] = "cards_dealt"
    touches: ClassVar[frozenset[str]] = frozenset(
        {"cards", "deck_size", "phase", "active", "done", "chance", "chance_played"}
    )


@dataclass(frozen=True, slots=True)
class CardActivated(TurnFact):
    """Kuryakin, Move Sequence: the next card acts (or every card has acted)."""

    kind: ClassVar[str] = "card_activated"
    touches: ClassVar[frozenset[str]] = frozenset({"done", "active", "phase"})


@dataclass(frozen=True, slots=True)
class QueueJumped(TurnFact):
    """Kuryakin, Movement: a unit attacked with intent to melee jumps the card queue."""

    kind: ClassVar[str] = "queue_jumped"
    touches: ClassVar[frozenset[str]] = frozenset({"cards"})


@dataclass(frozen=True, slots=True)
class ChanceCardPlayed(TurnFact):
    """Kuryakin, Movement (chance cards): a side plays its card."""

    kind: ClassVar[str] = "chance_card_played"
    touches: ClassVar[frozenset[str]] = frozenset({"chance_played"})


@dataclass(frozen=True, slots=True)
class MeleeProlonged(TurnFact):
    """Kuryakin, Melee: the loser held; D3 further rounds (noted in the game's history)."""

    kind: ClassVar[str] = "melee_prolonged"
    touches: ClassVar[frozenset[str]] = frozenset({"history"})


@dataclass(frozen=True, slots=True)
class TurnEnded(TurnFact):
    """Kuryakin, Move Sequence: the turn ends; the next begins with the control phase."""

    kind: ClassVar[str] = "turn_ended"
    touches: ClassVar[frozenset[str]] = frozenset(
        {
            "turn",
            "phase",
            "control",
            "cards",
            "deck_size",
            "active",
            "done",
            "chance",
            "chance_played",
        }
    )


UNIT_FACTS: tuple[type[UnitFact], ...] = (
    Placed,
    CommandChecked,
    ActivationEnded,
    StandstillTested,
    Halted,
    Moved,
    FormationChanged,
    Disordered,
    Reformed,
    Fired,
    CasualtiesTaken,
    MoraleMarked,
    MoraleHeld,
    MoraleFailed,
    Rallied,
    RallyFailed,
    ChargeRefused,
    ChargeDeclared,
    ClosedUp,
    ChargedHome,
    ChargeHomeFailed,
    ChargeStep,
    MeleeRound,
    Evaded,
    ChanceCardApplied,
    TurnMarksCleared,
)
GENERAL_FACTS: tuple[type[GeneralFact], ...] = (
    GeneralRated,
    GeneralPlaced,
    GeneralMoved,
    GeneralAttached,
    GeneralKilled,
)
TURN_FACTS: tuple[type[TurnFact], ...] = (
    ControlRolled,
    CardsDealt,
    CardActivated,
    QueueJumped,
    ChanceCardPlayed,
    MeleeProlonged,
    TurnEnded,
)
