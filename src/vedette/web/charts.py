"""Small SVG charts for the audit and the after-action report, built as element trees (every
label escaped when serialised; presentation attributes only, no style attribute, no script:
they pass the pages' Content-Security-Policy and stand alone in an exported file)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from vedette.render.svg import SVG_NS, el, to_text

OBSERVED = "#3b6ea5"
EXPECTED = "#c0392b"
LOSS = "#8e44ad"


def observed_expected(
    rows: Sequence[tuple[str, float, float]], label: str, colour: str = OBSERVED
) -> str:
    """Bars of observed counts with the expected count of each as a red tick:
    ``rows`` = (label, observed, expected; NaN: no tick)."""
    bar, gap, top, left = 22, 8, 18, 8
    h = 150
    w = left + len(rows) * (bar + gap) + 8
    peak = max([1.0, *(o if math.isnan(e) else max(o, e) for _, o, e in rows)])
    root = el(None, "svg", {
        "xmlns": SVG_NS, "class": "chart", "viewBox": f"0 0 {w} {h + top + 20}",
        "width": w, "height": h + top + 20, "role": "img", "aria-label": label,
    })  # fmt: skip
    el(root, "title", {}, label)
    for i, (name, obs, exp) in enumerate(rows):
        x = left + i * (bar + gap)
        oh = h * obs / peak
        r = el(root, "rect", {"x": x, "y": top + h - oh, "width": bar, "height": oh,
                              "fill": colour, "class": "observed"})  # fmt: skip
        el(r, "title", {}, f"{name}: observed {obs:g}, expected {exp:g}")
        if not math.isnan(exp):
            eh = h * exp / peak
            y = top + h - eh
            el(root, "line", {"x1": x - 3, "x2": x + bar + 3, "y1": y, "y2": y,
                              "stroke": EXPECTED, "stroke-width": 2,
                              "class": "expected"})  # fmt: skip
        el(root, "text", {"x": x + bar / 2, "y": top + h + 14, "text-anchor": "middle",
                          "font-size": 11}, name)  # fmt: skip
        el(root, "text", {"x": x + bar / 2, "y": top + h - oh - 3, "text-anchor": "middle",
                          "font-size": 9}, f"{obs:g}")  # fmt: skip
    return to_text(root)


def columns(rows: Sequence[tuple[str, float]], label: str, colour: str = LOSS) -> str:
    """Plain columns (e.g. losses per turn): ``rows`` = (label, value)."""
    return observed_expected([(n, v, math.nan) for n, v in rows], label, colour) if rows else ""


def luck(rows: Sequence[tuple[str, float]], label: str) -> str:
    """Horizontal bars around zero: how far each row's dice ran above (right) or below (left)
    expectation, in standard deviations (``rows`` = (label, z))."""
    line, left, half = 22, 150, 120
    h = line * len(rows) + 24
    w = left + 2 * half + 60
    root = el(None, "svg", {
        "xmlns": SVG_NS, "class": "chart", "viewBox": f"0 0 {w} {h}", "width": w, "height": h,
        "role": "img", "aria-label": label,
    })  # fmt: skip
    el(root, "title", {}, label)
    mid = left + half
    el(root, "line", {"x1": mid, "x2": mid, "y1": 0, "y2": h - 18, "stroke": "#555"})
    for mark, text in ((-2, "-2σ"), (2, "+2σ")):
        x = mid + mark * half / 3
        el(root, "line", {"x1": x, "x2": x, "y1": 0, "y2": h - 18, "stroke": "#bbb",
                          "stroke-dasharray": "3 3"})  # fmt: skip
        el(root, "text", {"x": x, "y": h - 4, "font-size": 10, "text-anchor": "middle"}, text)
    for i, (name, z) in enumerate(rows):
        y = 4.0 + i * line
        zc = max(-3.0, min(3.0, z))
        x0, x1 = sorted((mid, mid + zc * half / 3))
        el(root, "text", {"x": left - 6, "y": y + 13, "font-size": 11, "text-anchor": "end"}, name)
        el(root, "rect", {"x": x0, "y": y, "width": max(x1 - x0, 1), "height": line - 6,
                          "fill": OBSERVED if z >= 0 else EXPECTED})  # fmt: skip
        el(root, "text", {"x": left + 2 * half + 6, "y": y + 13, "font-size": 11},
           f"{z:+.2f}σ")  # fmt: skip
    return to_text(root)
