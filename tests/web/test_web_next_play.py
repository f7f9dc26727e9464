"""The web app offers what ``todo`` offers (issue 22 through the web): short games played from
the Next panel's entries alone, through the JSON API as the page sends them (each field as the
text the page puts in its form: a string as it is, anything else as JSON), with the game's
dice and with the player's own (each die the referee asks for rolled and given as the page's
dice box does). Every entry performed is accepted, an owed one included, and the Next panel is
never empty mid-game; an owed step waived from the panel now and then (its "waive..." button)
lets play go on."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from vedette import rules
from vedette.dice.sources import DiceNeeded
from vedette.engine import Game, Store
from vedette.web.app import create_app
from vedette.web.common import request_fields

#: each ruleset on its defaults, and 2 by 2's stated play (the player's measures as fields)
GAMES = [
    ("napoleon_at_bay", {}),
    ("solitaire_asl", {}),
    ("two_by_two", {}),
    ("two_by_two", {"play": "stated"}),
    ("solo_napoleonic", {}),
]
STEPS = 15


def field_text(v: Any) -> str:
    """What the page puts in a form field for an offered value (app.js ``fieldText``)."""
    return v if isinstance(v, str) else json.dumps(v)


@pytest.mark.parametrize("dice", ["seeded", "physical"])
@pytest.mark.parametrize(("ruleset", "options"), GAMES)
def test_the_next_panel_entries_are_accepted(
    ruleset: str, options: dict[str, str], dice: str, tmp_path: Path
) -> None:
    db = tmp_path / "web.db"
    rs = rules.get(ruleset)
    scenario = list(rs.scenarios)[-1]  # (the last: not always the sample the other tests play)
    Game.create(Store(db), "g", ruleset, rs.scenario(scenario), seed=5, options=options, dice=dice)
    c = TestClient(create_app(db), base_url="http://localhost")
    page = c.get("/games/g").text
    h = {"X-CSRF-Token": page.split('name="csrf-token" content="')[1].split('"')[0]}
    rng = random.Random(5)
    view = c.get("/api/games/g").json()
    for step in range(STEPS):
        todo = view["todo"]
        assert todo, f"{ruleset}/{scenario} step {step}: the Next panel is empty"
        item = rng.choice([t for t in todo if t["owed"]] or todo)
        assert "refused" not in item or not item["owed"], f"owed dead end: {item}"
        req = {k: field_text(v) for k, v in item["request"].items()}
        req.update({k: field_text(rng.choice(cs)) for k, cs in item["open"].items()})
        # (as the page asks: a refusal is a 200 saying why)
        body: dict[str, Any] = {"procedure": item["procedure"], "request": req, "refusal": "answer"}
        if item["owed"] and item["obligation"] and rng.random() < 0.2:  # "waive...", confirmed
            body.update(procedure="waive", request={"obligation": item["obligation"]})
        elif dice == "physical":  # the faces the player rolls, as many as the referee asks for
            faces = roll(db, tmp_path / "probe.db", item["procedure"], request_fields(req), rng)
            body["dice"] = " ".join(map(str, faces))
        r = c.post("/api/games/g/perform", json=body, headers=h)
        assert r.status_code == 200, r.text
        out = r.json()
        refused = out.get("refused")
        assert refused is None, f"{ruleset}/{scenario} step {step}: {item['command']}: {refused}"
        view = out


def roll(
    db: Path, probe: Path, procedure: str, request: dict[str, Any], rng: random.Random
) -> list[int]:
    """Random faces of the dice ``procedure`` asks for, one by one, as the player rolls them
    when asked (each refusal for want of a die names it), found on a copy of the game."""
    with sqlite3.connect(db) as src, sqlite3.connect(probe) as dst:
        src.backup(dst)
    faces: list[int] = []
    with Store(probe) as st:
        g = Game.open(st, "g")
        while True:
            try:
                g.perform(procedure, request, faces or None)
            except DiceNeeded as need:
                faces.append(rng.choice(need.die.faces))
                continue
            return faces
