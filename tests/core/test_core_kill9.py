"""A process killed at any moment loses no acknowledged event and leaves no corrupt database.

This runs it: a child process appends events and acknowledges each one on stdout after
``append`` returns; the parent kills it with SIGKILL at random moments, then checks every
acknowledged event is in the log, the database passes ``integrity_check`` and replays.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import tests.toy  # noqa: F401
from vedette.engine import Game, Store

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import sys
sys.path.insert(0, {root!r})
import tests.toy
from vedette.engine import Game, Store
st = Store({db!r})
g = Game.open(st, "g")
while True:
    g.perform("advance", {{}})
    print(g.records[-1].seq, flush=True)
"""


def test_kill_9_during_appends(tmp_path: Path) -> None:
    db = str(tmp_path / "kill.db")
    Game.create(Store(db), "g", "toy", {"limit": 10**9}, seed=11)
    rnd = random.Random(5)
    acked: set[int] = set()
    for _ in range(6):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD.format(root=str(ROOT), db=db)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert child.stdout is not None
        first = child.stdout.readline()  # it has started (however slow the machine is)
        acked.update(int(x) for x in first.split())
        time.sleep(rnd.random() * 0.6)
        assert child.pid != os.getpid()
        if child.poll() is None:  # still appending: kill it mid-stream
            os.kill(child.pid, signal.SIGKILL)
        out, _ = child.communicate()
        acked.update(int(x) for x in out.split())
    assert len(acked) >= 6  # every child acknowledged at least one event
    st = Store(db)
    assert st.integrity_ok()
    seqs = {r.seq for r in st.records(st.game("g").id)}
    assert acked <= seqs
    assert seqs == set(range(1, max(seqs) + 1))
    g = Game.open(st, "g")  # replays cleanly
    assert len(g.state.history) <= len(seqs)
