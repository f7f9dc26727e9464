"""The referee's memos change no answer (issues 22, 29: ``todo`` made faster): seeded games
played from ``todo`` with every memo on and with every memo off (the old path: each offer's
dry run made afresh) give the same ``todo`` lines at every step (command, open choices,
refusals, owed steps), the same log and the same final state; and so do simulated games."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from tests.todo_play import ended, fill
from vedette import rules
from vedette.engine import Game, Store
from vedette.rules.protocol import to_json
from vedette.rules.solo_napoleonic import memo

RS = rules.get("solo_napoleonic")


def _lines(todo: list[Any]) -> list[str]:
    return [
        json.dumps(
            [
                t.command(),
                {k: [to_json(c) for c in cs] for k, cs in t.open.items()},
                t.refused,
                t.owed,
                t.text,
                t.obligation,
            ],
            default=str,
        )
        for t in todo
    ]


def game_trace(scenario: str, seed: int, steps: int = 40) -> list[str]:
    """Every todo line of a seeded game played from todo, the log and the final state."""
    rng = random.Random(seed)
    g = Game.create(Store(":memory:"), f"m{seed}", RS.name, RS.scenario(scenario), seed=seed)
    out: list[str] = []
    for _ in range(steps):
        if ended(g):
            break
        todo = g.todo(strict=True)
        out += _lines(todo)
        # asked again of the same state: the same answer (the todo is kept per state)
        assert _lines(g.todo(strict=True)) == _lines(todo)
        t = rng.choice([t for t in todo if t.owed] or todo)
        req = fill(t, rng)
        out.append(f"> {t.procedure} {json.dumps(req, sort_keys=True, default=str)}")
        g.perform(t.procedure, req)
    out += [json.dumps(r.payload, sort_keys=True, default=str) for r in g.records]
    out.append(json.dumps(RS.state_json(g.state), sort_keys=True, default=str))
    return out


@pytest.fixture
def memos_off() -> Iterator[None]:
    memo.set_enabled(False)
    try:
        yield
    finally:
        memo.set_enabled(True)


def traces(seeds: range) -> list[list[str]]:
    return [game_trace(s, seed) for s in RS.scenarios for seed in seeds]


def test_todo_play_is_the_same_with_and_without_memos() -> None:
    seeds = range(3)
    memo.set_enabled(True)
    fast = traces(seeds)
    memo.set_enabled(False)
    try:
        slow = traces(seeds)
    finally:
        memo.set_enabled(True)
    assert len(fast) == len(slow) == 2 * len(seeds)
    for a, b in zip(fast, slow, strict=True):
        assert a == b


def test_simulated_games_are_the_same_with_and_without_memos() -> None:
    from vedette.sim.play import Setup, play_game

    setup = Setup(RS.name, RS.scenario("sample"), max_actions=300)

    def games() -> list[Any]:
        out = []
        for i in range(2):
            p = play_game(setup, 7, i, record=True)
            out.append((p.result.winner, p.result.end, p.result.actions, p.actions))
        return out

    memo.set_enabled(True)
    fast = games()
    memo.set_enabled(False)
    try:
        slow = games()
    finally:
        memo.set_enabled(True)
    assert fast == slow


def test_a_verdict_is_remembered_for_its_own_state_only(memos_off: None) -> None:
    """The memo of one state is never read for another, even an equal one."""
    memo.set_enabled(True)
    s = RS.initial_state(RS.scenario("sample"), {})
    assert memo.of_state(s) is memo.of_state(s)
    from dataclasses import replace

    other = replace(s)
    assert other == s and memo.of_state(other) is not memo.of_state(s)


def test_facts_are_the_core_patch_event() -> None:
    """Every fact is the core's patch of a unit, a general or the turn (issue 28): logged in the
    patch's shape and read back equal by the core's one decoder."""
    from vedette.rules.patch import Patch
    from vedette.rules.solo_napoleonic import events as E

    for c in (*E.UNIT_FACTS, *E.GENERAL_FACTS, *E.TURN_FACTS):
        assert issubclass(c, Patch) and c.entity in ("unit", "general", "turn"), c
        f = sorted(c.touches or ())[0]
        e = c("U1", {f: (1, 2)}, {f: [0, 0]}, "why")  # held as a tuple, logged as a list
        data = {"entity": c.entity, "id": "U1", "set": {f: [1, 2]}, "was": {f: [0, 0]}}
        assert e.to_json() == {"kind": c.kind, "v": 2, "data": {**data, "why": "why"}}
        assert c.decode(e.to_json()["data"]) == e
