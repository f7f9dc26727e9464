"""2 by 2 (seed 003): session 19's leftovers and what a session's play found: a stated
counter-charge says what it crossed as a stated charge does, the melee table's row says what
applies to the units fighting, a charged unit's fire on its charger in contact is not asked
its range. Driven through the public ``Game`` API (``tests/two_by_two/battle.py``); blue
stands south facing north, red north facing south; [1] = 19.05 mm; a unit is one 25 x 12 mm
base."""

from __future__ import annotations

from typing import Any

import pytest

from tests.two_by_two.battle import Battle
from vedette.errors import BadRequest, RuleViolation

N = 19.05  # mm per [1]


def at(x: float, y: float) -> dict[str, float]:
    return {"x": x, "y": y}


def _lines(b: Battle, proc: str, **req: Any) -> list[Any]:
    return [
        t
        for t in b.todo()
        if t.procedure == proc and all(t.request.get(k) == v for k, v in req.items())
    ]


def _stated_counter_charge(house: dict[str, Any] | None = None) -> Battle:
    """Stated: red infantry R has moved [2]; blue light cavalry B ([8], counter-charges an
    enemy within [4]) is in blue's shooting phase."""
    opts: dict[str, Any] = {"play": "stated"}
    if house is not None:
        opts["house_rules"] = house
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "light_cavalry"},
            {"id": "R", "side": "red", "type": "infantry"},
        ],
        options=opts,
    )
    b.until("move", "red")
    b.do("move", unit="R", distance=2)
    b.until("shoot", "blue")
    return b


def test_a_stated_counter_charge_states_a_town_passed_and_a_bridges_length() -> None:
    # Moving to contact: "Cavalry may not move to contact on same turn it moves through a
    # town"; Movement Modifiers: "Bridge - All units move at 1/2 rate" (the distance on the
    # bridge under bridge_mode = "distance"). A stated charge takes through_town= and
    # bridge_length=; a stated counter-charge refused them as unknown fields, so a
    # counter-charge over a bridge under that house rule ran at full rate
    b = _stated_counter_charge({"movement": {"bridge_mode": "distance"}})
    with pytest.raises(RuleViolation, match="through a town"):
        b.do("countercharge", unit="B", target="R", distance=3, within=True, through_town=True)
    with pytest.raises(RuleViolation, match=r"needs \[9\.00\] but may move only \[8\.00\]"):
        b.do(
            "countercharge",
            unit="B",
            target="R",
            distance=4,
            within=True,
            bridge=True,
            bridge_length=5,
        )
    out = b.do(
        "countercharge", unit="B", target="R", distance=4, within=True, bridge=True, bridge_length=2
    )
    assert "(cost [6.00] of [8.00]; +[2.00] bridge at 1/2 rate)" in out.message
    assert "into contact with R" in out.message


def test_todo_offers_a_stated_counter_charge_its_road_and_bridge_as_choices() -> None:
    # what the counter-charge crossed is the player's to state (the table is theirs): the
    # yes/no facts are picked from todo's line, as plan accepts them, not typed
    b = _stated_counter_charge()
    (line,) = _lines(b, "countercharge", unit="B")
    assert line.open["target"] == ("R",)
    assert line.open["road"] == (False, True)
    assert line.open["bridge"] == (False, True)
    out = b.do("countercharge", unit="B", target="R", distance=4, within=True, road=True)
    assert "+[1] whole move on road" in out.message


def test_a_tracked_counter_charge_is_refused_stated_terrain() -> None:
    # a tracked game measures what a counter-charge crosses, as it does a charge's: a stated
    # town= was silently ignored (the counter-charge ran, its town unpaid and unrefused)
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "light_cavalry", "x": 300, "y": 200},
            {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 300},
        ]
    )
    b.until("move", "red")
    b.do("advance", unit="R", distance=2)
    b.until("shoot", "blue")
    with pytest.raises(RuleViolation, match="give no town"):
        b.do("countercharge", unit="B", target="R", town=1)
    assert "into contact with R" in b.do("countercharge", unit="B", target="R").message


def _rows(b: Battle, **req: Any) -> dict[str, str]:
    (melee, *_) = b.odds("melee", **req)
    return {r.key: r.result for r in melee.rows}


def test_the_melee_rows_say_what_they_apply_to_the_units_fighting() -> None:
    # Melee: "1 Repulsed [2] (unit in town or woods remain in control)", "2 Recoils full move
    # unless in town or woods then Disrupted", "6+ Destroyed (mandatory follow-up unless winner
    # is in a town/village)". The result line says each clause only where it applies; the
    # row's own text (the odds before the roll, the dice line after it) still gave every
    # clause to units in the open
    town = {"kind": "town", "name": "t", "area": [[250, 106], [350, 106], [350, 200], [250, 200]]}
    units = [
        {"id": "A", "side": "blue", "type": "infantry", "x": 300, "y": 99},
        {"id": "D", "side": "red", "type": "infantry", "x": 300, "y": 111},
    ]
    b = Battle.quick(units, terrain=(town,))
    b.until("melee", "blue")
    rows = _rows(b, attacker="A", defender="D")
    # D (in the town) holds its ground; A (in the open) is pushed back; a winner D in the town
    # need not follow up, a winner A in the open must
    held = "stays in control (in a town or woods: not repulsed)"
    assert rows["defender_repulsed"] == f"defender {held}"
    assert rows["defender_recoils"] == "defender disrupted (in a town or woods: no recoil)"
    assert rows["attacker_repulsed"] == "attacker repulsed [2]"
    assert rows["attacker_recoils"] == "attacker recoils a full move"
    assert rows["defender_destroyed_mandatory"] == "defender destroyed (mandatory follow-up)"
    assert rows["attacker_destroyed_mandatory"] == (
        "attacker destroyed (voluntary follow-up: the winner is in a town)"
    )
    assert not any("town or woods stays" in r or "unless" in r for r in rows.values())
    out = b.do("melee", dice=[4, 3], attacker="A", defender="D")
    assert out.rolls[0].consequence == f"defender {held}"
    assert "A wins; D repulsed [2]; D is in a town or woods: it stays in control" in out.message
    # the 6+ row in the open: the result line no longer says "unless the winner is in a town"
    o = Battle.quick([{**units[0], "type": "guard", "y": 299}, {**units[1], "y": 311}])
    o.until("melee", "blue")
    out = o.do("melee", dice=[6, 1], attacker="A", defender="D")  # 6 +1 (Guards) vs 1
    assert out.rolls[0].consequence == "defender destroyed (mandatory follow-up)"
    assert "A wins; D destroyed (mandatory follow-up); A: mandatory follow-up" in out.message


def test_a_stated_fire_on_a_charger_in_contact_is_not_asked_its_range() -> None:
    # Moving to contact: "Infantry may turn to face when charged ... and may fire on charging
    # unit" (reading 44). The charger is in base contact (its charge ended there), so the range
    # is known; todo asked the player to pick [1/2] or [1], and a shot without range= was
    # refused ("state range=[n] or band=...")
    s = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry"},
            {"id": "R", "side": "red", "type": "foot_artillery"},
            {"id": "R2", "side": "red", "type": "infantry"},
        ],
        options={"play": "stated"},
    )
    s.do("charge", unit="B", into="R2", distance=2)
    (fire,) = _lines(s, "shoot", firer="R2")
    assert fire.request == {"firer": "R2", "target": "B"} and fire.complete
    out = s.do("shoot", dice=[4], firer="R2", target="B")
    assert out.rolls[0].label == "R2 shoots B (musket)"
    assert out.details["shot"]["range"] == 0.0
    # a unit in no melee with its target: the range is still the player's to state
    s.until("shoot", "red")
    with pytest.raises(BadRequest, match="state range"):
        s.do("shoot", firer="R", target="B", dice=[4])


def test_stated_chargers_on_one_defender_fight_one_melee_with_support() -> None:
    # Melee: "Overlap support +1 / extra unit beyond 1"; reading 29: several chargers on one
    # defender fight one melee, the others as support. Tracked, the second charger is measured
    # in contact and supports; stated, the referee holds both charges (both in contact with R)
    # yet gave no support, and R fought the second charger again in a melee of its own
    b = Battle.quick(
        [
            {"id": "B1", "side": "blue", "type": "infantry"},
            {"id": "B2", "side": "blue", "type": "infantry"},
            {"id": "R", "side": "red", "type": "infantry"},
        ],
        options={"play": "stated"},
    )
    b.do("charge", unit="B1", into="R", distance=2)
    b.do("charge", unit="B2", into="R", distance=2)
    b.until("melee", "blue")
    (melee, *_) = b.odds("melee", attacker="B1", defender="R")
    assert [(m.value, m.reason) for m in melee.modifiers] == [
        (1, "overlap support: 1 extra unit(s), in contact: melee pending")
    ]
    # R in a town holds its ground when repulsed: B2, still in contact, fought in this melee
    out = b.do("melee", dice=[3, 3], attacker="B1", defender="R", b_town=True)  # 3+1 vs 3
    assert "B1 wins; R repulsed [2]; R is in a town or woods: it stays in control" in out.message
    assert b.state.melees == () and not _lines(b, "melee")


def test_a_stated_contagion_routs_only_the_routing_sides_star_star_units() -> None:
    # Unit Summary: "** rout whenever any rout w/in [3]" (Militia, Cossacks; a friend's rout:
    # [rout] contagion_sides = "friendly"). A stated contagion= routed whatever it named: a
    # Guard ("B2 (**) routs"), or the enemy's militia
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry"},
            {"id": "B2", "side": "blue", "type": "guard"},
            {"id": "M", "side": "blue", "type": "militia"},
            {"id": "R", "side": "red", "type": "foot_artillery"},
            {"id": "RM", "side": "red", "type": "militia"},
        ],
        options={"play": "stated"},
    )
    b.until("shoot", "red")
    # canister +1, enfilade +2: 6 + 3 = 9, B routs (then 3: not destroyed)
    shot = {"firer": "R", "target": "B", "band": "canister", "enfilade": True}
    with pytest.raises(RuleViolation, match="B2 is not a \\*\\* unit"):
        b.do("shoot", dice=[6, 3], contagion=["B2"], **shot)
    with pytest.raises(RuleViolation, match="RM routs only with a friendly unit's rout"):
        b.do("shoot", dice=[6, 3], contagion=["RM"], **shot)
    out = b.do("shoot", dice=[6, 3, 4], contagion=["M"], **shot)
    assert "M (**) routs: a rout within [3]" in out.message
    assert b.state.unit("M").routed and not b.state.unit("B2").routed
    # a melee may name either side's ** units (either may lose): only the loser's rout
    m = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry"},
            {"id": "M", "side": "blue", "type": "militia"},
            {"id": "R", "side": "red", "type": "infantry"},
            {"id": "RM", "side": "red", "type": "militia"},
        ],
        options={"play": "stated"},
    )
    m.do("charge", unit="B", into="R", distance=2)
    m.until("melee", "blue")
    out = m.do("melee", dice=[6, 3, 4, 4], attacker="B", defender="R", contagion=["M", "RM"])
    assert "R routs a full move away" in out.message and "RM (**) routs" in out.message
    assert m.state.unit("RM").routed and not m.state.unit("M").routed


def test_the_set_ups_messages_fit_a_plural_sides_name() -> None:
    # Game Setup ("The Def then picks a reinforcement point"): the sample's sides are
    # "Austrians" and "French"; the message said "Austrians picks rear RP ..." (as the game
    # over said "Austrians wins" before session 18)
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry"},
            {"id": "B2", "side": "blue", "type": "infantry"},
            {"id": "R", "side": "red", "type": "infantry"},
        ],
        start="setup",
        names=("Austrians", "French"),
    )
    b.do("setup_roll", dice=[2, 5])  # blue low: the Defender
    with pytest.raises(RuleViolation, match=r"the Defender \(Austrians\) deploys now"):
        b.do("deploy", unit="R", x=300, y=500)
    b.do("deploy", unit="B", x=300, y=50)
    b.do("next")
    b.do("deploy", unit="R", x=300, y=560)
    b.do("next")
    out = b.do("rp", x=300, y=0, units=["B2"])
    assert out.message.startswith("Austrians picked rear RP")


@pytest.mark.parametrize("play", ["tracked", "stated"])
def test_a_charge_ends_the_move_even_when_its_target_routs_away(play: str) -> None:
    # Moving to contact, reading 37: "a move to contact ends the unit's move for the phase: a
    # unit that charged moves, wheels, turns and routs by choice no further". The referee read
    # it from the melee pending: once the charged *** unit routed away (its melee gone), the
    # charger was offered its advance, wheels, turns and a voluntary rout again, and took them
    pos = play == "tracked"
    b = Battle.quick(
        [
            {"id": "H", "side": "blue", "type": "light_cavalry", **(at(300, 100) if pos else {})},
            {"id": "L", "side": "red", "type": "light", **(at(300, 200) if pos else {})},
        ],
        options={"play": play},
    )
    b.do("charge", unit="H", into="L", **({} if pos else {"distance": "3"}))
    b.do("rout", dice=[4], unit="L")  # the charged Light infantry routs (***): it flees
    assert b.state.melees == ()
    assert not [t for t in b.todo() if t.request.get("unit") == "H"]
    with pytest.raises(RuleViolation, match="a move to contact ends the unit's move"):
        b.do("advance" if pos else "move", unit="H", distance=1)
    with pytest.raises(RuleViolation, match="charged this phase"):
        b.do("rout", dice=[4], unit="H")
    b.do("next")
    b.until("move", "blue")  # its next move phase: it moves again
    assert b.do("advance" if pos else "move", unit="H", distance=1).message.startswith("H ")


def test_the_artillery_bands_say_which_is_the_texts_short_range() -> None:
    # Resolving shooting: "Artillery short range(canister) +1", "Artillery long range -1" over
    # the Unit Summary's three ranges [1 1/2, 4, 8] (reading 53): vedette's "short" is the
    # middle band (+0), the text's short range its "canister" (+1); the band's help says so
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry"},
            {"id": "R", "side": "red", "type": "foot_artillery"},
        ],
        options={"play": "stated"},
    )
    b.until("shoot", "red")
    mods = {
        band: [
            (m.value, m.reason)
            for m in b.odds("shoot", firer="R", target="B", band=band)[0].modifiers
        ]
        for band in ("canister", "short", "long")
    }
    assert mods == {
        "canister": [(1, "artillery canister range, stated")],
        "short": [],
        "long": [(-1, "artillery long range, stated")],
    }
    (band,) = [x for x in b.game.procedure("shoot").params if x.name == "band"]
    assert "canister, the text's short range, +1" in band.help


def test_a_stated_follow_up_contacts_only_enemies_in_play() -> None:
    # Melee: a winner's follow-up into contact with a fresh enemy starts a subsequent melee.
    # Stated, the contacts named were taken as given: a friend named began a melee between two
    # units of one side, a destroyed enemy one with a unit off the table (a stated move's
    # contacts are checked so)
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "guard"},
            {"id": "B2", "side": "blue", "type": "infantry"},
            {"id": "R", "side": "red", "type": "infantry"},
            {"id": "R2", "side": "red", "type": "infantry"},
        ],
        options={"play": "stated"},
    )
    b.do("charge", unit="B", into="R", distance=2)
    b.until("melee", "blue")
    out = b.do("melee", dice=[6, 2], attacker="B", defender="R")  # 6 +1 vs 2: R destroyed
    assert "R destroyed (voluntary follow-up)" in out.message
    with pytest.raises(BadRequest, match="B2 is not an enemy of B"):
        b.do("follow_up", unit="B", contact=["B2"])
    with pytest.raises(RuleViolation, match="follow up into contact: R has been destroyed"):
        b.do("follow_up", unit="B", contact=["R"])
    assert b.state.melees == ()
    out = b.do("follow_up", unit="B", contact=["R2"])
    assert out.message == "B follows up; subsequent melee with R2"


def test_a_stated_count_of_streams_or_supports_is_never_negative() -> None:
    # Movement Modifiers: "Stream - Costs an extra [1] to cross"; Melee: "Overlap support +1 /
    # extra unit beyond 1". A stated streams=-2 was taken: infantry ([4]) moved [6], "+[-2]
    # crossing -2 stream"; a negative support was silently read as none
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry"},
            {"id": "R", "side": "red", "type": "infantry"},
        ],
        options={"play": "stated"},
    )
    with pytest.raises(BadRequest, match="'streams' must not be negative"):
        b.do("move", unit="B", distance=6, streams=-2)
    with pytest.raises(BadRequest, match="'streams' must not be negative"):
        b.do("charge", unit="B", into="R", distance=6, streams=-2)
    b.do("charge", unit="B", into="R", distance=2)
    b.until("melee", "blue")
    with pytest.raises(BadRequest, match="'a_support' must not be negative"):
        b.do("melee", dice=[3, 4], attacker="B", defender="R", a_support=-1)
