"""Issue 28, item 6: no import cycle among vedette's modules, and no import of vedette's own
modules inside a function but for start-up time (a CLI step loads only what it needs), each of
those saying so in a one-line comment (``# start-up: ...``) on the import or just above its
group of imports. Read with ``ast`` from the source files, nothing imported."""

from __future__ import annotations

import ast
from pathlib import Path

import vedette
from tests import sources

SRC = Path(vedette.__file__).resolve().parent
MARK = "start-up"

#: in-function imports left for now, each ``(file, statement)``: none (the last, rules/base.py's
#: own and Kuryakin's flow/cards <-> actions/fire/morale cycle, are gone). The test fails when one
#: is found that is not here, or one here is gone, so the list only shrinks.
LEFT: set[tuple[str, str]] = set()


def modules(root: Path = SRC) -> dict[str, tuple[Path, bool]]:
    """Every module of the package under ``root``: dotted name -> (file, is a package)."""
    out = {}
    for p in sorted(root.rglob("*.py")):
        parts = list(p.relative_to(root.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        out[".".join(parts[:-1] if package else parts)] = (p, package)
    return out


def imported(
    name: str, package: bool, node: ast.Import | ast.ImportFrom, known: dict[str, object]
) -> list[str]:
    """The package's modules an import statement of module ``name`` loads (``from P import m``
    of a submodule ``m`` loads ``P.m``; of anything else, ``P``)."""
    top = name.split(".")[0]
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.split(".")[0] == top and a.name in known]
    mod = node.module or ""
    if node.level:
        base = name.split(".") if package else name.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        mod = ".".join([*base, *([mod] if mod else [])])
    if mod.split(".")[0] != top:
        return []
    subs = [f"{mod}.{a.name}" for a in node.names if f"{mod}.{a.name}" in known]
    return subs + ([mod] if len(subs) < len(node.names) and mod in known else [])


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def parents(name: str, target: str, known: dict[str, object]) -> list[str]:
    """The packages Python runs first to import ``target`` from module ``name``: ``target``'s
    enclosing packages that are not ``name``'s own (those are already being imported), e.g.
    ``vedette.engine`` for ``vedette.rules.base`` importing ``vedette.engine.snapshot``."""
    parts = target.split(".")
    mine = name.split(".")
    return [
        p
        for p in (".".join(parts[:k]) for k in range(2, len(parts)))
        if p in known and mine[: p.count(".") + 1] != p.split(".")
    ]


def top_level(name: str, path: Path, package: bool, known: dict[str, object]) -> set[str]:
    """The package's modules ``name`` imports when it is imported (not in functions, not under
    ``if TYPE_CHECKING``), with the packages those imports run first (their ``__init__``)."""
    out: set[str] = set()

    def walk(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                for t in imported(name, package, node, known):
                    out.update([t, *parents(name, t, known)])
            elif isinstance(node, ast.If):
                if not _type_checking(node.test):
                    walk(node.body)
                walk(node.orelse)
            elif isinstance(node, ast.Try):
                walk(node.body)
                walk(node.orelse)
                walk(node.finalbody)
                for h in node.handlers:
                    walk(h.body)

    walk(sources.tree(path).body)
    return out - {name}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def unexplained(name: str, path: Path, package: bool, known: dict[str, object]) -> list[str]:
    """Imports of the package's own modules inside a function without a ``start-up`` comment
    on the line or above its group of imports (``file:line: statement``)."""
    text = sources.text(path)
    lines = text.splitlines()
    out = []

    def explained(node: ast.stmt) -> bool:
        end = node.end_lineno or node.lineno
        if any(MARK in line for line in lines[node.lineno - 1 : end]):
            return True
        i = node.lineno - 2  # up through the comments and imports just above
        while i >= 0:
            line = lines[i].strip()
            if MARK in line and (line.startswith(("#", "import ", "from "))):
                return True
            if not line.startswith(("#", "import ", "from ")):
                return False
            i -= 1
        return False

    def visit(node: ast.AST, inside: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if (
                inside
                and isinstance(child, ast.Import | ast.ImportFrom)
                and imported(name, package, child, known)
                and not explained(child)
            ):
                out.append(f"{path.name}:{child.lineno}: {lines[child.lineno - 1].strip()}")
            func = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            visit(child, inside or func)

    visit(sources.tree(path), False)
    return out


def test_no_import_cycle_among_the_packages_modules() -> None:
    known = modules()
    graph = {n: top_level(n, p, pkg, known) for n, (p, pkg) in known.items()}
    assert cycles(graph) == []


def test_every_import_inside_a_function_is_there_for_start_up_time() -> None:
    known = modules()
    found = [x for n, (p, pkg) in known.items() for x in unexplained(n, p, pkg, known)]
    seen = {(x.split(":")[0], x.split(": ", 1)[1]) for x in found}
    assert [x for x in found if (x.split(":")[0], x.split(": ", 1)[1]) not in LEFT] == []
    assert sorted(LEFT - seen) == []  # gone: take it off the list


def test_the_scans_find_a_cycle_and_an_unexplained_import(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\n\ndef f():\n    from pkg import c\n")
    (pkg / "b.py").write_text("from pkg.a import f\n\ndef g():\n    import json\n")
    (pkg / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\n\n"
        "def h():\n    # start-up: b is heavy\n    from pkg import b\n    from pkg.a import f\n"
    )
    sub = pkg / "sub"  # importing pkg.sub.x runs pkg/sub/__init__.py first, which imports pkg.d
    sub.mkdir()
    (sub / "__init__.py").write_text("from pkg.d import k\n")
    (sub / "x.py").write_text("from pkg.sub import y\n")
    (sub / "y.py").write_text("")
    (pkg / "d.py").write_text("from pkg.sub.x import y\n\ndef k():\n    pass\n")
    known = modules(pkg)
    graph = {n: top_level(n, p, k, known) for n, (p, k) in known.items()}
    assert cycles(graph) == [["pkg.a", "pkg.b"], ["pkg.d", "pkg.sub"]]
    found = [x for n, (p, k) in known.items() for x in unexplained(n, p, k, known)]
    assert found == ["a.py:4: from pkg import c"]
