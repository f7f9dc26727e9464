"""What an installed vedette relies on: every distribution it imports is declared directly in
pyproject.toml (not left to arrive with another one), the version is written in one place, and
``python -m vedette`` is the ``vedette`` command."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import vedette
from tests import sources

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

# Declared runtime dependencies vedette never imports itself, and what uses them.
USED_INDIRECTLY = {
    "httptools": "uvicorn's HTTP parser (chosen by uvicorn when installed)",
    "uvloop": "uvicorn's event loop (chosen by uvicorn when installed)",
    "jinja2": "the web app's templates, through starlette's Jinja2Templates",
    "python-multipart": "the web app's form bodies and uploads, parsed by starlette",
}

#: the standard library's builtin modules under another supported Python's name
#: (vedette.hashes: SHA-256 is ``_sha2`` from 3.12, ``_sha256`` before)
OTHER_PYTHONS = {"_sha2", "_sha256"}


def _name(requirement: str) -> str:
    """The normalised distribution name of a requirement string."""
    match = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert match, requirement
    return re.sub(r"[-_.]+", "-", match.group(0)).lower()


def imported_distributions() -> dict[str, set[str]]:
    """Each third-party distribution src/vedette imports, with the files importing it."""
    dists = packages_distributions()
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "src/vedette").rglob("*.py")):
        for node in ast.walk(sources.tree(path)):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                top = module.split(".")[0]
                if top in sys.stdlib_module_names or top in OTHER_PYTHONS or top == "vedette":
                    continue
                assert top in dists, f"{path.relative_to(ROOT)} imports {top}: not installed"
                for dist in dists[top]:
                    found.setdefault(_name(dist), set()).add(str(path.relative_to(ROOT)))
    return found


def test_every_imported_distribution_is_declared_directly() -> None:
    project = PYPROJECT["project"]
    runtime = {_name(r) for r in project["dependencies"]}
    extras = {_name(r) for reqs in project["optional-dependencies"].values() for r in reqs}
    imported = imported_distributions()
    undeclared = {d: sorted(files) for d, files in imported.items() if d not in runtime | extras}
    assert not undeclared, f"imported but not declared in pyproject.toml: {undeclared}"
    unused = runtime - set(imported) - set(USED_INDIRECTLY)
    assert not unused, f"declared but never imported (say what uses them): {sorted(unused)}"
    assert set(USED_INDIRECTLY) <= runtime


def test_the_development_tools_are_not_runtime_dependencies() -> None:
    runtime = {_name(r) for r in PYPROJECT["project"]["dependencies"]}
    dev = {_name(r) for r in PYPROJECT["dependency-groups"]["dev"]}
    assert {"pytest", "pytest-xdist", "playwright", "mypy", "ruff"} <= dev
    assert not runtime & dev - {"numpy"}


def test_the_version_is_written_once_and_python_m_vedette_prints_it() -> None:
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert "version" not in PYPROJECT["project"]
    assert PYPROJECT["tool"]["hatch"]["version"]["path"] == "src/vedette/__init__.py"
    assert re.fullmatch(r"\d+\.\d+\.\d+", vedette.__version__)
    done = subprocess.run(
        [sys.executable, "-m", "vedette", "--version"], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout) == (0, f"vedette {vedette.__version__}\n")
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## {vedette.__version__}" in changelog
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
