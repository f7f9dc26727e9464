"""The CLI shell: roll, odds, game commands; one-line errors; fast --help."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import tests.toy  # noqa: F401
from vedette.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_roll_seeded_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "roll", "2d6+1", "--seed", "7", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["seed"] == 7 and len(data["dice"]) == 2
    assert data["final"] == sum(d["face"] for d in data["dice"]) + 1
    _, out2, _ = run(capsys, "roll", "2d6+1", "--seed", "7", "--json")
    assert json.loads(out2)["dice"] == data["dice"]


def test_roll_physical_dice_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "roll", "1d6", "--dice", "3", "--mod", "+2:only Ru has Vedette")
    assert code == 0 and out.strip() == "1d6=3+2 (only Ru has Vedette)=5"
    code, out, err = run(capsys, "roll", "d6", "--dice", "7")
    assert code == 2 and err.strip() == "vedette: error: 7 is not a face of d6 (faces: 1-6)"
    code, _, err = run(capsys, "roll", "2x6")
    assert code == 2 and "column 2" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "nonsense")
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_odds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "1d6 vs 1d6", "--reroll-draws", "--json")
    rows = json.loads(out)["rows"]
    assert code == 0 and len(rows) == 10 and rows[0]["p"] == "1/30"
    code, out, _ = run(capsys, "odds", "--under", "65", "--mod", "-9:3 casualties", "--json")
    assert json.loads(out)["rows"][0]["p"] == "14/25"


def test_game_commands(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    scen = tmp_path / "toy.toml"
    scen.write_text("limit = 100\n", encoding="utf-8")
    code, out, err = run(
        capsys,
        "--db",
        db,
        "game",
        "new",
        "g1",
        "--ruleset",
        "toy",
        "--scenario",
        str(scen),
        "--seed",
        "4",
    )
    assert code == 0, err
    assert "seed 4" in out
    code, out, _ = run(capsys, "--db", db, "game", "list")
    assert "g1" in out
    code, out, _ = run(capsys, "--db", db, "game", "undo")
    assert code == 2
    export = tmp_path / "g1.jsonl"
    code, _, _ = run(capsys, "--db", db, "game", "export", "g1", "-o", str(export))
    assert code == 0 and export.read_text().count("\n") == 2
    code, out, _ = run(capsys, "--db", db, "game", "import", str(export), "--name", "g2")
    assert code == 0 and "g2" in out
    code, out, _ = run(capsys, "--db", db, "game", "log", "g2")
    assert "#1 created: toy (seed 4)" in out
    code, _, err = run(capsys, "--db", db, "game", "show", "nope")
    assert code == 2 and err.strip() == "vedette: error: no game named 'nope'"


def test_help_is_fast_and_light() -> None:
    code = (
        "import sys\n"
        "from vedette.cli.main import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('numpy', 'shapely', 'lark', 'fastapi', 'rich') if m in sys.modules]\n"
        "print('HEAVY=' + ','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "HEAVY="


def test_custom_die_declared_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "2dX", "--die", "X=1,1,2", "--json")
    assert code == 0 and [r["p"] for r in json.loads(out)["rows"]] == ["4/9", "4/9", "1/9"]
    code, out, _ = run(capsys, "roll", "dK8+dK12", "--dice", "-3 5")
    assert code == 0 and out.strip() == "dK8+dK12=(-3+5)=2"
    code, _, err = run(capsys, "roll", "dX", "--die", "X=a")
    assert code == 2 and "faces must be whole numbers" in err


def test_the_quick_roll_prints_what_the_command_line_prints(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``vedette roll EXPRESSION`` alone skips click (vedette.cli.entry): the same line for
    the same seed, the same one-line error and exit code for a bad expression."""
    from vedette.cli.entry import quick_roll

    for expr in ("2d6", "3d6+2", "1d6 vs 1d6", "d100", "4dF"):
        assert main(["roll", expr, "--seed", "11"]) == 0
        full = capsys.readouterr().out
        assert quick_roll(expr, seed=11) == 0
        assert capsys.readouterr().out == full, expr
    for bad in ("2d6x", "0d6", "d"):
        code = main(["roll", bad])
        err = capsys.readouterr().err
        assert quick_roll(bad) == code != 0
        assert capsys.readouterr().err == err, bad


def test_the_quick_roll_loads_no_click() -> None:
    code = (
        "import sys; from vedette.cli.entry import main\n"
        "assert main(['roll', '2d6']) == 0\n"
        "print('click' in sys.modules, 'vedette.cli.main' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split()[-2:] == ["False", "False"]
    # anything else takes the whole command line
    out = subprocess.run(
        [sys.executable, "-c", "from vedette.cli.entry import main; main(['roll', '--help'])"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert "--seed" in out.stdout


def test_the_quick_todo_prints_what_the_command_line_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``vedette RULESET todo`` skips click (vedette.cli.quick): the same text and JSON as the
    command line, whichever way the options are written; anything it does not answer (no such
    game, another ruleset's game, an option it does not take) prints nothing and is handed on."""
    from vedette import rules
    from vedette.cli.quick import todo
    from vedette.engine import Game, Store

    db = str(tmp_path / "g.sqlite3")
    for name in rules.BUILTIN:
        rs = rules.get(name)
        Game.create(Store(db), name, name, rs.scenario("sample"), seed=3).store.close()
    forms = [
        ["--db", db, "nab", "todo", "--game", "napoleon_at_bay"],
        [f"--db={db}", "NAB", "todo", "--json", "--game=napoleon_at_bay"],
        ["--db", db, "asl", "todo", "--game", "solitaire_asl", "--json"],
        ["--db", db, "twobytwo", "todo", "--game", "two_by_two"],
        ["--db", db, "kuryakin", "todo", "--game", "solo_napoleonic"],
        ["--db", db, "solonap", "todo"],  # the current game: the last one made
    ]
    for args in forms:
        assert main(args) == 0
        full = capsys.readouterr().out
        assert todo(args) == 0
        assert capsys.readouterr().out == full, args
    handed_on = [
        ["--db", db, "nab", "todo", "--game", "nope"],
        ["--db", db, "nab", "todo", "--game", "solitaire_asl"],
        ["--db", db, "nab", "todo", "--game", "napoleon_at_bay", "--game", "x"],
        ["--db", db, "nab", "todo", "--json=1"],
        ["--db", db, "nab", "todo", "--help"],
        ["--db", db, "nab", "show", "--game", "napoleon_at_bay"],
        ["--db", db, "chess", "todo"],
    ]
    for args in handed_on:
        assert todo(args) is None, args
        assert capsys.readouterr() == ("", ""), args
    assert main(handed_on[0]) == 2
    assert capsys.readouterr().err == "vedette: error: no game named 'nope'\n"


def test_the_quick_todo_loads_no_click(tmp_path: Path) -> None:
    """Nor OpenSSL (hashlib), tomllib (the rule data comes from its cache) or pathlib: none
    is needed to answer, and each costs a step a few milliseconds."""
    from vedette import rules
    from vedette.engine import Game, Store

    db = str(tmp_path / "g.sqlite3")
    rs = rules.get("napoleon_at_bay")
    Game.create(Store(db), "g", rs.name, rs.scenario("sample"), seed=1).store.close()
    code = (
        "import sys, io, contextlib; from vedette.cli.entry import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        f"    assert main(['--db', {db!r}, 'nab', 'todo']) == 0\n"
        "print('click' in sys.modules, 'vedette.cli.main' in sys.modules,"
        " 'vedette nab ' in out.getvalue())\n"
        "print(*[m for m in ('_hashlib', 'tomllib', 'pathlib') if m in sys.modules])"
    )
    for _ in range(2):  # (the first run may parse the rule data and fill its cache)
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
    assert out.stdout.splitlines()[-2].split() == ["False", "False", "True"]
    assert out.stdout.splitlines()[-1] == ""


@pytest.mark.parametrize(
    ("ruleset", "cli", "needs"),
    [
        ("napoleon_at_bay", "nab", ""),
        ("solitaire_asl", "asl", ""),
        # the first turn's offered moves are measured across the terrain, in plain arithmetic
        # (vedette.geometry.flat): no shapely, no numpy
        ("two_by_two", "2x2", ""),
        ("solo_napoleonic", "solonap", ""),
    ],
)
def test_a_cli_step_on_a_game_loads_no_heavy_module(
    tmp_path: Path, ruleset: str, cli: str, needs: str
) -> None:
    """Issue 26 item 8: opening a game and asking what is next (or showing it) imports no
    pydantic, shapely or numpy, even where the offers are measured on the terrain (they cost
    several times a step's own work to import)."""
    from vedette import rules
    from vedette.engine import Game, Store

    db = tmp_path / "g.sqlite3"
    rs = rules.get(ruleset)
    g = Game.create(Store(db), "g", ruleset, rs.scenario(next(iter(rs.scenarios))), seed=1)
    g.store.close()
    for args in ([cli, "todo", "--game", "g"], ["game", "show", "g"]):
        code = (
            "import sys, io, contextlib\n"
            "from vedette.cli.main import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    assert main(['--db', {str(db)!r}, *{args!r}]) == 0\n"
            "heavy = [m for m in ('pydantic', 'shapely', 'numpy') if m in sys.modules]\n"
            "print('HEAVY=' + ','.join(heavy))\n"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        want = needs if args[1] == "todo" else ""
        assert out.stdout.strip().splitlines()[-1] == f"HEAVY={want}", (args, out.stdout)
