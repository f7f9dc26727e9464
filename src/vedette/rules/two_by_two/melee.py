"""Melee (2 by 2, Melee): each side 1d6 + modifiers, the difference indexes the loser's result,
draws are rerolled; follow-ups; voluntary routs (Unit Summary ***).

Facts per side, measured or stated with the prefix ``a_`` (attacker) or ``b_`` (defender):
``support`` (extra units in the melee beyond the first), ``town`` (in a town), ``woods`` (in
woods/rough), ``higher`` (higher than the opponent), ``hq_contact``; and ``contact`` (the two
are in base contact, when the melee was not started by a move vedette saw).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from vedette.dice import Check, DiceSource, Modifier, OpposedRoll
from vedette.dice.roll import AnyRoll
from vedette.dice.tables import INF, Row, Table
from vedette.errors import BadRequest, RuleViolation
from vedette.geometry import tabletop as tt
from vedette.rules.base import Outcome
from vedette.rules.protocol import DomainEvent, Plan
from vedette.rules.two_by_two import facts
from vedette.rules.two_by_two.common import (
    Fact,
    check_contagion,
    fact_bool,
    forfeit_follow_up,
    hq_contact_fact,
    phase_held,
    resolve_rout,
    rout_check,
)
from vedette.rules.two_by_two.events import (
    FactsHeld,
    FollowUpClosed,
    FollowUpOffered,
    MeleeCancelled,
    MeleePending,
    MeleeResolved,
    MeleesCleared,
    unit_event,
)
from vedette.rules.two_by_two.model import (
    R_CONTACT,
    R_MELEE,
    R_SHOOT,
    R_UNITS,
    GameState,
    PendingMelee,
    Unit,
    require_phase,
    require_unit_in_play,
)
from vedette.rules.two_by_two.requests import FollowUp, Melee, Rout


def signed_table(loser: Table, ground: tuple[int, int] | None = None) -> Table:
    """The melee table read on the signed difference (attacker minus defender): positive, the
    defender loses; negative, the attacker loses; 0 is a draw (rerolled).

    ``ground``: the attacker's and the defender's ground as the table reads it (flags:
    :data:`HELD`, in a town or woods, where a loser is not repulsed and does not recoil;
    :data:`TOWN`, in a town, where a winner need not follow up). Given, each row says what it
    applies to these two units, as the result will (its dice line and the odds); None: the
    rows as the table gives them (the reference)."""
    if ground is None:
        return _signed(loser, None, None)
    key = (id(loser), ground)
    hit = _SIGNED.get(key)
    if hit is None or hit[0] is not loser:
        if len(_SIGNED) > 256:
            _SIGNED.clear()
        hit = _SIGNED[key] = (loser, _signed(loser, *ground))
    return hit[1]


#: the worded signed tables by (table identity, flags) (the entry keeps the table alive)
_SIGNED: dict[tuple[int, tuple[int, int]], tuple[Table, Table]] = {}


def _signed(loser: Table, a: int | None, d: int | None) -> Table:
    """:func:`signed_table`'s table; ``a`` and ``d`` the attacker's and defender's flags."""
    rows: list[Row] = []
    for r in reversed(loser.rows):
        lo = -r.hi if r.hi < INF else -INF
        rows.append(
            replace(
                r,
                lo=lo,
                hi=-r.lo,
                key=f"attacker_{r.key}",
                result=f"attacker {_applied(r, a, d)}",
                range_text=f"-({r.range_text})",
            )
        )
    rows.append(Row(0, 0, "draw", "draw: neither has won, reroll", "0"))
    for r in loser.rows:
        rows.append(replace(r, key=f"defender_{r.key}", result=f"defender {_applied(r, d, a)}"))
    return Table("melee_signed", tuple(rows), loser.title, loser.rule, loser.dice)


#: where the melee table's row reads a unit's ground (2 by 2, Melee): the loser "in town or
#: woods" (repulsed, recoils) and the winner "in a town/village" (6+)
HELD, TOWN = 1, 2


def _applied(r: Row, loser: int | None, winner: int | None) -> str:
    """Row ``r``'s result as it applies to a loser and a winner on their ground (flags:
    :data:`HELD`, :data:`TOWN`); None: the row's own words, its clause for either ground."""
    if loser is None or winner is None:
        return r.result
    if r.key == "repulsed":  # "Repulsed [2] (unit in town or woods remain in control)"
        return "stays in control (in a town or woods: not repulsed)" if loser & HELD else _bare(r)
    if r.key == "recoils":  # "Recoils full move unless in town or woods then Disrupted"
        return "disrupted (in a town or woods: no recoil)" if loser & HELD else _bare(r)
    if r.key == "destroyed_mandatory":  # "(mandatory follow-up unless winner is in a town)"
        if winner & TOWN:
            return "destroyed (voluntary follow-up: the winner is in a town)"
        return _bare(r)
    return r.result


def _bare(r: Row) -> str:
    """The row's result without its clause for a unit in a town or woods: the repulse and the
    recoil without their parenthesis, the 6+ row's follow-up without "unless ... a town"."""
    if r.key == "destroyed_mandatory":
        return r.result.split(" unless ", 1)[0] + ")" if " unless " in r.result else r.result
    return r.result.split(" (", 1)[0]


@dataclass(frozen=True)
class Fight:
    attacker: Unit
    defender: Unit
    check: Check
    facts: dict[str, Any]
    pending: PendingMelee | None
    #: neither pending nor in contact: evaluated as if the two were in base contact (a
    #: query before a charge; the action itself is refused, flow.acting)
    as_if_contact: bool = False


def held_with(state: GameState, u: Unit, e: Unit) -> list[Unit]:
    """``u``'s friends in a melee the referee holds with ``e`` (a charge, a counter-charge):
    in contact with it, so its overlap supports where no position is kept (stated play), as
    :func:`facts.overlap_supports` counts them (not disrupted, not HQs)."""
    out: list[Unit] = []
    for m in state.melees:
        if e.id not in (m.attacker, m.defender):
            continue
        f = state.unit(m.defender if m.attacker == e.id else m.attacker)
        if f.id == u.id or f.side != u.side or f.disrupted or f.status != "table":
            continue
        if not state.utype(f).is_hq and f not in out:
            out.append(f)
    return out


def _side_facts(state: GameState, req: Melee, p: str, u: Unit, e: Unit) -> dict[str, Fact]:
    sup = facts.overlap_supports(state, u, e)
    held = held_with(state, u, e) if sup is None else []
    said_town, said_woods = _ground_said(req, p, u)
    town = fact_bool(said_town, facts.in_kinds(state, u, "town"))
    woods = fact_bool(said_woods, facts.in_kinds(state, u, "woods", "rough"))
    if state.held:  # (stated: as held, reading 54)
        town = phase_held(state, u, "town", town, R_MELEE, f"{p}_town={_said(town)}")
        woods = phase_held(state, u, "woods", woods, R_MELEE, f"{p}_woods={_said(woods)}")
        if state.held_fact(u.id, "in_cover") and not (town.value or woods.value):
            town, woods = _in_cover(u, p, town, woods)
    out: dict[str, Fact] = {
        "town": town,
        "woods": woods,
        "hq_contact": hq_contact_fact(
            state, u, getattr(req, f"{p}_hq_contact"), R_MELEE, f"{p}_hq_contact"
        ),
    }
    stated_support = getattr(req, f"{p}_support")
    if stated_support is not None:
        if int(stated_support) < 0:
            raise BadRequest(f"'{p}_support' must not be negative (extra units beyond 1)")
        out["support"] = Fact(int(stated_support), "stated")
    elif held:  # (stated play: in contact with the enemy, as the melees it holds say)
        out["support"] = Fact(len(held), "in contact: melee pending")
    else:
        out["support"] = Fact(len(sup) if sup is not None else 0, "measured" if sup else "assumed")
    # the friends fighting as support (reading 29: their own melees on the enemy are this one)
    out["support_units"] = Fact([s.id for s in sup or held], "measured")
    mine, theirs = facts.on_hill(state, u), facts.on_hill(state, e)
    higher = None if mine is None or theirs is None else (mine and not theirs)
    out["higher"] = fact_bool(_higher(req, p), higher)
    return out


def _higher(req: Melee, p: str) -> bool | None:
    """Side ``p``'s stated "higher than opponent" (2 by 2, Melee): its own field, or read from
    ``higher`` (which of the two, or neither). Both sides higher than each other cannot be:
    refused, as is a ``higher`` that contradicts a side's own field."""
    own: bool | None = getattr(req, f"{p}_higher")
    if req.a_higher and req.b_higher:
        raise RuleViolation(
            R_MELEE,
            "the attacker and the defender cannot each stand higher than the other: state"
            " higher=attacker, higher=defender or higher=neither",
        )
    if req.higher is None:
        return own
    said = req.higher == ("attacker" if p == "a" else "defender")
    if own is not None and own != said:
        raise BadRequest(f"higher={req.higher} contradicts {p}_higher={str(own).lower()}")
    return said


def _ground_said(req: Melee, p: str, u: Unit) -> tuple[bool | None, bool | None]:
    """Side ``p``'s stated town and woods/rough: its own fields, or read from ``{p}_ground``
    (a town, woods/rough, or neither). One unit's ground is not both (reading 56: the text
    names them as two kinds of terrain, Movement Modifiers): refused, as is a ground that
    contradicts a side's own field."""
    town: bool | None = getattr(req, f"{p}_town")
    woods: bool | None = getattr(req, f"{p}_woods")
    ground = getattr(req, f"{p}_ground")
    if ground is not None:
        for name, own in (("town", town), ("woods", woods)):
            if own is not None and own != (ground == name):
                raise BadRequest(f"{p}_ground={ground} contradicts {p}_{name}={str(own).lower()}")
        town, woods = ground == "town", ground == "woods"
    if town and woods:
        raise RuleViolation(
            R_MELEE,
            f"{u.name} stands in a town or in woods/rough, not in both (reading 56): state"
            f" {p}_ground=town or {p}_ground=woods",
        )
    return town, woods


def _in_cover(u: Unit, p: str, town: Fact, woods: Fact) -> tuple[Fact, Fact]:
    """``u``'s town and woods/rough where a shot held it in woods/rough or town (reading 54)
    and neither is so: the one not stated otherwise, the town first; both
    stated otherwise, refused."""
    held = Fact(True, "held")
    if town.source != "stated":
        return held, woods
    if woods.source != "stated":
        return town, held
    raise RuleViolation(
        R_MELEE,
        f"{u.name} was ruled in woods/rough or town earlier, and stays so until it moves or"
        f" the melee phase ends (reading 54): give {p}_ground=town or {p}_ground=woods",
    )


def _said(f: Fact) -> str:
    """The opposite of a yes/no fact, as a request field's value: what is held, where a
    stated one contradicts it (reading 54)."""
    return "false" if f.value else "true"


def melee_modifiers(
    state: GameState, u: Unit, e: Unit, f: dict[str, Fact], attacker: bool
) -> list[Modifier]:
    """The modifiers of one side (2 by 2, Melee), cumulative."""
    t, et = state.utype(u), state.utype(e)
    sec = state.rules.melee

    def m(value: int, reason: str) -> Modifier:
        return Modifier(value, reason, R_MELEE)

    mods: list[Modifier] = []
    if t.guards:
        mods.append(m(sec.guards, "unit is Guards"))
    if t.cav_class in ("light", "lancer") and et.is_cavalry:
        mods.append(m(sec.light_vs_cavalry, "Light Cavalry or Lancers vs cavalry"))
    if t.cav_class == "lancer" and e.disrupted:
        mods.append(m(sec.lancers_vs_disrupted, "Lancers vs disrupted"))
    if t.cav_class == "heavy":
        mods.append(m(sec.heavy_cavalry, "unit is Heavy Cavalry"))
    if t.is_cavalry and f["town"].value:
        mods.append(m(sec.cavalry_in_town, f"cavalry in town{f['town'].note()}"))
    if e.disrupted:
        mods.append(m(sec.enemy_disrupted, "enemy is disrupted"))
    n = int(f["support"].value)
    if n > 0:
        mods.append(
            Modifier(
                sec.overlap_per_unit * n,
                f"overlap support: {n} extra unit(s){f['support'].note()}",
                R_MELEE,
            )
        )
    if t.is_infantry and u.formation == "attack_column":
        mods.append(m(sec.column_of_attack, "column of attack"))
    if u.formation == "road_column":
        mods.append(m(sec.road_column, "unit in road column"))
    if t.is_cavalry and et.is_infantry and not e.disrupted:
        mods.append(m(sec.cavalry_vs_ordered_infantry, "cavalry vs ordered infantry"))
    if f["hq_contact"].value:
        mods.append(m(sec.hq_contact, f"HQ in base contact{f['hq_contact'].note()}"))
    if f["higher"].value:
        mods.append(m(sec.higher, f"higher than opponent{f['higher'].note()}"))
    if t.is_artillery or t.is_hq:
        mods.append(m(sec.artillery_or_hq, "unit is artillery/HQ"))
    if attacker and u.meleed:
        mods.append(m(sec.attacker_subsequent, "attacker's subsequent melee"))
    return mods


def initiation_problem(state: GameState, a: Unit, d: Unit) -> str | None:
    """Whether ``a`` may initiate a melee with ``d`` (2 by 2, Melee: "Infantry cannot initiate
    melee with cavalry. Artillery cannot initiate melee with an enemy unit."), however the
    melee starts: a charge, a counter-charge, a follow-up or two units found in contact."""
    at, dt = state.utype(a), state.utype(d)
    if at.is_artillery:
        return "artillery cannot initiate melee with an enemy unit"
    if at.is_infantry and dt.is_cavalry:
        return "infantry cannot initiate melee with cavalry"
    return None


def initiation(state: GameState, a: Unit, d: Unit) -> None:
    problem = initiation_problem(state, a, d)
    if problem is not None:
        raise RuleViolation(R_MELEE, f"{a.name} vs {d.name}: {problem}")


def judge(state: GameState, req: Melee) -> Fight:
    """Every check of the rules on a melee and both sides' modifiers (no dice). The phase and
    the side that resolves it are the flow's (flow.acting): a query is open in every
    phase, and two units not (yet) in contact are evaluated as if they were."""
    a = require_unit_in_play(state, req.attacker, "melee", entering=True)
    d = require_unit_in_play(state, req.defender, "melee")
    if a.side == d.side:
        raise BadRequest(f"{a.name} and {d.name} are on the same side")
    pending = next((m for m in state.melees if m.attacker == a.id and m.defender == d.id), None)
    as_if = False
    if pending is None:
        as_if = not fact_bool(req.contact, facts.in_contact(state, a, d)).value
    if a.entry and not as_if:  # an arrived unit off the table touches no one (Reinforcements)
        require_unit_in_play(state, a.id, "melee")
    initiation(state, a, d)
    check_contagion(state, req.contagion, {a.side, d.side})  # (either may lose and rout)
    fa = _side_facts(state, req, "a", a, d)
    fd = _side_facts(state, req, "b", d, a)
    ground = (_ground(fa), _ground(fd))
    check = Check(
        "1d6 vs 1d6",
        tuple(melee_modifiers(state, a, d, fa, True)),
        signed_table(state.rules.tables["melee"], ground),
        f"melee {a.name} vs {d.name}",
        R_MELEE,
        tuple(melee_modifiers(state, d, a, fd, False)),
        reroll_draws=True,
        a_label=a.name,
        b_label=d.name,
    )
    info = {
        "attacker": {k: v.value for k, v in fa.items()},
        "defender": {k: v.value for k, v in fd.items()},
    }
    return Fight(a, d, check, info, pending, as_if)


def _ground(f: dict[str, Fact]) -> int:
    """A side's ground as the melee table reads it (:data:`HELD`, :data:`TOWN`)."""
    town = bool(f["town"].value)
    return (HELD if town or f["woods"].value else 0) | (TOWN if town else 0)


def plan_melee(state: GameState, req: Melee) -> Plan:
    """Every check of the rules on the melee, once; the loser (either side) of a difference
    of 3 rolls for its rout: the odds before the roll show both."""
    fight = judge(state, req)
    ra = rout_check(state, fight.attacker, R_MELEE)
    rd = rout_check(state, fight.defender, R_MELEE)
    return Plan(
        req,
        steps=(fight.check,),
        data=fight,
        step_odds_fn=lambda: [fight.check.odds(), ra.odds(), rd.odds()],
    )


def melee(state: GameState, plan: Plan, dice: DiceSource) -> Outcome:
    """Resolve a melee (2 by 2, Melee)."""
    req: Melee = plan.request
    fight: Fight = plan.data
    a, d = fight.attacker, fight.defender
    r = fight.check.resolve(dice)
    assert isinstance(r, OpposedRoll)
    rolls: list[AnyRoll] = [r]
    events: list[DomainEvent] = [
        MeleeResolved(a.id, d.id),
        unit_event("meleed", a.id, meleed=True),
        unit_event("meleed", d.id, meleed=True),
    ]
    if state.play == "stated":  # (before the result: a loser that moves releases them)
        events.extend(_held(u, fight.facts[k]) for u, k in ((a, "attacker"), (d, "defender")))
    # the friends who fought in this melee as overlap support (reading 29): other attackers
    # on the same defender counted as the attacker's support; the defender's friends counted
    # as its support. Each one's own melee with the enemy it supported against is this one,
    # fought (not fought again); either side's stated support below them names none of them
    joined = _backed(fight.facts["attacker"]) | _backed(fight.facts["defender"])
    for m in state.melees:
        pair = {m.attacker, m.defender}
        friend = next(iter(pair & joined), None)
        if friend is not None and pair - {friend} <= {a.id, d.id}:
            events.append(MeleeResolved(m.attacker, m.defender))
            events.append(unit_event("meleed", friend, meleed=True))
    row = fight.check.row_for(r.difference)
    assert row is not None
    loser, winner = (d, a) if r.difference > 0 else (a, d)
    key = row.key.split("_", 1)[1]
    lines = [_draw_line(a, d, da, db) for da, db in r.draws]
    win_town = bool(fight.facts["attacker" if winner is a else "defender"]["town"])
    lf = fight.facts["attacker" if loser is a else "defender"]
    held = bool(lf["town"] or lf["woods"])
    general = next(x for x in state.rules.tables["melee"].rows if x.key == key)
    result = general.result
    if key in ("repulsed", "recoils", "destroyed_mandatory"):  # the row's clause for a town or
        result = _bare(general)  # woods: said below where it applies
    lines.append(f"{winner.name} wins; {loser.name} {result}")
    follow: str = row.follow_up  # the table's column (2 by 2, Melee: the winner's follow-up)
    if key == "repulsed":
        if held:
            lines.append(f"{loser.name} is in a town or woods: it stays in control")
        else:
            n = state.rules.movement.repulse_distance
            to = facts.pushed_back(state, loser, winner, n)
            events.append(unit_event("repulsed", loser.id, **({"body": to} if to else {})))
            _parted(state, loser, to, {a.id, d.id, *joined}, "repulsed", events, lines)
    elif key == "recoils":
        if held:
            events.append(unit_event("disrupted", loser.id, disrupted=True))
            lines.append(f"{loser.name} is in a town or woods: disrupted instead")
        else:
            to = facts.pushed_back(state, loser, winner, state.utype(loser).move)
            events.append(unit_event("recoiled", loser.id, **({"body": to} if to else {})))
            _parted(state, loser, to, {a.id, d.id, *joined}, "recoiled", events, lines)
    elif key == "routs":
        ev, rr, ll = resolve_rout(state, loser, winner, dice, R_MELEE, req.contagion)
        events.extend(ev)
        rolls.extend(rr)
        lines.extend(ll)
    else:
        events.append(unit_event("destroyed", loser.id, status="destroyed", body=None))
        events.append(MeleesCleared((loser.id,)))
    if key != "routs":  # (a rout forfeits it in resolve_rout)
        ev, ln = forfeit_follow_up(state, loser, f"it lost the melee with {winner.name}")
        events.extend(ev)
        lines.extend(ln)
    if follow == "mandatory" and win_town:
        follow = "voluntary"
        lines.append(f"{winner.name} is in a town: the follow-up is voluntary")
    if follow != "none" and (winner.pinned or winner.disrupted):
        # Pinned: "may only change facing"; Disrupted: "may not move" (Resolving shooting)
        why = "pinned: it may only change facing" if winner.pinned else "disrupted: it may not move"
        lines.append(f"{winner.name} is {why}; no follow-up")
        follow = "none"
    if follow != "none":
        into = loser.body.centre if loser.body is not None else None
        events.append(
            FollowUpOffered(
                winner.id,
                follow == "mandatory",
                None if into is None else into.x,
                None if into is None else into.y,
            )
        )
        lines.append(f"{winner.name}: {follow} follow-up")
    return Outcome(
        tuple(events), tuple(rolls), "; ".join(lines), {"melee": fight.facts}, (fight.check.odds(),)
    )


def _backed(f: dict[str, Any]) -> set[str]:
    """A side's friends that fought as its overlap support (reading 29): those the support
    counted (a stated ``a_support`` / ``b_support`` below their number names none of them:
    the Melee text's "+1 / extra unit beyond 1" counts the units in the melee, on either
    side alike)."""
    units: list[str] = f["support_units"]
    return set(units) if units and int(f["support"]) >= len(units) else set()


def _held(u: Unit, f: dict[str, Any]) -> FactsHeld:
    """The facts of ``u``'s own ground a stated melee ruled on, held (reading
    54): in a town, in woods/rough, an HQ in base contact."""
    return FactsHeld(
        u.id, town=bool(f["town"]), woods=bool(f["woods"]), hq_contact=bool(f["hq_contact"])
    )


def _parted(
    state: GameState,
    loser: Unit,
    to: tt.Body | None,
    fought: set[str],
    how: str,
    events: list[DomainEvent],
    lines: list[str],
) -> None:
    """A loser pushed back (repulsed [2], recoiling a full move: 2 by 2, Melee) leaves the
    ground it fought on: each other melee pending on it lapses, as a melee is fought in
    contact (reading 48): tracked, with each enemy it no longer touches where it ends; stated
    (no positions), with every one (a melee still in contact is declared with
    ``contact=true``)."""
    for m in state.melees:
        if loser.id not in (m.attacker, m.defender) or {m.attacker, m.defender} <= fought:
            continue
        other = state.unit(m.defender if m.attacker == loser.id else m.attacker)
        if (
            to is not None
            and other.body is not None
            and tt.in_contact(to, other.body, state.rules.contact_mm)
        ):
            continue
        why = f"{loser.name} {how} out of contact with {other.name}"
        events.append(MeleeCancelled(m.attacker, m.defender, why))
        lines.append(f"the melee {m.attacker} vs {m.defender} lapses ({why})")


def _draw_line(a: Unit, d: Unit, da: Any, db: Any) -> str:
    """A draw, its faces and its modified totals apart ("Draw... Neither has won... Reroll!",
    2 by 2, Melee): the totals are what tie, not the faces."""

    def side(u: Unit, r: Any) -> str:
        faces = "+".join(str(f.face) for f in r.faces) or str(r.natural)
        mod = r.final - r.natural
        return f"{u.name} rolled {faces}{mod:+d} = {r.final}"

    return f"draw ({side(a, da)}; {side(d, db)}): neither has won, reroll"


def follow_up(state: GameState, req: FollowUp, dice: Any = None) -> Outcome:
    """Follow up a beaten enemy (2 by 2, Melee results 3-6+): into the ground it held (or to
    ``x``, ``y``), or ``decline=true`` when the follow-up is voluntary. Contact made with a
    fresh enemy starts a subsequent melee."""
    u = require_unit_in_play(state, req.unit, "follow up")
    require_phase(state, "melee", state.phasing, "follow up")
    fu = next((f for f in state.follow_ups if f.unit == u.id), None)
    if fu is None:
        raise RuleViolation(R_MELEE, f"{u.name} has no follow-up to make")
    if (u.pinned or u.disrupted) and not req.decline:
        raise RuleViolation(
            R_SHOOT,
            f"{u.name} is {'pinned: it may only change facing' if u.pinned else 'disrupted'}:"
            " it cannot follow up",
        )
    if req.decline:
        if fu.mandatory:
            raise RuleViolation(R_MELEE, f"{u.name}'s follow-up is mandatory")
        return Outcome((FollowUpClosed(u.id),), (), f"{u.name} holds")
    events: list[DomainEvent] = [FollowUpClosed(u.id)]
    contacts: list[str] = []
    if u.body is not None:
        if req.x is not None:
            if req.y is None:
                raise BadRequest("give x and y (mm)")
            at = tt.Vec(req.x, req.y)
        elif fu.into is not None:
            at = fu.into
        else:
            at = u.body.centre
        facing = u.body.facing if req.facing is None else req.facing
        body = tt.Body(at, tt.normalise(facing), u.body.footprint)
        events.append(unit_event("followed_up", u.id, body=body))
        for e in state.live(state.enemy_of(u.side)):
            if e.body is not None and tt.in_contact(body, e.body, state.rules.contact_mm):
                contacts.append(e.id)
    else:
        events.append(unit_event("followed_up", u.id))
        contacts = list(req.contact or ())
        for c in contacts:  # (stated: enemies in play, as a stated move's contacts are)
            e = require_unit_in_play(state, c, "follow up into contact")
            if e.side == u.side:
                raise BadRequest(f"{e.name} is not an enemy of {u.name}")
    fights: list[str] = []
    barred: list[str] = []
    for c in contacts:
        problem = initiation_problem(state, u, state.unit(c))
        if problem is not None:
            barred.append(f"{c} ({problem})")
            continue
        fights.append(c)
        events.append(MeleePending(u.id, c))
    msg = f"{u.name} follows up"
    if fights:
        msg += "; subsequent melee with " + ", ".join(fights)
    if barred:
        msg += "; in contact but no melee: " + ", ".join(barred)
    return Outcome(tuple(events), (), msg)


def plan_voluntary_rout(state: GameState, req: Rout) -> Plan:
    """The checks of a voluntary rout, and its rout roll (none when ``[rout]
    voluntary_rolls`` is false)."""
    u = _voluntary_judge(state, req)
    rolls_it = state.rules.rout.voluntary_rolls
    steps = (rout_check(state, u, R_UNITS),) if rolls_it else ()
    return Plan(req, steps=steps, data=u)


def voluntary_rout(state: GameState, plan: Plan, dice: DiceSource) -> Outcome:
    """A *** unit routs of its own will (2 by 2, Unit Summary ***): in its own move phase, or
    when it is the defender of a melee not yet resolved (ASSUMPTION: the text says not when)."""
    req: Rout = plan.request
    u: Unit = plan.data
    rolls_it = bool(plan.steps)
    ev, rr, ll = resolve_rout(state, u, None, dice, R_UNITS, req.contagion, rolls_it)
    return Outcome(tuple(ev), tuple(rr), "voluntary rout: " + "; ".join(ll))


def _voluntary_judge(state: GameState, req: Rout) -> Unit:
    """Every check of a voluntary rout (2 by 2, Unit Summary ***), no dice."""
    u = require_unit_in_play(state, req.unit, "voluntary rout", entering=True)
    if not state.utype(u).voluntary_rout:
        raise RuleViolation(R_UNITS, f"{state.utype(u).name} may not rout voluntarily (not ***)")
    check_contagion(state, req.contagion, {u.side})
    threatened = any(m.defender == u.id for m in state.melees)
    own_move = state.stage == "battle" and state.phase == "move" and state.phasing == u.side
    if not (own_move or (state.stage == "battle" and threatened)):
        raise RuleViolation(
            R_UNITS,
            f"{u.name} may rout voluntarily only in its move phase or when charged (ASSUMPTION)",
        )
    if own_move and (u.id in state.charged or any(m.attacker == u.id for m in state.melees)):
        # a move to contact ends the unit's move for the phase (reading 37): the charger stays
        # for the melee it began, and routs by choice only when charged (reading 18)
        raise RuleViolation(
            R_CONTACT,
            f"{u.name} charged this phase: a move to contact ends its move, so it may not rout"
            " voluntarily now (ASSUMPTION)",
        )
    if u.disrupted:  # a unit that has routed is disrupted too: it does not rout again by choice
        raise RuleViolation(
            R_SHOOT, f"{u.name} is disrupted: it may not move, so it may not rout voluntarily"
        )
    if u.pinned:  # (reading 18: a rout is a move away, and "Pinned: may only change facing")
        raise RuleViolation(
            R_SHOOT,
            f"{u.name} is pinned: it may only change facing, so it may not rout voluntarily",
        )
    if u.entry:  # arrived at its RP, not yet on the table: nowhere to rout from, or away from
        raise RuleViolation(
            R_UNITS,
            f"{u.name} has not entered the table yet (arrived at RP {u.entry}): it may not rout"
            " voluntarily",
        )
    return u


def check_melee(state: GameState, req: Melee, dice: Any = None) -> Outcome:
    """Query: both sides' modifiers and the loser's odds, without rolling."""
    fight = judge(state, req)
    o = fight.check.odds()
    lines = o.lines()
    if fight.as_if_contact:
        lines = [
            f"{fight.attacker.name} and {fight.defender.name} are not in contact: evaluated as"
            " if in base contact (the odds of the charge's melee)",
            *lines,
        ]
    details = {
        "as_if_contact": fight.as_if_contact,
        "facts": fight.facts,
        "modifiers": {
            "attacker": {m.reason: m.value for m in fight.check.modifiers},
            "defender": {m.reason: m.value for m in fight.check.b_modifiers},
        },
    }
    return Outcome((), (), "\n".join(lines), details, (o,))
