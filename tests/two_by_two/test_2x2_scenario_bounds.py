"""A 2 by 2 scenario that places a unit off its table (x = 9,000,000 mm on a 610 mm table, or
a negative x) is refused in one line naming the unit and the table, by the command line and
the scenario builder: such a unit could never move (no move may end off the table, readings
26, 33, 52) and was drawn nowhere. A unit at the table's edge, or a reserve (no x and y), is
placed as before."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from vedette import rules
from vedette.cli.main import main
from vedette.engine import Game, Store
from vedette.errors import VedetteError
from vedette.web.app import create_app


def sample() -> dict[str, Any]:
    return rules.get("two_by_two").scenario("sample")


@pytest.mark.parametrize(("x", "y"), [(9_000_000.0, 505.0), (-50.0, 505.0), (300.0, 700.0)])
def test_a_unit_off_the_table_is_refused(tmp_path: Path, x: float, y: float) -> None:
    scn = sample()
    scn["units"][0].update(x=x, y=y)
    st = Store(tmp_path / "g.db")
    with pytest.raises(VedetteError) as e:
        Game.create(st, "off", "two_by_two", scn, seed=1)
    msg = str(e.value)
    assert f"units[0]: at ({x:.1f}, {y:.1f}) mm, off the 609.6 x 609.6 mm table" in msg
    assert "\n" not in msg and st.games() == []


def test_the_cli_and_the_builder_say_so_in_one_line(tmp_path: Path) -> None:
    from importlib import resources

    text = (resources.files(rules.get("2x2").data_package) / "sample.toml").read_text("utf-8")
    path = tmp_path / "far.toml"
    path.write_text(text.replace("x = 300", "x = 9000000", 1), encoding="utf-8")
    db = str(tmp_path / "g.db")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--db", db, "game", "new", "--ruleset", "2x2", "--scenario", str(path)])
    assert code == 2 and err.getvalue().count("\n") == 1 and "off the 609.6" in err.getvalue()
    assert Store(db).games() == []
    c = TestClient(create_app(db), base_url="http://localhost")
    page = c.get("/scenarios/new?ruleset=two_by_two").text
    h = {"X-CSRF-Token": page.split('name="csrf-token" content="')[1].split('"')[0]}
    scn = sample()
    scn["units"][0].update(x=-50.0)
    r = c.post("/api/scenarios/check", json={"ruleset": "two_by_two", "data": scn}, headers=h)
    assert r.status_code == 200
    assert any("off the 609.6" in p["msg"] for p in r.json()["problems"]), r.json()["problems"]


def test_at_the_edge_or_in_reserve_a_unit_is_placed(tmp_path: Path) -> None:
    scn = sample()
    scn["units"][0].update(x=0.0, y=609.6)
    reserve = {k: v for k, v in scn["units"][1].items() if k not in ("x", "y", "facing")}
    scn["units"][1] = {**reserve, "status": "reserve"}
    g = Game.create(Store(tmp_path / "g.db"), "edge", "two_by_two", scn, seed=1)
    assert g.store.game("edge").events == 1
