"""The folds of a solitaire ASL game's events (events.py): each event's board changes, then
what its kind adds (a phase begun, a decision owed, a minefield exchange offered), then the owed
steps the board made impossible lapse. Folding is deterministic, so replaying the log gives
the same state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from vedette.rules.evolve import evolve as replace
from vedette.rules.patch import fold_patches
from vedette.rules.protocol import DomainEvent, Obligation, decode_event
from vedette.rules.solitaire_asl.events import (
    BY_KIND,
    ENTITIES,
    EVENTS,
    BoresightRolled,
    Decided,
    PhaseEntered,
    PreregRolled,
    Shifted,
    StackMoved,
    Step,
)
from vedette.rules.solitaire_asl.flow import FLOW
from vedette.rules.solitaire_asl.model import Fortification, Minefield, State
from vedette.rules.solitaire_asl.turn import phase_title


# -- folds: what a kind's own facts add to its changes (the core's one fold) --------------------
def fold_phase(state: State, e: PhaseEntered) -> State:
    turn = int(e.player_turn)
    changes: dict[str, Any] = {
        "phase": e.phase,
        "phasing": e.phasing,
        "player_turn": turn,
        "acted": False,
        "moved_now": (),
        "ar_now": (),
    }
    if e.new_player_turn:
        # TI lasts for the remainder of the player turn (O'Leary 2.5, >=13)
        changes["stacks"] = tuple(replace(x, ti=False) if x.ti else x for x in state.stacks)
        pt = str(turn - 1) + ":"
        changes["counts"] = tuple(c for c in state.counts if not c[1].startswith(pt))
        changes["closed"] = tuple(c for c in state.closed if not c[2].startswith(pt))
    return fold_patches(replace(state, **changes), e, ENTITIES)  # one copy of the state, not three


#: what an owed word on a scattered hex refuses until it is given or waived: every action but
#: ``decide`` itself (each of several owed words is given in turn) and queries; the word
#: belongs to the shot that scattered (6.1 "it becomes that weapon's Bore Sighted hex", 7.1;
#: reading A21)
DECISION_BLOCKS = tuple(
    sorted(({p for ph in FLOW.phases for p in ph.allows} | set(FLOW.always)) - {"decide"})
)


def decision(what: str, ident: str, hexid: str, label: str) -> Obligation:
    """The owed word on a scattered hex (6.1, 7.1): answered (or waived) before any other action
    (``DECISION_BLOCKS``, reading A21); the weapon's own die names it too."""
    rule = "O'Leary 6.1" if what == "boresight" else "O'Leary 7.1"
    verb = "bore sight a location in" if what == "boresight" else "pre-register"
    return Obligation(
        f"{what}:{ident}",
        "decide",
        {"id": ident, "hex": hexid},
        rule,
        f"the decision whether {label} could {verb} {hexid}",
        blocks=DECISION_BLOCKS,
        open={"ok": (True, False)},  # the player's word: either answer discharges it
    )


def _owe(state: State, add: Iterable[Obligation]) -> State:
    new = list(add)
    ids = {o.id for o in new}
    return replace(state, owed=(*(o for o in state.owed if o.id not in ids), *new))


def fold_boresight(state: State, e: BoresightRolled) -> State:
    s = fold_patches(state, e, ENTITIES)
    if e.candidate:
        add = []
        for wid in e.weapons:
            hit = s.counter(wid)
            label = f"{hit[1].name} ({wid})" if hit is not None else wid
            add.append(decision("boresight", wid, e.candidate, label))
        s = _owe(s, add)
    return s


def fold_prereg(state: State, e: PreregRolled) -> State:
    s = fold_patches(state, e, ENTITIES)
    s = replace(s, ar_now=(*s.ar_now, e.module))  # one die per AR placed (7.1, reading A44)
    if e.candidate:
        s = _owe(s, [decision("prereg", e.module, e.candidate, f"OBA module {e.module}")])
    return s


def fold_decided(state: State, e: Decided) -> State:
    gone = {f"{e.what}:{e.id}"} if e.what else {f"boresight:{e.id}", f"prereg:{e.id}"}
    s = replace(state, owed=tuple(o for o in state.owed if o.id not in gone))
    return fold_patches(s, e, ENTITIES)


def mine_choices(state: State, m: Minefield) -> tuple[str, ...]:
    """O'Leary 4.6.2, 4.6.5: the unrevealed minefields of ``m``'s side and kind (hidden with
    hidden, known with known) it may be exchanged with."""
    return tuple(
        x.id
        for x in state.minefields
        if x.id != m.id and not x.revealed and x.side == m.side and x.known == m.known
    )


def minefield_offer(m: Minefield, stack: str, others: tuple[str, ...]) -> Obligation:
    """O'Leary 4.6.2: a unit entered ``m``'s location before its strength was revealed: its
    owner "may" try to exchange it. Owed (nothing else happens before the entering unit meets
    the mines), declined with ``waive`` (the text's "may")."""
    return Obligation(
        f"minefield:{m.id}",
        "minefield",
        {"entered": m.id},
        "O'Leary 4.6.2",
        f"the {m.side} attempt to exchange minefield {m.id} ({m.location}), entered by {stack},"
        " with another unrevealed minefield (the player may decline it)",
        open={"other": others},
    )


def fold_moved(state: State, e: StackMoved) -> State:
    """A stack moved (ASL A4): entering a location whose minefield's strength is not revealed
    offers the exchange of 4.6.2 (where another unrevealed minefield of its kind exists). The
    text says "whenever any unit enters": concealment counters alone (a dummy stack, a dummy
    cloaking counter) are no unit, so they are offered nothing (reading A35, ``[minefield]
    dummies_enter``)."""
    s = fold_patches(state, e, ENTITIES)
    # the stack that moved (a split: the part that moved off) has begun its own phase (5.1)
    went = tuple(x.id for x in s.stacks if x.location == e.to and state.stack(x.id) != x)
    s = replace(s, moved_now=(*s.moved_now, *went))
    if not s.config.minefield.dummies_enter and any(
        m.location == e.to and not m.revealed for m in s.minefields
    ):
        s = _entered(s, e.to)
    if not s.config.minefield.dummies_enter and not any(
        x.counters
        for x in s.stacks
        if x.location == e.to and (x.id == e.stack or state.stack(x.id) is None)
    ):
        return s
    add = []
    for m in s.minefields:
        if m.location == e.to and not m.revealed:
            others = mine_choices(s, m)
            if others:
                add.append(minefield_offer(m, e.stack, others))
    return _owe(s, add) if add else s


def _entered(state: State, to: str) -> State:
    """Index who entered ``to`` (an unrevealed minefield's location) as last seen: if nothing
    that moved in this phase is a unit (concealment counters alone), no exchange is open there
    in this phase or a later one (4.6.2, reading A35), until a unit is seen entering."""
    came = [x for x in state.stacks if x.location == to and x.id in state.moved_now]
    kept = tuple(d for d in state.dummy_entered if d[0] != to)
    if not any(x.counters for x in came):
        kept += ((to, ", ".join(x.id for x in came), phase_title(state)),)
    return replace(state, dummy_entered=kept) if kept != state.dummy_entered else state


#: the kinds of the steps done "immediately following" a shift (2.3, 4.4, 4.4.1, 4.4.2): doing
#: one of them keeps open the others the shift opened (readings A40, A43, A46)
FOLLOW_UPS = ("fort", "settle")
#: the kinds of counter that choose their arcs (and CE/BU, emplacement) after a shift (2.3)
SETTLED = ("vehicle", "gun")


def fold_shifted(state: State, e: Shifted) -> State:
    """A shift DR (2.5): its changes, then, on a row that allows the shift, the vehicles and
    Guns it exchanged (those that changed location; a stack exchanged with itself: all of
    its own) may choose their CA/TCA/VCA, CE/BU status and emplacement now (2.3 "immediately
    following the exchange of locations", reading A46: ``State.resettle``)."""
    s = fold_patches(state, e, ENTITIES)
    table = s.config.tables.get("shift") if s.config is not None else None
    allowed = table is not None and any(r.key == e.row and r.allowed for r in table.rows)
    if not allowed:
        return replace(s, resettle=()) if s.resettle else s
    ids = {c.id for c in e.patches if c.entity == "stack" and c.how == "put"}
    put = [x for x in s.stacks if x.id in ids]
    was = {c.id: x.location for x in state.stacks for c in x.counters}
    went = {c.id for x in put for c in x.counters if was.get(c.id, x.location) != x.location}
    mine = [c.id for x in put for c in x.counters if c.kind in SETTLED]
    # nothing changed location: a stack exchanged with itself, whose own may choose (2.3)
    turned = tuple(c for c in mine if c in went) if went else tuple(mine)
    return replace(s, resettle=turned) if turned or s.resettle else s


def tunnel_exit(t: Fortification, choices: tuple[str, ...]) -> Obligation:
    """O'Leary 4.4.2: the fortified end of tunnel ``t`` has shifted and taken the tunnel with
    it: "the other end can be chosen per the usual rules for tunnel exits (B8.6)". A tunnel
    without its other end is a shift left half-done: the choice is owed before anything else
    (reading A45), waived only by a logged ``waive`` (the exit then stays to be chosen)."""
    return Obligation(
        f"tunnel:{t.id}",
        "fort",
        {"id": t.id},
        "O'Leary 4.4.2",
        f"the choice of tunnel {t.id}'s other exit (its fortified end is now in {t.location})",
        open={"exit": choices},
    )


def lapse(state: State) -> State:
    """Owed steps the board has made impossible lapse (issue 22: never a dead end): a
    minefield exchange once the entered minefield is revealed or gone (its choices follow the
    minefields still unrevealed; none left: it lapses), a bore-sight decision once its
    weapon has left the board."""
    if not state.owed:
        return state
    keep: list[Obligation] = []
    changed = False
    for o in state.owed:
        if o.procedure == "minefield":
            m = state.minefield(str(o.request["entered"]))
            others = mine_choices(state, m) if m is not None and not m.revealed else ()
            if not others:
                changed = True
                continue
            if tuple(o.open.get("other", ())) != others:
                o = dataclasses.replace(o, open={"other": others})
                changed = True
        elif o.id.startswith("boresight:") and state.counter(str(o.request["id"])) is None:
            changed = True
            continue
        elif o.id.startswith("tunnel:"):
            t = state.fortification(str(o.request["id"]))
            if t is None or t.exit or not t.location:  # chosen (4.4.2), or gone
                changed = True
                continue
        keep.append(o)
    return replace(state, owed=tuple(keep)) if changed else state


def fold_step(state: State, e: Step) -> State:
    return fold_patches(state, e, ENTITIES)


FOLDS: dict[type[Any], Any] = {cls: fold_step for cls in EVENTS}
FOLDS.update(
    {
        PhaseEntered: fold_phase,
        BoresightRolled: fold_boresight,
        PreregRolled: fold_prereg,
        Decided: fold_decided,
        StackMoved: fold_moved,
        Shifted: fold_shifted,
    }
)


def reform(before: State, after: State, kind: str) -> State:
    """O'Leary 4.4.1: a side whose cave has just changed location "may immediately modify the
    cave complex"; 4.4.2: a tunnel ending in a fortification may be changed "following the
    shift ... of that fortification" (its fortified end's shift clears its exit, hip.py). Each
    may be done until anything but ``fort`` is done (reading A40). 4.4: a fortification with a
    CA that a shift has just moved chooses its CA, in the same window (reading A43); 2.3: so do
    the vehicles and Guns a shift has just exchanged (``fold_shifted``, reading A46)."""
    if after.resettle and kind not in FOLLOW_UPS and kind != "shift":
        after = replace(after, resettle=())
    open_ = after.reform or after.reroute or after.reorient or after.rehouse
    if before.fortifications is after.fortifications:
        if open_ and kind not in FOLLOW_UPS:
            return replace(after, reform=(), reroute=(), reorient=(), rehouse=())
        return after
    was = {f.id: f for f in before.fortifications if f.kind != "tunnel"}
    moved = [
        (was[f.id], f)
        for f in after.fortifications
        if f.id in was and was[f.id].location != f.location
    ]
    sides = tuple(sorted({f.side for _, f in moved if f.kind == "cave"}))
    left = {(old.side, old.location) for old, _ in moved}
    tunnels = tuple(
        t.id
        for t in after.fortifications
        if t.kind == "tunnel" and t.exit and (t.side, t.exit) in left
    )
    cleared = [
        t
        for t in after.fortifications
        if t.kind == "tunnel"
        and t.location
        and not t.exit
        and t.id in {b.id for b in before.fortifications if b.kind == "tunnel" and b.exit}
    ]
    if cleared:  # a shift took a tunnel with its fortified end: its exit is owed (A45)
        near = after.layout.neighbors
        after = _owe(after, [tunnel_exit(t, tuple(near(t.location))) for t in cleared])
    has_ca = after.config.fortification_ca if after.config is not None else {}
    turned = tuple(f.id for _, f in moved if has_ca.get(f.kind, False))
    housed = tuple(f.id for _, f in moved if f.location)
    if sides or tunnels or turned or housed:
        return replace(after, reform=sides, reroute=tunnels, reorient=turned, rehouse=housed)
    if open_ and kind not in FOLLOW_UPS:
        return replace(after, reform=(), reroute=(), reorient=(), rehouse=())
    return after


def _lapsing(fold: Any) -> Any:
    def folded(state: State, e: Any) -> State:
        return reform(state, lapse(fold(state, e)), e.kind)

    folded.__name__ = getattr(fold, "__name__", "fold")
    return folded


# every fold ends with the owed steps the board made impossible lapsing (issue 22)
FOLDS = {cls: _lapsing(f) for cls, f in FOLDS.items()}


def apply_event(state: State, event: Any) -> State:
    """Fold one event: typed, or an untyped one (kind, data) of release 0.1, upgraded."""
    if not isinstance(event, DomainEvent):
        event = decode_event(BY_KIND, {"kind": event.kind, "v": 1, "data": dict(event.data)})
    fold = FOLDS.get(type(event))
    if fold is None:
        raise TypeError(f"no fold for {type(event).__name__}")
    return fold(state, event)  # type: ignore[no-any-return]
