"""Every roll explains itself (session 22, E1): the dice a rule changes show the change on the
roll, with its reason and rule, and the roll's figure is the one the rules go on with."""

from __future__ import annotations

import json
from pathlib import Path

from tests.solo_napoleonic.test_solonap_text_3 import SIDES, gen, ready, skirmishers, unit
from vedette.engine import Game, Store
from vedette.engine.referee import resign


def test_random_movement_roll_lists_the_brigadiers_troop_handling_step(tmp_path: Path) -> None:
    """Kuryakin, Random Movement: a Below Average brigadier's unit takes the die one step
    further from 0. The roll listed the bare die (dK8=-3) and the step only in the message;
    it now lists the step as a modifier with its reason and rule, and its final figure is the
    -4cm the move is made with (the JSON record the same)."""
    gens = [gen("FB", th="below_average", x=0.0, y=0.0), gen("AB", "Allies", x=0.0, y=900.0)]
    g = ready(tmp_path, [unit("F1", x=500.0, y=100.0), unit("A1", "Allies", x=500.0, y=800.0)],
              gens)  # fmt: skip
    out = g.perform("move", {"unit": "F1", "distance": 100}, [6, -3, 3])
    rr = next(r for r in out.rolls if "random movement" in r.label)
    assert rr.natural == -3 and rr.final == -4
    assert [(m.value, m.rule) for m in rr.modifiers] == [(-1, "Kuryakin, Random Movement")]
    assert "below average brigadier's TH" in rr.modifiers[0].reason
    assert rr.line() == (
        "F1 random movement (cm): 1dK8=-3-1 (below average brigadier's TH: one step from 0)=-4"
    )
    assert out.details["adjust_cm"] == -4 and out.details["moved_mm"] == 60
    logged = next(r for r in g.records[-1].payload["rolls"] if "random movement" in r["label"])
    assert logged["final"] == -4 and logged["modifiers"][0]["value"] == -1
    assert logged["line"] == rr.line()


def test_a_volley_die_below_0_says_it_counts_0(tmp_path: Path) -> None:
    """Reading K24: a volley die is modified, never below 0. A 1 at skirmishers (-2) gave the
    line 'F1 volley 1: 1d6=1-2 (target skirmishers)=-1' and the 0 it counts only in the hits;
    the roll now says it (its consequence, in the line and the JSON). A saved game of release
    0.2, whose roll has no consequence, still imports (``Ruleset.earlier_roll``)."""
    g = ready(tmp_path, [unit("F1", x=500.0, y=100.0), skirmishers("A1", x=500.0, y=250.0)])
    out = g.perform("fire", {"unit": "F1", "target": "A1"}, [1])
    (volley,) = out.rolls
    assert volley.final == -1 and volley.consequence == "counts 0 (never below 0)"
    assert volley.line() == (
        "F1 volley 1: 1d6=1-2 (target skirmishers)=-1 → counts 0 (never below 0)"
    )
    assert g.records[-1].payload["rolls"][0]["consequence"] == volley.consequence
    # release 0.2 logged the roll without it: that saved game re-referees equal on import
    lines = [json.loads(x) for x in g.export_jsonl().splitlines()]
    rolled = lines[-1]["payload"]["rolls"][0]
    rolled["consequence"], rolled["line"] = None, "F1 volley 1: 1d6=1-2 (target skirmishers)=-1"
    old = "".join(json.dumps(x) + "\n" for x in lines)
    again = Game.import_jsonl(Store(tmp_path / "i.db"), resign(old), "again")
    assert again.state == g.state


def test_a_formation_change_die_below_0_says_it_counts_0() -> None:
    """Kuryakin, Formation Changing: d4 quarters of a move, modified. An A class unit (-2) of an
    Above Average brigadier (-1), in command, rolling 1 makes -2: the change takes no quarter,
    which the message said ('0 quarter(s)') and now the roll too."""
    units = [unit("F1", grade="A", x=500.0, y=100.0), unit("A1", "Allies", x=500.0, y=800.0)]
    gens = [gen("FB", th="above_average", x=500.0, y=50.0), gen("AB", "Allies", x=0.0, y=900.0)]
    scen = {"title": "t", "sides": SIDES, "units": units, "generals": gens}
    g = Game.create(Store(":memory:"), "g", "solonap", scen, seed=7)
    g.perform("control", {}, [1, 1])
    g.perform("deal", {"cards": {"FB": 1, "A1": 2}, "chance": {}})
    g.perform("next", {})
    out = g.perform("formation", {"unit": "F1", "to": "column"}, [1])
    (roll,) = out.rolls
    assert roll.final == -2 and roll.consequence == "counts 0 (never below 0)"
    assert roll.line() == (
        "F1 formation change (quarters of a move): 1d4=1-2 (A class troops)"
        "-1 (brigadier's TH Above Average)=-2 → counts 0 (never below 0)"
    )
    assert "0 quarter(s) of a move" in out.message
