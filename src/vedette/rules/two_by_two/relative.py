"""Moves in the player's language (a tracked game): ``advance``, ``retire``, ``wheel``, ``turn``
and ``charge U into V``, each relative to the unit's own position and facing, distances in base
units [n] (inches and mm accepted with their unit: ``2in``, ``40mm``).

A unit's move phase may be made of several such steps; together they may not cost more than
its allowance (2 by 2, Unit Summary: Move; Movement Modifiers). Facing changes only when the
player says so (``wheel``, ``turn``). ``charge`` finds the straight-ahead contact the rules
require ("The last [2] of a units move to contact must be STRAIGHT AHEAD", 2 by 2, Moving to
contact) and ends in exact base contact, or says why it cannot.

ASSUMPTIONS (docs/rules/two_by_two.md, "Moves in the player's language"): the text prices no
manoeuvre, so a ``turn`` (about the centre) costs nothing and is open to a pinned unit ("may
only change facing"); a ``wheel`` pivots on the front corner on the side it wheels to and costs
the arc its outer front corner travels; a ``retire`` (straight back, facing kept) costs the
distance.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from vedette.errors import BadRequest, RuleViolation
from vedette.geometry import tabletop as tt
from vedette.geometry.tabletop import Body, Vec
from vedette.rules.base import Outcome
from vedette.rules.protocol import Plan
from vedette.rules.two_by_two import facts
from vedette.rules.two_by_two.common import to_n
from vedette.rules.two_by_two.events import UNIT_EVENTS, unit_event, unit_values
from vedette.rules.two_by_two.model import (
    R_CONTACT,
    R_MOVE,
    R_PLAY,
    R_SHOOT,
    GameState,
    Unit,
    require_phase,
    require_unit_in_play,
)
from vedette.rules.two_by_two.movement import (
    CONTACT_TERRAIN,
    MovePlan,
    _describe,
    _move_events,
    contact_ends_move,
    judge_move,
    move,
    plan_move,
)
from vedette.rules.two_by_two.requests import Advance, Charge, Move, Retire, Turn, Wheel


@dataclass(frozen=True)
class Step:
    """A relative move, judged: the move plan, the facing change and its cost."""

    unit: Unit
    plan: MovePlan | None
    end: Body
    cost: float
    turned: bool
    straight: float  # [n] straight ahead in this step (0 for a wheel or turn)
    text: str


# -- judging ---------------------------------------------------------------------------------
def _mover(state: GameState, uid: str, what: str, facing_only: bool = False) -> Unit:
    u = require_unit_in_play(state, uid, what, entering=True)
    require_phase(state, "move", u.side, what)
    if u.body is None:
        why = (
            "a stated game keeps no positions: use move unit=... distance=..."
            if state.play == "stated"
            else f"{u.name} has not entered the table yet: move or place it from the edge"
        )
        raise RuleViolation(R_PLAY, f"{what}: {why}")
    if u.disrupted:
        raise RuleViolation(R_SHOOT, f"{u.name} is disrupted: it may not move or fire")
    contact_ends_move(state, u, what)
    if u.moved and u.spent <= 0 and not u.turned:
        raise RuleViolation(R_MOVE, f"{u.name} has already moved this phase")
    if u.pinned and not facing_only:
        raise RuleViolation(R_SHOOT, f"{u.name} is pinned: it may only change facing")
    return u


def _straight_step(state: GameState, u: Unit, n: float, back: bool, words: bool = True) -> Step:
    assert u.body is not None
    if n <= 0:
        raise BadRequest("the distance must be more than 0")
    sign = -1.0 if back else 1.0
    # judged as Move(unit, path=(the point ahead,), facing kept) is, without the request
    to = Vec(*_ahead_of(u.body, sign * state.rules.mm(n)))
    plan = plan_move(
        state, u, _NO_MOVE, u.spent, u.road_only, first=True, straight_to=to, words=words
    )
    if plan.problems:
        raise RuleViolation(*plan.problems[0])
    assert plan.end is not None
    verb = "retires" if back else "advances"
    return Step(u, plan, plan.end, plan.cost, False, 0.0 if back else plan.length, verb)


#: the request :func:`plan_move` is handed with ``straight_to`` (read only in a game that
#: keeps no positions, where no unit stands on the table to step from)
_NO_MOVE = Move(unit="")


def _ahead_of(body: Body, mm: float) -> tuple[float, float]:
    """``body.centre + body.forward().scale(mm)`` as (x, y), worked on floats as
    ``Vec.heading``, ``scale`` and ``+`` work them (the same operations in the same order: the
    same floats), without the three vectors."""
    r = math.radians(body.facing)
    return (
        body.centre.x + (math.sin(r) * 1.0) * mm,
        body.centre.y + (math.cos(r) * 1.0) * mm,
    )


def judge_advance(state: GameState, req: Advance | Retire) -> Plan:
    return Plan(req, data=advance_step(state, req))


def advance_step(state: GameState, req: Advance | Retire, words: bool = True) -> Step:
    """An advance or a retire judged (``words``: False for the simulator's
    :func:`play_step`, which reads no breakdown and no counter-charge: :func:`plan_move`)."""
    back = isinstance(req, Retire)
    u = _mover(state, req.unit, "retire" if back else "advance")
    return _straight_step(state, u, to_n(state, req.distance), back, words)


def judge_wheel(state: GameState, req: Wheel) -> Plan:
    return Plan(req, data=wheel_step(state, req))


def wheel_step(state: GameState, req: Wheel) -> Step:
    u = _mover(state, req.unit, "wheel")
    assert u.body is not None
    if not 0 < req.angle <= 180:
        raise BadRequest("a wheel is more than 0 and at most 180 degrees")
    w = u.body.footprint.width
    # pivot: the front corner on the side the unit wheels to
    sign = -1.0 if req.direction == "left" else 1.0
    facing = tt.normalise(u.body.facing + sign * req.angle)
    # the pivot stays put: place the turned body so its same front corner is on the pivot
    end = Body(_wheeled(u.body, facing, sign * w / 2), facing, u.body.footprint)
    cost = state.rules.n(w * math.radians(req.angle))
    return _turn_step(state, u, end, cost, f"wheels {req.angle:g} {req.direction}")


def _wheeled(body: Body, facing: float, side: float) -> Vec:
    """The centre of ``body`` turned to ``facing`` about its front corner ``side`` mm right
    of its front centre: ``centre + (pivot - turned.to_world(depth / 2, side))`` with
    ``pivot = body.to_world(depth / 2, side)``, worked on floats as ``to_world``,
    ``Vec.heading``, ``scale``, ``+`` and ``-`` work them (the same operations in the same
    order: the same floats), without the vectors and the turned body."""
    cx, cy, ahead = body.centre.x, body.centre.y, body.footprint.depth / 2
    sin, cos, rad = math.sin, math.cos, math.radians
    f, r = rad(body.facing), rad(body.facing + 90.0)
    px = cx + (sin(f) * 1.0) * ahead + (sin(r) * 1.0) * side
    py = cy + (cos(f) * 1.0) * ahead + (cos(r) * 1.0) * side
    f, r = rad(facing), rad(facing + 90.0)
    tx = cx + (sin(f) * 1.0) * ahead + (sin(r) * 1.0) * side
    ty = cy + (cos(f) * 1.0) * ahead + (cos(r) * 1.0) * side
    return Vec(cx + (px - tx), cy + (py - ty))


def judge_turn(state: GameState, req: Turn) -> Plan:
    return Plan(req, data=turn_step(state, req))


def turn_step(state: GameState, req: Turn) -> Step:
    u = _mover(state, req.unit, "turn", facing_only=True)
    assert u.body is not None
    if req.face:
        other = state.unit(req.face)
        if other.body is None:
            raise BadRequest(f"vedette does not know where {other.name} stands")
        end = u.body.facing_toward(other.body.centre)
        text = f"turns to face {other.name}"
    else:
        by = 180.0 if req.direction == "about" else req.angle
        if not 0 < by <= 180:
            raise BadRequest("give face=UNIT, or angle=DEGREES (more than 0, at most 180)")
        sign = -1.0 if req.direction == "left" else 1.0
        end = u.body.turned(sign * by)
        text = f"turns {by:g} {req.direction}"
    return _turn_step(state, u, end, 0.0, text)


def _turn_step(state: GameState, u: Unit, end: Body, cost: float, text: str) -> Step:
    if not facts.on_table(state, end):
        raise RuleViolation(R_MOVE, f"{u.name} would end off the table")
    for o in state.near(end, 0.0):
        if o.id != u.id and o.body is not None and tt.overlaps(end, o.body, 1.0):
            raise RuleViolation(R_MOVE, f"{u.name} would end on top of {o.name}")
    t = state.utype(u)
    if not t.woods_half:
        rough = _rough(state.table)
        into = (
            [f for f in tt.body_features(end, rough, "any") if f not in _in_rough(u.body, rough)]
            if u.body is not None and rough and _may_touch(end, rough)
            else []
        )
        if into:
            raise RuleViolation(R_MOVE, f"woods/rough are impassable to {t.name} ({into[0].name})")
    allowance = t.move
    mv = state.rules.movement
    if u.bridged and mv.bridge_mode == "whole_move":  # the move crossed a bridge: 1/2 rate
        allowance *= mv.bridge_rate
    if cost > 0 and u.spent + cost > allowance + 1e-6:
        raise RuleViolation(
            R_MOVE,
            f"{u.name} needs [{cost:.2f}] but may move only [{max(allowance - u.spent, 0):.2f}]",
        )
    return Step(u, None, end, cost, True, 0.0, text)


#: a table's woods and rough, by the table's identity (the entry keeps the table alive)
_ROUGH: dict[int, tuple[Any, tuple[Any, ...]]] = {}


def _rough(table: Any) -> tuple[Any, ...]:
    """The woods and rough features of ``table``, in order, found once per table."""
    hit = _ROUGH.get(id(table))
    if hit is None or hit[0] is not table:
        if len(_ROUGH) > 64:
            _ROUGH.clear()
        found = tuple(f for f in table.features if f.kind in ("woods", "rough"))
        hit = _ROUGH[id(table)] = (table, found)
    return hit[1]


def _may_touch(body: Body, features: tuple[Any, ...]) -> bool:
    """Whether ``body`` may meet one of ``features``: ``False`` only when the box about the
    circle that holds its corners (its centre, its radius, a micrometre to spare) meets no
    feature's box (``body_features`` then finds none: its own box of the corners lies in that
    one), found without the corners (most wheels and turns end far from any wood)."""
    c, r = body.centre, body.radius + 1e-3
    x0, x1, y0, y1 = c.x - r, c.x + r, c.y - r, c.y + r
    for f in features:
        a, b, cc, d = f.box
        if not (a > x1 or cc < x0 or b > y1 or d < y0):
            return True
    return False


#: the woods and rough a body stands in, by (body, the features' identity)
_IN_ROUGH: dict[tuple[Body, int], tuple[tuple[Any, ...], list[Any]]] = {}


def _in_rough(body: Body, rough: tuple[Any, ...]) -> list[Any]:
    """The woods and rough a unit stands in (``body_features``, "any"), once per place: every
    wheel and turn it is offered asks it of the same place (read only; the features compared
    by identity: two tables' features may share their names)."""
    key = (body, id(rough))
    hit = _IN_ROUGH.get(key)
    if hit is None or hit[0] is not rough:
        if len(_IN_ROUGH) > 4096:
            _IN_ROUGH.clear()
        hit = _IN_ROUGH[key] = (rough, tt.body_features(body, rough, "any"))
    return hit[1]


def judge_charge(state: GameState, req: Charge) -> Plan:
    u = require_unit_in_play(state, req.unit, "charge", entering=True)
    target = require_unit_in_play(state, req.into, "charge")
    if target.side == u.side:
        raise BadRequest(f"{target.name} is not an enemy of {u.name}")
    if state.play == "stated":
        if not req.distance:
            raise BadRequest("a stated charge needs its distance=[n] (measured on your table)")
        # with what it crossed (Movement Modifiers: a stream's [1], a town's 1/2 rate, and
        # "Cavalry may not move to contact on same turn it moves through a town"), as a move
        stated = Move(
            unit=u.id,
            distance=str(to_n(state, req.distance)),
            contact=(target.id,),
            straight=req.straight,
            **{k: getattr(req, k) for k in CONTACT_TERRAIN},
        )
        judge_move(state, stated)  # the move's own judgement, before anything is written
        return Plan(req, data=stated)
    if req.distance:
        raise RuleViolation(R_PLAY, "a tracked game measures the charge itself: give no distance")
    said = [k for k in CONTACT_TERRAIN if getattr(req, k) is not None]
    if said:
        raise RuleViolation(
            R_PLAY,
            f"a tracked game measures what the charge crosses itself: give no {', '.join(said)}",
        )
    u = _mover(state, req.unit, "charge")
    if target.body is None:
        raise RuleViolation(R_PLAY, f"charge: {target.name} is not on the table")
    assert u.body is not None
    rules = state.rules
    heading = u.body.facing
    d = tt.contact_distance(u.body, heading, target.body)
    bearing = tt.relative_bearing(u.body, target.body.centre)
    if d is None:
        side = "left" if bearing < 0 else "right"
        raise RuleViolation(
            R_CONTACT,
            f"{target.name} is not straight ahead of {u.name} (it lies {abs(bearing):.0f} degrees"
            f" to its {side}): wheel or turn first; the last [{rules.movement.straight_ahead:g}]"
            " of a move to contact must be straight ahead",
        )
    if d <= 1e-6:
        raise RuleViolation(R_CONTACT, f"{u.name} is in contact with {target.name} already")
    way = facts.in_the_way(state, u.body, heading, d, (u.id, target.id))
    if way is not None:
        raise RuleViolation(
            R_CONTACT, f"{way[0].name} stands in the way [{rules.n(way[1]):.2f}] ahead of {u.name}"
        )
    n = rules.n(d)
    tail = rules.movement.straight_ahead
    if u.turned and u.straight_run + n < tail - 1e-6:
        raise RuleViolation(
            R_CONTACT,
            f"the last [{tail:g}] of a move to contact must be straight ahead: {u.name} changed"
            f" facing this phase and would run only [{u.straight_run + n:.2f}] straight",
        )
    end_c = u.body.centre + Vec.heading(heading, d)
    plan = plan_move(
        state, u, Move(unit=u.id, path=((end_c.x, end_c.y),), facing=heading), u.spent, u.road_only
    )
    if plan.problems:
        raise RuleViolation(*plan.problems[0])
    if target.id not in plan.contacts:
        raise RuleViolation(R_CONTACT, f"{u.name} would not end in contact with {target.name}")
    assert plan.end is not None
    step = Step(u, plan, plan.end, plan.cost, False, plan.length, f"charges {target.name}")
    return Plan(req, data=step)


# -- resolving -------------------------------------------------------------------------------
def play_step(judged: Any, state: GameState, req: Any, dice: Any) -> Outcome:
    """``resolve_step(state, Plan(req, data=judged(state, req)), dice)``'s events, for the
    simulator (``Procedure.play``; ``judged``: :func:`advance_step`, :func:`wheel_step` or
    :func:`turn_step`): the same refusals (the same judgement) and the same events; its words
    and details, which no one reads there, are not written (an advance's plan in JSON, its
    description). The state its one event leaves is made with it (:func:`built`)."""
    step = judged(state, req)
    plan = step.plan
    if plan is not None and plan.contacts:  # a move to contact: its melees too (folded)
        return Outcome(tuple(_step_events(state, step)[0]))
    u = step.unit
    spent = u.spent + step.cost
    end = step.end
    x, y, f = round(end.centre.x, 3), round(end.centre.y, 3), round(end.facing, 3)
    # the fields as _step_events sets them, the body as the patch logs it (unit_event)
    changes: dict[str, Any] = {
        "body": {"x": x, "y": y, "facing": f},
        "spent": round(spent, 9),
        "turned": u.turned or step.turned,
        "straight_run": 0.0 if step.turned else round(u.straight_run + step.straight, 9),
    }
    if step.cost > 0:
        changes["moved"] = True
    if plan is not None:
        changes = {"entry": "", **changes}
        changes["road_only"] = u.road_only and plan.road_bonus
        changes["through_town"] = u.through_town or plan.through_town
        if plan.bridge_halved and not u.bridged:
            changes["bridged"] = True
    event = _MOVED(u.id, changes)
    # the unit's values as fold_unit folds them from the patch (its body as read back from its
    # logged form: the same floats)
    values = unit_values(state, changes, Body(Vec(x, y), f, state.rules.footprint))
    events = (event,)
    _BUILT[0] = (state, events, state.with_unit_values(u.id, values))
    return Outcome(events)


_MOVED = UNIT_EVENTS["moved"]

#: the state the simulator's last relative step made with its one event: (the state it was
#: played on, its events, the state they leave); the entry keeps both states alive
_BUILT: list[Any] = [None]


def built(state: GameState, events: Any) -> GameState | None:
    """The state ``events`` leave when folded from ``state``, where :func:`play_step` made it
    with them (these very events, from this very state): the fold is a pure function of the
    state and the events (frozen values), so its state is theirs. None: fold them."""
    hit = _BUILT[0]
    if hit is None or hit[0] is not state or hit[1] is not events:
        return None
    return hit[2]  # type: ignore[no-any-return]


def resolve_step(state: GameState, plan: Plan, dice: Any) -> Outcome:
    data = plan.data
    if isinstance(data, Move):  # a stated charge: the stated move, into contact
        out = move(state, data, dice)
        if not data.contact:
            return out
        u, foe = state.unit(data.unit), state.unit(data.contact[0])
        # said as the charge it is ("charges V:", as a tracked charge says), not "moves"
        said = out.message.replace(f"{u.name} moves ", f"{u.name} charges {foe.name}: ", 1)
        return replace(out, message=said)
    step: Step = data
    u = step.unit
    events, changes, spent = _step_events(state, step)
    details: dict[str, Any] = {}
    if step.plan is not None:
        text = _describe(step.plan, u).replace(" moves ", f" {step.text}: ", 1)
        details["move"] = step.plan.to_json()
    else:
        text = f"{u.name} {step.text}"
        if step.cost > 0:
            text += f" (cost [{step.cost:.2f}])"
        text += f"; now faces {round(step.end.facing) % 360}"
    # the road bonus counts while every step so far ran wholly on a road
    allowance = state.utype(u).move
    if step.plan is not None and changes.get("road_only", u.road_only):
        allowance = max(allowance, step.plan.allowance)
    mv = state.rules.movement
    if changes.get("bridged", u.bridged) and mv.bridge_mode == "whole_move":
        allowance = step.plan.allowance if step.plan is not None else allowance * mv.bridge_rate
    left = max(allowance - spent, 0.0)
    if step.plan is not None and step.plan.contacts:
        text += "; a move to contact ends its move (2 by 2, Moving to contact)"
    else:
        text += f"; [{left:.2f}] of its move left"
    details["spent"] = round(spent, 3)
    return Outcome(tuple(events), (), text, details)


def _step_events(state: GameState, step: Step) -> tuple[list[Any], dict[str, Any], float]:
    """A judged step's events, the unit's fields they set and the [n] spent this phase."""
    u = step.unit
    spent = u.spent + step.cost
    changes: dict[str, Any] = {
        "body": step.end,
        "spent": round(spent, 9),
        "turned": u.turned or step.turned,
        "straight_run": 0.0 if step.turned else round(u.straight_run + step.straight, 9),
    }
    if step.cost > 0:
        changes["moved"] = True
    if step.plan is not None:
        changes["road_only"] = u.road_only and step.plan.road_bonus
        changes["through_town"] = u.through_town or step.plan.through_town
        if step.plan.bridge_halved and not u.bridged:
            changes["bridged"] = True
        events = _move_events(state, u, step.plan, changes={"entry": "", **changes})
    else:
        events = [unit_event("moved", u.id, **changes)]
    return events, changes, spent


__all__ = [
    "Advance",
    "Charge",
    "Retire",
    "Turn",
    "Wheel",
    "judge_advance",
    "judge_charge",
    "judge_turn",
    "judge_wheel",
    "resolve_step",
    "to_n",
]
