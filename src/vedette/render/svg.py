"""SVG drawing for board views: element trees (:mod:`xml.etree.ElementTree`) serialised once,
so text and attribute values are escaped by construction — a scenario's names, ids and letters
can never become markup. Each ruleset draws its own board (``rules/<ruleset>/board.py``) with
these helpers; the web app only hosts the result.

Elements a player can pick carry ``data-pick="ID"``: clicking one fills the action panel's
focused field with that id.
"""

from __future__ import annotations

import hashlib
import math
import re
import threading
import xml.etree.ElementTree as ET
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

SVG_NS = "http://www.w3.org/2000/svg"
XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
Attrs = Mapping[str, object]


def el(
    parent: ET.Element | None, tag: str, attrs: Attrs | None = None, text: object = None
) -> ET.Element:
    """A new element (appended to ``parent`` when given); attribute values and text are
    converted to strings and escaped when serialised."""
    a = {
        ("class" if k == "cls" else k): _value(v) for k, v in (attrs or {}).items() if v is not None
    }
    e = ET.Element(tag, a) if parent is None else ET.SubElement(parent, tag, a)
    if text is not None:
        e.text = str(text)
    return e


def _value(v: object) -> str:
    if isinstance(v, float):
        return f"{v:.1f}"
    return str(v)


def svg_root(w: float, h: float, label: str, cls: str, **extra: object) -> ET.Element:
    return el(
        None,
        "svg",
        {
            "xmlns": SVG_NS,
            "class": f"board {cls}",
            "viewBox": f"0 0 {w:.0f} {h:.0f}",
            "role": "img",
            "aria-label": label,
            **extra,
        },
    )


def to_text(root: ET.Element) -> str:
    """The tree as text, exactly as :func:`xml.etree.ElementTree.tostring` writes it (the same
    escaping; checked against it in tests) in one pass: a board is drawn on every action, and
    ElementTree's own writer spent most of a Napoleon At Bay board's time on its namespace
    pass. A tree with a namespace other than ``xml:`` is left to ElementTree."""
    out: list[str] = []
    try:
        _write(root, out.append)
    except _Foreign:
        return ET.tostring(root, encoding="unicode", short_empty_elements=True)
    return "".join(out)


class _Foreign(Exception):
    """A qualified name this writer does not map (ElementTree writes it)."""


_XML_NS = "{http://www.w3.org/XML/1998/namespace}"
_ATTR_ESC = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\r": "&#13;", "\n": "&#10;",
     "\t": "&#09;"}
)  # fmt: skip
_TEXT_ESC = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def _name(n: str) -> str:
    if n[:1] != "{":
        return n
    if n.startswith(_XML_NS):
        return "xml:" + n[len(_XML_NS) :]
    raise _Foreign(n)


def _write(e: ET.Element, w: Any) -> None:
    tag = e.tag
    if not isinstance(tag, str):
        raise _Foreign(str(tag))  # a comment or processing instruction
    tag = _name(tag)
    w("<" + tag)
    for k, v in e.attrib.items():
        w(f' {_name(k)}="{str(v).translate(_ATTR_ESC)}"')
    if e.text or len(e):
        w(">")
        if e.text:
            w(e.text.translate(_TEXT_ESC))
        for child in e:
            _write(child, w)
        w(f"</{tag}>")
    else:
        w(" />")
    if e.tail:
        w(e.tail.translate(_TEXT_ESC))


# -- static layers: a board's part that never changes in a game (a map's own drawing) ----------
#: the static layers drawn in this process, by key (the first 16 hex digits of the text's
#: SHA-256), most recently used last
_LAYERS: OrderedDict[str, str] = OrderedDict()
_LAYERS_GUARD = threading.Lock()
_LAYERS_KEPT = 64
_SLOT = re.compile(r'<g id="map-layer" data-layer="([0-9a-f]{16})" />')


def layer_key(text: str) -> str:
    """Register ``text`` as a static layer; its key. A board draws the layer as an empty
    ``<g id="map-layer" data-layer="KEY" />`` (:func:`layer_slot`): :func:`splice_layers`
    fills it, and a page that already shows the layer of that key keeps its own copy (an
    action's answer need not carry the map again)."""
    return keep_layer(hashlib.sha256(text.encode()).hexdigest()[:16], text)


def keep_layer(key: str, text: str) -> str:
    """Keep the layer ``text`` of ``key`` (:func:`layer_key`) among those drawn lately."""
    with _LAYERS_GUARD:
        _LAYERS[key] = text
        _LAYERS.move_to_end(key)
        while len(_LAYERS) > _LAYERS_KEPT:
            _LAYERS.popitem(last=False)
    return key


def layer_slot(parent: ET.Element, key: str) -> ET.Element:
    """The empty place of the static layer ``key`` in a board."""
    return el(parent, "g", {"id": "map-layer", "data-layer": key})


def splice_layers(text: str) -> str:
    """The board with each static layer's slot filled with the layer itself (the whole SVG a
    page, a file or a test sees)."""

    def fill(m: re.Match[str]) -> str:
        with _LAYERS_GUARD:
            layer = _LAYERS.get(m.group(1))
        if layer is None:  # not drawn in this process: left empty (never a wrong map)
            return m.group(0)
        return f'<g id="map-layer" data-layer="{m.group(1)}">{layer}</g>'

    return _SLOT.sub(fill, text) if 'id="map-layer"' in text else text


def text_board(text: str) -> str:
    lines = text.splitlines() or [""]
    h = 16 * len(lines) + 16
    w = max(len(x) for x in lines) * 8 + 16
    root = svg_root(w, h, "board", "text-board")
    root.set("font-family", "monospace")
    root.set("font-size", "13")
    for i, line in enumerate(lines):
        el(root, "text", {"x": 8, "y": 16 * (i + 1), XML_SPACE: "preserve"}, line)
    return to_text(root)


SIDE_COLOURS = ["#2f5597", "#b03a2e", "#1e8449", "#7d3c98"]


def _side_colour(sides: list[str], side: str) -> str:
    if side not in sides:
        sides.append(side)
    return SIDE_COLOURS[sides.index(side) % len(SIDE_COLOURS)]


def _svg(w: float, h: float, label: str, cls: str) -> ET.Element:
    return svg_root(w, h, label, cls, **{"font-family": "sans-serif"})


def _hex_points(cx: float, cy: float, s: float, flat: bool) -> str:
    start = 0 if flat else 30
    return " ".join(
        f"{cx + s * math.cos(math.radians(start + 60 * k)):.1f},"
        f"{cy + s * math.sin(math.radians(start + 60 * k)):.1f}"
        for k in range(6)
    )


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
            "data-facing": getattr(body, "facing", 0.0),
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
    """The table top: its terrain, each feature named where it lies (readable without a
    tooltip), then the pieces. ``extra`` texts go to the right of the table (kept for boards
    that still draw notes there; the web page shows notes beside the board instead)."""
    fs = _font(width)
    side = max((len(t) for t, _ in extra), default=0) * fs * 0.6 + fs if extra else 0
    root = _svg(width + side, depth + fs * 2.2, "table top", cls)
    root.set("data-depth", f"{depth:.1f}")
    root.set("data-top", f"{fs * 2:.1f}")
    body = el(root, "g", {"class": "table", "transform": f"translate(0,{fs * 2:.0f})"})
    el(
        body,
        "rect",
        {"x": 0, "y": 0, "width": f"{width:.0f}", "height": f"{depth:.0f}", "fill": "#dfe8c8"},
    )
    names = el(None, "g", {"class": "feature-names", "pointer-events": "none"})
    for f in features:
        style = FEATURE_STYLE.get(f.kind, {"fill": "#ccc", "stroke": "#999"})
        g = el(body, "g", {"class": "feature", "data-kind": f.kind})
        el(g, "title", None, f"{f.name} ({f.kind})")
        _shape_svg(g, f.shape, depth, style)
        c = f.shape.representative_point()
        el(
            names,
            "text",
            {
                "x": c.x,
                "y": depth - c.y,
                "font-size": f"{fs * 0.8:.0f}",
                "text-anchor": "middle",
                "fill": "#3b3b2b",
                "font-style": "italic",
                "stroke": "#fff",
                "stroke-width": 2,
                "paint-order": "stroke",
            },
            f"{f.name} ({f.kind})" if f.name else f.kind,
        )
    # start-up: the label layout loads with the first board drawn
    from vedette.render.layout import lay_out

    lay_out(pieces, names, fs)  # no label or marker hides another (issue 26)
    body.append(names)
    body.extend(pieces)
    el(root, "text", {"x": 8, "y": f"{fs * 1.4:.0f}", "font-size": f"{fs * 1.2:.0f}"}, head)
    for text, attrs in extra:
        el(root, "text", attrs, text)
    return to_text(root)


def _font(width: float) -> float:
    """A font size that reads at the table's scale (tables run from ~600 to ~2000 mm): the
    table drawn 720 px wide (a tablet) shows it at about 15 px."""
    return max(12.0, width / 48)


# -- stacks, badges, legends -------------------------------------------------------------------
def fan(n: int, w: float, h: float, room: float) -> list[tuple[float, float]]:
    """Offsets of ``n`` counters of size ``w`` x ``h`` stacked in one place, fanned so that each
    shows a corner a finger can pick (at least half its width, or a third where more than
    three share ``room`` units): a single counter sits in the centre."""
    if n <= 1:
        return [(0.0, 0.0)]
    step_x = min(w * 0.55, max(w / 3, (room - w) / (n - 1)))
    step_y = min(h * 0.4, step_x * h / w)
    x0 = -step_x * (n - 1) / 2
    y0 = -step_y * (n - 1) / 2
    return [(x0 + i * step_x, y0 + i * step_y) for i in range(n)]


def badge(parent: ET.Element, x: float, y: float, n: int, r: float = 8.5) -> None:
    """A count badge (how many counters share a place), drawn over the stack's corner."""
    g = el(parent, "g", {"class": "badge", "pointer-events": "none"})
    el(g, "circle", {"cx": x, "cy": y, "r": r, "fill": "#fff", "stroke": "#111"})
    attrs = {"x": x, "y": y + r * 0.45, "font-size": f"{r * 1.3:.1f}", "text-anchor": "middle"}
    el(g, "text", {**attrs, "font-weight": 700}, n)


def legend_entry(label: str, shape: str = "rect", **paint: object) -> dict[str, object]:
    """One line of a board's legend: a swatch (``rect``, ``line``, ``dash``, ``ring``,
    ``circle``) painted with SVG presentation attributes, and what it means."""
    return {
        "label": label,
        "shape": shape,
        "paint": {k.replace("_", "-"): v for k, v in paint.items()},
    }


def terrain_legend(kinds: Any, note: str = "") -> list[dict[str, object]]:
    """Legend lines for the table-top terrain kinds drawn (FEATURE_STYLE's paint)."""
    out = []
    for k in sorted(set(kinds)):
        st = FEATURE_STYLE.get(k, {"fill": "#ccc", "stroke": "#999"})
        shape = "line" if st.get("fill") == "none" else "rect"
        out.append(
            legend_entry(f"{k}{note}", shape, **{kk.replace("-", "_"): v for kk, v in st.items()})
        )
    return out
