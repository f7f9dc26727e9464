"""The odds of sequences over the web (docs/architecture.md, "Sequences"):

* ``GET /api/games/{name}/sequences``: the ruleset's sequences, each with its help, rule and
  the JSON schema of its request (the odds panel builds its form from it);
* ``POST /api/games/{name}/chances`` with ``{"procedure": NAME, "request": {...}}``: the odds
  of each end state of a sequence (or of every outcome of a procedure), as fractions, with
  ``exact`` false and 95% intervals when the tree was sampled.

The rules code runs in threads, never on the event loop (the odds of a whole sequence in
threads of their own); errors are the app's one JSON line with a 4xx status. Nothing is
written to the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import Field

from vedette.rules.protocol import Chance, Chances
from vedette.rules.sequence import summary_of
from vedette.schemas import Strict
from vedette.web.common import LONG_WORK, RefusalAs, json_body, refused, request_fields

router = APIRouter()

#: dice branches enumerated before sampling (bounded: a request cannot ask for hours of work)
LIMIT = 20_000
MAX_LIMIT = 200_000


class ChancesBody(Strict):
    procedure: str = Field(max_length=64)
    request: dict[str, Any] = Field(default_factory=dict)
    limit: int = Field(default=LIMIT, ge=1, le=MAX_LIMIT)
    refusal: RefusalAs = "error"


def _row(row: Chance) -> dict[str, Any]:
    return {
        "result": row.result,
        "p": f"{row.p.numerator}/{row.p.denominator}",
        "float": float(row.p),
        "low": row.low,
        "high": row.high,
    }


def chances_json(c: Chances, each: Sequence[Chance] = ()) -> dict[str, Any]:
    """The shared shape (interfaces §4): each outcome's exact fraction, its float, and the
    95% interval when sampled; ``each``: a sequence's facets (the chance the screen holds,
    that each unit routs), in the same shape."""
    return {
        "exact": c.exact,
        "leaves": c.leaves,
        "outcomes": [_row(row) for row in c.rows],
        "each": [_row(row) for row in each],
        "note": c.note or ("exact" if c.exact else "sampled"),
    }


@router.get("/api/games/{name}/sequences")
def sequences(name: str, request: Request) -> list[dict[str, Any]]:
    with request.app.state.sessions.game(name) as g:
        return [
            {"name": n, "help": p.help, "rule": p.rule, "fields": p.spec.json_schema()}
            for n, p in g.sequences().items()
        ]


@router.post("/api/games/{name}/chances")
async def chances(
    name: str, body: Annotated[ChancesBody, Depends(json_body(ChancesBody))], request: Request
) -> dict[str, Any]:
    """Run in threads of its own (``app.state.long_work``): a whole tree of dice may take
    seconds, and must not hold up the two threads that play everyone's actions."""
    import anyio
    import anyio.to_thread

    def work() -> dict[str, Any]:
        with request.app.state.sessions.game(name) as g:
            c = g.chances(body.procedure, request_fields(body.request), body.limit)
            return chances_json(c, summary_of(g.sequences().get(body.procedure), c))

    limiter = getattr(request.app.state, "long_work", None)
    if limiter is None:
        limiter = request.app.state.long_work = anyio.CapacityLimiter(LONG_WORK)
    return await anyio.to_thread.run_sync(lambda: refused(body.refusal, work), limiter=limiter)
