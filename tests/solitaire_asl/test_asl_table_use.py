"""Session 21 (A6), Solitaire ASL at the table: the game as text says what is owed in words;
the 2.4.2 groups offered by taps; the bore-sight die and its scatter dice in one go."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.solitaire_asl.test_asl_flow import game, goto, sample
from vedette.cli.main import main
from vedette.engine import Game, Store
from vedette.rules.solitaire_asl import RULESET
from vedette.web.app import create_app

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


def test_a_2_4_2_group_of_potential_dummy_stacks_is_offered_and_moves_both_pairs(
    tmp_path: Path,
) -> None:
    """2.4.2 with potential dummy stacks: P1 and P2 (one squad each) may shift with the dummy
    stacks D1 and D2 (two ? each, 2.3.2) as one stack. ``todo`` offers P1 <-> D1 with P2 <->
    D2 (and P2 <-> D1 with P1 <-> D2), each once; the one DR swaps both pairs."""
    squad = [{"id": "r1", "name": "4-4-7", "kind": "squad"}]
    g = game(
        tmp_path,
        [
            {"id": "P1", "location": "4A1", "status": "potential_dummy", "counters": squad},
            {
                "id": "P2",
                "location": "4A2",
                "status": "potential_dummy",
                "counters": [{**squad[0], "id": "r2"}],
            },
            {"id": "D1", "location": "4C1", "status": "dummy", "dummies": 2},
            {"id": "D2", "location": "4C2", "status": "dummy", "dummies": 2},
        ],
    )
    goto(g, "MPh")
    groups = {
        (t.request["a"], t.request["b"]): t.open["also"]
        for t in g.todo(strict=True)
        if t.rule == "O'Leary 2.4.2"
    }
    assert groups == {("P1", "D1"): ((("P2", "D2"),),), ("P2", "D1"): ((("P1", "D2"),),)}
    out = g.perform("shift", {"a": "P1", "b": "D1", "also": [["P2", "D2"]]}, faces=[2, 2])
    assert "swap P1 (4A1) and D1 (4C1); swap P2 (4A2) and D2 (4C2)" in out.message


def own_dice_game(db: Path) -> Game:
    """The sample played with the player's own dice, in the Russian PFPh: DP (r2) may fire."""
    g = Game.create(Store(db), "own", "asl", RULESET.scenario("sample"), seed=3, dice="physical")
    goto(g, "PFPh")
    return g


def test_the_cli_asks_for_the_bore_sight_die_and_its_scatter_dice_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """O'Leary 6.1: a 6 on the bore-sight die throws a direction die and a distance die. With
    the player's own dice, ``todo`` said "roll 1d6 ... (some faces call for more dice: each is
    asked for then)": a 6 took three commands, each refused until the next die. It names the
    dice a 6 calls for, and one ``--dice`` with all the faces does the step."""
    db = tmp_path / "own.db"
    own_dice_game(db)
    capsys.readouterr()
    assert main(["--db", str(db), "asl", "todo"]) == 0
    text = capsys.readouterr().out
    said = "roll 1d6 and, on a 6, the direction die and the distance die; give all their faces"
    assert said in text
    args = ["--db", str(db), "asl", "boresight", "weapons=r2", "target=4R4", "--dice", "6 1 1"]
    assert main(args) == 0
    assert "1 hex N of 4R4 is 4R3" in capsys.readouterr().out


def test_the_web_offers_each_sequence_of_the_bore_sight_dice_as_one_tap(tmp_path: Path) -> None:
    """6.1 on the web page with the player's own dice: the odds' answer lists every sequence
    of faces the bore-sight die may take to its end (1 to 5 alone; a 6 with each direction
    and distance: 41), the page's one tap for them all; each is done in one go."""
    db = tmp_path / "own.db"
    own_dice_game(db)
    c = TestClient(create_app(db), base_url="http://localhost")
    page = c.get("/games/own").text
    h = {"X-CSRF-Token": page.split('name="csrf-token" content="')[1].split('"')[0]}
    body = {"procedure": "boresight", "request": {"weapons": ["r2"], "target": "4R4"}}
    got = c.post("/api/games/own/odds", json=body, headers=h).json()
    paths = [tuple(p["faces"]) for p in got["own_paths"]]
    assert paths == [(f,) for f in range(1, 6)] + [
        (6, d, r) for d in range(1, 7) for r in range(1, 7)
    ]
    assert got["own_paths"][-1]["names"] == ["1d6", "the direction die", "the distance die"]
    for faces in ((4,), (6, 1, 1)):
        done = c.post(
            "/api/games/own/perform", json={**body, "dice": list(faces)}, headers=h
        ).json()
        assert [r["final"] for r in done["outcome"]["rolls"]] == list(faces)
        c.post("/api/games/own/undo", json={}, headers=h)
    # a check of 2d6 (O'Leary 2.5, a shift) takes two dice whatever they show: no sequences
    g = Game.open(Store(db), "own")
    goto(g, "MPh")
    shift = {"procedure": "shift", "request": {"a": "P1", "b": "D1"}}
    assert "own_paths" not in c.post("/api/games/own/odds", json=shift, headers=h).json()
