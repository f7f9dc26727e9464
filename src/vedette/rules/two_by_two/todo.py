"""What is owed and what is open now (the referee's ``todo``), from the state alone.

* Owed (2 by 2, Melee; Sequence of play "Player 1 Resolves Melees"): every melee pending in the
  melee phase, and a mandatory follow-up ("mandatory follow-up unless winner is in a town").
  Each blocks the end of the phase; each may be waived, and the log says so.
* Open: in a move phase, who may still move (with the [n] left) and which RPs may roll; the
  reactions of a charged infantry unit ("Infantry may turn to face when charged if not engaged
  and may fire on charging unit", 2 by 2, Moving to contact); in a rally phase, who may try; in
  a shooting phase, who may shoot and which cavalry may counter-charge ("an enemy unit which
  moves within a 1/2 move or less"); in a melee phase, the follow-ups offered.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from vedette.errors import BadRequest, VedetteError
from vedette.geometry import tabletop as tt
from vedette.rules.protocol import Obligation, Todo
from vedette.rules.two_by_two import facts
from vedette.rules.two_by_two.model import (
    R_CONTACT,
    R_MELEE,
    R_MOVE,
    R_RALLY,
    R_REINF,
    R_SEQ,
    R_SHOOT,
    GameState,
)

_END = ("next", "next_phase")


def obligations(state: GameState) -> tuple[Obligation, ...]:
    out: list[Obligation] = []
    if state.stage == "battle" and state.phase == "melee":
        for m in state.melees:
            out.append(
                Obligation(
                    f"melee:{m.attacker}:{m.defender}",
                    "melee",
                    {"attacker": m.attacker, "defender": m.defender},
                    R_MELEE,
                    f"the melee {m.attacker} vs {m.defender}"
                    " (resolve every melee before the phase ends)",
                    blocks=_END,
                )
            )
    for f in state.follow_ups:
        if f.mandatory:
            out.append(
                Obligation(
                    f"follow_up:{f.unit}",
                    "follow_up",
                    {"unit": f.unit},
                    R_MELEE,
                    f"the mandatory follow-up owed by {f.unit}",
                    blocks=_END,
                )
            )
    return tuple(out)


def waive(state: GameState, obligation: str) -> GameState:
    kind, _, rest = obligation.partition(":")
    if kind == "melee":
        a, _, d = rest.partition(":")
        melees = tuple(m for m in state.melees if (m.attacker, m.defender) != (a, d))
        if len(melees) != len(state.melees):
            return replace(state, melees=melees)
    if kind == "follow_up":
        fus = tuple(f for f in state.follow_ups if f.unit != rest)
        if len(fus) != len(state.follow_ups):
            return replace(state, follow_ups=fus)
    owed = obligations(state)
    raise BadRequest(
        f"nothing owed is called {obligation!r}"
        + (f" (owed: {', '.join(o.id for o in owed)})" if owed else " (nothing is owed)")
    )


def options(state: GameState) -> list[Todo]:
    out: list[Todo] = []
    if state.stage == "over":
        return out
    if state.stage == "setup":
        step = state.setup_step
        if step == "roll":
            out.append(Todo("setup_roll", {}, "roll for the Attacker", "2 by 2, Game Setup"))
        elif step.startswith("deploy"):
            out.append(Todo("deploy", {}, "deploy a unit (12 AP)", "2 by 2, Game Setup"))
        else:
            out.append(Todo("rp", {}, "pick a reinforcement point", "2 by 2, Game Setup"))
        if step.startswith("deploy"):
            out.append(Todo("next", {}, "end the deployment", R_SEQ))
        return out
    kind, side = state.phase, state.actor
    if kind == "move":
        out.extend(_moves(state, side))
        out.extend(_reactions(state))
    elif kind == "rally":
        for u in state.live(side):
            if (u.pinned or u.disrupted) and not u.rallied:
                what = "disrupted" if u.disrupted else "pinned"
                out.append(
                    Todo("rally", {"unit": u.id}, f"{u.name} may try to rally ({what})", R_RALLY)
                )
    elif kind == "shoot":
        for u in state.live(side):
            t = state.utype(u)
            if t.can_shoot and not u.shot and not u.disrupted:
                out.extend(_shots(state, u))
        out.extend(_countercharges(state, side))
    elif kind == "melee":
        for f in state.follow_ups:
            if not f.mandatory:
                out.append(
                    Todo(
                        "follow_up",
                        {"unit": f.unit},
                        f"{f.unit} may follow up (or decline)",
                        R_MELEE,
                    )
                )
    out.append(Todo("next", {}, f"end the phase ({state.phase_name()})", R_SEQ))
    return out


def _shots(state: GameState, u: Any) -> list[Todo]:
    """A unit's shots, target filled in: in a stated game one line per enemy and range band
    (the player measures, then picks the line: no typing); in a tracked game one per enemy
    within its longest range. No target in reach: the plain line, the player names one."""
    t = state.utype(u)
    out: list[Todo] = []
    for e in state.live(state.enemy_of(u.side)):
        if state.play == "stated":
            for band in t.range_names:
                if band == "skirmish" and t.is_infantry and t.star_range and not u.screened:
                    continue  # Unit Summary *: [2] only with a skirmisher screen
                req = {"firer": u.id, "target": e.id, "band": band}
                out.append(Todo("shoot", req, f"{u.name} shoots {e.name} ({band})", R_SHOOT))
            continue
        d = facts.distance_n(state, u, e)
        if d is not None and t.ranges and d <= t.ranges[-1] + 1e-9:
            req = {"firer": u.id, "target": e.id}
            out.append(Todo("shoot", req, f"{u.name} shoots {e.name} ([{d:.2f}])", R_SHOOT))
    return out or [Todo("shoot", {"firer": u.id}, f"{u.name} may shoot", R_SHOOT)]


def _moves(state: GameState, side: str) -> list[Todo]:
    out: list[Todo] = []
    for u in state.live(side):
        t = state.utype(u)
        if u.disrupted:
            continue
        if u.body is None and u.entry:
            out.append(
                Todo(
                    "move" if state.play == "stated" else "place",
                    {"unit": u.id},
                    f"{u.name} arrived at RP {u.entry}: it enters the edge within [4]",
                    R_REINF,
                )
            )
            continue
        if u.moved and u.spent <= 0:
            continue
        left = t.move - u.spent
        if u.pinned:
            if state.play == "tracked":
                out.append(
                    Todo("turn", {"unit": u.id}, f"{u.name} (pinned) may change facing", R_SHOOT)
                )
            continue
        if left <= 1e-6:
            continue
        proc = "advance" if state.play == "tracked" else "move"
        out.append(Todo(proc, {"unit": u.id}, f"{u.name} may move ([{left:.2f}] left)", R_MOVE))
    rolls = int(state.rules.num("reinforcements", "rolls_per_turn"))
    if state.reinforcement_rolls < rolls:
        for rp in state.rps:
            if rp.side == side and rp.queue:
                out.append(
                    Todo(
                        "reinforce",
                        {"rp": rp.id},
                        f"roll for {rp.queue[0]} at {rp.kind} RP {rp.id}"
                        f" ({rolls - state.reinforcement_rolls} roll(s) left)",
                        R_REINF,
                    )
                )
    return out


def _reactions(state: GameState) -> list[Todo]:
    """A charged infantry unit, not engaged otherwise: turn to face, and fire (once)."""
    out: list[Todo] = []
    for m in state.melees:
        if m.counter_charge:
            continue
        d, a = state.unit(m.defender), state.unit(m.attacker)
        if d.side == state.phasing or not a.moved or not d.on_table:
            continue
        if not state.utype(d).is_infantry or d.disrupted:
            continue
        engaged = [x for x in state.melees if d.id in (x.attacker, x.defender) and x != m]
        if engaged:
            continue
        facing_it = (
            d.body is not None
            and a.body is not None
            and abs(tt.relative_bearing(d.body, a.body.centre)) < 1.0
        )
        if not facing_it:
            out.append(
                Todo(
                    "face",
                    {"unit": d.id, "toward": a.id},
                    f"{d.name} may turn to face {a.name}",
                    R_CONTACT,
                )
            )
        if not d.shot:
            out.append(
                Todo(
                    "shoot",
                    {"firer": d.id, "target": a.id},
                    f"{d.name} may fire on its charger {a.name}",
                    R_CONTACT,
                )
            )
    return out


def _countercharges(state: GameState, side: str) -> list[Todo]:
    out: list[Todo] = []
    frac = float(state.rules.section("movement").get("countercharge_fraction", 0.5))
    movers = [e for e in state.live(state.enemy_of(side)) if e.moved]
    for c in state.live(side):
        t = state.utype(c)
        if not t.is_cavalry or c.disrupted or c.pinned or c.countercharged:
            continue
        for e in movers:
            d = facts.distance_n(state, c, e)
            if d is None:
                text = (
                    f"{c.name} may counter-charge {e.name} if it moved within [{t.move * frac:g}]"
                )
            elif d <= t.move * frac + 1e-9:
                text = f"{c.name} may counter-charge {e.name} ([{d:.2f}] away)"
            else:
                continue
            out.append(Todo("countercharge", {"unit": c.id, "target": e.id}, text, R_CONTACT))
    return out


def legal_requests(
    state: GameState, rng: Any, procedures: Mapping[str, Any], n: int = 40
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Requests that are all legal now (each is planned, so the rules have checked it): what
    is owed first, then the open actions with their missing fields filled in, then ``next``."""

    def legal(name: str, req: dict[str, Any]) -> bool:
        p = procedures[name]
        try:
            p.plan(state, p.parse(req))
        except VedetteError:
            return False
        return True

    owed = obligations(state)
    for o in owed:
        if legal(o.procedure, dict(o.request)):
            yield o.procedure, dict(o.request)
    if owed:
        return
    found = 0
    opts = options(state)
    rng.shuffle(opts)
    for t in opts:
        if t.procedure == "next":
            continue
        for name, req in _complete(state, t, rng):
            if legal(name, req):
                yield name, req
                found += 1
                break
        if found >= n:
            break
    yield "next", {}


def _complete(state: GameState, t: Todo, rng: Any) -> list[tuple[str, dict[str, Any]]]:
    """Candidate full requests for a ``todo`` line (the rules then pick the legal ones)."""
    name, req = t.procedure, dict(t.request)
    enemies = state.live(state.enemy_of(state.actor)) if state.stage == "battle" else []
    if name == "advance":
        charges = [("charge", {"unit": req["unit"], "into": e.id}) for e in enemies[:8]]
        steps = [(name, {**req, "distance": str(d)}) for d in (2, 1, 0.5)]
        turn = [("turn", {**req, "angle": 45, "direction": rng.choice(["left", "right"])})]
        return [*charges, *steps, *turn]
    if name == "move":
        return [(name, {**req, "distance": d}) for d in (2, 1)]
    if name == "turn":
        return [(name, {**req, "angle": 45, "direction": rng.choice(["left", "right"])})]
    if name == "place":
        u = state.unit(req["unit"])
        rp = state.rp(u.entry)
        inward = {"south": (0, 1), "north": (0, -1), "west": (1, 0), "east": (-1, 0)}
        dx, dy = inward[tt.nearest_edge(state.table, rp.point)[0]]
        half = state.rules.footprint.depth / 2
        out = []
        for along in (0.0, 30.0, -30.0):
            x = rp.point.x + dx * half + dy * along
            y = rp.point.y + dy * half + dx * along
            out.append((name, {**req, "x": round(x, 3), "y": round(y, 3)}))
        return out
    if name == "shoot" and "target" not in req:
        stated = {"range": 1} if state.play == "stated" else {}
        return [(name, {**req, "target": e.id, **stated}) for e in enemies]
    if name == "countercharge":
        return (
            [(name, {**req, "distance": 2, "within": True})]
            if state.play == "stated"
            else [(name, req)]
        )
    return [(name, req)]
