"""2 by 2's distances are rule data; what the referee says of them follows a house rule: the
board's rings (the rally ban, rout contagion), the stated rally's assumed HQ ranges, the straight
run-in of a move to contact, a rout's contagion line. (Before, these printed or drew the text's
[2], [3], [4], [8] whatever the house rules said, while the referee judged by the house rule.)"""

from __future__ import annotations

from typing import Any

import pytest

from tests.two_by_two.battle import Battle
from vedette.errors import RuleViolation
from vedette.rules.two_by_two.board import rings

HOUSE = {
    "rally": {"enemy_within": 3, "division_range": 5, "corps_range": 10},
    "rout": {"contagion_radius": 4},
    "movement": {"straight_ahead": 3},
}


def _stated(house: dict[str, Any] | None = None) -> Battle:
    return Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry"},
            {"id": "P", "side": "blue", "type": "infantry", "pinned": True},
            {"id": "H", "side": "blue", "type": "hq_division"},  # (a rally needs an HQ in play)
            {"id": "R", "side": "red", "type": "infantry"},
        ],
        options={"house_rules": house} if house else None,
    )


def test_the_board_rings_follow_the_house_rules() -> None:
    """The rings a player may draw round a unit: the text's [2] rally ban and [3] contagion,
    or the house rule's [3] and [4], at the same [n] in mm."""
    b = Battle.quick([{"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100}])
    n = b.state.rules.base_mm
    r = rings(b.state)
    assert (r["rally ban: enemy within [2]"], r["rout contagion [3]"]) == (2 * n, 3 * n)
    b = Battle.quick(
        [{"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100}],
        options={"house_rules": HOUSE},
    )
    r = rings(b.state)
    assert (r["rally ban: enemy within [3]"], r["rout contagion [4]"]) == (3 * n, 4 * n)
    assert r["Div HQ [5]"] == 5 * n and r["Corps HQ [10]"] == 10 * n


def test_the_assumed_hq_ranges_of_a_stated_rally_are_the_games() -> None:
    """A stated rally assumes the unit in command: it says the ranges the game plays by."""
    for house, said in (
        (None, "[4] or the Corps HQ within [8]"),
        (HOUSE, "[5] or the Corps HQ within [10]"),
    ):
        b = _stated(house)
        b.until("rally", "blue")
        out = b.do("rally", dice=[5], unit="P")
        assert f"ASSUMED in command (a Division HQ within {said})" in out.message


def test_the_straight_run_in_is_the_games() -> None:
    """Moving to contact: "The last [2] of a units move to contact must be STRAIGHT AHEAD";
    a stated charge that did not run straight is refused naming the game's distance."""
    for house, last in ((None, 2), (HOUSE, 3)):
        b = _stated(house)
        with pytest.raises(RuleViolation, match=rf"the last \[{last}\] of a move to contact"):
            b.do("charge", unit="B", into="R", distance=2, straight=False)


def test_a_rout_contagion_line_says_the_games_range() -> None:
    """Unit Summary **: a friendly rout within [3] routs the militia (the melee's loser D
    routs, 6 against 3; D flees on a 4, M is destroyed on a 1); the line names the game's
    range: [3], or [4] under a house rule."""
    for house, near in ((None, 3), ({"rout": {"contagion_radius": 4}}, 4)):
        units = [
            {"id": "A", "side": "blue", "type": "infantry", "x": 300, "y": 100},
            {"id": "D", "side": "red", "type": "infantry", "x": 300, "y": 112},
            {"id": "M", "side": "red", "type": "militia", "x": 350, "y": 130, "facing": 180},
        ]
        b = Battle.quick(units, options={"house_rules": house} if house else None)
        b.until("melee", "blue")
        out = b.do("melee", dice=[6, 3, 4, 1], attacker="A", defender="D")
        assert f"M (**) routs: a rout within [{near}]" in out.message


def test_the_rp_clearance_refusal_names_the_games_distance() -> None:
    """Game Setup: the Attacker's RP may not be within [8] of a defending unit or RP; refused
    naming the game's [8], or a house rule's [9]."""
    for house, near in ((None, 8), ({"setup": {"rp_clearance": 9}}, 9)):
        units = [{"id": f"B{i}", "side": "blue", "type": "infantry"} for i in (1, 2)]
        units += [{"id": f"R{i}", "side": "red", "type": "infantry"} for i in (1, 2)]
        b = Battle.quick(units, start="setup", options={"house_rules": house} if house else None)
        b.do("setup_roll", dice=[2, 5])  # red attacks
        b.do("deploy", unit="B1", x=100, y=50)
        b.do("next")
        b.do("deploy", unit="R1", x=300, y=560)
        b.do("next")
        b.do("rp", x=300, y=0, units=["B2"])
        with pytest.raises(RuleViolation, match=rf"RP within \[{near}\] of defending B1"):
            b.do("rp", x=0, y=50, units=["R2"])


def test_the_screened_range_named_is_the_unit_types() -> None:
    """Unit Summary "[1,2*]": an unscreened infantry unit's target at [1.5] is beyond its
    range, the refusal naming its skirmish band's [2], or a house rule's [3]."""
    for house, reach in ((None, 2), ({"units": {"infantry": {"ranges": [1, 3]}}}, 3)):
        units = [
            {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100},
            {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 112 + 1.5 * 19.05},
        ]
        b = Battle.quick(units, options={"house_rules": house} if house else None)
        b.until("shoot", "blue")
        with pytest.raises(RuleViolation, match=rf"\(\[{reach}\] only with a skirmisher screen\)"):
            b.do("shoot", dice=[6], firer="B", target="R")


def test_a_counter_charge_around_says_the_game_s_straight_run_in() -> None:
    """Moving to contact: the counter-charge line that goes around a unit in the way says the
    straight run-in the game plays by: the text's [2], or a house rule's [3] (it printed [2]
    whatever the house rules said)."""
    for house, last in ((None, 2), ({"movement": {"straight_ahead": 3}}, 3)):
        b = Battle.quick(
            [
                {"id": "M", "side": "blue", "type": "infantry", "x": 300, "y": 150},
                {"id": "C", "side": "red", "type": "heavy_cavalry", "x": 300, "y": 225},
                {"id": "X", "side": "red", "type": "infantry", "x": 285, "y": 192},
            ],
            options={"house_rules": house} if house else None,
        )
        b.do("advance", unit="M", distance="0.5")
        b.until("shoot", "red")
        lines = [t for t in b.todo() if t.procedure == "countercharge" and "path" in t.request]
        assert lines, "no counter-charge around X offered"
        assert all(f"(the last [{last}] straight in)" in t.text for t in lines)


def test_a_stated_contagion_refusal_names_the_games_range() -> None:
    """Unit Summary **: a stated contagion naming a unit that is not ** is refused, saying the
    game's range ([3], or [4] under a house rule), not the text's [3] whatever the house rule."""
    for house, near in ((None, 3), (HOUSE, 4)):
        b = _stated(house)
        b.until("shoot", "red")
        with pytest.raises(RuleViolation, match=rf"B is not a \*\* unit.*within \[{near}\]"):
            b.do("shoot", dice=[1], firer="R", target="B", band="musket", contagion=["B"])
