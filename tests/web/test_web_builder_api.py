"""The scenario builder's API (issue 30): live checks with each problem's element, save only
when sound, export/import the canonical TOML, a new game from a saved scenario."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from vedette import rules
from vedette.engine import Game, Store
from vedette.engine import scenarios as user
from vedette.web.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    c = TestClient(create_app(tmp_path / "web.db"), base_url="http://localhost")
    c.get("/")
    return c


def _h(c: TestClient) -> dict[str, str]:
    page = c.get("/scenarios/new?ruleset=napoleon_at_bay").text
    return {"X-CSRF-Token": page.split('name="csrf-token" content="')[1].split('"')[0]}


def test_check_save_export_import_and_play(client: TestClient, tmp_path: Path) -> None:
    h = _h(client)
    rs = rules.get("napoleon_at_bay")
    data = rs.scenario("sample")
    assert (
        client.post("/api/scenarios/check", json={"ruleset": "nab", "data": data}).status_code
        == 403
    )
    ok = client.post(
        "/api/scenarios/check", json={"ruleset": "nab", "data": data}, headers=h
    ).json()
    assert ok["problems"] == [] and ok["board"].startswith("<svg")
    bad = {**data, "forces": [{**data["forces"][0], "side": "Prussians"}]}
    r = client.post("/api/scenarios/check", json={"ruleset": "nab", "data": bad}, headers=h)
    assert r.json()["problems"][0]["loc"] == "forces[0].side"
    # refused beside the element, nothing stored
    body = {"ruleset": "nab", "name": "mine", "data": bad}
    r = client.post("/api/scenarios/save", json=body, headers=h)
    assert r.status_code == 422 and r.json()["problems"][0]["loc"] == "forces[0].side"
    assert "mine" not in client.get("/").text
    body["data"] = data
    body["description"] = "My own battle."
    r = client.post("/api/scenarios/save", json=body, headers=h)
    assert r.status_code == 200 and r.json()["saved"]["title"].startswith("Highway")
    index = client.get("/").text
    assert "/scenarios/new?ruleset=napoleon_at_bay&amp;edit=mine" in index
    toml = client.get("/scenarios/napoleon_at_bay/mine/export").text
    assert toml.startswith("# My own battle.\n") and tomllib.loads(toml) == data
    r = client.post(
        "/api/scenarios/import", json={"ruleset": "nab", "name": "copy", "text": toml}, headers=h
    )
    assert r.status_code == 200
    assert client.get("/scenarios/napoleon_at_bay/copy/export").text == toml
    # the new-game form takes it by name, as a bundled one
    r = client.post(
        "/games",
        data={
            "csrf": h["X-CSRF-Token"],
            "name": "g",
            "ruleset": "nab",
            "scenario": "copy",
            "seed": "5",
        },
        follow_redirects=False,
    )
    assert r.status_code == 303
    st = Store(tmp_path / "web.db")
    a = Game.open(st, "g")
    b = Game.create(st, "file", "napoleon_at_bay", data, seed=5)
    assert rs.state_json(a.state) == rs.state_json(b.state)
    # opened again to edit: the page carries its data
    page = client.get("/scenarios/new?ruleset=napoleon_at_bay&edit=copy").text
    assert "Highway to the Kremlin" in page and "builder.js" in page


@pytest.mark.parametrize("name", rules.BUILTIN)
def test_every_builder_page_and_its_sample_checks(client: TestClient, name: str) -> None:
    h = _h(client)
    assert client.get(f"/scenarios/new?ruleset={name}&start=sample").status_code == 200
    data = user.canonical(rules.get(name).scenario("sample"))
    r = client.post("/api/scenarios/check", json={"ruleset": name, "data": data}, headers=h)
    assert r.json()["problems"] == [] and "<svg" in r.json()["board"]
    if name == "solitaire_asl":
        assert any("dummy HIP left" in n for n in r.json()["notes"])
    if name == "two_by_two":
        assert any("set-up budget 12 AP" in n for n in r.json()["notes"])


def test_text_from_a_scenario_is_escaped_everywhere(client: TestClient) -> None:
    h = _h(client)
    evil = "<img src=x onerror=alert(1)>"
    data = user.canonical(rules.get("solitaire_asl").scenario("sample"))
    data["name"] = evil
    data["locations"][0]["terrain"] = evil
    r = client.post("/api/scenarios/check", json={"ruleset": "asl", "data": data}, headers=h)
    assert evil not in r.json()["board"] and "&lt;img" in r.json()["board"]
    body = {"ruleset": "asl", "name": "evil", "data": data, "description": evil}
    assert client.post("/api/scenarios/save", json=body, headers=h).status_code == 200
    for url in ("/", "/scenarios/new?ruleset=asl&edit=evil"):
        assert evil not in client.get(url).text
    # a name that is not a plain word never reaches a URL or a file name
    body["name"] = '../x"'
    r = client.post("/api/scenarios/save", json=body, headers=h)
    assert r.status_code == 422 and "scenario name" in r.json()["error"]


def test_builder_bodies_have_their_own_limit(client: TestClient) -> None:
    """A scenario's TOML may be larger than a move's body (64 KiB): the builder takes up to
    256 KiB, and refuses more in one line with nothing stored."""
    h = _h(client)
    text = "# " + "x" * (100 * 1024) + "\n"
    body = {"ruleset": "nab", "name": "big", "text": text}
    r = client.post("/api/scenarios/import", json=body, headers=h)
    assert r.status_code in (400, 422) and "too large" not in r.text  # read, then judged
    body["text"] = "# " + "x" * (300 * 1024)
    r = client.post("/api/scenarios/import", json=body, headers=h)
    assert r.status_code in (400, 413, 422) and "too large (limit 256 KiB)" in r.text
    assert "big" not in client.get("/").text


def test_the_builder_address_without_its_query_is_a_page_not_json(client: TestClient) -> None:
    """``/scenarios/new`` typed or bookmarked without ``?ruleset=``: the choice of rules, a link
    to each ruleset's builder; an unknown ruleset or scenario of yours: a one-line error page
    (4xx) with the way back to that choice, not a JSON line a browser shows raw; a query of
    the wrong type on another page (a study's number) is a page too, and the API stays JSON."""
    r = client.get("/scenarios/new")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    for name in rules.BUILTIN:  # (each has a builder; a test's own ruleset may not)
        assert f'href="/scenarios/new?ruleset={name}"' in r.text
    for url in ("/scenarios/new?ruleset=chess", "/scenarios/new?ruleset=nab&edit=nothing"):
        r = client.get(url)
        assert r.status_code == 400 and r.headers["content-type"].startswith("text/html"), url
        assert 'class="error" role="alert"' in r.text and 'href="/scenarios/new"' in r.text
    r = client.get("/simulations/first")
    assert r.status_code == 422 and r.headers["content-type"].startswith("text/html")
    assert "sid: " in r.text
    r = client.post("/api/scenarios/check", json={"data": {}}, headers=_h(client))
    assert r.status_code == 400 and "ruleset" in r.json()["error"]
