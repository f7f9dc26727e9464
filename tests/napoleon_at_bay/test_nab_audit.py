"""Session 15 audit (helper F1): places where the referee differed from what a player holding
Herman's text would expect, each fixed and held here by a test quoting the rule."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from tests.acceptance.test_accept_nab import T, amap, fr, ru
from vedette.engine import Game, Store
from vedette.rules.napoleon_at_bay import reach


def two_contacts(tmp_path: Path, variant: str = "final", **options: object) -> T:
    """F1 moves A0705 -> A0905, entering the ZOCs of R1 (A1005) and R2 (A1004) at once; the
    two Russian forces touch, so each is the other's closest supporting force (1 MP)."""
    t = T(
        tmp_path,
        [
            fr("F1", "A0705", infantry=4),
            ru("R1", "A1005", infantry=3),
            ru("R2", "A1004", infantry=2),
        ],
        variant=variant,
        **options,
    )
    t.move("F1", "A0905")
    assert [o.id for o in t.game.obligations()] == ["fix:F1:R1", "fix:F1:R2"]
    return t


@pytest.mark.parametrize("variant", ["final", "draft"])
def test_2_a_force_fixed_by_the_first_fixing_is_not_substituted_by_the_second(
    tmp_path: Path, variant: str
) -> None:
    """Herman (2): "Once a force's location has been 'fixed' it cannot be substituted for
    another force while it remains adjacent to an enemy force". R1's fixing (die 6, no DRM)
    brings R2 into A1005, fixed; R2's fixing, still owed from the same move, used to roll again
    and switch R2 (fixed) back out with R1. Now it lapses, and the answer says so."""
    t = two_contacts(tmp_path, variant)
    out = t.fix([6])
    assert t.hexes("R2") == ("A1005",) and t.fixed("R2")
    assert "the fixing of R2 owed by F1 lapses" in out.message
    assert t.game.obligations() == ()
    t.refused("Herman", moving="F1", contact="R2")
    assert t.hexes("R2") == ("A1005",) and t.fixed("R2")
    t.do("end_movement")  # nothing is left owed: the phase goes on


def test_2_a_stay_leaves_the_other_fixing_owed(tmp_path: Path) -> None:
    """Herman (1): a stay fixes only the contact force; the other contact force's fixing is
    still owed and is rolled as usual."""
    t = two_contacts(tmp_path)
    t.fix([2])
    assert t.fixed("R1") and [o.id for o in t.game.obligations()] == ["fix:F1:R2"]
    t.fix([2], contact="R2")
    assert t.fixed("R2") and t.game.obligations() == ()


def test_2_the_screen_sequence_follows_the_lapse(tmp_path: Path) -> None:
    """`chances screen` resolves the owed fixings one at a time, as play does: when R1 gives
    way, R2 (its substitute, fixed) owes no second roll; when R1 holds, R2's own fixing finds
    no supporting force (R1 is fixed) and R2 stays, fixed."""
    t = T(
        tmp_path,
        [
            fr("F1", "A0705", infantry=4),
            ru("R1", "A1005", infantry=3),
            ru("R2", "A1004", infantry=2),
        ],
    )
    c = t.game.chances("screen", {"screen": "R1", "movers": ["F1"], "to": ["A0905"]})
    assert {r.result: r.p for r in c.rows} == {
        "holds: R1 A1005 fixed; F1 A0905; R2 A1004 fixed": Fraction(1, 2),
        "gives way: R1 A1004; F1 A0905; R2 A1005 fixed": Fraction(1, 2),
    }


def test_1_a_move_that_leaves_the_zoc_and_comes_back_enters_it(tmp_path: Path) -> None:
    """Herman (1): a contact force "has a moving force ... enter its ZOC". F1 starts next to R1
    (A0606, no fixing: it did not enter), steps out to A0505 and back into R1's ZOC at A0605.
    Made as two moves, the second owed a fixing; made as one move along that path it owed none
    (a ZOC the move began in was never "entered", however the path ran). Now the one move
    owes it as the two do; a move that stays inside the zone still owes none (reading A8)."""
    forces = [fr("F1", "A0506", infantry=1), ru("R1", "A0606", vedettes=1)]
    forces.append(ru("R2", "A0609", infantry=2))
    two = T(tmp_path, forces)
    two.move("F1", "A0505")
    two.move("F1", "A0605")
    assert [o.id for o in two.game.obligations()] == ["fix:F1:R1"]
    one = T(tmp_path, forces)
    out = one.move("F1", "A0605", path=["A0506", "A0505", "A0605"])
    assert "the fixing of R1 is owed now" in out.message
    assert [o.id for o in one.game.obligations()] == ["fix:F1:R1"]
    assert one.fix([3]).rolls[0].final == 5
    inside = T(tmp_path, forces)
    inside.move("F1", "A0605")  # A0506 -> A0605: both next to R1, the move never left its ZOC
    assert not inside.game.obligations()


def _road_through_the_zoc(tmp_path: Path) -> T:
    """F1 in A0506, in R1's ZOC (R1 in A0606: every hex around it). A road runs A0505 (out of
    the zone), A0605 (in it), A0705, A0805 (out); a river parts A0506 from A0605. Stepping out
    to the road and along it is the cheaper way to A0805 (5/2 MP) but comes back into R1's
    ZOC at A0605; staying in the zone to A0605 costs 3 MP."""
    mp = amap(hexsides=[{"feature": "river", "pairs": [["A0506", "A0605"]]}])
    mp["roads"] = [{"path": ["A0405", "A0505", "A0605", "A0705", "A0805"]}]
    return T(tmp_path, [fr("F1", "A0506", infantry=1), ru("R1", "A0606", vedettes=1)], map_=mp)


def test_a23_a_move_that_comes_back_into_the_zoc_it_began_in_stops_there(tmp_path: Path) -> None:
    """Readings A8 and A23: a ZOC the move began in is not entered while the move stays in it,
    but leaving it and coming back into it is entering it (Herman (1): a fixing is owed), so
    the move stops there as in any ZOC it enters (A18, option stop_at_zoc). The move along
    the road went on from A0605 to A0805 (a zone it began in never stopped it); now that path
    is refused, and the move to A0805 takes the way that stays in the zone."""
    t = _road_through_the_zoc(tmp_path)
    road = ["A0506", "A0505", "A0605", "A0705", "A0805"]
    msg = t.refused("A23", "move", force="F1", to="A0805", path=road)
    assert "comes back into it at A0605" in msg
    out = t.move("F1", "A0805")
    assert "via A0605,A0705 (3 MP)" in out.message and not t.game.obligations()
    stop = _road_through_the_zoc(tmp_path)
    stop.move("F1", "A0605", path=road[:3])  # back into the zone where the move ends: owed
    assert [o.id for o in stop.game.obligations()] == ["fix:F1:R1"]


def test_a23_the_offered_way_stops_where_it_comes_back(tmp_path: Path) -> None:
    """``todo``'s search (reach.py) follows A23 too: its way to A0805 stays in the zone, and
    the road's way back into it ends at A0605."""
    t = _road_through_the_zoc(tmp_path)
    st = t.game.state
    f1 = st.pieces["F1"]
    assert reach.path_to(st, f1, "A0805") == (6, ("A0506", "A0605", "A0705", "A0805"))
    assert reach.path_to(st, f1, "A0605") == (3, ("A0506", "A0505", "A0605"))


def test_draft_the_owed_fixing_and_the_end_of_movement_cite_the_draft(tmp_path: Path) -> None:
    """The first draft has no numbered rules: its refusals cite "Herman, first draft" (the owed
    fixing itself did). The move's answer named "Herman (1)" and ``end_movement``'s refusal
    "Herman (5)", rules the draft does not have."""
    forces = [fr("F1", "A0504", infantry=1), ru("R1", "A0606", vedettes=1)]
    t = T(tmp_path, forces, variant="draft")
    out = t.move("F1", "A0605")
    assert "the fixing of R1 is owed now (Herman, first draft)" in out.message
    msg = t.refused("Herman, first draft", "end_movement")
    assert "Herman (5)" not in msg
    final = T(tmp_path, forces)
    assert "Herman (1))" in final.move("F1", "A0605").message
    final.refused("Herman (5)", "end_movement")


def test_draft_todo_and_combat_phase_do_not_cite_rule_5(tmp_path: Path) -> None:
    """The first draft has no rule (5) (its only word on the phase is "continue the phase"):
    ``todo``'s ``end_movement`` entry and the combat phase's answer name the series' sequence
    of play there; the final text's name Herman (5)."""
    forces = [fr("F1", "A0504", infantry=1), ru("R1", "A0909", vedettes=1)]
    for variant, rule, words in (
        ("draft", "Napoleon At Bay sequence of play", "(its sequence of play)"),
        ("final", "Herman (5)", "(Herman 5)"),
    ):
        t = T(tmp_path, forces, variant=variant)
        end = [x for x in t.game.todo() if x.procedure == "end_movement"]
        assert [x.rule for x in end] == [rule]
        assert words in t.do("end_movement").message


def test_a24_option_rolls_the_owed_fixing_of_a_force_the_first_fixing_fixed(
    tmp_path: Path,
) -> None:
    """Reading A24, ``owed_fixing_lapses=false`` (release 0.2's way, the option an import of a
    0.2 game takes): R2, brought in fixed by R1's fixing, still owes its own fixing, which
    rolls and switches it out with R1 (Herman (1): each entry into a ZOC owes its roll)."""
    t = two_contacts(tmp_path, owed_fixing_lapses=False)
    out = t.fix([6])
    assert t.hexes("R2") == ("A1005",) and "lapses" not in out.message
    assert [o.id for o in t.game.obligations()] == ["fix:F1:R2"]
    out = t.fix([5], contact="R2")
    assert out.message == "1d6=5, R2 and R1 switch places"
    assert t.hexes("R2") == ("A1004",) and t.hexes("R1") == ("A1005",)
    assert "owed_fixing_lapses=false" in t.game.render().splitlines()[0]


def across_a_blocking_hexside(tmp_path: Path, **options: object) -> T:
    """F1 in A0707 stands next to R1 (A0606) across an impassable hexside, which blocks R1's
    ZOC; it steps to A0706, into R1's ZOC (a normal hexside)."""
    m = amap(hexsides=[{"feature": "impassable", "pairs": [["A0606", "A0707"]]}])
    forces = [
        fr("F1", "A0707", infantry=4),
        ru("R1", "A0606", infantry=3),
        ru("R2", "A0608", infantry=2),
    ]
    t = T(tmp_path, forces, map_=m, **options)
    assert "A0707" not in t.game.state.map.zoc("A0606")
    return t


def test_a25_a_mover_next_to_the_contact_force_across_a_blocking_hexside(
    tmp_path: Path,
) -> None:
    """Herman (1): a contact force "that has no enemy force in its ZOC or adjacent to it".
    Reading A25 (default): the moving force itself is not that enemy force, so its step from
    beside R1 (across a hexside that blocks the ZOC) into the ZOC owes the fixing. With
    ``mover_counts_adjacent=true`` it is: R1 already had an enemy adjacent, no fixing."""
    t = across_a_blocking_hexside(tmp_path)
    out = t.move("F1", "A0706")
    assert [o.id for o in t.game.obligations()] == ["fix:F1:R1"], out.message
    t = across_a_blocking_hexside(tmp_path, mover_counts_adjacent=True)
    out = t.move("F1", "A0706")
    assert t.game.obligations() == ()
    assert "F1 itself, in A0707 before it entered the ZOC" in out.message
    assert "mover_counts_adjacent" in out.message
    t.refused("Herman (1)")  # no fixing to roll
    # a mover that came from elsewhere owes it as before under the option
    t = across_a_blocking_hexside(tmp_path, mover_counts_adjacent=True)
    t.move("F1", "A0807")
    t.do("end_movement")
    t.do("end_combat")
    t.do("end_movement")
    t.do("end_combat")
    t.move("F1", "A0706", path=["A0807", "A0806", "A0706"])
    assert [o.id for o in t.game.obligations()] == ["fix:F1:R1"]


def test_a26_a_garrison_made_a_force_is_still_never_a_supporting_force(tmp_path: Path) -> None:
    """Herman (3): "Garrison units, Bridge Trains, and Centers of Operation do not constitute a
    force for this purpose" (the substitution). Reading A26: a house rule that makes garrisons
    forces (``[pieces] garrison = { counts_as_force = true }``: they move, fix, are fixed and
    count as an enemy force next to a contact force) still leaves them out as supporting
    forces (``supports``): R2, two hexes away, is found in the contact hex, not the garrison
    next to it; with ``supports = true`` too, the garrison is."""
    scn = {
        "scenario": {"title": "garrison", "series": "5x", "first": "Fr"},
        "sides": {"Fr": "French", "Ru": "Russian"},
        "map": amap(),
        "forces": [
            fr("F1", "A0705", infantry=4),
            ru("R1", "A1005", infantry=3),
            ru("RG", "A1105", infantry=1, kind="garrison"),
            ru("R2", "A1205", infantry=2),
        ],
    }
    for supports, found in ((None, "R2"), (True, "RG")):
        garrison: dict[str, object] = {"counts_as_force": True}
        if supports is not None:
            garrison["supports"] = supports
        g = Game.create(
            Store(tmp_path / f"g{found}.db"),
            "g",
            "nab",
            scn,
            seed=1,
            house_rules={"pieces": {"garrison": garrison}},
        )
        g.perform("move", {"force": "F1", "to": "A0905"})
        out = g.perform("fix", {"moving": "F1", "contact": "R1"}, faces=[6])
        assert out.details["chosen"] == found, out.message
        assert g.state.pieces[found].hexes == ("A1005",)
