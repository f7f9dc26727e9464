"""The study's plots as SVG, drawn with the escaping-by-construction helpers of
:mod:`vedette.render.svg` (no plotting library): each side's win rate with its 95% interval
per swept value, and the distribution of game length (turns; actions)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from vedette.render.svg import SIDE_COLOURS, el, svg_root, to_text
from vedette.sim.stats import show

DRAW_COLOUR = "#7f7f7f"
W, H = 640.0, 320.0
LEFT, RIGHT, TOP, BOTTOM = 56.0, 16.0, 40.0, 64.0


def _root(label: str, cls: str) -> ET.Element:
    root = svg_root(W, H, label, f"plot {cls}", **{"font-family": "sans-serif", "font-size": 12})
    el(root, "rect", {"x": 0, "y": 0, "width": W, "height": H, "fill": "#ffffff"})
    el(root, "text", {"x": W / 2, "y": 20, "text-anchor": "middle", "font-size": 14}, label)
    return root


def _value_label(study: Mapping[str, Any], v: Any) -> str:
    sweep = study.get("sweep")
    if not sweep:
        return "as given"
    return f"{sweep['knob']}={show(v)}"


def _y_axis(root: ET.Element, top: float, bottom: float, ticks: list[tuple[float, str]]) -> None:
    el(root, "line", {"x1": LEFT, "y1": top, "x2": LEFT, "y2": bottom, "stroke": "#333"})
    el(root, "line", {"x1": LEFT, "y1": bottom, "x2": W - RIGHT, "y2": bottom, "stroke": "#333"})
    for y, text in ticks:
        el(root, "line", {"x1": LEFT - 4, "y1": y, "x2": W - RIGHT, "y2": y, "stroke": "#e5e5e5"})
        el(root, "text", {"x": LEFT - 6, "y": y + 4, "text-anchor": "end"}, text)


def win_rates(study: Mapping[str, Any]) -> str:
    """Each side's win rate (and draws) per swept value, a dot with its 95% Wilson interval."""
    sides: list[str] = list(study.get("sides", []))
    series = [*[(s, SIDE_COLOURS[i % len(SIDE_COLOURS)]) for i, s in enumerate(sides)]]
    series.append(("draw", DRAW_COLOUR))
    variants = study["variants"]
    root = _root(f"Win rate with 95% interval ({study['games']} games each)", "win-rates")
    top, bottom = TOP, H - BOTTOM

    def y_of(p: float) -> float:
        return bottom - p * (bottom - top)

    _y_axis(root, top, bottom, [(y_of(p / 4), f"{p * 25}%") for p in range(5)])
    slot = (W - LEFT - RIGHT) / max(1, len(variants))
    step = slot / (len(series) + 1)
    for i, v in enumerate(variants):
        x0 = LEFT + i * slot
        summary = v["summary"]
        el(
            root,
            "text",
            {"x": x0 + slot / 2, "y": bottom + 18, "text-anchor": "middle"},
            _value_label(study, v["value"]),
        )
        for j, (name, colour) in enumerate(series):
            r = summary["draws"] if name == "draw" else summary["wins"].get(name)
            if r is None:
                continue
            x = x0 + step * (j + 1)
            g = el(root, "g", {"class": "series", "data-series": name})
            el(g, "title", None, f"{name}: {r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}]")
            el(
                g,
                "line",
                {
                    "x1": x,
                    "y1": y_of(r["low"]),
                    "x2": x,
                    "y2": y_of(r["high"]),
                    "stroke": colour,
                    "stroke-width": 2,
                },
            )
            for p in (r["low"], r["high"]):
                el(g, "line", {"x1": x - 5, "y1": y_of(p), "x2": x + 5, "y2": y_of(p)}).set(
                    "stroke", colour
                )
            el(g, "circle", {"cx": x, "cy": y_of(r["rate"]), "r": 4, "fill": colour})
    _legend(root, series)
    return to_text(root)


def _legend(root: ET.Element, series: list[tuple[str, str]]) -> None:
    x = LEFT
    for name, colour in series:
        el(root, "rect", {"x": x, "y": H - 22, "width": 10, "height": 10, "fill": colour})
        el(root, "text", {"x": x + 14, "y": H - 13}, "draws" if name == "draw" else name)
        x += 24 + 8 * len(name)


def _bins(counts: Mapping[str, int], nbins: int) -> tuple[list[tuple[int, int]], int, int]:
    xs = [int(k) for k in counts]
    lo, hi = (min(xs), max(xs)) if xs else (0, 0)
    width = max(1, -(-(hi - lo + 1) // nbins))
    out: dict[int, int] = {}
    for k, c in counts.items():
        b = (int(k) - lo) // width
        out[b] = out.get(b, 0) + c
    return sorted(out.items()), lo, width


def lengths(study: Mapping[str, Any]) -> str:
    """How long the games lasted: a histogram of actions per game, one outline per swept
    value, and the turns each reached (in the bars' titles and the caption)."""
    variants = study["variants"]
    root = _root("Game length: actions per game", "lengths")
    top, bottom = TOP, H - BOTTOM
    merged: dict[str, int] = {}
    for v in variants:
        for k, c in v["summary"]["actions"]["counts"].items():
            merged[k] = merged.get(k, 0) + c
    _, lo, width = _bins(merged, 24)
    nb = max(1, (max((int(k) for k in merged), default=0) - lo) // width + 1)
    per = []
    peak = 1
    for v in variants:
        b: dict[int, int] = {}
        for k, c in v["summary"]["actions"]["counts"].items():
            i = (int(k) - lo) // width
            b[i] = b.get(i, 0) + c
        per.append(b)
        peak = max(peak, *b.values()) if b else peak
    _y_axis(
        root, top, bottom, [(bottom - f * (bottom - top), f"{f * peak:g}") for f in (0, 0.5, 1)]
    )
    bw = (W - LEFT - RIGHT) / nb
    for i in range(0, nb, max(1, nb // 6)):
        el(
            root,
            "text",
            {"x": LEFT + i * bw + bw / 2, "y": bottom + 16, "text-anchor": "middle"},
            str(lo + i * width),
        )
    series = []
    for j, (v, b) in enumerate(zip(variants, per, strict=True)):
        colour = SIDE_COLOURS[j % len(SIDE_COLOURS)]
        label = _value_label(study, v["value"])
        series.append((label, colour))
        g = el(root, "g", {"class": "series", "data-series": label})
        pts = []
        for i in range(nb):
            y = bottom - b.get(i, 0) / peak * (bottom - top)
            pts += [f"{LEFT + i * bw:.1f},{y:.1f}", f"{LEFT + (i + 1) * bw:.1f},{y:.1f}"]
        el(
            g,
            "polyline",
            {"points": " ".join(pts), "fill": "none", "stroke": colour, "stroke-width": 2},
        )
        t = v["summary"]["turns"]
        el(g, "title", None, f"{label}: turns {t['min']}-{t['max']}, median {t['median']:g}")
    el(
        root,
        "text",
        {"x": W - RIGHT, "y": bottom + 34, "text-anchor": "end"},
        "actions per game (bins of "
        + str(width)
        + "); turns: "
        + "; ".join(f"median {v['summary']['turns']['median']:g}" for v in variants),
    )
    _legend(root, series)
    return to_text(root)


def plots(study: Mapping[str, Any]) -> dict[str, str]:
    """Every plot of a study: file stem -> SVG text."""
    return {"win_rates": win_rates(study), "lengths": lengths(study)}
