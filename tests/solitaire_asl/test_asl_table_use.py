"""Session 21 (A6), Solitaire ASL at the table: the game as text says what is owed in words;
the 2.4.2 groups offered by taps; the bore-sight die and its scatter dice in one go."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.solitaire_asl.test_asl_flow import goto, sample
from vedette.cli.main import main

RU, GE = "Russian", "German"


def shown(db: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["--db", str(db), "game", "show"]) == 0
    return capsys.readouterr().out


def test_the_game_as_text_says_the_owed_decisions_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """O'Leary 6.1 and 4.6.2: the game as text (``game show``, the web's text view) printed an
    owed decision as a command (``decide id=r2 ok=true|false``, ``minefield entered=M1``, a
    ``waive`` in the minefield's words), which the web has no box for. It says each in words,
    as Napoleon At Bay's view does; ``todo`` keeps the commands."""
    g = sample(tmp_path)
    goto(g, "PFPh")
    g.perform("boresight", {"weapons": ["r2"], "target": "4R4"}, faces=[6, 1, 1])
    text = shown(tmp_path / "asl.db", capsys)
    assert "could bore sight a location in" in text and "(O'Leary 6.1): yes or no" in text
    assert "decide id=" not in text and "ok=true" not in text
    g.perform("decide", {"id": "r2", "ok": False})
    goto(g, "MPh", GE)
    g.perform("move", {"stack": "G1", "to": "4R4"})  # M1 there, its strength hidden
    text = shown(tmp_path / "asl.db", capsys)
    assert "attempt to exchange minefield M1" in text and "or declined" in text
    assert "entered=" not in text and "waive" not in text
    (owed,) = [t for t in g.todo() if t.owed]
    assert owed.command() == "minefield entered=M1"  # todo: the command
