"""The Napoleon At Bay board: the hex map, its terrain, roads and rivers, the pieces (fixed ones
ringed), ZOCs outlined, and the latest swap drawn as arrows."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from vedette.render.svg import (
    _side_colour,
    _svg,
    badge,
    el,
    fan,
    keep_layer,
    layer_key,
    layer_slot,
    legend_entry,
    to_text,
)
from vedette.rules.napoleon_at_bay.ruleset import _enemy_zocs

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


class _Geometry:
    """A map's drawing geometry (hex centres, the box, each hex's outline and inner ZOC
    outline): it depends on the map alone, so it is built once per map, not per drawing."""

    __slots__ = ("inner", "key", "layer", "maxx", "maxy", "minx", "miny", "outline", "pts")

    def __init__(self, m: Any, size: float) -> None:
        pts: dict[str, tuple[float, float]] = {}
        for hid, h in zip(m.ids, m.axial, strict=True):
            if m.convention.orientation == "flat":
                x, y = size * 1.5 * h.q, size * math.sqrt(3) * (h.r + h.q / 2)
            else:
                x, y = size * math.sqrt(3) * (h.q + h.r / 2), size * 1.5 * h.r
            pts[hid] = (x, y)
        self.pts = pts
        self.minx = min(p[0] for p in pts.values()) - size * 1.5
        self.miny = min(p[1] for p in pts.values()) - size * 1.5
        self.maxx = max(p[0] for p in pts.values()) + size * 1.5
        self.maxy = max(p[1] for p in pts.values()) + size * 1.5
        start = 0 if m.convention.orientation == "flat" else 30
        unit = [
            (math.cos(math.radians(start + 60 * k)), math.sin(math.radians(start + 60 * k)))
            for k in range(6)
        ]

        def corners(x: float, y: float, s: float) -> str:
            x, y = x - self.minx, y - self.miny
            return " ".join(f"{x + s * c:.1f},{y + s * d:.1f}" for c, d in unit)

        self.outline = {hid: corners(x, y, size) for hid, (x, y) in pts.items()}
        self.inner = {hid: corners(x, y, size * 0.92) for hid, (x, y) in pts.items()}
        self.layer: str | None = None  # the map layer's text (see _map_layer)
        self.key = ""  # and its key among the static layers (render.svg.layer_key)


#: the geometry of each map drawn, by the map's identity (a map is immutable once built)
_GEOMETRY: dict[int, tuple[Any, _Geometry]] = {}


def _geometry(m: Any, size: float) -> _Geometry:
    hit = _GEOMETRY.get(id(m))
    if hit is not None and hit[0] is m:
        return hit[1]
    geo = _Geometry(m, size)
    if len(_GEOMETRY) > 32:
        _GEOMETRY.clear()
    _GEOMETRY[id(m)] = (m, geo)  # the map is held, so its id is not reused while cached
    return geo


def _map_layer(m: Any, geo: _Geometry, size: float) -> str:
    """The map's own drawing (hexes, their ids, names and terrain, roads and hexside
    features) as text: it depends on the map alone, so it is written once per map."""
    pts, minx, miny = geo.pts, geo.minx, geo.miny
    layer = el(None, "g", {"class": "map"})
    for hid, (x, y) in pts.items():
        terr = m.terrain[m.index(hid)]
        fill = NAB_TERRAIN.get(terr, "#eeeeee")
        poly = el(
            layer,
            "polygon",
            {
                "class": "hex",
                "data-hex": hid,
                "data-pick": hid,
                "points": geo.outline[hid],
                "fill": fill,
                "stroke": "#999",
                "stroke-width": "0.8",
            },
        )
        el(poly, "title", None, f"{hid} {terr}")
        name = m.names.get(hid, "") or (terr if terr != "clear" else "")
        small = {"font-size": 8, "text-anchor": "middle", "pointer-events": "none"}
        el(
            layer,
            "text",
            {"x": x - minx, "y": y - miny - size * 0.55, "fill": "#555", **small},
            hid,
        )
        if name:
            el(
                layer,
                "text",
                {"x": x - minx, "y": y - miny + size * 0.75, "fill": "#333", **small},
                name,
            )
    # hexside features: roads run centre to centre, the rest (rivers, bridges) mark the edge
    idx_pts = [pts[hid] for hid in m.ids]
    for (i, j), feats in m.hexside_features.items():
        (x1, y1), (x2, y2) = idx_pts[i], idx_pts[j]
        kinds = [m.hexside_kinds[f] for f in feats if f in m.hexside_kinds]
        names = " ".join(sorted(feats))
        if any(k.road for k in kinds):
            line = el(
                layer,
                "line",
                {
                    "class": "road",
                    "x1": x1 - minx,
                    "y1": y1 - miny,
                    "x2": x2 - minx,
                    "y2": y2 - miny,
                    "stroke": "#8d6e63",
                    "stroke-width": 3,
                    "pointer-events": "none",
                },
            )
            el(line, "title", None, names)
        edge = [k for k in kinds if not k.road]
        if edge:
            mx, my = (x1 + x2) / 2 - minx, (y1 + y2) / 2 - miny
            dx, dy = x2 - x1, y2 - y1
            length = math.hypot(dx, dy) or 1.0
            px, py = -dy / length * size / 2, dx / length * size / 2
            colour = "#2e86c1" if any(k.extra is not None for k in edge) else "#17202a"
            line = el(
                layer,
                "line",
                {
                    "class": "hexside",
                    "x1": mx - px,
                    "y1": my - py,
                    "x2": mx + px,
                    "y2": my + py,
                    "stroke": colour,
                    "stroke-width": 4,
                    "stroke-linecap": "round",
                },
            )
            el(line, "title", None, names)
    return to_text(layer)


def nab(state: Any, sj: Mapping[str, Any]) -> str:
    m = state.map
    size = 26.0
    geo = _geometry(m, size)
    pts = geo.pts
    minx, miny, maxx, maxy = geo.minx, geo.miny, geo.maxx, geo.maxy

    moving = sj.get("moving")
    zoc: set[str] = set()
    fixed_hexes: set[str] = set()
    for p in state.pieces.values():
        if state.is_force(p) and p.id != moving and p.side != state.phasing:
            for hx in p.hexes:
                zoc.update(m.zoc(hx) if callable(getattr(m, "zoc", None)) else m.neighbors(hx))
        if p.fixed:
            fixed_hexes.update(p.hexes)
    root = _svg(maxx - minx, maxy - miny, "hex map", "nab-board")
    defs = el(root, "defs")
    marker = el(
        defs,
        "marker",
        {
            "id": "arrow",
            "viewBox": "0 0 10 10",
            "refX": 9,
            "refY": 5,
            "markerWidth": 6,
            "markerHeight": 6,
            "orient": "auto",
        },
    )
    el(marker, "path", {"d": "M0,0 L10,5 L0,10 z", "fill": "#e67e22"})
    el(
        root,
        "text",
        {"x": 6, "y": 14, "font-size": 13},
        f"{sj.get('title', '')} · turn {sj.get('turn')} · {sj.get('phasing')} {sj.get('phase')}",
    )
    if geo.layer is None:
        geo.layer = _map_layer(m, geo, size)
        geo.key = layer_key(geo.layer)
    else:
        keep_layer(geo.key, geo.layer)  # (kept among the layers drawn lately)
    layer_slot(root, geo.key)  # the map's own drawing: a static layer (render.svg)
    for hid in sorted(zoc):  # enemy ZOCs outlined over the map
        if hid in geo.inner:
            el(
                root,
                "polygon",
                {
                    "class": "zoc",
                    "points": geo.inner[hid],
                    "fill": "none",
                    "stroke": "#d4a017",
                    "stroke-width": 2,
                    "stroke-dasharray": "3 3",
                    "pointer-events": "none",
                },
            )
    last = sj.get("last") or {}
    for ch in last.get("changes", []):
        for a, b in zip(ch.get("from", []), ch.get("to", []), strict=False):
            if a in pts and b in pts and a != b:
                (x1, y1), (x2, y2) = pts[a], pts[b]
                el(
                    root,
                    "line",
                    {
                        "class": "swap",
                        "data-force": ch["force"],
                        "x1": x1 - minx,
                        "y1": y1 - miny,
                        "x2": x2 - minx,
                        "y2": y2 - miny,
                        "stroke": "#e67e22",
                        "stroke-width": 2.5,
                        "marker-end": "url(#arrow)",
                        "opacity": 0.85,
                    },
                )
    sides: list[str] = list(sj.get("sides", {}))
    by_hex: dict[str, list[tuple[Any, int]]] = {}
    for p in state.pieces.values():
        for i, hx in enumerate(p.hexes):
            if hx in pts:
                by_hex.setdefault(hx, []).append((p, i))
    for hx, here in by_hex.items():
        x, y = pts[hx]
        w = size * (1.1 if len(here) == 1 else 0.9)
        h = w / 1.3
        offsets = fan(len(here), w, h, size * 1.6)
        for (p, i), (dx, dy) in zip(here, offsets, strict=True):
            colour = _side_colour(sides, p.side)
            cx, cy = x - minx + dx, y - miny + dy
            label = p.id if len(p.hexes) == 1 else f"{p.id}.{i + 1}"
            g = el(
                root,
                "g",
                {
                    "class": "piece",
                    "data-piece": p.id,
                    "data-hex": hx,
                    "data-pick": p.id,
                    "data-side": p.side,
                    "data-fixed": str(p.fixed).lower(),
                    "data-stack": len(here),
                },
            )
            stroke = {"stroke": "#ffd400", "stroke-width": 3} if p.fixed else {"stroke": "#111"}
            el(
                g,
                "rect",
                {
                    "x": cx - w / 2,
                    "y": cy - h / 2,
                    "width": w,
                    "height": h,
                    "rx": 3,
                    "fill": colour,
                    **stroke,
                },
            )
            # a counter with another fanned over it shows its name in its uncovered corner
            under = (p, i) != here[-1]
            el(
                g,
                "text",
                {
                    "x": cx - w / 2 + 2 if under else cx,
                    "y": cy - h / 2 + 10 if under else cy + 4,
                    "font-size": 11,
                    "font-weight": 700,
                    "text-anchor": "start" if under else "middle",
                    "fill": "#fff",
                },
                label,
            )
            el(
                g,
                "title",
                None,
                f"{p.name} ({p.kind}): {p.infantry} inf, {p.cavalry} cav,"
                f" {p.vedettes} vedette{'s' if p.vedettes != 1 else ''}"
                f"{' - FIXED' if p.fixed else ''}",
            )
        if len(here) > 1:
            lx, ly = offsets[-1]
            badge(root, x - minx + lx + w / 2, y - miny + ly - h / 2, len(here))
    return to_text(root)


board = nab


# -- what the board means, and what changed on it -------------------------------------------------
def legend(state: Any) -> list[dict[str, object]]:
    sides: list[str] = list(state.sides)
    out = [
        legend_entry(f"{state.sides[s]} piece", fill=_side_colour(sides, s), stroke="#111")
        for s in state.sides
    ]
    out += [
        legend_entry("fixed (Herman (2))", fill="#888", stroke="#ffd400", stroke_width=3),
        legend_entry(
            "enemy ZOC (Herman (1))", "ring", fill="none", stroke="#d4a017", stroke_dasharray="3 3"
        ),
        legend_entry("swap of the latest fixing", "line", stroke="#e67e22"),
        legend_entry("road", "line", stroke="#8d6e63"),
        legend_entry("river or bridge hexside", "line", stroke="#2e86c1"),
        legend_entry(
            "n: counters in one hex (each is clickable)", "circle", fill="#fff", stroke="#111"
        ),
    ]
    used = set(state.map.terrain)
    out += [legend_entry(t, fill=c, stroke="#999") for t, c in NAB_TERRAIN.items() if t in used]
    return out


def roster(state: Any) -> list[dict[str, object]]:
    zocs = {sd: _enemy_zocs(state, sd) for sd in state.sides}
    out: list[dict[str, object]] = []
    for p in state.pieces.values():
        marks = []
        if p.fixed:
            marks.append("fixed")
        inside = [q.id for q, z in zocs.get(p.side, []) if set(p.hexes) & z]
        if inside and state.is_force(p):
            marks.append(f"in the ZOC of {', '.join(inside)}")
        if p.id in state.moved:
            marks.append(f"moved ({p.march or 'normal'})")
        if p.id == state.moving:
            marks.append("moving now")
        strength = f"{p.infantry} inf, {p.cavalry} cav, {p.vedettes} ved"
        out.append(
            {
                "id": p.id,
                "side": state.sides.get(p.side, p.side),
                "name": p.name,
                "where": ",".join(p.hexes),
                "strength": strength if state.is_force(p) else p.kind,
                "status": ", ".join(marks) or "-",
            }
        )
    return out


def changes(before: Any, after: Any) -> list[str]:
    """What to change on the real map: moves (with their new hexes) and fixed markers."""
    out: list[str] = []
    for pid, q in after.pieces.items():
        p = before.pieces.get(pid)
        if p is None:
            out.append(f"place {pid} in {','.join(q.hexes)}")
            continue
        bits = []
        if p.hexes != q.hexes:
            bits.append(f"move {pid} from {','.join(p.hexes)} to {','.join(q.hexes)}")
        if q.fixed and not p.fixed:
            bits.append("mark it fixed" if bits else f"mark {pid} fixed")
        elif p.fixed and not q.fixed:
            bits.append("remove its fixed marker" if bits else f"remove {pid}'s fixed marker")
        if bits:
            out.append("; ".join(bits))
    out += [f"remove {pid} from the map" for pid in before.pieces if pid not in after.pieces]
    return out


def move_check(state: Any, procedure: str, plan: Any) -> dict[str, object]:
    """The path a drag would take, its MP cost and the ZOCs it enters (from the move's plan)."""
    mp = getattr(plan, "data", None)
    if procedure != "move" or mp is None or not hasattr(mp, "path"):
        return {}
    zocs = [f"{c} ({'a fixing is owed' if c in mp.owed else 'no fixing'})" for c in mp.entered]
    return {
        "path": list(mp.path),
        "used": str(mp.mp),
        "units": "MP",
        "zoc": list(mp.entered),
        "text": f"{mp.piece.id}: {' '.join(mp.path)}, {mp.mp} MP"
        # a multi-hex force: where every component ends (one dropped hex places the lead)
        + (f", to {','.join(mp.to)}" if len(mp.to) > 1 else "")
        + (f"; enters the ZOC of {', '.join(zocs)}" if zocs else ""),
    }
