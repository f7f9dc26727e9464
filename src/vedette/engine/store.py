"""The event store: an append-only, ``(game_id, seq)``-keyed log in SQLite (WAL).

Every append is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``) with ``synchronous=FULL``:
when ``append`` returns, the event is on disk; a process killed at any moment loses no
acknowledged event and leaves a database that opens clean (SQLite's WAL guarantees it).
Nothing is ever updated or deleted in ``events``; a game's name is metadata and may change.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from vedette.data.limits import hidden_char, hidden_problem
from vedette.engine.locks import hold_database
from vedette.errors import GameError, VedetteError

SCHEMA_VERSION = 1  # the version of a stored record's envelope (seq, kind, payload)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games(
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    ruleset TEXT NOT NULL,
    created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events(
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    version INTEGER NOT NULL,
    payload TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS settings(
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
"""


#: The store's migration ladder: rung N brings a database from ``PRAGMA user_version`` N-1 to
#: N. Rung 1 is the original schema (idempotent, so a database made before the ladder existed,
#: at user_version 0, climbs it safely). Never edit a rung; add one.
MIGRATIONS: tuple[str, ...] = (
    _SCHEMA,
    # 2: state snapshots, a cache of the fold every K events (never the truth: the log is)
    """
    CREATE TABLE IF NOT EXISTS snapshots(
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        model INTEGER NOT NULL,
        state BLOB NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    """,
    # 3: a whole game may be deleted (the web app's delete, asked for by name): its events are
    # deleted only while the game is listed in ``deleting``, inside that one transaction; the log
    # of a game in play stays append-only
    """
    CREATE TABLE IF NOT EXISTS deleting(game_id INTEGER PRIMARY KEY);
    DROP TRIGGER IF EXISTS events_append_only_delete;
    CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
    WHEN OLD.game_id NOT IN (SELECT game_id FROM deleting)
    BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
    """,
    # 4: balance studies' results (vedette simulate; the web app's /simulations)
    """
    CREATE TABLE IF NOT EXISTS simulations(
        id INTEGER PRIMARY KEY,
        ruleset TEXT NOT NULL,
        title TEXT NOT NULL,
        created TEXT NOT NULL,
        result TEXT NOT NULL
    );
    """,
    # 5: the log's index (a cache derived from the log, rebuilt if missing): for each record,
    # the action then in force on top, the one beneath an action, the dice high-water mark and
    # whether an action was undone (by which undo); snapshots carry the dice book (reservations)
    """
    CREATE TABLE IF NOT EXISTS log_index(
        game_id INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        action INTEGER NOT NULL,
        top INTEGER NOT NULL,
        below INTEGER NOT NULL,
        high INTEGER NOT NULL,
        undone INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    CREATE INDEX IF NOT EXISTS log_index_actions ON log_index(game_id, action, undone, seq);
    CREATE TABLE IF NOT EXISTS log_index_rows(
        game_id INTEGER PRIMARY KEY,
        n INTEGER NOT NULL
    );
    CREATE TRIGGER IF NOT EXISTS log_index_counted AFTER INSERT ON log_index
    BEGIN
        INSERT INTO log_index_rows(game_id, n) VALUES (NEW.game_id, 1)
        ON CONFLICT(game_id) DO UPDATE SET n = n + 1;
    END;
    CREATE TRIGGER IF NOT EXISTS log_index_uncounted AFTER DELETE ON log_index
    BEGIN
        UPDATE log_index_rows SET n = n - 1 WHERE game_id = OLD.game_id;
    END;
    ALTER TABLE snapshots ADD COLUMN book TEXT NOT NULL DEFAULT '';
    """,
    # 6: the player's own scenarios (the web app's builder, `vedette RULESET scenarios
    # --import`): per ruleset and name, the data as JSON and the description (engine/scenarios.py)
    """
    CREATE TABLE IF NOT EXISTS scenarios(
        ruleset TEXT NOT NULL,
        name TEXT NOT NULL,
        title TEXT NOT NULL,
        description TEXT NOT NULL,
        data TEXT NOT NULL,
        created TEXT NOT NULL,
        updated TEXT NOT NULL,
        PRIMARY KEY (ruleset, name)
    ) WITHOUT ROWID;
    """,
)
STORE_VERSION = len(MIGRATIONS)


def migrate(db: sqlite3.Connection, path: str) -> int:
    """Climb the ladder from the database's version to :data:`STORE_VERSION`, in one write
    transaction that reads the version again once it holds the lock: two processes opening a
    new database together climb it once (the second finds it climbed). Each rung is also
    idempotent (a column is added only if missing)."""
    have = _version(db, path)
    if have == STORE_VERSION:
        return STORE_VERSION  # (nothing to write: a read-only database opens)
    db.execute("BEGIN IMMEDIATE")
    try:
        have = _version(db, path)
        for n in range(have, STORE_VERSION):
            for stmt in _statements(MIGRATIONS[n]):
                if not _done(db, stmt):
                    db.execute(stmt)
            db.execute(f"PRAGMA user_version={n + 1}")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return STORE_VERSION


def _wal(db: sqlite3.Connection, path: str, tries: int = 500) -> None:
    """Put the connection in WAL mode (a database vedette creates is in WAL from the start,
    see :func:`_create_ready`; an empty file or an older database may not be). Changing the
    mode needs the other connections out of the file, and SQLite answers "database is locked"
    at once (its busy timeout does not apply) or the mode it stays in: so ask again until the
    answer is ``wal``."""
    if path == ":memory:":
        db.execute("PRAGMA journal_mode=WAL")
        return
    mode = "?"
    for _ in range(tries):
        try:
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        except sqlite3.OperationalError as e:  # (busy: no busy timeout for this pragma)
            if "locked" not in str(e) and "busy" not in str(e):
                raise
        else:
            if str(mode).lower() == "wal":
                return
        time.sleep(0.01)
    raise GameError(f"cannot open game database {path}: it stays in {mode} journal mode")


def _version(db: sqlite3.Connection, path: str) -> int:
    have = int(db.execute("PRAGMA user_version").fetchone()[0])
    if have > STORE_VERSION:
        raise GameError(
            f"game database {path} was written by a newer vedette (store version {have};"
            f" this release reads up to {STORE_VERSION})"
        )
    return have


_ADD_COLUMN = re.compile(r"ALTER\s+TABLE\s+(\w+)\s+ADD\s+COLUMN\s+(\w+)", re.I)


def _done(db: sqlite3.Connection, stmt: str) -> bool:
    """A rung's statement already applied (``ALTER TABLE ... ADD COLUMN`` of a column that is
    there: the only statement of the ladder that is not idempotent by itself)."""
    m = _ADD_COLUMN.match(stmt.strip())
    if m is None:
        return False
    cols = {r[1] for r in db.execute(f"PRAGMA table_info({m.group(1)})")}
    return m.group(2) in cols


def _statements(script: str) -> list[str]:
    """Split a migration script into statements (triggers keep their inner semicolons)."""
    out: list[str] = []
    buf = ""
    for part in script.split(";"):
        buf += part + ";"
        if sqlite3.complete_statement(buf):
            if buf.strip(" \n;"):
                out.append(buf.strip())
            buf = ""
    return out


@dataclass(frozen=True, slots=True)
class Record:
    """One stored event of a game's log."""

    seq: int
    kind: str
    payload: Mapping[str, Any]
    at: str = ""
    version: int = 1

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "kind": self.kind,
            "version": self.version,
            "at": self.at,
            "payload": dict(self.payload),
        }


@dataclass(frozen=True, slots=True)
class IndexRow:
    """A record's row of the log index (derived from the log)."""

    seq: int
    action: bool  # the record is an action
    top: int  # the action in force on top after this record (0: none)
    below: int  # an action: the action in force beneath it (0: none)
    high: int  # the dice stream's high-water mark after this record
    undone: int = 0  # an action: the seq of the undo that took it back (0: in force)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A cached state after record ``seq`` (``state`` '' when the state cannot be
    snapshotted) and the dice book there (JSON)."""

    seq: int
    model: int
    state: str
    book: str


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: int
    name: str
    ruleset: str
    created: str
    events: int = 0


#: characters a game name may not hold: it must travel in a URL path segment, a shell line and a
#: file name unchanged
_BAD_NAME = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff/\\?#%<>\"'`]")
MAX_NAME = 100


def check_game_name(name: object) -> str:
    """A game's name: 1-100 characters, no slash, backslash, ``? # %``, quotes, angle brackets
    or control characters, nothing invisible or reordering (a zero-width space, a direction
    override: ``limits.hidden_char``), no space at either end, not ``.`` or ``..``."""
    if not isinstance(name, str) or not name.strip():
        raise GameError("a game needs a name")
    if name != name.strip():
        raise GameError(f"game name {name!r}: no spaces at either end")
    if len(name) > MAX_NAME:
        raise GameError(f"game name too long ({len(name)} characters; at most {MAX_NAME})")
    bad = _BAD_NAME.search(name)
    if bad:
        raise GameError(
            f"game name {name!r}: {bad.group()!r} is not allowed"
            " (no / \\ ? # % < > quotes or control characters)"
        )
    if name in (".", ".."):
        raise GameError(f"game name {name!r} is not allowed")
    hidden = hidden_char(name)
    if hidden:  # (a zero-width space, a direction override: a name that looks like another)
        raise GameError(
            f"game name {name!r} {hidden_problem(hidden)}: a name is typed as it is shown"
        )
    return name


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Store:
    """SQLite event store. ``path=":memory:"`` for an in-memory store.

    ``queued``: a server process's store (``vedette serve``, which makes the database's lock
    file): its write transactions queue with those of the other server processes on a byte of
    the lock file (see :class:`_Tx`)."""

    def __init__(
        self, path: str | os.PathLike[str], synchronous: str = "FULL", queued: bool = False
    ) -> None:
        self.path = os.fspath(path)
        self.thread = threading.get_ident()  # the thread that may use this connection
        self._writers = _writer_lock(self.path)  # shared by this process's writers of the file
        self.queued = queued
        #: opened read-only (a read-only file or directory): games can be listed, shown and
        #: exported; a write is refused in one line
        self.readonly = False
        self._why_readonly = "it is read-only"
        if self.path != ":memory:":
            try:
                os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
                _create_ready(self.path)
            except OSError as e:
                if not os.path.exists(self.path):
                    why = _why(e, self.path)
                    raise GameError(f"cannot create game database {self.path}: {why}") from None
        try:
            self.db = self._connect(synchronous)
        except sqlite3.DatabaseError as e:
            if self.path == ":memory:" or not os.path.exists(self.path):
                raise GameError(f"cannot open game database {self.path}: {e}") from None
            try:  # a read-only directory or file (or a full disk): read it as it is
                self.db = self._connect_readonly()
                self._why_readonly = _why(e, self.path)
            except sqlite3.DatabaseError:
                raise GameError(f"cannot open game database {self.path}: {e}") from None

    def _connect(self, synchronous: str) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, timeout=30.0)
        try:
            if self.path == ":memory:":
                _fresh_memory(db)
            _wal(db, self.path)
            db.execute(f"PRAGMA synchronous={synchronous}")
            db.execute("PRAGMA foreign_keys=ON")
            migrate(db, self.path)
        except BaseException:
            db.close()
            raise
        return db

    def _connect_readonly(self) -> sqlite3.Connection:
        from urllib.parse import quote

        uri = f"file:{quote(os.path.abspath(self.path))}?mode=ro"
        try:
            db = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30.0)
            _version(db, self.path)
        except sqlite3.DatabaseError:
            # a WAL database in a directory where its -shm file cannot be made: nobody can
            # write there either, so it is read as an immutable file
            db = sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None)
        if _version(db, self.path) != STORE_VERSION:
            db.close()
            raise sqlite3.DatabaseError("read-only and written by an older vedette")
        self.readonly = True
        return db

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def reading(self) -> Iterator[None]:
        """One read transaction: everything read inside sees the database at one moment (a
        writer committing meanwhile is not seen), so a game is never read half old, half new."""
        if self.db.in_transaction:
            yield
            return
        self.db.execute("BEGIN")
        try:
            yield
        finally:
            if self.db.in_transaction:
                self.db.execute("COMMIT")

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- games --------------------------------------------------------------------------
    def create_game(self, name: str, ruleset: str, first: Mapping[str, Any]) -> int:
        """Create a game and its first event (``created``) in one transaction."""
        check_game_name(name)
        at = now()
        with self._tx():
            try:
                cur = self.db.execute(
                    "INSERT INTO games(name, ruleset, created) VALUES (?,?,?)", (name, ruleset, at)
                )
            except sqlite3.IntegrityError:
                raise GameError(f"a game named {name!r} already exists") from None
            gid = cur.lastrowid
            assert gid is not None
            self._clear_derived(gid)
            self.db.execute("DELETE FROM settings WHERE key=?", (f"history:{gid}",))
            self.db.execute(
                "INSERT INTO events(game_id, seq, kind, version, payload, at) VALUES (?,?,?,?,?,?)",
                (gid, 1, "created", SCHEMA_VERSION, json.dumps(first), at),
            )
        return gid

    def game(self, name: str) -> GameInfo:
        row = self.db.execute(
            "SELECT g.id, g.name, g.ruleset, g.created, "
            "(SELECT COALESCE(MAX(seq), 0) FROM events e WHERE e.game_id = g.id) FROM games g"
            " WHERE g.name=?",
            (name,),
        ).fetchone()
        if row is None:
            raise GameError(f"no game named {name!r}")
        return GameInfo(*row)

    def games(self) -> list[GameInfo]:
        rows = self.db.execute(
            "SELECT g.id, g.name, g.ruleset, g.created, "
            "(SELECT COALESCE(MAX(seq), 0) FROM events e WHERE e.game_id = g.id) FROM games g"
            " ORDER BY g.id"
        ).fetchall()
        return [GameInfo(*r) for r in rows]

    def rename(self, old: str, new: str) -> None:
        info = self.game(old)
        check_game_name(new)
        with self._tx():
            try:
                self.db.execute("UPDATE games SET name=? WHERE id=?", (new, info.id))
            except sqlite3.IntegrityError:
                raise GameError(f"a game named {new!r} already exists") from None
            # the command line's current game follows it, whoever renames it (the web app
            # too): its commands never act on another game later given the old name
            self.db.execute(
                "UPDATE settings SET value=? WHERE key='current_game' AND value=?", (new, old)
            )

    def delete(self, name: str) -> None:
        """Delete a game and its whole log (the web app's delete; export it first to keep it)."""
        info = self.game(name)
        with self._tx():
            self.db.execute("INSERT OR IGNORE INTO deleting(game_id) VALUES (?)", (info.id,))
            self.db.execute("DELETE FROM snapshots WHERE game_id=?", (info.id,))
            self.db.execute("DELETE FROM log_index WHERE game_id=?", (info.id,))
            self.db.execute("DELETE FROM log_index_rows WHERE game_id=?", (info.id,))
            self.db.execute("DELETE FROM events WHERE game_id=?", (info.id,))
            self.db.execute("DELETE FROM games WHERE id=?", (info.id,))
            self.db.execute("DELETE FROM deleting WHERE game_id=?", (info.id,))
            self.db.execute("DELETE FROM settings WHERE key=?", (f"history:{info.id}",))
            # no current game now (not another game later given its name)
            self.db.execute(
                "DELETE FROM settings WHERE key='current_game' AND value=?", (info.name,)
            )

    # -- events -------------------------------------------------------------------------
    def append(
        self,
        game_id: int,
        expected_seq: int,
        kind: str,
        payload: Mapping[str, Any],
        index: IndexRow | None = None,
        snapshot: Snapshot | None = None,
    ) -> Record:
        """Append one event as ``expected_seq``; fails if another writer got there first.

        ``index`` is the record's row of the log index (an undo row marks the action it undoes),
        ``snapshot`` a state snapshot after it: both are caches, written in the same
        transaction as the event."""
        at = now()
        text = json.dumps(payload)
        with self._tx():
            last = self.last_seq(game_id)
            if last + 1 != expected_seq:
                raise GameError(
                    f"the game changed while this action was prepared (at event {last}, expected"
                    f" {expected_seq - 1}); reload and try again"
                )
            self.db.execute(
                "INSERT INTO events(game_id, seq, kind, version, payload, at) VALUES (?,?,?,?,?,?)",
                (game_id, expected_seq, kind, SCHEMA_VERSION, text, at),
            )
            if index is not None:
                self._put_index(game_id, [index])
                if kind == "undo" and not index.action:
                    self.db.execute(
                        "UPDATE log_index SET undone=? WHERE game_id=? AND seq=?",
                        (expected_seq, game_id, int(payload["undoes"])),
                    )
            if snapshot is not None:
                self._put_snapshot(game_id, snapshot)
        return Record(expected_seq, kind, payload, at, SCHEMA_VERSION)

    def last_seq(self, game_id: int) -> int:
        row = self.db.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id=?", (game_id,)
        ).fetchone()
        return int(row[0])

    def records(self, game_id: int, after: int = 0, upto: int | None = None) -> list[Record]:
        """The records with ``after < seq <= upto`` (to the end if ``upto`` is None)."""
        rows = self.db.execute(
            "SELECT seq, kind, payload, at, version FROM events WHERE game_id=? AND seq>? "
            "AND seq<=? ORDER BY seq",
            (game_id, after, upto if upto is not None else 2**62),
        ).fetchall()
        return [Record(s, k, json.loads(p), a, v) for s, k, p, a, v in rows]

    # -- the log index (derived; rebuilt from the log when incomplete) -------------------
    def _clear_derived(self, game_id: int) -> None:
        """Drop cached rows a deleted game of the same id may have left."""
        self.db.execute("DELETE FROM log_index WHERE game_id=?", (game_id,))
        self.db.execute("DELETE FROM snapshots WHERE game_id=?", (game_id,))

    def _put_index(self, game_id: int, rows: Sequence[IndexRow]) -> None:
        self.db.executemany(
            "INSERT OR REPLACE INTO log_index(game_id, seq, action, top, below, high, undone)"
            " VALUES (?,?,?,?,?,?,?)",
            [(game_id, r.seq, int(r.action), r.top, r.below, r.high, r.undone) for r in rows],
        )

    def rebuild_index(self, game_id: int, rows: Sequence[IndexRow]) -> None:
        """Replace a game's whole index (and drop its snapshots: they were made without it)."""
        with self._tx():
            if self.last_seq(game_id) != len(rows):
                return  # (the log grew since it was read: the next open reads it again)
            self.db.execute("DELETE FROM log_index WHERE game_id=?", (game_id,))
            self._put_index(game_id, rows)

    def index_count(self, game_id: int) -> int:
        """How many index rows the game has, if they run 1..n without a gap (else -1): kept
        by triggers, so the check costs the same at any length of log."""
        row = self.db.execute(
            "SELECT (SELECT n FROM log_index_rows WHERE game_id=?1),"
            " (SELECT COALESCE(MAX(seq), 0) FROM log_index WHERE game_id=?1)",
            (game_id,),
        ).fetchone()
        return int(row[0]) if row[0] is not None and row[0] == row[1] else -1

    def index_rows(self, game_id: int, after: int = 0) -> list[IndexRow]:
        rows = self.db.execute(
            "SELECT seq, action, top, below, high, undone FROM log_index"
            " WHERE game_id=? AND seq>? ORDER BY seq",
            (game_id, after),
        ).fetchall()
        return [IndexRow(s, bool(a), t, b, h, u) for s, a, t, b, h, u in rows]

    def index_row(self, game_id: int, seq: int) -> IndexRow | None:
        row = self.db.execute(
            "SELECT seq, action, top, below, high, undone FROM log_index WHERE game_id=? AND seq=?",
            (game_id, seq),
        ).fetchone()
        return None if row is None else IndexRow(row[0], bool(row[1]), *row[2:])

    def in_force(self, game_id: int, after: int = 0) -> list[int]:
        """The seqs of the actions in force (not undone) after ``after``, in order."""
        rows = self.db.execute(
            "SELECT seq FROM log_index WHERE game_id=? AND action=1 AND undone=0 AND seq>?"
            " ORDER BY seq",
            (game_id, after),
        ).fetchall()
        return [int(r[0]) for r in rows]

    # -- snapshots (a cache of the fold; never the truth) --------------------------------
    def _put_snapshot(self, game_id: int, snap: Snapshot) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO snapshots(game_id, seq, model, state, book) VALUES (?,?,?,?,?)",
            (game_id, snap.seq, snap.model, snap.state, snap.book),
        )

    def put_snapshot(self, game_id: int, snap: Snapshot) -> None:
        with self._tx():
            self._put_snapshot(game_id, snap)

    def snapshot_bases(self, game_id: int, model: int) -> Iterator[tuple[int, int, int]]:
        """(seq, the action on top there, whether that action is undone now) of every
        snapshot of the given model holding a state, latest first (read a page at a time)."""
        before = 2**62
        while True:
            rows = self.db.execute(
                "SELECT s.seq, i.top, COALESCE(t.undone, 0) FROM snapshots s"
                " JOIN log_index i ON i.game_id=s.game_id AND i.seq=s.seq"
                " LEFT JOIN log_index t ON t.game_id=s.game_id AND t.seq=i.top"
                " WHERE s.game_id=? AND s.model=? AND s.state<>'' AND s.seq<?"
                " ORDER BY s.seq DESC LIMIT 16",
                (game_id, model, before),
            ).fetchall()
            for a, b, c in rows:
                yield int(a), int(b), int(c)
            if len(rows) < 16:
                return
            before = int(rows[-1][0])

    def snapshot_state(self, game_id: int, seq: int) -> str | None:
        row = self.db.execute(
            "SELECT state FROM snapshots WHERE game_id=? AND seq=?", (game_id, seq)
        ).fetchone()
        return None if row is None else str(row[0])

    def latest_book(self, game_id: int) -> tuple[int, str] | None:
        """The latest snapshot's dice book: (seq, JSON)."""
        row = self.db.execute(
            "SELECT seq, book FROM snapshots WHERE game_id=? AND book<>'' ORDER BY seq DESC"
            " LIMIT 1",
            (game_id,),
        ).fetchone()
        return None if row is None else (int(row[0]), str(row[1]))

    def latest_snapshot_seq(self, game_id: int) -> int:
        row = self.db.execute(
            "SELECT COALESCE(MAX(seq), 0) FROM snapshots WHERE game_id=?", (game_id,)
        ).fetchone()
        return int(row[0])

    def import_game(self, name: str, ruleset: str, records: list[Record], note: str = "") -> int:
        """Store a whole imported log in one transaction (``note``: kept with the game, see
        :meth:`note`)."""
        check_game_name(name)
        with self._tx():
            try:
                cur = self.db.execute(
                    "INSERT INTO games(name, ruleset, created) VALUES (?,?,?)",
                    (name, ruleset, records[0].at or now()),
                )
            except sqlite3.IntegrityError:
                raise GameError(f"a game named {name!r} already exists") from None
            gid = cur.lastrowid
            assert gid is not None
            self._clear_derived(gid)
            self.db.executemany(
                "INSERT INTO events(game_id, seq, kind, version, payload, at) VALUES (?,?,?,?,?,?)",
                [
                    (gid, r.seq, r.kind, r.version, json.dumps(dict(r.payload)), r.at or now())
                    for r in records
                ],
            )
            self.db.execute("DELETE FROM settings WHERE key=?", (f"history:{gid}",))
            if note:
                self.db.execute(
                    "INSERT INTO settings(key, value) VALUES (?,?)", (f"history:{gid}", note)
                )
        assert gid is not None
        return gid

    def note(self, game_id: int) -> str:
        """What an import found about a game's history ('' for none: see Game.history)."""
        return self.get_setting(f"history:{game_id}") or ""

    # -- balance studies ----------------------------------------------------------------
    def add_simulation(self, ruleset: str, title: str, result: Mapping[str, Any]) -> int:
        """Keep a study's result document (``vedette simulate``); its id."""
        with self._tx():
            cur = self.db.execute(
                "INSERT INTO simulations(ruleset, title, created, result) VALUES (?,?,?,?)",
                (ruleset, title, now(), json.dumps(result)),
            )
        assert cur.lastrowid is not None
        return int(cur.lastrowid)

    def simulations(self) -> list[tuple[int, str, str, str]]:
        """(id, ruleset, title, created) of every kept study, newest first."""
        rows = self.db.execute(
            "SELECT id, ruleset, title, created FROM simulations ORDER BY id DESC"
        ).fetchall()
        return [(int(i), str(r), str(t), str(c)) for i, r, t, c in rows]

    def simulation(self, sid: int) -> dict[str, Any]:
        if not 0 < sid < 2**62:
            raise GameError("no simulation with that id")
        row = self.db.execute("SELECT result FROM simulations WHERE id=?", (sid,)).fetchone()
        if row is None:
            raise GameError(f"no simulation {sid}")
        return dict(json.loads(row[0]))

    # -- settings -----------------------------------------------------------------------
    def get_setting(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM settings WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str) -> None:
        with self._tx():
            self.db.execute(
                "INSERT INTO settings(key, value) VALUES (?,?) "
                "ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                (key, value),
            )

    def claim_setting(self, key: str, value: str) -> str | None:
        """``key`` set to ``value`` unless it is set: None if this call set it, else its value
        (one writer wins: the web's new-game form sent twice makes one game)."""
        with self._tx():
            cur = self.db.execute(
                "INSERT OR IGNORE INTO settings(key, value) VALUES (?,?)", (key, value)
            )
            if cur.rowcount:
                return None
            row = self.db.execute("SELECT value FROM settings WHERE key=?", (key,)).fetchone()
        return str(row[0])

    def delete_setting(self, key: str) -> None:
        with self._tx():
            self.db.execute("DELETE FROM settings WHERE key=?", (key,))

    def drop_settings(self, prefix: str, keep: int = 0) -> None:
        """The settings whose key starts with ``prefix`` deleted, but the ``keep`` newest."""
        like = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        with self._tx():
            self.db.execute(
                "DELETE FROM settings WHERE key LIKE ? ESCAPE '\\' AND rowid NOT IN (SELECT"
                " rowid FROM settings WHERE key LIKE ? ESCAPE '\\' ORDER BY rowid DESC LIMIT ?)",
                (like, like, keep),
            )

    def integrity_ok(self) -> bool:
        return bool(self.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok")

    def _tx(self) -> _Tx:
        if self.readonly:
            raise StorageError(
                f"cannot write to game database {self.path}: {self._why_readonly};"
                " nothing was written (the games are as they were)"
            )
        return _Tx(self.db, self._writers, self.path, self.queued)


#: one lock per database file for the writers of this process (see :class:`_Tx`)
_WRITERS: dict[str, threading.RLock] = {}
_WRITERS_GUARD = threading.Lock()


def _writer_lock(path: str) -> threading.RLock:
    if path == ":memory:":
        return threading.RLock()  # a connection of its own: nothing to share
    key = os.path.realpath(path)
    with _WRITERS_GUARD:
        lock = _WRITERS.get(key)
        if lock is None:
            lock = _WRITERS[key] = threading.RLock()
        return lock


class StorageError(GameError):
    """The database could not be written (disk full, read-only, an I/O error): nothing was
    written, nothing was lost."""

    exit_code = 1


def _full(path: str) -> bool:
    """The file system of ``path`` has (next to) no room left."""
    if not path or path == ":memory:":
        return False
    try:
        import shutil  # start-up time: only on a write error

        return shutil.disk_usage(os.path.dirname(os.path.abspath(path))).free < 64 * 1024
    except OSError:
        return False


def _why(e: BaseException, path: str = "") -> str:
    """What failed, in words (a SQLite or OS error; ``path``: the database, whose disk is
    looked at when SQLite says only "disk I/O error")."""
    text = str(e)
    errno_ = getattr(e, "errno", None)
    code = getattr(e, "sqlite_errorcode", None)
    if errno_ == errno.ENOSPC or code == sqlite3.SQLITE_FULL or "disk is full" in text:
        return "the disk is full"
    if errno_ in (errno.EROFS, errno.EACCES, errno.EPERM) or "readonly" in text:
        return (
            "it is read-only"
            if "readonly" in text or errno_ == errno.EROFS
            else ("permission denied")
        )
    if code == sqlite3.SQLITE_IOERR or "disk I/O error" in text or errno_ == errno.EIO:
        # (SQLite says "disk I/O error" when a full disk refuses its -wal or -shm file)
        return "the disk is full" if _full(path) else "an I/O error (the disk may be full)"
    return text.splitlines()[0] if text else type(e).__name__


def _create_private(path: str) -> None:
    """Create the database file, if missing, readable by its owner only (0600; SQLite gives
    its -wal and -shm files the same mode); never through a symlink."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except FileExistsError:
        return
    os.close(fd)


#: the file of a new database as :func:`_create_ready` sets it up (every rung of the ladder, in
#: WAL, checkpointed and closed): the same bytes for every new database, so a process that makes
#: several (the web app's tests, a test suite) climbs the ladder once and copies the file after
_NEW_IMAGE: list[bytes] = []


#: the same for an in-memory database (a scratch store: the referee's, the simulator's)
_MEMORY_IMAGE: list[bytes] = []


def _fresh_memory(db: sqlite3.Connection) -> None:
    """The new in-memory database ``db`` made the one the ladder leaves, copied from the first
    one this process set up (``migrate`` then finds nothing to climb)."""
    if not _MEMORY_IMAGE:
        first = sqlite3.connect(":memory:", isolation_level=None)
        try:
            migrate(first, ":memory:")
            _MEMORY_IMAGE.append(first.serialize())
        finally:
            first.close()
    db.deserialize(_MEMORY_IMAGE[0])


def _write_synced(path: str, data: bytes) -> None:
    """``data`` written to the (new, empty, private) file ``path`` and synced to disk."""
    fd = os.open(path, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def _create_ready(path: str) -> None:
    """Create a missing database whole: set up (WAL, every rung of the ladder) in a private
    file of its own, then linked to its name in one step; a process that finds the name
    taken uses the database already there.

    Issue 25: when several processes opened a new, empty file at once, one could meet another
    in the middle of turning it to WAL, and SQLite then answers "database is locked" at once
    (its busy timeout does not apply to a change of journal mode), or leaves a connection in
    the old mode, whose commit waits for a lock WAL readers never give up. A database that
    only ever appears set up has no such moment."""
    if os.path.lexists(path):
        return
    folder, base = os.path.split(os.path.abspath(path))
    import secrets  # start-up time: only when a new database is made

    tmp = os.path.join(folder, f".{base}.new-{os.getpid()}-{secrets.token_hex(6)}")
    _create_private(tmp)
    try:
        if _NEW_IMAGE:
            _write_synced(tmp, _NEW_IMAGE[0])
        else:
            db = sqlite3.connect(tmp, isolation_level=None)
            try:
                migrate(db, path)
                db.execute("PRAGMA journal_mode=WAL")
                busy = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            finally:
                db.close()
            if busy:  # (nobody else knows the file: cannot happen; the old way then)
                _create_private(path)
                return
            with open(tmp, "rb") as made:
                _NEW_IMAGE.append(made.read())
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass  # another process made it first: that one is used
        except OSError:  # a file system without hard links: the old way
            _create_private(path)
        else:
            _sync_folder(folder)  # (the new name survives a crash once a game is written)
    finally:
        for f in (tmp, f"{tmp}-wal", f"{tmp}-shm", f"{tmp}-journal"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(f)


def _sync_folder(folder: str) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class _Tx:
    """One write transaction. The threads of one process that write to the same file queue on
    a lock of the process before ``BEGIN IMMEDIATE``, and the server processes that share it
    (``vedette serve --workers N``; ``queued``) on a byte lock of its lock file
    (:func:`~vedette.engine.locks.hold_database`). SQLite makes a writer that finds the
    database locked sleep and retry (1, 2, 5, 10 ... 100 ms between tries), so under many
    writers a write waited far longer than the write it waited for, and a process could lose
    the race for seconds (bench/bench_web.py, two processes); a thread or process waiting on
    these locks is woken as soon as the write before it ends. Another writer of the file (a
    CLI beside a server) still meets SQLite's own lock and its busy timeout: a CLI stopped in
    the middle of a write (Ctrl-Z) never holds a server's writers longer than that timeout.
    A write the disk refuses (full, read-only, I/O error) is rolled back and raised as one
    line (:class:`StorageError`)."""

    def __init__(
        self, db: sqlite3.Connection, lock: threading.RLock, path: str = "", queued: bool = False
    ) -> None:
        self.db = db
        self.lock = lock
        self.path = path
        self.queued = queued
        self.held: int | None = None  # the descriptor holding the processes' lock

    def _refused(self, e: BaseException) -> StorageError:
        return StorageError(
            f"cannot write to game database {self.path}: {_why(e, self.path)};"
            " nothing was written (the games are as they were)"
        )

    def __enter__(self) -> None:
        self.lock.acquire()
        try:
            if self.queued and not self.db.in_transaction:  # (nested: the outer one holds it)
                self.held = hold_database(self.path)
            self.db.execute("BEGIN IMMEDIATE")
        except (sqlite3.OperationalError, OSError) as e:
            self._release()
            if "locked" in str(e) or "busy" in str(e):
                raise
            raise self._refused(e) from None
        except BaseException:
            self._release()
            raise

    def _release(self) -> None:
        try:
            if self.held is not None:
                os.close(self.held)  # (closing the description lets the byte go)
                self.held = None
        finally:
            self.lock.release()

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            if exc_type is None:
                try:
                    self.db.execute("COMMIT")
                except (sqlite3.OperationalError, OSError) as e:
                    self._rollback()
                    raise self._refused(e) from None
            else:
                self._rollback()
                if isinstance(exc, sqlite3.OperationalError | OSError) and not isinstance(
                    exc, VedetteError
                ):
                    raise self._refused(exc) from None
        finally:
            self._release()

    def _rollback(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")


def iter_jsonl(text: str) -> Iterator[dict[str, Any]]:
    """The JSON objects of a game export's lines; a key given twice in one object is refused
    (JSON alone keeps the last one silently: a file that says two things is not read as one of
    them, as the web API refuses such a body)."""
    for i, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                obj = json.loads(line, object_pairs_hook=_once_each)
            except _GivenTwice as e:
                raise GameError(f"line {i}: key {str(e)[:40]!r} given twice") from None
            except json.JSONDecodeError as e:
                raise GameError(f"line {i} is not JSON: {e.msg}") from None
            except ValueError:  # (an integer of thousands of digits)
                raise GameError(f"line {i} holds a number of too many digits") from None
            except RecursionError:
                raise GameError(f"line {i} is nested too deeply") from None
            if not isinstance(obj, dict):
                raise GameError(f"line {i} is not a JSON object")
            yield obj


class _GivenTwice(Exception):
    """A key given twice in one JSON object (its text)."""


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for k, _ in pairs:
            if k in seen:
                raise _GivenTwice(k)
            seen.add(k)
    return out
