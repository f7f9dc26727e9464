"""2 by 2 Napoleonics: the table-top geometry at 10, 100 and 500 units (issue 13).

Units stand in a grid on a table sized to hold them (two armies facing each other); one blue
infantry unit is in base contact with a red one in the middle. Timed, per call: ``facts`` (the
geometric facts between the two), ``check_move`` (a [3] move with its terrain, contacts and
counter-charge reach) and a ``melee`` (judge, modifiers, roll, results). Each figure is the
median of several runs; the ratio 500 vs 10 shows how the work grows with the army (the
target: a melee at 500 units within 3x the time at 10).

Run: ``python bench/bench_2x2.py`` (prints numbers and ratios; not a test).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import interleaved, load
from vedette.dice import ScriptedSource
from vedette.rules.two_by_two import RULESET
from vedette.rules.two_by_two.model import GameState

SIZES = (10, 100, 500)
N = 19.05


def build(n: int) -> GameState:
    per_side = n // 2
    cols = max(2, math.ceil(math.sqrt(per_side)))
    rows = math.ceil(per_side / cols)
    width = cols * 60.0 + 120
    depth = 2 * rows * 40.0 + 400
    units: list[dict[str, Any]] = []
    kinds = ("infantry", "light_cavalry", "foot_artillery", "militia", "guard")
    for side, y0, dy, facing in (("blue", 30.0, 40.0, 0.0), ("red", depth - 30.0, -40.0, 180.0)):
        for i in range(per_side):
            c, r = i % cols, i // cols
            units.append(
                {
                    "id": f"{side[0].upper()}{i}",
                    "side": side,
                    "type": kinds[i % len(kinds)],
                    "x": 60.0 + c * 60.0,
                    "y": y0 + r * dy,
                    "facing": facing,
                }
            )
    mid = width / 2
    units.append({"id": "BX", "side": "blue", "type": "infantry", "x": mid, "y": depth / 2})
    units[-1]["facing"] = 0.0
    units.append(
        {
            "id": "RX",
            "side": "red",
            "type": "infantry",
            "x": mid,
            "y": depth / 2 + 12,
            "facing": 180,
        }
    )
    terrain = [
        {"kind": "woods", "name": "wood", "area": [[10, 200], [50, 200], [50, 260], [10, 260]]},
        {"kind": "stream", "name": "brook", "line": [[0, depth / 2 - 40], [width, depth / 2 - 40]]},
    ]
    scn = {
        "title": f"bench {n}",
        "start": "battle",
        "attacker": "red",
        "table": {"width": width, "depth": depth},
        "sides": [
            {"id": "blue", "name": "Blue", "edge": "south"},
            {"id": "red", "name": "Red", "edge": "north"},
        ],
        "units": units,
        "terrain": terrain,
    }
    return RULESET.initial_state(scn, {})


PROCS = RULESET.protocol_procedures()


def call(name: str, state: GameState, req: dict[str, Any], dice: Any = None) -> Any:
    """As the engine does it: parse, plan (the rules' checks), resolve."""
    p = PROCS[name]
    return p.resolve(state, p.plan(state, p.parse(req)), dice)


def main() -> None:
    fns: dict[str, Callable[[], Any]] = {}
    for n in SIZES:
        s = build(n)
        melee_state = replace(s, phase_index=3)  # player 1 (blue) resolves melees
        fns[f"facts {n}"] = lambda s=s: call("facts", s, {"unit": "BX", "target": "RX"})
        fns[f"check_move {n}"] = lambda s=s: call(
            "check_move", s, {"unit": "B0", "path": [[60, 30], [60, 30 + 3 * N]]}
        )
        melee_state.unit("BX")  # its index, as the action before it left it
        fns[f"melee* {n}"] = lambda m=melee_state: call(
            "melee",
            m.with_unit("B0", moved=not m.unit("B0").moved),
            {"attacker": "BX", "defender": "RX"},
            ScriptedSource([6, 1]),
        )
        fns[f"melee {n}"] = lambda m=melee_state: call(
            "melee", m, {"attacker": "BX", "defender": "RX"}, ScriptedSource([6, 1])
        )
    # the same melee, the same dice: the same result at every size
    assert len({fns[f"melee {n}"]().message for n in SIZES}) == 1
    t = interleaved(fns, repeat=7)  # every size of every call in turn, round after round
    results: dict[str, dict[int, float]] = {}
    for key, v in t.items():
        name, n = key.rsplit(" ", 1)
        results.setdefault(name, {})[int(n)] = v
    print(f"best per call, sizes interleaved ({load()})")
    print("melee*: on a new state each time, folded from the last (one unit changed), as in play")
    print(f"{'':<11}" + "".join(f"{n:>10} units" for n in SIZES) + "   500 vs 10")
    for name, row in results.items():
        cells = "".join(f"{row[n] * 1000:>13.3f} ms" for n in SIZES)
        print(f"{name:<11}{cells}   {row[SIZES[-1]] / row[SIZES[0]]:6.2f}x")


if __name__ == "__main__":
    main()
