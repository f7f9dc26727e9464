"""At the table on a phone (issue 26.3): on a 390x844 touch screen the board, the Next panel's
first entry, Roll and the result are on screen without scrolling; tap targets are at least
44 CSS px; an adjudication is taps only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Tabs, screenshot, tab
from vedette import rules
from vedette.engine import Game, Store

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def phone(tabs: Tabs) -> Iterator[Any]:
    errors: list[str] = []
    with tab(tabs, viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2) as pg:
        pg.on("pageerror", lambda e: errors.append(str(e)))
        yield pg
    assert not errors, errors


def on_screen(page: Any, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_a_fixing_on_a_phone(phone: Any, live_server: str, live_db: Path) -> None:
    scen = rules.get("napoleon_at_bay").scenario("sample")
    g = Game.create(Store(live_db), "ph-nab", "napoleon_at_bay", scen, seed=3)
    g.perform("move", {"force": "F1", "to": "W2020"})
    phone.goto(f"{live_server}/games/ph-nab")
    screenshot(phone, "phone_nab_before")
    assert phone.evaluate("window.scrollY") == 0
    for sel in ("#board svg", "#next .next-item", "#roll-btn"):
        assert on_screen(phone, sel), sel
    # every button and field of the action sheet that shows is a 44px target
    small = phone.evaluate(
        """() => [...document.querySelectorAll('.panel button, .panel select, .panel input')]
            .filter((e) => e.offsetParent !== null)
            .map((e) => [e.id || e.className || e.name, e.getBoundingClientRect().height])
            .filter(([, h]) => h < 44)"""
    )
    assert not small, small
    phone.tap("#next li.owed .next-item")
    phone.tap("#roll-btn")
    phone.wait_for_selector("#result .line")
    assert "fixing: 1d6=" in phone.inner_text("#result")
    assert on_screen(phone, "#result .line") and on_screen(phone, "#roll-btn")
    assert phone.evaluate("window.scrollY") == 0
    screenshot(phone, "phone_nab_fixing")


#: a turn of Herman's sample whose last move logs a seven-hex path, one unbroken word
LONG_PATH: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "napoleon_at_bay": [
        ("move", {"force": "F1", "to": ["W2020"]}),
        ("fix", {"moving": "F1", "contact": "R1"}),
        ("move", {"force": "F2", "to": ["W2021"]}),
        ("move", {"force": "FG", "to": ["W2020"]}),
        ("end_movement", {}),
        ("end_combat", {}),
        ("move", {"force": "R1", "to": ["W2120"]}),
        ("move", {"force": "R2", "to": ["W2121"]}),
        ("fix", {"moving": "R2", "contact": "F2"}),
        ("move", {"force": "R3", "to": ["W2122"]}),
    ]
}


@pytest.mark.parametrize("ruleset", sorted(rules.BUILTIN))
def test_a_sample_game_fits_a_phone_and_each_next_line_reads_across(
    phone: Any, live_server: str, live_db: Path, ruleset: str
) -> None:
    """Nothing pushes the page wider than the phone (the browser would then zoom the whole page
    out, or scroll it sideways): a log entry's long hex path ("via W2723,W2622,...") wraps, and
    a Next line with its choices (a move's hexes) puts its label on a row of its own rather
    than squeezing it into a column a word wide beside them."""
    rs = rules.get(ruleset)
    scen = "sample" if "sample" in rs.scenarios else next(iter(rs.scenarios))
    g = Game.create(Store(live_db), f"fit-{ruleset}", ruleset, rs.scenario(scen), seed=1)
    for proc, req in LONG_PATH.get(ruleset, ()):
        g.perform(proc, req)
    phone.goto(f"{live_server}/games/fit-{ruleset}")
    phone.wait_for_selector("#next .next-item")
    if ruleset in LONG_PATH:
        assert "W2723,W2622,W2522,W2421,W2321,W2221" in phone.inner_text("#log")
    assert phone.evaluate("[window.innerWidth, document.documentElement.scrollWidth]") == [
        PHONE["width"],
        PHONE["width"],
    ]
    narrow = phone.evaluate(
        """() => { const w = document.getElementById('next').clientWidth;
            return [...document.querySelectorAll('#next .next-item')]
              .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().width < 0.8 * w)
              .map((e) => e.textContent.slice(0, 40)); }"""
    )
    assert not narrow, narrow
