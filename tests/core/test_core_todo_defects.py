"""``todo`` derived from ``plan`` (issue 22): a refusal drops an offer, but a defect met while
judging it (a bug, a module the judgement needs missing) is never hidden in strict mode, the
mode of the conformance runs: a random-play run that silently lost every move because shapely
was missing from its interpreter is how this was found."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from vedette.errors import GameError
from vedette.rules.protocol import Obligation, Todo, derive_todo


def judge(procedure: str, request: Mapping[str, Any]) -> Any:
    if procedure == "refused" or request.get("to") == "B":
        raise GameError("not now (rule 1)")
    if procedure == "broken" or request.get("to") == "C":
        raise ModuleNotFoundError("No module named 'shapely'")
    return dict(request)


OFFERS = [
    Todo("ok", {"unit": "A"}, "A may act"),
    Todo("refused", {"unit": "A"}, "A may not"),
    Todo("move", {"unit": "A"}, "A may move", open={"to": ("A", "B")}),
]


def test_a_refusal_drops_the_offer_or_its_choice() -> None:
    out = derive_todo([], OFFERS, judge, strict=True)
    assert [(t.procedure, dict(t.open)) for t in out] == [("ok", {}), ("move", {"to": ("A",)})]


@pytest.mark.parametrize(
    "offer",
    [
        Todo("broken", {"unit": "A"}, "A may break"),
        Todo("march", {"unit": "A"}, "A may march", open={"to": ("A", "C")}),
    ],
)
def test_a_defect_is_dropped_quietly_only_outside_strict_mode(offer: Todo) -> None:
    assert len(derive_todo([], [*OFFERS, offer], judge)) == 2 + (offer.procedure == "march")
    with pytest.raises(ModuleNotFoundError):
        derive_todo([], [*OFFERS, offer], judge, strict=True)


def test_an_owed_step_that_meets_a_defect_is_a_dead_end_that_says_so() -> None:
    owed = Obligation("o1", "broken", {"unit": "A"}, "rule 2", "A must break")
    (t, *_) = derive_todo([owed], OFFERS, judge, strict=True)
    assert t.owed and t.refused.startswith("internal error: ModuleNotFoundError")
