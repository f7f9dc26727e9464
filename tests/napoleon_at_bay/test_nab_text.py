"""Herman's texts as acceptance tests, sentence by sentence (session 15, helper F4).

Each sentence of seed 000 (final text) and seed 002 (first draft, ``variant=draft``) that
decides something is listed here with the test that holds vedette to it. A sentence the other
test files already pin exactly is named with its test and not tested again; the rest are tested
below, through the public API only (``Game.create`` / ``perform`` / ``todo`` / ``odds`` /
``render``), with forced dice.

Final text (000), each sentence -> the test that holds it:
- (1) "All units are played face up and visible." -> test_1_face_up_and_visible
- (1) a non-moving force with no enemy in its ZOC or adjacent -> test_accept_nab.py test_1_*
- (1) a moving force "(normal or force march)" enters its ZOC -> test_1_every_march_owes_it
- (1) "(Vedette or General)" (reading A3) -> test_1_vedette_or_general
- (1) the moving force determines: really there, or substituted -> test_accept_nab.py test_3_*,
  test_1_either_side_moves_and_fixes
- (1) closest in movement points, a die roll for ties -> test_accept_nab.py test_1_closest_*,
  test_1_tie_*
- (1) note: a force-march repulse fixes as a command or initiative move -> test_1_repulse_same_odds
- (2) the two results -> test_accept_nab.py test_3_table_boundaries
- (2) fixed: not substituted while adjacent to an enemy, in its ZOC or not -> test_nab_fixing.py
  test_fixed_while_adjacent_even_outside_the_zoc_and_across_turns, test_accept_nab.py test_2_*
- (2) ... free again once no enemy is adjacent (the enemy left) -> test_2_free_once_the_enemy_left
- (2) a fixed force that moves, still next to an enemy (reading A21) ->
  test_2_a_fixed_force_that_moves
- (3) 1-3 "remains in place, continue the phase" -> test_3_stay_continues_the_phase
- (3) 4-6 a support within 10 / 5 / 3 hexes -> test_accept_nab.py test_3_support_range_boundary
- (3) garrisons, bridge trains, centers of operation -> test_accept_nab.py test_3_non_forces_*,
  test_3_non_forces_take_no_part
- (3) DRM 1, 2, 3, 4 -> test_accept_nab.py test_3_drm_cases, test_3_exact_odds
- (4) several in range: at random (read with (1)) -> test_accept_nab.py test_1_tie_*
- (4) "physically switch the forces" -> test_accept_nab.py test_3_table_boundaries
- (4) a multi-hex support: each component in the mover's ZOC if possible -> test_accept_nab.py
  test_4_multi_hex_force_arrayed_in_the_moving_force_zoc
- (4) ... "arrayed in the new location": the default gathered at the contact hex ->
  test_4_a_larger_support_is_arrayed_in_the_new_location
- (4) "If not, owning players choice" (and what the answer says) -> test_4_owner_choice_said_truly
- (4) the contact force "can be placed in any of the multi-force hexes" ->
  test_4_contact_to_any_vacated
- (4) a multi-hex contact force "in a logical manner" -> test_4_multi_hex_contact_placed
- (4) illegal substitution: another force -> test_nab_fixing.py test_illegal_placement_*
- (4) "If no substitution forces are within range the force is 'fixed'" -> test_accept_nab.py
  test_3_support_range_boundary
- (5) combat after all movement and fixing -> test_nab_fixing.py
  test_end_movement_refused_while_a_fixing_is_owed, test_accept_nab.py test_5_*
- the example table, rows 1-4 (die 3) -> tests/seeds/test_nab_examples.py
- the example's rows played under the draft -> test_example_rows_under_the_draft

First draft (002), where it differs or is silent:
- eligibility: no enemy in the ZOC only -> test_accept_nab.py test_1_enemy_adjacent_*
- several in range: purely at random -> test_accept_nab.py test_draft_random_among_all_in_range
- a multi-hex non-moving force placed "as determined by the owning player" ->
  test_4_multi_hex_contact_placed
- the same roll, ranges and DRMs 1-4 -> test_draft_drms_are_the_finals
- none in range: fixed -> test_draft_none_in_range_fixed
- unnumbered: its refusals cite the draft -> test_draft_refusals_cite_the_draft
- no rule (5), the same phases -> test_nab_fixing.py test_draft_has_no_rule_5_citation
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from tests.acceptance.test_accept_nab import CONTACT, ENTER, T, amap, fr, ru, standard
from vedette.engine import Game, Store
from vedette.errors import BadRequest
from vedette.rules.napoleon_at_bay import RULESET


def example(tmp_path: Path, name: str, **options: Any) -> Game:
    """A bundled row of Herman's example table, F1 moved from Vilnius W1920 to W2020."""
    g = Game.create(
        Store(tmp_path / f"{name}.db"),
        "g",
        "nab",
        RULESET.scenario(name),
        seed=3,
        options=options or None,
    )
    g.perform("move", {"force": "F1", "to": "W2020"})
    return g


def where(g: Game) -> dict[str, tuple[str, ...]]:
    return {k: tuple(p.hexes) for k, p in g.state.pieces.items()}


# -- (1) -----------------------------------------------------------------------------------------
def test_1_face_up_and_visible(tmp_path: Path) -> None:
    """Herman (1): "All units are played face up and visible": the map shows every piece,
    garrisons, bridge trains and centers of operation included, where it stands."""
    g = Game.create(Store(tmp_path / "s.db"), "g", "nab", RULESET.scenario("sample"), seed=1)
    shown = g.render()
    for p in g.state.pieces.values():
        assert f"{p.id:<4} {p.side} {p.name}" in shown and p.hexes[0] in shown


@pytest.mark.parametrize("march", ["normal", "command", "initiative", "force"])
def test_1_every_march_owes_it(tmp_path: Path, march: str) -> None:
    """Herman (1): a moving force "(normal or force march)" entering the ZOC makes the fixing
    owed at once: todo offers it first and nothing else, as the command to run."""
    t = standard(tmp_path, ru("R2", "A1305", infantry=2), fr("F2", "A0202", infantry=1), move=False)
    out = t.move("F1", ENTER, march=march)
    assert "the fixing of R1 is owed now" in out.message
    todo = t.game.todo()
    assert [(x.command(), x.owed) for x in todo] == [("fix moving=F1 contact=R1", True)]
    t.refused("Herman (1)", proc="move", force="F2", to="A0302")


def test_1_either_side_moves_and_fixes(tmp_path: Path) -> None:
    """Herman (1): "the moving force determines whether the contact force is actually in the
    hex": in the Russian movement phase the Russian cavalry moves into the ZOC of a French
    infantry force; DRM 1 (only the moving force has cavalry, -2) is the Russians', and a 6
    brings the French supporting force in, fixed."""
    t = T(
        tmp_path,
        [
            fr("F1", "A0705", infantry=4, name="Fr Inf"),
            fr("F2", "A0405", infantry=2, name="Fr Inf 2"),
            ru("R1", "A1005", cavalry=2, name="Ru Cav"),
        ],
    )
    t.do("end_movement")
    t.do("end_combat")
    t.move("R1", "A0805")
    assert [o.id for o in t.game.obligations()] == ["fix:R1:F1"]
    odds = t.game.odds("fix", {"moving": "R1", "contact": "F1"})
    assert odds[0].p("substitution") == Fraction(1, 6) and odds[1].p("F2") == Fraction(1, 6)
    out = t.do("fix", [6], moving="R1", contact="F1")
    assert out.message == "1d6=6-2 (only Ru has Cav)=4, Fr Inf and Fr Inf 2 switch places"
    assert t.hexes("F2") == ("A0705",) and t.hexes("F1") == ("A0405",) and t.fixed("F2")


def test_1_vedette_or_general(tmp_path: Path) -> None:
    """Herman (1) "(Vedette or General)", reading A3: by default any force is a contact force;
    with the option, a contact force without a vedette or a general owes no fixing and a fix
    asked for is refused naming (1)."""
    plain = {"infantry": 3}
    t = standard(tmp_path, ru("R2", "A1305", infantry=2), contact=plain)
    assert [o.id for o in t.game.obligations()] == ["fix:F1:R1"]
    u = standard(
        tmp_path,
        ru("R2", "A1305", infantry=2),
        contact=plain,
        contact_needs_vedette_or_general=True,
    )
    assert u.game.obligations() == ()
    u.refused("Herman (1)")


def test_1_repulse_same_odds(tmp_path: Path) -> None:
    """Herman (1) note: a force-marching force attempting a repulse uses the fixing "exactly as
    it would be used for a moving force using a command or initiative": the same odds (fixing
    roll, force found, tie roll) for a command move, an initiative move and a repulse."""

    def rows(march: str, repulse: bool) -> list[list[tuple[str, Fraction]]]:
        t = standard(
            tmp_path,
            ru("R2", "A1305", infantry=2),
            ru("R3", "A1008", infantry=2),
            mover={"cavalry": 1},
            move=False,
        )
        t.move("F1", ENTER, march=march)
        return [[(r.key, r.p) for r in o.rows] for o in t.odds(repulse=repulse)]

    command = rows("command", False)
    assert command == rows("initiative", False) == rows("force", True)
    assert command[0] == [("stays", Fraction(5, 6)), ("substitution", Fraction(1, 6))]


# -- (2) -----------------------------------------------------------------------------------------
def test_2_free_once_the_enemy_left(tmp_path: Path) -> None:
    """Herman (2): fixed "while it remains adjacent to an enemy force". R1, fixed next to F1,
    is still fixed a whole turn later; once F1 marches away (R1 itself never moved) it is free,
    and a new mover entering its ZOC owes a fixing again."""
    t = standard(tmp_path, ru("R2", "A1305", infantry=2), fr("F2", "A1109", infantry=1))
    t.fix([2])
    for proc in ("end_movement", "end_combat", "end_movement", "end_combat"):
        t.do(proc)
    assert t.game.state.phasing == "Fr" and t.fixed("R1")
    t.move("F1", "A0605")
    assert not t.fixed("R1")
    t.move("F2", "A1106")  # touches A1005 (col 11 odd: col 10 rows 5, 6)
    assert [o.id for o in t.game.obligations()] == ["fix:F2:R1"]


@pytest.mark.parametrize("keeps", [True, False])
def test_2_a_fixed_force_that_moves(tmp_path: Path, keeps: bool) -> None:
    """Herman (2), reading A21: R1, fixed next to F1, moves in its own phase to another hex
    next to F1 (A0906). By default it is still fixed (it "remains adjacent to an enemy force"),
    so it cannot be the force found in R3's place when F2 enters R3's ZOC; with
    ``moving_keeps_fixed=false`` its own move ends the fixed state (its position was "'fixed'
    to that location") and it is R3's only supporting force, 2 hexes away."""
    t = standard(
        tmp_path,
        ru("R3", "A0908", infantry=2),
        fr("F2", "A0912", infantry=1),
        moving_keeps_fixed=keeps,
    )
    t.fix([1])
    t.do("end_movement")
    t.do("end_combat")
    t.move("R1", "A0906")  # still next to F1 (A0905)
    assert t.fixed("R1") is keeps
    t.do("end_movement")
    t.do("end_combat")
    t.move("F2", "A0909")  # enters the ZOC of R3 (A0908)
    assert [o.id for o in t.game.obligations()] == ["fix:F2:R3"]
    who = t.game.odds("fix", {"moving": "F2", "contact": "R3"})[1]
    assert who.p("R1") == (0 if keeps else Fraction(1, 2))


# -- (3) -----------------------------------------------------------------------------------------
def test_3_stay_continues_the_phase(tmp_path: Path) -> None:
    """Herman (3): "1-3 = The contact force remains in place, continue the phase": nothing is
    owed after the roll; the other forces may still move, and the phase may end."""
    t = standard(tmp_path, ru("R2", "A1305", infantry=2), fr("F2", "A0202", infantry=1))
    out = t.fix([3])
    assert out.details["result"] == "stays" and t.fixed("R1") and t.hexes("R1") == (CONTACT,)
    assert t.game.obligations() == ()
    assert [x.procedure for x in t.game.todo()] == ["move", "end_movement"]
    t.move("F2", "A0302")
    assert t.game.state.phase == "movement"


@pytest.mark.parametrize("kind", ["garrison", "bridge_train", "center_of_operations"])
def test_3_non_forces_take_no_part(tmp_path: Path, kind: str) -> None:
    """Herman (3): garrisons, bridge trains and centers of operation "do not constitute a force
    for this purpose": one of them moving next to R1 owes no fixing (and a fix asked for is
    refused naming (3)); standing next to R1 it neither spares R1 a fixing nor keeps R1 fixed
    once the French force has gone."""
    t = standard(tmp_path, ru("R2", "A1305", infantry=2), fr("X1", "A0909", kind=kind), move=False)
    t.move("X1", "A1006")  # touches A1005
    assert t.game.obligations() == ()
    t.refused("Herman (3)", moving="X1")
    t.move("F1", ENTER)
    assert [o.id for o in t.game.obligations()] == ["fix:F1:R1"]
    t.fix([1])
    assert t.fixed("R1")
    for proc in ("end_movement", "end_combat", "end_movement", "end_combat"):
        t.do(proc)
    t.move("F1", "A0605")  # X1 is still next to R1, F1 is not
    assert not t.fixed("R1")


# -- (4) -----------------------------------------------------------------------------------------
def test_4_owner_choice_said_truly(tmp_path: Path) -> None:
    """Herman (4): a multi-hex support goes "in the ZOC of the moving force, if possible. If
    not, owning players choice." Both hexes next to A1005 and the mover (A1004, A0906) are
    lakes: the owner puts the second component in A1105, which is not next to the French
    force, and the answer does not say it is (the example's row 4 wording is for a hex that
    is)."""
    lakes = amap(areas={"lake": ["A1004", "A0906"]})
    t = standard(tmp_path, ru("R2", "A1305", "A1306", infantry=4), map_=lakes)
    out = t.fix([5], array=[CONTACT, "A1105"], contact_to="A1306")
    assert t.hexes("R2") == (CONTACT, "A1105") and t.hexes("R1") == ("A1306",)
    assert "adjacent to the Fr force" not in out.message
    assert out.message == "1d6=5, R1 and R2 switch places with its components placed in hexes" + (
        " A1005, A1105"
    )


@pytest.mark.parametrize("variant", ["final", "draft"])
@pytest.mark.parametrize("to", ["W2421", "W2522"])
@pytest.mark.parametrize("other", ["W2021", "W2120"])
def test_4_contact_to_any_vacated(tmp_path: Path, variant: str, to: str, other: str) -> None:
    """Herman (4) on the example's row 4: the vedette "can be placed in any of the multi-force
    hexes" (W2421 or W2522), and the Mx force's other component in either hex next to W2121
    and the French force (W2021, W2120), as the owner chooses; both texts alike."""
    g = example(tmp_path, "example4", variant=variant)
    req = {"moving": "F1", "contact": "R1", "contact_to": to, "array": ["W2121", other]}
    out = g.perform("fix", req, faces=[3])
    assert where(g)["R1"] == (to,) and where(g)["R2"] == ("W2121", other)
    assert out.details["notes"] == []
    assert out.message.endswith(
        f"placed in hex W2121 and the other component placed in hex {other},"
        " adjacent to W2121 and adjacent to the Fr force"
    )
    assert g.state.pieces["R2"].fixed and not g.state.pieces["R1"].fixed


@pytest.mark.parametrize("variant", ["final", "draft"])
def test_4_multi_hex_contact_placed(tmp_path: Path, variant: str) -> None:
    """Herman (4): a multi-hex contact force is arrayed in the new location "in a logical
    manner" (final: it takes the two hexes R2 left) or "as determined by the owning player"
    (draft: any connected array from a hex R2 left, e.g. A1305 and A1405)."""
    t = T(
        tmp_path,
        [
            fr("F1", "A0705", infantry=4),
            ru("R1", "A1005", "A1006", infantry=3),
            ru("R2", "A1305", "A1306", infantry=2),
        ],
        variant=variant,
    )
    t.move("F1", ENTER)
    out = t.fix([6], contact_to=["A1305", "A1405"])
    assert t.hexes("R2") == ("A1005", "A1006")
    if variant == "final":
        assert t.hexes("R1") == ("A1305", "A1306")
        assert out.details["notes"] == ["A1305,A1405 is not legal for R1; A1305,A1306 used"]
        assert sorted(map(tuple, out.details["contact_arrays"])) == [
            ("A1305", "A1306"),
            ("A1306", "A1305"),
        ]
    else:
        assert t.hexes("R1") == ("A1305", "A1405") and out.details["notes"] == []
    # A1006 is not next to the French force (A0905): the answer does not say it is
    assert "adjacent to the Fr force" not in out.message


# -- the example table under the first draft -------------------------------------------------
FINAL_LINES = {
    "example1": "1d6=3+2 (only Ru has Vedette)=5, Vedette and Ru Inf switch places",
    "example2": "1d6=3-1 (superior Fr Cav)=2, Vedette remains in hex",
    "example3": "1d6=3+1 (superior Ru Cav)=4, Vedette and Ru Mx switch places",
    "example4": "1d6=3+2 (only Ru has Vedette)=5, Vedette and Ru Mx switch places with one"
    " component of force placed in hex W2121 and the other component placed in hex W2021,"
    " adjacent to W2121 and adjacent to the Fr force",
}


@pytest.mark.parametrize(
    ("name", "p_sub", "r1", "r2"),
    [
        ("example1", Fraction(5, 6), ("W2421",), ("W2121",)),
        ("example2", Fraction(1, 3), ("W2121",), ("W2421",)),
        ("example3", Fraction(2, 3), ("W2421",), ("W2121",)),
        ("example4", Fraction(5, 6), ("W2421",), ("W2121", "W2021")),
    ],
)
def test_example_rows_under_the_draft(
    tmp_path: Path, name: str, p_sub: Fraction, r1: tuple[str, ...], r2: tuple[str, ...]
) -> None:
    """The draft has the same roll, DRMs and placement of a supporting force, and one force in
    range: each row of the final text's example ends the same under ``variant=draft`` (odds,
    line, positions, who is fixed)."""
    for variant in ("final", "draft"):
        (tmp_path / variant).mkdir()
        g = example(tmp_path / variant, name, variant=variant)
        assert g.odds("fix", {"moving": "F1", "contact": "R1"})[0].p("substitution") == p_sub
        out = g.perform("fix", {"moving": "F1", "contact": "R1"}, faces=[3])
        assert out.message == FINAL_LINES[name], variant
        assert where(g)["R1"] == r1 and where(g)["R2"] == r2
        fixed = "R1" if name == "example2" else "R2"
        assert [k for k, p in g.state.pieces.items() if p.fixed] == [fixed]


# -- the first draft -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("mover", "contact", "face", "final"),
    [
        ({"cavalry": 1}, {"infantry": 3}, 6, 4),  # 1. only the moving force: -2
        ({"cavalry": 2}, {"vedettes": 1}, 5, 4),  # 2. both, the moving force more: -1
        ({"cavalry": 1}, {"cavalry": 2}, 3, 4),  # 2. both, the non-moving force more: +1
        ({"cavalry": 1}, {"vedettes": 1}, 4, 4),  # 2. equal: none
        ({"infantry": 4}, {"vedettes": 1}, 2, 4),  # 3. only the non-moving force: +2
        ({"infantry": 4}, {"infantry": 3}, 4, 4),  # 4. neither: none
    ],
)
def test_draft_drms_are_the_finals(
    tmp_path: Path, mover: Any, contact: Any, face: int, final: int
) -> None:
    """First draft: "Die Roll Modifiers" 1-4 and "1-3 ... 4-6" as in the final text: each
    case's lowest face that substitutes, and one below it stays."""
    for variant in ("final", "draft"):
        t = standard(
            tmp_path, ru("R2", "A1305", infantry=2), mover=mover, contact=contact, variant=variant
        )
        out = t.fix([face])
        assert out.rolls[0].final == final and out.details["result"] == "substitution"
        u = standard(
            tmp_path, ru("R2", "A1305", infantry=2), mover=mover, contact=contact, variant=variant
        )
        assert u.fix([face - 1]).details["result"] == "stays" and u.hexes("R1") == (CONTACT,)


def test_draft_none_in_range_fixed(tmp_path: Path) -> None:
    """First draft: "If no substitution forces are within range the force is 'fixed'" (5x
    series: 3 hexes; R2 is 4 away)."""
    t = standard(tmp_path, ru("R2", "A1405", infantry=2), variant="draft")
    out = t.fix([6])
    assert out.details["result"] == "no_candidate"
    assert t.hexes("R1") == (CONTACT,) and t.fixed("R1") and t.hexes("R2") == ("A1405",)


def test_draft_refusals_cite_the_draft(tmp_path: Path) -> None:
    """The draft has no numbered rules: a refusal in a draft game cites "Herman, first draft",
    not the final text's numbers (docs: "refusals then cite 'Herman, first draft'") - for a
    fixed contact force (the draft's fixed sentence, the final's (2)), a garrison (the draft's
    "do not constitute a force", the final's (3)) and a repulse without a force march."""
    t = standard(
        tmp_path, ru("R2", "A1305", infantry=2), fr("F2", "A1109", infantry=1), variant="draft"
    )
    t.fix([1])  # R1 stays, fixed
    t.move("F2", "A1106")  # touches A1005
    msg = t.refused("Herman, first draft", moving="F2")
    assert "fixed" in msg and "(2)" not in msg
    g = standard(
        tmp_path, ru("G1", "A0904", kind="garrison", infantry=1), move=False, variant="draft"
    )
    g.move("F1", "A0803")
    assert "(3)" not in g.refused("Herman, first draft", contact="G1")
    r = standard(tmp_path, ru("R2", "A1305", infantry=2), variant="draft")
    assert "(1)" not in r.refused("Herman, first draft", repulse=True)
    # the final text's refusals keep its numbers
    f = standard(tmp_path, ru("R2", "A1305", infantry=2))
    f.refused("Herman (1)", repulse=True)


def test_4_a_larger_support_is_arrayed_in_the_new_location(tmp_path: Path) -> None:
    """Herman (4): "the entire force is arrayed in the new location with each component of the
    force placed in the ZOC of the moving force". A three-hex R2 can put all three in F1's ZOC
    (A0905) three ways; the default is the one gathered at the contact hex (A1005 with A0906
    and A1004 beside it), not one wrapped round behind F1 (A0805 or A0904); the others remain
    the owner's choice."""
    t = standard(tmp_path, ru("R2", "A1305", "A1306", "A1307", infantry=4))
    out = t.fix([5])
    assert t.hexes("R2") == (CONTACT, "A0906", "A1004")
    assert [tuple(a) for a in out.details["arrays"]] == [
        (CONTACT, "A0906", "A1004"),
        (CONTACT, "A0805", "A0906"),
        (CONTACT, "A0904", "A1004"),
    ]
    u = standard(tmp_path, ru("R2", "A1305", "A1306", "A1307", infantry=4))
    u.fix([5], array=[CONTACT, "A0805", "A0906"])
    assert u.hexes("R2") == (CONTACT, "A0805", "A0906")


# -- a move goes somewhere (session 16) ---------------------------------------------------------
def test_a_move_to_the_hex_the_force_stands_in_is_refused(tmp_path: Path) -> None:
    """A "move" of F1 from Vilnius (W1920) to W1920 was accepted and logged (0 MP): nothing
    moved, and with one_move_per_phase it spent the force's move. Refused in one line, nothing
    logged; a real move afterwards is as before."""
    g = Game.create(Store(tmp_path / "m.db"), "g", "nab", RULESET.scenario("sample"), seed=1)
    n = len(g.records)
    with pytest.raises(BadRequest) as e:
        g.perform("move", {"force": "F1", "to": "W1920"})
    text = str(e.value)
    assert "F1" in text and "already in W1920" in text and "\n" not in text, text
    assert len(g.records) == n and g.state.pieces["F1"].hexes == ("W1920",)
    assert "W1920" not in [
        c for t in g.todo() if t.request.get("force") == "F1" for c in t.open.get("to", ())
    ]
    g.perform("move", {"force": "F1", "to": "W2020"})
    assert g.state.pieces["F1"].hexes == ("W2020",)
