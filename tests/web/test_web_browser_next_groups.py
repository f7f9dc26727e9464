"""The phone's Next list groups a unit's entries under its first (W7: "IR 49 Hiller may wheel
left", then short buttons "may turn left", ...). The group is the unit the request names, not only
the words before " may ": two units whose names themselves hold " may " are two groups."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from vedette import rules
from vedette.engine import Game, Store

HEADS = """() => [...document.querySelectorAll('#next li')]
  .filter((li) => li.textContent.includes('Garde may '))
  .map((li) => li.classList.contains('same'))"""


def test_two_units_named_with_may_are_two_groups(
    page: Any, live_server: str, live_db: Path
) -> None:
    scn = rules.get("two_by_two").scenario("sample")
    st = Store(live_db)
    probe = Game.create(st, "probe", "two_by_two", scn, seed=1)
    listed = [t.request.get("unit") for t in probe.ruleset.todo(probe.state)]
    a, b = list(dict.fromkeys(u for u in listed if u))[:2]  # the list's first two units
    for u in scn["units"]:
        if u["id"] in (a, b):
            u["name"] = "Garde may A" if u["id"] == a else "Garde may B"
    Game.create(st, "groups", "two_by_two", scn, seed=1)
    page.goto(f"{live_server}/games/groups")
    page.wait_for_selector("#next li.same")
    same = page.evaluate(HEADS)
    assert same.count(False) == 2, same  # one head a unit, however its name reads
    assert same.count(True) >= 2  # (and each unit's later entries under it)
