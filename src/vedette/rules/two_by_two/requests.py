"""Typed requests of the 2 by 2 procedures (the referee protocol): one frozen dataclass per
procedure, each field with its help text and units. A stated fact left out (``None``) is
measured on the tracked table, or assumed as the procedure says.

Distances in the rules are base units [n] ([1] = 3/4 inch, 2 by 2, Scale); coordinates on the
table are millimetres, facing compass degrees (0 = north, up the table).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from vedette.referee import arg, procedure

Point = tuple[float, float]


# -- set-up and the turn ---------------------------------------------------------------------
@procedure("setup_roll", rule="2 by 2, Game Setup")
@dataclass(frozen=True, slots=True)
class SetupRoll:
    """each side rolls 1d6: high score attacks (ties: +12 AP each, reroll)"""


@procedure("deploy", rule="2 by 2, Game Setup")
@dataclass(frozen=True, slots=True)
class Deploy:
    """set-up placement within [8] of the base edge, not within [4] of a side"""

    unit: str = arg("unit id", positional=True)
    x: float = arg("centre, across the table", units="mm")
    y: float = arg("centre, up the table", units="mm")
    facing: float | None = arg("facing (default: toward the enemy edge)", units="deg", default=None)


@procedure("rp", rule="2 by 2, Game Setup")
@dataclass(frozen=True, slots=True)
class ChooseRP:
    """pick a reinforcement point on an edge and its units in order"""

    x: float = arg("the point on a table edge", units="mm")
    y: float = arg("the point on a table edge", units="mm")
    units: tuple[str, ...] = arg("unit ids in order of appearance", default=())
    id: str | None = arg("name of the RP", default=None)


@procedure("next", rule="2 by 2, Sequence of play")
@dataclass(frozen=True, slots=True)
class Next:
    """end the current phase / set-up step"""


@procedure("next_phase", rule="2 by 2, Sequence of play")
@dataclass(frozen=True, slots=True)
class NextPhase(Next):
    """the same as 'next'"""


# -- movement --------------------------------------------------------------------------------
@procedure("move", rule="2 by 2, Movement Modifiers")
@dataclass(frozen=True, slots=True)
class Move:
    """move a unit: a path in mm (tracked) or the stated facts (stated)"""

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


@procedure("check_move", rule="2 by 2, Movement Modifiers", query=True)
@dataclass(frozen=True, slots=True)
class CheckMove(Move):
    """is this move legal and what does it cost? (query: the judgement of move)"""


@procedure("formation", rule="2 by 2, Melee / Resolving shooting")
@dataclass(frozen=True, slots=True)
class Formation:
    """change formation and/or skirmisher screen"""

    unit: str = arg("unit id", positional=True)
    formation: Literal["line", "attack_column", "road_column"] | None = arg(
        "the new formation", default=None
    )
    screen: bool | None = arg("skirmisher screen out (true) or in (false)", default=None)


@procedure("face", rule="2 by 2, Moving to contact")
@dataclass(frozen=True, slots=True)
class Face:
    """charged infantry turns to face its charger"""

    unit: str = arg("the charged infantry unit", positional=True)
    toward: str = arg("the charging unit", positional=True)


@procedure("countercharge", rule="2 by 2, Moving to contact")
@dataclass(frozen=True, slots=True)
class Countercharge:
    """cavalry counter-charges an enemy that moved within 1/2 its move"""

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
    road: bool | None = arg("stated: the whole counter-charge on road", default=None)
    bridge: bool | None = arg("stated: the counter-charge crosses a bridge", default=None)
    through_town: bool | None = arg(
        "stated: passes through a town (default: town > 0)", default=None
    )
    bridge_length: str | None = arg(
        "stated: distance on the bridge (bridge_mode=distance)", units="n", default=None
    )


@procedure("place", rule="2 by 2, Reinforcements")
@dataclass(frozen=True, slots=True)
class Place:
    """record where a unit stands (a correction: table, bases, RP edge checked)"""

    unit: str = arg("unit id", positional=True)
    x: float | None = arg("centre", units="mm", default=None)
    y: float | None = arg("centre", units="mm", default=None)
    facing: float | None = arg("facing", units="deg", default=None)
    clear: bool = arg("drop the position (refused: a game is tracked or stated)", default=False)


@procedure("reinforce", rule="2 by 2, Reinforcements")
@dataclass(frozen=True, slots=True)
class Reinforce:
    """roll 1d6 for the next reinforcement at an RP (rear 3+, flank 4+)"""

    rp: str = arg("the reinforcement point", positional=True)
    x: float | None = arg("where the arriving unit stands (tracked)", units="mm", default=None)
    y: float | None = arg("where the arriving unit stands (tracked)", units="mm", default=None)
    facing: float | None = arg("its facing (default: onto the table)", units="deg", default=None)


# -- rallying, shooting, melee ---------------------------------------------------------------
@procedure("rally", rule="2 by 2, Rallying")
@dataclass(frozen=True, slots=True)
class Rally:
    """try to rally a pinned or disrupted unit (5+)"""

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


@procedure("shoot", rule="2 by 2, Resolving shooting")
@dataclass(frozen=True, slots=True)
class Shoot:
    """one unit shoots at an enemy"""

    firer: str = arg("the unit shooting", positional=True)
    target: str = arg("the enemy shot at", positional=True)
    range: str | None = arg("stated: edge to edge; [n], or 2in, 50mm", units="n", default=None)
    band: Literal["musket", "skirmish", "canister", "short", "long"] | None = arg(
        "stated: the range band (artillery: canister, the text's short range, +1; short, the"
        " middle band, +0; long -1: reading 53)",
        default=None,
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


@procedure("melee", rule="2 by 2, Melee")
@dataclass(frozen=True, slots=True)
class Melee:
    """resolve a melee (1d6 each, difference, draws rerolled)"""

    attacker: str = arg("the attacking unit", positional=True)
    defender: str = arg("the defending unit", positional=True)
    a_support: int | None = arg("stated: attacker's extra units beyond 1", default=None)
    b_support: int | None = arg("stated: defender's extra units beyond 1", default=None)
    a_town: bool | None = arg("stated: attacker in a town", default=None)
    b_town: bool | None = arg("stated: defender in a town", default=None)
    a_woods: bool | None = arg("stated: attacker in woods/rough", default=None)
    b_woods: bool | None = arg("stated: defender in woods/rough", default=None)
    a_ground: Literal["neither", "town", "woods"] | None = arg(
        "stated: attacker in a town, in woods/rough or neither (a_town / a_woods at once)",
        default=None,
    )
    b_ground: Literal["neither", "town", "woods"] | None = arg(
        "stated: defender in a town, in woods/rough or neither (b_town / b_woods at once)",
        default=None,
    )
    a_higher: bool | None = arg("stated: attacker higher than its opponent", default=None)
    b_higher: bool | None = arg("stated: defender higher than its opponent", default=None)
    higher: Literal["neither", "attacker", "defender"] | None = arg(
        "stated: which of the two stands higher than the other (a_higher / b_higher at once)",
        default=None,
    )
    a_hq_contact: bool | None = arg("stated: an HQ in contact with the attacker", default=None)
    b_hq_contact: bool | None = arg("stated: an HQ in contact with the defender", default=None)
    contact: bool | None = arg("stated: the two are in base contact", default=None)
    contagion: tuple[str, ...] | None = arg("stated: ** units within [3] of a rout", default=None)


@procedure("check_melee", rule="2 by 2, Melee", query=True)
@dataclass(frozen=True, slots=True)
class CheckMelee(Melee):
    """both sides' melee modifiers and the odds (query)"""


@procedure("follow_up", rule="2 by 2, Melee")
@dataclass(frozen=True, slots=True)
class FollowUp:
    """melee winner follows up (or decline=true if voluntary)"""

    unit: str = arg("the melee winner", positional=True)
    x: float | None = arg("where it ends (default: the ground the loser held)", default=None)
    y: float | None = arg("where it ends", units="mm", default=None)
    facing: float | None = arg("its facing (default: kept)", units="deg", default=None)
    decline: bool = arg("decline a voluntary follow-up", default=False)
    contact: tuple[str, ...] | None = arg("stated: enemy units it contacts", default=None)


@procedure("rout", rule="2 by 2, Unit Summary")
@dataclass(frozen=True, slots=True)
class Rout:
    """a *** unit routs voluntarily (1d6: 1-2 destroyed, else flees disrupted)"""

    unit: str = arg("the *** unit", positional=True)
    contagion: tuple[str, ...] | None = arg("stated: ** units within [3] of a rout", default=None)


# -- queries ---------------------------------------------------------------------------------
@procedure("facts", query=True)
@dataclass(frozen=True, slots=True)
class Facts:
    """the geometric facts between two units (query)"""

    unit: str = arg("unit id", positional=True)
    target: str | None = arg("another unit", default=None)


@procedure("status", query=True)
@dataclass(frozen=True, slots=True)
class Status:
    """the game as JSON (query)"""


# -- moves relative to the unit (played by relative.py) ---------------------------------------
@procedure("advance", rule="2 by 2, Movement Modifiers")
@dataclass(frozen=True, slots=True)
class Advance:
    """move straight ahead: advance UNIT [n] (or 2in, 50mm)"""

    unit: str = arg("the unit", positional=True)
    distance: str = arg("how far: [n], or with a unit (2in, 50mm)", units="n", positional=True)


@procedure("retire", rule="2 by 2, Movement Modifiers")
@dataclass(frozen=True, slots=True)
class Retire:
    """move straight back, keeping the facing: retire UNIT [n]"""

    unit: str = arg("the unit", positional=True)
    distance: str = arg("how far: [n], or with a unit (2in, 50mm)", units="n", positional=True)


@procedure("wheel", rule="2 by 2, Movement Modifiers")
@dataclass(frozen=True, slots=True)
class Wheel:
    """wheel on a front corner: wheel UNIT DEGREES left|right"""

    unit: str = arg("the unit", positional=True)
    angle: float = arg("degrees", units="deg", positional=True)
    direction: Literal["left", "right"] = arg("which way", positional=True)


@procedure("turn", rule="2 by 2, Movement Modifiers")
@dataclass(frozen=True, slots=True)
class Turn:
    """turn about the centre: turn UNIT face=ENEMY, or angle=90 direction=left"""

    unit: str = arg("the unit", positional=True)
    face: str = arg("turn to face this unit", default="")
    angle: float = arg("or: degrees to turn", units="deg", default=0.0)
    direction: Literal["left", "right", "about"] = arg("which way (about: 180)", default="right")


@procedure("charge", rule="2 by 2, Moving to contact")
@dataclass(frozen=True, slots=True)
class Charge:
    """charge UNIT into ENEMY: straight ahead into base contact (last [2] straight)"""

    unit: str = arg("the charging unit", positional=True)
    into: str = arg("the enemy unit charged", positional=True)
    distance: str = arg("stated game only: the length of the charge [n]", units="n", default="")
    straight: bool = arg("stated game only: the last [2] ran straight ahead", default=True)
    road: bool | None = arg("stated game only: the whole charge on road", default=None)
    bridge: bool | None = arg("stated game only: the charge crosses a bridge", default=None)
    streams: int | None = arg("stated game only: streams crossed", default=None)
    town: str | None = arg("stated game only: distance inside a town", units="n", default=None)
    rough: str | None = arg("stated game only: distance in woods/rough", units="n", default=None)
    through_town: bool | None = arg(
        "stated game only: passes through a town (default: town > 0)", default=None
    )
    bridge_length: str | None = arg(
        "stated game only: distance on the bridge (bridge_mode=distance)", units="n", default=None
    )
