"""Names typed to name something (a game, a unit, a side) are typed as they are shown: a
zero-width space, a soft hyphen or a direction override makes a name that looks like another
(``F1`` and ``F1`` + U+200B are two units) or shows its text in another order ("Trojan
Source"). Refused in one line, nothing stored, at the command line, in the web app, in
scenario files and the builder, and in an import; free text (a unit's name) keeps the joiners
some scripts need but not the overrides and line separators."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.core.test_trust_cli_edges import run
from vedette import rules
from vedette.cli.plain import printable
from vedette.engine import Game, Store
from vedette.engine.referee import resign
from vedette.errors import VedetteError
from vedette.web.app import create_app

#: (character, the words of its refusal)
HIDDEN = [
    ("\u202e", "direction control (U+202E)"),  # right-to-left override
    ("\u2067", "direction control (U+2067)"),  # right-to-left isolate
    ("\u200b", "invisible character (U+200B)"),  # zero-width space
    ("\ufeff", "invisible character (U+FEFF)"),  # zero-width no-break space
    ("\u00ad", "invisible character (U+00AD)"),  # soft hyphen
    ("\u2028", "line or paragraph separator (U+2028)"),
]
#: where each ruleset's sample lists its units (each with an id and a name)
UNITS = {
    "napoleon_at_bay": "forces",
    "solitaire_asl": "stacks",
    "two_by_two": "units",
    "solo_napoleonic": "units",
}


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "g.db"
    Game.create(Store(path), "g", "nab", rules.get("nab").scenario("sample"), seed=1)
    return str(path)


def games(db: str) -> list[tuple[str, int]]:
    return [(g.name, g.events) for g in Store(db).games()]


@pytest.mark.parametrize(("ch", "words"), HIDDEN)
def test_a_game_name_with_a_hidden_character_is_refused_by_the_cli(
    db: str, ch: str, words: str
) -> None:
    for argv in (
        ("game", "new", "--ruleset", "nab", f"gam{ch}e"),
        ("game", "rename", "g", f"g{ch}x"),
    ):
        code, _, err = run("--db", db, *argv)
        assert code == 2 and err.count("\n") == 1 and words in err, err
        assert "Traceback" not in err
    assert games(db) == [("g", 1)]


def test_names_in_other_scripts_are_kept(db: str) -> None:
    code, _, err = run("--db", db, "game", "new", "--ruleset", "nab", "Bataille d’Ulm é 日本")
    assert code == 0, err
    assert [n for n, _ in games(db)] == ["g", "Bataille d’Ulm é 日本"]


@pytest.mark.parametrize(("ch", "words"), HIDDEN[:3])
def test_a_game_name_with_a_hidden_character_is_refused_by_the_web_app(
    db: str, ch: str, words: str
) -> None:
    c = TestClient(create_app(db), base_url="http://localhost")
    page = c.get("/games/g").text
    token = page.split('name="csrf-token" content="')[1].split('"')[0]
    r = c.post("/games", data={"csrf": token, "name": f"x{ch}", "ruleset": "nab"})
    assert r.status_code == 400 and words in r.text
    r = c.post("/games/g/rename", data={"csrf": token, "new": f"g{ch}x"})
    assert r.status_code == 400 and words in r.text
    assert games(db) == [("g", 1)]


def test_an_import_whose_game_name_hides_a_character_is_refused(db: str, tmp_path: Path) -> None:
    lines = Game.open(Store(db), "g").export_jsonl().splitlines()
    head = json.loads(lines[0])
    head["name"] = "g\u200b"
    lines[0] = json.dumps(head)
    text = resign("\n".join(lines) + "\n")
    with pytest.raises(VedetteError) as e:
        Game.import_jsonl(Store(db), text)
    assert "invisible character (U+200B)" in str(e.value) and "\n" not in str(e.value)
    path = tmp_path / "g.jsonl"
    path.write_text(text, encoding="utf-8")
    code, _, err = run("--db", db, "game", "import", str(path))
    assert code == 2 and "invisible character" in err and err.count("\n") == 1
    code, _, err = run("--db", db, "game", "import", str(path), "--name", "g2")
    assert code == 0, err  # named anew, the game itself is sound
    assert games(db) == [("g", 1), ("g2", 1)]


def _units(ruleset: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    scn = rules.get(ruleset).scenario("sample")
    return scn, scn[UNITS[ruleset]]


@pytest.mark.parametrize("ruleset", list(UNITS))
@pytest.mark.parametrize(("ch", "words"), HIDDEN[:3])
def test_a_unit_id_with_a_hidden_character_is_refused(ruleset: str, ch: str, words: str) -> None:
    scn, units = _units(ruleset)
    units[0]["id"] += ch  # (another unit of the same id and this one would look alike)
    st = Store(":memory:")
    with pytest.raises(VedetteError) as e:
        Game.create(st, "x", ruleset, scn, seed=1)
    msg = str(e.value)
    assert f"{UNITS[ruleset]}[0].id" in msg and words in msg and "\n" not in msg, msg
    assert st.games() == []


@pytest.mark.parametrize("ruleset", ["two_by_two", "solo_napoleonic", "napoleon_at_bay"])
def test_a_unit_name_may_join_but_not_reorder(ruleset: str) -> None:
    scn, units = _units(ruleset)
    units[0]["name"] = "Garde\u200dimpériale"  # a zero-width joiner: some scripts need it
    Game.create(Store(":memory:"), "x", ruleset, scn, seed=1)
    units[0]["name"] = "Garde \u202eimpériale"
    with pytest.raises(VedetteError) as e:
        Game.create(Store(":memory:"), "x", ruleset, scn, seed=1)
    assert f"{UNITS[ruleset]}[0].name" in str(e.value) and "direction control" in str(e.value)


def test_a_scenario_file_and_the_builder_refuse_a_hidden_id(tmp_path: Path, db: str) -> None:
    sample = rules.get("two_by_two").data_package
    from importlib import resources

    text = (resources.files(sample) / "sample.toml").read_text(encoding="utf-8")
    path = tmp_path / "s.toml"
    path.write_text(text.replace('id = "F1"', 'id = "F1\u200b"', 1), encoding="utf-8")
    code, _, err = run("--db", db, "game", "new", "--ruleset", "2x2", "--scenario", str(path))
    assert code == 2 and ".id: holds an invisible character (U+200B)" in err, err
    assert err.count("\n") == 1
    c = TestClient(create_app(db), base_url="http://localhost")
    page = c.get("/games/g").text
    h = {"X-CSRF-Token": page.split('name="csrf-token" content="')[1].split('"')[0]}
    scn, units = _units("two_by_two")
    units[0]["id"] += "\u200b"
    body = {"ruleset": "two_by_two", "name": "mine", "data": scn}
    r = c.post("/api/scenarios/save", json=body, headers=h)
    assert r.status_code == 422 and "invisible character (U+200B)" in r.json()["error"]
    assert "mine" not in c.get("/scenarios/new?ruleset=two_by_two").text
    assert games(db) == [("g", 1)]


def test_a_name_stored_before_is_printed_without_its_overrides() -> None:
    assert printable("a\u202egpj.exe \u2066x\u2069 \u200dok") == "agpj.exe x \u200dok"
