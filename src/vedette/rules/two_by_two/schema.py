"""2 by 2 Napoleonics: the options a game may set (none) and the scenario schema."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, model_validator

from vedette.rules.two_by_two import RULESET
from vedette.rules.two_by_two.model import EDGES, FORMATIONS, TERRAIN_KINDS
from vedette.schemas import Strict
from vedette.schemas.fields import Angle, Coord, Id, Name, Point

Edge = Literal[EDGES]  # type: ignore[valid-type]
Formation = Literal[FORMATIONS]  # type: ignore[valid-type]
TerrainKind = Literal[TERRAIN_KINDS]  # type: ignore[valid-type]
Size = Annotated[float, Field(gt=0, le=100_000)]


class TwoByTwoOptions(Strict):
    """2 by 2's one game option; its other knobs are house rules (``--house-rules``)."""

    play: Annotated[str, Field(max_length=16)] = Field(
        "",
        description="tracked (vedette keeps positions and measures) or stated (you state what"
        " you measured on the table); default: tracked when the scenario places its units",
    )


class Table(Strict):
    width: Size = 609.6
    depth: Size = 609.6


class Side(Strict):
    id: Id
    name: Name | None = None
    edge: Edge


class Area(Strict):
    kind: TerrainKind
    name: Name | None = None
    area: list[Point] = Field(min_length=3, max_length=1_000)


class Line(Strict):
    kind: TerrainKind
    name: Name | None = None
    line: list[Point] = Field(min_length=2, max_length=1_000)
    width: Annotated[float, Field(ge=0, le=10_000)] = 0.0


class Circle(Strict):
    kind: TerrainKind
    name: Name | None = None
    circle: Point
    radius: Annotated[float, Field(gt=0, le=100_000)]


def _shape(v: Any) -> str:
    if isinstance(v, dict):
        for k in ("area", "line", "circle"):
            if k in v:
                return f"{k}-shape"
    return "area-shape"


class Unit(Strict):
    id: Id
    side: Id
    type: Id
    name: Name | None = None
    x: Coord = 0.0  # no null: a key present is read as a number
    y: Coord = 0.0
    facing: Angle = 0.0
    status: Literal["table", "reserve", "destroyed"] = "table"
    formation: Formation = "line"
    pinned: bool = False
    disrupted: bool = False
    screened: bool = False

    @model_validator(mode="after")
    def _xy(self) -> Unit:
        if ("x" in self.model_fields_set) != ("y" in self.model_fields_set):
            raise ValueError("give both x and y, or neither")
        return self


class Rp(Strict):
    id: Id
    side: Id
    kind: Literal["rear", "flank"] = "rear"
    at: Point
    queue: list[Id] = Field(default=[], max_length=500)


#: a terrain feature of a table top (also the Kuryakin sample's, drawn for the eye)
TerrainFeature = Annotated[
    Annotated[Area, Tag("area-shape")]
    | Annotated[Line, Tag("line-shape")]
    | Annotated[Circle, Tag("circle-shape")],
    Discriminator(_shape),
]


class Victory(Strict):
    threshold_ap: int = Field(8, ge=0, le=100_000)
    max_turns: int = Field(8, ge=0, le=10_000)


class TwoByTwoScenario(Strict):
    title: Name = ""
    start: Literal["setup", "battle"] = "setup"
    play: Literal["tracked", "stated", ""] = ""
    attacker: Id | None = None
    table: Table = Field(default_factory=Table)
    victory: Victory = Field(default_factory=Victory)
    sides: list[Side] = Field(min_length=2, max_length=2)
    terrain: list[TerrainFeature] = Field(default=[], max_length=1_000)
    units: list[Unit] = Field(min_length=1, max_length=2_000)
    rps: list[Rp] = Field(default=[], max_length=100)
    rules: dict[str, Any] = {}

    @model_validator(mode="after")
    def _refs(self) -> TwoByTwoScenario:
        sides = [s.id for s in self.sides]
        if self.attacker is not None and self.attacker not in sides:
            raise ValueError(f"attacker: {self.attacker!r} is not a side ({', '.join(sides)})")
        ids: set[str] = set()
        for i, u in enumerate(self.units):
            if u.side not in sides:
                raise ValueError(f"units[{i}].side: {u.side!r} is not a side ({', '.join(sides)})")
            if u.id in ids:
                raise ValueError(f"units[{i}].id: duplicate id {u.id!r}")
            ids.add(u.id)
            w, d = self.table.width, self.table.depth
            placed = u.status == "table" and "x" in u.model_fields_set
            if placed and not (0 <= u.x <= w and 0 <= u.y <= d):
                # (a base wholly off the table: no move of it may end on the table, readings
                # 26, 33, 52; a reserve or an arrival stands off the table without x and y)
                raise ValueError(
                    f"units[{i}]: at ({u.x:.1f}, {u.y:.1f}) mm, off the {w:g} x {d:g} mm table"
                    " (a unit on the table stands within it; a reserve gives no x and y)"
                )
        for i, r in enumerate(self.rps):
            if r.side not in sides:
                raise ValueError(f"rps[{i}].side: {r.side!r} is not a side")
            for q in r.queue:
                if q not in ids:
                    raise ValueError(f"rps[{i}].queue: no unit {q!r}")
        if self.rules:
            RULESET.validate_house_rules(self.rules, "scenario rules")
        return self
