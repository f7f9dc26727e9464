"""State snapshots as JSON, without pickle (issue 16).

A snapshot is a cache of the fold at some event, never the truth: the log is. The codec is
generic over the values a ruleset's state is made of (frozen dataclasses, tuples, lists, dicts
with any hashable keys, sets, frozensets, enums, fractions and JSON scalars) and is tagged, so
that a tuple comes back a tuple and a dict keyed by tuples comes back so. Only classes of the
``vedette`` package are rebuilt by name (a snapshot names no other code), and each through its
own constructor.

A top-level field of the state that is the very object the initial state holds (a map, the
rules' tables, a configuration) is written as a reference to it, not copied: restoring rebuilds
the initial state from the scenario (cheap, and cached where the ruleset caches its maps) and
takes those fields from it.

Anything else (a function, a file, an object of another package) makes the state
unsnapshottable: :class:`Unsnapshottable` is raised and the engine keeps no snapshot for that
game, folding from the log as before.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import sys
from functools import cache
from importlib import import_module
from types import MappingProxyType
from typing import Any

from vedette.hashes import sha256
from vedette.rules.pmap import PMap

#: bump when this encoding changes: every older snapshot is then stale
CODEC_VERSION = 1


class Unsnapshottable(Exception):
    """The state holds a value the codec will not write (the game keeps no snapshot)."""


def _name(cls: type) -> str:
    mod = cls.__module__
    if not (mod == "vedette" or mod.startswith("vedette.") or mod.startswith("tests.")):
        raise Unsnapshottable(f"{mod}.{cls.__qualname__} is not a vedette class")
    return f"{mod}:{cls.__qualname__}"


@cache
def _class(name: str) -> type:
    mod, _, qual = name.partition(":")
    if not (mod == "vedette" or mod.startswith("vedette.") or mod.startswith("tests.")):
        raise ValueError(f"snapshot names a class outside vedette: {name}")
    obj: Any = import_module(mod)
    for part in qual.split("."):
        obj = getattr(obj, part)
    if not isinstance(obj, type):
        raise ValueError(f"snapshot names {name}, not a class")
    return obj


_FIELDS: dict[type, tuple[tuple[str, bool], ...]] = {}


def _fields(cls: Any) -> tuple[tuple[str, bool], ...]:
    """(name, passed to __init__) for each dataclass field."""
    got = _FIELDS.get(cls)
    if got is None:
        got = _FIELDS[cls] = tuple((f.name, f.init) for f in dataclasses.fields(cls))
    return got


def encode(x: Any) -> Any:
    """A JSON-able, tagged form of ``x`` (see the module docstring)."""
    t = type(x)
    if x is None or t is bool or t is str or t is int:
        return x
    if t is float:
        if x != x or x in (float("inf"), float("-inf")):
            return {"f": repr(x)}
        return x
    if t is tuple:
        return {"t": [encode(v) for v in x]}
    if t is list:
        return {"l": [encode(v) for v in x]}
    if t is dict or t is MappingProxyType:
        return {"d" if t is dict else "m": [[encode(k), encode(v)] for k, v in x.items()]}
    if t is PMap:
        return {"P": [[encode(k), encode(v)] for k, v in x.items()], "o": x.ordered}
    if t is frozenset or t is set:
        return {"F" if t is frozenset else "s": [encode(v) for v in x]}
    if t.__name__ == "Fraction" and t is getattr(sys.modules.get("fractions"), "Fraction", None):
        return {"q": [x.numerator, x.denominator]}
    if isinstance(x, enum.Enum):
        return {"e": _name(t), "v": encode(x.value)}
    if dataclasses.is_dataclass(x):
        out: dict[str, Any] = {}
        for name, init in _fields(t):
            if not init:
                continue
            out[name] = encode(getattr(x, name))
        return {"c": _name(t), "v": out}
    raise Unsnapshottable(f"cannot snapshot a {t.__module__}.{t.__qualname__}")


def decode(x: Any) -> Any:
    if type(x) is not dict:
        return x
    (tag, v), *rest = x.items()
    if tag == "t":
        return tuple(decode(i) for i in v)
    if tag == "l":
        return [decode(i) for i in v]
    if tag == "d":
        return {decode(k): decode(i) for k, i in v}
    if tag == "m":
        return MappingProxyType({decode(k): decode(i) for k, i in v})
    if tag == "P":
        return PMap([(decode(k), decode(i)) for k, i in v], ordered=bool(rest[0][1]))
    if tag == "F":
        return frozenset(decode(i) for i in v)
    if tag == "s":
        return {decode(i) for i in v}
    if tag == "q":
        from fractions import Fraction  # start-up: fractions only where a snapshot holds one

        return Fraction(int(v[0]), int(v[1]))
    if tag == "f":
        return float(v)
    if tag == "e":
        return _class(v)(decode(rest[0][1]))
    if tag == "c":
        cls = _class(v)
        return cls(**{k: decode(i) for k, i in rest[0][1].items()})
    raise ValueError(f"unknown snapshot tag {tag!r}")


def snapshot_state(state: Any, initial: Any) -> dict[str, Any]:
    """The state as JSON; top-level fields shared with ``initial`` written as references."""
    if not dataclasses.is_dataclass(state) or type(state) is not type(initial):
        return {"whole": encode(state)}
    fields: dict[str, Any] = {}
    shared: list[str] = []
    for name, init in _fields(type(state)):
        if not init:
            continue
        value = getattr(state, name)
        if value is getattr(initial, name) and not _scalar(value):
            shared.append(name)
        else:
            fields[name] = encode(value)
    return {"class": _name(type(state)), "fields": fields, "shared": shared}


def restore_state(data: dict[str, Any], initial: Any) -> Any:
    if "whole" in data:
        return decode(data["whole"])
    cls = _class(data["class"])
    if type(initial) is not cls:
        raise ValueError("snapshot of another state class")
    kw = {k: decode(v) for k, v in data["fields"].items()}
    for name in data["shared"]:
        kw[name] = getattr(initial, name)
    return cls(**kw)


def _scalar(x: Any) -> bool:
    return x is None or type(x) in (bool, int, float, str)


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"), allow_nan=False)


def model_key(*parts: Any) -> int:
    """A 63-bit key of what a snapshot depends on (the ``snapshots.model`` column)."""
    text = json.dumps(parts, sort_keys=True, default=str, separators=(",", ":"))
    return int.from_bytes(sha256(text.encode()).digest()[:8], "big") >> 1
