"""The sequence of play as the flow reads it (2 by 2, Game Setup; Sequence of play): the name
of the phase a game is in, and who may act in it.

The declared flow (``TwoByTwo.flow``) refuses an action out of its phase; :func:`acting` then
refuses an action by the side that does not act now (Player 2 shoots in Player 1's half-turn;
only a charged unit fires in its enemy's move phase). Both are checks of an *action*: the odds
of a shot or a melee, ``check_melee`` and ``chances`` are queries and skip them, so a player
may weigh a charge before making it.
"""

from __future__ import annotations

from typing import Any

from vedette.errors import RuleViolation
from vedette.rules.two_by_two.model import (
    R_CONTACT,
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


def acting(state: GameState, procedure: str, plan: Any) -> None:
    """Refuse an action (never a query) by a side that does not act in this phase."""
    if state.stage != "battle":
        if procedure in ("setup_roll", "deploy", "rp") and state.stage == "over":
            raise RuleViolation(R_SETUP, "the game is over")
        return
    data = plan.data
    if procedure == "shoot":
        if state.phase == "shoot" and data.firer.side != state.actor:
            raise _not_yours(state, data.firer.side, "shoot")
        if state.phase == "move" and not data.reaction:
            raise RuleViolation(
                R_CONTACT,
                f"shoot: in the enemy's move phase only a charged infantry unit fires, on its"
                f" charger ({data.firer.name} is not charged by {data.target.name})",
            )
    elif procedure == "rally" and data.unit.side != state.actor:
        raise _not_yours(state, data.unit.side, "rally")
    elif procedure == "reinforce" and data[0].side != state.actor:
        raise _not_yours(state, data[0].side, "roll for reinforcements", R_REINF)
    elif procedure == "melee" and data.pending is None:
        a, d = data.attacker, data.defender
        if data.as_if_contact:
            raise RuleViolation(R_MELEE, f"{a.name} and {d.name} are not in contact")
        if a.side != state.phasing:
            raise RuleViolation(R_MELEE, "a melee not started by a charge is the phasing side's")
