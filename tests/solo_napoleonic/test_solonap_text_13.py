"""Kuryakin's text as acceptance cases (seed 004), session 20, helper K14: the charge home's move
into contact is the charger's move too (reading K88 carried on). Played through the public API
(``Game.create`` / ``perform`` / ``todo`` / ``is_legal``) with forced dice."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

from tests.solo_napoleonic.test_solonap_text_3 import SIDES, cavalry, gen, ready, unit
from tests.solo_napoleonic.test_solonap_text_10 import MELEE
from vedette.engine import Game, Store


def _owed(g: Game) -> list[tuple[str, dict[str, Any]]]:
    return [(t.procedure, dict(t.request)) for t in g.todo() if t.owed]


def _closed_before_the_retirement(tmp_path: Path, y: float) -> Game:
    """F1 charges A1 (``y`` mm off); A1 fails the test it forced and owes its retirement; F1
    moves up first (todo offers both), then A1 retires 140mm."""
    g = ready(tmp_path, [unit("F1", x=1000.0, y=0.0, grade="B"),
                         unit("A1", "Allies", x=1000.0, y=y, grade="B")])  # fmt: skip
    for procedure, request, dice in MELEE[:3]:
        g.perform(procedure, request, dice or None)
    assert ("close", {"unit": "F1"}) in _owed(g)
    g.perform("close", {"unit": "F1"})
    g.perform("move", {"unit": "A1", "mode": "retire"}, [-1, 2])
    return g


def test_a_charger_does_not_charge_home_beyond_its_move(tmp_path: Path) -> None:
    """Charge Test: "the attacker moves up to the target", its reach its move (readings K50,
    K88). F1 moved up 90mm to A1; A1 then carried out its retirement (140mm) and F1's charge
    home, needing no test, followed it 140mm into contact: 230mm on a 150mm move. Reading K88
    holds for that move too: F1 goes the 60mm left straight at A1 and the charge ends (no test,
    no melee); a target still within what is left is followed into contact and fought."""
    g = _closed_before_the_retirement(tmp_path / "a", 120.0)
    assert g.state.unit("F1").moved_mm == 90.0 and g.state.unit("A1").y == 260.0
    assert _owed(g) == [("charge_home", {"unit": "F1"})]
    out = g.perform("charge_home", {"unit": "F1"})
    f = g.state.unit("F1")
    assert f.y == 150.0 and f.moved_mm == 150.0 and "beyond its reach" in out.message
    assert "K88" in out.message and f.charge_step is None and f.charge_state == "done"
    assert out.rolls == () and _owed(g) == []
    assert not g.is_legal("melee", {"unit": "F1", "target": "A1"}).ok
    # 40mm off: F1 moves up 10mm, A1 retires to 180mm: 140mm more, within the 140mm left
    g = _closed_before_the_retirement(tmp_path / "b", 40.0)
    g.perform("charge_home", {"unit": "F1"})
    f = g.state.unit("F1")
    assert f.y == 150.0 and f.charge_step == "melee" and f.charge_state == "home"
    assert _owed(g) == [("melee", {"unit": "F1", "target": "A1"})]


# == the sequence's odds play the steps the referee plays ==========================================
def _cavalry_duel(tmp_path: Path, y: float, seed: int) -> Game:
    """Cavalry F1 (advancing, its card up) and cavalry A1 ``y`` mm ahead, placed; the
    brigadiers far off, so each unit has its own card."""
    scen = {"title": "duel", "sides": SIDES, "generals": [gen("FB", x=0.0, y=0.0),
            gen("AB", "Allies", x=0.0, y=900.0)],
            "units": [cavalry("F1", x=1000.0, y=0.0, advancing=True),
                      cavalry("A1", "Allies", x=1000.0, y=y)]}  # fmt: skip
    g = Game.create(Store(tmp_path / f"g{seed}.db"), "g", "solonap", scen, seed=seed)
    g.perform("control", {}, [1, 1])
    g.perform("deal", {"cards": {"F1": 1, "A1": 2}, "chance": {}})
    g.perform("next", {})
    return g


def _fate(status: str) -> str:
    words = {"routing": "routs", "retiring": "retires in disorder"}
    return words.get(status, "fails morale and halts")


def _played(g: Game) -> str:
    """The charge F1 on A1 played from todo (its owed steps in todo's order, the seeded dice;
    'next' when the target's jumped card must come) up to the melee, told in the sequence's
    words from what the play did."""
    g.perform("charge", {"unit": "F1", "target": "A1"})
    if g.state.unit("F1").charge_step is None:
        return "F1 will not charge A1"
    parts: list[str] = []
    while g.state.unit("F1").charge_step not in (None, "melee"):
        owed = [t for t in g.todo() if t.owed]
        if not owed:
            g.perform("next", {})
            continue
        step = g.state.unit("F1").charge_step
        out = g.perform(owed[0].procedure, dict(owed[0].request))
        a1, f1 = g.state.unit("A1"), g.state.unit("F1")
        if owed[0].procedure == "morale":
            failed = a1.morale_failed
            parts.append(f"A1 {_fate(a1.status)} before contact" if failed else "A1 holds")
        elif out.details.get("short") == "K88":
            parts.append("A1 beyond F1's move: the charge ends short")
        elif step == "close" and f1.charge_step is None:
            parts.append("F1 takes the ground")
        elif step == "home":
            home = f1.charge_step == "melee"
            parts.append("charge goes home" if home else "F1 fails to charge home")
    return "F1 charges A1: " + "; ".join(parts)


def test_the_charge_odds_are_those_of_playing_the_charge(tmp_path: Path) -> None:
    """Issues 17/29: the exact odds of a multi-roll procedure come from the same steps that
    roll. The sequence 'charge_to_melee' did not play the target's owed retirement: cavalry A1,
    200mm off, that failed the test F1's charge forced and retired a full move was still
    reached and charged home ("A1 retires in disorder before contact; charge goes home"),
    though play from todo moved A1 away first and F1 then fell short of it (reading K88). Now
    the sequence plays the retirement (or the rout) where todo owes it and names the short
    ending; its end states (exact, to the charge home test) are the ones 160 seeded plays of
    the charge from todo reach, each about as often as its odds say."""
    g = _cavalry_duel(tmp_path, 200.0, 0)
    c = g.chances("charge_to_melee", {"unit": "F1", "target": "A1", "until": "home"})
    assert c.exact
    odds = {r.result: r.p for r in c.rows}
    far = "A1 retires in disorder before contact; A1 beyond F1's move: the charge ends short"
    assert odds[f"F1 charges A1: {far}"] > 0
    assert "F1 charges A1: A1 retires in disorder before contact; charge goes home" not in odds
    n = 160
    seen = Counter(_played(_cavalry_duel(tmp_path, 200.0, seed)) for seed in range(1, n + 1))
    assert set(seen) <= set(odds), set(seen) - set(odds)
    for label, p in odds.items():
        sd = math.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(seen[label] / n - float(p)) <= 4 * sd + 1 / n, (label, seen[label], p)
        if p >= Fraction(3, 100):
            assert seen[label], label
