"""Web benchmark (issues 7, 16): adjudication and ``/ping`` latency with 20 concurrent local
clients, and ``/ping`` alone, measured in one run against one server.

The load tool is an asyncio httpx client pool (20 connections, each its own game) talking to a
real uvicorn server on 127.0.0.1 in a child process. Each round moves a force into a ZOC, times
a ``/ping`` (the static endpoint) while the other clients act, then times the adjudication: a
Napoleon At Bay 'fix' (roll, choose, swap, append to the log); then both are undone.
Baseline, same server, same run: ``/ping`` alone (one client, nothing else running).
Asserted: every adjudication answered 200 with a fixing result, and each game's log, read back
from the store after the run, replays to the state the server served last.
Targets (issue 16): under 20 clients ``/ping`` p95 within 2x its p95 alone, adjudication p95
under 50 ms. Figures only: it never fails on time.
"""

from __future__ import annotations

import asyncio
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
CLIENTS = 20
ROUNDS = 15
THINK = 0.2


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


async def client(
    base: str, i: int, ping: list[float], fix: list[float], think: float, tag: str
) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=30) as c:
        page = (await c.get("/")).text
        token = page.split('name="csrf-token" content="')[1].split('"')[0]
        h = {"X-CSRF-Token": token}
        name = f"bench-{tag}-{i}"
        await c.post(
            "/games",
            data={
                "csrf": token,
                "name": name,
                "ruleset": "napoleon_at_bay",
                "scenario": "example1",
                "seed": str(i),
            },
        )
        move = {"procedure": "move", "request": {"force": "F1", "to": "W2020"}}
        body = {"procedure": "fix", "request": {"moving": "F1", "contact": "R1"}}
        for _ in range(ROUNDS):
            (await c.post(f"/api/games/{name}/perform", json=move, headers=h)).raise_for_status()
            t = time.perf_counter()
            r = await c.get("/ping")
            ping.append(time.perf_counter() - t)
            r.raise_for_status()
            t = time.perf_counter()
            r = await c.post(f"/api/games/{name}/perform", json=body, headers=h)
            fix.append(time.perf_counter() - t)
            r.raise_for_status()
            assert r.json()["outcome"]["result"], r.text  # the fixing was adjudicated
            for _ in range(2):
                (await c.post(f"/api/games/{name}/undo", headers=h)).raise_for_status()
            if think:
                await asyncio.sleep(think * (0.5 + (i % 10) / 10))


async def load(base: str, think: float, tag: str) -> tuple[list[float], list[float]]:
    ping: list[float] = []
    fix: list[float] = []
    await asyncio.gather(*(client(base, i, ping, fix, think, tag) for i in range(CLIENTS)))
    return ping, fix


async def ping_alone(base: str, n: int = 200) -> list[float]:
    out: list[float] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as c:
        for _ in range(n):
            t = time.perf_counter()
            (await c.get("/ping")).raise_for_status()
            out.append(time.perf_counter() - t)
    return out


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


def main() -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as d:
        db = Path(d) / "bench.db"
        env = {**os.environ, "VEDETTE_DB": str(db)}
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "vedette.cli.main",
                "serve",
                "--port",
                str(port),
                "--no-preload",
            ],
            env=env,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        load0 = os.getloadavg()[0]
        try:
            for _ in range(200):
                try:
                    httpx.get(base + "/ping", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.05)
            alone = asyncio.run(ping_alone(base))
            results = {
                "players (each pauses 0.1-0.3 s between actions)": asyncio.run(
                    load(base, THINK, "p")
                ),
                "burst (no pause: 20 clients hammering)": asyncio.run(load(base, 0.0, "b")),
            }
            alone_after = asyncio.run(ping_alone(base))
        finally:
            server.terminate()
            server.wait(10)
        games = check_logs(db)
    alone += alone_after
    p95_alone = pct(alone, 95)
    print(
        f"web: one uvicorn server; load average {load0:.1f} at start,"
        f" {os.getloadavg()[0]:.1f} at end; {games} games' logs replay to their served state"
    )
    print(
        f"  /ping alone (baseline, {len(alone)} requests): p50"
        f" {statistics.median(alone) * 1e3:6.1f} ms   p95 {p95_alone * 1e3:6.1f} ms"
    )
    for label, (ping, fix) in results.items():
        print(f"{CLIENTS} concurrent clients, {label}: {len(fix)} adjudications")
        for name, xs in (("/ping under load", ping), ("adjudication (fix)", fix)):
            print(
                f"  {name:<26} p50 {statistics.median(xs) * 1e3:6.1f} ms   p95"
                f" {pct(xs, 95) * 1e3:6.1f} ms"
            )
        print(
            f"  /ping p95 under load / alone: {pct(ping, 95) / p95_alone:.1f}x (target <= 2x);"
            f" adjudication p95 {pct(fix, 95) * 1e3:.1f} ms (target < 50 ms:"
            f" {'met' if pct(fix, 95) < 0.05 else 'NOT met'})"
        )


if __name__ == "__main__":
    main()
