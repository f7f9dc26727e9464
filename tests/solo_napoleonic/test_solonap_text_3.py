"""Kuryakin's text as acceptance cases (seed 004), session 16: the places session 15 left where
the referee was not what a player holding the text expects. Each is played through the public
API (``Game.create`` / ``perform`` / ``todo``) with forced dice: a column passing its own
skirmish screen (reading K64), the moves the rules make that run into other units (Disorder),
skirmishers charged by cavalry (reading K65) and a general whose unit is destroyed (K66)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from vedette.engine import Game, Store
from vedette.errors import BadRequest, RuleViolation

SIDES = ["French", "Allies"]


def unit(uid: str, side: str = "French", **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"id": uid, "name": uid, "side": side, "kind": "infantry", "grade": "C",
                         "figures": 18, "formation": "line", "facing": 0.0 if side == "French"
                         else 180.0, "width": 90.0, "depth": 30.0,
                         "brigade": "FB" if side == "French" else "AB"}  # fmt: skip
    d.update(kw)
    return d


def cavalry(uid: str, side: str = "French", **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": "light_cavalry", "grade": "B", "figures": 12,
                         "formation": "mounted", "front": 6}  # fmt: skip
    d.update(kw)
    return unit(uid, side, **d)


def skirmishers(uid: str, side: str = "Allies", **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"formation": "skirmish", "figures": 8, "front": 8, "width": 120.0}
    d.update(kw)
    return unit(uid, side, **d)


def gen(gid: str, side: str = "French", **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"id": gid, "name": gid, "side": side, "rank": "brigadier",
                         "th": "average", "av": "normal", "grade": "average", "cr": 6}  # fmt: skip
    d.update(kw)
    return d


#: the French brigadier timid (a charger that fails to charge home retires 100mm), far off
TIMID: list[dict[str, Any]] = [
    gen("FB", av="timid", x=0.0, y=0.0),
    gen("AB", "Allies", x=0.0, y=900.0),
]


def ready(
    tmp_path: Path,
    units: Sequence[Mapping[str, Any]],
    gens: Sequence[Mapping[str, Any]] | None = None,
    house: Mapping[str, Any] | None = None,
    chance: Mapping[str, str] | None = None,
) -> Game:
    """The brigadiers stand far off (their units out of command: a card each), the cards dealt
    in the order the units are given; F1's card is up."""
    gens = [gen("FB", x=0.0, y=0.0), gen("AB", "Allies", x=0.0, y=900.0)] if gens is None else gens
    scen = {"title": "text3", "sides": SIDES, "units": list(units), "generals": list(gens)}
    g = Game.create(Store(tmp_path / "g.db"), "g", "solonap", scen, seed=7, house_rules=house)
    g.perform("control", {}, [1, 1])
    cards = {u["id"]: i + 1 for i, u in enumerate(units)}
    g.perform("deal", {"cards": cards, "chance": dict(chance or {})})
    g.perform("next", {})
    assert g.state.active == "F1"
    return g


def owed(g: Game) -> list[tuple[str, dict[str, Any]]]:
    return [(t.procedure, dict(t.request)) for t in g.todo() if t.owed]


COLLIDED = ("disorder", {"cause": "collision", "units": ["F1", "F2"]})


# == Skirmishers: a screen its own side passes through (reading K64) ==========================
def test_a_column_passes_through_its_own_skirmish_screen_without_a_collision(
    tmp_path: Path,
) -> None:
    """Skirmishers 'effectively screen other units': the column behind its own screen moves
    through it (Disorder's 'Each collision D3' is not owed); an enemy's skirmishers are still
    run into, and ``[options] friendly_skirmishers_collide`` makes the screen a collision (the
    skirmishers taking no D: 'they do not suffer disorder whilst unformed')."""
    column = unit("F1", formation="column", width=40.0, depth=60.0, x=500.0, y=300.0)
    screen = skirmishers("F2", "French", x=500.0, y=420.0, facing=0.0)
    g = ready(tmp_path / "a", [column, screen, unit("A1", "Allies", x=500.0, y=1100.0)])
    g.perform("move", {"unit": "F1", "distance": 120, "mode": "move"}, [6, 0, 3])
    assert g.state.unit("F1").collided == () and owed(g) == []
    enemy = skirmishers("F2", "Allies", x=500.0, y=420.0)
    h = ready(tmp_path / "b", [column, enemy, unit("A1", "Allies", x=500.0, y=1100.0)])
    out = h.perform("move", {"unit": "F1", "distance": 120, "mode": "move"}, [6, 0, 3])
    assert owed(h) == [] and "stops at contact with F2" in out.message  # (an enemy: K89)
    house = {"options": {"friendly_skirmishers_collide": True}}
    far = unit("A1", "Allies", x=500.0, y=1100.0)
    k = ready(tmp_path / "c", [column, screen, far], house=house)
    k.perform("move", {"unit": "F1", "distance": 120, "mode": "move"}, [6, 0, 3])
    assert owed(k) == [COLLIDED]
    k.perform(*COLLIDED, [2, 3])
    assert (k.state.unit("F1").disorder, k.state.unit("F2").disorder) == (2, 0)


# == Disorder: the moves the rules make run into units too ====================================
def test_a_charger_moving_up_through_another_unit_owes_the_collision(tmp_path: Path) -> None:
    """Charge Test: 'the attacker moves up to the target' in 'a straight line'; with
    ``[options] charge_through_friends`` (reading K68: by default a unit in the way bars the
    charge) a unit of its own standing between is run into (Disorder: 'Each collision D3 D's
    per unit involved'): the chits are owed first, then the charge goes on to its charge home
    test."""
    units = [
        cavalry("F1", x=500.0, y=0.0, width=90.0),
        unit("F2", x=500.0, y=115.0, width=40.0, depth=20.0),
        unit("A1", "Allies", x=500.0, y=245.0, width=120.0),
    ]
    g = ready(tmp_path, units, house={"options": {"charge_through_friends": True}})
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    g.perform("next", {})  # A1's jumped card: its forced test
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [0])
    g.perform("fire", {"unit": "A1", "target": "F1", "hold": True})
    out = g.perform("close", {"unit": "F1"})
    assert "F1 collides with F2" in out.message
    assert owed(g) == [COLLIDED, ("charge_home", {"unit": "F1"})]
    g.perform(*COLLIDED, [1, 2])
    assert (g.state.unit("F1").disorder, g.state.unit("F2").disorder) == (1, 2)
    assert owed(g) == [("charge_home", {"unit": "F1"})]


# == Cavalry vs. Infantry: skirmishers evade, they do not stand to test (reading K65) ==========
def test_skirmishers_charged_by_cavalry_evade_without_the_forced_test(tmp_path: Path) -> None:
    """'Skirmishers will not stand against cavalry, and if charged will evade D20cm': when
    their jumped card comes the evasion is owed, not a morale test (a test could rout them and
    send them off twice: the rout's full move and the D20 cm); they move once."""
    units = [cavalry("F1", x=500.0, y=0.0, width=90.0), skirmishers("A1", x=500.0, y=430.0)]
    g = ready(tmp_path / "a", units)
    out = g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    assert "A1 evades when its card comes" in out.message and "must test" not in out.message
    assert owed(g) == []  # the charger's card goes on; A1's jumped card comes next
    g.perform("next", {})
    assert owed(g) == [("evade", {"unit": "A1"})]
    with pytest.raises(RuleViolation, match="evade"):
        g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [99, 0])
    g.perform("evade", {"unit": "A1"}, [11])
    a1 = g.state.unit("A1")
    assert (a1.y, a1.status, a1.morale_due, a1.bound) == (430.0 + 110.0, "steady", False, None)
    assert owed(g) == [] and g.state.unit("F1").charge_state == "done"
    # the house rule of the earlier order: the forced test first (a rout's run owed), then
    # the evasion
    h = ready(tmp_path / "b", units, house={"options": {"evade_morale": "before"}})
    h.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    h.perform("next", {})
    assert owed(h) == [("morale", {"unit": "A1", "charged_by": "F1"})]
    # skirmishers that have acted evade at once, and are not told to test
    late = [unit("F1", x=300.0, y=-300.0), units[1], cavalry("F2", x=500.0, y=0.0, width=90.0)]
    k = ready(tmp_path / "c", late)
    k.perform("next", {})  # A1's card
    k.perform("next", {})  # F2's card: A1 has acted
    out = k.perform("charge", {"unit": "F2", "target": "A1"}, [6, 0])
    assert "answers the charge at once" in out.message and "tests morale" not in out.message
    assert owed(k) == [("evade", {"unit": "A1"})]
    h.perform("morale", {"unit": "A1", "charged_by": "F1"}, [99, 1])  # fails: D10 1 routs
    assert h.state.unit("A1").status == "routing"
    assert ("evade", {"unit": "A1"}) in owed(h)


# == Generals: the general of a destroyed unit (reading K66) ==================================
def test_the_general_of_skirmishers_ridden_down_is_left_detached(tmp_path: Path) -> None:
    """Skirmishers 'caught are ridden down and removed'; their attached brigadier (who 'MUST
    be in the front rank') is not removed with them: he is left where they stood, attached to
    nothing; ``[options] lost_unit_general = "killed"`` loses him with them."""
    units = [cavalry("F1", x=500.0, y=0.0, width=90.0), skirmishers("A1", x=500.0, y=230.0)]
    g = ready(tmp_path / "a", units)
    g.perform("attach", {"general": "AB", "unit": "A1"})
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    g.perform("next", {})
    out = g.perform("evade", {"unit": "A1"}, [19])  # within the lancers' reach: ridden down
    ab = g.state.general("AB")
    assert not g.state.unit("A1").on_table and "AB is left where A1 stood" in out.message
    assert (ab.attached_to, ab.killed) == (None, False)
    house = {"options": {"lost_unit_general": "killed"}}
    h = ready(tmp_path / "b", units, house=house)
    h.perform("attach", {"general": "AB", "unit": "A1"})
    h.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    h.perform("next", {})
    h.perform("evade", {"unit": "A1"}, [19])
    assert h.state.general("AB").killed and h.state.general("AB").attached_to is None


def test_the_general_of_a_unit_shot_away_is_left_detached(tmp_path: Path) -> None:
    """Firing: the last figure of a unit falls; its attached general, hit, saves ('All
    Generals are always save on a D6 roll of 3-6'): he is left detached where it stood, no
    longer attached to a unit that is gone."""
    units = [unit("F1", x=500.0, y=0.0), unit("A1", "Allies", x=500.0, y=150.0, figures=1)]
    g = ready(tmp_path, units)
    g.perform("attach", {"general": "AB", "unit": "A1"})
    # a volley of 6 at long range (x1/4: 1.5, the half made a hit by 00), two failed saves;
    # the one figure's roll hits the general (1 of 1), who saves with a 6
    out = g.perform("fire", {"unit": "F1", "target": "A1"}, [6, 0, 1, 1, 1, 6])
    ab = g.state.general("AB")
    assert not g.state.unit("A1").on_table and "AB is left where A1 stood" in out.message
    assert (ab.attached_to, ab.killed, ab.x, ab.y) == (None, False, 500.0, 150.0)
    # the general's save is a die of the record: the saved game imports (it was refused, one
    # die short) and reaches the same state
    again = Game.import_jsonl(Store(tmp_path / "i.db"), g.export_jsonl(), "again")
    assert again.state == g.state


# == Move Sequence: a queue jumper moves only toward its charger ==============================
def test_a_queue_jumper_moving_toward_its_charger_goes_straight_at_it(tmp_path: Path) -> None:
    """Movement: a unit that jumped the queue is 'restricted to actions directly against the
    unit charging them': its move toward its charger goes straight at it (it went straight
    ahead, wherever its charger stood), todo offers no other direction, and a direction given
    with ``toward`` is refused."""
    units = [
        cavalry("F1", x=500.0, y=0.0),
        unit("A1", "Allies", x=620.0, y=90.0, facing=180.0),
        unit("A2", "Allies", x=2000.0, y=1000.0),
    ]
    g = ready(tmp_path, units, TIMID)
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    g.perform("next", {})
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [0])
    g.perform("fire", {"unit": "A1", "target": "F1", "hold": True})
    g.perform("close", {"unit": "F1"})
    # the lancers (a timid CO) retire 100mm: the charge is over, A1 has room to go at them
    g.perform("charge_home", {"unit": "F1"}, [99])
    f1 = g.state.unit("F1")
    offer = next(t for t in g.todo() if t.procedure == "move" and t.request["unit"] == "A1")
    assert offer.request["toward"] == "F1" and "direction" not in (offer.open or {})
    with pytest.raises(BadRequest, match="not both"):
        g.perform("move", {"unit": "A1", "toward": "F1", "direction": 0.0, "distance": 50})
    before = math.hypot(f1.x - 620.0, f1.y - 90.0)
    g.perform("move", {"unit": "A1", "toward": "F1", "mode": "advance", "distance": 50}, [4, 0, 3])
    a1 = g.state.unit("A1")
    assert math.hypot(f1.x - a1.x, f1.y - a1.y) == pytest.approx(before - 50.0, abs=0.2)


def test_a_batterys_fire_offer_names_the_artillery_rules(tmp_path: Path) -> None:
    """todo names the heading an offer follows: a battery's fire is Artillery's (it named
    Firing/Infantry, whose volleys a battery does not fire)."""
    guns = unit("F1", kind="foot_artillery", grade="B", figures=4, formation="unlimbered",
                width=40.0, depth=40.0, x=500.0, y=0.0)  # fmt: skip
    g = ready(tmp_path, [guns, unit("A1", "Allies", x=500.0, y=400.0)])
    (offer,) = [t for t in g.todo() if t.procedure == "fire"]
    assert offer.rule == "Kuryakin, Artillery"


# == Move Sequence: a chance card "may be played at any time during the move" ==================
def test_a_chance_card_is_played_while_a_test_is_owed(tmp_path: Path) -> None:
    """Move Sequence: the chance card 'may be played at any time during the move': while the
    morale test a charge forces is owed, todo still offers it and the referee takes it (it
    refused anything but the test); the re-roll card then rolls the failed test again."""
    units = [unit("F1", x=500.0, y=0.0), unit("A1", "Allies", x=500.0, y=150.0)]
    g = ready(tmp_path, units, chance={"Allies": "steady_lads"})
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    g.perform("next", {})
    test = ("morale", {"unit": "A1", "charged_by": "F1"})
    assert owed(g) == [test]
    assert any(t.procedure == "chance" and not t.owed for t in g.todo())
    with pytest.raises(RuleViolation, match="owed first"):
        g.perform("move", {"unit": "A1", "toward": "F1", "distance": 50})
    g.perform("chance", {"side": "Allies", "on": "A1"})
    assert owed(g) == [test]
    out = g.perform(*test, [99, 0])  # fails, rolled again: holds
    assert "holds" in out.message and g.state.unit("A1").status == "steady"
