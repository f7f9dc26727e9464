"""ASL's events are the core's patch event of several entities (issue 28): one step is one
event, its previous values recorded and checked on import; release 0.2's ``Changes`` are
upgraded (``upgrade_v2``) into the same changes with nothing recorded as ``was``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from vedette import rules
from vedette.engine import Game, Store
from vedette.engine.referee import resign
from vedette.errors import VedetteError
from vedette.rules.patch import NOT_RECORDED
from vedette.rules.solitaire_asl.events import BY_KIND

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "events_v0_2" / "solitaire_asl.jsonl"


def _played(seed: int = 4, steps: int = 60) -> Game:
    rs = rules.get("solitaire_asl")
    g = Game.create(Store(":memory:"), "g", rs.name, rs.scenario("sample"), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        todo = g.todo()
        t = rng.choice([t for t in todo if t.owed] or todo)
        req = dict(t.request)
        for k, cs in t.open.items():
            req[k] = rng.choice(list(cs))
        g.perform(t.procedure, req)
    return g


def _changes(g: Game) -> list[dict]:
    return [
        c
        for r in g.records
        if r.kind == "action"
        for e in r.payload["events"]
        for c in e["data"]["patches"]
    ]


def test_a_new_games_steps_carry_previous_values_through_export_and_import() -> None:
    g = _played()
    changes = _changes(g)
    hows = {
        (c["entity"], next(h for h in ("set", "add", "put", "remove") if h in c)) for c in changes
    }
    assert {("stack", "put"), ("count", "add"), ("game", "set")} <= hows
    assert changes and all("was" in c for c in changes)
    again = Game.import_jsonl(Store(":memory:"), g.export_jsonl(), "again")
    assert again.state == g.state
    assert again.export_jsonl().splitlines()[1:] == g.export_jsonl().splitlines()[1:]


def test_a_forged_previous_value_is_refused_on_import() -> None:
    g = _played()
    lines = g.export_jsonl().splitlines()
    for i, line in enumerate(lines[1:], 1):
        rec = json.loads(line)
        hit = [
            c
            for e in rec.get("payload", {}).get("events", [])
            for c in e["data"].get("patches", [])
            if c.get("entity") == "stack" and c.get("was")
        ]
        if hit:
            hit[0]["was"]["location"] = "9Z9"
            lines[i] = json.dumps(rec)
            break
    else:
        pytest.fail("no stack was put in over another")
    with pytest.raises(VedetteError, match=r"events: event \d+ differs") as e:
        Game.import_jsonl(Store(":memory:"), resign("\n".join(lines)), "forged")
    assert "\n" not in str(e.value)


def test_a_release_0_2_step_is_one_event_of_the_same_changes_with_nothing_recorded() -> None:
    lines = FIX.read_text(encoding="utf-8").splitlines()[1:]
    shifts = [
        e
        for line in lines
        for e in json.loads(line).get("payload", {}).get("events", [])
        if e["kind"] == "shift" and e["data"]["count"] and e["data"]["put_forts"]
    ]
    old = shifts[0]
    assert old["v"] == 2
    rs = rules.get("solitaire_asl")
    e = rs.decode(old)
    assert type(e) is BY_KIND["shift"] and (e.op, e.row, e.final) == ("hip", "allowed", 2)
    assert all(c.was is NOT_RECORDED for c in e.patches)
    got = [(c.entity, c.id, c.how) for c in e.patches]
    assert got == [
        ("stack", "H1", "put"),
        ("fortification", "F1", "put"),
        ("fortification", "F2", "put"),
        ("count", "Russian|1:PFPh|hip", "add"),
    ]
    assert e.patches[0].value == old["data"]["put_stacks"][0]  # the whole record, as logged
