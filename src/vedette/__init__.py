"""vedette: a solo wargaming referee.

Rules are pure functions from (state, request, dice) to an Outcome that explains itself;
a game is an append-only event log replayed through its ruleset.
"""

__version__ = "0.2.0"

from vedette import _dccache

_dccache.install()
