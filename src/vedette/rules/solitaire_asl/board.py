"""The Solitaire ASL board: locations and stacks coloured by status (TI dashed), the shifts made."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from vedette.render.svg import (
    _hex_points,
    _side_colour,
    _svg,
    el,
    to_text,
)

# -- Solitaire ASL: locations and stacks ----------------------------------------------------------
ASL_STATUS = {
    "potential_dummy": ("#f1c40f", "potential dummy"),
    "dummy": ("#95a5a6", "dummy stack"),
    "concealed": ("#5d6d7e", "concealed"),
    "revealed": ("#2e86c1", "revealed"),
    "hip": ("#8e44ad", "HIP"),
    "dummy_hip": ("#c39bd3", "dummy HIP"),
    "cloaked": ("#17202a", "cloaked"),
}


def asl(state: Any, sj: Mapping[str, Any]) -> str:
    layout = state.layout
    used: set[str] = {s.location for s in state.stacks}
    used |= {f.location for f in state.fortifications}
    used |= {m.location for m in state.minefields}
    used |= {loc.id for loc in state.locations}
    used.discard("")
    ring: set[str] = set()
    for hid in used:
        try:
            ring.update(layout.neighbors(hid))
        except (KeyError, ValueError):
            continue
    cells = sorted(used | ring)
    flat = layout.convention.orientation == "flat" if hasattr(layout, "convention") else True
    size = 34.0
    pos: dict[str, tuple[float, float]] = {}
    for hid in cells:
        try:
            h = layout.hex(hid)
        except (KeyError, ValueError):
            continue
        pos[hid] = (size * 1.5 * h.q, size * math.sqrt(3) * (h.r + h.q / 2))
    minx = min(p[0] for p in pos.values()) - size * 1.2
    miny = min(p[1] for p in pos.values()) - size * 1.2 - 24
    maxx = max(p[0] for p in pos.values()) + size * 1.2
    maxy = max(p[1] for p in pos.values()) + size * 1.2
    root = _svg(max(maxx - minx, 660), maxy - miny, "ASL locations", "asl-board")
    shifts = ", ".join(f"{sd} {op}: {n}" for sd, _pk, op, n in state.counts) or "none"
    closed = ", ".join(f"{sd} {op}" for sd, op, _w in state.closed) or "none"
    el(
        root,
        "text",
        {"x": 6, "y": 14, "font-size": 12},
        f"{state.name} · {state.phasing} {state.phase} · shifts this phase: {shifts}"
        f" · closed: {closed}",
    )
    for i, (c, lbl) in enumerate(ASL_STATUS.values()):
        el(root, "rect", {"x": 6 + i * 92, "y": 20, "width": 10, "height": 10, "fill": c})
        el(root, "text", {"x": 19 + i * 92, "y": 29, "font-size": 9}, lbl)
    locs = {loc.id: loc for loc in state.locations}
    for hid, (x, y) in pos.items():
        loc = locs.get(hid)
        fill = "#f4f1e1" if hid in used else "#fbfaf4"
        tip = hid + (f" {loc.terrain} TEM {loc.tem:+d}" if loc is not None else "")
        if loc is not None and loc.los:
            tip += " (in enemy LOS)"
        poly = el(
            root,
            "polygon",
            {
                "class": "loc",
                "data-loc": hid,
                "data-pick": hid,
                "points": _hex_points(x - minx, y - miny, size, flat),
                "fill": fill,
                "stroke": "#aaa",
            },
        )
        el(poly, "title", None, tip)
        el(
            root,
            "text",
            {
                "x": x - minx,
                "y": y - miny - size * 0.62,
                "font-size": 8,
                "text-anchor": "middle",
                "fill": "#777",
                "pointer-events": "none",
            },
            hid,
        )
    for f in state.fortifications:
        if f.location in pos:
            x, y = pos[f.location]
            el(
                root,
                "text",
                {
                    "class": "fort",
                    "data-fort": f.id,
                    "x": x - minx - size * 0.8,
                    "y": y - miny + size * 0.75,
                    "font-size": 8,
                    "fill": "#6e2c00",
                    "data-pick": f.id,
                },
                f"{f.kind}{' (hidden)' if f.hidden else ''}",
            )
    for m in state.minefields:
        if m.location in pos:
            x, y = pos[m.location]
            label = f"mines {m.ap}AP/{m.at}AT" if (m.known or m.revealed) else "mines ?"
            el(
                root,
                "text",
                {
                    "class": "mines",
                    "data-mines": m.id,
                    "x": x - minx - size * 0.8,
                    "y": y - miny + size * 0.55,
                    "font-size": 8,
                    "fill": "#922b21",
                    "data-pick": m.id,
                },
                label,
            )
    by_loc: dict[str, list[Any]] = {}
    for s in state.stacks:
        by_loc.setdefault(s.location, []).append(s)
    sides = list(state.sides)
    for hid, stacks in by_loc.items():
        if hid not in pos:
            continue
        x, y = pos[hid]
        for i, s in enumerate(stacks):
            colour, label = ASL_STATUS.get(str(s.status), ("#666", str(s.status)))
            cx = x - minx - size * 0.45 + i * 14
            cy = y - miny - size * 0.35 + i * 6
            edge = _side_colour(sides, s.side)
            ti = bool(getattr(s, "ti", False))
            n = len(s.counters) or getattr(s, "dummies", 0)
            g = el(
                root,
                "g",
                {
                    "class": "stack",
                    "data-stack": s.id,
                    "data-loc": hid,
                    "data-status": str(s.status),
                    "data-pick": s.id,
                },
            )
            el(
                g,
                "rect",
                {
                    "x": cx,
                    "y": cy,
                    "width": 30,
                    "height": 26,
                    "rx": 3,
                    "fill": colour,
                    "stroke": edge,
                    "stroke-width": 4 if ti else 2.5,
                    "stroke-dasharray": "4 2" if ti else None,
                },
            )
            text = {"font-size": 10, "text-anchor": "middle", "fill": "#fff"}
            el(g, "text", {"x": cx + 15, "y": cy + 12, **text}, s.id)
            el(g, "text", {"x": cx + 15, "y": cy + 22, **text, "font-size": 7}, n)
            el(g, "title", None, f"{s.side} {label}{' TI' if ti else ''}: {n} counter(s)")
    return to_text(root)


board = asl
