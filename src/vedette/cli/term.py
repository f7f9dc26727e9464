"""Output for a terminal: where standard output is one, text goes through rich (odds bars as
coloured blocks, percentages in bold, table headers underlined; each string is a ``Text``, never
markup, so a game's names print as typed); piped, redirected or ``--json``, the plain text is
unchanged. rich is imported only then, and only for text it styles or rewrites (a todo list
prints as it is), so ``vedette --help``, ``vedette roll`` and ``todo`` stay light."""

from __future__ import annotations

import os
import re
import sys
from typing import IO, Any

#: an odds row: ``  58.33%       7/12  ############         [1-7] shift allowed``
ODDS_ROW = re.compile(
    r"^(?P<lead>\s*)(?P<pct>\d+\.\d\d%)(?P<mid>\s+\S+\s\s)(?P<bar>#*)(?P<rest>.*)$"
)

#: what rich rewrites in plain text (it drops bells and carriage returns, expands tabs)
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def is_terminal(stream: IO[str] | None = None) -> bool:
    stream = stream or sys.stdout
    return stream.isatty() and os.environ.get("TERM") != "dumb"


def styled(line: str) -> Any:
    """The rich ``Text`` of one line of vedette's plain output (same words, same widths)."""
    from rich.text import Text

    m = ODDS_ROW.match(line)
    if not m:
        return Text(line)
    text = Text(m["lead"])
    text.append(m["pct"], "bold")
    text.append(m["mid"])
    text.append("█" * len(m["bar"]), "green")
    text.append(m["rest"])
    return text


def echo(text: str) -> None:
    """Print ``text``: through rich on a terminal, else exactly as given."""
    if not is_terminal():
        import click  # start-up: vedette.cli.quick prints through here without the command line

        click.echo(text)
        return
    lines = text.split("\n")
    if not any(ODDS_ROW.match(line) or _CONTROL.search(line) for line in lines):
        # nothing to style (a todo list, a log): rich would print each line as it is, so it is
        # not imported (start-up time, issue 26 item 8)
        sys.stdout.write("".join(f"{line}\n" for line in lines))
        sys.stdout.flush()
        return
    from rich.console import Console

    console = Console(highlight=False, markup=False, emoji=False, soft_wrap=True)
    for line in lines:
        console.print(styled(line))


class Progress:
    """A simulation's progress on standard error: rich's bar on a terminal, else click's."""

    def __init__(self, total: int, label: str) -> None:
        self.total, self.label = total, label
        self._rich: Any = None
        self._click: Any = None

    def __enter__(self) -> Progress:
        if is_terminal(sys.stderr):
            from rich.console import Console
            from rich.progress import Progress as Bar

            self._rich = Bar(console=Console(stderr=True), transient=False)
            self._rich.start()
            self._task = self._rich.add_task(self.label, total=self.total)
        else:
            import click  # start-up: see echo

            self._click = click.progressbar(
                length=self.total, label=self.label, file=sys.stderr, show_pos=True, show_eta=True
            )
            self._click.__enter__()
        return self

    def update(self, n: int) -> None:
        if self._rich is not None:
            self._rich.advance(self._task, n)
        else:
            self._click.update(n)

    def __exit__(self, *exc: object) -> None:
        if self._rich is not None:
            self._rich.stop()
        else:
            self._click.__exit__(*exc)
