"""The board as its own resource (issue 15): stacked counters each reachable, legend and roster
per ruleset, hand moves checked by the rules before anything is written, and what changed on
the table in words."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from vedette import rules
from vedette.dice.sources import PhysicalSource
from vedette.engine import Game, Store
from vedette.render.svg import fan
from vedette.web.app import create_app

SVG = "{http://www.w3.org/2000/svg}"
RULESETS = ["napoleon_at_bay", "solitaire_asl", "two_by_two", "solo_napoleonic"]


def sample(ruleset: str, scenario: str = "sample") -> Any:
    rs = rules.get(ruleset)
    return rs, rs.initial_state(rs.scenario(scenario), {})


def rects(svg: str, cls: str, key: str) -> dict[str, tuple[float, float, float, float]]:
    """Each picked group's first rect (x, y, w, h) by its ``key`` attribute."""
    out = {}
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        if cls in (g.get("class") or "").split():
            r = g.find(f"{SVG}rect")
            assert r is not None
            out[g.get(key) or ""] = tuple(
                float(r.get(a) or 0) for a in ("x", "y", "width", "height")
            )
    return out  # type: ignore[return-value]


def uncovered(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """The part of ``a``'s width not under ``b`` (b drawn later, on top), where they overlap."""
    ax, _, aw, _ = a
    bx, _, bw, _ = b
    return max(0.0, bx - ax) + max(0.0, (ax + aw) - (bx + bw))


def test_nab_garrison_and_force_in_one_hex_are_both_in_reach() -> None:
    rs, state = sample("napoleon_at_bay")
    svg = rs.board_svg(state, rs.state_json(state))
    r = rects(svg, "piece", "data-piece")
    assert state.pieces["F1"].hexes == state.pieces["FG"].hexes == ("W1920",)
    assert r["F1"][:2] != r["FG"][:2]  # no longer drawn exactly on top of each other
    assert uncovered(r["F1"], r["FG"]) >= r["F1"][2] / 3  # a third of it shows: a finger's worth
    assert 'class="badge"' in svg  # the count of the stack


def test_asl_stacks_in_one_location_are_both_in_reach() -> None:
    rs, state = sample("solitaire_asl")
    svg = rs.board_svg(state, rs.state_json(state))
    r = rects(svg, "stack", "data-stack")
    by_loc: dict[str, list[str]] = {}
    for s in state.stacks:
        by_loc.setdefault(s.location, []).append(s.id)
    shared = [ids for ids in by_loc.values() if len(ids) > 1]
    assert shared, "the sample has a location with two stacks (G1 and G2)"
    for ids in shared:
        for a, b in itertools.pairwise(ids):
            assert uncovered(r[a], r[b]) >= r[a][2] / 3


@given(st.integers(1, 8), st.floats(10, 60), st.floats(8, 50))
def test_fanned_counters_each_show_a_part(n: int, w: float, h: float) -> None:
    offs = fan(n, w, h, w * 1.6)
    assert len(offs) == n
    xs = [x for x, _ in offs]
    assert xs == sorted(xs)
    for a, b in itertools.pairwise(xs):
        assert b - a >= w / 3 - 1e-9  # each counter below shows at least a third of its width


@pytest.mark.parametrize("ruleset", RULESETS)
def test_legend_and_roster_for_every_ruleset(ruleset: str) -> None:
    rs, state = sample(ruleset)
    legend = rs.legend(state)
    assert legend and all(e["label"] for e in legend)
    roster = rs.roster(state)
    assert roster and all({"id", "side", "name", "status"} <= set(r) for r in roster)
    svg = rs.board_svg(state, rs.state_json(state))
    sizes = [float(x) for x in re.findall(r'font-size="([\d.]+)"', svg)]
    width = float(ET.fromstring(svg).get("viewBox", "0 0 1 1").split()[2])
    # drawn 720 px wide (a tablet: 768 less margins), every label 11 px or more
    assert min(s * 720 / width for s in sizes) >= 11, (ruleset, min(sizes), width)


def test_asl_roster_keeps_hidden_units_hidden() -> None:
    rs, state = sample("solitaire_asl")
    names = {c.name for s in state.stacks for c in s.counters if c.name}
    for row in rs.roster(state):
        s = next(x for x in state.stacks if x.id == row["id"])
        if str(s.status) in ("potential_dummy", "concealed", "hip", "dummy_hip", "cloaked"):
            assert not any(n in str(row["name"]) for n in names), row


def test_kuryakin_roster_shows_command_and_cards() -> None:
    rs, state = sample("solo_napoleonic")
    rows = rs.roster(state)
    assert any("figures" in str(r["strength"]) for r in rows)
    assert all("command" in r for r in rows)


def test_2x2_legend_names_the_terrain_and_the_board_labels_it() -> None:
    rs, state = sample("two_by_two")
    labels = {e["label"] for e in rs.legend(state)}
    assert {"woods", "town", "stream"} <= labels
    svg = rs.board_svg(state, rs.state_json(state))
    assert "Hochwald (woods)" in svg  # written on the table, not only in a tooltip


# -- the API ----------------------------------------------------------------------------------
@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    db = tmp_path / "web.db"
    st_ = Store(db)
    Game.create(
        st_, "nab", "napoleon_at_bay", rules.get("napoleon_at_bay").scenario("example1"), seed=5
    )
    Game.create(st_, "tt", "two_by_two", rules.get("two_by_two").scenario("sample"), seed=5)
    Game.create(
        st_, "ku", "solo_napoleonic", rules.get("solo_napoleonic").scenario("sample"), seed=5
    )
    Game.create(st_, "asl", "solitaire_asl", rules.get("solitaire_asl").scenario("sample"), seed=5)
    c = TestClient(create_app(db), base_url="http://localhost")
    c.get("/")
    return c


def headers(c: TestClient, game: str) -> dict[str, str]:
    page = c.get(f"/games/{game}").text
    return {"X-CSRF-Token": page.split('name="csrf-token" content="')[1].split('"')[0]}


@pytest.mark.parametrize("game", ["nab", "tt", "ku", "asl"])
def test_board_endpoint(client: TestClient, game: str) -> None:
    r = client.get(f"/api/games/{game}/board")
    assert r.status_code == 200
    data = r.json()
    assert set(data) >= {"svg", "legend", "roster", "highlight"}
    assert data["svg"].startswith("<svg") and data["roster"]
    page = client.get(f"/games/{game}").text
    assert 'id="board-viewport"' in page and "/static/board.js" in page
    assert 'tabindex="0"' not in data["svg"]  # hexes are not tab stops


def test_move_check_nab_path_cost_and_zoc(client: TestClient) -> None:
    h = headers(client, "nab")
    before = len(client.get("/api/games/nab").json()["log"])
    r = client.post(
        "/api/games/nab/move-check",
        json={"procedure": "move", "request": {"force": "F1", "to": ["W2020"]}},
        headers=h,
    ).json()
    assert r["ok"] and r["units"] == "MP" and r["path"][-1] == "W2020"
    assert "R1" in r["zoc"] and "ZOC" in r["text"]
    bad = client.post(
        "/api/games/nab/move-check",
        json={"procedure": "move", "request": {"force": "R1", "to": ["W2020"]}},
        headers=h,
    ).json()
    assert not bad["ok"] and "movement phase" in bad["error"]
    assert len(client.get("/api/games/nab").json()["log"]) == before  # nothing written
    assert (
        client.post(
            "/api/games/nab/move-check", json={"procedure": "move", "nope": 1}, headers=h
        ).status_code
        == 400  # (as perform answers an unknown key)
    )
    # a malformed request is a one-line 4xx (only the rules' refusal is an ok: false answer)
    r2 = client.post(
        "/api/games/nab/move-check",
        json={"procedure": "move", "request": {"force": "F1", "to": ["W2020"], "nope": 1}},
        headers=h,
    )
    assert r2.status_code == 400 and "no argument 'nope'" in r2.json()["error"]
    assert len(client.get("/api/games/nab").json()["log"]) == before


def test_move_check_2x2_in_base_units(client: TestClient) -> None:
    h = headers(client, "tt")
    view = client.get("/api/games/tt/board").json()
    assert view["hand"]["procedure"] == "move" and "Div HQ [4]" in " ".join(view["rings"])
    roster = {r["id"]: r for r in view["roster"]}
    mover = "A2"  # in the open (A1 stands in the town, where moving costs double)
    x, y = (float(v) for v in re.findall(r"[\d.]+", str(roster[mover]["where"]))[:2])
    r = client.post(
        "/api/games/tt/move-check",
        json={"procedure": "move", "request": {"unit": mover, "to": [x, y - 38.1]}},
        headers=h,
    ).json()
    assert r["ok"], r
    assert r["units"] == "[n]" and r["used"] == pytest.approx(2, abs=0.05)
    assert r["left"] == pytest.approx(r["allowance"] - 2, abs=0.05)
    far = client.post(
        "/api/games/tt/move-check",
        json={"procedure": "move", "request": {"unit": mover, "to": [x, y - 400]}},
        headers=h,
    ).json()
    assert not far["ok"] and far["error"]


def test_table_changes_nab_fix_in_words() -> None:
    rs, state = sample("napoleon_at_bay", "example1")
    from vedette.dice.sources import PhysicalSource

    procs = rs.protocol_procedures()
    moved = procs["move"].run(state, {"force": "F1", "to": ["W2020"]}, PhysicalSource([]))
    s1 = state
    for e in moved.events:
        s1 = rs.fold(s1, e)
    assert rs.table_changes(state, moved.events) == ["move F1 from W1920 to W2020"]
    f1 = next(r for r in rs.roster(s1) if r["id"] == "F1")
    assert "in the ZOC of R1" in str(f1["status"])  # the roster says what the dashes mean
    fixed = procs["fix"].run(s1, {"moving": "F1", "contact": "R1"}, PhysicalSource([3]))
    words = rs.table_changes(s1, fixed.events)
    assert "move R2 from W2421 to W2121; mark it fixed" in words, words
    s2 = s1
    for e in fixed.events:
        s2 = rs.fold(s2, e)
    r2 = next(r for r in rs.roster(s2) if r["id"] == "R2")
    assert "fixed" in str(r2["status"])


def test_2x2_sample_armies_are_in_reach_by_turn_2() -> None:
    """Infantry moves [4] a turn and shoots at [2] (2 by 2, Unit Summary); the Austrians move
    first: after their two moves and the French one, the lines can exchange musketry."""
    for scenario, in_reach in (("sample", True), ("sample_far", False)):
        _, state = sample("two_by_two", scenario)
        inf = [u for u in state.units if u.on_table and u.kind == "infantry"]
        gap = min(
            state.rules.n(a.body.centre.distance(b.body.centre))
            for a in inf
            for b in inf
            if a.side != b.side
        )
        reach = 3 * 4 + 2 + 1  # three moves, musket range, a base depth or so
        assert (gap <= reach) is in_reach, (scenario, gap)


def test_move_check_kuryakin_in_cm(client: TestClient) -> None:
    h = headers(client, "ku")
    r = client.post(
        "/api/games/ku/move-check",
        json={"procedure": "move", "request": {"unit": "A3", "distance": 100, "direction": 0}},
        headers=h,
    ).json()
    assert not r["ok"] and "move is not part of the control" in r["error"]  # the flow says why
    view = client.get("/api/games/ku/board").json()
    assert view["hand"]["kind"] == "relative" and "control 150 mm" in view["rings"]


def test_table_changes_2x2_move_in_words() -> None:
    rs, state = sample("two_by_two")
    out = rs.protocol_procedures()["move"].run(
        state, {"unit": "A2", "to": [220, 440 - 57.15]}, PhysicalSource([])
    )
    assert rs.table_changes(state, out.events) == ["move A2 [3.0] to (220, 383) mm facing 180°"]
    assert rs.table_changes(state, []) == []


def test_table_changes_kuryakin_losses_in_words() -> None:
    from dataclasses import replace

    _, state = sample("solo_napoleonic")
    after = state.with_unit(replace(state.unit("F1"), figures=15, disorder=1))
    from vedette.rules.solo_napoleonic import board

    words = board.changes(state, after)
    assert words == ["remove 3 figure(s) from F1 (now 15); F1 disorder 0 -> 1"]


def test_action_view_for_the_shell(tmp_path: Path) -> None:
    from vedette.web.moves import action_view

    g = Game.create(
        Store(tmp_path / "g.db"),
        "g",
        "napoleon_at_bay",
        rules.get("napoleon_at_bay").scenario("example1"),
    )
    before = g.state
    out = g.perform("move", {"force": "F1", "to": ["W2020"]})
    view = action_view(g, before, out.events)
    assert view["table_changes"] == ["move F1 from W1920 to W2020"]
    assert {"F1", "W2020", "W1920"} <= set(view["highlight"])
