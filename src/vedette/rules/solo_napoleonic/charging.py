"""The charge sequence's bookkeeping (Kuryakin, Charge Test; Charge Home Test; Melee; Morale;
Movement): what binds a unit, where each open charge stands, the steps done (each moves the
charger's ``charge_step`` on: see flow.py for the steps and what each owes) and the morale tests
the referee calls itself. The topic modules (actions, fire, morale, melee) call these; flow.py,
above them, derives what is owed from the state."""

from __future__ import annotations

from typing import Any

from vedette.errors import RuleViolation
from vedette.rules.solo_napoleonic.common import Changes
from vedette.rules.solo_napoleonic.events import ChargeStep, MoraleMarked
from vedette.rules.solo_napoleonic.model import State, Unit

R_CHARGE = "Kuryakin, Charge Test"


R_HOME = "Kuryakin, Charge Home Test"


R_ROUT = "Kuryakin, Morale (a routing unit only runs; the first two results require rallying)"


# -- status that binds ----------------------------------------------------------------------
def bind_status(u: Unit, action: str, mode: str | None = None) -> None:
    """Routing units only run (and rally); units that must rally only rally (a retiring one
    may carry out its retirement)."""
    if u.status == "routing":
        if action == "move" and mode == "rout":
            return
        raise RuleViolation(
            R_ROUT,
            f"{u.id} is routing: it only runs ('move unit={u.id} mode=rout') or rallies"
            f" ('rally unit={u.id}'), not {action}",
        )
    if u.must_rally:
        if action == "move" and mode in ("retire", "retreat") and u.status == "retiring":
            return
        raise RuleViolation(
            R_ROUT, f"{u.id} must rally first ('rally unit={u.id}'); it cannot {action}"
        )


def bind_charge(u: Unit) -> None:
    """A failed charge or charge home test binds for the turn; one charge a turn."""
    no = charge_refusal(u)
    if no is not None:
        raise no


def charge_refusal(u: Unit) -> RuleViolation | None:
    """What forbids the unit a charge, from its own state (Kuryakin, Charge Test; Charge Home
    Test: a failed test binds for the turn; one charge a turn; "chargers cannot fire", so a
    unit that fired does not charge, :func:`fired_refusal`; Moving From A Standstill: one that
    failed to move off does not advance): the refusal, or None. The charge
    procedure raises it (:func:`bind_charge`); the simulator's quick check asks it."""
    if u.charge_failed:
        return RuleViolation(R_CHARGE, f"{u.id} failed its charge test this turn: that binds")
    if u.home_failed:
        return RuleViolation(R_HOME, f"{u.id} failed its charge home test this turn: that binds")
    if u.charge_state is not None or u.charge_step is not None:
        return RuleViolation(R_CHARGE, f"{u.id} has already charged this turn")
    if u.start_failed:
        # Moving From A Standstill: "A result of '1' means that the unit does not advance"
        # (this turn, as a move is refused): a charge is an advance on the enemy
        return RuleViolation(
            "Kuryakin, Moving From A Standstill",
            f"{u.id} failed to move from a standstill this turn: it does not advance (no charge)",
        )
    return None


def fired_refusal(u: Unit) -> RuleViolation | None:
    """Kuryakin, Charge Test: "chargers cannot fire": a unit that fired this turn does not
    charge (the refusal, or None)."""
    if u.fired:
        return RuleViolation(R_CHARGE, f"{u.id} has fired this turn: chargers cannot fire")
    return None


def failed_morale_refusal(state: State, u: Unit) -> RuleViolation | None:
    """Reading K82 (Movement: a charged unit "if they pass their morale test may act
    accordingly"; Morale: results applied immediately): a unit that has failed a morale test
    this turn does not charge for the rest of it, whatever its result (a unit that fell back
    half a move facing the enemy charged it on the same card). ``[options]
    charge_after_failed_morale = true``: only the result's own binding forbids it."""
    if u.bound == "halt":
        return None  # (its halt's own refusal says why: ``morale.charge``)
    if u.morale_failed and not state.config.options.charge_after_failed_morale:
        return RuleViolation(
            "Kuryakin, Morale",
            f"{u.id} has failed a morale test this turn: no charge (reading K82,"
            " [options] charge_after_failed_morale)",
        )
    return None


def can_fire(u: Unit) -> bool:
    """Can the unit give defensive fire at all (infantry, skirmishers, guns; not routing)?"""
    return (
        u.on_table
        and (u.kind == "infantry" or u.artillery or u.skirmishing)
        and u.status != "routing"
        and not u.must_rally
    )


# -- where the sequence stands --------------------------------------------------------------
def chargers(state: State) -> list[Unit]:
    """The units holding an open charge (from the state's index: no scan of every unit)."""
    ids = state.charging_ids()
    if not ids:
        return []
    out = [state.find(uid) for uid in sorted(ids)]
    return [u for u in out if u is not None and u.charge_step is not None]


def charger_of(state: State, target: str, step: str) -> Unit | None:
    """The charger whose sequence waits on ``target`` at ``step``."""
    for c in chargers(state):
        if c.charge_step == step and c.charge_target == target:
            return c
    return None


def pair_of(state: State, a: str, b: str) -> Unit | None:
    """The unit holding the sequence of the melee between ``a`` and ``b`` (either way)."""
    for uid, other in ((a, b), (b, a)):
        if state.has_unit(uid):
            u = state.unit(uid)
            if u.charge_target == other and (u.charge_step is not None or u.melee_round > 0):
                return u
    return None


# -- steps done -----------------------------------------------------------------------------
def set_step(ch: Changes, c: Unit, why: str, **kw: Any) -> None:
    ch.unit(ChargeStep, c.id, why, **kw)


def continue_melee(ch: Changes, cid: str) -> None:
    c = ch.state.unit(cid)
    if c.melee_rounds < 0:
        set_step(
            ch,
            c,
            "the melee is over",
            charge_step=None,
            charge_state="done",
            melee_rounds=c.melee_round,
        )
    elif c.melee_rounds == 0:
        set_step(ch, c, "the loser held: the melee goes on", charge_step="brawl")
    elif c.melee_round < c.melee_rounds:
        set_step(ch, c, "next round of melee", charge_step="melee")
    else:
        set_step(
            ch, c, "the melee's further rounds are fought", charge_step=None, charge_state="done"
        )


def routed_before_contact(state: State, c: Unit) -> bool:
    """Did the charge's target rout at the charge (its forced test failed with a rout)? Then
    nothing stands to fight: Kuryakin, Charge Test has the attacker move up and test to charge
    home only "should both units morale hold" (or, for cavalry, against infantry that failed
    and stands: Cavalry vs. Infantry); a routing unit only runs (Morale). The charger takes the
    ground and the charge ends without melee (assumption: the text gives no melee with a
    routing unit; pursuit is its own move, ``move mode=pursuit``)."""
    t = c.charge_target
    tu = state.find(t) if t is not None else None
    return tu is not None and tu.status == "routing"


def after_close(ch: Changes, cid: str) -> None:
    c = ch.state.unit(cid)
    if routed_before_contact(ch.state, c):
        set_step(
            ch,
            c,
            f"{c.charge_target} routed before contact: {cid} takes the ground, no melee",
            charge_step=None,
            charge_state="done",
        )
        return
    set_step(ch, c, f"{cid} has moved up to {c.charge_target}", charge_step="home")


def after_fire(ch: Changes, cid: str) -> None:
    set_step(ch, ch.state.unit(cid), "defensive fire taken", charge_step="close")


def after_home(ch: Changes, cid: str, home: bool) -> None:
    c = ch.state.unit(cid)
    if home:
        set_step(ch, c, "charged home: melee", charge_step="melee", melee_round=0, melee_rounds=0)
    else:
        set_step(ch, c, "failed to charge home", charge_step=None, home_failed=True)


def after_melee(ch: Changes, cid: str, losers: list[str]) -> None:
    c = ch.state.unit(cid)
    set_step(ch, c, "a round of melee fought", melee_round=c.melee_round + 1)
    live = [x for x in losers if ch.state.unit(x).on_table]
    if live:
        set_step(ch, ch.state.unit(cid), "the loser checks morale", charge_step="loser")
    else:
        continue_melee(ch, cid)


def after_brawl(ch: Changes, cid: str, rounds: int) -> None:
    c = ch.state.unit(cid)
    set_step(ch, c, f"{rounds} further round(s)", melee_rounds=1 + rounds, charge_step="melee")


def after_evade(ch: Changes, uid: str) -> None:
    c = charger_of(ch.state, uid, "evade")
    if c is not None:
        set_step(ch, c, f"{uid} evaded", charge_step=None, charge_state="done")


# -- morale tests the referee calls itself ----------------------------------------------------
def referee_calls(state: State, reason: str) -> bool:
    """Is ``reason`` on the referee's list ([referee_morale], editable data)?"""
    return state.config.referee_morale.calls(reason)


def call_morale(ch: Changes, uid: str, reason: str, facts: tuple[str, ...] = ()) -> str | None:
    """Queue a morale test for ``uid`` (a marker; owed when its card comes or at once if it has
    acted), with the facts the game knows. Returns a note, or None if not called."""
    if not referee_calls(ch.state, reason) or not ch.state.has_unit(uid):
        return None
    u = ch.state.unit(uid)
    if not u.on_table:
        return None
    kw: dict[str, Any] = {"morale_due": True}
    if facts:
        kw["morale_facts"] = tuple(dict.fromkeys((*u.morale_facts, *facts)))
    ch.unit(MoraleMarked, uid, f"morale test called: {reason}", **kw)
    label = ch.state.config.morale_reasons.get(reason, reason)
    return f"{uid} must test morale ({label})"


def acted(state: State, u: Unit) -> bool:
    card = state.card_of(u.id)
    return u.acted or (card is not None and card.holder in state.done)
