"""Kuryakin's text as acceptance cases (seed 004), session 20, helper K13: the staff before the
control roll (reading K92); every move the rules make stops at contact with an enemy, as a
player's move does (reading K89). Each case is played through the public API (``Game.create``
/ ``perform`` / ``todo`` / ``is_legal``) with forced dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.solo_napoleonic.test_solonap_text_3 import TIMID, cavalry, ready, skirmishers, unit
from vedette import rules
from vedette.engine import Game, Store
from vedette.errors import RuleViolation
from vedette.rules.solo_napoleonic import geom


# == reading K92: the control roll waits for the whole staff =====================================
def test_the_control_roll_waits_for_every_general_to_be_rated(tmp_path: Path) -> None:
    """Generals: "Each commander has three ratings"; the divisional and corps commanders'
    modifiers "are taken from the D8 roll" when within 300mm of the brigadier. ``control`` was
    accepted past todo's staff step while Dessaix (a divisional general 225mm from Morand) was
    unrated: he counted as a Poor senior, modifier 0. Reading K92: the roll is refused, naming
    the general and the rule, until the staff is rated (what todo owes first)."""
    rs = rules.get("solo_napoleonic")
    g = Game.create(Store(tmp_path / "g.db"), "g", rs.name, rs.scenario("sample"), 5)
    for gid in ("Morand", "Colbert", "Hohenfeld", "Bianchi"):
        g.perform("staff", {"general": gid})
    verdict = g.is_legal("control", {})
    assert not verdict.ok and "Dessaix not rated yet" in verdict.reason
    assert "Kuryakin, Generals" in verdict.reason and "K92" in verdict.reason
    at = g.position
    with pytest.raises(RuleViolation, match="Dessaix not rated yet"):
        g.perform("control", {})
    assert g.position == at and g.state.phase == "control"
    assert [t.procedure for t in g.todo()] == ["staff"]  # owed first, control not offered
    g.perform("staff", {"general": "Dessaix", "th": "average", "av": "normal", "grade": "good"})
    out = g.perform("control", {})
    assert g.state.phase == "cards"
    morand = next(r for r in out.rolls if "Morand" in r.label)
    assert [(m.value, "Dessaix" in m.reason) for m in morand.modifiers] == [(2, True)]  # Good


# == reading K89: the moves the rules make stop at contact with an enemy too ======================
def _owed(g: Game) -> list[tuple[str, dict[str, Any]]]:
    return [(t.procedure, dict(t.request)) for t in g.todo() if t.owed]


def test_a_timid_cos_retirement_stops_at_contact_with_an_enemy_behind(tmp_path: Path) -> None:
    """Charge Home Test: infantry who fail "retire 100mm" when their CO is Timid. F1, in
    contact with A1 at y=30, fell back 100mm straight through A2 of the enemy behind it, for a
    collision's chits. Reading K89, as for any move: it stops where it first touches A2, no
    collision owed. A unit of its own side there is still run into (Disorder: "Each collision
    D3 D's per unit involved"): F1 falls back to y=-70, the collision owed."""
    for behind in (
        unit("A2", "Allies", x=500.0, y=-80.0, facing=0.0),
        unit("F2", x=500.0, y=-80.0),
    ):
        units = [unit("F1", x=500.0, y=0.0), behind, unit("A1", "Allies", x=500.0, y=60.0)]
        g = ready(tmp_path / behind["id"], units, gens=TIMID)
        g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
        g.perform("next", {})
        g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [0])
        g.perform("fire", {"unit": "A1", "target": "F1", "hold": True})
        g.perform("close", {"unit": "F1"})
        out = g.perform("charge_home", {"unit": "F1"}, [99])
        f1 = g.state.unit("F1")
        if behind["side"] == "Allies":
            assert (f1.x, f1.y) == (500.0, -50.0) and f1.collided == ()
            assert "F1 stops at contact with A2" in out.message and "K89" in out.message
            assert "collides" not in out.message and _owed(g) == []
            assert geom.unit_distance(f1, g.state.unit("A2")) < 0.5
        else:
            assert f1.y == pytest.approx(30.0 - 100.0, abs=0.5)  # from contact
            collided = ("disorder", {"cause": "collision", "units": ["F1", "F2"]})
            assert "F1 collides with F2" in out.message and _owed(g) == [collided]


def test_skirmishers_evading_stop_at_contact_with_an_enemy(tmp_path: Path) -> None:
    """Cavalry vs. Infantry: skirmishers charged by cavalry "will evade D20cm". A1's 150mm
    evasion ran on into F2 of the enemy behind it, for a collision's chits. Reading K89: it
    stops where it first touches F2 (y=450), no collision owed; under the house rule that has a
    side's skirmishers collide with its own units, a friend there is still run into."""
    units = [
        cavalry("F1", x=500.0, y=0.0, width=90.0),
        skirmishers("A1", x=500.0, y=330.0),
        unit("F2", x=500.0, y=480.0),
    ]
    g = ready(tmp_path / "a", units)
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    g.perform("next", {})
    out = g.perform("evade", {"unit": "A1"}, [15])
    a1 = g.state.unit("A1")
    assert (a1.x, a1.y) == (500.0, 450.0) and a1.figures == 8 and a1.collided == ()
    assert "A1 stops at contact with F2" in out.message and "collides" not in out.message
    assert _owed(g) == []
    # the same ground held by A1's own side, skirmishers colliding by the house rule: run into
    units[2] = unit("A2", "Allies", x=500.0, y=480.0)
    house = {"options": {"friendly_skirmishers_collide": True}}
    g = ready(tmp_path / "b", units, house=house)
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    g.perform("next", {})
    out = g.perform("evade", {"unit": "A1"}, [15])
    assert g.state.unit("A1").y == 480.0 and "A1 collides with A2" in out.message
    collided = ("disorder", {"cause": "collision", "units": ["A1", "A2"]})
    assert _owed(g) == [collided]
    g.perform(*collided, [3, 2])
    assert (g.state.unit("A1").disorder, g.state.unit("A2").disorder) == (0, 2)


def test_a_charger_moving_up_stops_at_an_enemy_come_into_its_way(tmp_path: Path) -> None:
    """Charge Test: "the attacker moves up to the target"; "units who charge do so in a
    straight line" (a unit in the way bars the charge when declared, reading K68). A1 failed
    the test F1's charge forced and retired 140mm through A2, its own side's, to stand behind
    it; F1 then moved up through A2 (a collision's chits) into contact with A1 and went on to
    charge home. Reading K89: the move up stops where it first touches A2, and the charge on A1
    ends there (no charge home, no melee: A2 was never charged). So too when F1 moved up first
    and A1 retired after: the charge home's move into contact stops at A2 and the charge ends
    (it went through A2 and fought A1)."""
    units = [
        unit("F1", x=1000.0, y=0.0, grade="B"),
        unit("A1", "Allies", x=1000.0, y=40.0, grade="B"),
        unit("A2", "Allies", x=1000.0, y=110.0, width=40.0, depth=20.0),
    ]
    g = ready(tmp_path, units)
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    g.perform("next", {})
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [99, 4])  # retires a full move
    g.perform("move", {"unit": "A1", "mode": "retire"}, [-1, 2])  # 140mm, through A2
    g.perform("disorder", {"cause": "collision", "units": ["A1", "A2"]}, [1, 1])
    assert g.state.unit("A1").y == 180.0 and _owed(g) == [("close", {"unit": "F1"})]
    out = g.perform("close", {"unit": "F1"})
    f1 = g.state.unit("F1")
    assert (f1.y, f1.moved_mm, f1.collided) == (85.0, 85.0, ())
    assert "F1 stops at contact with A2" in out.message and "K89" in out.message
    assert f1.charge_step is None and f1.charge_state == "done" and _owed(g) == []
    assert not out.details["melee"] and not g.is_legal("charge_home", {"unit": "F1"}).ok
    assert not g.is_legal("melee", {"unit": "F1", "target": "A1"}).ok
    # F1 closes first (10mm), then A1 retires behind A2: the charge home's move stops at A2
    g = ready(tmp_path / "b", units)
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    g.perform("next", {})
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [99, 4])
    g.perform("close", {"unit": "F1"})
    g.perform("move", {"unit": "A1", "mode": "retire"}, [-1, 2])
    g.perform("disorder", {"cause": "collision", "units": ["A1", "A2"]}, [1, 1])
    assert _owed(g) == [("charge_home", {"unit": "F1"})]  # (no test: A1 failed, F1 unhurt)
    out = g.perform("charge_home", {"unit": "F1"})
    f1 = g.state.unit("F1")
    assert (f1.y, f1.moved_mm, f1.collided) == (85.0, 85.0, ())
    assert "F1 stops at contact with A2" in out.message and not out.details["home"]
    assert f1.charge_step is None and f1.charge_state == "done" and _owed(g) == []
    assert not g.is_legal("melee", {"unit": "F1", "target": "A1"}).ok
