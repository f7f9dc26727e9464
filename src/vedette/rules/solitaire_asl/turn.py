"""The turn: phases of a player turn and the windows in which each kind of shift may be tried.

* O'Leary 2.3: potential dummy stacks shift at the start of their side's MPh or APh, before any
  friendly unit has moved/advanced.
* O'Leary 3.3.2: HIP units, dummy HIP counters (and hidden fortifications, 4.2) at any time in
  their side's PFPh, MPh and APh, and in the enemy's MPh and their own DFPh (which falls in the
  enemy's player turn); 3.3.5 treats those last two as one phase.
* O'Leary 5.1: cloaked units at the start of their MPh, AFPh or APh.
* O'Leary 4.6.4: minefields whenever a unit enters their location, even when shifting is over.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from vedette.dice.tables import Row
from vedette.errors import RuleViolation
from vedette.rules.solitaire_asl.config import Config
from vedette.rules.solitaire_asl.model import PHASES, SETUP, Op, State

#: set while a query (``--odds``, ``chances``) is judged: the odds of a shift are shown in any
#: phase, as if its window were open now (issue 24: queries in every phase); the action itself
#: still waits for its window.
QUERY: ContextVar[bool] = ContextVar("asl_query", default=False)


@contextmanager
def querying() -> Iterator[None]:
    """Judge what runs inside as a query (:data:`QUERY`): the planner (``plan``) and the
    ``shifts`` sequence are queries only, asked in any phase like ``chances shift`` (issue
    24); each shift they plan is judged as if its window were open."""
    token = QUERY.set(True)
    try:
        yield
    finally:
        QUERY.reset(token)


def phase_key(state: State) -> str:
    """The key of the current phase (for the +1 per previous shift, O'Leary 2.5)."""
    return f"{state.player_turn}:{state.phase}"


@dataclass(frozen=True, slots=True)
class Effects:
    """What a row of the shift table does to the board (O'Leary 2.5): its columns, declared and
    typed in data/rules.toml (``[tables.shift.columns]``, where each is described), read once."""

    allowed: bool
    counted: bool
    closes: bool
    potential_lost: bool = False
    dummy_lost: bool = False
    hip_lost: bool = False
    concealment_lost: bool = False
    cloak_lost: bool = False
    ti: bool = False

    @classmethod
    def of(cls, row: Row) -> Effects:
        return cls(
            row.allowed,
            row.counted,
            row.closes,
            row.potential_lost,
            row.dummy_lost,
            row.hip_lost,
            row.concealment_lost,
            row.cloak_lost,
            row.ti,
        )


@dataclass(frozen=True, slots=True)
class Window:
    """Where a side stands for one shifting operation right now."""

    open: bool
    key: str  # the closure key: the phase, or the enemy MPh + own DFPh merged (3.3.5)
    rule: str
    problem: str = ""


def window(state: State, side: str, op: Op) -> Window:
    """May ``side`` try a shift of kind ``op`` now? (Closure is checked separately.)"""
    pk = phase_key(state)
    ph = state.phase
    phasing = side == state.phasing
    if ph == SETUP:
        return Window(False, pk, "O'Leary 2.3", "no shifting during set-up")
    if op == Op.MINEFIELD:
        return Window(True, pk, "O'Leary 4.6.4")
    if op == Op.DUMMY:
        if not phasing or ph not in ("MPh", "APh"):
            return Window(
                False,
                pk,
                "O'Leary 2.3",
                f"{side} may shift dummy stacks only at the start of its own MPh or APh",
            )
        if state.acted:
            return Window(
                False, pk, "O'Leary 2.3", f"a friendly unit has already moved/advanced this {ph}"
            )
        return Window(True, pk, "O'Leary 2.3")
    if op == Op.CLOAKED:
        if not state.night:
            return Window(False, pk, "O'Leary 5", "cloaking exists only in night scenarios")
        if not phasing or ph not in ("MPh", "AFPh", "APh"):
            return Window(
                False,
                pk,
                "O'Leary 5.1",
                f"{side} may shift cloaked units only at the start of its own MPh, AFPh or APh",
            )
        # "that unit's MPh ... that side's AFPh ... that unit's APh" (reading A37): with
        # cloaked_start "unit" the MPh/APh start is each stack's own (shift._pair checks it)
        own = ph != "AFPh" and state.config.flow.cloaked_start == "unit"
        if state.acted and not own:
            return Window(
                False, pk, "O'Leary 5.1", f"this {ph} has already begun (a friendly unit acted)"
            )
        return Window(True, pk, "O'Leary 5.1")
    # HIP (3.3.2)
    if phasing and ph in ("PFPh", "MPh", "APh"):
        return Window(True, pk, "O'Leary 3.3.2")
    if not phasing and ph in ("MPh", "DFPh"):
        return Window(True, f"{state.player_turn}:MPh+DFPh", "O'Leary 3.3.5")
    return Window(
        False,
        pk,
        "O'Leary 3.3.2",
        f"{side} may shift HIP units only in its PFPh, MPh, APh, the enemy MPh and its DFPh",
    )


def bookkeeping(op: Op, config: Config) -> str:
    """The group whose shifts share the +1 count and the closure of a phase: by default each
    operation is its own (3.3.4); ``[operations]`` in the data may merge them (e.g. cloaked =
    "dummy")."""
    return config.operations.get(op.value, op.value)


def require_window(state: State, side: str, op: Op, group: str | None = None) -> Window:
    """The open window, or a RuleViolation naming the rule (timing, or shifting closed).
    ``group``: the bookkeeping group of ``op`` (:func:`bookkeeping`)."""
    w = window(state, side, op)
    if QUERY.get():
        # a query opens the timing (issue 24) but not a closed phase: after an 8+ "no other
        # units may attempt to shift this phase" (2.5), so no DR is left to give odds of
        # (chances shift, --odds, plan and chances shifts all answer alike)
        w = Window(True, w.key, w.rule)
    if not w.open:
        raise RuleViolation(w.rule, w.problem)
    if op != Op.MINEFIELD and state.is_closed(side, group or op.value, w.key):
        rule = "O'Leary 3.3.5" if w.key.endswith("MPh+DFPh") else "O'Leary 2.5"
        what = {Op.DUMMY: "dummy stacks", Op.HIP: "HIP units", Op.CLOAKED: "cloaked units"}[op]
        raise RuleViolation(
            rule, f"{side} may shift no more {what} this phase (a shift DR of 8 or more closed it)"
        )
    return w


def next_phase(state: State) -> tuple[str, str, int, bool]:
    """(phase, phasing side, player turn, new player turn?) after the current phase."""
    if state.phase == SETUP:
        return PHASES[0], state.first, 1, True
    i = PHASES.index(state.phase)
    if i + 1 < len(PHASES):
        return PHASES[i + 1], state.phasing, state.player_turn, False
    return PHASES[0], state.enemy(state.phasing), state.player_turn + 1, True


def game_turn(state: State) -> int:
    return (state.player_turn + 1) // 2


def phase_title(state: State) -> str:
    """The phase with its side and player turn: 'German MPh (player turn 2, second of game
    turn 1)'."""
    if state.phase == SETUP:
        return "set-up"
    order = "first" if state.player_turn % 2 == 1 else "second"
    return (
        f"{state.phasing} {state.phase} (player turn {state.player_turn}, {order} of game turn"
        f" {game_turn(state)})"
    )
