"""A piece tapped on the board lists its own Next entries first (session 20, every ruleset the
web draws a board for): on a 390x844 touch phone, a 2 by 2 unit, a Kuryakin unit or a
Napoleon At Bay force whose entries lie below the fold of a long Next list is tapped, and its
entries (``todo``'s own: same words, request and choices) come at the list's top, in view;
the piece, one of its entries or choices and Roll are three taps, no scroll and no key, and the
referee accepts the action. A piece with no entries adds nothing; names stay text."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.todo_play import fill, perform
from tests.web.conftest import Tabs, tab
from tests.web.markup import markup_scenario
from tests.web.test_web_asl_table import PHONE, REACHED, SEQ, open_game
from tests.web.test_web_browser_xss import PROBE
from vedette import rules
from vedette.engine import Game, Store
from vedette.web.views import todo as view_todo

#: the pieces' own entries at the list's top
TOP = "#next li.counter"


def kuryakin_card(g: Game) -> None:
    """Play Kuryakin's sample from todo's first entries to a card with many unit entries."""
    rng = random.Random(1)
    while not (len(todo := g.todo()) > 8 and any("unit" in t.request for t in todo)):
        perform(g, todo[0].procedure, fill(todo[0], rng), rng)


def tapped_through(page: Any, sels: tuple[str, ...], errors: list[str]) -> None:
    """Each of ``sels`` in reach and tapped in turn (the last one Roll): the referee answers,
    with no error, no key pressed and a clean console."""
    before = page.evaluate(SEQ)
    for sel in sels:
        assert page.evaluate(REACHED, sel), sel
        page.tap(sel)
    page.wait_for_function(f"b => ({SEQ}) !== b", arg=before)
    assert "error" not in page.inner_html("#result"), page.inner_text("#result")
    assert page.evaluate("window.__keys") == 0 and not errors, errors


def below_the_fold(pg: Any, g: Game) -> str:
    """A piece on the board whose first entry in the Next list (as the page lists them) is
    out of reach: under the fold of the list or of the screen."""
    seen: set[str] = set()
    for n, t in enumerate(view_todo(g)):
        for unit in t.get("pieces", [])[:1]:
            if unit in seen or not pg.locator(f"#board [data-pick='{unit}']").count():
                continue
            seen.add(unit)
            if not pg.evaluate(REACHED, f"#next li:not(.counter) > button[data-n='{n}']"):
                return str(unit)
    return ""


@pytest.mark.parametrize(
    ("ruleset", "name", "doing"),
    [
        ("two_by_two", "unit-tap-2x2", "choice"),
        ("two_by_two", "unit-tap-2x2-about", "face about"),
        ("solo_napoleonic", "unit-tap-kur", "choice"),
        ("napoleon_at_bay", "unit-tap-nab", "choice"),
    ],
)
def test_a_piece_tapped_lists_its_entries_first_three_taps(
    tabs: Tabs, live_server: str, live_db: Path, ruleset: str, name: str, doing: str
) -> None:
    """2 by 2's sample lists 61 entries (six units x ten lines), Kuryakin's card a unit's
    moves, formation and fire, Herman's a move per force: the piece tapped brings its own to
    the top, each in reach; its first choice (or a line with none: "face about") and Roll
    make the action, which the referee performs."""
    g = Game.create(Store(live_db), name, ruleset, rules.get(ruleset).scenario("sample"), seed=1)
    if ruleset == "solo_napoleonic":
        kuryakin_card(g)
    todo = g.todo()
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        errors = open_game(page, live_server, name)
        unit = below_the_fold(page, g)
        assert unit, "no piece's entries below the fold"
        own = [t for t in todo if unit in [t.request.get(k) for k in g.ruleset.pick_fields]]
        before = page.evaluate(SEQ)
        page.tap(f"#board [data-pick='{unit}']")
        shown = page.locator(f"{TOP} > button.next-item")
        # todo's entries about it, in todo's order, with todo's words; each in reach
        assert shown.count() == len(own) > 0
        words = page.locator(f"{TOP} .next-text").all_text_contents()
        assert words == [t.text for t in own]
        for i in range(len(own)):
            assert page.evaluate(REACHED, f"{TOP}:nth-child({i + 1}) > button.next-item"), i
        if doing == "choice":  # the first entry's first choice: chooses the entry as well
            chosen = own[0]
            target = f"{TOP}:first-child .open-choices .choice"
        else:
            n = next(i for i, t in enumerate(own) if t.text.endswith(f" may {doing}"))
            chosen = own[n]
            target = f"{TOP} > button[data-n='c{n}']"
        for sel in (target, "#roll-btn"):
            assert page.evaluate(REACHED, sel), sel
            page.tap(sel)
        page.wait_for_function(f"b => ({SEQ}) !== b", arg=before)
        assert "error" not in page.inner_html("#result"), page.inner_text("#result")
        assert page.evaluate("window.scrollY") == 0
        assert page.evaluate("window.__keys") == 0 and not errors, errors
    done = Game.open(Store(live_db), name).records[-1].payload
    assert done["procedure"] == chosen.procedure, done
    assert chosen.request == {k: done["request"][k] for k in chosen.request}
    assert unit in done["request"].values()


def test_a_piece_with_no_entries_adds_nothing(tabs: Tabs, live_server: str, live_db: Path) -> None:
    """2 by 2's first player phase: the other side's unit has no entry; tapped, nothing joins
    the list (and its own unit's entries, shown before, go: the tap is another piece's)."""
    scen = rules.get("two_by_two").scenario("sample")
    Game.create(Store(live_db), "unit-tap-none", "two_by_two", scen, seed=1)
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        errors = open_game(page, live_server, "unit-tap-none")
        lines = page.locator("#next li").count()
        page.tap("#board [data-pick='A1']")
        assert page.locator(TOP).count() > 0
        page.tap("#board [data-pick='F1']")
        assert page.locator(TOP).count() == 0
        assert page.locator("#next li").count() == lines
        assert not errors, errors


def test_markup_in_a_tapped_piece_s_entries_stays_text(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """Issue 11 through the tapped piece's entries: a 2 by 2 unit named with markup, its
    entries listed at the top with its name as text, chosen; no script runs, nothing is
    injected."""
    g = Game.create(
        Store(live_db), "unit-tap-xss", "two_by_two", markup_scenario("two_by_two"), seed=1
    )
    unit = next(str(t.request["unit"]) for t in g.todo() if "<" in str(t.request.get("unit", "")))
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        errors = open_game(page, live_server, "unit-tap-xss")
        page.evaluate(
            "(k) => document.dispatchEvent(new CustomEvent('vedette:pick',"
            " {detail: {kind: 'unit', value: k, under: null}}))",
            unit,
        )
        shown = page.locator(f"{TOP} > button.next-item")
        assert shown.count() > 1
        assert "<" in shown.first.inner_text()
        shown.nth(1).click()
        probe = page.evaluate(PROBE)
        assert not probe["xss"] and probe["imgs"] == 0 and probe["scripts"] == 0, probe
        assert not errors, errors


def test_a_kuryakin_general_tapped_lists_his_ride(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """Kuryakin's general (his ride to a unit, ``general``): tapped on the board, his entry
    comes first; one of its units tapped as a choice, then Roll: the ride is performed."""
    scen = rules.get("solo_napoleonic").scenario("sample")
    g = Game.create(Store(live_db), "unit-tap-gen", "solonap", scen, seed=1)
    rng = random.Random(1)
    while not (rides := [t for t in g.todo() if t.procedure == "general"]):
        first = g.todo()[0]
        perform(g, first.procedure, fill(first, rng), rng)
    ride = rides[0]
    general = str(ride.request["general"])
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        errors = open_game(page, live_server, "unit-tap-gen")
        page.tap(f"#board [data-pick='{general}']")
        assert page.locator(f"{TOP} .next-text").all_text_contents() == [ride.text]
        tapped_through(page, (f"{TOP}:first-child .open-choices .choice", "#roll-btn"), errors)
    done = Game.open(Store(live_db), "unit-tap-gen").records[-1].payload
    assert done["procedure"] == "general" and done["request"]["general"] == general
    assert done["request"]["to"] == ride.open["to"][0]
