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
    from vedette.web.app import create_app

    conf = json.loads(os.environ[_WORKER_ENV])
    sys.setswitchinterval(SWITCH_INTERVAL)
    return create_app(conf["db"], conf["hosts"], conf["token"])


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

    from vedette.web.app import allowed_hosts_from_env, create_app, host_name

    if preload:
        preload_samples(db)
    hosts = list(allowed_hosts_from_env()) + [host_name(h) for h in allow if h.strip()]
    if host not in ("0.0.0.0", "::", ""):
        hosts.append(host_name(host))
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"vedette: serving on {host}: reachable from your network; answering the host"
            f" names {', '.join(sorted(set(hosts)))} (add yours with --allow-host)",
            file=sys.stderr,
        )
    print(f"vedette: http://{host}:{port}/  (games in {db}; Ctrl-C stops)", flush=True)
    # rules work runs in the thread pool, the event loop answers everything else: let the loop's
    # thread take the interpreter back sooner than the default 5 ms (bench/bench_web.py)
    sys.setswitchinterval(SWITCH_INTERVAL)
    if workers <= 1:
        uvicorn.run(create_app(db, hosts), host=host, port=port, log_level="warning")
        return
    os.environ[_WORKER_ENV] = json.dumps(
        {"db": str(Path(db).resolve()), "hosts": hosts, "token": secrets.token_urlsafe(24)}
    )
    uvicorn.run(
        "vedette.web.server:worker_app",
        factory=True,
        workers=workers,
        host=host,
        port=port,
        log_level="warning",
    )
