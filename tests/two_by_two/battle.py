"""A 2 by 2 battle for tests, driven through the same ``Game`` API as everyone else (an
in-memory store): ``do(procedure, dice=[faces] or None, **request)``, ``odds``, ``until``.

It replaces the ruleset's former in-memory ``Battle`` engine (issue 13): the refusals, the dice
(physical faces or the game's seeded stream), the fold and the replay are the engine's own.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from vedette.dice import Odds
from vedette.engine import Game, Store
from vedette.engine.session import effective_actions, replay
from vedette.rules.base import Outcome
from vedette.rules.two_by_two import RULESET
from vedette.rules.two_by_two.model import GameState

_names = itertools.count(1)


def stated_walk(steps: int = 150) -> Iterator[tuple[Game, list[Any], random.Random]]:
    """Random stated play of three seeded games (``close`` 3 and 4, ``sample`` 5): at each
    step the game, its ``todo`` and the walk's random stream, before the walk plays a line of
    that ``todo`` (an owed one first), each open field given a random choice."""
    for scenario, seed in (("close", 3), ("close", 4), ("sample", 5)):
        g = Game.create(
            Store(":memory:"),
            "g",
            "two_by_two",
            RULESET.scenario(scenario),
            seed,
            {"play": "stated"},
        )
        rng = random.Random(seed)
        for _ in range(steps):
            todo = g.todo()
            if not todo:
                break
            yield g, todo, rng
            t = rng.choice([t for t in todo if t.owed] or todo)
            g.perform(t.procedure, {**t.request, **{k: rng.choice(cs) for k, cs in t.open.items()}})


class Battle:
    """One battle on an in-memory store: its state and the events so far."""

    def __init__(
        self,
        scenario: Mapping[str, Any],
        options: Mapping[str, Any] | None = None,
        seed: int = 1,
    ) -> None:
        self.scenario = dict(scenario)
        self.options = dict(options or {})
        self.store = Store(":memory:")
        opts = dict(options or {})
        house = opts.pop("house_rules", None)  # a house-rule table, as a file would give it
        self.game = Game.create(
            self.store, f"b{next(_names)}", "two_by_two", dict(scenario), seed, opts, house
        )

    @property
    def state(self) -> GameState:
        return self.game.state  # type: ignore[no-any-return]

    @state.setter
    def state(self, value: GameState) -> None:
        """A test's shortcut to a position (not logged: ``replayed`` will not see it)."""
        self.game.state = value

    @property
    def events(self) -> list[Any]:
        return [
            RULESET.decode(e)
            for a in effective_actions(self.game.records[1:])
            for e in a.payload["events"]
        ]

    @classmethod
    def sample(cls, options: Mapping[str, Any] | None = None, seed: int = 1) -> Battle:
        return cls(RULESET.scenario("sample"), options, seed)

    @classmethod
    def stated(cls, *units: tuple[str, str, str]) -> Battle:
        """A stated game of ``(id, side, type)`` units (no positions), blue moving first."""
        return cls.quick(
            [{"id": i, "side": s, "type": k} for i, s, k in units], options={"play": "stated"}
        )

    def lines(self, proc: str, **req: Any) -> list[Any]:
        """``todo``'s lines of ``proc`` whose request has each of ``req``'s values."""
        return [
            t
            for t in self.todo()
            if t.procedure == proc and all(t.request.get(k) == v for k, v in req.items())
        ]

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
        names: tuple[str, str] = ("Blue", "Red"),
    ) -> Battle:
        """A battle between "blue" (south edge) and "red" (north edge), named ``names``;
        ``p1`` is the side that moves first (the Defender). Units: ``{"id", "side", "type",
        "x", "y", "facing"}`` (facing defaults to 0 for blue, 180 for red)."""
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
                {"id": "blue", "name": names[0], "edge": "south"},
                {"id": "red", "name": names[1], "edge": "north"},
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
            s = self.state
            if s.stage == "battle" and s.phase == kind and s.actor == side:
                return
            self.do("next")
        raise AssertionError(f"no {kind} phase for {side}")

    def do(self, procedure: str, dice: Sequence[int] | None = None, **request: Any) -> Outcome:
        return self.game.perform(procedure, request, faces=list(dice) if dice else None)

    def odds(self, procedure: str, **request: Any) -> list[Odds]:
        return self.game.odds(procedure, request)

    def todo(self) -> list[Any]:
        return self.game.todo()

    def replayed(self) -> GameState:
        """The state folded afresh from the log (must equal ``state``)."""
        return replay(RULESET, self.game.records).state  # type: ignore[no-any-return]
