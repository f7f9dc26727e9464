"""Worked examples and numbers of Kuryakin's Solo Napoleonic Wargames Rules (seed 004), with
the dice forced to reproduce them."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "solo_napoleonic"))

from dataclasses import replace

from solonap_helpers import activate, general, make, odds, run, unit

from vedette.dice import CUSTOM
from vedette.errors import DataError
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


# == the text's tables, number by number, against the rule data ================================
# Each modifier list of the text as printed: (section of [modifiers], key) -> the printed value.
TEXT_MODIFIERS = {
    # Formation Changing (D4 quarters); "Musician dead (optional) -1": see below
    ("formation_change", "b_class"): -1,
    ("formation_change", "a_class"): -2,
    ("formation_change", "th_below_average"): 1,
    ("formation_change", "th_above_average"): -1,
    ("formation_change", "out_of_command"): 2,
    # Moving From A Standstill: +1 Aggressive, -1 Timid
    ("standstill", "aggressive"): 1,
    ("standstill", "timid"): -1,
    # Disorder, removing D factors
    ("reform", "d_class"): -1,
    ("reform", "officer_dead"): -1,
    ("reform", "musician_dead"): -1,
    # Firing, Infantry (each volley)
    ("volley", "ab_class"): 1,
    ("volley", "d_class"): -1,
    ("volley", "soft_cover"): -1,
    ("volley", "hard_cover"): -2,
    ("volley", "target_skirmishers"): -2,
    ("volley", "target_artillery"): -1,
    ("volley", "firer_moved"): -2,
    # Artillery
    ("artillery", "staff_officer"): 1,
    ("artillery", "target_square"): 2,
    ("artillery", "guards"): 1,
    ("artillery", "target_artillery"): -3,
    ("artillery", "crew_over_3"): 1,
    ("artillery", "crew_under_3"): -1,
    ("artillery", "russian_gunners"): -2,
    ("artillery", "minor_gunners"): -1,
    ("artillery", "soft_cover"): -1,
    ("artillery", "hard_cover"): -3,
    ("artillery", "firer_disorder"): -1,
    ("artillery", "battery_officer_dead"): -1,
    # Melee, Infantry vs. Infantry
    ("melee_infantry", "hit_standing"): 1,
    ("melee_infantry", "ab_class"): 1,
    ("melee_infantry", "d_class"): -1,
    ("melee_infantry", "disorder"): -1,
    # Melee, Cavalry vs. Cavalry
    ("melee_cavalry", "d_class"): -1,
    ("melee_cavalry", "hit_standing"): 1,
    ("melee_cavalry", "flank_rear"): 2,
    ("melee_cavalry", "disorder"): -1,
    # Morale (percent)
    ("morale", "flank_rear"): -25,
    ("morale", "friendly_within_300"): 10,
    ("morale", "in_command"): 15,
    ("morale", "defending_cover"): 20,
    ("morale", "casualties"): -3,
    ("morale", "brigadier_attached"): 10,
    ("morale", "corps_attached"): 20,
    ("morale", "artillery_no_reply"): -10,
    ("morale", "disorder"): -5,
    ("morale", "charged_by_higher_class"): -10,
    ("morale", "melee_loser"): -15,
    ("morale", "co_killed"): -15,
    ("morale", "corps_killed"): -20,
    ("morale", "retiring"): -10,
    ("morale", "routing"): -20,
    ("morale", "friends_routing"): -10,
    ("morale", "square_vs_cavalry"): 40,
    ("morale", "not_square_vs_cavalry"): -30,
    ("morale", "officer_dead"): -5,  # also Optional Rules: "No officer: -5% to all morale"
    # Charge Test (percent)
    ("charge", "brigadier_normal"): 10,
    ("charge", "brigadier_timid"): -10,
    ("charge", "brigadier_aggressive"): 20,
    ("charge", "charging_inferior"): 10,
    ("charge", "senior_normal"): 20,
    ("charge", "senior_timid"): -5,
    ("charge", "senior_aggressive"): 25,
    ("charge", "standard_dead"): -10,
    # Charge Home Test (percent)
    ("charge_home", "uphill"): -5,
    ("charge_home", "brigadier_attached"): 10,
    ("charge_home", "senior_attached"): 20,
    ("charge_home", "enemy_disorder"): 5,
    ("charge_home", "casualties_this_move"): -5,
    ("charge_home", "obstacle"): -10,
    ("charge_home", "building"): -20,
    ("charge_home", "disorder"): -5,
    ("charge_home", "cavalry_vs_steady_infantry"): -50,
    ("charge_home", "officer_dead"): -5,
    ("charge_home", "standard_dead"): -10,  # also Optional Rules: "-10% to Charge Home"
}


@pytest.mark.parametrize(("where", "value"), sorted(TEXT_MODIFIERS.items()))
def test_every_modifier_of_the_text(where: tuple[str, str], value: int) -> None:
    section, key = where
    assert make([]).config.modifiers[section][key].value == value


def test_the_text_modifier_lists_are_the_data_lists() -> None:
    """No modifier of those lists is missing from the transcription above, none added to the
    data beyond them but the readings the docs name: the formation change's dead musician (the
    text prints -1 where its optional rules say a dead musician slows the change; the data reads
    +1, an assumption) and the Charge Test's dead officer (the optional rules' "-5% to all
    morale", the Charge Test being "as for ordinary morale")."""
    c = make([]).config
    data = {(s, k) for s, entries in c.modifiers.items() for k in entries}
    readings = {("formation_change", "musician_dead"), ("charge", "officer_dead")}
    assert data - set(TEXT_MODIFIERS) == readings
    assert c.modifiers["formation_change"]["musician_dead"].value == 1
    assert "modifiers.formation_change.musician_dead" in c.assumptions
    assert c.modifiers["charge"]["officer_dead"].value == -5


def test_caps_and_groups_of_the_text() -> None:
    """ "Friendly unit within 300mm +10% (max. 3)"; "Each casualty", "Each 'D' factor", "Each
    crew figure", "Each friend routing" count per one; the two covers are one modifier."""
    m = make([]).config.modifiers
    assert m["morale"]["friendly_within_300"].per and m["morale"]["friendly_within_300"].cap == 3
    per = [
        ("morale", "casualties"),
        ("morale", "disorder"),
        ("morale", "friends_routing"),
        ("artillery", "crew_over_3"),
        ("artillery", "crew_under_3"),
        ("artillery", "firer_disorder"),
        ("melee_infantry", "disorder"),
        ("melee_cavalry", "disorder"),
        ("charge_home", "enemy_disorder"),
        ("charge_home", "casualties_this_move"),
        ("charge_home", "disorder"),
    ]
    assert all(m[s][k].per for s, k in per)
    assert m["volley"]["soft_cover"].group == m["volley"]["hard_cover"].group is not None


def test_base_percentage_levels_of_the_text() -> None:
    """Morale B 80 / C 65 / D 50; Charge Test B 75 / C 65 / D 55; Charge Home Test A 90 / B 75 /
    C 60 / D 55 (the morale and charge Grade A figures are missing: assumptions)."""
    b = make([]).config.bpl
    assert {g: b["morale"][g] for g in "BCD"} == {"B": 80, "C": 65, "D": 50}
    assert {g: b["charge"][g] for g in "BCD"} == {"B": 75, "C": 65, "D": 55}
    assert {g: b["charge_home"][g] for g in "ABCD"} == {"A": 90, "B": 75, "C": 60, "D": 55}


def test_generals_tables_of_the_text() -> None:
    """Troop Handling (D6): 3-4 Average, 5-6 Above Average; Attack Value (D6): 3-4 Normal, 5-6
    Aggressive; control range 150mm, seniors within 300mm; National Variations."""
    c = make([]).config
    th, av = c.ratings["th"], c.ratings["av"]
    assert [th.lookup(f).key for f in range(3, 7)] == ["average"] * 2 + ["above_average"] * 2
    assert [av.lookup(f).key for f in range(3, 7)] == ["normal"] * 2 + ["aggressive"] * 2
    assert (c.options.control_range_mm, c.options.senior_range_mm) == (150, 300)
    nations = {k: (n.th, n.av, n.cr) for k, n in c.nations.items()}
    assert nations == {
        "british": (1, 0, 0),
        "austrian": (-1, 0, -1),
        "russian": (0, 1, -1),
        "prussian": (-1, 1, 0),
        "spanish": (-1, -1, -1),
    }


def test_movement_and_fire_numbers_of_the_text() -> None:
    """Random Movement: D8 for infantry and foot guns, D12 for cavalry and horse guns; swerve 1
    left, 6 right. Firing: volleys of 5 figures in a 45° arc, skirmish frontage four times the
    normal, generals save on 3-6. Melee: a die per 5 points, 1 point per infantryman and per
    light cavalryman; saves 5-6, cuirassiers 4-6, infantry struck by cavalry 6, cavalry struck
    by infantry 5-6. Charge Home: a Timid CO retires 100mm. Skirmishers evade D20cm."""
    c = make([]).config
    assert {k: c.random_movement[k] for k in ("infantry", "foot_artillery")} == {
        "infantry": "dK8",
        "foot_artillery": "dK8",
    }
    assert {c.random_movement[k] for k in ("light_cavalry", "horse_artillery")} == {"dK12"}
    swerve = [c.swerve.lookup(f).key for f in (1, 2, 5, 6)]
    assert swerve == ["left", "straight", "straight", "right"]
    o = c.options
    assert (o.volley_figures, o.volley_arc_deg, o.skirmish_frontage_factor) == (5, 45, 4)
    assert o.skirmish_arc_deg == 90  # splayed 90° out from each front corner: 180° in all
    assert (o.general_save, o.melee_points_per_die, o.timid_retire_mm, o.evade_die) == (
        3,
        5,
        100,
        "d20",
    )
    assert (c.melee_points["infantry"], c.melee_points["light_cavalry"]) == (1, 1)
    sv = c.melee_saves
    assert (sv.infantry_vs_infantry, sv.cavalry_vs_cavalry, sv.cuirassier) == (5, 5, 4)
    assert (sv.infantry_vs_cavalry, sv.cavalry_vs_infantry) == (6, 5)


def test_firing_numbers_of_the_text() -> None:
    """Firing: "At Short range, ¾ are actual hits, and at Long range - ¼"; "Saving Throws: 5 or
    6 at Short range; 4,5,6 at Long range"; skirmishers hit on "5 or 6 at Short- Range ... and 6
    at Long range", their saves "as normal"; Artillery: "1D6 per battery firing ball, and 2D6
    for canister"."""
    f = make([]).config.fire
    assert (f.volley_share_short, f.volley_share_long) == (Fraction(3, 4), Fraction(1, 4))
    assert (f.save_short, f.save_long) == (5, 4)
    assert (f.skirmish_hit_short, f.skirmish_hit_long) == (5, 6)
    assert (f.ball_dice, f.canister_dice) == ("1d6", "2d6")


def test_melee_shares_of_the_text() -> None:
    """Melee: "Roll 1d6 per 5 points with 1/2 total as potential casualties"; "Skirmishers
    Inflict 1/2 casualties"."""
    m = make([]).config.melee
    assert (m.casualty_share, m.skirmisher_share) == (Fraction(1, 2), Fraction(1, 2))
    assert make([]).config.options.melee_points_per_die == 5


def test_a_house_rule_changes_the_melee_share() -> None:
    """[melee] casualty_share is what a round of melee takes: 20 points, four dice 5,5,5,5 (+1
    each, enemy hit standing) = 24; half is 12 potential casualties, a quarter 6 (each saved on
    a 5 or 6, the saves forced to fail)."""
    for house, potential in ((None, 12), ({"melee": {"casualty_share": "1/4"}}, 6)):
        attacker = unit("att", grade="C", figures=20, front=5, advancing=True)
        defender = unit("def", "Allies", figures=16, front=4)
        s = activate(make([attacker, defender], house=house), "att")
        s = s.with_unit(replace(s.unit("att"), charge_state="home", charge_target="def"))
        # defender: 16 points -> 3 dice 1,1,1 = 3: half 1.5 (d100 80 -> 1), a quarter 0.75
        # (d100 80 -> 0); a save of 6 when there is one
        back = [1, 1, 1, 80] + ([6] if house is None else [])
        faces = [5, 5, 5, 5] + [1] * potential + back
        _, out = run(s, "melee", faces, unit="att", target="def")
        assert out.details["inflicted"]["att"] == potential
        shown = "half" if house is None else "1/4"
        (o,) = [
            x
            for x in odds(s, "melee", unit="att", target="def")
            if x.label.startswith("att inflicts")
        ]
        assert f"{shown} as potential casualties" in (o.note or "")


def test_disorder_chits_of_the_text() -> None:
    """Disorder: "Each round of melee or firing 1D ... Each move of Rout 2D Each move of
    Retreat/Pursuit 1D Formation Incomplete at end of turn 1D Unit moving over 1/2 and Musician
    dead 1D"."""
    d = make([]).config.disorder
    assert (d.round, d.rout_move, d.retreat_move) == (1, 2, 1)
    assert (d.formation_incomplete, d.musician_over_half) == (1, 1)


def test_a_house_rule_changes_the_disorder_chits() -> None:
    """The [disorder] chits are what the referee gives: with a house rule of 3 for a move of
    rout and 2 for a round of firing, a routing unit's move takes 3 'D' and a volley 2; a stated
    rout's chits default to the house rule's figure."""
    house = {"disorder": {"rout_move": 3, "round": 2}}
    units = [unit("F1", status="routing"), unit("F2", front=5), unit("A1", "Allies")]
    s = activate(make(units, house=house), "F1", "F2")
    s, out = run(s, "move", [0, 3], unit="F1", mode="rout", distance=100)
    assert s.unit("F1").disorder == 3 and "rout move 3D" in out.message
    s, _ = run(s, "fire", [4, 5], unit="F2", target="A1", range="long")  # 4 x 1/4 = 1; saved
    assert s.unit("F2").disorder == 2
    s, _ = run(s, "disorder", cause="rout", unit="A1")
    assert s.unit("A1").disorder == 3


def _fire_note(house: dict[str, Any] | None, **kw: Any) -> str:
    firer = unit("f", figures=20, front=10, **kw)
    s = activate(make([firer, unit("t", "Allies")], house=house), "f")
    return odds(s, "fire", unit="f", target="t", range="short")[0].note or ""


def test_a_house_rule_changes_the_firing_numbers() -> None:
    """The [fire] numbers are the game's: a house rule's share, save and skirmishers' hit are
    what the fire rolls; a share above 1 or a face beyond 7 is refused in one line."""
    assert "×3/4 at short range; saves 5-6" in _fire_note(None)
    house = {"fire": {"volley_share_short": "1/2", "save_short": 6}}
    assert "×1/2 at short range; saves 6-6" in _fire_note(house)
    skirm = {"formation": "skirmish"}
    assert "hitting on 5+" in _fire_note(None, **skirm)
    assert "hitting on 4+" in _fire_note({"fire": {"skirmish_hit_short": 4}}, **skirm)
    for bad, says in (
        ({"volley_share_long": 2}, "at most 1"),
        ({"save_long": 9}, "1-7"),
        ({"canister_dice": "lots"}, "such as 1d6"),
    ):
        with pytest.raises(DataError, match=says):
            make([], house={"fire": bad})


def test_officers_leading_a_column_are_in_greater_danger() -> None:
    """Kuryakin, Firing: "count the number of figures in the front rank. Then roll randomly to
    see who is hit. Thus it can be seen that officers leading a column are in much greater danger
    than those standing in line." The same fire (one skirmisher at short range: hits on 5-6,
    saves on 5-6) at a battalion of 20 with its officer in the front rank: in column (5 in front)
    he is hit with 1/3 x 2/3 x 1/5 = 2/45, in line (10 in front) with 1/45."""
    got = {}
    for formation, front in (("column", 5), ("line", 10)):
        s = make(
            [
                unit("F1", formation="skirmish", figures=6, front=6),
                unit("A1", "Allies", figures=20, formation=formation),
            ],
            options={"officers": True},
        )
        assert s.unit("A1").front == front
        s = activate(s, "F1")
        os = odds(s, "fire", unit="F1", target="A1", range="short", figures=1)
        (off,) = [o for o in os if "officer" in o.label]
        got[formation] = off.p("hit")
        # the dice forced: a hit (5), a failed save (1), the casualty falls on figure 1 of the
        # front rank: the officer
        s2, out = run(s, "fire", [5, 1, 1], unit="F1", target="A1", range="short", figures=1)
        assert out.details["specials_hit"] == ["officer"] and s2.unit("A1").officer != "alive"
    assert got == {"column": Fraction(2, 45), "line": Fraction(1, 45)}
