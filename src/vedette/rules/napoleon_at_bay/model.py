"""The model of Herman's solitaire system: pieces (forces and the pieces that are not forces),
the game state, and the configuration read from data and options.

Names follow the rule text: a *force* (Herman (1)) is one or more hexes of units headed by a
vedette or a general; the *contact force* is the non-moving force whose ZOC a *moving force*
enters; a *supporting force* is a nearby friendly force that may be substituted for it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from vedette.data import package_toml
from vedette.dice.tables import Table, table_from_data
from vedette.errors import BadRequest, DataError
from vedette.geometry.hexmap import HexMap, hexside_kinds, terrain_kinds
from vedette.numerals import ascii_fraction, ascii_int
from vedette.rules.config import dice_of
from vedette.rules.simulation import battle_end_turns
from vedette.rules.templates import check_template

DATA_PACKAGE = "vedette.rules.napoleon_at_bay.data"

Variant = Literal["final", "draft"]
Phase = Literal["movement", "combat"]
#: Herman (1): a moving force moves normally (by command or initiative, in the series' terms)
#: or force marches; the fixing procedure is the same for all of them.
March = Literal["normal", "command", "initiative", "force"]
MARCHES: tuple[March, ...] = ("normal", "command", "initiative", "force")


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece on the map: a force (Herman (1)) or a garrison, bridge train or center of
    operations (which never count as a force, Herman (3)).

    ``hexes``: the hexes it occupies, in component order (several for a multi-hex force).
    ``fixed``: its location has been 'fixed' (Herman (2)). ``march``: how it moved this phase
    (None: it has not moved). ``came_from``: where its latest move this phase began, then the
    hexes its lead component passed through (Herman (1): a moving force must *enter* the contact
    force's ZOC: one that began in it and left it on the way comes back in, :func:`began_inside`).
    """

    id: str
    side: str
    name: str
    hexes: tuple[str, ...]
    kind: str = "force"
    infantry: int = 0
    cavalry: int = 0
    vedettes: int = 0
    generals: tuple[str, ...] = ()
    fixed: bool = False
    march: March | None = None
    came_from: tuple[str, ...] = ()
    vedette_strength: int | None = None  # this force's vedettes' strength (None: the default)

    @property
    def has_cavalry(self) -> bool:
        """Herman (3): "contains a cavalry SP or a vedette"."""
        return self.cavalry > 0 or self.vedettes > 0

    def cavalry_strength(self, vedette_strength: int) -> int:
        """Herman (3) DRM 2: cavalry SPs plus each vedette's strength (a parameter: the
        force's own ``vedette_strength`` if its scenario entry gives one, else the default)."""
        each = vedette_strength if self.vedette_strength is None else self.vedette_strength
        return self.cavalry + self.vedettes * each

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "name": self.name,
            "kind": self.kind,
            "hexes": list(self.hexes),
            "infantry": self.infantry,
            "cavalry": self.cavalry,
            "vedettes": self.vedettes,
            "generals": list(self.generals),
            "vedette_strength": self.vedette_strength,
            "fixed": self.fixed,
            "march": self.march,
            "came_from": list(self.came_from),
        }


@dataclass(frozen=True, slots=True)
class DrmValues:
    """Herman (3) die roll modifiers 1-4, from data."""

    only_moving_has: int = -2
    superior_moving: int = -1
    superior_contact: int = 1
    tie: int = 0
    only_contact_has: int = 2
    neither: int = 0
    reason_only: str = "only {side} has {what}"
    reason_superior: str = "superior {side} Cav"


@dataclass(frozen=True, slots=True)
class Config:
    """Everything the procedures read from data and options (house rules included)."""

    variant: Variant
    series: str
    support_range: int
    vedette_strength: int
    drm: DrmValues
    table: Table
    dice: str
    substitute_is_fixed: bool
    roll_without_candidates: bool
    contact_needs_vedette_or_general: bool
    mp_limit: Fraction | None
    force_kinds: frozenset[str]
    zoc_kinds: frozenset[str]
    forces_per_hex: int
    texts: Mapping[str, str] = field(default_factory=dict)
    stop_at_zoc: bool = True
    tie_die: str = "d6"
    #: Herman (2), reading A21: a fixed force that moves stays fixed while it is next to an enemy
    #: force (false: its own move ends its fixed state, the location fixed being left)
    moving_keeps_fixed: bool = True
    #: reading A22 (the series' movement): a force moves once in its side's movement phase
    #: (false: it may move again, e.g. back into a screen's ZOC it left, and roll again)
    one_move_per_phase: bool = False
    #: Herman (2), reading A24: an owed fixing whose contact force another fixing of the same
    #: move has fixed lapses (false: release 0.2's way, it is still rolled)
    owed_fixing_lapses: bool = True
    #: reading A25: the moving force itself, adjacent to the contact force when it entered the
    #: ZOC (across a ZOC-blocking hexside), counts as an enemy force adjacent (Herman (1))
    mover_counts_adjacent: bool = False
    #: the simulator's end of a game ([battle_end] max_turns: an assumption, docs/rules)
    battle_turns: int = 12
    #: Herman (3), reading A26: the kinds of force that may be a supporting force ("Garrison
    #: units, Bridge Trains, and Centers of Operation do not constitute a force for this
    #: purpose": ``[pieces.*] supports``)
    support_kinds: frozenset[str] = frozenset({"force"})

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "series": self.series,
            "support_range": self.support_range,
            "vedette_strength": self.vedette_strength,
            "substitute_is_fixed": self.substitute_is_fixed,
            "roll_without_candidates": self.roll_without_candidates,
            "contact_needs_vedette_or_general": self.contact_needs_vedette_or_general,
            "mp_limit": None if self.mp_limit is None else str(self.mp_limit),
            "forces_per_hex": self.forces_per_hex,
            "stop_at_zoc": self.stop_at_zoc,
            "tie_die": self.tie_die,
        }


@dataclass(frozen=True, slots=True)
class NabState:
    """A game of Herman's system. ``pieces`` keeps scenario order; ``occupancy`` maps a hex to
    the ids of the pieces in it; ``columns``, in a game of more than :data:`INDEXED_FROM`
    pieces, indexes the hexes where each side has a piece by the map's axial columns
    (:func:`side_columns`), so that the forces within a support range are read off the few
    columns it crosses (:func:`fixing.candidates_in_range`; None: a smaller game probes each
    hex in range instead). Both are kept by ``apply``."""

    map: HexMap = field(repr=False)
    config: Config = field(repr=False)
    title: str
    sides: Mapping[str, str]
    order: tuple[str, ...]  # the sides in turn order
    pieces: Mapping[str, Piece]
    occupancy: Mapping[str, tuple[str, ...]]
    columns: Mapping[str, Mapping[int, tuple[int, ...]]] | None  # side -> its hexes' columns
    turn: int = 1
    phasing: str = ""
    phase: Phase = "movement"
    moving: str | None = None  # the force moving now
    moved: frozenset[str] = frozenset()  # forces that moved this phase
    #: forces whose move this phase came from a release-0.1 log (no owed fixings recorded):
    #: ``fix`` judges their fixings when asked, as 0.1 did
    legacy: frozenset[str] = frozenset()
    last: Mapping[str, Any] = field(default_factory=dict)  # the latest fixing, for display
    owed: tuple[Any, ...] = ()  # protocol.Obligation: fixings owed since a ZOC entry (Herman (1))

    def piece(self, pid: str) -> Piece:
        try:
            return self.pieces[pid]
        except KeyError:
            raise BadRequest(f"no piece {pid!r} (pieces: {', '.join(self.pieces)})") from None

    def is_force(self, p: Piece) -> bool:
        return p.kind in self.config.force_kinds

    def forces_at(self, hex_id: str) -> list[Piece]:
        return [
            self.pieces[i] for i in self.occupancy.get(hex_id, ()) if self.is_force(self.pieces[i])
        ]

    def side_name(self, side: str) -> str:
        return self.sides.get(side, side)


# -- configuration ---------------------------------------------------------------------------
def _int(d: Mapping[str, Any], k: str, default: int, source: str) -> int:
    v = d.get(k, default)
    if isinstance(v, bool) or not isinstance(v, int | str):
        raise DataError(source, f"{k!r} must be a whole number, not {v!r}")
    try:
        return v if isinstance(v, int) else ascii_int(v)  # (not "３" nor "1_0")
    except ValueError:
        raise DataError(source, f"{k!r} must be a whole number, not {v!r}") from None


def _bool(v: Any) -> bool:
    if isinstance(v, bool):
        return v
    return str(v).lower() in ("1", "true", "yes", "y", "on")


#: the fields each fixing message offers its template (house rules: ``[fixing] text_*``)
_FIXED = ("contact", "range", "forces")
_SWITCH = ("contact", "support", "mover")
#: the messages every fixing may give (their words are data: [fixing] text_*)
TEXTS = (
    "text_stays",
    "text_switch",
    "text_switch_multi",
    "text_switch_many",
    "text_no_candidate",
    "text_no_legal_candidate",
)
TEXT_FIELDS: dict[str, tuple[str, ...]] = {
    "text_stays": ("contact",),
    "text_switch": _SWITCH,
    "text_switch_multi": (*_SWITCH, "hex", "other"),
    "text_switch_many": (*_SWITCH, "hexes"),
}


def make_config(
    data: Mapping[str, Any], scenario: Mapping[str, Any], options: Mapping[str, Any]
) -> Config:
    """Read the configuration: shipped data + house rules, then the scenario, then options."""
    src = "napoleon_at_bay data"
    variant = str(options.get("variant", "final"))
    if variant not in ("final", "draft"):
        raise BadRequest(f"option variant must be final or draft, not {variant!r}")
    sc = dict(scenario.get("scenario", {}))
    series = str(options.get("series", sc.get("series", "1x"))).lower()
    ranges = dict(data.get("series", {}))
    if series not in ranges:
        raise BadRequest(f"map series {series!r} unknown (known: {', '.join(ranges)})")
    fx = dict(data.get("fixing", {}))
    drm_d = dict(fx.get("drm", {}))
    base = DrmValues()
    drm = DrmValues(
        only_moving_has=_int(drm_d, "only_moving_has", base.only_moving_has, src),
        superior_moving=_int(drm_d, "superior_moving", base.superior_moving, src),
        superior_contact=_int(drm_d, "superior_contact", base.superior_contact, src),
        tie=_int(drm_d, "tie", base.tie, src),
        only_contact_has=_int(drm_d, "only_contact_has", base.only_contact_has, src),
        neither=_int(drm_d, "neither", base.neither, src),
        reason_only=check_template(
            drm_d.get("reason_only", base.reason_only),
            ("side", "what"),
            f"{src}: fixing.drm.reason_only",
        ),
        reason_superior=check_template(
            drm_d.get("reason_superior", base.reason_superior),
            ("side",),
            f"{src}: fixing.drm.reason_superior",
        ),
    )
    tables = dict(data.get("tables", {}))
    if "fixing" not in tables:
        raise DataError(src, "no [tables.fixing]")
    table = table_from_data("fixing", tables["fixing"], src)
    if {r.key for r in table.rows} != {"stays", "substitution"}:
        raise DataError(src, "table 'fixing' needs exactly the rows 'stays' and 'substitution'")
    vs = options.get("vedette_strength", fx.get("vedette_strength", 1))
    try:
        vedette_strength = ascii_int(vs) if isinstance(vs, str) else int(vs)
    except (TypeError, ValueError):
        raise BadRequest(f"vedette_strength must be a whole number, not {vs!r}") from None
    if vedette_strength < 0:  # (the option refuses it; a house rule's [fixing] value too)
        raise BadRequest(f"vedette_strength must be 0 or more, not {vs!r}")
    mp = fx.get("mp_limit", 60)
    try:
        mp_limit = (
            None if mp is None or str(mp).lower() in ("none", "") else ascii_fraction(str(mp))
        )
    except (ValueError, ZeroDivisionError):
        raise DataError(src, f"mp_limit must be a number or none, not {mp!r}") from None
    if mp_limit is not None and mp_limit < 0:
        raise DataError(src, f"mp_limit must be 0 or more (or none), not {mp!r}")
    pieces = dict(data.get("pieces", {}))
    force_kinds = frozenset(k for k, v in pieces.items() if _bool(v.get("counts_as_force")))
    zoc_kinds = frozenset(k for k, v in pieces.items() if _bool(v.get("zoc")))
    support_kinds = frozenset(k for k in force_kinds if _bool(pieces[k].get("supports", True)))
    texts = {
        k: check_template(v, TEXT_FIELDS.get(k, _FIXED), f"{src}: fixing.{k}")
        for k, v in fx.items()
        if k.startswith("text_")
    }
    for k in TEXTS:
        if k not in texts:
            raise DataError(src, f"[fixing] needs {k!r} (the message of that fixing)")
    return Config(
        variant="final" if variant == "final" else "draft",
        series=series,
        support_range=int(ranges[series]),
        vedette_strength=vedette_strength,
        drm=drm,
        table=table,
        dice=dice_of(str(fx.get("dice", table.dice or "1d6")), "[fixing] dice", src),
        substitute_is_fixed=_bool(
            options.get("substitute_is_fixed", fx.get("substitute_is_fixed", True))
        ),
        roll_without_candidates=_bool(
            options.get("roll_without_candidates", fx.get("roll_without_candidates", True))
        ),
        contact_needs_vedette_or_general=_bool(
            options.get(
                "contact_needs_vedette_or_general",
                fx.get("contact_needs_vedette_or_general", False),
            )
        ),
        mp_limit=mp_limit,
        force_kinds=force_kinds,
        zoc_kinds=zoc_kinds,
        forces_per_hex=_int(dict(data.get("stacking", {})), "forces_per_hex", 1, src),
        texts=texts,
        stop_at_zoc=_bool(
            options.get("stop_at_zoc", dict(data.get("movement", {})).get("stop_at_zoc", True))
        ),
        moving_keeps_fixed=_bool(
            options.get("moving_keeps_fixed", fx.get("moving_keeps_fixed", True))
        ),
        one_move_per_phase=_bool(
            options.get(
                "one_move_per_phase",
                dict(data.get("movement", {})).get("one_move_per_phase", False),
            )
        ),
        owed_fixing_lapses=_bool(
            options.get("owed_fixing_lapses", fx.get("owed_fixing_lapses", True))
        ),
        mover_counts_adjacent=_bool(
            options.get("mover_counts_adjacent", fx.get("mover_counts_adjacent", False))
        ),
        tie_die=_tie_die(options.get("tie_die", dict(data.get("movement", {})).get("tie_die"))),
        battle_turns=battle_end_turns(data, src),
        support_kinds=support_kinds,
    )


def _tie_die(v: Any) -> str:
    s = "d6" if v is None else str(v)
    if s not in ("d6", "d10", "dN"):
        raise BadRequest(f"tie_die must be d6, d10 or dN, not {v!r}")
    return s


#: the maps a scenario may name (``[map] file = ...``): a fixed registry, no path from a file
BUNDLED_MAPS: dict[str, str] = {"sample_map.toml": "sample_map.toml", "sample": "sample_map.toml"}


def load_map(data: Mapping[str, Any], scenario: Mapping[str, Any]) -> HexMap:
    """The scenario's map: inline ``[map]`` or ``[map] file = "..."`` (a bundled map file)."""
    m = dict(scenario.get("map", {}))
    source = "scenario map"
    if "file" in m:
        # a bundled map, named from a fixed registry: no path from a scenario reaches the disk
        name = m["file"]
        if not isinstance(name, str) or name not in BUNDLED_MAPS:
            raise DataError(
                "scenario [map]", f"file must name a bundled map ({', '.join(BUNDLED_MAPS)})"
            )
        source = f"{DATA_PACKAGE}/{BUNDLED_MAPS[name]}"
        m = dict(package_toml(DATA_PACKAGE, BUNDLED_MAPS[name]).get("map", {}))
    key = json.dumps([m, data.get("terrain"), data.get("hexsides")], sort_keys=True, default=str)
    if key in _MAPS:
        return _MAPS[key]
    tk = terrain_kinds(dict(data.get("terrain", {})), "napoleon_at_bay data [terrain]")
    hk = hexside_kinds(dict(data.get("hexsides", {})), "napoleon_at_bay data [hexsides]")
    built = HexMap.from_data(m, tk, hk, source)
    if len(_MAPS) >= 8:
        _MAPS.pop(next(iter(_MAPS)))
    _MAPS[key] = built
    return built


#: Built maps by their data (a map is immutable): reopening a game does not rebuild its map.
_MAPS: dict[str, HexMap] = {}


def load_pieces(
    scenario: Mapping[str, Any], hexmap: HexMap, config: Config, sides: Mapping[str, str]
) -> dict[str, Piece]:
    out: dict[str, Piece] = {}
    known_kinds = (
        config.force_kinds
        | config.zoc_kinds
        | {
            "force",
            "garrison",
            "bridge_train",
            "center_of_operations",
        }
    )
    for n, f in enumerate(scenario.get("forces", ()), start=1):
        src = "scenario [[forces]]"
        try:
            pid = str(f["id"])
            side = str(f["side"])
            hexes = tuple(str(h).upper() for h in f["hexes"])
        except (KeyError, TypeError) as e:
            raise DataError(src, f"a force needs id, side and hexes ({e})", n) from None
        if pid in out:
            raise DataError(src, f"duplicate id {pid!r}", n)
        if side not in sides:
            raise DataError(src, f"{pid}: unknown side {side!r} (sides: {', '.join(sides)})", n)
        if not hexes or len(set(hexes)) != len(hexes):
            raise DataError(src, f"{pid}: hexes must be one or more distinct hexes", n)
        for h in hexes:
            if h not in hexmap:
                raise DataError(src, f"{pid}: hex {h} is not on the map", n)
            if not hexmap.passable(h):
                raise DataError(src, f"{pid}: hex {h} is impassable", n)
        for i, b in enumerate(hexes[1:], start=1):
            if not any(hexmap.adjacent(b, x) for x in hexes[:i]):
                raise DataError(src, f"{pid}: the hexes of a multi-hex force must touch ({b})", n)
        kind = str(f.get("kind", "force"))
        if kind not in known_kinds:
            raise DataError(src, f"{pid}: unknown kind {kind!r}", n)
        try:
            out[pid] = Piece(
                pid,
                side,
                str(f.get("name", pid)),
                hexes,
                kind,
                int(f.get("infantry", 0)),
                int(f.get("cavalry", 0)),
                int(f.get("vedettes", 0)),
                tuple(str(g) for g in f.get("generals", ())),
                bool(f.get("fixed", False)),
                vedette_strength=(
                    None if f.get("vedette_strength") is None else int(f["vedette_strength"])
                ),
            )
        except (TypeError, ValueError) as e:
            raise DataError(src, f"{pid}: {e}", n) from None
    return out


def occupancy_of(pieces: Mapping[str, Piece]) -> dict[str, tuple[str, ...]]:
    occ: dict[str, list[str]] = {}
    for p in pieces.values():
        for h in p.hexes:
            occ.setdefault(h, []).append(p.id)
    return {h: tuple(v) for h, v in occ.items()}


#: A game of more pieces than this keeps the index of each side's hexes (``NabState.columns``):
#: with few pieces, probing the hexes within a support range costs less than keeping the index
#: at every move (issue 29: the sample's simulated games move about 16 times a fixing).
INDEXED_FROM = 64


def side_columns(
    hexmap: HexMap, pieces: Mapping[str, Piece]
) -> dict[str, dict[int, tuple[int, ...]]] | None:
    """The index of the hexes where each side has a piece (side -> :meth:`HexMap.columns`),
    for a game of more than :data:`INDEXED_FROM` pieces (None: a smaller game keeps none)."""
    if len(pieces) <= INDEXED_FROM:
        return None
    hexes: dict[str, dict[str, None]] = {}
    for p in pieces.values():
        hexes.setdefault(p.side, {}).update(dict.fromkeys(p.hexes))
    return {s: hexmap.columns(hs) for s, hs in hexes.items()}


def side_columns_changed(
    hexmap: HexMap,
    columns: Mapping[str, Mapping[int, tuple[int, ...]]],
    sides: Mapping[str, tuple[Sequence[str], Sequence[str]]],
) -> dict[str, Mapping[int, tuple[int, ...]]]:
    """The index of each side's hexes (:func:`side_columns`) after ``sides`` (side -> the
    hexes where it now has a piece, those where it no longer has one); a side left with no
    hex has no index, as at the start of a game."""
    out = dict(columns)
    for side, (added, removed) in sides.items():
        now = hexmap.columns_changed(out.get(side, {}), added, removed)
        if now:
            out[side] = now
        else:
            out.pop(side, None)
    return out
