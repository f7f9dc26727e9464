"""Board views drawn as SVG, one renderer per ruleset, from the ruleset's ``state_json``.

Elements a player can pick carry ``data-pick="ID"``: clicking one fills the action panel's
focused field with that id.

Every board is built as an element tree (:mod:`xml.etree.ElementTree`) and serialised once:
text and attribute values are escaped by construction, so a scenario's names, ids and letters
can never become markup.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
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
    return ET.tostring(root, encoding="unicode", short_empty_elements=True)


Renderer = Callable[[Any, Mapping[str, Any]], str]

RENDERERS: dict[str, Renderer] = {}


def renderer(name: str) -> Callable[[Renderer], Renderer]:
    def deco(fn: Renderer) -> Renderer:
        RENDERERS[name] = fn
        return fn

    return deco


def svg(ruleset: str, state: Any, state_json: Mapping[str, Any], text: str) -> str:
    """The board of a game as an SVG document (a text board where no renderer fits).

    A renderer gets the ruleset's state and its ``state_json``."""
    _load()
    fn = RENDERERS.get(ruleset)
    if fn is not None:
        try:
            return fn(state, state_json)
        except Exception:  # an unexpected state shape: the text board, never a failed page
            pass
    return text_board(text)


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


def _load() -> None:
    if not RENDERERS:
        from vedette.web import board_views  # noqa: F401  (registers the renderers)
