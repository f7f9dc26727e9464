"""The events of a Kuryakin game: domain facts named from the rules, typed and versioned.

Each event says what happened (a unit ``Moved``, ``Fired``, took ``CasualtiesTaken``, its
``MoraleFailed``, a ``ChargeDeclared``, a ``GeneralKilled``, the ``CardsDealt`` ...): it is the
core's patch event (:mod:`vedette.rules.patch`) of a unit, a general or the turn, named for
the fact, with the values it left (``set``), what they were (``was``, recorded by the engine)
and the referee's words (``why``). Every kind declares the fields it may change (``touches``):
a procedure cannot record a fact under the wrong name (``Changes`` refuses it), and an imported
log cannot smuggle a change under one (decoding refuses it, one line naming the event and the
field). The core folds them all by its one fold (the entities are in common.py).

Upgrade ladder: version 1 (release 0.2) named the subject ``unit``/``general`` (the turn had
none) and is turned into the patch's ``entity``/``id`` by ``upgrade_v1``. Release 0.1 and the
first protocol release logged field patches (``unit_changed``, ``general_changed``,
``game_changed``, versions 1 and 2): they are still decoded (``upgrade_v1`` fills ``why``,
``upgrade_v2`` names the entity) and folded the same way, so old saved games replay to the same
state.
"""

from __future__ import annotations

from typing import Any, ClassVar

from vedette.rules.patch import Patch, patch_kind


class Fact(Patch):
    """Base of the game's facts (version 2: the core patch)."""

    __slots__ = ()
    version: ClassVar[int] = 2

    @classmethod
    def upgrade_v1(cls, data: dict[str, Any]) -> dict[str, Any]:
        """Version 1 to 2: the subject (``unit``, ``general``, none for the turn) as the
        patch's ``entity`` and ``id``."""
        d = dict(data)
        return {"entity": cls.entity, "id": d.pop(cls.entity, ""), **d}


class UnitFact(Fact):
    """Something that happened to one unit: ``set`` holds the values it left."""

    __slots__ = ()
    entity: ClassVar[str] = "unit"


class GeneralFact(Fact):
    """Something that happened to one general: ``set`` holds the values it left."""

    __slots__ = ()
    entity: ClassVar[str] = "general"


class TurnFact(Fact):
    """Something that happened to the turn (phase, cards, chance cards): ``set`` as JSON."""

    __slots__ = ()
    entity: ClassVar[str] = "turn"


class Changed(Patch):
    """A unit's, a general's or the turn's fields changed, with what they were and why: how
    the first releases logged every change (legacy). Still read (old saved games), never
    written now: the procedures record domain facts."""

    __slots__ = ()
    version: ClassVar[int] = 3

    @classmethod
    def upgrade_v1(cls, data: dict[str, Any]) -> dict[str, Any]:
        """Version 1 (release 0.1, untyped) to 2: ``was`` and ``why`` filled."""
        return {"was": {}, "why": "", **data} if cls.entity != "turn" else {"why": "", **data}

    @classmethod
    def upgrade_v2(cls, data: dict[str, Any]) -> dict[str, Any]:
        """Version 2 to 3: the patch's ``entity`` named."""
        return {"entity": cls.entity, "id": "", **data}


def _unit(kind: str, doc: str, touches: str) -> type[UnitFact]:
    return patch_kind(UnitFact, kind, doc, touches)


def _general(kind: str, doc: str, touches: str) -> type[GeneralFact]:
    return patch_kind(GeneralFact, kind, doc, touches)


def _turn(kind: str, doc: str, touches: str) -> type[TurnFact]:
    return patch_kind(TurnFact, kind, doc, touches)


# -- a unit's facts ---------------------------------------------------------------------------
Placed = _unit(
    "placed", "Set out on the table (position, facing, frontage, depth).", "x y facing width depth"
)
CommandChecked = _unit(
    "command_checked",
    "Kuryakin, Generals (control phase): in or out of command control.",
    "in_command",
)
ActivationEnded = _unit(
    "activation_ended", "Kuryakin, Move Sequence: its card is finished, it has acted.", "acted"
)
StandstillTested = _unit(
    "standstill_tested",
    "Kuryakin, Moving From A Standstill: it moves off, or stays where it is for the turn.",
    "bound advancing start_failed standstill_tests",
)
Halted = _unit(
    "halted",
    "Kuryakin, Moving From A Standstill: the advance stops.",
    "advancing standstill_tests",
)
Moved = _unit(
    "moved",
    "Kuryakin, Random Movement: a move (distance, swerve, the chits a move costs, the units it"
    " runs into).",
    "bound moved_mm move_done advancing x y facing disorder collided standstill_tests",
)
FormationChanged = _unit(
    "formation_changed",
    "Kuryakin, Formation Changing: formed, or still changing (quarters carried over).",
    "formation formation_target formation_quarters front moved_mm width formation_changes",
)
Disordered = _unit(
    "disordered",
    "Kuryakin, Disorder: 'D' chits added (or taken away by the player's word); a collision's"
    " owed chits rolled (or waived).",
    "disorder collided",
)
Reformed = _unit(
    "reformed",
    "Kuryakin, Disorder: a whole turn spent reforming, chits removed.",
    "disorder acted reformed",
)
Fired = _unit(
    "fired",
    "Kuryakin, Firing: the unit fired (volleys, skirmish fire or a battery).",
    "fired volleys_fired disorder bound",
)
CasualtiesTaken = _unit(
    "casualties_taken",
    "Kuryakin, Firing/Determining Casualties: figures lost, special figures hit.",
    "figures casualties_turn officer musician standard status",
)
MoraleMarked = _unit(
    "morale_marked",
    "Kuryakin, Movement: a marker directs a morale test (with the facts the game knows).",
    "morale_due restricted_to morale_facts",
)
MoraleHeld = _unit(
    "morale_held",
    "Kuryakin, Morale: the test passed (or was waived).",
    "bound morale_due morale_facts",
)
MoraleFailed = _unit(
    "morale_failed",
    "Kuryakin, Morale: the test failed; the result chart's outcome (retire, rout ...).",
    "bound morale_due morale_facts morale_failed status disorder must_rally advancing "
    "charge_state charge_step",
)
Rallied = _unit(
    "rallied", "Kuryakin, Morale: rallied (the rout or retirement ends).", "must_rally status"
)
RallyFailed = _unit(
    "rally_failed",
    "Kuryakin, Morale: the rally failed (binds for the turn: one try per activation).",
    "rally_failed",
)
ChargeRefused = _unit(
    "charge_refused",
    "Kuryakin, Charge Test: will not charge (binds for the turn).",
    "charge_failed",
)
ChargeDeclared = _unit(
    "charge_declared",
    "Kuryakin, Charge Test: passed, the charge is on (its target and flank).",
    "charge_state charge_target advancing charge_step charge_flank",
)
ClosedUp = _unit(
    "closed_up",
    "Kuryakin, Charge Test: the charger moves up to its target (the units it runs into).",
    "x y facing moved_mm collided",
)
ChargedHome = _unit(
    "charged_home",
    "Kuryakin, Charge Home Test: in contact, melee follows.",
    "charge_state x y facing moved_mm collided",
)
ChargeHomeFailed = _unit(
    "charge_home_failed",
    "Kuryakin, Charge Home Test: halts (or falls back, a timid brigadier); binds.",
    "charge_state advancing x y moved_mm home_failed bound collided",
)
ChargeStep = _unit(
    "charge_step",
    "The guided charge held by the charger: the step owed next, the melee's rounds.",
    "charge_step charge_state charge_target melee_round melee_rounds home_failed",
)
MeleeRound = _unit(
    "melee_round",
    "Kuryakin, Melee: a round fought (1D each; the loser marked to test morale).",
    "disorder lost_melee morale_due",
)
Evaded = _unit(
    "evaded",
    "Kuryakin, Cavalry vs. Infantry: skirmishers evade (those caught ridden down; the units"
    " their evasion runs into).",
    "morale_due restricted_to x y figures casualties_turn status collided",
)
ChanceCardApplied = _unit(
    "chance_card_applied",
    "Kuryakin, Movement (chance cards): a card's effect falls on the unit, or is spent.",
    "bound disorder chance_effects charge_step charge_state",
)
TurnMarksCleared = _unit(
    "turn_marks_cleared",
    "Kuryakin, Move Sequence: the turn's marks come off (a change still under way: 1D).",
    "bound acted moved_mm move_done fired volleys_fired reformed casualties_turn "
    "restricted_to lost_melee morale_failed charge_state charge_target charge_step "
    "charge_failed charge_flank home_failed rally_failed melee_round melee_rounds "
    "morale_facts chance_effects start_failed morale_due disorder standstill_tests "
    "formation_changes",
)

# -- a general's facts ------------------------------------------------------------------------
GeneralRated = _general(
    "general_rated",
    "Kuryakin, Generals: TH, AV and Grade/CR rolled (or historical ratings entered).",
    "th av grade cr",
)
GeneralPlaced = _general("general_placed", "Set out on the table.", "x y")
GeneralMoved = _general(
    "general_moved",
    "Kuryakin, Generals: an unattached general rides (his move this turn), or goes with the "
    "unit he is attached to (Firing: attached generals are in its front rank).",
    "x y moved_mm",
)
GeneralAttached = _general(
    "general_attached",
    "Kuryakin, Firing: attached to a unit (its front rank), or detached.",
    "attached_to",
)
GeneralKilled = _general(
    "general_killed",
    "Kuryakin, Firing/Determining Casualties: hit with his unit and failed his save.",
    "killed attached_to",
)

# -- the turn's facts -------------------------------------------------------------------------
ControlRolled = _turn(
    "control_rolled",
    "Kuryakin, Generals: the control phase's rolls; the cards come next.",
    "control phase",
)
CardsDealt = _turn(
    "cards_dealt",
    "Kuryakin, Move Sequence: activation cards dealt and revealed, chance cards drawn.",
    "cards deck_size phase active done chance chance_played",
)
CardActivated = _turn(
    "card_activated",
    "Kuryakin, Move Sequence: the next card acts (or every card has acted).",
    "done active phase",
)
QueueJumped = _turn(
    "queue_jumped",
    "Kuryakin, Movement: a unit attacked with intent to melee jumps the card queue.",
    "cards",
)
ChanceCardPlayed = _turn(
    "chance_card_played",
    "Kuryakin, Movement (chance cards): a side plays its card.",
    "chance_played",
)
MeleeProlonged = _turn(
    "melee_prolonged",
    "Kuryakin, Melee: the loser held; the further rounds rolled (noted in the game's history).",
    "history",
)
TurnEnded = _turn(
    "turn_ended",
    "Kuryakin, Move Sequence: the turn ends; the next begins with the control phase.",
    "turn phase control cards deck_size active done chance chance_played",
)


# -- the legacy field patches (release 0.1 and the first protocol release) -------------------
UnitChanged = patch_kind(
    Changed, "unit_changed", "A unit's fields changed (legacy).", entity="unit"
)
GeneralChanged = patch_kind(
    Changed, "general_changed", "A general's fields changed (legacy).", entity="general"
)
GameChanged = patch_kind(
    Changed, "game_changed", "The turn's fields changed (legacy).", entity="turn"
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
LEGACY_EVENTS: tuple[type[Changed], ...] = (UnitChanged, GeneralChanged, GameChanged)
EVENTS: tuple[type[Patch], ...] = (*UNIT_FACTS, *GENERAL_FACTS, *TURN_FACTS, *LEGACY_EVENTS)
