"""Acceptance tests for the Napoleon At Bay solitaire system (Mark Herman), written from the
rule texts alone: seed 000 (final text, rules (1)-(5) and the example table) and seed 002
(first draft, ``variant=draft``).

Every expected number is worked out by hand from the text; each test's comment names the rule.
The game is driven as a user drives it: the public ``Game`` API on a SQLite store (dice forced
with ``faces=``) and, once, the CLI.

Geometry used by hand (flat-topped hexes, ids ``{letter}{column:02}{row:02}``, even columns
shifted half a hex down, the convention of Herman's example): two hexes in the same row are as
many hexes apart as their columns differ; (c odd, r) touches (c+-1, r-1) and (c+-1, r); (c even,
r) touches (c+-1, r) and (c+-1, r+1).

Standard layout on map "A" (clear, 1 MP per hex entered): the contact force R1 (Russian) stands
in A1005; the moving force F1 (French) starts in A0705 (3 hexes away) and moves to A0905, which
touches A1005, entering R1's ZOC.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from vedette.cli.main import main
from vedette.engine import Game, Store
from vedette.errors import RuleViolation, VedetteError

CONTACT = "A1005"
START = "A0705"
ENTER = "A0905"


def amap(
    cols: tuple[int, int] = (1, 24),
    rows: tuple[int, int] = (1, 12),
    areas: dict[str, list[str]] | None = None,
    hexsides: list[dict[str, Any]] | None = None,
    letter: str = "A",
) -> dict[str, Any]:
    return {
        "name": "acceptance map",
        "letter": letter,
        "id_digits": 2,
        "orientation": "flat",
        "shifted": "even",
        "columns": list(cols),
        "rows": list(rows),
        "default_terrain": "clear",
        "areas": areas or {},
        "hexsides": hexsides or [],
    }


def fr(fid: str, *hexes: str, **kw: Any) -> dict[str, Any]:
    return {"id": fid, "side": "Fr", "name": kw.pop("name", fid), "hexes": list(hexes), **kw}


def ru(fid: str, *hexes: str, **kw: Any) -> dict[str, Any]:
    return {"id": fid, "side": "Ru", "name": kw.pop("name", fid), "hexes": list(hexes), **kw}


class T:
    """One game on a fresh store."""

    n = 0

    def __init__(
        self,
        tmp_path: Path,
        forces: list[dict[str, Any]],
        series: str = "5x",
        map_: dict[str, Any] | None = None,
        **options: Any,
    ) -> None:
        scn = {
            "scenario": {"title": "acceptance", "series": series, "first": "Fr"},
            "sides": {"Fr": "French", "Ru": "Russian"},
            "map": map_ or amap(),
            "forces": forces,
        }
        T.n += 1
        self.store = Store(tmp_path / f"accept{T.n}.db")
        self.game = Game.create(self.store, "g", "nab", scn, seed=11, options=options or None)

    def do(self, proc: str, faces: list[int] | None = None, **req: Any) -> Any:
        return self.game.perform(proc, req, faces=faces)

    def move(self, fid: str, to: str | list[str], **kw: Any) -> Any:
        return self.do("move", force=fid, to=to, **kw)

    def fix(self, faces: list[int] | None = None, **req: Any) -> Any:
        req = {"moving": "F1", "contact": "R1", **req}
        return self.do("fix", faces, **req)

    def odds(self, **req: Any) -> list[Any]:
        return self.game.odds("fix", {"moving": "F1", "contact": "R1", **req})

    def hexes(self, fid: str) -> tuple[str, ...]:
        return tuple(self.game.state.pieces[fid].hexes)

    def fixed(self, fid: str) -> bool:
        return bool(self.game.state.pieces[fid].fixed)

    def refused(self, rule: str, proc: str = "fix", **req: Any) -> str:
        """The request is refused by a one-line error naming ``rule``; the state is unchanged."""
        before = self.game.ruleset.state_json(self.game.state)
        n = len(self.game.records)
        if proc == "fix":
            req = {"moving": "F1", "contact": "R1", **req}
        with pytest.raises(VedetteError) as e:
            self.game.perform(proc, req, faces=[6, 6])
        msg = str(e.value)
        assert rule in msg and "\n" not in msg, msg
        again = Game.open(self.store, "g")
        assert len(again.records) == n
        assert again.ruleset.state_json(again.state) == before
        return msg


def standard(
    tmp_path: Path,
    *extra: dict[str, Any],
    mover: Any = None,
    contact: Any = None,
    series: str = "5x",
    map_: Any = None,
    move: bool = True,
    **opts: Any,
) -> T:
    f1 = fr("F1", START, **(mover if mover is not None else {"infantry": 4}))
    r1 = ru(
        "R1", CONTACT, **(contact if contact is not None else {"infantry": 3, "generals": ["G"]})
    )
    t = T(tmp_path, [f1, r1, *extra], series=series, map_=map_, **opts)
    if move:
        t.move("F1", ENTER)
    return t


def mods(out: Any) -> list[tuple[int, str]]:
    return [(m.value, m.reason) for m in out.rolls[0].modifiers]


# ---------------------------------------------------------------------------------------------
# (1) eligibility
# ---------------------------------------------------------------------------------------------
def test_1_entering_the_zoc_of_a_quiet_force_allows_fixing(tmp_path: Path) -> None:
    # Herman (1): a non-moving force with no enemy in its ZOC or adjacent, whose ZOC a moving
    # force enters, may be fixed. Die 2, no DRM (neither has cavalry, DRM 4): 1-3, stays.
    t = standard(tmp_path, ru("R2", "A1305", infantry=2))
    out = t.fix([2])
    assert out.rolls[0].final == 2 and mods(out) == []
    assert t.hexes("R1") == (CONTACT,) and t.fixed("R1")


def test_1_refused_when_another_enemy_force_is_in_the_contact_zoc(tmp_path: Path) -> None:
    # Herman (1): "has no enemy force in its ZOC": F2 already stands next to R1 (A1004).
    t = standard(tmp_path, fr("F2", "A1004", infantry=2), ru("R2", "A1305", infantry=2))
    t.refused("Herman (1)")


def test_1_enemy_adjacent_but_not_in_zoc_final_refuses_draft_allows(tmp_path: Path) -> None:
    # Herman (1) final: "no enemy force in its ZOC *or adjacent to it*"; first draft: only "no
    # enemy force in its ZOC". F2 in A1105 touches A1005 across an impassable hexside, which
    # blocks the ZOC (vedette's data), so F2 is adjacent but not in R1's ZOC.
    side = [{"feature": "impassable", "pairs": [["A1005", "A1105"]]}]
    extra = (fr("F2", "A1105", infantry=2), ru("R2", "A1008", infantry=2))
    final = standard(tmp_path, *extra, map_=amap(hexsides=side))
    final.refused("Herman (1)")
    draft = standard(tmp_path, *extra, map_=amap(hexsides=side), variant="draft")
    out = draft.fix([2])
    assert out.details["result"] == "stays"


def test_1_refused_when_the_contact_force_has_moved(tmp_path: Path) -> None:
    # Herman (1): the contact force is a *non-moving* force. A French force that moved is not
    # a contact force for another French mover either; here F2 (moved) is the one "contacted".
    t = standard(tmp_path, fr("F2", "A0302", infantry=2), ru("R2", "A1305", infantry=2))
    t.do("waive", obligation="fix:F1:R1")  # F1's owed fixing set aside, so F2 may move
    t.move("F2", "A0402")
    t.refused("Herman (1)", contact="F2")


def test_1_refused_when_the_moving_force_did_not_enter_the_zoc(tmp_path: Path) -> None:
    # Herman (1): the moving force must *enter* the contact force's ZOC. F1 moves to A0805,
    # two hexes from A1005: not in its ZOC.
    t = standard(tmp_path, ru("R2", "A1305", infantry=2), move=False)
    t.move("F1", "A0805")
    t.refused("Herman (1)")


def test_1_refused_for_a_force_that_has_not_moved(tmp_path: Path) -> None:
    # Herman (1): only a moving force fixes. F2 stands 2 hexes away and never moved.
    t = standard(tmp_path, fr("F2", "A0805", infantry=2), ru("R2", "A1305", infantry=2), move=False)
    t.refused("Herman (1)", moving="F2")


def test_1_garrison_is_not_a_contact_force(tmp_path: Path) -> None:
    # Herman (3): a garrison does not constitute a force for this purpose.
    t = standard(tmp_path, ru("G1", "A0904", kind="garrison", infantry=1), move=False)
    t.move("F1", "A0803")  # A0803 touches A0904 (col 8 even: col 9 rows 3, 4)
    t.refused("Herman (3)", contact="G1")


def test_1_force_march_repulse_uses_the_same_procedure(tmp_path: Path) -> None:
    # Herman (1) note: a force-marching force attempting a repulse fixes exactly as a normal
    # move. Same DRM, same odds; a repulse needs a force march.
    t = standard(tmp_path, ru("R2", "A1305", infantry=2), mover={"cavalry": 1}, move=False)
    t.move("F1", ENTER, march="force")
    assert t.odds(repulse=True)[0].p("substitution") == Fraction(1, 6)  # 1d6-2 >= 4: face 6
    out = t.fix([6], repulse=True)
    assert mods(out) == [(-2, "only Fr has Cav")] and out.details["result"] == "substitution"
    n = standard(tmp_path, ru("R2", "A1305", infantry=2))
    n.refused("Herman (1)", repulse=True)


# ---------------------------------------------------------------------------------------------
# (3) die roll modifiers
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("mover", "contact", "expected"),
    [
        # DRM 1: only the moving force has cavalry SP / a vedette: -2
        ({"cavalry": 1, "infantry": 2}, {"infantry": 3, "generals": ["G"]}, [(-2, "Fr")]),
        ({"vedettes": 1}, {"infantry": 3, "generals": ["G"]}, [(-2, "Fr")]),
        # DRM 3: only the contact force has: +2
        ({"infantry": 4}, {"vedettes": 1}, [(2, "Ru")]),
        ({"infantry": 4}, {"cavalry": 3, "generals": ["G"]}, [(2, "Ru")]),
        # DRM 4: neither: no modifier
        ({"infantry": 4}, {"infantry": 3, "generals": ["G"]}, []),
        # DRM 2: both; more cav/vedette SP: moving -1, contact +1, equal none
        ({"cavalry": 2}, {"cavalry": 1, "generals": ["G"]}, [(-1, "Fr")]),
        ({"cavalry": 1}, {"cavalry": 2, "generals": ["G"]}, [(1, "Ru")]),
        ({"cavalry": 2}, {"cavalry": 2, "generals": ["G"]}, []),
        # a vedette counts as 1 cavalry SP (seeds README; fits the example table)
        ({"cavalry": 1}, {"vedettes": 1}, []),
        ({"vedettes": 1}, {"cavalry": 1, "generals": ["G"]}, []),
        ({"cavalry": 2}, {"vedettes": 1}, [(-1, "Fr")]),
        ({"cavalry": 1}, {"vedettes": 1, "cavalry": 1}, [(1, "Ru")]),
        ({"vedettes": 2}, {"cavalry": 1, "vedettes": 1}, []),
    ],
)
def test_3_drm_cases(tmp_path: Path, mover: Any, contact: Any, expected: Any) -> None:
    t = standard(tmp_path, ru("R2", "A1305", infantry=2), mover=mover, contact=contact)
    out = t.fix([3])
    got = [(m.value, m.reason) for m in out.rolls[0].modifiers]
    assert [v for v, _ in got] == [v for v, _ in expected]
    for (_, reason), (_, side) in zip(got, expected, strict=True):
        assert side in reason
    assert all("Herman (3)" in m.rule for m in out.rolls[0].modifiers)
    assert out.rolls[0].final == 3 + sum(v for v, _ in expected)


def test_3_vedette_strength_is_a_parameter(tmp_path: Path) -> None:
    # seeds README: the vedette's strength is not stated: a parameter. With 2 per vedette,
    # 2 Fr cav vs 1 Ru vedette is a tie (no DRM), and 1 Fr cav vs 1 vedette is Ru superior.
    a = standard(
        tmp_path,
        ru("R2", "A1305", infantry=2),
        mover={"cavalry": 2},
        contact={"vedettes": 1},
        vedette_strength=2,
    )
    assert mods(a.fix([3])) == []
    b = standard(
        tmp_path,
        ru("R2", "A1305", infantry=2),
        mover={"cavalry": 1},
        contact={"vedettes": 1},
        vedette_strength=2,
    )
    assert [v for v, _ in mods(b.fix([3]))] == [1]


@pytest.mark.parametrize(
    ("mover", "contact", "face", "final", "row"),
    [
        # DRM -2: 1 -> -1 (below 1: still "1-3"), 5 -> 3 stays, 6 -> 4 substitution
        ({"cavalry": 1}, {"infantry": 3, "generals": ["G"]}, 1, -1, "stays"),
        ({"cavalry": 1}, {"infantry": 3, "generals": ["G"]}, 5, 3, "stays"),
        ({"cavalry": 1}, {"infantry": 3, "generals": ["G"]}, 6, 4, "substitution"),
        # DRM +2: 1 -> 3 stays, 2 -> 4 substitution, 6 -> 8 (above 6: still "4-6")
        ({"infantry": 4}, {"vedettes": 1}, 1, 3, "stays"),
        ({"infantry": 4}, {"vedettes": 1}, 2, 4, "substitution"),
        ({"infantry": 4}, {"vedettes": 1}, 6, 8, "substitution"),
        # no DRM: 3 stays, 4 substitution
        ({"infantry": 4}, {"infantry": 3, "generals": ["G"]}, 3, 3, "stays"),
        ({"infantry": 4}, {"infantry": 3, "generals": ["G"]}, 4, 4, "substitution"),
        # -1 and +1
        ({"cavalry": 2}, {"vedettes": 1}, 4, 3, "stays"),
        ({"cavalry": 2}, {"vedettes": 1}, 5, 4, "substitution"),
        ({"cavalry": 1}, {"cavalry": 2, "generals": ["G"]}, 2, 3, "stays"),
        ({"cavalry": 1}, {"cavalry": 2, "generals": ["G"]}, 3, 4, "substitution"),
    ],
)
def test_3_table_boundaries(
    tmp_path: Path, mover: Any, contact: Any, face: int, final: int, row: str
) -> None:
    # Herman (3): 1-3 the contact force remains; 4-6 a supporting force is substituted.
    t = standard(tmp_path, ru("R2", "A1305", infantry=2), mover=mover, contact=contact)
    out = t.fix([face])
    assert out.rolls[0].final == final
    assert out.details["result"] == row
    assert t.hexes("R1") == ((CONTACT,) if row == "stays" else ("A1305",))
    assert t.hexes("R2") == (("A1305",) if row == "stays" else (CONTACT,))


@pytest.mark.parametrize(
    ("mover", "contact", "p_sub"),
    [
        ({"cavalry": 1}, {"infantry": 3, "generals": ["G"]}, Fraction(1, 6)),  # -2: face 6
        ({"cavalry": 2}, {"vedettes": 1}, Fraction(1, 3)),  # -1: faces 5, 6
        ({"infantry": 4}, {"infantry": 3, "generals": ["G"]}, Fraction(1, 2)),  # 0: 4-6
        ({"cavalry": 1}, {"cavalry": 2, "generals": ["G"]}, Fraction(2, 3)),  # +1: 3-6
        ({"infantry": 4}, {"vedettes": 1}, Fraction(5, 6)),  # +2: 2-6
    ],
)
def test_3_exact_odds(tmp_path: Path, mover: Any, contact: Any, p_sub: Fraction) -> None:
    t = standard(tmp_path, ru("R2", "A1305", infantry=2), mover=mover, contact=contact)
    first = t.odds()[0]
    assert first.p("substitution") == p_sub
    assert first.p("stays") == 1 - p_sub


# ---------------------------------------------------------------------------------------------
# (3) support range by series, counted in hexes
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("series", "inside", "outside"),
    [
        ("5x", "A1305", "A1405"),  # 3 hexes in range, 4 not
        ("2x", "A1505", "A1605"),  # 5 / 6
        ("1x", "A2005", "A2105"),  # 10 / 11
    ],
)
def test_3_support_range_boundary(tmp_path: Path, series: str, inside: str, outside: str) -> None:
    # Herman (3): within 10 hexes (1x), 5 (2x), 3 (5x). Same row: distance = column difference.
    t = standard(tmp_path, ru("R2", inside, infantry=2), series=series)
    t.fix([4])
    assert t.hexes("R2") == (CONTACT,) and t.hexes("R1") == (inside,)
    u = standard(tmp_path, ru("R2", outside, infantry=2), series=series)
    out = u.fix([6])
    # Herman (4): no substitution force within range: the force is 'fixed'
    assert out.details["result"] != "substitution"
    assert u.hexes("R1") == (CONTACT,) and u.fixed("R1") and u.hexes("R2") == (outside,)


def test_3_range_is_counted_in_hexes_not_terrain(tmp_path: Path) -> None:
    # seeds README: the range is counted in hexes. R2 is 3 hexes away behind marsh (3 MP a
    # hex): it is still in range of a 5x map.
    marsh = {"marsh": [f"A11{r:02}" for r in range(1, 13)] + [f"A12{r:02}" for r in range(1, 13)]}
    t = standard(tmp_path, ru("R2", "A1305", infantry=2), map_=amap(areas=marsh))
    t.fix([4])
    assert t.hexes("R2") == (CONTACT,)


# ---------------------------------------------------------------------------------------------
# (1)/(4) which supporting force: closest in movement points, die for ties
# ---------------------------------------------------------------------------------------------
def marsh_column() -> dict[str, Any]:
    # column 11 is marsh (3 MP to enter): from the east every path to A1005 costs >= 3 + 1
    return amap(areas={"marsh": [f"A11{r:02}" for r in range(1, 13)]})


def test_1_closest_in_mp_not_in_hexes(tmp_path: Path) -> None:
    # Herman (1): "the force that is closest in movement points". R2 is 2 hexes east (A1205)
    # but must cross the marsh column: 3 + 1 = 4 MP. R3 is 3 hexes south (A1008): A1007,
    # A1006, A1005 = 3 MP. R3 is chosen, without a tie roll, on any 4-6.
    t = standard(
        tmp_path, ru("R2", "A1205", infantry=2), ru("R3", "A1008", infantry=2), map_=marsh_column()
    )
    who = t.odds()[1]
    assert who.p("R3") == Fraction(1, 2) and who.p("R2") == 0
    out = t.fix([4])
    assert len(out.rolls) == 1
    assert t.hexes("R3") == (CONTACT,) and t.hexes("R1") == ("A1008",)
    assert t.hexes("R2") == ("A1205",)


def test_1_nearer_in_hexes_wins_on_open_ground(tmp_path: Path) -> None:
    # Same forces, all clear: R2 is 2 MP, R3 3 MP: R2 is chosen.
    t = standard(tmp_path, ru("R2", "A1205", infantry=2), ru("R3", "A1008", infantry=2))
    out = t.fix([5])
    assert len(out.rolls) == 1 and t.hexes("R2") == (CONTACT,)


def test_1_tie_of_two_is_a_die_roll_with_exact_odds(tmp_path: Path) -> None:
    # Herman (1) "a die roll adjudicating ties", (4) "randomly": R2 (A1305, 3 hexes east) and
    # R3 (A1008, 3 south) are both 3 MP away. No DRM: P(sub) = 1/2, each force 1/2 x 1/2 = 1/4;
    # the tie die gives each force 1/2.
    def game() -> T:
        return standard(tmp_path, ru("R2", "A1305", infantry=2), ru("R3", "A1008", infantry=2))

    t = game()
    fixing, who, tie = t.odds()[:3]
    assert fixing.p("substitution") == Fraction(1, 2)
    assert who.p("R2") == who.p("R3") == Fraction(1, 4) and who.p("stays") == Fraction(1, 2)
    assert tie.p("R2") == tie.p("R3") == Fraction(1, 2)
    assert sum(r.p for r in who.rows) == 1 and sum(r.p for r in tie.rows) == 1
    out = t.fix([4, 1])
    assert len(out.rolls) == 2
    low = out.details["chosen"]
    assert t.hexes(low) == (CONTACT,)
    u = game()
    high = u.fix([4, 6]).details["chosen"]
    assert u.hexes(high) == (CONTACT,)
    assert {low, high} == {"R2", "R3"}  # faces 1 and 6 pick different forces
    # a 1-3 makes no tie roll
    v = game()
    assert len(v.fix([3]).rolls) == 1


def test_1_road_makes_the_farther_force_closer_in_mp(tmp_path: Path) -> None:
    # Herman (1) closest in MP: R3 is 3 hexes east along a road (A1305-A1205-A1105-A1005,
    # 1/2 MP a hex in vedette's terrain data: 3/2 MP); R2 is 2 hexes south (A1007, 2 MP).
    m = amap()
    m["roads"] = [{"path": ["A1005", "A1105", "A1205", "A1305"]}]
    t = standard(tmp_path, ru("R2", "A1007", infantry=2), ru("R3", "A1305", infantry=2), map_=m)
    assert t.odds()[1].p("R3") == Fraction(1, 2) and t.odds()[1].p("R2") == 0
    t.fix([6])
    assert t.hexes("R3") == (CONTACT,) and t.hexes("R2") == ("A1007",)


def test_1_river_hexside_makes_the_nearer_force_farther(tmp_path: Path) -> None:
    # Herman (1): R2 (A1007) is 2 hexes away, but the three southern hexsides of A1005 are a
    # river (+1 MP in vedette's data): A1006 (1) + A1005 across the river (1 + 1) = 3 MP; around
    # by A1107, A1106, A1105 is 4. R3 (A1305, 3 hexes, clear) is 3 MP: now they tie.
    pairs = [["A1005", "A1006"], ["A1005", "A0906"], ["A1005", "A1106"]]
    m = amap(hexsides=[{"feature": "river", "pairs": pairs}])
    t = standard(tmp_path, ru("R2", "A1007", infantry=2), ru("R3", "A1305", infantry=2), map_=m)
    who = t.odds()[1]
    assert who.p("R2") == who.p("R3") == Fraction(1, 4)
    # without the river R2 (2 MP) alone is chosen
    u = standard(tmp_path, ru("R2", "A1007", infantry=2), ru("R3", "A1305", infantry=2))
    assert u.odds()[1].p("R2") == Fraction(1, 2) and u.odds()[1].p("R3") == 0


def test_1_tie_of_four_each_one_quarter(tmp_path: Path) -> None:
    # Four forces 3 MP away (east, south, north, west of the contact): each 1/4 of the tie
    # (documented choice A12: a d4), 1/2 x 1/4 = 1/8 overall with no DRM.
    t = standard(
        tmp_path,
        ru("R2", "A1305", infantry=2),
        ru("R3", "A1008", infantry=2),
        ru("R4", "A1002", infantry=2),
        ru("R5", "A0706", infantry=2),
        move=False,
    )
    t.move("F1", ENTER)
    _, who, tie = t.odds()[:3]
    for f in ("R2", "R3", "R4", "R5"):
        assert tie.p(f) == Fraction(1, 4) and who.p(f) == Fraction(1, 8)


def test_1_tie_of_three_each_one_third(tmp_path: Path) -> None:
    # Three forces 3 MP away: A1305 (east), A1008 (south), A1002 (north). Each 1/3 on the tie.
    t = standard(
        tmp_path,
        ru("R2", "A1305", infantry=2),
        ru("R3", "A1008", infantry=2),
        ru("R4", "A1002", infantry=2),
        contact={"vedettes": 1},
    )
    fixing, who, tie = t.odds()[:3]
    assert fixing.p("substitution") == Fraction(5, 6)
    for f in ("R2", "R3", "R4"):
        assert tie.p(f) == Fraction(1, 3)
        assert who.p(f) == Fraction(5, 18)


# ---------------------------------------------------------------------------------------------
# (3) garrisons, bridge trains, centers of operation never substitute
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["garrison", "bridge_train", "center_of_operations"])
def test_3_non_forces_never_substitute(tmp_path: Path, kind: str) -> None:
    # Herman (3): they "do not constitute a force for this purpose". Alone in range: the
    # contact force is fixed on a 4-6 (Herman (4) none in range). Closer than a real force:
    # the real force is chosen.
    t = standard(tmp_path, ru("X1", "A1105", kind=kind, infantry=1))
    out = t.fix([6])
    assert out.details["result"] != "substitution"
    assert t.hexes("R1") == (CONTACT,) and t.hexes("X1") == ("A1105",) and t.fixed("R1")
    u = standard(tmp_path, ru("X1", "A1105", kind=kind, infantry=1), ru("R2", "A1305", infantry=2))
    assert "X1" not in {r.key for r in u.odds()[1].rows}
    assert u.odds()[1].p("R2") == Fraction(1, 2)
    u.fix([6])
    assert u.hexes("R2") == (CONTACT,) and u.hexes("X1") == ("A1105",)


# ---------------------------------------------------------------------------------------------
# (4) multi-hex supporting force
# ---------------------------------------------------------------------------------------------
def test_4_multi_hex_force_arrayed_in_the_moving_force_zoc(tmp_path: Path) -> None:
    # Herman (4): the whole force is arrayed in the new location, each component in the ZOC of
    # the moving force (A0905) if possible. Hexes touching both A1005 and A0905: A1004, A0906.
    t = standard(tmp_path, ru("R2", "A1305", "A1306", infantry=4, cavalry=1))
    out = t.fix([5])
    h = t.hexes("R2")
    assert h[0] == CONTACT and h[1] in {"A1004", "A0906"}
    assert sorted(a[1] for a in out.details["arrays"]) == ["A0906", "A1004"]
    # the contact force goes to one of the vacated hexes
    assert t.hexes("R1")[0] in {"A1305", "A1306"}


def test_4_multi_hex_owner_choice_when_zoc_impossible(tmp_path: Path) -> None:
    # Herman (4): "if not, owning player's choice": both hexes in the moving force's ZOC next
    # to A1005 are lakes; the owner puts the second component in A1105 (touches A1005).
    lakes = amap(areas={"lake": ["A1004", "A0906"]})
    t = standard(tmp_path, ru("R2", "A1305", "A1306", infantry=4), map_=lakes)
    t.fix([5], array=[CONTACT, "A1105"], contact_to="A1306")
    assert t.hexes("R2") == (CONTACT, "A1105") and t.hexes("R1") == ("A1306",)


# ---------------------------------------------------------------------------------------------
# (2) the fixed lifecycle
# ---------------------------------------------------------------------------------------------
def test_2_fixed_contact_cannot_be_substituted_again(tmp_path: Path) -> None:
    # Herman (2): once fixed, a force cannot be substituted while adjacent to an enemy force.
    t = standard(tmp_path, fr("F2", "A1202", infantry=2), ru("R2", "A1305", infantry=2))
    t.fix([1])
    assert t.fixed("R1")
    t.move("F2", "A1106")  # touches A1005 (col 11 odd: col 10 rows 5, 6)
    t.refused("Herman (2)", moving="F2")


def test_2_fixed_force_is_not_a_supporting_force(tmp_path: Path) -> None:
    # Herman (2): R2 (fixed, adjacent to F3) cannot be substituted; R3 is the one found.
    t = standard(
        tmp_path,
        ru("R2", "A1305", infantry=2, fixed=True),
        fr("F3", "A1405", infantry=1),
        ru("R3", "A1008", infantry=2),
    )
    assert t.fixed("R2")
    t.fix([6])
    assert t.hexes("R3") == (CONTACT,) and t.hexes("R2") == ("A1305",)


def test_2_fix_lasts_while_adjacent_then_ends(tmp_path: Path) -> None:
    # Herman (2): fixed "while it remains adjacent to an enemy force". R1 stays fixed through
    # the combat phase and into the Russian movement; once it moves away from F1 it is free.
    t = standard(tmp_path, ru("R2", "A1305", infantry=2))
    t.fix([2])
    t.do("end_movement")
    assert t.fixed("R1")
    t.do("end_combat")
    assert t.fixed("R1")
    t.move("R1", "A1208")
    assert not t.fixed("R1")


def test_2_substituted_force_is_the_fixed_one(tmp_path: Path) -> None:
    # Herman (2): the result fixes the location; the force now in the contact hex (R2) is fixed
    # (vedette's documented choice A4); the vedette that moved away is not.
    t = standard(tmp_path, ru("R2", "A1305", infantry=2), contact={"vedettes": 1})
    t.fix([3])  # 3 + 2 = 5
    assert t.hexes("R2") == (CONTACT,) and t.fixed("R2") and not t.fixed("R1")


# ---------------------------------------------------------------------------------------------
# the example table of the text (5x, Vilnius W1920 -> Asmjany W2121, Smorgoni W2421 + W2522)
# ---------------------------------------------------------------------------------------------
def kremlin(tmp_path: Path, mover: Any, contact: Any, support: list[str], sup: Any) -> T:
    m = amap(cols=(15, 30), rows=(15, 28), letter="W")
    forces = [
        fr("F1", "W1920", **mover),
        ru("R1", "W2121", name="Vedette", **contact),
        ru("R2", *support, **sup),
    ]
    t = T(tmp_path, forces, series="5x", map_=m)
    t.move("F1", "W2020")  # touches W2121 (col 20 even: col 21 rows 20, 21)
    return t


def test_example_row_1(tmp_path: Path) -> None:
    # Fr Inf only / Ru Vedette / Ru Inf: 1d6=3+2 (only Ru has Vedette)=5, switch places
    t = kremlin(
        tmp_path, {"infantry": 5}, {"vedettes": 1}, ["W2421"], {"infantry": 4, "name": "Ru Inf"}
    )
    out = t.fix([3])
    assert out.rolls[0].final == 5 and mods(out) == [(2, "only Ru has Vedette")]
    assert out.message == "1d6=3+2 (only Ru has Vedette)=5, Vedette and Ru Inf switch places"
    assert t.hexes("R2") == ("W2121",) and t.hexes("R1") == ("W2421",)


def test_example_row_2(tmp_path: Path) -> None:
    # Fr Mx w/2 Cav SP / Ru Vedette / Ru Inf: 1d6=3-1 (superior Fr Cav)=2, vedette remains
    t = kremlin(
        tmp_path,
        {"infantry": 4, "cavalry": 2},
        {"vedettes": 1},
        ["W2421"],
        {"infantry": 4, "name": "Ru Inf"},
    )
    out = t.fix([3])
    assert out.rolls[0].final == 2 and mods(out) == [(-1, "superior Fr Cav")]
    assert out.message == "1d6=3-1 (superior Fr Cav)=2, Vedette remains in hex"
    assert t.hexes("R1") == ("W2121",) and t.fixed("R1")


def test_example_row_3(tmp_path: Path) -> None:
    # Fr Cav w/1 Cav SP / Ru Cav w/2 Cav SP / Ru Mx: 1d6=3+1 (superior Ru Cav)=4, switch
    t = kremlin(
        tmp_path,
        {"cavalry": 1},
        {"cavalry": 2},
        ["W2421"],
        {"infantry": 4, "cavalry": 1, "name": "Ru Mx"},
    )
    out = t.fix([3])
    assert out.rolls[0].final == 4 and mods(out) == [(1, "superior Ru Cav")]
    assert out.message == "1d6=3+1 (superior Ru Cav)=4, Vedette and Ru Mx switch places"
    assert t.hexes("R2") == ("W2121",) and t.hexes("R1") == ("W2421",)


def test_example_row_4(tmp_path: Path) -> None:
    # Fr Inf only / Ru Vedette / Ru Mx (2 hex, W2421 + W2522): 3+2=5; one component in W2121,
    # the other in a hex adjacent to W2121 and to the Fr force (W2020): W2021 or W2120.
    t = kremlin(
        tmp_path,
        {"infantry": 5},
        {"vedettes": 1},
        ["W2421", "W2522"],
        {"infantry": 4, "cavalry": 2, "name": "Ru Mx"},
    )
    out = t.fix([3])
    assert out.rolls[0].final == 5
    assert out.message.startswith("1d6=3+2 (only Ru has Vedette)=5, Vedette and Ru Mx switch")
    h = t.hexes("R2")
    assert h[0] == "W2121" and h[1] in {"W2021", "W2120"}
    assert t.hexes("R1")[0] in {"W2421", "W2522"}


def test_example_geometry(tmp_path: Path) -> None:
    # the example: Smorgoni W2421 is three hexes from Asmjany W2121; W2522 is SE of W2421
    t = kremlin(tmp_path, {"infantry": 5}, {"vedettes": 1}, ["W2421"], {"infantry": 4})
    m = t.game.state.map
    assert m.distance("W2421", "W2121") == 3
    assert m.adjacent("W2421", "W2522") and m.distance("W1920", "W2121") == 2


# ---------------------------------------------------------------------------------------------
# first draft
# ---------------------------------------------------------------------------------------------
def test_draft_random_among_all_in_range(tmp_path: Path) -> None:
    # first draft: "more than one potential force within range: determine randomly" - no MP
    # ranking. R2 (2 MP) and R3 (3 MP) are both in range: each 1/2 of a substitution.
    t = standard(
        tmp_path, ru("R2", "A1205", infantry=2), ru("R3", "A1008", infantry=2), variant="draft"
    )
    _, who, tie = t.odds()[:3]
    assert who.p("R2") == who.p("R3") == Fraction(1, 4)
    assert tie.p("R2") == tie.p("R3") == Fraction(1, 2)
    out = t.fix([4, 6])
    assert len(out.rolls) == 2 and out.details["chosen"] in {"R2", "R3"}
    # the final text takes the closer one, no tie roll
    f = standard(tmp_path, ru("R2", "A1205", infantry=2), ru("R3", "A1008", infantry=2))
    assert f.odds()[1].p("R3") == 0


def test_draft_same_table_and_drms(tmp_path: Path) -> None:
    # the draft's roll, ranges and DRMs are the final text's
    t = standard(tmp_path, ru("R2", "A1305", infantry=2), contact={"vedettes": 1}, variant="draft")
    assert t.odds()[0].p("substitution") == Fraction(5, 6)
    out = t.fix([1])
    assert out.rolls[0].final == 3 and out.details["result"] == "stays"
    u = standard(tmp_path, ru("R2", "A1405", infantry=2), variant="draft")
    assert u.fix([6]).details["result"] != "substitution"


def test_draft_refusals_cite_the_draft(tmp_path: Path) -> None:
    t = standard(
        tmp_path, fr("F2", "A1004", infantry=2), ru("R2", "A1305", infantry=2), variant="draft"
    )
    assert "draft" in t.refused("Herman")


# ---------------------------------------------------------------------------------------------
# the CLI
# ---------------------------------------------------------------------------------------------
def test_cli_fix_with_forced_die(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scn = tmp_path / "s.toml"
    scn.write_text(
        '[scenario]\ntitle = "cli"\nseries = "5x"\nfirst = "Fr"\n'
        '[sides]\nFr = "French"\nRu = "Russian"\n'
        '[map]\nletter = "A"\nid_digits = 2\ncolumns = [1, 14]\nrows = [1, 10]\n'
        'default_terrain = "clear"\n'
        '[[forces]]\nid = "F1"\nside = "Fr"\nname = "Fr Inf"\nhexes = ["A0705"]\ninfantry = 4\n'
        '[[forces]]\nid = "R1"\nside = "Ru"\nname = "Vedette"\nhexes = ["A1005"]\nvedettes = 1\n'
        '[[forces]]\nid = "R2"\nside = "Ru"\nname = "Ru Inf"\nhexes = ["A1305"]\ninfantry = 3\n'
    )
    db = str(tmp_path / "c.db")
    assert main(["--db", db, "nab", "new", "c", "--scenario", str(scn)]) == 0
    assert main(["--db", db, "nab", "move", "force=F1", "to=A0905"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "nab", "fix", "moving=F1", "contact=R1", "--dice", "2", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["message"] == "1d6=2+2 (only Ru has Vedette)=4, Vedette and Ru Inf switch places"
    assert main(["--db", db, "nab", "fix", "moving=F1", "contact=R1"]) != 0
    assert "Herman" in capsys.readouterr().err


def test_refused_request_leaves_no_event(tmp_path: Path) -> None:
    t = standard(tmp_path, fr("F2", "A1004", infantry=2), ru("R2", "A1305", infantry=2))
    n = len(t.game.records)
    with pytest.raises(RuleViolation):
        t.fix([6])
    assert len(t.game.records) == n and t.hexes("R1") == (CONTACT,)


def test_5_no_fixing_in_the_combat_phase(tmp_path: Path) -> None:
    # Herman (5): combat follows once all movement and fixing is complete: a fixing asked for
    # after the movement phase is refused.
    t = standard(tmp_path, ru("R2", "A1305", infantry=2))
    t.do("waive", obligation="fix:F1:R1")  # end_movement is refused while a fixing is owed
    t.do("end_movement")
    t.refused("Herman (5)")


def test_replay_gives_the_same_table(tmp_path: Path) -> None:
    # the game log replays to the same positions and fixed flags
    t = standard(tmp_path, ru("R2", "A1305", infantry=2), contact={"vedettes": 1})
    t.fix([3])
    again = Game.open(t.store, "g")
    assert again.ruleset.state_json(again.state) == t.game.ruleset.state_json(t.game.state)
    assert again.state.pieces["R2"].hexes == (CONTACT,) and again.state.pieces["R2"].fixed
