"""Helpers for the solitaire ASL tests: build a scenario, walk the phases, play procedures with
forced dice and fold their events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from vedette.dice import ScriptedSource
from vedette.dice.check import Odds
from vedette.rules.base import Outcome
from vedette.rules.solitaire_asl import RULESET
from vedette.rules.solitaire_asl.model import State


def pds(sid: str, loc: str, *names: str, **kw: Any) -> dict[str, Any]:
    return {"id": sid, "location": loc, "status": "potential_dummy", "counters": list(names), **kw}


def ds(sid: str, loc: str, n: int, **kw: Any) -> dict[str, Any]:
    return {"id": sid, "location": loc, "status": "dummy", "dummies": n, **kw}


def hip(sid: str, loc: str, *counters: Any, **kw: Any) -> dict[str, Any]:
    return {"id": sid, "location": loc, "status": "hip", "counters": list(counters), **kw}


def dhip(sid: str, loc: str, **kw: Any) -> dict[str, Any]:
    return {"id": sid, "location": loc, "status": "dummy_hip", **kw}


def make(stacks: Sequence[Mapping[str, Any]] = (), **kw: Any) -> State:
    scen: dict[str, Any] = {"sides": ["Russian", "German"], "first": "Russian", **kw}
    scen["stacks"] = [{"side": "Russian", **s} for s in stacks]
    for k in ("fortifications", "minefields", "oba"):
        if k in scen:
            scen[k] = [{"side": "Russian", **x} for x in scen[k]]
    return RULESET.initial_state(scen, {})


def to_phase(state: State, phase: str, side: str | None = None) -> State:
    for _ in range(40):
        out = RULESET.procedures["phase"].run(state, {}, ScriptedSource([]))
        for e in out.events:
            state = RULESET.apply(state, e)
        if state.phase == phase and (side is None or state.phasing == side):
            return state
    raise AssertionError("phase not reached")


def play(state: State, proc: str, faces: Sequence[int] = (), **req: Any) -> tuple[State, Outcome]:
    src = ScriptedSource(list(faces))
    out = RULESET.procedures[proc].run(state, req, src)
    src.check_all_used()
    for e in out.events:
        state = RULESET.apply(state, e)
    return state, out


def odds(state: State, proc: str, **req: Any) -> Odds:
    fn = RULESET.procedures[proc].odds
    assert fn is not None
    return next(iter(fn(state, req)))


def mods(out: Outcome) -> dict[str, int]:
    r = out.rolls[0]
    return {m.reason: m.value for m in r.modifiers}  # type: ignore[union-attr]


def row(out: Outcome) -> str:
    return str(out.rolls[0].row)  # type: ignore[union-attr]
