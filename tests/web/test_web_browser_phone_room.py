"""The phone's sheet and its room (session 22), on a 390x844 touch phone with 2 by 2's sample:
the player's own dice take no room before a face can do the step (5 of 24 own-dice
adjudications of the lead's walk needed a scroll: ten face buttons and the dice box pushed the
Next index out of the list's view); the lines in the list's view when it is laid out stay
there, above its index (they took two taps before the index, three through a group); an
opened group's taller sheet leaves the board, and the unit the lines are about, in view (it
took 80% of the screen for any group, the board under it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import Tabs, tab
from tests.web.test_web_asl_table import PHONE, REACHED, open_game
from tests.web.test_web_browser_next_index import GROUPS, TEXTS, TOP
from tests.web.test_web_browser_unit_taps import tapped_through
from vedette import rules
from vedette.engine import Game, Store
from vedette.web.views import todo as view_todo

#: the list's own lines (not a group's brought to its top, not the index)
LISTED = "#next li:not(.counter):not(.index) > button.next-item"
#: how much of the board's box is in view above the sheet, in CSS px
BOARD_SEEN = """() => { const v = document.getElementById('board-viewport').getBoundingClientRect();
    const s = document.querySelector('.panel').getBoundingClientRect();
    return Math.round(Math.min(v.bottom, s.top, innerHeight) - Math.max(v.top, 0)); }"""

#: five buttons or more in the index, each in reach
ALL_GROUPS_REACHED = f"""() => {{ const reached = {REACHED};
    const n = document.querySelectorAll('{GROUPS}').length;
    return n >= 5
      && [...Array(n).keys()].every((k) => reached('{GROUPS}:nth-child(' + (k + 1) + ')')); }}"""


def sample(live_db: Path, name: str, dice: str = "seeded") -> Game:
    scen = rules.get("two_by_two").scenario("sample")
    return Game.create(Store(live_db), name, "two_by_two", scen, seed=1, dice=dice)


def test_own_dice_buttons_wait_for_a_step_they_can_do(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """Own dice: the step chosen first (an advance) wants its distance before any face can do
    it, so neither the face buttons nor the empty dice box are shown, and every button of the
    index is in reach. A turn's line chosen without its angle is refused as it stands (its odds
    say so): no faces either. Its angle tapped (a turn rolls no dice), Roll does it."""
    g = sample(live_db, "room-own", "physical")
    turn = next(t for t in view_todo(g) if t["procedure"] == "turn" and t.get("pieces") == ["A2"])
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        errors = open_game(page, live_server, "room-own")
        page.wait_for_function("() => document.querySelector('#odds').innerText.trim() !== ''")
        assert page.is_hidden(".dice-pad") and page.is_hidden(".dice-label")
        # (the list laid out again in the room they leave: every button of the index in reach)
        page.wait_for_function(ALL_GROUPS_REACHED)
        groups = page.locator(GROUPS)
        groups.filter(has_text="IR 49 Hiller").tap()
        n = page.evaluate(TEXTS).index(turn["text"])
        line = f"{TOP}:nth-child({n + 1})"
        page.tap(f"{line} > button.next-item")
        page.wait_for_function("() => document.querySelector('#odds').innerText.includes('odds: ')")
        assert page.is_hidden(".dice-pad") and page.is_hidden(".dice-label")
        page.evaluate("() => { window.__keys = 0; }")
        tapped_through(page, (f"{line} .open-choices .choice", "#roll-btn"), errors)
    done = Game.open(Store(live_db), "room-own").records[-1].payload
    assert done["procedure"] == "turn" and done["request"]["unit"] == "A2"
    assert done["request"]["angle"] == turn["open"]["angle"][0]


def test_lines_in_the_list_s_view_stay_one_tap_away(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """The first unit's later lines that the list showed in its view stay listed above the
    index, in reach, the index still whole in view: its retire (one distance, nothing to
    choose) is its line and Roll, two taps, as before the index."""
    g = sample(live_db, "room-kept")
    todo = view_todo(g)
    retire = todo[1]
    assert retire["procedure"] == "retire" and len(retire["open"]["distance"]) == 1
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        errors = open_game(page, live_server, "room-kept")
        groups = page.locator(GROUPS)
        assert groups.count() >= 5
        assert all(
            page.evaluate(REACHED, f"{GROUPS}:nth-child({k + 1})") for k in range(groups.count())
        )
        texts = page.locator(f"{LISTED} .next-text").all_text_contents()
        assert texts[0] == todo[0]["text"] and retire["text"] in texts
        entry = f"{LISTED}[data-n='{texts.index(retire['text'])}']"
        tapped_through(page, (entry, "#roll-btn"), errors)
    done = Game.open(Store(live_db), "room-kept").records[-1].payload
    assert done["procedure"] == "retire" and done["request"]["unit"] == todo[1]["request"]["unit"]


def test_an_opened_group_leaves_its_unit_on_the_board_in_view(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """A unit of ten lines opened: every line and choice in reach, and above the sheet the
    board, its unit on it in reach (the sheet took 80% of the screen, the board under it). A
    single line opened leaves the sheet its own height, the board's box all in view. A line's
    choice and Roll do the step; the page is then back where it was."""
    g = sample(live_db, "room-board")
    todo = view_todo(g)
    unit = next(t for t in todo if t["text"].startswith("IR 49 Hiller"))["request"]["unit"]
    lines = [t for t in todo if unit in t.get("pieces", [])]
    assert len(lines) >= 9
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        errors = open_game(page, live_server, "room-board")
        page.locator(GROUPS).filter(has_text="IR 49 Hiller").tap()
        shown = page.evaluate(TEXTS)
        assert shown == [t["text"] for t in lines]
        for i in range(len(shown)):
            assert page.evaluate(REACHED, f"{TOP}:nth-child({i + 1}) > button.next-item"), shown[i]
        assert page.evaluate(BOARD_SEEN) >= 120
        assert page.evaluate(REACHED, f"#board [data-pick='{unit}']")
        # (a line of its own: the sheet its own height, the whole board's box above it)
        page.goto(f"{live_server}/games/room-board")
        page.wait_for_selector(GROUPS)
        page.locator(GROUPS).filter(has_text="roll for").tap()
        box = page.evaluate(
            "() => document.getElementById('board-viewport').getBoundingClientRect().height"
        )
        assert page.evaluate(BOARD_SEEN) >= box - 1
        # a wheel of the ten-line unit: its group, its angle, Roll; the page as it was
        page.goto(f"{live_server}/games/room-board")
        page.wait_for_selector(GROUPS)
        assert page.evaluate("window.scrollY") == 0
        page.evaluate("() => { window.__keys = 0; }")
        k = [w.startswith("IR 49 Hiller") for w in page.locator(GROUPS).all_inner_texts()].index(
            True
        )
        wheel = next(t for t in lines if t["procedure"] == "wheel")
        choice = f"{TOP}:nth-child({lines.index(wheel) + 1}) .open-choices .choice"
        tapped_through(page, (f"{GROUPS}:nth-child({k + 1})", choice, "#roll-btn"), errors)
        assert page.evaluate("window.scrollY") == 0
    done = Game.open(Store(live_db), "room-board").records[-1].payload
    assert done["procedure"] == "wheel" and done["request"]["unit"] == unit


def test_an_opened_group_s_unit_is_panned_into_the_board_s_view(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """The board zoomed in on its middle (three taps on its zoom), the Austrian units along
    its top edge out of its view: a unit's lines opened, the unit is panned into the board's
    part above the sheet, in reach, the zoom kept."""
    g = sample(live_db, "room-pan")
    todo = view_todo(g)
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        open_game(page, live_server, "room-pan")
        words = page.locator(GROUPS).all_inner_texts()
        units = {
            t["text"].split(" may ")[0]: t["request"]["unit"] for t in todo if " may " in t["text"]
        }
        opened = 0
        for k, w in enumerate(words):
            unit = next((u for name, u in units.items() if w.startswith(f"{name} (")), None)
            if unit is None:
                continue  # (a line of its own)
            page.goto(f"{live_server}/games/room-pan")
            page.wait_for_selector(GROUPS)
            for _ in range(3):
                page.tap("[data-board='zoom-in']")
            zoom = page.get_attribute("#board-viewport", "data-zoom")
            piece = f"#board [data-pick='{unit}']"
            assert not page.evaluate(REACHED, piece), unit  # (out of the zoomed view)
            page.tap(f"{GROUPS}:nth-child({k + 1})")
            assert page.evaluate(REACHED, piece), unit
            assert page.get_attribute("#board-viewport", "data-zoom") == zoom
            # (not zoomed: in view too)
            page.goto(f"{live_server}/games/room-pan")
            page.wait_for_selector(GROUPS)
            page.tap(f"{GROUPS}:nth-child({k + 1})")
            assert page.evaluate(REACHED, piece), unit
            opened += 1
        assert opened >= 4
