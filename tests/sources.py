"""The project's source files as the tests that read code read them (issue 27 item 3): each file's
text and syntax tree made once per test process, and made again if the file changed since.

Several tests walk every module's syntax tree (the imports, the procedures' shape, the rule
data's keys, the declared distributions); each parsed the whole package again. A tree handed
out is shared: walk it, never change it."""

from __future__ import annotations

import ast
import functools
from pathlib import Path


def text(path: Path) -> str:
    """The file's text (UTF-8)."""
    return _read(str(path), _stamp(path))[0]


def tree(path: Path) -> ast.Module:
    """The file's syntax tree (shared: to read, never to change)."""
    return _read(str(path), _stamp(path))[1]


def _stamp(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_mtime_ns, st.st_size


@functools.cache
def _read(path: str, stamp: tuple[int, int]) -> tuple[str, ast.Module]:
    source = Path(path).read_text(encoding="utf-8")
    return source, ast.parse(source, path)
