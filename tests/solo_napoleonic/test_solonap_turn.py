"""A full turn of the bundled sample battle, played through the engine with forced dice (the
player's own faces), its final state asserted; then the CLI round trip."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from vedette.cli.main import main
from vedette.engine import Game, Store, replay
from vedette.rules.solo_napoleonic import RULESET as R


def full_turn(tmp_path: Path) -> Game:
    st = Store(tmp_path / "turn.db")
    g = Game.create(st, "kirchdorf", "solo_napoleonic", R.scenario("sample"), seed=1)
    # staff: Dessaix 3,4,7 (Average, Normal, Good CR 7); Morand 5,5,5 (Above Average,
    # Aggressive, Average CR 6); Colbert 3,3,4; Hohenfeld (Austrian -1 TH, -1 CR) 4,3,5;
    # Bianchi (Austrian) 2,2,3 -> TH 1 Below Average, Timid, grade roll 3 Average CR 6-1 = 5
    g.perform("staff", {}, [3, 4, 7, 5, 5, 5, 3, 3, 4, 4, 3, 5, 2, 2, 3])
    assert g.state.general("Bianchi").cr == 5 and g.state.general("Morand").av == "aggressive"
    # control: Morand 7 < 6+2 (Dessaix, Good, within 300mm); Colbert 6 fails (< 6 needed);
    # Bianchi 2 < 5+1 (Hohenfeld, Average, within 300mm). Colbert's failure leaves his
    # lancers F5 out of command control this move.
    out = g.perform("control", {}, [7, 6, 2])
    assert g.state.control == {"Morand": "passed", "Colbert": "failed", "Bianchi": "passed"}
    out_of_cmd = {u.id for u in g.state.units if not u.in_command}
    assert out_of_cmd == {"F4", "F5", "A2", "A3", "A4"}, out.message
    cards = {"F4": 1, "F5": 2, "Morand": 3, "A4": 4, "Bianchi": 5, "A2": 8, "A3": 9}
    g.perform("deal", {"cards": cards, "chance": {"French": "smoke", "Austrians": "rally"}})
    assert [c.holder for c in g.state.queue()] == list(cards)

    # #1 F4, the French battery, fires ball at A1: 1d6=4 +1 (crew over 3) = 5 figures hit;
    # saves on 5-6 at short range: 1,2,3,5,6 -> 3 casualties (no special figure: no allocation)
    g.perform("next", {})
    out = g.perform("fire", {"unit": "F4", "target": "A1"}, [4, 1, 2, 3, 5, 6])
    assert out.details["band"] == "short" and out.details["casualties"] == 3

    # #2 F5, the lancers, advance 200mm from a standstill: d6=4 moves; dK12=+2 (+20mm);
    # swerve 3: none
    g.perform("next", {})
    out = g.perform("move", {"unit": "F5", "distance": 200}, [4, 2, 3])
    assert g.state.unit("F5").y == 620.0

    # #3 Morand's brigade: F2 forms column (d4=2, -1 Above Average TH: 1 quarter);
    # F1 advances 100mm (standstill 1+1 Aggressive = 2 moves; dK8=+3 -> +2 Above Average;
    # swerve 1 = left by d6=2 cm)
    g.perform("next", {})
    g.perform("formation", {"unit": "F2", "to": "column"}, [2])
    g.perform("move", {"unit": "F1", "distance": 100}, [1, 3, 1, 2])
    f1 = g.state.unit("F1")
    assert (f1.x, f1.y, f1.formation) == (780.0, 520.0, "column")
    # F1's column moves through F3, its own side's skirmish screen (780-1020 wide at y=500):
    # skirmishers "screen other units", passed through without a collision (reading K64)
    assert [t.command() for t in g.todo() if t.owed] == []
    assert (g.state.unit("F1").disorder, g.state.unit("F3").disorder) == (0, 0)

    # #4 A4, the hussars, charge the lancers (B 75%: 30 passes); F5 has already acted, so it
    # tests morale at once: 80 +20 (two friends within 300mm) = 100 (out of command: no +15):
    # 00-99 all pass (percentiles read 00-99, issue 14), 50 holds
    g.perform("next", {})
    out = g.perform("charge", {"unit": "A4", "target": "F5"}, [6, 30])
    assert "already acted" in out.message
    o = g.odds("morale", {"unit": "F5", "charged_by": "A4"})[0]
    assert o.p("pass") == Fraction(100, 100)
    g.perform("morale", {"unit": "F5", "charged_by": "A4"}, [50])
    # the hussars move up (F5, cavalry, gives no defensive fire: issue 14's guided charge)
    assert [t.command() for t in g.todo() if t.owed] == ["close unit=A4"]
    g.perform("close", {"unit": "A4"})
    # charge home: B 75%, 20 passes; the hussars end in contact
    g.perform("charge_home", {"unit": "A4"}, [20])
    # melee, cavalry vs cavalry, front ranks only: 6 points each, one die each.
    # A4: 6 -> 3 potential, F5 saves 1,2,5 -> 2; F5: 2 -> 1, A4 saves 6 -> 0.
    out = g.perform("melee", {"unit": "A4", "target": "F5"}, [6, 1, 2, 5, 2, 6])
    assert out.details["inflicted"] == {"A4": 2, "F5": 0} and out.details["losers"] == ["F5"]
    # the loser tests: 80 +20 -15 (loser) -6 (2 casualties) = 79: 96 fails;
    # D10=3: retires in disorder and must rally
    g.perform("morale", {"unit": "F5"}, [96, 3])
    # issue 23: the retirement is owed at once, a full move back (its 1D is that move's)
    assert [t.command() for t in g.todo() if t.owed] == ["move unit=F5 mode=retire"]
    g.perform("move", {"unit": "F5", "mode": "retire"}, [0, 3])

    # #5 Bianchi's brigade: the battery A5 fires at F2 (column, 5 in front): 1d6=3 hits;
    # saves 5,1,2 -> 2 casualties
    g.perform("next", {})
    # issue 14: the referee called A1's morale test (3 of its figures lost to F4's fire, 10% or
    # more in one attack): its marker is owed when Bianchi's card comes. 00 holds.
    assert [t.command() for t in g.todo() if t.owed] == ["morale unit=A1"]
    g.perform("morale", {"unit": "A1"}, [0])
    out = g.perform("fire", {"unit": "A5", "target": "F2"}, [3, 5, 1, 2])
    assert out.details["casualties"] == 2
    # F2 lost 2 of 18 (10% or more) and has acted: the referee's call is owed at once
    assert [t.command() for t in g.todo() if t.owed] == ["morale unit=F2"]
    g.perform("morale", {"unit": "F2"}, [0])

    # #8 A2 tries to advance from a standstill: 1 -1 (Timid Bianchi) = 0: does not advance
    g.perform("next", {})
    out = g.perform("move", {"unit": "A2"}, [1])
    assert "does not advance" in out.message

    # #9 A3 forms column: d4=4 +1 (Below Average) +2 (out of command) = 7 quarters: 3 carry
    g.perform("next", {})
    g.perform("formation", {"unit": "A3", "to": "column"}, [4])
    g.perform("next", {})
    assert g.state.phase == "end"
    out = g.perform("end_turn", {})
    return g


def test_scripted_full_turn(tmp_path: Path) -> None:
    g = full_turn(tmp_path)
    s = g.state
    assert (s.turn, s.phase, s.cards, s.chance) == (2, "control", (), {})
    a1, f2, f5, a3, f4, a5, a4 = (s.unit(x) for x in ("A1", "F2", "F5", "A3", "F4", "A5", "A4"))
    assert a1.figures == 17 and a1.casualties_turn == 0
    assert f2.figures == 16 and f2.formation == "column"
    assert (f5.figures, f5.status, f5.disorder, f5.must_rally) == (10, "retiring", 2, True)
    assert a4.disorder == 1 and a4.figures == 12
    assert (a3.disorder, a3.formation, a3.formation_target, a3.formation_quarters) == (
        1,
        "line",
        "column",
        3,
    )
    assert f4.disorder == 1 and a5.disorder == 1
    assert not any(u.acted or u.fired or u.moved_mm for u in s.units)
    # the log replays to the same state
    assert replay(R, g.store.records(g.id)).state == s


def test_refused_action_logs_nothing(tmp_path: Path) -> None:
    st = Store(tmp_path / "r.db")
    g = Game.create(st, "r", "solo_napoleonic", R.scenario("sample"), seed=3)
    before, n = g.state, len(g.records)
    from vedette.errors import VedetteError

    for proc, req in [
        ("deal", {}),
        ("move", {"unit": "F1"}),
        ("fire", {"unit": "F4"}),
        ("control", {}),
        ("melee", {"unit": "F1", "target": "A1"}),
        ("move", {"unit": "nobody"}),
    ]:
        with pytest.raises(VedetteError):
            g.perform(proc, req)
        assert g.state == before and len(g.records) == n


def test_cli_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "cli.db")

    def cli(*args: str) -> str:
        capsys.readouterr()
        assert main(["--db", db, "solonap", *args]) == 0
        return capsys.readouterr().out

    assert "Mill at Kirchdorf" in cli("new", "k", "--seed", "9", "--option", "officers=true")
    assert "Grade" in cli("staff", "--odds")
    cli("staff")
    data = json.loads(cli("control", "--json"))
    assert data["rolls"] and data["events"]
    assert "cards revealed" in cli("deal")
    nxt = json.loads(cli("next", "--json"))
    active = nxt["details"]["units"][0]
    assert active in cli("order")
    st = json.loads(cli("status", f"unit={active}", "--json"))
    assert st["details"]["unit"]["id"] == active
    assert "Kuryakin" in cli("help") or "kuryakin" in cli("help").lower()
    assert main(["--db", db, "solonap", "fire", "unit=F1", "target=F2"]) != 0
    shown = cli("show")
    assert "turn 1, activation phase" in shown and "optional: officers" in shown
