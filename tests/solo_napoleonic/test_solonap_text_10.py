"""Kuryakin's text as acceptance cases (seed 004), session 20, helper K10: the flow a player
meets in a whole battle. Each case is played through the public API (``Game.create`` /
``perform`` / ``todo`` / ``is_legal``) with forced dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.solo_napoleonic.test_solonap_table import _game, _own, _rated
from tests.solo_napoleonic.test_solonap_text_2 import killed_with_f1
from tests.solo_napoleonic.test_solonap_text_3 import ready, unit
from tests.solo_napoleonic.test_solonap_text_6 import offered
from vedette.dice.sources import DiceNeeded
from vedette.engine import Game
from vedette.errors import RuleViolation
from vedette.rules.solo_napoleonic import cards
from vedette.rules.solo_napoleonic.chance import chance_deck


# == Move Sequence: each side draws one chance card ===============================================
def _controlled(tmp_path: Path, dice: str) -> tuple[Any, dict[str, int]]:
    g = _game(tmp_path, dice)
    if dice == "physical":
        _rated(g)
        _own(g, "control", {})
    else:
        g.perform("staff", {})
        g.perform("control", {})
    hs = [h for h, _, _ in cards.holders(g.state)]
    return g, {h: i + 1 for i, h in enumerate(hs)}


def test_a_chance_card_given_for_one_side_leaves_the_other_to_draw_its_own(
    tmp_path: Path,
) -> None:
    """Move Sequence: "each turn each side draws one chance card". A deal that gave the French
    card by hand (``chance={"French": ...}``) left the Austrians with none that turn. Now the
    side not named draws its own from the cards left (the game's dice, or the player's deck):
    never the card the other side holds. ``chance={}`` still states that none is dealt."""
    g, by_hand = _controlled(tmp_path / "seeded", "seeded")
    out = g.perform("deal", {"cards": by_hand, "chance": {"French": "smoke"}})
    assert g.state.chance["French"] == "smoke"
    assert g.state.chance.get("Austrians") not in (None, "smoke")
    assert [r.label for r in out.rolls] == ["Austrians draws a chance card"]
    (odds,) = [o for o in g.odds("deal", {"chance": {"French": "smoke"}}) if "chance" in o.label]
    assert odds.label == "Austrians's chance card" and "smoke" not in {r.key for r in odds.rows}
    # the player's own deck: the Austrians' card is asked, the French card is out of the deck
    h, by_hand = _controlled(tmp_path / "own", "physical")
    deck = [c.id for c in chance_deck(h.state)]
    try:
        h.perform("deal", {"cards": by_hand, "chance": {"French": deck[0]}})
        raise AssertionError("the Austrians' chance card was not asked")
    except DiceNeeded as e:
        assert "Austrians draws a chance card" in str(e) and f"1 {deck[0]}" not in str(e)
    h.perform("deal", {"cards": by_hand, "chance": {"French": deck[0]}}, [2])
    assert h.state.chance == {"French": deck[0], "Austrians": deck[1]}
    # none dealt, stated
    k, by_hand = _controlled(tmp_path / "none", "seeded")
    k.perform("deal", {"cards": by_hand, "chance": {}})
    assert k.state.chance == {}


# == reading K85: a killed brigadier is not replaced ==============================================
def test_a_killed_brigadiers_units_stay_out_of_command_each_with_its_own_card(
    tmp_path: Path,
) -> None:
    """Generals: a unit beyond 150mm "from its brigade commander is automatically out of command
    control"; Movement: "all out of control units have a separate card anyway". The text names
    no successor for a brigadier killed (reading K85): he is not replaced, so in every later
    control phase he rolls for nobody and each of his units is out of command, with its own
    card; he rides and attaches no more."""
    g = killed_with_f1(tmp_path, "brigadier")
    g.perform("next", {})  # FB's formation card: F1 owes its test for its general's loss
    g.perform("morale", {"unit": "F1"}, [0])
    g.perform("next", {})
    g.perform("end_turn", {})
    out = g.perform("control", {}, [1])  # AB alone rolls
    assert [r.label for r in out.rolls] == ["AB control"]
    assert "F1 out of command (no brigadier)" in out.message
    assert "F2 out of command (no brigadier)" in out.message
    holders = {h: units for h, units, _ in cards.holders(g.state)}
    assert "FB" not in holders and holders["F1"] == ("F1",) and holders["F2"] == ("F2",)
    g.perform("deal", {"cards": {"F1": 1, "F2": 2, "AB": 3}, "chance": {}})
    g.perform("next", {})
    assert not [t for t in g.todo() if t.request.get("general") == "FB"]
    assert not g.is_legal("general", {"general": "FB", "to": "F1"}).ok
    assert not g.is_legal("attach", {"general": "FB", "unit": "F1"}).ok


# == reading K86: a melee ends with its further rounds ============================================
# F1 (B) charges A1 (B), 10mm off (centres 40mm apart): A1 fails its test (d100 87, chart 4:
# retires a full move in disorder), retires 140mm; F1 follows it up (150mm, its move: K88) and
# comes home untested (A1 failed, F1 unhurt);
# round 1: F1 inflicts 5, A1 3, A1 holds (05); the D3 gives 1 further round: F1 inflicts 1,
# A1 3; F1 holds (32): the melee is over for the turn with both units standing in contact.
MELEE: list[tuple[str, dict[str, Any], list[int]]] = [
    ("charge", {"unit": "F1", "target": "A1"}, [6, 0]),
    ("next", {}, []),
    ("morale", {"unit": "A1", "charged_by": "F1"}, [87, 4]),
    ("move", {"unit": "A1", "mode": "retire"}, [-1, 2]),
    ("close", {"unit": "F1"}, []),
    ("charge_home", {"unit": "F1"}, []),
    ("melee", {"unit": "F1", "target": "A1"},
     [3, 1, 3, 2, 4, 2, 4, 6, 3, 6, 4, 3, 4, 4, 87, 6, 4, 6, 4, 4]),
    ("morale", {"unit": "A1"}, [5]),
    ("brawl", {"unit": "F1", "target": "A1"}, [1]),
    ("melee", {"unit": "F1", "target": "A1", "round": 2},
     [1, 4, 2, 96, 5, 5, 3, 5, 5, 6, 3, 2, 3]),
    ("morale", {"unit": "F1"}, [32]),
]  # fmt: skip


def test_a_melee_whose_further_rounds_are_fought_ends_with_the_turn(tmp_path: Path) -> None:
    """Melee: if the loser holds, "the melee continues for D3 further rounds this turn". The
    text carries no melee into the next turn, nor says a melee is fought again (reading K86):
    once the further rounds are fought and both sides held, nothing more of it is owed, this
    turn or the next; the two units, still in contact, act on their own cards, and a new fight
    between them is a new charge, with its Charge Test."""
    units = [unit("F1", x=1000.0, y=0.0, grade="B"), unit("A1", "Allies", x=1000.0, y=40.0,
             grade="B")]  # fmt: skip
    g = ready(tmp_path, units)
    for procedure, request, dice in MELEE:
        g.perform(procedure, request, dice or None)
    f1, a1 = g.state.unit("F1"), g.state.unit("A1")
    assert f1.on_table and a1.on_table and f1.melee_round == 2
    assert not [t for t in g.todo() if t.owed]
    assert not g.is_legal("melee", {"unit": "F1", "target": "A1", "round": 3}).ok
    g.perform("next", {})
    g.perform("end_turn", {})
    g.perform("control", {}, [1, 1])
    g.perform("deal", {"cards": {"F1": 1, "A1": 2}, "chance": {}})
    g.perform("next", {})
    assert not [t for t in g.todo() if t.owed]
    assert g.state.unit("F1").melee_round == 0
    assert {"unit": "F1", "target": "A1"} in offered(g, "charge")
    assert [t for t in g.todo() if t.procedure == "move" and t.request["unit"] == "F1"]


# == reading K87: a formation change carried into the next turn is finished first ================
def _carried(tmp_path: Path, house: dict[str, Any] | None = None) -> Game:
    """F1 (C, out of command: +2) changes from line to square on its card: a D4 of 4, so 6
    quarters of a move, 2 carried into the next turn (and 1D at the end of this one); the next
    turn's card of F1 is up."""
    g = ready(tmp_path, [unit("F1", x=1000.0, y=0.0), unit("A1", "Allies", x=1000.0, y=600.0)],
              house=house)  # fmt: skip
    assert (
        "2 quarter(s) carry into next turn"
        in g.perform("formation", {"unit": "F1", "to": "square"}, [4]).message
    )
    g.perform("next", {})
    g.perform("next", {})
    g.perform("end_turn", {})
    g.perform("control", {}, [1, 1])
    g.perform("deal", {"cards": {"F1": 1, "A1": 2}, "chance": {}})
    g.perform("next", {})
    return g


def test_a_change_carried_into_the_next_turn_is_finished_before_the_unit_moves(
    tmp_path: Path,
) -> None:
    """Formation Changing: the D4 gives "the number of quarters of movement required to arrive
    in the new formation", and "some units have to carry a change into the next turn, whilst
    others can do it on the march". A unit whose change to square was carried over was offered,
    and allowed, a whole move in line the next turn, its change still under way (another 1D at
    that turn's end), and a reform. Reading K87: on its card the change goes on first (owed
    before the card ends; a move, a charge or a reform before it is refused naming the
    reading); what is left of its move after it is the new formation's. ``waive`` drops the
    change, logged; ``carried_change_first = false`` gives the old way."""
    g = _carried(tmp_path / "a")
    owed = [(t.procedure, dict(t.request)) for t in g.todo() if t.owed]
    assert owed == [("formation", {"unit": "F1", "to": "square"})]
    assert offered(g, "move") == [] and offered(g, "reform") == []
    move = {"unit": "F1", "mode": "move", "distance": 50.0, "direction": 180.0}
    for procedure, request in (("move", move), ("reform", {"unit": "F1"})):
        with pytest.raises(RuleViolation, match="K87"):
            g.perform(procedure, request)
    with pytest.raises(RuleViolation):
        g.perform("next", {})  # the change is owed before the card ends
    out = g.perform("formation", {"unit": "F1", "to": "square"})
    assert "in square now" in out.message and not [t for t in g.todo() if t.owed]
    f1 = g.state.unit("F1")
    assert f1.formation == "square" and f1.formation_target is None
    g.perform("next", {})
    g.perform("next", {})
    assert "formation incomplete" not in g.perform("end_turn", {}).message
    # waived: the change is dropped, and the unit moves in line
    h = _carried(tmp_path / "b")
    h.perform("waive", {"obligation": "change:F1"})
    assert h.state.unit("F1").formation_target is None
    assert offered(h, "move")
    # the old way
    k = _carried(tmp_path / "c", {"options": {"carried_change_first": False}})
    assert not [t for t in k.todo() if t.owed] and offered(k, "move")
