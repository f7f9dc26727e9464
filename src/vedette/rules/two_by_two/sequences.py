"""2 by 2 sequences (docs/rules/two_by_two.md, "Sequences").

``attack``: a shot or a melee and everything it sets off: the target's result and every rout
it causes, with rout contagion (Unit Summary **: a ``**`` unit routs whenever a friendly unit
routs within [3], with its own rout roll, and so on). It plays the ruleset's own ``shoot`` or
``melee`` (whose rout resolution applies the contagion rule); the end state names each unit's
result and the set of units that routed, each with its rout roll's result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from vedette.errors import BadRequest
from vedette.referee import procedure, procedure_table
from vedette.rules.base import Outcome
from vedette.rules.fields import arg
from vedette.rules.sequence import Steps, sequence
from vedette.rules.two_by_two.model import GameState, Unit


@procedure("attack", rule="2 by 2, Resolving shooting, Melee, Unit Summary **", query=True)
@dataclass(frozen=True, slots=True)
class AttackRequest:
    """a shot or a melee with every rout it sets off (contagion among ** units within [3]): each
    unit's result and the units that rout"""

    action: Literal["shoot", "melee"] = arg("shoot or melee", positional=True)
    unit: str = arg("the firer (shoot) or the attacker (melee)", positional=True)
    target: str = arg("the target (shoot) or the defender (melee)", positional=True)
    stated: dict[str, Any] | None = arg(
        "the facts stated for the shot or melee, as its own fields:"
        ' {"range": "short", "contagion": ["A3"]}',
        default=None,
    )


def check_attack(state: GameState, r: AttackRequest) -> None:
    for k in ("firer", "target", "attacker", "defender"):
        if k in (r.stated or {}):
            raise BadRequest(f"stated: {k!r} is given by 'unit' and 'target'")


def play_attack(steps: Steps, r: AttackRequest) -> str:
    before = {u.id: u for u in steps.state.units}
    names = {f"rout of {u.name}": u.id for u in steps.state.units}
    if r.action == "shoot":
        req = {"firer": r.unit, "target": r.target, **(r.stated or {})}
    else:
        req = {"attacker": r.unit, "defender": r.target, **(r.stated or {})}
    outcome = steps.step(r.action, req)
    routs = _routs(outcome, names)
    after = {u.id: u for u in steps.state.units}
    main = [r.target] if r.action == "shoot" else [r.unit, r.target]
    fates = [f"{uid} {_fate(before[uid], after[uid], routs.get(uid))}" for uid in main]
    routed = ", ".join(f"{uid} {fate}" for uid, fate in sorted(routs.items())) or "none"
    return f"{'; '.join(fates)} | routed: {routed}"


def _routs(outcome: Outcome, names: dict[str, str]) -> dict[str, str]:
    """Each unit that routed, with its rout roll's result (destroyed / flees)."""
    out = {}
    for roll in outcome.rolls:
        uid = names.get(getattr(roll, "label", ""))
        if uid is not None and getattr(roll, "table", None) is not None:
            out[uid] = str(roll.row)
    return out


def _fate(u: Unit, v: Unit, rout: str | None) -> str:
    if rout is not None:
        return f"routs ({rout})"
    if v.status == "destroyed" and u.status != "destroyed":
        return "destroyed"
    got = [
        word
        for word, was, now in (
            ("disrupted", u.disrupted, v.disrupted),
            ("pinned", u.pinned, v.pinned),
        )
        if now and not was
    ]
    if u.body != v.body:
        got.insert(0, "pushed back")
    return ", ".join(got) or "no effect"


def attack_facets(label: str) -> list[str]:
    """Each unit that routs, and each that is destroyed (by its rout roll or the table)."""
    fates, _, routed = label.partition(" | routed: ")
    out = []
    for part in routed.split(", "):
        if part != "none":
            uid, fate = part.split(" ", 1)
            out.append(f"{uid} routs")
            if fate == "destroyed":
                out.append(f"{uid} destroyed")
    for part in fates.split("; "):
        uid, fate = part.split(" ", 1)
        if fate == "destroyed":
            out.append(f"{uid} destroyed")
    return out


SEQUENCES = procedure_table(
    sequence(AttackRequest, "two_by_two", play_attack, check_attack, attack_facets)
)
