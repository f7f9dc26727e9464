"""Napoleon At Bay's requests, one declared class a procedure (its name, rule and help):
``move``, ``fix`` (Herman (1)-(4)), ``candidates`` (a query), ``end_movement`` (Herman (5)) and
``end_combat``."""

from __future__ import annotations

from dataclasses import dataclass

from vedette.referee import procedure
from vedette.rules.fields import arg
from vedette.rules.napoleon_at_bay.events import March


@procedure("move", rule="Napoleon At Bay sequence of play")
@dataclass(frozen=True, slots=True)
class MoveRequest:
    """move a piece along a hex path (records the ZOCs it enters)

    Move a piece of the phasing side (one request = the whole move of that piece)."""

    force: str = arg("the piece that moves", positional=True)
    to: tuple[str, ...] = arg(
        "destination hex(es), one per component: W2020 or W2020,W2021 (one hex: the lead"
        " component's, the others follow into touching hexes)",
        positional=True,
    )
    path: tuple[str, ...] = arg(
        "the hexes the lead component passes through, start and end included"
        " (default: the cheapest path)",
        default=(),
    )
    march: March = arg(
        "how it moves (Herman (1)): normal, command, initiative or force march", default="normal"
    )


@procedure("fix", rule="Herman (1)-(4)")
@dataclass(frozen=True, slots=True)
class FixRequest:
    """'fixing' a contact force's location"""

    moving: str = arg("the moving force", positional=True)
    contact: str = arg("the contact force (whose ZOC the moving force entered)", positional=True)
    repulse: bool = arg("a force-marching repulse (Herman (1) note)", default=False)
    array: tuple[str, ...] = arg(
        "hexes for a multi-hex supporting force (the owner's choice, Herman (4))", default=()
    )
    contact_to: tuple[str, ...] = arg(
        "hex(es) for the contact force (the owner's choice, Herman (4))", default=()
    )


@procedure("candidates", rule="Herman (1), (4)", query=True)
@dataclass(frozen=True, slots=True)
class CandidatesRequest:
    """supporting forces in range, closest in MP first"""

    contact: str = arg("the contact force", positional=True)
    moving: str | None = arg("the moving force (for odds and arrays)", default=None)


@procedure("end_movement", rule="Herman (5)")
@dataclass(frozen=True, slots=True)
class EndMovementRequest:
    """end movement: the combat phase follows"""


@procedure("end_combat", rule="Napoleon At Bay sequence of play")
@dataclass(frozen=True, slots=True)
class EndCombatRequest:
    """end combat: the next side moves"""
