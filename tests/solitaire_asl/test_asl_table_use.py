"""Session 21 (A6), Solitaire ASL at the table: the game as text says what is owed in words;
the 2.4.2 groups offered by taps; the bore-sight die and its scatter dice in one go."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.solitaire_asl.test_asl_flow import goto, sample
from vedette.cli.main import main
from vedette.engine import Game

RU, GE = "Russian", "German"


def shown(db: Path, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["--db", str(db), "game", "show"]) == 0
    return capsys.readouterr().out


def test_the_game_as_text_says_the_owed_decisions_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """O'Leary 6.1 and 4.6.2: the game as text (``game show``, the web's text view) printed an
    owed decision as a command (``decide id=r2 ok=true|false``, ``minefield entered=M1``, a
    ``waive`` in the minefield's words), which the web has no box for. It says each in words,
    as Napoleon At Bay's view does; ``todo`` keeps the commands."""
    g = sample(tmp_path)
    goto(g, "PFPh")
    g.perform("boresight", {"weapons": ["r2"], "target": "4R4"}, faces=[6, 1, 1])
    text = shown(tmp_path / "asl.db", capsys)
    assert "could bore sight a location in" in text and "(O'Leary 6.1): yes or no" in text
    assert "decide id=" not in text and "ok=true" not in text
    g.perform("decide", {"id": "r2", "ok": False})
    goto(g, "MPh", GE)
    g.perform("move", {"stack": "G1", "to": "4R4"})  # M1 there, its strength hidden
    text = shown(tmp_path / "asl.db", capsys)
    assert "attempt to exchange minefield M1" in text and "or declined" in text
    assert "entered=" not in text and "waive" not in text
    (owed,) = [t for t in g.todo() if t.owed]
    assert owed.command() == "minefield entered=M1"  # todo: the command


def hip_game(tmp_path: Path) -> Game:
    """The sample with dummy HIP counters in 4P5, 4Q6 and 4S7, in the Russian MPh: HIP units
    (H1, the foxhole F1) in 4M6, the pillbox F2 in 4N3."""
    g = sample(tmp_path)
    for loc in ("4P5", "4Q6", "4S7"):
        g.perform("place", {"kind": "dummy_hip", "side": RU, "location": loc})
    goto(g, "MPh")
    return g


def test_a_2_4_2_group_is_offered_by_taps_and_every_pair_offered_is_accepted(
    tmp_path: Path,
) -> None:
    """O'Leary 2.4.2 (HIP units obey it, 3.3): "two or more potential dummy stacks may shift
    with the same number of dummy stacks/potential dummy stacks solely at the discretion of
    the player", for units in separate locations. ``also`` was typed only (JSON): ``todo``
    offers, with a pair whose first location holds HIP units, each other such pair the side
    may shift now, as choices; each is accepted, and the one DR moves both pairs."""
    g = hip_game(tmp_path)
    groups = [t for t in g.todo(strict=True) if t.rule == "O'Leary 2.4.2"]
    assert groups, "no 2.4.2 group offered"
    for t in groups:
        assert set(t.open) == {"also"} and t.request["a"] == "4M6"
        for also in t.open["also"]:
            ((a2, b2),) = also
            assert a2 == "4N3" and b2 not in (t.request["a"], t.request["b"])
            assert g.is_legal("shift", {**t.request, "also": also})
    t = next(t for t in groups if t.request["b"] == "4O8")
    assert (("4N3", "4P5"),) in t.open["also"]
    out = g.perform("shift", {**t.request, "also": [["4N3", "4P5"]]}, faces=[3, 3])
    assert "shift allowed" in out.message
    # both pairs exchanged on the one DR: H1 and F1 to 4O8, the pillbox F2 to 4P5
    h1, f2 = g.state.stack("H1"), g.state.fortification("F2")
    assert h1 is not None and f2 is not None
    assert (h1.location, f2.location) == ("4O8", "4P5")
