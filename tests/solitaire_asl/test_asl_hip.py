"""HIP units, dummy HIP counters and hidden fortifications (O'Leary 3, 4.1-4.5)."""

from __future__ import annotations

import pytest
from asl_helpers import dhip, ds, hip, make, mods, pds, play, row, to_phase

from vedette.errors import BadRequest, RuleViolation
from vedette.rules.solitaire_asl.model import Status


def base(**kw: object) -> object:
    return make(
        [
            hip("H1", "4P5", {"id": "a", "name": "4-4-7"}, {"id": "b", "name": "8-1"}),
            dhip("X1", "4Q6"),
            hip("H2", "4A1", {"id": "c", "name": "4-4-7"}),
            pds("P1", "4C1", "4-4-7"),
            ds("D1", "4C2", 2),
        ],
        **kw,
    )


@pytest.mark.parametrize(
    ("phase", "side", "ok"),
    [
        ("PFPh", "Russian", True),
        ("MPh", "Russian", True),
        ("APh", "Russian", True),
        ("DFPh", "Russian", False),
        ("MPh", "German", True),
        ("DFPh", "German", True),
        ("PFPh", "German", False),
        ("APh", "German", False),
    ],
)
def test_3_3_2_windows(phase: str, side: str, ok: bool) -> None:
    s = to_phase(base(), phase, side)  # type: ignore[arg-type]
    if ok:
        play(s, "shift", [1, 1], a="H1", b="X1")
    else:
        with pytest.raises(RuleViolation, match=r"O'Leary 3\.3\.2"):
            play(s, "shift", [1, 1], a="H1", b="X1")


def test_3_3_2_any_time_even_after_units_moved() -> None:
    s = to_phase(base(), "MPh")  # type: ignore[arg-type]
    s, _ = play(s, "act")
    play(s, "shift", [1, 1], a="H1", b="X1")


def test_both_hip_drm_and_allowed_exchange_with_dummy() -> None:
    s = to_phase(base(), "MPh")  # type: ignore[arg-type]
    s, out = play(s, "shift", [3, 3], a="H1", b="X1")
    assert mods(out) == {"both HIP": -1}
    assert s.stack("H1").location == "4Q6" and s.stack("X1").location == "4P5"  # type: ignore[union-attr]


def test_3_3_4_hip_and_dummy_shifting_are_separate() -> None:
    s = to_phase(base(), "MPh")  # type: ignore[arg-type]
    s, out = play(s, "shift", [4, 5], a="P1", b="D1")
    assert row(out) == "refused"
    s, out = play(s, "shift", [2, 2], a="H1", b="X1")
    assert row(out) == "allowed" and "previous" not in str(mods(out))
    s, out = play(s, "shift", [5, 5], a="H2", b="H1")
    assert row(out) == "refused"
    with pytest.raises(RuleViolation):
        play(s, "shift", [1, 1], a="H1", b="X1")


def test_3_3_5_retry_in_a_later_phase_unless_ti() -> None:
    s = to_phase(base(), "PFPh")  # type: ignore[arg-type]
    s, out = play(s, "shift", [4, 5], a="H1", b="X1")
    assert row(out) == "refused"
    with pytest.raises(RuleViolation, match=r"O'Leary 2\.5"):
        play(s, "shift", [1, 1], a="H1", b="X1")
    s = to_phase(s, "MPh")
    play(s, "shift", [1, 1], a="H1", b="X1")


def test_11_12_hip_lost_keeps_concealment_and_dummy_hip_removed() -> None:
    s = to_phase(base(), "MPh")  # type: ignore[arg-type]
    s, out = play(s, "shift", [6, 6], a="H1", b="X1")
    assert row(out) == "exposed"
    assert s.stack("X1") is None
    h1 = s.stack("H1")
    assert h1 is not None and h1.status == Status.CONCEALED and h1.location == "4P5"
    assert s.stack("H2").status == Status.HIP  # type: ignore[union-attr]


def test_13_hip_revealed_and_ti() -> None:
    s = to_phase(base(locations=[{"id": "4P5", "los": True, "tem": -1}]), "MPh")  # type: ignore[arg-type]
    s, out = play(s, "shift", [6, 6], a="H1", b="X1")
    assert out.rolls[0].final == 13 and row(out) == "revealed"  # type: ignore[union-attr]
    h1 = s.stack("H1")
    assert h1 is not None and h1.status == Status.REVEALED and h1.ti


def test_3_4_revealed_dummy_hip_is_removed() -> None:
    s, out = play(base(), "reveal", what="X1")  # type: ignore[arg-type]
    assert s.stack("X1") is None and "remove" in out.message


def test_3_2_2_hip_units_do_not_move() -> None:
    s = to_phase(base(), "MPh")  # type: ignore[arg-type]
    with pytest.raises(RuleViolation, match=r"O'Leary 3\.2\.2"):
        play(s, "move", stack="H1", to="4P6")


# -- fortifications -----------------------------------------------------------------------------
def forts(**kw: object) -> object:
    return make(
        [hip("H1", "4P5", {"id": "a", "name": "4-4-7"}, position="pillbox"), dhip("X1", "4Q6")],
        locations=[
            {"id": "4P5", "terrain": "woods", "tem": 1},
            {"id": "4Q6", "terrain": "stone building", "tem": 3},
            {"id": "4A1", "forbid": ["pillbox"]},
        ],
        fortifications=[
            {"id": "F1", "kind": "pillbox", "location": "4P5", "tem": 5},
            {"id": "T1", "kind": "tunnel", "location": "4P5", "tunnel_from": "F1", "exit": "4P6"},
        ],
        **kw,
    )


def test_4_5_units_and_fortification_together_without_the_fort_tem() -> None:
    s = to_phase(forts(), "MPh")  # type: ignore[arg-type]
    o_fort_stays = play(s, "shift", [1, 1], a="H1", b="X1")[1]
    assert mods(o_fort_stays)["worst TEM +3: stone building 4Q6"] == -3
    s2, out = play(s, "shift", [1, 1], a="4P5", b="X1")
    assert mods(out)["worst TEM +1: woods 4P5"] == -1
    assert s2.fortification("F1").location == "4Q6"  # type: ignore[union-attr]
    assert s2.stack("H1").location == "4Q6"  # type: ignore[union-attr]
    assert s2.stack("H1").position == "pillbox"  # type: ignore[union-attr]  # went with it
    assert s2.stack("X1").position == ""  # type: ignore[union-attr]
    t1 = s2.fortification("T1")
    assert t1 is not None and t1.location == "4Q6" and t1.exit == ""
    assert any("tunnel" in c for c in out.details["changes"])
    s3, _ = play(s2, "fort", id="T1", exit="4Q7")
    assert s3.fortification("T1").exit == "4Q7"  # type: ignore[union-attr]


def test_4_2_fortification_only_where_it_could_be_set_up() -> None:
    s = make(
        [dhip("X1", "4A1"), dhip("X2", "4B1")],
        side=[{"name": "Russian", "hip_squads": 1}],
        locations=[{"id": "4A1", "forbid": ["pillbox"]}],
        fortifications=[{"id": "F1", "kind": "pillbox", "location": "4P5", "tem": 3}],
    )
    s = to_phase(s, "MPh")
    with pytest.raises(RuleViolation, match=r"O'Leary 4\.2"):
        play(s, "shift", [1, 1], a="F1", b="X1")
    with pytest.raises(RuleViolation, match=r"O'Leary 4\.2"):
        play(s, "shift", [1, 1], a="F1", b="X2", placement_ok=False)
    s, _ = play(s, "shift", [1, 1], a="F1", b="X2", ca={"F1": "hexspine 3/4"})
    f1 = s.fortification("F1")
    assert f1 is not None and f1.location == "4B1" and f1.ca == "hexspine 3/4"


def test_4_4_hip_units_into_the_arriving_fortification() -> None:
    s = make(
        [hip("H1", "4A1", {"id": "a", "name": "4-4-7"}), dhip("X1", "4B1")],
        fortifications=[{"id": "F1", "kind": "foxhole", "location": "4B1", "tem": 2}],
    )
    s = to_phase(s, "MPh")
    s, _ = play(s, "shift", [1, 1], a="4B1", b="H1", back=[], into_fort=True)
    assert s.fortification("F1").location == "4A1"  # type: ignore[union-attr]
    assert s.stack("H1").position == "foxhole"  # type: ignore[union-attr]
    assert [x.status for x in s.stacks_at("4B1")] == [Status.DUMMY_HIP]


def test_hidden_fortification_revealed_on_11_12() -> None:
    s = make(
        [dhip("X1", "4B1")],
        fortifications=[{"id": "F1", "kind": "trench", "location": "4A1", "tem": 2}],
    )
    s = to_phase(s, "MPh")
    s, out = play(s, "shift", [6, 6], a="F1", b="X1")
    assert row(out) == "exposed"
    assert not s.fortification("F1").hidden and s.stack("X1") is None  # type: ignore[union-attr]


def test_4_4_1_cave_complex_note() -> None:
    s = make(
        [dhip("X1", "4B1")],
        fortifications=[{"id": "C1", "kind": "cave", "location": "4A1", "tem": 4, "complex": "K"}],
    )
    s = to_phase(s, "MPh")
    _, out = play(s, "shift", [1, 1], a="C1", b="X1")
    assert any("cave complex" in c for c in out.details["changes"])


def test_4_4_other_units_may_be_in_the_arriving_fortification() -> None:
    s = make(
        [dhip("X1", "4B1"), pds("P1", "4B1", "4-4-7")],
        fortifications=[{"id": "F1", "kind": "pillbox", "location": "4A1", "tem": 3}],
    )
    s = to_phase(s, "MPh")
    s, _ = play(s, "shift", [1, 1], a="F1", b="X1", occupants=["P1"])
    assert s.stack("P1").position == "pillbox"  # type: ignore[union-attr]
    assert s.fortification("F1").location == "4B1"  # type: ignore[union-attr]


def test_3_3_hip_gun_shifts_with_itself_to_change_its_ca() -> None:
    """3.2.2 forbids a conventional CA change; a shift with itself (2.3 via 3.3) allows it."""
    s = make(
        [hip("H1", "4A1", {"id": "g", "name": "57L AT", "kind": "gun", "size": "small"})],
        side=[{"name": "Russian", "hip_squads": 1}],
    )
    s = to_phase(s, "MPh")
    s, out = play(s, "shift", [2, 2], a="H1", settings={"g": "CA hexspine 4/5"})
    assert row(out) == "allowed" and mods(out) == {"both HIP": -1}
    h1 = s.stack("H1")
    assert h1 is not None and h1.location == "4A1" and h1.counters[0].settings == "CA hexspine 4/5"


def test_3_3_3_gun_left_behind_stays_emplaced() -> None:
    s = make(
        [
            hip(
                "H1",
                "4A1",
                {"id": "g", "name": "57L AT", "kind": "gun", "size": "small", "emplaced": True},
                {"id": "c", "name": "2-2-8", "kind": "crew"},
                {"id": "q", "name": "4-4-7"},
            ),
            dhip("X1", "4B1"),
        ],
        side=[{"name": "Russian", "hip_squads": 2}],
    )
    s = to_phase(s, "MPh")
    s, out = play(s, "shift", [2, 2], a="4A1", b="X1", move=["q"])
    assert row(out) == "allowed"
    gun_stack, gun = s.counter("g")  # type: ignore[misc]
    assert gun_stack.location == "4A1" and gun.emplaced
    assert not any("emplaced" in c for c in out.details["changes"])


def test_2_4_2_hip_groups_in_two_locations_shift_on_one_dr() -> None:
    """3.3 makes HIP obey 2.4.2: a HIP mortar crew and its HIP spotter in the next location shift
    with two dummy HIP counters on a single DR; the DRMs look at every location."""
    s = make(
        [
            hip("H1", "4A1", {"id": "m", "name": "2-2-8"}, {"id": "w", "name": "50mm MTR"}),
            hip("H2", "4A2", {"id": "l", "name": "8-0", "kind": "leader"}),
            dhip("X1", "4C1"),
            dhip("X2", "4C2"),
        ],
        side=[{"name": "Russian", "hip_squads": 3}],
        locations=[
            {"id": "4A1", "tem": 2},
            {"id": "4C1", "tem": 3},
            {"id": "4A2", "tem": 1},
            {"id": "4C2", "tem": 2, "los": True},
        ],
    )
    s = to_phase(s, "MPh")
    s2, out = play(s, "shift", [2, 2], a="H1", b="X1", also=[["H2", "X2"]])
    assert mods(out) == {
        "worst TEM +1: terrain 4A2": -1,
        "in LOS of an enemy unit: 4C2": 1,
        "both HIP": -1,
    }
    assert row(out) == "allowed"
    where = {c.id: x.location for x in s2.stacks for c in x.counters}
    assert where == {"m": "4C1", "w": "4C1", "l": "4C2"}
    assert s2.stack("X1").location == "4A1" and s2.stack("X2").location == "4A2"  # type: ignore[union-attr]
    assert s2.count("Russian", "1:MPh", "hip") == 1  # one shift
    s3, out = play(s, "shift", [6, 6], a="H1", b="X1", also=[{"a": "H2", "b": "X2"}])
    assert row(out) == "exposed"
    assert s3.stack("X1") is None and s3.stack("X2") is None
    assert {x.status for x in s3.stacks} == {Status.CONCEALED}
    with pytest.raises(BadRequest, match=r"2\.4\.2"):
        play(s, "shift", [1, 1], a="H1", b="X1", also=[["H2", "X1"]])
    with pytest.raises(BadRequest, match="occupants"):
        play(s, "shift", [1, 1], a="H1", b="X1", occupants=["ZZ"])


def test_3_3_3_a_hidden_fortification_left_behind_counts_as_a_hip_unit() -> None:
    """Reading A6: 3.3.3 puts a dummy HIP counter in a location left "devoid of HIP units"; a
    hidden fortification left there is the equivalent of a HIP unit (4.2), so none is added.
    Without the fortification the location left empty gets its dummy."""
    s = to_phase(forts(), "MPh")  # type: ignore[arg-type]
    s2, out = play(s, "shift", [1, 1], a="H1", b="X1", back=[])
    f1 = s2.fortification("F1")
    assert f1 is not None and f1.location == "4P5" and f1.hidden
    assert s2.stack("H1").location == "4Q6"  # type: ignore[union-attr]
    assert s2.stacks_at("4P5") == [] and not any("3.3.3" in c for c in out.details["changes"])
    bare = to_phase(
        make([hip("H1", "4P5", {"id": "a", "name": "4-4-7"}), dhip("X1", "4Q6")]), "MPh"
    )
    s3, out = play(bare, "shift", [1, 1], a="H1", b="X1", back=[])
    assert [x.status for x in s3.stacks_at("4P5")] == [Status.DUMMY_HIP]
