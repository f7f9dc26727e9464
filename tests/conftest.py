"""Settings for the whole suite.

Hypothesis's per-example deadline (200 ms by default) fails a property test on a loaded
machine although the property holds: tests never fail on timing, so no deadline here.

The order the suite's tests start in: the longest modules first (measured with
``pytest -n 2 --durations=0``), the rest as collected. pytest-xdist hands tests to its workers
in this order, so the long ones run side by side from the start and the many short ones fill
the end, instead of one long test left running on one core while the other waits. A module
moves whole (its module-scoped servers and fixtures are set up once per worker, as before)."""

from __future__ import annotations

import pytest
from hypothesis import settings

settings.register_profile("vedette", deadline=None)
settings.load_profile("vedette")

#: longest first (seconds a quiet 2-core machine spends on each, about)
LONG_FIRST = (
    "tests/core/test_todo_conformance.py",
    "tests/web/test_web_browser_builder.py",
    "tests/web/test_serve_writes.py",
    "tests/docs/test_docs_commands.py",
    "tests/core/test_trust_import.py",
    "tests/core/test_core_snapshots.py",
    "tests/fuzz/test_fuzz.py",
    "tests/two_by_two/test_2x2_todo_stated.py",
    "tests/core/test_core_stored_decode.py",
    "tests/web/test_web_browser_next.py",
    "tests/fuzz/test_fuzz_edges.py",
    "tests/solo_napoleonic/test_solonap_sequences.py",
    "tests/web/test_web_import_long.py",
    "tests/core/test_trust_store.py",
    "tests/web/test_web_browser_boards.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {path: i for i, path in enumerate(LONG_FIRST)}

    def key(item: pytest.Item) -> int:
        return rank.get(item.nodeid.split("::", 1)[0], len(LONG_FIRST))

    items.sort(key=key)  # (stable: each module keeps its own order)
