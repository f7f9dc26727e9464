"""Issue 22's 2 by 2 examples: what ``todo`` offers is what the rules accept (2 by 2,
Rallying "Enemy in contact NP", "Div HQ more than [4] away, or Corps HQ more than [8] away NP";
Resolving shooting; Unit Summary "[1,2*]"; Reinforcements "May enter edge within [4] of RP";
Moving to contact). Every open entry's every choice is accepted."""

from __future__ import annotations

from typing import Any

from tests.two_by_two.battle import Battle

N = 19.05


def cmds(todo: list[Any]) -> list[str]:
    return [t.command() for t in todo]


def all_choices_accepted(b: Battle) -> None:
    for t in b.todo():
        for k, cs in t.open.items():
            for c in cs:
                v = b.game.is_legal(t.procedure, {**t.request, k: c})
                assert v.ok or len(t.open) > 1, (t.command(), k, c, v.reason)


def test_rally_offered_only_when_possible() -> None:
    units = [
        {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100, "pinned": True},
        {"id": "C", "side": "blue", "type": "infantry", "x": 200, "y": 100, "pinned": True},
        {"id": "F", "side": "blue", "type": "infantry", "x": 500, "y": 100, "pinned": True},
        {"id": "H", "side": "blue", "type": "hq_division", "x": 250, "y": 80},
        {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 112},  # in contact with B
    ]
    b = Battle.quick(units)
    b.until("rally", "blue")
    todo = cmds(b.todo())
    assert "rally unit=C" in todo  # Division HQ within [4], no enemy in contact
    assert "rally unit=B" not in todo  # enemy in contact: NP
    assert "rally unit=F" not in todo  # no Division HQ within [4] nor Corps HQ within [8]: NP
    v = b.game.is_legal("rally", {"unit": "B"})
    assert not v.ok and "enemy in contact" in v.reason
    v = b.game.is_legal("rally", {"unit": "F"})
    assert not v.ok and "Division HQ" in v.reason


def test_shots_offered_only_at_targets_in_range_and_arc() -> None:
    units = [
        {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100},
        {"id": "B2", "side": "blue", "type": "infantry", "x": 100, "y": 150},
        {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 112 + 1.5 * N},
        {"id": "S", "side": "red", "type": "infantry", "x": 500, "y": 112 + 0.5 * N},
        {"id": "A", "side": "red", "type": "foot_artillery", "x": 100, "y": 250},
    ]
    b = Battle.quick(units)
    b.until("shoot", "red")
    todo = b.todo()
    shots = {t.request["firer"]: t.open["target"] for t in todo if t.procedure == "shoot"}
    # R: B at [1.5] is beyond the unscreened range [1]; S: nobody within [1]; A (facing
    # south) has B2 in arc at short range, B out of its arc
    assert "R" not in shots and "S" not in shots
    assert shots == {"A": ("B2",)}
    all_choices_accepted(b)


def test_arrival_place_and_stated_reaction_fire_are_open_with_their_choices() -> None:
    units = [
        {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100},
        {"id": "B9", "side": "blue", "type": "infantry"},
        {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 500},
    ]
    rps = [{"id": "RP", "side": "blue", "kind": "rear", "at": [200, 0], "queue": ["B9"]}]
    b = Battle.quick(units, rps=rps)
    b.do("reinforce", dice=[6], rp="RP")
    place = next(t for t in b.todo() if t.procedure == "place")
    assert place.request["unit"] == "B9" and place.request["y"] == 6.0
    xs = place.open["x"]
    assert min(xs) >= 200 - 4 * N and max(xs) <= 200 + 4 * N and len(xs) >= 5
    all_choices_accepted(b)
    b.do("place", unit="B9", x=xs[0], y=6.0)
    assert b.state.unit("B9").body is not None and "CORRECTION" not in b.game.log_lines()[-1]
    # stated: the charged unit's reaction fire on its charger in contact (the range known:
    # reading 44, session 19) is complete
    s = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry"},
            {"id": "R", "side": "red", "type": "infantry"},
        ]
    )
    s.do("charge", unit="B", into="R", distance=2)
    fire = next(t for t in s.todo() if t.procedure == "shoot")
    assert fire.request == {"firer": "R", "target": "B"} and fire.complete
    all_choices_accepted(s)


def test_flow_refuses_out_of_phase_naming_the_rule() -> None:
    b = Battle.quick([{"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100}])
    v = b.game.is_legal("rally", {"unit": "B"})
    assert not v.ok and v.rule == "2 by 2, Sequence of play" and "move phase" in v.reason
    assert current_phase(b) == "move phase"


def current_phase(b: Battle) -> str | None:
    return b.game.ruleset.current_phase(b.state)
