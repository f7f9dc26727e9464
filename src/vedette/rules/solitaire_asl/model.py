"""The bookkeeping vedette keeps for O'Leary's solitaire ASL: counters, stacks and their status,
fortifications, minefields, locations (facts the player states), OBA modules, the turn.

Everything is a frozen value; the state changes only by events (see :mod:`.fold`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from vedette.rules.protocol import Obligation
from vedette.rules.solitaire_asl.ids import BoardLayout

if TYPE_CHECKING:
    from vedette.rules.solitaire_asl.config import Config

#: Phases of a player turn, in order (ASL A3).
PHASES: tuple[str, ...] = ("PFPh", "MPh", "DFPh", "AFPh", "RtPh", "APh", "CCPh")
SETUP = "setup"


class Status(StrEnum):
    """What a stack is, for shifting purposes."""

    POTENTIAL_DUMMY = "potential_dummy"  # O'Leary 2.1: real units, concealed, may shift
    DUMMY = "dummy"  # concealment counters only ("?" dummies)
    CONCEALED = "concealed"  # real units under "?", not (or no longer) a potential dummy stack
    REVEALED = "revealed"  # real units in plain view
    HIP = "hip"  # O'Leary 3: units hidden in place
    DUMMY_HIP = "dummy_hip"  # O'Leary 3.1: a dummy HIP counter
    CLOAKED = "cloaked"  # O'Leary 5: units (or nothing) under a cloaking counter


class Op(StrEnum):
    """The distinct shifting operations (O'Leary 3.3.4: HIP and dummy shifting are separate)."""

    DUMMY = "dummy"  # potential dummy stacks and dummy stacks (2.3)
    HIP = "hip"  # HIP units, dummy HIP counters, hidden fortifications (3.3, 4)
    CLOAKED = "cloaked"  # night (5.1)
    MINEFIELD = "minefield"  # 4.6


COUNTER_KINDS = ("squad", "hs", "crew", "leader", "hero", "sw", "gun", "vehicle", "other")
GUN_SIZES = ("small", "normal", "large")
VEHICLE_SIZES = ("very_small", "small", "normal", "large", "very_large")
FORTIFICATION_KINDS = (
    "pillbox",
    "trench",
    "foxhole",
    "cave",
    "wire",
    "panji",
    "tunnel",
    "fortified_building",
    "sangar",
    "roadblock",
)


def kind_words(kind: str) -> str:
    """A fortification kind's key in words, for messages and explanations: ``fortified_building``
    is typed, "fortified building" is printed."""
    return kind.replace("_", " ")


#: a weapon's bore-sight statuses other than a determined location (6.1, 2.3)
BORESIGHT_STATES = ("none", "eligible", "lost")


def _boresight(d: Mapping[str, Any]) -> str:
    """The one bore-sight field; release 0.1 kept a location in ``boresight_location`` beside
    ``boresight`` (a location wins: it is for good, 6.1)."""
    loc = d.get("boresight_location")
    if loc:
        return str(loc)
    v = d.get("boresight", "none")
    if v is True:
        return "eligible"
    if v is False or v is None:
        return "none"
    return str(v)


@dataclass(frozen=True, slots=True)
class Counter:
    """A real counter: squad, HS, crew, leader, hero, SW, Gun or vehicle.

    ``size``: a Gun's or vehicle's size class (O'Leary 2.5 starred DRMs). ``mp``/``mp_used``:
    a vehicle's MP allowance and the most MP it has used in one MPh so far (2.4 consistency).
    ``boresight``: the weapon's one bore-sight status (6.1, 2.3): ``none`` (not allowed to
    bore sight), ``eligible`` (allowed, location still undetermined), ``lost`` (eligibility
    lost by a change of location, 2.3), or the bore-sighted location itself once determined
    (for good: 6.1 "for that shot, and for all subsequent shots"). One field, so the state
    can never say both "lost" and a location. A decision awaited on a scattered hex is an
    obligation in ``State.owed``, not a status.
    """

    id: str
    name: str
    kind: str = "squad"
    size: str = ""
    mp: int | None = None
    mp_used: int = 0
    emplaced: bool = False
    may_emplace: bool = False
    settings: str = ""
    boresight: str = "none"

    @property
    def boresight_location(self) -> str | None:
        """The bore-sighted location once determined (6.1), else None."""
        return None if self.boresight in BORESIGHT_STATES else self.boresight

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "name": self.name, "kind": self.kind}
        for k in ("size", "settings"):
            if getattr(self, k):
                d[k] = getattr(self, k)
        if self.mp is not None:
            d["mp"] = self.mp
        if self.mp_used:
            d["mp_used"] = self.mp_used
        if self.emplaced:
            d["emplaced"] = True
        if self.may_emplace:
            d["may_emplace"] = True
        if self.boresight != "none":
            d["boresight"] = self.boresight
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Counter:
        return cls(
            id=str(d["id"]),
            name=str(d.get("name", d["id"])),
            kind=str(d.get("kind", "squad")),
            size=str(d.get("size", "")),
            mp=None if d.get("mp") is None else int(d["mp"]),
            mp_used=int(d.get("mp_used", 0)),
            emplaced=bool(d.get("emplaced", False)),
            may_emplace=bool(d.get("may_emplace", False)),
            settings=str(d.get("settings", "")),
            boresight=_boresight(d),
        )


@dataclass(frozen=True, slots=True)
class Stack:
    """Counters of one side in one location and position (a portion of the location such as a
    foxhole, a pillbox or crest status: O'Leary 2.1, 2.3).

    Real counters are in ``counters``; ``dummies`` counts the concealment counters of a dummy
    stack (O'Leary 2.3.2 counts them), 1 for a dummy HIP counter or a dummy cloaking counter.
    ``moved``: the stack changed location other than by shifting (2.3, bore sighting).
    """

    id: str
    side: str
    location: str
    status: Status
    counters: tuple[Counter, ...] = ()
    dummies: int = 0
    position: str = ""
    ti: bool = False
    moved: bool = False

    @property
    def real(self) -> int:
        """Number of real counters (O'Leary 2.3.2, 2.3.3)."""
        return len(self.counters)

    @property
    def size(self) -> int:
        """Number of counters of a dummy stack or of real counters otherwise (2.3.4)."""
        return self.dummies if self.status == Status.DUMMY else self.real

    @property
    def is_dummy(self) -> bool:
        return not self.counters

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id,
            "side": self.side,
            "location": self.location,
            "status": self.status.value,
            "counters": [c.to_json() for c in self.counters],
        }
        if self.dummies:
            d["dummies"] = self.dummies
        if self.position:
            d["position"] = self.position
        if self.ti:
            d["ti"] = True
        if self.moved:
            d["moved"] = True
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Stack:
        return cls(
            id=str(d["id"]),
            side=str(d["side"]),
            location=str(d["location"]),
            status=Status(str(d["status"])),
            counters=tuple(Counter.from_json(c) for c in d.get("counters", [])),
            dummies=int(d.get("dummies", 0)),
            position=str(d.get("position", "")),
            ti=bool(d.get("ti", False)),
            moved=bool(d.get("moved", False)),
        )


@dataclass(frozen=True, slots=True)
class Fortification:
    """A fortification (O'Leary 4). ``tem``: its TEM (a 1+5+7 pillbox has 5); ``hidden``: a
    hidden fortification, treated as an HIP unit (4.2). ``hexsides``: panji covered hexsides
    (4.1). ``tunnel_from``/``exit``: a tunnel's fortified end and its other exit (4.4.2).
    ``complex``: a cave's cave complex (4.4.1). ``ca``: covered arc, chosen after a shift (4.4).
    """

    id: str
    side: str
    kind: str
    location: str
    tem: int = 0
    hidden: bool = True
    hexsides: int = 0
    ca: str = ""
    complex: str = ""
    tunnel_from: str = ""
    exit: str = ""
    moved: bool = False

    @property
    def words(self) -> str:
        """The kind in words for messages ("fortified building"); ``kind`` stays the key typed."""
        return kind_words(self.kind)

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id,
            "side": self.side,
            "kind": self.kind,
            "location": self.location,
            "tem": self.tem,
            "hidden": self.hidden,
        }
        for k in ("hexsides", "ca", "complex", "tunnel_from", "exit", "moved"):
            if getattr(self, k):
                d[k] = getattr(self, k)
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Fortification:
        return cls(
            id=str(d["id"]),
            side=str(d["side"]),
            kind=str(d["kind"]),
            location=str(d.get("location", "")),
            tem=int(d.get("tem", 0)),
            hidden=bool(d.get("hidden", True)),
            hexsides=int(d.get("hexsides", 0)),
            ca=str(d.get("ca", "")),
            complex=str(d.get("complex", "")),
            tunnel_from=str(d.get("tunnel_from", "")),
            exit=str(d.get("exit", "")),
            moved=bool(d.get("moved", False)),
        )


@dataclass(frozen=True, slots=True)
class Minefield:
    """A minefield counter (O'Leary 4.6): ``ap`` FP and ``at`` factors, strength face down
    until ``revealed``; ``known`` for a known minefield, else hidden; ``dummy`` for a dummy
    minefield (4.6.1)."""

    id: str
    side: str
    location: str
    ap: int = 0
    at: int = 0
    known: bool = False
    revealed: bool = False
    dummy: bool = False

    @property
    def strength(self) -> str:
        if self.dummy:
            return "dummy (no mines)"
        parts = []
        if self.ap:
            parts.append(f"{self.ap} AP")
        if self.at:
            parts.append(f"{self.at} AT")
        return " + ".join(parts) or "0"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "location": self.location,
            "ap": self.ap,
            "at": self.at,
            "known": self.known,
            "revealed": self.revealed,
            "dummy": self.dummy,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Minefield:
        return cls(
            id=str(d["id"]),
            side=str(d["side"]),
            location=str(d["location"]),
            ap=int(d.get("ap", 0)),
            at=int(d.get("at", 0)),
            known=bool(d.get("known", False)),
            revealed=bool(d.get("revealed", False)),
            dummy=bool(d.get("dummy", False)),
        )


@dataclass(frozen=True, slots=True)
class Location:
    """Facts about a location that the player states (vedette computes no LOS or terrain).

    ``tem``: the location's TEM (Air Burst and emplacement TEM excluded, 2.5); ``los``: in the
    LOS of an enemy unit; ``lv``: an LV hindrance applies at all ranges; ``concealment_terrain``
    (2.4 consistency: a vehicle outside it in enemy LOS loses concealment at once); ``forbid``:
    fortification kinds that could not be set up here (4.2).
    """

    id: str
    tem: int = 0
    terrain: str = ""
    los: bool = False
    lv: bool = False
    concealment_terrain: bool = True
    forbid: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "tem": self.tem,
            "terrain": self.terrain,
            "los": self.los,
            "lv": self.lv,
            "concealment_terrain": self.concealment_terrain,
            "forbid": list(self.forbid),
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Location:
        return cls(
            id=str(d["id"]),
            tem=int(d.get("tem", 0)),
            terrain=str(d.get("terrain", "")),
            los=bool(d.get("los", False)),
            lv=bool(d.get("lv", False)),
            concealment_terrain=bool(d.get("concealment_terrain", True)),
            forbid=tuple(str(x) for x in d.get("forbid", ())),
        )


@dataclass(frozen=True, slots=True)
class ObaModule:
    """An OBA module; ``prereg``: granted a pre-registered hex (7.1); ``location`` once
    determined; ``ar``: the AR location fixed by a pre-registration die (7.1)."""

    id: str
    side: str
    prereg: bool = False
    location: str | None = None
    ar: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "prereg": self.prereg,
            "location": self.location,
            "ar": self.ar,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> ObaModule:
        return cls(
            str(d["id"]),
            str(d["side"]),
            bool(d.get("prereg", False)),
            d.get("location"),
            d.get("ar"),
        )


@dataclass(frozen=True, slots=True)
class Allotment:
    """Dummy counters a side is allotted at setup (O'Leary 3.1.1, 4.1, 4.6.1) and placed."""

    side: str
    hip_capacity: int = 0
    dummy_hip: int = 0
    dummy_hip_placed: int = 0
    dummy_minefields: int = 0
    dummy_minefields_placed: int = 0
    explain: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "hip_capacity": self.hip_capacity,
            "dummy_hip": self.dummy_hip,
            "dummy_hip_placed": self.dummy_hip_placed,
            "dummy_minefields": self.dummy_minefields,
            "dummy_minefields_placed": self.dummy_minefields_placed,
            "explain": list(self.explain),
        }


@dataclass(frozen=True, slots=True)
class State:
    """The whole game. ``phasing``: the side whose player turn it is; ``acted``: whether a
    friendly (phasing) unit has already moved, advanced or fired this phase (2.3, 5.1).
    ``counts``: successful shifts per (side, phase key, operation) that bear the +1 DRM
    (2.5); ``closed``: (side, operation, window key) in which shifting is over (2.5, 3.3.5);
    ``moved_now``: the stacks that moved (``move``) this phase, whose own MPh/APh has begun
    (5.1, reading A37). ``reform``, ``reroute``, ``reorient``: see the fields.
    """

    name: str
    sides: tuple[str, ...]
    layout: BoardLayout
    night: bool = False
    extra_drm: int = 0
    lv: bool = False
    first: str = ""
    phase: str = SETUP
    phasing: str = ""
    player_turn: int = 0
    acted: bool = False
    moved_now: tuple[str, ...] = ()
    locations: tuple[Location, ...] = ()
    stacks: tuple[Stack, ...] = ()
    fortifications: tuple[Fortification, ...] = ()
    minefields: tuple[Minefield, ...] = ()
    oba: tuple[ObaModule, ...] = ()
    allotments: tuple[Allotment, ...] = ()
    counts: tuple[tuple[str, str, str, int], ...] = ()
    closed: tuple[tuple[str, str, str], ...] = ()
    serial: int = 0
    owed: tuple[Obligation, ...] = ()  # decisions the rules require (6.1, 7.1): see .events
    #: sides whose cave complex may be re-formed now: a cave of theirs has just shifted, and
    #: nothing but ``fort`` has been done since (4.4.1 "immediately", reading A40)
    reform: tuple[str, ...] = ()
    #: tunnels whose exit may be changed now: a fortification of theirs in the exit's location
    #: has just shifted away, and nothing but ``fort`` has been done since (4.4.2, A40)
    reroute: tuple[str, ...] = ()
    #: fortifications with a CA whose location a shift has just changed: each may choose its
    #: CA now (4.4 "after the shift"), until anything but ``fort`` is done (reading A43)
    reorient: tuple[str, ...] = ()
    #: vehicles and Guns a shift has just exchanged (with another stack or with their own):
    #: each may choose its CA/TCA/VCA and CE/BU status, a Gun allowed to emplace at the start
    #: its emplacement, "immediately following the exchange" (O'Leary 2.3), until anything
    #: but ``settle`` or ``fort`` is done (reading A46)
    resettle: tuple[str, ...] = ()
    #: fortifications whose location a shift has just changed: units there may be taken to be
    #: in (above, beneath) them now (4.4 "after a successful shift"), until anything but
    #: ``fort`` or ``settle`` is done (reading A46)
    rehouse: tuple[str, ...] = ()
    #: OBA modules whose AR has had its pre-registration die this phase: the AR may not be
    #: shifted after the die, so no second die until a later phase (7.1, reading A44)
    ar_now: tuple[str, ...] = ()
    #: (location, stacks, phase) of each location with an unrevealed minefield whose latest
    #: entry seen (``move``) was by concealment counters alone: no unit entered, so no exchange
    #: is open there (4.6.2, reading A35) in that phase or any later one, until a unit enters
    #: (one entry per location: it does not grow with the game's age)
    dummy_entered: tuple[tuple[str, str, str], ...] = ()
    removed: tuple[str, ...] = ()  # ids of stacks/counters taken off the board
    options: Mapping[str, Any] = field(default_factory=dict)
    #: the rule data read once (shipped data and house rules; config.py)
    config: Config = field(default=None, repr=False, compare=False)  # type: ignore[assignment]

    @property
    def pending(self) -> tuple[tuple[str, str, str], ...]:
        """(kind, id, hex) of each scattered hex awaiting the player's word (from ``owed``)."""
        return tuple(
            (o.id.split(":", 1)[0], str(o.request["id"]), str(o.request["hex"]))
            for o in self.owed
            if o.procedure == "decide"
        )

    # -- lookups ------------------------------------------------------------------------
    def stack(self, sid: str) -> Stack | None:
        return next((s for s in self.stacks if s.id == sid), None)

    def fortification(self, fid: str) -> Fortification | None:
        return next((f for f in self.fortifications if f.id == fid), None)

    def minefield(self, mid: str) -> Minefield | None:
        return next((m for m in self.minefields if m.id == mid), None)

    def location(self, lid: str) -> Location:
        for loc in self.locations:
            if loc.id == lid:
                return loc
        return Location(lid)

    def stacks_at(self, lid: str, side: str | None = None) -> list[Stack]:
        return [s for s in self.stacks if s.location == lid and (side is None or s.side == side)]

    def forts_at(self, lid: str, side: str | None = None) -> list[Fortification]:
        return [
            f for f in self.fortifications if f.location == lid and (side is None or f.side == side)
        ]

    def allotment(self, side: str) -> Allotment:
        return next((a for a in self.allotments if a.side == side), Allotment(side))

    def counter(self, cid: str) -> tuple[Stack, Counter] | None:
        for s in self.stacks:
            for c in s.counters:
                if c.id == cid:
                    return s, c
        return None

    def count(self, side: str, phase_key: str, op: str | None) -> int:
        return sum(
            n
            for (sd, pk, o, n) in self.counts
            if sd == side and pk == phase_key and (op is None or o == op)
        )

    def is_closed(self, side: str, op: str, window: str) -> bool:
        return (side, op, window) in self.closed

    def enemy(self, side: str) -> str:
        return next((s for s in self.sides if s != side), side)

    def with_stack(self, s: Stack) -> State:
        out = [x for x in self.stacks if x.id != s.id]
        out.append(s)
        return replace(self, stacks=tuple(sorted(out, key=lambda x: _natural_key(x.id))))


_DIGITS = re.compile(r"(\d+)")


@lru_cache(maxsize=65536)
def _natural_key(text: str) -> tuple[Any, ...]:
    return tuple(int(p) if p.isdigit() else p for p in _DIGITS.split(text))


def natural_key(text: str) -> tuple[Any, ...]:
    """Sort key that puts P2 before P10."""
    return _natural_key(text)
