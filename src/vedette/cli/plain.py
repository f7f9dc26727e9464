"""What the command line's output and database need without click (start-up time, issue
26.8): the default database, text made safe for a terminal, JSON output and ``todo``'s lines.
:mod:`vedette.cli.quick` answers ``todo`` with these alone; :mod:`vedette.cli.common` and the
commands use the same functions, so both print the same."""

from __future__ import annotations

import itertools
import json
import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

from vedette.errors import VedetteError


def default_db() -> str:
    """``$VEDETTE_DB``, else ``vedette.sqlite3`` in the user's data folder for this OS
    (platformdirs: ``$XDG_DATA_HOME/vedette`` or ``~/.local/share/vedette`` on Linux,
    ``~/Library/Application Support/vedette`` on macOS, ``%LOCALAPPDATA%\\vedette`` on Windows)."""
    env = os.environ.get("VEDETTE_DB")
    if env:
        return env
    from platformdirs import user_data_dir

    return os.path.join(user_data_dir("vedette", appauthor=False), "vedette.sqlite3")


#: what a terminal would obey in text it prints: escape sequences (CSI, OSC ... up to their
#: end), every other control character but newline and tab (C0, DEL, C1), and the direction
#: overrides that reorder what follows them (a name stored before names refused them)
_TERMINAL = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]?"
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u202a-\u202e\u2066-\u2069]"
)


_ESCAPE_JSON = re.compile(r"[\x7f-\x9f\ud800-\udfff]")


#: a run of text with no space in it longer than any name, path or rule the messages give
_LONG_RUN = re.compile(r"\S{201,}")


def error_line(text: str) -> str:
    """An error's words as its one ``vedette: error:`` line: its lines joined, and a value
    typed or read at great length (5,000 characters, echoed) cut to its start and its
    length."""
    joined = " ".join(part.strip() for part in text.splitlines() if part.strip())
    return _LONG_RUN.sub(lambda m: f"{m.group()[:60]}...({len(m.group())} characters)", joined)


def printable(text: str) -> str:
    """``text`` with every terminal escape sequence and control character (but newline and
    tab) taken out: a name or message from a file cannot drive the terminal."""
    return _TERMINAL.sub("", text)


def json_text(data: Any) -> str:
    """``data`` as ``--json`` prints it (indented; C1 controls and lone surrogates escaped)."""
    text_json = json.dumps(data, indent=2, default=str, ensure_ascii=False)
    # (JSON escapes C0 already; C1 and lone surrogates only ever sit inside strings)
    return _ESCAPE_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text_json)


def todo_answer(g: Any) -> tuple[list[Any], dict[str, Any]]:
    """``todo`` of the game ``g``: its entries, and the data ``--json`` prints."""
    items = g.todo()
    owed = g.obligations()
    data = {
        "game": g.name,
        "owed": [o.to_json() for o in owed],
        "todo": [t.to_json() for t in items],
    }
    standing = g.ruleset.standing(g.state)
    if standing is not None:  # (a study's end, shown: the game goes on)
        data["standing"] = standing
    if g.physical:  # the player's own dice: each step's dice, the faces its first takes
        for t, entry in zip(items, data["todo"], strict=True):
            entry.update(own_dice(g, t))
    return items, data


#: an open entry's dice are asked of at most this many of its fillings (each is planned)
OPEN_FILLINGS = 64


def own_dice(g: Any, t: Any) -> dict[str, Any]:
    """For a game played with the player's own dice, what a ``todo`` entry rolls: ``dice``, the
    dice it takes whatever the faces, in order, each with its faces (a real deck's card: the
    numbers left, reading K80 of Kuryakin), and ``more_dice``, whether some faces call for more
    (each asked for then). An entry with open fields gives them when every filling of its
    choices (up to :data:`OPEN_FILLINGS`) that is accepted rolls the same dice (a bore-sight
    die whatever the target); otherwise, or for an entry refused: {}."""
    if t.refused:
        return {}
    answers = set()
    for request in _fillings(t):
        try:
            certain, more = g.dice_asked(t.procedure, request)
        except VedetteError:
            continue
        answers.add((tuple((d.name, tuple(d.faces)) for d in certain), more is not None))
        if len(answers) > 1:
            return {}
    if len(answers) != 1:
        return {}
    ((dice, more_dice),) = answers
    out: dict[str, Any] = {
        "dice": [{"name": name, "faces": list(faces)} for name, faces in dice],
        "more_dice": more_dice,
    }
    then = _then(g, t) if more_dice and len(dice) == 1 else None
    if then is not None:
        out["more_on"], out["more_dice_names"], out["more_said"] = then
    return out


def _then(g: Any, t: Any) -> tuple[list[int], list[str], str] | None:
    """The faces of a step's one first die that call for more dice, those dice by name and
    the words for the whole roll (``Game.dice_called``), from its first filling accepted;
    None when it is not so simple."""
    for request in _fillings(t):
        try:
            return g.dice_called(t.procedure, request)  # type: ignore[no-any-return]
        except VedetteError:
            continue
    return None


def _fillings(t: Any) -> list[dict[str, Any]]:
    """The requests an entry stands for: its own when complete, else its request with each
    combination of its open fields' choices (none when more than :data:`OPEN_FILLINGS`)."""
    out = [dict(t.request)]
    for key, choices in t.open.items():
        out = [{**r, key: c} for r in out for c in choices]
        if len(out) > OPEN_FILLINGS:
            return []
    return out


def dice_ask(entry: Mapping[str, Any]) -> str:
    """What a ``todo`` entry of a game played with the player's own dice asks for (its
    ``dice`` and ``more_dice``, :func:`own_dice`), as a line of text ("" for none): the dice
    in order, a run of the same die counted, given with ``--dice``."""
    names = [str(d.get("name", "")) for d in entry.get("dice") or ()]
    if not names:
        return ""
    rolls = ", ".join(f"{len(list(run))}{name}" for name, run in itertools.groupby(names))
    said = entry.get("more_said")
    if said:  # one line for every die the step may take (O'Leary 6.1's scatter dice)
        return f"roll {said}; give all their faces in order in one --dice FACES"
    more = (
        " (some faces call for more dice: each is asked for then)" if entry.get("more_dice") else ""
    )
    return f"roll {rolls} and give the faces in order as --dice FACES{more}"


#: what the CLI says of an entry's free fields (``Todo.free``: stated facts read for a modifier
#: only), printed apart from its other choices
FACTS_NOTE = "(each the first if left out)"


def _choices(t: Any) -> list[tuple[str, str]]:
    """An open entry's choices as (label, text) lines: ``choose:`` the fields to pick, and
    ``facts:`` its free fields apart, a line per group of fields with the same choices, each
    of which may be left out (its first choice is then taken)."""
    if not t.open:
        return []
    if not t.free:
        return [("choose:", t.choices_text())]
    out = []
    picks = t.choices_text(free=False)
    if picks:
        out.append(("choose:", picks))
    facts = t.choice_groups(free=True)
    facts[-1] += f" {FACTS_NOTE}"
    out.extend(("facts:" if i == 0 else " ", f) for i, f in enumerate(facts))
    return out


def todo_lines(
    items: Sequence[Any],
    prefix: str,
    entries: Sequence[Mapping[str, Any]] = (),
    standing: Mapping[str, Any] | None = None,
) -> list[str]:
    """``todo`` as text: owed steps first, each with its rule, the command that discharges it
    and the one that waives it; then the actions open now. In a game played with the player's
    own dice, a step that rolls says which dice and how to give them (``--dice FACES``, also on
    an owed step's command): ``entries``, the entries of :func:`todo_answer`'s data. A
    ``standing`` (``Ruleset.standing``: a study's end, shown) comes first, in its words."""
    lines: list[str] = []
    asks = {id(t): dice_ask(e) for t, e in zip(items, entries, strict=False)}
    owed = [t for t in items if t.owed]
    open_now = [t for t in items if not t.owed]
    for t in owed:
        rule = f" ({t.rule})" if t.rule else ""
        lines.append(f"OWED  {t.text}{rule}")
        dice = " --dice FACES" if asks.get(id(t)) else ""
        lines.append(f"      do it:    {prefix} {t.command()}{dice}")
        if dice:
            lines.append(f"      dice:     {asks[id(t)]}")
        if t.open:
            lines.extend(f"      {k:<10}{v}" for k, v in _choices(t))
        if t.refused:
            lines.append(f"      refused now: {t.refused}")
        if t.obligation:
            lines.append(f"      waive it: {prefix} waive {t.obligation}")
    if open_now:
        lines.append("open now:" if owed else "nothing owed; open now:")
        width = max(len(t.command()) for t in open_now)
        for t in open_now:
            rule = f" ({t.rule})" if t.rule else ""
            lines.append(f"  {prefix} {t.command():<{width}}  {t.text}{rule}")
            for k, v in _choices(t):
                lines.append(f"  {'':<{len(prefix)}} {'':<{width}}  {k[:-1]:<6} {v}")
            if asks.get(id(t)):
                lines.append(f"  {'':<{len(prefix)}} {'':<{width}}  {asks[id(t)]}")
    if not lines:
        lines.append(f"nothing owed, and no action open without fields (see '{prefix} help')")
    return [str(standing["text"]), *lines] if standing else lines
