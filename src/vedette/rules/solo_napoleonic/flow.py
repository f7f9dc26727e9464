"""What the referee holds between rolls (Kuryakin, Charge Test; Charge Home Test; Melee; Morale;
Movement): the charge as one guided sequence and the morale tests owed, derived from the state
(what binds a unit and the steps' bookkeeping are in charging.py, below the topic modules; this
module, above them, asks the movement and fire rules whether an owed step can still be made).

The charge is held on the charger (``Unit.charge_step``, the step owed next):

``morale``  the target's forced morale test, its charger known ("forcing an immediate test from
            its target"; the target tests when its jumped card comes, or at once if it has
            already acted: Kuryakin, Movement)
``evade``   skirmishers charged by cavalry evade instead (Melee/Cavalry vs. Infantry; reading
            K65: instead of the forced test too, unless ``[options] evade_morale = "before"``)
``fire``    "takes any defensive fire" (short range, only if the firers' morale held): the
            target's ``fire`` at its charger, or ``fire ... hold=true``
``close``   "the attacker moves up to the target" (a target routed at the charge: the charger
            takes the ground and the charge ends, no melee)
``home``    "then tests to charge home"
``melee``   a round of melee (round 1, then the further rounds)
``loser``   the loser's morale test ("The side taking the most casualties checks morale")
``brawl``   "if it passes the melee continues for D3 further rounds this turn"

Each step is an :class:`~vedette.rules.protocol.Obligation` (``todo`` shows it, the engine
refuses anything else naming the rule, ``waive`` is the logged way round). So are a move's
collision chits (Kuryakin, Disorder), held on the mover (``Unit.collided``) and owed first.
Failures bind for the turn: ``charge_failed``, ``home_failed`` and ``morale_failed`` are
cleared only by ``end_turn``.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from vedette.errors import BadRequest, RuleViolation, VedetteError
from vedette.rules.protocol import Flow, Obligation, Phase
from vedette.rules.solo_napoleonic.actions import (
    R_FORM,
    RESULT_MOVES,
    base_move,
    change_carried,
    change_stalled,
    formation,
    move_allowed,
    move_base,
)
from vedette.rules.solo_napoleonic.charging import (
    R_CHARGE,
    R_HOME,
    acted,
    after_close,
    after_fire,
    after_home,
    can_fire,
    charger_of,
    chargers,
    continue_melee,
    set_step,
)
from vedette.rules.solo_napoleonic.common import Changes
from vedette.rules.solo_napoleonic.events import (
    ChargeStep,
    Disordered,
    FormationChanged,
    MoraleHeld,
    Moved,
)
from vedette.rules.solo_napoleonic.fire import plan
from vedette.rules.solo_napoleonic.model import State, Unit
from vedette.rules.solo_napoleonic.requests import Fire, Formation, Move, dry_run

R_MELEE = "Kuryakin, Melee"
R_CI = "Kuryakin, Melee/Cavalry vs. Infantry"
R_MORALE = "Kuryakin, Morale"
R_MARKER = "Kuryakin, Movement (markers directing morale tests)"
R_DIS = "Kuryakin, Disorder"

STEPS = ("morale", "evade", "close", "fire", "home", "melee", "loser", "brawl")


#: Kuryakin, Move Sequence: the control phase (brigadiers roll under their Control Rating;
#: the staff is rated first), the cards dealt and revealed, the cards acting in turn, and
#: the turn's end once every card has acted. Setting out the table (place, attach), D chits
#: by hand and a morale test the player calls are open at any time.
FLOW = Flow(
    phases=(
        Phase.of(
            "control",
            ["staff", "control"],
            "Kuryakin, Generals (the control phase comes first: 'control')",
            ends="control",
        ),
        Phase.of(
            "cards",
            ["staff", "deal"],
            "Kuryakin, Move Sequence (the cards are dealt next: 'deal')",
            ends="deal",
        ),
        Phase.of(
            "activation",
            [
                "next",
                "require",
                "chance",
                "move",
                "start",
                "halt",
                "formation",
                "reform",
                "fire",
                "charge",
                "close",
                "rally",
                "charge_home",
                "melee",
                "brawl",
                "evade",
                "general",
                "end_turn",
            ],
            "Kuryakin, Move Sequence (the cards act in turn: 'next')",
            ends="next after the last card",
        ),
        Phase.of(
            "end",
            ["end_turn"],
            "Kuryakin, Move Sequence (every card has acted: 'end_turn')",
            ends="end_turn",
        ),
    ),
    always=frozenset({"place", "attach", "disorder", "morale", "waive"}),
)


#: what an owed step blocks: everything but a chance card (Kuryakin, Move Sequence: the card
#: "may be played at any time during the move", so also while a test or a step is owed; a
#: re-roll card is played on the unit before the test it owes)
BLOCKED_BY_OWED = tuple(
    sorted(({p for ph in FLOW.phases for p in ph.allows} | FLOW.always) - {"chance"})
)


# -- what is owed now ----------------------------------------------------------------------
def may_test_now(state: State, t: Unit) -> bool:
    """The charged unit tests when its (jumped) card comes, or at once if it has acted."""
    card = state.card_of(t.id)
    return (
        t.acted
        or card is None
        or card.holder in state.done
        or card.holder == state.active
        or state.phase != "activation"
    )


def obligations(state: State) -> tuple[Obligation, ...]:
    """Every step owed now: the open charges' next steps, then the markers directing morale
    tests of the units on the active card."""
    out: list[Obligation] = []
    seen: set[str] = set()
    for c in chargers(state) if state.charging_ids() else ():
        if c.charge_target is None or not state.has_unit(c.charge_target):
            continue
        t = state.unit(c.charge_target)
        step = c.charge_step
        if step != "loser" and not (c.on_table and t.on_table):
            continue  # one side is gone (eliminated by fire, say): nothing more is owed
        oid = f"charge:{c.id}:{step}"
        if c.morale_due and step in ("close", "home"):
            # Kuryakin, Movement: a unit that has already moved (the charger, under defensive
            # fire) tests at once, its result applied before the charge goes on
            seen.add(c.id)
            why = f"{c.id} tests morale at once (losses to {t.id}'s defensive fire)"
            out.append(morale_owed(f"marker:{c.id}", c.id, R_MARKER, why))
            continue
        if step == "morale":
            seen.add(t.id)
            if t.morale_due and may_test_now(state, t):
                out.append(
                    Obligation(
                        oid,
                        "morale",
                        {"unit": t.id, "charged_by": c.id},
                        R_CHARGE,
                        f"{t.id}'s morale test forced by {c.id}'s charge",
                    )
                )
        elif step == "evade":
            # in place of the forced test (reading K65), at the same time: when the target's
            # jumped card comes, or at once if it has already acted
            seen.add(t.id)
            if not t.morale_due or may_test_now(state, t):
                out.append(
                    Obligation(
                        oid, "evade", {"unit": t.id}, R_CI, f"{t.id} (skirmishers) evade {c.id}"
                    )
                )
        elif step == "close":
            out.append(
                Obligation(oid, "close", {"unit": c.id}, R_CHARGE, f"{c.id} moves up to {t.id}")
            )
        elif step == "fire":
            out.append(
                Obligation(
                    oid,
                    "fire",
                    {"unit": t.id, "target": c.id},
                    R_CHARGE,
                    f"{t.id}'s defensive fire at {c.id} (short range; hold=true holds it)",
                )
            )
        elif step == "home":
            out.append(
                Obligation(oid, "charge_home", {"unit": c.id}, R_HOME, f"{c.id}'s charge home test")
            )
        elif step == "melee":
            k = c.melee_round + 1
            fields: dict[str, Any] = {"unit": c.id, "target": t.id}
            if k > 1:
                fields["round"] = k
            of = f" of {c.melee_rounds}" if c.melee_rounds else ""
            out.append(
                Obligation(
                    oid, "melee", fields, R_MELEE, f"melee round {k}{of}: {c.id} against {t.id}"
                )
            )
        elif step == "loser":
            # only the side that took the most casualties checks morale (Melee); a winner's
            # own test (a marker, say for losses to fire) is its own, not the melee's
            for x in (c, t):
                if x.lost_melee and x.morale_due and x.on_table:
                    seen.add(x.id)
                    why = f"{x.id} lost the round of melee: it checks morale"
                    out.append(morale_owed(f"charge:{c.id}:loser:{x.id}", x.id, R_MELEE, why))
        elif step == "brawl":
            out.append(
                Obligation(
                    oid,
                    "brawl",
                    {"unit": c.id, "target": t.id},
                    R_MELEE,
                    f"the melee of {c.id} and {t.id} goes on:"
                    f" D{state.config.dice.further_rounds} further rounds",
                )
            )
    out[:0] = [*collisions_owed(state), *bound_moves(state)]
    out.extend(routing_runs(state))
    out.extend(carried_changes(state))
    due = state.due_ids()
    if due and state.phase == "activation":
        active = set(state.active_units())
        for uid in sorted(due):
            if uid in seen or not state.has_unit(uid):
                continue
            u = state.unit(uid)
            if not (u.morale_due and u.on_table):
                continue
            now = uid in active and not u.acted
            if now or acted(state, u):
                out.append(
                    Obligation(
                        f"marker:{u.id}",
                        "morale",
                        {"unit": u.id},
                        R_MARKER,
                        f"{u.id} has a marker directing a morale test"
                        + ("" if now else " (it has acted: at once)"),
                    )
                )
    return tuple(o if o.blocks is not None else replace(o, blocks=BLOCKED_BY_OWED) for o in out)


def none_owed(state: State) -> bool:
    """Nothing is owed (:func:`obligations` is empty): no open charge, no marker directing a
    morale test, no unit bound by a result, no collision's chits (told by the state's
    indexes, not a scan of every unit), no routing unit on the active card."""
    return not (
        state.charging_ids()
        or state.due_ids()
        or state.bound_ids()
        or state.collided_ids()
        or _routing_up(state)
        or _changing_up(state)
    )


def _routing_up(state: State) -> bool:
    """Is a routing unit on the active card (its run may be owed: :func:`routing_runs`)?"""
    if state.active is None or state.phase != "activation":
        return False
    routing = state.routing_ids()  # (most states: none routing, the card's units not read)
    return bool(routing) and not routing.isdisjoint(state.active_units())


def can_run(state: State, u: Unit) -> bool:
    """Reading K60: may the routing unit ``u`` make its run, the rules allowing the move (not
    guns that cannot move, nor a unit a *Lost orders* card holds)?"""
    if base_move(state, u) <= 0:
        return False
    try:
        move_allowed(state, u, Move(unit=u.id, mode="rout"))
    except VedetteError:
        return False
    return True


def routing_runs(state: State) -> list[Obligation]:
    """Reading K60 (Disorder: "Each move of Rout 2D"; Morale: a routing unit only runs or
    rallies, the chart saying so is missing): a routing unit on the active card that has not
    moved this turn owes its run, a full move away, before its card ends; it may rally first
    (a rallied unit owes nothing). Not owed where the rules forbid the move (guns that cannot
    move, a *Lost orders* card) or with ``[options] routing_runs = false``."""
    out: list[Obligation] = []
    if not _routing_up(state) or not state.config.options.routing_runs:
        return out
    for uid in state.active_units():
        u = state.unit(uid)
        if u.status != "routing" or not u.on_table or u.move_done or u.acted:
            continue
        if u.bound is not None or u.morale_due or u.charge_target is not None:
            continue  # its result's move, its test or its melee comes first
        if not can_run(state, u):
            continue
        out.append(
            Obligation(
                f"rout:{u.id}",
                "move",
                {"unit": u.id, "mode": "rout"},
                R_MORALE,
                f"{u.id} is routing: it runs a full move (2D) before its card ends, unless it"
                " rallies first",
                blocks=("next", "end_turn"),
            )
        )
    return out


def _changing_up(state: State) -> bool:
    """Is a unit carrying a formation change into this turn on the active card (reading K87:
    :func:`carried_changes`)?"""
    if state.active is None or state.phase != "activation":
        return False
    return any(change_carried(state, state.unit(uid)) for uid in state.active_units())


def carried_changes(state: State) -> list[Obligation]:
    """Reading K87 (Formation Changing: "some units have to carry a change into the next
    turn"): a unit on the active card whose change was carried from the last turn goes on
    with it, spending its quarters of this turn's move, before its card ends (and before it
    moves, charges or reforms: ``actions.changing_refusal``); what is left of its move after
    it is made in the new formation. Not owed while a result, a test or a charge comes first,
    nor where the rules refuse the change (``waive change:ID`` drops it, logged)."""
    out: list[Obligation] = []
    if not _changing_up(state):
        return out
    charged = {c.charge_target for c in chargers(state)} if state.charging_ids() else set()
    for uid in state.active_units():
        u = state.unit(uid)
        if not (u.on_table and change_carried(state, u)) or change_stalled(state, u):
            continue
        if u.bound in RESULT_MOVES or u.morale_due or u.charge_target is not None:
            continue  # its result's move, its test or its charge's steps come first
        if uid in charged or u.status == "routing" or u.must_rally:
            continue  # (charged: the charge's steps; a routing unit runs, one to rally rallies)
        to = str(u.formation_target)
        try:
            dry_run(formation, state, Formation(unit=u.id, to=to))
        except VedetteError:
            continue
        out.append(
            Obligation(
                f"change:{u.id}",
                "formation",
                {"unit": u.id, "to": to},
                R_FORM,
                f"{u.id} goes on with its change to {to} carried from the last turn"
                f" ({u.formation_quarters} quarter(s) of its move) before it moves (reading K87)",
                blocks=("next", "end_turn"),
            )
        )
    return out


def morale_owed(oid: str, uid: str, rule: str, text: str) -> Obligation:
    """A morale test owed by ``uid`` (its facts filled in from the state)."""
    return Obligation(oid, "morale", {"unit": uid}, rule, text)


def collisions_owed(state: State) -> list[Obligation]:
    """The chits a move's collision owes at once (Kuryakin, Disorder: "Each collision D3 D's
    per unit involved"): one ``disorder cause=collision`` naming the mover, then every unit
    its move ran into (``actions.collisions``; one move is one collision, each unit involved
    rolls once). ``waive`` is the logged way round (the table's bases, say, did not meet)."""
    if not state.collided_ids():  # (most states: none, told by the state's index)
        return []
    faces = state.config.dice.collision
    return [
        Obligation(
            f"collision:{u.id}",
            "disorder",
            {"cause": "collision", "units": [u.id, *u.collided]},
            R_DIS,
            f"{u.id}'s move ran into {', '.join(u.collided)}: D{faces} 'D' chits each",
        )
        for u in state.units
        if u.collided
    ]


def bound_moves(state: State) -> list[Obligation]:
    """The moves results owe (issue 23): a failed morale test's rout or retirement, at once;
    a unit that carries on regardless advances before its card ends."""
    out: list[Obligation] = []
    if not state.bound_ids():  # (most states: none bound, told by the state's index)
        return out
    for u in state.units:
        if u.bound is None or not u.on_table:
            continue
        if u.bound in RESULT_MOVES:
            mode = RESULT_MOVES[u.bound][0]
            if base_move(state, u) <= 0:
                continue  # guns that cannot move: the result stands where they are
            what = {"rout": "flees a full move (rout)", "retire": "retires a full move"}
            text = what.get(u.bound, "retires half a move facing the enemy")
            out.append(
                Obligation(
                    f"result:{u.id}",
                    "move",
                    {"unit": u.id, "mode": mode},
                    R_MORALE,
                    f"{u.id} {text}: its morale result, at once",
                )
            )
        elif u.bound == "volley" and u.charge_target is not None:
            # Kuryakin, Charge Home Test: "A,B or C class infantry who fail will halt and
            # fire a volley" (at the target; owed if the rules let it fire)
            if defensive_fire_lapses(state, u, state.unit(u.charge_target)) is None:
                out.append(
                    Obligation(
                        f"volley:{u.id}",
                        "fire",
                        {"unit": u.id, "target": u.charge_target},
                        R_HOME,
                        f"{u.id} failed to charge home: it halts and fires a volley at"
                        f" {u.charge_target}",
                    )
                )
        elif (
            u.bound == "advance"
            and u.id in state.active_units()
            and not u.acted
            and not u.morale_due
        ):
            left = advance_left(state, u)
            if isinstance(left, str):
                continue  # it cannot move: the advance lapses when its card ends, logged
            ask: dict[str, Any] = {"unit": u.id, "mode": "advance", "distance": left}
            if u.restricted_to:  # a queue jumper advances only toward its charger (Movement)
                ask["toward"] = u.restricted_to
            out.append(
                Obligation(
                    f"advance:{u.id}",
                    "move",
                    ask,
                    "Kuryakin, Moving From A Standstill",
                    f"{u.id} carries on regardless: it advances",
                )
            )
    return out


def advance_left(state: State, u: Unit) -> float | str:
    """What is left of the move of a unit that carries on regardless (mm, rounded down to
    0.1mm), or why it cannot move now (the owed advance then lapses, that reason logged when
    its card ends)."""
    try:
        base = move_base(state, u)
    except VedetteError as e:
        return str(e)
    left = math.floor((base - u.moved_mm) * 10) / 10
    if left <= 0:
        return "its whole move is made"
    try:
        move_allowed(
            state, u, Move(unit=u.id, mode="advance", distance=left, toward=u.restricted_to)
        )
    except VedetteError as e:
        return str(e)
    return left


# -- steps done -----------------------------------------------------------------------------


def after_morale(ch: Changes, uid: str, passed: bool) -> str | None:
    """A morale test was taken: the charge waiting on it goes on. Returns the note for the
    test's message when the charged unit's defensive fire lapses (Kuryakin, Charge Test: the
    attacker "takes any defensive fire": none it cannot give), else None."""
    note: str | None = None
    c = charger_of(ch.state, uid, "morale")
    if c is not None:
        t = ch.state.unit(uid)
        why = f"{uid} has tested morale"
        if t.skirmishing and c.cavalry and t.on_table:
            nxt = "evade"
        elif passed and not t.morale_failed and can_fire(t):
            nxt = "fire"
            lapse = defensive_fire_lapses(ch.state, t, c)
            if lapse is not None:
                nxt = "close"
                why += f"; its defensive fire lapses: {lapse}"
                note = f"{uid}'s defensive fire lapses: {lapse}"
        else:
            nxt = "close"
        set_step(ch, c, why, charge_step=nxt)
    c = ch.state.unit(uid) if ch.state.has_unit(uid) else None
    if c is not None and c.charge_step in ("close", "home") and not passed:
        set_step(
            ch,
            c,
            f"{uid} failed its morale test under defensive fire: the charge is over",
            charge_step=None,
            charge_state="done",
        )
    for c in [x for x in chargers(ch.state) if x.charge_step == "loser"]:
        if uid not in (c.id, c.charge_target) or not ch.state.unit(uid).lost_melee:
            continue
        if not passed:
            set_step(ch, c, f"{uid} broke: the melee ends", melee_rounds=-1)
            c = ch.state.unit(c.id)
        other = c.charge_target if uid == c.id else c.id
        if other is not None and ch.state.has_unit(other):
            o = ch.state.unit(other)
            if o.lost_melee and o.morale_due and o.on_table:
                return note
        continue_melee(ch, c.id)
    return note


def defensive_fire_lapses(state: State, t: Unit, c: Unit) -> str | None:
    """Why the charged unit ``t`` cannot give its defensive fire at ``c`` (it has already fired
    this turn, the charger is outside its arc, a skirmish screen is in the way...), or None.
    The rules decide: the owed fire lapses, with that reason logged (Kuryakin, Charge Test:
    the attacker "takes any defensive fire", i.e. whatever fire the target may give)."""
    try:
        plan(state, Fire(unit=t.id, target=c.id))
    except (BadRequest, RuleViolation) as e:
        return str(e)
    return None


# -- waivers --------------------------------------------------------------------------------
def waive(state: State, oid: str) -> State:
    """Skip an owed step (a logged waiver): the sequence goes on as if the step had been taken
    without effect; waiving a round of melee or the further rounds ends the melee."""
    owed = {o.id for o in obligations(state)}
    if oid not in owed:
        raise BadRequest(
            f"nothing owed is called {oid!r}"
            + (f" (owed: {', '.join(sorted(owed))})" if owed else " (nothing is owed)")
        )
    ch = Changes(state)
    kind, _, rest = oid.partition(":")
    if kind in ("result", "advance", "volley"):
        ch.unit(MoraleHeld, rest, f"owed {kind} move waived", bound=None)
        return ch.state
    if kind == "collision":
        ch.unit(Disordered, rest, "collision's chits waived", collided=())
        return ch.state
    if kind == "rout":
        ch.unit(Moved, rest, "owed rout move waived", move_done=True)
        return ch.state
    if kind == "change":  # (reading K87: the change carried over is dropped)
        why = "carried formation change waived: dropped"
        ch.unit(FormationChanged, rest, why, formation_target=None, formation_quarters=0)
        return ch.state
    if kind == "marker":
        ch.unit(MoraleHeld, rest, "morale marker waived", morale_due=False)
        return ch.state
    cid, _, step = rest.partition(":")
    c = state.unit(cid)
    t = str(c.charge_target)
    if step == "morale":
        ch.unit(MoraleHeld, t, "forced morale test waived", morale_due=False)
        after_morale(ch, t, True)
    elif step.startswith("loser:"):
        x = step.split(":", 1)[1]
        ch.unit(MoraleHeld, x, "loser's morale test waived", morale_due=False)
        after_morale(ch, x, True)
    elif step == "close":
        after_close(ch, cid)
    elif step == "fire":
        after_fire(ch, cid)
    elif step == "home":
        ch.unit(ChargeStep, cid, "charge home test waived", charge_state="home")
        after_home(ch, cid, True)
    elif step in ("melee", "brawl", "evade"):
        ch.unit(
            ChargeStep,
            cid,
            f"{step} waived: the charge ends",
            charge_step=None,
            charge_state="done",
        )
    return ch.state
