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
