"""Kuryakin's text as acceptance cases (seed 004), session 21, helper K16: what helper K15
noticed and left (a rout and a formation change under way, a timid CO's retirement as a move,
the house rule's army break shown in a played game, ``end_turn force=true`` over guns that
cannot run). Played through the public API (``Game`` and the command line) with forced dice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.solo_napoleonic.test_solonap_text_3 import SIDES, TIMID, owed, ready, unit
from vedette.cli.entry import main as entry_main
from vedette.cli.main import main
from vedette.engine import Game, Store


# == Formation Changing / Morale: a rout and a change under way (reading K94) ===================
def _routed(tmp_path: Path, house: dict[str, Any] | None = None) -> tuple[Game, str]:
    """F1 (C, out of command) begins a change to square on its card: 6 quarters of a move, 2
    carried into the next turn; it then fails a morale test and routs (the words returned),
    and makes its run."""
    g = ready(tmp_path, [unit("F1", x=1000.0, y=0.0), unit("A1", "Allies", x=1000.0, y=600.0)],
              house=house)  # fmt: skip
    g.perform("formation", {"unit": "F1", "to": "square"}, [4])
    assert g.state.unit("F1").formation_target == "square"
    said = g.perform("morale", {"unit": "F1"}, [99, 1]).message
    assert owed(g) == [("move", {"unit": "F1", "mode": "rout"})]
    g.perform("move", {"unit": "F1", "mode": "rout"}, [0, 3])
    return g, said


def test_a_unit_that_routs_abandons_its_formation_change(tmp_path: Path) -> None:
    """Disorder: "Formation Incomplete at end of turn 1D"; a routing unit only runs or rallies.
    A unit that routed in the middle of a change kept it under way, so every turn's end gave it
    the chit ("F1 +1D (formation incomplete)") until it rallied. Reading K94: the rout abandons
    the change (the unit stays in line), said in the result's words; no chit at the turn's end.
    ``[options] rout_keeps_change = true`` keeps the change and its chit each turn."""
    g, said = _routed(tmp_path / "a")
    f1 = g.state.unit("F1")
    assert (f1.formation, f1.formation_target, f1.formation_quarters) == ("line", None, 0)
    assert said.endswith("its change to square is abandoned: it stays in line (K94)")
    d = f1.disorder
    g.perform("next", {})
    g.perform("next", {})
    out = g.perform("end_turn", {})
    assert "formation incomplete" not in out.message and g.state.unit("F1").disorder == d
    h, said = _routed(tmp_path / "b", {"options": {"rout_keeps_change": True}})
    assert said.endswith("its change to square stays under way (reading K94)")
    assert h.state.unit("F1").formation_target == "square"
    h.perform("next", {})
    h.perform("next", {})
    assert "F1 +1D (formation incomplete)" in h.perform("end_turn", {}).message


# == Charge Home Test: a timid CO's retirement is a move (reading K95) =========================
def _timid_charge(tmp_path: Path, musician: str) -> Game:
    """F1 (its brigadier timid; its musician ``musician``, the musicians rule on) charges A1
    60 mm ahead; A1 holds and holds its fire; F1 moves up 30 mm (within half its 150 mm)."""
    units = [unit("F1", x=500.0, y=0.0, musician=musician), unit("A1", "Allies", x=500.0, y=60.0)]
    scen = {"title": "text15", "sides": SIDES, "units": units, "generals": TIMID}
    g = Game.create(Store(tmp_path / "g.db"), "g", "solonap", scen, seed=7,
                    options={"musicians": True})  # fmt: skip
    g.perform("control", {}, [1, 1])
    g.perform("deal", {"cards": {"F1": 1, "A1": 2}, "chance": {}})
    g.perform("next", {})
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    g.perform("next", {})
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [0])
    g.perform("fire", {"unit": "A1", "target": "F1", "hold": True})
    g.perform("close", {"unit": "F1"})
    assert g.state.unit("F1").moved_mm == 30.0
    return g


def test_a_timid_cos_retirement_counts_in_the_move_and_its_musician_chit(tmp_path: Path) -> None:
    """Charge Home Test: infantry who fail "retire 100mm" when their CO is Timid; Disorder:
    "Unit moving over 1/2 and Musician dead 1D" (a charge's moves count, reading K93). The
    100 mm added nothing to the unit's move (30 mm) and gave no chit; now it is a move the unit
    makes (reading K95): 130 mm, over half, so a dead musician costs 1D; a living one none
    (and the retreat's 1D either way, reading K97)."""
    g = _timid_charge(tmp_path / "a", "dead")
    out = g.perform("charge_home", {"unit": "F1"}, [99])
    f1 = g.state.unit("F1")
    assert out.message.endswith("; +1D (over half a move with the musician dead)")
    assert (f1.moved_mm, f1.disorder, f1.y) == (130.0, 2, -70.0)
    h = _timid_charge(tmp_path / "b", "alive")
    h.perform("charge_home", {"unit": "F1"}, [99])
    assert (h.state.unit("F1").moved_mm, h.state.unit("F1").disorder) == (130.0, 1)


# == Victory (none in the text): the house rule's army break shown, not played (reading K56) =====
def test_show_and_todo_say_how_each_army_stands_against_the_house_rules_break(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The text gives no victory conditions; ``[battle_end]`` (reading K56, a house rule) ends
    simulated games when half a side's units are routing or lost, and a played game was never
    told. Now ``show`` and ``todo`` (a line, and ``standing`` in its JSON) give each side's
    units routing or lost of its total and where it breaks, and say BROKEN past it; the game
    goes on (todo still offers the turn's steps)."""
    units = [unit("F1", x=1000.0, y=0.0), unit("F2", x=600.0, y=0.0),
             unit("A1", "Allies", x=1000.0, y=600.0, status="routing", must_rally=True),
             unit("A2", "Allies", x=600.0, y=600.0)]  # fmt: skip
    ready(tmp_path, units)
    db = str(tmp_path / "g.db")

    def cli(*args: str) -> str:
        capsys.readouterr()
        assert main(["--db", db, "solonap", *args, "--game", "g"]) == 0
        return capsys.readouterr().out

    line = (
        "army morale (house rule, reading K56; the game goes on): French 0 of 2 units routing or"
        " lost (breaks at 1); Allies 1 of 2 units routing or lost (breaks at 1): BROKEN"
    )
    assert line in cli("show").splitlines()
    assert cli("todo").splitlines()[0] == line
    capsys.readouterr()  # the command's entry point answers todo without click: the same
    assert entry_main(["--db", db, "solonap", "todo", "--game", "g"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == line
    data = json.loads(cli("todo", "--json"))
    assert data["standing"]["sides"] == {
        "French": {"lost": 0, "units": 2, "breaks_at": 1, "broken": False},
        "Allies": {"lost": 1, "units": 2, "breaks_at": 1, "broken": True},
    }
    assert data["standing"]["break_fraction"] == 0.5 and data["todo"]


# == Move Sequence: end_turn force=true over guns that cannot run (reading K60) ================
def test_a_forced_end_of_turn_is_not_refused_over_routing_guns_that_cannot_move(
    tmp_path: Path,
) -> None:
    """A routing unit's run is owed on its card (reading K60) only where the rules allow the
    move: unlimbered guns cannot move, so their card owes nothing. ``end_turn force=true`` was
    refused over their card ("A1's rout"); it now ends the turn. The field is in the request's
    help."""
    guns = unit("A1", "Allies", kind="foot_artillery", grade="B", figures=4,
                formation="unlimbered", width=40.0, depth=40.0, x=1000.0, y=600.0,
                status="routing", must_rally=True)  # fmt: skip
    g = ready(tmp_path, [unit("F1", x=1000.0, y=0.0), guns])
    v = g.is_legal("end_turn", {"force": True})
    assert v.ok, v.reason
    g.perform("end_turn", {"force": True})
    assert g.state.turn == 2 and g.state.phase == "control"
    spec = {f.name: f for f in g.ruleset.protocol_procedures()["end_turn"].spec.fields}
    assert "none of them owes a step" in spec["force"].help
