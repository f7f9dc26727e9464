"""Issue 29: the simulator's lines drop an option with the ``todo`` key of one before it, as
``todo`` does; it compares whole keys only between options whose keys' heads meet
(:func:`key_head`). Tested against the plain dedupe on every key alike."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.sizes import examples
from vedette.rules.protocol import Todo, todo_key
from vedette.rules.simulation import TodoSim, key_head

#: values that print alike as a command's words (True and "true", 1 and "1", a list and its
#: words) and values the shell quotes (a space, a quote, a bar)
VALUES = st.sampled_from(
    [
        "G1",
        "true",
        True,
        False,
        "false",
        1,
        "1",
        1.0,
        None,
        "null",
        "a b",
        "a|b",
        "it's",
        "",
        ["G1", "G2"],
        "G1,G2",
        ("G1", "G2"),
        {"x": 1},
        '{"x":1}',
    ]
)
OPTIONS = st.lists(
    st.builds(
        lambda proc, req, field, choices: Todo(
            proc, req, "an option", open={field: tuple(choices)} if choices else {}
        ),
        st.sampled_from(["move", "phase", "move a=b"]),
        st.dictionaries(st.sampled_from(["stack", "to", "a b"]), VALUES, max_size=2),
        st.sampled_from(["to", "target"]),
        st.lists(st.sampled_from(["4M6", "4M7", True, "True"]), max_size=2),
    ),
    max_size=12,
)


class _Options:
    """A ruleset that owes nothing and offers ``options`` (what ``TodoSim.entries`` reads)."""

    def __init__(self, options: Sequence[Todo]) -> None:
        self.options_ = list(options)

    def obligations(self, state: Any) -> list[Any]:
        return []

    def options(self, state: Any) -> list[Todo]:
        return self.options_

    def todo_judge(self, state: Any, owed: Any) -> Any:
        return None


def _plain(options: Sequence[Todo]) -> list[Todo]:
    seen: set[str] = set()
    out = []
    for t in options:
        key = todo_key(t)
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out


@settings(max_examples=examples(400), deadline=None)
@given(OPTIONS)
def test_lines_drop_what_todo_keys_drop(options: list[Todo]) -> None:
    _, entries = TodoSim().entries(None, _Options(options))
    assert [t for t, _ in entries] == _plain(options)
    for a in options:
        for b in options:
            if todo_key(a) == todo_key(b):
                assert key_head(a) == key_head(b), (a, b)


def test_alike_words_share_a_head_and_quoted_ones_have_none() -> None:
    a = Todo("move", {"stack": True}, "x", open={"to": ("4M6",)})
    b = Todo("move", {"stack": "true"}, "y", open={"to": ("4M6",)})
    c = Todo("move", {"stack": "true"}, "z", open={"to": ("4M7",)})
    assert todo_key(a) == todo_key(b) != todo_key(c)
    assert key_head(a) == key_head(b) == key_head(c) == ("move", "stack=true")
    assert key_head(Todo("move", {"stack": "a b"}, "q")) is None
    assert key_head(Todo("phase", {}, "next")) is None
    _, entries = TodoSim().entries(None, _Options([a, c, b, a]))
    assert [t for t, _ in entries] == [a, c]
