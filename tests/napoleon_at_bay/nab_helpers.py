"""Builders for Napoleon At Bay tests: small maps, scenarios, moves and fixings."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from vedette.dice import ScriptedSource
from vedette.rules.base import Outcome
from vedette.rules.napoleon_at_bay import RULESET
from vedette.rules.napoleon_at_bay.model import NabState


def grid(
    cols: tuple[int, int] = (1, 12),
    rows: tuple[int, int] = (1, 12),
    areas: Mapping[str, Sequence[str]] | None = None,
    roads: Iterable[Sequence[str]] = (),
    hexsides: Iterable[tuple[str, Sequence[Sequence[str]]]] = (),
) -> dict[str, Any]:
    """An open map 'A' (clear by default) with optional terrain, roads and hexsides."""
    return {
        "name": "test map",
        "letter": "A",
        "id_digits": 2,
        "columns": list(cols),
        "rows": list(rows),
        "areas": {k: list(v) for k, v in (areas or {}).items()},
        "roads": [{"path": list(p)} for p in roads],
        "hexsides": [{"feature": f, "pairs": [list(x) for x in pairs]} for f, pairs in hexsides],
    }


def force(fid: str, side: str, *hexes: str, **units: Any) -> dict[str, Any]:
    return {"id": fid, "side": side, "name": units.pop("name", fid), "hexes": list(hexes), **units}


def scenario(
    forces: Sequence[Mapping[str, Any]], map_: Mapping[str, Any] | None = None, series: str = "5x"
) -> dict[str, Any]:
    return {
        "scenario": {"title": "test", "series": series, "first": "Fr"},
        "sides": {"Fr": "French", "Ru": "Russian"},
        "map": dict(map_ or grid()),
        "forces": [dict(f) for f in forces],
    }


def make(
    forces: Sequence[Mapping[str, Any]],
    map_: Mapping[str, Any] | None = None,
    series: str = "5x",
    **options: Any,
) -> NabState:
    return RULESET.initial_state(scenario(forces, map_, series), options)


def run(
    state: NabState, proc: str, faces: Sequence[int] = (), source: Any = None, **req: Any
) -> Outcome:
    src = source if source is not None else ScriptedSource(list(faces))
    return RULESET.procedures[proc].run(state, req, src)


def play(
    state: NabState, proc: str, faces: Sequence[int] = (), source: Any = None, **req: Any
) -> tuple[Outcome, NabState]:
    out = run(state, proc, faces, source, **req)
    for e in out.events:
        state = RULESET.apply(state, e)
    return out, state


def move(state: NabState, fid: str, to: str | Sequence[str], march: str = "normal") -> NabState:
    return play(state, "move", force=fid, to=to, march=march)[1]


def odds(state: NabState, **req: Any) -> list[Any]:
    f = RULESET.procedures["fix"].odds
    assert f is not None
    return list(f(state, req))


def waived(state: NabState) -> NabState:
    """The state with every owed fixing waived (as the player may, a logged event in a game)."""
    for o in RULESET.obligations(state):
        state = RULESET.waive(state, o.id)
    return state
