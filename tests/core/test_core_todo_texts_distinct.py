"""Two entries of one ``todo`` never read alike: a player choosing from the Next list (or the
CLI's) tells them apart by their words alone (Kuryakin's advance and plain move were both
"A5 moves"). Random play over each ruleset's sample, every state checked."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from tests.todo_play import fill, perform
from vedette import rules
from vedette.engine import Game, Store

RULESETS = ("napoleon_at_bay", "solitaire_asl", "two_by_two", "solo_napoleonic")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_two_entries_of_a_todo_read_alike(ruleset: str, tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite3")
    checked = 0
    for seed in (0, 1):
        g = Game.create(
            store, f"g{seed}", ruleset, rules.get(ruleset).scenario("sample"), seed=seed
        )
        rng = random.Random(seed)
        for _ in range(150):
            todo = g.ruleset.todo(g.state)
            if not todo:
                break
            alike = [t for t, n in Counter(t.text for t in todo).items() if n > 1]
            assert not alike, (ruleset, g.state.phase, alike)
            checked += len(todo)
            t = rng.choice(todo)
            perform(g, t.procedure, fill(t, rng), rng)
    assert checked > 300  # (the games went on: many lists read)
