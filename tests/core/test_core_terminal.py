"""On a terminal the odds bars are coloured blocks (rich); piped, the same command prints the
plain text the other tests read, byte for byte, with no escape codes."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

ODDS = ["odds", "--table", "nab:fixing"]


def run_on_a_terminal(args: list[str], env: dict[str, str]) -> str:
    main, child = pty.openpty()
    with subprocess.Popen(
        [sys.executable, "-m", "vedette", *args], stdout=child, stderr=child, env=env
    ) as proc:
        os.close(child)
        chunks = []
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert proc.wait(timeout=60) == 0
    os.close(main)
    return b"".join(chunks).decode()


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_odds_bars_are_coloured_on_a_terminal_and_plain_when_piped(tmp_path: Path) -> None:
    env = {**os.environ, "VEDETTE_DB": str(tmp_path / "g.sqlite3"), "TERM": "xterm"}
    env.pop("NO_COLOR", None)
    piped = subprocess.run(
        [sys.executable, "-m", "vedette", *ODDS], env=env, capture_output=True, text=True
    ).stdout
    assert "\x1b[" not in piped and "##########           [<=3]" in piped
    shown = run_on_a_terminal(ODDS, env)
    assert "\x1b[" in shown and "█" * 10 in shown and "#" not in shown.replace("\x1b", "")
    # the same words and numbers in the same order
    assert "[<=3] the contact force remains in place and is fixed" in shown
    assert shown.count("50.00%") == piped.count("50.00%") == 2


class _Screen(io.StringIO):
    """Standard output as a terminal (rich styles what it prints to one)."""

    def isatty(self) -> bool:
        return True


TEXTS = [
    "nothing owed; open now:\n  vedette 2x2 next  end the phase (turn 3, phase 2/8) (2 by 2,"
    " Sequence of play)",
    "  vedette 2x2 turn unit=A1 direction=left    IR 4 Hoch- und Deutschmeister may turn left\n"
    "                                             choose angle= one of 90",
    "Grenadiers à pied, 漢字 ⚔ [bold]not markup[/bold]  trailing   \n\nafter a blank line",
    "a tab\there, a return\rand a bell\x07",  # rich rewrites these: printed through it
    "  58.33%       7/12  ############         [1-7] shift allowed",  # an odds row: styled
]


@pytest.mark.parametrize("text", TEXTS)
def test_text_on_a_terminal_is_what_rich_prints(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``echo`` on a terminal prints what rich prints for the same text, byte for byte, whether
    rich is asked (a line it styles or rewrites) or not (nothing to style: start-up time)."""
    from rich.console import Console

    from vedette.cli import term

    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.delenv("NO_COLOR", raising=False)
    mine, theirs = _Screen(), _Screen()
    monkeypatch.setattr(sys, "stdout", mine)
    term.echo(text)
    monkeypatch.setattr(sys, "stdout", theirs)
    console = Console(highlight=False, markup=False, emoji=False, soft_wrap=True)
    for line in text.split("\n"):
        console.print(term.styled(line))
    assert mine.getvalue() == theirs.getvalue()


@pytest.mark.skipif(sys.platform == "win32", reason="a pseudo-terminal")
def test_a_todo_list_on_a_terminal_prints_without_rich(tmp_path: Path) -> None:
    """A list with nothing to style reaches the terminal without rich being imported (issue 26
    item 8: a player's step at the table answers at once)."""
    code = (
        "import sys\n"
        "from vedette.cli import term\n"
        "term.echo('nothing owed; open now:\\n  vedette 2x2 next  end the phase')\n"
        "print('rich' in sys.modules)\n"
    )
    env = {**os.environ, "TERM": "xterm"}
    main, child = pty.openpty()
    with subprocess.Popen([sys.executable, "-c", code], stdout=child, env=env) as proc:
        os.close(child)
        out = b""
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        assert proc.wait(timeout=60) == 0
    os.close(main)
    assert out.decode().splitlines() == [
        "nothing owed; open now:",
        "  vedette 2x2 next  end the phase",
        "False",
    ]
