"""Rule data: TOML files shipped with each ruleset, overridable by a user's house rules.

A house-rule file has the same shape as the shipped file; its values replace the shipped ones
key by key. A table's ``rows`` are replaced whole (so a house table is validated as a whole),
while a house table that gives only some keys (say ``rows``) keeps the shipped ``dice``,
``title`` and ``rule``. Every file is validated when loaded and errors name the file and row.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from typing import Any

from vedette import _dccache
from vedette.errors import DataError

#: the largest scenario, house-rule or export file vedette reads (bytes)
MAX_FILE = 4 * 1024 * 1024


def load_toml_text(text: str, source: str) -> dict[str, Any]:
    if len(text) > MAX_FILE:
        raise DataError(source, f"too large (more than {MAX_FILE // 1024 // 1024} MiB)")
    import tomllib  # start-up: a CLI step reads its rule data from the cache (package_toml)

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise DataError(source, f"not valid TOML: {str(e).splitlines()[0]}") from None
    except RecursionError:
        raise DataError(source, "not valid TOML: nested too deeply") from None
    except ValueError:  # (an integer of thousands of digits)
        raise DataError(source, "not valid TOML: a number of too many digits") from None


def read_text_file(path: str | os.PathLike[str], limit: int = MAX_FILE) -> str:
    """A file the user named on the command line: a regular file, at most ``limit`` bytes,
    UTF-8 text. Never a directory, a device or a FIFO (``/dev/zero`` would never end)."""
    p = os.fspath(path)
    try:
        st = os.stat(p)
        if not stat.S_ISREG(st.st_mode):
            raise DataError(str(p), "not a regular file")
        with open(p, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise DataError(str(p), f"cannot read: {e.strerror or type(e).__name__}") from None
    if len(data) > limit:
        raise DataError(str(p), f"too large (more than {limit // 1024} KiB)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise DataError(str(p), "not UTF-8 text") from None


def load_toml(path: str | os.PathLike[str]) -> dict[str, Any]:
    return load_toml_text(read_text_file(path), str(path))


def package_toml(package: str, name: str) -> dict[str, Any]:
    """A TOML file shipped inside a package (e.g. ``vedette.rules.napoleon_at_bay.data``).

    Start-up time (issue 26.8): what the file gives is cached in the package's ``__pycache__``
    (``marshal``, with the file's whole text as its key, as ``.pyc`` files cache code), so a
    CLI step neither parses its rule data again nor imports ``tomllib``. A changed file is
    parsed again; a value ``marshal`` cannot hold is just not cached."""
    source = f"{package}/{name}"
    try:
        text = _package_text(package, name)
    except (FileNotFoundError, ModuleNotFoundError):
        raise DataError(source, "no such data file") from None
    where = _dccache.cache_file(f"toml.{package}.{name}")
    cached = _dccache.read(where)
    if type(cached) is tuple and len(cached) == 2 and cached[0] == text:
        return cached[1]  # type: ignore[no-any-return]
    data = load_toml_text(text, source)
    _dccache.write(where, (text, data))
    return data


def _package_text(package: str, name: str) -> str:
    """A file inside a package: read from the package's folder when it is one (an installed or
    source tree), else through importlib.resources (a zip). Start-up time: importlib.resources
    costs more to import than a CLI step's own reading of its data."""
    import sys
    from importlib import import_module

    mod = sys.modules.get(package) or import_module(package)
    where = getattr(mod, "__file__", None)
    if where:
        p = os.path.join(os.path.dirname(where), name)
        if os.path.isfile(p):
            with open(p, encoding="utf-8") as f:
                return f.read()
    from importlib import resources  # start-up: only a package in a zip

    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """Deep-merge ``override`` into ``base``. Under ``tables`` each table is merged key by key,
    its ``rows`` list replaced whole."""
    out: dict[str, Any] = dict(base)
    for k, v in override.items():
        if k == "tables" and isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            t = dict(out[k])
            for name, table in v.items():
                old = t.get(name)
                if isinstance(old, Mapping) and isinstance(table, Mapping):
                    t[name] = {**old, **table}
                else:
                    t[name] = table
            out[k] = t
        elif isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            out[k] = merge(out[k], v)
        else:
            out[k] = v
    return out
