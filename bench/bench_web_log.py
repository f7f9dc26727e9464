"""Web benchmark (issue 15): page load and an action on a 5,000-event game against the same
on a new game, measured in the same run (in-process ASGI client, interleaved batches).

The long game is Napoleon At Bay played for 2,500 turns' phases (end movement / end combat),
with a fixing rolled and undone every 50 events so the log holds rolls and undos. The action is
one phase step with ``since`` (the answer carries only what changed). Target: within 2x.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import disk_dir, interleaved, quick
from bench.timing import load as machine_load
from vedette import rules
from vedette.engine import Game, Store
from vedette.web.app import create_app

EVENTS = quick(5_000, 500)


def long_game(store: Store) -> Game:
    mem = Store(":memory:")
    scen = rules.get("napoleon_at_bay").scenario("example1")
    g = Game.create(mem, "long", "napoleon_at_bay", scen, seed=1)
    while len(g.records) < EVENTS:
        if len(g.records) % 50 == 1 and g.state.phasing == "Fr":
            g.perform("move", {"force": "F1", "to": "W2020"})
            g.perform("fix", {"moving": "F1", "contact": "R1"})
            g.undo()
            g.undo()
        g.perform("end_movement", {})
        g.perform("end_combat", {})
    return Game.import_jsonl(store, g.export_jsonl(), "long")


def main() -> None:
    db = Path(tempfile.mkdtemp(dir=disk_dir())) / "bench.db"
    st = Store(db)
    long_ = long_game(st)
    Game.create(st, "new", "napoleon_at_bay", rules.get("nab").scenario("example1"), seed=1)
    c = TestClient(create_app(db), base_url="http://localhost")
    page = c.get("/").text
    h = {"X-CSRF-Token": page.split('name="csrf-token" content="')[1].split('"')[0]}

    def load(name: str) -> str:
        r = c.get(f"/games/{name}")
        assert r.status_code == 200
        return r.text

    def action(name: str) -> list[int]:
        """One phase step and back (so the game stays at the same place), with since."""
        seqs = []
        for proc in ("end_movement", "end_combat"):
            seq = c.get(f"/api/games/{name}/log?limit=1").json()["entries"][0]["seq"]
            r = c.post(
                f"/api/games/{name}/perform",
                json={"procedure": proc, "request": {}, "since": seq},
                headers=h,
            )
            assert r.status_code == 200, r.text
            seqs.append(len(r.json()["log"]))
        return seqs

    # both sides compute the same answer: a page with the same panels, one new entry per step
    a, b = load("new"), load("long")
    assert 'id="next"' in a and 'id="next"' in b and a.count("<li") == b.count("<li")
    assert action("new") == action("long") == [1, 1]
    print(f"long game: {len(long_.records)} events; page sizes {len(a)} vs {len(b)} bytes")
    t = interleaved(
        {
            "page new": lambda: load("new"),
            "page long": lambda: load("long"),
            "action new": lambda: action("new"),
            "action long": lambda: action("long"),
        },
        repeat=7,
        min_time=0.05,
    )
    for what in ("page", "action"):
        new, old = t[f"{what} new"], t[f"{what} long"]
        print(
            f"{what:6s}: new game {new * 1000:7.2f} ms, {EVENTS}-event game {old * 1000:7.2f} ms"
            f"  ratio {old / new:.2f}x (target <= 2x)"
        )
    print(f"({machine_load()})")


if __name__ == "__main__":
    main()
