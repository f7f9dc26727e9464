"""A small persistent mapping for rulesets' indexed state (issue 16).

A state folded from another shares everything but what changed: ``m.set(k, v)`` returns a new
map that copies one of 64 buckets (and the list of them), not every entry, so an event moving
one piece among thousands costs the same as among ten. Keys keep their insertion order when
``ordered`` (a ruleset lists its pieces in scenario order); an unordered map iterates in bucket
order, for indexes nobody lists (a hex's occupants). Equal to any mapping with the same items.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

_N = 64


class PMap(Mapping[K, V], Generic[K, V]):
    __slots__ = ("_buckets", "_len", "_mask", "_order", "_rank")

    _buckets: tuple[dict[K, V], ...]
    _order: tuple[K, ...] | None
    _len: int
    _rank: dict[K, int] | None
    _mask: int

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] = (), ordered: bool = True):
        pairs = list(items.items() if isinstance(items, Mapping) else items)
        n = 1  # buckets: about 16 entries each, at most 64 (a small map is one dict)
        while n < _N and n * 16 < len(pairs):
            n *= 2
        mask = n - 1
        buckets: list[dict[K, V]] = [{} for _ in range(n)]
        order: dict[K, None] = {}
        for k, v in pairs:
            buckets[hash(k) & mask][k] = v
            order[k] = None
        self._mask = mask
        self._buckets = tuple(buckets)
        self._order = tuple(order) if ordered else None
        self._len = len(order)
        self._rank = {k: i for i, k in enumerate(order)} if ordered else None

    @classmethod
    def _make(
        cls,
        buckets: tuple[dict[K, V], ...],
        order: tuple[K, ...] | None,
        n: int,
        rank: dict[K, int] | None = None,
    ) -> PMap[K, V]:
        m: PMap[K, V] = cls.__new__(cls)
        m._buckets, m._order, m._len, m._rank = buckets, order, n, rank
        m._mask = len(buckets) - 1
        return m

    def rank(self, k: K) -> int:
        """The place of ``k`` in the insertion order (ordered maps)."""
        if self._rank is None:  # (after a discard)
            self._rank = {x: i for i, x in enumerate(self._order or ())}
        return self._rank[k]

    @property
    def ordered(self) -> bool:
        return self._order is not None

    def __getitem__(self, k: K) -> V:
        return self._buckets[hash(k) & self._mask][k]

    def __contains__(self, k: object) -> bool:
        return k in self._buckets[hash(k) & self._mask]

    def get(self, k: K, default: Any = None) -> Any:
        return self._buckets[hash(k) & self._mask].get(k, default)

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[K]:
        if self._order is not None:
            return iter(self._order)
        return (k for b in self._buckets for k in b)

    def values(self) -> list[V]:  # type: ignore[override]
        """The values in order (a list: the map never changes)."""
        if self._order is None:
            return [v for b in self._buckets for v in b.values()]
        bs, m = self._buckets, self._mask
        if not m:  # one bucket: its dict keeps the insertion order too (set, discard, build)
            return list(bs[0].values())
        return [bs[hash(k) & m][k] for k in self._order]

    def items(self) -> list[tuple[K, V]]:  # type: ignore[override]
        """The (key, value) pairs in order (a list: the map never changes)."""
        if self._order is None:
            return [kv for b in self._buckets for kv in b.items()]
        bs, m = self._buckets, self._mask
        return [(k, bs[hash(k) & m][k]) for k in self._order]

    def __repr__(self) -> str:
        return repr(dict(self.items()))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Mapping) or len(other) != self._len:
            return False
        if isinstance(other, PMap) and other._mask == self._mask:
            return all(a is b or a == b for a, b in zip(self._buckets, other._buckets, strict=True))
        return dict(self.items()) == dict(other.items())

    __hash__ = None  # type: ignore[assignment]

    # -- persistent updates -------------------------------------------------------------
    def set(self, k: K, v: V) -> PMap[K, V]:
        """A map with ``k`` bound to ``v`` (a new key goes last)."""
        i = hash(k) & self._mask
        bucket = dict(self._buckets[i])
        new = k not in bucket
        bucket[k] = v
        buckets = list(self._buckets)
        buckets[i] = bucket
        order = self._order
        if new and order is not None:
            return PMap._make(tuple(buckets), (*order, k), self._len + 1)
        return PMap._make(tuple(buckets), order, self._len + new, self._rank)

    def update(self, pairs: Iterable[tuple[K, V]]) -> PMap[K, V]:
        out = self
        for k, v in pairs:
            out = out.set(k, v)
        return out

    def discard(self, k: K) -> PMap[K, V]:
        """A map without ``k`` (this one if it has no ``k``)."""
        i = hash(k) & self._mask
        if k not in self._buckets[i]:
            return self
        bucket = dict(self._buckets[i])
        del bucket[k]
        buckets = list(self._buckets)
        buckets[i] = bucket
        order = self._order
        if order is not None:
            order = tuple(x for x in order if x != k)
        return PMap._make(tuple(buckets), order, self._len - 1)
