"""Issue 23: results that bind, generals that go with their men, disorder counted once. Each
test reproduces a situation seen in play, with forced dice, and asserts the text's result."""

from __future__ import annotations

from typing import Any

import pytest
from solonap_helpers import activate, general, make, run, unit

from vedette.errors import RuleViolation
from vedette.rules.solo_napoleonic import RULESET as R


def _todo(state: Any) -> list[Any]:
    return list(R.todo(state))


# -- 1. attached generals go with their unit; an unattached one rides ---------------------------
def test_attached_general_goes_with_his_unit_and_keeps_it_in_command() -> None:
    """Kuryakin, Firing: "Attached general officers MUST be in the front rank"; Generals: a
    unit beyond 150mm of its brigadier is out of command. Colbert rides with F5: after F5's
    move he is at F5's position, and at the next control phase F5 is in command."""
    s = make(
        [
            unit(
                "F5",
                kind="light_cavalry",
                formation="mounted",
                front=6,
                figures=12,
                brigade="Colbert",
                x=1300.0,
                y=400.0,
                facing=0.0,
            )
        ],
        [general("Colbert", th="average", av="normal", cr=6, x=1300.0, y=300.0)],
    )
    s, _ = run(s, "attach", general="Colbert", unit="F5")
    assert (s.general("Colbert").x, s.general("Colbert").y) == (1300.0, 400.0)
    s = activate(s, "F5")
    # full move 400mm, random movement dK12 face 0 (normal TH): +0; swerve d6 3: straight on
    s, out = run(s, "move", [0, 3], unit="F5", mode="move")
    f5, colbert = s.unit("F5"), s.general("Colbert")
    assert f5.y == 800.0 and (colbert.x, colbert.y) == (f5.x, f5.y)
    s, _ = run(s, "end_turn", force=True)
    s, out = run(s, "control", [1])  # Colbert passes his control roll
    assert s.unit("F5").in_command, out.message


def test_unattached_general_rides_toward_his_units_when_command_would_lapse() -> None:
    """An unattached brigadier whose unit on the active card is beyond his 150mm control
    range is offered a ride toward it (todo), up to his move (data: 600mm), once a turn."""
    s = make(
        [unit("F1", brigade="Morand", x=800.0, y=1200.0, facing=0.0)],
        [general("Morand", th="average", av="normal", cr=6, x=800.0, y=300.0)],
    )
    s = activate(s, "F1")
    (ride,) = [t for t in _todo(s) if t.procedure == "general"]
    assert ride.open == {"to": ("F1",)} and "command would lapse" in ride.text
    s, out = run(s, "general", general="Morand", to="F1")
    g = s.general("Morand")
    assert (g.x, g.y) == (800.0, 900.0) and g.moved_mm == 600.0, out.message
    with pytest.raises(RuleViolation, match="made his move"):
        run(s, "general", general="Morand", to="F1")
    s2, _ = run(s, "attach", general="Morand", unit="F1")
    with pytest.raises(RuleViolation, match="attached to F1"):
        run(s2, "general", general="Morand", x=800.0, y=850.0)
    s, _ = run(s, "end_turn", force=True)
    assert s.general("Morand").moved_mm == 0.0  # his move comes back next turn
