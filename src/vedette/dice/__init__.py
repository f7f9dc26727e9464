"""Dice that explain themselves: notation, sources, modifiers, rolls, exact odds, tables.

The names below are loaded on first use (PEP 562): a roll needs the notation, sources and
records, not the exact-odds machinery (fractions, distributions, tables), so ``vedette roll``
does not pay for what it does not use (issue 16, start-up). ``vedette.dice.roll`` is the
module of roll records; the function that rolls a bare expression is ``vedette.dice.check.roll``.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vedette.dice.check import Check
    from vedette.dice.die import CUSTOM, Die, custom_dice, standard
    from vedette.dice.modifiers import Modifier, per_count, select, total
    from vedette.dice.notation import Expression, Opposed, parse, parse_expression
    from vedette.dice.odds import Odds, OddsRow, UnderCheck, odds_from_weights
    from vedette.dice.roll import AnyRoll, Face, OpposedRoll, Roll
    from vedette.dice.sources import (
        DiceSource,
        PhysicalSource,
        ScriptedSource,
        SeededSource,
        parse_faces,
    )
    from vedette.dice.tables import Row, Table, parse_range, table_from_data, tables_from_data

_WHERE = {
    "check": ("Check",),
    "odds": ("Odds", "OddsRow", "UnderCheck", "odds_from_weights"),
    "die": ("CUSTOM", "Die", "custom_dice", "standard"),
    "modifiers": ("Modifier", "per_count", "select", "total"),
    "notation": ("Expression", "Opposed", "parse", "parse_expression"),
    "roll": ("AnyRoll", "Face", "OpposedRoll", "Roll"),
    "sources": ("DiceSource", "PhysicalSource", "ScriptedSource", "SeededSource", "parse_faces"),
    "tables": ("Row", "Table", "parse_range", "table_from_data", "tables_from_data"),
}
_MODULE = {name: module for module, names in _WHERE.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _MODULE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # later look-ups are plain attribute reads
    return value


__all__ = [
    "CUSTOM",
    "AnyRoll",
    "Check",
    "DiceSource",
    "Die",
    "Expression",
    "Face",
    "Modifier",
    "Odds",
    "OddsRow",
    "Opposed",
    "OpposedRoll",
    "PhysicalSource",
    "Roll",
    "Row",
    "ScriptedSource",
    "SeededSource",
    "Table",
    "UnderCheck",
    "custom_dice",
    "odds_from_weights",
    "parse",
    "parse_expression",
    "parse_faces",
    "parse_range",
    "per_count",
    "select",
    "standard",
    "table_from_data",
    "tables_from_data",
    "total",
]
