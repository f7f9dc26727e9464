"""2 by 2 (seed 003): where a move may go on its way, and what ``todo`` offers of it: not
through another unit (reading 50), the real maximum of an advance over a bridge (reading 7),
no turn to face an enemy already faced (reading 49). Driven through the public ``Game`` API
(``tests/two_by_two/battle.py``); blue stands south facing north, red north facing south;
[1] = 19.05 mm; a unit is one 25 x 12 mm base."""

from __future__ import annotations

from typing import Any

import pytest

from tests.two_by_two.battle import Battle
from vedette.errors import RuleViolation
from vedette.rules.two_by_two import RULESET

N = 19.05  # mm per [1]
NOT_FRIENDS = {"house_rules": {"movement": {"pass_through_friends": False}}}


def _line(b: Battle, command: str) -> Any:
    return next((t for t in b.todo() if t.command() == command), None)


def _column(options: dict[str, Any] | None = None) -> Battle:
    """Blue B at (300, 100) with a blue friend F [1] ahead of it; blue G at (400, 100) with
    a red enemy R [1] ahead of it; a red E far off."""
    units = [
        {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100},
        {"id": "F", "side": "blue", "type": "infantry", "x": 300, "y": 100 + 12 + N},
        {"id": "G", "side": "blue", "type": "infantry", "x": 400, "y": 100},
        {"id": "R", "side": "red", "type": "infantry", "x": 400, "y": 100 + 12 + N},
        {"id": "E", "side": "red", "type": "infantry", "x": 100, "y": 500},
    ]
    return Battle.quick(units, options=options)


def test_a_move_may_not_pass_through_an_enemy() -> None:
    # The text (Movement Modifiers, Moving to contact) says nothing of moving through units;
    # a move "to contact" ends at the enemy base it reaches. Reading 50: a move may not pass
    # through an enemy's base (before: only where it ended was checked, so [3] ahead jumped
    # over the enemy [1] ahead of it); through a friend's by default.
    b = _column()
    with pytest.raises(RuleViolation, match="R stands in the way: G may not pass through it"):
        b.do("advance", unit="G", distance=3)
    with pytest.raises(RuleViolation, match="R stands in the way"):
        b.do("move", unit="G", path=[[400, 100 + 12 + 3 * N]])
    # the advance line offers no distance that would pass through R: up to the [1] before it
    adv = _line(b, "advance unit=G")
    assert adv is not None and adv.open["distance"] == ("1",)
    # around it, not through it: a path that steps aside first
    b.do("move", unit="G", path=[[428, 100], [428, 100 + 2 * N]])
    b.do("advance", unit="B", distance=3)  # through its friend F, ending beyond it
    assert b.state.unit("B").body.centre.y == pytest.approx(100 + 3 * N)
    assert b.replayed() == b.state


def test_not_through_friends_either_is_a_house_rule() -> None:
    b = _column(NOT_FRIENDS)
    with pytest.raises(RuleViolation, match="F stands in the way: B may not pass through it"):
        b.do("advance", unit="B", distance=3)
    with pytest.raises(RuleViolation, match="R stands in the way"):
        b.do("advance", unit="G", distance=3)
    b.do("advance", unit="B", distance=1)  # up to it


def test_an_advance_over_a_bridge_is_offered_its_halved_maximum() -> None:
    # Movement Modifiers: "Bridge - All units move at 1/2 rate unless unit spends entire move
    # on a road (in Road Column)" (reading 7): A1 (infantry [4], in line, on the road) has a
    # bridge [2] ahead: over it, its move is ([4] + [1] road) x 1/2 = [2.5]. todo offered
    # [5], [4], [3], [2], [1] ahead: those over the bridge refused, the real maximum [2.5]
    # never offered.
    b = Battle(RULESET.scenario("close"), seed=3)
    adv = _line(b, "advance unit=A1")
    assert adv is not None and "2.5" in adv.open["distance"]
    assert not [d for d in adv.open["distance"] if float(d) > 2.5]
    out = b.do("advance", unit="A1", distance="2.5")
    assert "cost [2.50] of [2.50]" in out.message
    assert _line(b, "advance unit=A1") is None  # all of it spent


def test_turn_to_face_an_enemy_already_faced_is_not_offered() -> None:
    # A turn "to face" an enemy the unit faces already changes nothing (reading 49): it is not
    # offered (it was, for the nearest enemy straight ahead, again after every advance at it).
    # Asked for, it is taken as before, a turn of 0 degrees (release 0.2's saved games hold
    # such turns).
    units = [
        {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100},
        {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 400},
        {"id": "S", "side": "red", "type": "infantry", "x": 150, "y": 400},
    ]
    b = Battle.quick(units)
    face = _line(b, "turn unit=B")
    assert face is not None and face.open["face"] == ("S",)
    b.do("turn", unit="B", face="S")
    b.do("advance", unit="B", distance=1)  # straight at S: S is faced still, R is not
    face = _line(b, "turn unit=B")
    assert face is not None and face.open["face"] == ("R",)
    facing = b.state.unit("B").body.facing
    out = b.do("turn", unit="B", face="S")
    assert b.state.unit("B").body.facing == facing and "turns to face S" in out.message
    assert b.replayed() == b.state


def test_no_turn_to_face_line_when_every_enemy_is_faced() -> None:
    # the one enemy straight ahead: the line would offer no choice, it is not there at all
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100},
            {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 400},
        ]
    )
    assert _line(b, "turn unit=B") is None
    assert _line(b, "turn unit=B direction=about") is not None  # its other turns stay
