"""Solitaire ASL: the options a game may set and the scenario schema (O'Leary)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Discriminator, Field, Tag, model_validator

from vedette.schemas import Strict
from vedette.schemas.fields import Count, Id, Name, SmallInt, items

Loc = Annotated[str, Field(max_length=16)]


class AslOptions(Strict):
    separate_counter_sizes: bool = Field(
        False, description="shift vehicles and Guns only with stacks of their own size class"
    )


class Board(Strict):
    id: Id
    col: int = Field(0, ge=0, le=1_000)
    row: int = Field(0, ge=0, le=10_000)


class Grid(Strict):
    orientation: Annotated[str, Field(pattern="^(flat|pointy)$")] = "flat"
    shifted: Annotated[str, Field(pattern="^(even|odd)$")] = "even"


class SideEntry(Strict):
    name: Id
    # no null: the loader reads a key that is present as a number
    hip_squads: Annotated[float, Field(ge=0, le=1_000)] = 0
    hidden_ap: Count = 0
    hidden_at: Count = 0


class LocationBody(Strict):
    """A location given as ``[locations."4P5"]`` (the id is the key)."""

    tem: SmallInt = 0
    terrain: Name = ""
    los: bool = False
    lv: bool = False
    concealment_terrain: bool = True
    forbid: list[Id] = Field(default=[], max_length=32)


class Location(LocationBody):
    id: Loc


class Counter(Strict):
    id: Id = ""
    name: Name
    kind: Id | None = None
    size: Id | None = None
    mp: Count | None = None
    mp_used: Count = 0
    emplaced: bool = False
    may_emplace: bool = False
    settings: Name = ""
    boresight: bool | Annotated[str, Field(pattern="^(none|eligible|lost)$")] = "none"
    boresight_location: Loc | None = None


def _shape(v: Any) -> str:
    return "table-shape" if isinstance(v, dict) else "name-shape"


def _many(v: Any) -> str:
    return "table-shape" if isinstance(v, dict) else "list-shape"


class Stack(Strict):
    id: Id = ""
    name: Id = ""  # the player's name for the stack: its id when no id is given
    side: Id
    location: Loc
    status: Id = "potential_dummy"
    counters: list[
        Annotated[
            Annotated[Annotated[str, Field(max_length=200)], Tag("name-shape")]
            | Annotated[Counter, Tag("table-shape")],
            Discriminator(_shape),
        ]
    ] = Field(default=[], max_length=100)
    dummies: Count = 0
    position: Name = ""


class Fortification(Strict):
    id: Id = ""
    side: Id
    kind: Id
    location: Loc = ""
    tem: SmallInt = 0
    hidden: bool = True
    hexsides: Count = 0
    ca: Name = ""
    complex: Name = ""
    tunnel_from: Loc = ""
    exit: Loc = ""
    moved: bool = False


class Minefield(Strict):
    id: Id = ""
    side: Id
    location: Loc
    ap: Count = 0
    at: Count = 0
    known: bool = False
    revealed: bool = False
    dummy: bool = False


class Oba(Strict):
    id: Id = ""
    side: Id
    prereg: bool = False
    location: Loc | None = None
    ar: Loc | None = None


class AslScenario(Strict):
    name: Name = "scenario"
    sides: list[Id] = Field(min_length=2, max_length=2)
    first: Id = ""
    night: bool = False
    lv: bool = False
    extra_drm: SmallInt = 0
    boards: list[Id | Board] = Field(default=[], max_length=64)
    grid: Grid | None = None
    side: list[SideEntry] = Field(default=[], max_length=2)
    locations: Annotated[
        Annotated[list[Location], Field(max_length=2_000), Tag("list-shape")]
        | Annotated[dict[Loc, LocationBody], Field(max_length=2_000), Tag("table-shape")],
        Discriminator(_many),
    ] = []
    stacks: list[Stack] = items()
    fortifications: list[Fortification] = items()
    minefields: list[Minefield] = items()
    oba: list[Oba] = Field(default=[], max_length=64)

    @model_validator(mode="after")
    def _refs(self) -> AslScenario:
        sides = set(self.sides)
        if "first" in self.model_fields_set and self.first not in sides:
            raise ValueError(f"first: {self.first!r} is not a side ({', '.join(self.sides)})")
        for key in ("stacks", "fortifications", "minefields", "oba"):
            for i, x in enumerate(getattr(self, key)):
                if x.side not in sides:
                    raise ValueError(f"{key}[{i}].side: {x.side!r} is not a side")
        for i, s in enumerate(self.side):
            if s.name not in sides:
                raise ValueError(f"side[{i}].name: {s.name!r} is not a side")
        return self
