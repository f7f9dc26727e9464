"""The bookkeeping procedures besides the rolls: phases, moves, marks, reveals, set-up
placement, the facts the player states, and the query of legal shifts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from vedette.dice import Table
from vedette.errors import BadRequest, RuleViolation, VedetteError
from vedette.rules.base import Outcome, Request
from vedette.rules.solitaire_asl.fold import Patch
from vedette.rules.solitaire_asl.hip import new_id
from vedette.rules.solitaire_asl.ids import parse_hex_id
from vedette.rules.solitaire_asl.model import (
    FORTIFICATION_KINDS,
    PHASES,
    SETUP,
    Location,
    Minefield,
    Stack,
    State,
    Status,
)
from vedette.rules.solitaire_asl.shift import DUMMY_KINDS, HIP_KINDS, plan_shift
from vedette.rules.solitaire_asl.turn import game_turn, next_phase


def run_phase(state: State, req: Request) -> Outcome:
    """Advance to the next phase (or to ``to=PHASE``, on through player turns)."""
    target = req.get_opt_str("to")
    if target is not None and target not in PHASES:
        raise BadRequest(f"'to' must be one of {', '.join(PHASES)}")
    events = []
    s = state
    for _ in range(len(PHASES) * 2 + 1):
        ph, phasing, pt, new = next_phase(s)
        ev = (
            Patch()
            .set(
                "phase",
                {"phase": ph, "phasing": phasing, "player_turn": pt, "new_player_turn": new},
            )
            .event("phase")
        )
        events.append(ev)
        from vedette.rules.solitaire_asl.fold import apply_event

        s = apply_event(s, ev)
        if target is None or ph == target:
            break
    msg = f"turn {game_turn(s)}, {s.phasing} player turn: {s.phase}"
    return Outcome(
        tuple(events), (), msg, {"phase": s.phase, "phasing": s.phasing, "turn": game_turn(s)}
    )


def run_act(state: State, req: Request) -> Outcome:
    """Record that a friendly unit has moved, advanced or fired this phase (2.3, 5.1)."""
    if state.phase == SETUP:
        raise BadRequest("the game has not started: use 'phase'")
    return Outcome(
        (Patch().set("acted", True).event("acted"),),
        (),
        f"{state.phasing} has begun its {state.phase}",
    )


def run_move(state: State, req: Request) -> Outcome:
    """A stack (or part of it) moves conventionally: it may split a potential dummy stack
    (2.2); HIP units and dummy HIP counters never move conventionally (3.2.2)."""
    s = state.stack(req.get_str("stack"))
    if s is None:
        raise BadRequest(f"no stack {req.get_str('stack')!r}")
    to = req.get_str("to")
    state.layout.hex(to)
    if s.status in HIP_KINDS:
        raise RuleViolation("O'Leary 3.2.2", f"{s.id} is HIP: it may only shift, not move")
    p = Patch()
    changes = []
    ids = [str(x) for x in req.get_list("counters", [])]
    mp = req.get_int("mp", 0)
    pos = req.get_str("position", "")
    moving = [c for c in s.counters if c.id in ids or c.name in ids] if ids else list(s.counters)
    if ids and len(moving) != len(ids):
        raise BadRequest(f"not all of {ids} are counters of {s.id}")
    n_dummies = req.get_int("dummies", s.dummies)
    if s.status == Status.DUMMY and not 1 <= n_dummies <= s.dummies:
        raise BadRequest(f"{s.id} has {s.dummies} dummies")

    def moved_counter(c: Any) -> Any:
        c2 = c
        if c.kind == "vehicle" and mp:
            c2 = replace(c2, mp_used=max(c.mp_used, mp))
        if c.boresight == "eligible" and c.boresight_location is None:
            c2 = replace(c2, boresight="lost")
            changes.append(f"{c.name} ({c.id}) may no longer bore sight")
        return c2

    whole = len(moving) == len(s.counters) and (s.status != Status.DUMMY or n_dummies == s.dummies)
    mv = tuple(moved_counter(c) for c in moving)
    if whole:
        p.put_stack(replace(s, location=to, position=pos, counters=mv, moved=True))
        changes.append(f"{s.id} moves to {to}")
    else:
        nid, _ = new_id(state, s.id + "-", 0, set())
        rest = tuple(c for c in s.counters if c not in moving)
        left = replace(
            s, counters=rest, dummies=s.dummies - n_dummies if s.status == Status.DUMMY else 0
        )
        part = replace(
            s,
            id=nid,
            location=to,
            position=pos,
            counters=mv,
            moved=True,
            dummies=n_dummies if s.status == Status.DUMMY else 0,
        )
        p.put_stack(left).put_stack(part)
        changes.append(f"{nid} splits from {s.id} and moves to {to}")
        if s.status == Status.POTENTIAL_DUMMY:
            changes.append(f"both {s.id} and {nid} remain potential dummy stacks (2.2)")
    if s.side == state.phasing and state.phase in ("MPh", "APh"):
        p.set("acted", True)
    return Outcome(
        (p.event("move", stack=s.id, to=to),), (), "; ".join(changes), {"changes": changes}
    )


def run_merge(state: State, req: Request) -> Outcome:
    """Two potential dummy stacks in the same location and position merge at the end of their
    side's CCPh (2.2)."""
    a, b = state.stack(req.get_str("a")), state.stack(req.get_str("b"))
    if a is None or b is None:
        raise BadRequest("name two stacks: a=... b=...")
    if a.id == b.id:
        raise BadRequest("a stack cannot merge with itself")
    if a.side != b.side or a.status != b.status:
        raise RuleViolation("O'Leary 2.2", "only stacks of the same side and status merge")
    if a.status == Status.POTENTIAL_DUMMY and (state.phase != "CCPh" or a.side != state.phasing):
        raise RuleViolation(
            "O'Leary 2.2", "potential dummy stacks merge only at the end of their side's CCPh"
        )
    if (a.location, a.position) != (b.location, b.position):
        raise RuleViolation("O'Leary 2.2", "stacks merge only in the same location and position")
    merged = replace(
        a,
        counters=a.counters + b.counters,
        dummies=a.dummies + b.dummies,
        ti=a.ti or b.ti,
        moved=a.moved or b.moved,
    )
    p = Patch().put_stack(merged).remove_stack(b.id)
    return Outcome((p.event("merge"),), (), f"{b.id} merges into {a.id}")


def run_mark(state: State, req: Request) -> Outcome:
    """Mark a concealed stack as a potential dummy stack: only at set-up (2.1, 2.2)."""
    s = state.stack(req.get_str("stack"))
    if s is None:
        raise BadRequest(f"no stack {req.get_str('stack')!r}")
    if state.phase != SETUP:
        raise RuleViolation(
            "O'Leary 2.2", "potential dummy stacks are only made at the start of the game"
        )
    if s.status not in (Status.CONCEALED, Status.REVEALED) or not s.counters:
        raise RuleViolation("O'Leary 2.1", f"{s.id} is a {s.status.value} stack")
    return Outcome(
        (Patch().put_stack(replace(s, status=Status.POTENTIAL_DUMMY)).event("mark"),),
        (),
        f"{s.id} is a potential dummy stack",
    )


def run_drop(state: State, req: Request) -> Outcome:
    """A potential dummy stack drops that status and keeps its concealment (2.2)."""
    s = state.stack(req.get_str("stack"))
    if s is None or s.status != Status.POTENTIAL_DUMMY:
        raise BadRequest(f"{req.get_str('stack')!r} is not a potential dummy stack")
    return Outcome(
        (Patch().put_stack(replace(s, status=Status.CONCEALED)).event("drop"),),
        (),
        f"{s.id} is now an ordinary concealed stack",
    )


def run_reveal(state: State, req: Request) -> Outcome:
    """Concealment, HIP or cloaking lost by the ASL rules (A12.121, A12.3 ...): a potential dummy
    stack loses that status for good (2.2); a revealed dummy HIP counter is removed (3.4);
    cloaking is never regained (5.2); a hidden fortification is revealed."""
    ref = req.get_str("what")
    keep = req.get_bool("keep_concealment", False)
    p = Patch()
    f = state.fortification(ref)
    if f is not None:
        return Outcome(
            (p.put_fort(replace(f, hidden=False)).event("reveal"),),
            (),
            f"{f.kind} {f.id} revealed in {f.location}",
        )
    s = state.stack(ref)
    if s is None:
        raise BadRequest(f"no stack or fortification {ref!r}")
    if s.is_dummy:
        p.remove_stack(s.id)
        return Outcome(
            (p.event("reveal"),), (), f"{s.id} was a dummy: remove it from {s.location} (3.4)"
        )
    if s.status in (Status.HIP, Status.CLOAKED) and keep:
        new = replace(s, status=Status.CONCEALED)
    elif s.status == Status.REVEALED:
        raise BadRequest(f"{s.id} is already revealed")
    else:
        new = replace(s, status=Status.REVEALED)
    p.put_stack(new)
    return Outcome((p.event("reveal"),), (), f"{s.id} in {s.location} is now {new.status.value}")


def run_place(state: State, req: Request, data: Mapping[str, Any]) -> Outcome:
    """Place an allotted dummy HIP counter (3.1, 4.1) or dummy minefield (4.6.1) at set-up."""
    if state.phase != SETUP:
        raise RuleViolation("O'Leary 3.1", "dummy counters are placed at set-up")
    kind = req.get_choice("kind", ("dummy_hip", "dummy_minefield"))
    side = req.get_str("side")
    if side not in state.sides:
        raise BadRequest(f"side must be one of {', '.join(state.sides)}")
    loc = req.get_str("location")
    parse_hex_id(loc)
    state.layout.hex(loc)
    a = state.allotment(side)
    p = Patch()
    if kind == "dummy_hip":
        if a.dummy_hip_placed >= a.dummy_hip:
            raise RuleViolation(
                "O'Leary 3.1.1", f"{side} has placed all {a.dummy_hip} allotted dummy HIP counters"
            )
        sid, serial = new_id(state, "X", state.serial, set())
        p.put_stack(
            Stack(sid, side, loc, Status.DUMMY_HIP, dummies=1, position=req.get_str("position", ""))
        )
        p.set("allot", {"side": side, "dummy_hip": 1}).set("serial", serial)
        msg = f"dummy HIP counter {sid} in {loc} ({a.dummy_hip_placed + 1} of {a.dummy_hip})"
    else:
        if a.dummy_minefields_placed >= a.dummy_minefields:
            raise RuleViolation(
                "O'Leary 4.6.1",
                f"{side} has placed all {a.dummy_minefields} allotted dummy minefields",
            )
        mid, serial = new_id(state, "M", state.serial, {m.id for m in state.minefields})
        p.put_mine(Minefield(mid, side, loc, dummy=True))
        p.set("allot", {"side": side, "dummy_minefields": 1}).set("serial", serial)
        n = a.dummy_minefields_placed + 1
        msg = f"dummy minefield {mid} in {loc} ({n} of {a.dummy_minefields})"
    return Outcome((p.event("place"),), (), msg)


def run_location(state: State, req: Request) -> Outcome:
    """The player states facts of a location: TEM, terrain, enemy LOS, LV, Concealment Terrain,
    fortification kinds that could not be set up there."""
    lid = req.get_str("id")
    parse_hex_id(lid)
    state.layout.hex(lid)
    loc = state.location(lid)
    upd: dict[str, Any] = {}
    if "tem" in req:
        upd["tem"] = req.get_int("tem")
    if "terrain" in req:
        upd["terrain"] = req.get_str("terrain")
    for k in ("los", "lv", "concealment_terrain"):
        if k in req:
            upd[k] = req.get_bool(k)
    if "forbid" in req:
        kinds = tuple(str(x) for x in req.get_list("forbid"))
        for k in kinds:
            if k not in FORTIFICATION_KINDS:
                raise BadRequest(f"unknown fortification kind {k!r}")
        upd["forbid"] = kinds
    new = replace(loc, **upd)
    return Outcome((Patch().put_location(new).event("location"),), (), f"{lid}: {_loc_text(new)}")


def _loc_text(loc: Location) -> str:
    bits = [f"TEM {loc.tem:+d}"]
    if loc.terrain:
        bits.insert(0, loc.terrain)
    if loc.los:
        bits.append("in enemy LOS")
    if loc.lv:
        bits.append("LV hindrance")
    if not loc.concealment_terrain:
        bits.append("not Concealment Terrain")
    return ", ".join(bits)


def run_fort(state: State, req: Request) -> Outcome:
    """Record a fortification's CA (4.4), its cave complex (4.4.1) or a tunnel's exit (4.4.2)."""
    f = state.fortification(req.get_str("id"))
    if f is None:
        raise BadRequest(f"no fortification {req.get_str('id')!r}")
    upd: dict[str, Any] = {}
    if "ca" in req:
        upd["ca"] = req.get_str("ca")
    if "complex" in req:
        if f.kind != "cave":
            raise BadRequest("only caves belong to cave complexes")
        upd["complex"] = req.get_str("complex")
    if "exit" in req:
        if f.kind != "tunnel":
            raise BadRequest("only tunnels have exits")
        ex = req.get_str("exit")
        state.layout.hex(ex)
        upd["exit"] = ex
    new = replace(f, **upd)
    return Outcome((Patch().put_fort(new).event("fort"),), (), f"{f.kind} {f.id}: {upd}")


def run_legal(
    state: State, req: Request, data: Mapping[str, Any], tables: Mapping[str, Table]
) -> Outcome:
    """Query: the shifts a side may try now, each with the chance it is allowed. Never raises."""
    sides = [req.get_str("side")] if "side" in req else list(state.sides)
    out: list[dict[str, Any]] = []
    lines: list[str] = []
    for side in sides:
        mine = [s for s in state.stacks if s.side == side]
        pairs: list[tuple[str, str, str]] = []
        for i, a in enumerate(mine):
            for b in mine[i:]:
                if a.status == Status.POTENTIAL_DUMMY and b.status in DUMMY_KINDS:
                    pairs.append((a.id, b.id, "dummy"))
                elif b.status == Status.POTENTIAL_DUMMY and a.status == Status.DUMMY:
                    pairs.append((b.id, a.id, "dummy"))
                elif a.status == b.status == Status.CLOAKED and a.id != b.id:
                    pairs.append((a.id, b.id, "cloaked"))
        hip_locs = sorted(
            {s.location for s in mine if s.status in HIP_KINDS}
            | {f.location for f in state.fortifications if f.side == side and f.hidden}
        )
        for i, la in enumerate(hip_locs):
            for lb in hip_locs[i + 1 :]:
                pairs.append((la, lb, "hip"))
        for ra, rb, kind in pairs:
            try:
                plan = plan_shift(
                    state, Request({"a": ra, "b": rb, "kind": kind, "side": side}), data, tables
                )
            except VedetteError:
                continue
            o = plan.check.odds()
            p_ok = o.p("free") + o.p("allowed")
            out.append(
                {
                    "side": side,
                    "kind": kind,
                    "a": ra,
                    "b": rb,
                    "p_allowed": f"{p_ok.numerator}/{p_ok.denominator}",
                    "percent": round(float(p_ok) * 100, 2),
                    "drm": sum(m.value for m in o.modifiers),
                }
            )
            row = out[-1]
            lines.append(
                f"{side} {kind}: {ra} <-> {rb}  DRM {row['drm']:+d}  allowed {row['percent']:.2f}%"
            )
    if not lines:
        lines = ["no shift is legal now"]
    return Outcome((), (), "\n".join(lines), {"legal": out})
