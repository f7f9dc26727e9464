"""A faster ``dataclasses.replace`` for the folds of long logs (issue 16).

``evolve(obj, **changes)`` makes the same object ``dataclasses.replace`` would for a *plain*
dataclass (its ``__init__`` generated, every field set by it, no ``__post_init__``): every
field copied from ``obj`` but those changed, without going through ``replace``'s per-call
introspection and ``__init__``. Each class gets its copier once: a function written out for
its fields, or for an instance whose fields live in its ``__dict__`` (no slots) one dictionary
update. Any other class (or an unknown field name) goes to ``dataclasses.replace`` itself, so
the two never differ.

:func:`plain_layout` tells decoders that may take the same shortcut where the fields go
(``fields.RequestSpec.build_trusted``).
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")
Copier = Callable[[Any, Mapping[str, Any]], Any]

_set = object.__setattr__
_new = object.__new__
_LAYOUTS: dict[type, str | None] = {}
_COPIERS: dict[type, Copier] = {}


def plain_layout(cls: type) -> str | None:
    """Where a plain dataclass keeps its fields: ``"dict"`` (the instance's ``__dict__``) or
    ``"slots"``; None for any other class (whose instances only its ``__init__`` may make)."""
    if cls in _LAYOUTS:
        return _LAYOUTS[cls]
    out = None
    params = getattr(cls, "__dataclass_params__", None)
    if params is not None and params.init and not hasattr(cls, "__post_init__"):
        fields = dataclasses.fields(cls)
        if all(f.init for f in fields):
            slots = any(
                isinstance(c.__dict__.get(f.name), types.MemberDescriptorType)
                for c in cls.__mro__
                for f in fields
            )
            out = "dict" if not slots and "__dict__" in dir(cls) else "slots"
    _LAYOUTS[cls] = out
    return out


def _replace(obj: Any, changes: Mapping[str, Any]) -> Any:
    return dataclasses.replace(obj, **changes)


def _copier(cls: type) -> Copier:
    """``copy(obj, changes)`` for instances of ``cls``, made once per class. For a plain
    dataclass it is written out for the class's fields, as ``dataclasses`` writes
    ``__init__``: one attribute read and one write per field, with no loop (a loop over the
    names costs half as much again); an unknown name goes to ``dataclasses.replace`` (which
    refuses it). A slotted class's copier is written once per tuple of names changed
    (:func:`_special`: a unit's few markers, the same few names step after step)."""
    layout = plain_layout(cls)
    if layout is None:
        copy: Copier = _replace
    else:
        names = tuple(f.name for f in dataclasses.fields(cls))
        lines = ["def copy(obj, changes):", "    if not known.issuperset(changes):"]
        lines.append("        return _replace(obj, changes)")
        if layout == "dict":  # one update, unless a value is cached beside the fields
            lines += [
                "    if len(obj.__dict__) == n:",
                "        new = _new(cls)",
                "        d = new.__dict__",
                "        d.update(obj.__dict__)",
                "        d.update(changes)",
                "        return new",
            ]
            lines.append("    new = _new(cls)")
            lines += [
                f"    _set(new, {n!r}, changes[{n!r}] if {n!r} in changes else obj.{n})"
                for n in names
            ]
            lines.append("    return new")
        else:  # slots: one copier per set of names changed (written for them, no test a field)
            lines = ["def copy(obj, changes):", "    names = tuple(changes)"]
            lines.append("    special = by_names.get(names)")
            lines.append("    if special is None:")
            lines.append("        special = _special(cls, names, by_names)")
            lines.append("    return special(obj, changes)")
        scope: dict[str, Any] = {
            "_new": _new,
            "_set": _set,
            "_replace": _replace,
            "_special": _special,
            "by_names": {},
            "cls": cls,
            "known": frozenset(names),
            "n": len(names),
        }
        exec("\n".join(lines), scope)  # the text is made here, from the dataclass's field names
        copy = scope["copy"]
    _COPIERS[cls] = copy
    return copy


def _special(
    cls: type, changed: tuple[str, ...], by_names: dict[tuple[str, ...], Copier]
) -> Copier:
    """The copier of a slotted plain dataclass for one tuple of changed names: each field
    set from ``changes`` or from ``obj`` as written for those names (what the general copier
    does, without asking ``in changes`` of every field); names it has not go to
    ``dataclasses.replace`` (which refuses them)."""
    names = tuple(f.name for f in dataclasses.fields(cls))
    if not set(changed) <= set(names):
        return _replace
    lines = ["def copy(obj, changes):", "    new = _new(cls)"]
    lines += [
        f"    _set(new, {n!r}, changes[{n!r}])"
        if n in changed
        else f"    _set(new, {n!r}, obj.{n})"
        for n in names
    ]
    lines.append("    return new")
    scope: dict[str, Any] = {"_new": _new, "_set": _set, "cls": cls}
    exec("\n".join(lines), scope)  # the text is made here, from the dataclass's field names
    if len(by_names) > 256:
        by_names.clear()
    special: Copier = scope["copy"]
    by_names[changed] = special
    return special


def evolve(obj: T, /, **changes: Any) -> T:
    copy = _COPIERS.get(type(obj)) or _copier(type(obj))
    return copy(obj, changes)  # type: ignore[no-any-return]


def evolved(obj: T, changes: Mapping[str, Any], /) -> T:
    """:func:`evolve` with the changes as a mapping (``evolve(obj, **changes)``, without
    unpacking the mapping into keywords and packing them again)."""
    copy = _COPIERS.get(type(obj)) or _copier(type(obj))
    return copy(obj, changes)  # type: ignore[no-any-return]
