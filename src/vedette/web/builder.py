"""The scenario builder (issue 30): a scenario of your own made by taps on its board, checked
live by the same pydantic schema and set-up as a scenario file, saved in the store beside the
games (:mod:`vedette.engine.scenarios`), exported and imported as the TOML the CLI takes.

* ``GET /scenarios/new?ruleset=R[&edit=NAME|&start=BUNDLED]``: the builder page; ``edit`` opens
  one of yours again, ``start`` begins from a bundled scenario's data. Without ``ruleset``: the
  choice of rules (a page, not an error); an unknown ruleset or scenario: a one-line error page
  (4xx) with a link back to that choice.
* ``POST /api/scenarios/check`` ``{ruleset, data}``: every problem with the element it names
  (``forces[2].side``), the board of the scenario as set up, and the rules' allotments.
* ``POST /api/scenarios/save`` ``{ruleset, name, description, data, replace}``: kept only when
  it has no problem (else 422 with the problems, nothing stored).
* ``POST /api/scenarios/import`` ``{ruleset, name, text, replace}``, ``POST
  /api/scenarios/delete`` ``{ruleset, name}``, ``GET /scenarios/{ruleset}/{name}/export``.

The page's editor is driven by a per-ruleset description (:func:`spec`): the fields of each
part, in the order a scenario file writes them, and which of them a board tap fills. Its
choices come from the ruleset's own data (terrain chart, piece kinds, unit list, series).
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import Field

from vedette import rules
from vedette.engine import scenarios as user
from vedette.errors import GameError, VedetteError
from vedette.render.svg import FEATURE_STYLE, _font, _hex_points, _svg, el, to_text
from vedette.rules.editor import Editor, number
from vedette.schemas import Strict
from vedette.web.common import attachment, json_body, one_line, page, status_of

router = APIRouter()
B = TypeVar("B", bound=Strict)

#: the largest builder request (a scenario's JSON or TOML text)
MAX_BODY = 256 * 1024


class CheckBody(Strict):
    ruleset: str = Field(max_length=64)
    data: dict[str, Any]


class SaveBody(CheckBody):
    name: str = Field(max_length=100)
    description: str = Field("", max_length=user.MAX_DESCRIPTION)
    replace: bool = False


class ImportBody(Strict):
    ruleset: str = Field(max_length=64)
    name: str = Field(max_length=100)
    text: str = Field(max_length=MAX_BODY)
    replace: bool = False


class NameBody(Strict):
    ruleset: str = Field(max_length=64)
    name: str = Field(max_length=100)


def body_of(model: type[B]) -> Callable[[Request], Awaitable[B]]:
    """The builder's JSON body (a scenario's data or TOML text: a larger limit than a move's)."""
    return json_body(model, limit=MAX_BODY)


def _store(request: Request) -> Any:
    return request.app.state.sessions.store()


# -- the editor's description: declared by each ruleset (rules/editor.py) ------------------------
def editor(rs: Any) -> Editor:
    """The ruleset's editor, or a refusal naming it (a plug-in may declare none)."""
    ed = rs.editor()
    if ed is None:
        raise GameError(f"the scenario builder cannot make {rs.name} scenarios (it has no editor)")
    return ed  # type: ignore[no-any-return]


def spec(rs: Any) -> dict[str, Any]:
    """What the page edits for ``rs``: ``head`` fields, ``lists`` of records (each with the
    field a board tap fills: ``tap``), the ``board`` kind and its ``tools``."""
    return editor(rs).spec(rs.data())


def _check(rs: Any, data: dict[str, Any]) -> dict[str, Any]:
    ed = editor(rs)
    found = user.problems(rs, data)
    board = None
    info: list[str] = []
    state = None
    if not found:
        state = rs.initial_state(user.canonical(data), rs.validate_options({}, "options"))
        if ed.board == "hex":
            board = rs.board_svg(state, rs.state_json(state))
        info = ed.notes(state, data, rs.data())
    if ed.board == "grid":
        # each location's TEM as set up (a location built without one takes its terrain's)
        tems = {x.id: x.tem for x in getattr(state, "locations", ())}
        board = geomorphic_grid(data, tems)
    elif ed.board == "table":
        board = table_board(ed, data)
    return {"problems": [p.to_json() for p in found], "board": board, "notes": info}


_num = number


def _pts(v: Any) -> list[tuple[float, float]]:
    if not isinstance(v, list):
        return []
    return [(_num(p[0], 0), _num(p[1], 0)) for p in v if isinstance(p, list) and len(p) == 2]


def table_board(ed: Editor, data: dict[str, Any]) -> str:
    """A table top (2 by 2, Kuryakin): the table as the scenario stands, drawn from its data
    whether or not it is sound yet (a tap must always land somewhere): its terrain, units (faced),
    generals and reinforcement points; north up, positions in mm (y from the south edge)."""
    width, depth = ed.table_size(data)
    fs = _font(width)
    top = fs * 2
    root = _svg(width, depth + top, "the table", "tabletop builder-table")
    root.set("data-depth", f"{depth:g}")
    root.set("data-width", f"{width:g}")
    root.set("data-top", f"{top:g}")
    el(root, "text", {"x": 4, "y": fs * 1.3, "font-size": f"{fs:.0f}"}, f"{width:g} x {depth:g} mm")
    body = el(root, "g", {"transform": f"translate(0,{top:g})"})
    el(
        body,
        "rect",
        {"x": 0, "y": 0, "width": f"{width:g}", "height": f"{depth:g}", "fill": "#dfe8c8"},
    )
    step = 50 if width < 1000 else 100
    for gx in range(0, int(width) + 1, step):
        el(body, "line", {"x1": gx, "y1": 0, "x2": gx, "y2": f"{depth:g}", "stroke": "#cfd8b8"})
    for gy in range(0, int(depth) + 1, step):
        el(
            body,
            "line",
            {
                "x1": 0,
                "y1": f"{depth - gy:g}",
                "x2": f"{width:g}",
                "y2": f"{depth - gy:g}",
                "stroke": "#cfd8b8",
            },
        )

    def flip(pts: list[tuple[float, float]]) -> str:
        return " ".join(f"{x:g},{depth - y:g}" for x, y in pts)

    for f in data.get("terrain", []):
        if not isinstance(f, dict):
            continue
        style = {
            k.replace("_", "-"): v for k, v in FEATURE_STYLE.get(str(f.get("kind")), {}).items()
        }
        g = el(body, "g", {"class": "feature", "data-kind": str(f.get("kind", ""))})
        el(g, "title", None, f"{f.get('name') or ''} ({f.get('kind')})")
        if "circle" in f:
            (cx, cy), r = (_pts([f["circle"]]) or [(0.0, 0.0)])[0], _num(f.get("radius"), 1)
            el(g, "circle", {"cx": cx, "cy": depth - cy, "r": r, **style, "opacity": 0.8})
        elif "line" in f:
            w = _num(f.get("width"), 0) or style.get("stroke-width", 4)
            el(
                g,
                "polyline",
                {"points": flip(_pts(f["line"])), **style, "stroke-width": w, "fill": "none"},
            )
        else:
            el(g, "polygon", {"points": flip(_pts(f.get("area"))), **style, "opacity": 0.8})
        for x, y in _pts(f.get("line") or f.get("area") or []):
            el(g, "circle", {"cx": x, "cy": depth - y, "r": fs * 0.25, "fill": "#333"})
    sides = [s.get("id") if isinstance(s, dict) else s for s in data.get("sides", [])]
    colours = ("#2e5e9e", "#b03a2e")
    long, short = ed.piece
    for u in data.get("units", []):
        if not isinstance(u, dict) or "x" not in u:
            continue
        x, y, face = _num(u.get("x"), 0), _num(u.get("y"), 0), _num(u.get("facing"), 0)
        colour = colours[sides.index(u.get("side")) % 2] if u.get("side") in sides else "#777"
        g = el(
            body,
            "g",
            {
                "class": "unit",
                "data-unit": str(u.get("id", "")),
                "transform": f"translate({x:g},{depth - y:g}) rotate({face:g})",
            },
        )
        el(
            g,
            "rect",
            {
                "x": -long / 2,
                "y": -short / 2,
                "width": long,
                "height": short,
                "fill": colour,
                "stroke": "#111",
            },
        )
        el(
            g,
            "line",
            {
                "x1": -long / 2,
                "y1": -short / 2,
                "x2": long / 2,
                "y2": -short / 2,
                "stroke": "#fff",
                "stroke-width": 2,
            },
        )
        el(
            body,
            "text",
            {
                "x": x,
                "y": depth - y - short,
                "font-size": f"{fs * 0.8:.0f}",
                "text-anchor": "middle",
                "pointer-events": "none",
            },
            str(u.get("id", "")),
        )
    for gen in data.get("generals", []):
        if isinstance(gen, dict) and "x" in gen:
            x, y = _num(gen.get("x"), 0), _num(gen.get("y"), 0)
            el(
                body,
                "circle",
                {
                    "class": "general",
                    "cx": x,
                    "cy": depth - y,
                    "r": fs * 0.5,
                    "fill": "#f1c40f",
                    "stroke": "#111",
                },
            )
            el(
                body,
                "text",
                {
                    "x": x,
                    "y": depth - y - fs * 0.7,
                    "font-size": f"{fs * 0.7:.0f}",
                    "text-anchor": "middle",
                    "pointer-events": "none",
                },
                str(gen.get("id", "")),
            )
    for rp in data.get("rps", []):
        if isinstance(rp, dict):
            for x, y in _pts([rp.get("at")]):
                el(
                    body,
                    "rect",
                    {
                        "class": "rp",
                        "x": x - fs / 2,
                        "y": depth - y - fs / 2,
                        "width": fs,
                        "height": fs,
                        "fill": "#fff",
                        "stroke": "#8a3b12",
                        "stroke-width": 3,
                    },
                )
    return to_text(root)


def geomorphic_grid(data: dict[str, Any], tems: dict[str, int] | None = None) -> str:
    """A geomorphic board (columns A-GG, rows 1-10, as Solitaire ASL's): the scenario's boards
    as a grid of hex ids to tap, each location's terrain, TEM and LOS written in it (a TEM
    not written in the data from ``tems``, the locations as set up, else none)."""
    boards = [b if isinstance(b, dict) else {"id": b} for b in data.get("boards", [])]
    boards = [b for b in boards if isinstance(b.get("id"), str)][:4] or [{"id": "?"}]
    cols = [chr(65 + i) for i in range(26)] + [c * 2 for c in "ABCDEFG"]
    locs: dict[str, dict[str, Any]] = {}
    raw = data.get("locations", [])
    if isinstance(raw, dict):
        raw = [{"id": k, **v} for k, v in raw.items() if isinstance(v, dict)]
    for loc in raw if isinstance(raw, list) else []:
        if isinstance(loc, dict) and isinstance(loc.get("id"), str):
            locs[loc["id"]] = loc
    used = {
        x.get("location")
        for key in ("stacks", "fortifications", "minefields")
        for x in data.get(key, [])
        if isinstance(x, dict)
    }
    size = 26.0
    h = size * math.sqrt(3)
    width = len(cols) * size * 1.5 + size
    height = (11 * h + 30) * len(boards)
    root = el(
        None,
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "viewBox": f"0 0 {width:.0f} {height:.0f}",
            "class": "geomorphic-grid",
            "role": "img",
            "aria-label": "geomorphic board grid",
        },
    )
    for bi, b in enumerate(boards):
        top = bi * (11 * h + 30) + 16
        el(root, "text", {"x": 4, "y": top - 4, "font-size": 13}, f"board {b['id']}")
        for ci, c in enumerate(cols):
            x = size + ci * size * 1.5
            rows = range(0, 11) if ci % 2 == 0 else range(1, 11)
            for r in rows:
                y = top + h / 2 + r * h - (h / 2 if ci % 2 == 0 else 0)
                hid = f"{b['id']}{c}{r}"
                loc = locs.get(hid)
                fill = "#f4f1e1" if loc else ("#e8eef6" if hid in used else "#fbfaf4")
                poly = el(
                    root,
                    "polygon",
                    {
                        "class": "hex loc",
                        "data-hex": hid,
                        "points": _hex_points(x, y, size, True),
                        "fill": fill,
                        "stroke": "#bbb",
                    },
                )
                el(poly, "title", None, hid)
                small = {"text-anchor": "middle", "pointer-events": "none"}
                el(root, "text", {"x": x, "y": y - size * 0.45, "font-size": 8, **small}, hid)
                if loc is not None:
                    tem = loc.get("tem", (tems or {}).get(hid))
                    words = f"{str(loc.get('terrain', ''))[:10]}"
                    words += f" {tem:+d}" if isinstance(tem, int) else ""
                    words += " LOS" if loc.get("los") else ""
                    el(root, "text", {"x": x, "y": y + 4, "font-size": 7, **small}, words)
                if hid in used:
                    el(root, "circle", {"cx": x, "cy": y + size * 0.5, "r": 4, "fill": "#8e44ad"})
    return to_text(root)


# -- routes ---------------------------------------------------------------------------------------
def _page(request: Request, ctx: dict[str, Any], status: int = 200) -> HTMLResponse:
    templates = request.app.state.templates
    return templates.TemplateResponse(  # type: ignore[no-any-return]
        request, "builder.html", {"csrf": request.app.state.csrf, **ctx}, status_code=status
    )


def _editable() -> list[tuple[str, str]]:
    """The rulesets whose scenarios the builder makes: (name, title)."""
    return [(n, rules.get(n).title) for n in rules.names() if rules.get(n).editor() is not None]


@router.get("/scenarios/new", response_class=HTMLResponse)
def builder_page(
    request: Request, ruleset: str = "", edit: str = "", start: str = ""
) -> HTMLResponse:
    if not ruleset:  # (a bookmark, a typed address): the choice of rules, one tap each
        return page(request, "builder_choice.html", rulesets=_editable())
    store = _store(request)
    draft: dict[str, Any] = {}
    description = ""
    try:
        rs = rules.get(ruleset)
        if edit:
            s = user.get(store, rs, edit)
            draft, description = s.data, s.description
        elif start:
            draft = user.canonical(rs.scenario(start))
            description = rs.scenario_info(start)["description"]
    except VedetteError as e:  # a one-line page with the way back to the choice of rules
        status = status_of(e)
        back = ("/scenarios/new", "back to the scenario builder")
        return page(request, "error.html", status, status_code=status, error=one_line(e), back=back)
    boot = {
        "ruleset": rs.name,
        "spec": spec(rs),
        "draft": draft,
        "name": edit,
        "description": description,
        "replace": bool(edit),
    }
    return _page(
        request,
        {
            "ruleset": rs.name,
            "title": rs.title,
            "boot": json.dumps(boot),
            "yours": [s.info() for s in user.listing(store, rs)],
            "bundled": list(rs.scenarios),
            "rulesets": _editable(),
        },
    )


@router.post("/api/scenarios/check")
def check(body: Annotated[CheckBody, Depends(body_of(CheckBody))]) -> dict[str, Any]:
    return _check(rules.get(body.ruleset), body.data)


def _refused(e: VedetteError) -> JSONResponse:
    found = [p.to_json() for p in getattr(e, "problems", [])]
    return JSONResponse({"error": " ".join(str(e).split()), "problems": found}, status_code=422)


@router.post("/api/scenarios/save")
def save(request: Request, body: Annotated[SaveBody, Depends(body_of(SaveBody))]) -> Response:
    rs = rules.get(body.ruleset)
    try:
        s = user.save(_store(request), rs, body.name, body.data, body.description, body.replace)
    except VedetteError as e:
        return _refused(e)
    return JSONResponse({"saved": s.info(), "ruleset": rs.name})


@router.post("/api/scenarios/import")
def import_scenario(
    request: Request, body: Annotated[ImportBody, Depends(body_of(ImportBody))]
) -> Response:
    rs = rules.get(body.ruleset)
    try:
        s = user.import_text(_store(request), rs, body.name, body.text, body.replace)
    except user.ScenarioRefused as e:
        # the file's data comes back (nothing is kept): the page shows it, each problem beside
        # its element, to be mended and saved
        out = _refused(e)
        parsed, description = user.parse_toml(body.text)
        found = [p.to_json() for p in e.problems]
        data: dict[str, Any] | None = parsed
        try:
            json.dumps(parsed, allow_nan=False)
        except (TypeError, ValueError):
            # a value JSON cannot carry (TOML's nan or inf, a date): the refusal alone, not a
            # response that fails to be written ("cannot process this request (ValueError)")
            data = None
        return JSONResponse(
            {"error": str(e), "problems": found, "data": data, "description": description},
            status_code=out.status_code,
        )
    except VedetteError as e:
        return _refused(e)
    return JSONResponse({"saved": s.info(), "ruleset": rs.name})


@router.post("/api/scenarios/delete")
def delete_scenario(
    request: Request, body: Annotated[NameBody, Depends(body_of(NameBody))]
) -> dict[str, Any]:
    user.delete(_store(request), rules.get(body.ruleset), body.name)
    return {"deleted": body.name}


@router.get("/scenarios/{ruleset}/{name}/export")
def export_scenario(request: Request, ruleset: str, name: str) -> Response:
    rs = rules.get(ruleset)
    text = user.export(_store(request), rs, name)
    return Response(
        text,
        media_type="application/toml",
        headers={"Content-Disposition": attachment(name, ".toml")},
    )
