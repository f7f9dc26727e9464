"""2 by 2, Rallying: 1d6 + modifiers, 5+; the not-possible cases; the footnote; HQ self rally."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.two_by_two.battle import Battle
from vedette.errors import RuleViolation

N = 19.05
HQ_FAR = {"id": "H", "side": "blue", "type": "hq_division", "x": 300, "y": 100 - 12 - 3 * N}


def rally_battle(
    kind: str = "infantry",
    extra: tuple[dict[str, Any], ...] = (HQ_FAR,),
    options: Any = None,
    **u: Any,
) -> Battle:
    units = [
        {"id": "U", "side": "blue", "type": kind, "x": 300, "y": 100, "pinned": True, **u},
        {"id": "R", "side": "red", "type": "infantry", "x": 100, "y": 550},
        *extra,
    ]
    b = Battle.quick(units, options=options)
    b.until("rally", "blue")
    return b


def mods(b: Battle, **req: Any) -> dict[str, int]:
    o = b.odds("rally", unit="U", **req)[0]
    return {m.reason: m.value for m in o.modifiers}


def test_five_plus_rallies() -> None:
    b = rally_battle()
    out = b.do("rally", dice=[4], unit="U")
    assert out.rolls[0].row == "fails" and b.state.unit("U").pinned
    b = rally_battle()
    out = b.do("rally", dice=[5], unit="U")
    assert out.rolls[0].row == "rallies" and not b.state.unit("U").pinned
    with pytest.raises(RuleViolation, match="neither"):
        b.odds("rally", unit="U")


def test_odds() -> None:
    b = rally_battle()
    assert b.odds("rally", unit="U")[0].p("rallies") == Fraction(2, 6)


def test_disrupted_first_and_minus_one() -> None:
    b = rally_battle(disrupted=True)
    b.state = b.state.with_unit("U", routed=True)
    assert mods(b)["disrupted"] == -1
    b.do("rally", dice=[6], unit="U")
    u = b.state.unit("U")
    assert not u.disrupted and u.pinned and not u.routed
    with pytest.raises(RuleViolation, match="once"):
        b.do("rally", dice=[6], unit="U")


def test_modifiers() -> None:
    assert mods(rally_battle("guard"))["Guards/Grenadiers/Light"] == 1
    assert mods(rally_battle("light"))["Guards/Grenadiers/Light"] == 1
    assert mods(rally_battle("militia"))["Militia"] == -1
    hq = {"id": "H", "side": "blue", "type": "hq_division", "x": 300, "y": 88}
    assert mods(rally_battle(extra=(hq,)))["HQ in base contact"] == 1
    b = rally_battle("hq_corps", extra=())
    assert mods(b)["HQ self rally"] == 2


def test_not_possible_enemy_in_contact() -> None:
    foe = {"id": "F", "side": "red", "type": "infantry", "x": 300, "y": 112}
    b = rally_battle(extra=(HQ_FAR, foe))
    with pytest.raises(RuleViolation, match="enemy in contact"):
        b.do("rally", dice=[6], unit="U")
    assert b.state.unit("U").pinned and not b.state.unit("U").rallied


def test_not_possible_out_of_command() -> None:
    far = {"id": "H", "side": "blue", "type": "hq_division", "x": 300, "y": 100 + 12 + 4.5 * N}
    b = rally_battle(extra=(far,))
    with pytest.raises(RuleViolation, match="no Division HQ within"):
        b.do("rally", dice=[6], unit="U")
    corps = {"id": "C", "side": "blue", "type": "hq_corps", "x": 300, "y": 100 + 12 + 7.5 * N}
    b = rally_battle(extra=(far, corps))
    b.do("rally", dice=[6], unit="U")  # the Corps HQ within [8] will do
    b = rally_battle(extra=())
    with pytest.raises(RuleViolation, match="no Division HQ"):
        b.do("rally", dice=[6], unit="U")
    b = rally_battle(extra=(), options={"house_rules": {"rally": {"hq_rule": "off"}}})
    b.do("rally", dice=[6], unit="U")


def test_enemy_within_two_footnote() -> None:
    near = {"id": "F", "side": "red", "type": "infantry", "x": 300, "y": 100 + 12 + 1.5 * N}
    b = rally_battle(extra=(HQ_FAR, near))
    with pytest.raises(RuleViolation, match="only Guards"):
        b.do("rally", dice=[6], unit="U")
    b = rally_battle("guard", extra=(HQ_FAR, near))
    assert mods(b)["enemy within [2]"] == -2
    hq = {"id": "H", "side": "blue", "type": "hq_division", "x": 300, "y": 88}
    b = rally_battle(extra=(hq, near))
    m = mods(b)
    assert m["enemy within [2]"] == -2 and m["HQ in base contact"] == 1
    # the other reading, as a house rule: everyone may try, at -2
    b = rally_battle(
        extra=(HQ_FAR, near), options={"house_rules": {"rally": {"enemy_within_rule": "all"}}}
    )
    assert mods(b)["enemy within [2]"] == -2


def test_nothing_to_rally_and_phase() -> None:
    b = rally_battle(pinned=False)
    with pytest.raises(RuleViolation, match="neither pinned nor disrupted"):
        b.do("rally", dice=[6], unit="U")
    b = Battle.quick([{"id": "U", "side": "blue", "type": "infantry", "pinned": True}])
    with pytest.raises(RuleViolation, match="Sequence of play"):
        b.do("rally", dice=[6], unit="U")
    b.do("next")
    out = b.do("rally", dice=[5], unit="U", in_command=True)  # stated: positions unknown
    assert out.rolls[0].row == "rallies"
