"""The new-game form makes one game, whole, however often it is sent: the game is kept only
once its page renders (a failure left a game listed that never opened), and the form sent
twice (a double tap, a reload of the answer: its ``once`` token the same) opens the game it
made instead of making a second one or saying a game of that name exists."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from vedette.engine import Store
from vedette.web import views
from vedette.web.app import create_app


def form(c: TestClient, **fields: str) -> dict[str, str]:
    """The new-game form as the index page fills it (its CSRF and once tokens), plus ``fields``."""
    page = c.get("/").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    once = re.search(r'name="once" value="([^"]+)"', page)
    assert csrf and once
    return {"csrf": csrf[1], "once": once[1], "ruleset": "nab", "scenario": "sample", **fields}


def names(db: Path) -> list[str]:
    return [i.name for i in Store(db).games()]


def test_the_form_sent_twice_makes_one_game(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    c = TestClient(create_app(db), base_url="http://localhost")
    sent = form(c)
    first = c.post("/games", data=sent, follow_redirects=False)
    again = c.post("/games", data=sent, follow_redirects=False)
    assert first.status_code == again.status_code == 303
    assert first.headers["location"] == again.headers["location"] == "/games/nab-1"
    assert names(db) == ["nab-1"]
    # named: the second sending opens it (it said "a game named 'mine' already exists")
    sent = form(c, name="mine")
    assert c.post("/games", data=sent, follow_redirects=False).headers["location"] == "/games/mine"
    again = c.post("/games", data=sent, follow_redirects=False)
    assert again.status_code == 303 and again.headers["location"] == "/games/mine"
    # a new form (the index shown again) is a new game; the same name is then refused
    assert (
        c.post("/games", data=form(c), follow_redirects=False)
        .headers["location"]
        .endswith("/nab-2")
    )
    r = c.post("/games", data=form(c, name="mine"))
    assert r.status_code == 409 and "already exists" in r.text
    assert names(db) == ["nab-1", "mine", "nab-2"]


def test_the_form_sent_twice_at_once_makes_one_game(tmp_path: Path) -> None:
    """Both sendings at the same time (a double tap: the second while the first makes the
    game, each in its own thread as the server runs them): both open the one game."""
    db = tmp_path / "web.db"
    c = TestClient(create_app(db), base_url="http://localhost")
    sent = form(c)
    where: list[str] = []
    start = threading.Barrier(2)

    def send() -> None:
        start.wait()
        r = c.post("/games", data=sent, follow_redirects=False)
        where.append(f"{r.status_code} {r.headers.get('location')}")

    threads = [threading.Thread(target=send) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert where == ["303 /games/nab-1"] * 2 and names(db) == ["nab-1"]


def test_a_game_whose_page_fails_to_render_is_not_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page of the game just made fails (a fault of vedette's, here forced): the answer is
    the error, and no game is left behind; the same form, sent again once the fault is gone,
    makes it."""
    db = tmp_path / "web.db"
    c = TestClient(create_app(db), base_url="http://localhost", raise_server_exceptions=False)
    sent = form(c, name="broken")

    def fail(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the page could not be drawn")

    monkeypatch.setattr(views, "view", fail)
    r = c.post("/games", data=sent, follow_redirects=False)
    assert r.status_code == 422  # (the app's answer to a fault: one line, no traceback)
    assert names(db) == []
    monkeypatch.undo()
    r = c.post("/games", data=sent, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/games/broken"
    assert c.get("/games/broken").status_code == 200 and names(db) == ["broken"]


def test_a_form_whose_game_was_deleted_makes_it_again(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    c = TestClient(create_app(db), base_url="http://localhost")
    sent = form(c, name="again")
    c.post("/games", data=sent)
    Store(db).delete("again")
    r = c.post("/games", data=sent, follow_redirects=False)
    assert r.status_code == 303 and names(db) == ["again"]


def test_the_form_still_needs_its_csrf_token(tmp_path: Path) -> None:
    """The once token is no pass: a form without the page's CSRF token is refused, nothing
    made (and a forged once token makes nothing either)."""
    db = tmp_path / "web.db"
    c = TestClient(create_app(db), base_url="http://localhost")
    sent = form(c)
    r = c.post("/games", data={**sent, "csrf": "forged"})
    assert r.status_code == 403 and names(db) == []
