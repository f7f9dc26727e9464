"""The cache of the code dataclasses compile for vedette (start-up time, issue 26 item 8):
what runs is exactly what ``compile`` gives, a bad file is ignored, other modules are left
alone, and a CLI step answers the same with it and without it."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

import vedette
from vedette import _dccache

pytestmark = pytest.mark.skipif(
    not hasattr(dataclasses, "_create_fn"), reason="Python 3.13 builds a class in one exec"
)

CLASS = textwrap.dedent(
    """
    from dataclasses import dataclass, field

    @dataclass(frozen=True, slots=True)
    class Unit:
        id: str
        strength: int = 3
        marks: tuple = field(default=())
    """
)


def make(module: str) -> type:
    """The class, defined in a module of that name (as a module's import would)."""
    mod = types.ModuleType(module)
    sys.modules[module] = mod
    try:
        exec(CLASS, mod.__dict__)
    finally:
        del sys.modules[module]
    return mod.Unit  # type: ignore[no-any-return]


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(_dccache, "_DIR", tmp_path)
    monkeypatch.setattr(_dccache, "_codes", {})
    monkeypatch.setattr(_dccache, "_added", set())
    return tmp_path


def test_the_cached_code_is_what_compile_gives() -> None:
    import vedette.rules.two_by_two.events  # noqa: F401  (a module of many dataclasses)

    codes = _dccache._codes["vedette.rules.two_by_two.events"]
    assert len(codes) >= 30
    for text, code in codes.items():
        assert code == compile(text, "<string>", "exec"), text


def test_a_class_made_from_the_file_behaves_as_one_compiled(cache_dir: Path) -> None:
    assert dataclasses.exec is _dccache._exec  # type: ignore[attr-defined]
    first = make("vedette.cachetest")
    assert _dccache._added == {"vedette.cachetest"}
    _dccache.save()
    (path,) = cache_dir.iterdir()
    assert path.name == f"vedette.cachetest.dataclasses.{sys.implementation.cache_tag}.bin"
    _dccache._codes.clear()
    again = make("vedette.cachetest")
    assert not _dccache._added  # read back, nothing compiled
    a, b = first("F1", 2), again("F1", 2)
    assert repr(a) == repr(b) == "Unit(id='F1', strength=2, marks=())"
    assert a.__eq__(a) and b == again("F1", 2) and hash(b) == hash(again("F1", 2))
    with pytest.raises(dataclasses.FrozenInstanceError):
        b.strength = 4  # type: ignore[misc]


def test_a_corrupt_file_is_ignored_and_replaced(cache_dir: Path) -> None:
    bad = cache_dir / f"vedette.cachetest.dataclasses.{sys.implementation.cache_tag}.bin"
    bad.write_bytes(b"\x00not marshal at all")
    u = make("vedette.cachetest")("A1")
    assert u.strength == 3
    _dccache.save()
    _dccache._codes.clear()
    make("vedette.cachetest")
    assert not _dccache._added


def test_other_modules_are_compiled_as_before(cache_dir: Path) -> None:
    make("someone_else")
    assert not _dccache._added and "someone_else" not in _dccache._codes
    _dccache.save()
    assert list(cache_dir.iterdir()) == []


def test_a_package_that_cannot_be_written_keeps_no_cache(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (cache_dir / "a-file").write_text("")
    monkeypatch.setattr(_dccache, "_DIR", cache_dir / "a-file" / "__pycache__")
    make("vedette.cachetest")
    _dccache.save()  # no error: the directory cannot be made
    assert [p.name for p in cache_dir.iterdir()] == ["a-file"]


def test_a_cli_step_answers_the_same_without_the_cache(tmp_path: Path) -> None:
    db = str(tmp_path / "g.sqlite3")
    base = [sys.executable, "-m", "vedette", "--db", db]
    env = {**os.environ, "PYTHONPATH": str(Path(vedette.__file__).parents[1])}
    subprocess.run([*base, "nab", "new", "cachetest", "--seed", "3"], check=True, env=env)
    outs = []
    for off in ("", "1"):
        run = subprocess.run(
            [*base, "nab", "todo"],
            env={**env, "VEDETTE_NO_DCCACHE": off},
            capture_output=True,
            text=True,
            check=True,
        )
        outs.append(run.stdout)
    assert outs[0] == outs[1] and "vedette nab" in outs[0]


def test_rule_data_read_from_its_cache_is_what_the_file_says(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``package_toml`` keeps what a shipped TOML file gives (keyed by the file's whole
    text): read back, it is what parsing gives; a changed file is parsed again, a damaged
    cache file is passed over."""
    import tomllib

    from vedette import data

    pkg, name = "vedette.rules.napoleon_at_bay.data", "rules.toml"
    want = tomllib.loads(data._package_text(pkg, name))
    assert data.package_toml(pkg, name) == want  # parsed, then kept
    [kept] = list(cache_dir.iterdir())
    assert data.package_toml(pkg, name) == want  # read back
    monkeypatch.setattr(data, "load_toml_text", lambda *_: pytest.fail("parsed again"))
    assert data.package_toml(pkg, name) == want
    monkeypatch.undo()
    monkeypatch.setattr(_dccache, "_DIR", cache_dir)
    changed = "# a house edit\n" + data._package_text(pkg, name)
    monkeypatch.setattr(data, "_package_text", lambda *_: changed)
    assert data.package_toml(pkg, name) == want  # the same values, parsed from the new text
    assert _dccache.read(str(kept))[0] == changed
    kept.write_bytes(b"not marshal")
    assert data.package_toml(pkg, name) == want
