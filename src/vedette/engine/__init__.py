"""The engine: event store, replay, game sessions, undo."""

from vedette.engine.session import Game, effective_actions, replay
from vedette.engine.store import Record, Store

__all__ = ["Game", "Record", "Store", "effective_actions", "replay"]
