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
