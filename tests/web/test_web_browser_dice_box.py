"""The player's own dice on a phone (390x844, touch): the box the faces tapped are written in
stays readable beside the name of the card asked next (Kuryakin's real deck, reading K80)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import Tabs, tab
from tests.web.test_web_asl_table import PHONE
from tests.web.test_web_browser_sheet import own_until
from vedette import rules
from vedette.engine import Game, Store
from vedette.rules.solo_napoleonic import cards

#: the dice row's parts: the box's width, whether the box shows all it holds, and whether any
#: part of the row reaches past the sheet's right edge
ROW = """() => {
    const box = document.getElementById("dice"), row = box.closest(".dice-label");
    const right = row.parentElement.getBoundingClientRect().right;
    const parts = [...row.querySelectorAll(":scope > *")].filter((e) => e.offsetParent);
    return { box: box.getBoundingClientRect().width, fits: box.scrollWidth <= box.clientWidth,
             over: parts.some((e) => e.getBoundingClientRect().right > right + 0.5)
                || row.scrollWidth > row.clientWidth };
}"""


def test_the_faces_given_stay_readable_beside_the_card_asked_next(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """Kuryakin's deal with the player's own cards on a phone: with "next: card for ... (k of
    n)" beside it, the dice box keeps room for the faces given (it was squeezed to 25-35 px, a
    face or two shown), no part of the row runs past the sheet, and the cards are given in as
    many taps as there are cards."""
    rs = rules.get("solo_napoleonic")
    g = Game.create(Store(live_db), "box-sn", rs.name, rs.scenario("sample"), 3, dice="physical")
    own_until(g, "deal")
    holders = [h for h, _, _ in cards.holders(g.state)]
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        page.goto(f"{live_server}/games/box-sn")
        page.wait_for_selector("#next .next-item.chosen[data-procedure='deal']")
        page.wait_for_selector("#dice-next:not(:empty)")
        before = page.get_attribute("#log li", "data-seq")
        for k in range(len(holders) + len(g.state.sides)):
            assert page.inner_text("#dice-next").startswith("next: ")
            row = page.evaluate(ROW)
            assert row["box"] >= 100 and row["fits"] and not row["over"], (k, row)
            page.locator(".dice-pad .face:not([hidden])").last.tap()
        page.wait_for_function(
            "b => document.querySelector('#log li').dataset.seq !== b", arg=before
        )
