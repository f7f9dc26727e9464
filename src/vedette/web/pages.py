"""The app's pages and plain HTML forms: the index (games, new game, import), a game's page,
its dice audit, its export, rename and delete. Each form carries the page's CSRF token in a
``csrf`` field (``common.check_form``)."""

from __future__ import annotations

import secrets
import time
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from vedette import rules
from vedette.data import load_toml_text
from vedette.engine import Game
from vedette.engine import scenarios as user_scenarios
from vedette.engine.names import default_stem, free_name
from vedette.engine.store import check_game_name
from vedette.errors import BadRequest, GameError, VedetteError
from vedette.web import audit, views
from vedette.web.common import (
    SessionsDep,
    attachment,
    board_of,
    check_form,
    form_fields,
    one_line,
    page,
    parse_options,
    parse_seed,
    read_export,
    read_limited,
    status_of,
)
from vedette.web.sequences import LIMIT as SEQ_LIMIT
from vedette.web.sequences import MAX_LIMIT as SEQ_MAX_LIMIT

router = APIRouter()


def index_page(
    request: Request, sessions: Any, error: str = "", status: int = 200, **ctx: Any
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
    access = request.app.state.access
    if access is not None:  # LAN mode: the address a phone opens, token and all, as a QR code
        # start-up: the QR code loads with the page that shows it
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
        once=secrets.token_urlsafe(18),  # the new-game form's: sent twice, one game
        **ctx,
    )


@router.get("/", response_class=HTMLResponse)
def index(request: Request, sessions: SessionsDep, deleted: str = "") -> HTMLResponse:
    """The games. ``deleted``: the name of the game the delete form just deleted (its
    redirect's), shown only when it is a game's name no game has now: an address is not a
    place for any other text to show as the app's own words (a link to
    ``/?error=your database is damaged, ...`` showed its text as an alert)."""
    try:
        check_game_name(deleted)
    except GameError:
        deleted = ""
    if deleted and any(i.name == deleted for i in sessions.store().games()):
        deleted = ""
    return index_page(request, sessions, deleted=deleted)


@router.post(
    "/games",
    dependencies=[
        Depends(
            form_fields(
                "csrf",
                "once",
                "name",
                "ruleset",
                "scenario",
                "seed",
                "options",
                "physical_dice",
                "upload",
            )
        )
    ],
)
def new_game(
    request: Request,
    sessions: SessionsDep,
    csrf: str = Form(""),
    once: str = Form(""),
    name: str = Form(""),
    ruleset: str = Form(...),
    scenario: str = Form("sample"),
    seed: str = Form(""),
    options: str = Form(""),
    physical_dice: str = Form(""),
    upload: UploadFile | None = File(None),
) -> Response:
    """Start a game from the index page's form. "my own dice" (``physical_dice``, a checkbox)
    makes the game the CLI's ``new --physical-dice`` makes: it never rolls, every roll asks for
    the faces (issue 26 item 1).

    The form is sent once (``once``, a token of the page that shows it): sent again (a double
    tap, a reload of the answer) it opens the game it made, not a second one, nor an error
    that a game of that name exists. A game whose page cannot be shown is not kept (it was,
    half made: listed, never opened)."""
    check_form(request, csrf)
    store = sessions.store()
    key = f"{ONCE}{once}" if 16 <= len(once) <= 64 else ""
    if key:
        made = _made_by(store, key)
        if made:
            return RedirectResponse(f"/games/{quote(made)}", status_code=303)
    kept = {"name": name, "ruleset": ruleset, "scenario": scenario, "seed": seed}
    kept["options"] = options
    kept["physical_dice"] = "on" if physical_dice == "on" else ""
    dice = "physical" if physical_dice == "on" else "seeded"
    try:
        if physical_dice not in ("", "on"):
            raise BadRequest(f"my own dice: {physical_dice[:20]!r} is not a checkbox's value")
        rs = rules.get(ruleset)
        if upload is not None and upload.filename:
            scen = load_toml_text(read_limited(upload), "uploaded scenario")
        else:  # a bundled scenario, else one of yours (the builder's)
            scen = user_scenarios.scenario_data(store, rs, scenario)
        name = name.strip() or free_name(store, default_stem(rs))  # named for the player
        opts = parse_options(options)
        Game.create(store, name, rs.name, scen, parse_seed(seed), opts, dice=dice)
    except VedetteError as e:
        if key:
            store.delete_setting(key)  # (corrected, the form may be sent again)
        return index_page(request, sessions, status=status_of(e), new_error=one_line(e), kept=kept)
    try:
        game_view(request, sessions, name)  # its page, rendered once before it is kept
    except Exception:
        sessions.forget_name(name)
        store.delete(name)
        if key:
            store.delete_setting(key)
        raise
    if key:
        store.set_setting(key, name)
        store.drop_settings(ONCE, keep=ONCE_KEPT)
    return RedirectResponse(f"/games/{quote(name)}", status_code=303)


#: the new-game forms sent (their ``once`` token: the game each made), the newest kept
ONCE = "new-game-form:"
ONCE_KEPT = 200


def _made_by(store: Any, key: str) -> str:
    """The game the form of token ``key`` made ("": none, this request makes it). The same
    form sent while its first sending still makes its game waits for it (up to 20 s)."""
    for _ in range(400):
        held = store.claim_setting(key, "")
        if held is None:
            return ""
        if held and any(i.name == held for i in store.games()):
            return str(held)
        if held:  # its game deleted since: made again
            store.set_setting(key, "")
            return ""
        time.sleep(0.05)
    raise GameError("this new-game form is still being sent: see the games list")


@router.post("/import", dependencies=[Depends(form_fields("csrf", "upload", "name"))])
def import_game(
    request: Request,
    sessions: SessionsDep,
    upload: UploadFile = File(...),
    name: str = Form(""),
    csrf: str = Form(""),
) -> Response:
    check_form(request, csrf)
    try:
        text = read_export(upload)
        g = Game.import_jsonl(sessions.store(), text, name.strip() or None)
    except VedetteError as e:
        return index_page(
            request,
            sessions,
            status=status_of(e),
            import_error=one_line(e),
            kept={"import_name": name},
        )
    if g.imported_under:  # said once, on the page the import leads to (as the CLI says it)
        store = sessions.store()
        store.set_setting(IMPORTED + g.name, f"{_made(store, g.name)}\n{g.imported_under}")
        store.drop_settings(IMPORTED, keep=ONCE_KEPT)
    return RedirectResponse(f"/games/{quote(g.name)}", status_code=303)


#: a web import's word on how it was re-refereed (``Game.imported_under``), by game name, until
#: the game's page shows it once: "<the game's id and creation time>\n<the words>" (a game
#: deleted unseen and its name taken again: not the new game's words)
IMPORTED = "imported-under:"


def _made(store: Any, name: str) -> str:
    info = store.game(name)
    return f"{info.id} {info.created}"


def game_view(
    request: Request, sessions: Any, name: str, status: int = 200, **ctx: Any
) -> HTMLResponse:
    with sessions.game(name) as g:
        view = views.view(g, board_of(g))
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
                "standing": view["standing"],
                "counters": view["counters"],
            },
            **ctx,
        )


@router.get("/games/{name}", response_class=HTMLResponse)
def game_page(request: Request, sessions: SessionsDep, name: str) -> HTMLResponse:
    store = sessions.store()
    said = store.get_setting(IMPORTED + name)
    if said is None:
        return game_view(request, sessions, name)
    store.delete_setting(IMPORTED + name)
    made, _, under = said.partition("\n")
    if made != _made(store, name):
        under = ""
    return game_view(request, sessions, name, imported_under=under)


@router.get("/games/{name}/audit", response_class=HTMLResponse)
def audit_page(request: Request, sessions: SessionsDep, name: str) -> HTMLResponse:
    with sessions.game(name) as g:
        found = audit.dice_audit(g.log())
        return page(request, "audit.html", game=g.name, audit=audit.with_charts(found))


@router.get("/games/{name}/export")
def export(sessions: SessionsDep, name: str) -> Response:
    with sessions.game(name) as g:
        text = g.export_jsonl()
    return Response(
        text,
        media_type="application/x-ndjson",
        headers={"Content-Disposition": attachment(g.name, ".jsonl")},
    )


@router.post("/games/{name}/rename", dependencies=[Depends(form_fields("csrf", "new"))])
def rename(
    request: Request,
    sessions: SessionsDep,
    name: str,
    new: str = Form(...),
    csrf: str = Form(""),
) -> Response:
    check_form(request, csrf)
    try:
        with sessions.game(name, write=True) as g:
            g.store.rename(name, new.strip())
        sessions.forget_name(name)
    except VedetteError as e:
        if "no game named" in str(e):
            raise
        return game_view(
            request, sessions, name, status_of(e), rename_error=one_line(e), rename_to=new
        )
    return RedirectResponse(f"/games/{quote(new.strip())}", status_code=303)


@router.post(
    "/games/{name}/delete",
    dependencies=[Depends(form_fields("csrf", "confirm", "export_first"))],
)
def delete(
    request: Request,
    sessions: SessionsDep,
    name: str,
    confirm: str = Form(""),
    csrf: str = Form(""),
) -> Response:
    """Delete a game: the form must repeat the game's name (the page asks first)."""
    check_form(request, csrf)
    if confirm != name:
        return game_view(
            request,
            sessions,
            name,
            400,
            delete_error="to delete, confirm with the game's exact name",
        )
    with sessions.game(name, write=True) as g:
        g.store.delete(name)
    sessions.forget_name(name)
    return RedirectResponse(f"/?deleted={quote(name)}", status_code=303)
