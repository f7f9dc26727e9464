"""The web app's JSON API and forms (in-process, no browser): games, odds, perform, undo,
export/import, audit; CSRF, cross-site and upload limits; errors that change nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import tests.toy  # noqa: F401
from vedette.engine import Game, Store
from vedette.web.app import MAX_UPLOAD, create_app


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    db = tmp_path / "web.db"
    Game.create(Store(db), "toy1", "toy", {"limit": 100}, seed=7)
    c = TestClient(create_app(db), base_url="http://localhost")
    c.get("/")  # sets the CSRF cookie
    return c


def token(c: TestClient) -> str:
    page = c.get("/games/toy1").text
    return page.split('name="csrf-token" content="')[1].split('"')[0]


def test_pages_render(client: TestClient) -> None:
    assert "toy1" in client.get("/").text
    page = client.get("/games/toy1").text
    assert 'data-proc="advance"' in page and "<svg" in page
    assert client.get("/games/nope").status_code == 404
    ping = client.get("/ping")
    assert ping.text == "ok"
    assert ping.headers["server-timing"].startswith("app;dur=")  # the app's own time


def test_post_needs_the_token_and_same_origin(client: TestClient) -> None:
    r = client.post("/api/games/toy1/perform", json={"procedure": "advance"})
    assert r.status_code == 403
    t = token(client)
    r = client.post(
        "/api/games/toy1/perform",
        json={"procedure": "advance"},
        headers={"X-CSRF-Token": t, "Origin": "http://evil.example"},
    )
    assert r.status_code == 403
    r = client.post("/games/toy1/rename", data={"new": "x"})
    assert r.status_code == 403
    assert len(client.get("/api/games/toy1").json()["log"]) == 1


def test_odds_perform_undo_cannot_reroll(client: TestClient) -> None:
    h = {"X-CSRF-Token": token(client)}
    odds = client.post(
        "/api/games/toy1/odds", json={"procedure": "advance", "request": {"bonus": "1"}}, headers=h
    ).json()["odds"][0]
    assert [r["p"] for r in odds["rows"]] == ["1/6", "5/6"]
    first = client.post("/api/games/toy1/perform", json={"procedure": "advance"}, headers=h)
    assert first.status_code == 200
    line = first.json()["lines"][0]
    client.post("/api/games/toy1/undo", headers=h)
    again = client.post("/api/games/toy1/perform", json={"procedure": "advance"}, headers=h)
    assert again.json()["lines"][0] == line
    bad = client.post(
        "/api/games/toy1/perform", json={"procedure": "advance", "dice": "7"}, headers=h
    )
    assert bad.status_code == 400 and bad.json()["error"] == "7 is not a face of d6 (faces: 1-6)"
    log = client.get("/api/games/toy1").json()["log"]
    assert [x["kind"] for x in log] == ["action", "undo", "action", "created"]


def test_physical_dice(client: TestClient) -> None:
    h = {"X-CSRF-Token": token(client)}
    r = client.post(
        "/api/games/toy1/perform",
        json={"procedure": "advance", "request": {"bonus": "2"}, "dice": "1"},
        headers=h,
    ).json()
    assert r["lines"][0] == "advance: 1d6=1+2 (bonus)=3 → advances"


def test_the_new_game_forms_own_dice_make_a_game_that_never_rolls(client: TestClient) -> None:
    """Issue 26 item 1: "my own dice" on the new-game form makes the game ``new
    --physical-dice`` makes. Its page shows the dice buttons, a roll without faces is refused
    with the dice to roll (nothing logged), and the faces given are the ones used. Left
    unticked, the game rolls from its seeded stream as before."""
    t = token(client)
    form = client.get("/").text
    assert 'name="physical_dice"' in form and "my own dice" in form
    r = client.post(
        "/games",
        data={"csrf": t, "name": "own", "ruleset": "toy", "physical_dice": "on"},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == "/games/own"
    page = client.get("/games/own").text
    assert 'class="dice-pad"' in page and "vedette rolls" not in page
    h = {"X-CSRF-Token": t}
    refused = client.post(
        "/api/games/own/perform", json={"procedure": "advance", "request": {}}, headers=h
    )
    assert refused.status_code == 400 and "roll 1d6" in refused.json()["error"]
    assert [x["kind"] for x in client.get("/api/games/own").json()["log"]] == ["created"]
    done = client.post(
        "/api/games/own/perform",
        json={"procedure": "advance", "request": {}, "dice": "4"},
        headers=h,
    ).json()
    assert done["lines"][0].startswith("advance: 1d6=4")
    r = client.post(
        "/games", data={"csrf": t, "name": "seeded", "ruleset": "toy"}, follow_redirects=False
    )
    assert 'class="dice-pad"' not in client.get("/games/seeded").text
    rolled = client.post(
        "/api/games/seeded/perform", json={"procedure": "advance", "request": {}}, headers=h
    )
    assert rolled.status_code == 200 and rolled.json()["lines"][0].startswith("advance: 1d6=")
    odd = client.post(
        "/games",
        data={"csrf": t, "name": "odd", "ruleset": "toy", "physical_dice": "yes<b>"},
        follow_redirects=False,
    )
    assert odd.status_code == 400
    assert "my own dice: &#39;yes&lt;b&gt;&#39; is not a checkbox&#39;s value" in odd.text
    assert "yes<b>" not in odd.text
    assert client.get("/games/odd").status_code == 404  # nothing stored


def test_new_game_upload_validated_and_limited(client: TestClient) -> None:
    t = token(client)
    r = client.post(
        "/games",
        data={"csrf": t, "name": "up", "ruleset": "toy"},
        files={"upload": ("s.toml", b"limit = 5\n")},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == "/games/up"
    r = client.post(
        "/games",
        data={"csrf": t, "name": "bad", "ruleset": "toy"},
        files={"upload": ("s.toml", b"limit = = 5\n")},
        follow_redirects=False,
    )
    # the form comes back with the error beside it and what was typed kept
    assert r.status_code == 400 and 'id="new-error"' in r.text and "TOML" in r.text
    assert 'name="name" value="bad"' in r.text
    big = b"#" * (MAX_UPLOAD + 10)
    r = client.post(
        "/games",
        data={"csrf": t, "name": "big", "ruleset": "toy"},
        files={"upload": ("s.toml", big)},
        follow_redirects=False,
    )
    assert r.status_code == 413 and "too large" in r.text
    names = client.get("/").text
    assert "/games/up" in names and "/games/bad" not in names and "/games/big" not in names


def test_export_import_audit(client: TestClient) -> None:
    t = token(client)
    h = {"X-CSRF-Token": t}
    for _ in range(6):
        client.post("/api/games/toy1/perform", json={"procedure": "advance"}, headers=h)
    text = client.get("/games/toy1/export").text
    r = client.post(
        "/import",
        data={"csrf": t, "name": "copy"},
        files={"upload": ("g.jsonl", text.encode())},
        follow_redirects=False,
    )
    assert r.headers["location"] == "/games/copy"
    assert client.get("/api/games/copy").json()["log"][0]["seq"] == 7
    audit = client.get("/games/toy1/audit").text
    assert "d6: 6 rolls" in audit and "chi-square" in audit


def test_rename_keeps_the_game(client: TestClient) -> None:
    t = token(client)
    r = client.post(
        "/games/toy1/rename", data={"csrf": t, "new": "renamed"}, follow_redirects=False
    )
    assert r.headers["location"] == "/games/renamed"
    assert client.get("/api/games/renamed").json()["log"][-1]["kind"] == "created"
    assert client.get("/api/games/toy1").status_code == 404


def test_sample_games_are_preloaded_once(tmp_path: Path) -> None:
    from vedette import rules
    from vedette.web.server import preload_samples

    db = str(tmp_path / "fresh.db")
    made = preload_samples(db)
    assert made == [f"sample-{n}" for n in rules.BUILTIN]
    assert preload_samples(db) == []
    c = TestClient(create_app(db), base_url="http://localhost")
    for name in made:
        page = c.get(f"/games/{name}")
        assert page.status_code == 200 and "<svg" in page.text and "text-board" not in page.text


def test_new_game_options(client: TestClient) -> None:
    t = token(client)
    r = client.post(
        "/games",
        data={
            "csrf": t,
            "name": "draft",
            "ruleset": "napoleon_at_bay",
            "scenario": "example1",
            "options": "variant=draft",
        },
        follow_redirects=False,
    )
    assert r.headers["location"] == "/games/draft"
    assert "first draft" in client.get("/api/games/draft").json()["text"].lower() or (
        "draft" in client.get("/api/games/draft").json()["text"]
    )
    r = client.post(
        "/games",
        data={"csrf": t, "name": "bad", "ruleset": "napoleon_at_bay", "options": "variant"},
        follow_redirects=False,
    )
    assert r.status_code == 400 and "KEY=VALUE" in r.text and 'value="variant"' in r.text
    # an option given twice is refused, as the command line's --option (not the last one kept)
    r = client.post(
        "/games",
        data={"csrf": t, "name": "twice", "ruleset": "2x2", "options": "play=tracked, play=stated"},
        follow_redirects=False,
    )
    assert r.status_code == 400 and "option &#39;play&#39; given twice" in r.text
    assert client.get("/api/games/twice").status_code == 404


def test_the_audit_counts_a_redone_roll_once(tmp_path: Path) -> None:
    """Undo, then the same action again: the same stream positions, so one draw, not two."""
    from vedette.engine import Game, Store
    from vedette.web import audit

    g = Game.create(Store(tmp_path / "a.db"), "g", "toy", {}, seed=3)
    g.perform("advance", {})
    g.undo()
    g.perform("advance", {})
    assert [r["rolls"] for r in audit.dice_audit(g.log())] == [1]
    g.perform("advance", {"bonus": 1})
    assert [r["rolls"] for r in audit.dice_audit(g.log())] == [2]


def test_sequence_odds_as_the_page_sends_them(client: TestClient, tmp_path: Path) -> None:
    """The odds panel's "whole sequence" part: rendered with the sequence's fields (required
    first, board picks named), and its form's text values (lists as "F1,F2") answered as the
    typed request is; a limit out of bounds is one line, 400 (as perform answers)."""
    from vedette.rules import get

    c = client
    Game.create(Store(tmp_path / "web.db"), "n1", "nab", get("nab").scenario("sample"), seed=4)
    page = c.get("/games/n1").text
    part = page.split('<details id="sequences"')[1].split('<div id="seq-result"')[0]
    assert '<form class="seq" data-seq="screen" hidden>' in part and "Herman (1)-(4)" in part
    assert part.index('data-field="screen"') < part.index('data-field="march"')
    assert 'name="movers" data-kind="list" data-pick="unit"' in part
    h = {"X-CSRF-Token": page.split('name="csrf-token" content="')[1].split('"')[0]}
    typed = {"screen": "R1", "movers": ["F1", "F2"], "to": ["W2020", "W2321"]}
    texts = {"screen": "R1", "movers": "F1,F2", "to": "W2020,W2321", "march": ""}
    answers = [
        c.post("/api/games/n1/chances", json={"procedure": "screen", "request": r}, headers=h)
        for r in (typed, texts)
    ]
    assert answers[0].status_code == 200 and answers[0].json() == answers[1].json()
    r = c.post(
        "/api/games/n1/chances",
        json={"procedure": "screen", "request": texts, "limit": 10**9},
        headers=h,
    )
    assert r.status_code == 400 and "limit" in r.json()["error"] and "\n" not in r.json()["error"]
    assert 'id="sequences"' not in c.get("/games/toy1").text  # no sequences: no part


def test_an_answer_to_a_page_showing_the_map_leaves_the_map_out(tmp_path: Path) -> None:
    """A page that sent its seq shows the map already: the answer's board has the map's
    static layer as an empty slot of the same key (the page puts its own back); a full view,
    the board resource and the game page have it drawn in."""
    import re

    from vedette import rules

    db = tmp_path / "nab.db"
    rs = rules.get("napoleon_at_bay")
    Game.create(Store(db), "nab", "napoleon_at_bay", rs.scenario("example1"), seed=3)
    c = TestClient(create_app(db), base_url="http://localhost")
    h = {"X-CSRF-Token": token_of(c, "nab")}
    full = c.get("/api/games/nab").json()
    key = re.search(r'<g id="map-layer" data-layer="([0-9a-f]{16})">', full["board"])
    assert key and 'class="hex"' in full["board"]
    move = {"procedure": "move", "request": {"force": "F1", "to": "W2020"}}
    r = c.post("/api/games/nab/perform", json={**move, "since": full["seq"]}, headers=h).json()
    assert f'<g id="map-layer" data-layer="{key.group(1)}" />' in r["board"]
    assert 'class="hex"' not in r["board"] and 'data-piece="F1"' in r["board"]
    assert len(r["board"]) < len(full["board"]) / 3
    # and it carries the rest of the board (board.js needs no second request)
    info = c.get("/api/games/nab/board?svg=false").json()
    assert r["board_info"] == info and "F1" in r["board_info"]["highlight"]
    undone = c.post("/api/games/nab/undo", json={"since": r["seq"]}, headers=h).json()
    assert 'class="hex"' not in undone["board"]
    for board in (
        c.get("/api/games/nab").json()["board"],
        c.get("/api/games/nab/board").json()["svg"],
        c.get("/games/nab").text,
    ):
        assert f'data-layer="{key.group(1)}">' in board and 'class="hex"' in board
    assert "svg" not in c.get("/api/games/nab/board?svg=false").json()


def token_of(c: TestClient, game: str) -> str:
    page = c.get(f"/games/{game}").text
    return page.split('name="csrf-token" content="')[1].split('"')[0]


def test_icon_manifest_and_compression(client: TestClient) -> None:
    """Issue 26.9: no 404 for the icon; installable (a manifest with an icon); pages compressed
    for a browser that takes gzip."""
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"] == "image/svg+xml"
    page = client.get("/")
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in page.text
    m = client.get("/static/manifest.webmanifest")
    assert m.status_code == 200 and m.headers["content-type"].startswith(
        "application/manifest+json"
    )
    assert m.json()["icons"][0]["src"] == "/static/icon.svg"
    big = client.get("/help/solo_napoleonic/tables", headers={"Accept-Encoding": "gzip"})
    assert big.status_code == 200 and big.headers.get("content-encoding") == "gzip"
    assert "Content-Security-Policy" in big.headers


def test_a_new_game_without_a_name_is_named(client: TestClient) -> None:
    r = client.post(
        "/games",
        data={"csrf": token(client), "ruleset": "nab", "scenario": "sample", "name": ""},
        follow_redirects=False,
    )
    assert r.status_code == 303 and r.headers["location"] == "/games/nab-1"


def test_refused_odds_are_an_answer_not_an_error(client: TestClient) -> None:
    """Issue 26.9: odds the rules refuse now answer 200 with the reason, naming the rule (no
    400 logged in the browser's console for a question); bad input is still a 4xx."""
    client.post(
        "/games",
        data={"csrf": token(client), "ruleset": "nab", "name": "nab1", "scenario": "sample"},
    )
    h = {"X-CSRF-Token": token(client)}
    body = {"procedure": "fix", "request": {"moving": "F1", "contact": "R1"}}  # F1 has not moved
    r = client.post("/api/games/nab1/odds", json=body, headers=h)
    assert r.status_code == 200 and r.json()["odds"] == []
    assert "Herman" in r.json()["refused"]
    r = client.post("/api/games/nab1/odds", json={"procedure": "nope", "request": {}}, headers=h)
    assert r.status_code in (400, 422)


def test_the_page_s_refusals_are_answers_in_the_form_s_words(client: TestClient) -> None:
    """The game page asks for a refusal as an answer (``refusal: "answer"``): 200 with the one
    line as ``refused`` and nothing written (a browser logs every 4xx in its console); other
    callers get the 4xx as before. Dice refusals are worded for the web form (the dice
    buttons, the dice box), not the command line's --dice."""
    h = {"X-CSRF-Token": token(client)}
    client.post(
        "/games",
        data={"csrf": h["X-CSRF-Token"], "name": "own", "ruleset": "toy", "physical_dice": "on"},
    )
    asked = {"procedure": "advance", "request": {}}
    r = client.post("/api/games/own/perform", json={**asked, "refusal": "answer"}, headers=h)
    keys = {"refused", "own_dice", "own_order", "own_from", "dice_needed"}
    assert r.status_code == 200 and set(r.json()) == keys
    assert r.json()["own_dice"] == [{"name": "d6", "faces": [1, 2, 3, 4, 5, 6]}]  # its pad
    # the die asked for is the first, its face the page's face buttons show
    assert (r.json()["own_order"], r.json()["own_from"]) == (["d6"], 0)
    line = r.json()["refused"]
    assert r.json()["dice_needed"] == 1  # (the first die: none given)
    assert "roll 1d6, tap each face in order on the dice buttons: the last one does it" in line
    assert "--dice" not in line
    assert client.post("/api/games/own/perform", json=asked, headers=h).status_code == 400
    assert [x["kind"] for x in client.get("/api/games/own").json()["log"]] == ["created"]
    # an undone roll's dice given again: refused, the way to the same dice in the form's words
    client.post("/api/games/toy1/perform", json=asked, headers=h)
    client.post("/api/games/toy1/undo", json={}, headers=h)
    r = client.post(
        "/api/games/toy1/perform", json={**asked, "dice": "3", "refusal": "answer"}, headers=h
    )
    assert "empty the dice box and Roll / do it again" in r.json()["refused"]
    assert "--dice" not in r.json()["refused"]
    # the one action is undone already
    r = client.post("/api/games/toy1/undo", json={"refusal": "answer"}, headers=h)
    assert r.status_code == 200 and r.json() == {"refused": "nothing to undo"}
    assert client.post("/api/games/toy1/undo", json={}, headers=h).status_code == 400
    # odds the form is not yet enough for (a bad field): in words too, when asked so
    bad = {"procedure": "advance", "request": {"bonus": "x"}}
    r = client.post("/api/games/toy1/odds", json={**bad, "refusal": "answer"}, headers=h)
    assert r.status_code == 200 and "bonus" in r.json()["refused"]
    assert client.post("/api/games/toy1/odds", json=bad, headers=h).status_code == 400
    r = client.post("/api/games/toy1/perform", json={**asked, "refusal": "maybe"}, headers=h)
    assert r.status_code in (400, 422)  # the word is checked


def test_a_sequence_performed_from_the_web_is_refused_in_the_pages_words(
    client: TestClient,
) -> None:
    """A sequence has odds only: performed through the web, the refusal names the page's
    'Odds of a whole sequence' part, not the command line's 'chances' (the CLI keeps its own
    words); nothing is written."""
    t = token(client)
    client.post("/games", data={"csrf": t, "ruleset": "nab", "name": "seq1", "scenario": "sample"})
    h = {"X-CSRF-Token": t}
    body = {
        "procedure": "screen",
        "request": {"screen": "R1", "movers": ["F1"], "to": ["W2020"]},
        "refusal": "answer",
    }
    r = client.post("/api/games/seq1/perform", json=body, headers=h)
    line = r.json()["refused"]
    assert r.status_code == 200 and "'Odds of a whole sequence'" in line
    assert "chances" not in line and "play its steps one by one" in line
    assert [x["kind"] for x in client.get("/api/games/seq1").json()["log"]] == ["created"]
    page = client.get("/games/seq1").text
    assert "<summary>Odds of a whole sequence</summary>" in page  # the part the line names


def test_the_odds_of_a_game_with_your_own_dice_name_the_dice_to_tap(client: TestClient) -> None:
    """A game played with the player's own dice: the odds answer names each die the step
    rolls and its faces (the page's dice buttons are built from them); a game whose dice
    vedette rolls has no such list."""
    h = {"X-CSRF-Token": token(client)}
    client.post(
        "/games",
        data={"csrf": h["X-CSRF-Token"], "name": "own2", "ruleset": "toy", "physical_dice": "on"},
    )
    asked = {"procedure": "advance", "request": {}}
    r = client.post("/api/games/own2/odds", json=asked, headers=h).json()
    assert r["own_dice"] == [{"name": "d6", "faces": [1, 2, 3, 4, 5, 6]}]
    assert "own_dice" not in client.post("/api/games/toy1/odds", json=asked, headers=h).json()


def test_a_stack_revealed_is_picked_on_the_board(client: TestClient, tmp_path: Path) -> None:
    """Solitaire ASL's ``reveal`` (concealment lost by the ASL rules, O'Leary 2.2, 3.4) names
    its stack, fortification or minefield in a field ``what`` that no board tap filled: on a
    phone the player typed the id. A tap on the board's piece now fills it (a board pick of a
    unit, as a move's ``stack``)."""
    from vedette.rules import get

    Game.create(Store(tmp_path / "web.db"), "a1", "asl", get("asl").scenario("sample"), seed=4)
    page = client.get("/games/a1").text
    form = page.split('data-proc="reveal"')[1].split("</form>")[0]
    assert 'name="what" data-kind="str" data-pick="unit"' in form


def test_the_page_shows_an_entrys_open_fields_in_todos_order(
    client: TestClient, tmp_path: Path
) -> None:
    """The page's first view put an open entry's fields in the order of their names (Jinja's
    ``tojson`` sorts keys), the API's later views in todo's: ASL's "describe 4A1" showed ``los``
    first, so its ``terrain`` (the TEM) was the field the page sets to its first choice
    (``open ground``) when the entry is chosen, and a tap on ``los`` and Roll described woods
    as open ground. Now the page keeps todo's order: terrain, then los."""
    scenario = {
        "name": "facts",
        "sides": ["Russian", "German"],
        "first": "Russian",
        "stacks": [
            {"id": "P1", "side": "Russian", "location": "4A1", "status": "potential_dummy",
             "counters": [{"id": "s1", "name": "4-4-7", "kind": "squad"}]},
            {"id": "D1", "side": "Russian", "location": "4A3", "status": "dummy", "dummies": 2},
        ],
    }  # fmt: skip
    g = Game.create(Store(tmp_path / "web.db"), "facts", "asl", scenario, seed=1)
    g.perform("phase", {"to": "MPh", "side": "Russian"})
    page = client.get("/games/facts").text
    data = json.loads(
        page.split('<script type="application/json" id="page-data">')[1].split("</")[0]
    )
    shown = [list(t["open"]) for t in data["todo"] if t["procedure"] == "location"]
    assert shown and shown == [list(t.open) for t in g.todo() if t.procedure == "location"]
    assert shown[0] == ["terrain", "los"]


def test_a_web_import_says_once_how_it_was_re_refereed(client: TestClient, tmp_path: Path) -> None:
    """A release-0.2 Napoleon At Bay game re-refereed by 0.2's reading (A24, as the CLI's
    import says it) says so on the page the web import leads to, once, as text; never on
    another game's page (one made under its name, the import deleted unseen)."""
    lapse = Path(__file__).parents[1] / "fixtures" / "events_v0_2" / "lapse"
    text = (lapse / "napoleon_at_bay.jsonl").read_bytes()
    t = token(client)
    r = client.post(
        "/import",
        data={"csrf": t, "name": "old"},
        files={"upload": ("g.jsonl", text)},
        follow_redirects=False,
    )
    assert r.status_code == 303
    page = client.get(r.headers["location"]).text
    said = page.split('id="imported-under">')[1].split("</p>")[0]
    assert "re-refereed as release 0.2 played it, owed_fixing_lapses=false" in said, said
    assert 'id="imported-under"' not in client.get(r.headers["location"]).text  # once
    # a game today's rules re-referee as it stands says nothing
    again = client.get(r.headers["location"] + "/export").text
    r = client.post(
        "/import",
        data={"csrf": t, "name": "again"},
        files={"upload": ("g.jsonl", again.encode())},
        follow_redirects=False,
    )
    assert 'id="imported-under"' not in client.get(r.headers["location"]).text
    r = client.post(
        "/import",
        data={"csrf": t, "name": "gone"},
        files={"upload": ("g.jsonl", text)},
        follow_redirects=False,
    )
    Store(tmp_path / "web.db").delete("gone")  # (another tab, the CLI)
    Game.create(Store(tmp_path / "web.db"), "gone", "toy", {"limit": 100}, seed=7)
    assert 'id="imported-under"' not in client.get(r.headers["location"]).text
