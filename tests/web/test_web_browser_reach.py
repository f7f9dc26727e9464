"""On a 390x844 touch phone the Next entries a player must reach are in reach without a scroll:
the entry that ends the phase (the ruleset's ``phase_end``: "end the phase", ASL's next phase,
Napoleon At Bay's end of movement, Kuryakin's next card) and every owed entry. Session 18's
evening walk found ASL's "next phase" at 858 px on an 844 px screen and 2 by 2's "end the
phase" below some 60 entries: a scroll before the tap."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import screenshot
from tests.web.test_web_browser_next import has, make_game, until
from tests.web.test_web_browser_phone import PHONE, phone  # noqa: F401  (the fixture)
from vedette.engine import Game

#: each entry's centre is the entry itself to a finger: on the screen, not clipped by the
#: list's scroll box, not under the sheet's Roll bar or another entry
REACHED_ALL = """(es) => es.map((e) => { const r = e.getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return [e.innerText.slice(0, 50), !!at && (at === e || e.contains(at))]; })"""
#: the layout settled (the list sized to the sheet in the next frame)
SETTLED = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def nab_fix_owed(g: Game) -> None:
    g.perform("move", {"force": "F1", "to": "W2020"})  # the fixing owed, then end movement


def sn_next_card(g: Game) -> None:
    until(g, has("next"))  # the staff rated, the cards dealt: a card acts, 'next' ends it


#: a case: the ruleset, its options, the play before the page is opened, and whether a
#: stated move is then made on the page (a result shown above the list takes its room)
CASES: dict[str, tuple[str, dict[str, Any], Callable[[Game], None], bool]] = {
    "nab sample": ("napoleon_at_bay", {}, lambda g: None, False),
    "nab fixing owed": ("napoleon_at_bay", {}, nab_fix_owed, False),
    "asl sample": ("solitaire_asl", {}, lambda g: None, False),
    "2x2 tracked": ("two_by_two", {}, lambda g: None, False),
    "2x2 stated, after a move": ("two_by_two", {"play": "stated"}, lambda g: None, True),
    "kuryakin card": ("solo_napoleonic", {}, sn_next_card, False),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_phase_s_end_and_each_owed_entry_are_in_reach_without_a_scroll(
    phone: Any,  # noqa: F811  (the fixture)
    live_server: str,
    live_db: Path,
    case: str,
) -> None:
    ruleset, options, play, stated_move = CASES[case]
    name = "reach-" + case.replace(" ", "-").replace(",", "")
    g = make_game(live_db, name, ruleset, **options)
    play(g)
    phone.goto(f"{live_server}/games/{name}")
    phone.wait_for_selector("#next .next-item.chosen")
    if stated_move:  # the first entry's distance, Roll: its result above the list
        phone.tap("#next li:has(.next-item.chosen) .open-choices .choice >> nth=0")
        phone.tap("#roll-btn")
        phone.wait_for_selector("#log li[data-seq='2']")
        assert phone.locator("#result .line").count()
    phone.evaluate(SETTLED)
    ends = ",".join(
        f"#next li:not(.owed) button.next-item[data-procedure={p}]" for p in g.ruleset.phase_end
    )
    owed = phone.locator("#next li.owed button.next-item").count()
    if case == "nab fixing owed":  # (the fixing blocks every other step: it alone is listed)
        assert owed == 1
    else:
        assert phone.locator(ends).count() == 1, phone.inner_text("#next")
    shown = phone.eval_on_selector_all(f"{ends}, #next li.owed button.next-item", REACHED_ALL)
    screenshot(phone, f"reach_{name}")
    assert all(ok for _, ok in shown), shown
    assert phone.evaluate("scrollY") == 0  # (the test scrolls nothing; the page did not either)
    assert phone.viewport_size == PHONE
    # and the end is a tap away: tapped where it is, it is the step Roll does
    if not owed:
        phone.tap(ends)
        assert phone.input_value("#procedure") in g.ruleset.phase_end


def test_a_unit_s_later_entries_are_short_buttons_in_reach_under_its_first(
    phone: Any,  # noqa: F811  (the fixture)
    live_server: str,
    live_db: Path,
) -> None:
    """2 by 2 tracked lists ten entries a unit (advance, retire, wheel and turn each way ...):
    the unit's name is said by its first entry, the others are short buttons side by side
    ("wheel left"), so nine of the ten are in reach on the first screen (three were: they took
    two screens, a line or three each). A short button is still the whole entry: its text
    keeps the unit's name (a screen reader reads it), and tapped, its choices show in reach;
    entry, choice and Roll do the step. (Session 21: a phone's long list opens on an index;
    the unit's lines are these, at the list's top, once it is tapped on the board.)"""
    g = make_game(live_db, "reach-units", "two_by_two")
    first = g.todo()[0]
    unit = first.text.split(" may ")[0]
    mine = [t for t in g.todo() if t.text.startswith(f"{unit} may ")]
    phone.goto(f"{live_server}/games/reach-units")
    phone.wait_for_selector("#next .next-item.chosen")
    phone.evaluate(SETTLED)
    phone.tap(f"#board [data-pick='{first.request['unit']}']")
    buttons = "#next li.counter > button.next-item"
    shown = phone.eval_on_selector_all(buttons, REACHED_ALL)
    screenshot(phone, "reach_units")
    assert len(shown) == len(mine) == 10
    # nine of them in reach at once (three before: a line or three each, with their choices);
    # the tenth, "put out its skirmisher screen", is a row under the phase's end, held below
    assert [text for text, ok in shown if not ok] in ([], [shown[-1][0]]), shown
    assert phone.locator("#next li.counter.same").count() >= len(mine) - 1
    wheel = "#next li.counter.same button.next-item[data-procedure=wheel] >> nth=0"
    said = " ".join(phone.inner_text(wheel).split())
    assert said.startswith(f"{unit} may wheel"), said  # (the name kept)
    its = "#next li.counter.same:has(> .next-item[data-procedure=wheel]) > .open-choices >> nth=0"
    assert phone.locator(its).is_hidden()  # (until it is chosen)
    before = phone.get_attribute("#log li", "data-seq")
    phone.tap(wheel)
    chips = "#next li:has(> .next-item.chosen) .open-choices .choice"
    phone.evaluate(SETTLED)
    assert phone.eval_on_selector_all(chips, REACHED_ALL) and all(
        ok for _, ok in phone.eval_on_selector_all(chips, REACHED_ALL)
    )
    phone.tap(f"{chips} >> nth=0")
    phone.tap("#roll-btn")
    phone.wait_for_function("b => document.querySelector('#log li').dataset.seq !== b", arg=before)
    assert "wheels" in phone.inner_text("#result"), phone.inner_text("#result")
