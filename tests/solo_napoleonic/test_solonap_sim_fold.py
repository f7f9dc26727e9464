"""The state a Kuryakin procedure builds as it records its facts (``Changes``), handed to the
simulator as the state its outcome leaves (``Ruleset.folded``, issue 29), against the core's
fold of those facts: the same state at every action of seeded simulated games, and the core's
fold wherever the facts are not those of the change list that built it."""

from __future__ import annotations

from typing import Any

import pytest

from vedette import rules
from vedette.errors import VedetteError
from vedette.rules.base import Ruleset
from vedette.rules.solo_napoleonic import cards, common, ruleset
from vedette.rules.solo_napoleonic.common import Changes, built
from vedette.rules.solo_napoleonic.events import (
    ActivationEnded,
    CardActivated,
    GeneralMoved,
    Moved,
    TurnEnded,
)
from vedette.rules.solo_napoleonic.requests import DryDice
from vedette.sim.play import Setup, play_game

RS = rules.get("solo_napoleonic")


def core_fold(state: Any, events: Any) -> Any:
    """Each event folded in turn by the core (``Ruleset.fold``: ``patch.fold_patch``)."""
    return Ruleset.folded(RS, state, events)


def test_the_state_a_procedure_built_is_the_core_fold_of_its_facts_at_every_action() -> None:
    """Kuryakin's every procedure (fire, moves, morale, melee, the cards, the turn's end...):
    the state the simulator takes from the procedure's change list is the core's fold of the
    outcome's facts, action after action (the fold the engine makes of the logged facts)."""
    taken = {"built": 0, "folded": 0, "events": 0}

    class Watched(type(RS)):  # type: ignore[misc]
        def folded(self, state: Any, events: Any) -> Any:
            got = super().folded(state, events)
            assert got == core_fold(state, events)
            taken["built" if built(state, events) is got else "folded"] += 1
            taken["events"] += len(events)
            return got

    watched = Watched()
    real = rules.get
    setup = Setup(RS.name, RS.scenario("sample"), max_actions=400)
    try:
        rules.get = lambda name: watched if name == RS.name else real(name)  # type: ignore[assignment]
        ends = [play_game(setup, 29, i).result for i in range(4)]
    finally:
        rules.get = real  # type: ignore[assignment]
    # the shortcut is what the simulator takes (every action records facts through a change
    # list), and the games are those played without it
    # (fewer than 1000 actions in 3 games since a routing unit owes its run: reading K60)
    assert taken["built"] >= 900 and taken["events"] > taken["built"]
    plain = [play_game(setup, 29, i).result for i in range(4)]
    assert ends == plain


def test_facts_not_of_the_last_change_list_are_folded_by_the_core() -> None:
    """Only the very facts of the change list that recorded last, all of them, in order, from
    the state it began with, take its state; anything else is folded event by event."""
    state = RS.initial(RS.scenario("sample"), {})
    a, b = state.units[0].id, state.units[1].id
    ch = Changes(state)
    ch.unit(ActivationEnded, a, "card finished", acted=True)
    ch.unit(Moved, b, "a move", x=state.units[1].x + 40.0, moved_mm=40.0)
    events = tuple(ch.events)
    assert len(events) == 2
    assert built(state, events) is ch.state
    assert RS.folded(state, events) is ch.state == core_fold(state, events)
    # the first fact alone, the facts in another order, from another state: the core's fold
    assert built(state, events[:1]) is None
    assert RS.folded(state, events[:1]) == core_fold(state, events[:1])
    assert RS.folded(state, events[:1]).unit(b) == state.unit(b)
    assert built(state, events[::-1]) is None
    other = core_fold(state, events[:1])
    assert built(other, events) is None
    assert RS.folded(other, events[1:]) == ch.state
    # a change list given facts recorded elsewhere: where they began is not known
    given = Changes(state, list(events))
    given.unit(ActivationEnded, b, "card finished", acted=True)
    assert built(state, tuple(given.events)) is None
    # another change list recorded since: the first one's facts are folded again
    Changes(state).unit(ActivationEnded, b, "card finished", acted=True)
    assert common._LAST[0] is not ch and built(state, events) is None
    assert RS.folded(state, events) == ch.state


def test_a_fact_is_folded_as_the_core_folds_it() -> None:
    """A unit's, a general's and the turn's facts folded by the change list itself (the unit
    at its index's place updated; the turn's values read back from their JSON) leave the state
    the core's fold leaves, the other units the very same objects."""
    state = RS.initial(RS.scenario("sample"), {})
    u = state.units[2]
    ch = Changes(state)
    moved = ch.unit(Moved, u.id, "a move", x=u.x + 25.0, y=u.y - 10.0, moved_mm=27.0)
    assert moved is ch.state.unit(u.id)
    assert (moved.x, moved.y, moved.moved_mm) == (u.x + 25.0, u.y - 10.0, 27.0)
    assert ch.state == core_fold(state, ch.events)
    assert all(x is y for x, y in zip(ch.state.units, state.units, strict=True) if x.id != u.id)
    # no change: no fact, the same unit
    assert ch.unit(Moved, u.id, "no move", x=moved.x) is moved and len(ch.events) == 1
    # a general rides; the turn's values (logged as JSON) read back as the state holds them
    g = state.generals[0]
    rode = ch.general(GeneralMoved, g.id, "rides", x=(g.x or 0.0) + 30.0, moved_mm=30.0)
    assert rode is ch.state.general(g.id) and rode.moved_mm == 30.0
    ch.game(CardActivated, "next card", done=("a", "b"), active=u.id)
    ch.game(TurnEnded, "end of turn", turn=2, phase="control", control={}, chance={}, cards=())
    assert ch.state.done == ("a", "b") and type(ch.state.done) is tuple
    assert type(ch.state.control) is dict and ch.state.turn == 2 and ch.state.cards == ()
    assert ch.state == core_fold(state, ch.events) and len(ch.events) == 4
    assert built(state, tuple(ch.events)) is ch.state


def test_the_quiet_next_card_records_the_facts_the_worded_one_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """'next' is judged (its dry run: ``plan``, ``todo``) and played by the simulator without
    its words (``cards.quiet_next``: what the next card's units may do, looked at unit by
    unit, is written by ``resolve`` alone): at every 'next' of seeded simulated games, its
    verdict and its facts are those of the worded 'next' the engine resolves."""
    quiet = cards.quiet_next
    seen = {"played": 0, "judged": 0, "refused": 0}

    def checked(state: Any, req: Any, dice: Any) -> Any:
        worded: Any
        try:
            worded = ruleset.next_card(state, req, DryDice() if type(dice) is DryDice else dice)
        except VedetteError as e:
            worded = e
        try:
            out = quiet(state, req, dice)
        except VedetteError as e:
            assert type(worded) is type(e) and str(worded) == str(e)
            seen["refused"] += 1
            raise
        assert not isinstance(worded, VedetteError), worded
        assert out.events == worded.events
        seen["judged" if type(dice) is DryDice else "played"] += 1
        return out

    monkeypatch.setattr(cards, "quiet_next", checked)
    checked_rs = type(RS)()  # (its procedures made with the checked 'next')
    real = rules.get
    setup = Setup(RS.name, RS.scenario("sample"), max_actions=400)
    monkeypatch.setattr(rules, "get", lambda name: checked_rs if name == RS.name else real(name))
    ends = [play_game(setup, 29, i).result for i in range(3)]
    monkeypatch.setattr(rules, "get", real)
    assert ends == [play_game(setup, 29, i).result for i in range(3)]
    assert seen["played"] > 100, seen
