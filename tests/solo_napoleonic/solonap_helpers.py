"""Helpers for the Solo Napoleonic (Kuryakin) tests: small scenarios and forced dice."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from vedette.dice import ScriptedSource
from vedette.dice.check import Odds
from vedette.rules.base import Outcome
from vedette.rules.solo_napoleonic import RULESET as R
from vedette.rules.solo_napoleonic.model import Card, State


def unit(uid: str, side: str = "French", **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {
        "id": uid,
        "name": uid,
        "side": side,
        "kind": "infantry",
        "grade": "C",
        "figures": 18,
        "formation": "line",
    }
    d.update(kw)
    return d


def general(gid: str, side: str = "French", **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"id": gid, "name": gid, "side": side, "rank": "brigadier"}
    d.update(kw)
    return d


def make(
    units: Sequence[Mapping[str, Any]],
    generals: Sequence[Mapping[str, Any]] = (),
    options: Mapping[str, Any] | None = None,
    house: Mapping[str, Any] | None = None,
    sides: Sequence[str] = ("French", "Allies"),
) -> State:
    scen = {"title": "test", "sides": list(sides), "units": list(units), "generals": list(generals)}
    opts = dict(options or {})
    if house:
        opts["house_rules"] = dict(house)
    return R.initial_state(scen, opts)


def run(state: State, proc: str, faces: Sequence[int] = (), **req: Any) -> tuple[State, Outcome]:
    """Run a procedure with forced dice (all must be used) and fold its events: judged as the
    engine judges it (the declared flow, then plan; obligations are the engine's own tests)."""
    src = ScriptedSource(list(faces))
    p, _, plan = R.judge(state, proc, req, owed=())
    out = p.resolve(state, plan, src)
    src.check_all_used()
    for e in out.events:
        state = R.apply(state, e)
    return state, out


def odds(state: State, proc: str, **req: Any) -> list[Odds]:
    _, _, plan = R.judge(state, proc, req, query=True)
    return list(plan.step_odds())


def activate(state: State, *uids: str) -> State:
    """Put the game in the activation phase with ``uids`` on the active card (one card)."""
    cards = tuple(
        Card(u.id, i + 1, float(i + 1), (u.id,))
        for i, u in enumerate(state.units)
        if u.id not in uids
    )
    active = Card("active", 0, 0.0, tuple(uids))
    return replace(state, phase="activation", cards=(active, *cards), active="active")


def request(proc: str, data: Mapping[str, Any]) -> Any:
    """The typed request of a procedure, checked and coerced as the engine does."""
    return R.procedures[proc].parse(dict(data))


def in_play(state: State) -> State:
    """The state in the activation phase (a charge, a melee or a rally is played on the cards:
    Kuryakin, Move Sequence), no card active."""
    return replace(state, phase="activation")
