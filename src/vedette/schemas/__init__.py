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
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator
from pydantic_core import PydanticCustomError

from vedette.data.limits import MAX_KEY, MAX_STR, check_tree
from vedette.errors import DataError

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


def validate(
    model: type[M],
    data: Any,
    source: str,
    prefix: Sequence[int | str] = (),
    checked: bool = False,
) -> M:
    """Check ``data`` against ``model``; a refusal is one :class:`DataError` line.
    ``checked``: ``data`` is (a part of) a tree ``check_tree`` has just passed with the same
    limits, which a part of it passes too: not walked again."""
    if not checked:
        check_tree(data, source)
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise one_line(e, source, prefix) from None
    except (RecursionError, MemoryError):
        raise DataError(source, "too deeply nested or too large") from None


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
                # a new entry: shaped like the union of its siblings (a table of plain values:
                # of their kind)
                union: dict[str, Any] = {}
                sibs = list(shipped.values())
                for sib in sibs:
                    if isinstance(sib, Mapping):
                        for sk, sv in sib.items():
                            union.setdefault(sk, sv)
                like = union if any(isinstance(x, Mapping) for x in sibs) else sibs[0]
                check_shape(v, like, source, sub, (), free)
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
