"""Movement, standstill, formation changes, disorder and reforming (Kuryakin, Random Movement;
Moving From A Standstill; Formation Changing; Disorder)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from solonap_helpers import activate, general, make, odds, run, unit

from vedette.errors import BadRequest, RuleViolation
from vedette.rules.solo_napoleonic import RULESET as R
from vedette.rules.solo_napoleonic.actions import th_adjust


def brig(th: str = "average", av: str = "normal") -> dict[str, object]:
    return general("B1", th=th, av=av, cr=6, grade="average")


@pytest.mark.parametrize(
    ("face", "below", "above"),
    [
        (3, 4, 2),
        (2, 3, 1),
        (1, 2, 0),
        (0, 0, 0),
        (-1, -2, 0),
        (-2, -3, -1),
        (-3, -4, -2),
        (5, 6, 4),
        (-5, -6, -4),
    ],
)
def test_th_adjustment(face: int, below: int, above: int) -> None:
    s = make([])
    assert th_adjust(s, face, "below_average") == below
    assert th_adjust(s, face, "above_average") == above
    assert th_adjust(s, face, "average") == face


def test_below_average_zero_knob() -> None:
    s = make([], house={"options": {"below_average_zero": "up"}})
    assert th_adjust(s, 0, "below_average") == 1


def moving(th: str = "average", **kw: object) -> object:
    u = unit("u", brigade="B1", advancing=True, formation="column", **kw)
    return activate(make([u], [brig(th)]), "u")


def test_move_adds_random_cm_and_swerves() -> None:
    s = moving()
    # column 200mm; dK8 face +2 -> +20mm; swerve d6=6 right, d6=3 -> 30mm right
    s2, out = run(s, "move", [2, 6, 3], unit="u")
    assert out.details["moved_mm"] == 220 and out.details["lateral_mm"] == 30
    assert s2.unit("u").moved_mm == 200


def test_move_below_average_brigadier_goes_to_the_extreme() -> None:
    s = moving("below_average")
    _, out = run(s, "move", [-3, 3], unit="u")
    assert out.details["adjust_cm"] == -4 and out.details["moved_mm"] == 160


def test_move_position_tracked() -> None:
    u = unit("u", brigade="B1", advancing=True, formation="column", x=500.0, y=100.0, facing=0.0)
    s = activate(make([u], [brig()]), "u")
    s2, _ = run(s, "move", [0, 1, 2], unit="u", distance=100)
    # 100mm ahead (north), swerve 1 = left by 20mm (west)
    assert (s2.unit("u").x, s2.unit("u").y) == (480.0, 200.0)


def test_move_too_far_refused_and_state_unchanged() -> None:
    s = moving()
    with pytest.raises(RuleViolation, match="may move 200mm"):
        run(s, "move", [], unit="u", distance=250)


def test_cavalry_use_d12() -> None:
    u = unit("c", kind="light_cavalry", formation="mounted", advancing=True, brigade="B1")
    s = activate(make([u], [brig("above_average")]), "c")
    r, _, _ = odds(s, "move", unit="c")
    assert r.p("4") == Fraction(1, 12)  # only +5 becomes +4
    assert r.p("0") == Fraction(4, 12)  # 0, 0, +1 and -1 all become 0
    s2, out = run(s, "move", [5, 3], unit="c")
    assert out.details["adjust_cm"] == 4 and out.details["moved_mm"] == 440
    assert s2.unit("c").moved_mm == 400


def test_standstill_d6_one_fails_with_modifiers() -> None:
    u = unit("u", brigade="B1", advancing=False)
    s = activate(make([u], [brig(av="timid")]), "u")
    (o,) = odds(s, "start", unit="u")
    assert o.p("stays") == Fraction(2, 6)
    s2, out = run(s, "move", [2], unit="u")
    assert "does not advance" in out.message and s2.unit("u").start_failed
    with pytest.raises(RuleViolation):
        run(s2, "move", [3, 3], unit="u")
    agg = activate(make([u], [brig(av="aggressive")]), "u")
    (o2,) = odds(agg, "start", unit="u")
    assert o2.p("stays") == 0


def test_stopping_an_advance_six_carries_on() -> None:
    u = unit("u", brigade="B1", advancing=True)
    s = activate(make([u], [brig(av="normal")]), "u")
    (o,) = odds(s, "halt", unit="u")
    assert o.p("carries_on") == Fraction(1, 6)
    s2, out = run(s, "halt", [6], unit="u")
    assert s2.unit("u").advancing and "carries on" in out.message
    s3, _ = run(s, "halt", [5], unit="u")
    assert not s3.unit("u").advancing
    timid = activate(make([u], [brig(av="timid")]), "u")
    assert odds(timid, "halt", unit="u")[0].p("carries_on") == 0
    agg = activate(make([u], [brig(av="aggressive")]), "u")
    assert odds(agg, "halt", unit="u")[0].p("carries_on") == Fraction(2, 6)


@pytest.mark.parametrize(
    ("grade", "th", "in_cmd", "face", "quarters"),
    [
        ("C", "average", True, 3, 3),
        ("B", "average", True, 3, 2),
        ("A", "average", True, 3, 1),
        ("C", "below_average", True, 3, 4),
        ("C", "above_average", True, 3, 2),
        ("C", "average", False, 3, 5),
        ("A", "above_average", True, 2, 0),
    ],
)
def test_formation_change_quarters(
    grade: str, th: str, in_cmd: bool, face: int, quarters: int
) -> None:
    u = unit("u", brigade="B1", grade=grade, in_command=in_cmd)
    s = activate(make([u], [brig(th)]), "u")
    s2, out = run(s, "formation", [face], unit="u", to="column")
    assert out.details["quarters"] == quarters
    if quarters <= 4:
        assert s2.unit("u").formation == "column"
    else:
        assert s2.unit("u").formation == "line"
        assert s2.unit("u").formation_target == "column"
        assert s2.unit("u").formation_quarters == quarters - 4


def test_formation_carries_over_and_incomplete_takes_1d() -> None:
    u = unit("u", brigade="B1", in_command=False)
    s = activate(make([u], [brig("below_average")]), "u")
    s, _ = run(s, "formation", [4], unit="u", to="square")  # 4+1+2 = 7 quarters
    assert s.unit("u").formation_quarters == 3
    s = replace(s, phase="end", active=None, done=("active",))
    s, out = run(s, "end_turn")
    assert s.unit("u").disorder == 1 and "formation incomplete" in out.message
    s = activate(s, "u")
    s, out = run(s, "formation", [], unit="u")
    assert s.unit("u").formation == "square" and s.unit("u").formation_target is None


def test_a_change_carried_over_is_not_offered_again_this_turn_and_is_next_turn() -> None:
    """Kuryakin, Formation Changing: a change needing more than the move left carries into the
    next turn. Going on with it in the same turn, with no move left, would change nothing:
    todo does not offer it (it was offered, and logged an action that did nothing); the
    procedure still accepts it unchanged (a log of an earlier build may hold one); the next
    turn, with a move again, it is offered and goes on."""
    u = unit("u", brigade="B1", in_command=False)
    s = activate(make([u], [brig("below_average")]), "u")

    def offered(state: object) -> list[dict[str, object]]:
        return [dict(t.request) for t in R.todo(state) if t.procedure == "formation"]

    assert offered(s) == [{"unit": "u"}]  # (a change to choose)
    s, _ = run(s, "formation", [4], unit="u", to="square")  # 4+1+2 = 7 quarters: 3 carry over
    assert s.unit("u").formation_target == "square" and s.unit("u").formation_quarters == 3
    assert offered(s) == []
    same, out = run(s, "formation", [], unit="u")
    assert out.events == () and same == s and "carry into next turn" in out.message
    s = replace(s, phase="end", active=None, done=("active",))
    s, _ = run(s, "end_turn")
    s = activate(s, "u")
    assert offered(s) == [{"unit": "u", "to": "square"}]
    s, _ = run(s, "formation", [], unit="u")
    assert s.unit("u").formation == "square" and s.unit("u").formation_target is None


def test_formation_musician_dead_slows() -> None:
    u = unit("u", brigade="B1", musician="dead")
    s = activate(make([u], [brig()], {"musicians": True}), "u")
    (o,) = odds(s, "formation", unit="u", to="column")
    assert o.p("5") == Fraction(1, 4)


def test_collision_d3_each() -> None:
    s = make([unit("a"), unit("b", "Allies")])
    s, _ = run(s, "disorder", [2, 3], cause="collision", units=["a", "b"])
    assert (s.unit("a").disorder, s.unit("b").disorder) == (2, 3)


def test_rout_move_2d_retreat_1d() -> None:
    u = unit("u", status="routing", advancing=False)
    s = activate(make([u]), "u")
    s2, _ = run(s, "move", [0, 3], unit="u", mode="rout")
    assert s2.unit("u").disorder == 2
    # issue 14: a routing unit only runs; a retreat is a steady unit's
    steady = activate(make([unit("u", advancing=False)]), "u")
    s3, _ = run(steady, "move", [0, 3], unit="u", mode="retreat")
    assert s3.unit("u").disorder == 1
    with pytest.raises(RuleViolation, match="routing"):
        run(s, "move", [0, 3], unit="u", mode="retreat")


def test_skirmishers_no_disorder_while_unformed() -> None:
    u = unit("u", formation="skirmish", advancing=True)
    s = activate(make([u]), "u")
    s2, _ = run(s, "move", [0, 3], unit="u", mode="retreat")
    assert s2.unit("u").disorder == 0


def test_musician_dead_over_half_move_1d() -> None:
    u = unit("u", formation="column", advancing=True, musician="dead")
    s = activate(make([u], options={"musicians": True}), "u")
    s2, _ = run(s, "move", [0, 3], unit="u", distance=150)
    assert s2.unit("u").disorder == 1
    s3, _ = run(s, "move", [0, 3], unit="u", distance=100)
    assert s3.unit("u").disorder == 0


@pytest.mark.parametrize(
    ("grade", "opts", "dead", "face", "removed"),
    [
        ("C", {}, {}, 4, 3),
        ("D", {}, {}, 4, 3),
        ("D", {}, {}, 1, 0),
        ("C", {"officers": True, "musicians": True}, {"officer": "dead", "musician": "dead"}, 5, 3),
        ("C", {}, {}, 6, 3),
    ],
)
def test_reform(
    grade: str, opts: dict[str, bool], dead: dict[str, str], face: int, removed: int
) -> None:
    u = unit("u", grade=grade, disorder=3, **dead)
    s = activate(make([u], options=opts), "u")
    s2, out = run(s, "reform", [face], unit="u")
    assert out.details["removed"] == removed
    assert s2.unit("u").disorder == 3 - removed and s2.unit("u").acted


def test_reform_refused_after_casualties_or_acting() -> None:
    u = unit("u", disorder=2, casualties_turn=1)
    s = activate(make([u]), "u")
    with pytest.raises(RuleViolation, match="casualties"):
        run(s, "reform", [3], unit="u")
    u2 = unit("u", disorder=2, moved_mm=50.0)
    with pytest.raises(RuleViolation, match="whole turn"):
        run(activate(make([u2]), "u"), "reform", [3], unit="u")


# -- one move per activation (Kuryakin, Move Sequence; Random Movement; Move Distances) --------
@pytest.mark.parametrize(
    ("kind", "formation"),
    [
        ("infantry", "column"),
        ("light_cavalry", "mounted"),
        ("foot_artillery", "limbered"),
        ("horse_artillery", "limbered"),
    ],
)
def test_one_move_per_activation_for_every_kind(kind: str, formation: str) -> None:
    """ "Once activated ... each unit can move": one move, its random movement die rolled once;
    a partial move does not leave the rest for a second roll of the die."""
    u = unit("u", kind=kind, formation=formation, advancing=True, figures=4)
    s = activate(make([u]), "u")
    s2, _ = run(s, "move", [0, 3], unit="u", distance=10)
    assert s2.unit("u").moved_mm == 10 and s2.unit("u").move_done
    for again in (10, None):
        with pytest.raises(RuleViolation, match="has made its move this activation") as e:
            run(s2, "move", [0, 3], unit="u", distance=again)
        assert "one move per activation" in str(e.value)


@pytest.mark.parametrize("kind", ["foot_artillery", "horse_artillery"])
def test_unlimbered_guns_cannot_creep_after_firing(kind: str) -> None:
    """A battery unlimbered has a move of 0mm: no move at all (it used to move by its random
    movement die alone, again and again, with moved_mm staying 0)."""
    u = unit("g", kind=kind, formation="unlimbered", figures=4, crew=4, advancing=True)
    s = activate(make([u, unit("e", "Allies")]), "g")
    s, _ = run(s, "fire", [3, 5, 5], unit="g", target="e", range="long")
    for dist in (None, 10):
        with pytest.raises(RuleViolation, match="cannot move in unlimbered") as e:
            run(s, "move", [3, 3], unit="g", distance=dist)
        assert "Kuryakin, Move Distances" in str(e.value) and "limber first" in str(e.value)
    assert s.unit("g").moved_mm == 0 and not s.unit("g").move_done


def test_a_move_of_nothing_is_refused() -> None:
    s = moving()
    with pytest.raises(BadRequest, match="'distance' must be more than 0"):
        run(s, "move", [3, 3], unit="u", distance=0)


def test_one_move_binds_for_the_turn_only() -> None:
    s = moving()
    s2, _ = run(s, "move", [0, 3], unit="u", distance=50)
    s3, _ = run(replace(s2, phase="end"), "end_turn", [], force=True)
    assert not s3.unit("u").move_done and s3.unit("u").moved_mm == 0


def test_a_rout_flees_away_from_the_cavalry_that_broke_it() -> None:
    # Kuryakin, Morale (the result chart, our default data: "routs: flees a full move away"):
    # a battalion charged in the rear by cavalry and routing runs away from the charger, not
    # back along its own facing into it (before, it ended at y=220, behind the lancers at 250)
    s = make(
        [
            unit("F1", x=500, y=400, facing=0, figures=18),
            unit(
                "A1",
                side="Allies",
                kind="light_cavalry",
                formation="mounted",
                figures=12,
                x=500,
                y=250,
                facing=0,
            ),
        ]
    )
    s, _ = run(activate(s, "A1"), "charge", [6, 10], unit="A1", target="F1")
    s, _ = run(s, "morale", [99, 1], unit="F1", charged_by="A1")
    assert next(o.procedure for o in R.obligations(s)) == "move"
    s, out = run(s, "move", [3, 3], unit="F1", mode="rout")  # +3cm, no swerve
    f = s.unit("F1")
    assert (f.x, f.y) == (500.0, 400.0 + 150.0 + 30.0) and "routs 180mm" in out.message
    # a direction the player gives still wins, within 45 degrees of straight away (reading
    # K75; no enemy on the table: straight back)
    s2 = make([unit("G", x=500, y=400, facing=0, figures=18, bound="rout", status="routing")])
    s2, _ = run(activate(s2, "G"), "move", [0, 3], unit="G", mode="rout", direction=135)
    g = s2.unit("G")
    side = 150 * 0.5**0.5  # (positions kept to 0.1mm)
    assert (g.x, g.y) == (pytest.approx(500 + side, abs=0.1), pytest.approx(400 - side, abs=0.1))


def test_a_move_that_runs_into_another_unit_says_it_collides() -> None:
    # Kuryakin, Disorder: "Each collision D3 D's per unit involved". A move (its distance, its
    # random movement, its swerve) that runs into another unit's base, on the way or where it
    # ends, is a collision: the move says so and names the command for the chits; before,
    # F1 passed through F2 unremarked. A unit met only edge to edge is no collision.
    s = make([unit("F1", x=500, y=400, facing=0), unit("F2", x=500, y=520, facing=0)])
    _, out = run(activate(s, "F1"), "move", [6, 3, 3], unit="F1", distance=120, mode="move")
    assert out.details["collisions"] == ["F2"]
    assert "collides with F2" in out.message
    assert 'disorder cause=collision units=\'["F1", "F2"]\'' in out.message
    # 50mm up to F2's rear edge (bases 30mm deep, centres 80mm apart): edge to edge, no collision
    s = make([unit("F1", x=500, y=400, facing=0), unit("F2", x=500, y=480, facing=0)])
    _, out = run(activate(s, "F1"), "move", [6, 0, 3], unit="F1", distance=50, mode="move")
    assert out.details["collisions"] == [] and "collides" not in out.message
