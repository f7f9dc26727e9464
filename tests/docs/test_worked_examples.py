"""The page of the texts' worked examples (docs/worked_examples.md) names tests that exist, and
names every test of tests/seeds/.

Each worked example of the five seed texts and each of their tables has a row there naming the
tests that reproduce it (``file::function``, the file under tests/). A test renamed or removed
leaves the page pointing at nothing: this test fails. A test added to tests/seeds/ (a worked
example or a table of the texts) without its row fails it too."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.sources import tree

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs/worked_examples.md"
NAMED = re.compile(r"`([\w/]+\.py)::(\w+)`")


def _tests(path: Path) -> set[str]:
    return {
        n.name
        for n in tree(path).body
        if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")
    }


def test_every_test_the_page_names_exists() -> None:
    named = NAMED.findall(PAGE.read_text(encoding="utf-8"))
    assert len(named) > 50
    missing = [
        f"{f}::{t}"
        for f, t in named
        if not (ROOT / "tests" / f).is_file() or t not in _tests(ROOT / "tests" / f)
    ]
    assert missing == []


def test_every_test_of_tests_seeds_is_on_the_page() -> None:
    named = set(NAMED.findall(PAGE.read_text(encoding="utf-8")))
    absent = [
        f"seeds/{p.name}::{t}"
        for p in sorted((ROOT / "tests/seeds").glob("test_*.py"))
        for t in sorted(_tests(p))
        if (f"seeds/{p.name}", t) not in named
    ]
    assert absent == []


def test_each_seed_text_has_its_section() -> None:
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    headings = [line for line in lines if line.startswith("## ")]
    assert [h[3:6] for h in headings] == ["000", "002", "001", "003", "004"]
