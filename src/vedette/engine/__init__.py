"""The engine: event store, replay, game sessions, undo."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vedette.engine.store import Record, Store

if TYPE_CHECKING:
    from vedette.engine.session import Game, effective_actions, replay

__all__ = ["Game", "Record", "Store", "effective_actions", "replay"]

_SESSION = ("Game", "effective_actions", "replay")


def __getattr__(name: str) -> Any:
    """The session's names, loaded on first use: the engine package alone is the store and the
    snapshot codec (which the rules' base class imports), not the session and the rules."""
    if name in _SESSION:
        # start-up: shell completion opens the Store without loading the session and the rules
        from vedette.engine import session

        return getattr(session, name)
    raise AttributeError(f"module 'vedette.engine' has no attribute {name!r}")
