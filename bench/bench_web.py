"""Web benchmark (issues 7, 16): adjudication and ``/ping`` latency with 20 concurrent local
clients, and ``/ping`` alone, measured in one run against one server.

The load tool is 20 client processes (httpx2, each its own game and connection, as 20 browsers
are) talking to a real uvicorn server on 127.0.0.1 in a child process (``vedette serve``, with
one process and with ``--workers 2``). Each round moves a force into a ZOC, then times the
adjudication: a Napoleon At Bay 'fix' (roll, choose, swap, append to the log); then both are
undone. Each client sends the seq it shows, as the page does, and gets back what changed since.
``/ping`` (the static endpoint) is timed meanwhile by a prober in a process of its own (every
10 ms). Two loads: players pausing 0.1-0.3 s between rounds (their starts staggered over the
first pause), and a burst with no pause (all starting at once). The client processes run at the
lowest priority (nice 19): they stand in for 20 other machines, so they take only the CPU the
server leaves on this one (the prober runs at normal priority, as does the server).
Baseline, same server, same run: ``/ping`` alone (the same prober, nothing else running).
Beside each load, what the server used while the clients played: its CPU (a round's share), and
the time its threads were ready to run but waited for a CPU another process had (Linux
``schedstat``; a busy machine shows there, not as work of the server's own).
Asserted: every adjudication answered 200 with a fixing result, and each game's log, read back
from the store after the run, replays to the state the server served last.
Targets (issue 16): under 20 clients ``/ping`` p95 within 2x its p95 alone, adjudication p95
under 50 ms. Figures only: it never fails on time.
"""

from __future__ import annotations

import multiprocessing
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.timing import QUICK, quick  # noqa: E402
from bench.timing import load as machine_load  # noqa: E402

CLIENTS = quick(20, 3)
ROUNDS = quick(15, 2)
THINK = 0.2
#: the servers measured, one after the other: one process, and one per core of this machine
WORKERS = (1,) if QUICK else (1, 2)
#: seconds a client, the prober or the server may take to answer before the bench gives up
#: (a client that died never answers: the bench fails with a message instead of hanging)
TIMEOUT = 30.0
#: seconds the whole of one load may take
LOAD_TIMEOUT = quick(600, 120)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def client(base: str, i: int, think: float, tag: str, ready: Any, start: Any, out: Any) -> None:
    """One player, in a process of its own (as each browser is): a game of its own, then
    ``ROUNDS`` rounds once every client is ready; its adjudication times go to ``out``."""
    fix: list[float] = []
    app: list[float] = []  # the same adjudications as the server timed them (Server-Timing)
    if hasattr(os, "nice"):
        os.nice(19)  # it stands in for another machine: it takes only the CPU the server leaves
    with httpx2.Client(base_url=base, timeout=TIMEOUT) as c:
        page = c.get("/").text
        token = page.split('name="csrf-token" content="')[1].split('"')[0]
        h = {"X-CSRF-Token": token}
        name = f"bench-{tag}-{i}"
        c.post(
            "/games",
            data={
                "csrf": token,
                "name": name,
                "ruleset": "napoleon_at_bay",
                "scenario": "example1",
                "seed": str(i),
            },
        )
        # as the page does: it sends the seq it shows and gets back what changed since
        seq = c.get(f"/api/games/{name}").json()["seq"]
        move = {"procedure": "move", "request": {"force": "F1", "to": "W2020"}}
        body = {"procedure": "fix", "request": {"moving": "F1", "contact": "R1"}}
        ready.release()
        start.wait()
        if think:  # players do not all click in the same millisecond: a staggered start
            time.sleep(think * i / CLIENTS)
        for _ in range(ROUNDS):
            r = c.post(f"/api/games/{name}/perform", json={**move, "since": seq}, headers=h)
            r.raise_for_status()
            seq = r.json()["seq"]
            t = time.perf_counter()
            r = c.post(f"/api/games/{name}/perform", json={**body, "since": seq}, headers=h)
            fix.append(time.perf_counter() - t)
            r.raise_for_status()
            app.append(float(r.headers["server-timing"].split("dur=")[1]) / 1e3)
            assert r.json()["outcome"]["result"], r.text  # the fixing was adjudicated
            seq = r.json()["seq"]
            for _ in range(2):
                r = c.post(f"/api/games/{name}/undo", json={"since": seq}, headers=h)
                r.raise_for_status()
                seq = r.json()["seq"]
            if think:
                time.sleep(think * (0.5 + (i % 10) / 10))
    out.send((fix, app))


def load(
    base: str, think: float, tag: str, server: int
) -> tuple[list[float], list[float], list[float], Use]:
    """20 clients playing, each a process of its own (one client's wait is never another's
    turn in a shared event loop); the prober's pings meanwhile, the adjudication times as the
    clients saw them and as the server timed them, and what the server (process ``server``
    and its children) used of the machine while they played."""
    ctx = multiprocessing.get_context("spawn")
    start, ready = ctx.Event(), ctx.Semaphore(0)
    pipes = [ctx.Pipe(duplex=False) for _ in range(CLIENTS)]
    procs = [
        ctx.Process(target=client, args=(base, i, think, tag, ready, start, pipes[i][1]))
        for i in range(CLIENTS)
    ]
    for p in procs:
        p.start()
    try:
        for _ in procs:  # every client started, its game made: nothing but the rounds is timed
            if not ready.acquire(timeout=TIMEOUT * 2):
                raise RuntimeError(f"a client did not start within {TIMEOUT * 2:.0f} s")
        time.sleep(0.5)
        use: list[Use] = []

        def run() -> list[tuple[list[float], list[float]]]:
            before = usage(server)
            start.set()
            deadline = time.monotonic() + LOAD_TIMEOUT
            got = []
            for (recv, _), p in zip(pipes, procs, strict=True):
                while not recv.poll(0.5):
                    if not p.is_alive() and not recv.poll(0):
                        raise RuntimeError(f"client {p.name} died (exit code {p.exitcode})")
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"the clients took over {LOAD_TIMEOUT} s")
                got.append(recv.recv())
            use.append(usage(server) - before)
            for p in procs:
                p.join(TIMEOUT)
            return got

        got, ping = probed(base, run)
    finally:
        for p in procs:
            if p.is_alive():
                p.terminate()
                p.join(5)
    return ping, [x for f, _ in got for x in f], [x for _, a in got for x in a], use[0]


def prober(base: str, stop: Any, out: Any, every: float = 0.01) -> None:
    """In its own process: ``/ping`` every ``every`` s until ``stop`` is set; the latencies go
    to ``out``. A process of its own, so the figure is the server's answer time, not the time
    the load generator's event loop (busy decoding the clients' answers) takes to notice it."""
    xs: list[float] = []
    with httpx2.Client(base_url=base, timeout=TIMEOUT) as c:
        while not stop.is_set() or len(xs) < 5:  # a few pings however soon it is stopped
            t = time.perf_counter()
            c.get("/ping").raise_for_status()
            xs.append(time.perf_counter() - t)
            time.sleep(every)
    out.send(xs)


def probed(base: str, work: Callable[[], Any]) -> tuple[Any, list[float]]:
    """Run ``work`` while a prober process pings the server; its result and the pings."""
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    recv, send = ctx.Pipe(duplex=False)
    p = ctx.Process(target=prober, args=(base, stop, send))
    p.start()
    try:
        result = work()
    finally:
        stop.set()
        if not recv.poll(TIMEOUT * 2):
            p.terminate()
            p.join(5)
            raise RuntimeError(f"the prober did not answer within {TIMEOUT * 2:.0f} s")
    pings = recv.recv()
    p.join(TIMEOUT)
    return result, pings


def check_logs(db: Path) -> int:
    """Every game the clients played replays from its stored log to the state it opens to."""
    sys.path.insert(0, str(ROOT / "src"))
    from vedette.engine import Game, Store, replay

    st = Store(db)
    n = 0
    for info in st.games():
        g = Game.open(st, info.name)
        assert replay(g.ruleset, st.records(g.id)).state == g.state, info.name
        n += 1
    st.close()
    return n


@dataclass(frozen=True)
class Use:
    """What a process tree used of the machine over a stretch of time (Linux /proc; zeros
    elsewhere): CPU seconds, and the seconds its threads were ready to run but waited for a
    CPU (another process had it: ``schedstat``'s run delay)."""

    wall: float
    cpu: float
    waited: float

    def __sub__(self, other: Use) -> Use:
        return Use(self.wall - other.wall, self.cpu - other.cpu, self.waited - other.waited)


def usage(pid: int) -> Use:
    """So far, for process ``pid`` and its children (see :class:`Use`)."""
    stats: dict[int, tuple[int, float]] = {}
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for d in Path("/proc").glob("[0-9]*"):
        try:
            fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        stats[int(d.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick)
    cpu = waited = 0.0
    todo = [pid]
    while todo:
        p = todo.pop()
        cpu += stats.get(p, (0, 0.0))[1]
        for task in Path(f"/proc/{p}/task").glob("[0-9]*"):
            try:  # (nanoseconds on the CPU, waiting for one, time slices)
                waited += int((task / "schedstat").read_text().split()[1]) / 1e9
            except (OSError, IndexError, ValueError):
                continue
        todo += [c for c, (parent, _) in stats.items() if parent == p]
    return Use(time.perf_counter(), cpu, waited)


def run_server(workers: int) -> dict[str, Any]:
    """One server (``workers`` processes) on a fresh database: ``/ping`` alone before and after,
    the two loads in between; every game's log checked afterwards."""
    port = free_port()
    with tempfile.TemporaryDirectory() as d:
        db = Path(d) / "bench.db"
        env = {**os.environ, "VEDETTE_DB": str(db)}
        cmd = [sys.executable, "-m", "vedette.cli.main", "serve", "--port", str(port)]
        cmd += ["--no-preload", "--workers", str(workers)]
        server = subprocess.Popen(
            cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        base = f"http://127.0.0.1:{port}"
        load0 = os.getloadavg()[0]
        try:
            for _ in range(200):
                try:
                    httpx2.get(base + "/ping", timeout=1).raise_for_status()
                    break
                except httpx2.HTTPError:
                    time.sleep(0.05)
            else:
                raise RuntimeError("the server did not answer /ping within 10 s")
            _, alone = probed(base, lambda: time.sleep(quick(2, 1)))
            results = {}
            loads = (
                ("players (each pauses 0.1-0.3 s between actions)", THINK, "p"),
                (f"burst (no pause: {CLIENTS} clients hammering)", 0.0, "b"),
            )
            for label, think, tag in loads[1:] if QUICK else loads:  # quick: the burst only
                results[label] = load(base, think, tag, server.pid)
            _, alone_after = probed(base, lambda: time.sleep(quick(2, 1)))
        finally:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(10)
        games = check_logs(db)
    return {
        "alone": alone + alone_after,
        "results": results,
        "games": games,
        "load": (load0, os.getloadavg()[0]),
    }


def report(workers: int, run: dict[str, Any]) -> None:
    alone = run["alone"]
    p95_alone = pct(alone, 95)
    load0, load1 = run["load"]
    print(
        f"web: vedette serve --workers {workers}; load average {load0:.1f} at start,"
        f" {load1:.1f} at end; {run['games']} games' logs replay to their served state"
    )
    print(f"  ({machine_load()})")
    print(
        f"  /ping alone (baseline, {len(alone)} requests): p50"
        f" {statistics.median(alone) * 1e3:6.1f} ms   p95 {p95_alone * 1e3:6.1f} ms"
    )
    for label, (ping, fix, app, use) in run["results"].items():
        print(
            f"  {CLIENTS} concurrent clients, {label}: {len(fix)} adjudications; while they"
            f" played the server used {use.cpu / use.wall:.2f} of this machine's"
            f" {os.cpu_count()} cores ({use.cpu / len(fix) * 1e3:.1f} ms of CPU a round of"
            f" 4 requests), and its threads waited {use.waited / use.wall:.2f} s a second for"
            " a CPU another process had"
        )
        for name, xs in (
            ("/ping under load", ping),
            ("adjudication (fix)", fix),
            ("  of it in the app", app),
        ):
            print(
                f"    {name:<26} p50 {statistics.median(xs) * 1e3:6.1f} ms   p95"
                f" {pct(xs, 95) * 1e3:6.1f} ms"
            )
        print(
            f"    /ping p95 under load / alone: {pct(ping, 95) / p95_alone:.1f}x (target <= 2x);"
            f" adjudication p95 {pct(fix, 95) * 1e3:.1f} ms (target < 50 ms:"
            f" {'met' if pct(fix, 95) < 0.05 else 'NOT met'})"
        )


def main() -> None:
    for workers in WORKERS:
        report(workers, run_server(workers))


if __name__ == "__main__":
    main()
