"""Typed requests: one frozen dataclass per procedure (help, units, defaults in ``arg``).

A fact the player may state or leave to the stored facts is ``None`` when not stated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from vedette.referee import arg, procedure


@procedure("phase", rule="ASL A3")
@dataclass(frozen=True, slots=True)
class PhaseRequest:
    """advance to the next phase (or to=PHASE [side=SIDE], any case)

    Advance to the next phase, or on to ``to`` (of ``side``'s player turn)."""

    to: str | None = arg(
        "PFPh|MPh|DFPh|AFPh|RtPh|APh|CCPh, any case; may name the side: 'German MPh'",
        positional=True,
        default=None,
    )
    side: str | None = arg("whose player turn (default: the next such phase)", default=None)


@procedure("act", rule="O'Leary 2.3, 5.1")
@dataclass(frozen=True, slots=True)
class ActRequest:
    """a friendly unit has moved/advanced/fired this phase (a 'move' says it itself)

    A friendly unit has moved/advanced/fired: the start of the phase is over (2.3, 5.1)."""


@procedure("move", rule="O'Leary 2.2, 2.3, 3.2.2")
@dataclass(frozen=True, slots=True)
class MoveRequest:
    """a stack (or part) moves conventionally (not during set-up)"""

    stack: str = arg("the stack (its id or name, or a counter's)", positional=True)
    to: str = arg("the location it moves to", positional=True)
    counters: tuple[str, ...] | None = arg("the counters that move (a split, 2.2)", default=None)
    dummies: int | None = arg("a dummy stack: how many ? move", default=None)
    mp: int = arg("MP the vehicles used this phase (2.4)", units="MP", default=0)
    position: str = arg("foxhole, crest, ...", default="")
    name: str = arg("the id of the part that splits off (default: P1 gives P1b)", default="")


@procedure("merge", rule="O'Leary 2.2")
@dataclass(frozen=True, slots=True)
class MergeRequest:
    """merge two stacks in one location"""

    a: str = arg("the stack that stays", positional=True)
    b: str = arg("the stack that merges into it", positional=True)


@procedure("mark", rule="O'Leary 2.1")
@dataclass(frozen=True, slots=True)
class StackRequest:
    """mark a stack as a potential dummy stack (set-up)"""

    stack: str = arg("the stack (id or name)", positional=True)


@procedure("drop", rule="O'Leary 2.2")
@dataclass(frozen=True, slots=True)
class DropRequest:
    """a potential dummy stack drops that status, keeps its ?"""

    stack: str = arg("the potential dummy stack (id or name)", positional=True)


@procedure("reveal", rule="O'Leary 2.2, 3.4, 5.2")
@dataclass(frozen=True, slots=True)
class RevealRequest:
    """concealment/HIP/cloaking lost by the ASL rules; dummies removed"""

    what: str = arg("stack (id or a counter's name), fortification or minefield", positional=True)
    keep_concealment: bool = arg("HIP/cloaked units keep a ?", default=False)


@procedure("place", rule="O'Leary 3.1.1, 4.1, 4.6.1")
@dataclass(frozen=True, slots=True)
class PlaceRequest:
    """place an allotted dummy HIP counter or dummy minefield (set-up)"""

    kind: Literal["dummy_hip", "dummy_minefield"] = arg(
        "what to place",
        positional=True,
        labels={"dummy_hip": "dummy HIP counter", "dummy_minefield": "dummy minefield"},
    )
    side: str = arg("whose")
    location: str = arg("where")
    position: str = arg("foxhole, crest, ...", default="")
    name: str = arg(
        "the placed counter's id (default: after its location, X4Q6 / M4Q6)", default=""
    )


@procedure("location", rule="O'Leary 2.4, 2.5, 4.2")
@dataclass(frozen=True, slots=True)
class LocationRequest:
    """state the facts of a location"""

    id: str = arg("the location (4P5)", positional=True)
    tem: int | None = arg("its TEM", default=None)
    terrain: str | None = arg("its terrain", default=None)
    los: bool | None = arg("in the LOS of an enemy unit", default=None)
    lv: bool | None = arg("an LV hindrance applies at all ranges", default=None)
    concealment_terrain: bool | None = arg("Concealment Terrain (2.4)", default=None)
    forbid: tuple[str, ...] | None = arg(
        "fortification kinds that could not be set up here (4.2)", default=None
    )


@procedure("fort", rule="O'Leary 4.4")
@dataclass(frozen=True, slots=True)
class FortRequest:
    """record a fortification's CA, cave complex, tunnel exit or a stack in it"""

    id: str = arg("the fortification", positional=True)
    ca: str | None = arg("its covered arc (4.4)", default=None)
    complex: str | None = arg("a cave's cave complex (4.4.1)", default=None)
    exit: str | None = arg("a tunnel's other exit (4.4.2)", default=None)
    occupant: str | None = arg(
        "a stack in its location taken to be in (above, beneath) it, right after it shifted"
        " there (4.4)",
        default=None,
    )


@procedure("settle", rule="O'Leary 2.3")
@dataclass(frozen=True, slots=True)
class SettleRequest:
    """a vehicle's VCA/TCA and CE/BU, a Gun's CA and emplacement, chosen after a shift

    Right after a shift exchanged it (2.3): a vehicle chooses its VCA, TCA and CE/BU status, a
    Gun its CA and, if it was allowed to emplace at the start, whether it is emplaced."""

    id: str = arg("the vehicle or Gun (counter id or name)", positional=True)
    ca: str | None = arg(
        "a Gun's CA, a vehicle's VCA (and its TCA unless tca= is given): 'facing 4P4'",
        default=None,
    )
    tca: str | None = arg("a vehicle's TCA, when it is not its VCA", default=None)
    ce: Literal["CE", "BU"] | None = arg("a vehicle's CE/BU status", default=None)
    emplaced: bool | None = arg(
        "a Gun allowed to emplace at the start: emplaced after the shift", default=None
    )


@procedure("shift", rule="O'Leary 2.3-2.5, 3.3, 4, 5")
@dataclass(frozen=True, slots=True)
class ShiftRequest:
    """try to exchange two stacks' locations (shift DR)"""

    a: str = arg(
        "stack, counter or fortification (id or name) or location (4P5) that shifts",
        positional=True,
    )
    b: str | None = arg("the other stack/location (default: a itself, 2.3)", default=None)
    kind: Literal["dummy", "hip", "cloaked"] | None = arg(
        "dummy | hip | cloaked (default: from the stacks; minefields: 'minefield')",
        default=None,
        labels={"dummy": "dummy stacks", "hip": "HIP", "cloaked": "cloaked units"},
    )
    also: tuple[Any, ...] = arg(
        "more pairs shifting as one stack on the same DR: [[a2, b2]]; HIP also {a, b, move, back}"
        " (2.4.2); the facts stated here apply to every pair",
        default=(),
    )
    side: str | None = arg("whose stacks (when a location holds both sides')", default=None)
    move: tuple[str, ...] | None = arg(
        "HIP: the units / dummy HIP / fortifications of a that shift (3.3.3)", default=None
    )
    back: tuple[str, ...] | None = arg(
        "HIP: those of b that shift back (default all; [] for none, 3.3.3)", default=None
    )
    counters: tuple[str, ...] | None = arg(
        "part of a stack (refused: dummy, potential dummy and cloaked stacks shift whole,"
        " 2.3.1; HIP units: 'move')",
        default=None,
    )
    tem_a: int | None = arg("TEM of a's location as the player states it", default=None)
    tem_b: int | None = arg("TEM of b's location as the player states it", default=None)
    los: bool | None = arg(
        "either location in enemy LOS (overrides the stored facts)", default=None
    )
    los_a: bool | None = arg("a's location in enemy LOS", default=None)
    los_b: bool | None = arg("b's location in enemy LOS", default=None)
    lv: bool | None = arg("an LV hindrance applies at all ranges", default=None)
    consistent: bool = arg("false if the player finds the shift inconsistent (2.4)", default=True)
    placement_ok: bool = arg(
        "false if a fortification could not be set up there (4.2)", default=True
    )
    positions: dict[str, str] | None = arg(
        "stack -> portion it takes (must be the one it replaces, 2.3)", default=None
    )
    settings: dict[str, str] | None = arg(
        "after the exchange: counter -> CA/TCA/VCA/CE-BU text (2.3)", default=None
    )
    ca: dict[str, str] | None = arg("after the exchange: fortification -> CA (4.4)", default=None)
    emplaced: tuple[str, ...] | None = arg(
        "Guns considered emplaced after the shift (2.3)", default=None
    )
    into_fort: bool = arg(
        "HIP units go into the fortification of their new location (4.4)", default=False
    )
    occupants: tuple[str, ...] | None = arg(
        "other stacks there taken to be in the shifted fortification (4.4)", default=None
    )
    keep_concealment: bool = arg("HIP units that lose HIP keep concealment", default=True)


@procedure("minefield", rule="O'Leary 4.6")
@dataclass(frozen=True, slots=True)
class MinefieldRequest:
    """a unit enters an unrevealed minefield: try to exchange it"""

    entered: str = arg("minefield id or location a unit enters", positional=True)
    other: str = arg("minefield id or location to exchange it with", positional=True)
    los: bool | None = arg("either location in enemy LOS", default=None)
    los_a: bool | None = arg("the entered location in enemy LOS", default=None)
    los_b: bool | None = arg("the other location in enemy LOS", default=None)
    tem_a: int | None = arg("TEM of the entered location", default=None)
    tem_b: int | None = arg("TEM of the other location", default=None)
    lv: bool | None = arg("an LV hindrance applies at all ranges", default=None)


@procedure("boresight", rule="O'Leary 6")
@dataclass(frozen=True, slots=True)
class BoresightRequest:
    """an eligible weapon fires: the bore sight die"""

    weapons: tuple[str, ...] = arg("weapons (id or name) sharing one die (6.3)", positional=True)
    target: str = arg("target location", positional=True)
    roll: bool = arg("false: do not throw (6.2)", default=True)
    candidate_ok: bool | None = arg(
        "on a 6: could the scattered hex be bore sighted? (else decided later)", default=None
    )


@procedure("prereg", rule="O'Leary 7")
@dataclass(frozen=True, slots=True)
class PreregRequest:
    """an AR is placed: the pre-registration die"""

    module: str = arg("the OBA module", positional=True)
    ar: str = arg("AR location", positional=True)
    roll: bool = arg("false: do not throw (7.2)", default=True)
    candidate_ok: bool | None = arg(
        "on a 6: could the scattered hex be pre-registered? (else decided later)", default=None
    )


@procedure("decide", rule="O'Leary 6.1, 7.1")
@dataclass(frozen=True, slots=True)
class DecideRequest:
    """say whether a scattered hex could be bore sighted / pre-registered"""

    id: str = arg("the weapon (id or name) or OBA module waiting", positional=True)
    ok: bool = arg("could that hex be bore sighted / pre-registered?")
    hex: str = arg("the scattered hex (optional: checked against the one waiting)", default="")


@procedure("legal", rule="O'Leary 2.3, 3.3, 5.1", query=True)
@dataclass(frozen=True, slots=True)
class LegalRequest:
    """the shifts a side may try now, with their odds"""

    side: str | None = arg("whose shifts (default both)", default=None)


@procedure("plan", rule="O'Leary 2.5", query=True)
@dataclass(frozen=True, slots=True)
class PlanRequest:
    """the shift planner: exact odds of getting 0, 1, 2 ... planned shifts through this phase,
    and the best order"""

    shifts: tuple[str, ...] = arg(
        "the planned shifts in order: A:B pairs ('P1:D1,H1:X1'; A alone shifts with itself)",
        positional=True,
    )
    side: str | None = arg("whose shifts (default: from the stacks)", default=None)
    order: Literal["given", "best"] = arg(
        "given: the odds of this order; best: also search every order", default="best"
    )
    tem: dict[str, int] | None = arg('TEM stated per location: {"4P5": 3}', default=None)
    los: dict[str, bool] | None = arg("enemy LOS stated per location", default=None)
