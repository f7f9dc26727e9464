"""``todo``'s remembered verdicts (vedette.rules.two_by_two.offers) change no offer: seeded
games played from ``todo`` on every bundled scenario, tracked and stated, where each step's
``todo`` (the memo on, remembering from the states before) is compared line by line with the
same state's ``todo`` judged afresh (the memo off). ``VEDETTE_MEMO_GAMES`` games per scenario
and way of play (default 2, 3 with ``VEDETTE_EXAMPLES=1``: tests/sizes.py; the second game
meets the memo left by the first; bench/bench_2x2_todo.py compares whole games with the code
before the memo)."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from tests.sizes import runs
from vedette import rules
from vedette.engine import Game, Store
from vedette.rules.two_by_two import offers
from vedette.rules.two_by_two.model import GameState

GAMES = int(os.environ.get("VEDETTE_MEMO_GAMES") or runs(3, 2))
STEPS = 40
RS = rules.get("two_by_two")


def lines(todo: list[Any]) -> list[tuple[Any, ...]]:
    return [
        (t.command(), repr(t.open), t.refused, t.owed, t.text, t.rule, t.obligation) for t in todo
    ]


def fresh(state: GameState) -> list[Any]:
    offers.ENABLED = False
    try:
        return list(RS.todo(state, True))
    finally:
        offers.ENABLED = True


@pytest.mark.parametrize("play", ["tracked", "stated"])
@pytest.mark.parametrize("scenario", list(RS.scenarios))
def test_remembered_verdicts_offer_the_same_lines(scenario: str, play: str) -> None:
    offers.clear()
    compared = 0
    for seed in range(GAMES):
        rng = random.Random(seed)
        g = Game.create(
            Store(":memory:"), f"m{seed}", RS.name, RS.scenario(scenario), seed, {"play": play}
        )
        for step in range(STEPS):
            if RS.game_over(g.state):
                break
            todo = g.todo(strict=True)
            assert lines(todo) == lines(fresh(g.state)), f"{scenario} {play} {seed} step {step}"
            compared += 1
            t = rng.choice([t for t in todo if t.owed] or todo)
            req = dict(t.request)
            for k, cs in t.open.items():
                req[k] = rng.choice(list(cs))
            g.perform(t.procedure, req)
    assert compared > GAMES


def test_undo_and_another_game_forget_what_changed() -> None:
    """The memo follows whatever state it is asked about next: an earlier state (an undo), a
    state of another game, then the first game again."""
    offers.clear()
    a = Game.create(Store(":memory:"), "a", RS.name, RS.scenario("close"), 1, {})
    b = Game.create(Store(":memory:"), "b", RS.name, RS.scenario("sample"), 2, {})
    states = [a.state]
    rng = random.Random(5)
    for _ in range(12):
        t = rng.choice(a.todo())
        req = {**t.request, **{k: rng.choice(list(cs)) for k, cs in t.open.items()}}
        a.perform(t.procedure, req)
        states.append(a.state)
    for st in [states[-1], states[3], b.state, states[7], states[0], states[-1]]:
        assert lines(RS.todo(st, True)) == lines(fresh(st))
