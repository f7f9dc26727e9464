"""The sequence of play (2 by 2, Game Setup; Sequence of play), declared (``FLOW``: each phase
and the actions it allows), the name of the phase a game is in, and who may act in it. (What
the rules owe and offer now is todo.py.)

The declared flow (``TwoByTwo.flow``) refuses an action out of its phase; :func:`acting` then
refuses an action by the side that does not act now (Player 2 shoots in Player 1's half-turn;
only a charged unit fires in its enemy's move phase). Both are checks of an *action*: the odds
of a shot or a melee, ``check_melee`` and ``chances`` are queries and skip them, so a player
may weigh a charge before making it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vedette.errors import RuleViolation
from vedette.rules.protocol import Flow, Phase
from vedette.rules.two_by_two.model import (
    R_MELEE,
    R_REINF,
    R_SEQ,
    R_SETUP,
    GameState,
)

BATTLE_PHASES = {
    "move": "move phase",
    "rally": "rally phase",
    "shoot": "shooting phase",
    "melee": "melee phase",
}


def current_phase(state: GameState) -> str:
    """The flow's phase of ``state`` (see ``TwoByTwo.flow``)."""
    if state.stage == "over":
        return "game over"
    if state.stage == "setup":
        step = state.setup_step
        if step == "roll":
            return "set-up roll"
        if step.startswith("deploy"):
            return "deployment"
        return "choice of reinforcement points"
    return BATTLE_PHASES[state.phase]


def _not_yours(state: GameState, side: str, what: str, rule: str = R_SEQ) -> RuleViolation:
    return RuleViolation(
        rule,
        f"{what}: {state.side(side).name} may not do this now ({state.phase_name()})",
    )


def _get(request: Any, key: str) -> Any:
    return request.get(key) if isinstance(request, Mapping) else getattr(request, key, None)


def acting(state: GameState, procedure: str, request: Any) -> None:
    """Refuse an action (never a query) by a side that does not act in this phase, before
    ``plan`` measures anything (the flow has refused the wrong phase already)."""
    if state.stage != "battle":
        return
    units = {u.id: u for u in state.units}
    if procedure == "shoot":
        firer, target = units.get(str(_get(request, "firer"))), _get(request, "target")
        if firer is None:
            return
        if state.phase == "shoot" and firer.side != state.actor:
            raise _not_yours(state, firer.side, "shoot")
        if state.phase == "move":
            charged = any(m.attacker == target and m.defender == firer.id for m in state.melees)
            if firer.side == state.phasing or not charged:
                raise RuleViolation(
                    R_SEQ,
                    f"shoot: {firer.name} may not shoot now ({state.phase_name()}): in a move"
                    " phase only a charged infantry unit fires, on its charger (2 by 2, Moving"
                    " to contact)",
                )
    elif procedure == "rally":
        u = units.get(str(_get(request, "unit")))
        if u is not None and u.side != state.actor:
            raise _not_yours(state, u.side, "rally")
    elif procedure == "reinforce":
        rp = next((r for r in state.rps if r.id == _get(request, "rp")), None)
        if rp is not None and rp.side != state.actor:
            raise _not_yours(state, rp.side, "roll for reinforcements", R_REINF)


def acting_after(state: GameState, procedure: str, plan: Any) -> None:
    """The checks that need ``plan``'s measure: a melee not started by a charge needs the
    two in contact, and is the phasing side's (2 by 2, Melee)."""
    if procedure == "melee" and state.stage == "battle" and plan.data.pending is None:
        a, d = plan.data.attacker, plan.data.defender
        if plan.data.as_if_contact:
            raise RuleViolation(R_MELEE, f"{a.name} and {d.name} are not in contact")
        if a.side != state.phasing:
            raise RuleViolation(R_MELEE, "a melee not started by a charge is the phasing side's")


#: the sequence of play (2 by 2, Game Setup; Sequence of play) as data: each phase and
#: the actions it allows (queries -- check_move, check_melee, odds, chances -- are never
#: phase-bound); ``place`` is a correction, open in every phase and logged as one
FLOW = Flow(
    phases=(
        Phase.of("set-up roll", ["setup_roll"], R_SETUP, "the roll decides the Attacker"),
        Phase.of(
            "deployment",
            ["deploy", "next", "next_phase"],
            R_SETUP,
            "each side ends its deployment with next",
        ),
        Phase.of("choice of reinforcement points", ["rp"], R_SETUP, "the fourth RP is picked"),
        Phase.of(
            "move phase",
            [
                "move",
                "advance",
                "retire",
                "wheel",
                "turn",
                "charge",
                "formation",
                "face",
                "shoot",
                "reinforce",
                "rout",
                "next",
                "next_phase",
            ],
            R_SEQ,
            "next",
        ),
        Phase.of("rally phase", ["rally", "rout", "next", "next_phase"], R_SEQ, "next"),
        Phase.of(
            "shooting phase",
            ["shoot", "countercharge", "rout", "next", "next_phase"],
            R_SEQ,
            "next",
        ),
        Phase.of(
            "melee phase",
            ["melee", "follow_up", "rout", "next", "next_phase"],
            R_SEQ,
            "next, once every melee and mandatory follow-up is done",
        ),
        Phase.of("game over", [], R_SEQ),
    ),
    always=frozenset({"place"}),
)
