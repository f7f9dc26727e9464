"""Minefields (O'Leary 4.6), set-up allotments (3.1.1, 4.1, 4.6.1), bore sighting (6) and
pre-registered hexes (7)."""

from __future__ import annotations

import pytest
from asl_helpers import dhip, ds, make, mods, odds, pds, play, row, to_phase

from vedette.engine import Game, Store
from vedette.errors import BadRequest, DataError, RuleViolation
from vedette.rules.solitaire_asl import RULESET


def mines(**kw: object) -> object:
    return make(
        [pds("P1", "4C1", "4-4-7"), ds("D1", "4C2", 2)],
        minefields=[
            {"id": "M1", "location": "4P5", "ap": 6},
            {"id": "M2", "location": "4Q6", "dummy": True},
            {"id": "M3", "location": "4R4", "at": 1},
            {"id": "K1", "location": "4A1", "ap": 4, "known": True},
        ],
        **kw,
    )


def test_4_6_exchange_reveals_both_and_removes_a_dummy() -> None:
    s = to_phase(mines(), "MPh", "German")  # type: ignore[arg-type]
    s, out = play(s, "minefield", [2, 2], entered="4P5", other="M2")
    assert row(out) == "allowed"
    assert mods(out) == {"in LOS of an enemy unit: 4P5": 1, "both hidden minefields": -1}
    assert s.minefield("M2") is None  # the dummy, revealed, is removed
    m1 = s.minefield("M1")
    assert m1 is not None and m1.location == "4Q6" and m1.revealed
    assert out.details["revealed"] == {"M1": "6 AP", "M2": "dummy (no mines)"}


def test_4_6_3_refused_only_that_exchange_and_4_6_4_even_when_closed() -> None:
    s = to_phase(mines(), "MPh", "Russian")  # type: ignore[arg-type]
    s, out = play(s, "shift", [5, 5], a="P1", b="D1")
    assert row(out) == "refused"
    s, out = play(s, "minefield", [6, 6], entered="M1", other="M3")
    assert row(out) == "refused"
    assert s.minefield("M1").location == "4P5" and s.minefield("M1").revealed  # type: ignore[union-attr]
    assert s.minefield("M3").revealed  # type: ignore[union-attr]
    assert not any(c[1] == "minefield" for c in s.closed)
    with pytest.raises(RuleViolation, match=r"O'Leary 4\.6\.2"):
        play(s, "minefield", [1, 1], entered="M1", other="M3")


def test_4_6_5_same_kind_only() -> None:
    s = to_phase(mines(), "MPh", "German")  # type: ignore[arg-type]
    with pytest.raises(RuleViolation, match=r"O'Leary 4\.6\.5"):
        play(s, "minefield", [1, 1], entered="M1", other="K1")


def test_4_6_entered_location_los_can_be_denied() -> None:
    s = to_phase(mines(), "MPh", "German")  # type: ignore[arg-type]
    o = odds(s, "minefield", entered="M1", other="M3", los_a=False)
    assert [m.value for m in o.modifiers] == [-1]


def test_4_6_1_dummy_minefield_allotment_and_placement() -> None:
    s = make(
        minefields=[
            {"id": "M1", "location": "4P5", "ap": 7},
            {"id": "M2", "location": "4Q6", "at": 2},
        ]
    )
    assert s.allotment("Russian").dummy_minefields == 4  # 7 AP -> 2, 2 AT -> 2
    for i in range(4):
        s, _ = play(s, "place", kind="dummy_minefield", side="Russian", location=f"4A{i + 1}")
    assert sum(m.dummy for m in s.minefields) == 4
    with pytest.raises(RuleViolation, match=r"O'Leary 4\.6\.1"):
        play(s, "place", kind="dummy_minefield", side="Russian", location="4B5")


def test_4_6_1_reading_a47_no_dummy_minefield_where_a_minefield_counter_is() -> None:
    """4.6.1, 4.6.2 (reading A47): a dummy minefield is another location the mines may be in.
    The referee let one be placed in M1's location and a second beside the first (M4A1b), where
    it hides nothing and an exchange (4.6.2) moves nothing. Now each is refused naming 4.6.1,
    and ``todo`` offers no location that holds a minefield counter."""
    g = Game.create(Store(":memory:"), "g", "asl", RULESET.scenario("sample"), seed=1)
    for loc, there in (("4R4", "M1"), ("4S7", "M2")):
        with pytest.raises(RuleViolation, match=rf"holds minefield {there}.*O'Leary 4\.6\.1"):
            g.perform("place", {"kind": "dummy_minefield", "side": "Russian", "location": loc})
    g.perform("place", {"kind": "dummy_minefield", "side": "Russian", "location": "4A1"})
    with pytest.raises(RuleViolation, match=r"M4A1.*O'Leary 4\.6\.1"):
        g.perform("place", {"kind": "dummy_minefield", "side": "Russian", "location": "4A1"})
    assert [m.id for m in g.state.minefields if m.dummy] == ["M4A1"]
    (offer,) = [t for t in g.todo() if t.request.get("kind") == "dummy_minefield"]
    where = offer.open["location"]
    assert where and not {"4R4", "4S7", "4A1"} & set(where)
    for loc in where:  # every location offered is accepted
        g2 = Game.create(Store(":memory:"), "g", "asl", RULESET.scenario("sample"), seed=1)
        g2.perform("place", {"kind": "dummy_minefield", "side": "Russian", "location": loc})


@pytest.mark.parametrize(
    ("first", "second"),
    [({"ap": 6}, {"dummy": True}), ({"dummy": True}, {"ap": 4})],
    ids=["dummy-on-real", "real-on-dummy"],
)
def test_4_6_1_reading_a47_a_scenario_with_a_dummy_minefield_beside_another_is_refused(
    first: dict[str, object], second: dict[str, object]
) -> None:
    """Reading A47 holds for the scenario's set-up too: the referee loaded a dummy minefield
    listed in a location holding another minefield counter (or a minefield listed where a
    dummy is). Now the scenario is refused in one line naming 4.6.1 and A47, no game stored;
    two real minefields in one location (AP and AT mines) still load."""
    store = Store(":memory:")
    scenario = {
        "name": "bad",
        "sides": ["Russian", "German"],
        "first": "Russian",
        "minefields": [
            {"id": "M1", "side": "Russian", "location": "4A1", **first},
            {"id": "M2", "side": "Russian", "location": "4A1", **second},
        ],
    }
    with pytest.raises(DataError, match=r"4A1 holds minefields M1 and M2.*4\.6\.1, reading A47"):
        Game.create(store, "g", "asl", scenario, seed=1)
    assert store.games() == []
    scenario["minefields"] = [  # real AP and AT mines together: no dummy, no reading A47
        {"id": "M1", "side": "Russian", "location": "4A1", "ap": 6},
        {"id": "M2", "side": "Russian", "location": "4A1", "at": 1},
    ]
    g = Game.create(store, "ok", "asl", scenario, seed=1)
    assert [m.location for m in g.state.minefields] == ["4A1", "4A1"]


def test_4_1_dummy_hip_for_fortifications_and_panji() -> None:
    s = make(
        [{"id": "H1", "location": "4A1", "status": "hip", "counters": ["4-4-7"]}],
        fortifications=[
            {"id": "F1", "kind": "pillbox", "location": "4A1"},  # holds HIP units: none
            {"id": "F2", "kind": "trench", "location": "4B1"},  # one
            {"id": "F3", "kind": "panji", "location": "4C1", "hexsides": 2},
            {"id": "F4", "kind": "panji", "location": "4D1", "hexsides": 2},
        ],
    )
    a = s.allotment("Russian")
    assert a.dummy_hip == 2 + 1 + 1  # 3.1.1, 4.1 (trench), 4 panji hexsides -> 1 ("each three")


@pytest.mark.parametrize(
    ("hexsides", "rounding", "n"),
    [(3, "down", 1), (5, "down", 1), (6, "down", 2), (2, "down", 0), (4, "up", 2)],
)
def test_4_1_panji_each_three_hexsides(hexsides: int, rounding: str, n: int) -> None:
    from vedette.rules.solitaire_asl import RULESET

    scen = {
        "sides": ["Russian", "German"],
        "fortifications": [
            {
                "id": "F1",
                "side": "Russian",
                "kind": "panji",
                "location": "4C1",
                "hexsides": hexsides,
            }
        ],
    }
    house = {"allotment": {"panji_rounding": rounding}}
    s = RULESET.initial_state(scen, {"house_rules": house})
    assert s.allotment("Russian").dummy_hip == n


def test_4_6_3_minefield_exchange_adds_no_plus_one() -> None:
    """4.6.3: the minefield shift DR only allows or refuses the exchange: a made exchange does
    not add +1 to later shifts (minefield or otherwise)."""
    s = make(
        [pds("P1", "4C1", "4-4-7"), ds("D1", "4C2", 2)],
        minefields=[
            {"id": "M1", "location": "4P5", "ap": 6},
            {"id": "M2", "location": "4Q6", "dummy": True},
            {"id": "M3", "location": "4R4", "at": 1},
            {"id": "M4", "location": "4A4", "ap": 3},
        ],
    )
    s = to_phase(s, "MPh", "Russian")
    s, out = play(s, "minefield", [1, 2], entered="M1", other="M2")
    assert row(out) == "allowed" and s.counts == ()
    s, out = play(s, "minefield", [1, 2], entered="M3", other="M4")
    assert row(out) == "allowed" and not any("previous" in k for k in mods(out))
    _, out = play(s, "shift", [1, 2], a="P1", b="D1")
    assert not any("previous" in k for k in mods(out))


def test_3_1_place_dummy_hip_at_setup_only() -> None:
    s = make(side=[{"name": "Russian", "hip_squads": 1}], boards=["4"])
    s, _ = play(s, "place", kind="dummy_hip", side="Russian", location="4A1")
    s, _ = play(s, "place", kind="dummy_hip", side="Russian", location="4A2")
    with pytest.raises(RuleViolation, match=r"O'Leary 3\.1\.1"):
        play(s, "place", kind="dummy_hip", side="Russian", location="4A3")
    s = to_phase(s, "PFPh")
    with pytest.raises(RuleViolation, match=r"O'Leary 3\.1"):
        play(s, "place", kind="dummy_hip", side="Russian", location="4A3")


def test_scenario_may_not_exceed_allotment() -> None:
    from vedette.errors import DataError

    with pytest.raises(DataError, match=r"3\.1\.1"):
        make([dhip("X1", "4A1")])


# -- 6 ------------------------------------------------------------------------------------------
def bs() -> object:
    """The Russian PFPh (6.1: the Russian weapons fire)."""
    return to_phase(
        make(
            [
                pds(
                    "P1",
                    "4P5",
                    {"id": "w1", "name": "MMG", "kind": "sw", "boresight": True},
                    {"id": "w2", "name": "HMG", "kind": "sw", "boresight": True},
                    {"id": "w3", "name": "LMG", "kind": "sw"},
                ),
            ],
            oba=[{"id": "O1", "prereg": True}, {"id": "O2"}],
        ),
        "PFPh",
    )


@pytest.mark.parametrize(("face", "hit"), [(1, "4Q6"), (2, "4Q6"), (3, None), (5, None)])
def test_6_1_third_die(face: int, hit: str | None) -> None:
    s, _out = play(bs(), "boresight", [face], weapons=["w1"], target="4Q6")  # type: ignore[arg-type]
    assert s.counter("w1")[1].boresight_location == hit  # type: ignore[index]
    assert s.counter("w2")[1].boresight_location is None  # type: ignore[index]


def test_6_1_six_scatters_and_the_player_decides() -> None:
    s, out = play(bs(), "boresight", [6, 4, 2], weapons=["w1"], target="4Q6")  # type: ignore[arg-type]
    assert out.details["boresight_location"] is None
    assert s.pending == (("boresight", "w1", "4Q8"),)  # 2 hexes S of 4Q6
    s2, _ = play(s, "decide", id="w1", ok=True)
    assert s2.counter("w1")[1].boresight_location == "4Q8" and s2.pending == ()  # type: ignore[index]
    s3, _ = play(s, "decide", id="w1", ok=False)
    assert s3.counter("w1")[1].boresight_location is None  # type: ignore[index]
    s4, _ = play(bs(), "boresight", [6, 4, 2], weapons=["w1"], target="4Q6", candidate_ok=True)  # type: ignore[arg-type]
    assert s4.counter("w1")[1].boresight_location == "4Q8"  # type: ignore[index]


def test_6_1_scatter_off_the_board_stays_undetermined() -> None:
    s, out = play(bs(), "boresight", [6, 1, 6], weapons=["w1"], target="4Q2")  # type: ignore[arg-type]
    assert s.pending == () and "off the boards" in out.message


def test_6_2_optional_and_6_3_grouped_weapons_share_a_die() -> None:
    s, out = play(bs(), "boresight", [], weapons=["w1"], target="4Q6", roll=False)  # type: ignore[arg-type]
    assert out.rolls == () and s.counter("w1")[1].boresight_location is None  # type: ignore[index]
    s, out = play(bs(), "boresight", [2], weapons=["w1", "w2"], target="4Q6")  # type: ignore[arg-type]
    assert len(out.rolls) == 1
    assert s.counter("w1")[1].boresight_location == s.counter("w2")[1].boresight_location == "4Q6"  # type: ignore[index]
    with pytest.raises(RuleViolation, match=r"O'Leary 6\.1"):
        play(s, "boresight", [2], weapons=["w1"], target="4Q7")


def test_6_1_ineligible_weapon() -> None:
    with pytest.raises(RuleViolation, match=r"O'Leary 6\.1"):
        play(bs(), "boresight", [1], weapons=["w3"], target="4Q6")  # type: ignore[arg-type]
    with pytest.raises(BadRequest):
        play(bs(), "boresight", [1], weapons=["zz"], target="4Q6")  # type: ignore[arg-type]


def test_6_odds() -> None:
    o = odds(bs(), "boresight", weapons=["w1"], target="4Q6")  # type: ignore[arg-type]
    from fractions import Fraction

    assert o.as_dict() == {
        "here": Fraction(1, 3),
        "not_yet": Fraction(1, 2),
        "scatter": Fraction(1, 6),
    }


@pytest.mark.parametrize(
    ("proc", "req"),
    [
        ("boresight", {"weapons": ["w1"], "target": "4Q6"}),
        ("prereg", {"module": "O1", "ar": "4P5"}),
    ],
)
def test_6_7_odds_of_every_die_including_the_scatter_dice(
    proc: str, req: dict[str, object]
) -> None:
    from fractions import Fraction

    from vedette.rules.solitaire_asl import RULESET

    fn = RULESET.procedures[proc].odds
    assert fn is not None
    all_odds = list(fn(bs(), req))  # type: ignore[arg-type]
    assert len(all_odds) == 3
    direction, distance = all_odds[1], all_odds[2]
    assert [r.result for r in direction.rows] == [
        "1 = N",
        "2 = NE",
        "3 = SE",
        "4 = S",
        "5 = SW",
        "6 = NW",
    ]
    assert all(r.p == Fraction(1, 6) for o in (direction, distance) for r in o.rows)
    assert [r.key for r in distance.rows] == ["1", "2", "3", "4", "5", "6"]


# -- 7 ------------------------------------------------------------------------------------------
def test_7_1_prereg() -> None:
    s, out = play(bs(), "prereg", [2], module="O1", ar="4P5")  # type: ignore[arg-type]
    o1 = next(o for o in s.oba if o.id == "O1")
    assert o1.location == "4P5" and o1.ar == "4P5"
    with pytest.raises(RuleViolation, match=r"O'Leary 7\.1"):
        play(s, "prereg", [2], module="O1", ar="4P6")
    with pytest.raises(RuleViolation, match=r"O'Leary 7\.1"):
        play(bs(), "prereg", [2], module="O2", ar="4P6")  # type: ignore[arg-type]
    s, out = play(bs(), "prereg", [4], module="O1", ar="4P5")  # type: ignore[arg-type]
    assert next(o for o in s.oba if o.id == "O1").location is None and "AR" in out.message
    s, out = play(bs(), "prereg", [6, 3, 1], module="O1", ar="4P5")  # type: ignore[arg-type]
    assert s.pending and s.pending[0][0] == "prereg"
    s, _ = play(s, "decide", id="O1", ok=True)
    assert next(o for o in s.oba if o.id == "O1").location == s.layout.neighbor("4P5", "SE", 1)
