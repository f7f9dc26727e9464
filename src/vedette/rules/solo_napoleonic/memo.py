"""Work the referee would otherwise do again and again (issues 22, 27, 29: ``todo`` judges every
offer by a dry run of its procedure, step after step), remembered without changing any answer.

Two kinds of memo, both exact:

* **per state** (:func:`of_state`): what a judgement computed from one game state, kept with
  that state *object* (compared by identity: states are immutable values, and each action folds
  a new one) and never consulted for another. ``todo`` plans two dozen offers on one state, and
  the engine plans the chosen one again before it rolls: each plan's verdict is remembered for
  the state it judged.
* **by value** (:func:`pure`): pure functions of a few immutable values (the distance between
  two bodies, a table read from the rules data), keyed by those values themselves.

``VEDETTE_SOLONAP_MEMO=0`` (or :func:`set_enabled`) switches every memo off: the old path, which
the tests and ``bench/bench_solonap_todo.py`` compare with this one (the same offers, verdicts
and dice, game after game).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

#: whether the memos are used (the old path when off: every judgement made afresh)
ENABLED = os.environ.get("VEDETTE_SOLONAP_MEMO", "1") not in ("0", "false", "no", "off")

#: states whose memo is kept (the current one, and a few others a caller may come back to)
STATES_KEPT = 8
#: entries of a by-value memo before it is emptied (a bound on memory, not a policy)
MOST = 16_384

_STATES: dict[int, tuple[object, dict[Hashable, Any]]] = {}
#: what a memo's ``get`` gives for a key it does not hold (None may be a kept answer)
_MISSING: Any = object()
_PURE: dict[str, dict[Hashable, Any]] = {}
#: memos kept elsewhere (by identity of units, of data), emptied with these by ``clear``
_OTHERS: list[Callable[[], None]] = []


def enabled() -> bool:
    return ENABLED


def set_enabled(on: bool) -> None:
    """Switch every memo on or off (the old path when off); either way they start empty."""
    global ENABLED
    ENABLED = bool(on)
    clear()


def clear() -> None:
    """Forget everything remembered (a cold start: benches, tests)."""
    _STATES.clear()
    _PURE.clear()
    _BY_ID.clear()
    _PAIRS.clear()
    for f in _OTHERS:
        f()


def also_clear(fn: Callable[[], None]) -> None:
    """Register another module's cache to be emptied by :func:`clear`."""
    _OTHERS.append(fn)


def of_state(state: object) -> dict[Hashable, Any] | None:
    """The memo of this very state object (None when memos are off). The entry holds the
    state, so its id is not reused while the memo is kept."""
    if not ENABLED:
        return None
    hit = _STATES.get(id(state))
    if hit is not None and hit[0] is state:
        return hit[1]
    if len(_STATES) >= STATES_KEPT:
        del _STATES[next(iter(_STATES))]  # the oldest
    memo: dict[Hashable, Any] = {}
    _STATES[id(state)] = (state, memo)
    return memo


def per_state(state: object, key: Hashable, compute: Callable[[], T]) -> T:
    """``compute()``, once per state object and key."""
    memo = of_state(state)
    if memo is None:
        return compute()
    out = memo.get(key, _MISSING)  # (no KeyError raised and caught: most states are new)
    if out is _MISSING:
        out = memo[key] = compute()
    return out  # type: ignore[no-any-return]


def pure(name: str, key: Hashable, compute: Callable[[], T]) -> T:
    """``compute()``, a pure function of ``key`` (immutable values compared by value)."""
    if not ENABLED:
        return compute()
    memo = _PURE.get(name)
    if memo is None:
        memo = _PURE[name] = {}
    out = memo.get(key, _MISSING)
    if out is not _MISSING:
        return out  # type: ignore[no-any-return]
    out = compute()
    if len(memo) >= MOST:
        memo.clear()
    memo[key] = out
    return out


_BY_ID: dict[str, dict[int, tuple[object, Any]]] = {}


def by_identity(name: str, obj: object, compute: Callable[[], T]) -> T:
    """``compute()``, a pure function of ``obj`` (a part of the rules data, never changed while
    a game is played), once per object: compared by identity, the entry holding it alive."""
    if not ENABLED:
        return compute()
    memo = _BY_ID.get(name)
    if memo is None:
        memo = _BY_ID[name] = {}
    hit = memo.get(id(obj))
    if hit is not None and hit[0] is obj:
        return hit[1]  # type: ignore[no-any-return]
    out = compute()
    if len(memo) >= 256:
        memo.clear()
    memo[id(obj)] = (obj, out)
    return out


_PAIRS: dict[str, dict[tuple[int, int], tuple[object, object, Any]]] = {}


def pair(name: str, a: object, b: object, compute: Callable[[], T]) -> T:
    """``compute()``, a pure function of two immutable objects, once per pair of objects
    (compared by identity, the entry holding them alive): e.g. the distance between two bodies,
    each the one object :func:`pure` keeps for its values."""
    if not ENABLED:
        return compute()
    memo = _PAIRS.get(name)
    if memo is None:
        memo = _PAIRS[name] = {}
    key = (id(a), id(b))
    hit = memo.get(key)
    if hit is not None and hit[0] is a and hit[1] is b:
        return hit[2]  # type: ignore[no-any-return]
    out = compute()
    if len(memo) >= MOST:
        memo.clear()
    memo[key] = (a, b, out)
    return out
