"""HIP shifts (O'Leary 3.3, 4.2-4.5): HIP units, dummy HIP counters and hidden fortifications.

Partial stacks may shift (3.3.3); the HIP units of the other location need not come back; a
location left with no HIP unit is marked with a dummy HIP counter (3.3.3). Fortifications shift
with the units in them or alone (4.4, 4.5); a tunnel goes with either end that shifts (its
fortified end, or the last fortification at its exit) and its other exit is chosen again
(4.4.2); a cave complex may be re-formed (4.4.1).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from vedette.rules.solitaire_asl.events import BoardChanges
from vedette.rules.solitaire_asl.model import Fortification, Stack, State, Status, kind_words
from vedette.rules.solitaire_asl.turn import Effects, phase_key

if TYPE_CHECKING:
    from vedette.rules.solitaire_asl.shift import Choices, ShiftPlan


def new_id(state: State, prefix: str, serial: int, taken: set[str]) -> tuple[str, int]:
    """A fresh stack id ``prefix+n`` and the next serial."""
    used = {s.id for s in state.stacks} | taken | {c.id for s in state.stacks for c in s.counters}
    used |= set(state.removed)
    while True:
        serial += 1
        cand = f"{prefix}{serial}"
        if cand not in used:
            taken.add(cand)
            return cand, serial


def split_id(state: State, parent: str, taken: set[str] | None = None) -> str:
    """A readable id for a part split off ``parent``: ``P1`` gives ``P1b``, ``P1c`` ...; a
    parent whose id ends in a letter gives ``P1b2``, ``P1b3`` ..."""
    used = {s.id for s in state.stacks} | {c.id for s in state.stacks for c in s.counters}
    used |= set(state.removed) | {f.id for f in state.fortifications}
    used |= {m.id for m in state.minefields}  # (a third dummy minefield in a location, 4.6.1)
    used |= set(taken or ())
    if parent[-1:].isdigit():
        cands = [parent + ch for ch in "bcdefghijklmnopqrstuvwxyz"]
    else:
        cands = [f"{parent}{n}" for n in range(2, 100)]
    for c in cands:
        if c not in used:
            if taken is not None:
                taken.add(c)
            return c
    sid, _ = new_id(state, parent + "-", 0, set(taken or ()))
    return sid


class _Board:
    """A working copy of the stacks and fortifications a HIP shift touches."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.stacks: dict[str, Stack] = {s.id: s for s in state.stacks}
        self.forts: dict[str, Fortification] = {f.id: f for f in state.fortifications}
        self.removed: list[str] = []
        self.touched: set[str] = set()
        self.touched_forts: set[str] = set()
        self.serial = state.serial
        self.taken: set[str] = set()

    def put(self, s: Stack) -> None:
        self.stacks[s.id] = s
        self.touched.add(s.id)

    def remove(self, sid: str) -> None:
        self.stacks.pop(sid, None)
        self.removed.append(sid)
        self.touched.discard(sid)

    def put_fort(self, f: Fortification) -> None:
        self.forts[f.id] = f
        self.touched_forts.add(f.id)

    def named(self, wanted: str) -> str:
        """``wanted`` as a new id if it is free, else a readable variant of it."""
        used = set(self.stacks) | set(self.forts) | set(self.removed) | set(self.state.removed)
        used |= {c.id for s in self.stacks.values() for c in s.counters} | self.taken
        if wanted not in used:
            self.taken.add(wanted)
            return wanted
        return split_id(self.state, wanted, self.taken)

    def fresh(self, prefix: str) -> str:
        sid, self.serial = new_id(self.state, prefix, self.serial, self.taken)
        return sid

    def hip_at(self, loc: str, side: str) -> bool:
        return any(
            s.location == loc and s.side == side and s.status in (Status.HIP, Status.DUMMY_HIP)
            for s in self.stacks.values()
        ) or any(
            f.location == loc and f.side == side and f.hidden and f.kind != "tunnel"
            for f in self.forts.values()
        )

    def hip_units_at(self, loc: str, side: str) -> bool:
        """HIP units (real counters) or a hidden fortification (4.2) of ``side`` in ``loc``."""
        return any(
            s.location == loc and s.side == side and s.status == Status.HIP and s.counters
            for s in self.stacks.values()
        ) or any(
            f.location == loc and f.side == side and f.hidden and f.kind != "tunnel"
            for f in self.forts.values()
        )

    def patch(self, p: BoardChanges) -> BoardChanges:
        for sid in sorted(self.touched):
            p.put_stack(self.stacks[sid])
        for sid in self.removed:
            if sid in {s.id for s in self.state.stacks}:
                p.remove_stack(sid)
        for fid in sorted(self.touched_forts):
            p.put_fort(self.forts[fid])
        return p


def _split(b: _Board, stack: Stack, ids: set[str], **changes: Any) -> tuple[Stack | None, Stack]:
    """Split the counters ``ids`` off ``stack`` (or change the whole stack): (rest, part)."""
    part = tuple(c for c in stack.counters if c.id in ids)
    rest = tuple(c for c in stack.counters if c.id not in ids)
    if not rest:
        new = replace(stack, **changes)
        b.put(new)
        return None, new
    kept = replace(stack, counters=rest)
    b.put(kept)
    new = replace(stack, id=split_id(b.state, stack.id, b.taken), counters=part, **changes)
    b.put(new)
    return kept, new


def hip_consequences(
    state: State, plan: ShiftPlan, flags: Effects
) -> tuple[BoardChanges, list[str], int]:
    p = BoardChanges()
    changes: list[str] = []
    if flags.counted:
        p.count(plan.side, phase_key(state), plan.book)
    if flags.closes:
        p.close(plan.side, plan.book, plan.window.key)
        changes.append(
            f"no more HIP shifts by {plan.side} in this phase"
            + (" (the enemy MPh and own DFPh count as one)" if "+" in plan.window.key else "")
        )
    b = _Board(state)
    for part in (plan, *plan.hip_extra):  # 2.4.2: every group shifting on this DR
        if flags.allowed:
            if part.a.location != part.b.location:
                _exchange(b, part, changes)
            else:
                _in_place(b, part, changes)
        else:
            _fail(b, part, flags, changes)
    b.patch(p)
    return p, changes, b.serial


def _exchange(b: _Board, plan: ShiftPlan, changes: list[str]) -> None:
    la, lb = plan.a.location, plan.b.location
    side = plan.side
    into = plan.options.into_fort
    ca = dict(plan.options.ca)
    moves = ((plan.moving_a, la, lb), (plan.moving_b, lb, la))
    # the portion of the location each arrival takes: that of the units that left it (2.3)
    portion: dict[str, str] = {}
    for ids, src, _dst in moves:
        for s in b.stacks.values():
            if (
                s.location == src
                and s.status == Status.HIP
                and any(c.id in ids for c in s.counters)
            ):
                portion.setdefault(src, s.position)
    # 3.3.3: a location that held HIP units (a hidden fortification counts as one, 4.2) and is
    # left without any is marked with a new dummy HIP counter; one that held only dummy HIP
    # counters is simply vacated (else a dummy shifting where nothing comes back would leave a
    # new one behind, beyond the side's allotment, 3.1.1)
    had_units = {loc: b.hip_units_at(loc, side) for loc in (la, lb)}
    arrivals: list[tuple[Stack, str]] = []
    fort_moves: list[tuple[Fortification, str, str]] = []
    for ids, src, dst in moves:
        idset = set(ids)
        for s in [x for x in b.stacks.values() if x.location == src and x.side == side]:
            if s.status == Status.DUMMY_HIP and s.id in idset:
                arrivals.append((s, dst))
            elif s.status == Status.HIP and any(c.id in idset for c in s.counters):
                ids_here = {c.id for c in s.counters if c.id in idset}
                if len(ids_here) == len(s.counters):
                    arrivals.append((s, dst))
                else:
                    _kept, part = _split(b, s, ids_here)
                    arrivals.append((part, dst))
        for f in [x for x in b.forts.values() if x.id in idset]:
            fort_moves.append((f, src, dst))
    # 4.4.2: the fortifications of the side that stay where they are (a tunnel ending in one
    # that stays is not cut off by another leaving)
    leaving = {f.id for f, _, _ in fort_moves}
    staying = {
        (x.side, x.location) for x in b.forts.values() if x.kind != "tunnel" and x.id not in leaving
    }
    for f, src, dst in fort_moves:
        nf = replace(f, location=dst, moved=True, ca=ca.get(f.id, f.ca))
        b.put_fort(nf)
        changes.append(f"move hidden {f.words} {f.id} from {src} to {dst}")
        if f.id in ca:
            changes.append(f"{f.words} {f.id} CA: {ca[f.id]} (4.4)")
        for t in list(b.forts.values()):
            if t.kind == "tunnel" and t.tunnel_from == f.id:
                b.put_fort(replace(t, exit="", location=dst))
                changes.append(
                    f"tunnel {t.id} now starts in {f.words} {f.id} at {dst}: choose its other exit"
                    " (B8.6) with the fort action (4.4.2)"
                )
            elif (
                t.kind == "tunnel"
                and t.exit == src
                and t.side == f.side
                and (f.side, src) not in staying
            ):
                # 4.4.2 (the example's second case): the tunnel ends in a fortification that
                # shifts: "the tunnel is also shifted, but must instead have one entrance in the
                # fortified building location": one end goes with it, the other is chosen again
                b.put_fort(replace(t, tunnel_from=f.id, location=dst, exit=""))
                changes.append(
                    f"tunnel {t.id} now starts in {f.words} {f.id} at {dst}: choose its other exit"
                    f" (B8.6; it was in {t.location}) with the fort action (4.4.2)"
                )
            elif t.kind == "tunnel" and t.exit == src and t.side == f.side:
                changes.append(
                    f"tunnel {t.id} exits in {src}, which {f.words} {f.id} has left: its exit may"
                    " be chosen again now (the fort action, 4.4.2)"
                )
        if f.kind == "cave":
            changes.append(
                "re-form the cave complex for the new cave locations now, before anything else"
                " (the fort action); units inside may go into any new complex"
                " without a shift DR (4.4.1)"
            )
    # 4.5: units shifting together with the fortification they are in stay in it
    carried = {(src, dst, f.kind) for f, src, dst in fort_moves}
    for s, dst in arrivals:
        src = s.location
        pos = s.position if s.status == Status.DUMMY_HIP else portion.get(dst, "")
        if s.position and (src, dst, s.position) in carried:
            pos = s.position
        if into:
            kinds = [f.kind for f in b.forts.values() if f.location == dst and f.side == s.side]
            if kinds:
                pos = kinds[0]
        b.put(replace(s, location=dst, position=pos))
        what = (
            "dummy HIP counter"
            if s.status == Status.DUMMY_HIP
            else ", ".join(c.name for c in s.counters)
        )
        changes.append(
            f"move {what} ({s.id}) from {src} to {dst}" + (f" ({kind_words(pos)})" if pos else "")
        )
    # units left in a fortification that has gone: out of it
    gone = {(src, f.kind) for f, src, _ in fort_moves}
    for s in list(b.stacks.values()):
        if (s.location, s.position) in gone and not any(
            f.location == s.location and f.kind == s.position for f in b.forts.values()
        ):
            b.put(replace(s, position=""))
    if into:
        for s in list(b.stacks.values()):
            if s.side == side and s.status == Status.HIP and s.location in (la, lb):
                kinds = [
                    f.kind for f in b.forts.values() if f.location == s.location and f.side == side
                ]
                if kinds and s.position != kinds[0]:
                    b.put(replace(s, position=kinds[0]))
    # 4.4: other units in the new location of a fortification may be taken to be in it
    for sid in plan.options.occupants:
        s = b.stacks[sid]
        if s.location not in (la, lb):
            continue  # another group's location (2.4.2)
        kinds = [f.kind for f in b.forts.values() if f.location == s.location and f.side == side]
        if kinds:
            b.put(replace(s, position=kinds[0]))
            changes.append(f"{sid} is in the {kinds[0]} in {s.location} (4.4)")
    for loc in (la, lb):
        if had_units[loc] and not b.hip_at(loc, side):
            sid = b.named(f"X{loc.split(':')[0]}")  # readable: the dummy HIP left in 4M6
            b.put(Stack(sid, side, loc, Status.DUMMY_HIP, dummies=1))
            changes.append(
                f"place a dummy HIP counter ({sid}) in {loc}: no HIP unit is left there (3.3.3)"
            )
    for s in list(b.stacks.values()):
        if s.id in b.touched and s.location in (la, lb):
            b.put(_apply_settings(b.state, s, plan.options, changes))


def _in_place(b: _Board, plan: ShiftPlan, changes: list[str]) -> None:
    """A HIP shift with itself (2.3 via 3.3): only the settings chosen after it change (CA of a
    Gun or of a fortification, TCA/VCA/CE-BU)."""
    ca = dict(plan.options.ca)
    for s in plan.a.stacks:
        cur = b.stacks.get(s.id)
        if cur is not None:
            new = _apply_settings(b.state, cur, plan.options, changes)
            if new != cur:
                b.put(new)
    for f in plan.a.forts:
        if f.id in ca:
            b.put_fort(replace(f, ca=ca[f.id]))
            changes.append(f"{f.words} {f.id} CA: {ca[f.id]} (4.4)")


def _apply_settings(state: State, s: Stack, options: Choices, changes: list[str]) -> Stack:
    """Settings chosen after the shift; a Gun counts as shifted (emplacement chosen again, 2.3)
    only if it is no longer where it was."""

    def origin(cid: str) -> str | None:
        hit = state.counter(cid)
        return None if hit is None else hit[0].location

    moved = any(origin(c.id) not in (None, s.location) for c in s.counters)
    return _settings(s, options, changes, moved)


def _fail(b: _Board, plan: ShiftPlan, flags: Effects, changes: list[str]) -> None:
    """Rows 11-12 and >=13 for HIP: HIP lost (concealment kept if applicable) or revealed + TI;
    a revealed dummy HIP counter is removed (3.4); a hidden fortification is revealed."""
    if not (flags.hip_lost or flags.concealment_lost):
        return
    reveal = flags.concealment_lost or not plan.options.keep_concealment
    ti = flags.ti
    seen: set[str] = set()
    for party in (plan.a, plan.b):
        ids = {c.id for c in party.counters}
        for s in party.stacks:
            if s.id in seen:
                continue
            seen.add(s.id)
            cur = b.stacks.get(s.id)
            if cur is None:
                continue
            if cur.status == Status.DUMMY_HIP:
                b.remove(cur.id)
                changes.append(f"remove the dummy HIP counter {cur.id} from {cur.location} (3.4)")
                continue
            here = {c.id for c in cur.counters} & ids
            status = Status.REVEALED if reveal else Status.CONCEALED
            _rest, part = _split(b, cur, here, status=status, ti=ti)
            names = ", ".join(c.name for c in part.counters)
            if reveal:
                changes.append(
                    f"{names} in {cur.location} lose HIP and concealment: place them in view"
                )
            else:
                changes.append(f"{names} in {cur.location} lose HIP: place them on board under a ?")
            if ti:
                changes.append(f"mark {part.id} TI until the end of the player turn")
        for f in party.forts:
            if f.id in seen:
                continue
            seen.add(f.id)
            b.put_fort(replace(f, hidden=False))
            changes.append(f"reveal the {f.words} {f.id} in {f.location}")


def _settings(s: Stack, options: Choices, changes: list[str], moved: bool) -> Stack:
    """CA/TCA/VCA/CE-BU the player chose after the exchange (2.3); a Gun that shifted is
    emplaced only if the player says so (and it was allowed to emplace at the start)."""
    settings = {**options.settings, **options.ca}
    emplaced = set(options.emplaced)
    cs = []
    for c in s.counters:
        if c.id in settings or c.name in settings:
            v = settings.get(c.id, settings.get(c.name, ""))
            c = replace(c, settings=v)
            changes.append(f"{c.name}: {v}")
        if c.kind == "gun" and moved:
            now = c.may_emplace and (c.id in emplaced or c.name in emplaced)
            if now != c.emplaced:
                changes.append(f"{c.name} is {'now' if now else 'no longer'} emplaced")
            c = replace(c, emplaced=now)
        elif c.kind == "gun" and (c.id in emplaced or c.name in emplaced) and not c.emplaced:
            c = replace(c, emplaced=True)
            changes.append(f"{c.name} is emplaced")
        cs.append(c)
    return replace(s, counters=tuple(cs))
