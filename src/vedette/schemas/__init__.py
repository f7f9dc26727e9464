"""Schemas for everything a person or a file gives vedette (the trust boundary).

Scenarios, house rules, ``--option`` keys, imported game logs and web request bodies are checked
here before anything is stored: unknown keys are refused with a did-you-mean, types and ranges
are checked (finite numbers only, bounded sizes, counts and nesting), and every refusal is a
:class:`~vedette.errors.DataError` whose one line names the source, the key path and the problem.

The models only *check*: the data a game stores is the data it was given, so a game replays the
same as before the schemas existed.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator
from pydantic_core import PydanticCustomError

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

M = TypeVar("M", bound=BaseModel)


def did_you_mean(key: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(key, list(known), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


class Strict(BaseModel):
    """Base of every input model: unknown keys refused (with a did-you-mean), no coercion
    (``"1"`` is not a number, ``"ture"`` is not a boolean), finite numbers only."""

    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        allow_inf_nan=False,
        str_max_length=MAX_STR,
        frozen=True,
    )

    @model_validator(mode="before")
    @classmethod
    def _known_keys(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and cls.model_config.get("extra") == "forbid":
            known = {n: None for n in cls.model_fields}
            for f in cls.model_fields.values():
                if f.alias:
                    known[f.alias] = None
            for key in data:
                if key not in known:
                    k = str(key)
                    raise PydanticCustomError(
                        "unknown_key",
                        "unknown key {key}{hint}",
                        {"key": repr(k[:MAX_KEY]), "hint": did_you_mean(k, known)},
                    )
        return data


def loc_text(loc: Sequence[int | str]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            p = str(part)[:MAX_KEY]
            out += f".{p}" if out else p
    return out


def one_line(e: ValidationError, source: str, prefix: Sequence[int | str] = ()) -> DataError:
    """The first problem of a validation error as one line (source, key path, problem)."""
    errs = e.errors(include_url=False, include_input=False)
    if not errs:
        return DataError(source, "invalid")
    first = errs[0]
    loc = [p for p in (*prefix, *first["loc"]) if not _is_internal(p)]
    msg = str(first["msg"]).replace("\n", " ").removeprefix("Value error, ")
    if first["type"] == "literal_error":
        msg = msg.replace("Input should be", "must be")
    where = loc_text(loc)
    more = (
        f" (and {len(errs) - 1} more problem{'s' if len(errs) > 2 else ''})"
        if len(errs) > 1
        else ""
    )
    return DataError(source, f"{where + ': ' if where else ''}{msg}{more}")


def _is_internal(p: int | str) -> bool:
    # pydantic names union members and function validators in the path; a reader wants keys
    return isinstance(p, str) and (
        p.startswith(("function-", "tagged-union", "union[", "list[", "dict["))
        or p in ("str", "int", "float", "bool")
        or p.endswith(("-map", "-shape"))
        or p.startswith("constrained-")
    )


def validate(model: type[M], data: Any, source: str, prefix: Sequence[int | str] = ()) -> M:
    """Check ``data`` against ``model``; a refusal is one :class:`DataError` line."""
    check_tree(data, source)
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise one_line(e, source, prefix) from None
    except (RecursionError, MemoryError):
        raise DataError(source, "too deeply nested or too large") from None


def check_tree(
    data: Any,
    source: str,
    max_depth: int = MAX_DEPTH,
    max_nodes: int = MAX_NODES,
    null: bool = True,
) -> None:
    """Any JSON/TOML tree from outside: bounded depth and size, finite numbers, bounded
    integers and strings, string keys; ``null`` (JSON's, TOML has none) only where ``null``.
    Iterative (no recursion to exhaust)."""
    stack: list[tuple[Any, int, str]] = [(data, 0, "")]
    nodes = 0
    while stack:
        x, depth, path = stack.pop()
        nodes += 1
        if nodes > max_nodes:
            raise DataError(source, f"too large (more than {max_nodes} values)")
        if depth > max_depth:
            raise DataError(source, f"{path or 'top'}: nested more than {max_depth} deep")
        if x is None:
            if not null:
                raise DataError(source, f"{path or 'value'}: null is not a value here")
            continue
        if isinstance(x, bool):
            continue
        if isinstance(x, int):
            if abs(x) > MAX_INT:
                raise DataError(source, f"{path or 'value'}: number {_short(x)} is out of range")
        elif isinstance(x, float):
            if not math.isfinite(x):
                raise DataError(source, f"{path or 'value'}: {x} is not a finite number")
        elif isinstance(x, str):
            if len(x) > MAX_STR:
                raise DataError(source, f"{path or 'value'}: text longer than {MAX_STR} characters")
            bad = BAD_TEXT.search(x)
            if bad is not None:
                raise DataError(source, f"{path or 'value'}: {_bad_char(bad.group())}")
        elif isinstance(x, Mapping):
            for k, v in x.items():
                if not isinstance(k, str):
                    raise DataError(source, f"{path or 'top'}: keys must be text")
                if len(k) > MAX_KEY:
                    raise DataError(source, f"{path or 'top'}: a key longer than {MAX_KEY}")
                bad = BAD_TEXT.search(k)
                if bad is not None:
                    raise DataError(source, f"{path or 'top'}: a key {_bad_char(bad.group())}")
                stack.append((v, depth + 1, f"{path}.{k}" if path else k))
        elif isinstance(x, list | tuple):
            for i, v in enumerate(x):
                stack.append((v, depth + 1, f"{path}[{i}]"))
        else:
            # TOML dates and times, and anything else no schema expects
            raise DataError(
                source, f"{path or 'value'}: unexpected value of type {type(x).__name__}"
            )


#: what text from outside may not hold: lone surrogates (not Unicode: they cannot be written
#: as UTF-8, so every page showing them would fail) and control characters but newline and tab
BAD_TEXT = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _bad_char(ch: str) -> str:
    if "\ud800" <= ch <= "\udfff":
        return f"holds a lone surrogate (U+{ord(ch):04X}), which is not valid Unicode text"
    return f"holds a control character (U+{ord(ch):04X})"


def _short(n: int) -> str:
    s = str(n)
    return s if len(s) <= 24 else f"{s[:10]}...({len(s)} digits)"


# -- shape checks derived from shipped data (house rules) --------------------------------------
def _kind(v: Any) -> str:
    if isinstance(v, bool):
        return "true or false"
    if isinstance(v, int):
        return "a whole number"
    if isinstance(v, float):
        return "a number"
    if isinstance(v, str):
        return "text"
    if isinstance(v, Mapping):
        return "a table"
    if isinstance(v, list | tuple):
        return "a list"
    return type(v).__name__


def _same_kind(shipped: Any, given: Any) -> bool:
    if isinstance(shipped, bool) or isinstance(given, bool):
        return isinstance(shipped, bool) and isinstance(given, bool)
    if isinstance(shipped, float):
        return isinstance(given, int | float)
    if isinstance(shipped, int):
        return isinstance(given, int)
    if isinstance(shipped, str):
        return isinstance(given, str)
    if isinstance(shipped, Mapping):
        return isinstance(given, Mapping)
    if isinstance(shipped, list | tuple):
        return isinstance(given, list | tuple)
    return True


def check_shape(
    given: Any,
    shipped: Any,
    source: str,
    path: str = "",
    open_maps: Sequence[str] = (),
    free: Sequence[str] = (),
) -> None:
    """``given`` must have the shape of ``shipped``: every key known (did-you-mean otherwise),
    every value of the shipped value's kind. Tables under a path in ``open_maps`` may gain new
    entries shaped like their siblings; values under a path in ``free`` are not checked here
    (their owner validates them whole, e.g. a result table's rows)."""
    if path in free:
        return
    if isinstance(shipped, Mapping):
        if not isinstance(given, Mapping):
            raise DataError(source, f"{path or 'top'}: must be a table, not {_kind(given)}")
        for k, v in given.items():
            sub = f"{path}.{k}" if path else str(k)
            if k in shipped:
                check_shape(v, shipped[k], source, sub, open_maps, free)
            elif path in open_maps and shipped:
                # a new entry: shaped like the union of its siblings
                union: dict[str, Any] = {}
                for sib in shipped.values():
                    if isinstance(sib, Mapping):
                        for sk, sv in sib.items():
                            union.setdefault(sk, sv)
                check_shape(v, union, source, sub, (), free)
            else:
                raise DataError(source, f"{sub}: unknown key{did_you_mean(str(k), shipped)}")
        return
    if not _same_kind(shipped, given):
        raise DataError(
            source,
            f"{path or 'value'}: must be {_kind(shipped)}, not {_kind(given)} {_brief(given)}",
        )
    if isinstance(shipped, list | tuple) and isinstance(given, list | tuple):
        items = [s for s in shipped if isinstance(s, Mapping)]
        if items:
            union = {}
            for s in items:
                union.update({k: v for k, v in s.items() if k not in union})
            for i, g in enumerate(given):
                check_shape(g, union, source, f"{path}[{i}]", (), free)
        elif shipped:
            first = shipped[0]
            for i, g in enumerate(given):
                if not _same_kind(first, g):
                    raise DataError(
                        source, f"{path}[{i}]: must be {_kind(first)}, not {_kind(g)} {_brief(g)}"
                    )


def _brief(v: Any) -> str:
    if isinstance(v, Mapping | list | tuple):
        return ""
    s = repr(v)
    return f"({s[:40]}...)" if len(s) > 43 else f"({s})"
