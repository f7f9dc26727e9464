"""The phone at the table (session 20): on a 390x844 touch screen a 2 by 2 unit, drawn some
15x9 CSS px, is picked by a tap near it (a touch margin), while a form asking for a point
still takes the point tapped; open choices of a yes/no field read "no" / "yes"; the pieces
start in view above the sheet; and a long list of choices leaves the phase end in reach."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import Tabs, tab
from tests.web.test_web_asl_table import PHONE, SEQ, open_game
from tests.web.test_web_browser_next import make_game
from vedette import rules
from vedette.engine import Game, Store

#: a point ``gap`` CSS px off the piece's drawn box (below, above, left or right of it) that
#: lies on the empty table in view: no pick under it, the board's own ground
OFF = """([id, gap]) => { const n = document.querySelector(`#board [data-pick="${id}"]`);
  const r = n.getBoundingClientRect(); const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
  for (const [x, y] of [[cx, r.bottom + gap], [cx, r.top - gap], [r.left - gap, cy], [r.right + gap, cy]]) {
    const at = document.elementFromPoint(x, y);
    if (at && at.closest('#board') && !at.closest('[data-pick]')) return [x, y, Math.round(r.width), Math.round(r.height)];
  }
  return null; }"""


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
        spot = page.evaluate(OFF, [unit, 10])
        assert spot, "no empty table 10 px off the unit"
        x, y, w, h = spot
        assert w < 44 or h < 44, (w, h)  # the margin is what makes it a target
        page.touchscreen.tap(x, y)
        assert page.locator("#next li.counter .next-text").all_text_contents() == own
        assert not errors, errors


def test_a_tap_far_from_every_unit_picks_none(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """The margin is a margin: 40 px off a unit (on empty table) no piece is picked."""
    sample(live_db, "margin-2x2-far")
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        errors = open_game(page, live_server, "margin-2x2-far")
        spot = page.evaluate(OFF, ["A1", 40])
        assert spot
        far = page.evaluate(
            """([x, y]) => [...document.querySelectorAll('#board .unit')].every((n) => {
              const r = n.getBoundingClientRect();
              return Math.hypot(Math.max(r.left - x, 0, x - r.right), Math.max(r.top - y, 0, y - r.bottom)) > 30; })""",
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
