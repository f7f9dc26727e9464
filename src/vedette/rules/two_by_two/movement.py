"""Movement (2 by 2, Movement Modifiers; Moving to contact): what a move costs, whether it is
legal, which melees it starts, and who may counter-charge or turn and fire.

A move is given either as a path of centre positions in mm (vedette measures everything) or,
when vedette does not know where the unit stands, as stated facts: ``distance`` [n], ``road``
(the whole move on a road), ``bridge``, ``streams``, ``town`` / ``rough`` ([n] inside),
``contact`` (the enemy unit(s) it moves into contact with).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from vedette.errors import BadRequest, RuleViolation
from vedette.geometry import tabletop as tt
from vedette.geometry.tabletop import Body, Vec
from vedette.rules.base import Outcome
from vedette.rules.protocol import DomainEvent
from vedette.rules.two_by_two import facts
from vedette.rules.two_by_two.common import opt_n, point, to_n
from vedette.rules.two_by_two.events import MeleeCancelled, MeleePending, unit_event
from vedette.rules.two_by_two.model import (
    R_CONTACT,
    R_MELEE,
    R_MOVE,
    R_PLAY,
    R_REINF,
    R_SHOOT,
    R_UNITS,
    GameState,
    ReinforcementPoint,
    Unit,
    require_phase,
    require_unit_in_play,
)
from vedette.rules.two_by_two.requests import Countercharge, Face, Formation, Move, Place


@dataclass(frozen=True)
class MovePlan:
    """A proposed move, measured or stated, with its cost and every rule it would break."""

    unit: str
    end: Body | None
    length: float
    allowance: float
    cost: float
    breakdown: tuple[str, ...]
    problems: tuple[tuple[str, str], ...]
    contacts: tuple[str, ...]
    through_town: bool
    source: str
    crossed: tuple[str, ...] = ()
    countercharge: tuple[tuple[str, float], ...] = ()
    reactions: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    facing_changed: bool = False
    #: the road bonus counted: the whole move on a road, not through a town, every earlier
    #: step of the phase on a road too (the breakdown's "whole move on road")
    road_bonus: bool = False
    #: the allowance halved for crossing a bridge by this move (bridge_mode whole_move: a
    #: later step of the phase is at 1/2 rate too; the breakdown's "crosses a bridge")
    bridge_halved: bool = False
    #: what made the cost or the allowance other than the length and the type's move, in
    #: words (a move's message says them: :func:`_describe`); none without words
    why: tuple[str, ...] = ()

    @property
    def legal(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "legal": self.legal,
            "length": round(self.length, 3),
            "allowance": round(self.allowance, 3),
            "cost": round(self.cost, 3),
            "breakdown": list(self.breakdown),
            "problems": [{"rule": r, "problem": p} for r, p in self.problems],
            "contacts": list(self.contacts),
            "through_town": self.through_town,
            "crossed": list(self.crossed),
            "facts": self.source,
            "countercharge_possible_by": [
                {"unit": u, "distance": round(d, 3)} for u, d in self.countercharge
            ],
            "may_turn_and_fire": list(self.reactions),
            "end": None
            if self.end is None
            else {
                "x": round(self.end.centre.x, 2),
                "y": round(self.end.centre.y, 2),
                "facing": round(self.end.facing, 2),
            },
        }


def plan_move(
    state: GameState,
    u: Unit,
    req: Move,
    spent: float = 0.0,
    road_only: bool = True,
    first: bool = False,
    straight_to: Vec | None = None,
    words: bool = True,
) -> MovePlan:
    """Measure (or take the stated facts of) a move and judge it against every movement rule.

    ``spent`` is the [n] the unit has already spent in this move phase (relative moves are made
    step by step) and ``road_only`` whether every earlier step was wholly on a road. ``first``:
    a caller that refuses a move with its first problem (a relative step) has it raised as
    soon as it is known (a RuleViolation), the rest not measured: an end off the table before
    the path's facts, a problem of the allowance before the counter-charges and reactions.
    ``straight_to``: a relative step's end, straight ahead or back along the unit's facing
    (``req`` is then not read): judged as ``Move(unit, path=(straight_to,), facing=its
    facing)`` is, without making and reading that request (a simulated game judges one at
    most steps). ``words``: False for a caller that reads only the verdict, the end, the
    cost and the flags (the simulator's relative step): no breakdown written (its
    ``road_bonus`` and ``bridge_halved`` set all the same), no counter-charges or reactions
    looked for; the same problems, the same refusal."""
    rules = state.rules
    t = state.utype(u)
    mv = rules.movement
    problems: list[tuple[str, str]] = []
    breakdown: list[str] = []
    if straight_to is not None and u.body is not None and state.play != "stated":
        # path=(straight_to,), the facing kept: what :func:`_front` makes of that request
        measured, start_facing = True, u.body.facing
        far = straight_to.distance(u.body.centre) > 1e-6
        dedup = [u.body.centre, straight_to] if far else [straight_to]
        facing = tt.normalise(start_facing)
    else:
        if straight_to is not None and u.body is not None:  # (the request it stands for)
            req = Move(unit=u.id, path=(straight_to.as_tuple(),), facing=u.body.facing)
        measured, dedup, start_facing, facing = _front(state, u, req, problems)
    end: Body | None = None
    contacts: list[str] = []
    crossed: tuple[str, ...] = ()
    if measured:
        end = Body(dedup[-1], facing, rules.footprint)  # (made once: the same value below)
        # who is near the end, for the snap, an overlap, a contact and a counter-charge: the
        # units scanned once (asked again of a snapped end)
        enemy = state.enemy_of(u.side)
        asks: tuple[tuple[float, str | None], ...] = ((0.0, None), (rules.contact_mm, enemy))
        if words:  # (the counter-charges: looked for only for a reader)
            cc_reach = rules.mm(_fastest_cavalry(rules) * mv.countercharge_fraction) + 1e-6
            asks = (*asks, (cc_reach, enemy))
        by_snap, *near_end = state.near_each(end, ((rules.geometry.snap_mm, enemy), *asks))
        snapped = snap_to_contact(state, u, dedup, facing, end, by_snap)
        if snapped is not None:
            dedup = [*dedup[:-1], snapped[0]]
            if words:
                breakdown.append(f"snapped to base contact with {snapped[1]}")
            end = Body(dedup[-1], facing, rules.footprint)
            near_end = state.near_each(end, asks)
        overlapping, contacting, *near_cc = near_end
        countering = near_cc[0] if words else []
        whole = None
        if first and not problems:  # (the path's facts would say so first: not measured)
            whole = facts.on_table(state, end)
            if not whole:
                raise RuleViolation(R_MOVE, f"{u.name} would end off the table")
        pf = facts.path_facts(state, u, dedup, facing, start_facing, end, whole)
        length, whole_road, bridge = pf.length, pf.whole_on_road, pf.bridge
        streams, town, rough, through_town = pf.streams, pf.town, pf.rough, pf.through_town
        bridge_len = pf.bridge_len
        crossed = pf.crossed
        source = "measured"
        if not pf.on_table:
            problems.append((R_MOVE, f"{u.name} would end off the table"))
        for o in overlapping:  # state.near(end, 0.0)
            if o.id != u.id and o.body is not None and tt.overlaps(end, o.body, 1.0):
                problems.append(
                    (R_MOVE, f"{u.name} would end on top of {o.name} (ASSUMPTION: no overlap)")
                )
        before: set[str] | None = None  # the enemies touching it already, found if needed
        for e in contacting:  # state.near(end, rules.contact_mm, the enemy)
            touching = e.body is not None and tt.in_contact(end, e.body, rules.contact_mm)
            if touching and before is None:
                before = {o.id for o in (facts.enemies_in_contact(state, u) or [])}
            if touching and before is not None and e.id not in before:
                contacts.append(e.id)
        straight = pf.straight_ahead
    else:
        countering = []
        if req.distance is None:
            raise BadRequest("give a path (mm points), 'to', a 'facing', or a stated 'distance'")
        length = to_n(state, req.distance)
        if length < 0:
            raise BadRequest("'distance' must not be negative")
        whole_road = bool(req.road)
        bridge = bool(req.bridge)
        bridge_len = opt_n(state, req.bridge_length, "bridge_length") or 0.0
        streams = req.streams or 0
        if streams < 0:  # (a count: a negative one would buy back [1] a stream)
            raise BadRequest("'streams' must not be negative")
        town = opt_n(state, req.town, "town") or 0.0
        rough = opt_n(state, req.rough, "rough") or 0.0
        through_town = town > 0 if req.through_town is None else req.through_town
        contacts = list(req.contact or ())
        straight = True if req.straight is None else req.straight
        source = "stated"
    # -- allowance (2 by 2, Unit Summary; Movement Modifiers) ------------------------------
    allowance = t.move
    if words:
        breakdown.append(f"move [{t.move:g}] ({t.name})")
    road_col = u.formation == "road_column"
    road_bonus = bridge_halved = False
    # what makes the cost or the allowance other than the path's length and the type's move
    # (:func:`_cost_words`: the breakdown's words, and a refusal's "needs [n]", worded with or
    # without ``words`` so that a refusal reads the same either way; most moves have none)
    road_said = bridge_said = ""
    if whole_road and not through_town and not road_only:
        road_said = "off"
    elif whole_road and not through_town:
        allowance += mv.road_bonus
        road_bonus = True
        road_said = "bonus"
    elif whole_road and through_town:
        road_said = "town"
    mode = mv.bridge_mode
    rate_b = mv.bridge_rate
    cost = length
    bridge_extra = town_extra = rough_extra = 0.0
    if mode == "whole_move" and u.bridged:  # the whole move is at 1/2 rate, step by step too
        allowance *= rate_b
        bridge_said = "earlier"
    elif bridge and not (whole_road and road_col):
        if mode == "whole_move":
            allowance *= rate_b
            bridge_halved = True
            bridge_said = "halved"
        else:
            bridge_extra = bridge_len * (1 / rate_b - 1)
            cost += bridge_extra
            bridge_said = "distance"
    if town > 0:
        town_extra = town * (1 / mv.town_rate - 1)
        cost += town_extra
    if rough > 0:
        if not t.woods_half:
            problems.append((R_MOVE, f"woods/rough are impassable to {t.name}"))
        rough_extra = rough * (1 / mv.rough_rate - 1)
        cost += rough_extra
    if streams:
        cost += mv.stream_cost * streams
    over = spent + cost > allowance + 1e-6
    said = (road_said, bridge_said, bridge_extra, town, town_extra, rough, rough_extra, streams)
    why = _cost_words(mv, *said) if (words or over) and any(said) else []
    if words:
        breakdown.extend(why)
        breakdown.insert(0, f"path [{length:.2f}]")
        if spent > 0:
            breakdown.append(f"[{spent:.2f}] spent earlier this phase")
    if over:
        left = max(allowance - spent, 0.0)
        problems.append(
            (
                R_MOVE,
                f"{u.name} needs [{cost:.2f}] but may move only [{left:.2f}]"
                + (f" ([{allowance:.2f}] less [{spent:.2f}] spent)" if spent > 0 else "")
                + (f": {'; '.join(why)}" if why else ""),
            )
        )
    if u.pinned and length > 1e-6:
        problems.append((R_SHOOT, f"{u.name} is pinned: it may only change facing"))
    if end is not None and u.body is not None and not (first and problems):
        # turned at a corner onto no other base (reading 33), as a turn in place
        onto = facts.turned_onto(state, u, dedup, start_facing)
        if onto is not None:
            problems.append(
                (R_MOVE, f"{u.name} would turn on top of {onto.name} at a corner of its path")
            )
        # not through another base (reading 50; an arrival's path from the edge: not judged)
        way = facts.passed_through(state, u, dedup, start_facing, end)
        if way is not None:
            problems.append(
                (R_MOVE, f"{way.name} stands in the way: {u.name} may not pass through it")
            )
    if first and problems:  # (every later problem comes after these)
        raise RuleViolation(*problems[0])
    # -- moving to contact ------------------------------------------------------------------
    town_this_turn = through_town or u.through_town
    for cid in contacts:
        e = state.unit(cid)
        if e.side == u.side:
            raise BadRequest(f"{e.name} is not an enemy of {u.name}")
        if source == "stated":  # (measured contacts are with bodies on the table)
            require_unit_in_play(state, cid, "move to contact")
        et = state.utype(e)
        if t.is_artillery:
            problems.append((R_MELEE, "artillery cannot initiate melee with an enemy unit"))
        if t.is_infantry and et.is_cavalry:
            problems.append((R_MELEE, "infantry cannot initiate melee with cavalry"))
        if t.is_cavalry and town_this_turn:
            problems.append(
                (R_CONTACT, "cavalry may not move to contact in the turn it moves through a town")
            )
        if not straight:
            last = state.rules.movement.straight_ahead
            problems.append(
                (R_CONTACT, f"the last [{last:g}] of a move to contact must be straight ahead")
            )
    cc: list[tuple[str, float]] = []
    reactions: list[str] = []
    if end is not None:
        ghost: Unit | None = None  # the unit at its end, made for the first cavalry near it
        frac = mv.countercharge_fraction
        in_melee = {x for m in state.melees for x in (m.attacker, m.defender)}
        for e in countering:  # state.near(end, the fastest cavalry's reach, the enemy)
            et = state.utype(e)
            if not et.is_cavalry or e.disrupted or e.pinned or e.body is None:
                continue
            if e.through_town or e.id in in_melee:  # (its counter-charge would be refused)
                continue
            if ghost is None:
                ghost = Unit(u.id, u.side, u.kind, u.name, body=end)
            d = facts.distance_n(state, ghost, e)
            if d is not None and d <= et.move * frac + 1e-9 and e.id not in contacts:
                cc.append((e.id, d))
    for cid in contacts if words else ():
        e = state.unit(cid)
        if not state.utype(e).is_infantry or e.disrupted:
            continue
        # engaged when charged (check_charged): in a pending melee, or in base contact with
        # another enemy
        if any(e.id in (m.attacker, m.defender) for m in state.melees):
            continue
        if any(x.id != u.id for x in facts.enemies_in_contact(state, e) or ()):
            continue
        reactions.append(e.id)
    return MovePlan(
        unit=u.id,
        end=end,
        length=length,
        allowance=allowance,
        cost=cost,
        breakdown=tuple(breakdown),
        problems=tuple(problems),
        contacts=tuple(contacts),
        through_town=through_town,
        source=source,
        crossed=crossed,
        countercharge=tuple(cc),
        reactions=tuple(reactions),
        facing_changed=end is not None
        and u.body is not None
        and abs(((end.facing - u.body.facing + 180) % 360) - 180) > 1e-6,
        road_bonus=road_bonus,
        bridge_halved=bridge_halved,
        why=tuple(why),
    )


#: the fastest cavalry's move by the rules' identity (the entry keeps the rules alive)
_FASTEST: dict[int, tuple[Any, float]] = {}


def _fastest_cavalry(rules: Any) -> float:
    """The longest move of any cavalry type ([n]; 0 without cavalry), once per rules."""
    hit = _FASTEST.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_FASTEST) > 64:
            _FASTEST.clear()
        top = max((x.move for x in rules.unit_types.values() if x.is_cavalry), default=0.0)
        hit = _FASTEST[id(rules)] = (rules, top)
    return hit[1]


STATED_MOVE_FACTS = (
    "road",
    "bridge",
    "streams",
    "town",
    "rough",
    "contact",
    "through_town",
    "bridge_length",
    "straight",
)


#: what a stated move to contact (a charge, a counter-charge) crossed, as a stated move says it
#: (Movement Modifiers): handed on to the move it is judged as, refused in a tracked game
CONTACT_TERRAIN = (
    "road",
    "bridge",
    "streams",
    "town",
    "rough",
    "through_town",
    "bridge_length",
)


def _front(
    state: GameState, u: Unit, req: Move, problems: list[tuple[str, str]]
) -> tuple[bool, list[Vec], float, float]:
    """The front of :func:`plan_move`: whether the move is measured (a path, a ``to``, a
    ``facing``, or a tracked unit's ``distance`` along its facing) or stated, and when
    measured its path's points (each a hair at least from the last) and the facing it starts
    and ends with (an entering unit's problems added to ``problems``)."""
    if state.play == "stated":
        given = [k for k in ("path", "to", "facing") if getattr(req, k) is not None]
        if given:
            raise BadRequest(
                f"{u.name} has no position on the table: a stated game keeps none; state the"
                f" move (distance=..., contact=...), not {', '.join(given)}"
            )
    if req.to is not None and req.path is None:
        req = replace(req, path=(req.to,), to=None)
    if u.body is not None and req.path is None and req.distance is not None:
        req = along_facing(state, u, req)
    if not (
        req.path is not None
        or (req.facing is not None and req.distance is None and u.body is not None)
    ):
        return False, [], 0.0, 0.0
    rules = state.rules
    path = [point(p, "path") for p in req.path or ()]
    if u.body is None:
        if not u.entry:
            raise BadRequest(
                f"{u.name} has no position on the table: place it first, or state the move"
                " (distance=..., contact=...)"
            )
        if not path:
            raise BadRequest(f"{u.name} enters the table: give its path from the edge")
        rp = state.rp(u.entry)
        inward = entry_facing(state, rp)
        start_facing = tt.bearing(path[0], path[1]) if len(path) > 1 else inward
        start = Body(path[0], start_facing, rules.footprint)
        problems.extend(entry_problems(state, u, rp, start))
    else:
        start = u.body
        start_facing = u.body.facing
        if not path or path[0].distance(start.centre) > 1e-6:
            path = [start.centre, *path]
    dedup = [path[0]]
    for p in path[1:]:
        if p.distance(dedup[-1]) > 1e-9:
            dedup.append(p)
    if req.facing is not None:
        facing = tt.normalise(req.facing)
    elif len(dedup) > 1:
        facing = tt.bearing(dedup[-2], dedup[-1])
    else:
        facing = start_facing
    return True, dedup, start_facing, facing


def along_facing(state: GameState, u: Unit, req: Move) -> Move:
    """A move stated as a ``distance`` for a unit whose position vedette tracks: straight
    ahead along its facing (a tracked unit's facts are measured, never stated, so its
    recorded position cannot go stale)."""
    assert u.body is not None
    stated = [k for k in STATED_MOVE_FACTS if getattr(req, k) is not None]
    if stated:
        raise RuleViolation(
            R_PLAY,
            f"{u.name}'s position is tracked: vedette measures {', '.join(stated)} itself; give"
            " only the distance (straight ahead along its facing), or use advance / wheel /"
            " charge",
        )
    n = to_n(state, req.distance or 0)
    if n < 0:
        raise BadRequest("'distance' must not be negative")
    end = u.body.centre + u.body.forward().scale(state.rules.mm(n))
    return replace(req, path=((end.x, end.y),), distance=None)


def snap_to_contact(
    state: GameState,
    u: Unit,
    path: list[Vec],
    facing: float,
    end: Body | None = None,
    near_end: list[Unit] | None = None,
) -> tuple[Vec, str] | None:
    """Base contact without sub-millimetre accuracy: a move whose end falls within
    ``[geometry] snap_mm`` of an enemy base (short of it, or into it) ends exactly touching
    it, along its last leg. ``None`` when no enemy is that close. ``end``: the body at the
    path's end facing ``facing``, when the caller has made it, and ``near_end`` the enemies
    ``state.near`` finds within ``snap_mm`` of it, when the caller has them."""
    if len(path) < 2:
        return None
    rules = state.rules
    snap = rules.geometry.snap_mm
    a, b = path[-2], path[-1]
    leg = a.distance(b)
    if leg < 1e-9:
        return None
    if end is None:
        end = Body(b, facing, rules.footprint)
    near = state.near(end, snap, state.enemy_of(u.side)) if near_end is None else near_end
    if not near:  # (most moves end far from every enemy)
        return None
    heading = tt.bearing(a, b)
    start = Body(a, facing, rules.footprint)
    reach = leg + snap + rules.footprint.width + rules.footprint.depth
    best: tuple[float, str] | None = None
    for e in near:
        if e.body is None or e.body.centre.distance(b) > snap + 2 * reach:
            continue
        if tt.distance(end, e.body) > snap:
            continue
        d = tt.contact_distance(start, heading, e.body)
        if d is None or abs(d - leg) > snap + 1e-9:
            continue
        if best is None or d < best[0]:
            best = (d, e.id)
    if best is None or abs(best[0] - leg) < 1e-9:
        return None
    return a + Vec.heading(heading, best[0]), best[1]


def entry_facing(state: GameState, rp: ReinforcementPoint) -> float:
    """Facing straight onto the table from the RP's edge."""
    edge, _ = facts.nearest_edge(state, rp.point)
    return {"south": 0.0, "north": 180.0, "west": 90.0, "east": 270.0}[edge]


def entry_problems(
    state: GameState, u: Unit, rp: ReinforcementPoint, start: Body
) -> list[tuple[str, str]]:
    """An arriving unit "may enter edge within [4] of RP" (2 by 2, Reinforcements): its first
    position touches the RP's table edge, no part of its base beyond [4] of the RP."""
    rules = state.rules
    n = rules.reinforcements.entry_radius
    radius = rules.mm(n)
    edge, _ = facts.nearest_edge(state, rp.point)
    out: list[tuple[str, str]] = []
    gap = facts.edge_distance(state, start, edge)
    if gap > rules.contact_mm + 1e-6:
        out.append(
            (
                R_REINF,
                f"{u.name} must enter from the {edge} table edge (it would start"
                f" [{rules.n(gap):.2f}] inside the table)",
            )
        )
    if start.centre.distance(rp.point) > radius + rules.footprint.depth:
        out.append(
            (
                R_REINF,
                f"{u.name} must enter the table within [{n:g}] of reinforcement point {rp.id}",
            )
        )
    return out


def _cost_words(
    mv: Any,
    road: str,
    bridge: str,
    bridge_extra: float,
    town: float,
    town_extra: float,
    rough: float,
    rough_extra: float,
    streams: int,
) -> list[str]:
    """What made a move's cost or allowance other than its length and the type's move, in
    words (Movement Modifiers: road, bridge, town, woods/rough, stream), as
    :func:`plan_move` found it."""
    out = []
    if road == "off":
        out.append("no road bonus: an earlier part of the move was off the road")
    elif road == "bonus":
        out.append(f"+[{mv.road_bonus:g}] whole move on road")
    elif road == "town":
        out.append("no road bonus: moves through a town")
    rate_b = mv.bridge_rate
    if bridge == "earlier":
        out.append(f"x{rate_b:g}: an earlier part of the move crossed a bridge")
    elif bridge == "halved":
        out.append(f"x{rate_b:g}: crosses a bridge, not wholly on road in road column")
    elif bridge == "distance":
        out.append(f"+[{bridge_extra:.2f}] bridge at 1/2 rate")
    if town > 0:
        out.append(f"+[{town_extra:.2f}] [{town:.2f}] in town at 1/2 rate")
    if rough > 0:
        out.append(f"+[{rough_extra:.2f}] [{rough:.2f}] in woods/rough at 1/2 rate")
    if streams:
        sc = mv.stream_cost * streams
        out.append(f"+[{sc:g}] crossing {streams} stream" + ("s" if streams > 1 else ""))
    return out


def _describe(plan: MovePlan, u: Unit, counter: bool = False) -> str:
    # what made the cost or the allowance what it is (Movement Modifiers: road, bridge,
    # stream, town, woods/rough): "cost [2.00] of [2.00]" alone hid a bridge's 1/2 rate
    why = "".join(f"; {b}" for b in plan.why) if plan.why else ""
    verb = "counter-charges" if counter else "moves"
    bits = [
        f"{u.name} {verb} [{plan.length:.2f}] (cost [{plan.cost:.2f}] of [{plan.allowance:.2f}]"
        f"{why})"
    ]
    if plan.contacts and counter:
        bits.append(
            "into contact with "
            + ", ".join(plan.contacts)
            + ": melee pending, resolved in the coming melee phase (no turn to face or fire:"
            " that is open only when charged in the enemy's move phase)"
        )
    elif plan.contacts:
        bits.append("into contact with " + ", ".join(plan.contacts) + ": melee pending")
    if plan.countercharge:
        bits.append(
            "may be counter-charged by "
            + ", ".join(f"{c} [{d:.2f}]" for c, d in plan.countercharge)
        )
    if plan.reactions and not counter:
        bits.append("may turn to face and fire: " + ", ".join(plan.reactions))
    if plan.end is not None and plan.facing_changed:
        bits.append(f"now faces {round(plan.end.facing) % 360}")
    return "; ".join(bits)


def contact_ends_move(state: GameState, u: Unit, what: str) -> None:
    """A move to contact ends the unit's move (2 by 2, Moving to contact: the last [2] of a
    move *to contact*; the melee is then resolved between units in contact): a unit that has
    charged this phase moves no further."""
    m = next((m for m in state.melees if m.attacker == u.id and not m.counter_charge), None)
    if m is not None and state.stage == "battle" and state.phase == "move":
        raise RuleViolation(
            R_CONTACT,
            f"{what}: {u.name} moved into contact with {state.unit(m.defender).name} this phase"
            " (melee pending): a move to contact ends the unit's move",
        )
    if u.id in state.charged:  # (its melee gone: the enemy routed away, or was destroyed)
        raise RuleViolation(
            R_CONTACT,
            f"{what}: {u.name} moved into contact this phase, though no melee stands now: a"
            " move to contact ends the unit's move (reading 37)",
        )


def judge_move(state: GameState, req: Move) -> tuple[Unit, MovePlan]:
    """Every check of a ``move`` (the one judgement ``move`` and ``check_move`` share): the
    unit may move now, once, by one path, at the cost its allowance allows."""
    u = require_unit_in_play(state, req.unit, "move", entering=True)
    require_phase(state, "move", u.side, "move")
    if u.disrupted:
        raise RuleViolation(R_SHOOT, f"{u.name} is disrupted: it may not move or fire")
    contact_ends_move(state, u, "move")
    if u.moved:
        raise RuleViolation(
            R_MOVE,
            f"{u.name} has already moved this phase: a move is one path (ASSUMPTION; advance,"
            " wheel and retire make it step by step)",
        )
    plan = plan_move(state, u, req)
    if plan.problems:
        rule, problem = plan.problems[0]
        raise RuleViolation(rule, problem)
    return u, plan


def move(state: GameState, req: Move, dice: Any = None) -> Outcome:
    """Move a unit in its side's move phase (2 by 2, Movement Modifiers; Moving to contact)."""
    u, plan = judge_move(state, req)
    events = _move_events(state, u, plan)
    return Outcome(tuple(events), (), _describe(plan, u), {"move": plan.to_json()})


def _move_events(
    state: GameState,
    u: Unit,
    plan: MovePlan,
    counter: bool = False,
    changes: dict[str, Any] | None = None,
) -> list[DomainEvent]:
    """The unit moved (``changes``: the fields set, when the caller has worked them out, as
    a relative step does) and the melees its contacts begin."""
    if changes is not None:
        return [
            unit_event("moved", u.id, **changes),
            *(MeleePending(u.id, c, counter) for c in plan.contacts),
        ]
    changes = {
        "moved": True,
        "through_town": u.through_town or plan.through_town,
        "entry": "",
    }
    if plan.bridge_halved and not u.bridged:
        changes["bridged"] = True
    if plan.end is not None:
        changes["body"] = plan.end
        # the move is a step of the phase: what it spent, and whether it kept straight
        # (for a later charge's "last [2] straight ahead")
        changes["spent"] = round(u.spent + plan.cost, 9)
        if plan.facing_changed:
            changes.update(turned=True, straight_run=0.0)
        else:
            changes["straight_run"] = round(u.straight_run + plan.length, 9)
    events: list[DomainEvent] = [unit_event("moved", u.id, **changes)]
    for c in plan.contacts:
        events.append(MeleePending(u.id, c, counter))
    return events


def check_move(state: GameState, req: Move, verdict: str) -> Outcome:
    """Query: what the move costs and whether the referee accepts it (``verdict``: the
    judgement ``move`` itself gets, '' when accepted): never changes the game."""
    u = state.unit(req.unit)
    spent = u.spent if u.moved else 0.0
    plan = plan_move(state, u, req, spent, u.road_only)
    word = "legal" if not verdict else "NOT legal: " + verdict
    out = plan.to_json()
    out["legal"] = not verdict
    out["verdict"] = verdict or "legal"
    return Outcome((), (), f"{_describe(plan, u)} — {word}", {"move": out})


def countercharge(state: GameState, req: Countercharge, dice: Any = None) -> Outcome:
    """A cavalry counter-charge in the shooting phase against an enemy that moved within half
    its move (2 by 2, Sequence of play; Moving to contact)."""
    u = require_unit_in_play(state, req.unit, "counter-charge")
    target = require_unit_in_play(state, req.target, "counter-charge")
    require_phase(state, "shoot", u.side, "counter-charge")
    t = state.utype(u)
    if not t.is_cavalry:
        raise RuleViolation(R_CONTACT, f"only cavalry may counter-charge, not {t.name}")
    if u.disrupted or u.pinned:
        raise RuleViolation(R_SHOOT, f"{u.name} is {'disrupted' if u.disrupted else 'pinned'}")
    if u.countercharged:
        raise RuleViolation(R_CONTACT, f"{u.name} has already counter-charged this turn")
    held = next((m for m in state.melees if u.id in (m.attacker, m.defender)), None)
    if held is not None:  # it would leave that melee (only a rout or a correction parts them)
        other = state.unit(held.defender if held.attacker == u.id else held.attacker)
        raise RuleViolation(
            R_CONTACT, f"{u.name} is engaged with {other.name} (melee pending): no counter-charge"
        )
    if target.side == u.side or not target.moved:
        raise RuleViolation(R_CONTACT, f"{target.name} did not move this turn: no counter-charge")
    frac = state.rules.movement.countercharge_fraction
    d = facts.distance_n(state, u, target)
    if d is None and req.within is None:  # (stated: no positions to measure it from)
        raise BadRequest(
            f"state whether {target.name} came within [{t.move * frac:g}]"
            f" ({state.rules.movement.countercharge_part} move) of"
            f" {u.name}: within=true or within=false (vedette keeps no positions in this game)"
        )
    within = (d is not None and d <= t.move * frac + 1e-9) if req.within is None else req.within
    if not within:
        raise RuleViolation(
            R_CONTACT,
            f"{target.name} is not within [{t.move * frac:g}]"
            f" ({state.rules.movement.countercharge_part} move) of {u.name}"
            + (f": it is [{d:.2f}] away" if d is not None else ""),
        )
    said = [k for k in CONTACT_TERRAIN if getattr(req, k) is not None]
    if said and u.body is not None:  # (as a charge: measured, what it crossed is never stated)
        raise RuleViolation(
            R_PLAY,
            "a tracked game measures what the counter-charge crosses itself: give no"
            f" {', '.join(said)}",
        )
    path, facing = req.path, req.facing
    if path is None and req.to is None and req.distance is None:
        if u.body is None or target.body is None:
            raise BadRequest("give the counter-charge path (or a stated distance)")
        # in the player's language: straight ahead into base contact, as a charge; an enemy
        # not straight ahead is faced first (turning is free: reading 33), then charged
        body = u.body
        ahead = tt.contact_distance(body, body.facing, target.body)
        if ahead is None:
            body = u.body.facing_toward(target.body.centre)
            ahead = tt.contact_distance(body, body.facing, target.body)
        if ahead is None:
            bearing = tt.relative_bearing(u.body, target.body.centre)
            raise RuleViolation(
                R_CONTACT,
                f"{target.name} is not straight ahead of {u.name} (it lies {abs(bearing):.0f}"
                f" degrees to its {'left' if bearing < 0 else 'right'}): give the path",
            )
        way = facts.in_the_way(state, body, body.facing, ahead, (u.id, target.id))
        if way is not None:  # as a charge (Moving to contact): not through a unit
            raise RuleViolation(
                R_CONTACT,
                f"{way[0].name} stands in the way [{state.rules.n(way[1]):.2f}] ahead of"
                f" {u.name}: give the path around it",
            )
        end = body.centre + Vec.heading(body.facing, ahead)
        path, facing = ((end.x, end.y),), body.facing
    mv = Move(
        unit=req.unit,
        path=path,
        to=req.to,
        facing=facing,
        distance=req.distance,
        contact=(target.id,) if req.distance is not None and u.body is None else None,
        **{k: getattr(req, k) for k in CONTACT_TERRAIN},
    )
    plan = plan_move(state, u, mv)
    plan = replace(plan, reactions=())  # no turn to face or fire against a counter-charge
    if target.id not in plan.contacts:
        raise RuleViolation(R_CONTACT, f"the counter-charge must end in contact with {target.name}")
    if plan.problems:
        rule, problem = plan.problems[0]
        raise RuleViolation(rule, problem)
    events = _move_events(state, u, plan, counter=True)
    events.append(unit_event("moved", u.id, countercharged=True))
    return Outcome(
        tuple(events),
        (),
        _describe(plan, u, counter=True),
        {"move": plan.to_json()},
    )


def face(state: GameState, req: Face, dice: Any = None) -> Outcome:
    """Infantry charged this phase, and not engaged otherwise, turns to face its charger
    (2 by 2, Moving to contact). The charger is set front to front with it; where that
    would put either base on another (or off the table) the turn is refused (reading 52)."""
    u = require_unit_in_play(state, req.unit, "turn to face")
    charger = require_unit_in_play(state, req.toward, "turn to face")
    require_reaction(state, u.side, "turn to face")
    check_charged(state, u, charger)
    if u.disrupted:  # "Disrupted: may not move or fire" (as in its own move phase: reading 28)
        raise RuleViolation(R_SHOOT, f"{u.name} is disrupted: it may not turn to face or fire")
    events: list[DomainEvent] = []
    if u.body is not None and charger.body is not None:
        turned, moved, blocked = facts.faced(state, u, charger)
        if blocked:  # (no room to stand front to front: reading 52)
            raise RuleViolation(
                R_CONTACT,
                f"{u.name} may not turn to face {charger.name}: {blocked}"
                " (ASSUMPTION: no base ends on another)",
            )
        events.append(unit_event("faced", u.id, body=turned))
        events.append(unit_event("faced", charger.id, body=moved))
    else:  # (stated: no facing kept; its change of facing this phase is, so it is done once)
        events.append(unit_event("faced", u.id, turned=True))
    return Outcome(tuple(events), (), f"{u.name} turns to face {charger.name}")


def require_reaction(state: GameState, side: str, what: str) -> None:
    """Reactions to a charge happen in the enemy's move phase (2 by 2, Moving to contact)."""
    if state.stage != "battle" or state.phase != "move" or state.phasing == side:
        raise RuleViolation(
            R_CONTACT,
            f"{what}: only in the enemy's move phase, when charged ({state.phase_name()})",
        )


def check_charged(state: GameState, u: Unit, charger: Unit) -> None:
    if not state.utype(u).is_infantry:
        raise RuleViolation(R_CONTACT, "only infantry may turn to face a charge")
    at = next(
        (i for i, m in enumerate(state.melees) if (m.attacker, m.defender) == (charger.id, u.id)),
        None,
    )
    if at is None or not charger.moved:
        raise RuleViolation(R_CONTACT, f"{charger.name} has not charged {u.name} this phase")
    # engaged *when charged*: a melee begun before this charge, or another enemy in contact
    # that did not charge it later (a second charge does not take back the first's reaction)
    later = {m.attacker for m in state.melees[at + 1 :] if m.defender == u.id}
    others: list[object] = [
        m
        for m in state.melees[:at]
        if u.id in (m.attacker, m.defender) and charger.id not in (m.attacker, m.defender)
    ]
    # engaged: also in base contact with another enemy (e.g. a melee held in a town)
    others += [
        e
        for e in facts.enemies_in_contact(state, u) or []
        if e.id != charger.id and e.id not in later
    ]
    if others:
        raise RuleViolation(R_CONTACT, f"{u.name} is engaged already: it may not turn or fire")


def formation(state: GameState, req: Formation, dice: Any = None) -> Outcome:
    """Change formation (line, column of attack, road column) or skirmisher screen in the
    unit's move phase, before it moves (ASSUMPTION, reading 25: free, part of its move; the
    text gives no cost; a unit that moved or charged keeps the formation it moved in: "spends
    entire move on a road (in Road Column)", and a move to contact ends its move)."""
    u = require_unit_in_play(state, req.unit, "formation", entering=True)
    require_phase(state, "move", u.side, "change formation")
    if u.disrupted:
        raise RuleViolation(R_SHOOT, f"{u.name} is disrupted: it may not move")
    if u.pinned:
        raise RuleViolation(R_SHOOT, f"{u.name} is pinned: it may only change facing")
    if u.moved:
        raise RuleViolation(
            R_MOVE, f"{u.name} has moved this phase: it changes formation before it moves"
        )
    events: list[DomainEvent] = []
    if req.formation is not None:
        f = req.formation
        if f == "attack_column" and not state.utype(u).is_infantry:
            raise RuleViolation(R_MELEE, "column of attack is for infantry only")
        events.append(unit_event("formation", u.id, formation=f))
    if req.screen is not None:
        on = req.screen
        if on and not state.utype(u).star_range:  # (Unit Summary "*": reading 55)
            raise RuleViolation(
                R_UNITS,
                f"{u.name} has no skirmisher screen: only units whose range shows [2*]"
                " (Infantry, Guard, Light) put one out",
            )
        events.append(unit_event("screen", u.id, screened=on))
    if not events:
        raise BadRequest("give formation=line|attack_column|road_column and/or screen=true|false")
    return Outcome(
        tuple(events),
        (),
        f"{u.name}: "
        + ", ".join(
            f"{k}={v}"
            for k, v in (("formation", req.formation), ("screen", req.screen))
            if v is not None
        ),
    )


def place(state: GameState, req: Place, dice: Any = None) -> Outcome:
    """Put a unit where it stands on the table (x, y mm, facing degrees), or clear its position
    (``clear=true``). A record-keeping correction, not a move (no allowance is spent), but it
    checks what the rules say of where a unit may stand: on the table, not on another unit,
    and an arriving reinforcement on its RP's edge within [4] of the RP (2 by 2,
    Reinforcements). A stated game keeps no positions: nothing to place."""
    u = state.unit(req.unit)
    if u.status != "table":
        raise RuleViolation(R_REINF, f"{u.name} is not on the table ({u.status})")
    if state.play == "stated":
        raise RuleViolation(
            R_PLAY, "a stated game keeps no positions: the player's table is the record"
        )
    if req.clear:
        raise RuleViolation(
            R_PLAY,
            f"a tracked game keeps every position: {u.name}'s may be corrected, not dropped"
            " (start a stated game to state facts instead)",
        )
    if req.x is None or req.y is None:
        raise BadRequest("give x and y (mm)")
    at = Vec(req.x, req.y)
    default = entry_facing(state, state.rp(u.entry)) if u.entry and u.body is None else 0.0
    keep = u.body.facing if u.body is not None else default
    facing = keep if req.facing is None else req.facing
    body = Body(at, tt.normalise(facing), state.rules.footprint)
    if not facts.on_table(state, body):
        raise RuleViolation(R_MOVE, f"{u.name} would be off the table")
    for o in state.live():
        if o.id != u.id and o.body is not None and tt.overlaps(body, o.body, 1.0):
            raise RuleViolation(
                R_MOVE, f"{u.name} would stand on {o.name} (ASSUMPTION: no overlap)"
            )
    changes: dict[str, Any] = {"body": body}
    if u.entry and u.body is None:
        problems = entry_problems(state, u, state.rp(u.entry), body)
        if problems:
            raise RuleViolation(*problems[0])
        changes["entry"] = ""
        return Outcome(
            (unit_event("placed", u.id, **changes),),
            (),
            f"{u.name} enters from RP {u.entry} at ({at.x:.1f}, {at.y:.1f}) facing"
            f" {body.facing:.0f}",
        )
    # a correction of the record (routs that ignore terrain need it): logged as one, and a
    # pending melee whose two units it parts lapses (a melee is fought in contact)
    events: list[DomainEvent] = [unit_event("corrected", u.id, **changes)]
    lapsed = []
    for m in state.melees:
        if u.id not in (m.attacker, m.defender):
            continue
        other = state.unit(m.defender if m.attacker == u.id else m.attacker)
        if other.body is not None and not tt.in_contact(body, other.body, state.rules.contact_mm):
            why = f"{u.name} was placed out of contact with {other.name}"
            events.append(MeleeCancelled(m.attacker, m.defender, why))
            lapsed.append(f"the melee {m.attacker} vs {m.defender} lapses ({why})")
    text = (
        f"CORRECTION (not a move of the rules): {u.name} placed at ({at.x:.1f}, {at.y:.1f})"
        f" facing {body.facing:.0f}"
    )
    return Outcome(tuple(events), (), "; ".join([text, *lapsed]))


__all__ = [
    "MovePlan",
    "Vec",
    "check_move",
    "countercharge",
    "face",
    "formation",
    "move",
    "place",
    "plan_move",
]
