"""The scenario builder's editor for 2 by 2 Napoleonics (rules/editor.py): a table in mm, its
terrain shapes, units placed and faced by taps, reinforcement points, and each side's set-up
AP against its budget (Game Setup)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vedette.rules.editor import TABLE, Editor, field
from vedette.rules.two_by_two.model import EDGES, FORMATIONS, TERRAIN_KINDS


def terrain_list() -> dict[str, Any]:
    """The table's terrain: shapes tapped on the table (Kuryakin's tables use the same)."""
    shape = [
        field("kind", "choice", choices=list(TERRAIN_KINDS), keep=True),
        field("name", "text", keep=True, default=""),
        field("points", "shape", "shape (tap the table)", keep=True),
    ]
    return {"key": "terrain", "label": "terrain", "tap": "points", "fields": shape}


def spec(data: Mapping[str, Any]) -> dict[str, Any]:
    terrain = terrain_list()
    types = list(data.get("units", {}))
    return {
        "board": "table",
        "head": [
            field("title", "text", keep=True),
            field("start", "choice", choices=["setup", "battle"], keep=True, default="setup"),
            field("attacker", "choice", source="sides", default=None),
            field("table.width", "number", "table width (mm)", **TABLE),
            field("table.depth", "number", "table depth (mm)", **TABLE),
            field("victory.threshold_ap", "count", "victory AP", keep=True, default=8),
            field("victory.max_turns", "count", "turns", keep=True, default=8),
        ],
        "lists": [
            {
                "key": "sides",
                "label": "sides",
                "fields": [
                    field("id", "text", keep=True),
                    field("name", "text", keep=True, default=None),
                    field("edge", "choice", choices=list(EDGES), keep=True),
                ],
            },
            terrain,
            {
                "key": "units",
                "label": "units",
                "tap": "xy",
                "fields": [
                    field("id", "text", keep=True),
                    field("side", "choice", source="list:sides", keep=True),
                    field("type", "choice", choices=types, keep=True),
                    field("name", "text", keep=True, default=None),
                    field("xy", "xy", "position (tap the table; none: in reserve)", default=None),
                    field("facing", "angle", default=0),
                    field("formation", "choice", choices=list(FORMATIONS), default="line"),
                    field("screened", "bool", default=False),
                ],
            },
            {
                "key": "rps",
                "label": "reinforcement points",
                "tap": "at",
                "fields": [
                    field("id", "text", keep=True),
                    field("side", "choice", source="list:sides", keep=True),
                    field("kind", "choice", choices=["rear", "flank"], keep=True),
                    field("at", "point", "arrival point (tap)", keep=True),
                    field("queue", "multi", source="units", keep=True, default=[]),
                ],
            },
        ],
        "tools": {"ap": {k: v.get("ap", 0) for k, v in data.get("units", {}).items()}},
    }


def notes(state: Any, data: Mapping[str, Any], rule_data: Mapping[str, Any]) -> list[str]:
    """Each side's AP in all and on the table at the start, against the set-up budget."""
    out: list[str] = []
    costs = rule_data.get("units", {})
    budget = rule_data.get("setup", {}).get("ap_each", 12)
    for side in data.get("sides", []):
        sid = side.get("id") if isinstance(side, dict) else None
        units = [u for u in data.get("units", []) if u.get("side") == sid]
        ap = sum(int(costs.get(u.get("type"), {}).get("ap", 0)) for u in units)
        placed = [u for u in units if "x" in u]
        put = sum(int(costs.get(u.get("type"), {}).get("ap", 0)) for u in placed)
        over = " (over the set-up budget)" if put > budget else ""
        out.append(
            f"{sid}: {ap} AP in all; {put} AP on the table at the start, set-up budget"
            f" {budget} AP each (2 by 2, Game Setup){over}"
        )
    return out


EDITOR = Editor(spec, "table", notes)
