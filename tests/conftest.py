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

import gc

import pytest
from hypothesis import settings

from tests.sizes import examples

settings.register_profile("vedette", deadline=None, max_examples=examples(100))
settings.load_profile("vedette")

#: Python's cycle collector, tuned for a test process (issue 27 item 3): with the default
#: threshold (a collection every 700 new objects) a worker holding the suite's modules, the
#: rulesets' data and hypothesis's state spent about 7% of its CPU walking the same old
#: objects again; a collection every 50,000 new objects, and everything alive once the tests are
#: collected set aside (``gc.freeze``), keep what each test frees collected without that cost.
#: Reference counting (files, connections closed when dropped) is not affected.
gc.set_threshold(50_000, 20, 100)


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()


#: longest first: the modules holding the suite's longest tests, by what each took in a
#: ``pytest -n 2 --durations=0`` run (issue 27 item 3): the write-load test, one test of a minute
#: on a loaded machine, starts first; the builder's builds, the whole turns on a phone, the Next
#: panel, the docs' sessions, the trust-import exports (found once per run), the boards and the
#: todo games follow; the many short modules fill the end, so the two workers end together
LONG_FIRST = (
    "tests/web/test_serve_writes.py",
    "tests/web/test_web_browser_builder.py",
    "tests/web/test_web_browser_taps.py",
    "tests/web/test_web_browser_next.py",
    "tests/docs/test_docs_commands.py",
    "tests/core/test_trust_import.py",
    "tests/web/test_web_browser_boards.py",
    "tests/core/test_todo_conformance.py",
    "tests/web/test_web_workers.py",
    "tests/web/test_web_browser.py",
    "tests/solo_napoleonic/test_solonap_sequences.py",
    "tests/core/test_core_snapshots.py",
    "tests/web/test_web_browser_keys.py",
    "tests/web/test_web_security.py",
    "tests/napoleon_at_bay/test_nab_todo.py",
    "tests/solitaire_asl/test_asl_todo.py",
    "tests/acceptance/test_accept_2x2.py",
    "tests/two_by_two/test_2x2_offers_memo.py",
    "tests/web/test_web_browser_sequences.py",
    "tests/fuzz/test_fuzz_edges.py",
    "tests/fuzz/test_fuzz.py",
    "tests/core/test_core_conformance.py",
    "tests/web/test_web_browser_overlaps.py",
    "tests/web/test_web_import_long.py",
    "tests/core/test_core_imports.py",
    "tests/core/test_core_cli.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {path: i for i, path in enumerate(LONG_FIRST)}

    def key(item: pytest.Item) -> int:
        return rank.get(item.nodeid.split("::", 1)[0], len(LONG_FIRST))

    items.sort(key=key)  # (stable: each module keeps its own order)
