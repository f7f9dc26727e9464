"""A long Next list opens on an index on a phone (session 21): on a 390x844 touch phone, a
list longer than its room (2 by 2's sample: six units of nine or ten lines, a roll for
reinforcements, a voluntary rout, the phase's end) shows the step chosen first, and every
other unit's lines (or a line of its own) as one button each. Every entry is then three taps
away with no scroll: its group, its line or one of its choices, Roll. In the lead's walk, 11
of 50 adjudications from the list needed a scroll first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import Tabs, tab
from tests.web.test_web_asl_table import PHONE, REACHED, open_game
from tests.web.test_web_browser_unit_taps import tapped_through
from vedette import rules
from vedette.engine import Game, Store
from vedette.web.views import todo as view_todo

#: the groups of the index, and the entries a group's tap brings to the list's top
GROUPS = "#next li.index > .next-group"
TOP = "#next li.counter"
#: the texts of the entries brought to the top (a unit's later lines say its name hidden)
TEXTS = f"() => [...document.querySelectorAll('{TOP} .next-text')].map((s) => s.textContent)"


def test_every_entry_of_a_long_list_is_three_taps_away(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """2 by 2's sample, first phase: the list opens on its index, each group in reach; each
    group tapped brings its lines to the top, each line (and its first choice) in reach, in
    todo's words; every entry of todo is the first one or in one group. One of the last unit's
    later lines is then done by its choice and Roll: the referee performs it."""
    scen = rules.get("two_by_two").scenario("sample")
    g = Game.create(Store(live_db), "index-2x2", "two_by_two", scen, seed=1)
    todo = view_todo(g)
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        errors = open_game(page, live_server, "index-2x2")
        groups = page.locator(GROUPS)
        assert groups.count() >= 6
        listed = page.locator("#next li:not(.counter) .next-text").all_text_contents()
        assert listed[0] == todo[0]["text"]
        reached = set(listed)
        for k in range(groups.count()):
            if k:  # (each from the list's first view, as after an action; not a reload,
                # which keeps the page's scroll: a tall group lifts the board into view)
                page.goto(f"{live_server}/games/index-2x2")
                page.wait_for_selector(GROUPS)
            assert page.evaluate(REACHED, f"{GROUPS}:nth-child({k + 1})"), k
            groups.nth(k).tap()
            shown = page.evaluate(TEXTS)
            assert shown and set(shown) <= {t["text"] for t in todo}
            for i in range(len(shown)):
                line = f"{TOP}:nth-child({i + 1})"
                assert page.evaluate(REACHED, f"{line} > button.next-item"), shown[i]
                if page.locator(f"{line} .open-choices").count():
                    assert page.evaluate(REACHED, f"{line} .open-choices .choice"), shown[i]
            reached |= set(shown)
        assert reached == {t["text"] for t in todo}
        assert page.evaluate("window.scrollY") == 0
        # the last unit's wheel to the right: its group, its first choice, Roll
        unit = [t for t in todo if t["procedure"] == "wheel"][-1]["request"]["unit"]
        wheel = [t for t in todo if t["procedure"] == "wheel" and t["request"]["unit"] == unit][1]
        page.reload()
        page.wait_for_selector(GROUPS)
        page.evaluate(
            "() => { window.__keys = 0; addEventListener('keydown', () => window.__keys++, true); }"
        )
        group = page.locator(GROUPS).filter(has_text=wheel["text"].split(" may ")[0])
        group.first.tap()
        n = page.evaluate(TEXTS).index(wheel["text"])
        tapped_through(
            page, (f"{TOP}:nth-child({n + 1}) .open-choices .choice", "#roll-btn"), errors
        )
    done = Game.open(Store(live_db), "index-2x2").records[-1].payload
    assert done["procedure"] == "wheel" and done["request"]["unit"] == unit
    assert done["request"]["angle"] == wheel["open"]["angle"][0]


def test_a_first_entry_with_more_choices_than_fit_has_a_button_of_its_own(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """Napoleon At Bay's sample on a 360x740 phone: the first force's move, chosen first, has
    twelve hexes shown (and a pick of the rest), more than the list's room holds with the
    index: its first row of hexes is in the list, and the index has a button of its own for
    it, which brings all its hexes to the top. A hex out of the list's view is then that
    button, the hex and Roll: the referee moves the force there."""
    scen = rules.get("napoleon_at_bay").scenario("sample")
    g = Game.create(Store(live_db), "index-nab", "napoleon_at_bay", scen, seed=1)
    first = view_todo(g)[0]
    with tab(tabs, viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True) as pg:
        page: Any = pg
        errors = open_game(page, live_server, "index-nab")
        chips = "#next li.first .open-choices .choice"
        shown = [page.evaluate(REACHED, f"{chips}:nth-of-type({k + 1})") for k in range(12)]
        assert any(shown) and not all(shown), shown
        hidden = shown.index(False)
        assert page.locator(GROUPS).first.inner_text() == first["text"]
        page.locator(GROUPS).first.tap()
        assert page.evaluate(TEXTS) == [first["text"]]
        at_top = f"{TOP} .open-choices .choice"
        assert all(page.evaluate(REACHED, f"{at_top}:nth-of-type({k + 1})") for k in range(12))
        tapped_through(page, (f"{at_top}:nth-of-type({hidden + 1})", "#roll-btn"), errors)
    done = Game.open(Store(live_db), "index-nab").records[-1].payload
    want = first["open"]["to"][hidden]
    assert done["procedure"] == "move" and done["request"]["to"] in (want, [want])  # (a path)


def test_with_own_dice_the_index_keeps_its_room(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """2 by 2 played with the player's own dice: the step chosen first (an advance) rolls no
    dice, so no face buttons take the sheet's room once its distance is tapped and its odds
    say so, and every button of the index is in reach. The voluntary rout's button chooses
    it: the d6's faces show, and the last face tapped (a d6 for each unit routing) does it."""
    scen = rules.get("two_by_two").scenario("sample")
    Game.create(Store(live_db), "index-own", "two_by_two", scen, seed=1, dice="physical")
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        errors = open_game(page, live_server, "index-own")
        page.tap("#next li.first .open-choices .choice")
        # (the step's dice known, none: its odds answered, then the pad put away)
        page.wait_for_function(
            "() => document.querySelector('#odds').innerText.includes('no dice')"
        )
        page.wait_for_selector(".dice-pad", state="hidden")
        groups = page.locator(GROUPS)
        assert groups.count() >= 6
        assert all(
            page.evaluate(REACHED, f"{GROUPS}:nth-child({k + 1})") for k in range(groups.count())
        )
        page.locator(GROUPS).filter(has_text="rout voluntarily").tap()
        page.wait_for_selector(".dice-pad .face[data-face='6']:visible")
        assert page.locator(".dice-pad .face:visible").count() == 6
        six = ".dice-pad .face[data-face='6']"
        tapped_through(page, (six, six), errors)  # (the rout's d6, and a routing friend's)
    done = Game.open(Store(live_db), "index-own").records[-1].payload
    assert done["procedure"] == "rout" and done["rolls"][0]["dice"][0]["face"] == 6
