"""Issue 28, item 5: one package shape for every ruleset (docs/architecture.md, "The package
shape"). Every built-in ruleset's package, and the toy example, has the same modules, each
holding the same thing: ``ruleset.py`` the Ruleset class (``__init__.py`` names its
``RULESET``), ``model.py`` the state, ``requests.py`` every procedure's request class,
``events.py`` the typed events, ``flow.py`` the declared sequence of play (``FLOW``, the
ruleset's ``flow``) and what is owed, ``data/`` the rule data and scenarios. The shipped
rulesets also have ``sequences.py``, ``schema.py``, ``board.py`` (the views) and ``editor.py``
(the scenario builder's spec), which a smaller ruleset leaves out; other modules are its
topics, named freely."""

from __future__ import annotations

import importlib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import tests.toy  # noqa: F401  (registers the toy example)
from vedette import rules

#: what every ruleset has (the toy too)
CORE = ("__init__.py", "ruleset.py", "model.py", "requests.py", "events.py", "flow.py", "data/")
#: what the shipped rulesets have besides
SHIPPED = ("sequences.py", "schema.py", "board.py", "editor.py")
#: module names the shape gives a meaning, written another way (two names for one thing)
CONFUSABLE = ("game.py", "state.py", "sequence.py", "views.py", "request.py", "event.py")

PACKAGES = [*rules.BUILTIN, "toy"]


def package(name: str) -> tuple[str, Path]:
    """The ruleset's package name and folder."""
    mod = rules.REGISTRY[rules.canonical(name)][0]
    return mod, Path(str(resources.files(mod)))


def entries(folder: Path) -> set[str]:
    return {p.name + ("/" if p.is_dir() else "") for p in folder.iterdir()} - {"__pycache__/"}


@pytest.mark.parametrize("name", PACKAGES)
def test_every_ruleset_package_has_the_shapes_modules(name: str) -> None:
    _, folder = package(name)
    have = entries(folder)
    need = CORE if name == "toy" else (*CORE, *SHIPPED)
    assert [m for m in need if m not in have and m != "events.py"] == []  # (events: below)
    assert sorted(have & set(CONFUSABLE)) == []


@pytest.mark.parametrize("name", PACKAGES)
def test_each_module_holds_what_the_shape_says(name: str) -> None:
    mod, _ = package(name)
    rs = rules.get(name)
    assert type(rs).__module__ == f"{mod}.ruleset"
    assert importlib.import_module(mod).RULESET is rs
    assert importlib.import_module(f"{mod}.ruleset").RULESET is rs
    homes = {p.request.__module__ for p in rs.protocol_procedures().values()}
    assert homes == {f"{mod}.requests"}
    flow: Any = importlib.import_module(f"{mod}.flow")
    assert getattr(flow, "FLOW", None) is rs.flow


@pytest.mark.parametrize("name", PACKAGES)
def test_a_rulesets_events_are_in_its_events_module(name: str) -> None:
    mod, folder = package(name)
    assert (folder / "events.py").is_file()
    rs = rules.get(name)
    homes = {e.__module__ for e in rs.events}
    # the package's own events are in events.py (a core event, the patch, is the core's)
    assert sorted(m for m in homes if m.startswith(f"{mod}.") and m != f"{mod}.events") == []
    assert f"{mod}.events" in homes


def test_the_shape_check_finds_a_missing_or_confusable_module(tmp_path: Path) -> None:
    for f in ("__init__.py", "game.py", "model.py", "sequence.py"):
        (tmp_path / f).write_text("")
    (tmp_path / "data").mkdir()
    have = entries(tmp_path)
    assert [m for m in CORE if m not in have] == [
        "ruleset.py",
        "requests.py",
        "events.py",
        "flow.py",
    ]
    assert sorted(have & set(CONFUSABLE)) == ["game.py", "sequence.py"]
