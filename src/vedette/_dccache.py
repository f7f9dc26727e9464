"""Start-up time (issue 26, item 8): a cache of the code ``dataclasses`` compiles for vedette.

Python 3.11 and 3.12 build each method of a dataclass (``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, a frozen class's ``__setattr__``/``__delattr__``) from source text, compiled
with ``exec`` one at a time when the class is defined; a CLI step defines 60-140 of them, and
compiling that text was a third of the step's time. The ``.pyc`` files cache a module's own
code but not this generated code, so this module does the same for it: the code objects are
kept, keyed by their exact source text, in a ``marshal`` file per module in the package's
``__pycache__`` (named with the interpreter's cache tag, as ``.pyc`` files are), and read back
instead of compiled again. What runs is exactly what ``compile`` gives for that text (the key
is the whole text), so a class behaves the same with or without it; a stale, foreign or
corrupt file is ignored, and a package directory that cannot be written just keeps no cache.

Only the classes of vedette's own modules go through the cache (the text's globals name the
module), so other libraries' dataclasses are compiled as before. Python 3.13 builds a
class's methods in one ``exec`` and has no ``_create_fn``; there this does nothing.
``VEDETTE_NO_DCCACHE=1`` turns it off (the start-up bench's baseline).
"""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import marshal
import os
import sys
from types import CodeType
from typing import Any

#: where the files are (a string, not a pathlib.Path: pathlib costs a CLI step 6-8 ms to import)
_DIR: str | os.PathLike[str] = os.path.join(os.path.dirname(__file__), "__pycache__")
_TAG = sys.implementation.cache_tag
#: per module: its dataclasses' method texts and their code (a module's file is read when its
#: first class is made, so a step reads only the modules it imports)
_codes: dict[str, dict[str, CodeType]] = {}
_added: set[str] = set()


def _file(module: str) -> str:
    return cache_file(f"{module}.dataclasses")


def cache_file(name: str) -> str:
    """The path of the cache file ``name`` in the package's ``__pycache__`` (with the
    interpreter's cache tag: another interpreter keeps its own)."""
    return os.path.join(_DIR, f"{name}.{_TAG}.bin")


def read(path: str) -> Any:
    """What a cache file holds (``marshal``), or ``None`` if it is missing or cannot be read."""
    try:
        with open(path, "rb") as f:
            return marshal.loads(f.read())
    except (OSError, ValueError, EOFError, TypeError):
        return None


def write(path: str, value: Any) -> None:
    """Write a cache file atomically (a reader never sees half a file; two writers at once
    leave one whole file); nothing if the value cannot be marshalled or the folder written."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        data = marshal.dumps(value)
        os.makedirs(_DIR, exist_ok=True)
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except (OSError, ValueError):
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _module(module: str) -> dict[str, CodeType]:
    codes = _codes.get(module)
    if codes is None:
        codes = _codes[module] = {}
        data = read(_file(module))
        if isinstance(data, dict):
            codes.update(
                (k, v) for k, v in data.items() if isinstance(k, str) and isinstance(v, CodeType)
            )
    return codes


def _exec(source: Any, globals: Any = None, locals: Any = None) -> None:
    module = str((globals or {}).get("__name__", ""))
    if isinstance(source, str) and module.startswith("vedette"):
        codes = _module(module)
        code = codes.get(source)
        if code is None:
            code = codes[source] = compile(source, "<string>", "exec")
            _added.add(module)
        source = code
    builtins.exec(source, globals, locals)


def save() -> None:
    """Write the cache of each module that compiled something new (atomically: a reader never
    sees half a file; two writers at once leave one whole file)."""
    for module in sorted(_added):
        write(_file(module), _codes[module])
    _added.clear()


def install() -> None:
    if not hasattr(dataclasses, "_create_fn") or os.environ.get("VEDETTE_NO_DCCACHE"):
        return
    if getattr(dataclasses, "exec", None) is _exec:
        return
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # the module's own name for exec
    import atexit

    atexit.register(save)
