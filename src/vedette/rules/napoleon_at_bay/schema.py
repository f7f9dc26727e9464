"""Napoleon At Bay: the options a game may set and the scenario schema (Herman's system).

A scenario's map is either carried inline (``[map]`` with ``columns``, ``rows``, ...) or named
from the fixed registry of bundled maps (``[map] file = "sample_map.toml"``); nothing else reads
a file."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, model_validator

from vedette.rules.napoleon_at_bay.model import BUNDLED_MAPS
from vedette.schemas import Strict
from vedette.schemas.fields import Count, Id, Name, items

#: the bundled maps a scenario may name (name -> file in the data package)


class NabOptions(Strict):
    variant: Literal["final", "draft"] = Field(
        "final", description="Herman's final rules or his first draft"
    )
    series: Annotated[str, Field(min_length=1, max_length=8)] = Field(
        "1x", description="map series (1x, 2x, 5x ...): sets the support range"
    )
    vedette_strength: int = Field(1, ge=0, le=1000, description="strength points of a vedette")
    substitute_is_fixed: bool = Field(True, description="a substituted force is fixed itself")
    roll_without_candidates: bool = Field(
        True, description="roll the fixing die even when no force could substitute"
    )
    contact_needs_vedette_or_general: bool = Field(
        False, description="only a force with a vedette or a general can be a contact force"
    )
    moving_keeps_fixed: bool = Field(
        True,
        description="a fixed force that moves stays fixed while next to an enemy force"
        " (Herman (2), A21)",
    )
    stop_at_zoc: bool = Field(
        True, description="a move stops at the first enemy ZOC it enters (Herman (1), A18)"
    )
    one_move_per_phase: bool = Field(
        False, description="a force moves once in its side's movement phase (A22)"
    )
    owed_fixing_lapses: bool = Field(
        True,
        description="an owed fixing whose contact force another fixing has fixed lapses"
        " (Herman (2), A24; false: release 0.2's way, it is still rolled)",
    )
    mover_counts_adjacent: bool = Field(
        False,
        description="a mover that stood next to the contact force (across a ZOC-blocking"
        " hexside) when it entered its ZOC makes it ineligible (Herman (1), A25)",
    )
    tie_die: Literal["d6", "d10", "dN"] = Field(
        "d6",
        description="ties among 4-5 forces: a d6 re-rolled above N (d10: and 7-9 forces on a"
        " d10 re-rolled above N, no d7 or d9 needed; the default of a game played with your"
        " own dice), or a die of N faces (dN)",
    )


class ScenarioHead(Strict):
    title: Name = ""
    series: Annotated[str, Field(min_length=1, max_length=8)] = "1x"
    first: Id = ""
    turn: int = Field(1, ge=1, le=10_000)


HexId = Annotated[str, Field(min_length=1, max_length=16)]


class Road(Strict):
    feature: Id = "road"
    path: list[HexId] = Field(max_length=5_000)


class Hexsides(Strict):
    feature: Id
    pairs: list[Annotated[list[HexId], Field(min_length=2, max_length=2)]] = Field(
        max_length=20_000
    )


class InlineMap(Strict):
    name: Name = "map"
    letter: Annotated[str, Field(max_length=4, pattern=r"^[A-Za-z]*$")] = ""
    id_digits: int = Field(2, ge=1, le=4)
    orientation: Literal["flat", "pointy"] = "flat"
    shifted: Literal["even", "odd"] = "even"
    columns: Annotated[
        list[Annotated[int, Field(ge=0, le=9_999)]], Field(min_length=2, max_length=2)
    ]
    rows: Annotated[list[Annotated[int, Field(ge=0, le=9_999)]], Field(min_length=2, max_length=2)]
    default_terrain: Id = "clear"
    names: dict[HexId, Name] = {}
    terrain: dict[HexId, Id] = {}
    areas: dict[Id, list[HexId]] = {}
    roads: list[Road] = Field(default=[], max_length=1_000)
    hexsides: list[Hexsides] = Field(default=[], max_length=1_000)

    @model_validator(mode="after")
    def _size(self) -> InlineMap:
        (c0, c1), (r0, r1) = self.columns, self.rows
        if c1 < c0 or r1 < r0:
            raise ValueError("columns and rows are [first, last] with first <= last")
        if (c1 - c0 + 1) * (r1 - r0 + 1) > 40_000:
            raise ValueError("a map of at most 40,000 hexes")
        if max(c1, r1) >= 10**self.id_digits:
            raise ValueError(f"a column or row of more than {self.id_digits} digits (id_digits)")
        return self


class MapRef(Strict):
    file: str = Field(description="a bundled map: " + ", ".join(BUNDLED_MAPS))

    @model_validator(mode="after")
    def _bundled(self) -> MapRef:
        if self.file not in BUNDLED_MAPS:
            shown = self.file if len(self.file) <= 40 else self.file[:40] + "..."
            raise ValueError(
                f"{shown!r} is not a bundled map (bundled: {', '.join(BUNDLED_MAPS)});"
                " or give the map inline"
            )
        return self


class Force(Strict):
    id: Id
    side: Id
    name: Name = ""
    hexes: list[HexId] = Field(min_length=1, max_length=64)
    kind: Id = "force"
    infantry: Count = 0
    cavalry: Count = 0
    vedettes: Count = 0
    generals: list[Name] = Field(default=[], max_length=64)
    fixed: bool = False
    vedette_strength: Count | None = None


def _map_kind(v: Any) -> str:
    """One map shape or the other, so that an error names the right keys."""
    return "bundled-map" if isinstance(v, dict) and "file" in v else "inline-map"


class NabScenario(Strict):
    scenario: ScenarioHead = Field(default_factory=ScenarioHead)
    sides: dict[Id, Name] = Field(min_length=2, max_length=8)
    map: Annotated[
        Annotated[MapRef, Tag("bundled-map")] | Annotated[InlineMap, Tag("inline-map")],
        Discriminator(_map_kind),
    ]
    forces: list[Force] = items()

    @model_validator(mode="after")
    def _refs(self) -> NabScenario:
        first = self.scenario.first
        if "first" in self.scenario.model_fields_set and first not in self.sides:
            raise ValueError(f"scenario.first: {self.scenario.first!r} is not a side")
        seen: set[str] = set()
        for i, f in enumerate(self.forces):
            if f.side not in self.sides:
                raise ValueError(
                    f"forces[{i}].side: {f.side!r} is not a side ({', '.join(self.sides)})"
                )
            if f.id in seen:
                raise ValueError(f"forces[{i}].id: duplicate id {f.id!r}")
            seen.add(f.id)
        return self
