"""``vedette simulate``: the command's body (imported only when it runs)."""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from vedette.errors import BadRequest
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
        t, a = s["turns"], s["actions"]
        lines.append(
            f"  turns {t['min']}-{t['max']} (median {t['median']:g});"
            f" actions {a['min']}-{a['max']} (median {a['median']:g}, mean {a['mean']:.1f})"
        )
    run = study["run"]
    lines.append(
        f"{run['seconds']:.1f} s, {run['games_per_second']} games/s"
        f" ({run['where']}" + (f", {run['workers']} worker(s))" if run["workers"] else ")")
    )
    return lines


def write_out(study: dict[str, Any], out: Path) -> list[Path]:
    """``result.json`` and the plots (SVG) in the directory ``out``."""
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
) -> None:
    import os

    from vedette import rules
    from vedette.cli.common import parse_options
    from vedette.engine import Store
    from vedette.schemas.rules import load_scenario
    from vedette.sim.play import Setup, save_game
    from vedette.sim.run import parse_sweep, policy_names, run_study

    rs = rules.get(ruleset)
    scen = load_scenario(rs, scenario) if scenario.endswith(".toml") else rs.scenario(scenario)
    opts = parse_options(rs, options)
    if max_actions < 1:
        raise BadRequest("--max-actions must be at least 1")
    setup = Setup(rs.name, scen, opts, {}, policy_names(policy), max_actions)
    rs.initial_state(setup.scenario, setup.engine_options())
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
        from vedette.cli.common import out as echo

        echo(
            as_json,
            f"game {replay} of seed {seed} saved as {g.name!r}: {r.winner} ({r.end}),"
            f" {r.turns} turn(s), {r.actions} actions",
            data,
        )
        return
    if seed is None:
        seed = secrets.randbits(32)
    sw = parse_sweep(setup, sweep) if sweep else None
    if scheduler and workers:
        raise BadRequest("--workers and --scheduler: give one (the cluster has its own workers)")
    k = workers or min(4, os.cpu_count() or 1)
    total = games * (len(sw.values) if sw else 1)
    from vedette.cli.term import Progress

    with Progress(total, "simulating") as bar:
        study = run_study(setup, games, seed, sw, k, scheduler, None, bar.update)
    if keep:
        with Store(db) as st:
            study["id"] = st.add_simulation(
                rs.name, f"{study['scenario'] or rs.title} ({games} games, seed {seed})", study
            )
    lines = text_report(study)
    if out:
        for p in write_out(study, Path(out)):
            lines.append(f"wrote {p}")
    if as_json:
        click.echo(json.dumps(study, indent=2, ensure_ascii=False))
    else:
        click.echo("\n".join(lines))
