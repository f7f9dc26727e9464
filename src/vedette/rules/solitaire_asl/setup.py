"""Scenario set-up (O'Leary 2.1, 3.1, 4.1, 4.6.1): the state a scenario starts from, and the
dummy counters each side is allotted.

A scenario is a TOML mapping (see ``data/sample.toml``): ``sides``, ``first``, ``night``,
``extra_drm`` (the 2.5 remark), ``lv``, ``boards``, ``locations``, ``stacks``,
``fortifications``, ``minefields``, ``oba`` and per-side ``side`` entries (``hip_squads`` as
granted by SSR; ``hidden_ap``/``hidden_at`` as allotted).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from vedette.errors import BadRequest, DataError
from vedette.rules.solitaire_asl.config import Config
from vedette.rules.solitaire_asl.ids import layout_from_data, parse_hex_id
from vedette.rules.solitaire_asl.model import (
    COUNTER_KINDS,
    FORTIFICATION_KINDS,
    GUN_SIZES,
    VEHICLE_SIZES,
    Allotment,
    Counter,
    Fortification,
    Location,
    Minefield,
    ObaModule,
    Stack,
    State,
    Status,
    kind_words,
    natural_key,
)

SRC = "solitaire_asl scenario"
_SQUAD = re.compile(r"^\d+-\d+-\d+$")
_LEADER = re.compile(r"^\d+-\d+$")
_SW = ("LMG", "MMG", "HMG", ".50", "ATR", "PSK", "BAZ", "PIAT", "DC", "FT", "MTR", "RCL", "PF")


def infer_kind(name: str) -> str:
    """A counter kind from its printed name, for the shorthand ``counters = ["4-6-7", "LMG"]``:
    x-y-z is a squad, x-y a leader, a support-weapon abbreviation a SW, else "other"."""
    n = name.strip()
    if _SQUAD.match(n):
        return "squad"
    if _LEADER.match(n):
        return "leader"
    if any(n.upper().startswith(p) for p in _SW):
        return "sw"
    return "other"


def counter_from_data(d: Any, default_id: str, where: str) -> Counter:
    if isinstance(d, str):
        return Counter(default_id, d, infer_kind(d))
    if not isinstance(d, Mapping) or "name" not in d:
        raise DataError(SRC, "a counter needs a 'name'", where)
    kind = str(d.get("kind", infer_kind(str(d["name"]))))
    if kind not in COUNTER_KINDS:
        raise DataError(SRC, f"counter kind {kind!r} is not one of {COUNTER_KINDS}", where)
    size = str(d.get("size", "normal" if kind in ("gun", "vehicle") else ""))
    if kind == "gun" and size not in GUN_SIZES:
        raise DataError(SRC, f"gun size {size!r} is not one of {GUN_SIZES}", where)
    if kind == "vehicle" and size not in VEHICLE_SIZES:
        raise DataError(SRC, f"vehicle size {size!r} is not one of {VEHICLE_SIZES}", where)
    data = dict(d)
    data.setdefault("id", default_id)
    data["kind"] = kind
    data["size"] = size
    if data.get("emplaced") and "may_emplace" not in data:
        data["may_emplace"] = True  # emplaced at the start: it was allowed to (O'Leary 2.3)
    if data.get("boresight") is True:
        data["boresight"] = "eligible"
    elif data.get("boresight") is False:
        data["boresight"] = "none"
    try:
        return Counter.from_json(data)
    except (TypeError, ValueError) as e:
        raise DataError(SRC, f"bad counter: {e}", where) from None


def _list(scenario: Mapping[str, Any], key: str) -> list[Any]:
    v = scenario.get(key, [])
    if isinstance(v, Mapping):  # [locations."4P5"] style
        return [{"id": k, **dict(x)} for k, x in v.items()]
    if not isinstance(v, Sequence) or isinstance(v, str):
        raise DataError(SRC, f"'{key}' must be a list")
    return list(v)


def _check_loc(lid: str, where: str) -> str:
    try:
        parse_hex_id(lid)
    except BadRequest as e:
        raise DataError(SRC, str(e), where) from None
    return lid


def build_state(scenario: Mapping[str, Any], options: Mapping[str, Any], config: Config) -> State:
    """The state at the start of the scenario (phase "setup")."""
    sides = tuple(str(s) for s in scenario.get("sides", ()))
    if len(sides) != 2:
        raise DataError(SRC, "'sides' must name the two sides")
    first = str(scenario.get("first", sides[0]))
    if first not in sides:
        raise DataError(SRC, f"'first' must be one of {sides}")

    def side_of(d: Mapping[str, Any], where: str) -> str:
        s = str(d.get("side", ""))
        if s not in sides:
            raise DataError(SRC, f"side {s!r} is not one of {sides}", where)
        return s

    used: list[str] = []
    locations: dict[str, Location] = {}
    for i, d in enumerate(_list(scenario, "locations"), 1):
        where = f"locations {i}"
        if not isinstance(d, Mapping) or "id" not in d:
            raise DataError(SRC, "a location needs an 'id'", where)
        loc = Location.from_json(d)
        if "tem" not in d and loc.terrain in config.terrain_tem:
            # 2.5 -TEM: a terrain written without a TEM brings its TEM, as the 'location'
            # procedure does ([terrain_tem], reading A29)
            loc = replace(loc, tem=int(config.terrain_tem[loc.terrain]))
        if "concealment_terrain" not in d and loc.terrain in config.terrain_concealment:
            # 2.4: open ground is no Concealment Terrain (reading A41)
            loc = replace(loc, concealment_terrain=bool(config.terrain_concealment[loc.terrain]))
        _check_loc(loc.id, where)
        for k in loc.forbid:
            if k not in FORTIFICATION_KINDS:
                raise DataError(SRC, f"unknown fortification kind {k!r} in forbid", where)
        locations[loc.id] = loc
        used.append(loc.id)

    stacks: list[Stack] = []
    ids: set[str] = set()
    for i, d in enumerate(_list(scenario, "stacks"), 1):
        where = f"stacks {i}"
        if not isinstance(d, Mapping):
            raise DataError(SRC, "a stack must be a table", where)
        sid = str(d.get("id") or d.get("name") or f"S{i}")  # the player's name is the id
        if sid in ids:
            raise DataError(SRC, f"duplicate id {sid!r}", where)
        ids.add(sid)
        try:
            status = Status(str(d.get("status", "potential_dummy")))
        except ValueError:
            raise DataError(
                SRC, f"status must be one of {[s.value for s in Status]}", where
            ) from None
        counters = tuple(
            counter_from_data(c, f"{sid}.{j}", f"{where} counter {j}")
            for j, c in enumerate(d.get("counters", []), 1)
        )
        dummies = int(d.get("dummies", 0))
        if status == Status.DUMMY and (counters or dummies < 1):
            raise DataError(SRC, "a dummy stack has no real counters and dummies >= 1", where)
        if status == Status.DUMMY_HIP:
            counters, dummies = (), 1
        if status not in (Status.DUMMY, Status.DUMMY_HIP, Status.CLOAKED) and not counters:
            raise DataError(SRC, f"a {status.value} stack needs real counters", where)
        if status == Status.CLOAKED and not counters:
            dummies = 1
        for c in counters:
            if c.id in ids:
                raise DataError(SRC, f"duplicate id {c.id!r}", where)
            ids.add(c.id)
        lid = _check_loc(str(d.get("location", "")), where)
        used.append(lid)
        stacks.append(
            Stack(
                sid,
                side_of(d, where),
                lid,
                status,
                counters,
                dummies,
                str(d.get("position", "")),
            )
        )

    ftem = config.fortification_tem
    forts: list[Fortification] = []
    for i, d in enumerate(_list(scenario, "fortifications"), 1):
        where = f"fortifications {i}"
        kind = str(d.get("kind", ""))
        if kind not in FORTIFICATION_KINDS:
            raise DataError(SRC, f"fortification kind must be one of {FORTIFICATION_KINDS}", where)
        fid = str(d.get("id", f"F{i}"))
        if fid in ids:
            raise DataError(SRC, f"duplicate id {fid!r}", where)
        ids.add(fid)
        dd = {"id": fid, "tem": ftem[kind], **dict(d), "side": side_of(d, where)}
        f = Fortification.from_json(dd)
        if kind != "tunnel":
            _check_loc(f.location, where)
            used.append(f.location)
        if f.location and kind in locations.get(f.location, Location(f.location)).forbid:
            raise DataError(SRC, f"a {kind_words(kind)} may not be set up in {f.location}", where)
        if f.ca and not config.fortification_ca.get(kind, False):
            # O'Leary 4.4: only some kinds "possess a well defined CA" (reading A39)
            raise DataError(SRC, f"a {kind_words(kind)} has no covered arc (ca {f.ca!r})", where)
        if f.complex and kind != "cave":
            raise DataError(
                SRC, f"only caves belong to cave complexes (complex {f.complex!r})", where
            )
        if f.exit and kind != "tunnel":
            raise DataError(SRC, f"only tunnels have exits (exit {f.exit!r})", where)
        forts.append(f)

    mines: list[Minefield] = []
    for i, d in enumerate(_list(scenario, "minefields"), 1):
        where = f"minefields {i}"
        mid = str(d.get("id", f"M{i}"))
        if mid in ids:
            raise DataError(SRC, f"duplicate id {mid!r}", where)
        ids.add(mid)
        m = Minefield.from_json({"id": mid, **dict(d), "side": side_of(d, where)})
        _check_loc(m.location, where)
        there = next(
            (x.id for x in mines if x.location == m.location and (m.dummy or x.dummy)), None
        )
        if there is not None:
            # 4.6.1, 4.6.2: a dummy minefield is another location the mines may be in; one
            # beside a minefield counter hides nothing (reading A47, as ``place`` refuses it)
            raise DataError(
                SRC,
                f"{m.location} holds minefields {there} and {mid}: a dummy minefield goes where"
                " no other minefield counter is (O'Leary 4.6.1, reading A47)",
                where,
            )
        used.append(m.location)
        mines.append(m)

    oba = []
    for i, d in enumerate(_list(scenario, "oba"), 1):
        where = f"oba {i}"
        oid = str(d.get("id", f"O{i}"))
        oba.append(ObaModule.from_json({"id": oid, **dict(d), "side": side_of(d, where)}))

    layout = layout_from_data(scenario.get("boards"), scenario.get("grid"), SRC, used)
    side_data = {str(d.get("name", "")): d for d in _list(scenario, "side")}
    allots = tuple(allotment(s, side_data.get(s, {}), stacks, forts, mines, config) for s in sides)
    for a in allots:
        if a.dummy_hip_placed > a.dummy_hip:
            raise DataError(
                SRC,
                f"{a.side} places {a.dummy_hip_placed} dummy HIP counters but is allotted"
                f" {a.dummy_hip} (O'Leary 3.1.1)",
            )
        if a.dummy_minefields_placed > a.dummy_minefields:
            raise DataError(
                SRC,
                f"{a.side} places {a.dummy_minefields_placed} dummy minefields but is allotted"
                f" {a.dummy_minefields} (O'Leary 4.6.1)",
            )
    night = bool(scenario.get("night", False))
    if any(s.status == Status.CLOAKED for s in stacks) and not night:
        raise DataError(SRC, "cloaked stacks need a night scenario (O'Leary 5)")
    return State(
        name=str(scenario.get("name", "scenario")),
        sides=sides,
        layout=layout,
        night=night,
        extra_drm=int(scenario.get("extra_drm", 0)),
        lv=bool(scenario.get("lv", False)),
        first=first,
        phasing=first,
        locations=tuple(sorted(locations.values(), key=lambda x: natural_key(x.id))),
        stacks=tuple(sorted(stacks, key=lambda x: natural_key(x.id))),
        fortifications=tuple(forts),
        minefields=tuple(mines),
        oba=tuple(oba),
        allotments=allots,
        options=dict(options),
        config=config,
    )


def hip_capacity(side: str, stacks: Sequence[Stack], config: Config) -> float:
    """HIP squad capacity of a side's HIP units by the ``hip_capacity`` weights (3.1.1)."""
    w = config.hip_capacity
    return sum(
        w[c.kind] for s in stacks if s.side == side and s.status == Status.HIP for c in s.counters
    )


def allotment(
    side: str,
    sd: Mapping[str, Any],
    stacks: Sequence[Stack],
    forts: Sequence[Fortification],
    mines: Sequence[Minefield],
    config: Config,
) -> Allotment:
    """Dummy counters allotted to a side (O'Leary 3.1.1, 4.1, 4.6.1), with the reasons."""
    a = config.allotment
    explain: list[str] = []
    if "hip_squads" in sd:
        cap = math.ceil(float(sd["hip_squads"]))
        how = "granted by SSR"
    else:
        cap = math.ceil(hip_capacity(side, stacks, config) - 1e-9)
        how = "from its HIP units"
    n = 0
    if cap > 0:
        n = cap + a.dummy_hip_extra
        explain.append(f"{n} for HIP squad capacity {cap} ({how}) + 1 (O'Leary 3.1.1)")
    # 4.1: a fortification "containing" HIP units or dummy HIP counters at the start brings no
    # dummy of its own (knob: count only HIP units, the dummy HIP counters set up aside)
    with_dummies = a.fortification_with_dummy_hip_counts
    covering = (Status.HIP,) if with_dummies else (Status.HIP, Status.DUMMY_HIP)
    hip_locs = {s.location for s in stacks if s.side == side and s.status in covering}
    plain = [
        f
        for f in forts
        if f.side == side and f.hidden and f.kind not in ("panji", "tunnel")
        if f.location not in hip_locs
    ]
    if plain:
        n += len(plain)
        explain.append(
            f"{len(plain)} for hidden fortifications without HIP units"
            f" ({', '.join(f.id for f in plain)}) (O'Leary 4.1)"
        )
    panji = sum(
        f.hexsides or 1
        for f in forts
        if f.side == side and f.hidden and f.kind == "panji" and f.location not in hip_locs
    )
    if panji:
        per = a.panji_hexsides_per_dummy
        k = -(-panji // per) if a.panji_rounding == "up" else panji // per
        n += k
        explain.append(f"{k} for {panji} panji covered hexsides (O'Leary 4.1)")
    placed = sum(1 for s in stacks if s.side == side and s.status == Status.DUMMY_HIP)

    real = [m for m in mines if m.side == side and not m.known and not m.dummy]
    ap = int(sd.get("hidden_ap", sum(m.ap for m in real)))
    at = int(sd.get("hidden_at", sum(m.at for m in real)))
    per_ap = a.ap_factors_per_dummy_minefield
    ap_d = -(-ap // per_ap) if a.ap_rounding == "up" else ap // per_ap
    at_d = at // a.at_factors_per_dummy_minefield
    if ap_d or at_d:
        explain.append(
            f"{ap_d + at_d} dummy minefields for {ap} AP factors and {at} AT factors"
            " (O'Leary 4.6.1)"
        )
    mplaced = sum(1 for m in mines if m.side == side and m.dummy)
    return Allotment(side, cap, n, placed, ap_d + at_d, mplaced, tuple(explain))
