"""``vedette [--db PATH] RULESET todo [--game NAME] [--json]`` answered without click (start-up
time, issue 26.8): the question a player asks after every step, at the table.

Only that exact shape is taken here (the options in any order, each at most once, as
``--opt VALUE`` or ``--opt=VALUE``); anything else, and any step that does not end in an
answer (no such game, a game of another ruleset, a refusal, text the output cannot encode),
goes to the whole command line (:func:`vedette.cli.main.main`), which gives its own answer or
its one-line error. Nothing is printed before the answer is complete, so a step handed on
prints only what the command line prints. The text and the JSON are made by the functions the
command line's ``todo`` uses (:mod:`vedette.cli.plain`); tests/core/test_core_cli.py compares
the two.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

#: the options ``todo`` takes here: name -> whether it takes a value
_OPTIONS = {"--game": True, "--json": False}


def parse(args: Sequence[str]) -> tuple[str | None, str, str, dict[str, str | bool]] | None:
    """``(db, ruleset as typed, canonical ruleset, options)`` if ``args`` is that shape."""
    # start-up: the command line loads this only for a command that needs it
    from vedette.rules import REGISTRY  # the registry alone: no ruleset is imported

    rest = list(args)
    db: str | None = None
    if rest[:1] == ["--db"] and len(rest) > 1:
        db, rest = rest[1], rest[2:]
    elif rest and rest[0].startswith("--db="):
        db, rest = rest[0][5:], rest[1:]
    if db == "" or len(rest) < 2 or rest[1] != "todo":
        return None
    typed = rest[0]
    name = next((k for k, (_, al) in REGISTRY.items() if typed.lower() in (k, *al)), None)
    if name is None:
        return None
    opts: dict[str, str | bool] = {}
    words = rest[2:]
    while words:
        word = words.pop(0)
        key, eq, value = word.partition("=")
        if key not in _OPTIONS or key in opts:
            return None
        if not _OPTIONS[key]:
            if eq:
                return None
            opts[key] = True
            continue
        if not eq:
            if not words:
                return None
            value = words.pop(0)
        if not value or value.startswith("-"):
            return None
        opts[key] = value
    return db, typed, name, opts


def todo(args: Sequence[str]) -> int | None:
    """Answer ``args`` if it is a ``todo`` this module takes: the exit code, else ``None``
    (nothing printed: the whole command line answers)."""
    if not all(a.isprintable() for a in args):
        return None  # the command line says which argument is not text
    parsed = parse(args)
    if parsed is None:
        return None
    db, typed, name, opts = parsed
    # start-up: the command line loads this only for a command that needs it
    from vedette.cli.plain import default_db, json_text, printable, todo_answer, todo_lines
    from vedette.engine import Game, Store

    game = opts.get("--game")
    try:
        with Store(db or default_db()) as st:
            g = Game.open(st, game if isinstance(game, str) else None)
            if g.ruleset.name != name:
                return None
            items, data = todo_answer(g)
            lines = todo_lines(items, f"vedette {typed}", data["todo"], data.get("standing"))
            text = json_text(data) if opts.get("--json") else printable("\n".join(lines))
    except Exception:  # the command line gives its own answer or error
        return None
    try:
        if not opts.get("--json"):
            # start-up: the command line loads this only for a command that needs it
            from vedette.cli.term import is_terminal

            if is_terminal():
                # start-up: the command line loads this only for a command that needs it
                from vedette.cli.term import echo  # rich

                echo(text)
                return 0
        text.encode(sys.stdout.encoding or "utf-8")
    except UnicodeEncodeError:
        return None
    except BrokenPipeError:
        return 0
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        return 0
    return 0
