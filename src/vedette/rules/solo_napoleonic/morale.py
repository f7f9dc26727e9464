"""Morale, rallying, the Charge Test and the Charge Home Test (Kuryakin, Morale; Charge Test;
Charge Home Test). Percentile dice BELOW the Base Percentage Level plus the modifiers."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from vedette.dice import Check, DiceSource, Modifier, Odds, Roll, UnderCheck
from vedette.dice.tables import Table
from vedette.errors import BadRequest, DataError, RuleViolation
from vedette.geometry.tabletop import distance
from vedette.rules.base import Outcome
from vedette.rules.solo_napoleonic import charging, fire, flow, geom
from vedette.rules.solo_napoleonic import requests as rq
from vedette.rules.solo_napoleonic.actions import (
    base_move,
    changing_refusal,
    charging_refusal,
    collisions,
    halt_refusal,
    move_refusal,
    musician_over_half,
    owed_move,
    reform_refusal,
    require_active,
    rules_move_collisions,
    standstill_check,
    standstill_due,
    standstill_refusal,
    start_refusal,
)
from vedette.rules.solo_napoleonic.cards import jump
from vedette.rules.solo_napoleonic.chance import chance_mods, effects_on, use_effects
from vedette.rules.solo_napoleonic.common import (
    Changes,
    check_roll,
    modifier,
    mods,
    optional_on,
    pct_test,
    result_roll,
)
from vedette.rules.solo_napoleonic.events import (
    ChanceCardApplied,
    ChargeDeclared,
    ChargedHome,
    ChargeHomeFailed,
    ChargeRefused,
    ClosedUp,
    Disordered,
    FormationChanged,
    MoraleFailed,
    MoraleHeld,
    MoraleMarked,
    Rallied,
    RallyFailed,
    StandstillTested,
)
from vedette.rules.solo_napoleonic.model import (
    GRADES,
    State,
    Unit,
    grade_rank,
    special_lost,
    updated,
)

R_MORALE = "Kuryakin, Morale"
R_CHARGE = "Kuryakin, Charge Test"
R_HOME = "Kuryakin, Charge Home Test"
R_RALLY = "Kuryakin, Morale (rallying: one try per activation, a failure binds for the turn)"


def bpl(state: State, test: str, grade: str) -> int:
    return state.config.bpl[test][grade]


def attached(state: State, u: Unit) -> list[tuple[str, str | None]]:
    """(rank, AV) of the living generals attached to the unit."""
    return [(g.rank, g.av) for g in state.generals if g.attached_to == u.id and not g.killed]


def officer_lost(state: State, u: Unit, front: bool | None) -> bool:
    """Officer dead, absent, or (by the optional rules) not in the front rank (``front``: as
    stated, else from his position)."""
    if not optional_on(state, "officers"):
        return False
    in_front = u.officer_pos <= u.front_rank()
    return special_lost(u, "officer") or not rq.flag(front, in_front)


def standard_lost(state: State, u: Unit, front: bool | None, melee: bool = False) -> bool:
    if not optional_on(state, "standards"):
        return False
    in_front = u.standard_pos <= u.front_rank()
    return special_lost(u, "standard") or (melee and not rq.flag(front, in_front))


def attacker_of(state: State, req: rq.MoraleFacts) -> Unit | None:
    a = req.charged_by
    return state.unit(a) if a is not None else None


def friends(state: State, u: Unit, req: rq.MoraleFacts) -> int:
    if req.friendly_within_300 is not None:
        return rq.count(req.friendly_within_300, "friendly_within_300")
    n = geom.friends_within(state, u, state.config.options.friendly_range_mm)
    return n or 0


def friends_routing(state: State, u: Unit, req: rq.MoraleFacts) -> int:
    if req.friends_routing is not None:
        return rq.count(req.friends_routing, "friends_routing")
    reach = state.config.options.friends_routing_range_mm
    n = 0
    for o in state.units:
        if o.id != u.id and o.side == u.side and o.on_table and o.status == "routing":
            if reach <= 0:
                n += 1
                continue
            # the text gives no range: where positions are not kept, every routing friend
            # counts (the range is our assumption and can only be measured on the table)
            if geom.within(u, o, reach) is not False:
                n += 1
    return n


def casualties_counted(state: State, u: Unit, req: rq.MoraleFacts) -> int:
    if req.casualties is not None:
        return rq.count(req.casualties, "casualties")
    return casualties_of(state, u)


def casualties_of(state: State, u: Unit) -> int:
    """The unit's casualties as the morale list counts them (``[options] morale_casualties``)."""
    if state.config.options.morale_casualties == "total":
        return max(0, u.start_figures - u.figures)
    return u.casualties_turn


def morale_modifiers(state: State, u: Unit, req: rq.MoraleFacts) -> tuple[Modifier, ...]:
    """Every modifier of Kuryakin's morale list that applies, from the state and the facts."""
    s = "morale"
    att = attacker_of(state, req)
    side = geom.attack_side(u, att) if att is not None else None
    stated = att is not None and att.charge_target == u.id and att.charge_flank
    flank = rq.flag(req.flank_rear, side in ("flank", "rear") or stated)
    in_cmd = rq.flag(req.in_command, u.in_command)
    higher = rq.flag(
        req.charged_by_higher_class,
        att is not None and grade_rank(att.grade) < grade_rank(u.grade),
    )
    vs_cav = rq.flag(req.vs_cavalry, att is not None and att.cavalry)
    ranks = [r for r, _ in attached(state, u)]
    return mods(
        modifier(state, s, "flank_rear") if flank else None,
        modifier(state, s, "friendly_within_300", friends(state, u, req)),
        modifier(state, s, "in_command") if in_cmd else None,
        modifier(state, s, "defending_cover") if req.defending_cover else None,
        modifier(state, s, "casualties", casualties_counted(state, u, req)),
        modifier(state, s, "brigadier_attached")
        if ("brigadier" in ranks or "division" in ranks)
        else None,
        modifier(state, s, "corps_attached") if "corps" in ranks else None,
        modifier(state, s, "artillery_no_reply")
        if rq.flag(req.artillery_no_reply, "artillery_no_reply" in u.morale_facts)
        else None,
        modifier(state, s, "disorder", u.disorder),
        modifier(state, s, "charged_by_higher_class") if higher else None,
        modifier(state, s, "melee_loser") if rq.flag(req.melee_loser, u.lost_melee) else None,
        modifier(state, s, "co_killed")
        if rq.flag(req.co_killed, "co_killed" in u.morale_facts)
        else None,
        modifier(state, s, "corps_killed")
        if rq.flag(req.corps_killed, "corps_killed" in u.morale_facts)
        else None,
        modifier(state, s, "retiring") if u.status == "retiring" else None,
        modifier(state, s, "routing") if u.status == "routing" else None,
        modifier(state, s, "friends_routing", friends_routing(state, u, req)),
        modifier(state, s, "square_vs_cavalry")
        if vs_cav and u.kind == "infantry" and u.formation == "square"
        else None,
        modifier(state, s, "not_square_vs_cavalry")
        if vs_cav and u.kind == "infantry" and u.formation != "square"
        else None,
        modifier(state, s, "officer_dead") if officer_lost(state, u, req.officer_front) else None,
        *chance_mods(state, u, "morale"),
    )


def morale_check(state: State, u: Unit, req: rq.MoraleFacts, label: str = "morale") -> UnderCheck:
    return pct_test(
        state,
        bpl(state, "morale", u.grade),
        morale_modifiers(state, u, req),
        f"{u.id} {label}",
        R_MORALE,
        "morale holds",
        "fails morale",
    )


def result_table(state: State) -> Table:
    return state.config.morale_result


def result_check(state: State, u: Unit) -> Check:
    t = result_table(state)
    return Check(t.dice, (), t, f"{u.id} morale result", R_MORALE)


def _testable(state: State, uid: str) -> Unit:
    u = state.unit(uid)
    if not u.on_table:
        raise RuleViolation(R_MORALE, f"{uid} is no longer on the table")
    return u


def with_charger(state: State, u: Unit, req: rq.MoraleFacts) -> rq.MoraleFacts:
    """The charger the game knows, filled in (Kuryakin, Charge Test: the charge's modifiers of
    the target's forced test, and of its test as the loser of the melee that follows), so a
    forgotten ``charged_by`` never drops them; a different one is refused."""
    c = charging.charger_of(state, u.id, "morale") or charging.charger_of(state, u.id, "loser")
    if c is None:
        return req
    given = req.charged_by
    if given is not None and given != c.id:
        raise RuleViolation(R_CHARGE, f"{u.id} is charged by {c.id}, not {given}")
    return replace(req, charged_by=c.id)


def morale(state: State, req: rq.MoraleFacts, dice: DiceSource) -> Outcome:
    """A morale test (percentile dice below BPL + modifiers); a failure rolls the D10 result
    chart. A failure binds for the turn: a later pass does not erase it."""
    u = _testable(state, req.unit)
    req = with_charger(state, u, req)
    ch = Changes(state)
    r = result_roll(morale_check(state, u, req), dice)
    rolls: list[Roll] = [r]
    use_effects(ch, u.id, "morale")
    again = effects_on(state, u, "reroll", "morale")
    if r.row != "pass" and again:
        # a chance card's re-roll: the failed test is rolled again, once (the card is spent)
        left = tuple(x for x in ch.state.unit(u.id).chance_effects if x != again[0].id)
        ch.unit(
            ChanceCardApplied,
            u.id,
            f"chance card {again[0].id}: morale rolled again",
            chance_effects=left,
        )
        r = result_roll(morale_check(ch.state, ch.state.unit(u.id), req), dice)
        rolls.append(r)
    if r.row == "pass":
        ch.unit(MoraleHeld, u.id, "morale holds", morale_due=False, morale_facts=())
        lapse = flow.after_morale(ch, u.id, True)
        return Outcome(
            tuple(ch.events),
            tuple(rolls),
            f"{u.id} holds (rolled {r.natural} under {r.target})" + (f"; {lapse}" if lapse else ""),
            {"passed": True, "unit": u.id},
        )
    rr = result_roll(result_check(state, u), dice)
    rolls.append(rr)
    row = result_table(state).row(rr.row or "")
    # the row's columns (data/rules.toml, [tables.morale_result.columns]); a row that leaves
    # out its status or what binds leaves the unit's own ("": the unit's, resolved here)
    add = row.disorder if not u.skirmishing else 0
    # a later result never makes the unit's state milder (issue 23): routing > retiring > steady
    new_status = row.status or u.status
    if SEVERITY.get(new_status, 0) < SEVERITY.get(u.status, 0):
        new_status = u.status
    bind = row.bind or None
    if bind is not None and bind not in BINDS:
        raise DataError(
            "solo_napoleonic data",
            f"morale result {row.key!r}: bind must be one of {', '.join(BINDS)}",
        )
    if bind in ("retire", "retire_half") and new_status == "routing":
        bind = "rout"  # a routing unit only runs
    if bind == "halt" and new_status == "routing":
        bind = u.bound
    ch.unit(
        MoraleFailed,
        u.id,
        f"failed morale: {row.result}",
        morale_due=False,
        morale_facts=(),
        morale_failed=True,
        status=new_status,
        bound=bind if bind is not None else u.bound,
        disorder=u.disorder + add,
        must_rally=row.rally or u.must_rally,
        advancing=False,
        charge_state=None if u.charge_state == "declared" else u.charge_state,
        charge_step=None if u.charge_state == "declared" else u.charge_step,
    )
    flow.after_morale(ch, u.id, False)
    called: list[str] = []
    if new_status != u.status and new_status in SEVERED and u.formation_target is not None:
        called.append(drop_change(ch, u, new_status))
    if ch.state.unit(u.id).status == "routing" and u.status != "routing":
        reach = state.config.options.friends_routing_range_mm
        for o in state.units:
            if o.id == u.id or o.side != u.side or not o.on_table or o.status == "routing":
                continue
            if geom.within(o, u, reach):  # positions not kept: not called (use require)
                note = charging.call_morale(ch, o.id, "friend_routs")
                if note:
                    called.append(note)
    return Outcome(
        tuple(ch.events),
        tuple(rolls),
        f"{u.id} fails morale: {row.result}" + "".join(f"; {n}" for n in called),
        {"passed": False, "result": row.key, "unit": u.id},
    )


def drop_change(ch: Changes, u: Unit, status: str) -> str:
    """Reading K94 (Morale: a routing unit runs, Disorder: "Each move of Rout 2D"; Formation
    Changing: "some units have to carry a change into the next turn"; what a rout does to a
    change under way: not stated): a unit that routs abandons the formation change it is making
    (it stays in its old formation), so the turn's end gives it no "Formation Incomplete" chit
    every turn until it rallies. Reading K96: a unit the result leaves retiring (a full move
    away in disorder, must rally: like a routing unit it only retires or rallies) abandons it
    too; a half move back facing the enemy leaves the unit steady and its change under way.
    ``[options] rout_keeps_change = true``: the change stays under way (the chit each turn
    end), to be gone on with once the unit has rallied. The words."""
    k = "K94" if status == "routing" else "K96"
    if ch.state.config.options.rout_keeps_change:
        return f"its change to {u.formation_target} stays under way (reading {k})"
    why = f"{SEVERED[status]}: its formation change is abandoned (reading {k})"
    ch.unit(FormationChanged, u.id, why, formation_target=None, formation_quarters=0)
    return f"its change to {u.formation_target} is abandoned: it stays in {u.formation} ({k})"


#: the statuses a morale result leaves that abandon a change under way (K94, K96), and the words
SEVERED = {"routing": "routs", "retiring": "retires in disorder"}
#: how severe a status is: a later morale result never makes it milder
SEVERITY = {"steady": 0, "retiring": 1, "routing": 2, "eliminated": 3}
#: what a morale result may bind (the table's ``bind``)
BINDS = ("rout", "retire", "retire_half", "halt")


def morale_odds(state: State, req: rq.MoraleFacts) -> list[Odds]:
    u = _testable(state, req.unit)
    req = with_charger(state, u, req)
    return [morale_check(state, u, req).odds(), result_check(state, u).odds()]


# -- a morale test another event requires ------------------------------------------------------
def require_morale(state: State, req: rq.Require, dice: DiceSource) -> Outcome:
    """Another event makes ``unit`` test morale: a marker for when its turn comes, or (if it
    has already acted) a test at once (Kuryakin, Movement)."""
    uid = req.unit
    u = state.unit(uid)
    card = state.card_of(uid)
    acted = u.acted or (card is not None and card.holder in state.done)
    if acted:
        out = morale(state, req, dice)
        return Outcome(
            out.events,
            out.rolls,
            f"{uid} has already acted: tests at once. " + out.message,
            out.details,
        )
    ch = Changes(state)
    ch.unit(MoraleMarked, uid, "morale test due when its turn comes", morale_due=True)
    return Outcome(tuple(ch.events), (), f"{uid} gets a marker: test morale when its card comes")


def require_odds(state: State, req: rq.Require) -> list[Odds]:
    """A unit that has already acted tests at once: the morale test's odds."""
    uid = req.unit
    u = state.unit(uid)
    card = state.card_of(uid)
    if u.acted or (card is not None and card.holder in state.done):
        return morale_odds(state, req)
    return []


def _rallyable(state: State, uid: str) -> Unit:
    """A unit may try to rally once on its activation (Kuryakin, Move Sequence: "once
    activated ... each unit can move, fire and attack"; a failed test binds for the turn)."""
    u = _testable(state, uid)
    if not u.must_rally:
        raise RuleViolation(R_MORALE, f"{u.id} has no result that needs rallying")
    if u.rally_failed:
        raise RuleViolation(
            R_RALLY,
            f"{u.id} failed to rally this turn: that binds (one try per activation;"
            " it tries again next turn)",
        )
    return u


def rally(state: State, req: rq.Rally, dice: DiceSource) -> Outcome:
    """Rallying (Kuryakin, Morale: the first two results need rallying): a morale test; a pass
    ends the rout or disordered retirement, a failure binds for the turn. A unit rallies on its
    own activation (Move Sequence: "once activated by card priority, each unit can move, fire
    and attack"), not on another unit's card."""
    u = _rallyable(state, req.unit)
    if u.id not in state.active_units() and not rq.ANY_CARD.get():
        raise RuleViolation(
            R_RALLY,
            f"it is not {u.id}'s card (active: {state.active or 'none'}): a unit tries to rally"
            " when its own card comes",
        )
    r = result_roll(morale_check(state, u, req, "rally"), dice)
    ch = Changes(state)
    use_effects(ch, u.id, "morale")
    if r.row == "pass":
        ch.unit(Rallied, u.id, "rallied", must_rally=False, status="steady")
        msg = f"{u.id} rallies"
    else:
        ch.unit(RallyFailed, u.id, "failed to rally (binds for the turn)", rally_failed=True)
        msg = f"{u.id} fails to rally and stays {u.status}"
    return Outcome(tuple(ch.events), (r,), msg, {"rallied": r.row == "pass"})


def rally_odds(state: State, req: rq.Rally) -> list[Odds]:
    u = _rallyable(state, req.unit)
    return [morale_check(state, u, req, "rally").odds()]


# -- charge ---------------------------------------------------------------------------------------
def _av_key(prefix: str, av: str | None) -> str:
    return f"{prefix}_{av or 'normal'}"


def charge_modifiers(
    state: State, u: Unit, target: Unit | None, req: rq.ChargeFacts
) -> tuple[Modifier, ...]:
    """The Charge Test's own list (Kuryakin, Charge Test) and the officer "-5% to all morale"
    (reading K46). Reading K107: "The method is as for ordinary morale" is the D100 under the
    BPL and the modifiers, not the morale list's modifiers: the test has a list of its own, as
    the Charge Home Test has (which names its casualties and 'D' factors where they count).
    ``[options] charge_morale_losses``: the morale list's casualties and 'D' factors added."""
    s = "charge"
    out: list[Modifier | None] = []
    for rank, av in attached(state, u):
        out.append(
            modifier(state, s, _av_key("brigadier" if rank == "brigadier" else "senior", av))
        )
    inferior = rq.flag(
        req.charging_inferior,
        target is not None and grade_rank(target.grade) > grade_rank(u.grade),
    )
    out.append(modifier(state, s, "charging_inferior") if inferior else None)
    std_lost = standard_lost(state, u, req.standard_front)
    out.append(modifier(state, s, "standard_dead") if std_lost else None)
    off_lost = officer_lost(state, u, req.officer_front)
    out.append(modifier(state, s, "officer_dead") if off_lost else None)
    if state.config.options.charge_morale_losses:
        # reading K107's house rule: "as for ordinary morale" read as the morale list's losses too
        out.append(modifier(state, "morale", "casualties", casualties_of(state, u)))
        out.append(modifier(state, "morale", "disorder", u.disorder))
    out.extend(chance_mods(state, u, "charge"))
    return mods(*out)


def charge_check(state: State, u: Unit, target: Unit | None, req: rq.ChargeFacts) -> UnderCheck:
    return pct_test(
        state,
        bpl(state, "charge", u.grade),
        charge_modifiers(state, u, target, req),
        f"{u.id} charge test",
        R_CHARGE,
        "charges",
        "will not charge",
    )


def _charger(state: State, req: rq.Charge) -> tuple[Unit, Unit]:
    u = _testable(state, req.unit)
    t = _testable(state, req.target)
    if t.side == u.side:
        raise BadRequest(f"{t.id} is on {u.id}'s own side")
    return u, t


def start_charge_refusal(state: State, u: Unit) -> RuleViolation | None:
    """A halted unit's charge tests to move off first (reading K74, ``actions.standstill_due``):
    refused when it has made its test(s) of this card (reading K72), or None."""
    if not standstill_due(state, u, "charge"):
        return None
    return standstill_refusal(state, u)


def _charge_allowed(state: State, u: Unit, t: Unit) -> None:
    """What forbids a charge (the same for the roll and its odds)."""
    charging.bind_charge(u)
    charging.bind_status(u, "charge")
    no = charging.fired_refusal(u) or charging.failed_morale_refusal(state, u)
    if no is not None:
        raise no
    if u.artillery or u.skirmishing:
        raise RuleViolation(R_CHARGE, f"{u.id} cannot charge ({u.kind}, {u.formation})")
    no = start_charge_refusal(state, u) or changing_refusal(state, u, "charge")
    if no is not None:
        raise no
    if u.restricted_to is not None and t.id != u.restricted_to:
        raise RuleViolation(
            "Kuryakin, Movement", f"{u.id} may act only against {u.restricted_to} this turn"
        )
    other = next(
        (c for c in charging.chargers(state) if c.charge_target == t.id and c.id != u.id), None
    )
    if other is not None:
        # assumption (the text is silent): one charge at a time on a target; its forced
        # test, fire and melee are that charge's until it is over
        raise RuleViolation(
            R_CHARGE, f"{t.id} is already being charged by {other.id}: that charge comes first"
        )
    if geom.body(u) is not None and geom.body(t) is not None:
        reach = base_move(state, u) - u.moved_mm
        if geom.within(u, t, reach) is False:  # (measured where the bounds leave it open)
            d = geom.unit_distance(u, t)
            assert d is not None
            raise RuleViolation(
                R_CHARGE,
                f"{t.id} is {d:.0f}mm away: beyond {u.id}'s charge reach ({reach:.0f}mm, its move)",
            )
        barred = in_the_way(state, u, t)
        if barred:
            raise RuleViolation(
                R_CHARGE,
                f"{u.id} cannot charge {t.id} in a straight line: {', '.join(barred)} in the way"
                " (units who charge do so in a straight line; reading K68)",
            )


def in_the_way(state: State, u: Unit, t: Unit) -> list[str]:
    """The units the charger's straight line to its target runs into (the way it would move up:
    :func:`contact`, :func:`actions.collisions`) that bar the charge. Reading K68: "units who
    charge do so in a straight line" at their target: a unit in the way is met first, so the
    charge cannot be made; an enemy's always, the charger's own side's unless ``[options]
    charge_through_friends`` (it then passes through them, the collision owed when it moves
    up). Its own skirmish screen never bars it (reading K64)."""
    kw = contact(u, t)
    if not kw:
        return []
    hit = collisions(state, u, updated(u, kw), t.id)
    friends = state.config.options.charge_through_friends
    return [x for x in hit if not (friends and state.unit(x).side == u.side)]


def charge_refused(state: State, req: rq.Charge) -> bool:
    """Whether :func:`charge` is sure to refuse this charge for the distance alone: the target
    clearly beyond the charger's reach, told from the bodies' centres (``geom.within``) without
    measuring (the simulator's quick check: ``requests.by_dry_run``). Every check before the
    reach refuses too, and all of them come before the charge test's die."""
    u, t = state.find(req.unit), state.find(req.target)
    if u is None or t is None:
        return False
    bu, bt = geom.body(u), geom.body(t)
    if bu is None or bt is None:
        return False
    reach = base_move(state, u) - u.moved_mm
    near = geom.bodies_within(bu, bt, reach)  # (``geom.within``'s bounds, the bodies in hand)
    return (near if near is not None else geom.within(u, t, reach)) is False


def quick_refused(state: State, procedure: str, unit: str, req: Any) -> bool:
    """True only of an action of ``simplay.QUICK`` the rules are sure to refuse, before any die,
    told cheaply (the simulator's quick check of the lines it draws, ``simplay.KuryakinSim``):
    a fire out of arc or range (``fire.refused``); a charge the charger's own state forbids
    (``charging.charge_refusal``, ``charging.fired_refusal``,
    ``charging.failed_morale_refusal``), or out of reach
    (:func:`charge_refused`); a reform, a try to halt or to move off the unit's state forbids
    (``actions.reform_refusal``, ``halt_refusal``, ``start_refusal``); a move (any of its
    choices: ``req`` None) by a unit that owes no rout or retirement and is charging
    (``actions.charging_refusal``) or may not move this turn (``actions.move_refusal``).
    ``unit``: the unit acting. Each is the very refusal the procedure raises (the same
    function), whatever it checks first, so the two cannot drift apart."""
    if procedure == "fire":
        return bool(fire.refused(state, req))
    u = state.find(unit)
    if procedure == "charge":
        if u is not None and (
            charging.fired_refusal(u) is not None
            or charging.charge_refusal(u) is not None
            or charging.failed_morale_refusal(state, u) is not None
            or start_charge_refusal(state, u) is not None
            or changing_refusal(state, u, "charge") is not None
        ):
            return True
        return bool(charge_refused(state, req))
    if u is None:
        return False
    if procedure == "reform":
        return (
            reform_refusal(state, u) is not None or changing_refusal(state, u, "reform") is not None
        )
    if procedure == "halt":
        return halt_refusal(state, u) is not None
    if procedure == "start":
        return start_refusal(state, u) is not None
    if procedure == "move":
        return owed_move(u) is None and (
            charging_refusal(u, "move") is not None or move_refusal(state, u) is not None
        )
    return False


def charge_allowed(state: State, req: rq.Charge) -> None:
    """Refuse a charge the rules forbid now (reach, status, a failed test), without dice."""
    _charge_allowed(state, *_charger(state, req))


def charge(state: State, req: rq.Charge, dice: DiceSource) -> Outcome:
    """Declare a charge: the Charge Test. A pass forces an immediate morale test on the target,
    which jumps the card queue to act straight after the charger."""
    u, t = _charger(state, req)
    require_active(state, u, R_CHARGE, "charge")
    _charge_allowed(state, u, t)
    if u.bound == "halt":
        raise RuleViolation(
            R_MORALE, f"{u.id} halts where it stands (its morale result): no charge this turn"
        )
    for c in effects_on(state, u, "no_move"):
        raise RuleViolation(
            "Kuryakin, Move Sequence (chance cards)",
            f"{u.id} may not move this turn (chance card: {c.title}): no charge",
        )
    ch = Changes(state)
    rolls: list[Roll] = []
    if standstill_due(state, u, "charge"):
        # reading K74: a halted unit's charge gets it moving: its standstill test comes first
        s = check_roll(standstill_check(state, u, False), dice)
        rolls.append(s)
        use_effects(ch, u.id, "standstill")
        n = u.standstill_tests + 1
        if s.row == "stays":
            ch.unit(
                StandstillTested,
                u.id,
                "fails to move from a standstill",
                start_failed=True,
                standstill_tests=n,
            )
            msg = f"{u.id} does not advance (it failed to move from a standstill): no charge"
            return Outcome(tuple(ch.events), tuple(rolls), msg, {"charges": False})
        ch.unit(StandstillTested, u.id, "moves off", advancing=True, standstill_tests=n)
    r = result_roll(charge_check(state, u, t, req), dice)
    rolls.append(r)
    use_effects(ch, u.id, "charge")
    if r.row != "pass":
        # a failed charge test binds for the turn (issue 14: it cannot be retaken)
        ch.unit(ChargeRefused, u.id, f"will not charge {t.id}", charge_failed=True)
        msg = f"{u.id} will not charge {t.id}"
        return Outcome(tuple(ch.events), tuple(rolls), msg, {"charges": False})
    # Melee, Cavalry vs. Infantry: "Skirmishers will not stand against cavalry, and if
    # charged will evade D20cm": reading K65, they evade instead of the test the charge forces
    # ([options] evade_morale = "before": the test first, then the evasion)
    evades = t.skirmishing and u.cavalry
    untested = evades and state.config.options.evade_morale == "none"
    ch.unit(
        ChargeDeclared,
        u.id,
        f"charges {t.id}",
        charge_state="declared",
        charge_target=t.id,
        advancing=True,
        charge_step="evade" if untested else "morale",
        charge_flank=bool(req.flank_rear),
    )
    msg = jump(ch, u.id, t.id)
    # its test is owed when its jumped card comes (or at once if it has already acted)
    when = "now" if "at once" in msg else "when its card comes ('next')"
    if untested:
        msg = msg.replace(": it tests morale at once", ": it answers the charge at once")
        tail = (
            f"; skirmishers will not stand against cavalry: {t.id} evades {when} (evade"
            f" unit={t.id}, D20 cm; no morale test: reading K65)"
        )
    else:
        tail = f"; {t.id} must test morale {when} (morale unit={t.id} charged_by={u.id})" + (
            f", then evade unit={t.id} (D20 cm)" if evades else ""
        )
    return Outcome(
        tuple(ch.events),
        tuple(rolls),
        f"{u.id} charges {t.id}; {msg}{tail}",
        {"charges": True, "jump": msg},
    )


def charge_odds(state: State, req: rq.Charge) -> list[Odds]:
    u, t = _charger(state, req)
    _charge_allowed(state, u, t)
    first = [standstill_check(state, u, False).odds()] if standstill_due(state, u, "charge") else []
    return [*first, charge_check(state, u, t, req).odds()]


def home_needed(u: Unit, t: Unit) -> bool:
    """Kuryakin, Cavalry vs. Infantry: no charge-in test is needed when the target has failed
    its morale test and the charger has taken no casualties."""
    return not (t.morale_failed and u.casualties_turn == 0)


def home_modifiers(state: State, u: Unit, t: Unit, req: rq.ChargeHome) -> tuple[Modifier, ...]:
    s = "charge_home"
    ranks = [r for r, _ in attached(state, u)]
    steady = rq.flag(req.target_steady, not t.morale_failed)
    cas = rq.count(req.casualties_this_move, "casualties_this_move", u.casualties_turn)
    obstacle = req.obstacle
    if obstacle not in (None, "obstacle", "building"):
        raise BadRequest("'obstacle' must be obstacle or building")
    return mods(
        modifier(state, s, "uphill") if req.uphill else None,
        modifier(state, s, "brigadier_attached") if "brigadier" in ranks else None,
        modifier(state, s, "senior_attached")
        if ("division" in ranks or "corps" in ranks)
        else None,
        modifier(state, s, "enemy_disorder", t.disorder),
        modifier(state, s, "casualties_this_move", cas),
        modifier(state, s, obstacle) if obstacle else None,
        modifier(state, s, "disorder", u.disorder),
        modifier(state, s, "cavalry_vs_steady_infantry")
        if (u.cavalry and t.kind == "infantry" and steady)
        else None,
        modifier(state, s, "officer_dead") if officer_lost(state, u, req.officer_front) else None,
        modifier(state, s, "standard_dead")
        if standard_lost(state, u, req.standard_front, True)
        else None,
        *chance_mods(state, u, "charge_home"),
    )


def home_check(state: State, u: Unit, t: Unit, req: rq.ChargeHome) -> UnderCheck:
    return pct_test(
        state,
        bpl(state, "charge_home", u.grade),
        home_modifiers(state, u, t, req),
        f"{u.id} charge home",
        R_HOME,
        "charges home",
        "fails to charge home",
    )


def _home_units(state: State, req: rq.ChargeHome) -> tuple[Unit, Unit]:
    u = _testable(state, req.unit)
    if u.home_failed:
        raise RuleViolation(R_HOME, f"{u.id} failed its charge home test this turn: that binds")
    if charging.routed_before_contact(state, u):
        raise RuleViolation(
            R_CHARGE,
            f"{u.charge_target} routed before contact: there is no charge home and no melee"
            " (the charger takes the ground)",
        )
    if u.charge_state != "declared" or u.charge_target is None:
        raise RuleViolation(R_HOME, f"{u.id} has not declared a charge (run 'charge' first)")
    t = _testable(state, u.charge_target)
    if t.morale_due:
        # Kuryakin, Charge Test: a charge forces an immediate test from its target; only then
        # does the attacker move up, take defensive fire and test to charge home
        raise RuleViolation(
            R_CHARGE, f"{t.id} must first take the morale test the charge forces (morale)"
        )
    if u.charge_step not in (None, "home"):
        raise RuleViolation(
            R_CHARGE,
            f"{u.id}'s charge is not at its charge home test: the {u.charge_step} step is owed"
            " (see todo)",
        )
    return u, t


def contact(u: Unit, t: Unit) -> dict[str, float]:
    """Where positions are tracked, the charger ends in contact with its target: it faces the
    target and moves straight at it (a charge is made in a straight line)."""
    bu, bt = geom.body(u), geom.body(t)
    if bu is None or bt is None:
        return {}
    b = bu.facing_toward(bt.centre)
    for _ in range(4):
        if geom.bodies_within(b, bt, 0.5):
            break  # (clearly in contact: not measured)
        d = distance(b, bt)
        if d <= 0.5:
            break
        b = b.advanced(d)
    moved = round(bu.centre.distance(b.centre), 1)
    return {
        "x": round(b.centre.x, 1),
        "y": round(b.centre.y, 1),
        "facing": round(b.facing, 1),
        "moved_mm": u.moved_mm + moved,
    }


def reach_short(state: State, u: Unit, kw: dict[str, Any]) -> dict[str, Any] | None:
    """Where the move up to contact (``kw``, from :func:`contact`) is longer than what is left
    of the charger's move (its charge reach, reading K50; the target may have retired since the
    charge was declared): the charger's place after moving all that is left straight at the
    target (reading K88), else None."""
    if not kw:
        return None
    left = max(0.0, base_move(state, u) - u.moved_mm)
    t = state.unit(str(u.charge_target))
    if kw["moved_mm"] - u.moved_mm <= left + 0.5 or geom.within(u, t, left) is not False:
        return None  # (measured as the charge's reach is: a target still in reach is reached)
    b = geom.body(u)
    bt = geom.body(t)
    assert b is not None and bt is not None
    b = b.facing_toward(bt.centre).advanced(left)
    return {
        "x": round(b.centre.x, 1),
        "y": round(b.centre.y, 1),
        "facing": round(b.facing, 1),
        "moved_mm": u.moved_mm + left,
    }


def musician_chits(ch: Changes, u: Unit, kw: dict[str, Any]) -> str:
    """Kuryakin, Disorder: "Unit moving over 1/2 and Musician dead 1D" (optional): a charge's
    move (``kw``, made by ``u`` as it was before it) that takes it over half its move gives the
    chit, once: the charge's later moves add to a move already over half."""
    n = musician_over_half(ch.state, u, float(kw.get("moved_mm", u.moved_mm)))
    if not n or musician_over_half(ch.state, u, u.moved_mm):
        return ""
    d = ch.state.unit(u.id).disorder + n
    ch.unit(Disordered, u.id, "moving over half its move with the musician dead", disorder=d)
    return f"; +{n}D (over half a move with the musician dead)"


def ends_short(ch: Changes, u: Unit, kw: dict[str, Any], what: str, why: str) -> str:
    """The charger's move up ``kw`` made short of its target, and its charge ended there (no
    charge home, no melee): reading K88 (out of reach), K89 (an enemy in the way)."""
    ch.unit(ClosedUp, u.id, what, **kw)
    charging.set_step(ch, ch.state.unit(u.id), why, charge_step=None, charge_state="done")
    return musician_chits(ch, u, kw)


def out_of_reach(ch: Changes, u: Unit, t: Unit, short: dict[str, Any]) -> Outcome:
    """Reading K88: the move up is the charger's move (its reach, reading K50): a target that
    has retired beyond it is not reached; the charger moves its move (``short``, from
    :func:`reach_short`) at it and the charge ends there (no charge home, no melee). ``close``
    and ``charge_home`` (whose move into contact follows a target that retired after the
    close) end so."""
    hit, _ = rules_move_collisions(ch.state, u, short, t.id)
    chits = ends_short(
        ch,
        u,
        short,
        f"moves up toward {t.id}: out of reach",
        f"{t.id} is beyond {u.id}'s move: the charge ends short (reading K88)",
    )
    went = short["moved_mm"] - u.moved_mm
    # (a close that used the whole move leaves the charge home nothing to follow with)
    lead = (
        f"{u.id} moves up {went:.0f}mm toward {t.id}, all its move:"
        if went >= 0.5
        else f"{u.id} has no move left to follow {t.id}:"
    )
    msg = f"{lead} {t.id} is beyond its reach; the charge ends (no melee; reading K88)"
    details = {"melee": False, "reached": False, "home": False, "short": "K88"}
    return Outcome(tuple(ch.events), (), msg + hit + chits, details)


def barred(
    ch: Changes,
    u: Unit,
    t: Unit,
    who: str,
    kw: dict[str, Any],
    hit: str,
    rolls: tuple[Roll, ...],
) -> Outcome:
    """Reading K89 (and K68: "units who charge do so in a straight line"): an enemy ``who``
    come into the charger's way since the charge was declared (its target gone behind it)
    stops the move up to the target at contact with it (``kw``, moved there by
    ``actions.run_into``); the charge on the target ends there: no charge home, no melee (the
    enemy met was not charged). ``close`` and ``charge_home`` (whose move into contact follows
    a target that retired after the close) end so."""
    b = geom.body(u)
    assert b is not None
    kw["moved_mm"] = u.moved_mm + round(math.hypot(kw["x"] - b.centre.x, kw["y"] - b.centre.y), 1)
    chits = ends_short(
        ch,
        u,
        kw,
        f"moves up toward {t.id}: {who} in the way",
        f"{who} is in the way of {u.id}'s charge: it ends at contact (reading K89)",
    )
    msg = f"{u.id} moves up toward {t.id}{hit}; the charge on {t.id} ends (no melee){chits}"
    details = {"melee": False, "reached": False, "home": False, "short": "K89", "by": who}
    return Outcome(tuple(ch.events), rolls, msg, details)


def retired_mm(u: Unit, kw: dict[str, Any], mm: float) -> float:
    """How far a timid CO's retirement of ``mm`` took ``u`` (to ``kw``'s place where
    positions are kept: it stops at an enemy behind, reading K89), to 0.1 mm."""
    if "x" not in kw or u.x is None or u.y is None:
        return mm
    return round(math.hypot(float(kw["x"]) - u.x, float(kw["y"]) - u.y), 1)


def timid_co(state: State, u: Unit) -> bool:
    b = state.brigadier_of(u)
    return b is not None and b.av == "timid"


def charge_home(state: State, req: rq.ChargeHome, dice: DiceSource) -> Outcome:
    """The Charge Home Test, after the target's morale and any defensive fire."""
    u, t = _home_units(state, req)
    ch = Changes(state)
    short = home_short(state, u, t)
    if short is not None:
        return out_of_reach(ch, u, t, short)
    if not home_needed(u, t) and not req.test:
        kw0: dict[str, Any] = dict(contact(u, t))
        hit, who = rules_move_collisions(state, u, kw0, t.id)
        if who is not None:
            return barred(ch, u, t, who, kw0, hit, ())
        ch.unit(ChargedHome, u.id, "charges home (no test needed)", charge_state="home", **kw0)
        hit += musician_chits(ch, u, kw0)
        _home_done(ch, u, True)
        return Outcome(
            tuple(ch.events),
            (),
            f"{u.id} charges home into {t.id}: the target "
            "failed its morale and the charger took no casualties (no test)" + hit,
            {"home": True, "tested": False},
        )
    r = result_roll(home_check(state, u, t, req), dice)
    use_effects(ch, u.id, "charge_home")
    if r.row == "pass":
        kw1: dict[str, Any] = dict(contact(u, t))
        hit, who = rules_move_collisions(state, u, kw1, t.id)
        if who is not None:
            return barred(ch, u, t, who, kw1, hit, (r,))
        ch.unit(ChargedHome, u.id, "charges home", charge_state="home", **kw1)
        hit += musician_chits(ch, u, kw1)
        _home_done(ch, u, True)
        return Outcome(
            tuple(ch.events), (r,), f"{u.id} charges home into {t.id}: melee" + hit, {"home": True}
        )
    fail = state.config.charge_home_failure
    res_note = ""
    if timid_co(state, u):
        res = fail.timid_co
        mm = state.config.options.timid_retire_mm
        pos = geom.moved(u, -mm, 0.0)
        kw: dict[str, object] = {"charge_state": "halted", "advancing": False}
        if pos is not None:
            kw["x"], kw["y"] = pos
        # reading K89: the retirement stops at contact with an enemy behind, as any move does
        res_note, _ = rules_move_collisions(state, u, kw)
        # reading K95: the retirement is a move the unit makes, its distance added to the
        # turn's move (Disorder's "Unit moving over 1/2 and Musician dead 1D", as K93's charge)
        went = retired_mm(u, kw, mm)
        kw["moved_mm"] = u.moved_mm + went
        # reading K97: the retirement is a move of Retreat (Disorder: "Each move of
        # Retreat/Pursuit 1D"; the text names no retreat but a retirement)
        n = state.config.disorder.retreat_move
        ch.unit(ChargeHomeFailed, u.id, f"fails to charge home: {res}", **kw)
        if went > 0 and n and state.config.options.forced_retire_chit and not u.skirmishing:
            ch.unit(Disordered, u.id, "retreat move", disorder=ch.state.unit(u.id).disorder + n)
            res_note += f"; +{n}D (a retirement is a retreat move: reading K97)"
        res_note += musician_chits(ch, u, kw)
    elif u.kind == "infantry" and u.grade in GRADES[:3]:
        res = fail.infantry_ABC
        ch.unit(
            ChargeHomeFailed,
            u.id,
            f"fails to charge home: {res}",
            charge_state="halted",
            advancing=False,
            bound="volley",  # the volley is owed (issue 23)
        )
        lapse = flow.defensive_fire_lapses(ch.state, ch.state.unit(u.id), t)
        if lapse is not None:  # the rules forbid that fire: it lapses, the reason logged
            ch.unit(ChargeHomeFailed, u.id, f"its volley lapses: {lapse}", bound=None)
            res_note = f"; its volley lapses: {lapse}"
    else:
        res = fail.other
        ch.unit(
            ChargeHomeFailed,
            u.id,
            f"fails to charge home: {res}",
            charge_state="halted",
            advancing=False,
        )
    _home_done(ch, u, False)
    return Outcome(
        tuple(ch.events), (r,), f"{u.id} {res}{res_note}", {"home": False, "result": res}
    )


def _home_done(ch: Changes, u: Unit, home: bool) -> None:
    """The charge goes on to melee, or stops; a failure binds for the turn."""
    if u.charge_step is not None:
        charging.after_home(ch, u.id, home)
    elif not home:
        ch.unit(ChargeHomeFailed, u.id, "failed to charge home", home_failed=True)


def home_short(state: State, u: Unit, t: Unit) -> dict[str, Any] | None:
    """Reading K88 (carried on to the charge home test): a target that retired after the
    charger moved up is followed into contact only within what is left of the charger's move;
    beyond it the charger's place after moving all that is left (the charge ends there, no
    test), else None."""
    return reach_short(state, u, dict(contact(u, t)))


def charge_home_odds(state: State, req: rq.ChargeHome) -> list[Odds]:
    u, t = _home_units(state, req)
    if home_short(state, u, t) is not None:
        return []
    if not home_needed(u, t) and not req.test:
        return []
    return [home_check(state, u, t, req).odds()]


# -- the guided charge's own steps ------------------------------------------------------------
def close(state: State, req: rq.OneUnit, dice: DiceSource) -> Outcome:
    """Kuryakin, Charge Test: "the attacker moves up to the target" (in a straight line): into
    contact where positions are kept; otherwise it is recorded as having moved."""
    u = _testable(state, req.unit)
    if u.charge_step != "close" or u.charge_target is None:
        raise RuleViolation(
            R_CHARGE,
            f"{u.id} has no charge waiting to move up"
            + (f" (the {u.charge_step} step is owed: see todo)" if u.charge_step else ""),
        )
    t = state.unit(u.charge_target)
    ch = Changes(state)
    kw: dict[str, Any] = dict(contact(u, t))
    short = reach_short(state, u, kw)
    if short is not None:
        return out_of_reach(ch, u, t, short)
    if not kw:
        # positions are not kept: the distance is unknown, but the charger has moved (its
        # volley after a halted charge is a moved firer's, at short range)
        kw = {"moved_mm": max(u.moved_mm, 1.0)}
    # a charge is made in a straight line: what lies between is run into (Kuryakin, Disorder)
    hit, who = rules_move_collisions(state, u, kw, t.id)
    if who is not None:
        return barred(ch, u, t, who, kw, hit, ())
    ch.unit(ClosedUp, u.id, f"moves up to {t.id}", **kw)
    hit += musician_chits(ch, u, kw)
    charging.after_close(ch, u.id)
    nxt = ch.state.unit(u.id).charge_step
    if nxt is None and charging.routed_before_contact(ch.state, ch.state.unit(u.id)):
        msg = f"{u.id} moves up: {t.id} has routed before contact; {u.id} takes the ground"
        return Outcome(tuple(ch.events), (), msg + " (no melee)" + hit, {"melee": False})
    then = "the charge home test" if nxt == "home" else str(nxt)
    return Outcome(tuple(ch.events), (), f"{u.id} moves up to {t.id}; next: {then}" + hit)
