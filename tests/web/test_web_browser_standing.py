"""Kuryakin's army morale in the web app (session 21, third round): ``show`` and ``todo`` print
how each side stands against the house rule's army break (``Ruleset.standing``, reading K56);
the game page showed nothing of it. Now one muted line beside the Next title, the same words
(written as text, never markup), and it follows the game: a unit that routs moves its side's
count and says BROKEN past the break. It is one folded line of the counts (the Next list and
the dice keep their room), a tap unfolding it. A ruleset with no standing shows no line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.solo_napoleonic.test_solonap_text_3 import SIDES, gen, unit
from tests.web.conftest import Tabs, tab
from tests.web.test_web_asl_table import PHONE
from tests.web.test_web_browser import act
from tests.web.test_web_browser_next import make_game
from vedette.engine import Game, Store

LABEL = "army morale (house rule, reading K56; the game goes on):"
BEFORE = (
    "French 0 of 2 units routing or lost (breaks at 1);"
    " Allies 0 of 2 units routing or lost (breaks at 1)"
)
AFTER = (
    "French 1 of 2 units routing or lost (breaks at 1): BROKEN;"
    " Allies 0 of 2 units routing or lost (breaks at 1)"
)
#: the folded line: every side's count at a glance (``standing["short"]``; its break point
#: and the rule on a tap)
SHORT_BEFORE = "French 0/2 lost · Allies 0/2 lost"
SHORT_AFTER = "French 1/2 lost, BROKEN · Allies 0/2 lost"
#: the line's whole text, as its title gives it (the folded short form is another span)
TITLE = "t => document.querySelector('#standing').title === t"


def ready(db: Path, name: str) -> Game:
    """Two units a side, the brigadiers far off (a card each); F1's card is up."""
    units = [unit("F1", x=1000.0, y=0.0), unit("F2", x=600.0, y=0.0),
             unit("A1", "Allies", x=1000.0, y=600.0),
             unit("A2", "Allies", x=600.0, y=600.0)]  # fmt: skip
    gens = [gen("FB", x=0.0, y=0.0), gen("AB", "Allies", x=0.0, y=900.0)]
    scen = {"title": "standing", "sides": SIDES, "units": units, "generals": gens}
    g = Game.create(Store(db), name, "solonap", scen, seed=7)
    g.perform("control", {}, [1, 1])
    g.perform("deal", {"cards": {u["id"]: i + 1 for i, u in enumerate(units)}, "chance": {}})
    g.perform("next", {})
    assert g.ruleset.standing(g.state)["text"] == f"{LABEL} {BEFORE}"
    return g


@pytest.mark.parametrize("where", ["desktop", "phone"])
def test_the_army_morale_line_heads_next_and_follows_a_rout(
    tabs: Tabs, live_server: str, live_db: Path, where: str
) -> None:
    name = f"standing-{where}"
    ready(live_db, name)
    options: dict[str, Any] = (
        PHONE if where == "phone" else {"viewport": {"width": 1100, "height": 900}}
    )
    with tab(tabs, **options) as pg:
        page: Any = pg
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{live_server}/games/{name}")
        page.wait_for_selector("#next .next-item")
        line = page.locator("#standing")
        assert line.is_visible()
        assert line.get_attribute("title") == f"{LABEL} {BEFORE}"
        assert line.locator("*").evaluate_all("es => es.map(e => e.tagName)") == ["SPAN"] * 3
        # above the Next list, one line (the list and the dice keep their room), a tap unfolds it
        # (the first line shown: the phone's index lays the list out again as its room settles)
        shown = page.locator("#next .next-item:visible").first
        shown.wait_for(state="visible")
        box, first = line.bounding_box(), shown.bounding_box()
        assert box is not None and first is not None
        assert box["y"] + box["height"] <= first["y"] + 1
        assert box["height"] < 24, box
        assert page.locator("#standing .standing-label").is_hidden()  # (the counts first)
        # folded: both sides' counts whole, on the one line (not cut by its ellipsis)
        assert line.inner_text() == SHORT_BEFORE
        assert line.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), line.evaluate(
            "e => [e.scrollWidth, e.clientWidth]"
        )
        line.tap() if where == "phone" else line.click()
        assert page.locator("#standing .standing-label").is_visible()
        assert line.inner_text() == f"{LABEL} {BEFORE}"
        assert line.bounding_box()["height"] > box["height"]
        line.tap() if where == "phone" else line.click()  # (folded again for the rest)
        # F1 fails a morale test and routs (99 on the d100): its side is past the break
        text = act(page, "morale", dice="99 1", unit="F1")
        assert "rout" in text.lower(), text
        page.wait_for_function(TITLE, arg=f"{LABEL} {AFTER}")
        assert line.inner_text() == SHORT_AFTER
        page.reload()
        page.wait_for_selector("#next .next-item")
        assert line.get_attribute("title") == f"{LABEL} {AFTER}"  # (as it loads: the same)
        assert line.inner_text() == SHORT_AFTER
        assert not errors, errors


def test_no_line_for_a_ruleset_without_standing(page: Any, live_server: str, live_db: Path) -> None:
    """2 by 2 has no such house rule (its standing is None): no line, no empty room."""
    make_game(live_db, "standing-2x2", "two_by_two")
    page.goto(f"{live_server}/games/standing-2x2")
    page.wait_for_selector("#next .next-item")
    assert page.locator("#standing").is_hidden()
    assert page.locator("#standing").text_content() == ""


def test_the_line_is_text_not_markup(page: Any, live_server: str, live_db: Path) -> None:
    """A side's name is the scenario's (a shared file may say anything): the line writes it as
    text, never as markup (no element made of it, no script run)."""
    bad = "<img src=x onerror=window.__hit=1>"
    units = [unit("F1", bad, x=1000.0, y=0.0), unit("A1", "Allies", x=1000.0, y=600.0)]
    gens = [gen("FB", bad, x=0.0, y=0.0), gen("AB", "Allies", x=0.0, y=900.0)]
    scen = {"title": "standing", "sides": [bad, "Allies"], "units": units, "generals": gens}
    Game.create(Store(live_db), "standing-xss", "solonap", scen, seed=7)
    page.goto(f"{live_server}/games/standing-xss")
    page.wait_for_selector("#next .next-item")
    assert f"{bad} 0 of 1 units routing or lost" in page.locator("#standing").text_content()
    assert page.locator("#standing").inner_text().startswith(f"{bad} 0/1")  # (the short form)
    assert page.locator("#standing img").count() == 0
    assert page.evaluate("() => window.__hit") is None
