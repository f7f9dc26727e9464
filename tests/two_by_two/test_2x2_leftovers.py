"""2 by 2 (seed 003): what ``todo`` offers in a move phase is what the referee accepts, turn by
turn, at a bridge's near end, at a path's corner, and what the end of a phase calls undone.
Driven through the public ``Game`` API (``tests/two_by_two/battle.py``); blue stands south
facing north, red north facing south; [1] = 19.05 mm; a unit is one 25 x 12 mm base."""

from __future__ import annotations

from typing import Any

import pytest

from tests.two_by_two.battle import Battle
from vedette.errors import RuleViolation
from vedette.geometry import tabletop as tt

N = 19.05  # mm per [1]


def _lines(b: Battle, proc: str, **req: Any) -> list[Any]:
    return [
        t
        for t in b.todo()
        if t.procedure == proc and all(t.request.get(k) == v for k, v in req.items())
    ]


def _pair() -> Battle:
    return Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 200},
            {"id": "R", "side": "red", "type": "infantry", "x": 100, "y": 500},
        ]
    )


def test_a_turn_is_offered_again_after_a_turn_and_a_retire() -> None:
    # Movement Modifiers: turning is free (reading 33), the referee takes a turn at any time of
    # the unit's move. After a turn and a retire, todo offered no turn (it waited for a step
    # straight ahead) though the referee took one; only straight after a turn is none offered
    # (one turn reaches any facing)
    b = _pair()
    b.do("turn", unit="B", direction="right", angle=90)
    assert not _lines(b, "turn", unit="B")
    b.do("retire", unit="B", distance=1)
    left = _lines(b, "turn", unit="B", direction="left")
    assert left and left[0].open == {"angle": (45, 90, 135)}  # (one turn reaches any of 8)
    assert _lines(b, "turn", unit="B", direction="about")
    b.do("turn", unit="B", direction="left", angle=90)  # as offered, accepted
    assert b.state.unit("B").body.facing == 0
    assert not _lines(b, "turn", unit="B")
    # a wheel spends as a retire does: a turn is offered after it
    b.do("wheel", unit="B", direction="left", angle=45)
    assert _lines(b, "turn", unit="B", direction="about")
    assert b.replayed() == b.state


def _bridge_at(y0: float) -> list[dict[str, Any]]:
    return [
        {
            "kind": "bridge",
            "name": "bridge",
            "area": [[285, y0], [315, y0], [315, y0 + 20], [285, y0 + 20]],
        }
    ]


def test_an_advance_is_offered_to_stop_just_short_of_a_bridge_beyond_its_halved_figure() -> None:
    # Movement Modifiers: "Bridge - All units move at 1/2 rate unless unit spends entire move on
    # a road" (reading 7: the whole move's allowance is halved). B (infantry [4]) has a bridge
    # [3.5] ahead: over it, it may go [2]; short of it, its full [4] stands. todo offered [2]
    # (the halved figure) and [3], never the near end a player moving up to a bridge stops at
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 200},
            {"id": "R", "side": "red", "type": "infantry", "x": 100, "y": 550},
        ],
        _bridge_at(200 + 3.5 * N),
    )
    adv = _lines(b, "advance", unit="B")[0]
    assert "3.49" in adv.open["distance"] and "2" in adv.open["distance"]
    assert "4" not in adv.open["distance"]  # over the bridge: at 1/2 rate, refused
    out = b.do("advance", unit="B", distance="3.49")  # as offered, accepted at full rate
    assert "cost [3.49] of [4.00]" in out.message and not b.state.unit("B").bridged
    # a bridge behind: the retire is offered its near end too
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 200},
            {"id": "R", "side": "red", "type": "infantry", "x": 100, "y": 550},
        ],
        _bridge_at(200 - 2.5 * N - 20),
    )
    back = _lines(b, "retire", unit="B")[0]
    assert "2.49" in back.open["distance"]
    out = b.do("retire", unit="B", distance="2.49")
    assert "cost [2.49] of [4.00]" in out.message
    assert b.replayed() == b.state


def test_a_paths_corner_may_not_turn_the_base_onto_another() -> None:
    # Movement Modifiers (reading 33): a turn may not end on another base; along a path the base
    # faces each leg (reading 50), so it turns at each corner. B's path runs [2] north, then
    # east: at the corner, faced east, its base lies on its friend F's. The same steps made one
    # by one were refused at the turn; the path was taken
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 200},
            {"id": "F", "side": "blue", "type": "infantry", "x": 300, "y": 252},
            {"id": "R", "side": "red", "type": "infantry", "x": 100, "y": 550},
        ]
    )
    corner, east = [300, 200 + 2 * N], [330, 200 + 2 * N]
    before = b.state
    with pytest.raises(RuleViolation) as e:
        b.do("move", unit="B", path=[corner, east])
    assert b.state is before
    assert str(e.value) == (
        "B would turn on top of F at a corner of its path (2 by 2, Movement Modifiers)"
    )
    b.do("advance", unit="B", distance=2)  # the same steps one by one: refused at the turn
    with pytest.raises(RuleViolation, match="would end on top of F"):
        b.do("turn", unit="B", direction="right", angle=90)
    # a corner clear of every base is taken
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 200},
            {"id": "F", "side": "blue", "type": "infantry", "x": 300, "y": 262},
            {"id": "R", "side": "red", "type": "infantry", "x": 100, "y": 550},
        ]
    )
    b.do("move", unit="B", path=[corner, east])
    assert b.state.unit("B").body.facing == 90


def test_next_names_as_left_undone_the_moves_not_begun_and_the_rolls_not_made() -> None:
    # Sequence of play: "Player 1 Moves Units/Dices for reinforcements". Ending the phase named
    # every kind of line todo offered for every unit: the advance, retire, wheel and turn of
    # units that had moved, every formation change, each voluntary rout. A player calls undone
    # a move not begun and a roll not made: those alone are named
    b = Battle.sample()
    b.do("advance", unit="A1", distance=1)  # moved, [3] left: begun
    b.do("turn", unit="A2", direction="left", angle=45)  # turned: begun
    b.do("formation", unit="A3", formation="road_column")  # not moved yet
    msg = b.do("next").message
    assert msg.endswith(
        "(left undone in the phase that ended: move A3, A4, A5, A6; reinforce A-R1)"
    )
    assert "left undone" not in b.do("next").message  # nobody may rally


def test_the_winner_is_named_with_its_own_count_first() -> None:
    # Game Setup, victory (reading 27: the side that destroyed more AP wins): red destroys blue's
    # guard (3 AP) and wins; the message gave the counts in the scenario's order of sides,
    # "Red wins (0-3 AP destroyed)", as though red had destroyed none
    b = Battle.quick(
        [
            {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 112},
            {"id": "B", "side": "blue", "type": "guard", "x": 300, "y": 100},
            {"id": "B2", "side": "blue", "type": "infantry", "x": 500, "y": 300},
        ],
        p1="red",
        victory={"threshold_ap": 3},
    )
    b.until("melee", "red")
    b.do("melee", dice=[6, 1], attacker="R", defender="B", contact=True)
    assert b.state.score("red") == 3
    b.do("follow_up", unit="R", decline=True)
    while b.state.stage != "over":
        out = b.do("next")
    assert b.state.winner == "red"
    assert out.message == "game over: Red won (3-0 AP destroyed)"


def test_a_turn_to_face_that_would_set_the_charger_on_another_base_is_refused() -> None:
    # Moving to contact: "Infantry may turn to face when charged"; the referee sets the charger
    # front to front with it. BC strikes R's flank off centre: turned toward BC, R's front spot
    # lies on G. Before, the referee set BC on top of G; now the turn is refused and not
    # offered (reading 52: no base ends on another), the fire on the charger still is
    units = [
        {"id": "BC", "side": "blue", "type": "heavy_cavalry", "x": 200, "y": 315, "facing": 90},
        {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 300, "facing": 180},
        {"id": "G", "side": "blue", "type": "infantry", "x": 305, "y": 320},
    ]
    b = Battle.quick(units)
    b.do("move", unit="BC", path=[[200, 315], [300 - 6 - 12.5, 315]], facing=90)
    assert [m.defender for m in b.state.melees] == ["R"]
    assert not _lines(b, "face", unit="R")
    assert _lines(b, "shoot", firer="R", target="BC")
    with pytest.raises(RuleViolation, match="BC would end on G"):
        b.do("face", unit="R", toward="BC")
    assert b.state.unit("BC").body.centre.x == pytest.approx(300 - 6 - 12.5)
    # with G away, the same turn is offered and taken, front to front
    b2 = Battle.quick([u for u in units if u["id"] != "G"])
    b2.do("move", unit="BC", path=[[200, 315], [300 - 6 - 12.5, 315]], facing=90)
    assert _lines(b2, "face", unit="R")
    b2.do("face", unit="R", toward="BC")
    r, c = b2.state.unit("R").body, b2.state.unit("BC").body
    assert tt.relative_bearing(r, c.centre) == pytest.approx(0, abs=0.01)
    assert tt.relative_bearing(c, r.centre) == pytest.approx(0, abs=0.01)


def test_a_unit_that_charged_may_not_rout_voluntarily_in_the_same_move_phase() -> None:
    # Unit Summary: "*** may voluntarily rout" (reading 18: in its own move phase or when
    # charged); Moving to contact: a move to contact ends the unit's move (reading 37). Before,
    # light cavalry was offered a voluntary rout right after its own charge, and took it; now
    # the charge ends its move: neither offered nor taken. A *** friend that did not charge
    # still may
    b = Battle.quick(
        [
            {"id": "LC", "side": "blue", "type": "light_cavalry", "x": 300, "y": 200},
            {"id": "L2", "side": "blue", "type": "light_cavalry", "x": 100, "y": 200},
            {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 200 + 12 + 3 * N},
        ]
    )
    assert _lines(b, "rout", unit="LC")
    b.do("move", unit="LC", path=[[300, 200], [300, 200 + 3 * N]])
    assert [(m.attacker, m.defender) for m in b.state.melees] == [("LC", "R")]
    assert not _lines(b, "rout", unit="LC")
    assert _lines(b, "rout", unit="L2")
    with pytest.raises(RuleViolation, match="charged this phase"):
        b.do("rout", dice=[4], unit="LC")
    assert not b.state.unit("LC").disrupted


def test_the_bridges_halved_figures_are_offered_only_the_way_that_meets_it() -> None:
    # Movement Modifiers, "Bridge - All units move at 1/2 rate" (reading 7): a step over a
    # bridge may go [2] of infantry's [4]. B has a bridge [3.5] ahead and none behind: todo
    # offered its retire the halved [2] too, a figure only a way over the bridge needs. Now the
    # retire is offered the full figures only, the advance the halved one; and the other way
    # round with the bridge behind
    units = [
        {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 200},
        {"id": "R", "side": "red", "type": "infantry", "x": 100, "y": 550},
    ]
    b = Battle.quick(units, _bridge_at(200 + 3.5 * N))
    assert "2" in _lines(b, "advance", unit="B")[0].open["distance"]
    assert _lines(b, "retire", unit="B")[0].open["distance"] == ("1", "4")
    b = Battle.quick(units, _bridge_at(200 - 2.5 * N - 20))
    b.do("advance", unit="B", distance="0.5")  # [3.5] left, [1.5] of it over a bridge
    assert "1.5" in _lines(b, "retire", unit="B")[0].open["distance"]
    assert "1.5" not in _lines(b, "advance", unit="B")[0].open["distance"]
    b.do("retire", unit="B", distance="1.5")  # as offered: accepted
    assert b.state.unit("B").spent == pytest.approx(2.0)
