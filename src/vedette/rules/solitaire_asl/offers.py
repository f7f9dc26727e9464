"""What ``todo`` offers (issue 22): every kind of action the article and the ASL turn allow
now, complete where the state settles it, open with the candidate choices otherwise. The core
judges every entry (and every choice) with ``plan``: these are the candidates.

* set-up: ``place`` of the allotted dummy HIP counters and dummy minefields (3.1.1, 4.6.1),
  open on ``location``; ``mark`` of a concealed stack as a potential dummy stack (2.1);
* play: the facts of an undescribed location a shift needs (issue 24 item 10), the shifts
  (2.3, 3.3.2, 5.1), the bore-sight die with each eligible weapon's shot (6.1), the
  pre-registration die with an AR (7.1), moves of stacks (ASL A4, the RtPh, the APh), the
  end of a phase's start (2.3), merges (2.2) and the next phase. Not offered: ``reveal``
  (concealment, HIP and cloaking are lost by the ASL rules: the player reports it, it is not
  a choice), ``drop`` and ``fort`` (the player's own bookkeeping) but right after a shift: a
  tunnel's exit (4.4.2), a shifted fortification's CA (4.4, reading A43) and a cave complex
  (4.4.1). They may be typed, and are reached from the counter itself
  (:func:`counter_offers`: the web page lists a counter's when it is tapped on the board).

Choices of locations are few and readable (:data:`LOCATION_CHOICES`; a move's
:data:`MOVE_CHOICES`): a moving stack's adjacent hexes and the unrevealed minefields'
locations first, then the locations the scenario or the player described and those where
stacks and minefields stand. Any other location can still be typed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from vedette.errors import VedetteError
from vedette.rules.protocol import Todo
from vedette.rules.solitaire_asl import procedures as pr
from vedette.rules.solitaire_asl.boresight import fires
from vedette.rules.solitaire_asl.config import Config
from vedette.rules.solitaire_asl.model import (
    SETUP,
    Fortification,
    Op,
    State,
    Status,
    natural_key,
)
from vedette.rules.solitaire_asl.requests import ShiftRequest
from vedette.rules.solitaire_asl.shift import HIP_KINDS, plan_shift
from vedette.rules.solitaire_asl.turn import bookkeeping, window

#: at most this many location choices per open field
LOCATION_CHOICES = 24
#: at most this many destinations per moving stack (todo judges each: keep it cheap)
MOVE_CHOICES = 10

#: who fires in each phase (ASL A3: the phasing side in its PFPh and AFPh; the other side in
#: the DFPh and, as Defensive First Fire, in the MPh): the weapons whose bore-sight die is
#: offered (O'Leary 6.1 "each time that unit fires")
FIRING: Mapping[str, str] = {"PFPh": "phasing", "AFPh": "phasing", "MPh": "other", "DFPh": "other"}
#: who may call OBA (and so place an AR, O'Leary 7.1): the phasing side in its PFPh, the other
#: side in the DFPh (ASL C1.2)
OBA: Mapping[str, str] = {"PFPh": "phasing", "DFPh": "other"}
#: who moves (ASL A4, A10, A4.7): the phasing side in the MPh and APh, both sides in the RtPh
MOVING: Mapping[str, str] = {"MPh": "phasing", "APh": "phasing", "RtPh": "both"}


def _side(state: State, who: str) -> tuple[str, ...]:
    if who == "both":
        return tuple(state.sides)
    return (state.phasing,) if who == "phasing" else (state.enemy(state.phasing),)


def _locations(
    state: State, *extra: Iterable[str], but: Iterable[str] = (), most: int = LOCATION_CHOICES
) -> tuple[str, ...]:
    """The readable location choices: the ones given first, then the described ones and those
    with stacks or minefields, each once, capped at ``most`` (read only as far as the cap)."""
    skip = set(but)
    seen: dict[str, None] = {}
    for group in (*extra, _known(state)):
        for loc in group:
            if loc not in skip and loc not in seen:
                seen[loc] = None
                if len(seen) >= most:
                    return tuple(seen)
    return tuple(seen)


#: the last state asked of :func:`_known` and its answer (``todo`` asks it once a stack)
_KNOWN: list[Any] = [None, ()]


def _known(state: State) -> tuple[str, ...]:
    """The described locations, then those with stacks, then those with minefields (each
    group in natural order), each once: the tail of every :func:`_locations` list, worked out
    once per state (a state never changes)."""
    if _KNOWN[0] is state:
        return _KNOWN[1]  # type: ignore[no-any-return]
    groups = (
        sorted({x.id for x in state.locations}, key=natural_key),
        sorted({s.location for s in state.stacks}, key=natural_key),
        sorted({m.location for m in state.minefields}, key=natural_key),
    )
    known = tuple(dict.fromkeys(loc for g in groups for loc in g))
    _KNOWN[0], _KNOWN[1] = state, known
    return known


def setup_offers(state: State) -> list[Todo]:
    out = []
    for a in state.allotments:
        own = sorted({s.location for s in state.stacks if s.side == a.side}, key=natural_key)
        where = _locations(state, own)
        for kind, left, what, rule, at in (
            ("dummy_hip", a.dummy_hip - a.dummy_hip_placed, "dummy HIP counters", "3.1.1", where),
            (
                "dummy_minefield",
                a.dummy_minefields - a.dummy_minefields_placed,
                "dummy minefields",
                "4.6.1",
                # not where a minefield counter is (reading A47)
                _locations(state, own, but={m.location for m in state.minefields}),
            ),
        ):
            if left > 0 and at:
                out.append(
                    Todo(
                        "place",
                        {"kind": kind, "side": a.side},
                        f"{a.side}: place {left} more {what}",
                        f"O'Leary {rule}",
                        open={"location": at},
                    )
                )
    for s in state.stacks:
        if s.status in (Status.CONCEALED, Status.REVEALED) and s.counters:
            out.append(
                Todo(
                    "mark",
                    {"stack": s.id},
                    f"mark {s.id} ({s.location}) as a potential dummy stack",
                    "O'Leary 2.1",
                )
            )
    out.append(Todo("phase", {}, "start play: the first player's PFPh", "ASL A3"))
    return out


#: what ``todo`` last learned of each shift candidate ``(a, b, kind, side)``: what its plan
#: reads besides the window (:func:`_shift_reads`) and, so read, the two locations of the
#: accepted plan or ``None`` (refused). Most steps move one stack or change the phase: a
#: candidate whose stacks, fortifications and locations did not change is not planned again.
_SHIFT_MEMO: dict[tuple[str, str, str, str], tuple[tuple[Any, ...], tuple[str, str] | None]] = {}
#: the memo is emptied when it holds more candidates than this (many games in one process)
SHIFT_MEMO_MOST = 4096


def _shift_reads(
    state: State,
    here: Mapping[str, tuple[Any, ...]],
    ra: str,
    rb: str,
    kind: str,
    config: Config,
    tables: Mapping[str, Any],
) -> tuple[Any, ...] | None:
    """What :func:`plan_shift` of the candidate reads of ``state`` once its window is open and
    not closed (``shift_modifiers``, which reads the counts, never refuses): the stacks and
    fortifications of both locations (the two stacks' own fields with them; the enemy's too:
    reading A38 makes them see it), the locations' facts, the options and, for cloaked units,
    whether they moved this phase (5.1, outside the AFPh). ``here``: each location's stacks
    and fortifications. ``None``: not kept."""
    if kind == "hip":
        la, lb = ra, rb
        head: tuple[Any, ...] = ()
    else:
        sa, sb = state.stack(ra), state.stack(rb)
        if sa is None or sb is None:
            return None
        la, lb = sa.location, sb.location
        head = ()
        if kind == "cloaked":  # 5.1: a cloaked stack that moved has begun its own MPh/APh
            head += (state.phase == "AFPh", ra in state.moved_now, rb in state.moved_now)
    return (
        *head,
        config,
        tables,
        state.sides,
        state.options,
        here.get(la, ()),
        here.get(lb, ()),
        state.location(la),
        state.location(lb),
    )


def _shift_verdict(
    state: State, ra: str, rb: str, kind: str, side: str, config: Config, tables: Any
) -> tuple[str, str] | None:
    """The two locations of the candidate's plan, or ``None`` when plan refuses it."""
    try:
        req = ShiftRequest(a=ra, b=rb, kind=kind, side=side)  # type: ignore[arg-type]
        sp = plan_shift(state, req, config, tables)
    except VedetteError:
        return None
    return sp.a.location, sp.b.location


def _window_open(state: State, side: str, kind: str, config: Config) -> bool:
    """The shift window of ``side`` for ``kind`` is open now and shifting not closed in it
    (``turn.require_window`` outside a query; in a query its timing is not opened here)."""
    op = Op(kind)
    w = window(state, side, op)
    if not w.open:
        return False
    return op == Op.MINEFIELD or not state.is_closed(side, bookkeeping(op, config), w.key)


def shift_offers(
    state: State, config: Config, tables: Mapping[str, Any], memo: bool = True
) -> tuple[list[Todo], list[Todo]]:
    """(the facts to state first, the shifts): each shift the side may name now whose plan
    accepts it; a location it needs that nobody described is asked for first (issue 24 item
    10: one pick of terrain, one of enemy LOS), once. ``memo``: a candidate's verdict read from
    :data:`_SHIFT_MEMO` when what its plan reads is unchanged (``False``: planned afresh, the
    memo's oracle in its tests)."""
    facts: dict[str, Todo] = {}
    shifts: list[Todo] = []
    described = {x.id for x in state.locations}
    kinds = tuple(config.terrain_tem)
    here: dict[str, tuple[Any, ...]] | None = None
    for side in state.sides:
        opened: dict[str, bool] = {}  # whether the side's window is open, by kind (asked once)
        for ra, rb, kind in pr.shift_candidates(state, side):
            is_open = opened.get(kind)
            if is_open is None:
                is_open = opened[kind] = _window_open(state, side, kind, config)
            if not is_open:
                continue
            if not memo:
                got = _shift_verdict(state, ra, rb, kind, side, config, tables)
            else:
                if here is None:
                    here = _by_location(state)
                reads = _shift_reads(state, here, ra, rb, kind, config, tables)
                key = (ra, rb, kind, side)
                kept = _SHIFT_MEMO.get(key)
                if reads is not None and kept is not None and kept[0] == reads:
                    got = kept[1]
                else:
                    got = _shift_verdict(state, ra, rb, kind, side, config, tables)
                    if reads is not None:
                        if len(_SHIFT_MEMO) >= SHIFT_MEMO_MOST:
                            _SHIFT_MEMO.clear()
                        _SHIFT_MEMO[key] = (reads, got)
            if got is None:
                continue
            for loc in got:
                if loc not in described and loc not in facts and kinds:
                    facts[loc] = Todo(
                        "location",
                        {"id": loc},
                        f"describe {loc} before shifting from it: its terrain (TEM) and whether"
                        " an enemy unit sees it (else TEM 0, out of enemy LOS is assumed)",
                        "O'Leary 2.5",
                        # terrain first (the page presets every open field but the first to
                        # its first choice): out of enemy LOS first, as assumed (A29)
                        open={"terrain": kinds, "los": (False, True)},
                    )
            shifts.append(
                Todo(
                    "shift",
                    {"a": ra, "b": rb, "kind": kind, "side": side},
                    f"{side} may try a {kind} shift {ra} <-> {rb}",
                    "O'Leary 2.3, 3.3.2, 5.1",
                )
            )
    return list(facts.values()), shifts


def hip_items(state: State, side: str, location: str) -> tuple[list[str], bool]:
    """What of ``side`` is HIP in ``location`` (its HIP units' counters, dummy HIP counters
    and hidden fortifications, by id: what a shift's ``move``/``back`` name, 3.3.3), and
    whether any of it is real (a HIP unit or fortification, not only dummy HIP counters)."""
    items: list[str] = []
    real = False
    for s in state.stacks:
        if s.side == side and s.location == location and s.status in HIP_KINDS:
            if s.is_dummy:
                items.append(s.id)
            else:
                items += [c.id for c in s.counters]
                real = real or bool(s.counters)
    for f in state.fortifications:
        if f.side == side and f.location == location and f.hidden:
            items.append(f.id)
            real = True
    return items, real


def hip_parts(state: State, la: str, lb: str, side: str) -> list[Todo]:
    """O'Leary 3.3.3 at the table: besides the whole exchange, the HIP units of the other
    location need not come back (``back=[]``: one entry each way where that location holds
    HIP units), and only part of a location's HIP things may go (open on ``move``: each one
    alone; larger parts are typed). Each is judged by ``plan`` like every entry."""
    out = []
    at = {loc: hip_items(state, side, loc) for loc in (la, lb)}
    for x, y in ((la, lb), (lb, la)):
        items, _ = at[x]
        stay = at[y][1]
        req = {"a": x, "b": y, "kind": "hip", "side": side}
        if stay:
            out.append(
                Todo(
                    "shift",
                    {**req, "back": []},
                    f"{side} may try a hip shift {x} -> {y}, what is HIP in {y} staying",
                    "O'Leary 3.3.3",
                )
            )
        if len(items) > 1:
            out.append(
                Todo(
                    "shift",
                    req,
                    f"{side} may try a hip shift of part of {x} with {y}",
                    "O'Leary 3.3.3",
                    open={"move": tuple((i,) for i in items)},
                )
            )
    return out


#: at most this many other pairs offered to shift with one pair (2.4.2; more are typed)
GROUP_CHOICES = 12


def group_offers(state: State, shifts: list[Todo]) -> dict[int, Todo]:
    """O'Leary 2.4.2 at the table: "two or more potential dummy stacks may shift with the
    same number of dummy stacks/potential dummy stacks solely at the discretion of the player"
    (HIP units too, 3.3). By the index of a shift of ``shifts``: that pair with one other
    pair the side may shift now (each group once: with the pairs after it; none sharing a
    stack or location with it, and no stack exchanged with itself, which moves nothing), open
    on ``also``; ``plan`` judges each group (its consistency, the facts of every location).
    The text's instance is units in separate locations (a mortar and its spotter): each
    pair's first location holds real units (a potential dummy stack; HIP units or a hidden
    fortification), not dummy HIP counters alone. Which units belong together the state does
    not say: the player picks the group; groups of three pairs or more are typed."""
    real: set[tuple[str, str]] | None = None  # (side, location) with real HIP units (3.3)
    firsts: list[tuple[int, str, str, str, str]] = []
    for i, t in enumerate(shifts):
        a, b, kind, side = t.request["a"], t.request["b"], t.request["kind"], t.request["side"]
        if a == b:
            continue
        if kind == "hip":  # (a HIP pair names locations; a dummy pair, a PDS first)
            if real is None:
                real = {
                    (x.side, x.location)
                    for x in state.stacks
                    if x.status == Status.HIP and x.counters
                }
                real |= {(f.side, f.location) for f in state.fortifications if f.hidden}
            if (side, a) not in real:
                continue
        firsts.append((i, a, b, kind, side))
    out: dict[int, Todo] = {}
    for n, (i, a, b, kind, side) in enumerate(firsts):
        pairs = tuple(
            ((a2, b2),)
            for _, a2, b2, kind2, side2 in firsts[n + 1 :]
            if kind2 == kind and side2 == side and a2 not in (a, b) and b2 not in (a, b)
        )[:GROUP_CHOICES]
        if pairs:
            out[i] = Todo(
                "shift",
                dict(shifts[i].request),
                f"{side} may try a {kind} shift {a} <-> {b} with another pair, as one stack",
                "O'Leary 2.4.2",
                open={"also": pairs},
            )
    return out


def _by_location(state: State) -> dict[str, tuple[Any, ...]]:
    """Each location's stacks and fortifications, in the state's order (stacks first)."""
    out: dict[str, list[Any]] = {}
    for s in state.stacks:
        out.setdefault(s.location, []).append(s)
    for f in state.fortifications:
        if f.location:
            out.setdefault(f.location, []).append(f)
    return {k: tuple(v) for k, v in out.items()}


def fire_offers(state: State) -> list[Todo]:
    """O'Leary 6.1: each weapon still eligible to bore sight may throw the third die when it
    fires (one entry per weapon; 6.3 groups are typed by hand), open on the target; 7.1: an
    OBA module still without its pre-registered hex throws its die when an AR is placed."""
    out = []
    who = FIRING.get(state.phase)
    waiting = {o.id for o in state.owed}
    if who is not None:
        sides = tuple(x for x in _side(state, who) if fires(state, x))  # A36's data too
        for s in state.stacks:
            if s.side not in sides:
                continue
            targets = _locations(
                state,
                sorted({x.location for x in state.stacks if x.side != s.side}, key=natural_key),
                but=(s.location,),
            )
            for c in s.counters:
                if c.boresight == "eligible" and f"boresight:{c.id}" not in waiting and targets:
                    out.append(
                        Todo(
                            "boresight",
                            {"weapons": [c.id]},
                            f"{c.name} ({c.id}) fires: the bore-sight die (third die)",
                            "O'Leary 6.1",
                            open={"target": targets},
                        )
                    )
    who = OBA.get(state.phase)
    if who is not None:
        sides = _side(state, who)
        for m in state.oba:
            if m.side in sides and m.prereg and m.location is None:
                if f"prereg:{m.id}" in waiting or m.id in state.ar_now:  # 7.1, A44
                    continue
                enemy = [x.location for x in state.stacks if x.side != m.side]
                out.append(
                    Todo(
                        "prereg",
                        {"module": m.id},
                        f"OBA module {m.id}: an AR is placed: the pre-registration die",
                        "O'Leary 7.1",
                        open={"ar": _locations(state, sorted(set(enemy), key=natural_key))},
                    )
                )
    return out


def move_offers(state: State) -> list[Todo]:
    """ASL A4 (MPh), A10 (RtPh), A4.7 (APh): a stack that may move, open on where to: its
    adjacent hexes, then the described locations and those holding stacks or minefields
    (4.6.2: entering an unrevealed minefield's location offers its exchange)."""
    who = MOVING.get(state.phase)
    if who is None:
        return []
    sides = _side(state, who)
    out = []
    mines = sorted({m.location for m in state.minefields if not m.revealed}, key=natural_key)
    for s in state.stacks:
        if s.side not in sides or s.status in HIP_KINDS:
            continue
        near = state.layout.neighbors(s.location)
        to = _locations(state, near, mines, but=(s.location,), most=MOVE_CHOICES)
        if to:
            out.append(
                Todo(
                    "move",
                    {"stack": s.id},
                    f"move {s.id} ({s.side}) from {s.location}",
                    "ASL A4; O'Leary 2.2, 2.3",
                    open={"to": to},
                )
            )
    return out


def ca_choices(state: State, f: Fortification) -> tuple[str, ...]:
    """O'Leary 4.4: the covered arcs a fortification may choose, one per hexside, named by
    the location it faces ("facing 4P4"): any other wording may be typed (``fort ca=``)."""
    return facing(state, f.location)


def facing(state: State, location: str) -> tuple[str, ...]:
    """One covered arc per hexside of ``location``, named by the location it faces."""
    if not location:
        return ()
    near = sorted(state.layout.neighbors(location), key=natural_key)
    return tuple(f"facing {h}" for h in near)


def settle_offers(state: State) -> list[Todo]:
    """O'Leary 2.3: right after a shift, each vehicle and Gun it exchanged (``State.resettle``,
    reading A46) may choose its arcs: a vehicle its VCA (its TCA with it; another TCA is typed,
    ``tca=``) and CE/BU status, a Gun its CA and, if it was allowed to emplace at the start,
    whether it is emplaced (emplaced first: it stays so only if said). Open on those choices,
    one per hexside; optional, like the shift's own ``settings`` and ``emplaced``."""
    out = []
    for cid in state.resettle:
        hit = state.counter(cid)
        if hit is None:
            continue
        s, c = hit
        arcs = facing(state, s.location)
        if not arcs:
            continue
        choose: dict[str, tuple[Any, ...]] = {"ca": arcs}
        if c.kind == "vehicle":
            choose["ce"] = ("CE", "BU") if "CE" in c.settings.split(", ") else ("BU", "CE")
            what = "VCA/TCA and CE/BU"
        else:
            what = "CA"
            if c.may_emplace:
                choose["emplaced"] = (True, False)
                what += " and emplacement"
        out.append(
            Todo(
                "settle",
                {"id": c.id},
                f"{c.name} ({c.id}, {s.side}) shifted, now in {s.location}: choose its {what}",
                "O'Leary 2.3",
                open=choose,
            )
        )
    return out


def complex_choices(state: State, cave: Fortification) -> tuple[str, ...]:
    """O'Leary 4.4.1: the cave complexes a cave may join when its side re-forms them: its
    side's other complexes, then a new one (the first free name K1, K2 ...)."""
    have = {f.complex for f in state.fortifications if f.kind == "cave" and f.complex}
    mine = sorted(
        {f.complex for f in state.fortifications if f.kind == "cave" and f.side == cave.side}
        - {"", cave.complex},
        key=natural_key,
    )
    new = next(f"K{i}" for i in range(1, len(have) + 2) if f"K{i}" not in have)
    return (*mine, new)


def fort_offers(state: State) -> list[Todo]:
    """O'Leary 4.4.2: a tunnel whose exit is to be chosen (cleared by a shift of its fortified
    end, or never set) or open to a change right now (a fortification left its exit's location:
    ``State.reroute``, reading A40), open on its exit: the locations next to its fortified end,
    then the described ones (any other may be typed). 4.4, 4.4.1: right after a shift, the CA
    of a fortification it moved (``State.reorient``, reading A43) and the cave complex of each
    cave of a side whose cave shifted (``State.reform``, A40), open on their choices."""
    out = []
    for f in state.fortifications:
        if f.id in state.rehouse:
            guests = tuple(
                s.id
                for s in state.stacks
                if s.side == f.side
                and s.location == f.location
                and s.position != f.kind
                and s.status != Status.DUMMY_HIP  # (4.4 names units and dummy stacks)
            )
            if guests:
                out.append(
                    Todo(
                        "fort",
                        {"id": f.id},
                        f"{f.words} {f.id} ({f.side}) shifted to {f.location}: a stack there in it",
                        "O'Leary 4.4",
                        open={"occupant": guests},
                    )
                )
        if f.id in state.reorient and f.location:
            out.append(
                Todo(
                    "fort",
                    {"id": f.id},
                    f"{f.words} {f.id} ({f.side}) shifted to {f.location}: choose its CA",
                    "O'Leary 4.4",
                    open={"ca": ca_choices(state, f)},
                )
            )
        if f.kind == "cave" and f.side in state.reform:
            out.append(
                Todo(
                    "fort",
                    {"id": f.id},
                    f"cave {f.id} ({f.side}) in {f.location}: re-form its cave complex"
                    + (f" (now {f.complex})" if f.complex else ""),
                    "O'Leary 4.4.1",
                    open={"complex": complex_choices(state, f)},
                )
            )
    for f in state.fortifications:
        if f.kind != "tunnel" or not f.location or (f.exit and f.id not in state.reroute):
            continue
        if any(o.id == f"tunnel:{f.id}" for o in state.owed):
            continue  # owed (4.4.2, reading A45): todo lists it with the owed steps
        near = state.layout.neighbors(f.location)
        to = _locations(state, near, but=(f.location, f.exit))
        if to:
            what = "choose again" if f.exit else "choose"
            out.append(
                Todo(
                    "fort",
                    {"id": f.id},
                    f"tunnel {f.id} ({f.side}) from {f.location}: {what} its other exit",
                    "O'Leary 4.4.2; ASL B8.6",
                    open={"exit": to},
                )
            )
    return out


#: the words for a stack's status in a counter's entries
STATUS_WORDS = {
    Status.POTENTIAL_DUMMY: "potential dummy stack",
    Status.DUMMY: "dummy stack",
    Status.CONCEALED: "concealed stack",
    Status.HIP: "HIP units",
    Status.DUMMY_HIP: "dummy HIP counter",
    Status.CLOAKED: "cloaked",
}
REVEAL_RULE = "O'Leary 2.2, 3.4, 5.2"


def counter_offers(state: State) -> dict[str, list[Todo]]:
    """The player's own reports on each counter (``Ruleset.counter_actions``: the web page
    lists them when the counter is tapped; not in ``todo``, see the module): ``reveal`` of a
    stack still hidden in any way (HIP and cloaked units also keeping a "?"), of a hidden
    fortification and of a minefield face down (concealment, HIP, cloaking or a minefield's
    strength lost by the ASL rules); ``drop`` of a potential dummy stack (2.2); ``fort`` of
    a fortification's CA not yet recorded (4.4), and what ``todo`` offers for it right after a
    shift (its CA, its cave complex, a tunnel's exit)."""
    if state.phase == SETUP:
        return {}
    out: dict[str, list[Todo]] = {}
    for s in state.stacks:
        if s.status == Status.REVEALED:
            continue
        what = f"{s.id} ({STATUS_WORDS.get(s.status, s.status.value)}, {s.location})"
        todo = [
            Todo("reveal", {"what": s.id}, f"reveal {what}: lost by the ASL rules", REVEAL_RULE)
        ]
        if s.status in (Status.HIP, Status.CLOAKED) and not s.is_dummy:
            todo.append(
                Todo(
                    "reveal",
                    {"what": s.id, "keep_concealment": True},
                    f"{what} loses {'HIP' if s.status == Status.HIP else 'cloaking'}, keeps a ?",
                    REVEAL_RULE,
                )
            )
        if s.status == Status.POTENTIAL_DUMMY:
            todo.append(
                Todo(
                    "drop", {"stack": s.id}, f"drop {s.id}'s potential dummy status", "O'Leary 2.2"
                )
            )
        out[s.id] = todo
    for t in settle_offers(state):  # 2.3: a vehicle's or Gun's arcs right after its shift
        hit = state.counter(str(t.request["id"]))
        if hit is not None:
            out.setdefault(hit[0].id, []).append(t)
    later: dict[str, list[Todo]] = {}
    for t in fort_offers(state):
        later.setdefault(str(t.request["id"]), []).append(t)
    for f in state.fortifications:
        todo = []
        if f.hidden:
            todo.append(
                Todo(
                    "reveal",
                    {"what": f.id},
                    f"reveal {f.words} {f.id} ({f.location}): lost by the ASL rules",
                    REVEAL_RULE,
                )
            )
        if f.id in later:
            todo.extend(later[f.id])
        elif not f.ca and state.config.fortification_ca.get(f.kind, False) and f.location:
            todo.append(
                Todo(
                    "fort",
                    {"id": f.id},
                    f"record the CA of {f.words} {f.id} ({f.location})",
                    "O'Leary 4.4",
                    open={"ca": ca_choices(state, f)},
                )
            )
        if todo:
            out[f.id] = todo
    for m in state.minefields:
        if not m.revealed:
            out[m.id] = [
                Todo(
                    "reveal",
                    {"what": m.id},
                    f"reveal minefield {m.id} ({m.location}): its strength, by the ASL rules",
                    REVEAL_RULE,
                )
            ]
    return out


def merge_offers(state: State) -> list[Todo]:
    """O'Leary 2.2: stacks of one side and status in the same location and position may be
    put together (potential dummy stacks at the end of their side's CCPh; plan checks it)."""
    out = []
    by_place: dict[tuple[str, str, str, str], list[str]] = {}
    for s in state.stacks:
        by_place.setdefault((s.side, s.status.value, s.location, s.position), []).append(s.id)
    for (_, status, loc, _), ids in by_place.items():
        for b in ids[1:]:
            out.append(
                Todo(
                    "merge",
                    {"a": ids[0], "b": b},
                    f"merge {b} into {ids[0]} ({status.replace('_', ' ')}, {loc})",
                    "O'Leary 2.2",
                )
            )
    return out


def offers(state: State, config: Config, tables: Mapping[str, Any]) -> list[Todo]:
    """The actions open now, pre-filled where the state knows them (see the module)."""
    if state.phase == SETUP:
        return setup_offers(state)
    facts, shifts = shift_offers(state, config, tables)
    # what a shift just opened first (2.3: "immediately following the exchange")
    out = [*settle_offers(state), *fort_offers(state), *facts]
    groups = group_offers(state, shifts)
    for i, t in enumerate(shifts):
        out.append(t)
        if t.request["kind"] == "hip":  # 3.3.3: its parts after the whole
            out += hip_parts(state, t.request["a"], t.request["b"], t.request["side"])
        if i in groups:  # 2.4.2
            out.append(groups[i])
    out += fire_offers(state)
    out += move_offers(state)
    out += merge_offers(state)
    # the start of a phase matters in the MPh and APh (2.3, 5.1) and, at night, in the AFPh
    # (5.1: cloaked units shift at the start of their side's AFPh)
    starts = ("MPh", "APh", "AFPh") if state.night else ("MPh", "APh")
    if state.phase in starts and not state.acted:
        out.append(
            Todo(
                "act",
                {},
                f"close the start of the {state.phasing} {state.phase}",
                "O'Leary 5.1" if state.phase == "AFPh" else "O'Leary 2.3",
            )
        )
    out.append(Todo("phase", {}, "on to the next phase", "ASL A3"))
    return out
