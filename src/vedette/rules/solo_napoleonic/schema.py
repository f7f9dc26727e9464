"""Kuryakin's Solo Napoleonic rules: the options a game may set and the scenario schema."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from vedette.rules.solo_napoleonic.model import (
    GRADES,
    KINDS,
    RANKS,
    SPECIAL_STATES,
    STATUSES,
    General,
    Unit,
)
from vedette.rules.two_by_two.schema import TerrainFeature
from vedette.schemas import Strict
from vedette.schemas.fields import Angle, Id, Name, model_from_dataclass

Kind = Literal[KINDS]  # type: ignore[valid-type]
Grade = Literal[GRADES]  # type: ignore[valid-type]
Rank = Literal[RANKS]  # type: ignore[valid-type]
Status = Literal[STATUSES]  # type: ignore[valid-type]
Special = Literal[SPECIAL_STATES]  # type: ignore[valid-type]


class SolonapOptions(Strict):
    officers: bool = Field(False, description="optional rule: officers (Kuryakin)")
    musicians: bool = Field(False, description="optional rule: musicians (drummers, trumpeters)")
    standards: bool = Field(False, description="optional rule: standard bearers")
    optional_figures: bool = Field(
        False, description="all three optional rules: officers, musicians, standard bearers"
    )
    deal: Literal["shuffle", "cards"] = Field(
        "shuffle",
        description="how the activation and chance cards are dealt: 'shuffle' (vedette's"
        " shuffle on dice) or 'cards' (a real deck: the number turned up for each holder in"
        " turn; the default of a game played with your own dice; reading K80)",
    )
    staff_by: Literal["all", "general"] = Field(
        "all",
        description="how todo offers the staff's ratings: 'all' generals in one step or one"
        " 'general' a step (the default of a game played with your own dice; reading K81)",
    )


UnitModel = model_from_dataclass(
    Unit,
    "Unit",
    {
        "id": (Id, ...),
        "name": (Name, ...),
        "side": (Id, ...),
        "kind": (Kind, ...),
        "grade": (Grade, ...),
        "figures": (int, Field(..., ge=0, le=10_000)),
        "brigade": (Id | None, None),
        "status": (Status, "steady"),
        "facing": (Angle, 0.0),
        "officer": (Special | None, None),
        "musician": (Special | None, None),
        "standard": (Special | None, None),
        "front": (int, Field(0, ge=0, le=10_000)),
    },
)

GeneralModel = model_from_dataclass(
    General,
    "General",
    {
        "id": (Id, ...),
        "name": (Name, ...),
        "side": (Id, ...),
        "rank": (Rank, "brigadier"),
        "superior": (Id | None, None),
        "cr": (int | None, Field(None, ge=0, le=100)),
    },
)


class SolonapScenario(Strict):
    title: Name = ""
    sides: list[Id] = Field(default=["French", "Allies"], min_length=2, max_length=2)
    units: list[UnitModel] = Field(default=[], max_length=2_000)  # type: ignore[valid-type]
    generals: list[GeneralModel] = Field(default=[], max_length=500)  # type: ignore[valid-type]
    options: SolonapOptions = Field(default_factory=SolonapOptions)
    #: terrain drawn on the board for the player's eye (vedette measures no cover or
    #: ground in Kuryakin's rules: those facts are stated); shapes as in 2 by 2
    terrain: list[TerrainFeature] = Field(default=[], max_length=1_000)

    @model_validator(mode="after")
    def _refs(self) -> SolonapScenario:
        gens = {g.id for g in self.generals}  # type: ignore[attr-defined]
        ids: set[str] = set()
        for key in ("units", "generals"):
            for i, x in enumerate(getattr(self, key)):
                if x.side not in self.sides:
                    raise ValueError(
                        f"{key}[{i}].side: {x.side!r} is not a side ({', '.join(self.sides)})"
                    )
                if x.id in ids:
                    raise ValueError(f"{key}[{i}].id: duplicate id {x.id!r}")
                ids.add(x.id)
        for i, u in enumerate(self.units):
            if u.brigade is not None and u.brigade not in ids:  # type: ignore[attr-defined]
                raise ValueError(f"units[{i}].brigade: no brigadier {u.brigade!r}")  # type: ignore[attr-defined]
        for i, g in enumerate(self.generals):
            sup = g.superior  # type: ignore[attr-defined]
            if sup is not None and sup not in gens:
                raise ValueError(f"generals[{i}].superior: no general {sup!r}")
        return self
