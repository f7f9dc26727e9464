"""Issue 26.1: a Napoleon At Bay game played with your own dice breaks a tie among 7-9
equally close forces (A12, Herman (1)) on a d10 rolled again above their number, unless the
player chose otherwise: the option is written into the game at ``new`` and said so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from nab_helpers import force, make, scenario

from vedette.cli.main import main


def toml_value(v: Any) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return json.dumps(v)


def seven_way_tie(tmp_path: Path) -> str:
    """A scenario file: F1 moving next to R1 (a general), seven Ru forces two hexes from R1."""
    f1, r1 = force("F1", "Fr", "A0504", infantry=4), force("R1", "Ru", "A0606", generals=["G"])
    m = make([f1, r1]).map
    near = {b for a in m.neighbors("A0606") for b in m.neighbors(a)}
    ring = sorted(h for h in near if m.distance(h, "A0606") == 2 and h not in ("A0504", "A0605"))
    extra = [force(f"R{i}", "Ru", h, infantry=1) for i, h in enumerate(ring[:7], start=2)]
    lines = []
    for key, value in scenario([f1, r1, *extra]).items():
        for table in value if isinstance(value, list) else [value]:
            lines.append(f"[[{key}]]" if isinstance(value, list) else f"[{key}]")
            lines += [f"{k} = {toml_value(v)}" for k, v in table.items()]
    path = tmp_path / "tie.toml"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_your_own_dice_break_a_seven_way_tie_on_a_d10(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, scn = str(tmp_path / "g.sqlite3"), seven_way_tie(tmp_path)
    code, out, _ = cli(capsys, "--db", db, "nab", "new", "g", "--scenario", scn, "--physical-dice")
    assert code == 0 and "(tie_die=d10 for your own dice; --option KEY=VALUE to change)" in out
    code, out, _ = cli(
        capsys, "--db", db, "nab", "new", "j", "--scenario", scn, "--physical-dice", "--json"
    )
    assert json.loads(out)["options"] == {"tie_die": "d10"}
    assert cli(capsys, "--db", db, "nab", "move", "F1", "A0605", "--game", "g")[0] == 0
    code, _, err = cli(capsys, "--db", db, "nab", "fix", "F1", "R1", "--game", "g")
    # the tie die is rolled on some fixing results only: asked for, not counted in (issue 26.1),
    # when a face calls for it (session 17: not named before)
    assert code != 0 and "roll 1d6 first (some faces call for more dice:" in err
    code, _, err = cli(capsys, "--db", db, "nab", "fix", "F1", "R1", "--game", "g", "--dice", "5")
    assert code != 0 and "die #2 (d10) is needed" in err
    code, out, _ = cli(
        capsys, "--db", db, "nab", "fix", "F1", "R1", "--game", "g", "--dice", "5 9 8 3"
    )
    assert code == 0
    assert out.count("(d10, re-rolled above 7): 1d10=") == 3 and "1d10=3 → R4 (R4)" in out


def test_the_player_may_choose_another_tie_die(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, scn = str(tmp_path / "g.sqlite3"), seven_way_tie(tmp_path)
    args = ["--db", db, "nab", "new", "g", "--scenario", scn, "--physical-dice"]
    code, out, _ = cli(capsys, *args, "--option", "tie_die=dN", "--json")
    assert code == 0 and json.loads(out)["options"] == {"tie_die": "dN"}
    assert cli(capsys, "--db", db, "nab", "move", "F1", "A0605")[0] == 0
    code, _, err = cli(capsys, "--db", db, "nab", "fix", "F1", "R1")
    # every face sequence known (no re-roll): the ask names the tie die and when it is rolled,
    # all the faces given in one line (session 21)
    assert code != 0 and "roll 1d6 and, on a 4, 5 or 6, 1d7; give all their faces" in err
    code, _, err = cli(capsys, "--db", db, "nab", "fix", "F1", "R1", "--dice", "5")
    assert code != 0 and "die #2 (d7) is needed" in err
    # a game whose dice vedette rolls keeps the rules' own default
    code, out, _ = cli(capsys, "--db", db, "nab", "new", "s", "--scenario", scn, "--json")
    assert code == 0 and json.loads(out)["options"] == {}
