"""The shift planner (issue 12): the exact odds of getting 0, 1, 2, 3 planned shifts through a
phase, from the core's chance algebra, checked against an enumeration of every pip of every
2d6 written here independently from O'Leary 2.5 (<= 0 through and not counted, 1-7 through
and +1 to later shifts, 8+ refused and shifting of that kind over for the phase)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest

from tests.solitaire_asl.asl_helpers import make, play, to_phase
from vedette.cli.main import main
from vedette.errors import BadRequest
from vedette.rules.solitaire_asl import RULESET
from vedette.rules.solitaire_asl.model import State
from vedette.rules.solitaire_asl.planner import odds_of, sequencing
from vedette.rules.solitaire_asl.requests import PlanRequest

PLAN = ("P1:D1", "P2:D2", "P3:D3")
#: each planned shift's own DRM, by hand: worst TEM 3 (-3); enemy LOS (+1); worst TEM 1 (-1)
OWN_DRM = (-3, +1, -1)


def three() -> State:
    sq = "4-4-7"
    s = make(
        [
            {"id": "P1", "location": "4A1", "status": "potential_dummy", "counters": [sq]},
            {"id": "D1", "location": "4C1", "status": "dummy", "dummies": 2},
            {"id": "P2", "location": "4E1", "status": "potential_dummy", "counters": [sq]},
            {"id": "D2", "location": "4G1", "status": "dummy", "dummies": 2},
            {"id": "P3", "location": "4I1", "status": "potential_dummy", "counters": [sq]},
            {"id": "D3", "location": "4K1", "status": "dummy", "dummies": 2},
        ],
        locations=[
            {"id": "4A1", "tem": 3},
            {"id": "4C1", "tem": 3},
            {"id": "4E1", "los": True},
            {"id": "4G1", "los": True},
            {"id": "4I1", "tem": 1},
            {"id": "4K1", "tem": 2},
        ],
    )
    return to_phase(s, "MPh")


def exhaustive(order: tuple[int, ...]) -> list[Fraction]:
    """P(n through) by walking all 6^6 pips (dice unused after a closure still counted)."""
    hits = [0] * 4
    for pips in itertools.product(range(1, 7), repeat=6):
        counted = through = 0
        for step, i in enumerate(order):
            final = pips[2 * step] + pips[2 * step + 1] + OWN_DRM[i] + counted
            if final >= 8:
                break
            through += 1
            if final >= 1:
                counted += 1
        hits[through] += 1
    return [Fraction(h, 6**6) for h in hits]


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_planner_odds_equal_exhaustive_enumeration(order: tuple[int, ...]) -> None:
    req = PlanRequest(shifts=PLAN)
    seq = sequencing(three(), req, RULESET.config(), RULESET.tables())
    assert [sum(m.value for m in p.mods) for p in seq.shifts] == list(OWN_DRM)
    c = odds_of(seq, order)
    assert c.exact
    assert [c.p(f"{n} through") for n in range(4)] == exhaustive(order)


def test_planner_finds_the_best_order_and_the_order_matters() -> None:
    _, out = play(three(), "plan", shifts=",".join(PLAN))
    d = out.details
    expected = {
        o: sum((n * p for n, p in enumerate(exhaustive(o))), Fraction(0))
        for o in itertools.permutations(range(3))
    }
    best = max(expected.values())
    assert len(set(expected.values())) > 1  # the order matters
    assert Fraction(d["best"]["expected"]["p"]) == best
    assert Fraction(d["expected"]["p"]) == expected[(0, 1, 2)]
    chosen = tuple(PLAN.index(x) for x in d["best"]["order"])
    assert expected[chosen] == best
    assert "best order" in out.message and out.events == ()


def test_planner_counts_shifts_already_made_and_refuses_bad_plans() -> None:
    s = three()
    s, _ = play(s, "shift", [2, 3], a="P2", b="D2")  # 5 + 1 = 6: through, counted
    _, out = play(s, "plan", shifts="P1:D1,P3:D3", order="given")
    seq = sequencing(
        s, PlanRequest(shifts=("P1:D1", "P3:D3"), order="given"), RULESET.config(), RULESET.tables()
    )
    assert seq.start["*"] == 1
    assert "best" not in out.details
    with pytest.raises(BadRequest, match="earlier planned shift"):
        play(s, "plan", shifts="P1:D1,P1:D3")
    with pytest.raises(BadRequest, match="A:B"):
        play(s, "plan", shifts="P1:D1:D2")


def test_plan_in_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "p.db")
    assert main(["--db", db, "asl", "new", "g", "--scenario", "sample", "--seed", "2"]) == 0
    assert main(["--db", db, "asl", "phase", "to=mph"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "asl", "plan", "shifts=P1:D1,H1:X1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    dist = [Fraction(x["p"]) for x in data["details"]["distribution"]]
    assert sum(dist) == 1 and len(dist) == 3
    assert main(["--db", db, "game", "log"]) == 0
    assert "plan" not in capsys.readouterr().out  # a query: nothing logged


def test_plan_in_the_web_app(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from vedette.engine import Game, Store
    from vedette.web.app import create_app

    db = tmp_path / "web.db"
    g = Game.create(Store(db), "asl1", "asl", RULESET.scenario("sample"), seed=4)
    g.perform("phase", {"to": "MPh"})
    c = TestClient(create_app(db), base_url="http://localhost")
    c.get("/")
    page = c.get("/games/asl1").text
    assert 'data-proc="plan"' in page
    t = page.split('name="csrf-token" content="')[1].split('"')[0]
    r = c.post(
        "/api/games/asl1/perform",
        json={"procedure": "plan", "request": {"shifts": "P1:D1,H1:X1"}},
        headers={"X-CSRF-Token": t},
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert any("through" in line for line in body["lines"])
    assert len(body["log"]) == 2  # a query: nothing logged


def test_planner_takes_stated_facts_per_location() -> None:
    """tem/los stated per location reach each planned shift's DRMs, as on 'shift'."""
    req = PlanRequest(shifts=PLAN, tem={"4A1": 0, "4C1": 0}, los={"4I1": True})
    seq = sequencing(three(), req, RULESET.config(), RULESET.tables())
    assert [sum(m.value for m in p.mods) for p in seq.shifts] == [0, 1, 0]
