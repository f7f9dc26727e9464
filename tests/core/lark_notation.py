"""The lark-based notation parser shipped before issue 16, kept as the tests' reference.

vedette's parser is now written by hand from ``GRAMMAR`` (for start-up time); the tests check that
it accepts, builds and refuses exactly what this lark LALR parser does, with the same messages
and columns. Not imported by vedette itself.
"""

from __future__ import annotations

import re

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput

from vedette.dice.die import Die, standard
from vedette.dice.notation import GRAMMAR, MAX_SIDES, DiceTerm, Expression, Opposed
from vedette.errors import NotationError

_DICE = re.compile(r"([0-9]*)[dD](.+)")
_PARSER = Lark(GRAMMAR, parser="lalr", maybe_placeholders=False)

MAX_DICE = 1000


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
            if n > MAX_SIDES:
                raise NotationError(self.text, col, f"a die has at most {MAX_SIDES} sides, not {n}")
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


def parse_with_lark(text: str, custom: dict[str, Die]) -> Expression | Opposed:
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
