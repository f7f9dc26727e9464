"""Game set-up (2 by 2, Game Setup) and the turn sequence (2 by 2, Sequence of play).

Set-up steps: ``roll`` (each side 1d6, high attacks; each tie lets each side place an extra
12 AP, then reroll), ``deploy_def`` then ``deploy_att`` (12 AP each, plus extras, within [8]
of the own base edge and not within [4] of a side edge), then the reinforcement points in the
order Def, Att, Def, Att (the Attacker's on his own edge or either flank, not within [8] of a
defending unit or RP). The Defender then moves first: he is Player 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from vedette.dice import Check, DiceSource, OpposedRoll
from vedette.errors import BadRequest, RuleViolation
from vedette.geometry import tabletop as tt
from vedette.geometry.tabletop import Body, Vec
from vedette.rules.base import Outcome
from vedette.rules.protocol import DomainEvent, Plan, Todo
from vedette.rules.two_by_two import facts
from vedette.rules.two_by_two.events import (
    GameOver,
    PhaseBegan,
    Roles,
    RpChosen,
    SetupStep,
    unit_event,
)
from vedette.rules.two_by_two.model import (
    EDGES,
    OPPOSITE,
    PHASES,
    R_MELEE,
    R_SEQ,
    R_SETUP,
    GameState,
)
from vedette.rules.two_by_two.requests import ChooseRP, Deploy, Next, SetupRoll

RP_STEPS = ("rp_def", "rp_att", "rp_def2", "rp_att2")


def _setup_check(state: GameState) -> Check:
    a, b = state.sides
    table = state.rules.tables["setup"]
    return Check(
        table.dice,
        (),
        table,
        "set-up roll: high score is the Attacker",
        R_SETUP,
        reroll_draws=True,
        a_label=a.name,
        b_label=b.name,
    )


def _need_step(state: GameState, *steps: str) -> None:
    if state.stage != "setup" or state.setup_step not in steps:
        raise RuleViolation(R_SETUP, f"not now: the game is at {state.phase_name()}")


def plan_setup_roll(state: GameState, req: SetupRoll) -> Plan:
    _need_step(state, "roll")
    return Plan(req, steps=(_setup_check(state),))


def setup_roll(state: GameState, plan: Plan, dice: DiceSource) -> Outcome:
    r = plan.steps[0].resolve(dice)
    assert isinstance(r, OpposedRoll)
    a, b = state.sides
    att, dfn = (a, b) if r.difference > 0 else (b, a)
    extra = state.rules.setup.extra_ap_per_tie * len(r.draws)
    ev = Roles(att.id, dfn.id, extra, "deploy_def")
    msg = f"Attacker: {att.name}; Defender: {dfn.name} (the Defender deploys first)"
    if len(state.table.features) < 4:
        msg += (
            f" (note: the table has {len(state.table.features)} terrain features;"
            " the set-up asks for 4 or more)"
        )
    if extra:
        ties = "1 tie" if len(r.draws) == 1 else f"{len(r.draws)} ties"
        msg += f"; {ties}: each side deploys {state.rules.setup.ap_each + extra} AP"
        msg += f" (an extra {extra} AP each)"
    return Outcome((ev,), (r,), msg)


def _edge_gap(state: GameState, body: Body, edge: str) -> float:
    """Distance (mm) from ``edge`` to the farthest corner of ``body``."""
    w, d = state.table.width, state.table.depth
    far = 0.0
    for c in body.corners():
        gap = {"south": c.y, "north": d - c.y, "west": c.x, "east": w - c.x}[edge]
        far = max(far, gap)
    return far


def _flanks(edge: str) -> tuple[str, str]:
    return ("west", "east") if edge in ("south", "north") else ("south", "north")


def deploy(state: GameState, req: Deploy, dice: Any = None) -> Outcome:
    """Place one of the side's units at set-up (within [8] of its base edge, not within [4]
    of a side edge, within its AP)."""
    u = state.unit(req.unit)
    _need_step(state, "deploy_def", "deploy_att")
    who = state.defender if state.setup_step == "deploy_def" else state.attacker
    if u.side != who:
        raise RuleViolation(
            R_SETUP,
            f"the {'Defender' if who == state.defender else 'Attacker'}"
            f" ({state.side(str(who)).name}) deploys now, not {u.name}'s side",
        )
    rules = state.rules
    edge = state.side(u.side).edge
    facing_default = {"south": 0.0, "north": 180.0, "west": 90.0, "east": 270.0}[edge]
    body = Body(
        Vec(req.x, req.y),
        tt.normalise(facing_default if req.facing is None else req.facing),
        rules.footprint,
    )
    if not facts.on_table(state, body):
        raise RuleViolation(R_SETUP, f"{u.name} would be off the table")
    depth = rules.mm(rules.setup.deploy_depth)
    if _edge_gap(state, body, edge) > depth + 1e-6:
        raise RuleViolation(
            R_SETUP,
            f"{u.name} must be within [{rules.setup.deploy_depth:g}] of the {edge} edge",
        )
    margin = rules.mm(rules.setup.side_margin)
    for fl in _flanks(edge):
        if facts.edge_distance(state, body, fl) < margin - 1e-6:
            raise RuleViolation(
                R_SETUP,
                f"{u.name} is closer than [{rules.setup.side_margin:g}] to the {fl} edge",
            )
    for o in state.live():
        if o.id != u.id and o.body is not None and tt.overlaps(body, o.body, 1.0):
            raise RuleViolation(R_SETUP, f"{u.name} would stand on {o.name}")
    budget = rules.setup.ap_each + state.extra_ap
    used = sum(state.utype(o).ap for o in state.live(u.side) if o.id != u.id)
    ap = state.utype(u).ap
    if used + ap > budget:
        raise RuleViolation(R_SETUP, f"{u.name} ({ap} AP) would exceed {budget} AP ({used} placed)")
    ev = unit_event("deployed", u.id, status="table", body=body)
    return Outcome((ev,), (), f"{u.name} deployed ({used + ap}/{budget} AP)")


def choose_rp(state: GameState, req: ChooseRP, dice: Any = None) -> Outcome:
    """Pick a reinforcement point and the units that will arrive there, in order."""
    _need_step(state, *RP_STEPS)
    step = state.setup_step
    side = state.defender if step in ("rp_def", "rp_def2") else state.attacker
    assert side is not None
    rules = state.rules
    at = Vec(req.x, req.y)
    own = state.side(side).edge
    edge, gap = facts.nearest_edge(state, at)
    if gap > 1.0:
        raise RuleViolation(R_SETUP, "a reinforcement point must be on a table edge")
    if edge == own:
        kind = "rear"
    elif edge in _flanks(own) and side == state.attacker:
        kind = "flank"
    else:
        raise RuleViolation(
            R_SETUP,
            f"{state.side(side).name} must pick its RP on its own ({own}) edge"
            + (" or a flank" if side == state.attacker else ""),
        )
    # the [8] binds the Attacker's flank RP ("OR anywhere on either flank that is not within
    # [8] ..."), his own edge's only under [setup] rp_clearance_on = "both" (reading 58)
    if side == state.attacker and (kind == "flank" or rules.setup.rp_clearance_on == "both"):
        clear = rules.mm(rules.setup.rp_clearance)
        near = f"[{rules.setup.rp_clearance:g}]"
        for o in state.live(str(state.defender)):
            if o.body is not None and tt.distance(o.body, at) < clear - 1e-6:
                raise RuleViolation(R_SETUP, f"RP within {near} of defending {o.name}")
        for r in state.rps:
            if r.side == state.defender and r.point.distance(at) < clear - 1e-6:
                raise RuleViolation(R_SETUP, f"RP within {near} of defending RP {r.id}")
    queue = list(req.units)
    queued = {q for r in state.rps for q in r.queue}
    for q in queue:
        u = state.unit(q)
        if u.side != side or u.status != "reserve" or q in queued:
            raise BadRequest(f"{u.name} is not a waiting reinforcement of {state.side(side).name}")
    nxt = RP_STEPS.index(step) + 1
    rid = req.id or f"{side}-{len([r for r in state.rps if r.side == side]) + 1}"
    events: list[DomainEvent] = [
        RpChosen(
            rid,
            side,
            kind,
            at.x,
            at.y,
            tuple(queue),
            RP_STEPS[nxt] if nxt < len(RP_STEPS) else "done",
        )
    ]
    if nxt >= len(RP_STEPS):
        events.append(PhaseBegan("battle", 1, 0))
    return Outcome(
        tuple(events),
        (),
        # (past tense: right for a plural name, "Austrians", and a singular one)
        f"{state.side(side).name} picked {kind} RP {rid} ({', '.join(queue) or 'no units'})",
    )


def next_phase(state: GameState, req: Next, dice: Any = None) -> Outcome:
    """End the current phase (2 by 2, Sequence of play). Refused while melees wait to be
    resolved in the melee phase or a mandatory follow-up is owed."""
    if state.stage == "over":
        raise RuleViolation(R_SEQ, "the game is over")
    if state.stage == "setup":
        if state.setup_step == "roll":
            raise RuleViolation(R_SETUP, "roll for the attacker first (setup_roll)")
        if state.setup_step == "deploy_def":
            return Outcome(
                (SetupStep("deploy_att"),), (), "the Attacker deploys" + _short_of_ap(state)
            )
        if state.setup_step == "deploy_att":
            return Outcome(
                (SetupStep("rp_def"),),
                (),
                "reinforcement points: the Defender picks first" + _short_of_ap(state),
            )
        raise RuleViolation(R_SETUP, "pick the reinforcement points (rp) to finish the set-up")
    if state.phase == "melee":
        if state.melees:
            m = state.melees[0]
            raise RuleViolation(
                R_SEQ, f"resolve every melee first ({m.attacker} vs {m.defender} is waiting)"
            )
        owed = [f.unit for f in state.follow_ups if f.mandatory]
        if owed:
            raise RuleViolation(R_MELEE, f"mandatory follow-up owed by {', '.join(owed)}")
    idx = state.phase_index + 1
    turn = state.turn
    events: list[DomainEvent] = []
    if idx >= len(PHASES):
        idx, turn = 0, turn + 1
        over = _victory(state, turn)
        if over is not None:
            return Outcome((GameOver(over[0]),), (), over[1])
    events.append(PhaseBegan("battle", turn, idx))
    kind, who, _ = PHASES[idx]
    # what was left undone is added by the ruleset's judgement (TwoByTwo._left_undone)
    return Outcome(tuple(events), (), f"turn {turn}, phase {idx + 1}: player {who + 1} {kind}")


def _short_of_ap(state: GameState) -> str:
    """A note when the side ending its deployment placed less than its AP (2 by 2, Game Setup:
    "The Def places 12AP of units ... Att places 12AP likewise") while a waiting unit would still
    fit: the rest are its reinforcements (not enforced: like the 4+ terrain, noted)."""
    side = state.defender if state.setup_step == "deploy_def" else state.attacker
    budget = state.rules.setup.ap_each + state.extra_ap
    used = sum(state.utype(u).ap for u in state.live(side))
    fits = any(
        u.side == side and u.status == "reserve" and used + state.utype(u).ap <= budget
        for u in state.units
    )
    if not fits:
        return ""
    name = state.side(str(side)).name
    return f" (note: {name} placed {used} of the {budget} AP the set-up has each side place)"


_WHO = frozenset(("unit", "firer", "rp"))


def line_who(t: Todo) -> str:
    """The first of a line's unit, firer or RP, in its request's order ('' for none)."""
    for k, v in t.request.items():
        if k in _WHO:
            return str(v)
    return ""


#: the steps of a unit's move, named together in what was left undone ("move A2, A3")
MOVE_STEPS = {p: "move" for p in ("advance", "retire", "wheel", "charge", "move", "place")}


def undone(state: GameState, offered: Iterable[Todo]) -> Iterator[Todo]:
    """Of the lines ``todo`` offers, those a player ending the phase would call left undone
    (2 by 2, Sequence of play): a unit's move not begun (it has neither moved nor turned:
    not what is left of a move begun), a reinforcement roll not made, a shot not taken, a
    counter-charge open, a rally not tried. Not the choices a player may as well leave (a
    turn or formation change alone, a voluntary rout, a follow-up offered, a charged unit's
    reaction), nor an owed step (the phase does not end with one owed)."""
    move = state.phase == "move"
    for t in offered:
        p = t.procedure
        if p in MOVE_STEPS:
            u = state.unit(str(t.request.get("unit")))
            if not (u.moved or u.turned or u.spent > 0):
                yield t
        elif p in ("reinforce", "countercharge", "rally") or (p == "shoot" and not move):
            yield t


def left_undone(offered: Iterable[Todo], labels: Mapping[str, str] | None = None) -> str:
    """What could still have acted in the phase being ended, in short: the procedures of the
    lines ``todo`` offered (``offered``), each with the units, firers or RPs they name
    (``labels``: a procedure's name there, when not its own)."""
    groups: dict[str, list[str]] = {}
    for t in offered:
        if t.procedure in ("next", "next_phase"):
            continue
        who = line_who(t)
        ids = groups.setdefault(labels.get(t.procedure, t.procedure) if labels else t.procedure, [])
        if who and who not in ids:
            ids.append(who)
    return "; ".join(f"{p} {', '.join(ids)}".strip() for p, ids in groups.items())


def _victory(state: GameState, next_turn: int) -> tuple[str | None, str] | None:
    """The default victory check at the end of a turn (ASSUMPTION, see [victory])."""
    threshold = state.rules.victory.threshold_ap
    max_turns = state.rules.victory.max_turns
    scores = {s.id: state.score(s.id) for s in state.sides}
    reached = threshold > 0 and any(x >= threshold for x in scores.values())
    if not reached and not (max_turns > 0 and next_turn > max_turns):
        return None
    a, b = state.sides
    if scores[a.id] == scores[b.id]:
        return None, f"game over: drawn ({scores[a.id]} AP each)"
    w, lost = (a, b) if scores[a.id] > scores[b.id] else (b, a)  # (the winner's count first)
    # "won": right for any side's name, "Red" or "Austrians" ("Austrians wins" was not)
    return w.id, f"game over: {w.name} won ({scores[w.id]}-{scores[lost.id]} AP destroyed)"


__all__ = ["EDGES", "OPPOSITE", "choose_rp", "deploy", "next_phase", "setup_roll"]
