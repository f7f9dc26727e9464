"""Start-up (issue 16): ``vedette roll 2d6`` against ``python -c pass``, as subprocesses.

Both run with the same interpreter (the one running this script, normally ``.venv/bin/python``)
and bytecode cached: vedette's package is compiled first (``compileall``, which writes ``.pyc``
even under ``PYTHONDONTWRITEBYTECODE``), the subprocesses run without that variable, and each
command runs a few times before timing. The commands alternate, ``RUNS`` times each; the
medians are compared. ``vedette roll EXPRESSION`` alone is answered without loading click
(``vedette.cli.entry``); the same roll with an option, through the whole command line, is
shown beside it. Asserted: the roll printed by the subprocess (``--seed 7 --json``) is the
roll made in this process.

Also shown (not timed against the target): which heavy modules a few commands import.

Then (issue 26, item 8) each ruleset's ``vedette RULESET todo`` on a game of 1,000 actions
(played by bench_replay's seeded random player, imported into a fresh database and opened once,
so the store holds its index and snapshots as a game played that long would; 2 by 2's also
played on to the start of a move phase with units free to move, whose ``todo`` judges each
step they may take, ``two_by_two_mid_turn``; the console
script answers it without click, vedette.cli.quick) against
``python -c pass``, the same way (alternating, medians; target <= 10x), with the heavy modules
that step imports (none of pydantic, shapely, numpy is wanted); beside it the same step without
the cache of dataclass code (``VEDETTE_NO_DCCACHE=1``, vedette/_dccache.py), whose answer must be
the same.

Run: ``python bench/bench_startup.py [--no-games]``. Not a test: nothing here fails on time;
the machine's load is printed beside the figures.
"""

from __future__ import annotations

import compileall
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

RUNS = 3 if os.environ.get("VEDETTE_BENCH_QUICK", "") not in ("", "0") else 21
PY = sys.executable
VEDETTE = [PY, "-c", "import sys; from vedette.cli.main import main; sys.exit(main())"]
SCRIPT = Path(PY).parent / "vedette"  # the installed console script, when there is one


def vedette_cmd(*args: str) -> list[str]:
    return [str(SCRIPT), *args] if SCRIPT.exists() else [*VEDETTE, *args]


def run(cmd: list[str], env: dict[str, str] | None = None) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env or ENV)
    return time.perf_counter() - t


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV["PYTHONPATH"] = str(ROOT / "src")
NO_DCCACHE = {**ENV, "VEDETTE_NO_DCCACHE": "1"}


def same_roll() -> None:
    from vedette.dice import Check, SeededSource

    out = subprocess.run(
        vedette_cmd("roll", "2d6", "--seed", "7", "--json"),
        check=True,
        capture_output=True,
        text=True,
        env=ENV,
    ).stdout
    mine = Check("2d6").resolve(SeededSource(7)).to_json()
    mine["seed"] = 7
    assert json.loads(out) == json.loads(json.dumps(mine)), out


def imported(args: list[str], modules: tuple[str, ...]) -> list[str]:
    code = (
        "import sys, io, contextlib\n"
        "from vedette.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()): main(sys.argv[1:])\n"
        f"print(' '.join(m for m in {modules!r} if m in sys.modules))\n"
    )
    out = subprocess.run(
        [PY, "-c", code, *args], check=True, capture_output=True, text=True, env=ENV
    ).stdout
    return out.split()


def main() -> None:
    import vedette

    compileall.compile_dir(str(Path(vedette.__file__).parent), quiet=1)
    same_roll()
    roll = vedette_cmd("roll", "2d6")
    # the same roll through the whole command line (click): any option takes that way
    full = vedette_cmd("roll", "2d6", "--mod", "+0:none")
    bare = [PY, "-c", "pass"]
    for _ in range(3):  # bytecode written and cached
        run(roll)
        run(full)
        run(bare)
    a: list[float] = []
    b: list[float] = []
    c: list[float] = []
    for _ in range(RUNS):
        b.append(run(bare))
        a.append(run(roll))
        c.append(run(full))
    ta, tb, tc = statistics.median(a), statistics.median(b), statistics.median(c)
    print(f"start-up, bytecode cached, median of {RUNS} alternating runs:")
    print(f"  python -c pass        {tb * 1e3:6.1f} ms (baseline)")
    print(f"  vedette roll 2d6      {ta * 1e3:6.1f} ms = {ta / tb:.1f}x (target <= 5x)")
    print(
        f"  vedette roll 2d6 --mod +0:none  {tc * 1e3:6.1f} ms = {tc / tb:.1f}x"
        " (the whole command line: click and its imports; not the target's command)"
    )
    heavy = ("lark", "numpy", "shapely", "fractions", "vedette.dice.tables", "sqlite3")
    print("  heavy modules imported by a command:")
    for args in (["roll", "2d6"], ["odds", "2d6"], ["solonap", "help"], ["twobytwo", "help"]):
        print(f"    vedette {' '.join(args):<16} {' '.join(imported(args, heavy)) or '-'}")


#: the command-line name of each ruleset
CLI_NAME = {
    "napoleon_at_bay": "nab",
    "solitaire_asl": "asl",
    "two_by_two": "2x2",
    "solo_napoleonic": "solonap",
}
GAME_ACTIONS = 1_000
GAME_RUNS = 9


#: the games timed: (game name, command-line name); 2 by 2's twice, the second stopped where a
#: move phase starts, its units free to move (its ``todo`` judges every step they may take)
GAMES = [*((name, cli) for name, cli in CLI_NAME.items()), ("two_by_two_mid_turn", "2x2")]


def mid_turn(g: Any) -> None:
    """Play 2 by 2's game on (the same seeded random player) to the start of a move phase in
    which two of the mover's units or more stand free: placed, not disrupted, not in contact."""
    import random

    from bench.bench_replay import try_perform, two_by_two_request
    from vedette.rules.two_by_two import facts

    def free(s: Any) -> list[Any]:
        return [
            u
            for u in s.live(s.actor)
            if u.body is not None
            and not u.moved
            and not u.disrupted
            and not facts.enemies_in_contact(s, u)
        ]

    rng = random.Random(5)
    for _ in range(2_000):
        s = g.state
        if s.phase == "move" and not any(u.moved for u in s.live(s.actor)) and len(free(s)) > 1:
            return
        try_perform(g, *two_by_two_request(g, rng))
    raise SystemExit("2 by 2: no move phase with free units in 2,000 actions")


def long_games(folder: Path) -> Path:
    """A database holding a ``GAME_ACTIONS``-action game of every ruleset (named after it),
    and 2 by 2's played on to the middle of a turn (:func:`mid_turn`)."""
    sys.path.insert(0, str(ROOT))
    from bench.bench_replay import play
    from vedette.engine import Game, Store

    db = folder / "games.sqlite3"
    store = Store(db)
    for name in CLI_NAME:
        g = play(name, folder / f"{name}.build.sqlite3", GAME_ACTIONS)
        Game.import_jsonl(store, g.export_jsonl(), name)
        Game.open(store, name)  # its index and snapshots, as a game played that long has
        print(f"  {name}: {len(g.records)} records", flush=True)
        if name == "two_by_two":
            mid_turn(g)
            Game.import_jsonl(store, g.export_jsonl(), "two_by_two_mid_turn")
            Game.open(store, "two_by_two_mid_turn")
            print(f"  two_by_two_mid_turn: {len(g.records)} records", flush=True)
    store.close()
    return db


def games() -> None:
    import tempfile

    heavy = ("pydantic", "shapely", "numpy", "lark")
    print(f"\n'todo' on a {GAME_ACTIONS:,}-action game (load {os.getloadavg()[0]:.1f}):")
    with tempfile.TemporaryDirectory() as tmp:
        db = long_games(Path(tmp))
        bare = [PY, "-c", "pass"]
        for name, cli in GAMES:
            cmd = vedette_cmd("--db", str(db), cli, "todo", "--game", name)
            run(cmd)  # bytecode, the dataclass cache and the page cache warm
            # the same step without the dataclass code cache (vedette/_dccache.py): same answer
            same = [
                subprocess.run(cmd, check=True, capture_output=True, env=e).stdout
                for e in (ENV, NO_DCCACHE)
            ]
            assert same[0] == same[1], f"{cli} todo answers differently without the cache"
            a: list[float] = []
            b: list[float] = []
            c: list[float] = []
            for _ in range(GAME_RUNS):
                b.append(run(bare))
                a.append(run(cmd))
                c.append(run(cmd, NO_DCCACHE))
            ta, tb, tc = statistics.median(a), statistics.median(b), statistics.median(c)
            mods = imported(["--db", str(db), cli, "todo", "--game", name], heavy)
            print(
                f"  vedette {cli:<8} todo --game {name:<19} {ta * 1e3:6.1f} ms,"
                f" python -c pass {tb * 1e3:5.1f} ms"
                f" = {ta / tb:4.1f}x (target <= 10x); without the dataclass cache"
                f" {tc * 1e3:6.1f} ms = {tc / tb:4.1f}x; heavy modules: {' '.join(mods) or '-'}"
                f" (load {os.getloadavg()[0]:.1f})",
                flush=True,
            )


if __name__ == "__main__":
    main()
    if "--no-games" not in sys.argv[1:]:
        games()
