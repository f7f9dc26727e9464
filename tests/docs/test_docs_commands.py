"""The docs cannot drift: every command of a fenced ``sh`` block in README.md, docs/**/*.md and
the players' help pages (src/vedette/rules/*/data/help.md, the web app's /help/RULESET) runs.

Each document is a session: its commands run in the order written, in a fresh temporary
directory, against a fresh database (``VEDETTE_DB``), with the ``vedette`` of the venv running
the tests (``.venv/bin/vedette`` in the README is that one). Every command must exit 0.
A line made only of ``vedette`` commands (joined by ``;`` or ``&&``) runs in this process through
``vedette.cli.main.main``, the function the entry point calls; any other line, and the README's
first command (the installed entry point itself), runs through bash.

Conventions for a doc's ``sh`` blocks:

- one command per line (a trailing ``\\`` continues it); ``#`` comments are the shell's own;
- ``command  # => TEXT`` also checks that the command printed TEXT;
- the only lines not run are those matched by ``NOT_RUN`` below, each with its reason
  (a pattern that no longer matches any line fails, so the list cannot rot).

A ``console`` block is a transcript: each ``$ command`` line runs (in order with the ``sh``
blocks), and the lines after it up to the next ``$`` are what it must print: each shown line
appears in the output, in the order shown; ``...`` inside a line stands for any text, a line
that is only ``...`` for any lines.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").rglob("*.md")),
    *sorted((ROOT / "src/vedette/rules").glob("*/data/help.md")),
]

# The lines of an sh block that are not run, and why.
NOT_RUN: dict[str, str] = {
    r"^make (run|test)\b": "the project's own set-up (make run serves until stopped; make test is "
    "this suite)",
    r"_VEDETTE_COMPLETE=\w+_source": "a line for the shell's start-up file (shell completion), "
    "not a command to run once",
    r"--scheduler tcp://": "needs a Dask cluster of your own (the scheduler's address)",
}

FENCE = re.compile(r"^\s*```\s*([\w-]*)")
EXPECT = re.compile(r"\s#\s=>\s(?P<text>.*?)\s*$")


@dataclass(frozen=True)
class Command:
    doc: Path
    line: int
    text: str
    expect: str | None
    shown: tuple[str, ...] = ()

    def where(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"


def sh_lines(doc: Path) -> list[tuple[int, str, list[str]]]:
    """(line number, command, output shown) of every command of the doc's ``sh`` blocks
    (continuations joined) and ``console`` transcripts."""
    out: list[tuple[int, str, list[str]]] = []
    lang: str | None = None
    pending: tuple[int, str] | None = None
    for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
        fence = FENCE.match(line)
        if fence:
            lang = None if lang is not None else fence.group(1)
            continue
        if lang == "console":
            if line.startswith("$ "):
                out.append((n, line[2:].strip(), []))
            elif out and line.strip():
                out[-1][2].append(line.rstrip())
            continue
        if lang != "sh":
            continue
        if pending is not None:
            n, line = pending[0], pending[1] + " " + line.strip()
            pending = None
        if line.rstrip().endswith("\\"):
            pending = (n, line.rstrip()[:-1])
            continue
        if line.strip() and not line.lstrip().startswith("#"):
            out.append((n, line.strip(), []))
    return out


def shown_in(shown: Sequence[str], printed: str) -> str | None:
    """None if every shown line is printed in that order (``...`` as a wildcard), else the
    first shown line that is not."""
    lines = [ln.rstrip() for ln in printed.splitlines()]
    at = 0
    for want in shown:
        if want.strip() == "...":
            continue
        pattern = re.compile(".*".join(re.escape(part) for part in want.strip().split("...")))
        while at < len(lines) and not pattern.fullmatch(lines[at].strip()):
            at += 1
        if at == len(lines):
            return want
        at += 1
    return None


def commands(doc: Path) -> tuple[list[Command], list[tuple[Command, str]]]:
    """The doc's commands to run, and those not run with the reason."""
    run: list[Command] = []
    skipped: list[tuple[Command, str]] = []
    for n, line, shown in sh_lines(doc):
        m = EXPECT.search(line)
        cmd = Command(doc, n, line, m.group("text") if m else None, tuple(shown))
        reason = next((why for pat, why in NOT_RUN.items() if re.search(pat, line)), None)
        if reason:
            skipped.append((cmd, reason))
        else:
            run.append(cmd)
    return run, skipped


def test_the_docs_have_commands_and_every_reason_not_to_run_one_is_used() -> None:
    docs_with_commands = [d.name for d in DOCS if commands(d)[0]]
    assert "README.md" in docs_with_commands
    assert len(docs_with_commands) >= 4
    skipped = [c.text for d in DOCS for c, _ in commands(d)[1]]
    used = {pat for pat in NOT_RUN for text in skipped if re.search(pat, text)}
    assert used == set(NOT_RUN), f"NOT_RUN patterns matching no doc line: {set(NOT_RUN) - used}"


def test_no_doc_is_a_symlink_and_no_link_leaves_the_repository() -> None:
    link = re.compile(r"\]\(([^)\s]+)\)|`(\.\./[^`]+)`")
    for doc in DOCS:
        assert not doc.is_symlink(), f"{doc.relative_to(ROOT)} is a symlink"
        for m in link.finditer(doc.read_text(encoding="utf-8")):
            target = m.group(1) or m.group(2)
            if re.match(r"[a-z]+://|#|mailto:", target):
                continue
            path = (doc.parent / target.split("#")[0]).resolve()
            assert path.is_relative_to(ROOT), f"{doc.relative_to(ROOT)} links out: {target}"
            assert path.exists(), f"{doc.relative_to(ROOT)} links to a missing {target}"


@pytest.mark.parametrize(
    "doc", [d for d in DOCS if commands(d)[0]], ids=lambda d: str(d.relative_to(ROOT))
)
def test_every_command_of_the_doc_runs_as_written(
    doc: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bindir = Path(sys.executable).parent
    env = {
        **os.environ,
        "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
        "VEDETTE_DB": str(tmp_path / "vedette.sqlite3"),
        "HOME": str(tmp_path),
        "NO_COLOR": "1",
    }
    env.pop("_VEDETTE_COMPLETE", None)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("_VEDETTE_COMPLETE", raising=False)
    monkeypatch.chdir(tmp_path)
    for n, cmd in enumerate(commands(doc)[0]):
        text = cmd.text.replace(".venv/bin/vedette", "vedette")
        argvs = in_process(text)
        if argvs is None or (doc.name == "README.md" and n == 0):
            # the installed entry point itself, through the shell (the README's first command
            # proves it; a line with shell syntax other than `;` and `&&` needs the shell)
            code, out, err = through_the_shell(text, tmp_path, env)
        else:
            code, out, err = run_in_process(argvs)
        assert code == 0, f"{cmd.where()}: `{cmd.text}` exited {code}:\n{out[-2000:]}{err[-2000:]}"
        missing = shown_in(cmd.shown, out)
        assert missing is None, (
            f"{cmd.where()}: `{cmd.text}` did not print {missing!r}:\n{out[-3000:]}"
        )
        if cmd.expect is not None:
            assert cmd.expect in out, (
                f"{cmd.where()}: `{cmd.text}` did not print {cmd.expect!r}:\n{out[-2000:]}"
            )


def in_process(text: str) -> list[list[str]] | None:
    """The argument lists of a line made only of ``vedette`` commands joined by ``;`` or ``&&``
    (each run by ``vedette.cli.main.main`` in this process: the same code the entry point runs,
    without a Python start-up per line), or None when the line needs a shell."""
    lexer = shlex.shlex(text, posix=True, punctuation_chars=";&")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    argvs: list[list[str]] = [[]]
    for token in lexer:
        if token in (";", "&&"):
            argvs.append([])
        elif set(token) <= set(";&|<>()"):
            return None
        else:
            argvs[-1].append(token)
    if any(not a or a[0] != "vedette" or any("$" in t or "`" in t for t in a) for a in argvs):
        return None
    return [a[1:] for a in argvs]


def run_in_process(argvs: list[list[str]]) -> tuple[int, str, str]:
    from vedette.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        for argv in argvs:
            code = main(argv)
            if code != 0:  # `a && b` and bash -e stop at the first failure alike
                break
    return code, out.getvalue(), err.getvalue()


def through_the_shell(text: str, cwd: Path, env: dict[str, str]) -> tuple[int, str, str]:
    done = subprocess.run(
        ["bash", "-eo", "pipefail", "-c", text],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
    )
    return done.returncode, done.stdout, done.stderr


def test_a_line_with_shell_syntax_goes_through_the_shell() -> None:
    both = in_process("vedette nab show ; vedette game log  # c")
    assert both == [["nab", "show"], ["game", "log"]]
    assert in_process("vedette 2x2 move unit=A1 to='[300,480]'") == [
        ["2x2", "move", "unit=A1", "to=[300,480]"]
    ]
    assert in_process("vedette nab show | head") is None
    assert in_process("vedette game export -o x > y") is None
    assert in_process("ls && vedette nab show") is None
    assert in_process('vedette nab show "$HOME"') is None
