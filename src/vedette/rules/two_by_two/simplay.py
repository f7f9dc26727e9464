"""How ``vedette simulate`` plays 2 by 2: whose move it is, the lines a policy chooses from,
and the aggressive and cautious policies (docs/simulation.md)."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from vedette.rules.protocol import Todo
from vedette.rules.simulation import RANDOM_DRAWN, Done, Line, Policy, SimPlay, todo_lines
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
    reads_done=False,
)
CAUTIOUS = Policy(
    "cautious",
    "2 by 2: never charges, counter-charges or advances; shoots, turns to face a charger,"
    " rallies, brings reinforcements on, declines optional follow-ups",
    _cautious,
    reads_done=False,
)


class TwoByTwoSim(SimPlay):
    policies: ClassVar[Mapping[str, Policy]] = {
        "random": RANDOM_DRAWN,
        "aggressive": AGGRESSIVE,
        "cautious": CAUTIOUS,
    }

    def acting_side(self, state: Any) -> str:
        return str(state.actor) if state.stage == "battle" else ""

    def lines(self, state: Any, ruleset: Any, rng: random.Random) -> Sequence[Line]:
        """The ``todo`` lines, each completed as ``legal_requests`` completes it (the charges
        a move could make, then its steps; a shot at each enemy; an arrival's places), but
        only when read: the random policy draws the lines one at a time and reads only those
        it tries (the others draw nothing and build nothing)."""
        if ruleset.obligations(state):  # the owed lines only (todo_lines)
            return _Lines(state, todo_lines(state, ruleset), rng)
        return _Lines(state, ruleset.offers(state), rng)  # (todo's options, kept: read only)


class _Lines(Sequence[Line]):
    """``todo``'s lines, each completed (its shuffle drawn from ``rng``) when first read."""

    __slots__ = ("_done", "_rng", "_state", "_todo")

    def __init__(self, state: Any, todo: Sequence[Todo], rng: random.Random) -> None:
        self._state, self._todo, self._rng = state, todo, rng
        self._done: dict[int, Line] = {}

    def __len__(self) -> int:
        return len(self._todo)

    def __getitem__(self, i: Any) -> Any:
        line = self._done.get(i)
        if line is None:
            t = self._todo[i]
            refused = _refused(self._state, t)
            line = self._done[i] = () if refused else _complete(self._state, t, self._rng)
        return line

    def __iter__(self) -> Iterator[Line]:
        return (self[i] for i in range(len(self._todo)))


def _refused(state: Any, t: Todo) -> bool:
    """A line whose every candidate the referee refuses, known without judging it: a retire
    of [0] (its move all but spent: "the distance must be more than 0") and a wheel that
    costs more than the unit has left (2 by 2, Movement: a wheel costs the arc its outer
    corner runs). Skipping it is the law (a refused line is skipped) and draws nothing (its
    one candidate draws nothing either)."""
    if t.procedure == "retire":
        return tuple(t.open.get("distance", ())) == ("0",)
    if t.procedure != "wheel" or state.play != "tracked":
        return False
    u = state.unit(t.request["unit"])
    if u.body is None:
        return False
    move, width, n = state.utype(u).move, u.body.footprint.width, state.rules.n
    mv = state.rules.movement
    if u.bridged and mv.bridge_mode == "whole_move":  # its move crossed a bridge: 1/2 rate
        move *= mv.bridge_rate
    return all(
        u.spent + n(width * math.radians(float(a))) > move + 1e-6 for a in t.open.get("angle", ())
    )
