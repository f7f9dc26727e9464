"""``vedette demo``: play Herman's example on the bundled sample scenario.

Opens the store (``--db`` or the default), creates a new game ``nab-sample-N`` from the sample
scenario, moves the French infantry from Vilnius into the ZOC of the Russian vedette in
Asmjany, shows the exact odds, fixes the vedette's location with the game's seeded dice, and
prints the lines (or JSON) and the map. Offline and fast.
"""

from __future__ import annotations

import json
from typing import Any

from vedette import rules
from vedette.engine import Game, Store

RULESET = "napoleon_at_bay"


def next_name(store: Store, prefix: str = "nab-sample-") -> str:
    taken = {g.name for g in store.games()}
    n = 1
    while f"{prefix}{n}" in taken:
        n += 1
    return f"{prefix}{n}"


def play(store: Store, seed: int | None = None) -> dict[str, Any]:
    """Create and play the sample game; returns what was shown (lines and JSON)."""
    rs = rules.get(RULESET)
    name = next_name(store)
    g = Game.create(store, name, RULESET, rs.scenario("sample"), seed)
    lines = [f"new {rs.name} game {g.name!r} (seed {g.seed}): {rs.title}", ""]
    steps: list[dict[str, Any]] = []

    mv = g.perform("move", {"force": "F1", "to": "W2020"})
    lines += mv.lines()
    steps.append({"procedure": "move", **mv.to_json()})

    req = {"moving": "F1", "contact": "R1"}
    odds = g.odds("fix", req)
    lines.append("")
    lines.append("odds before the 'fixing' roll (Herman 3):")
    lines += [ln for o in odds for ln in o.lines()]
    steps.append({"procedure": "fix --odds", "odds": [o.to_json() for o in odds]})

    fix = g.perform("fix", req)
    lines.append("")
    lines += fix.lines()
    steps.append({"procedure": "fix", **fix.to_json()})

    end = g.perform("end_movement", {})
    lines += end.lines()
    steps.append({"procedure": "end_movement", **end.to_json()})
    lines.append("")
    lines.append(g.render())
    return {
        "game": g.name,
        "seed": g.seed,
        "lines": lines,
        "steps": steps,
        "map": g.render(),
        "state": rs.state_json(g.state),
    }


def run_demo(db: str, as_json: bool = False, seed: int | None = None) -> None:
    """Play the example into the database ``db`` and print it (``vedette demo``)."""
    from pathlib import Path

    Path(db).parent.mkdir(parents=True, exist_ok=True)
    with Store(db) as st:
        res = play(st, seed)
    if as_json:
        print(json.dumps({k: v for k, v in res.items() if k != "lines"}, indent=2, default=str))
    else:
        print("\n".join(res["lines"]))
