"""Kuryakin's rule data read once per game into typed values (issue 28, the pattern of Napoleon
At Bay's ``Config``): the shipped ``data/rules.toml`` with the game's house rules merged, read
when the game's first state is built (one ``Config`` per rules data: every game with the same
house rules shares it). The rules code reads ``state.config``'s fields, never a key of the data;
the default of every value is written once, in the data file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Literal

from vedette.dice.tables import Table, table_from_data
from vedette.errors import DataError
from vedette.rules.config import fields_of, rolled, section, table, value
from vedette.rules.solo_napoleonic.model import KINDS
from vedette.rules.solo_napoleonic.simplay import battle_end

SRC = "solo_napoleonic data"


@dataclass(frozen=True, slots=True)
class Options:
    """[options]: the numbers and switches of the text's unclear places (house rules may
    replace any of them; docs/rules/solo_napoleonic.md says which reading each one is)."""

    volley_die: str
    control_strict: bool
    percentile_strict: bool
    percentile_reading: Literal["00-99", "1-100"]
    failed_control_out_of_command: bool
    nation_cr_on: Literal["rating", "roll"]
    control_range_mm: float
    senior_range_mm: float
    friendly_range_mm: float
    volley_arc_deg: float
    skirmish_arc_deg: float
    artillery_arc_deg: float
    skirmish_frontage_factor: float
    volley_figures: int
    melee_points_per_die: int
    below_average_zero: Literal["stay", "up"]
    fire_disorder_to: Literal["firer", "target", "both"]
    morale_casualties: Literal["total", "turn"]
    friends_routing_range_mm: float
    allocation_roll: Literal["specials", "always"]
    general_save: int
    timid_retire_mm: float
    evade_die: str
    routing_runs: bool
    limbered_guns_fire: bool
    evade_caught: Literal["reach", "stated"]
    friendly_skirmishers_collide: bool
    evade_morale: Literal["none", "before"]
    lost_unit_general: Literal["detached", "killed"]
    leave_contact_mm: float
    charge_through_friends: bool
    flee_from: Literal["opponent", "nearest"]
    formation_changes_per_card: int
    standstill_tests_per_card: int
    after_charge_move: Literal["pursuit", "any"]
    standstill_moves: Literal["moves", "any", "advance"]
    retire_arc_deg: float
    advance_arc_deg: float
    charge_after_failed_morale: bool
    killed_brigadier_command: Literal["lost", "kept"]
    failed_jumper_acts: bool
    carried_change_first: bool
    rout_keeps_change: bool
    forced_retire_chit: bool
    own_retreat_chit: bool
    away_move_chit: bool
    charge_morale_losses: bool
    battery_officer: Literal["extra", "crew"]
    staff_reroll: bool


@dataclass(frozen=True, slots=True)
class ModEntry:
    """One entry of ``[modifiers.SECTION]``: its value (per one counted, ``per``, up to
    ``cap``), the reason shown, the group of which only the largest counts, and the optional
    rule it belongs to."""

    value: int
    reason: str
    per: bool = False
    cap: int | None = None
    group: str | None = None
    optional: str | None = None


@dataclass(frozen=True, slots=True)
class Grade:
    """A row of the grade roll (Kuryakin, Generals): the Control Rating it gives and what a
    senior of that grade adds to a brigadier's control roll."""

    key: str
    cr: int
    senior_modifier: int


@dataclass(frozen=True, slots=True)
class Nation:
    """[nations.NAME] (Kuryakin, National Variations): the change to each rating roll (a
    rating the data does not name is not changed)."""

    th: int = 0
    av: int = 0
    cr: int = 0


@dataclass(frozen=True, slots=True)
class Ranges:
    """[ranges.KIND] of small arms (mm)."""

    short: float
    long: float


@dataclass(frozen=True, slots=True)
class Band:
    """A band of the artillery Range Table (``[[artillery_ranges.foot]]``)."""

    band: str
    max: float
    ammunition: str
    deduction: int
    save: int


@dataclass(frozen=True, slots=True)
class ChargeHomeFailure:
    """[charge_home_failure]: what a unit failing to charge home does (Charge Home Test)."""

    infantry_ABC: str
    timid_co: str
    other: str


@dataclass(frozen=True, slots=True)
class MeleeSaves:
    """[melee_saves]: the d6 face a figure struck in melee saves on (Kuryakin, Melee)."""

    infantry_vs_infantry: int
    cavalry_vs_cavalry: int
    cuirassier: int
    infantry_vs_cavalry: int
    cavalry_vs_infantry: int


@dataclass(frozen=True, slots=True)
class FireNumbers:
    """[fire]: the numbers of Kuryakin's Firing and Artillery (the share of a volley's hits that
    count, the d6 face a casualty of fire saves on, the face a skirmisher hits on, a battery's
    dice by ammunition)."""

    volley_share_short: Fraction
    volley_share_long: Fraction
    save_short: int
    save_long: int
    skirmish_hit_short: int
    skirmish_hit_long: int
    ball_dice: str
    canister_dice: str


@dataclass(frozen=True, slots=True)
class MeleeNumbers:
    """[melee]: the share of a side's melee dice total that are potential casualties, and the
    share of its casualties a skirmishing side inflicts (Kuryakin, Melee)."""

    casualty_share: Fraction
    skirmisher_share: Fraction


@dataclass(frozen=True, slots=True)
class DisorderChits:
    """[disorder]: the 'D' chits each cause gives (Kuryakin, Disorder)."""

    round: int
    rout_move: int
    retreat_move: int
    formation_incomplete: int
    musician_over_half: int


@dataclass(frozen=True, slots=True)
class Dice:
    """[dice]: the faces of the dice Kuryakin names where the number rolled is the result (a
    collision's chits, a melee's further rounds, each melee die, a formation change's quarters,
    a reform's chits removed, a swerve's cm)."""

    collision: int
    further_rounds: int
    melee: int
    formation_change: int
    reform: int
    swerve_distance: int
    #: each as one die's notation (``1d3``), written once
    collision_die: str = field(init=False)
    further_rounds_die: str = field(init=False)
    melee_die: str = field(init=False)
    formation_change_die: str = field(init=False)
    reform_die: str = field(init=False)
    swerve_distance_die: str = field(init=False)

    def __post_init__(self) -> None:
        for name in FACES:
            object.__setattr__(self, f"{name}_die", f"1d{getattr(self, name)}")


#: the [dice] entries (each a die's faces)
FACES = (
    "collision",
    "further_rounds",
    "melee",
    "formation_change",
    "reform",
    "swerve_distance",
)


@dataclass(frozen=True, slots=True)
class RefereeMorale:
    """[referee_morale]: the morale tests the referee calls itself (issue 14)."""

    fire_casualties: bool
    fire_casualties_share: float
    friend_routs: bool
    general_killed: bool
    general_influence_mm: float
    corps_influence_mm: float

    def calls(self, reason: str) -> bool:
        """Is ``reason`` (of [morale_reasons]) one the referee calls?"""
        return {
            "fire_casualties": self.fire_casualties,
            "friend_routs": self.friend_routs,
            "general_killed": self.general_killed,
        }.get(reason, False)


@dataclass(frozen=True, slots=True)
class CardDoes:
    """A chance card's effect as the data gives it (typed and checked by cards.py)."""

    kind: str
    rolls: tuple[str, ...]
    value: int
    uses: int
    on: str


@dataclass(frozen=True, slots=True)
class CardData:
    id: str
    title: str
    effect: str
    does: CardDoes


@dataclass(frozen=True, slots=True)
class Config:
    """Everything the procedures read from Kuryakin's rule data (house rules included)."""

    options: Options
    modifiers: Mapping[str, Mapping[str, ModEntry]]
    ratings: Mapping[str, Table]  # th, av, cr: the generals' rating rolls
    grades: Mapping[str, Grade]
    nations: Mapping[str, Nation]  # by the nation's name in lower case
    move_distances: Mapping[str, Mapping[str, float]]  # kind -> formation -> mm
    random_movement: Mapping[str, str]  # kind -> die
    formation_ranks: Mapping[str, int]
    ranges: Mapping[str, Ranges]
    artillery_ranges: Mapping[str, tuple[Band, ...]]  # foot, horse
    bpl: Mapping[str, Mapping[str, int]]  # test -> grade -> base percentage
    charge_home_failure: ChargeHomeFailure
    melee_points: Mapping[str, int]
    melee_saves: MeleeSaves
    fire: FireNumbers
    melee: MeleeNumbers
    disorder: DisorderChits
    dice: Dice
    morale_reasons: Mapping[str, str]
    referee_morale: RefereeMorale
    morale_result: Table
    swerve: Table
    #: Moving From A Standstill: the test to move off, and to stop an advance (by ``stopping``)
    standstill: tuple[Table, Table]
    chance_cards: tuple[CardData, ...]
    break_fraction: float
    max_turns: int
    #: where the data carries an ``assumption`` mark (the ``assumptions`` query)
    assumptions: tuple[str, ...]


RATINGS = {
    "th": ("th_rows", "1d6", "Troop Handling"),
    "av": ("av_rows", "1d6", "Attack Value"),
    "cr": ("grade_rows", "1d8", "Grade / Control Rating"),
}

#: the rating tables' further columns: a row the text leaves out, read by our assumption, says
#: so (the help pages); a grade gives its Control Rating and a senior's modifier
_ASSUMED = {"assumption": {"type": "bool", "default": False}}
RATING_COLUMNS: dict[str, dict[str, Any]] = {
    "th": _ASSUMED,
    "av": _ASSUMED,
    "cr": {**_ASSUMED, "cr": "int", "senior_modifier": {"type": "int", "default": 0}},
}


def _table(data: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    return table(data, name, SRC)


def _plain(t: Mapping[str, Any]) -> dict[str, Any]:
    """A table's entries without its ``assumption`` mark."""
    return {k: v for k, v in t.items() if k != "assumption"}


def _numbers(t: Mapping[str, Any], kind: Any, where: str) -> dict[str, Any]:
    return {str(k): value(v, kind, f"{where} {k}", SRC) for k, v in _plain(t).items()}


def _mod(e: Any, where: str) -> ModEntry:
    if not isinstance(e, Mapping) or "value" not in e or "reason" not in e:
        raise DataError(SRC, f"{where} needs a value and a reason")
    cap = e.get("cap")
    return ModEntry(
        value(e["value"], int, f"{where} value", SRC),
        str(e["reason"]),
        bool(e.get("per", False)),
        None if cap is None else value(cap, int, f"{where} cap", SRC),
        None if e.get("group") is None else str(e["group"]),
        str(e["optional"]) if e.get("optional") else None,
    )


def _card(c: Any) -> CardData:
    if not isinstance(c, Mapping) or not all(k in c for k in ("id", "title", "effect")):
        raise DataError(SRC, "each [[chance_cards]] needs an id, a title and an effect")
    does = CardDoes(
        str(c.get("kind", "none")),
        tuple(str(r) for r in c.get("rolls", ())),
        int(c.get("value", 0)),
        int(c.get("uses", 1)),
        str(c.get("on", "any")),
    )
    return CardData(str(c["id"]), str(c["title"]), str(c["effect"]), does)


def assumption_paths(data: Any, path: str = "") -> list[str]:
    """Where the rule data carries an ``assumption`` mark (our default, not the text's)."""
    out: list[str] = []
    if isinstance(data, Mapping):
        mark = data.get("assumption")
        if mark:
            out.append(path + ("" if mark is True else f" ({mark})"))
        for k, v in data.items():
            if k != "assumption":
                out += assumption_paths(v, f"{path}.{k}" if path else str(k))
    elif isinstance(data, list):
        marked = [i for i, v in enumerate(data) if isinstance(v, Mapping) and v.get("assumption")]
        if marked and len(marked) == len(data):
            out.append(f"{path} (all {len(data)} entries)")
        else:
            for i, v in enumerate(data):
                out += assumption_paths(v, f"{path}[{i}]")
    return out


def _fire(f: FireNumbers) -> FireNumbers:
    """[fire], its numbers checked: a share of the hits is above 0 and at most 1, a d6 face
    needed is 1-7 (7: never), a battery's dice an expression ``NdS``."""
    for name in ("volley_share_short", "volley_share_long"):
        if not 0 < getattr(f, name) <= 1:
            raise DataError(SRC, f"[fire] {name} must be above 0 and at most 1")
    for name in ("save_short", "save_long", "skirmish_hit_short", "skirmish_hit_long"):
        if not 1 <= getattr(f, name) <= 7:
            raise DataError(SRC, f"[fire] {name} must be a d6 face, 1-7 (7: never)")
    for name in ("ball_dice", "canister_dice"):
        dice = getattr(f, name)
        m = re.fullmatch(r"([0-9]+)d([0-9]+)", dice)  # (ASCII digits: "²d6" was an error)
        if m is None or int(m[1]) < 1 or int(m[2]) < 2:
            raise DataError(SRC, f"[fire] {name} must be dice such as 1d6, not {dice!r}")
    return f


def _melee(m: MeleeNumbers) -> MeleeNumbers:
    """[melee], its shares checked: above 0 and at most 1."""
    for name in ("casualty_share", "skirmisher_share"):
        if not 0 < getattr(m, name) <= 1:
            raise DataError(SRC, f"[melee] {name} must be above 0 and at most 1")
    return m


def _disorder(d: DisorderChits) -> DisorderChits:
    """[disorder], its chits checked: none negative."""
    for name in DisorderChits.__dataclass_fields__:
        if getattr(d, name) < 0:
            raise DataError(SRC, f"[disorder] {name} must not be negative")
    return d


#: the most faces a [dice] die may have (a percentage is [options] percentile_reading's)
MAX_FACES = 100


def _dice(d: Dice) -> Dice:
    """[dice], each a die of 2 to 100 faces."""
    for name in FACES:
        if not 2 <= getattr(d, name) <= MAX_FACES:
            raise DataError(SRC, f"[dice] {name} must be a die's faces, 2-{MAX_FACES}")
    return d


def _standstill(tables: Mapping[str, Any], name: str, keys: tuple[str, str]) -> Table:
    """[tables.NAME] of Moving From A Standstill, rolled on its own dice, its rows' keys those
    the referee reads; named "standstill" as its rolls always were (saved games keep it)."""
    t = rolled(table_from_data(name, _table(tables, name), SRC), SRC)
    if sorted(r.key for r in t.rows) != sorted(keys):
        raise DataError(SRC, f"[tables.{name}] rows must have the keys {' and '.join(keys)}")
    return replace(t, name="standstill")


def make_config(data: Mapping[str, Any], source: str = "rules data") -> Config:
    """Read the rule data (shipped + house rules) once; one line naming what is wrong."""
    gens = _table(data, "generals")
    ratings = {}
    for which, (key, dice, title) in RATINGS.items():
        rows = gens.get(key)
        ratings[which] = table_from_data(
            which,
            {
                "title": title,
                "rule": "Kuryakin, Generals",
                "dice": dice,
                "rows": rows,
                "columns": RATING_COLUMNS[which],
            },
            f"{SRC} [generals]",
        )
    grades = {}
    for r in gens.get("grade_rows", []):
        g = fields_of(Grade, {"senior_modifier": 0, **r}, "[generals] grade_rows", SRC)
        grades[g.key] = g
    arts = _table(data, "artillery_ranges")
    tables = _table(data, "tables")
    moves = {
        k: _numbers(row, float, f"[move_distances] {k}")
        for k, row in _plain(_table(data, "move_distances")).items()
    }
    ranks = _numbers(_table(data, "formation_ranks"), int, "[formation_ranks]")
    random_movement = {k: str(v) for k, v in _plain(_table(data, "random_movement")).items()}
    melee_points = _numbers(_table(data, "melee_points"), int, "[melee_points]")
    for kind in KINDS:
        for name, got in (
            ("move_distances", moves),
            ("random_movement", random_movement),
            ("melee_points", melee_points),
        ):
            if kind not in got:
                raise DataError(SRC, f"[{name}] has no {kind!r}")
    if "general" not in moves:
        raise DataError(SRC, "[move_distances] has no 'general'")
    for kind, row in moves.items():
        for f in row:
            if f not in ranks:
                raise DataError(SRC, f"[formation_ranks] has no {f!r} ({kind} may form it)")
    break_fraction, max_turns = battle_end(data, source)
    options = section(Options, data, "options", SRC)
    if options.retire_arc_deg < 0:  # (a negative arc would refuse every retirement, owed too)
        raise DataError(SRC, "[options] retire_arc_deg must not be negative (degrees, 0-180)")
    if options.advance_arc_deg < 0:  # (a negative arc would refuse every advance)
        raise DataError(SRC, "[options] advance_arc_deg must not be negative (degrees, 0-180)")
    for name in ("volley_die", "evade_die"):  # (one die: Firing K19, Skirmishers' D20cm)
        die = getattr(options, name)
        m = re.fullmatch(r"d([0-9]+)", die)
        if m is None or int(m[1]) < 2:
            raise DataError(SRC, f"[options] {name} must be one die such as d6, not {die!r}")
    return Config(
        options=options,
        modifiers={
            s: {k: _mod(e, f"[modifiers.{s}] {k}") for k, e in sec.items()}
            for s, sec in _table(data, "modifiers").items()
        },
        ratings=ratings,
        grades=grades,
        nations={
            str(n).lower(): Nation(**_numbers(t, int, f"[nations.{n}]"))
            for n, t in _table(data, "nations").items()
        },
        move_distances=moves,
        random_movement=random_movement,
        formation_ranks=ranks,
        ranges={
            k: fields_of(Ranges, t, f"[ranges.{k}]", SRC) for k, t in _table(data, "ranges").items()
        },
        artillery_ranges={
            k: tuple(fields_of(Band, b, f"[[artillery_ranges.{k}]]", SRC) for b in bands)
            for k, bands in arts.items()
        },
        bpl={k: _numbers(t, int, f"[bpl.{k}]") for k, t in _table(data, "bpl").items()},
        charge_home_failure=section(ChargeHomeFailure, data, "charge_home_failure", SRC),
        melee_points=melee_points,
        melee_saves=section(MeleeSaves, data, "melee_saves", SRC),
        fire=_fire(section(FireNumbers, data, "fire", SRC)),
        melee=_melee(section(MeleeNumbers, data, "melee", SRC)),
        disorder=_disorder(section(DisorderChits, data, "disorder", SRC)),
        dice=_dice(section(Dice, data, "dice", SRC)),
        morale_reasons={k: str(v) for k, v in _plain(_table(data, "morale_reasons")).items()},
        referee_morale=section(RefereeMorale, data, "referee_morale", SRC),
        morale_result=table_from_data(
            "morale_result", _table(tables, "morale_result"), f"{SRC} [tables.morale_result]"
        ),
        swerve=rolled(table_from_data("swerve", _table(tables, "swerve"), SRC), SRC),
        standstill=(
            _standstill(tables, "standstill", ("stays", "moves")),
            _standstill(tables, "standstill_halt", ("stops", "carries_on")),
        ),
        chance_cards=tuple(_card(c) for c in data.get("chance_cards", [])),
        break_fraction=break_fraction,
        max_turns=max_turns,
        assumptions=tuple(assumption_paths({k: v for k, v in data.items() if k != "options"})),
    )
