"""The ``vedette`` command's entry point: ``vedette roll EXPRESSION`` alone (the command a
player types most, at the table, between moves) is answered without loading click and the
rest of the command line, and so is ``vedette RULESET todo`` (:mod:`vedette.cli.quick`);
everything else goes to :func:`vedette.cli.main.main`.

The quick roll prints exactly what ``cmd_roll`` prints for the same expression (a fresh seed,
the roll's one line; an error as one ``vedette: error:`` line and the error's exit code):
tests/core/test_core_cli.py compares the two. Start-up: bench/bench_startup.py.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from vedette.cli.plain import error_line
from vedette.errors import VedetteError

#: the environment variable click's shell completion sets (vedette.cli.main.COMPLETE_VAR)
_COMPLETE_VAR = "_VEDETTE_COMPLETE"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if (
        len(args) == 2
        and args[0] == "roll"
        and args[1][:1] not in ("-", "")
        and not os.environ.get(_COMPLETE_VAR)
    ):
        return quick_roll(args[1])
    if "todo" in args and not os.environ.get(_COMPLETE_VAR):
        # start-up: the command line loads this only for a command that needs it
        from vedette.cli.quick import todo  # RULESET todo: answered without click

        done = todo(args)
        if done is not None:
            return done
    # start-up: the command line loads this only for a command that needs it
    from vedette.cli.main import main as full

    return full(argv)


def quick_roll(expression: str, seed: int | None = None) -> int:
    """``vedette roll EXPRESSION``: roll with a fresh seed and print the roll's line."""
    # start-up: the command line loads this only for a command that needs it
    from vedette.dice import Check, SeededSource

    if seed is None:  # a fresh 63-bit seed, as cmd_roll draws it
        seed = int.from_bytes(os.urandom(8), "little") >> 1
    try:
        line = Check(expression).resolve(SeededSource(seed)).line()
    except VedetteError as e:
        print(f"vedette: error: {error_line(str(e))}", file=sys.stderr)
        return e.exit_code
    except BrokenPipeError:
        return 0
    print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
