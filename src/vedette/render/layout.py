"""A layout pass for table-top boards (issue 26): no label or marker hides another.

The pieces are drawn where the rules put them and never move. What may move is what only
names them: a unit's label slides along its own body, a general's marker steps aside from the
units it would cover (a thin line leads back to where the general stands), and a terrain name
moves off the pieces and the other names. Boxes are estimated from the SVG's own attributes
(a text's width from its length and font size), in the drawing's coordinates.

tests/web/test_web_browser_overlaps.py measures the result in a browser.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 (SVG coordinates: y grows down)

#: a label's width per character, in font sizes (bold digits and capitals run near 0.6)
CHAR_W = 0.62
#: overlap (of the smaller box) below which two boxes are taken as clear of each other
CLEAR = 0.02


def text_box(t: ET.Element) -> Box:
    """The box a ``<text>`` element covers, estimated from its position, anchor and size."""
    fs = float(t.get("font-size", "14"))
    x, y = float(t.get("x", "0")), float(t.get("y", "0"))
    w = len((t.text or "").strip()) * fs * CHAR_W
    anchor = t.get("text-anchor", "start")
    x0 = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
    return (x0, y - 0.8 * fs, x0 + w, y + 0.25 * fs)


def shape_box(e: ET.Element) -> Box | None:
    """The box of a polygon, circle or rect."""
    if e.tag == "polygon":
        pts = [tuple(map(float, p.split(","))) for p in e.get("points", "").split()]
        if not pts:
            return None
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        return (min(xs), min(ys), max(xs), max(ys))
    if e.tag == "circle":
        cx, cy, r = (float(e.get(k, "0")) for k in ("cx", "cy", "r"))
        return (cx - r, cy - r, cx + r, cy + r)
    if e.tag == "rect":
        x, y = float(e.get("x", "0")), float(e.get("y", "0"))
        return (x, y, x + float(e.get("width", "0")), y + float(e.get("height", "0")))
    return None


def area(b: Box) -> float:
    return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])


def overlap(a: Box, b: Box) -> float:
    """The overlap of two boxes, as a share of the smaller."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    return w * h / max(1e-9, min(area(a), area(b)))


def shifted(b: Box, dx: float, dy: float) -> Box:
    return (b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy)


def worst(b: Box, taken: Iterable[Box]) -> float:
    return max((overlap(b, t) for t in taken), default=0.0)


def ring(step: float, rings: int = 3, n: int = 8) -> list[tuple[float, float]]:
    """Offsets tried in turn: none, then ``n`` directions at 1, 2, ... ``rings`` steps."""
    out = [(0.0, 0.0)]
    for k in range(1, rings + 1):
        for i in range(n):
            a = math.pi / 2 + 2 * math.pi * i / n  # below first, then round
            out.append((k * step * math.cos(a), k * step * math.sin(a)))
    return out


def best(box: Box, offsets: list[tuple[float, float]], taken: list[Box]) -> tuple[float, float]:
    """The first offset that leaves ``box`` clear of ``taken``, else the least overlapping."""
    scored = []
    for i, (dx, dy) in enumerate(offsets):
        w = worst(shifted(box, dx, dy), taken)
        if w <= CLEAR:
            return dx, dy
        scored.append((w, i, dx, dy))
    _, _, dx, dy = min(scored)
    return dx, dy


def move_text(t: ET.Element, dx: float, dy: float) -> None:
    t.set("x", f"{float(t.get('x', '0')) + dx:.1f}")
    t.set("y", f"{float(t.get('y', '0')) + dy:.1f}")


def lay_out(pieces: list[ET.Element], names: ET.Element, fs: float) -> None:
    """Unit labels, then generals' markers, then terrain names, each placed clear of what is
    placed before it (see the module docstring)."""
    own: dict[int, Box] = {}  # each unit's body, by its group
    for g in pieces:
        if "unit" in (g.get("class") or "").split():
            for e in g:
                b = shape_box(e)
                if b is not None:
                    own[id(g)] = b
                    break
    bodies = list(own.values())
    labels: list[Box] = []
    for g in pieces:
        if "unit" not in (g.get("class") or "").split():
            continue
        t = g.find("text")
        if t is None:
            continue
        b = text_box(t)
        offsets = [(0.0, 0.0)] + [(0.0, s * fs * k / 2) for k in (1, 2, 3, 4) for s in (-1, 1)]
        others = [x for k, x in own.items() if k != id(g)]
        dx, dy = best(b, offsets, labels + others)
        move_text(t, dx, dy)
        labels.append(shifted(b, dx, dy))
    taken = bodies + labels
    for g in pieces:
        if "general" not in (g.get("class") or "").split():
            continue
        circle, t = g.find("circle"), g.find("text")
        if circle is None:
            continue
        cb = shape_box(circle)
        assert cb is not None
        whole = cb
        if t is not None:
            tb = text_box(t)
            whole = (min(cb[0], tb[0]), min(cb[1], tb[1]), max(cb[2], tb[2]), max(cb[3], tb[3]))
        dx, dy = best(whole, ring(fs * 1.6, rings=4), taken)
        if dx or dy:
            cx, cy = float(circle.get("cx", "0")), float(circle.get("cy", "0"))
            # a leader from the marker back to where the general stands, and a dot there
            leader = ET.Element(
                "line",
                {
                    "class": "leader",
                    "x1": f"{cx:.1f}",
                    "y1": f"{cy:.1f}",
                    "x2": f"{cx + dx:.1f}",
                    "y2": f"{cy + dy:.1f}",
                    "stroke": "#111",
                    "stroke-width": "1",
                    "pointer-events": "none",
                },
            )
            dot = ET.Element(
                "circle", {"cx": f"{cx:.1f}", "cy": f"{cy:.1f}", "r": "2.5", "fill": "#111"}
            )
            g.insert(0, dot)
            g.insert(0, leader)
            circle.set("cx", f"{cx + dx:.1f}")
            circle.set("cy", f"{cy + dy:.1f}")
            if t is not None:
                move_text(t, dx, dy)
        taken.append(shifted(whole, dx, dy))
    for t in names.iter("text"):
        b = text_box(t)
        dx, dy = best(b, ring(fs * 1.2, rings=4), taken)
        move_text(t, dx, dy)
        taken.append(shifted(b, dx, dy))
