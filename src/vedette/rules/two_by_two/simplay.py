"""How ``vedette simulate`` plays 2 by 2: whose move it is, the lines a policy chooses from,
and the aggressive and cautious policies (docs/simulation.md)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from vedette.rules.simulation import RANDOM, Done, Line, Policy, SimPlay, todo_lines
from vedette.rules.two_by_two.todo import _complete


def _on_table(state: Any, uid: Any) -> bool:
    for u in getattr(state, "units", ()):
        if u.id == uid:
            return getattr(u, "body", None) is not None
    return False


_AGGRESSIVE: Mapping[str, int] = {
    "follow_up": 0,
    "melee": 0,
    "charge": 1,
    "countercharge": 1,
    "shoot": 2,
    "rally": 3,
    "reinforce": 4,
    "place": 4,
    "face": 5,
    "advance": 6,
    "move": 6,
    "next": 9,
}
_CAUTIOUS: Mapping[str, int] = {
    "melee": 0,
    "shoot": 1,
    "face": 2,
    "rally": 3,
    "reinforce": 4,
    "place": 4,
    "next": 9,
}


def _aggressive(name: str, req: dict[str, Any], state: Any, done: Done) -> int | None:
    if name == "follow_up" and req.get("decline"):
        return 8
    return _AGGRESSIVE.get(name)


def _cautious(name: str, req: dict[str, Any], state: Any, done: Done) -> int | None:
    if name == "follow_up":  # only when owed (a mandatory follow-up): decline the optional
        return 5
    if name == "move" and not _on_table(state, req.get("unit")):
        return 4  # a reinforcement entering the table (stated play)
    return _CAUTIOUS.get(name)


AGGRESSIVE = Policy(
    "aggressive",
    "2 by 2: melee and follow up, then charge or counter-charge, shoot, rally, bring on"
    " reinforcements, turn to face, advance; ends the phase only when nothing is left;"
    " never turns on its own or routs voluntarily",
    _aggressive,
)
CAUTIOUS = Policy(
    "cautious",
    "2 by 2: never charges, counter-charges or advances; shoots, turns to face a charger,"
    " rallies, brings reinforcements on, declines optional follow-ups",
    _cautious,
)


class TwoByTwoSim(SimPlay):
    policies: ClassVar[Mapping[str, Policy]] = {
        "random": RANDOM,
        "aggressive": AGGRESSIVE,
        "cautious": CAUTIOUS,
    }

    def acting_side(self, state: Any) -> str:
        return str(state.actor) if state.stage == "battle" else ""

    def lines(self, state: Any, ruleset: Any, rng: random.Random) -> Sequence[Line]:
        """The ``todo`` lines, each completed as ``legal_requests`` completes it (the charges
        a move could make, then its steps; a shot at each enemy; an arrival's places), but
        planned lazily: only until the policy's first accepted request."""
        return [_complete(state, t, rng) for t in todo_lines(state, ruleset)]
