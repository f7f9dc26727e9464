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
import mimetypes
import os
import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, TypeVar
from urllib.parse import quote, urlsplit

from fastapi import Depends, FastAPI, File, Form, Query, Request, UploadFile
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
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from vedette import rules
from vedette.data import load_toml_text
from vedette.data.limits import check_tree
from vedette.engine import Game
from vedette.engine import scenarios as user_scenarios
from vedette.engine.names import default_stem, free_name
from vedette.errors import GameError, RuleViolation, VedetteError
from vedette.rules.base import parse_value
from vedette.schemas import Strict, validate
from vedette.web import aar, audit, boards, builder, simulate, views
from vedette.web import help as help_pages
from vedette.web.moves import board_view
from vedette.web.moves import highlight as event_highlight
from vedette.web.moves import router as moves_router
from vedette.web.sequences import LIMIT as SEQ_LIMIT
from vedette.web.sequences import MAX_LIMIT as SEQ_MAX_LIMIT
from vedette.web.sequences import router as sequences_router
from vedette.web.sessions import Sessions

log = logging.getLogger("vedette.web")
mimetypes.add_type("application/manifest+json", ".webmanifest")  # the app's web manifest

MAX_UPLOAD = 256 * 1024
#: the largest game export the web imports (issue 26): a 10,000-action game of the ruleset
#: whose records are longest with room to spare (bench_replay's players, measured: Kuryakin
#: 9.8 MB for 8,366 records, about 11.7 MB at 10,000; ASL 6.9 MB, NAB 5.3 MB, 2 by 2 5.2 MB at
#: 10,000). Read in chunks and checked as it comes (see _read_export)
MAX_IMPORT = 24 * 1024 * 1024
CSRF_COOKIE = "vedette_csrf"
CSRF_HEADER = "x-csrf-token"

_HERE = resources.files("vedette.web")


def create_app(
    db_path: str | Path,
    allowed_hosts: Sequence[str] | None = None,
    token: str | None = None,
    access: str | None = None,
) -> FastAPI:
    """The app over the game database at ``db_path`` (``":memory:"`` is not shared).

    ``allowed_hosts``: the host names it answers (default: the localhost names and those in
    ``VEDETTE_ALLOWED_HOSTS``). ``token``: the CSRF token (default: a new random one; the
    server processes of one ``vedette serve --workers N`` share theirs). ``access``: the
    secret a LAN server asks of every request (``vedette serve --host`` a network address):
    given once in the first URL (``?token=...``), then carried by a cookie.

    Every endpoint that runs rules code or writes to SQLite is a plain ``def`` (FastAPI runs it
    in its thread pool, so one long adjudication never stalls the others); a game is written by
    one request at a time and read by many (:class:`~vedette.web.sessions.Sessions`)."""
    app = FastAPI(
        title="vedette", docs_url=None, redoc_url=None, openapi_url=None, lifespan=_lifespan
    )
    templates = Jinja2Templates(directory=str(_HERE / "templates"))
    app.mount("/static", StaticFiles(directory=str(_HERE / "static")), name="static")
    token = token or secrets.token_urlsafe(24)
    sessions = Sessions(db_path)
    app.state.sessions = sessions
    app.state.templates = templates
    app.state.csrf = token

    hosts = tuple(allowed_hosts) if allowed_hosts is not None else allowed_hosts_from_env()
    # answers compressed where the browser takes it (a board's SVG shrinks about 6x); inside
    # the security layer, so every answer it sends is one the security layer let through
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    app.add_middleware(SecurityMiddleware, token=token, hosts=hosts, access=access)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        """The app's icon (browsers ask for it on every page: no 404 in the console)."""
        icon = (_HERE / "static" / "icon.svg").read_bytes()
        return Response(
            icon, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"}
        )

    def page(request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        return templates.TemplateResponse(request, name, {"csrf": token, **ctx}, status_code=status)

    def error(request: Request, status: int, text: str) -> Response:
        """JSON for the API (and the scripts' POSTs), an HTML page for a browser route."""
        path = request.url.path
        if path.startswith("/api/") or request.method != "GET" or path.startswith("/static/"):
            return JSONResponse({"error": text}, status_code=status)
        return page(request, "error.html", status=status, status_code=status, error=text)

    @app.exception_handler(VedetteError)
    async def vedette_error(request: Request, exc: VedetteError) -> Response:
        return error(request, _status(exc), one_line(exc))

    @app.exception_handler(RequestValidationError)
    async def bad_form(request: Request, exc: RequestValidationError) -> JSONResponse:
        errs = exc.errors()
        where = ".".join(str(p) for p in errs[0].get("loc", ())[1:]) if errs else ""
        msg = str(errs[0].get("msg", "invalid")) if errs else "invalid"
        return JSONResponse({"error": one_line(f"{where}: {msg}" if where else msg)}, 422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        text = "no such page" if exc.detail == "Not Found" else str(exc.detail)
        return error(request, exc.status_code, one_line(text))

    def check_form(request: Request, sent: str) -> None:
        if request.scope.get("vedette.form_csrf") and not _token_ok(request, sent, token):
            raise Forbidden("missing or wrong CSRF token")

    @app.exception_handler(Forbidden)
    async def forbidden(request: Request, exc: Forbidden) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=403)

    # -- pages --------------------------------------------------------------------------
    def index_page(
        request: Request, error: str = "", status: int = 200, **ctx: Any
    ) -> HTMLResponse:
        games = sessions.store().games()
        catalogue = []
        for name in rules.names():
            rs = rules.get(name)
            infos = user_scenarios.infos(sessions.store(), rs)  # bundled, then yours
            catalogue.append(
                {
                    "name": name,
                    "title": rs.title,
                    "scenarios": [i["name"] for i in infos],
                    "titles": {i["name"]: i["title"] for i in infos},
                    "yours": [i for i in infos if i["yours"]],
                }
            )
        lan = None
        if access is not None:  # LAN mode: the address a phone opens, token and all, as a QR code
            from vedette.web.qr import data_uri

            url = f"{str(request.base_url).rstrip('/')}/?token={access}"
            lan = {"url": url, "qr": data_uri(url)}
        return page(
            request,
            "index.html",
            status,
            games=games,
            catalogue=catalogue,
            error=error,
            lan=lan,
            **ctx,
        )

    @app.get("/", response_class=HTMLResponse)
    def index(request: Request, error: str = "", deleted: str = "") -> HTMLResponse:
        return index_page(request, error, deleted=deleted)

    @app.get("/ping", response_class=PlainTextResponse)
    async def ping() -> str:
        """A static endpoint of the same app: the baseline of the web benchmark. Answered on
        the event loop itself (nothing in it blocks), as the static files are: what the
        benchmark checks is that rules work in the thread pool never holds the loop up."""
        return "ok"

    @app.get("/api/csrf")
    def csrf_token() -> dict[str, str]:
        """The page's token again (with its cookie): a tab left open across a restart of the
        server fetches it and retries its action once."""
        return {"token": token}

    @app.post("/games")
    def new_game(
        request: Request,
        csrf: str = Form(""),
        name: str = Form(""),
        ruleset: str = Form(...),
        scenario: str = Form("sample"),
        seed: str = Form(""),
        options: str = Form(""),
        upload: UploadFile | None = File(None),
    ) -> Response:
        check_form(request, csrf)
        kept = {"name": name, "ruleset": ruleset, "scenario": scenario, "seed": seed}
        kept["options"] = options
        try:
            rs = rules.get(ruleset)
            if upload is not None and upload.filename:
                scen = load_toml_text(_read_limited(upload), "uploaded scenario")
            else:  # a bundled scenario, else one of yours (the builder's)
                scen = user_scenarios.scenario_data(sessions.store(), rs, scenario)
            store = sessions.store()
            name = name.strip() or free_name(store, default_stem(rs))  # named for the player
            Game.create(store, name, rs.name, scen, _seed(seed), _options(options))
        except VedetteError as e:
            return index_page(request, status=_status(e), new_error=one_line(e), kept=kept)
        return RedirectResponse(f"/games/{quote(name)}", status_code=303)

    @app.post("/import")
    def import_game(
        request: Request, upload: UploadFile = File(...), name: str = Form(""), csrf: str = Form("")
    ) -> Response:
        check_form(request, csrf)
        try:
            text = _read_export(upload)
            g = Game.import_jsonl(sessions.store(), text, name.strip() or None)
        except VedetteError as e:
            return index_page(
                request, status=_status(e), import_error=one_line(e), kept={"import_name": name}
            )
        return RedirectResponse(f"/games/{quote(g.name)}", status_code=303)

    def game_view(request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        with sessions.game(name) as g:
            view = views.view(g, _board(g))
            return page(
                request,
                "game.html",
                status,
                game=g.name,
                ruleset=g.ruleset.name,
                title=g.ruleset.title,
                seed=g.seed,
                physical=g.physical,
                board=view["board"],
                procedures=views.procedures(g),
                sequences=views.sequences(g),
                seq_limits=(SEQ_LIMIT, SEQ_MAX_LIMIT),
                todo=view["todo"],
                state={
                    "seq": view["seq"],
                    "log": view["log"],
                    "more": len(g.records) > len(view["log"]),
                    "undone_seqs": view["undone_seqs"],
                    "todo": view["todo"],
                },
                **ctx,
            )

    @app.get("/games/{name}", response_class=HTMLResponse)
    def game_page(request: Request, name: str) -> HTMLResponse:
        return game_view(request, name)

    @app.get("/games/{name}/audit", response_class=HTMLResponse)
    def audit_page(request: Request, name: str) -> HTMLResponse:
        with sessions.game(name) as g:
            found = audit.dice_audit(g.log())
            return page(request, "audit.html", game=g.name, audit=audit.with_charts(found))

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
            with sessions.game(name, write=True) as g:
                g.store.rename(name, new.strip())
            sessions.forget_name(name)
        except VedetteError as e:
            if "no game named" in str(e):
                raise
            return game_view(request, name, _status(e), rename_error=one_line(e), rename_to=new)
        return RedirectResponse(f"/games/{quote(new.strip())}", status_code=303)

    @app.post("/games/{name}/delete")
    def delete(
        request: Request, name: str, confirm: str = Form(""), csrf: str = Form("")
    ) -> Response:
        """Delete a game: the form must repeat the game's name (the page asks first)."""
        check_form(request, csrf)
        if confirm != name:
            return game_view(
                request, name, 400, delete_error="to delete, confirm with the game's exact name"
            )
        with sessions.game(name, write=True) as g:
            g.store.delete(name)
        sessions.forget_name(name)
        return RedirectResponse(f"/?deleted={quote(name)}", status_code=303)

    # -- the JSON API the page uses -----------------------------------------------------
    @app.get("/api/games/{name}")
    def state(
        name: str, since: Annotated[int | None, Query(ge=0, le=MAX_SEQ)] = None
    ) -> dict[str, Any]:
        with sessions.game(name) as g:
            return views.view(g, _board(g, since is None), since)

    @app.get("/api/games/{name}/log")
    def log_page(name: str, before: int | None = None, limit: int = views.PAGE) -> dict[str, Any]:
        with sessions.game(name) as g:
            return views.log_page(g, before, max(1, min(limit, 500)))

    @app.get("/api/games/{name}/log/{seq}")
    def log_record(name: str, seq: int) -> dict[str, Any]:
        """One entry's full record as key/value rows (the page asks when it is opened)."""
        with sessions.game(name) as g:
            found = [r for r in g.records if r.seq == seq]
            if not found:
                raise GameError(f"game {g.name!r} has no log entry #{seq}")
            return {"seq": seq, "rows": views.record_rows(found[0])}

    @app.post("/api/games/{name}/odds")
    def odds(name: str, body: Annotated[OddsBody, Depends(json_body(OddsBody))]) -> dict[str, Any]:
        with sessions.game(name) as g:
            try:
                found = g.odds(body.procedure, _request(body.request))
            except RuleViolation as e:
                # odds are a question, and "none now, because..." is its answer: a 200 the
                # page shows in words, not a failed request in the console (issue 26.9)
                return {"odds": [], "refused": one_line(e), "reference": _reference(g, body)}
            return {"odds": [o.to_json() for o in found], "reference": _reference(g, body)}

    @app.post("/api/games/{name}/perform")
    def perform(
        name: str, body: Annotated[PerformBody, Depends(json_body(PerformBody))]
    ) -> dict[str, Any]:
        dice = None
        if body.dice not in (None, "", []):
            from vedette.dice import parse_faces

            dice = parse_faces(body.dice) if isinstance(body.dice, str) else list(body.dice or [])
        with sessions.game(name, write=True) as g:
            before = g.state
            outcome = g.perform(body.procedure, _request(body.request), dice)
            changes = _table_changes(g, before, outcome.events)
            return {
                "outcome": outcome.to_json(),
                "lines": outcome.lines(),
                "table_changes": changes,
                "highlight": _highlight(g, body.request, event_highlight(g)),
                **views.view(g, _board(g, body.since is None), body.since),
                "board_info": board_view(g, svg=False),
            }

    @app.post("/api/games/{name}/undo")
    def undo(name: str, body: Annotated[UndoBody, Depends(json_body(UndoBody, True))]) -> Any:
        with sessions.game(name, write=True) as g:
            rec = g.undo()
            view = views.view(g, _board(g, body.since is None), body.since)
            return {"undone": rec.payload["undoes"], **view, "board_info": board_view(g, svg=False)}

    app.include_router(sequences_router)
    app.include_router(moves_router)

    app.include_router(aar.router)
    app.include_router(help_pages.router)
    app.include_router(simulate.router)
    app.include_router(builder.router)  # your own scenarios (issue 30)
    return app


#: how many requests of one server process run rules code at once (its thread pool's size):
#: Python runs one thread at a time, and each SQLite call hands the interpreter over, so twenty
#: threads at once take turns at every call and each request's time grows with the crowd; two
#: at a time, the others wait in line and each one, once started, runs at its own pace
#: (bench/bench_web.py). More cores: more server processes (``vedette serve --workers``).
THREADS = 2
#: threads for work that may take seconds (the odds of a whole sequence), apart from those
LONG_WORK = 4


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    import anyio.to_thread

    anyio.to_thread.current_default_thread_limiter().total_tokens = THREADS
    yield


def _board(g: Game, inline: bool = True) -> str:
    """The game's board; its static layers (the map) as empty slots unless ``inline``: the
    answer to a page that sent its seq, which shows the map already (app.js keeps it)."""
    return boards.svg(g.ruleset.name, g.state, g.ruleset.state_json(g.state), g.render, inline)


def _highlight(g: Game, request: dict[str, Any], changed: Sequence[str] = ()) -> list[str]:
    """What the board shows picked out after an action: the pieces and places its request
    named (ids of the game's things, and hex or location ids among its values), then those its
    events changed (``moves.highlight``)."""
    ids = set(g.ruleset.entity_ids(g.state))
    out: list[str] = []
    for v in request.values():
        for x in v if isinstance(v, list) else [v]:
            if isinstance(x, str) and x and x not in out and (x in ids or _PLACE.match(x)):
                out.append(x)
    out += [x for x in dict.fromkeys(changed) if x not in out]
    return out


#: a hex or location id as the map rulesets write them (W2020, 4P5)
_PLACE = re.compile(r"^[A-Z]?\d{1,2}[A-Z]{0,2}\d{1,4}$")


def _table_changes(g: Game, before: Any, events: Sequence[Any]) -> list[str]:
    """What to change on the real table, in words (``Ruleset.table_changes``, when it has it)."""
    fn = getattr(g.ruleset, "table_changes", None)
    if fn is None:
        return []
    try:
        return [str(x) for x in fn(before, list(events))]
    except Exception:  # words about the table must never fail an action already written
        log.exception("table_changes failed")
        return []


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
FORM_ROUTES = re.compile(r"^/(games|import|games/[^/]+/(rename|delete))$")
#: the largest request body (uploads included; a scenario upload is at most MAX_UPLOAD)
MAX_BODY = 2 * MAX_UPLOAD + 64 * 1024


def body_limit(path: str) -> int:
    """The largest body a route takes: a game's import takes an export (MAX_IMPORT)."""
    return MAX_IMPORT + 64 * 1024 if path == "/import" else MAX_BODY


#: the largest JSON body of the API
MAX_JSON = 64 * 1024
#: the largest record number a parameter may name (a log never reaches it)
MAX_SEQ = 2**62


def allowed_hosts_from_env() -> tuple[str, ...]:
    """``VEDETTE_ALLOWED_HOSTS`` (comma separated) adds host names for a LAN; the localhost
    names are always allowed."""
    extra = os.environ.get("VEDETTE_ALLOWED_HOSTS", "")
    return LOCAL_HOSTS + tuple(h.strip().lower() for h in extra.split(",") if h.strip())


#: a Host header: a name or IPv4 address, or a bracketed IPv6 address, then at most a port
_HOST = re.compile(r"(?:\[([0-9a-f:.]+)\]|([a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?))(?::[0-9]{1,5})?")


def host_name(host: str) -> str:
    """The name of a Host header without its port (``[::1]:8765`` -> ``::1``); '' when it is
    not strictly a host and a port (``127.0.0.1:8765.evil.example`` names no allowed host)."""
    host = host.strip().lower()
    m = _HOST.fullmatch(host)
    if m is None:  # a bare IPv6 address (no port) is its own name
        import ipaddress

        try:
            return str(ipaddress.IPv6Address(host)) if host == host.strip("[]") else ""
        except ValueError:
            return ""
    return m.group(1) or m.group(2) or ""


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

    def __init__(
        self, app: ASGIApp, token: str, hosts: tuple[str, ...], access: str | None = None
    ) -> None:
        self.app = app
        self.token = token
        self.hosts = frozenset(h.lower() for h in hosts)
        self.access = access

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        method = scope["method"]
        started = False
        passed = False  # the cookie goes only with answers to requests that passed the checks
        cookie = f"{CSRF_COOKIE}={self.token}; HttpOnly; Path=/; SameSite=strict".encode()

        began = time.perf_counter()

        async def send_secure(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                extra = list(SECURITY_HEADERS)
                # the time the app took (devtools show it; bench/bench_web.py reads it)
                ms = (time.perf_counter() - began) * 1e3
                extra.append((b"server-timing", f"app;dur={ms:.1f}".encode()))
                if method == "GET" and passed:
                    extra.append((b"set-cookie", cookie))
                message["headers"] = list(message.get("headers", [])) + extra
            await send(message)

        async def refuse(status: int, error: str) -> None:
            await JSONResponse({"error": error}, status)(scope, receive, send_secure)

        if host_name(headers.get("host", "")) not in self.hosts:
            await refuse(400, "unknown host (allow it with --allow-host or VEDETTE_ALLOWED_HOSTS)")
            return
        if self.access is not None:
            given = _access_given(scope, headers)
            if given is None or not secrets.compare_digest(given.encode(), self.access.encode()):
                await refuse(
                    403,
                    "this server asks for its access token: open the URL it printed when it"
                    " started (…/?token=...)",
                )
                return
            if _query_token(scope) is not None:  # the first visit: the token becomes a cookie
                where = scope["path"] if scope["path"].startswith("/") else "/"
                response = Response(status_code=303, headers={"location": where})
                response.set_cookie(
                    ACCESS_COOKIE, self.access, httponly=True, samesite="strict", path="/"
                )
                await response(scope, receive, send_secure)
                return
        limit = body_limit(scope["path"])
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
            if length is not None and (not length.isdigit() or int(length) > limit):
                await refuse(413, f"request too large (limit {limit // 1024} KiB)")
                return
        passed = True
        seen = 0

        async def receive_limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise TooLarge
            return message

        try:
            await self.app(scope, receive_limited, send_secure)
        except TooLarge:
            if not started:
                await refuse(413, f"request too large (limit {limit // 1024} KiB)")
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


#: the cookie a LAN server's access token is kept in once given (``create_app(access=...)``)
ACCESS_COOKIE = "vedette_access"


def _query_token(scope: Scope) -> str | None:
    from urllib.parse import parse_qs

    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token")
    return values[0] if values else None


def _access_given(scope: Scope, headers: Headers) -> str | None:
    """The access token a request carries: in its URL (the first visit) or its cookie."""
    q = _query_token(scope)
    if q is not None:
        return q
    for part in headers.get("cookie", "").split(";"):
        name, _, value = part.strip().partition("=")
        if name == ACCESS_COOKIE:
            return value
    return None


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


def _read_limited(upload: UploadFile) -> str:
    data = upload.file.read(MAX_UPLOAD + 1)
    if len(data) > MAX_UPLOAD:
        raise GameError(f"upload too large (limit {MAX_UPLOAD // 1024} KiB)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise GameError("upload is not UTF-8 text") from None


def _reference(g: Game, body: OddsBody) -> list[dict[str, Any]]:
    """The quick-reference sheet's part for the action whose odds are asked (issue 26), the
    game's house rules applied."""
    from vedette.rules.quickref import relevant

    house = g.created.get("house_rules") or None
    return [s.to_json() for s in relevant(g.ruleset, body.procedure, house)]


def _read_export(upload: UploadFile, chunk: int = 256 * 1024) -> str:
    """An uploaded game export, read a chunk at a time and checked as it comes: refused as
    soon as it passes MAX_IMPORT, holds bytes that are not UTF-8, or its first line is not an
    export's head line (a wrong file is refused at its first line, not at its end)."""
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")()
    parts: list[str] = []
    size = 0
    head = False
    while True:
        data = upload.file.read(chunk)
        size += len(data)
        if size > MAX_IMPORT:
            raise GameError(f"upload too large (limit {MAX_IMPORT // 1024 // 1024} MiB)")
        try:
            parts.append(decoder.decode(data, final=not data))
        except UnicodeDecodeError:
            raise GameError("upload is not UTF-8 text") from None
        if not head and ("\n" in parts[-1] or not data or size > MAX_UPLOAD):
            _check_export_head("".join(parts).split("\n", 1)[0])
            head = True
        if not data:
            return "".join(parts)


def _check_export_head(line: str) -> None:
    """The first line of a game export names its format (engine/session.py)."""
    from vedette.engine.session import EXPORT_FORMAT

    try:
        first = json.loads(line)
    except ValueError:
        first = None
    if not isinstance(first, dict) or first.get("format") != EXPORT_FORMAT:
        raise GameError(
            f"not a vedette game export (first line must have format={EXPORT_FORMAT!r})"
        )


class OddsBody(Strict):
    procedure: str = Field(max_length=64)
    request: dict[str, Any] = Field(default_factory=dict)
    #: the last log entry the page has: the answer carries only the entries after it
    since: int | None = Field(default=None, ge=0, le=MAX_SEQ)


class PerformBody(OddsBody):
    dice: (
        Annotated[str, Field(max_length=200)]
        | Annotated[list[Annotated[int, Field(ge=-1000, le=1000)]], Field(max_length=100)]
        | None
    ) = None


class UndoBody(Strict):
    since: int | None = Field(default=None, ge=0, le=MAX_SEQ)


B = TypeVar("B", bound=Strict)


def json_body(model: type[B], empty_ok: bool = False) -> Callable[[Request], Awaitable[B]]:
    """A dependency reading the body as ``model`` (async: the endpoint itself stays a plain
    ``def`` in the thread pool)."""

    async def read(request: Request) -> B:
        return await _json(request, model, empty_ok)

    return read


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
    except ValueError:  # (an integer of thousands of digits)
        raise GameError("request body holds a number of too many digits") from None
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
    from vedette.engine.store import StorageError

    if isinstance(exc, StorageError):
        return 503  # (the disk refused the write: nothing was written)
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
