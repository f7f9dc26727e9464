"""An export's lines as an attacker writes them. A line that gives a key twice says two things
(JSON alone keeps the last one silently): refused in one line, naming the line and the key, by
the CLI and the web app, as the web API refuses such a body and the CLI ``unit=A1 unit=A2``.
A file padded with a great many lines is refused before they are read. Nothing is stored."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from vedette import rules
from vedette.cli.main import main
from vedette.engine import Game, Store
from vedette.engine.referee import resign
from vedette.errors import VedetteError
from vedette.web.app import create_app


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "g.db"
    g = Game.create(Store(path), "g", "2x2", rules.get("2x2").scenario("sample"), seed=3)
    g.perform("turn", {"unit": "A1", "direction": "about"})
    return path


def twice(db: Path, line: int, key: str, value: object) -> str:
    """The game's export, its ``line`` (1: the head) given ``key`` again at its end."""
    lines = Game.open(Store(db), "g").export_jsonl().splitlines()
    lines[line - 1] = lines[line - 1][:-1] + f", {json.dumps(key)}: {json.dumps(value)}}}"
    text = "\n".join(lines) + "\n"
    return text if line == 1 else resign(text)  # (the digest covers the records, not the head)


@pytest.mark.parametrize(
    ("line", "key", "value"),
    [(1, "name", "other"), (3, "kind", "action"), (3, "seq", 2)],
)
def test_a_key_given_twice_in_an_export_is_refused(
    db: Path, tmp_path: Path, line: int, key: str, value: object
) -> None:
    path = tmp_path / "twice.jsonl"
    path.write_text(twice(db, line, key, value), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--db", str(db), "game", "import", str(path), "--name", "t"])
    said = err.getvalue()
    assert code == 2 and said.count("\n") == 1, said
    assert f"line {line}: key {key!r} given twice" in said
    c = TestClient(create_app(db), base_url="http://localhost")
    page = c.get("/").text
    token = page.split('name="csrf-token" content="')[1].split('"')[0]
    files = {"upload": ("twice.jsonl", path.read_bytes())}
    r = c.post("/import", data={"csrf": token, "name": "t"}, files=files)
    assert r.status_code == 400 and "given twice" in r.text
    assert [(g.name, g.events) for g in Store(db).games()] == [("g", 2)]


def test_the_same_export_with_each_key_once_imports(db: Path) -> None:
    text = Game.open(Store(db), "g").export_jsonl()
    assert Game.import_jsonl(Store(db), text, "t").store.game("t").events == 2


@pytest.mark.parametrize(
    ("count", "refusal"), [(1000, "incomplete or padded"), (250_000, "more than 100000 events")]
)
def test_a_padded_export_is_refused_before_its_lines_are_read(
    db: Path, monkeypatch: pytest.MonkeyPatch, count: int, refusal: str
) -> None:
    """A file of a head line and a great many short lines (24 MB of ``{}`` lines took 42 s
    and 1.8 GB to be refused): refused by its head's count, or the events' limit, before
    any line after the head is read as JSON."""
    from vedette.engine import session

    read: list[object] = []
    real = session.iter_jsonl

    def counting(text: str) -> Iterator[dict[str, object]]:
        for obj in real(text):
            read.append(obj)
            yield obj

    monkeypatch.setattr(session, "iter_jsonl", counting)
    head = Game.open(Store(db), "g").export_jsonl().splitlines()[0]
    with pytest.raises(VedetteError) as e:
        Game.import_jsonl(Store(db), head + "\n" + "{}\n" * count, "padded")
    assert refusal in str(e.value) and len(read) <= 1
    assert [g.name for g in Store(db).games()] == ["g"]
