"""Shifting of potential dummy stacks, dummy stacks and cloaked units (O'Leary 2.2-2.5, 5)."""

from __future__ import annotations

import pytest
from asl_helpers import dhip, ds, hip, make, mods, odds, pds, play, row, to_phase

from vedette.errors import BadRequest, RuleViolation
from vedette.rules.solitaire_asl.model import Status


def two() -> object:
    return make([pds("P1", "4P5", "4-4-7"), ds("D1", "4Q6", 2), pds("P2", "4A1", "4-4-7")])


# -- timing (2.3) -------------------------------------------------------------------------------
@pytest.mark.parametrize("phase", ["PFPh", "DFPh", "AFPh", "RtPh", "CCPh"])
def test_2_3_only_at_start_of_mph_or_aph(phase: str) -> None:
    s = to_phase(two(), phase)  # type: ignore[arg-type]
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.3"):
        play(s, "shift", [1, 1], a="P1", b="D1")


def test_2_3_not_after_a_friendly_unit_moved() -> None:
    s = to_phase(two(), "MPh")  # type: ignore[arg-type]
    s, _ = play(s, "act")
    with pytest.raises(RuleViolation, match="already moved"):
        play(s, "shift", [1, 1], a="P1", b="D1")


def test_2_3_move_in_mph_starts_the_phase() -> None:
    s = to_phase(two(), "APh")  # type: ignore[arg-type]
    s, _ = play(s, "move", stack="P2", to="4A2")
    assert s.acted
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.3"):
        play(s, "shift", [1, 1], a="P1", b="D1")


def test_2_3_not_in_the_enemy_player_turn() -> None:
    s = to_phase(two(), "MPh", "German")  # type: ignore[arg-type]
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.3"):
        play(s, "shift", [1, 1], a="P1", b="D1")


def test_no_shift_during_setup() -> None:
    with pytest.raises(RuleViolation):
        play(two(), "shift", [1, 1], a="P1", b="D1")  # type: ignore[arg-type]


# -- counts (2.3.1-2.3.4) -----------------------------------------------------------------------
def test_2_3_1_whole_stacks_only() -> None:
    s = to_phase(two(), "MPh")  # type: ignore[arg-type]
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.3\.1"):
        play(s, "shift", [1, 1], a="P1", b="D1", counters=["4-4-7"])


def test_2_3_3_equal_real_counters() -> None:
    s = make(
        [pds("P1", "4P5", "4-4-7", "8-1"), pds("P2", "4Q6", "4-4-7"), pds("P3", "4A1", "5-2-7")]
    )
    s = to_phase(s, "MPh")
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.3\.3"):
        play(s, "shift", [1, 1], a="P1", b="P2")
    s, _out = play(s, "shift", [1, 1], a="P2", b="P3")
    assert s.stack("P2").location == "4A1"  # type: ignore[union-attr]


def test_2_3_4_dummy_stacks_equal_counters() -> None:
    s = to_phase(make([ds("D1", "4P5", 2), ds("D2", "4Q6", 3), ds("D3", "4A1", 2)]), "MPh")
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.3\.4"):
        play(s, "shift", [1, 1], a="D1", b="D2")
    s, _ = play(s, "shift", [1, 1], a="D1", b="D3")
    assert s.stack("D1").location == "4A1"  # type: ignore[union-attr]


def test_dummy_stack_first_is_reordered() -> None:
    s = to_phase(two(), "MPh")  # type: ignore[arg-type]
    s, _ = play(s, "shift", [1, 1], a="D1", b="P1")
    assert s.stack("P1").location == "4Q6"  # type: ignore[union-attr]


def test_3_3_1_hip_never_with_dummy_stacks() -> None:
    s = to_phase(
        make([pds("P1", "4P5", "4-4-7"), dhip("X1", "4Q6"), hip("H1", "4A1", "4-4-7")]), "MPh"
    )
    with pytest.raises(RuleViolation, match=r"O'Leary 3\.3\.1"):
        play(s, "shift", [1, 1], a="P1", b="X1")
    with pytest.raises(RuleViolation, match=r"O'Leary 3\.3\.1"):
        play(s, "shift", [1, 1], a="H1", b="4P5")


def test_only_potential_dummy_stacks_shift() -> None:
    s = make(
        [
            {"id": "C1", "location": "4P5", "status": "concealed", "counters": ["4-4-7"]},
            ds("D1", "4Q6", 2),
        ]
    )
    s = to_phase(s, "MPh")
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.2"):
        play(s, "shift", [1, 1], a="C1", b="D1")


def test_2_3_self_exchange_rolls_and_records_settings() -> None:
    s = make([pds("P1", "4P5", {"id": "v", "name": "T-34", "kind": "vehicle"})])
    s = to_phase(s, "MPh")
    s, out = play(s, "shift", [2, 2], a="P1", settings={"v": "TCA 3, VCA 3, BU"})
    assert row(out) == "allowed"
    assert s.stack("P1").counters[0].settings == "TCA 3, VCA 3, BU"  # type: ignore[union-attr]


def test_2_3_emplacement_only_if_allowed_at_start() -> None:
    s = make(
        [
            pds(
                "P1",
                "4P5",
                {"id": "g", "name": "57L AT", "kind": "gun", "size": "small", "may_emplace": True},
            ),
            pds("P2", "4Q6", {"id": "h", "name": "76 INF", "kind": "gun", "size": "normal"}),
        ]
    )
    s = to_phase(s, "MPh")
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.3"):
        play(s, "shift", [1, 1], a="P1", b="P2", emplaced=["h"])
    s2, _ = play(s, "shift", [1, 1], a="P1", b="P2", emplaced=["g"])
    assert s2.stack("P1").counters[0].emplaced  # type: ignore[union-attr]
    _, out = play(s2, "shift", [1, 1], a="P1", b="P2")
    assert mods(out)["emplaced Gun: 57L AT"] == -1


def test_2_3_boresight_eligibility_lost_if_a_stack_had_moved() -> None:
    s = make(
        [
            pds("P1", "4P5", {"id": "w", "name": "MMG", "kind": "sw", "boresight": True}),
            pds("P2", "4Q6", "4-4-7"),
            pds("P3", "4A1", "4-4-7"),
        ]
    )
    s = to_phase(s, "MPh")
    s1, _ = play(s, "shift", [1, 1], a="P1", b="P3")
    assert s1.counter("w")[1].boresight == "eligible"  # type: ignore[index]
    s = to_phase(s, "CCPh", "German")
    s, _ = play(s, "move", stack="P2", to="4Q7")
    s = to_phase(s, "MPh", "Russian")
    s, _ = play(s, "shift", [1, 1], a="P1", b="P2")
    assert s.counter("w")[1].boresight == "lost"  # type: ignore[index]


# -- the table (2.5) ----------------------------------------------------------------------------
def test_row_8_10_closes_the_phase_but_keeps_everything() -> None:
    s = to_phase(two(), "MPh")  # type: ignore[arg-type]
    before = s.stacks
    s, out = play(s, "shift", [4, 4], a="P1", b="D1")
    assert row(out) == "refused" and s.stacks == before
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.5"):
        play(s, "shift", [1, 1], a="P2", b="D1")


def test_ti_lasts_until_end_of_player_turn() -> None:
    s = make(
        [pds("P1", "4P5", "4-4-7"), ds("D1", "4Q6", 2)], locations=[{"id": "4P5", "los": True}]
    )
    s = to_phase(s, "MPh")
    s, out = play(s, "shift", [6, 6], a="P1", b="D1")
    assert row(out) == "revealed"
    p1 = s.stack("P1")
    assert p1 is not None and p1.ti and p1.status == Status.REVEALED
    s = to_phase(s, "CCPh")
    assert s.stack("P1").ti  # type: ignore[union-attr]
    s = to_phase(s, "PFPh", "German")
    assert not s.stack("P1").ti  # type: ignore[union-attr]


def test_closure_and_counts_reset_next_phase() -> None:
    s = to_phase(two(), "MPh")  # type: ignore[arg-type]
    s, _ = play(s, "shift", [4, 4], a="P1", b="D1")
    s = to_phase(s, "APh")
    _, out = play(s, "shift", [1, 1], a="P1", b="D1")
    assert not any("previous" in k for k in mods(out))


@pytest.mark.parametrize(
    ("kw", "reason", "value"),
    [
        ({"night": True}, "night scenario", -2),
        ({"lv": True}, "LV hindrance at all ranges", -1),
        ({"extra_drm": -2}, "scenario shift DRM (2.5 remark)", -2),
    ],
)
def test_scenario_drms(kw: dict[str, object], reason: str, value: int) -> None:
    s = to_phase(make([pds("P1", "4P5", "4-4-7"), ds("D1", "4Q6", 2)], **kw), "MPh")
    assert {m.reason: m.value for m in odds(s, "shift", a="P1", b="D1").modifiers}[reason] == value


def test_player_stated_facts_override() -> None:
    s = to_phase(two(), "MPh")  # type: ignore[arg-type]
    o = odds(s, "shift", a="P1", b="D1", tem_a=3, tem_b=2, los=True, lv=True)
    assert sorted(m.value for m in o.modifiers) == [-2, -1, 1]


def test_2_4_player_states_inconsistency() -> None:
    s = to_phase(two(), "MPh")  # type: ignore[arg-type]
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.4"):
        play(s, "shift", [1, 1], a="P1", b="D1", consistent=False)


def test_2_4_1_option_separates_counter_sizes() -> None:
    from vedette.rules.solitaire_asl import RULESET

    scen = {
        "sides": ["Russian", "German"],
        "stacks": [
            pds("P1", "4P5", "4-4-7", side="Russian"),
            pds("P2", "4Q6", {"name": "T-34", "kind": "vehicle"}, side="Russian"),
        ],
    }
    s = to_phase(RULESET.initial_state(scen, {}), "MPh")
    play(s, "shift", [1, 1], a="P1", b="P2")
    s = to_phase(RULESET.initial_state(scen, {"separate_counter_sizes": True}), "MPh")
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.4\.1"):
        play(s, "shift", [1, 1], a="P1", b="P2")


def test_unknown_stack_is_bad_request() -> None:
    s = to_phase(two(), "MPh")  # type: ignore[arg-type]
    with pytest.raises(BadRequest):
        play(s, "shift", [1, 1], a="P9", b="D1")


# -- 2.2 ----------------------------------------------------------------------------------------
def test_2_2_split_merge_drop_and_reveal() -> None:
    s = make([pds("P1", "4P5", "4-4-7", "4-4-7")])
    s = to_phase(s, "MPh")
    s, _ = play(s, "move", stack="P1", to="4P6", counters=["P1.2"])
    split = [x for x in s.stacks if x.id != "P1"]
    assert len(split) == 1 and split[0].status == Status.POTENTIAL_DUMMY
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.2"):
        play(s, "merge", a="P1", b=split[0].id)
    s, _ = play(s, "move", stack="P1", to="4P6")
    s = to_phase(s, "CCPh")
    s, _ = play(s, "merge", a="P1", b=split[0].id)
    assert s.stack("P1").real == 2 and len(s.stacks) == 1  # type: ignore[union-attr]
    s2, _ = play(s, "drop", stack="P1")
    assert s2.stack("P1").status == Status.CONCEALED  # type: ignore[union-attr]
    s3, _ = play(s, "reveal", what="P1")
    assert s3.stack("P1").status == Status.REVEALED  # type: ignore[union-attr]
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.2"):
        play(s3, "mark", stack="P1")


# -- night (5) ----------------------------------------------------------------------------------
def cloaked() -> object:
    return make(
        [
            {"id": "K1", "location": "4P5", "status": "cloaked", "counters": ["4-4-7", "8-1"]},
            {"id": "K2", "location": "4Q6", "status": "cloaked"},
            {"id": "K3", "location": "4A1", "status": "cloaked", "counters": ["4-4-7"]},
        ],
        night=True,
    )


@pytest.mark.parametrize(
    ("phase", "ok"),
    [("MPh", True), ("AFPh", True), ("APh", True), ("PFPh", False), ("DFPh", False)],
)
def test_5_1_cloaked_windows(phase: str, ok: bool) -> None:
    s = to_phase(cloaked(), phase)  # type: ignore[arg-type]
    if ok:
        s, out = play(s, "shift", [1, 1], a="K1", b="K2")
        assert mods(out)["night scenario"] == -2
        assert s.stack("K1").location == "4Q6"  # type: ignore[union-attr]
    else:
        with pytest.raises(RuleViolation, match=r"O'Leary 5\.1"):
            play(s, "shift", [1, 1], a="K1", b="K2")


def test_5_cloaked_only_with_cloaked_and_never_regained() -> None:
    s = make(
        [
            {"id": "K1", "location": "4P5", "status": "cloaked", "counters": ["4-4-7"]},
            pds("P1", "4Q6", "4-4-7"),
            {"id": "K2", "location": "4A1", "status": "cloaked"},
        ],
        night=True,
    )
    s = to_phase(s, "MPh")
    with pytest.raises(RuleViolation, match=r"O'Leary 5\.1"):
        play(s, "shift", [1, 1], a="K1", b="P1")
    s, out = play(s, "shift", [6, 6], a="K1", b="K2", los=True, tem_a=-3)
    assert row(out) == "revealed"
    assert s.stack("K1").status == Status.REVEALED and s.stack("K2") is None  # type: ignore[union-attr]
    s = to_phase(s, "MPh", "Russian")
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.2"):
        play(s, "shift", [1, 1], a="K1", b="K1")


def test_5_cloaking_needs_night() -> None:
    from vedette.errors import DataError

    with pytest.raises(DataError):
        make([{"id": "K1", "location": "4P5", "status": "cloaked", "counters": ["4-4-7"]}])


def test_2_4_2_several_locations_shift_as_one_stack() -> None:
    """A mortar crew and its spotter in the next location shift with two dummy stacks."""
    s = make(
        [
            pds("P1", "4P5", "2-2-8", "50mm MTR"),
            pds("P2", "4P6", "8-0"),
            ds("D1", "4A1", 3),
            ds("D2", "4A2", 2),
            ds("D3", "4A3", 1),
        ],
        locations=[{"id": "4A2", "los": True, "tem": -1}],
    )
    s = to_phase(s, "MPh")
    s2, out = play(s, "shift", [2, 2], a="P1", b="D1", also=[["P2", "D2"]])
    assert mods(out) == {"worst TEM -1: terrain 4A2": 1, "in LOS of an enemy unit: 4A2": 1}
    assert s2.stack("P1").location == "4A1" and s2.stack("P2").location == "4A2"  # type: ignore[union-attr]
    assert s2.stack("D2").location == "4P6"  # type: ignore[union-attr]
    s3, out = play(s, "shift", [6, 6], a="P1", b="D1", also=[["P2", "D2"]])
    assert row(out) == "revealed" and s3.stack("D2") is None and s3.stack("P2").ti  # type: ignore[union-attr]
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.3\.2"):
        play(s, "shift", [1, 1], a="P1", b="D1", also=[["P2", "D3"]])
    with pytest.raises(BadRequest, match=r"2\.4\.2"):
        play(s, "shift", [1, 1], a="P1", b="D1", also=[["P2", "D1"]])


@pytest.mark.parametrize(
    ("req", "legal"),
    [({"los": True}, False), ({"los_b": True}, False), ({"los_a": True}, True), ({}, True)],
)
def test_2_4_t34_consistency_uses_the_stated_los(req: dict[str, bool], legal: bool) -> None:
    """The LOS the player states for the shift decides 2.4 as it decides the +1 DRM."""
    s = make(
        [pds("P1", "4P5", {"name": "T-34", "kind": "vehicle"}), ds("D1", "4Q6", 2)],
        locations=[{"id": "4Q6", "terrain": "open ground", "concealment_terrain": False}],
    )
    s = to_phase(s, "MPh")
    if legal:
        play(s, "shift", [1, 1], a="P1", b="D1", **req)
    else:
        with pytest.raises(RuleViolation, match=r"O'Leary 2\.4"):
            play(s, "shift", [1, 1], a="P1", b="D1", **req)


def test_2_3_vehicle_shifted_to_a_crest_line_location_may_try_hd() -> None:
    s = make(
        [pds("P1", "4P5", {"name": "T-34", "kind": "vehicle"}), ds("D1", "4Q6", 2)],
        locations=[{"id": "4Q6", "terrain": "hillside with crest line", "tem": 0}],
    )
    s = to_phase(s, "MPh")
    _, out = play(s, "shift", [1, 1], a="P1", b="D1")
    assert "P1 may now make a HD maneuver attempt DR (2.3)" in out.details["changes"]
    s2 = make(
        [pds("P1", "4P5", {"name": "T-34", "kind": "vehicle"}), ds("D1", "4Q6", 2)],
    )
    _, out = play(to_phase(s2, "MPh"), "shift", [1, 1], a="P1", b="D1")
    assert not any("HD" in c for c in out.details["changes"])


def test_2_3_a_gun_emplaced_at_the_start_may_be_emplaced_again_after_a_shift() -> None:
    s = make(
        [
            pds("P1", "4P5", {"id": "g", "name": "57L AT", "kind": "gun", "emplaced": True}),
            pds("P2", "4Q6", "4-4-7"),
        ]
    )
    s = to_phase(s, "MPh")
    s2, out = play(s, "shift", [1, 1], a="P1", b="P2", emplaced=["g"])
    assert mods(out)["emplaced Gun: 57L AT"] == -1
    assert s2.counter("g")[1].emplaced  # type: ignore[index]
    s3, _ = play(s, "shift", [1, 1], a="P1", b="P2")
    assert not s3.counter("g")[1].emplaced  # type: ignore[index]


def test_5_cloaked_units_may_share_the_dummy_bookkeeping_by_house_rule() -> None:
    from vedette.rules.solitaire_asl import RULESET

    scen = {
        "sides": ["Russian", "German"],
        "night": True,
        "stacks": [
            {
                "id": "K1",
                "side": "Russian",
                "location": "4P5",
                "status": "cloaked",
                "counters": ["4-4-7"],
            },
            {"id": "K2", "side": "Russian", "location": "4Q6", "status": "cloaked"},
            {
                "id": "K3",
                "side": "Russian",
                "location": "4A1",
                "status": "cloaked",
                "counters": ["4-4-7"],
            },
            pds("P1", "4C1", "4-4-7", side="Russian"),
            ds("D1", "4C2", 2, side="Russian"),
        ],
    }
    own = to_phase(RULESET.initial_state(scen, {}), "MPh")
    joined = to_phase(
        RULESET.initial_state(scen, {"house_rules": {"operations": {"cloaked": "dummy"}}}),
        "MPh",
    )
    s, _ = play(own, "shift", [2, 2], a="K1", b="K2")
    assert not any("previous" in k for k in mods(play(s, "shift", [1, 1], a="P1", b="D1")[1]))
    s, _ = play(joined, "shift", [2, 2], a="K1", b="K2")
    assert mods(play(s, "shift", [1, 1], a="P1", b="D1")[1])["1 previous shift this phase"] == 1
    s, out = play(own, "shift", [6, 6], a="K3", b="K2")
    assert row(out) == "refused"  # 12 - 2 (night) = 10: cloaked shifts over
    play(s, "shift", [1, 1], a="P1", b="D1")
    s, out = play(joined, "shift", [6, 6], a="K3", b="K2")
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.5"):
        play(s, "shift", [1, 1], a="P1", b="D1")
