"""One simulated battle, played in memory through the real procedures.

A game is the engine's own loop without the database: each action is parsed, checked against
what is owed (``flow_violation``), planned (the rules refuse what they forbid), resolved with
the game's seeded dice stream (``SegmentSource`` from the stream's high-water mark, exactly as
:meth:`vedette.engine.Game.perform` draws them) and its events folded by the ruleset; a
procedure whose plan is a dry run of its resolve is planned and resolved in one run
(``Procedure.play``: the same refusals, the same dice). So the same actions performed on a
stored game draw the same dice and reach the same state: that is how :func:`save_game` turns
game *i* of a study into a game the web app shows.

Every game is determined by ``(seed, index)`` alone (:func:`game_seeds`).
"""

from __future__ import annotations

import gc
import hashlib
import itertools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from vedette import rules
from vedette.dice.sources import SegmentSource
from vedette.engine import Game
from vedette.engine.session import WAIVE
from vedette.errors import BadRequest, VedetteError
from vedette.rules.protocol import flow_violation, parsed_shared
from vedette.sim.policies import Policy, policy

WAIVE_REASON = "simulation: no legal way to discharge it"


def game_seeds(seed: int, index: int) -> tuple[int, int]:
    """The dice seed and the policy's seed of game ``index`` of a study seeded ``seed``: the
    first two 63-bit words of BLAKE2b("vedette-sim:{seed}:{index}"). Documented, platform
    independent, and independent of how the games are split among workers."""
    h = hashlib.blake2b(f"vedette-sim:{seed}:{index}".encode(), digest_size=16).digest()
    mask = (1 << 63) - 1
    return int.from_bytes(h[:8], "big") & mask, int.from_bytes(h[8:], "big") & mask


@dataclass(frozen=True)
class Setup:
    """What every game of a study starts from (the sweep changes ``options``/``house_rules``)."""

    ruleset: str
    scenario: Mapping[str, Any]
    options: Mapping[str, Any] = field(default_factory=dict)
    house_rules: Mapping[str, Any] = field(default_factory=dict)
    policies: tuple[str, ...] = ("random",)
    max_actions: int = 2000

    def engine_options(self) -> dict[str, Any]:
        """The options as the engine hands them to ``initial_state`` (house rules inside)."""
        opts = dict(self.options)
        if self.house_rules:
            opts["house_rules"] = dict(self.house_rules)
        return opts


@dataclass(frozen=True, slots=True)
class GameResult:
    """How game ``index`` ended: ``winner`` a side id, ``"draw"``, or ``"unfinished"`` (the
    action limit, or no legal action left: ``end`` says which); ``how`` the ruleset's words for
    the end ("army broken", "turn limit", "score"; for an unfinished game, ``end``); each side's
    losses (side, units) and the rolls made (side, procedure, rolls) ('' for no side)."""

    index: int
    winner: str
    end: str
    turns: int
    actions: int
    how: str = ""
    losses: tuple[tuple[str, int], ...] = ()
    rolls: tuple[tuple[str, str, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "winner": self.winner,
            "end": self.end,
            "how": self.how,
            "turns": self.turns,
            "actions": self.actions,
            "losses": dict(self.losses),
        }


@dataclass
class Played:
    """A finished game: its result and the actions performed, in order (procedure, request)."""

    result: GameResult
    actions: list[tuple[str, dict[str, Any]]]
    dice_seed: int


def side_policies(rs: Any, state: Any, names: Sequence[str]) -> dict[str, Policy]:
    """One policy per side, in the scenario's side order; one name plays every side."""
    sides = rs.sides(state)
    if len(names) > max(1, len(sides)):
        raise BadRequest(
            f"--policy: {len(names)} policies for {len(sides)} sides ({', '.join(sides) or 'none'})"
        )
    play = rs.simulation()
    chosen = [policy(n, play, rs.title) for n in names]
    out = {s: chosen[min(i, len(chosen) - 1)] for i, s in enumerate(sides)}
    out[""] = chosen[0]  # steps no side takes (a ruleset's own sequence)
    return out


def play_game(setup: Setup, seed: int, index: int, record: bool = False) -> Played:
    """Play game ``index`` of the study seeded ``seed`` to its end (or the action limit).

    Python's cycle collector is paused for the game (and restored after, when it was on): a
    game makes many small objects, nearly all freed by reference counting, and the collector's
    passes over them cost 2% to 7% of a game's CPU time, by ruleset (issue 29); what
    cyclic garbage a game leaves is collected at the next pass after it."""
    was = gc.isenabled()
    gc.disable()
    try:
        return _play_game(setup, seed, index, record)
    finally:
        if was:
            gc.enable()


def _play_game(setup: Setup, seed: int, index: int, record: bool) -> Played:
    rs = rules.get(setup.ruleset)
    play = rs.simulation()
    dice_seed, policy_seed = game_seeds(seed, index)
    rng = random.Random(policy_seed)
    state = rs.initial(setup.scenario, setup.engine_options())
    pols = side_policies(rs, state, setup.policies)
    rolls: Counter[tuple[str, str]] = Counter()
    procs = {**rs.protocol_procedures(), "waive": WAIVE}
    position = 0
    log: list[tuple[str, dict[str, Any]]] = []
    n = 0
    done: set[tuple[str, str]] = set()
    # (procedure, unit) performed since the last ``next``, kept only for a policy that reads it
    track = any(p.reads_done for p in pols.values())
    # each request tried, parsed, by its identity (the object kept alive with it): most
    # lines' requests are the same objects step after step, and game after game (read-only
    # values the rulesets keep: :data:`_KNOWN`)
    known = _KNOWN
    if len(known) > _KNOWN_MAX:
        known.clear()
    over = None
    # the game's dice, kept from candidate to candidate and action to action while it stands
    # at the stream's high-water mark (a candidate refused before its first die leaves it as it
    # was; an action that rolled leaves it past its last die): made afresh only if not
    source: SegmentSource | None = None
    while True:
        over = rs.outcome(state)
        if over is not None:
            winner, end = over.winner, "victory" if over.winner != "draw" else "draw"
            break
        if n >= setup.max_actions:
            winner, end = "unfinished", "action limit"
            break
        side = play.acting_side(state)
        pol = pols.get(side, pols[""])
        owed = tuple(rs.obligations(state))
        cands = pol.choose(
            state, play.lines(state, rs, rng), rng, frozenset(done) if track and not owed else _NONE
        )
        if owed:  # an owed step nothing can discharge: waive it (logged, as a player would)
            waive = ("waive", {"obligation": owed[0].id, "reason": WAIVE_REASON})
            cands = itertools.chain(cands, (waive,))
        for name, req in cands:
            p = procs.get(name)
            if p is None or p.query:
                continue
            try:
                parsed, req_json = _parsed(known, p, req)
                if owed and flow_violation(owed, name, req_json) is not None:
                    continue
                if source is None or source.position != position:
                    source = SegmentSource(dice_seed, [(position, None)])
                if p.play is not None:  # plan and resolve in one run: the same verdict, dice
                    outcome = p.play(state, parsed, source)
                else:
                    outcome = p.resolve(state, p.plan(state, parsed), source)
                new = rs.folded(state, outcome.events)
            except VedetteError:
                continue  # refused before anything is kept: no dice consumed, as in the engine
            state = new
            was = position
            for _, b in source.ranges():
                position = max(position, int(b))
            if position > was:  # this action rolled dice
                rolls[side, name] += 1
            if record:
                log.append((name, dict(req_json)))
            if track and name in ("next", "end_turn", "next_phase"):
                done.clear()
            elif track:
                done.add((name, str(req_json.get("unit", ""))))
            n += 1
            break
        else:
            winner, end = "unfinished", "no legal action"
            break
    if over is not None:
        how, turns, losses = over.how, over.turns, dict(over.losses)
    else:
        how, turns, losses = end, rs.turn(state), rs.losses(state)
    result = GameResult(
        index,
        winner,
        end,
        turns,
        n,
        how,
        tuple(sorted(losses.items())),
        tuple((who, proc, k) for (who, proc), k in sorted(rolls.items())),
    )
    return Played(result, log, dice_seed)


_NONE: frozenset[tuple[str, str]] = frozenset()


#: the requests the loop has tried, parsed, by their identity (:func:`_parsed`), kept from game
#: to game: a ruleset's lines and their requests are values it keeps (its memos of lines), so a
#: game tries many of the very request objects the games before it tried (each entry keeps its
#: request alive: an id stands for no other object while its entry stands); cleared when large
_KNOWN: dict[int, tuple[Mapping[str, Any], Any, Any, Mapping[str, Any]]] = {}
_KNOWN_MAX = 1 << 14


def _parsed(
    known: dict[int, tuple[Mapping[str, Any], Any, Any, Mapping[str, Any]]],
    proc: Any,
    req: Mapping[str, Any],
) -> tuple[Any, Mapping[str, Any]]:
    """``parsed_shared(proc, req)``, remembered in ``known`` by the request's identity (the
    request kept alive there: its id is never another's while the entry stands). A request a
    policy is handed is never changed (the lines' values are read-only): the same object is
    the same request."""
    hit = known.get(id(req))
    if hit is not None and hit[0] is req and hit[1] is proc:
        return hit[2], hit[3]
    parsed, req_json = parsed_shared(proc, req)
    known[id(req)] = (req, proc, parsed, req_json)
    return parsed, req_json


def save_game(store: Any, name: str, setup: Setup, seed: int, index: int) -> tuple[Any, Played]:
    """Play game ``index`` again and store it as the game ``name`` (the engine performs each
    action, with the game's own seeded dice): watch it in the web app. Returns the stored
    game and the simulated one; the stored game must end where the simulation did."""
    played = play_game(setup, seed, index, record=True)
    g = Game.create(
        store,
        name,
        setup.ruleset,
        dict(setup.scenario),
        played.dice_seed,
        dict(setup.options),
        dict(setup.house_rules) or None,
    )
    for proc, req in played.actions:
        g.perform(proc, req)
    return g, played
