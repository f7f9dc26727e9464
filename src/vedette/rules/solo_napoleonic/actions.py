"""A unit's own actions: movement with random distance and swerve, moving from a standstill and
stopping an advance, formation changes, disorder chits and reforming (Kuryakin, Random
Movement; Formation Changing; Moving From A Standstill; Disorder), and setting out the table."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from vedette.dice import Check, DiceSource, Modifier, Odds, Roll
from vedette.dice.die import CUSTOM
from vedette.dice.tables import Table
from vedette.errors import BadRequest, RuleViolation
from vedette.geometry import tabletop as tt
from vedette.rules.base import Outcome
from vedette.rules.solo_napoleonic import geom
from vedette.rules.solo_napoleonic import requests as rq
from vedette.rules.solo_napoleonic.chance import R_CHANCE, chance_mods, effects_on, use_effects
from vedette.rules.solo_napoleonic.charging import bind_status, chargers
from vedette.rules.solo_napoleonic.common import (
    Changes,
    FDist,
    check_roll,
    floored_roll,
    modifier,
    mods,
    odds_of,
    officer_missing,
    optional_on,
)
from vedette.rules.solo_napoleonic.events import (
    Disordered,
    FormationChanged,
    GeneralAttached,
    GeneralMoved,
    GeneralPlaced,
    Halted,
    Moved,
    Placed,
    Reformed,
    StandstillTested,
)
from vedette.rules.solo_napoleonic.model import State, Unit, special_lost, updated

R_MOVE = "Kuryakin, Random Movement"
R_DIST = "Kuryakin, Move Distances"
R_FORM = "Kuryakin, Formation Changing"
R_STAND = "Kuryakin, Moving From A Standstill"
R_DIS = "Kuryakin, Disorder"
R_SEQ = "Kuryakin, Move Sequence"
R_ONE_MOVE = "Kuryakin, Move Sequence / Random Movement (one move per activation)"

MODES = ("advance", "move", "retire", "retreat", "pursuit", "rout")


# -- activation guard ---------------------------------------------------------------------------
def require_active(
    state: State, u: Unit, rule: str, action: str = "act", mode: str | None = None
) -> None:
    """A unit acts only on its card (or a controlled formation's card), once per turn; a
    routing unit only runs and one that must rally only rallies (charging.bind_status)."""
    if u.id not in state.active_units() and not rq.ANY_CARD.get():
        raise RuleViolation(
            R_SEQ, f"it is not {u.id}'s card (active: {state.active or 'none'}; run 'next')"
        )
    if u.acted:
        raise RuleViolation(rule, f"{u.id} has already acted this turn")
    if u.morale_due:
        raise RuleViolation(R_SEQ, f"{u.id} must test morale first")
    if not u.on_table:
        raise RuleViolation(rule, f"{u.id} is no longer on the table")
    bind_status(u, action, mode)
    no = charging_refusal(u, action) or failed_jumper_refusal(state, u, action)
    if no is not None:
        raise no


def failed_jumper_refusal(state: State, u: Unit, action: str) -> RuleViolation | None:
    """Reading K84 (Movement: a charged unit jumps the queue "and if they pass their morale
    test may act accordingly as the player sees fit"): a unit that jumped the queue and failed
    its test does not act on its card: its result's move is still made (``owed_move``), a
    routing unit still runs (reading K60), a retiring one retires and one that must rally
    rallies, but it neither moves, fires, changes formation, reforms nor tries to start or
    halt (a halted one fired and formed square as if it had held). ``[options]
    failed_jumper_acts = true``: it acts as its result allows."""
    if u.restricted_to is None or not u.morale_failed or state.config.options.failed_jumper_acts:
        return None
    if u.status == "routing" or u.must_rally:
        return None  # (it only runs, retires or rallies: ``bind_status`` holds it, K60)
    return RuleViolation(
        "Kuryakin, Movement",
        f"{u.id} jumped the queue and failed its morale test: it does not {action} this turn"
        " (only those who pass 'may act'; reading K84, [options] failed_jumper_acts)",
    )


def charging_refusal(u: Unit, action: str) -> RuleViolation | None:
    """Kuryakin, Charge Test: "units who charge do so in a straight line"; the attacker "moves
    up to the target" (close): a charger does nothing but charge, fire or fight (the refusal,
    or None). :func:`require_active` raises it; the simulator's quick check asks it too."""
    if u.charge_state in ("declared", "home") and action not in ("charge", "fire", "melee"):
        return RuleViolation(
            "Kuryakin, Charge Test",
            f"{u.id} is charging {u.charge_target}: it moves only in a straight line up to its"
            f" target ('close unit={u.id}'), it cannot {action}",
        )
    return None


# -- distances ----------------------------------------------------------------------------------
def base_move(state: State, u: Unit) -> float:
    row = state.config.move_distances.get(u.kind)
    if row is None:
        raise RuleViolation(R_DIST, f"no move distance for {u.kind}")
    form = u.formation
    if form not in row:
        form = next(iter(row))
    return row[form]


def musician_over_half(state: State, u: Unit, moved_mm: float) -> int:
    """Kuryakin, Disorder: "Unit moving over 1/2 and Musician dead 1D" (optional): the chits a
    move of ``u`` (not skirmishing: "they do not suffer disorder whilst unformed") owes when it
    leaves it ``moved_mm`` into its move; a player's move and the moves a charge makes alike."""
    if u.skirmishing or not optional_on(state, "musicians") or not special_lost(u, "musician"):
        return 0
    return state.config.disorder.musician_over_half if moved_mm > base_move(state, u) / 2 else 0


def random_die(state: State, u: Unit) -> str:
    return state.config.random_movement[u.kind]


def th_adjust(state: State, face: int, th: str | None) -> int:
    """Kuryakin, Random Movement: Below Average one step toward the nearest extreme, Above
    Average one step toward zero (0 stays 0 unless the data says otherwise)."""
    if th == "below_average":
        if face > 0:
            return face + 1
        if face < 0:
            return face - 1
        return 1 if state.config.options.below_average_zero == "up" else 0
    if th == "above_average":
        if face > 0:
            return face - 1
        if face < 0:
            return face + 1
    return face


def th_modified(state: State, roll: Roll, th: str | None) -> Roll:
    """The random movement die with the brigadier's Troop Handling step (:func:`th_adjust`) as
    a modifier of the roll, with its reason and rule: the roll's final figure is the one the
    move takes (the roll once said the bare die, the step only in the message)."""
    adj = th_adjust(state, roll.final, th)
    if adj == roll.final:
        return roll
    why = "one step from 0" if th == "below_average" else "one step toward 0"
    words = (th or "").replace("_", " ")
    return roll.but(
        modifiers=(Modifier(adj - roll.final, f"{words} brigadier's TH: {why}", R_MOVE),),
        final=adj,
    )


def brigadier_th(state: State, u: Unit) -> str | None:
    b = state.brigadier_of(u)
    return b.th if b is not None else None


def brigadier_av(state: State, u: Unit) -> str | None:
    b = state.brigadier_of(u)
    return b.av if b is not None else None


def random_check(state: State, u: Unit) -> Check:
    return Check(f"1{random_die(state, u)}", (), None, f"{u.id} random movement (cm)", R_MOVE)


def random_dist(state: State, u: Unit) -> FDist:
    die = CUSTOM[random_die(state, u)[1:]]
    th = brigadier_th(state, u)
    out: FDist = {}
    for f in die.faces:
        v = th_adjust(state, f, th)
        out[v] = out.get(v, Fraction(0)) + Fraction(1, die.sides)
    return out


def swerve_table(state: State) -> Table:
    return state.config.swerve


def swerve_check(state: State, u: Unit) -> Check:
    t = swerve_table(state)
    return Check(t.dice, (), t, f"{u.id} swerve", R_MOVE)


def swerve_distance_check(state: State, u: Unit) -> Check:
    """Random Movement: a swerving unit's "final position is then amended D6 centimetres"
    ([dice] swerve_distance)."""
    die = state.config.dice.swerve_distance_die
    return Check(die, (), None, f"{u.id} swerve distance (cm), after a 1 or a 6", R_MOVE)


def standstill_table(state: State, stopping: bool) -> Table:
    """Moving From A Standstill: the test to move off (``[tables.standstill]``) or to stop an
    advance (``[tables.standstill_halt]``)."""
    return state.config.standstill[stopping]


def standstill_check(state: State, u: Unit, stopping: bool) -> Check:
    av = brigadier_av(state, u)
    m = (
        *mods(modifier(state, "standstill", av) if av in ("aggressive", "timid") else None),
        *chance_mods(state, u, "standstill"),
    )
    label = f"{u.id} {'stop the advance' if stopping else 'move from a standstill'}"
    t = standstill_table(state, stopping)
    return Check(t.dice, m, t, label, R_STAND)


# -- movement -----------------------------------------------------------------------------------
def _mode(req: rq.Move) -> str:
    return rq.choice(req.mode, "mode", MODES, "advance")


def allowance(state: State, u: Unit, req: rq.Move) -> tuple[float, float]:
    """The move a unit may make now (its move distance, a chance card's bonus) and the mm it
    asks for. One move per activation (Kuryakin, Move Sequence: "once activated ... each unit
    can move"; Random Movement: the die adjusts that move), never beyond its move distance;
    a formation that does not move (unlimbered guns: 0mm) cannot move at all."""
    base = move_base(state, u)
    want = base if req.distance is None else req.distance
    if want <= 0:
        raise BadRequest("'distance' must be more than 0 mm (standing still is not a move)")
    if u.moved_mm + want > base + 1e-9:
        raise RuleViolation(
            R_DIST,
            f"{u.id} may move {base:.0f}mm; it has moved "
            f"{u.moved_mm:.0f}mm and asks {want:.0f}mm more",
        )
    return base, want


def move_base(state: State, u: Unit) -> float:
    """The unit's whole move this turn (its move distance, a chance card's bonus), refused
    if it has made its move this activation or cannot move in its formation."""
    if u.move_done:
        raise RuleViolation(
            R_ONE_MOVE,
            f"{u.id} has made its move this activation ({u.moved_mm:.0f}mm): one move, its"
            " random movement die rolled once",
        )
    base = base_move(state, u)
    if base <= 0:
        raise RuleViolation(
            R_DIST,
            f"{u.id} cannot move in {u.formation} (a move of 0mm)"
            + (": limber first ('formation to=limbered')" if u.artillery else ""),
        )
    for c in effects_on(state, u, "move_bonus"):
        base *= 1 + c.does.value / 100  # chance card: a further part of a move this turn
    return base


#: the moves a failed morale test owes at once (the unit's ``bound``): (mode, share of a move)
RESULT_MOVES = {"rout": ("rout", 1.0), "retire": ("retire", 1.0), "retire_half": ("retire", 0.5)}
#: the moves away from the enemy a result makes (not the unit's own choice)
RESULT_MODES = ("rout", "retire", "retreat")


def owed_move(u: Unit) -> tuple[str, float] | None:
    """The move a failed morale test owes this unit now (mode, share of a full move)."""
    return RESULT_MOVES.get(u.bound or "")


def result_move(state: State, u: Unit, req: rq.Move) -> tuple[float, float]:
    """The owed rout or retirement (Kuryakin, Morale, "applying any results immediately"): made
    at once, whatever card is active and whatever the unit has done, the whole distance the
    result says."""
    owed = owed_move(u)
    assert owed is not None
    if not u.on_table:
        raise RuleViolation(R_MOVE, f"{u.id} is no longer on the table")
    base = base_move(state, u)
    want = base * owed[1]
    if req.distance is not None and abs(req.distance - want) > 0.05:
        raise RuleViolation(
            "Kuryakin, Morale", f"{u.id}'s {owed[0]} move is {want:.0f}mm (its morale result)"
        )
    if base <= 0:
        raise RuleViolation(R_DIST, f"{u.id} cannot move in {u.formation}")
    return base, want


def move_allowed(state: State, u: Unit, req: rq.Move) -> tuple[float, float]:
    """What forbids this move now, without dice (a restricted unit, a rout of a unit not
    routing, a failed start, a chance card, the allowance); else its allowance and the mm
    asked."""
    mode = _mode(req)
    if req.toward is not None and not state.unit(req.toward).on_table:
        # reading K76: nothing to move toward (a queue jumper whose charger is gone has nothing
        # left to act against, Movement: no move this turn)
        raise RuleViolation(
            R_MOVE, f"{req.toward} is no longer on the table: no move toward it (reading K76)"
        )
    if u.restricted_to and req.toward != u.restricted_to and restricted_mode(u, mode):
        # Kuryakin, Movement: a unit that jumped the queue is "restricted to actions directly
        # against the unit charging them" (the whole turn): it moves only toward its charger,
        # a pursuit too; a retirement of its own is no action against it (a morale result's
        # retirement, owed or carried out, is still made)
        raise RuleViolation(
            "Kuryakin, Movement",
            f"{u.id} may act only against {u.restricted_to} this turn"
            f" (move mode={'pursuit' if mode == 'pursuit' else 'advance'}"
            f" toward={u.restricted_to})",
        )
    if mode == "rout" and u.status != "routing":
        # Kuryakin, Morale: a rout is a failed test's result ("Unit Routing"), not a move a
        # steady unit chooses (Disorder: "Each move of Rout 2D")
        raise RuleViolation(
            "Kuryakin, Morale", f"{u.id} is not routing: a rout is a morale result, not a choice"
        )
    no = move_refusal(state, u, mode)
    if no is None and move_standstill_due(state, u, mode, req):
        no = standstill_refusal(state, u)  # (its move would test to move off first)
    if no is not None:
        raise no
    base, want = allowance(state, u, req)
    if u.fired and u.rifles and u.moved_mm + want > base_move(state, u) / 2 + 1e-9:
        # Kuryakin, Firing: "Rifles cannot move more than 1/2 and fire" (fire first, then move)
        raise RuleViolation(
            "Kuryakin, Firing/Infantry",
            f"{u.id}: rifles cannot move more than half and fire (it has fired this turn)",
        )
    return base, want


def restricted_mode(u: Unit, mode: str) -> bool:
    """Whether a move of this mode is one a queue jumper makes only toward its charger
    (Kuryakin, Movement): an advance, a plain move, a pursuit, and a retirement or retreat
    of its own (not one carried out by a retiring unit: its morale result)."""
    if mode in ("advance", "move", "pursuit"):
        return True
    return mode in ("retire", "retreat") and u.status != "retiring"


def retreat_chit(state: State, u: Unit, mode: str) -> bool:
    """Whether ``u``'s ``mode=retire`` or ``mode=retreat`` move is a move of Retreat (Disorder:
    "Each move of Retreat/Pursuit 1D"): a retiring unit's, and (reading K97: the text names no
    retreat but a retirement, Morale's "Unit retiring", the Charge Home Test's "retire 100mm")
    the half move back a morale result owes (``[options] forced_retire_chit = false``: not that
    one, earlier builds). Reading K98: a steady unit's move away of its own is a move of
    Retreat whichever word it is typed with, ``retire`` or ``retreat`` (the text tells them
    not apart); ``[options] own_retreat_chit = false``: neither is (only the moves a result
    forces take the 1D)."""
    if u.status == "retiring":
        return True
    if u.bound == "retire_half" and mode == "retire":
        return state.config.options.forced_retire_chit
    return state.config.options.own_retreat_chit


def away_move(state: State, u: Unit, mode: str, direction: float | None) -> bool:
    """Reading K105: whether a unit's plain move or advance (``direction``: degrees from
    its facing; None: straight ahead) goes away from the enemy, and so is a move of Retreat
    (Disorder: "Each move of Retreat/Pursuit 1D"; the text has no rule for moving backwards,
    and a step back typed ``mode=move`` is the retirement of K98 by another word): within
    ``[options] retire_arc_deg`` of straight away (:func:`away_bearing`; straight back where
    the unit is not placed), at most a rear oblique (under 90 degrees: a move to a flank or
    forward is none). ``[options] away_move_chit = false``: none is (earlier builds)."""
    if mode not in ("move", "advance") or not state.config.options.away_move_chit:
        return False
    ref = away_bearing(state, u)
    if ref is None:
        ref = 180.0
    arc = min(state.config.options.retire_arc_deg, 89.0)
    off = abs(((direction or 0.0) - ref + 180.0) % 360.0 - 180.0)
    return off <= arc + 0.05  # (a direction typed to 0.1 degree)


#: the moves away from the enemy (Kuryakin, Morale: "Unit retiring", "Unit Routing"; Disorder:
#: "Each move of Retreat/Pursuit 1D"; Charge Home Test: a Timid CO's men "retire 100mm")
AWAY = ("retire", "retreat", "rout")


#: the moves forward (Kuryakin, Moving From A Standstill: a halted unit "does not advance";
#: Disorder: "Each move of Retreat/Pursuit 1D"): reading K78
FORWARD = ("advance", "pursuit")


def direction_read_early(state: State, req: rq.Move) -> bool:
    """Whether the move's ``direction`` is judged before its first die: a retirement's, a
    retreat's or a rout's (:func:`away_refusal`), an advance's or a pursuit's other than
    straight ahead (:func:`forward_refusal`), a halted unit's plain move once it has had its
    test(s) to move off this card (a step back from the enemy needs none, reading K108:
    :func:`move_standstill_due`)."""
    if req.mode in AWAY:
        return True
    if req.mode == "move":
        u = state.find(req.unit)
        return u is not None and only_away_left(state, u)
    return (req.mode or "advance") in FORWARD and req.direction not in (None, 0.0)


def forward_refusal(
    state: State, u: Unit, mode: str, direction: float | None, toward: str | None
) -> RuleViolation | None:
    """Reading K78: an advance or a pursuit goes forward (Moving From A Standstill speaks of a
    unit that "does not advance", Disorder of a "Pursuit", neither with a direction): a
    ``direction`` (degrees from the facing; None: straight ahead) at most ``[options]
    advance_arc_deg`` off straight ahead, or ``toward`` an enemy unit, straight at it (a queue
    jumper's move toward its charger, a charger's pursuit of its target). A move backwards or
    to a flank is ``mode=move`` (or a retirement, K75). The refusal, or None."""
    if mode not in FORWARD or direction is None or geom.body(u) is None:
        return None
    if toward is not None and state.unit(toward).side != u.side:
        return None
    arc = state.config.options.advance_arc_deg
    off = abs((direction + 180.0) % 360.0 - 180.0)
    if arc >= 180.0 or off <= arc + 0.05:  # (a direction typed to 0.1 degree)
        return None
    what = {"advance": "an advance", "pursuit": "a pursuit"}[mode]
    return RuleViolation(
        R_MOVE,
        f"{u.id}'s {mode} goes forward: direction {direction:g} is {off:.0f} degrees off"
        f" straight ahead (at most {arc:g}: reading K78, [options] advance_arc_deg; {what}"
        " backwards or to a flank is a plain move, mode=move)",
    )


def away_bearing(state: State, u: Unit) -> float | None:
    """Degrees from the unit's facing straight away from what it moves away from
    (:func:`flee_direction`: its charger, its melee opponent, the nearest enemy), straight
    back (180) when no enemy is placed; None where the unit is not placed."""
    if geom.body(u) is None:
        return None
    away = flee_direction(state, u)
    return 180.0 if away is None else away


def away_refusal(state: State, u: Unit, mode: str, direction: float | None) -> RuleViolation | None:
    """Reading K75: a retirement, a retreat or a rout goes away from the enemy (Morale names a
    unit "retiring" and "routing", Disorder a "Retreat", the Charge Home Test a retirement of
    100mm, none with a direction; the result chart is missing, K41): ``direction`` (degrees
    from the facing; None: straight away) at most ``[options] retire_arc_deg`` off straight
    away (:func:`away_bearing`). The refusal, or None."""
    if mode not in AWAY or direction is None:
        return None
    ref = away_bearing(state, u)
    arc = state.config.options.retire_arc_deg
    if ref is None or arc >= 180.0:
        return None
    off = abs((direction - ref + 180.0) % 360.0 - 180.0)
    if off <= arc + 0.05:  # (a direction typed to 0.1 degree)
        return None
    what = {"retire": "retirement", "retreat": "retreat", "rout": "rout"}[mode]
    return RuleViolation(
        "Kuryakin, Morale",
        f"{u.id}'s {what} goes away from the enemy: direction {direction:g} is {off:.0f}"
        f" degrees off straight away ({ref:.0f} from its facing; at most {arc:g}: reading K75,"
        " [options] retire_arc_deg)",
    )


def move_refusal(state: State, u: Unit, mode: str | None = None) -> RuleViolation | None:
    """What forbids a move by the unit this turn, from its own state (the refusal, or None): it
    failed to move from a standstill (Kuryakin, Moving From A Standstill), halts by its morale
    result (Morale), carries on regardless and so must advance (a ``mode`` other than advance;
    ``mode`` None: any move, this one not asked), or a chance card forbids it. The move
    procedure raises it; the simulator's quick check (``morale.quick_refused``) asks it."""
    if u.start_failed:
        return RuleViolation(R_STAND, f"{u.id} failed to move from a standstill this turn")
    if u.bound == "halt":
        return RuleViolation(
            "Kuryakin, Morale",
            f"{u.id} halts where it stands (its morale result): no move this turn",
        )
    if mode is not None and u.bound == "advance" and mode != "advance":
        return RuleViolation(R_STAND, f"{u.id} carries on regardless: it must advance")
    no = after_charge_refusal(state, u, mode)
    if no is not None:
        return no
    if u.fired and u.mounted_skirmishers:
        # Kuryakin, Skirmishers: "cavalry cannot fire and move in the same turn" (either order;
        # mounted: dismounted fire, whose rules they follow, has no such exception)
        return RuleViolation(
            "Kuryakin, Skirmishers",
            f"{u.id}: mounted skirmishers cannot fire and move in the same turn (it has fired)",
        )
    for c in effects_on(state, u, "no_move"):
        return RuleViolation(R_CHANCE, f"{u.id} may not move this turn (chance card: {c.title})")
    if mode is None and u.status in ("retiring", "routing"):
        return None  # (its retirement or rout is still made: a result's move)
    if mode not in RESULT_MODES:
        return changing_refusal(state, u, "move")
    return None


def change_carried(state: State, u: Unit) -> bool:
    """Reading K87 (Formation Changing: "some units have to carry a change into the next
    turn"): is a change carried from the last turn still to be gone on with on this card (none
    made yet: ``formation_changes``), ``[options] carried_change_first``?"""
    return (
        u.formation_target is not None
        and u.formation_quarters > 0
        and u.formation_changes == 0
        and state.config.options.carried_change_first
    )


def changing_refusal(state: State, u: Unit, what: str) -> RuleViolation | None:
    """Reading K87: a unit carrying a formation change into this turn finishes it first, before
    it moves, charges or reforms (``what``). The refusal, or None."""
    if not change_carried(state, u):
        return None
    return RuleViolation(
        R_FORM,
        f"{u.id} is still changing to {u.formation_target} ({u.formation_quarters} quarter(s)"
        f" carried from the last turn): it finishes the change before it {what}s"
        f" ('formation unit={u.id} to={u.formation_target}'; reading K87)",
    )


def after_charge_refusal(state: State, u: Unit, mode: str | None) -> RuleViolation | None:
    """Reading K73: a charger's move is its charge (Charge Test: "units who charge do so in a
    straight line", the attacker "moves up to the target"); once the charge is over, what is
    left of its move is only a pursuit (Disorder: "Each move of Retreat/Pursuit 1D"), and a
    charger that failed to charge home "will halt" (Charge Home Test; K48) and moves no more
    this turn. A formation change, which spends quarters of the move (Formation Changing), is
    no pursuit either (``mode`` "formation"). ``[options] after_charge_move = "any"``: any move
    or change with what is left (earlier builds). ``mode`` None: any move (the refusal only when
    every move is refused)."""
    if u.charge_state not in ("done", "halted") or mode == "rout":
        return None  # (a routing unit's run is the rules' move, K60)
    if state.config.options.after_charge_move != "pursuit":
        return None
    if u.charge_state == "halted":
        return RuleViolation(
            "Kuryakin, Charge Home Test",
            f"{u.id} halted when its charge failed to go home: no move this turn (reading K73)",
        )
    if mode == "formation":
        return RuleViolation(
            R_FORM,
            f"{u.id} has charged: what is left of its move is only a pursuit, not a formation"
            " change (reading K73, [options] after_charge_move)",
        )
    if mode is not None and mode != "pursuit":
        return RuleViolation(
            "Kuryakin, Charge Test",
            f"{u.id} has charged: what is left of its move is only a pursuit ('move"
            f" unit={u.id} mode=pursuit', 1D; reading K73, [options] after_charge_move)",
        )
    return None


def flee_direction(state: State, u: Unit) -> float | None:
    """Degrees from the unit's facing straight away (centre to centre) from what it flees: the
    unit charging it, else its melee opponent (reading K70: the enemy it fights this turn, so
    that it does not run through it; ``[options] flee_from = "nearest"`` skips this), else the
    nearest enemy on the table (Kuryakin, Morale: a rout or a failed test's retirement moves
    away from the enemy); None where positions are not kept."""
    b = geom.body(u)
    if b is None:
        return None
    threat = next((c for c in chargers(state) if c.charge_target == u.id and c.on_table), None)
    if (threat is None or geom.body(threat) is None) and (
        state.config.options.flee_from == "opponent"
    ):
        threat = melee_opponent(state, u)
    if threat is None or geom.body(threat) is None:
        threat = nearest_enemy(state, u, b)
    tb = None if threat is None else geom.body(threat)
    if tb is None:
        return None
    away = math.degrees(math.atan2(b.centre.x - tb.centre.x, b.centre.y - tb.centre.y))
    return (away - b.facing) % 360.0


def melee_opponent(state: State, u: Unit) -> Unit | None:
    """The enemy on the table the unit fights in a melee this turn (its charge target, or the
    unit that charged it, with the melee under way or a round fought), or None."""
    if u.charge_target is not None and (u.charge_step is not None or u.melee_round > 0):
        o = state.find(u.charge_target)
        if o is not None and o.on_table:
            return o
    for o in state.units:
        if (
            o.charge_target == u.id
            and o.on_table
            and (o.charge_step is not None or o.melee_round > 0)
        ):
            return o
    return None


def toward_direction(state: State, u: Unit, other: str) -> float | None:
    """Degrees from the unit's facing straight toward another unit (centre to centre); None
    where positions are not kept."""
    b, ob = geom.body(u), geom.body(state.unit(other))
    if b is None or ob is None:
        return None
    to = math.degrees(math.atan2(ob.centre.x - b.centre.x, ob.centre.y - b.centre.y))
    return (to - b.facing) % 360.0


def nearest_enemy(state: State, u: Unit, b: tt.Body) -> Unit | None:
    """The enemy on the table nearest ``u`` (its body ``b``), edge to edge (the first in the
    scenario's order among the nearest). Only the enemies that may be nearest are measured:
    none whose least possible distance (the centres' less both half-diagonals) passes the
    greatest possible distance of another (the centres' less both inscribed radii, or 0),
    each bound with :data:`geom.BOUND_MM` to spare (so the same one is found as by measuring
    every enemy)."""
    bounds = []
    least = math.inf
    ib = geom.inner(b)
    cx, cy, rb = b.centre.x, b.centre.y, b.radius
    for o in state.units:
        if o.side != u.side and o.on_table:
            ob = geom.body(o)
            if ob is None:
                continue
            c = math.hypot(ob.centre.x - cx, ob.centre.y - cy)
            most = max(0.0, c - ib - geom.inner(ob))
            if most < least:
                least = most
            bounds.append((c - rb - ob.radius, o))
    near: tuple[float, Unit] | None = None
    for low, o in bounds:
        if low - geom.BOUND_MM > least + geom.BOUND_MM:
            continue  # farther than another enemy is at most: never the nearest
        d = geom.unit_distance(u, o)
        if d is not None and (near is None or d < near[0]):
            near = (d, o)
    return None if near is None else near[1]


def move(state: State, req: rq.Move, dice: DiceSource) -> Outcome:
    """Move a unit: its move distance (or ``distance`` mm, at most that) plus the random
    movement die (adjusted by the brigadier's TH), then the swerve. A halted unit advancing
    first rolls to move from a standstill. A move ``toward`` a unit goes straight at it (a
    unit that jumped the queue moves only so: Kuryakin, Movement, "restricted to actions
    directly against the unit charging them")."""
    u = state.unit(req.unit)
    mode = _mode(req)
    if req.toward is not None and req.direction is not None:
        raise BadRequest("give 'toward' (a unit it moves straight at) or 'direction', not both")
    if req.toward is not None:
        state.unit(req.toward)  # (an unknown unit refused before any die is rolled)
    owed = owed_move(u)
    if owed is not None and mode == owed[0]:
        _base, want = result_move(state, u, req)
    else:
        require_active(state, u, R_MOVE, "move", mode)
        _base, want = move_allowed(state, u, req)
    given = req.direction
    if req.toward is not None:
        given = toward_direction(state, u, req.toward)
    no = away_refusal(state, u, mode, given)
    if no is None:
        no = forward_refusal(state, u, mode, given, req.toward)
    if no is not None:
        raise no
    ch = Changes(state)
    rolls: list[Roll] = []
    tested = (owed is None or mode != owed[0]) and move_standstill_due(state, u, mode, req)
    advancing = mode in ("advance", "pursuit") or tested
    if tested:
        r = check_roll(standstill_check(state, u, False), dice)
        rolls.append(r)
        use_effects(ch, u.id, "standstill")
        if r.row == "stays":
            ch.unit(
                StandstillTested,
                u.id,
                "fails to move from a standstill",
                start_failed=True,
                standstill_tests=u.standstill_tests + 1,
            )
            return Outcome(tuple(ch.events), tuple(rolls), f"{u.id} does not advance", {"moved": 0})
    th = brigadier_th(state, u)
    rr = th_modified(state, check_roll(random_check(state, u), dice), th)
    rolls.append(rr)
    adj = rr.final
    moved = max(0.0, want + adj * 10.0)
    sw = check_roll(swerve_check(state, u), dice)
    rolls.append(sw)
    lateral = 0.0
    if sw.row in ("left", "right"):
        d = check_roll(swerve_distance_check(state, u), dice)
        rolls.append(d)
        lateral = d.final * 10.0 * (-1 if sw.row == "left" else 1)
    kw: dict[str, Any] = {
        "moved_mm": u.moved_mm + want,
        "move_done": True,
        "advancing": advancing or u.advancing,
        "bound": None if u.bound in ("advance", *RESULT_MOVES) else u.bound,
    }
    if tested:  # (its standstill test, made first)
        kw["standstill_tests"] = u.standstill_tests + 1
    if mode in ("retire", "retreat", "rout"):
        kw["advancing"] = False
    direction = given
    mover = u
    if owed is not None and mode == owed[0] and u.bound == "retire_half":
        # "retires half a move facing the enemy" (our chart, reading K41): it turns to face
        # what it retires from and backs straight away from it (a direction given: that way)
        away = flee_direction(state, u)
        if away is not None:
            kw["facing"] = round((u.facing + away + 180.0) % 360.0, 1)
            mover = updated(u, {"facing": kw["facing"]})
            given = direction
            direction = 180.0 if given is None else (u.facing + given - kw["facing"]) % 360.0
    if direction is None and mode in AWAY:
        direction = flee_direction(state, u)  # a rout, a retirement or a retreat: away (K75)
    if direction is None:
        direction = 180.0 if mode in ("retire", "retreat", "rout") else 0.0
    if u.placed:
        rad = math.radians(direction)
        ahead = moved * math.cos(rad) - lateral * math.sin(rad)
        right = moved * math.sin(rad) + lateral * math.cos(rad)
        pos = geom.moved(mover, ahead, right)
        assert pos is not None
        kw["x"], kw["y"] = pos
    chits = 0
    why = []
    if not u.skirmishing:
        gives = state.config.disorder
        if mode == "rout":
            chits += gives.rout_move
            why.append(f"rout move {gives.rout_move}D")
        elif mode == "pursuit" or (mode in ("retire", "retreat") and retreat_chit(state, u, mode)):
            chits += gives.retreat_move
            why.append(f"{mode} move {gives.retreat_move}D")
        elif away_move(state, u, mode, given):
            chits += gives.retreat_move
            why.append(f"{mode} away from the enemy, a Retreat {gives.retreat_move}D")
        over = musician_over_half(state, u, u.moved_mm + want)
        if over:
            chits += over
            why.append(f"over half a move with the musician dead {over}D")
    if chits:
        kw["disorder"] = u.disorder + chits
    hit, who = run_into(state, u, kw)
    stop = "" if who is None else f"; it {stop_words(who)}"
    if hit:  # the collision's chits are owed (flow.collisions_owed)
        kw["collided"] = hit
    ch.unit(Moved, u.id, f"{mode} move", **kw)
    th_txt = "" if adj == rr.natural else f" ({(th or '').replace('_', ' ')} brigadier: {adj:+d})"
    sw_txt = "" if not lateral else f", swerves {abs(lateral):.0f}mm {sw.row}"
    msg = f"{u.id} {mode}s {moved:.0f}mm ({want:.0f}mm {adj:+d}cm{th_txt}){sw_txt}" + (
        f"; +{chits}D ({', '.join(why)})" if chits else ""
    )
    msg += stop
    if hit:
        names = ", ".join(f'"{x}"' for x in (u.id, *hit))
        msg += (
            f"; it collides with {', '.join(hit)}: D{state.config.dice.collision} 'D' chits"
            " each, owed (Kuryakin, Disorder:"
            f" disorder cause=collision units='[{names}]')"
        )
    return Outcome(
        tuple(ch.events),
        tuple(rolls),
        msg,
        {
            "moved_mm": moved,
            "lateral_mm": lateral,
            "adjust_cm": adj,
            "disorder": chits,
            "collisions": list(hit),
        },
    )


def collisions(
    state: State, before: Unit, after: Unit, exclude: str | None = None
) -> tuple[str, ...]:
    """The units whose bases the unit's base runs into on this move, on the way or where it
    ends (overlapping by more than 1 mm², where they did not before): a collision (Kuryakin,
    Disorder: "Each collision D3 D's per unit involved"). The move holds them on the mover
    (``Unit.collided``) and the chits are owed at once: one ``disorder cause=collision`` naming
    the mover and every unit it ran into (our reading: one move is one collision, however many
    units it meets; each unit involved rolls its D3 once), or its logged waiver (flow.py). The
    base is looked at every half of its depth along the move (a move is straight: its
    distance, its random movement, its swerve). Every move the rules make is looked at so: a
    charger moving up, skirmishers evading, a timid CO's retirement (``exclude``: the unit a
    charger moves up to, which it meets on purpose). Reading K64: a unit passes through its
    own side's skirmishers, and they through it, without a collision (Skirmishers "screen
    other units"; ``[options] friendly_skirmishers_collide``). Reading K67: a unit it touched
    before the move and only leaves is not run into (:func:`leaves_contact`)."""
    a, b = geom.body(before), geom.body(after)
    if a is None or b is None:
        return ()
    screens = not state.config.options.friendly_skirmishers_collide
    ax, ay = a.centre.x, a.centre.y
    vx, vy = b.centre.x - ax, b.centre.y - ay
    length2 = vx * vx + vy * vy
    out = []
    ways: list[tuple[float, float]] = []
    for o in state.units:
        if o.id == before.id or o.id == exclude or not o.on_table:
            continue
        if screens and o.side == before.side and (o.skirmishing or before.skirmishing):
            continue  # a friendly skirmish screen is passed through (reading K64)
        ob = geom.body(o)
        if ob is None:
            continue
        # (far from the whole way, centre to segment: no collision, nothing else measured)
        k = 0.0 if length2 <= 0 else ((ob.centre.x - ax) * vx + (ob.centre.y - ay) * vy) / length2
        k = min(1.0, max(0.0, k))
        gap = math.hypot(ob.centre.x - ax - k * vx, ob.centre.y - ay - k * vy)
        if gap > a.footprint.radius + ob.footprint.radius + 1.0:
            continue
        axes = _axes(b, ob)
        start = axes if (a.facing, a.footprint) == (b.facing, b.footprint) else _axes(a, ob)
        if not _apart(start, ax, ay) and tt.overlaps(a, ob, 1.0):
            continue  # overlapping already where it began: not run into on this move
        if not ways:
            step = max(1.0, min(a.footprint.width, a.footprint.depth) / 2)
            n = max(1, math.ceil(math.sqrt(length2) / step))
            ways = [(ax + vx * i / n, ay + vy * i / n) for i in range(1, n + 1)]
        # only the places whose centre is within both radii of the other's can overlap it
        # (tt.overlaps' own first test, here before a body is made for the place), and of
        # those only the ones no side of either base holds clear of the other (_apart)
        reach = b.footprint.radius + ob.footprint.radius
        reach2, ox, oy = reach * reach + 1e-9, ob.centre.x, ob.centre.y
        if any(
            tt.overlaps(tt.Body(tt.Vec(x, y), b.facing, b.footprint), ob, 1.0)
            for x, y in ways
            if (x - ox) * (x - ox) + (y - oy) * (y - oy) <= reach2 and not _apart(axes, x, y)
        ) and not leaves_contact(state, before, o, b, ob, ways):
            out.append(o.id)
    return tuple(out)


def run_into(
    state: State, u: Unit, kw: dict[str, Any], exclude: str | None = None
) -> tuple[tuple[str, ...], str | None]:
    """What a move of ``u`` to ``kw`` (its new place, when it has one) runs into: the units
    it collides with (:func:`collisions`) and the enemy it stops at, if any. Reading K89: a
    move never runs into an enemy (contact "with the intention of melee" is a charge, Charge
    Test): it stops where it first touches one (:func:`enemy_stop`, ``kw`` moved there), the
    die and the swerve included; the friends it ran into before that are still collided
    with. Every move is so, the player's (:func:`move`) and the ones the rules make
    (:func:`rules_move_collisions`)."""
    if "x" not in kw:
        return collisions(state, u, u, exclude), None
    after = updated(u, kw)
    hit = collisions(state, u, after, exclude)
    met = [x for x in hit if state.unit(x).side != u.side]
    if not met:
        return hit, None
    at, who = enemy_stop(state, u, after, met)
    kw["x"], kw["y"] = at
    return tuple(x for x in collisions(state, u, updated(u, kw), exclude) if x not in met), who


def stop_words(who: str) -> str:
    return f"stops at contact with {who} (a move is not an attack: reading K89)"


def enemy_stop(
    state: State, before: Unit, after: Unit, met: list[str]
) -> tuple[tuple[float, float], str]:
    """Where a move that runs into the enemy units ``met`` (:func:`collisions`) stops: the
    last place on its straight way whose base overlaps none of them (found to 0.1 mm), and the
    first one met (reading K89)."""
    a, b = geom.body(before), geom.body(after)
    assert a is not None and b is not None
    others = [(x, geom.body(state.unit(x))) for x in met]

    def at(f: float) -> tt.Body:
        c = tt.Vec(
            a.centre.x + (b.centre.x - a.centre.x) * f, a.centre.y + (b.centre.y - a.centre.y) * f
        )
        return tt.Body(c, b.facing, b.footprint)

    def clear(f: float) -> str | None:
        body = at(f)
        return next((x for x, ob in others if ob is not None and tt.overlaps(body, ob, 1.0)), None)

    length = a.centre.distance(b.centre)
    # (twice as fine as :func:`collisions` looks, every place it looked at among them)
    n = 2 * max(1, math.ceil(length / max(1.0, min(b.footprint.width, b.footprint.depth) / 2)))
    lo, hi, who = 0.0, 1.0, met[0]
    for i in range(1, n + 1):
        x = clear(i / n)
        if x is not None:
            lo, hi, who = (i - 1) / n, i / n, x
            break
    while (hi - lo) * length > 0.1:
        mid = (lo + hi) / 2
        x = clear(mid)
        if x is None:
            lo = mid
        else:
            hi, who = mid, x
    c = at(lo).centre
    near = (round(c.x, 1), round(c.y, 1))  # (where the move is kept: to 0.1 mm, still clear)
    body = tt.Body(tt.Vec(*near), b.facing, b.footprint)
    if any(ob is not None and tt.overlaps(body, ob, 1.0) for _, ob in others):
        near = (
            math.floor(c.x * 10) / 10 if c.x >= a.centre.x else math.ceil(c.x * 10) / 10,
            math.floor(c.y * 10) / 10 if c.y >= a.centre.y else math.ceil(c.y * 10) / 10,
        )
    return near, who


def leaves_contact(
    state: State, before: Unit, o: Unit, b: tt.Body, ob: tt.Body, ways: list[tuple[float, float]]
) -> bool:
    """Whether a move that meets ``o`` on its way (``ways``: the places of the mover's body
    ``b``) only leaves it: the mover touched it before the move (within ``[options]
    leave_contact_mm``, the contact tolerance) and goes no deeper into it than that on its way
    (its body, that much smaller all round, clear of it everywhere). Reading K67: a unit
    retiring out of contact does not collide with the unit it leaves (Disorder: "Each collision
    D3 D's per unit involved"), however the bases happen to lie (a swerve, a base set a little
    askew); one that moves into it still does."""
    tol = state.config.options.leave_contact_mm
    if tol <= 0:
        return False
    d = geom.unit_distance(before, o)
    if d is None or d > tol:
        return False
    fp = tt.Footprint(max(1.0, b.footprint.width - 2 * tol), max(1.0, b.footprint.depth - 2 * tol))
    return not any(tt.overlaps(tt.Body(tt.Vec(x, y), b.facing, fp), ob, 1.0) for x, y in ways)


def rules_move_collisions(
    state: State, u: Unit, kw: dict[str, Any], exclude: str | None = None
) -> tuple[str, str | None]:
    """A move the rules make (a charger moving up, skirmishers evading, a timid CO's
    retirement) runs into other units as any move does (Kuryakin, Disorder: "Each collision
    D3 D's per unit involved"): the units it runs into are held on the mover (``collided`` in
    ``kw``, the chits owed at once: flow.collisions_owed); and it stops at contact with an
    enemy as any move does (reading K89, :func:`run_into`: ``kw``'s place moved back to it).
    Returns the words for its message and the enemy it stopped at (None: none)."""
    if "x" not in kw:
        return "", None
    hit, who = run_into(state, u, kw, exclude)
    words = "" if who is None else f"; {u.id} {stop_words(who)}"
    if not hit:
        return words, who
    kw["collided"] = hit
    names = ", ".join(f'"{x}"' for x in (u.id, *hit))
    return (
        words + f"; {u.id} collides with {', '.join(hit)}: D{state.config.dice.collision} 'D'"
        " chits each, owed (Kuryakin, Disorder:"
        f" disorder cause=collision units='[{names}]')"
    ), who


#: how clearly (mm) two bases must lie apart across a side for :func:`_apart` to tell it
#: (their corners are worked out in floats: a hair of rounding)
APART_MM = 1e-6


def _axes(moving: tt.Body, other: tt.Body) -> list[tuple[float, float, float, float]]:
    """The sides' normals of the two bases (the moving one's facing, ahead and to its right;
    the other's), each with the other base's centre measured along it and how far apart the
    two centres must lie along it for the bases to be clear of each other there: both half
    shadows (a rectangle's on a line: half its width and half its depth, each foreshortened),
    and :data:`APART_MM`. The moving base keeps its facing and size all along its move."""
    out = []
    fa, fo = math.radians(moving.facing), math.radians(other.facing)
    ax, ay, ox, oy = math.sin(fa), math.cos(fa), math.sin(fo), math.cos(fo)
    aw, ad = moving.footprint.width / 2, moving.footprint.depth / 2
    ow, od = other.footprint.width / 2, other.footprint.depth / 2
    cx, cy = other.centre.x, other.centre.y
    for nx, ny in ((ax, ay), (ay, -ax), (ox, oy), (oy, -ox)):
        half = (
            ad * abs(ax * nx + ay * ny)
            + aw * abs(ay * nx - ax * ny)
            + od * abs(ox * nx + oy * ny)
            + ow * abs(oy * nx - ox * ny)
        )
        out.append((nx, ny, cx * nx + cy * ny, half + APART_MM))
    return out


def _apart(axes: list[tuple[float, float, float, float]], x: float, y: float) -> bool:
    """The moving base, centred at (``x``, ``y``), lies clear of the other along one of
    ``axes`` (:func:`_axes`): two rectangles whose shadows on a side's normal do not meet
    share no area (separating axes), so ``tt.overlaps`` would find none there."""
    return any(abs(c - (x * nx + y * ny)) > half for nx, ny, c, half in axes)


def move_odds(state: State, req: rq.Move) -> list[Odds]:
    u = state.unit(req.unit)
    out: list[Odds] = []
    owed = owed_move(u)
    mode = _mode(req)
    if (owed is None or mode != owed[0]) and move_standstill_due(state, u, mode, req):
        out.append(standstill_check(state, u, False).odds())
    out.append(
        odds_of(f"{u.id} random movement after TH (cm)", random_dist(state, u), R_MOVE, noun="cm")
    )
    out.append(swerve_check(state, u).odds())
    # rolled only after a 1 or a 6 on the swerve die
    out.append(swerve_distance_check(state, u).odds())
    return out


def _unit_for_stand(state: State, req: rq.OneUnit) -> Unit:
    u = state.unit(req.unit)
    require_active(state, u, R_STAND, "move from a standstill or halt")
    return u


def start(state: State, req: rq.OneUnit, dice: DiceSource) -> Outcome:
    """Moving From A Standstill: d6, 1 fails (+1 Aggressive, -1 Timid brigadier)."""
    u = _unit_for_stand(state, req)
    no = start_refusal(state, u)
    if no is not None:
        raise no
    r = check_roll(standstill_check(state, u, False), dice)
    ch = Changes(state)
    use_effects(ch, u.id, "standstill")
    n = u.standstill_tests + 1
    if r.row == "moves":
        ch.unit(StandstillTested, u.id, "moves off", advancing=True, standstill_tests=n)
    else:
        ch.unit(
            StandstillTested,
            u.id,
            "fails to move from a standstill",
            start_failed=True,
            standstill_tests=n,
        )
    return Outcome(tuple(ch.events), (r,), f"{u.id} {r.consequence}")


def halt(state: State, req: rq.OneUnit, dice: DiceSource) -> Outcome:
    """Stopping an advance: d6, a 6 carries on regardless (the same modifiers, reversed in
    effect: an Aggressive leader is hard to stop, a Timid one easy)."""
    u = _unit_for_stand(state, req)
    no = halt_refusal(state, u)
    if no is not None:
        raise no
    r = check_roll(standstill_check(state, u, True), dice)
    ch = Changes(state)
    use_effects(ch, u.id, "standstill")
    n = u.standstill_tests + 1
    if r.row == "stops":
        ch.unit(Halted, u.id, "halts", advancing=False, standstill_tests=n)
        msg = f"{u.id} halts"
    else:
        ch.unit(
            StandstillTested, u.id, "carries on regardless", bound="advance", standstill_tests=n
        )
        msg = f"{u.id} carries on regardless: it must advance"
    return Outcome(tuple(ch.events), (r,), msg, {"halted": r.row == "stops"})


def standstill_due(state: State, u: Unit, action: str) -> bool:
    """Whether a halted unit's ``action`` (a move's mode, or "charge") gets it moving, so that
    its standstill test comes first (Kuryakin, Moving From A Standstill: "To get troops moving
    who have halted, roll a D6"; a 1: "the unit does not advance"). An advance or a pursuit
    always. Reading K74 (which moves get a halted unit moving: not stated), ``[options]
    standstill_moves``: "any" (every move of its own but a retirement, a retreat or a rout,
    the moves away named so, whatever its direction, and a charge, an advance on the enemy:
    the test before its Charge Test), "moves" (those moves; a charge goes in on its Charge
    Test alone) or "advance" (only an advance or a pursuit: earlier builds, a plain move and
    a charge untested). A formation change is not a move and takes none."""
    if u.advancing:
        return False
    if action in ("advance", "pursuit"):
        return True
    how = state.config.options.standstill_moves
    return (action == "move" and how != "advance") or (action == "charge" and how == "any")


def only_away_left(state: State, u: Unit) -> bool:
    """Whether of a halted unit's plain moves only a step away from the enemy is left: it has
    had its test(s) to move off this card (reading K72), and a move away needs none (K108;
    ``[options] away_move_chit = false``: no move is away, none is left)."""
    return (
        state.config.options.away_move_chit
        and standstill_due(state, u, "move")
        and standstill_refusal(state, u) is not None
    )


def move_standstill_due(state: State, u: Unit, mode: str, req: rq.Move) -> bool:
    """Whether a halted unit's move tests to move off first (:func:`standstill_due`). Reading
    K108: a plain move away from the enemy is a move of Retreat (K105, :func:`away_move`), and
    a retreat gets no test (K74), as `mode=retire` gets none; ``[options] away_move_chit =
    false`` (no move away is a retreat) tests it as any plain move."""
    if not standstill_due(state, u, mode):
        return False
    if mode != "move":
        return True
    given = req.direction
    if req.toward is not None:
        given = toward_direction(state, u, req.toward)
    return not away_move(state, u, mode, given)


def standstill_refusal(state: State, u: Unit) -> RuleViolation | None:
    """Reading K72 (Moving From A Standstill gives the D6 of a try to move off or to stop, not
    how many tries): ``[options] standstill_tests_per_card`` tests on one card (1; 0: no
    limit), whatever their results: a unit that moved off does not try to halt on the same
    card, nor one that halted to move off again. The refusal, or None."""
    most = state.config.options.standstill_tests_per_card
    if most and u.standstill_tests >= most:
        return RuleViolation(
            R_STAND,
            f"{u.id} has tested to move off or to halt this activation: {most} test(s) a card"
            " (reading K72, [options] standstill_tests_per_card)",
        )
    return None


def start_refusal(state: State, u: Unit) -> RuleViolation | None:
    """What forbids a try to move off, from the unit's own state (Kuryakin, Moving From A
    Standstill; Morale: a halt result binds; reading K72): the refusal, or None. ``start``
    raises it; the simulator's quick check (``morale.quick_refused``) asks it."""
    if u.advancing:
        return RuleViolation(R_STAND, f"{u.id} is already advancing")
    if u.start_failed:
        return RuleViolation(R_STAND, f"{u.id} already failed this turn")
    no = nothing_to_start(state, u)
    if no is None:
        no = standstill_refusal(state, u)
    if no is not None:
        return no
    if u.bound == "halt":
        return RuleViolation(
            "Kuryakin, Morale", f"{u.id} halts where it stands (its morale result) this turn"
        )
    return None


def nothing_to_start(state: State, u: Unit) -> RuleViolation | None:
    """Moving From A Standstill: "To get troops moving who have halted, roll a D6": the test
    gets the unit's move going, so a unit with no move to make on this card has nothing to
    test for (its move made: one a card, Random Movement; a formation that does not move,
    unlimbered guns; its move spent changing formation). The refusal, or None."""
    try:
        base = move_base(state, u)
    except RuleViolation as e:
        return RuleViolation(R_STAND, f"{u.id} has nothing to get moving: {e.problem}")
    if base - u.moved_mm <= 0:
        return RuleViolation(
            R_STAND, f"{u.id} has nothing to get moving: its whole move is spent this turn"
        )
    return None


def halt_refusal(state: State, u: Unit) -> RuleViolation | None:
    """What forbids a try to stop an advance, from the unit's own state (Kuryakin, Moving From
    A Standstill: a unit that carries on regardless must advance; one move per activation;
    reading K72): the refusal, or None. ``halt`` raises it; the simulator's quick check asks
    it."""
    if not u.advancing:
        return RuleViolation(R_STAND, f"{u.id} is not advancing")
    if base_move(state, u) <= 0:  # (unlimbered guns: their advance ended, reading K77)
        return RuleViolation(R_STAND, f"{u.id} cannot move in {u.formation}: no advance to stop")
    if u.bound == "advance":
        return RuleViolation(
            R_STAND, f"{u.id} carries on regardless this turn: it must advance, not try again"
        )
    if u.move_done:
        return RuleViolation(R_ONE_MOVE, f"{u.id} has made its move this activation")
    return standstill_refusal(state, u)


def start_odds(state: State, req: rq.OneUnit) -> list[Odds]:
    u = state.unit(req.unit)
    return [standstill_check(state, u, False).odds()]


def halt_odds(state: State, req: rq.OneUnit) -> list[Odds]:
    u = state.unit(req.unit)
    return [standstill_check(state, u, True).odds()]


# -- formation ----------------------------------------------------------------------------------
def formation_modifiers(state: State, u: Unit) -> tuple[Any, ...]:
    s = "formation_change"
    th = brigadier_th(state, u)
    return mods(
        modifier(state, s, "a_class") if u.grade == "A" else None,
        modifier(state, s, "b_class") if u.grade == "B" else None,
        modifier(state, s, "th_below_average") if th == "below_average" else None,
        modifier(state, s, "th_above_average") if th == "above_average" else None,
        modifier(state, s, "out_of_command") if not u.in_command else None,
        modifier(state, s, "musician_dead")
        if optional_on(state, "musicians") and special_lost(u, "musician")
        else None,
    )


def formation_check(state: State, u: Unit) -> Check:
    return Check(
        state.config.dice.formation_change_die,
        formation_modifiers(state, u),
        None,
        f"{u.id} formation change (quarters of a move)",
        R_FORM,
    )


def new_front(state: State, u: Unit, to: str, req: rq.Formation) -> int:
    f = req.front
    if f is not None:
        if f < 1:
            raise BadRequest("'front' must be at least 1")
        return f
    ranks = state.config.formation_ranks[to]
    return math.ceil(u.figures / max(1, ranks)) if u.figures else 0


def formation(state: State, req: rq.Formation, dice: DiceSource) -> Outcome:
    """Change formation: d4 quarters of a move (modified); beyond a whole move the change
    carries into the next turn (and the unit takes 1D at the end of this one)."""
    u = state.unit(req.unit)
    require_active(state, u, R_FORM, "change formation")
    to = req.to or u.formation_target
    if to is None:
        raise BadRequest("missing 'to' (the new formation)")
    allowed = list(state.config.move_distances[u.kind])
    if to not in allowed:
        raise RuleViolation(
            R_FORM, f"{u.id} ({u.kind}) cannot form {to!r} (formations: {', '.join(allowed)})"
        )
    if req.width is not None:
        if to != "skirmish":
            raise BadRequest("'width' is a skirmish line's frontage (to=skirmish)")
        check_skirmish_width(state, u, req.width)
    # (going on with a change that has no move left changes nothing: not counted, K57)
    stalled = u.formation_target == to and change_stalled(state, u)
    no = None if stalled else after_charge_refusal(state, u, "formation")
    if no is None and not stalled:
        no = formation_refusal(state, u)
    if no is not None:
        raise no
    count = u.formation_changes + (0 if stalled else 1)
    ch = Changes(state)
    base = base_move(state, u)
    if u.formation_target == to and u.formation_quarters > 0:
        q = u.formation_quarters
        rolls: tuple[Roll, ...] = ()
        lead = f"{u.id} continues its change to {to}: {q} quarter(s) left"
    else:
        if to == u.formation:
            raise RuleViolation(R_FORM, f"{u.id} is already in {to}")
        r = floored_roll(formation_check(state, u), dice)  # (below 0: no quarter)
        q = max(0, r.final)
        rolls = (r,)
        lead = f"{u.id} changes to {to}: {q} quarter(s) of a move"
    used = u.moved_mm / base * 4 if base else 0.0
    left = max(0.0, 4 - used)
    if q <= left + 1e-9:
        # the share of the move used, measured in the new formation's move (issue 23: a change
        # costing the whole move leaves nothing of the column's longer move)
        new_base = state.config.move_distances[u.kind].get(to, base)
        ch.unit(
            FormationChanged,
            u.id,
            f"formed {to}",
            formation=to,
            formation_target=None,
            formation_quarters=0,
            front=new_front(state, u, to, req),
            moved_mm=min(1.0, (used + q) / 4) * new_base,
            formation_changes=count,
        )
        if req.width is not None:
            ch.unit(FormationChanged, u.id, "skirmish line frontage", width=req.width)
        msg = f"{lead}; in {to} now"
        if u.advancing and new_base <= 0:
            # reading K77: a formation that does not move (unlimbered guns) has stopped; to
            # move on it limbers and tests to move off (Moving From A Standstill)
            ch.unit(Halted, u.id, f"in {to}: its advance ends", advancing=False)
            msg += "; its advance ends (reading K77)"
    else:
        rest = math.ceil(q - left)
        ch.unit(
            FormationChanged,
            u.id,
            f"changing to {to}",
            formation_target=to,
            formation_quarters=rest,
            moved_mm=max(u.moved_mm, base),
            formation_changes=count,
        )
        msg = f"{lead}; {rest} quarter(s) carry into next turn (1D at the end of the turn)"
    return Outcome(tuple(ch.events), rolls, msg, {"quarters": q})


def formation_refusal(state: State, u: Unit) -> RuleViolation | None:
    """Reading K71 (Formation Changing gives each change its D4 quarters of a move, not how many
    changes a unit makes; Move Sequence: "once activated ... each unit can move, fire and
    attack"): ``[options] formation_changes_per_card`` changes on one card (1; 0: no limit), a
    change carried on from the last turn counting as one. The refusal, or None."""
    most = state.config.options.formation_changes_per_card
    if most and u.formation_changes >= most:
        return RuleViolation(
            R_FORM,
            f"{u.id} has changed formation this activation: {most} change(s) a card (reading"
            " K71, [options] formation_changes_per_card)",
        )
    return None


def change_stalled(state: State, u: Unit) -> bool:
    """A formation change under way with none of the unit's move left this turn (Kuryakin,
    Formation Changing: a change needing more than the move left carries into the next turn):
    going on with it now changes nothing, so it is not offered (``ruleset._own_options``). The
    procedure still accepts it, as a step that changes nothing (a log of an earlier build may
    hold one: it must still import)."""
    return (
        u.formation_target is not None
        and u.formation_quarters > 0
        and u.moved_mm >= base_move(state, u)
    )


def formation_odds(state: State, req: rq.Formation) -> list[Odds]:
    u = state.unit(req.unit)
    c = formation_check(state, u)
    w = c.weights()
    d: FDist = {}
    tot = sum(w.values())
    for v, n in w.items():
        d[max(0, v)] = d.get(max(0, v), Fraction(0)) + Fraction(n, tot)
    return [odds_of(c.label, d, R_FORM, noun="quarters")]


# -- disorder -----------------------------------------------------------------------------------
#: a stated cause's chits by default: the [disorder] entry it names (a chance card's: 1)
CAUSES = {
    "melee": "round",
    "fire": "round",
    "rout": "rout_move",
    "retreat": "retreat_move",
    "pursuit": "retreat_move",
    "formation": "formation_incomplete",
    "musician": "musician_over_half",
}


def disorder(state: State, req: rq.Disorder, dice: DiceSource) -> Outcome:
    """Add (or, ``remove=true``, take away) 'D' chits for a stated cause (Kuryakin, Disorder);
    ``cause=collision`` rolls D3 for each unit in ``units`` (the mover first, then the units it
    ran into: a move's owed collision is discharged so)."""
    cause = req.cause
    ch = Changes(state)
    rolls: list[Roll] = []
    parts = []
    if cause == "collision":
        ids = [str(x) for x in req.units or ()]
        if len(ids) < 2:
            raise BadRequest("a collision needs at least two 'units'")
        first = state.unit(ids[0])
        owed = first.id if first.collided and first.collided == tuple(ids[1:]) else None
        die = state.config.dice.collision_die
        for uid in ids:
            u = state.unit(uid)
            r = check_roll(Check(die, (), None, f"{u.id} collision chits", R_DIS), dice)
            rolls.append(r)
            done: dict[str, Any] = {"collided": ()} if u.id == owed else {}
            if u.skirmishing:
                if done:
                    ch.unit(Disordered, u.id, "collision (skirmishing: no D)", **done)
                parts.append(f"{u.id} skirmishing: no D")
                continue
            new = ch.state.unit(u.id).disorder + r.final
            ch.unit(Disordered, u.id, "collision", disorder=new, **done)
            parts.append(f"{u.id} +{r.final}D")
    else:
        if req.unit is None:
            raise BadRequest("missing 'unit'")
        u = state.unit(req.unit)
        entry = CAUSES.get(cause)
        n = rq.count(req.n, "n", getattr(state.config.disorder, entry) if entry else 1)
        if req.remove:
            new = max(0, u.disorder - n)
        elif u.skirmishing:
            raise RuleViolation(R_DIS, f"{u.id} is skirmishing: no disorder while unformed")
        else:
            new = u.disorder + n
        ch.unit(Disordered, u.id, cause, disorder=new)
        parts.append(f"{u.id} {new - u.disorder:+d}D ({cause}) = {new}D")
    return Outcome(tuple(ch.events), tuple(rolls), "; ".join(parts))


def disorder_odds(state: State, req: rq.Disorder) -> list[Odds]:
    """A collision: D3 chits for each unit involved ([dice] collision)."""
    if req.cause != "collision":
        return []
    die = state.config.dice.collision_die
    return [
        Check(die, (), None, f"{state.unit(str(uid)).id} collision chits", R_DIS).odds()
        for uid in req.units or ()
    ]


def reform_modifiers(state: State, u: Unit) -> tuple[Any, ...]:
    s = "reform"
    return mods(
        modifier(state, s, "d_class") if u.grade == "D" else None,
        modifier(state, s, "officer_dead") if officer_missing(state, u) else None,
        modifier(state, s, "musician_dead")
        if optional_on(state, "musicians") and special_lost(u, "musician")
        else None,
    )


def reform_check(state: State, u: Unit) -> Check:
    return Check(
        state.config.dice.reform_die,
        reform_modifiers(state, u),
        None,
        f"{u.id} reform ('D' removed)",
        R_DIS,
    )


def _reformer(state: State, req: rq.OneUnit) -> Unit:
    u = state.unit(req.unit)
    require_active(state, u, R_DIS, "reform")
    no = reform_refusal(state, u) or changing_refusal(state, u, "reform")
    if no is not None:
        raise no
    return u


def melee_fought(state: State, u: Unit) -> bool:
    """Whether ``u`` has fought a round of melee this turn, as attacker (its own rounds) or as
    the unit charged (the rounds its attacker holds)."""
    if u.melee_round > 0 or u.lost_melee:
        return True
    return any(o.charge_target == u.id and o.melee_round > 0 for o in state.units)


def reform_refusal(state: State, u: Unit) -> RuleViolation | None:
    """What forbids a reform (Kuryakin, Disorder: chits to remove, no casualties this turn, and
    it takes the whole turn, "meaning that the unit can do nothing else"; a unit that fought a
    round of melee this turn has done something else, reading K90): the refusal, or None.
    ``reform`` raises it; the simulator's quick check (``morale.quick_refused``) asks it."""
    if u.disorder == 0:
        return RuleViolation(R_DIS, f"{u.id} has no 'D' chits")
    if u.casualties_turn:
        return RuleViolation(R_DIS, f"{u.id} has taken casualties this turn: it cannot reform")
    if u.moved_mm or u.fired or u.charge_state or u.formation_changes or u.standstill_tests:
        # (a formation change of 0 quarters, a test to move off or to halt: something done)
        return RuleViolation(
            R_DIS, f"{u.id} has already done something this turn: reforming takes the whole turn"
        )
    if melee_fought(state, u):
        return RuleViolation(
            R_DIS,
            f"{u.id} has fought in a melee this turn: reforming takes the whole turn (reading K90)",
        )
    return None


def reform(state: State, req: rq.OneUnit, dice: DiceSource) -> Outcome:
    """Reform: the whole turn; D6 (modified) chits removed; no casualties so far this turn."""
    u = _reformer(state, req)
    r = check_roll(reform_check(state, u), dice)
    n = max(0, min(u.disorder, r.final))
    ch = Changes(state)
    ch.unit(
        Reformed,
        u.id,
        "reformed (the whole turn)",
        disorder=u.disorder - n,
        acted=True,
        reformed=True,
    )
    return Outcome(
        tuple(ch.events), (r,), f"{u.id} removes {n}D ({u.disorder - n}D left)", {"removed": n}
    )


def reform_odds(state: State, req: rq.OneUnit) -> list[Odds]:
    u = _reformer(state, req)
    c = reform_check(state, u)
    w = c.weights()
    tot = sum(w.values())
    d: FDist = {}
    for v, k in w.items():
        n = max(0, min(u.disorder, v))
        d[n] = d.get(n, Fraction(0)) + Fraction(k, tot)
    return [odds_of(c.label, d, R_DIS, noun="D removed")]


# -- the table ----------------------------------------------------------------------------------
def check_skirmish_width(state: State, u: Unit, width: float) -> None:
    """Kuryakin, Skirmishers: a single broken line no wider than four times the normal."""
    ranks = state.config.formation_ranks["line"]
    normal = math.ceil(u.figures / ranks) * geom.FIGURE_FRONTAGE_MM
    most = state.config.options.skirmish_frontage_factor * normal
    if width <= 0 or width > most:
        raise RuleViolation(
            "Kuryakin, Skirmishers",
            f"{u.id}'s skirmish line may be at most {most:.0f}mm wide"
            " (four times its line frontage)",
        )


def place(state: State, req: rq.Place, dice: DiceSource) -> Outcome:
    """Put a unit (x, y, facing, width, depth in mm) or a general (x, y) on the table."""
    ch = Changes(state)
    if req.general is not None:
        g = state.general(req.general)
        ch.general(GeneralPlaced, g.id, "placed", x=req.x, y=req.y)
        return Outcome(tuple(ch.events), (), f"{g.id} at ({req.x}, {req.y})")
    if req.unit is None:
        raise BadRequest("missing 'unit'")
    u = state.unit(req.unit)
    kw: dict[str, Any] = {"x": req.x, "y": req.y}
    for k, v in (("facing", req.facing), ("width", req.width), ("depth", req.depth)):
        if v is not None:
            kw[k] = v
    if u.skirmishing and "width" in kw:
        check_skirmish_width(state, u, kw["width"])
    ch.unit(Placed, u.id, "placed", **kw)
    return Outcome(tuple(ch.events), (), f"{u.id} placed at ({kw['x']:.0f}, {kw['y']:.0f})")


def attach(state: State, req: rq.Attach, dice: DiceSource) -> Outcome:
    """Attach a general to a unit (``unit=none`` detaches him). Attached generals stand in the
    front rank (Kuryakin, Firing) and count in morale and charge tests."""
    g = state.general(req.general)
    target = req.unit
    ch = Changes(state)
    if target.lower() == "none":
        ch.general(GeneralAttached, g.id, "detached", attached_to=None)
        return Outcome(tuple(ch.events), (), f"{g.id} detached")
    u = state.unit(target)
    if u.side != g.side:
        raise BadRequest(f"{g.id} cannot join an enemy unit")
    if g.killed:
        raise RuleViolation("Kuryakin, Generals", f"{g.id} is dead")
    ch.general(GeneralAttached, g.id, f"attached to {u.id}", attached_to=u.id)
    if u.placed:  # he joins its front rank (Kuryakin, Firing)
        ch.general(GeneralMoved, g.id, f"joins {u.id}", x=u.x, y=u.y)
    return Outcome(tuple(ch.events), (), f"{g.id} attached to {u.id}")


R_GENERAL = "Kuryakin, Generals (a general's own move)"


def general_reach(state: State, g: Any) -> float:
    """What is left of a general's move this turn (mm: [move_distances] general)."""
    full = next(iter(state.config.move_distances["general"].values()))
    return max(0.0, full - float(g.moved_mm))


def ride(state: State, req: rq.Ride, dice: DiceSource) -> Outcome:
    """An unattached general rides: toward a unit (as far as his move takes him, up to its
    position) or to a point within his move; once his move is spent he stays for the turn
    (assumption: the text gives no general's move; its distance is data). A brigadier rides on
    his formation's card or one of his units' cards; a senior general on any card."""
    g = state.general(req.general)
    if g.killed:
        raise RuleViolation(R_GENERAL, f"{g.id} is dead")
    if g.attached_to is not None:
        raise RuleViolation(
            R_GENERAL,
            f"{g.id} is attached to {g.attached_to}: he goes with it"
            f" ('attach general={g.id} unit=none' detaches him)",
        )
    if not g.placed:
        raise RuleViolation(R_GENERAL, f"{g.id} is not on the table: 'place general={g.id}'")
    if g.rank == "brigadier":
        mine = {u.id for u in state.brigade_units(g.id)}
        if state.active != g.id and not mine & set(state.active_units()):
            raise RuleViolation(
                R_GENERAL, f"{g.id} rides on his formation's or his units' card, not now"
            )
    reach = general_reach(state, g)
    if reach <= 0:
        raise RuleViolation(R_GENERAL, f"{g.id} has made his move this turn")
    assert g.x is not None and g.y is not None
    if req.to is not None:
        if req.x is not None or req.y is not None:
            raise BadRequest("give 'to' or 'x' and 'y', not both")
        u = state.unit(req.to)
        if u.side != g.side or u.x is None or u.y is None:
            raise RuleViolation(R_GENERAL, f"{g.id} rides toward a friendly unit on the table")
        dx, dy = u.x - g.x, u.y - g.y
        d = math.hypot(dx, dy)
        if d <= 1e-9:
            raise RuleViolation(R_GENERAL, f"{g.id} is already with {u.id}")
        step = min(reach, d)
        x, y = g.x + dx * step / d, g.y + dy * step / d
    else:
        if req.x is None or req.y is None:
            raise BadRequest("missing 'to' (a unit) or 'x' and 'y' (a point)")
        x, y = req.x, req.y
        step = math.hypot(x - g.x, y - g.y)
        if step > reach + 1e-9:
            raise RuleViolation(
                R_GENERAL, f"{g.id} may ride {reach:.0f}mm more; that is {step:.0f}mm"
            )
    ch = Changes(state)
    ch.general(
        GeneralMoved, g.id, "rides", x=round(x, 1), y=round(y, 1), moved_mm=g.moved_mm + step
    )
    return Outcome(tuple(ch.events), (), f"{g.id} rides {step:.0f}mm to ({x:.0f}, {y:.0f})")
