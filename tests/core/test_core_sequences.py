"""Sequences (issue 17): the exact odds of several procedures played in turn with the same
dice, through the engine, the CLI and the web API; refusals are one line and change nothing;
a tree larger than the limit is sampled and says so, its intervals holding the exact value."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from vedette.cli.main import main
from vedette.engine import Game, Store
from vedette.errors import BadRequest, RuleViolation
from vedette.rules import get
from vedette.rules.sequence import summary_of

SCREEN = {"screen": "R1", "movers": ["F1"], "to": ["W2020"]}
HOLDS = "holds: R1 W2121 fixed; F1 W2020"
GIVES = "gives way: R1 W2421; F1 W2020; R2 W2121 fixed"


def nab(tmp_path: Path) -> Game:
    return Game.create(Store(tmp_path / "g.db"), "g", "nab", get("nab").scenario("sample"), seed=3)


def test_sequences_are_declared_by_each_ruleset() -> None:
    assert set(get("nab").sequences()) == {"screen"}
    assert set(get("2x2").sequences()) == {"attack"}
    assert set(get("asl").sequences()) == {"shifts"}
    assert set(get("solonap").sequences()) == {"charge_to_melee"}
    for name in ("nab", "2x2", "asl", "solonap"):
        for seq in get(name).sequences().values():
            assert seq.query and seq.rule and seq.help


def test_chances_of_a_sequence_change_nothing(tmp_path: Path) -> None:
    g = nab(tmp_path)
    before = (g.state, len(g.records), g.position)
    c = g.chances("screen", SCREEN)
    assert c.exact and c.p(HOLDS) == Fraction(1, 6) and c.p(GIVES) == Fraction(5, 6)
    assert (g.state, len(g.records), g.position) == before


def test_a_sequence_is_never_performed(tmp_path: Path) -> None:
    g = nab(tmp_path)
    with pytest.raises(BadRequest, match="is a sequence"):
        g.perform("screen", SCREEN)
    assert len(g.records) == 1


def test_refusals_name_the_rule_or_the_field(tmp_path: Path) -> None:
    g = nab(tmp_path)
    with pytest.raises(RuleViolation, match=r"does not enter the ZOC.*Herman \(1\)"):
        g.chances("screen", {**SCREEN, "screen": "R2"})
    with pytest.raises(BadRequest, match="one destination hex per mover"):
        g.chances("screen", {**SCREEN, "to": ["W2020", "W2121"]})
    with pytest.raises(BadRequest, match=r"colour"):
        g.chances("screen", {**SCREEN, "colour": "red"})
    with pytest.raises(RuleViolation, match="only an enemy"):
        g.chances("screen", {"screen": "R1", "movers": ["R2"], "to": ["W2020"]})


def test_too_large_a_tree_is_sampled_and_says_so(tmp_path: Path) -> None:
    g = nab(tmp_path)
    c = g.chances("screen", SCREEN, limit=3)
    assert not c.exact and "too many" in c.note
    for row, exact in ((c.rows[0], Fraction(5, 6)), (c.rows[1], Fraction(1, 6))):
        assert row.low is not None and row.high is not None
        assert row.low <= exact <= row.high
    each = {r.result: r for r in summary_of(get("nab").sequences()["screen"], c)}
    holds = each["the screen holds"]
    assert holds.low is not None and holds.high is not None
    assert holds.low <= Fraction(1, 6) <= holds.high


def test_any_procedure_has_its_whole_odds_through_chances(tmp_path: Path) -> None:
    g = nab(tmp_path)
    g.perform("move", {"force": "F1", "to": ["W2020"]})
    c = g.chances("fix", {"moving": "F1", "contact": "R1"})
    assert c.exact and sum(r.p for r in c.rows) == 1


def test_cli_lists_and_computes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "c.db")
    assert main(["--db", db, "nab", "new", "g", "--seed", "2"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "nab", "chances"]) == 0
    text = capsys.readouterr().out
    assert "screen SCREEN" in text and "Herman (1)-(4)" in text
    assert main(["--db", db, "nab", "chances", "--json"]) == 0
    (listed,) = json.loads(capsys.readouterr().out)
    assert listed["name"] == "screen" and "movers" in listed["fields"]["properties"]
    assert main(["--db", db, "nab", "chances", "screen", "R1", "movers=F1", "to=W2020"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "exact" in lines[0]
    assert "5/6" in lines[1] and lines[1].endswith(GIVES)  # sorted, most likely first
    assert "16.67%" in lines[2] and lines[2].endswith(HOLDS)
    assert lines[3].startswith("each") and "1/6  the screen holds" in "\n".join(lines[4:])
    args = ["--db", db, "nab", "chances", "screen", "R1", "movers=F1", "to=W2020", "--json"]
    assert main([*args, "--limit", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is False and data["note"]
    assert main(["--db", db, "nab", "chances", "screan"]) != 0
    err = capsys.readouterr().err
    assert "did you mean 'screen'" in err and "Traceback" not in err
    assert main(["--db", db, "nab", "chances", "screen", "R2", "movers=F1", "to=W2020"]) != 0
    assert "Herman (1)" in capsys.readouterr().err
    assert main(["--db", db, "nab", "chances", "screen", "R1", "--movers", "F1"]) != 0
    assert "KEY=VALUE" in capsys.readouterr().err
    assert main(["--db", db, "game", "log"]) == 0
    assert "screen" not in capsys.readouterr().out  # nothing logged


def test_web_api(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from vedette.web.app import create_app

    db = tmp_path / "web.db"
    Game.create(Store(db), "n1", "nab", get("nab").scenario("sample"), seed=4)
    c = TestClient(create_app(db), base_url="http://localhost")
    c.get("/")
    page = c.get("/games/n1").text
    t = page.split('name="csrf-token" content="')[1].split('"')[0]
    r = c.get("/api/games/n1/sequences")
    assert r.status_code == 200
    assert [s["name"] for s in r.json()] == ["screen"]
    assert r.json()[0]["rule"] == "Herman (1)-(4)"
    h = {"X-CSRF-Token": t}
    r = c.post("/api/games/n1/chances", json={"procedure": "screen", "request": SCREEN}, headers=h)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["exact"] is True
    assert body["outcomes"][0] == {
        "result": GIVES,
        "p": "5/6",
        "float": 5 / 6,
        "low": None,
        "high": None,
    }
    assert {e["result"]: e["p"] for e in body["each"]}["the screen holds"] == "1/6"
    bad = {"procedure": "screen", "request": {**SCREEN, "screen": "R2"}}
    r = c.post("/api/games/n1/chances", json=bad, headers=h)
    assert r.status_code == 400 and "Herman (1)" in r.json()["error"]
    r = c.post("/api/games/n1/chances", json={"procedure": "screen", "x": 1}, headers=h)
    assert r.status_code == 400 and "\n" not in r.json()["error"]
    r = c.post("/api/games/nope/chances", json={"procedure": "screen"}, headers=h)
    assert r.status_code == 404
    r = c.post("/api/games/n1/chances", json={"procedure": "screen", "request": SCREEN})
    assert r.status_code == 403  # the CSRF header guards it like every POST
    assert len(c.get("/api/games/n1").json()["log"]) == 1  # nothing logged
