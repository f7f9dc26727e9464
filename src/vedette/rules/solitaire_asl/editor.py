"""The scenario builder's editor for Solitaire ASL (rules/editor.py): the scenario's locations
tapped on a grid, its stacks, fortifications, minefields and OBA, and the HIP and hidden
allotments per side (SSR)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vedette.rules.editor import OWNED, Editor, field

#: terrain kinds the builder offers besides those of ``[terrain_tem]`` (which bring a TEM):
#: a hill or gully location is described by its TEM and LOS as set
MORE_TERRAIN = ["hill", "gully"]
STATUS = ["potential_dummy", "dummy", "hip", "dummy_hip", "concealed", "revealed"]
FORTIFICATIONS = ["foxhole", "trench", "pillbox", "roadblock", "wire", "tunnel"]
#: a TEM field: its range, and chips for the usual values (one tap, not steps)
TEM: dict[str, Any] = {"min": -2, "max": 5, "presets": [0, 1, 2, 3]}
#: the chip of a location's field left to its terrain
FROM_TERRAIN = "from the terrain"
_COUNTER_KINDS = ["squad", "hs", "leader", "sw", "gun", "vehicle", "hero"]


def terrain(data: Mapping[str, Any]) -> list[str]:
    """The terrain choices: the kinds of the rule data's ``[terrain_tem]`` (each brings its TEM,
    reading A29: a "rubble" of the builder's own list had none and counted TEM 0), then the
    others."""
    kinds = list(data.get("terrain_tem", {}))
    return kinds + [k for k in MORE_TERRAIN if k not in kinds]


def spec(data: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "board": "geomorphic",
        "head": [
            field("name", "text", "title", keep=True),
            field("sides", "names", "sides", keep=True, default=[]),
            field("first", "choice", "first side", source="sides", keep=True),
            field("night", "bool", keep=True, default=False),
            field("lv", "bool", "low visibility", default=False),
            field("extra_drm", "number", "extra DRM", keep=True, default=0, min=-5, max=5),
            field("boards", "boards", "boards", keep=True, default=[]),
        ],
        "lists": [
            {
                "key": "side",
                "label": "HIP and hidden allotments per side (SSR)",
                "fields": [
                    field("name", "choice", "side", source="sides", keep=True),
                    field("hip_squads", "number", "HIP squads", default=0, min=0, max=50),
                    field("hidden_ap", "count", "hidden AP factors", default=0),
                    field("hidden_at", "count", "hidden AT factors", default=0),
                ],
            },
            {
                "key": "locations",
                "label": "locations",
                "tap": "id",
                "fields": [
                    field("id", "hex", "location (tap the board)", keep=True),
                    field("terrain", "choice", choices=terrain(data), keep=True, default=""),
                    # left out unless set: the terrain gives them, as in a scenario file and
                    # the 'location' procedure (2.5 TEM: [terrain_tem], A29; 2.4: A41)
                    field("tem", "number", "TEM", default=None, unset=FROM_TERRAIN, **TEM),
                    field(
                        "concealment_terrain",
                        "bool",
                        "concealment terrain",
                        default=None,
                        unset=FROM_TERRAIN,
                    ),
                    field("los", "bool", "in enemy LOS", default=False),
                    field("lv", "bool", "LV hindrance", default=False),
                    field("forbid", "multi", choices=FORTIFICATIONS, default=[]),
                ],
            },
            {
                "key": "stacks",
                "label": "stacks (real, dummy, potential dummy, HIP)",
                "tap": "location",
                "fields": [
                    *OWNED,
                    field("location", "hex", "location (tap)", keep=True),
                    field("status", "choice", choices=STATUS, keep=True),
                    field("counters", "counters", default=[]),
                    field("dummies", "count", default=0),
                ],
            },
            {
                "key": "fortifications",
                "label": "fortifications",
                "tap": "location",
                "fields": [
                    *OWNED,
                    field("kind", "choice", choices=FORTIFICATIONS, keep=True),
                    field("location", "hex", "location (tap)", keep=True),
                    # left out unless set: the kind gives it ([fortification_tem])
                    field("tem", "number", "TEM", default=None, unset="from the kind", **TEM),
                    field("hidden", "bool", keep=True, default=True),
                ],
            },
            {
                "key": "minefields",
                "label": "minefields",
                "tap": "location",
                "fields": [
                    *OWNED,
                    field("location", "hex", "location (tap)", keep=True),
                    field("ap", "count", "AP factors", keep=True, default=0),
                    field("at", "count", "AT factors", default=0),
                    field("dummy", "bool", default=False),
                ],
            },
            {
                "key": "oba",
                "label": "OBA",
                "fields": [
                    *OWNED,
                    field("prereg", "bool", "pre-registered", default=False),
                ],
            },
        ],
        "tools": {},
    }


def notes(state: Any, data: Mapping[str, Any], rule_data: Mapping[str, Any]) -> list[str]:
    """The dummy HIP counters and dummy minefields left to place per side (O'Leary 3.1.1,
    4.6.1), with how the allotment was reckoned."""
    out: list[str] = []
    for a in getattr(state, "allotments", ()):
        left = a.dummy_hip - a.dummy_hip_placed
        mines = a.dummy_minefields - a.dummy_minefields_placed
        out.append(
            f"{a.side}: HIP capacity {a.hip_capacity}; {left} dummy HIP left to place;"
            f" {mines} dummy minefields left (O'Leary 3.1.1, 4.6.1)"
        )
        out += [f"  {x}" for x in a.explain]
    return out


EDITOR = Editor(spec, "grid", notes)
