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

An ``output`` block shows what the command just before it (the last line of the block above)
printed, checked the same way. Every fenced block says what it is (``sh``, ``console``,
``output``, ``toml``, ``python``, or ``text`` for anything not run nor printed by a command),
so output shown on a page cannot be left unchecked by a bare fence.
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
    (continuations joined) and ``console`` transcripts, an ``output`` block's lines shown for
    the command before it."""
    out: list[tuple[int, str, list[str]]] = []
    lang: str | None = None
    pending: tuple[int, str] | None = None
    for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
        fence = FENCE.match(line)
        if fence:
            lang = None if lang is not None else fence.group(1)
            continue
        if lang == "output":
            if not out:
                raise ValueError(f"{doc.name}:{n}: an output block with no command before it")
            if line.strip():
                out[-1][2].append(line.rstrip())
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


FENCE_KINDS = {"sh", "console", "output", "toml", "python", "text"}


def test_every_fenced_block_says_what_it_is() -> None:
    """A block of a command's output is checked only when tagged ``output`` (or shown in a
    ``console`` transcript): a bare fence would show output nobody checks, so none is left bare,
    and a shown output is never given to a command that is not run."""
    wrong = []
    for doc in DOCS:
        opened = False
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            fence = FENCE.match(line)
            if not fence:
                continue
            if not opened and fence.group(1) not in FENCE_KINDS:
                wrong.append(f"{doc.relative_to(ROOT)}:{n}: ```{fence.group(1)}")
            opened = not opened
        wrong += [
            f"{c.where()}: output shown for a command not run"
            for c, _ in commands(doc)[1]
            if c.shown
        ]
    assert not wrong, f"fenced blocks of no known kind ({sorted(FENCE_KINDS)}): {wrong}"


def test_an_output_block_is_the_output_of_the_command_before_it(tmp_path: Path) -> None:
    doc = tmp_path / "page.md"
    doc.write_text(
        "```sh\nvedette roll 1d6 --dice 4\nvedette roll 1d6 --dice 5\n```\n\nprints\n\n"
        "```output\n1d6=5\n```\n",
        encoding="utf-8",
    )
    (first, second), _ = commands(doc)
    assert first.shown == () and second.shown == ("1d6=5",)
    assert shown_in(second.shown, "rolled\n1d6=5\n") is None
    assert shown_in(second.shown, "1d6=4\n") == "1d6=5"
    doc.write_text("```output\n1d6=5\n```\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no command before it"):
        commands(doc)


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
