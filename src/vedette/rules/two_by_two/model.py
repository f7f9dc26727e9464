"""The 2 by 2 Napoleonics game state: unit types, units, sides, reinforcement points, phases.

Section names of the text are cited as rules: "2 by 2, Sequence of play", "2 by 2, Unit
Summary", "2 by 2, Movement Modifiers", "2 by 2, Moving to contact", "2 by 2, Reinforcements",
"2 by 2, Rallying", "2 by 2, Resolving shooting", "2 by 2, Melee", "2 by 2, Game Setup",
"2 by 2, Scale". Distances in the rules are base units ``[n]`` (``[1]`` = 3/4 inch); positions on
the table are millimetres (:mod:`vedette.geometry.tabletop`).
"""

from __future__ import annotations

import bisect
import functools
import math
import operator
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from vedette.dice.notation import parse_expression
from vedette.dice.tables import Table, tables_from_data
from vedette.errors import BadRequest, DataError, RuleViolation
from vedette.geometry.tabletop import Body, Feature, Footprint, TableTop, Vec
from vedette.rules.config import rolled, section
from vedette.rules.evolve import evolved

R_SEQ = "2 by 2, Sequence of play"
R_UNITS = "2 by 2, Unit Summary"
R_MOVE = "2 by 2, Movement Modifiers"
R_CONTACT = "2 by 2, Moving to contact"
R_REINF = "2 by 2, Reinforcements"
R_RALLY = "2 by 2, Rallying"
R_SHOOT = "2 by 2, Resolving shooting"
R_MELEE = "2 by 2, Melee"
R_SETUP = "2 by 2, Game Setup"
R_SCALE = "2 by 2, Scale"
R_PLAY = "2 by 2 on vedette, ways to play"
PLAYS = ("tracked", "stated")

ARMS = ("infantry", "cavalry", "artillery", "hq")
FORMATIONS = ("line", "attack_column", "road_column")
TERRAIN_KINDS = (
    "road",
    "bridge",
    "stream",
    "woods",
    "rough",
    "hedge",
    "wall",
    "copse",
    "town",
    "hill",
)
EDGES = ("south", "north", "west", "east")
OPPOSITE = {"south": "north", "north": "south", "west": "east", "east": "west"}


@dataclass(frozen=True, slots=True)
class UnitType:
    """A line of the Unit Summary (2 by 2, Unit Summary): move and ranges in [n], AP cost."""

    key: str
    name: str
    arm: str
    move: float
    ranges: tuple[float, ...]
    range_names: tuple[str, ...]
    ap: int
    star_range: bool = False  # * infantry range [2] only with a skirmisher screen
    rout_contagion: bool = False  # ** routs whenever any rout within [3]
    voluntary_rout: bool = False  # *** may voluntarily rout
    elite: bool = False  # Rallying: Guards/Grenadiers/Light
    guards: bool = False  # Melee: Unit is Guards
    light_inf: bool = False  # Shooting: Target is Light Infantry
    woods_half: bool = False  # Movement: woods/rough at 1/2 rate
    militia: bool = False  # Rallying: Militia
    cav_class: str = ""  # heavy | light | lancer | cossack
    hq_level: str = ""  # corps | division

    @property
    def is_infantry(self) -> bool:
        return self.arm == "infantry"

    @property
    def is_cavalry(self) -> bool:
        return self.arm == "cavalry"

    @property
    def is_artillery(self) -> bool:
        return self.arm == "artillery"

    @property
    def is_hq(self) -> bool:
        return self.arm == "hq"

    @property
    def can_shoot(self) -> bool:
        return bool(self.ranges)


def _unit_type(key: str, d: Mapping[str, Any], source: str) -> UnitType:
    try:
        arm = str(d["arm"])
        if arm not in ARMS:
            raise DataError(source, f"unit type {key!r}: arm must be one of {', '.join(ARMS)}")
        ranges = tuple(float(x) for x in d.get("ranges", []))
        names = tuple(str(x) for x in d.get("range_names", []))
        if len(ranges) != len(names):
            raise DataError(source, f"unit type {key!r}: ranges and range_names differ in length")
        if list(ranges) != sorted(ranges):
            raise DataError(source, f"unit type {key!r}: ranges must be nearest first")
        return UnitType(
            key=key,
            name=str(d.get("name", key)),
            arm=arm,
            move=float(d["move"]),
            ranges=ranges,
            range_names=names,
            ap=int(d["ap"]),
            star_range=bool(d.get("star_range", False)),
            rout_contagion=bool(d.get("rout_contagion", False)),
            voluntary_rout=bool(d.get("voluntary_rout", False)),
            elite=bool(d.get("elite", False)),
            guards=bool(d.get("guards", False)),
            light_inf=bool(d.get("light_inf", False)),
            woods_half=bool(d.get("woods_half", False)),
            militia=bool(d.get("militia", False)),
            cav_class=str(d.get("cav_class", "")),
            hq_level=str(d.get("hq_level", "")),
        )
    except (KeyError, TypeError, ValueError) as e:
        raise DataError(source, f"unit type {key!r}: bad or missing field {e}") from None


@dataclass(frozen=True, slots=True)
class Scale:
    """[scale] (2 by 2, Scale): millimetres."""

    base_unit_mm: float
    base_width_mm: float
    base_depth_mm: float
    unit_width_mm: float
    unit_depth_mm: float
    contact_tolerance_mm: float


@dataclass(frozen=True, slots=True)
class Geometry:
    """[geometry]: arcs (degrees), the snap of a stated position (mm), cover ([n])."""

    front_half_angle: float
    rear_half_angle: float
    fire_half_angle: float
    straight_tolerance_deg: float
    snap_mm: float
    cover_distance: float


@dataclass(frozen=True, slots=True)
class Movement:
    """[movement] (2 by 2, Movement Modifiers; Moving to contact): [n] and rates."""

    road_bonus: float
    stream_cost: float
    town_rate: float
    rough_rate: float
    bridge_mode: Literal["whole_move", "distance"]
    bridge_rate: float
    straight_ahead: float
    countercharge_fraction: float
    rout_move_fraction: float
    repulse_distance: float
    pass_through_friends: bool

    @property
    def countercharge_part(self) -> str:
        """The counter-charge reach's part of a move as the text words it ("1/2": "within a ½
        move"), a house rule's as a number ("0.75")."""
        f = self.countercharge_fraction
        return "1/2" if f == 0.5 else f"{f:g}"


@dataclass(frozen=True, slots=True)
class Reinforcements:
    """[reinforcements] (2 by 2, Reinforcements)."""

    rolls_per_turn: int
    entry_radius: float


@dataclass(frozen=True, slots=True)
class Rally:
    """[rally] (2 by 2, Rallying): its modifiers and the HQ ranges ([n])."""

    elite: int
    hq_contact: int
    militia: int
    enemy_within: float
    enemy_within_value: int
    enemy_within_rule: Literal["only_guards_or_hq", "only_guards_or_hq_contact", "all"]
    division_range: float
    corps_range: float
    hq_rule: Literal["either", "both", "off"]
    disrupted: int
    hq_self: int


@dataclass(frozen=True, slots=True)
class Shooting:
    """[shooting] (2 by 2, Resolving shooting): its modifiers."""

    artillery_long: int
    artillery_canister: int
    cover_wall_hedge: int
    cover_woods_town: int
    screened: int
    enfilade: int
    light_infantry: int
    cavalry: int
    disrupted: int
    hq_contact: int
    first_volley: int
    musket_full_effect: float


@dataclass(frozen=True, slots=True)
class Melee:
    """[melee] (2 by 2, Melee): its modifiers."""

    guards: int
    light_vs_cavalry: int
    lancers_vs_disrupted: int
    heavy_cavalry: int
    cavalry_in_town: int
    enemy_disrupted: int
    overlap_per_unit: int
    column_of_attack: int
    road_column: int
    cavalry_vs_ordered_infantry: int
    hq_contact: int
    higher: int
    artillery_or_hq: int
    attacker_subsequent: int


@dataclass(frozen=True, slots=True)
class Rout:
    """[rout] (2 by 2, Resolving shooting / Melee (Routs))."""

    contagion_radius: float
    contagion_sides: Literal["friendly", "any"]
    voluntary_rolls: bool


@dataclass(frozen=True, slots=True)
class Victory:
    """[victory] (ASSUMPTION: the text gives no victory condition); a scenario may replace it."""

    threshold_ap: int
    max_turns: int


@dataclass(frozen=True, slots=True)
class Setup:
    """[setup] (2 by 2, Game Setup)."""

    ap_each: int
    extra_ap_per_tie: int
    deploy_depth: float
    side_margin: float
    rp_clearance: float
    rp_clearance_on: Literal["flank", "both"]


@dataclass(frozen=True)
class Rules:
    """The numbers of the rules (shipped data merged with house rules), read once per game
    (issue 28: every value typed, its default written once, in data/rules.toml)."""

    unit_types: Mapping[str, UnitType]
    tables: Mapping[str, Table]
    scale: Scale
    geometry: Geometry
    movement: Movement
    reinforcements: Reinforcements
    rally: Rally
    shooting: Shooting
    melee: Melee
    rout: Rout
    victory: Victory
    setup: Setup

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Rules:
        src = "two_by_two data"
        raw = data.get("units", {})
        if not isinstance(raw, Mapping) or not raw:
            raise DataError(src, "no [units.*] unit types")
        types = {k: _unit_type(k, v, src) for k, v in raw.items()}
        tables = tables_from_data(data, src)
        for need in (
            "shooting",
            "shooting_capped",
            "rout",
            "rally",
            "melee",
            "reinforcement_rear",
            "reinforcement_flank",
            "setup",
        ):
            if need not in tables:
                raise DataError(src, f"missing table {need!r}")
            if need != "melee":  # (read on the signed difference of its own dice: no dice)
                rolled(tables[need], src, opposed=need == "setup")
        return cls(
            types,
            tables,
            scale=section(Scale, data, "scale", src),
            geometry=section(Geometry, data, "geometry", src),
            movement=section(Movement, data, "movement", src),
            reinforcements=section(Reinforcements, data, "reinforcements", src),
            rally=section(Rally, data, "rally", src),
            shooting=section(Shooting, data, "shooting", src),
            melee=section(Melee, data, "melee", src),
            rout=section(Rout, data, "rout", src),
            victory=section(Victory, data, "victory", src),
            setup=section(Setup, data, "setup", src),
        )

    @functools.cached_property
    def setup_die(self) -> str:
        """Each side's die of the set-up roll, as the to-do line says it (``1d6``: one side of
        the table's ``1d6 vs 1d6``)."""
        return re.split(r"\s+vs\s+", self.tables["setup"].dice, flags=re.IGNORECASE)[0].strip()

    @functools.cached_property
    def rout_words(self) -> str:
        """The rout roll as a voluntary rout's to-do line says it (``1d6: 1-2 destroyed``: the
        rout table's dice and its ``destroyed`` row, within the totals the dice can show)."""
        t = self.tables["rout"]
        e = parse_expression(t.dice)
        ends = [(min(x.die.faces), max(x.die.faces))[:: x.sign] for x in e.terms]
        low = e.constant + sum(x.count * x.sign * f[0] for x, f in zip(e.terms, ends, strict=True))
        high = e.constant + sum(x.count * x.sign * f[1] for x, f in zip(e.terms, ends, strict=True))
        row = next((r for r in t.rows if r.key == "destroyed"), None)
        if row is None or max(row.lo, low) > min(row.hi, high):
            return t.dice
        a, b = max(row.lo, low), min(row.hi, high)
        return f"{t.dice}: {a if a == b else f'{a}-{b}'} destroyed"

    @property
    def base_mm(self) -> float:
        """[1] in millimetres (2 by 2, Scale: [1] = 3/4 inch)."""
        return self.scale.base_unit_mm

    @functools.cached_property
    def footprint(self) -> Footprint:
        return Footprint(self.scale.unit_width_mm, self.scale.unit_depth_mm)

    @property
    def contact_mm(self) -> float:
        return self.scale.contact_tolerance_mm

    def n(self, mm: float) -> float:
        """Millimetres in base units [n]."""
        return mm / self.base_mm

    def mm(self, n: float) -> float:
        """Base units [n] in millimetres."""
        return n * self.base_mm


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit on (or waiting to come onto) the table and every marker it carries.

    ``status``: ``"table"`` (in play), ``"reserve"`` (a reinforcement not yet arrived),
    ``"destroyed"``. ``body`` is ``None`` when vedette is not told where the unit stands (the
    player then states the geometric facts). Markers: ``pinned`` (in front of the unit),
    ``disrupted`` (on top), ``shot`` (has shot in this turn, 2 by 2, Resolving shooting),
    ``moved``/``through_town`` (this move phase), ``rallied`` (tried to rally this phase),
    ``meleed`` (has fought a melee this phase, for "attacker subsequent melee"), ``routed``
    (routed and not yet rallied from the disruption that follows).
    """

    id: str
    side: str
    kind: str
    name: str
    status: str = "table"
    body: Body | None = None
    pinned: bool = False
    disrupted: bool = False
    shot: bool = False
    formation: str = "line"
    screened: bool = False
    moved: bool = False
    through_town: bool = False
    rallied: bool = False
    meleed: bool = False
    entry: str = ""  # the RP it arrived at this phase and must enter by
    routed: bool = False  # has routed (and is disrupted) since it last rallied
    countercharged: bool = False  # has counter-charged this turn
    spent: float = 0.0  # [n] of its allowance spent by relative moves this phase
    turned: bool = False  # changed facing (turn, wheel) this phase
    straight_run: float = 0.0  # [n] moved straight ahead since its last change of facing
    turned_last: bool = False  # its last step this phase was a (free) turn: todo offers none again
    road_only: bool = True  # every relative move this phase wholly on a road
    bridged: bool = False  # a move this phase crossed a bridge at 1/2 rate (bridge_mode whole_move)

    @property
    def alive(self) -> bool:
        return self.status != "destroyed"

    @property
    def on_table(self) -> bool:
        return self.status == "table"


@dataclass(frozen=True, slots=True)
class SideInfo:
    """One army: its id, name and base edge (2 by 2, Game Setup)."""

    id: str
    name: str
    edge: str


@dataclass(frozen=True, slots=True)
class ReinforcementPoint:
    """A reinforcement point (2 by 2, Game Setup / Reinforcements): where on which edge, the
    kind (``rear`` on the side's own edge, ``flank`` on a side edge) and the queue of units in
    order of appearance."""

    id: str
    side: str
    kind: str
    point: Vec
    queue: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PendingMelee:
    """Two units in contact whose melee the phasing player must resolve (2 by 2, Melee)."""

    attacker: str
    defender: str
    counter_charge: bool = False


@dataclass(frozen=True, slots=True)
class FollowUp:
    """A follow-up owed or offered to a melee winner (2 by 2, Melee, results 3 to 6+)."""

    unit: str
    into: Vec | None
    mandatory: bool


#: (phase kind, acting player index, phasing player index) in the order of the text
PHASES: tuple[tuple[str, int, int], ...] = (
    ("move", 0, 0),
    ("rally", 0, 0),
    ("shoot", 1, 0),
    ("melee", 0, 0),
    ("move", 1, 1),
    ("rally", 1, 1),
    ("shoot", 0, 1),
    ("melee", 1, 1),
)
PHASE_TEXT = {
    "move": "moves units / dices for reinforcements",
    "rally": "rallies units",
    "shoot": "shoots muskets/artillery; cavalry counter-charge",
    "melee": "resolves melees",
}
SETUP_STEPS = ("roll", "deploy_def", "deploy_att", "rp_def", "rp_att", "rp_def2", "rp_att2")


@dataclass(frozen=True)
class GameState:
    """The whole game; changed only by events (see :mod:`vedette.rules.two_by_two.events`)."""

    rules: Rules
    table: TableTop
    sides: tuple[SideInfo, SideInfo]
    units: tuple[Unit, ...]
    stage: str = "setup"  # setup | battle | over
    setup_step: str = "roll"
    attacker: str | None = None
    defender: str | None = None
    extra_ap: int = 0
    turn: int = 0
    phase_index: int = 0
    rps: tuple[ReinforcementPoint, ...] = ()
    reinforcement_rolls: int = 0
    melees: tuple[PendingMelee, ...] = ()
    follow_ups: tuple[FollowUp, ...] = ()
    #: the units that moved into contact in this move phase (a charge, not a counter-charge):
    #: their move ended there (reading 37), whether their melee still stands or not (a target
    #: that routed away); folded from the melees begun, cleared at each phase
    charged: tuple[str, ...] = ()
    #: stated play: the facts of a unit's own ground the player stated (or left to their
    #: default) in an action, as (unit, fact, value): held until the melee phase ends (the
    #: next move phase), a contradicting one refused (reading 54); a unit's are released when
    #: it moves, an HQ contact when an HQ of its side moves or goes
    held: tuple[tuple[str, str, bool], ...] = ()
    winner: str | None = None
    title: str = ""
    #: how the game is played (chosen per game, never mixed): ``tracked`` (vedette keeps
    #: positions and facings and measures) or ``stated`` (the player states measured facts)
    play: str = "tracked"
    victory: Mapping[str, Any] = field(default_factory=dict, compare=False)

    # -- lookups -------------------------------------------------------------------------
    def unit(self, uid: str) -> Unit:
        i = _index(self.units).position.get(uid)
        if i is not None:
            return self.units[i]
        raise BadRequest(f"no unit {uid!r} (units: {', '.join(u.id for u in self.units)})")

    def near(self, where: Body | Vec, mm: float, side: str | None = None) -> list[Unit]:
        """Units on the table (of ``side``) that may be within ``mm`` of ``where`` edge to
        edge: a superset from a grid of unit centres, in the order of ``units``; callers then
        ask the exact question. Equivalent to filtering :meth:`live`, without visiting every
        unit of a large army."""
        return _index(self.units).near(where, mm, side)

    def near_each(
        self, where: Body | Vec, asks: Sequence[tuple[float, str | None]]
    ) -> list[list[Unit]]:
        """``[self.near(where, mm, side) for mm, side in asks]``, the units scanned once (a
        move's end asks who is near it several times: snap, overlap, contact, counter-charge)."""
        return _index(self.units).near_each(where, asks)

    def utype(self, u: Unit) -> UnitType:
        return self.rules.unit_types[u.kind]

    def side(self, sid: str) -> SideInfo:
        for s in self.sides:
            if s.id == sid:
                return s
        raise BadRequest(f"no side {sid!r} (sides: {', '.join(s.id for s in self.sides)})")

    def enemy_of(self, sid: str) -> str:
        a, b = self.sides
        return b.id if sid == a.id else a.id

    def rp(self, rid: str) -> ReinforcementPoint:
        for r in self.rps:
            if r.id == rid:
                return r
        raise BadRequest(f"no reinforcement point {rid!r}")

    @property
    def player_order(self) -> tuple[str, str]:
        """(Player 1, Player 2): the Defender moves first (2 by 2, Game Setup)."""
        if self.defender is None or self.attacker is None:
            return (self.sides[0].id, self.sides[1].id)
        return (self.defender, self.attacker)

    @property
    def phase(self) -> str:
        return PHASES[self.phase_index][0] if self.stage == "battle" else self.stage

    @property
    def actor(self) -> str:
        """The side acting in the current phase (Player 2 shoots in Player 1's half-turn)."""
        return self.player_order[PHASES[self.phase_index][1]]

    @property
    def phasing(self) -> str:
        return self.player_order[PHASES[self.phase_index][2]]

    def phase_name(self) -> str:
        if self.stage == "setup":
            return f"set-up: {self.setup_step}"
        if self.stage == "over":
            return "game over"
        kind, who, _ = PHASES[self.phase_index]
        return (
            f"turn {self.turn}, phase {self.phase_index + 1}/8: player {who + 1}"
            f" ({self.side(self.actor).name}) {PHASE_TEXT[kind]}"
        )

    def live(self, side: str | None = None) -> list[Unit]:
        """The units on the table (of ``side``), in order (``on_table`` read as its field:
        asked many times a step; listed once per units tuple, a new list each call)."""
        units = self.units
        take = _index(units).live.get(side)
        if take is None:
            take = _live_places(_index(units), units, side)
        return take(units)

    def held_fact(self, uid: str, fact: str) -> bool | None:
        """The value of ``fact`` held for unit ``uid`` now (``None``: none held). A
        melee's ground and a shot's cover are one fact of the unit (reading 54): "in woods/rough
        or town" (``in_cover``) follows from ``town`` and ``woods`` held, and a unit held out
        of cover is in neither a town nor woods/rough."""
        mine = {f: v for u, f, v in self.held if u == uid}
        if fact in mine:
            return mine[fact]
        if fact == "in_cover":
            town, woods = mine.get("town"), mine.get("woods")
            if town or woods:
                return True
            return False if town is False and woods is False else None
        if fact in ("town", "woods") and mine.get("in_cover") is False:
            return False
        return None

    def score(self, side: str) -> int:
        """AP of enemy units destroyed (the default victory count, an assumption)."""
        return sum(
            self.utype(u).ap for u in self.units if u.status == "destroyed" and u.side != side
        )

    # -- updates (used by apply only) ----------------------------------------------------
    def with_unit(self, uid: str, **changes: Any) -> GameState:
        return self.with_unit_values(uid, changes)

    def with_unit_values(self, uid: str, changes: Mapping[str, Any]) -> GameState:
        """:meth:`with_unit` with the changes as a mapping (a patch's fold: not unpacked and
        packed again)."""
        old = self.units
        i = _index(old).position.get(uid)
        if i is None:
            self.unit(uid)  # raises, naming the units
            raise AssertionError(uid)
        # one unit replaced: the others are the same objects (the tuple built once)
        units = (*old[:i], evolved(old[i], changes), *old[i + 1 :])
        _derive_index(old, units, uid)
        new = evolved(self, {"units": units})
        DERIVED[0] = (new, self, i)
        return new


#: the state :meth:`GameState.with_unit_values` made last, the state it was made from and the
#: place of the one unit it changed (nothing else differs), as one tuple (read in one step):
#: ``todo`` carries the last state's offers to it (the entry keeps both states alive)
DERIVED: list[tuple[Any, Any, int]] = [(None, None, -1)]


class _UnitIndex:
    """Units by id, and the positioned units on the table (a grid of their centres, built
    when first needed: a large army)."""

    CELL = 80.0
    #: up to this many units on the table, :meth:`near` scans them in order (a few dozen
    #: comparisons cost less than finding the grid's cells and sorting what they hold)
    SCAN = 48

    def __init__(self, units: tuple[Unit, ...]) -> None:
        self.units = units
        #: each unit's place in ``units`` (ids are unique; the same for every state derived
        #: by with_unit, which keeps the order)
        self.position = {u.id: i for i, u in enumerate(units)}
        #: the positioned units on the table, in the order of ``units``
        self.placed: list[tuple[int, Unit]] = [
            (i, u) for i, u in enumerate(units) if u.body is not None and u.status == "table"
        ]
        footprints = {u.body.footprint for _, u in self.placed if u.body is not None}
        self.radius = max((math.hypot(f.width, f.depth) / 2 for f in footprints), default=0.0)
        self._grid: dict[tuple[int, int], list[tuple[int, Unit]]] | None = None
        self._scan: list[tuple[str, float, float, Unit]] | None = None
        #: :meth:`GameState.live` by side (None: every side): a function that lists them from
        #: the units tuple (their places, found when first asked; the same places for every
        #: index derived by :meth:`changed` while no unit's status changes)
        self.live: dict[str | None, Callable[[tuple[Unit, ...]], list[Unit]]] = {}

    @property
    def scan(self) -> list[tuple[str, float, float, Unit]]:
        """The placed units as (side, centre x, centre y, unit), in order: what :meth:`near`
        reads of each when it scans them, read once per index (a state asks several times)."""
        if self._scan is None:
            self._scan = [
                (u.side, u.body.centre.x, u.body.centre.y, u)
                for _, u in self.placed
                if u.body is not None
            ]
        return self._scan

    @property
    def grid(self) -> dict[tuple[int, int], list[tuple[int, Unit]]]:
        """The placed units by the cell of their centre, each cell in the order of ``units``."""
        if self._grid is None:
            grid: dict[tuple[int, int], list[tuple[int, Unit]]] = {}
            for i, u in self.placed:
                assert u.body is not None
                grid.setdefault(self._key(u.body.centre), []).append((i, u))
            self._grid = grid
        return self._grid

    def near(self, where: Body | Vec, mm: float, side: str | None) -> list[Unit]:
        c = where.centre if isinstance(where, Body) else where
        own = where.radius if isinstance(where, Body) else 0.0
        reach = mm + own + self.radius
        if len(self.placed) <= self.SCAN:  # the same test, unit by unit, already in order
            limit = reach * reach + 1e-9
            x, y = c.x, c.y
            if side is None:
                return [
                    u
                    for _, ux, uy, u in self.scan
                    if (ux - x) * (ux - x) + (uy - y) * (uy - y) <= limit
                ]
            return [
                u
                for s, ux, uy, u in self.scan
                if s == side and (ux - x) * (ux - x) + (uy - y) * (uy - y) <= limit
            ]
        x0, x1 = int((c.x - reach) // self.CELL), int((c.x + reach) // self.CELL)
        y0, y1 = int((c.y - reach) // self.CELL), int((c.y + reach) // self.CELL)
        found: list[tuple[int, Unit]] = []
        if (x1 - x0 + 1) * (y1 - y0 + 1) > 4 * len(self.grid) + 16:
            cells: list[list[tuple[int, Unit]]] = list(self.grid.values())
        else:
            cells = [
                self.grid[(i, j)]
                for i in range(x0, x1 + 1)
                for j in range(y0, y1 + 1)
                if (i, j) in self.grid
            ]
        r2 = reach * reach
        for cell in cells:
            for i, u in cell:
                if side is not None and u.side != side:
                    continue
                assert u.body is not None
                dx, dy = u.body.centre.x - c.x, u.body.centre.y - c.y
                if dx * dx + dy * dy <= r2 + 1e-9:
                    found.append((i, u))
        found.sort(key=lambda iu: iu[0])
        return [u for _, u in found]

    def near_each(
        self, where: Body | Vec, asks: Sequence[tuple[float, str | None]]
    ) -> list[list[Unit]]:
        """:meth:`near` for each (mm, side) of ``asks``: each unit's squared distance worked
        out once and held to each reach as :meth:`near` holds it (the same floats)."""
        if len(self.placed) > self.SCAN:
            return [self.near(where, mm, side) for mm, side in asks]
        c = where.centre if isinstance(where, Body) else where
        own = where.radius if isinstance(where, Body) else 0.0
        limits = []
        for mm, _ in asks:
            reach = mm + own + self.radius
            limits.append(reach * reach + 1e-9)
        top = max(limits)
        sides = [side for _, side in asks]
        outs: list[list[Unit]] = [[] for _ in asks]
        x, y = c.x, c.y
        for s, ux, uy, u in self.scan:
            d2 = (ux - x) * (ux - x) + (uy - y) * (uy - y)
            if d2 <= top:
                for out, limit, side in zip(outs, limits, sides, strict=True):
                    if d2 <= limit and (side is None or s == side):
                        out.append(u)
        return outs

    def changed(self, units: tuple[Unit, ...], uid: str) -> _UnitIndex:
        """The index of ``units``, equal to this one's units but for unit ``uid``: copied and
        patched (dictionary copies run in C), not rebuilt; the grid only if it was built."""
        new = _UnitIndex.__new__(_UnitIndex)
        i = self.position[uid]
        old = self.units[i]
        u = units[i]
        new.units = units
        new.position = self.position
        new.radius = self.radius
        placed = u.body is not None and u.status == "table"
        # ``placed`` is in the order of the units' places: unit ``uid``'s entry (place ``i``)
        # found by bisection ((i,) sorts before (i, unit) and after every (j, unit), j < i)
        new.placed = rows = list(self.placed)
        # the scan (when built) holds the placed units' rows in the same order: patched alike
        scan = None if self._scan is None else list(self._scan)
        k = bisect.bisect_left(rows, (i,))
        if not placed:
            if k < len(rows) and rows[k][0] == i:
                del rows[k]
                if scan is not None:
                    del scan[k]
        else:
            assert u.body is not None
            row = (u.side, u.body.centre.x, u.body.centre.y, u)
            if k < len(rows) and rows[k][0] == i:
                rows[k] = (i, u)
                if scan is not None:
                    scan[k] = row
            else:
                rows.insert(k, (i, u))
                if scan is not None:
                    scan.insert(k, row)
        new._grid = None
        new._scan = scan
        # the places of the units on the table (by side) stand while the unit's status and
        # side do: the same table, shared (filled in by either index: the same answers)
        same = old.status == u.status and old.side == u.side
        new.live = self.live if same else {}
        if self._grid is not None:
            grid = new._grid = dict(self._grid)
            if old is not None and old.body is not None and old.status == "table":
                key = self._key(old.body.centre)
                grid[key] = [x for x in grid.get(key, []) if x[1].id != uid]
            if placed:
                assert u.body is not None
                key = self._key(u.body.centre)
                cell = [x for x in grid.get(key, []) if x[1].id != uid]
                cell.append((i, u))
                cell.sort(key=lambda x: x[0])
                grid[key] = cell
        if placed:
            assert u.body is not None
            r = u.body.radius
            if r > new.radius:
                new.radius = r
        return new

    def _key(self, c: Vec) -> tuple[int, int]:
        return (int(c.x // self.CELL), int(c.y // self.CELL))


def _live_places(
    ix: _UnitIndex, units: tuple[Unit, ...], side: str | None
) -> Callable[[tuple[Unit, ...]], list[Unit]]:
    """The function :meth:`GameState.live` lists ``side``'s units on the table with (from a
    units tuple whose statuses and sides are those of ``units``): their places picked in C."""
    places = [
        i for i, u in enumerate(units) if u.status == "table" and (side is None or u.side == side)
    ]
    take: Callable[[tuple[Unit, ...]], list[Unit]]
    if len(places) > 1:
        pick = operator.itemgetter(*places)
        take = lambda us: list(pick(us))  # noqa: E731 (a tuple of the units, as a list)
    elif places:
        k = places[0]
        take = lambda us: [us[k]]  # noqa: E731
    else:
        take = lambda us: []  # noqa: E731
    ix.live[side] = take
    return take


_INDEXES: dict[int, tuple[tuple[Unit, ...], _UnitIndex]] = {}


def _derive_index(old: tuple[Unit, ...], new: tuple[Unit, ...], uid: str) -> None:
    """When ``old`` is indexed, index ``new`` (one unit changed) by patching a copy."""
    hit = _INDEXES.get(id(old))
    if hit is None or hit[0] is not old:
        return
    if len(_INDEXES) > 256:
        _INDEXES.clear()
    _INDEXES[id(new)] = (new, hit[1].changed(new, uid))


#: the units tuple last indexed and its index (a step asks the same one many times)
_LAST_INDEX: list[Any] = [None, None]


def _index(units: tuple[Unit, ...]) -> _UnitIndex:
    """The index of a units tuple, built once per state (states are immutable)."""
    if _LAST_INDEX[0] is units:
        return _LAST_INDEX[1]  # type: ignore[no-any-return]
    hit = _INDEXES.get(id(units))
    if hit is not None and hit[0] is units:
        _LAST_INDEX[:] = hit
        return hit[1]
    if len(_INDEXES) > 256:
        _INDEXES.clear()
    ix = _UnitIndex(units)
    _INDEXES[id(units)] = _LAST_INDEX[:] = (units, ix)
    return ix


def require_phase(state: GameState, kind: str, side: str, what: str) -> None:
    """Refuse an action out of phase (2 by 2, Sequence of play)."""
    if state.stage == "over":
        raise RuleViolation(R_SEQ, f"{what}: the game is over")
    if state.stage != "battle":
        raise RuleViolation(R_SEQ, f"{what}: the battle has not started (now {state.phase_name()})")
    if state.phase != kind or state.actor != side:
        raise RuleViolation(
            R_SEQ,
            f"{what}: {state.side(side).name} may not do this now ({state.phase_name()})",
        )


def require_unit_in_play(state: GameState, uid: str, what: str, entering: bool = False) -> Unit:
    """The unit, in play: arrived, not destroyed and, unless ``entering`` (its entering move,
    a charge from the edge, its formation before it, its own checks), entered the table. An
    arrived reinforcement stands at its RP off the table until it enters "the edge within [4]
    of RP" (2 by 2, Reinforcements): it neither shoots nor melees, nor is it shot at, charged
    or counter-charged before then (stated play too, where no position says so)."""
    u = state.unit(uid)
    if u.status == "destroyed":
        raise RuleViolation(R_MELEE, f"{what}: {u.name} has been destroyed")
    if u.status != "table":
        raise RuleViolation(R_REINF, f"{what}: {u.name} has not arrived on the table")
    if u.entry and not entering:
        raise RuleViolation(
            R_REINF,
            f"{what}: {u.name} has arrived at RP {u.entry} but has not entered the table yet"
            f" (it enters the edge within [{state.rules.reinforcements.entry_radius:g}] of it)",
        )
    return u


def body_json(b: Body | None) -> dict[str, float] | None:
    if b is None:
        return None
    return {"x": round(b.centre.x, 3), "y": round(b.centre.y, 3), "facing": round(b.facing, 3)}


def feature_from_data(d: Mapping[str, Any], i: int) -> Feature:
    """A terrain feature from a scenario: ``kind``, ``name``, and ``area`` (polygon points),
    ``line`` (points, optional ``width`` mm) or ``circle`` (``centre``, ``radius``)."""
    src = "scenario terrain"
    kind = str(d.get("kind", ""))
    if kind not in TERRAIN_KINDS:
        raise DataError(src, f"kind must be one of {', '.join(TERRAIN_KINDS)}, not {kind!r}", i)
    name = str(d.get("name", f"{kind} {i}"))
    try:
        if "area" in d:
            return Feature.area(kind, name, [(float(x), float(y)) for x, y in d["area"]])
        if "line" in d:
            pts = [(float(x), float(y)) for x, y in d["line"]]
            return Feature.line(kind, name, pts, float(d.get("width", 0.0)))
        if "circle" in d:
            cx, cy = d["circle"]
            return Feature.circle(kind, name, (float(cx), float(cy)), float(d["radius"]))
    except (KeyError, TypeError, ValueError) as e:
        raise DataError(src, f"bad shape: {e}", i) from None
    raise DataError(src, "a feature needs 'area', 'line' or 'circle'", i)
