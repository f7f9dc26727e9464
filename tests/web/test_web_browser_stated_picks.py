"""2 by 2 played stated, at the table (phone 360x740 and desktop 1280x800): what the player
states of a rout's contagion (Unit Summary: "** rout whenever any rout w/in [3]") and of a
follow-up's contact (Melee) is tapped, never typed. A list's choice reads as its units ("none",
"M", "M + M2"), and a tap on one puts the list into the request: the owed melee is the choice
and Roll, two taps, no key pressed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.two_by_two.battle import Battle
from tests.web.test_web_browser_last_taps import COUNT, entry, screen, tap
from tests.web.test_web_browser_taps import answered
from vedette.engine import Game, Store

__all__ = ["screen"]  # (the fixture: a phone's page, then a desktop's)


def test_a_stated_melees_contagion_is_one_tap(screen: Any, live_server: str, live_db: Path) -> None:
    # blue B charged red R: the melee is owed; blue's militia M, M2 and red's RM may rout with
    # a rout within [3] (a Guard does not)
    units = [
        ("B", "blue", "infantry"),
        ("M", "blue", "militia"),
        ("M2", "blue", "militia"),
        ("R", "red", "infantry"),
        ("RM", "red", "militia"),
        ("RG", "red", "guard"),
    ]
    scenario = Battle.quick([{"id": i, "side": s, "type": k} for i, s, k in units]).scenario
    name = f"picks-{screen.viewport_size['width']}"
    g = Game.create(Store(live_db), name, "two_by_two", scenario, 3, {"play": "stated"})
    g.perform("charge", {"unit": "B", "into": "R", "distance": 2})
    while g.state.phase != "melee":
        g.perform("next", {})
    page = screen
    page.goto(f"{live_server}/games/{name}")
    page.wait_for_selector("#next .next-item")
    page.evaluate(COUNT)
    e = entry(page, "melee")
    row = f"{e} ~ .open-choices[data-field=contagion]"
    chips = page.eval_on_selector_all(f"{row} .choice", "cs => cs.map((c) => c.innerText)")
    assert chips == ["none", "M", "M2", "RM", "M + M2"]
    before = str(page.get_attribute("#log li", "data-seq"))
    tap(page, f"{row} .choice:nth-of-type(4)")
    tap(page, "#roll-btn")
    answered(page, before)
    assert not page.locator("#result .error").count(), page.inner_text("#result")
    rec = Game.open(Store(live_db), name).records[-1]
    assert rec.payload["request"]["contagion"] == ["RM"]
    assert page.evaluate("window.__keys") == 0
