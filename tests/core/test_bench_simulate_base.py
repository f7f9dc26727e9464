"""bench/bench_simulate.py ``--base REF`` for a baseline newer than c1ed18f (session 17, helper
N): the rule fixes made since c1ed18f (``BASE_FIXES``) were patched into any baseline whose
text matched, so one that had a fix already (in the code of its day) got it a second time, and
a patch written over another patch's text broke it (``--base 53af236``: "UnboundLocalError:
cannot access local variable '_c'"). A baseline that has the commit of a fix is now left as it
is, and both the oldest and a later baseline play the same Kuryakin game as this tree."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "bench_simulate", ROOT / "bench" / "bench_simulate.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


def _git_has(commit: str) -> bool:
    try:
        git = ["git", "-C", str(ROOT), "cat-file", "-e", f"{commit}^{{commit}}"]
        return subprocess.run(git, capture_output=True).returncode == 0
    except OSError:
        return False


needs_history = pytest.mark.skipif(
    not _git_has("c1ed18f") or not _git_has("53af236") or shutil.which("patch") is None,
    reason="the bench's baselines need the project's git history (and patch)",
)


@needs_history
def test_every_fix_names_a_commit_of_this_tree() -> None:
    for key, rel, was, fixed, why in BENCH.BASE_FIXES:
        commit = key.split(":")[0]
        assert BENCH.has_commit("HEAD", commit), (key, why)
        assert was != fixed and (rel.startswith("vedette/rules/") or rel in BENCH.RULESET_OF), why


@needs_history
@pytest.mark.parametrize("ref", ["c1ed18f", "53af236"])
def test_a_baseline_plays_this_tree_s_kuryakin_game(ref: str, tmp_path: Path) -> None:
    """The baseline (given the fixes it lacks, and only those: K71-K73 as their commits' own
    diff on 53af236's code) runs and plays the same game of Kuryakin's sample as this tree,
    and the bench names no fix it could not give (``LACKING``)."""
    lacking = getattr(BENCH, "LACKING", {})
    lacking.clear()
    base = BENCH.baseline(ref, tmp_path)
    assert base is not None
    assert not lacking, lacking
    mine = BENCH._run(BENCH.PLAYER, ROOT / "src", "solo_napoleonic", 1)["rows"]
    theirs = BENCH._run(BENCH.PLAYER, base, "solo_napoleonic", 1)["rows"]
    assert [BENCH._game(r) for r in theirs] == [BENCH._game(r) for r in mine]
