"""Checks: the one code path for both the exact odds before a roll and the roll itself.

A :class:`Check` is a dice expression, its modifiers and a result table. ``odds()`` pushes the
exact distribution of the final figure through ``Table.lookup``; ``resolve()`` rolls the dice
and pushes the one final figure through the same ``Table.lookup``. An :class:`UnderCheck` is a
percentile-style test: roll at most (or under) a target that the modifiers move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from vedette.dice.die import Die
from vedette.dice.modifiers import Modifier, select
from vedette.dice.notation import Expression, Opposed, parse
from vedette.dice.notation import _parse_cached as _parsed
from vedette.dice.roll import Face, OpposedRoll, Roll
from vedette.dice.sources import DiceSource
from vedette.errors import DiceError

# Exact odds (fractions, distributions, tables) are imported where odds are computed: a roll
# without a table needs none of them (issue 16: `vedette roll 2d6` starts within 5x python).
if TYPE_CHECKING:
    from fractions import Fraction

    from vedette.dice import dist
    from vedette.dice.tables import Row, Table

MAX_REROLLS = 1000


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
        from fractions import Fraction

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
    from fractions import Fraction

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
    from vedette.dice import dist

    Fraction = dist.Fraction  # a function-level import of fractions costs 1.6 µs
    lo, counts = dist.final_counts(expr, modifier, b_modifier, reroll)
    if table is None:  # each figure is its own row (as odds_from_weights makes them)
        tot = sum(counts)
        return tuple(
            [OddsRow(str(lo + i), str(lo + i), Fraction(n, tot)) for i, n in enumerate(counts) if n]
        )
    per_row = table.row_counts(lo, counts)
    tot = sum(per_row)
    return tuple(
        [
            OddsRow(r.key, r.result, Fraction(n, tot), r.range_text)
            for r, n in zip(table.rows, per_row, strict=True)
        ]
    )


def roll_faces(expr: Expression, source: DiceSource) -> list[Face]:
    return [Face(d.name, source.face(d)) for d in expr.dice()]


def _natural(expr: Expression, faces: Sequence[Face]) -> int:
    return expr.total([f.face for f in faces])


@dataclass(frozen=True)
class Check:
    """A roll of ``expression`` plus ``modifiers`` read on ``table``.

    For an opposed expression (``"1d6 vs 1d6"``), ``modifiers`` belong to side A and
    ``b_modifiers`` to side B; the final figure is A's modified total minus B's, and with
    ``reroll_draws`` a draw is rolled again (odds conditioned on no draw).
    """

    expression: str
    modifiers: tuple[Modifier, ...] = ()
    table: Table | None = None
    label: str = ""
    rule: str = ""
    b_modifiers: tuple[Modifier, ...] = ()
    reroll_draws: bool = False
    a_label: str = "A"
    b_label: str = "B"
    custom: Mapping[str, Die] | None = field(default=None, compare=False)

    def parsed(self) -> Expression | Opposed:
        return parse(self.expression, dict(self.custom) if self.custom is not None else None)

    def applied(self) -> tuple[tuple[Modifier, ...], tuple[Modifier, ...]]:
        return select(self.modifiers)

    def modifier_total(self) -> int:
        return sum(m.value for m in self.applied()[0])

    def b_modifier_total(self) -> int:
        return sum(m.value for m in select(self.b_modifiers)[0])

    def weights(self) -> dist.Weights:
        """Exact integer weights of the final figure."""
        from vedette.dice import dist

        return dist.weights_of(
            self.parsed(), self.modifier_total(), self.b_modifier_total(), self.reroll_draws
        )

    def row_for(self, final: int) -> Row | None:
        """The one place a final figure becomes a table row (play and odds alike)."""
        return self.table.lookup(final) if self.table is not None else None

    def odds(self) -> Odds:
        applied, superseded = self.applied()
        b_applied = select(self.b_modifiers)[0]
        key = (
            self.parsed(),
            sum(m.value for m in applied),
            sum(m.value for m in b_applied),
            self.reroll_draws,
        )
        memo = self.table.memo if self.table is not None else _PLAIN_ROWS
        rows = memo.get(key)
        if rows is None:  # the cold path
            rows = _odds_rows(self.table, *key)
            if len(memo) >= _MEMO_SIZE and memo is _PLAIN_ROWS:
                memo.clear()
            memo[key] = rows
        note = "draws rerolled" if self.reroll_draws else ""
        return Odds(
            self.label, rows, self.expression, applied, superseded, self.rule, note, b_applied
        )

    def _single(
        self, expr: Expression, mods: tuple[Modifier, ...], source: DiceSource, label: str
    ) -> Roll:
        faces = roll_faces(expr, source)
        natural = _natural(expr, faces)
        applied, superseded = select(mods)
        final = natural + sum(m.value for m in applied)
        return Roll(
            expression=expr.text if not isinstance(self.parsed(), Opposed) else _text(expr),
            faces=tuple(faces),
            natural=natural,
            modifiers=applied,
            superseded=superseded,
            final=final,
            label=label,
            source=source.kind,
        )

    def resolve(self, source: DiceSource) -> Roll | OpposedRoll:
        """Roll the dice from ``source`` and read the table."""
        e = self.parsed()
        if isinstance(e, Opposed):
            draws: list[tuple[Roll, Roll]] = []
            for _ in range(MAX_REROLLS):
                ra = self._single(e.a, self.modifiers, source, self.a_label)
                rb = self._single(e.b, self.b_modifiers, source, self.b_label)
                diff = ra.final - rb.final
                if diff == 0 and self.reroll_draws:
                    draws.append((ra, rb))
                    continue
                row = self.row_for(diff)
                return OpposedRoll(
                    a=ra,
                    b=rb,
                    difference=diff,
                    draws=tuple(draws),
                    row=row.key if row else None,
                    range_text=row.range_text if row else None,
                    consequence=row.result if row else None,
                    label=self.label,
                    rule=self.rule,
                    table=self.table.name if self.table else None,
                )
            raise DiceError(f"{MAX_REROLLS} draws in a row: giving up")
        r = self._single(e, self.modifiers, source, self.label)
        row = self.row_for(r.final)
        return Roll(
            expression=r.expression,
            faces=r.faces,
            natural=r.natural,
            modifiers=r.modifiers,
            superseded=r.superseded,
            final=r.final,
            row=row.key if row else None,
            range_text=row.range_text if row else None,
            consequence=row.result if row else None,
            label=self.label,
            rule=self.rule,
            table=self.table.name if self.table else None,
            source=r.source,
        )


def _text(expr: Expression) -> str:
    parts = []
    for t in expr.terms:
        s = f"{t.count}{t.die.name}"
        parts.append(("-" if t.sign < 0 else "+") + s)
    if expr.constant:
        parts.append(f"{expr.constant:+d}")
    txt = "".join(parts)
    return txt[1:] if txt.startswith("+") else txt


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
        from vedette.dice.tables import Table

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
        e = self.parsed_expression()
        faces = roll_faces(e, source)
        natural = _natural(e, faces)
        applied, superseded = select(self.modifiers)
        row = self.table().lookup(natural)
        return Roll(
            expression=self.expression,
            faces=tuple(faces),
            natural=natural,
            modifiers=applied,
            superseded=superseded,
            final=natural,
            row=row.key,
            range_text=row.range_text,
            consequence=row.result,
            label=self.label,
            rule=self.rule,
            table="under",
            source=source.kind,
            target=self.target(),
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
    from vedette.dice import dist

    Fraction = dist.Fraction
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
    from vedette.dice.tables import INF, Row

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


def roll(
    expression: str, source: DiceSource, modifiers: Sequence[Modifier] = (), label: str = ""
) -> Roll | OpposedRoll:
    """Roll a bare expression (no table)."""
    return Check(expression, tuple(modifiers), None, label).resolve(source)


def clear_caches() -> None:
    """Forget every memo of the dice package (parsed notation, distributions, under-roll odds),
    so that the next odds are computed cold. Tables keep their own ``memo`` of row odds."""
    from vedette.dice import dist

    _parsed.cache_clear()
    dist.clear_caches()
    _under_rows.cache_clear()
    _under_odds.cache_clear()
    _PLAIN_ROWS.clear()
