"""Issue 25: a real ``vedette serve --workers 2`` under six writer threads, a CLI reading and
writing beside it (bench/bench_serve_writes.py, at a small size: at least 300 writes and 12 CLI
calls, reads of every kind and writes among them, seconds on a quiet machine;
``VEDETTE_TRUST_LONG=1`` runs the issue's figure, 8,000 writes and 1,000 CLI calls).

No write that should be accepted is refused, no answer is a 5xx, no CLI call fails, every
acknowledged write is in the database, and each game replays to what the server serves."""

from __future__ import annotations

import os

from bench.bench_serve_writes import run

LONG = os.environ.get("VEDETTE_TRUST_LONG") == "1"
#: three callers, four calls each: the seeded callers' first calls include CLI writes (a move,
#: an undo) and every kind of read (game show, game log, nab todo, a move's --odds)
CLI_CALLS = 12


def test_a_served_database_under_write_load_with_a_cli_beside_it() -> None:
    out = run(8000, 1000) if LONG else run(300, CLI_CALLS)
    assert out["problems"] == []
    assert out["refused_own"] == 0 and out["errors"] == 0
    assert out["accepted"] + out["refused_shared"] == out["writes"] >= (8000 if LONG else 300)
    assert out["cli_failed"] == 0 and out["cli_calls"] == (1000 if LONG else CLI_CALLS)
    assert out["cli_beside_writers"] == out["cli_calls"]  # every call beside the write load
    assert out["cli_writes"] > 0
    assert out["acknowledged_lost"] == 0 and out["replay_unequal"] == 0
