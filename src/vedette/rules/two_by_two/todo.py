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

import functools
import itertools
import math
import operator
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from vedette.errors import BadRequest, VedetteError
from vedette.geometry import tabletop as tt
from vedette.geometry.tabletop import Body
from vedette.rules.protocol import Obligation, Todo
from vedette.rules.two_by_two import facts
from vedette.rules.two_by_two.common import cavalry_in_play, check_contagion, hq_levels
from vedette.rules.two_by_two.melee import held_with
from vedette.rules.two_by_two.model import (
    DERIVED,
    FORMATIONS,
    R_CONTACT,
    R_MELEE,
    R_MOVE,
    R_RALLY,
    R_REINF,
    R_SEQ,
    R_SETUP,
    R_SHOOT,
    R_UNITS,
    GameState,
)
from vedette.rules.two_by_two.rally import near_allowed
from vedette.rules.two_by_two.shooting import COVER

EFFECTS = ("disrupted", "pinned")

_END = ("next", "next_phase")

#: the angles a turn and a wheel are offered at (degrees; any other may be typed): a turn
#: either way, or about, reaches each of the eight facings 45 degrees apart at once (no turn
#: is offered straight after a turn)
_TURNS = (45, 90, 135)
_WHEELS = (45, 90)


def obligations(state: GameState) -> tuple[Obligation, ...]:
    if not state.melees and not state.follow_ups:  # (most steps: nothing pending)
        return ()
    out: list[Obligation] = []
    stated = state.play == "stated"
    if state.stage == "battle" and state.phase == "melee":
        for m in state.melees:
            a, d = m.attacker, m.defender
            sides = {state.unit(a).side, state.unit(d).side} if stated else set()
            seen = _melee_facts(state, m) if stated else {}
            out.append(
                Obligation(
                    f"melee:{a}:{d}",
                    "melee",
                    {"attacker": a, "defender": d},
                    R_MELEE,
                    f"the melee {a} vs {d} (resolve every melee before the phase ends)",
                    blocks=_END,
                    open={**_contagion_choices(state, sides, (a, d)), **seen},
                    free=frozenset(seen),
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
                    open=_contact_choices(state, f.unit) if stated else {},
                )
            )
    return tuple(out)


def _some_of(
    ids: tuple[str, ...], groups: tuple[tuple[str, ...], ...] = ()
) -> tuple[tuple[str, ...], ...]:
    """A stated list field's likely values, picked and not typed: none, each unit alone, and
    each of ``groups`` of two units or more; an open field offers values, not any subset, so
    another subset is typed (``contagion=M1,M2``) or entered in the web app's form."""
    return ((), *((i,) for i in ids), *(g for g in groups if len(g) > 1))


def _contagion_choices(
    state: GameState, sides: set[str], leave: tuple[str, ...] = ()
) -> dict[str, tuple[Any, ...]]:
    """Stated play: the open ``contagion`` field of an action that may rout a unit of
    ``sides`` (2 by 2, Unit Summary: "** rout whenever any rout w/in [3]"): the ``**`` units
    in play that such a rout could take along (of ``sides`` while ``[rout] contagion_sides``
    is "friendly"; ``leave``: the units fighting, named already), which the player picks
    after measuring [3] from the rout; none when no such unit is in play."""
    friendly = state.rules.rout.contagion_sides == "friendly"
    near = [
        u
        for u in state.live()
        if state.utype(u).rout_contagion
        and not u.entry
        and u.id not in leave
        and (not friendly or u.side in sides)
    ]
    if not near:
        return {}
    ids = tuple(u.id for u in near)
    # all of a side's at once (a rout takes along a friend's: each side's own; otherwise all)
    groups = (
        tuple(tuple(u.id for u in near if u.side == s.id) for s in state.sides)
        if friendly
        else (ids,)
    )
    return {"contagion": _some_of(ids, groups)}


#: the procedures whose stated ``contagion`` only :func:`common.check_contagion` reads before
#: the dice, and the request fields naming the units whose side may rout
_ROUTING = {"shoot": ("target",), "melee": ("attacker", "defender"), "rout": ("unit",)}


def contagion_apart(state: GameState, judge: Callable[[str, Mapping[str, Any]], Any]) -> Any:
    """``todo``'s judge in stated play, an open ``contagion`` judged apart: ``plan`` reads a
    stated contagion only in :func:`common.check_contagion` (the units named rout that way),
    so each request is judged once without it, and each contagion checked on its own (a
    shot's targets x bands x contagions were each judged whole: 6 times the work with four
    militia about). The same verdicts; the parsed request returned is the one without it (todo
    reads only the verdict of an open line's choices, and a contagion is always open). A stated
    fact read for a modifier alone (a melee's, a shot's, a rally's) is a free field
    (``Todo.free``): judged at its first choice only."""
    if state.play != "stated":
        return judge
    kept: dict[tuple[Any, ...], tuple[bool, Any]] = {}

    def verdict(key: tuple[Any, ...], check: Callable[[], Any]) -> Any:
        hit = kept.get(key)
        if hit is None:
            try:
                hit = (True, check())
            except VedetteError as e:
                hit = (False, e)
            kept[key] = hit
        if not hit[0]:
            raise hit[1].with_traceback(None)
        return hit[1]

    def apart(procedure: str, request: Mapping[str, Any]) -> Any:
        names = _ROUTING.get(procedure)
        stated = request.get("contagion")
        if names is None or type(stated) is not tuple:  # (todo's choices are tuples)
            return judge(procedure, request)
        rest = {k: v for k, v in request.items() if k != "contagion"}
        try:
            key = (procedure, *rest.items())
            hash((key, stated))
        except TypeError:  # (a list in the request: not a key)
            return judge(procedure, request)
        typed = verdict(key, lambda: judge(procedure, rest))
        sides = frozenset(state.unit(rest[f]).side for f in names)
        verdict((sides, stated), lambda: check_contagion(state, stated, sides))
        return typed

    return apart


#: how many overlap supports a stated melee offers beyond the ones it knows (the most)
_MORE_SUPPORT = 2


def _melee_facts(state: GameState, m: Any) -> dict[str, tuple[Any, ...]]:
    """Stated play: the facts of a melee the player sees on the table (2 by 2, Melee), each
    side's (``a_`` the attacker, ``b_`` the defender), picked and not typed, the usual answer
    first (the web app shows it chosen): in a town ("Cavalry in town", a loser "in town or
    woods" holding, a winner in a town not bound to follow up), or for a unit that may enter
    woods/rough (Movement Modifiers: Light Infantry and Cossacks) a town, woods/rough or
    neither in one field (reading 56: :func:`_ground`), each of these and the HQ contact only
    as held for the unit, if it is (reading 54); which of
    the two stands higher than the other (one field, ``higher``: not both); an HQ in base
    contact, where the side has another HQ in play; and overlap supports, where the side has
    more units able to give them than the melees known count (its friends in a melee with the
    same enemy, reading 20), up to two more. Any other value is typed (``a_support=4``)."""
    out: dict[str, tuple[Any, ...]] = {}
    pair = (("a", m.attacker, m.defender), ("b", m.defender, m.attacker))
    units = {p: (state.unit(uid), state.unit(eid)) for p, uid, eid in pair}
    for p, (u, _) in units.items():
        out.update(_ground(state, u, p))
    out["higher"] = HIGHER  # (one field: the two cannot each be higher than the other)
    for p, (u, _) in units.items():
        if hq_levels(state, u):
            out[f"{p}_hq_contact"] = _kept(state, u, "hq_contact")
    for p, (u, e) in units.items():
        held = held_with(state, u, e)
        able = [
            f
            for f in state.live(u.side)
            if f.id != u.id and not f.entry and not f.disrupted and not state.utype(f).is_hq
        ]
        if len(able) > len(held):
            top = min(len(able), len(held) + _MORE_SUPPORT)
            out[f"{p}_support"] = tuple(range(len(held), top + 1))
    return out


#: a stated melee side's ground (``a_ground``), the usual answer first
GROUNDS = ("neither", "town", "woods")


def _ground(state: GameState, u: Any, p: str) -> dict[str, tuple[Any, ...]]:
    """Side ``p``'s stated ground in a melee: for a unit that may enter woods/rough (Light
    Infantry, Cossacks), one field ``{p}_ground`` (a town, woods/rough or neither: not both,
    reading 56); for any other, ``{p}_town``. Each as held (reading 54), a shot's
    "in woods/rough or town" included: the town first, as a melee leaving it out rules."""
    cover = state.held_fact(u.id, "in_cover") if state.held else None
    town, woods = _kept(state, u, "town"), _kept(state, u, "woods")
    if not state.utype(u).woods_half:
        return {f"{p}_town": (True,) if cover and len(town) > 1 else town}
    grounds = tuple(
        g
        for g in GROUNDS
        if (g == "town") in town and (g == "woods") in woods and not (cover and g == "neither")
    )
    return {f"{p}_ground": grounds}


def _kept(state: GameState, u: Any, fact: str) -> tuple[bool, ...]:
    """A stated yes/no fact of ``u``'s own ground: the value held for it alone
    (reading 54: ``plan`` refuses the other), else both, the usual answer first."""
    was = state.held_fact(u.id, fact) if state.held else None
    return _NO_YES if was is None else (was,)


def _contact_choices(state: GameState, uid: str) -> dict[str, tuple[Any, ...]]:
    """Stated play: the open ``contact`` field of a follow-up (2 by 2, Melee: a winner's
    follow-up into contact with a fresh enemy starts a subsequent melee): no contact, or one
    of the enemies in play (entered the table: Reinforcements), which the player sees
    touching the follower once it has moved."""
    u = state.unit(uid)
    ids = tuple(e.id for e in state.live(state.enemy_of(u.side)) if not e.entry)
    return {"contact": _some_of(ids)} if ids else {}


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


#: the last state's options (the state kept alive with them) and, in a move phase, what they
#: were made of (:func:`_carried`): ``todo`` asks for them, then the simulator (its lines) of
#: the same state, and next of the state one step made of it
_LAST_OPTIONS: list[tuple[GameState, list[Todo], Any]] = []


def options(state: GameState) -> list[Todo]:
    """Every kind of action the rules allow now, complete where the state determines it and
    open (the choices a player has: units, distances, targets, points of an edge) otherwise;
    ``Ruleset.todo`` keeps only what ``plan`` accepts (issue 22)."""
    return list(offers(state))


def offers(state: GameState) -> Sequence[Todo]:
    """:func:`options`, the list kept (not a copy): read it, never change it (the
    simulator's lines)."""
    if _LAST_OPTIONS:
        last, out, parts = _LAST_OPTIONS[0]
        if last is state:
            return out
        made_of = DERIVED[0]
        if parts is not None and made_of[0] is state and made_of[1] is last:
            i = made_of[2]
            made = _carried(state, last.units[i], state.units[i], parts)
            if made is not None:
                _LAST_OPTIONS[:] = [(state, *made)]
                return made[0]
    out, parts = _built(state)
    _LAST_OPTIONS[:] = [(state, out, parts)]
    return out


def _options(state: GameState) -> list[Todo]:
    return _built(state)[0]


def _built(state: GameState) -> tuple[list[Todo], Any]:
    """The options, and in a move phase what they are made of (:func:`_carried`)."""
    if state.stage == "over":
        return [], None
    if state.stage == "setup":
        return _setup(state), None
    kind, side = state.phase, state.actor
    out: list[Todo] = []
    if kind == "move":
        lines, made = _moves(state, side)
        out.extend(lines)
        out.extend(_reactions(state))
        routs = _voluntary_routs(state)
        out.extend(routs)
        nxt = _next_line(state)
        out.append(nxt)
        return out, (*made, routs, nxt)
    if kind == "rally":
        out.extend(_rallies(state, side))
    elif kind == "shoot":
        for u in state.live(side):
            t = state.utype(u)
            if t.can_shoot and not u.shot and not u.disrupted and not u.entry:
                out.extend(_shots(state, u))  # (an arrived unit shoots once it has entered)
        out.extend(_countercharges(state, side))
    elif kind == "melee":
        out.extend(_melee_phase(state))
    out.extend(_voluntary_routs(state))
    out.append(_next_line(state))
    return out, None


def _carried(state: GameState, old: Any, new: Any, parts: Any) -> tuple[list[Todo], Any] | None:
    """A move phase's options after one unit of the moving side changed and nothing else
    (``old`` became ``new``, both on the table: :data:`model.DERIVED`): the last state's, but
    for that unit's lines (built again) and the reactions (they read who moved). The other
    lines read nothing of it: a unit's move lines read the unit, its enemies, the melees, the
    RPs, the table and the rules; the reinforcement rolls and "end the phase" read no
    position or marker of a unit on the table, the voluntary routs only whether a unit is
    disrupted, pinned or yet to enter (built again when the unit's changed). None when the change is
    not of that kind (the options are then built afresh)."""
    side, enemies, gen, mine, per, ids, rolls, routs, nxt = parts
    if new.side != side or new.status != "table" or old.status != "table":
        return None
    if new.disrupted != old.disrupted or new.pinned != old.pinned or new.entry != old.entry:
        routs = _voluntary_routs(state)  # (not disrupted or pinned: reading 18; entered)
    k = ids.index(new.id)
    mine, per = mine.copy(), per.copy()
    mine[k] = new
    per[k] = _unit_lines(state, new, enemies, gen)
    _LAST_MOVES[0] = (side, gen, mine, per)
    out: list[Todo] = list(itertools.chain.from_iterable(per))
    out.extend(rolls)
    out.extend(_reactions(state))
    out.extend(routs)
    out.append(nxt)
    return out, (side, enemies, gen, mine, per, ids, rolls, routs, nxt)


#: the last "end the phase" line and what its text reads of the state (compared by value, the
#: sides by identity: the entry keeps them alive)
_NEXT: list[Any] = [None, None]


def _next_line(state: GameState) -> Todo:
    """The "end the phase" line (its text names the phase: the same line all phase long)."""
    key = (state.stage, state.setup_step, state.turn, state.phase_index, state.attacker)
    last, line = _NEXT
    if last is None or last[0] != key or last[1] is not state.sides or last[2] != state.defender:
        line = _todo("next", (), f"end the phase ({state.phase_name()})", R_SEQ)
        _NEXT[:] = [(key, state.sides, state.defender), line]
    return line  # type: ignore[no-any-return]


# -- choices ---------------------------------------------------------------------------------
@functools.lru_cache(maxsize=1 << 15)
def _todo(
    proc: str,
    request: tuple[tuple[str, Any], ...],
    text: str,
    rule: str,
    open_: tuple[tuple[str, tuple[Any, ...]], ...] = (),
) -> Todo:
    """A line, built once per value: most of a unit's lines come back step after step the
    same (lines are immutable values, their requests and choices never written to)."""
    return Todo(proc, dict(request), text, rule, open=dict(open_))


def _n(v: float) -> str:
    """A distance choice in [n], rounded down to 1/100 (never beyond what is left)."""
    return f"{math.floor(v * 100 + 1e-6) / 100:g}"


#: the whole [n] a move is offered besides all that is left and half of it (a phone's list
#: stays short: any other figure may be typed, or entered in the web app's form)
_WHOLE = (1.0, 2.0, 3.0)


@functools.lru_cache(maxsize=4096)
def _distances(left: float, *extra: float) -> tuple[str, ...]:
    """A few distances a player would move: all that is left, half of it, [1], [2] and [3]
    below it (and ``extra``: the most with the road bonus, beyond what is left off the
    road); worked out once per value (the same few values come back)."""
    top = max((left, *extra))
    vals = {left, left / 2, *extra, *(w for w in _WHOLE if w < left - 1e-9)}
    return tuple(
        dict.fromkeys(_n(v) for v in sorted(vals, reverse=True) if 0.01 <= v <= top + 1e-9)
    )


def _edge_points(
    state: GameState, edge: str, inset: float, centre: float, spread: float, step: float
) -> tuple[str, float, tuple[float, ...]]:
    """Points along a table edge, ``inset`` mm in from it: the fixed coordinate's field and
    value, and the choices of the other (from ``centre`` - ``spread`` to + ``spread``)."""
    w, d = state.table.width, state.table.depth
    fixed = {"south": ("y", inset), "north": ("y", d - inset)}
    fixed |= {"west": ("x", inset), "east": ("x", w - inset)}
    name, value = fixed[edge]
    length = w if name == "y" else d
    k = int(spread // step)
    pts = [centre + i * step for i in range(-k, k + 1)]
    return name, round(value, 2), tuple(round(p, 2) for p in pts if 0 < p < length)


def _other(field: str) -> str:
    return "x" if field == "y" else "y"


# -- set-up ----------------------------------------------------------------------------------
def _setup(state: GameState) -> list[Todo]:
    step = state.setup_step
    if step == "roll":
        die = state.rules.setup_die
        return [Todo("setup_roll", {}, f"roll for the Attacker (each side {die})", R_SETUP)]
    r = state.rules
    if step.startswith("deploy"):
        side = str(state.defender if step == "deploy_def" else state.attacker)
        budget = r.setup.ap_each + state.extra_ap
        used = sum(state.utype(o).ap for o in state.live(side))
        waiting = [u.id for u in state.units if u.side == side and u.status == "reserve"]
        edge = state.side(side).edge
        half = r.footprint.depth / 2
        depth = r.mm(r.setup.deploy_depth)
        margin = r.mm(r.setup.side_margin) + r.footprint.width / 2
        out = []
        length = state.table.width if edge in ("south", "north") else state.table.depth
        step_mm = r.mm(2)
        along = length / 2
        spread = length / 2 - margin
        role = "Defender" if step == "deploy_def" else "Attacker"
        for inset in (half + 1.0, depth / 2, depth - half - 1.0):
            f, v, pts = _edge_points(state, edge, inset, along, spread, step_mm)
            if waiting:
                out.append(
                    Todo(
                        "deploy",
                        {f: v},
                        f"the {role} ({state.side(side).name}) deploys a unit [{r.n(inset):.1f}]"
                        f" from the {edge} edge ({used} of {budget} AP placed)",
                        R_SETUP,
                        open={"unit": tuple(waiting), _other(f): pts},
                    )
                )
        out.append(Todo("next", {}, f"the {role} ends the deployment", R_SEQ))
        return out
    side = str(state.defender if step in ("rp_def", "rp_def2") else state.attacker)
    own = state.side(side).edge
    edges = [own]
    if side == state.attacker:
        edges += ["west", "east"] if own in ("south", "north") else ["south", "north"]
    queued = {q for rp in state.rps for q in rp.queue}
    waiting = [
        u.id for u in state.units if u.side == side and u.status == "reserve" and u.id not in queued
    ]
    queues: list[list[str]] = [waiting, waiting[: (len(waiting) + 1) // 2], []]
    unique = [list(q) for i, q in enumerate(queues) if q not in queues[:i]]
    out = []
    for e in edges:
        length = state.table.width if e in ("south", "north") else state.table.depth
        f, v, pts = _edge_points(state, e, 0.0, length / 2, length / 2, r.mm(4))
        kind = "rear" if e == own else "flank"
        out.append(
            Todo(
                "rp",
                {f: v},
                f"{state.side(side).name} picks a {kind} reinforcement point on the {e} edge"
                " and the units to arrive there, in order",
                R_SETUP,
                open={_other(f): pts, "units": tuple(unique)},
            )
        )
    return out


# -- the move phase --------------------------------------------------------------------------
def _charged_this_phase(state: GameState, u: Any) -> bool:
    """A move to contact ends the unit's move (2 by 2, Moving to contact; reading 37: its
    melee standing or not)."""
    if u.id in state.charged:
        return True
    return any(m.attacker == u.id and not m.counter_charge for m in state.melees)


#: the lines of each unit's move, by unit id: (what they were computed from, the lines). A
#: move phase changes one unit a step; the others' lines are the same objects as before.
_UNIT_MOVES: dict[str, tuple[tuple[Any, ...], list[Todo]]] = {}


#: what every unit's lines are read from besides the unit (the rules, the melees, the RPs, the
#: table, the enemies), as last seen, and a number that changes whenever any of them does
_SHARED: list[Any] = [(), 0]


def _generation(shared: tuple[Any, ...]) -> int:
    """The number of ``shared`` (compared by identity with the last seen: the same objects
    keep the same number; the entry keeps them alive)."""
    last = _SHARED[0]
    if len(last) != len(shared) or not all(map(operator.is_, last, shared)):
        _SHARED[0], _SHARED[1] = shared, _SHARED[1] + 1
    return int(_SHARED[1])


#: the last move phase's lines: (side, generation, its units, each unit's lines); the next
#: step's lines are these, but for the units that are not the same objects (most steps change
#: one unit: found by comparing the two lists in one pass)
_LAST_MOVES: list[Any] = [None]


def _moves(state: GameState, side: str) -> tuple[list[Todo], tuple[Any, ...]]:
    """The move lines of ``side``'s units and its reinforcement rolls, and what they are made
    of (:func:`_carried`)."""
    enemies = state.live(state.enemy_of(side))
    # everything a unit's lines are read from (compared by identity: states are immutable
    # values, so the same objects mean the same lines; the entry keeps the unit alive)
    gen = _generation((state.rules, state.play, state.melees, state.rps, state.table, *enemies))
    mine = state.live(side)
    last = _LAST_MOVES[0]
    if last is not None and last[0] == side and last[1] == gen and len(last[2]) == len(mine):
        per = list(last[3])
        same = list(map(operator.is_, mine, last[2]))
        k = -1
        while False in same:  # each unit not kept: its lines looked up (or made) again
            k = same.index(False, k + 1)
            same[k] = True
            per[k] = _unit_lines(state, mine[k], enemies, gen)
    else:
        per = [_unit_lines(state, u, enemies, gen) for u in mine]
    _LAST_MOVES[0] = (side, gen, mine, per)
    out: list[Todo] = list(itertools.chain.from_iterable(per))
    rolls = _reinforcement_rolls(state, side)
    out.extend(rolls)
    return out, (side, enemies, gen, mine, per, [u.id for u in mine], rolls)


def _unit_lines(state: GameState, u: Any, enemies: list[Any], gen: int) -> list[Todo]:
    """A unit's lines in its move phase, kept by unit while it and what they read stay the
    same objects (:data:`_UNIT_MOVES`)."""
    hit = _UNIT_MOVES.get(u.id)
    if hit is not None and hit[0][0] is u and hit[0][1] == gen:
        return hit[1]
    lines = _unit_moves(state, u, enemies)
    if len(_UNIT_MOVES) > 4096:
        _UNIT_MOVES.clear()
    _UNIT_MOVES[u.id] = ((u, gen), lines)
    return lines


def _unit_moves(state: GameState, u: Any, enemies: list[Any]) -> list[Todo]:
    """One unit's lines in its move phase: tracked, on the table, its own lines (the steps and
    wheels, the turns, the formations: :func:`_own_lines`, built once per what they read of
    it) and the two that read its enemies (a charge straight ahead, turn to face)."""
    if u.disrupted or ((state.melees or state.charged) and _charged_this_phase(state, u)):
        return []
    if u.body is None and u.entry:
        if state.play == "stated":  # it enters by its move: its formation first (reading 25)
            # or by a charge from the edge, as a tracked one placed there may (Moving to
            # contact)
            t = state.utype(u)
            rest = _stated_moves(state, u, t, t.move, enemies)
            return [_arrival(state, u), *(x for x in rest if x.procedure != "move")]
        # tracked: placed on the edge; its formation before or after (reading 25: before
        # it moves; "Pinned: may only change facing")
        return [_arrival(state, u), *(() if u.pinned else _formations(state, u))]
    if u.moved and u.spent <= 0:
        return []
    t = state.utype(u)
    mv = state.rules.movement
    half = mv.bridge_rate if u.bridged and mv.bridge_mode == "whole_move" else 1.0
    left = t.move * half - u.spent  # (a move that crossed a bridge is at 1/2 rate)
    if state.play != "tracked" or u.body is None:
        return _stated_moves(state, u, t, left, enemies)
    road = (t.move + mv.road_bonus) * half - u.spent if u.road_only else left
    # its last step a turn: no turn offered again at once (one turn reaches any facing, and
    # turns are free: reading 33); after any step that spends (advance, retire, wheel) it is,
    # as plan takes it (the steps between turns are bounded by the allowance)
    just = u.turned_last
    own = (u.pinned, just, u.moved, u.formation, u.screened, t.is_infantry, t.star_range)
    # just short of a bridge ahead or behind, at full rate (reading 7), and the figures at
    # 1/2 rate when the way crosses one (the bridges looked up once: :func:`_halved`)
    halved: tuple[float, ...] = ()
    short: tuple[float | None, float | None] = (None, None)
    if half >= 1.0 and not u.pinned:
        short = _bridge_way(state, u, max(left, road))
        if short != (None, None):
            halved = _halved_figures(state, u, t)
    steps, turns, forms = _own_lines(u.id, u.name, left, road, halved, *own, short)
    out = list(steps)
    if steps:
        out.extend(_charge_line(state, u, road, enemies))
    if turns:
        out.extend(turns)
        placed = _placed(enemies)
        if placed:  # the line is there when an enemy is; its two choices measured when read
            face = _FaceChoices(u.body, placed)
            out.append(Todo("turn", {"unit": u.id}, _face_text(u.name), R_MOVE, open=face))
    out.extend(forms)
    return out


#: the table the bridges were last looked up on, their boxes (least x, least y, greatest x,
#: greatest y) and, for a way (centre x, centre y, facing, reach mm) near one, the [n] it runs
#: ahead and back short of one (None: it meets none that way) (:func:`_bridge_way`): looked
#: up once per table, not at every unit's lines
_BRIDGES: list[Any] = [None, (), {}]


def _bridge_way(state: GameState, u: Any, reach: float) -> tuple[float | None, float | None]:
    """How far (in [n], to 1/100) a tracked unit may go straight ahead and straight back
    without meeting a bridge, when its way (``reach`` [n]) that way meets one (None: it meets
    none that way; both None when no bridge is near)."""
    kept = _BRIDGES
    if kept[0] is not state.table:
        kept[:] = [state.table, tuple(f.box for f in facts.features(state, "bridge")), {}]
    boxes = kept[1]
    if not boxes:
        return None, None
    b = u.body
    mm = state.rules.mm(reach)
    # the box of its way either side: a bridge's box apart from it is crossed by neither
    r = math.radians(b.facing)
    dx, dy = abs(math.sin(r) * mm) + 1.0, abs(math.cos(r) * mm) + 1.0
    c = b.centre
    cx, cy = c.x, c.y
    for x0, y0, x1, y1 in boxes:
        if x0 <= cx + dx and x1 >= cx - dx and y0 <= cy + dy and y1 >= cy - dy:
            break
    else:
        return None, None
    key = (cx, cy, b.facing, mm)
    ways = kept[2].get(key)
    if ways is None:
        if len(kept[2]) > 4096:
            kept[2].clear()
        ways = kept[2][key] = (_short_of(state, b, reach, 1.0), _short_of(state, b, reach, -1.0))
    return ways  # type: ignore[no-any-return]


def _short_of(state: GameState, b: Body, reach: float, sign: float) -> float | None:
    """The most [n] (in 1/100) ``b`` may slide straight ahead (``sign`` 1) or back (-1)
    without its centre's path meeting a bridge (as the move's judgement finds it:
    ``facts.crosses_bridge``), when the whole ``reach`` meets one; else None. Answered from
    where the way first comes near a bridge and first enters one (:func:`_short_in`); the
    paths searched (to 1/100 [n]) only where one of the lengths falls between the two."""
    c, ahead, mm = b.centre, b.forward(), state.rules.mm
    if mm(reach) > 1e-3:  # (a way of no length: searched)
        d = (sign * ahead.x, sign * ahead.y)
        # up to a millimetre beyond the reach (the last 1/100 [n] may pass it by a hair)
        window = facts.bridge_window(state, c.as_tuple(), d, mm(reach) + 1.0)
        if window is not None:
            known, found = _short_in(window, reach, mm)
            if known:
                return found

    def meets(n: float) -> bool:
        return facts.crosses_bridge(state, [c, c + ahead.scale(sign * mm(n))])

    if not meets(reach):
        return None
    top = math.floor(reach * 100 + 1e-6)
    if top <= 0 or not meets(top / 100):
        return max(top, 0) / 100
    lo, hi = 0, top  # (lo: meets none, or 0; hi: meets one)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if meets(mid / 100):
            hi = mid
        else:
            lo = mid
    return lo / 100


#: how near (mm) a length asked may come to :func:`facts.bridge_window`'s figures before
#: :func:`_short_of` measures the path itself
_WINDOW = 1e-6


def _short_in(
    window: tuple[float, float], reach: float, mm: Callable[[float], float]
) -> tuple[bool, float | None]:
    """:func:`_short_of`'s search answered from the ``window`` of lengths (mm) in which its way
    first meets a bridge (:func:`facts.bridge_window`): whether every length it would ask lies
    clear of the window (False: ask them), and the answer. The search's own steps, each length
    asked known to meet a bridge beyond the window and to meet none before it."""
    lo, hi = window

    def meets(n: float) -> bool | None:
        t = mm(n)
        return False if t < lo - _WINDOW else True if t > hi + _WINDOW else None

    met = meets(reach)
    if met is None:
        return False, None
    if not met:
        return True, None
    top = math.floor(reach * 100 + 1e-6)
    if top <= 0:
        return True, 0.0
    met = meets(top / 100)
    if met is None:
        return False, None
    if not met:
        return True, top / 100
    # the search ends between the last 1/100 [n] that meets none and the first that meets
    k = min(top, max(1, math.ceil(hi / mm(0.01))))
    for _ in range(3):
        if meets(k / 100) is not True and k < top:
            k += 1
        elif k > 1 and meets((k - 1) / 100) is True:
            k -= 1
    if meets(k / 100) is True and (k == 1 or meets((k - 1) / 100) is False):
        return True, (k - 1) / 100
    return False, None


def _halved(state: GameState, u: Any, t: Any, reach: float) -> tuple[float, ...]:
    """What is left of a tracked unit's move at 1/2 rate (2 by 2, Movement Modifiers:
    "Bridge - All units move at 1/2 rate", reading 7), off and on the road, when its way
    straight ahead (``reach`` [n]) or back crosses a bridge: an advance or retire over it
    may go that far, not the full figures (none when it crosses none, or no bridge is
    on the table)."""
    if _bridge_way(state, u, reach) == (None, None):
        return ()
    return _halved_figures(state, u, t)


def _halved_figures(state: GameState, u: Any, t: Any) -> tuple[float, ...]:
    """:func:`_halved` of a unit whose way crosses a bridge (:func:`_bridge_way` says so)."""
    mv = state.rules.movement
    if mv.bridge_mode != "whole_move":
        return ()
    figures = [t.move * mv.bridge_rate - u.spent]
    if u.road_only:
        figures.append((t.move + mv.road_bonus) * mv.bridge_rate - u.spent)
    return tuple(f for f in figures if f > 0.01)


@functools.lru_cache(maxsize=4096)
def _own_lines(
    uid: str,
    name: str,
    left: float,
    road: float,
    halved: tuple[float, ...],
    pinned: bool,
    just_turned: bool,
    moved: bool,
    formation: str,
    screened: bool,
    infantry: bool,
    screens: bool,
    short: tuple[float | None, float | None] = (None, None),
) -> tuple[tuple[Todo, ...], tuple[Todo, ...], tuple[Todo, ...]]:
    """A tracked unit's lines that read only the unit, built once per what they read: straight
    ahead (a few distances) and back, a wheel either way (while [n] are left); the changes of
    facing, free (reading 33), again after each step that spends (not straight after a
    turn; a pinned unit "may only change facing"); its formation (until it has moved)."""
    turns = () if just_turned else (*_ways(uid, name, "turn", "turn", _TURNS), _about(uid, name))
    if pinned:  # "Pinned: may only change facing"
        return (), turns, ()
    steps = (
        *_steps(uid, name, left, road, halved, *short),
        *_ways(uid, name, "wheel", "wheel", _WHEELS),
    )
    forms = () if moved else _formation_lines(uid, name, formation, screened, infantry, screens)
    return steps if left > 1e-6 else (), turns, forms


def _stated_moves(state: GameState, u: Any, t: Any, left: float, enemies: list[Any]) -> list[Todo]:
    """A unit's move lines when vedette keeps no position of it: the move, stated, and a
    charge (stated) at any enemy; its formation."""
    out: list[Todo] = []
    if u.pinned:  # "Pinned: may only change facing": no position to turn
        return out
    if left > 1e-6:
        bonus = state.rules.movement.road_bonus
        out.append(
            Todo(
                "move",
                {"unit": u.id},
                f"{u.name} may move ([{left:g}]; +[{bonus:g}] wholly on a road: state"
                " road=true, and town, rough, streams crossed)",
                R_MOVE,
                open={"distance": _distances(left)},
            )
        )
        foes = tuple(e.id for e in enemies if not e.entry)  # (entered: Reinforcements)
        if foes and not u.moved:
            out.append(
                Todo(
                    "charge",
                    {"unit": u.id},
                    f"{u.name} may charge into contact (state the distance)",
                    R_CONTACT,
                    open={"into": foes, "distance": _distances(left)},
                )
            )
    out.extend(_formations(state, u))
    return out


def _reinforcement_rolls(state: GameState, side: str) -> list[Todo]:
    out: list[Todo] = []
    rolls = state.rules.reinforcements.rolls_per_turn
    if state.reinforcement_rolls < rolls:
        for rp in state.rps:
            if rp.side == side and rp.queue:
                left = rolls - state.reinforcement_rolls
                out.append(_reinforce(rp.id, rp.queue[0], rp.kind, left))
    return out


@functools.lru_cache(maxsize=4096)
def _reinforce(rp: str, first: str, kind: str, left: int) -> Todo:
    """A reinforcement roll's line (the same :func:`_todo` line, its text made once)."""
    text = f"roll for {first} at {kind} RP {rp} ({left} roll(s) left)"
    return _todo("reinforce", (("rp", rp),), text, R_REINF)


def _arrival(state: GameState, u: Any) -> Todo:
    """An arrived reinforcement enters "the edge within [4] of RP" (2 by 2,
    Reinforcements): tracked, it is placed at one of the offered points of that edge; stated,
    the player states its move."""
    r = state.rules
    rp = state.rp(u.entry)
    near = r.reinforcements.entry_radius
    text = f"{u.name} arrived at RP {rp.id}: it enters the edge within [{near:g}] of it"
    if state.play == "stated":
        move = state.utype(u).move
        return Todo("move", {"unit": u.id}, text, R_REINF, open={"distance": _distances(move)})
    edge = facts.nearest_edge(state, rp.point)[0]
    radius = r.mm(r.reinforcements.entry_radius)
    along = rp.point.x if edge in ("south", "north") else rp.point.y
    f, v, pts = _edge_points(state, edge, r.footprint.depth / 2, along, radius, r.mm(1))
    return Todo("place", {"unit": u.id, f: v}, text, R_REINF, open={_other(f): pts})


def _charge_line(state: GameState, u: Any, road: float, enemies: list[Any]) -> list[Todo]:
    """A charge at each enemy straight ahead within reach (``road``: the [n] left, with the
    road bonus while every step ran on a road)."""
    assert u.body is not None
    reach = state.rules.mm(road) + 1.0
    box = reach + 40
    body = u.body
    x, y = body.centre.x, body.centre.y
    # the band a straight slide sweeps, in the unit's frame: its half width and how far its
    # centre lies behind its front edge
    f = math.radians(body.facing)
    fx, fy = math.sin(f), math.cos(f)
    half, back = body.footprint.width / 2 + 1.0, body.footprint.depth / 2 + 1.0
    targets: list[str] = []
    for ex, ey, er, eb, eid in _rows(enemies):
        # the box of _ahead before its memo (most enemies are far: no key to hash), then
        # _in_band (the same arithmetic on the same floats)
        dx, dy = ex - x, ey - y
        if (
            abs(dx) <= box
            and abs(dy) <= box
            and abs(dx * fy - dy * fx) <= half + er
            and dx * fx + dy * fy >= -back - er
            and _ahead(body, eb, reach)
        ):
            targets.append(eid)
    if not targets:
        return []
    text = f"{u.name} may charge straight ahead into contact"
    return _choose("charge", {"unit": u.id}, text, R_CONTACT, "into", tuple(targets))


#: the last enemies list :func:`_charge_line` read and its rows (the same list all phase long:
#: the move phase's options carry it; the entry keeps it alive)
_ROWS: list[Any] = [None, ()]


def _rows(enemies: list[Any]) -> tuple[tuple[float, float, float, Body, str], ...]:
    """The ``enemies`` on the table with a position as (centre x, centre y, radius, body,
    id), in order, listed once per list of enemies (read only: every unit's charge line
    reads them)."""
    if _ROWS[0] is not enemies:
        rows = tuple(
            (e.body.centre.x, e.body.centre.y, e.body.radius, e.body, e.id)
            for e in enemies
            if e.body is not None
        )
        _ROWS[:] = [enemies, rows]
    return _ROWS[1]  # type: ignore[no-any-return]


@functools.lru_cache(maxsize=4096)
def _steps(
    uid: str,
    name: str,
    left: float,
    road: float,
    halved: tuple[float, ...] = (),
    ahead: float | None = None,
    behind: float | None = None,
) -> tuple[Todo, Todo]:
    """A tracked unit's advance and retire lines, built once per (unit, what is left of its
    move, with the road bonus, at 1/2 rate over a bridge: :func:`_halved`, and just short of
    a bridge ahead or ``behind``: :func:`_bridge_way`): the same lines :func:`_todo` keeps,
    without their texts and keys made again at every step."""
    unit = (("unit", uid),)
    top = max(left, road)
    short = tuple(s for s in (ahead,) if s is not None and 0.01 <= s <= top)
    # the 1/2-rate figures each way only where that way meets a bridge (None: it meets none)
    fore = halved if ahead is not None else ()
    figures = [_n(min(left, 1.0)), _n(left), *(_n(h) for h in halved if behind is not None)]
    if behind is not None and 0.01 <= behind <= top:
        figures.append(_n(behind))
    back = (*dict.fromkeys(figures),)
    return (
        _todo(
            "advance",
            unit,
            f"{name} may advance ([{left:.2f}] of its move left)",
            R_MOVE,
            (("distance", _distances(left, road, *fore, *short)),),
        ),
        _todo(
            "retire",
            unit,
            f"{name} may retire, facing kept",
            R_MOVE,
            (("distance", back),),
        ),
    )


@functools.lru_cache(maxsize=4096)
def _ways(uid: str, name: str, proc: str, verb: str, angles: tuple[int, ...]) -> tuple[Todo, ...]:
    """A wheel or a turn, left and right, by one of ``angles`` degrees: built once per unit
    and kind (the same :func:`_todo` lines)."""
    return tuple(
        _todo(
            proc,
            (("unit", uid), ("direction", way)),
            f"{name} may {verb} {way}",
            R_MOVE,
            (("angle", angles),),
        )
        for way in ("left", "right")
    )


def _in_band(
    other: Body, x: float, y: float, fx: float, fy: float, half: float, back: float
) -> bool:
    """Whether ``other`` may meet the band a body at (``x``, ``y``) facing (``fx``, ``fy``)
    sweeps sliding straight ahead: ``False`` only when no point of ``other`` (within its
    radius of its centre) comes within ``half`` of the band's middle line, or every point
    lies more than ``back`` behind the centre (then ``tt.contact_distance`` finds no
    contact: arithmetic before its memo; ``half`` and ``back`` carry a millimetre to
    spare)."""
    dx, dy = other.centre.x - x, other.centre.y - y
    r = other.radius
    return abs(dx * fy - dy * fx) <= half + r and dx * fx + dy * fy >= -back - r


@functools.lru_cache(maxsize=8192)
def _ahead(body: Body, other: Body, reach: float) -> bool:
    """``other`` lies straight ahead of ``body`` within ``reach`` mm (a charge may reach it):
    measured once per pair of positions (most units stand still between two offers)."""
    if (
        abs(body.centre.x - other.centre.x) > reach + 40
        or abs(body.centre.y - other.centre.y) > reach + 40
    ):
        return False
    if not tt.maybe_within(body, other, reach):  # surely farther (arithmetic, no shapely)
        return False
    if _gap(body, other) > reach:
        return False
    return tt.contact_distance(body, body.facing, other) is not None


@functools.lru_cache(maxsize=16384)
def _gap(a: Body, b: Body) -> float:
    """Edge-to-edge distance of two bodies (mm), measured once per pair of positions."""
    return tt.distance(a, b)


def _nearest_two(body: Body, placed: list[Any]) -> list[tuple[float, str]]:
    """The two enemies nearest ``body`` as (distance, id), ties by id: the same as sorting
    every enemy's distance, but an enemy whose centre is so far that it cannot beat the second
    nearest measured so far is not measured (a lower bound: centre distance less both radii)."""
    x, y, r, hypot = body.centre.x, body.centre.y, body.radius, math.hypot
    bounds = sorted(
        # Vec.distance of the centres, on floats (the same arithmetic)
        (max(0.0, hypot(x - e.body.centre.x, y - e.body.centre.y) - r - e.body.radius), i)
        for i, e in enumerate(placed)
    )
    measured: list[tuple[float, str]] = []
    for low, i in bounds:
        if len(measured) >= 2 and low > measured[1][0] + 1e-6:
            break  # this one and every later one are farther than the second nearest
        measured.append((_gap(body, placed[i].body), placed[i].id))
        measured.sort()
    return measured[:2]


#: the last enemies list and those of them placed on the table (the same list a whole phase)
_PLACED: list[Any] = [None, []]


def _placed(enemies: list[Any]) -> list[Any]:
    """The ``enemies`` on the table with a position, listed once per list of enemies (read
    only: every unit's "turn to face" line shares it)."""
    if _PLACED[0] is not enemies:
        _PLACED[:] = [enemies, [e for e in enemies if e.body is not None]]
    return _PLACED[1]  # type: ignore[no-any-return]


@functools.lru_cache(maxsize=4096)
def _face_text(name: str) -> str:
    return f"{name} may turn to face an enemy"


@functools.lru_cache(maxsize=4096)
def _about(uid: str, name: str) -> Todo:
    """A unit's "face about" line (the same :func:`_todo` line, its key made once)."""
    return _todo("turn", (("unit", uid), ("direction", "about")), f"{name} may face about", R_MOVE)


class _FaceChoices(Mapping[str, tuple[Any, ...]]):
    """The open field of a "turn to face" line, ``{"face": the two nearest enemies}``
    (:func:`_nearest_two`) but those the unit faces already (reading 49), measured when first
    read: the line exists whenever an enemy is
    on the table, and most steps never read it (the simulator reads only the lines it draws).
    Compares, iterates and prints as the dict it stands for."""

    __slots__ = ("_body", "_choices", "_placed")

    def __init__(self, body: Body, placed: list[Any]) -> None:
        self._body, self._placed = body, placed
        self._choices: dict[str, tuple[Any, ...]] | None = None

    def _all(self) -> dict[str, tuple[Any, ...]]:
        if self._choices is None:
            near = [e for _, e in _nearest_two(self._body, self._placed)]
            at = {e.id: e.body.centre for e in self._placed if e.id in near}
            # not an enemy it faces already: no turn (reading 49)
            choices = tuple(e for e in near if not facts.faces(self._body, at[e]))
            self._choices = {"face": choices}
        return self._choices

    def __getitem__(self, key: str) -> tuple[Any, ...]:
        return self._all()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return 1

    def __repr__(self) -> str:
        return repr(self._all())


def _formations(state: GameState, u: Any) -> list[Todo]:
    if u.moved:
        return []
    t = state.utype(u)
    own = (u.formation, u.screened, t.is_infantry, t.star_range)
    return list(_formation_lines(u.id, u.name, *own))


@functools.lru_cache(maxsize=4096)
def _formation_lines(
    uid: str, name: str, formation: str, screened: bool, infantry: bool, screens: bool
) -> tuple[Todo, ...]:
    """A unit's formation (and screen) lines, built once per what they read of it: the
    screen put out only by a unit whose range shows [2*] (Unit Summary: Infantry, Guard, Light;
    not Militia, reading 55), withdrawn by any that has one."""
    forms = [f for f in FORMATIONS if f != formation and (infantry or f != "attack_column")]
    out = [
        _todo(
            "formation",
            (("unit", uid),),
            f"{name} may change formation (now {formation})",
            R_MELEE,
            (("formation", tuple(forms)),),
        )
    ]
    if screens or screened:
        out.append(
            _todo(
                "formation",
                (("unit", uid), ("screen", not screened)),
                f"{name} may {'withdraw' if screened else 'put out'} its skirmisher screen",
                R_SHOOT,
            )
        )
    return tuple(out)


def _reactions(state: GameState) -> list[Todo]:
    """A charged infantry unit, not engaged otherwise: turn to face, and fire (once) (2 by 2,
    Moving to contact)."""
    out: list[Todo] = []
    for m in state.melees:
        if m.counter_charge:
            continue
        d, a = state.unit(m.defender), state.unit(m.attacker)
        if d.side == state.phasing or not a.moved or not d.on_table:
            continue
        if not state.utype(d).is_infantry or d.disrupted:
            continue
        facing_it = (
            d.body is not None
            and a.body is not None
            and abs(tt.relative_bearing(d.body, a.body.centre)) < 1.0
        ) or (d.body is None and d.turned)  # (stated: it has turned to face this phase)
        if not facing_it and (d.body is None or a.body is None or not facts.faced(state, d, a)[2]):
            out.append(
                Todo(
                    "face",
                    {"unit": d.id, "toward": a.id},
                    f"{d.name} may turn to face {a.name}",
                    R_CONTACT,
                )
            )
        if not d.shot:  # (its charger is in contact: the range is known, stated or tracked)
            req = {"firer": d.id, "target": a.id}
            near = _contagion_choices(state, {a.side}, (a.id,)) if d.body is None else {}
            text = f"{d.name} may fire on its charger {a.name}"
            out.append(Todo("shoot", req, text, R_CONTACT, open=near))
    return out


# -- rally, shooting, melee ------------------------------------------------------------------
def _rallies(state: GameState, side: str) -> list[Todo]:
    out = []
    for u in state.live(side):
        if not (u.pinned or u.disrupted) or u.rallied:
            continue
        what = " and ".join(m for m, on in (("disrupted", u.disrupted), ("pinned", u.pinned)) if on)
        text = f"{u.name} may try to rally ({what}; 5+)"
        effect = {"effect": EFFECTS} if u.pinned and u.disrupted else {}
        if state.play != "stated":
            out.append(Todo("rally", {"unit": u.id}, text, R_RALLY, open=effect))
            continue
        out.extend(_stated_rallies(state, u, text, effect))
    return out


def _stated_rallies(
    state: GameState, u: Any, text: str, effect: dict[str, tuple[Any, ...]]
) -> list[Todo]:
    """Stated play: what the player sees about a rallying unit picked, not typed (2 by 2,
    Rallying): an HQ in base contact (+1), where its side has another HQ in play; an enemy
    within [2] (-2). Footnote *: with an enemy within [2] only Guards and units in contact
    with an HQ may rally (and an HQ itself, reading 57), so for the others that is a line of
    its own, the HQ's contact given (``[rally] enemy_within_rule``: open to all when the
    house rule drops the ban)."""
    sec = state.rules.rally
    hq = bool(hq_levels(state, u))
    free = near_allowed(state, u, False)  # (Guards, an HQ itself: reading 57)
    seen = {
        **({"hq_contact": _NO_YES} if hq else {}),
        **({"enemy_near": _NO_YES} if free else {}),
    }
    out = [
        Todo(
            "rally",
            {"unit": u.id},
            text,
            R_RALLY,
            open={**effect, **seen},
            free=frozenset(seen),
        )
    ]
    if not free and hq:
        near = f"[{sec.enemy_within:g}]"
        out.append(
            Todo(
                "rally",
                {"unit": u.id, "enemy_near": True, "hq_contact": True},
                f"{u.name} may try to rally with an enemy within {near}, an HQ in contact"
                " (footnote *)",
                R_RALLY,
                open=effect,
            )
        )
    return out


def _shots(state: GameState, u: Any) -> list[Todo]:
    """A unit's shot: one line, the targets open (tracked: only those within its longest
    range; ``plan`` keeps those in range and arc). Stated: the targets and the range band
    open, on one line per firer (the player measures, then picks)."""
    t = state.utype(u)
    foes = state.live(state.enemy_of(u.side))
    if state.play == "stated":
        bands = tuple(
            b
            for b in t.range_names
            if not (b == "skirmish" and t.is_infantry and t.star_range and not u.screened)
        )
        seen = _shot_facts(state, u, foes)
        # an enemy it fights a melee with is in base contact: its range is known (reading
        # 44), a line of its own without the bands (the others: the player measures)
        engaged = {
            m.attacker if m.defender == u.id else m.defender
            for m in state.melees
            if u.id in (m.attacker, m.defender)
        }
        out: list[Todo] = []
        # an infantry target whose cover is held (reading 54): a line of its own,
        # its cover's choices only those plan accepts (one field's choices cannot change
        # with another's pick)
        kept = {
            e.id: was
            for e in foes
            if state.held
            and state.utype(e).is_infantry
            and (was := state.held_fact(e.id, "in_cover")) is not None
        }
        ids = tuple(e.id for e in foes if not e.entry and e.id not in engaged and e.id not in kept)
        # the contagion: the ** units a rout of the target may take along, the target
        # itself left out where it is known (one target); with several on one line it stays
        # (ignored by plan): the choices of one field cannot change with another's pick, and
        # a line per target would multiply the lines to read
        near = _contagion_choices(state, {state.enemy_of(u.side)}, ids if len(ids) == 1 else ())
        if ids and len(bands) == 1:
            # one band it may fire at (Militia's [1], a * unit without its screen: Unit
            # Summary): no band to pick, the target is one within it
            limit = dict(zip(t.range_names, t.ranges, strict=True))[bands[0]]
            out.append(
                Todo(
                    "shoot",
                    {"firer": u.id, "band": bands[0]},
                    f"{u.name} may shoot (pick the target, within [{limit:g}])",
                    R_SHOOT,
                    open={"target": ids, **seen, **near},
                    free=frozenset(seen),
                )
            )
        elif ids:  # (entered: Reinforcements)
            # every band stays: which one a target is in is the player's measure (the
            # referee keeps no positions, so no stated fact narrows it)
            out.append(
                Todo(
                    "shoot",
                    {"firer": u.id},
                    f"{u.name} may shoot (pick the target and the range band measured)",
                    R_SHOOT,
                    open={"target": ids, "band": bands, **seen, **near},
                    free=frozenset(seen),
                )
            )
        for e in foes:
            if e.id in kept and not e.entry and e.id not in engaged:
                one = {"firer": u.id, "target": e.id}
                if len(bands) == 1:
                    one["band"] = bands[0]
                cover = COVER[2:] if kept[e.id] else COVER[:2]  # (area, both; none, wall)
                out.append(
                    Todo(
                        "shoot",
                        one,
                        f"{u.name} may shoot {e.name} (its cover held: "
                        + ("in woods/rough or town)" if kept[e.id] else "not in woods/rough/town)"),
                        R_SHOOT,
                        open={
                            **({"band": bands} if len(bands) > 1 else {}),
                            **seen,
                            "cover": cover,
                            **_contagion_choices(state, {e.side}, (e.id,)),
                        },
                        free=frozenset(seen),
                    )
                )
            if e.id in engaged and not e.entry:
                out.append(
                    Todo(
                        "shoot",
                        {"firer": u.id, "target": e.id},
                        f"{u.name} may shoot {e.name}, in contact with it (range 0)",
                        R_SHOOT,
                        open=_contagion_choices(state, {e.side}, (e.id,)),
                    )
                )
        return out
    reach = t.ranges[-1] if t.ranges else 0.0
    ids = tuple(e.id for e in _within_n(state, u, foes, reach))
    return _choose("shoot", {"firer": u.id}, f"{u.name} may shoot", R_SHOOT, "target", ids)


def _shot_facts(state: GameState, u: Any, foes: list[Any]) -> dict[str, tuple[Any, ...]]:
    """Stated play: what the player sees of a shot on the table (2 by 2, Resolving shooting),
    picked and not typed, the usual answer first: enfilade (the firer on the target's flank or
    rear, +2); the target's cover (behind a wall or hedge, in woods, rough or town: -1 each,
    read of an infantry target only); an HQ in base contact with the firer (+1), where its
    side has an HQ in play; a Light Infantry target's "in the open with enemy cavalry within
    1/2 move" (its -1 negated), where one of the ``foes`` is Light Infantry and the firer's
    side has cavalry in play: the cavalry is asked (``cavalry_near``), the open ground read
    from the cover picked. Free fields: ``plan`` reads them only for a modifier, and only of
    the target picked (a fact about another target is ignored). On the line that picks a
    target only (a shot at a unit in contact, a fire on a charger: complete, two taps, these
    rarely apply there)."""
    out: dict[str, tuple[Any, ...]] = {"enfilade": _NO_YES, "cover": COVER}
    if hq_levels(state, u):
        out["hq_contact"] = _NO_YES
    if cavalry_in_play(state, u.side) and any(
        not e.entry and state.utype(e).light_inf for e in foes
    ):
        out["cavalry_near"] = _NO_YES
    return out


def _within_n(state: GameState, u: Any, others: list[Any], reach: float) -> list[Any]:
    """The ``others`` within ``reach`` [n] of ``u`` edge to edge (both on the table), in order:
    an enemy whose centre is surely farther (centre distance less both radii beyond the reach
    and a millimetre) is not measured (the same answer as measuring every one)."""
    if u.body is None:
        return []
    far = state.rules.mm(reach) + 1.0
    return [
        e
        for e in others
        if e.body is not None
        and tt.maybe_within(u.body, e.body, far)
        and state.rules.n(_gap(u.body, e.body)) <= reach + 1e-9
    ]


def _choose(
    proc: str, req: dict[str, Any], text: str, rule: str, field: str, choices: tuple[Any, ...]
) -> list[Todo]:
    """One open entry choosing ``field`` among ``choices``; none when there is no choice."""
    return [_todo(proc, tuple(req.items()), text, rule, ((field, choices),))] if choices else []


#: a stated yes/no fact's choices, the usual answer first (the web app shows it chosen)
_NO_YES = (False, True)
#: which of a stated melee's two units stands higher than the other (2 by 2, Melee: "Higher
#: than opponent +1"), the usual answer first
HIGHER = ("neither", "attacker", "defender")


def _countercharges(state: GameState, side: str) -> list[Todo]:
    """Cavalry may counter-charge an enemy that moved within 1/2 its move (2 by 2, Moving to
    contact): only at enemies on the table, only within reach."""
    out: list[Todo] = []
    frac = state.rules.movement.countercharge_fraction
    movers = [e for e in state.live(state.enemy_of(side)) if e.moved]
    for c in state.live(side):
        t = state.utype(c)
        if not t.is_cavalry or c.disrupted or c.pinned or c.countercharged or not movers:
            continue
        if c.entry:  # an arrived reinforcement not yet entered (Reinforcements)
            continue
        reach = t.move * frac
        if state.play == "stated":
            # what it crossed, as a stated charge states it: the yes/no facts picked, not
            # typed (a town is none of them: cavalry may not move to contact through one)
            out.append(
                Todo(
                    "countercharge",
                    {"unit": c.id, "within": True},
                    f"{c.name} may counter-charge an enemy that moved within [{reach:g}] (state"
                    " the distance and what it crossed: a road, a bridge, streams=; never a"
                    " town)",
                    R_CONTACT,
                    open={
                        "target": tuple(e.id for e in movers),
                        "distance": _distances(reach),
                        "road": _NO_YES,
                        "bridge": _NO_YES,
                    },
                )
            )
            continue
        near = _within_n(state, c, movers, reach)
        ids = tuple(e.id for e in near)
        text = f"{c.name} may counter-charge (within [{reach:g}]; facing the enemy, straight in)"
        out.extend(_choose("countercharge", {"unit": c.id}, text, R_CONTACT, "target", ids))
        for e in near:  # a unit in the way of the straight run: a path around it
            path = None if _straight_in(state, c, e) else _around(state, c, e, t.move)
            if path is not None:
                out.append(
                    Todo(
                        "countercharge",
                        {"unit": c.id, "target": e.id, "path": path},
                        f"{c.name} may counter-charge {e.name} around what stands in its way"
                        f" (the last [{state.rules.movement.straight_ahead:g}] straight in)",
                        R_CONTACT,
                    )
                )
    return out


def _straight_in(state: GameState, c: Any, e: Any) -> bool:
    """Whether ``c``'s counter-charge without a path reaches ``e`` (as ``countercharge``
    runs it: straight ahead, or facing ``e`` first) with nothing in its way."""
    body = c.body
    ahead = tt.contact_distance(body, body.facing, e.body)
    if ahead is None:
        body = body.facing_toward(e.body.centre)
        ahead = tt.contact_distance(body, body.facing, e.body)
    if ahead is None:
        return False
    return facts.in_the_way(state, body, body.facing, ahead, (c.id, e.id)) is None


#: the approaches a path around tries, degrees off the line from the cavalry to its target
_APPROACHES = (30, -30, 50, -50, 70, -70, 90, -90)


def _around(
    state: GameState, c: Any, e: Any, move: float
) -> tuple[tuple[float, float], ...] | None:
    """A counter-charge path from ``c`` to base contact with ``e`` around the units in the
    way (2 by 2, Moving to contact: "The last [2] of a units move to contact must be
    STRAIGHT AHEAD"): to a point from which the last [2] run straight in, the shortest of a
    few approaches whose two legs cross no unit and fit in ``move`` [n] (terrain is then
    ``plan``'s to judge); None when none does."""
    r = state.rules
    tail = r.mm(r.movement.straight_ahead) + 1.0
    cb, eb = c.body, e.body
    skip = (c.id, e.id)
    h0 = tt.bearing(cb.centre, eb.centre)
    far = eb.radius + cb.radius + tail + 10.0
    best: tuple[float, tuple[tuple[float, float], ...]] | None = None
    for delta in _APPROACHES:
        phi = tt.normalise(h0 + delta)
        start = Body(eb.centre + tt.Vec.heading(phi + 180.0, far), phi, cb.footprint)
        d = tt.contact_distance(start, phi, eb)
        if d is None:
            continue
        end = start.centre + tt.Vec.heading(phi, d)
        turn_at = end + tt.Vec.heading(phi + 180.0, tail)
        first = cb.centre.distance(turn_at)
        total = first + tail
        if total > r.mm(move) - 1e-6 or (best is not None and total >= best[0]):
            continue
        lead = tt.bearing(cb.centre, turn_at)
        if first > 1e-6 and facts.in_the_way(
            state, cb.moved_to(cb.centre, lead), lead, first, skip
        ):
            continue
        if facts.in_the_way(state, Body(turn_at, phi, cb.footprint), phi, tail, skip):
            continue
        pts = ((round(turn_at.x, 1), round(turn_at.y, 1)), (round(end.x, 1), round(end.y, 1)))
        best = (total, pts)
    return None if best is None else best[1]


def _melee_phase(state: GameState) -> list[Todo]:
    out: list[Todo] = []
    for f in state.follow_ups:
        if not f.mandatory:
            contact = _contact_choices(state, f.unit) if state.play == "stated" else {}
            text = f"{f.unit} may follow up" + (
                " (pick the enemy it then touches)" if contact else ""
            )
            out.append(Todo("follow_up", {"unit": f.unit}, text, R_MELEE, open=contact))
            out.append(
                Todo(
                    "follow_up",
                    {"unit": f.unit, "decline": True},
                    f"{f.unit} may decline its follow-up",
                    R_MELEE,
                )
            )
    pending = {(m.attacker, m.defender) for m in state.melees}
    for u in state.live(state.phasing):
        touching = facts.enemies_in_contact(state, u) or []
        ids = tuple(e.id for e in touching if (u.id, e.id) not in pending)
        text = f"{u.name} is in contact: it may melee"
        out.extend(_choose("melee", {"attacker": u.id}, text, R_MELEE, "defender", ids))
    return out


def _voluntary_routs(state: GameState) -> list[Todo]:
    """:func:`_voluntary_rout_lines`; stated, each with the ** units its rout may take along
    open (``contagion``: picked, not typed)."""
    lines = _voluntary_rout_lines(state)
    if state.play != "stated":
        return lines
    out = []
    for line in lines:
        uid = line.request["unit"]
        near = _contagion_choices(state, {state.unit(uid).side}, (uid,))
        out.append(replace(line, open=near) if near else line)
    return out


def _voluntary_rout_lines(state: GameState) -> list[Todo]:
    """A *** unit may rout voluntarily (2 by 2, Unit Summary): in its own move phase (not once
    it has charged in it: reading 37), or when charged (ASSUMPTION, reading 18); not while
    disrupted or pinned (reading 18)."""
    out: list[Todo] = []
    kinds = _rout_kinds(state.rules)
    if not kinds:
        return out
    charged = {m.defender for m in state.melees}
    phasing = state.phasing if state.phase == "move" else None
    chargers = {m.attacker for m in state.melees} if phasing else set()
    for u in state.units:
        if u.kind not in kinds or u.status != "table" or u.disrupted or u.pinned or u.entry:
            continue  # (on_table, as a field; an arrived reinforcement has not entered yet)
        if u.side == phasing and u.id in chargers:
            continue  # its charge ended its move for the phase (reading 37)
        if u.side == phasing or u.id in charged:
            out.append(_rout_line(u.id, u.name, state.rules.rout_words))
    return out


@functools.lru_cache(maxsize=4096)
def _rout_line(uid: str, name: str, roll: str) -> Todo:
    """A unit's voluntary rout line (the same :func:`_todo` line, its text made once); ``roll``
    the rout roll in words (``Rules.rout_words``: 1d6: 1-2 destroyed)."""
    text = f"{name} (***) may rout voluntarily ({roll})"
    return _todo("rout", (("unit", uid),), text, R_UNITS)


#: the kinds that may rout voluntarily, by the rules' identity (the entry keeps them alive)
_ROUT_KINDS: dict[int, tuple[Any, frozenset[str]]] = {}


def _rout_kinds(rules: Any) -> frozenset[str]:
    """The unit kinds that may rout voluntarily (***), worked out once per rules."""
    hit = _ROUT_KINDS.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_ROUT_KINDS) > 64:
            _ROUT_KINDS.clear()
        kinds = frozenset(k for k, t in rules.unit_types.items() if t.voluntary_rout)
        hit = _ROUT_KINDS[id(rules)] = (rules, kinds)
    return hit[1]


def legal_requests(
    state: GameState, rng: Any, todo: list[Todo], n: int = 40
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Requests that are all legal now (random play): ``todo``'s entries (each judged by
    ``plan``), what is owed first, the open fields filled from their accepted choices."""
    owed = [t for t in todo if t.owed and not t.refused]
    for t in owed:
        yield t.procedure, _fill(t, rng)
    if owed:
        return
    opts = [t for t in todo if t.procedure != "next"]
    rng.shuffle(opts)
    for t in opts[:n]:
        yield t.procedure, _fill(t, rng)
    yield "next", {}


def _fill(t: Todo, rng: Any) -> dict[str, Any]:
    req = dict(t.request)
    for k, cs in t.open.items():
        req[k] = rng.choice(list(cs))
    return req


#: each line's candidates when they draw nothing (no choice, or one), and otherwise its open
#: field and choices, by the line's identity (the line kept alive with them): most lines are
#: the same objects step after step (:func:`_todo`)
_COMPLETED: dict[int, tuple[Todo, Any, Todo]] = {}


def _complete(state: GameState, t: Todo, rng: Any) -> Sequence[tuple[str, dict[str, Any]]]:
    """Candidate full requests for a ``todo`` line (the rules then pick the legal ones): an
    open line's choices, a few combinations of them. The shuffle draws from ``rng`` now; the
    requests are built when the line is first read (most lines of a step are never tried).
    A line that draws nothing gives the same candidates every time: read-only requests."""
    hit = _COMPLETED.get(id(t))
    if hit is None or hit[0] is not t:
        if len(_COMPLETED) > 8192:
            _COMPLETED.clear()
        core = _unfree(t)
        hit = _COMPLETED[id(t)] = (t, _fixed(core), core)
    known, t = hit[1], hit[2]
    if isinstance(known, tuple):  # draws nothing
        return known
    if known is None:  # two open fields or more
        return _Choices(t.procedure, t.request, t.open, shuffled_order(t.open, rng)[:8])
    order = list(range(len(known)))  # one open field: its requests, built once per line
    rng.shuffle(order)
    return [known[i] for i in order[:8]]


def _unfree(t: Todo) -> Todo:
    """``t`` with its free fields (``Todo.free``: stated facts read for a modifier only) given
    their first choice, the usual answer: the candidates combine the choices of play (the
    target, the band, the contagion), not every fact the player might state with them."""
    if not t.free:
        return t
    given = {k: cs[0] for k, cs in t.open.items() if k in t.free}
    rest = {k: cs for k, cs in t.open.items() if k not in t.free}
    return replace(t, request={**t.request, **given}, open=rest, free=frozenset())


def _fixed(
    t: Todo,
) -> tuple[tuple[str, dict[str, Any]], ...] | list[tuple[str, dict[str, Any]]] | None:
    """A line's candidates when choosing them draws nothing (a tuple); else, for one open
    field, its candidates in the order of its choices (a list, shuffled when drawn: the same
    read-only requests step after step while the line is the same object); None: more open
    fields."""
    if not t.open:
        return ((t.procedure, dict(t.request)),)
    if len(t.open) == 1:
        ((f, cs),) = t.open.items()
        if type(t.open) is _FaceChoices:  # a new line at each step: the same requests
            uid = t.request["unit"]
            out = [(t.procedure, _face_request(uid, c)) for c in cs]
            return tuple(out) if len(out) == 1 else out
        if len(cs) == 1:  # one choice: shuffling it draws nothing
            return ((t.procedure, {**t.request, f: cs[0]}),)
        return [(t.procedure, {**t.request, f: c}) for c in cs]
    return None


@functools.lru_cache(maxsize=4096)
def _face_request(uid: str, enemy: str) -> dict[str, Any]:
    """The request to turn ``uid`` to face ``enemy``, made once per pair (read only): a unit's
    "turn to face" line is made afresh at each of its steps (:class:`_FaceChoices`), its
    requests the same values each time (the simulator then knows them by their identity)."""
    return {"unit": uid, "face": enemy}


class _Choices(Sequence[tuple[str, dict[str, Any]]]):
    """A line's candidates: the combinations ``order`` numbers (``itertools.product`` order of
    the open fields' choices), each request built when first read."""

    __slots__ = ("_built", "_open", "_order", "_proc", "_request")

    def __init__(
        self, proc: str, request: Mapping[str, Any], open_: Mapping[str, Any], order: list[int]
    ) -> None:
        self._proc, self._request, self._open, self._order = proc, request, open_, order
        self._built: list[tuple[str, dict[str, Any]]] | None = None

    def _all(self) -> list[tuple[str, dict[str, Any]]]:
        if self._built is None:
            self._built = [
                (self._proc, r) for r in _combinations(self._request, self._open, self._order)
            ]
        return self._built

    def __len__(self) -> int:
        return len(self._order)

    def __getitem__(self, i: Any) -> Any:
        return self._all()[i]

    def __iter__(self) -> Iterator[tuple[str, dict[str, Any]]]:
        return iter(self._all())


def shuffled_order(open_: Mapping[str, Sequence[Any]], rng: Any) -> list[int]:
    """Every combination's number (``itertools.product`` order of the open fields' choices),
    shuffled by ``rng`` (the draws of shuffling the list of combinations: ``random.shuffle``
    reads only its length)."""
    order = list(range(math.prod(len(cs) for cs in open_.values())))
    rng.shuffle(order)
    return order


def _combinations(
    request: Mapping[str, Any], open_: Mapping[str, Sequence[Any]], order: list[int]
) -> list[dict[str, Any]]:
    """The requests the combination numbers ``order`` stand for, in that order."""
    fields = list(open_)
    if len(fields) == 1:
        ((f, cs),) = open_.items()
        return [{**request, f: cs[i]} for i in order]
    sizes = [len(open_[f]) for f in fields]
    out = []
    for k in order:
        picks = []
        for n in reversed(sizes):
            k, i = divmod(k, n)
            picks.append(i)
        req = dict(request)
        for f, i in zip(fields, reversed(picks), strict=True):
            req[f] = open_[f][i]
        out.append(req)
    return out
