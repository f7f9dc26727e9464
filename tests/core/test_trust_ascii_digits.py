"""Numbers typed in digits other than ASCII's (session 17, helper K3): Python's ``int`` reads
a full-width "３" or an Arabic-Indic "٣" as 3, and "1_0" as 10, so a die face (own dice) or a
field typed so was taken as another number. Each is refused in the usual one line (exit 2 at
the command line, a 400 in the web app), nothing stored; ASCII digits are read as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.core.test_trust_bad_input import refused, run
from vedette import rules
from vedette.dice import parse_faces
from vedette.engine import Game, Store
from vedette.errors import VedetteError
from vedette.web.app import create_app

#: decimal digits of every script but ASCII's (what ``int`` reads besides 0-9)
OTHER_DIGITS = st.characters(categories=["Nd"]).filter(lambda c: not c.isascii())
#: a number typed with at least one such digit, or an underscore between digits
ODD_NUMBERS = st.one_of(
    st.lists(st.one_of(OTHER_DIGITS, st.sampled_from("0123456789")), min_size=1, max_size=4)
    .filter(lambda cs: any(not c.isascii() for c in cs))
    .map("".join),
    st.tuples(st.integers(1, 99), st.integers(0, 99)).map(lambda t: f"{t[0]}_{t[1]}"),
)


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "g.db"
    Game.create(Store(path), "a", "asl", rules.get("asl").scenario("sample"), seed=1)
    assert run("--db", str(path), "asl", "phase", "--game", "a")[0] == 0  # on to the PFPh
    return str(path)


HIP = ["asl", "shift", "a=4M6", "b=4N3", "kind=hip", "--game", "a"]


def test_a_full_width_die_face_is_refused_at_the_command_line(db: str) -> None:
    err = refused(db, *HIP, "--dice", "３,３")
    assert "die face '３' is not a whole number" in err, err
    err = refused(db, *HIP, "--dice", "3 1_0")
    assert "die face '1_0' is not a whole number" in err, err
    err = refused(db, "asl", "location", "4P5", "tem=３", "--game", "a")
    assert "'tem' must be a whole number, not '３'" in err, err
    assert run("--db", db, *HIP, "--dice", "3,3")[0] == 0  # ASCII digits: the shift is made


def test_a_full_width_die_face_is_refused_by_the_web_app(db: str) -> None:
    c = TestClient(create_app(Path(db)), base_url="http://localhost")
    page = c.get("/games/a").text
    token = page.split('name="csrf-token" content="')[1].split('"')[0]
    before = Store(db).game("a").events
    req = {"a": "4M6", "b": "4N3", "kind": "hip"}
    body = {"procedure": "shift", "request": req, "dice": [3, "1_0"]}  # (a list: numbers only)
    r = c.post("/api/games/a/perform", json=body, headers={"X-CSRF-Token": token})
    assert r.status_code == 400 and "\n" not in r.json()["error"], r.text
    for dice, word in (("３ ３", "'３'"), ("٣ 3", "'٣'")):
        body = {"procedure": "shift", "request": req, "dice": dice}
        r = c.post("/api/games/a/perform", json=body, headers={"X-CSRF-Token": token})
        assert r.status_code == 400, r.text
        error = r.json()["error"]
        assert f"die face {word} is not a whole number" in error and "\n" not in error, error
    body = {"procedure": "location", "request": {"id": "4P5", "tem": "３"}}
    r = c.post("/api/games/a/perform", json=body, headers={"X-CSRF-Token": token})
    assert r.status_code == 400 and r.json()["error"] == "'tem' must be a whole number, not '３'"
    assert Store(db).game("a").events == before


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=ODD_NUMBERS)
def test_no_number_typed_in_other_digits_is_read(text: str) -> None:
    """Property: a die face, a whole-number field and a number field typed with a digit
    other than ASCII's (or an underscore) are refused, never read as a number."""
    with pytest.raises(VedetteError, match="is not a whole number"):
        parse_faces(f"3 {text}")
    with pytest.raises(VedetteError, match="'tem' must be a whole number"):
        GAME.perform("location", {"id": "4P5", "tem": text})
    with pytest.raises(VedetteError, match="must be a number"):
        rules_float(text)


@given(n=st.integers(-1000, 1000))
def test_ascii_digits_are_read_as_before(n: int) -> None:
    assert parse_faces(f"{n}, +3") == [n, 3]
    assert rules_float(f" {n} ") == n and rules_float(f"{n}.25") == float(f"{n}.25")
    assert GAME.perform("location", {"id": "4P5", "tem": f" {n % 5} "}).message


def rules_float(text: str) -> float:
    """A number field's reading of typed text (a Kuryakin move's distance)."""
    spec = rules.get("solonap").protocol_procedures()["move"].spec
    value: float = spec.build({"unit": "F1", "distance": text}).distance
    return value


GAME = Game.create(Store(":memory:"), "p", "asl", rules.get("asl").scenario("sample"), seed=1)
