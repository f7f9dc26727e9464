"""The phone at the table (session 20): on a 390x844 touch screen a 2 by 2 unit, drawn some
15x9 CSS px, is picked by a tap near it (a touch margin), while a form asking for a point
still takes the point tapped; open choices of a yes/no field read "no" / "yes"; the pieces
start in view above the sheet; and a long list of choices leaves the phase end in reach."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Tabs, tab
from tests.web.test_web_asl_table import PHONE, REACHED, SEQ, open_game
from tests.web.test_web_browser_next import make_game
from vedette import rules
from vedette.engine import Game, Store

#: a point ``gap`` CSS px off the piece's drawn box (below, above, left or right of it) that
#: lies on the empty table in view: no pick under it, the board's own ground
OFF = """([id, gap]) => { const n = document.querySelector(`#board [data-pick="${id}"]`);
  const r = n.getBoundingClientRect();
  const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
  const spots = [[cx, r.bottom + gap], [cx, r.top - gap], [r.left - gap, cy], [r.right + gap, cy]];
  for (const [x, y] of spots) {
    const at = document.elementFromPoint(x, y);
    if (at && at.closest('#board') && !at.closest('[data-pick]'))
      return [x, y, Math.round(r.width), Math.round(r.height)];
  }
  return null; }"""


#: the board's first view is fitted to the sheet as its tools and the sheet settle (on
#: resize, until the first touch): wait until the piece stands still for ten frames running
#: before measuring a spot off it (a spot measured mid-fit lands elsewhere)
SETTLED = """async (id) => {
  const at = () => JSON.stringify(document.querySelector(`#board [data-pick="${id}"]`)
    .getBoundingClientRect());
  let last = at(), still = 0;
  for (let i = 0; i < 300 && still < 10; i++) {
    await new Promise((r) => requestAnimationFrame(r));
    const now = at();
    still = now === last ? still + 1 : 0;
    last = now;
  }
  return still >= 10; }"""


def sample(live_db: Path, name: str, ruleset: str = "two_by_two") -> Game:
    return Game.create(Store(live_db), name, ruleset, rules.get(ruleset).scenario("sample"), seed=1)


def test_a_tap_ten_px_off_a_unit_picks_it(tabs: Tabs, live_server: str, live_db: Path) -> None:
    """2 by 2's sample: a unit is far smaller than a finger; a tap 10 px off its drawn box, on
    the empty table, picks it all the same: its own Next entries come to the list's top, as a
    tap on it would bring them."""
    g = sample(live_db, "margin-2x2")
    unit = "A1"
    own = [t.text for t in g.todo() if t.request.get("unit") == unit]
    assert own
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        errors = open_game(page, live_server, "margin-2x2")
        assert page.evaluate(SETTLED, unit)
        spot = page.evaluate(OFF, [unit, 10])
        assert spot, "no empty table 10 px off the unit"
        x, y, w, h = spot
        assert w < 44 or h < 44, (w, h)  # the margin is what makes it a target
        page.touchscreen.tap(x, y)
        assert page.locator("#next li.counter .next-text").all_text_contents() == own
        assert not errors, errors


def test_a_tap_far_from_every_unit_picks_none(tabs: Tabs, live_server: str, live_db: Path) -> None:
    """The margin is a margin: 40 px off a unit (on empty table) no piece is picked."""
    sample(live_db, "margin-2x2-far")
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        errors = open_game(page, live_server, "margin-2x2-far")
        assert page.evaluate(SETTLED, "A1")
        spot = page.evaluate(OFF, ["A1", 40])
        assert spot
        far = page.evaluate(
            """([x, y]) => [...document.querySelectorAll('#board .unit')].every((n) => {
              const r = n.getBoundingClientRect();
              const dx = Math.max(r.left - x, 0, x - r.right);
              return Math.hypot(dx, Math.max(r.top - y, 0, y - r.bottom)) > 30; })""",
            spot[:2],
        )
        assert far, "another unit lies near the spot"
        page.touchscreen.tap(spot[0], spot[1])
        assert page.locator("#next li.counter").count() == 0
        assert not errors, errors


def test_a_form_asking_for_a_point_takes_the_point_near_a_unit(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """2 by 2's "place" (where a unit stands): the unit picked, the form asks only for the
    point; a tap 10 px off another unit is that point on the table, not the other unit."""
    sample(live_db, "margin-2x2-point")
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        errors = open_game(page, live_server, "margin-2x2-point")
        page.select_option("#procedure", "place")
        form = "form.proc[data-proc='place']"
        page.tap("#board [data-pick='A1']")
        assert page.input_value(f"{form} [name='unit']") == "A1"
        assert page.evaluate(SETTLED, "A2")
        spot = page.evaluate(OFF, ["A2", 10])
        assert spot
        page.touchscreen.tap(spot[0], spot[1])
        assert page.input_value(f"{form} [name='unit']") == "A1"
        x = page.input_value(f"{form} [name='x']")
        assert x and float(x) == float(x), x  # a number: the point, not "A2"
        assert page.input_value(f"{form} [name='y']")
        assert not errors, errors


def test_a_yes_no_field_s_choices_read_yes_and_no(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """O'Leary 7.1's owed decision (may the module pre-register the scattered hex?) offers its
    ``ok`` field open: the chips read "yes" and "no" (not "true" and "false"); "no" tapped and
    Roll, the referee records ``ok`` false: the value sent is unchanged."""
    g = make_game(live_db, "yesno-asl", "solitaire_asl")
    g.perform("phase", {})
    g.perform("prereg", {"module": "O1", "ar": "4P5"}, [6, 1, 1])
    entry = next(t for t in g.todo() if t.procedure == "decide")
    assert set(entry.open["ok"]) == {True, False}
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        errors = open_game(page, live_server, "yesno-asl")
        row = "#next li.owed .open-choices[data-field='ok']"
        chips = page.locator(f"{row} .choice")
        words = {"true": "yes", "false": "no"}
        shown = {c.get_attribute("data-value"): c.inner_text() for c in chips.all()}
        assert shown == words, shown
        before = page.evaluate(SEQ)
        page.tap(f"{row} .choice[data-value='false']")
        page.tap("#roll-btn")
        page.wait_for_function(f"b => ({SEQ}) !== b", arg=before)
        assert not errors, errors
    done = Game.open(Store(live_db), "yesno-asl").records[-1].payload
    assert done["procedure"] == "decide" and done["request"]["ok"] is False, done


#: the pieces whose centre is not in reach (another element, the sheet, lies over it)
UNREACHED = """() => [...document.querySelectorAll('#board [data-pick]')]
  .filter((n) => n.matches('.unit, .piece, .stack, .general'))
  .filter((n) => { const r = n.getBoundingClientRect();
    const at = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return !(at && n.contains(at)); }).map((n) => n.dataset.pick)"""


@pytest.mark.parametrize(
    ("ruleset", "name"),
    [
        ("two_by_two", "inview-2x2"),
        ("solo_napoleonic", "inview-kur"),
        ("napoleon_at_bay", "inview-nab"),
    ],
)
def test_every_piece_starts_in_view_above_the_sheet(
    tabs: Tabs, live_server: str, live_db: Path, ruleset: str, name: str
) -> None:
    """The samples on a phone: every piece on the board lies in view and above the sheet when
    the game opens (2 by 2's French were drawn under the sheet, Kuryakin's too: the board's
    box reached under it), so each is a tap, no pan first; "reset view" brings them back after
    a zoom."""
    sample(live_db, name, ruleset)
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        errors = open_game(page, live_server, name)
        page.wait_for_function("() => document.getElementById('game').dataset.boardReady")
        page.wait_for_timeout(100)  # (the ring list shown: the board's box refitted)
        assert page.locator("#board [data-pick]").count()
        assert page.evaluate(UNREACHED) == []
        for _ in range(3):
            page.tap("[data-board='zoom-in']")
        assert page.evaluate(UNREACHED) != []
        page.tap("[data-board='reset']")
        assert page.evaluate(UNREACHED) == []
        assert page.evaluate("window.scrollY") == 0 and not errors, errors


def test_the_phase_end_stays_in_reach_beside_a_long_chosen_move(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """Napoleon At Bay's first movement phase: a force's move offers 30 destination hexes;
    chosen on a phone, its choices fill the Next list, and "end movement" stays held at the
    list's bottom edge, in reach (it was moved into the list, below the fold); the move's
    first choices are in reach too; the end tapped and Roll end the phase."""
    g = sample(live_db, "held-end-nab", "napoleon_at_bay")
    first = g.todo()[0]
    g.perform("move", {**first.request, "to": first.open["to"][0]})  # (into a ZOC: a fixing owed)
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        errors = open_game(page, live_server, "held-end-nab")
        # the fixing owed made from the list: its answer shown above the list
        before = page.evaluate(SEQ)
        page.tap("#next li.owed > button.next-item")
        page.tap("#roll-btn")
        page.wait_for_function(f"b => ({SEQ}) !== b", arg=before)
        assert "fixing" in page.inner_text("#result")
        now = Game.open(Store(live_db), "held-end-nab").todo()
        move = next(t for t in now if t.procedure == "move")
        assert len(move.open["to"]) >= 30
        page.tap("#next li:not(.counter) > button.next-item[data-procedure='move']")
        end = "#next li.ends > button.next-item"
        first = "#next li:has(> button.next-item.chosen) .open-choices .choice"
        assert page.evaluate(REACHED, first)
        assert page.evaluate(REACHED, end)
        before = page.evaluate(SEQ)
        page.tap(end)
        page.tap("#roll-btn")
        page.wait_for_function(f"b => ({SEQ}) !== b", arg=before)
        assert page.evaluate("window.scrollY") == 0 and not errors, errors
    done = Game.open(Store(live_db), "held-end-nab").records[-1].payload
    assert done["procedure"] == "end_movement", done
