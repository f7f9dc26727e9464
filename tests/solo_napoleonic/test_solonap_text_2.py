"""Kuryakin's text as acceptance cases (seed 004), third audit: the optional rules (officers,
musicians, standard bearers), artillery, generals and the end of the battle; sentences the
other acceptance files do not pin exactly, each played only through the public API with forced
dice, asserting what the sentence quoted says happens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.solo_napoleonic.test_solonap_text import (
    dealt,
    gen,
    mods,
    new,
    owed,
    ready,
    to_melee,
    unit,
    up,
)
from vedette.engine import Store
from vedette.errors import DataError, RuleViolation


def close_in(g: Any) -> None:
    """After the target's forced test: its defensive fire held, the charger moves up."""
    for _ in range(3):
        owed = [t for t in g.todo() if t.owed and t.procedure in ("fire", "close")]
        if not owed:
            return
        req = dict(owed[0].request)
        if owed[0].procedure == "fire":
            req["hold"] = True
        g.perform(owed[0].procedure, req)


def battery(uid: str = "F1", **kw: Any) -> dict[str, Any]:
    d: dict[str, Any] = {"kind": "foot_artillery", "formation": "unlimbered", "figures": 3}
    d.update(kw)
    return unit(uid, **d)


# == Optional rules: officers ===================================================================
def test_artillery_fire_kills_the_officer_as_infantry_fire_does(tmp_path: Path) -> None:
    """Artillery, Determining Casualties: 'As per Infantry Fire': a battery's casualty rolled
    on the officer's place in the front rank kills him, and the unit then takes the officer's
    -5% to its morale (Optional rules: 'No officer: -5% to all morale')."""
    # (the battery: 3 crew and its officer, reading K99)
    g = ready(tmp_path, [battery(figures=4), unit("A1", "Allies", figures=20, front=10)],
              options={"officers": True})  # fmt: skip
    assert mods(g, "morale", {"unit": "A1", "in_command": False}) == 0
    # ball: D6 = 2 hits; saves (short: 5-6) 1, 1 -> 2 casualties; who (D10): 1 (the officer), 4
    out = g.perform("fire", {"unit": "F1", "target": "A1", "range": "short"}, [2, 1, 1, 1, 4])
    assert out.details["specials_hit"] == ["officer"]
    assert g.state.unit("A1").officer == "dead" and g.state.unit("A1").figures == 18
    assert mods(g, "morale", {"unit": "A1", "in_command": False, "casualties": 0}) == -5


def test_officer_lost_to_fire_slows_clearing_disorder(tmp_path: Path) -> None:
    """Optional rules, Officers: 'Loss affects clearing disorder' (Disorder: 'Officer dead
    (optional) -1'), from the officer the unit has lost."""
    g = ready(tmp_path, [unit("F1", disorder=3), unit("A1", "Allies")],
              options={"officers": True})  # fmt: skip
    g.perform("reform", {"unit": "F1"}, [2])
    assert g.state.unit("F1").disorder == 1
    h = ready(tmp_path / "dead", [unit("F1", disorder=3, officer="dead"), unit("A1", "Allies")],
              options={"officers": True})  # fmt: skip
    h.perform("reform", {"unit": "F1"}, [2])
    assert h.state.unit("F1").disorder == 2


def test_officer_behind_the_front_rank_slows_clearing_disorder(tmp_path: Path) -> None:
    """Optional rules: 'Officers must be in the front rank or they have the same effect as if
    dead': his loss's -1 to clearing disorder counts for an officer hidden behind the ranks."""
    g = ready(tmp_path, [unit("F1", disorder=3, front=9, officer_pos=12), unit("A1", "Allies")],
              options={"officers": True})  # fmt: skip
    g.perform("reform", {"unit": "F1"}, [2])
    assert g.state.unit("F1").disorder == 2


def test_officer_behind_the_front_rank_is_never_hit_by_fire(tmp_path: Path) -> None:
    """Firing: 'count the number of figures in the front rank. Then roll randomly to see who is
    hit. Thus it can be seen that officers leading a column are in much greater danger': an
    officer behind the front rank is not among those rolled for (the player's 'prerogative')."""
    g = ready(
        tmp_path,
        [battery(figures=4), unit("A1", "Allies", figures=20, front=10, officer_pos=12)],
        options={"officers": True},
    )  # (the battery: 3 crew and its officer, K99)
    out = g.perform("fire", {"unit": "F1", "target": "A1", "range": "short"}, [2, 1, 1])
    assert out.details.get("specials_hit", []) == []
    assert g.state.unit("A1").officer == "alive" and g.state.unit("A1").figures == 18


# == Optional rules: standard bearers ===========================================================
def test_standard_behind_the_front_when_charging_home_counts_as_dead(tmp_path: Path) -> None:
    """Optional rules, Standard Bearers: 'the standard can be anywhere in the unit, although it
    should be at the front when melee is attempted, or the negative modifier will count' (-10%
    to the Charge Home test); at the front, no modifier."""
    for sub, pos, want in (("front", 3, 0), ("behind", 12, -10)):
        g = ready(tmp_path / sub, [unit("F1", front=9, standard_pos=pos), unit("A1", "Allies")],
                  options={"standards": True})  # fmt: skip
        g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 1])
        g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [1])
        close_in(g)
        assert mods(g, "charge_home", {"unit": "F1"}) == want, sub


def test_standard_lost_to_fire_minus_10_charging_home(tmp_path: Path) -> None:
    """Standard Bearers: 'If dead, -10% to Charge Home morale tests' (a standard bearer hit in
    the front rank by fire is dead: 'nobody else has picked it up')."""
    g = ready(tmp_path, [battery(), unit("A1", "Allies", figures=20, front=10),
                         unit("F2")], options={"standards": True})  # fmt: skip
    # the standard stands at the centre of the front rank (5 of 10)
    out = g.perform("fire", {"unit": "F1", "target": "A1", "range": "short"}, [1, 1, 5])
    assert out.details["specials_hit"] == ["standard"]
    assert g.state.unit("A1").standard == "dead"


# == Optional rules: musicians ==================================================================
def test_a_live_musician_moving_over_half_takes_no_chit(tmp_path: Path) -> None:
    """Disorder: 'Unit moving over 1/2 and Musician dead 1D (optional)': only a dead musician."""
    g = ready(tmp_path, [unit("F1"), unit("A1", "Allies")], options={"musicians": True})
    g.perform("move", {"unit": "F1", "distance": 100, "mode": "move"}, [6, 0, 3])
    assert g.state.unit("F1").disorder == 0


# == Generals ===================================================================================
@pytest.mark.parametrize(("save", "killed", "left"), [(3, False, 2), (2, True, 3)])
def test_attached_general_in_melee_saves_on_3_to_6(
    tmp_path: Path, save: int, killed: bool, left: int
) -> None:
    """Melee: 'Determining hits as for firing, but counting all eligible victims'; Firing: 'All
    Generals are always save on a D6 roll of 3-6' (a general saved: an ordinary soldier falls,
    reading K25; killed: he is the casualty)."""
    gens = [gen("FB"), gen("AB", "Allies"), gen("AG", "Allies", attached_to="A1")]
    g = ready(tmp_path, [unit("F1", figures=5, front=5),
                         unit("A1", "Allies", figures=5, front=5)], gens=gens)  # fmt: skip
    to_melee(g, "F1", "A1")
    # F1: 5 points, 1d6 4+1 (hit standing) = 5, half 2.5 (d100 01: 3); A1 saves 1,1,1;
    # A1: 1d6 1, half 0.5 (01: 1); F1 saves 1; who among A1's 5: 1 (the general: his save), 2, 3
    faces = [4, 1, 1, 1, 1, 1, 1, 1, 1, save, 2, 3]
    g.perform("melee", {"unit": "F1", "target": "A1"}, faces)
    assert g.state.general("AG").killed is killed
    assert g.state.unit("A1").figures == left


# == Artillery ==================================================================================
def test_a_limbered_battery_does_not_fire(tmp_path: Path) -> None:
    """Artillery (reading K61): the text never speaks of limbering, but its Move Distances
    stand-in gives unlimbered guns no move and limbered guns one: guns on the move (limbered)
    do not fire: refused, and not offered, until unlimbered; ``[options] limbered_guns_fire``
    lets them."""
    g = ready(tmp_path, [battery(formation="limbered"), unit("A1", "Allies")])
    with pytest.raises(RuleViolation, match="limbered: unlimber it first"):
        g.perform("fire", {"unit": "F1", "target": "A1", "range": "short"}, [3, 1, 1, 1])
    assert not [t for t in g.todo() if t.procedure == "fire"]
    assert g.state.unit("A1").figures == 18
    h = ready(tmp_path / "h", [battery(formation="limbered"), unit("A1", "Allies")],
              house={"options": {"limbered_guns_fire": True}})  # fmt: skip
    h.perform("fire", {"unit": "F1", "target": "A1", "range": "short"}, [3, 1, 1, 1])
    assert h.state.unit("A1").figures == 15


def test_a_charged_limbered_battery_gives_no_defensive_fire(tmp_path: Path) -> None:
    """Charge Test: the attacker 'takes any defensive fire': a limbered battery has none to
    give, so none is owed (the lapse says why) and the charge goes on to the move up."""
    g = ready(tmp_path, [unit("F1"), battery("A1", side="Allies", formation="limbered")])
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 0])
    out = g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [0])
    assert "defensive fire lapses" in out.message and "limbered" in out.message
    assert [p for p, _ in owed(g)] == ["close"]


# == Generals: a general killed =================================================================
def killed_with_f1(tmp_path: Path, rank: str, **house: Any) -> Any:
    """F1 loses its attached general (``rank``: the corps commander CC, or its brigadier FB,
    under CC) to A1's fire; F2, of FB's brigade too, stands 1000mm away."""
    gens = [gen("CC", rank="corps", attached_to="F1" if rank == "corps" else None),
            gen("FB", superior="CC", attached_to="F1" if rank == "brigadier" else None),
            gen("AB", "Allies")]  # fmt: skip
    units = [unit("F1", x=0.0, y=0.0, front=5), unit("F2", x=1000.0, y=0.0),
             unit("A1", "Allies", x=0.0, y=150.0, facing=180.0, front=5)]  # fmt: skip
    g = dealt(new(tmp_path, units, gens, house=house or None), {"FB": 2, "AB": 1})
    up(g, "AB")
    # volley 6 x 3/4 = 4 1/2 (99: no extra) -> 4; saves 1,1,1,1; who (D6 over F1's front of 5):
    # 1 is the general, his save 1 fails; then 2, 3, 4
    g.perform("fire", {"unit": "A1", "target": "F1"}, [6, 99, 1, 1, 1, 1, 1, 1, 2, 3, 4])
    assert g.state.general("CC" if rank == "corps" else "FB").killed
    return g


def test_a_brigadier_killed_is_felt_within_his_influence_range(tmp_path: Path) -> None:
    """Morale: 'Brigade or Divisional CO killed in influence range -15%': F1, where he fell,
    tests with -15%; F2, 1000mm off, is beyond his influence range and does not test."""
    g = killed_with_f1(tmp_path, "brigadier")
    f1, f2 = g.state.unit("F1"), g.state.unit("F2")
    assert f1.morale_due and "co_killed" in f1.morale_facts
    assert not f2.morale_due


def test_a_corps_commander_killed_is_felt_by_his_whole_command(tmp_path: Path) -> None:
    """Morale: 'Corps commander killed -20%' (no influence range, where the brigade or
    divisional CO's loss counts 'in influence range': reading K62): every unit of his command
    tests with -20%, F2 1000mm off too; ``[referee_morale] corps_influence_mm`` gives him a
    range."""
    g = killed_with_f1(tmp_path, "corps")
    for uid in ("F1", "F2"):
        u = g.state.unit(uid)
        assert u.morale_due and "corps_killed" in u.morale_facts, uid
    h = killed_with_f1(tmp_path / "h", "corps", referee_morale={"corps_influence_mm": 300})
    assert h.state.unit("F1").morale_due and not h.state.unit("F2").morale_due


def test_a_batterys_crew_are_its_figures(tmp_path: Path) -> None:
    """Artillery: 'Each artillery battery is represented by ONE model, and one crew figure per
    piece represented'; 'Each crew figure over 3 +1': a battery's figures are its crew (the
    model is not counted); a scenario giving a ``crew`` other than its figures is refused in one
    line, not silently ignored."""
    g = ready(tmp_path, [battery(figures=4, crew=4), unit("A1", "Allies")])
    out = g.perform("fire", {"unit": "F1", "target": "A1", "range": "short"}, [3, 1, 1, 1, 1])
    assert out.rolls[0].final - out.rolls[0].natural == 1  # one crew figure over 3
    with pytest.raises(DataError, match="crew 4 but 1 figures"):
        new(tmp_path / "bad", [battery(figures=1, crew=4), unit("A1", "Allies")])


# == National variations ========================================================================
@pytest.mark.parametrize("written", ["Russian", "Russians", "russians"])
def test_a_nation_written_as_its_people_still_varies(tmp_path: Path, written: str) -> None:
    """National Variations: 'Russian: +1 AV; -1 CR' and Artillery: 'Russian Gunners -2', for a
    general or a battery whose nation is written as the side often is ("Russians"): AV roll 4+1
    = 5 Aggressive, CR 6-1 = 5; the battery's roll -2."""
    g = new(tmp_path, [battery(nation=written), unit("A1", "Allies")],
            [gen("FB"), gen("AB", "Allies"),
             {"id": "RG", "name": "RG", "side": "Allies", "nation": written}])  # fmt: skip
    g.perform("staff", {"general": "RG"}, [3, 4, 3])
    assert (g.state.general("RG").av, g.state.general("RG").cr) == ("aggressive", 5)
    g = dealt(g, {"FB": 1, "AB": 2})
    up(g, "FB")
    out = g.perform("fire", {"unit": "F1", "target": "A1", "range": "short"}, [6, 1, 1, 1, 1])
    assert out.rolls[0].final - out.rolls[0].natural == -2


def test_dutch_belgian_gunners_however_written(tmp_path: Path) -> None:
    """Artillery: 'Neapolitan, Dutch-Belgian or Hanoverian gunners -1'."""
    for i, written in enumerate(("Dutch-Belgian", "Dutch Belgian", "dutch_belgian")):
        g = ready(tmp_path / str(i), [battery(nation=written), unit("A1", "Allies")])
        out = g.perform("fire", {"unit": "F1", "target": "A1", "range": "short"}, [6, 1] + [1] * 4)
        assert out.rolls[0].final - out.rolls[0].natural == -1, written


def test_a_battery_has_no_arc_unless_a_house_rule_gives_one(tmp_path: Path) -> None:
    """Artillery gives no firing arc (the volley's 45° is Infantry's, the 180° the
    skirmishers'): by default a battery fires at a target behind it (reading K63);
    ``[options] artillery_arc_deg = 45`` gives it the volley's arc."""
    units = [battery(x=0.0, y=0.0, facing=0.0), unit("A1", "Allies", x=0.0, y=-300.0)]
    back = {"unit": "F1", "target": "A1"}
    g = ready(tmp_path, units)
    assert g.odds("fire", back)
    h = ready(tmp_path / "h", units, house={"options": {"artillery_arc_deg": 45}})
    with pytest.raises(RuleViolation, match="outside F1's arc"):
        h.perform("fire", back, [3, 1, 1, 1])


@pytest.mark.parametrize(
    ("key", "word"),
    [
        ("evade_caught", "sometimes"),
        ("fire_disorder_to", "nobody"),
        ("morale_casualties", "all"),
        ("allocation_roll", "never"),
        ("below_average_zero", "down"),
    ],
)
def test_a_house_rule_word_not_among_its_readings_is_refused(
    tmp_path: Path, key: str, word: str
) -> None:
    """A reading chosen by a word (K59's "reach"/"stated", the D chit's "firer"/"target"/
    "both", ...): any other word is refused in one line naming the key and the words allowed,
    and no game is stored (before, it was taken and silently read as the other reading)."""
    with pytest.raises(DataError, match=rf"\[options\] {key} must be one of .*not '{word}'"):
        new(tmp_path, [unit("F1")], house={"options": {key: word}})
    assert Store(tmp_path / "g.db").games() == []
