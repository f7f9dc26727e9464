"""The developer pages' reading tables point at code and tests that exist (issue 26, item 7).

Each ruleset's developer page (docs/rules/RULESET.md) keeps, in its section "Assumptions (each
with its knob)", one row per reading: ``| # | rule | code and data | tests |``. The reading itself
is worded once, for players, in the table(s) of the player page's section "Where the text is
unclear" (src/vedette/rules/RULESET/data/help.md), under the same number. This test holds the
two pages together and keeps the developer table honest:

- the two pages number the same readings (a reading added to one is added to the other);
- every backticked name in the code column exists: ``module.function`` (a module of the
  ruleset's package, or of vedette), ``Class.attribute``, a bare name defined in the package, a
  data file, a house-rule key ``[section] key`` of the ruleset's data (``*`` for any table);
- every backticked test exists: ``file.py::test_name`` (a file under tests/, by its path or its
  name), ``file.py``, or a bare ``test_name`` in the file the page names as its default.
"""

from __future__ import annotations

import functools
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src/vedette"
TESTS = ROOT / "tests"
RULESETS = sorted(p.stem for p in (ROOT / "docs/rules").glob("*.md"))

# The test file a bare test name in a page's table is read in (the page says so above its
# table); a page without one names every test with its file.
DEFAULT_TESTS = {"napoleon_at_bay": "tests/napoleon_at_bay/test_nab_fixing.py"}

DEV_SECTION = "## Assumptions (each with its knob)"
PLAYER_SECTION = "## Where the text is unclear"
ROW = re.compile(r"^\|\s*([A-Z]?\d+)\s*\|")
TICKS = re.compile(r"`([^`]+)`")
NAME = re.compile(r"^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$")
KNOB = re.compile(r"^\[([\w.*]+)\](?:\s+([\w.]+))?$")


def section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start : end if end >= 0 else len(text)]


def rows(text: str) -> dict[str, list[str]]:
    """The numbered rows of the markdown tables in ``text``: number -> cells."""
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        m = ROW.match(line)
        if m:
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
            assert m.group(1) not in out, f"reading {m.group(1)} twice"
            out[m.group(1)] = cells
    return out


@functools.cache
def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@functools.cache
def sources(ruleset: str) -> tuple[list[Path], list[Path]]:
    """The ruleset package's Python files, and all of vedette's."""
    return sorted((SRC / "rules" / ruleset).rglob("*.py")), sorted(SRC.rglob("*.py"))


@functools.cache
def class_index(ruleset: str) -> dict[str, list[Path]]:
    """Class name -> the files (the package's, then vedette's) that define it."""
    index: dict[str, list[Path]] = {}
    for p in [*sources(ruleset)[0], *sources(ruleset)[1]]:
        for name in re.findall(r"^class (\w+)", text(p), re.M):
            index.setdefault(name, []).append(p)
    return index


def defines(path: Path, name: str) -> bool:
    """Does the Python file define ``name`` (a function, class, attribute or constant)?"""
    pattern = re.compile(
        rf"^\s*(?:async\s+)?(?:def|class)\s+{re.escape(name)}\b|^\s*{re.escape(name)}\s*[:=]",
        re.M,
    )
    return bool(pattern.search(text(path)))


def code_exists(ruleset: str, name: str) -> bool:
    package = SRC / "rules" / ruleset
    if "/" in name or name.endswith((".py", ".toml")):
        return (package / name).exists() or (ROOT / name).exists()
    parts = name.split(".")
    head, rest = parts[0], parts[1:]
    own, everything = sources(ruleset)
    if not rest:
        return any(defines(p, head) for p in own + everything) or any(
            re.search(rf"\b{re.escape(head)}\b", text(p)) for p in own
        )
    modules = [p for p in own + everything if p.stem == head]
    classes = class_index(ruleset).get(head, [])
    return any(all(defines(p, part) for part in rest) for p in modules + classes)


def knob_exists(data: dict[str, Any], table: str, key: str | None) -> bool:
    """``[a.b] key``: the table a.b of the ruleset's data (``*`` any table) has the key (a
    dotted key goes into subtables)."""
    here: list[Any] = [data]
    for part in table.split("."):
        here = [
            v
            for t in here
            if isinstance(t, dict)
            for k, v in t.items()
            if (part == "*" or k == part)
        ]
    if key is None:
        return bool(here)
    for part in key.split("."):
        here = [t[part] for t in here if isinstance(t, dict) and part in t]
    return bool(here)


def ruleset_data(ruleset: str) -> dict[str, Any]:
    """The ruleset's rule data (a house rule's shape): rules.toml, and units.toml where there is
    one; the scenarios beside them are not rule data."""
    data: dict[str, Any] = {}
    for name in ("units.toml", "rules.toml"):
        f = SRC / "rules" / ruleset / "data" / name
        if f.exists():
            data.update(tomllib.loads(f.read_text(encoding="utf-8")))
    return data


def all_test_files() -> dict[str, list[Path]]:
    by_name: dict[str, list[Path]] = {}
    for p in TESTS.rglob("test_*.py"):
        by_name.setdefault(p.name, []).append(p)
    return by_name


def names_a_test(ruleset: str, ref: str, by_name: dict[str, list[Path]]) -> bool:
    file, _, name = ref.partition("::")
    if not file.endswith(".py"):
        file, name = DEFAULT_TESTS.get(ruleset, ""), file
        if not file:
            return False
    paths = [ROOT / file] if "/" in file else by_name.get(file, [])
    if len(paths) != 1 or not paths[0].exists():
        return False
    return not name or bool(re.search(rf"^\s*def {re.escape(name)}\(", text(paths[0]), re.M))


def test_a_missing_name_is_caught() -> None:
    """The checks can fail: a name that does not exist is reported as missing."""
    by_name = all_test_files()
    assert code_exists("napoleon_at_bay", "fixing.mp_tiers")
    assert not code_exists("napoleon_at_bay", "fixing.no_such_function")
    assert not code_exists("napoleon_at_bay", "NoSuchClass.method")
    assert names_a_test("napoleon_at_bay", "test_vedette_strength_is_a_parameter", by_name)
    assert not names_a_test("napoleon_at_bay", "test_nab_fixing.py::test_no_such_test", by_name)
    assert not names_a_test("two_by_two", "test_vedette_strength_is_a_parameter", by_name)
    data = ruleset_data("napoleon_at_bay")
    assert knob_exists(data, "fixing", "vedette_strength")
    assert not knob_exists(data, "fixing", "no_such_key")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_reading_is_numbered_alike_and_its_code_and_tests_exist(ruleset: str) -> None:
    dev = (ROOT / "docs/rules" / f"{ruleset}.md").read_text(encoding="utf-8")
    player = (SRC / "rules" / ruleset / "data/help.md").read_text(encoding="utf-8")
    table = rows(section(dev, DEV_SECTION))
    worded = rows(section(player, PLAYER_SECTION))
    assert table, f"docs/rules/{ruleset}.md: no numbered reading under {DEV_SECTION!r}"
    assert list(table) == list(worded), (
        f"{ruleset}: the developer page numbers {sorted(set(table) - set(worded))} that the "
        f"player page does not, and the player page {sorted(set(worded) - set(table))}"
    )
    data = ruleset_data(ruleset)
    by_name = all_test_files()
    missing: list[str] = []
    for number, cells in table.items():
        assert len(cells) == 4, f"{ruleset} {number}: | # | rule | code and data | tests |"
        for token in TICKS.findall(cells[2]):
            knob = KNOB.match(token)
            if knob:
                ok = knob_exists(data, knob.group(1), knob.group(2))
            elif NAME.match(token) or token.endswith((".py", ".toml")):
                ok = code_exists(ruleset, token)
            else:
                continue  # a request field with its value, an option on the command line ...
            if not ok:
                missing.append(f"{number} code {token}")
        for token in TICKS.findall(cells[3]):
            if not names_a_test(ruleset, token, by_name):
                missing.append(f"{number} test {token}")
    assert not missing, f"docs/rules/{ruleset}.md names what does not exist: {missing}"
