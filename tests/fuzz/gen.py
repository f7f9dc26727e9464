"""Seeded generators for the fuzz suite: hostile values, structure-aware mutations of real
scenarios, house rules and exports, text mutations of files, random argv and HTTP requests.

Everything is drawn from a ``random.Random(seed)``: a failure names its seed and case number and
replays exactly."""

from __future__ import annotations

import copy
import json
import math
import random
from typing import Any

HOSTILE_STR = [
    "",
    " ",
    "x",
    "ture",
    "north",
    "nan",
    "inf",
    "-1",
    "1e999",
    "9" * 40,
    "/etc/passwd",
    "../../../../etc/passwd",
    "/dev/zero",
    "/",
    "sample_map.toml",
    "sample",
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "a/b",
    "a\x00b",
    "\u202e\u0301",
    "🦄",
    "x" * 300,
    "y" * 25_000,
    "W2020",
    "F1",
    "Fr",
    "Russian",
    "French",
    "d6",
    "2d6+1",
    "{}",
    "[]",
]

HOSTILE_NUM: list[Any] = [
    0,
    1,
    -1,
    2,
    7,
    255,
    2**31,
    2**63,
    2**64 - 1,
    2**64,
    2**127,
    -(2**70),
    10**400,
    0.5,
    -0.0,
    1e308,
    math.nan,
    math.inf,
    -math.inf,
    True,
    False,
]


def deep(n: int, leaf: Any = 1, kind: str = "list") -> Any:
    x = leaf
    for _ in range(n):
        x = [x] if kind == "list" else {"a": x}
    return x


def value(rng: random.Random, depth: int = 0) -> Any:
    r = rng.random()
    if r < 0.35:
        return rng.choice(HOSTILE_STR)
    if r < 0.7:
        return rng.choice(HOSTILE_NUM)
    if r < 0.78 and depth < 2:
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if r < 0.86 and depth < 2:
        return {rng.choice(HOSTILE_STR[:12]) or "k": value(rng, depth + 1)}
    if r < 0.9:
        return deep(rng.choice([30, 200, 2000]), kind=rng.choice(["list", "dict"]))
    if r < 0.95:
        return [rng.choice(HOSTILE_NUM) for _ in range(rng.choice([2, 3, 5000]))]
    return None


def typo(rng: random.Random, key: str) -> str:
    if not key:
        return "x"
    i = rng.randrange(len(key))
    op = rng.randrange(4)
    if op == 0:
        return key[:i] + key[i + 1 :]
    if op == 1:
        return key[:i] + rng.choice("aeiosx_") + key[i:]
    if op == 2 and len(key) > 1:
        j = min(i + 1, len(key) - 1)
        k = list(key)
        k[i], k[j] = k[j], k[i]
        return "".join(k)
    return key + rng.choice(["s", "_", "2", "X"])


def _paths(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if len(path) > 12:
        return out
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.extend(_paths(v, (*path, k)))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:50]):
            out.extend(_paths(v, (*path, i)))
    return out


def _get(obj: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        obj = obj[p]
    return obj


def mutate(rng: random.Random, obj: Any, n: int | None = None) -> Any:
    """A copy of ``obj`` with 1-3 structure-aware mutations: a key deleted or misspelt, a value
    replaced by a hostile one, a list emptied or duplicated, a string swapped for another id."""
    try:
        out = copy.deepcopy(obj)
    except RecursionError:
        return obj
    strings = [v for p in _paths(out) if isinstance(v := _get(out, p), str)]
    for _ in range(n or rng.randint(1, 3)):
        paths = _paths(out)
        path = rng.choice(paths)
        if not path:
            continue
        parent, key = _get(out, path[:-1]), path[-1]
        op = rng.random()
        if op < 0.15 and isinstance(parent, dict):
            del parent[key]
        elif op < 0.3 and isinstance(parent, dict):
            parent[typo(rng, str(key))] = parent.pop(key)
        elif op < 0.4 and isinstance(parent, list):
            try:
                parent.insert(rng.randrange(len(parent) + 1), copy.deepcopy(parent[key]))
            except RecursionError:
                parent.clear()
        elif op < 0.45 and isinstance(parent, list):
            parent.clear()
        elif op < 0.6 and strings:
            parent[key] = rng.choice(strings)
        elif op < 0.65 and isinstance(parent, dict):
            parent[rng.choice(["file", "extra", "vedette", "rules", "options", "x"])] = value(rng)
        else:
            parent[key] = value(rng)
    return out


# -- TOML text (the writer the fuzz needs: inline tables, any value) -------------------------------
def toml_value(v: Any, depth: int = 0) -> str:
    if depth > 200:  # deeper than this writer recurses: the rest as text
        return "[" * 1000 + "1" + "]" * 1000
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x, depth + 1) for x in v) + "]"
    if isinstance(v, dict):
        inner = ", ".join(
            f"{json.dumps(str(k))} = {toml_value(x, depth + 1)}" for k, x in v.items()
        )
        return "{" + inner + "}"
    return '""'


def toml_text(d: Any) -> str:
    if not isinstance(d, dict):
        return f"x = {toml_value(d)}\n"
    return "".join(f"{json.dumps(str(k))} = {toml_value(v)}\n" for k, v in d.items())


def mutate_text(rng: random.Random, text: str) -> str:
    """Byte-level damage to a file: a line dropped or doubled, characters flipped, a hostile
    value pasted in, the text cut short."""
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        if not lines:
            lines = [""]
        i = rng.randrange(len(lines))
        if op < 0.2:
            del lines[i]
        elif op < 0.35:
            lines.insert(i, lines[i])
        elif op < 0.55 and lines[i]:
            j = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:j] + rng.choice("=[]{}\"',.#\\\n x0") + lines[i][j + 1 :]
        elif op < 0.75:
            key = lines[i].split("=")[0].strip() or "x"
            lines[i] = f"{key} = {toml_value(value(rng)) if rng.random() < 0.8 else 'nan'}"
        elif op < 0.85:
            lines = lines[: rng.randrange(len(lines) + 1)]
        else:
            lines.insert(i, rng.choice(["[fixng]", "[[forces]]", "[map]", 'file = "/etc/passwd"']))
    return "\n".join(lines) + "\n"
