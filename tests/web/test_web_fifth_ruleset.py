"""Issue 28, "Done when": a fifth ruleset gets the web form, ``todo`` (the page's Next list),
odds, actions, the command line and the simulator from its own package plus one registry line.
The toy example (``examples/toy``) is registered here, at run time, on a registry that does not
know it, then played through the real web app and the real command line on one database."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from vedette import rules
from vedette.cli.main import cli
from vedette.errors import BadRequest
from vedette.web.app import create_app


@pytest.fixture
def fifth(monkeypatch: pytest.MonkeyPatch) -> None:
    """The built-in registry (another test module may have registered the toy), then the one
    line a new ruleset needs."""
    monkeypatch.setattr(rules, "REGISTRY", {n: rules.REGISTRY[n] for n in rules.BUILTIN})
    with pytest.raises(BadRequest, match="unknown ruleset 'toy'"):
        rules.canonical("toy")
    rules.register("toy", "examples.toy")


def test_a_fifth_ruleset_plays_by_its_package_and_one_registry_line(
    fifth: None, tmp_path: Path
) -> None:
    db = tmp_path / "fifth.db"
    web = TestClient(create_app(db), base_url="http://localhost")
    index = web.get("/").text
    assert '<option value="toy"' in index  # the new-game form offers it
    csrf = re.search(r'name="csrf" value="([^"]+)"', index)
    assert csrf is not None
    form = {"csrf": csrf.group(1), "ruleset": "toy", "scenario": "sample", "seed": "3"}
    made = web.post("/games", data=form, follow_redirects=False)
    assert made.status_code == 303 and made.headers["location"] == "/games/toy-1"
    page = web.get("/games/toy-1").text
    assert 'data-proc="advance"' in page
    h = {"X-CSRF-Token": page.split('name="csrf-token" content="')[1].split('"')[0]}

    def nexts() -> list[tuple[str, bool]]:
        return [(t["procedure"], t["owed"]) for t in web.get("/api/games/toy-1").json()["todo"]]

    assert nexts() == [("advance", False), ("rest", False)]
    odds = web.post("/api/games/toy-1/odds", json={"procedure": "advance"}, headers=h).json()
    assert [(r["key"], r["p"]) for r in odds["odds"][0]["rows"]] == [("stay", "1/3"), ("go", "2/3")]
    done = web.post(
        "/api/games/toy-1/perform", json={"procedure": "advance", "dice": "6"}, headers=h
    ).json()
    assert done["lines"] == ["advance: 1d6=6 → advances", "counter advances"]
    assert nexts()[0] == ("cheer", True)  # Toy 3: a natural 6 owes a cheer, shown first

    run = CliRunner()
    todo = run.invoke(cli, ["--db", str(db), "toy", "todo"])
    assert todo.exit_code == 0 and "OWED  a cheer for the six (Toy 3)" in todo.output
    cheer = run.invoke(cli, ["--db", str(db), "toy", "cheer"])
    assert cheer.exit_code == 0 and cheer.output.strip() == "hurrah"
    assert nexts() == [("advance", False), ("rest", False)]  # the web app sees the CLI's action

    small = ["--games", "3", "--seed", "1", "--workers", "1", "--max-actions", "30"]
    study = run.invoke(cli, ["--db", str(db), "simulate", "toy", *small])
    assert study.exit_code == 0, study.output
    assert "unfinished   100.0%" in study.output  # the toy declares no end: the action limit
    listed = web.get("/simulations").text
    assert (
        "The counter&#39;s track (3 games, seed 1)" in listed and 'href="/simulations/1"' in listed
    )
    shown = web.get("/simulations/1")
    assert shown.status_code == 200 and "<svg" in shown.text
