"""Issue 25 at the command line: arguments that are not UTF-8 text, an export to a directory
or a full device, a port out of range, a read-only or full database, and text from a file
printed in a terminal: one line each (no traceback), nothing changed, no escape sequence
reaching the terminal."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest

from vedette import rules
from vedette.cli.main import main
from vedette.engine import Game, Store
from vedette.engine.referee import resign


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "g.db"
    Game.create(Store(path), "g", "nab", rules.get("nab").scenario("sample"), seed=1)
    return str(path)


@pytest.mark.parametrize("raw", [b"g\xff", b"\xe9t\xe9", b"\xed\xa0\x80"])
def test_an_argument_that_is_not_utf8_is_one_line(db: str, raw: bytes) -> None:
    word = os.fsdecode(raw)  # (how Python hands such bytes over: lone surrogates)
    for argv in (["game", "new", word, "--ruleset", "nab"], ["nab", "move", f"force={word}"]):
        code, _, err = run("--db", db, *argv)
        assert code == 2 and err.count("\n") == 1 and "not valid UTF-8" in err, err
    assert [g.name for g in Store(db).games()] == ["g"]


def test_an_argument_with_an_escape_sequence_is_refused(db: str) -> None:
    code, _, err = run("--db", db, "game", "rename", "g", "x\x1b[2Jy")
    assert code == 2 and "control character" in err
    assert [g.name for g in Store(db).games()] == ["g"]


def test_export_to_a_directory_or_a_full_device_is_one_line(db: str, tmp_path: Path) -> None:
    code, _, err = run("--db", db, "game", "export", "g", "-o", str(tmp_path))
    assert code == 2 and err.count("\n") == 1 and "cannot write the export" in err, err
    if Path("/dev/full").exists():
        code, _, err = run("--db", db, "game", "export", "g", "-o", "/dev/full")
        assert code == 2 and "No space left on device" in err, err


def test_a_port_out_of_range_is_one_line(db: str) -> None:
    code, _, err = run("--db", db, "serve", "--port", "99999", "--no-preload")
    assert code == 2 and "99999 is not in the range" in err and err.count("\n") == 1


def test_text_from_an_import_cannot_drive_the_terminal(db: str) -> None:
    """An imported game whose scenario title carries an escape sequence is refused; what the
    CLI prints is stripped of escape sequences anyway (a release 0.1 message, say)."""
    from vedette.cli.common import printable

    assert printable("a\x1b[2Jb\x1b]0;title\x07c\x9b31md\td\n") == "ab" + "c31md\td\n"
    g = Game.open(Store(db), "g")
    lines = g.export_jsonl().splitlines()
    created = json.loads(lines[1])
    created["payload"]["scenario"]["scenario"]["title"] = "evil\x1b]0;owned\x07"
    lines[1] = json.dumps(created)
    with pytest.raises(Exception) as e:
        Game.import_jsonl(Store(db), resign("\n".join(lines) + "\n"), "evil")
    assert "control character" in str(e.value)


def test_a_read_only_database_is_listed_shown_and_exported_by_the_cli(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    def refused(self: Store, synchronous: str) -> sqlite3.Connection:
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(Store, "_connect", refused)
    assert run("--db", db, "game", "list")[0] == 0
    assert run("--db", db, "game", "show", "g")[0] == 0
    code, out, _ = run("--db", db, "game", "export", "g")
    assert code == 0 and out.count("\n") == 2
    code, _, err = run("--db", db, "nab", "move", "force=F1", "to=W2020", "--game", "g")
    assert code == 1 and "read-only; nothing was written" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "argv",
    [
        ("nab", "move", "force=F1", "to=LONG"),
        ("nab", "LONG"),
        ("game", "show", "LONG"),
        ("roll", "LONG"),
        ("game", "new", "--ruleset", "nab", "--scenario", "LONG"),
    ],
)
def test_a_value_typed_at_great_length_is_cut_in_the_error_line(
    db: str, argv: tuple[str, ...]
) -> None:
    """A refusal names what was typed: 5,000 characters of it were all echoed in the one
    line; cut to its start and its length, the rest of the line (what is known) kept."""
    long = "x" * 5000
    code, _, err = run("--db", db, *(a.replace("LONG", long) for a in argv))
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert "x" * 50 in err.lower() and "...(500" in err and "characters)" in err, err[:300]
    assert len(err) < 1000
