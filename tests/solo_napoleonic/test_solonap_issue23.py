"""Issue 23: results that bind, generals that go with their men, disorder counted once. Each
test reproduces a situation seen in play, with forced dice, and asserts the text's result."""

from __future__ import annotations

from typing import Any

import pytest
from solonap_helpers import activate, general, make, run, unit

from tests.sizes import runs
from tests.todo_play import solonap_forbidden
from vedette.errors import RuleViolation
from vedette.rules.solo_napoleonic import RULESET as R


def _todo(state: Any) -> list[Any]:
    return list(R.todo(state))


# -- 1. attached generals go with their unit; an unattached one rides ---------------------------
def test_attached_general_goes_with_his_unit_and_keeps_it_in_command() -> None:
    """Kuryakin, Firing: "Attached general officers MUST be in the front rank"; Generals: a
    unit beyond 150mm of its brigadier is out of command. Colbert rides with F5: after F5's
    move he is at F5's position, and at the next control phase F5 is in command."""
    s = make(
        [
            unit(
                "F5",
                kind="light_cavalry",
                formation="mounted",
                front=6,
                figures=12,
                brigade="Colbert",
                x=1300.0,
                y=400.0,
                facing=0.0,
            )
        ],
        [general("Colbert", th="average", av="normal", cr=6, x=1300.0, y=300.0)],
    )
    s, _ = run(s, "attach", general="Colbert", unit="F5")
    assert (s.general("Colbert").x, s.general("Colbert").y) == (1300.0, 400.0)
    s = activate(s, "F5")
    # full move 400mm, random movement dK12 face 0 (normal TH): +0; swerve d6 3: straight on
    s, out = run(s, "move", [6, 0, 3], unit="F5", mode="move")
    f5, colbert = s.unit("F5"), s.general("Colbert")
    assert f5.y == 800.0 and (colbert.x, colbert.y) == (f5.x, f5.y)
    s, _ = run(s, "end_turn", force=True)
    s, out = run(s, "control", [1])  # Colbert passes his control roll
    assert s.unit("F5").in_command, out.message


def test_unattached_general_rides_toward_his_units_when_command_would_lapse() -> None:
    """An unattached brigadier whose unit on the active card is beyond his 150mm control
    range is offered a ride toward it (todo), up to his move (data: 600mm), once a turn."""
    s = make(
        [unit("F1", brigade="Morand", x=800.0, y=1200.0, facing=0.0)],
        [general("Morand", th="average", av="normal", cr=6, x=800.0, y=300.0)],
    )
    s = activate(s, "F1")
    (ride,) = [t for t in _todo(s) if t.procedure == "general"]
    assert ride.open == {"to": ("F1",)} and "command would lapse" in ride.text
    s, out = run(s, "general", general="Morand", to="F1")
    g = s.general("Morand")
    assert (g.x, g.y) == (800.0, 900.0) and g.moved_mm == 600.0, out.message
    with pytest.raises(RuleViolation, match="made his move"):
        run(s, "general", general="Morand", to="F1")
    s2, _ = run(s, "attach", general="Morand", unit="F1")
    with pytest.raises(RuleViolation, match="attached to F1"):
        run(s2, "general", general="Morand", x=800.0, y=850.0)
    s, _ = run(s, "end_turn", force=True)
    assert s.general("Morand").moved_mm == 0.0  # his move comes back next turn


# -- 2. a charger is bound to its charge ---------------------------------------------------------
def test_a_charger_cannot_move_freely_after_its_charge_test() -> None:
    """Kuryakin, Charge Test: "units who charge do so in a straight line"; the attacker "moves
    up to the target". F1 passes its charge test (d100 10): a free move is refused."""
    s = activate(make([unit("F1", front=5), unit("A1", "Allies", front=5)]), "F1")
    s, _ = run(s, "charge", [6, 10], unit="F1", target="A1")
    assert s.unit("F1").charge_state == "declared"
    with pytest.raises(RuleViolation, match="straight line up to its target"):
        run(s, "move", [6, 0, 3], unit="F1", distance=100, mode="move")
    with pytest.raises(RuleViolation, match="straight line"):
        run(s, "formation", [2], unit="F1", to="column")
    assert not [t for t in _todo(s) if t.procedure in ("move", "formation") and not t.owed]


# -- 3. failed tests bind --------------------------------------------------------------------
def test_carries_on_regardless_must_advance_and_cannot_try_again() -> None:
    """Kuryakin, Moving From A Standstill: stopping an advance needs a d6 roll, a 6 carries on
    regardless. The unit may not roll again, and it advances before its card ends."""
    s = activate(make([unit("F1", advancing=True), unit("A1", "Allies")]), "F1")
    s, out = run(s, "halt", [6], unit="F1")
    assert "carries on regardless" in out.message and s.unit("F1").bound == "advance"
    with pytest.raises(RuleViolation, match="carries on regardless this turn"):
        run(s, "halt", [1], unit="F1")
    (owed,) = [o for o in R.obligations(s) if o.id == "advance:F1"]
    assert owed.request == {"unit": "F1", "mode": "advance", "distance": 150.0}
    with pytest.raises(RuleViolation, match="owed first"):
        R.judge(s, "next", {})
    s, _ = run(s, "move", [0, 3], **owed.request)  # dK8 0, no swerve
    assert s.unit("F1").moved_mm == 150.0 and not R.obligations(s)


def test_an_advance_that_cannot_be_made_lapses_with_its_reason_logged_at_the_card_end() -> None:
    """Moving From A Standstill: a unit that carries on regardless after a formation change took
    its whole move (d4 4, Formation Changing) owes no advance (nothing is left to move); when
    its card ends the result lapses, and the log says so (no owed step vanishes silently)."""
    s = activate(make([unit("F1", advancing=True), unit("A1", "Allies")]), "F1")
    s, _ = run(s, "formation", [4], unit="F1", to="column")
    s, out = run(s, "halt", [6], unit="F1")
    assert s.unit("F1").bound == "advance"
    assert not [o for o in R.obligations(s) if o.id == "advance:F1"]
    s, out = run(s, "next")
    assert "F1's owed advance lapses: its whole move is made" in out.message
    assert any("lapses" in e.why for e in out.events if (e.entity, e.id) == ("unit", "F1"))
    assert s.unit("F1").bound is None


def test_a_queue_jumper_that_carries_on_regardless_owes_its_advance_toward_its_charger() -> None:
    """Kuryakin, Movement: a unit that jumped the queue acts only against its charger all turn;
    when it carries on regardless (Moving From A Standstill) the advance it owes is toward that
    charger, and the owed step is one the rules accept (not a dead end)."""
    f1 = unit("F1", advancing=True, restricted_to="A1", x=100, y=100)
    s = activate(make([f1, unit("A1", "Allies", x=100, y=400, facing=180)]), "F1")
    s, _ = run(s, "halt", [6], unit="F1")
    (owed,) = [t for t in _todo(s) if t.owed]
    assert owed.request == {"unit": "F1", "mode": "advance", "distance": 150.0, "toward": "A1"}
    assert not owed.refused
    s, _ = run(s, "move", [0, 3], **owed.request)
    assert s.unit("F1").bound is None and not R.obligations(s)


def test_halts_where_it_stands_binds_move_and_charge() -> None:
    """Kuryakin, Morale (default chart, an assumption): "halts where it stands": no move and
    no charge this turn. C class BPL 65: d100 90 fails; D10 9 halts."""
    s = activate(make([unit("F1"), unit("A1", "Allies")]), "F1")
    s, out = run(s, "morale", [90, 9], unit="F1")
    assert "halts where it stands" in out.message and s.unit("F1").bound == "halt"
    with pytest.raises(RuleViolation, match="halts where it stands"):
        run(s, "move", [6, 0, 3], unit="F1", mode="move", distance=50)
    with pytest.raises(RuleViolation, match="halts where it stands"):
        run(s, "charge", [6, 10], unit="F1", target="A1")
    assert not [t for t in _todo(s) if t.procedure in ("move", "charge", "start")]


def test_lost_orders_stops_the_charge_and_its_move_up() -> None:
    """Our chance card 'Lost orders' ("one enemy unit may not move this turn"): no charge,
    and a charge already declared stops (no move up is owed)."""
    from dataclasses import replace

    s = activate(make([unit("F1", front=5), unit("A1", "Allies", front=5)]), "F1")
    s = replace(s, chance={"Allies": "lost_orders"})
    s2, _ = run(s, "chance", side="Allies", on="F1")
    with pytest.raises(RuleViolation, match="Lost orders"):
        run(s2, "charge", [6, 10], unit="F1", target="A1")
    s3, _ = run(s, "charge", [6, 10], unit="F1", target="A1")
    s3, _ = run(s3, "chance", side="Allies", on="F1")
    assert s3.unit("F1").charge_step is None
    assert not [o for o in R.obligations(s3) if o.procedure == "close"]


# -- 4. disorder counted once; the rout move owed --------------------------------------------
def test_a_rout_takes_its_2d_once_on_the_owed_rout_move() -> None:
    """Kuryakin, Disorder: "Each move of Rout 2D". A failed test (D10 1: routs) adds no chits
    itself; the rout move is owed at once (whatever card is active) and adds 2D."""
    s = activate(make([unit("F1", x=0.0, y=500.0), unit("A1", "Allies", x=0.0, y=700.0)]), "A1")
    s, out = run(s, "morale", [90, 1], unit="F1")
    f1 = s.unit("F1")
    assert f1.status == "routing" and f1.disorder == 0 and f1.bound == "rout"
    (owed,) = [o for o in R.obligations(s) if o.id == "result:F1"]
    assert owed.request == {"unit": "F1", "mode": "rout"}
    s, out = run(s, "move", [0, 3], **owed.request)  # 150mm back, no swerve
    f1 = s.unit("F1")
    assert f1.disorder == 2 and f1.y == 350.0 and f1.bound is None, out.message
    assert not [o for o in R.obligations(s) if o.id == "result:F1"]


def test_a_retirement_in_disorder_takes_its_1d_once() -> None:
    s = activate(make([unit("F1"), unit("A1", "Allies")]), "A1")
    s, _ = run(s, "morale", [90, 3], unit="F1")  # D10 3: retires a full move in disorder
    assert s.unit("F1").disorder == 0 and s.unit("F1").bound == "retire"
    s, _ = run(s, "move", [0, 3], unit="F1", mode="retire")
    assert s.unit("F1").disorder == 1 and s.unit("F1").bound is None


# -- 5. a further failure never makes the state milder -----------------------------------------
def test_a_routing_unit_failing_again_stays_routing() -> None:
    s = make([unit("F1", status="routing", must_rally=True), unit("A1", "Allies")])
    s = activate(s, "A1")
    s, out = run(s, "morale", [99, 10], unit="F1")  # D10 10: "halts where it stands"
    f1 = s.unit("F1")
    assert f1.status == "routing" and f1.must_rally, out.message
    s2 = make([unit("F1", status="retiring", must_rally=True), unit("A1", "Allies")])
    s2, _ = run(activate(s2, "A1"), "morale", [99, 5], unit="F1")  # retires half a move
    assert s2.unit("F1").status == "retiring" and s2.unit("F1").must_rally


def _jumped(**f1: Any) -> Any:
    """F1 (card 1, active) charges A1 (card 5), which jumps to '1.5'; F2 is card 2."""
    from dataclasses import replace

    from vedette.rules.solo_napoleonic.model import Card

    s = make([unit("F1", front=5, **f1), unit("F2", front=5), unit("A1", "Allies", front=5)])
    cards = (
        Card("F1", 1, 1.0, ("F1",)),
        Card("F2", 2, 2.0, ("F2",)),
        Card("A1", 5, 5.0, ("A1",)),
    )
    s = replace(s, phase="activation", cards=cards, active="F1")
    s, out = run(s, "charge", [6, 10], unit="F1", target="A1")
    return s, out


def _owed(s: Any) -> list[str]:
    return [o.command() for o in R.obligations(s)]


# -- 12. the forced test is owed at the jumped card, and said so -------------------------------
def test_the_charge_says_the_targets_test_comes_with_its_jumped_card() -> None:
    s, out = _jumped()
    assert "must test morale when its card comes" in out.message
    assert _owed(s) == []  # not yet: A1's card '1.5' comes next
    s, _ = run(s, "next")
    assert _owed(s) == ["morale unit=A1 charged_by=F1"]


# -- 6. units locked in melee stay in contact ----------------------------------------------------
def test_units_locked_in_melee_fight_on_however_their_frontages_shrink() -> None:
    """Kuryakin, Melee: "the melee continues for D3 further rounds". Round 2 is owed and
    fought though casualties have left the two 7mm apart (no 'contact=true' needed)."""
    from dataclasses import replace

    s = make(
        [
            unit("F1", x=0.0, y=0.0, facing=0.0, charge_state="home", charge_target="A1"),
            unit("A1", "Allies", x=0.0, y=60.0, facing=180.0),
        ]
    )
    s = replace(s, phase="activation")
    f1 = replace(s.unit("F1"), charge_step="melee", melee_round=1, melee_rounds=3)
    s = s.with_unit(f1)
    from vedette.rules.solo_napoleonic import geom

    d = geom.unit_distance(s.unit("F1"), s.unit("A1"))
    assert d is not None and d > 5.0  # apart on the table
    assert _owed(s) == ["melee unit=F1 target=A1 round=2"]
    R.judge(s, "melee", {"unit": "F1", "target": "A1", "round": 2})  # accepted as owed


# -- 7. a failed charge home's volley is owed -------------------------------------------------
def test_a_failed_charge_home_volley_is_owed_and_fired() -> None:
    """Kuryakin, Charge Home Test: "A,B or C class infantry who fail will halt and fire a
    volley": owed at once (todo shows it), fired at the target at short range."""
    s, _ = _jumped()
    s, _ = run(s, "next")
    s, _ = run(s, "morale", [10], unit="A1", charged_by="F1")
    s, _ = run(s, "fire", unit="A1", target="F1", hold=True)
    s, _ = run(s, "close", unit="F1")
    s, out = run(s, "charge_home", [99], unit="F1")
    assert "halts and fires a volley" in out.message
    assert _owed(s) == ["fire unit=F1 target=A1"]
    assert [t.command() for t in _todo(s) if t.owed] == ["fire unit=F1 target=A1"]
    s, out = run(s, "fire", [3, 5, 5], unit="F1", target="A1")  # 1 volley: d6 3 hits...
    assert "short" in out.message and _owed(s) == []


# -- 8. a unit that jumped the queue acts only against its charger -----------------------------
def test_a_queue_jumper_acts_only_against_its_charger_all_turn() -> None:
    """Kuryakin, Movement: "They are restricted to actions directly against the unit charging
    them": after the charge, A1 neither fires at F2 nor moves anywhere but toward F1."""
    from dataclasses import replace

    s, _ = _jumped()
    s = replace(s.with_unit(replace(s.unit("F1"), charge_state="done", charge_step=None)))
    s = s.with_unit(replace(s.unit("A1"), morale_due=False))
    s, _ = run(s, "next")  # A1's card '1.5'
    with pytest.raises(RuleViolation, match="only against F1"):
        run(s, "fire", [1, 1, 1], unit="A1", target="F2", range="short")
    with pytest.raises(RuleViolation, match="only against F1"):
        run(s, "move", [6, 0, 3], unit="A1", mode="move", distance=50)
    offers = [t for t in _todo(s) if t.request.get("unit") == "A1"]
    assert all(t.request.get("target", "F1") == "F1" for t in offers)
    assert all(t.request.get("toward") == "F1" for t in offers if t.procedure == "move")


# -- 10. owed defensive fire ------------------------------------------------------------------
def test_defensive_fire_lapses_when_the_target_has_already_fired() -> None:
    """The charged unit already fired this turn: its defensive fire lapses (the reason logged
    on the charge's step), and the charger moves up; never a dead end."""
    from dataclasses import replace

    s, _ = _jumped()
    s = s.with_unit(replace(s.unit("A1"), fired=True, volleys_fired=1))
    s, _ = run(s, "next")
    s, out = run(s, "morale", [10], unit="A1", charged_by="F1")
    assert _owed(s) == ["close unit=F1"]
    assert any("defensive fire lapses" in getattr(e, "why", "") for e in out.events)


def test_defensive_fire_at_a_charger_is_short_range_and_its_losses_test_at_once() -> None:
    """Firing at chargers is always at Short Range; a charger that loses 10% to it tests at
    once ("applying any results immediately"), before it moves up; a failure ends the charge."""
    s, _ = _jumped()
    s, _ = run(s, "next")
    s, _ = run(s, "morale", [10], unit="A1", charged_by="F1")
    (fire,) = [t for t in _todo(s) if t.owed]
    assert fire.command() == "fire unit=A1 target=F1" and "long" not in fire.text
    # A1 front 5: 1 volley, d6 6; short range; no saves: casualties of 10% or more
    s, out = run(s, "fire", [6, 1, 1, 1, 1, 1, 2], unit="A1", target="F1")
    assert "short" in out.message
    assert _owed(s) == ["morale unit=F1"], out.message
    s, out = run(s, "morale", [99, 9], unit="F1")  # fails: halts where it stands
    f1 = s.unit("F1")
    assert f1.charge_step is None and _owed(s) == []


# -- 11. only the loser of the round tests for the melee ----------------------------------------
def test_a_winner_owing_its_own_test_is_not_the_loser_of_the_round() -> None:
    """Kuryakin, Melee: "The side taking the most casualties checks morale". F1 won the round
    but owes a test of its own (a marker): it is not told it lost, and its failure does not
    end the melee; A1's test (the loser's) decides."""
    from dataclasses import replace

    s = make(
        [
            unit("F1", charge_state="home", charge_target="A1", morale_due=True),
            unit("A1", "Allies", morale_due=True, lost_melee=True),
        ]
    )
    s = replace(s, phase="activation")
    s = s.with_unit(replace(s.unit("F1"), charge_step="loser", melee_round=1))
    owed = {o.command(): o.text for o in R.obligations(s)}
    assert owed == {"morale unit=A1": "A1 lost the round of melee: it checks morale"}
    s, _ = run(s, "morale", [10], unit="A1")  # the loser holds: the melee goes on
    assert s.unit("F1").charge_step == "brawl"


# -- the property: no state the rules forbid, in random play from todo alone -----------------
@pytest.mark.parametrize("scenario", ["sample", "attached"])
def test_random_play_from_todo_reaches_no_forbidden_state(scenario: str) -> None:
    import random

    from vedette.engine import Game, Store

    problems: list[str] = []
    procs: set[str] = set()
    for seed in range(runs(4, 2)):  # (tests/sizes.py: 2 games in make test, every main
        rng = random.Random(seed)  # procedure still met; 4 in CI)
        g = Game.create(Store(":memory:"), f"p{seed}", R.name, R.scenario(scenario), seed=seed)
        for _ in range(120):
            todo = g.todo()
            owed = [t for t in todo if t.owed]
            t = rng.choice(owed or todo)
            req = {**t.request, **{k: rng.choice(list(cs)) for k, cs in t.open.items()}}
            before = g.state
            g.perform(t.procedure, req)
            procs.add(t.procedure)
            problems += solonap_forbidden(before, g.state, t.procedure)
    assert not problems, problems[:5]
    assert {"charge", "fire", "move", "morale", "end_turn"} <= procs


# -- 12. smaller ones ---------------------------------------------------------------------------
def test_a_change_costing_the_whole_move_leaves_no_move_in_the_new_formation() -> None:
    """Kuryakin, Formation Changing: d4 quarters of a move. Line to column, d4 4 (C class, in
    command: no modifier): the whole move is spent; the column's longer move (200mm against
    the line's 150mm, our default distances) leaves nothing."""
    s = activate(make([unit("F1"), unit("A1", "Allies")]), "F1")
    s, _ = run(s, "formation", [4], unit="F1", to="column")
    f1 = s.unit("F1")
    assert f1.formation == "column" and f1.moved_mm == 200.0
    with pytest.raises(RuleViolation, match="may move 200mm"):
        run(s, "move", [6, 0, 3], unit="F1", mode="move", distance=50)
    assert not [t for t in _todo(s) if t.procedure == "move"]
    s2 = activate(make([unit("F1"), unit("A1", "Allies")]), "F1")
    s2, _ = run(s2, "formation", [2], unit="F1", to="column")  # half the move: 100mm left
    assert s2.unit("F1").moved_mm == 100.0


def test_an_eliminated_units_card_lists_no_actions() -> None:
    """It listed none (its card came up, 'no longer on the table'); since reading K69 the
    card is put aside, said so, and the next card acts."""
    from dataclasses import replace

    s = activate(make([unit("F1"), unit("F2"), unit("A1", "Allies")]), "F1")
    s = s.with_unit(replace(s.unit("F2"), status="eliminated", figures=0))
    s, out = run(s, "next")
    assert "(F2) put aside: no unit of it on the table" in out.message, out.message
    assert s.active != "F2" and "F2:" not in out.message


def test_one_charge_at_a_time_on_a_target() -> None:
    """Found by the property: two chargers of one formation card on one target left the second
    charge's forced test a dead end. Reading (the text is silent): a second charge on a unit
    waits until the first is over."""
    s = make([unit("F1", front=5), unit("F2", front=5), unit("A1", "Allies", front=5)])
    s = activate(s, "F1", "F2")
    s, _ = run(s, "charge", [6, 10], unit="F1", target="A1")
    with pytest.raises(RuleViolation, match="already being charged by F1"):
        run(s, "charge", [6, 10], unit="F2", target="A1")


def test_under_artillery_fire_and_cannot_reply_is_applied_when_measured() -> None:
    """Kuryakin, Morale: "Under artillery fire and cannot reply -10%". A battery 600mm away
    (beyond the infantry's musket range, measured) costs its target a morale test (10% lost):
    the test carries the -10%."""
    s = make(
        [
            unit("G", kind="foot_artillery", formation="unlimbered", figures=4, front=1,
                 x=0.0, y=0.0, facing=0.0),
            unit("A1", "Allies", figures=10, front=5, x=0.0, y=600.0, facing=180.0),
        ]
    )  # fmt: skip
    s = activate(s, "G")
    from vedette.dice import ScriptedSource

    p, _, plan = R.judge(s, "fire", {"unit": "G", "target": "A1"}, owed=())
    out = p.resolve(s, plan, ScriptedSource([6] + [1] * 40))  # 6 hit, no saves
    for e in out.events:
        s = R.apply(s, e)
    a1 = s.unit("A1")
    assert a1.morale_due and "artillery_no_reply" in a1.morale_facts, out.message
    from solonap_helpers import odds

    o = odds(s, "morale", unit="A1")[0]
    assert any("reply" in m.reason for m in o.modifiers)


def test_control_odds_name_the_general_in_each_outcome() -> None:
    s = make([unit("F1", brigade="Morand")], [general("Morand", th="average", av="normal", cr=6)])
    from solonap_helpers import odds

    (o,) = odds(s, "control")
    assert all("Morand" in r.result for r in o.rows), [r.result for r in o.rows]


def test_the_deal_prints_its_shuffle_as_one_line_and_keeps_every_roll() -> None:
    """Issue 26 (9): the deal's Fisher-Yates swaps (one die each, Move Sequence) print as one
    line of dice, not one line per swap; the outcome's JSON still has every roll, and a roll
    of another kind breaks the run."""
    from vedette.dice.sources import ScriptedSource
    from vedette.rules.base import Outcome
    from vedette.rules.solo_napoleonic.cards import shuffle

    _, rolls = shuffle(5, ScriptedSource([2, 1, 2, 1]))
    _, two = shuffle(3, ScriptedSource([1, 2]))
    out = Outcome(rolls=(*rolls, *two), message="cards revealed")
    assert out.lines() == [
        "shuffle (6 rolls): 1d5=2, 1d4=1, 1d3=2, 1d2=1, 1d3=1, 1d2=2",
        "cards revealed",
    ]
    assert len(out.to_json()["rolls"]) == 6
    short = Outcome(rolls=tuple(two), message="")
    assert short.lines() == [r.line() for r in two]  # fewer than four: a line each
    assert "swaps with place" in short.lines()[0]


def test_the_odds_of_a_volley_are_shown_when_the_unit_may_not_fire_now() -> None:
    """Issue 22: queries are never phase-bound. F1 is not on the active card: its volley is
    refused, its odds are still shown (the ruleset's query flag skips the plan's dry run)."""
    s = activate(make([unit("F1", x=100, y=100), unit("A1", "Allies", x=100, y=300, facing=180)]))
    with pytest.raises(RuleViolation):
        R.judge(s, "fire", {"unit": "F1", "target": "A1"})
    _, _, plan = R.judge(s, "fire", {"unit": "F1", "target": "A1"}, query=True)
    (odds,) = plan.step_odds()
    assert sum(r.p for r in odds.rows) == 1
