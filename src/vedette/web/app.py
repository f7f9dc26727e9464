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

import logging
import mimetypes
import os
import re
import secrets
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import quote, urlsplit

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from vedette.errors import VedetteError
from vedette.web import aar, api, builder, pages, simulate
from vedette.web import help as help_pages
from vedette.web.common import (  # (MAX_UPLOAD, MAX_IMPORT: the limits tests and docs name)
    CSRF_COOKIE,
    CSRF_HEADER,
    HERE,
    MAX_IMPORT,
    MAX_UPLOAD,
    TEMPLATES,
    THREADS,
    Forbidden,
    one_line,
    page,
    status_of,
    token_ok,
)
from vedette.web.moves import router as moves_router
from vedette.web.sequences import router as sequences_router
from vedette.web.sessions import Sessions

__all__ = ["MAX_IMPORT", "MAX_UPLOAD", "create_app", "host_name"]

log = logging.getLogger("vedette.web")
mimetypes.add_type("application/manifest+json", ".webmanifest")  # the app's web manifest


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
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    token = token or secrets.token_urlsafe(24)
    app.state.sessions = Sessions(db_path)
    app.state.templates = TEMPLATES
    app.state.csrf = token
    app.state.access = access

    hosts = tuple(allowed_hosts) if allowed_hosts is not None else allowed_hosts_from_env()
    # answers compressed where the browser takes it (a board's SVG shrinks about 6x); inside
    # the security layer, so every answer it sends is one the security layer let through
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    app.add_middleware(SecurityMiddleware, token=token, hosts=hosts, access=access)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        """The app's icon (browsers ask for it on every page: no 404 in the console)."""
        icon = (HERE / "static" / "icon.svg").read_bytes()
        return Response(
            icon, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"}
        )

    def error(request: Request, status: int, text: str) -> Response:
        """JSON for the API (and the scripts' POSTs), an HTML page for a browser route."""
        path = request.url.path
        if path.startswith("/api/") or request.method != "GET" or path.startswith("/static/"):
            return JSONResponse({"error": text}, status_code=status)
        return page(request, "error.html", status=status, status_code=status, error=text)

    @app.exception_handler(VedetteError)
    async def vedette_error(request: Request, exc: VedetteError) -> Response:
        return error(request, status_of(exc), one_line(exc))

    @app.exception_handler(RequestValidationError)
    async def bad_form(request: Request, exc: RequestValidationError) -> Response:
        """A field missing or of the wrong type: 422, a page for a browser's GET (an address
        typed or bookmarked without its query), JSON for the API."""
        errs = exc.errors()
        where = ".".join(str(p) for p in errs[0].get("loc", ())[1:]) if errs else ""
        msg = str(errs[0].get("msg", "invalid")) if errs else "invalid"
        return error(request, 422, one_line(f"{where}: {msg}" if where else msg))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        text = "no such page" if exc.detail == "Not Found" else str(exc.detail)
        return error(request, exc.status_code, one_line(text))

    @app.exception_handler(Forbidden)
    async def forbidden(request: Request, exc: Forbidden) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=403)

    @app.get("/ping", response_class=PlainTextResponse)
    async def ping() -> str:
        """A static endpoint of the same app: the baseline of the web benchmark. Answered on
        the event loop itself (nothing in it blocks), as the static files are: what the
        benchmark checks is that rules work in the thread pool never holds the loop up."""
        return "ok"

    app.include_router(pages.router)  # the pages and their plain forms
    app.include_router(api.router)  # the JSON API the game page uses
    app.include_router(sequences_router)
    app.include_router(moves_router)
    app.include_router(aar.router)
    app.include_router(help_pages.router)
    app.include_router(simulate.router)
    app.include_router(builder.router)  # your own scenarios (issue 30)
    return app


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    import anyio.to_thread

    anyio.to_thread.current_default_thread_limiter().total_tokens = THREADS
    yield


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
        self.hosts = frozenset(h.lower() for h in hosts if h)  # ('': a Host that names none)
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
                where = _same_site_path(scope["path"])
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
            elif not token_ok(Request(scope), sent, self.token):
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


#: the cookie a LAN server's access token is kept in once given (``create_app(access=...)``)
ACCESS_COOKIE = "vedette_access"


def _same_site_path(path: str) -> str:
    """``path`` as a Location on this site: one leading slash (``//evil.example``,
    ``/\\evil.example`` and ``///evil.example`` are other sites to a browser), quoted (a game
    name in any script travels in a header, which holds Latin-1 only)."""
    return quote("/" + path.lstrip("/\\"), safe="/")


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
