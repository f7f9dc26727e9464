"""Kuryakin's text as acceptance cases (seed 004), session 20, helper K13: the staff before the
control roll (reading K92); every move the rules make stops at contact with an enemy, as a
player's move does (reading K89). Each case is played through the public API (``Game.create``
/ ``perform`` / ``todo`` / ``is_legal``) with forced dice."""

from __future__ import annotations

from pathlib import Path

import pytest

from vedette import rules
from vedette.engine import Game, Store
from vedette.errors import RuleViolation


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
