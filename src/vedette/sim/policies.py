"""Who plays the simulated battles: documented policies over the rulesets' ``legal_requests``,
and per ruleset an adapter saying whose move it is, the turn, and when the battle is over.

Every policy takes what is owed first (``todo``'s order: obligations first, always): when the
state owes a step, only the candidates that discharge an obligation are considered. A policy
only *orders* the candidates; the engine's checks still refuse what the rules forbid, and the
next candidate is tried. Plain-words descriptions are in ``docs/simulation.md``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from vedette.errors import BadRequest

Candidate = tuple[str, dict[str, Any]]


# -- adapters: sides, turn, the end of a battle ---------------------------------------------
class Adapter:
    """A ruleset seen by the simulator. The default knows no sides and no end: a battle runs
    to the action limit and is counted 'unfinished' (Napoleon At Bay, Solitaire ASL)."""

    policies: tuple[str, ...] = ("random",)
    end_condition = "none: every game runs to --max-actions and is reported as unfinished"

    def sides(self, state: Any) -> list[str]:
        return []

    def acting_side(self, state: Any) -> str:
        return ""

    def turn(self, state: Any) -> int:
        t = getattr(state, "turn", 0)
        return int(t) if isinstance(t, int) else 0

    def outcome(self, state: Any) -> str | None:
        """A side id (that side won), 'draw', or None (play on)."""
        return None

    def lines(self, state: Any, ruleset: Any, rng: random.Random) -> list[list[Candidate]]:
        """What may be done now, one line per open action, each with the requests to try in
        order (the first the rules accept is played). Default: the ruleset's
        ``legal_requests``, one request a line; when something is owed, only what discharges
        it (obligations first, always)."""
        owed = {o.procedure for o in ruleset.obligations(state)}
        return [
            [(n, dict(r))] for n, r in ruleset.legal_requests(state, rng) if not owed or n in owed
        ]


def todo_lines(state: Any, ruleset: Any) -> list[Any]:
    """The ruleset's offers before ``plan`` filters them (its obligations and ``options``: a
    policy completes each and the engine judges it): only the owed lines while something is
    owed."""
    from vedette.rules.protocol import iter_todo

    todo = list(iter_todo(ruleset.obligations(state), ruleset.options(state)))
    owed = [t for t in todo if t.owed]
    return owed or todo


class TwoByTwoAdapter(Adapter):
    """2 by 2: the battle ends when the ruleset's own victory check ends it (the ``next`` that
    ends a turn): a side's score is the AP of enemy units destroyed; at the end of a turn the
    game ends when a score reaches ``[victory] threshold_ap`` or the turn limit ``max_turns``
    is passed; the higher score wins, equal scores draw (docs/rules/two_by_two.md, "Set-up and
    victory": the text only says destroyed units count)."""

    policies = ("random", "aggressive", "cautious")
    end_condition = (
        "the ruleset's victory check at the end of each turn: AP of enemy units destroyed"
        " reaching [victory] threshold_ap, or max_turns passed; higher score wins, equal draws"
    )

    def sides(self, state: Any) -> list[str]:
        return [s.id for s in state.sides]

    def acting_side(self, state: Any) -> str:
        return str(state.actor) if state.stage == "battle" else ""

    def lines(self, state: Any, ruleset: Any, rng: random.Random) -> list[list[Candidate]]:
        """The ``todo`` lines, each completed as ``legal_requests`` completes it (the charges
        a move could make, then its steps; a shot at each enemy; an arrival's places), but
        planned lazily: only until the policy's first accepted request."""
        from vedette.rules.two_by_two.todo import _complete

        return [_complete(state, t, rng) for t in todo_lines(state, ruleset)]

    def outcome(self, state: Any) -> str | None:
        if state.stage != "over":
            return None
        return str(state.winner) if state.winner else "draw"


#: Kuryakin's simulation end (an assumption of the simulator, not of the rules: the text has
#: no victory conditions): at the start of a turn an army whose routing or eliminated units are
#: at least this fraction of its units has broken; the other side wins (both: a draw)
KURYAKIN_BREAK = 0.5
#: ... and after this many turns without a break the battle is a draw
KURYAKIN_TURNS = 12


class KuryakinAdapter(Adapter):
    policies = ("random", "cards")
    end_condition = (
        f"army morale break, checked at the start of each turn: a side with at least"
        f" {KURYAKIN_BREAK:.0%} of its units routing or eliminated has broken and the other"
        f" wins (both at once: a draw); no break after {KURYAKIN_TURNS} turns: a draw"
    )

    def sides(self, state: Any) -> list[str]:
        return list(state.sides)

    def acting_side(self, state: Any) -> str:
        if state.phase != "activation" or state.active is None:
            return ""
        holder = state.active
        for g in state.generals:
            if g.id == holder:
                return str(g.side)
        for u in state.units:
            if u.id == holder:
                return str(u.side)
        return ""

    def lines(self, state: Any, ruleset: Any, rng: random.Random) -> list[list[Candidate]]:
        """The ``todo`` lines (pre-filled by the ruleset); generals without ratings are rated
        first ('staff': the rules' own random ratings), as a player starting the game would."""
        if any(g.cr is None for g in state.generals):
            return [[("staff", {})]]
        out: list[list[Candidate]] = []
        for t in todo_lines(state, ruleset):
            req = dict(t.request)
            if t.procedure == "fire" and t.owed:  # fire if it may, else hold its fire
                out.append([("fire", req), ("fire", {**req, "hold": True})])
            elif t.open:  # an open entry: its first few choices, in the order offered
                fields = list(t.open)
                combos = itertools.islice(itertools.product(*(t.open[f] for f in fields)), 8)
                out.append(
                    [(t.procedure, {**req, **dict(zip(fields, c, strict=True))}) for c in combos]
                )
            else:
                out.append([(t.procedure, req)])
        return out

    def broken(self, state: Any, side: str) -> bool:
        units = [u for u in state.units if u.side == side]
        gone = [u for u in units if u.status in ("routing", "eliminated") or u.figures <= 0]
        return bool(units) and len(gone) >= KURYAKIN_BREAK * len(units)

    def outcome(self, state: Any) -> str | None:
        if state.phase != "control":
            return None
        broken = [s for s in state.sides if self.broken(state, s)]
        if len(broken) == len(state.sides):
            return "draw"
        if broken:
            return str(next(s for s in state.sides if s not in broken))
        if state.turn > KURYAKIN_TURNS:
            return "draw"
        return None


ADAPTERS: dict[str, Adapter] = {
    "two_by_two": TwoByTwoAdapter(),
    "solo_napoleonic": KuryakinAdapter(),
}


def adapter_for(ruleset: str) -> Adapter:
    return ADAPTERS.get(ruleset, Adapter())


# -- policies -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Policy:
    """Orders the legal candidates: ``rank(name, request, state)`` gives each a rank (lower is
    tried first; None leaves it out); ties keep a random order drawn from the game's rng."""

    name: str
    help: str
    rank: Callable[[str, dict[str, Any], Any, frozenset[tuple[str, str]]], int | None]

    def choose(
        self,
        state: Any,
        lines: list[list[Candidate]],
        rng: random.Random,
        done: frozenset[tuple[str, str]] = frozenset(),
    ) -> list[Candidate]:
        """Every candidate, best first: by rank, then the lines in a random order (each line
        keeps its own order). ``done``: (procedure, unit) performed since the last ``next``."""
        ranked: list[tuple[int, float, int, Candidate]] = []
        for line in lines:
            key = rng.random()
            for i, (name, req) in enumerate(line):
                r = self.rank(name, req, state, done)
                if r is not None:
                    ranked.append((r, key, i, (name, req)))
        ranked.sort(key=lambda x: x[:3])
        return [c for *_, c in ranked]


Done = frozenset[tuple[str, str]]


def _random_rank(name: str, req: dict[str, Any], state: Any, done: Done) -> int | None:
    return 0


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


_CARDS: Mapping[str, int] = {
    "charge": 0,
    "fire": 1,
    "rally": 2,
    "chance": 3,
    "reform": 4,
    "move": 5,
    "formation": 6,
    "next": 9,
}


def _cards(name: str, req: dict[str, Any], state: Any, done: Done) -> int | None:
    if (name, str(req.get("unit", ""))) in done and "unit" in req:
        return None  # each action once a unit a card (what is owed is always done)
    return _CARDS.get(name, 7)


POLICIES: dict[str, Policy] = {
    "random": Policy(
        "random",
        "random-legal: one open action at random, each line of the ruleset's todo equally"
        " likely (ending the phase included), its fields filled as legal_requests fills them",
        _random_rank,
    ),
    "aggressive": Policy(
        "aggressive",
        "2 by 2: melee and follow up, then charge or counter-charge, shoot, rally, bring on"
        " reinforcements, turn to face, advance; ends the phase only when nothing is left;"
        " never turns on its own or routs voluntarily",
        _aggressive,
    ),
    "cautious": Policy(
        "cautious",
        "2 by 2: never charges, counter-charges or advances; shoots, turns to face a charger,"
        " rallies, brings reinforcements on, declines optional follow-ups",
        _cautious,
    ),
    "cards": Policy(
        "cards",
        "Kuryakin: on each card, every unit charges if it may, else fires, else rallies, plays"
        " a held chance card, reforms, moves (a full move ahead), changes formation, each at"
        " most once a unit a card; the next card when nothing is left; defensive fire when"
        " it may",
        _cards,
    ),
}


def policy(name: str, adapter: Adapter) -> Policy:
    if name not in POLICIES:
        raise BadRequest(f"--policy: no policy {name!r} (policies: {', '.join(POLICIES)})")
    if name not in adapter.policies:
        raise BadRequest(
            f"--policy: {name!r} does not play this ruleset (it plays: "
            f"{', '.join(adapter.policies)})"
        )
    return POLICIES[name]
