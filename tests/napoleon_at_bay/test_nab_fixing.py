"""Herman (1)-(4) and the first draft: eligibility, DRMs, the choice of the supporting force,
substitution and placement, the fixed state."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from nab_helpers import force, grid, make, move, odds, play, run, scenario, waived

from vedette.errors import BadRequest, DataError, RuleViolation

RING1 = ["A0506", "A0507", "A0605", "A0607", "A0706", "A0707"]  # around A0606


def base(
    *extra: dict[str, Any],
    mover: dict[str, Any] | None = None,
    contact: dict[str, Any] | None = None,
    map_: dict[str, Any] | None = None,
    **opts: Any,
):  # type: ignore[no-untyped-def]
    """F1 (Fr) starts at A0504 and moves to A0605, into the ZOC of R1 (Ru) at A0606."""
    f1 = force("F1", "Fr", "A0504", infantry=4, **(mover or {}))
    r1 = force("R1", "Ru", "A0606", **(contact or {"vedettes": 1}))
    s = make([f1, r1, *extra], map_, **opts)
    return move(s, "F1", "A0605")


# -- DRMs (Herman (3) 1-4) ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("mover", "contact", "mods", "case"),
    [
        ({}, {"generals": ["G"]}, [], 4),
        ({"cavalry": 1}, {"generals": ["G"]}, [(-2, "only Fr has Cav")], 1),
        ({"vedettes": 1}, {"generals": ["G"], "infantry": 3}, [(-2, "only Fr has Vedette")], 1),
        ({}, {"vedettes": 1}, [(2, "only Ru has Vedette")], 3),
        ({}, {"generals": ["G"], "cavalry": 2}, [(2, "only Ru has Cav")], 3),
        ({"cavalry": 2}, {"vedettes": 1}, [(-1, "superior Fr Cav")], 2),
        ({"cavalry": 1}, {"vedettes": 1, "cavalry": 1}, [(1, "superior Ru Cav")], 2),
        ({"cavalry": 1}, {"vedettes": 1}, [], 2),
    ],
)
def test_each_drm_case(
    mover: dict[str, Any], contact: dict[str, Any], mods: list[Any], case: int
) -> None:
    s = base(force("R2", "Ru", "A0609", infantry=2), mover=mover, contact=contact)
    out = run(s, "fix", [3], moving="F1", contact="R1")
    roll = out.rolls[0]
    assert [(m.value, m.reason) for m in roll.modifiers] == mods
    assert all(m.rule.startswith("Herman (3)") for m in roll.modifiers)
    assert out.details["drm_case"] == case
    assert roll.final == 3 + sum(v for v, _ in mods)


def test_vedette_strength_is_a_parameter() -> None:
    kw: dict[str, Any] = {"mover": {"cavalry": 2}, "contact": {"vedettes": 1}}
    r2 = force("R2", "Ru", "A0609", infantry=2)
    one = run(base(r2, **kw), "fix", [3], moving="F1", contact="R1").rolls[0]
    three = run(base(r2, vedette_strength=3, **kw), "fix", [3], moving="F1", contact="R1").rolls[0]
    assert [m.value for m in one.modifiers] == [-1]
    assert [m.value for m in three.modifiers] == [1]


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_table_rows(face: int) -> None:
    s = base(force("R2", "Ru", "A0609", infantry=2), contact={"generals": ["G"]})
    out = run(s, "fix", [face], moving="F1", contact="R1")
    assert out.details["result"] == ("stays" if face <= 3 else "substitution")


# -- eligibility (Herman (1), (2)) -------------------------------------------------------------
def test_eligibility_errors() -> None:
    r2 = force("R2", "Ru", "A0609", infantry=2)
    s = base(r2)

    def bad(state: Any, rule: str, match: str, **req: Any) -> None:
        with pytest.raises(RuleViolation, match=match) as e:
            run(state, "fix", [3], **{"moving": "F1", "contact": "R1", **req})
        assert e.value.rule == rule

    # the contact force is not in the moving force's way
    far = make([force("F1", "Fr", "A0101", infantry=1), force("R1", "Ru", "A0606", vedettes=1)])
    far = move(far, "F1", "A0102")
    bad(far, "Herman (1)", "has not entered the ZOC")
    # not a moving force (has not moved this phase)
    fresh = make([force("F1", "Fr", "A0605", infantry=1), force("R1", "Ru", "A0606", vedettes=1)])
    bad(fresh, "Herman (1)", "not a moving force")
    # same side / non-force pieces / no vedette or general
    bad(s, "Herman (1)", "same side", contact="F1", moving="F1")
    g = base(force("RG", "Ru", "A0707", kind="garrison"))
    bad(g, "Herman (3)", "not a force", contact="RG")
    strict = base(contact={"infantry": 3}, contact_needs_vedette_or_general=True)
    bad(strict, "Herman (1)", "neither a vedette nor a general")
    # by default any force may be a contact force (DRM 4: neither force has cavalry)
    plain = base(r2, contact={"infantry": 3})
    out = run(plain, "fix", [3], moving="F1", contact="R1")
    assert out.details["drm_case"] == 4 and out.message == "1d6=3, R1 remains in hex"
    # another enemy force already in its ZOC
    two = base(force("F2", "Fr", "A0707", infantry=1))
    bad(two, "Herman (1)", "enemy force in its ZOC")
    # repulse needs a force march
    bad(s, "Herman (1)", "force march", repulse=True)
    fm = make([force("F1", "Fr", "A0504", infantry=1), force("R1", "Ru", "A0606", vedettes=1), r2])
    fm = move(fm, "F1", "A0605", march="force")
    assert run(fm, "fix", [3], moving="F1", contact="R1", repulse=True).details["repulse"]
    # combat phase
    _, c = play(waived(s), "end_movement")
    bad(c, "Herman (5)", "combat phase")
    with pytest.raises(BadRequest):
        run(s, "fix", [3], moving="F1", contact="NOPE")


def test_final_needs_no_enemy_adjacent_draft_only_no_zoc() -> None:
    """An enemy adjacent across a ZOC-blocking hexside: refused by the final text only."""
    m = grid(hexsides=[("impassable", [["A0606", "A0707"]])])
    f2 = force("F2", "Fr", "A0707", infantry=1)
    r2 = force("R2", "Ru", "A0609", infantry=2)
    final = base(f2, r2, map_=m)
    with pytest.raises(RuleViolation, match="enemy force adjacent"):
        run(final, "fix", [3], moving="F1", contact="R1")
    draft = base(f2, r2, map_=m, variant="draft")
    assert run(draft, "fix", [3], moving="F1", contact="R1").details["result"] == "substitution"


# -- choice of the supporting force (Herman (1), (4)) ----------------------------------------
def test_closest_in_mp_not_in_hexes() -> None:
    """R_NEAR is 2 hexes away behind marsh (4 MP); R_ROAD is 3 hexes away on a road (3/2 MP)."""
    marsh = [h for h in RING1 if h != "A0605"]
    m = grid(areas={"marsh": marsh}, roads=[["A0603", "A0604", "A0605", "A0606"]])
    near = force("R_NEAR", "Ru", "A0708", infantry=3)
    road = force("R_ROAD", "Ru", "A0603", infantry=3)
    s = make(
        [
            force("F1", "Fr", "A0504", infantry=4),
            force("R1", "Ru", "A0606", vedettes=1),
            near,
            road,
        ],
        m,
    )
    s = move(s, "F1", "A0605")
    o = odds(s, moving="F1", contact="R1")
    assert o[1].p("R_ROAD") == Fraction(5, 6) and o[1].p("R_NEAR") == 0
    out, after = play(s, "fix", [4], moving="F1", contact="R1")
    assert out.details["chosen"] == "R_ROAD" and len(out.rolls) == 1
    assert after.map.distance("A0708", "A0606") < after.map.distance("A0603", "A0606")
    q = run(s, "candidates", contact="R1", moving="F1").details["candidates"]
    assert [(c["force"], c["mp"]) for c in q] == [("R_ROAD", "3/2"), ("R_NEAR", "4")]


@pytest.mark.parametrize(("tie_face", "chosen"), [(1, "R2"), (3, "R2"), (4, "R3"), (6, "R3")])
def test_tie_broken_by_die_roll(tie_face: int, chosen: str) -> None:
    s = base(
        force("R2", "Ru", "A0608", infantry=1),
        force("R3", "Ru", "A0806", infantry=1),
        contact={"generals": ["G"]},
    )
    o = odds(s, moving="F1", contact="R1")
    assert o[1].p("R2") == o[1].p("R3") == Fraction(1, 4)
    out = run(s, "fix", [5, tie_face], moving="F1", contact="R1")
    assert out.details["chosen"] == chosen
    tie = out.rolls[1]
    assert tie.expression == "1d6" and tie.rule == "Herman (1)" and tie.row == chosen


def test_four_way_tie_rolls_the_players_d6_again_above_four() -> None:
    """Herman (1) ties: a 4-way tie is rolled with an ordinary d6, re-rolled on 5-6 (every
    roll recorded); the exact odds stay 1/4 each. Option tie_die=dN asks for a d4."""
    forces = [
        force(f"R{i}", "Ru", h, infantry=1)
        for i, h in enumerate(["A0608", "A0806", "A0406", "A0505"], start=2)
    ]
    s = base(*forces, contact={"generals": ["G"]})
    chosen = {f["id"] for f in forces if s.map.distance(f["hexes"][0], "A0606") == 2}
    assert len(chosen) == 4
    out = run(s, "fix", [5, 6, 5, 3], moving="F1", contact="R1")
    assert [r.expression for r in out.rolls] == ["1d6", "1d6", "1d6", "1d6"]
    assert [r.row for r in out.rolls[1:]] == ["again", "again", "R4"]
    assert out.details["chosen"] == "R4"
    o = odds(s, moving="F1", contact="R1")
    assert all(o[1].p(f"R{i}") == Fraction(1, 2) / 4 for i in range(2, 6))
    assert all(o[2].p(f"R{i}") == Fraction(1, 4) for i in range(2, 6))
    dn = base(*forces, contact={"generals": ["G"]}, tie_die="dN")
    out = run(dn, "fix", [5, 3], moving="F1", contact="R1")
    assert out.rolls[1].expression == "1d4" and out.details["chosen"] == "R4"


def test_out_of_range_and_non_forces_never_substitute() -> None:
    s = base(
        force("RB", "Ru", "A0608", kind="bridge_train"),
        force("RC", "Ru", "A0806", kind="center_of_operations"),
        force("RG", "Ru", "A0707", kind="garrison"),
        force("RFAR", "Ru", "A0610", infantry=5),
    )  # 4 hexes: beyond the 5x range
    # Herman (3): the player rolls; (4): a 4-6 with none in range leaves it fixed
    out, after = play(s, "fix", [4], moving="F1", contact="R1")
    assert len(out.rolls) == 1 and out.details["result"] == "no_candidate"
    assert out.message == (
        "1d6=4+2 (only Ru has Vedette)=6, no supporting force within 3 hexes: R1 remains in hex"
    )
    assert after.pieces["R1"].fixed and after.pieces["R1"].hexes == ("A0606",)
    assert out.rolls[0].line().endswith("→ no supporting force within 3 hexes: R1 remains in hex")
    assert run(s, "fix", [1], moving="F1", contact="R1").details["result"] == "stays"
    o = odds(s, moving="F1", contact="R1")
    assert o[0].p("substitution") == Fraction(5, 6) and o[1].p("stays") == 1
    assert [r.key for r in o[1].rows] == ["stays"]  # RFAR is out of range
    # the knob: no roll at all when nothing can be substituted
    quiet = base(force("RFAR", "Ru", "A0610", infantry=5), roll_without_candidates=False)
    out, after = play(quiet, "fix", [], moving="F1", contact="R1")
    assert out.rolls == () and out.details["result"] == "no_candidate" and after.pieces["R1"].fixed
    assert odds(quiet, moving="F1", contact="R1")[0].p("stays") == 1
    # the 1x series reaches 10 hexes
    s1 = base(force("RFAR", "Ru", "A0610", infantry=5), series="1x")
    assert run(s1, "fix", [6], moving="F1", contact="R1").details["chosen"] == "RFAR"


# -- placement (Herman (4)) --------------------------------------------------------------------
def test_multi_hex_support_in_zoc_and_owner_choice() -> None:
    mx = force("RMX", "Ru", "A0608", "A0609", infantry=4)
    s = base(mx)
    out, after = play(s, "fix", [6], moving="F1", contact="R1")
    arrays = [tuple(a) for a in out.details["arrays"]]
    zoc = set(after.map.zoc("A0605"))
    assert arrays and all(set(a) <= zoc for a in arrays)
    assert all(a[0] == "A0606" for a in arrays)
    assert after.pieces["RMX"].hexes == arrays[0]
    assert after.pieces["R1"].hexes[0] in ("A0608", "A0609")
    # the owning player's choice among the legal arrays
    pick = arrays[-1]
    _out2, after2 = play(
        s, "fix", [6], moving="F1", contact="R1", array=list(pick), contact_to="A0609"
    )
    assert after2.pieces["RMX"].hexes == pick and after2.pieces["R1"].hexes == ("A0609",)
    # a choice that is not legal falls back to the default, and says so
    out3 = run(s, "fix", [6], moving="F1", contact="R1", array=["A0606", "A0404"])
    assert "not legal" in out3.message


def test_multi_hex_outside_zoc_when_no_room_in_it() -> None:
    """Both hexes of the mover's ZOC next to A0606 are lakes: any touching array is legal."""
    m = grid(areas={"lake": ["A0506", "A0706"]})
    s = base(force("RMX", "Ru", "A0608", "A0609", infantry=4), map_=m)
    out = run(s, "fix", [6], moving="F1", contact="R1")
    arrays = out.details["arrays"]
    assert len(arrays) > 1
    assert not any(set(a) <= set(s.map.zoc("A0605")) for a in arrays)


def test_illegal_placement_falls_to_next_candidate() -> None:
    """The closest force is three hexes wide but A0606 is hemmed in by lakes: the next one."""
    lakes = [h for h in RING1 if h != "A0605"]
    big = force("RBIG", "Ru", "A0404", "A0405", "A0406", infantry=9)
    small = force("RSMALL", "Ru", "A0808", infantry=1)
    s = base(big, small, map_=grid(areas={"lake": lakes}))
    o = odds(s, moving="F1", contact="R1")
    assert o[1].p("RBIG") == 0 and o[1].p("RSMALL") == Fraction(5, 6)
    assert run(s, "fix", [6], moving="F1", contact="R1").details["chosen"] == "RSMALL"


def test_multi_hex_contact_force_is_arrayed_at_the_vacated_hex() -> None:
    s = base(force("R2", "Ru", "A0609", infantry=2), contact={"vedettes": 1, "cavalry": 0})
    two = make(
        [
            force("F1", "Fr", "A0504", infantry=4),
            force("R1", "Ru", "A0606", "A0607", vedettes=1),
            force("R2", "Ru", "A0610", infantry=2),
        ]
    )
    two = move(two, "F1", "A0605")
    _out, after = play(two, "fix", [6], moving="F1", contact="R1")
    r1 = after.pieces["R1"].hexes
    assert len(r1) == 2 and "A0610" in r1 and after.map.adjacent(*r1)
    assert after.pieces["R2"].hexes == ("A0606",)
    assert s  # the one-hex case is the example table's


# -- the fixed state (Herman (2)) ----------------------------------------------------------------
def test_fixed_lifecycle() -> None:
    # F1 moves on and back within one phase: reading A22's knob allows it (default: once)
    s = base(force("R2", "Ru", "A0609", infantry=2), one_move_per_phase=False)
    _, s = play(s, "fix", [1], moving="F1", contact="R1")
    assert s.pieces["R1"].fixed
    with pytest.raises(RuleViolation, match=r"fixed .*\(Herman \(2\)\)"):
        run(s, "fix", [6], moving="F1", contact="R1")
    s = move(s, "F1", "A0602")  # no longer adjacent to an enemy force
    assert not s.pieces["R1"].fixed
    s = move(s, "F1", "A0605")
    assert run(s, "fix", [6], moving="F1", contact="R1").details["result"] == "substitution"


def test_a_fixed_force_is_never_substituted() -> None:
    fixed = force("R2", "Ru", "A0608", infantry=2, fixed=True)
    f3 = force("F3", "Fr", "A0609", infantry=1)  # keeps R2 adjacent to an enemy: stays fixed
    s = base(fixed, f3, force("R3", "Ru", "A0405", infantry=1))
    assert s.pieces["R2"].fixed
    out = run(s, "fix", [6], moving="F1", contact="R1")
    assert out.details["chosen"] == "R3"


def test_substitute_fixed_is_a_knob() -> None:
    r2 = force("R2", "Ru", "A0609", infantry=2)
    _, after = play(base(r2, substitute_is_fixed=False), "fix", [6], moving="F1", contact="R1")
    assert not after.pieces["R2"].fixed


# -- the first draft -------------------------------------------------------------------------
def test_draft_chooses_at_random_among_all_in_range() -> None:
    near = force("R2", "Ru", "A0707", infantry=1)  # wait: adjacent to R1, not to F1
    far = force("R3", "Ru", "A0609", infantry=1)
    final = base(near, far)
    assert run(final, "fix", [6], moving="F1", contact="R1").details["chosen"] == "R2"
    draft = base(near, far, variant="draft")
    o = odds(draft, moving="F1", contact="R1")
    assert o[1].p("R2") == o[1].p("R3") == Fraction(5, 12)
    out = run(draft, "fix", [6, 5], moving="F1", contact="R1")
    assert out.details["chosen"] == "R3" and out.rolls[1].rule == "Herman, first draft"


def test_bad_variant_is_refused() -> None:
    with pytest.raises(BadRequest, match="variant"):
        make([force("F1", "Fr", "A0101", infantry=1)], variant="second")


# -- house rules -------------------------------------------------------------------------------
def test_house_rules_change_drms_and_table() -> None:
    r2 = force("R2", "Ru", "A0609", infantry=2)
    house = {"fixing": {"drm": {"only_contact_has": 3, "reason_only": "{side} screen"}}}
    out = run(base(r2, house_rules=house), "fix", [1], moving="F1", contact="R1")
    assert out.message == "1d6=1+3 (Ru screen)=4, R1 and R2 switch places"
    table = {
        "tables": {
            "fixing": {
                "dice": "1d6",
                "rows": [
                    {"range": "<=4", "key": "stays", "result": "stays"},
                    {"range": "5+", "key": "substitution", "result": "switch"},
                ],
            }
        }
    }
    o = odds(base(r2, house_rules=table), moving="F1", contact="R1")
    assert o[0].p("stays") == Fraction(1, 3)  # die 1-2, +2 for the vedette
    gap = {
        "tables": {
            "fixing": {
                "rows": [{"range": "<=2", "key": "stays"}, {"range": "5+", "key": "substitution"}]
            }
        }
    }
    with pytest.raises(DataError, match="gap"):
        base(r2, house_rules=gap)


def test_house_rule_fixing_dice_are_rolled_and_checked() -> None:
    """Herman (3): the fixing roll's die is data ([fixing] dice, the text's 1d6): a house rule
    of 1d8 gives R1 (+2, only it has a vedette) 1 in 8 to stay where a d6 gives 1 in 6, and an
    8 is rolled; dice that are no dice are refused when the game is made, in one line."""
    r2 = force("R2", "Ru", "A0609", infantry=2)
    assert odds(base(r2), moving="F1", contact="R1")[0].p("stays") == Fraction(1, 6)
    d8 = base(r2, house_rules={"fixing": {"dice": "1d8"}})
    assert odds(d8, moving="F1", contact="R1")[0].p("stays") == Fraction(1, 8)
    out = run(d8, "fix", [8], moving="F1", contact="R1")
    assert out.message.startswith("1d8=8+2 (only Ru has Vedette)=10")
    with pytest.raises(DataError, match=r"\[fixing\] dice must be dice such as 1d6, not 'd'$"):
        base(r2, house_rules={"fixing": {"dice": "d"}})


def test_small_support_takes_the_contact_hex_in_the_movers_zoc() -> None:
    """A two-hex contact force, a one-hex supporting force: it takes the hex next to F1."""
    s = make(
        [
            force("F1", "Fr", "A0502", infantry=4),
            force("R1", "Ru", "A0607", "A0606", vedettes=1),
            force("R2", "Ru", "A0609", infantry=2),
        ]
    )
    s = move(s, "F1", "A0605")
    out, after = play(s, "fix", [6], moving="F1", contact="R1")
    assert out.details["arrays"] == [["A0606"]]
    assert after.pieces["R2"].hexes == ("A0606",)
    assert set(after.pieces["R1"].hexes) & {"A0609"}


def test_ids_without_letter_given_as_numbers() -> None:
    m = {**grid(), "letter": ""}
    s = make([force("F1", "Fr", "0504", infantry=1), force("R1", "Ru", "0606", vedettes=1)], m)
    s = move(s, "F1", 605)  # type: ignore[arg-type]
    assert s.pieces["F1"].hexes == ("0605",)


def test_a_garrison_may_join_a_friendly_force_but_a_force_may_not() -> None:
    s = make(
        [
            force("F1", "Fr", "A0101", infantry=1),
            force("F2", "Fr", "A0103", infantry=1),
            force("FG", "Fr", "A0105", kind="garrison"),
        ]
    )
    s = move(s, "FG", "A0101")
    assert set(s.occupancy["A0101"]) == {"F1", "FG"}
    with pytest.raises(RuleViolation, match="full stack"):
        move(s, "F2", "A0101")


# -- review additions ----------------------------------------------------------------------------
def test_forces_in_range_but_none_placeable_say_so() -> None:
    """Herman (4): a force in range that cannot legally take the contact force's place is not
    'no force in range': the message names it, and the contact force stays, fixed."""
    lakes = [h for h in RING1 if h != "A0605"]
    big = force("RBIG", "Ru", "A0404", "A0405", infantry=9)  # needs a second hex next to A0606
    s = base(big, map_=grid(areas={"lake": lakes}))
    out, after = play(s, "fix", [6], moving="F1", contact="R1")
    assert len(out.rolls) == 1 and out.details["result"] == "no_legal_candidate"
    assert out.details["in_range"] == ["RBIG"]
    assert "can legally take its place (RBIG)" in out.message
    assert after.pieces["R1"].fixed and after.pieces["RBIG"].hexes == ("A0404", "A0405")


def test_odds_show_the_tie_roll_too() -> None:
    """--odds covers every roll fix may make: the tie roll among equally close forces."""
    s = base(
        force("R2", "Ru", "A0608", infantry=1),
        force("R3", "Ru", "A0806", infantry=1),
        contact={"generals": ["G"]},
    )
    o = odds(s, moving="F1", contact="R1")
    assert len(o) == 3
    tie = o[2]
    assert tie.expression == "1d6" and tie.rule == "Herman (1)"
    assert tie.p("R2") == tie.p("R3") == Fraction(1, 2)
    assert "only on a substitution" in tie.note
    # no tie, no third table
    assert len(odds(base(force("R2", "Ru", "A0608", infantry=1)), moving="F1", contact="R1")) == 2


def test_json_lists_every_changed_hex_with_its_pieces() -> None:
    mx = force("RMX", "Ru", "A0608", "A0609", infantry=4)
    out = run(base(mx), "fix", [6], moving="F1", contact="R1")
    hexes = out.details["hexes"]
    new = out.details["changes"][0]["to"]
    assert set(hexes) == {"A0606", "A0608", "A0609", *new}
    assert hexes["A0606"] == ["RMX"]
    assert sorted(i for v in hexes.values() for i in v) == ["R1", "RMX", "RMX"]
    stays = run(base(mx), "fix", [1], moving="F1", contact="R1")
    assert stays.details["hexes"] == {} and stays.details["fixed"] == {"R1": True}


def test_draft_has_no_rule_5_citation() -> None:
    s = base(force("R2", "Ru", "A0609", infantry=2), variant="draft")
    _, c = play(waived(s), "end_movement")
    with pytest.raises(RuleViolation) as e:
        run(c, "fix", [3], moving="F1", contact="R1")
    assert e.value.rule == "Herman, first draft"


def test_a_force_that_began_in_the_zoc_did_not_enter_it() -> None:
    """Herman (1): the moving force must *enter* the contact force's ZOC."""
    r2 = force("R2", "Ru", "A0609", infantry=2)
    # F1 moves three times in one phase: reading A22's knob allows it (default: once)
    forces = [force("F1", "Fr", "A0605", infantry=1), force("R1", "Ru", "A0606", vedettes=1), r2]
    s = make(forces, one_move_per_phase=False)
    s = move(s, "F1", "A0506")  # still next to A0606
    with pytest.raises(RuleViolation, match="did not enter") as e:
        run(s, "fix", [3], moving="F1", contact="R1")
    assert e.value.rule == "Herman (1)"
    out = run(s, "move", force="F1", to="A0505")  # out of the ZOC ...
    assert "enters the ZOC" not in out.message
    s = move(move(s, "F1", "A0505"), "F1", "A0605")  # ... and back in: it enters
    assert run(s, "fix", [3], moving="F1", contact="R1").rolls[0].final == 5


@pytest.mark.parametrize("march", ["normal", "command", "initiative", "force"])
def test_every_kind_of_move_fixes_the_same_way(march: str) -> None:
    """Herman (1): normal moves (command or initiative) and force marches alike."""
    s = make(
        [
            force("F1", "Fr", "A0504", infantry=1),
            force("R1", "Ru", "A0606", vedettes=1),
            force("R2", "Ru", "A0609", infantry=2),
        ]
    )
    s = move(s, "F1", "A0605", march=march)
    out = run(s, "fix", [3], moving="F1", contact="R1", repulse=march == "force")
    assert out.message == "1d6=3+2 (only Ru has Vedette)=5, R1 and R2 switch places"


def test_fixed_while_adjacent_even_outside_the_zoc_and_across_turns() -> None:
    """Herman (2): fixed while adjacent to an enemy force, whether or not in its ZOC."""
    m = grid(hexsides=[("impassable", [["A0606", "A0707"]])])
    # F1 moves on after its fixing: reading A22's knob allows a second move (default: once)
    s = base(force("R2", "Ru", "A0609", infantry=2), map_=m, one_move_per_phase=False)
    _, s = play(s, "fix", [1], moving="F1", contact="R1")
    s = move(s, "F1", "A0707")  # adjacent to R1 across an impassable hexside: not in its ZOC
    assert "A0707" not in s.map.zoc("A0606") and s.pieces["R1"].fixed
    _, s = play(waived(s), "end_movement")
    _, s = play(s, "end_combat")  # the Russian turn: still adjacent, still fixed
    assert s.phasing == "Ru" and s.pieces["R1"].fixed
    s = move(s, "R1", "A0604")  # no longer adjacent to an enemy force
    assert not s.pieces["R1"].fixed


def test_end_movement_refused_while_a_fixing_is_owed(tmp_path: Any) -> None:
    """Herman (5): combat comes after all movement and fixing. The fixing owed since F1
    entered R1's ZOC (Herman (1)) blocks the end of movement, unless the player waives it,
    which the log shows. The refusal cites (5), the rule that makes the fixing come first
    (it cited the fixing's own rule, (1)), and names both forces."""
    from vedette.engine import Game, Store

    st = Store(tmp_path / "g.db")
    forces = [
        force("F1", "Fr", "A0504", infantry=4),
        force("R1", "Ru", "A0606", vedettes=1),
        force("R2", "Ru", "A0609", infantry=2),
    ]
    g = Game.create(st, "g", "nab", scenario(forces), seed=4)
    g.perform("move", {"force": "F1", "to": "A0605"})
    assert [o.id for o in g.obligations()] == ["fix:F1:R1"]
    assert g.todo()[0].owed and g.todo()[0].command() == "fix moving=F1 contact=R1"
    n = len(g.records)
    with pytest.raises(RuleViolation) as e:
        g.perform("end_movement", {})
    text = str(e.value)
    assert text.endswith("(Herman (5))") and "\n" not in text, text
    assert "F1 (" in text and "R1 (" in text and "'fix moving=F1 contact=R1'" in text, text
    assert "waive fix:F1:R1" in text
    assert len(g.records) == n
    # every other step stays blocked by the owed fixing itself (Herman (1))
    with pytest.raises(RuleViolation, match=r"owed first.*\(Herman \(1\)\)"):
        g.perform("move", {"force": "F1", "to": "A0504"})
    g.perform("waive", {"obligation": "fix:F1:R1", "reason": "house rule"})
    assert g.obligations() == ()
    assert "waived: fix:F1:R1 (house rule)" in "\n".join(g.log_lines())
    out = g.perform("end_movement", {})
    assert g.state.phase == "combat" and out.details["fixed"] == []
    g.undo()
    g.undo()  # the waiver is an action like any other: undo brings the obligation back
    assert [o.id for o in g.obligations()] == ["fix:F1:R1"]
    g.perform("fix", {"moving": "F1", "contact": "R1"}, faces=None)
    assert g.obligations() == ()
    assert g.perform("end_movement", {}).details["fixed"] == ["R1"]


@pytest.mark.parametrize(("series", "reach"), [("1x", 10), ("2x", 5), ("5x", 3)])
def test_support_range_by_series(series: str, reach: int) -> None:
    """Herman (3): a supporting force within 10 / 5 / 3 hexes (1x / 2x / 5x), not one more."""
    f1 = force("F1", "Fr", "A0101", infantry=1)
    r1 = force("R1", "Ru", "A0103", vedettes=1)
    at = force("RAT", "Ru", f"A01{3 + reach:02d}", infantry=1)  # straight down the column
    beyond = force("RBEYOND", "Ru", f"A01{4 + reach:02d}", infantry=1)
    m = grid(rows=(1, 16))
    s = move(make([f1, r1, beyond], m, series=series), "F1", "A0102")
    assert s.map.distance("A0103", f"A01{4 + reach:02d}") == reach + 1
    assert run(s, "fix", [6], moving="F1", contact="R1").details["result"] == "no_candidate"
    s = move(make([f1, r1, at, beyond], m, series=series), "F1", "A0102")
    assert run(s, "fix", [6], moving="F1", contact="R1").details["chosen"] == "RAT"


def test_a_force_may_give_its_own_vedette_strength() -> None:
    """Herman (3) DRM 2 with a vedette of strength 2 (scenario key ``vedette_strength``)."""
    r2 = force("R2", "Ru", "A0609", infantry=2)
    s = base(r2, mover={"cavalry": 1}, contact={"vedettes": 1, "vedette_strength": 2})
    roll = run(s, "fix", [3], moving="F1", contact="R1").rolls[0]
    assert [(m.value, m.reason) for m in roll.modifiers] == [(1, "superior Ru Cav")]
    assert s.pieces["R1"].to_json()["vedette_strength"] == 2


def test_a_seven_way_tie_on_a_d10_rerolled_above_seven() -> None:
    """Option tie_die=d10 (issue 26, your own dice): a tie among 7 forces is rolled on a d10,
    re-rolled on 8-10 (no d7); the exact odds stay 1/7 each. The default asks for a d7."""
    m = base().map
    near = {b for a in m.neighbors("A0606") for b in m.neighbors(a)}
    ring = sorted(h for h in near if m.distance(h, "A0606") == 2 and h not in ("A0504", "A0605"))
    ring = ring[:7]
    forces = [force(f"R{i}", "Ru", h, infantry=1) for i, h in enumerate(ring, start=2)]
    s = base(*forces, contact={"generals": ["G"]}, tie_die="d10")
    out = run(s, "fix", [5, 9, 8, 3], moving="F1", contact="R1")
    assert [r.expression for r in out.rolls[1:]] == ["1d10", "1d10", "1d10"]
    assert [r.row for r in out.rolls[1:]] == ["again", "again", "R4"]
    o = odds(s, moving="F1", contact="R1")
    assert all(o[2].p(f"R{i}") == Fraction(1, 7) for i in range(2, 9))
    default = base(*forces, contact={"generals": ["G"]})
    out = run(default, "fix", [5, 3], moving="F1", contact="R1")
    assert out.rolls[1].expression == "1d7"
