"""The reading of a halted skirmisher charged by cavalry (docs/rules/solo_napoleonic.md, the
players' page's readings): "halts where it stands" forbids the unit's own move, start and
charge, but the skirmisher rule (skirmishers do not stand against cavalry: they evade) still
moves it. Found by the 10,000-game run from todo (attached, seed 285); since todo no longer
offers a formation change with no move left (it changed nothing), and since a unit in the way
bars a charge (reading K68), and since a unit tests to move off or halt and changes formation
once a card (readings K72, K71) and a halted unit's move or charge tests to move off (K74), and
since a retirement goes away from the enemy (K75) and a unit with no move to make does not test
to move off (session 18), and since an advance goes forward (K78), and since a move stops at
contact with an enemy (K89), the walk of seed 335 is one that reaches it. Its skirmisher halts
by the test the charge forces, taken before the evasion: the house rule ``[options]
evade_morale = "before"`` (reading K65 gives no test by default)."""

from __future__ import annotations

import random

from tests.todo_play import fill, solonap_forbidden
from vedette import rules
from vedette.engine import Game, Store


def test_a_halted_skirmisher_charged_by_cavalry_is_owed_its_evade_and_makes_it() -> None:
    rs = rules.get("solo_napoleonic")
    seed = 335
    rng = random.Random(seed)
    house = {"options": {"evade_morale": "before"}}
    g = Game.create(
        Store(":memory:"), "t", rs.name, rs.scenario("attached"), seed=seed, house_rules=house
    )
    seen = []
    for _ in range(40):
        todo = g.todo(strict=True)
        owed = [t for t in todo if t.owed]
        t = rng.choice(owed or todo)
        req = fill(t, rng)
        before = g.state
        if t.procedure == "evade":
            u = before.unit(req["unit"])
            if u.bound == "halt":
                assert t.owed  # the rule owes it: not a choice the halted unit makes
                seen.append(u.id)
        g.perform(t.procedure, req)
        after = g.state
        assert solonap_forbidden(before, after, t.procedure) == []
        if seen and t.procedure == "evade":
            a = after.unit(seen[-1])
            b = before.unit(seen[-1])
            assert (a.x, a.y) != (b.x, b.y) or not a.on_table  # it got away (or was ridden down)
    assert seen, "the game reaches a halted skirmisher's evade"
