"""Where games live when no ``--db`` is given: ``$VEDETTE_DB``, else the user's data folder
(on Linux ``$XDG_DATA_HOME/vedette`` or ``~/.local/share/vedette``, unchanged since 0.1)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from vedette.cli.plain import default_db


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux folders")
def test_the_default_database_is_in_the_linux_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VEDETTE_DB", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_db() == str(tmp_path / ".local/share/vedette/vedette.sqlite3")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_db() == str(tmp_path / "data/vedette/vedette.sqlite3")
    monkeypatch.setenv("VEDETTE_DB", str(tmp_path / "mine.sqlite3"))
    assert default_db() == str(tmp_path / "mine.sqlite3")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the Linux folders")
def test_a_game_started_without_db_is_stored_in_the_data_folder(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("VEDETTE_DB", "XDG_DATA_HOME")}
    env["HOME"] = str(tmp_path)
    vedette = [sys.executable, "-m", "vedette"]
    made = subprocess.run([*vedette, "nab", "new", "g"], env=env, capture_output=True, timeout=120)
    assert made.returncode == 0, made.stderr
    assert (tmp_path / ".local/share/vedette/vedette.sqlite3").is_file()
    listed = subprocess.run([*vedette, "game", "list"], env=env, capture_output=True, text=True)
    assert listed.stdout.startswith("g  napoleon_at_bay")
