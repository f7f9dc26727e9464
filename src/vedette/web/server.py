"""``vedette serve``: run the web app with uvicorn on localhost unless told otherwise."""

from __future__ import annotations

import json
import os
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from vedette import rules
from vedette.engine import Game, Store
from vedette.errors import GameError


def preload_samples(db: str) -> list[str]:
    """In an empty database, start one game from each ruleset's bundled sample scenario."""
    made: list[str] = []
    with Store(db) as st:
        if st.games():
            return made
        for name in rules.BUILTIN:
            rs = rules.get(name)
            if not rs.scenarios:
                continue
            scen = "sample" if "sample" in rs.scenarios else next(iter(rs.scenarios))
            Game.create(st, f"sample-{name}", name, rs.scenario(scen), seed=1)
            made.append(f"sample-{name}")
    return made


#: seconds a thread holds the interpreter before another may run (Python's default: 0.005)
SWITCH_INTERVAL = 0.0005


#: the server processes ``vedette serve`` runs by default: one per core, at most this many
MAX_WORKERS = 4
#: where ``vedette serve --workers N`` hands its settings to its server processes
_WORKER_ENV = "VEDETTE_SERVE_WORKER"


def worker_app() -> Any:
    """The app of one server process of ``vedette serve --workers N`` (uvicorn's factory): the
    database, the host names and the CSRF token its parent chose, so that a page served by one
    process may post to another."""
    # start-up: fastapi and the web app load when the server starts
    from vedette.web.app import create_app

    conf = json.loads(os.environ[_WORKER_ENV])
    sys.setswitchinterval(SWITCH_INTERVAL)
    return create_app(conf["db"], conf["hosts"], conf["token"], conf.get("access"))


#: addresses that bind every interface
WILDCARDS = ("0.0.0.0", "::", "")


def is_loopback(host: str) -> bool:
    """``host`` (what the server binds) is this machine only."""
    import ipaddress

    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def serve(
    db: str,
    host: str = "127.0.0.1",
    port: int = 8765,
    preload: bool = True,
    allow: Sequence[str] = (),
    workers: int | None = None,
) -> None:
    """Serve on ``host`` (localhost by default). The app answers the localhost names, the names
    in ``allow`` and ``VEDETTE_ALLOWED_HOSTS``, and ``host`` itself when it is a named address
    (not a wildcard such as 0.0.0.0).

    ``workers`` server processes on the one port (default: one per core, at most
    ``MAX_WORKERS``): Python runs one thread of a process at a time, so a process per core is
    how the app uses more than one (bench/bench_web.py: 20 players' adjudication p95 30-60 ms
    with one process on 2 cores, 20-30 ms with two). They share the database: a game is
    written by one request at a time across them (``Sessions``), and each checks its cached
    games against the log on every request."""
    import uvicorn

    if workers is None:
        workers = max(1, min(MAX_WORKERS, os.cpu_count() or 1))

    # start-up: fastapi and the web app load when the server starts
    from vedette.web.app import LOCAL_HOSTS, allowed_hosts_from_env, create_app, host_name

    if preload:
        preload_samples(db)
    allowed = []
    for given in (h for h in allow if h.strip()):
        name = host_name(given)
        if not name:  # ('*' was kept as '': a request without a valid Host was answered)
            raise GameError(
                f"--allow-host {given[:60]!r}: not a host name or address (box.lan,"
                " 192.168.1.20; no wildcard, no path)"
            )
        allowed.append(name)
    access: str | None = None
    if is_loopback(host):
        hosts = list(allowed_hosts_from_env()) + allowed
    else:
        # LAN mode: only the names given (and a named address bound), and a secret token
        hosts = allowed + ([host_name(host)] if host not in WILDCARDS else [])
        hosts += [h for h in allowed_hosts_from_env() if h not in LOCAL_HOSTS]
        if not hosts:
            raise GameError(
                f"serving on {host} (your network) needs --allow-host NAME: the host name or"
                " address the other machines will use"
            )
        access = secrets.token_urlsafe(24)
        print(
            f"vedette: serving on {host}: reachable from your network; answering only"
            f" {', '.join(sorted(set(hosts)))}, and only with the access token",
            file=sys.stderr,
        )
    if access is None:
        print(f"vedette: http://{host}:{port}/  (games in {db}; Ctrl-C stops)", flush=True)
    else:
        shown = sorted(set(hosts))[0]
        shown = f"[{shown}]" if ":" in shown else shown
        url = f"http://{shown}:{port}/?token={access}"
        print(
            f"vedette: {url}  (games in {db}; open this URL"
            " once per browser: it keeps the token; Ctrl-C stops)",
            flush=True,
        )
        # start-up: the QR code loads when the server prints it
        from vedette.web.qr import terminal

        # a phone's camera opens it (also on the index page)
        qr = terminal(url, getattr(sys.stdout, "encoding", None) or "utf-8")
        print(f"vedette: or scan it with your phone:\n{qr}", flush=True)
    # rules work runs in the thread pool, the event loop answers everything else: let the loop's
    # thread take the interpreter back sooner than the default 5 ms (bench/bench_web.py)
    sys.setswitchinterval(SWITCH_INTERVAL)
    if workers <= 1:
        uvicorn.run(create_app(db, hosts, access=access), host=host, port=port, log_level="warning")
        return
    os.environ[_WORKER_ENV] = json.dumps(
        {
            "db": str(Path(db).resolve()),
            "hosts": hosts,
            "token": secrets.token_urlsafe(24),
            "access": access,
        }
    )
    uvicorn.run(
        "vedette.web.server:worker_app",
        factory=True,
        workers=workers,
        host=host,
        port=port,
        log_level="warning",
    )
