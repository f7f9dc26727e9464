"""Issue 25, LAN mode in a real browser: a server answering a LAN name asks for its access
token; the URL printed at start (``?token=...``) lets a browser in, the token then rides in a
cookie for every page and every write; another browser without it gets nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import CHROMIUM_ARGS, _free_port, chromium_path, running, screenshot
from tests.web.test_web_browser import new_game

TOKEN = "lan-secret-Xq3"
HOST = "vedette.lan.test"


@pytest.fixture(scope="module")
def lan_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from vedette.web.app import create_app

    db = tmp_path_factory.mktemp("lan") / "games.sqlite3"
    port = _free_port()
    with running(create_app(db, [HOST], access=TOKEN), port):
        yield f"http://{HOST}:{port}"


@pytest.fixture(scope="module")
def lan_browser(playwright: Any) -> Iterator[Any]:
    # the LAN name resolves to this machine (as a LAN's DNS or /etc/hosts would)
    args = [*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"]
    b = playwright.chromium.launch(executable_path=chromium_path(), args=args)
    yield b
    b.close()


def test_the_lan_token_lets_a_browser_in_and_keeps_it_in(lan_server: str, lan_browser: Any) -> None:
    ctx = lan_browser.new_context(viewport={"width": 1100, "height": 900})
    page = ctx.new_page()
    r = page.goto(lan_server + "/")
    assert r.status == 403 and "access token" in page.content()
    r = page.goto(lan_server + "/?token=wrong")
    assert r.status == 403
    r = page.goto(f"{lan_server}/?token={TOKEN}")
    assert r.status == 200 and page.url == lan_server + "/"  # the token left the address bar
    cookies = {c["name"]: c for c in ctx.cookies()}
    assert cookies["vedette_access"]["httpOnly"] and cookies["vedette_access"]["value"] == TOKEN
    # the whole app works with the cookie alone: a new game, a move (a POST with its CSRF token)
    new_game(page, lan_server, "lan1", "napoleon_at_bay", "sample")
    page.select_option("#procedure", "move")
    form = 'form.proc[data-proc="move"]'
    page.fill(f"{form} input[name=force]", "F2")
    page.fill(f"{form} input[name=to]", "W1922")
    page.click("#roll-btn")
    page.wait_for_selector("#result .line, #result .error")
    assert "F2" in page.inner_text("#result")
    screenshot(page, "lan-token")
    ctx.close()
    # another browser, without the token: every page and API refused
    other = lan_browser.new_context()
    p2 = other.new_page()
    for path in ("/", "/games/lan1", "/api/games/lan1"):
        assert p2.goto(lan_server + path).status == 403, path
    other.close()
