"""Issue 29: how battles end. Each ruleset declares its end and result (``Ruleset.outcome``);
where the text gives none, the assumption is data a house rule replaces; a study reports how the
battles ended, the losses per side and the rolls, and writes one CSV row per game; ``vedette
sim`` names no ruleset."""

from __future__ import annotations

import csv
import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from vedette import rules
from vedette.cli.main import main
from vedette.errors import DataError
from vedette.sim.play import Setup, play_game
from vedette.sim.run import run_study

SIM = Path(rules.__file__).resolve().parents[1] / "sim"


def setup(ruleset: str, **kw: Any) -> Setup:
    rs = rules.get(ruleset)
    return Setup(rs.name, rs.scenario("sample"), **kw)


def test_the_simulator_names_no_ruleset() -> None:
    """A ruleset's end, winner, sides and policies live in its own package."""
    names = {
        n
        for r in ("napoleon_at_bay", "solitaire_asl", "two_by_two", "solo_napoleonic")
        for n in (r, *rules.get(r).aliases)
    }
    names |= {"kuryakin", "2 by 2", "napoleon at bay", "asl"}
    for f in SIM.glob("*.py"):
        text = f.read_text().lower()
        found = [n for n in names if re.search(rf"\b{re.escape(n.lower())}\b", text)]
        assert not found, f"{f.name} names {found}"


def test_kuryakin_battle_end_is_a_house_rule() -> None:
    """The army-break assumption is data: a 1-turn limit ends every game after the first turn."""
    s = setup("solo_napoleonic", house_rules={"battle_end": {"max_turns": 1}})
    for i in range(3):
        r = play_game(s, 4, i).result
        assert r.how in ("army broken", "turn limit") and r.turns <= 2, r
        assert r.winner in ("French", "Austrians", "draw")
        assert set(dict(r.losses)) == {"French", "Austrians"}


@pytest.mark.parametrize(
    "house, words",
    [
        ({"battle_end": {"break_fraction": 0.0}}, "break_fraction"),
        ({"battle_end": {"break_fraction": 1.5}}, "break_fraction"),
        ({"battle_end": {"max_turns": 0}}, "max_turns"),
    ],
)
def test_a_bad_battle_end_is_one_line(house: dict[str, Any], words: str) -> None:
    rs = rules.get("solo_napoleonic")
    with pytest.raises(DataError, match=words) as e:
        rs.initial_state(rs.scenario("sample"), {"house_rules": house})
    assert "\n" not in str(e.value)


def test_napoleon_at_bay_ends_at_its_turn_limit() -> None:
    s = setup("napoleon_at_bay", house_rules={"battle_end": {"max_turns": 2}})
    r = play_game(s, 1, 0).result
    assert (r.winner, r.end, r.how) == ("draw", "draw", "turn limit")
    assert r.turns == 3  # the third turn began: two were played


def test_solitaire_asl_ends_at_its_turn_limit() -> None:
    rs = rules.get("solitaire_asl")
    state = rs.initial_state(rs.scenario("sample"), {})
    assert rs.outcome(state) is None
    over = rs.outcome(dataclasses.replace(state, player_turn=13))  # game turn 7 of 6
    assert over is not None and (over.winner, over.how, over.turns) == ("draw", "turn limit", 7)


def test_a_study_reports_ends_losses_and_rolls() -> None:
    study = run_study(setup("solo_napoleonic", policies=("cards",)), 4, 3)
    summ = study["variants"][0]["summary"]
    assert set(summ["how"]) <= {"army broken", "turn limit"}
    assert sum(r["n"] for r in summ["how"].values()) == 4
    assert all({"rate", "low", "high"} <= set(r) for r in summ["how"].values())
    assert set(summ["losses"]) == {"French", "Austrians"}
    decided = sum(summ["wins"][s]["n"] for s in ("French", "Austrians"))
    assert bool(summ["decisive_rolls"]) == (decided > 0)


def test_cli_csv_one_row_per_game_and_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.csv"
    args = ["simulate", "twobytwo", "--games", "3", "--seed", "8", "--max-actions", "30"]
    code = main(["--db", str(tmp_path / "s.db"), *args, "--workers", "1", "--csv", str(path)])
    out, err = capsys.readouterr()
    assert code == 0, err
    rows = list(csv.DictReader(path.open()))
    assert [r["index"] for r in rows] == ["0", "1", "2"]
    want = {"winner", "how", "turns", "actions", "losses_french", "losses_austrians"}
    assert want <= set(rows[0])
    assert all(r["actions"] == "30" and r["how"] == "action limit" for r in rows)
    assert "ended: action limit 100.0%" in out and "losses french" in out


def test_cli_csv_to_a_missing_folder_is_refused_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "--db",
            str(tmp_path / "s.db"),
            "simulate",
            "twobytwo",
            "--games",
            "2",
            "--csv",
            str(tmp_path / "nowhere" / "g.csv"),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2 and "--csv" in err and len(err.strip().splitlines()) == 1


def test_a_long_study_says_how_long_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import vedette.sim.cli as sim_cli

    monkeypatch.setattr(sim_cli, "LONG_STUDY", 0.0)  # every study is long: the message shows
    args = ["simulate", "twobytwo", "--games", "20", "--max-actions", "5", "--workers", "1"]
    code = main(["--db", str(tmp_path / "s.db"), *args, "--no-keep"])
    err = capsys.readouterr().err
    assert code == 0 and "this study will take about" in err and "20 games" in err
