"""The toy's Ruleset class: declarations only (its events and folds, its bundled scenario, and
its procedures, one line each)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from examples.toy.counter import plan_advance, plan_cheer, resolve_advance
from examples.toy.events import EVENTS, FOLDS, Cheered
from examples.toy.model import ToyState
from examples.toy.requests import Advance, Cheer, Rest
from vedette.referee import Outcome, Procedure, Ruleset, procedure_table


class Toy(Ruleset[ToyState]):
    name = "toy"
    title = "Toy"
    data_package = "examples.toy.data"
    scenarios: Mapping[str, str] = MappingProxyType({"sample": "sample.toml"})
    events = EVENTS
    folds = FOLDS
    procedures = procedure_table(
        Procedure(Advance, plan_advance, resolve_advance),
        Procedure(Cheer, plan_cheer, lambda s, p, d: Outcome((Cheered(),), (), "hurrah")),
        Procedure.nodice(Rest, lambda s, r: Outcome((), (), "the turn ends")),
    )

    def initial_state(self, scenario: Mapping[str, Any], options: Mapping[str, Any]) -> ToyState:
        return ToyState(limit=int(scenario.get("limit", 100)))


RULESET = Toy()
