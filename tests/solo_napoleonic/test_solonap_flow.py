"""Issue 14: what the referee holds between rolls. Failures bind for the turn; the charge is one
guided sequence held in the state (each step owed, refused otherwise naming the rule, waivable
with a logged waiver); routing units only run and units that must rally only rally; the
further rounds of melee only within a begun melee."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from solonap_helpers import unit

from vedette.engine import Game, Store, replay
from vedette.errors import RuleViolation
from vedette.rules.solo_napoleonic import RULESET as R

SIDES = ["French", "Allies"]


def game(
    tmp_path: Path,
    units: Sequence[Mapping[str, Any]],
    cards: Mapping[str, int] | None = None,
    seed: int = 11,
) -> Game:
    """No brigadiers: every unit its own card (by default in the order given)."""
    scen = {"title": "flow", "sides": SIDES, "units": list(units), "generals": []}
    g = Game.create(Store(tmp_path / "g.db"), "g", "solonap", scen, seed=seed)
    g.perform("control", {})
    order = cards or {u["id"]: i + 1 for i, u in enumerate(units)}
    g.perform("deal", {"cards": dict(order), "chance": {}})
    g.perform("next", {})
    return g


def owed(g: Game) -> list[str]:
    return [t.command() for t in g.todo() if t.owed]


def duel(tmp_path: Path, **kw: Any) -> Game:
    """F1 (card 1, active) and A1 (card 2)."""
    return game(tmp_path, [unit("F1", front=5, **kw), unit("A1", "Allies", front=5)])


# -- failures bind ---------------------------------------------------------------------------
def test_a_failed_charge_test_cannot_be_retaken(tmp_path: Path) -> None:
    g = duel(tmp_path)
    out = g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 90])
    assert "will not charge" in out.message and g.state.unit("F1").charge_failed
    with pytest.raises(RuleViolation, match="failed its charge test this turn") as e:
        g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 10])
    assert "Kuryakin, Charge Test" in str(e.value)
    with pytest.raises(RuleViolation, match="failed its charge test"):
        g.odds("charge", {"unit": "F1", "target": "A1"})
    # remembered for the turn only
    g.perform("next", {})
    g.perform("next", {})
    g.perform("end_turn", {})
    assert not g.state.unit("F1").charge_failed


def test_a_failed_morale_test_is_not_erased_by_a_later_pass(tmp_path: Path) -> None:
    g = duel(tmp_path)
    g.perform("morale", {"unit": "A1"}, [99, 9])  # fails: halts
    g.perform("morale", {"unit": "A1"}, [10])  # passes: the failure still binds
    assert g.state.unit("A1").morale_failed
    # charged now, it holds, yet gives no defensive fire: its morale failed this turn
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 1])
    g.perform("next", {})  # A1's jumped card: the forced test is owed
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [1])
    assert owed(g) == ["close unit=F1"]
    with pytest.raises(RuleViolation):
        g.perform("fire", {"unit": "A1", "target": "F1"}, [4])


def test_a_failed_charge_home_test_cannot_be_taken_again(tmp_path: Path) -> None:
    g = duel(tmp_path)
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 1])
    g.perform("next", {})
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [1])
    g.perform("fire", {"unit": "A1", "target": "F1", "hold": True})
    g.perform("close", {"unit": "F1"})
    out = g.perform("charge_home", {"unit": "F1"}, [60])  # C 60%: 60 fails
    assert out.details["home"] is False and g.state.unit("F1").home_failed
    assert owed(g) == ["fire unit=F1 target=A1"]  # C class infantry halt and fire a volley
    g.perform("fire", {"unit": "F1", "target": "A1"}, [1])
    with pytest.raises(RuleViolation, match="charge home test this turn"):
        g.perform("charge_home", {"unit": "F1"}, [1])
    with pytest.raises(RuleViolation):  # nor by declaring the charge again
        g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 1])


# -- the guided charge -----------------------------------------------------------------------
def test_next_is_refused_while_the_charge_is_open(tmp_path: Path) -> None:
    g = duel(tmp_path)
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 1])
    g.perform("next", {})  # the charger's card ends; the target's jumped card comes
    assert g.state.active == "A1"
    assert owed(g) == ["morale unit=A1 charged_by=F1"]
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [99, 9])  # fails: halts
    assert owed(g) == ["close unit=F1"]
    with pytest.raises(RuleViolation, match="close unit=F1") as e:
        g.perform("next", {})
    assert "Kuryakin, Charge Test" in str(e.value)
    # no short-range fire for a target whose morale failed
    with pytest.raises(RuleViolation):
        g.perform("fire", {"unit": "A1", "target": "F1"}, [4])
    # the waiver is the logged way round, and undo brings the step back
    g.perform("waive", {"obligation": "charge:F1:close", "reason": "table talk"})
    assert owed(g) == ["charge_home unit=F1"]
    assert any(r.payload.get("procedure") == "waive" for r in g.records)
    g.undo()
    assert owed(g) == ["close unit=F1"]


def test_a_target_routed_before_contact_does_not_fight(tmp_path: Path) -> None:
    """Kuryakin, Charge Test: only "should both units morale hold" does the attacker move up
    and test to charge home; a routing unit only runs (Morale). A target that routs at the
    charge is not fought: the charger moves up onto its ground and the charge ends."""
    g = duel(tmp_path)
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 1])
    g.perform("next", {})
    out = g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [99, 1])  # fails; D10 1: rout
    assert "rout" in out.message and g.state.unit("A1").status == "routing"
    # the rout move is owed at once (issue 23); the charger still moves up (takes the ground)
    assert owed(g) == ["move unit=A1 mode=rout", "close unit=F1"]
    g.perform("move", {"unit": "A1", "mode": "rout"}, [0, 3])
    out = g.perform("close", {"unit": "F1"})
    assert "routed before contact" in out.message and "no melee" in out.message
    f1 = g.state.unit("F1")
    assert (f1.charge_step, f1.charge_state, f1.melee_round) == (None, "done", 0)
    assert owed(g) == []  # no charge home test, no melee round is owed
    assert all(t.procedure not in ("melee", "charge_home") for t in g.todo())
    with pytest.raises(RuleViolation, match="routed before contact: there is no charge home"):
        g.perform("charge_home", {"unit": "F1"}, [1])
    with pytest.raises(RuleViolation, match="not charged home") as e:
        g.perform("melee", {"unit": "F1", "target": "A1"}, [1] * 20)
    assert "Kuryakin" in str(e.value)
    assert g.state.unit("A1").figures == 18  # nothing was fought


def test_a_target_retiring_in_disorder_is_still_charged_home(tmp_path: Path) -> None:
    """Only a rout ends the charge before contact: a target that fails and retires (D10 3) is
    caught; the charge goes on to its charge home step (no test: the charger is unhurt)."""
    g = duel(tmp_path)
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 1])
    g.perform("next", {})
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [99, 3])
    assert g.state.unit("A1").status == "retiring"
    g.perform("move", {"unit": "A1", "mode": "retire"}, [0, 3])  # owed at once (issue 23)
    g.perform("close", {"unit": "F1"})
    assert owed(g) == ["charge_home unit=F1"]


def test_the_forced_morale_test_knows_its_charger(tmp_path: Path) -> None:
    """The charge's modifiers are filled in: charged by higher class -10 (B charges C), and
    never silently dropped (a test without the charger is refused while the charge owes it)."""
    g = game(tmp_path, [unit("F1", grade="B"), unit("A1", "Allies", in_command=False)])
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 1])
    g.perform("next", {})
    with pytest.raises(RuleViolation, match="charged_by=F1"):
        g.perform("morale", {"unit": "A1"}, [1])
    with pytest.raises(RuleViolation, match="charged by F1, not"):
        g.ruleset.procedures["morale"].odds(g.state, _req(unit="A1", charged_by="A1"))  # type: ignore[misc]
    o = g.ruleset.procedures["morale"].odds(g.state, _req(unit="A1"))  # type: ignore[misc]
    assert o[0].target == 65 - 10  # filled from the state


def _req(**kw: Any) -> Any:
    return dict(kw)


def test_a_full_charge_played_from_todo_alone(tmp_path: Path) -> None:
    """Declare, then only the owed steps from `todo` until nothing is owed: the charge test,
    the target's forced morale test with its charger, defensive fire, the move up, the charge
    home test, melee, the loser's morale, the D3 further rounds."""
    for seed in range(1, 40):
        d = tmp_path / str(seed)
        d.mkdir()
        g = game(d, [unit("F1", grade="A"), unit("A1", "Allies", grade="B")], seed=seed)
        out = g.perform("charge", {"unit": "F1", "target": "A1"})
        if not out.details["charges"]:
            continue
        g.perform("next", {})
        steps: list[str] = []
        for _ in range(30):
            todo = [t for t in g.todo() if t.owed]
            if not todo:
                break
            t = todo[0]
            steps.append(t.procedure)
            g.perform(t.procedure, dict(t.request))
        assert not g.obligations()
        steps = [s for s in steps if s != "move"]  # a rout or retirement owed at once
        assert steps[0] == "morale"
        if g.state.unit("A1").status == "routing" and "melee" not in steps:
            assert steps == ["morale", "close"]  # routed before contact: nothing to fight
            continue
        if "close" not in steps:  # the charger lost 10% to the defensive fire, tested at once
            assert steps == ["morale", "fire", "morale"]  # and failed: the charge is over
            assert g.state.unit("F1").charge_step is None and g.state.unit("F1").morale_failed
            continue
        assert steps.index("close") < steps.index("charge_home") and steps.index(
            "close"
        ) < steps.index("charge_home")
        rounds = steps.count("melee")
        if "brawl" in steps:
            assert rounds <= 1 + 3
            u = g.state.unit("F1")
            assert u.melee_round <= u.melee_rounds
        if rounds >= 2:
            assert replay(R, g.store.records(g.id)).state == g.state
            return
    raise AssertionError("no seed played a melee with further rounds")


def test_halted_charger_moved_up_and_fires_at_short_range(tmp_path: Path) -> None:
    g = duel(tmp_path)
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 1])
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [1])
    g.perform("fire", {"unit": "A1", "target": "F1", "hold": True})
    g.perform("close", {"unit": "F1"})
    out = g.perform("charge_home", {"unit": "F1"}, [60])
    assert "halt" in out.message
    (o,) = g.odds("fire", {"unit": "F1", "target": "A1"})
    assert "short range" in (o.note or "") and "-2 (firer moved this turn)" in (o.note or "")


# -- status that binds -----------------------------------------------------------------------
def test_routing_units_only_run_and_rally(tmp_path: Path) -> None:
    g = game(
        tmp_path,
        [unit("F1", status="routing", must_rally=True, front=5), unit("A1", "Allies")],
    )
    for proc, req in (
        ("fire", {"unit": "F1", "target": "A1", "range": "short"}),
        ("charge", {"unit": "F1", "target": "A1"}),
        ("formation", {"unit": "F1", "to": "column"}),
        ("move", {"unit": "F1"}),
        ("reform", {"unit": "F1"}),
    ):
        with pytest.raises(RuleViolation, match="routing") as e:
            g.perform(proc, req, [1, 1, 1])
        assert "Kuryakin, Morale" in str(e.value)
    g.perform("move", {"unit": "F1", "mode": "rout"}, [0, 3])
    g.perform("rally", {"unit": "F1"}, [1])


def test_a_failed_rally_binds_for_the_turn(tmp_path: Path) -> None:
    """Kuryakin, Move Sequence: once activated a unit acts; a failed test binds for the turn,
    so a failed rally cannot be retried on the same card (issue: rally retried endlessly)."""
    g = game(
        tmp_path,
        [unit("F1", status="routing", must_rally=True, front=5), unit("A1", "Allies")],
    )
    out = g.perform("rally", {"unit": "F1"}, [95])  # B: 80 - 20 (routing) = 60: fails
    assert "fails to rally" in out.message and g.state.unit("F1").rally_failed
    for attempt in ("perform", "odds"):
        with pytest.raises(RuleViolation, match="failed to rally this turn") as e:
            if attempt == "perform":
                g.perform("rally", {"unit": "F1"}, [1])
            else:
                g.odds("rally", {"unit": "F1"})
        assert "Kuryakin, Morale" in str(e.value)
    u = g.state.unit("F1")
    assert (u.status, u.must_rally) == ("routing", True)
    assert all(t.procedure != "rally" for t in g.todo())  # todo no longer offers it
    g.perform("move", {"unit": "F1", "mode": "rout"}, [0, 3])  # the routing unit still runs
    # remembered for the turn only: the next turn it may try again
    g.perform("next", {})
    g.perform("next", {})
    g.perform("end_turn", {})
    assert not g.state.unit("F1").rally_failed
    g.perform("control", {})
    g.perform("deal", {"cards": {"F1": 1, "A1": 2}, "chance": {}})
    g.perform("next", {})
    g.perform("rally", {"unit": "F1"}, [1])
    assert not g.state.unit("F1").must_rally


def test_must_rally_units_only_rally(tmp_path: Path) -> None:
    g = game(
        tmp_path,
        [unit("F1", status="retiring", must_rally=True, front=5), unit("A1", "Allies")],
    )
    for proc, req in (
        ("fire", {"unit": "F1", "target": "A1", "range": "short"}),
        ("charge", {"unit": "F1", "target": "A1"}),
        ("move", {"unit": "F1"}),
    ):
        with pytest.raises(RuleViolation, match="must rally first"):
            g.perform(proc, req, [1, 1, 1])
    g.perform("rally", {"unit": "F1"}, [1])
    assert not g.state.unit("F1").must_rally


# -- melee rounds ----------------------------------------------------------------------------
def test_melee_round_2_only_within_a_begun_melee(tmp_path: Path) -> None:
    g = duel(tmp_path)
    with pytest.raises(RuleViolation, match="only within a begun melee") as e:
        g.perform("melee", {"unit": "F1", "target": "A1", "round": 2}, [1] * 10)
    assert "Kuryakin, Melee" in str(e.value)
    with pytest.raises(RuleViolation, match="D3 further rounds"):
        g.perform("brawl", {"unit": "F1", "target": "A1"}, [2])
    # round 1 in contact, 18 points a side: F1 1,1,1 +1 standing = 6 -> 3, A1 saves 6,6,6;
    # A1 1,1,1 = 3 -> 1½ (99: no extra) -> 1, F1 saves 6: no loser
    faces = [1, 1, 1, 6, 6, 6, 1, 1, 1, 99, 6]
    g.perform("melee", {"unit": "F1", "target": "A1", "contact": True}, faces)
    assert owed(g) == ["brawl unit=F1 target=A1"]
    with pytest.raises(RuleViolation):
        g.perform("melee", {"unit": "F1", "target": "A1", "round": 2}, [1] * 10)
    g.perform("brawl", {"unit": "F1", "target": "A1"}, [1])  # one further round
    assert owed(g) == ["melee unit=F1 target=A1 round=2"]
    with pytest.raises(RuleViolation, match="round=2"):
        g.perform("melee", {"unit": "F1", "target": "A1", "round": 3}, [1] * 10)
    g.perform("melee", {"unit": "F1", "target": "A1", "round": 2})
    if owed(g):  # a loser tests
        t = next(t for t in g.todo() if t.owed)
        g.perform(t.procedure, dict(t.request))
    assert owed(g) == []
    with pytest.raises(RuleViolation):
        g.perform("melee", {"unit": "F1", "target": "A1", "round": 3}, [1] * 10)


def test_markers_directing_morale_tests_are_owed_when_the_card_comes(tmp_path: Path) -> None:
    g = duel(tmp_path)
    g.perform("require", {"unit": "A1"})  # not yet acted: a marker
    assert owed(g) == []
    g.perform("next", {})
    assert owed(g) == ["morale unit=A1"]
    with pytest.raises(RuleViolation, match="marker"):
        g.perform("next", {})
    g.perform("morale", {"unit": "A1"}, [1])
    g.perform("next", {})


# -- units indexed by id; the turn's order by bisection ----------------------------------------
def test_units_indexed_by_id_and_the_turn_in_card_order(tmp_path: Path) -> None:
    units = [unit(f"U{i}", "French" if i % 2 else "Allies") for i in range(30)]
    order = {f"U{i}": (i * 7) % 30 + 1 for i in range(30)}
    g = game(tmp_path, units, order)
    s = g.state
    assert s.index["U17"] == 17 and s.unit("U17").id == "U17"
    seen = [s.active]
    while g.state.phase == "activation":
        g.perform("next", {})
        if g.state.active is not None:
            seen.append(g.state.active)
    assert seen == sorted(order, key=order.__getitem__)
    # a state built by hand (no index) still finds its units
    from dataclasses import replace

    hand = replace(s, index={})
    assert hand.unit("U3").id == "U3" and hand.has_unit("U29") and not hand.has_unit("X")


# -- morale tests the referee calls itself ---------------------------------------------------
def test_the_referee_calls_a_test_for_casualties_and_a_killed_general() -> None:
    """Fire kills the brigadier attached to F1 (front rank, fails his save): every unit of his
    brigade gets a marker with his loss filled in (-15%), F1 also for its casualties."""
    from solonap_helpers import activate, general, make, odds, run

    s = make(
        [
            unit("F1", brigade="B1", front=5),
            unit("F2", brigade="B1"),
            unit("A1", "Allies", front=5),
        ],
        [general("B1", th="average", av="normal", cr=6, attached_to="F1")],
    )
    s = activate(s, "A1")
    # volley 6 x ¾ = 4½ (99: no extra) -> 4; saves 1,1,1,1 -> 4 casualties; who: figure 1 is
    # the general, his save 1 fails; then figures 2, 3, 4
    s2, out = run(s, "fire", [6, 99, 1, 1, 1, 1, 1, 1, 2, 3, 4], unit="A1", target="F1",
                  range="short")  # fmt: skip
    assert s2.general("B1").killed
    for uid in ("F1", "F2"):
        u = s2.unit(uid)
        assert u.morale_due and "co_killed" in u.morale_facts, uid
    assert "F2 must test morale" in out.message
    o, _ = odds(s2, "morale", unit="F2")
    assert any(m.value == -15 and "killed" in m.text() for m in o.modifiers)
    # the list is data: a house rule turns a reason off
    off = make(
        [unit("F1", front=5), unit("A1", "Allies", front=5)],
        house={"referee_morale": {"fire_casualties": False}},
    )
    s3, _ = run(activate(off, "A1"), "fire", [6, 99, 1, 1, 1, 1], unit="A1", target="F1",
                range="short")  # fmt: skip
    assert not s3.unit("F1").morale_due


def test_the_referee_calls_a_test_for_a_friend_routing_within_300mm() -> None:
    from solonap_helpers import make, run

    s = make(
        [
            unit("F1", x=0.0, y=0.0, in_command=False),
            unit("F2", x=200.0, y=0.0),
            unit("F3", x=900.0, y=0.0),
        ]
    )
    s2, out = run(s, "morale", [99, 1], unit="F1")  # fails: D10 1 routs
    assert s2.unit("F1").status == "routing"
    assert s2.unit("F2").morale_due and not s2.unit("F3").morale_due
    assert "F2 must test morale" in out.message


# -- chance cards that act -------------------------------------------------------------------
def _played(card: str, on: str, side: str = "French", **units: Any) -> Any:
    from dataclasses import replace as rep

    from solonap_helpers import activate, make, run

    s = make([unit("u", front=5, in_command=False, **units), unit("e", "Allies", front=5)])
    s = activate(rep(s, chance={"French": card, "Allies": card}), "u")
    s, out = run(s, "chance", [], side=side, on=on)
    return s, out


def test_chance_cards_carry_typed_effects_applied_when_played() -> None:
    from solonap_helpers import odds, run

    from vedette.rules.solo_napoleonic.chance import chance_deck

    s, _ = _played("inspired", "u")
    deck = {c.id: c.does for c in chance_deck(s)}
    assert deck["inspired"].kind == "modifier" and deck["inspired"].value == 10
    assert all(c.does.kind != "" for c in chance_deck(s))
    o, _ = odds(s, "morale", unit="u")
    assert o.target == 65 + 10  # +10% from the card
    s2, _ = run(s, "morale", [0], unit="u")
    assert s2.unit("u").chance_effects == ()  # spent on that test
    o2, _ = odds(s2, "morale", unit="u")
    assert o2.target == 65

    s, out = _played("confusion", "e")
    assert s.unit("e").disorder == 1 and "1D" in out.message

    s, _ = _played("lost_orders", "u", "Allies")  # "one enemy unit": the Allies play it
    with pytest.raises(RuleViolation, match="Lost orders"):
        run(s, "move", [0, 3], unit="u", mode="advance")

    s, _ = _played("smoke", "e")
    (f,) = odds(s, "fire", unit="u", target="e", range="short")
    assert "long range" in (f.note or "")

    s, _ = _played("ammunition", "u", "Allies")
    (f,) = odds(s, "fire", unit="u", target="e", range="short")
    assert "Ammunition" in (f.note or "")

    s, _ = _played("steady_lads", "u")
    s2, out = run(s, "morale", [99, 10], unit="u")  # fails, rolled again: holds
    assert out.details["passed"] and len(out.rolls) == 2 and s2.unit("u").chance_effects == ()


# -- odds that a special figure is hit -------------------------------------------------------
def test_odds_that_a_special_figure_is_hit_match_the_enumeration_of_fire() -> None:
    from solonap_helpers import activate, make, odds

    from vedette.rules.base import Outcome
    from vedette.rules.protocol import chances
    from vedette.rules.solo_napoleonic.fire import fire

    s = make(
        [unit("F1", formation="skirmish", figures=6, front=6), unit("A1", "Allies", front=5)],
        options={"officers": True},
    )
    s = activate(s, "F1")
    req = {"unit": "F1", "target": "A1", "range": "short", "figures": 1}
    os = odds(s, "fire", **req)
    (off,) = [o for o in os if "officer" in o.label]

    def run(d: Any) -> Outcome:
        out = fire(s, R.procedures["fire"].parse(req), d)
        return Outcome(result="hit" if "officer" in out.details["specials_hit"] else "safe")

    ch = chances(run)
    assert ch.exact and ch.p("hit") == off.p("hit")
    # one figure hits on 5-6 (1/3), A1 fails its 5+ save (2/3), the casualty is figure 1 of 5
    assert off.p("hit") == Fraction(1, 3) * Fraction(2, 3) * Fraction(1, 5)


def test_odds_that_an_attached_general_is_hit_before_a_melee() -> None:
    from solonap_helpers import general, make, odds

    s = make(
        [unit("a", charge_state="home", charge_target="b"), unit("b", "Allies")],
        [general("G", "Allies", th="average", av="normal", cr=6, attached_to="b")],
    )
    os = odds(s, "melee", unit="a", target="b")
    (g,) = [o for o in os if o.label.startswith("general G")]
    assert sum((r.p for r in g.rows), Fraction(0)) == 1
    assert g.p("killed") > 0 and g.p("killed") * 2 == g.p("saved")  # dies on 1-2, saves 3-6


# -- typed, versioned events; release 0.1's saved game ---------------------------------------
def test_release_0_1_game_imports_and_replays_with_typed_events(tmp_path: Path) -> None:
    from vedette.rules.solo_napoleonic.events import GameChanged, GeneralChanged, UnitChanged

    text = (
        Path(__file__).resolve().parents[1] / "fixtures" / "saved_games_v0_1" / "k1.jsonl"
    ).read_text(encoding="utf-8")
    g = Game.import_jsonl(Store(tmp_path / "k.db"), text, "k1")
    assert g.state.phase == "activation" and g.state.active is not None
    kinds = set()
    for r in g.records:
        for e in r.payload.get("events", []) if r.kind == "action" else []:
            assert "v" not in e  # written by release 0.1: untyped, version 1
            kinds.add(type(R.decode(e)))
    assert kinds == {UnitChanged, GeneralChanged, GameChanged}
    # play on: the new events are domain facts (typed, versioned), and the game replays
    g.perform("next", {})
    last = g.records[-1].payload["events"]
    assert [(e["kind"], e["v"]) for e in last] == [("activation_ended", 2), ("card_activated", 2)]
    assert replay(R, g.store.records(g.id)).state == g.state


def test_todo_lists_the_actions_open_now_and_legal_requests_follow_what_is_owed(
    tmp_path: Path,
) -> None:
    import random

    g = duel(tmp_path)
    cmds = [t.command() for t in g.todo()]
    # the units are not placed: one volley line per range band, so the player picks, not types
    assert "charge unit=F1 target=A1" in cmds and "fire unit=F1 target=A1 range=short" in cmds
    assert "fire unit=F1 target=A1 range=long" in cmds and "fire unit=F1 target=A1" not in cmds
    assert cmds[-1] == "next"
    f = duel(tmp_path / "f")
    f.perform("fire", {"unit": "F1", "target": "A1", "range": "long"})  # one volley a turn
    assert not [c for c in [t.command() for t in f.todo()] if c.startswith("fire unit=F1")]
    g.perform("charge", {"unit": "F1", "target": "A1"}, [6, 90])  # fails: binds
    assert "charge unit=F1 target=A1" not in [t.command() for t in g.todo()]
    h = game(tmp_path / "h", [unit("F1"), unit("A1", "Allies", status="routing", must_rally=True)])
    h.perform("next", {})
    assert [t.command() for t in h.todo()][:2] == ["move unit=A1 mode=rout", "rally unit=A1"]
    k = duel(tmp_path / "k")
    k.perform("charge", {"unit": "F1", "target": "A1"}, [6, 1])
    k.perform("next", {})
    reqs = list(R.legal_requests(k.state, random.Random(1)))
    assert reqs == [("morale", {"unit": "A1", "charged_by": "F1"})]


def test_skirmish_width_is_declared_and_checked_at_4x_the_line_frontage() -> None:
    from solonap_helpers import activate, make, run

    from vedette.rules.solo_napoleonic import geom

    s = activate(make([unit("u", figures=12, formation="line"), unit("e", "Allies")]), "u")
    line = 6 * geom.FIGURE_FRONTAGE_MM  # 12 figures in 2 ranks
    with pytest.raises(RuleViolation, match="at most"):
        run(s, "formation", [1], unit="u", to="skirmish", width=4 * line + 1)
    s2, _ = run(s, "formation", [1], unit="u", to="skirmish", width=4 * line)
    assert s2.unit("u").formation == "skirmish" and s2.unit("u").width == 4 * line
    declared = {p.name for p in R.procedures["place"].params}
    assert {"width", "depth"} <= declared


def test_every_procedure_has_a_typed_request(tmp_path: Path) -> None:
    import dataclasses

    from vedette.errors import BadRequest
    from vedette.rules.protocol import Procedure

    for name, p in R.procedures.items():
        assert isinstance(p, Procedure), name
        assert dataclasses.is_dataclass(p.request) and p.request.__dataclass_params__.frozen
        schema = p.spec.json_schema()
        assert schema["title"] == name and schema["additionalProperties"] is False
    fire = R.procedures["fire"].spec.by_name
    assert fire["volleys"].kind == "int" and fire["reaction"].kind == "bool"
    g = duel(tmp_path)
    with pytest.raises(BadRequest, match="'volleys' must be a whole number"):
        g.perform("fire", {"unit": "F1", "target": "A1", "volleys": "two"})
    with pytest.raises(BadRequest, match="did you mean 'target'"):
        g.perform("fire", {"unit": "F1", "targte": "A1"})
    # the log keeps the fields given
    g.perform("fire", {"unit": "F1", "target": "A1", "range": "short"}, [3, 99, 1, 1])
    assert g.records[-1].payload["request"] == {"unit": "F1", "target": "A1", "range": "short"}


def test_every_fact_read_in_any_form_is_declared() -> None:
    """The procedure bodies read their typed request's attributes only (no mapping path is
    left: no get_*, get, [], `in`, getattr, or a Request built by hand), and every attribute
    read from a request is a field a request class declares."""
    import dataclasses
    import re

    from vedette.rules.solo_napoleonic import requests as rq

    src = Path(__file__).resolve().parents[2] / "src" / "vedette" / "rules" / "solo_napoleonic"
    declared = {f.name for p in R.procedures.values() for f in p.params}
    fields = {
        f.name
        for c in vars(rq).values()
        if isinstance(c, type) and dataclasses.is_dataclass(c)
        for f in dataclasses.fields(c)
    }
    mapping = re.compile(
        r"req\.get(?:_[a-z_]+)?\(|req\[|\bin\s+req\b(?!\.)|getattr\(\s*req\b|\bRequest\("
    )
    attr = re.compile(r"\breq\.([a-z_][a-z_0-9]*)\b(?!\s*\()")
    read: set[str] = set()
    for f in src.glob("*.py"):
        text = f.read_text(encoding="utf-8")
        assert not mapping.search(text), f"{f.name} reads a request as a mapping"
        read |= set(attr.findall(text))
    assert read - declared == set()
    assert read <= fields
    assert {"a_flank_rear", "b_flank_rear", "width", "depth", "facing", "charged_by"} <= read


def test_the_chargers_flank_is_filled_in_the_targets_test(tmp_path: Path) -> None:
    """Declared once with the charge (positions not kept), the flank attack is filled in the
    target's forced test (-25%) and in the melee (+2 for cavalry)."""
    g = game(
        tmp_path,
        [
            unit("F1", kind="cavalry", formation="mounted", grade="C", front=6, figures=12),
            unit("A1", "Allies", in_command=False),
        ],
    )
    g.perform("charge", {"unit": "F1", "target": "A1", "flank_rear": True}, [6, 1])
    g.perform("next", {})
    (t, _) = g.odds("morale", {"unit": "A1", "charged_by": "F1"})
    # C 65, flank -25, not in square vs cavalry -30
    assert t.target == 65 - 25 - 30
    g.perform("morale", {"unit": "A1", "charged_by": "F1"}, [0])
    g.perform("fire", {"unit": "A1", "target": "F1", "hold": True})
    g.perform("close", {"unit": "F1"})
    g.perform("charge_home", {"unit": "F1"}, [0])
    oa = g.odds("melee", {"unit": "F1", "target": "A1"})[0]
    assert "+2" in (oa.note or "") and "flank" in (oa.note or "")


def test_todo_rates_the_staff_before_the_control_roll() -> None:
    """A new game's control roll needs every Control Rating: 'what next' offers 'staff' first
    (the control roll would be refused), then 'control'."""
    from vedette import rules as registry
    from vedette.engine import Game, Store

    scen = registry.get("solo_napoleonic").scenario("sample")
    g = Game.create(Store(":memory:"), "g", "solo_napoleonic", scen, 1)
    assert [t.command() for t in g.todo()] == ["staff"]
    g.perform("staff", {})
    assert [t.command() for t in g.todo()] == ["control"]
    g.perform("control", {})


def test_todo_offers_only_what_the_rules_accept_in_tracked_play(tmp_path: Path) -> None:
    """The sample battle (positions kept): over seeded play, every action `todo` offers (each
    choice of an open one) is carried out by the rules, dice and all: nothing plan accepts is
    refused after the roll (issue 22); and the offers `plan` drops are refused by the rules."""
    import itertools
    import random

    from vedette.dice import SeededSource
    from vedette.errors import VedetteError

    g = Game.create(Store(tmp_path / "s.db"), "s", "solonap", R.scenario("sample"), seed=7)
    rng = random.Random(1)
    offered = dropped = 0
    for _ in range(150):
        kept = g.todo()
        for t in kept:
            fields = list(t.open)
            for combo in itertools.product(*(t.open[f] for f in fields)):
                req = {**t.request, **dict(zip(fields, combo, strict=True))}
                p, _, plan = R.judge(g.state, t.procedure, req)
                p.resolve(g.state, plan, SeededSource(3, 0))  # never refused after the roll
                offered += 1
        shown = {t.command() for t in kept}
        for t in R.options(g.state):
            if not t.open and t.command() not in shown:
                with pytest.raises(VedetteError):
                    R.judge(g.state, t.procedure, t.request)
                dropped += 1
        for proc, req in R.legal_requests(g.state, rng):
            g.perform(proc, req)
            break
    assert offered and dropped  # the filter was exercised both ways
