"""2 by 2 (seed 003): session 18's leftovers and what an evening's play found: the winner's
name in the game-over message, the order of a charged unit's turn to face and its fire, and an
advance offered up to a friend's base ahead. Driven through the public ``Game`` API
(``tests/two_by_two/battle.py``); blue stands south facing north, red north facing south;
[1] = 19.05 mm; a unit is one 25 x 12 mm base."""

from __future__ import annotations

import random
from typing import Any

from tests.sizes import examples
from tests.two_by_two.battle import Battle
from vedette.geometry import tabletop as tt
from vedette.geometry.tabletop import Body
from vedette.rules.two_by_two import todo

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


def _bridge_at(y0: float) -> list[dict[str, Any]]:
    """A bridge 20 mm deep across x 285..315, its near edge at ``y0``."""
    return [
        {
            "kind": "bridge",
            "name": "bridge",
            "area": [[285, y0], [315, y0], [315, y0 + 20], [285, y0 + 20]],
        }
    ]


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
            {"id": "R", "side": "red", "type": "infantry"},
        ],
        options={"play": "stated"},
    )
    out = s.do("move", unit="B", distance=2, streams=1, town=1)
    assert out.message == (
        "B moves [2.00] (cost [4.00] of [4.00]; +[1.00] [1.00] in town at 1/2 rate;"
        " +[1] crossing 1 stream)"
    )


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


def test_an_advance_is_offered_up_to_a_friends_base_ahead_and_a_retire_behind() -> None:
    # Movement Modifiers (reading 50: a move may pass through a friend's base, not end on it).
    # B (infantry [4]) has a friend F [1.5] ahead and a friend G [2.25] behind: todo offered
    # [1], [2], [3], [4] ahead ([2] refused: it ends on F) and [1], [4] back, never the
    # distance a player moving up behind a friend stops at. When F moves on, the figure follows
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 200},
            {"id": "F", "side": "blue", "type": "infantry", "x": 300, "y": 212 + 1.5 * N},
            {"id": "G", "side": "blue", "type": "infantry", "x": 300, "y": 188 - 2.25 * N},
            {"id": "R", "side": "red", "type": "infantry", "x": 100, "y": 550},
        ],
    )
    adv = _lines(b, "advance", unit="B")[0]
    assert "1.5" in adv.open["distance"] and "2" not in adv.open["distance"]
    back = _lines(b, "retire", unit="B")[0]
    assert "2.25" in back.open["distance"]
    b.do("advance", unit="F", distance=1)  # F moves on: [2.5] ahead now
    adv = _lines(b, "advance", unit="B")[0]
    assert "2.5" in adv.open["distance"] and "1.5" not in adv.open["distance"]
    out = b.do("advance", unit="B", distance="2.5")
    assert "[1.50] of its move left" in out.message
    state = b.state
    gap = state.unit("F").body.centre.y - state.unit("B").body.centre.y - 12
    assert abs(gap) < 0.2  # base to base, not on it
    assert b.replayed() == b.state


def test_the_way_up_to_a_friend_is_where_a_straight_slide_meets_it() -> None:
    # todo's arithmetic for the way up to a friend's base (todo._gaps) against the geometry's
    # own slide (tt.contact_distance), ahead and back, on random placements and on bases in
    # line, touching, one behind the other, turned
    rng = random.Random(18)
    sizes = [(25.0, 12.0), (50.0, 12.0), (40.0, 40.0), (12.0, 25.0)]
    pairs = []
    for _ in range(examples(4000)):
        (w, d), (w2, d2) = rng.choice(sizes), rng.choice(sizes)
        facing = rng.choice([0.0, 90.0, 45.0, rng.uniform(0, 360)])
        a = Body.at(rng.uniform(100, 300), rng.uniform(100, 300), facing, w, d)
        other = rng.choice([facing, facing + 180.0, facing + 90.0, rng.uniform(0, 360)])
        x, y = a.centre.x + rng.uniform(-90, 90), a.centre.y + rng.uniform(-90, 90)
        b = Body.at(x, y, other, w2, d2)
        pairs.append((a, b))
    a = Body.at(300, 200, 0.0, 25.0, 12.0)
    pairs += [
        (a, Body.at(325, 200, 0.0, 25.0, 12.0)),  # in line, touching its side
        (a, Body.at(300, 240, 0.0, 25.0, 12.0)),  # ahead
        (a, Body.at(300, 212, 0.0, 25.0, 12.0)),  # touching its front
        (a, Body.at(320, 150, 90.0, 25.0, 12.0)),  # behind, turned, in part across
    ]
    met = 0
    for a, b in pairs:
        ahead, back = todo._gaps(a, b)
        for got, heading in ((ahead, a.facing), (back, a.facing + 180.0)):
            want = tt.contact_distance(a, heading, b)
            if got is None:
                assert want is None or want < 1e-6, (a, b, heading, want)
            else:
                met += 1
                assert want is not None and abs(got - want) < 1e-4, (a, b, heading, got, want)
    assert met > len(pairs) // 10
