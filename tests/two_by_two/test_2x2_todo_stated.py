"""Issue 22's property for 2 by 2 played *stated* (``play=stated``: the player states measured
facts, vedette keeps no positions): seeded random games from ``todo`` alone on every bundled
scenario, nothing offered is refused, nothing owed is a dead end, ``todo`` is never empty
mid-game, replay equals live play. (tests/core/test_todo_conformance.py plays them tracked.)"""

from __future__ import annotations

import os

import pytest

from tests.todo_play import Counts, play
from vedette import rules

GAMES = int(os.environ.get("VEDETTE_TODO_GAMES", "6")) // 2
STEPS = int(os.environ.get("VEDETTE_TODO_STEPS", "40"))


@pytest.mark.parametrize("scenario", list(rules.get("two_by_two").scenarios))
def test_stated_play_from_todo(scenario: str) -> None:
    total = Counts()
    for seed in range(GAMES):
        total.add(play("two_by_two", scenario, seed, STEPS, options={"play": "stated"}))
    assert total.failures == 0, "\n".join([total.line(), *total.problems[:20]])
    assert total.actions > GAMES
