"""Issue 11 in a real browser (Playwright driving Debian's chromium): a game of each ruleset whose
scenario carries markup in every string field (titles, names, ids, sides, map and place names)
is shown as text; no script runs, no alert opens, no element is injected — on the index, the
game page, the board redrawn by the JSON API after an action, the log and the audit page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.markup import markup_scenario
from vedette import rules
from vedette.engine import Game, Store

PROBE = """() => ({
  xss: window.__xss === 1,
  imgs: document.querySelectorAll('img').length,
  scripts: [...document.scripts].filter(s => s.src === '' && s.type !== 'application/json').length,
  text: document.body.innerText,
})"""


def test_markup_in_every_string_field_never_runs(
    page: Any, live_server: str, live_db: Path
) -> None:
    st = Store(live_db)
    for name in rules.BUILTIN:
        Game.create(st, f"xss-{name}", name, markup_scenario(name), seed=1)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    page.goto(live_server + "/")
    assert page.evaluate(PROBE)["imgs"] == 0
    for name in rules.BUILTIN:
        page.goto(f"{live_server}/games/xss-{name}")
        page.wait_for_selector("#board svg")
        probe = page.evaluate(PROBE)
        assert not probe["xss"] and probe["imgs"] == 0 and probe["scripts"] == 0, probe
        # the markup is on the board as text (it was escaped, not dropped)
        board_text = page.evaluate(
            "() => document.querySelector('#board svg').textContent"
            " + [...document.querySelectorAll('#board [data-pick]')]"
            ".map(e => e.getAttribute('data-pick')).join(' ')"
        )
        assert "<img src=x" in board_text or "<script>" in board_text, name
    # an action redraws the board from the JSON API (innerHTML of the server's SVG)
    page.goto(f"{live_server}/games/xss-napoleon_at_bay")
    page.select_option("#procedure", "end_movement")
    page.click("#roll-btn")
    page.wait_for_selector("#result .line, #result .error")
    page.wait_for_selector("#board svg")
    probe = page.evaluate(PROBE)
    assert not probe["xss"] and probe["imgs"] == 0 and probe["scripts"] == 0, probe
    page.goto(f"{live_server}/games/xss-napoleon_at_bay/audit")
    assert page.evaluate(PROBE)["imgs"] == 0
    assert dialogs == [] and not page.evaluate("() => window.__xss === 1")
    assert not [e for e in errors if "__xss" in e or "alert" in e]
