"""Typed requests of the 2 by 2 procedures (the referee protocol): one frozen dataclass per
procedure, each field with its help text and units. A stated fact left out (``None``) is
measured on the tracked table, or assumed as the procedure says.

Distances in the rules are base units [n] ([1] = 3/4 inch, 2 by 2, Scale); coordinates on the
table are millimetres, facing compass degrees (0 = north, up the table).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from vedette.rules.fields import arg

Point = tuple[float, float]


# -- set-up and the turn ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SetupRoll:
    procedure_name: ClassVar[str] = "setup_roll"


@dataclass(frozen=True, slots=True)
class Deploy:
    procedure_name: ClassVar[str] = "deploy"
    unit: str = arg("unit id", positional=True)
    x: float = arg("centre, across the table", units="mm")
    y: float = arg("centre, up the table", units="mm")
    facing: float | None = arg("facing (default: toward the enemy edge)", units="deg", default=None)


@dataclass(frozen=True, slots=True)
class ChooseRP:
    procedure_name: ClassVar[str] = "rp"
    x: float = arg("the point on a table edge", units="mm")
    y: float = arg("the point on a table edge", units="mm")
    units: tuple[str, ...] = arg("unit ids in order of appearance", default=())
    id: str | None = arg("name of the RP", default=None)


@dataclass(frozen=True, slots=True)
class Next:
    procedure_name: ClassVar[str] = "next"


# -- movement --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Move:
    """A move: measured along a path (tracked), or its facts stated (stated)."""

    procedure_name: ClassVar[str] = "move"
    unit: str = arg("unit id", positional=True)
    path: tuple[Point, ...] | None = arg("centre positions [[x,y],...]", units="mm", default=None)
    to: Point | None = arg("end point [x,y] (a straight move)", units="mm", default=None)
    facing: float | None = arg("final facing (0 = north)", units="deg", default=None)
    distance: str | None = arg(
        "stated: length of the move (tracked: straight ahead); [n], or 2in, 50mm",
        units="n",
        default=None,
    )
    road: bool | None = arg("stated: whole move on road", default=None)
    bridge: bool | None = arg("stated: crosses a bridge", default=None)
    streams: int | None = arg("stated: streams crossed", default=None)
    town: str | None = arg("stated: distance moved inside a town", units="n", default=None)
    rough: str | None = arg("stated: distance moved in woods/rough", units="n", default=None)
    contact: tuple[str, ...] | None = arg("stated: enemy unit(s) contacted", default=None)
    through_town: bool | None = arg(
        "stated: passes through a town (default: town > 0)", default=None
    )
    bridge_length: str | None = arg(
        "stated: distance on the bridge (bridge_mode=distance)", units="n", default=None
    )
    straight: bool | None = arg("stated: the last [2] ran straight ahead", default=None)


@dataclass(frozen=True, slots=True)
class Formation:
    procedure_name: ClassVar[str] = "formation"
    unit: str = arg("unit id", positional=True)
    formation: Literal["line", "attack_column", "road_column"] | None = arg(
        "the new formation", default=None
    )
    screen: bool | None = arg("skirmisher screen out (true) or in (false)", default=None)


@dataclass(frozen=True, slots=True)
class Face:
    procedure_name: ClassVar[str] = "face"
    unit: str = arg("the charged infantry unit", positional=True)
    toward: str = arg("the charging unit", positional=True)


@dataclass(frozen=True, slots=True)
class Countercharge:
    procedure_name: ClassVar[str] = "countercharge"
    unit: str = arg("the cavalry unit", positional=True)
    target: str = arg("the enemy that moved within 1/2 its move", positional=True)
    path: tuple[Point, ...] | None = arg("centre positions [[x,y],...]", units="mm", default=None)
    to: Point | None = arg("end point [x,y]", units="mm", default=None)
    facing: float | None = arg("final facing", units="deg", default=None)
    distance: str | None = arg("stated: length of the counter-charge", units="n", default=None)
    within: bool | None = arg("stated: the target came within 1/2 move", default=None)
    town: str | None = arg("stated: distance moved inside a town", units="n", default=None)
    rough: str | None = arg("stated: distance moved in woods/rough", units="n", default=None)
    streams: int | None = arg("stated: streams crossed", default=None)


@dataclass(frozen=True, slots=True)
class Place:
    procedure_name: ClassVar[str] = "place"
    unit: str = arg("unit id", positional=True)
    x: float | None = arg("centre", units="mm", default=None)
    y: float | None = arg("centre", units="mm", default=None)
    facing: float | None = arg("facing", units="deg", default=None)
    clear: bool = arg("drop the position (refused: a game is tracked or stated)", default=False)


@dataclass(frozen=True, slots=True)
class Reinforce:
    procedure_name: ClassVar[str] = "reinforce"
    rp: str = arg("the reinforcement point", positional=True)
    x: float | None = arg("where the arriving unit stands (tracked)", units="mm", default=None)
    y: float | None = arg("where the arriving unit stands (tracked)", units="mm", default=None)
    facing: float | None = arg("its facing (default: onto the table)", units="deg", default=None)


# -- rallying, shooting, melee ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Rally:
    procedure_name: ClassVar[str] = "rally"
    unit: str = arg("unit id", positional=True)
    effect: Literal["disrupted", "pinned"] | None = arg(
        "the marker to remove (default: disrupted first)", default=None
    )
    enemy_contact: bool | None = arg("stated: an enemy in contact", default=None)
    enemy_near: bool | None = arg("stated: an enemy within [2]", default=None)
    hq_contact: bool | None = arg("stated: an HQ in base contact", default=None)
    in_command: bool | None = arg(
        "stated: a Division HQ within [4] or the Corps HQ within [8]", default=None
    )


@dataclass(frozen=True, slots=True)
class Shoot:
    procedure_name: ClassVar[str] = "shoot"
    firer: str = arg("the unit shooting", positional=True)
    target: str = arg("the enemy shot at", positional=True)
    range: str | None = arg("stated: edge to edge; [n], or 2in, 50mm", units="n", default=None)
    band: Literal["musket", "skirmish", "canister", "short", "long"] | None = arg(
        "stated: the range band", default=None
    )
    enfilade: bool | None = arg("stated: fired on the target's flank or rear", default=None)
    cover: Literal["none", "wall", "area", "both"] | None = arg(
        "stated: the target's cover", default=None
    )
    behind_wall: bool | None = arg("stated: target behind a wall or hedge", default=None)
    in_cover: bool | None = arg("stated: target in woods/rough or town", default=None)
    hq_contact: bool | None = arg("stated: an HQ in base contact with the firer", default=None)
    in_open: bool | None = arg("stated: the Light Infantry target is in the open", default=None)
    cavalry_near: bool | None = arg(
        "stated: enemy cavalry within 1/2 move of the Light Infantry target", default=None
    )
    in_arc: bool | None = arg("stated: the target is in the firer's front arc", default=None)
    contagion: tuple[str, ...] | None = arg("stated: ** units within [3] of a rout", default=None)


@dataclass(frozen=True, slots=True)
class Melee:
    procedure_name: ClassVar[str] = "melee"
    attacker: str = arg("the attacking unit", positional=True)
    defender: str = arg("the defending unit", positional=True)
    a_support: int | None = arg("stated: attacker's extra units beyond 1", default=None)
    b_support: int | None = arg("stated: defender's extra units beyond 1", default=None)
    a_town: bool | None = arg("stated: attacker in a town", default=None)
    b_town: bool | None = arg("stated: defender in a town", default=None)
    a_woods: bool | None = arg("stated: attacker in woods/rough", default=None)
    b_woods: bool | None = arg("stated: defender in woods/rough", default=None)
    a_higher: bool | None = arg("stated: attacker higher than its opponent", default=None)
    b_higher: bool | None = arg("stated: defender higher than its opponent", default=None)
    a_hq_contact: bool | None = arg("stated: an HQ in contact with the attacker", default=None)
    b_hq_contact: bool | None = arg("stated: an HQ in contact with the defender", default=None)
    contact: bool | None = arg("stated: the two are in base contact", default=None)
    contagion: tuple[str, ...] | None = arg("stated: ** units within [3] of a rout", default=None)


@dataclass(frozen=True, slots=True)
class FollowUp:
    procedure_name: ClassVar[str] = "follow_up"
    unit: str = arg("the melee winner", positional=True)
    x: float | None = arg("where it ends (default: the ground the loser held)", default=None)
    y: float | None = arg("where it ends", units="mm", default=None)
    facing: float | None = arg("its facing (default: kept)", units="deg", default=None)
    decline: bool = arg("decline a voluntary follow-up", default=False)
    contact: tuple[str, ...] | None = arg("stated: enemy units it contacts", default=None)


@dataclass(frozen=True, slots=True)
class Rout:
    procedure_name: ClassVar[str] = "rout"
    unit: str = arg("the *** unit", positional=True)
    contagion: tuple[str, ...] | None = arg("stated: ** units within [3] of a rout", default=None)


# -- queries ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Facts:
    procedure_name: ClassVar[str] = "facts"
    unit: str = arg("unit id", positional=True)
    target: str | None = arg("another unit", default=None)


@dataclass(frozen=True, slots=True)
class Status:
    procedure_name: ClassVar[str] = "status"
