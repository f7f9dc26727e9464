"""2 by 2 (seed 003) played stated: what a player states after measuring on the table is
picked from ``todo``'s choices, not typed (the brief: every adjudication in three taps or
fewer, no typing). A rout's contagion (Unit Summary: "** rout whenever any rout w/in [3]")
offers the ** units in play such a rout could take along; a follow-up's contact (Melee: a
winner following up into a fresh enemy fights it) offers the enemies in play; a shot at an
enemy the firer fights a melee with is not asked a range band (reading 44: in base contact).
Driven through the public ``Game`` API (``tests/two_by_two/battle.py``)."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

from tests.two_by_two.battle import Battle
from vedette import rules
from vedette.engine import Game, Store
from vedette.errors import RuleViolation
from vedette.rules.protocol import derive_todo
from vedette.rules.two_by_two import RULESET, todo


def test_a_stated_melee_offers_its_contagion_and_the_pick_routs_the_unit() -> None:
    # blue B charges red R; both sides have ** militia (a Guard is not **): the melee owed
    # offers none, each ** unit alone, and each side's all together (only the loser's side's
    # rout: [rout] contagion_sides = "friendly"), never the two fighting
    b = Battle.stated(
        ("B", "blue", "infantry"),
        ("M", "blue", "militia"),
        ("M2", "blue", "militia"),
        ("R", "red", "infantry"),
        ("RM", "red", "militia"),
        ("RG", "red", "guard"),
    )
    b.do("charge", unit="B", into="R", distance=2)
    b.until("melee", "blue")
    (melee,) = b.lines("melee")
    assert melee.owed and melee.request == {"attacker": "B", "defender": "R"}
    assert melee.open["contagion"] == ((), ("M",), ("M2",), ("RM",), ("M", "M2"))
    # the player picks RM (within [3] of R): R loses (6 vs 3) and routs (4), RM routs with it
    out = b.do("melee", dice=[6, 3, 4, 4], **melee.request, contagion=melee.open["contagion"][3])
    assert "R routs a full move away" in out.message and "RM (**) routs" in out.message
    assert b.state.unit("RM").routed and not b.state.unit("M").routed


def test_a_stated_shot_and_a_voluntary_rout_offer_their_sides_star_star_units() -> None:
    b = Battle.stated(
        ("B", "blue", "infantry"),
        ("BL", "blue", "light_cavalry"),
        ("M", "blue", "militia"),
        ("R", "red", "infantry"),
        ("RM", "red", "militia"),
    )
    # a *** unit's rout may take the friendly militia along (blue moves first)
    (rout,) = b.lines("rout", unit="BL")
    assert rout.open == {"contagion": ((), ("M",))}
    b.until("shoot", "red")
    # red's shot routs a blue unit: blue's ** units, picked last (after the target; its one
    # band, musket range, is given)
    (shot,) = b.lines("shoot", firer="R")
    assert shot.request == {"firer": "R", "band": "musket"}
    assert list(shot.open) == ["target", "enfilade", "cover", "contagion"]
    assert shot.open["contagion"] == ((), ("M",))
    # todo judges a contagion apart from the rest of the request: a wrong one still refused
    s = b.state
    judge = todo.contagion_apart(s, lambda p, r: RULESET.judge(s, p, r)[1])
    aim = {"firer": "R", "target": "B", "band": "musket"}
    assert judge("shoot", {**aim, "contagion": ("M",)}).target == "B"
    with pytest.raises(RuleViolation, match="B is not a \\*\\* unit"):
        judge("shoot", {**aim, "contagion": ("B",)})
    with pytest.raises(RuleViolation, match="RM routs only with a friendly unit's rout"):
        judge("shoot", {**aim, "contagion": ("RM",)})
    # without a ** unit on the side shot at, no contagion is asked
    plain = Battle.stated(("B", "blue", "infantry"), ("R", "red", "infantry"))
    plain.until("shoot", "red")
    (line,) = plain.lines("shoot", firer="R")
    assert list(line.open) == ["target", "enfilade", "cover"]


def test_a_stated_follow_up_offers_the_enemies_in_play_as_its_contact() -> None:
    b = Battle.stated(
        ("B", "blue", "guard"),
        ("B2", "blue", "infantry"),
        ("R", "red", "infantry"),
        ("R2", "red", "infantry"),
        ("R3", "red", "infantry"),
    )
    b.do("charge", unit="B", into="R", distance=2)
    b.until("melee", "blue")
    out = b.do("melee", dice=[6, 2], attacker="B", defender="R")  # 6 +1 vs 2: R destroyed
    assert "R destroyed (voluntary follow-up)" in out.message
    (follow,) = [t for t in b.lines("follow_up", unit="B") if "decline" not in t.request]
    # no contact, or one enemy still in play (not R, destroyed; not a friend)
    assert follow.open == {"contact": ((), ("R2",), ("R3",))}
    out = b.do("follow_up", **follow.request, contact=follow.open["contact"][2])
    assert out.message == "B follows up; subsequent melee with R3"
    assert [(m.attacker, m.defender) for m in b.state.melees] == [("B", "R3")]


def test_a_stated_shot_at_a_unit_in_melee_with_the_firer_is_not_asked_its_band() -> None:
    # reading 44: two units in a melee the referee holds are in base contact, so the range is
    # known (0); todo offered every band for that target on the firer's one line
    b = Battle.stated(
        ("B", "blue", "infantry"),
        ("R", "red", "foot_artillery"),
        ("R2", "red", "infantry"),
    )
    b.do("charge", unit="B", into="R", distance=2)
    b.until("shoot", "red")
    (near,) = b.lines("shoot", firer="R", target="B")
    assert near.complete and "in contact" in near.text
    out = b.do("shoot", dice=[4], **near.request)
    assert out.rolls[0].label == "R shoots B (canister)"
    assert out.details["shot"]["range"] == 0.0
    # another firer, not in that melee, is not asked the band either (its one band given);
    # B's cover, ruled on by that shot, is held for the phase (reading 54): B has a line of
    # its own, the cover's choices those the first shot left open
    (far,) = b.lines("shoot", firer="R2")
    assert far.request == {"firer": "R2", "band": "musket", "target": "B"}
    assert "band" not in far.open and far.open["cover"] == ("none", "wall")


def _whole(state: Any, owed: Any, procedure: str, request: Any) -> Any:
    return RULESET.judge(state, procedure, request, owed=owed)[1]


def test_todo_judges_a_contagion_apart_with_the_same_verdicts() -> None:
    # todo judges a stated line's contagion on its own (plan reads it only to check the units
    # named): every line and choice is the one judging each whole request gives
    rs = rules.get("two_by_two")
    compared = 0
    for scenario, seed in (("sample", 1), ("close", 2), ("sample", 3)):
        g = Game.create(
            Store(":memory:"), "g", "two_by_two", rs.scenario(scenario), seed, {"play": "stated"}
        )
        rng = random.Random(seed)
        for _ in range(120):
            s = g.state
            if s.stage == "over":
                break
            owed = rs.obligations(s)
            whole = derive_todo(owed, rs.options(s), functools.partial(_whole, s, owed))
            got = rs.fresh_todo(s)
            assert [(t.command(), t.open, t.refused) for t in got] == [
                (t.command(), t.open, t.refused) for t in whole
            ]
            compared += sum(1 for t in got if "contagion" in t.open)
            t = rng.choice([t for t in got if t.owed] or got)
            req = {**t.request, **{k: rng.choice(list(cs)) for k, cs in t.open.items()}}
            g.perform(t.procedure, req)
    assert compared > 10
