"""The JSON API the game page uses: the game's view (or only what changed since the page's
last entry), its log a page at a time, one entry's record, odds, perform and undo. Every body
is read by ``common.json_body`` (size-limited, unknown keys refused)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse

from vedette.dice import parse_faces
from vedette.dice.die import DeckCard, Die
from vedette.dice.sources import one_tap
from vedette.errors import GameError, RuleViolation
from vedette.web import views
from vedette.web.common import (
    MAX_SEQ,
    OddsBody,
    PerformBody,
    SessionsDep,
    UndoBody,
    WholeNumber,
    answer,
    board_of,
    highlight_of,
    json_body,
    one_line,
    reference,
    refused,
    request_fields,
    table_changes,
)
from vedette.web.moves import board_view
from vedette.web.moves import highlight as event_highlight

router = APIRouter()


@router.get("/api/csrf")
def csrf_token(request: Request) -> dict[str, str]:
    """The page's token again (with its cookie): a tab left open across a restart of the
    server fetches it and retries its action once."""
    return {"token": request.app.state.csrf}


@router.get("/api/games/{name}")
def state(
    sessions: SessionsDep,
    name: str,
    since: Annotated[WholeNumber | None, Query(ge=0, le=MAX_SEQ)] = None,
) -> JSONResponse:
    with sessions.game(name) as g:
        return answer(views.view(g, board_of(g, since is None), since))


@router.get("/api/games/{name}/log")
def log_page(
    sessions: SessionsDep,
    name: str,
    before: WholeNumber | None = None,
    limit: WholeNumber = views.PAGE,
) -> JSONResponse:
    with sessions.game(name) as g:
        return answer(views.log_page(g, before, max(1, min(limit, 500))))


@router.get("/api/games/{name}/log/{seq}")
def log_record(sessions: SessionsDep, name: str, seq: WholeNumber) -> JSONResponse:
    """One entry's full record as key/value rows (the page asks when it is opened)."""
    with sessions.game(name) as g:
        found = [r for r in g.records if r.seq == seq]
        if not found:
            raise GameError(f"game {g.name!r} has no log entry #{seq}")
        return answer({"seq": seq, "rows": views.record_rows(found[0])})


def own_die(die: Die, drawn: list[Die]) -> dict[str, Any]:
    """A die the step draws, for the page's pads: its name and faces; a card, its deck and
    the deck's whole faces (those of the deck's first card drawn: the page takes out the
    cards turned up before it)."""
    if not isinstance(die, DeckCard):
        return {"name": die.name, "faces": list(die.faces)}
    first = next(d for d in drawn if isinstance(d, DeckCard) and d.deck == die.deck)
    return {"name": die.name, "faces": list(first.faces), "deck": die.deck}


@router.post("/api/games/{name}/odds")
def odds(
    sessions: SessionsDep, name: str, body: Annotated[OddsBody, Depends(json_body(OddsBody))]
) -> JSONResponse:
    def run() -> dict[str, Any]:
        with sessions.game(name) as g:
            try:
                found = g.odds(body.procedure, request_fields(body.request))
            except RuleViolation as e:
                # odds are a question, and "none now, because..." is its answer: a 200 the
                # page shows in words, not a failed request in the console (issue 26.9)
                return {"odds": [], "refused": one_line(e), "reference": reference(g, body)}
            out: dict[str, Any] = {
                "odds": [o.to_json() for o in found],
                "reference": reference(g, body),
            }
            if g.physical:  # the faces of each die the step rolls: the page's dice pads
                certain, more = g.dice_asked(body.procedure, request_fields(body.request))
                # a real deck's deal (Kuryakin, K80): its cards, however many and whatever
                # their numbers, each from the cards left in its deck: all asked at once, the
                # page hides a card turned up from the next one's faces and sends the deal
                # once (it took a round trip per card, refused asking for the next)
                if more and all(isinstance(d, DeckCard) for d in more):
                    certain, more = certain + more, None
                # the dice drawn whatever the faces; one that only some faces call for (a
                # morale test's chart d10) gets its pad when it is asked for (DiceNeeded)
                dice = {d.name: own_die(d, certain or more or []) for d in certain or more or []}
                out["own_dice"] = list(dice.values())
                # the dice in the order their faces are given: the page's face buttons show
                # only the faces of the die asked next (a d4's 1-4, not 1-10)
                out["own_order"] = [d.name for d in certain or more or []]
                # how many faces the step takes whatever they show: the page's face tap that
                # gives the last of them does the step (a face calling for more is asked then)
                out["own_needed"] = len(certain)
                # a step whose dice depend on its faces (O'Leary 6.1: a 6 calls for the
                # direction and distance dice): each sequence of faces to its end, one tap
                # each on the page (none when there are too many)
                paths = g.dice_paths(body.procedure, request_fields(body.request)) if more else None
                if paths and one_tap(paths):
                    out["own_paths"] = [{"faces": p.faces, "names": p.names} for p in paths]
            return out

    # the page's form not yet enough for odds (a move without its distance, a shot without
    # its range): asked by the page, "odds: ..." in words too
    return answer(refused(body.refusal, run))


@router.post("/api/games/{name}/perform")
def perform(
    sessions: SessionsDep,
    name: str,
    body: Annotated[PerformBody, Depends(json_body(PerformBody))],
) -> JSONResponse:
    def run() -> dict[str, Any]:
        dice = None
        if body.dice not in (None, "", []):
            dice = parse_faces(body.dice) if isinstance(body.dice, str) else list(body.dice or [])
        with sessions.game(name, write=True) as g:
            before = g.state
            outcome = g.perform(body.procedure, request_fields(body.request), dice)
            changes = table_changes(g, before, outcome.events)
            return {
                "outcome": outcome.to_json(),
                "lines": outcome.lines(),
                "table_changes": changes,
                "highlight": highlight_of(g, body.request, event_highlight(g)),
                **views.view(g, board_of(g, body.since is None), body.since),
                "board_info": board_view(g, svg=False),
            }

    return answer(refused(body.refusal, run))


@router.post("/api/games/{name}/undo")
def undo(
    sessions: SessionsDep,
    name: str,
    body: Annotated[UndoBody, Depends(json_body(UndoBody, True))],
) -> JSONResponse:
    def run() -> dict[str, Any]:
        with sessions.game(name, write=True) as g:
            rec = g.undo()
            view = views.view(g, board_of(g, body.since is None), body.since)
            return {
                "undone": rec.payload["undoes"],
                **view,
                "board_info": board_view(g, svg=False),
            }

    return answer(refused(body.refusal, run))
