"""SVG board views per ruleset (registered with :func:`vedette.web.boards.renderer`).

Each view draws from the game state only; pickable things carry ``data-pick``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from html import escape
from typing import Any

from vedette.web.boards import renderer

SIDE_COLOURS = ["#2f5597", "#b03a2e", "#1e8449", "#7d3c98"]


def _side_colour(sides: list[str], side: str) -> str:
    if side not in sides:
        sides.append(side)
    return SIDE_COLOURS[sides.index(side) % len(SIDE_COLOURS)]


def _svg(w: float, h: float, body: str, label: str, cls: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board {cls}" viewBox="0 0 {w:.0f} {h:.0f}"'
        f' role="img" aria-label="{escape(label)}" font-family="sans-serif">{body}</svg>'
    )


# -- Napoleon At Bay: the hex map ----------------------------------------------------------------
NAB_TERRAIN = {
    "clear": "#eef0d8",
    "town": "#d9c7a7",
    "city": "#c9a77c",
    "forest": "#9cc08a",
    "rough": "#c8b28f",
    "marsh": "#b9d3c9",
    "lake": "#8fb8de",
    "mountain": "#a89f91",
}


@renderer("napoleon_at_bay")
def nab(state: Any, sj: Mapping[str, Any]) -> str:
    m = state.map
    size = 26.0
    pts: dict[str, tuple[float, float]] = {}
    for hid, h in zip(m.ids, m.axial, strict=True):
        if m.convention.orientation == "flat":
            x, y = size * 1.5 * h.q, size * math.sqrt(3) * (h.r + h.q / 2)
        else:
            x, y = size * math.sqrt(3) * (h.q + h.r / 2), size * 1.5 * h.r
        pts[hid] = (x, y)
    minx = min(p[0] for p in pts.values()) - size * 1.5
    miny = min(p[1] for p in pts.values()) - size * 1.5
    maxx = max(p[0] for p in pts.values()) + size * 1.5
    maxy = max(p[1] for p in pts.values()) + size * 1.5
    start = 0 if m.convention.orientation == "flat" else 30

    def corners(x: float, y: float, s: float) -> str:
        return " ".join(
            f"{x - minx + s * math.cos(math.radians(start + 60 * k)):.1f},"
            f"{y - miny + s * math.sin(math.radians(start + 60 * k)):.1f}"
            for k in range(6)
        )

    moving = sj.get("moving")
    zoc: set[str] = set()
    fixed_hexes: set[str] = set()
    for p in state.pieces.values():
        if state.is_force(p) and p.id != moving and p.side != state.phasing:
            for hx in p.hexes:
                zoc.update(m.zoc(hx) if callable(getattr(m, "zoc", None)) else m.neighbors(hx))
        if p.fixed:
            fixed_hexes.update(p.hexes)
    out: list[str] = []
    for hid, (x, y) in pts.items():
        terr = m.terrain[m.index(hid)]
        fill = NAB_TERRAIN.get(terr, "#eeeeee")
        cls = "hex zoc" if hid in zoc else "hex"
        out.append(
            f'<polygon class="{cls}" data-hex="{hid}" data-pick="{hid}"'
            f' points="{corners(x, y, size)}"'
            f' fill="{fill}" stroke="#999" stroke-width="0.8"><title>{hid} {escape(terr)}'
            f"{' (enemy ZOC)' if hid in zoc else ''}</title></polygon>"
        )
        if hid in zoc:
            out.append(
                f'<polygon points="{corners(x, y, size * 0.92)}" fill="none" stroke="#d4a017"'
                ' stroke-width="2" stroke-dasharray="3 3" pointer-events="none"/>'
            )
        name = m.names.get(hid, "")
        out.append(
            f'<text x="{x - minx:.1f}" y="{y - miny - size * 0.55:.1f}" font-size="7"'
            f' text-anchor="middle" fill="#555" pointer-events="none">{hid}</text>'
        )
        if name:
            out.append(
                f'<text x="{x - minx:.1f}" y="{y - miny + size * 0.75:.1f}" font-size="7"'
                f' text-anchor="middle" fill="#333" pointer-events="none">{escape(name)}'
                "</text>"
            )
    last = sj.get("last") or {}
    for ch in last.get("changes", []):
        for a, b in zip(ch.get("from", []), ch.get("to", []), strict=False):
            if a in pts and b in pts and a != b:
                (x1, y1), (x2, y2) = pts[a], pts[b]
                out.append(
                    f'<line class="swap" data-force="{escape(ch["force"])}" x1="{x1 - minx:.1f}"'
                    f' y1="{y1 - miny:.1f}" x2="{x2 - minx:.1f}" y2="{y2 - miny:.1f}"'
                    ' stroke="#e67e22" stroke-width="2.5" marker-end="url(#arrow)" opacity="0.85"/>'
                )
    sides: list[str] = list(sj.get("sides", {}))
    for p in state.pieces.values():
        colour = _side_colour(sides, p.side)
        for i, hx in enumerate(p.hexes):
            if hx not in pts:
                continue
            x, y = pts[hx]
            cx, cy = x - minx, y - miny
            w = size * 1.1
            fixed = ' stroke="#ffd400" stroke-width="3"' if p.fixed else ' stroke="#111"'
            label = p.id if len(p.hexes) == 1 else f"{p.id}.{i + 1}"
            out.append(
                f'<g class="piece" data-piece="{escape(p.id)}" data-hex="{hx}"'
                f' data-pick="{escape(p.id)}" data-fixed="{str(p.fixed).lower()}">'
                f'<rect x="{cx - w / 2:.1f}" y="{cy - w / 2.6:.1f}" width="{w:.1f}"'
                f' height="{w / 1.3:.1f}" rx="3" fill="{colour}"{fixed}/>'
                f'<text x="{cx:.1f}" y="{cy + 4:.1f}" font-size="10" text-anchor="middle"'
                f' fill="#fff">{escape(label)}</text>'
                f"<title>{escape(p.name)} ({escape(p.kind)}): {p.infantry} inf, {p.cavalry} cav,"
                f" {p.vedettes} vedette{'s' if p.vedettes != 1 else ''}"
                f"{' - FIXED' if p.fixed else ''}</title></g>"
            )
    defs = (
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6"'
        ' markerHeight="6" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#e67e22"/>'
        "</marker></defs>"
    )
    head = (
        f'<text x="6" y="14" font-size="12">{escape(str(sj.get("title", "")))} · turn'
        f" {sj.get('turn')} · {escape(str(sj.get('phasing')))} {escape(str(sj.get('phase')))}"
        "</text>"
    )
    return _svg(maxx - minx, maxy - miny, defs + head + "".join(out), "hex map", "nab-board")
