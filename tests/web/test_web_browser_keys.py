"""Issue 26 item 5: keyboard play. Arrow keys step to the neighbouring hex or piece in the
board's geometry (Left from W2121 goes to the adjacent column, not the one after it), every
piece of every sample board is reached by arrows alone, and R / U / N do, undo and go back to
the Next panel, where the focus returns after each action."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.test_web_browser import new_game
from tests.web.test_web_browser_boards import SAMPLES, ready

#: every pick reached from the first one by the arrows (board.js's own step, window.vedetteKeys)
REACH = """
() => {
  const all = [...document.querySelectorAll('#board [data-pick]')];
  const seen = new Set([all[0]]);
  const todo = [all[0]];
  while (todo.length) {
    const n = todo.pop();
    for (const k of ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']) {
      const m = window.vedetteKeys.neighbour(n, k);
      if (m && !seen.has(m)) { seen.add(m); todo.push(m); }
    }
  }
  // a piece over two hexes is drawn twice: reached when either drawing is
  const pieces = all.filter(n => n.matches('.piece, .stack, .unit, .general'));
  const reached = new Set(pieces.filter(n => seen.has(n)).map(n => n.dataset.pick));
  const ids = [...new Set(pieces.map(n => n.dataset.pick))];
  return {picks: all.length, pieces: ids.length, missed: ids.filter(p => !reached.has(p))};
}
"""


def cursor(page: Any) -> str:
    return str(page.evaluate("document.querySelector('#board .cursor')?.dataset.pick || ''"))


def test_left_from_a_hex_goes_to_the_adjacent_column(page: Any, live_server: str) -> None:
    new_game(page, live_server, "keys-column", "napoleon_at_bay", "sample")
    ready(page)
    got = page.evaluate(
        "k => window.vedetteKeys.neighbour("
        "document.querySelector('#board [data-pick=\"W2121\"]'), k)?.dataset.pick",
        "ArrowLeft",
    )
    assert got.startswith("W20"), got  # W2121's column is 21: the next one left is 20
    got = page.evaluate(
        "k => window.vedetteKeys.neighbour("
        "document.querySelector('#board [data-pick=\"W2121\"]'), k)?.dataset.pick",
        "ArrowRight",
    )
    assert got.startswith("W22"), got
    # and with the keys themselves: Right then Left comes back
    page.focus("#board-viewport")
    page.keyboard.press("ArrowRight")
    start = cursor(page)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert cursor(page) == start


@pytest.mark.parametrize("ruleset", SAMPLES)
def test_every_piece_is_reached_by_arrows(page: Any, live_server: str, ruleset: str) -> None:
    new_game(page, live_server, f"keys-reach-{ruleset}", ruleset, "sample")
    ready(page)
    got = page.evaluate(REACH)
    print(ruleset, got)
    assert got["pieces"] > 0 and got["missed"] == [], got


def test_r_does_u_undoes_and_the_focus_returns_to_next(page: Any, live_server: str) -> None:
    new_game(page, live_server, "keys-roll", "solo_napoleonic", "sample")
    ready(page)
    entries = "document.querySelectorAll('#log li[data-seq]').length"
    before = page.evaluate(entries)
    grown = "n => document.querySelectorAll('#log li[data-seq]').length > n"
    page.focus("#board-viewport")
    page.keyboard.press("r")  # the Next panel's first entry (chosen on load) is done
    page.wait_for_function(grown, arg=before)
    assert page.evaluate("!!document.activeElement.closest('#next')")
    page.keyboard.press("u")
    page.wait_for_function(
        "() => (document.getElementById('result').innerText || '').includes('undid')"
    )
    assert page.evaluate("!!document.activeElement.closest('#next')")
    # never while typing: an R typed in a field is a letter
    page.focus("#dice")
    page.keyboard.press("r")
    assert page.input_value("#dice") == "r"
    # the keys are on the help page
    page.goto(f"{live_server}/help/solo_napoleonic")
    keys = page.inner_text("#keys")
    assert "Roll / do it" in keys and "Undo" in keys and "arrows" in keys
