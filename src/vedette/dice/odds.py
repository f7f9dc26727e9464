"""Exact odds before a roll: the Odds records, the kernel reading a check's table, and the
under-roll test (percentile-style: roll at most, or under, a target that the modifiers move).

Imported when odds are first asked for (``Check.odds``), not with the dice package: a roll
needs none of this (issue 16, start-up).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from vedette.dice import dist
from vedette.dice.check import Check, _natural, roll_faces
from vedette.dice.modifiers import Modifier, select
from vedette.dice.notation import Expression, Opposed, parse
from vedette.dice.notation import _parse_cached as _parsed
from vedette.dice.roll import Roll
from vedette.dice.sources import DiceSource
from vedette.dice.tables import INF, Row, Table
from vedette.errors import DiceError


@dataclass(frozen=True, slots=True)
class OddsRow:
    key: str
    result: str
    p: Fraction
    range_text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "result": self.result,
            "range": self.range_text,
            "p": f"{self.p.numerator}/{self.p.denominator}",
            "percent": round(float(self.p) * 100, 2),
        }


@dataclass(frozen=True, slots=True)
class Odds:
    """Exact probabilities of each outcome of a check, shown before the roll."""

    label: str
    rows: tuple[OddsRow, ...]
    expression: str = ""
    modifiers: tuple[Modifier, ...] = ()
    superseded: tuple[Modifier, ...] = ()
    rule: str = ""
    note: str = ""
    b_modifiers: tuple[Modifier, ...] = ()  # side B's, for an opposed roll
    target: int | None = None  # an under-roll test: the modified target
    base_target: int | None = None
    strict: bool = False

    def p(self, key: str) -> Fraction:
        return sum((r.p for r in self.rows if r.key == key), Fraction(0))

    def as_dict(self) -> dict[str, Fraction]:
        return {r.key: r.p for r in self.rows}

    def head(self) -> str:
        """``label: expression with its modifiers`` (each side's for an opposed roll)."""
        mods = "".join(m.text() for m in self.modifiers)
        a, vs, b = self.expression.partition(" vs ")
        if self.target is not None:
            cmp = "<" if self.strict else "≤"
            expr = f"{a} vs {cmp}{self.base_target}{mods}" + (f"={self.target}" if mods else "")
        elif vs:
            expr = f"{a}{mods} vs {b}" + "".join(m.text() for m in self.b_modifiers)
        else:
            expr = f"{self.expression}{mods}"
        if not self.expression:
            return self.label
        return f"{self.label}: {expr}" if self.label else expr

    def lines(self) -> list[str]:
        head = self.head()
        if self.note:
            head += f" ({self.note})"
        out = [head]
        for r in self.rows:
            pct = float(r.p) * 100
            bar = "#" * round(pct / 5)
            rng = f"[{r.range_text}] " if r.range_text else ""
            out.append(f"  {pct:6.2f}%  {r.p!s:>9}  {bar:<20} {rng}{r.result}")
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "odds",
            "label": self.label,
            "expression": self.expression,
            "rule": self.rule,
            "note": self.note,
            "head": self.head(),
            "target": self.target,
            "modifiers": [m.to_json() for m in self.modifiers],
            "b_modifiers": [m.to_json() for m in self.b_modifiers],
            "superseded": [m.to_json() for m in self.superseded],
            "rows": [r.to_json() for r in self.rows],
        }


def odds_from_weights(
    label: str,
    weights: Mapping[int, int],
    describe: Mapping[int, str] | None = None,
    rule: str = "",
) -> Odds:
    """Odds of each value of a distribution (e.g. hits scored), for checks without a table."""
    tot = sum(weights.values())
    rows = tuple(
        OddsRow(str(v), (describe or {}).get(v, str(v)), Fraction(n, tot))
        for v, n in sorted(weights.items())
    )
    return Odds(label, rows, rule=rule)


#: row odds of checks without a table, by (parsed expression, modifier, B's modifier, reroll)
_PLAIN_ROWS: dict[tuple[Expression | Opposed, int, int, bool], tuple[OddsRow, ...]] = {}
_MEMO_SIZE = 4096


def _odds_rows(
    table: Table | None, expr: Expression | Opposed, modifier: int, b_modifier: int, reroll: bool
) -> tuple[OddsRow, ...]:
    """The exact odds of each row (of each figure without a table): integer counts of the final
    figure, summed per row, one Fraction per row at the end."""
    lo, counts = dist.final_counts(expr, modifier, b_modifier, reroll)
    if table is None:  # each figure is its own row (as odds_from_weights makes them)
        tot = sum(counts)
        figures = [str(v) for v in range(lo, lo + len(counts))]
        return tuple(
            [OddsRow(f, f, Fraction(n, tot)) for f, n in zip(figures, counts, strict=True) if n]
        )
    per_row = table.row_counts(lo, counts)
    tot = sum(per_row)
    return tuple(
        [
            OddsRow(r.key, r.result, Fraction(n, tot), r.range_text)
            for r, n in zip(table.rows, per_row, strict=True)
        ]
    )


def check_odds(check: Check) -> Odds:
    """The exact odds of each row of a check (``Check.odds``); row odds memoised per table."""
    applied, superseded = check.applied()
    b_applied = select(check.b_modifiers)[0]
    key = (
        check.parsed(),
        sum(m.value for m in applied),
        sum(m.value for m in b_applied),
        check.reroll_draws,
    )
    memo = check.table.memo if check.table is not None else _PLAIN_ROWS
    rows = memo.get(key)
    if rows is None:  # the cold path
        rows = _odds_rows(check.table, *key)
        if len(memo) >= _MEMO_SIZE and memo is _PLAIN_ROWS:
            memo.clear()
        memo[key] = rows
    note = "draws rerolled" if check.reroll_draws else ""
    return Odds(
        check.label, rows, check.expression, applied, superseded, check.rule, note, b_applied
    )


@dataclass(frozen=True)
class UnderCheck:
    """Roll ``expression`` (default d100) at most ``base + modifiers`` (or below it, ``strict``).

    Kuryakin's morale: d100 under the BPL plus modifiers. The modifiers move the target; the
    roll itself is never modified.
    """

    base: int
    modifiers: tuple[Modifier, ...] = ()
    expression: str = "d100"
    strict: bool = False
    label: str = ""
    rule: str = ""
    pass_text: str = "passes"
    fail_text: str = "fails"

    def target(self) -> int:
        applied, _ = select(self.modifiers)
        return self.base + sum(m.value for m in applied)

    def table(self) -> Table:
        return Table(
            name="under",
            rows=_under_table_rows(self.target(), self.strict, self.pass_text, self.fail_text),
            title=self.label,
            rule=self.rule,
        )

    def parsed_expression(self) -> Expression:
        return _under_expression(self.expression)

    def odds(self) -> Odds:
        return _under_odds(self)

    def _odds(self) -> Odds:
        applied, superseded = select(self.modifiers)
        target = self.base + sum(m.value for m in applied)
        rows = _under_rows(self.expression, target, self.strict, self.pass_text, self.fail_text)
        return Odds(
            self.label,
            rows,
            f"{self.expression} vs {self.base}",
            applied,
            superseded,
            self.rule,
            target=target,
            base_target=self.base,
            strict=self.strict,
        )

    def resolve(self, source: DiceSource) -> Roll:
        """Roll the dice and read them as :meth:`table` does (at most the limit passes, the
        rest fails), without building the table: its two rows are told by the limit."""
        e = self.parsed_expression()
        faces = roll_faces(e, source)
        natural = _natural(e, faces)
        applied, superseded = select(self.modifiers)
        target = self.base + sum(m.value for m in applied)
        limit, pass_range, fail_range = _under_limit(target, self.strict)
        passed = natural <= limit
        return Roll(
            expression=self.expression,
            faces=tuple(faces),
            natural=natural,
            modifiers=applied,
            superseded=superseded,
            final=natural,
            row="pass" if passed else "fail",
            range_text=pass_range if passed else fail_range,
            consequence=self.pass_text if passed else self.fail_text,
            label=self.label,
            rule=self.rule,
            table="under",
            source=source.kind,
            target=target,
            base_target=self.base,
            strict=self.strict,
        )


@lru_cache(maxsize=4096)
def _under_odds(check: UnderCheck) -> Odds:
    """An under-roll test is a value: the same test has the same odds (Odds is immutable)."""
    return check._odds()


@lru_cache(maxsize=4096)
def _under_rows(
    expression: str, target: int, strict: bool, pass_text: str, fail_text: str
) -> tuple[OddsRow, ...]:
    """Memoised by the expression's text: a d100's faces are costly to hash on every call."""
    limit, pass_range, fail_range = _under_limit(target, strict)
    lo, counts = dist.expression_counts(_under_expression(expression))
    # the rows of the test's table(): at most the limit passes, the rest fails
    n_pass = sum(counts[: max(0, limit - lo + 1)])
    tot = sum(counts)
    return (
        OddsRow("pass", pass_text, Fraction(n_pass, tot), pass_range),
        OddsRow("fail", fail_text, Fraction(tot - n_pass, tot), fail_range),
    )


def _under_expression(expression: str) -> Expression:
    e = parse(expression)
    if not isinstance(e, Expression):
        raise DiceError("an under-roll test takes one expression, not an opposed roll")
    return e


def _under_table_rows(target: int, strict: bool, pass_text: str, fail_text: str) -> tuple[Row, Row]:
    """The two rows of an under-roll test's table: at most the limit passes, the rest fails."""
    limit, pass_range, fail_range = _under_limit(target, strict)
    return (
        Row(-INF, limit, "pass", pass_text, pass_range),
        Row(limit + 1, INF, "fail", fail_text, fail_range),
    )


def _under_limit(target: int, strict: bool) -> tuple[int, str, str]:
    """The highest passing roll, and the range texts of the pass and fail rows."""
    if strict:
        return target - 1, f"<{target}", f"≥{target}"
    return target, f"≤{target}", f">{target}"


def clear_caches() -> None:
    """Forget every memo of the dice package (parsed notation, distributions, under-roll odds),
    so that the next odds are computed cold. Tables keep their own ``memo`` of row odds."""
    _parsed.cache_clear()
    dist.clear_caches()
    _under_rows.cache_clear()
    _under_odds.cache_clear()
    _PLAIN_ROWS.clear()
