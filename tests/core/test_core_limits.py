"""Anything from outside is bounded (``vedette.data.limits.check_tree``), and a refusal names
where in the document the value is: the path a user finds it by (``units[0].name``)."""

from __future__ import annotations

from typing import Any

import pytest

from vedette.data.limits import check_tree
from vedette.errors import DataError


@pytest.mark.parametrize(
    ("data", "kw", "words"),
    [
        ({"units": [{"id": "A", "name": "a\x00"}]}, {}, "units[0].name: holds a control character"),
        ({"a": {"b": [1, 2, float("inf")]}}, {}, "a.b[2]: inf is not a finite number"),
        ([0, [1, {"x": 2**65}]], {}, "[1][1].x: number 36893488147419103232 is out of range"),
        ({"a": {"b": None}}, {"null": False}, "a.b: null is not a value here"),
        (None, {"null": False}, "value: null is not a value here"),
        ({"a": {1: 2}}, {}, "a: keys must be text"),
        ({2: 2}, {}, "top: keys must be text"),
        ({"a": [[["deep"]]]}, {"max_depth": 3}, "a[0][0][0]: nested more than 3 deep"),
        ({"a": "x" * 20_001}, {}, "a: text longer than 20000 characters"),
        ({"a": [1, 2, 3]}, {"max_nodes": 3}, "too large (more than 3 values)"),
        ({"when": __import__("datetime").date(1815, 6, 18)}, {}, "when: unexpected value"),
    ],
)
def test_a_refusal_names_the_values_path(data: Any, kw: dict[str, Any], words: str) -> None:
    with pytest.raises(DataError) as e:
        check_tree(data, "scenario", **kw)
    assert words in str(e.value) and "scenario" in str(e.value)


def test_a_sound_tree_passes() -> None:
    check_tree({"units": [{"id": "A", "xy": [1.5, -2], "ok": True, "note": None}]}, "scenario")


def test_the_quick_read_of_a_sound_tree_agrees_with_the_full_walk(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``check_tree`` reads a tree of plain values in place and walks anything else in full:
    on random trees of every kind of value, near every limit, both give the same answer and
    the same refusal."""
    import random

    from vedette.data import limits

    leaves = ["a", "x" * 20_001, "\x00", "\ud800", 1, 2**64, -(2**64) - 1, 1.5, float("nan")]
    leaves += [float("inf"), True, None, (1, 2), b"x"]
    keys = ["a", "b", "k" * 201, "\x01", 3, ""]
    rng = random.Random(1815)

    def tree(depth: int) -> Any:
        r = rng.random()
        if depth > 5 or r < 0.4:
            return rng.choice(leaves)
        if r < 0.7:
            return [tree(depth + 1) for _ in range(rng.randrange(4))]
        if r < 0.75:
            return tuple(tree(depth + 1) for _ in range(rng.randrange(3)))
        return {rng.choice(keys): tree(depth + 1) for _ in range(rng.randrange(4))}

    def answer(data: Any, kw: dict[str, Any]) -> str | None:
        try:
            check_tree(data, "s", **kw)
        except DataError as e:
            return str(e)
        return None

    quick = limits._sound
    sound = 0
    for _ in range(2_000):
        data = tree(0)
        kw = rng.choice([{}, {"null": False}, {"max_depth": 3}, {"max_nodes": 10}])
        got = answer(data, kw)
        monkeypatch.setattr(limits, "_sound", lambda *_: False)  # the full walk alone
        assert answer(data, kw) == got, (data, kw)
        monkeypatch.setattr(limits, "_sound", quick)
        sound += got is None
    assert 300 < sound < 1_700  # (both sound and refused trees met)
