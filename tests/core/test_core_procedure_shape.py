"""One way to declare a procedure (issue 28, item 1): every procedure of every ruleset (and the
toy rulesets of the tests) is a ``protocol.Procedure`` whose request class declares, once, its
name, help and rule (``@procedure``); no ruleset writes its own registration helper; the legacy
layer is gone and ``protocol`` does not import ``base`` (the cycle they made)."""

from __future__ import annotations

import ast
import importlib
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests import sources
from vedette import rules
from vedette.errors import BadRequest
from vedette.referee import Outcome, Procedure, arg, declared, procedure, procedure_table
from vedette.rules import base, protocol

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "src/vedette/rules"
TOYS = ("examples.toy", "tests.toy_typed", "tests.typed_toy", "tests.flow_toy")


def _every_ruleset() -> list[Any]:
    out = [rules.get(n) for n in rules.BUILTIN]
    out += [importlib.import_module(m).RULESET for m in TOYS]
    return out


@pytest.mark.parametrize("rs", _every_ruleset(), ids=lambda rs: rs.name)
def test_every_procedure_is_declared_by_its_request_class(rs: Any) -> None:
    procs = {**rs.protocol_procedures(), **rs.sequences()}
    assert procs
    for name, p in procs.items():
        assert isinstance(p, Procedure), f"{rs.name} {name}: {type(p).__name__}"
        d = declared(p.request)
        assert (d.name, d.help, d.rule, d.query) == (name, p.help, p.rule, p.query)
        assert p.help, f"{rs.name} {name}: no help (the request's docstring)"
        assert p.spec.name == name  # the CLI, the web form and the JSON schema say the same


def _ruleset_modules() -> list[Path]:
    return sorted([*RULES.glob("*/*.py"), *(ROOT / "examples").glob("*/*.py")])


def test_no_ruleset_writes_its_own_way_to_register_a_procedure() -> None:
    """A ruleset module neither subclasses ``Procedure`` nor has a function that returns one,
    nor names a procedure apart from its request class (``procedure_name``); every procedure
    it makes is an argument of ``procedure_table``."""
    problems = []
    for path in _ruleset_modules():
        tree = sources.tree(path)
        where = path.relative_to(ROOT)
        in_table: set[int] = set()
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "procedure_table"
            ):
                in_table |= {id(a) for a in node.args}
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(
                "Procedure" in ast.unparse(b) for b in node.bases
            ):
                problems.append(f"{where}: class {node.name} subclasses Procedure")
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and (
                node.returns is not None and "Procedure" in ast.unparse(node.returns)
            ):
                problems.append(f"{where}: {node.name}() returns a Procedure")
            if isinstance(node, ast.Name | ast.Attribute) and "procedure_name" in ast.unparse(node):
                problems.append(f"{where}:{node.lineno}: procedure_name")
            made = isinstance(node, ast.Call) and re.fullmatch(
                r"Procedure(\.nodice)?|sequence", ast.unparse(node.func)
            )
            if made and id(node) not in in_table:
                problems.append(f"{where}:{node.lineno}: a procedure made outside the table")
    assert problems == []


def test_the_legacy_layer_is_gone_and_protocol_does_not_import_base() -> None:
    for name in ("Procedure", "Param", "Request"):
        assert not hasattr(base, name), name
    for name in ("LegacyProcedure", "as_protocol", "AnyProcedure"):
        assert not hasattr(protocol, name), name
    tree = ast.parse((RULES / "protocol.py").read_text(encoding="utf-8"))
    imported = [
        n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module is not None
    ]
    assert "vedette.rules.base" not in imported


def test_a_request_without_its_help_is_refused_where_it_is_declared() -> None:
    with pytest.raises(TypeError, match="its docstring is the help"):

        @procedure("bare", rule="Toy 9")
        @dataclass(frozen=True, slots=True)
        class Bare:
            unit: str = arg("a unit")


def test_the_help_is_the_docstrings_first_paragraph_in_one_line() -> None:
    @procedure("long", rule="Toy 9", query=True)
    @dataclass(frozen=True, slots=True)
    class Long:
        """the first line of the help
        and its second line

        A note for developers, not shown."""

    p = Procedure.nodice(Long, lambda s, r: Outcome(message="ok"))
    assert (p.name, p.help, p.rule, p.query) == (
        "long",
        "the first line of the help and its second line",
        "Toy 9",
        True,
    )
    assert p.run(None, {}, None).message == "ok"  # type: ignore[arg-type]


def test_two_procedures_of_one_name_are_refused() -> None:
    @procedure("same")
    @dataclass(frozen=True, slots=True)
    class A:
        """one"""

    @procedure("same")
    @dataclass(frozen=True, slots=True)
    class B:
        """two"""

    with pytest.raises(ValueError, match="two procedures are named 'same'"):
        procedure_table(
            Procedure.nodice(A, lambda s, r: Outcome()), Procedure.nodice(B, lambda s, r: Outcome())
        )


def test_omit_none_logs_only_the_fields_given() -> None:
    @procedure("stated", omit_none=True)
    @dataclass(frozen=True, slots=True)
    class Stated:
        """state a fact"""

        unit: str = arg("a unit")
        range_: int | None = arg("measured when left out", default=None)

    p = Procedure.nodice(Stated, lambda s, r: Outcome())
    assert p.request_json(p.parse({"unit": "A"})) == {"unit": "A"}
    assert p.request_json(p.parse({"unit": "A", "range": 3})) == {"unit": "A", "range": 3}
    with pytest.raises(BadRequest, match="missing 'unit'"):
        p.parse({})


def test_the_architecture_pages_excerpts_are_the_examples_own_lines() -> None:
    """Each Python block of docs/architecture.md is a run of lines of the file it names (its
    first line, a comment ``# examples/toy/FILE``)."""
    doc = (ROOT / "docs/architecture.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", doc, re.S)
    assert blocks
    for block in blocks:
        head, _, text = textwrap.dedent(block).partition("\n")
        source = (ROOT / head.removeprefix("# ").strip()).read_text(encoding="utf-8")
        lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
        file_lines = [ln.strip() for ln in source.splitlines() if ln.strip()]
        n = len(lines)
        assert any(file_lines[i : i + n] == lines for i in range(len(file_lines))), block
