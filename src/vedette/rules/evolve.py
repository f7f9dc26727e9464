"""A faster ``dataclasses.replace`` for the folds of long logs (issue 16).

``evolve(obj, **changes)`` makes the same object ``dataclasses.replace`` would for a *plain*
dataclass (its ``__init__`` generated, every field set by it, no ``__post_init__``): every
field copied from ``obj`` but those changed, without going through ``replace``'s per-call
introspection and ``__init__``. An instance whose fields live in its ``__dict__`` (no slots) is
copied with one dictionary update; a slotted one by a copier written for its class. Any other
class (or an unknown field name) goes to ``dataclasses.replace`` itself, so the two never
differ.

:func:`plain_layout` tells decoders that may take the same shortcut where the fields go
(``fields.RequestSpec.build_trusted``).
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_set = object.__setattr__
_new = object.__new__


class _Plan:
    """What :func:`evolve` needs to know of a plain dataclass, read once per class."""

    __slots__ = ("copy", "in_dict", "known", "names")

    def __init__(self, cls: type, names: tuple[str, ...], in_dict: bool) -> None:
        self.names = names
        self.known = frozenset(names)
        self.in_dict = in_dict  # every field kept in the instance's __dict__ (no slots)
        self.copy = _copier(cls, names)


def _copier(cls: type, names: tuple[str, ...]) -> Callable[[Any, dict[str, Any]], Any]:
    """``copy(obj, changes)``: a new instance with the fields of ``obj`` but those changed. The
    function is written out for the class's fields, as ``dataclasses`` writes ``__init__``:
    one attribute read and one write per field, with no loop (a slotted dataclass's fields
    cannot be copied in one go, and a loop over their names costs half as much again)."""
    lines = [
        f"    _set(new, {n!r}, changes[{n!r}] if {n!r} in changes else obj.{n})" for n in names
    ]
    src = "def copy(obj, changes):\n    new = _new(cls)\n" + "\n".join(lines) + "\n    return new\n"
    scope: dict[str, Any] = {"_new": _new, "_set": _set, "cls": cls}
    exec(src, scope)  # the text is made here, from the dataclass's field names
    return scope["copy"]  # type: ignore[no-any-return]


_PLANS: dict[type, _Plan | None] = {}


def _plan(cls: type) -> _Plan | None:
    """The plan of a plain dataclass, None for any other class (kept per class)."""
    if cls in _PLANS:
        return _PLANS[cls]
    out = None
    params = getattr(cls, "__dataclass_params__", None)
    if params is not None and params.init and not hasattr(cls, "__post_init__"):
        fields = dataclasses.fields(cls)
        if all(f.init for f in fields):
            names = tuple(f.name for f in fields)
            slots = any(
                isinstance(c.__dict__.get(n), types.MemberDescriptorType)
                for c in cls.__mro__
                for n in names
            )
            out = _Plan(cls, names, not slots and "__dict__" in dir(cls))
    _PLANS[cls] = out
    return out


def evolve(obj: T, /, **changes: Any) -> T:
    cls = type(obj)
    plan = _PLANS[cls] if cls in _PLANS else _plan(cls)
    if plan is None or not plan.known.issuperset(changes):
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    if plan.in_dict:
        old = obj.__dict__
        if len(old) == len(plan.names):  # its fields, nothing cached beside them
            new = _new(cls)
            d = new.__dict__
            d.update(old)
            d.update(changes)
            return new
    return plan.copy(obj, changes)  # type: ignore[no-any-return]


def plain_layout(cls: type) -> str | None:
    """Where a plain dataclass keeps its fields: ``"dict"`` (the instance's ``__dict__``) or
    ``"slots"``; None for any other class (whose instances only its ``__init__`` may make)."""
    plan = _plan(cls)
    if plan is None:
        return None
    return "dict" if plan.in_dict else "slots"
