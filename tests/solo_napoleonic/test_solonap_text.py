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
    house: Mapping[str, Any] | None = None,
) -> Game:
    gens = [gen("FB"), gen("AB", "Allies")] if gens is None else gens
    scen = {"title": "text", "sides": SIDES, "units": list(units), "generals": list(gens)}
    store = Store(tmp_path / "g.db")
    return Game.create(store, "g", "solonap", scen, seed=7, options=options, house_rules=house)


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
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 1])
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
    g = ready(tmp_path, [unit("F1", formation="skirmish", figures=6, front=6, status="routing"),
                         unit("F2"), unit("A1", "Allies")])  # fmt: skip
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
        g.perform("move", {"unit": "F1", "distance": 50, "mode": "move"}, [6, 0, 3])


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
    g.perform("charge", {"unit": att, "target": tgt}, [6, 0])
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
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
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
    g.perform("charge", {"unit": "F1", "target": "A1", "flank_rear": True}, [6, 0])
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
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
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
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
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
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
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
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    out = g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [0])
    assert out.message.startswith("A1 holds")
    assert "A1's defensive fire lapses" in out.message and "already fired" in out.message
    assert owed(g) == [("close", {"unit": "F1"})]


# == Move Sequence: the chance cards (the deck is missing: vedette's own ten, documented) =======
def with_chance(tmp_path: Path, units: Sequence[Mapping[str, Any]], card: str, **kw: Any) -> Game:
    """FB's card 1 (up), AB's card 2; the French hold chance card ``card``."""
    g = new(tmp_path, units, **kw)
    g.perform("control", {}, [1, 1])
    g.perform("deal", {"cards": {"FB": 1, "AB": 2}, "chance": {"French": card}})
    up(g, "FB")
    return g


def test_chance_inspired_leadership_adds_10_to_a_test(tmp_path: Path) -> None:
    """Reading K54, 'Inspired leadership': one friendly unit adds +10% to its next morale,
    charge or charge-home test."""
    g = with_chance(tmp_path, [unit("F1"), unit("A1", "Allies")], "inspired")
    with pytest.raises(RuleViolation):  # a friendly card: not on an enemy unit
        g.perform("chance", {"side": "French", "on": "A1"})
    g.perform("chance", {"side": "French", "on": "F1"})
    o = g.odds("morale", {"unit": "F1", "in_command": False})[0]
    assert o.target == 75 and any("chance card" in m.reason for m in o.modifiers)
    g.perform("morale", {"unit": "F1", "in_command": False}, [0])
    o = g.odds("morale", {"unit": "F1", "in_command": False})[0]
    assert o.target == 65  # spent by the test it modified


def test_chance_lost_orders_forbids_the_move(tmp_path: Path) -> None:
    """Reading K54, 'Lost orders': one enemy unit may not move this turn (it may still fire)."""
    g = with_chance(tmp_path, [unit("F1"), unit("A1", "Allies", front=5)], "lost_orders")
    g.perform("chance", {"side": "French", "on": "A1"})
    g.perform("next", {})
    assert g.state.active == "AB"
    with pytest.raises(RuleViolation):
        g.perform("move", {"unit": "A1", "distance": 50, "mode": "move"}, [6, 0, 3])
    g.perform("fire", {"unit": "A1", "target": "F1", "range": "long"}, [4, 5])


@pytest.mark.parametrize(("card", "before", "after"), [("rally", 2, 1), ("confusion", 2, 3)])
def test_chance_cards_that_move_d_chits(tmp_path: Path, card: str, before: int, after: int) -> None:
    """Reading K54, 'Drums beat the rally': one friendly unit removes a 'D' chit at once;
    'Confusion in the ranks': one enemy unit takes one."""
    on = "F1" if card == "rally" else "A1"
    units = [unit("F1", disorder=before), unit("A1", "Allies", disorder=before)]
    g = with_chance(tmp_path, units, card)
    g.perform("chance", {"side": "French", "on": on})
    assert g.state.unit(on).disorder == after


def test_chance_ammunition_running_low_minus_one_volley(tmp_path: Path) -> None:
    """Reading K54, 'Ammunition running low': one enemy unit's next volley is -1."""
    g = with_chance(tmp_path, [unit("F1"), unit("A1", "Allies", front=5)], "ammunition")
    g.perform("chance", {"side": "French", "on": "A1"})
    g.perform("next", {})
    out = g.perform("fire", {"unit": "A1", "target": "F1", "range": "long"}, [5, 5])
    assert out.rolls[0].final == 4  # a d6 of 5, -1


def test_chance_smoke_makes_fire_long_range(tmp_path: Path) -> None:
    """Reading K54, 'Smoke obscures the field': all fire at one target counts as long range
    this turn (a quarter of the hits, saves 4-6)."""
    g = with_chance(tmp_path, [unit("F1", front=5), unit("A1", "Allies")], "smoke")
    g.perform("chance", {"side": "French", "on": "A1"})
    out = g.perform("fire", {"unit": "F1", "target": "A1", "range": "short"}, [4, 4])
    assert (out.details["hits"], out.details["actual"], out.details["casualties"]) == (4, 1, 0)


def test_chance_forced_march_a_quarter_more(tmp_path: Path) -> None:
    """Reading K54, 'Forced march': one friendly unit moves a further quarter move this turn
    (a line's 150mm becomes 187.5mm)."""
    g = with_chance(tmp_path, [unit("F1"), unit("A1", "Allies")], "forced_march")
    with pytest.raises(RuleViolation):
        g.perform("move", {"unit": "F1", "distance": 180, "mode": "move"}, [6, 0, 3])
    g.perform("chance", {"side": "French", "on": "F1"})
    out = g.perform("move", {"unit": "F1", "distance": 180, "mode": "move"}, [6, 0, 3])
    assert out.details["moved_mm"] == 180


def test_chance_hesitation_minus_one_from_a_standstill(tmp_path: Path) -> None:
    """Reading K54, 'Hesitation': one enemy unit's next Moving From A Standstill roll is -1
    (a 2 then fails as a 1 does)."""
    g = with_chance(tmp_path, [unit("F1"), unit("A1", "Allies", advancing=False)], "hesitation")
    g.perform("chance", {"side": "French", "on": "A1"})
    g.perform("next", {})
    out = g.perform("start", {"unit": "A1"}, [2])
    assert out.rolls[0].final == 1 and g.state.unit("A1").start_failed


def test_chance_steady_lads_rolls_a_failed_test_again(tmp_path: Path) -> None:
    """Reading K54, 'Steady, lads!': one friendly unit rolls a failed morale test again, once."""
    g = with_chance(tmp_path, [unit("F1"), unit("A1", "Allies")], "steady_lads")
    g.perform("chance", {"side": "French", "on": "F1"})
    out = g.perform("morale", {"unit": "F1", "in_command": False}, [90, 10])
    assert [r.natural for r in out.rolls] == [90, 10]
    assert not g.state.unit("F1").morale_failed


def test_chance_quiet_on_the_front_does_nothing(tmp_path: Path) -> None:
    g = with_chance(tmp_path, [unit("F1"), unit("A1", "Allies")], "nothing")
    before = g.state.unit("F1")
    g.perform("chance", {"side": "French", "on": "F1"})
    assert g.state.unit("F1") == before and g.state.chance_played == ("nothing",)


# == Morale: the D10 result chart (missing: vedette's default, reading K41) =====================
@pytest.mark.parametrize(
    ("face", "status", "rally", "chits", "owed_mode", "owed_mm"),
    [
        (1, "routing", True, 0, "rout", 150),  # 1-2 rout: a full move away at once; rally
        (2, "routing", True, 0, "rout", 150),
        (3, "retiring", True, 0, "retire", 150),  # 3-4 retire a full move in disorder; rally
        (4, "retiring", True, 0, "retire", 150),
        (5, "steady", False, 0, "retire", 75),  # 5-6 retire half a move facing the enemy
        (6, "steady", False, 0, "retire", 75),
        (7, "steady", False, 1, None, 0),  # 7-8 halt where it stands with a 'D'
        (8, "steady", False, 1, None, 0),
        (9, "steady", False, 0, None, 0),  # 9-10 halt where it stands
        (10, "steady", False, 0, None, 0),
    ],
)
def test_the_default_result_chart_row_by_row(
    tmp_path: Path,
    face: int,
    status: str,
    rally: bool,
    chits: int,
    owed_mode: str | None,
    owed_mm: int,
) -> None:
    """Morale: 'To determine the result roll a D10 and consult the following chart ... The
    first two results require rallying'. The chart is vedette's default (K41); what each row
    leaves and owes next, as the player page documents it."""
    g = ready(tmp_path, [unit("F1"), unit("A1", "Allies")])
    g.perform("morale", {"unit": "F1", "in_command": False}, [99, face])
    u = g.state.unit("F1")
    assert (u.status, u.must_rally, u.disorder) == (status, rally, chits)
    moves = [r for p, r in owed(g) if p == "move"]
    if owed_mode is None:
        assert moves == []
        with pytest.raises(RuleViolation):  # halts where it stands: no move this turn
            g.perform("move", {"unit": "F1", "distance": 50, "mode": "move"}, [6, 0, 3])
    else:
        assert len(moves) == 1 and moves[0]["unit"] == "F1"
        assert moves[0]["mode"] == owed_mode
        out = g.perform("move", moves[0], [0, 3])
        assert out.details["moved_mm"] == owed_mm
        # Disorder: 'Each move of Rout 2D. Each move of Retreat/Pursuit 1D': a rout 2D, the
        # retirement in disorder 1D, the half move facing the enemy 1D too (a retreat, K97)
        assert g.state.unit("F1").disorder == {1: 2, 2: 2}.get(face, 1)
        assert owed(g) == []


# == Disorder / Morale: a routing unit runs each move (reading K60) =============================
def routed_then_next_turn(tmp_path: Path, **kw: Any) -> Game:
    """F1 fails morale and routs (chart face 1) on turn 1, runs at once; turn 2, FB's card."""
    g = ready(tmp_path, [unit("F1"), unit("A1", "Allies")], **kw)
    g.perform("morale", {"unit": "F1", "in_command": False}, [99, 1])
    g.perform("move", {"unit": "F1", "mode": "rout"}, [0, 3])
    assert g.state.unit("F1").disorder == 2
    g.perform("next", {})
    g.perform("next", {})
    g.perform("end_turn", {})
    dealt(g, {"FB": 1, "AB": 2})
    up(g, "FB")
    return g


def test_a_routing_unit_owes_its_run_on_its_next_card(tmp_path: Path) -> None:
    """Disorder: 'Each move of Rout 2D'; Morale: 'The first two results require rallying'. A
    routing unit's card does not end with the unit standing: it rallies, or it runs a full
    move (2D more) — the run is owed, and the card cannot end before it."""
    g = routed_then_next_turn(tmp_path)
    assert owed(g) == [("move", {"unit": "F1", "mode": "rout"})]
    with pytest.raises(RuleViolation, match="routing"):
        g.perform("next", {})
    out = g.perform("move", {"unit": "F1", "mode": "rout"}, [0, 3])
    assert out.details["moved_mm"] == 150 and g.state.unit("F1").disorder == 4
    assert owed(g) == []
    g.perform("next", {})


def test_a_routing_unit_may_rally_first(tmp_path: Path) -> None:
    """Morale: the first two results 'require rallying': a rally that holds ends the rout, and
    no run is owed; one that fails leaves the run owed."""
    g = routed_then_next_turn(tmp_path / "a")
    g.perform("rally", {"unit": "F1"}, [0])
    assert g.state.unit("F1").status == "steady" and owed(g) == []
    h = routed_then_next_turn(tmp_path / "b")
    h.perform("rally", {"unit": "F1"}, [99])
    assert h.state.unit("F1").status == "routing"
    assert owed(h) == [("move", {"unit": "F1", "mode": "rout"})]


def test_a_routing_units_run_can_be_waived_or_made_optional(tmp_path: Path) -> None:
    """The logged way round an owed run, and the house rule that only offers it."""
    g = routed_then_next_turn(tmp_path / "a")
    (ob,) = g.obligations()
    g.perform("waive", {"obligation": ob.id})
    assert owed(g) == [] and g.state.unit("F1").disorder == 2
    g.perform("next", {})
    h = routed_then_next_turn(tmp_path / "b", house={"options": {"routing_runs": False}})
    assert owed(h) == []
    assert any(t.request == {"unit": "F1", "mode": "rout"} for t in h.todo())  # offered
    h.perform("next", {})


# == Melee, Cavalry vs. Infantry: skirmishers evade (reading K59) ===============================
def evading(tmp_path: Path, gap: float, **kw: Any) -> Game:
    """Light cavalry (a 400mm move) charge skirmishers ``gap`` mm ahead of their front."""
    units = [
        cavalry("F1", x=500.0, y=0.0, facing=0.0, width=90.0, depth=30.0),
        unit("A1", "Allies", formation="skirmish", figures=8, front=8, x=500.0,
             y=15.0 + gap + 15.0, facing=180.0, width=120.0, depth=30.0),
    ]  # fmt: skip
    g = ready(tmp_path, units, **kw)
    out = g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    assert "evade" in out.message
    g.perform("next", {})  # the skirmishers' jumped card: the evasion (no test: reading K65)
    assert owed(g) == [("evade", {"unit": "A1"})]
    return g


def test_skirmishers_the_cavalry_still_reach_are_ridden_down(tmp_path: Path) -> None:
    """Melee, Cavalry vs. Infantry: 'Skirmishers will not stand against cavalry, and if
    charged will evade D20cm, any being caught are ridden down and removed.' Reading K59: 200mm
    from the lancers, an evasion of 19cm leaves them 390mm away, within the lancers' 400mm
    move: caught, all of them; from 300mm, one of 11cm leaves them 410mm away: they escape."""
    g = evading(tmp_path / "a", 200.0)
    out = g.perform("evade", {"unit": "A1"}, [19])
    a1 = g.state.unit("A1")
    assert "ridden down" in out.message and a1.figures == 0 and not a1.on_table
    h = evading(tmp_path / "b", 300.0)
    out = h.perform("evade", {"unit": "A1"}, [11])
    a1 = h.state.unit("A1")
    assert "ridden down" not in out.message and a1.figures == 8
    assert a1.y == 15.0 + 300.0 + 15.0 + 110.0  # straight away from the lancers
    assert owed(h) == []


def test_caught_skirmishers_stated_or_only_stated(tmp_path: Path) -> None:
    """The player's own count wins (``caught=N``), and ``[options] evade_caught = "stated"``
    leaves the count to the player alone."""
    g = evading(tmp_path / "a", 200.0)
    g.perform("evade", {"unit": "A1", "caught": 3}, [19])
    assert g.state.unit("A1").figures == 5
    h = evading(tmp_path / "b", 200.0, house={"options": {"evade_caught": "stated"}})
    h.perform("evade", {"unit": "A1"}, [19])
    assert h.state.unit("A1").figures == 8


# == Generals / Move Sequence: every move ======================================================
def test_each_move_begins_with_the_control_phase(tmp_path: Path) -> None:
    """Generals: ''Grade' refers to the role each brigadier must attempt each move'; Movement:
    'At the start of the Control Phase, each brigadier rolls for control'. After a turn ends
    the cards wait for a new control roll; the new roll decides the new deal."""
    g = ready(tmp_path, [unit("F1"), unit("F2"), unit("A1", "Allies")])
    g.perform("next", {})
    g.perform("next", {})
    g.perform("end_turn", {})
    assert g.state.phase == "control"
    with pytest.raises(RuleViolation):
        g.perform("deal", {"cards": {"FB": 1, "AB": 2}, "chance": {}})
    g.perform("control", {}, [7, 1])  # FB fails this time: a card for each of his units
    out = g.perform("deal", {"cards": {"F1": 1, "F2": 3, "AB": 2}, "chance": {}})
    assert out.details["order"] == ["F1", "AB", "F2"]


def test_a_unit_may_move_then_fire_at_the_players_whim(tmp_path: Path) -> None:
    """Move Sequence: 'Once activated by card priority, each unit can move, fire and attack at
    the whim of the player'; Firing: 'Firer Moved this turn -2'."""
    g = ready(tmp_path, [unit("F1", front=5), unit("A1", "Allies")])
    g.perform("move", {"unit": "F1", "distance": 50, "mode": "move"}, [6, 0, 3])
    out = g.perform("fire", {"unit": "F1", "target": "A1", "range": "long"}, [6, 6])
    assert out.rolls[0].final == 4  # 6 - 2 (moved)


# == Charge Test: chargers cannot fire that turn ================================================
def test_a_charger_cannot_fire_once_its_melee_is_over(tmp_path: Path) -> None:
    """Charge Test: 'units who charge do so in a straight line and cannot fire that turn': when
    the melee is over (here the loser broke at once) the charger is still one that charged."""
    g = ready(tmp_path, [unit("F1", figures=10, front=5), unit("A1", "Allies", figures=10,
                                                               front=5)])  # fmt: skip
    to_melee(g, "F1", "A1")
    # F1: 2 dice +1 (hit enemy standing) 1,1 -> 4 -> 2, saves 1,1; A1: 1,1 -> 2 -> 1, save 1
    g.perform("melee", {"unit": "F1", "target": "A1"}, [1, 1, 1, 1, 1, 1, 1])
    g.perform("morale", {"unit": "A1"}, [99, 9])  # A1 fails: halts (the melee ends)
    assert owed(g) == [] and g.state.unit("F1").charge_state == "done"
    assert not [t for t in g.todo() if t.procedure == "fire" and t.request["unit"] == "F1"]
    with pytest.raises(RuleViolation, match="cannot fire that turn"):
        g.perform("fire", {"unit": "F1", "target": "A1", "range": "short"}, [1, 1])


def test_only_a_b_c_infantry_failing_to_charge_home_fire(tmp_path: Path) -> None:
    """Charge Home Test: 'A,B or C class infantry who fail will halt and fire a volley, unless
    CO is Timid, when they retire 100mm': the Timid CO's battalion retires and does not fire
    (it charged: 'cannot fire that turn')."""
    g = ready(tmp_path, [unit("F1", front=5), unit("A1", "Allies")],
              gens=[gen("FB", av="timid"), gen("AB", "Allies")])  # fmt: skip
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [0])
    for _ in range(3):
        steps = [(p, r) for p, r in owed(g) if p in ("fire", "close")]
        if not steps:
            break
        p, r = steps[0]
        if p == "fire":
            r["hold"] = True
        g.perform(p, r)
    out = g.perform("charge_home", {"unit": "F1"}, [99])
    assert "retire" in out.message and owed(g) == []
    with pytest.raises(RuleViolation, match="cannot fire that turn"):
        g.perform("fire", {"unit": "F1", "target": "A1", "range": "short"}, [1, 1])


# == Melee: the D3 further rounds ==============================================================
def test_the_rounds_message_says_what_follows_a_test_that_holds(tmp_path: Path) -> None:
    """Melee: 'The side taking the most casualties checks morale, and if it passes the melee
    continues for D3 further rounds this turn': after round 1 the D3 is rolled ('brawl'); after
    the last further round, a test that holds ends the melee (no second D3)."""
    g = ready(tmp_path, [unit("F1", figures=10, front=5), unit("A1", "Allies", figures=10,
                                                               front=5)])  # fmt: skip
    to_melee(g, "F1", "A1")
    out = g.perform("melee", {"unit": "F1", "target": "A1"}, [1, 1, 1, 1, 1, 1, 1])
    assert out.message.endswith("if it holds, 'brawl'")
    g.perform("morale", {"unit": "A1"}, [0])
    g.perform("brawl", {"unit": "F1", "target": "A1"}, [1])  # one further round
    # F1 (9 figures: one die) 2 -1 (its 'D') = 1 -> ½: percentage dice 02 -> one, A1 fails
    # its save with a 1; A1 (8 figures: one die) 1 -1 = 0
    out = g.perform("melee", {"unit": "F1", "target": "A1", "round": 2}, [2, 2, 1, 1])
    assert out.details["losers"] == ["A1"]
    assert out.message.endswith("if it holds, the melee ends")
    g.perform("morale", {"unit": "A1"}, [0])
    assert owed(g) == [] and g.state.unit("F1").charge_state == "done"


def test_the_charge_sequence_names_skirmishers_ridden_down(tmp_path: Path) -> None:
    """The odds of a whole charge (``chances charge_to_melee``) follow the evasion: 200mm from
    the lancers, any evasion (10-200mm) leaves the skirmishers within the lancers' 400mm, so
    every charge that is declared rides them down (reading K59)."""
    units = [
        cavalry("F1", x=500.0, y=0.0, facing=0.0, width=90.0, depth=30.0),
        unit("A1", "Allies", formation="skirmish", figures=8, front=8, x=500.0, y=230.0,
             facing=180.0, width=120.0, depth=30.0),
    ]  # fmt: skip
    g = ready(tmp_path, units)
    c = g.chances("charge_to_melee", {"unit": "F1", "target": "A1"})
    lines = c.lines()
    declared = [x for x in lines if "F1 charges A1" in x]
    assert declared and all(x.endswith("A1 evades, 8 figures ridden down") for x in declared)
