"""The engine: event store, replay, game sessions, undo."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vedette.engine.session import Game, effective_actions, replay
    from vedette.engine.store import Record, Store

__all__ = ["Game", "Record", "Store", "effective_actions", "replay"]

_HOME = {  # name -> the module holding it
    "Game": "session",
    "effective_actions": "session",
    "replay": "session",
    "Record": "store",
    "Store": "store",
}


def __getattr__(name: str) -> Any:
    """The engine's names, each loaded with its module on first use: the package alone loads
    nothing, so the rules' base class imports the snapshot codec without the store (sqlite)
    or the session (which imports the rules)."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'vedette.engine' has no attribute {name!r}")
    if home == "store":
        from vedette.engine import store  # start-up: shell completion opens the store alone

        return getattr(store, name)
    from vedette.engine import session  # start-up: the session and the rules load with a game

    return getattr(session, name)
