"""Acceptance tests for 2 by 2 Napoleonics, written from the rule text (seed 003) alone.

Every expected number is worked out by hand from the text; the comment on each test names the
section it comes from ("2 by 2, <heading>"). The game is driven as a user drives it: through the
public ``Game`` API on a SQLite store (forced dice via ``faces=``) and, once, through the CLI.
[1] = 3/4 inch = 19.05 mm (2 by 2, Scale). A unit is one 25 x 12 mm base; blue stands at the
south edge facing north (0), red at the north edge facing south (180).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from vedette.cli.main import main
from vedette.engine import Game, Store
from vedette.errors import RuleViolation, VedetteError

N = 19.05  # mm per [1]


class T:
    """One game on a fresh store: ``do`` performs, ``odds`` asks, ``until`` ends phases."""

    def __init__(
        self,
        tmp_path: Path,
        units: list[dict[str, Any]],
        terrain: tuple[dict[str, Any], ...] = (),
        rps: tuple[dict[str, Any], ...] = (),
        start: str = "battle",
        options: dict[str, Any] | None = None,
    ) -> None:
        us = []
        for u in units:
            d = dict(u)
            if "x" in d and "facing" not in d:
                d["facing"] = 0.0 if d["side"] == "blue" else 180.0
            us.append(d)
        scn = {
            "title": "acceptance",
            "start": start,
            "attacker": "red",
            "table": {"width": 609.6, "depth": 609.6},
            "victory": {"threshold_ap": 0, "max_turns": 0},
            "sides": [
                {"id": "blue", "name": "Blue", "edge": "south"},
                {"id": "red", "name": "Red", "edge": "north"},
            ],
            "units": us,
            "terrain": list(terrain),
            "rps": list(rps),
        }
        self.store = Store(tmp_path / "accept.db")
        self.game = Game.create(self.store, "g", "2x2", scn, seed=7, options=options)

    def do(self, proc: str, dice: list[int] | None = None, **req: Any) -> Any:
        return self.game.perform(proc, req, faces=dice)

    def odds(self, proc: str, **req: Any) -> Any:
        return self.game.odds(proc, req)

    def refused(self, proc: str, dice: list[int] | None = None, **req: Any) -> str:
        before = self.game.state
        with pytest.raises(RuleViolation) as e:
            self.do(proc, dice, **req)
        assert self.game.state == before  # a refusal changes nothing
        msg = str(e.value)
        assert "2 by 2" in msg and "\n" not in msg  # one line naming the rule
        return msg

    def until(self, kind: str, side: str) -> None:
        for _ in range(17):
            s = self.game.state
            if s.stage == "battle" and s.phase == kind and s.actor == side:
                return
            self.do("next")
        raise AssertionError(f"no {kind} phase for {side}")

    def u(self, uid: str) -> Any:
        return self.game.state.unit(uid)


def bl(uid: str, kind: str, x: float | None = None, y: float | None = None, **kw: Any) -> dict:
    d: dict[str, Any] = {"id": uid, "side": "blue", "type": kind, **kw}
    if x is not None:
        d.update(x=x, y=y)
    return d


def rd(uid: str, kind: str, x: float | None = None, y: float | None = None, **kw: Any) -> dict:
    d: dict[str, Any] = {"id": uid, "side": "red", "type": kind, **kw}
    if x is not None:
        d.update(x=x, y=y)
    return d


def facing_red(gap_n: float, y_blue: float = 100.0) -> float:
    """y of a red unit (facing south) whose front edge is ``gap_n`` [n] from the front edge of
    a blue unit (facing north) at ``y_blue`` on the same x."""
    return y_blue + 12 + gap_n * N


def mods(roll: Any) -> int:
    return int(roll.final - roll.natural)


# -- 2 by 2, Unit Summary: Move, Range, AP for the 12 types -----------------------------------
SUMMARY = [
    ("infantry", 4, (1, 2), 2),
    ("guard", 5, (1, 2), 3),
    ("light", 6, (1, 2), 3),
    ("militia", 4, (1,), 1),
    ("hq_corps", 10, (), 4),
    ("hq_division", 10, (), 2),
    ("heavy_cavalry", 6, (), 3),
    ("light_cavalry", 8, (), 3),
    ("lancers", 8, (), 3),
    ("cossacks", 10, (), 2),
    ("foot_artillery", 4, (1.5, 4, 8), 3),
    ("horse_artillery", 6, (1.5, 3, 6), 4),
]


@pytest.mark.parametrize(("kind", "move", "ranges", "ap"), SUMMARY)
def test_unit_summary(tmp_path: Path, kind: str, move: int, ranges: tuple, ap: int) -> None:
    g = T(tmp_path, [bl("B", kind, 300, 100), rd("R", "infantry", 300, 500)])
    t = g.game.state.rules.unit_types[kind]
    assert (t.move, tuple(t.ranges), t.ap) == (move, ranges, ap)
    # markers: ** Militia, Cossacks; *** Light, Light Cavalry, Lancers; * the [2] musket band
    assert t.rout_contagion == (kind in ("militia", "cossacks"))
    assert t.voluntary_rout == (kind in ("light", "light_cavalry", "lancers"))
    assert t.star_range == (kind in ("infantry", "guard", "light"))


# -- 2 by 2, Sequence of play -------------------------------------------------------------------
def test_sequence_of_play_order_and_out_of_phase_refusals(tmp_path: Path) -> None:
    g = T(
        tmp_path,
        [bl("B", "infantry", 300, 100), rd("R", "infantry", 300, facing_red(0.5))],
    )
    seen = []
    for _ in range(8):
        seen.append((g.game.state.phase, g.game.state.actor))
        g.do("next")
    # Def (blue) is player 1: P1 moves, P1 rallies, P2 shoots, P1 melees, then swapped
    assert seen == [
        ("move", "blue"),
        ("rally", "blue"),
        ("shoot", "red"),
        ("melee", "blue"),
        ("move", "red"),
        ("rally", "red"),
        ("shoot", "blue"),
        ("melee", "red"),
    ]
    assert g.game.state.turn == 2 and g.game.state.phase == "move"
    # phase 1 (blue moves): red may not move, nobody may shoot, rally or melee
    assert "Sequence of play" in g.refused("move", unit="R", to=[300, 300])
    assert "Sequence of play" in g.refused("shoot", [6], firer="B", target="R")
    assert "Sequence of play" in g.refused("shoot", [6], firer="R", target="B")
    g.do("next")  # phase 2: blue rallies; moving is now out of phase
    assert "Sequence of play" in g.refused("move", unit="B", to=[300, 90])
    g.do("next")  # phase 3: red shoots; blue may not shoot now
    assert "Sequence of play" in g.refused("shoot", [6], firer="B", target="R")
    assert g.do("shoot", [1], firer="R", target="B").rolls[0].row == "no_effect"


# -- 2 by 2, Movement Modifiers (stated facts: no positions) ---------------------------------
def _mover(tmp_path: Path, kind: str, **kw: Any) -> T:
    return T(tmp_path, [bl("B", kind, **kw), rd("R", "infantry")])


def test_road_bonus_for_the_whole_move(tmp_path: Path) -> None:
    # Road: whole move on road adds [1]: infantry [4] -> [5]
    g = _mover(tmp_path, "infantry")
    with pytest.raises(RuleViolation):
        g.do("move", unit="B", distance=4.5)
    out = g.do("move", unit="B", distance=5, road=True)
    assert out.details["move"]["allowance"] == pytest.approx(5)


def test_bridge_halves_unless_whole_move_on_road_in_road_column(tmp_path: Path) -> None:
    # Bridge: all move at 1/2 rate unless the whole move is on road in road column
    g = _mover(tmp_path, "infantry")
    with pytest.raises(RuleViolation):
        g.do("move", unit="B", distance=2.5, bridge=True)
    g.do("move", unit="B", distance=2, bridge=True)  # [4] at half = [2]: allowed


def test_bridge_in_road_column_on_road_full_move_plus_bonus(tmp_path: Path) -> None:
    g = _mover(tmp_path, "infantry", formation="road_column")
    out = g.do("move", unit="B", distance=5, bridge=True, road=True)
    assert out.details["move"]["allowance"] == pytest.approx(5)


def test_stream_costs_an_extra_one(tmp_path: Path) -> None:
    g = _mover(tmp_path, "infantry")
    with pytest.raises(RuleViolation):
        g.do("move", unit="B", distance=3.5, streams=1)  # 3.5 + 1 = 4.5 > [4]
    out = g.do("move", unit="B", distance=3, streams=1)  # 3 + 1 = [4]
    assert out.details["move"]["cost"] == pytest.approx(4)


@pytest.mark.parametrize(
    ("kind", "ok"),
    [
        ("infantry", False),
        ("guard", False),
        ("militia", False),
        ("light_cavalry", False),
        ("heavy_cavalry", False),
        ("foot_artillery", False),
        ("light", True),
        ("cossacks", True),
    ],
)
def test_woods_rough_impassable_but_light_and_cossacks_at_half(
    tmp_path: Path, kind: str, ok: bool
) -> None:
    g = _mover(tmp_path, kind)
    if ok:
        out = g.do("move", unit="B", distance=2, rough=2)  # [2] inside at half = cost [4]
        assert out.details["move"]["cost"] == pytest.approx(4)
    else:
        assert "Movement" in g.refused("move", unit="B", distance=1, rough=1)


def test_light_infantry_woods_at_half_rate_limit(tmp_path: Path) -> None:
    g = _mover(tmp_path, "light")  # move [6]: at most [3] of woods
    with pytest.raises(RuleViolation):
        g.do("move", unit="B", distance=3.5, rough=3.5)
    g.do("move", unit="B", distance=3, rough=3)


def test_towns_half_rate_and_no_road_bonus(tmp_path: Path) -> None:
    g = _mover(tmp_path, "infantry")
    with pytest.raises(RuleViolation):
        g.do("move", unit="B", distance=2.5, town=2.5)  # cost 5 > 4
    with pytest.raises(RuleViolation):
        # on the road all the way but through a town: no road bonus, 3.5 + 0.5 = 4 + ... > 4
        g.do("move", unit="B", distance=4.5, road=True, town=0.5)
    out = g.do("move", unit="B", distance=2, town=2)
    assert out.details["move"]["cost"] == pytest.approx(4)


def test_hedges_walls_copses_cost_nothing(tmp_path: Path) -> None:
    terrain = (
        {"kind": "hedge", "name": "hedge", "line": [[0, 130], [609.6, 130]]},
        {"kind": "wall", "name": "wall", "line": [[0, 150], [609.6, 150]]},
    )
    g = T(tmp_path, [bl("B", "infantry", 300, 100), rd("R", "infantry", 300, 500)], terrain)
    out = g.do("move", unit="B", to=[300, 100 + 4 * N])  # a full [4] across both
    assert out.details["move"]["cost"] == pytest.approx(4, abs=1e-6)


# -- 2 by 2, Moving to contact -------------------------------------------------------------
def test_last_two_of_a_move_to_contact_straight_ahead(tmp_path: Path) -> None:
    ry = facing_red(3)  # red front edge [3] ahead of blue's
    contact_y = ry - 12
    g = T(tmp_path, [bl("B", "infantry", 300, 100), rd("R", "infantry", 300, ry)])
    # a bend [1] from the end: refused
    msg = g.refused(
        "move", unit="B", path=[[300, 100], [300, 130], [310, 140], [300, contact_y]], facing=0
    )
    assert "Moving to contact" in msg
    # the bend earlier, the last > [2] straight ahead: allowed, and it is a contact
    out = g.do("move", unit="B", path=[[300, 100], [310, 105], [300, 115], [300, contact_y]])
    assert out.details["move"]["contacts"] == ["R"]


def test_stated_move_to_contact_not_straight_is_refused(tmp_path: Path) -> None:
    g = T(tmp_path, [bl("B", "infantry"), rd("R", "infantry")])
    assert "Moving to contact" in g.refused(
        "move", unit="B", distance=3, contact=["R"], straight=False
    )
    g.do("move", unit="B", distance=3, contact=["R"])


def test_cavalry_may_not_contact_after_moving_through_a_town(tmp_path: Path) -> None:
    g = T(tmp_path, [bl("C", "light_cavalry"), rd("R", "infantry")])
    assert "Moving to contact" in g.refused("move", unit="C", distance=3, town=1, contact=["R"])
    g.do("move", unit="C", distance=3, contact=["R"])


def test_infantry_may_not_charge_cavalry_nor_artillery_anyone(tmp_path: Path) -> None:
    g = T(tmp_path, [bl("I", "infantry"), bl("A", "foot_artillery"), rd("C", "heavy_cavalry")])
    g.refused("move", unit="I", distance=2, contact=["C"])
    g.refused("move", unit="A", distance=2, contact=["C"])


def test_counter_charge_within_half_move(tmp_path: Path) -> None:
    # light cavalry move [8]: it may counter-charge an enemy that moved to within [4]
    def game(gap: float, sub: str) -> T:
        p = tmp_path / sub
        p.mkdir()
        cy = 146 + 6 + gap * N  # blue will end at y=140 (front edge 146)
        return T(p, [bl("M", "infantry", 300, 100), rd("C", "light_cavalry", 300, cy)])

    g = game(3.9, "near")
    g.do("move", unit="M", to=[300, 140])
    g.until("shoot", "red")
    out = g.do("countercharge", unit="C", target="M", to=[300, 152])
    assert "M" in json.dumps(out.details)
    far = game(4.2, "far")
    far.do("move", unit="M", to=[300, 140])
    far.do("next")
    # not in the rally phase
    far.refused("countercharge", unit="C", target="M", to=[300, 152])
    far.do("next")
    assert "Moving to contact" in far.refused("countercharge", unit="C", target="M", to=[300, 152])


def test_counter_charge_stated(tmp_path: Path) -> None:
    g = T(tmp_path, [bl("M", "infantry"), rd("C", "heavy_cavalry")])
    g.do("move", unit="M", distance=2)
    g.until("shoot", "red")
    g.refused("countercharge", unit="C", target="M", distance=3, within=False)
    g.do("countercharge", unit="C", target="M", distance=3, within=True)


# -- 2 by 2, Reinforcements ------------------------------------------------------------------
def test_reinforcements_rear_3_flank_4_two_rolls(tmp_path: Path) -> None:
    rps = (
        {"id": "rear", "side": "blue", "kind": "rear", "at": [300, 0], "queue": ["B2", "B3"]},
        {"id": "flank", "side": "blue", "kind": "flank", "at": [0, 300], "queue": ["B4", "B5"]},
    )
    units = [bl("B", "infantry", 300, 100), rd("R", "infantry", 300, 500)]
    units += [bl(f"B{i}", "infantry", status="reserve") for i in range(2, 6)]
    g = T(tmp_path, units, rps=rps)
    assert g.odds("reinforce", rp="rear")[0].p("arrives") == Fraction(2, 3)  # 3,4,5,6
    assert g.odds("reinforce", rp="flank")[0].p("arrives") == Fraction(1, 2)  # 4,5,6
    assert g.do("reinforce", [2], rp="rear").rolls[0].row == "none"
    assert g.do("reinforce", [3], rp="rear").rolls[0].row == "arrives"
    g.refused("reinforce", [6], rp="flank")  # a third roll this turn
    for _ in range(8):  # next turn (blue is P1): two fresh rolls
        g.do("next")
    assert g.game.state.turn == 2 and g.game.state.actor == "blue"
    assert g.do("reinforce", [3], rp="flank").rolls[0].row == "none"
    assert g.do("reinforce", [4], rp="flank").rolls[0].row == "arrives"
    g.do("next")
    g.refused("reinforce", [6], rp="rear")  # only in its own move phase


# -- 2 by 2, Rallying ------------------------------------------------------------------------
def _rally(tmp_path: Path, kind: str, extra: list[dict] | None = None, **flags: Any) -> T:
    units = [bl("U", kind, 300, 100, **flags), bl("H", "hq_division", 360, 100)]
    units += extra or [rd("R", "infantry", 300, 500)]
    g = T(tmp_path, units)
    g.do("next")  # blue rallies
    return g


@pytest.mark.parametrize(
    ("kind", "flags", "die", "ok"),
    [
        ("infantry", {"pinned": True}, 5, True),  # 5+ rallies
        ("infantry", {"pinned": True}, 4, False),
        ("guard", {"pinned": True}, 4, True),  # Guards +1
        ("light", {"pinned": True}, 4, True),  # Light +1
        ("guard", {"pinned": True}, 3, False),
        ("militia", {"pinned": True}, 5, False),  # Militia -1
        ("militia", {"pinned": True}, 6, True),
        ("infantry", {"disrupted": True}, 5, False),  # Disrupted -1
        ("infantry", {"disrupted": True}, 6, True),
        ("militia", {"disrupted": True}, 6, False),  # -1 -1: 6 -> 4
    ],
)
def test_rally_modifiers(tmp_path: Path, kind: str, flags: dict, die: int, ok: bool) -> None:
    g = _rally(tmp_path, kind, **flags)
    out = g.do("rally", [die], unit="U")
    assert (out.rolls[0].row == "rallies") == ok
    u = g.u("U")
    assert (u.pinned or u.disrupted) == (not ok)


def test_rally_odds_exact(tmp_path: Path) -> None:
    g = _rally(tmp_path, "infantry", pinned=True)
    assert g.odds("rally", unit="U")[0].p("rallies") == Fraction(1, 3)  # 5,6
    g2dir = tmp_path / "g2"
    g2dir.mkdir()
    g2 = _rally(g2dir, "militia", disrupted=True)
    assert g2.odds("rally", unit="U")[0].p("rallies") == 0  # needs 7


def test_rally_hq_in_contact_plus_one(tmp_path: Path) -> None:
    g = T(
        tmp_path,
        [bl("U", "infantry", 300, 100, pinned=True), bl("H", "hq_division", 325.5, 100)],
    )
    g.do("next")
    out = g.do("rally", [4], unit="U")
    assert mods(out.rolls[0]) == 1 and out.rolls[0].row == "rallies"


def test_hq_self_rally_plus_two(tmp_path: Path) -> None:
    g = T(tmp_path, [bl("H", "hq_division", 300, 100, disrupted=True), rd("R", "infantry")])
    g.do("next")
    out = g.do("rally", [4], unit="H")  # 4 - 1 (disrupted) + 2 (self) = 5
    assert out.rolls[0].final == 5 and out.rolls[0].row == "rallies"
    assert not g.u("H").disrupted


def test_rally_not_possible_enemy_in_contact(tmp_path: Path) -> None:
    g = _rally(tmp_path, "guard", [rd("R", "infantry", 300, facing_red(0))], pinned=True)
    assert "Rallying" in g.refused("rally", [6], unit="U")


def test_rally_not_possible_out_of_command(tmp_path: Path) -> None:
    # Div HQ more than [4] away (and no Corps HQ within [8]): NP
    far = 300 + 25 + 4.5 * N
    g = T(tmp_path, [bl("U", "infantry", 300, 100, pinned=True), bl("H", "hq_division", far, 100)])
    g.do("next")
    assert "Rallying" in g.refused("rally", [6], unit="U")
    # Div HQ at [3.5]: in command
    p = tmp_path / "near"
    p.mkdir()
    near = 300 + 25 + 3.5 * N
    g2 = T(p, [bl("U", "infantry", 300, 100, pinned=True), bl("H", "hq_division", near, 100)])
    g2.do("next")
    assert g2.do("rally", [5], unit="U").rolls[0].row == "rallies"


def test_rally_no_hq_at_all_is_not_possible(tmp_path: Path) -> None:
    g = T(tmp_path, [bl("U", "infantry", 300, 100, pinned=True), rd("R", "infantry")])
    g.do("next")
    g.refused("rally", [6], unit="U")


def test_rally_enemy_within_two_footnote(tmp_path: Path) -> None:
    enemy = [rd("R", "infantry", 300, facing_red(1.5))]
    # line infantry, not touching an HQ: NP (the -2 is only for Guards / units touching an HQ)
    g = _rally(tmp_path, "infantry", enemy, pinned=True)
    assert "Rallying" in g.refused("rally", [6], unit="U")
    # Guards: 6 + 1 - 2 = 5 rallies; 5 + 1 - 2 = 4 fails
    for die, row in ((6, "rallies"), (5, "fails")):
        p = tmp_path / f"g{die}"
        p.mkdir()
        g = _rally(p, "guard", enemy, pinned=True)
        assert g.do("rally", [die], unit="U").rolls[0].row == row
    # line infantry touching an HQ: 6 + 1 (HQ) - 2 = 5 rallies
    p = tmp_path / "hq"
    p.mkdir()
    g = T(
        p,
        [
            bl("U", "infantry", 300, 100, pinned=True),
            bl("H", "hq_division", 325.5, 100),
            *enemy,
        ],
    )
    g.do("next")
    out = g.do("rally", [6], unit="U")
    assert mods(out.rolls[0]) == -1 and out.rolls[0].row == "rallies"


def test_rally_stated_facts(tmp_path: Path) -> None:
    # (an HQ of its side in play: a contact stated with none is refused)
    g = T(tmp_path, [bl("U", "infantry", pinned=True), bl("H", "hq_division"), rd("R", "infantry")])
    g.do("next")
    g.refused("rally", [6], unit="U", in_command=False)
    g.refused("rally", [6], unit="U", in_command=True, enemy_contact=True)
    out = g.do("rally", [4], unit="U", in_command=True, hq_contact=True)
    assert out.rolls[0].final == 5 and out.rolls[0].row == "rallies"


# -- 2 by 2, Resolving shooting ---------------------------------------------------------------
def _shoot(tmp_path: Path, firer: dict, target: dict, extra: list[dict] | None = None) -> T:
    g = T(tmp_path, [target, firer, *(extra or [])])
    g.until("shoot", "red")
    return g


def _art(gap: float, kind: str = "foot_artillery", **kw: Any) -> dict:
    return rd("A", kind, 300, facing_red(gap), **kw)


@pytest.mark.parametrize(
    ("die", "row"),
    [(3, "no_effect"), (4, "no_effect"), (5, "pinned"), (6, "pinned")],
)
def test_shooting_rows_unmodified(tmp_path: Path, die: int, row: str) -> None:
    # foot artillery at short range (between [1 1/2] and [4]) on infantry in the open: no DRM
    g = _shoot(tmp_path, _art(2.5), bl("B", "infantry", 300, 100))
    r = g.do("shoot", [die], firer="A", target="B").rolls[0]
    assert (r.final, r.row) == (die, row)
    assert g.u("B").pinned == (row == "pinned")


def test_shooting_seven_disrupted(tmp_path: Path) -> None:
    # canister +1: 6 + 1 = 7 -> Disrupted ("may not move or fire")
    g = _shoot(tmp_path, _art(1), bl("B", "infantry", 300, 100))
    r = g.do("shoot", [6], firer="A", target="B").rolls[0]
    assert (r.final, r.row) == (7, "disrupted")
    assert g.u("B").disrupted


@pytest.mark.parametrize(("rout_die", "fate"), [(1, "destroyed"), (2, "destroyed"), (3, "flees")])
def test_shooting_eight_routs(tmp_path: Path, rout_die: int, fate: str) -> None:
    # canister +1, target cavalry +2: 5 + 3 = 8 -> Routs; D6 1-2 destroyed, else flees disrupted
    g = _shoot(tmp_path, _art(1), bl("B", "heavy_cavalry", 300, 100))
    out = g.do("shoot", [5, rout_die], firer="A", target="B")
    assert (out.rolls[0].final, out.rolls[0].row) == (8, "rout")
    b = g.u("B")
    if fate == "destroyed":
        assert b.status == "destroyed"
    else:
        assert b.status == "table" and b.disrupted
        assert b.body.centre.y < 100  # moved away from the firer


@pytest.mark.parametrize(
    ("kind", "gap", "band", "dm"),
    [
        ("foot_artillery", 1.0, "canister", 1),
        ("foot_artillery", 1.5, "canister", 1),
        ("foot_artillery", 1.6, "short", 0),
        ("foot_artillery", 4.0, "short", 0),
        ("foot_artillery", 4.1, "long", -1),
        ("foot_artillery", 8.0, "long", -1),
        ("horse_artillery", 1.5, "canister", 1),
        ("horse_artillery", 1.6, "short", 0),
        ("horse_artillery", 3.0, "short", 0),
        ("horse_artillery", 3.1, "long", -1),
        ("horse_artillery", 6.0, "long", -1),
    ],
)
def test_artillery_range_bands_measured(
    tmp_path: Path, kind: str, gap: float, band: str, dm: int
) -> None:
    g = _shoot(tmp_path, _art(gap, kind), bl("B", "infantry", 300, 100))
    out = g.do("shoot", [3], firer="A", target="B")
    assert mods(out.rolls[0]) == dm
    assert band in out.rolls[0].label


@pytest.mark.parametrize(("kind", "gap"), [("foot_artillery", 8.2), ("horse_artillery", 6.2)])
def test_artillery_out_of_range(tmp_path: Path, kind: str, gap: float) -> None:
    g = _shoot(tmp_path, _art(gap, kind), bl("B", "infantry", 300, 100))
    assert "range" in g.refused("shoot", [6], firer="A", target="B")


@pytest.mark.parametrize(
    ("kind", "rng", "dm"),
    [
        ("foot_artillery", 1.5, 1),
        ("foot_artillery", 4, 0),
        ("foot_artillery", 8, -1),
        ("horse_artillery", 3, 0),
        ("horse_artillery", 6, -1),
    ],
)
def test_artillery_range_bands_stated(tmp_path: Path, kind: str, rng: float, dm: int) -> None:
    g = _shoot(tmp_path, rd("A", kind), bl("B", "infantry"))
    assert mods(g.do("shoot", [3], firer="A", target="B", range=rng).rolls[0]) == dm


def test_artillery_beyond_long_range_stated(tmp_path: Path) -> None:
    g = _shoot(tmp_path, rd("A", "horse_artillery"), bl("B", "infantry"))
    g.refused("shoot", [3], firer="A", target="B", range=6.5)


def test_infantry_ranges_one_or_two_with_screen(tmp_path: Path) -> None:
    g = _shoot(tmp_path, rd("I", "infantry"), bl("B", "infantry"))
    g.refused("shoot", [3], firer="I", target="B", range=1.5)  # no screen: [1] only
    p = tmp_path / "s"
    p.mkdir()
    g = _shoot(p, rd("I", "infantry", screened=True), bl("B", "infantry"))
    g.refused("shoot", [3], firer="I", target="B", range=2.5)
    g.do("shoot", [3], firer="I", target="B", range=2)
    p = tmp_path / "m"
    p.mkdir()
    g = _shoot(p, rd("I", "militia"), bl("B", "infantry"))
    g.refused("shoot", [3], firer="I", target="B", range=1.5)  # Militia: [1] only, no screen


def test_infantry_over_one_at_most_pins(tmp_path: Path) -> None:
    # screened +1, first volley +1, cavalry +2: 6 + 4 = 10, but over [1] only Pinned
    g = _shoot(tmp_path, rd("I", "infantry", screened=True), bl("B", "heavy_cavalry"))
    r = g.do("shoot", [6], firer="I", target="B", range=1.5).rolls[0]
    assert r.final == 10 and r.row == "pinned"
    assert not g.u("B").disrupted and g.u("B").status == "table"


def test_infantry_shooting_pins_itself_and_shoots_once(tmp_path: Path) -> None:
    g = _shoot(
        tmp_path,
        rd("I", "infantry", 300, facing_red(0.5)),
        bl("B", "infantry", 300, 100),
        [_art(2.0) | {"x": 400}, bl("B2", "infantry", 400, 100)],
    )
    out = g.do("shoot", [1], firer="I", target="B")
    assert mods(out.rolls[0]) == 1  # first volley
    assert g.u("I").pinned  # pinned on firing
    g.refused("shoot", [6], firer="I", target="B")  # only once
    g.do("shoot", [1], firer="A", target="B2")
    assert not g.u("A").pinned  # artillery is not pinned by firing
    g.refused("shoot", [6], firer="A", target="B2")


def test_pinned_infantry_fires_without_first_volley(tmp_path: Path) -> None:
    g = _shoot(tmp_path, rd("I", "infantry", pinned=True), bl("B", "infantry"))
    assert mods(g.do("shoot", [3], firer="I", target="B", range=1).rolls[0]) == 0


def test_disrupted_unit_may_not_fire_or_move(tmp_path: Path) -> None:
    g = T(tmp_path, [rd("I", "infantry", disrupted=True), bl("B", "infantry", disrupted=True)])
    g.refused("move", unit="B", distance=1)
    g.until("shoot", "red")
    g.refused("shoot", [3], firer="I", target="B", range=1)


def test_pinned_unit_may_only_change_facing(tmp_path: Path) -> None:
    g = T(tmp_path, [bl("B", "infantry", 300, 100, pinned=True), rd("R", "infantry", 300, 500)])
    g.refused("move", unit="B", to=[300, 120])
    g.do("move", unit="B", facing=45)
    assert g.u("B").body.facing == pytest.approx(45)


@pytest.mark.parametrize(
    ("case", "target", "stated", "dm"),
    [
        ("long", {}, {"range": 6}, -1),
        ("canister", {}, {"range": 1}, 1),
        ("wall", {}, {"range": 3, "cover": "wall"}, -1),
        ("woods/town", {}, {"range": 3, "cover": "area"}, -1),
        ("both covers", {}, {"range": 3, "cover": "both"}, -2),
        ("enfilade", {}, {"range": 3, "enfilade": True}, 2),
        ("target disrupted", {"disrupted": True}, {"range": 3}, 1),
        ("hq with firer", {}, {"range": 3, "hq_contact": True}, 1),
        ("all", {"disrupted": True}, {"range": 6, "enfilade": True, "hq_contact": True}, 3),
    ],
)
def test_shooting_modifiers_stated(
    tmp_path: Path, case: str, target: dict, stated: dict, dm: int
) -> None:
    hq = [rd("H", "hq_division")] if "hq_contact" in stated else None  # (one in play)
    g = _shoot(tmp_path, rd("A", "foot_artillery"), bl("B", "infantry", **target), hq)
    assert mods(g.do("shoot", [3], firer="A", target="B", **stated).rolls[0]) == dm, case


@pytest.mark.parametrize(
    ("kind", "dm"),
    [("heavy_cavalry", 2), ("light_cavalry", 2), ("lancers", 2), ("cossacks", 2), ("light", -1)],
)
def test_shooting_target_type_modifiers(tmp_path: Path, kind: str, dm: int) -> None:
    g = _shoot(tmp_path, _art(2.5), bl("B", kind, 300, 100))
    assert mods(g.do("shoot", [3], firer="A", target="B").rolls[0]) == dm


def test_cover_only_counts_for_infantry(tmp_path: Path) -> None:
    # "Target is Infantry in cover": cavalry in a town gets no cover, only +2
    g = _shoot(tmp_path, rd("A", "foot_artillery"), bl("B", "heavy_cavalry"))
    assert mods(g.do("shoot", [3], firer="A", target="B", range=3, cover="area").rolls[0]) == 2


def test_screen_plus_one_unless_target_screened(tmp_path: Path) -> None:
    g = _shoot(tmp_path, rd("I", "infantry", screened=True), bl("B", "infantry"))
    assert mods(g.do("shoot", [1], firer="I", target="B", range=1).rolls[0]) == 2  # +1 +1
    p = tmp_path / "both"
    p.mkdir()
    g = _shoot(p, rd("I", "infantry", screened=True), bl("B", "infantry", screened=True))
    assert mods(g.do("shoot", [1], firer="I", target="B", range=1).rolls[0]) == 1  # volley


def test_light_infantry_modifier_negated_by_cavalry_near(tmp_path: Path) -> None:
    # target Light infantry -1, negated when in the open with enemy cavalry within 1/2 move
    g = _shoot(tmp_path, _art(2.5), bl("B", "light", 300, 100))
    assert mods(g.do("shoot", [3], firer="A", target="B", in_open=True).rolls[0]) == -1
    p = tmp_path / "cav"
    p.mkdir()
    g = _shoot(p, _art(2.5), bl("B", "light", 300, 100), [rd("C", "heavy_cavalry")])
    r = g.do("shoot", [3], firer="A", target="B", in_open=True, cavalry_near=True).rolls[0]
    assert mods(r) == 0
    # measured: red heavy cavalry (move [6]) [2] from the light infantry, in the open
    p = tmp_path / "geo"
    p.mkdir()
    g = _shoot(
        p, _art(2.5), bl("B", "light", 300, 100), [rd("C", "heavy_cavalry", 325 + 2 * N, 100)]
    )
    assert mods(g.do("shoot", [3], firer="A", target="B").rolls[0]) == 0
    # ... but not when the light infantry is in woods (then cover -1 and light -1)
    p = tmp_path / "woods"
    p.mkdir()
    woods = (
        {"kind": "woods", "name": "w", "area": [[250, 60], [350, 60], [350, 140], [250, 140]]},
    )
    g = T(
        p,
        [bl("B", "light", 300, 100), _art(2.5), rd("C", "heavy_cavalry", 325 + 2 * N, 100)],
        woods,
    )
    g.until("shoot", "red")
    assert mods(g.do("shoot", [3], firer="A", target="B").rolls[0]) == -2


def test_shooting_geometry_enfilade_hedge_town_and_hq(tmp_path: Path) -> None:
    # enfilade: artillery [3] off the target's right flank, facing west
    ax = 312.5 + 3 * N + 6
    g = _shoot(
        tmp_path, rd("A", "foot_artillery", ax, 100, facing=270), bl("B", "infantry", 300, 100)
    )
    assert mods(g.do("shoot", [3], firer="A", target="B").rolls[0]) == 2
    # hedge just in front of the target: -1
    p = tmp_path / "hedge"
    p.mkdir()
    hedge = ({"kind": "hedge", "name": "h", "line": [[200, 110], [400, 110]]},)
    g = T(p, [bl("B", "infantry", 300, 100), _art(2.5)], hedge)
    g.until("shoot", "red")
    assert mods(g.do("shoot", [3], firer="A", target="B").rolls[0]) == -1
    # in a town: -1
    p = tmp_path / "town"
    p.mkdir()
    town = ({"kind": "town", "name": "t", "area": [[250, 60], [350, 60], [350, 125], [250, 125]]},)
    g = T(p, [bl("B", "infantry", 300, 100), _art(2.5)], town)
    g.until("shoot", "red")
    assert mods(g.do("shoot", [3], firer="A", target="B").rolls[0]) == -1
    # an HQ in base contact with the firer: +1
    p = tmp_path / "hq"
    p.mkdir()
    ay = facing_red(2.5)
    g = _shoot(p, _art(2.5), bl("B", "infantry", 300, 100), [rd("H", "hq_division", 325.5, ay)])
    assert mods(g.do("shoot", [3], firer="A", target="B").rolls[0]) == 1


def test_stated_fact_wins_over_measured(tmp_path: Path) -> None:
    # measured: short range (no DRM); the player states long range: -1, labelled "stated"
    g = _shoot(tmp_path, _art(2.5), bl("B", "infantry", 300, 100))
    r = g.do("shoot", [3], firer="A", target="B", range=5).rolls[0]
    assert mods(r) == -1
    assert any("stated" in m.reason for m in r.modifiers)


def test_shooting_odds_exact(tmp_path: Path) -> None:
    # canister +1 on infantry: 1d6+1: <=4 on 1-3 (1/2), 5-6 on 4-5 (1/3), 7 on 6 (1/6)
    g = _shoot(tmp_path, _art(1), bl("B", "infantry", 300, 100))
    o = g.odds("shoot", firer="A", target="B")[0]
    assert (o.p("no_effect"), o.p("pinned"), o.p("disrupted"), o.p("rout")) == (
        Fraction(1, 2),
        Fraction(1, 3),
        Fraction(1, 6),
        0,
    )


# -- 2 by 2, Melee ---------------------------------------------------------------------------
def _melee(tmp_path: Path, a: dict, b: dict, extra: list[dict] | None = None) -> T:
    g = T(tmp_path, [a, b, *(extra or [])])
    g.until("melee", "blue")
    return g


def _pair(akind: str = "infantry", bkind: str = "infantry", **bflags: Any) -> tuple[dict, dict]:
    return bl("B", akind, 300, 100), rd("R", bkind, 300, facing_red(0), **bflags)


@pytest.mark.parametrize(
    ("dice", "row"),
    [
        ([4, 3], "defender_repulsed"),
        ([5, 3], "defender_recoils"),
        ([6, 3, 4], "defender_routs"),
        ([5, 1], "defender_destroyed"),
        ([6, 1], "defender_destroyed"),
        ([3, 4], "attacker_repulsed"),
        ([1, 6], "attacker_destroyed"),
        ([3, 3, 2, 2, 4, 3], "defender_repulsed"),  # two draws rerolled
    ],
)
def test_melee_rows(tmp_path: Path, dice: list[int], row: str) -> None:
    g = _melee(tmp_path, *_pair())
    r = g.do("melee", dice, attacker="B", defender="R", contact=True).rolls[0]
    assert r.row == row
    ry = facing_red(0)
    red = g.u("R")
    if row == "defender_repulsed":
        assert red.body.centre.y == pytest.approx(ry + 2 * N, abs=0.01)  # back [2]
    if row == "defender_recoils":
        assert red.body.centre.y == pytest.approx(ry + 4 * N, abs=0.01)  # full move [4]
    if row == "defender_routs":
        assert red.disrupted and red.status == "table"
    if row == "defender_destroyed":
        assert red.status == "destroyed"
    if row == "attacker_destroyed":
        assert g.u("B").status == "destroyed"


def test_melee_six_plus_mandatory_follow_up(tmp_path: Path) -> None:
    # Guards +1, enemy disrupted +2: 4 + 3 - 1 = 6 -> destroyed, mandatory follow-up
    g = _melee(tmp_path, *_pair("guard", disrupted=True))
    r = g.do("melee", [4, 1], attacker="B", defender="R", contact=True).rolls[0]
    assert (r.difference, r.row) == (6, "defender_destroyed_mandatory")
    g.refused("next")
    g.refused("follow_up", unit="B", decline=True)
    g.do("follow_up", unit="B")
    g.do("next")


def test_melee_voluntary_follow_up_may_be_declined(tmp_path: Path) -> None:
    g = _melee(tmp_path, *_pair())
    g.do("melee", [5, 1], attacker="B", defender="R", contact=True)  # 4: destroyed, voluntary
    g.do("follow_up", unit="B", decline=True)
    g.do("next")


def test_melee_no_mandatory_follow_up_from_a_town(tmp_path: Path) -> None:
    g = _melee(tmp_path, *_pair("guard", disrupted=True))
    r = g.do("melee", [4, 1], attacker="B", defender="R", contact=True, a_town=True).rolls[0]
    assert r.difference == 6
    g.do("next")  # nothing owed


def test_melee_loser_in_town_or_woods(tmp_path: Path) -> None:
    # 1: repulsed, but a unit in town or woods remains in control (does not move)
    g = _melee(tmp_path, *_pair())
    g.do("melee", [4, 3], attacker="B", defender="R", contact=True, b_town=True)
    assert g.u("R").body.centre.y == pytest.approx(facing_red(0))
    # 2: recoils, unless in town or woods: then disrupted
    p = tmp_path / "w"
    p.mkdir()
    g = _melee(p, *_pair())
    g.do("melee", [5, 3], attacker="B", defender="R", contact=True, b_woods=True)
    red = g.u("R")
    assert red.disrupted and red.body.centre.y == pytest.approx(facing_red(0))


def test_melee_odds_exact_unmodified(tmp_path: Path) -> None:
    # 30 non-draw outcomes of 1d6 vs 1d6: |d| = 1 on 10 (5 each way), 2 on 8, 3 on 6, 4 on 4, 5 on 2
    g = _melee(tmp_path, *_pair())
    o = g.odds("melee", attacker="B", defender="R", contact=True)[0]
    assert o.p("defender_repulsed") == Fraction(1, 6)
    assert o.p("defender_recoils") == Fraction(2, 15)
    assert o.p("defender_routs") == Fraction(1, 10)
    assert o.p("defender_destroyed") == Fraction(1, 10)
    assert o.p("defender_destroyed_mandatory") == 0
    assert o.p("attacker_repulsed") == Fraction(1, 6)
    assert o.p("draw") == 0


def test_melee_odds_exact_plus_three(tmp_path: Path) -> None:
    # Guards +1, enemy disrupted +2: d = (a - b) + 3; draw when a - b = -3 (3 of 36): 33 left.
    # 6+: a-b>=3 (6); 4-5: a-b in 1,2 (9); 3: a-b=0 (6); 2: -1 (5); 1: -2 (4);
    # attacker loses by 1: a-b=-4 (2); by 2: a-b=-5 (1)
    g = _melee(tmp_path, *_pair("guard", disrupted=True))
    o = g.odds("melee", attacker="B", defender="R", contact=True)[0]
    assert o.p("defender_destroyed_mandatory") == Fraction(6, 33)
    assert o.p("defender_destroyed") == Fraction(9, 33)
    assert o.p("defender_routs") == Fraction(6, 33)
    assert o.p("defender_recoils") == Fraction(5, 33)
    assert o.p("defender_repulsed") == Fraction(4, 33)
    assert o.p("attacker_repulsed") == Fraction(2, 33)
    assert o.p("attacker_recoils") == Fraction(1, 33)


@pytest.mark.parametrize(
    ("a", "b", "bflags", "stated", "a_dm", "b_dm"),
    [
        ("guard", "infantry", {}, {}, 1, 0),
        ("heavy_cavalry", "heavy_cavalry", {}, {}, 2, 2),
        ("light_cavalry", "heavy_cavalry", {}, {}, -1, 2),
        ("lancers", "cossacks", {}, {}, -1, 0),
        ("lancers", "infantry", {"disrupted": True}, {}, 4, 0),  # +2 lancers, +2 disrupted
        ("heavy_cavalry", "infantry", {}, {}, 0, 0),  # +2, -2 vs ordered infantry
        ("heavy_cavalry", "infantry", {"disrupted": True}, {}, 4, 0),
        ("heavy_cavalry", "infantry", {}, {"a_town": True}, -2, 0),
        ("infantry", "infantry", {"formation": "attack_column"}, {}, 0, 1),
        ("infantry", "infantry", {"formation": "road_column"}, {}, 0, -2),
        ("infantry", "foot_artillery", {}, {}, 0, -3),
        ("infantry", "hq_division", {}, {}, 0, -3),
        ("infantry", "infantry", {}, {"a_support": 2}, 2, 0),
        ("infantry", "infantry", {}, {"a_higher": True, "b_hq_contact": True}, 1, 1),
    ],
)
def test_melee_modifiers(
    tmp_path: Path, a: str, b: str, bflags: dict, stated: dict, a_dm: int, b_dm: int
) -> None:
    hq = [rd("H", "hq_division")] if "b_hq_contact" in stated else None  # (one in play)
    g = _melee(tmp_path, bl("B", a), rd("R", b, **bflags), hq)
    o = g.odds("melee", attacker="B", defender="R", contact=True, **stated)[0]
    assert (sum(m.value for m in o.modifiers), sum(m.value for m in o.b_modifiers)) == (a_dm, b_dm)


def test_attacker_subsequent_melee(tmp_path: Path) -> None:
    g = _melee(tmp_path, bl("B", "infantry"), rd("R", "infantry"), [rd("R2", "infantry")])
    g.do("melee", [4, 3], attacker="B", defender="R", contact=True)
    r = g.do("melee", [5, 3], attacker="B", defender="R2", contact=True).rolls[0]
    assert mods(r.a) == -1


def test_who_may_not_initiate_melee(tmp_path: Path) -> None:
    g = _melee(
        tmp_path, bl("B", "infantry"), rd("R", "light_cavalry"), [bl("A", "horse_artillery")]
    )
    assert "Melee" in g.refused("melee", [6, 1], attacker="B", defender="R", contact=True)
    assert "Melee" in g.refused("melee", [6, 1], attacker="A", defender="R", contact=True)


def test_rout_contagion_double_star(tmp_path: Path) -> None:
    # the defender routs (3); red Militia [2] away routs too; Cossacks [2.5] too; red line
    # infantry [1] away does not; red Militia [3.5] away does not
    ry = facing_red(0)
    extra = [
        rd("M", "militia", 300 + 25 + 2 * N, ry),
        rd("K", "cossacks", 300 - 25 - 2.5 * N, ry),
        rd("I", "infantry", 300, ry + 12 + N),
        rd("M2", "militia", 300 + 25 + 3.5 * N, ry + 200),
    ]
    g = _melee(tmp_path, *_pair(), extra)
    g.do("melee", [6, 3, 4, 5, 1], attacker="B", defender="R", contact=True)
    assert g.u("R").disrupted and g.u("R").routed
    assert g.u("M").routed or g.u("M").status == "destroyed"
    assert g.u("K").routed or g.u("K").status == "destroyed"
    routed = {u for u in ("M", "K") if g.u(u).status == "destroyed"}
    assert len(routed) == 1  # one of the two contagion rolls was a 1
    assert not g.u("I").routed and not g.u("I").disrupted
    assert not g.u("M2").routed


def test_voluntary_rout_triple_star_only(tmp_path: Path) -> None:
    g = T(
        tmp_path, [bl("L", "light", 300, 100), bl("I", "infantry", 400, 100), rd("R", "infantry")]
    )
    g.refused("rout", [4], unit="I")
    g.do("rout", [4], unit="L")
    assert g.u("L").disrupted and g.u("L").routed


# -- 2 by 2, Game Setup ----------------------------------------------------------------------
def _setup(tmp_path: Path) -> T:
    units = [bl(f"B{i}", "infantry") for i in range(1, 9)]
    units += [rd(f"R{i}", "infantry") for i in range(1, 9)]
    return T(tmp_path, units, start="setup")


def test_setup_roll_high_attacks_ties_extra_ap(tmp_path: Path) -> None:
    g = _setup(tmp_path)
    g.refused("deploy", unit="B1", x=300, y=50)  # roll first
    out = g.do("setup_roll", [3, 3, 2, 5])  # a tie, then red high
    assert len(out.rolls[0].draws) == 1
    s = g.game.state
    assert s.attacker == "red" and s.defender == "blue"
    assert "12" in out.message
    # Def deploys first: 12 AP + 12 extra = 24 AP = 12 infantry (2 AP); we have 8 (16 AP)
    g.refused("deploy", unit="R1", x=300, y=550)  # the Attacker waits
    g.refused("deploy", unit="B1", x=300, y=9 * N)  # not within [8] of his edge
    g.refused("deploy", unit="B1", x=2 * N, y=50)  # within [4] of the side
    g.do("deploy", unit="B1", x=300, y=50)


def test_setup_twelve_ap_limit(tmp_path: Path) -> None:
    g = _setup(tmp_path)
    g.do("setup_roll", [2, 5])
    for i in range(1, 7):  # 6 x 2 AP = 12 AP
        g.do("deploy", unit=f"B{i}", x=100 + 40 * i, y=50)
    assert "AP" in g.refused("deploy", unit="B7", x=400, y=80)


def test_setup_reinforcement_points(tmp_path: Path) -> None:
    g = _setup(tmp_path)
    g.do("setup_roll", [2, 5])  # red attacks
    g.do("deploy", unit="B1", x=100, y=50)
    g.do("next")
    g.do("deploy", unit="R1", x=300, y=560)
    g.do("next")
    g.refused("rp", x=300, y=300, units=["B2"])  # not on the Def's edge
    g.do("rp", x=300, y=0, units=["B2"])
    # Att: a flank RP within [8] of a defending unit or RP is refused
    g.refused("rp", x=0, y=50, units=["R2"])
    g.do("rp", x=0, y=400, units=["R2"])
    g.do("rp", x=500, y=0, units=["B3"])
    g.do("rp", x=300, y=609.6, units=["R3"])
    s = g.game.state
    assert s.stage == "battle" and s.phase == "move" and s.actor == "blue"  # Def moves first


# -- CLI round trip ----------------------------------------------------------------------------
def test_cli_shoot_with_forced_die(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "cli.db")
    scn = tmp_path / "s.toml"
    ry = facing_red(2.5)
    scn.write_text(
        f"""title = "cli"
start = "battle"
attacker = "red"
[table]
width = 609.6
depth = 609.6
[[sides]]
id = "blue"
edge = "south"
[[sides]]
id = "red"
edge = "north"
[[units]]
id = "B"
side = "blue"
type = "infantry"
x = 300
y = 100
facing = 0
[[units]]
id = "A"
side = "red"
type = "foot_artillery"
x = 300
y = {ry}
facing = 180
"""
    )
    assert main(["--db", db, "2x2", "new", "g", "--scenario", str(scn), "--seed", "1"]) == 0
    for _ in range(2):
        assert main(["--db", db, "2x2", "next"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "2x2", "shoot", "firer=A", "target=B", "--dice", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "pinned" in json.dumps(data)
    # out of phase: one line, exit 2
    assert main(["--db", db, "2x2", "move", "unit=B", "to=[300,120]"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Sequence of play" in err


def test_refusals_are_vedette_errors(tmp_path: Path) -> None:
    g = T(tmp_path, [bl("B", "infantry", 300, 100), rd("R", "infantry", 300, 500)])
    with pytest.raises(VedetteError):
        g.do("move", unit="NOPE", to=[1, 1])


# -- more edge cases ---------------------------------------------------------------------------
def test_charged_infantry_turns_to_face_and_fires(tmp_path: Path) -> None:
    # Moving to contact: infantry may turn to face when charged (not engaged) and may fire on
    # the charging unit. Red line stands side-on (facing east); blue charges its flank.
    ry = 100 + 3 * N + 18.5
    g = T(tmp_path, [bl("B", "infantry", 300, 100), rd("R", "infantry", 300, ry, facing=90)])
    out = g.do("move", unit="B", to=[300, 100 + 3 * N])
    assert out.details["move"]["contacts"] == ["R"]
    g.do("face", unit="R", toward="B")
    assert abs((g.u("R").body.facing - 180) % 360) < 1  # now faces its charger
    r = g.do("shoot", [4], firer="R", target="B").rolls[0]
    assert r.final == 5 and r.row == "pinned"  # 4 + 1 first volley
    assert g.u("R").pinned and g.u("R").shot
    g.until("shoot", "red")
    g.refused("shoot", [6], firer="R", target="B")  # that was its one shot


def test_charged_infantry_engaged_may_not_turn(tmp_path: Path) -> None:
    # "if not engaged": red already in contact with blue B2 in front may not turn to B
    ry = 100 + 3 * N + 18.5
    units = [
        bl("B", "infantry", 300, 100),
        rd("R", "infantry", 300, ry, facing=90),
        bl("B2", "infantry", 300 + 6 + 6, ry, facing=270),
    ]
    g = T(tmp_path, units)
    g.do("move", unit="B", to=[300, 100 + 3 * N])
    g.refused("face", unit="R", toward="B")


def test_overlap_support_measured(tmp_path: Path) -> None:
    # two blue units both touching one red unit: one melee, +1 for the extra unit beyond 1
    units = [
        bl("B", "infantry", 300, 100),
        bl("B2", "infantry", 325.5, 100),
        rd("R", "infantry", 312.75, facing_red(0)),
    ]
    g = _melee(tmp_path, units[0], units[1], [units[2]])
    o = g.odds("melee", attacker="B", defender="R", contact=True)[0]
    assert sum(m.value for m in o.modifiers) == 1


def test_light_cavalry_vs_infantry_no_cavalry_penalty(tmp_path: Path) -> None:
    # Light Cavalry -1 only vs other cavalry; vs ordered infantry only the -2
    g = _melee(tmp_path, bl("B", "light_cavalry"), rd("R", "infantry"))
    o = g.odds("melee", attacker="B", defender="R", contact=True)[0]
    assert sum(m.value for m in o.modifiers) == -2


def test_attacker_subsequent_melee_is_at_most_minus_one(tmp_path: Path) -> None:
    g = _melee(
        tmp_path,
        bl("B", "infantry"),
        rd("R", "infantry"),
        [rd("R2", "infantry"), rd("R3", "infantry")],
    )
    g.do("melee", [5, 3], attacker="B", defender="R", contact=True)
    g.do("melee", [5, 3], attacker="B", defender="R2", contact=True)
    r = g.do("melee", [5, 3], attacker="B", defender="R3", contact=True).rolls[0]
    assert mods(r.a) == -1  # (max.)


def test_countercharge_melee_resolved_in_next_melee_phase(tmp_path: Path) -> None:
    g = T(tmp_path, [bl("M", "infantry"), rd("C", "heavy_cavalry")])
    g.do("move", unit="M", distance=2)
    g.until("shoot", "red")
    g.do("countercharge", unit="C", target="M", distance=3, within=True)
    g.do("next")  # phase 4: the melee phase (Player 1 resolves melees)
    r = g.do("melee", [5, 3], attacker="C", defender="M").rolls[0]
    # heavy cavalry +2, cavalry vs ordered infantry -2: 5 - 3 = 2 -> infantry recoils
    assert r.row == "defender_recoils"


def test_cavalry_through_town_may_not_countercharge_same_turn(tmp_path: Path) -> None:
    g = T(tmp_path, [bl("C", "light_cavalry"), rd("M", "infantry")])
    g.do("move", unit="C", distance=4, town=1)  # blue's move phase, through a town
    g.until("move", "red")
    g.do("move", unit="M", distance=2)
    g.until("shoot", "blue")  # phase 7, same turn
    assert "town" in g.refused("countercharge", unit="C", target="M", distance=3, within=True)


def test_road_through_town_measured_no_bonus(tmp_path: Path) -> None:
    road = {"kind": "road", "name": "road", "line": [[300, 0], [300, 609.6]], "width": 12}
    town = {"kind": "town", "name": "t", "area": [[250, 180], [350, 180], [350, 200], [250, 200]]}
    units = [bl("B", "infantry", 300, 100), rd("R", "infantry", 500, 500)]
    g = T(tmp_path, units, (road,))
    out = g.do("move", unit="B", to=[300, 100 + 4.8 * N])  # road: [5]
    assert out.details["move"]["allowance"] == pytest.approx(5)
    p = tmp_path / "t"
    p.mkdir()
    g = T(p, units, (road, town))
    # through the town: allowance [4], the town part counts double
    msg = g.refused("move", unit="B", to=[300, 100 + 4.8 * N])
    assert "Movement" in msg


def test_stream_measured_costs_one(tmp_path: Path) -> None:
    stream = {"kind": "stream", "name": "s", "line": [[0, 140], [609.6, 140]]}
    g = T(tmp_path, [bl("B", "infantry", 300, 100), rd("R", "infantry", 500, 500)], (stream,))
    g.refused("move", unit="B", to=[300, 100 + 3.5 * N])
    out = g.do("move", unit="B", to=[300, 100 + 3 * N])
    assert out.details["move"]["cost"] == pytest.approx(4, abs=1e-6)


def test_woods_measured(tmp_path: Path) -> None:
    woods = {"kind": "woods", "name": "w", "area": [[0, 120], [609.6, 120], [609.6, 300], [0, 300]]}
    units = [
        bl("B", "infantry", 300, 100),
        bl("L", "light", 400, 100),
        rd("R", "infantry", 500, 500),
    ]
    g = T(tmp_path, units, (woods,))
    g.refused("move", unit="B", to=[300, 100 + 2 * N])
    g.do("move", unit="L", to=[400, 100 + 2 * N])


def test_reinforcement_enters_within_four_of_rp(tmp_path: Path) -> None:
    rps = ({"id": "rear", "side": "blue", "kind": "rear", "at": [300, 0], "queue": ["B2"]},)
    units = [bl("B", "infantry", 100, 100), rd("R", "infantry", 300, 500)]
    units.append(bl("B2", "infantry", status="reserve"))
    g = T(tmp_path, units, rps=rps)
    g.do("reinforce", [3], rp="rear")
    # the base's near corner [4.3] from the RP: refused
    g.refused("move", unit="B2", path=[[300 + 5 * N, 6], [300 + 5 * N, 50]])
    g.do("move", unit="B2", path=[[300 + 3.5 * N, 6], [300 + 3.5 * N, 50]])
    assert g.u("B2").on_table


def test_rally_removes_one_marker(tmp_path: Path) -> None:
    g = _rally(tmp_path, "infantry", pinned=True, disrupted=True)
    assert g.do("rally", [6], unit="U").rolls[0].final == 5  # 6 - 1 disrupted
    u = g.u("U")
    assert not u.disrupted and u.pinned
    g.refused("rally", [6], unit="U")  # one try per rally phase


def test_rout_contagion_chain_and_from_shooting(tmp_path: Path) -> None:
    # the target routs from shooting; Militia M1 [2] away routs; Militia M2 [2] beyond M1
    # (over [3] from the target) routs from M1's rout
    units = [
        bl("T", "infantry", 300, 100),
        bl("M1", "militia", 325 + 2 * N, 100),
        bl("M2", "militia", 350 + 4 * N, 100),
        _art(1),
    ]
    g = T(tmp_path, units)
    g.until("shoot", "red")
    # canister +1, enfilade stated +2: 5 + 3 = 8 routs; rout dice 3, 4, 5: all flee
    g.do("shoot", [5, 3, 4, 5], firer="A", target="T", enfilade=True)
    assert all(g.u(x).routed and g.u(x).disrupted for x in ("T", "M1", "M2"))


def test_shot_marker_clears_next_turn(tmp_path: Path) -> None:
    g = _shoot(tmp_path, _art(2.5), bl("B", "infantry", 300, 100))
    g.do("shoot", [1], firer="A", target="B")
    for _ in range(8):
        g.do("next")
    assert g.game.state.phase == "shoot" and g.game.state.actor == "red"
    g.do("shoot", [1], firer="A", target="B")


def test_setup_tie_gives_each_side_extra_twelve_ap(tmp_path: Path) -> None:
    g = _setup(tmp_path)
    g.do("setup_roll", [4, 4, 5, 2])  # tie, then blue high: blue attacks, red defends
    assert g.game.state.attacker == "blue"
    for i in range(1, 8):  # 7 x 2 AP = 14 AP > 12: allowed with the extra 12
        g.do("deploy", unit=f"R{i}", x=100 + 50 * i, y=580)


def test_destroyed_units_count_toward_victory(tmp_path: Path) -> None:
    # Melee 4-5: destroyed, removed from play and counted toward victory conditions
    g = _melee(tmp_path, *_pair("infantry", "guard"))
    g.do("melee", [6, 1], attacker="B", defender="R", contact=True)  # 6 - (1 + 1) = 4
    assert g.u("R").status == "destroyed"
    assert g.game.state.score("blue") == 3 and g.game.state.score("red") == 0  # Guard: 3 AP


def test_higher_than_opponent_measured(tmp_path: Path) -> None:
    hill = {"kind": "hill", "name": "h", "area": [[250, 60], [350, 60], [350, 106], [250, 106]]}
    a, b = _pair()
    g = T(tmp_path, [a, b], (hill,))
    g.until("melee", "blue")
    o = g.odds("melee", attacker="B", defender="R", contact=True)[0]
    assert (sum(m.value for m in o.modifiers), sum(m.value for m in o.b_modifiers)) == (1, 0)


@pytest.mark.parametrize("kind", ["guard", "light", "militia"])
def test_no_infantry_type_initiates_against_cavalry(tmp_path: Path, kind: str) -> None:
    g = _melee(tmp_path, bl("B", kind), rd("R", "cossacks"))
    g.refused("melee", [6, 1], attacker="B", defender="R", contact=True)


@pytest.mark.parametrize(
    ("att", "dfn"),
    [("heavy_cavalry", "foot_artillery"), ("cossacks", "infantry"), ("hq_division", "infantry")],
)
def test_others_may_initiate(tmp_path: Path, att: str, dfn: str) -> None:
    # only the two prohibitions of the text: cavalry and HQs may initiate
    g = _melee(tmp_path, bl("B", att), rd("R", dfn))
    o = g.odds("melee", attacker="B", defender="R", contact=True)[0]
    assert sum(r.p for r in o.rows) == 1


@pytest.mark.parametrize("kind", ["heavy_cavalry", "cossacks", "hq_corps", "hq_division"])
def test_units_without_range_cannot_shoot(tmp_path: Path, kind: str) -> None:
    g = _shoot(tmp_path, rd("A", kind), bl("B", "infantry"))
    assert "Unit Summary" in g.refused("shoot", [6], firer="A", target="B", range=1)


# -- measured distances exactly at a rule's figure count as "within" ---------------------------
def test_musket_ranges_at_their_edges_measured(tmp_path: Path) -> None:
    g = _shoot(tmp_path, rd("I", "infantry", 300, facing_red(1)), bl("B", "infantry", 300, 100))
    assert "musket" in g.do("shoot", [3], firer="I", target="B").rolls[0].label
    p = tmp_path / "two"
    p.mkdir()
    firer = rd("I", "infantry", 300, facing_red(2), screened=True)
    g = _shoot(p, firer, bl("B", "infantry", 300, 100))
    r = g.do("shoot", [6], firer="I", target="B").rolls[0]
    assert r.final == 8 and r.row == "pinned"  # over [1]: at most pinned


def test_countercharge_at_exactly_half_move(tmp_path: Path) -> None:
    g = T(tmp_path, [bl("M", "infantry", 300, 100), rd("C", "light_cavalry", 300, 152 + 4 * N)])
    g.do("move", unit="M", to=[300, 140])
    g.until("shoot", "red")
    g.do("countercharge", unit="C", target="M", to=[300, 152])  # "a 1/2 move or less"


def test_rally_at_exactly_four_from_div_hq_and_two_from_enemy(tmp_path: Path) -> None:
    units = [
        bl("U", "guard", 300, 100, pinned=True),
        bl("H", "hq_division", 325 + 4 * N, 100),  # exactly [4]: not "more than [4]"
        rd("R", "infantry", 300, facing_red(2)),  # exactly [2]: "within [2]"
    ]
    g = T(tmp_path, units)
    g.do("next")
    r = g.do("rally", [6], unit="U").rolls[0]
    assert r.final == 5 and r.row == "rallies"  # 6 + 1 - 2


def test_contagion_at_exactly_three(tmp_path: Path) -> None:
    ry = facing_red(0)
    g = _melee(tmp_path, *_pair(), [rd("M", "militia", 325 + 3 * N, ry)])
    g.do("melee", [6, 3, 4, 4], attacker="B", defender="R", contact=True)
    assert g.u("M").routed


def test_rally_and_countercharge_only_by_the_side_whose_phase_it_is(tmp_path: Path) -> None:
    units = [
        bl("C", "heavy_cavalry"),
        rd("M", "infantry"),
        rd("P", "infantry", pinned=True),
        bl("Q", "infantry", pinned=True),
    ]
    g = T(tmp_path, units)
    g.do("next")  # phase 2: Player 1 (blue) rallies; red may not
    assert "Sequence of play" in g.refused("rally", [6], unit="P", in_command=True)
    g.do("rally", [6], unit="Q", in_command=True)
    g.do("next")  # phase 3: Player 2 (red) shoots / counter-charges; blue's cavalry may not
    assert "Sequence of play" in g.refused(
        "countercharge", unit="C", target="M", distance=2, within=True
    )
