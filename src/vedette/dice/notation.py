"""Dice notation: ``d6``, ``2d6``, ``1d6+2``, ``D8``, ``d%``, ``dK8``, ``d6 vs d6``.

The grammar lives here, in one place (``GRAMMAR``, in lark's notation). A syntax error names
the column.

* ``NdS``: N dice of S sides (N defaults to 1; ``d``/``D`` alike; ``%`` means 100)
* ``NdNAME``: N custom dice named NAME (declared faces, e.g. ``dK8``, ``dK12``, ``dF``)
* ``+ K`` / ``- K``: constants; terms may be added and subtracted (``2d6-1d6+1``)
* ``A vs B``: an opposed roll, A's total minus B's

The parser is written by hand from ``GRAMMAR`` (issue 16: importing lark and building the
grammar was a third of ``vedette roll``'s start-up): one regular expression with the grammar's
terminals, tried in lark's order, and a three-state machine for its rules. It accepts what
lark's LALR parser with its contextual lexer accepts and reports the same errors at the same
columns (``tests/core/test_core_notation.py`` checks it against lark on generated text).
Columns count characters from the start of the text (lark counts from the last newline).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from vedette.dice.die import CUSTOM, Die, standard
from vedette.errors import NotationError

#: The notation's grammar (lark). Documentation and the tests' reference; not loaded at run time.
GRAMMAR = r"""
?start: opposed | expr
opposed: expr "vs"i expr
expr: first (SIGN term)*
first: SIGN? term
?term: dice | const
dice: DICE
const: INT
DICE.2: /[0-9]*[dD]([0-9]+|%|[A-Za-z_][A-Za-z0-9_]*)/
SIGN: "+" | "-"
%import common.INT
%import common.WS
%ignore WS
"""

# GRAMMAR's terminals in the order lark's lexer tries them (priority, then width): the first
# alternative that matches wins, as in lark's combined pattern.
_TOKEN = re.compile(
    r"(?P<DICE>(?P<count>[0-9]*)[dD](?P<sides>[0-9]+|%|[A-Za-z_][A-Za-z0-9_]*))"
    r"|(?P<INT>[0-9]+)"
    r"|(?P<WS>[ \t\f\r\n]+)"
    r"|(?P<VS>(?i:vs))"
    r"|(?P<SIGN>[+\-])"
)

#: the commonest notation, ``NdS`` alone: read without the state machine (same result)
_PLAIN = re.compile(r"(?P<count>[0-9]*)[dD](?P<sides>[0-9]+)")

MAX_DICE = 1000
#: the most sides of a standard die (a die is a tuple of its faces: d99999999999 would need
#: terabytes, and a 12-character text could ask for it)
MAX_SIDES = 10_000
_MAX_DIGITS = 4000  # longer numbers are refused (Python's int() refuses beyond 4300 digits)


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """``count`` dice of one kind, added (sign +1) or subtracted (sign -1)."""

    count: int
    die: Die
    sign: int = 1


@dataclass(frozen=True, slots=True)
class Expression:
    """A parsed sum of dice terms and a constant."""

    text: str
    terms: tuple[DiceTerm, ...]
    constant: int = 0

    def dice(self) -> list[Die]:
        """The dice to roll, in order (each term's dice in turn)."""
        return [t.die for t in self.terms for _ in range(t.count)]

    def total(self, faces: list[int]) -> int:
        """Sum of faces (with each term's sign) plus the constant."""
        terms = self.terms
        if len(terms) == 1 and terms[0].count == 1:  # one die (most rolls): its face
            return self.constant + terms[0].sign * faces[0]
        total = self.constant
        i = 0
        for t in self.terms:
            for _ in range(t.count):
                total += t.sign * faces[i]
                i += 1
        return total

    def __str__(self) -> str:
        return self.text

    def __hash__(self) -> int:  # equal expressions have equal texts; a str caches its hash
        return hash(self.text)


@dataclass(frozen=True, slots=True)
class Opposed:
    """``a vs b``: the result is a's total minus b's."""

    text: str
    a: Expression
    b: Expression

    def __str__(self) -> str:
        return self.text

    def __hash__(self) -> int:
        return hash(self.text)


def parse(text: str, custom: dict[str, Die] | None = None) -> Expression | Opposed:
    """Parse dice notation. Raises :class:`NotationError` naming the column."""
    if custom is None:
        return _parse_cached(text)
    return _parse(text, custom)


@lru_cache(maxsize=1024)
def _parse_cached(text: str) -> Expression | Opposed:
    return _parse(text, CUSTOM)


# the parser's states: where a term (optionally signed) may start, after a sign, after a term
_START, _SIGNED, _AFTER = 0, 1, 2

#: one side's terms as written: (sign, match of DICE or INT)
_Side = list[tuple[int, re.Match[str]]]


def _syntax(text: str) -> list[_Side]:
    """The sides of the expression (one, or two around ``vs``), or the first syntax error."""
    sides: list[_Side] = [[]]
    state, sign, pos, end = _START, 1, 0, len(text)
    match = _TOKEN.match
    while True:
        m = match(text, pos)
        if m is None:
            if pos < end:  # no terminal matches here
                raise NotationError(text, pos + 1, f"unexpected {text[pos]!r}")
            if state == _AFTER:
                return sides
            raise NotationError(text, end + 1, "expression ends too soon")
        kind = m.lastgroup
        pos = m.end()
        if kind == "WS":
            continue
        if kind == "DICE" or kind == "INT":
            if state != _AFTER:
                sides[-1].append((sign, m))
                state, sign = _AFTER, 1
                continue
        elif kind == "SIGN":
            if state != _SIGNED:
                state, sign = _SIGNED, -1 if m.group() == "-" else 1
                continue
        elif state == _AFTER and len(sides) == 1:  # VS
            sides.append([])
            state = _START
            continue
        # a terminal the grammar does not allow here
        raise NotationError(text, m.start() + 1, f"unexpected {m.group()!r}")


def _die(text: str, m: re.Match[str], custom: dict[str, Die]) -> tuple[int, Die]:
    digits, s = m.group("count"), m.group("sides")
    col = m.start() + len(digits) + 2  # the column of what follows the d
    if len(digits) > _MAX_DIGITS:
        raise NotationError(text, col, f"dice count must be 1-{MAX_DICE}, not {digits}")
    count = int(digits) if digits else 1
    if count < 1 or count > MAX_DICE:
        raise NotationError(text, col, f"dice count must be 1-{MAX_DICE}, not {count}")
    if s == "%":
        return count, standard(100)
    if s.isdigit():
        if len(s) > _MAX_DIGITS:
            raise NotationError(text, col, "too many sides")
        n = int(s)
        if n < 1:
            raise NotationError(text, col, "a die needs at least one side")
        if n > MAX_SIDES:
            raise NotationError(text, col, f"a die has at most {MAX_SIDES} sides, not {n}")
        return count, standard(n)
    if s in custom:
        return count, custom[s]
    raise NotationError(text, col, f"unknown die 'd{s}' (known: {', '.join(sorted(custom))})")


def _expression(text: str, side: _Side, custom: dict[str, Die]) -> Expression:
    terms: list[DiceTerm] = []
    constant = 0
    for sign, m in side:
        if m.lastgroup == "INT":
            digits = m.group()
            if len(digits) > _MAX_DIGITS:
                raise NotationError(text, m.start() + 1, "number too long")
            constant += sign * int(digits)
        else:
            count, die = _die(text, m, custom)
            terms.append(DiceTerm(count, die, sign))
    return Expression(text, tuple(terms), constant)


def _parse(text: str, custom: dict[str, Die]) -> Expression | Opposed:
    m = _PLAIN.fullmatch(text)
    if m is not None:  # "2d6", "d100": one DICE token and the end, as _syntax would read it
        count, die = _die(text, m, custom)
        return Expression(text, (DiceTerm(count, die, 1),), 0)
    if not text.strip():
        raise NotationError(text, 1, "empty dice expression")
    sides = _syntax(text)  # the whole text is read before any die is looked at
    a = _expression(text, sides[0], custom)
    if len(sides) == 1:
        return a
    return Opposed(text, a, _expression(text, sides[1], custom))


def parse_expression(text: str, custom: dict[str, Die] | None = None) -> Expression:
    """Parse notation that must not be opposed."""
    e = parse(text, custom)
    if isinstance(e, Opposed):
        raise NotationError(
            text, text.lower().find("vs") + 1, "an opposed roll is not allowed here"
        )
    return e
