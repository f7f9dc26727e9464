"""``vedette simulate``: the command's body (imported only when it runs)."""

from __future__ import annotations

import json
import secrets
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import click

from vedette import rules
from vedette.cli.common import out as echo
from vedette.cli.common import parse_options
from vedette.cli.term import Progress
from vedette.engine import Store
from vedette.errors import BadRequest
from vedette.schemas.rules import load_scenario
from vedette.sim.play import GameResult, Setup, play_game, save_game, side_policies
from vedette.sim.run import (
    MAX_WORKERS,
    check_games,
    parse_sweep,
    policy_names,
    run_study,
    write_csv,
)
from vedette.sim.stats import show


def text_report(study: dict[str, Any]) -> list[str]:
    """The study in plain lines: each side's win rate with its 95% interval, draws, length."""
    pols = ", ".join(f"{s or 'all'}: {p}" for s, p in study["policies"].items())
    lines = [
        f"{study['title']}: {study['scenario'] or 'scenario'} — {study['games']} games"
        f" a value, seed {study['seed']} (policies: {pols})",
        f"end: {study['end_condition']}",
    ]
    for v in study["variants"]:
        s = v["summary"]
        if study["sweep"]:
            lines.append(f"{study['sweep']['knob']} = {show(v['value'])}:")
        rows = [*((side, r) for side, r in s["wins"].items()), ("draws", s["draws"])]
        if s["unfinished"]["n"]:
            rows.append(("unfinished", s["unfinished"]))
        for name, r in rows:
            lines.append(
                f"  {name:<12} {r['rate']:6.1%}  [{r['low']:.1%}, {r['high']:.1%}]  ({r['n']})"
            )
        how = s.get("how", {})
        if how:
            lines.append(
                "  ended: "
                + "; ".join(
                    f"{k} {r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}]" for k, r in how.items()
                )
            )
        t, a = s["turns"], s["actions"]
        lines.append(
            f"  turns {t['min']}-{t['max']} (median {t['median']:g});"
            f" actions {a['min']}-{a['max']} (median {a['median']:g}, mean {a['mean']:.1f})"
        )
        for side, d in s.get("losses", {}).items():
            lines.append(
                f"  losses {side}: mean {d['mean']:.2f} units (median {d['median']:g},"
                f" {d['min']}-{d['max']})"
            )
        rolls = s.get("decisive_rolls", [])
        if rolls:
            lines.append(
                "  rolls, winner minus loser a game: "
                + ", ".join(f"{r['roll']} {r['winner_minus_loser']:+g}" for r in rolls)
            )
    run = study["run"]
    lines.append(
        f"{run['seconds']:.1f} s, {run['games_per_second']} games/s"
        f" ({run['where']}" + (f", {run['workers']} worker(s))" if run["workers"] else ")")
    )
    return lines


def write_out(study: dict[str, Any], out: Path) -> list[Path]:
    """``result.json`` and the plots (SVG) in the directory ``out``."""
    # start-up: matplotlib loads only to draw the plots
    from vedette.sim.plots import plots

    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise BadRequest(f"--out {out}: {e.strerror or e}") from None
    written = [out / "result.json"]
    written[0].write_text(json.dumps(study, indent=2, ensure_ascii=False) + "\n")
    for stem, svg in plots(study).items():
        p = out / f"{stem}.svg"
        p.write_text(svg + "\n")
        written.append(p)
    return written


def simulate(
    db: str,
    ruleset: str,
    scenario: str,
    games: int,
    seed: int | None,
    policy: str | None,
    sweep: str | None,
    workers: int | None,
    scheduler: str | None,
    as_json: bool,
    out: str | None,
    max_actions: int,
    options: Sequence[str],
    replay: int | None,
    save: str | None,
    keep: bool,
    csv_path: str | None = None,
) -> None:
    import os

    rs = rules.get(ruleset)
    scen = load_scenario(rs, scenario) if scenario.endswith(".toml") else rs.scenario(scenario)
    opts = parse_options(rs, options)
    if max_actions < 1:
        raise BadRequest("--max-actions must be at least 1")
    setup = Setup(rs.name, scen, opts, {}, policy_names(policy), max_actions)
    state = rs.initial(setup.scenario, setup.engine_options())
    side_policies(rs, state, setup.policies)  # a policy the ruleset lacks: refused now
    if (replay is None) != (save is None):
        raise BadRequest("--replay INDEX and --save NAME go together")
    if replay is not None and save is not None:
        if seed is None:
            raise BadRequest("--replay needs the study's --seed")
        if replay < 0:
            raise BadRequest("--replay: a game index is 0 or more")
        with Store(db) as st:
            g, played = save_game(st, save, setup, seed, replay)
        r = played.result
        data = {"game": g.name, "index": replay, "seed": seed, **r.to_json()}

        echo(
            as_json,
            f"game {replay} of seed {seed} saved as {g.name!r}: {r.winner} ({r.end}),"
            f" {r.turns} turn(s), {r.actions} actions",
            data,
        )
        return
    check_games(games)
    if workers is not None and workers < 1:  # (0 was taken as "the default" silently)
        raise BadRequest("--workers must be at least 1")
    if workers is not None and workers > MAX_WORKERS:  # (each is a process, all started at once)
        raise BadRequest(f"--workers must be at most {MAX_WORKERS}, not {workers:,}")
    if seed is None:
        seed = secrets.randbits(32)
    sw = parse_sweep(setup, sweep) if sweep else None
    if scheduler and workers:
        raise BadRequest("--workers and --scheduler: give one (the cluster has its own workers)")
    if scheduler:
        check_scheduler(scheduler)
    k = workers or min(4, os.cpu_count() or 1)
    total = games * (len(sw.values) if sw else 1)
    if csv_path:
        check_writable(csv_path)
    warn_if_long(setup, seed, total, 1 if scheduler else k, bool(scheduler))

    rows: list[tuple[Any, GameResult]] = []

    def keep_rows(value: Any, results: list[GameResult]) -> None:
        rows.extend((value, r) for r in results)

    with Progress(total, "simulating") as bar:
        study = run_study(
            setup, games, seed, sw, k, scheduler, None, bar.update, keep_rows if csv_path else None
        )
    if keep:
        with Store(db) as st:
            study["id"] = st.add_simulation(
                rs.name, f"{study['scenario'] or rs.title} ({games} games, seed {seed})", study
            )
    lines = text_report(study)
    if csv_path:
        write_csv(csv_path, study["sides"], rows)
        lines.append(f"wrote {csv_path}")
    if out:
        for p in write_out(study, Path(out)):
            lines.append(f"wrote {p}")
    if as_json:
        click.echo(json.dumps(study, indent=2, ensure_ascii=False))
    else:
        click.echo("\n".join(lines))


#: a study expected to take longer than this (seconds) is announced first
LONG_STUDY = 60.0


def check_scheduler(address: str) -> None:
    """``--scheduler``: a port that is not a whole number 0-65535 in ASCII digits ("８７",
    "1_0", "99999") refused in one line at once; Dask's own parser reads "８７" as 87 or waits
    its 10 s connect timeout before failing."""
    url = address if "://" in address else f"tcp://{address}"
    try:
        port = urlsplit(url).port
    except ValueError:
        port = -1
    text = url.rpartition(":")[2]
    if port == -1 or (port is not None and not (text.isascii() and text.isdigit())):
        raise BadRequest(
            f"--scheduler {address}: the port must be a whole number 0-65535 in ASCII digits"
        )


def check_writable(path: str) -> None:
    """``--csv FILE``: refused in one line before any game is played when it cannot be written."""
    p = Path(path)
    if p.is_dir() or not p.parent.is_dir():
        raise BadRequest(f"--csv {path}: not a file in an existing folder")


def warn_if_long(setup: Any, seed: int, total: int, workers: int, remote: bool) -> float | None:
    """Time a few games here (a short calibration run) and, when the whole study would take more
    than a minute, say so on stderr first: the estimate, and how to stop. Returns the estimate
    in seconds (None when the study is too small to bother).

    The first game is played untimed: it pays the one-off costs (tables read, geometry built)
    that the study's other games do not, and timing it made the estimate err high (session 15:
    "about 4 min" for a study that took 137 s). Then up to five games are timed one by one
    (while under half a second) and the median taken: a process's early games still meet
    code paths for the first time (a first melee: one game in three or four times the others;
    session 16: the mean of four said "about 4 min" for a study of 152 s, the median 2 min)."""
    if total < 20:
        return None
    play_game(setup, seed, 0)
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < 5 and (not times or time.perf_counter() - start < 0.5):
        t = time.perf_counter()
        play_game(setup, seed, 1 + len(times))
        times.append(time.perf_counter() - t)
    per_game = statistics.median(times)
    estimate = per_game * total / max(1, workers)
    if estimate > LONG_STUDY:
        where = "the cluster's workers" if remote else f"{workers} worker(s)"
        click.echo(
            f"vedette: this study will take about {_duration(estimate)}"
            f" ({total} games at {per_game:.2f} s a game measured here, on {where});"
            " Ctrl-C stops it",
            err=True,
        )
    return estimate


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"
