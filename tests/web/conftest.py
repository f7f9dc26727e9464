"""A live server on a free localhost port and Debian's chromium driven by Playwright.

The browser is Debian's ``chromium-headless-shell`` where it is installed (``make test`` installs
it): the same Blink as ``chromium`` without the desktop browser around it, about a third less CPU
for the same pages (issue 27 item 3); else ``chromium``; ``VEDETTE_CHROMIUM`` names another.
In CI a missing browser is a failure, not a skip: ``make test`` installs one first.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
#: (no ``--headless=new``: Playwright passes ``--headless``, which is the new headless mode of a
#: full chromium since version 132, and the headless shell is headless whatever it is told)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # the pages of one context share one renderer process (each test's page is new, its
    # context is not: see ``tab``): a renderer started per test cost about as much CPU as the
    # page it shows (issue 27 item 3)
    "--renderer-process-limit=1",
    # the compositor's GPU work (software, with --disable-gpu) in the browser process, not a
    # process of its own: about 1 to 1.5 tree CPU-s less on the builder and boards tests in
    # four of five interleaved pairs (one even), no test's outcome changed (issue 27 item 3)
    "--in-process-gpu",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def live_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The game database the live server uses (tests may prepare games in it directly). One per
    test process, shared by every module, as the server is: each test names its own games."""
    return tmp_path_factory.mktemp("web") / "games.sqlite3"


@contextmanager
def running(app: object, port: int) -> Iterator[None]:
    """``app`` served by uvicorn on 127.0.0.1:``port`` in a thread, while the block runs."""
    import uvicorn

    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")  # type: ignore[arg-type]
    )
    t = threading.Thread(target=server.run, daemon=True)
    t.start()
    deadline = time.time() + 20
    while not server.started:
        if time.time() > deadline:
            raise RuntimeError("the web app did not start")
        time.sleep(0.05)
    try:
        yield
    finally:
        server.should_exit = True
        t.join(timeout=10)


@pytest.fixture(scope="session")
def live_server(live_db: Path) -> Iterator[str]:
    """One live server per test process, started when the first test needs it (issue 27 item 3:
    not one per module)."""
    from vedette.web.app import create_app

    port = _free_port()
    with running(create_app(live_db), port):
        yield f"http://127.0.0.1:{port}"


def chromium_path() -> str:
    """``$VEDETTE_CHROMIUM``, else the headless shell, else ``chromium`` (as ``.ci/browser``)."""
    exe = (
        os.environ.get("VEDETTE_CHROMIUM")
        or shutil.which("chromium-headless-shell")
        or shutil.which("chromium")
        or "/usr/bin/chromium-headless-shell"
    )
    if not Path(exe).exists():
        pytest.fail(
            f"no chromium at {exe}: run 'make test' (it installs Debian's chromium-headless-shell)"
            " or set VEDETTE_CHROMIUM=/path/to/chromium"
        )
    return exe


@pytest.fixture(scope="session")
def playwright() -> Iterator[object]:
    """One Playwright per test process (a second one may not start beside it)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: object) -> Iterator[object]:
    """One chromium per test process, launched when the first browser test needs it (the
    tests' pages: ``Tabs``)."""
    b = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)  # type: ignore[attr-defined]
    yield b
    b.close()


class Tabs:
    """New pages in contexts kept for the whole test process, one context per set of options
    (viewport, touch, ...). A test gets a page of its own (its own handlers, routes, init
    scripts, history and session storage: a tab's) with no cookie left by an earlier test (the
    app keeps nothing else in the browser: no local storage); the pages of a context share its
    renderer process, kept alive by a page that stays open, instead of a process started and
    stopped for each test (issue 27 item 3). A test needing a browser of its own (another user,
    a fresh cache) opens its own context (``browser.new_context``)."""

    def __init__(self, browser: object, home: str) -> None:
        self.browser, self.home = browser, home
        self.contexts: dict[str, object] = {}

    def new(self, **options: object) -> object:
        key = repr(sorted(options.items()))
        ctx = self.contexts.get(key)
        if ctx is None:
            ctx = self.browser.new_context(**options)  # type: ignore[attr-defined]
            ctx.new_page().goto(f"{self.home}/static/icon.svg")  # type: ignore[attr-defined]
            self.contexts[key] = ctx
        ctx.clear_cookies()  # type: ignore[attr-defined]
        return ctx.new_page()  # type: ignore[attr-defined]

    def close(self) -> None:
        for ctx in self.contexts.values():
            ctx.close()  # type: ignore[attr-defined]


@pytest.fixture(scope="session")
def tabs(browser: object, live_server: str) -> Iterator[Tabs]:
    t = Tabs(browser, live_server)
    yield t
    t.close()


@contextmanager
def tab(tabs: Tabs, **options: object) -> Iterator[object]:
    """A new page (``Tabs.new``) while the block runs, closed after it."""
    pg = tabs.new(**options)
    try:
        yield pg
    finally:
        pg.close()  # type: ignore[attr-defined]


@pytest.fixture
def page(tabs: Tabs) -> Iterator[object]:
    with tab(tabs, viewport={"width": 1100, "height": 900}) as pg:
        yield pg


#: full-page screenshots for a person to look at (artifacts/screenshots/): no test reads them, so
#: ``make test`` takes none (issue 27 item 3: each is a full-page render); CI (``.ci/run``) and
#: ``VEDETTE_SCREENSHOTS=1`` take them
SCREENSHOTS = os.environ.get("VEDETTE_SCREENSHOTS") == "1"


def screenshot(page: object, name: str) -> Path:
    path = ARTIFACTS / f"{name}.png"
    if SCREENSHOTS:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
    return path
