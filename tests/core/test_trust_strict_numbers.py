"""Numbers read strictly at every door (session 17, helper N): after K3 (typed fields and dice
in ASCII digits only, tests/core/test_trust_ascii_digits.py) a full-width "３", an
Arabic-Indic "٣" or an underscore "1_0" still came in through click's ``IntRange`` options
(``serve --port``, ``chances --limit``), pydantic's lax reading of ``--option`` values and of
the web app's address numbers (``?limit=``, ``/log/{seq}``), and house rules read by
``Fraction``, ``int`` or a ``\\d`` pattern (a hexside's road cost, a terrain's cost, a table's
ranges). Each is now refused in one line (exit 2 at the command line, a 4xx in the web app),
nothing stored; ASCII digits are read as before."""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path
from typing import Any
from unittest import mock

import click
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings

from tests.core.test_trust_ascii_digits import ODD_NUMBERS
from tests.core.test_trust_bad_input import refused, run
from vedette import rules
from vedette.cli.common import AsciiIntRange
from vedette.engine import Game, Store
from vedette.errors import VedetteError
from vedette.rules.protocol import decode_event
from vedette.rules.solitaire_asl.fold import BY_KIND
from vedette.schemas.rules import shipped_data
from vedette.web.app import create_app

SLOW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "g.db"
    Game.create(Store(path), "a", "asl", rules.get("asl").scenario("sample"), seed=1)
    return str(path)


# -- click's range options ----------------------------------------------------------------------
def _never_served(**kw: Any) -> None:
    raise AssertionError(f"served on {kw}: the option was read as a number")


def test_range_options_refuse_other_digits(db: str) -> None:
    for argv in (
        ("serve", "--port", "８７６５"),
        ("serve", "--port", "8_765"),
        ("serve", "--workers", "٢"),
        ("asl", "chances", "--limit", "1_0"),
    ):
        with mock.patch("vedette.web.server.serve", _never_served):
            err = refused(db, *argv)
        assert "is not a valid integer" in err, err
    assert "is not in the range" in refused(db, "serve", "--port", "0")  # (its range still held)


def test_range_options_read_ascii_digits() -> None:
    t = AsciiIntRange(1, 65535)
    assert t.convert("8765", None, None) == 8765
    assert t.convert(" 42 ", None, None) == 42
    assert t.convert(7, None, None) == 7  # (a default)
    with pytest.raises(click.BadParameter, match="not in the range"):
        t.convert("70000", None, None)


@SLOW
@given(text=ODD_NUMBERS)
def test_no_range_option_reads_other_digits(text: str) -> None:
    """Property: a port or a worker count typed with other digits (or an underscore) is
    refused before anything is served, never read as a number."""
    for option in ("--port", "--workers"):
        with mock.patch("vedette.web.server.serve", _never_served):
            code, _, err = run("serve", option, text)
        assert code == 2 and "is not a valid integer" in err and err.count("\n") == 1, err


def test_a_seed_is_read_alike_by_roll_simulate_and_new(db: str) -> None:
    """A dice stream's seed is a whole number from 0 to 2^64-1 (a game's, ``schemas.game``):
    ``roll --seed -1`` rolled and ``simulate --seed -1`` ran, while ``game new`` refused it."""
    for args in (("roll", "2d6"), ("simulate", "two_by_two", "--games", "1")):
        for seed in ("-1", str(1 << 64)):
            code, _, err = run("--db", db, *args, "--seed", seed)
            assert code == 2 and "is not in the range 0<=x<=" in err and err.count("\n") == 1, err
    assert run("roll", "2d6", "--seed", str((1 << 64) - 1))[0] == 0
    assert "2^64-1" in refused(db, "game", "new", "--ruleset", "nab", "--seed", "-1", "s")


# -- --option values (pydantic's lax reading) ---------------------------------------------------
def test_an_option_typed_with_an_underscore_is_refused(db: str) -> None:
    err = refused(db, "game", "new", "--ruleset", "nab", "--option", "vedette_strength=1_0", "b")
    assert "--option vedette_strength: not a number in ASCII digits" in err, err
    assert "b" not in {g.name for g in Store(db).games()}
    assert (
        run("--db", db, "game", "new", "--ruleset", "nab", "--option", "vedette_strength=2", "b")[0]
        == 0
    )
    assert Game.open(Store(db), "b").created["options"] == {"vedette_strength": 2}


@pytest.mark.parametrize("command", ["game new --ruleset nab b", "simulate nab --games 1"])
@pytest.mark.parametrize("text", ["true", "false"])
def test_a_truth_value_is_not_a_number_of_an_option(db: str, command: str, text: str) -> None:
    """``vedette_strength=true`` was read as 1 by the command line (pydantic's lax reading);
    the web form's options and a scenario's refuse it. A truth option still reads true."""
    err = refused(db, *command.split(), "--option", f"vedette_strength={text}")
    assert "--option vedette_strength: not a number in ASCII digits (it is int" in err, err
    assert f"not {text!r}" in err
    argv = ("game", "new", "--ruleset", "nab", "--option", "substitute_is_fixed=false", "c")
    assert run("--db", db, *argv)[0] == 0
    assert Game.open(Store(db), "c").created["options"] == {"substitute_is_fixed": False}


def test_a_long_option_value_is_cut_in_its_refusal(db: str) -> None:
    err = refused(db, "game", "new", "--ruleset", "nab", "--option", "series=" + "x" * 5000)
    assert "(5000 characters)" in err and len(err) < 300, err


@SLOW
@given(text=ODD_NUMBERS)
def test_no_option_value_reads_other_digits(text: str) -> None:
    """Property: an option's whole number typed with other digits is refused, for ``game
    new`` as for a study, before any game is made."""
    code, _, err = run(
        "--db", ":memory:", "simulate", "nab", "--option", f"vedette_strength={text}"
    )
    assert code == 2 and err.startswith("vedette: error: --option vedette_strength"), err
    assert err.count("\n") == 1, err


# -- the web app's address numbers ----------------------------------------------------------------
def test_address_numbers_refuse_other_digits(db: str) -> None:
    c = TestClient(create_app(Path(db)), base_url="http://localhost")
    for url in (
        "/api/games/a/log?limit=1_0",
        "/api/games/a/log?before=1_0",
        "/api/games/a?since=0_0",
        "/api/games/a/log/0_1",
        "/api/simulations/1_0",
        "/api/games/a/log?limit=%EF%BC%93",  # (a full-width 3)
    ):
        r = c.get(url)
        assert r.status_code == 422, (url, r.status_code, r.text)
        error = r.json()["error"]
        assert "Input should be a whole number in ASCII digits" in error, error
        assert "\n" not in error
    assert c.get("/simulations/1_0").status_code == 422  # (a page, for a browser)
    assert c.get("/api/games/a/log?limit=3").status_code == 200
    assert c.get("/api/games/a/log/1").json()["seq"] == 1
    assert c.get("/api/games/a?since=0").status_code == 200


@SLOW
@given(text=ODD_NUMBERS)
def test_no_address_number_reads_other_digits(text: str) -> None:
    """Property: a log entry's number typed with other digits is a 422, not another entry."""
    c = TestClient(create_app(Path(_web_db())), base_url="http://localhost")
    r = c.get(f"/api/games/a/log/{text}")
    assert r.status_code == 422 and "ASCII digits" in r.json()["error"], r.text


_WEB_DB: list[str] = []


def _web_db() -> str:
    if not _WEB_DB:
        path = str(Path(tempfile.mkdtemp()) / "w.db")
        Game.create(Store(path), "a", "asl", rules.get("asl").scenario("sample"), seed=1)
        _WEB_DB.append(path)
    return _WEB_DB[0]


# -- house rules: costs, fractions and table ranges -----------------------------------------------
def _shift_rows(range_text: str) -> dict[str, Any]:
    rows = copy.deepcopy(shipped_data(rules.get("asl"))["tables"]["shift"]["rows"])
    rows[1]["range"] = range_text
    return {"tables": {"shift": {"rows": rows}}}


def _refused_house_rules(ruleset: str, house: dict[str, Any]) -> str:
    rs = rules.get(ruleset)
    with pytest.raises(VedetteError) as e:
        rs.validate_house_rules(house, "house.toml")
        Game.create(Store(":memory:"), "h", rs.name, rs.scenario("sample"), 1, house_rules=house)
    assert "\n" not in str(e.value)
    return str(e.value)


def test_house_rules_refuse_other_digits() -> None:
    assert "cannot read range '１-7'" in _refused_house_rules("asl", _shift_rows("１-7"))
    err = _refused_house_rules("nab", {"hexsides": {"road": {"road_cost": "1_0/2"}}})
    assert "hexside 'road': cost '1_0/2' is not a number" in err, err
    err = _refused_house_rules("nab", {"hexsides": {"road": {"road_cost": "１/2"}}})
    assert "cost '１/2' is not a number" in err, err
    err = _refused_house_rules("nab", {"terrain": {"lake": {"cost": "３"}}})
    assert "terrain 'lake': cost '３' is not a number or 'impassable'" in err, err


@pytest.mark.parametrize("dice", ["²d6", "１d6", "1d６"])
def test_a_kuryakin_batterys_dice_in_other_digits_are_refused(dice: str) -> None:
    """Session 19 (helper X): [fire] ball_dice, read by ``str.isdigit`` (E's check), took
    "１d6" (and so a game whose battery's fire could not roll) and failed on "²d6" with an
    internal error; the shipped "1d6" still reads (tests/seeds/test_solonap_examples.py)."""
    err = _refused_house_rules("solonap", {"fire": {"ball_dice": dice}})
    assert f"[fire] ball_dice must be dice such as 1d6, not '{dice}'" in err, err


def test_house_rules_in_ascii_digits_still_read() -> None:
    nab = rules.get("nab")
    house = {"hexsides": {"road": {"road_cost": "1/3"}}, "terrain": {"lake": {"cost": "4"}}}
    nab.validate_house_rules(house, "house.toml")
    g = Game.create(Store(":memory:"), "h", "nab", nab.scenario("sample"), 1, house_rules=house)
    kinds = g.state.map.hexside_kinds
    assert str(kinds["road"].road_cost) == "1/3"
    assert str(g.state.map.terrain_kinds["lake"].cost) == "4"
    rules.get("asl").validate_house_rules(_shift_rows("1-7"), "house.toml")  # (as shipped)
    rules.get("asl").validate_house_rules(_shift_rows(" 1 - 7 "), "house.toml")


def test_house_rules_out_of_range_are_refused() -> None:
    """Found by the same hunt: a cost written as text had no bound ("1e400" made a road cost
    10**400, not refused as the same number written as a number is), and the [fixing] values
    the option refuses below 0 were taken from a house rule (a negative MP limit)."""
    err = _refused_house_rules("nab", {"hexsides": {"road": {"road_cost": "1e400"}}})
    assert "hexside 'road': cost '1e400' is out of range" in err, err
    err = _refused_house_rules("nab", {"fixing": {"mp_limit": -5}})
    assert "mp_limit must be 0 or more (or none), not -5" in err, err
    err = _refused_house_rules("nab", {"fixing": {"vedette_strength": -1}})
    assert "vedette_strength must be 0 or more, not -1" in err, err
    nab = rules.get("nab")
    house = {"fixing": {"mp_limit": 12, "vedette_strength": 0}}
    g = Game.create(Store(":memory:"), "h", "nab", nab.scenario("sample"), 1, house_rules=house)
    assert (g.state.config.mp_limit, g.state.config.vedette_strength) == (12, 0)


@SLOW
@given(text=ODD_NUMBERS)
def test_no_house_rule_number_reads_other_digits(text: str) -> None:
    """Property: a cost, a fraction's part or a table's range typed with other digits is
    refused, never read as a number."""
    _refused_house_rules("nab", {"hexsides": {"road": {"road_cost": f"{text}/2"}}})
    _refused_house_rules("nab", {"terrain": {"lake": {"cost": text}}})
    _refused_house_rules("asl", _shift_rows(f"{text}-7"))


# -- a study's worker count -------------------------------------------------------------------
def test_no_workers_is_refused(db: str) -> None:
    """``--workers 0`` was taken as "the default" (a falsy count) and the study run."""
    err = refused(db, "simulate", "nab", "--games", "1", "--no-keep", "--workers", "0")
    assert "--workers must be at least 1" in err, err


def test_an_event_version_in_other_digits_is_refused() -> None:
    """A logged event's version ("v") given as text is read in ASCII digits only ("１" was read
    as version 1, "1_0" as version 10: newer than this release reads)."""
    for v in ("１", "1_0"):
        with pytest.raises(VedetteError, match=f"its version '{v}' is not a number"):
            decode_event(BY_KIND, {"kind": "phase", "v": v, "data": {}})
    with pytest.raises(VedetteError, match="missing 'phase'"):  # version 1: its data checked
        decode_event(BY_KIND, {"kind": "phase", "v": "1", "data": {}})


def test_asl_allotment_divisors_must_be_more_than_0() -> None:
    """Found by the same hunt: a house rule's 0 AP (or AT) factors per dummy minefield (O'Leary
    4.6.1) divided by zero when the game was set up (a ZeroDivisionError's traceback)."""
    for key in ("ap_factors_per_dummy_minefield", "at_factors_per_dummy_minefield"):
        err = _refused_house_rules("asl", {"allotment": {key: 0}})
        assert f"allotment.{key}: must be more than 0, not 0" in err, err
    asl = rules.get("asl")
    house = {"allotment": {"ap_factors_per_dummy_minefield": 2}}
    Game.create(Store(":memory:"), "h", "asl", asl.scenario("sample"), 1, house_rules=house)


@SLOW
@given(text=ODD_NUMBERS)
def test_no_scenario_or_body_number_reads_other_digits(text: str) -> None:
    """Property (the doors that were strict already, kept so): a scenario's whole number and a
    web request body's given as text in other digits (or with an underscore) are refused,
    while the same number as a number is read."""
    tbt = rules.get("2x2")
    scenario = copy.deepcopy(tbt.scenario("sample"))
    scenario["victory"]["max_turns"] = text
    with pytest.raises(VedetteError, match=r"victory\.max_turns"):
        Game.create(Store(":memory:"), "s", "two_by_two", scenario, 1)
    c = TestClient(create_app(Path(_web_db())), base_url="http://localhost")
    token = c.get("/games/a").text.split('name="csrf-token" content="')[1].split('"')[0]
    body = {"procedure": "shift", "limit": text}
    r = c.post("/api/games/a/chances", json=body, headers={"X-CSRF-Token": token})
    assert r.status_code in (400, 422) and "limit" in r.json()["error"], r.text


def test_scenario_numbers_as_numbers_still_read() -> None:
    scenario = copy.deepcopy(rules.get("2x2").scenario("sample"))
    scenario["victory"]["max_turns"] = 6
    g = Game.create(Store(":memory:"), "s", "two_by_two", scenario, 1)
    assert g.created["scenario"]["victory"]["max_turns"] == 6
