"""The 2 by 2 table top: terrain shapes, units with facing and markers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vedette.render.svg import (
    _font,
    _piece,
    _side_colour,
    _table_svg,
)


def two_by_two(state: Any, sj: Mapping[str, Any]) -> str:
    table = state.table
    sides: list[str] = []
    pieces = []
    off_table = []
    for u in state.units:
        colour = _side_colour(sides, u.side)
        marks = [m for m in ("pinned", "disrupted", "routed", "shot") if getattr(u, m, False)]
        status = str(u.status) if u.status != "table" else ("routed" if u.routed else "table")
        tip = f"{u.name} ({u.kind}, {u.side}) {' '.join(marks) or 'steady'}"
        if u.body is not None and u.status == "table":
            label = u.id + ("".join(f" {m[0].upper()}" for m in marks))
            pieces.append(
                _piece(u.id, u.body, table.depth, colour, label, status, tip, _font(table.width))
            )
        else:
            where = "position not tracked" if u.status == "table" else u.status
            off_table.append(f"{u.id} ({where})")
    lines = [
        str(sj.get("phase_text", "")),
        "scores: " + ", ".join(f"{k} {v}" for k, v in dict(sj.get("scores", {})).items()),
    ]
    lines += ["not on the map:", *off_table] if off_table else []
    lines += ["P = pinned, D = disrupted, R = routed, S = has shot"]
    fs = _font(table.width)
    extra: list[tuple[str, dict[str, object]]] = [
        (
            t,
            {
                "x": f"{table.width + 12:.0f}",
                "y": f"{fs * (4 + 1.5 * i):.0f}",
                "font-size": f"{fs:.0f}",
            },
        )
        for i, t in enumerate(lines)
    ]
    head = str(getattr(state, "title", "") or "2 by 2 Napoleonics")
    return _table_svg(table.width, table.depth, table.features, pieces, head, extra, "tabletop")


board = two_by_two
