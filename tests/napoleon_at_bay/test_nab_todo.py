"""Issue 22 for Napoleon At Bay: a declared flow (movement, then combat, per side; owed
fixings first) and a ``todo`` a player can play from: ``move force=F`` open on ``to`` with the
hexes the move can reach."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.napoleon_at_bay.nab_helpers import force, make, move
from tests.todo_play import run
from vedette import rules
from vedette.engine import Game, Store
from vedette.errors import VedetteError
from vedette.rules.napoleon_at_bay import RULESET
from vedette.rules.napoleon_at_bay.reach import MOVE_CHOICES, move_targets


def game(tmp_path: Path, scenario: str = "sample") -> Game:
    rs = rules.get("napoleon_at_bay")
    return Game.create(Store(tmp_path / "g.db"), "g", rs.name, rs.scenario(scenario), seed=1)


def test_the_flow_names_movement_and_combat() -> None:
    assert [p.name for p in RULESET.flow.phases] == ["movement", "combat"]
    st = make([force("F1", "Fr", "A0101", infantry=1), force("R1", "Ru", "A0505", infantry=1)])
    assert RULESET.current_phase(st) == "movement"


def test_a_move_in_the_combat_phase_is_refused_naming_herman_5(tmp_path: Path) -> None:
    g = game(tmp_path)
    g.perform("end_movement", {})
    with pytest.raises(VedetteError, match=r"move is not part of the combat.*Herman \(5\)"):
        g.perform("move", {"force": "F1", "to": "W2020"})
    assert not g.is_legal("move", {"force": "F1", "to": "W2020"})
    assert [t.procedure for t in g.todo()] == ["end_combat"]


def test_move_is_offered_open_on_the_reachable_hexes(tmp_path: Path) -> None:
    g = game(tmp_path)
    moves = [t for t in g.todo(strict=True) if t.procedure == "move"]
    assert moves and all(set(t.open) == {"to"} for t in moves)
    f1 = next(t for t in moves if t.request["force"] == "F1")
    assert "W2020" in f1.open["to"]  # into R1's ZOC: a fixing follows (the sample's story)
    assert len(f1.open["to"]) <= MOVE_CHOICES
    for h in f1.open["to"]:  # every offered choice is accepted as written
        assert g.is_legal("move", {"force": "F1", "to": h})


def test_an_enemy_hex_and_hexes_beyond_a_zoc_are_not_offered() -> None:
    st = make([force("F1", "Fr", "A0101", infantry=1), force("R1", "Ru", "A0303", infantry=1)])
    to = move_targets(st, st.pieces["F1"])
    assert "A0303" not in to
    assert "A0404" not in to  # behind R1: the path stops in its ZOC (stop_at_zoc)
    assert "A0102" in to


def test_a_multi_hex_force_is_offered_whole_arrays(tmp_path: Path) -> None:
    g = game(tmp_path, "example4")
    g.perform("end_movement", {})
    g.perform("end_combat", {})  # the Russians move: R2 occupies W2421 and W2522
    r2 = next(t for t in g.todo(strict=True) if t.request.get("force") == "R2")
    assert all(len(v.split(",")) == 2 for v in r2.open["to"])
    g.perform("move", {"force": "R2", "to": r2.open["to"][0]})
    assert len(g.state.pieces["R2"].hexes) == 2


def test_the_owed_fixing_comes_first_and_runs_as_offered(tmp_path: Path) -> None:
    g = game(tmp_path)
    g.perform("move", {"force": "F1", "to": "W2020"})
    todo = g.todo(strict=True)
    assert todo[0].owed and todo[0].command() == "fix moving=F1 contact=R1"
    assert not todo[0].refused
    assert all(t.owed for t in todo)  # nothing else until the fixing is done (Herman (1), (5))


def test_random_play_from_todo_moves_and_fixes() -> None:
    c = run("napoleon_at_bay", 8, 60)  # (about 150 moves and 25 fixings; issue 27: 15 games before)
    assert c.failures == 0, c.problems[:5]
    assert c.procedures.get("move", 0) > 50 and c.procedures.get("fix", 0) > 5


def test_a_moved_force_is_not_offered_again() -> None:
    st = make([force("F1", "Fr", "A0101", infantry=1), force("R1", "Ru", "A0808", infantry=1)])
    st = move(st, "F1", "A0202")
    assert all(t.request.get("force") != "F1" for t in RULESET.todo(st))
