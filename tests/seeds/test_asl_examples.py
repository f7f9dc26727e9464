"""Every worked example of O'Leary's "Solitaire Play of ASL" (seed 001), reproduced with the
dice forced to the example's figures. Section numbers are O'Leary's."""

from __future__ import annotations

from typing import Any

import pytest

from tests.solitaire_asl.asl_helpers import make, play, to_phase
from vedette.errors import RuleViolation
from vedette.rules.base import Outcome
from vedette.rules.solitaire_asl import RULESET
from vedette.rules.solitaire_asl.model import State, Status


def mods(out: Outcome) -> dict[str, int]:
    r = out.rolls[0]
    return {m.reason: m.value for m in r.modifiers}  # type: ignore[union-attr]


SQUAD_LMG_LEADER = [
    {"id": "a1", "name": "4-6-7", "kind": "squad"},
    {"id": "a2", "name": "LMG", "kind": "sw"},
    {"id": "a3", "name": "8-1", "kind": "leader"},
]


# -- 2.5, first example -------------------------------------------------------------------------
def test_2_5_example_1_final_7_shift_made() -> None:
    """4-6-7, LMG, 8-1 in a stone building in enemy LOS shift with a 4-counter dummy stack in
    woods: DR 7, -1 (TEM of woods) +1 (LOS) = 7: the shift is made, more shifts may follow."""
    s = make(
        [
            {
                "id": "P1",
                "location": "4P5",
                "status": "potential_dummy",
                "counters": SQUAD_LMG_LEADER,
            },
            {"id": "D1", "location": "4Q6", "status": "dummy", "dummies": 4},
        ],
        locations=[
            {"id": "4P5", "terrain": "stone building", "tem": 3, "los": True},
            {"id": "4Q6", "terrain": "woods", "tem": 1},
        ],
    )
    s = to_phase(s, "MPh")
    s2, out = play(s, "shift", [3, 4], a="P1", b="D1")
    r = out.rolls[0]
    assert r.natural == 7 and r.final == 7  # type: ignore[union-attr]
    assert mods(out) == {"worst TEM +1: woods 4Q6": -1, "in LOS of an enemy unit: 4P5": 1}
    assert r.row == "allowed"  # type: ignore[union-attr]
    assert s2.stack("P1").location == "4Q6" and s2.stack("D1").location == "4P5"  # type: ignore[union-attr]
    assert s2.closed == ()
    assert s2.count("Russian", "1:MPh", None) == 1


# -- 2.5, second example ------------------------------------------------------------------------
def _example2(previous: int) -> tuple[State, Outcome]:
    stacks: list[dict[str, Any]] = [
        {
            "id": "P1",
            "location": "4P5",
            "status": "potential_dummy",
            "counters": [
                {"id": "b1", "name": "6-2-8", "kind": "squad"},
                {"id": "b2", "name": "2-4-7", "kind": "hs"},
                {"id": "b3", "name": "1-4-9", "kind": "hero"},
                {"id": "b4", "name": "10-0", "kind": "leader"},
            ],
        },
        {"id": "D1", "location": "4R4", "status": "dummy", "dummies": 5},
    ]
    for i in range(previous):  # other pairs shifted earlier in this APh
        stacks.append(
            {
                "id": f"Q{i}",
                "location": f"4A{i + 1}",
                "status": "potential_dummy",
                "counters": ["4-4-7"],
            }
        )
        stacks.append({"id": f"E{i}", "location": f"4C{i + 1}", "status": "dummy", "dummies": 2})
    s = make(
        stacks,
        locations=[
            {"id": "4P5", "terrain": "woods", "tem": 1},
            {"id": "4R4", "terrain": "open ground", "tem": 0, "los": True},
        ],
    )
    s = to_phase(s, "APh")
    for i in range(previous):
        s, o = play(s, "shift", [2, 2], a=f"Q{i}", b=f"E{i}")
        assert o.rolls[0].row == "allowed"  # type: ignore[union-attr]
    return play(s, "shift", [5, 6], a="P1", b="D1")


def test_2_5_example_2_final_12() -> None:
    """DR 11 +1 (LOS) = 12: not exchanged, the dummy stack is eliminated, the other stack keeps
    concealment but is no longer a potential dummy stack; no more shifts this APh."""
    s, out = _example2(0)
    r = out.rolls[0]
    assert (r.natural, r.final, r.row) == (11, 12, "exposed")  # type: ignore[union-attr]
    assert mods(out) == {"in LOS of an enemy unit: 4R4": 1}  # the worst TEM, OG's, is 0
    assert s.stack("D1") is None
    p1 = s.stack("P1")
    assert p1 is not None and p1.status == Status.CONCEALED and not p1.ti and p1.location == "4P5"
    assert s.is_closed("Russian", "dummy", "1:APh")


def test_2_5_example_2_with_two_previous_shifts_final_14() -> None:
    """With two pairs already shifted this APh: +2 more, final 14: the dummy stack is eliminated,
    the other loses concealment and potential status and becomes TI."""
    s, out = _example2(2)
    r = out.rolls[0]
    assert (r.natural, r.final, r.row) == (11, 14, "revealed")  # type: ignore[union-attr]
    assert mods(out) == {"2 previous shifts this phase": 2, "in LOS of an enemy unit: 4R4": 1}
    assert s.stack("D1") is None
    p1 = s.stack("P1")
    assert p1 is not None and p1.status == Status.REVEALED and p1.ti
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.5"):
        play(s, "shift", [1, 1], a="Q0", b="E0")


# -- 2.5, third example -------------------------------------------------------------------------
#: the 4-4-8 in its pillbox (4P5) and the dummy stack of 2 in its cave (4Q6)
PILLBOX_AND_CAVE: list[dict[str, Any]] = [
    {
        "id": "P1",
        "location": "4P5",
        "status": "potential_dummy",
        "position": "pillbox",
        "counters": ["4-4-8"],
    },
    {"id": "D1", "location": "4Q6", "status": "dummy", "dummies": 2, "position": "cave"},
]


def test_2_5_example_3_pillbox_and_cave_final_minus_1() -> None:
    """4-4-8 in a 1+5+7 pillbox, dummy stack of 2 in a 1+4+6 cave, neither in LOS: DR 3, -4
    (worst TEM: the cave's, sign reversed) = -1: allowed, and no +1 for later shifts."""
    s = make(
        [
            *PILLBOX_AND_CAVE,
            {"id": "P2", "location": "4A1", "status": "potential_dummy", "counters": ["4-4-8"]},
            {"id": "D2", "location": "4C1", "status": "dummy", "dummies": 2},
        ],
        fortifications=[
            {"id": "F1", "side": "Russian", "kind": "pillbox", "location": "4P5", "tem": 5},
            {"id": "F2", "side": "Russian", "kind": "cave", "location": "4Q6", "tem": 4},
        ],
    )
    s = to_phase(s, "MPh")
    s, out = play(s, "shift", [1, 2], a="P1", b="D1")
    r = out.rolls[0]
    assert (r.natural, r.final, r.row) == (3, -1, "free")  # type: ignore[union-attr]
    assert list(mods(out).values()) == [-4]
    assert s.stack("P1").location == "4Q6"  # type: ignore[union-attr]
    assert s.stack("P1").position == "cave"  # type: ignore[union-attr]
    _, out2 = play(s, "shift", [3, 3], a="P2", b="D2")
    assert not any("previous" in k for k in mods(out2))


# -- 2.5, fourth example ------------------------------------------------------------------------
def test_2_5_example_4_halftrack_and_tiger() -> None:
    """SPW 250/1 in woods and a Tiger in woods, out of LOS: +2 = -1 (woods) +3 (large vehicle);
    the halftrack's +1 is superseded by the Tiger's +3."""
    s = make(
        [
            {
                "id": "P1",
                "location": "4P5",
                "status": "potential_dummy",
                "counters": [{"name": "SPW 250/1", "kind": "vehicle", "size": "small"}],
            },
            {
                "id": "P2",
                "location": "4Q6",
                "status": "potential_dummy",
                "counters": [{"name": "PzKpfw VIE", "kind": "vehicle", "size": "large"}],
            },
        ],
        locations=[
            {"id": "4P5", "terrain": "woods", "tem": 1},
            {"id": "4Q6", "terrain": "woods", "tem": 1},
        ],
    )
    s = to_phase(s, "MPh")
    odds = RULESET.procedures["shift"].odds(s, {"a": "P1", "b": "P2"})[0]  # type: ignore[misc]
    assert sum(m.value for m in odds.modifiers) == 2
    assert sorted(m.value for m in odds.modifiers) == [-1, 3]
    assert [m.value for m in odds.superseded] == [1]
    _, out = play(s, "shift", [2, 3], a="P1", b="P2")
    assert out.rolls[0].final == 7  # type: ignore[union-attr]
    assert "[not counted: +1 (small vehicle: SPW 250/1)]" in out.rolls[0].line()


# -- 2.3 (crest / foxhole) ----------------------------------------------------------------------
def test_2_3_example_crest_and_foxhole() -> None:
    """4-6-7 in crest status in a gully and 5-4-8 in a foxhole: after the exchange the 5-4-8 is
    in crest status and the 4-6-7 in the foxhole the 5-4-8 had claimed."""
    s = make(
        [
            {
                "id": "P1",
                "location": "4P5",
                "status": "potential_dummy",
                "position": "crest",
                "counters": ["4-6-7"],
            },
            {
                "id": "P2",
                "location": "4Q6",
                "status": "potential_dummy",
                "position": "foxhole",
                "counters": ["5-4-8"],
            },
        ],
        fortifications=[
            {"id": "F1", "side": "Russian", "kind": "foxhole", "location": "4Q6", "hidden": False}
        ],
    )
    s = to_phase(s, "MPh")
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.3\b"):
        play(s, "shift", [1, 1], a="P1", b="P2", positions={"P2": ""})
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.3\b"):
        play(s, "shift", [1, 1], a="P1", b="P2", positions={"P1": "crest"})
    s, _ = play(s, "shift", [1, 1], a="P1", b="P2", positions={"P2": "crest", "P1": "foxhole"})
    assert (s.stack("P2").location, s.stack("P2").position) == ("4P5", "crest")  # type: ignore[union-attr]
    assert (s.stack("P1").location, s.stack("P1").position) == ("4Q6", "foxhole")  # type: ignore[union-attr]


# -- 2.3.2 --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("dummies", "legal"), [(3, False), (4, True), (5, True)])
def test_2_3_2_example_needs_four_concealment_counters(dummies: int, legal: bool) -> None:
    s = make(
        [
            {
                "id": "P1",
                "location": "4P5",
                "status": "potential_dummy",
                "counters": SQUAD_LMG_LEADER,
            },
            {"id": "D1", "location": "4Z9", "status": "dummy", "dummies": dummies},
        ]
    )
    s = to_phase(s, "MPh")
    if legal:
        play(s, "shift", [1, 1], a="P1", b="D1")
    else:
        with pytest.raises(RuleViolation, match=r"O'Leary 2\.3\.2"):
            play(s, "shift", [1, 1], a="P1", b="D1")


# -- 2.4 ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("used", "legal"), [(12, False), (10, True)])
def test_2_4_example_bt7_and_t35(used: int, legal: bool) -> None:
    """A BT-7 (23 MP) that has used more than 10 MP may no longer shift with a T-35 (10 MP)."""
    s = make(
        [
            {
                "id": "P1",
                "location": "4P5",
                "status": "potential_dummy",
                "counters": [
                    {"id": "bt", "name": "BT-7", "kind": "vehicle", "size": "small", "mp": 23}
                ],
            },
            {
                "id": "P2",
                "location": "4Q6",
                "status": "potential_dummy",
                "counters": [
                    {"id": "t35", "name": "T-35", "kind": "vehicle", "size": "large", "mp": 10}
                ],
            },
        ]
    )
    s = to_phase(s, "MPh")
    s, _ = play(s, "move", stack="P1", to="4P6", mp=used)
    s = to_phase(s, "MPh", "Russian")
    if legal:
        play(s, "shift", [1, 1], a="P1", b="P2")
    else:
        with pytest.raises(RuleViolation, match=r"O'Leary 2\.4"):
            play(s, "shift", [1, 1], a="P1", b="P2")


@pytest.mark.parametrize(("los", "legal"), [(True, False), (False, True)])
def test_2_4_example_t34_into_open_ground_in_los(los: bool, legal: bool) -> None:
    s = make(
        [
            {
                "id": "P1",
                "location": "4P5",
                "status": "potential_dummy",
                "counters": [{"name": "T-34", "kind": "vehicle"}],
            },
            {"id": "D1", "location": "4Q6", "status": "dummy", "dummies": 2},
        ],
        locations=[
            {"id": "4P5", "terrain": "woods", "tem": 1},
            {"id": "4Q6", "terrain": "open ground", "concealment_terrain": False, "los": los},
        ],
    )
    s = to_phase(s, "MPh")
    if legal:
        play(s, "shift", [1, 1], a="P1", b="D1")
    else:
        with pytest.raises(RuleViolation, match=r"O'Leary 2\.4"):
            play(s, "shift", [1, 1], a="P1", b="D1")


# -- 3.1.1 --------------------------------------------------------------------------------------
def test_3_1_1_five_hip_squads_six_dummies() -> None:
    s = make([], side=[{"name": "Russian", "hip_squads": 5}])
    assert s.allotment("Russian").dummy_hip == 6


def test_3_1_1_five_hip_squads_counted_from_units() -> None:
    s = make(
        [
            {"id": f"H{i}", "location": f"4A{i}", "status": "hip", "counters": ["4-5-7"]}
            for i in range(1, 6)
        ]
    )
    assert s.allotment("Russian").dummy_hip == 6


def test_3_1_1_hip_at_gun_two_dummies() -> None:
    s = make(
        [
            {
                "id": "H1",
                "location": "4P5",
                "status": "hip",
                "counters": [
                    {"name": "45L AT", "kind": "gun", "size": "small"},
                    {"name": "crew", "kind": "crew"},
                ],
            }
        ]
    )
    assert s.allotment("Russian").dummy_hip == 2


def test_3_1_1_hip_at_gun_shifts_to_three_distinct_locations() -> None:
    """ "Counting the initial setup location of the gun, it may be shifted to three distinct
    locations over the course of the game": its two dummy HIP counters are placed (a third is
    refused), and the gun reaches each of their locations by shifting."""
    gun = {"id": "g", "name": "45L AT", "kind": "gun", "size": "small"}
    s = make([{"id": "H1", "location": "4P5", "status": "hip", "counters": [gun]}])
    for loc in ("4Q6", "4R4"):
        s, _ = play(s, "place", kind="dummy_hip", side="Russian", location=loc)
    with pytest.raises(RuleViolation, match=r"O'Leary 3\.1\.1"):
        play(s, "place", kind="dummy_hip", side="Russian", location="4S7")
    s = to_phase(s, "MPh")
    seen = {s.stack("H1").location}  # type: ignore[union-attr]
    for target in ("4Q6", "4R4"):
        s, out = play(s, "shift", [1, 1], a="H1", b=target)
        assert out.rolls[0].row == "allowed"  # type: ignore[union-attr]
        seen.add(s.stack("H1").location)  # type: ignore[union-attr]
        s = to_phase(s, "MPh", "Russian")  # a later MPh of its side
    assert seen == {"4P5", "4Q6", "4R4"}


# -- 3.3.3 --------------------------------------------------------------------------------------
def _hip_stack() -> State:
    s = make(
        [
            {
                "id": "H1",
                "location": "4P5",
                "status": "hip",
                "counters": [
                    {"id": "s1", "name": "4-5-7"},
                    {"id": "s2", "name": "4-5-7"},
                    {"id": "s3", "name": "4-5-7"},
                    {"id": "l1", "name": "8-1"},
                ],
            },
            {"id": "X1", "location": "4Q6", "status": "dummy_hip"},
        ],
        side=[{"name": "Russian", "hip_squads": 3}],
    )
    return to_phase(s, "MPh")


def test_3_3_3_example_1_part_of_a_stack_shifts() -> None:
    s, out = play(_hip_stack(), "shift", [2, 2], a="4P5", b="4Q6", move=["s1", "l1"])
    assert out.rolls[0].row == "allowed"  # type: ignore[union-attr]
    at_q6 = [c.id for x in s.stacks_at("4Q6") if x.status == Status.HIP for c in x.counters]
    at_p5 = [c.id for x in s.stacks_at("4P5") if x.status == Status.HIP for c in x.counters]
    assert sorted(at_q6) == ["l1", "s1"] and sorted(at_p5) == ["s2", "s3"]


@pytest.mark.parametrize("faces", [[5, 6], [6, 6], [4, 5]])
def test_3_3_3_example_1_remaining_squads_keep_hip_whatever_the_result(faces: list[int]) -> None:
    s, out = play(_hip_stack(), "shift", faces, a="4P5", b="4Q6", move=["s1", "l1"])
    status = {c.id: x.status for x in s.stacks for c in x.counters}
    assert status["s2"] == status["s3"] == Status.HIP
    if out.rolls[0].row == "exposed":  # type: ignore[union-attr]
        assert status["s1"] == status["l1"] == Status.CONCEALED


def test_3_3_3_example_2_the_other_squad_stays_and_a_dummy_marks_the_hex() -> None:
    s = make(
        [
            {
                "id": "H1",
                "location": "4P5",
                "status": "hip",
                "counters": [{"id": "x", "name": "6-6-6"}],
            },
            {
                "id": "H2",
                "location": "4Q6",
                "status": "hip",
                "counters": [{"id": "y", "name": "5-3-6"}],
            },
        ]
    )
    s = to_phase(s, "MPh")
    s, out = play(s, "shift", [2, 2], a="H1", b="4Q6", back=[])
    assert out.rolls[0].row == "allowed"  # type: ignore[union-attr]
    q6 = {c.id for x in s.stacks_at("4Q6") if x.status == Status.HIP for c in x.counters}
    assert q6 == {"x", "y"}
    p5 = s.stacks_at("4P5")
    assert [x.status for x in p5] == [Status.DUMMY_HIP]


# -- 3.3.5 --------------------------------------------------------------------------------------
def test_3_3_5_failed_in_enemy_mph_blocks_until_own_pfph() -> None:
    """The 6-6-6 / 5-3-6 shift fails in the enemy MPh: no other HIP stack of that side may try
    until its PFPh (the enemy MPh and its own DFPh are one phase)."""
    s = make(
        [
            {
                "id": "H1",
                "location": "4P5",
                "status": "hip",
                "counters": [{"id": "x", "name": "6-6-6"}],
            },
            {
                "id": "H2",
                "location": "4Q6",
                "status": "hip",
                "counters": [{"id": "y", "name": "5-3-6"}],
            },
            {"id": "H3", "location": "4A1", "status": "hip", "counters": ["4-4-7"]},
            {"id": "X1", "location": "4C1", "status": "dummy_hip"},
        ],
        first="German",
    )
    s = to_phase(s, "MPh", "German")
    s, out = play(s, "shift", [4, 5], a="H1", b="H2")
    assert out.rolls[0].row == "refused"  # type: ignore[union-attr]
    with pytest.raises(RuleViolation, match=r"O'Leary 3\.3\.5"):
        play(s, "shift", [1, 1], a="H3", b="X1")
    s = to_phase(s, "DFPh", "German")
    with pytest.raises(RuleViolation, match=r"O'Leary 3\.3\.5"):
        play(s, "shift", [1, 1], a="H3", b="X1")
    s = to_phase(s, "PFPh", "Russian")
    play(s, "shift", [1, 1], a="H3", b="X1")


# -- 4.3 ----------------------------------------------------------------------------------------
def test_4_3_example_1_pillbox_and_foxhole_use_woods_tem() -> None:
    s = make(
        [],
        locations=[
            {"id": "4P5", "terrain": "woods", "tem": 1},
            {"id": "4Q6", "terrain": "woods", "tem": 1},
        ],
        fortifications=[
            {"id": "F1", "side": "Russian", "kind": "pillbox", "location": "4P5", "tem": 3},
            {"id": "F2", "side": "Russian", "kind": "foxhole", "location": "4Q6", "tem": 2},
        ],
    )
    s = to_phase(s, "MPh")
    s2, out = play(s, "shift", [1, 2], a="F1", b="F2")
    tem = [v for k, v in mods(out).items() if "TEM" in k]
    assert tem == [-1]
    # the whole DR: 3, -1 (woods), -1 (both HIP: hidden fortifications count as HIP units, 4.2)
    assert mods(out) == {"worst TEM +1: woods 4P5": -1, "both HIP": -1}
    r = out.rolls[0]
    assert (r.natural, r.final, r.row) == (3, 1, "allowed")  # type: ignore[union-attr]
    assert s2.fortification("F1").location == "4Q6" and s2.fortification("F2").location == "4P5"  # type: ignore[union-attr]


def test_4_3_example_2_fortified_building_uses_stone_building_tem() -> None:
    s = make(
        [{"id": "X1", "location": "4Q6", "status": "dummy_hip"}],
        locations=[
            {"id": "4P5", "terrain": "stone building", "tem": 3},
            {"id": "4Q6", "terrain": "stone building", "tem": 3},
        ],
        fortifications=[
            {
                "id": "F1",
                "side": "Russian",
                "kind": "fortified_building",
                "location": "4P5",
                "tem": 4,
            }
        ],
    )
    s = to_phase(s, "MPh")
    s2, out = play(s, "shift", [1, 2], a="F1", b="X1")
    tem = [v for k, v in mods(out).items() if "TEM" in k]
    assert tem == [-3]
    assert mods(out) == {"worst TEM +3: stone building 4P5": -3, "both HIP": -1}
    r = out.rolls[0]
    assert (r.natural, r.final, r.row) == (3, -1, "free")  # type: ignore[union-attr]
    assert s2.fortification("F1").location == "4Q6"  # type: ignore[union-attr]


# -- 4.4.2 ----------------------------------------------------------------------------------------
def _tunnel_example() -> State:
    """A tunnel joins a HIP pillbox (4P5) and a HIP fortified building location (4Q6); a dummy
    HIP counter stands in 4R4."""
    return to_phase(
        make(
            [{"id": "X1", "location": "4R4", "status": "dummy_hip"}],
            fortifications=[
                {"id": "F1", "side": "Russian", "kind": "pillbox", "location": "4P5"},
                {"id": "F2", "side": "Russian", "kind": "fortified_building", "location": "4Q6"},
                {
                    "id": "T1",
                    "side": "Russian",
                    "kind": "tunnel",
                    "location": "4P5",
                    "tunnel_from": "F1",
                    "exit": "4Q6",
                },
            ],
        ),
        "MPh",
    )


def test_4_4_2_example_the_pillbox_shifts_one_end_stays_in_it() -> None:
    """ "the location of the pillbox is shifted, the location of the tunnel is shifted. One end
    of the tunnel must remain in the pillbox, while the other end can be chosen"."""
    s, _ = play(_tunnel_example(), "shift", [1, 2], a="F1", b="X1")
    t = s.fortification("T1")
    assert t is not None and (t.tunnel_from, t.location, t.exit) == ("F1", "4R4", "")
    s, _ = play(s, "fort", id="T1", exit="4Q6")  # the other end chosen again
    assert s.fortification("T1").exit == "4Q6"  # type: ignore[union-attr]


def test_4_4_2_example_the_fortified_building_shifts_one_entrance_stays_in_it() -> None:
    """ "If instead the fortified building location was shifted, the tunnel is also shifted, but
    must instead have one entrance in the fortified building location". The tunnel stayed
    where it was, its exit in the location the fortified building had left (cut off from it),
    and the player was only told the exit "may" be chosen again. Now one end goes with the
    fortified building and the other end is chosen again (the pillbox's location, or another)."""
    s, out = play(_tunnel_example(), "shift", [1, 2], a="F2", b="X1")
    assert s.fortification("F2").location == "4R4"  # type: ignore[union-attr]
    t = s.fortification("T1")
    assert t is not None and (t.tunnel_from, t.location, t.exit) == ("F2", "4R4", "")
    assert any("tunnel T1 now starts in" in c and "4R4" in c for c in out.details["changes"])
    s, _ = play(s, "fort", id="T1", exit="4P5")  # back into the pillbox, the player's choice
    assert s.fortification("T1").exit == "4P5"  # type: ignore[union-attr]


# -- 2.3 (crest / foxhole), the other half ------------------------------------------------------
def test_2_3_example_foxhole_only_if_the_5_4_8_had_claimed_it() -> None:
    """ "the 4-6-7 could only claim foxhole benefits if the 5-4-8 had claimed such benefits":
    the same exchange with the 5-4-8 in the foxhole's location but not in the foxhole. The
    5-4-8 still takes crest status; the 4-6-7 may not claim the foxhole the 5-4-8 had not."""
    s = make(
        [
            {
                "id": "P1",
                "location": "4P5",
                "status": "potential_dummy",
                "position": "crest",
                "counters": ["4-6-7"],
            },
            {"id": "P2", "location": "4Q6", "status": "potential_dummy", "counters": ["5-4-8"]},
        ],
        fortifications=[
            {"id": "F1", "side": "Russian", "kind": "foxhole", "location": "4Q6", "hidden": False}
        ],
    )
    s = to_phase(s, "MPh")
    with pytest.raises(RuleViolation, match=r"held: none .*not foxhole \(O'Leary 2\.3\)"):
        play(s, "shift", [1, 1], a="P1", b="P2", positions={"P2": "crest", "P1": "foxhole"})
    s, _ = play(s, "shift", [1, 1], a="P1", b="P2", positions={"P2": "crest"})
    assert (s.stack("P2").location, s.stack("P2").position) == ("4P5", "crest")  # type: ignore[union-attr]
    assert (s.stack("P1").location, s.stack("P1").position) == ("4Q6", "")  # type: ignore[union-attr]


# -- 2.5, first example: "further shift attempts may be made during this MPh" --------------------
def test_2_5_example_1_a_further_shift_follows_with_plus_1() -> None:
    """After the first example's shift (final 7, allowed), another pair of the side shifts in
    the same MPh, and its DR bears +1 for that one previous shift (2.5's first DRM)."""
    s = make(
        [
            {
                "id": "P1",
                "location": "4P5",
                "status": "potential_dummy",
                "counters": SQUAD_LMG_LEADER,
            },
            {"id": "D1", "location": "4Q6", "status": "dummy", "dummies": 4},
            {"id": "P2", "location": "4A1", "status": "potential_dummy", "counters": ["4-4-7"]},
            {"id": "D2", "location": "4C1", "status": "dummy", "dummies": 2},
        ],
        locations=[
            {"id": "4P5", "terrain": "stone building", "tem": 3, "los": True},
            {"id": "4Q6", "terrain": "woods", "tem": 1},
        ],
    )
    s = to_phase(s, "MPh")
    s, out = play(s, "shift", [3, 4], a="P1", b="D1")
    assert out.rolls[0].final == 7 and out.rolls[0].row == "allowed"  # type: ignore[union-attr]
    s, out2 = play(s, "shift", [2, 3], a="P2", b="D2")
    assert mods(out2) == {"1 previous shift this phase": 1}
    r = out2.rolls[0]
    assert (r.natural, r.final, r.row) == (5, 6, "allowed")  # type: ignore[union-attr]
    assert s.stack("P2").location == "4C1"  # type: ignore[union-attr]


# -- 3.3.3, second example: the 5-3-6 may also move ----------------------------------------------
def test_3_3_3_example_2_the_other_squad_may_move_and_no_dummy_is_placed() -> None:
    """ "the latter is not required to exchange locations with the first, although it may do so
    if it desires": when the 5-3-6 does move to the 6-6-6's hex, that hex holds a HIP unit
    again and no dummy HIP counter is placed."""
    s = make(
        [
            {
                "id": "H1",
                "location": "4P5",
                "status": "hip",
                "counters": [{"id": "x", "name": "6-6-6"}],
            },
            {
                "id": "H2",
                "location": "4Q6",
                "status": "hip",
                "counters": [{"id": "y", "name": "5-3-6"}],
            },
        ]
    )
    s = to_phase(s, "MPh")
    s, out = play(s, "shift", [2, 2], a="H1", b="4Q6", back=["y"])
    assert out.rolls[0].row == "allowed"  # type: ignore[union-attr]
    where = {c.id: x.location for x in s.stacks if x.status == Status.HIP for c in x.counters}
    assert where == {"x": "4Q6", "y": "4P5"}
    assert not [x for x in s.stacks if x.status == Status.DUMMY_HIP]


# == the text's tables, number by number, against the rule data ================================
# O'Leary 2.5, the shift DR table as printed (the fourth row's label is lost in the source; by the
# gaps and the second example it is 11-12): each final DR, the row, and what the row does.
# (allowed, counted for later +1s, closes the phase, PDS lose status, dummies eliminated, HIP
# lost, concealment lost, TI)
SHIFT_ROWS = [
    (-3, "free", (True, False, False, False, False, False, False, False)),
    (0, "free", (True, False, False, False, False, False, False, False)),
    (1, "allowed", (True, True, False, False, False, False, False, False)),
    (7, "allowed", (True, True, False, False, False, False, False, False)),
    (8, "refused", (False, False, True, False, False, False, False, False)),
    (10, "refused", (False, False, True, False, False, False, False, False)),
    (11, "exposed", (False, False, True, True, True, True, False, False)),
    (12, "exposed", (False, False, True, True, True, True, False, False)),
    (13, "revealed", (False, False, True, True, True, True, True, True)),
    (16, "revealed", (False, False, True, True, True, True, True, True)),
]
FLAGS = (
    "allowed",
    "counted",
    "closes",
    "potential_lost",
    "dummy_lost",
    "hip_lost",
    "concealment_lost",
    "ti",
)


@pytest.mark.parametrize(("final", "key", "flags"), SHIFT_ROWS)
def test_2_5_shift_table_as_printed(final: int, key: str, flags: tuple[bool, ...]) -> None:
    row = RULESET.tables()["shift"].lookup(final)
    assert row.key == key
    assert tuple(getattr(row, f) for f in FLAGS) == flags


def test_2_5_drm_list_as_printed() -> None:
    """The DRM list of 2.5: +1 per previous shift, +1 enemy LOS, -1 both HIP, -1 LV hindrance,
    -2 night, -1 emplaced Gun; the starred sizes 0 / +1 / +2 / +3 / +4."""
    c = make([]).config
    d = c.drm
    assert (d.previous_shift, d.enemy_los, d.both_hip) == (1, 1, -1)
    assert (d.lv_hindrance, d.night, d.emplaced_gun) == (-1, -2, -1)
    z = c.size
    # 0: infantry, fortifications, small guns, very small vehicles
    assert (z.infantry, z.fortification, z.gun["small"], z.vehicle["very_small"]) == (0, 0, 0, 0)
    assert (z.gun["normal"], z.vehicle["small"]) == (1, 1)  # normal size guns, small vehicles
    assert (z.gun["large"], z.vehicle["normal"]) == (2, 2)  # large guns, normal size vehicles
    assert (z.vehicle["large"], z.vehicle["very_large"]) == (3, 4)


@pytest.mark.parametrize("table", ["boresight", "prereg"])
def test_6_1_and_7_1_extra_die_as_printed(table: str) -> None:
    """6.1 / 7.1: 1-2 this location (hex), 3-5 not (yet), 6 direction and distance dice."""
    t = RULESET.tables()[table]
    assert [t.lookup(f).key for f in range(1, 7)] == ["here"] * 2 + ["not_yet"] * 3 + ["scatter"]


def test_4_6_3_minefield_shift_table_as_printed() -> None:
    """4.6.3: a final DR >= 8 only disallows that shift; below it the minefields exchange."""
    t = RULESET.tables()["minefield_shift"]
    assert [t.lookup(f).allowed for f in (0, 1, 7, 8, 12, 13)] == [True] * 3 + [False] * 3
    assert not any(t.lookup(f).counted for f in (0, 7, 8))


def test_3_1_1_4_1_4_6_1_allotment_numbers_as_printed() -> None:
    """3.1.1 "one greater"; 4.1 one dummy HIP counter per three panji hexsides; 4.6.1 one dummy
    minefield per 3 FP of AP mines and per factor of AT mines."""
    a = make([]).config.allotment
    assert (a.dummy_hip_extra, a.panji_hexsides_per_dummy) == (1, 3)
    assert (a.ap_factors_per_dummy_minefield, a.at_factors_per_dummy_minefield) == (3, 1)


def test_3_3_3_example_1_remaining_squads_keep_hip_even_on_13_or_more() -> None:
    """ "Regardless of the results of the shift attempt": the worst row too. The stack's
    location is in enemy LOS and the side has shifted two HIP pairs this MPh: DR 12, +2
    (previous shifts) +1 (LOS) -1 (both HIP) = 14: the squad and the leader that tried lose HIP
    and concealment and become TI; the two squads that stayed out of it keep HIP."""
    s = make(
        [
            {
                "id": "H1",
                "location": "4P5",
                "status": "hip",
                "counters": [
                    {"id": "s1", "name": "4-5-7"},
                    {"id": "s2", "name": "4-5-7"},
                    {"id": "s3", "name": "4-5-7"},
                    {"id": "l1", "name": "8-1"},
                ],
            },
            {"id": "X1", "location": "4Q6", "status": "dummy_hip"},
            {"id": "H9", "location": "4A1", "status": "hip", "counters": ["4-4-7"]},
            {"id": "X9", "location": "4C1", "status": "dummy_hip"},
        ],
        side=[{"name": "Russian", "hip_squads": 4}],
        locations=[{"id": "4P5", "terrain": "open ground", "tem": 0, "los": True}],
    )
    s = to_phase(s, "MPh")
    for _ in range(2):
        s, o = play(s, "shift", [1, 1], a="H9", b="X9")
        assert o.rolls[0].row == "allowed"  # type: ignore[union-attr]
    s, out = play(s, "shift", [6, 6], a="4P5", b="4Q6", move=["s1", "l1"])
    r = out.rolls[0]
    assert (r.natural, r.final, r.row) == (12, 14, "revealed")  # type: ignore[union-attr]
    assert sorted(mods(out).values()) == [-1, 1, 2]
    by_counter = {c.id: x for x in s.stacks for c in x.counters}
    assert by_counter["s2"].status == by_counter["s3"].status == Status.HIP
    assert not by_counter["s2"].ti
    assert by_counter["s1"].status == by_counter["l1"].status == Status.REVEALED
    assert by_counter["s1"].ti and by_counter["s1"].location == "4P5"
