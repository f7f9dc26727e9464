"""The persistent map behind indexed ruleset state: every update leaves the old map as it was
and the new one equal to a dict updated the same way (property test)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.sizes import examples
from vedette.rules.pmap import PMap

ops = st.lists(
    st.tuples(st.sampled_from(["set", "discard"]), st.integers(0, 300), st.integers()),
    max_size=200,
)


@settings(max_examples=examples(60), deadline=None)
@given(st.dictionaries(st.integers(0, 300), st.integers(), max_size=120), ops, st.booleans())
def test_updates_match_a_dict_and_never_change_the_old_map(
    start: dict[int, int], steps: list[tuple[str, int, int]], ordered: bool
) -> None:
    m = PMap(start, ordered=ordered)
    d = dict(start)
    for op, k, v in steps:
        before, snapshot = m, dict(m.items())
        if op == "set":
            m = m.set(k, v)
            d[k] = v
        else:
            m = m.discard(k)
            d.pop(k, None)
        assert dict(before.items()) == snapshot  # the old map is untouched
        assert m == d and len(m) == len(d) and (k in m) == (k in d)
        assert m.get(k) == d.get(k)
        if ordered:  # in insertion order after every step (one bucket or many)
            assert m.values() == list(d.values())
    if ordered:  # insertion order kept, as a dict keeps it
        assert list(m) == list(d) and m.values() == list(d.values())
        assert all(m.rank(k) == i for i, k in enumerate(d))
    assert m == PMap(d, ordered=not ordered)
    assert sorted(m.items()) == sorted(d.items())
