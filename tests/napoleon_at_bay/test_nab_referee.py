"""Napoleon At Bay on the referee protocol: the flow between rolls (issue: fixings owed from the
moment of ZOC entry, path-aware moves, end of movement held while a fixing is owed, ties rolled
with the player's own d6)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from vedette import rules
from vedette.engine import Game, Store, replay
from vedette.engine.referee import resign
from vedette.errors import GameError, RuleViolation, VedetteError
from vedette.web.app import create_app

SAMPLE = rules.get("nab").scenario("sample")


def game(tmp_path: Path, **options: object) -> Game:
    st = Store(tmp_path / "g.db")
    return Game.create(st, "g", "nab", SAMPLE, seed=1, options=options or None)


def unchanged(g: Game, proc: str, req: dict[str, object], match: str) -> None:
    before, n = g.state, len(g.records)
    with pytest.raises(VedetteError, match=match):
        g.perform(proc, req)
    assert g.state == before and len(g.records) == n


def test_a_fixing_is_owed_from_the_moment_of_zoc_entry(tmp_path: Path) -> None:
    g = game(tmp_path)
    out = g.perform("move", {"force": "F1", "to": "W2020"})
    assert "the fixing of R1 is owed now" in out.message
    assert [o.id for o in g.obligations()] == ["fix:F1:R1"]
    first = g.todo()[0]
    assert first.owed and first.procedure == "fix" and first.rule == "Herman (1)"
    assert dict(first.request) == {"moving": "F1", "contact": "R1"}


def test_a_second_mover_cannot_make_the_owed_fixing_lost(tmp_path: Path) -> None:
    """Before: F2 entering R1's ZOC made R1 ineligible ('already has an enemy force in its
    ZOC') and the owed fixing vanished. Now the owed fixing comes first."""
    g = game(tmp_path)
    g.perform("move", {"force": "F1", "to": "W2020"})
    unchanged(g, "move", {"force": "F2", "to": "W2022"}, r"fixing of R1 .*owed first")
    # and once waived, a later mover cannot take it away either: it is recorded in the log
    g.perform("fix", {"moving": "F1", "contact": "R1"}, faces=[1])
    assert g.state.pieces["R1"].fixed


def test_the_mover_cannot_slide_inside_the_zoc_before_fixing(tmp_path: Path) -> None:
    g = game(tmp_path)
    g.perform("move", {"force": "F1", "to": "W2020"})
    unchanged(g, "move", {"force": "F1", "to": "W2021"}, r"owed first: 'fix moving=F1 contact=R1'")
    out = g.perform("fix", {"moving": "F1", "contact": "R1"}, faces=[1])
    assert out.details["result"] == "stays" and g.obligations() == ()


def test_an_owed_fixing_is_judged_eligible_at_entry(tmp_path: Path) -> None:
    """Herman (1): eligibility is judged when the moving force enters; a waiver of another
    step or a later state does not re-judge it."""
    g = game(tmp_path)
    g.perform("move", {"force": "F1", "to": "W2020"})
    # the rules engine, asked directly, would refuse R1 now if another French force stood in
    # its ZOC; the owed fixing is still honoured because it was judged at entry
    st = g.state
    proc = g.ruleset.procedures["fix"]
    plan = proc.plan(st, proc.parse({"moving": "F1", "contact": "R1"}))
    assert plan.data.owed


def test_end_movement_is_refused_while_a_fixing_is_owed(tmp_path: Path) -> None:
    g = game(tmp_path)
    g.perform("move", {"force": "F1", "to": "W2020"})
    unchanged(g, "end_movement", {}, r"F1 .*R1 .*fixing is owed.*\(Herman \(5\)\)")
    g.perform("waive", {"obligation": "fix:F1:R1"})
    out = g.perform("end_movement", {})
    assert g.state.phase == "combat" and "fixed: none" in out.message
    kinds = [r.payload.get("procedure") for r in g.records if r.kind == "action"]
    assert kinds == ["move", "waive", "end_movement"]
    assert replay(g.ruleset, g.records).state == g.state


def test_a_move_never_passes_through_an_enemy_hex(tmp_path: Path) -> None:
    """Before: F1 W1920 -> W2321 went straight through R1's hex W2121."""
    g = game(tmp_path)
    out = g.perform("move", {"force": "F1", "to": "W2321"})
    path = out.details["path"]
    occupied = {h for p in g.state.pieces.values() if p.side == "Ru" for h in p.hexes}
    assert path[0] == "W1920" and path[-1] == "W2321"
    assert not set(path[1:-1]) & occupied
    assert "W2121" not in path
    # the cheapest legal path stops at no ZOC before its end: R2's ZOC (W2321) is entered last
    assert [o.id for o in g.obligations()] == ["fix:F1:R2"]


def test_a_given_path_through_an_enemy_hex_or_on_through_a_zoc_is_refused(tmp_path: Path) -> None:
    g = game(tmp_path)
    unchanged(
        g,
        "move",
        {"force": "F1", "to": "W2321", "path": "W1920,W2020,W2121,W2221,W2321"},
        r"passes through W2121, which holds an enemy piece",
    )
    unchanged(
        g,
        "move",
        {"force": "F1", "to": "W2220", "path": "W1920,W2020,W2120,W2220"},
        r"enters an enemy ZOC at W2020 and stops there",
    )


def test_without_stop_at_zoc_every_zoc_entered_is_recorded(tmp_path: Path) -> None:
    g = game(tmp_path, stop_at_zoc=False)
    out = g.perform("move", {"force": "F1", "to": "W2321", "path": "W1920,W2020,W2120,W2220,W2321"})
    entered = [z["force"] for z in out.details["zoc"]]
    assert entered == ["R1", "R2"]
    # only the ZOC it ends in can be fixed: it passed through R1's
    assert [o.id for o in g.obligations()] == ["fix:F1:R2"]


def test_the_whole_fixing_odds_come_from_resolve(tmp_path: Path) -> None:
    g = game(tmp_path)
    g.perform("move", {"force": "F1", "to": "W2020"})
    ch = g.chances("fix", {"moving": "F1", "contact": "R1"})
    assert ch.exact
    assert ch.p("R2 (Ru Inf) substituted for R1") == Fraction(5, 6)
    assert ch.p("R1 stays, fixed") == Fraction(1, 6)


def test_undone_fixing_dice_stay_with_the_fixing(tmp_path: Path) -> None:
    g = game(tmp_path)
    g.perform("move", {"force": "F1", "to": "W2020"})
    first = g.perform("fix", {"moving": "F1", "contact": "R1"}).rolls[0].natural
    g.undo()
    again = g.perform("fix", {"moving": "F1", "contact": "R1"}).rolls[0].natural
    assert again == first
    with pytest.raises(RuleViolation):
        g.perform("fix", {"moving": "F1", "contact": "R1"})  # fixed now: not retaken


def test_the_candidates_query_answers_after_a_waived_fixing(tmp_path: Path) -> None:
    """The `candidates` query (moving=F1) shows the fixing's odds while it is owed, and once it
    is waived answers that it is not eligible (before: the query itself failed with the fix's
    refusal, 'no fixing of R1 is owed')."""
    g = game(tmp_path)
    g.perform("move", {"force": "F1", "to": "W2020"})
    owed = g.perform("candidates", {"contact": "R1", "moving": "F1"})
    assert owed.details["eligible"] is None and "fixing:" in owed.message
    g.perform("waive", {"obligation": "fix:F1:R1"})
    out = g.perform("candidates", {"contact": "R1", "moving": "F1"})
    assert out.details["eligible"] and "no fixing of R1 is owed" in out.details["eligible"]
    assert [c["force"] for c in out.details["candidates"]] == ["R2"]
    assert "not eligible" in out.message and "fixing:" not in out.message


def test_a_saved_game_with_release_0_2s_words_for_an_owed_fixing_still_imports(
    tmp_path: Path,
) -> None:
    """The move's answer named the owed fixing as "'fix F1 R1'", a command neither the command
    line nor the web has; it now says "the fixing of R1 is owed now". Release 0.2's saved game
    (tests/fixtures/events_v0_2) has the older words and still imports, refereed again (the
    move's earlier words are the file's very words); a file whose words differ in any other way
    (another force named) is refused, naming the message."""
    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "events_v0_2"
    text = (fixture / "napoleon_at_bay.jsonl").read_text(encoding="utf-8")
    old = "a fixing is owed now ('fix F1 R2', Herman (1))"
    assert old in text
    g = Game.import_jsonl(Store(tmp_path / "a.db"), text, "saved")
    assert any(old in str(r.payload.get("message", "")) for r in g.records)  # kept as saved
    fresh = game(tmp_path)
    said = fresh.perform("move", {"force": "F1", "to": "W2020"}).message
    assert "the fixing of R1 is owed now (Herman (1))" in said and "'fix" not in said
    wrong = resign(text.replace(old, "a fixing is owed now ('fix F1 R3', Herman (1))", 1))
    with pytest.raises(GameError, match="message: the file has"):
        Game.import_jsonl(Store(tmp_path / "b.db"), wrong, "wrong")


def test_the_web_names_the_owed_fixing_in_its_own_words(tmp_path: Path) -> None:
    """The web's answers say the owed fixing as the page offers it, not as a command: the
    move's answer names the fixing owed, and ``end_movement``'s refusal points to the Next
    panel (where the fixing and its waiver are); the command line's refusal names its
    commands."""
    game(tmp_path)  # (the web opens it from the store)
    c = TestClient(create_app(tmp_path / "g.db"), base_url="http://localhost")
    page = c.get("/games/g").text
    h = {"X-CSRF-Token": page.split('name="csrf-token" content="')[1].split('"')[0]}

    def perform(proc: str, req: dict[str, object]) -> dict[str, object]:
        body = {"procedure": proc, "request": req, "refusal": "answer"}
        out: dict[str, object] = c.post("/api/games/g/perform", json=body, headers=h).json()
        return out

    lines = perform("move", {"force": "F1", "to": "W2020"})["lines"]
    assert isinstance(lines, list) and "the fixing of R1 is owed now (Herman (1))" in lines[-1]
    refused = str(perform("end_movement", {})["refused"])
    assert refused.endswith(
        "its fixing is owed: do it, or waive it, from the Next panel (Herman (5))"
    )
    assert "'" not in refused
    cli = Game.open(Store(tmp_path / "g.db"), "g")
    unchanged(
        cli, "end_movement", {}, r"'fix moving=F1 contact=R1' \(or waive it: 'waive fix:F1:R1'\)"
    )
