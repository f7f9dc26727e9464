"""The board as its own resource, and hand moves checked before they are written.

* ``GET /api/games/{name}/board`` -> ``{svg, legend, roster, highlight, rings, hand}``: the board
  refreshes alone (board.js reloads all but the SVG, ``?svg=false``, on ``vedette:changed``:
  the page has drawn the board of the action's answer); ``highlight`` holds the ids and
  hexes the latest action in force changed; ``rings`` the rule distances (mm) a player may draw
  around a unit; ``hand`` which procedure a drag performs (None: the ruleset keeps no positions).
* ``POST /api/games/{name}/move-check`` ``{procedure, request}`` -> ``{ok, error?, used, left,
  units, path, zoc, text}``: the procedure's own plan (its rule checks, no dice, nothing written)
  and the ruleset's reading of it (``Ruleset.move_check``). A refusal is ``ok: false`` with the
  one-line reason naming the rule; a malformed body is a 4xx like every API call.

Both are plain ``def`` endpoints: rules code runs in the thread pool, never on the event loop.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import Field

from vedette.engine import Game
from vedette.errors import RuleViolation
from vedette.schemas import Strict
from vedette.web import boards
from vedette.web.common import json_body, one_line, request_fields

router = APIRouter()


class CheckBody(Strict):
    procedure: str = Field(max_length=64)
    request: dict[str, Any] = Field(default_factory=dict)


def hand_move(g: Game) -> dict[str, str] | None:
    """Which procedure a drag performs here (None: positions are not kept, or not on a map)."""
    spec = g.ruleset.hand_move
    if spec is None:
        return None
    if getattr(g.state, "play", "tracked") != "tracked":
        return None  # a stated game keeps no positions (2 by 2, Kuryakin)
    return dict(spec)


def highlight(g: Game) -> list[str]:
    """The ids and hexes the latest action in force named in its events (what it changed)."""
    if not g.top:
        return []
    rec = g.records[g.top - 1]
    found: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, str):
            if 0 < len(x) <= 16:
                found.add(x)
        elif isinstance(x, Mapping):
            for v in x.values():
                walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)

    walk(rec.payload.get("events", []))
    return sorted(found)


def action_view(g: Game, before_state: Any, events: Sequence[Any]) -> dict[str, Any]:
    """What a perform response adds (interfaces §3), for the shell to merge into it: the table
    changes in words (``Ruleset.table_changes``) and the ids/hexes to highlight. Call it after
    ``g.perform`` with the state from before it and ``outcome.events``."""
    return {
        "table_changes": g.ruleset.table_changes(before_state, events),
        "highlight": highlight(g),
    }


def rings(g: Game) -> dict[str, float | str]:
    """The rings a player may draw around the unit picked: mm, or the name of a per-unit
    distance the board carries on each unit (``data-<name>``)."""
    fn = g.ruleset._board_fn("rings")
    if fn is None:
        return {}
    return {str(k): v if isinstance(v, str) else float(v) for k, v in fn(g.state).items()}


def board_view(g: Game, svg: bool = True) -> dict[str, Any]:
    """The board resource; without its SVG when ``svg`` is false (the page that has just drawn
    the board an action answered with asks for the rest only)."""
    sj = g.ruleset.state_json(g.state)
    return {
        **({"svg": boards.svg(g.ruleset.name, g.state, sj, g.render)} if svg else {}),
        "legend": g.ruleset.legend(g.state),
        "roster": g.ruleset.roster(g.state),
        "highlight": highlight(g),
        "rings": rings(g),
        "hand": hand_move(g),
    }


@router.get("/api/games/{name}/board")
def board(name: str, request: Request, svg: bool = True) -> dict[str, Any]:
    with request.app.state.sessions.game(name) as g:
        return board_view(g, svg)


@router.post("/api/games/{name}/move-check")
def move_check(
    name: str, body: Annotated[CheckBody, Depends(json_body(CheckBody))], request: Request
) -> dict[str, Any]:
    with request.app.state.sessions.game(name) as g:
        try:
            proc, plan = g._prepare(body.procedure, request_fields(body.request))
            if proc.query:
                return {"ok": False, "error": f"{body.procedure} is a query, not a move"}
            facts = g.ruleset.move_check(g.state, body.procedure, plan)
        except RuleViolation as e:  # the rules refuse this move: an answer, not an error
            return {"ok": False, "error": one_line(e)}
        # a malformed request (unknown field, bad value) is the app's one-line 4xx
        return {"ok": True, **facts}
