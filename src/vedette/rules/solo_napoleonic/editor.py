"""The scenario builder's editor for the Solo Napoleonic Wargames Rules (rules/editor.py): a
table in mm with the 2 by 2 terrain shapes, the generals' command structure and the units,
placed and faced by taps."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vedette.rules.editor import Editor, field, number
from vedette.rules.solo_napoleonic.model import GRADES, KINDS, RANKS
from vedette.rules.two_by_two.editor import terrain_list

FORMATIONS = [
    "line",
    "column",
    "square",
    "skirmish",
    "mounted",
    "unlimbered",
    "limbered",
]


def spec(data: Mapping[str, Any]) -> dict[str, Any]:
    terrain = terrain_list()
    return {
        "board": "table",
        "head": [
            field("title", "text", keep=True),
            field("sides", "names", keep=True, default=[]),
        ],
        "lists": [
            terrain,
            {
                "key": "generals",
                "label": "generals (command structure)",
                "tap": "xy",
                "fields": [
                    field("id", "text", keep=True),
                    field("name", "text", keep=True),
                    field("side", "choice", source="sides", keep=True),
                    field("rank", "choice", choices=list(RANKS), keep=True),
                    field("nation", "text", keep=True, default=""),
                    field("superior", "choice", source="generals", default=None),
                    field("xy", "xy", "position (tap the table)", default=None),
                ],
            },
            {
                "key": "units",
                "label": "units",
                "tap": "xy",
                "fields": [
                    field("id", "text", keep=True),
                    field("name", "text", keep=True),
                    field("side", "choice", source="sides", keep=True),
                    field("kind", "choice", choices=list(KINDS), keep=True),
                    field("grade", "choice", choices=list(GRADES), keep=True),
                    field("figures", "count", keep=True, default=0),
                    field("brigade", "choice", source="generals", keep=True, default=None),
                    field("formation", "choice", choices=FORMATIONS, keep=True),
                    field("front", "count", "front rank figures", default=0),
                    field("xy", "xy", "position (tap the table)", keep=True, default=None),
                    field("facing", "angle", keep=True, default=0),
                ],
            },
        ],
        "tools": {},
    }


def table_size(data: Mapping[str, Any]) -> tuple[float, float]:
    """Kuryakin's scenarios name no table size: the sample's 1800 x 1200 mm, or more to hold
    every unit placed."""
    xs = [number(u.get("x"), 0) for u in data.get("units", []) if isinstance(u, dict)]
    ys = [number(u.get("y"), 0) for u in data.get("units", []) if isinstance(u, dict)]
    return max([1800.0, *xs]), max([1200.0, *ys])


EDITOR = Editor(spec, "table", piece=(40.0, 16.0), table_size=table_size)
