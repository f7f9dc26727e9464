"""Kuryakin's text as acceptance cases (seed 004), session 21, helper K15: the optional rules'
special figures (a battery's officer only; a dead musician's chit on a charge's move) and the
words of a charge that has no move left to follow its target. Played through the public API
(``Game.create`` / ``perform`` / ``todo``) with forced dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.solo_napoleonic.test_solonap_text_3 import SIDES, cavalry, gen, owed, ready, unit
from tests.solo_napoleonic.test_solonap_text_10 import MELEE
from vedette.engine import Game, Store

GENS = [gen("FB", x=0.0, y=0.0), gen("AB", "Allies", x=0.0, y=900.0)]


def _game(tmp_path: Path, units: list[dict[str, Any]], options: dict[str, Any]) -> Game:
    """F1's card up, then A1's; the brigadiers far off."""
    scen = {"title": "text14", "sides": SIDES, "units": units, "generals": GENS}
    g = Game.create(Store(tmp_path / "g.db"), "g", "solonap", scen, seed=7, options=options)
    g.perform("control", {}, [1, 1])
    g.perform("deal", {"cards": {"F1": 1, "A1": 2}, "chance": {}})
    g.perform("next", {})
    return g


# == Artillery: "each battery may include an officer figure" ==================================
def test_a_battery_has_an_officer_but_no_standard_bearer_or_musician(tmp_path: Path) -> None:
    """Artillery: a battery is one model and its crew, "Additionally, each battery may include
    an officer figure"; the drummer and the standard bearer are the infantry's and cavalry's
    (Optional Rules). With all three optional rules on, the battery's second crew figure was a
    standard bearer, killed by a volley's second casualty roll; now a crew figure falls."""
    battery = unit("A1", "Allies", kind="foot_artillery", figures=4, formation="unlimbered",
                   x=500.0, y=380.0, width=40.0, depth=40.0)  # fmt: skip
    g = _game(tmp_path, [unit("F1", x=500.0, y=300.0, grade="A"), battery],
              {"optional_figures": True})  # fmt: skip
    a = g.state.unit("A1")
    assert (a.officer, a.musician, a.standard) == ("alive", None, None)
    f = g.state.unit("F1")
    assert (f.officer, f.musician, f.standard) == ("alive", "alive", "alive")
    # volley 2+1-1, short ×3/4 with the half hit made up (dP 35), no save (1, 3), the
    # casualties on figures 2 and 2 of the front rank of 4
    out = g.perform("fire", {"unit": "F1", "target": "A1"}, [2, 35, 1, 3, 2, 2])
    a = g.state.unit("A1")
    assert a.figures == 2 and "standard" not in out.message
    assert (a.officer, a.musician, a.standard) == ("alive", None, None)
    assert "ordinary soldier" in out.rolls[-1].line()


# == Disorder: "Unit moving over 1/2 and Musician dead 1D" (optional) ==========================
def _charged(tmp_path: Path, musician: str, y: float) -> Game:
    """F1 (its musician ``musician``) charges A1 ``y`` mm ahead; A1 fails the test it forced
    and halts where it stands; F1's move up is owed."""
    units = [unit("F1", x=500.0, y=0.0, musician=musician), unit("A1", "Allies", x=500.0, y=y)]
    g = _game(tmp_path, units, {"musicians": True})
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    g.perform("next", {})
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [87, 9])
    assert owed(g) == [("close", {"unit": "F1"})]
    return g


def test_a_charger_whose_musician_is_dead_takes_its_chit_moving_up_over_half(
    tmp_path: Path,
) -> None:
    """Disorder: "Unit moving over 1/2 and Musician dead 1D" (optional). A charge's move up is
    the charger's move: 90mm of its 150mm takes it over half, and it takes the chit as a move
    does (before, only ``move`` gave it); a move up within half, or a living musician, gives
    none; the charge home that follows (no further move) adds none."""
    g = _charged(tmp_path / "a", "dead", 120.0)
    out = g.perform("close", {"unit": "F1"})
    assert g.state.unit("F1").moved_mm == 90.0 and g.state.unit("F1").disorder == 1
    assert "+1D (over half a move with the musician dead)" in out.message
    g.perform("charge_home", {"unit": "F1"})
    assert g.state.unit("F1").disorder == 1 and g.state.unit("F1").charge_state == "home"
    h = _charged(tmp_path / "b", "alive", 120.0)
    h.perform("close", {"unit": "F1"})
    assert h.state.unit("F1").disorder == 0
    k = _charged(tmp_path / "c", "dead", 90.0)
    k.perform("close", {"unit": "F1"})
    assert k.state.unit("F1").moved_mm == 60.0 and k.state.unit("F1").disorder == 0


# == Charge Test: a charge home with no move left (the words) ==================================
def test_a_charge_home_with_no_move_left_says_so(tmp_path: Path) -> None:
    """Reading K88: F1's move up to A1 took its whole move (150mm); A1 then carried out its
    retirement, and the charge home cannot follow it. The referee said "F1 moves up 0mm toward
    A1, all its move"; it now says F1 has no move left to follow A1, and F1 stays where it
    closed."""
    g = ready(tmp_path, [unit("F1", x=1000.0, y=0.0, grade="B"),
                         unit("A1", "Allies", x=1000.0, y=180.0, grade="B")])  # fmt: skip
    for procedure, request, dice in MELEE[:3]:
        g.perform(procedure, request, dice or None)
    g.perform("close", {"unit": "F1"})
    assert g.state.unit("F1").moved_mm == 150.0
    g.perform("move", {"unit": "A1", "mode": "retire"}, [-1, 2])
    out = g.perform("charge_home", {"unit": "F1"})
    assert out.message.startswith("F1 has no move left to follow A1: A1 is beyond its reach")
    assert "0mm" not in out.message and g.state.unit("F1").y == 150.0
    assert g.state.unit("F1").charge_state == "done" and owed(g) == []


# == Morale: a rally is the unit's own activation =============================================
def test_a_unit_rallies_on_its_own_card_only(tmp_path: Path) -> None:
    """Morale: "The first two results require rallying"; Move Sequence: "once activated by card
    priority, each unit can move, fire and attack". A1 routed at F1's charge; next turn, on
    A2's card (#1), ``rally unit=A1`` was accepted, so a routing unit rallied before its own
    card came (and then acted on it). It is refused now, naming the rule; on A1's own card
    (#2) todo offers it and the referee accepts it."""
    g = ready(tmp_path, [unit("F1", x=1000.0, y=0.0, grade="B"),
                         unit("A1", "Allies", x=1000.0, y=160.0, grade="B"),
                         unit("A2", "Allies", x=700.0, y=300.0)])  # fmt: skip
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    g.perform("next", {})
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [99, 1])
    g.perform("move", {"unit": "A1", "mode": "rout"}, [0, 3])
    g.perform("close", {"unit": "F1"})
    g.perform("next", {})
    g.perform("morale", {"unit": "A2"}, [10])  # (its marker: a friend routed within 300mm)
    g.perform("next", {})
    g.perform("end_turn", {})
    g.perform("control", {}, [1, 1])
    g.perform("deal", {"cards": {"A2": 1, "A1": 2, "F1": 3}, "chance": {}})
    g.perform("next", {})
    assert g.state.active == "A2" and g.state.unit("A1").must_rally
    v = g.is_legal("rally", {"unit": "A1"})
    assert not v.ok and "its own card" in v.reason and "Kuryakin, Morale" in v.rule
    assert ("rally", {"unit": "A1"}) not in [(t.procedure, dict(t.request)) for t in g.todo()]
    g.perform("next", {})
    assert ("rally", {"unit": "A1"}) in [(t.procedure, dict(t.request)) for t in g.todo()]
    out = g.perform("rally", {"unit": "A1"}, [5])
    assert out.message == "A1 rallies" and g.state.unit("A1").status == "steady"


# == Skirmishers: carbines mounted, fire dismounted ============================================
def _troopers(tmp_path: Path, formation: str, y: float = 460.0) -> Game:
    """Light cavalry F1 (advancing) ``formation``, A1 ``y`` - 300 mm ahead: F1's card is up."""
    f1 = cavalry("F1", x=500.0, y=300.0, formation=formation, advancing=True, width=60.0,
                 depth=15.0, front=12)  # fmt: skip
    return _game(tmp_path, [f1, unit("A1", "Allies", x=500.0, y=y)], {})


def test_dismounted_light_cavalry_may_move_and_fire(tmp_path: Path) -> None:
    """Skirmishers: "Mounted light cavalry can skirmish using carbines. The rules are exactly
    for dismounted fire, except that cavalry cannot fire and move in the same turn": the
    exception is the mounted carbineers'. Dismounted troopers that had moved 50mm were refused
    their fire ("mounted skirmishers cannot fire and move"), and todo offered none; now they
    fire, in either order, and mounted skirmishers are still refused, naming the rule."""
    g = _troopers(tmp_path / "a", "dismounted")
    g.perform("move", {"unit": "F1", "mode": "advance", "distance": 50.0}, [0, 3])
    assert ("fire", {"unit": "F1", "target": "A1"}) in [
        (t.procedure, dict(t.request)) for t in g.todo()
    ]
    out = g.perform("fire", {"unit": "F1", "target": "A1"}, [1] * 12)
    assert out.message.startswith("F1 fires at A1 (skirmish, long)")
    h = _troopers(tmp_path / "b", "dismounted", 400.0)
    h.perform("fire", {"unit": "F1", "target": "A1"}, [1] * 12)
    assert h.is_legal("move", {"unit": "F1", "mode": "advance", "distance": 50.0}).ok
    k = _troopers(tmp_path / "c", "skirmish")
    k.perform("move", {"unit": "F1", "mode": "advance", "distance": 50.0}, [0, 3])
    v = k.is_legal("fire", {"unit": "F1", "target": "A1"})
    assert not v.ok and "cannot fire and move" in v.reason and v.rule == "Kuryakin, Skirmishers"


# == Movement: the queue jumper's move, worded ================================================
def test_a_queue_jumpers_move_line_names_its_charger(tmp_path: Path) -> None:
    """Movement: a charged unit that jumped the queue is "restricted to actions directly against
    the unit charging them": todo offers its move only toward its charger, and the line read
    "A1 moves", as if any move were open; it now says where. F1's charge halted (its own test,
    after A1's volley, failed: "halts where it stands")."""
    g = ready(tmp_path, [unit("F1", x=1000.0, y=0.0, advancing=True),
                         unit("A1", "Allies", x=1000.0, y=160.0, grade="A")])  # fmt: skip
    g.perform("charge", {"unit": "F1", "target": "A1"}, [0])
    g.perform("next", {})
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [10])
    g.perform("fire", {"unit": "A1", "target": "F1"}, [6, 99, 1, 1, 1, 1, 1])
    g.perform("morale", {"unit": "F1"}, [99, 9])
    (line,) = [t for t in g.todo() if t.procedure == "move"]
    assert dict(line.request) == {"unit": "A1", "mode": "advance", "toward": "F1"}
    assert line.text == "A1 moves: an advance toward F1, its charger"


# == Move Sequence: the turn does not end over what the cards still owe =======================
def test_a_forced_end_of_turn_does_not_drop_what_the_cards_left_owe(tmp_path: Path) -> None:
    """Movement: markers direct morale tests "when their turn comes"; a routing unit runs on its
    card (reading K60). ``end_turn force=true`` on F1's card (#1) ended the turn over A1's
    card (routing: its run) and A2's (a marker): the run was never made and A2's marker was
    cleared untested, with no waiver logged. It is refused now, naming what is owed; over cards
    that owe nothing it still ends the turn."""
    routing = unit("A1", "Allies", x=1000.0, y=400.0, status="routing", must_rally=True)
    marked = unit("A2", "Allies", x=600.0, y=400.0, morale_due=True)
    g = ready(tmp_path / "a", [unit("F1", x=1000.0, y=0.0), routing, marked])
    v = g.is_legal("end_turn", {"force": True})
    assert not v.ok and v.rule == "Kuryakin, Move Sequence"
    assert "A1's rout, A2's morale test" in v.reason
    g.perform("next", {})
    assert owed(g) == [("move", {"unit": "A1", "mode": "rout"})]
    h = ready(
        tmp_path / "b", [unit("F1", x=1000.0, y=0.0), unit("A1", "Allies", x=1000.0, y=400.0)]
    )
    h.perform("end_turn", {"force": True})
    assert h.state.turn == 2 and h.state.phase == "control"
