"""A follow-up made impossible before it is made lapses, logged (issue 22: an owed step is never
a dead end). Found by the 10,000-game stated run: 46e Ligne won a melee and owed its mandatory
follow-up, then lost a second melee and routed; routed and disrupted, it "may not move", so the
owed follow-up was refused for ever. (The run's game had two Austrian units charge 46e Ligne and
fight it in turn; chargers on one defender now fight one melee, the others as support, in stated
play too: readings 20 and 29, session 19. Here the winner's second melee is a counter-charge's,
as the same two melees in one phase can still come about when the first is stated without
the counter-charger's support.)"""

from __future__ import annotations

from tests.two_by_two.battle import Battle


def test_a_winner_routed_before_its_follow_up_loses_it() -> None:
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry"},
            {"id": "C", "side": "blue", "type": "heavy_cavalry"},
            {"id": "R", "side": "red", "type": "guard"},
        ],
        options={"play": "stated"},
    )
    b.until("move", "red")
    b.do("formation", unit="R", formation="attack_column")
    b.do("charge", unit="R", into="B", distance=2)
    b.until("shoot", "blue")
    b.do("countercharge", unit="C", target="R", distance=2, within=True)
    b.until("melee", "red")
    # R: 6 +1 Guards +1 column of attack; B: 1, stated alone (C, in contact with R, would
    # otherwise be its support and fight R in this melee, not again: reading 29)
    first = b.do("melee", dice=[6, 1], attacker="R", defender="B", b_support=0)
    assert "R: mandatory follow-up" in first.message
    owed = [t.command() for t in b.todo() if t.owed]
    assert owed == ["melee attacker=C defender=R", "follow_up unit=R"]
    # C: 6 +2 Heavy Cavalry -2 vs ordered infantry; R: 1 +1 +1: R loses by 3, routs (4: flees)
    second = b.do("melee", dice=[6, 1, 4], attacker="C", defender="R")
    assert "R routs" in second.message
    assert "R's follow-up lapses: it routed" in second.message
    todo = b.game.todo(strict=True)
    assert not [t for t in todo if t.owed], [t.command() for t in todo if t.owed]
    assert [t.request["unit"] for t in todo if t.procedure == "follow_up"] == ["C", "C"]
