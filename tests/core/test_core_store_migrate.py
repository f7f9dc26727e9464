"""Two processes opening one new database at once (``vedette serve`` with two workers, or two
commands): the one that finds the ladder already climbed while it waited for the write lock
skips those rungs instead of failing (``duplicate column name``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from vedette.engine import Store
from vedette.engine.store import STORE_VERSION, migrate


class StaleFirstLook:
    """A connection whose first look at ``user_version`` is from before the other process
    migrated (what a process sees when it reads the version just before the other commits)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.looked = False

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "PRAGMA user_version" and not self.looked:
            self.looked = True
            return self.db.execute("SELECT 0")
        return self.db.execute(sql, *args)


def test_a_ladder_climbed_by_another_process_meanwhile_is_not_climbed_again(
    tmp_path: Path,
) -> None:
    path = tmp_path / "games.sqlite3"
    Store(path).close()  # the other process: the whole ladder
    db = sqlite3.connect(path, isolation_level=None)
    assert migrate(StaleFirstLook(db), str(path)) == STORE_VERSION  # type: ignore[arg-type]
    assert db.execute("PRAGMA user_version").fetchone()[0] == STORE_VERSION
    db.close()
    store = Store(path)
    store.close()
