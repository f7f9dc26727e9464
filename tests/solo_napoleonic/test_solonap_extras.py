"""Smaller rules: random chance-card play, skirmish frontage, units restricted to their
attacker, the halted charger's volley, house-rule knobs."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from solonap_helpers import activate, in_play, make, odds, request, run, unit

from vedette.errors import BadRequest, DataError, RuleViolation


def test_chance_card_played_on_a_random_unit() -> None:
    s = make([unit("a"), unit("b", "Allies"), unit("c", "Allies")])
    s = replace(s, chance={"French": "confusion"}, phase="activation")
    # 'Confusion in the ranks' is played on "one enemy unit": the die picks among b and c only
    s2, out = run(s, "chance", [2], side="French", on="random")
    assert out.details["on"] == "c" and s2.chance_played == ("confusion",)
    assert s2.unit("c").disorder == 1


def test_chance_card_only_on_eligible_units() -> None:
    """Issue 23 item 9: a card for "one enemy unit" is refused on the holder's own unit (in
    plan, before any die), and todo offers only the eligible units (and random)."""
    from vedette.rules.solo_napoleonic import RULESET as R

    s = make([unit("a"), unit("b", "Allies"), unit("c", "Allies")])
    s = replace(s, chance={"French": "confusion", "Allies": "rally"}, phase="activation")
    with pytest.raises(RuleViolation, match="enemy unit; a is not one"):
        R.judge(s, "chance", {"side": "French", "on": "a"})
    with pytest.raises(RuleViolation, match="friendly unit; a is not one"):
        R.judge(s, "chance", {"side": "Allies", "on": "a"})
    with pytest.raises(BadRequest, match="give on=UNIT"):
        R.judge(s, "chance", {"side": "French"})
    offers = {t.request["side"]: t.open.get("on") for t in R.todo(s) if t.procedure == "chance"}
    assert offers == {"French": ("b", "c", "random"), "Allies": ("b", "c", "random")}


def test_skirmish_line_at_most_four_times_normal_frontage() -> None:
    s = make([unit("s", formation="skirmish", figures=18, front=18)])
    # line frontage: 9 figures x 15mm = 135mm; four times: 540mm
    run(s, "place", [], unit="s", x=0, y=0, width=540)
    with pytest.raises(RuleViolation, match="540mm"):
        run(s, "place", [], unit="s", x=0, y=0, width=541)


def test_attacked_unit_acts_only_against_its_attacker() -> None:
    s = activate(
        make([unit("u", restricted_to="x"), unit("x", "Allies"), unit("y", "Allies")]), "u"
    )
    with pytest.raises(RuleViolation, match="only against x"):
        run(s, "fire", [], unit="u", target="y", range="short")
    with pytest.raises(RuleViolation, match="only against x"):
        run(s, "charge", [6, 6], unit="u", target="y")
    run(s, "fire", [1, 1, 6], unit="u", target="x", range="short")


def test_halted_charger_fires_its_volley_at_the_target() -> None:
    s = activate(
        make(
            [
                # a failed charge home's owed volley (bound): the only fire a charger gives
                unit("u", charge_state="halted", charge_target="x", bound="volley"),
                unit("x", "Allies"),
                unit("y", "Allies"),
            ]
        ),
        "u",
    )
    with pytest.raises(RuleViolation, match="volley is at x"):
        run(s, "fire", [], unit="u", target="y", range="short")
    _, out = run(s, "fire", [1, 1, 6], unit="u", target="x", at_chargers=False, range="short")
    assert out.details["method"] == "volley"
    charging = activate(
        make([unit("u", charge_state="declared", charge_target="x"), unit("x", "Allies")]), "u"
    )
    with pytest.raises(RuleViolation, match="cannot fire"):
        run(charging, "fire", [], unit="u", target="x", range="short")


def test_defensive_fire_at_chargers_is_short_range_and_out_of_turn() -> None:
    s = activate(
        make([unit("c", "Allies", charge_state="declared", charge_target="t"), unit("t")]), "c"
    )
    (o,) = odds(s, "fire", unit="t", target="c", at_chargers=True, range="long")
    assert "short range" in (o.note or "")
    s2, _ = run(s, "fire", [1, 1, 6], unit="t", target="c", at_chargers=True, reaction=True)
    assert s2.unit("t").fired and not s2.unit("t").acted


def test_house_rule_replaces_a_default_table() -> None:
    house = {"bpl": {"morale": {"A": 90}}}
    s = make([unit("u", grade="A", in_command=False)], house=house)
    o, _ = odds(s, "morale", unit="u")
    assert o.p("pass") == Fraction(90, 100)  # percentiles read 00-99 (issue 14)


def test_bad_scenario_is_a_data_error() -> None:
    with pytest.raises(DataError, match="grade"):
        make([unit("u", grade="E")])
    with pytest.raises(DataError, match="unknown field"):
        make([unit("u", colour="blue")])


@pytest.mark.parametrize(
    ("kind", "formation", "mm"),
    [
        ("infantry", "line", 150),
        ("infantry", "column", 200),
        ("infantry", "square", 40),
        ("infantry", "skirmish", 200),
        ("light_cavalry", "mounted", 400),
        ("cavalry", "mounted", 350),
        ("heavy_cavalry", "mounted", 300),
        ("foot_artillery", "limbered", 150),
        ("horse_artillery", "limbered", 350),
    ],
)
def test_default_move_distances(kind: str, formation: str, mm: int) -> None:
    from vedette.rules.solo_napoleonic.actions import base_move

    s = make([unit("u", kind=kind, formation=formation)])
    assert base_move(s, s.unit("u")) == mm


@pytest.mark.parametrize(
    ("gap", "band", "deduction", "save"),
    [(200, "canister", 0, 6), (500, "short", 0, 5), (1000, "long", -2, 4)],
)
def test_artillery_range_band_from_positions(
    gap: float, band: str, deduction: int, save: int
) -> None:
    from vedette.rules.solo_napoleonic.fire import plan

    g = unit(
        "g",
        kind="foot_artillery",
        formation="unlimbered",
        figures=3,
        x=0.0,
        y=0.0,
        width=40.0,
        depth=40.0,
    )
    t = unit("t", "Allies", x=0.0, y=20.0 + gap + 15.0, width=135.0, depth=30.0, facing=180.0)
    s = activate(make([g, t]), "g")
    p = plan(s, request("fire", {"unit": "g", "target": "t"}))
    assert p.band == band and p.save == save
    assert sum(m.value for m in p.modifiers) == deduction


def test_battery_officer_dead_optional() -> None:
    from vedette.rules.solo_napoleonic.fire import plan

    g = unit("g", kind="foot_artillery", formation="unlimbered", figures=3, officer="dead")
    s = activate(make([g, unit("t", "Allies")], options={"officers": True}), "g")
    p = plan(s, request("fire", {"unit": "g", "target": "t", "range": "short"}))
    assert [m.value for m in p.modifiers] == [-1]


def test_cavalry_charging_skirmishers_are_told_to_evade() -> None:
    s = activate(
        make(
            [
                unit("h", kind="light_cavalry", formation="mounted", grade="B"),
                unit("s", "Allies", formation="skirmish", front=18),
            ]
        ),
        "h",
    )
    _, out = run(s, "charge", [6, 10], unit="h", target="s")
    assert "evade unit=s" in out.message


def test_charge_home_ends_in_contact_when_placed() -> None:
    from vedette.rules.solo_napoleonic import geom

    c = unit(
        "c",
        kind="light_cavalry",
        formation="mounted",
        front=6,
        figures=12,
        charge_state="declared",
        charge_target="t",
        x=500.0,
        y=100.0,
        facing=0.0,
    )
    t = unit("t", "Allies", x=560.0, y=300.0, facing=180.0)
    s = make([c, t])
    s2, _ = run(in_play(s), "charge_home", [5], unit="c")  # C 60 -50 (steady infantry): 5 passes
    a, b = s2.unit("c"), s2.unit("t")
    d = geom.unit_distance(a, b)
    assert d is not None and d <= 1.0
    assert a.moved_mm > 100 and a.charge_state == "home"
    far = make([{**c, "charge_state": None}, {**t, "y": 900.0}])
    with pytest.raises(RuleViolation, match="charge reach"):
        run(activate(far, "c"), "charge", [6, 6], unit="c", target="t")


def test_skirmish_screen_found_from_positions() -> None:
    f = unit("f", x=500.0, y=100.0, width=135.0, depth=30.0)
    t = unit("t", "Allies", x=500.0, y=280.0, width=135.0, depth=30.0, facing=180.0)
    scr = unit(
        "s",
        "Allies",
        formation="skirmish",
        figures=8,
        front=8,
        x=500.0,
        y=200.0,
        width=200.0,
        depth=10.0,
        facing=180.0,
    )
    s = activate(make([f, t, scr]), "f")
    with pytest.raises(RuleViolation, match="skirmish screen"):
        run(s, "fire", [], unit="f", target="t")
    aside = activate(make([f, t, {**scr, "x": 900.0}]), "f")
    run(aside, "fire", [1, 1, 6], unit="f", target="t")


def test_officer_out_of_the_front_rank_counts_as_dead() -> None:
    from vedette.rules.solo_napoleonic.morale import morale_modifiers

    s = make([unit("u", officer_pos=12, in_command=False)], options={"officers": True})
    assert [
        m.value for m in morale_modifiers(s, s.unit("u"), request("morale", {"unit": "u"}))
    ] == [-5]
    (o,) = odds(
        activate(make([unit("u", officer_pos=12, disorder=2)], options={"officers": True}), "u"),
        "reform",
        unit="u",
    )
    assert o.p("0") == Fraction(1, 6)  # d6-1: a 1 removes nothing
    assert o.p("2") == Fraction(2, 3)  # 3-6 remove both chits
