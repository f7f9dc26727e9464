"""Rule data read once into typed values (issue 28): the pattern of Napoleon At Bay's ``Config``.

A ruleset's numbers live in its data files (``data/rules.toml``), which house rules may replace
key by key; a game reads them once, when its first state is built, into frozen dataclasses, and
the rules code reads their fields (``state.rules.movement.road_bonus``), never a string key of
the data with a default beside it. The default of every value is written once, in the data
file: :func:`section` requires every field of the dataclass to be in the table it reads, and
says in one line which one is missing or of the wrong type.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import Any, TypeVar

from vedette.dice.notation import Opposed, parse
from vedette.dice.tables import Table
from vedette.errors import DataError, NotationError
from vedette.numerals import plain

T = TypeVar("T")


@cache
def _fields(cls: Any) -> tuple[tuple[str, Any], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls) if f.init)


def value(v: Any, kind: Any, where: str, source: str) -> Any:
    """``v`` as a value of type ``kind`` (bool, int, float, str, Fraction, or a ``Literal`` of
    the words allowed), or one line."""
    if typing.get_origin(kind) is typing.Literal:
        words = typing.get_args(kind)
        if v not in words:
            allowed = ", ".join(repr(w) for w in words)
            raise DataError(source, f"{where} must be one of {allowed}, not {v!r}")
        return v
    if kind is bool:
        if isinstance(v, bool):
            return v
        raise DataError(source, f"{where} must be true or false, not {v!r}")
    if isinstance(v, bool) or not isinstance(v, int | float | str):
        raise DataError(source, f"{where} must be a {_noun(kind)}, not {v!r}")
    if isinstance(v, str) and kind in (int, float, Fraction) and not plain(v):
        # (int, float and Fraction read "３" and "1_0": a number is written in ASCII digits)
        raise DataError(source, f"{where} must be a {_noun(kind)}, not {v!r}")
    try:
        if kind is int:
            return int(float(v))
        if kind is float:
            return float(v)
        if kind is Fraction:
            return Fraction(str(v))
    except (TypeError, ValueError):
        raise DataError(source, f"{where} must be a {_noun(kind)}, not {v!r}") from None
    return str(v)


def _noun(kind: Any) -> str:
    return {int: "whole number", float: "number", Fraction: "number"}.get(kind, "text")


def table(data: Mapping[str, Any], name: str, source: str) -> Mapping[str, Any]:
    """The table ``[name]`` of the rules data (one line if it is missing or not a table)."""
    t = data.get(name)
    if not isinstance(t, Mapping):
        raise DataError(source, f"no table [{name}]")
    return t


def section(cls: type[T], data: Mapping[str, Any], name: str, source: str) -> T:
    """The dataclass ``cls`` read from the table ``[name]`` of the rules data: each of its
    fields from the key of the same name (every one must be there), as the field's type."""
    return fields_of(cls, table(data, name, source), f"[{name}]", source)


def fields_of(cls: type[T], table: Mapping[str, Any], where: str, source: str) -> T:
    """The dataclass ``cls`` from a table's keys of its fields' names."""
    kw: dict[str, Any] = {}
    typed: Any = cls  # a dataclass: hashable
    for f, kind in _fields(typed):
        if f not in table:
            raise DataError(source, f"{where} needs {f!r}")
        kw[f] = value(table[f], kind, f"{where} {f}", source)
    return cls(**kw)


def rolled(table: Table, source: str, opposed: bool = False) -> Table:
    """A table the referee rolls on with the dice it names (its ``dice``: the die a house rule
    may change), checked: dice notation (``1d6``; ``opposed``: ``1d6 vs 1d6``), or one line."""
    dice_of(table.dice, f"[tables.{table.name}] dice", source, opposed)
    return table


def dice_of(dice: str, where: str, source: str, opposed: bool = False) -> str:
    """``dice`` checked as dice notation (``1d6``; ``opposed``: ``1d6 vs 1d6``), or one line
    naming ``where``."""
    try:
        e = parse(dice)
        sides = (e.a, e.b) if isinstance(e, Opposed) else (e,)
        ok = isinstance(e, Opposed) == opposed and all(x.terms for x in sides)  # (a die each)
    except NotationError:
        ok = False
    if not ok:
        such = "1d6 vs 1d6" if opposed else "1d6"
        raise DataError(source, f"{where} must be dice such as {such}, not {dice!r}")
    return dice
