"""Solitaire ASL at the table on the web (session 19): the form's choices in words, the shift
answers worded for a screen, and the player's own reports (reveal, drop, a fortification's
record) reached from the counter itself."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.web.conftest import Tabs, tab
from vedette.engine import Game, Store
from vedette.rules import get
from vedette.rules.solitaire_asl.model import Status
from vedette.web.app import create_app


def page(tmp_path: Path, ruleset: str = "asl", name: str = "ev") -> str:
    db = tmp_path / "web.db"
    Game.create(Store(db), name, ruleset, get(ruleset).scenario("sample"), seed=1)
    c = TestClient(create_app(db), base_url="http://localhost")
    return c.get(f"/games/{name}").text


def options(html: str, proc: str, field: str) -> list[tuple[str, str]]:
    form = html.split(f'data-proc="{proc}"')[1].split("</form>")[0]
    select = form.split(f'name="{field}"')[1].split("</select>")[0]
    return re.findall(r'<option value="([^"]+)">([^<]*)</option>', select)


def test_a_form_s_choices_show_words_and_send_the_key(tmp_path: Path) -> None:
    """A form's choice shows its label ("dummy HIP counter"), not the request's key
    (``dummy_hip``), which stays the value sent (O'Leary 3.1.1, 4.6.1: what is placed)."""
    html = page(tmp_path)
    assert options(html, "place", "kind") == [
        ("dummy_hip", "dummy HIP counter"),
        ("dummy_minefield", "dummy minefield"),
    ]
    assert ("hip", "HIP") in options(html, "shift", "kind")


def test_a_key_without_a_label_shows_its_words(tmp_path: Path) -> None:
    """2 by 2's formations have no labels of their own: underscores become spaces."""
    html = page(tmp_path, "2x2", "tt")
    assert ("attack_column", "attack column") in options(html, "formation", "formation")


#: a 390x844 touch phone (the lead's evening walk)
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
REACHED = """(s) => { const e = document.querySelector(s); if (!e) return false;
    const r = e.getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return !!at && (at === e || e.contains(at)); }"""
SEQ = "document.querySelector('#log li')?.dataset.seq || ''"


def open_game(pg: Any, live_server: str, name: str) -> list[str]:
    """The game's page open, its Next list shown; the page errors seen (a list kept up to
    date) and keys pressed counted (``window.__keys``: taps only, none typed)."""
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(f"{live_server}/games/{name}")
    pg.wait_for_selector("#next .next-item")
    pg.evaluate(
        "() => { window.__keys = 0; addEventListener('keydown', () => window.__keys++, true); }"
    )
    return errors


def test_the_player_s_reports_take_three_taps_from_the_counter(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """O'Leary 2.2 (drop), 2.2/3.4/5.2 (reveal: concealment lost by the ASL rules, the
    player's report, so not in Next) and 4.4 (a fortification's CA): each was four taps (the
    Action list, its entry, the counter, Roll; the CA typed). Now the counter tapped on the
    board lists its reports at the top of Next: the counter, the report (or the CA's choice)
    and Roll, three taps in reach on a phone, no key pressed."""
    g = Game.create(Store(live_db), "a3-counters", "asl", get("asl").scenario("sample"), seed=1)
    g.perform("phase", {})
    assert not [t for t in g.todo() if t.procedure in ("reveal", "drop")]
    with tab(tabs, **PHONE) as pg:
        page: Any = pg
        errors = open_game(page, live_server, "a3-counters")
        for counter, target in (
            ("P1", "#next li.counter button.next-item[data-procedure='drop']"),
            ("D1", "#next li.counter button.next-item[data-procedure='reveal']"),
            ("F2", "#next li.counter:has([data-procedure='fort']) .choice"),
        ):
            before = page.evaluate(SEQ)
            for sel in (f"#board [data-pick='{counter}']", target, "#roll-btn"):
                assert page.evaluate(REACHED, sel), (counter, sel)
                page.tap(sel)
            page.wait_for_function(f"b => ({SEQ}) !== b", arg=before)
            assert "error" not in page.inner_html("#result"), page.inner_text("#result")
        assert page.evaluate("window.__keys") == 0 and not errors, errors
    g = Game.open(Store(live_db), "a3-counters")
    assert g.state.stack("P1").status == Status.CONCEALED  # drop (2.2)
    assert all(s.id != "D1" for s in g.state.stacks)  # a dummy stack revealed: removed
    f2 = g.state.fortification("F2")
    assert f2 is not None and f2.ca.startswith("facing 4")  # 4.4
