"""At the table on a phone (issue 26.3): on a 390x844 touch screen the board, the Next panel's
first entry, Roll and the result are on screen without scrolling; tap targets are at least
44 CSS px; an adjudication is taps only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Tabs, screenshot, tab
from tests.web.test_web_browser_next import has, make_game, until
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
    than squeezing it into a column a word wide beside them. (A unit's later entries, "wheel
    left", "turn right", are short buttons side by side on purpose, their choices shown once
    chosen: test_web_browser_reach.)"""
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
              .filter((e) => e.offsetParent !== null && !e.closest('li.same')
                && e.getBoundingClientRect().width < 0.8 * w)
              .map((e) => e.textContent.slice(0, 40)); }"""
    )
    assert not narrow, narrow


#: a small phone (360x740): the narrowest the app is laid out for
SMALL = {"width": 360, "height": 740}
#: is the element's centre the element itself to a finger (not under the sheet, not clipped)?
REACHED = """(s) => { const e = document.querySelector(s); const r = e.getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!at && (at === e || e.contains(at)); }"""
#: the element's top and bottom on screen, and the bottom sheet's top
ABOVE_SHEET = """(s) => { const r = document.querySelector(s).getBoundingClientRect();
    return [r.top, r.bottom, document.querySelector('.panel').getBoundingClientRect().top]; }"""


@pytest.fixture
def small(tabs: Tabs) -> Iterator[Any]:
    errors: list[str] = []
    with tab(tabs, viewport=SMALL, has_touch=True, is_mobile=True) as pg:
        pg.on("pageerror", lambda e: errors.append(str(e)))
        yield pg
    assert not errors, errors


def test_a_tap_move_its_readout_and_the_roster_are_in_reach_on_a_small_phone(
    small: Any, live_server: str, live_db: Path
) -> None:
    """The board's readout ("now tap where it goes", a refusal) shows above the bottom sheet, not
    below the board where the sheet or the board's own box hid it; the move's confirmation is
    tapped and the board is still in its place after; the legend and roster below the board are
    reached by scrolling the page (the board's box clipped them: no finger could reach them)."""
    scen = rules.get("napoleon_at_bay").scenario("sample")
    Game.create(Store(live_db), "small-nab", "napoleon_at_bay", scen, seed=3)
    small.goto(f"{live_server}/games/small-nab")
    small.wait_for_selector("#next .next-item")
    small.tap('[data-board="move-mode"]')
    small.tap('#board g.piece[data-piece="F1"]', force=True)
    assert "now tap where it goes" in small.inner_text("#board-readout")
    top, bottom, sheet = small.evaluate(ABOVE_SHEET, "#board-readout")
    assert top >= 0 and bottom <= sheet
    small.tap('#board polygon.hex[data-hex="W2020"]', force=True)
    small.wait_for_selector("#move-confirm:not([hidden])")
    assert small.evaluate(REACHED, "#move-ok")
    small.tap("#move-ok")
    small.wait_for_selector('#board g.piece[data-piece="F1"][data-hex="W2020"]')
    assert small.evaluate("window.scrollY") == 0
    assert small.evaluate(REACHED, '[data-board="zoom-in"]')  # the board's box not scrolled away
    for sel in (".board-legend > summary", ".board-roster > summary"):
        small.evaluate(
            "(s) => window.scrollTo(0, scrollY + document.querySelector(s)"
            ".getBoundingClientRect().top - 120)",
            sel,
        )
        assert small.evaluate(REACHED, sel), sel
    small.tap(".board-roster > summary")
    assert small.evaluate(REACHED, "#board-roster tr:first-child")


@pytest.mark.parametrize("ruleset", sorted(rules.BUILTIN))
def test_every_tap_target_of_a_game_page_is_44px_on_a_small_phone(
    small: Any, live_server: str, live_db: Path, ruleset: str
) -> None:
    """Not only the sheet's: the header's and the game's links (help, export, dice audit, the
    report), the board's zoom buttons, the legend's and roster's and a log entry's fold, the
    quick reference's link; and the quick reference's tables scroll in their own box, not the
    whole sheet sideways."""
    rs = rules.get(ruleset)
    scen = "sample" if "sample" in rs.scenarios else next(iter(rs.scenarios))
    Game.create(Store(live_db), f"t44-{ruleset}", ruleset, rs.scenario(scen), seed=1)
    small.goto(f"{live_server}/games/t44-{ruleset}")
    small.wait_for_selector("#next .next-item")
    small.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    targets = small.evaluate(
        """() => [...document.querySelectorAll('a, button, summary, select, input')]
            .filter((e) => e.offsetParent !== null && !e.closest('svg'))
            .map((e) => [e.id || e.className || e.textContent.trim().slice(0, 20),
                         e.getBoundingClientRect().height, e.getBoundingClientRect().width,
                         e.tagName === 'BUTTON'])"""
    )
    assert len(targets) > 10
    small_ones = [t for t in targets if t[1] < 44 or (t[3] and t[2] < 44)]
    assert not small_ones, small_ones
    wide, room = small.evaluate(
        "() => [document.querySelector('.panel').scrollWidth,"
        " document.querySelector('.panel').clientWidth]"
    )
    assert wide <= room


def test_the_games_list_fits_a_small_phone(small: Any, live_server: str, live_db: Path) -> None:
    """The home page's table of games (name, ruleset, events, started) made the page wider than
    the phone: it scrolls in its own box."""
    scen = rules.get("two_by_two").scenario("sample")
    Game.create(Store(live_db), "a-game-with-a-rather-long-name", "two_by_two", scen, seed=1)
    small.goto(f"{live_server}/")
    assert "a-game-with-a-rather-long-name" in small.inner_text("table.games")
    assert small.evaluate("document.documentElement.scrollWidth") == SMALL["width"]
    link = 'a[href="/games/a-game-with-a-rather-long-name"]'
    small.locator(link).scroll_into_view_if_needed()
    assert small.evaluate(REACHED, link)


def test_roll_stays_in_view_after_a_long_result_on_a_short_phone(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """A HIP shift's result (its roll, then every counter it moves) is taller than the sheet of
    a short phone (360x600): the sheet shows the result's first line (the result scrolls in a
    box of its own at the sheet's top), and Roll stays in view (it scrolled out of sight,
    though Roll alone does the step the panel has chosen next)."""
    until(make_game(live_db, "short-asl", "solitaire_asl"), has("shift"))
    short = {"width": 360, "height": 600}
    with tab(tabs, viewport=short, has_touch=True, is_mobile=True) as pg:
        pg.goto(f"{live_server}/games/short-asl")
        pg.wait_for_selector("#next .next-item")
        pg.tap('#next .next-item[data-procedure="shift"]')
        pg.tap("#roll-btn")
        pg.wait_for_selector("#result .line")
        sheet = pg.evaluate("document.querySelector('.panel').clientHeight")
        assert pg.evaluate("document.getElementById('result').scrollHeight") > 0.85 * sheet
        assert pg.evaluate(REACHED, "#result .line")
        top, bottom, sheet_top = pg.evaluate(ABOVE_SHEET, "#roll-btn")
        assert sheet_top <= top and bottom <= short["height"]  # the whole button in the sheet


@pytest.mark.parametrize("ruleset", sorted(rules.BUILTIN))
def test_a_ruleset_s_help_tables_and_builder_fit_a_small_phone(
    small: Any, live_server: str, ruleset: str
) -> None:
    """The help page's field tables and the quick-reference sheet's grids (read at the table)
    scroll in their own box, and the scenario builder's "import TOML" file box keeps within
    the screen: each made the whole page wider than the phone."""
    for path in (
        f"/help/{ruleset}",
        f"/help/{ruleset}/tables",
        f"/scenarios/new?ruleset={ruleset}",
    ):
        small.goto(f"{live_server}{path}")
        assert small.evaluate("document.documentElement.scrollWidth") == SMALL["width"], path


def test_the_odds_asked_for_show_in_the_sheet_on_a_small_phone(
    small: Any, live_server: str, live_db: Path
) -> None:
    """Odds tapped: the chart is scrolled into the sheet's view (it came below Roll and the
    result, out of sight: the tap seemed to do nothing)."""
    scen = rules.get("napoleon_at_bay").scenario("sample")
    g = Game.create(Store(live_db), "odds-nab", "napoleon_at_bay", scen, seed=3)
    g.perform("move", {"force": "F1", "to": "W2020"})
    small.goto(f"{live_server}/games/odds-nab")
    small.tap("#next li.owed .next-item")
    small.tap("#odds-btn")
    # the chart in the sheet's view (before: never, however long one waits)
    small.wait_for_function(REACHED, arg="#odds")
    assert "1d6" in small.inner_text("#odds")


def test_a_field_s_error_shows_in_the_sheet_on_a_small_phone(
    small: Any, live_server: str, live_db: Path
) -> None:
    """A whole sequence's odds asked for with a field left empty: the field and its error are
    scrolled into the sheet's view (they were below it, behind the "Compute the odds" button:
    the tap seemed to do nothing)."""
    make_game(live_db, "phone-seq-2x2", "two_by_two")
    small.goto(f"{live_server}/games/phone-seq-2x2")
    small.wait_for_selector("#next .next-item")
    small.tap("#sequences > summary")
    small.select_option("#sequence", "attack")
    small.tap("#seq-btn")
    error = ".field-error:not([hidden])"
    small.wait_for_selector(error)
    assert "action" in small.inner_text(error)
    assert small.evaluate(REACHED, error)  # scrolled in the same step as shown
