"""Game sessions for the web app: one SQLite connection per worker thread, and games kept in
memory between requests, each behind its own reader/writer lock: one request at a time writes
to a game (an action, an undo), while any number read it (pages, odds, the log) when none writes.

Games are cached by their id, never by their name: every request looks the name up in the store
(so a rename from the CLI, or a new game given an old name, is seen at once), then uses the
cached game of that id only if its log has not grown meanwhile."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from vedette.engine import Game, Store
from vedette.engine.locks import AVAILABLE, lock_byte, lock_file, open_private
from vedette.engine.store import GameInfo
from vedette.errors import GameError


class RWLock:
    """Many readers or one writer (writers wait for readers to leave; new readers wait for a
    waiting writer, so a steady stream of reads never starves an action)."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._readers = 0
        self._writing = False
        self._waiting = 0

    @contextmanager
    def read(self) -> Iterator[None]:
        with self._cond:
            while self._writing or self._waiting:
                self._cond.wait()
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                self._cond.notify_all()

    @contextmanager
    def write(self) -> Iterator[None]:
        with self._cond:
            self._waiting += 1
            while self._writing or self._readers:
                self._cond.wait()
            self._waiting -= 1
            self._writing = True
        try:
            yield
        finally:
            with self._cond:
                self._writing = False
                self._cond.notify_all()


class Sessions:
    def __init__(self, db: str | Path) -> None:
        self.db = str(db)
        self._local = threading.local()
        self._games: dict[int, Game] = {}
        self._locks: dict[int, RWLock] = {}
        self._guard = threading.Lock()
        Store(self.db).close()  # create the schema once, up front
        self._across = ProcessLocks(self.db)

    def store(self) -> Store:
        st: Store | None = getattr(self._local, "store", None)
        if st is None:
            st = Store(self.db, queued=True)  # (its writes queue with other processes')
            self._local.store = st
        return st

    def _lock(self, gid: int) -> RWLock:
        lock = self._locks.get(gid)
        if lock is None:
            with self._guard:
                lock = self._locks.setdefault(gid, RWLock())
        return lock

    @contextmanager
    def game(self, name: str, write: bool = False) -> Iterator[Game]:
        """The game now named ``name``, current with its log, for the duration of one request:
        shared with other readers, or alone when ``write`` (it will append to the log)."""
        st = self.store()
        info = _lookup(st, name)  # the name -> id, from the store, every time
        lock = self._lock(info.id)
        with lock.write() if write else lock.read(), self._across.hold(info.id, write):
            g = self._games.get(info.id)
            if g is not None and _last_seq(st, info.id) != g.records[-1].seq:
                g = None  # written meanwhile (the CLI, another server process)
            if g is None or g.id != info.id:
                g = Game.open(st, info.name)
                if g.id != info.id:  # renamed between the two reads: take the one read now
                    raise_changed(info.name)
                with self._guard:
                    self._games[info.id] = g
            if write:
                g.store = st  # this thread's connection appends
            g.name = info.name
            yield g

    def forget(self, gid: int) -> None:
        with self._guard:
            self._games.pop(gid, None)

    def forget_name(self, name: str) -> None:
        """Drop the cached game now or formerly named ``name`` (after a rename)."""
        with self._guard:
            for gid in [gid for gid, g in self._games.items() if g.name == name]:
                self._games.pop(gid, None)


class ProcessLocks:
    """One writer per game across the server processes sharing a database (``vedette serve
    --workers N``, or two servers on one file): the writer of a game holds a lock on the byte
    at the game's id in a file beside the database (``<db>.writers``; their stores' write
    transactions queue on another byte of it, ``engine/locks.py``).

    The locks are open-file-description locks (Linux ``F_OFD_SETLKW``; ``flock`` of the whole
    file elsewhere), taken on a descriptor the holder opens for itself: they belong to that
    holder, not to the process, so two threads of one process writing two games never look
    to the kernel like one process deadlocking with itself (POSIX ``lockf`` locks did: a
    false EDEADLK refused 0.9% of concurrent writes). A waiting holder is woken as soon as
    the byte is free, and the kernel frees it if the holder dies.

    The file is opened without following a symlink and used only if it is a regular file of
    this user that no one else can write (another user cannot plant one to freeze a game);
    where no such file can be had (an in-memory database, a read-only directory), a write that
    lost a race to another process is still refused by the store (``expected_seq``), never
    lost or doubled."""

    def __init__(self, db: str) -> None:
        self.path: str | None = None
        if db == ":memory:" or not AVAILABLE:
            return
        path = lock_file(db)
        try:
            fd = open_private(path, create=True)
        except OSError:
            return
        os.close(fd)
        self.path = path

    @contextmanager
    def hold(self, gid: int, write: bool) -> Iterator[None]:
        if not write or self.path is None:
            yield
            return
        try:
            fd = open_private(self.path)
        except OSError:  # (removed or replaced since: the store's expected_seq still holds)
            yield
            return
        try:
            lock_byte(fd, gid)
            yield
        finally:
            os.close(fd)  # (closing the description releases its lock)


def _lookup(st: Store, name: str) -> GameInfo:
    """A game's id and name (without :meth:`Store.game`'s count of its events, which grows
    with the log)."""
    row = st.db.execute(
        "SELECT id, name, ruleset, created FROM games WHERE name=?", (name,)
    ).fetchone()
    if row is None:
        raise GameError(f"no game named {name!r}")
    return GameInfo(*row)


def _last_seq(st: Store, gid: int) -> int:
    row = st.db.execute("SELECT MAX(seq) FROM events WHERE game_id=?", (gid,)).fetchone()
    return int(row[0] or 0)


def raise_changed(name: str) -> None:
    raise GameError(f"game {name!r} changed while it was opened; reload and try again")
