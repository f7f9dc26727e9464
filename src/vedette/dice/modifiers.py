"""Modifiers: each with its value, reason and rule; exclusive groups; per-count modifiers."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Modifier:
    """A die-roll (or target) modifier.

    ``group``: an exclusive group in which only the largest modifier applies (O'Leary 2.5's
    starred size DRMs). Modifiers outside any group all apply.
    """

    value: int
    reason: str
    rule: str = ""
    group: str | None = None

    def text(self) -> str:
        return f"{self.value:+d} ({self.reason})"

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"value": self.value, "reason": self.reason, "rule": self.rule}
        if self.group is not None:
            d["group"] = self.group
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Modifier:
        return cls(int(d["value"]), str(d["reason"]), str(d.get("rule", "")), d.get("group"))


def per_count(
    per: int,
    count: int,
    reason: str,
    rule: str = "",
    cap: int | None = None,
    unit: str = "",
    group: str | None = None,
) -> Modifier:
    """A modifier worth ``per`` for each of ``count`` things, counting at most ``cap`` of them.

    ``per_count(10, 4, "friendly unit within 300mm", cap=3, unit="%")`` is +30, explained as
    ``+10% per friendly unit within 300mm ×3 (4 present, max 3)``.
    """
    counted = count if cap is None else min(count, cap)
    note = f"×{counted}"
    if cap is not None and count > cap:
        note += f" ({count} present, max {cap})"
    elif cap is not None:
        note += f" (max {cap})"
    return Modifier(per * counted, f"{per:+d}{unit} per {reason} {note}", rule, group)


def select(modifiers: Iterable[Modifier]) -> tuple[tuple[Modifier, ...], tuple[Modifier, ...]]:
    """Split modifiers into (applied, superseded).

    In each exclusive group only the largest value applies (the first of equals); the rest
    are superseded and shown as such, never silently dropped.
    """
    mods = tuple(modifiers)
    for m in mods:
        if m.group is not None:
            break
    else:  # no exclusive group (most rolls): every modifier applies, in its order
        return mods, ()
    best: dict[str, int] = {}
    for i, m in enumerate(mods):
        if m.group is not None and (m.group not in best or m.value > mods[best[m.group]].value):
            best[m.group] = i
    applied: list[Modifier] = []
    superseded: list[Modifier] = []
    for i, m in enumerate(mods):
        if m.group is None or best[m.group] == i:
            applied.append(m)
        else:
            superseded.append(m)
    return tuple(applied), tuple(superseded)


def total(modifiers: Iterable[Modifier]) -> int:
    """Sum of the modifiers that apply (exclusive groups resolved)."""
    applied, _ = select(modifiers)
    return sum(m.value for m in applied)
