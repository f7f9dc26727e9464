"""Issue 11, the web app as an attacker sees it: CSRF whatever the content type, Origin: null,
DNS rebinding (Host), security headers, escaping by construction, the cache keyed by id, and
one-line 4xx answers for any bad input."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import tests.toy  # noqa: F401
from tests.web.markup import PAYLOAD, SCRIPT, markup_scenario
from vedette import rules
from vedette.engine import Game, Store
from vedette.web.app import create_app
from vedette.web.boards import svg

BASE = "http://localhost"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    db = tmp_path / "web.db"
    Game.create(Store(db), "toy1", "toy", {"limit": 100}, seed=7)
    return db


@pytest.fixture
def client(db: Path) -> TestClient:
    c = TestClient(create_app(db), base_url=BASE)
    c.get("/")
    return c


def token(c: TestClient, game: str = "toy1") -> str:
    page = c.get(f"/games/{game}").text
    return page.split('name="csrf-token" content="')[1].split('"')[0]


def events(db: Path, name: str = "toy1") -> int:
    return Store(db).game(name).events


def one_line_error(r: Any) -> str:
    err = r.json()["error"]
    assert isinstance(err, str) and "\n" not in err and "Traceback" not in err
    return err


# -- CSRF ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "null", "Content-Type": "application/x-www-form-urlencoded"},
        {"Content-Type": "application/x-www-form-urlencoded"},
        {"Content-Type": "multipart/form-data; boundary=x"},
        {"Content-Type": "text/plain"},
        {"Origin": "null", "Content-Type": "application/json"},
    ],
)
@pytest.mark.parametrize("path", ["/api/games/toy1/perform", "/api/games/toy1/undo"])
def test_api_needs_the_token_whatever_the_content_type(
    db: Path, path: str, headers: dict[str, str]
) -> None:
    c = TestClient(create_app(db), base_url=BASE)  # no cookie, no token
    before = events(db)
    r = c.post(path, content=b'{"procedure": "advance"}', headers=headers)
    assert r.status_code == 403
    one_line_error(r)
    assert events(db) == before


def test_origin_null_refused_even_with_the_token(client: TestClient, db: Path) -> None:
    h = {"X-CSRF-Token": token(client), "Origin": "null"}
    r = client.post("/api/games/toy1/perform", json={"procedure": "advance"}, headers=h)
    assert r.status_code == 403 and "Origin: null" in one_line_error(r)
    r = client.post("/games/toy1/rename", data={"csrf": token(client), "new": "x"}, headers=h)
    assert r.status_code == 403
    h = {"X-CSRF-Token": token(client), "Sec-Fetch-Site": "cross-site"}
    r = client.post("/api/games/toy1/perform", json={"procedure": "advance"}, headers=h)
    assert r.status_code == 403
    assert events(db) == 1


def test_form_routes_check_their_field(client: TestClient, db: Path) -> None:
    r = client.post("/games/toy1/rename", data={"csrf": "wrong", "new": "x"})
    assert r.status_code == 403
    r = client.post("/games/toy1/rename", data={"new": "x"})
    assert r.status_code == 403
    r = client.post("/import", files={"upload": ("g.jsonl", b"{}")})
    assert r.status_code == 403
    assert [g.name for g in Store(db).games()] == ["toy1"]


# -- Host (DNS rebinding) --------------------------------------------------------------------------
def test_unknown_host_gets_nothing(db: Path) -> None:
    c = TestClient(create_app(db), base_url="http://evil.example")
    r = c.get("/")
    assert r.status_code == 400 and "csrf" not in r.text and "set-cookie" not in r.headers
    r = c.post(
        "/api/games/toy1/perform",
        json={"procedure": "advance"},
        headers={"Origin": "http://evil.example"},
    )
    assert r.status_code == 400 and events(db) == 1


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "[::1]", "localhost:8765"])
def test_localhost_names_allowed(db: Path, host: str) -> None:
    c = TestClient(create_app(db), base_url=f"http://{host}")
    assert c.get("/").status_code == 200


def test_lan_host_by_configuration(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    c = TestClient(create_app(db, ["localhost", "gamebox.lan"]), base_url="http://gamebox.lan")
    assert c.get("/").status_code == 200
    monkeypatch.setenv("VEDETTE_ALLOWED_HOSTS", "192.168.1.20")
    c = TestClient(create_app(db), base_url="http://192.168.1.20:8765")
    assert c.get("/").status_code == 200
    assert TestClient(create_app(db), base_url="http://other.lan").get("/").status_code == 400


# -- headers ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/games/toy1", "/api/games/toy1", "/static/app.js", "/nope"])
def test_security_headers(client: TestClient, path: str) -> None:
    r = client.get(path)
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "same-origin"


def test_no_inline_script_in_pages(client: TestClient) -> None:
    for path in ("/", "/games/toy1", "/games/toy1/audit"):
        html = client.get(path).text
        for chunk in html.split("<script")[1:]:
            head = chunk.split(">", 1)[0]
            assert "src=" in head or 'type="application/json"' in head, head


# -- escaping by construction ----------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", list(rules.BUILTIN))
def test_markup_in_every_string_field_is_text(tmp_path: Path, ruleset: str) -> None:
    st = Store(tmp_path / "m.db")
    g = Game.create(st, "m", ruleset, markup_scenario(ruleset), seed=1)
    board = svg(ruleset, g.state, g.ruleset.state_json(g.state), g.render())
    root = ET.fromstring(board)  # well-formed: nothing broke out of an attribute or a text
    tags = {e.tag.split("}")[-1] for e in root.iter()}
    assert not tags & {"script", "img", "foreignObject", "iframe"}
    for e in root.iter():
        assert not [a for a in e.attrib if a.lower().startswith("on")]
    assert "text-board" not in board  # the real board was drawn
    texts = "".join(root.itertext()) + " ".join(v for e in root.iter() for v in e.attrib.values())
    assert PAYLOAD in texts or SCRIPT in texts
    c = TestClient(create_app(tmp_path / "m.db"), base_url=BASE)
    page = c.get("/games/m").text
    assert "<img src=x" not in page and "<script>window" not in page


# -- the cache is keyed by id ----------------------------------------------------------------------
def test_rename_from_the_cli_then_new_game_with_the_old_name(client: TestClient, db: Path) -> None:
    h = {"X-CSRF-Token": token(client)}
    assert client.post("/api/games/toy1/perform", json={"procedure": "advance"}, headers=h)
    st = Store(db)
    st.rename("toy1", "old")
    Game.create(st, "toy1", "toy", {"limit": 100}, seed=9)
    r = client.post("/api/games/toy1/perform", json={"procedure": "advance"}, headers=h)
    assert r.status_code == 200
    assert st.game("old").events == 2  # the renamed game did not get the action
    assert st.game("toy1").events == 2
    assert client.get("/api/games/old").json()["game"] == "old"


def test_rename_in_the_web_forgets_the_cached_game(client: TestClient, db: Path) -> None:
    t = token(client)
    client.get("/api/games/toy1")
    r = client.post(
        "/games/toy1/rename", data={"csrf": t, "new": "renamed"}, follow_redirects=False
    )
    assert r.headers["location"] == "/games/renamed"
    assert client.get("/api/games/renamed").json()["game"] == "renamed"
    assert client.get("/api/games/toy1").status_code == 404


# -- bad input: one line, 4xx, nothing changed -----------------------------------------------------
@pytest.mark.parametrize(
    "body",
    [
        b"[" * 100_000 + b"]" * 100_000,
        b'{"procedure": "advance", "dice": 3}',
        b'{"procedure": "advance", "dice": ["x"]}',
        b'{"procedure": "advance", "dice": [1e400]}',
        b'{"procedure": "advance", "request": {"bonus": NaN}}',
        b'{"procedure": "advance", "request": []}',
        b'{"procedure": 5}',
        b'{"procedure": "advance", "extra": 1}',
        b"\xff\xfe",
        b"null",
        b'{"procedure": "advance", "request": {"bonus": "9999999999999999999999999"}}',
        b'{"procedure": "advance", "request": {"bonus": {"a": [[[[[[[[[[[]]]]]]]]]]]}}}',
    ],
)
def test_bad_bodies_are_one_line_4xx(client: TestClient, db: Path, body: bytes) -> None:
    h = {"X-CSRF-Token": token(client), "Content-Type": "application/json"}
    for path in ("/api/games/toy1/perform", "/api/games/toy1/odds"):
        r = client.post(path, content=body, headers=h)
        assert 400 <= r.status_code < 500, (r.status_code, r.text[:200])
        one_line_error(r)
    assert events(db) == 1


def test_big_body_413(client: TestClient, db: Path) -> None:
    h = {"X-CSRF-Token": token(client), "Content-Type": "application/json"}
    r = client.post("/api/games/toy1/perform", content=b" " * (2 * 1024 * 1024), headers=h)
    assert r.status_code == 413 and events(db) == 1


def test_unexpected_exception_is_a_one_line_422(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(*a: Any, **k: Any) -> Any:
        raise RuntimeError("line one\nline two")

    monkeypatch.setattr(Game, "perform", boom)
    h = {"X-CSRF-Token": token(client)}
    r = client.post("/api/games/toy1/perform", json={"procedure": "advance"}, headers=h)
    assert (
        r.status_code == 422 and one_line_error(r) == "cannot process this request (RuntimeError)"
    )


@pytest.mark.parametrize("name", ["a/b", "x?y", "<b>"])  # (a blank name: named for the player)
def test_bad_game_names_refused_in_the_web(client: TestClient, db: Path, name: str) -> None:
    r = client.post(
        "/games",
        data={"csrf": token(client), "name": name, "ruleset": "napoleon_at_bay"},
        follow_redirects=False,
    )
    assert r.status_code in (400, 422)
    assert [g.name for g in Store(db).games()] == ["toy1"]


def test_scenario_upload_map_path_refused(client: TestClient, db: Path) -> None:
    scn = b'[sides]\nFr = "F"\nRu = "R"\n[map]\nfile = "/etc/passwd"\n'
    r = client.post(
        "/games",
        data={"csrf": token(client), "name": "up", "ruleset": "napoleon_at_bay"},
        files={"upload": ("s.toml", scn)},
        follow_redirects=False,
    )
    assert r.status_code == 400 and "not a bundled map" in r.text
    assert [g.name for g in Store(db).games()] == ["toy1"]


def test_serve_on_the_lan_answers_only_the_hosts_named_with_the_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 25: bound to a network address, the app answers only the names given with
    --allow-host (never 'localhost', which any LAN client can send), and only with the secret
    token printed at start (in the first URL, then a cookie)."""
    import uvicorn

    from vedette.cli.main import main
    from vedette.web.app import host_name

    assert [host_name(h) for h in ("LocalHost:80", "[::1]:8765", "::1", "a.lan")] == [
        "localhost",
        "::1",
        "::1",
        "a.lan",
    ]
    # strict: a port is digits only
    assert host_name("127.0.0.1:8765.evil.example") == ""
    assert host_name("localhost:80:81") == ""
    seen: dict[str, Any] = {}

    def run(app: Any, **kw: Any) -> None:
        seen["app"], seen["kw"] = app, kw

    monkeypatch.setattr(uvicorn, "run", run)
    db = str(tmp_path / "s.db")
    argv = ["--db", db, "serve", "--no-preload", "--host", "0.0.0.0", "--allow-host", "box.lan"]
    assert main([*argv, "--workers", "1"]) == 0
    apps = [seen["app"]]
    printed = capsys.readouterr().out
    tokens = [printed.split("?token=")[1].split()[0]]
    # the address as a QR code a phone's camera opens (issue 26), printed below it
    from vedette.web.qr import data_uri, terminal

    url = printed.split("vedette: ")[1].split()[0]
    assert url == f"http://box.lan:8765/?token={tokens[0]}"
    assert terminal(url) in printed and "\u2588" in terminal(url)
    # several server processes: each builds its app from what the parent chose (hosts too)
    from vedette.web import server

    monkeypatch.delenv(server._WORKER_ENV, raising=False)
    assert main([*argv, "--workers", "2"]) == 0
    assert seen["app"] == "vedette.web.server:worker_app" and seen["kw"]["workers"] == 2
    apps.append(server.worker_app())
    tokens.append(capsys.readouterr().out.split("?token=")[1].split()[0])
    monkeypatch.delenv(server._WORKER_ENV)
    for app, tok in zip(apps, tokens, strict=True):
        c = TestClient(app, base_url="http://box.lan:8765")
        r = c.get("/")
        assert r.status_code == 403 and "access token" in r.json()["error"]
        assert c.get("/?token=wrong").status_code == 403
        r = c.get(f"/games?token={tok}", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/games"
        page = c.get("/")
        assert page.status_code == 200  # the cookie carries it from now on
        # and the index page shows it to scan (an image: a data: URI of segno's SVG)
        assert f'src="{data_uri(f"http://box.lan:8765/?token={tok}")}"' in page.text
        for host in ("localhost", "127.0.0.1", "0.0.0.0", "evil.example"):
            other = TestClient(app, base_url=f"http://{host}")
            assert other.get(f"/?token={tok}").status_code == 400, host
    # on the LAN without a name to answer: refused at start, in one line
    assert main(["--db", db, "serve", "--no-preload", "--host", "0.0.0.0"]) == 2
    assert "needs --allow-host" in capsys.readouterr().err


def test_serve_on_localhost_asks_no_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    from vedette.cli.main import main

    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(app=app))
    argv = ["--db", str(tmp_path / "s.db"), "serve", "--no-preload", "--workers", "1"]
    assert main([*argv, "--allow-host", "box.lan"]) == 0
    for host in ("localhost", "127.0.0.1", "box.lan"):
        assert TestClient(seen["app"], base_url=f"http://{host}").get("/").status_code == 200
    assert TestClient(seen["app"], base_url="http://evil.example").get("/").status_code == 400


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/toy1/perform",
        "/api/games/toy1/odds",
        "/api/games/toy1/chances",
        "/api/games/toy1/move-check",
    ],
)
@pytest.mark.parametrize(
    "body",
    [
        b'{"procedure": "advance", "procedure": "advance"}',
        b'{"procedure": "advance", "request": {"bonus": 1, "bonus": 2}}',
    ],
)
def test_a_key_given_twice_is_refused(client: TestClient, db: Path, path: str, body: bytes) -> None:
    # (JSON kept the last one silently, as the command line did with unit=A1 unit=A2; chances
    # and move-check read their bodies without json_body, size limit included)
    h = {"X-CSRF-Token": token(client), "Content-Type": "application/json"}
    r = client.post(path, content=body, headers=h)
    assert r.status_code == 400 and "given twice" in one_line_error(r)
    assert events(db) == 1


@pytest.mark.parametrize(
    ("path", "fields"),
    [
        ("/games", {"name": "x", "ruleset": "napoleon_at_bay", "house_rules": "a"}),
        ("/games/toy1/rename", {"new": "x", "name": "y"}),
        ("/games/toy1/delete", {"confirm": "toy1", "export": "on"}),
    ],
)
def test_a_form_field_the_route_does_not_read_is_refused(
    client: TestClient, db: Path, path: str, fields: dict[str, str]
) -> None:
    r = client.post(path, data={"csrf": token(client), **fields}, follow_redirects=False)
    assert r.status_code == 400 and "form has no field" in one_line_error(r)
    assert [(g.name, g.events) for g in Store(db).games()] == [("toy1", 1)]


def test_the_delete_form_as_the_page_sends_it_still_deletes(client: TestClient, db: Path) -> None:
    data = {"csrf": token(client), "confirm": "toy1", "export_first": "on"}
    r = client.post("/games/toy1/delete", data=data, follow_redirects=False)
    assert r.status_code == 303 and Store(db).games() == []


@pytest.mark.parametrize(
    ("path", "where"),
    [
        ("/games/%E6%97%A5%E6%9C%AC", "/games/%E6%97%A5%E6%9C%AC"),  # a game named in any script
        ("/%5Cevil.example", "/evil.example"),  # (a browser reads /\evil.example as //evil...)
        ("/%2F%2Fevil.example", "/evil.example"),  # (and ///evil.example as another site)
        ("/%5C/evil.example", "/evil.example"),
    ],
)
def test_the_lan_token_redirect_stays_on_the_site(db: Path, path: str, where: str) -> None:
    """The first visit's ``?token=`` is answered with a redirect to the same path, token left
    out: a path of one leading slash, quoted (a header holds Latin-1 only: a game named in
    another script was a server error), never another site."""
    Game.create(Store(db), "日本", "toy", {"limit": 100}, seed=7)
    c = TestClient(create_app(db, ["box.lan"], access="sekret"), base_url="http://box.lan:8765")
    r = c.get(f"{path}?token=sekret", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == where
    if "evil" not in where:
        assert "日本" in c.get(where).text  # (the cookie carries the token from now on)


@pytest.mark.parametrize("name", ["日本の戦い", "Бородино", "Ulm é"])
def test_a_game_named_in_any_script_is_exported(db: Path, name: str) -> None:
    """A header holds Latin-1 only: the export and the after-action report of a game named in
    another script were a 422 ("cannot process this request"). The download is named for the
    game (RFC 6266 ``filename*``), with an ASCII ``filename`` beside it, and imports back."""
    from urllib.parse import unquote

    Game.create(Store(db), name, "toy", {"limit": 100}, seed=7)
    c = TestClient(create_app(db), base_url=BASE)
    for path, suffix in ((f"/games/{name}/export", ".jsonl"), (f"/games/{name}/aar.html", "")):
        r = c.get(path)
        assert r.status_code == 200, r.text[:200]
        said = r.headers["content-disposition"]
        plain = said.split('filename="')[1].split('"')[0]
        assert plain.isascii() and plain.endswith(suffix or ".html")
        utf8 = unquote(said.split("filename*=UTF-8''")[1])
        assert utf8.startswith(name.replace(" ", "_"))
    text = c.get(f"/games/{name}/export").content
    r = c.post(
        "/import",
        data={"csrf": token(c), "name": "back"},
        files={"upload": ("g.jsonl", text)},
        follow_redirects=False,
    )
    assert r.status_code == 303 and Store(db).game("back").events == 1


def test_an_address_cannot_put_words_in_the_apps_mouth(client: TestClient, db: Path) -> None:
    """A link to the index with ``?error=...`` showed its text as the app's alert (no page of
    the app sends one). ``?deleted=`` names the game the delete form deleted: shown only for
    a game's name that no game has now."""
    spoof = "your database is damaged: download the repair tool at evil.example"
    page = client.get("/", params={"error": spoof}).text
    assert spoof not in page and 'class="error"' not in page
    for shown, name in ((False, spoof + "/x"), (False, "toy1"), (True, "old game")):
        page = client.get("/", params={"deleted": name}).text
        assert (f"deleted the game {name}" in page) is shown, name
    r = client.post(
        "/games/toy1/delete", data={"csrf": token(client), "confirm": "toy1"}, follow_redirects=True
    )
    assert "deleted the game toy1" in r.text


@pytest.mark.parametrize(
    "path", ["/api/games/toy1/perform", "/api/games/toy1/odds", "/api/scenarios/check"]
)
def test_a_body_nested_too_deeply_is_named_so(client: TestClient, db: Path, path: str) -> None:
    """JSON nested 20,000 deep is JSON all the same: its refusal says what is wrong with it
    (it said "not JSON")."""
    h = {"X-CSRF-Token": token(client), "Content-Type": "application/json"}
    body = b'{"procedure": "advance", "request": {"bonus": ' + b"[" * 20_000 + b"]" * 20_000
    r = client.post(path, content=body + b"}}", headers=h)
    assert r.status_code == 400 and "nested too deeply" in one_line_error(r)
    assert events(db) == 1


@pytest.mark.parametrize("given", ["*", "*.lan", "box.lan/x", "a b"])
def test_an_allowed_host_that_names_no_host_is_refused_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], given: str
) -> None:
    """``--allow-host '*'`` was kept as the empty name: a request whose Host names no host
    (absent, garbled) was answered. Refused at start in one line; and the app never takes the
    empty name as a host."""
    import uvicorn

    from vedette.cli.main import main

    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: None)
    for host in ("127.0.0.1", "0.0.0.0"):
        argv = ["--db", str(tmp_path / "s.db"), "serve", "--no-preload", "--workers", "1"]
        assert main([*argv, "--host", host, "--allow-host", given]) == 2
        err = capsys.readouterr().err
        assert "not a host name or address" in err and err.count("\n") == 1, err
    app = create_app(tmp_path / "s.db", ["localhost", ""])
    for garbled in ("*", "a b", "localhost:80:81"):
        r = TestClient(app, base_url="http://localhost").get("/", headers={"host": garbled})
        assert r.status_code == 400 and "unknown host" in r.text
