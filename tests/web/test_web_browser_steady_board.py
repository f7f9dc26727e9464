"""The board stays put while the player taps it (session 21): on a 390x844 touch phone the
board's readout (the piece tapped: a Kuryakin unit's name, formation, figures, disorder and
state) lies over the board's top edge, however many lines it takes. A two- or three-line
readout had pushed the board 22 or 44 px down under the player's finger at each tap."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import Tabs, tab
from tests.web.test_web_asl_table import PHONE, open_game
from vedette import rules
from vedette.engine import Game, Store

TOP = "() => document.getElementById('board-viewport').getBoundingClientRect().top + scrollY"
LINES = """() => { const r = document.getElementById('board-readout');
  const line = parseFloat(getComputedStyle(r).lineHeight);
  return Math.round(r.getBoundingClientRect().height / line); }"""


def test_a_long_readout_leaves_the_board_where_it_is(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """Each piece of Kuryakin's sample tapped in turn: its readout says it (two lines and more
    for most), and the board's top has not moved by a pixel."""
    scen = rules.get("solo_napoleonic").scenario("sample")
    Game.create(Store(live_db), "steady-board-kur", "solonap", scen, seed=1)
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        errors = open_game(page, live_server, "steady-board-kur")
        page.wait_for_timeout(300)  # (the board's first view fitted)
        top = page.evaluate(TOP)
        pieces = ["F1", "F5", "A2", "A3"]
        lines = []
        for piece in pieces:
            page.tap(f"#board [data-pick='{piece}']")
            page.wait_for_function(
                "(p) => document.getElementById('board-readout').textContent.startsWith(p + ':')",
                arg=piece,
            )
            lines.append(page.evaluate(LINES))
            assert page.evaluate(TOP) == top, (piece, page.inner_text("#board-readout"))
        assert max(lines) >= 2, lines  # (the case itself: a readout of more than one line)
        assert not errors, errors
