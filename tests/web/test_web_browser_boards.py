"""Real-browser tests of the board (issue 15): stacked counters each clickable, one tab stop and
a keyboard cursor, pan/zoom at phone width, a tablet-width pass over every sample board
(screenshots kept under artifacts/screenshots/ with ``VEDETTE_SCREENSHOTS=1``), and hand moves
dragged on the board, checked by the rules, confirmed, and performed by the page's shell (app.js
answers ``vedette:perform``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import screenshot
from tests.web.test_web_browser import new_game
from tests.web.test_web_browser_reach import SETTLED

SAMPLES = ["napoleon_at_bay", "solitaire_asl", "two_by_two", "solo_napoleonic"]

#: what the shell does with a confirmed hand move (interfaces §2), for the page under test
SHELL = """
window.__picks = [];
document.addEventListener('vedette:pick', (e) => window.__picks.push(e.detail));
"""


def ready(page: Any, n: int = 1) -> None:
    """Wait until board.js has loaded the board's legend and roster ``n`` times."""
    page.wait_for_function(
        "n => Number(document.getElementById('game').dataset.boardReady || 0) >= n", arg=n
    )


def centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def log_procedures(page: Any, base: str, game: str) -> list[str]:
    data = page.request.get(f"{base}/api/games/{game}").json()
    return [e.get("procedure", "") for e in data["log"]]


def test_stacked_counters_both_clickable(page: Any, live_server: str) -> None:
    new_game(page, live_server, "stack-nab", "napoleon_at_bay", "sample")
    page.evaluate(SHELL)
    ready(page)
    for pid in ("F1", "FG"):  # in one hex, W1920: F1 used to be drawn under FG
        page.click(f'#board g.piece[data-piece="{pid}"]')  # fails if another counter is on top
    picks = page.evaluate("window.__picks")
    assert [p["value"] for p in picks] == ["F1", "FG"] and picks[0]["kind"] == "unit"
    new_game(page, live_server, "stack-asl", "solitaire_asl", "sample")
    page.evaluate(SHELL)
    ready(page)
    for sid in ("G1", "G2"):
        page.click(f'#board g.stack[data-stack="{sid}"]')
    assert [p["value"] for p in page.evaluate("window.__picks")] == ["G1", "G2"]


def test_one_tab_stop_and_a_keyboard_cursor(page: Any, live_server: str) -> None:
    new_game(page, live_server, "keys-nab", "napoleon_at_bay", "sample")
    page.evaluate(SHELL)
    ready(page)
    assert page.locator('#board [tabindex="0"]').count() == 0  # no hex is a tab stop
    page.focus("#board-viewport")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") != "board-viewport"
    assert page.evaluate("!!document.activeElement.closest('#board')") is False
    page.focus("#board-viewport")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    picks = page.evaluate("window.__picks")
    assert len(picks) == 1 and picks[0]["kind"] in ("hex", "unit")
    assert page.locator("#board .cursor").count() == 1


@pytest.mark.parametrize("ruleset", SAMPLES)
def test_tablet_width_pass(page: Any, live_server: str, ruleset: str) -> None:
    page.set_viewport_size({"width": 768, "height": 1024})
    new_game(page, live_server, f"tablet-{ruleset}", ruleset, "sample")
    ready(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 769
    assert page.locator("#board-legend li").count() >= 3
    page.click(".board-roster summary")
    assert page.locator("#board-roster tbody tr").count() >= 3
    # every label on the board more than 10 px tall as drawn
    smallest = page.evaluate(
        """() => Math.min(...[...document.querySelectorAll('#board svg text')]
             .filter(t => t.textContent.trim())
             .map(t => t.getBoundingClientRect().height).filter(h => h > 0))"""
    )
    assert smallest > 10.5, smallest
    screenshot(page, f"board_{ruleset}_tablet")


@pytest.mark.parametrize("ruleset", ["napoleon_at_bay", "solo_napoleonic"])
def test_phone_width_zoom(page: Any, live_server: str, ruleset: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    new_game(page, live_server, f"phone-{ruleset}", ruleset, "sample")
    ready(page)
    before = page.locator("#board svg").bounding_box()["width"]
    page.evaluate(SETTLED)
    first = page.get_attribute("#board-viewport", "data-zoom")  # (every piece in view)
    page.click('[data-board="zoom-in"]')
    page.click('[data-board="zoom-in"]')
    after = page.locator("#board svg").bounding_box()["width"]
    assert after > before * 1.8
    x, y = centre(page, "#board-viewport")
    page.mouse.move(x, y)
    page.mouse.wheel(0, -300)  # the wheel zooms in further
    assert float(page.get_attribute("#board-viewport", "data-zoom") or 1) > 2
    screenshot(page, f"board_{ruleset}_phone_zoomed")
    page.click('[data-board="reset"]')
    assert page.get_attribute("#board-viewport", "data-zoom") == first
    assert page.evaluate("document.documentElement.scrollWidth") <= 391


def drag(page: Any, start: tuple[float, float], points: list[tuple[float, float]]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    for p in points:
        page.mouse.move(*p, steps=6)
    page.mouse.up()


def test_drag_a_2x2_unit(page: Any, live_server: str) -> None:
    new_game(page, live_server, "drag-2x2", "two_by_two", "sample")
    page.evaluate(SHELL)
    ready(page)
    unit = '#board g.unit[data-unit="A2"]'
    x0, y0 = (float(page.get_attribute(unit, k) or 0) for k in ("data-x", "data-y"))
    sx, sy = centre(page, unit)
    scale = page.locator("#board svg").bounding_box()["width"] / float(
        page.get_attribute("#board svg", "viewBox").split()[2]
    )
    drag(page, (sx, sy), [(sx, sy + 57 * scale)])  # [3] south, toward the French
    page.wait_for_selector("#move-confirm:not([hidden])")
    text = page.inner_text("#move-text")
    assert "A2: [3.0] moved" in text and "left of [4]" in text
    page.click("#move-ok")
    ready(page, 2)
    assert "move" in log_procedures(page, live_server, "drag-2x2")
    y1 = float(page.get_attribute(unit, "data-y") or 0)
    assert y1 == pytest.approx(y0 - 57, abs=2)  # the board shows it where it was dropped
    assert float(page.get_attribute(unit, "data-x") or 0) == pytest.approx(x0, abs=2)
    screenshot(page, "board_two_by_two_dragged")


def test_a_2x2_move_the_rules_refuse_is_not_offered(page: Any, live_server: str) -> None:
    new_game(page, live_server, "drag-2x2-far", "two_by_two", "sample")
    page.evaluate(SHELL)
    ready(page)
    sx, sy = centre(page, '#board g.unit[data-unit="A2"]')
    drag(page, (sx, sy), [(sx, sy + 300)])
    page.wait_for_function(
        "() => document.getElementById('board-readout').textContent.startsWith('refused')"
    )
    assert page.locator("#move-confirm").is_hidden()
    assert log_procedures(page, live_server, "drag-2x2-far").count("move") == 0


def test_drag_a_nab_force_along_a_hex_path(page: Any, live_server: str) -> None:
    new_game(page, live_server, "drag-nab", "napoleon_at_bay", "example1")
    page.evaluate(SHELL)
    ready(page)
    hexes = page.locator("#board #map-layer polygon.hex").count()
    assert hexes > 0
    start = centre(page, '#board g.piece[data-piece="F1"]')
    dest = centre(page, '#board polygon.hex[data-hex="W2020"]')
    drag(page, start, [dest])
    page.wait_for_selector("#move-confirm:not([hidden])")
    text = page.inner_text("#move-text")
    assert "W2020" in text and "MP" in text and "ZOC of R1" in text
    page.click("#move-ok")
    ready(page, 2)
    assert "move" in log_procedures(page, live_server, "drag-nab")
    assert page.get_attribute('#board g.piece[data-piece="F1"]', "data-hex") == "W2020"
    assert page.locator('#board g.piece[data-piece="F1"].changed').count() == 1  # highlighted
    # the answer left the map out (the page sent its seq): the page put its own map back
    assert page.locator("#board #map-layer polygon.hex").count() == hexes
    screenshot(page, "board_napoleon_at_bay_dragged")


def test_tap_then_tap_moves_a_nab_force(page: Any, live_server: str) -> None:
    new_game(page, live_server, "tap-nab", "napoleon_at_bay", "example1")
    page.evaluate(SHELL)
    ready(page)
    page.click('[data-board="move-mode"]')
    page.click('#board g.piece[data-piece="F1"]')
    page.click('#board polygon.hex[data-hex="W2020"]', force=True)
    page.wait_for_selector("#move-confirm:not([hidden])")
    page.click("#move-cancel")
    assert log_procedures(page, live_server, "tap-nab").count("move") == 0


def test_rings_on_demand_2x2(page: Any, live_server: str) -> None:
    new_game(page, live_server, "rings-2x2", "two_by_two", "sample")
    ready(page)
    page.click('#board g.unit[data-unit="A2"]')
    page.select_option("#board-ring", label="Div HQ [4]")
    ring = page.locator("#board circle.ring")
    assert float(ring.get_attribute("r") or 0) == pytest.approx(4 * 19.05, abs=0.1)
    page.select_option("#board-ring", label="counter-charge: 1/2 its move")
    assert float(ring.get_attribute("r") or 0) == pytest.approx(2 * 19.05, abs=0.1)  # [4] / 2
    screenshot(page, "board_two_by_two_ring")


def test_drag_a_kuryakin_unit_in_cm(page: Any, live_server: str, live_db: Any) -> None:
    from vedette import rules
    from vedette.engine import Game, Store

    g = Game.create(
        Store(live_db),
        "drag-ku",
        "solo_napoleonic",
        rules.get("solo_napoleonic").scenario("sample"),
        seed=11,
    )
    for proc in ("staff", "control", "deal", "next"):
        g.perform(proc, {})
    assert g.state.active == "A3"
    page.goto(f"{live_server}/games/drag-ku")
    page.evaluate(SHELL)
    ready(page)
    unit = '#board g.unit[data-unit="A3"]'
    y0 = float(page.get_attribute(unit, "data-y") or 0)
    sx, sy = centre(page, unit)
    scale = page.locator("#board svg").bounding_box()["width"] / float(
        page.get_attribute("#board svg", "viewBox").split()[2]
    )
    drag(page, (sx, sy), [(sx, sy + 100 * scale)])  # 10 cm south: straight ahead for A3
    page.wait_for_selector("#move-confirm:not([hidden])")
    text = page.inner_text("#move-text")
    assert "A3: 10.0 cm of" in text and "cm left" in text
    page.click("#move-ok")
    ready(page, 2)
    assert "move" in log_procedures(page, live_server, "drag-ku")
    assert float(page.get_attribute(unit, "data-y") or 0) < y0  # it went south (random die aside)


def test_markup_in_names_stays_text_in_legend_and_roster(
    page: Any, live_server: str, live_db: Any
) -> None:
    from tests.web.markup import markup_scenario
    from tests.web.test_web_browser_xss import PROBE
    from vedette import rules
    from vedette.engine import Game, Store

    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    for name in rules.BUILTIN:
        Game.create(Store(live_db), f"xss-board-{name}", name, markup_scenario(name), seed=1)
        page.goto(f"{live_server}/games/xss-board-{name}")
        ready(page)
        page.click(".board-roster summary")
        probe = page.evaluate(PROBE)
        assert not probe["xss"] and probe["imgs"] == 0 and probe["scripts"] == 0, probe
        shown = page.inner_text("#board-roster") + page.inner_text("#board-legend")
        assert "<img src=x" in shown or "<script>" in shown, name  # escaped, not dropped
    assert dialogs == []
