"""A saved game reloads as it was (tests/roundtrip.py): random games of each ruleset under a few
option sets, played from ``todo`` (an undo now and then), by the simulator's random policy and
again with the player's own dice, each exported and imported (refereed again): the import is
accepted and has the original's state, log, todo and board.

Quick by default (one game of each kind per option set); ``VEDETTE_ROUNDTRIP_GAMES=N`` (and
``VEDETTE_ROUNDTRIP_STEPS``, ``VEDETTE_ROUNDTRIP_SEED0``) for a longer sweep, e.g.
``VEDETTE_ROUNDTRIP_GAMES=20 VEDETTE_ROUNDTRIP_STEPS=400 pytest tests/core/test_core_roundtrip.py``.
"""

from __future__ import annotations

import os

import pytest

from tests.roundtrip import OPTION_SETS, sweep

GAMES = int(os.environ.get("VEDETTE_ROUNDTRIP_GAMES", "1"))
STEPS = int(os.environ.get("VEDETTE_ROUNDTRIP_STEPS", "80"))
SEED0 = int(os.environ.get("VEDETTE_ROUNDTRIP_SEED0", "0"))


@pytest.mark.parametrize("ruleset", sorted(OPTION_SETS))
def test_random_games_export_and_import_unchanged(ruleset: str) -> None:
    assert sweep(GAMES, STEPS, [ruleset], SEED0) == []
