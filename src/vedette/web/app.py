"""The local web app: a thin shell over the same API as the CLI.

Every state-changing request is a POST carrying the page's CSRF token (a header for the
JavaScript calls, a form field for plain forms) that must match the cookie; a cross-site Origin
is refused. Uploads are size-limited and validated before anything is stored; no path from a
request ever reaches the file system (bundled scenarios are looked up by name in a dict).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from fastapi import FastAPI, File, Form, Request, UploadFile
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from vedette import rules
from vedette.data import load_toml_text
from vedette.engine import Game, Store
from vedette.errors import GameError, VedetteError
from vedette.rules.base import parse_value
from vedette.web import audit, boards
from vedette.web.sessions import Sessions

MAX_UPLOAD = 256 * 1024
CSRF_COOKIE = "vedette_csrf"
CSRF_HEADER = "x-csrf-token"

_HERE = resources.files("vedette.web")


def create_app(db_path: str | Path) -> FastAPI:
    """The app over the game database at ``db_path`` (``":memory:"`` is not shared)."""
    app = FastAPI(title="vedette", docs_url=None, redoc_url=None, openapi_url=None)
    templates = Jinja2Templates(directory=str(_HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static")
    token = secrets.token_urlsafe(24)
    sessions = Sessions(db_path)

    @contextmanager
    def store() -> Iterator[Store]:
        yield sessions.store()

    app.add_middleware(CsrfMiddleware, token=token)

    @app.exception_handler(VedetteError)
    async def vedette_error(request: Request, exc: VedetteError) -> JSONResponse:
        status = 404 if isinstance(exc, GameError) and "no game named" in str(exc) else 400
        return JSONResponse({"error": str(exc)}, status_code=status)

    def check_form(request: Request, sent: str) -> None:
        if request.scope.get("vedette.form_csrf") and not _token_ok(request, sent, token):
            raise Forbidden("missing or wrong CSRF token")

    @app.exception_handler(Forbidden)
    async def forbidden(request: Request, exc: Forbidden) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=403)

    def page(request: Request, name: str, **ctx: Any) -> HTMLResponse:
        return templates.TemplateResponse(request, name, {"csrf": token, **ctx})

    # -- pages --------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse)
    def index(request: Request, error: str = "") -> HTMLResponse:
        with store() as st:
            games = st.games()
        catalogue = []
        for name in rules.names():
            rs = rules.get(name)
            catalogue.append({"name": name, "title": rs.title, "scenarios": list(rs.scenarios)})
        return page(request, "index.html", games=games, catalogue=catalogue, error=error)

    @app.get("/ping", response_class=PlainTextResponse)
    def ping() -> str:
        """A static endpoint of the same app: the baseline of the web benchmark."""
        return "ok"

    @app.post("/games")
    async def new_game(
        request: Request,
        csrf: str = Form(""),
        name: str = Form(...),
        ruleset: str = Form(...),
        scenario: str = Form("sample"),
        seed: str = Form(""),
        options: str = Form(""),
        upload: UploadFile | None = File(None),
    ) -> Response:
        check_form(request, csrf)
        try:
            rs = rules.get(ruleset)
            if upload is not None and upload.filename:
                scen = load_toml_text(await _read_limited(upload), "uploaded scenario")
            else:
                scen = rs.scenario(scenario)
            with store() as st:
                Game.create(st, name.strip(), rs.name, scen, _seed(seed), _options(options))
        except VedetteError as e:
            return RedirectResponse(f"/?error={quote(str(e))}", status_code=303)
        return RedirectResponse(f"/games/{quote(name.strip())}", status_code=303)

    @app.post("/import")
    async def import_game(
        request: Request, upload: UploadFile = File(...), name: str = Form(""), csrf: str = Form("")
    ) -> Response:
        check_form(request, csrf)
        try:
            text = await _read_limited(upload)
            with store() as st:
                g = Game.import_jsonl(st, text, name.strip() or None)
        except VedetteError as e:
            return RedirectResponse(f"/?error={quote(str(e))}", status_code=303)
        return RedirectResponse(f"/games/{quote(g.name)}", status_code=303)

    @app.get("/games/{name}", response_class=HTMLResponse)
    def game_page(request: Request, name: str) -> HTMLResponse:
        with sessions.game(name) as g:
            procs = [
                {
                    "name": p.name,
                    "help": p.help,
                    "rule": p.rule,
                    "query": p.query,
                    "odds": p.odds is not None,
                    "params": [
                        {"name": x.name, "help": x.help, "kind": x.kind, "required": x.required}
                        for x in p.params
                    ],
                }
                for p in g.ruleset.procedures.values()
            ]
            return page(
                request,
                "game.html",
                game=g.name,
                ruleset=g.ruleset.name,
                title=g.ruleset.title,
                seed=g.seed,
                board=boards.svg(
                    g.ruleset.name, g.state, g.ruleset.state_json(g.state), g.render()
                ),
                procedures=procs,
                log=_log(g),
            )

    @app.get("/games/{name}/audit", response_class=HTMLResponse)
    def audit_page(request: Request, name: str) -> HTMLResponse:
        with sessions.game(name) as g:
            return page(request, "audit.html", game=g.name, audit=audit.dice_audit(g.log()))

    @app.get("/games/{name}/export")
    def export(name: str) -> Response:
        with sessions.game(name) as g:
            text = g.export_jsonl()
        fname = "".join(c if c.isalnum() or c in "-_" else "_" for c in g.name) or "game"
        return Response(
            text,
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="{fname}.jsonl"'},
        )

    @app.post("/games/{name}/rename")
    def rename(request: Request, name: str, new: str = Form(...), csrf: str = Form("")) -> Response:
        check_form(request, csrf)
        try:
            with store() as st:
                st.rename(name, new.strip())
            sessions.forget(name)
        except VedetteError as e:
            return RedirectResponse(f"/?error={quote(str(e))}", status_code=303)
        return RedirectResponse(f"/games/{quote(new.strip())}", status_code=303)

    # -- the JSON API the page uses -----------------------------------------------------
    @app.get("/api/games/{name}")
    def state(name: str) -> dict[str, Any]:
        with sessions.game(name) as g:
            return _view(g)

    @app.post("/api/games/{name}/odds")
    async def odds(name: str, request: Request) -> dict[str, Any]:
        body = await _json(request)
        with sessions.game(name) as g:
            found = g.odds(str(body.get("procedure", "")), _request(body))
            return {"odds": [o.to_json() for o in found]}

    @app.post("/api/games/{name}/perform")
    async def perform(name: str, request: Request) -> dict[str, Any]:
        body = await _json(request)
        faces = body.get("dice")
        dice = None
        if faces not in (None, "", []):
            from vedette.dice import parse_faces

            dice = parse_faces(faces) if isinstance(faces, str) else [int(f) for f in faces]
        with sessions.game(name) as g:
            outcome = g.perform(str(body.get("procedure", "")), _request(body), dice)
            return {"outcome": outcome.to_json(), "lines": outcome.lines(), **_view(g)}

    @app.post("/api/games/{name}/undo")
    def undo(name: str) -> dict[str, Any]:
        with sessions.game(name) as g:
            rec = g.undo()
            return {"undone": rec.payload["undoes"], **_view(g)}

    def _view(g: Game) -> dict[str, Any]:
        sj = g.ruleset.state_json(g.state)
        return {
            "game": g.name,
            "ruleset": g.ruleset.name,
            "board": boards.svg(g.ruleset.name, g.state, sj, g.render()),
            "text": g.render(),
            "log": _log(g),
        }

    return app


class CsrfMiddleware:
    """A pure ASGI middleware: every state-changing request must carry the page's token (in the
    ``X-CSRF-Token`` header, or for plain forms in a ``csrf`` field checked by the endpoint) and
    the matching SameSite=Strict cookie; a request from another origin is refused. GET responses
    set the cookie."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        method = scope["method"]
        if method not in ("GET", "HEAD", "OPTIONS"):
            origin = headers.get("origin")
            if origin and origin != "null" and urlsplit(origin).netloc != headers.get("host", ""):
                await JSONResponse({"error": "cross-site request refused"}, 403)(
                    scope, receive, send
                )
                return
            sent = headers.get(CSRF_HEADER)
            is_form = headers.get("content-type", "").startswith(
                ("application/x-www-form-urlencoded", "multipart/form-data")
            )
            if sent is None and is_form:
                scope["vedette.form_csrf"] = True
            elif not _token_ok(Request(scope), sent, self.token):
                await JSONResponse({"error": "missing or wrong CSRF token"}, 403)(
                    scope, receive, send
                )
                return
        cookie = (
            f"{CSRF_COOKIE}={self.token}; HttpOnly; Path=/; SameSite=strict".encode()
            if method == "GET"
            else None
        )

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = [
                    (b"x-content-type-options", b"nosniff"),
                    (b"x-frame-options", b"DENY"),
                ]
                if cookie is not None:
                    extra.append((b"set-cookie", cookie))
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        await self.app(scope, receive, send_with_headers)


class Forbidden(Exception):
    """A state-changing request without the page's CSRF token."""


def _token_ok(request: Request, sent: str | None, token: str) -> bool:
    return (
        bool(sent)
        and secrets.compare_digest(str(sent), token)
        and secrets.compare_digest(request.cookies.get(CSRF_COOKIE, ""), token)
    )


def _options(text: str) -> dict[str, Any]:
    """``variant=draft, officers=true`` -> a game's options (values typed as in the CLI)."""
    out: dict[str, Any] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise GameError(f"option {item.strip()!r}: write KEY=VALUE, e.g. variant=draft")
        out[key.strip()] = parse_value(value.strip())
    return out


def _seed(text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise GameError(f"seed must be a whole number, not {text!r}") from None


async def _read_limited(upload: UploadFile) -> str:
    data = await upload.read(MAX_UPLOAD + 1)
    if len(data) > MAX_UPLOAD:
        raise GameError(f"upload too large (limit {MAX_UPLOAD // 1024} KiB)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise GameError("upload is not UTF-8 text") from None


async def _json(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise GameError("request body is not JSON") from None
    if not isinstance(body, dict):
        raise GameError("request body must be a JSON object")
    return body


def _request(body: dict[str, Any]) -> dict[str, Any]:
    raw = body.get("request", {})
    if not isinstance(raw, dict):
        raise GameError("'request' must be an object")
    out: dict[str, Any] = {}
    for k, v in raw.items():
        if isinstance(v, str):
            if v.strip() == "":
                continue  # an empty form field is an omitted argument
            out[str(k)] = parse_value(v)
        else:
            out[str(k)] = v
    return out


def _log(g: Game) -> list[dict[str, Any]]:
    """The log, newest first: each action with its one-line rolls and full records."""
    undone = {r.seq for r in g.records if r.kind == "action"} - set(g.effective)
    out: list[dict[str, Any]] = []
    for r in g.records:
        p = r.payload
        if r.kind == "action":
            out.append(
                {
                    "seq": r.seq,
                    "kind": "action",
                    "procedure": p["procedure"],
                    "undone": r.seq in undone,
                    "lines": [x["line"] for x in p.get("rolls", [])]
                    + ([p["message"]] if p.get("message") else []),
                    "record": p,
                }
            )
        elif r.kind == "undo":
            out.append(
                {
                    "seq": r.seq,
                    "kind": "undo",
                    "lines": [f"undo #{p['undoes']}"],
                    "record": p,
                    "undone": False,
                    "procedure": "undo",
                }
            )
        else:
            out.append(
                {
                    "seq": r.seq,
                    "kind": r.kind,
                    "lines": [f"created (seed {p['seed']})"],
                    "record": {"ruleset": p["ruleset"], "seed": p["seed"]},
                    "undone": False,
                    "procedure": r.kind,
                }
            )
    return list(reversed(out))
