"""The toy's requests: one frozen dataclass per procedure, declared with ``@procedure``: its
name, its rule and its help (the docstring); each field's help, units and default in ``arg``."""

from __future__ import annotations

from dataclasses import dataclass

from vedette.referee import arg, procedure


@procedure("advance", rule="Toy 1")
@dataclass(frozen=True, slots=True)
class Advance:
    """roll to advance"""

    bonus: int = arg("added to the roll", units="pips", default=0)


@procedure("rest", rule="Toy 4")
@dataclass(frozen=True, slots=True)
class Rest:
    """end the turn"""


@procedure("cheer", rule="Toy 3")
@dataclass(frozen=True, slots=True)
class Cheer:
    """cheer a six"""
