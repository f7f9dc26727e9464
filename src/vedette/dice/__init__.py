"""Dice that explain themselves: notation, sources, modifiers, rolls, exact odds, tables."""

from vedette.dice.check import Check, Odds, OddsRow, UnderCheck, odds_from_weights, roll
from vedette.dice.die import CUSTOM, Die, custom_dice, standard
from vedette.dice.modifiers import Modifier, per_count, select, total
from vedette.dice.notation import Expression, Opposed, parse, parse_expression
from vedette.dice.roll import AnyRoll, Face, OpposedRoll, Roll
from vedette.dice.sources import (
    DiceSource,
    PhysicalSource,
    ScriptedSource,
    SeededSource,
    parse_faces,
)
from vedette.dice.tables import Row, Table, parse_range, table_from_data, tables_from_data

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
    "roll",
    "select",
    "standard",
    "table_from_data",
    "tables_from_data",
    "total",
]
