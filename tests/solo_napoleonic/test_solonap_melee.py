"""Melee (Kuryakin, Melee: Infantry vs. Infantry; Cavalry vs. Cavalry; Cavalry vs. Infantry)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from solonap_helpers import activate, in_play, make, odds, request, run, unit

from vedette.errors import RuleViolation
from vedette.rules.solo_napoleonic.melee import sides


def fight(a: dict[str, object], b: dict[str, object], **opts: object):  # type: ignore[no-untyped-def]
    ua = unit("a", charge_state="home", charge_target="b", **a)
    ub = unit("b", "Allies", **b)
    return activate(make([ua, ub], options=dict(opts)), "a")


def sides_of(s, **req: object):  # type: ignore[no-untyped-def]
    rnd = int(req.pop("round", 1))  # type: ignore[call-overload]
    return sides(s, request("melee", {"unit": "a", "target": "b", **req}), rnd)


def test_infantry_points_first_four_ranks_in_contact() -> None:
    s = fight({"figures": 30, "front": 6, "advancing": True}, {"figures": 18, "front": 9})
    kind, sa, sb, _ = sides_of(s)
    assert kind == "infantry"
    assert (sa.points, sa.dice) == (24, 4)  # 4 ranks of 6
    assert (sb.points, sb.dice) == (18, 3)
    assert sa.save == 5 and sb.save == 5
    assert [m.reason for m in sa.modifiers] == ["hit enemy standing"]
    _, sa2, _, _ = sides_of(s, a_contact=3)
    assert sa2.points == 12


def test_infantry_modifiers() -> None:
    s = fight({"grade": "B", "disorder": 2}, {"grade": "D", "advancing": True})
    _, sa, sb, _ = sides_of(s)
    assert sum(m.value for m in sa.modifiers) == 1 - 2  # A/B +1, 2 D factors
    assert sum(m.value for m in sb.modifiers) == -1  # D class
    # the attacker hit a moving enemy: no "hit standing"
    assert all(m.reason != "hit enemy standing" for m in sa.modifiers)


def test_later_rounds_everyone_fights() -> None:
    s = fight({"figures": 30, "front": 6}, {"figures": 18, "front": 9})
    _, sa, _, _ = sides_of(s, round=2)
    assert sa.points == 30


def test_melee_round_resolves_and_loser_tests() -> None:
    s = fight({"figures": 10, "front": 5, "advancing": True}, {"figures": 10, "front": 5})
    # a: 10 points, 2 dice +1 standing: 6,6 -> 7+7 = 14 -> 7 potential; saves 1x7 -> 7
    # b: 10 points, 2 dice: 1,1 -> 2 -> 1; save 6 -> 0
    faces = [6, 6, *([1] * 7), 1, 1, 6]
    s2, out = run(s, "melee", faces, unit="a", target="b")
    assert out.details["inflicted"] == {"a": 7, "b": 0}
    assert out.details["losers"] == ["b"]
    b = s2.unit("b")
    assert b.figures == 3 and b.lost_melee and b.morale_due and b.disorder == 1
    assert s2.unit("a").disorder == 1


def test_melee_needs_charge_home_first() -> None:
    ua = unit("a")
    ub = unit("b", "Allies")
    s = activate(make([ua, ub]), "a")
    with pytest.raises(RuleViolation, match="charged home"):
        run(s, "melee", [], unit="a", target="b")


def test_cavalry_vs_cavalry_front_rank_round_one_and_cuirassiers() -> None:
    s = fight(
        {
            "kind": "heavy_cavalry",
            "figures": 12,
            "front": 6,
            "cuirassiers": True,
            "formation": "mounted",
        },
        {"kind": "light_cavalry", "figures": 12, "front": 6, "formation": "mounted"},
    )
    kind, sa, sb, _ = sides_of(s)
    assert kind == "cavalry"
    assert sa.points == 12  # 6 in the front rank x 2 points (heavy: assumption)
    assert sb.points == 6
    assert sb.save == 4  # the cuirassiers save on 4-6
    assert sa.save == 5
    _, sa2, _, _ = sides_of(s, round=2)
    assert sa2.points == 24


def test_cavalry_flank_attack() -> None:
    s = fight(
        {"kind": "light_cavalry", "figures": 10, "front": 5, "formation": "mounted"},
        {"kind": "light_cavalry", "figures": 10, "front": 5, "formation": "mounted"},
    )
    _, sa, _, _ = sides_of(s, a_flank_rear=True)
    assert any(m.value == 2 for m in sa.modifiers)


def test_cavalry_vs_infantry_everyone_fights_infantry_save_on_6() -> None:
    s = fight(
        {"kind": "light_cavalry", "figures": 12, "front": 6, "formation": "mounted"},
        {"figures": 20, "front": 10},
    )
    kind, sa, sb, _ = sides_of(s)
    assert kind == "cav_vs_inf"
    assert sa.save == 6 and sb.save == 5
    assert (sa.points, sb.points) == (12, 20)


def test_skirmishers_inflict_half_and_cannot_stand_cavalry() -> None:
    s = fight({"figures": 10, "front": 5}, {"figures": 10, "front": 10, "formation": "skirmish"})
    _, _, sb, _ = sides_of(s)
    assert sb.halve
    cav = fight(
        {"kind": "light_cavalry", "figures": 10, "front": 5, "formation": "mounted"},
        {"figures": 10, "front": 10, "formation": "skirmish"},
    )
    with pytest.raises(RuleViolation, match="evade"):
        sides_of(cav)


def test_melee_odds_sum_to_one() -> None:
    s = fight({"figures": 10, "front": 5}, {"figures": 10, "front": 5})
    oa, ob, who = odds(s, "melee", unit="a", target="b")
    for o in (oa, ob, who):
        assert sum((r.p for r in o.rows), Fraction(0)) == 1


def test_brawl_d3_rounds() -> None:
    # issue 14: the D3 further rounds only after a round whose loser held (the brawl step)
    s = fight({"charge_step": "brawl", "melee_round": 1}, {})
    s2, out = run(s, "brawl", [2], unit="a", target="b")
    assert out.details["rounds"] == 2 and s2.history
    assert s2.unit("a").melee_rounds == 3 and s2.unit("a").charge_step == "melee"


def test_evade_d20_and_ridden_down() -> None:
    s = make([unit("s", formation="skirmish", figures=10, front=10, x=100.0, y=500.0, facing=0.0)])
    s2, out = run(in_play(s), "evade", [12], unit="s", caught=2)
    u = s2.unit("s")
    assert u.y == 380.0 and u.figures == 8
    assert "ridden down" in out.message


def test_skirmishers_evade_away_from_the_cavalry_charging_them() -> None:
    # Kuryakin, Cavalry vs. Infantry: "Skirmishers will not stand against cavalry, and if
    # charged will evade D20cm": away from the charger, even one coming at their rear (before,
    # they fell back along their own facing, 10cm into the lancers charging them from behind)
    s = make(
        [
            unit("s", formation="skirmish", figures=10, front=10, x=500.0, y=400.0, facing=0.0),
            unit(
                "c",
                side="Allies",
                kind="light_cavalry",
                formation="mounted",
                figures=12,
                x=500.0,
                y=250.0,
                facing=0.0,
            ),
        ]
    )
    s, _ = run(activate(s, "c"), "charge", [6, 10], unit="c", target="s")
    s2, out = run(s, "evade", [10], unit="s")
    u = s2.unit("s")
    assert (u.x, u.y) == (500.0, 500.0) and u.facing == 0.0
    assert "evades 10cm" in out.message


def test_equal_casualties_both_sides_test() -> None:
    """Reading K35: "the side taking the most casualties checks morale"; when both took the same
    number (above 0), both test."""
    s = fight({"figures": 10, "front": 5, "advancing": True}, {"figures": 10, "front": 5})
    # a: 2 dice +1 standing: 1,1 -> 2+2 = 4 -> 2 potential, saves 1,1 -> 2
    # b: 2 dice: 2,2 -> 4 -> 2 potential, saves 1,1 -> 2
    s2, out = run(s, "melee", [1, 1, 1, 1, 2, 2, 1, 1], unit="a", target="b")
    assert out.details["inflicted"] == {"a": 2, "b": 2}
    assert sorted(out.details["losers"]) == ["a", "b"]
    assert s2.unit("a").morale_due and s2.unit("b").morale_due
