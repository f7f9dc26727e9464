"""A follow-up made impossible before it is made lapses, logged (issue 22: an owed step is never
a dead end). Found by the 10,000-game stated run: 46e Ligne won a melee and owed its mandatory
follow-up, then lost a second melee and routed; routed and disrupted, it "may not move", so the
owed follow-up was refused for ever. (The run's game also had A4 charge F5 and then rout
voluntarily in the same move phase; a charge now ends the unit's move, reading 37, so here A4
routs without charging: the rest of the game is the run's.)"""

from __future__ import annotations

from vedette import rules
from vedette.engine import Game, Store

#: the run's game (sample, stated play, seed 4348), as played from `todo`
ACTIONS = [
    ("formation", {"unit": "A4", "formation": "road_column"}),
    ("charge", {"unit": "A1", "into": "F2", "distance": "4"}),
    ("formation", {"unit": "A4", "formation": "line"}),
    ("charge", {"unit": "A5", "into": "F2", "distance": "5"}),
    ("formation", {"unit": "A3", "screen": True}),
    ("formation", {"unit": "A6", "formation": "attack_column"}),
    ("formation", {"unit": "A2", "screen": True}),
    ("move", {"unit": "A3", "distance": "2"}),
    ("rout", {"unit": "A4"}),
    ("next", {}),
    ("rally", {"unit": "A4"}),
    ("next", {}),
    ("shoot", {"firer": "F4", "target": "A1", "band": "canister"}),
    ("next", {}),
]


def test_a_winner_routed_before_its_follow_up_loses_it() -> None:
    rs = rules.get("two_by_two")
    stated = {"play": "stated"}
    g = Game.create(Store(":memory:"), "g", rs.name, rs.scenario("sample"), 4348, options=stated)
    for proc, req in ACTIONS:
        g.perform(proc, req)
    first = g.perform("melee", {"attacker": "A5", "defender": "F2"})
    assert "46e Ligne: mandatory follow-up" in first.message
    owed = [t.command() for t in g.todo() if t.owed]
    assert owed == ["melee attacker=A1 defender=F2", "follow_up unit=F2"]
    second = g.perform("melee", {"attacker": "A1", "defender": "F2"})
    assert "46e Ligne routs" in second.message
    assert "46e Ligne's follow-up lapses: it routed" in second.message
    todo = g.todo(strict=True)
    assert not [t for t in todo if t.owed], [t.command() for t in todo if t.owed]
    assert not any(t.procedure == "follow_up" for t in todo)
