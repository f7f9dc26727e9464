"""Bounds on anything given from outside (a request, a file, an import): depth, size, finite
numbers, bounded text. Plain Python, without pydantic (start-up time: a CLI action checks its
request here; vedette.schemas re-exports these for the file schemas)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any
from unicodedata import category

from vedette.errors import DataError

#: limits on anything given from outside (a file, a request, an import)
MAX_DEPTH = 24  # nesting of lists and tables
MAX_NODES = 200_000  # values in one document
MAX_STR = 20_000  # characters in one string
MAX_KEY = 200  # characters in one key
MAX_INT = 2**64  # |integer| (seeds go up to 2**64 - 1)
MAX_SEED = 2**64 - 1
MAX_NAME = 100  # characters in a game's name
MAX_ID = 64  # characters in an id (a unit, a hex, a stack)
MAX_ITEMS = 2_000  # entries in one list of a scenario (units, forces, locations)
MAX_COORD = 1e7  # |a coordinate| (mm on a table, far beyond any table)


def check_tree(
    data: Any,
    source: str,
    max_depth: int = MAX_DEPTH,
    max_nodes: int = MAX_NODES,
    null: bool = True,
) -> None:
    """Any JSON/TOML tree from outside: bounded depth and size, finite numbers, bounded
    integers and strings, string keys; ``null`` (JSON's, TOML has none) only where ``null``.
    Iterative (no recursion to exhaust). A value's path (``units[0].name``) is spelt out only
    for a refusal: a sound tree, the usual case, is read without writing one."""
    if _sound(data, max_depth, max_nodes, null):
        return  # (the usual case; anything else is walked again below, naming its problem)
    # each entry: (value, depth, its parent's entry, its key or index there)
    stack: list[_Entry] = [(data, 0, None, None)]
    push = stack.append
    search = BAD_TEXT.search
    nodes = 0
    while stack:
        entry = stack.pop()
        x, depth = entry[0], entry[1]
        nodes += 1
        if nodes > max_nodes:
            raise DataError(source, f"too large (more than {max_nodes} values)")
        if depth > max_depth:
            raise DataError(source, f"{_path(entry) or 'top'}: nested more than {max_depth} deep")
        if x is None:
            if not null:
                raise DataError(source, f"{_path(entry) or 'value'}: null is not a value here")
            continue
        t = type(x)
        if t is str or (t is not int and isinstance(x, str)):
            if len(x) > MAX_STR:
                raise DataError(
                    source, f"{_path(entry) or 'value'}: text longer than {MAX_STR} characters"
                )
            bad = search(x)
            if bad is not None:
                raise DataError(source, f"{_path(entry) or 'value'}: {_bad_char(bad.group())}")
        elif isinstance(x, bool):
            continue
        elif isinstance(x, int):
            if abs(x) > MAX_INT:
                raise DataError(
                    source, f"{_path(entry) or 'value'}: number {_short(x)} is out of range"
                )
        elif isinstance(x, float):
            if not math.isfinite(x):
                raise DataError(source, f"{_path(entry) or 'value'}: {x} is not a finite number")
        elif t is not list and t is not tuple and isinstance(x, Mapping):
            d1 = depth + 1
            for k, v in x.items():
                if not isinstance(k, str):
                    raise DataError(source, f"{_path(entry) or 'top'}: keys must be text")
                if len(k) > MAX_KEY:
                    raise DataError(source, f"{_path(entry) or 'top'}: a key longer than {MAX_KEY}")
                bad = search(k)
                if bad is not None:
                    raise DataError(
                        source, f"{_path(entry) or 'top'}: a key {_bad_char(bad.group())}"
                    )
                push((v, d1, entry, k))
        elif isinstance(x, list | tuple):
            d1 = depth + 1
            for i, v in enumerate(x):
                push((v, d1, entry, i))
        else:
            # TOML dates and times, and anything else no schema expects
            raise DataError(
                source, f"{_path(entry) or 'value'}: unexpected value of type {type(x).__name__}"
            )


def _sound(data: Any, max_depth: int, max_nodes: int, null: bool) -> bool:
    """Whether ``check_tree`` passes ``data``, read the quick way: plain dicts, lists, text and
    numbers checked in place, without an entry per value. False for anything else (a tuple, a
    mapping of another type, a subclass, a refusal): ``check_tree`` then walks it in full, so
    that the answer and the refusal's words are the full walk's."""
    search = BAD_TEXT.search
    isfinite = math.isfinite
    stack: list[tuple[Any, int]] = [(data, 0)]
    nodes = 1
    while stack:
        x, depth = stack.pop()
        t = type(x)
        if t is dict:
            values: Any = x.values()
            for k in x:
                if type(k) is not str or len(k) > MAX_KEY or search(k) is not None:
                    return False
        elif t is list:
            values = x
        else:
            return False
        if not values:
            continue
        nodes += len(values)
        if depth >= max_depth or nodes > max_nodes:
            return False
        d1 = depth + 1
        for v in values:
            tv = type(v)
            if tv is str:
                if len(v) > MAX_STR or search(v) is not None:
                    return False
            elif tv is int:
                if v > MAX_INT or v < -MAX_INT:
                    return False
            elif tv is float:
                if not isfinite(v):
                    return False
            elif v is None:
                if not null:
                    return False
            elif tv is dict or tv is list:
                stack.append((v, d1))
            elif tv is not bool:
                return False
    return True


#: an entry of check_tree's stack: (value, depth, the parent's entry, key or index in it)
_Entry = tuple[Any, int, Any, "str | int | None"]


def _path(entry: _Entry) -> str:
    """The path of a value of check_tree's stack, as a user finds it: ``units[0].name``."""
    keys: list[str | int] = []
    while entry[2] is not None:
        keys.append(entry[3])  # type: ignore[arg-type]
        entry = entry[2]
    path = ""
    for k in reversed(keys):
        path = f"{path}[{k}]" if isinstance(k, int) else f"{path}.{k}" if path else k
    return path


#: the direction controls that reorder the text after them (embeddings, overrides, isolates:
#: "Trojan Source" text shows one thing and holds another) and the line and paragraph
#: separators (a line break in a one-line name or message)
REORDERING = "\u202a-\u202e\u2066-\u2069\u2028\u2029"
#: what text from outside may not hold: lone surrogates (not Unicode: they cannot be written
#: as UTF-8, so every page showing them would fail), control characters but newline and tab,
#: and the characters of REORDERING
BAD_TEXT = re.compile(f"[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\ud800-\\udfff{REORDERING}]")


def _bad_char(ch: str) -> str:
    if "\ud800" <= ch <= "\udfff":
        return f"holds a lone surrogate (U+{ord(ch):04X}), which is not valid Unicode text"
    if ch in "\u2028\u2029":
        return f"holds a line or paragraph separator (U+{ord(ch):04X})"
    if ch > "\x9f":
        return f"holds a direction control (U+{ord(ch):04X}), which reorders the text shown"
    return f"holds a control character (U+{ord(ch):04X})"


def hidden_char(text: str) -> str:
    """The first character of ``text`` that shows nothing or moves what is shown ('' if
    none): a control, a direction mark or override, a zero-width or other format character
    (Unicode category Cc or Cf), a line or paragraph separator, a lone surrogate. A name or id
    typed to name something (a game, a unit) may not hold one: ``F1`` and ``F1`` with a
    zero-width space after it look alike and are two names."""
    for ch in text:
        if category(ch) in _HIDDEN:
            return ch
    return ""


_HIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


def hidden_problem(ch: str) -> str:
    """How :func:`hidden_char`'s character is named in a refusal."""
    if category(ch) == "Cf" and not BAD_TEXT.match(ch):
        return f"holds an invisible character (U+{ord(ch):04X})"
    return _bad_char(ch)


def _short(n: int) -> str:
    s = str(n)
    return s if len(s) <= 24 else f"{s[:10]}...({len(s)} digits)"


#: a procedure's request: bounded like any input (the procedure checks the values it reads)
MAX_REQUEST_DEPTH = 6
MAX_REQUEST_NODES = 5_000
MAX_FACES = 200


def check_request(request: Any, faces: Sequence[int] | None = None) -> None:
    """A request to a procedure (CLI ``KEY=VALUE``, a web body): a table of at most a few
    thousand finite values nested a few deep; physical dice: at most 200 whole numbers."""
    if not isinstance(request, Mapping):
        raise DataError("request", "must be a table of KEY = VALUE")
    check_tree(request, "request", MAX_REQUEST_DEPTH, MAX_REQUEST_NODES)
    if faces is not None:
        if len(faces) > MAX_FACES:
            raise DataError("dice", f"at most {MAX_FACES} dice")
        for f in faces:
            if isinstance(f, bool) or not isinstance(f, int) or abs(f) > 10**6:
                raise DataError("dice", f"{f!r} is not a die face")
