"""How ``vedette simulate`` plays Napoleon At Bay (docs/simulation.md).

The random policy's law is the one ``legal_requests`` gives (issue 29): owed fixings first; in
the combat phase its end; in the movement phase one line per unmoved one-hex force of the
phasing side (up to :data:`~vedette.rules.napoleon_at_bay.reach.MOVE_TRIES` hexes 1 to 3
away, in a random order, the first the rules accept played) and the end of the phase, each line
equally likely, a line none of whose moves is accepted skipped. ``legal_requests`` plans every
force's moves to list the lines; here the lines are drawn one at a time and a force's moves are
shuffled and judged only when its line is drawn (the same law, other games for a seed)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, ClassVar

from vedette.rules.napoleon_at_bay.reach import move_tries
from vedette.rules.simulation import RANDOM_DRAWN, LazyLine, Line, Policy, SimPlay


class NabSim(SimPlay):
    policies: ClassVar[Mapping[str, Policy]] = {"random": RANDOM_DRAWN}

    def lines(self, state: Any, ruleset: Any, rng: random.Random) -> Sequence[Line]:
        """The lines of ``legal_requests``, a force's moves built (and shuffled) when its line
        is first read. No cap on the number of forces: ``legal_requests`` stops at 40 movable
        forces, more than a side of the shipped scenarios has."""
        if state.owed:
            return [[(o.procedure, dict(o.request))] for o in state.owed]
        if state.phase == "combat":
            return [[("end_combat", {})]]
        lines: list[Line] = [
            LazyLine(partial(move_tries, state, p, rng))
            for p in state.pieces.values()
            if p.side == state.phasing and p.id not in state.moved and len(p.hexes) == 1
        ]
        lines.append([("end_movement", {})])
        return lines
