"""The web shell around the referee (issue 15), in-process: the next panel's data, the log as
one-line explanations with readable records, paged and incremental; the audit's verdict; the
after-action report; help pages; HTML 404s; inline form errors; delete; token renewal; the
thread pool and the per-game reader/writer lock."""

from __future__ import annotations

import inspect
import re
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import anyio.to_thread
import pytest
from fastapi.testclient import TestClient

from vedette import rules
from vedette.engine import Game, Store
from vedette.web import aar, audit, views
from vedette.web.app import create_app
from vedette.web.help import markdown_html
from vedette.web.sessions import RWLock

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "web.db"
    scen = rules.get("napoleon_at_bay").scenario("example1")
    Game.create(Store(path), "nab", "napoleon_at_bay", scen, seed=1)
    return path


@pytest.fixture
def client(db: Path) -> TestClient:
    c = TestClient(create_app(db), base_url="http://localhost")
    c.get("/")
    return c


def token(c: TestClient) -> str:
    return c.get("/").text.split('name="csrf-token" content="')[1].split('"')[0]


def post(c: TestClient, url: str, body: dict[str, object]) -> dict[str, object]:
    r = c.post(url, json=body, headers={"X-CSRF-Token": token(c)})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


MOVE = {"force": "F1", "to": "W2020"}
FIX = {"moving": "F1", "contact": "R1"}


def move_into_zoc(c: TestClient) -> dict[str, object]:
    return post(
        c,
        "/api/games/nab/perform",
        {"procedure": "move", "request": {"force": "F1", "to": "W2020"}},
    )


def test_the_next_panel_lists_the_owed_fixing_first_with_its_request(client: TestClient) -> None:
    view = client.get("/api/games/nab").json()
    assert view["todo"][0]["procedure"] == "move" and not view["todo"][0]["owed"]
    view = move_into_zoc(client)
    # the request's force and hex first, then what its events changed (the ZOC's owner, R1)
    assert view["highlight"][:2] == ["F1", "W2020"] and "R1" in view["highlight"]
    assert view["table_changes"] == ["move F1 from W1920 to W2020"]
    first = view["todo"][0]  # type: ignore[index]
    assert first["owed"] and first["procedure"] == "fix"
    assert first["request"] == {"moving": "F1", "contact": "R1"}
    assert first["rule"] == "Herman (1)" and first["obligation"] == "fix:F1:R1"
    # the page carries the same, and the first entry is the default action
    page = client.get("/games/nab").text
    assert '"obligation": "fix:F1:R1"' in page


def test_fields_are_required_first_and_only_named_fields_take_board_picks() -> None:
    g = Game.create(
        Store(":memory:"), "a", "solitaire_asl", rules.get("solitaire_asl").scenario("sample")
    )
    shift = next(p for p in views.procedures(g) if p["name"] == "shift")
    names = [x["name"] for x in shift["params"]]
    assert names[0] == "a" and [x["required"] for x in shift["params"]][:2] == [True, False]
    kinds = {x["name"]: x["pick"] for x in shift["params"]}
    assert kinds["a"] == kinds["b"] == "unit location" and kinds["kind"] == ""


def test_log_entries_are_one_line_explanations_with_a_readable_record(client: TestClient) -> None:
    move_into_zoc(client)
    view = post(
        client,
        "/api/games/nab/perform",
        {"procedure": "fix", "request": {"moving": "F1", "contact": "R1"}, "dice": "3"},
    )
    fix = view["log"][0]  # type: ignore[index]
    assert fix["line"] == "fix: 1d6=3+2 (only Ru has Vedette)=5, Vedette and Ru Inf switch places"
    assert "rows" not in fix  # the record comes when the entry is opened
    record = client.get(f"/api/games/nab/log/{fix['seq']}").json()
    rows = {(r["depth"], r["key"]): r["value"] for r in record["rows"]}
    assert rows[(0, "procedure")] == "fix"
    assert rows[(0, "rolls")] == "" and rows[(2, "natural")] == "3"  # a nested roll, as rows
    assert rows[(4, "reason")] == "only Ru has Vedette"  # rolls > roll 1 > modifiers > 1
    assert "record" not in fix  # no raw JSON
    assert client.get("/api/games/nab/log/99").status_code == 400


def test_an_action_returns_only_the_entries_after_since(client: TestClient) -> None:
    seq = client.get("/api/games/nab").json()["seq"]
    view = post(
        client,
        "/api/games/nab/perform",
        {"procedure": "move", "request": {"force": "F1", "to": "W2020"}, "since": seq},
    )
    assert [e["seq"] for e in view["log"]] == [seq + 1]  # type: ignore[index]
    undo = post(client, "/api/games/nab/undo", {"since": seq + 1})
    assert [e["seq"] for e in undo["log"]] == [seq + 2]  # type: ignore[index]
    assert undo["undone"] == seq + 1 and undo["undone_seqs"] == [seq + 1]
    assert client.get(f"/api/games/nab?since={seq + 2}").json()["log"] == []


def test_the_log_is_paged(db: Path) -> None:
    st = Store(db)
    g = Game.open(st, "nab")
    for _ in range(60):
        g.perform("move", {"force": "F1", "to": "W2020"})
        g.undo()
    c = TestClient(create_app(db), base_url="http://localhost")
    first = c.get("/api/games/nab").json()["log"]
    assert len(first) == views.PAGE and first[0]["seq"] == 121
    older = c.get(f"/api/games/nab/log?before={first[-1]['seq']}&limit=50").json()
    assert [e["seq"] for e in older["entries"]][:2] == [71, 70] and older["more"]
    last = c.get("/api/games/nab/log?before=21&limit=50").json()
    assert last["entries"][-1]["kind"] == "created" and not last["more"]


def test_404s_are_pages_for_browsers_and_json_for_the_api(client: TestClient) -> None:
    r = client.get("/games/nope")
    assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
    assert "no game named &#39;nope&#39;" in r.text and "<h1>Not found" in r.text
    r = client.get("/api/games/nope")
    assert r.status_code == 404 and r.json() == {"error": "no game named 'nope'"}
    assert client.get("/no/such/page").status_code == 404
    r = client.get("/help/nope")
    assert r.status_code == 404 and "no ruleset named" in r.text and "<html" in r.text


def test_a_failed_rename_keeps_the_form_and_names_the_error(client: TestClient) -> None:
    r = client.post("/games/nab/rename", data={"csrf": token(client), "new": "a/b"})
    assert r.status_code == 400 and "&#39;/&#39; is not allowed" in r.text
    assert 'value="a/b"' in r.text and 'id="game"' in r.text  # still the game page
    assert client.get("/api/games/nab").status_code == 200


def test_delete_needs_the_confirmation(client: TestClient, db: Path) -> None:
    r = client.post("/games/nab/delete", data={"csrf": token(client)})
    assert r.status_code == 400 and [g.name for g in Store(db).games()] == ["nab"]
    r = client.post("/games/nab/delete", data={"csrf": "wrong", "confirm": "nab"})
    assert r.status_code == 403 and [g.name for g in Store(db).games()] == ["nab"]
    r = client.post(
        "/games/nab/delete",
        data={"csrf": token(client), "confirm": "nab"},
        follow_redirects=False,
    )
    assert r.status_code == 303 and Store(db).games() == []
    assert client.get("/api/games/nab").status_code == 404
    # the log of a game in play stays append-only
    st = Store(db)
    Game.create(st, "other", "napoleon_at_bay", rules.get("nab").scenario("example1"), seed=1)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        st.db.execute("DELETE FROM events")


def test_a_fresh_token_for_a_stale_page(client: TestClient) -> None:
    fresh = client.get("/api/csrf").json()["token"]
    assert fresh == token(client)


def test_blocking_endpoints_run_in_the_thread_pool(client: TestClient) -> None:
    app = client.app
    assert app.state.sessions is not None  # type: ignore[attr-defined]
    for route in app.routes:  # type: ignore[attr-defined]
        path = getattr(route, "path", "")
        if path.startswith(("/games", "/api", "/import", "/help")):
            assert not inspect.iscoroutinefunction(route.endpoint), path


def test_an_action_waits_in_the_thread_pools_line_once(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under many players the pool's two threads have a line: each of the game page's calls
    (its view, odds, an action, an undo) takes one place in it, for its endpoint. A plain
    ``def`` dependency, or a dict answer FastAPI checks against the route's type, each took a
    place of its own: three waits in a crowded line for one action (bench/bench_web.py)."""
    trips: list[str] = []
    real = anyio.to_thread.run_sync

    async def counted(func: Any, *args: Any, **kwargs: Any) -> Any:
        trips.append(getattr(func, "__name__", "?"))
        return await real(func, *args, **kwargs)

    h = {"X-CSRF-Token": token(client)}
    monkeypatch.setattr(anyio.to_thread, "run_sync", counted)
    calls = [
        ("get", "/api/games/nab", None),
        ("post", "/api/games/nab/odds", {"procedure": "move", "request": MOVE}),
        ("post", "/api/games/nab/perform", {"procedure": "move", "request": MOVE}),
        ("post", "/api/games/nab/perform", {"procedure": "fix", "request": FIX}),
        ("post", "/api/games/nab/undo", {}),
        ("get", "/api/games/nab/log", None),
    ]
    for method, url, body in calls:
        trips.clear()
        r = client.request(method, url, json=body, headers=h)
        assert r.status_code == 200, r.text
        assert len(trips) == 1, (url, trips)
    assert r.json()["entries"]  # (the answers are the JSON they were)


def test_the_reader_writer_lock() -> None:
    lock = RWLock()
    inside: list[str] = []
    both = threading.Event()

    def reader(tag: str) -> None:
        with lock.read():
            inside.append(tag)
            if len(inside) == 2:
                both.set()
            both.wait(5)  # two readers at once, or this times out

    ts = [threading.Thread(target=reader, args=(t,)) for t in "ab"]
    for t in ts:
        t.start()
    for t in ts:
        t.join(6)
    assert both.is_set()
    order: list[str] = []
    with lock.write():
        t = threading.Thread(target=lambda: (lock.read().__enter__(), order.append("read")))
        t.start()
        time.sleep(0.05)
        order.append("write done")
    t.join(5)
    assert order == ["write done", "read"]


def test_the_audit_verdict_in_plain_words() -> None:
    assert audit.chi_square_p(3.841, 1) == pytest.approx(0.05, abs=1e-3)
    assert audit.chi_square_p(11.07, 5) == pytest.approx(0.05, abs=1e-3)
    assert audit.verdict(1.0, 5, 600).startswith("consistent with fair dice")
    assert audit.verdict(30.0, 5, 600).startswith("unusual: p = 1.47e-05")
    assert audit.verdict(30.0, 5, 10).startswith("too few rolls")


def test_the_audit_page_draws_observed_against_expected(client: TestClient) -> None:
    move_into_zoc(client)
    post(
        client,
        "/api/games/nab/perform",
        {"procedure": "fix", "request": {"moving": "F1", "contact": "R1"}},
    )
    page = client.get("/games/nab/audit").text
    assert 'class="observed"' in page and 'class="expected"' in page
    assert "too few rolls to judge" in page and "<script>" not in page.split("</main>")[0]


def test_the_after_action_report(client: TestClient, db: Path) -> None:
    move_into_zoc(client)
    post(
        client,
        "/api/games/nab/perform",
        {"procedure": "fix", "request": {"moving": "F1", "contact": "R1"}, "dice": "3"},
    )
    g = Game.open(Store(db), "nab")
    r = aar.report(g)
    assert [e["line"][:4] for e in r["turns"][0]["entries"]] == ["move", "fix:"]
    (d,) = r["decisive"]
    # 1d6=3, +2: a 5, in the 4+ row; with +2 a natural 2-6 lands there: 5/6
    assert d["percent"] == "83.3%" and d["side"] == "Fr"
    assert r["luck_side"][0]["name"] == "Fr" and r["luck_side"][0]["total"] == 3
    page = client.get("/games/nab/aar").text
    assert "Decisive rolls" in page and "83.3%" in page
    export = client.get("/games/nab/aar.html")
    assert "attachment" in export.headers["content-disposition"]
    html = export.text
    assert "<style>" in html and "<svg" in html and "<script" not in html
    assert "/static/" not in html  # self-contained


def test_aar_roll_probability_uses_the_row_or_the_tail() -> None:
    two = [{"die": "d6", "face": 6}, {"die": "d6", "face": 6}]
    assert aar.roll_probability({"dice": two, "natural": 12}) == pytest.approx(1 / 36)
    row = {"dice": two[:1], "natural": 6, "final": 6, "range": "4-6"}
    assert aar.roll_probability(row) == pytest.approx(0.5)


def test_help_pages_explain_procedures_and_assumptions(client: TestClient) -> None:
    page = client.get("/help/napoleon_at_bay").text
    assert 'id="proc-fix"' in page and "Herman (1)" in page
    assert "The idea in our words" in page  # docs/rules/napoleon_at_bay.md
    assert "moving=str (required)" in page
    tables = client.get("/help/nab/tables").text
    assert "&lt;=3" in tables and "4+" in tables and "is substituted for the contact" in tables
    css = (ROOT / "src/vedette/web/static/app.css").read_text()
    assert "@media print" in css


def test_help_markdown_is_escaped() -> None:
    html = markdown_html("<script>alert(1)</script>\n\n[x](javascript:alert(1)) **b**")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert 'href="javascript' not in html and "<strong>b</strong>" in html


def test_the_help_pages_are_for_players_and_docs_rules_for_developers() -> None:
    """Issue 26 item 7: each ruleset has two texts. The packaged help page (the web app's
    /help/RULESET) is for players: what to do at the table, with examples, and every reading
    vedette chose; it names no code, test, benchmark or issue. docs/rules/X.md (a real file,
    readable on a forge) is the developers' page: it points at the player page first."""
    docs = sorted((ROOT / "docs/rules").glob("*.md"))
    packaged = [ROOT / f"src/vedette/rules/{f.stem}/data/help.md" for f in docs]
    assert [f.stem for f in docs] == sorted(rules.BUILTIN)
    for name, page in zip(sorted(rules.BUILTIN), packaged, strict=True):
        assert rules.get(name).help_page() == page.read_text()  # what the web app shows
    internals = re.compile(
        r"\.py\b|tests/|src/|docs/|bench|[Ii]ssue \d|RuleViolation|µs|/home/|/work/"
    )
    for f, page in zip(docs, packaged, strict=True):
        assert not f.is_symlink() and not page.is_symlink(), f
        text = page.read_text()
        assert text.startswith("# "), page
        found = internals.findall(text)
        assert not found, f"{page.relative_to(ROOT)} is for players; move {found} to {f.name}"
        for heading in ("## Starting a game", "## Where the text is unclear"):
            assert heading in text, (page.name, heading)
        dev = f.read_text()
        assert dev.startswith("# ")
        link = f"(../../src/vedette/rules/{f.stem}/data/help.md)"
        first = dev.split("\n## ", 2)[1]
        assert link in first, f"{f.relative_to(ROOT)}: link the player page first"
        assert (f.parent / link[1:-1]).resolve() == page.resolve()


def test_an_answer_names_only_what_was_undone_since_the_clients_seq(client: TestClient) -> None:
    """Incremental answers do not grow with the game: an old action undone after the client's
    seq is named (its entry is already on the page), actions undone before it are not sent
    again (an undone action stays undone)."""
    moved = move_into_zoc(client)
    a = int(moved["seq"])  # type: ignore[call-overload]
    undone = post(client, "/api/games/nab/undo", {"since": a})
    assert undone["undone_seqs"] == [a] and undone["undone"] == a
    b = int(undone["seq"])  # type: ignore[call-overload]
    again = move_into_zoc(client)
    assert again["seq"] == b + 1
    later = client.get(f"/api/games/nab?since={b + 1}").json()
    assert later["log"] == [] and later["undone_seqs"] == []
    full = client.get("/api/games/nab").json()
    assert a in full["undone_seqs"] and a in [e["seq"] for e in full["log"] if e["undone"]]
