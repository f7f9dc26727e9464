"""Game sessions for the web app: one SQLite connection per worker thread, and games kept in
memory between requests (re-read from the log only when another writer has appended to it),
each behind its own lock so two requests never act on one game at once."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from vedette.engine import Game, Store


class Sessions:
    def __init__(self, db: str | Path) -> None:
        self.db = str(db)
        self._local = threading.local()
        self._games: dict[str, Game] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        Store(self.db).close()  # create the schema once, up front

    def store(self) -> Store:
        st: Store | None = getattr(self._local, "store", None)
        if st is None:
            st = Store(self.db)
            self._local.store = st
        return st

    def _lock(self, name: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(name, threading.Lock())

    @contextmanager
    def game(self, name: str) -> Iterator[Game]:
        """The game, current with its log, for the duration of one request."""
        with self._lock(name):
            st = self.store()
            g = self._games.get(name)
            if g is not None:
                last = st.db.execute(
                    "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id=?", (g.id,)
                ).fetchone()[0]
                if last != g.records[-1].seq:
                    g = None
            if g is None:
                g = Game.open(st, name)
                self._games[name] = g
            g.store = st
            yield g

    def forget(self, name: str) -> None:
        with self._guard:
            self._games.pop(name, None)
