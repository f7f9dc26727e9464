"""Reinforcements (2 by 2, Reinforcements): in its move phase the phasing player may roll 1d6
up to twice; each roll is made for one of its reinforcement points (RP): 3+ at a rear RP, 4+ at
a flank RP brings on the next unit waiting there, which enters the edge within [4] of the RP.

ASSUMPTION: each roll is for one RP the player names, and a success brings one unit (the next
in order of appearance). The arriving unit enters by its ``move`` (a path starting on the edge
within [4] of the RP), or is placed with ``x``, ``y``, ``facing`` given here.
"""

from __future__ import annotations

from vedette.dice import Check, DiceSource, Roll
from vedette.errors import BadRequest, RuleViolation
from vedette.geometry.tabletop import Body, Vec, normalise
from vedette.rules.base import Outcome
from vedette.rules.protocol import DomainEvent, Plan
from vedette.rules.two_by_two import facts
from vedette.rules.two_by_two.events import ReinforcementRolled, RpDequeued, unit_event
from vedette.rules.two_by_two.model import (
    R_PLAY,
    R_REINF,
    GameState,
    ReinforcementPoint,
)
from vedette.rules.two_by_two.movement import entry_facing, entry_problems
from vedette.rules.two_by_two.requests import Reinforce


def _check(state: GameState, rp: ReinforcementPoint) -> Check:
    table = state.rules.tables[f"reinforcement_{rp.kind}"]
    nxt = state.unit(rp.queue[0]).name if rp.queue else "nobody"
    return Check(table.dice, (), table, f"reinforcement at {rp.kind} RP {rp.id} ({nxt})", R_REINF)


def _judge(state: GameState, req: Reinforce) -> ReinforcementPoint:
    rp = state.rp(req.rp)
    limit = state.rules.reinforcements.rolls_per_turn
    if state.reinforcement_rolls >= limit:
        raise RuleViolation(R_REINF, f"only {limit} reinforcement rolls per turn")
    if not rp.queue:
        raise RuleViolation(R_REINF, f"no reinforcements wait at RP {rp.id}")
    return rp


def plan_reinforce(state: GameState, req: Reinforce) -> Plan:
    """Every check of the rules, and the one roll it makes (its odds before the roll)."""
    rp = _judge(state, req)
    if req.x is not None and state.play == "stated":
        raise RuleViolation(R_PLAY, "a stated game keeps no positions: give no x, y")
    # where the arriving unit would stand is checked before the roll: a refusal after the
    # roll would show the die before the player spends it
    return Plan(req, steps=(_check(state, rp),), data=(rp, _entry_body(state, req, rp)))


def _entry_body(state: GameState, req: Reinforce, rp: ReinforcementPoint) -> Body | None:
    if req.x is None:
        return None

    if req.y is None:
        raise BadRequest("give x and y (mm)")
    u = state.unit(rp.queue[0])
    facing = normalise(entry_facing(state, rp) if req.facing is None else req.facing)
    body = Body(Vec(req.x, req.y), facing, state.rules.footprint)
    problems = entry_problems(state, u, rp, body)
    if problems or not facts.on_table(state, body):
        rule, text = problems[0] if problems else (R_REINF, f"{u.name} would be off the table")
        raise RuleViolation(rule, text)
    return body


def reinforce(state: GameState, plan: Plan, dice: DiceSource) -> Outcome:
    rp: ReinforcementPoint = plan.data[0]
    body: Body | None = plan.data[1]
    r = plan.steps[0].resolve(dice)
    assert isinstance(r, Roll)
    events: list[DomainEvent] = [ReinforcementRolled(rp.id)]
    if r.row != "arrives":
        return Outcome(tuple(events), (r,), f"no reinforcement at RP {rp.id}")
    uid = rp.queue[0]
    u = state.unit(uid)
    events.append(RpDequeued(rp.id, uid))
    if body is not None:
        events.append(unit_event("arrived", uid, status="table", body=body, entry=""))
        msg = f"{u.name} arrives at RP {rp.id}: it stands on the edge and may move now or next"
    else:
        events.append(unit_event("arrived", uid, status="table", body=None, entry=rp.id))
        msg = (
            f"{u.name} arrives: it enters from the edge within"
            f" [{state.rules.reinforcements.entry_radius:g}] of RP {rp.id}, now or in a"
            " later move phase"
        )
    return Outcome(tuple(events), (r,), msg)
