"""A balance study: N games (per swept value), on local worker processes or a Dask cluster.

Games are cut into chunks of consecutive indices; every chunk is played wherever it lands and
the results are put back in game-index order, so a study's result depends on its seed alone,
never on the number of workers or on which worker played what.
"""

from __future__ import annotations

import gc
import json
import multiprocessing
import os
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from typing import Any

from vedette import rules
from vedette.errors import BadRequest
from vedette.rules.base import parse_value
from vedette.sim.play import GameResult, Setup, play_game, side_policies
from vedette.sim.stats import summarize

RESULT_FORMAT = "vedette-simulation"
Progress = Callable[[int], None]
GAME_ROWS = 10_000  # the result document lists each game of a variant up to this many


@dataclass(frozen=True)
class Sweep:
    """A knob and its values: a game option (the ruleset's options model), a house-rule value
    (``section.key`` of the ruleset's data) or a scenario value (``scenario.section.key``)."""

    knob: str
    kind: str  # option | house_rule | scenario
    values: tuple[Any, ...]

    def apply(self, setup: Setup, value: Any) -> Setup:
        if self.kind == "option":
            return replace(setup, options={**setup.options, self.knob: value})
        path = self.knob.split(".")
        if self.kind == "scenario":
            return replace(setup, scenario=_set_path(setup.scenario, path[1:], value))
        return replace(setup, house_rules=_set_path(setup.house_rules, path, value))


def _set_path(d: Mapping[str, Any], path: Sequence[str], value: Any) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(dict(d)))
    cur = out
    for k in path[:-1]:
        nxt = cur.get(k)
        if not isinstance(nxt, dict):
            nxt = {}
            cur[k] = nxt
        cur = nxt
    cur[path[-1]] = value
    return out


def _has_path(d: Any, path: Sequence[str]) -> bool:
    for k in path:
        if not isinstance(d, Mapping) or k not in d:
            return False
        d = d[k]
    return not isinstance(d, Mapping)


def parse_sweep(setup: Setup, text: str) -> Sweep:
    """``knob=a,b,c``: each value read as JSON when it parses (numbers, true/false), checked
    by the ruleset's own schemas before a game is played."""
    knob, eq, vals = text.partition("=")
    knob = knob.strip()
    values = tuple(parse_value(v.strip()) for v in vals.split(",") if v.strip())
    if not eq or not knob or not values:
        raise BadRequest(f"--sweep {text!r}: write KNOB=VALUE,VALUE,...")
    if len(set(map(json.dumps, values))) != len(values):
        raise BadRequest(f"--sweep {knob}: a value is given twice")
    rs = rules.get(setup.ruleset)
    model = rs.options_model
    path = knob.split(".")
    if model is not None and knob in model.model_fields:
        sweep = Sweep(knob, "option", values)
    elif path[0] == "scenario" and len(path) > 1:
        sweep = Sweep(knob, "scenario", values)
    elif len(path) > 1 and _has_path(rs.data(), path):
        sweep = Sweep(knob, "house_rule", values)
    else:
        opts = ", ".join(model.model_fields) if model is not None else "none"
        raise BadRequest(
            f"--sweep: {rs.name} has no knob {knob!r} (options: {opts}; or a house-rule value"
            " SECTION.KEY of its rules data, or scenario.SECTION.KEY)"
        )
    for v in values:  # every value checked by the schemas before any game is played
        s = sweep.apply(setup, v)
        if sweep.kind == "option":
            rs.validate_options(s.options, f"--sweep {knob}={v}")
        elif sweep.kind == "house_rule":
            rs.validate_house_rules(s.house_rules, f"--sweep {knob}={v}")
        else:
            rs.validate_scenario(s.scenario, f"--sweep {knob}={v}")
        rs.initial_state(s.scenario, s.engine_options())
    return sweep


Plugins = tuple[tuple[str, str, tuple[str, ...]], ...]


def plugins() -> Plugins:
    """The rulesets registered at run time (not shipped): a worker started afresh (spawn or
    forkserver, a Dask worker) has only the shipped ones, so each chunk carries these."""
    return tuple(
        (name, module, aliases)
        for name, (module, aliases) in rules.REGISTRY.items()
        if name not in rules.BUILTIN
    )


def play_chunk(
    setup: Setup, seed: int, start: int, stop: int, extra: Plugins = ()
) -> list[GameResult]:
    """Games ``start .. stop-1`` (a worker's unit of work; top level, so it pickles); ``extra``
    registers the run-time rulesets the worker may lack."""
    for name, module, aliases in extra:
        if name not in rules.REGISTRY:
            rules.register(name, module, aliases)
    results = [play_game(setup, seed, i).result for i in range(start, stop)]
    if _POOL_WORKER:
        # what the chunk's games left alive (the rulesets' memos, about 3,000 objects a game)
        # set aside from the cycle collector: else its next pass, when the results are sent,
        # walks them all (5% of a worker's CPU time, issue 29); the games make next to no
        # cyclic garbage, and what they keep is freed by reference counting as before
        gc.freeze()
    return results


#: set in a local pool's worker processes only (:func:`_pool_worker`): the caller's process
#: (``workers=1``, a Dask worker) never has its objects frozen
_POOL_WORKER = False


def _pool_worker() -> None:
    global _POOL_WORKER
    _POOL_WORKER = True


def chunks(games: int, size: int) -> list[tuple[int, int]]:
    return [(a, min(a + size, games)) for a in range(0, games, size)]


def chunk_size(games: int, workers: int) -> int:
    """Small enough to balance the load and move the progress bar, big enough to be cheap."""
    return max(1, min(25, games // max(1, workers * 8) or 1))


def run_local(
    setup: Setup,
    seed: int,
    games: int,
    workers: int = 1,
    progress: Progress | None = None,
    start_method: str | None = None,
) -> list[GameResult]:
    """Play the games here: in this process (``workers=1``) or on ``workers`` processes
    (started by the platform's default method, or ``start_method``)."""
    if workers < 1:
        raise BadRequest("--workers must be at least 1")
    parts = chunks(games, chunk_size(games, workers))
    workers = min(workers, len(parts))  # (a pool starts every process it may use, idle or not)
    done: dict[int, list[GameResult]] = {}
    if workers == 1:
        for a, b in parts:
            done[a] = play_chunk(setup, seed, a, b)
            if progress:
                progress(b - a)
    else:
        ctx = multiprocessing.get_context(start_method) if start_method else None
        extra = plugins()
        with ProcessPoolExecutor(
            max_workers=workers, mp_context=ctx, initializer=_pool_worker
        ) as pool:
            pending: dict[Future[list[GameResult]], int] = {
                pool.submit(play_chunk, setup, seed, a, b, extra): a for a, b in parts
            }
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    a = pending.pop(f)
                    done[a] = f.result()
                    if progress:
                        progress(len(done[a]))
    return [r for a, _ in parts for r in done[a]]


def run_dask(
    setup: Setup,
    seed: int,
    games: int,
    scheduler: str | None = None,
    client: Any | None = None,
    progress: Progress | None = None,
) -> list[GameResult]:
    """Play the games on a Dask distributed cluster (its scheduler's address, or a client).
    The workers need vedette installed (``pip install vedette[cluster]``)."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise BadRequest(
            "--scheduler needs Dask distributed: install vedette's 'cluster' extra"
            " (pip install 'vedette[cluster]')"
        ) from None
    own = client is None
    if client is None:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError) as e:
            raise BadRequest(f"--scheduler {scheduler}: cannot connect ({e})") from None
    try:
        n = len(client.scheduler_info().get("workers", {})) or 1
        parts = chunks(games, chunk_size(games, n))
        extra = plugins()
        futures = [
            client.submit(play_chunk, setup, seed, a, b, extra, pure=False) for a, b in parts
        ]
        start = {f.key: a for f, (a, _) in zip(futures, parts, strict=True)}
        done: dict[int, list[GameResult]] = {}
        for f in as_completed(futures):
            rows = f.result()
            done[start[f.key]] = rows
            if progress:
                progress(len(rows))
        return [r for a, _ in parts for r in done[a]]
    finally:
        if own:
            client.close()


#: the most games of one study (per swept value): a million took hours and held each result
MAX_GAMES = 1_000_000
#: the most local worker processes (``--workers``; as ``vedette serve --workers``): a pool
#: forks them all when it starts, and 100,000 of them was a fork bomb
MAX_WORKERS = 64


def check_games(games: int) -> None:
    if games < 1:
        raise BadRequest("--games must be at least 1")
    if games > MAX_GAMES:  # (every game's result is kept in memory until the study ends)
        raise BadRequest(f"--games must be at most {MAX_GAMES:,}, not {games:,}")


def run_study(
    setup: Setup,
    games: int,
    seed: int,
    sweep: Sweep | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    client: Any | None = None,
    progress: Progress | None = None,
    on_results: Callable[[Any, list[GameResult]], None] | None = None,
) -> dict[str, Any]:
    """The whole study as its result document (``result.json``); ``on_results(value,
    results)`` receives every game's result of each swept value (``--csv``)."""
    check_games(games)
    rs = rules.get(setup.ruleset)
    state = rs.initial(setup.scenario, setup.engine_options())
    sides = rs.sides(state)
    pols = side_policies(rs, state, setup.policies)
    values: list[Any] = list(sweep.values) if sweep else [None]
    variants = []
    t0 = time.perf_counter()
    for v in values:
        s = sweep.apply(setup, v) if sweep else setup
        if client is not None or scheduler:
            results = run_dask(s, seed, games, scheduler, client, progress)
        else:
            results = run_local(s, seed, games, workers, progress)
        if on_results is not None:
            on_results(v, results)
        variants.append(
            {
                "value": v,
                "summary": summarize(results, sides),
                # each game's [winner, end, turns, actions] by index (to pick one to replay)
                "games": [[r.winner, r.end, r.turns, r.actions] for r in results[:GAME_ROWS]],
            }
        )
    elapsed = time.perf_counter() - t0
    total = games * len(values)
    return {
        "format": RESULT_FORMAT,
        "version": 1,
        "ruleset": rs.name,
        "title": rs.title,
        "scenario": str(setup.scenario.get("title", "")),
        "sides": sides,
        "policies": {s: pols[s].name for s in sides} or {"": pols[""].name},
        "policy_help": {p.name: p.help for p in pols.values()},
        "end_condition": rs.end_condition,
        "games": games,
        "seed": seed,
        "max_actions": setup.max_actions,
        "options": dict(setup.options),
        "house_rules": dict(setup.house_rules),
        "sweep": None if sweep is None else {"knob": sweep.knob, "kind": sweep.kind},
        "variants": variants,
        "run": {
            "where": scheduler or ("dask client" if client is not None else "local"),
            "workers": workers if not (client is not None or scheduler) else None,
            "seconds": round(elapsed, 3),
            "games_per_second": round(total / elapsed, 2) if elapsed > 0 else None,
            "cpus": os.cpu_count(),
        },
    }


def policy_names(text: str | None) -> tuple[str, ...]:
    """``--policy A,B``: the names (each ruleset says which it plays: ``side_policies``)."""
    names = tuple(p.strip() for p in (text or "random").split(",") if p.strip())
    if not names:
        raise BadRequest(f"--policy: no policy {text or ''!r} (write NAME or NAME,NAME)")
    return names


CSV_FIELDS = ("value", "index", "winner", "end", "how", "turns", "actions")


def write_csv(path: str, sides: Sequence[str], rows: Sequence[tuple[Any, GameResult]]) -> None:
    """One row per game: the swept value ('' without a sweep), its index and result, and each
    side's losses (``losses_SIDE``) and rolls made (``rolls_SIDE``)."""
    import csv

    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow([*CSV_FIELDS, *(f"losses_{s}" for s in sides), *(f"rolls_{s}" for s in sides)])
        for value, r in rows:
            lost = dict(r.losses)
            rolled = Counter[str]()
            for side, _, k in r.rolls:
                rolled[side] += k
            w.writerow(
                [
                    "" if value is None else value,
                    r.index,
                    r.winner,
                    r.end,
                    r.how,
                    r.turns,
                    r.actions,
                    *(lost.get(s, 0) for s in sides),
                    *(rolled.get(s, 0) for s in sides),
                ]
            )
