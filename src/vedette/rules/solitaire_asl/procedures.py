"""The bookkeeping procedures besides the rolls: phases, moves, marks, reveals, set-up
placement, the facts the player states, and the query of legal shifts.

None of them rolls: ``plan`` checks the rules and works out the outcome, ``resolve`` returns it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from vedette.dice import Table
from vedette.errors import BadRequest, RuleViolation, VedetteError
from vedette.rules.base import Outcome
from vedette.rules.solitaire_asl.config import Config
from vedette.rules.solitaire_asl.events import BoardChanges
from vedette.rules.solitaire_asl.fold import apply_event
from vedette.rules.solitaire_asl.hip import split_id
from vedette.rules.solitaire_asl.ids import parse_hex_id
from vedette.rules.solitaire_asl.model import (
    FORTIFICATION_KINDS,
    PHASES,
    SETUP,
    Counter,
    Fortification,
    Location,
    Minefield,
    Stack,
    State,
    Status,
    kind_words,
)
from vedette.rules.solitaire_asl.requests import (
    ActRequest,
    DropRequest,
    FortRequest,
    LegalRequest,
    LocationRequest,
    MergeRequest,
    MoveRequest,
    PhaseRequest,
    PlaceRequest,
    RevealRequest,
    SettleRequest,
    ShiftRequest,
    StackRequest,
)
from vedette.rules.solitaire_asl.shift import (
    DUMMY_KINDS,
    HIP_KINDS,
    check_ca,
    counter_named,
    find_stack,
    plan_shift,
    side_named,
)
from vedette.rules.solitaire_asl.turn import game_turn, next_phase


def _phase_named(text: str) -> tuple[str, str | None]:
    """A phase as the player writes it ('mph', 'German MPh', 'MPh German'): (phase, side
    text or None). Any case."""
    words = text.replace(",", " ").split()
    found = [p for p in PHASES for w in words if w.lower() == p.lower()]
    if len(found) != 1:
        raise BadRequest(f"'to' must name one of {', '.join(PHASES)} (any case), not {text!r}")
    rest = [w for w in words if w.lower() != found[0].lower()]
    return found[0], (" ".join(rest) or None)


def run_phase(state: State, req: PhaseRequest) -> Outcome:
    """Advance to the next phase, or on to ``to`` (of ``side``'s player turn). Set-up is its
    own phase: play starts with the first player's PFPh."""
    target: str | None = None
    side: str | None = None
    if req.to is not None:
        target, side_text = _phase_named(req.to)
        if side_text is not None:
            side = side_named(state, side_text)
    if req.side is not None:
        s2 = side_named(state, req.side)
        if side is not None and s2 != side:
            raise BadRequest(f"'to' names {side}, 'side' names {s2}")
        side = s2
        if target is None:
            raise BadRequest("name the phase of that side's player turn: to=PHASE")
    events = []
    s = state
    for _ in range(len(PHASES) * 2 + 1):
        ph, phasing, pt, new = next_phase(s)
        ev = BoardChanges().event(
            "phase", phase=ph, phasing=phasing, player_turn=pt, new_player_turn=new
        )
        events.append(ev)
        s = apply_event(s, ev)
        if target is None or (ph == target and (side is None or phasing == side)):
            break
    order = "first" if s.player_turn % 2 == 1 else "second"
    msg = (
        f"turn {game_turn(s)}, {s.phasing} player turn: {s.phase} (player turn {s.player_turn},"
        f" {order} of game turn {game_turn(s)})"
    )
    return Outcome(
        tuple(events),
        (),
        msg,
        {
            "phase": s.phase,
            "phasing": s.phasing,
            "turn": game_turn(s),
            "player_turn": s.player_turn,
        },
    )


def run_act(state: State, req: ActRequest) -> Outcome:
    """Record that a friendly unit has moved, advanced or fired this phase (2.3, 5.1). A
    ``move`` (and a unit entering a minefield, a weapon firing) records it by itself."""
    if state.phase == SETUP:
        raise RuleViolation("O'Leary 2.3", "the game has not started (set-up): use 'phase'")
    return Outcome(
        (BoardChanges().set("acted", True).event("acted"),),
        (),
        f"{state.phasing} has begun its {state.phase}: no more shifts at its start (2.3, 5.1)",
    )


def check_move(state: State, req: MoveRequest) -> None:
    """What :func:`run_move` refuses, without working out the move (``todo`` judges each
    destination it offers: ``Procedure.check``)."""
    _move_checked(state, req)


def _move_checked(state: State, req: MoveRequest) -> tuple[Stack, list[Counter], int, str]:
    """The refusals of :func:`run_move`, in its order: the stack, the counters that move, how
    many dummies go, and the id of the part that splits off ('' when the whole stack moves)."""
    if state.phase == SETUP:
        raise RuleViolation(
            "O'Leary 2.3",
            "nothing moves during set-up (set the counters up in the scenario); start play with"
            " 'phase'",
        )
    s = find_stack(state, req.stack)
    to = req.to
    parse_hex_id(to)
    state.layout.hex(to)
    if s.status in HIP_KINDS:
        raise RuleViolation("O'Leary 3.2.2", f"{s.id} is HIP: it may only shift, not move")
    # O'Leary 2.5 (>= 13): TI until the end of the player turn; a TI unit neither moves nor
    # advances (A34), but one that routs in the RtPh is broken, and breaking ends TI
    routs = s.ti and state.phase == "RtPh"
    if s.ti and state.config.flow.ti_binds and not routs:
        raise RuleViolation(
            "O'Leary 2.5",
            f"{s.id} is TI (a shift DR of 13 or more) until the end of the player turn: it may"
            " not move or advance",
        )
    ids = list(req.counters or ())
    pos = req.position
    moving: list[Counter] = []
    for r in ids:
        c = next((c for c in s.counters if c.id == r and c not in moving), None) or next(
            (c for c in s.counters if c.name == r and c not in moving), None
        )
        if c is None:
            raise BadRequest(f"no counter {r!r} in {s.id}")
        moving.append(c)
    if not ids:
        moving = list(s.counters)
    n_dummies = s.dummies if req.dummies is None else req.dummies
    if s.status == Status.DUMMY and not 1 <= n_dummies <= s.dummies:
        raise BadRequest(f"{s.id} has {s.dummies} dummies")
    whole = len(moving) == len(s.counters) and (s.status != Status.DUMMY or n_dummies == s.dummies)
    if whole and (to, pos or "") == (s.location, s.position):
        # not a move: it would still cost bore-sight eligibility (2.3) and end the start of
        # the phase
        raise BadRequest(f"{s.id} is already in {to}" + (f" ({kind_words(pos)})" if pos else ""))
    if whole:
        return s, moving, n_dummies, ""
    if (to, pos or "") == (s.location, s.position):
        # a part that stays where it is does not move; 2.2: a potential dummy stack splits into
        # two only "by the movement of its components into two or more different locations"
        if s.status == Status.POTENTIAL_DUMMY:
            raise RuleViolation(
                "O'Leary 2.2",
                f"{s.id} is a potential dummy stack: it splits only by part of it moving to"
                f" another location, and the part would stay in {to}",
            )
        raise BadRequest(f"the part of {s.id} would stay in {to}: nothing moves")
    nid = req.name or split_id(state, s.id)
    if _taken(state, nid):
        raise BadRequest(f"{nid!r} is taken: name the part that splits off with name=...")
    return s, moving, n_dummies, nid


def run_move(state: State, req: MoveRequest) -> Outcome:
    """A stack (or part of it) moves conventionally: it may split a potential dummy stack
    (2.2); HIP units and dummy HIP counters never move conventionally (3.2.2). Not during
    set-up: set-up places the scenario's counters, and 2.3 counts changes of location from the
    start of play. The phasing side's first move or advance closes the start of the phase
    (2.3): no more dummy stack shifts in it. Its refusals are :func:`check_move`'s."""
    s, moving, n_dummies, nid = _move_checked(state, req)
    to = req.to
    routs = s.ti and state.phase == "RtPh"
    p = BoardChanges()
    changes = []
    if routs:
        changes.append(f"{s.id} routs: broken, it is no longer TI")
    mp = req.mp
    pos = req.position

    def moved_counter(c: Counter) -> Counter:
        c2 = c
        if c.kind == "vehicle" and mp:
            c2 = replace(c2, mp_used=max(c.mp_used, mp))
        if c.boresight == "eligible":
            c2 = replace(c2, boresight="lost")
            changes.append(f"{c.name} ({c.id}) may no longer bore sight (2.3)")
        elif c.boresight_location is not None and state.config.flow.moving_loses_boresight_location:
            # 6.1 "still eligible to fire at a Bore Sighted location", lost by a move (2.3): the
            # location determined goes too (reading A42)
            c2 = replace(c2, boresight="lost")
            changes.append(
                f"{c.name} ({c.id}) loses its bore-sighted location {c.boresight_location}"
                " (6.1, 2.3)"
            )
        return c2

    mv = tuple(moved_counter(c) for c in moving)
    if not nid:
        p.put_stack(
            replace(s, location=to, position=pos, counters=mv, moved=True, ti=s.ti and not routs)
        )
        changes.insert(0, f"move {s.id} from {s.location} to {to}")
    else:
        rest = tuple(c for c in s.counters if c not in moving)
        left = replace(
            s, counters=rest, dummies=s.dummies - n_dummies if s.status == Status.DUMMY else 0
        )
        # 2.2: a new potential dummy stack only from a split "into two or more different
        # locations": a part that moves within the location (into a foxhole) is a concealed
        # stack (it keeps its ?)
        stays = s.status == Status.POTENTIAL_DUMMY and to == s.location
        part = replace(
            s,
            id=nid,
            status=Status.CONCEALED if stays else s.status,
            location=to,
            position=pos,
            counters=mv,
            moved=True,
            dummies=n_dummies if s.status == Status.DUMMY else 0,
            ti=s.ti and not routs,
        )
        p.put_stack(left).put_stack(part)
        what = ", ".join(c.name for c in moving) or f"{n_dummies} ?"
        changes.insert(0, f"{what} split off {s.id} as {nid} and move to {to}")
        if stays:
            changes.append(
                f"{s.id} remains a potential dummy stack; {nid}, still in {to}, is a concealed"
                " stack, no potential dummy stack (2.2: new ones only by moving to another"
                " location)"
            )
        elif s.status == Status.POTENTIAL_DUMMY:
            changes.append(f"both {s.id} and {nid} remain potential dummy stacks (2.2)")
    # 2.3 "provided no friendly unit has yet moved/advanced": a dummy stack's move ends the
    # start too (reading A48; [flow] dummy_move_ends_start = false: real units only, as A35)
    ends = bool(moving) or state.config.flow.dummy_move_ends_start
    if ends and s.side == state.phasing and state.phase in ("MPh", "APh") and not state.acted:
        p.set("acted", True)
        changes.append(f"the start of the {state.phase} is over: no more dummy shifts by {s.side}")
    return Outcome(
        (p.event("move", stack=s.id, to=to),), (), "; ".join(changes), {"changes": changes}
    )


def _readable(state: State, wanted: str) -> str:
    """``wanted`` as a new id when it is free, else its next readable variant (``X4O8b``)."""
    return wanted if not _taken(state, wanted) else split_id(state, wanted)


def _taken(state: State, name: str) -> bool:
    return (
        state.stack(name) is not None
        or state.counter(name) is not None
        or state.fortification(name) is not None
        or state.minefield(name) is not None
        or name in state.removed
    )


def run_merge(state: State, req: MergeRequest) -> Outcome:
    """Two potential dummy stacks in the same location and position merge at the end of their
    side's CCPh (2.2)."""
    a, b = find_stack(state, req.a), find_stack(state, req.b)
    if a.id == b.id:
        raise BadRequest("a stack cannot merge with itself")
    if a.side != b.side or a.status != b.status:
        raise RuleViolation("O'Leary 2.2", "only stacks of the same side and status merge")
    if a.status in (Status.DUMMY_HIP, Status.CLOAKED) and (a.is_dummy or b.is_dummy):
        # a dummy HIP counter (3.1, 3.1.1: each one of the side's allotment) or a dummy
        # cloaking counter is one counter: put into another stack, it would be lost
        what = "dummy HIP counter" if a.status == Status.DUMMY_HIP else "dummy cloaking counter"
        raise RuleViolation(
            "O'Leary 3.1.1" if a.status == Status.DUMMY_HIP else "O'Leary 5.2",
            f"a {what} is a single counter: it does not merge with another stack",
        )
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
    p = BoardChanges().put_stack(merged).remove_stack(b.id)
    return Outcome((p.event("merge"),), (), f"put {b.id}'s counters into {a.id} in {a.location}")


def run_mark(state: State, req: StackRequest) -> Outcome:
    """Mark a concealed stack as a potential dummy stack: only at set-up (2.1, 2.2)."""
    s = find_stack(state, req.stack)
    if state.phase != SETUP:
        raise RuleViolation(
            "O'Leary 2.2", "potential dummy stacks are only made at the start of the game"
        )
    if s.status not in (Status.CONCEALED, Status.REVEALED) or not s.counters:
        raise RuleViolation("O'Leary 2.1", f"{s.id} is a {s.status.value} stack")
    return Outcome(
        (BoardChanges().put_stack(replace(s, status=Status.POTENTIAL_DUMMY)).event("mark"),),
        (),
        f"{s.id} in {s.location} is a potential dummy stack: keep it under a ? (2.1)",
    )


def run_drop(state: State, req: DropRequest) -> Outcome:
    """A potential dummy stack drops that status and keeps its concealment (2.2)."""
    s = find_stack(state, req.stack)
    if s.status != Status.POTENTIAL_DUMMY:
        raise BadRequest(f"{s.id} is not a potential dummy stack")
    return Outcome(
        (BoardChanges().put_stack(replace(s, status=Status.CONCEALED)).event("drop"),),
        (),
        f"{s.id} in {s.location} is now an ordinary concealed stack: it keeps its ?",
    )


def run_reveal(state: State, req: RevealRequest, config: Config | None = None) -> Outcome:
    """Concealment, HIP or cloaking lost by the ASL rules (A12.121, A12.3 ...): a potential dummy
    stack loses that status for good (2.2); a revealed dummy HIP counter is removed (3.4);
    cloaking is never regained (5.2); a hidden fortification is revealed."""
    ref = req.what
    keep = req.keep_concealment
    p = BoardChanges()
    f = state.fortification(ref)
    if f is not None:
        if not f.hidden:
            raise BadRequest(f"{f.words} {f.id} is already revealed")
        return Outcome(
            (p.put_fort(replace(f, hidden=False)).event("reveal"),),
            (),
            f"place the {f.words} {f.id} on the board in {f.location}",
        )
    m = state.minefield(ref)
    if m is not None:
        # a minefield's strength revealed by the ASL rules (B28): face up; a dummy goes (A9)
        if m.revealed:
            raise BadRequest(f"minefield {m.id} is already revealed")
        if m.dummy and (config or state.config).minefield.remove_revealed_dummy:
            p.remove_mine(m.id)
            msg = f"{m.id} in {m.location} was a dummy minefield: remove it"
        else:
            p.put_mine(replace(m, revealed=True))
            msg = f"turn {m.id} in {m.location} face up: {m.strength}"
        return Outcome((p.event("reveal"),), (), msg)
    s = find_stack(state, ref, "stack, fortification or minefield")
    if s.is_dummy:
        p.remove_stack(s.id)
        what = {
            Status.DUMMY_HIP: "a dummy HIP counter (3.4)",
            Status.CLOAKED: "a dummy cloaking counter",
        }.get(s.status, "a dummy stack")
        return Outcome((p.event("reveal"),), (), f"{s.id} was {what}: remove it from {s.location}")
    if s.status in (Status.HIP, Status.CLOAKED) and keep:
        new = replace(s, status=Status.CONCEALED)
        msg = f"place {', '.join(c.name for c in s.counters)} ({s.id}) in {s.location} under a ?"
    elif s.status == Status.REVEALED:
        raise BadRequest(f"{s.id} is already revealed")
    else:
        new = replace(s, status=Status.REVEALED)
        msg = f"show {', '.join(c.name for c in s.counters)} ({s.id}) in {s.location}: revealed"
    p.put_stack(new)
    return Outcome((p.event("reveal"),), (), msg)


def run_place(state: State, req: PlaceRequest, config: Config) -> Outcome:
    """Place an allotted dummy HIP counter (3.1, 4.1) or dummy minefield (4.6.1) at set-up."""
    if state.phase != SETUP:
        raise RuleViolation("O'Leary 3.1", "dummy counters are placed at set-up")
    side = side_named(state, req.side)
    loc = req.location
    parse_hex_id(loc)
    state.layout.hex(loc)
    a = state.allotment(side)
    p = BoardChanges()
    if req.name and _taken(state, req.name):
        raise BadRequest(f"{req.name!r} is taken: choose another name")
    if req.kind == "dummy_hip":
        if a.dummy_hip_placed >= a.dummy_hip:
            raise RuleViolation(
                "O'Leary 3.1.1", f"{side} has placed all {a.dummy_hip} allotted dummy HIP counters"
            )
        # readable by default: named after its hex (X4O8, then X4O8b ...), as the player says it
        sid, serial = _readable(state, req.name or f"X{loc}"), state.serial
        p.put_stack(Stack(sid, side, loc, Status.DUMMY_HIP, dummies=1, position=req.position))
        p.allot(side, dummy_hip=1).set("serial", serial)
        msg = f"dummy HIP counter {sid} in {loc} ({a.dummy_hip_placed + 1} of {a.dummy_hip})"
    else:
        if a.dummy_minefields_placed >= a.dummy_minefields:
            raise RuleViolation(
                "O'Leary 4.6.1",
                f"{side} has placed all {a.dummy_minefields} allotted dummy minefields",
            )
        there = next((m.id for m in state.minefields if m.location == loc), None)
        if there is not None:
            # 4.6.1, 4.6.2: a dummy minefield is another location the mines may be in; one
            # beside a minefield counter hides nothing and exchanges nothing (reading A47)
            raise RuleViolation(
                "O'Leary 4.6.1",
                f"{loc} already holds minefield {there}: a dummy minefield goes where no"
                " minefield counter is (reading A47)",
            )
        mid, serial = _readable(state, req.name or f"M{loc}"), state.serial
        p.put_mine(Minefield(mid, side, loc, dummy=True))
        p.allot(side, dummy_minefields=1).set("serial", serial)
        n = a.dummy_minefields_placed + 1
        msg = f"dummy minefield {mid} in {loc} ({n} of {a.dummy_minefields})"
    return Outcome((p.event("place"),), (), msg)


def run_location(state: State, req: LocationRequest, config: Config | None = None) -> Outcome:
    """The player states facts of a location: TEM, terrain, enemy LOS, LV, Concealment Terrain,
    fortification kinds that could not be set up there. A terrain kind of the data's
    ``[terrain_tem]`` stated without a TEM brings its TEM (issue 24 item 10); a terrain stated
    without ``concealment_terrain`` is Concealment Terrain unless ``[terrain_concealment]``
    says otherwise (open ground, 2.4, reading A41)."""
    lid = req.id
    parse_hex_id(lid)
    state.layout.hex(lid)
    loc = state.location(lid)
    upd: dict[str, Any] = {}
    for k in ("tem", "terrain", "los", "lv", "concealment_terrain"):
        v = getattr(req, k)
        if v is not None:
            upd[k] = v
    cfg = config or state.config
    kinds = cfg.terrain_tem
    if req.tem is None and req.terrain is not None and req.terrain in kinds:
        upd["tem"] = int(kinds[req.terrain])
    hidden = cfg.terrain_concealment
    if req.concealment_terrain is None and req.terrain is not None:
        # 2.4: open ground is no Concealment Terrain; another terrain stated is, unless said
        # (reading A41)
        upd["concealment_terrain"] = bool(hidden.get(req.terrain, True))
    if req.forbid is not None:
        for k in req.forbid:
            if k not in FORTIFICATION_KINDS:
                raise BadRequest(f"unknown fortification kind {k!r}")
        upd["forbid"] = tuple(req.forbid)
    new = replace(loc, **upd)
    return Outcome(
        (BoardChanges().put_location(new).event("location"),), (), f"{lid}: {_loc_text(new)}"
    )


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


def run_fort(state: State, req: FortRequest) -> Outcome:
    """Record a fortification's CA (4.4), its cave complex (4.4.1) or a tunnel's exit (4.4.2)."""
    f = state.fortification(req.id)
    if f is None:
        raise BadRequest(f"no fortification {req.id!r}")
    if req.ca is None and req.complex is None and req.exit is None and req.occupant is None:
        # (an empty 'ca=' is an omitted field: nothing to record, and nothing is logged)
        raise BadRequest(
            f"{f.words} {f.id}: give what to record: ca=, complex=, exit= or occupant="
        )
    upd: dict[str, Any] = {}
    play = state.phase != "setup"
    inside = occupant(state, f, req.occupant) if req.occupant is not None else None
    if req.ca is not None:
        check_ca(state, f)
        if f.hidden and f.ca and req.ca != f.ca and play and f.id not in state.reorient:
            # 3.2.2: HIP units do not change CA conventionally; 4.2: a hidden fortification is
            # their equivalent "in every respect"; 4.4: it chooses its CA after a shift
            raise RuleViolation(
                "O'Leary 3.2.2",
                f"{f.words} {f.id} is hidden: its CA ({f.ca}) changes only with a shift (4.2,"
                " 4.4): chosen right after a shift that moves it, or given with the shift (its"
                " ca, with itself or with another location)",
            )
        upd["ca"] = req.ca
    if req.complex is not None:
        if f.kind != "cave":
            raise BadRequest("only caves belong to cave complexes")
        if play and f.complex and req.complex != f.complex and f.side not in state.reform:
            # set up by the scenario (ASL G11); 4.4.1: modified "immediately" after a cave of
            # its side shifts, before anything else is done (reading A40)
            raise RuleViolation(
                "O'Leary 4.4.1",
                f"cave {f.id} is in cave complex {f.complex}: a cave complex changes only right"
                " after a cave of its side shifts, before anything else is done",
            )
        upd["complex"] = req.complex
    if req.exit is not None:
        if f.kind != "tunnel":
            raise BadRequest("only tunnels have exits")
        state.layout.hex(req.exit)
        if play and f.exit and req.exit != f.exit and f.id not in state.reroute:
            # set up with the scenario (ASL B8.6); 4.4.2: chosen again after a shift of either
            # end: the fortified end's clears it (hip._exchange), a fortification shifting
            # away from the exit opens it (fold.reform) (reading A40)
            raise RuleViolation(
                "O'Leary 4.4.2",
                f"tunnel {f.id} exits in {f.exit}: its exit changes only right after a shift"
                " of either end",
            )
        upd["exit"] = req.exit
    new = replace(f, **upd)
    said = ", ".join(f"{k} {v}" for k, v in upd.items())
    changes = BoardChanges().put_fort(new)
    if inside is not None:
        changes.put_stack(inside)
        said += (", " if said else "") + f"{inside.id} is in it"
    return Outcome((changes.event("fort"),), (), f"{f.words} {f.id}: {said or 'nothing new'}")


def occupant(state: State, f: Fortification, ref: str) -> Stack:
    """O'Leary 4.4: right after a shift moved ``f`` (``State.rehouse``, reading A46), a stack
    of its side in its new location may be taken to be in (above, beneath) it."""
    s = find_stack(state, ref)
    if f.id not in state.rehouse:
        raise RuleViolation(
            "O'Leary 4.4",
            f"{s.id} may be taken to be in {f.words} {f.id} only right after a shift moved it"
            " there, before anything else is done (or with the shift: into_fort=, occupants=)",
        )
    if s.location != f.location or s.side != f.side:
        raise BadRequest(f"{s.id} is not a stack of {f.side} in {f.location}")
    return replace(s, position=f.kind)


#: a vehicle's or Gun's settings as ``settle`` writes them: each part's head, in order
SETTING_HEADS = ("CA ", "VCA ", "TCA ", "CE", "BU")


def settings_text(old: str, parts: Mapping[str, str]) -> str:
    """A counter's settings text with the parts given (head -> its text: ``{"VCA ": "VCA
    facing 4P4", "CE": "BU"}``) in place of the old ones; the player's other words kept."""
    kept = [p.strip() for p in old.split(",") if p.strip()]
    out = []
    for p in kept:
        head = next((h for h in SETTING_HEADS if p.startswith(h)), None)
        if head in ("CE", "BU"):
            head = "CE"
        if head is None or head not in parts:
            out.append(p)
    return ", ".join([*out, *(v for v in parts.values() if v)])


def run_settle(state: State, req: SettleRequest) -> Outcome:
    """O'Leary 2.3: right after a shift exchanged it (``State.resettle``, reading A46), a
    vehicle chooses its VCA, TCA and CE/BU status, a Gun its CA and, if it was allowed to
    emplace at the start of the scenario, whether it is emplaced. Later in play a HIP unit's CA
    does not change (3.2.2: it shifts instead) and no Gun becomes emplaced; the arcs of other
    units are the player's own record of the ASL rules (5.2)."""
    hit = counter_named(state, req.id)
    if hit is None:
        raise BadRequest(f"no counter {req.id!r}")
    s, c = hit
    if c.kind not in ("vehicle", "gun"):
        raise BadRequest(f"{c.name} ({c.id}) is no vehicle or Gun: nothing to settle (2.3)")
    if req.ca is None and req.tca is None and req.ce is None and req.emplaced is None:
        raise BadRequest(f"{c.name}: give what to record: ca=, tca=, ce= or emplaced=")
    if c.kind != "vehicle" and (req.tca is not None or req.ce is not None):
        raise BadRequest(f"{c.name} is a Gun: it has a CA, no TCA or CE/BU status")
    if c.kind != "gun" and req.emplaced is not None:
        raise BadRequest(f"{c.name} is a vehicle: only Guns are emplaced (2.3)")
    now = c.id in state.resettle or state.phase == SETUP
    if req.emplaced is not None and req.emplaced != c.emplaced:
        if not now:
            raise RuleViolation(
                "O'Leary 2.3",
                f"{c.name} may be considered emplaced only right after a shift, before anything"
                " else is done",
            )
        if req.emplaced and not c.may_emplace:
            raise RuleViolation(
                "O'Leary 2.3",
                f"{c.name} was not allowed to emplace at the start of the scenario",
            )
    arcs = req.ca is not None or req.tca is not None or req.ce is not None
    if arcs and not now and s.status in HIP_KINDS:
        raise RuleViolation(
            "O'Leary 3.2.2",
            f"{c.name} is HIP: it changes its CA only by a shift (chosen right after it, 2.3)",
        )
    parts: dict[str, str] = {}
    if req.ca is not None:
        parts["CA " if c.kind == "gun" else "VCA "] = (
            f"{'CA' if c.kind == 'gun' else 'VCA'} {req.ca}"
        )
        if c.kind == "vehicle" and req.tca is None:
            parts["TCA "] = f"TCA {req.ca}"
    if req.tca is not None:
        parts["TCA "] = f"TCA {req.tca}"
    if req.ce is not None:
        parts["CE"] = req.ce
    new = replace(c, settings=settings_text(c.settings, parts) if parts else c.settings)
    if req.emplaced is not None:
        new = replace(new, emplaced=req.emplaced)
    said = [v for v in parts.values()]
    if req.emplaced is not None:
        said.append("emplaced" if req.emplaced else "not emplaced")
    stack = replace(s, counters=tuple(new if x.id == c.id else x for x in s.counters))
    return Outcome(
        (BoardChanges().put_stack(stack).event("settle"),),
        (),
        f"{c.name} ({c.id}) in {s.location}: {', '.join(said)}",
    )


#: the statuses of the stacks that pair in :func:`shift_candidates`
_PAIRING = frozenset((*DUMMY_KINDS, Status.CLOAKED))


def shift_candidates(state: State, side: str) -> list[tuple[str, str, str]]:
    """(a, b, kind) of every shift a side could name now (legality not yet checked)."""
    mine = [s for s in state.stacks if s.side == side]
    # only these stacks pair (every other status meets none of the tests below): the same
    # pairs in the same order
    pairing = [s for s in mine if s.status in _PAIRING]
    pairs: list[tuple[str, str, str]] = []
    for i, a in enumerate(pairing):
        for b in pairing[i:]:
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
    return pairs


def run_legal(
    state: State, req: LegalRequest, config: Config, tables: Mapping[str, Table]
) -> Outcome:
    """Query: the shifts a side may try now, each with the chance it is allowed. Never raises."""
    sides = [side_named(state, req.side)] if req.side is not None else list(state.sides)
    out: list[dict[str, Any]] = []
    lines: list[str] = []
    for side in sides:
        for ra, rb, kind in shift_candidates(state, side):
            try:
                sreq = ShiftRequest(a=ra, b=rb, kind=kind, side=side)  # type: ignore[arg-type]
                plan = plan_shift(state, sreq, config, tables)
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
