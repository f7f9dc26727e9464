"""The toy ruleset, the worked example of docs/architecture.md ("The worked example"): a
counter moved by d6 rolls, in the package shape every ruleset has.

* ``advance`` (Toy 1): roll 1d6 (+ a bonus); 3+ advances the counter by the roll. A natural 6
  makes a ``cheer`` owed (Toy 3): the turn may not end (``rest``) until it is made or waived.
* ``cheer`` (Toy 3): discharges the owed step. ``rest`` (Toy 4): ends the turn.
* At the limit, ``advance`` is refused (Toy 2).

The files: ``state.py`` (the state), ``requests.py`` (one declared request per procedure),
``events.py`` (typed events and their folds), ``flow.py`` (what the rules owe), ``counter.py``
(plan and resolve, by rule), ``data/`` (the players' page and a bundled scenario), and this
module: the Ruleset class, declarations only. It plays once registered (one line:
``vedette.rules.register("toy", "examples.toy")``; the tests do it in ``tests/toy.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from examples.toy.counter import plan_advance, plan_cheer, resolve_advance
from examples.toy.events import EVENTS, FOLDS, Cheered
from examples.toy.requests import Advance, Cheer, Rest
from examples.toy.state import ToyState
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
