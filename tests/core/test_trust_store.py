"""Issue 25, the store: a new database opened by many processes at once, a game read as one
snapshot beside a writer, per-holder writer locks, private files, and a disk that refuses a
write (full, read-only) answered in one line with nothing lost."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import stat
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from vedette import rules
from vedette.engine import Game, Store
from vedette.engine.store import STORE_VERSION, StorageError
from vedette.errors import VedetteError
from vedette.web.sessions import ProcessLocks

NAB = rules.get("napoleon_at_bay")
FORK = multiprocessing.get_context("fork")


def _open_at_once(path: str, barrier: Any, q: Any) -> None:
    try:
        barrier.wait(10)
        st = Store(path)
        Game.create(st, f"g{os.getpid()}", "nab", NAB.scenario("sample"), seed=1)
        st.games()
        q.put("ok")
    except BaseException as e:  # (reported to the parent)
        q.put(f"{type(e).__name__}: {e}")


#: the issue's figure (50 tries) with VEDETTE_TRUST_LONG=1; 10 otherwise (about 15 s)
TRIES = 50 if os.environ.get("VEDETTE_TRUST_LONG") == "1" else 10
#: opens beside a writer: 150 with VEDETTE_TRUST_LONG=1; 40 otherwise (the log the writer
#: grows meanwhile, and so each read, is shorter: about a tenth of the time)
READS = 150 if os.environ.get("VEDETTE_TRUST_LONG") == "1" else 40


def test_a_new_database_opened_by_8_processes_at_once(tmp_path: Path) -> None:
    """Again and again, 8 processes open a database that does not exist yet and write a game:
    every one succeeds, and the database holds the 8 games. (Before the database was created
    whole and linked into place, about one round in 100 had a process told "database is
    locked" at once: it met another turning the new, empty file to WAL.)"""
    for i in range(TRIES):
        path = str(tmp_path / f"new{i}.db")
        barrier, q = FORK.Barrier(8), FORK.Queue()
        procs = [FORK.Process(target=_open_at_once, args=(path, barrier, q)) for _ in range(8)]
        for p in procs:
            p.start()
        got = [q.get(timeout=120) for _ in procs]
        for p in procs:
            p.join(10)
        assert got == ["ok"] * 8, (i, got)
        st = Store(path)
        assert st.db.execute("PRAGMA user_version").fetchone()[0] == STORE_VERSION
        assert st.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert len(st.games()) == 8
        st.close()
    assert sorted(f.name for f in tmp_path.iterdir() if ".new-" in f.name) == []


def test_a_migration_rung_is_idempotent(tmp_path: Path) -> None:
    """A database whose version says 4 though the last rung's column is there (a climb cut
    short by an older release) climbs without 'duplicate column'."""
    path = tmp_path / "g.db"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={STORE_VERSION - 1}")
    db.commit()
    db.close()
    st = Store(path)
    assert st.db.execute("PRAGMA user_version").fetchone()[0] == STORE_VERSION


def _hammer(path: str, gids: list[int], q: Any) -> None:
    locks = ProcessLocks(path)
    errors: list[str] = []

    def run(gid: int) -> None:
        for _ in range(300):
            try:
                with locks.hold(gid, True):
                    time.sleep(0.0005)  # (held a while: the waits overlap)
            except OSError as e:  # (EDEADLK with process-wide lockf)
                errors.append(f"{e.errno}: {e}")

    threads = [threading.Thread(target=run, args=(g,)) for g in gids]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    q.put(errors)


def test_writer_locks_belong_to_their_holder_not_the_process(tmp_path: Path) -> None:
    """4 processes of 6 threads writing 6 games (each game by a thread of every process): no
    false deadlock, every lock taken. (POSIX lockf locks, held by the process, gave 4,548
    EDEADLK in 7,200 such holds.)"""
    path = str(tmp_path / "g.db")
    Store(path).close()
    assert ProcessLocks(path).path is not None
    q = FORK.Queue()
    procs = [FORK.Process(target=_hammer, args=(path, [1, 2, 3, 4, 5, 6], q)) for k in range(4)]
    for p in procs:
        p.start()
    errors = [e for _ in procs for e in q.get(timeout=120)]
    for p in procs:
        p.join(10)
    assert errors == []


def test_one_game_is_written_by_one_holder_at_a_time(tmp_path: Path) -> None:
    path = str(tmp_path / "g.db")
    Store(path).close()
    locks = ProcessLocks(path)
    inside, most = [0], [0]
    guard = threading.Lock()

    def run() -> None:
        for _ in range(100):
            with locks.hold(7, True):
                with guard:
                    inside[0] += 1
                    most[0] = max(most[0], inside[0])
                with guard:
                    inside[0] -= 1

    threads = [threading.Thread(target=run) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most[0] == 1


def _write_slowly(path: str, held: Any) -> None:
    """A write transaction held open half a second (a long write of another server process)."""
    st = Store(path, queued=True)
    with st._tx():
        st.db.execute("INSERT INTO settings(key, value) VALUES ('slow', '1')")
        held.set()
        time.sleep(0.5)
    st.close()


def test_server_processes_queue_their_writes_to_the_database(tmp_path: Path) -> None:
    """Two server processes of one database (``serve --workers 2``): a write of one while the
    other's write transaction is open waits for that transaction to end, then goes in: it is
    woken by their lock, not by SQLite's busy handler (turned off here: it answered "database
    is locked" at once)."""
    path = str(tmp_path / "g.db")
    ProcessLocks(path)  # as `vedette serve` does
    g = Game.create(Store(path, queued=True), "g", "nab", NAB.scenario("sample"), seed=1)
    held = FORK.Event()
    other = FORK.Process(target=_write_slowly, args=(path, held))
    other.start()
    assert held.wait(60)
    g.store.db.execute("PRAGMA busy_timeout=0")
    g.perform("move", {"force": "F1", "to": "W2020"})
    other.join(30)
    assert other.exitcode == 0
    st = Store(path)
    assert [r.kind for r in st.records(g.id)][-1] == "action"
    assert st.db.execute("SELECT value FROM settings WHERE key='slow'").fetchone() == ("1",)


def test_database_and_lock_files_are_private(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    g = Game.create(Store(path), "g", "nab", NAB.scenario("sample"), seed=1)
    g.perform("move", {"force": "F1", "to": "W2020"})
    ProcessLocks(str(path))
    for f in tmp_path.iterdir():
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f


def test_a_planted_lock_file_is_not_used(tmp_path: Path) -> None:
    """Another user's (or a world-writable) file or a symlink at <db>.writers is never
    followed or locked: a game cannot be frozen through it."""
    path = tmp_path / "g.db"
    Store(path).close()
    target = tmp_path / "elsewhere"
    target.write_text("")
    (tmp_path / "g.db.writers").symlink_to(target)
    assert ProcessLocks(str(path)).path is None
    (tmp_path / "g.db.writers").unlink()
    (tmp_path / "g.db.writers").write_text("")
    os.chmod(tmp_path / "g.db.writers", 0o666)
    assert ProcessLocks(str(path)).path is None


def test_reading_beside_a_writer_is_one_snapshot(tmp_path: Path) -> None:
    """A game opened (and shown) again and again while another connection plays it: never an
    error, always a state some prefix of the log gives."""
    path = tmp_path / "g.db"
    Game.create(Store(path), "g", "nab", NAB.scenario("sample"), seed=1)
    stop = threading.Event()
    errors: list[str] = []

    def write() -> None:
        g = Game.open(Store(path), "g")
        while not stop.is_set():
            g.perform("move", {"force": "F1", "to": "W2020"})
            g.undo()

    t = threading.Thread(target=write)
    t.start()
    try:
        st = Store(path)
        for _ in range(READS):
            try:
                g = Game.open(st, "g")
                g.render()
                g.log_lines()
            except Exception as e:  # (counted: must be none)
                errors.append(f"{type(e).__name__}: {e}")
    finally:
        stop.set()
        t.join()
    assert errors == []


class _FullDisk:
    """A connection whose disk refuses every write (SQLITE_FULL), reads as usual."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def execute(self, sql: str, *args: Any) -> Any:
        # (a read transaction's COMMIT writes nothing: a full disk lets it through)
        if sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            raise sqlite3.OperationalError("database or disk is full")
        return self._db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def test_a_full_disk_is_one_line_and_nothing_is_lost(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    g = Game.create(Store(path), "g", "nab", NAB.scenario("sample"), seed=1)
    g.perform("move", {"force": "F1", "to": "W2020"})
    before = g.export_jsonl()
    g.store.db = _FullDisk(g.store.db)  # type: ignore[assignment]
    with pytest.raises(StorageError) as e:
        g.perform("fix", {"moving": "F1", "contact": "R1"})
    msg = str(e.value)
    assert "\n" not in msg and "the disk is full" in msg and "nothing was written" in msg
    assert e.value.exit_code != 0
    again = Game.open(Store(path), "g")
    assert again.export_jsonl().splitlines()[1:] == before.splitlines()[1:]


def test_a_read_only_database_is_listed_shown_and_exported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.db"
    g = Game.create(Store(path), "g", "nab", NAB.scenario("sample"), seed=1)
    g.perform("move", {"force": "F1", "to": "W2020"})
    text = g.export_jsonl()
    g.store.close()

    def refused(self: Store, synchronous: str) -> sqlite3.Connection:
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(Store, "_connect", refused)
    st = Store(path)
    assert st.readonly
    assert [x.name for x in st.games()] == ["g"]
    ro = Game.open(st, "g")
    assert ro.render() and ro.export_jsonl().splitlines()[1:] == text.splitlines()[1:]
    with pytest.raises(VedetteError) as e:
        ro.perform("fix", {"moving": "F1", "contact": "R1"})
    assert "read-only" in str(e.value) and "nothing was written" in str(e.value)


def test_the_web_app_on_a_read_only_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages and exports answer; a write is one line (503), nothing written."""
    from fastapi.testclient import TestClient

    from vedette.web.app import create_app

    path = tmp_path / "g.db"
    Game.create(Store(path), "g", "nab", NAB.scenario("sample"), seed=1).store.close()

    def refused(self: Store, synchronous: str) -> sqlite3.Connection:
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(Store, "_connect", refused)
    c = TestClient(create_app(path), base_url="http://localhost")
    assert c.get("/").status_code == 200
    page = c.get("/games/g")
    assert page.status_code == 200
    assert c.get("/games/g/export").status_code == 200
    token = page.text.split('name="csrf-token" content="')[1].split('"')[0]
    r = c.post(
        "/api/games/g/perform",
        json={"procedure": "move", "request": {"force": "F1", "to": "W2020"}},
        headers={"X-CSRF-Token": token},
    )
    assert r.status_code == 503
    err = r.json()["error"]
    assert "\n" not in err and "read-only" in err and "nothing was written" in err
    monkeypatch.undo()
    assert Store(path).game("g").events == 1


def test_the_web_app_on_a_full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write the disk refuses answers one line (503) saying nothing was written; pages and
    exports still answer, and the game is as it was. (Checked by hand on a 600 KB tmpfs
    filled up: the same line, "the disk is full", from the CLI and the web.)"""
    from fastapi.testclient import TestClient

    from vedette.web.app import create_app

    path = tmp_path / "g.db"
    g = Game.create(Store(path), "g", "nab", NAB.scenario("sample"), seed=1)
    g.perform("move", {"force": "F1", "to": "W2020"})
    before = g.export_jsonl().splitlines()[1:]
    g.store.close()
    real = Store._connect

    def full(self: Store, synchronous: str) -> sqlite3.Connection:
        return _FullDisk(real(self, synchronous))  # type: ignore[return-value]

    monkeypatch.setattr(Store, "_connect", full)
    c = TestClient(create_app(path), base_url="http://localhost")
    page = c.get("/games/g")
    assert page.status_code == 200
    token = page.text.split('name="csrf-token" content="')[1].split('"')[0]
    r = c.post(
        "/api/games/g/perform",
        json={"procedure": "fix", "request": {"moving": "F1", "contact": "R1"}},
        headers={"X-CSRF-Token": token},
    )
    assert r.status_code == 503
    err = r.json()["error"]
    assert "\n" not in err and "the disk is full" in err and "nothing was written" in err
    assert c.get("/games/g/export").status_code == 200
    monkeypatch.undo()
    assert Game.open(Store(path), "g").export_jsonl().splitlines()[1:] == before
