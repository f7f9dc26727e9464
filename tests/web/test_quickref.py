"""The quick-reference sheet (issue 26.7): every number of each ruleset's rule data is on its
sheet, in the web page (beside its data path) and in the CLI's ``reference``, from the same data
the referee reads; a house rule's value replaces the shipped one and is marked."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from vedette import rules
from vedette.cli.main import main
from vedette.rules.quickref import sheet, text
from vedette.web.app import create_app

RULESETS = ("napoleon_at_bay", "solitaire_asl", "two_by_two", "solo_napoleonic")


def numbers(data: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every number in the data with the path of the value (a record list: the list's path)."""
    if isinstance(data, Mapping):
        for k, v in data.items():
            yield from numbers(v, f"{path}.{k}" if path else str(k))
    elif isinstance(data, list):
        records = bool(data) and all(isinstance(x, Mapping) for x in data)
        for x in data:
            for p, v in numbers(x, path):
                yield (path if records else p), v
    elif isinstance(data, int | float) and not isinstance(data, bool):
        yield path, data


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    db = tmp_path_factory.mktemp("ref") / "ref.db"
    return TestClient(create_app(db), base_url="http://localhost")


def elements(html: str, path: str) -> str:
    """The text of the page's elements marked with ``data-path`` = ``path`` (tags stripped)."""
    out = []
    for m in re.finditer(
        rf'data-path="{re.escape(path)}"[^>]*>(.*?)</(div|table|section)>', html, re.S
    ):
        out.append(re.sub(r"<[^>]+>", " ", m.group(1)))
    return " ".join(out)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_number_is_on_the_sheet(client: TestClient, ruleset: str) -> None:
    rs = rules.get(ruleset)
    html = client.get(f"/help/{ruleset}/tables").text
    data = rs.data()
    missing = []
    for path, v in numbers({k: x for k, x in data.items() if k != "tables"}):
        if text(v) not in elements(html, path).replace(",", " ").split():
            missing.append(f"{path}={v}")
    assert not missing, missing[:20]
    # the result tables: every row's range
    for t in rs.tables().values():
        for r in t.rows:
            assert f"<td>{r.range_text.replace('<', '&lt;').replace('>', '&gt;')}</td>" in html


@pytest.mark.parametrize("ruleset", RULESETS)
def test_cli_reference_has_every_number(
    ruleset: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["--db", str(tmp_path / "d.db"), "reference", ruleset, "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    flat: dict[str, str] = {}

    def walk(s: Mapping[str, Any]) -> None:
        for e in s["entries"]:
            flat[e["path"]] = e["value"]
        for g in s["grids"]:
            flat[g["path"]] = " ".join(c for r in g["rows"] for c in r)
        for sub in s["sections"]:
            walk(sub)

    for s in got["sections"]:
        walk(s)
    data = {k: x for k, x in rules.get(ruleset).data().items() if k != "tables"}
    for path, v in numbers(data):
        assert text(v) in flat.get(path, "").replace(",", " ").split(), (path, v)


def test_a_house_rule_replaces_and_is_marked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rs = rules.get("two_by_two")
    house = {"movement": {"road_bonus": 3}}
    secs = {s.path: s for s in sheet(rs, house)}
    entry = next(e for e in secs["movement"].entries if e.path == "movement.road_bonus")
    assert entry.value == "3" and entry.house
    plain = next(e for e in secs["movement"].entries if e.path == "movement.stream_cost")
    assert not plain.house and "stream" in plain.note  # the shipped comment beside it
    f = tmp_path / "house.toml"
    f.write_text("[movement]\nroad_bonus = 3\n", encoding="utf-8")
    assert (
        main(["--db", str(tmp_path / "d.db"), "reference", "twobytwo", "--house-rules", str(f)])
        == 0
    )
    assert "road bonus: 3 [house rule]" in capsys.readouterr().out


def test_the_sheet_prints_to_pdf(page: Any, live_server: str) -> None:
    """Browser print to PDF: the sheet of every ruleset prints (a PDF of a few pages), with
    the navigation left out."""
    for ruleset in RULESETS:
        page.goto(f"{live_server}/help/{ruleset}/tables")
        assert page.locator(".ref-entry").count() > 10
        page.emulate_media(media="print")
        assert not page.locator("small.no-print").first.is_visible()
        pdf = page.pdf(format="A4")
        assert pdf.startswith(b"%PDF") and len(pdf) > 10_000


def _bumped(data: Any) -> Any:
    """Every number of the data changed (a whole number by 1, a fraction by a half)."""
    if isinstance(data, Mapping):
        return {k: _bumped(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_bumped(x) for x in data]
    if isinstance(data, bool) or not isinstance(data, int | float):
        return data
    return data + 1 if isinstance(data, int) else data + 0.5


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_number_of_a_house_rule_is_on_the_sheet(
    ruleset: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """House rules applied: a house-rule file changing every number of the rule data (but the
    result tables) gives a sheet showing each changed number, marked as the house's."""
    import tomlkit

    data = {k: x for k, x in rules.get(ruleset).data().items() if k != "tables"}
    house = _bumped(data)
    f = tmp_path / "house.toml"
    f.write_text(tomlkit.dumps(house), encoding="utf-8")
    code = main(
        ["--db", str(tmp_path / "d.db"), "reference", ruleset, "--house-rules", str(f), "--json"]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    got = json.loads(out)
    flat: dict[str, list[tuple[str, bool]]] = {}

    def walk(s: Mapping[str, Any]) -> None:
        for e in s["entries"]:
            flat.setdefault(e["path"], []).append((e["value"], e["house"]))
        for g in s["grids"]:
            flat.setdefault(g["path"], []).append((" ".join(c for r in g["rows"] for c in r), True))
        for sub in s["sections"]:
            walk(sub)

    for s in got["sections"]:
        walk(s)
    missing = [
        f"{path}={v}"
        for path, v in numbers(house)
        if not any(text(v) in shown.replace(",", " ").split() for shown, _ in flat.get(path, []))
    ]
    assert not missing, missing[:20]
    # each changed value is marked as the house's (a record list is drawn as one grid)
    changed = {path for path, _ in numbers(house)}
    unmarked = [p for p in changed if not any(mark for _, mark in flat.get(p, []))]
    assert not unmarked, unmarked[:20]


def test_every_part_shown_beside_an_action_is_on_the_sheet() -> None:
    """The parts of the sheet shown beside an action's odds name real procedures and real
    sections of each ruleset's sheet."""
    from vedette.rules.quickref import RELEVANT

    assert set(RELEVANT) == set(RULESETS)
    for ruleset, by_proc in RELEVANT.items():
        rs = rules.get(ruleset)
        procs = set(rs.protocol_procedures())
        paths = {s.path for s in sheet(rs)}
        for proc, parts in by_proc.items():
            assert proc in procs, (ruleset, proc)
            assert set(parts) <= paths, (ruleset, proc, set(parts) - paths)


def test_an_actions_odds_come_with_its_part_of_the_sheet(tmp_path: Path) -> None:
    """Asking a NAB fixing's odds answers the sheet's fixing section beside them, with the
    game's house rules applied (a vedette counting 2 here)."""
    from vedette.engine import Game, Store

    db = tmp_path / "web.db"
    rs = rules.get("napoleon_at_bay")
    g = Game.create(
        Store(db),
        "g",
        rs.name,
        rs.scenario("sample"),
        seed=1,
        house_rules={"fixing": {"vedette_strength": 2}},
    )
    g.perform("move", {"force": "F1", "to": "W2020"})
    c = TestClient(create_app(db), base_url="http://localhost")
    page = c.get("/games/g").text
    h = {"X-CSRF-Token": page.split('name="csrf-token" content="')[1].split('"')[0]}
    r = c.post(
        "/api/games/g/odds",
        json={"procedure": "fix", "request": {"moving": "F1", "contact": "R1"}},
        headers=h,
    ).json()
    assert r["odds"] and [s["path"] for s in r["reference"]] == ["fixing", "movement"]
    strength = next(
        e for e in r["reference"][0]["entries"] if e["path"].endswith("vedette_strength")
    )
    assert strength["value"] == "2" and strength["house"]
    # an action with no numbers of its own comes with none
    r = c.post("/api/games/g/odds", json={"procedure": "end_movement"}, headers=h).json()
    assert r["reference"] == []


def test_the_part_is_shown_beside_the_odds(page: Any, live_server: str, live_db: Path) -> None:
    from vedette.engine import Game, Store

    rs = rules.get("napoleon_at_bay")
    g = Game.create(Store(live_db), "ref-beside", rs.name, rs.scenario("sample"), seed=1)
    g.perform("move", {"force": "F1", "to": "W2020"})
    page.goto(f"{live_server}/games/ref-beside")  # the owed fixing is chosen: its odds shown
    page.wait_for_selector("#odds details.ref-beside")
    box = page.locator("#odds details.ref-beside")
    assert "quick reference: Fixing, Movement" in box.locator("summary").inner_text()
    box.locator("summary").click()
    assert "vedette strength: 1" in box.inner_text()
