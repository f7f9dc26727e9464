"""``vedette serve --workers N``: server processes sharing one database and one CSRF token; a
game written by one request at a time across them."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2
import pytest

from tests.web.conftest import _free_port
from vedette.engine import Game, Store, replay
from vedette.web.sessions import ProcessLocks

ROOT = Path(__file__).resolve().parents[2]
# (every client here speaks plain http to 127.0.0.1: ``verify=False`` spares each one the
# certificate store a TLS context loads, about 30 ms of CPU a client)


@pytest.fixture
def two_workers(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    db = tmp_path / "games.sqlite3"
    port = _free_port()
    cmd = [sys.executable, "-m", "vedette.cli.main", "--db", str(db), "serve"]
    server = subprocess.Popen(
        [*cmd, "--port", str(port), "--no-preload", "--workers", "2"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while True:
        try:
            httpx2.get(base + "/ping", timeout=1, verify=False).raise_for_status()
            break
        except httpx2.HTTPError:
            if time.time() > deadline or server.poll() is not None:
                server.kill()
                raise RuntimeError(f"the server did not start: {server.stderr.read()!r}") from None
            time.sleep(0.1)
    yield base, db
    server.terminate()
    server.wait(20)


def _token(c: httpx2.Client) -> str:
    page = c.get("/").text
    return page.split('name="csrf-token" content="')[1].split('"')[0]


def test_two_server_processes_share_the_token_and_serialise_a_game(
    two_workers: tuple[str, Path],
) -> None:
    base, db = two_workers
    with httpx2.Client(base_url=base, verify=False) as c:
        token = _token(c)
        cookies = dict(c.cookies)
        made = c.post(
            "/games",
            data={"csrf": token, "name": "g", "ruleset": "napoleon_at_bay", "scenario": "example1"},
        )
        assert made.status_code in (200, 303), made.text

    def act(i: int) -> list[tuple[int, str]]:
        """A fresh connection each time (the kernel hands it to either process), the page's
        token and cookie: a move and its undo, twice."""
        out = []
        for _ in range(2):
            for path, body in (
                ("perform", {"procedure": "move", "request": {"force": "F1", "to": "W2020"}}),
                ("undo", {}),
            ):
                with httpx2.Client(base_url=base, cookies=cookies, verify=False) as one:
                    r = one.post(f"/api/games/g/{path}", json=body, headers={"X-CSRF-Token": token})
                out.append((r.status_code, r.text))
        return out

    with ThreadPoolExecutor(8) as pool:
        answers = [a for part in pool.map(act, range(8)) for a in part]
    assert all(code != 403 for code, _ in answers)  # one token for both processes
    # serialised: no request lost a race to another process's write of the same game
    assert not [t for _, t in answers if "changed while this action was prepared" in t]
    assert all(code in (200, 400, 409, 422) for code, _ in answers), answers  # rules refusals
    done = sum(code == 200 for code, _ in answers)
    st = Store(db)
    g = Game.open(st, "g")
    assert len(g.records) == 1 + done  # every acknowledged action or undo is in the log
    assert [r.seq for r in g.records] == list(range(1, len(g.records) + 1))
    assert replay(g.ruleset, st.records(g.id)).state == g.state
    with httpx2.Client(base_url=base, verify=False) as c:
        served = c.get("/api/games/g").json()
    assert served["seq"] == len(g.records)
    st.close()


def _hold(db: str, held: Any, release: Any, released: Any) -> None:
    locks = ProcessLocks(db)
    with locks.hold(7, True):
        held.set()
        release.wait(30)
        released.value = 1


def test_a_game_written_in_one_process_waits_for_the_writer_in_another(tmp_path: Path) -> None:
    db = str(tmp_path / "games.sqlite3")
    ctx = multiprocessing.get_context("spawn")
    held, release, released = ctx.Event(), ctx.Event(), ctx.Value("i", 0)
    other = ctx.Process(target=_hold, args=(db, held, release, released))
    other.start()
    assert held.wait(60)
    locks = ProcessLocks(db)
    with locks.hold(8, True):  # another game: not held up
        assert released.value == 0
    release.set()
    with locks.hold(7, True):  # the same game: only once the other process let it go
        assert released.value == 1
    other.join(30)
    assert os.path.exists(db + ".writers")


def test_long_odds_do_not_hold_up_the_actions(
    live_server: str, live_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The odds of whole sequences run in threads of their own: while more of them are at work
    than the action threads number (held here until the test lets them go), an action in
    another game is still played (the game being weighed is read by them, so it waits)."""
    import threading

    from vedette import rules
    from vedette.web.app import THREADS

    rs = rules.get("napoleon_at_bay")
    for name in ("long-odds", "played-meanwhile"):
        Game.create(Store(live_db), name, "napoleon_at_bay", rs.scenario("example1"), seed=1)
    go, started = threading.Event(), threading.Semaphore(0)
    real = Game.chances

    def held(self: Game, *a: Any, **k: Any) -> Any:
        started.release()
        assert go.wait(60)
        return real(self, *a, **k)

    monkeypatch.setattr(Game, "chances", held)
    with httpx2.Client(base_url=live_server, timeout=60, verify=False) as c:
        token = _token(c)
        h = {"X-CSRF-Token": token}
        odds = {"procedure": "fix", "request": {"moving": "F1", "contact": "R1"}}
        with ThreadPoolExecutor(THREADS + 1) as pool:
            waiting = [
                pool.submit(c.post, "/api/games/long-odds/chances", json=odds, headers=h)
                for _ in range(THREADS + 1)
            ]
            for _ in range(THREADS + 1):
                assert started.acquire(timeout=60)  # all of them at work, none done
            move = {"procedure": "move", "request": {"force": "F1", "to": "W2020"}}
            r = c.post("/api/games/played-meanwhile/perform", json=move, headers=h)
            assert r.status_code == 200, r.text
            assert not any(f.done() for f in waiting)
            go.set()
            assert all(f.result().status_code in (200, 400, 422) for f in waiting)
