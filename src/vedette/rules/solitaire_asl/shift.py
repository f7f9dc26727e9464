"""The shift: two stacks (or HIP groups) trying to exchange locations on a 2d6 shift DR.

* legality: timing (:mod:`.turn`), whole stacks and counts (O'Leary 2.3.1-2.3.4), HIP never with
  dummy stacks (3.3.1), consistency (2.4), fortification placement (4.2);
* the shift DR and its DRMs (2.5, 4.3, 4.5): :func:`shift_modifiers`;
* the consequences of each row of the table, applied exactly as written: :func:`consequences`.

One :class:`ShiftPlan` serves the odds shown before the roll and the roll itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from vedette.dice import Check, DiceSource, Modifier, Roll, Table
from vedette.errors import BadRequest, RuleViolation
from vedette.rules.base import Outcome
from vedette.rules.fields import spec_of
from vedette.rules.solitaire_asl.config import Config
from vedette.rules.solitaire_asl.events import BoardChanges
from vedette.rules.solitaire_asl.hip import _settings, hip_consequences
from vedette.rules.solitaire_asl.ids import parse_hex_id
from vedette.rules.solitaire_asl.model import (
    Counter,
    Fortification,
    Op,
    Stack,
    State,
    Status,
    kind_words,
)
from vedette.rules.solitaire_asl.requests import ShiftRequest
from vedette.rules.solitaire_asl.turn import (
    Effects,
    Window,
    bookkeeping,
    phase_key,
    require_window,
)

RULE = "O'Leary 2.5"
DUMMY_KINDS = (Status.POTENTIAL_DUMMY, Status.DUMMY)
HIP_KINDS = (Status.HIP, Status.DUMMY_HIP)
INFANTRY = ("squad", "hs", "crew", "leader", "hero", "sw", "other")


class Facts(Protocol):
    """The facts a player may state on a shift (a request: shift, minefield, a planned one)."""

    @property
    def tem_a(self) -> int | None: ...
    @property
    def tem_b(self) -> int | None: ...
    @property
    def los(self) -> bool | None: ...
    @property
    def los_a(self) -> bool | None: ...
    @property
    def los_b(self) -> bool | None: ...
    @property
    def lv(self) -> bool | None: ...


def op_table(table: Table, op: Op) -> Table:
    """The shift table with each row's text for this operation (``result_dummy``,
    ``result_hip``, ``result_cloaked`` in the config), so a roll's line speaks only of what
    shifted. Kept in the table's own memo (a table never changes; ``todo`` plans every shift
    it offers)."""
    key = ("op_table", op)
    hit = table.memo.get(key)
    if hit is None:
        hit = table.memo[key] = fresh_op_table(table, op)
    return hit


def fresh_op_table(table: Table, op: Op) -> Table:
    """:func:`op_table` worked out afresh (the memo's oracle in its tests)."""
    key = f"result_{op.value}"
    if not any(hasattr(r, key) for r in table.rows):
        return table  # (no column of that kind's text: the table as it is)
    rows = tuple(replace(r, result=getattr(r, key, r.result)) for r in table.rows)
    return replace(table, rows=rows)


def side_named(state: State, text: str) -> str:
    """A side by its name, in any case."""
    for s in state.sides:
        if s.lower() == text.strip().lower():
            return s
    raise BadRequest(f"no side {text!r} (sides: {', '.join(state.sides)})")


# -- finding things -----------------------------------------------------------------------------
def location_of(state: State, ref: str) -> str:
    """The location named by a stack, counter, fortification or minefield id, or by itself."""
    s = state.stack(ref)
    if s is not None:
        return s.location
    c = state.counter(ref)
    if c is not None:
        return c[0].location
    f = state.fortification(ref)
    if f is not None:
        return f.location
    m = state.minefield(ref)
    if m is not None:
        return m.location
    try:
        parse_hex_id(ref)
    except BadRequest:
        hit = counter_named(state, ref)
        if hit is not None:
            return hit[0].location
        raise BadRequest(
            f"no stack {ref!r} (nor a counter, fortification, minefield or hex of that name)"
        ) from None
    return ref


def counter_named(state: State, ref: str) -> tuple[Stack, Counter] | None:
    """The counter of that id, or the one counter of that name."""
    hit = state.counter(ref)
    if hit is not None:
        return hit
    named = [(s, c) for s in state.stacks for c in s.counters if c.name == ref]
    if len(named) > 1:
        ids = ", ".join(f"{c.id} in {s.id}" for s, c in named)
        raise BadRequest(f"several counters are called {ref!r} ({ids}): name one by id")
    return named[0] if named else None


def _is_hex_id(ref: str) -> bool:
    try:
        parse_hex_id(ref)
    except BadRequest:
        return False
    return True


def find_stack(state: State, ref: str, what: str = "stack") -> Stack:
    """A stack by its id, or the stack of a counter named by id or name."""
    s = state.stack(ref)
    if s is not None:
        return s
    hit = counter_named(state, ref)
    if hit is not None:
        return hit[0]
    raise BadRequest(f"no {what} {ref!r}")


def stack_for(state: State, ref: str, statuses: Sequence[Status], side: str | None) -> Stack:
    """A stack by id, or the one stack of ``statuses`` in a location."""
    s = state.stack(ref)
    if s is not None:
        return s
    c = state.counter(ref)
    if c is not None:
        return c[0]
    if not _is_hex_id(ref):
        hit = counter_named(state, ref)
        if hit is not None:
            return hit[0]
    loc = location_of(state, ref)
    found = [x for x in state.stacks_at(loc, side) if x.status in statuses]
    if not found:
        what = "/".join(st.value for st in statuses)
        raise BadRequest(f"no {what} stack in {loc}")
    if len(found) > 1:
        raise BadRequest(
            f"{loc} holds several stacks ({', '.join(x.id for x in found)}): name one by id"
        )
    return found[0]


def hip_items(state: State, loc: str, side: str) -> tuple[list[Stack], list[Fortification]]:
    """The HIP things of a side in a location: HIP stacks, dummy HIP counters, hidden
    fortifications (treated as HIP units, O'Leary 4.2)."""
    stacks = [s for s in state.stacks_at(loc, side) if s.status in HIP_KINDS and not s.ti]
    # a tunnel follows its fortified end (4.4.2): it is not shifted by itself
    forts = [f for f in state.forts_at(loc, side) if f.hidden and f.kind != "tunnel"]
    return stacks, forts


def infer_op(state: State, ref: str, side: str | None) -> Op:
    """Which operation a reference starts: from the status of the stack (or fortification)."""
    s = state.stack(ref)
    c = state.counter(ref)
    if c is not None:
        s = c[0]
    if s is not None:
        return _op_of(s.status, s.id)
    if state.fortification(ref) is not None:
        return Op.HIP
    loc = location_of(state, ref)
    kinds = set()
    for x in state.stacks_at(loc, side):
        if x.status in DUMMY_KINDS:
            kinds.add(Op.DUMMY)
        elif x.status in HIP_KINDS:
            kinds.add(Op.HIP)
        elif x.status == Status.CLOAKED:
            kinds.add(Op.CLOAKED)
    if any(f.hidden for f in state.forts_at(loc, side)):
        kinds.add(Op.HIP)
    if len(kinds) == 1:
        return kinds.pop()
    if not kinds:
        raise BadRequest(
            f"nothing in {loc} can shift (no potential dummy, dummy, HIP or cloaked stack)"
        )
    raise BadRequest(f"{loc} holds several kinds of shiftable stacks: say kind=dummy|hip|cloaked")


def _op_of(status: Status, sid: str) -> Op:
    if status in DUMMY_KINDS:
        return Op.DUMMY
    if status in HIP_KINDS:
        return Op.HIP
    if status == Status.CLOAKED:
        return Op.CLOAKED
    raise RuleViolation(
        "O'Leary 2.2",
        f"{sid} is a {status.value} stack: only potential dummy stacks, dummy stacks, HIP and"
        " cloaked units shift",
    )


# -- the parties and the plan -------------------------------------------------------------------
@dataclass(frozen=True)
class Party:
    """One end of a shift: what moves out of (or is involved at) one location."""

    location: str
    stacks: tuple[Stack, ...] = ()
    counters: tuple[Counter, ...] = ()
    forts: tuple[Fortification, ...] = ()

    @property
    def label(self) -> str:
        parts = [c.name for c in self.counters]
        parts += [f"dummy stack of {s.dummies}" for s in self.stacks if s.status == Status.DUMMY]
        parts += ["dummy HIP" for s in self.stacks if s.status == Status.DUMMY_HIP]
        parts += [
            "dummy cloaking counter"
            for s in self.stacks
            if s.status == Status.CLOAKED and not s.counters
        ]
        parts += [f"hidden {f.words} {f.id}" for f in self.forts]
        return f"{', '.join(parts) or 'nothing'} in {self.location}"

    def ids(self) -> list[str]:
        return [s.id for s in self.stacks] + [f.id for f in self.forts]


@dataclass(frozen=True, slots=True)
class Choices:
    """What the player chose for after the shift (the request's ``settings``, ``ca``,
    ``emplaced``, ``occupants``, ``keep_concealment``, ``into_fort``): CA/TCA/VCA/CE-BU (2.3),
    a fortification's CA and occupants (4.4), the Guns emplaced (2.3)."""

    settings: Mapping[str, str] = field(default_factory=dict)
    ca: Mapping[str, str] = field(default_factory=dict)
    emplaced: tuple[str, ...] = ()
    occupants: tuple[str, ...] = ()
    keep_concealment: bool = True
    into_fort: bool = False


@dataclass(frozen=True)
class ShiftPlan:
    op: Op
    side: str
    a: Party
    b: Party
    window: Window
    check: Check
    table: Table
    moving_a: tuple[str, ...] = ()  # HIP: counter ids, stack ids (dummy HIP) and fort ids A -> B
    moving_b: tuple[str, ...] = ()  # HIP: B -> A
    options: Choices = Choices()
    state_stacks: tuple[Stack, ...] = ()  # stacks in either location (4.4 occupants)
    extra: tuple[tuple[Stack, Stack], ...] = ()  # 2.4.2: more pairs on the same DR
    hip_extra: tuple[ShiftPlan, ...] = ()  # 2.4.2 for HIP (3.3): more HIP groups, same DR
    group: str = ""  # bookkeeping group for the +1 count and closure (turn.bookkeeping)

    @property
    def book(self) -> str:
        return self.group or self.op.value

    @property
    def moving_ids(self) -> set[str]:
        return {*self.moving_a, *self.moving_b}

    @property
    def same(self) -> bool:
        return self.a.location == self.b.location and self.a.ids() == self.b.ids()


# -- DRMs (O'Leary 2.5) -------------------------------------------------------------------------
def enemy_there(state: State, loc: str, side: str) -> bool:
    """Real units of ``side``'s enemy stand in ``loc`` (reading A38): the location is in their
    LOS. Concealment counters alone (dummy stacks, dummy HIP/cloaking counters) are no unit."""
    return any(x.side != side and x.counters for x in state.stacks if x.location == loc)


def party_tem(state: State, party: Party, moving_forts: set[str]) -> tuple[int, str]:
    """The TEM a party enjoys: a fortification's TEM when the party is in a fortification that
    does not shift (2.5 third example), else the location's TEM (4.3, 4.5). The worst over the
    party's stacks."""
    loc = state.location(party.location)
    terrain = (loc.terrain or "terrain") + f" {party.location}"
    best: tuple[int, str] | None = None
    for s in party.stacks:
        cand = (loc.tem, terrain)
        for f in state.forts_at(party.location):
            if f.kind == s.position and f.id not in moving_forts:
                cand = (f.tem, f"{f.words} {party.location}")
        if best is None or cand[0] < best[0]:
            best = cand
    return best if best is not None else (loc.tem, terrain)


def size_modifiers(counters: Sequence[Counter], config: Config) -> list[Modifier]:
    """The starred DRMs: one per Gun/vehicle, exclusive group ``size`` (only the largest)."""
    size = config.size
    out = []
    for c in counters:
        if c.kind in ("gun", "vehicle"):
            v = (size.gun if c.kind == "gun" else size.vehicle)[c.size]
            label = f"{c.size.replace('_', ' ')} {'gun' if c.kind == 'gun' else 'vehicle'}"
        else:
            v = size.infantry
            label = "infantry"
        if v:
            out.append(Modifier(v, f"{label}: {c.name}", RULE, "size"))
    return out


def shift_modifiers(
    state: State,
    config: Config,
    op: Op,
    side: str,
    a: Party,
    b: Party,
    req: Facts,
    moving_forts: set[str] = frozenset(),  # type: ignore[assignment]
    los_default: tuple[bool | None, bool | None] = (None, None),
    both_hip: bool = False,
    extra: Sequence[tuple[Party, Party]] = (),
) -> list[Modifier]:
    """The DRMs of O'Leary 2.5. ``extra``: further pairs shifting on the same DR (2.4.2); the
    facts the player states on the shift (``tem_a``/``tem_b``/``los``/``los_a``/``los_b``/
    ``lv``) hold for every pair of the group: ``tem_a``/``los_a`` for each pair's first
    location, ``tem_b``/``los_b`` for its second."""
    drm = config.drm
    mods: list[Modifier] = []
    scope = None if drm.previous_counts == "all" else bookkeeping(op, config)
    n = state.count(side, phase_key(state), scope)
    if n:
        per = drm.previous_shift
        mods.append(Modifier(per * n, f"{n} previous shift{'s' if n > 1 else ''} this phase", RULE))
    pairs = [(a, b), *extra]
    tems: list[tuple[int, str]] = []
    seen: list[tuple[str, bool]] = []
    for i, (pa, pb) in enumerate(pairs):
        tem_a = party_tem(state, pa, moving_forts)
        tem_b = party_tem(state, pb, moving_forts)
        if req.tem_a is not None:
            tem_a = (req.tem_a, f"TEM stated for {pa.location}")
        if req.tem_b is not None:
            tem_b = (req.tem_b, f"TEM stated for {pb.location}")
        tems += [tem_a, tem_b]
        la, lb = state.location(pa.location), state.location(pb.location)
        da, db = los_default if i == 0 else (None, None)
        los_a = la.los if da is None else da
        los_b = lb.los if db is None else db
        if drm.enemy_there_sees:  # reading A38: enemy units see their own location
            los_a = los_a or enemy_there(state, pa.location, side)
            los_b = los_b or enemy_there(state, pb.location, side)
        if req.los_a is not None:
            los_a = req.los_a
        if req.los_b is not None:
            los_b = req.los_b
        if req.los is not None:
            los_a = los_b = req.los
        seen += [(pa.location, los_a), (pb.location, los_b)]
    worst = min(tems, key=lambda t: t[0])
    if worst[0]:
        mods.append(Modifier(-worst[0], f"worst TEM {worst[0]:+d}: {worst[1]}", RULE))
    if any(f for _, f in seen):
        where = " and ".join(dict.fromkeys(x for x, f in seen if f))
        mods.append(Modifier(drm.enemy_los, f"in LOS of an enemy unit: {where}", RULE))
    if both_hip:
        what = "both hidden minefields" if op == Op.MINEFIELD else "both HIP"
        mods.append(Modifier(drm.both_hip, what, RULE))
    lv = state.lv or any(state.location(x.location).lv for pair in pairs for x in pair)
    if req.lv is not None:
        lv = req.lv
    if lv:
        mods.append(Modifier(drm.lv_hindrance, "LV hindrance at all ranges", RULE))
    if state.night:
        mods.append(Modifier(drm.night, "night scenario", RULE))
    # each counter once: a stack shifting with itself (2.3) is both parties, and its Gun or
    # vehicle gives its starred DRM once, not a second time shown as "not counted"
    everyone = tuple(
        {
            c.id: c
            for c in (*a.counters, *b.counters, *(c for p in extra for x in p for c in x.counters))
        }.values()
    )
    emplaced = [c.name for c in everyone if c.kind == "gun" and c.emplaced]
    if emplaced:
        mods.append(Modifier(drm.emplaced_gun, f"emplaced Gun: {', '.join(emplaced)}", RULE))
    mods.extend(size_modifiers(everyone, config))
    if state.extra_drm:
        mods.append(Modifier(state.extra_drm, "scenario shift DRM (2.5 remark)", RULE))
    return mods


def assumed_facts(
    state: State, parties: Sequence[tuple[str, str]], req: Facts, los_given: Sequence[str] = ()
) -> str:
    """Issue 24 item 10: the facts a shift DR takes for locations the player never described
    (not in the scenario, no 'location' stated): TEM 0 and out of enemy LOS, said in so many
    words, unless the request states them (``los_given``: locations whose LOS the rules
    settle otherwise, e.g. an entered minefield's, 4.6.2) (``tem_a``/``los_a`` for the first
    location of each
    pair, ``tem_b``/``los_b`` for the second, ``los`` for both). '' when nothing is assumed."""
    described = {x.id for x in state.locations}
    out: list[str] = []
    for la, lb in parties:
        for loc, tem, los in ((la, req.tem_a, req.los_a), (lb, req.tem_b, req.los_b)):
            if loc in described or any(loc in x for x in out):
                continue
            what = []
            if tem is None:
                what.append("TEM 0")
            if los is None and req.los is None and loc not in los_given:
                what.append("not in enemy LOS")
            if what:
                out.append(f"{loc} ({', '.join(what)})")
    if not out:
        return ""
    return (
        " [assumed, location not described: "
        + "; ".join(out)
        # worded for both shells (the CLI's command and the web's Action list and Next entry
        # "describe 4A1" share the action's name), not as a command to type
        + f" - describe {'them' if len(out) > 1 else 'it'} with the location action"
        " (terrain, enemy LOS)]"
    )


# -- legality -----------------------------------------------------------------------------------
def stated_los(req: Facts) -> tuple[bool | None, bool | None]:
    """Enemy LOS of the two locations as the player states it in the request (or None)."""
    if req.los is not None:
        return req.los, req.los
    return req.los_a, req.los_b


def check_consistency(
    state: State,
    config: Config,
    a: Party,
    b: Party,
    req: ShiftRequest,
    los: tuple[bool | None, bool | None] = (None, None),
) -> None:
    """O'Leary 2.4 from the facts vedette tracks, then the player's own statement. ``los``: the
    enemy LOS of a's and b's locations as stated in the request (else the stored facts)."""
    for x, y, seen in ((a, b, los[1]), (b, a, los[0])):
        used = [(c.mp_used, c.name) for c in x.counters if c.kind == "vehicle" and c.mp_used]
        for c in y.counters:
            if c.kind == "vehicle" and c.mp is not None:
                for mp_used, name in used:
                    if mp_used > c.mp:
                        raise RuleViolation(
                            "O'Leary 2.4",
                            f"{name} has used {mp_used} MP in a phase, more than {c.name}'s"
                            f" {c.mp} MP: {c.name} could not be where {name} is",
                        )
        dest = state.location(y.location)
        sides = {st.side for st in (*x.stacks, *y.stacks)}
        watched = dest.los or (  # reading A38: enemy units see the location they stand in
            config.drm.enemy_there_sees and any(enemy_there(state, y.location, d) for d in sides)
        )
        if (
            config.consistency.vehicle_needs_concealment_terrain_in_los
            and any(c.kind == "vehicle" for c in x.counters)
            and not dest.concealment_terrain
            and (watched if seen is None else seen)
            and x.location != y.location
        ):
            raise RuleViolation(
                "O'Leary 2.4",
                f"a vehicle in {y.location} (not Concealment Terrain, in enemy LOS) would lose"
                " concealment at once",
            )
    if state.options.get("separate_counter_sizes"):
        big = [any(c.kind in ("gun", "vehicle") for c in p.counters) for p in (a, b)]
        real = [bool(p.counters) for p in (a, b)]
        if all(real) and big[0] != big[1]:
            raise RuleViolation(
                "O'Leary 2.4.1",
                "option: 1/2-inch and 5/8-inch counter stacks do not shift together",
            )
    if not req.consistent:
        raise RuleViolation(
            "O'Leary 2.4",
            "the player states this shift would have cost concealment at the start of the game",
        )


def _dummy_counts(a: Stack, b: Stack) -> None:
    """O'Leary 2.3.2-2.3.4."""
    if a.status == Status.POTENTIAL_DUMMY and b.status == Status.DUMMY:
        if not a.real < b.dummies:
            raise RuleViolation(
                "O'Leary 2.3.2",
                f"{a.id} has {a.real} real counters: it needs a dummy stack of at least"
                f" {a.real + 1} concealment counters, {b.id} has {b.dummies}",
            )
    elif a.status == Status.POTENTIAL_DUMMY and b.status == Status.POTENTIAL_DUMMY:
        if a.real != b.real:
            raise RuleViolation(
                "O'Leary 2.3.3",
                f"{a.id} has {a.real} real counters and {b.id} has {b.real}: they must be equal",
            )
    elif a.status == Status.DUMMY and b.status == Status.DUMMY and a.dummies != b.dummies:
        raise RuleViolation(
            "O'Leary 2.3.4",
            f"dummy stacks {a.id} ({a.dummies}) and {b.id} ({b.dummies}) differ in counters",
        )


def plan_shift(
    state: State, req: ShiftRequest, config: Config, tables: Mapping[str, Table]
) -> ShiftPlan:
    """Validate a shift request and build its check (no dice). ``req`` may also be the
    request's fields as a mapping."""
    if not isinstance(req, ShiftRequest):
        req = spec_of(ShiftRequest).build(req)
    ref_a = req.a
    ref_b = req.b if req.b is not None else ref_a
    kind = req.kind
    side0 = req.side
    if side0 is not None:
        side0 = side_named(state, side0)
    op = Op(kind) if kind is not None else infer_op(state, ref_a, side0)
    if op == Op.HIP:
        return _plan_hip(state, req, config, tables, ref_a, ref_b, side0)
    statuses = DUMMY_KINDS if op == Op.DUMMY else (Status.CLOAKED,)
    sa, sb = _pair(state, op, statuses, ref_a, ref_b, side0)
    if req.move is not None or req.back is not None or req.counters is not None:
        # "move"/"back" pick part of a HIP stack (3.3.3); nothing else shifts in part
        raise RuleViolation(
            "O'Leary 2.3.1",
            "potential dummy stacks, dummy stacks and cloaked units shift as complete stacks",
        )
    side = sa.side
    # 2.4.2: further pairs in other locations shifting as one stack, on the same DR
    extra: list[tuple[Stack, Stack]] = []
    for i, pair in enumerate(req.also):
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise BadRequest(f"also[{i}] must be a pair of stacks: [a, b]")
        xa, xb = _pair(state, op, statuses, str(pair[0]), str(pair[1]), side)
        extra.append((xa, xb))
    ids = [x.id for p in [(sa, sb), *extra] for x in p]
    if len(set(ids)) != len(ids) and extra:
        raise BadRequest("a stack appears twice in the stacks shifting together (2.4.2)")
    w = require_window(state, side, op, bookkeeping(op, config))
    _check_portions(req, [(sa, sb), *extra])
    a = Party(sa.location, (sa,), sa.counters)
    b = Party(sb.location, (sb,), sb.counters) if sb.id != sa.id else a
    check_consistency(state, config, a, b, req, stated_los(req))
    parties: list[tuple[Party, Party]] = []
    for xa, xb in extra:
        pa = Party(xa.location, (xa,), xa.counters)
        pb = Party(xb.location, (xb,), xb.counters) if xb.id != xa.id else pa
        check_consistency(state, config, pa, pb, req, stated_los(req))
        parties.append((pa, pb))
    mods = shift_modifiers(state, config, op, side, a, b, req, extra=parties)
    table = op_table(tables["shift"], op)
    label = f"shift {a.label} <-> {b.label}" if b is not a else f"shift {a.label} with itself"
    for xa, xb in extra:
        label += f" with {xa.id} <-> {xb.id}"
    label += assumed_facts(
        state, [(a.location, b.location), *((p.location, q.location) for p, q in parties)], req
    )
    check = Check(table.dice, tuple(mods), table, label, RULE)
    plan = ShiftPlan(
        op,
        side,
        a,
        b,
        w,
        check,
        table,
        options=_opts(req),
        extra=tuple(extra),
        group=bookkeeping(op, config),
    )
    validate_options(plan)
    return plan


def _check_portions(req: ShiftRequest, pairs: Sequence[tuple[Stack, Stack]]) -> None:
    """O'Leary 2.3: a stack arriving takes the portion of the location (foxhole, crest...) that
    the stack it replaced held. ``positions`` (stack id -> portion) states what the player
    wants; anything else is refused."""
    if req.positions is None:
        return
    wanted = req.positions
    required: dict[str, tuple[str, str]] = {}
    for sa, sb in pairs:
        if sa.id == sb.id:
            required[sa.id] = (sa.position, sa.location)
        else:
            required[sa.id] = (sb.position, sb.location)
            required[sb.id] = (sa.position, sa.location)
    for sid, pos in wanted.items():
        if str(sid) not in required:
            raise BadRequest(f"positions: {sid!r} is not a stack in this shift")
        need, loc = required[str(sid)]
        if str(pos or "") != need:
            raise RuleViolation(
                "O'Leary 2.3",
                f"{sid} must take the portion of {loc} the other stack held:"
                f" {need or 'none (no foxhole, crest or the like)'}, not {pos or 'none'}",
            )


def _pair(
    state: State,
    op: Op,
    statuses: Sequence[Status],
    ref_a: str,
    ref_b: str,
    side0: str | None,
) -> tuple[Stack, Stack]:
    """Two whole stacks that may try to exchange (2.3-2.3.4, 3.3.1, 5.1); PDS first."""
    sa = stack_for(state, ref_a, (*statuses, *HIP_KINDS), side0)
    sb = stack_for(state, ref_b, (*statuses, *HIP_KINDS), side0 or sa.side)
    for s in (sa, sb):
        if side0 is not None and s.side != side0:  # (side= was passed over: the stack's side)
            raise BadRequest(f"{s.id} is a {s.side} stack, not {side0}'s (side={side0})")
        if s.status in HIP_KINDS:
            raise RuleViolation(
                "O'Leary 3.3.1",
                f"{s.id} is HIP: HIP units and dummy HIP counters never shift with dummy stacks"
                " or potential dummy stacks",
            )
        if s.status not in statuses:
            if op == Op.CLOAKED or s.status == Status.CLOAKED:
                raise RuleViolation(
                    "O'Leary 5.1", f"{s.id}: cloaked units shift only with cloaked units"
                )
            _op_of(s.status, s.id)
        if s.ti:
            raise RuleViolation("O'Leary 2.5", f"{s.id} is TI")
        if s.status == Status.CLOAKED and s.id in state.moved_now and state.phase != "AFPh":
            # 5.1: "at the start of that unit's MPh ... APh" (reading A37)
            raise RuleViolation(
                "O'Leary 5.1",
                f"{s.id} has already moved this {state.phase}: its own {state.phase} has begun",
            )
    if sa.side != sb.side:
        raise RuleViolation("O'Leary 2.3", f"{sa.id} and {sb.id} belong to different sides")
    if sa.id != sb.id and sa.location == sb.location:
        # a shift exchanges two stacks' locations (2.3): two stacks in one location have none
        # to exchange, and such a "shift" would still count for the +1 of later ones (2.5)
        raise RuleViolation(
            "O'Leary 2.3",
            f"{sa.id} and {sb.id} are both in {sa.location}: a shift exchanges two locations",
        )
    if op == Op.DUMMY:
        if sa.status == Status.DUMMY and sb.status == Status.POTENTIAL_DUMMY:
            sa, sb = sb, sa
        if sa.id == sb.id and sa.status == Status.DUMMY:
            raise RuleViolation("O'Leary 2.3", "only a potential dummy stack may shift with itself")
        _dummy_counts(sa, sb)
    return sa, sb


def _opts(req: ShiftRequest) -> Choices:
    return Choices(
        dict(req.settings or {}),
        dict(req.ca or {}),
        tuple(req.emplaced or ()),
        tuple(req.occupants or ()),
        req.keep_concealment,
        req.into_fort,
    )


def _plan_hip(
    state: State,
    req: ShiftRequest,
    config: Config,
    tables: Mapping[str, Table],
    ref_a: str,
    ref_b: str,
    side0: str | None,
) -> ShiftPlan:
    """HIP units, dummy HIP counters and hidden fortifications (O'Leary 3.3, 4.2-4.5)."""
    loc_a = location_of(state, ref_a)
    loc_b = location_of(state, ref_b)
    side = side0 or _side_of_ref(state, ref_a)
    if side is None:
        raise BadRequest(f"say whose HIP units in {loc_a} shift: side=...")
    stacks_a, forts_a = hip_items(state, loc_a, side)
    stacks_b, forts_b = hip_items(state, loc_b, side)
    if not stacks_a and not forts_a:
        raise BadRequest(
            f"{side} has no HIP unit, dummy HIP counter or hidden fortification in {loc_a}"
        )
    for x in state.stacks_at(loc_b, side):
        if x.status in DUMMY_KINDS and not stacks_b and not forts_b:
            raise RuleViolation(
                "O'Leary 3.3.1",
                f"{loc_b} holds only dummy/potential dummy stacks: HIP units never shift with them",
            )
    if not stacks_b and not forts_b:
        raise RuleViolation(
            "O'Leary 3.3.3",
            f"{loc_b} holds no HIP unit, dummy HIP counter or hidden fortification of {side}",
        )
    default_a = _default_items(state, ref_a, stacks_a, forts_a)
    move_a = _items(default_a if req.move is None else req.move, stacks_a, forts_a, loc_a)
    if not any(move_a):
        raise BadRequest("nothing to shift: 'move' is empty")
    same = loc_a == loc_b
    if same:
        move_b: tuple[list[Counter], list[Stack], list[Fortification]] = ([], [], [])
    else:
        default_b = [s.id for s in stacks_b] + [f.id for f in forts_b]
        move_b = _items(default_b if req.back is None else req.back, stacks_b, forts_b, loc_b)
    w = require_window(state, side, Op.HIP, bookkeeping(Op.HIP, config))
    for s in (*stacks_a, *stacks_b):
        if s.ti:
            raise RuleViolation("O'Leary 3.3.5", f"{s.id} is TI")
    # 4.2: a fortification only shifts where it could have been set up
    for forts, dest in ((move_a[2], loc_b), (move_b[2], loc_a)):
        for f in forts:
            if f.kind in state.location(dest).forbid:
                raise RuleViolation(
                    "O'Leary 4.2", f"a {f.words} could not have been set up in {dest}"
                )
    if (move_a[2] or move_b[2]) and not req.placement_ok:
        raise RuleViolation(
            "O'Leary 4.2", "the player states the fortification could not be set up there"
        )
    # the parties: for the DR, B's side is what moves back, or (if nothing does) what is there
    inv_b = (
        move_b
        if any(move_b)
        else (
            [c for s in stacks_b for c in s.counters],
            [s for s in stacks_b if s.status == Status.DUMMY_HIP],
            forts_b,
        )
    )
    a = Party(loc_a, _stacks_of(state, move_a), tuple(move_a[0]), tuple(move_a[2]))
    b = Party(loc_b, _stacks_of(state, inv_b), tuple(inv_b[0]), tuple(inv_b[2]))
    if same:
        b = a
    check_consistency(state, config, a, b, req, stated_los(req))
    moving_forts = {f.id for f in (*move_a[2], *move_b[2])}
    subs = _hip_also(state, req, config, tables, side, (loc_a, loc_b))
    for sub in subs:
        moving_forts |= {f.id for f in (*sub.a.forts, *sub.b.forts) if f.id in sub.moving_ids}
    extra = [(sub.a, sub.b) for sub in subs]
    mods = shift_modifiers(
        state, config, Op.HIP, side, a, b, req, moving_forts, both_hip=True, extra=extra
    )
    table = op_table(tables["shift"], Op.HIP)
    label = f"HIP shift {a.label} <-> {b.label}"
    for sub in subs:
        label += f" with {sub.a.location} <-> {sub.b.location}"
    label += assumed_facts(
        state, [(loc_a, loc_b), *((sub.a.location, sub.b.location) for sub in subs)], req
    )
    check = Check(table.dice, tuple(mods), table, label, RULE)
    ids_a = tuple([c.id for c in move_a[0]] + [s.id for s in move_a[1]] + [f.id for f in move_a[2]])
    ids_b = tuple([c.id for c in move_b[0]] + [s.id for s in move_b[1]] + [f.id for f in move_b[2]])
    near = tuple(x for x in state.stacks if x.location in (loc_a, loc_b) and x.side == side)
    opts = _opts(req)
    plan = ShiftPlan(Op.HIP, side, a, b, w, check, table, ids_a, ids_b, opts, near)
    plan = replace(
        plan,
        hip_extra=tuple(replace(sub, options=opts) for sub in subs),
        group=bookkeeping(Op.HIP, config),
    )
    validate_options(plan)
    for fid in opts.ca:  # 4.4: a CA only for a kind that has one (reading A39)
        fort = state.fortification(fid)
        if fort is not None:
            check_ca(state, fort)
    return plan


def _hip_also(
    state: State,
    req: ShiftRequest,
    config: Config,
    tables: Mapping[str, Table],
    side: str,
    locs: tuple[str, str],
) -> list[ShiftPlan]:
    """O'Leary 2.4.2 (HIP obey it, 3.3): more HIP groups in other locations shifting as one with
    the first, on the same DR. ``also``: pairs ``[a, b]`` or objects ``{a, b, move, back}``."""
    subs: list[ShiftPlan] = []
    seen = set(locs)
    for i, pair in enumerate(req.also):
        if isinstance(pair, Mapping) and "a" in pair:
            sub_req = {k: pair[k] for k in ("a", "b", "move", "back") if k in pair}
        elif isinstance(pair, list | tuple) and len(pair) == 2:
            sub_req = {"a": pair[0], "b": pair[1]}
        else:
            raise BadRequest(f"also[{i}] must be a pair [a, b] or an object {{a, b, move, back}}")
        # 2.4.2: the group's stated facts hold for this pair too
        facts = {
            k: getattr(req, k)
            for k in ("tem_a", "tem_b", "los", "los_a", "los_b", "lv", "consistent", "placement_ok")
        }
        r: ShiftRequest = spec_of(ShiftRequest).build(
            {**facts, **sub_req, "side": side}, f"also[{i}]."
        )
        ra = r.a
        rb = r.b if r.b is not None else r.a
        sub = _plan_hip(state, r, config, tables, ra, rb, side)
        for loc in {sub.a.location, sub.b.location}:
            if loc in seen:
                raise BadRequest(f"{loc} appears twice in the HIP groups shifting together (2.4.2)")
            seen.add(loc)
        subs.append(sub)
    return subs


def _side_of_ref(state: State, ref: str) -> str | None:
    s = state.stack(ref)
    if s is not None:
        return s.side
    c = state.counter(ref)
    if c is not None:
        return c[0].side
    f = state.fortification(ref)
    if f is not None:
        return f.side
    loc = location_of(state, ref)
    sides = {s.side for s in state.stacks_at(loc) if s.status in HIP_KINDS}
    sides |= {f.side for f in state.forts_at(loc) if f.hidden}
    return sides.pop() if len(sides) == 1 else None


def _default_items(
    state: State, ref: str, stacks: list[Stack], forts: list[Fortification]
) -> list[str]:
    if state.stack(ref) is not None or state.counter(ref) is not None:
        return [ref]
    if state.fortification(ref) is not None:
        return [ref]
    return [s.id for s in stacks] + [f.id for f in forts]  # 4.5: all of them at once


def _items(
    refs: Sequence[Any], stacks: list[Stack], forts: list[Fortification], loc: str
) -> tuple[list[Counter], list[Stack], list[Fortification]]:
    """Counters (by id or name), dummy HIP stacks and fortifications named in ``refs``."""
    counters: list[Counter] = []
    dummies: list[Stack] = []
    fs: list[Fortification] = []
    for r in (str(x) for x in refs):
        st = next((s for s in stacks if s.id == r), None)
        if st is not None:
            if st.status == Status.DUMMY_HIP:
                if st not in dummies:
                    dummies.append(st)
            else:
                counters.extend(c for c in st.counters if c not in counters)
            continue
        f = next((f for f in forts if f.id == r), None)
        if f is not None:
            if f not in fs:
                fs.append(f)
            continue
        pool = [c for s in stacks for c in s.counters if c not in counters]
        c = next((c for c in pool if c.id == r), None) or next(
            (c for c in pool if c.name == r), None
        )
        if c is None:
            raise BadRequest(
                f"{r!r} is not an HIP unit, dummy HIP counter or hidden fortification in {loc}"
            )
        counters.append(c)
    return counters, dummies, fs


def _stacks_of(
    state: State, items: tuple[list[Counter], list[Stack], list[Fortification]]
) -> tuple[Stack, ...]:
    out: list[Stack] = []
    for c in items[0]:
        hit = state.counter(c.id)
        if hit is not None and hit[0] not in out:
            out.append(hit[0])
    out.extend(s for s in items[1] if s not in out)
    return tuple(out)


# -- the roll and its consequences --------------------------------------------------------------
def run_shift(state: State, plan: ShiftPlan, dice: DiceSource) -> Outcome:
    roll = plan.check.resolve(dice)
    assert isinstance(roll, Roll)
    row = plan.table.lookup(roll.final)
    patch, changes, serial = consequences(state, plan, Effects.of(row))
    if serial != state.serial:
        patch.set("serial", serial)
    # the closure is bookkeeping, not a change on the table: said once, apart
    notes = [c for c in changes if c.startswith("no more ")]
    changes = [c for c in changes if not c.startswith("no more ")]
    msg = f"{row.result}."
    extra = [n for n in notes if "(" in n]  # e.g. the enemy MPh and own DFPh are one (3.3.5)
    if extra:
        said = "; ".join(extra)  # not str.capitalize: it would lower "HIP", "Russian", "MPh"
        msg += " " + said[:1].upper() + said[1:] + "."
    if changes:
        msg += " On the board: " + "; ".join(changes) + "."
    else:
        msg += " Nothing to change on the board."
    details = {
        "op": plan.op.value,
        "side": plan.side,
        "a": plan.a.label,
        "b": plan.b.label,
        "final": roll.final,
        "row": row.key,
        "range": row.range_text,
        "modifiers": [m.to_json() for m in roll.modifiers],
        "superseded": [m.to_json() for m in roll.superseded],
        "changes": changes,
        "notes": notes,
    }
    return Outcome(
        (patch.event("shift", op=plan.op.value, row=row.key, final=roll.final),),
        (roll,),
        msg,
        details,
        result=row.key,
    )


def consequences(
    state: State, plan: ShiftPlan, flags: Effects
) -> tuple[BoardChanges, list[str], int]:
    """Apply one row of the shift table to the state, as a patch, with the player's to-do."""
    if plan.op == Op.HIP:
        return hip_consequences(state, plan, flags)
    p = BoardChanges()
    changes: list[str] = []
    w = plan.window
    if flags.counted:
        p.count(plan.side, phase_key(state), plan.book)
    if flags.closes:
        p.close(plan.side, plan.book, w.key)
        changes.append(f"no more {plan.book} shifts by {plan.side} this phase")
    for sa, sb in ((plan.a.stacks[0], plan.b.stacks[0]), *plan.extra):
        crest = {
            s.location for s in (sa, sb) if "crest" in state.location(s.location).terrain.lower()
        }
        _pair_consequences(p, plan, flags, sa, sb, changes, crest)
    return p, changes, state.serial


def _pair_consequences(
    p: BoardChanges,
    plan: ShiftPlan,
    flags: Effects,
    sa: Stack,
    sb: Stack,
    changes: list[str],
    crest: set[str] = frozenset(),  # type: ignore[assignment]
) -> None:
    """One pair's row of the table. ``crest``: locations whose terrain has a crest line (2.3:
    a vehicle arriving there may try a HD maneuver DR)."""
    if flags.allowed:
        if sa.id != sb.id:
            na = replace(sa, location=sb.location, position=sb.position)
            nb = replace(sb, location=sa.location, position=sa.position)
            na, nb = _boresight_after_shift(na, nb, sa.moved or sb.moved, changes)
            changes.append(f"swap {sa.id} ({sa.location}) and {sb.id} ({sb.location})")
            for new in (na, nb):
                if new.position:
                    changes.append(
                        f"{new.id} takes {kind_words(new.position)} in {new.location} (2.3)"
                    )
                if (new.position == "crest" or new.location in crest) and any(
                    c.kind == "vehicle" for c in new.counters
                ):
                    changes.append(f"{new.id} may now make a HD maneuver attempt DR (2.3)")
        else:
            na, nb = sa, sa
        na = _settings(na, plan.options, changes, na.location != sa.location)
        p.put_stack(na)
        if nb.id != na.id:
            nb = _settings(nb, plan.options, changes, nb.location != sb.location)
            p.put_stack(nb)
        return
    for s in {x.id: x for x in (sa, sb)}.values():
        if s.status == Status.DUMMY or (s.status == Status.CLOAKED and not s.counters):
            if flags.dummy_lost:
                p.remove_stack(s.id)
                changes.append(f"remove dummy {s.id} from {s.location}")
            continue
        new = s
        if flags.concealment_lost or (s.status == Status.CLOAKED and flags.cloak_lost):
            new = replace(new, status=Status.REVEALED)
            changes.append(f"{s.id} in {s.location} loses concealment/cloaking")
        elif flags.potential_lost and s.status == Status.POTENTIAL_DUMMY:
            new = replace(new, status=Status.CONCEALED)
            changes.append(f"{s.id} is no longer a potential dummy stack (keeps its ?)")
        if flags.ti and new.counters:
            new = replace(new, ti=True)
            changes.append(f"mark {s.id} TI until the end of the player turn")
        if new != s:
            p.put_stack(new)


def _boresight_after_shift(
    a: Stack, b: Stack, moved: bool, changes: list[str]
) -> tuple[Stack, Stack]:
    """O'Leary 2.3: bore-sight eligibility survives a shift only if neither stack has changed
    location except by shifting."""
    if not moved:
        return a, b
    out = []
    for s in (a, b):
        cs = []
        for c in s.counters:
            if c.boresight == "eligible":
                c = replace(c, boresight="lost")
                changes.append(f"{c.name} ({c.id}) may no longer bore sight (2.3)")
            cs.append(c)
        out.append(replace(s, counters=tuple(cs)))
    return out[0], out[1]


def check_ca(state: State, f: Fortification) -> None:
    """O'Leary 4.4: only "fortifications that possess a well defined CA (Ex: pillboxes, caves,
    panji)" choose one; the kinds that have one are data (``[fortification_ca]``, A39)."""
    if not state.config.fortification_ca.get(f.kind, False):
        raise RuleViolation(
            "O'Leary 4.4", f"{f.words} {f.id} has no covered arc: a {f.words} takes no CA"
        )


def validate_options(plan: ShiftPlan) -> None:
    """Refuse, before any roll, an emplacement the Gun was never allowed (O'Leary 2.3)."""
    names = set(plan.options.emplaced)
    counters = (
        *plan.a.counters,
        *plan.b.counters,
        *(c for pair in plan.extra for s in pair for c in s.counters),
        *(c for sub in plan.hip_extra for c in (*sub.a.counters, *sub.b.counters)),
    )
    for n in names:
        c = next((c for c in counters if c.id == n or c.name == n), None)
        if c is None or c.kind != "gun":
            raise BadRequest(f"emplaced: {n!r} is not a Gun in this shift")
        if not c.may_emplace:
            raise RuleViolation(
                "O'Leary 2.3", f"{c.name} was not allowed to emplace at the start of the scenario"
            )
    known = (
        {c.id for c in counters}
        | {c.name for c in counters}
        | set(plan.a.ids())
        | set(plan.b.ids())
        | {s.id for pair in plan.extra for s in pair}
        | {x for sub in plan.hip_extra for x in (*sub.a.ids(), *sub.b.ids())}
    )
    for k in (*plan.options.settings, *plan.options.ca):
        if k not in known:
            raise BadRequest(f"settings: {k!r} is not in this shift")
    locs = {p.location for x in (plan, *plan.hip_extra) for p in (x.a, x.b)}
    for sid in plan.options.occupants:
        if plan.op != Op.HIP:
            raise BadRequest("occupants: only a shifted fortification takes occupants (4.4)")
        s = next((x for x in plan.state_stacks if x.id == sid), None)
        if s is None:
            s = next((x for sub in plan.hip_extra for x in sub.state_stacks if x.id == sid), None)
        if s is None or s.location not in locs:
            raise BadRequest(f"occupants: {sid!r} is not a stack of {plan.side} in {sorted(locs)}")
