"""On a terminal the odds bars are coloured blocks (rich); piped, the same command prints the
plain text the other tests read, byte for byte, with no escape codes."""

from __future__ import annotations

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
