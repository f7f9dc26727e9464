"""2 by 2 Napoleonics (seed 003), sentence by sentence, as an outsider holding the text would
check it: each test names the heading and quotes the sentence it holds vedette to, drives the
game through the public ``Game`` API (``tests/two_by_two/battle.py``; forced dice where dice
matter) and asserts what the text says happens: where units stand and in what state, what is
owed, what is refused and under which heading, the exact odds. Sentences that
``tests/acceptance/test_accept_2x2.py`` or the other files here already pin exactly are not
repeated. Blue stands at the south edge facing north, red at the north edge facing south;
[1] = 19.05 mm; a unit is one 25 x 12 mm base (2 by 2, Scale).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from tests.two_by_two.battle import Battle
from vedette import rules
from vedette.engine import Game, Store
from vedette.errors import RuleViolation
from vedette.rules.two_by_two import setup
from vedette.sim.play import Setup, play_game

N = 19.05  # mm per [1]


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


def ahead(gap: float, y_blue: float = 100.0) -> float:
    """y of a red unit (facing south) whose front edge is ``gap`` [n] from the front edge of a
    blue unit (facing north) at ``y_blue`` on the same x."""
    return y_blue + 12 + gap * N


def refused(b: Battle, proc: str, dice: list[int] | None = None, **req: Any) -> str:
    """The refusal's one line (it names the heading); nothing changed."""
    before = b.state
    with pytest.raises(RuleViolation) as e:
        b.do(proc, dice, **req)
    assert b.state is before
    msg = str(e.value)
    assert "2 by 2" in msg and "\n" not in msg
    return msg


def offered(b: Battle, proc: str, **req: Any) -> list[Any]:
    """``todo``'s lines for ``proc`` whose request has ``req``."""
    return [
        t
        for t in b.todo()
        if t.procedure == proc and all(t.request.get(k) == v for k, v in req.items())
    ]


def mods(roll: Any) -> int:
    return int(roll.final - roll.natural)


# -- 2 by 2, Sequence of play: "Player 1 Resolves Melees" -------------------------------------
def test_what_next_says_was_left_undone_is_what_todo_offered() -> None:
    # Red light cavalry C is charged by blue heavy cavalry; blue infantry M moves within [4]
    # of it. In red's shooting phase C is in a melee: todo does not offer its counter-charge
    # at M, and ending the phase does not say it was left undone (nor its voluntary rout, a
    # choice a player may as well leave: T3).
    b = Battle.quick(
        [
            bl("B1", "heavy_cavalry", 300, 100),
            bl("M", "infantry", 400, 100),
            rd("C", "light_cavalry", 300, ahead(3)),
        ]
    )
    b.do("charge", unit="B1", into="C")
    b.do("advance", unit="M", distance=2)
    b.until("shoot", "red")
    assert not offered(b, "countercharge")
    refused(b, "countercharge", unit="C", target="M")
    assert offered(b, "rout", unit="C")
    msg = b.do("next").message
    assert "left undone" not in msg


# -- 2 by 2, Moving to contact: "Infantry may turn to face when charged if not engaged and may
# fire on charging unit"; Resolving shooting: "Disrupted: may not move or fire" ---------------
def _flank_charge(**red: Any) -> Battle:
    # red R stands side-on (facing east); blue heavy cavalry charges its flank from the south
    ry = 100 + 3 * N + 18.5
    b = Battle.quick(
        [
            bl("B", "heavy_cavalry", 300, 100),
            rd("R", red.pop("kind", "infantry"), 300, ry, facing=90, **red),
        ]
    )
    b.do("move", unit="B", to=[300, 100 + 3 * N])
    assert [m.defender for m in b.state.melees] == ["R"]
    return b


def test_a_disrupted_charged_infantry_unit_neither_turns_nor_fires() -> None:
    b = _flank_charge(disrupted=True)
    assert not offered(b, "face") and not offered(b, "shoot")
    assert "Resolving shooting" in refused(b, "face", unit="R", toward="B")
    refused(b, "shoot", [6], firer="R", target="B")


def test_a_pinned_charged_infantry_unit_turns_and_fires_normally() -> None:
    # Pinned: "may only change facing, may fire normally" (no first volley: it is pinned)
    b = _flank_charge(pinned=True)
    assert offered(b, "face", unit="R") and offered(b, "shoot", firer="R")
    b.do("face", unit="R", toward="B")
    assert b.state.unit("R").body.facing == pytest.approx(180)
    r = b.do("shoot", [4], firer="R", target="B").rolls[0]
    assert (r.final, r.row) == (6, "pinned")  # 4 + 2 (target is cavalry), no first volley


@pytest.mark.parametrize("kind", ["militia", "guard", "light"])
def test_every_kind_of_infantry_may_turn_to_face_its_charger(kind: str) -> None:
    b = _flank_charge(kind=kind)
    b.do("face", unit="R", toward="B")
    assert b.state.unit("R").body.facing == pytest.approx(180)


@pytest.mark.parametrize("kind", ["heavy_cavalry", "foot_artillery", "hq_division"])
def test_only_infantry_turns_to_face_a_charge(kind: str) -> None:
    b = _flank_charge(kind=kind)
    assert not offered(b, "face")
    assert "Moving to contact" in refused(b, "face", unit="R", toward="B")


# -- 2 by 2, Moving to contact: "Cavalry may counter-charge an enemy unit which moves within a
# 1/2 move or less" (each cavalry's own move: heavy [6] -> [3], Cossacks [10] -> [5]) ---------
@pytest.mark.parametrize(
    ("kind", "gap", "ok"),
    [
        ("heavy_cavalry", 2.9, True),
        ("heavy_cavalry", 3.2, False),
        ("cossacks", 4.9, True),
        ("cossacks", 5.2, False),
        ("lancers", 3.9, True),
    ],
)
def test_counter_charge_reach_is_half_the_cavalrys_own_move(
    kind: str, gap: float, ok: bool
) -> None:
    # blue M ends its move with its front edge at y=146; red C's front edge ``gap`` [n] away
    b = Battle.quick([bl("M", "infantry", 300, 100), rd("C", kind, 300, 152 + gap * N)])
    b.do("move", unit="M", to=[300, 140])
    b.until("shoot", "red")
    if ok:
        assert offered(b, "countercharge", unit="C")
        b.do("countercharge", unit="C", target="M")
        assert b.state.melees[-1].attacker == "C" and b.state.melees[-1].counter_charge
    else:
        assert not offered(b, "countercharge", unit="C")
        assert "Moving to contact" in refused(b, "countercharge", unit="C", target="M")


def test_pinned_cavalry_does_not_counter_charge() -> None:
    # Pinned: "may only change facing"
    b = Battle.quick(
        [bl("M", "infantry", 300, 100), rd("C", "heavy_cavalry", 300, 152 + 2 * N, pinned=True)]
    )
    b.do("move", unit="M", to=[300, 140])
    b.until("shoot", "red")
    assert not offered(b, "countercharge")
    refused(b, "countercharge", unit="C", target="M")


def test_cavalry_through_a_town_may_not_charge_that_move_measured() -> None:
    # "Cavalry may not move to contact on same turn it moves through a town"
    town = {"kind": "town", "name": "t", "area": [[250, 120], [350, 120], [350, 140], [250, 140]]}
    b = Battle.quick(
        [bl("C", "light_cavalry", 300, 100), rd("R", "infantry", 300, ahead(4))], [town]
    )
    assert "Moving to contact" in refused(b, "move", unit="C", to=[300, 100 + 4 * N])
    p = Battle.quick([bl("C", "light_cavalry", 300, 100), rd("R", "infantry", 300, ahead(4))])
    p.do("move", unit="C", to=[300, 100 + 4 * N])
    assert p.state.melees[-1].defender == "R"


# -- 2 by 2, Movement Modifiers --------------------------------------------------------------
def test_road_bonus_only_when_the_entire_move_is_on_the_road() -> None:
    # "Road - Unit spends entire move on road, add [1]": [4.8] along the road is allowed;
    # [4.5] that ends off the road is not ([4] without the bonus)
    road = {"kind": "road", "name": "r", "line": [[300, 0], [300, 609.6]], "width": 12}
    units = [bl("B", "infantry", 300, 100), rd("R", "infantry", 500, 550)]
    b = Battle.quick(units, [road])
    assert b.do("move", unit="B", to=[300, 100 + 4.8 * N]).details["move"]["allowance"] == (
        pytest.approx(5)
    )
    b = Battle.quick(units, [road])
    assert "Movement" in refused(
        b, "move", unit="B", path=[[300, 100 + 3 * N], [300 + 1.5 * N, 100 + 3 * N]]
    )


@pytest.mark.parametrize("kind", ["copse", "hedge", "wall"])
def test_hedges_walls_and_copses_cost_nothing(kind: str) -> None:
    shape: dict[str, Any] = (
        {"area": [[250, 130], [350, 130], [350, 160], [250, 160]]}
        if kind == "copse"
        else {"line": [[0, 140], [609.6, 140]]}
    )
    b = Battle.quick(
        [bl("B", "infantry", 300, 100), rd("R", "infantry", 500, 550)],
        [{"kind": kind, "name": kind, **shape}],
    )
    out = b.do("move", unit="B", to=[300, 100 + 4 * N])
    assert out.details["move"]["cost"] == pytest.approx(4, abs=1e-6)


@pytest.mark.parametrize(("kind", "ok"), [("infantry", False), ("cossacks", True), ("light", True)])
def test_rough_is_woods_impassable_but_to_light_infantry_and_cossacks(kind: str, ok: bool) -> None:
    rough = {"kind": "rough", "name": "r", "area": [[0, 120], [609.6, 120], [609.6, 300], [0, 300]]}
    b = Battle.quick([bl("B", kind, 300, 100), rd("R", "infantry", 500, 550)], [rough])
    if not ok:
        assert "Movement" in refused(b, "move", unit="B", to=[300, 100 + 2 * N])
        return
    out = b.do("move", unit="B", to=[300, 100 + 2 * N])
    # [2] straight on, the part inside the rough at half rate: more than [2]
    assert out.details["move"]["cost"] > 2 + 0.5


# -- 2 by 2, Reinforcements ------------------------------------------------------------------
def test_reinforcements_arrive_in_their_order_of_appearance() -> None:
    # Game Setup: "places reinforcements he intends to arrive there next to it in order of
    # appearance": the first success brings the first queued, the second the next
    rps = [{"id": "rear", "side": "blue", "kind": "rear", "at": [300, 0], "queue": ["B3", "B2"]}]
    b = Battle.quick(
        [
            bl("B", "infantry", 100, 100),
            rd("R", "infantry", 300, 500),
            bl("B2", "infantry", status="reserve"),
            bl("B3", "guard", status="reserve"),
        ],
        rps=rps,
    )
    b.do("reinforce", [3], rp="rear")
    assert b.state.unit("B3").status != "reserve" and b.state.unit("B2").status == "reserve"
    b.do("reinforce", [6], rp="rear")
    assert b.state.unit("B2").status != "reserve"


# -- 2 by 2, Rallying -------------------------------------------------------------------------
def test_light_cavalry_is_not_light_for_rallying() -> None:
    # "Guards/Grenadiers/Light +1" (the Light infantry): light cavalry rallies on 5+ unmodified
    b = Battle.quick(
        [bl("U", "light_cavalry", 300, 100, pinned=True), bl("H", "hq_division", 400, 100)]
    )
    b.do("next")
    r = b.do("rally", [4], unit="U").rolls[0]
    assert (r.final, r.row) == (4, "fails")


def test_hq_rallying_itself_needs_no_hq_near_and_gets_plus_two() -> None:
    b = Battle.quick([bl("H", "hq_corps", 300, 100, pinned=True), rd("R", "infantry", 300, 500)])
    b.do("next")
    assert b.odds("rally", unit="H")[0].p("rallies") == Fraction(2, 3)  # 3+ on 1d6
    r = b.do("rally", [3], unit="H").rolls[0]
    assert (r.final, r.row) == (5, "rallies")


def test_rally_odds_with_every_modifier_of_a_guard_beside_its_hq_near_the_enemy() -> None:
    # Guards +1, HQ in contact +1, enemy within [2] -2, disrupted -1: 5+ needs a 6 (1/6)
    b = Battle.quick(
        [
            bl("U", "guard", 300, 100, disrupted=True),
            bl("H", "hq_division", 325.5, 100),
            rd("R", "infantry", 300, ahead(1.5)),
        ]
    )
    b.do("next")
    assert b.odds("rally", unit="U")[0].p("rallies") == Fraction(1, 6)


# -- 2 by 2, Resolving shooting ---------------------------------------------------------------
def _shot(target: dict, firer: dict, *extra: dict, terrain: tuple = ()) -> Battle:
    b = Battle.quick([target, firer, *extra], list(terrain))
    b.until("shoot", "red")
    return b


def test_enfilade_from_the_rear() -> None:
    # "Enfilade (target fired on flank or rear) +2": artillery [2.5] behind the target
    b = _shot(
        bl("B", "infantry", 300, 300), rd("A", "foot_artillery", 300, 300 - 12 - 2.5 * N, facing=0)
    )
    assert mods(b.do("shoot", [3], firer="A", target="B").rolls[0]) == 2


def test_wall_in_front_of_infantry_is_cover() -> None:
    # "Target is Infantry in cover behind wall or hedge -1"
    wall = {"kind": "wall", "name": "w", "line": [[200, 110], [400, 110]]}
    b = _shot(
        bl("B", "infantry", 300, 100), rd("A", "foot_artillery", 300, ahead(2.5)), terrain=(wall,)
    )
    assert mods(b.do("shoot", [3], firer="A", target="B").rolls[0]) == -1


@pytest.mark.parametrize("kind", ["guard", "light", "militia"])
def test_every_infantry_that_shoots_is_pinned(kind: str) -> None:
    # "Any Infantry unit that shoots is automatically Pinned ... immediately upon firing"
    b = _shot(bl("B", "infantry", 300, 100), rd("I", kind, 300, ahead(0.5)))
    b.do("shoot", [1], firer="I", target="B")
    assert b.state.unit("I").pinned


def test_artillery_beyond_one_is_not_capped_at_pinned() -> None:
    # "Infantry firing over [1], may only cause a Pinned result": artillery at short range on
    # cavalry, 6 + 2 = 8 routs
    b = _shot(bl("B", "heavy_cavalry", 300, 100), rd("A", "foot_artillery", 300, ahead(3)))
    r = b.do("shoot", [6, 4], firer="A", target="B").rolls[0]
    assert (r.final, r.row) == (8, "rout")
    assert b.state.unit("B").disrupted


def test_shooting_odds_of_a_rout_and_its_roll() -> None:
    # canister +1, target cavalry +2: 1d6+3: 8+ on 5-6 (1/3), 7 on 4, 5-6 on 2-3, 4 on 1;
    # the rout roll: 1-2 destroyed (1/3)
    b = _shot(bl("B", "heavy_cavalry", 300, 100), rd("A", "foot_artillery", 300, ahead(1)))
    o = b.odds("shoot", firer="A", target="B")
    assert (o[0].p("rout"), o[0].p("disrupted"), o[0].p("pinned"), o[0].p("no_effect")) == (
        Fraction(1, 3),
        Fraction(1, 6),
        Fraction(1, 3),
        Fraction(1, 6),
    )
    ch = b.game.chances("shoot", {"firer": "A", "target": "B"})
    fates = {r.result.rsplit("; ", 1)[-1]: r.p for r in ch.rows}
    assert fates["destroyed"] == Fraction(1, 9)  # 1/3 x 1/3
    assert fates["moves a full move away, then disrupted"] == Fraction(2, 9)


def test_a_routed_unit_moves_a_full_move_away_then_is_disrupted() -> None:
    # "Routs: roll D6 on 1 or 2 destroyed, else, move max away then Disrupted": infantry [4]
    b = _shot(bl("B", "infantry", 300, 100), rd("A", "foot_artillery", 300, ahead(1)))
    b.do("shoot", [6, 3], firer="A", target="B", enfilade=True)  # 6 + 1 + 2 = 9
    u = b.state.unit("B")
    assert u.disrupted and u.body.centre.y == pytest.approx(100 - 4 * N, abs=0.5)


# -- 2 by 2, Melee --------------------------------------------------------------------------
def _contact(a: dict, b: dict, *extra: dict, terrain: tuple = ()) -> Battle:
    """A in base contact with B, in blue's melee phase (blue is Player 1)."""
    bt = Battle.quick([a, b, *extra], list(terrain))
    bt.until("melee", "blue")
    return bt


def _pair(akind: str = "infantry", bkind: str = "infantry", **bflags: Any) -> tuple[dict, dict]:
    return bl("B", akind, 300, 100), rd("R", bkind, 300, ahead(0), **bflags)


def test_an_attacker_that_loses_by_one_is_repulsed_two() -> None:
    # "1 Repulsed [2]": the loser (here the attacker) goes back [2] from the winner
    b = _contact(*_pair())
    r = b.do("melee", [3, 4], attacker="B", defender="R", contact=True).rolls[0]
    assert r.row == "attacker_repulsed"
    assert b.state.unit("B").body.centre.y == pytest.approx(100 - 2 * N, abs=0.01)
    assert b.state.unit("R").body.centre.y == pytest.approx(ahead(0))


def test_recoil_is_the_losers_own_full_move() -> None:
    # "2 Recoils full move": red heavy cavalry (move [6]) attacks blue infantry and loses by 2
    # (3 + 2 heavy - 2 vs ordered infantry = 3 against 5): it recoils [6] straight back
    b = Battle.quick([rd("R", "heavy_cavalry", 300, ahead(0)), bl("B", "infantry", 300, 100)])
    b.until("melee", "red")
    r = b.do("melee", [3, 5], attacker="R", defender="B", contact=True).rolls[0]
    assert r.row == "attacker_recoils"
    assert b.state.unit("R").body.centre.y == pytest.approx(ahead(0) + 6 * N, abs=0.01)
    assert b.state.unit("B").body.centre.y == pytest.approx(100)


def test_a_rout_in_melee_offers_a_voluntary_follow_up() -> None:
    # "3 Routs ... (voluntary follow-up)": todo offers it and its decline; next is not blocked
    b = _contact(*_pair())
    b.do("melee", [6, 3, 4], attacker="B", defender="R", contact=True)
    assert offered(b, "follow_up", unit="B") and not b.game.obligations()
    assert any(t.request.get("decline") for t in offered(b, "follow_up", unit="B"))


def test_six_plus_follow_up_is_owed_unless_the_winner_is_in_a_town_measured() -> None:
    # "6+ Destroyed (mandatory follow-up unless winner is in a town/village)"
    town = {"kind": "town", "name": "t", "area": [[250, 60], [350, 60], [350, 106], [250, 106]]}
    a, d = _pair("guard", disrupted=True)
    b = _contact(a, d, terrain=(town,))
    r = b.do("melee", [4, 1], attacker="B", defender="R", contact=True).rolls[0]
    assert r.difference >= 6 and b.state.unit("R").status == "destroyed"
    assert not b.game.obligations()
    b.do("next")
    b = _contact(*_pair("guard", disrupted=True))
    b.do("melee", [4, 1], attacker="B", defender="R", contact=True)
    assert [o.procedure for o in b.game.obligations()] == ["follow_up"]
    refused(b, "next")


def test_cavalry_in_a_town_measured_minus_two() -> None:
    # "Unit is Cavalry in town -2" (heavy cavalry +2, vs ordered infantry -2, in town -2)
    town = {"kind": "town", "name": "t", "area": [[250, 60], [350, 60], [350, 106], [250, 106]]}
    b = _contact(*_pair("heavy_cavalry"), terrain=(town,))
    o = b.odds("melee", attacker="B", defender="R", contact=True)[0]
    assert sum(m.value for m in o.modifiers) == -2


def test_hq_in_base_contact_measured_plus_one_in_melee() -> None:
    b = _contact(*_pair(), bl("H", "hq_division", 325.5, 100))
    o = b.odds("melee", attacker="B", defender="R", contact=True)[0]
    assert [m.value for m in o.modifiers] == [1]


@pytest.mark.parametrize(
    ("a", "bkind", "bflags", "a_dm"),
    [
        ("guard", "infantry", {"formation": "attack_column"}, 1),  # (b's +1 is b's)
        ("lancers", "light_cavalry", {"disrupted": True}, 3),  # -1 vs cav, +2 vs disr, +2 enemy
        ("light_cavalry", "lancers", {}, -1),
        ("hq_corps", "infantry", {}, -3),
    ],
)
def test_melee_modifiers_combined(a: str, bkind: str, bflags: dict, a_dm: int) -> None:
    b = _contact(*_pair(a, bkind, **bflags))
    o = b.odds("melee", attacker="B", defender="R", contact=True)[0]
    assert sum(m.value for m in o.modifiers) == a_dm


def test_artillery_defending_is_minus_three() -> None:
    # "Unit is Artillery/HQ -3" (artillery "cannot initiate melee": here it is attacked)
    b = Battle.quick([rd("R", "infantry", 300, ahead(0)), bl("B", "horse_artillery", 300, 100)])
    b.until("melee", "red")
    o = b.odds("melee", attacker="R", defender="B", contact=True)[0]
    assert (sum(m.value for m in o.modifiers), sum(m.value for m in o.b_modifiers)) == (0, -3)


def test_column_of_attack_is_for_infantry_only() -> None:
    b = Battle.quick([bl("C", "heavy_cavalry", 300, 100), rd("R", "infantry", 300, 500)])
    assert "Melee" in refused(b, "formation", unit="C", formation="attack_column")
    assert not [t for t in offered(b, "formation", unit="C") if "attack_column" in str(t.open)]


def test_formation_is_changed_before_the_unit_moves_not_after_a_charge() -> None:
    # Melee: "Column of attack (inf only) +1", "Unit in Road Column -2"; Movement Modifiers:
    # "spends entire move on a road (in Road Column)". A unit moves in the formation it
    # chose; one that charged does not form column of attack in contact (todo offers a
    # formation until the unit moves, and the referee accepts exactly that: reading 25)
    b = Battle.quick([bl("B", "infantry", 300, 100), rd("R", "infantry", 300, ahead(3))])
    b.do("charge", unit="B", into="R")
    assert not offered(b, "formation", unit="B")
    assert "Movement" in refused(b, "formation", unit="B", formation="attack_column")
    b = Battle.quick([bl("B", "infantry", 300, 100), rd("R", "infantry", 300, 500)])
    b.do("formation", unit="B", formation="attack_column")  # before it moves: free
    b.do("advance", unit="B", distance=1)
    assert not offered(b, "formation", unit="B")
    refused(b, "formation", unit="B", screen=True)
    assert b.state.unit("B").formation == "attack_column"


# -- 2 by 2, Game Setup ----------------------------------------------------------------------
def _setup() -> Battle:
    units = [bl(f"B{i}", "infantry") for i in range(1, 16)]
    units += [rd(f"R{i}", "infantry") for i in range(1, 16)]
    return Battle.quick(units, start="setup")


def test_each_tie_gives_each_side_another_twelve_ap_and_is_rolled_again() -> None:
    # "Ties = each may place an extra 12AP at start of game, then reroll. High score = Att"
    b = _setup()
    assert b.odds("setup_roll")[0].p("draw") == 0  # a tie is rolled again, never a result
    out = b.do("setup_roll", [2, 2, 5, 5, 1, 3])  # two ties, then red high
    assert len(out.rolls[0].draws) == 2
    assert (b.state.attacker, b.state.defender) == ("red", "blue")
    for i in range(1, 16):  # 15 x 2 AP = 30 AP of 12 + 2 x 12 = 36
        b.do("deploy", unit=f"B{i}", x=100 + 40 * ((i - 1) % 8), y=30 + 40 * ((i - 1) // 8))
    b.do("next")  # the Attacker deploys likewise
    assert "Game Setup" in refused(b, "deploy", unit="B1", x=300, y=50)
    for i in range(1, 16):
        b.do("deploy", unit=f"R{i}", x=100 + 40 * ((i - 1) % 8), y=580 - 40 * ((i - 1) // 8))
    assert sum(2 for u in b.state.units if u.status == "table") == 60


def test_the_attacker_deploys_likewise_within_eight_of_his_own_edge() -> None:
    # "The Def places 12AP of units within [8] of his base edge but no closer than [4] to the
    # side of the board. Att places 12AP likewise."
    b = _setup()
    b.do("setup_roll", [1, 6])  # red attacks; blue (Def) deploys first
    b.do("deploy", unit="B1", x=300, y=50)
    b.do("next")
    top = 609.6
    assert "Game Setup" in refused(b, "deploy", unit="R1", x=300, y=top - 9 * N)
    assert "Game Setup" in refused(b, "deploy", unit="R1", x=3.5 * N, y=top - 50)
    b.do("deploy", unit="R1", x=300, y=top - 7 * N)
    b.do("deploy", unit="R2", x=4 * N + 12.5, y=top - 50)  # exactly [4] from the side


def test_the_defenders_second_rp_is_on_his_own_edge_as_above() -> None:
    # "The Def then picks a second RP as above": on his defending edge, never a flank; the
    # Att's second RP "as above": his edge or a flank, not within [8] of a defending unit or RP
    b = _setup()
    b.do("setup_roll", [1, 6])
    b.do("deploy", unit="B1", x=300, y=50)
    b.do("next")
    b.do("deploy", unit="R1", x=300, y=560)
    b.do("next")
    b.do("rp", x=300, y=0, units=["B2"])
    b.do("rp", x=0, y=400, units=["R2"])
    assert "Game Setup" in refused(b, "rp", x=609.6, y=300, units=["B3"])  # a flank
    b.do("rp", x=560, y=0, units=["B3"])
    assert "Game Setup" in refused(b, "rp", x=609.6, y=7 * N, units=["R3"])  # [8] of B-RP
    b.do("rp", x=609.6, y=400, units=["R3"])
    s = b.state
    assert s.stage == "battle" and s.phase == "move" and s.actor == "blue"
    kinds = {r.id: (r.side, r.kind) for r in s.rps}
    assert sorted(kinds.values()) == [
        ("blue", "rear"),
        ("blue", "rear"),
        ("red", "flank"),
        ("red", "flank"),
    ]


# -- the sentences' consequences over a turn --------------------------------------------------
def test_an_infantry_unit_that_fired_stays_pinned_into_its_own_move_until_it_rallies() -> None:
    # Resolving shooting: "Any Infantry unit that shoots is automatically Pinned"; "Pinned: may
    # only change facing"; Rallying: "Roll 1D6 to remove a disrupted or pinned effect"
    b = Battle.quick(
        [
            bl("B", "infantry", 300, 100),
            rd("I", "infantry", 300, ahead(0.5)),
            rd("H", "hq_division", 325.5, ahead(0.5)),
        ]
    )
    b.until("shoot", "red")
    b.do("shoot", [1], firer="I", target="B")
    b.until("move", "red")
    assert b.state.unit("I").pinned
    assert not offered(b, "advance", unit="I") and offered(b, "turn", unit="I")
    assert "pinned" in refused(b, "advance", unit="I", distance=1)
    b.do("turn", unit="I", direction="about")
    b.do("next")  # red rallies: enemy within [2] -2 (footnote: it touches its HQ), HQ +1
    r = b.do("rally", [6], unit="I").rolls[0]
    assert (r.final, r.row) == (5, "rallies") and not b.state.unit("I").pinned


@pytest.mark.parametrize(("rout_die", "destroyed"), [(1, True), (4, False)])
def test_a_charger_routed_by_the_reaction_fire_leaves_no_melee(
    rout_die: int, destroyed: bool
) -> None:
    # Moving to contact: "may fire on charging unit"; Resolving shooting: 8+ "Routs: roll D6 on
    # 1 or 2 destroyed, else, move max away then Disrupted": 6 + 2 (cavalry) + 1 (first volley)
    b = Battle.quick([bl("B", "heavy_cavalry", 300, 100), rd("R", "infantry", 300, ahead(3))])
    b.do("charge", unit="B", into="R")
    contact_y = b.state.unit("B").body.centre.y
    b.do("shoot", [6, rout_die], firer="R", target="B")
    u = b.state.unit("B")
    assert not b.state.melees
    if destroyed:
        assert u.status == "destroyed" and b.state.score("red") == 3
    else:  # heavy cavalry's full move [6] away from its enemy, then disrupted
        assert u.disrupted and u.body.centre.y == pytest.approx(contact_y - 6 * N, abs=0.01)
    b.until("melee", "blue")
    assert not b.game.obligations()


def test_the_melee_a_counter_charge_starts_is_owed_in_the_next_melee_phase() -> None:
    # Sequence of play: "Player 2 Shoots ...; Cavalry Counter-charge / Player 1 Resolves
    # Melees": the phase may not end while the melee waits (waived only with a logged reason)
    b = Battle.quick([bl("M", "infantry", 300, 100), rd("C", "heavy_cavalry", 300, 152 + 2 * N)])
    b.do("move", unit="M", to=[300, 140])
    b.until("shoot", "red")
    b.do("countercharge", unit="C", target="M")
    b.do("next")
    assert (b.state.phase, b.state.actor) == ("melee", "blue")
    owed = [t for t in b.todo() if t.owed]
    assert [t.command() for t in owed] == ["melee attacker=C defender=M"]
    assert "melee attacker=C defender=M" in refused(b, "next")
    r = b.do("melee", [4, 4, 5, 3], attacker="C", defender="M").rolls[0]
    # a draw rolled again; then C 5 + 2 (heavy) - 2 (vs ordered infantry) = 5 vs 3: by 2
    assert r.row == "defender_recoils"
    b.do("next")


def test_a_lancer_charged_may_rout_voluntarily_with_exact_odds() -> None:
    # Unit Summary "*** may voluntarily rout" (Lancers): a rout like any other, 1-2 destroyed
    b = Battle.quick([bl("B", "heavy_cavalry", 300, 100), rd("L", "lancers", 300, ahead(3))])
    b.do("charge", unit="B", into="L")
    assert offered(b, "rout", unit="L")
    assert b.odds("rout", unit="L")[0].p("destroyed") == Fraction(1, 3)
    b.do("rout", [5], unit="L")
    u = b.state.unit("L")
    assert u.disrupted and u.routed and not b.state.melees


def test_what_next_names_is_todo_in_short_all_game_long() -> None:
    """``next``'s "left undone" (each procedure and unit todo would offer a line for, found
    without judging a group's later lines) is what the whole of ``todo`` says, at every step of
    a played game."""
    rs = rules.get("two_by_two")
    s = Setup(rs.name, rs.scenario("close"), max_actions=160)
    played = play_game(s, 2026, 1, record=True)
    g = Game.create(Store(":memory:"), "g", rs.name, dict(s.scenario), played.dice_seed, {})
    said = 0
    for proc, req in played.actions:
        st = g.state
        if st.stage == "battle":
            offered = setup.undone(st, (t for t in rs.todo(st) if not t.owed))
            full = setup.left_undone(offered, setup.MOVE_STEPS)
            said_now = rs._one_line_each(st)  # type: ignore[attr-defined]
            assert setup.left_undone(said_now, setup.MOVE_STEPS) == full
            said += bool(full)
        g.perform(proc, req)
    assert said > 20


def test_cavalry_in_a_pending_melee_does_not_counter_charge_and_is_not_named() -> None:
    # Moving to contact: "Cavalry may counter-charge an enemy unit which moves within a 1/2
    # move or less": red light cavalry C, charged by blue heavy cavalry, is in a melee still to
    # be fought; blue M then moves within its reach. C's counter-charge would leave that melee
    # (only a rout or a correction parts units in a pending melee: reading 38): refused, not
    # offered, and M's move does not say C may counter-charge it.
    b = Battle.quick(
        [
            bl("B1", "heavy_cavalry", 300, 100),
            bl("M", "infantry", 360, 100),
            rd("C", "light_cavalry", 300, ahead(3)),
        ]
    )
    b.do("charge", unit="B1", into="C")
    out = b.do("advance", unit="M", distance=2)
    assert out.details["move"]["countercharge_possible_by"] == []
    assert "counter-charged" not in out.message
    b.until("shoot", "red")
    assert not offered(b, "countercharge")
    assert "engaged with B1" in refused(b, "countercharge", unit="C", target="M")
    assert [(m.attacker, m.defender) for m in b.state.melees] == [("B1", "C")]


def test_a_charge_on_engaged_infantry_does_not_say_it_may_turn_and_fire() -> None:
    # Moving to contact: "Infantry may turn to face when charged if not engaged": red R is in
    # base contact with blue E when blue cavalry charges its flank; the charge does not say R
    # may turn to face and fire, todo does not offer it, and the referee refuses both
    b = Battle.quick(
        [
            bl("BC", "heavy_cavalry", 200, 300, facing=90),
            rd("R", "infantry", 300, 300),
            bl("E", "infantry", 300, 288),
        ]
    )
    out = b.do("move", unit="BC", path=[[200, 300], [300 - 6 - 12.5, 300]], facing=90)
    assert out.details["move"]["contacts"] == ["R"]
    assert out.details["move"]["may_turn_and_fire"] == [] and "turn to face" not in out.message
    assert not offered(b, "face") and not offered(b, "shoot")
    assert "engaged" in refused(b, "face", unit="R", toward="BC")
    assert "engaged" in refused(b, "shoot", [6], firer="R", target="BC")


def test_a_rout_that_ends_destroyed_still_spreads_but_a_melee_destruction_does_not() -> None:
    # Unit Summary "** rout whenever any rout w/in [3]": a target that routs (8+) and is then
    # destroyed by its rout roll routed; a loser "Destroyed" in melee (4-5) did not rout
    b = Battle.quick(
        [
            bl("T", "infantry", 300, 100),
            bl("M", "militia", 325 + 2 * N, 100),
            rd("A", "foot_artillery", 300, ahead(1)),
        ]
    )
    b.until("shoot", "red")
    b.do("shoot", [6, 1, 4], firer="A", target="T", enfilade=True)  # 6 + 1 + 2 = 9
    assert b.state.unit("T").status == "destroyed"
    assert b.state.unit("M").routed and b.state.unit("M").disrupted
    b = Battle.quick(
        [
            bl("B", "infantry", 300, 100),
            rd("R", "infantry", 300, ahead(0)),
            rd("M", "militia", 325 + 2 * N, ahead(0)),
        ]
    )
    b.until("melee", "blue")
    b.do("melee", [5, 1], attacker="B", defender="R", contact=True)  # by 4: destroyed
    assert b.state.unit("R").status == "destroyed"
    assert not b.state.unit("M").routed and not b.state.unit("M").disrupted


def test_a_stated_reinforcement_may_change_formation_before_it_enters() -> None:
    # Movement Modifiers: "Unit spends entire move on road ... (in Road Column)": an arrived
    # reinforcement of a stated game enters by its move, so its formation comes first (reading
    # 25): todo offers it with the entry, the referee accepts it; once entered, neither
    rps = [{"id": "rear", "side": "blue", "kind": "rear", "at": [300, 0], "queue": ["B2"]}]
    b = Battle.quick(
        [bl("B", "infantry"), rd("R", "infantry"), bl("B2", "infantry", status="reserve")],
        rps=rps,
        options={"play": "stated"},
    )
    b.do("reinforce", [3], rp="rear")
    assert offered(b, "move", unit="B2") and offered(b, "formation", unit="B2")
    b.do("formation", unit="B2", formation="road_column")
    b.do("move", unit="B2", distance=5, road=True)  # [4] + [1] wholly on the road
    assert not offered(b, "formation", unit="B2")
    assert "Movement" in refused(b, "formation", unit="B2", formation="line")


@pytest.mark.parametrize("play", ["stated", "tracked"])
def test_an_arrived_reinforcement_neither_fights_nor_is_fought_until_it_enters(play: str) -> None:
    # Reinforcements: "May enter edge within [4] of RP": a unit that has arrived but not yet
    # entered stands off the table (it may enter in a later move phase: reading 32). Stated,
    # no position said so: it was offered as a target, shot at, charged and could shoot and
    # melee; tracked, a stated range let it be shot at from anywhere
    rps = [{"id": "rear", "side": "blue", "kind": "rear", "at": [300, 0], "queue": ["B2"]}]
    pos = play == "tracked"
    b = Battle.quick(
        [
            bl("B", "infantry", *((100, 100) if pos else ())),
            bl("B2", "infantry", status="reserve"),
            rd("R", "infantry", *((300, 300) if pos else ())),
            rd("RC", "heavy_cavalry", *((450, 300) if pos else ())),
        ],
        rps=rps,
        options={"play": play},
    )
    b.do("reinforce", [3], rp="rear")  # arrives; it does not enter this phase
    b.until("shoot", "red")
    assert all("B2" not in t.open.get("target", ()) for t in offered(b, "shoot"))
    assert "Reinforcements" in refused(b, "shoot", [6], firer="R", target="B2", range="1")
    assert "Reinforcements" in refused(
        b, "countercharge", unit="RC", target="B2", **({} if pos else {"distance": "2"})
    )
    b.until("melee", "blue")
    assert "Reinforcements" in refused(
        b, "melee", [6, 1], attacker="B2", defender="R", contact=True
    )
    b.until("move", "red")
    assert all("B2" not in t.open.get("into", ()) for t in offered(b, "charge"))
    assert "Reinforcements" in refused(
        b, "charge", unit="RC", into="B2", **({} if pos else {"distance": "2"})
    )
    if not pos:
        assert "Reinforcements" in refused(b, "move", unit="RC", distance="2", contact=["B2"])
    b.until("shoot", "blue")
    assert not offered(b, "shoot", firer="B2")
    assert "Reinforcements" in refused(b, "shoot", [6], firer="B2", target="R", range="1")
    # the odds of its charge from the edge are a question it may ask (as if in contact)
    assert b.odds("melee", attacker="B2", defender="R")
    b.until("move", "blue")
    if pos:
        b.do("place", unit="B2", x=300, y=6)
    else:
        b.do("move", unit="B2", distance="1")
    b.until("shoot", "red")  # entered: it is a target like any other (tracked: out of range)
    assert pos or any("B2" in t.open.get("target", ()) for t in offered(b, "shoot", firer="R"))
    b.do("shoot", [4], firer="R", target="B2", range="1")
    assert b.state.unit("B2").pinned


@pytest.mark.parametrize("play", ["stated", "tracked"])
@pytest.mark.parametrize("how", ["recoiled", "repulsed"])
def test_a_loser_pushed_back_leaves_its_other_melee_which_lapses(play: str, how: str) -> None:
    # Melee: "Recoils full move" / "Repulsed [2]": the loser moves away from the ground it
    # fought on. A1 charged D1 and D2 counter-charged A1 (two melees owed in one melee phase);
    # A1 loses the first and is pushed back: D2 no longer touches it, and a melee is fought in
    # contact (reading 48). The second melee stayed owed (fought at a distance, or waived)
    pos = play == "tracked"
    b = Battle.quick(
        [
            bl("A1", "infantry", *((300, 100) if pos else ())),
            rd("D1", "infantry", *((300, ahead(1)) if pos else ())),
            rd("D2", "heavy_cavalry", *((312.5 + 2 * N + 6, 100 + N) if pos else ()), facing=270),
        ],
        options={"play": play},
    )
    b.do("charge", unit="A1", into="D1", **({} if pos else {"distance": "1"}))
    b.until("shoot", "red")
    stated = {} if pos else {"distance": "2", "within": True}
    b.do("countercharge", unit="D2", target="A1", **stated)
    b.until("melee", "blue")
    owed = {t.obligation for t in b.todo() if t.owed}
    assert owed == {"melee:A1:D1", "melee:D2:A1"}
    # D2 touching A1 would be D1's overlap support, its melee then fought in this one (reading
    # 29): D1 is stated alone, D2's melee its own
    a_die = {"recoiled": 1, "repulsed": 2}[how]  # loses by 2 (recoils) or 1 (repulsed)
    out = b.do("melee", [a_die, 3], attacker="A1", defender="D1", b_support=0)
    assert {"recoiled": "A1 recoils a full move", "repulsed": "A1 repulsed [2]"}[how] in out.message
    assert "the melee D2 vs A1 lapses (A1 " + how + " out of contact with D2)" in out.message
    assert not b.state.melees and not [t for t in b.todo() if t.owed]
    if pos:
        a1, d2 = b.state.unit("A1").body, b.state.unit("D2").body
        assert a1 is not None and d2 is not None and a1.centre.y < 100 + N - 1
    b.do("next")  # nothing owed: the phase ends
    assert b.replayed() == b.state


def test_todo_offers_a_turn_again_after_a_move_and_advances_at_a_few_distances() -> None:
    # Movement Modifiers: "Road - Unit spends entire move on road, add [1]"; turning is free
    # (reading 33). todo offered a unit's turns only until it first turned, its advance at all
    # that is left and half of it (never the road's extra [1]) and its retire at [1] only
    road = [{"kind": "road", "name": "road", "line": [[300, 0], [300, 600]], "width": 30}]
    b = Battle.quick([bl("B", "infantry", 300, 100), rd("R", "infantry", 500, 500)], road)
    assert offered(b, "advance", unit="B")[0].open == {"distance": ("5", "4", "3", "2", "1")}
    assert offered(b, "retire", unit="B")[0].open == {"distance": ("1", "4")}
    assert offered(b, "wheel", unit="B", direction="left")[0].open == {"angle": (45, 90)}
    b.do("advance", unit="B", distance="5")  # as offered: the whole move on the road
    b.do("next")
    b.until("move", "blue")
    b.do("turn", unit="B", direction="right", angle=45)
    assert not offered(b, "turn", unit="B")  # just turned: one turn reaches any facing
    b.do("advance", unit="B", distance="1")
    assert offered(b, "turn", unit="B", direction="left")[0].open == {"angle": (45, 90, 135)}
    assert offered(b, "turn", unit="B", direction="about") and offered(b, "turn", face=None)
    b.do("turn", unit="B", direction="left", angle=45)  # as offered, accepted
    assert {"3", "1.5", "1"} <= set(offered(b, "advance", unit="B")[0].open["distance"])


def test_a_tracked_arrival_may_change_formation_before_it_is_placed() -> None:
    # Reinforcements: "May enter edge within [4] of RP"; a formation is changed before the
    # unit moves (reading 25): the referee accepted it before the arrival was placed, todo
    # offered it only once placed (stated play offered it: F6)
    rps = [{"id": "rear", "side": "blue", "kind": "rear", "at": [300, 0], "queue": ["B2"]}]
    b = Battle.quick(
        [
            bl("B", "infantry", 100, 100),
            bl("B2", "infantry", status="reserve"),
            rd("R", "infantry", 300, 500),
        ],
        rps=rps,
    )
    b.do("reinforce", [3], rp="rear")
    line = offered(b, "formation", unit="B2")
    assert line and line[0].open == {"formation": ("attack_column", "road_column")}
    b.do("formation", unit="B2", formation="road_column")  # as offered, accepted
    b.do("place", unit="B2", x=300, y=6)
    assert b.state.unit("B2").formation == "road_column" and not b.state.unit("B2").entry


def test_a_unit_in_line_with_a_neighbour_touching_its_flank_may_charge_straight_ahead() -> None:
    # Moving to contact: "The last [2] of a units move to contact must be STRAIGHT AHEAD": a
    # neighbour touching its side does not stand in the way of a straight run (it slides
    # along it); the referee said "A2 stands in the way [0.00]" and todo offered no charge
    b = Battle.quick(
        [
            bl("A", "infantry", 300, 100),
            bl("A2", "infantry", 325, 100),
            rd("R", "infantry", 300, ahead(2)),
        ]
    )
    assert offered(b, "charge", unit="A")[0].open == {"into": ("R",)}
    b.do("charge", unit="A", into="R")
    assert [(m.attacker, m.defender) for m in b.state.melees] == [("A", "R")]
    # a unit straight ahead still stands in the way
    b = Battle.quick(
        [
            bl("A", "infantry", 300, 100),
            bl("A2", "infantry", 300, ahead(1) - 2),
            rd("R", "infantry", 300, ahead(3)),
        ]
    )
    assert "A2 stands in the way" in refused(b, "charge", unit="A", into="R")


def test_a_counter_charge_runs_around_a_unit_in_its_way_not_through_it() -> None:
    # Moving to contact: "Cavalry may counter-charge an enemy unit which moves within a 1/2
    # move or less" and "The last [2] of a units move to contact must be STRAIGHT AHEAD". X
    # stands between C and M: the counter-charge without a path ran straight through X; todo
    # offered no counter-charge that goes around it (the referee accepts one with a path)
    b = Battle.quick(
        [
            bl("M", "infantry", 300, 150),
            rd("C", "heavy_cavalry", 300, 225),
            rd("X", "infantry", 300, 192),
        ]
    )
    b.do("advance", unit="M", distance="0.5")  # within [3] of C
    b.until("shoot", "red")
    assert "X stands in the way" in refused(b, "countercharge", unit="C", target="M")
    (line,) = offered(b, "countercharge", unit="C")
    assert line.request["target"] == "M" and len(line.request["path"]) == 2
    b.do("countercharge", **line.request)  # as offered, accepted: around X, straight in
    c = b.state.unit("C").body
    assert c is not None and c.centre.x < 300 - 12  # it went round X's side
    assert [(m.attacker, m.defender) for m in b.state.melees] == [("C", "M")]
    assert b.replayed() == b.state


def test_a_stated_charged_unit_turns_to_face_once_and_is_not_told_it_left_it_undone() -> None:
    # Moving to contact: "Infantry may turn to face when charged": in a stated game the turn
    # kept no trace, so todo offered it again and again, and next said it was left undone
    b = Battle.quick([bl("B", "infantry"), rd("R", "infantry")], options={"play": "stated"})
    b.do("next")
    b.until("move", "red")
    b.do("charge", unit="R", into="B", distance="2")
    assert offered(b, "face", unit="B", toward="R")
    b.do("face", unit="B", toward="R")
    assert not offered(b, "face", unit="B")
    assert "face" not in b.do("next").message
    assert b.replayed() == b.state
