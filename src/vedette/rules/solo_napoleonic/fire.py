"""Firing (Kuryakin, Firing/Infantry; Skirmishers; Artillery) and the allocation of casualties
(Determining Casualties), shared with melee.

Infantry fire front-rank volleys of 5 figures (the excess does not fire): each volley rolls the
volley die (a D6 by default) plus modifiers for its hits; ¾ of the total count at short range
and ¼ at long, a fraction resolved by percentage dice; each hit is then saved on 5-6 (short) or
4-6 (long). Skirmishers fire figure by figure (5-6 short, 6 long). A battery rolls 1D6 (ball) or
2D6 (canister) figures hit, plus modifiers and the Range Table's deduction, saved by range band.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from vedette.dice import Check, DiceSource, Modifier, Odds, Roll
from vedette.dice.check import OddsRow
from vedette.errors import BadRequest, RuleViolation, VedetteError
from vedette.rules.base import Outcome
from vedette.rules.protocol import chances
from vedette.rules.solo_napoleonic import charging, geom
from vedette.rules.solo_napoleonic import requests as rq
from vedette.rules.solo_napoleonic.actions import base_move, require_active
from vedette.rules.solo_napoleonic.chance import chance_mods, effects_on, use_effects
from vedette.rules.solo_napoleonic.common import (
    Allocation,
    Changes,
    FDist,
    allocate,
    check_roll,
    count_dist,
    floored_roll,
    floored_sum_dist,
    fraction_dist,
    fraction_roll,
    mix,
    modifier,
    mods,
    nation_key,
    odds_of,
    officer_missing,
    outcome_of,
    percentile_die,
    saves_dist,
)
from vedette.rules.solo_napoleonic.config import Band
from vedette.rules.solo_napoleonic.events import (
    CasualtiesTaken,
    CommandChecked,
    Disordered,
    Fired,
    GeneralAttached,
    GeneralKilled,
)
from vedette.rules.solo_napoleonic.model import SPECIALS, State, Unit

R_FIRE = "Kuryakin, Firing/Infantry"
R_SKIRM = "Kuryakin, Skirmishers"
R_ART = "Kuryakin, Artillery"
R_CAS = "Kuryakin, Firing/Determining Casualties"

GUNNER_NATIONS = {
    "russian": "russian_gunners",
    "neapolitan": "minor_gunners",
    "dutch_belgian": "minor_gunners",
    "hanoverian": "minor_gunners",
}


@dataclass(frozen=True, slots=True)
class FirePlan:
    """What a fire action will roll: the method and its checks (``fire_dice`` rolls them)."""

    firer: Unit
    target: Unit
    method: str  # volley | skirmish | artillery
    band: str  # short | long | canister
    dice_count: int  # volleys, firing figures or 1 battery
    die: str
    modifiers: tuple[Modifier, ...]
    fraction: Fraction  # ¾, ¼ or 1
    save: int  # lowest d6 face that saves
    hit_on: int = 0  # skirmishers: lowest face that hits
    rule: str = R_FIRE

    def odds(self, casualties: FDist) -> Odds:
        what = {
            "volley": f"{self.dice_count} volley(s) of 1{self.die}",
            "skirmish": f"{self.dice_count} skirmisher(s) hitting on {self.hit_on}+",
            "artillery": f"{self.die} figures hit",
        }[self.method]
        mtxt = "".join(m.text() for m in self.modifiers)
        note = f"{what}{mtxt}; ×{self.fraction} at {self.band} range; saves {self.save}-6"
        return odds_of(
            f"{self.firer.id} fires at {self.target.id}: casualties",
            casualties,
            self.rule,
            note,
            "casualties",
        )


def _floor(faces: FDist, plus: int) -> FDist:
    out: FDist = {}
    for v, p in faces.items():
        k = max(0, v + plus)
        out[k] = out.get(k, Fraction(0)) + p
    return out


def _moved_reason(f: Unit, req: rq.Fire) -> str | None:
    """Reading K106 (Firing: "Firer Moved this turn -2"; Formation Changing: a change takes
    "quarters of movement"): a unit that has only changed formation this turn has moved; the
    modifier's reason says so (a unit that "does not advance" and then changes formation is
    still a firer that moved; ``moved=false`` on the shot: not). None: the data's reason."""
    if req.moved is None and f.formation_changes and not f.move_done and not f.charge_state:
        return "firer moved this turn: its formation change spent part of its move (K106)"
    return None


def _cover(req: rq.Fire) -> str | None:
    c = req.cover
    if c in (None, "none"):
        return None
    if c not in ("soft", "hard"):
        raise BadRequest("'cover' must be none, soft or hard")
    return c


def charging_at(f: Unit, t: Unit) -> bool:
    """Is ``t`` charging ``f`` (declared, not yet home)?"""
    return t.charge_state == "declared" and t.charge_target == f.id


def _range_band(state: State, f: Unit, t: Unit, req: rq.Fire, table: str) -> str:
    if rq.flag(req.at_chargers, charging_at(f, t)):
        return "short"  # Kuryakin, Charge Test: fire at chargers is always at short range
    if effects_on(state, t, "long_range"):
        return "long"  # a chance card: all fire at the unit counts as long range
    given = req.range
    if given is not None:
        if given not in ("short", "long"):
            raise BadRequest("'range' must be short or long")
        return given
    r = state.config.ranges[table]
    near = geom.within(f, t, r.short)  # (measured only where the bounds leave it open)
    if near is None and f.charge_state == "halted" and f.charge_target == t.id:
        return "short"  # Kuryakin, Charge Test: it moved up to the target before halting
    if near is None:
        raise BadRequest("give 'range' (short or long): the units are not placed")
    if near:
        return "short"
    if geom.within(f, t, r.long):
        return "long"
    d = geom.unit_distance(f, t)
    assert d is not None
    raise RuleViolation(R_FIRE, f"{t.id} is {d:.0f}mm away: beyond long range ({r.long:g}mm)")


def _artillery_band(state: State, f: Unit, t: Unit, req: rq.Fire) -> Band:
    bands = state.config.artillery_ranges["horse" if f.kind == "horse_artillery" else "foot"]
    if rq.flag(req.at_chargers, charging_at(f, t)):
        given: str | None = "canister" if any(b.band == "canister" for b in bands) else None
    else:
        given = req.range
    if given is not None:
        for b in bands:
            if b.band == given:
                return b
        raise BadRequest(f"'range' must be one of {', '.join(b.band for b in bands)}")
    if geom.body(f) is None or geom.body(t) is None:
        raise BadRequest("give 'range' (the Range Table band): the units are not placed")
    for b in bands:
        if geom.within(f, t, b.max):  # (measured only where the bounds leave it open)
            return b
    d = geom.unit_distance(f, t)
    assert d is not None
    raise RuleViolation(R_ART, f"{t.id} is {d:.0f}mm away: out of range")


def is_reaction(state: State, f: Unit) -> bool:
    """Defensive fire at a unit charging the firer (Kuryakin, Charge Test)."""
    # (the declared charges' index, not a scan of every unit: the card's listing asks it)
    return any(state.unit(x).charge_target == f.id for x in state.declared_ids())


def limbered(state: State, u: Unit) -> bool:
    """A limbered battery does not fire (reading K61, ``[options] limbered_guns_fire``)."""
    return u.artillery and u.formation == "limbered" and not state.config.options.limbered_guns_fire


def plan(state: State, req: rq.Fire) -> FirePlan:
    f = state.unit(req.unit)
    t = state.unit(req.target)
    if t.side == f.side:
        raise BadRequest(f"{t.id} is on {f.id}'s own side")
    if not t.on_table:
        raise RuleViolation(R_FIRE, f"{t.id} is no longer on the table")
    if f.charge_state in ("declared", "home"):
        raise RuleViolation("Kuryakin, Charge Test", f"{f.id} is charging: it cannot fire")
    if f.charge_state is not None and f.bound != "volley":
        # "units who charge ... cannot fire that turn": nor once the charge is over (its melee
        # fought, its target routed or evaded, the charge stopped); only A, B or C class
        # infantry that fail to charge home "halt and fire a volley" (Charge Home Test)
        raise RuleViolation(
            "Kuryakin, Charge Test", f"{f.id} charged this turn: chargers cannot fire that turn"
        )
    if f.reformed:  # defensive fire too: "reforming takes the whole turn ... nothing else"
        raise RuleViolation(
            "Kuryakin, Disorder",
            f"{f.id} reformed this turn: reforming takes the whole turn, it can do nothing else",
        )
    if f.restricted_to is not None and t.id != f.restricted_to:
        raise RuleViolation(
            "Kuryakin, Movement", f"{f.id} may act only against {f.restricted_to} this turn"
        )
    if limbered(state, f):
        raise RuleViolation(
            R_ART, f"{f.id} is limbered: unlimber it first ('formation to=unlimbered', K61)"
        )
    volley_unit = f.kind == "infantry" and not f.skirmishing
    if f.fired and not volley_unit:
        raise RuleViolation(R_FIRE, f"{f.id} has already fired this turn")
    if f.charge_state == "halted" and t.id != f.charge_target:
        raise RuleViolation(
            "Kuryakin, Charge Home Test",
            f"{f.id} halted its charge: its volley is at {f.charge_target}",
        )
    moved = rq.flag(req.moved, f.moved_mm > 0)
    cover = _cover(req)
    if f.artillery:
        half = state.config.options.artillery_arc_deg
        if half > 0 and geom.in_fire_arc(f, t, half) is False:  # reading K63 (none by default)
            raise RuleViolation(R_ART, f"{t.id} is outside {f.id}'s arc ({half:g}° splay)")
        b = _artillery_band(state, f, t, req)
        s = "artillery"
        nat = GUNNER_NATIONS.get(nation_key(f.nation, GUNNER_NATIONS))
        crew = crew_figures(state, f)
        ms = mods(
            modifier(state, s, "staff_officer")
            if rq.flag(req.staff_officer, attached_general(state, f) is not None)
            else None,
            modifier(state, s, "target_square") if t.formation == "square" else None,
            modifier(state, s, "guards") if f.guards else None,
            modifier(state, s, "target_artillery") if t.artillery else None,
            modifier(state, s, "crew_over_3", crew - 3),
            modifier(state, s, "crew_under_3", 3 - crew),
            modifier(state, s, nat) if nat else None,
            modifier(state, s, f"{cover}_cover") if cover else None,
            modifier(state, s, "firer_disorder", f.disorder),
            modifier(state, s, "battery_officer_dead") if officer_missing(state, f) else None,
        )
        ms = (*ms, *chance_mods(state, f, "artillery"))
        if b.deduction:
            ms = (*ms, Modifier(b.deduction, f"Range Table deduction ({b.band})", R_ART))
        nums = state.config.fire
        die = nums.canister_dice if b.ammunition == "canister" else nums.ball_dice
        return FirePlan(f, t, "artillery", b.band, 1, die, ms, Fraction(1), b.save, rule=R_ART)
    screen = geom.screening(state, f, t)
    through = rq.flag(req.through_skirmishers, bool(screen))
    if through:
        raise RuleViolation(
            R_SKIRM, "infantry cannot fire through a skirmish screen (artillery can)"
        )
    if f.rifles and f.moved_mm > 0 and f.moved_mm > _half_move(state, f):
        # Kuryakin, Firing: "Rifles cannot move more than 1/2 and fire" (skirmishing too)
        raise RuleViolation(R_FIRE, f"{f.id}: rifles cannot move more than half and fire")
    if f.skirmishing:
        if f.mounted_skirmishers and moved:  # (dismounted fire has no such exception)
            raise RuleViolation(
                R_SKIRM, f"{f.id}: mounted skirmishers cannot fire and move in the same turn"
            )
        arc = geom.in_fire_arc(f, t, state.config.options.skirmish_arc_deg)
        if arc is False:
            raise RuleViolation(R_SKIRM, f"{t.id} is outside {f.id}'s 180° arc")
        band = _range_band(state, f, t, req, "carbine" if f.cavalry else "skirmish")
        n = f.figures if req.figures is None else req.figures
        if not 0 < n <= f.figures:
            raise BadRequest(f"'figures' must be 1-{f.figures}")
        nums = state.config.fire
        short = band == "short"
        return FirePlan(
            f,
            t,
            "skirmish",
            band,
            n,
            "d6",
            (),
            Fraction(1),
            nums.save_short if short else nums.save_long,
            nums.skirmish_hit_short if short else nums.skirmish_hit_long,
            rule=R_SKIRM,
        )
    if f.kind != "infantry":
        raise RuleViolation(R_FIRE, f"{f.id} ({f.kind}) can fire only when skirmishing")
    arc = geom.in_fire_arc(f, t, state.config.options.volley_arc_deg)
    if arc is False:
        raise RuleViolation(R_FIRE, f"{t.id} is outside {f.id}'s 45° arc")
    band = _range_band(state, f, t, req, "infantry")
    per = state.config.options.volley_figures
    whole = f.front_rank() // per
    if whole == 0:
        raise RuleViolation(R_FIRE, f"{f.id} has fewer than {per} figures in its front rank")
    # Kuryakin, Firing: each volley is calculated independently, so a unit's volleys may be
    # split between targets (each volley at most once a turn)
    most = whole - f.volleys_fired
    if most <= 0:
        raise RuleViolation(R_FIRE, f"{f.id} has already fired its {whole} volley(s) this turn")
    n = most if req.volleys is None else req.volleys
    if not 0 < n <= most:
        raise BadRequest(
            f"'volleys' must be 1-{most} ({f.front_rank()} in the front rank"
            + (f", {f.volleys_fired} already fired)" if f.volleys_fired else ")")
        )
    s = "volley"
    ms = mods(
        modifier(state, s, "ab_class") if f.grade in ("A", "B") else None,
        modifier(state, s, "d_class") if f.grade == "D" else None,
        modifier(state, s, f"{cover}_cover") if cover else None,
        modifier(state, s, "target_skirmishers") if t.skirmishing else None,
        modifier(state, s, "target_artillery") if t.artillery else None,
        modifier(state, s, "firer_moved", reason=_moved_reason(f, req)) if moved else None,
        *chance_mods(state, f, "volley"),
    )
    die = state.config.options.volley_die
    nums = state.config.fire
    if band == "short":
        frac, save = nums.volley_share_short, nums.save_short
    else:
        frac, save = nums.volley_share_long, nums.save_long
    return FirePlan(f, t, "volley", band, n, die, ms, frac, save)


def crew_figures(state: State, f: Unit) -> int:
    """A battery's crew figures (Kuryakin, Artillery: "one crew figure per piece represented.
    Additionally, each battery may include an officer figure"): its figures but its officer,
    reading K99 (``[options] battery_officer = "crew"``: he is one of the crew, earlier
    builds). The crew modifiers count these ("Each crew figure over 3 +1", "less than 3 -1")."""
    if f.officer == "alive" and state.config.options.battery_officer == "extra":
        return f.figures - 1
    return f.figures


def refused(state: State, req: rq.Fire) -> bool:
    """Whether :func:`plan` is sure to refuse this fire for the target's place alone, told
    without looking for a screen (the simulator's quick check: ``requests.by_dry_run``): a
    volley at a target outside the firer's 45° arc, or a volley or skirmish fire at one clearly
    beyond the long range of its Range Table (from the bodies' centres, ``geom.within``), where
    no stated range, charge or chance card sets the band. Every check ``plan`` makes before
    these refuses too, and it makes them before any die; a held fire is never planned."""
    if req.hold or req.target is None or req.range is not None:
        return False
    f, t = state.find(req.unit), state.find(req.target)
    if f is None or t is None:
        return False
    if f.artillery:
        return False
    bf, bt = geom.body(f), geom.body(t)  # (the bodies in hand: asked of geom once)
    if bf is None or bt is None:
        return False  # not placed: the arc and the range are stated, not measured
    if f.skirmishing:
        table = "carbine" if f.cavalry else "skirmish"
    elif f.kind == "infantry":
        if not geom.bodies_in_arc(bf, bt, state.config.options.volley_arc_deg):
            return True
        table = "infantry"
    else:
        return False
    if rq.flag(req.at_chargers, charging_at(f, t)) or effects_on(state, t, "long_range"):
        return False
    reach = state.config.ranges[table].long
    near = geom.bodies_within(bf, bt, reach)  # (``geom.within``'s bounds first, as it asks)
    return (near if near is not None else geom.within(f, t, reach)) is False


def _half_move(state: State, u: Unit) -> float:
    return base_move(state, u) / 2


def specials_positions(u: Unit, eligible: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for s in SPECIALS:
        if getattr(u, s) == "alive":
            p = int(getattr(u, f"{s}_pos"))
            if 1 <= p <= eligible:
                out[s] = p
    return out


def attached_general(state: State, u: Unit) -> str | None:
    for g in state.generals:
        if g.attached_to == u.id and not g.killed:
            return g.id
    return None


def take_casualties(
    ch: Changes,
    uid: str,
    casualties: int,
    eligible: int,
    dice: DiceSource,
    rule: str,
    why: str,
    general_pos: int = 1,
) -> tuple[Allocation, list[str]]:
    """Remove ``casualties`` figures, rolling who among ``eligible`` was hit (special figures
    once each, an attached general in the front rank saving on 3-6)."""
    u = ch.state.unit(uid)
    n = min(casualties, u.figures)
    gen = attached_general(ch.state, u)
    specials = specials_positions(u, eligible)
    # the attached general stands in the front rank (Kuryakin, Firing) at his own position:
    # the first one no special figure holds, so he never hides the officer
    taken = set(specials.values())
    gpos = general_pos
    while gpos in taken:
        gpos += 1
    alloc = allocate(
        n,
        min(eligible, u.figures),
        specials,
        dice,
        rule,
        gpos if gen is not None else None,
        ch.state.config.options.general_save,
        ch.state.config.options.allocation_roll == "always",
    )
    # a general killed is the casualty: no soldier falls for that hit
    lost = alloc.ordinary + len(alloc.specials_hit)
    figs = max(0, u.figures - lost)
    kw: dict[str, Any] = {"figures": figs, "casualties_turn": u.casualties_turn + lost}
    for s in alloc.specials_hit:
        kw[s] = "dead"
    if figs == 0:
        kw["status"] = "eliminated"
    ch.unit(CasualtiesTaken, uid, why, **kw)
    notes = []
    if alloc.specials_hit:
        notes.append(f"{', '.join(alloc.specials_hit)} hit")
    if alloc.general_killed and gen is not None:
        ch.general(GeneralKilled, gen, f"killed with {uid}", killed=True, attached_to=None)
        notes.append(f"general {gen} KILLED")
        notes += general_killed_calls(ch, gen, uid)
        command_lost(ch, gen)
    if figs == 0:
        notes += lost_unit_generals(ch, uid)
    return alloc, notes


def lost_unit_generals(ch: Changes, uid: str) -> list[str]:
    """The generals still attached to a unit just destroyed (its last figure down, ridden
    down). The text says nothing of them beyond his own save (Firing: "All Generals are always
    save on a D6 roll of 3-6"). Reading K66: he is detached where the unit stood, free to ride
    or join another unit (``[options] lost_unit_general = "detached"``), or he is lost with it
    as a general killed (``"killed"``: his command's tests called as for one killed)."""
    out: list[str] = []
    kill = ch.state.config.options.lost_unit_general == "killed"
    for g in ch.state.generals:
        if g.attached_to != uid or g.killed:
            continue
        if kill:
            ch.general(GeneralKilled, g.id, f"lost with {uid}", killed=True, attached_to=None)
            out.append(f"general {g.id} lost with {uid} (KILLED)")
            out += general_killed_calls(ch, g.id, uid)
            command_lost(ch, g.id)
        else:
            ch.general(GeneralAttached, g.id, f"{uid} is destroyed: detached", attached_to=None)
            out.append(f"general {g.id} is left where {uid} stood, detached")
    return out


def command_lost(ch: Changes, gid: str) -> None:
    """Reading K83 (Generals: a unit more than 150mm "from its brigade commander is
    automatically out of command control"; Morale: "Under Command Control +15%" beside
    "Brigade or Divisional CO killed in influence range -15%"): a brigadier killed leaves his
    units out of command control at once, not only from the next control phase (his men's
    tests counted his command's +15% against his loss's -15%). ``[options]
    killed_brigadier_command = "kept"``: they stay in command until the next control phase."""
    st = ch.state
    g = st.general(gid)
    if g.rank != "brigadier" or st.config.options.killed_brigadier_command != "lost":
        return
    for u in st.brigade_units(gid):
        if u.in_command:
            ch.unit(CommandChecked, u.id, f"{gid} killed: out of command control", in_command=False)


def general_killed_calls(ch: Changes, gid: str, where: str) -> list[str]:
    """A general killed: the units of his command within his influence range test morale, his
    loss filled in (brigadier or divisional CO -15%, corps commander -20%: his whole command,
    reading K62, ``[referee_morale] corps_influence_mm``; 0 = no range)."""
    st = ch.state
    g = st.general(gid)
    fact = "corps_killed" if g.rank == "corps" else "co_killed"
    rm = st.config.referee_morale
    reach = rm.corps_influence_mm if g.rank == "corps" else rm.general_influence_mm
    at = st.unit(where)
    out: list[str] = []
    for u in st.units:
        if u.side != g.side or not u.on_table or u.brigade is None:
            continue
        b = st.general(u.brigade) if st.has_general(u.brigade) else None
        if b is None or (b.id != gid and gid not in {x.id for x in st.chain(b)}):
            continue
        d = geom.unit_distance(u, at) if u.id != at.id else 0.0
        if d is not None and d > reach and not (g.rank == "corps" and reach == 0):
            continue
        note = charging.call_morale(ch, u.id, "general_killed", (fact,))
        if note:
            out.append(note)
    return out


def no_reply(state: State, p: FirePlan) -> tuple[str, ...]:
    """Kuryakin, Morale: "Under artillery fire and cannot reply -10%": the battery's target
    cannot fire back at it (it cannot fire at all, or the battery is beyond its reach, measured
    where positions are kept). The fact goes with the morale test the fire calls."""
    if p.method != "artillery" or geom.unit_distance(p.target, p.firer) is None:
        return ()  # not a battery, or not measured: the player states it
    try:
        plan(state, rq.Fire(unit=p.target.id, target=p.firer.id))
    except VedetteError:
        return ("artillery_no_reply",)
    return ()


def fire(state: State, req: rq.Fire, dice: DiceSource) -> Outcome:
    """Fire at a target: volleys, skirmish fire or a battery. Rolls, saves, casualties."""
    f = state.unit(req.unit)
    # defensive fire at a unit charging the firer needs no card (Kuryakin, Charge Test: the
    # attacker "takes any defensive fire"); it is assumed when the firer is not on the active
    # card and fires at its charger
    t_id = req.target
    at_charger = t_id is not None and charging_at(f, state.unit(t_id))
    # the defensive fire the guided charge owes (flow.py): the charged unit at its charger
    owed = charging.charger_of(state, f.id, "fire")
    if owed is not None and owed.id != t_id:
        owed = None
    if req.hold:
        if owed is None:
            raise RuleViolation(
                "Kuryakin, Charge Test", f"no defensive fire of {f.id} at {t_id} is owed now"
            )
        ch0 = Changes(state)
        charging.after_fire(ch0, owed.id)
        return Outcome(tuple(ch0.events), (), f"{f.id} holds its fire; {owed.id} moves up (close)")
    reaction = owed is not None or (
        is_reaction(state, f)
        and rq.flag(req.reaction, at_charger and f.id not in state.active_units())
    )
    if reaction:
        if f.morale_due:
            raise RuleViolation(
                "Kuryakin, Charge Test", f"{f.id} must first take the morale test the charge forces"
            )
        if f.morale_failed:
            raise RuleViolation(
                "Kuryakin, Charge Test",
                f"{f.id}'s morale did not hold: no defensive fire at its charger",
            )
    elif not (f.bound == "volley" and f.charge_target == t_id):
        # (a failed charge home's volley is owed at once, whatever card is active)
        require_active(state, f, R_FIRE, "fire")
    p = plan(state, req)
    hits, actual, cas, rolls = fire_dice(p, dice, percentile_die(state))
    ch = Changes(state)
    alloc, notes = take_casualties(
        ch,
        p.target.id,
        cas,
        p.target.front_rank(),
        dice,
        R_CAS,
        f"{cas} casualties from {f.id}'s fire",
    )
    rolls.extend(alloc.rolls)
    if p.method in ("volley", "artillery"):
        use_effects(ch, f.id, p.method)
    fkw: dict[str, Any] = {"fired": True}
    if f.bound == "volley":
        fkw["bound"] = None
    if p.method == "volley":
        fkw["volleys_fired"] = f.volleys_fired + p.dice_count
    to = state.config.options.fire_disorder_to
    # one 'D' for the unit's round of firing, however its volleys are split
    n = state.config.disorder.round
    if to in ("firer", "both") and not f.skirmishing and not f.fired:
        fkw["disorder"] = ch.state.unit(f.id).disorder + n
    ch.unit(
        Fired,
        f.id,
        "fired" + (f" ({n}D for a round of firing)" if "disorder" in fkw else ""),
        **fkw,
    )
    if (
        to in ("target", "both")
        and not p.target.skirmishing
        and ch.state.unit(p.target.id).on_table
    ):
        ch.unit(
            Disordered,
            p.target.id,
            f"under fire ({n}D)",
            disorder=ch.state.unit(p.target.id).disorder + n,
        )
    if owed is not None and ch.state.has_unit(owed.id):
        charging.after_fire(ch, owed.id)
    share = state.config.referee_morale.fire_casualties_share
    if cas > 0 and cas >= share * p.target.figures:
        called = charging.call_morale(ch, p.target.id, "fire_casualties", no_reply(state, p))
        if called:
            notes.append(called)
    lost = f"{cas} casualt{'y' if cas == 1 else 'ies'}"
    msg = f"{f.id} fires at {p.target.id} ({p.method}, {p.band}): {hits} hit(s), "
    msg += f"{actual} after range, {lost}"
    if notes:
        msg += "; " + "; ".join(notes)
    return Outcome(
        tuple(ch.events),
        tuple(rolls),
        msg,
        {
            "hits": hits,
            "actual": actual,
            "casualties": cas,
            "method": p.method,
            "band": p.band,
            "specials_hit": list(alloc.specials_hit),
            "general_killed": alloc.general_killed,
        },
        # the outcome's name for the odds: what the fire did, not which dice showed it (the
        # enumeration branches once per whole check and records no rolls for it)
        result="; ".join([f"{lost} on {p.target.id}", *notes]),
    )


def fire_dice(p: FirePlan, dice: DiceSource, pdie: str) -> tuple[int, int, int, list[Roll]]:
    """The dice of a fire (Kuryakin, Firing; Skirmishers; Artillery): hits, the hits left after
    the range fraction, the casualties after the target's saves, and the rolls made. Each whole
    check is one ``outcome_of``: rolled in play, one branch per result when its odds are
    enumerated, so the casualty odds are this function's own (``casualty_odds``)."""
    f = p.firer
    rolls: list[Roll] = []
    if p.method == "volley":

        def volleys() -> tuple[int, list[Roll]]:
            out: list[Roll] = []
            for i in range(p.dice_count):
                c = Check(f"1{p.die}", p.modifiers, None, f"{f.id} volley {i + 1}", R_FIRE)
                out.append(floored_roll(c, dice))
            return sum(max(0, r.final) for r in out), out

        hits, rs = outcome_of(dice, lambda: hits_dist(p), volleys)
        rolls += rs
        label = f"{f.id} {p.band} range ×{p.fraction}"
        actual, fr = fraction_roll(hits, p.fraction, label, dice, R_FIRE, pdie)
        if fr is not None:
            rolls.append(fr)
    elif p.method == "skirmish":
        skirm = Check(
            f"{p.dice_count}d6", (), None, f"{f.id} skirmishers (hit on {p.hit_on}+)", R_SKIRM
        )

        def skirmishers() -> tuple[int, list[Roll]]:
            r = check_roll(skirm, dice)
            n = sum(1 for x in r.faces if x.face >= p.hit_on)
            return n, [replace(r, consequence=f"{n} hit(s)")]

        hits, rs = outcome_of(dice, lambda: hits_dist(p), skirmishers)
        rolls += rs
        actual = hits
    else:
        battery = Check(p.die, p.modifiers, None, f"{f.id} {p.band} ({p.die})", R_ART)

        def guns() -> tuple[int, list[Roll]]:
            r = floored_roll(battery, dice)
            return max(0, r.final), [r]

        hits, rs = outcome_of(dice, lambda: hits_dist(p), guns)
        rolls += rs
        actual = hits
    cas, rs = saves(actual, p.save, p.target, dice, p.rule)
    return hits, actual, min(cas, p.target.figures), rolls + rs


def saves(n: int, save: int, target: Unit, dice: DiceSource, rule: str) -> tuple[int, list[Roll]]:
    """``n`` hits saved on ``save``-6 each (a d6 per hit): the casualties and the roll."""
    if n <= 0:
        return 0, []
    c = Check(f"{n}d6", (), None, f"{target.id} saves on {save}+", rule)

    def roll() -> tuple[int, list[Roll]]:
        sv = check_roll(c, dice)
        cas = sum(1 for x in sv.faces if x.face < save)
        text = f"{n - cas} saved, {cas} casualt" + ("y" if cas == 1 else "ies")
        return cas, [sv.but(consequence=text)]

    return outcome_of(dice, lambda: saves_dist(n, save), roll)


def casualty_odds(dice_of: Callable[[DiceSource], int]) -> FDist:
    """The exact distribution of the casualties ``dice_of`` inflicts, by enumerating it (one
    branch per result of each whole check; issue 14: the odds come from the procedure's own
    dice, not from a formula beside them)."""
    ch = chances(lambda d: Outcome(result=str(dice_of(d))))
    if not ch.exact:  # a programming error: a few hundred branches at most
        raise AssertionError(f"casualty odds were sampled: {ch.note}")
    return {int(c.result): c.p for c in ch.rows}


def fire_casualties(state: State, p: FirePlan) -> FDist:
    """The exact casualties of a fire: the stages ``fire_dice`` rolls, each with the odds it
    branches on (its hits, the range fraction of a volley, the saves), composed (``mix``):
    each stage depends only on the number before it. The tests check it equals the
    enumeration of ``fire_dice`` itself (``casualty_odds``)."""
    pdie = percentile_die(state)
    cas = hits_dist(p)
    if p.method == "volley":
        cas = mix(cas, lambda h: fraction_dist(h, p.fraction, pdie))
    cas = mix(cas, lambda n: saves_dist(n, p.save))
    return mix(cas, lambda c: {min(c, p.target.figures): Fraction(1)})


def hits_dist(p: FirePlan) -> FDist:
    """The hits of a fire's dice (before a volley's range fraction), as ``fire_dice`` rolls
    them: the floored sum of a volley's dice, the skirmish dice that hit, a battery's die."""
    if p.method == "volley":
        return floored_sum_dist(Check(f"1{p.die}", p.modifiers, None), p.dice_count)
    if p.method == "skirmish":
        return count_dist(p.dice_count, 7 - p.hit_on)
    return floored_sum_dist(Check(p.die, p.modifiers, None), 1)


def special_odds(
    state: State, target: Unit, eligible: int, casualties: FDist, rule: str = R_CAS
) -> list[Odds]:
    """The odds that a special figure (officer, musician, standard bearer) or an attached
    general of ``target`` is hit, before the roll (issue 14): each casualty falls on one of the
    ``eligible`` figures, uniformly (faces beyond them are rolled again), so a figure at its
    position escapes ``c`` casualties with ((E-1)/E)^c; a general hit dies when his save fails.
    Exact, from the attack's own casualty distribution."""
    e = min(eligible, target.figures)
    if e <= 0:
        return []
    positions = specials_positions(target, e)
    gen = attached_general(state, target)
    gpos = 1
    while gpos in set(positions.values()):
        gpos += 1
    out: list[Odds] = []

    def p_hit(c: int) -> Fraction:
        n = min(c, target.figures)
        return 1 - Fraction(e - 1, e) ** n

    for name, _pos in sorted(positions.items()):
        p = sum((q * p_hit(c) for c, q in casualties.items()), Fraction(0))
        out.append(
            Odds(
                f"{target.id}'s {name} is hit",
                (OddsRow("hit", f"{name} hit", p), OddsRow("safe", f"{name} not hit", 1 - p)),
                rule=rule,
                note=f"figure {_pos} of the {e} eligible",
            )
        )
    if gen is not None and gpos <= e:
        save = state.config.options.general_save
        p = sum((q * p_hit(c) for c, q in casualties.items()), Fraction(0))
        dies = Fraction(max(0, min(6, save - 1)), 6)
        out.append(
            Odds(
                f"general {gen} (attached to {target.id}) is hit",
                (
                    OddsRow("killed", f"{gen} hit and killed (fails his {save}+ save)", p * dies),
                    OddsRow("saved", f"{gen} hit, saves", p * (1 - dies)),
                    OddsRow("safe", f"{gen} not hit", 1 - p),
                ),
                rule=rule,
                note=f"front rank position {gpos} of {e}",
            )
        )
    return out


def fire_odds(state: State, req: rq.Fire) -> list[Odds]:
    if req.hold:
        return []
    p = plan(state, req)
    cas = fire_casualties(state, p)
    return [p.odds(cas), *special_odds(state, p.target, p.target.front_rank(), cas)]
