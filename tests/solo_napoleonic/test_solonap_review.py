"""Second-look fixes (review): command control after a failed roll, the comparisons of the
control and percentile rolls, casualties and routing friends in morale."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from solonap_helpers import activate, general, make, odds, request, run, unit

from vedette.dice import total
from vedette.errors import DiceError, RuleViolation
from vedette.rules.solo_napoleonic.morale import morale_modifiers


def rated(gid: str, cr: int = 6, **kw: object) -> dict[str, object]:
    return general(gid, th="average", av="normal", cr=cr, grade="average", **kw)


def test_failed_control_roll_leaves_the_brigade_out_of_command() -> None:
    """Kuryakin, Generals/Movement: the brigadier rolls "for control"; failing it, his units
    are out of command control (morale +15 lost, formation change +2) and have own cards."""
    s = make([unit("a", brigade="B1"), unit("b", brigade="B1")], [rated("B1", cr=6)])
    s2, out = run(s, "control", [6])
    assert not s2.unit("a").in_command and not s2.unit("b").in_command
    assert "B1 failed his control roll" in out.message
    s3, _ = run(s, "control", [5])
    assert s3.unit("a").in_command and s3.unit("b").in_command
    keep = make(
        [unit("a", brigade="B1")],
        [rated("B1")],
        house={"options": {"failed_control_out_of_command": False}},
    )
    s4, _ = run(keep, "control", [6])
    assert s4.unit("a").in_command and s4.control == {"B1": "failed"}


def test_control_less_than_is_strict_and_a_knob() -> None:
    s = make([unit("a", brigade="B1")], [rated("B1", cr=6)])
    (o,) = odds(s, "control")
    assert o.p("pass") == Fraction(5, 8)  # 1-5 pass: "less than" 6
    inc = make(
        [unit("a", brigade="B1")], [rated("B1", cr=6)], house={"options": {"control_strict": False}}
    )
    (o2,) = odds(inc, "control")
    assert o2.p("pass") == Fraction(6, 8)
    s2, _ = run(inc, "control", [6])
    assert s2.control == {"B1": "passed"}


def test_percentile_below_is_strict_on_1_to_100_and_a_knob() -> None:
    """Kuryakin, Morale: "a roll on D100 below the final figure". The older reading (dice read
    1-100, an option since issue 14): BPL 80 passes on 01-79."""
    old = {"options": {"percentile_reading": "1-100"}}
    s = make([unit("u", grade="B", in_command=False)], house=old)
    o, _ = odds(s, "morale", unit="u")
    assert o.p("pass") == Fraction(79, 100)
    _, out = run(s, "morale", [80, 10], unit="u")
    assert not out.details["passed"]
    _, out = run(s, "morale", [79], unit="u")
    assert out.details["passed"]
    inc = make(
        [unit("u", grade="B", in_command=False)],
        house={"options": {"percentile_strict": False, "percentile_reading": "1-100"}},
    )
    o2, _ = odds(inc, "morale", unit="u")
    assert o2.p("pass") == Fraction(80, 100)
    _, out = run(inc, "morale", [80], unit="u")
    assert out.details["passed"]


def test_percentile_reads_00_to_99_by_default() -> None:
    """Issue 14: a percentage is how often a test passes: 80% passes 80 times in 100 (the dice
    read 00-99, below the figure); the face 00 is a roll."""
    s = make([unit("u", grade="B", in_command=False)])
    o, _ = odds(s, "morale", unit="u")
    assert o.p("pass") == Fraction(80, 100)
    _, out = run(s, "morale", [0], unit="u")
    assert out.details["passed"]
    _, out = run(s, "morale", [79], unit="u")
    assert out.details["passed"]
    _, out = run(s, "morale", [80, 10], unit="u")
    assert not out.details["passed"]
    with pytest.raises(DiceError):
        run(s, "morale", [100, 10], unit="u")


def test_charge_and_charge_home_below_strict() -> None:
    s = make([unit("u", grade="C", advancing=True), unit("t", "Allies", grade="C")])
    (o,) = odds(activate(s, "u"), "charge", unit="u", target="t")  # (advancing: no D6, K74)
    assert o.p("pass") == Fraction(65, 100)  # 00-99 (issue 14)
    h = make(
        [unit("u", grade="C", charge_state="declared", charge_target="t"), unit("t", "Allies")]
    )
    (oh,) = odds(h, "charge_home", unit="u")
    assert oh.p("pass") == Fraction(60, 100)


def test_morale_casualties_count_the_whole_battle_by_default() -> None:
    u = unit("u", figures=12, start_figures=18, casualties_turn=2, in_command=False)
    s = make([u])
    assert total(morale_modifiers(s, s.unit("u"), request("morale", {"unit": "u"}))) == -18
    t = make([u], house={"options": {"morale_casualties": "turn"}})
    assert total(morale_modifiers(t, t.unit("u"), request("morale", {"unit": "u"}))) == -6


def test_friends_routing_range_knob() -> None:
    me = unit("u", x=0.0, y=0.0, width=90.0, depth=30.0, in_command=False)
    far = unit("r", status="routing", x=0.0, y=800.0, width=90.0, depth=30.0)
    s = make([me, far])
    assert total(morale_modifiers(s, s.unit("u"), request("morale", {"unit": "u"}))) == 0
    anywhere = make([me, far], house={"options": {"friends_routing_range_mm": 0}})
    assert (
        total(morale_modifiers(anywhere, anywhere.unit("u"), request("morale", {"unit": "u"})))
        == -10
    )


def test_move_odds_cover_every_roll_including_the_swerve_distance() -> None:
    s = activate(make([unit("u", advancing=False)]), "u")
    stand, rnd, sw, dist = odds(s, "move", unit="u")
    assert "standstill" in stand.label and "swerve distance" in dist.label
    assert dist.p("6") == Fraction(1, 6) and sw.p("left") == Fraction(1, 6)
    assert sum((r.p for r in rnd.rows), Fraction(0)) == 1


def test_charge_odds_refuse_what_the_charge_refuses() -> None:
    far = make(
        [
            unit("u", x=0.0, y=0.0, width=90.0, depth=30.0),
            unit("t", "Allies", x=0.0, y=900.0, width=90.0, depth=30.0, facing=180.0),
        ]
    )
    s = activate(far, "u")
    with pytest.raises(RuleViolation, match="charge reach"):
        odds(s, "charge", unit="u", target="t")
    with pytest.raises(RuleViolation, match="charge reach"):
        run(s, "charge", [6, 1], unit="u", target="t")


def test_volleys_split_between_targets_one_disorder() -> None:
    """Kuryakin, Firing: each volley is calculated independently; the round of firing is 1D."""
    f = unit("f", figures=20, front=10)  # two volleys
    s = activate(make([f, unit("t1", "Allies"), unit("t2", "Allies")]), "f")
    # volley 1 at t1: d6=4 -> 3 at short; saves 6,6,6
    s, out = run(s, "fire", [4, 6, 6, 6], unit="f", target="t1", range="short", volleys=1)
    assert out.details["actual"] == 3
    assert s.unit("f").volleys_fired == 1 and s.unit("f").disorder == 1
    (o,) = odds(s, "fire", unit="f", target="t2", range="long")
    assert "1 volley(s)" in (o.note or "")
    # volley 2 at t2, long: d6=4 -> 1; save 6
    s, out = run(s, "fire", [4, 6], unit="f", target="t2", range="long")
    assert out.details["actual"] == 1
    assert s.unit("f").volleys_fired == 2 and s.unit("f").disorder == 1
    with pytest.raises(RuleViolation, match="already fired its 2 volley"):
        run(s, "fire", [], unit="f", target="t1", range="short")


def test_odds_for_collision_evade_random_chance_and_require() -> None:
    s = make([unit("a"), unit("b", "Allies"), unit("s", formation="skirmish", front=18)])
    (ca, cb) = odds(s, "disorder", cause="collision", units=["a", "b"])
    assert ca.p("3") == Fraction(1, 3) and "b collision" in cb.label
    (ev,) = odds(s, "evade", unit="s")
    assert ev.p("20") == Fraction(1, 20)
    s = make([unit("a"), unit("b", "Allies")])
    s = replace(s, chance={"French": "smoke"})  # a held card
    (ch,) = odds(s, "chance", side="French", on="random")
    assert ch.p("b") == Fraction(1, 2)
    acted = make([unit("a", acted=True, in_command=False)])
    mo, _ = odds(acted, "require", unit="a")
    assert mo.p("pass") == Fraction(65, 100)  # 00-99 (issue 14)
    assert odds(make([unit("a")]), "require", unit="a") == []


def test_staff_officer_attached_to_the_battery_counts() -> None:
    from vedette.rules.solo_napoleonic.fire import plan

    gun = unit("g", kind="foot_artillery", formation="unlimbered", figures=3)
    s = activate(make([gun, unit("t", "Allies")], [general("S", attached_to="g")]), "g")
    p = plan(s, request("fire", {"unit": "g", "target": "t", "range": "short"}))
    assert [m.value for m in p.modifiers] == [1]
    p2 = plan(
        s, request("fire", {"unit": "g", "target": "t", "range": "short", "staff_officer": False})
    )
    assert p2.modifiers == ()


def test_no_officer_minus_5_in_the_charge_test_too() -> None:
    """Optional rules: "No officer: -5% to all morale" (the Charge Test is a morale test)."""
    s = make(
        [unit("u", officer="dead"), unit("t", "Allies")],
        options={"officers": True},
    )
    from vedette.rules.solo_napoleonic.morale import charge_modifiers

    ms = charge_modifiers(
        s, s.unit("u"), s.unit("t"), request("charge", {"unit": "u", "target": "t"})
    )
    assert [m.value for m in ms] == [-5]
    off = make([unit("u", officer="dead"), unit("t", "Allies")])
    assert (
        charge_modifiers(
            off, off.unit("u"), off.unit("t"), request("charge", {"unit": "u", "target": "t"})
        )
        == ()
    )


def test_charge_home_waits_for_the_targets_forced_morale_test() -> None:
    s = activate(make([unit("u", grade="B"), unit("t", "Allies", grade="C")]), "u")
    s, _ = run(s, "charge", [6, 10], unit="u", target="t")
    assert s.unit("t").morale_due
    with pytest.raises(RuleViolation, match="must first take the morale test"):
        run(s, "charge_home", [10], unit="u")
    with pytest.raises(RuleViolation, match="must first take the morale test"):
        odds(s, "charge_home", unit="u")
    s, _ = run(s, "morale", [10], unit="t", charged_by="u")
    # issue 14: the guided charge: the target's defensive fire (held), the charger moves up
    with pytest.raises(RuleViolation, match="the fire step is owed"):
        run(s, "charge_home", [10], unit="u")
    s, _ = run(s, "fire", [], unit="t", target="u", hold=True)
    s, _ = run(s, "close", [], unit="u")
    s, out = run(s, "charge_home", [10], unit="u")
    assert out.details["home"] and s.unit("u").charge_state == "home"


def test_attached_general_and_officer_both_in_the_front_rank() -> None:
    """Both can be hit: the officer holds front position 1, the general the next free one."""
    gens = [general("G", "Allies", th="average", av="normal", cr=6, attached_to="t")]
    s = activate(
        make(
            [unit("f", figures=10, front=5), unit("t", "Allies", front=9)],
            gens,
            {"officers": True},
        ),
        "f",
    )
    # 1 volley d6=4: 3 at short; saves 1,1,1; allocation: 1 = officer, 2 = the general (save
    # d6=2: killed), 3 = a soldier
    s2, out = run(s, "fire", [4, 1, 1, 1, 1, 2, 2, 3], unit="f", target="t", range="short")
    assert out.details["specials_hit"] == ["officer"] and out.details["general_killed"]
    assert s2.unit("t").officer == "dead" and s2.unit("t").figures == 16


def test_every_missing_table_is_labelled_an_assumption() -> None:
    """seeds README: the grade table, move distances, artillery Range Table, D10 chart, reasons
    for testing, chance deck, Grade A morale BPL and TH/AV rows 1-2 ship as labelled defaults."""
    _, out = run(make([]), "assumptions")
    paths = out.details["assumptions"]
    for p in (
        "generals.th_rows[0]",
        "generals.av_rows[0]",
        "generals.grade_rows (all 3 entries)",
        "move_distances",
        "artillery_ranges.foot (all 3 entries)",
        "tables.morale_result",
        "morale_reasons",
        "chance_cards (all 10 entries)",
        "bpl.morale (A)",
    ):
        assert p in paths, p
    assert out.events == ()


def test_house_rules_replace_a_default_table() -> None:
    house = {
        "bpl": {"morale": {"A": 90}},
        "tables": {
            "morale_result": {
                "dice": "1d10",
                "rows": [
                    {
                        "range": "1-10",
                        "key": "rout",
                        "result": "routs",
                        "status": "routing",
                        "rally": True,
                    }
                ],
            }
        },
    }
    s = make([unit("u", grade="A", in_command=False)], house=house)
    o, r = odds(s, "morale", unit="u")
    assert o.p("pass") == Fraction(90, 100) and r.p("rout") == 1
