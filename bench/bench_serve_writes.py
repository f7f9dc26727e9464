"""A real server under write load, a CLI beside it (issue 25's figures).

``vedette serve --workers 2`` is started (a subprocess) on a fresh database in a temporary
directory; six writer threads post writes over real HTTP on 127.0.0.1 (the page's CSRF token
and cookie), each to two games of its own and to two games all of them share. On a game of its
own a thread alternates a Napoleon At Bay move (F1 to W2020) and its undo: every one must be
accepted. On a shared game another thread's write may come first, so the rules may refuse a
stale move or an undo of nothing: those refusals (a 4xx naming the rule) are counted apart.
Meanwhile CLI calls run beside the server (``game show``, ``game log``, ``nab todo``,
``nab fix --odds`` on the games being written, and moves and undos on a game of the CLI's own).

The writers make at least WRITES writes, and go on while CLI calls remain (so every CLI call
runs beside the write load). Counted: writes refused that should have been accepted (own
games), 5xx answers and failed connections, shared-game refusals, CLI calls that did not exit
0. Afterwards every acknowledged write (its seq and kind, from the answer) must be in the
database, each game's log must hold exactly the acknowledged writes, and a replay of each game
must equal the state the store gives and the seq the server serves.

Run: ``python -m bench.bench_serve_writes [WRITES] [CLI_CALLS]`` (default 8,000 and 300; the
issue's figure is 8,000 and 1,000: a CLI call takes seconds on a loaded machine).
``tests/web/test_serve_writes.py`` runs a small size of it.

Measured (2 cores shared with other work, load 12): 20,712 writes (the writers went on while
the CLI ran), 18,142 accepted, 0 refused on a thread's own games, 2,570 rules refusals on the
shared games, 0 5xx or failed connections; 300 CLI calls (68 writes), 0 failed, all beside the
writers; 0 acknowledged writes missing, 0 replays unequal; 828 s.
"""

from __future__ import annotations

import atexit
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run as a script by `python -m bench`

from bench.bench_web import free_port  # noqa: E402
from bench.timing import QUICK  # noqa: E402

THREADS = 6
_CMD = [sys.executable, "-m", "vedette.cli.main"]
CALLERS = 3  # threads making CLI calls (each call a process of its own)
MOVE = {"procedure": "move", "request": {"force": "F1", "to": "W2020"}}


def _cli_in_child(argv: list[str]) -> tuple[int, str]:
    """A CLI call in a process of its own (forked from a process that imported vedette)."""
    import contextlib
    import io

    from vedette.cli.main import main

    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        except BaseException as e:  # (an internal error: counted)
            code, err = 99, io.StringIO(f"{type(e).__name__}: {e}")
    return int(code or 0), err.getvalue().strip()


#: ``fork``: each CLI call a process of its own forked from one that imported vedette (the
#: command's work, without the interpreter's start-up: seconds on a loaded machine); ``exec``:
#: ``python -m vedette.cli.main``
CLI_MODE = os.environ.get("VEDETTE_BENCH_CLI", "fork")
_POOL: Any = None


def _cli(db: Path, *args: str) -> tuple[int, str]:
    argv = ["--db", str(db), *args]
    if CLI_MODE == "fork":  # (by its module's name: run_path's copy does not pickle)
        from bench.bench_serve_writes import _cli_in_child as child

        return tuple(_POOL.apply(child, (argv,)))  # type: ignore[return-value]
    p = subprocess.run(
        [sys.executable, "-m", "vedette.cli.main", "--db", str(db), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return p.returncode, (p.stderr or p.stdout).strip()


def run(writes: int = 8000, cli_calls: int = 1000, seed: int = 1) -> dict[str, Any]:
    """The figures of one run (see the module's docstring)."""
    with tempfile.TemporaryDirectory() as tmp:
        return _run(Path(tmp), writes, cli_calls, seed)


def _run(tmp: Path, writes: int, cli_calls: int, seed: int) -> dict[str, Any]:
    global _POOL
    if CLI_MODE == "fork" and _POOL is None:
        import multiprocessing

        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["vedette.cli.main", "vedette.rules"])
        _POOL = ctx.Pool(3, maxtasksperchild=1)  # (a fresh process for every call)
        # stopped before the interpreter's teardown: a pool left to its finalizer then printed
        # "Exception ignored in: Pool.__del__" (its pickler already gone)
        atexit.register(_POOL.terminate)
    db = tmp / "games.sqlite3"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [*_CMD, "--db", str(db), "serve", "--port", str(port), "--workers", "2", "--no-preload"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        _wait_up(server, base)
        return _load(db, base, writes, cli_calls, seed)
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)


# (every client here speaks plain http to 127.0.0.1: ``verify=False`` spares each one the
# certificate store a TLS context loads, about 30 ms of CPU a client)


def _wait_up(server: subprocess.Popen[bytes], base: str) -> None:
    deadline = time.time() + 120
    while True:
        try:
            httpx2.get(base + "/ping", timeout=2, verify=False).raise_for_status()
            return
        except httpx2.HTTPError:
            if time.time() > deadline or server.poll() is not None:
                assert server.stderr is not None
                raise RuntimeError(f"the server did not start: {server.stderr.read()!r}") from None
            time.sleep(0.2)


def _load(db: Path, base: str, writes: int, cli_calls: int, seed: int) -> dict[str, Any]:
    with httpx2.Client(base_url=base, timeout=120, verify=False) as c:
        page = c.get("/").text
        token = page.split('name="csrf-token" content="')[1].split('"')[0]
        cookies = dict(c.cookies)
        own = [[f"t{i}-{k}" for k in range(2)] for i in range(THREADS)]
        shared = ["shared-0", "shared-1"]
        for name in [*(g for gs in own for g in gs), *shared]:
            r = c.post(
                "/games",
                data={"csrf": token, "name": name, "ruleset": "nab", "scenario": "sample"},
            )
            assert r.status_code in (200, 303), r.text
    code, out = _cli(db, "nab", "new", "cli", "--seed", "1")
    assert code == 0, out

    lock = threading.Lock()
    tally = {"accepted": 0, "refused_own": 0, "refused_shared": 0, "errors": 0}
    problems: list[str] = []
    acked: dict[str, list[tuple[int, str]]] = {}  # game: (seq, kind) of every 200
    writing = threading.Event()  # (the writer threads are at work)
    writing.set()
    cli_running = threading.Event()  # the writers go on past their count until the CLI is done
    cli_running.set()
    per_thread = [writes // THREADS + (i < writes % THREADS) for i in range(THREADS)]

    def writer(i: int) -> None:
        rng = random.Random(f"{seed}/{i}")
        moved = dict.fromkeys(own[i], False)
        h = {"X-CSRF-Token": token}
        with httpx2.Client(base_url=base, cookies=cookies, timeout=120, verify=False) as one:
            n = 0
            while n < per_thread[i] or cli_running.is_set():
                n += 1
                mine = rng.random() < 0.75
                game = rng.choice(own[i]) if mine else rng.choice(shared)
                undo = moved[game] if mine else rng.random() < 0.5
                path, body = ("undo", {}) if undo else ("perform", MOVE)
                try:
                    r = one.post(f"/api/games/{game}/{path}", json=body, headers=h)
                    status, text = r.status_code, r.text
                except httpx2.HTTPError as e:
                    status, text = 0, f"{type(e).__name__}: {e}"
                with lock:
                    if status == 200:
                        tally["accepted"] += 1
                        acked.setdefault(game, []).append(
                            (int(r.json()["seq"]), "undo" if undo else "action")
                        )
                        if mine:
                            moved[game] = not undo
                    elif 400 <= status < 500 and not mine:
                        tally["refused_shared"] += 1
                    elif 400 <= status < 500:
                        tally["refused_own"] += 1
                        problems.append(f"{game} {path}: {status} {text[:200]}")
                    else:
                        tally["errors"] += 1
                        problems.append(f"{game} {path}: {status} {text[:200]}")

    cli = {"calls": 0, "failed": 0, "beside_writers": 0, "writes": 0}
    cli_moved = [False]
    cli_lock = threading.Lock()
    games = [g for gs in own for g in gs] + shared

    def cli_caller(k: int) -> None:
        rng = random.Random(f"{seed}/cli/{k}")
        while True:
            with cli_lock:
                if cli["calls"] >= cli_calls:
                    return
                cli["calls"] += 1
                if rng.random() < 0.25:  # a write on the CLI's own game (one writer at a time)
                    args: tuple[str, ...] = (
                        ("game", "undo", "cli") if cli_moved[0] else ("nab", "move", "F1", "W2020")
                    )
                    args += () if cli_moved[0] else ("--game", "cli")
                    code, out = _cli(db, *args)
                    if code == 0:
                        cli_moved[0] = not cli_moved[0]
                        cli["writes"] += 1
                    beside = writing.is_set()
                    self_done = True
                else:
                    self_done = False
            if not self_done:
                game = rng.choice(games)
                args = rng.choice(
                    [
                        ("game", "show", game),
                        ("game", "log", game),
                        ("nab", "todo", "--game", game),
                        ("nab", "move", "F2", "W2120", "--odds", "--game", game),
                    ]
                )
                beside = writing.is_set()
                code, out = _cli(db, *args)
            with cli_lock:
                cli["beside_writers"] += beside
                if cli["calls"] % 50 == 0:  # (progress, for a run cut short)
                    print(f"progress: {cli} {tally}", file=sys.stderr, flush=True)
                if code != 0:
                    cli["failed"] += 1
                    problems.append(f"cli {' '.join(args)}: exit {code}: {out[:200]}")

    t0 = time.perf_counter()
    threads = [threading.Thread(target=writer, args=(i,)) for i in range(THREADS)]
    callers = [threading.Thread(target=cli_caller, args=(k,)) for k in range(CALLERS)]
    for t in [*threads, *callers]:
        t.start()
    for t in callers:
        t.join()
    cli_running.clear()
    for t in threads:
        t.join()
    writing.clear()
    total_time = time.perf_counter() - t0
    lost, unequal = _check(db, base, acked, cli["writes"], problems)
    return {
        "writes": sum(tally.values()),
        **tally,
        "cli_calls": cli["calls"],
        "cli_failed": cli["failed"],
        "cli_beside_writers": cli["beside_writers"],
        "cli_writes": cli["writes"],
        "seconds": round(total_time, 1),
        "acknowledged_lost": lost,
        "replay_unequal": unequal,
        "problems": problems[:20],
    }


def _check(
    db: Path, base: str, acked: dict[str, list[tuple[int, str]]], n_cli: int, problems: list[str]
) -> tuple[int, int]:
    """(acknowledged writes not in the log, games whose replay or served seq differ)."""
    from vedette.engine import Game, Store, replay

    lost = unequal = 0
    st = Store(db)
    with httpx2.Client(base_url=base, timeout=60, verify=False) as c:
        for info in st.games():
            g = Game.open(st, info.name)
            kinds = {r.seq: r.kind for r in g.records}
            mine = acked.get(info.name, [])
            for seq, kind in mine:
                if kinds.get(seq) != kind:
                    lost += 1
                    problems.append(f"{info.name}: acknowledged #{seq} {kind} not in the log")
            count = n_cli if info.name == "cli" else len(mine)
            if len(g.records) != 1 + count:
                lost += 1
                problems.append(f"{info.name}: {len(g.records) - 1} records, {count} acknowledged")
            served = c.get(f"/api/games/{info.name}").json()["seq"]
            if replay(g.ruleset, st.records(g.id)).state != g.state or served != len(g.records):
                unequal += 1
                problems.append(f"{info.name}: replay or served seq ({served}) differs")
    st.close()
    return lost, unequal


def main() -> None:
    writes = int(sys.argv[1]) if len(sys.argv) > 1 else (150 if QUICK else 8000)
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else (10 if QUICK else 300)
    out = run(writes, calls)
    for k, v in out.items():
        if k != "problems":
            print(f"{k}: {v}")
    for p in out["problems"]:
        print("  problem:", p)
    print("load:", os.getloadavg())
    if out["problems"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
