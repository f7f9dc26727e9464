"""O'Leary's solitaire rule data read once per game into typed values (issue 28, the pattern of
Napoleon At Bay's ``Config``): the shipped ``data/rules.toml`` with the game's house rules
merged, read when the game's first state is built (one ``Config`` per house rules, shared by
every game that has them). The rules code reads its fields (``config.drm.previous_shift``),
never a key of the data; the default of every value is written once, in the data file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from vedette.dice.tables import Table, tables_from_data
from vedette.errors import DataError
from vedette.rules.config import rolled, section, table, value
from vedette.rules.simulation import battle_end_turns
from vedette.rules.solitaire_asl.model import (
    COUNTER_KINDS,
    FORTIFICATION_KINDS,
    GUN_SIZES,
    PHASES,
    VEHICLE_SIZES,
)

SRC = "solitaire_asl data"


@dataclass(frozen=True, slots=True)
class Drm:
    """[drm]: the shift DRMs of O'Leary 2.5 (``previous_counts``: "all" shifts of the phase
    count toward the +1, or only those of the same bookkeeping group, "operation")."""

    previous_shift: int
    enemy_los: int
    both_hip: int
    lv_hindrance: int
    night: int
    emplaced_gun: int
    previous_counts: Literal["operation", "all"]
    enemy_there_sees: bool = True  # reading A38: enemy units in a location see it


@dataclass(frozen=True, slots=True)
class SizeDrm:
    """[drm.size]: the starred size DRMs (O'Leary 2.5), by counter size."""

    infantry: int
    fortification: int
    gun: Mapping[str, int]
    vehicle: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class Allotting:
    """[allotment]: the dummy counters a side is allotted (O'Leary 3.1.1, 4.1, 4.6.1)."""

    dummy_hip_extra: int
    panji_hexsides_per_dummy: int
    panji_rounding: Literal["down", "up"]
    fortification_with_dummy_hip_counts: bool
    ap_factors_per_dummy_minefield: int
    ap_rounding: Literal["down", "up"]
    at_factors_per_dummy_minefield: int


@dataclass(frozen=True, slots=True)
class Consistency:
    """[consistency]: what a shift may not leave (O'Leary 2.4)."""

    vehicle_needs_concealment_terrain_in_los: bool


@dataclass(frozen=True, slots=True)
class Minefields:
    """[minefield]: minefield exchanges (O'Leary 4.6)."""

    entered_location_in_los: bool
    same_kind_only: bool
    remove_revealed_dummy: bool
    dummies_enter: bool = False


@dataclass(frozen=True, slots=True)
class Scatter:
    """[scatter]: the direction and distance dice of a scatter (6.1, 7.1)."""

    directions: Mapping[int, str]
    distance_die: str
    direction_die: str


@dataclass(frozen=True, slots=True)
class Starts:
    """[flow]: what ends the start of a phase (O'Leary 2.3)."""

    minefield_entry_ends_start: bool
    firing_ends_start: bool
    ti_binds: bool = True
    cloaked_start: Literal["unit", "side"] = "unit"  # 5.1, reading A37
    moving_loses_boresight_location: bool = True  # 6.1 with 2.3, reading A42
    dummy_move_ends_start: bool = True  # 2.3, reading A48


@dataclass(frozen=True, slots=True)
class Config:
    """Everything the procedures read from the rule data (house rules included)."""

    drm: Drm
    size: SizeDrm
    operations: Mapping[str, str]  # an operation -> its bookkeeping group (3.3.4)
    hip_capacity: Mapping[str, float]  # a counter kind -> its HIP squad capacity (3.1.1)
    allotment: Allotting
    fortification_tem: Mapping[str, int]
    fortification_ca: Mapping[str, bool]  # a kind -> it has a CA (4.4, reading A39)
    consistency: Consistency
    minefield: Minefields
    scatter: Scatter
    flow: Starts
    fire_phases: Mapping[str, str]  # a phase -> who fires in it: phasing, other, both (6.1)
    terrain_tem: Mapping[str, int]
    #: a terrain kind -> it is Concealment Terrain (2.4, reading A41); unlisted kinds: stated
    terrain_concealment: Mapping[str, bool]
    max_turns: int
    tables: Mapping[str, Table]


def _table(data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    return table(data, name, SRC)


def _need(t: Mapping[str, Any], key: str, kind: Any, where: str) -> Any:
    if key not in t:
        raise DataError(SRC, f"{where} needs {key!r}")
    return value(t[key], kind, f"{where} {key}", SRC)


def _each(
    t: Mapping[str, Any], kind: Any, where: str, keys: tuple[str, ...] = ()
) -> dict[str, Any]:
    """A table of numbers (each of ``keys`` required)."""
    for k in keys:
        if k not in t:
            raise DataError(SRC, f"{where} has no {k!r}")
    return {str(k): value(v, kind, f"{where} {k}", SRC) for k, v in t.items()}


def _fire_phases(t: Mapping[str, Any]) -> dict[str, str]:
    """[fire_phases]: who fires in each phase (O'Leary 6.1 "each time that unit fires")."""
    out = {}
    for k, v in t.items():
        if k not in PHASES:
            raise DataError(SRC, f"[fire_phases] {k!r} is not a phase ({', '.join(PHASES)})")
        if v not in ("phasing", "other", "both"):
            raise DataError(SRC, f"[fire_phases] {k} must be phasing, other or both, not {v!r}")
        out[str(k)] = str(v)
    return out


def make_config(data: Mapping[str, Any], source: str = "rules data") -> Config:
    """Read the rule data (shipped + house rules) once; one line naming what is wrong."""
    max_turns = battle_end_turns(data, source)
    size = _table(_table(data, "drm"), "size")
    sc = _table(data, "scatter")
    try:
        directions = {int(k): str(v) for k, v in _table(sc, "directions").items()}
    except ValueError:
        raise DataError(SRC, "[scatter] directions are numbered 1-6") from None
    return Config(
        drm=section(Drm, data, "drm", SRC),
        size=SizeDrm(
            _need(size, "infantry", int, "[drm.size]"),
            _need(size, "fortification", int, "[drm.size]"),
            _each(_table(size, "gun"), int, "[drm.size] gun", GUN_SIZES),
            _each(_table(size, "vehicle"), int, "[drm.size] vehicle", VEHICLE_SIZES),
        ),
        operations={str(k): str(v) for k, v in _table(data, "operations").items()},
        hip_capacity=_each(_table(data, "hip_capacity"), float, "[hip_capacity]", COUNTER_KINDS),
        allotment=section(Allotting, data, "allotment", SRC),
        fortification_tem=_each(
            _table(data, "fortification_tem"), int, "[fortification_tem]", FORTIFICATION_KINDS
        ),
        fortification_ca=_each(
            _table(data, "fortification_ca"), bool, "[fortification_ca]", FORTIFICATION_KINDS
        ),
        consistency=section(Consistency, data, "consistency", SRC),
        minefield=section(Minefields, data, "minefield", SRC),
        scatter=Scatter(
            directions,
            _need(sc, "distance_die", str, "[scatter]"),
            _need(sc, "direction_die", str, "[scatter]"),
        ),
        flow=section(Starts, data, "flow", SRC),
        fire_phases=_fire_phases(_table(data, "fire_phases")),
        terrain_tem=_each(_table(data, "terrain_tem"), int, "[terrain_tem]"),
        terrain_concealment=_each(
            _table(data, "terrain_concealment"), bool, "[terrain_concealment]"
        ),
        max_turns=max_turns,
        tables=_rolled(tables_from_data(data, SRC)),
    )


#: the tables the referee rolls on with their own dice (2.5's shift DR, 4.6.3's minefield DR,
#: 6.1's bore sight die, 7.1's pre-registration die)
ROLLED = ("shift", "minefield_shift", "boresight", "prereg")


def _rolled(tables: dict[str, Table]) -> dict[str, Table]:
    """The tables, each rolled one's dice checked (one line naming it)."""
    for name in ROLLED:
        if name not in tables:
            raise DataError(SRC, f"no [tables.{name}]")
        rolled(tables[name], SRC)
    return tables


def _flow(flow: Starts) -> Starts:
    """[flow], its words checked: ``cloaked_start`` is "unit" or "side" (5.1, reading A37)."""
    if flow.cloaked_start not in ("unit", "side"):
        raise DataError(
            SRC, f"[flow] cloaked_start is 'unit' or 'side', not {flow.cloaked_start!r}"
        )
    return flow
