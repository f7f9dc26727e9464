"""SVG board views per ruleset (registered with :func:`vedette.web.boards.renderer`).

Each view draws from the game state only; pickable things carry ``data-pick``.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from vedette.web.boards import XML_SPACE, el, renderer, svg_root, to_text

SIDE_COLOURS = ["#2f5597", "#b03a2e", "#1e8449", "#7d3c98"]


def _side_colour(sides: list[str], side: str) -> str:
    if side not in sides:
        sides.append(side)
    return SIDE_COLOURS[sides.index(side) % len(SIDE_COLOURS)]


def _svg(w: float, h: float, label: str, cls: str) -> ET.Element:
    return svg_root(w, h, label, cls, **{"font-family": "sans-serif"})


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
        {"x": 6, "y": 14, "font-size": 12},
        f"{sj.get('title', '')} · turn {sj.get('turn')} · {sj.get('phasing')} {sj.get('phase')}",
    )
    for hid, (x, y) in pts.items():
        terr = m.terrain[m.index(hid)]
        fill = NAB_TERRAIN.get(terr, "#eeeeee")
        poly = el(
            root,
            "polygon",
            {
                "class": "hex zoc" if hid in zoc else "hex",
                "data-hex": hid,
                "data-pick": hid,
                "points": corners(x, y, size),
                "fill": fill,
                "stroke": "#999",
                "stroke-width": "0.8",
            },
        )
        el(poly, "title", None, f"{hid} {terr}{' (enemy ZOC)' if hid in zoc else ''}")
        if hid in zoc:
            el(
                root,
                "polygon",
                {
                    "points": corners(x, y, size * 0.92),
                    "fill": "none",
                    "stroke": "#d4a017",
                    "stroke-width": 2,
                    "stroke-dasharray": "3 3",
                    "pointer-events": "none",
                },
            )
        name = m.names.get(hid, "")
        small = {"font-size": 7, "text-anchor": "middle", "pointer-events": "none"}
        el(root, "text", {"x": x - minx, "y": y - miny - size * 0.55, "fill": "#555", **small}, hid)
        if name:
            el(
                root,
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
                root,
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
                root,
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
    for p in state.pieces.values():
        colour = _side_colour(sides, p.side)
        for i, hx in enumerate(p.hexes):
            if hx not in pts:
                continue
            x, y = pts[hx]
            cx, cy = x - minx, y - miny
            w = size * 1.1
            label = p.id if len(p.hexes) == 1 else f"{p.id}.{i + 1}"
            g = el(
                root,
                "g",
                {
                    "class": "piece",
                    "data-piece": p.id,
                    "data-hex": hx,
                    "data-pick": p.id,
                    "data-fixed": str(p.fixed).lower(),
                },
            )
            stroke = {"stroke": "#ffd400", "stroke-width": 3} if p.fixed else {"stroke": "#111"}
            el(
                g,
                "rect",
                {
                    "x": cx - w / 2,
                    "y": cy - w / 2.6,
                    "width": w,
                    "height": w / 1.3,
                    "rx": 3,
                    "fill": colour,
                    **stroke,
                },
            )
            el(
                g,
                "text",
                {"x": cx, "y": cy + 4, "font-size": 10, "text-anchor": "middle", "fill": "#fff"},
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
    return to_text(root)


def _hex_points(cx: float, cy: float, s: float, flat: bool) -> str:
    start = 0 if flat else 30
    return " ".join(
        f"{cx + s * math.cos(math.radians(start + 60 * k)):.1f},"
        f"{cy + s * math.sin(math.radians(start + 60 * k)):.1f}"
        for k in range(6)
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


@renderer("solitaire_asl")
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


# -- the table top (2 by 2, Kuryakin) --------------------------------------------------------------
def _style(**kw: object) -> dict[str, object]:
    return {k.replace("_", "-"): v for k, v in kw.items()}


FEATURE_STYLE: dict[str, dict[str, object]] = {
    "road": _style(fill="none", stroke="#b08d57", stroke_width=10, stroke_linecap="round"),
    "bridge": _style(fill="#8d6e63", stroke="#5d4037"),
    "stream": _style(fill="none", stroke="#5dade2", stroke_width=6),
    "river": _style(fill="#85c1e9", stroke="#5dade2"),
    "woods": _style(fill="#a9cc8f", stroke="#6b8e4e"),
    "rough": _style(fill="#d7c49e", stroke="#a39171"),
    "hedge": _style(fill="none", stroke="#4d7c3a", stroke_width=4, stroke_dasharray="6 3"),
    "wall": _style(fill="none", stroke="#7f8c8d", stroke_width=4),
    "copse": _style(fill="#a9cc8f", stroke="#4d7c3a"),
    "town": _style(fill="#d5b895", stroke="#8d6e63"),
    "hill": _style(fill="#e8dcc0", stroke="#c2b280"),
}


def _shape_svg(parent: ET.Element, shape: Any, flip: float, attrs: dict[str, object]) -> None:
    kind = shape.geom_type
    if kind in ("MultiPolygon", "MultiLineString", "GeometryCollection"):
        for g in shape.geoms:
            _shape_svg(parent, g, flip, attrs)
    elif kind == "Polygon":
        pts = " ".join(f"{x:.1f},{flip - y:.1f}" for x, y in shape.exterior.coords)
        el(parent, "polygon", {"points": pts, **attrs})
    elif kind == "LineString":
        pts = " ".join(f"{x:.1f},{flip - y:.1f}" for x, y in shape.coords)
        el(parent, "polyline", {"points": pts, **attrs})
    elif kind == "Point":
        el(parent, "circle", {"cx": shape.x, "cy": flip - shape.y, "r": 6, **attrs})


def _piece(
    pid: str,
    body: Any,
    flip: float,
    colour: str,
    label: str,
    status: str,
    tip: str,
    fs: float = 14,
) -> ET.Element:
    pts = " ".join(f"{c.x:.1f},{flip - c.y:.1f}" for c in body.corners())
    front = body.to_world(body.footprint.depth / 2, 0) if hasattr(body, "footprint") else None
    cx, cy = body.centre.x, flip - body.centre.y
    faded = status in ("destroyed", "routed", "rout")
    g = el(
        None,
        "g",
        {
            "class": "unit",
            "data-unit": pid,
            "data-status": status,
            "data-pick": pid,
            "data-x": body.centre.x,
            "data-y": body.centre.y,
        },
    )
    el(
        g,
        "polygon",
        {
            "points": pts,
            "fill": colour,
            "stroke": "#111",
            "stroke-width": "1.5",
            "opacity": "0.45" if faded else None,
        },
    )
    if front is not None:
        el(
            g,
            "line",
            {
                "x1": cx,
                "y1": cy,
                "x2": front.x,
                "y2": flip - front.y,
                "stroke": "#fff",
                "stroke-width": 2,
                "pointer-events": "none",
            },
        )
    el(
        g,
        "text",
        {
            "x": cx,
            "y": cy + fs * 0.35,
            "font-size": f"{fs:.0f}",
            "text-anchor": "middle",
            "font-weight": 700,
            "fill": "#fff",
            "stroke": "#111",
            "stroke-width": 3,
            "paint-order": "stroke",
            "pointer-events": "none",
        },
        label,
    )
    el(g, "title", None, tip)
    return g


def _table_svg(
    width: float,
    depth: float,
    features: Any,
    pieces: list[ET.Element],
    head: str,
    extra: list[tuple[str, dict[str, object]]],
    cls: str,
) -> str:
    fs = _font(width)
    root = _svg(width + fs * 24, depth + fs * 3, "table top", cls)
    body = el(root, "g", {"transform": f"translate(0,{fs * 2:.0f})"})
    el(
        body,
        "rect",
        {"x": 0, "y": 0, "width": f"{width:.0f}", "height": f"{depth:.0f}", "fill": "#dfe8c8"},
    )
    for f in features:
        style = FEATURE_STYLE.get(f.kind, {"fill": "#ccc", "stroke": "#999"})
        g = el(body, "g", {"class": "feature", "data-kind": f.kind})
        el(g, "title", None, f"{f.name} ({f.kind})")
        _shape_svg(g, f.shape, depth, style)
    body.extend(pieces)
    el(root, "text", {"x": 8, "y": f"{fs * 1.4:.0f}", "font-size": f"{fs * 1.3:.0f}"}, head)
    for text, attrs in extra:
        el(root, "text", attrs, text)
    return to_text(root)


def _font(width: float) -> float:
    """A font size that reads at the table's scale (tables run from ~600 to ~2000 mm)."""
    return max(8.0, width / 70)


@renderer("two_by_two")
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


@renderer("solo_napoleonic")
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
