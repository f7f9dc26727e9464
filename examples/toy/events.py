"""The toy's typed, versioned events and their folds."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from examples.toy.flow import CHEER
from examples.toy.model import ToyState
from vedette.referee import DomainEvent


@dataclass(frozen=True, slots=True)
class Moved(DomainEvent):
    kind: ClassVar[str] = "moved"
    version: ClassVar[int] = 2
    by: int
    cheer: bool = False  # a natural 6: a cheer is owed (Toy 3)

    @classmethod
    def upgrade(cls, version: int, data: dict[str, Any]) -> dict[str, Any]:
        return {**data, "cheer": False}  # v1 had no cheers


@dataclass(frozen=True, slots=True)
class Cheered(DomainEvent):
    kind: ClassVar[str] = "cheered"


def fold_moved(state: ToyState, e: Moved) -> ToyState:
    owed = (*state.owed, CHEER) if e.cheer else state.owed
    return replace(state, position=state.position + e.by, history=(*state.history, e.by), owed=owed)


def fold_cheered(state: ToyState, e: Cheered) -> ToyState:
    return replace(state, owed=tuple(o for o in state.owed if o.id != "cheer"))


EVENTS = (Moved, Cheered)
FOLDS: dict[type[Any], Any] = {Moved: fold_moved, Cheered: fold_cheered}
