"""Game sessions for the web app: one SQLite connection per worker thread, and games kept in
memory between requests, each behind its own lock so two requests never act on one game at once.

Games are cached by their id, never by their name: every request looks the name up in the store
(so a rename from the CLI, or a new game given an old name, is seen at once), then uses the
cached game of that id only if its log has not grown meanwhile."""

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
        self._games: dict[int, Game] = {}
        self._locks: dict[int, threading.Lock] = {}
        self._guard = threading.Lock()
        Store(self.db).close()  # create the schema once, up front

    def store(self) -> Store:
        st: Store | None = getattr(self._local, "store", None)
        if st is None:
            st = Store(self.db)
            self._local.store = st
        return st

    def _lock(self, gid: int) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(gid, threading.Lock())

    @contextmanager
    def game(self, name: str) -> Iterator[Game]:
        """The game now named ``name``, current with its log, for the duration of one request."""
        st = self.store()
        info = st.game(name)  # the name -> id, from the store, every time
        with self._lock(info.id):
            g = self._games.get(info.id)
            if g is not None:
                last = st.db.execute(
                    "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id=?", (info.id,)
                ).fetchone()[0]
                if last != g.records[-1].seq:
                    g = None
            if g is None or g.id != info.id:
                g = Game.open(st, info.name)
                if g.id != info.id:  # renamed between the two reads: take the one read now
                    raise_changed(info.name)
                with self._guard:
                    self._games[info.id] = g
            g.name = info.name
            g.store = st
            yield g

    def forget(self, gid: int) -> None:
        with self._guard:
            self._games.pop(gid, None)

    def forget_name(self, name: str) -> None:
        """Drop the cached game now or formerly named ``name`` (after a rename)."""
        with self._guard:
            for gid in [gid for gid, g in self._games.items() if g.name == name]:
                self._games.pop(gid, None)


def raise_changed(name: str) -> None:
    from vedette.errors import GameError

    raise GameError(f"game {name!r} changed while it was opened; reload and try again")
