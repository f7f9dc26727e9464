"""The scenario builder's editor for Napoleon At Bay (rules/editor.py): a hex map chosen from
the bundled ones, forces placed by tapping their hexes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vedette.rules.editor import OWNED, Editor, field
from vedette.rules.napoleon_at_bay.model import BUNDLED_MAPS


def spec(data: Mapping[str, Any]) -> dict[str, Any]:
    terrain = list(data.get("terrain", {}))
    sides_kinds = [k for k, v in data.get("hexsides", {}).items() if not v.get("road")]
    roads = [k for k, v in data.get("hexsides", {}).items() if v.get("road")]
    return {
        "board": "hex",
        "head": [
            field("scenario.title", "text", "title", keep=True),
            field("scenario.series", "choice", "series", choices=list(data["series"]), keep=True),
            field("scenario.first", "choice", "first side", source="sides", keep=True),
            field("sides", "pairs", "sides (id and name)", keep=True, default={}),
            field("map", "nabmap", "map", maps=[m for m in BUNDLED_MAPS if m.endswith(".toml")]),
        ],
        "lists": [
            {
                "key": "forces",
                "label": "forces",
                "tap": "hexes",
                "fields": [
                    *OWNED,
                    field("kind", "choice", choices=list(data["pieces"]), default="force"),
                    field("name", "text", default=""),
                    field("hexes", "hexes", "hexes (tap the board)", keep=True, default=[]),
                    field("infantry", "count", "infantry SP", default=0),
                    field("cavalry", "count", "cavalry SP", default=0),
                    field("vedettes", "count", default=0),
                    field("generals", "names", default=[]),
                    field("fixed", "bool", default=False),
                ],
            }
        ],
        "tools": {"terrain": terrain, "roads": roads, "hexsides": sides_kinds},
    }


EDITOR = Editor(spec, "hex")
