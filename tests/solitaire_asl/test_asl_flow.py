"""Issue 12: the flow a referee must hold (owed decisions, set-up vs play, the start of a phase
that closes itself, phases named with side and player turn, group facts, named errors and
result texts), on the engine with the bundled sample scenario or small scenarios."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from vedette.cli.main import main
from vedette.engine import Game, Store
from vedette.errors import BadRequest, VedetteError
from vedette.rules import protocol
from vedette.rules.solitaire_asl import RULESET
from vedette.rules.solitaire_asl.model import Counter

RU, GE = "Russian", "German"
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "saved_games_v0_1" / "asl1.jsonl"


def sample(tmp_path: Path) -> Game:
    store = Store(tmp_path / "asl.db")
    return Game.create(store, "g", "asl", RULESET.scenario("sample"), seed=1)


def game(tmp_path: Path, stacks: list[dict[str, Any]], **scen: Any) -> Game:
    scenario: dict[str, Any] = {"name": "flow", "sides": [RU, GE], "first": RU, **scen}
    scenario["stacks"] = [{"side": RU, **s} for s in stacks]
    for k in ("fortifications", "minefields", "oba"):
        if k in scenario:
            scenario[k] = [{"side": RU, **x} for x in scenario[k]]
    return Game.create(Store(tmp_path / "flow.db"), "g", "asl", scenario, seed=3)


def goto(g: Game, phase: str, side: str = RU) -> None:
    g.perform("phase", {"to": phase, "side": side})


def refused(g: Game, proc: str, req: dict[str, Any], faces: list[int], *words: str) -> str:
    before, state = len(g.records), g.state
    with pytest.raises(VedetteError) as e:
        g.perform(proc, req, faces=faces)
    text = str(e.value)
    for w in words:
        assert w in text, text
    assert len(g.records) == before and g.state == state
    return text


def weapon(g: Game, cid: str) -> Counter:
    hit = g.state.counter(cid)
    assert hit is not None
    return hit[1]


# == 6.1 / 7.1: a pending decision is owed =========================================================
def test_6_1_scattered_hex_is_owed_before_the_weapon_fires_again(tmp_path: Path) -> None:
    """The issue's sequence: a 6 scatters 4Q6 two hexes N (4Q4); the next shot of r2 (a 1 at
    4R4) is refused until the decision is made; the late decide then locks 4Q4 for good."""
    g = sample(tmp_path)
    goto(g, "PFPh")
    out = g.perform("boresight", {"weapons": ["r2"], "target": "4Q6"}, faces=[6, 1, 2])
    assert "4Q4" in out.message and "decide id=r2" in out.message
    owed = g.obligations()
    assert [o.id for o in owed] == ["boresight:r2"]
    assert owed[0].procedure == "decide" and owed[0].request["hex"] == "4Q4"
    assert g.todo()[0].owed and g.todo()[0].command().startswith("decide id=r2")
    text = refused(
        g, "boresight", {"weapons": ["r2"], "target": "4R4"}, [1], "O'Leary 6.1", "decide id=r2"
    )
    assert "waive boresight:r2" in text
    g.perform("decide", {"id": "r2", "ok": True})
    assert weapon(g, "r2").boresight_location == "4Q4" and g.obligations() == ()
    # a locked location never changes: no new die, no second decision
    refused(g, "boresight", {"weapons": ["r2"], "target": "4R4"}, [1], "O'Leary 6.1", "4Q4")
    refused(g, "decide", {"id": "r2", "ok": False}, [], "O'Leary 6.1", "never changes")
    assert weapon(g, "r2").boresight_location == "4Q4"


def test_6_1_decision_refused_answer_and_waiver_and_undo(tmp_path: Path) -> None:
    g = sample(tmp_path)
    goto(g, "PFPh")
    g.perform("boresight", {"weapons": ["DP"], "target": "4Q6"}, faces=[6, 1, 2])  # by name
    g.perform("waive", {"obligation": "boresight:r2", "reason": "forgot"})
    assert g.obligations() == () and weapon(g, "r2").boresight == "eligible"
    g.undo()
    assert [o.id for o in g.obligations()] == ["boresight:r2"]
    g.perform("decide", {"id": "r2", "ok": False})
    assert weapon(g, "r2").boresight == "eligible" and g.obligations() == ()
    g.perform("boresight", {"weapons": ["r2"], "target": "4R4"}, faces=[2])
    assert weapon(g, "r2").boresight_location == "4R4"


def test_6_1_one_field_for_a_weapon_status() -> None:
    """The state holds one bore-sight field: a location, or none/eligible/lost. Release 0.1's
    two fields are read into one (a location wins: it is for good)."""
    c = Counter.from_json(
        {"id": "w", "name": "HMG", "boresight": "lost", "boresight_location": "4E5"}
    )
    assert c.boresight == "4E5" and c.boresight_location == "4E5"
    assert "boresight_location" not in c.to_json()
    assert Counter.from_json({"id": "w", "name": "HMG", "boresight": True}).boresight == "eligible"
    assert "boresight_location" not in {f for f in Counter.__dataclass_fields__}


def test_6_3_grouped_weapons_name_every_pending_decision(tmp_path: Path) -> None:
    g = game(
        tmp_path,
        [
            {
                "id": "P1",
                "location": "4A1",
                "status": "potential_dummy",
                "counters": [
                    {"id": "w1", "name": "HMG", "kind": "sw", "boresight": True},
                    {"id": "w2", "name": "MMG", "kind": "sw", "boresight": True},
                ],
            }
        ],
    )
    goto(g, "PFPh")
    out = g.perform("boresight", {"weapons": ["w1", "w2"], "target": "4E5"}, faces=[6, 4, 3])
    assert "decide id=w1" in out.message and "decide id=w2" in out.message
    assert {o.id for o in g.obligations()} == {"boresight:w1", "boresight:w2"}
    refused(g, "boresight", {"weapons": ["w2"], "target": "4E6"}, [1], "decide id=w1")
    g.perform("decide", {"id": "w1", "ok": True})
    refused(g, "boresight", {"weapons": ["w2"], "target": "4E6"}, [1], "decide id=w2")
    g.perform("decide", {"id": "w2", "ok": False})
    assert weapon(g, "w1").boresight_location == "4E8" and weapon(g, "w2").boresight == "eligible"


def test_7_1_prereg_decision_is_owed(tmp_path: Path) -> None:
    g = game(tmp_path, [], oba=[{"id": "O1", "prereg": True}], boards=[{"id": "4"}])
    goto(g, "PFPh")
    out = g.perform("prereg", {"module": "O1", "ar": "4K5"}, faces=[6, 4, 1])
    assert "decide id=O1" in out.message
    assert [o.id for o in g.obligations()] == ["prereg:O1"]
    refused(g, "prereg", {"module": "O1", "ar": "4K7"}, [1], "O'Leary 7.1", "decide id=O1")
    g.perform("decide", {"id": "O1", "ok": True})
    assert next(o for o in g.state.oba if o.id == "O1").location == "4K6"
    refused(g, "decide", {"id": "O1", "ok": True}, [], "O'Leary 7.1")
    refused(g, "prereg", {"module": "O1", "ar": "4K7"}, [1], "O'Leary 7.1", "4K6")


# == 2.3: set-up and play; the start of a phase closes itself ======================================
def test_2_3_no_move_during_setup(tmp_path: Path) -> None:
    g = sample(tmp_path)
    refused(g, "move", {"stack": "P1", "to": "4P6"}, [], "O'Leary 2.3", "set-up")
    assert weapon(g, "r2").boresight == "eligible"


def test_2_3_the_first_move_closes_the_start_of_the_phase(tmp_path: Path) -> None:
    """No 'act' needed: the side's first move ends the start of its MPh (and APh)."""
    g = sample(tmp_path)
    goto(g, "MPh")
    out = g.perform("move", {"stack": "P2", "to": "4N4"})
    assert "no more dummy shifts" in out.message
    refused(g, "shift", {"a": "P1", "b": "D1"}, [2, 2], "O'Leary 2.3", "already moved")
    goto(g, "APh")
    g.perform("shift", {"a": "P1", "b": "D1"}, faces=[1, 1])  # a new phase: open again
    g.perform("move", {"stack": "P1", "to": "4Q7"})
    refused(g, "shift", {"a": "P1", "b": "D1"}, [1, 1], "O'Leary 2.3")


def test_2_3_reading_a48_a_dummy_stack_moving_ends_the_start_unless_house_ruled(
    tmp_path: Path,
) -> None:
    """2.3 "provided no friendly unit has yet moved/advanced" (reading A48): the Russian dummy
    stack D2 (concealment counters only) moving ends the start of the MPh, so P1 may no longer
    exchange with D1. ``[flow] dummy_move_ends_start = false`` takes "unit" as 4.6.2 does
    (reading A35): D2's move leaves the start open, ``todo`` still offers the shift and it is
    made; a real unit's move then ends it."""
    g = sample(tmp_path)
    goto(g, "MPh")
    out = g.perform("move", {"stack": "D2", "to": "4R5"})
    assert "no more dummy shifts" in out.message
    refused(g, "shift", {"a": "P1", "b": "D1"}, [2, 2], "O'Leary 2.3")
    h = Game.create(
        Store(tmp_path / "h.db"),
        "g",
        "asl",
        RULESET.scenario("sample"),
        seed=1,
        house_rules={"flow": {"dummy_move_ends_start": False}},
    )
    goto(h, "MPh")
    out = h.perform("move", {"stack": "D2", "to": "4R5"})
    assert "no more dummy shifts" not in out.message
    offered = {(t.request.get("a"), t.request.get("b")) for t in h.todo() if t.procedure == "shift"}
    assert ("P1", "D1") in offered
    h.perform("shift", {"a": "P1", "b": "D1"}, faces=[2, 2])
    out = h.perform("move", {"stack": "P2", "to": "4N4"})
    assert "no more dummy shifts" in out.message
    refused(h, "shift", {"a": "P1", "b": "D1"}, [2, 2], "O'Leary 2.3")


def test_2_3_a_unit_entering_a_minefield_closes_the_start(tmp_path: Path) -> None:
    """A German unit entering a Russian minefield in the German MPh has moved."""
    g = game(
        tmp_path,
        [],
        minefields=[{"id": "M1", "location": "4A1", "ap": 6}, {"id": "M2", "location": "4C1"}],
    )
    s = g.state.stacks
    assert s == ()
    goto(g, "MPh", GE)
    assert not g.state.acted
    g.perform("minefield", {"entered": "M1", "other": "M2"}, faces=[6, 6])
    assert g.state.acted


# == phases named with side and player turn ========================================================
def test_phases_any_case_with_side(tmp_path: Path) -> None:
    g = sample(tmp_path)
    out = g.perform("phase", {"to": "mph"})
    assert (g.state.phasing, g.state.phase) == (RU, "MPh")
    assert "Russian player turn: MPh" in out.message and "player turn 1, first" in out.message
    g.perform("phase", {"to": "mph", "side": "german"})
    assert (g.state.phasing, g.state.phase, g.state.player_turn) == (GE, "MPh", 2)
    assert "German MPh (player turn 2, second of game turn 1)" in g.render().splitlines()[0]
    g.perform("phase", {"to": "Russian apH"})
    assert (g.state.phasing, g.state.phase, g.state.player_turn) == (RU, "APh", 3)
    with pytest.raises(BadRequest, match="no side"):
        g.perform("phase", {"to": "MPh", "side": "French"})
    with pytest.raises(BadRequest, match="PFPh"):
        g.perform("phase", {"to": "lunch"})


# == 2.4.2: group facts hold for every pair ========================================================
def _group(tmp_path: Path) -> Game:
    def sq(cid: str) -> dict[str, Any]:
        return {"id": cid, "name": "4-4-7", "kind": "squad"}

    return game(
        tmp_path,
        [
            {"id": "P1", "location": "4A1", "status": "potential_dummy", "counters": [sq("a")]},
            {"id": "D1", "location": "4C1", "status": "dummy", "dummies": 2},
            {"id": "P2", "location": "4E1", "status": "potential_dummy", "counters": [sq("b")]},
            {"id": "D2", "location": "4G1", "status": "dummy", "dummies": 2},
            {"id": "H1", "location": "4A5", "status": "hip", "counters": [sq("h1")]},
            {"id": "X1", "location": "4C5", "status": "dummy_hip"},
            {"id": "H2", "location": "4E5", "status": "hip", "counters": [sq("h2")]},
            {"id": "X2", "location": "4G5", "status": "dummy_hip"},
        ],
    )


def test_2_4_2_stated_facts_reach_every_pair(tmp_path: Path) -> None:
    g = _group(tmp_path)
    goto(g, "MPh")
    req = {"a": "P1", "b": "D1", "also": [["P2", "D2"]], "tem_a": 2, "tem_b": 2, "los": True}
    o = g.odds("shift", req)[0]
    reasons = {m.reason: m.value for m in o.modifiers}
    assert reasons.get("worst TEM +2: TEM stated for 4A1") == -2, reasons
    assert any("4E1" in r and "LOS" in r for r in reasons), reasons
    hip = {"a": "H1", "b": "X1", "also": [["H2", "X2"]], "tem_a": 1, "tem_b": 1, "lv": True}
    mods = {m.reason: m.value for m in g.odds("shift", hip)[0].modifiers}
    assert mods.get("worst TEM +1: TEM stated for 4A5") == -1, mods
    assert mods.get("LV hindrance at all ranges") == -1


# == errors name the kind of thing unknown =========================================================
def test_errors_name_what_is_unknown(tmp_path: Path) -> None:
    g = sample(tmp_path)
    goto(g, "MPh")
    assert "no stack 'D9'" in refused(g, "shift", {"a": "D9", "b": "D1"}, [1, 1])
    assert "no stack 'D9'" in refused(g, "move", {"stack": "D9", "to": "4P6"}, [])
    assert "no weapon 'zz'" in refused(g, "boresight", {"weapons": ["zz"], "target": "4P6"}, [1])
    # an AR is placed with OBA fire (PFPh, DFPh): in the MPh the flow refuses it first
    prereg = {"module": "O9", "ar": "4P6"}
    assert "prereg is not part of the MPh" in refused(g, "prereg", prereg, [])
    assert "no unrevealed minefield 'M9'" in refused(
        g, "minefield", {"entered": "M9", "other": "M1"}, [1, 1]
    )
    goto(g, "DFPh")
    assert "no OBA module 'O9'" in refused(g, "prereg", {"module": "O9", "ar": "4P6"}, [1])


def test_cli_ruleset_help_exits_zero(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["--db", str(tmp_path / "h.db"), "asl", "--help"]) == 0
    assert "boresight" in capsys.readouterr().out


# == result texts ==================================================================================
def test_result_texts_speak_of_what_shifted(tmp_path: Path) -> None:
    g = sample(tmp_path)
    goto(g, "MPh")
    out = g.perform("shift", {"a": "P1", "b": "D1"}, faces=[6, 5])  # 11 -1 TEM +1 LOS = 11
    assert out.rolls[0].row == "exposed"  # type: ignore[union-attr]
    text = out.message + out.rolls[0].line()
    assert "HIP" not in text and "cloak" not in text
    assert "remove dummy D1 from 4Q6" in out.message
    assert "P1 is no longer a potential dummy stack" in out.message
    out = g.perform("shift", {"a": "H1", "b": "X1"}, faces=[6, 6])  # 12 -1 = 11
    assert out.rolls[0].row == "exposed"  # type: ignore[union-attr]
    assert "potential dummy" not in out.message and "HIP" in out.message
    assert "remove the dummy HIP counter X1" in out.message


def test_a_revealed_minefield_is_not_labelled_hidden(tmp_path: Path) -> None:
    g = sample(tmp_path)
    goto(g, "MPh", GE)
    out = g.perform("minefield", {"entered": "M1", "other": "M2"}, faces=[6, 6])
    assert "turn M1 in 4R4 face up: 6 AP" in out.message
    lines = [ln for ln in g.render().splitlines() if ln.strip().startswith("M1")]
    assert lines and "revealed: 6 AP" in lines[0] and "hidden" not in lines[0]


# == protocol: no adapter, release 0.1 games =======================================================
def test_every_procedure_is_on_the_protocol() -> None:
    for p in RULESET.protocol_procedures().values():
        assert isinstance(p, protocol.Procedure)
    assert {e.kind for e in RULESET.events} >= {"phase", "shift", "boresight", "decide"}


def test_release_0_1_game_imports_and_replays(tmp_path: Path) -> None:
    g = Game.import_jsonl(Store(tmp_path / "i.db"), FIXTURE.read_text(), "old")
    p1, h1 = g.state.stack("P1"), g.state.stack("H1")
    assert g.state.phase == "DFPh" and p1 is not None and p1.location == "4Q6"
    assert h1 is not None and h1.location == "4M6"  # the HIP shift was undone
    assert g.state.count(RU, "1:MPh", "dummy") == 1
    g.perform("phase", {})
    assert g.state.phase == "AFPh"


def test_legal_requests_are_legal(tmp_path: Path) -> None:
    import random

    g = sample(tmp_path)
    rng = random.Random(5)
    for _ in range(30):
        reqs = list(RULESET.legal_requests(g.state, rng))
        assert reqs
        name, req = reqs[0]
        g.perform(name, req)
    json.dumps(RULESET.state_json(g.state))


# == names and ids ================================================================================
def test_commands_take_names_and_splits_keep_readable_ids(tmp_path: Path) -> None:
    g = sample(tmp_path)
    goto(g, "MPh")
    out = g.perform("move", {"stack": "DP", "to": "4P6", "counters": ["8-1"]})  # P1 by a name
    assert "8-1 split off P1 as P1b" in out.message
    p1b = g.state.stack("P1b")
    assert p1b is not None and [c.name for c in p1b.counters] == ["8-1"]
    g.perform("move", {"stack": "8-1", "to": "4P7"})  # the new stack by its counter's name
    assert g.state.stack("P1b").location == "4P7"  # type: ignore[union-attr]
    g.perform("move", {"stack": "P1", "to": "4P6", "counters": ["DP"], "name": "DP team"})
    assert g.state.stack("DP team") is not None
    g.perform("reveal", {"what": "T-34/76"})
    assert g.state.stack("P2").status.value == "revealed"  # type: ignore[union-attr]
    text = refused(g, "reveal", {"what": "4-4-7"}, [])
    assert "several counters are called '4-4-7'" in text


def test_hip_ids_after_a_shift_and_a_failure(tmp_path: Path) -> None:
    def sq(cid: str) -> dict[str, Any]:
        return {"id": cid, "name": f"squad {cid}", "kind": "squad"}

    g = game(
        tmp_path,
        [
            {"name": "Kampfgruppe", "location": "4A5", "status": "hip", "counters": [sq("a")]},
            {"id": "X1", "location": "4C5", "status": "dummy_hip"},
            {"id": "H2", "location": "4E5", "status": "hip", "counters": [sq("b"), sq("c")]},
            {"id": "X2", "location": "4G5", "status": "dummy_hip"},
        ],
    )
    assert g.state.stack("Kampfgruppe") is not None  # a scenario name is the stack's id
    goto(g, "MPh")
    out = g.perform("shift", {"a": "Kampfgruppe", "b": "X1", "back": []}, faces=[1, 2])
    assert "move squad a (Kampfgruppe) from 4A5 to 4C5" in out.message
    x = g.state.stack("X4A5")  # the dummy HIP counter left where no HIP unit is (3.3.3)
    assert x is not None and x.location == "4A5" and "(X4A5) in 4A5" in out.message
    # 12 - 1 (both HIP) + 1 (one previous shift) = 12
    out = g.perform("shift", {"a": "H2", "b": "X2", "move": ["squad b"]}, faces=[6, 6])
    assert out.rolls[0].row == "exposed"  # type: ignore[union-attr]
    h2b = g.state.stack("H2b")
    assert h2b is not None and [c.id for c in h2b.counters] == ["b"]
    assert h2b.status.value == "concealed"


def test_a_refused_shift_says_nothing_changes_on_the_board(tmp_path: Path) -> None:
    g = sample(tmp_path)
    goto(g, "MPh")
    out = g.perform("shift", {"a": "P1", "b": "D1"}, faces=[4, 5])  # 9: refused, closed
    assert "no more dummy stack shifts this phase" in out.message
    assert "Nothing to change on the board." in out.message
    assert out.details["changes"] == []
    goto(g, "MPh", GE)
    out = g.perform("shift", {"a": "H1", "b": "X1"}, faces=[4, 5])  # enemy MPh: 3.3.5
    assert "the enemy mph and own dfph count as one" in out.message.lower()


def test_release_0_1_boresight_payloads_upgrade_to_an_obligation(tmp_path: Path) -> None:
    """Version-1 payloads (untyped patches): a scattered hex logged as ``pending_add`` becomes
    the candidate of a typed event and the decision it owes; ``decide`` discharges it; a
    counter's ``boresight_location`` becomes its one bore-sight field."""
    g = sample(tmp_path)
    goto(g, "PFPh")
    s = g.state
    e = RULESET.decode(
        {
            "kind": "boresight",
            "data": {
                "pending_add": [["boresight", "r2", "4Q4"]],
                "weapons": ["r2"],
                "target": "4Q6",
                "row": "scatter",
            },
        }
    )
    assert type(e).__name__ == "BoresightRolled" and e.candidate == "4Q4"
    s = RULESET.fold(s, e)
    assert [o.id for o in s.owed] == ["boresight:r2"] and s.pending == (("boresight", "r2", "4Q4"),)
    p1 = s.stack("P1")
    assert p1 is not None
    rec = p1.to_json()
    rec["counters"][1] = {
        **rec["counters"][1],
        "boresight": "eligible",
        "boresight_location": "4Q4",
    }
    d = RULESET.decode(
        {
            "kind": "decide",
            "data": {
                "pending_remove": [["boresight", "r2"]],
                "put_stacks": [rec],
                "id": "r2",
                "ok": True,
            },
        }
    )
    s = RULESET.fold(s, d)
    assert s.owed == () and weapon_of(s, "r2").boresight == "4Q4"
    with pytest.raises(VedetteError, match="newer"):
        RULESET.decode({"kind": "shift", "v": 9, "data": {}})


def weapon_of(state: Any, cid: str) -> Counter:
    hit = state.counter(cid)
    assert hit is not None
    return hit[1]  # type: ignore[no-any-return]


def test_odds_of_the_whole_bore_sight_procedure(tmp_path: Path) -> None:
    """The core enumerates resolve: a 6 scatters off the boards from 4P5 only N 5-6, S 6."""
    from fractions import Fraction

    g = sample(tmp_path)
    goto(g, "PFPh")
    c = g.chances("boresight", {"weapons": "r2", "target": "4P5"})
    assert c.exact and c.p("here") == Fraction(1, 3) and c.p("not_yet") == Fraction(1, 2)
    assert c.p("scatter: still undetermined") + c.p(
        "scatter: a hex on the boards, to decide"
    ) == Fraction(1, 6)
    assert c.p("scatter: still undetermined") == Fraction(1, 72)


def test_reveal_a_minefield(tmp_path: Path) -> None:
    g = sample(tmp_path)
    goto(g, "MPh", GE)
    out = g.perform("reveal", {"what": "M2"})
    assert out.message == "turn M2 in 4S7 face up: 1 AT"
    refused(g, "reveal", {"what": "M2"}, [], "already revealed")
    refused(g, "minefield", {"entered": "M1", "other": "M2"}, [2, 2], "O'Leary 4.6.2")


def test_placed_dummies_are_named_after_their_hex(tmp_path: Path) -> None:
    """3.1.1, 4.6.1: a dummy HIP counter or dummy minefield placed at set-up gets a name the
    player can read off the board (its hex), not an invented serial."""
    g = Game.create(Store(tmp_path / "p.db"), "g", "asl", RULESET.scenario("sample"), seed=2)
    out = g.perform("place", {"kind": "dummy_hip", "side": "Russian", "location": "4Q6"})
    assert "X4Q6" in out.message and g.state.stack("X4Q6") is not None
    out = g.perform("place", {"kind": "dummy_hip", "side": "Russian", "location": "4Q6"})
    assert "X4Q6b" in out.message
    out = g.perform("place", {"kind": "dummy_minefield", "side": "Russian", "location": "4P5"})
    assert "M4P5" in out.message and g.state.minefield("M4P5") is not None


# == issue 24: queries in every phase ==============================================================
def test_shift_odds_are_shown_in_set_up_and_the_shift_itself_waits_for_its_window(
    tmp_path: Path,
) -> None:
    """The odds of a potential dummy stack's shift DR (2.3) are a query: asked in set-up they
    are the DR the shift would face; the shift itself is still refused until its window."""
    g = sample(tmp_path)
    assert g.state.phase == "setup"
    (odds,) = g.odds("shift", {"a": "P1", "b": "D1"})
    assert sum(r.p for r in odds.rows) == 1
    assert "shift allowed" in " ".join(r.result for r in odds.rows)
    refused(g, "shift", {"a": "P1", "b": "D1"}, [3, 3], "O'Leary 2.3")


def _allowed(c: Any) -> Fraction:
    return sum((r.p for r in c.rows if "allowed" in r.result), Fraction(0))


def test_every_query_of_a_shift_answers_outside_its_window_and_they_agree(tmp_path: Path) -> None:
    """Issue 24: queries in every phase. Outside a potential dummy stack's window (set-up, the
    enemy's MPh; O'Leary 2.3) ``chances shift`` and ``shift --odds`` answered while the
    planner (``plan``) and ``chances shifts`` refused: now all four answer, with the same
    chance of getting through (7/12 here); the shift itself is still refused."""
    g = sample(tmp_path)
    for phase, side in (("setup", RU), ("MPh", GE), ("MPh", RU)):
        if phase != "setup":
            goto(g, phase, side)
        single = g.chances("shift", {"a": "P1", "b": "D1"})
        seq = g.chances("shifts", {"shifts": ["P1:D1"]})
        assert _allowed(single) == _allowed(seq) == Fraction(7, 12), phase
        (odds,) = g.odds("shift", {"a": "P1", "b": "D1"})
        assert sum(r.p for r in odds.rows if r.key in ("free", "allowed")) == Fraction(7, 12)
        planned = g.perform("plan", {"shifts": ["P1:D1"]}).message
        assert "1 through:  58.33%" in planned, planned
        if (phase, side) != ("MPh", RU):
            refused(g, "shift", {"a": "P1", "b": "D1"}, [3, 3], "O'Leary 2.3")
