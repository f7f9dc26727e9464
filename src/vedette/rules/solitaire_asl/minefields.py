"""Minefields (O'Leary 4.6): when a unit enters a location whose minefield strength is not yet
revealed, its owner may try to exchange that minefield with another unrevealed one of the same
kind. The shift DR takes the usual DRMs; a final DR of 8 or more only refuses that exchange
(4.6.3); it may be made even when shifting is over for the phase (4.6.4). Both strengths are
revealed whatever the DR (4.6.2)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from vedette.dice import Check, DiceSource, Roll, Table
from vedette.errors import BadRequest, RuleViolation
from vedette.rules.base import Outcome
from vedette.rules.solitaire_asl.config import Config
from vedette.rules.solitaire_asl.events import BoardChanges
from vedette.rules.solitaire_asl.model import Minefield, Op, State
from vedette.rules.solitaire_asl.requests import MinefieldRequest
from vedette.rules.solitaire_asl.shift import Party, assumed_facts, shift_modifiers
from vedette.rules.solitaire_asl.turn import bookkeeping, phase_key, require_window

RULE = "O'Leary 4.6.2"


@dataclass(frozen=True)
class MinefieldPlan:
    entered: Minefield
    other: Minefield
    check: Check
    table: Table


def _mine(state: State, ref: str, what: str) -> Minefield:
    m = state.minefield(ref)
    if m is not None:
        return m
    found = [x for x in state.minefields if x.location == ref and not x.revealed]
    if len(found) == 1:
        return found[0]
    if not found:
        raise BadRequest(f"{what}: no unrevealed minefield {ref!r} (by id or location)")
    raise BadRequest(f"{what}: several minefields in {ref}: name one by id")


def plan_minefield(
    state: State, req: MinefieldRequest, config: Config, tables: Mapping[str, Table]
) -> MinefieldPlan:
    e = _mine(state, req.entered, "entered")
    o = _mine(state, req.other, "other")
    if e.id == o.id:
        raise BadRequest("a minefield cannot exchange with itself")
    for m in (e, o):
        if m.revealed:
            raise RuleViolation("O'Leary 4.6.2", f"minefield {m.id} has already been revealed")
    if e.side != o.side:
        raise RuleViolation("O'Leary 4.6.2", "minefields of different sides do not exchange")
    if config.minefield.same_kind_only and e.known != o.known:
        raise RuleViolation(
            "O'Leary 4.6.5", "hidden minefields exchange only with hidden ones, known with known"
        )
    require_window(state, e.side, Op.MINEFIELD)
    seen = next((d for d in state.dummy_entered if d[0] == e.location), None)
    if seen is not None and not config.minefield.dummies_enter:
        # 4.6.2 "whenever any unit enters": the latest entry seen there, in this phase or an
        # earlier one, was by concealment counters alone, no unit: it opens no exchange; todo
        # offers none either (reading A35). A location nobody was seen entering is the
        # player's to state (a unit moved on the table only).
        where, who, when = seen
        raise RuleViolation(
            "O'Leary 4.6.2",
            f"the last entry into {where} was by dummy stacks alone ({who}, {when}): a dummy"
            " stack is no unit and opens no minefield exchange (reading A35; house rule"
            " [minefield] dummies_enter); record a unit's entry since with 'move'",
        )
    # reading A8: the entered location counts as in enemy LOS because the entering enemy unit
    # is there; when only units of the minefield's own side are there, the one that entered is
    # no enemy, and the location's stated LOS holds
    there = {x.side for x in state.stacks if x.location == e.location and x.counters}
    default_los = config.minefield.entered_location_in_los and there != {e.side}
    mods = shift_modifiers(
        state,
        config,
        Op.MINEFIELD,
        e.side,
        Party(e.location),
        Party(o.location),
        req,
        los_default=(True if default_los else None, None),  # else the stated LOS (A8)
        both_hip=not e.known and not o.known,
    )
    table = tables["minefield_shift"]
    label = f"minefield shift {e.id} ({e.location}) <-> {o.id} ({o.location})"
    label += assumed_facts(
        state, [(e.location, o.location)], req, (e.location,) if default_los else ()
    )
    return MinefieldPlan(e, o, Check(table.dice, tuple(mods), table, label, RULE), table)


def run_minefield(state: State, plan: MinefieldPlan, dice: DiceSource, config: Config) -> Outcome:
    roll = plan.check.resolve(dice)
    assert isinstance(roll, Roll)
    row = plan.table.lookup(roll.final)
    p = BoardChanges()
    changes = []
    e, o = plan.entered, plan.other
    if row.counted:
        p.count(e.side, phase_key(state), bookkeeping(Op.MINEFIELD, config))
    mover = state.enemy(e.side)
    ends = config.flow.minefield_entry_ends_start
    if ends and mover == state.phasing and state.phase in ("MPh", "APh") and not state.acted:
        # a unit of the phasing side has moved/advanced: the start of the phase is over (2.3)
        p.set("acted", True)
    if row.allowed:
        ne = replace(e, location=o.location, revealed=True)
        no = replace(o, location=e.location, revealed=True)
        changes.append(f"swap minefield counters {e.id} ({e.location}) and {o.id} ({o.location})")
    else:
        ne, no = replace(e, revealed=True), replace(o, revealed=True)
    remove_dummy = config.minefield.remove_revealed_dummy
    for m in (ne, no):
        if m.dummy and remove_dummy:
            p.remove_mine(m.id)
            changes.append(f"{m.id} in {m.location} was a dummy minefield: remove it")
        else:
            p.put_mine(m)
            changes.append(f"turn {m.id} in {m.location} face up: {m.strength}")
    now = no if row.allowed else e
    changes.append(
        f"the entering unit in {e.location} meets {now.strength} (resolve it per ASL B28)"
    )
    msg = f"{row.result}. On the board: " + "; ".join(changes) + "."
    details = {
        "final": roll.final,
        "row": row.key,
        "modifiers": [m.to_json() for m in roll.modifiers],
        "changes": changes,
        "revealed": {ne.id: ne.strength, no.id: no.strength},
    }
    return Outcome(
        (p.event("minefield_shift", row=row.key, final=roll.final),),
        (roll,),
        msg,
        details,
        result=row.key,
    )
