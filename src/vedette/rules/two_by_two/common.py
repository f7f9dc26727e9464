"""Helpers shared by the procedures: stated-or-measured facts, modifiers from data, routs."""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from vedette.dice import Check, DiceSource, Modifier, Roll
from vedette.dice.roll import AnyRoll
from vedette.errors import BadRequest, RuleViolation
from vedette.geometry.tabletop import INCH, Vec
from vedette.rules.protocol import DomainEvent
from vedette.rules.two_by_two import facts
from vedette.rules.two_by_two.events import FollowUpClosed, MeleesCleared, unit_event
from vedette.rules.two_by_two.model import R_MELEE, R_SHOOT, R_UNITS, GameState, Unit


def forfeit_follow_up(state: GameState, u: Unit, why: str) -> tuple[list[DomainEvent], list[str]]:
    """A unit beaten in a later melee, routed or destroyed before it made the follow-up it won
    loses it (READING, 2 by 2, Melee: the follow-up exploits a win, and the rules let neither a
    disrupted nor a pinned unit move; a mandatory follow-up so made impossible lapses, logged,
    instead of being owed for ever)."""
    if any(f.unit == u.id for f in state.follow_ups):
        return [FollowUpClosed(u.id)], [f"{u.name}'s follow-up lapses: {why}"]
    return [], []


@dataclass(frozen=True, slots=True)
class Fact:
    """A fact a rule needs: its value and where it came from (``measured`` / ``stated``)."""

    value: Any
    source: str

    def note(self) -> str:
        return "" if self.source == "measured" else f", {self.source}"


def fact_bool(stated: bool | None, measured: bool | None, default: bool = False) -> Fact:
    """The player's statement if given, else the measured fact, else ``default``
    (``assumed``)."""
    if stated is not None:
        return Fact(stated, "stated")
    if measured is not None:
        return Fact(measured, "measured")
    return Fact(default, "assumed")


def hq_levels(state: GameState, u: Unit) -> set[str]:
    """The kinds of HQ (``division``, ``corps``) of ``u``'s side in play, ``u`` aside: on the
    table and entered (an arrived reinforcement not yet on it is off the table)."""
    return {
        t.hq_level
        for h in state.live(u.side)
        if h.id != u.id and not h.entry and (t := state.utype(h)).is_hq and t.hq_level
    }


def cavalry_in_play(state: GameState, side: str) -> bool:
    """Cavalry of ``side`` on the table and entered."""
    return any(not c.entry and state.utype(c).is_cavalry for c in state.live(side))


def hq_contact_fact(
    state: GameState, u: Unit, stated: bool | None, rule: str, field: str = "hq_contact"
) -> Fact:
    """An HQ in base contact with ``u`` (+1 to a shot, a rally, a melee roll): the player's
    word, else measured. A contact stated where ``u``'s side has no other HQ in play is a
    fact the state contradicts: refused, naming ``rule``; so is one that contradicts the
    contact held for ``u`` (reading 54; ``field``: the request's name for it)."""
    if stated and not hq_levels(state, u):
        raise RuleViolation(
            rule, f"{u.name} has no HQ in base contact: no other HQ of its side is in play"
        )
    found = fact_bool(stated, facts.hq_in_contact(state, u))
    if not state.held:  # (tracked play never holds one)
        return found
    give = f"{field}={_word(state, u, 'hq_contact')}"
    return phase_held(state, u, "hq_contact", found, rule, give)


def _word(state: GameState, u: Unit, fact: str) -> str:
    """The held value of ``fact`` for ``u`` as a request field's value."""
    return "true" if state.held_fact(u.id, fact) else "false"


#: the words of each fact held (reading 54), as "X was ruled ... earlier"
HELD_WORDS = {
    "town": "in a town",
    "woods": "in woods/rough",
    "hq_contact": "in base contact with an HQ",
    "in_cover": "in woods/rough or town",
}


def phase_held(state: GameState, u: Unit, fact: str, found: Fact, rule: str, give: str) -> Fact:
    """``found`` (a fact of ``u``'s own ground) against the value held for ``u`` now
    (stated play, reading 54): a stated value that contradicts it is refused, naming ``rule``
    and what to ``give`` instead; one not stated is the held value. ``found`` when none is
    held (tracked play never holds one)."""
    if not state.held:
        return found
    was = state.held_fact(u.id, fact)
    if was is None:
        return found
    if found.source == "stated":
        if found.value != was:
            raise RuleViolation(
                rule,
                f"{u.name} was ruled {'' if was else 'not '}{HELD_WORDS[fact]} earlier, and"
                " stays so until it moves or the melee phase ends (reading 54): give"
                f" {give}, or leave it out",
            )
        return found
    return Fact(was, "held")


def fact_float(stated: float | None, measured: float | None) -> Fact | None:
    if stated is not None:
        return Fact(float(stated), "stated")
    if measured is not None:
        return Fact(measured, "measured")
    return None


_LENGTH = re.compile(r"^\s*\[?\s*([0-9]*\.?[0-9]+)\s*\]?\s*(n|in|inch|inches|\"|mm|cm)?\s*$")


#: a text already read as plain base units [n] (no unit: what it reads does not depend on
#: the rules), its value
_IN_N: dict[str, float] = {}


def to_n(state: GameState, text: str | float, what: str = "distance") -> float:
    """A length typed by the player, in base units [n]: ``3`` or ``[3]`` is [3]; ``2in``,
    ``50mm`` and ``5cm`` are converted ([1] = 3/4 inch, 2 by 2, Scale)."""
    known = _IN_N.get(text) if type(text) is str else None
    if known is not None:
        return known
    m = _LENGTH.match(str(text).lower())
    if m is None or not math.isfinite(float(m.group(1))):  # (400 nines read as inf)
        raise BadRequest(
            f"'{what}' must be a length in base units [n] (e.g. 3), or with its unit"
            f" (2in, 50mm), not {text!r}"
        )
    v = float(m.group(1))
    unit = m.group(2) or "n"
    if unit == "n":
        if type(text) is str and len(_IN_N) < 4096:
            _IN_N[text] = v
        return v
    mm = {"in": INCH, "inch": INCH, "inches": INCH, '"': INCH, "mm": 1.0, "cm": 10.0}[unit] * v
    return state.rules.n(mm)


def opt_n(state: GameState, text: str | None, what: str) -> float | None:
    """``to_n`` of an optional stated length."""
    return None if text is None or text == "" else to_n(state, text, what)


def mod(value: int, reason: str, rule: str) -> Modifier:
    """A modifier whose value is a data entry (``state.rules.rally.elite``)."""
    return Modifier(value, reason, rule)


def point(v: Any, what: str) -> Vec:
    try:
        x, y = v
        return Vec(float(x), float(y))
    except (TypeError, ValueError):
        raise BadRequest(f"'{what}' must be a point [x, y] in mm, not {v!r}") from None


def rout_check(state: GameState, unit: Unit, rule: str) -> Check:
    table = state.rules.tables["rout"]
    return Check(
        table.dice,
        (),
        table,
        f"rout of {unit.name}",
        rule,
    )


def resolve_rout(
    state: GameState,
    unit: Unit,
    cause: Unit | None,
    dice: DiceSource,
    rule: str,
    stated_contagion: Sequence[str] | None = None,
    roll_for_destruction: bool = True,
) -> tuple[list[DomainEvent], list[AnyRoll], list[str]]:
    """A unit routs (2 by 2, Resolving shooting / Melee): 1d6, on 1-2 destroyed, else it moves
    a full move away and is disrupted. Then rout contagion: every friendly ``**`` unit within
    [3] of a routing unit routs too (2 by 2, Unit Summary, **), and so on.

    Returns the events, rolls and sentences.
    """
    events: list[DomainEvent] = []
    rolls: list[AnyRoll] = []
    lines: list[str] = []
    queue: list[tuple[Unit, Unit | None, bool]] = [(unit, cause, roll_for_destruction)]
    done: set[str] = set()
    while queue:
        u, why, roll_it = queue.pop(0)
        if u.id in done:
            continue
        done.add(u.id)
        destroyed = False
        if roll_it:
            r = rout_check(state, u, rule).resolve(dice)
            assert isinstance(r, Roll)
            rolls.append(r)
            destroyed = r.row == "destroyed"
        if destroyed:
            events.append(unit_event("destroyed", u.id, status="destroyed", body=None))
            events.append(MeleesCleared((u.id,)))
            lines.append(f"{u.name} routs and is destroyed")
            ev, ln = forfeit_follow_up(state, u, "it was destroyed")
        else:
            to = facts.rout_destination(state, u, why)
            changes: dict[str, Any] = {"disrupted": True, "routed": True}
            if to is not None:
                changes["body"] = to
            events.append(unit_event("routed", u.id, **changes))
            events.append(MeleesCleared((u.id,)))
            lines.append(f"{u.name} routs a full move away and is disrupted")
            ev, ln = forfeit_follow_up(state, u, "it routed")
        events.extend(ev)
        lines.extend(ln)
        # contagion (**): friendly units within [3] of this rout
        for other in _contagion(state, u, stated_contagion if u.id == unit.id else None):
            if other.id not in done:
                near = state.rules.rout.contagion_radius
                lines.append(f"{other.name} (**) routs: a rout within [{near:g}]")
                queue.append((other, why, True))
    return events, rolls, lines


def check_contagion(state: GameState, stated: Sequence[str] | None, sides: Collection[str]) -> None:
    """A stated ``contagion`` (the ** units within [3] of a rout the action may cause) names
    only units that rout so (2 by 2, Unit Summary: "** rout whenever any rout w/in [3]"): **
    units on the table, of a side whose rout it would be (``sides``: the units that may rout;
    every side when ``[rout] contagion_sides`` counts enemy routs too)."""
    if not stated:
        return
    scope = state.rules.rout.contagion_sides
    for uid in stated:
        o = state.unit(uid)
        if not state.utype(o).rout_contagion:
            raise RuleViolation(
                R_UNITS,
                f"contagion: {o.name} is not a ** unit (Militia, Cossacks): it does not rout"
                f" when a rout is within [{state.rules.rout.contagion_radius:g}]",
            )
        if scope == "friendly" and o.side not in sides:
            raise RuleViolation(
                R_UNITS,
                f"contagion: {o.name} routs only with a friendly unit's rout"
                " (ASSUMPTION: [rout] contagion_sides)",
            )


def _contagion(state: GameState, routing: Unit, stated: Sequence[str] | None) -> list[Unit]:
    radius = state.rules.rout.contagion_radius
    scope = state.rules.rout.contagion_sides
    if stated is not None:  # (a melee's names either side's: each routs with its own side)
        out = [state.unit(s) for s in stated]
        return [
            o
            for o in out
            if o.on_table
            and state.utype(o).rout_contagion
            and (scope != "friendly" or o.side == routing.side)
        ]
    out = []
    near = (
        state.live() if routing.body is None else state.near(routing.body, state.rules.mm(radius))
    )
    for o in near:
        if o.id == routing.id or not state.utype(o).rout_contagion:
            continue
        if scope == "friendly" and o.side != routing.side:
            continue
        d = facts.distance_n(state, routing, o)
        if d is not None and d <= radius + 1e-9:
            out.append(o)
    return out


RULE_SHOOT = R_SHOOT
RULE_MELEE = R_MELEE
