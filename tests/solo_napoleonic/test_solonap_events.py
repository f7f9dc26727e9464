"""Issue 14: the events are domain facts named from the rules; old logs (field patches) still
import and replay to the same state.

``tests/fixtures/kuryakin_patch_events/k_random.jsonl`` is a game played by the release before
the domain facts (sample scenario, seed 3, optional figures on; 400 steps of a seeded player
taking the first request ``legal_requests`` offered that the referee accepted), whose log holds
only the patch events ``unit_changed``/``general_changed``/``game_changed``;
``k_random.state.json`` is the state that release reached. Release 0.1's own saved game
(tests/fixtures/saved_games_v0_1/k1.jsonl) is tested in test_solonap_flow.py and by the
conformance suite.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from vedette.engine import Game, Store, replay
from vedette.engine.referee import resign
from vedette.errors import RuleViolation, VedetteError
from vedette.rules.solo_napoleonic import RULESET as R
from vedette.rules.solo_napoleonic.events import (
    GENERAL_FACTS,
    LEGACY_EVENTS,
    TURN_FACTS,
    UNIT_FACTS,
)

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "kuryakin_patch_events"
LEGACY = {c.kind for c in LEGACY_EVENTS}


def replayed_requests() -> tuple[Game, int]:
    """The fixture's game played again now: the same scenario, options and seed, and its
    actions' procedures and requests in the same order (so the same dice), up to the first one
    the rules now refuse (a fix made since: the unlimbered battery's creep, Kuryakin, Move
    Distances). Returns the game and how many actions it replayed."""
    recs = [json.loads(x) for x in (FIX / "k_random.jsonl").read_text().splitlines()[1:]]
    created = recs[0]["payload"]
    g = Game.create(
        Store(":memory:"),
        "k",
        "solo_napoleonic",
        created["scenario"],
        seed=created["seed"],
        options=created.get("options") or {},
        # (that release's battery officer was one of its crew: reading K99's earlier builds)
        house_rules={"options": {"battery_officer": "crew"}},
    )
    for n, r in enumerate(recs[1:]):
        assert r["kind"] == "action"
        try:
            g.perform(r["payload"]["procedure"], r["payload"]["request"])
        except RuleViolation as e:
            assert "cannot move in unlimbered" in str(e)
            return g, n
    return g, len(recs) - 1


def legacy_prefix(n: int) -> Any:
    """The state the old log reaches after its first ``n`` actions."""
    lines = (FIX / "k_random.jsonl").read_text(encoding="utf-8").splitlines()
    g = Game.import_jsonl(
        Store(":memory:"), "\n".join(lines[: n + 2]), "old"
    )  # header, creation, n actions
    return state_of(g)


def state_of(g: Game) -> Any:
    return json.loads(json.dumps(R.state_json(g.state)))


def kinds(g: Game) -> set[str]:
    return {e["kind"] for r in g.records if r.kind == "action" for e in r.payload.get("events", [])}


@pytest.fixture(scope="module")
def before() -> Any:
    state = json.loads((FIX / "k_random.state.json").read_text(encoding="utf-8"))
    for u in state["units"]:  # per-turn marks added since the fixture: an old log has none
        for k, v in ADDED_SINCE.items():
            assert k not in u
            u[k] = v
    for u in state["units"]:  # a battery has its officer only (session 21, reading K93): the
        if "artillery" in u["kind"]:  # scenario gives it no musician or standard bearer, and
            u["musician"] = None  # only the old log's patch (F4's standard shot) sets one
            u["standard"] = "dead" if u["id"] == "F4" else None
    for g in state["generals"]:
        for k, v in GENERAL_ADDED_SINCE.items():
            assert k not in g
            g[k] = v
    return state


ADDED_SINCE = {
    "move_done": False,
    "rally_failed": False,
    "bound": None,
    "collided": [],
    "standstill_tests": 0,  # readings K72 and K71: per card
    "formation_changes": 0,
}
#: a general's own move this turn (issue 23: an unattached general rides)
GENERAL_ADDED_SINCE = {"moved_mm": 0.0}


@pytest.fixture(scope="module")
def replayed() -> tuple[Game, Any, Any]:
    """The fixture replayed now as far as the rules allow (its state, the old log's state at the
    same point), then played on like the fixture was made: 400 steps of a seeded player taking
    the first request ``legal_requests`` offers that the referee accepts (300 until session 17:
    with one formation change and one standstill test a card, readings K71 and K72, its game
    reaches a melee later; 500 since a halted unit's move or charge tests to move off, K74; 600
    since a charge home's move into contact is capped by the charger's move, K88: its first
    charge home, after a target that retired, ends short)."""
    g, n = replayed_requests()
    assert n >= 10
    at, old = state_of(g), legacy_prefix(n)
    rng = random.Random(3)
    for _ in range(600):
        for proc, req in list(R.legal_requests(g.state, rng)):
            try:
                g.perform(proc, req)
                break
            except VedetteError:
                continue
    return g, at, old


@pytest.fixture(scope="module")
def played(replayed: tuple[Game, Any, Any]) -> Game:
    return replayed[0]


def test_an_old_log_of_patch_events_imports_to_the_state_it_had(before: Any) -> None:
    text = (FIX / "k_random.jsonl").read_text(encoding="utf-8")
    g = Game.import_jsonl(Store(":memory:"), text, "old")
    assert kinds(g) == LEGACY  # the fixture is what it says: patches only
    assert state_of(g) == before
    # the log ends with A4's melee against F2 owed, though F2 was shot to nothing meanwhile:
    # a step against a unit gone is no longer owed (found by this test), so play goes on
    assert not g.state.unit("F2").on_table
    assert not [o for o in g.obligations() if o.id.startswith("charge:A4:")]
    n = len(g.records)
    for proc, req in list(R.legal_requests(g.state, random.Random(0))):  # and plays on
        try:
            g.perform(proc, req)
            break
        except VedetteError:
            continue
    assert len(g.records) == n + 1
    assert not {e["kind"] for e in g.records[-1].payload["events"]} & LEGACY


def test_the_same_game_played_now_records_domain_facts_and_reaches_the_same_state(
    replayed: tuple[Game, Any, Any], played: Game
) -> None:
    _, at, old = replayed
    for state in (at, old):  # marks an old log never set (a move made: move_done ...)
        for u in state["units"]:
            for k in ADDED_SINCE:
                u.pop(k)
            if "artillery" in u["kind"]:  # a battery's officer only now (K93): the old log
                u.pop("musician")  # gave F4 a standard bearer, and shot him
                u.pop("standard")
    assert at == old
    got = kinds(played)
    assert not got & LEGACY
    # the charge sequence, fire, morale and melee all ran: their facts are in the log
    assert {
        "charge_declared",
        "closed_up",
        "charged_home",
        "melee_round",
        "fired",
        "casualties_taken",
        "morale_failed",
        "morale_held",
        "cards_dealt",
        "turn_ended",
    } <= got
    assert replay(R, played.store.records(played.id)).state == played.state
    again = Game.import_jsonl(Store(":memory:"), played.export_jsonl(), "again")
    assert again.state == played.state


def test_every_fact_kind_is_registered_once_and_declares_what_it_changes() -> None:
    facts = (*UNIT_FACTS, *GENERAL_FACTS, *TURN_FACTS)
    names = [c.kind for c in facts]
    assert len(names) == len(set(names))
    assert set(names) | LEGACY == set(R.event_registry())
    assert all(c.touches and c.version == 2 for c in facts)  # 2: the core patch (issue 28)


def test_a_fact_changing_what_its_kind_does_not_is_refused_on_import(played: Game) -> None:
    lines = played.export_jsonl().splitlines()
    for i, line in enumerate(lines):
        rec = json.loads(line)
        evs = rec.get("payload", {}).get("events", [])
        moved = [e for e in evs if e["kind"] == "moved"]
        if moved:
            moved[0]["data"]["set"]["figures"] = 99  # a move that kills men
            lines[i] = json.dumps(rec)
            break
    # (issue 25: the referee, performing the move again, names the action and the difference)
    with pytest.raises(VedetteError, match=r"move\): events: event 1 differs.*figures"):
        Game.import_jsonl(Store(":memory:"), resign("\n".join(lines)), "forged")
