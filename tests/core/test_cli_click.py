"""The click shell generated from the referee protocol: --version, help from the request
declarations (legacy and typed), positional fields, todo, waive, whole-procedure odds, declared
ruleset options, physical-dice games and shell completion."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from importlib.metadata import version
from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, Field

import tests.typed_toy
from vedette.cli.common import option_fields
from vedette.cli.main import main
from vedette.engine import Game, Store

Run = tuple[int, str, str]


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "cli.db")


def run(capsys: pytest.CaptureFixture[str], db: str, *args: str) -> Run:
    capsys.readouterr()
    code = main(["--db", db, *args])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(res: Run) -> str:
    code, _, err = res
    assert code == 2, res
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("vedette: error: "), err
    return lines[0]


def typed_game(capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path) -> None:
    scen = tmp_path / "tt.toml"
    scen.write_text("limit = 20\n", encoding="utf-8")
    code, _, err = run(capsys, db, "tt", "new", "g", "--scenario", str(scen), "--seed", "3")
    assert code == 0, err


def test_version(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(capsys, db, "--version")
    assert code == 0 and out.strip() == f"vedette {version('vedette')}"


def test_root_help_lists_commands_and_rulesets(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(capsys, db, "--help")
    assert code == 0
    for word in ("roll", "odds", "tables", "game", "demo", "serve", "nab", "asl", "2x2"):
        assert word in out


def test_nab_help_from_the_declarations(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(capsys, db, "nab", "--help")
    assert code == 0
    assert "Napoleon At Bay" in out  # the ruleset's title
    assert "fix MOVING CONTACT" in out and "Herman (1)-(4)" in out
    assert "moving=str (required)" in out and "the moving force" in out
    assert "waive OBLIGATION" in out and "todo" in out
    # 'help' is the same text, and so is the bare ruleset
    assert run(capsys, db, "nab", "help")[1] == out
    assert run(capsys, db, "nab")[1] == out


def test_nab_fix_help(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(capsys, db, "nab", "fix", "--help")
    assert code == 0
    assert "Usage: vedette nab fix [OPTIONS] MOVING CONTACT" in out
    for text in (
        "moving=str (required)",
        "contact=str (required)",
        "repulse=bool",
        "contact_to=list",
        "the contact force",
        "--odds",
        "--dice",
    ):
        assert text in out, text


def test_an_optional_positional_field_is_shown_in_brackets(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    """ASL's `phase` takes `to` positionally but may be given nothing (the next phase): its
    help says so with brackets, where a required one (`fix MOVING CONTACT`) has none."""
    code, out, _ = run(capsys, db, "asl", "phase", "--help")
    assert code == 0
    assert "Usage: vedette asl phase [OPTIONS] [TO] [KEY=VALUE]..." in out
    assert "  phase [TO] " in run(capsys, db, "asl", "help")[1]
    assert run(capsys, db, "asl", "new", "g", "--seed", "1")[0] == 0
    assert run(capsys, db, "asl", "phase")[0] == 0
    assert run(capsys, db, "asl", "phase", "MPh")[0] == 0


def test_typed_help_shows_units_choices_defaults(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    code, out, _ = run(capsys, db, "tt", "march", "--help")
    assert code == 0
    assert "Usage: vedette tt march [OPTIONS] UNIT DISTANCE [KEY=VALUE]..." in out
    assert "distance=int [hexes] (required)" in out and "how far it marches" in out
    assert "pace=normal|forced (default normal)" in out and "march pace" in out
    code, out, _ = run(capsys, db, "tt", "--help")
    assert code == 0 and "bonus=int [pips] (default 0)" in out
    # a field declared positional comes first, even if it has company
    assert "rally UNIT " in out


def test_positional_fields_equal_keywords(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    results = []
    forms = [
        ["F1", "R1"],
        ["moving=F1", "contact=R1"],
        ["--moving", "F1", "--contact", "R1"],
        ["R1", "moving=F1"],  # the positional value fills the first field not given
    ]
    for i, form in enumerate(forms):
        db = str(tmp_path / f"p{i}.db")
        assert run(capsys, db, "nab", "new", "g", "--scenario", "example1", "--seed", "5")[0] == 0
        assert run(capsys, db, "nab", "move", "F1", "W2020")[0] == 0
        code, out, err = run(capsys, db, "nab", "fix", *form, "--json")
        assert code == 0, err
        results.append(json.loads(out))
        with Store(db) as st:
            # a typed request is logged whole: the fields given and the defaults
            assert Game.open(st).log()[-1].payload["request"] == {
                "moving": "F1",
                "contact": "R1",
                "repulse": False,
                "array": [],
                "contact_to": [],
            }
    assert all(r == results[0] for r in results[1:])
    db = str(tmp_path / "p0.db")
    err = one_line_error(run(capsys, db, "nab", "fix", "F1", "R1", "R2"))
    assert "at most 2 positional values (moving, contact)" in err
    err = one_line_error(run(capsys, db, "nab", "end_movement", "now"))
    assert "takes no positional values" in err


def test_todo_and_waive(capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path) -> None:
    typed_game(capsys, db, tmp_path)
    assert run(capsys, db, "tt", "march", "A", "3", "pace=forced")[0] == 0
    code, out, _ = run(capsys, db, "tt", "todo", "--json")
    data = json.loads(out)
    assert code == 0 and data["game"] == "g"
    first = data["todo"][0]
    assert first["owed"] is True and first["obligation"] == "rally-A"
    assert first["command"] == "rally unit=A" and first["rule"] == "Typed 3"
    assert [o["id"] for o in data["owed"]] == ["rally-A"]
    code, out, _ = run(capsys, db, "tt", "todo")
    lines = out.splitlines()
    assert lines[0].startswith("OWED") and "(Typed 3)" in lines[0]
    assert "vedette tt rally unit=A" in out and "vedette tt waive rally-A" in out
    # the owed step refuses the rest, in one line naming the rule and the way out
    err = one_line_error(run(capsys, db, "tt", "march", "A", "1"))
    assert "Typed 3" in err and "waive rally-A" in err
    # waiving something not owed: one line, nothing written
    with Store(db) as st:
        n = len(Game.open(st).records)
    err = one_line_error(run(capsys, db, "tt", "waive", "nope"))
    assert "nothing owed is called 'nope'" in err and "rally-A" in err
    with Store(db) as st:
        assert len(Game.open(st).records) == n
    code, out, _ = run(capsys, db, "tt", "waive", "rally-A", "reason=no time")
    assert code == 0 and "waived: rally-A (no time)" in out
    code, out, _ = run(capsys, db, "tt", "todo", "--json")
    assert json.loads(out)["owed"] == []
    assert "waive" in run(capsys, db, "game", "log")[1]


def test_todo_of_a_legacy_ruleset(capsys: pytest.CaptureFixture[str], db: str) -> None:
    assert run(capsys, db, "nab", "new", "g", "--scenario", "example1", "--seed", "5")[0] == 0
    code, out, _ = run(capsys, db, "nab", "todo", "--json")
    data = json.loads(out)
    assert code == 0 and "end_movement" in [t["procedure"] for t in data["todo"]]
    code, out, _ = run(capsys, db, "nab", "todo")
    assert code == 0 and "vedette nab end_movement" in out


def test_unknown_procedure_did_you_mean(capsys: pytest.CaptureFixture[str], db: str) -> None:
    err = one_line_error(run(capsys, db, "nab", "fixx", "F1", "R1"))
    assert "no procedure 'fixx'; did you mean 'fix'?" in err
    err = one_line_error(run(capsys, db, "nabb", "fix"))
    assert "did you mean 'nab'?" in err
    err = one_line_error(run(capsys, db, "nab", "new", "--seed"))  # a click usage error too
    assert "--seed" in err
    one_line_error(run(capsys, db, "roll", "2d6", "--seed", "x"))
    one_line_error(run(capsys, db, "nab", "fix", "--nonsense"))


def test_odds_show_every_outcome(capsys: pytest.CaptureFixture[str], db: str) -> None:
    assert run(capsys, db, "nab", "new", "g", "--scenario", "example1", "--seed", "5")[0] == 0
    assert run(capsys, db, "nab", "move", "F1", "W2020")[0] == 0
    code, out, _ = run(capsys, db, "nab", "fix", "F1", "R1", "--odds")
    assert code == 0
    assert "fixing: 1d6+2" in out  # the step's odds
    assert "all outcomes (exact" in out  # the whole procedure's
    code, out, _ = run(capsys, db, "nab", "fix", "F1", "R1", "--odds", "--json")
    data = json.loads(out)
    assert [d["type"] for d in data] == ["odds", "odds", "chances"]
    assert sum(Fraction(r["p"]) for r in data[-1]["rows"]) == 1
    with Store(db) as st:
        assert len(Game.open(st).records) == 2  # --odds rolls nothing


def test_odds_of_a_typed_procedure(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    typed_game(capsys, db, tmp_path)
    code, out, _ = run(capsys, db, "tt", "rally", "A", "--odds")
    assert code == 0 and "rally A: 1d6" in out
    assert "all outcomes (exact, 6 dice branches)" in out and "2/3" in out
    code, out, _ = run(capsys, db, "tt", "march", "A", "2", "--odds")
    assert code == 0 and "march rolls no dice" in out


class NabOptions(BaseModel):
    variant: Literal["standard", "draft"] = Field("standard", description="the rules variant")
    reach: int = Field(3, ge=1, description="how far a ZOC reaches")
    stop_at_zoc: bool = Field(True, description="a move stops at the first enemy ZOC")


def test_declared_options(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rs = tests.typed_toy.RULESET
    assert option_fields(rs) == []
    code, out, _ = run(capsys, db, "tt", "new", "--help")
    assert code == 0 and "none declared" in out and "--physical-dice" in out
    monkeypatch.setattr(rs, "options_model", NabOptions, raising=False)
    fields = {f.name: f for f in option_fields(rs)}
    assert fields["variant"].kind == "standard|draft" and fields["reach"].default == 3
    code, out, _ = run(capsys, db, "tt", "new", "--help")
    assert code == 0
    assert "variant=standard|draft (default standard)" in out and "the rules variant" in out
    assert "reach=int [>=1] (default 3)" in out and "stop_at_zoc=bool (default true)" in out
    scen = tmp_path / "tt.toml"
    scen.write_text("limit = 20\n", encoding="utf-8")
    new = ("tt", "new", "g", "--scenario", str(scen))
    code, _, err = run(capsys, db, *new, "--option", "reach=4", "--option", "stop_at_zoc=no")
    assert code == 0, err
    with Store(db) as st:
        assert Game.open(st, "g").created["options"] == {"reach": 4, "stop_at_zoc": False}
    err = one_line_error(run(capsys, db, *new, "--option", "rech=4"))
    assert "did you mean 'reach'?" in err
    err = one_line_error(run(capsys, db, *new, "--option", "reach=far"))
    assert "reach" in err and "'far'" in err
    err = one_line_error(run(capsys, db, *new, "--option", "reach=0"))
    assert "greater than or equal to 1" in err


def test_new_with_physical_dice(capsys: pytest.CaptureFixture[str], db: str) -> None:
    code, out, _ = run(capsys, db, "nab", "new", "p", "--physical-dice", "--json")
    assert code == 0 and json.loads(out)["dice"] == "physical"
    code, out, _ = run(capsys, db, "game", "new", "s", "--ruleset", "nab", "--json")
    assert code == 0 and json.loads(out)["dice"] == "seeded"
    with Store(db) as st:
        assert Game.open(st, "p").physical and not Game.open(st, "s").physical


def test_a_physical_dice_game_asks_for_the_dice(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    """Issue 26: 'nab new p1 --physical-dice; nab move F1 W2020; nab fix F1 R1' rolled from the
    seeded stream; now the fixing asks for the die in one line and writes nothing."""
    assert run(capsys, db, "nab", "new", "p1", "--physical-dice")[0] == 0
    assert run(capsys, db, "nab", "move", "F1", "W2020")[0] == 0
    err = one_line_error(run(capsys, db, "nab", "fix", "F1", "R1"))
    assert "this game is played with your own dice: roll 1d6" in err and "--dice" in err
    with Store(db) as st:
        assert len(Game.open(st, "p1").records) == 2
    code, out, _ = run(capsys, db, "nab", "fix", "F1", "R1", "--dice", "3")
    assert code == 0 and "1d6=3" in out


def complete(words: str, cword: int) -> list[str]:
    env = {
        **os.environ,
        "_VEDETTE_COMPLETE": "bash_complete",
        "COMP_WORDS": words,
        "COMP_CWORD": str(cword),
    }
    code = "from vedette.cli.main import main\nraise SystemExit(main())\n"
    res = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return [line.partition(",")[2] for line in res.stdout.splitlines() if line]


def test_shell_completion() -> None:
    assert "nab" in complete("vedette n", 1)
    assert "fix" in complete("vedette nab fi", 2)
    assert complete("vedette nab fix mo", 3) == ["moving="]


def test_negative_number_given_positionally(
    capsys: pytest.CaptureFixture[str], db: str, tmp_path: Path
) -> None:
    typed_game(capsys, db, tmp_path)
    code, out, err = run(capsys, db, "tt", "march", "A", "-2", "--json")
    assert code == 0, err
    assert json.loads(out)["events"][0]["data"] == {"unit": "A", "by": -2, "forced": False}
    code, _, err = run(capsys, db, "tt", "rally", "A", "--bonus", "-1", "--dice", "4")
    assert code == 0, err
    err = one_line_error(run(capsys, db, "tt", "march", "A", "--nonsense"))
    assert "--nonsense" in err


def test_ruleset_names_come_from_the_registry_without_importing_a_ruleset() -> None:
    """The root's help lists the rulesets from the registry alone: no ruleset code (and so
    no ruleset-specific code in the shell)."""
    import subprocess
    import sys

    code = (
        "import sys; from vedette.cli.main import ruleset_listing; l = ruleset_listing();"
        "assert l['napoleon_at_bay'] == ('nab',), l;"
        "bad = [m for m in sys.modules if m.startswith('vedette.rules.') or m == 'vedette.dice'];"
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_shell_completion_of_game_names(capsys: pytest.CaptureFixture[str], db: str) -> None:
    assert run(capsys, db, "nab", "new", "alpha")[0] == 0
    assert run(capsys, db, "nab", "new", "beta")[0] == 0
    assert complete(f"vedette --db {db} nab todo --game a", 6) == ["alpha"]
    assert complete(f"vedette --db {db} game show ", 5) == ["alpha", "beta"]
    assert complete(f"vedette --db {db}x game show ", 5) == []  # no database: none, none made
    assert not Path(db + "x").exists()


def test_scenarios_have_titles_and_descriptions(
    capsys: pytest.CaptureFixture[str], db: str
) -> None:
    """Issue 26.9: a scenario list names each scenario's title and says what it is."""
    code, out, _ = run(capsys, db, "nab", "scenarios", "--json")
    got = {s["name"]: s for s in json.loads(out)}
    assert code == 0 and got["example1"]["title"] == "Herman's example, row 1"
    assert "Vilnius (W1920)" in got["example1"]["description"]
    code, out, _ = run(capsys, db, "asl", "scenarios")
    assert out.startswith("sample  Orchard Crossroads (vedette sample)\n")


def test_a_game_is_named_for_you(capsys: pytest.CaptureFixture[str], db: str) -> None:
    """Issue 26: starting a game needs no name; it is said to be the current game."""
    code, out, _ = run(capsys, db, "nab", "new", "--seed", "1")
    assert code == 0 and "game 'nab-1'" in out and "it is now the current game" in out
    code, out, _ = run(capsys, db, "game", "new", "--ruleset", "asl", "--json")
    assert code == 0 and json.loads(out)["game"] == "asl-1"
    assert run(capsys, db, "nab", "new")[1].startswith("new napoleon_at_bay game 'nab-2'")
