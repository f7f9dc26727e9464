"""The Roll record: every die, every modifier with its reason and rule, the final figure, the
table row and the consequence. Rendering (one line, JSON) is separate from the record."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from vedette.dice.modifiers import Modifier

#: a term of dice notation with its sign: dice (count, die) or a constant (number)
_TERM = re.compile(r"([+-]?)\s*(?:([0-9]*)[dD]([0-9]+|%|[A-Za-z_][A-Za-z0-9_]*)|([0-9]+))")


@dataclass(frozen=True, slots=True)
class Face:
    die: str
    face: int


@dataclass(frozen=True, init=False)
class Roll:
    """One roll, explained.

    For an under-roll test (``target`` set), the modifiers change the target, not the dice:
    the roll succeeds when the dice are at most (or, ``strict``, below) the modified target.

    Not slotted, and made by its own ``__init__`` (the generated one's signature): every field
    set in one step (its ``__dict__``), where a frozen dataclass sets them one by one, each
    through ``object.__setattr__`` (a simulated game makes hundreds of rolls; issue 29).
    """

    expression: str
    faces: tuple[Face, ...]
    natural: int
    modifiers: tuple[Modifier, ...] = ()
    superseded: tuple[Modifier, ...] = ()
    final: int = 0
    row: str | None = None
    range_text: str | None = None
    consequence: str | None = None
    label: str = ""
    rule: str = ""
    table: str | None = None
    source: str = "seeded"
    target: int | None = None
    base_target: int | None = None
    strict: bool = False
    details: dict[str, Any] = field(default_factory=dict)

    def __init__(
        self,
        expression: str,
        faces: tuple[Face, ...],
        natural: int,
        modifiers: tuple[Modifier, ...] = (),
        superseded: tuple[Modifier, ...] = (),
        final: int = 0,
        row: str | None = None,
        range_text: str | None = None,
        consequence: str | None = None,
        label: str = "",
        rule: str = "",
        table: str | None = None,
        source: str = "seeded",
        target: int | None = None,
        base_target: int | None = None,
        strict: bool = False,
        details: dict[str, Any] | None = None,
    ) -> None:
        object.__setattr__(
            self,
            "__dict__",
            {
                "expression": expression,
                "faces": faces,
                "natural": natural,
                "modifiers": modifiers,
                "superseded": superseded,
                "final": final,
                "row": row,
                "range_text": range_text,
                "consequence": consequence,
                "label": label,
                "rule": rule,
                "table": table,
                "source": source,
                "target": target,
                "base_target": base_target,
                "strict": strict,
                "details": {} if details is None else details,
            },
        )

    def but(self, **changes: Any) -> Roll:
        """This roll with ``changes`` (its fields): ``dataclasses.replace`` in one step."""
        d = self.__dict__
        if not changes.keys() <= d.keys():
            raise TypeError(f"a roll has no field {sorted(changes.keys() - d.keys())[0]!r}")
        new = object.__new__(Roll)
        object.__setattr__(new, "__dict__", {**d, **changes})
        return new

    def dice_text(self) -> str:
        """``2d6=(3+4)``; a constant and a die taken away are said too: ``1d6+2=2+2``,
        ``2d6-1=(3+1)-1``, ``2d6-1d6=(3+4-2)`` (the line once hid them: ``1d6+2=2=4``)."""
        faces = self.faces
        if len(faces) == 1 and self.natural == faces[0].face:  # one die alone (most rolls)
            return f"{self.expression}={faces[0].face}"
        if "-" not in self.expression:  # every term added
            const = self.natural - sum(f.face for f in faces)
            if not const:  # (a plain sum of dice)
                return f"{self.expression}=({'+'.join(str(f.face) for f in faces)})"
            signs = [1] * len(faces)
        else:  # each term's sign and count as written (the notation checked them)
            signs, const = [], 0
            for sign, count, die, number in _TERM.findall(self.expression):
                if die:
                    signs += [-1 if sign == "-" else 1] * int(count or 1)
                else:
                    const += -int(number) if sign == "-" else int(number)
            if len(signs) != len(faces):  # (never, for a roll of a parsed expression)
                return f"{self.expression}=({'+'.join(str(f.face) for f in faces)})"
        inner = "".join(
            f"{'-' if s < 0 else '+' if i else ''}{f.face}"
            for i, (s, f) in enumerate(zip(signs, faces, strict=True))
        )
        if len(faces) > 1:
            inner = f"({inner})"
        return f"{self.expression}={inner}{f'{const:+d}' if const else ''}"

    def line(self) -> str:
        """One readable line in the seeds' style:
        ``1d6=3+2 (only Ru has Vedette)=5 → Vedette and Ru Inf switch places``."""
        if self.target is not None:
            tgt = str(self.base_target) + "".join(m.text() for m in self.modifiers)
            if self.modifiers:
                tgt += f"={self.target}"
            cmp = "<" if self.strict else "≤"
            out = f"{self.dice_text()} vs {cmp}{tgt}"
        else:
            out = self.dice_text()
            nat_differs = (len(self.faces) != 1 or self.natural != self.faces[0].face) and (
                not out.endswith(f"={self.natural}")  # (a die taken away: -1d6=-3)
            )
            if nat_differs and self.modifiers:
                out += f"={self.natural}"
            out += "".join(m.text() for m in self.modifiers)
            if self.modifiers or nat_differs:
                out += f"={self.final}"
        if self.superseded:
            out += " [not counted: " + ", ".join(m.text() for m in self.superseded) + "]"
        if self.label:
            out = f"{self.label}: {out}"
        if self.consequence:
            out += f" → {self.consequence}"
        return out

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "type": "roll",
            "label": self.label,
            "expression": self.expression,
            "dice": [{"die": f.die, "face": f.face} for f in self.faces],
            "natural": self.natural,
            "modifiers": [m.to_json() for m in self.modifiers],
            "superseded": [m.to_json() for m in self.superseded],
            "final": self.final,
            "table": self.table,
            "row": self.row,
            "range": self.range_text,
            "consequence": self.consequence,
            "rule": self.rule,
            "source": self.source,
            "line": self.line(),
        }
        if self.target is not None:
            d["target"] = self.target
            d["base_target"] = self.base_target
            d["strict"] = self.strict
        if self.details:
            d["details"] = self.details
        return d


@dataclass(frozen=True, slots=True)
class OpposedRoll:
    """Side A's modified roll minus side B's; ``draws`` keeps every rerolled draw."""

    a: Roll
    b: Roll
    difference: int
    draws: tuple[tuple[Roll, Roll], ...] = ()
    row: str | None = None
    range_text: str | None = None
    consequence: str | None = None
    label: str = ""
    rule: str = ""
    table: str | None = None

    @property
    def final(self) -> int:
        return self.difference

    def line(self) -> str:
        parts = []
        for da, db in self.draws:
            parts.append(f"draw {da.final}-{db.final}, reroll; ")
        a = Roll.line(_bare(self.a))
        b = Roll.line(_bare(self.b))
        out = "".join(parts) + f"{self.a.label or 'A'} {a} vs {self.b.label or 'B'} {b}"
        out += f", difference {self.difference:+d}"
        if self.label:
            out = f"{self.label}: {out}"
        if self.consequence:
            out += f" → {self.consequence}"
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "opposed",
            "label": self.label,
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "draws": [[x.to_json(), y.to_json()] for x, y in self.draws],
            "difference": self.difference,
            "final": self.difference,
            "table": self.table,
            "row": self.row,
            "range": self.range_text,
            "consequence": self.consequence,
            "rule": self.rule,
            "line": self.line(),
        }


def single(
    sides: int,
    face: int,
    source: str,
    label: str = "",
    rule: str = "",
    consequence: str | None = None,
    details: dict[str, Any] | None = None,
) -> Roll:
    """The record of one plain die read without a table (a shuffle swap, a random pick, a
    casualty's position): ``1dN=face``, with what it decided."""
    return Roll(
        f"1d{sides}",
        (Face(f"d{sides}", face),),
        face,
        final=face,
        label=label,
        rule=rule,
        consequence=consequence,
        source=source,
        details=details or {},
    )


def _bare(r: Roll) -> Roll:
    from dataclasses import replace

    return replace(r, label="", consequence=None)


AnyRoll = Roll | OpposedRoll


def worded_before(roll: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(now, then)``: the start of a roll's line (a roll as ``to_json`` gives it, opposed
    rolls' own rolls too) as :meth:`Roll.line` says it now and as release 0.2 said it, where
    they differ: 0.2 hid a constant and a die taken away (``1d6+1=2=3+2 (...)=5``, now
    ``1d6+1=2+1=3+2 (...)=5``; ``-1d6=3=-3``, now ``-1d6=-3``). A saved game of that release
    says the same as the referee with ``then`` where it says ``now`` (engine/referee.py)."""
    if roll.get("type") == "opposed":
        out: list[tuple[str, str]] = []
        for part in [
            roll.get("a"),
            roll.get("b"),
            *(x for d in roll.get("draws") or () for x in d),
        ]:
            if isinstance(part, Mapping):
                out += worded_before(part)
        return out
    faces = tuple(Face(str(f["die"]), int(f["face"])) for f in roll.get("dice") or ())
    natural, expression = int(roll.get("natural", 0)), str(roll.get("expression", ""))
    now = Roll(expression, faces, natural).dice_text()
    if len(faces) == 1:
        then = f"{expression}={faces[0].face}"
    else:
        then = f"{expression}=({'+'.join(str(f.face) for f in faces)})"
    if now == then:
        return []
    if roll.get("target") is not None:  # (an under-roll: its target follows)
        return [(f"{now} vs ", f"{then} vs ")]
    # 0.2 then gave the natural total before the modifiers (without any: the final total);
    # the line now gives it unless the dice said it already
    total = natural if roll.get("modifiers") else int(roll.get("final", natural))
    return [(now if now.endswith(f"={natural}") else f"{now}={total}", f"{then}={total}")]
