"""2 by 2 'attack' sequence (issue 17): a melee or a shot with rout contagion among ** units
within [3], checked against an enumeration of every pip written here from the text (melee:
1d6 vs 1d6, draws rerolled, the loser by the difference; rout: 1d6, 1-2 destroyed; Unit
Summary **: a friendly rout within [3] routs a ** unit, which rolls too)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from tests.two_by_two.battle import Battle
from vedette.errors import BadRequest, RuleViolation
from vedette.rules import get
from vedette.rules.sequence import summary_of

#: |difference| of the melee scores -> the loser's result (2 by 2, Melee)
LOSER = {1: "pushed back", 2: "pushed back", 3: "routs", 4: "destroyed", 5: "destroyed"}


def battle() -> Battle:
    """Blue infantry A in contact with red infantry D; red militia (**) M and M3 within [3] of
    D, M2 far away."""
    units = [
        {"id": "A", "side": "blue", "type": "infantry", "x": 300, "y": 100},
        {"id": "D", "side": "red", "type": "infantry", "x": 300, "y": 112},
        {"id": "M", "side": "red", "type": "militia", "x": 350, "y": 130, "facing": 180},
        {"id": "M3", "side": "red", "type": "militia", "x": 400, "y": 150, "facing": 180},
        {"id": "M2", "side": "red", "type": "militia", "x": 550, "y": 500, "facing": 180},
    ]
    b = Battle.quick(units)
    b.until("melee", "blue")
    return b


def rout_word(face: int) -> str:
    return "destroyed" if face <= 2 else "flees"


def brute_force() -> dict[str, Fraction]:
    """Every pip: the melee (draws rerolled = conditioned away), then one rout die per routing
    unit (the loser, then the ** units of its side within [3] of it: M and M3 for D; none
    for A, whose side has no ** unit)."""
    out: dict[str, Fraction] = {}
    pairs = [(a, d) for a, d in itertools.product(range(1, 7), repeat=2) if a != d]
    for a, d in pairs:
        loser, winner = ("D", "A") if a > d else ("A", "D")
        res = LOSER.get(abs(a - d), "destroyed")
        friends = ["M", "M3"] if loser == "D" else []
        if res != "routs":
            fates = {loser: res, winner: "no effect"}
            label = f"A {fates['A']}; D {fates['D']} | routed: none"
            out[label] = out.get(label, Fraction(0)) + Fraction(1, len(pairs))
            continue
        units = [loser, *friends]
        for faces in itertools.product(range(1, 7), repeat=len(units)):
            words = {u: rout_word(f) for u, f in zip(units, faces, strict=True)}
            fates = {loser: f"routs ({words[loser]})", winner: "no effect"}
            routed = ", ".join(f"{u} {words[u]}" for u in sorted(units))
            label = f"A {fates['A']}; D {fates['D']} | routed: {routed}"
            p = Fraction(1, len(pairs)) / 6 ** len(units)
            out[label] = out.get(label, Fraction(0)) + p
    return out


def test_melee_with_contagion_equals_brute_force() -> None:
    b = battle()
    c = b.game.chances("attack", {"action": "melee", "unit": "A", "target": "D"})
    assert c.exact
    assert {r.result: r.p for r in c.rows} == brute_force()
    # each unit's chance to rout: D loses by exactly 3 (3 of the 30 pairs that are not
    # draws) and M, M3 always follow it; A likewise; M2, out of [3], never
    each = {r.result: r.p for r in summary_of(get("2x2").sequences()["attack"], c)}
    for uid in ("A", "D", "M", "M3"):
        assert each[f"{uid} routs"] == Fraction(3, 30), uid
    assert "M2 routs" not in each
    # D destroyed: it loses by 4 or more (6-1, 5-1, 6-2: 3 of 30), or routs and rolls 1-2
    assert each["D destroyed"] == Fraction(3, 30) + Fraction(3, 30) * Fraction(1, 3)
    assert each["M destroyed"] == Fraction(3, 30) * Fraction(1, 3)


def test_the_sequence_agrees_with_the_melee_alone() -> None:
    b = battle()
    whole = b.game.chances("melee", {"attacker": "A", "defender": "D"})
    seq = b.game.chances("attack", {"action": "melee", "unit": "A", "target": "D"})
    assert whole.leaves == seq.leaves  # the same dice, branch for branch
    d_routs = sum((r.p for r in seq.rows if "D routs" in r.result), Fraction(0))
    assert d_routs == sum((r.p for r in whole.rows if "defender routs" in r.result), Fraction(0))


def test_stated_contagion_and_refusals() -> None:
    b = battle()
    stated = {"contagion": []}  # the player states no ** unit within [3]
    c = b.game.chances("attack", {"action": "melee", "unit": "A", "target": "D", "stated": stated})
    assert all("M" not in r.result.split("|")[1] for r in c.rows)
    with pytest.raises(BadRequest, match="stated"):
        b.game.chances(
            "attack",
            {"action": "melee", "unit": "A", "target": "D", "stated": {"attacker": "D"}},
        )
    # a shot's chances are a query, open in any phase (here the melee phase) ...
    c = b.game.chances("attack", {"action": "shoot", "unit": "A", "target": "D"})
    assert c.exact and c.rows
    # ... but never beyond what the rules allow: M2 is out of A's range [1]
    with pytest.raises(RuleViolation, match=r"range \[1\]"):
        b.game.chances("attack", {"action": "shoot", "unit": "A", "target": "M2"})
