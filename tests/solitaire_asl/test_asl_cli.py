"""The generic shell over the solitaire ASL ruleset: new, phase, shift (--odds, --dice, --json),
legal, show, and errors as one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vedette.cli.main import main


def run(db: str, *args: str) -> int:
    return main(["--db", db, *args])


def test_cli_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "g.db")
    assert run(db, "asl", "new", "g", "--scenario", "sample", "--seed", "3") == 0
    assert "Orchard Crossroads" in capsys.readouterr().out
    assert run(db, "asl", "phase", "to=MPh") == 0
    assert "Russian player turn: MPh" in capsys.readouterr().out
    assert run(db, "asl", "shift", "a=P1", "b=D1", "--odds") == 0
    text = capsys.readouterr().out
    assert "7/12" in text and "worst TEM +1" in text
    assert run(db, "asl", "shift", "a=P1", "b=D1", "--dice", "3 4", "--json") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rolls"][0]["final"] == 7 and data["details"]["row"] == "allowed"
    assert [m["value"] for m in data["rolls"][0]["modifiers"]] == [-1, 1]
    assert "swap P1 (4P5) and D1 (4Q6)" in data["details"]["changes"]
    assert run(db, "asl", "legal", "--json") == 0
    legal = json.loads(capsys.readouterr().out)["details"]["legal"]
    assert any(x["kind"] == "hip" for x in legal)
    assert run(db, "asl", "shift", "a=H1", "b=X1", "back=[]", "--dice", "1 1") == 0
    assert "move 4-4-7, 4-4-7 (H1) from 4M6 to 4O8" in capsys.readouterr().out
    assert run(db, "asl", "show") == 0
    shown = capsys.readouterr().out
    assert "P1     Russian    4Q6" in shown
    assert run(db, "asl", "shift", "a=P2", "b=D2", "--dice", "1 1") == 2
    err = capsys.readouterr().err
    assert err.startswith("vedette: error:") and "(O'Leary 2.4)" in err
    assert run(db, "game", "log") == 0
    log = capsys.readouterr().out
    assert "#3 shift" in log and "2d6=(3+4)=7" in log


def test_cli_help_lists_procedures(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run(str(tmp_path / "h.db"), "asl", "help") == 0
    out = capsys.readouterr().out
    for p in ("shift", "minefield", "boresight", "prereg", "legal", "phase"):
        assert f"  {p}" in out
