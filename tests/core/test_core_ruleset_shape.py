"""Issue 28, item 4: everything about a ruleset is inside its package. The CLI, the web app and
the simulator name no ruleset: they ask the ruleset (its hooks: hand moves, strength, demo,
scenario editor, game end and result), so a new ruleset edits none of them."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests import sources
from vedette import rules

SRC = Path(rules.__file__).resolve().parents[1]
SHARED = ("cli", "web", "sim")


def ruleset_words() -> re.Pattern[str]:
    """A built-in ruleset's name, alias or title as a word (``nab``, ``2 by 2``, ``Kuryakin``;
    not ``nab-board``, a CSS class a ruleset's own markup may use)."""
    words = {*rules.BUILTIN, *(a for n in rules.BUILTIN for a in rules.aliases(n))}
    words |= {rules.get(n).title for n in rules.BUILTIN}
    alt = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])({alt})(?![\w-])", re.IGNORECASE)


def named_rulesets(path: Path) -> list[str]:
    """Where ``path`` names a built-in ruleset: an import of its package, or a string shown to
    a user (a help text, a message, a template's text) that names it or one of its aliases;
    docstrings and comments, written for developers, may name one as an example."""
    words = ruleset_words()
    if path.suffix != ".py":
        return [
            f"{path.name}:{i}: names {m.group(0)!r}"
            for i, line in enumerate(path.read_text().splitlines(), 1)
            for m in words.finditer(line)
        ]
    tree = sources.tree(path)
    docs = {
        id(n.body[0].value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and n.body
        and isinstance(n.body[0], ast.Expr)
        and isinstance(n.body[0].value, ast.Constant)
    }
    out = []
    for node in ast.walk(tree):
        mod = ""
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
        elif isinstance(node, ast.Import):
            mod = " ".join(a.name for a in node.names)
        if any(f"vedette.rules.{n}" in mod for n in rules.BUILTIN):
            out.append(f"{path.name}:{node.lineno}: imports {mod}")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            out += [
                f"{path.name}:{node.lineno}: names {m.group(0)!r}"
                for m in words.finditer(node.value)
            ]
    return sorted(out, key=lambda x: int(x.split(":")[1]))  # (ast.walk goes breadth first)


@pytest.mark.parametrize("folder", SHARED)
def test_the_shared_code_names_no_ruleset(folder: str) -> None:
    files = [*(SRC / folder).rglob("*.py"), *(SRC / folder).rglob("templates/*.html")]
    found = [x for p in sorted(files) for x in named_rulesets(p)]
    assert found == []


def test_the_scan_finds_a_ruleset_named(tmp_path: Path) -> None:
    p = tmp_path / "x.py"
    p.write_text(
        '"""A docstring may say: vedette nab fix."""\n'
        "from vedette.rules.two_by_two.model import EDGES\nSPEC = {'solonap': 1}\nok = 'nabs'\n"
        "HELP = 'policies: cards (Kuryakin)'  # a comment may name asl\nCSS = 'nab-board'\n"
    )
    assert named_rulesets(p) == [
        "x.py:2: imports vedette.rules.two_by_two.model",
        "x.py:3: names 'solonap'",
        "x.py:5: names 'Kuryakin'",
    ]
    page = tmp_path / "x.html"
    page.write_text('<p class="asl-grid">run <code>vedette simulate 2x2</code></p>\n')
    assert named_rulesets(page) == ["x.html:1: names '2x2'"]


@pytest.mark.parametrize("name", rules.BUILTIN)
def test_each_ruleset_answers_the_hooks_the_shared_code_asks(name: str) -> None:
    rs = rules.get(name)
    state = rs.initial_state(rs.scenario("sample"), rs.validate_options({}, "options"))
    strength = rs.strength(rs.state_json(state))
    assert set(strength) == set(rs.sides(state)) and all(v > 0 for v in strength.values())
    assert rs.strength_unit
    ed = rs.editor()
    assert ed is not None and ed.board in ("hex", "grid", "table")
    spec = ed.spec(rs.data())
    assert spec["board"] in ("hex", "geomorphic", "table") and spec["lists"]
    if rs.hand_move is not None:
        assert rs.hand_move["procedure"] in rs.protocol_procedures()
