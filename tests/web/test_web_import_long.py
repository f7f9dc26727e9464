"""Issue 26 item 6: the export of a long game of every ruleset imports through the web.

The game is played by bench_replay's seeded random player (the one bench/bench_growth.py uses)
for ``VEDETTE_LONG_IMPORT`` actions: 250 in ``make test``, 500 in CI (``VEDETTE_EXAMPLES=1``,
tests/sizes.py); ``VEDETTE_LONG_IMPORT=10000`` runs the issue's figure (slow: minutes per
ruleset, mostly spent playing the game and re-refereeing it on import). The web's upload limit
(``MAX_IMPORT``) must take the export, and the imported game must be the exported one.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bench.bench_replay import play
from tests import sizes
from vedette.engine import Game, Store
from vedette.web.app import MAX_IMPORT, create_app

ACTIONS = int(os.environ.get("VEDETTE_LONG_IMPORT") or (500 if sizes.SCALE >= 1 else 250))


def _token(c: TestClient) -> str:
    page = c.get("/").text
    return page.split('name="csrf-token" content="')[1].split('"')[0]


def _import(c: TestClient, name: str, body: bytes) -> Any:
    """The page's import form posted with ``body`` as the file."""
    return c.post(
        "/import",
        data={"csrf": _token(c), "name": name},
        files={"upload": (f"{name}.jsonl", body)},
        follow_redirects=False,
    )


@pytest.mark.parametrize(
    "ruleset", ["napoleon_at_bay", "solitaire_asl", "two_by_two", "solo_napoleonic"]
)
def test_a_long_games_export_imports_through_the_web(tmp_path: Path, ruleset: str) -> None:
    g = play(ruleset, tmp_path / "played.sqlite3", ACTIONS)
    assert len(g.records) > ACTIONS  # the player got that far (2 by 2 stops at the game's end)
    text = g.export_jsonl()
    assert len(text.encode()) <= MAX_IMPORT
    db = tmp_path / "web.sqlite3"
    c = TestClient(create_app(db), base_url="http://localhost")
    r = _import(c, "long", text.encode())
    assert r.status_code == 303, r.text[:500]
    assert r.headers["location"] == "/games/long"
    back = Game.open(Store(db), "long")
    assert len(back.records) == len(g.records) and back.state == g.state
    assert c.get("/games/long").status_code == 200


def test_an_import_that_is_not_an_export_is_refused_at_its_first_line(tmp_path: Path) -> None:
    """Checked as it is read: a wrong file is refused by its first line, whatever follows;
    an export longer than the limit is refused when the limit is passed."""
    c = TestClient(create_app(tmp_path / "web.sqlite3"), base_url="http://localhost")
    junk = b'{"format": "something-else"}\n' + b"x" * (4 * 1024 * 1024)
    r = _import(c, "junk", junk)
    assert r.status_code == 400 and "not a vedette game export" in r.text
    too_big = b'{"format": "vedette-game"}\n' + b"#" * MAX_IMPORT
    r = _import(c, "big", too_big)
    assert r.status_code == 413 and "too large" in r.text
    assert "/games/junk" not in c.get("/").text and "/games/big" not in c.get("/").text
