"""Issue 13: the two ways to play (tracked, stated), moves in the player's language and the
referee's ``todo`` (2 by 2, Sequence of play; Movement Modifiers; Moving to contact; Melee)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.two_by_two.battle import Battle
from vedette.cli.main import main
from vedette.engine import Game, Store
from vedette.errors import BadRequest, RuleViolation

N = 19.05


def cmds(todo: list[object]) -> list[str]:
    return [t.command() for t in todo]  # type: ignore[attr-defined]


def entry(todo: list[Any], line: str) -> Any:
    """The ``todo`` entry whose command (its given fields) reads ``line``."""
    found = [t for t in todo if t.command() == line]
    assert found, f"{line!r} not in {cmds(todo)}"
    return found[0]


# -- a tracked-mode turn with relative moves and charge ... into ... only ---------------------
def test_a_tracked_turn_with_relative_moves_and_a_charge() -> None:
    units = [
        {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100},
        {"id": "B2", "side": "blue", "type": "light_cavalry", "x": 150, "y": 100},
        {"id": "R", "side": "red", "type": "infantry", "x": 330, "y": 100 + 12 + 2.2 * N},
        {"id": "R2", "side": "red", "type": "infantry", "x": 500, "y": 500},
    ]
    b = Battle.quick(units)
    todo = b.todo()
    # open: the distances a player would move (all that is left, half, on a road +[1])
    assert entry(todo, "advance unit=B").open == {"distance": ("4", "3", "2", "1")}
    assert "8" in entry(todo, "advance unit=B2").open["distance"]
    assert entry(todo, "wheel unit=B direction=left").open == {"angle": (45, 90)}
    assert todo[-1].command() == "next"
    # R lies ahead and to the right: a charge straight ahead would miss it
    with pytest.raises(RuleViolation, match="not straight ahead"):
        b.do("charge", unit="B", into="R")
    b.do("retire", unit="B", distance="0.5")
    b.do("wheel", unit="B", angle=25, direction="right")
    out = b.do("charge", unit="B", into="R")
    assert out.details["move"]["contacts"] == ["R"]
    s = b.state
    body_b, body_r = s.unit("B").body, s.unit("R").body
    assert body_b is not None and body_r is not None
    assert body_b.facing == 25  # facing changes only when the player says so
    from vedette.geometry.tabletop import distance

    assert distance(body_b, body_r) == pytest.approx(0, abs=1e-6)  # exact base contact
    assert s.melees[0].attacker == "B"
    # the reactions open now: the charged infantry may turn to face and fire
    todo = cmds(b.todo())
    assert "face unit=R toward=B" in todo and "shoot firer=R target=B" in todo
    # a move to contact ends the charger's move: nothing more is offered to B
    assert not [c for c in todo if c.split(" ")[1:2] == ["unit=B"]]
    b.do("advance", unit="B2", distance="2in")  # inches with their unit
    assert b.state.unit("B2").spent == pytest.approx(50.8 / N)
    with pytest.raises(RuleViolation, match="may move only"):
        b.do("advance", unit="B2", distance=7)
    b.do("turn", unit="B2", face="R2")
    b.until("melee", "blue")
    owed = b.todo()[0]
    assert owed.owed and owed.command() == "melee attacker=B defender=R"
    with pytest.raises(RuleViolation, match="owed first"):
        b.do("next")
    b.do("melee", dice=[6, 1], attacker="B", defender="R")
    assert b.state.unit("R").status == "destroyed"


def test_charge_says_why_not() -> None:
    units = [
        {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100},
        {"id": "F", "side": "blue", "type": "infantry", "x": 300, "y": 140},
        {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 180},
        {"id": "C", "side": "red", "type": "heavy_cavalry", "x": 100, "y": 100 + 12 + N},
    ]
    b = Battle.quick(units)
    with pytest.raises(RuleViolation, match="stands in the way"):
        b.do("charge", unit="B", into="R")
    with pytest.raises(RuleViolation, match="may move only"):
        b.do("advance", unit="F", distance=5)
    b.do("turn", unit="F", angle=90, direction="left")
    b.do("advance", unit="F", distance=0.5)
    b.do("turn", unit="F", angle=90, direction="right")
    # turned this phase and less than [2] straight before contact: refused
    with pytest.raises(RuleViolation, match="straight ahead"):
        b.do("charge", unit="F", into="R")


def test_distances_in_base_units_inches_and_mm() -> None:
    b = Battle.quick([{"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100}])
    b.do("advance", unit="B", distance="[1]")
    b.do("advance", unit="B", distance="19.05mm")
    b.do("advance", unit="B", distance="0.75in")
    body = b.state.unit("B").body
    assert body is not None and body.centre.y == pytest.approx(100 + 3 * N)
    with pytest.raises(BadRequest, match="base units"):
        b.do("advance", unit="B", distance="three")


def test_move_ending_close_to_an_enemy_snaps_to_contact() -> None:
    units = [
        {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100},
        {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 160},
    ]
    for short in (1.5, -0.8):  # 1.5 mm short, 0.8 mm into the enemy base
        b = Battle.quick(units)
        out = b.do("move", unit="B", to=[300, 148 - short])
        assert out.details["move"]["contacts"] == ["R"]
        body = b.state.unit("B").body
        assert body is not None and body.centre.y == pytest.approx(148)


# -- a whole battle from the CLI in stated mode, without a single coordinate -----------------
def test_a_stated_battle_from_the_cli_without_coordinates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "s.db")

    def run(*args: str) -> str:
        assert not any(re.search(r"\b(x|y|path|to|facing)=", a) for a in args)
        code = main(["--db", db, "2x2", *args])
        out = capsys.readouterr()
        assert code == 0, out.err
        return out.out

    run("new", "stated", "--seed", "5", "--option", "play=stated")
    # turn 1, phase 1: the Austrians (Defender, player 1) move and dice for reinforcements
    run("move", "unit=A1", "distance=2", "town=2")
    assert "arrives" in run("reinforce", "rp=A-R1", "--dice", "3")
    run("move", "unit=A7", "distance=6", "road=true")
    run("next")
    run("next")
    # phase 3: the French shoot (the player measured [6]: long range for foot artillery)
    assert (
        "F4 shoots" in run("shoot", "firer=F4", "target=A1", "range=6", "cover=area", "--dice", "6")
        or True
    )
    run("next")
    run("next")
    # phase 5: the French move; F1 charges A2 ([3] measured on the table)
    run("charge", "unit=F1", "into=A2", "distance=3")
    # the charged Austrians fire on their charger at [0.5] (reaction fire)
    run("shoot", "firer=A2", "target=F1", "range=0.5", "--dice", "1")
    for _ in range(3):
        run("next")
    # phase 8: the French resolve the melee: 6 vs 1, A2 destroyed; the follow-up declined
    assert "destroyed" in run("melee", "attacker=F1", "defender=A2", "--dice", "6 1")
    run("follow_up", "unit=F1", "decline=true")
    run("next")
    st = json.loads(run("show", "--json"))["state"]
    assert (st["turn"], st["phase_index"]) == (2, 0)
    assert all(u["position"] is None for u in st["units"])
    assert next(u for u in st["units"] if u["id"] == "A2")["status"] == "destroyed"
    with Store(db) as store:
        g = Game.open(store, "stated")
        assert g.state.play == "stated"
        todo = g.todo()
        # a stated move: the distance open (what is left, half of it; the player adds the
        # facts: road=true, town=..., streams=...)
        assert entry(todo, "move unit=A1").open == {"distance": ("4", "3", "2", "1")}
        charge = entry(todo, "charge unit=A1")
        assert set(charge.open) == {"into", "distance"} and "F1" in charge.open["into"]


# -- legal_requests: random play where every request offered is legal ------------------------
@pytest.mark.parametrize("play", ["tracked", "stated"])
def test_legal_requests_are_all_legal(play: str) -> None:
    import random

    from vedette.rules.two_by_two import RULESET

    rng = random.Random(3)
    b = Battle.sample({"play": play}, seed=4)
    kinds: set[str] = set()
    for _ in range(160):
        offered = list(RULESET.legal_requests(b.state, rng))
        assert offered and offered[-1][0] in ("next", "melee", "follow_up")
        proc, req = offered[0] if rng.random() < 0.7 else rng.choice(offered)
        b.do(proc, **req)  # never refused
        kinds.add(proc)
        if b.state.stage == "over":
            break
    assert {"next", "reinforce"} <= kinds
    assert ("advance" if play == "tracked" else "move") in kinds
    assert b.replayed() == b.state


def test_countercharge_straight_ahead_without_a_path() -> None:
    units = [
        {"id": "M", "side": "blue", "type": "infantry", "x": 300, "y": 100},
        {"id": "C", "side": "red", "type": "light_cavalry", "x": 300, "y": 146 + 6 + 3 * N},
        {"id": "C2", "side": "red", "type": "light_cavalry", "x": 360, "y": 146 + 6 + 3 * N},
    ]
    b = Battle.quick(units)
    b.do("advance", unit="M", distance=f"{40 / N:.6f}")
    b.until("shoot", "red")
    # only at a unit on the table that moved within 1/2 move; C straight ahead, C2 (off to
    # the side) turning to face it first (session 15: it was refused without a path)
    assert entry(b.todo(), "countercharge unit=C").open == {"target": ("M",)}
    assert entry(b.todo(), "countercharge unit=C2").open == {"target": ("M",)}
    b.do("countercharge", unit="C", target="M")
    m, c = b.state.unit("M").body, b.state.unit("C").body
    assert m is not None and c is not None and c.facing == 180
    assert b.state.melees[-1].counter_charge


def test_one_judge_per_action(monkeypatch: pytest.MonkeyPatch) -> None:
    from vedette.rules.two_by_two import melee, shooting

    calls = {"melee": 0, "shoot": 0}
    for mod, key in ((melee, "melee"), (shooting, "shoot")):
        real = mod.judge

        def counted(*a: object, _real: object = real, _key: str = key) -> object:
            calls[_key] += 1
            return _real(*a)  # type: ignore[operator]

        monkeypatch.setattr(mod, "judge", counted)
    units = [
        {"id": "B", "side": "blue", "type": "infantry", "x": 300, "y": 100},
        {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 112},
        {"id": "A", "side": "red", "type": "foot_artillery", "x": 340, "y": 200},
    ]
    b = Battle.quick(units)
    b.until("shoot", "red")
    calls.update(melee=0, shoot=0)  # (ending a phase judges todo's lines: what was left undone)
    b.do("shoot", dice=[1], firer="A", target="B")
    assert calls == {"melee": 0, "shoot": 1}
    b.until("melee", "blue")
    calls.update(melee=0, shoot=0)
    b.do("melee", dice=[4, 3], attacker="B", defender="R", contact=True)
    assert calls == {"melee": 1, "shoot": 0}


def test_next_says_what_was_left_undone() -> None:
    b = Battle.sample()
    b.do("advance", unit="A1", distance=1)
    msg = b.do("next").message
    assert "left undone" in msg and "A2" in msg and "reinforce A-R1" in msg
    assert "left undone" not in b.do("next").message  # nobody may rally


def test_stated_lengths_with_their_unit() -> None:
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry"},
            {"id": "R", "side": "red", "type": "infantry"},
        ]
    )
    plan = b.do("check_move", unit="B", distance="2.25in", town="19.05mm").details["move"]
    assert plan["length"] == pytest.approx(3.0) and plan["cost"] == pytest.approx(4.0)
    b.until("shoot", "red")
    out = b.do("shoot", dice=[4], firer="R", target="B", range="0.75in")
    assert out.details["shot"]["range"] == pytest.approx(1.0)


def test_wheel_pivots_on_its_front_corner_and_pays_the_arc() -> None:
    import math

    woods = {
        "kind": "woods",
        "name": "wood",
        "area": [[305, 75], [400, 75], [400, 95], [305, 95]],
    }
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry", "x": 150, "y": 100},
            {"id": "C", "side": "blue", "type": "heavy_cavalry", "x": 300, "y": 60},
        ],
        terrain=(woods,),
    )
    before = b.state.unit("B").body
    assert before is not None
    out = b.do("wheel", unit="B", angle=90, direction="left")
    after = b.state.unit("B").body
    assert after is not None and after.facing == 270
    fl0, fl1 = before.corners()[0], after.corners()[0]  # the front-left corner stays put
    assert (fl1.x, fl1.y) == (pytest.approx(fl0.x), pytest.approx(fl0.y))
    assert out.details["spent"] == pytest.approx(25 * math.pi / 2 / N, abs=1e-3)
    with pytest.raises(RuleViolation, match="impassable"):  # the wheel would end in the wood
        b.do("wheel", unit="C", angle=90, direction="right")


def test_unit_index_agrees_with_a_scan_through_play() -> None:
    import random

    from vedette.geometry import tabletop as tt
    from vedette.rules.two_by_two import RULESET

    rng = random.Random(11)
    b = Battle.sample(seed=2)
    for step in range(120):
        offered = list(RULESET.legal_requests(b.state, rng))
        proc, req = offered[0] if rng.random() < 0.7 else rng.choice(offered)
        b.do(proc, **req)
        s = b.state
        if step % 10:
            continue
        for u in s.units:
            assert s.unit(u.id) is u
            if u.body is None or not u.on_table:
                continue
            for mm in (1.0, 40.0, 120.0):
                near = {o.id for o in s.near(u.body, mm)}
                scan = {
                    o.id
                    for o in s.live()
                    if o.body is not None and tt.distance(u.body, o.body) <= mm
                }
                assert scan <= near


def test_unit_index_scan_and_grid_give_the_same_units_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A small army is scanned unit by unit, a large one looked up in the grid of centres
    (built when first needed, then patched unit by unit as the game goes): either way
    ``near`` gives the same units in the same order (the games depend on it)."""
    import random

    from vedette.rules.two_by_two import RULESET
    from vedette.rules.two_by_two import model as m

    monkeypatch.setattr(m._UnitIndex, "SCAN", -1)  # every index reads its grid, as a large army
    rng = random.Random(5)
    b = Battle.sample(seed=3)
    compared = 0
    for step in range(80):
        offered = list(RULESET.legal_requests(b.state, rng))
        proc, req = offered[0] if rng.random() < 0.7 else rng.choice(offered)
        b.do(proc, **req)
        if step % 8:
            continue
        s = b.state
        patched, fresh, scanned = m._index(s.units), m._UnitIndex(s.units), m._UnitIndex(s.units)
        scanned.SCAN = 10**6  # this one scans
        # the placed units, patched by bisection on each changed unit's place, as built afresh
        assert [(i, u) for i, u in patched.placed] == [(i, u) for i, u in fresh.placed]
        for u in s.live():
            if u.body is None:
                continue
            for mm in (0.0, 40.0, 300.0):
                for side in (None, u.side):
                    ids = [o.id for o in scanned.near(u.body, mm, side)]
                    assert ids == [o.id for o in fresh.near(u.body, mm, side)]
                    assert ids == [o.id for o in patched.near(u.body, mm, side)]
                    compared += bool(ids)
    assert compared > 20


# -- stated play: a Light Infantry target stated in cover is not in the open ---------------
@pytest.mark.parametrize(
    "cover",
    [{"cover": "area"}, {"in_cover": True}, {"cover": "wall"}, {"behind_wall": True}],
)
def test_stated_cover_keeps_the_light_infantry_modifier_with_cavalry_near(
    cover: dict[str, Any],
) -> None:
    # Resolving shooting: "Light Infantry modifier is negated if Light Infantry is in open and
    # enemy Cavalry are within 1/2 move": a target the player states is in woods/town (or
    # behind a wall) is not in the open, however the cover is spelt (in_cover=true was read
    # as "in the open" by default, and the -1 dropped)
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry"},
            {"id": "BC", "side": "blue", "type": "light_cavalry"},  # (the cavalry stated near)
            {"id": "L", "side": "red", "type": "light"},
        ],
        p1="red",
        options={"play": "stated"},
    )
    b.until("shoot", "blue")
    req = {"firer": "B", "target": "L", "band": "musket", "cavalry_near": True, **cover}
    (check, *_) = b.odds("shoot", **req)
    reasons = [m.reason for m in check.modifiers]
    assert "target is Light Infantry" in reasons
    assert sum(m.value for m in check.modifiers) == -1  # cover -1, light -1, first volley +1
    b.do("shoot", [5], **req)  # 5 - 1 = 4: no effect (not the 5 of a negated modifier)
    assert not b.state.unit("L").pinned


# -- stated play: an arrived reinforcement may charge as it enters --------------------------
def test_a_stated_arrived_reinforcement_is_offered_the_charge_it_may_make() -> None:
    # Reinforcements: "May enter edge within [4] of RP"; Moving to contact: nothing bars a
    # unit entering from moving to contact. Tracked, an arrived unit placed on the edge is
    # offered its charge; stated, it enters by its stated move, and the referee accepted a
    # charge from the edge that todo did not offer
    rps = [{"id": "rear", "side": "blue", "kind": "rear", "at": [300, 0], "queue": ["B2"]}]
    b = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "infantry"},
            {"id": "B2", "side": "blue", "type": "lancers", "status": "reserve"},
            {"id": "R", "side": "red", "type": "infantry"},
        ],
        rps=rps,
        options={"play": "stated"},
    )
    b.do("reinforce", [3], rp="rear")
    line = entry(b.todo(), "charge unit=B2")
    assert line.open == {"into": ("R",), "distance": ("8", "4", "3", "2", "1")}
    b.do("charge", unit="B2", into="R", distance="4")  # as offered, accepted
    s = b.state
    assert not s.unit("B2").entry and s.unit("B2").status == "table"
    assert [(m.attacker, m.defender) for m in s.melees] == [("B2", "R")]
    assert not [t for t in b.todo() if t.request.get("unit") == "B2" and t.procedure != "rout"]


# -- a move that crossed a bridge is at 1/2 rate, step by step too -------------------------
def test_a_move_that_crossed_a_bridge_stays_at_half_rate_for_its_later_steps() -> None:
    # Movement Modifiers: "Bridge - All units move at 1/2 rate unless unit spends entire move
    # on a road (in Road Column)" (reading 7, whole_move): IR 4, in line on the road, advances
    # [2] onto the bridge: its move is ([4] + [1] road) x 1/2 = [2.5], [0.5] left. A wheel of
    # 45 (about [1]) after it was accepted (the step off the bridge had the full [4]), and the
    # message said [2] left; a wheel first, then the bridge, was held to [2.5]
    from vedette.rules.two_by_two import RULESET

    b = Battle(RULESET.scenario("close"), seed=3)
    out = b.do("advance", unit="A1", distance="2")
    assert "cost [2.00] of [2.50]" in out.message and "[0.50] of its move left" in out.message
    with pytest.raises(RuleViolation, match="needs"):
        b.do("wheel", unit="A1", angle=45, direction="left")
    assert not [t for t in b.todo() if t.command().startswith(("wheel unit=A1", "advance unit=A1"))]
    b.do("retire", unit="A1", distance="0.5")  # what is left of the halved move
    with pytest.raises(RuleViolation, match="may move only"):
        b.do("retire", unit="A1", distance="0.1")
    b.do("next")  # the next move phase of the Austrians: the full move again
    b.until("move", "austrians")
    assert b.state.unit("A1").bridged is False
    assert b.replayed() == b.state


# -- a reinforcement not yet on the table does not rout voluntarily --------------------------
@pytest.mark.parametrize("play", ["tracked", "stated"])
def test_an_arrived_reinforcement_routs_voluntarily_only_once_it_has_entered(play: str) -> None:
    # Unit Summary: "*** may voluntarily rout"; a rout "move max away then Disrupted": a ***
    # unit that has arrived at its RP but not entered the table (Reinforcements: "May enter
    # edge within [4] of RP") has nowhere to rout from. todo offered its rout and the referee
    # let it rout off the table (disrupted, it could then not enter: "may not move")
    rps = [{"id": "rear", "side": "blue", "kind": "rear", "at": [300, 0], "queue": ["B2"]}]
    units: list[dict[str, Any]] = [
        {"id": "B", "side": "blue", "type": "infantry", "x": 100, "y": 100},
        {"id": "B2", "side": "blue", "type": "light_cavalry", "status": "reserve"},
        {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 300},
    ]
    if play == "stated":
        units = [{k: v for k, v in u.items() if k not in ("x", "y")} for u in units]
    b = Battle.quick(units, rps=rps, options={"play": play})
    b.do("reinforce", [3], rp="rear")
    assert "rout unit=B2" not in cmds(b.todo())
    with pytest.raises(RuleViolation, match="not entered the table"):
        b.do("rout", [5], unit="B2")
    if play == "tracked":
        b.do("place", unit="B2", x=300, y=6)
    else:
        b.do("move", unit="B2", distance="1")
    assert "rout unit=B2" in cmds(b.todo())  # entered: it may
    b.do("rout", [5], unit="B2")
    assert b.state.unit("B2").disrupted
