"""`todo` prints each open field's choices (``choose KEY= one of ...``): a choice copied after
``KEY=`` into the shell must reach the procedure as printed, one word, even when it holds a
space (Solitaire ASL's terrain kinds: ``open ground``, ``stone building``). The choices are
quoted as the shell needs them, as the command beside them is (shared by every ruleset's CLI)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from vedette.cli.main import main
from vedette.rules.protocol import Todo

SCENARIO = """
name = "undescribed"
sides = ["Russian", "German"]
first = "Russian"
[[stacks]]
id = "P1"
side = "Russian"
location = "4A1"
status = "potential_dummy"
counters = [{ id = "p1", name = "4-4-7", kind = "squad" }]
[[stacks]]
id = "D1"
side = "Russian"
location = "4A3"
status = "dummy"
dummies = 2
"""


def test_choices_are_quoted_for_the_shell() -> None:
    t = Todo("location", {"id": "4A1"}, "facts", open={"terrain": ("open ground", "woods")})
    assert t.choices_text() == "terrain= one of 'open ground', woods"


def run(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(argv)) == 0, out.getvalue()
    return out.getvalue()


def test_a_printed_choice_with_a_space_runs_when_copied_into_the_shell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "v.sqlite3")
    monkeypatch.setenv("VEDETTE_DB", db)
    monkeypatch.setenv("HOME", str(tmp_path))
    scen = tmp_path / "undescribed.toml"
    scen.write_text(SCENARIO)
    run("asl", "new", "t", "--scenario", str(scen))
    run("asl", "phase", "to=MPh")
    lines = run("asl", "todo").splitlines()
    # the location entry's command, and the choices printed under it
    i = next(n for n, x in enumerate(lines) if "vedette asl location id=4A1" in x)
    command = re.search(r"vedette asl location id=4A1\S*", lines[i])
    assert command is not None, lines[i]
    choices = lines[i + 1 :]
    terrain = next(x for x in choices if "choose terrain= one of" in x)
    listed = terrain.split("terrain= one of ", 1)[1].split("; ")[0]
    spaced = next(c for c in listed.split(", ") if "ground" in c)
    assert spaced == "'open ground'", terrain
    line = f"{command.group()} terrain={spaced}"
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "VEDETTE_DB": db,
        "HOME": str(tmp_path),
    }
    done = subprocess.run(
        ["bash", "-c", line], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "open ground" in done.stdout, done.stdout
    assert shlex.split(line)[-1] == "terrain=open ground"
