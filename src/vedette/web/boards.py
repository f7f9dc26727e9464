"""Board views in the web app: each ruleset draws its own board (``Ruleset.board_svg``, from
``rules/<ruleset>/board.py`` with the helpers of :mod:`vedette.render.svg`); the app hosts it,
and shows the game as text where a ruleset draws none. Nothing here knows a ruleset."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from vedette import rules
from vedette.render.svg import XML_SPACE, el, svg_root, text_board, to_text

__all__ = ["XML_SPACE", "el", "svg", "svg_root", "text_board", "to_text"]


def svg(
    ruleset: str,
    state: Any,
    state_json: Mapping[str, Any],
    text: str | Callable[[], str],
    inline: bool = True,
) -> str:
    """The board of a game as an SVG document (a text board where the ruleset draws none;
    ``text`` may be a callable, rendered only then); static layers left as slots unless
    ``inline`` (``Ruleset.board_svg``)."""
    try:
        out = rules.get(ruleset).board_svg(state, state_json, inline=inline)
    except Exception:  # an unexpected state shape: the text board, never a failed page
        out = None
    if out is not None:
        return out
    return text_board(text() if callable(text) else text)
