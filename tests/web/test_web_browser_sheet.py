"""At the table on a small phone (360x740, touch): the bottom sheet folds to one line so the
board takes at least half the screen, and the next step is still one tap (Roll) away; a refusal
(the player's own dice, an undo with nothing to undo, a field left empty) is shown in place in
the web form's words and leaves the browser's console clean (it logged each HTTP 400); the
player's own dice are taps in the sheet's view; the help and after-action pages' links are 44
CSS px tap targets; and a few adjudications of each ruleset's sample, played by taps alone,
take at most three each."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Tabs, screenshot, tab
from tests.web.test_web_browser_next import (
    ADVANCE,
    IN_INDEX,
    all_entries,
    entries,
    has,
    make_game,
    reach,
    until,
)
from tests.web.test_web_browser_phone import REACHED
from tests.web.test_web_browser_taps import MAP_PICK, OPEN_FIELD, OPTIONS, OWED, TRIED, answered
from vedette import rules
from vedette.dice.sources import DiceNeeded
from vedette.engine import Game, Store
from vedette.rules.solo_napoleonic import cards

SMALL = {"width": 360, "height": 740}
#: the board's box on screen above the sheet (px), and the sheet's height
BOARD_SHOWN = """() => {
    const v = document.querySelector('.board-viewport').getBoundingClientRect();
    const p = document.querySelector('.panel').getBoundingClientRect();
    return [Math.min(v.bottom, p.top) - Math.max(v.top, 0), p.height]; }"""
#: no key pressed from here on (a tap never types)
COUNT_KEYS = (
    "() => { window.__keys = 0; addEventListener('keydown', () => window.__keys++, true); }"
)


@pytest.fixture
def small(tabs: Tabs) -> Iterator[Any]:
    """A small phone's page; the test fails if its console logged an error (a failed request
    is one: 'Failed to load resource: ... 400') or a script threw."""
    errors: list[str] = []
    with tab(tabs, viewport=SMALL, has_touch=True, is_mobile=True) as pg:
        pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        pg.on("pageerror", lambda e: errors.append(str(e)))
        yield pg
    assert not errors, errors


def logged(page: Any) -> str:
    return str(page.get_attribute("#log li", "data-seq") or "")


def tap_roll(page: Any) -> str:
    before = logged(page)
    page.tap("#roll-btn")
    answered(page, before)
    return str(page.inner_text("#result"))


def test_the_sheet_folds_to_one_line_and_the_board_takes_half_the_screen(
    small: Any, live_server: str, live_db: Path
) -> None:
    """Folded (its handle), the sheet is one line: the step Roll does next, what is picked for
    it, Roll. The board then shows on at least half the screen (about 170 px of 740 before), a
    hex is picked on it and Roll moves the piece (two taps); the fixing owed next is one tap.
    A required field left empty unfolds the sheet on the entry's choices of it (nothing asked
    of the server).
    The fold is kept when the page is reloaded, and a tap on the line unfolds it."""
    scen = rules.get("napoleon_at_bay").scenario("sample")
    Game.create(Store(live_db), "sheet-nab", "napoleon_at_bay", scen, seed=3)
    page = small
    page.goto(f"{live_server}/games/sheet-nab")
    page.wait_for_selector("#next .next-item")
    page.evaluate(COUNT_KEYS)
    assert page.evaluate(BOARD_SHOWN)[0] < SMALL["height"] / 2  # unfolded: the sheet's half
    page.tap("#sheet-fold")
    shown, sheet = page.evaluate(BOARD_SHOWN)
    assert shown >= SMALL["height"] / 2 and sheet < 110, (shown, sheet)
    assert page.get_attribute("#sheet-fold", "aria-expanded") == "false"
    assert page.inner_text("#sheet-line").startswith("move F1")
    # Roll with the destination not yet picked: the sheet unfolds on the entry's choices of it
    page.tap("#roll-btn")
    page.wait_for_selector("#result .error")
    assert "missing 'to'" in page.inner_text("#result")
    assert page.evaluate(REACHED, "#next li:has(.chosen) .open-choices[data-field='to'] .choice")
    assert page.get_attribute("#sheet-fold", "aria-expanded") == "true"
    assert page.locator("#log li").count() == 1  # nothing done
    page.tap("#sheet-fold")
    screenshot(page, "phone_sheet_folded")
    page.tap(MAP_PICK)  # 1: the hex on the board
    assert "to W2020" in page.inner_text("#sheet-line")
    assert "moves W1920 -> W2020" in tap_roll(page)  # 2: Roll, in the folded sheet
    assert "fix" in page.inner_text("#sheet-line")  # the owed fixing, chosen next
    assert "fixing: 1d6=" in tap_roll(page)  # 1 tap
    assert page.is_visible("#result .line")  # the result's first line shows, folded
    assert page.evaluate("window.__keys") == 0
    page.reload()
    page.wait_for_selector("#sheet-line:not(:empty)")
    assert page.evaluate(BOARD_SHOWN)[0] >= SMALL["height"] / 2
    page.tap("#sheet-line")  # one tap back to the whole sheet
    assert page.is_visible("#next .next-item") and page.is_visible("#odds-btn")
    assert page.get_attribute("#sheet-fold", "aria-expanded") == "true"


def test_a_refusal_is_shown_in_place_in_the_forms_words_and_the_console_stays_clean(
    small: Any, live_server: str, live_db: Path
) -> None:
    """A game played with the player's own dice: Roll without faces asks for them in the web
    form's words (its dice buttons, not the command line's --dice), only the d6's faces are
    offered, a face too many (typed) is refused, the face tapped does the step; Undo with
    nothing left to undo says so. Each refusal is the one line under Roll (a folded sheet
    unfolds to show it and the dice buttons), nothing is written, and the console logs no error
    (each was an HTTP 400 the browser logged)."""
    scen = rules.get("napoleon_at_bay").scenario("sample")
    g = Game.create(Store(live_db), "own-nab", "napoleon_at_bay", scen, seed=3, dice="physical")
    g.perform("move", {"force": "F1", "to": "W2020"})
    page = small
    page.goto(f"{live_server}/games/own-nab")
    page.wait_for_selector("#next li.owed .next-item.chosen")
    page.tap("#sheet-fold")  # folded: the dice buttons are out of sight
    out = tap_roll(page)
    # unfolded by the refusal: its whole line and the dice buttons it asks for in view
    assert page.get_attribute("#sheet-fold", "aria-expanded") == "true"
    assert page.is_visible(".dice-pad .face[data-face='5']")
    assert "your own dice: roll 1d6, tap each face in order on the dice buttons" in out
    assert "--" not in out and "command" not in out
    assert page.locator("#result .error").count() == 1 and page.locator("#log li").count() == 2
    # the d6's faces only (a 7 was offered, then refused); a face too many is refused
    assert page.is_hidden(".dice-pad .face[data-face='7']")
    page.fill("#dice", "5 6")
    assert "2 dice given but only 1 needed (unused: 6)" in tap_roll(page)
    assert page.input_value("#dice") == "5 6"  # kept, to be cleared
    page.tap(".dice-pad .face-clear")
    before = logged(page)
    page.tap(".dice-pad .face[data-face='5']")  # the one face the fixing needs: it does it
    answered(page, before)
    assert "fixing: 1d6=5" in page.inner_text("#result")
    for _ in range(2):
        page.tap("#undo-btn")
        page.wait_for_function("() => /undid/.test(document.getElementById('result').innerText)")
        page.evaluate("() => document.getElementById('result').replaceChildren()")
    page.tap("#undo-btn")
    page.wait_for_selector("#result .error")
    assert page.inner_text("#result .error") == "nothing to undo"
    assert Game.open(Store(live_db), "own-nab").state.pieces["F1"].hexes == ("W1920",)


@pytest.mark.parametrize("ruleset", sorted(rules.BUILTIN))
def test_the_player_s_own_dice_are_taps_in_the_sheet_s_view(
    small: Any, live_server: str, live_db: Path, ruleset: str
) -> None:
    """A game played with the player's own dice: every face button shown, the box they fill and
    Roll are in the sheet's view when the page opens, right under the Next entries (they came after
    the action's form, filled by the entry: scrolled out of the sheet, behind Roll). A first step
    that wants a field first, or is refused as it stands, shows none (no face can do it yet) and
    no empty box: their room is the Next list's (session 22)."""
    rs = rules.get(ruleset)
    name = f"own-{ruleset}"
    Game.create(Store(live_db), name, ruleset, rs.scenario("sample"), seed=3, dice="physical")
    small.goto(f"{live_server}/games/{name}")
    small.wait_for_selector("#next .next-item")
    small.wait_for_selector("#odds > *", state="attached")  # the step's dice known (or none)
    # (the faces of the step's largest die where it is known: Kuryakin's staff rating, d8)
    shown = small.eval_on_selector_all(
        ".dice-pad:not([hidden]) .face:not([hidden])", "bs => bs.map((b) => b.dataset.face)"
    )
    odds = small.inner_text("#odds")
    if odds.startswith(("odds once", "odds: ")):
        assert shown == [] and small.is_hidden(".dice-label"), odds
        sels = ["#roll-btn"]
    else:
        assert shown[:6] == ["1", "2", "3", "4", "5", "6"], shown
        faces = [f".dice-pad .face[data-face='{f}']" for f in shown]
        sels = [*faces, ".dice-pad .face-clear", "#dice", "#roll-btn"]
    for sel in sels:
        assert small.evaluate(REACHED, sel), sel
    assert small.evaluate("window.scrollY") == 0


def test_two_dice_read_by_their_total_are_one_tap_of_a_pair(
    small: Any, live_server: str, live_db: Path
) -> None:
    """A game played with the player's own dice: an ASL shift's DR (2d6, its table read on the
    total, O'Leary 2.5) is its Next entry and one tap on the pair of faces the dice show (21
    pairs, every one in the sheet's view, the single faces put away), which does it: two taps,
    the faces recorded as given. A one-die roll keeps the face buttons (the refusal test above
    taps them)."""
    rs = rules.get("solitaire_asl")
    g = Game.create(
        Store(live_db), "pairs-asl", rs.name, rs.scenario("sample"), seed=3, dice="physical"
    )
    until(g, has("shift"))
    page = small
    page.goto(f"{live_server}/games/pairs-asl")
    page.wait_for_selector("#next .next-item")
    page.evaluate(COUNT_KEYS)
    _, procs = entries(page)
    page.tap(f"#next button.next-item[data-n='{procs.index('shift')}']")  # 1
    page.wait_for_selector(".dice-pairs:not([hidden])")
    pairs = page.eval_on_selector_all(".dice-pairs .pair", "bs => bs.map((b) => b.dataset.faces)")
    assert pairs == [f"{a} {b}" for a in range(1, 7) for b in range(a, 7)]
    for faces in pairs:
        assert page.evaluate(REACHED, f".dice-pairs .pair[data-faces='{faces}']"), faces
    assert page.evaluate(REACHED, "#roll-btn") and page.is_hidden(".dice-pad")
    before = logged(page)
    page.tap(".dice-pairs .pair[data-faces='3 4']")  # 2: both dice, the step done
    answered(page, before)
    assert "2d6=(3+4)=7" in page.inner_text("#result")
    dice = Game.open(Store(live_db), "pairs-asl").records[-1].payload["rolls"][0]["dice"]
    assert [d["face"] for d in dice] == [3, 4]
    assert page.evaluate("window.__keys") == 0


def tap_choice(page: Any, procedure: str, field: str, value: str) -> str:
    """The first ``procedure`` entry of todo chosen and its ``field`` given ``value`` in two
    taps, as a phone's player does it: the entry in the list (then the choice), or, where the
    list opens on an index, the entry's group (then the choice, which chooses the entry too).
    The chosen choice's selector."""
    _, procs = all_entries(page)
    n = procs.index(procedure)
    entry = f"#next li:not(.counter) > button.next-item[data-todo='{n}']"
    if page.locator(entry).count():
        page.tap(entry)
    else:
        page.locator("#next .next-group").nth(page.evaluate(IN_INDEX, n)).tap()
        entry = f"#next li.counter > button.next-item[data-todo='{n}']"
    chip = f"{entry} ~ .open-choices[data-field='{field}'] .choice[data-value='{value}']"
    page.tap(chip)
    return chip


def test_the_bore_sight_die_and_its_scatter_dice_are_one_tap(
    small: Any, live_server: str, live_db: Path
) -> None:
    """O'Leary 6.1 with the player's own dice: a 6 on the bore-sight die throws a direction
    die and a distance die. The page asked for them one at a time (the entry, the target, the
    6, the direction, the distance: five taps); it shows every sequence of faces to the step's
    end, a row per faces before the last die (1-5 alone, then a 6 with each direction), each
    in the sheet's view, and one tap on the faces the dice show does the step: three taps."""
    rs = rules.get("solitaire_asl")
    g = Game.create(
        Store(live_db), "paths-asl", rs.name, rs.scenario("sample"), seed=3, dice="physical"
    )
    g.perform("phase", {"to": "PFPh", "side": "Russian"})
    page = small
    page.goto(f"{live_server}/games/paths-asl")
    page.wait_for_selector("#next .next-item")
    page.evaluate(COUNT_KEYS)
    tap_choice(page, "boresight", "target", "4R4")  # 1 and 2: the entry, the target
    page.wait_for_selector(".dice-pairs:not([hidden]) .path-row")
    paths = page.eval_on_selector_all(".dice-pairs .path", "bs => bs.map((b) => b.dataset.faces)")
    assert paths == [str(f) for f in range(1, 6)] + [
        f"6 {d} {r}" for d in range(1, 7) for r in range(1, 7)
    ]
    for faces in paths:
        assert page.evaluate(REACHED, f".dice-pairs .path[data-faces='{faces}']"), faces
    assert page.evaluate(REACHED, "#roll-btn") and page.is_hidden(".dice-pad")
    before = logged(page)
    page.tap(".dice-pairs .path[data-faces='6 1 1']")  # 3: the three dice, the step done
    answered(page, before)
    assert "1 hex N of 4R4 is 4R3" in page.inner_text("#result")
    rolls = Game.open(Store(live_db), "paths-asl").records[-1].payload["rolls"]
    assert [r["final"] for r in rolls] == [6, 1, 1]
    assert page.evaluate("window.__keys") == 0


PHONE = {"width": 390, "height": 844}


def test_the_chosen_target_stays_in_view_beside_the_seven_rows_of_dice(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """O'Leary 6.1 with the player's own dice on a phone (390x844, touch): a bore-sight entry
    chosen and its target tapped, the seven rows of faces show and the Next list shrinks to
    give them room; the entry's target row (the target just tapped) had scrolled out of the
    list's view, so the player could not see what the dice were for. It stays in view, as do
    the faces and Roll."""
    rs = rules.get("solitaire_asl")
    g = Game.create(
        Store(live_db), "paths-phone", rs.name, rs.scenario("sample"), seed=3, dice="physical"
    )
    g.perform("phase", {"to": "PFPh", "side": "Russian"})
    with tab(tabs, viewport=PHONE, has_touch=True, is_mobile=True) as page:
        page.goto(f"{live_server}/games/paths-phone")
        page.wait_for_selector("#next .next-item")
        chip = tap_choice(page, "boresight", "target", "4R4")
        page.wait_for_selector(".dice-pairs:not([hidden]) .path-row")
        assert page.evaluate(REACHED, f"{chip}.chosen"), screenshot(page, "target-row")
        for faces in ("1", "5", "6 1 1", "6 6 6"):
            assert page.evaluate(REACHED, f".dice-pairs .path[data-faces='{faces}']"), faces
        assert page.evaluate(REACHED, "#roll-btn")


def own_until(g: Game, procedure: str, prefer: tuple[str, ...] = (), n: int = 60) -> None:
    """A game played with the player's own dice, moved on from 'what next' (owed first, then
    ``prefer``, then what moves the game on) until ``procedure`` is offered: each die asked
    for is given its middle face."""
    for _ in range(n):
        todo = g.todo()
        if any(t.procedure == procedure for t in todo):
            return
        t = next((t for t in todo if t.owed), None)
        t = t or next((t for t in todo if t.procedure in prefer), None)
        t = t or next((t for t in todo if t.procedure in ADVANCE), todo[0])
        req = {**t.request, **{k: v[0] for k, v in t.open.items()}}
        faces: list[int] = []
        while True:
            try:
                g.perform(t.procedure, req, faces or None)
                break
            except DiceNeeded as e:
                faces.append(sorted(e.die.faces)[len(e.die.faces) // 2])
    raise AssertionError(f"{procedure} never offered")


def test_dice_the_face_buttons_cannot_show_have_buttons_of_their_own(
    small: Any, live_server: str, live_db: Path
) -> None:
    """Kuryakin played with the player's own dice: a morale test's percentile dice (faces
    00-99) are two digit taps, the tens die then the units die (no d10 pad: the result chart's
    d10 is asked for when a failure draws it); a random move's dK8 (+3 to -3, Kuryakin, Random
    Movement) has a button for each face, asked for once the d6 the move rolls first (from a
    standstill: a 1 does not advance) lets it move (the face buttons keep 1-6: one row). Every
    one of them in the sheet's view; no key pressed (a 72, a 0 or a -2 had to be typed)."""
    rs = rules.get("solo_napoleonic")
    g = Game.create(Store(live_db), "own-sn", rs.name, rs.scenario("sample"), 3, dice="physical")
    own_until(g, "morale", prefer=("fire",))  # a shot's marker directs a morale test
    page = small
    page.goto(f"{live_server}/games/own-sn")
    page.wait_for_selector("#next .next-item")
    page.evaluate(COUNT_KEYS)
    _, procs = entries(page)
    page.tap(f"#next button.next-item[data-n='{procs.index('morale')}']")
    page.wait_for_selector(".dice-custom:not([hidden]) .face[data-die='dP']")
    for d in range(10):
        assert page.evaluate(REACHED, f".dice-custom .face[data-die='dP'][data-value='{d}']"), d
    assert page.locator(".dice-pad .face:not([hidden])").count() == 0  # no d10 asked for
    before = logged(page)
    page.tap(".dice-custom .face[data-die='dP'][data-value='7']")
    assert page.input_value("#dice") == "7"  # the tens: the units to come
    page.tap(".dice-custom .face[data-die='dP'][data-value='2']")  # the units: done
    answered(page, before)
    assert "dP=72" in page.inner_text("#result")
    own_until(Game.open(Store(live_db), "own-sn"), "move")
    page.reload()
    page.wait_for_selector("#next .next-item")
    page.evaluate(COUNT_KEYS)
    _, procs = entries(page)
    page.tap(f"#next button.next-item[data-n='{procs.index('move')}']")
    page.wait_for_selector(".dice-pad .face[data-face='6']:not([hidden])")
    assert page.locator(".dice-custom:not([hidden]) .face").count() == 0  # the d6 alone first
    before = logged(page)
    # moves from a standstill: the d6 alone is sent (its tap does the step), the dK8 asked for
    page.tap(".dice-pad .face[data-face='4']")
    page.wait_for_function("() => /die #2/.test(document.getElementById('dice-ask').innerText)")
    assert "die #2 (dK8) is needed: roll it, tap its face after the others" in page.inner_text(
        "#dice-ask"
    )
    page.wait_for_selector(".dice-custom:not([hidden]) .face[data-die='dK8']")
    faces = page.eval_on_selector_all(
        ".dice-pad .face:not([hidden]), .dice-custom .face", "bs => bs.map((b) => b.innerText)"
    )
    assert faces == ["+3", "+2", "+1", "0", "-1", "-2", "-3"]  # the die asked for, alone
    for f in faces:
        where = (
            f".dice-custom .face[data-value='{f}']" if f[0] in "+-0" else f".face[data-face='{f}']"
        )
        assert page.evaluate(REACHED, where), f
    page.tap(".dice-custom .face[data-value='-2']")
    # a 4 then -2 calls for another d6 (as the ask said: some faces call for more)
    page.wait_for_function("() => /die #3/.test(document.getElementById('dice-ask').innerText)")
    ask = page.inner_text("#dice-ask")
    assert "die #3 (d6) is needed: roll it, tap its face after the others" in ask
    page.tap(".dice-pad .face[data-face='3']")
    answered(page, before)
    assert "1dK8=-2" in page.inner_text("#result")
    assert page.evaluate("window.__keys") == 0


def test_undo_brings_the_action_back_to_its_form_to_be_done_again(
    small: Any, live_server: str, live_db: Path
) -> None:
    """Undo of the action the page just did puts it back in its form, its Next entry chosen
    again: one tap on Roll does it again (it left the fixing chosen after the move, which Roll
    then did on a move no longer made: refused), or one tap on the board changes it first."""
    scen = rules.get("napoleon_at_bay").scenario("sample")
    Game.create(Store(live_db), "undo-nab", "napoleon_at_bay", scen, seed=3)
    page = small
    page.goto(f"{live_server}/games/undo-nab")
    page.wait_for_selector("#next .next-item.chosen")
    page.tap(MAP_PICK)
    first = tap_roll(page)
    assert "moves W1920 -> W2020" in first
    assert page.input_value("#procedure") == "fix"  # the owed fixing, chosen next
    page.tap("#undo-btn")
    page.wait_for_function("() => /undid/.test(document.getElementById('result').innerText)")
    assert page.input_value("#procedure") == "move"
    move = 'form.proc[data-proc="move"]'
    assert page.input_value(f"{move} [name=force]") == "F1"
    assert page.input_value(f"{move} [name=to]") == "W2020"
    assert page.get_attribute("#next .next-item.chosen", "data-procedure") == "move"
    assert "to W2020" in page.inner_text("#sheet-line")
    assert tap_roll(page).splitlines()[0] == first.splitlines()[0]  # done again, one tap
    assert not page.locator("#result .error").count()


def test_a_counter_tapped_where_a_place_is_wanted_picks_the_place_under_it(
    small: Any, live_server: str, live_db: Path
) -> None:
    """ASL's set-up: a dummy HIP counter placed in a location (O'Leary 3.1.1). The location
    4S7 is tapped on the board where a German stack stands over it: the form takes the
    location under the stack (it said 'no open field of this action takes a unit', and the
    place could only be hit on the edge the counters leave uncovered); Roll places it."""
    rs = rules.get("solitaire_asl")
    Game.create(Store(live_db), "under-asl", rs.name, rs.scenario("sample"), seed=3)
    page = small
    page.goto(f"{live_server}/games/under-asl")
    page.wait_for_selector("#next .next-item")
    _, procs = entries(page)
    page.tap(f"#next button.next-item[data-n='{procs.index('place')}']")
    page.tap("#sheet-fold")  # the board in view
    stack = page.locator("#board .stack[data-loc='4S7']").first
    stack.scroll_into_view_if_needed()
    stack.tap()
    assert page.input_value('form.proc[data-proc="place"] [name=location]') == "4S7"
    assert "no open field" not in page.inner_text("#picked")
    assert " in 4S7 " in tap_roll(page)


def test_a_unit_tapped_on_the_board_fills_the_entry_field_that_offers_it(
    small: Any, live_server: str, live_db: Path
) -> None:
    """Kuryakin's chance card played 'on' a unit (Move Sequence): the unit tapped on the table
    fills the field whose choices offer it, though its name says nothing of the board (it
    said 'no open field of this action takes a unit'); the box is not focused on a touch
    screen (a focused box opens the phone's keyboard over the board); Roll plays the card."""
    g = make_game(live_db, "pick-sn", "solo_napoleonic")
    until(g, has("chance"))
    page = small
    page.goto(f"{live_server}/games/pick-sn")
    page.wait_for_selector("#next .next-item")
    _, procs = entries(page)
    entry = f"#next button.next-item[data-n='{procs.index('chance')}']"
    page.tap(entry)
    unit = page.get_attribute(
        f"{entry} ~ .open-choices[data-field=on] .choice >> nth=0", "data-value"
    )
    page.tap("#sheet-fold")
    piece = page.locator(f"#board [data-pick='{unit}']").first
    piece.scroll_into_view_if_needed()
    piece.tap()
    assert page.input_value('form.proc[data-proc="chance"] [name=on]') == unit
    assert "no open field" not in page.inner_text("#picked")
    assert page.evaluate("document.activeElement.tagName") not in ("INPUT", "SELECT")
    assert f" on {unit}:" in tap_roll(page)


def test_a_reload_keeps_the_step_being_prepared_and_the_fold(
    small: Any, live_server: str, live_db: Path
) -> None:
    """A phone drops a page left in the background and reloads it: the step being prepared
    comes back as it was (its Next entry, the hex picked on the board, the faces tapped) with
    the sheet folded as it was, one tap from Roll (the pick was lost: the first entry, empty).
    Once something is done in the game meanwhile, the page opens on what is next instead."""
    scen = rules.get("napoleon_at_bay").scenario("sample")
    g = Game.create(Store(live_db), "reload-nab", "napoleon_at_bay", scen, seed=3)
    g.perform("move", {"force": "F1", "to": "W2020"})
    g.perform("fix", {"moving": "F1", "contact": "R1"})
    page = small
    page.goto(f"{live_server}/games/reload-nab")
    page.wait_for_selector("#next .next-item")
    _, procs = entries(page)
    page.tap(f"#next button.next-item[data-n='{procs.index('move')}']")
    force = page.input_value('form.proc[data-proc="move"] [name=force]')
    page.tap("#sheet-fold")
    hexes = page.eval_on_selector_all(
        "#next .next-item.chosen ~ .open-choices[data-field=to] .choice",
        "bs => bs.map((b) => b.dataset.value)",
    )
    page.locator(f'#board polygon[data-hex="{hexes[-1]}"]').tap()
    line = page.inner_text("#sheet-line")
    assert f"to {hexes[-1]}" in line
    page.reload()
    page.wait_for_selector("#sheet-line:not(:empty)")
    assert page.inner_text("#sheet-line") == line
    assert page.get_attribute("#sheet-fold", "aria-expanded") == "false"
    assert page.input_value('form.proc[data-proc="move"] [name=force]') == force
    assert page.input_value('form.proc[data-proc="move"] [name=to]') == hexes[-1]
    # done elsewhere meanwhile: not brought back
    g = Game.open(Store(live_db), "reload-nab")
    g.perform("end_movement", {})
    page.reload()
    page.wait_for_selector("#sheet-line:not(:empty)")
    assert f"to {hexes[-1]}" not in page.inner_text("#sheet-line")
    assert page.input_value("#procedure") != "move"


def test_the_help_and_after_action_pages_links_are_44px_on_a_small_phone(
    small: Any, live_server: str, live_db: Path
) -> None:
    """The help index's links (each ruleset, its tables), a ruleset's 'printable tables', the
    tables' 'help' and the report's 'back to the game' and download were about 20 px high; and
    a Solo Napoleonic report's tables made the page wider than the phone."""
    g = make_game(live_db, "aar-small", "solo_napoleonic")
    until(g, lambda x: len(x.records) > 8, prefer=("fire", "charge"))
    pages = ["/help", "/games/aar-small/aar", "/games/aar-small/audit"]
    for r in sorted(rules.BUILTIN):
        pages += [f"/help/{r}", f"/help/{r}/tables"]
    for path in pages:
        small.goto(f"{live_server}{path}")
        small.evaluate(
            "() => document.querySelectorAll('details').forEach((d) => { d.open = true; })"
        )
        targets = small.evaluate(
            """() => [...document.querySelectorAll('a, button, summary, select, input')]
                .filter((e) => e.offsetParent !== null && !e.closest('svg'))
                .map((e) => [e.id || e.textContent.trim().slice(0, 30),
                             e.getBoundingClientRect().height, e.getBoundingClientRect().width])"""
        )
        assert targets, path
        assert not [t for t in targets if t[1] < 44 or t[2] < 24], (path, targets)
        assert small.evaluate("document.documentElement.scrollWidth") == SMALL["width"], path


#: how many actions each walk makes (a few adjudications and what moves the game between them)
WALK = 6


@pytest.mark.parametrize("ruleset", list(TRIED))
def test_a_few_adjudications_of_a_sample_by_taps_on_a_small_phone(
    small: Any, live_server: str, live_db: Path, ruleset: str
) -> None:
    """The Next panel's owed step first, else an adjudication not yet tried, else what moves
    the game on: its entry, one tap per open field left empty (the first choice; Napoleon At
    Bay's destination on the map), Roll. Every tap reaches its target on the 360x740 screen
    (the sheet covers none of them), no key is pressed, nothing is refused, each action takes
    at most three taps, and the console stays clean."""
    page = small
    name = f"walk-{ruleset}"
    make_game(live_db, name, ruleset, **OPTIONS.get(ruleset, {}))
    page.goto(f"{live_server}/games/{name}")
    page.wait_for_selector("#next .next-item")
    page.evaluate(COUNT_KEYS)
    taps: list[tuple[str, int]] = []
    tried: set[str] = set()
    for _ in range(WALK):
        texts, procs = all_entries(page)
        owed = page.evaluate(OWED)
        if owed is not None:
            pick = int(owed)
        else:
            fresh = [i for i, p in enumerate(procs) if p in TRIED[ruleset] and p not in tried]
            pick = fresh[0] if fresh else next(i for i, p in enumerate(procs) if p in ADVANCE)
        proc = procs[pick]
        tried.add(proc)
        entry, count = reach(page, pick)
        for i in range(page.locator(f"{entry} ~ .open-choices").count()):
            field, empty = page.evaluate(OPEN_FIELD, [entry, proc, i])
            if not empty:
                continue
            if (ruleset, proc, field) == ("napoleon_at_bay", "move", "to"):
                page.tap(MAP_PICK)
            else:
                page.tap(f"{entry} ~ .open-choices[data-field={field}] >> button.choice >> nth=0")
            count += 1
        out = tap_roll(page)
        count += 1
        assert not page.locator("#result .error, .field-error:not([hidden])").count(), (
            f"{proc} ({texts[pick][:60]}): {out[:200]}"
        )
        taps.append((proc, count))
    print(ruleset, "taps per action:", taps)
    assert any(p not in ADVANCE for p, _ in taps), taps  # some adjudication was made
    assert max(t for _, t in taps) <= 3, taps
    assert page.evaluate("window.__keys") == 0


def own_nab(g: Game) -> None:
    g.perform("move", {"force": "F1", "to": "W2020"})  # the fixing it owes: 1d6


def own_asl(g: Game) -> None:
    until(g, has("shift"))  # a shift's DR, 2d6 read on the total, first in Next


def own_sn(g: Game) -> None:
    own_until(g, "morale", prefer=("fire",))  # the morale test owed: percentile dice


#: a ruleset, the play to its step, the step, the buttons tapped for the dice, what Roll says
FOLDED_DICE = {
    "1 die": ("napoleon_at_bay", own_nab, "fix", [".dice-pad .face[data-face='5']"], "1d6=5"),
    "2d6 pair": (
        "solitaire_asl",
        own_asl,
        "shift",
        [".dice-pairs .pair[data-faces='3 4']"],
        "2d6=(3+4)=7",
    ),
    "percentile": (
        "solo_napoleonic",
        own_sn,
        "morale",
        [f".dice-custom .face[data-die='dP'][data-value='{d}']" for d in "72"],
        "dP=72",
    ),
}


@pytest.mark.parametrize("case", list(FOLDED_DICE))
def test_the_folded_sheet_shows_the_dice_buttons_the_next_step_asks_for(
    small: Any, live_server: str, live_db: Path, case: str
) -> None:
    """A game played with the player's own dice, the sheet folded: the step chosen next rolls
    the player's dice, and the folded sheet shows their buttons over its line (the die's
    faces, the pairs of a 2d6 read on its total, percentile digits), each in reach, the board
    still at least half the screen. One tap per button and Roll do the step, the sheet never
    unfolded (it had to be: a Roll refused for want of dice unfolded it, a tap wasted); the
    faces given are said in the line; the last of them does the step (no Roll). A step that
    rolls nothing next folds it back to its line."""
    ruleset, play, proc, taps, said = FOLDED_DICE[case]
    rs = rules.get(ruleset)
    name = f"fold-{ruleset}"
    g = Game.create(Store(live_db), name, rs.name, rs.scenario("sample"), seed=3, dice="physical")
    play(g)
    page = small
    page.goto(f"{live_server}/games/{name}")
    page.wait_for_selector("#next .next-item.chosen")
    page.tap("#sheet-fold")
    page.evaluate(COUNT_KEYS)
    assert page.get_attribute("#next .next-item.chosen", "data-procedure") == proc
    page.wait_for_selector(f"{taps[0]}:visible")
    shown, _ = page.evaluate(BOARD_SHOWN)
    assert shown >= SMALL["height"] / 2, shown
    for sel in [*taps, "#roll-btn", "#sheet-line"]:
        assert page.evaluate(REACHED, sel), sel
    before = logged(page)
    for sel in taps[:-1]:
        page.tap(sel)
    if taps[:-1]:
        assert f"dice {page.input_value('#dice')}" in page.inner_text("#sheet-line")
    page.tap(taps[-1])
    answered(page, before)
    assert said in page.inner_text("#result")
    assert not page.locator("#result .error").count()
    assert page.get_attribute("#sheet-fold", "aria-expanded") == "false"  # never unfolded
    assert page.evaluate("window.__keys") == 0
    dice = Game.open(Store(live_db), name).records[-1].payload["rolls"]
    assert dice, "no roll recorded"
    if ruleset == "napoleon_at_bay":  # the move chosen next rolls nothing: one line again
        page.wait_for_selector("#game:not(.sheet-dice)", state="attached")
        assert page.get_attribute("#next .next-item.chosen", "data-procedure") == "move"
        assert page.is_hidden(".dice-pad")
        shown, sheet = page.evaluate(BOARD_SHOWN)
        assert shown >= SMALL["height"] / 2 and sheet < 110, (shown, sheet)
    screenshot(page, f"phone_folded_dice_{ruleset}")


#: REACHED, of an element
REACHED_NODE = """(e) => { const r = e.getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!at && (at === e || e.contains(at)); }"""
#: the buttons of the chosen Next entry's choices (a move's distance, a shot's target)
CHOSEN_CHOICES = "#next li:has(.next-item.chosen) .open-choices .choice"


def test_the_next_step_s_choices_are_in_reach_after_a_result(
    small: Any, live_server: str, live_db: Path
) -> None:
    """2 by 2 with stated positions: a move's distance is one of four choice buttons. Roll with
    none picked says so and brings the choices into the sheet's view (it opened the form's
    typed box, the choices out of view); after an answer the step chosen next has its choices
    in view with Roll and the result, nothing scrolled (the sheet scrolled to the result below
    the form: the choices were above its view, a scroll before each tap)."""
    scen = rules.get("two_by_two").scenario("sample")
    Game.create(Store(live_db), "reach-2x2", "two_by_two", scen, seed=5, options={"play": "stated"})
    small.goto(f"{live_server}/games/reach-2x2")
    small.wait_for_selector("#next .next-item.chosen")
    small.tap("#roll-btn")
    small.wait_for_selector("#result .error, .field-error:not([hidden])")
    assert "distance" in small.inner_text("#result")
    assert small.locator("form.proc:not([hidden]) details[open]").count() == 0
    choices = small.locator(CHOSEN_CHOICES)
    assert choices.count() == 4
    assert all(choices.nth(k).evaluate(REACHED_NODE) for k in range(4))
    small.tap(f"{CHOSEN_CHOICES}[data-value='4']")
    small.tap("#roll-btn")
    small.wait_for_selector("#log li[data-seq='2']")
    assert "IR 49 Hiller" in small.inner_text("#next .next-item.chosen")
    assert choices.count() == 4  # the next move's distances
    assert all(choices.nth(k).evaluate(REACHED_NODE) for k in range(4))
    assert small.evaluate(REACHED, "#result .line") and small.evaluate(REACHED, "#roll-btn")
    assert small.evaluate("window.scrollY") == 0


def test_the_face_buttons_are_the_cards_left_in_the_deck(
    small: Any, live_server: str, live_db: Path
) -> None:
    """Kuryakin with the player's own dice deals a real deck (reading K80): the face buttons are
    the cards left for the holder asked next (a card dealt is gone from them), then each side's
    chance cards; one tap a holder, the last tap does the deal (it asked for a d10, a d9 ... a
    d2 shuffle and a d10 and a d9 for the chance cards: eleven taps on dice nobody owns)."""
    rs = rules.get("solo_napoleonic")
    g = Game.create(Store(live_db), "faces-sn", rs.name, rs.scenario("sample"), 3, dice="physical")
    own_until(g, "deal")
    holders = [h for h, _, _ in cards.holders(g.state)]
    n = sum(1 for u in g.state.units if u.on_table)
    assert len(holders) < n
    small.goto(f"{live_server}/games/faces-sn")
    small.wait_for_selector("#next .next-item.chosen[data-procedure='deal']")
    small.wait_for_selector("#odds > *", state="attached")  # the step's dice known
    before = small.get_attribute("#log li", "data-seq")
    shown_js = "() => [...document.querySelectorAll('.dice-pad .face:not([hidden])')]" \
        ".map((b) => Number(b.dataset.face))"  # fmt: skip
    left, tapped = list(range(1, n + 1)), []
    for _ in holders:
        small.wait_for_function(f"() => ({shown_js})().join() === {','.join(map(str, left))!r}")
        small.tap(f".dice-pad .face[data-face='{left[-1]}']")  # the highest card left
        tapped.append(left.pop())
    for left in (list(range(1, 11)), list(range(1, 10))):  # the chance deck: 10 cards
        small.wait_for_function(f"() => ({shown_js})().join() === {','.join(map(str, left))!r}")
        small.tap(f".dice-pad .face[data-face='{left[-1]}']")
    small.wait_for_function("b => document.querySelector('#log li').dataset.seq !== b", arg=before)
    assert f"{holders[0]} holds #{n}" in small.inner_text("#result")
    dealt = Game.open(Store(live_db), "faces-sn").state.cards
    assert {c.holder: c.number for c in dealt} == dict(zip(holders, tapped, strict=True))


def test_the_deal_s_cards_are_given_on_the_page_and_sent_once(
    small: Any, live_server: str, live_db: Path
) -> None:
    """Kuryakin's real deck dealt with the player's own cards (reading K80): each card tapped
    shows at once (the card asked next said by name, the card just given gone from the
    buttons), nothing is sent until the last card; the deal goes to the referee once, and its
    record holds one roll for each card turned up. Each tap had been a round trip, refused
    asking for the next card."""
    rs = rules.get("solo_napoleonic")
    g = Game.create(Store(live_db), "deal-once", rs.name, rs.scenario("sample"), 3, dice="physical")
    own_until(g, "deal")
    holders = [h for h, _, _ in cards.holders(g.state)]
    small.goto(f"{live_server}/games/deal-once")
    small.wait_for_selector("#next .next-item.chosen[data-procedure='deal']")
    small.wait_for_selector("#dice-next:not(:empty)")
    sent: list[str] = []
    small.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    before = small.get_attribute("#log li", "data-seq")
    names = [f"card for {h}" for h in holders] + [f"chance card for {s}" for s in g.state.sides]
    for k, name in enumerate(names):
        assert small.inner_text("#dice-next") == f"next: {name} ({k + 1} of {len(names)})"
        face = small.locator(".dice-pad .face:not([hidden])").first
        number = face.get_attribute("data-face")
        face.tap()
        if k < len(names) - 1:
            assert not sent, sent  # (nothing asked of the server between two cards)
            if not name.startswith("chance") and not names[k + 1].startswith("chance"):
                assert small.locator(f".dice-pad .face[data-face='{number}']").is_hidden()
    small.wait_for_function("b => document.querySelector('#log li').dataset.seq !== b", arg=before)
    assert [u for u in sent if u.endswith("/perform")] == [
        f"{live_server}/api/games/deal-once/perform"
    ]
    rolls = Game.open(Store(live_db), "deal-once").records[-1].payload["rolls"]
    assert [r["dice"][0]["die"] for r in rolls] == names


def test_a_deck_of_more_than_ten_cards_has_buttons_of_its_own(
    small: Any, live_server: str, live_db: Path
) -> None:
    """A deck of twelve cards (twelve units): the numbers the face buttons (1-10) cannot show
    are a row of their own, the cards left in order, each a plain number (not '+12', as a
    movement die's marked faces read); a card given goes from the row (the row stays where it
    is, for the whole deal)."""
    rs = rules.get("solo_napoleonic")
    scen = dict(rs.scenario("sample"))
    extra = [{**scen["units"][0], "id": f"F{k}", "name": f"F{k}", "x": 100.0 * k} for k in (8, 9)]
    scen["units"] = [*scen["units"], *extra]
    g = Game.create(Store(live_db), "deck-12", rs.name, scen, 3, dice="physical")
    own_until(g, "deal")
    holders = [h for h, _, _ in cards.holders(g.state)]
    small.goto(f"{live_server}/games/deck-12")
    small.wait_for_selector("#next .next-item.chosen[data-procedure='deal']")
    row = ".dice-custom:not([hidden]) .dice-row button:not([hidden])"
    left, tapped = list(range(1, 13)), []
    for _ in range(2):
        want = ",".join(map(str, left))
        small.wait_for_function(
            f"() => [...document.querySelectorAll({row!r})].map((b) => b.innerText).join() === "
            f"{want!r}"
        )
        small.tap(f"{row}[data-value='{left[-1]}']")
        tapped.append(left.pop())
    # ten cards left: the row shows them (the face buttons none)
    small.wait_for_function(
        f"() => [...document.querySelectorAll({row!r})].map((b) => b.innerText).join() === "
        "'1,2,3,4,5,6,7,8,9,10'"
    )
    assert small.locator(".dice-pad .face:not([hidden])").count() == 0
    assert Game.open(Store(live_db), "deck-12").state.cards == ()  # (nothing written yet)
    assert tapped == [12, 11] and len(holders) > 2


@pytest.mark.parametrize("ruleset", ["solitaire_asl", "napoleon_at_bay"])
def test_no_part_of_the_board_lies_under_the_unfolded_sheet(
    tabs: Tabs, live_server: str, live_db: Path, ruleset: str
) -> None:
    """On a 390x844 phone the board's box ends where the sheet at its tallest begins: a counter
    on the board's bottom row is tapped without panning it out from under the sheet first
    (the ASL sample's 4M6 stack lay 14 px under it)."""
    make_game(live_db, f"under-{ruleset}", ruleset)
    with tab(tabs, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True) as pg:
        pg.goto(f"{live_server}/games/under-{ruleset}")
        pg.wait_for_selector("#next .next-item")
        v = pg.evaluate("document.querySelector('.board-viewport').getBoundingClientRect().bottom")
        p = pg.evaluate("document.querySelector('.panel').getBoundingClientRect().top")
        assert v <= p + 1, (v, p)
