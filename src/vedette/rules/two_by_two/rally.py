"""Rallying (2 by 2, Rallying): 1d6 + modifiers, 5+ removes a disrupted or pinned marker.

Not possible (NP): an enemy in contact; no Division HQ within [4] and no Corps HQ within [8]
(see the ``hq_rule`` assumption). With an enemy within [2]: -2, and (footnote ``*``) only
Guards and units in contact with an HQ may try (the ``enemy_within_rule`` assumption).

Stated facts: ``enemy_contact``, ``enemy_near`` (an enemy within [2]), ``hq_contact``,
``in_command`` (a Division HQ within [4] or the Corps HQ within [8]); ``effect`` chooses which
marker to remove (default: disrupted first).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vedette.dice import Check, DiceSource, Modifier, Roll
from vedette.errors import RuleViolation
from vedette.rules.base import Outcome
from vedette.rules.protocol import Plan
from vedette.rules.two_by_two import facts
from vedette.rules.two_by_two.common import Fact, fact_bool, hq_contact_fact, hq_levels, mod
from vedette.rules.two_by_two.events import unit_event
from vedette.rules.two_by_two.model import (
    R_RALLY,
    GameState,
    Unit,
    require_unit_in_play,
)
from vedette.rules.two_by_two.requests import Rally


def assumed_in_command(state: GameState) -> str:
    """The stated game's default for the HQ distance (2 by 2, Rallying), said on every such
    roll, with the game's ranges."""
    r = state.rules.rally
    return (
        f"ASSUMED in command (a Division HQ within [{r.division_range:g}] or the Corps HQ"
        f" within [{r.corps_range:g}]): state in_command=false if it is not"
    )


@dataclass(frozen=True)
class RallyTry:
    unit: Unit
    check: Check
    effect: str
    facts: dict[str, Any]


def _in_command(state: GameState, u: Unit) -> bool | None:
    sec = state.rules.rally
    rule = sec.hq_rule
    if rule == "off":
        return True
    div, corps = facts.hq_distances(state, u)
    if u.body is None:
        # no positions: not known, unless the side has no HQ in play to be near (none at
        # all; under hq_rule "both", not one of each kind): then not in command
        levels = hq_levels(state, u)
        if not levels or (rule == "both" and levels != {"division", "corps"}):
            return False
        return None
    div_ok = div is not None and div <= sec.division_range + 1e-9
    corps_ok = corps is not None and corps <= sec.corps_range + 1e-9
    return (div_ok and corps_ok) if rule == "both" else (div_ok or corps_ok)


def near_allowed(state: GameState, u: Unit, hq_contact: bool) -> bool:
    """Whether ``u`` may try to rally with an enemy within [2] (2 by 2, Rallying: "-2*",
    "*only Guards and units in contact with HQ"; ASSUMPTION ``[rally] enemy_within_rule``,
    reading 12): Guards, a unit in contact with an HQ, and an HQ rallying itself, which is
    where its HQ is (reading 57; ``"only_guards_or_hq_contact"``: not the HQ itself)."""
    rule = state.rules.rally.enemy_within_rule
    if rule not in ("only_guards_or_hq", "only_guards_or_hq_contact"):
        return True
    t = state.utype(u)
    return t.guards or hq_contact or (t.is_hq and rule == "only_guards_or_hq")


def judge(state: GameState, req: Rally) -> RallyTry:
    u = require_unit_in_play(state, req.unit, "rally")
    t = state.utype(u)
    if not (u.pinned or u.disrupted):
        raise RuleViolation(R_RALLY, f"{u.name} is neither pinned nor disrupted")
    if u.rallied:
        raise RuleViolation(R_RALLY, f"{u.name} has tried to rally this phase (ASSUMPTION: once)")
    effect = req.effect or ("disrupted" if u.disrupted else "pinned")
    if effect == "disrupted" and not u.disrupted:
        raise RuleViolation(R_RALLY, f"{u.name} is not disrupted")
    if effect == "pinned" and not u.pinned:
        raise RuleViolation(R_RALLY, f"{u.name} is not pinned")
    sec = state.rules.rally
    ec = facts.enemies_in_contact(state, u)
    # what the referee knows is never asked: a melee it holds puts an enemy in contact
    held = [m for m in state.melees if u.id in (m.attacker, m.defender)]
    if held:
        m = held[0]
        foe = state.unit(m.defender if m.attacker == u.id else m.attacker)
        raise RuleViolation(
            R_RALLY,
            f"rally not possible: enemy in contact with {u.name} ({foe.name}: the melee"
            " pending between them)",
        )
    contact = fact_bool(req.enemy_contact, None if ec is None else bool(ec))
    if contact.value:
        raise RuleViolation(R_RALLY, f"rally not possible: enemy in contact with {u.name}")
    self_hq = t.is_hq
    known = None if self_hq else _in_command(state, u)
    command: Fact = Fact(True, "HQ self") if self_hq else fact_bool(req.in_command, known, True)
    if u.body is None and known is False and req.in_command is None:
        command = Fact(False, "no HQ in play")  # (stated: nothing to assume it near)
    if not command.value:
        raise RuleViolation(
            R_RALLY,
            f"rally not possible: {u.name} has no Division HQ within"
            f" [{sec.division_range:g}] or Corps HQ within"
            f" [{sec.corps_range:g}]"
            + (": no HQ of its side in play" if command.source == "no HQ in play" else ""),
        )
    hq = hq_contact_fact(state, u, req.hq_contact, R_RALLY)
    near_n = sec.enemy_within
    ew = facts.enemies_within(state, u, near_n)
    near = fact_bool(req.enemy_near, None if ew is None else bool(ew))
    mods: list[Modifier] = []
    if t.elite:
        mods.append(mod(state.rules.rally.elite, "Guards/Grenadiers/Light", R_RALLY))
    if hq.value:
        mods.append(mod(state.rules.rally.hq_contact, f"HQ in base contact{hq.note()}", R_RALLY))
    if t.militia:
        mods.append(mod(state.rules.rally.militia, "Militia", R_RALLY))
    if near.value and not near_allowed(state, u, bool(hq.value)):
        raise RuleViolation(
            R_RALLY,
            f"rally not possible: enemy within [{near_n:g}]; only Guards and units in"
            " contact with an HQ may rally (footnote *"
            + (": an HQ rallies itself only in contact with another)" if self_hq else ")"),
        )
    if near.value:
        mods.append(
            mod(
                state.rules.rally.enemy_within_value,
                f"enemy within [{near_n:g}]{near.note()}",
                R_RALLY,
            )
        )
    if u.disrupted:
        mods.append(mod(state.rules.rally.disrupted, "disrupted", R_RALLY))
    if self_hq:
        mods.append(mod(state.rules.rally.hq_self, "HQ self rally", R_RALLY))
    table = state.rules.tables["rally"]
    check = Check(table.dice, tuple(mods), table, f"rally {u.name} ({effect})", R_RALLY)
    info = {
        "effect": effect,
        "in_command": command.value,
        "hq_contact": hq.value,
        "enemy_within": near.value,
    }
    if command.source == "assumed":
        info["assumed"] = assumed_in_command(state)
    return RallyTry(u, check, effect, info)


def plan_rally(state: GameState, req: Rally) -> Plan:
    tr = judge(state, req)
    return Plan(req, steps=(tr.check,), data=tr)


def rally(state: GameState, plan: Plan, dice: DiceSource) -> Outcome:
    """Try to rally a pinned or disrupted unit (2 by 2, Rallying)."""
    tr: RallyTry = plan.data
    r = tr.check.resolve(dice)
    assert isinstance(r, Roll)
    u = tr.unit
    if r.row == "rallies":
        changes: dict[str, bool] = {"rallied": True, tr.effect: False}
        if tr.effect == "disrupted":
            changes["routed"] = False
        ev = unit_event("rallied", u.id, **changes)
        msg = f"{u.name} rallies: no longer {tr.effect}"
    else:
        ev = unit_event("marker", u.id, rallied=True)
        msg = f"{u.name} fails to rally"
    if "assumed" in tr.facts:
        msg += f" [{tr.facts['assumed']}]"
    return Outcome((ev,), (r,), msg, {"rally": tr.facts}, (tr.check.odds(),))
