"""An owed step is listed once, owed (``todo`` through the Game): a failed morale test's rout
or retirement, owed at once (Kuryakin, Morale: "applying any results immediately"), and a
charged unit's defensive fire (Kuryakin, Charge) were listed a second time as the unit's own
move or fire on its card: two lines in the Next panel and the CLI for one step."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from solonap_helpers import unit

from vedette.engine import Game, Store

SIDES = ["French", "Allies"]


def game(units: Sequence[Mapping[str, Any]], cards: Mapping[str, int]) -> Game:
    scen = {"title": "owed once", "sides": SIDES, "units": list(units), "generals": []}
    g = Game.create(Store(":memory:"), "g", "solonap", scen, seed=11)
    g.perform("control", {})
    g.perform("deal", {"cards": dict(cards), "chance": {}})
    g.perform("next", {})
    return g


def lines(g: Game, unit_id: str) -> list[tuple[str, bool]]:
    return [(t.command(), t.owed) for t in g.todo() if t.request.get("unit") == unit_id]


@pytest.mark.parametrize(
    ("faces", "result", "mode"), [((70, 1), "routs", "rout"), ((70, 5), "retires half", "retire")]
)
def test_a_morale_results_move_is_listed_once_owed(
    faces: tuple[int, int], result: str, mode: str
) -> None:
    """F1, retiring and bound to rally, fails its morale test on its own card: the result's
    move is owed at once, and it is the only line for F1 (not again as "F1 runs" or "F1
    carries out its retirement", the same move)."""
    f1 = unit("F1", front=5, x=500, y=400, facing=0)
    f1.update(morale_due=True, must_rally=True, status="retiring")
    a1 = unit("A1", "Allies", front=5, x=500, y=700, facing=180)
    g = game([f1, a1], {"F1": 1, "A1": 2})
    out = g.perform("morale", {"unit": "F1"}, list(faces))
    assert result in out.message
    assert lines(g, "F1") == [(f"move unit=F1 mode={mode}", True)]
    g.perform("move", {"unit": "F1", "mode": mode})  # (the one line, as listed)
    assert not [t for t in g.todo() if t.owed]


def test_defensive_fire_is_listed_once_owed() -> None:
    """F1 charges A1, which jumps the queue and passes its test: its defensive fire at F1 is
    owed, and listed once (not again as "A1 fires at F1")."""
    g = game(
        [unit("F1", front=5), unit("F2", front=5), unit("A1", "Allies", front=5)],
        {"F1": 1, "F2": 2, "A1": 3},
    )
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 10])
    g.perform("next", {})
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [10])
    assert lines(g, "A1") == [("fire unit=A1 target=F1", True)]
