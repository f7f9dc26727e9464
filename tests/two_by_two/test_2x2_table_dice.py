"""2 by 2's rolled tables roll the dice their data names (``[tables.NAME] dice``): the text's
1d6 by default; a house rule's dice are what the referee rolls, what the odds give and what the
to-do lines say; dice that are no dice are refused in one line naming the table."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.two_by_two.battle import Battle
from vedette import rules
from vedette.errors import DataError
from vedette.rules.two_by_two import RULESET
from vedette.rules.two_by_two.model import Rules


def _tables(**dice: str) -> dict[str, Any]:
    return {"house_rules": {"tables": {k: {"dice": v} for k, v in dice.items()}}}


def _rally(options: Any = None) -> Battle:
    units = [
        {"id": "U", "side": "blue", "type": "infantry", "x": 300, "y": 100, "pinned": True},
        {"id": "H", "side": "blue", "type": "hq_division", "x": 300, "y": 100 - 12 - 3 * 19.05},
        {"id": "R", "side": "red", "type": "infantry", "x": 100, "y": 550},
    ]
    b = Battle.quick(units, options=options)
    b.until("rally", "blue")
    return b


def test_a_house_rule_rally_die() -> None:
    """2 by 2, Rallying: 1d6, 5+ rallies (2/6); with [tables.rally] dice = "1d8", 5-8 (4/8),
    and an 8 rolled rallies (no d6 shows an 8)."""
    assert _rally().odds("rally", unit="U")[0].p("rallies") == Fraction(2, 6)
    b = _rally(_tables(rally="1d8"))
    assert b.odds("rally", unit="U")[0].p("rallies") == Fraction(4, 8)
    out = b.do("rally", dice=[8], unit="U")
    assert out.rolls[0].row == "rallies" and not b.state.unit("U").pinned


def _routable(options: Any = None) -> Battle:
    return Battle.quick(
        [
            {"id": "L", "side": "blue", "type": "light", "x": 300, "y": 100},
            {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 400},
        ],
        options=options,
    )


def test_a_house_rule_rout_die_is_rolled_and_said() -> None:
    """A voluntary rout (***): "1d6: 1-2 destroyed" by default; with [tables.rout] dice =
    "1d8" the to-do line says 1d8 and the odds of destruction are 2/8."""
    b = _routable()
    (line,) = [t.text for t in b.todo() if t.procedure == "rout"]
    assert line.endswith("may rout voluntarily (1d6: 1-2 destroyed)")
    assert b.odds("rout", unit="L")[0].p("destroyed") == Fraction(2, 6)
    b = _routable(_tables(rout="1d8"))
    (line,) = [t.text for t in b.todo() if t.procedure == "rout"]
    assert line.endswith("may rout voluntarily (1d8: 1-2 destroyed)")
    assert b.odds("rout", unit="L")[0].p("destroyed") == Fraction(2, 8)
    b.do("rout", dice=[7], unit="L")
    assert b.state.unit("L").disrupted


def test_a_house_rule_set_up_die_is_said() -> None:
    """Game Setup: "each side 1d6"; with [tables.setup] dice = "1d10 vs 1d10" the to-do line
    says 1d10 and a 10 against a 9 is rolled."""
    b = Battle(RULESET.scenario("setup"), _tables(setup="1d10 vs 1d10"))
    (line,) = [t.text for t in b.todo() if t.procedure == "setup_roll"]
    assert line == "roll for the Attacker (each side 1d10)"
    out = b.do("setup_roll", dice=[10, 9])
    assert "Attacker" in out.message


def test_the_rolled_tables_roll_their_data_dice() -> None:
    """Every table 2 by 2 rolls names its dice in the data (the text's 1d6), and the rules read
    them there."""
    r = Rules.from_data(rules.get("two_by_two").data(None))
    for name in ("shooting", "shooting_capped", "rout", "rally"):
        assert r.tables[name].dice == "1d6", name
    for name in ("reinforcement_rear", "reinforcement_flank"):
        assert r.tables[name].dice == "1d6", name
    assert r.tables["setup"].dice == "1d6 vs 1d6"
    assert (r.rout_words, r.setup_die) == ("1d6: 1-2 destroyed", "1d6")


@pytest.mark.parametrize(
    ("name", "dice", "says"),
    [
        ("rout", "lots", r"\[tables.rout\] dice must be dice such as 1d6, not 'lots'"),
        ("shooting", "", r"\[tables.shooting\] dice must be dice such as 1d6"),
        ("rally", "1d6 vs 1d6", r"\[tables.rally\] dice must be dice such as 1d6"),
        ("setup", "1d6", r"\[tables.setup\] dice must be dice such as 1d6 vs 1d6"),
    ],
)
def test_dice_that_are_no_dice_are_refused_in_one_line(name: str, dice: str, says: str) -> None:
    data = rules.get("two_by_two").data({"tables": {name: {"dice": dice}}})
    with pytest.raises(DataError, match=says) as e:
        Rules.from_data(data)
    assert "\n" not in str(e.value)
