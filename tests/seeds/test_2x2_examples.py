"""2 by 2 Napoleonics: the text's tables as written, and a scripted battle of several turns.

The text (seed 003) has no worked examples; its examples are its tables. Each table is
reproduced here row by row (2 by 2, Unit Summary / Resolving shooting / Melee / Rallying /
Reinforcements), then a battle of two full turns is played with forced dice through every
procedure, and its final state is asserted.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.two_by_two.battle import Battle
from vedette.errors import RuleViolation
from vedette.rules.two_by_two import RULESET

N = 19.05


# -- 2 by 2, Unit Summary: Move, Range, AP ---------------------------------------------------
@pytest.mark.parametrize(
    ("key", "move", "ranges", "ap", "markers"),
    [
        ("infantry", 4, (1, 2), 2, "*"),
        ("guard", 5, (1, 2), 3, "*"),
        ("light", 6, (1, 2), 3, "* ***"),
        ("militia", 4, (1,), 1, "**"),
        ("hq_corps", 10, (), 4, ""),
        ("hq_division", 10, (), 2, ""),
        ("heavy_cavalry", 6, (), 3, ""),
        ("light_cavalry", 8, (), 3, "***"),
        ("lancers", 8, (), 3, "***"),
        ("cossacks", 10, (), 2, "**"),
        ("foot_artillery", 4, (1.5, 4, 8), 3, ""),
        ("horse_artillery", 6, (1.5, 3, 6), 4, ""),
    ],
)
def test_unit_summary(
    key: str, move: float, ranges: tuple[float, ...], ap: int, markers: str
) -> None:
    t = Battle.sample().state.rules.unit_types[key]
    assert (t.move, t.ranges, t.ap) == (move, ranges, ap)
    assert t.star_range == ("*" in markers.split())
    assert t.rout_contagion == ("**" in markers.split())
    assert t.voluntary_rout == ("***" in markers.split())


def test_rally_bonus_units_guards_grenadiers_light() -> None:
    types = Battle.sample().state.rules.unit_types
    assert {k for k, t in types.items() if t.elite} == {"guard", "light"}


# -- 2 by 2, Resolving shooting: 8+ rout, 7 disrupted, 5-6 pinned, 4 or less no effect -------
@pytest.mark.parametrize(
    ("final", "row"),
    [
        (-2, "no_effect"),
        (4, "no_effect"),
        (5, "pinned"),
        (6, "pinned"),
        (7, "disrupted"),
        (8, "rout"),
        (12, "rout"),
    ],
)
def test_shooting_table(final: int, row: str) -> None:
    t = RULESET.tables()["shooting"]
    assert t.lookup(final).key == row
    capped = RULESET.tables()["shooting_capped"]
    assert capped.lookup(final).key == ("no_effect" if final <= 4 else "pinned")


def test_rout_roll() -> None:
    t = RULESET.tables()["rout"]
    assert [t.lookup(f).key for f in range(1, 7)] == ["destroyed"] * 2 + ["flees"] * 4


# -- 2 by 2, Melee: the loser by the difference ----------------------------------------------
@pytest.mark.parametrize(
    ("diff", "row", "follow"),
    [
        (1, "repulsed", "none"),
        (2, "recoils", "none"),
        (3, "routs", "voluntary"),
        (4, "destroyed", "voluntary"),
        (5, "destroyed", "voluntary"),
        (6, "destroyed_mandatory", "mandatory"),
        (9, "destroyed_mandatory", "mandatory"),
    ],
)
def test_melee_table(diff: int, row: str, follow: str) -> None:
    r = RULESET.tables()["melee"].lookup(diff)
    assert r.key == row and r.data["follow_up"] == follow


# -- 2 by 2, Rallying 5+; Reinforcements rear 3+, flank 4+ -----------------------------------
def test_rally_and_reinforcement_tables() -> None:
    t = RULESET.tables()
    assert [t["rally"].lookup(f).key for f in (4, 5)] == ["fails", "rallies"]
    assert [t["reinforcement_rear"].lookup(f).key for f in (2, 3)] == ["none", "arrives"]
    assert [t["reinforcement_flank"].lookup(f).key for f in (3, 4)] == ["none", "arrives"]


# -- every number of the text's modifier lists, re-read from the seed -----------------------
TEXT_NUMBERS = {
    # Movement Modifiers; Moving to contact; Melee result 1
    ("movement", "road_bonus"): 1,
    ("movement", "stream_cost"): 1,
    ("movement", "town_rate"): 0.5,
    ("movement", "rough_rate"): 0.5,
    ("movement", "bridge_rate"): 0.5,
    ("movement", "straight_ahead"): 2,
    ("movement", "countercharge_fraction"): 0.5,
    ("movement", "repulse_distance"): 2,
    # Reinforcements: 1D6 twice, enter within [4] of the RP
    ("reinforcements", "rolls_per_turn"): 2,
    ("reinforcements", "entry_radius"): 4,
    # Rallying
    ("rally", "elite"): 1,
    ("rally", "hq_contact"): 1,
    ("rally", "militia"): -1,
    ("rally", "enemy_within"): 2,
    ("rally", "enemy_within_value"): -2,
    ("rally", "division_range"): 4,
    ("rally", "corps_range"): 8,
    ("rally", "disrupted"): -1,
    ("rally", "hq_self"): 2,
    # Resolving shooting
    ("shooting", "artillery_long"): -1,
    ("shooting", "artillery_canister"): 1,
    ("shooting", "cover_wall_hedge"): -1,
    ("shooting", "cover_woods_town"): -1,
    ("shooting", "screened"): 1,
    ("shooting", "enfilade"): 2,
    ("shooting", "light_infantry"): -1,
    ("shooting", "cavalry"): 2,
    ("shooting", "disrupted"): 1,
    ("shooting", "hq_contact"): 1,
    ("shooting", "first_volley"): 1,
    ("shooting", "musket_full_effect"): 1,
    # Melee
    ("melee", "guards"): 1,
    ("melee", "light_vs_cavalry"): -1,
    ("melee", "lancers_vs_disrupted"): 2,
    ("melee", "heavy_cavalry"): 2,
    ("melee", "cavalry_in_town"): -2,
    ("melee", "enemy_disrupted"): 2,
    ("melee", "overlap_per_unit"): 1,
    ("melee", "column_of_attack"): 1,
    ("melee", "road_column"): -2,
    ("melee", "cavalry_vs_ordered_infantry"): -2,
    ("melee", "hq_contact"): 1,
    ("melee", "higher"): 1,
    ("melee", "artillery_or_hq"): -3,
    ("melee", "attacker_subsequent"): -1,
    # Unit Summary ** (rout within [3]); Game Setup
    ("rout", "contagion_radius"): 3,
    ("setup", "ap_each"): 12,
    ("setup", "extra_ap_per_tie"): 12,
    ("setup", "deploy_depth"): 8,
    ("setup", "side_margin"): 4,
    ("setup", "rp_clearance"): 8,
}


@pytest.mark.parametrize(("where", "value"), sorted(TEXT_NUMBERS.items()))
def test_every_number_of_the_text(where: tuple[str, str], value: float) -> None:
    section, key = where
    assert getattr(getattr(Battle.sample().state.rules, section), key) == value


def test_scale_three_quarter_inch_and_base_size() -> None:
    r = Battle.sample().state.rules
    assert r.base_mm == pytest.approx(0.75 * 25.4)
    assert (r.scale.base_width_mm, r.scale.base_depth_mm) == (25, 12)


def test_rally_target_is_the_table_threshold() -> None:
    # "If modified score is 5+ Unit Rallies": the table agrees with the number
    t = RULESET.tables()["rally"]
    assert t.lookup(4).key == "fails" and t.lookup(5).key == "rallies"


# -- a scripted battle -----------------------------------------------------------------------
SCN = {
    "title": "The mill at Aspern (test battle)",
    "start": "battle",
    "attacker": "red",
    "table": {"width": 609.6, "depth": 420},
    "victory": {"threshold_ap": 0, "max_turns": 0},
    "sides": [
        {"id": "blue", "name": "Blue", "edge": "south"},
        {"id": "red", "name": "Red", "edge": "north"},
    ],
    "terrain": [
        {"kind": "road", "name": "road", "line": [[300, 0], [300, 420]], "width": 12},
        {"kind": "stream", "name": "Mühlbach", "line": [[0, 200], [609.6, 200]]},
        {
            "kind": "bridge",
            "name": "bridge",
            "area": [[290, 190], [310, 190], [310, 210], [290, 210]],
        },
        {
            "kind": "town",
            "name": "the mill",
            "area": [[380, 140], [440, 140], [440, 190], [380, 190]],
        },
        {
            "kind": "woods",
            "name": "Auwald",
            "area": [[100, 220], [180, 220], [180, 300], [100, 300]],
        },
    ],
    "units": [
        {
            "id": "B1",
            "side": "blue",
            "type": "infantry",
            "name": "1st Line",
            "x": 300,
            "y": 150,
            "facing": 0,
        },
        {
            "id": "B2",
            "side": "blue",
            "type": "infantry",
            "name": "2nd Line",
            "x": 410,
            "y": 170,
            "facing": 0,
        },
        {
            "id": "B3",
            "side": "blue",
            "type": "militia",
            "name": "Landwehr",
            "x": 230,
            "y": 150,
            "facing": 0,
        },
        {
            "id": "B4",
            "side": "blue",
            "type": "foot_artillery",
            "name": "Foot battery",
            "x": 300,
            "y": 100,
            "facing": 0,
        },
        {
            "id": "B5",
            "side": "blue",
            "type": "hq_division",
            "name": "Div HQ",
            "x": 300,
            "y": 70,
            "facing": 0,
        },
        {
            "id": "B6",
            "side": "blue",
            "type": "light_cavalry",
            "name": "Hussars",
            "x": 520,
            "y": 120,
            "facing": 0,
        },
        {"id": "B7", "side": "blue", "type": "infantry", "name": "3rd Line", "status": "reserve"},
        {
            "id": "R1",
            "side": "red",
            "type": "guard",
            "name": "Grenadiers",
            "x": 300,
            "y": 262,
            "facing": 180,
        },
        {
            "id": "R2",
            "side": "red",
            "type": "infantry",
            "name": "Line",
            "x": 220,
            "y": 280,
            "facing": 180,
        },
        {
            "id": "R3",
            "side": "red",
            "type": "light",
            "name": "Chasseurs",
            "x": 140,
            "y": 260,
            "facing": 180,
            "screened": True,
        },
        {
            "id": "R4",
            "side": "red",
            "type": "heavy_cavalry",
            "name": "Cuirassiers",
            "x": 470,
            "y": 300,
            "facing": 180,
        },
        {
            "id": "R5",
            "side": "red",
            "type": "hq_corps",
            "name": "Corps HQ",
            "x": 300,
            "y": 340,
            "facing": 180,
        },
        {
            "id": "R6",
            "side": "red",
            "type": "horse_artillery",
            "name": "Horse battery",
            "x": 380,
            "y": 262,
            "facing": 180,
        },
        {"id": "R7", "side": "red", "type": "lancers", "name": "Lancers", "status": "reserve"},
    ],
    "rps": [
        {"id": "blue-rear", "side": "blue", "kind": "rear", "at": [300, 0], "queue": ["B7"]},
        {"id": "red-rear", "side": "red", "kind": "rear", "at": [300, 420], "queue": ["R7"]},
    ],
}


def test_scripted_battle_of_two_turns() -> None:
    b = Battle(SCN)

    def roll(proc: str, dice: list[int], **req: Any) -> Any:
        return b.do(proc, dice, **req)

    # turn 1, phase 1: Blue (the Defender, player 1) moves and dices for reinforcements
    b.do("move", unit="B6", to=[520, 160])
    assert roll("reinforce", [4], rp="blue-rear").rolls[0].row == "arrives"
    b.do("move", unit="B7", path=[[250, 6], [250, 80]])
    b.do("next")
    b.do("next")
    # phase 3: Red shoots: the horse battery at long range pins 1st Line (6-1=5)
    out = roll("shoot", [6], firer="R6", target="B1")
    assert out.rolls[0].final == 5 and b.state.unit("B1").pinned
    b.do("next")
    b.do("next")
    # phase 5: Red moves. Cavalry may not charge through the mill; the move is too long anyway
    with pytest.raises(RuleViolation):
        b.do("move", unit="R4", path=[[470, 300], [410, 230], [410, 182]], facing=180)
    out = b.do("move", unit="R4", to=[470, 230], facing=180)
    assert [c["unit"] for c in out.details["move"]["countercharge_possible_by"]] == ["B6"]
    # the Grenadiers cross the bridge: at 1/2 rate unless wholly on road in road column
    with pytest.raises(RuleViolation, match="may move only"):
        b.do("move", unit="R1", to=[300, 162])
    b.do("formation", unit="R1", formation="road_column")
    out = b.do("move", unit="R1", to=[300, 162])
    assert out.details["move"]["contacts"] == ["B1"] and out.details["move"]["allowance"] == 6
    # 1st Line fires on its charger (no first volley: it is pinned): 5 -> pinned
    out = roll("shoot", [5], firer="B1", target="R1")
    assert out.details["reaction_fire"] and b.state.unit("R1").pinned
    b.do("move", unit="R6", facing=120)
    b.do("move", unit="R2", to=[220, 220])
    out = b.do("move", unit="R3", to=[140, 232])
    assert out.details["move"]["cost"] == pytest.approx(
        2 * 28 / N, abs=1e-3
    )  # light infantry in woods
    assert roll("reinforce", [1], rp="red-rear").rolls[0].row == "none"
    assert roll("reinforce", [3], rp="red-rear").rolls[0].row == "arrives"
    b.do("move", unit="R7", path=[[340, 414], [340, 340]])
    b.do("next")
    # phase 6: Red rallies: not possible with an enemy in contact
    with pytest.raises(RuleViolation, match="enemy in contact"):
        roll("rally", [6], unit="R1")
    b.do("next")
    # phase 7: Blue shoots and counter-charges
    out = b.do(
        "countercharge", unit="B6", target="R4", path=[[520, 160], [470, 218 - 2 * N], [470, 218]]
    )
    assert out.details["move"]["cost"] == pytest.approx(4.82 + 1, abs=0.01)  # + [1] stream
    out = roll("shoot", [6], firer="B4", target="R2")
    assert out.rolls[0].row == "pinned"
    b.do("next")
    # phase 8: Red (player 2) resolves melees. Grenadiers 6+1-2=5 vs 2: 1st Line routs (4: flees),
    # the Landwehr (**) within [3] routs too and is destroyed (1)
    out = roll("melee", [6, 2, 4, 1], attacker="R1", defender="B1")
    assert out.rolls[0].difference == 3 and out.rolls[0].row == "defender_routs"
    assert b.state.unit("B1").disrupted and b.state.unit("B1").routed
    assert b.state.unit("B3").status == "destroyed"
    # the Grenadiers are pinned (by 1st Line's fire): "may only change facing", no follow-up
    # (issue 24 item 2)
    assert "Grenadiers is pinned: it may only change facing; no follow-up" in out.message
    assert b.state.follow_ups == ()
    # Hussars vs Cuirassiers: draw 4-4, reroll; 6-1=5 vs 1+2=3: the Cuirassiers recoil [6]
    out = roll("melee", [5, 2, 6, 1], attacker="B6", defender="R4")
    assert len(out.rolls[0].draws) == 1 and out.rolls[0].row == "defender_recoils"
    b.do("next")
    assert (b.state.turn, b.state.phase_index) == (2, 0)

    # turn 2: 1st Line is put back clear of its HQ (a correction), may not move, then rallies
    b.do("place", unit="B1", x=240, y=60, facing=180)
    with pytest.raises(RuleViolation, match="disrupted"):
        b.do("move", unit="B1", facing=0)
    b.do("next")
    out = roll("rally", [6], unit="B1")
    assert out.rolls[0].final == 5 and not b.state.unit("B1").disrupted
    b.do("next")
    # the horse battery enfilades the Hussars: 5-1+2+2=8, rout, 2: destroyed
    out = roll("shoot", [5, 2], firer="R6", target="B6")
    assert out.rolls[0].final == 8 and b.state.unit("B6").status == "destroyed"
    for _ in range(3):
        b.do("next")
    with pytest.raises(RuleViolation, match="no Division HQ within"):
        roll("rally", [6], unit="R1")
    roll("rally", [5], unit="R2")
    b.do("next")
    roll("shoot", [6], firer="B4", target="R1")
    b.do("next")
    b.do("next")

    s = b.state
    assert (s.turn, s.phase_index, s.actor) == (3, 0, "blue")
    assert s.score("red") == 4 and s.score("blue") == 0
    assert {u.id for u in s.units if u.status == "destroyed"} == {"B3", "B6"}
    marks = {u.id: (u.pinned, u.disrupted) for u in s.units if u.status == "table"}
    assert marks == {
        "B1": (True, False),
        "B2": (False, False),
        "B4": (False, False),
        "B5": (False, False),
        "B7": (False, False),
        "R1": (True, False),
        "R2": (False, False),
        "R3": (False, False),
        "R4": (False, False),
        "R5": (False, False),
        "R6": (False, False),
        "R7": (False, False),
    }
    pos = {
        u.id: (round(u.body.centre.x, 1), round(u.body.centre.y, 1), round(u.body.facing))
        for u in s.units
        if u.body is not None
    }
    assert pos["R1"] == (300.0, 162.0, 180)  # pinned: it did not follow up (it holds)
    assert pos["R4"] == (470.0, round(230 + 6 * N, 1), 180)  # recoiled a full move
    assert pos["B7"] == (250.0, 80.0, 0)
    assert s.unit("R1").formation == "road_column"
    assert s.melees == () and s.follow_ups == ()
    assert all(not rp.queue for rp in s.rps)
    assert b.replayed() == s
