"""A study's result depends on its seed alone: the same on 1 or 2 local processes and on a Dask
LocalCluster, aggregated in game-index order. The CLI, its files and the web pages."""

from __future__ import annotations

import gc
import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import ClassVar

import pytest
from fastapi.testclient import TestClient

from vedette import rules
from vedette.cli.main import main
from vedette.engine import Game, Store
from vedette.sim.play import Setup
from vedette.sim.run import run_local, run_study
from vedette.web.app import create_app


def small(max_actions: int = 40) -> Setup:
    rs = rules.get("two_by_two")
    return Setup(rs.name, rs.scenario("sample"), max_actions=max_actions)


def test_same_results_on_one_or_two_worker_processes() -> None:
    s = small()
    assert run_local(s, 21, 6, workers=1) == run_local(s, 21, 6, workers=2)


def test_a_study_in_the_callers_process_leaves_its_objects_to_the_collector() -> None:
    """Worker processes set aside what their games leave from the cycle collector (a speed
    measure, issue 29); a study played in the caller's own process (``workers=1``, what a
    library user or the web app runs) freezes none of the caller's objects, nor does a study
    on worker processes freeze the caller's."""
    before = gc.get_freeze_count()
    s = small()
    one = run_local(s, 21, 3, workers=1)
    assert gc.get_freeze_count() == before
    assert run_local(s, 21, 3, workers=2) == one
    assert gc.get_freeze_count() == before


def test_a_run_time_ruleset_plays_on_fresh_worker_processes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A ruleset registered at run time (the toy example) is not in the registry of a worker
    started afresh (spawn, the default on macOS; forkserver from Python 3.14): each chunk
    carries the registration, and the games are those of the one-process run."""
    monkeypatch.setattr(rules, "REGISTRY", {n: rules.REGISTRY[n] for n in rules.BUILTIN})
    rules.register("toy", "examples.toy")
    rs = rules.get("toy")
    s = Setup(rs.name, rs.scenario("sample"), max_actions=30)
    one = run_local(s, 5, 4, workers=1)
    assert run_local(s, 5, 4, workers=2, start_method="spawn") == one
    assert all(r.actions > 0 for r in one)


def test_dask_local_cluster_equals_the_local_run_bit_for_bit() -> None:
    """2 workers on a distributed.LocalCluster; threads (processes=False): worker processes
    would spend CI's time starting interpreters, and the chunking is the same either way."""
    distributed = pytest.importorskip("distributed")
    s = small()
    local = run_study(s, 6, 33, workers=1)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        remote = run_study(s, 6, 33, client=client)
        by_address = run_study(s, 6, 33, scheduler=cluster.scheduler_address)  # --scheduler
    assert remote["variants"] == local["variants"] == by_address["variants"]
    assert json.dumps(remote["variants"]) == json.dumps(local["variants"])


def test_sweep_reports_every_value_with_the_same_games() -> None:
    from vedette.sim.run import parse_sweep

    s = small(max_actions=400)
    sw = parse_sweep(s, "scenario.victory.max_turns=1,2")
    study = run_study(s, 3, 5, sw)
    turns = [v["summary"]["turns"]["max"] for v in study["variants"]]
    assert [v["value"] for v in study["variants"]] == [1, 2]
    assert turns[0] <= 2 and turns[1] <= 3  # each value's turn limit took effect


# -- the command ------------------------------------------------------------------------------
def run(capsys: pytest.CaptureFixture[str], db: str, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["--db", db, *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_json_out_files_and_the_kept_study(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "sim.db")
    out = tmp_path / "study"
    code, text, err = run(
        capsys,
        db,
        "simulate",
        "twobytwo",
        "--scenario",
        "sample",
        "--games",
        "3",
        "--seed",
        "8",
        "--max-actions",
        "30",
        "--workers",
        "1",
        "--json",
        "--out",
        str(out),
    )
    assert code == 0, err
    assert "simulating" in err  # the progress bar is on stderr, the result on stdout
    study = json.loads(text)
    wins = study["variants"][0]["summary"]["wins"]
    assert set(wins) == {"french", "austrians"}
    assert all({"rate", "low", "high", "n"} <= set(w) for w in wins.values())
    assert json.loads((out / "result.json").read_text())["variants"] == study["variants"]
    for stem in ("win_rates", "lengths"):
        root = ET.fromstring((out / f"{stem}.svg").read_text())
        assert root.tag.endswith("svg")
    with Store(db) as st:
        kept = st.simulations()
        assert len(kept) == 1 and st.simulation(kept[0][0])["seed"] == 8


def test_cli_replay_saves_the_game_to_watch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "sim.db")
    args = ["simulate", "twobytwo", "--seed", "8", "--max-actions", "30"]
    code, text, err = run(capsys, db, *args, "--games", "2", "--workers", "1", "--json")
    assert code == 0, err
    winner, _end, turns, actions = json.loads(text)["variants"][0]["games"][1]
    code, saved, err = run(capsys, db, *args, "--replay", "1", "--save", "watch-1", "--json")
    assert code == 0, err
    info = json.loads(saved)
    assert (info["winner"], info["turns"], info["actions"]) == (winner, turns, actions)
    with Store(db) as st:
        g = Game.open(st, "watch-1")
        assert len(g.records) - 1 == actions == 30
        assert g.state.turn == turns


@pytest.mark.parametrize(
    "args, words",
    [
        (["--policy", "sneaky"], "no policy 'sneaky'"),
        (["--sweep", "nonsense=1"], "no knob 'nonsense'"),
        (["--games", "0"], "--games"),
        (["--replay", "1"], "--replay INDEX and --save NAME"),
        (["--replay", "1", "--save", "x"], "--seed"),
        (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "--workers and --scheduler"),
        # a port in other digits, with an underscore or out of range: refused at once (Dask
        # read "８７" as 87, or waited 10 s to fail)
        (["--scheduler", "tcp://127.0.0.1:\uff18\uff17"], "the port must be a whole number"),
        (["--scheduler", "127.0.0.1:1_0"], "the port must be a whole number"),
        (["--scheduler", "tcp://127.0.0.1:99999"], "the port must be a whole number"),
        (["--option", "colour=red"], "no option 'colour'"),
    ],
)
def test_cli_errors_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    code, _, err = run(capsys, str(tmp_path / "e.db"), "simulate", "twobytwo", *args)
    lines = [x for x in err.strip().splitlines() if not x.startswith("simulating")]
    assert code == 2 and len(lines) == 1 and words in lines[0], err


class _NoPool:
    """In place of the process pool: the processes a study would start, none started."""

    asked: ClassVar[list[int]] = []

    def __init__(self, max_workers: int, **kw: object) -> None:
        _NoPool.asked.append(max_workers)
        raise RuntimeError(f"a pool of {max_workers} processes")


def test_workers_are_bounded_and_no_more_than_the_games_need(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--workers 100000``: refused in one line before a process starts (a pool forks every
    process it may use when it starts: a fork bomb), as ``serve --workers`` is; a study of
    fewer chunks of games than workers starts one process a chunk (one game: none)."""
    from vedette.sim import run as sim_run

    monkeypatch.setattr(sim_run, "ProcessPoolExecutor", _NoPool)
    _NoPool.asked.clear()
    db = str(tmp_path / "e.db")
    code, _, err = run(capsys, db, "simulate", "twobytwo", "--games", "1", "--workers", "100000")
    assert code == 2 and "--workers must be at most 64, not 100,000" in err, err
    assert err.count("\n") == 1 and _NoPool.asked == []
    args = ("--games", "1", "--workers", "8", "--max-actions", "5", "--no-keep", "--json")
    code, text, err = run(capsys, db, "simulate", "twobytwo", *args)
    assert code == 0 and json.loads(text)["games"] == 1 and _NoPool.asked == [], err


def test_cli_kuryakin_refuses_a_2x2_policy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(
        capsys, str(tmp_path / "e.db"), "simulate", "kuryakin", "--policy", "aggressive"
    )
    assert code == 2 and "no policy 'aggressive'" in err and "it plays: random, cards" in err


# -- the web app ------------------------------------------------------------------------------
def test_web_lists_and_shows_kept_studies(tmp_path: Path) -> None:
    db = tmp_path / "web.db"
    study = run_study(small(), 2, 4, workers=1)
    study["scenario"] = "<script>alert(1)</script>"  # a hostile title is shown, never run
    with Store(db) as st:
        sid = st.add_simulation("two_by_two", "<b>study</b>", study)
    c = TestClient(create_app(db), base_url="http://localhost")
    listing = c.get("/simulations")
    assert listing.status_code == 200
    assert f'href="/simulations/{sid}"' in listing.text and "&lt;b&gt;study" in listing.text
    page = c.get(f"/simulations/{sid}")
    assert page.status_code == 200
    assert page.text.count("<svg") == 2 and "<script>alert" not in page.text
    assert "french" in page.text and "95%" in page.text
    assert c.get(f"/api/simulations/{sid}").json()["variants"] == study["variants"]
    missing = c.get("/simulations/999")
    assert missing.status_code == 404 and "no simulation 999" in missing.text  # a 404 page
    assert c.get("/simulations/..%2Fetc%2Fpasswd").status_code in (404, 422)


@pytest.mark.skipif(not os.environ.get("VEDETTE_SIM_LONG"), reason="VEDETTE_SIM_LONG=1 runs it")
def test_long_thousand_games_local_processes(tmp_path: Path) -> None:
    rs = rules.get("two_by_two")
    s = Setup(rs.name, rs.scenario("sample"))
    study = run_study(s, 1000, 2026, workers=2)
    summ = study["variants"][0]["summary"]
    assert summ["games"] == 1000 and summ["unfinished"]["n"] == 0
