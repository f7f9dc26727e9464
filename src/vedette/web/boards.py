"""Board views drawn as SVG, one renderer per ruleset, from the ruleset's ``state_json``.

Elements a player can pick carry ``data-pick="ID"``: clicking one fills the action panel's
focused field with that id.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from html import escape
from typing import Any

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
        except (KeyError, TypeError, ValueError, AttributeError):
            pass  # an unexpected state shape: fall back to the text board, never fail the page
    return text_board(text)


def text_board(text: str) -> str:
    lines = text.splitlines() or [""]
    h = 16 * len(lines) + 16
    w = max(len(x) for x in lines) * 8 + 16
    body = "".join(
        f'<text x="8" y="{16 * (i + 1)}" xml:space="preserve">{escape(line)}</text>'
        for i, line in enumerate(lines)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board text-board" viewBox="0 0 {w} {h}"'
        f' role="img" aria-label="board" font-family="monospace" font-size="13">{body}</svg>'
    )


def _load() -> None:
    if not RENDERERS:
        from vedette.web import board_views  # noqa: F401  (registers the renderers)
