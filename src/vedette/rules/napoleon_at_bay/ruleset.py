"""Napoleon At Bay on the referee protocol: typed requests, typed events folded by the core,
fixings owed from the moment a moving force enters a ZOC (Herman (1)), and the odds of a
whole fixing (the roll, then the tie-break) computed by the core from ``resolve``.

Procedures: ``move`` (path-aware: a given hex path or the cheapest one; never through an
enemy-occupied hex; every ZOC entered is recorded and, by default, the move stops at the first
one), ``fix`` (Herman (1)-(4)), ``candidates`` (query), ``end_movement`` (Herman (5): refused
while a fixing is owed, unless waived), ``end_combat``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from vedette.dice.check import Check, Odds, OddsRow
from vedette.dice.roll import AnyRoll
from vedette.dice.sources import DiceSource, begin_attempt, reject_attempt
from vedette.dice.tables import Row, Table
from vedette.errors import BadRequest, DataError, RuleViolation, VedetteError
from vedette.referee import Procedure, procedure_table
from vedette.rules.base import LazyModel, Outcome, Ruleset
from vedette.rules.evolve import evolve as replace
from vedette.rules.napoleon_at_bay import fixing as fx
from vedette.rules.napoleon_at_bay.events import (
    Change,
    Fixed,
    Moved,
    PhaseChanged,
    Substituted,
)
from vedette.rules.napoleon_at_bay.flow import FLOW, SEQ
from vedette.rules.napoleon_at_bay.model import (
    DATA_PACKAGE,
    NabState,
    Piece,
    load_map,
    load_pieces,
    make_config,
    occupancy_of,
    side_columns,
    side_columns_changed,
)
from vedette.rules.napoleon_at_bay.reach import enemy_zocs, move_targets, move_tries, path_to
from vedette.rules.napoleon_at_bay.requests import (
    CandidatesRequest,
    EndCombatRequest,
    EndMovementRequest,
    FixRequest,
    MoveRequest,
)
from vedette.rules.napoleon_at_bay.simplay import NabSim
from vedette.rules.pmap import PMap
from vedette.rules.protocol import (
    DomainEvent,
    GameOutcome,
    Obligation,
    Plan,
    Todo,
    chances,
)
from vedette.rules.simulation import SimPlay

if TYPE_CHECKING:
    from vedette.rules.editor import Editor


class _Details:
    """Typed outcome details, readable as a mapping too (``details["chosen"]``)."""

    def __getitem__(self, key: str) -> Any:
        try:
            return getattr(self, key)
        except AttributeError:
            raise KeyError(key) from None

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key, default)


# -- state -------------------------------------------------------------------------------------
def initial_state(
    data: Mapping[str, Any], scenario: Mapping[str, Any], options: Mapping[str, Any]
) -> NabState:
    config = make_config(data, scenario, options)
    hexmap = load_map(data, scenario)
    sides = {str(k): str(v) for k, v in dict(scenario.get("sides", {})).items()}
    if len(sides) < 2:
        raise DataError("scenario [sides]", 'two sides are needed, e.g. Fr = "French"')
    sc = dict(scenario.get("scenario", {}))
    first = str(sc.get("first", next(iter(sides))))
    if first not in sides:
        raise DataError("scenario [scenario]", f"first side {first!r} is not a side")
    order = (first, *[s for s in sides if s != first])
    pieces = load_pieces(scenario, hexmap, config, sides)
    occupancy = occupancy_of(pieces)
    st = NabState(
        map=hexmap,
        config=config,
        title=str(sc.get("title", "Napoleon At Bay")),
        sides=sides,
        order=order,
        pieces=PMap(pieces),
        occupancy=PMap(occupancy, ordered=False),
        columns=side_columns(hexmap, pieces),
        turn=int(sc.get("turn", 1)),
        phasing=first,
    )
    return _unfix(st)


def _with_pieces(state: NabState, changed: Sequence[Piece], **kw: Any) -> NabState:
    """The state with ``changed`` pieces put in (each leaves its hexes' occupants and joins
    its new ones at the end); the maps share everything else with ``state``'s. The occupants
    of each hex touched are worked out first and only those that differ are put in (a piece
    changed in place, as at the start of a movement phase, changes no hex). A hex a side has
    newly a piece in, or none left, joins or leaves that side's index (``columns``, if kept)."""
    pieces = _pmap(state.pieces, ordered=True)
    occ = _pmap(state.occupancy, ordered=False)
    was: dict[str, tuple[str, ...]] = {}  # hex -> its occupants before, for each hex touched
    now: dict[str, tuple[str, ...]] = {}  # and after
    for p in changed:
        pid = p.id
        for h in pieces[pid].hexes:
            if h not in now:
                now[h] = was[h] = occ.get(h, ())
            ids = now[h]
            now[h] = () if ids == (pid,) else tuple([x for x in ids if x != pid])
        pieces = pieces.set(pid, p)
    for p in changed:
        for h in p.hexes:
            if h not in now:
                now[h] = was[h] = occ.get(h, ())
            now[h] = (*now[h], p.id)
    # side -> (the hexes where it now has a piece, those where it no longer has one), for the
    # index of each side's hexes (a game that keeps one)
    sides: dict[str, tuple[list[str], list[str]]] = {}
    cols = state.columns
    # (a hex newly held or emptied: only the changed pieces' sides)
    side_of = {p.id: p.side for p in changed} if cols is not None else {}
    for h, ids in now.items():
        before = was[h]
        if ids == before:
            continue
        occ = occ.set(h, ids) if ids else occ.discard(h)
        if cols is None:
            continue
        if before and ids:  # occupants changed, the hex still held: did a side come or go?
            there = {pieces[x].side for x in before}
            here = {pieces[x].side for x in ids}
            for s in here - there:
                sides.setdefault(s, ([], []))[0].append(h)
            for s in there - here:
                sides.setdefault(s, ([], []))[1].append(h)
        else:  # a hex newly held or left empty: the sides of the pieces that came or left
            k = 0 if ids else 1
            for x in ids or before:
                side = side_of[x]
                change = sides.get(side)
                if change is None:
                    change = sides[side] = ([], [])
                change[k].append(h)
    if sides and cols is not None:
        cols = side_columns_changed(state.map, cols, sides)
    return replace(state, pieces=pieces, occupancy=occ, columns=cols, **kw)


def _pmap(m: Mapping[str, Any], ordered: bool) -> PMap[str, Any]:
    return m if isinstance(m, PMap) else PMap(m, ordered=ordered)


def _unfix(state: NabState) -> NabState:
    """Herman (2): a fixed force stays fixed only while it remains adjacent to an enemy
    force."""
    free = [
        replace(p, fixed=False)
        for p in state.pieces.values()
        if p.fixed and not fx.adjacent_to_enemy(state, p)
    ]
    return _with_pieces(state, free) if free else state


def _unfix_near(state: NabState, before: NabState, changed: Sequence[str]) -> NabState:
    """:func:`_unfix` where it can change anything: a fixed force can lose its last adjacent
    enemy only if one left a hex next to it, so only the changed forces and the forces next to
    where they stood are looked at (the same forces, in the same order, as a scan of all)."""
    if len(state.pieces) <= 64:  # a scan of a few pieces is cheaper than the neighbourhood
        return _unfix(state)
    m = state.map
    occ = state.occupancy
    near = set(changed)
    for pid in changed:
        old = before.pieces.get(pid)
        for h in old.hexes if old is not None else ():
            for n in m.neighbors(h):
                near.update(occ.get(n, ()))
    pieces = state.pieces
    rank = pieces.rank if isinstance(pieces, PMap) else list(pieces).index
    free = [
        replace(p, fixed=False)
        for p in (pieces[i] for i in sorted(near, key=rank))
        if p.fixed and not fx.adjacent_to_enemy(state, p)
    ]
    return _with_pieces(state, free) if free else state


def owed_id(moving: str, contact: str) -> str:
    return f"fix:{moving}:{contact}"


#: Herman (5): the combat phase follows "after all movement and 'fixing' of forces is
#: complete"; end_movement refuses an owed fixing itself, citing (5) and naming the forces
R5 = "Herman (5)"


def combat_rule(state: NabState) -> str:
    """The rule that puts combat after movement: Herman (5) in the final text; the first draft
    has no such rule (its only word on the phase is "continue the phase", after a fixing
    roll of 1-3), so there it is the series' own sequence of play."""
    return SEQ if state.config.variant == "draft" else R5


def _combat_words(state: NabState) -> str:
    """:func:`combat_rule` as the answers word it ("Herman 5": the words of release 0.2's logs)."""
    return "its sequence of play" if state.config.variant == "draft" else "Herman 5"


#: what an owed fixing blocks (the core's check, citing the fixing's rule): every procedure
#: but end_movement, which judges it under Herman (5) (plan_end_movement), and the queries
OWED_BLOCKS = ("move", "fix", "end_combat")


def _owe(state: NabState, moving: Piece, contact: Piece) -> Obligation:
    return Obligation(
        owed_id(moving.id, contact.id),
        "fix",
        {"moving": moving.id, "contact": contact.id},
        fx.DRAFT if state.config.variant == "draft" else fx.R1,
        f"the fixing of {contact.id} ({contact.name}), whose ZOC {moving.id} entered",
        blocks=OWED_BLOCKS,
    )


def _discharge(state: NabState, moving: str, contact: str) -> tuple[Obligation, ...]:
    oid = owed_id(moving, contact)
    return tuple(o for o in state.owed if o.id != oid)


def _lapse_fixed(state: NabState) -> NabState:
    """Herman (2): a fixing still owed whose contact force a fixing has just fixed (a move into
    two ZOCs: one contact force was the other's supporting force) lapses: that force's location
    is fixed, it cannot be substituted, and nothing is left for the die to decide. Reading A24:
    with ``owed_fixing_lapses`` false (release 0.2's way) it is still owed and rolled."""
    if not state.config.owed_fixing_lapses:
        return state
    keep = tuple(o for o in state.owed if not state.pieces[str(o.request["contact"])].fixed)
    return replace(state, owed=keep) if len(keep) != len(state.owed) else state


def fold_moved(state: NabState, e: Moved) -> NabState:
    p = state.pieces[e.force]
    # Herman (2): fixed "while it remains adjacent to an enemy force" (a move that ends next to
    # none frees it, below); reading A21: with moving_keeps_fixed = false its own move frees it
    fixed = p.fixed and state.config.moving_keeps_fixed
    came = tuple(e.from_) + tuple(e.path[1:-1])  # where it began, then its path (Herman (1))
    q = replace(p, hexes=tuple(e.to), march=e.march, came_from=came, fixed=fixed)
    owed = state.owed
    if e.owed:
        owed += tuple(_owe(state, q, state.pieces[c]) for c in e.owed if c in state.pieces)
    moved = state.moved if p.id in state.moved else state.moved | {p.id}
    legacy = state.legacy | {p.id} if e.legacy else state.legacy
    st = _with_pieces(state, [q], moving=p.id, moved=moved, owed=owed, legacy=legacy)
    return _unfix_near(st, state, [p.id])


def fold_fixed(state: NabState, e: Fixed) -> NabState:
    p = state.pieces[e.force]
    last = {
        "moving": e.moving,
        "contact": e.contact,
        "force": e.force,
        "result": e.result,
        "variant": e.variant,
        "repulse": e.repulse,
    }
    st = _with_pieces(
        state,
        [replace(p, fixed=True)],
        last=last,
        owed=_discharge(state, e.moving, e.contact),
    )
    return _lapse_fixed(_unfix_near(st, state, [p.id]))


def fold_substituted(state: NabState, e: Substituted) -> NabState:
    changed = []
    for c in e.changes:
        p = state.pieces[c.force]
        changed.append(replace(p, hexes=tuple(c.to), fixed=bool(e.fixed.get(p.id, p.fixed))))
    last = {
        "moving": e.moving,
        "contact": e.contact,
        "support": e.support,
        "variant": e.variant,
        "repulse": e.repulse,
        "changes": [{"force": c.force, "from": list(c.from_), "to": list(c.to)} for c in e.changes],
        "fixed": dict(e.fixed),
    }
    st = _with_pieces(state, changed, last=last, owed=_discharge(state, e.moving, e.contact))
    return _lapse_fixed(_unfix_near(st, state, [p.id for p in changed]))


def fold_phase(state: NabState, e: PhaseChanged) -> NabState:
    if e.phase == "movement":
        cleared = [replace(p, march=None, came_from=()) for p in state.pieces.values() if p.march]
        st = _with_pieces(
            state,
            cleared,
            phase="movement",
            phasing=e.phasing,
            turn=e.turn,
            moving=None,
            moved=frozenset(),
            legacy=frozenset(),
            owed=(),
        )
    else:
        st = replace(state, phase="combat", moving=None, owed=())
    return _unfix(st)


FOLDS: dict[type[Any], Any] = {
    Moved: fold_moved,
    Fixed: fold_fixed,
    Substituted: fold_substituted,
    PhaseChanged: fold_phase,
}


def apply_event(state: NabState, event: Any) -> NabState:
    """Fold one event (typed, or a legacy ``Event`` decoded through the registry)."""
    if not isinstance(event, DomainEvent):
        event = RULESET.decode(event.to_json())
    f = FOLDS.get(type(event))
    if f is None:
        raise ValueError(f"unknown napoleon_at_bay event {event!r}")
    return f(state, event)  # type: ignore[no-any-return]


# -- helpers -----------------------------------------------------------------------------------
def _norm(state: NabState, key: str, hexes: Sequence[str]) -> tuple[str, ...]:
    if not hexes:  # 'to=' typed empty: the field is named, not a count of hexes
        raise BadRequest(f"'{key}' is empty: give at least one hex (W2020)")
    digits = 2 * state.map.id_format.digits
    out = []
    for h in hexes:
        s = str(h).strip().upper()
        # an id without a letter ("0101") may arrive as a number from the shell
        if s.isdigit():
            s = s.zfill(digits)
        if s not in state.map:
            raise BadRequest(f"'{key}': hex {s} is not on the map")
        out.append(s)
    return tuple(out)


def _enemy_zocs(state: NabState, side: str) -> list[tuple[Piece, set[str]]]:
    return enemy_zocs(state, side)


def _fixable(state: NabState, moving: Piece, contact: Piece) -> str | None:
    try:
        fx.check_eligible(state, moving.id, contact.id)
    except RuleViolation as e:
        return str(e)
    return None


# -- move --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MovePlan(_Details):
    piece: Piece
    to: tuple[str, ...]
    path: tuple[str, ...]
    mp: Fraction
    entered: tuple[str, ...]  # contact forces whose ZOC the move enters, in path order
    owed: tuple[str, ...]  # of those, the ones a fixing is owed for (eligible at entry)
    why_not: Mapping[str, str]


def _back_into(p: Piece, zone: set[str], path: Sequence[str]) -> str | None:
    """Readings A8, A23: the hex where the lead's ``path`` comes back into ``zone`` after
    leaving it (a hex on the way out of it counts as left), when ``p`` began in that zone;
    else None. The start is not on the way (a multi-hex force may begin with its lead
    outside a zone another component stands in)."""
    if not set(p.hexes) & zone:
        return None
    left = False
    for i, h in enumerate(path[1:], start=1):
        if left and h in zone:
            return h
        if i < len(path) - 1 and h not in zone:
            left = True
    return None


def plan_move(state: NabState, r: MoveRequest) -> Plan:
    p = state.piece(r.force)
    to = _norm(state, "to", r.to)
    if state.phase != "movement":
        raise RuleViolation(
            SEQ, f"pieces move in the movement phase (now: combat, {_combat_words(state)})"
        )
    if p.side != state.phasing:
        raise RuleViolation(
            SEQ, f"{p.id} is {state.side_name(p.side)}: it is not its movement phase"
        )
    if p.id in state.moved and state.config.one_move_per_phase:
        raise RuleViolation(
            SEQ,
            f"{p.id} ({p.name}) has moved this phase: a force moves once in its movement phase"
            " (option one_move_per_phase, A22)",
        )
    if len(to) == 1 < len(p.hexes):
        # one hex for a multi-hex force (a drag on the board): the lead component goes there,
        # the others into touching hexes, the first legal array (the one todo offers for it)
        arrays = fx._polyhexes(state, to, len(p.hexes), fx._free_for(state, p, {p.id}))
        to = arrays[0] if arrays else to
    if len(to) != len(p.hexes) or len(set(to)) != len(to):
        raise BadRequest(f"{p.id} occupies {len(p.hexes)} hex(es): give as many distinct hexes")
    for i, h in enumerate(to[1:], start=1):
        if not any(state.map.adjacent(h, x) for x in to[:i]):
            raise BadRequest(f"the hexes of a multi-hex force must touch ({h})")
    if set(to) == set(p.hexes):
        # a "move" to where the force stands moves nothing and spends nothing: not a move
        raise BadRequest(f"{p.id} ({p.name}) is already in {','.join(to)}: move it to another hex")
    free = fx._free_for(state, p, {p.id})
    for h in to:
        if not state.map.passable(h):
            raise RuleViolation(
                "terrain", f"{h} is impassable ({state.map.terrain[state.map.index(h)]})"
            )
        if not free(h):
            raise RuleViolation(SEQ, f"{h} holds an enemy piece or a full stack")
    m = state.map
    zocs = _enemy_zocs(state, p.side) if state.is_force(p) else []
    start = p.hexes[0]
    if r.path:
        enemy_hexes = {h for q in state.pieces.values() if q.side != p.side for h in q.hexes}
        # a ZOC the piece starts in is not entered (Herman (1)); the others stop it
        stops = {h for q, z in zocs if not set(p.hexes) & z for h in z}
        path = _norm(state, "path", r.path)
        if path[0] != start or path[-1] != to[0]:
            raise BadRequest(f"'path' must run from {start} (where {p.id} is) to {to[0]}")
        for a, b in itertools.pairwise(path):
            if not m.adjacent(a, b):
                raise BadRequest(f"'path': {a} and {b} are not adjacent")
        for h in path[1:-1]:
            if h in enemy_hexes:
                raise RuleViolation(SEQ, f"the path passes through {h}, which holds an enemy piece")
        for h in path[1:-1]:
            if state.config.stop_at_zoc and h in stops:
                raise RuleViolation(
                    SEQ,
                    f"{p.id} enters an enemy ZOC at {h} and stops there"
                    " (option stop_at_zoc); it cannot go on to " + to[0],
                )
        if state.config.stop_at_zoc:
            for q, z in zocs:
                back = _back_into(p, z, path)
                if back is not None and back != path[-1]:
                    raise RuleViolation(
                        SEQ,
                        f"{p.id} leaves the ZOC of {q.id} ({q.name}) and comes back into it at"
                        f" {back}, entering it: it stops there (option stop_at_zoc, A23); it"
                        f" cannot go on to {to[0]}",
                    )
        ticks = m.path_ticks([m.index(h) for h in path])
        if ticks is None:
            raise RuleViolation("terrain", f"{p.id} cannot move along {','.join(path)}")
    else:
        found = path_to(state, p, to[0])
        if found is None:
            why = (
                " without passing through an enemy piece or going on from an enemy ZOC"
                if state.config.stop_at_zoc
                else " without passing through an enemy piece"
            )
            raise RuleViolation(SEQ, f"no path for {p.id} from {start} to {to[0]}{why}")
        ticks, path = found
    # every ZOC entered along the path, and where the move ends
    after_hexes = set(to)
    entered: list[str] = []
    for q, z in zocs:
        if set(p.hexes) & z:
            # a ZOC the move began in is entered only if the move leaves it and comes back into
            # it, on the way or where it ends (Herman (1); readings A8, A23)
            back = _back_into(p, z, path)
            if back is not None or (z & after_hexes and any(h not in z for h in path[1:-1])):
                entered.append(q.id)
            continue
        if z & set(path[1:]) or z & after_hexes:
            entered.append(q.id)
    moved = replace(p, hexes=to, march=r.march, came_from=p.hexes + tuple(path[1:-1]))
    # the state after the move, to judge each contact force entered (only when there is one)
    after = (
        _with_pieces(state, [moved], moving=p.id, moved=state.moved | {p.id}) if entered else state
    )
    owed: list[str] = []
    why_not: dict[str, str] = {}
    already = {o.id for o in state.owed}
    for cid in entered:
        q = after.pieces[cid]
        if not set(to) & fx.zoc_of(after, q):
            why_not[cid] = "the move passes through its ZOC without stopping (stop_at_zoc=false)"
            continue
        reason = _fixable(after, moved, q)
        if reason is None and owed_id(p.id, cid) not in already:
            owed.append(cid)
        elif reason is not None:
            why_not[cid] = reason
    return Plan(
        r,
        data=MovePlan(p, to, path, m.mp(ticks), tuple(entered), tuple(owed), why_not),
    )


def resolve_move(state: NabState, plan: Plan, dice: DiceSource) -> Outcome:
    r: MoveRequest = plan.request
    mp: MovePlan = plan.data
    p = mp.piece
    ev = Moved(p.id, p.hexes, mp.to, r.march, str(mp.mp), mp.path, mp.entered, mp.owed)
    verb = "force marches" if r.march == "force" else "moves"
    via = f" via {','.join(mp.path[1:-1])}" if len(mp.path) > 2 else ""
    lines = [f"{p.id} ({p.name}) {verb} {','.join(p.hexes)} -> {','.join(mp.to)}{via} ({mp.mp} MP)"]
    said = lines[:]  # the lines as release 0.2 worded them
    zoc = []
    for cid in mp.entered:
        q = state.pieces[cid]
        owed = cid in mp.owed
        zoc.append(
            {
                "force": q.id,
                "name": q.name,
                "hexes": list(q.hexes),
                "fixable": owed,
                "why_not": mp.why_not.get(cid),
            }
        )
        rule = fx.DRAFT if state.config.variant == "draft" else fx.R1
        entered = f"{p.id} enters the ZOC of {q.id} ({q.name}, {','.join(q.hexes)})"
        if owed:
            # the fixing named as the player's next step (the todo offers it, with its command)
            lines.append(f"{entered}: the fixing of {q.id} is owed now ({rule})")
            # release 0.2's words: a command that is neither the command line's nor the web's
            said.append(f"{entered}: a fixing is owed now ('fix {p.id} {q.id}', {rule})")
        else:
            lines.append(f"{entered} (no fixing: {mp.why_not.get(cid, '')})")
            said.append(lines[-1])
    message, earlier = "; ".join(lines), "; ".join(said)
    return Outcome(
        (ev,),
        (),
        message,
        {"force": p.id, "mp": str(mp.mp), "path": list(mp.path), "zoc": zoc},
        result="moved",
        earlier=(earlier,) if earlier != message else (),
    )


# -- fix ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FixPlan:
    moving: Piece
    contact: Piece
    chosen: tuple[Piece, ...]  # the forces among which the die chooses (closest legal ones)
    check: Check | None  # the fixing roll (None: no roll, roll_without_candidates=false)
    owed: bool


@dataclass(frozen=True, slots=True)
class FixDetails(_Details):
    moving: str
    contact: str
    variant: str
    repulse: bool
    result: str  # stays | no_candidate | no_legal_candidate | substitution
    chosen: str | None = None
    drm_case: int | None = None
    drm_text: str | None = None
    roll: Mapping[str, Any] | None = None
    changes: list[dict[str, Any]] = field(default_factory=list)
    hexes: dict[str, Any] | None = None
    fixed: dict[str, bool] | None = None
    in_range: list[str] = field(default_factory=list)
    arrays: list[list[str]] = field(default_factory=list)
    contact_arrays: list[list[str]] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def plan_fix(state: NabState, r: FixRequest) -> Plan:
    owed = any(o.id == owed_id(r.moving, r.contact) for o in state.owed)
    if owed:
        # Herman (1): the fixing was judged eligible when the moving force entered the ZOC;
        # what happened since (another mover, a fixing elsewhere) does not take it away
        moving, contact = state.piece(r.moving), state.piece(r.contact)
        if r.repulse and moving.march != "force":
            raise RuleViolation(
                fx.DRAFT if state.config.variant == "draft" else fx.R1,
                f"{moving.id} is not force marching: only a force march repulses",
            )
    else:
        moving, contact = fx.check_eligible(state, r.moving, r.contact, r.repulse)
        if moving.id in state.legacy:
            return _fix_plan(state, r, moving, contact, owed)
        # Herman (1): the fixing is judged when the moving force enters the ZOC; one the move
        # did not owe then (an enemy force was in the contact force's ZOC), or one waived,
        # does not become due later because that enemy has moved away since
        raise RuleViolation(
            fx.DRAFT if state.config.variant == "draft" else fx.R1,
            f"no fixing of {contact.id} is owed for {moving.id}: it is judged when the moving"
            f" force enters the ZOC, and {moving.id}'s move did not owe it (or it was waived)",
        )
    return _fix_plan(state, r, moving, contact, owed)


def _fix_plan(state: NabState, r: FixRequest, moving: Piece, contact: Piece, owed: bool) -> Plan:
    chosen = tuple(fx.choosable(state, moving, contact))
    check = (
        fx.fixing_check(state, moving, contact)
        if chosen or state.config.roll_without_candidates
        else None
    )
    steps: tuple[Check, ...] = (check,) if check is not None else ()
    tie = tie_check(state, chosen)
    if tie is not None:
        steps = (*steps, tie)
    data = FixPlan(moving, contact, chosen, check, owed)
    plan = Plan(r, steps, data)
    return replace(plan, step_odds_fn=lambda: fix_odds(state, plan))


def tie_check(state: NabState, chosen: Sequence[Piece]) -> Check | None:
    draft = state.config.variant == "draft"
    n = len(chosen)
    if n < 2:
        return None
    tie_die = state.config.tie_die
    # the player's own d6 (4-5 forces), or with tie_die = "d10" a d10 (7-9 forces), re-rolled
    # above n: each face 1..n picks one force (no d5, d7, d9 needed)
    die = 6 if tie_die in ("d6", "d10") and n in (4, 5) else 0
    die = 10 if tie_die == "d10" and 7 <= n <= 9 else die
    if die:
        rows = (
            *tuple(
                Row(i + 1, i + 1, p.id, f"{p.name} ({p.id})", str(i + 1))
                for i, p in enumerate(chosen)
            ),
            Row(n + 1, die, "again", "roll again", f"{n + 1}-{die}"),
        )
        rule = fx.DRAFT if draft else fx.R1
        label = (
            "random supporting force" if draft else f"tie among {n} equally close forces"
        ) + f" (d{die}, re-rolled above {n})"
        return Check(f"1d{die}", (), Table("support", rows, label, rule), label, rule)
    return fx.tie_check(chosen, draft)


def resolve_fix(state: NabState, plan: Plan, dice: DiceSource) -> Outcome:
    r: FixRequest = plan.request
    fp: FixPlan = plan.data
    moving, contact, chosen = fp.moving, fp.contact, list(fp.chosen)
    cfg = state.config
    texts = cfg.texts
    base: dict[str, Any] = {
        "moving": moving.id,
        "contact": contact.id,
        "variant": cfg.variant,
        "repulse": r.repulse,
    }
    rolls: list[AnyRoll] = []
    line = ""
    case = None
    if fp.check is not None:
        # Herman (3): the player rolls a die
        case = fx.drm_case(state, moving, contact)
        roll = fp.check.resolve(dice)
        rolls.append(roll)
        line = fx.bare_line(roll)  # type: ignore[arg-type]
        if roll.row == "stays":
            msg = f"{line}, " + texts["text_stays"].format(contact=contact.name)
            ev = Fixed(moving.id, contact.id, contact.id, "stays", cfg.variant, r.repulse)
            return Outcome(
                (ev,),
                tuple(rolls),
                msg,
                FixDetails(
                    **base,
                    result="stays",
                    drm_case=case.number,
                    drm_text=case.text,
                    roll=roll.to_json(),
                    hexes={},
                    fixed={contact.id: True},
                ),
                result=f"{contact.id} stays, fixed",
            )
    if not chosen:
        # Herman (4): none in range, or none that can legally take the contact force's place
        # ("do something reasonable"): the contact force is fixed where it is
        in_range = tuple(p.id for p in fx.candidates_in_range(state, contact))
        result = "no_legal_candidate" if in_range else "no_candidate"
        msg = texts[f"text_{result}"].format(
            contact=contact.name, range=cfg.support_range, forces=", ".join(in_range)
        )
        if rolls:
            msg = f"{line}, {msg}"
            # the table's 4-6 text promises a substitution: say what really happens
            rolls[0] = replace(rolls[0], consequence=msg[len(line) + 2 :])
        ev = Fixed(moving.id, contact.id, contact.id, result, cfg.variant, r.repulse)
        return Outcome(
            (ev,),
            tuple(rolls),
            msg,
            FixDetails(
                **base,
                result=result,
                drm_case=case.number if case else None,
                drm_text=case.text if case else None,
                roll=rolls[0].to_json() if rolls else None,
                in_range=list(in_range),
                hexes={},
                fixed={contact.id: True},
            ),
            result=f"{contact.id} stays, fixed",
        )
    tie = tie_check(state, chosen)
    if tie is not None:
        while True:
            begin_attempt(dice)
            tr = tie.resolve(dice)
            rolls.append(tr)
            if tr.row != "again":
                break
            reject_attempt(dice)
        support = state.pieces[str(tr.row)]
    else:
        support = chosen[0]
    arrays = fx.support_arrays(state, moving, contact, support)
    notes = []
    sa = arrays[0]
    want_array = _norm(state, "array", r.array) if r.array else None
    want_contact = _norm(state, "contact_to", r.contact_to) if r.contact_to else None
    if want_array is not None:
        if want_array in arrays:
            sa = want_array
        else:
            notes.append(
                f"array {','.join(want_array)} is not legal for {support.id}; {','.join(sa)} used"
            )
    carr = fx.contact_arrays(state, contact, support, sa)
    ca = carr[0]
    if want_contact is not None:
        if want_contact in carr:
            ca = want_contact
        else:
            notes.append(
                f"{','.join(want_contact)} is not legal for {contact.id}; {','.join(ca)} used"
            )
    names = {"contact": contact.name, "support": support.name, "mover": moving.side}
    if len(sa) == 1:
        text = texts["text_switch"].format(**names)
    elif len(sa) == 2 and any(state.map.adjacent(sa[1], x) for x in moving.hexes):
        # the seed's row 4 wording names the other hex "adjacent to the Fr force": only when
        # it is (Herman (4): in the moving force's ZOC "if possible", else the owner's choice)
        text = texts["text_switch_multi"].format(hex=sa[0], other=sa[1], **names)
    else:
        text = texts["text_switch_many"].format(hexes=", ".join(sa), **names)
    changes = (
        Change(support.id, support.hexes, sa),
        Change(contact.id, contact.hexes, ca),
    )
    flags = {support.id: cfg.substitute_is_fixed, contact.id: False}
    sub = Substituted(moving.id, contact.id, support.id, changes, flags, cfg.variant, r.repulse)
    msg = f"{line}, {text}" + "".join(f" [{n}]" for n in notes)
    # every hex whose contents changed, with the pieces in it afterwards
    after = fold_substituted(state, sub)
    for o in state.owed:
        if o.id != owed_id(moving.id, contact.id) and o not in after.owed:
            c = state.pieces[str(o.request["contact"])]
            msg += (
                f" [{c.id} ({c.name}) is now fixed: the fixing of {c.id} owed by"
                f" {o.request['moving']} lapses ({fx.DRAFT if cfg.variant == 'draft' else fx.R2})]"
            )
    touched = sorted({h for c in changes for h in (*c.from_, *c.to)})
    hexes = {h: list(after.occupancy.get(h, ())) for h in touched}
    return Outcome(
        (sub,),
        tuple(rolls),
        msg,
        FixDetails(
            **base,
            result="substitution",
            chosen=support.id,
            drm_case=case.number if case else None,
            drm_text=case.text if case else None,
            roll=rolls[0].to_json() if rolls else None,
            changes=[{"force": c.force, "from": list(c.from_), "to": list(c.to)} for c in changes],
            hexes=hexes,
            fixed=flags,
            arrays=[list(a) for a in arrays],
            contact_arrays=[list(a) for a in carr],
            candidates=[p.id for p in chosen],
            notes=list(notes),
        ),
        result=f"{support.id} ({support.name}) substituted for {contact.id}",
    )


def fix_odds(state: NabState, plan: Plan) -> list[Odds]:
    """The odds shown before a fixing: the fixing roll (its own check), which force ends up in
    the contact hex (the core's enumeration of ``resolve``: no odds written by hand), and the
    tie roll when several forces are equally close."""
    fp: FixPlan = plan.data
    moving, contact = fp.moving, fp.contact

    class _Key:
        def __init__(self, out: Outcome) -> None:
            self.result = out.details["chosen"] or "stays"

    whole = chances(lambda d: _Key(resolve_fix(state, plan, d)))
    out: list[Odds] = []
    if fp.check is not None:
        out.append(fp.check.odds())
    else:
        out.append(
            Odds(
                "fixing",
                (
                    OddsRow(
                        "stays",
                        "no supporting force can be substituted: the contact force is fixed",
                        Fraction(1),
                    ),
                    OddsRow("substitution", "-", Fraction(0)),
                ),
                rule=fx.R4,
                note="no roll",
            )
        )
        return out
    ids = {p.id for p in fp.chosen}
    stays_text = f"{contact.name} ({contact.id}) stays, fixed" + (
        "" if ids else " (no supporting force can be substituted)"
    )
    rows = [OddsRow("stays", stays_text, whole.p("stays"))]
    for rk in fx.ranked_candidates(state, moving, contact):
        mp = "beyond the MP limit" if rk.mp is None else f"{rk.mp} MP"
        note = "" if rk.legal else ", cannot be placed"
        rows.append(
            OddsRow(
                rk.force.id,
                f"{rk.force.name} ({rk.force.id}), {mp}, {fx.hexes_text(rk.hexes_away)}{note}",
                whole.p(rk.force.id),
            )
        )
    out.append(
        Odds(
            "force found in the contact hex",
            tuple(rows),
            rule=fx.R4 if state.config.variant == "final" else fx.DRAFT,
        )
    )
    tie = plan.steps[1] if len(plan.steps) > 1 else None
    if tie is not None:
        t = tie.odds()
        if any(r.key == "again" for r in t.rows):
            # conditioned on not rolling again: each force equally likely
            keep = [r for r in t.rows if r.key != "again"]
            tot = sum((r.p for r in keep), Fraction(0))
            t = replace(t, rows=tuple(replace(r, p=r.p / tot) for r in keep))
        out.append(replace(t, note="rolled only on a substitution"))
    return out


# -- candidates (a query) -----------------------------------------------------------------------


def plan_candidates(state: NabState, r: CandidatesRequest) -> Plan:
    contact = state.piece(r.contact)
    moving = state.piece(r.moving) if r.moving else None
    draft = state.config.variant == "draft"
    for p, what in ((contact, "contact"), (moving, "moving")):
        if p is not None and not state.is_force(p):
            # Herman (3): "Garrison units, Bridge Trains, and Centers of Operation do not
            # constitute a force": no contact force, no moving force (the fixing's own check)
            raise RuleViolation(
                fx.DRAFT if draft else fx.R3,
                f"{p.id} ({p.name}) is a {p.kind}, not a force ({what})",
            )
    if moving is not None and moving.side == contact.side:
        raise RuleViolation(
            fx.DRAFT if draft else fx.R1, f"{contact.id} and {moving.id} are on the same side"
        )
    return Plan(r)


def resolve_candidates(state: NabState, plan: Plan, dice: DiceSource) -> Outcome:
    r: CandidatesRequest = plan.request
    contact = state.piece(r.contact)
    moving = state.piece(r.moving) if r.moving else None
    lines: list[str] = []
    rows: list[dict[str, Any]] = []
    eligible = None
    fplan = None
    if moving is not None:
        # the fixing's own plan says whether it may be made now (owed, or eligible in a legacy
        # game); its refusal is the answer (a waived fixing, or one the move did not owe)
        try:
            fplan = plan_fix(state, FixRequest(moving.id, contact.id))
        except RuleViolation as e:
            eligible = str(e)
    cands = fx.candidates_in_range(state, contact)
    for mp, tier in fx.mp_tiers(state, contact, cands):
        for p in tier:
            away = min(state.map.distance(a, b) for a in p.hexes for b in contact.hexes)
            arrays = fx.support_arrays(state, moving, contact, p) if moving is not None else []
            rows.append(
                {
                    "force": p.id,
                    "name": p.name,
                    "hexes": list(p.hexes),
                    "mp": None if mp is None else str(mp),
                    "hexes_away": away,
                    "arrays": [list(a) for a in arrays],
                }
            )
            mps = "beyond MP limit" if mp is None else f"{mp} MP"
            lines.append(f"{p.id} ({p.name}) at {','.join(p.hexes)}: {mps}, {fx.hexes_text(away)}")
    if not rows:
        lines.append(
            f"no supporting force within {state.config.support_range} hexes of {contact.id}"
        )
    odds: tuple[Odds, ...] = ()
    if fplan is not None:
        odds = tuple(fplan.step_odds())
        lines += [ln for o in odds for ln in o.lines()]
    elif eligible:
        lines.append(f"not eligible: {eligible}")
    return Outcome(
        (),
        (),
        "\n".join(lines),
        {"contact": contact.id, "candidates": rows, "eligible": eligible},
        odds,
    )


# -- the sequence of play ----------------------------------------------------------------------


def plan_end_movement(state: NabState, r: EndMovementRequest) -> Plan:
    if state.phase != "movement":
        raise RuleViolation(SEQ, "the movement phase is already over")
    if state.owed:
        # Herman (5): combat follows once "all movement and 'fixing' of forces is complete";
        # the fixing's own obligation leaves end_movement to this check (_owe)
        o = state.owed[0]
        moving, contact = (state.pieces[str(o.request[k])] for k in ("moving", "contact"))
        more = f" (and {len(state.owed) - 1} more)" if len(state.owed) > 1 else ""
        why = (
            f"movement ends once every fixing is done: {moving.id} ({moving.name}) entered the"
            f" ZOC of {contact.id} ({contact.name}) and its fixing is owed{more}"
        )
        raise RuleViolation(
            fx.DRAFT if state.config.variant == "draft" else R5,  # the draft has no rule (5)
            f"{why}: '{o.command()}' (or waive it: 'waive {o.id}')",
            web=f"{why}: do it, or waive it, from the Next panel",
        )
    return Plan(r)


def resolve_end_movement(state: NabState, plan: Plan, dice: DiceSource) -> Outcome:
    ev = PhaseChanged("combat", state.phasing, state.turn)
    fixed = [p.id for p in state.pieces.values() if p.fixed]
    msg = (
        f"combat phase of {state.side_name(state.phasing)}: resolve combat"
        f" with the series rules ({_combat_words(state)}); fixed: {', '.join(fixed) or 'none'}"
    )
    return Outcome((ev,), (), msg, {"fixed": fixed, "unfixed_contacts": []}, result="combat")


def plan_end_combat(state: NabState, r: EndCombatRequest) -> Plan:
    if state.phase != "combat":
        raise RuleViolation(SEQ, "end the movement phase first")
    return Plan(r)


def resolve_end_combat(state: NabState, plan: Plan, dice: DiceSource) -> Outcome:
    i = state.order.index(state.phasing)
    nxt = state.order[(i + 1) % len(state.order)]
    turn = state.turn + (1 if nxt == state.order[0] else 0)
    ev = PhaseChanged("movement", nxt, turn)
    return Outcome((ev,), (), f"turn {turn}: movement phase of {state.side_name(nxt)}")


END_MOVEMENT = "end_movement"


# -- rendering -------------------------------------------------------------------------------
def render(state: NabState) -> str:
    m = state.map
    cols = sorted({m.id_format.parse(h)[0] for h in m.ids})
    rows = sorted({m.id_format.parse(h)[1] for h in m.ids})
    w = 6
    out = [
        f"{state.title} - turn {state.turn}, {state.side_name(state.phasing)} "
        f"{state.phase} phase ({state.config.series} series, support range "
        f"{state.config.support_range} hexes, {state.config.variant} rules"
        # (an option a game imported from release 0.2 takes: A24)
        + ("" if state.config.owed_fixing_lapses else "; owed_fixing_lapses=false")
        + ")"
    ]
    out.append("    " + "".join(f"{c:^{w}}" for c in cols))

    def cell(h: str) -> str:
        if h not in m:
            return " " * w
        ids = state.occupancy.get(h, ())
        if ids:
            txt = "+".join(ids) + ("!" if any(state.pieces[i].fixed for i in ids) else "")
        else:
            txt = m.terrain_kinds[m.terrain[m.index(h)]].symbol
            if h in roads:
                txt += "="
        return f"{txt[: w - 1]:^{w}}"

    roads = {
        m.ids[i]
        for (a, b), feats in m.hexside_features.items()
        if any(m.hexside_kinds[f].road for f in feats)
        for i in (a, b)
    }

    shifted = 0 if m.convention.shifted == "even" else 1
    for r in rows:
        if m.convention.orientation == "flat":
            # shifted columns sit half a hex lower: print them on a second line
            for half in (1 - shifted, shifted):
                cells = [cell(m.id_format.format(c, r)) if c % 2 == half else " " * w for c in cols]
                prefix = f"{r:>3} " if half != shifted else "    "
                out.append((prefix + "".join(cells)).rstrip())
        else:
            indent = " " * (w // 2) if r % 2 == shifted else ""
            cells = [cell(m.id_format.format(c, r)) for c in cols]
            out.append((f"{r:>3} " + indent + "".join(cells)).rstrip())
    out.append(
        "terrain: "
        + ", ".join(f"{k.symbol} {k.name}" for k in m.terrain_kinds.values())
        + "; = road; ! fixed"
    )
    for o in state.owed:
        # as a player reads it, on the command line and the web's text view alike (todo and
        # the Next panel give the step: its command, its form)
        out.append(f"owed now: {o.text} ({o.rule})")
    for p in state.pieces.values():
        flags = []
        if p.fixed:
            flags.append("fixed")
        if p.march:
            flags.append(f"moved ({p.march} march)")
        units = []
        if p.infantry:
            units.append(f"{p.infantry} Inf")
        if p.cavalry:
            units.append(f"{p.cavalry} Cav")
        if p.vedettes:
            units.append(f"{p.vedettes} Vedette")
        units += p.generals
        kind = "" if p.kind == "force" else f" [{p.kind.replace('_', ' ')}]"
        where = ", ".join(m.label(h) for h in p.hexes)
        out.append(
            f"  {p.id:<4} {p.side} {p.name}{kind}: {where}; {', '.join(units) or '-'}"
            + (f" ({'; '.join(flags)})" if flags else "")
        )
    return "\n".join(out)


def state_json(state: NabState) -> dict[str, Any]:
    return {
        "title": state.title,
        "turn": state.turn,
        "phasing": state.phasing,
        "phase": state.phase,
        "moving": state.moving,
        "moved": sorted(state.moved),
        "config": state.config.to_json(),
        "sides": dict(state.sides),
        "map": {"name": state.map.name, "hexes": len(state.map)},
        "pieces": [p.to_json() for p in state.pieces.values()],
        "last": dict(state.last),
        "owed": [o.to_json() for o in state.owed],
    }


class NapoleonAtBay(Ruleset[NabState]):
    name = "napoleon_at_bay"
    aliases = ("nab",)
    title = "Napoleon At Bay solitaire system (Mark Herman)"
    data_package = DATA_PACKAGE
    data_files = ("rules.toml",)
    events = (Moved, Fixed, Substituted, PhaseChanged)
    folds = FOLDS
    options_model = LazyModel("vedette.rules.napoleon_at_bay.schema:NabOptions")
    scenario_model = LazyModel("vedette.rules.napoleon_at_bay.schema:NabScenario")
    #: the events ``apply_event`` folds (an import naming another kind is refused)
    event_kinds = ("moved", "fixed", "substituted", "phase")

    end_condition = (
        "a turn limit (an assumption: the system covers movement and fixing, not combat or"
        " victory): after [battle_end] max_turns (12) turns the game is a draw"
    )

    #: a drag moves a force hex to hex
    hand_move: ClassVar[Mapping[str, str] | None] = {
        "procedure": "move",
        "kind": "hex",
    }
    strength_unit = "strength points"
    #: your own dice: a tie among 7-9 equally close forces (A12, Herman (1)) on a d10 rolled
    #: again above their number, not a d7, d8 or d9 (``tie_die=d6``/``dN`` to change it)
    physical_dice_options: ClassVar[Mapping[str, Any]] = {"tie_die": "d10"}
    #: Herman (2), reading A24: release 0.2 rolled an owed fixing whose contact force another
    #: fixing of the same move had fixed; a 0.2 game that did is re-refereed that way
    earlier_readings: ClassVar[tuple[tuple[str, Mapping[str, Any], str], ...]] = (
        (
            "0.2",
            {"owed_fixing_lapses": False},
            "an owed fixing whose contact force another fixing fixed is still rolled (A24)",
        ),
    )

    def strength(self, state_json: Mapping[str, Any]) -> dict[str, float]:
        """Infantry + cavalry strength points of the forces on the map."""
        out: dict[str, float] = {}
        for p in state_json.get("pieces", []):
            out[p["side"]] = (
                out.get(p["side"], 0) + (p.get("infantry") or 0) + (p.get("cavalry") or 0)
            )
        return out

    def demo(self, db: str, as_json: bool) -> bool:
        """Herman's fixing example, step by step (demo.py)."""
        # start-up: the demo loads only when run
        from vedette.rules.napoleon_at_bay.demo import run_demo

        run_demo(db, as_json)
        return True

    def editor(self) -> Editor:
        from vedette.rules.napoleon_at_bay.editor import EDITOR  # start-up time: the builder only

        return EDITOR

    def sides(self, state: NabState) -> list[str]:
        return list(state.order)

    def outcome(self, state: NabState) -> GameOutcome | None:
        if state.turn > state.config.battle_turns:
            return GameOutcome("draw", "turn limit", state.turn, {s: 0 for s in state.order})
        return None

    def __init__(self) -> None:
        self.scenarios = {
            "sample": "sample.toml",
            "example1": "example1.toml",
            "example2": "example2.toml",
            "example3": "example3.toml",
            "example4": "example4.toml",
        }
        self.procedures = procedure_table(
            Procedure(MoveRequest, plan_move, resolve_move),
            Procedure(FixRequest, plan_fix, resolve_fix),
            Procedure(CandidatesRequest, plan_candidates, resolve_candidates),
            Procedure(EndMovementRequest, plan_end_movement, resolve_end_movement),
            Procedure(EndCombatRequest, plan_end_combat, resolve_end_combat),
        )

    flow = FLOW
    #: the Next entries that move play on (Herman (5), the sequence of play: movement ends,
    #: then combat)
    phase_end = ("end_movement", "end_combat")
    #: a force's move (``force``), its fixing once it moved into contact (``moving``)
    pick_fields = ("force", "moving")

    def current_phase(self, state: NabState) -> str | None:
        return state.phase

    def initial_state(self, scenario: Mapping[str, Any], options: Mapping[str, Any]) -> NabState:
        return initial_state(self.data(options.get("house_rules")), scenario, options)

    def apply(self, state: NabState, event: Any) -> NabState:
        return apply_event(state, event)

    def options(self, state: NabState) -> list[Todo]:
        if state.phase == "combat":
            return [
                Todo(
                    "end_combat",
                    {},
                    f"combat of {state.side_name(state.phasing)} done (series rules):"
                    " the next side moves",
                    SEQ,
                )
            ]
        out = []
        for p in state.pieces.values():
            if p.side != state.phasing or p.id in state.moved:
                continue
            to = move_targets(state, p)
            if to:
                out.append(
                    Todo(
                        "move",
                        {"force": p.id},
                        f"move {p.id} ({p.name}) from {','.join(p.hexes)}",
                        SEQ,
                        open={"to": to},
                    )
                )
        out.append(
            Todo("end_movement", {}, "end movement: the combat phase follows", combat_rule(state))
        )
        return out

    def simulation(self) -> SimPlay:
        return NabSim()

    def legal_requests(
        self, state: NabState, rng: Any, n: int = 40
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        """Requests that are all legal now: owed fixings first, then moves of unmoved forces
        to nearby hexes the rules allow, and the end of the phase."""
        if state.owed:
            for o in state.owed:
                yield o.procedure, dict(o.request)
            return
        if state.phase == "combat":
            yield "end_combat", {}
            return
        movers = [
            p for p in state.pieces.values() if p.side == state.phasing and p.id not in state.moved
        ]
        rng.shuffle(movers)
        found = 0
        for p in movers:
            if len(p.hexes) != 1:
                continue
            for _, req in move_tries(state, p, rng):
                try:
                    plan_move(state, self.procedures["move"].parse(req))
                except VedetteError:
                    continue
                yield "move", req
                found += 1
                break
            if found >= n:
                break
        yield "end_movement", {}

    def render(self, state: NabState) -> str:
        return render(state)

    def state_json(self, state: NabState) -> dict[str, Any]:
        return state_json(state)


RULESET = NapoleonAtBay()

__all__ = ["RULESET", "NapoleonAtBay", "VedetteError", "apply_event", "initial_state"]
