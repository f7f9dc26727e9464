"""Snapshots are a cache of the fold, never the truth (issue 16).

Every ruleset's conformance game is played with a snapshot every few records; then, at random
points of its log, a game holding only the log up to there (and the snapshots and index the
store had then) opens to the state a full replay reaches; damaged, misplaced, stale or deleted
snapshots and a deleted index change nothing a player sees; every state met round-trips
through the ruleset's ``snapshot``/``restore``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tests.conformance import play_game
from tests.sizes import runs
from vedette import rules
from vedette.engine import Game, Store, effective_actions, replay
from vedette.engine import session as session_mod
from vedette.engine.snapshot import Unsnapshottable, decode, encode

RULESETS = list(rules.BUILTIN)
PLAYED = RULESETS
EVERY = 5


@pytest.fixture(autouse=True)
def _often(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session_mod, "SNAPSHOT_EVERY", EVERY)


def _played(name: str, tmp_path: Path, seed: int = 3, steps: int = 90) -> tuple[Store, Game]:
    store = Store(tmp_path / "g.db", synchronous="OFF")
    g = play_game(name, seed, steps, store, odds_checks=0)
    return store, g


def _view(g: Game) -> tuple[object, ...]:
    return (g.state, g.position, g.effective, g.reservations, g.log_lines(), g.render())


def _copy_prefix(store: Store, gid: int, k: int, name: str) -> Game:
    """A new game holding the first ``k`` records of game ``gid`` and the index rows and
    snapshots the store had for them (as if the game had stopped there)."""
    records = store.records(gid, upto=k)
    new = store.import_game(
        name,
        store.db.execute("SELECT ruleset FROM games WHERE id=?", (gid,)).fetchone()[0],
        records,
    )
    db = store.db
    db.execute("BEGIN")
    db.execute(
        "INSERT INTO log_index SELECT ?, seq, action, top, below, high,"
        " CASE WHEN undone > ? THEN 0 ELSE undone END FROM log_index"
        " WHERE game_id=? AND seq<=?",
        (new, k, gid, k),
    )
    db.execute(
        "INSERT INTO snapshots SELECT ?, seq, model, state, book FROM snapshots"
        " WHERE game_id=? AND seq<=?",
        (new, gid, k),
    )
    db.execute("COMMIT")
    return Game.open(store, name)


@pytest.mark.parametrize("name", PLAYED)
def test_snapshot_and_tail_equal_a_full_replay_at_random_points(name: str, tmp_path: Path) -> None:
    store, g = _played(name, tmp_path)
    n = len(g.records)
    snaps = store.db.execute(
        "SELECT COUNT(*), SUM(state<>'') FROM snapshots WHERE game_id=?", (g.id,)
    ).fetchone()
    assert snaps[0] >= n // EVERY - 1
    if name in RULESETS:  # every shipped ruleset's state can be snapshotted
        assert snaps[1] == snaps[0], f"{name}: {snaps[0] - snaps[1]} snapshots without a state"
    rng = random.Random(name)
    # (tests/sizes.py: 6 random points and the end in make test, 12 and the end in CI)
    for k in sorted({*rng.sample(range(1, n + 1), min(runs(12, 6), n)), n}):  # (the end once)
        copy = _copy_prefix(store, g.id, k, f"{name}-at-{k}")
        full = replay(g.ruleset, store.records(g.id, upto=k))
        assert copy.state == full.state, f"{name} at #{k}"
        assert (copy.position, copy.effective, copy.reservations) == (
            full.position,
            full.effective,
            full.reservations,
        ), f"{name} at #{k}"
        # and it plays on from there as the full replay would: undo folds from a snapshot
        if copy.effective:
            copy.undo()
            again = replay(g.ruleset, store.records(copy.id))
            assert (copy.state, copy.position, copy.reservations) == (
                again.state,
                again.position,
                again.reservations,
            ), f"{name} undo at #{k}"


@pytest.mark.parametrize("name", RULESETS)
def test_damaged_stale_or_missing_snapshots_change_nothing(name: str, tmp_path: Path) -> None:
    store, g = _played(name, tmp_path, seed=5, steps=60)
    want = _view(Game.open(store, g.name))
    assert want == _view(g)
    db = store.db
    damages = [
        "UPDATE snapshots SET state = substr(state, 1, length(state) / 2) WHERE game_id=?",
        "UPDATE snapshots SET state = replace(state, '1', '2') WHERE game_id=?",
        "UPDATE snapshots SET state = 'not json' WHERE game_id=?",
        "UPDATE snapshots SET model = model + 1 WHERE game_id=?",  # stale: another model
        "UPDATE snapshots SET book = '{' WHERE game_id=?",
        # a snapshot moved to another place in the log
        "UPDATE snapshots SET state = (SELECT state FROM snapshots s WHERE s.game_id=?1"
        " ORDER BY seq LIMIT 1) WHERE game_id=?1",
        "DELETE FROM snapshots WHERE game_id=?",
        "DELETE FROM log_index WHERE game_id=?",
        # a missing row: the index is incomplete and made again from the log
        "DELETE FROM log_index WHERE game_id=?1 AND seq = (SELECT MAX(seq) - 1 FROM log_index"
        " WHERE game_id=?1)",
    ]
    for sql in damages:
        db.execute("BEGIN")
        db.execute(sql, (g.id,))
        db.execute("COMMIT")
        again = Game.open(store, g.name)
        assert _view(again) == want, sql
        # and the game plays on: an undo, then the same view as a replay of the log
        if again.effective:
            again.undo()
            full = replay(g.ruleset, store.records(g.id))
            assert (again.state, again.position, again.reservations) == (
                full.state,
                full.position,
                full.reservations,
            ), sql
        g = Game.open(store, g.name)
        want = _view(g)


@pytest.mark.parametrize("name", RULESETS)
def test_every_state_round_trips_through_snapshot_and_restore(name: str) -> None:
    store = Store(":memory:")
    g = play_game(name, 7, 70, store, odds_checks=0)
    rs = g.ruleset
    records = store.records(g.id)
    initial = rs.initial_state(
        records[0].payload["scenario"], session_mod._options(records[0].payload)
    )
    folded: list[tuple[int, object]] = []  # (seq, state after it) of each action folded
    for k in range(1, len(records) + 1):
        # folded from the very initial state, as the engine does: the states after the actions
        # this log shares with the one before are kept (the same events folded on the same
        # state), the rest folded again (an undo takes an action out)
        effective = effective_actions(records[1:k])
        i = 0
        while i < min(len(folded), len(effective)) and folded[i][0] == effective[i].seq:
            i += 1
        del folded[i:]
        state = folded[-1][1] if folded else initial
        for a in effective[i:]:
            for e in a.payload["events"]:
                state = rs.fold(state, rs.decode(e))
            folded.append((a.seq, state))
        assert state == replay(rs, records[:k]).state
        data = json.loads(json.dumps(rs.snapshot(state, initial)))
        assert rs.restore(data, initial) == state, f"{name} at #{k}"


def test_the_codec_keeps_types_and_refuses_foreign_objects() -> None:
    from fractions import Fraction

    value = {
        ("a", 1): [frozenset({1, 2}), (1.5, None, True)],
        "q": Fraction(2, 3),
        3: {"x"},
        "inf": float("inf"),
    }
    back = decode(json.loads(json.dumps(encode(value))))
    assert back == value and type(back[("a", 1)][1]) is tuple
    with pytest.raises(Unsnapshottable):
        encode(Path("."))
    with pytest.raises(ValueError, match="outside vedette"):
        decode({"c": "os:system", "v": {}})


def test_an_old_game_gets_its_index_and_snapshots_on_open(tmp_path: Path) -> None:
    """A game from a store without the index (or with its derived rows lost) opens the same
    and is indexed then; the open writes a snapshot, the next open folds from it."""
    store, g = _played("napoleon_at_bay", tmp_path, seed=2, steps=40)
    want = _view(g)
    store.db.execute("DELETE FROM log_index")
    store.db.execute("DELETE FROM snapshots")
    opened = Game.open(store, g.name)
    assert _view(opened) == want
    n_index = store.db.execute("SELECT COUNT(*) FROM log_index").fetchone()[0]
    assert n_index == len(g.records)
    assert store.latest_snapshot_seq(g.id) == len(g.records)
    assert _view(Game.open(store, g.name)) == want


def test_a_game_kept_between_requests_reads_its_log_from_any_thread(tmp_path: Path) -> None:
    """The web keeps a game between requests and serves it from the threads of its pool: the
    lazily read log, the actions in force and the undone marks are read on the reading
    thread's own connection (SQLite refuses a connection used across threads)."""
    import threading

    store, g = _played("napoleon_at_bay", tmp_path, seed=4, steps=40)
    g = Game.open(store, g.name)  # nothing of its log read yet but the tail
    want = (g.log_lines(), [r.to_json() for r in g.records], g.effective)
    g = Game.open(store, g.name)
    got: list[object] = []
    t = threading.Thread(
        target=lambda: got.append((g.log_lines(), [r.to_json() for r in g.records], g.effective))
    )
    t.start()
    t.join()
    assert got == [want]
