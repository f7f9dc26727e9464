"""Session 15 third audit (helper F10): whole turns played as a player, each finding held by a
test through the public API (``Game.perform``) with forced dice, quoting the rule."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.acceptance.test_accept_nab import T, amap, fr, ru
from vedette.engine import Game, Store
from vedette.web.app import create_app


@pytest.mark.parametrize("variant", ["final", "draft"])
def test_a22_a_force_moves_once_so_it_cannot_roll_a_screen_twice(
    tmp_path: Path, variant: str
) -> None:
    """Herman (1)-(2) and reading A22: `todo` offers a move only to a force that has not moved
    this phase, and `move` accepts a second one by default. F1 entered R1's ZOC, the fixing held
    (die 1: R1 stays, fixed); F1 could then step back (R1, no longer next to an enemy, loses its
    fixed state) and in again, and roll the same screen a second time. With
    `one_move_per_phase=true` a force moves once in its movement phase (a second move refused
    with a one-line error, nothing changed)."""
    t = T(
        tmp_path,
        [fr("F1", "A0705", infantry=4), ru("R1", "A1005", infantry=3)],
        variant=variant,
        one_move_per_phase=True,
    )
    t.move("F1", "A0905")
    t.fix([1])
    assert t.fixed("R1")
    msg = t.refused("A22", "move", force="F1", to=["A0705"])
    assert "has moved this phase" in msg
    assert [x.request["force"] for x in t.game.todo() if x.procedure == "move"] == []


def test_a22_option_lets_a_force_move_again(tmp_path: Path) -> None:
    """A22 by default (`one_move_per_phase=false`: a series that splits a move in legs): the
    second move is accepted, and stepping back into the screen's ZOC makes a fixing owed
    again."""
    t = T(tmp_path, [fr("F1", "A0705", infantry=4), ru("R1", "A1005", infantry=3)])
    t.move("F1", "A0905")
    t.fix([1])
    t.move("F1", "A0705")
    assert not t.fixed("R1")
    t.move("F1", "A0905")
    assert [o.id for o in t.game.obligations()] == ["fix:F1:R1"]


def corps_scenario() -> dict[str, object]:
    """A two-hex French corps facing a Russian vedette, a two-hex Russian corps in support."""
    return {
        "scenario": {"title": "corps", "series": "5x", "first": "Fr"},
        "sides": {"Fr": "French", "Ru": "Russian"},
        "map": amap(),
        "forces": [
            fr("F1", "A0705", "A0706", infantry=8),
            ru("R1", "A1005", vedettes=1),
            ru("R2", "A1205", "A1206", infantry=6),
        ],
    }


def test_a_multi_hex_force_moves_by_its_lead_hex_as_the_board_drag_sends(
    tmp_path: Path,
) -> None:
    """Herman (1) "a moving force" may be a multi-hex force (4). The board's drag sends one hex
    (`to: [hex]`), which `move` refused for a two-hex force ("give as many distinct hexes"):
    no multi-hex force could be moved by hand. One hex now places the lead component there and
    the others in touching hexes, the array `todo` offers for that hex; the ZOC it enters owes
    the fixing as a typed move would."""
    db = tmp_path / "web.db"
    Game.create(Store(db), "corps", "napoleon_at_bay", corps_scenario(), seed=5)
    c = TestClient(create_app(db), base_url="http://localhost")
    c.get("/")
    page = c.get("/games/corps").text
    h = {"X-CSRF-Token": page.split('name="csrf-token" content="')[1].split('"')[0]}
    assert c.get("/api/games/corps/board").json()["hand"]["procedure"] == "move"
    g = Game.open(Store(db), "corps")
    offer = next(t for t in g.todo() if t.procedure == "move" and t.request["force"] == "F1")
    arrays = [a for a in offer.open["to"] if a.startswith("A0905,")]
    assert arrays, offer.open["to"]
    req = {"force": "F1", "to": ["A0905"]}
    r = c.post("/api/games/corps/move-check", json={"procedure": "move", "request": req}, headers=h)
    assert r.json()["ok"] and r.json()["zoc"] == ["R1"], r.json()
    assert f"to {arrays[0]}" in r.json()["text"]  # the confirmation names every hex
    done = c.post("/api/games/corps/perform", json={"procedure": "move", "request": req}, headers=h)
    assert done.status_code == 200, done.json()
    g = Game.open(Store(db), "corps")
    assert ",".join(g.state.pieces["F1"].hexes) == arrays[0]
    assert [o.id for o in g.obligations()] == ["fix:F1:R1"]


@pytest.mark.parametrize("variant", ["final", "draft"])
def test_1_a_fixing_not_owed_at_entry_does_not_become_due_when_the_enemy_leaves(
    tmp_path: Path, variant: str
) -> None:
    """Herman (1): a contact force "that has no enemy force in its ZOC ... has a moving force
    enter its ZOC": the test is made at the entry. F1 entered R1's ZOC while F2 stood in it
    (no fixing owed, `todo` offered none); F2 then marched away, and `fix F1 R1` used to be
    accepted and rolled (R1 and R2 switched places). Now it is refused, nothing changed."""
    t = T(
        tmp_path,
        [
            fr("F1", "A0705", infantry=4),
            fr("F2", "A0906", infantry=2),
            ru("R1", "A1005", infantry=3),
            ru("R2", "A1205", infantry=2),
        ],
        variant=variant,
    )
    assert "no fixing: R1 (R1) already has an enemy force in its ZOC (F2)" in (
        t.move("F1", "A0905").message
    )
    t.move("F2", "A0707")  # out of R1's ZOC: R1 now has only F1 in it
    assert t.game.obligations() == () and [x.procedure for x in t.game.todo()] == ["end_movement"]
    t.refused("is owed for F1")
    assert t.hexes("R1") == ("A1005",) and not t.fixed("R1")


def test_1_a_waived_fixing_cannot_be_rolled_afterwards(tmp_path: Path) -> None:
    """Herman (1) and the logged waiver: once the owed fixing is waived, `fix` for it is refused
    (before, it was judged anew and rolled, so a waiver could be taken back by a roll)."""
    t = T(tmp_path, [fr("F1", "A0705", infantry=4), ru("R1", "A1005", infantry=3)])
    t.move("F1", "A0905")
    t.do("waive", obligation="fix:F1:R1")
    t.refused("is owed for F1")
