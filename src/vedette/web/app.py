"""The local web app: a thin shell over the same API as the CLI.

It answers only the host names it is told (localhost by default: a DNS-rebinding page is
refused). Every state-changing request is a same-origin POST carrying the page's CSRF token (a
header for the JavaScript calls, a form field for the three plain forms) that must match the
cookie, whatever its content type. Pages carry a strict Content-Security-Policy (no inline
script) and every string in them is escaped by construction (autoescaped templates, SVG built as
a tree). Uploads and bodies are size-limited and validated by schemas before anything is stored;
no path from a request ever reaches the file system (bundled scenarios are looked up by name in
a dict). An unexpected error is one JSON line with a 4xx status, never a traceback.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, TypeVar
from urllib.parse import quote, urlsplit

from fastapi import FastAPI, File, Form, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import Field
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from vedette import rules
from vedette.data import load_toml_text
from vedette.engine import Game, Store
from vedette.errors import GameError, VedetteError
from vedette.rules.base import parse_value
from vedette.schemas import Strict, check_tree, validate
from vedette.web import audit, boards
from vedette.web.sequences import router as sequences_router
from vedette.web.sessions import Sessions

log = logging.getLogger("vedette.web")

MAX_UPLOAD = 256 * 1024
CSRF_COOKIE = "vedette_csrf"
CSRF_HEADER = "x-csrf-token"

_HERE = resources.files("vedette.web")


def create_app(db_path: str | Path, allowed_hosts: Sequence[str] | None = None) -> FastAPI:
    """The app over the game database at ``db_path`` (``":memory:"`` is not shared).

    ``allowed_hosts``: the host names it answers (default: the localhost names and those in
    ``VEDETTE_ALLOWED_HOSTS``)."""
    app = FastAPI(title="vedette", docs_url=None, redoc_url=None, openapi_url=None)
    templates = Jinja2Templates(directory=str(_HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static")
    token = secrets.token_urlsafe(24)
    sessions = Sessions(db_path)
    app.state.sessions = sessions

    @contextmanager
    def store() -> Iterator[Store]:
        yield sessions.store()

    hosts = tuple(allowed_hosts) if allowed_hosts is not None else allowed_hosts_from_env()
    app.add_middleware(SecurityMiddleware, token=token, hosts=hosts)

    @app.exception_handler(VedetteError)
    async def vedette_error(request: Request, exc: VedetteError) -> JSONResponse:
        return JSONResponse({"error": one_line(exc)}, status_code=_status(exc))

    @app.exception_handler(RequestValidationError)
    async def bad_form(request: Request, exc: RequestValidationError) -> JSONResponse:
        errs = exc.errors()
        where = ".".join(str(p) for p in errs[0].get("loc", ())[1:]) if errs else ""
        msg = str(errs[0].get("msg", "invalid")) if errs else "invalid"
        return JSONResponse({"error": one_line(f"{where}: {msg}" if where else msg)}, 422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": one_line(str(exc.detail))}, exc.status_code)

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
            sessions.forget_name(name)
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
        body = await _json(request, OddsBody)
        with sessions.game(name) as g:
            found = g.odds(body.procedure, _request(body.request))
            return {"odds": [o.to_json() for o in found]}

    @app.post("/api/games/{name}/perform")
    async def perform(name: str, request: Request) -> dict[str, Any]:
        body = await _json(request, PerformBody)
        dice = None
        if body.dice not in (None, "", []):
            from vedette.dice import parse_faces

            dice = parse_faces(body.dice) if isinstance(body.dice, str) else list(body.dice or [])
        with sessions.game(name) as g:
            outcome = g.perform(body.procedure, _request(body.request), dice)
            return {"outcome": outcome.to_json(), "lines": outcome.lines(), **_view(g)}

    @app.post("/api/games/{name}/undo")
    async def undo(name: str, request: Request) -> dict[str, Any]:
        await _json(request, UndoBody, empty_ok=True)
        with sessions.game(name) as g:
            rec = g.undo()
            return {"undone": rec.payload["undoes"], **_view(g)}

    app.include_router(sequences_router)

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


#: what a page may load: its own scripts, styles and images only; never framed
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
    " frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
#: the host names the app answers by default (a DNS-rebinding page has another name)
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
#: the routes that take plain HTML forms (their token is a form field, checked by the route)
FORM_ROUTES = re.compile(r"^/(games|import|games/[^/]+/rename)$")
#: the largest request body (uploads included; a scenario upload is at most MAX_UPLOAD)
MAX_BODY = 2 * MAX_UPLOAD + 64 * 1024
#: the largest JSON body of the API
MAX_JSON = 64 * 1024


def allowed_hosts_from_env() -> tuple[str, ...]:
    """``VEDETTE_ALLOWED_HOSTS`` (comma separated) adds host names for a LAN; the localhost
    names are always allowed."""
    extra = os.environ.get("VEDETTE_ALLOWED_HOSTS", "")
    return LOCAL_HOSTS + tuple(h.strip().lower() for h in extra.split(",") if h.strip())


def host_name(host: str) -> str:
    """The name of a Host header without its port (``[::1]:8765`` -> ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class TooLarge(Exception):
    """A request body over the limit."""


class SecurityMiddleware:
    """A pure ASGI middleware in front of every route:

    * the Host header must name an allowed host (localhost by default): a DNS-rebinding page
      never gets a page, a token or a cookie;
    * every request that is not GET/HEAD must come from the same origin (``Origin: null`` and
      other sites are refused; so is ``Sec-Fetch-Site: cross-site``) and carry the page's CSRF
      token and its SameSite=Strict cookie, whatever its content type: in the ``X-CSRF-Token``
      header, or for the plain HTML forms (and only there) in a ``csrf`` field the route checks;
    * bodies are size-limited (413);
    * every response carries a strict Content-Security-Policy (no inline script), nosniff, a
      Referrer-Policy and ``frame-ancestors 'none'``;
    * an unexpected exception is answered with one JSON line (422), never a traceback.
    """

    def __init__(self, app: ASGIApp, token: str, hosts: tuple[str, ...]) -> None:
        self.app = app
        self.token = token
        self.hosts = frozenset(h.lower() for h in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        method = scope["method"]
        started = False
        passed = False  # the cookie goes only with answers to requests that passed the checks
        cookie = f"{CSRF_COOKIE}={self.token}; HttpOnly; Path=/; SameSite=strict".encode()

        async def send_secure(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                extra = list(SECURITY_HEADERS)
                if method == "GET" and passed:
                    extra.append((b"set-cookie", cookie))
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        async def refuse(status: int, error: str) -> None:
            await JSONResponse({"error": error}, status)(scope, receive, send_secure)

        if host_name(headers.get("host", "")) not in self.hosts:
            await refuse(400, "unknown host (allow it with --allow-host or VEDETTE_ALLOWED_HOSTS)")
            return
        if method not in ("GET", "HEAD"):
            problem = self._cross_site(headers, scope)
            if problem:
                await refuse(403, problem)
                return
            sent = headers.get(CSRF_HEADER)
            if sent is None and method == "POST" and FORM_ROUTES.match(scope["path"]):
                scope["vedette.form_csrf"] = True  # the route checks the form's field
            elif not _token_ok(Request(scope), sent, self.token):
                await refuse(403, "missing or wrong CSRF token")
                return
            length = headers.get("content-length")
            if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
                await refuse(413, f"request too large (limit {MAX_BODY // 1024} KiB)")
                return
        passed = True
        seen = 0

        async def receive_limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > MAX_BODY:
                    raise TooLarge
            return message

        try:
            await self.app(scope, receive_limited, send_secure)
        except TooLarge:
            if not started:
                await refuse(413, f"request too large (limit {MAX_BODY // 1024} KiB)")
        except Exception as e:  # never a traceback for input, whatever it was
            log.exception("unexpected error on %s %s", method, scope.get("path"))
            if not started:
                await refuse(422, f"cannot process this request ({type(e).__name__})")

    @staticmethod
    def _cross_site(headers: Headers, scope: Scope) -> str:
        origin = headers.get("origin")
        if origin is not None:
            if origin == "null":
                return "cross-site request refused (Origin: null)"
            parts = urlsplit(origin)
            if parts.netloc.lower() != headers.get("host", "").lower():
                return "cross-site request refused"
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return "cross-site request refused"
        return ""


class Forbidden(Exception):
    """A state-changing request without the page's CSRF token."""


def _token_ok(request: Request, sent: str | None, token: str) -> bool:
    return (
        bool(sent)
        and secrets.compare_digest(str(sent).encode(), token.encode())
        and secrets.compare_digest(request.cookies.get(CSRF_COOKIE, "").encode(), token.encode())
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


class OddsBody(Strict):
    procedure: str = Field(max_length=64)
    request: dict[str, Any] = Field(default_factory=dict)


class PerformBody(OddsBody):
    dice: (
        Annotated[str, Field(max_length=200)]
        | Annotated[list[Annotated[int, Field(ge=-1000, le=1000)]], Field(max_length=100)]
        | None
    ) = None


class UndoBody(Strict):
    pass


B = TypeVar("B", bound=Strict)


async def _json(request: Request, model: type[B], empty_ok: bool = False) -> B:
    """A JSON request body, size-limited and checked against its model (unknown keys refused,
    bounded nesting and sizes)."""
    raw = await request.body()
    if len(raw) > MAX_JSON:
        raise GameError(f"request body too large (limit {MAX_JSON // 1024} KiB)")
    if empty_ok and not raw.strip():
        return model.model_validate({})
    try:
        body = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise GameError("request body is not JSON") from None
    if not isinstance(body, dict):
        raise GameError("request body must be a JSON object")
    return validate(model, body, "request body")


def _request(raw: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in raw.items():
        if isinstance(v, str):
            if v.strip() == "":
                continue  # an empty form field is an omitted argument
            out[str(k)] = parse_value(v)
        else:
            out[str(k)] = v
    check_tree(out, "request")
    return out


def _status(exc: VedetteError) -> int:
    text = str(exc)
    if isinstance(exc, GameError) and "no game named" in text:
        return 404
    if isinstance(exc, GameError) and ("already exists" in text or "changed while" in text):
        return 409
    if "too large" in text:
        return 413
    return 400


def one_line(error: object) -> str:
    text = str(error).strip()
    return (text.splitlines() or [""])[0][:500]


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
