"""The command line's current game (``game use``, ``game new``) and the web app on one
database: a game renamed in the web app stays the CLI's current game under its new name, and a
game deleted there leaves no current game. Before, the CLI kept the old name: a game later
given that name in the web app took the CLI's bare commands (another game than the player's)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from fastapi.testclient import TestClient

from vedette.cli.main import main
from vedette.web.app import create_app


def cli(db: str, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--db", db, *argv])
    return code, out.getvalue(), err.getvalue()


def test_the_current_game_follows_a_web_rename_and_goes_with_a_web_delete(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    assert cli(db, "game", "new", "--ruleset", "2x2", "mine")[0] == 0  # the current game
    assert cli(db, "2x2", "turn", "unit=A1", "direction=about")[0] == 0
    export = cli(db, "game", "export", "mine")[1]
    c = TestClient(create_app(db), base_url="http://localhost")
    page = c.get("/games/mine").text
    token = page.split('name="csrf-token" content="')[1].split('"')[0]
    r = c.post("/games/mine/rename", data={"csrf": token, "new": "renamed"})
    assert r.status_code == 200 and "/games/renamed" in str(r.url)
    code, out, err = cli(db, "game", "show", "--json")  # no name: the current game
    assert code == 0 and '"game": "renamed"' in out, err  # (was: no game named 'mine')
    # a game given the old name later (an import makes no game current)
    files = {"upload": ("g.jsonl", export.encode())}
    r = c.post("/import", data={"csrf": token, "name": "mine"}, files=files)
    assert r.status_code == 200 and "/games/mine" in str(r.url)
    assert cli(db, "2x2", "turn", "unit=A2", "direction=about")[0] == 0
    assert "#3 turn" in cli(db, "game", "log", "renamed")[1]  # the player's game
    assert "#3" not in cli(db, "game", "log", "mine")[1]  # not the one of the old name
    r = c.post("/games/renamed/delete", data={"csrf": token, "confirm": "renamed"})
    assert r.status_code == 200
    code, _, err = cli(db, "2x2", "turn", "unit=A1", "direction=about")
    assert code == 2 and "no current game" in err and err.count("\n") == 1, err
    assert "#3" not in cli(db, "game", "log", "mine")[1]  # the other game untouched
