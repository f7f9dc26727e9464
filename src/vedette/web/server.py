"""``vedette serve``: run the web app with uvicorn on localhost unless told otherwise."""

from __future__ import annotations

import sys

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


def serve(db: str, host: str = "127.0.0.1", port: int = 8765, preload: bool = True) -> None:
    import uvicorn

    from vedette.web.app import create_app

    if preload:
        preload_samples(db)
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"vedette: serving on {host}: reachable from your network", file=sys.stderr)
    print(f"vedette: http://{host}:{port}/  (games in {db}; Ctrl-C stops)", flush=True)
    uvicorn.run(create_app(db), host=host, port=port, log_level="warning")
