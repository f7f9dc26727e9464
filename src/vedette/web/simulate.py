"""The balance studies kept in the game database (``vedette simulate``; docs/simulation.md):
``GET /simulations`` lists them, ``GET /simulations/{id}`` shows one with its plots inline
(SVG built by :mod:`vedette.sim.plots`, escaped by construction) and ``GET
/api/simulations/{id}`` gives its result document. Only ids known to the store are read: no
request names a file."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from vedette.errors import GameError
from vedette.web.common import TEMPLATES, WholeNumber

router = APIRouter()
_templates = TEMPLATES


def _store(request: Request) -> Any:
    return request.app.state.sessions.store()


def _study(request: Request, sid: int) -> dict[str, Any]:
    try:
        return dict(_store(request).simulation(sid))
    except GameError as e:
        raise HTTPException(404, str(e)) from None


@router.get("/simulations", response_class=HTMLResponse)
def simulations(request: Request) -> HTMLResponse:
    rows = _store(request).simulations()
    items = [{"id": i, "ruleset": r, "title": t, "created": c} for i, r, t, c in rows]
    return _templates.TemplateResponse(
        request, "simulations.html", {"csrf": "", "simulations": items}
    )


@router.get("/simulations/{sid}", response_class=HTMLResponse)
def simulation(request: Request, sid: WholeNumber) -> HTMLResponse:
    # start-up: the simulator and matplotlib load with the first study
    from vedette.sim.cli import text_report
    from vedette.sim.plots import plots

    study = _study(request, sid)
    return _templates.TemplateResponse(
        request,
        "simulation.html",
        {
            "csrf": "",
            "id": sid,
            "study": study,
            "report": text_report(study)[2:],  # (title and end are shown above)
            "plots": plots(study),
        },
    )


@router.get("/api/simulations/{sid}")
def simulation_json(request: Request, sid: WholeNumber) -> dict[str, Any]:
    return _study(request, sid)
