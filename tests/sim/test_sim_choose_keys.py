"""The random policy's keys (``Policy.choose``, docs/simulation.md "The policies"): one draw of
the game's rng a line, in the lines' order, drawn in C (issue 29) as the Python loop drew
them: the same order of lines, the rng left in the same place, so the same games for a
seed."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from vedette.rules.simulation import RANDOM, Policy


def _old_order(lines: list[list[tuple[str, dict[str, int]]]], rng: random.Random) -> list[str]:
    """The candidates as the loop ordered them: a key drawn for each line, in order."""
    keys = [rng.random() for _ in lines]
    order = sorted(range(len(lines)), key=keys.__getitem__)
    return [name for i in order for name, _ in lines[i]]


@given(st.lists(st.integers(1, 3), max_size=40), st.integers(0, 2**32 - 1))
def test_the_keys_drawn_in_c_are_the_loops_keys(sizes: list[int], seed: int) -> None:
    lines = [[(f"l{i}c{j}", {"i": i}) for j in range(n)] for i, n in enumerate(sizes)]
    ranked = Policy(RANDOM.name, RANDOM.help, lambda *a: 0)  # every candidate ranked: _sorted
    for policy in (RANDOM, ranked):
        mine, old = random.Random(seed), random.Random(seed)
        got = [name for name, _ in policy.choose(None, lines, mine)]
        assert got == _old_order(lines, old)
        assert mine.random() == old.random()  # the rng left where the loop left it
