"""Generals: random staff, national variations, historical entry, the control phase
(Kuryakin, Generals; National Variations; Movement)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from solonap_helpers import general, make, odds, run, unit

from vedette.errors import BadRequest, RuleViolation


@pytest.mark.parametrize(
    ("face", "th", "av"),
    [
        (1, "below_average", "timid"),
        (2, "below_average", "timid"),
        (3, "average", "normal"),
        (4, "average", "normal"),
        (5, "above_average", "aggressive"),
        (6, "above_average", "aggressive"),
    ],
)
def test_th_and_av_tables(face: int, th: str, av: str) -> None:
    s = make([unit("u1", brigade="B1")], [general("B1")])
    s, _ = run(s, "staff", [face, face, 4])
    g = s.general("B1")
    assert (g.th, g.av) == (th, av)


@pytest.mark.parametrize(
    ("face", "grade", "cr"),
    [
        (1, "poor", 4),
        (2, "poor", 4),
        (3, "average", 6),
        (6, "average", 6),
        (7, "good", 7),
        (8, "good", 7),
    ],
)
def test_grade_table_default(face: int, grade: str, cr: int) -> None:
    s = make([], [general("B1")])
    s, out = run(s, "staff", [3, 3, face])
    assert (s.general("B1").grade, s.general("B1").cr) == (grade, cr)
    assert out.rolls[2].label == "B1 Grade / Control Rating"


@pytest.mark.parametrize(
    ("nation", "faces", "expect"),
    [
        ("British", [4, 3, 3], ("above_average", "normal", 6)),  # +1 TH: 4 -> 5
        ("Austrian", [3, 3, 3], ("below_average", "normal", 5)),  # -1 TH, -1 CR (6 -> 5)
        ("Russian", [3, 4, 3], ("average", "aggressive", 5)),  # +1 AV, -1 CR
        ("Prussian", [3, 4, 3], ("below_average", "aggressive", 6)),  # -1 TH, +1 AV
        ("Spanish", [3, 3, 3], ("below_average", "timid", 5)),  # -1 all three
        ("Spanish", [3, 3, 8], ("below_average", "timid", 6)),  # Good CR 7 -> 6
        ("French", [3, 3, 3], ("average", "normal", 6)),
    ],
)
def test_national_variations(nation: str, faces: list[int], expect: tuple[str, str, int]) -> None:
    s = make([], [general("G", nation=nation)])
    s, out = run(s, "staff", faces)
    g = s.general("G")
    assert (g.th, g.av, g.cr) == expect
    if nation != "French":
        assert any(
            m.rule == "Kuryakin, National Variations" for r in out.rolls for m in r.modifiers
        )


def test_national_cr_moves_the_rating_for_every_grade() -> None:
    """Kuryakin, National Variations: "-1 CR" is one less Control Rating whatever the grade
    roll (the same dice give the French general one more)."""
    for face in range(1, 9):
        fr, _ = run(make([], [general("G", nation="French")]), "staff", [3, 3, face])
        au, out = run(make([], [general("G", nation="Austrian")]), "staff", [4, 3, face])
        cr_fr, cr_au = fr.general("G").cr, au.general("G").cr
        assert cr_fr is not None and cr_au == cr_fr - 1
        assert f"= {cr_au}" in (out.rolls[2].consequence or "")


def test_national_cr_on_the_roll_knob() -> None:
    house = {"options": {"nation_cr_on": "roll"}}
    s, _ = run(make([], [general("G", nation="Austrian")], house=house), "staff", [3, 3, 3])
    assert (s.general("G").grade, s.general("G").cr) == ("poor", 4)  # roll 3-1 = 2: Poor


def test_national_cr_odds_show_the_rating() -> None:
    s = make([], [general("G", nation="Russian"), general("H", nation="British")])
    os_ = odds(s, "staff")
    assert len(os_) == 6  # every general's three rolls
    assert os_[2].rows[0].result.endswith("CR 3 (Russian -1 CR)")
    assert os_[3].p("above_average") == Fraction(1, 2)  # British TH roll +1


def test_national_odds_shift() -> None:
    s = make([], [general("G", nation="British")])
    th, _, _ = odds(s, "staff")
    assert th.p("above_average") == Fraction(1, 2)
    assert th.p("below_average") == Fraction(1, 6)


def test_historical_entry_rolls_nothing() -> None:
    s = make([], [general("G")])
    s, out = run(s, "staff", [], general="G", th="above_average", av="aggressive", cr=7)
    g = s.general("G")
    assert (g.th, g.av, g.cr, g.grade) == ("above_average", "aggressive", 7, "good")
    assert out.rolls == ()


def test_historical_bad_value_refused() -> None:
    s = make([], [general("G")])
    with pytest.raises(BadRequest, match="'th'"):
        run(s, "staff", [], general="G", th="brilliant")


def test_all_rated_refused() -> None:
    s = make([], [general("G", th="average", av="normal", cr=6, grade="average")])
    with pytest.raises(RuleViolation, match="already rated"):
        run(s, "staff", [])


# -- control phase ------------------------------------------------------------------------------
def rated(gid: str, cr: int = 6, **kw: object) -> dict[str, object]:
    return general(gid, th="average", av="normal", cr=cr, grade="average", **kw)


def test_control_needs_less_than_cr() -> None:
    s = make([unit("u1", brigade="B1")], [rated("B1", cr=6)])
    s2, _ = run(s, "control", [5])
    assert s2.control == {"B1": "passed"} and s2.phase == "cards"
    s3, _ = run(s, "control", [6])
    assert s3.control == {"B1": "failed"}
    (o,) = odds(s, "control")
    assert o.p("pass") == Fraction(5, 8)


def test_control_senior_within_300mm_from_positions() -> None:
    gens = [
        rated("B1", cr=5, superior="D1", x=0.0, y=0.0),
        general(
            "D1", rank="division", th="average", av="normal", cr=6, grade="good", x=0.0, y=300.0
        ),
    ]
    s = make([unit("u1", brigade="B1")], gens)
    (o,) = odds(s, "control")
    assert o.p("pass") == Fraction(6, 8)  # good senior: -2 on the roll -> target 7
    far = make([unit("u1", brigade="B1")], [gens[0], {**gens[1], "y": 301.0}])
    (o2,) = odds(far, "control")
    assert o2.p("pass") == Fraction(4, 8)


def test_control_senior_stated() -> None:
    gens = [
        rated("B1", cr=5, superior="D1"),
        general("D1", rank="division", th="average", av="normal", cr=6, grade="average"),
    ]
    s = make([unit("u1", brigade="B1")], gens)
    (o,) = odds(s, "control", seniors_near=["D1"])
    assert o.p("pass") == Fraction(5, 8)  # average senior -1 on the roll: target 6
    (o0,) = odds(s, "control")
    assert o0.p("pass") == Fraction(4, 8)


def test_units_beyond_150mm_out_of_command() -> None:
    units = [
        unit("near", brigade="B1", x=0.0, y=100.0, width=90.0, depth=30.0),
        unit("far", brigade="B1", x=0.0, y=200.0, width=90.0, depth=30.0),
    ]
    s = make(units, [rated("B1", x=0.0, y=0.0)])
    s, out = run(s, "control", [1])
    assert s.unit("near").in_command and not s.unit("far").in_command
    assert "far out of command" in out.message


def test_out_of_command_stated() -> None:
    s = make([unit("a", brigade="B1"), unit("b", brigade="B1")], [rated("B1")])
    s, _ = run(s, "control", [1], out_of_command=["b"])
    assert s.unit("a").in_command and not s.unit("b").in_command


def test_control_twice_refused() -> None:
    s = make([unit("a", brigade="B1")], [rated("B1")])
    s, _ = run(s, "control", [1])
    with pytest.raises(RuleViolation):
        run(s, "control", [1])


def test_control_needs_rating() -> None:
    s = make([unit("a", brigade="B1")], [general("B1")])
    with pytest.raises(RuleViolation, match="staff"):
        run(s, "control", [1])
