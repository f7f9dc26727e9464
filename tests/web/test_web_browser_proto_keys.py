"""Session 19 (helper X): a counter tapped on the board looks up its own reports (A3's
``counters``, keyed by the counter's id) in a plain object; an id a scenario names like one of
an object's own properties (``toString``, ``constructor``) found the property, a function, and
the tap threw ("items.slice is not a function"): the tap filled nothing. The lookup now reads
the page's own keys only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from vedette import rules
from vedette.engine import Game, Store


@pytest.mark.parametrize("uid", ["toString", "constructor", "__proto__"])
def test_a_unit_named_like_an_objects_property_taps_cleanly(
    page: Any, live_server: str, live_db: Path, uid: str
) -> None:
    scn = json.loads(
        json.dumps(rules.get("solonap").scenario("sample")).replace('"F4"', f'"{uid}"')
    )
    name = f"proto-{uid.strip('_')}"
    Game.create(Store(live_db), name, "solonap", scn, seed=1)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{live_server}/games/{name}")
    page.wait_for_selector("#board svg")
    page.locator(f'#board [data-pick="{uid}"] :is(polygon, rect, path)').first.click()
    page.wait_for_timeout(100)  # (a thrown handler reports asynchronously)
    assert errors == []
    assert page.locator("#next li.counter").count() == 0  # (no reports of its own)
