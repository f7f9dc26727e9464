"""The generic shell over 2 by 2: new battle, move, phases, odds, shots with physical dice,
JSON output, refusals that write nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vedette.cli.main import main


def run(db: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["--db", str(db), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "g.db"
    # the sample as it stood before issue 15 (lines [21] apart): the positions below are its own
    code, out, _ = run(
        db, capsys, "twobytwo", "new", "neudorf", "--scenario", "sample_far", "--seed", "3"
    )
    assert code == 0 and "The bridge at Neudorf" in out and "player 1 (Austrians)" in out
    code, out, _ = run(db, capsys, "2x2", "help")
    assert "move" in out and "shoot" in out and "melee" in out and "rally" in out
    # Austrians move A1 into the town: half rate
    code, out, _ = run(db, capsys, "2x2", "move", "unit=A1", "to=[300,480]", "--json")
    data = json.loads(out)
    assert code == 0 and data["events"][0]["kind"] == "moved"
    assert data["details"]["move"]["through_town"] is True
    # a move that is too long is refused and writes nothing
    code, out, err = run(db, capsys, "2x2", "move", "unit=A6", "path=[[160,400]]")
    assert code != 0 and "Movement Modifiers" in err
    code, out, _ = run(db, capsys, "game", "log")
    assert out.count("#") == 2  # created + one move
    # out of phase
    code, _, err = run(db, capsys, "2x2", "shoot", "firer=F4", "target=A1")
    assert code != 0 and "Sequence of play" in err
    for _ in range(2):
        assert run(db, capsys, "2x2", "next")[0] == 0
    # odds before the roll, then the roll with physical dice
    code, out, _ = run(db, capsys, "2x2", "place", "unit=F4", "x=300", "y=380")
    assert code == 0
    code, out, _ = run(db, capsys, "2x2", "shoot", "firer=F4", "target=A1", "--odds")
    assert code == 0 and "no effect" in out and "%" in out
    code, out, _ = run(db, capsys, "2x2", "shoot", "firer=F4", "target=A1", "--dice", "6", "--json")
    data = json.loads(out)
    roll = data["rolls"][0]
    assert roll["dice"][0]["face"] == 6 and roll["row"] in (
        "pinned",
        "disrupted",
        "rout",
        "no_effect",
    )
    assert all("reason" in m for m in roll["modifiers"])
    assert any(e["kind"] == "shot" for e in data["events"])
    code, out, _ = run(db, capsys, "2x2", "show", "--json")
    st = json.loads(out)["state"]
    assert next(u for u in st["units"] if u["id"] == "F4")["shot"] is True
    a1 = next(u for u in st["units"] if u["id"] == "A1")
    assert a1["through_town"] is True and a1["moved"] is True
    assert {"rallied", "meleed", "countercharged"} <= set(a1)
    assert st["victory"] == {"threshold_ap": 8, "max_turns": 8}
    assert len(st["table"]["terrain"]) == 7
    code, out, _ = run(db, capsys, "2x2", "facts", "unit=F4", "target=A1")
    assert code == 0 and "band" in out


def test_cli_set_up_from_the_beginning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "s.db"
    assert run(db, capsys, "2x2", "new", "s", "--scenario", "setup")[0] == 0
    code, out, _ = run(db, capsys, "2x2", "setup_roll", "--odds")
    assert code == 0 and "tie" in out
    code, out, _ = run(db, capsys, "2x2", "setup_roll", "--dice", "4 4 5 2")
    assert code == 0 and "Attacker: French" in out and "extra 12 AP" in out
    # the Austrians (Defender) deploy first, within [8] of the north edge
    assert run(db, capsys, "2x2", "deploy", "unit=A1", "x=300", "y=520")[0] == 0
    code, _, err = run(db, capsys, "2x2", "deploy", "unit=A2", "x=300", "y=300")
    assert code != 0 and "Game Setup" in err
    assert run(db, capsys, "2x2", "next")[0] == 0
    assert run(db, capsys, "2x2", "deploy", "unit=F1", "x=250", "y=60")[0] == 0
    assert run(db, capsys, "2x2", "next")[0] == 0
    assert run(db, capsys, "2x2", "rp", "x=300", "y=609.6", 'units=["A7"]')[0] == 0
    assert run(db, capsys, "2x2", "rp", "x=609.6", "y=200", 'units=["F8"]')[0] == 0
    assert run(db, capsys, "2x2", "rp", "x=200", "y=609.6", 'units=["A8"]')[0] == 0
    code, out, _ = run(db, capsys, "2x2", "rp", "x=300", "y=0", 'units=["F6","F7"]')
    assert code == 0
    code, out, _ = run(db, capsys, "2x2", "show", "--json")
    st = json.loads(out)["state"]
    assert st["stage"] == "battle" and st["actor"] == "austrians" and st["extra_ap"] == 12
    assert [r["kind"] for r in st["rps"]] == ["rear", "flank", "rear", "rear"]
