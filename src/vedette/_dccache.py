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
from pathlib import Path
from types import CodeType
from typing import Any

_DIR = Path(__file__).parent / "__pycache__"
_TAG = sys.implementation.cache_tag
#: per module: its dataclasses' method texts and their code (a module's file is read when its
#: first class is made, so a step reads only the modules it imports)
_codes: dict[str, dict[str, CodeType]] = {}
_added: set[str] = set()


def _file(module: str) -> Path:
    return _DIR / f"{module}.dataclasses.{_TAG}.bin"


def _module(module: str) -> dict[str, CodeType]:
    codes = _codes.get(module)
    if codes is None:
        codes = _codes[module] = {}
        try:
            data = marshal.loads(_file(module).read_bytes())
        except (OSError, ValueError, EOFError, TypeError):
            data = None
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
        path = _file(module)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        try:
            _DIR.mkdir(exist_ok=True)
            tmp.write_bytes(marshal.dumps(_codes[module]))
            os.replace(tmp, path)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink()
    _added.clear()


def install() -> None:
    if not hasattr(dataclasses, "_create_fn") or os.environ.get("VEDETTE_NO_DCCACHE"):
        return
    if getattr(dataclasses, "exec", None) is _exec:
        return
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # the module's own name for exec
    import atexit

    atexit.register(save)
