"""Bad input at the command line, found by trying each command as a careless player and as an
attacker would (session 15, helper C1): a field or option given twice, an empty die face, odds
too large to compute, a house rule that breaks the game's arithmetic, an option typed as the
game's name, a study too large to hold. Each is one line, exit 2, and nothing is stored."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from vedette import rules
from vedette.cli.main import main
from vedette.engine import Game, Store
from vedette.errors import BadRequest
from vedette.sim import cli as sim_cli
from vedette.sim.run import MAX_GAMES, check_games


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def refused(db: str, *argv: str) -> str:
    """The command's one-line error (exit 2); the database's games and their logs unchanged."""
    before = {g.name: Store(db).game(g.name).events for g in Store(db).games()}
    code, _, err = run("--db", db, *argv)
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, (code, err)
    assert {g.name: Store(db).game(g.name).events for g in Store(db).games()} == before
    return err


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "g.db"
    st = Store(path)
    Game.create(st, "t", "two_by_two", rules.get("two_by_two").scenario("sample"), seed=1)
    Game.create(st, "n", "nab", rules.get("nab").scenario("sample"), seed=1)
    Game.create(st, "s", "two_by_two", rules.get("two_by_two").scenario("setup"), seed=1)
    return str(path)


@pytest.mark.parametrize(
    "argv",
    [
        # (json and a dict kept the last one: the other unit moved, silently)
        ["twobytwo", "advance", "unit=A1", "unit=A2", "distance=1", "--game", "t"],
        ["twobytwo", "advance", "unit=A1", "distance=1", "distance=2", "--game", "t"],
        ["nab", "move", "force=F1", "force=F2", "to=W2020", "--game", "n"],
        ["twobytwo", "new", "x", "--option", "play=tracked", "--option", "play=stated"],
    ],
)
def test_a_field_or_option_given_twice_is_refused(db: str, argv: list[str]) -> None:
    assert "given twice" in refused(db, *argv)


def test_an_empty_die_face_between_commas_is_refused(db: str) -> None:
    # '1,,2' read as the two faces 1 and 2: a face left out in typing was never noticed
    assert "missing between two commas" in refused(db, "roll", "2d6", "--dice", "3,,4")
    err = refused(db, "twobytwo", "setup_roll", "--dice", "1,,2", "--game", "s")
    assert "missing between two commas" in err


def test_odds_too_large_to_compute_are_refused_at_once(db: str) -> None:
    # 999d999 ran for minutes (the web app's odds would hold a server process as long)
    err = refused(db, "odds", "999d999")
    assert "too large for exact odds" in err and "999 dice" in err
    code, out, _ = run("--db", db, "odds", "3d6")
    assert code == 0 and "1/216" in out


@pytest.mark.parametrize(
    ("ruleset", "text", "named"),
    [
        # 0 divided by zero when the new game was shown (exit 70) and the game was stored
        ("twobytwo", "[scale]\nbase_unit_mm = 0\n", "scale.base_unit_mm: must be more than 0"),
        ("twobytwo", "[scale]\nbase_unit_mm = -19\n", "scale.base_unit_mm: must be more than 0"),
        ("twobytwo", "[units.infantry]\nmove = -4\n", "units.infantry.move: must be more than"),
        ("twobytwo", "[scale]\ncontact_tolerance_mm = -1\n", "a length must be 0 or more"),
        ("solonap", "[options]\ncontrol_range_mm = -150\n", "a length must be 0 or more"),
    ],
)
def test_a_house_rule_out_of_range_is_refused(
    db: str, tmp_path: Path, ruleset: str, text: str, named: str
) -> None:
    f = tmp_path / "house.toml"
    f.write_text(text)
    assert named in refused(db, ruleset, "new", "h", "--house-rules", str(f))
    assert "h" not in [g.name for g in Store(db).games()]


def test_a_house_rule_in_range_is_kept(db: str, tmp_path: Path) -> None:
    f = tmp_path / "house.toml"
    f.write_text("[scale]\ncontact_tolerance_mm = 0\n[units.infantry]\nmove = 5\n")
    code, _, err = run("--db", db, "twobytwo", "new", "h", "--house-rules", str(f))
    assert code == 0, err


def test_an_option_typed_as_the_game_name_is_refused(db: str) -> None:
    # 'nab new variant=draft' started a game named 'variant=draft' with the final rules
    err = refused(db, "nab", "new", "variant=draft")
    assert "--option variant=draft" in err


def test_a_study_too_large_is_refused_before_any_game_is_played(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def calibrate(*a: object, **k: object) -> None:
        raise AssertionError("a game was played to time the study")

    monkeypatch.setattr(sim_cli, "warn_if_long", calibrate)
    err = refused(db, "simulate", "twobytwo", "--games", str(10**11), "--no-keep")
    assert f"at most {MAX_GAMES:,}" in err
    with pytest.raises(BadRequest):
        check_games(0)
    check_games(MAX_GAMES)
