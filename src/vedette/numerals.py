"""Whole numbers and numbers typed by a person, in ASCII digits only.

Python's ``int`` and ``float`` read any Unicode decimal digit ("３" is 3, "٣" is 3) and
underscores between digits ("1_0" is 10): a die face, a field, a seed or a modifier typed so is
not what the player meant to give, and is refused in the usual words (the caller's
``ValueError`` message), never taken as another number.
"""

from __future__ import annotations

from fractions import Fraction


def plain(text: str) -> bool:
    """Whether ``text`` may be read as a number: ASCII only, no underscore."""
    return text.isascii() and "_" not in text


def ascii_int(text: str) -> int:
    """``int(text)`` for ASCII digits (an optional sign, spaces around); a ``ValueError``
    otherwise, as ``int`` raises for any other text."""
    if not plain(text):
        raise ValueError(f"not a whole number in ASCII digits: {text!r}")
    return int(text)


def ascii_float(text: str) -> float:
    """``float(text)`` for ASCII text; a ``ValueError`` otherwise."""
    if not plain(text):
        raise ValueError(f"not a number in ASCII digits: {text!r}")
    return float(text)


def ascii_fraction(text: str) -> Fraction:
    """``Fraction(text)`` ("1/2", "3", "0.5") for ASCII text; a ``ValueError`` otherwise
    (``Fraction`` too reads "３/４" and "1_0")."""
    if not plain(text):
        raise ValueError(f"not a number in ASCII digits: {text!r}")
    return Fraction(text)
