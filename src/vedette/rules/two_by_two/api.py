"""A small in-memory Python API: play a 2 by 2 battle without a database.

>>> from vedette.rules.two_by_two.api import Battle
>>> b = Battle.sample()
>>> b.state.phase
'move'

``Battle.do(procedure, dice=[faces] or None, **request)`` runs a procedure exactly as the engine
does (scripted faces, or a seeded stream), folds its events and keeps them in ``events``;
``Battle.odds(procedure, **request)`` gives the exact odds first. The engine (``vedette.engine``)
is the durable version of the same thing, with the SQLite log, undo and replay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from vedette.dice import Odds, ScriptedSource, SeededSource
from vedette.rules.base import Event, Outcome, Request
from vedette.rules.two_by_two.model import GameState
from vedette.rules.two_by_two.ruleset import RULESET


class Battle:
    """One battle in memory: its state and the events so far."""

    def __init__(
        self,
        scenario: Mapping[str, Any],
        options: Mapping[str, Any] | None = None,
        seed: int = 1,
    ) -> None:
        self.scenario = dict(scenario)
        self.options = dict(options or {})
        self.state: GameState = RULESET.initial_state(self.scenario, self.options)
        self.events: list[Event] = []
        self.stream = SeededSource(seed)

    @classmethod
    def sample(cls, options: Mapping[str, Any] | None = None, seed: int = 1) -> Battle:
        return cls(RULESET.scenario("sample"), options, seed)

    @classmethod
    def quick(
        cls,
        units: Sequence[Mapping[str, Any]],
        terrain: Sequence[Mapping[str, Any]] = (),
        p1: str = "blue",
        rps: Sequence[Mapping[str, Any]] = (),
        victory: Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
        start: str = "battle",
        size: tuple[float, float] = (609.6, 609.6),
    ) -> Battle:
        """A battle between "blue" (south edge) and "red" (north edge); ``p1`` is the side
        that moves first (the Defender). Units: ``{"id", "side", "type", "x", "y", "facing"}``
        (facing defaults to 0 for blue, 180 for red)."""
        us = []
        for u in units:
            d = dict(u)
            if "x" in d and "facing" not in d:
                d["facing"] = 0.0 if d["side"] == "blue" else 180.0
            us.append(d)
        scn: dict[str, Any] = {
            "title": "quick battle",
            "start": start,
            "attacker": "red" if p1 == "blue" else "blue",
            "table": {"width": size[0], "depth": size[1]},
            "sides": [
                {"id": "blue", "name": "Blue", "edge": "south"},
                {"id": "red", "name": "Red", "edge": "north"},
            ],
            "units": us,
            "terrain": [dict(t) for t in terrain],
            "rps": [dict(r) for r in rps],
        }
        if victory is not None:
            scn["victory"] = dict(victory)
        return cls(scn, options)

    def until(self, kind: str, side: str) -> None:
        """Advance phases until ``side`` acts in a ``kind`` phase."""
        for _ in range(17):
            if (
                self.state.stage == "battle"
                and self.state.phase == kind
                and self.state.actor == side
            ):
                return
            self.do("next")
        raise AssertionError(f"no {kind} phase for {side}")

    def do(self, procedure: str, dice: Sequence[int] | None = None, **request: Any) -> Outcome:
        proc = RULESET.procedures[procedure]
        if dice is not None:
            src = ScriptedSource(dice)
            out = proc.run(self.state, Request(request), src)
            src.check_all_used()
        else:
            out = proc.run(self.state, Request(request), self.stream)
        if not proc.query:
            state = self.state
            for e in out.events:
                state = RULESET.apply(state, e)
            self.state = state
            self.events.extend(out.events)
        return out  # type: ignore[no-any-return]

    def odds(self, procedure: str, **request: Any) -> list[Odds]:
        proc = RULESET.procedures[procedure]
        return [] if proc.odds is None else list(proc.odds(self.state, Request(request)))

    def replayed(self) -> GameState:
        """The state folded afresh from the scenario and the events (must equal ``state``)."""
        state = RULESET.initial_state(self.scenario, self.options)
        for e in self.events:
            state = RULESET.apply(state, e)
        return state
