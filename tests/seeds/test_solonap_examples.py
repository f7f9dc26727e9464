"""Worked examples and numbers of Kuryakin's Solo Napoleonic Wargames Rules (seed 004), with
the dice forced to reproduce them."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "solo_napoleonic"))

from dataclasses import replace

from solonap_helpers import activate, general, make, odds, run, unit

from vedette.dice import CUSTOM
from vedette.rules.solo_napoleonic.common import allocation_die
from vedette.rules.solo_napoleonic.model import State


def lancer_example() -> State:
    """Kuryakin, Movement: 'a lancer unit with card #4 decide to charge an infantry battalion
    in line holding card #15' — 25 units on the table, so cards 1-25; a controlled French
    formation of three battalions holds one card, so two numbers (5 and 6) are not issued."""
    units = [unit(f"F{i}", brigade="B1") for i in (1, 2, 3)]
    units.append(
        unit("lancers", kind="light_cavalry", grade="B", figures=12, formation="mounted", front=6)
    )
    units.append(unit("bn15", "Allies", formation="line"))
    units += [unit(f"X{i}", "Allies") for i in range(20)]
    assert len(units) == 25
    gens = [general("B1", th="average", av="normal", cr=6, grade="average")]
    s = make(units, gens)
    s, _ = run(s, "control", [1])
    numbers = {"B1": 1, "X0": 2, "X1": 3, "lancers": 4, "bn15": 15}
    free = [n for n in range(7, 26) if n != 15]
    for i in range(2, 20):
        numbers[f"X{i}"] = free[i - 2]
    s, out = run(s, "deal", [], cards=numbers, chance={})
    assert out.details["spare"] == [5, 6]
    return s


def test_card_15_jumps_to_6_5() -> None:
    """Kuryakin, Movement: the infantry (#15) charged by the lancers (#4) jump to '6.5'."""
    s = lancer_example()
    for _ in range(4):
        s, _ = run(s, "next")
    assert s.active == "lancers"
    # charge test: B class charge BPL 75; d100=40 passes
    s, out = run(s, "charge", [6, 40], unit="lancers", target="bn15")
    card = s.card_of("bn15")
    assert card is not None and card.key == 6.5 and card.key_text() == "6.5"
    assert "jumps to card '6.5'" in out.message
    inf = s.unit("bn15")
    assert inf.morale_due and inf.restricted_to == "lancers"
    # it acts straight after the lancers, before card #7
    s, _ = run(s, "next")
    assert s.active == "bn15"
    s, _ = run(s, "next")
    assert s.active == s.queue()[0].holder and s.card_of(s.active).key == 7  # type: ignore[union-attr]


def test_a_second_unit_attacked_goes_after_the_first_jumper() -> None:
    s = lancer_example()
    for _ in range(4):
        s, _ = run(s, "next")
    s, _ = run(s, "charge", [6, 40], unit="lancers", target="bn15")
    from vedette.rules.solo_napoleonic.cards import jump_key

    assert jump_key(s, "lancers", "X5") == 6.75


def test_unit_that_already_moved_tests_at_once() -> None:
    """Kuryakin, Movement: a unit that has already moved and must test morale does so at once."""
    s = lancer_example()
    s, _ = run(s, "next")  # B1 (F1-F3)
    s, _ = run(s, "next")  # X0
    s, _ = run(s, "next")  # X1
    s, _ = run(s, "next")  # lancers; X0 has acted
    s, out = run(s, "charge", [6, 40], unit="lancers", target="X0")
    assert "already acted" in out.message
    assert s.card_of("X0").key == 2  # type: ignore[union-attr]
    assert s.unit("X0").morale_due


def test_sixteen_figures_in_four_ranks_d20_ignoring_17_to_20() -> None:
    """Kuryakin, Melee: 'If 16 figures in 4 ranks, roll a D20 x times ignoring 17-20'."""
    assert allocation_die(16) == 20
    attacker = unit("att", grade="C", figures=20, front=5, advancing=True)
    defender = unit("def", "Allies", figures=16, front=4)
    # with officers on the table (optional rule) the allocation roll finds out who is hit
    s = activate(make([attacker, defender], options={"officers": True}), "att")
    s = s.with_unit(replace(s.unit("att"), charge_state="home", charge_target="def"))
    # attacker 20 points -> 4 dice; +1 hit enemy standing (defender not advancing)
    # dice 5,5,5,5 (+1 each) = 24 -> 12 potential; 12 saves: ten 1s, two 6s -> 10 casualties
    # defender: 16 points -> 3 dice 1,1,1 = 3 -> 1.5: d100=80 (> 50) -> 1; save roll 6 -> 0
    faces = [5, 5, 5, 5] + [1] * 10 + [6, 6] + [1, 1, 1] + [80] + [6]
    # allocation of 10 casualties among the defender's 16: D20 with 17-20 ignored
    alloc = [17, 3, 20, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    s2, out = run(s, "melee", faces + alloc, unit="att", target="def")
    assert out.details["inflicted"] == {"att": 10, "def": 0}
    assert s2.unit("def").figures == 6
    labels = [r.label for r in out.rolls if r.label.startswith("casualty ")]
    assert labels[0] == "casualty 1 of 10: figure 3 of 16 (ignored 17)"
    assert labels[1] == "casualty 2 of 10: figure 4 of 16 (ignored 20)"
    assert len(labels) == 10


def test_marked_movement_dice() -> None:
    """Kuryakin, Random Movement: D8 marked +1,+2,+3,0,0,-1,-2,-3; D12 +5 to -5 (two zeros)."""
    assert sorted(CUSTOM["K8"].faces) == [-3, -2, -1, 0, 0, 1, 2, 3]
    assert sorted(CUSTOM["K12"].faces) == [-5, -4, -3, -2, -1, 0, 0, 1, 2, 3, 4, 5]


def test_volley_fractions_three_quarters_and_one_quarter() -> None:
    """Kuryakin, Firing: ¾ of the hits count at short range, ¼ at long; fractions by d100."""
    firer = unit("f", figures=20, front=10)  # 10 in the front rank: 2 volleys
    tgt = unit("t", "Allies", figures=18, front=9)
    s = activate(make([firer, tgt]), "f")
    # volleys 4 + 3 = 7 hits; short: 7 × ¾ = 5¼ -> d100=20 (≤25) -> 6; saves on 5-6
    faces = [4, 3, 20, *[1, 2, 3, 4, 5, 6]]
    s2, out = run(s, "fire", faces, unit="f", target="t", range="short")
    assert out.details["hits"] == 7 and out.details["actual"] == 6
    assert out.details["casualties"] == 4
    assert s2.unit("t").figures == 14


def test_french_battalion_of_18_at_1_to_40() -> None:
    """Kuryakin, Scale: an average French battalion of 18 figures; in line (2 ranks) 9 in the
    front rank: one volley of 5, the other 4 do not fire."""
    s = make([unit("f", figures=18)])
    assert s.unit("f").front == 9
    (o,) = odds(
        activate(make([unit("f", figures=18), unit("t", "Allies")]), "f"),
        "fire",
        unit="f",
        target="t",
        range="long",
    )
    assert "1 volley(s)" in (o.note or "")
    assert sum((r.p for r in o.rows), Fraction(0)) == 1


@pytest.mark.parametrize(("grade", "bpl"), [("B", 80), ("C", 65), ("D", 50)])
def test_morale_bpl(grade: str, bpl: int) -> None:
    s = make([unit("u", grade=grade, in_command=False)])
    o, _ = odds(s, "morale", unit="u", in_command=False)
    assert o.p("pass") == Fraction(bpl, 100)  # 00-99 (issue 14)
