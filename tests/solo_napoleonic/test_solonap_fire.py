"""Firing: volleys, skirmishers, artillery, casualty allocation (Kuryakin, Firing; Skirmishers;
Artillery; Determining Casualties)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from solonap_helpers import activate, general, make, odds, request, run, unit

from vedette.dice import ScriptedSource
from vedette.errors import BadRequest, RuleViolation
from vedette.rules.solo_napoleonic import RULESET as R
from vedette.rules.solo_napoleonic.common import allocate


def duel(
    firer: dict[str, object] | None = None,
    target: dict[str, object] | None = None,
    options: dict[str, object] | None = None,
    house: dict[str, object] | None = None,
    gens: list[dict[str, object]] | None = None,
):  # type: ignore[no-untyped-def]
    f = unit("f", **(firer or {}))
    t = unit("t", "Allies", **(target or {}))
    return activate(make([f, t], gens or [], options, house), "f")


@pytest.mark.parametrize(
    ("firer", "target", "req", "total"),
    [
        ({"grade": "A"}, {}, {}, 1),
        ({"grade": "B"}, {}, {}, 1),
        ({"grade": "C"}, {}, {}, 0),
        ({"grade": "D"}, {}, {}, -1),
        ({}, {}, {"cover": "soft"}, -1),
        ({}, {}, {"cover": "hard"}, -2),
        ({}, {"formation": "skirmish", "front": 18}, {}, -2),
        ({}, {"kind": "foot_artillery", "figures": 4, "formation": "unlimbered"}, {}, -1),
        ({}, {}, {"moved": True}, -2),
        ({"grade": "B", "moved_mm": 10.0}, {}, {"cover": "hard"}, -3),
    ],
)
def test_volley_modifiers(
    firer: dict[str, object], target: dict[str, object], req: dict[str, object], total: int
) -> None:
    s = duel(firer, target)
    (o,) = odds(s, "fire", unit="f", target="t", range="short", **req)
    from vedette.rules.solo_napoleonic.fire import plan

    p = plan(s, request("fire", {"unit": "f", "target": "t", "range": "short", **req}))
    assert sum(m.value for m in p.modifiers) == total
    assert sum((r.p for r in o.rows), Fraction(0)) == 1


def test_excess_figures_do_not_fire() -> None:
    s = duel({"figures": 28, "front": 14})
    from vedette.rules.solo_napoleonic.fire import plan

    assert plan(s, request("fire", {"unit": "f", "target": "t", "range": "long"})).dice_count == 2
    with pytest.raises(BadRequest, match="volleys"):
        run(s, "fire", [], unit="f", target="t", range="long", volleys=3)
    small = duel({"figures": 8, "front": 4})
    with pytest.raises(RuleViolation, match="fewer than 5"):
        run(small, "fire", [], unit="f", target="t", range="long")


def test_long_range_quarter_exact_and_saves_4_to_6() -> None:
    s = duel({"figures": 20, "front": 10})
    # 2 volleys 2+2 = 4 -> ¼ = 1 exactly (no d100); save d6=3 fails -> 1 casualty
    s2, out = run(s, "fire", [2, 2, 3], unit="f", target="t", range="long")
    assert (out.details["actual"], out.details["casualties"]) == (1, 1)
    assert s2.unit("t").figures == 17
    _, out = run(s, "fire", [2, 2, 4], unit="f", target="t", range="long")
    assert out.details["casualties"] == 0


def test_volley_die_parameter_d4() -> None:
    s = duel(house={"options": {"volley_die": "d4"}})
    (o,) = odds(s, "fire", unit="f", target="t", range="short")
    assert "1d4" in (o.note or "")


def test_odds_match_brute_force_one_volley_long() -> None:
    s = duel()
    (o,) = odds(s, "fire", unit="f", target="t", range="long")
    acc: dict[int, Fraction] = {}
    for h in range(1, 7):
        whole, rem = divmod(h, 4)
        for pct in range(1, 101):
            n = whole + (1 if rem and pct <= rem * 25 else 0)
            for saves in itertools.product(range(1, 7), repeat=n):
                cas = sum(1 for x in saves if x < 4)
                acc[cas] = acc.get(cas, Fraction(0)) + Fraction(1, 6 * 100 * 6**n)
    assert {int(r.key): r.p for r in o.rows} == {k: v for k, v in acc.items() if v}


def test_fire_adds_disorder_to_firer_and_marks_fired() -> None:
    s = duel()
    # 1 volley of 1 hit; ¾ -> d100=1 gives it; save 3 fails (no special figure: no allocation die)
    s2, _ = run(s, "fire", [1, 1, 3], unit="f", target="t", range="short")
    assert s2.unit("t").figures == 17
    assert s2.unit("f").fired and s2.unit("f").disorder == 1
    with pytest.raises(RuleViolation, match="already fired"):
        run(s2, "fire", [1], unit="f", target="t", range="short")


def test_arc_and_range_from_positions() -> None:
    f = {"x": 500.0, "y": 100.0, "facing": 0.0, "width": 135.0, "depth": 30.0}
    ahead = {"x": 500.0, "y": 280.0, "facing": 180.0, "width": 135.0, "depth": 30.0}
    s = duel(f, ahead)
    from vedette.rules.solo_napoleonic.fire import plan

    assert plan(s, request("fire", {"unit": "f", "target": "t"})).band == "long"  # 150mm apart
    beside = {"x": 900.0, "y": 100.0, "facing": 180.0, "width": 135.0, "depth": 30.0}
    with pytest.raises(RuleViolation, match="45° arc"):
        run(duel(f, beside), "fire", [], unit="f", target="t")
    far = {"x": 500.0, "y": 400.0, "facing": 180.0, "width": 135.0, "depth": 30.0}
    with pytest.raises(RuleViolation, match="beyond long range"):
        run(duel(f, far), "fire", [], unit="f", target="t")


def test_infantry_cannot_fire_through_skirmishers_artillery_can() -> None:
    with pytest.raises(RuleViolation, match="skirmish screen"):
        run(duel(), "fire", [], unit="f", target="t", range="short", through_skirmishers=True)
    s = duel({"kind": "foot_artillery", "figures": 3, "formation": "unlimbered"})
    _, out = run(s, "fire", [1, 6], unit="f", target="t", range="short", through_skirmishers=True)
    assert out.details["method"] == "artillery"


def test_skirmishers_fire_individually() -> None:
    s = duel({"formation": "skirmish", "figures": 6, "front": 6})
    # 6 figures at short: hit on 5-6 -> 5,6,4,1,5,2 = 3 hits; saves 5-6: 1,6,2 -> 2 casualties
    s2, out = run(s, "fire", [5, 6, 4, 1, 5, 2, 1, 6, 2], unit="f", target="t", range="short")
    assert out.details["hits"] == 3 and out.details["casualties"] == 2
    assert s2.unit("f").disorder == 0  # skirmishers suffer no disorder while unformed
    (o,) = odds(s, "fire", unit="f", target="t", range="long")
    assert o.p("0") > 0 and sum((r.p for r in o.rows), Fraction(0)) == 1


def test_mounted_skirmishers_cannot_fire_and_move() -> None:
    s = duel(
        {
            "kind": "light_cavalry",
            "formation": "skirmish",
            "figures": 8,
            "front": 8,
            "moved_mm": 100.0,
        }
    )
    with pytest.raises(RuleViolation, match="fire and move"):
        run(s, "fire", [], unit="f", target="t", range="short")


def test_rifles_cannot_move_over_half_and_fire() -> None:
    s = duel({"rifles": True, "moved_mm": 100.0})  # line move 150: half is 75
    with pytest.raises(RuleViolation, match="half"):
        run(s, "fire", [], unit="f", target="t", range="short")


def test_fire_then_move_is_refused_to_mounted_skirmishers_and_rifles_over_half() -> None:
    # Kuryakin, Skirmishers: "cavalry cannot fire and move in the same turn"; Firing: "Rifles
    # cannot move more than 1/2 and fire": in either order (before, firing first left the
    # whole move open), and rifles skirmishing are rifles too
    s = duel({"kind": "light_cavalry", "formation": "skirmish", "figures": 8, "front": 8})
    s, _ = run(
        s,
        "fire",
        [6, 6, 6, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1],
        unit="f",
        target="t",
        range="short",
    )
    with pytest.raises(RuleViolation, match=r"cannot fire and move.*Skirmishers"):
        run(s, "move", [6, 0, 3], unit="f", distance=50, mode="move")
    r = duel({"rifles": True, "formation": "skirmish", "figures": 8, "front": 8})
    s, _ = run(r, "move", [6, 0, 3], unit="f", distance=150, mode="move")
    with pytest.raises(RuleViolation, match="rifles cannot move more than half and fire"):
        run(s, "fire", [], unit="f", target="t", range="short")
    s, _ = run(
        r,
        "fire",
        [6, 6, 6, 6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1],
        unit="f",
        target="t",
        range="short",
    )
    with pytest.raises(RuleViolation, match="rifles cannot move more than half and fire"):
        run(s, "move", [6, 0, 3], unit="f", distance=150, mode="move")
    half = 200 / 2  # the skirmish move is 200mm (default data)
    s, _ = run(s, "move", [6, 0, 3], unit="f", distance=half, mode="move")
    assert s.unit("f").moved_mm == half


@pytest.mark.parametrize(
    ("firer", "target", "req", "total"),
    [
        ({"figures": 3}, {}, {}, 0),
        ({"figures": 5}, {}, {}, 2),
        ({"figures": 2}, {}, {}, -1),
        ({"figures": 3, "guards": True}, {}, {"staff_officer": True}, 2),
        ({"figures": 3}, {"formation": "square"}, {}, 2),
        ({"figures": 3}, {"kind": "foot_artillery", "figures": 3}, {}, -3),
        ({"figures": 3, "nation": "Russian"}, {}, {}, -2),
        ({"figures": 3, "nation": "Hanoverian"}, {}, {}, -1),
        ({"figures": 3}, {}, {"cover": "hard"}, -3),
        ({"figures": 3, "disorder": 2}, {}, {}, -2),
        ({"figures": 3}, {}, {"range": "long"}, -2),
    ],
)
def test_artillery_modifiers(
    firer: dict[str, object], target: dict[str, object], req: dict[str, object], total: int
) -> None:
    f = {"kind": "foot_artillery", "formation": "unlimbered", **firer}
    s = duel(f, target)
    from vedette.rules.solo_napoleonic.fire import plan

    p = plan(s, request("fire", {"unit": "f", "target": "t", "range": "short", **req}))
    assert sum(m.value for m in p.modifiers) == total


def test_canister_2d6_saves_on_6() -> None:
    s = duel({"kind": "foot_artillery", "formation": "unlimbered", "figures": 3})
    # 2d6 = 4+3 = 7 hits; saves on 6: six 1s and one 6 -> 6 casualties (no allocation rolls)
    faces = [4, 3, 1, 1, 1, 1, 1, 6, 1]
    s2, out = run(s, "fire", faces, unit="f", target="t", range="canister")
    assert out.details["casualties"] == 6 and s2.unit("t").figures == 12


def test_casualties_never_exceed_figures() -> None:
    s = duel(
        {"kind": "foot_artillery", "formation": "unlimbered", "figures": 6},
        {"figures": 2, "front": 2},
    )
    faces = [6, 6, *([1] * 15)]
    s2, out = run(s, "fire", faces, unit="f", target="t", range="canister")
    assert s2.unit("t").figures == 0 and s2.unit("t").status == "eliminated"
    assert out.details["casualties"] == 2


def test_specials_hit_once_duplicates_go_to_soldiers() -> None:
    src = ScriptedSource([1, 1, 3, 9])
    a = allocate(4, 9, {"officer": 1, "standard": 3}, src, "r")
    assert a.specials_hit == ("officer", "standard") and a.ordinary == 2
    assert "already hit" in (a.rolls[1].consequence or "")


def test_attached_general_saves_on_3_to_6() -> None:
    src = ScriptedSource([1, 3])
    a = allocate(1, 9, {}, src, "r", general_pos=1)
    assert a.general_hit and not a.general_killed and a.ordinary == 1
    src = ScriptedSource([1, 2])
    b = allocate(1, 9, {}, src, "r", general_pos=1)
    assert b.general_killed and b.ordinary == 0


def test_general_killed_in_fire() -> None:
    gens = [
        general("G", "Allies", th="average", av="normal", cr=6, grade="average", attached_to="t")
    ]
    s = duel({"figures": 10, "front": 5}, {"front": 9}, gens=gens)
    # 1 volley: 4 hits short ¾ = 3; saves 1,1,1 -> 3 casualties; allocation: 1 (general,
    # save d6=2 fails: killed), 5, 6
    s2, out = run(s, "fire", [4, 1, 1, 1, 1, 2, 5, 6], unit="f", target="t", range="short")
    assert s2.general("G").killed and s2.general("G").attached_to is None
    assert s2.unit("t").figures == 16  # two soldiers, the third casualty was the general
    assert out.details["general_killed"]


def test_officer_hit() -> None:
    s = duel({"figures": 10, "front": 5}, {"front": 9}, {"officers": True})
    # 4 hits ¾ = 3; saves 1, 6, 6 -> 1 casualty; allocation roll 1 = the officer (position 1)
    s2, out = run(s, "fire", [4, 1, 6, 6, 1], unit="f", target="t", range="short")
    assert s2.unit("t").officer == "dead" and s2.unit("t").figures == 17
    assert out.details["specials_hit"] == ["officer"]


def test_a_unit_that_reformed_gives_no_defensive_fire_that_turn() -> None:
    # Kuryakin, Disorder: "reforming takes the whole turn, meaning that the unit can do nothing
    # else": charged after reforming, it tests morale but its owed defensive fire lapses (the
    # reason logged) and the charger moves up; before, it fired (and took a 'D' for it)
    s = make(
        [
            unit("F1", x=500, y=400, facing=0, disorder=2),
            unit("A1", "Allies", x=500, y=560, facing=180),
        ]
    )
    s, _ = run(activate(s, "F1"), "reform", [1], unit="F1")
    s, _ = run(activate(s, "A1"), "charge", [6, 10], unit="A1", target="F1")
    s, out = run(s, "morale", [10], unit="F1", charged_by="A1")
    assert [o.id for o in R.obligations(s)] == ["charge:A1:close"]
    assert any("defensive fire lapses" in e.why and "reform" in e.why for e in out.events)
    with pytest.raises(RuleViolation, match="reforming takes the whole turn"):
        run(s, "fire", [], unit="F1", target="A1")
