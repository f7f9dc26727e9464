"""Bad input at the command line, second pass (session 16, helper A): values typed the way a
shell user types them (quoted), numbers no float holds, an empty field, and a ``new`` that
cannot show its game. Each refusal is one line, exit 2, and nothing is stored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.core.test_trust_bad_input import refused, run
from vedette import rules
from vedette.engine import Game, Store
from vedette.errors import DataError
from vedette.rules.base import parse_value
from vedette.web.app import create_app


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "g.db"
    st = Store(path)
    Game.create(st, "t", "two_by_two", rules.get("two_by_two").scenario("sample"), seed=1)
    Game.create(st, "n", "nab", rules.get("nab").scenario("sample"), seed=1)
    Game.create(st, "a", "asl", rules.get("asl").scenario("sample"), seed=1)
    return str(path)


def last_request(db: str, game: str) -> dict[str, Any]:
    rec = Store(db).records(Store(db).game(game).id)[-1]
    return dict(rec.payload["request"])


# == quotes: one pair around a value is quoting, as in a shell ==
@pytest.mark.parametrize(
    ("game", "argv", "field", "value"),
    [
        # the quotes became part of the name: "no force \"'F1'\""
        ("n", ["nab", "move", "force='F1'", "to='W2020'"], "force", "F1"),
        ("a", ["asl", "fort", "id='F2'", "ca='NW/N'"], "id", "F2"),
    ],
)
def test_one_pair_of_single_quotes_around_a_value_is_taken_off(
    db: str, game: str, argv: list[str], field: str, value: str
) -> None:
    code, _, err = run("--db", db, *argv, "--game", game)
    assert code == 0, err
    assert last_request(db, game)[field] == value


def test_quotes_come_off_a_unit_name_in_every_reader_of_typed_values() -> None:
    """The CLI's KEY=VALUE, its positional values and --option, the web app's forms and
    options all read typed values with ``parse_value``."""
    assert parse_value("'A1'") == "A1"
    assert parse_value("'3'") == 3  # the rest read as before: a number
    assert parse_value('\'{"F1": "N"}\'') == {"F1": "N"}
    assert parse_value('"A1"') == "A1" and parse_value('"C:\\maps\\x"') == "C:\\maps\\x"
    assert parse_value('"C:\\q') == '"C:\\q'  # no pair: as typed
    assert parse_value("O'Leary") == "O'Leary"  # an apostrophe inside is no quoting
    assert parse_value("'") == "'"


def test_a_quoted_option_value_is_the_option(db: str) -> None:
    code, _, err = run("--db", db, "nab", "new", "q", "--option", "variant='draft'", "--json")
    assert code == 0, err
    assert Game.open(Store(db), "q").created["options"] == {"variant": "draft"}


# == numbers no float holds: the field's own words ==
@pytest.mark.parametrize("text", ["1e400", "-1e400", "NaN", "Infinity"])
def test_an_infinite_number_is_refused_like_any_other_bad_number(db: str, text: str) -> None:
    # was: "request: tem: inf is not a finite number", unlike every other field's error
    err = refused(db, "asl", "location", "4P5", f"tem={text}", "--game", "a")
    assert f"'tem' must be a whole number, not '{text}'" in err, err
    err = refused(db, "asl", "plan", "shifts=P1:D1", f'tem={{"4P5":{text}}}', "--game", "a")
    assert f"'tem.4P5' must be a whole number, not '{text}'" in err, err


@pytest.mark.parametrize("field", ["distance", "town", "rough"])
def test_a_stated_length_no_float_holds_is_refused_as_no_length(tmp_path: Path, field: str) -> None:
    """Session 19 (helper X): a 2 by 2 stated length of 400 nines read as infinity: the move
    was refused as needing "[inf]" (a town's "+[inf] [inf] in town"), not as no length."""
    path = tmp_path / "s.db"
    scn = rules.get("two_by_two").scenario("sample")
    Game.create(Store(path), "s", "two_by_two", scn, seed=1, options={"play": "stated"})
    n = "9" * 400
    extra = [] if field == "distance" else ["distance=2"]
    err = refused(str(path), "twobytwo", "move", "unit=A1", f"{field}={n}", *extra, "--game", "s")
    assert f"'{field}' must be a length in base units [n]" in err and "inf" not in err, err


def test_a_name_that_reads_as_a_number_no_float_holds_stays_a_name() -> None:
    assert parse_value("NaN") == "NaN" and parse_value("1e400") == "1e400"
    assert parse_value("1e3") == 1000.0 and parse_value("[1, NaN]") == [1, "NaN"]


# == Napoleon At Bay: an empty 'to' ==
def test_nab_an_empty_destination_names_the_field(db: str) -> None:
    # was: "F1 occupies 1 hex(es): give as many distinct hexes"
    err = refused(db, "nab", "move", "F1", "to=", "--game", "n")
    assert "'to' is empty" in err, err


# == a misspelt key is named, not the field it left out ==
def test_a_misspelt_key_is_named_before_the_field_it_leaves_missing(db: str) -> None:
    # was: "advance: give distance= (one of: 2, 1)": the player's typo went unmentioned
    err = refused(db, "2x2", "advance", "unit=A1", "distanse=1", "--game", "t")
    assert "no argument 'distanse'" in err and "did you mean 'distance'" in err, err
    # the field left out alone still lists what the game offers for it
    err = refused(db, "2x2", "advance", "unit=A1", "--game", "t")
    assert "give distance=" in err, err


# == new: nothing half made ==
def test_a_new_game_that_cannot_be_shown_is_not_left_stored(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``new`` stored the game and made it current, then showed it: a failure to show left a
    game nobody saw, current. Now it is shown first and undone if that fails."""
    before = [g.name for g in Store(db).games()]
    Store(db).set_setting("current_game", "n")
    rs = rules.get("nab")

    def broken(state: Any) -> str:
        raise DataError("sample map", "cannot be drawn")

    monkeypatch.setattr(type(rs), "render", lambda self, state: broken(state))
    refused(db, "nab", "new", "half", "--scenario", "sample")
    assert [g.name for g in Store(db).games()] == before
    assert Store(db).get_setting("current_game") == "n"


@pytest.mark.parametrize(
    "argv",
    [
        ["nab", "new", "x", "--option", "variant=bogus"],
        ["nab", "new", "x", "--option", "vedette_strength=1e400"],
        ["nab", "new", "x", "--scenario", "nosuch"],
        ["asl", "new", "x", "--option", "foo=1"],
        ["asl", "new", "x", "--scenario", "sample", "--seed", "-1"],
    ],
)
def test_a_refused_new_leaves_no_game_and_the_current_game_as_it_was(
    db: str, argv: list[str]
) -> None:
    Store(db).set_setting("current_game", "n")
    refused(db, *argv)
    assert "x" not in [g.name for g in Store(db).games()]
    assert Store(db).get_setting("current_game") == "n"


def test_a_new_game_shown_becomes_the_current_game(db: str) -> None:
    code, out, err = run("--db", db, "nab", "new", "shown", "--json")
    assert code == 0, err
    assert json.loads(out)["game"] == "shown"
    assert Store(db).get_setting("current_game") == "shown"


def test_a_whole_number_beyond_any_field_is_refused_in_the_fields_words(db: str) -> None:
    # was: "request: tem_a: number 99999999999999999999 is out of range" (the limits' words)
    err = refused(db, "asl", "location", "4P5", "tem=99999999999999999999", "--game", "a")
    assert "'tem' is out of range (99999999999999999999)" in err, err
    # a text field keeps digits as typed: no hex of that name, said as for any other
    err = refused(db, "nab", "move", "F1", "to=99999999999999999999999", "--game", "n")
    assert "'to': hex 99999999999999999999999 is not on the map" in err, err


@pytest.mark.parametrize("number", [b"1e400", b"NaN", b"-Infinity", b"99999999999999999999"])
def test_the_web_app_refuses_such_numbers_in_the_fields_words(
    db: str, number: bytes, tmp_path: Path
) -> None:
    """The web app's JSON bodies are read as the command line reads typed values: a JSON
    1e400 (Python reads inf) or NaN was "request body: request.tem: inf is not a finite
    number". 400, one line, the game unchanged."""
    c = TestClient(create_app(Path(db)), base_url="http://localhost")
    c.get("/")
    page = c.get("/games/a").text
    token = page.split('name="csrf-token" content="')[1].split('"')[0]
    before = Store(db).game("a").events
    body = b'{"procedure":"location","request":{"id":"4P5","tem":' + number + b"}}"
    r = c.post(
        "/api/games/a/perform",
        content=body,
        headers={"X-CSRF-Token": token, "Content-Type": "application/json"},
    )
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error.startswith("'tem' ") and "\n" not in error and "inf" not in error, error
    assert Store(db).game("a").events == before


def test_asl_fort_with_nothing_to_record_is_refused(db: str) -> None:
    # 'fort F2 ca=' (an empty field is an omitted one) logged "pillbox F2: nothing new"
    err = refused(db, "asl", "fort", "F2", "ca=", "--game", "a")
    assert "give what to record" in err, err


@pytest.mark.parametrize(
    ("ruleset", "value"), [("nab", "nan"), ("nab", "-inf"), ("asl", "1979-05-27")]
)
def test_the_builder_refuses_a_scenario_file_holding_a_value_json_cannot_carry(
    db: str, ruleset: str, value: str
) -> None:
    """A scenario file imported in the web app's builder with a TOML ``nan`` (or a date) was
    refused, but the refusal echoes the file's data back, which JSON cannot write: the answer
    was "cannot process this request (ValueError)" and a traceback in the server's log. Now
    the refusal itself, naming the value, and nothing kept."""
    c = TestClient(create_app(Path(db)), base_url="http://localhost")
    c.get("/")
    page = c.get("/games/a").text
    token = page.split('name="csrf-token" content="')[1].split('"')[0]
    r = c.post(
        "/api/scenarios/import",
        json={"ruleset": ruleset, "name": "odd", "text": f"odd = {value}\n"},
        headers={"X-CSRF-Token": token},
    )
    assert r.status_code == 422, r.text
    body = r.json()
    assert "ValueError" not in body["error"] and "odd" in body["error"], body
    assert body["data"] is None
    code, out, _ = run("--db", db, ruleset, "scenarios")
    assert code == 0 and "odd" not in out


def test_asl_a_shift_whose_side_is_not_its_stacks_is_refused(db: str) -> None:
    # side=German on two Russian stacks was passed over: the Russian stacks' odds were shown
    assert run("--db", db, "asl", "phase", "to=MPh", "--game", "a")[0] == 0
    err = refused(db, "asl", "shift", "a=P1", "b=D1", "side=German", "--odds", "--game", "a")
    assert "P1 is a Russian stack, not German's" in err, err
    code, out, _ = run(
        "--db", db, "asl", "shift", "a=P1", "b=D1", "side=Russian", "--odds", "--game", "a"
    )
    assert code == 0 and "dummy stack of 4" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        # a garrison as the contact force: its "supporting forces" were listed
        (["contact=FG"], "FG (Fr Garrison) is a garrison, not a force (contact) (Herman (3))"),
        # the moving force of the contact force's own side: listed itself as a support
        (["contact=R1", "moving=R2"], "R1 and R2 are on the same side (Herman (1))"),
    ],
)
def test_nab_candidates_of_what_is_no_fixing_are_refused(
    db: str, argv: list[str], words: str
) -> None:
    assert words in refused(db, "nab", "candidates", *argv, "--game", "n")
