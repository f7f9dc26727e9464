"""Game sessions for the web app: one SQLite connection per worker thread, and games kept in
memory between requests, each behind its own reader/writer lock: one request at a time writes
to a game (an action, an undo), while any number read it (pages, odds, the log) when none writes.

Games are cached by their id, never by their name: every request looks the name up in the store
(so a rename from the CLI, or a new game given an old name, is seen at once), then uses the
cached game of that id only if its log has not grown meanwhile."""

from __future__ import annotations

import os
import stat
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from vedette.engine import Game, Store

try:
    import fcntl
except ImportError:  # not a POSIX system: the store's expected_seq still guards every write
    fcntl = None  # type: ignore[assignment]
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
            st = Store(self.db)
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
    at the game's id in a file beside the database (``<db>.writers``).

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
        if db == ":memory:" or fcntl is None:
            return
        path = db + ".writers"
        try:
            fd = self._open(path, create=True)
        except OSError:
            return
        os.close(fd)
        self.path = path

    @staticmethod
    def _open(path: str, create: bool = False) -> int:
        flags = os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC | (os.O_CREAT if create else 0)
        fd = os.open(path, flags, 0o600)
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
            os.close(fd)
            raise PermissionError(f"{path} is not a private lock file of this user")
        return fd

    @contextmanager
    def hold(self, gid: int, write: bool) -> Iterator[None]:
        if not write or self.path is None or fcntl is None:
            yield
            return
        try:
            fd = self._open(self.path)
        except OSError:  # (removed or replaced since: the store's expected_seq still holds)
            yield
            return
        try:
            _lock(fd, gid, True)
            yield
        finally:
            os.close(fd)  # (closing the description releases its lock)


_OFD = getattr(fcntl, "F_OFD_SETLKW", None) if fcntl is not None else None


def _lock(fd: int, gid: int, wait: bool) -> None:
    """Lock byte ``gid`` of the file for the open file description ``fd``."""
    assert fcntl is not None
    if _OFD is not None:
        # struct flock: l_type, l_whence, l_start, l_len, l_pid (0 for an OFD lock)
        arg = struct.pack("hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, gid, 1, 0)
        fcntl.fcntl(fd, _OFD, arg)
    else:  # pragma: no cover - no OFD locks: the whole file, per description
        fcntl.flock(fd, fcntl.LOCK_EX)


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
