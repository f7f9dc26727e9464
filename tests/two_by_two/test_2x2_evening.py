"""2 by 2 (seed 003): session 18's leftovers and what an evening's play found: the winner's
name in the game-over message, what a move's message says of its cost, and the order of a charged
unit's turn to face and its fire. Driven through the public ``Game`` API
(``tests/two_by_two/battle.py``); blue stands south facing north, red north facing south;
[1] = 19.05 mm; a unit is one 25 x 12 mm base."""

from __future__ import annotations

from typing import Any

import pytest

from tests.two_by_two.battle import Battle
from tests.two_by_two.test_2x2_leftovers import _bridge_at
from vedette.errors import BadRequest, RuleViolation

N = 19.05  # mm per [1]


def _lines(b: Battle, proc: str, **req: Any) -> list[Any]:
    return [
        t
        for t in b.todo()
        if t.procedure == proc and all(t.request.get(k) == v for k, v in req.items())
    ]


def test_the_winner_is_named_right_whatever_the_sides_are_called() -> None:
    # Game Setup, victory (reading 27): the sample's sides are "French" and "Austrians"; the
    # message said "game over: Austrians wins (...)", a verb that fits a singular name only
    b = Battle.quick(
        [
            {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 112},
            {"id": "B", "side": "blue", "type": "guard", "x": 300, "y": 100},
            {"id": "B2", "side": "blue", "type": "infantry", "x": 500, "y": 300},
        ],
        p1="red",
        victory={"threshold_ap": 3},
        names=("French", "Austrians"),
    )
    b.until("melee", "red")
    b.do("melee", dice=[6, 1], attacker="R", defender="B", contact=True)
    b.do("follow_up", unit="R", decline=True)
    while b.state.stage != "over":
        out = b.do("next")
    assert out.message == "game over: Austrians won (3-0 AP destroyed)"


def test_a_moves_message_says_what_made_its_cost_and_allowance() -> None:
    # Movement Modifiers: "Bridge - All units move at 1/2 rate", "Stream - Costs an extra [1]
    # to cross", "Towns - All move at 1/2 rate". An advance over a bridge said "cost [2.00] of
    # [2.00]", and a stated move across a stream "cost [3.00] of [4.00]", without a word of
    # why: the player could not tell the halved allowance or the stream's [1] from a slip
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 200},
            {"id": "R", "side": "red", "type": "infantry", "x": 100, "y": 550},
        ],
        _bridge_at(200 + N),
    )
    out = b.do("advance", unit="B", distance=2)
    assert "(cost [2.00] of [2.00]; x0.5: crosses a bridge" in out.message
    assert out.message.endswith("[0.00] of its move left")
    s = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry"},
            {"id": "B2", "side": "blue", "type": "infantry"},
            {"id": "R", "side": "red", "type": "infantry"},
        ],
        options={"play": "stated"},
    )
    out = s.do("move", unit="B", distance=2, streams=1, town=1)
    assert out.message == (
        "B moves [2.00] (cost [4.00] of [4.00]; +[1.00] [1.00] in town at 1/2 rate;"
        " +[1] crossing 1 stream)"
    )
    # and a move refused as too long says why it costs what it does ("needs [5.00]" alone)
    with pytest.raises(
        RuleViolation,
        match=r"needs \[5\.00\] but may move only \[4\.00\]: "
        r"\+\[1\] crossing 1 stream",
    ):
        s.do("move", unit="B2", distance=4, streams=1)


def _charged_in_flank(play: str) -> Battle:
    """Red's R (infantry) charges blue's B in its right flank, in red's move phase."""
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 200},
            {"id": "R", "side": "red", "type": "infantry", "x": 390, "y": 200, "facing": 270},
        ],
        options={"play": play},
    )
    b.until("move", "red")
    if play == "stated":
        b.do("charge", unit="R", into="B", distance=3)
    else:
        b.do("charge", unit="R", into="B")
    return b


def test_a_charged_unit_fires_and_turns_to_face_in_either_order() -> None:
    # Moving to contact: "Infantry may turn to face when charged if not engaged and may fire on
    # charging unit" grants both without ordering them (reading 51): the fire may come first
    # (the charger is fired on, turned to or not; turning is free, open to the pinned firer),
    # the turn first, or either alone. Both ways of play, both orders, all offered and taken
    for play in ("tracked", "stated"):
        shot = {"range": "0.5"} if play == "stated" else {}
        b = _charged_in_flank(play)
        assert _lines(b, "shoot", firer="B") and _lines(b, "face", unit="B")
        b.do("shoot", dice=[4], firer="B", target="R", **shot)
        assert b.state.unit("B").pinned
        assert _lines(b, "face", unit="B", toward="R")  # the turn still offered, and taken
        b.do("face", unit="B", toward="R")
        b = _charged_in_flank(play)
        b.do("face", unit="B", toward="R")
        assert _lines(b, "shoot", firer="B", target="R")
        b.do("shoot", dice=[4], firer="B", target="R", **shot)
        assert b.replayed() == b.state


def test_a_stated_counter_charge_asks_whether_the_enemy_came_within_half_a_move() -> None:
    # Moving to contact: "Cavalry may counter-charge an enemy unit which moves within a 1/2 move
    # or less". In a stated game vedette has no positions: a counter-charge without within=
    # was refused as "R is not within [4] (1/2 move) of B", a measurement it never made
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "light_cavalry"},
            {"id": "R", "side": "red", "type": "infantry"},
        ],
        options={"play": "stated"},
    )
    b.until("move", "red")
    b.do("move", unit="R", distance=2)
    b.until("shoot", "blue")
    with pytest.raises(BadRequest, match=r"state whether R came within \[4\] \(1/2 move\) of B"):
        b.do("countercharge", unit="B", target="R", distance=2)
    with pytest.raises(RuleViolation, match="not within"):
        b.do("countercharge", unit="B", target="R", distance=2, within=False)
    out = b.do("countercharge", unit="B", target="R", distance=2, within=True)
    assert "into contact with R" in out.message


def test_a_stated_charge_pays_what_it_crosses_and_cavalry_through_a_town_may_not_charge() -> None:
    # Movement Modifiers ("Stream - Costs an extra [1] to cross"; towns at 1/2 rate) and Moving
    # to contact ("Cavalry may not move to contact on same turn it moves through a town"). A
    # stated charge took its distance alone: a charge of [4] across a stream cost [4], and
    # cavalry charging through a town could not say so, so neither rule bound it
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry"},
            {"id": "C", "side": "blue", "type": "light_cavalry"},
            {"id": "R", "side": "red", "type": "infantry"},
        ],
        options={"play": "stated"},
    )
    with pytest.raises(RuleViolation, match=r"needs \[5\.00\] but may move only \[4\.00\]"):
        b.do("charge", unit="B", into="R", distance=4, streams=1)
    out = b.do("charge", unit="B", into="R", distance=3, streams=1)
    assert out.message.startswith("B charges R: [3.00] (cost [4.00] of [4.00]; +[1] crossing")
    with pytest.raises(RuleViolation, match="through a town"):
        b.do("charge", unit="C", into="R", distance=4, town=1)
    # a tracked game measures what a charge crosses: stated terrain is refused
    t = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 200},
            {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 260},
        ]
    )
    with pytest.raises(RuleViolation, match="give no streams"):
        t.do("charge", unit="B", into="R", streams=1)
    assert "B charges R" in t.do("charge", unit="B", into="R").message


def test_a_stated_counter_charge_over_a_bridge_is_at_half_rate() -> None:
    # Movement Modifiers: "Bridge - All units move at 1/2 rate unless unit spends entire move
    # on a road (in Road Column)". A stated counter-charge could state a stream, a town or
    # rough ground crossed, not a bridge: light cavalry ([8], [4] at 1/2 rate) counter-charged
    # [5] over one at full rate
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "light_cavalry"},
            {"id": "R", "side": "red", "type": "infantry"},
        ],
        options={"play": "stated"},
    )
    b.until("move", "red")
    b.do("move", unit="R", distance=2)
    b.until("shoot", "blue")
    with pytest.raises(RuleViolation, match=r"needs \[5\.00\] but may move only \[4\.00\]"):
        b.do("countercharge", unit="B", target="R", distance=5, within=True, bridge=True)
    out = b.do("countercharge", unit="B", target="R", distance=4, within=True, bridge=True)
    assert "(cost [4.00] of [4.00]; x0.5: crosses a bridge" in out.message


def test_a_stated_charge_states_a_town_passed_and_a_bridges_length_as_a_move_does() -> None:
    # Movement Modifiers ("Towns - ... do not receive the road bonus when moving through a
    # town"; "Bridge - All units move at 1/2 rate", read as the distance on the bridge under
    # bridge_mode = "distance") and Moving to contact ("Cavalry may not move to contact on same
    # turn it moves through a town"). A stated move could say through_town= and
    # bridge_length=; a stated charge could not (refused as unknown fields), so a charge over a
    # bridge under that house rule went at full rate
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry"},
            {"id": "C", "side": "blue", "type": "light_cavalry"},
            {"id": "R", "side": "red", "type": "infantry"},
        ],
        options={"play": "stated", "house_rules": {"movement": {"bridge_mode": "distance"}}},
    )
    with pytest.raises(RuleViolation, match="through a town"):
        b.do("charge", unit="C", into="R", distance=4, through_town=True)
    with pytest.raises(RuleViolation, match=r"needs \[5\.00\] but may move only \[4\.00\]"):
        b.do("charge", unit="B", into="R", distance=4, bridge=True, bridge_length=1)
    out = b.do("charge", unit="B", into="R", distance=3, bridge=True, bridge_length=1)
    assert out.message.startswith("B charges R: [3.00] (cost [4.00] of [4.00]")
    # a tracked game measures them: stated, they are refused
    t = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 200},
            {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 260},
        ]
    )
    with pytest.raises(RuleViolation, match="give no through_town"):
        t.do("charge", unit="B", into="R", through_town=False)
