"""Issue 14: fire's and melee's casualty odds come from their own dice (``fire_dice``,
``_resolve_side``) enumerated with one branch per result of each whole check
(``dice.sources.branch``), not from a formula beside them.

Checked against the formulas the previous release computed beside ``resolve`` (kept here as
the reference) and, on small cases, against a face-by-face enumeration of the same dice (the
branching hidden from the source)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest
from solonap_helpers import activate, make, request, unit

from vedette.dice import parse_expression
from vedette.rules.base import Outcome
from vedette.rules.protocol import chances
from vedette.rules.solo_napoleonic.common import map_dist, repeat
from vedette.rules.solo_napoleonic.fire import casualty_odds, fire_casualties, fire_dice, plan
from vedette.rules.solo_napoleonic.melee import _side_rolled, side_odds, sides

FDist = dict[int, Fraction]


# -- the previous release's formulas (the reference) ------------------------------------------
def die_dist(faces: Any, plus: int, floor0: bool = True) -> FDist:
    out: FDist = {}
    fl = list(faces)
    for f in fl:
        v = max(0, f + plus) if floor0 else f + plus
        out[v] = out.get(v, Fraction(0)) + Fraction(1, len(fl))
    return out


def scaled(h: int, frac: Fraction) -> FDist:
    exact = h * frac
    whole = math.floor(exact)
    rem = exact - whole
    if rem == 0:
        return {whole: Fraction(1)}
    p = Fraction(round(rem * 100), 100)
    return {whole: 1 - p, whole + 1: p}


def binomial(n: int, p: Fraction) -> FDist:
    return {k: math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def survive(n: int, save: int) -> FDist:
    return binomial(n, Fraction(save - 1, 6))


def capped(d: FDist, cap: int) -> FDist:
    out: FDist = {}
    for v, p in d.items():
        out[min(v, cap)] = out.get(min(v, cap), Fraction(0)) + p
    return out


def old_fire(p: Any) -> FDist:
    plus = sum(m.value for m in p.modifiers)
    if p.method == "skirmish":
        hits = binomial(p.dice_count, Fraction(max(0, 7 - p.hit_on), 6))
    elif p.method == "artillery":  # 1d6 or 2d6, the modifiers on the total, at least 0
        assert [len(d.faces) for d in parse_expression(p.die).dice()] == [6] * _count(p.die)
        hits = {}
        for v, q in repeat(die_dist(range(1, 7), 0, False), _count(p.die)).items():
            hits[max(0, v + plus)] = hits.get(max(0, v + plus), Fraction(0)) + q
    else:
        hits = repeat(die_dist(range(1, 7), plus), p.dice_count)
    after = map_dist(hits, lambda h: scaled(h, p.fraction))
    return capped(map_dist(after, lambda n: survive(n, p.save)), p.target.figures)


def _count(die: str) -> int:
    return int(die.split("d")[0] or 1)


def old_side(s: Any) -> FDist:
    plus = sum(m.value for m in s.modifiers)
    total = repeat(die_dist(range(1, 7), plus), s.dice)
    half = map_dist(total, lambda t: scaled(t, Fraction(1, 2)))
    cas = map_dist(half, lambda n: survive(n, s.save))
    if s.halve:
        cas = map_dist(cas, lambda n: scaled(n, Fraction(1, 2)))
    return capped(cas, s.enemy.figures)


# -- face-level enumeration (the brute force) --------------------------------------------------
class FacesOnly:
    """The enumerating source with its check-level branching hidden: every die face by face."""

    kind = "enumerated"

    def __init__(self, src: Any) -> None:
        self.src = src

    def face(self, die: Any) -> int:
        return int(self.src.face(die))

    def begin_attempt(self) -> None:
        self.src.begin_attempt()

    def reject_attempt(self) -> None:
        self.src.reject_attempt()


def face_by_face(run: Any) -> FDist:
    ch = chances(lambda d: Outcome(result=str(run(FacesOnly(d)))))
    assert ch.exact
    return {int(c.result): c.p for c in ch.rows}


def duel(firer: dict[str, Any], target: dict[str, Any]) -> Any:
    return activate(make([unit("f", **firer), unit("t", "Allies", **target)]), "f")


FIRE_CASES = [
    ({"figures": 24, "front": 12}, {}, {"range": "short"}),
    ({"figures": 24, "front": 12, "grade": "A"}, {"formation": "square"}, {"range": "long"}),
    ({"figures": 30, "front": 15, "grade": "D"}, {}, {"range": "short", "cover": "soft"}),
    ({"figures": 10, "front": 10}, {"figures": 3}, {"range": "short"}),  # capped at 3
    ({"figures": 6, "formation": "skirmish"}, {}, {"range": "short"}),
    ({"figures": 6, "formation": "skirmish"}, {}, {"range": "long"}),
    ({"kind": "foot_artillery", "formation": "unlimbered", "figures": 4}, {}, {"range": "short"}),
    (
        {"kind": "foot_artillery", "formation": "unlimbered", "figures": 3},
        {},
        {"range": "canister"},
    ),
]


@pytest.mark.parametrize(("firer", "target", "req"), FIRE_CASES)
def test_fire_casualty_odds_from_its_own_dice_equal_the_previous_formula(
    firer: dict[str, Any], target: dict[str, Any], req: dict[str, Any]
) -> None:
    s = duel(firer, target)
    p = plan(s, request("fire", {"unit": "f", "target": "t", **req}))
    got = fire_casualties(s, p)
    assert got == {k: v for k, v in old_fire(p).items() if v}
    assert sum(got.values()) == 1
    # the composed stages are fire_dice's own, enumerated branch by branch
    assert got == casualty_odds(lambda d: fire_dice(p, d, "dP")[2])


MELEE_CASES = [
    ({"figures": 24, "front": 8, "advancing": True}, {"figures": 18, "front": 9}),
    ({"kind": "cavalry", "figures": 12, "front": 6}, {"kind": "cavalry", "figures": 9, "front": 9}),
    ({"kind": "heavy_cavalry", "figures": 8, "cuirassiers": True}, {"figures": 20, "front": 10}),
    ({"figures": 12, "formation": "skirmish", "front": 12}, {"figures": 16, "front": 8}),
]


@pytest.mark.parametrize(("a", "b"), MELEE_CASES)
def test_melee_casualty_odds_from_its_own_dice_equal_the_previous_formula(
    a: dict[str, Any], b: dict[str, Any]
) -> None:
    ua = unit("a", charge_state="home", charge_target="b", **a)
    s = activate(make([ua, unit("b", "Allies", **b)]), "a")
    _, sa, sb, _ = sides(s, request("melee", {"unit": "a", "target": "b", "contact": True}))
    for side in (sa, sb):
        got = side_odds(side, "dP")
        assert got == {k: v for k, v in old_side(side).items() if v}
        # the composed stages are the side's own dice, enumerated branch by branch
        assert got == casualty_odds(lambda d, side=side: _side_rolled(side, d, "", "dP")[0])


def test_the_branching_gives_what_face_by_face_enumeration_gives() -> None:
    """Small fires, every die face by face (the percentile fraction's 100 faces included)."""
    s = duel({"figures": 2, "formation": "skirmish"}, {})
    p = plan(s, request("fire", {"unit": "f", "target": "t", "range": "short"}))
    assert face_by_face(lambda d: fire_dice(p, d, "dP")[2]) == fire_casualties(s, p)
    s = duel({"figures": 5, "front": 5}, {})
    p = plan(s, request("fire", {"unit": "f", "target": "t", "range": "long"}))
    assert p.dice_count == 1 and p.fraction == Fraction(1, 4)
    assert face_by_face(lambda d: fire_dice(p, d, "dP")[2]) == fire_casualties(s, p)
    # melee's own dice are the same stages (dice, half, saves): checked against the formula


def test_the_odds_before_a_volley_are_the_enumerated_ones() -> None:
    from solonap_helpers import odds

    s = duel({"figures": 24, "front": 12}, {})
    (o, *_) = odds(s, "fire", unit="f", target="t", range="short")
    p = plan(s, request("fire", {"unit": "f", "target": "t", "range": "short"}))
    want = casualty_odds(lambda d: fire_dice(p, d, "dP")[2])
    assert {int(r.key): r.p for r in o.rows} == want


def test_a_whole_fire_has_the_same_outcomes_whether_its_checks_branch_or_its_dice_do() -> None:
    """The odds of the whole procedure name what it did, not which rolls were recorded (the
    branching records none), so they equal the face-by-face enumeration of ``fire`` itself
    (as the conformance suite checks against forced dice)."""
    from vedette.rules.solo_napoleonic.fire import fire

    s = duel({"figures": 2, "formation": "skirmish"}, {"figures": 3})
    req = request("fire", {"unit": "f", "target": "t", "range": "short"})
    branched = chances(lambda d: fire(s, req, d))
    faces = chances(lambda d: fire(s, req, FacesOnly(d)))
    assert branched.exact and faces.exact and branched.leaves < faces.leaves
    assert {c.result: c.p for c in branched.rows} == {c.result: c.p for c in faces.rows}
    assert branched.p("0 casualties on t") > 0
