"""Web benchmark (issue 7): adjudication latency with 20 concurrent local clients against a
static endpoint of the same app as the baseline, measured in one run.

The load tool is an asyncio httpx client pool (20 connections, each its own game) talking to a
real uvicorn server on 127.0.0.1 in a child process. Each round moves a force into a ZOC, then
the timed adjudication: a Napoleon At Bay 'fix' (roll, choose, swap, append to the log); then
both are undone.
Target: p95 under 50 ms.
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
            for _ in range(2):
                (await c.post(f"/api/games/{name}/undo", headers=h)).raise_for_status()
            if think:
                await asyncio.sleep(think * (0.5 + (i % 10) / 10))


async def load(base: str, think: float, tag: str) -> tuple[list[float], list[float]]:
    ping: list[float] = []
    fix: list[float] = []
    await asyncio.gather(*(client(base, i, ping, fix, think, tag) for i in range(CLIENTS)))
    return ping, fix


def main() -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as d:
        env = {**os.environ, "VEDETTE_DB": str(Path(d) / "bench.db")}
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
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(200):
                try:
                    httpx.get(base + "/ping", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.05)
            results = {
                "players (each pauses 0.1-0.3 s between actions)": asyncio.run(
                    load(base, THINK, "p")
                ),
                "burst (no pause: 20 clients hammering)": asyncio.run(load(base, 0.0, "b")),
            }
        finally:
            server.terminate()
            server.wait(10)
    for label, (ping, fix) in results.items():
        print(f"{CLIENTS} concurrent clients, {label}: {len(fix)} adjudications")
        for name, xs in (("static /ping (baseline)", ping), ("adjudication (fix)", fix)):
            print(
                f"  {name:<26} p50 {statistics.median(xs) * 1e3:6.1f} ms   p95"
                f" {pct(xs, 95) * 1e3:6.1f} ms"
            )
        print(
            f"  p95 ratio adjudication/static: {pct(fix, 95) / pct(ping, 95):.1f}x;"
            f" target p95 < 50 ms: {'met' if pct(fix, 95) < 0.05 else 'NOT met'}"
        )


if __name__ == "__main__":
    main()
