"""An owed step is listed once: ``todo`` drops an option with the key of an owed entry (the
same request and choices), and the simulator's random policy counts its lines the same way, so
that its law stays "every line ``todo`` would list equally likely" (docs/simulation.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vedette.rules.protocol import Obligation, Todo, derive_todo
from vedette.rules.simulation import TodoSim


def judge(procedure: str, request: Mapping[str, Any]) -> Any:
    return dict(request)


OWED = Obligation("o1", "fire", {"unit": "A", "target": "B"}, "rule 3", "A's defensive fire")
OPTIONS = [
    Todo("fire", {"unit": "A", "target": "B"}, "A fires at B"),  # the owed step again
    Todo("fire", {"unit": "A", "target": "B", "hold": True}, "A holds its fire"),  # another
]


def test_an_option_repeating_the_owed_step_is_not_listed_again() -> None:
    out = derive_todo([OWED], OPTIONS, judge, strict=True)
    assert [(t.command(), t.owed) for t in out] == [
        ("fire unit=A target=B", True),
        ("fire unit=A target=B hold=true", False),
    ]
    # the same option while nothing is owed is listed, as an option
    assert [t.command() for t in derive_todo([], OPTIONS, judge)] == [
        "fire unit=A target=B",
        "fire unit=A target=B hold=true",
    ]


class _Rules:
    """What the random policy reads of a ruleset."""

    def obligations(self, state: Any) -> list[Obligation]:
        return [OWED]

    def options(self, state: Any) -> list[Todo]:
        return OPTIONS

    def todo_judge(self, state: Any, owed: Any) -> Any:
        return judge


def test_the_random_policy_counts_the_owed_step_once() -> None:
    _, entries = TodoSim().entries(None, _Rules())
    lines = [(t.command(), owed) for t, owed in entries]
    assert lines == [("fire unit=A target=B", True), ("fire unit=A target=B hold=true", False)]
    assert lines == [(t.command(), t.owed) for t in derive_todo([OWED], OPTIONS, judge)]
