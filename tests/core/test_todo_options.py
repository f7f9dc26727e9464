"""Issue 22 across the option space the users have: random play from ``todo`` alone
(tests/todo_play.py) on every bundled scenario of each ruleset under each option set that
changes the flow (``todo_play.OPTION_SETS``: NAB's draft variant, series, fixing options; ASL's
separate sizes, night with cloaked stacks, other readings of the flow; 2 by 2's stated and
tracked play, other readings, a short battle that ends; Kuryakin's optional figures and other
readings), with the game's dice and with the player's own (each die chosen at random when the
referee asks for it), with and without undo in the middle of the sequences. Every offered
action is accepted, every owed step is performable as offered, ``todo`` is never empty
mid-game, replay equals live play, and an undo gives back the state before the action.

The normal run plays two short games per (scenario, option set), CI four: even seeds with the
game's dice, odd seeds with the player's own dice, undo now and then (one to three actions, the
earliest one sometimes done again) and an owed step waived now and then (the Next panel's
"waive..."). ``VEDETTE_TODO_SWEEP=1`` plays the long sweep instead: ``VEDETTE_TODO_SWEEP_GAMES``
games (default 20) of ``VEDETTE_TODO_SWEEP_STEPS`` actions (default 300) per (scenario, option
set, dice/undo/waive mix), and prints the counts (``-s``); keep ``-n`` low on a shared machine."""

from __future__ import annotations

import os

import pytest

from tests.sizes import runs
from tests.todo_play import OPTION_SETS, Counts, OptionSet, play_set
from vedette import rules
from vedette.engine import Game, Store

SWEEP = os.environ.get("VEDETTE_TODO_SWEEP") == "1"
#: games per case: 2 in the normal run, 4 in CI (tests/sizes.py)
GAMES = runs(4, 2)
STEPS = 40
CASES = [
    pytest.param(r, sc, s, id=f"{r}-{sc}-{s.name}")
    for r, sets in OPTION_SETS.items()
    for sc in rules.get(r).scenarios
    for s in sets
]


@pytest.mark.skipif(SWEEP, reason="the long sweep runs instead")
@pytest.mark.parametrize(("ruleset", "scenario", "option_set"), CASES)
def test_todo_offers_are_accepted_under_each_option_set(
    ruleset: str, scenario: str, option_set: OptionSet
) -> None:
    total = Counts()
    for seed in range(GAMES):  # (even seeds: the game's dice; odd: the player's, undo, waive)
        own = seed % 2 == 1
        total.add(
            play_set(
                ruleset,
                scenario,
                option_set,
                seed,
                STEPS,
                "physical" if own else "seeded",
                undo=0.2 if own else 0.0,
                waive=0.1 if own else 0.0,
            )
        )
    assert total.failures == 0, "\n".join([total.line(), *total.problems[:20]])
    assert total.actions > 2  # the games did something


@pytest.mark.skipif(not SWEEP, reason="VEDETTE_TODO_SWEEP=1: the long sweep")
@pytest.mark.parametrize(("ruleset", "scenario", "option_set"), CASES if SWEEP else [])
@pytest.mark.parametrize(
    ("dice", "undo", "waive"),
    [("seeded", 0.0, 0.0), ("physical", 0.0, 0.0), ("seeded", 0.15, 0.0), ("physical", 0.1, 0.1)],
)
def test_todo_sweep(
    ruleset: str, scenario: str, option_set: OptionSet, dice: str, undo: float, waive: float
) -> None:
    games = int(os.environ.get("VEDETTE_TODO_SWEEP_GAMES", "20"))
    steps = int(os.environ.get("VEDETTE_TODO_SWEEP_STEPS", "300"))
    total = Counts()
    for seed in range(games):
        total.add(play_set(ruleset, scenario, option_set, 100 + seed, steps, dice, undo, waive))
    how = f"{dice} undo={undo} waive={waive}"
    print(f"\n{ruleset}/{scenario} {option_set.name} {how}: {total.line()}")
    assert total.failures == 0, "\n".join([total.line(), *total.problems[:20]])


def test_own_dice_and_undo_are_really_played() -> None:
    """The harness plays what it says: with the player's own dice the faces it rolls are in
    the log, its undos are logged undos, and its waivers are logged waivers."""
    store = Store(":memory:")
    default = OPTION_SETS["solo_napoleonic"][0]
    total = play_set("solo_napoleonic", "attached", default, 3, 60, "physical", 0.3, 0.5, store)
    assert total.failures == 0, "\n".join(total.problems)
    g = Game.open(store, "todo-3")
    assert g.physical
    kinds = [r.kind for r in g.records]
    assert kinds.count("undo") > 0
    assert any(r.payload.get("procedure") == "waive" for r in g.records if r.kind == "action")
    assert any(r.payload.get("rolls") for r in g.records if r.kind == "action")


def test_the_harness_sees_an_undo_that_undoes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Game, "undo", lambda self: None)
    total = play_set("two_by_two", "close", OPTION_SETS["two_by_two"][0], 1, 40, "seeded", 1.0)
    assert total.failures == 1 and "left another state" in total.problems[0]


@pytest.mark.parametrize("name", ["short battle, no HQ rule", "stated, short battle"])
@pytest.mark.parametrize("scenario", list(rules.get("two_by_two").scenarios))
def test_a_short_battle_ends_when_played_from_todo_alone(name: str, scenario: str) -> None:
    """The end where the rules put it (2 by 2's victory check, [victory] of the scenario: 2 AP
    or 2 turns) is reached by play from ``todo`` alone, with either dice, and todo then
    offers nothing."""
    (s,) = [s for s in OPTION_SETS["two_by_two"] if s.name == name]
    store = Store(":memory:")
    for seed, dice in ((0, "seeded"), (1, "physical")):
        total = play_set("two_by_two", scenario, s, seed, 400, dice, undo=0.1, store=store)
        assert total.failures == 0, "\n".join(total.problems)
        assert total.ended == 1, f"{scenario} seed {seed}: {total.line()}"
        assert Game.open(store, f"todo-{seed}").todo() == []
