"""The toy's state: a frozen dataclass; ``owed`` holds the obligations (the core reads it)."""

from __future__ import annotations

from dataclasses import dataclass

from vedette.referee import Obligation


@dataclass(frozen=True, slots=True)
class ToyState:
    position: int = 0
    limit: int = 100
    history: tuple[int, ...] = ()
    owed: tuple[Obligation, ...] = ()
