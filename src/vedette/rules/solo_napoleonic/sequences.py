"""Kuryakin sequences (docs/rules/solo_napoleonic.md, "Sequences").

``charge_to_melee``: a charge from its declaration to the end of the first round of melee (Kuryakin,
Charge Test; Charge Home Test; Melee; Morale): the charge test, the target's forced morale test
and its result chart, the target's defensive fire (short range, only if its morale held), the
attacker moving up, the charge home test, the first round of melee with its casualties and the
loser's morale test. It declares the charge with the ruleset's own ``charge``, then takes the
steps the guided charge owes (``Ruleset.obligations``: each owed step of this charge, with its
pre-filled request) in the order the rules owe them, exactly as play from ``todo`` goes: a
collision's chits and the charger's or the target's owed rout or retirement first, then the
charge's own step (a charger that then falls short of its target, reading K88, or meets an
enemy in its way, K89, ends its charge, and is named so). The
end state is read from the units as the state shows them (status, figures), never from the
procedures' events.

``until`` stops it earlier: ``morale`` after the target's morale test, ``home`` after the charge
home test. The percentile tests branch per result and a melee round per casualty count, so
these are exact, and so is a whole cavalry charge; a whole infantry charge (defensive fire and
both sides' casualties) is past the core's limit and sampled, saying so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, Literal

from vedette.errors import BadRequest, RuleViolation
from vedette.referee import procedure, procedure_table
from vedette.rules.fields import arg
from vedette.rules.sequence import Steps, sequence
from vedette.rules.solo_napoleonic import requests as rq
from vedette.rules.solo_napoleonic.model import State

R_CHARGE = "Kuryakin, Charge Test"

#: the most owed steps one charge takes before the first round of melee is over (morale,
#: evade, fire, close, home, melee, two losers' tests: a guard against a flow that loops)
MAX_STEPS = 12

#: the steps after which each ``until`` stops (the charger's ``charge_step`` then)
_UNTIL_DONE = {
    "morale": ("fire", "close"),
    "home": ("melee",),
    "melee": ("brawl",),
}


@procedure(
    "charge_to_melee", rule="Kuryakin, Charge Test; Charge Home Test; Melee; Morale", query=True
)
@dataclass(frozen=True, slots=True)
class ChargeRequest:
    """a charge from declaration to the end of the first round of melee: charge test, the
    target's morale, defensive fire, moving up, charge home, the first melee round and the
    loser's morale; each end state"""

    unit: str = arg("the charging unit", positional=True)
    target: str = arg("the unit charged", positional=True)
    flank_rear: bool = arg(
        "the charge hits the target's flank or rear (stated with the charge)", default=False
    )
    until: Literal["morale", "home", "melee"] = arg(
        "where the sequence stops: after the target's morale test (morale), after the charge"
        " home test (home) or after the first round of melee and the loser's morale (melee)",
        default="melee",
    )


def check_charge(state: Any, r: ChargeRequest) -> None:
    if r.unit == r.target:
        raise BadRequest("target: a unit cannot charge itself")


#: the fields that make a state's value (``State``'s equality: the rules data and the derived
#: indexes are not part of it), those holding mappings apart (read as sorted pairs)
_MAPPINGS = ("options", "control", "chance")
_PLAIN = attrgetter(*(f.name for f in fields(State) if f.compare and f.name not in _MAPPINGS))
_VALUE_OF_MAPPINGS = attrgetter(*_MAPPINGS)


def _frozen(v: Any) -> Any:
    if isinstance(v, Mapping):
        return tuple(sorted((k, _frozen(x)) for k, x in v.items()))
    if isinstance(v, list):
        return tuple(_frozen(x) for x in v)
    return v


def state_value(state: Any) -> tuple[Any, ...]:
    """A state's value as a hashable key: two states have the same key exactly when they are
    equal (``State``'s own equality, its mappings read as sorted pairs). A charge reaches the
    same state by different dice (the same casualties from other faces): the sequence's steps
    after it are then replayed from its step cache (``sequence.StepCache``)."""
    return (_PLAIN(state), *map(_frozen, _VALUE_OF_MAPPINGS(state)))


@dataclass(frozen=True, slots=True)
class _Seen:
    """What the label reads of a unit, from the state's public view of it."""

    status: str
    figures: int
    on_table: bool
    morale_failed: bool
    disorder: int


def _view(state: Any, uid: str) -> _Seen:
    u = state.unit(uid)
    return _Seen(
        str(u.status), int(u.figures), bool(u.on_table), bool(u.morale_failed), int(u.disorder)
    )


def _seen(steps: Steps, uid: str) -> _Seen:
    """``_view`` of the current state (kept per state while a sequence caches its steps)."""
    seen: _Seen = steps.per_state(uid, lambda s: _view(s, uid))
    return seen


def _both(steps: Steps, c: str, t: str) -> dict[str, _Seen]:
    """``_seen`` of the charger and the target, by id (kept per state as one entry)."""
    both: dict[str, _Seen] = steps.per_state(f"{c}|{t}", lambda s: {c: _view(s, c), t: _view(s, t)})
    return both


def _failed(before: _Seen, after: _Seen) -> bool:
    """Did the morale test just taken fail (a failure binds for the turn and the chart's result
    changes the unit; a unit that had failed already and passes is left as it was)?"""
    return after.morale_failed and (not before.morale_failed or before != after)


def _owed(steps: Steps, cid: str) -> Any:
    """The first step this charge owes now (its obligations' ids begin ``charge:<charger>:``)."""
    for o in steps.obligations():
        if o.id.startswith(f"charge:{cid}:"):
            return o
    return None


def _blocking_test(steps: Steps, units: tuple[str, ...]) -> tuple[str | None, str]:
    """The first of ``units`` that owes a morale test for another reason than the charge,
    and the reason in words (from the obligation's text)."""
    for o in steps.obligations():
        x = o.request.get("unit")
        if o.procedure == "morale" and x in units and not o.id.startswith("charge:"):
            lost = any(w in o.text for w in ("loss", "lost", "casualt"))
            return str(x), "for its losses" if lost else f"({o.text})"
    return None, ""


def _fate(after: _Seen) -> str:
    """A failed morale test in words, from the status it left."""
    if not after.on_table:
        return "leaves the table"
    return {"routing": "routs", "retiring": "retires in disorder"}.get(
        after.status, "fails morale and halts"
    )


def _lost(before: _Seen, after: _Seen) -> int:
    return before.figures - after.figures


def _figures(n: int) -> str:
    return f"{n} figure{'' if n == 1 else 's'}"


def play_charge(steps: Steps, r: ChargeRequest) -> str:
    """The charge's steps in order. A sequence has odds only: asked in any phase (issue 24),
    its charge is played as if the charger's card were up (``requests.ANY_CARD``); every other
    rule (one action a turn, morale owed first, a unit off the table) still refuses."""
    token = rq.ANY_CARD.set(True)
    try:
        return _play_charge(steps, r)
    finally:
        rq.ANY_CARD.reset(token)


def _play_charge(steps: Steps, r: ChargeRequest) -> str:
    c, t = r.unit, r.target
    declare: dict[str, Any] = {"unit": c, "target": t}
    if r.flank_rear:
        declare["flank_rear"] = True
    steps.step("charge", declare)
    if steps.state.unit(c).charge_step is None:
        return f"{c} will not charge {t}"
    parts: list[str] = []
    stop = _UNTIL_DONE[r.until]
    first = _FirstOwed(c, t)
    fire_loss = 0
    melee_start: dict[str, _Seen] = {}
    for _ in range(MAX_STEPS):
        cu = steps.state.unit(c)
        if cu.charge_step is None or cu.charge_step in stop:
            break
        hit = next((o for o in steps.obligations() if o.id in first), None)
        if hit is not None and hit.id.startswith("collision:"):
            # a move the charge made ran into another unit: its chits are owed first
            # (Kuryakin, Disorder), rolled here as play from todo rolls them
            steps.step(hit.procedure, hit.request)
            parts.append(f"{hit.request['units'][0]} collides")
            continue
        if hit is not None:
            # a failed test's rout or retirement is owed at once (Kuryakin, Morale), before
            # the charge goes on, as todo lists it: the charger then follows the target as
            # far as its move takes it (reading K88); read only through the state it leaves
            steps.merged(hit.procedure, hit.request, state_value)
            continue
        o = _owed(steps, c)
        if o is None and cu.charge_step not in ("morale", "evade"):
            # a morale test owed first for another reason (the charger's losses to the
            # defensive fire: Kuryakin, Morale, 10% lost to fire) blocks the charge until it
            # is taken, as play from todo takes it: taken here, and named in the label
            x, why = _blocking_test(steps, (c, t))
            if x is None:
                raise RuleViolation(R_CHARGE, f"{c}'s charge waits at {cu.charge_step}")
            before_x = _seen(steps, x)
            steps.step("morale", {"unit": x})
            after_x = _seen(steps, x)
            fate = _fate(after_x) if _failed(before_x, after_x) else "holds"
            parts.append(f"{x} tests morale {why}: {fate}")
            continue
        if o is None and cu.charge_step == "evade":
            # skirmishers evade cavalry in place of the test (reading K65), taken now too
            o_proc, o_fields = "evade", {"unit": t}
        elif o is None:
            # the target tests when its jumped card comes (Kuryakin, Movement); the
            # sequence does not play the cards between: it takes the test now
            o_proc, o_fields = "morale", {"unit": t, "charged_by": c}
        else:
            o_proc, o_fields = o.procedure, o.request
        before = _both(steps, c, t)
        step = cu.charge_step
        if step == "melee":
            melee_start = before
        out = steps.step(o_proc, o_fields)
        after = _both(steps, c, t)
        ended = _ended_short(c, t, out.details)
        if step == "morale":
            if _failed(before[t], after[t]):
                parts.append(f"{t} {_fate(after[t])} before contact")
            else:
                parts.append(f"{t} holds")
        elif step == "evade":
            lost = _lost(before[t], after[t])
            # any caught are ridden down (Melee, Cavalry vs. Infantry; reading K59)
            parts.append(f"{t} evades" + (f", {_figures(lost)} ridden down" if lost else ""))
        elif ended:
            # the move up (or the charge home's move into contact) fell short of a target
            # that retired beyond the charger's move (reading K88), or met an enemy in its
            # way (reading K89): the charge ends there
            parts.append(ended)
        elif step == "close" and steps.state.unit(c).charge_step is None:
            # the target routed at the charge: nothing stands to fight (charging.after_close)
            parts.append(f"{c} takes the ground")
        elif step == "fire":
            fire_loss = _lost(before[c], after[c])
            hit = f"{c} loses {_figures(fire_loss)}" if fire_loss else "no loss"
            parts.append(f"{t}'s fire: {hit}")
        elif step == "home":
            if steps.state.unit(c).charge_step == "melee":
                parts.append("charge goes home")
            elif fire_loss:
                parts.append(f"{c} halted by fire")
            else:
                parts.append(f"{c} fails to charge home")
        elif step == "melee":
            parts.append(_melee_words(c, t, melee_start, after))
        elif step == "loser":
            x = o_fields["unit"]
            parts.append(f"{x} {_fate(after[x])}" if _failed(before[x], after[x]) else f"{x} holds")
    return f"{c} charges {t}: " + "; ".join(parts)


class _FirstOwed:
    """The ids of the steps owed before the charge's own when they concern it: a collision's
    chits (any), the charger's or the target's result move (``flow.bound_moves``)."""

    __slots__ = ("results",)

    def __init__(self, c: str, t: str) -> None:
        self.results = (f"result:{c}", f"result:{t}")

    def __contains__(self, oid: object) -> bool:
        return isinstance(oid, str) and (oid.startswith("collision:") or oid in self.results)


def _ended_short(c: str, t: str, details: Mapping[str, Any]) -> str:
    """The words of a charge that ended short of its target (the step's ``short``, from
    ``morale.out_of_reach`` or ``morale.barred``), else ''."""
    short = details.get("short")
    if short == "K88":
        return f"{t} beyond {c}'s move: the charge ends short"
    if short == "K89":
        return f"{details.get('by')} in {c}'s way: the charge ends short"
    return ""


def _melee_words(
    c: str,
    t: str,
    before: dict[str, _Seen],
    after: dict[str, _Seen],
) -> str:
    lc, lt = _lost(before[c], after[c]), _lost(before[t], after[t])
    if lc == lt:
        return f"melee: drawn, each loses {_figures(lc)}"
    win, lose, ll = (c, t, lt) if lc < lt else (t, c, lc)
    return f"melee: {win} wins, {lose} loses {_figures(ll)}"


def charge_facets(label: str) -> list[str]:
    """The chance of each thing a charge may come to, whichever end state it is part of."""
    head, _, rest = label.partition(": ")
    words = head.split()
    c = words[0]
    if "will not charge" in head:
        return ["no charge (the charge test fails)"]
    t = words[-1]
    parts = rest.split("; ")
    out = ["charge declared"]
    for p in parts:
        if p.startswith(f"{t} ") and p.endswith("before contact"):
            out.append("target fails morale")
            if " routs " in p:
                out.append("target routs")
        elif p == "charge goes home":
            out.append(p)
        elif p.startswith(f"{c} halted by fire") or p.startswith(f"{c} fails to charge home"):
            out.append("charge fails to go home")
        elif p.endswith("the charge ends short"):
            out.append("charge ends short of the target")
        elif p.startswith("melee: "):
            out.append("melee fought")
            if p.startswith(f"melee: {c} wins"):
                out.append("charger wins the first round")
            elif p.startswith(f"melee: {t} wins"):
                out.append("target wins the first round")
        elif p.startswith(f"{t} evades"):
            out.append("skirmishers evade")
            if p.endswith("ridden down"):
                out.append("skirmishers ridden down")
        elif p == f"{t} routs":
            out.append("target routs")
        elif p == f"{c} routs" or (p.startswith(f"{c} tests morale ") and p.endswith(": routs")):
            out.append("charger routs")
    return out


SEQUENCES = procedure_table(
    sequence(
        ChargeRequest,
        "solo_napoleonic",
        play_charge,
        check_charge,
        charge_facets,
        same_state=state_value,
    )
)
