"""Replay and open per real ruleset (issue 16): logs of a few thousand actions, played.

For each shipped ruleset (Napoleon At Bay, Solitaire ASL, 2 by 2, Kuryakin) a game is played
through ``vedette.engine.Game`` from its bundled sample scenario by a seeded random player (the
player's choices only; the dice come from the game's own stream; refused requests write nothing),
until the log holds ``ACTIONS`` actions. Then, on that log:

* **replay**: ``replay(ruleset, records)`` folds every action's events (records/s printed);
* **open**: ``Game.open`` (read the log from SQLite, decode, replay).

Baseline, measured in the same run: reading the same log back (``Store.records``: the SQLite
read and JSON decoding that any replay starts with); the ratios say how many times the read the
fold and the open cost. Asserted: the replayed state and the opened game's state equal the
state the live game reached.

Run: ``python bench/bench_replay.py [ACTIONS]`` (default 3000). Not a test.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from bench.timing import disk_dir, interleaved, load, quick
from vedette import rules
from vedette.engine import Game, Store, replay
from vedette.errors import VedetteError

ACTIONS = quick(3000, 150)  # python bench/bench_replay.py [ACTIONS]

Player = Callable[[Game, random.Random], tuple[str, dict[str, Any]]]


def try_perform(g: Game, proc: str, req: dict[str, Any]) -> bool:
    try:
        g.perform(proc, req)
    except VedetteError:
        return False
    return True


# -- Napoleon At Bay: move forces about, fix on contact, end the phases ------------------------
def nab_request(g: Game, rng: random.Random) -> tuple[str, dict[str, Any]]:
    s = g.state
    if s.phase != "movement" or rng.random() < 0.08:
        return ("end_movement" if s.phase == "movement" else "end_combat"), {}
    mine = [p for p in s.pieces.values() if p.side == s.phasing and p.hexes]
    if not mine:
        return "end_movement", {}
    p = rng.choice(mine)
    if s.moving and rng.random() < 0.5:  # a force in contact: fix an adjacent enemy
        enemies = [e for e in s.pieces.values() if e.side != s.phasing and e.hexes]
        if enemies:
            return "fix", {"moving": s.moving, "contact": rng.choice(enemies).id}
    near = [h for h in s.map.zoc(p.hexes[0]) if s.map.passable(h)]
    if not near:
        return "end_movement", {}
    return "move", {"force": p.id, "to": rng.choice(near)}


# -- Solitaire ASL: shifts between stacks, moves, acts, phases ---------------------------------
def asl_request(g: Game, rng: random.Random) -> tuple[str, dict[str, Any]]:
    s = g.state
    if s.owed:  # a minefield's exchange offered (4.6.2) or a weapon's decision: declined
        return "waive", {"obligation": s.owed[0].id}
    x = rng.random()
    if x < 0.12:
        return "phase", {}
    stacks = [st for st in s.stacks if st.location]
    if not stacks:
        return "phase", {}
    a = rng.choice(stacks)
    if x < 0.7:
        same = [st for st in stacks if st.side == a.side and st.id != a.id]
        b = rng.choice(same) if same else a
        return "shift", {"a": a.id, "b": b.id}
    if x < 0.8:
        return "act", {}
    locs = sorted({st.location for st in stacks})
    return "move", {"stack": a.id, "to": rng.choice(locs)}


# -- 2 by 2 and Kuryakin: the random players of their property tests ---------------------------
class _Shadow:
    """What tests/two_by_two/test_2x2_props.py's player reads: the live game's state."""

    def __init__(self, g: Game) -> None:
        self.g = g

    @property
    def state(self) -> Any:
        return self.g.state


def two_by_two_request(g: Game, rng: random.Random) -> tuple[str, dict[str, Any]]:
    from tests.two_by_two.test_2x2_props import _random_request

    return _random_request(_Shadow(g), rng)  # type: ignore[arg-type]


def two_by_two_scenario() -> dict[str, Any]:
    scn = dict(rules.get("two_by_two").scenario("sample"))
    scn["victory"] = {"max_turns": 0, "threshold_ap": 0}  # as the property test's long game
    return scn


def play_kuryakin(db: Path, actions: int, seed: int) -> Game:
    """Kuryakin's property-test player, turn after turn, until the log is long enough."""
    from tests.solo_napoleonic import test_solonap_props as props

    g: Game | None = None
    turns = 4
    while True:
        g = props.play(seed, turns, db, optional=False)
        if len(g.records) > actions or turns >= 4000:
            return g
        g.store.close()
        db.unlink()
        turns = max(turns + 1, int(turns * actions / max(1, len(g.records)) * 1.1))


def play(name: str, db: Path, actions: int, seed: int = 11) -> Game:
    if name == "solo_napoleonic":
        return play_kuryakin(db, actions, seed)
    rs = rules.get(name)
    scenario = two_by_two_scenario() if name == "two_by_two" else rs.scenario("sample")
    g = Game.create(Store(db, synchronous="OFF"), "bench", rs.name, scenario, seed=seed)
    player: Player = {
        "napoleon_at_bay": nab_request,
        "solitaire_asl": asl_request,
        "two_by_two": two_by_two_request,
    }[name]
    rng = random.Random(seed)
    tries = 0
    while len(g.records) <= actions and tries < actions * quick(40, 4):
        tries += 1
        proc, req = player(g, rng)
        try_perform(g, proc, req)
        if name == "two_by_two" and g.state.stage == "over":
            break
    return g


def nab_fold_scale() -> None:
    """Napoleon At Bay's fold per event at 2,000 forces on a 200x200 map against the same
    events' fold at 20 forces (the first 20 of the same scenario), one run, interleaved."""
    from bench.bench_nab import big_scenario
    from bench.timing import interleaved
    from vedette.rules.napoleon_at_bay.events import Moved

    rs = rules.get("napoleon_at_bay")
    scn = big_scenario()
    small_scn = {**scn, "forces": scn["forces"][:20]}
    runs = {}
    big = f"{len(scn['forces']):,} forces"
    for label, sc in (("20 forces", small_scn), (big, scn)):
        st = rs.initial_state(sc, {})
        rng = random.Random(5)
        mine = [p.id for p in st.pieces.values() if p.side == "Fr"][:10]
        events, s = [], st
        for i in range(200):
            p = s.pieces[mine[i % len(mine)]]
            near = [h for h in s.map.zoc(p.hexes[0]) if s.map.passable(h)]
            e = Moved(force=p.id, from_=p.hexes, to=(rng.choice(near),))
            s = rs.fold(s, e)
            events.append(e)

        def run(st: Any = st, events: list[Any] = events) -> Any:
            s = st
            for e in events:
                s = rs.fold(s, e)
            return s

        runs[label] = (run, events, st)
    # the same moves of the same ten forces, folded on both: the moved forces end alike
    a, b = (r[0]() for r in runs.values())
    assert all(a.pieces[k] == b.pieces[k] for k in a.pieces if k in b.pieces and k in a.moved)
    t = interleaved({k: v[0] for k, v in runs.items()}, repeat=7)
    per = {k: t[k] / len(v[1]) for k, v in runs.items()}
    print(
        "  Napoleon At Bay fold per event (200 moves of 10 forces): "
        + ", ".join(f"{k} {v * 1e6:.1f} us" for k, v in per.items())
        + f"; {big} / 20 = {per[big] / per['20 forces']:.2f}x ({load()})"
        " (was 741 us/event at 2,000 forces: every piece copied)"
    )


def main() -> None:
    global ACTIONS
    if len(sys.argv) > 1:
        ACTIONS = int(sys.argv[1])
    print(
        f"replay and open per ruleset: a log of about {ACTIONS:,} actions played from the sample"
        " scenario by a seeded random player"
    )
    print(
        "  replay: every event decoded and checked as an import is (checked), and as the store's"
        " own log is decoded on open (stored)"
    )
    print("  baseline: reading the same log back (Store.records: SQLite read + JSON decoding)")
    print("  asserted: replay and open reach the live game's state")
    print(f"  the log on disk ({disk_dir()}), read with the store's default durability; {load()}")
    worst = float("inf")
    for name in ("napoleon_at_bay", "solitaire_asl", "two_by_two", "solo_napoleonic"):
        with tempfile.TemporaryDirectory(dir=disk_dir()) as d:
            t0 = time.perf_counter()
            g = play(name, Path(d) / "g.db", ACTIONS)
            t_play = time.perf_counter() - t0
            g.store.close()  # (played without syncing): read back as a user's store is
            st = Store(Path(d) / "g.db")
            records = st.records(g.id)
            n = len(records)
            events = sum(len(r.payload.get("events", [])) for r in records if r.kind == "action")
            rs = g.ruleset
            gname = "g" if name == "solo_napoleonic" else "bench"
            assert replay(rs, records).state == g.state, name
            assert replay(rs, records, stored=True).state == g.state, name
            assert Game.open(st, gname).state == g.state, name
            # best of 9 rounds, each round one call of each (interleaved): on a loaded machine
            # some runs are slowed, and a slow moment falls on the baseline as on the rest
            t = interleaved(
                {
                    "read": lambda st=st, g=g: st.records(g.id),
                    "replay": lambda rs=rs, records=records: replay(rs, records),
                    "stored": lambda rs=rs, records=records: replay(rs, records, stored=True),
                    "open": lambda st=st, gname=gname: Game.open(st, gname),
                },
                repeat=9,
                min_time=0,
            )
            t_read, t_replay, t_stored, t_open = t["read"], t["replay"], t["stored"], t["open"]
            rate = events / t_stored
            worst = min(worst, rate)
            print(
                f"  {name:<16} {n:>6,} records, {events:>6,} events (played in {t_play:5.1f} s):"
                f" replay checked {events / t_replay:>8,.0f} events/s"
                f" ({n / t_replay:>8,.0f} records/s), stored {rate:>8,.0f} events/s"
                f" ({n / t_stored:>8,.0f} records/s) = {t_stored / t_read:4.1f}x the read;"
                f" open {t_open * 1e3:6.1f} ms (from a snapshot) = {t_open / t_read:4.2f}x the read"
                f" ({t_read * 1e3:.1f} ms)",
                flush=True,
            )
            st.close()
    print(
        f"  slowest ruleset (stored): {worst:,.0f} events/s (target >= 50,000/s for every ruleset)"
    )
    nab_fold_scale()
    print(f"  at the end: {load()}")


if __name__ == "__main__":
    main()
