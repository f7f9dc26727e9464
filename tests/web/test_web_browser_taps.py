"""Issue 26 item 2: every adjudication in at most three taps, no typing, on a phone.

A 390x844 touch screen (Playwright's touch emulation: ``page.tap``) plays one full turn of each
ruleset's sample from the Next panel alone: owed steps first, then each adjudication the panel
offers once (a roll, a test, a move), then what moves the game on. Each action's taps are
counted: the entry, one tap per open field's choice (the first offered; Napoleon At Bay's move
destination tapped on the map instead), and Roll. No key is pressed and no field is typed in.
The taps per adjudication are printed (``-s``).

This is also the suite's whole turn of each sample from the page (issue 27 item 3: the Next
panel's own turn test, which walked the same turns with a mouse, is folded in here): the turn
ends, and a roll, test or fire was made.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Tabs, tab
from tests.web.test_web_browser_next import ADVANCE, Turn, all_entries, make_game, reach
from tests.web.test_web_browser_reach import SETTLED

#: the adjudications tried in each ruleset's turn (the rest of what is offered moves it on)
TRIED = {
    "napoleon_at_bay": ("fix", "move"),
    "solitaire_asl": ("shift", "move", "act"),
    "two_by_two": ("shoot", "rally", "move", "charge"),
    "solo_napoleonic": ("fire", "charge", "move", "morale"),
}
OPTIONS: dict[str, dict[str, Any]] = {"two_by_two": {"play": "stated"}}
#: Napoleon At Bay's move: its destination is tapped on the map, not among the entry's choices
MAP_PICK = '#board polygon[data-hex="W2020"]'
#: the first owed entry's number (None: nothing owed), read in one call
OWED = "() => document.querySelector('#next li.owed button.next-item')?.dataset.todo ?? null"
#: the ``i``-th open field of the entry's form: its name, and whether its box is there and empty
#: (then one choice of it is tapped), read in one call
OPEN_FIELD = """([entry, proc, i]) => {
    const field = document.querySelectorAll(`${entry} ~ .open-choices`)[i].dataset.field;
    const box = document.querySelector(`form.proc[data-proc="${proc}"] [name="${field}"]`);
    return [field, !!box && !box.value];
}"""


@pytest.fixture
def phone(tabs: Tabs) -> Iterator[Any]:
    with tab(tabs, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True) as pg:
        yield pg


def answered(page: Any, before: str) -> None:
    page.wait_for_function(
        "b => (document.querySelector('#log li')?.dataset.seq || '') !== b"
        " || document.querySelector('#result .error, .field-error:not([hidden])')",
        arg=before,
    )


@pytest.mark.parametrize("ruleset", list(TRIED))
def test_a_turn_on_a_phone_takes_at_most_three_taps_per_adjudication(
    phone: Any, live_server: str, live_db: Path, ruleset: str
) -> None:
    page = phone
    name = f"taps-{ruleset}"
    make_game(live_db, name, ruleset, **OPTIONS.get(ruleset, {}))
    page.goto(f"{live_server}/games/{name}")
    page.evaluate(
        "() => { window.__keys = 0; addEventListener('keydown', () => window.__keys++, true); }"
    )
    taps: list[tuple[str, int]] = []
    tried: set[str] = set()
    refused: list[str] = []
    turn = Turn(live_db, name)
    for _ in range(150):
        if turn.over():
            break
        texts, procs = all_entries(page)
        owed = page.evaluate(OWED)
        if owed is not None:
            pick = int(owed or 0)
        else:
            fresh = [i for i, p in enumerate(procs) if p in TRIED[ruleset] and p not in tried]
            pick = fresh[0] if fresh else next(i for i, p in enumerate(procs) if p in ADVANCE)
        proc = procs[pick]
        tried.add(proc)
        entry, count = reach(page, pick)
        for i in range(page.locator(f"{entry} ~ .open-choices").count()):
            field, empty = page.evaluate(OPEN_FIELD, [entry, proc, i])
            if empty:
                if (ruleset, proc, field) == ("napoleon_at_bay", "move", "to"):
                    page.tap(MAP_PICK)  # the destination picked on the map
                else:
                    choice = (
                        f"{entry} ~ .open-choices[data-field={field}] >> button.choice >> nth=0"
                    )
                    page.tap(choice)
                count += 1
        before = page.get_attribute("#log li", "data-seq") or ""
        page.tap("#roll-btn")
        count += 1
        answered(page, before)
        if page.locator("#result .error, .field-error:not([hidden])").count():
            refused.append(f"{proc} ({texts[pick][:60]}): {page.inner_text('#result')[:120]}")
            continue
        taps.append((proc, count))
    print(ruleset, "taps per action:", taps, "refused:", refused)
    assert turn.start is not None and turn.over(), taps
    assert page.evaluate("window.__keys") == 0  # no key pressed, nothing typed
    assert not refused, refused
    assert any(p not in ADVANCE for p, _ in taps)  # some adjudication was made
    assert any(p in ("fix", "shift", "shoot", "rally", "charge", "fire") for p, _ in taps)
    if ruleset == "napoleon_at_bay":
        assert ("move", 3) in taps  # the entry, the hex on the map, Roll
    assert max(t for _, t in taps) <= 3, taps


def test_a_2x2_reinforcement_is_placed_by_a_table_tap(
    phone: Any, live_server: str, live_db: Path
) -> None:
    """Issue 26.2: tapping the table where an arriving unit stands fills its x and y (mm, each
    in its own field, unfolded; a tap used to put ``[335,61]`` into x, or nothing)."""
    from tests.seeds.test_2x2_examples import SCN
    from vedette.engine import Game, Store

    g = Game.create(Store(live_db), "taps-2x2-rp", "two_by_two", SCN, seed=1)
    g.perform("move", {"unit": "B6", "to": [520, 160]})
    page = phone
    page.goto(f"{live_server}/games/taps-2x2-rp")
    page.wait_for_function(
        "() => Number(document.getElementById('game').dataset.boardReady || 0) >= 1"
    )
    page.select_option("#procedure", "reinforce")
    form = 'form.proc[data-proc="reinforce"]'
    page.evaluate(SETTLED)  # (the board's view fitted to its box)
    # a point on the table near the board's top in view (the sheet covers its foot): (250 mm
    # across, 40 px under the viewport's top edge) and its screen point
    mx, my, sx, sy = page.evaluate(
        """() => {
          const s = document.querySelector('#board svg');
          const v = document.getElementById('board-viewport').getBoundingClientRect();
          const ctm = s.getScreenCTM();
          const up = new DOMPoint(0, v.top + 40).matrixTransform(ctm.inverse()).y;
          const my = Math.round(Number(s.dataset.depth) - (up - Number(s.dataset.top)));
          const sy = Number(s.dataset.depth) - my + Number(s.dataset.top);
          const p = new DOMPoint(250, sy).matrixTransform(ctm);
          return [250, my, p.x, p.y];
        }"""
    )
    assert page.evaluate(
        "([x, y]) => !!document.elementFromPoint(x, y)?.closest('#board')", [sx, sy]
    )
    page.touchscreen.tap(sx, sy)
    x, y = page.input_value(f"{form} [name=x]"), page.input_value(f"{form} [name=y]")
    assert abs(float(x) - mx) <= 3 and abs(float(y) - my) <= 3, (x, y, mx, my)
