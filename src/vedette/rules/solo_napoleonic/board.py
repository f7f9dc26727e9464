"""The Kuryakin table top: units with facing and markers, and the activation order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vedette.render.svg import (
    XML_SPACE,
    _font,
    _piece,
    _side_colour,
    _table_svg,
    el,
)


def solo_napoleonic(state: Any, sj: Mapping[str, Any]) -> str:
    from vedette.rules.solo_napoleonic import geom

    bodies = [(u, geom.body(u)) for u in state.units]
    placed = [(u, b) for u, b in bodies if b is not None]
    xs = [c.x for _, b in placed for c in b.corners()] + [g.x for g in state.generals if g.x]
    ys = [c.y for _, b in placed for c in b.corners()] + [g.y for g in state.generals if g.y]
    width = max(xs, default=600) + 100
    depth = max(ys, default=400) + 100
    sides: list[str] = []
    pieces = []
    for u, b in placed:
        colour = _side_colour(sides, u.side)
        tip = (
            f"{u.name} ({u.kind}, {u.side}) {u.figures} figures, {u.formation},"
            f" {u.disorder} disorder, {u.status}"
        )
        label = f"{u.id} {u.figures}" + (f" D{u.disorder}" if u.disorder else "")
        pieces.append(_piece(u.id, b, depth, colour, label, str(u.status), tip, _font(width)))
    fs = _font(width)
    for g in state.generals:
        if g.x is not None and g.y is not None and not g.killed:
            ge = el(None, "g", {"class": "general", "data-general": g.id, "data-pick": g.id})
            el(
                ge,
                "circle",
                {
                    "cx": g.x,
                    "cy": depth - g.y,
                    "r": f"{fs * 0.7:.0f}",
                    "fill": "#f5b041",
                    "stroke": "#111",
                },
            )
            el(
                ge,
                "text",
                {
                    "x": g.x,
                    "y": depth - g.y + fs * 1.8,
                    "font-size": f"{fs:.0f}",
                    "text-anchor": "middle",
                },
                g.id,
            )
            el(ge, "title", None, f"{g.name}: TH {g.th}, AV {g.av}, CR {g.cr}")
            pieces.append(ge)
    lines = [f"turn {sj.get('turn')} · {sj.get('phase')}", "activation order:"]
    active = sj.get("active")
    for c in state.queue():
        mark = "▶ " if c.holder == active else ("✓ " if c.holder in state.done else "  ")
        lines.append(f"{mark}{c.key_text()}: {c.holder} ({', '.join(c.units)})")
    extra: list[tuple[str, dict[str, object]]] = [
        (
            t,
            {
                "class": "card",
                "x": f"{width + 12:.0f}",
                "y": f"{fs * (4 + 1.5 * i):.0f}",
                "font-size": f"{fs:.0f}",
                XML_SPACE: "preserve",
            },
        )
        for i, t in enumerate(lines)
    ]
    return _table_svg(width, depth, (), pieces, str(state.title), extra, "tabletop solonap")


board = solo_napoleonic
