"""O'Leary's sentences as acceptance tests (session 15, helper F3): for each sentence of seed
001 that decides something and that no other test pins, one case driven only through the
public ``Game`` API (forced dice where dice matter), asserting what the text says happens.

The sentences the other files already pin exactly (grep their rule numbers) are not repeated
here: tests/acceptance/test_accept_asl.py, tests/seeds/test_asl_examples.py and
tests/solitaire_asl/*.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.solitaire_asl.test_asl_flow import GE, RU, game, goto, refused, sample, weapon
from vedette.engine import Game, Store
from vedette.rules.solitaire_asl import RULESET


def sq(cid: str, name: str = "4-4-7", **kw: Any) -> dict[str, Any]:
    return {"id": cid, "name": name, "kind": "squad", **kw}


def status(g: Game, sid: str) -> str | None:
    s = g.state.stack(sid)
    return None if s is None else str(s.status.value)


def where(g: Game, sid: str) -> str | None:
    s = g.state.stack(sid)
    return None if s is None else str(s.location)


def final(out: Any) -> int:
    return int(out.rolls[0].final)


def two_pairs(tmp_path: Path, **scen: Any) -> Game:
    """Russian: PDS P1 (4A1) and dummy stack D1 (4C1, two counters), HIP H1 (4A5) and a dummy
    HIP counter X1 (4C5); German: PDS G1 (4A8) and dummy stack G2 (4C8, two counters)."""
    return game(
        tmp_path,
        [
            {"id": "P1", "location": "4A1", "status": "potential_dummy", "counters": [sq("p1")]},
            {"id": "D1", "location": "4C1", "status": "dummy", "dummies": 2},
            {"id": "H1", "location": "4A5", "status": "hip", "counters": [sq("h1")]},
            {"id": "X1", "location": "4C5", "status": "dummy_hip"},
            {
                "id": "G1",
                "side": GE,
                "location": "4A8",
                "status": "potential_dummy",
                "counters": [sq("g1", "4-6-7")],
            },
            {"id": "G2", "side": GE, "location": "4C8", "status": "dummy", "dummies": 2},
        ],
        **scen,
    )


# == 2.2 ===========================================================================================
def test_2_2_enemy_in_its_location_does_not_affect_the_status(tmp_path: Path) -> None:
    """2.2: "The presence of enemy units in its LOS or even its location does not affect its
    status as a potential dummy stack." A German PDS moves into P1's location; P1 is still a
    PDS and shifts at the start of its next MPh."""
    g = two_pairs(tmp_path)
    goto(g, "MPh", GE)
    g.perform("move", {"stack": "G1", "to": "4A1"})
    assert status(g, "P1") == "potential_dummy"
    goto(g, "MPh", RU)
    out = g.perform("shift", {"a": "P1", "b": "D1"}, faces=[1, 2])
    assert out.rolls[0].row == "allowed"
    assert (where(g, "P1"), where(g, "D1")) == ("4C1", "4A1")


def test_2_2_once_concealment_is_lost_never_again_a_pds(tmp_path: Path) -> None:
    """2.2: "Once a potential dummy stack loses its concealment, it may never again become a
    potential dummy stack": revealed (A12.121), it neither shifts nor is marked again."""
    g = two_pairs(tmp_path)
    goto(g, "MPh")
    g.perform("reveal", {"what": "P1"})
    assert status(g, "P1") == "revealed"
    refused(g, "shift", {"a": "P1", "b": "D1"}, [1, 1], "O'Leary")
    refused(g, "mark", {"stack": "P1"}, [], "O'Leary 2.2")


def test_2_2_drop_the_status_at_any_time(tmp_path: Path) -> None:
    """2.2: "A potential dummy stack may drop this status at any time and still retain
    concealment": even in the enemy's phase."""
    g = two_pairs(tmp_path)
    goto(g, "DFPh", GE)
    g.perform("drop", {"stack": "P1"})
    assert status(g, "P1") == "concealed"


def test_2_2_merge_only_at_the_end_of_that_sides_ccph(tmp_path: Path) -> None:
    """2.2: PDS merge "at the end of that sides CCPh": not in the enemy's CCPh."""
    g = game(
        tmp_path,
        [
            {"id": "P1", "location": "4A1", "status": "potential_dummy", "counters": [sq("a")]},
            {"id": "P2", "location": "4A1", "status": "potential_dummy", "counters": [sq("b")]},
        ],
    )
    goto(g, "CCPh", GE)
    refused(g, "merge", {"a": "P1", "b": "P2"}, [], "O'Leary 2.2")
    goto(g, "CCPh", RU)
    g.perform("merge", {"a": "P1", "b": "P2"})
    assert [len(s.counters) for s in g.state.stacks] == [2]


def test_2_2_merge_needs_the_same_position(tmp_path: Path) -> None:
    """2.2: PDS merge "provided they share the same location and position in that location"."""
    g = game(
        tmp_path,
        [
            {"id": "P1", "location": "4A1", "status": "potential_dummy", "counters": [sq("a")]},
            {
                "id": "P2",
                "location": "4A1",
                "position": "foxhole",
                "status": "potential_dummy",
                "counters": [sq("b")],
            },
        ],
    )
    goto(g, "CCPh")
    refused(g, "merge", {"a": "P1", "b": "P2"}, [], "O'Leary 2.2", "position")


# == 2.3 ===========================================================================================
def test_2_3_either_stack_may_be_named_first(tmp_path: Path) -> None:
    """2.3: a PDS "may attempt to exchange locations with any dummy stack": the exchange is
    the same whichever of the two the player names first."""
    g = two_pairs(tmp_path)
    goto(g, "MPh")
    out = g.perform("shift", {"a": "D1", "b": "P1"}, faces=[3, 3])
    assert out.rolls[0].row == "allowed" and final(out) == 6
    assert (where(g, "P1"), where(g, "D1")) == ("4C1", "4A1")


def test_2_3_after_a_shift_units_may_move_normally(tmp_path: Path) -> None:
    """2.5 rows <=0 and 1-7: the units "may move/advance normally" after the shift."""
    g = two_pairs(tmp_path)
    goto(g, "MPh")
    g.perform("shift", {"a": "P1", "b": "D1"}, faces=[1, 1])
    g.perform("move", {"stack": "P1", "to": "4D1"})
    assert where(g, "P1") == "4D1" and status(g, "P1") == "potential_dummy"


def test_2_3_a_vehicle_shifting_with_itself_changes_its_settings_only_if_allowed(
    tmp_path: Path,
) -> None:
    """2.3: "if a vehicle or Gun exchanges locations with itself, it may freely change its
    CA/TCA/VCA and its CE/BU status accordingly": recorded on a successful shift DR; a refused
    one (final 11: 2.5 row 11-12) leaves them, and the stack loses its PDS status."""
    g = sample(tmp_path)
    goto(g, "MPh")
    out = g.perform("shift", {"a": "P2", "settings": {"r4": "TCA 3, CE"}}, faces=[1, 1])
    assert out.rolls[0].row in ("free", "allowed")
    assert weapon(g, "r4").settings == "TCA 3, CE" and where(g, "P2") == "4N3"
    out = g.perform("shift", {"a": "P2", "settings": {"r4": "TCA 5, BU"}}, faces=[5, 5])
    # 10 +1 (previous shift) -1 (woods) +2 (normal size vehicle, counted once: A30) = 12
    assert final(out) == 12 and out.rolls[0].row == "exposed", out.message
    assert weapon(g, "r4").settings == "TCA 3, CE" and status(g, "P2") == "concealed"


# == 2.5 DRM: "For each previous shift that side has made in this phase" ==========================
def test_2_5_the_other_sides_shifts_add_nothing(tmp_path: Path) -> None:
    """2.5: +1 "for each previous shift that side has made": the German PDS shift at the start
    of the German MPh does not count against the Russian HIP shift in that MPh (3.3.2)."""
    g = two_pairs(tmp_path)
    goto(g, "MPh", GE)
    g.perform("shift", {"a": "G1", "b": "G2"}, faces=[2, 2])
    out = g.perform("shift", {"a": "H1", "b": "X1"}, faces=[2, 2])
    assert out.rolls[0].row == "allowed"
    assert final(out) == 4 - 1  # both HIP -1, nothing for the German shift
    # the second Russian HIP shift of the phase gets its +1
    out = g.perform("shift", {"a": "H1", "b": "X1"}, faces=[2, 2])
    assert final(out) == 4 - 1 + 1


def test_3_3_4_hip_and_pds_shifts_in_any_order(tmp_path: Path) -> None:
    """3.3.4: "In a phase where both types of shifts are allowed, they may be performed in any
    order": a HIP shift first does not end the start of the MPh, nor add +1 to the PDS's."""
    g = two_pairs(tmp_path)
    goto(g, "MPh")
    g.perform("shift", {"a": "H1", "b": "X1"}, faces=[2, 2])
    out = g.perform("shift", {"a": "P1", "b": "D1"}, faces=[2, 2])
    assert out.rolls[0].row == "allowed" and final(out) == 4


# == 3.1.2 =========================================================================================
def test_3_1_2_dummy_hip_counters_anywhere(tmp_path: Path) -> None:
    """3.1.2: dummy HIP counters "may be placed in the same location as real units, potential
    dummy stacks, and dummy stacks with no penalty": the sample's PDS P1 (4P5), dummy stack D1
    (4Q6) and HIP squads (4M6) each take one (the Russian allotment is 3: 3.1.1)."""
    g = sample(tmp_path)
    for loc in ("4P5", "4Q6", "4M6"):
        g.perform("place", {"kind": "dummy_hip", "side": RU, "location": loc})
    dummies = sorted(s.location for s in g.state.stacks if s.status == "dummy_hip")
    assert dummies == ["4M6", "4O8", "4P5", "4Q6"]
    assert status(g, "P1") == "potential_dummy" and status(g, "D1") == "dummy"


# == 3.2.2 via 4.2: a hidden fortification's CA ====================================================
def test_3_2_2_a_hidden_fortification_keeps_its_ca_but_by_a_shift(tmp_path: Path) -> None:
    """3.2.2: HIP units "are not permitted to ... change CA within that location
    conventionally"; 4.2: a hidden fortification "is considered the equivalent of an HIP unit
    in every respect"; 4.4: it chooses its CA "immediately following a successful shift". The
    CA is recorded at set-up; in play it changes only by a shift (one with itself will do)."""
    g = sample(tmp_path)
    g.perform("fort", {"id": "F2", "ca": "NW/N"})  # set-up: the pillbox's CA
    goto(g, "PFPh")
    refused(g, "fort", {"id": "F2", "ca": "SE/S"}, [], "O'Leary 3.2.2", "shift")
    fort = g.state.fortification("F2")
    assert fort is not None and fort.ca == "NW/N"
    out = g.perform("shift", {"a": "F2", "ca": {"F2": "SE/S"}}, faces=[1, 1])
    assert out.rolls[0].row in ("free", "allowed"), out.message
    fort = g.state.fortification("F2")
    assert fort is not None and fort.ca == "SE/S"
    # once revealed, it is an ordinary fortification again: the player records what ASL allows
    g.perform("reveal", {"what": "F2"})
    g.perform("fort", {"id": "F2", "ca": "N/NE"})
    fort = g.state.fortification("F2")
    assert fort is not None and fort.ca == "N/NE"


def test_3_2_2_a_ca_never_recorded_may_be_recorded(tmp_path: Path) -> None:
    """Recording a hidden fortification's CA for the first time changes nothing on the board:
    allowed in play (the set-up choice noted late)."""
    g = sample(tmp_path)
    goto(g, "PFPh")
    g.perform("fort", {"id": "F2", "ca": "NW/N"})
    fort = g.state.fortification("F2")
    assert fort is not None and fort.ca == "NW/N"


# == 3.3 with 2.3: bore sighting survives a HIP shift ==============================================
def test_3_3_a_hip_weapon_keeps_its_bore_sight_eligibility_when_shifted(tmp_path: Path) -> None:
    """3.3: HIP units "obey all the conditions in 2.3": a weapon eligible to bore sight stays
    eligible after a successful shift, neither stack having moved but by shifting."""
    g = game(
        tmp_path,
        [
            {
                "id": "H1",
                "location": "4A5",
                "status": "hip",
                "counters": [sq("h1"), {"id": "w", "name": "HMG", "kind": "sw", "boresight": True}],
            },
            {"id": "X1", "location": "4C5", "status": "dummy_hip"},
        ],
    )
    goto(g, "PFPh")
    out = g.perform("shift", {"a": "H1", "b": "X1"}, faces=[1, 1])
    assert out.rolls[0].row in ("free", "allowed")
    assert weapon(g, "w").boresight == "eligible"
    assert g.state.counter("w")[0].location == "4C5"  # type: ignore[index]


# == 4.2: a failed HIP shift also stops the fortifications =========================================
def test_4_2_a_failed_hip_shift_stops_hip_fortifications(tmp_path: Path) -> None:
    """4.2: "if a failed shift roll prevents the shift of HIP units, it also prevents the shift
    of HIP fortifications"."""
    g = sample(tmp_path)
    goto(g, "PFPh")
    out = g.perform("shift", {"a": "4M6", "b": "4O8"}, faces=[5, 5])
    assert out.rolls[0].row == "refused", out.message
    refused(g, "shift", {"a": "F2", "b": "4O8"}, [1, 1], "O'Leary 2.5")


def test_4_2_a_fortification_shifts_only_to_hip_units_or_dummy_hip_counters(
    tmp_path: Path,
) -> None:
    """4.2: "a fortification may shift to any location containing HIP units or dummy HIP
    counters": not to a dummy stack's, a potential dummy stack's (3.3.1) or an empty one."""
    g = sample(tmp_path)
    goto(g, "PFPh")
    refused(g, "shift", {"a": "F2", "b": "4P5"}, [1, 1], "O'Leary 3.3.1")
    refused(g, "shift", {"a": "F2", "b": "4Q6"}, [1, 1], "O'Leary 3.3.1")
    refused(g, "shift", {"a": "F2", "b": "4S7"}, [1, 1], "O'Leary 3.3.3")
    # the foxhole F1 (4M6) to the dummy HIP counter in 4O8 (a pillbox could not be set up there)
    out = g.perform("shift", {"a": "F1", "b": "4O8", "back": []}, faces=[1, 1])
    assert out.rolls[0].row == "allowed", out.message
    fort = g.state.fortification("F1")
    assert fort is not None and fort.location == "4O8"


# == 3.3.3: "If all of the HIP units in a location shift to different locations" =================
def test_3_3_3_a_location_emptied_in_two_shifts_gets_its_dummy_hip_counter_last(
    tmp_path: Path,
) -> None:
    """3.3.3: HIP units "need not shift as a complete stack"; the two squads of 4A5 leave one
    by one for two different locations: 4A5 gets a dummy HIP counter only once both are gone.
    The dummy HIP counters they join stay put (``back=[]``: not required to exchange)."""
    g = game(
        tmp_path,
        [
            {"id": "H1", "location": "4A5", "status": "hip", "counters": [sq("h1"), sq("h2")]},
            {"id": "X1", "location": "4C5", "status": "dummy_hip"},
            {"id": "X2", "location": "4E5", "status": "dummy_hip"},
        ],
        side=[{"name": RU, "hip_squads": 2}],
    )
    goto(g, "PFPh")

    def dummies_at(loc: str) -> int:
        return sum(1 for x in g.state.stacks if x.location == loc and x.status == "dummy_hip")

    out = g.perform("shift", {"a": "4A5", "b": "4C5", "move": ["h1"], "back": []}, faces=[1, 1])
    assert out.rolls[0].row == "allowed" and final(out) == 2 - 1, out.message  # both HIP -1
    assert dummies_at("4A5") == 0 and g.state.counter("h2")[0].location == "4A5"  # type: ignore[index]
    out = g.perform("shift", {"a": "4A5", "b": "4E5", "move": ["h2"], "back": []}, faces=[1, 1])
    assert out.rolls[0].row == "allowed" and final(out) == 2 - 1 + 1, out.message  # +1: 2.5
    assert dummies_at("4A5") == 1
    assert g.state.counter("h1")[0].location == "4C5"  # type: ignore[index]
    assert g.state.counter("h2")[0].location == "4E5"  # type: ignore[index]
    assert (dummies_at("4C5"), dummies_at("4E5")) == (1, 1)


# == 4.1, 4.6.1: allotments of minefields ==========================================================
def test_4_1_hidden_minefields_bring_no_dummy_hip_counters(tmp_path: Path) -> None:
    """4.1: one dummy HIP counter per hidden fortification "(Exception: Minefields, 4.6)":
    a hidden AP minefield of 6 factors brings two dummy minefields (4.6.1) and no dummy HIP
    counter; a known minefield brings none of either (4.6.1: "placed on the board in the usual
    fashion")."""
    g = game(
        tmp_path,
        [],
        minefields=[
            {"id": "M1", "location": "4A1", "ap": 6},
            {"id": "M2", "location": "4C1", "ap": 6, "known": True},
        ],
    )
    a = g.state.allotment(RU)
    assert (a.dummy_hip, a.dummy_minefields) == (0, 2)


# == 4.6.2: "Whenever any unit enters a minefield location" ========================================
def test_4_6_2_a_dummy_stack_entering_is_no_unit(tmp_path: Path) -> None:
    """4.6.2: the exchange is offered when a *unit* enters; a dummy stack (concealment counters
    alone) is not a unit and meets no mines: nothing is owed. A real unit entering is offered
    the exchange (tests/solitaire_asl/test_asl_todo.py)."""
    g = sample(tmp_path)
    goto(g, "MPh", GE)
    g.perform("move", {"stack": "G2", "to": "4R4"})  # the German dummy stack, into M1's hex
    assert g.obligations() == ()
    assert not [t for t in g.todo() if t.procedure == "minefield"]
    # nor is it taken when typed: only dummy stacks stand in 4R4 (D2, G2)
    refused(g, "minefield", {"entered": "M1", "other": "M2"}, [1, 1], "4.6.2", "A35", "G2")
    g.perform("move", {"stack": "G1", "to": "4R4"})  # the real squad and leader
    assert [o.id for o in g.obligations()] == ["minefield:M1"]


def test_4_6_2_a_dummy_stack_s_entry_opens_no_exchange_in_a_later_phase_either(
    tmp_path: Path,
) -> None:
    """4.6.2 (reading A35): the exchange belongs to a unit's entry. A dummy stack that entered
    in an earlier phase opens none later either: typed in the next phase, or a player turn
    later, it is refused, naming the rule and the dummy; a real unit entering afterwards
    (in a later phase) opens it again."""
    g = sample(tmp_path)
    goto(g, "MPh", GE)
    g.perform("move", {"stack": "G2", "to": "4R4"})  # the German dummy stack, into M1's hex
    goto(g, "RtPh", GE)  # a later phase of the same player turn
    refused(g, "minefield", {"entered": "M1", "other": "M2"}, [1, 1], "4.6.2", "A35", "G2")
    goto(g, "MPh", RU)  # the next player turn
    refused(g, "minefield", {"entered": "4R4", "other": "M2"}, [1, 1], "4.6.2", "A35", "G2")
    goto(g, "MPh", GE)  # a game turn later, the real squad and leader move in
    g.perform("move", {"stack": "G1", "to": "4R4"})
    assert [o.id for o in g.obligations()] == ["minefield:M1"]
    out = g.perform("minefield", {"entered": "M1", "other": "M2"}, faces=[1, 1])
    assert "M1" in out.message and g.obligations() == ()


def test_4_6_2_reading_a35_dummies_may_enter_by_house_rule(tmp_path: Path) -> None:
    """Reading A35 is data: ``[minefield] dummies_enter = true`` offers the exchange to a dummy
    stack entering as well."""
    g = Game.create(
        Store(tmp_path / "h.db"),
        "g",
        "asl",
        RULESET.scenario("sample"),
        seed=1,
        house_rules={"minefield": {"dummies_enter": True}},
    )
    goto(g, "MPh", GE)
    g.perform("move", {"stack": "G2", "to": "4R4"})
    assert [o.id for o in g.obligations()] == ["minefield:M1"]
    out = g.perform("minefield", {"entered": "M1", "other": "M2"}, faces=[1, 1])
    assert "M1" in out.message and g.obligations() == ()


# == 5.1: "any other cloaking counter" =============================================================
def test_5_1_cloaked_units_shift_whatever_the_counts(tmp_path: Path) -> None:
    """5.1: cloaked units "may shift to any location beneath any other cloaking counter": the
    counts of 2.3.2-2.3.4 do not apply (a stack of two under a lone dummy cloaking counter)."""
    g = game(
        tmp_path,
        [
            {"id": "C1", "location": "4A1", "status": "cloaked", "counters": [sq("a"), sq("b")]},
            {"id": "C2", "location": "4C1", "status": "cloaked"},
        ],
        night=True,
    )
    goto(g, "MPh")
    out = g.perform("shift", {"a": "C1", "b": "C2"}, faces=[2, 2])
    assert out.rolls[0].row == "allowed" and final(out) == 4 - 2  # night -2
    assert (where(g, "C1"), where(g, "C2")) == ("4C1", "4A1")


# == 6.1: "each time that unit fires" ==============================================================
def test_6_1_no_bore_sight_die_when_the_weapons_side_does_not_fire(tmp_path: Path) -> None:
    """6.1: the third die is thrown "each time that unit fires". In the Russian PFPh only the
    Russians fire (ASL A3): a German weapon's die is refused (AFPh alike); in the DFPh of the
    Russian player turn, the Germans fire: it is thrown. Nobody fires in the APh."""
    g = game(
        tmp_path,
        [
            {
                "id": "G1",
                "side": GE,
                "location": "4A8",
                "status": "revealed",
                "counters": [{"id": "mg", "name": "MMG", "kind": "sw", "boresight": True}],
            },
            {"id": "R1", "location": "4A1", "status": "revealed", "counters": [sq("r1")]},
        ],
    )
    goto(g, "PFPh")
    refused(g, "boresight", {"weapons": ["mg"], "target": "4A1"}, [3], "O'Leary 6.1", "fire")
    goto(g, "AFPh")
    refused(g, "boresight", {"weapons": ["mg"], "target": "4A1"}, [3], "O'Leary 6.1", "fire")
    goto(g, "APh")  # the sequence of play has no fire in the APh
    refused(g, "boresight", {"weapons": ["mg"], "target": "4A1"}, [3], "ASL A3")
    goto(g, "DFPh")
    out = g.perform("boresight", {"weapons": ["mg"], "target": "4A1"}, faces=[1])
    assert weapon(g, "mg").boresight == "4A1", out.message


def _german_mmg(name: str) -> dict[str, Any]:
    """A scenario of one revealed German stack in 4A8 holding an MMG that may bore sight."""
    return {
        "name": name,
        "sides": [RU, GE],
        "first": RU,
        "stacks": [
            {
                "id": "G1",
                "side": GE,
                "location": "4A8",
                "status": "revealed",
                "counters": [{"id": "mg", "name": "MMG", "kind": "sw", "boresight": True}],
            }
        ],
    }


def test_6_1_reading_a36_who_fires_is_data(tmp_path: Path) -> None:
    """Reading A36 is data: ``[fire_phases]`` (house rules) says whose weapons fire in each
    phase; with ``PFPh = "both"`` the German weapon's die is thrown in the Russian PFPh."""
    g = Game.create(
        Store(tmp_path / "f.db"),
        "g",
        "asl",
        _german_mmg("fire"),
        seed=1,
        house_rules={"fire_phases": {"PFPh": "both"}},
    )
    goto(g, "PFPh")
    g.perform("boresight", {"weapons": ["mg"], "target": "4A1"}, faces=[2])
    assert weapon(g, "mg").boresight == "4A1"


def test_6_1_todo_offers_no_die_the_data_refuses(tmp_path: Path) -> None:
    """What ``todo`` offers, ``boresight`` accepts: with ``[fire_phases] PFPh = "other"`` (a
    house rule) the Russian DP of the sample is not offered its die in the Russian PFPh."""
    g = sample(tmp_path)
    goto(g, "PFPh")
    assert [t.request["weapons"] for t in g.todo() if t.procedure == "boresight"] == [["r2"]]
    h = Game.create(
        Store(tmp_path / "o.db"),
        "h",
        "asl",
        RULESET.scenario("sample"),
        seed=1,
        house_rules={"fire_phases": {"PFPh": "other"}},
    )
    goto(h, "PFPh")
    assert not [t for t in h.todo() if t.procedure == "boresight"]
    refused(h, "boresight", {"weapons": ["r2"], "target": "4S7"}, [1], "O'Leary 6.1")


def _bore_sighted_mg(tmp_path: Path, house_rules: dict[str, Any] | None = None) -> Game:
    """A German MMG (4A8) whose bore-sighted location 4A1 is determined by its first shot."""
    g = Game.create(
        Store(tmp_path / "b.db"),
        "g",
        "asl",
        _german_mmg("bore"),
        seed=1,
        house_rules=house_rules or {},
    )
    goto(g, "DFPh")
    g.perform("boresight", {"weapons": ["mg"], "target": "4A1"}, faces=[1])
    assert weapon(g, "mg").boresight_location == "4A1"
    goto(g, "MPh", GE)
    return g


def test_6_1_a_weapon_that_moves_loses_its_bore_sighted_location(tmp_path: Path) -> None:
    """6.1: a location once determined serves "all subsequent shots" of a weapon "still eligible
    to fire at a Bore Sighted location"; 2.3: a weapon that changes location other than by
    shifting is no longer eligible. A determined weapon that moved kept its location (only an
    undetermined one was lost): now the move says it is lost (reading A42), the state no longer
    shows it, and its die stays refused."""
    g = _bore_sighted_mg(tmp_path)
    out = g.perform("move", {"stack": "G1", "to": "4A7"})
    assert weapon(g, "mg").boresight == "lost" and weapon(g, "mg").boresight_location is None
    assert any("loses its bore-sighted location 4A1" in c for c in out.details["changes"])
    assert "bore sighted" not in g.render()
    goto(g, "DFPh", RU)
    refused(g, "boresight", {"weapons": ["mg"], "target": "4A1"}, [1], "lost it (2.3)")


def test_6_1_reading_a42_a_moved_weapon_keeps_its_location_by_house_rule(tmp_path: Path) -> None:
    """Reading A42 is data: with ``[flow] moving_loses_boresight_location = false`` the location
    determined stays with the weapon after its move ("for all subsequent shots")."""
    g = _bore_sighted_mg(tmp_path, {"flow": {"moving_loses_boresight_location": False}})
    g.perform("move", {"stack": "G1", "to": "4A7"})
    assert weapon(g, "mg").boresight_location == "4A1"
    assert "bore sighted: 4A1" in g.render()


def test_6_1_reading_a49_each_shot_of_a_weapon_throws_its_die(tmp_path: Path) -> None:
    """6.1: the third die goes with "each time that unit fires", one die a shot (not one
    weapon twice on one die). How many
    shots a weapon has in a phase (ROF, Defensive First Fire at several moving units) is
    ASL's, not counted by vedette: a weapon that keeps its ROF fires again in the same phase
    and throws again, at the same target or another, until a location is determined; then
    its die is refused (reading A49)."""
    g = sample(tmp_path)
    goto(g, "MPh", GE)  # the Russian DP (r2, 4P5): Defensive First Fire at the moving Germans
    g.perform("boresight", {"weapons": ["r2"], "target": "4S7"}, faces=[4])
    assert [t.request["weapons"] for t in g.todo() if t.procedure == "boresight"] == [["r2"]]
    # one die a shot: a weapon is not named twice on one die (6.3)
    refused(g, "boresight", {"weapons": ["r2", "r2"], "target": "4S7"}, [1], "twice")
    g.perform("boresight", {"weapons": ["r2"], "target": "4S7"}, faces=[5])  # ROF kept
    g.perform("boresight", {"weapons": ["r2"], "target": "4R4"}, faces=[2])  # and again
    assert weapon(g, "r2").boresight == "4R4"
    assert not [t for t in g.todo() if t.procedure == "boresight"]
    refused(g, "boresight", {"weapons": ["r2"], "target": "4S7"}, [1], "O'Leary 6.1", "4R4")


# == 7.1: one pre-registration die per AR placed ==
def test_7_1_reading_a44_one_pre_registration_die_per_ar_and_phase(tmp_path: Path) -> None:
    """7.1: after an AR is placed, before its accuracy roll, "they may roll a single die ... the
    location of the AR may not be shifted after the die roll". The referee took a second die
    for the same module in the same phase (the same AR, or one moved elsewhere) until a 1-2
    came up. Now a second die that phase is refused (and not offered); a later phase places a
    new AR and throws again (reading A44)."""
    g = sample(tmp_path)  # the Russian module O1, German stacks in 4S7
    goto(g, "PFPh")
    assert [t.request for t in g.todo() if t.procedure == "prereg"] == [{"module": "O1"}]
    out = g.perform("prereg", {"module": "O1", "ar": "4S7"}, faces=[4])
    assert "still undetermined" in out.message
    assert not [t for t in g.todo() if t.procedure == "prereg"]
    for ar in ("4S7", "4R4"):
        text = refused(g, "prereg", {"module": "O1", "ar": ar}, [1], "O'Leary 7.1", "4S7")
        assert "\n" not in text
    oba = next(o for o in g.state.oba if o.id == "O1")
    assert oba.location is None and oba.ar == "4S7"
    goto(g, "DFPh", GE)  # the German player turn: the Russian module's fire (C1)
    assert [t.request for t in g.todo() if t.procedure == "prereg"] == [{"module": "O1"}]
    g.perform("prereg", {"module": "O1", "ar": "4R4"}, faces=[1])
    assert next(o for o in g.state.oba if o.id == "O1").location == "4R4"


# == 6.1, 7.1: the word on a scattered hex is owed at once ==
def test_6_1_7_1_reading_a21_the_word_on_a_scattered_hex_comes_before_anything_else(
    tmp_path: Path,
) -> None:
    """6.1: on a 6 the direction and distance dice give a hex; "if the resulting hex contains a
    location that could be a Bore Sighted hex for that weapon, it becomes that weapon's Bore
    Sighted hex": the player's word settles that shot. ``todo`` marked it owed, yet ``phase``,
    ``move`` and a shift went on with it pending (the word could come phases later). Now every
    other action is refused in one line naming the rule until it is given or waived (logged);
    likewise 7.1's word on a pre-registered hex."""
    g = sample(tmp_path)
    goto(g, "MPh", GE)  # the Russian DP fires in the German MPh (Defensive First Fire)
    g.perform("boresight", {"weapons": ["r2"], "target": "4S7"}, faces=[6, 2, 1])
    assert [t.owed for t in g.todo()][:1] == [True]
    for proc, req in (
        ("phase", {}),
        ("shift", {"a": "H1", "b": "X1"}),
        ("move", {"stack": "G1", "to": "4S6"}),
    ):
        text = refused(g, proc, req, [1, 1], "O'Leary 6.1", "decide id=r2", "waive boresight:r2")
        assert "\n" not in text
    g.perform("waive", {"obligation": "boresight:r2"})
    assert weapon(g, "r2").boresight == "eligible" and g.obligations() == ()
    g.perform("phase", {"to": "PFPh", "side": RU})
    g.perform("prereg", {"module": "O1", "ar": "4S7"}, faces=[6, 2, 1])
    refused(g, "phase", {}, [], "O'Leary 7.1", "decide id=O1")
    g.perform("decide", {"id": "O1", "ok": True})
    g.perform("phase", {})
