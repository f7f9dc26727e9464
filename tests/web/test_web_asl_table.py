"""Solitaire ASL at the table on the web (session 19): the form's choices in words, the shift
answers worded for a screen, and the player's own reports (reveal, drop, a fortification's
record) reached from the counter itself."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from vedette.engine import Game, Store
from vedette.rules import get
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
