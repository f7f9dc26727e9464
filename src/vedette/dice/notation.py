"""Dice notation: ``d6``, ``2d6``, ``1d6+2``, ``D8``, ``d%``, ``dK8``, ``d6 vs d6``.

The grammar lives here, in one place (lark). A syntax error names the column.

* ``NdS``: N dice of S sides (N defaults to 1; ``d``/``D`` alike; ``%`` means 100)
* ``NdNAME``: N custom dice named NAME (declared faces, e.g. ``dK8``, ``dK12``, ``dF``)
* ``+ K`` / ``- K``: constants; terms may be added and subtracted (``2d6-1d6+1``)
* ``A vs B``: an opposed roll, A's total minus B's
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput

from vedette.dice.die import CUSTOM, Die, standard
from vedette.errors import NotationError

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

_DICE = re.compile(r"([0-9]*)[dD](.+)")
_PARSER = Lark(GRAMMAR, parser="lalr", maybe_placeholders=False)

MAX_DICE = 1000


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
        total = self.constant
        i = 0
        for t in self.terms:
            for _ in range(t.count):
                total += t.sign * faces[i]
                i += 1
        return total

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Opposed:
    """``a vs b``: the result is a's total minus b's."""

    text: str
    a: Expression
    b: Expression

    def __str__(self) -> str:
        return self.text


class _Build(Transformer[Token, object]):
    def __init__(self, text: str, custom: dict[str, Die]) -> None:
        super().__init__()
        self.text = text
        self.custom = custom

    def dice(self, items: list[Token]) -> tuple[int, Die]:
        tok = items[0]
        m = _DICE.fullmatch(str(tok))
        assert m is not None
        count = int(m.group(1)) if m.group(1) else 1
        s = m.group(2)
        col = (tok.column or 1) + len(m.group(1)) + 1
        if count < 1 or count > MAX_DICE:
            raise NotationError(self.text, col, f"dice count must be 1-{MAX_DICE}, not {count}")
        if s == "%":
            return count, standard(100)
        if s.isdigit():
            n = int(s)
            if n < 1:
                raise NotationError(self.text, col, "a die needs at least one side")
            return count, standard(n)
        if s in self.custom:
            return count, self.custom[s]
        raise NotationError(
            self.text, col, f"unknown die 'd{s}' (known: {', '.join(sorted(self.custom))})"
        )

    def const(self, items: list[Token]) -> int:
        return int(items[0])

    def first(self, items: list[object]) -> tuple[int, object]:
        if len(items) == 2:
            return (-1 if str(items[0]) == "-" else 1), items[1]
        return 1, items[0]

    def expr(self, items: list[object]) -> Expression:
        signed: list[tuple[int, object]] = []
        first = items[0]
        assert isinstance(first, tuple)
        signed.append(first)
        rest = items[1:]
        for i in range(0, len(rest), 2):
            signed.append(((-1 if str(rest[i]) == "-" else 1), rest[i + 1]))
        terms: list[DiceTerm] = []
        constant = 0
        for sign, term in signed:
            if isinstance(term, int):
                constant += sign * term
            else:
                assert isinstance(term, tuple)
                count, die = term
                terms.append(DiceTerm(count, die, sign))
        return Expression(self.text, tuple(terms), constant)

    def opposed(self, items: list[Expression]) -> Opposed:
        return Opposed(self.text, items[0], items[1])


def parse(text: str, custom: dict[str, Die] | None = None) -> Expression | Opposed:
    """Parse dice notation. Raises :class:`NotationError` naming the column."""
    if custom is None:
        return _parse_cached(text)
    return _parse(text, custom)


@lru_cache(maxsize=1024)
def _parse_cached(text: str) -> Expression | Opposed:
    return _parse(text, CUSTOM)


def _parse(text: str, custom: dict[str, Die]) -> Expression | Opposed:
    if not text.strip():
        raise NotationError(text, 1, "empty dice expression")
    try:
        tree = _PARSER.parse(text)
    except UnexpectedEOF:
        raise NotationError(text, len(text) + 1, "expression ends too soon") from None
    except UnexpectedCharacters as e:
        raise NotationError(text, e.column, f"unexpected {text[e.column - 1]!r}") from None
    except UnexpectedInput as e:
        col = getattr(e, "column", 0)
        if not isinstance(col, int) or col < 1:
            col = len(text) + 1
        tok = getattr(e, "token", None)
        if tok is not None and getattr(tok, "type", "") == "$END":
            col = len(text) + 1
        what = (
            f"unexpected {str(tok)!r}"
            if tok is not None and str(tok)
            else "expression ends too soon"
        )
        raise NotationError(text, col, what) from None
    try:
        result = _Build(text, custom).transform(tree)
    except Exception as e:  # lark wraps errors raised in callbacks
        inner = getattr(e, "orig_exc", e)
        if isinstance(inner, NotationError):
            raise inner from None
        raise
    assert isinstance(result, Expression | Opposed)
    return result


def parse_expression(text: str, custom: dict[str, Die] | None = None) -> Expression:
    """Parse notation that must not be opposed."""
    e = parse(text, custom)
    if isinstance(e, Opposed):
        raise NotationError(
            text, text.lower().find("vs") + 1, "an opposed roll is not allowed here"
        )
    return e
