"""CLI round trip (`vedette nab ...`) and the demo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from vedette.cli.entry import main as entry_main
from vedette.cli.main import main
from vedette.engine import Store
from vedette.web.app import create_app


def cli(db: Path, *args: str) -> int:
    return main(["--db", str(db), *args])


def zoc_entered(db: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A new game of example 1 (seed 5) in which F1 has entered R1's ZOC: its fixing owed."""
    assert cli(db, "nab", "new", name, "--scenario", "example1", "--seed", "5") == 0
    assert cli(db, "nab", "move", "force=F1", "to=W2020") == 0
    capsys.readouterr()


def test_cli_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "g.db"
    assert cli(db, "nab", "new", "g1", "--scenario", "example1", "--seed", "5") == 0
    assert "W2121 (Asmjany)" in capsys.readouterr().out
    assert cli(db, "nab", "move", "force=F1", "to=W2020") == 0
    assert "enters the ZOC of R1" in capsys.readouterr().out
    assert cli(db, "nab", "fix", "moving=F1", "contact=R1", "--odds") == 0
    text = capsys.readouterr().out
    assert "5/6" in text and "Ru Inf (R2)" in text
    assert cli(db, "nab", "candidates", "contact=R1", "moving=F1", "--json") == 0
    q = json.loads(capsys.readouterr().out)
    assert q["details"]["candidates"][0]["force"] == "R2" and q["seq"] is None
    assert cli(db, "nab", "fix", "moving=F1", "contact=R1", "--dice", "3", "--json") == 0
    res = json.loads(capsys.readouterr().out)
    assert res["message"] == "1d6=3+2 (only Ru has Vedette)=5, Vedette and Ru Inf switch places"
    roll = res["rolls"][0]
    assert roll["dice"] == [{"die": "d6", "face": 3}] and roll["final"] == 5
    assert roll["modifiers"] == [
        {"value": 2, "reason": "only Ru has Vedette", "rule": "Herman (3) DRM 3"}
    ]
    assert res["details"]["changes"] == [
        {"force": "R2", "from": ["W2421"], "to": ["W2121"]},
        {"force": "R1", "from": ["W2121"], "to": ["W2421"]},
    ]
    assert res["details"]["fixed"] == {"R2": True, "R1": False}
    # refused: R1 is no longer in contact (R2 is fixed now)
    assert cli(db, "nab", "fix", "moving=F1", "contact=R2") != 0
    assert "Herman (2)" in capsys.readouterr().err
    assert cli(db, "nab", "show") == 0
    assert "R2!" in capsys.readouterr().out
    assert cli(db, "nab", "end_movement") == 0
    assert cli(db, "game", "log") == 0
    log = capsys.readouterr().out
    assert "fix" in log and "switch places" in log
    assert cli(db, "nab", "help") == 0
    assert "fix" in capsys.readouterr().out


def test_draft_option_from_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "d.db"
    assert cli(db, "nab", "new", "d", "--option", "variant=draft", "--json") == 0
    st = json.loads(capsys.readouterr().out)
    assert st["state"]["config"]["variant"] == "draft"


def test_demo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vedette.rules.napoleon_at_bay.demo import run_demo

    db = tmp_path / "demo.db"
    run_demo(str(db), as_json=False)
    out = capsys.readouterr().out
    assert "nab-sample-1" in out and "enters the ZOC of R1" in out and "(Herman 3)" in out
    assert "1d6=" in out and ("remains in hex" in out or "switch places" in out)
    run_demo(str(db), as_json=True)
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "nab-sample-2"
    with Store(db) as st:
        assert {g.name for g in st.games()} == {"nab-sample-1", "nab-sample-2"}
    assert cli(db, "demo") == 0
    assert "nab-sample-3" in capsys.readouterr().out


def test_help_page_prints_the_players_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(tmp_path / "h.db", "nab", "help", "--page") == 0
    out = capsys.readouterr().out
    assert out.startswith("# Napoleon At Bay") and "## Starting a game" in out
    assert "## Where the text is unclear" in out and "def " not in out


def test_todo_with_own_dice_says_how_to_give_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game played with the player's own dice: the plain ``todo`` (both the quick answer and
    the full command line) shows the owed fixing's command with ``--dice FACES`` and the dice
    to roll, and that command, with the faces given, does the fixing; a game on the seeded
    dice shows no ``--dice``."""
    db = tmp_path / "g.db"
    assert cli(db, "nab", "new", "g1", "--scenario", "example1", "--physical-dice") == 0
    assert cli(db, "nab", "move", "force=F1", "to=W2020") == 0
    capsys.readouterr()
    for run in (entry_main, main):  # the quick answer, then click's
        assert run(["--db", str(db), "nab", "todo"]) == 0
        text = capsys.readouterr().out
        assert "do it:    vedette nab fix moving=F1 contact=R1 --dice FACES" in text, text
        assert "roll 1d6 and give the faces in order as --dice FACES" in text, text
    assert cli(db, "nab", "fix", "moving=F1", "contact=R1", "--dice", "3") == 0
    assert "switch places" in capsys.readouterr().out
    seeded = tmp_path / "s.db"
    zoc_entered(seeded, "g2", capsys)
    assert cli(seeded, "nab", "todo") == 0
    text = capsys.readouterr().out
    assert "fix moving=F1 contact=R1" in text and "--dice" not in text


def test_the_game_as_text_says_the_owed_fixing_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Herman (1): the fixing owed once F1 enters R1's ZOC. The game as text (``game show``,
    the web's text view) printed it as ``owed: ... 'fix moving=F1 contact=R1'``, a command the
    web has no box for; it says it as the move's answer does, and ``todo`` keeps the
    command."""
    db = tmp_path / "g.db"
    zoc_entered(db, "g1", capsys)
    assert cli(db, "game", "show") == 0
    shown = capsys.readouterr().out
    owed = [line for line in shown.splitlines() if "owed" in line]
    assert owed == ["owed now: the fixing of R1 (Vedette), whose ZOC F1 entered (Herman (1))"]
    c = TestClient(create_app(db), base_url="http://localhost")
    assert owed[0] in c.get("/api/games/g1").json()["text"].splitlines()
    assert cli(db, "nab", "todo") == 0
    assert "fix moving=F1 contact=R1" in capsys.readouterr().out
