"""Issue 28, item 4: everything about a ruleset is inside its package. The CLI, the web app and
the simulator name no ruleset: they ask the ruleset (its hooks: hand moves, strength, demo,
scenario editor, game end and result), so a new ruleset edits none of them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from vedette import rules

SRC = Path(rules.__file__).resolve().parents[1]
SHARED = ("cli", "web", "sim")


def named_rulesets(path: Path) -> list[str]:
    """Where ``path`` names a built-in ruleset: an import of its package, or a string that is
    its name or one of its aliases."""
    names = {n: n for n in rules.BUILTIN}
    names.update({a: n for n in rules.BUILTIN for a in rules.aliases(n)})
    out = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        mod = ""
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
        elif isinstance(node, ast.Import):
            mod = " ".join(a.name for a in node.names)
        if any(f"vedette.rules.{n}" in mod for n in rules.BUILTIN):
            out.append(f"{path.name}:{node.lineno}: imports {mod}")
        if isinstance(node, ast.Constant) and node.value in names:
            out.append(f"{path.name}:{node.lineno}: names {node.value!r}")
    return out


@pytest.mark.parametrize("folder", SHARED)
def test_the_shared_code_names_no_ruleset(folder: str) -> None:
    found = [x for p in sorted((SRC / folder).rglob("*.py")) for x in named_rulesets(p)]
    assert found == []


def test_the_scan_finds_a_ruleset_named(tmp_path: Path) -> None:
    p = tmp_path / "x.py"
    p.write_text(
        "from vedette.rules.two_by_two.model import EDGES\nSPEC = {'solonap': 1}\nok = 'nabs'\n"
    )
    assert named_rulesets(p) == [
        "x.py:1: imports vedette.rules.two_by_two.model",
        "x.py:2: names 'solonap'",
    ]


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
    assert spec["board"] in ("hex", "asl", "table") and spec["lists"]
    if rs.hand_move is not None:
        assert rs.hand_move["procedure"] in rs.protocol_procedures()
