"""Checks: the one code path for both the exact odds before a roll and the roll itself.

A :class:`Check` is a dice expression, its modifiers and a result table. ``odds()`` pushes the
exact distribution of the final figure through ``Table.lookup``; ``resolve()`` rolls the dice
and pushes the one final figure through the same ``Table.lookup``. The odds themselves, their
records and the under-roll test live in :mod:`vedette.dice.odds`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vedette.dice.die import Die
from vedette.dice.modifiers import Modifier, select
from vedette.dice.notation import Expression, Opposed, parse
from vedette.dice.roll import Face, OpposedRoll, Roll
from vedette.dice.sources import DiceSource, begin_attempt, reject_attempt
from vedette.errors import DiceError

# Exact odds (vedette.dice.odds: fractions, distributions, tables, the Odds records and the
# under-roll test) are imported where odds are computed: a roll needs none of them (issue 16:
# `vedette roll 2d6` starts within 5x python). Their names are still importable from here.
if TYPE_CHECKING:
    from vedette.dice import dist
    from vedette.dice.odds import Odds as Odds
    from vedette.dice.odds import OddsRow as OddsRow
    from vedette.dice.odds import UnderCheck as UnderCheck
    from vedette.dice.odds import clear_caches as clear_caches
    from vedette.dice.odds import odds_from_weights as odds_from_weights
    from vedette.dice.tables import Row, Table

_FROM_ODDS = ("Odds", "OddsRow", "UnderCheck", "clear_caches", "odds_from_weights")


def __getattr__(name: str) -> Any:
    if name in _FROM_ODDS:
        # start-up: a roll loads no odds (nor fractions)
        from vedette.dice import odds

        return getattr(odds, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


MAX_REROLLS = 1000


def roll_faces(expr: Expression, source: DiceSource) -> list[Face]:
    terms = expr.terms
    if len(terms) == 1 and terms[0].count == 1:  # one die (most rolls): no list of dice made
        d = terms[0].die
        return [Face(d.name, source.face(d))]
    return [Face(d.name, source.face(d)) for d in expr.dice()]


def _natural(expr: Expression, faces: Sequence[Face]) -> int:
    return expr.total([f.face for f in faces])


def _figures(
    expr: Expression, mods: tuple[Modifier, ...], source: DiceSource
) -> tuple[tuple[Face, ...], int, tuple[Modifier, ...], tuple[Modifier, ...], int]:
    """The dice of ``expr`` rolled from ``source`` and the modifiers applied: the faces, the
    natural total, the modifiers applied and superseded, the final figure."""
    faces = roll_faces(expr, source)
    natural = _natural(expr, faces)
    applied, superseded = select(mods)
    return tuple(faces), natural, applied, superseded, natural + sum(m.value for m in applied)


@dataclass(frozen=True, init=False)
class Check:
    """A roll of ``expression`` plus ``modifiers`` read on ``table``.

    For an opposed expression (``"1d6 vs 1d6"``), ``modifiers`` belong to side A and
    ``b_modifiers`` to side B; the final figure is A's modified total minus B's, and with
    ``reroll_draws`` a draw is rolled again (odds conditioned on no draw).

    Made by its own ``__init__`` (the generated one's signature): every field set in one step,
    where a frozen dataclass sets them one by one (issue 29: a check is made for every roll).
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

    def __init__(
        self,
        expression: str,
        modifiers: tuple[Modifier, ...] = (),
        table: Table | None = None,
        label: str = "",
        rule: str = "",
        b_modifiers: tuple[Modifier, ...] = (),
        reroll_draws: bool = False,
        a_label: str = "A",
        b_label: str = "B",
        custom: Mapping[str, Die] | None = None,
    ) -> None:
        object.__setattr__(
            self,
            "__dict__",
            {
                "expression": expression,
                "modifiers": modifiers,
                "table": table,
                "label": label,
                "rule": rule,
                "b_modifiers": b_modifiers,
                "reroll_draws": reroll_draws,
                "a_label": a_label,
                "b_label": b_label,
                "custom": custom,
            },
        )

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
        # start-up: a roll loads no distributions
        from vedette.dice import dist

        return dist.weights_of(
            self.parsed(), self.modifier_total(), self.b_modifier_total(), self.reroll_draws
        )

    def row_for(self, final: int) -> Row | None:
        """The one place a final figure becomes a table row (play and odds alike)."""
        return self.table.lookup(final) if self.table is not None else None

    def odds(self) -> Odds:
        """The exact odds of each row, before the roll (see :mod:`vedette.dice.odds`)."""
        # start-up: a roll loads no odds (nor fractions)
        from vedette.dice.odds import check_odds

        return check_odds(self)

    def _single(
        self, expr: Expression, mods: tuple[Modifier, ...], source: DiceSource, label: str
    ) -> Roll:
        """One side of an opposed roll (its own expression's text, no table)."""
        faces, natural, applied, superseded, final = _figures(expr, mods, source)
        return Roll(
            expression=_text(expr),
            faces=faces,
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
                if self.reroll_draws:
                    begin_attempt(source)
                ra = self._single(e.a, self.modifiers, source, self.a_label)
                rb = self._single(e.b, self.b_modifiers, source, self.b_label)
                diff = ra.final - rb.final
                if diff == 0 and self.reroll_draws:
                    reject_attempt(source)
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
        # (one record made: the dice, then the table's row)
        faces, natural, applied, superseded, final = _figures(e, self.modifiers, source)
        row = self.row_for(final)
        return Roll(
            expression=e.text,
            faces=faces,
            natural=natural,
            modifiers=applied,
            superseded=superseded,
            final=final,
            row=row.key if row else None,
            range_text=row.range_text if row else None,
            consequence=row.result if row else None,
            label=self.label,
            rule=self.rule,
            table=self.table.name if self.table else None,
            source=source.kind,
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


def roll(
    expression: str, source: DiceSource, modifiers: Sequence[Modifier] = (), label: str = ""
) -> Roll | OpposedRoll:
    """Roll a bare expression (no table)."""
    return Check(expression, tuple(modifiers), None, label).resolve(source)
