"""``todo``'s judgements remembered from one state to the next (issues 22, 27, 29: speed).

``todo`` judges every line it offers (``protocol.derive_todo``): in a move phase, each unit's
advances, retirements, wheels, turns, charges and formations, every step of the game. A step
changes one unit; most units' lines are judged exactly as before. This module remembers each
verdict (per procedure and request) with what it was read from:

* the whole state but its units (the phase, who acts, the melees and follow-ups, the
  reinforcement points, the rules and the table, by identity or by value) and what is owed;
* the units the judgement names (the unit judged, a unit faced or charged);
* the places it looks at: discs of the table (a centre and a reach) within which a unit
  standing there could change the verdict, worked out per procedure below from what its plan
  reads (a move's end, the overlaps, contacts and snaps there, a charge's blockers, who
  touches the unit now);
* a few numbers (the AP a side has deployed).

When the next state comes, its units are compared with the last state's (by identity: units are
immutable values, so the same object is the same unit in the same place with the same
markers). A verdict is forgotten when the rest of the state differs, when a unit it names
changed, or when a changed unit stood, or now stands, within one of its discs; the others are
given again without judging. Anything not listed here is judged afresh every time.

Only ``todo`` asks this memo: ``perform``, ``is_legal`` and the simulator judge afresh, so a
wrong bound could only change an offer, never a game. The equality check
(tests/two_by_two/test_2x2_offers_memo.py and ``bench/bench_2x2_todo.py``) plays seeded games
and compares every line of every ``todo`` with the memo on and off. ``ENABLED = False`` turns
it off (the old path: every verdict judged afresh).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from vedette.errors import VedetteError
from vedette.geometry import tabletop as tt
from vedette.geometry.tabletop import Body, Vec
from vedette.rules.two_by_two.common import to_n
from vedette.rules.two_by_two.model import GameState, Unit

#: remember verdicts between states (False: every verdict judged afresh, the old path)
ENABLED = True

#: the fields of the state compared by value between two states: all but ``units`` and
#: ``melees`` (a move-phase verdict reads only whether its unit has charged: a number below)
_BY_VALUE = (
    "sides",
    "stage",
    "setup_step",
    "attacker",
    "defender",
    "extra_ap",
    "turn",
    "phase_index",
    "rps",
    "reinforcement_rolls",
    "follow_ups",
    "winner",
    "title",
    "play",
)

#: a unit's centre counts as within a disc up to this much beyond (rounding)
_MARGIN = 1.0
#: verdicts kept at most (then forgotten all at once)
_MAX = 20_000


@dataclass(frozen=True, slots=True)
class Reads:
    """What a judgement reads: the units it names, the discs ``(x, y, reach)`` of the table
    where a unit's base (its centre within ``reach`` plus its own radius) could change it, and
    numbers of the state it depends on (``(what, value)``, compared at each use)."""

    names: tuple[str, ...]
    discs: tuple[tuple[float, float, float], ...] = ()
    numbers: tuple[tuple[Any, ...], ...] = ()


@dataclass(slots=True)
class _Remembered:
    reads: Reads
    ok: bool
    value: Any  # the parsed request, or the refusal


class _Memo:
    """The verdicts judged on the last state seen, grouped by the unit they name first."""

    def __init__(self) -> None:
        self.whole: tuple[Any, ...] | None = None
        self.units: tuple[Unit, ...] = ()
        self.groups: dict[str, dict[tuple[Any, ...], _Remembered]] = {}
        self.size = 0

    def clear(self) -> None:
        self.whole = None
        self.units = ()
        self.groups = {}
        self.size = 0

    def advance(self, state: GameState, whole: tuple[Any, ...]) -> None:
        """Move on to ``state``: forget what its changes may have changed."""
        old, new = self.units, state.units
        if (
            self.whole is None
            or not _same_whole(self.whole, whole)
            or len(old) != len(new)
            or self.size > _MAX
        ):
            self.clear()
        else:
            changed = [(a, b) for a, b in zip(old, new, strict=True) if a is not b]
            if any(a.id != b.id for a, b in changed):
                self.clear()
            elif changed:
                self._forget(changed)
        self.whole = whole
        self.units = new

    def _forget(self, changed: list[tuple[Unit, Unit]]) -> None:
        ids = {a.id for a, _ in changed}
        spots = [
            (x.body.centre.x, x.body.centre.y, x.body.radius + _MARGIN)
            for pair in changed
            for x in pair
            if x.body is not None
        ]
        for uid in list(self.groups):
            group = self.groups[uid]
            if uid in ids:
                self.size -= len(group)
                del self.groups[uid]
                continue
            gone = [k for k, r in group.items() if _touched(r.reads, ids, spots)]
            for k in gone:
                del group[k]
            self.size -= len(gone)


def _touched(reads: Reads, ids: set[str], spots: list[tuple[float, float, float]]) -> bool:
    for n in reads.names:
        if n in ids:
            return True
    for x, y, reach in reads.discs:
        for sx, sy, sr in spots:
            dx, dy, r = sx - x, sy - y, reach + sr
            if dx * dx + dy * dy <= r * r:
                return True
    return False


class _PerThread(threading.local):
    """One memo per thread (the web app judges in a pool of threads): a memo follows one
    sequence of states, and two threads' states must not interleave in it."""

    def __init__(self) -> None:
        self.memo = _Memo()


_MEMOS = _PerThread()


def _same_whole(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return a is b or (a[0] is b[0] and a[1] is b[1] and a[2] is b[2] and a[3:] == b[3:])


class _Context:
    """One ``todo`` call's state, and what its judgements share."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        r = state.rules
        self.snap = r.geometry.snap_mm
        self.contact = r.contact_mm
        fp = r.footprint
        self.rf = math.hypot(fp.width, fp.depth) / 2
        self.used: dict[str, int] = {}

    def number(self, what: tuple[Any, ...]) -> Any:
        if what[0] == "charged":  # movement.contact_ends_move
            uid = what[1]
            if uid in self.state.charged:  # (reading 37: its melee standing or not)
                return True
            return any(m.attacker == uid and not m.counter_charge for m in self.state.melees)
        if what[0] == "ap":
            side = what[1]
            hit = self.used.get(side)
            if hit is None:
                st = self.state
                hit = self.used[side] = sum(st.utype(o).ap for o in st.live(side))
            return hit
        raise ValueError(what)


def _unit(state: GameState, uid: Any) -> Unit | None:
    if not isinstance(uid, str):
        return None
    try:
        return state.unit(uid)
    except VedetteError:
        return None


def _disc(where: Body | Vec, reach: float) -> tuple[float, float, float]:
    """A ``GameState.near(where, reach)`` query as a disc: a unit may be returned when its
    centre lies within ``reach`` plus both radii of ``where``'s centre."""
    if isinstance(where, Body):
        return (where.centre.x, where.centre.y, reach + where.radius + _MARGIN)
    return (where.x, where.y, reach + _MARGIN)


# -- what each procedure's judgement reads (None: not remembered) -----------------------------
def _straight(ctx: _Context, r: Mapping[str, Any], sign: float) -> Reads | None:
    """advance / retire UNIT DISTANCE (relative._straight_step): plan_move asks who touches
    the unit where it stands; the end lies ``distance`` straight ahead or back, and plan_move
    snaps it (by at most ``snap_mm`` along the move) and looks there for units within
    ``snap_mm``, touching it (contact tolerance) or overlapping it, and along the way between
    for a base it would pass through (reading 50). (Its counter-charge list reads farther, but
    no verdict depends on it.)"""
    st = ctx.state
    u = _unit(st, r.get("unit"))
    if u is None:
        return None
    if u.body is None or st.play != "tracked":
        return Reads((u.id,), (), (("charged", u.id),))  # refused by _mover, unmeasured
    try:
        n = to_n(st, r.get("distance", ""))
    except VedetteError:
        return None
    b = u.body
    half = st.rules.mm(max(n, 0.0)) / 2
    end = Body(b.centre + b.forward().scale(sign * 2 * half), b.facing, st.rules.footprint)
    here = _disc(b, ctx.contact)
    there = _disc(end, ctx.snap + max(ctx.contact, ctx.snap))
    # the way between (reading 50: not through a unit): every base the slide may meet
    way = _disc(Body((b.centre + end.centre).scale(0.5), b.facing, b.footprint), abs(half) + 1.0)
    return Reads((u.id,), (here, there, way), (("charged", u.id),))


def _advance(ctx: _Context, r: Mapping[str, Any]) -> Reads | None:
    return _straight(ctx, r, 1.0)


def _retire(ctx: _Context, r: Mapping[str, Any]) -> Reads | None:
    return _straight(ctx, r, -1.0)


def _wheel(ctx: _Context, r: Mapping[str, Any]) -> Reads | None:
    """wheel UNIT ANGLE DIRECTION: the centre moves at most twice the pivot's distance (the
    body's radius); _turn_step looks for overlaps at the end."""
    u = _unit(ctx.state, r.get("unit"))
    if u is None:
        return None
    charged = (("charged", u.id),)
    if u.body is None:
        return Reads((u.id,), (), charged)
    return Reads((u.id,), (_disc(u.body, 2 * u.body.radius),), charged)


def _turn(ctx: _Context, r: Mapping[str, Any]) -> Reads | None:
    """turn UNIT (face=ENEMY | angle direction): about the centre; overlaps at the end, and the
    unit faced (named)."""
    u = _unit(ctx.state, r.get("unit"))
    if u is None:
        return None
    names: tuple[str, ...] = (u.id,)
    face = r.get("face") or ""
    if face:
        other = _unit(ctx.state, face)
        if other is None:
            return None
        names = (u.id, other.id)
    charged = (("charged", u.id),)
    if u.body is None:
        return Reads(names, (), charged)
    return Reads(names, (_disc(u.body, 0.0),), charged)


def _charge(ctx: _Context, r: Mapping[str, Any]) -> Reads | None:
    """charge UNIT INTO: stated, the stated move into the named enemy (no positions); tracked,
    straight ahead to contact (``d`` mm): blockers within ``d`` + 1 of the unit, then the move's
    end as an advance's."""
    st = ctx.state
    u = _unit(st, r.get("unit"))
    t = _unit(st, r.get("into"))
    if u is None or t is None:
        return None
    names = (u.id, t.id)
    charged = (("charged", u.id),)
    if st.play == "stated":
        if u.body is not None or t.body is not None:
            return None
        return Reads(names, (), charged)
    if u.body is None or t.body is None:
        return Reads(names, (), charged)
    d = tt.contact_distance(u.body, u.body.facing, t.body)
    if d is None:  # not straight ahead: refused before anything else is read
        return Reads(names, (), charged)
    reach = d + ctx.snap + max(ctx.contact, ctx.snap, 1.0) + max(ctx.rf - u.body.radius, 0.0)
    return Reads(names, (_disc(u.body, reach),), charged)


def _move(ctx: _Context, r: Mapping[str, Any]) -> Reads | None:
    """move UNIT DISTANCE in a stated game (no positions: the unit and the rules alone)."""
    if ctx.state.play != "stated" or not set(r) <= {"unit", "distance"}:
        return None
    u = _unit(ctx.state, r.get("unit"))
    if u is None or u.body is not None:
        return None
    return Reads((u.id,), (), (("charged", u.id),))


def _formation(ctx: _Context, r: Mapping[str, Any]) -> Reads | None:
    """formation UNIT ...: the unit, the phase and the rules."""
    u = _unit(ctx.state, r.get("unit"))
    return None if u is None else Reads((u.id,))


def _point(r: Mapping[str, Any]) -> Vec | None:
    x, y = r.get("x"), r.get("y")
    if type(x) not in (int, float) or type(y) not in (int, float):
        return None
    fx, fy = float(x), float(y)  # type: ignore[arg-type]
    if not (math.isfinite(fx) and math.isfinite(fy)):
        return None
    return Vec(fx, fy)


def _place(ctx: _Context, r: Mapping[str, Any]) -> Reads | None:
    """place UNIT x y, for a unit arriving (no position yet): the table, its RP, and the units
    its base would overlap there."""
    u = _unit(ctx.state, r.get("unit"))
    at = _point(r)
    if u is None or at is None or u.body is not None or r.get("clear"):
        return None
    return Reads((u.id,), (_disc(at, ctx.rf),))


def _deploy(ctx: _Context, r: Mapping[str, Any]) -> Reads | None:
    """deploy UNIT x y: the table, the set-up zone, the units its base would overlap there, and
    the AP its side has placed."""
    u = _unit(ctx.state, r.get("unit"))
    at = _point(r)
    if u is None or at is None:
        return None
    return Reads((u.id,), (_disc(at, ctx.rf),), (("ap", u.side),))


READS: dict[str, Callable[[_Context, Mapping[str, Any]], Reads | None]] = {
    "advance": _advance,
    "retire": _retire,
    "wheel": _wheel,
    "turn": _turn,
    "charge": _charge,
    "move": _move,
    "formation": _formation,
    "place": _place,
    "deploy": _deploy,
}


def judged(
    state: GameState, owed: Sequence[Any], judge: Callable[[str, Mapping[str, Any]], Any]
) -> Callable[[str, Mapping[str, Any]], Any]:
    """``judge`` (procedure, request -> parsed request, or the refusal raised) remembering its
    verdicts across states (see the module's docstring); ``judge`` itself when disabled."""
    if not ENABLED:
        return judge
    whole = (
        state.rules,
        state.table,
        state.victory,
        tuple(getattr(state, f) for f in _BY_VALUE),
        tuple(owed),
    )
    memo = _MEMOS.memo
    memo.advance(state, whole)
    units = state.units
    ctx = _Context(state)
    groups = memo.groups

    def remembered(procedure: str, request: Mapping[str, Any]) -> Any:
        reads = READS.get(procedure)
        if reads is None:
            return judge(procedure, request)
        try:
            key = (procedure, *((k, type(v), v) for k, v in request.items()))
            hash(key)
            uid = request.get("unit")
            group = groups.get(uid)  # type: ignore[arg-type]
            hit = None if group is None else group.get(key)
        except TypeError:  # a list or a table in the request: not a key
            return judge(procedure, request)
        if memo.units is not units:  # another todo ran in between (re-entered): not this one's
            return judge(procedure, request)
        if hit is not None and all(ctx.number(n[:-1]) == n[-1] for n in hit.reads.numbers):
            if hit.ok:
                return hit.value
            raise hit.value.with_traceback(None)
        found = reads(ctx, request)
        if found is None:
            return judge(procedure, request)
        found = Reads(
            found.names,
            found.discs,
            tuple((*n, ctx.number(n)) for n in found.numbers),
        )
        group = groups.setdefault(found.names[0], {})
        try:
            value = judge(procedure, request)
        except VedetteError as e:
            if memo.units is units:
                _keep(memo, group, key, _Remembered(found, False, e))
            raise
        if memo.units is units:
            _keep(memo, group, key, _Remembered(found, True, value))
        return value

    return remembered


def _keep(
    memo: _Memo, group: dict[tuple[Any, ...], _Remembered], key: tuple[Any, ...], r: _Remembered
) -> None:
    if key not in group:
        memo.size += 1
    group[key] = r


def clear() -> None:
    """Forget every remembered verdict of this thread (a cold start, for benches)."""
    _MEMOS.memo.clear()
