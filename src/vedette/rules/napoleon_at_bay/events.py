"""Napoleon At Bay's typed events (folded by ``ruleset.py``): a move, a fixing, a substitution
(Herman (2)-(4)) and the sequence of play moving on (Herman (5))."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from vedette.rules.protocol import DomainEvent

March = Literal["normal", "command", "initiative", "force"]


@dataclass(frozen=True, slots=True)
class Change:
    """One force's move in a substitution."""

    force: str
    from_: tuple[str, ...]
    to: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Moved(DomainEvent):
    """A piece moved along ``path`` (its lead component); ``owed``: the contact forces whose
    fixing its entry into their ZOC made owed (judged eligible at that moment, Herman (1))."""

    kind: ClassVar[str] = "moved"
    version: ClassVar[int] = 2
    force: str
    from_: tuple[str, ...]
    to: tuple[str, ...]
    march: March = "normal"
    mp: str = "0"
    path: tuple[str, ...] = ()
    zoc_entered: tuple[str, ...] = ()
    owed: tuple[str, ...] = ()
    #: a release-0.1 move (read from an old log): its fixings were not judged at its entry
    #: into a ZOC, so ``fix`` judges them when asked, as 0.1 did (never written: see to_json)
    legacy: bool = False

    @classmethod
    def upgrade(cls, version: int, data: dict[str, Any]) -> dict[str, Any]:
        # v1 (release 0.1): no path and no owed fixings (they were not held then)
        d = dict(data)
        frm = list(d.get("from", ()))
        to = list(d.get("to", ()))
        d.setdefault("path", [*frm[:1], *to[:1]])
        d.setdefault("owed", [])
        d["legacy"] = True
        return d

    def to_json(self) -> dict[str, Any]:
        out = DomainEvent.to_json(self)
        if not self.legacy:
            out["data"].pop("legacy", None)
        return out


@dataclass(frozen=True, slots=True)
class Fixed(DomainEvent):
    """Herman (2), (3): the contact force stays where it is and is fixed."""

    kind: ClassVar[str] = "fixed"
    moving: str
    contact: str
    force: str
    result: str
    variant: str = "final"
    repulse: bool = False


@dataclass(frozen=True, slots=True)
class Substituted(DomainEvent):
    """Herman (4): a supporting force and the contact force switch places."""

    kind: ClassVar[str] = "substituted"
    version: ClassVar[int] = 1
    moving: str
    contact: str
    support: str
    changes: tuple[Change, ...]
    fixed: Mapping[str, bool]
    variant: str = "final"
    repulse: bool = False


@dataclass(frozen=True, slots=True)
class PhaseChanged(DomainEvent):
    """The sequence of play moves on (Herman (5): combat after all movement and fixing)."""

    kind: ClassVar[str] = "phase"
    phase: Literal["movement", "combat"]
    phasing: str
    turn: int
