"""The event store: an append-only, ``(game_id, seq)``-keyed log in SQLite (WAL).

Every append is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``) with ``synchronous=FULL``:
when ``append`` returns, the event is on disk; a process killed at any moment loses no
acknowledged event and leaves a database that opens clean (SQLite's WAL guarantees it).
Nothing is ever updated or deleted in ``events``; a game's name is metadata and may change.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from vedette.errors import GameError

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
)
STORE_VERSION = len(MIGRATIONS)


def migrate(db: sqlite3.Connection, path: str) -> int:
    """Climb the ladder from the database's version to :data:`STORE_VERSION`."""
    have = int(db.execute("PRAGMA user_version").fetchone()[0])
    if have > STORE_VERSION:
        raise GameError(
            f"game database {path} was written by a newer vedette (store version {have};"
            f" this release reads up to {STORE_VERSION})"
        )
    for n in range(have, STORE_VERSION):
        db.execute("BEGIN IMMEDIATE")
        try:
            for stmt in _statements(MIGRATIONS[n]):
                db.execute(stmt)
            db.execute(f"PRAGMA user_version={n + 1}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    return STORE_VERSION


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
class GameInfo:
    id: int
    name: str
    ruleset: str
    created: str
    events: int = 0


#: characters a game name may not hold: it must travel in a URL path segment, a shell line and a
#: file name unchanged
_BAD_NAME = re.compile(r"[\x00-\x1f\x7f/\\?#%<>\"'`]")
MAX_NAME = 100


def check_game_name(name: object) -> str:
    """A game's name: 1-100 characters, no slash, backslash, ``? # %``, quotes, angle brackets
    or control characters, no space at either end, not ``.`` or ``..``."""
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
    return name


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class Store:
    """SQLite event store. ``path=":memory:"`` for an in-memory store."""

    def __init__(self, path: str | Path, synchronous: str = "FULL") -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=30.0)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute(f"PRAGMA synchronous={synchronous}")
            self.db.execute("PRAGMA foreign_keys=ON")
            migrate(self.db, self.path)
        except sqlite3.DatabaseError as e:
            raise GameError(f"cannot open game database {self.path}: {e}") from None

    def close(self) -> None:
        self.db.close()

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
            self.db.execute(
                "INSERT INTO events(game_id, seq, kind, version, payload, at) VALUES (?,?,?,?,?,?)",
                (gid, 1, "created", SCHEMA_VERSION, json.dumps(first), at),
            )
        return gid

    def game(self, name: str) -> GameInfo:
        row = self.db.execute(
            "SELECT g.id, g.name, g.ruleset, g.created, "
            "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) FROM games g WHERE g.name=?",
            (name,),
        ).fetchone()
        if row is None:
            raise GameError(f"no game named {name!r}")
        return GameInfo(*row)

    def games(self) -> list[GameInfo]:
        rows = self.db.execute(
            "SELECT g.id, g.name, g.ruleset, g.created, "
            "(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) FROM games g ORDER BY g.id"
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

    def delete(self, name: str) -> None:
        """Delete a game and its whole log (the web app's delete; export it first to keep it)."""
        info = self.game(name)
        with self._tx():
            self.db.execute("INSERT OR IGNORE INTO deleting(game_id) VALUES (?)", (info.id,))
            self.db.execute("DELETE FROM snapshots WHERE game_id=?", (info.id,))
            self.db.execute("DELETE FROM events WHERE game_id=?", (info.id,))
            self.db.execute("DELETE FROM games WHERE id=?", (info.id,))
            self.db.execute("DELETE FROM deleting WHERE game_id=?", (info.id,))

    # -- events -------------------------------------------------------------------------
    def append(
        self, game_id: int, expected_seq: int, kind: str, payload: Mapping[str, Any]
    ) -> Record:
        """Append one event as ``expected_seq``; fails if another writer got there first."""
        at = now()
        text = json.dumps(payload)
        with self._tx():
            last = self.db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id=?", (game_id,)
            ).fetchone()[0]
            if last + 1 != expected_seq:
                raise GameError(
                    f"the game changed while this action was prepared (at event {last}, expected"
                    f" {expected_seq - 1}); reload and try again"
                )
            self.db.execute(
                "INSERT INTO events(game_id, seq, kind, version, payload, at) VALUES (?,?,?,?,?,?)",
                (game_id, expected_seq, kind, SCHEMA_VERSION, text, at),
            )
        return Record(expected_seq, kind, payload, at, SCHEMA_VERSION)

    def records(self, game_id: int, after: int = 0) -> list[Record]:
        rows = self.db.execute(
            "SELECT seq, kind, payload, at, version FROM events WHERE game_id=? AND seq>? "
            "ORDER BY seq",
            (game_id, after),
        ).fetchall()
        return [Record(s, k, json.loads(p), a, v) for s, k, p, a, v in rows]

    def import_game(self, name: str, ruleset: str, records: list[Record]) -> int:
        """Store a whole imported log in one transaction."""
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
            self.db.executemany(
                "INSERT INTO events(game_id, seq, kind, version, payload, at) VALUES (?,?,?,?,?,?)",
                [
                    (gid, r.seq, r.kind, r.version, json.dumps(dict(r.payload)), r.at or now())
                    for r in records
                ],
            )
        assert gid is not None
        return gid

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

    def integrity_ok(self) -> bool:
        return bool(self.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok")

    def _tx(self) -> _Tx:
        return _Tx(self.db)


class _Tx:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        if exc_type is None:
            self.db.execute("COMMIT")
        else:
            self.db.execute("ROLLBACK")


def iter_jsonl(text: str) -> Iterator[dict[str, Any]]:
    for i, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as e:
                raise GameError(f"line {i} is not JSON: {e.msg}") from None
            except RecursionError:
                raise GameError(f"line {i} is nested too deeply") from None
            if not isinstance(obj, dict):
                raise GameError(f"line {i} is not a JSON object")
            yield obj
