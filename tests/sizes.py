"""The suite's sizes that a run may scale (issue 27 item 3: ``make test`` in about two minutes on
two cores; CI and the long runs keep the full numbers).

``examples(n)``: the examples a hypothesis property tries, written at the full number ``n``.
The normal run tries a quarter of them (at least 10, or ``n`` if smaller): every strategy still
draws its every kind of value, shrinking still works, and hypothesis's example database replays
any failure it found before. ``VEDETTE_EXAMPLES=1`` (``.ci/run``; also any of the long runs'
``VEDETTE_*_LONG=1``) tries the full ``n``; ``VEDETTE_EXAMPLES=F`` scales by F."""

from __future__ import annotations

import os

_LONG = any(
    os.environ.get(f"VEDETTE_{name}_LONG") == "1"
    for name in ("CONFORMANCE", "TRUST", "FUZZ", "SIM")
)
#: the share of each property's full number of examples the run tries
SCALE = float(os.environ.get("VEDETTE_EXAMPLES") or (1 if _LONG else 0.25))


def examples(n: int) -> int:
    """The examples to try of a property written for ``n``."""
    return max(min(n, 10), round(n * SCALE))


def runs(n: int, least: int) -> int:
    """The games (seeds, rounds) a loop plays of the ``n`` it is written for: the normal run's
    share of them, but at least ``least`` (chosen by each test so that every kind of case it
    covers, such as both dice modes, is still met); ``n`` in CI and the long runs."""
    return max(min(n, least), round(n * SCALE))
