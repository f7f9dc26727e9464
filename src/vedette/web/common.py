"""What the web app's routers share (web/app.py builds the app from them): the limits, the
request bodies and how they are read, errors as one line and their status, the page renderer
and the form's CSRF check, and the game's board and highlights as the pages and API show them.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, Sequence
from importlib import resources
from typing import Annotated, Any, Literal, TypeVar
from urllib.parse import quote

from fastapi import Depends, Request, UploadFile
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.templating import Jinja2Templates
from pydantic import BeforeValidator, Field
from pydantic_core import PydanticCustomError

from vedette.data.limits import check_tree
from vedette.dice.sources import DiceNeeded
from vedette.engine import Game
from vedette.engine.session import EXPORT_FORMAT
from vedette.engine.store import StorageError
from vedette.errors import BadRequest, GameError, VedetteError
from vedette.numerals import ascii_int
from vedette.rules.base import parse_value
from vedette.rules.fields import JSON_HOOKS
from vedette.rules.quickref import relevant
from vedette.schemas import Strict, validate
from vedette.web import boards
from vedette.web.sessions import Sessions

#: how many requests of one server process run rules code at once (its thread pool's size):
#: Python runs one thread at a time, and each SQLite call hands the interpreter over, so twenty
#: threads at once take turns at every call and each request's time grows with the crowd; two
#: at a time, the others wait in line and each one, once started, runs at its own pace
#: (bench/bench_web.py). More cores: more server processes (``vedette serve --workers``).
THREADS = 2
#: threads for work that may take seconds (the odds of a whole sequence), apart from those
LONG_WORK = 4

log = logging.getLogger("vedette.web")

MAX_UPLOAD = 256 * 1024
#: the largest game export the web imports (issue 26): a 10,000-action game of the ruleset
#: whose records are longest with room to spare (bench_replay's players, measured: Kuryakin
#: 9.8 MB for 8,366 records, about 11.7 MB at 10,000; ASL 6.9 MB, NAB 5.3 MB, 2 by 2 5.2 MB at
#: 10,000). Read in chunks and checked as it comes (see read_export)
MAX_IMPORT = 24 * 1024 * 1024
CSRF_COOKIE = "vedette_csrf"
CSRF_HEADER = "x-csrf-token"

HERE = resources.files("vedette.web")
#: the pages' templates, one set for every app of the process: Jinja compiles a template the
#: first time it is shown and keeps it (an app of its own each would compile them all again)
TEMPLATES = Jinja2Templates(directory=str(HERE / "templates"))
#: ``tojson`` keeps the keys' order (Jinja sorts them by default): a todo entry's open fields
#: in the order the ruleset gives them, as the API's later views do (the page presets every
#: open field but the first)
TEMPLATES.env.policies["json.dumps_kwargs"] = {"sort_keys": False}

#: the largest JSON body of the API
MAX_JSON = 64 * 1024
#: the largest record number a parameter may name (a log never reaches it)
MAX_SEQ = 2**62


class Forbidden(Exception):
    """A state-changing request without the page's CSRF token."""


# -- what a route asks of the app (set by create_app) ---------------------------------------
async def sessions_of(request: Request) -> Sessions:
    """The app's games (a dependency: ``SessionsDep``). Async, as it does no work: FastAPI runs
    a plain ``def`` dependency in the thread pool, and each request then waited in the pool's
    line twice, once for this lookup and once for its endpoint (bench/bench_web.py)."""
    return request.app.state.sessions  # type: ignore[no-any-return]


SessionsDep = Annotated[Sessions, Depends(sessions_of)]


def answer(data: dict[str, Any]) -> JSONResponse:
    """``data`` as the JSON answer, encoded where the endpoint runs (the thread pool). A plain
    ``def`` route that returns a dict has FastAPI check it against the route's declared type
    in the thread pool, a second wait in the pool's line after the endpoint's own, and then
    encode it on the event loop (bench/bench_web.py)."""
    return JSONResponse(data)


def page(request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
    """A page of the app's templates, carrying the CSRF token its forms and scripts send."""
    app = request.app
    return app.state.templates.TemplateResponse(  # type: ignore[no-any-return]
        request, name, {"csrf": app.state.csrf, **ctx}, status_code=status
    )


def check_form(request: Request, sent: str) -> None:
    """A plain HTML form's token (the security middleware leaves it to the route)."""
    token = request.app.state.csrf
    if request.scope.get("vedette.form_csrf") and not token_ok(request, sent, token):
        raise Forbidden("missing or wrong CSRF token")


def form_fields(*known: str) -> Callable[[Request], Awaitable[None]]:
    """A dependency refusing a plain form that sends a field the route does not read (a
    field the app's own page never sends: a typo or a forged request, refused, not ignored)."""

    async def check(request: Request) -> None:
        for key in await request.form():  # (parsed once: Starlette keeps the form)
            if key not in known:
                raise BadRequest(f"form has no field {key[:40]!r} (fields: {', '.join(known)})")

    return check


def token_ok(request: Request, sent: str | None, token: str) -> bool:
    return (
        bool(sent)
        and secrets.compare_digest(str(sent).encode(), token.encode())
        and secrets.compare_digest(request.cookies.get(CSRF_COOKIE, "").encode(), token.encode())
    )


def board_of(g: Game, inline: bool = True) -> str:
    """The game's board; its static layers (the map) as empty slots unless ``inline``: the
    answer to a page that sent its seq, which shows the map already (app.js keeps it)."""
    return boards.svg(g.ruleset.name, g.state, g.ruleset.state_json(g.state), g.render, inline)


def highlight_of(g: Game, request: dict[str, Any], changed: Sequence[str] = ()) -> list[str]:
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


def table_changes(g: Game, before: Any, events: Sequence[Any]) -> list[str]:
    """What to change on the real table, in words (``Ruleset.table_changes``, when it has it)."""
    fn = getattr(g.ruleset, "table_changes", None)
    if fn is None:
        return []
    try:
        return [str(x) for x in fn(before, list(events))]
    except Exception:  # words about the table must never fail an action already written
        log.exception("table_changes failed")
        return []


def _ascii_whole(v: Any) -> Any:
    """A number of an address (path or query) as typed: ASCII digits only. Pydantic's lax
    reading takes "1_0" as 10; refused as other text is (a 422's one line)."""
    if isinstance(v, str):
        try:
            return ascii_int(v)
        except ValueError:
            raise PydanticCustomError(
                "int_parsing", "Input should be a whole number in ASCII digits"
            ) from None
    return v


#: a whole number read from an address (``?limit=``, ``/log/{seq}``): see :func:`_ascii_whole`
WholeNumber = Annotated[int, BeforeValidator(_ascii_whole)]


def parse_options(text: str) -> dict[str, Any]:
    """``variant=draft, officers=true`` -> a game's options (values typed as in the CLI)."""
    out: dict[str, Any] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise GameError(f"option {item.strip()!r}: write KEY=VALUE, e.g. variant=draft")
        if key.strip() in out:  # (as the command line's --option: not the last one silently)
            raise GameError(f"option {key.strip()[:40]!r} given twice")
        out[key.strip()] = parse_value(value.strip())
    return out


def parse_seed(text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    try:
        return ascii_int(text)
    except ValueError:
        raise GameError(f"seed must be a whole number, not {text!r}") from None


def attachment(name: str, suffix: str) -> str:
    """The Content-Disposition of a download named for ``name`` (a game's or a scenario's):
    a header holds Latin-1 only, so the plain ``filename`` keeps ASCII letters, digits, ``-``
    and ``_`` (the rest ``_``) and ``filename*`` gives the name itself, UTF-8 percent-encoded
    (RFC 6266), which browsers prefer: a game named 日本 downloads as 日本.jsonl."""
    plain = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "_" for c in name)
    kept = "".join(c if c.isalnum() or c in "-_" else "_" for c in name) or "game"
    return (
        f'attachment; filename="{plain or "game"}{suffix}";'
        f" filename*=UTF-8''{quote(kept + suffix, safe='')}"
    )


def read_limited(upload: UploadFile) -> str:
    data = upload.file.read(MAX_UPLOAD + 1)
    if len(data) > MAX_UPLOAD:
        raise GameError(f"upload too large (limit {MAX_UPLOAD // 1024} KiB)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise GameError("upload is not UTF-8 text") from None


def reference(g: Game, body: OddsBody) -> list[dict[str, Any]]:
    """The quick-reference sheet's part for the action whose odds are asked (issue 26), the
    game's house rules applied."""
    house = g.created.get("house_rules") or None
    return [s.to_json() for s in relevant(g.ruleset, body.procedure, house)]


def read_export(upload: UploadFile, chunk: int = 256 * 1024) -> str:
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
    try:
        first = json.loads(line)
    except ValueError:
        first = None
    if not isinstance(first, dict) or first.get("format") != EXPORT_FORMAT:
        raise GameError(
            f"not a vedette game export (first line must have format={EXPORT_FORMAT!r})"
        )


#: how a refusal is answered: ``"error"`` (a 4xx, as every API call) or ``"answer"`` (200 with
#: ``refused``: the game page asks so, since a browser logs every 4xx in its console; the page
#: shows the line in place)
RefusalAs = Literal["error", "answer"]


class OddsBody(Strict):
    procedure: str = Field(max_length=64)
    request: dict[str, Any] = Field(default_factory=dict)
    #: the last log entry the page has: the answer carries only the entries after it
    since: int | None = Field(default=None, ge=0, le=MAX_SEQ)
    refusal: RefusalAs = "error"


class PerformBody(OddsBody):
    dice: (
        Annotated[str, Field(max_length=200)]
        | Annotated[
            list[Annotated[int, Field(ge=-1000, le=1000, strict=True)]], Field(max_length=100)
        ]
        | None
    ) = None


class UndoBody(Strict):
    since: int | None = Field(default=None, ge=0, le=MAX_SEQ)
    refusal: RefusalAs = "error"


B = TypeVar("B", bound=Strict)


def json_body(
    model: type[B], empty_ok: bool = False, limit: int = MAX_JSON
) -> Callable[[Request], Awaitable[B]]:
    """A dependency reading the body as ``model``, at most ``limit`` bytes (async: the endpoint
    itself stays a plain ``def`` in the thread pool)."""

    async def read(request: Request) -> B:
        return await _json(request, model, empty_ok, limit)

    return read


async def _json(
    request: Request, model: type[B], empty_ok: bool = False, limit: int = MAX_JSON
) -> B:
    """A JSON request body, size-limited and checked against its model (unknown keys refused,
    bounded nesting and sizes)."""
    raw = await request.body()
    if len(raw) > limit:
        raise GameError(f"request body too large (limit {limit // 1024} KiB)")
    if empty_ok and not raw.strip():
        return model.model_validate({})
    try:
        # numbers no field takes (1e400, NaN, 2**70) come in as their text: the field refuses
        # them in its own words, as the command line's (fields.json_value)
        body = json.loads(raw, object_pairs_hook=_no_repeats, **JSON_HOOKS)
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise GameError("request body is not JSON") from None
    except RecursionError:  # (JSON all the same: the parser's stack ran out)
        raise GameError("request body is nested too deeply (a few levels at most)") from None
    except ValueError:  # (an integer of thousands of digits)
        raise GameError("request body holds a number of too many digits") from None
    if not isinstance(body, dict):
        raise GameError("request body must be a JSON object")
    return validate(model, body, "request body")


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are all different: a key given twice is refused, as the
    command line refuses ``unit=A1 unit=A2`` (json alone keeps the last one silently)."""
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise BadRequest(f"request body: {k[:40]!r} given twice")
        out[k] = v
    return out


def request_fields(raw: dict[str, Any]) -> dict[str, Any]:
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


def status_of(exc: VedetteError) -> int:
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
    """The error's first line, as the web app shows it: worded for its form where the error
    has a wording of its own for it (``DiceError.web``: the dice buttons, not ``--dice``)."""
    text = str(getattr(error, "web", None) or error).strip()
    return (text.splitlines() or [""])[0][:500]


def refused(refusal: str, run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``run``'s answer; a refusal of the player's input (a rule, a die face, a field: what
    would be a 400) as ``{"refused": line}`` when the caller asked for ``refusal="answer"``
    (the game page: nothing written, no 4xx in the browser's console); anything else
    (a game changed meanwhile, a full disk) stays an error."""
    try:
        return run()
    except VedetteError as e:
        if refusal != "answer" or status_of(e) != 400:
            raise
        out: dict[str, Any] = {"refused": one_line(e)}
        if isinstance(e, DiceNeeded):
            # the dice asked for (one a face called for): their pads; and the count of faces
            # that does the step (the page's last face tap is this one)
            dice = {d.name: list(d.faces) for d in e.dice}
            out["own_dice"] = [{"name": k, "faces": v} for k, v in dice.items()]
            out["dice_needed"] = e.number
            # in order, the first of them the die #number (after the faces given)
            out["own_order"] = [d.name for d in e.dice]
            out["own_from"] = e.number - 1
        return out
