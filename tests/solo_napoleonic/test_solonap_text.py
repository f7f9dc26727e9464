"""Kuryakin's text as acceptance cases (seed 004), second audit: sentences of the text that the
other acceptance files (tests/acceptance/test_accept_solonap.py, tests/seeds/) do not pin
exactly, each played only through the public API (``Game.create`` / ``perform`` / ``todo`` /
``odds``) with forced dice, asserting what the sentence quoted says happens."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from vedette.engine import Game, Store
from vedette.errors import RuleViolation

SIDES = ["French", "Allies"]


def unit(uid: str, side: str = "French", **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {
        "id": uid,
        "name": uid,
        "side": side,
        "kind": "infantry",
        "grade": "C",
        "figures": 18,
        "formation": "line",
        "brigade": "FB" if side == "French" else "AB",
    }
    d.update(kw)
    return d


def cavalry(uid: str, side: str = "French", **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": "light_cavalry", "grade": "B", "figures": 12,
                         "formation": "mounted", "front": 6}  # fmt: skip
    d.update(kw)
    return unit(uid, side, **d)


def gen(gid: str, side: str = "French", **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"id": gid, "name": gid, "side": side, "rank": "brigadier",
                         "th": "average", "av": "normal", "grade": "average", "cr": 6}  # fmt: skip
    d.update(kw)
    return d


def new(
    tmp_path: Path,
    units: Sequence[Mapping[str, Any]],
    gens: Sequence[Mapping[str, Any]] | None = None,
    options: Mapping[str, Any] | None = None,
) -> Game:
    gens = [gen("FB"), gen("AB", "Allies")] if gens is None else gens
    scen = {"title": "text", "sides": SIDES, "units": list(units), "generals": list(gens)}
    return Game.create(Store(tmp_path / "g.db"), "g", "solonap", scen, seed=7, options=options)


def dealt(g: Game, cards: Mapping[str, int], control: Sequence[int] = (1, 1)) -> Game:
    """Both brigadiers roll control (1: pass), then the cards are dealt by hand."""
    g.perform("control", {}, list(control))
    g.perform("deal", {"cards": dict(cards), "chance": {}})
    return g


def up(g: Game, holder: str) -> None:
    for _ in range(40):
        if g.state.active == holder:
            return
        g.perform("next", {})
    raise AssertionError(f"{holder} never became active")


def ready(tmp_path: Path, units: Sequence[Mapping[str, Any]], **kw: Any) -> Game:
    """FB's card 1, AB's card 2; FB's card is up."""
    g = dealt(new(tmp_path, units, **kw), {"FB": 1, "AB": 2})
    up(g, "FB")
    return g


def owed(g: Game) -> list[tuple[str, dict[str, Any]]]:
    return [(t.procedure, dict(t.request)) for t in g.todo() if t.owed]


def mods(g: Game, proc: str, req: Mapping[str, Any]) -> int:
    o = g.odds(proc, req)[0]
    assert o.target is not None and o.base_target is not None
    return o.target - o.base_target


# == Move Sequence / Movement ===================================================================
def test_a_unit_only_fired_on_keeps_its_card(tmp_path: Path) -> None:
    """Movement: 'If a unit is physically attacked (i.e. with the intention of melee) it
    immediately jumps ahead of the queue': fire is no such attack, so the target keeps its
    card and owes nothing."""
    g = ready(tmp_path, [unit("F1", front=5), unit("A1", "Allies")])
    g.perform("fire", {"unit": "F1", "target": "A1", "range": "long"}, [4, 5])
    card = g.state.card_of("A1")
    assert card is not None and card.key == 2.0
    assert owed(g) == []


def test_the_jumper_acts_only_against_its_charger(tmp_path: Path) -> None:
    """Movement: 'They are restricted to actions directly against the unit charging them': the
    charged battalion, once its morale holds, may fire at its charger but at no other unit."""
    g = new(tmp_path, [cavalry("F1"), unit("F2"), unit("A1", "Allies", front=5, brigade=None),
                       unit("A2", "Allies", brigade=None)])  # fmt: skip
    dealt(g, {"FB": 1, "A1": 3, "A2": 4}, control=(1,))
    up(g, "FB")
    g.perform("charge", {"unit": "F1", "target": "A1"}, [1])
    card = g.state.card_of("A1")
    assert card is not None and card.key == 3.5  # half below A2's #4, the next after F1
    g.perform("next", {})
    assert g.state.active == "A1"
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [1])
    with pytest.raises(RuleViolation):
        g.perform("fire", {"unit": "A1", "target": "F2", "range": "short"}, [1])


# == Formation Changing =========================================================================
def test_formation_change_modifiers_never_below_nothing(tmp_path: Path) -> None:
    """Formation Changing: 'roll a D4 ... A Class troops -2': an A class battalion rolling a 1
    changes at once (no negative quarters, no move gained)."""
    g = ready(tmp_path, [unit("F1", grade="A"), unit("A1", "Allies")])
    g.perform("formation", {"unit": "F1", "to": "column"}, [1])
    u = g.state.unit("F1")
    assert u.formation == "column" and u.formation_target is None
    assert u.moved_mm == 0


# == Disorder ===================================================================================
def test_skirmishers_take_no_disorder_from_a_collision_or_a_rout(tmp_path: Path) -> None:
    """Skirmishers: 'All movement rules apply to skirmishers, except that they do not suffer
    disorder whilst unformed' (Disorder: 'Each collision D3 D's per unit involved. Each move of
    Rout 2D')."""
    g = ready(tmp_path, [unit("F1", formation="skirmish", figures=6, front=6), unit("F2"),
                         unit("A1", "Allies")])  # fmt: skip
    g.perform("disorder", {"cause": "collision", "units": ["F1", "A1"]}, [2, 3])
    assert (g.state.unit("F1").disorder, g.state.unit("A1").disorder) == (0, 3)
    g.perform("move", {"unit": "F1", "mode": "rout", "distance": 100}, [0, 3])
    assert g.state.unit("F1").disorder == 0


def test_reforming_takes_the_whole_turn_not_even_fire(tmp_path: Path) -> None:
    """Disorder: 'reforming takes the whole turn, meaning that the unit can do nothing else':
    once it has reformed it may not fire or move."""
    g = ready(tmp_path, [unit("F1", disorder=3, front=5), unit("A1", "Allies")])
    g.perform("reform", {"unit": "F1"}, [2])
    assert g.state.unit("F1").disorder == 1
    with pytest.raises(RuleViolation):
        g.perform("fire", {"unit": "F1", "target": "A1", "range": "short"}, [3])
    with pytest.raises(RuleViolation):
        g.perform("move", {"unit": "F1", "distance": 50, "mode": "move"}, [0, 3])


# == Skirmishers ================================================================================
def test_only_light_cavalry_skirmish_mounted(tmp_path: Path) -> None:
    """Skirmishers: 'In these rules only whole units may skirmish ... Mounted light cavalry can
    skirmish using carbines': light cavalry may, heavy cavalry may not."""
    g = ready(tmp_path, [cavalry("F1"), cavalry("F2", kind="heavy_cavalry"),
                         unit("A1", "Allies")])  # fmt: skip
    g.perform("formation", {"unit": "F1", "to": "skirmish"}, [1])
    assert g.state.unit("F1").formation == "skirmish"
    with pytest.raises(RuleViolation):
        g.perform("formation", {"unit": "F2", "to": "skirmish"}, [1])


# == Melee ======================================================================================
def to_melee(g: Game, att: str, tgt: str) -> None:
    """Charge (d100 00 passes), the target's forced test (passes), its defensive fire held,
    the move up, charge home (00)."""
    g.perform("charge", {"unit": att, "target": tgt}, [0])
    g.perform("morale", {"unit": tgt, "charged_by": att}, [0])
    for _ in range(3):
        steps = [(p, r) for p, r in owed(g) if p in ("fire", "close")]
        if not steps:
            break
        p, r = steps[0]
        if p == "fire":
            r["hold"] = True
        g.perform(p, r)
    g.perform("charge_home", {"unit": att}, [0])


def test_further_rounds_are_a_general_brawl_of_all_troops(tmp_path: Path) -> None:
    """Melee, Infantry vs. Infantry: 'Count 1 point per man in first four ranks in contact'
    in the first round; the further rounds are 'a general brawl involving all troops
    available': 30 figures five abreast (six ranks) count 20 points, then 30."""
    g = ready(tmp_path, [unit("F1", figures=30, front=5, formation="column"),
                         unit("A1", "Allies", front=9)])  # fmt: skip
    to_melee(g, "F1", "A1")
    oa = g.odds("melee", {"unit": "F1", "target": "A1"})[0]
    assert oa.note.startswith("20 points: 4d6")
    oa = g.odds("melee", {"unit": "F1", "target": "A1", "round": 2})[0]
    assert oa.note.startswith("30 points: 6d6")


def test_cavalry_against_infantry_every_infantryman_fights(tmp_path: Path) -> None:
    """Melee, Cavalry vs. Infantry: 'All troops involved, whether directly in contact or not,
    fight. 1 point per Infantryman': a column of 30 (six ranks) counts 30 points in the first
    round."""
    g = ready(tmp_path, [cavalry("F1"), unit("A1", "Allies", figures=30, front=5,
                                             formation="column")])  # fmt: skip
    g.perform("charge", {"unit": "F1", "target": "A1"}, [0])
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [99, 3])  # fails: retires
    for p, r in owed(g):
        if p == "close":
            g.perform(p, r)
    g.perform("charge_home", {"unit": "F1"})
    _, ob, _ = g.odds("melee", {"unit": "F1", "target": "A1"})
    assert ob.note.startswith("30 points: 6d6")


def test_cavalry_flank_attack_plus_two(tmp_path: Path) -> None:
    """Melee, Cavalry vs. Cavalry: 'Flank/Rear attack +2', stated with the charge."""
    g = ready(tmp_path, [cavalry("F1"), cavalry("A1", "Allies")])
    g.perform("charge", {"unit": "F1", "target": "A1", "flank_rear": True}, [0])
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [0])
    for _ in range(3):
        steps = [(p, r) for p, r in owed(g) if p in ("fire", "close")]
        if not steps:
            break
        p, r = steps[0]
        if p == "fire":
            r["hold"] = True
        g.perform(p, r)
    g.perform("charge_home", {"unit": "F1"}, [0])
    oa, ob, _ = g.odds("melee", {"unit": "F1", "target": "A1"})
    assert "+2 (flank/rear attack)" in oa.note
    assert "flank" not in ob.note


def test_cuirassiers_against_infantry_save_on_4(tmp_path: Path) -> None:
    """Melee, Cavalry vs. Infantry: casualties 'saved on 6 for infantry; 5,6 for cavalry and
    4,5,6 for Cuirassiers'."""
    g = ready(tmp_path, [cavalry("F1", kind="heavy_cavalry", cuirassiers=True),
                         unit("A1", "Allies")])  # fmt: skip
    g.perform("charge", {"unit": "F1", "target": "A1"}, [0])
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [99, 3])
    for p, r in owed(g):
        if p == "close":
            g.perform(p, r)
    g.perform("charge_home", {"unit": "F1"})
    oa, ob, _ = g.odds("melee", {"unit": "F1", "target": "A1"})
    assert "saved on 6+" in oa.note and "saved on 4+" in ob.note


# == Charge Home Test ===========================================================================
def test_charge_home_counts_the_casualties_of_this_move(tmp_path: Path) -> None:
    """Charge Home Test: 'Each casualty this move -5%': the two figures the target's defensive
    fire killed cost the charger 10%."""
    g = ready(tmp_path, [unit("F1", grade="B", figures=24, front=12),
                         unit("A1", "Allies", front=10, figures=20)])  # fmt: skip
    g.perform("charge", {"unit": "F1", "target": "A1"}, [0])
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [0])
    assert owed(g)[0][0] == "fire"
    # two volleys at short range: 2 + 2 = 4 hits, x ¾ = 3; saves 1, 1, 6 -> 2 casualties
    g.perform("fire", {"unit": "A1", "target": "F1"}, [2, 2, 1, 1, 6])
    assert g.state.unit("F1").figures == 22
    for p, r in owed(g):
        if p == "close":
            g.perform(p, r)
    o = g.odds("charge_home", {"unit": "F1", "test": True})[0]
    assert [(m.value, m.reason) for m in o.modifiers if "casualt" in m.reason] == [
        (-10, "-5% per casualty this move ×2")
    ]


def test_charge_home_each_enemy_d_factor(tmp_path: Path) -> None:
    """Charge Home Test: 'Each enemy 'D' factor +5%'."""
    g = ready(tmp_path, [unit("F1"), unit("A1", "Allies", disorder=3)])
    g.perform("charge", {"unit": "F1", "target": "A1"}, [0])
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [0])
    for _ in range(3):
        steps = [(p, r) for p, r in owed(g) if p in ("fire", "close")]
        if not steps:
            break
        p, r = steps[0]
        if p == "fire":
            r["hold"] = True
        g.perform(p, r)
    assert mods(g, "charge_home", {"unit": "F1", "test": True}) == 15


# == Optional rules =============================================================================
def test_drummers_can_stand_anywhere(tmp_path: Path) -> None:
    """Optional rules: 'Drummers can stand anywhere. It is the sound that is important, not
    their positioning': a live drummer behind the ranks costs nothing when reforming."""
    g = ready(tmp_path, [unit("F1", disorder=4, musician="alive", musician_pos=18),
                         unit("A1", "Allies")], options={"musicians": True})  # fmt: skip
    g.perform("reform", {"unit": "F1"}, [2])
    assert g.state.unit("F1").disorder == 2


def test_no_officer_minus_5_to_all_morale(tmp_path: Path) -> None:
    """Optional rules: 'No officer: -5% to all morale', in the morale and the charge home test."""
    g = ready(tmp_path, [unit("F1", officer="absent"), unit("A1", "Allies")],
              options={"officers": True})  # fmt: skip
    assert mods(g, "morale", {"unit": "F1", "in_command": False}) == -5


# == Charge Test: the defensive fire ============================================================
def test_a_lapsed_defensive_fire_says_why_in_the_tests_message(tmp_path: Path) -> None:
    """Charge Test: 'Should both units morale hold, the attacker moves up to the target, takes
    any defensive fire'. A target that has already fired this turn gives none: the fire
    lapses, and the morale test that held says so (not only the log's event), so the player
    knows why the next owed step is the move up."""
    g = dealt(new(tmp_path, [cavalry("F1"), unit("A1", "Allies", front=5)]), {"AB": 1, "FB": 2})
    up(g, "AB")
    g.perform("fire", {"unit": "A1", "target": "F1", "range": "long"}, [4, 5])
    g.perform("next", {})
    g.perform("charge", {"unit": "F1", "target": "A1"}, [0])
    out = g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [0])
    assert out.message.startswith("A1 holds")
    assert "A1's defensive fire lapses" in out.message and "already fired" in out.message
    assert owed(g) == [("close", {"unit": "F1"})]
