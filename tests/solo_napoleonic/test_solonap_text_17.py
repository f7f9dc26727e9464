"""Kuryakin's text as acceptance cases (seed 004), session 22, helper K18: a steady unit's move
away of its own takes the retreat's chit whichever word it is typed with (reading K98).
Played through ``Game`` with forced dice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.solo_napoleonic import test_solonap_text as text
from tests.solo_napoleonic.test_solonap_text_2 import close_in
from tests.solo_napoleonic.test_solonap_text_3 import ready, unit
from vedette import rules
from vedette.engine import Game


# == Disorder: "Each move of Retreat/Pursuit 1D" and a steady unit's own move away (K98) =======
def _steady(tmp_path: Path, house: dict[str, Any] | None = None) -> Game:
    """F1 (steady, its card up) faces A1 600 mm off."""
    return ready(tmp_path, [unit("F1", x=1000.0, y=0.0), unit("A1", "Allies", x=1000.0, y=600.0)],
                 house=house)  # fmt: skip


def test_a_steady_units_own_retirement_is_a_retreat_move_as_its_retreat_is(
    tmp_path: Path,
) -> None:
    """Disorder: "Each move of Retreat/Pursuit 1D". A steady unit's `move mode=retreat` took
    the 1D while the same move typed `mode=retire` took none: the text does not tell the two
    apart (reading K97: its only retreats are retirements). Reading K98: both are a move of
    Retreat, 1D; ``[options] own_retreat_chit = false``: neither (only a result's moves)."""
    for i, mode in enumerate(("retire", "retreat")):
        g = _steady(tmp_path / str(i))
        out = g.perform("move", {"unit": "F1", "mode": mode, "distance": 100}, [0, 3])
        assert out.message.endswith(f"+1D ({mode} move 1D)")
        assert g.state.unit("F1").disorder == 1
    for i, mode in enumerate(("retire", "retreat")):
        h = _steady(tmp_path / f"h{i}", {"options": {"own_retreat_chit": False}})
        h.perform("move", {"unit": "F1", "mode": mode, "distance": 100}, [0, 3])
        assert h.state.unit("F1").disorder == 0
    # a plain move backwards is a retreat too (reading K105; halted, F1 tests to move off
    # first: K74), but not with [options] away_move_chit = false
    k = _steady(tmp_path / "k", {"options": {"away_move_chit": False}})
    k.perform("move", {"unit": "F1", "mode": "move", "distance": 100, "direction": 180}, [6, 0, 3])
    assert k.state.unit("F1").disorder == 0


# == The study's army break (reading K56, a house rule): the moment standing says BROKEN ======
def test_a_study_ends_on_an_army_break_at_the_moment_show_and_todo_say_broken(
    tmp_path: Path,
) -> None:
    """``[battle_end]`` (reading K56) ends a simulated battle when half a side's units are
    routing or lost; ``show`` and ``todo`` count it at any moment, but the study's end hook
    (``Ruleset.outcome``) looked only at a turn's start, so a game whose army broke on a card
    played on to the turn's end (and a unit rallied meanwhile was never seen broken). Now the
    hook ends it at the moment ``standing`` says BROKEN, and not once a rally mends it."""
    rs = rules.get("solonap")
    units = [unit("F1", x=1000.0, y=0.0), unit("F2", x=600.0, y=0.0),
             unit("A1", "Allies", x=1000.0, y=600.0),
             unit("A2", "Allies", x=600.0, y=600.0)]  # fmt: skip
    g = ready(tmp_path, units)
    assert rs.outcome(g.state) is None
    g.perform("morale", {"unit": "F1"}, [99, 1])  # fails: our chart's 1-2, a rout
    assert (g.state.phase, g.state.unit("F1").status) == ("activation", "routing")
    assert rs.standing(g.state)["sides"]["French"] == {
        "lost": 1, "units": 2, "breaks_at": 1, "broken": True
    }  # fmt: skip
    over = rs.outcome(g.state)
    assert over is not None
    assert (over.winner, over.how, over.turns) == ("Allies", "army broken", 1)
    assert dict(over.losses) == {"French": 1, "Allies": 0}
    g.perform("move", {"unit": "F1", "mode": "rout"}, [0, 3])  # its run, owed at once
    g.perform("rally", {"unit": "F1"}, [0])
    assert g.state.unit("F1").status != "routing"
    assert not rs.standing(g.state)["sides"]["French"]["broken"]
    assert rs.outcome(g.state) is None


# == Artillery: "one crew figure per piece ... Additionally ... an officer figure" (K99) =========
def test_a_batterys_officer_is_not_one_of_its_crew(tmp_path: Path) -> None:
    """Artillery: "one crew figure per piece represented. Additionally, each battery may
    include an officer figure"; the modifiers "Each crew figure over 3 +1", "less than 3 -1",
    "Battery Officer dead (optional) -1". The referee counted every figure as crew, the officer
    too: a battery of three guns with its officer (4 figures) fired at +1, and its officer's
    loss swung it by 2. Reading K99: he is beside the crew; ``[options] battery_officer =
    "crew"`` gives the old count."""
    gun = text.unit("F1", kind="foot_artillery", formation="unlimbered", figures=4)
    target = text.unit("A1", "Allies", figures=20, front=10, officer_pos=12)  # (not hit)
    on = {"officers": True}
    g = text.ready(tmp_path / "a", [gun, target], options=on)
    # ball: D6 = 2, no crew modifier (3 crew): 2 hits; saves (short: 5-6) 1, 1
    out = g.perform("fire", {"unit": "F1", "target": "A1", "range": "short"}, [2, 1, 1])
    assert ": 2 hit(s)" in out.message and g.state.unit("A1").figures == 18
    h = text.ready(tmp_path / "b", [gun, target], options=on,
                   house={"options": {"battery_officer": "crew"}})  # fmt: skip
    out = h.perform("fire", {"unit": "F1", "target": "A1", "range": "short"}, [2, 1, 1, 1])
    assert ": 3 hit(s)" in out.message and h.state.unit("A1").figures == 17  # (+1: crew 4)
    # his loss: the crew stays 3; "Battery Officer dead" -1 alone
    k = text.ready(tmp_path / "c", [{**gun, "figures": 3, "officer": "dead"}, target], options=on)
    out = k.perform("fire", {"unit": "F1", "target": "A1", "range": "short"}, [2, 1])
    assert ": 1 hit(s)" in out.message and k.state.unit("A1").figures == 19


# == Melee, Cavalry vs. Infantry: which modifiers (reading K101) ================================
def test_cavalry_against_infantry_each_side_takes_its_own_arms_modifiers(tmp_path: Path) -> None:
    """Melee: Infantry vs. Infantry and Cavalry vs. Cavalry each list their modifiers (A/B
    Class +1 for infantry only; Flank/Rear attack +2 for cavalry only); Cavalry vs. Infantry
    lists none. Reading K101: each side takes its own arm's list, so B class cavalry hitting
    infantry in the flank have +1 (enemy standing) and +2 (flank/rear), no A/B +1, while the B
    class infantry have their A/B +1."""
    cav = text.unit("F1", kind="cavalry", grade="B", figures=12, formation="mounted")
    inf = text.unit("A1", "Allies", grade="B", figures=18)
    g = text.ready(tmp_path, [cav, inf])
    req = {"unit": "F1", "target": "A1", "contact": True, "a_flank_rear": True}
    f1, a1, _ = g.odds("melee", req)
    assert f1.note.startswith("12 points: 2d6+1 (enemy hit standing)+2 (flank/rear attack) each")
    assert a1.note.startswith("18 points: 3d6+1 (A/B class) each")


# == Morale: "Friendly unit within 300mm +10% (max. 3)" and a routing friend (reading K102) =====
def test_a_routing_friend_is_no_friendly_support_but_a_friend_routing(tmp_path: Path) -> None:
    """Morale: "Friendly unit within 300mm .+10% (max. 3)" and "Each friend routing -10%".
    Reading K102: a routing friend within 300mm is counted once, as a friend routing (-10%),
    not also as friendly support (+10%): two steady friends and a routing one near F1 give
    +20 - 10."""
    units = [text.unit("F1", x=0.0, y=0.0), text.unit("F2", x=200.0, y=0.0),
             text.unit("F3", x=-200.0, y=0.0),
             text.unit("F4", x=0.0, y=-100.0, status="routing", must_rally=True),
             text.unit("A1", "Allies", x=0.0, y=2000.0)]  # fmt: skip
    g = text.ready(tmp_path, units)
    assert text.mods(g, "morale", {"unit": "F1", "in_command": False}) == 20 - 10


# == Two generals attached: morale takes the larger, the charge tests both (reading K103) =======
def test_a_brigadier_and_his_divisional_commander_both_attached(tmp_path: Path) -> None:
    """Morale lists "Brigadier or Division CO attached +10%" and "Corps Commander attached
    +20%" (reading K45: only the larger); the Charge Test lists the brigadier and the
    "Div./Corps commander" each by his Attack Value, and the Charge Home Test "Brigadier
    attached +10%" and "Div./Corps commander attached +20%", each a line of its own. Reading
    K103: there both count, a Normal brigadier and a Normal divisional commander giving +30."""
    fd = text.gen("FD", rank="division", attached_to="F1")
    gens = [text.gen("FB", attached_to="F1"), fd, text.gen("AB", "Allies")]
    f1 = text.unit("F1", advancing=True)
    g = text.ready(tmp_path, [f1, text.unit("A1", "Allies")], gens=gens)
    assert text.mods(g, "morale", {"unit": "F1", "in_command": False}) == 10
    assert text.mods(g, "charge", {"unit": "F1", "target": "A1"}) == 10 + 20
    g.perform("charge", {"unit": "F1", "target": "A1"}, [1])  # charges
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [1])  # A1 holds
    close_in(g)
    assert text.mods(g, "charge_home", {"unit": "F1"}) == 10 + 20
