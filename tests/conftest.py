"""Settings for the whole suite.

Hypothesis's per-example deadline (200 ms by default) fails a property test on a loaded
machine although the property holds: tests never fail on timing, so no deadline here. A property
without its own number of examples tries ``examples(100)`` (tests/sizes.py: a quarter in the
normal run, all in CI and the long runs).

The order the suite's tests start in: the longest modules first (measured with
``pytest -n 2 --durations=0``), the rest as collected. pytest-xdist hands tests to its workers
in this order, so the long ones run side by side from the start and the many short ones fill
the end, instead of one long test left running on one core while the other waits. A module
moves whole (its module-scoped servers and fixtures are set up once per worker, as before)."""

from __future__ import annotations

import pytest
from hypothesis import settings

from tests.sizes import examples

settings.register_profile("vedette", deadline=None, max_examples=examples(100))
settings.load_profile("vedette")

#: longest first: the modules holding the suite's longest tests, by what each took in a
#: ``pytest -n 2 --durations=0`` run (issue 27 item 3: the write-load test is one test of
#: a minute on a loaded machine, so it starts first; the todo games, the builder's taps, the
#: import scans and the docs' sessions follow)
LONG_FIRST = (
    "tests/web/test_serve_writes.py",
    "tests/core/test_todo_conformance.py",
    "tests/web/test_web_browser_builder.py",
    "tests/core/test_core_imports.py",
    "tests/docs/test_docs_commands.py",
    "tests/core/test_trust_import.py",
    "tests/core/test_core_conformance.py",
    "tests/web/test_web_browser_boards.py",
    "tests/fuzz/test_fuzz_edges.py",
    "tests/web/test_web_import_long.py",
    "tests/web/test_web_browser_next.py",
    "tests/core/test_core_snapshots.py",
    "tests/fuzz/test_fuzz.py",
    "tests/web/test_web_workers.py",
    "tests/two_by_two/test_2x2_todo_stated.py",
    "tests/two_by_two/test_2x2_offers_memo.py",
    "tests/core/test_core_cli.py",
    "tests/web/test_web_browser_taps.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {path: i for i, path in enumerate(LONG_FIRST)}

    def key(item: pytest.Item) -> int:
        return rank.get(item.nodeid.split("::", 1)[0], len(LONG_FIRST))

    items.sort(key=key)  # (stable: each module keeps its own order)
