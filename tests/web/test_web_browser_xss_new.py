"""Session 19 (helper X): issue 11's markup (tests/web/test_web_browser_xss.py) through the
session's new page paths, in a real browser: an ASL counter's own reports listed when it is
tapped (A3's ``counters``), 2 by 2's unit-grouped Next entries (the ``next-who`` span) and the
pinned phase end (W7), and the own-deck deal's number row (K8: a die per holder, named by the
holder). Every name carries markup; no script runs, no element is injected, no page error."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.todo_play import fill, perform
from tests.web.markup import markup_scenario
from tests.web.test_web_browser_xss import PROBE
from vedette.engine import Game, Store


def _clean(page: Any, errors: list[str], dialogs: list[str], where: str) -> None:
    probe = page.evaluate(PROBE)
    assert not probe["xss"] and probe["imgs"] == 0 and probe["scripts"] == 0, (where, probe)
    assert errors == [] and dialogs == [], (where, errors, dialogs)


def test_markup_through_the_sessions_new_page_paths(
    page: Any, live_server: str, live_db: Path
) -> None:
    st = Store(live_db)
    asl = Game.create(st, "xss19-asl", "asl", markup_scenario("solitaire_asl"), seed=1)
    rng = random.Random(1)
    while asl.state.phase == "setup":  # (a counter's reports open once play begins)
        t = asl.ruleset.todo(asl.state)[0]
        perform(asl, t.procedure, fill(t, rng), rng)
    counters = asl.ruleset.judged_counter_actions(asl.state)
    marked = [k for k in counters if "<" in k]
    assert marked
    Game.create(st, "xss19-2x2", "two_by_two", markup_scenario("two_by_two"), seed=1)
    sn = Game.create(
        st, "xss19-kur", "solonap", markup_scenario("solo_napoleonic"), seed=1, dice="physical"
    )
    while (t := sn.ruleset.todo(sn.state)[0]).procedure != "deal":
        perform(sn, t.procedure, fill(t, rng), rng)

    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    page.goto(f"{live_server}/games/xss19-asl")
    page.wait_for_selector("#board svg")
    for k in marked:  # the board's pick of that counter (board.js's event)
        page.evaluate(
            "(k) => document.dispatchEvent(new CustomEvent('vedette:pick',"
            " {detail: {kind: 'unit', value: k, under: null}}))",
            k,
        )
        shown = page.locator("#next li.counter")
        assert shown.count() == len(counters[k]), k
        assert k in shown.first.inner_text()  # (the markup shown as text)
        shown.first.locator(".next-item").click()  # (chosen: its request fills the form)
        _clean(page, errors, dialogs, f"asl counter {k}")

    page.goto(f"{live_server}/games/xss19-2x2")
    page.wait_for_selector("#next li.same .next-who")
    who = page.locator("#next li.same .next-who").first.inner_text()
    assert "<" in who  # (the unit's marked-up name, as text)
    page.locator("#next li.same .next-item").first.click()
    page.locator("#next li.ends .next-item").click()  # the pinned phase end, chosen
    _clean(page, errors, dialogs, "2x2 grouped entries and the pinned end")

    page.goto(f"{live_server}/games/xss19-kur")
    page.wait_for_selector("#next .next-item")
    page.locator('#next .next-item[data-procedure="deal"]').first.click()
    page.click("#roll-btn")  # (no faces yet: the referee asks for the first holder's card)
    page.wait_for_function("() => document.getElementById('result').textContent.includes('<')")
    assert "'s card and tap its number" in page.locator("#result").inner_text()  # (as text)
    page.locator(".dice-pad .face:not([hidden])").first.click()  # a card turned up, tapped
    _clean(page, errors, dialogs, "Kuryakin's own deck")
