"""Your own scenarios (issue 30): kept in the store, checked by the same schema as a file,
exported and imported as one canonical TOML, and a game from one is made and refereed exactly
as from the file."""

from __future__ import annotations

import json
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from vedette import rules
from vedette.engine import Game, Store
from vedette.engine import scenarios as user
from vedette.errors import BadRequest, DataError, GameError

SAMPLES = [(n, s) for n in rules.BUILTIN for s in rules.get(n).scenarios]


def _text(rs_name: str, scenario: str) -> str:
    rs = rules.get(rs_name)
    return resources.files(rs.data_package).joinpath(rs.scenarios[scenario]).read_text("utf-8")


@pytest.mark.parametrize(("rs_name", "scenario"), SAMPLES)
def test_bundled_file_round_trips_exactly(rs_name: str, scenario: str) -> None:
    """Import a bundled file, export it: the canonical dump of the bundled data (its opening
    comment first); that export imported again exports the same text, byte for byte."""
    rs = rules.get(rs_name)
    st = Store(":memory:")
    user.import_text(st, rs, "mine", _text(rs_name, scenario))
    out = user.export(st, rs, "mine")
    data = rs.scenario(scenario)
    assert out == user.dump_toml(data, rs.scenario_info(scenario)["description"])
    assert tomllib.loads(out) == data  # (== : 900.0 and 900 are one number)
    user.import_text(st, rs, "again", out)
    assert user.export(st, rs, "again") == out
    assert user.get(st, rs, "again").title == rs.scenario_info(scenario)["title"]


@pytest.mark.parametrize("rs_name", rules.BUILTIN)
def test_a_game_from_yours_is_a_game_from_the_file(rs_name: str) -> None:
    """Same seed, same state; its export carries the scenario and imports (re-refereed)."""
    rs = rules.get(rs_name)
    st = Store(":memory:")
    user.import_text(st, rs, "mine", _text(rs_name, "sample"))
    a = Game.create(st, "file", rs.name, rs.scenario("sample"), seed=11)
    b = Game.create(st, "yours", rs.name, user.scenario_data(st, rs, "mine"), seed=11)
    assert rs.state_json(a.state) == rs.state_json(b.state)
    assert a.render() == b.render()
    c = Game.import_jsonl(st, b.export_jsonl(), "copy")
    assert rs.state_json(c.state) == rs.state_json(b.state)


def test_cli_lists_and_starts_yours(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from vedette.cli.main import main

    db = str(tmp_path / "g.db")
    f = tmp_path / "s.toml"
    f.write_text(_text("two_by_two", "sample"))

    def run(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main(["--db", db, *args])
        o, e = capsys.readouterr()
        return code, o, e

    assert run("2x2", "scenarios", "--import", str(f), "--name", "neudorf")[0] == 0
    code, out, _ = run("2x2", "scenarios", "--json")
    mine = [s for s in json.loads(out) if s["yours"]]
    assert [(s["name"], s["title"]) for s in mine] == [("neudorf", "The bridge at Neudorf")]
    code, out, _ = run("2x2", "scenarios", "--export", "neudorf")
    assert code == 0 and tomllib.loads(out) == rules.get("two_by_two").scenario("sample")
    code, out, _ = run("2x2", "new", "g1", "--scenario", "neudorf", "--seed", "4", "--json")
    assert code == 0 and json.loads(out)["game"] == "g1"
    code, _, err = run("2x2", "new", "g2", "--scenario", "nowhere")
    assert code != 0 and "yours: neudorf" in err
    assert run("2x2", "scenarios", "--delete", "neudorf")[0] == 0
    assert not [s for s in json.loads(run("2x2", "scenarios", "--json")[1]) if s["yours"]]


def test_problems_name_their_element_and_nothing_is_stored() -> None:
    rs = rules.get("napoleon_at_bay")
    st = Store(":memory:")
    bad = rs.scenario("sample")
    bad["forces"][2]["side"] = "Prussians"
    bad["forces"][4]["infantry"] = -1
    with pytest.raises(user.ScenarioRefused) as e:
        user.save(st, rs, "bad", bad)
    # every field's problem at once (a cross-reference is checked once the fields are sound)
    assert [p.loc for p in e.value.problems] == ["forces[4].infantry"]
    bad["forces"][4]["infantry"] = 1
    assert [p.loc for p in user.problems(rs, bad)] == ["forces[2].side"]
    assert user.listing(st, rs) == []
    # a problem found in setting it up names its row too
    off = rs.scenario("sample")
    off["forces"][1]["hexes"] = ["W9999"]
    found = user.problems(rs, off)
    assert [p.loc for p in found] == ["forces[1]"] and "W9999" in found[0].msg
    # ASL: an unknown key is refused where it is
    asl = rules.get("solitaire_asl")
    a = asl.scenario("sample")
    a["stacks"][0]["colour"] = "red"
    assert [p.loc for p in user.problems(asl, a)] == ["stacks[0]"]


def test_names_and_replacing() -> None:
    rs = rules.get("solitaire_asl")
    st = Store(":memory:")
    data = rs.scenario("sample")
    for bad in ("sample", "", "a/b", "x.toml", "-x"):
        with pytest.raises(BadRequest):
            user.save(st, rs, bad, data)
    user.save(st, rs, "orchard", data, "first")
    with pytest.raises(GameError, match="already"):
        user.save(st, rs, "orchard", data)
    data["night"] = True
    user.save(st, rs, "orchard", data, "second", replace=True)
    s = user.get(st, rs, "orchard")
    assert s.data["night"] is True and s.description == "second"
    with pytest.raises(DataError):
        user.import_text(st, rs, "broken", "name = [")


def test_a_database_without_the_table_lists_none() -> None:
    """A read-only database from before rung 6 (it cannot climb the ladder): the bundled
    scenarios are listed and started as before, and none of yours."""
    rs = rules.get("napoleon_at_bay")
    st = Store(":memory:")
    st.db.execute("DROP TABLE scenarios")
    assert [i["name"] for i in user.infos(st, rs)] == list(rs.scenarios)
    assert user.scenario_data(st, rs, "sample") == rs.scenario("sample")
    with pytest.raises(BadRequest, match="no napoleon_at_bay scenario 'mine'"):
        user.scenario_data(st, rs, "mine")
