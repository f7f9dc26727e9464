"""Morale, rallying, the charge test and the charge home test (Kuryakin, Morale; Charge Test;
Charge Home Test; Optional Rules)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from solonap_helpers import activate, general, in_play, make, odds, request, run, unit

from vedette.dice import total
from vedette.errors import RuleViolation
from vedette.rules.solo_napoleonic.morale import (
    charge_modifiers,
    home_modifiers,
    morale_modifiers,
)

BASE = {"in_command": False}


def mtotal(
    u: dict[str, object],
    req: dict[str, object],
    gens: list[dict[str, object]] = (),  # type: ignore[assignment]
    opts: dict[str, object] | None = None,
    others: list[dict[str, object]] = (),
) -> int:  # type: ignore[assignment]
    s = make([unit("u", **{**BASE, **u}), *others], list(gens), opts)
    return total(morale_modifiers(s, s.unit("u"), request("morale", {"unit": "u", **req})))


@pytest.mark.parametrize(
    ("u", "req", "value"),
    [
        ({}, {"flank_rear": True}, -25),
        ({}, {"friendly_within_300": 1}, 10),
        ({}, {"friendly_within_300": 3}, 30),
        ({}, {"friendly_within_300": 5}, 30),  # max 3
        ({"in_command": True}, {}, 15),
        ({}, {"defending_cover": True}, 20),
        ({"figures": 14, "start_figures": 18}, {}, -12),  # every casualty so far
        ({"figures": 14, "start_figures": 18, "casualties_turn": 1}, {}, -12),
        ({}, {"casualties": 2}, -6),
        ({}, {"artillery_no_reply": True}, -10),
        ({"disorder": 3}, {}, -15),
        ({}, {"charged_by_higher_class": True}, -10),
        ({}, {"melee_loser": True}, -15),
        ({"lost_melee": True}, {}, -15),
        ({}, {"co_killed": True}, -15),
        ({}, {"corps_killed": True}, -20),
        ({"status": "retiring"}, {}, -10),
        ({"status": "routing"}, {}, -20),
        ({}, {"friends_routing": 2}, -20),
        ({"formation": "square"}, {"vs_cavalry": True}, 40),
        ({}, {"vs_cavalry": True}, -30),
    ],
)
def test_morale_modifier(u: dict[str, object], req: dict[str, object], value: int) -> None:
    assert mtotal(u, req) == value


def test_attached_generals() -> None:
    g = general("G", rank="brigadier", attached_to="u")
    assert mtotal({}, {}, [g]) == 10
    c = general("C", rank="corps", attached_to="u")
    assert mtotal({}, {}, [c]) == 20
    assert mtotal({}, {}, [g, c]) == 30  # each line counts (reading K104; K45 took the larger)


def test_charged_by_higher_class_and_cavalry_computed() -> None:
    hussars = unit("h", "Allies", kind="light_cavalry", grade="B", formation="mounted")
    assert mtotal({"grade": "C"}, {"charged_by": "h"}, others=[hussars]) == -10 - 30


def test_friends_within_300mm_from_positions() -> None:
    place = {"x": 0.0, "y": 0.0, "width": 100.0, "depth": 30.0}
    near = [unit(f"n{i}", x=0.0, y=100.0 * (i + 1), width=100.0, depth=30.0) for i in range(4)]
    # edges 70, 170, 270, 370mm away: three within 300mm
    assert mtotal(place, {}, others=near) == 30


def test_officer_dead_optional() -> None:
    assert mtotal({"officer": "dead"}, {}, opts={"officers": True}) == -5
    assert mtotal({"officer": "dead"}, {}, opts={}) == 0
    assert mtotal({}, {"officer_front": False}, opts={"officers": True}) == -5


def test_morale_percent_odds_exact() -> None:
    s = make([unit("u", grade="C", disorder=1, in_command=True)])
    o, r = odds(s, "morale", unit="u")
    assert o.p("pass") == Fraction(65 + 15 - 5, 100)  # 00-99 (issue 14)
    assert sum((x.p for x in r.rows), Fraction(0)) == 1


def test_morale_pass_and_fail_with_result_chart() -> None:
    s = make([unit("u", grade="C", in_command=False, morale_due=True)])
    s2, out = run(s, "morale", [64], unit="u")
    assert out.details["passed"] and not s2.unit("u").morale_due
    s3, out = run(s, "morale", [65, 1], unit="u")  # must be BELOW 65
    u = s3.unit("u")
    assert out.details["result"] == "rout"
    # the 2D are the rout move's (Disorder: "Each move of Rout 2D"), owed at once (issue 23)
    assert (u.status, u.disorder, u.must_rally, u.bound) == ("routing", 0, True, "rout")


@pytest.mark.parametrize(
    ("face", "key", "rally"),
    [
        (1, "rout", True),
        (2, "rout", True),
        (3, "retire_disorder", True),
        (4, "retire_disorder", True),
        (5, "retire", False),
        (7, "halt_disorder", False),
        (10, "halt", False),
    ],
)
def test_result_chart_first_two_need_rallying(face: int, key: str, rally: bool) -> None:
    s = make([unit("u", in_command=False)])
    s2, out = run(s, "morale", [99, face], unit="u")
    assert out.details["result"] == key and s2.unit("u").must_rally is rally


def test_rally() -> None:
    s = make([unit("u", grade="B", status="routing", must_rally=True, in_command=False)])
    s = activate(s, "u")  # (a unit rallies on its own card)
    s2, _ = run(s, "rally", [59], unit="u")  # 80 - 20 (routing) = 60
    assert s2.unit("u").status == "steady" and not s2.unit("u").must_rally
    s3, _ = run(s, "rally", [60], unit="u")
    assert s3.unit("u").must_rally
    with pytest.raises(RuleViolation):
        run(s2, "rally", [1], unit="u")


# -- charge test ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("grade", "bpl"), [("A", 85), ("B", 75), ("C", 65), ("D", 55)])
def test_charge_bpl(grade: str, bpl: int) -> None:
    s = make([unit("u", grade=grade, advancing=True), unit("t", "Allies", grade=grade)])
    (o,) = odds(activate(s, "u"), "charge", unit="u", target="t")  # (advancing: no D6, K74)
    assert o.p("pass") == Fraction(bpl, 100)  # 00-99 (issue 14)


@pytest.mark.parametrize(
    ("gens", "value"),
    [
        ([general("B", av="normal", attached_to="u")], 10),
        ([general("B", av="timid", attached_to="u")], -10),
        ([general("B", av="aggressive", attached_to="u")], 20),
        ([general("D", rank="division", av="normal", attached_to="u")], 20),
        ([general("D", rank="corps", av="timid", attached_to="u")], -5),
        ([general("D", rank="division", av="aggressive", attached_to="u")], 25),
        (
            [
                general("B", av="aggressive", attached_to="u"),
                general("D", rank="corps", av="aggressive", attached_to="u"),
            ],
            45,
        ),
    ],
)
def test_charge_modifiers_by_attack_value(gens: list[dict[str, object]], value: int) -> None:
    s = make([unit("u"), unit("t", "Allies")], gens)
    assert (
        sum(
            m.value
            for m in charge_modifiers(
                s, s.unit("u"), s.unit("t"), request("charge", {"unit": "u", "target": "t"})
            )
        )
        == value
    )


def test_charge_inferior_and_standard_dead() -> None:
    s = make(
        [unit("u", grade="B", standard="dead"), unit("t", "Allies", grade="D")],
        options={"standards": True},
    )
    ms = charge_modifiers(
        s, s.unit("u"), s.unit("t"), request("charge", {"unit": "u", "target": "t"})
    )
    assert sorted(m.value for m in ms) == [-10, 10]


def test_charge_fail_changes_nothing_but_binds() -> None:
    s = activate(make([unit("u", advancing=True), unit("t", "Allies")]), "u")
    s2, out = run(s, "charge", [65], unit="u", target="t")
    assert not out.details["charges"]
    # issue 14: the failure is remembered for the turn, and nothing else changes
    assert s2.unit("u").charge_failed and replace(s2.unit("u"), charge_failed=False) == s.unit("u")
    assert s2.unit("t") == s.unit("t") and s2.cards == s.cards


# -- charge home --------------------------------------------------------------------------------
@pytest.mark.parametrize(("grade", "bpl"), [("A", 90), ("B", 75), ("C", 60), ("D", 55)])
def test_charge_home_bpl(grade: str, bpl: int) -> None:
    s = make(
        [unit("u", grade=grade, charge_state="declared", charge_target="t"), unit("t", "Allies")]
    )
    (o,) = odds(s, "charge_home", unit="u")
    assert o.p("pass") == Fraction(bpl, 100)  # 00-99 (issue 14)


@pytest.mark.parametrize(
    ("u", "t", "req", "value"),
    [
        ({}, {}, {"uphill": True}, -5),
        ({}, {"disorder": 2}, {}, 10),
        ({"casualties_turn": 3}, {}, {}, -15),
        ({}, {}, {"obstacle": "obstacle"}, -10),
        ({}, {}, {"obstacle": "building"}, -20),
        ({"disorder": 1}, {}, {}, -5),
        ({"kind": "light_cavalry", "formation": "mounted"}, {}, {}, -50),
        (
            {"kind": "light_cavalry", "formation": "mounted"},
            {"morale_failed": True},
            {"test": True},
            0,
        ),
    ],
)
def test_charge_home_modifiers(
    u: dict[str, object], t: dict[str, object], req: dict[str, object], value: int
) -> None:
    s = make([unit("u", charge_state="declared", charge_target="t", **u), unit("t", "Allies", **t)])
    ms = home_modifiers(s, s.unit("u"), s.unit("t"), request("charge_home", {"unit": "u", **req}))
    assert sum(m.value for m in ms) == value


def test_charge_home_attached_and_optional() -> None:
    gens = [general("B", attached_to="u"), general("D", rank="corps", attached_to="u")]
    s = make(
        [
            unit("u", charge_state="declared", charge_target="t", officer="dead", standard="dead"),
            unit("t", "Allies"),
        ],
        gens,
        {"officers": True, "standards": True},
    )
    ms = home_modifiers(s, s.unit("u"), s.unit("t"), request("charge_home", {"unit": "u"}))
    assert sorted(m.value for m in ms) == [-10, -5, 10, 20]


def test_charge_home_no_test_when_target_failed_and_no_casualties() -> None:
    s = make(
        [
            unit(
                "u",
                kind="light_cavalry",
                formation="mounted",
                charge_state="declared",
                charge_target="t",
            ),
            unit("t", "Allies", morale_failed=True),
        ]
    )
    s2, out = run(in_play(s), "charge_home", [], unit="u")
    assert s2.unit("u").charge_state == "home" and out.rolls == ()


def test_charge_home_failures() -> None:
    inf = make(
        [unit("u", grade="C", charge_state="declared", charge_target="t"), unit("t", "Allies")]
    )
    s2, out = run(in_play(inf), "charge_home", [60], unit="u")
    assert "fires a volley" in out.message and s2.unit("u").charge_state == "halted"
    timid = make(
        [
            unit(
                "u",
                grade="C",
                charge_state="declared",
                charge_target="t",
                brigade="B",
                x=100.0,
                y=500.0,
                facing=0.0,
            ),
            unit("t", "Allies"),
        ],
        [general("B", av="timid")],
    )
    s3, out = run(in_play(timid), "charge_home", [99], unit="u")
    assert "retires 100mm" in out.message and s3.unit("u").y == 400.0


# -- percentile tests branch per result when their odds are enumerated (issue 17) -------------
@pytest.mark.parametrize(
    ("proc", "req", "dice"),
    [
        ("morale", {"unit": "u"}, [70, 3]),  # C 65: fails; chart D10 3
        ("rally", {"unit": "r"}, [12]),
        ("charge", {"unit": "u", "target": "e"}, [40]),
    ],
)
def test_percentile_tests_branch_per_result_and_roll_as_before(
    proc: str, req: dict[str, str], dice: list[int]
) -> None:
    """Enumerated: one branch per result (pass/fail, each row of the chart), with the odds the
    check states. Rolled (forced dice, physical dice): the faces recorded as before."""
    from vedette.dice import PhysicalSource, ScriptedSource
    from vedette.rules.protocol import chances
    from vedette.rules.solo_napoleonic import RULESET as R

    s = make(
        [
            unit("u", grade="C", in_command=False, morale_due=proc == "morale", advancing=True),
            unit("r", grade="C", status="routing", must_rally=True, in_command=False),
            unit("e", "Allies", grade="C"),
        ]
    )
    s = activate(s, "r" if proc == "rally" else "u")
    pr = R.procedures[proc]
    ch = chances(lambda d: pr.run(s, dict(req), d))
    assert ch.exact and ch.leaves <= 1 + 5  # a pass, or a failure and the chart's rows
    first = odds(s, proc, **req)[0]
    failed = sum(r.p for r in ch.rows if r.result.startswith(("fails", "will not")))
    assert failed == first.p("fail") and 0 < failed < 1
    for src in (ScriptedSource(list(dice)), PhysicalSource(list(dice))):
        out = pr.run(s, dict(req), src)
        faces = [f.face for r in out.rolls for f in r.faces]
        assert faces == dice and out.rolls[0].natural == dice[0]
        assert out.rolls[0].source == src.kind
