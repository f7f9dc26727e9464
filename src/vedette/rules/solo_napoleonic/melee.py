"""Melee (Kuryakin, Melee: Infantry vs. Infantry; Cavalry vs. Cavalry; Cavalry vs. Infantry).

Each side counts points (1 per man in the first four ranks in contact for infantry; cavalry by
figure, the front rank only in the first round of a cavalry fight; everyone when cavalry meet
infantry or in later rounds), rolls 1D6 per 5 points (each die modified, never below 0), takes
half the total as potential casualties (a half resolved by percentage dice) and the enemy saves
each on its saving throw. Skirmishers inflict half. Casualties fall among all eligible victims
(the text's example: 16 figures in 4 ranks, a D20 rolled ignoring 17-20). The side taking more
casualties tests morale; if it holds, D3 further rounds follow this turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from vedette.dice import Check, DiceSource, Modifier, Odds, Roll
from vedette.dice.check import OddsRow
from vedette.errors import BadRequest, RuleViolation
from vedette.rules.base import Outcome
from vedette.rules.solo_napoleonic import charging, geom
from vedette.rules.solo_napoleonic import requests as rq
from vedette.rules.solo_napoleonic.actions import base_move, require_active, rules_move_collisions
from vedette.rules.solo_napoleonic.common import (
    Changes,
    FDist,
    check_roll,
    floored_roll,
    floored_sum_dist,
    fraction_dist,
    fraction_roll,
    mix,
    modifier,
    mods,
    odds_of,
    outcome_of,
    percentile_die,
    saves_dist,
)
from vedette.rules.solo_napoleonic.events import ChargeStep, Evaded, MeleeProlonged, MeleeRound
from vedette.rules.solo_napoleonic.fire import (
    lost_unit_generals,
    saves,
    special_odds,
    take_casualties,
)
from vedette.rules.solo_napoleonic.model import State, Unit

R_MELEE = "Kuryakin, Melee"
R_II = "Kuryakin, Melee/Infantry vs. Infantry"
R_CC = "Kuryakin, Melee/Cavalry vs. Cavalry"
R_CI = "Kuryakin, Melee/Cavalry vs. Infantry"


@dataclass(frozen=True, slots=True)
class Side:
    """One side's attack in a round: its points and dice, the enemy's save and victims."""

    unit: Unit
    enemy: Unit
    points: int
    dice: int
    modifiers: tuple[Modifier, ...]
    save: int  # the ENEMY's saving throw
    eligible: int  # the enemy's eligible victims
    halve: bool  # skirmishers inflict half
    #: [melee] of the rule data: the share of the dice's total that are potential casualties,
    #: and the share of its casualties a skirmishing side inflicts (Kuryakin, Melee: both 1/2)
    share: Fraction = Fraction(1, 2)
    skirmish_share: Fraction = Fraction(1, 2)
    #: the faces of each melee die ([dice] melee; Kuryakin, Melee: "Roll 1d6 per 5 points")
    faces: int = 6

    @property
    def die(self) -> str:
        return f"1d{self.faces}"

    def odds(self, rule: str, casualties: FDist) -> Odds:
        mtxt = "".join(m.text() for m in self.modifiers)
        note = (
            f"{self.points} points: {self.dice}d{self.faces}{mtxt} each, {_part(self.share)} as"
            f" potential casualties, saved on {self.save}+"
            + (f"; skirmishers inflict {_part(self.skirmish_share)}" if self.halve else "")
        )
        return odds_of(
            f"{self.unit.id} inflicts on {self.enemy.id}", casualties, rule, note, "casualties"
        )


def _part(share: Fraction) -> str:
    """A share in words: "half" (the text's 1/2), else the fraction."""
    return "half" if share == Fraction(1, 2) else str(share)


def kind_of(a: Unit, b: Unit) -> str:
    if a.cavalry and b.cavalry:
        return "cavalry"
    if a.cavalry or b.cavalry:
        return "cav_vs_inf"
    return "infantry"


def _points_per(state: State, u: Unit) -> int:
    return state.config.melee_points[u.kind]


def _save_of(state: State, victim: Unit, kind: str) -> int:
    s = state.config.melee_saves
    if victim.cuirassiers:
        return s.cuirassier
    if kind == "infantry":
        return s.infantry_vs_infantry
    if kind == "cavalry":
        return s.cavalry_vs_cavalry
    return s.infantry_vs_cavalry if not victim.cavalry else s.cavalry_vs_infantry


@dataclass(frozen=True, slots=True)
class Stated:
    """What the player stated about one side of a melee (``a``: the attacker, ``b``: the
    defender); ``None``: measured or the default."""

    tag: str
    figures: int | None
    contact: int | None
    hit_standing: bool | None
    flank_rear: bool | None


def stated(req: rq.MeleeFacts, tag: str) -> Stated:
    if tag == "a":
        return Stated("a", req.a_figures, req.a_contact, req.a_hit_standing, req.a_flank_rear)
    return Stated("b", req.b_figures, req.b_contact, req.b_hit_standing, req.b_flank_rear)


def _fighting(state: State, u: Unit, kind: str, rnd: int, st: Stated) -> int:
    """Figures that count: first four ranks in contact (infantry, round 1); front rank only
    (cavalry, round 1); everyone otherwise."""
    if st.figures is not None:
        n = st.figures
        if not 0 <= n <= u.figures:
            raise BadRequest(f"'{st.tag}_figures' must be 0-{u.figures}")
        return n
    if kind == "cav_vs_inf" or rnd > 1:
        return u.figures
    files = u.front_rank() if st.contact is None else st.contact
    if kind == "cavalry":
        return min(u.figures, files)
    return min(u.figures, 4 * files)


def _side(state: State, u: Unit, e: Unit, kind: str, rnd: int, own: Stated, enemy: Stated) -> Side:
    own_cav = u.cavalry
    s = "melee_cavalry" if own_cav else "melee_infantry"
    figs = _fighting(state, u, kind, rnd, own)
    points = figs * (_points_per(state, u) if own_cav else 1)
    attacker = own.tag == "a"
    standing = rq.flag(own.hit_standing, attacker and rnd == 1 and not e.advancing)
    side = geom.attack_side(e, u) if own_cav and attacker else None
    declared = u.charge_flank and u.charge_target == e.id
    flank = rq.flag(own.flank_rear, side in ("flank", "rear") or declared)
    ms = mods(
        modifier(state, s, "hit_standing") if standing else None,
        modifier(state, s, "ab_class") if (not own_cav and u.grade in ("A", "B")) else None,
        modifier(state, s, "d_class") if u.grade == "D" else None,
        modifier(state, s, "flank_rear") if (own_cav and flank) else None,
        modifier(state, s, "disorder", u.disorder),
    )
    per = state.config.options.melee_points_per_die
    shares = state.config.melee
    return Side(
        u,
        e,
        points,
        points // per,
        ms,
        _save_of(state, e, kind),
        _fighting(state, e, kind, rnd, enemy),
        u.skirmishing,
        shares.casualty_share,
        shares.skirmisher_share,
        state.config.dice.melee,
    )


def locked(state: State, a: str, b: str) -> bool:
    """Are ``a`` and ``b`` locked in a melee already under way (a round fought)? They stay in
    contact for its further rounds (Kuryakin, Melee: "the melee continues for D3 further
    rounds"), however casualties shrink their frontages."""
    p = charging.pair_of(state, a, b)
    if p is None:
        return False
    # a round fought, or the charge has come home (the charger ended in contact): whatever
    # moves a result owes meanwhile, the two are locked in the melee
    return p.melee_round > 0 or (p.charge_state == "home" and p.charge_step == "melee")


def sides(state: State, req: rq.MeleeFacts, rnd: int = 1) -> tuple[str, Side, Side, int]:
    a = state.unit(req.unit)
    b = state.unit(req.target)
    if a.side == b.side:
        raise BadRequest(f"{b.id} is on {a.id}'s own side")
    for u in (a, b):
        if not u.on_table:
            raise RuleViolation(R_MELEE, f"{u.id} is no longer on the table")
    if rnd < 1:
        raise BadRequest("'round' must be 1 or more")
    kind = kind_of(a, b)
    apart = geom.within(a, b, CONTACT_MM) is False  # (measured where the bounds leave it open)
    if apart and not req.contact and not locked(state, a.id, b.id):
        d = geom.unit_distance(a, b)
        assert d is not None
        raise RuleViolation(R_MELEE, f"{a.id} and {b.id} are {d:.0f}mm apart, not in contact")
    if b.skirmishing and a.cavalry:
        raise RuleViolation(
            R_CI, f"{b.id} are skirmishers: they evade cavalry (evade) or are ridden down"
        )
    if rnd == 1 and a.charge_state != "home" and not req.contact:
        rule = R_CI if kind == "cav_vs_inf" else "Kuryakin, Charge Home Test"
        raise RuleViolation(rule, f"{a.id} has not charged home (charge, morale, charge_home)")
    return (
        kind,
        _side(state, a, b, kind, rnd, stated(req, "a"), stated(req, "b")),
        _side(state, b, a, kind, rnd, stated(req, "b"), stated(req, "a")),
        rnd,
    )


def _resolve_side(s: Side, dice: DiceSource, rule: str, pdie: str = "dP") -> tuple[int, list[Roll]]:
    """One side's attack in a round: rolled (and recorded) under a real source; under a source
    that enumerates, one branch per distinct number of casualties (``side_odds``), so a round
    of melee costs the product of the two sides' casualty counts, not of every check."""
    if getattr(dice, "branch", None) is None:  # rolled (or a plan's dry run): no odds needed
        return _side_rolled(s, dice, rule, pdie)  # what outcome_of would do, without them
    return outcome_of(dice, lambda: side_odds(s, pdie), lambda: _side_rolled(s, dice, rule, pdie))


def _side_rolled(s: Side, dice: DiceSource, rule: str, pdie: str = "dP") -> tuple[int, list[Roll]]:
    """One side's attack in a round (Kuryakin, Melee): its dice, half as potential casualties,
    the enemy's saves (skirmishers inflict half of that). Each whole check is one
    ``outcome_of``, so its odds are this function's own (``side_odds``)."""
    one = Check(s.die, s.modifiers, None, f"{s.unit.id} melee die", rule)

    def melee_dice() -> tuple[int, list[Roll]]:
        out: list[Roll] = []
        for i in range(s.dice):
            label = f"{s.unit.id} melee die {i + 1} of {s.dice} ({s.points} points)"
            out.append(floored_roll(Check(s.die, s.modifiers, None, label, rule), dice))
        return sum(max(0, r.final) for r in out), out

    total, rolls = outcome_of(dice, lambda: floored_sum_dist(one, s.dice), melee_dice)
    label = f"{s.unit.id} {_part(s.share)} of {total}"
    pot, fr = fraction_roll(total, s.share, label, dice, rule, pdie)
    if fr is not None:
        rolls.append(fr)
    cas, rs = saves(pot, s.save, s.enemy, dice, rule)
    rolls += rs
    if s.halve and cas:
        label = f"{s.unit.id} skirmishers inflict {_part(s.skirmish_share)}"
        cas, hr = fraction_roll(cas, s.skirmish_share, label, dice, rule, pdie)
        if hr is not None:
            rolls.append(hr)
    return min(cas, s.enemy.figures), rolls


@lru_cache(maxsize=1024)
def side_odds(s: Side, pdie: str) -> FDist:
    """The exact casualties one side inflicts: the stages ``_side_rolled`` rolls (its dice,
    half of them, the enemy's saves, a skirmisher's half), each with the odds it branches on,
    composed (``mix``). The tests check it equals the enumeration of ``_side_rolled``."""
    total = floored_sum_dist(Check(s.die, s.modifiers, None), s.dice)
    pot = mix(total, lambda t: fraction_dist(t, s.share, pdie))
    cas = mix(pot, lambda n: saves_dist(n, s.save))
    if s.halve:
        half = s.skirmish_share
        cas = mix(cas, lambda c: fraction_dist(c, half, pdie) if c else {0: Fraction(1)})
    return mix(cas, lambda c: {min(c, s.enemy.figures): Fraction(1)})


CONTACT_MM = 5.0  # base-to-base, with a little tolerance for hand-placed models

RULES = {"infantry": R_II, "cavalry": R_CC, "cav_vs_inf": R_CI}


def round_allowed(state: State, a: Unit, b: Unit, rnd: int) -> Unit | None:
    """Kuryakin, Melee: round 1 when the charge has come home (or the two are in contact); the
    further rounds only within a begun melee, after its loser held and the D3 was rolled, one
    after the other. Returns the unit holding the melee's sequence (None: round 1 begun by
    hand)."""
    c = charging.pair_of(state, a.id, b.id)
    if rnd == 1:
        if c is None:
            return None
        if c.charge_step == "melee" and c.melee_round == 0:
            return c
        raise RuleViolation(
            R_MELEE,
            f"round 1 of {a.id} against {b.id} is not owed now"
            + (f" (the {c.charge_step} step is: see todo)" if c.charge_step else " (it is over)"),
        )
    if (
        c is None
        or c.charge_step != "melee"
        or c.melee_rounds <= 0
        or rnd != c.melee_round + 1
        or rnd > c.melee_rounds
    ):
        raise RuleViolation(
            R_MELEE,
            f"melee round {rnd} of {a.id} and {b.id} only within a begun melee and its"
            f" D{state.config.dice.further_rounds} further rounds, in turn ('brawl' rolls them"
            " after the loser holds)",
        )
    return c


def melee(state: State, req: rq.Melee, dice: DiceSource) -> Outcome:
    """One round of melee between ``unit`` (the attacker) and ``target``."""
    kind, sa, sb, rnd = sides(state, req, 1 if req.round is None else req.round)
    held = round_allowed(state, sa.unit, sb.unit, rnd)
    if held is None:
        require_active(state, sa.unit, R_MELEE, "melee")
    rule = RULES[kind]
    ca, ra = _resolve_side(sa, dice, rule, percentile_die(state))
    cb, rb = _resolve_side(sb, dice, rule, percentile_die(state))
    rolls = [*ra, *rb]
    ch = Changes(state)
    al_b, nb = take_casualties(
        ch,
        sb.unit.id,
        ca,
        sa.eligible,
        dice,
        rule,
        f"melee round {rnd}: {ca} casualties from {sa.unit.id}",
    )
    al_a, na = take_casualties(
        ch,
        sa.unit.id,
        cb,
        sb.eligible,
        dice,
        rule,
        f"melee round {rnd}: {cb} casualties from {sb.unit.id}",
    )
    rolls += [*al_b.rolls, *al_a.rolls]
    losers: list[str] = []
    if ca > cb:
        losers = [sb.unit.id]
    elif cb > ca:
        losers = [sa.unit.id]
    elif ca == cb and ca > 0:
        losers = [sa.unit.id, sb.unit.id]
    if held is None:
        # a melee begun without the charge sequence (in contact, positions not kept): the
        # attacker holds its further rounds from now on
        ch.unit(ChargeStep, sa.unit.id, "melee begun", charge_target=sb.unit.id, melee_round=0)
        held = ch.state.unit(sa.unit.id)
    for u in (sa.unit, sb.unit):
        cur = ch.state.unit(u.id)
        if not cur.on_table:
            continue
        kw: dict[str, Any] = {"lost_melee": u.id in losers}  # this round's loser only
        if not cur.skirmishing:
            kw["disorder"] = cur.disorder + state.config.disorder.round
        if u.id in losers:
            kw["morale_due"] = True
        ch.unit(
            MeleeRound,
            u.id,
            f"melee round {rnd}" + (" lost: tests morale" if u.id in losers else ""),
            **kw,
        )
    charging.after_melee(ch, held.id, losers)
    msg = (
        f"melee round {rnd} ({kind.replace('_', ' ')}): {sa.unit.id} inflicts {ca}, "
        f"{sb.unit.id} inflicts {cb}"
    )
    notes = nb + na
    if notes:
        msg += "; " + "; ".join(notes)
    if losers:
        # what follows a test that holds: the D3 further rounds to roll ('brawl'), the next of
        # them, or (the last fought) the end of the melee this turn (Melee)
        n = held.melee_rounds
        then = "'brawl'" if n <= 0 else f"round {rnd + 1}" if rnd < n else "the melee ends"
        msg += f"; {' and '.join(losers)} test(s) morale (loser of melee); if it holds, {then}"
    return Outcome(
        tuple(ch.events),
        tuple(rolls),
        msg,
        {
            "kind": kind,
            "inflicted": {sa.unit.id: ca, sb.unit.id: cb},
            "losers": losers,
            "round": rnd,
        },
        # the outcome's name for the odds: what the round did, not which dice showed it
        result="; ".join(
            [f"{sa.unit.id} inflicts {ca}, {sb.unit.id} inflicts {cb}", *notes]
            + ([f"{' and '.join(losers)} lost"] if losers else [])
        ),
    )


def melee_odds(state: State, req: rq.Melee) -> list[Odds]:
    kind, sa, sb, _ = sides(state, req, 1 if req.round is None else req.round)
    rule = RULES[kind]
    pdie = percentile_die(state)
    da, db = side_odds(sa, pdie), side_odds(sb, pdie)
    pa = pb = pt = Fraction(0)
    for va, p in da.items():
        for vb, q in db.items():
            if va > vb:
                pb += p * q
            elif vb > va:
                pa += p * q
            else:
                pt += p * q
    who = Odds(
        "who tests morale",
        (
            OddsRow("a", f"{sa.unit.id} (more casualties)", pa),
            OddsRow("b", f"{sb.unit.id} (more casualties)", pb),
            OddsRow("tie", "equal casualties (both test when any)", pt),
        ),
        rule=rule,
    )
    return [
        sa.odds(rule, da),
        sb.odds(rule, db),
        who,
        *special_odds(state, sb.unit, sa.eligible, da, rule),
        *special_odds(state, sa.unit, sb.eligible, db, rule),
    ]


def brawl(state: State, req: rq.Brawl, dice: DiceSource) -> Outcome:
    """The loser held: D3 further rounds this turn, a general brawl of all troops available."""
    a = state.unit(req.unit)
    b = state.unit(req.target)
    c = charging.pair_of(state, a.id, b.id)
    if c is None or c.charge_step != "brawl":
        raise RuleViolation(
            R_MELEE,
            f"no D{state.config.dice.further_rounds} further rounds for {a.id} and {b.id} now:"
            " they follow a round of melee whose"
            " loser checked morale and held",
        )
    die = state.config.dice.further_rounds_die
    r = check_roll(Check(die, (), None, f"{a.id} vs {b.id}: further rounds", R_MELEE), dice)
    ch = Changes(state)
    ch.game(
        MeleeProlonged,
        "melee continues",
        history=(*state.history, f"turn {state.turn}: {a.id} vs {b.id} {r.final} more round(s)"),
    )
    charging.after_brawl(ch, c.id, r.final)
    return Outcome(
        tuple(ch.events),
        (r,),
        f"{r.final} further round(s): melee unit={a.id} target={b.id} round=2 … (everyone fights)",
        {"rounds": r.final},
    )


def brawl_odds(state: State, req: rq.Brawl) -> list[Odds]:
    return [Check(state.config.dice.further_rounds_die, (), None, "further rounds", R_MELEE).odds()]


def evade_check(state: State, u: Unit) -> Check:
    return Check(f"1{state.config.options.evade_die}", (), None, f"{u.id} evades (cm)", R_CI)


def evade_odds(state: State, req: rq.Evade) -> list[Odds]:
    u = state.unit(req.unit)
    return [evade_check(state, u).odds()]


def evade(state: State, req: rq.Evade, dice: DiceSource) -> Outcome:
    """Skirmishers charged by cavalry evade D20 cm; any caught (``caught=N``) are ridden down.
    Reading K59: where positions are kept and ``caught`` is not stated, the skirmishers are
    caught, all of them, when the charging cavalry's move (what is left of it) still reaches
    them after the evasion (``[options] evade_caught = "reach"``; ``"stated"``: only the
    figures the player states)."""
    u = state.unit(req.unit)
    if not u.skirmishing:
        raise RuleViolation(R_CI, f"{u.id} is not skirmishing")
    if req.caught is not None and not 0 <= req.caught <= u.figures:
        raise BadRequest(f"'caught' must be 0-{u.figures}")
    r = check_roll(evade_check(state, u), dice)
    caught = 0 if req.caught is None else req.caught
    ch = Changes(state)
    kw: dict[str, Any] = {"morale_due": False, "restricted_to": None}
    # away from the cavalry charging it (straight back when no charger is known)
    charger = next((c for c in charging.chargers(state) if c.charge_target == u.id), None)
    if charger is not None:
        pos = geom.moved_away(u, charger, r.final * 10.0)
    else:
        pos = geom.moved(u, -r.final * 10.0, 0.0)
    reached = hit = ""
    if pos is not None:
        kw["x"], kw["y"] = pos
        # the evasion runs into what lies in its way (Kuryakin, Disorder; reading K64: not its
        # own side's units) and stops at contact with an enemy (reading K89), caught or not
        hit, _ = rules_move_collisions(state, u, kw)
        pos = (kw["x"], kw["y"])
        if (
            req.caught is None
            and charger is not None
            and state.config.options.evade_caught == "reach"
        ):
            reach = base_move(state, charger) - charger.moved_mm
            if geom.within(charger, replace(u, x=pos[0], y=pos[1]), reach):
                caught = u.figures
                reached = f" ({charger.id}'s move, {reach:.0f}mm, still reaches them)"
    if caught:
        kw["figures"] = u.figures - caught
        kw["casualties_turn"] = u.casualties_turn + caught
        if caught == u.figures:
            kw["status"] = "eliminated"
    if caught == u.figures:  # skirmishers all ridden down run into nothing
        hit = ""
        kw.pop("collided", None)
    ch.unit(
        Evaded,
        u.id,
        f"evades {r.final}cm" + (f", {caught} ridden down{reached}" if caught else ""),
        **kw,
    )
    notes = lost_unit_generals(ch, u.id) if caught == u.figures else []
    charging.after_evade(ch, u.id)
    return Outcome(
        tuple(ch.events),
        (r,),
        f"{u.id} evades {r.final}cm"
        + (f"; {caught} caught and ridden down{reached}" if caught else "")
        + hit
        + "".join(f"; {n}" for n in notes),
    )
