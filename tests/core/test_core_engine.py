"""The game log: append-only SQLite, replay, undo that cannot re-roll, export/import."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tests.toy  # noqa: F401  (registers the toy ruleset)
from tests.sizes import examples
from vedette.engine import Game, Store, replay
from vedette.errors import BadRequest, DiceError, GameError, RuleViolation, VedetteError


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "games.sqlite3")


def test_state_is_the_fold_and_replay_is_identical(store: Store) -> None:
    g = Game.create(store, "g", "toy", {"limit": 1000}, seed=7)
    for _ in range(30):
        g.perform("advance", {})
    again = Game.open(store, "g")
    assert again.state == g.state and again.position == g.position == 30
    assert replay(g.ruleset, store.records(g.id)).state == g.state


def test_same_seed_same_game(tmp_path: Path) -> None:
    states = []
    for i in range(2):
        s = Store(tmp_path / f"{i}.db")
        g = Game.create(s, "g", "toy", {}, seed=99)
        for _ in range(10):
            g.perform("advance", {})
        states.append(g.state)
    assert states[0] == states[1]


def test_undo_cannot_reroll(store: Store) -> None:
    g = Game.create(store, "g", "toy", {}, seed=3)
    first = g.perform("advance", {}).rolls[0].to_json()["dice"]
    g.undo()
    # the stream does not go back: the undone die stays reserved for the same action
    assert g.position == 1 and g.state.history == ()
    again = g.perform("advance", {}).rolls[0].to_json()["dice"]
    assert again == first
    # nothing was deleted: created, action, undo, action
    assert [r.kind for r in store.records(g.id)] == ["created", "action", "undo", "action"]


def test_undo_does_not_show_the_next_die_to_another_action(store: Store) -> None:
    """Undo a roll, then do something else: it draws past the undone die, so undo cannot be
    used to see a die before choosing what to spend it on."""
    ref = Game.create(store, "ref", "toy", {}, seed=5)
    stream = [ref.perform("advance", {}).rolls[0].natural for _ in range(3)]
    g = Game.create(store, "g", "toy", {}, seed=5)
    g.perform("advance", {})
    g.undo()
    other = g.perform("advance", {"bonus": 1}).rolls[0]
    assert other.natural == stream[1]  # not the undone die stream[0]
    g.undo()
    # the same request as the first undone action still gets its own die back
    assert g.perform("advance", {}).rolls[0].natural == stream[0]


def test_physical_dice_refused_for_an_undone_seeded_roll(store: Store) -> None:
    g = Game.create(store, "g", "toy", {}, seed=3)
    g.perform("advance", {})
    g.undo()
    with pytest.raises(DiceError, match="already rolled the dice"):
        g.perform("advance", {}, faces=[6])
    g.perform("advance", {"bonus": 2}, faces=[6])  # another action: the player's dice are fine
    p = Game.create(store, "p", "toy", {}, seed=3, dice="physical")
    p.perform("advance", {}, faces=[2])
    p.undo()
    p.perform("advance", {}, faces=[6])  # a game played with the player's own dice


def test_a_physical_dice_game_never_rolls_itself(store: Store) -> None:
    """Issue 26: a game made with the player's own dice asks for them, in one line naming the
    dice to roll, and writes nothing; it never draws from its seeded stream. The command
    line's words name its --dice; the web app's (``DiceError.web``) its dice buttons."""
    p = Game.create(store, "p", "toy", {}, seed=3, dice="physical")
    n = len(p.records)
    with pytest.raises(DiceError) as e:
        p.perform("advance", {})
    assert str(e.value) == (
        "advance: this game is played with your own dice: roll 1d6 and give the faces in order"
        " (--dice)"
    )
    assert e.value.web == (
        "advance: this game is played with your own dice: roll 1d6, tap each face in order on"
        " the dice buttons: the last one does it"
    )
    assert len(p.records) == n and p.position == 0
    p.perform("advance", {}, faces=[4])
    assert "1d6=4" in p.records[-1].payload["rolls"][0]["line"]
    assert p.records[-1].payload["dice"]["source"] == "physical"


def test_audit_counts_each_draw_once(store: Store) -> None:
    g = Game.create(store, "g", "toy", {}, seed=3)
    g.perform("advance", {})
    g.undo()
    g.perform("advance", {})  # the same die again
    g.perform("advance", {"bonus": 1})
    assert len(list(g.counted_rolls())) == 2


def test_undo_with_nothing_to_undo(store: Store) -> None:
    g = Game.create(store, "g", "toy", {}, seed=3)
    with pytest.raises(GameError, match="nothing to undo"):
        g.undo()


def test_refused_request_writes_nothing(store: Store) -> None:
    g = Game.create(store, "g", "toy", {"limit": 0}, seed=3)
    n = len(store.records(g.id))
    with pytest.raises(RuleViolation, match=r"\(Toy 2\)"):
        g.perform("advance", {})
    with pytest.raises(BadRequest):
        g.perform("advance", {"bonus": "lots"})
    with pytest.raises(BadRequest):
        g.perform("nonesuch", {})
    assert len(store.records(g.id)) == n


def test_physical_dice_checked_before_anything_is_written(store: Store) -> None:
    g = Game.create(store, "g", "toy", {}, seed=3)
    with pytest.raises(DiceError, match="7 is not a face of d6"):
        g.perform("advance", {}, faces=[7])
    with pytest.raises(DiceError, match="only 1 needed"):
        g.perform("advance", {}, faces=[4, 4])
    assert len(store.records(g.id)) == 1
    g.perform("advance", {}, faces=[4])
    assert g.state.history == (4,) and g.position == 0  # physical dice leave the stream alone


def test_events_are_append_only(store: Store) -> None:
    g = Game.create(store, "g", "toy", {}, seed=3)
    g.perform("advance", {})
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store.db.execute("DELETE FROM events")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        store.db.execute("UPDATE events SET kind='x'")


def test_concurrent_writer_is_detected(tmp_path: Path) -> None:
    a = Game.create(Store(tmp_path / "g.db"), "g", "toy", {}, seed=1)
    b = Game.open(Store(tmp_path / "g.db"), "g")
    a.perform("advance", {})
    with pytest.raises(GameError, match="changed"):
        b.perform("advance", {})


def test_export_import_round_trip(store: Store, tmp_path: Path) -> None:
    g = Game.create(store, "g", "toy", {}, seed=5)
    for _ in range(5):
        g.perform("advance", {})
    g.undo()
    text = g.export_jsonl()
    other = Store(tmp_path / "other.db")
    h = Game.import_jsonl(other, text)
    assert h.name == "g" and h.state == g.state and h.position == g.position
    with pytest.raises(GameError, match="already exists"):
        Game.import_jsonl(other, text)
    with pytest.raises(GameError, match="not a vedette game export"):
        Game.import_jsonl(other, '{"x": 1}\n', "z")
    with pytest.raises(GameError, match="line 2 is not JSON"):
        Game.import_jsonl(other, text.splitlines()[0] + "\n{oops\n", "z")


def test_names_list_and_current_game(store: Store) -> None:
    Game.create(store, "one", "toy", {}, seed=1)
    Game.create(store, "two", "toy", {}, seed=1)
    assert [g.name for g in store.games()] == ["one", "two"]
    assert Game.open(store).name == "two"
    with pytest.raises(GameError, match="already exists"):
        Game.create(store, "one", "toy", {}, seed=1)
    with pytest.raises(GameError, match="no game named"):
        Game.open(store, "three")
    store.rename("one", "uno")
    assert Game.open(store, "uno").name == "uno"


@settings(max_examples=examples(25), deadline=None)
@given(st.lists(st.sampled_from(["advance", "undo"]), max_size=40), st.integers(0, 2**31))
def test_any_sequence_of_actions_replays_identically(actions: list[str], seed: int) -> None:
    s = Store(":memory:")
    g = Game.create(s, "g", "toy", {}, seed=seed)
    for a in actions:
        if a == "undo":
            if g.effective:
                g.undo()
        else:
            g.perform("advance", {})
    r = replay(g.ruleset, s.records(g.id))
    assert r.state == g.state and r.position == g.position
    # the dice book kept up action by action is the one read from the whole log
    assert r.reservations == g.reservations


def test_an_undeclared_argument_is_refused_with_a_suggestion(store: Store) -> None:
    g = Game.create(store, "g", "toy", {}, seed=3)
    with pytest.raises(BadRequest, match=r"no argument 'bonsu'; did you mean 'bonus'"):
        g.perform("advance", {"bonsu": 1})
    with pytest.raises(BadRequest, match="no argument 'x'"):
        g.odds("advance", {"x": 1})
    assert len(store.records(g.id)) == 1


def test_an_obligation_blocks_what_it_names_until_discharged_or_waived(store: Store) -> None:
    """The toy's natural 6 owes a cheer (Toy 3) that blocks 'rest' (Toy 4); 'todo' lists it
    first; waiving it is a logged action; undo brings it back."""
    g = Game.create(store, "g", "toy", {}, seed=3)
    g.perform("advance", {}, faces=[6])
    assert [o.id for o in g.obligations()] == ["cheer"]
    assert g.todo()[0].owed and g.todo()[0].procedure == "cheer"
    n = len(g.records)
    with pytest.raises(
        RuleViolation, match=r"a cheer for the six is owed first: 'cheer'.*\(Toy 3\)"
    ):
        g.perform("rest", {})
    assert len(g.records) == n
    g.perform("advance", {}, faces=[3])  # not blocked by the cheer
    g.perform("waive", {"obligation": "cheer", "reason": "no voice left"})
    assert g.obligations() == ()
    g.perform("rest", {})
    assert any("waived: cheer (no voice left)" in line for line in g.log_lines())
    g.undo()
    g.undo()
    assert [o.id for o in g.obligations()] == ["cheer"]
    g.perform("cheer", {})
    assert g.obligations() == ()
    with pytest.raises(BadRequest, match="nothing owed is called 'cheer'"):
        g.perform("waive", {"obligation": "cheer"})


def test_old_event_payloads_are_upgraded(store: Store) -> None:
    """A v1 'moved' payload (no 'v', no cheer) folds through the upgrade hook."""
    from vedette.rules import get

    rs = get("toy")
    e = rs.decode({"kind": "moved", "data": {"by": 4}})
    assert e.by == 4 and e.cheer is False
    with pytest.raises(VedetteError, match="newer than this release"):
        rs.decode({"kind": "moved", "v": 9, "data": {"by": 4}})


def test_request_fields_are_typed_and_unknown_ones_refused(store: Store) -> None:
    g = Game.create(store, "g", "toy", {}, seed=3)
    with pytest.raises(BadRequest, match=r"'bonus' must be a whole number, not 'lots'"):
        g.perform("advance", {"bonus": "lots"})
    with pytest.raises(BadRequest, match=r"has no argument 'bonsu'; did you mean 'bonus'"):
        g.perform("advance", {"bonsu": 1})
    assert g.perform("advance", {"bonus": "2"}, faces=[1]).rolls[0].final == 3
    spec = g.procedure("advance").spec
    assert spec.json_schema()["properties"]["bonus"] == {
        "description": "added to the roll",
        "type": "integer",
        "x-units": "pips",
        "default": 0,
    }


def test_whole_procedure_odds_equal_forced_dice_frequencies(store: Store) -> None:
    from fractions import Fraction

    g = Game.create(store, "g", "toy", {}, seed=3, dice="physical")
    ch = g.chances("advance", {"bonus": 1})
    counts: dict[str, int] = {}
    for face in range(1, 7):
        out = g.perform("advance", {"bonus": 1}, faces=[face])
        counts[out.result] = counts.get(out.result, 0) + 1
        g.undo()
    assert {c.result: c.p for c in ch.rows} == {k: Fraction(v, 6) for k, v in counts.items()}
