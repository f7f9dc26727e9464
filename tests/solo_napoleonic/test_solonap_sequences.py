"""Kuryakin 'charge_to_melee' sequence (issue 17): a charge from declaration to the end of the
first round of melee, checked against an enumeration of every percentile face written here from
the text: percentile dice read 00-99 and pass below the figure (Kuryakin, Morale: "80% passes
80 times in 100"); Charge Test BPL A 85 / B 75 / C 65 / D 55; morale BPL A 95 / B 80 / C 65 /
D 50; Charge Home BPL C 60; the morale result chart (a D10, our shipped default): 1-2 routs,
3-4 retires in disorder, 5-10 stays (halts or retires facing the enemy); no charge home test
when the target failed its morale and the charger has taken no casualties (Cavalry vs.
Infantry). No generals in these scenarios, so no command or attachment modifiers."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from solonap_helpers import unit

from vedette.cli.main import main
from vedette.engine import Game, Store
from vedette.errors import BadRequest, RuleViolation
from vedette.rules import get
from vedette.rules.protocol import Chances, chances
from vedette.rules.sequence import Steps, summary_of

NAME = "charge_to_melee"
PCT = range(100)  # a percentile die read 00-99
CHART = {1: "routs", 2: "routs", 3: "retires in disorder", 4: "retires in disorder"}


def duel(tmp_path: Path, f1: dict[str, Any], a1: dict[str, Any]) -> Game:
    """F1 on card 1 (active), A1 on card 2; units not placed (distances stated or none). F1 is
    advancing: the charge's own odds, no standstill D6 before them (reading K74)."""
    scen = {
        "title": "charge",
        "sides": ["French", "Allies"],
        "units": [unit("F1", **{"advancing": True, **f1}), unit("A1", "Allies", **a1)],
        "generals": [],
    }
    g = Game.create(Store(tmp_path / "g.db"), "g", "solonap", scen, seed=5)
    g.perform("control", {})
    g.perform("deal", {"cards": {"F1": 1, "A1": 2}, "chance": {}})
    g.perform("next", {})
    return g


def sampled(g: Game, request: dict[str, Any], samples: int) -> Chances:
    """The sequence sampled at once (limit 0), ``samples`` seeded runs."""
    seq = g.sequences()[NAME]
    plan = seq.plan(g.state, seq.parse(request))
    state = g.state
    return chances(lambda dice: seq.resolve(state, plan, dice), limit=0, samples=samples)


def chart_word(face: int) -> str:
    return CHART.get(face, "fails morale and halts")


def brute_force(charge: int, morale: int, home: int | None) -> dict[str, Fraction]:
    """Every face of each die rolled: the charge test; the target's morale test; its chart (a
    failure only); and (``home``: the charge home test's figure, for a target that gives no
    fire) the charge home test, which a target's failure makes unnecessary."""
    # each outcome counted in faces of all the dice (n**3 * 10 in all), each face rolled alike;
    # divided at the end (whole numbers while counting: the same sums as adding Fractions)
    n = len(PCT)
    count: dict[str, int] = {}

    def add(label: str, faces: int) -> None:
        count[label] = count.get(label, 0) + faces

    for c, m in itertools.product(PCT, PCT):
        if c >= charge:
            add("F1 will not charge A1", n * 10)
        elif m < morale and home is None:
            add("F1 charges A1: A1 holds", n * 10)
        elif m < morale:
            for h in PCT:
                went = "charge goes home" if h < home else "F1 fails to charge home"
                add(f"F1 charges A1: A1 holds; {went}", 10)
        else:
            for d in range(1, 11):
                # no charge home test: the target failed its morale, F1 is unhurt; a target
                # routed before contact is not fought: F1 takes the ground
                went = "F1 takes the ground" if d in CHART and CHART[d] == "routs" else ""
                went = went or "charge goes home"
                then = f"; {went}" if home is not None else ""
                add(f"F1 charges A1: A1 {chart_word(d)} before contact{then}", n)
    return {label: Fraction(k, n**3 * 10) for label, k in count.items()}


def test_charge_test_and_target_morale_equal_brute_force(tmp_path: Path) -> None:
    """D infantry (charge 55%) against A infantry (morale 95%): small enough to enumerate."""
    g = duel(tmp_path, {"grade": "D"}, {"grade": "A"})
    c = g.chances(NAME, {"unit": "F1", "target": "A1", "until": "morale"})
    assert c.exact
    assert {r.result: r.p for r in c.rows} == brute_force(55, 95, None)
    each = {r.result: r.p for r in summary_of(get("solonap").sequences()[NAME], c)}
    assert each["charge declared"] == Fraction(55, 100)
    assert each["target fails morale"] == Fraction(55, 100) * Fraction(5, 100)
    assert each["target routs"] == Fraction(55, 100) * Fraction(5, 100) * Fraction(2, 10)


def test_through_charge_home_is_exact_and_equals_brute_force(tmp_path: Path) -> None:
    """C cavalry against C cavalry (which gives no defensive fire): charge 65%, the target's
    morale 65%, charge home 60%. The percentile tests branch per result (pass/fail, each row
    of the chart), not per face, so the tree is small and exact; it equals the enumeration of
    every face (100 x 100 x 100 x 10)."""
    g = duel(tmp_path, {"kind": "cavalry"}, {"kind": "cavalry"})
    c = g.chances(NAME, {"unit": "F1", "target": "A1", "until": "home"})
    assert c.exact and c.leaves < 50
    assert {r.result: r.p for r in c.rows} == brute_force(65, 65, 60)
    each = {r.result: r.p for r in summary_of(get("solonap").sequences()[NAME], c)}
    stands = Fraction(8, 10)  # a target that fails but does not rout (D10 3-10) is caught
    home = Fraction(65, 100) * (Fraction(65, 100) * Fraction(60, 100) + Fraction(35, 100) * stands)
    assert each["charge goes home"] == home
    assert each["charge declared"] == Fraction(65, 100)
    assert each["target fails morale"] == Fraction(65, 100) * Fraction(35, 100)


def test_the_whole_cavalry_charge_is_exact_and_agrees_with_its_first_steps(
    tmp_path: Path,
) -> None:
    """The whole charge of cavalry against cavalry, to the end of the first round of melee and
    the loser's morale, is exact at the default limit; its end states sum to 1 and its charge
    home facets equal the brute-forced first steps."""
    g = duel(tmp_path, {"kind": "cavalry"}, {"kind": "cavalry"})
    c = g.chances(NAME, {"unit": "F1", "target": "A1"})
    assert c.exact
    assert sum(r.p for r in c.rows) == 1
    each = {r.result: r.p for r in summary_of(get("solonap").sequences()[NAME], c)}
    first = brute_force(65, 65, 60)
    went = sum(p for k, p in first.items() if k.endswith("charge goes home"))
    assert each["charge goes home"] == went == each["melee fought"]
    assert each["charger wins the first round"] + each["target wins the first round"] < went


def test_the_whole_charge_follows_the_owed_steps(tmp_path: Path) -> None:
    """Infantry against infantry to the end of the first round: every step the guided charge
    owes appears in the end states, in the order the rules owe them; the facets count them."""
    g = duel(tmp_path, {"grade": "B"}, {"grade": "C"})
    c = sampled(g, {"unit": "F1", "target": "A1"}, 300)
    assert not c.exact
    labels = [r.result for r in c.rows]
    assert "F1 will not charge A1" in labels
    fired = [x for x in labels if "A1 holds; A1's fire: " in x]
    assert fired, "no defensive fire after the target held"
    assert all("A1's fire" not in x for x in labels if "before contact" in x)
    melee = [x for x in labels if "; melee: " in x]
    assert melee and all(x.index("charge goes home") < x.index("melee: ") for x in melee)
    assert any("F1 halted by fire" in x for x in labels)
    # a charger that lost 10% to the fire owes its morale test before it moves on: the
    # sequence takes it where play would, and never stops short of the melee for it
    assert not any(x.startswith("stopped") for x in labels), labels
    tested = [x for x in labels if "F1 tests morale for its losses: " in x]
    assert tested and all(x.index("A1's fire") < x.index("F1 tests morale") for x in tested)
    for x in melee:
        tail = x.split("; melee: ")[1]
        assert tail.startswith(("F1 wins", "A1 wins", "drawn"))
        if not tail.startswith("drawn"):  # the loser checks morale
            loser = "A1" if tail.startswith("F1 wins") else "F1"
            assert f"; {loser} " in x.split("melee: ")[1], x
    each = {r.result: r.p for r in summary_of(get("solonap").sequences()[NAME], c)}
    assert each["charge declared"] + each["no charge (the charge test fails)"] == 1
    assert each["melee fought"] == each["charge goes home"]
    # the sequence changes nothing in the game
    assert len(g.records) == 4


def test_equal_states_share_the_steps_cache_and_change_no_odds(tmp_path: Path) -> None:
    """A state a step leaves that equals one reached by other dice (the same casualties from
    other faces) replays the later steps from the cache kept for that one (issue 29): the
    odds, exact or sampled, are those of the same steps taken on each state afresh."""
    g = duel(tmp_path, {"grade": "B"}, {"grade": "C"})
    seq = g.sequences()[NAME]
    state = g.state

    def odds(request: dict[str, Any], limit: int, share: bool) -> tuple[Chances, int]:
        plan = seq.plan(state, seq.parse(request))
        if not share:
            plan.data.steps.same_state = None
        c = chances(lambda dice: seq.resolve(state, plan, dice), limit=limit, samples=400)
        return c, len(plan.data.steps.roots)

    home = {"unit": "F1", "target": "A1", "until": "home"}
    (shared, _), (alone, _) = odds(home, 20_000, True), odds(home, 20_000, False)
    assert shared.exact and alone.exact and shared.rows == alone.rows
    whole = {"unit": "F1", "target": "A1"}
    (shared, kept), (alone, apart) = odds(whole, 0, True), odds(whole, 0, False)
    assert not shared.exact and shared.rows == alone.rows
    assert kept < apart  # fewer states to take the steps on: equal ones were met


def test_refusals_are_the_requests(tmp_path: Path) -> None:
    g = duel(tmp_path, {}, {})
    with pytest.raises(BadRequest, match="target"):
        g.chances(NAME, {"unit": "F1", "target": "F1"})
    with pytest.raises(BadRequest, match="until"):
        g.chances(NAME, {"unit": "F1", "target": "A1", "until": "brawl"})
    # a query in any phase (issue 24): A1's charge, its card not up, as if it were; the same
    # odds as on its card
    off_card = g.chances(NAME, {"unit": "A1", "target": "F1", "until": "morale"})
    with pytest.raises(RuleViolation, match="not A1's card"):
        g.perform("charge", {"unit": "A1", "target": "F1"}, [1])  # the charge itself waits
    g.perform("charge", {"unit": "F1", "target": "A1"}, [90])  # fails: binds for the turn
    with pytest.raises(RuleViolation, match="failed its charge test"):
        g.chances(NAME, {"unit": "F1", "target": "A1"})
    g.perform("next", {})  # A1's card
    assert g.chances(NAME, {"unit": "A1", "target": "F1", "until": "morale"}).rows == off_card.rows


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Listed with the other sequences, computed through 'vedette solonap chances', sampled when
    the tree is too large and saying so; a bad request is one line."""
    g = duel(tmp_path, {}, {})
    db = str(tmp_path / "g.db")
    assert main(["--db", db, "solonap", "chances", "--game", "g"]) == 0
    assert NAME in capsys.readouterr().out
    assert main(["--db", db, "solonap", "chances", "--json", "--game", "g"]) == 0
    listed = {s["name"]: s for s in json.loads(capsys.readouterr().out)}
    assert "until" in listed[NAME]["fields"]["properties"]
    args = ["--db", db, "solonap", "chances", NAME, "F1", "A1", "until=home", "--game", "g"]
    assert main([*args, "--limit", "5"]) == 0
    text = capsys.readouterr().out
    assert "SAMPLED" in text and "95%" in text and "F1 will not charge A1" in text
    assert "each" in text and "charge declared" in text
    assert main([*args, "--limit", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is False and data["note"] and data["each"]
    assert main(["--db", db, "solonap", "chances", NAME, "F1", "--game", "g"]) != 0
    err = capsys.readouterr().err
    assert "target" in err and "Traceback" not in err
    assert len(g.store.records(g.id)) == 4  # nothing logged


def test_a_step_drawn_once_per_state_it_leaves_changes_no_odds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The target's owed retirement (or rout) is played by the sequence as one branch per
    distinct state it leaves (``Steps.merged``: its dice give many places, the cavalry duel
    unplaced few states): the exact odds are those of drawing each of its dice (``step``), with
    far fewer branches."""
    g = duel(tmp_path, {"kind": "cavalry"}, {"kind": "cavalry"})
    request = {"unit": "F1", "target": "A1", "until": "home"}
    merged = g.chances(NAME, request)
    monkeypatch.setattr(Steps, "merged", lambda self, name, req, value: self.step(name, req))
    each_die = g.chances(NAME, request)
    assert merged.exact and each_die.exact and merged.rows == each_die.rows
    assert merged.leaves * 5 < each_die.leaves
