"""Typed requests for every Kuryakin procedure (the referee protocol's request dataclasses).

Each procedure's arguments are declared once (``ruleset._procs``: name, help, kind, required)
and a frozen request dataclass is made from that declaration, so the core derives argument
checking (unknown fields refused with a did-you-mean, mistyped ones with one line naming the
field), CLI help, the web form and a JSON schema from it. ``plan`` checks the rules and shows
the odds of the steps it knows it will take (the procedure's own checks); ``resolve`` rolls.

The procedures' bodies still read their arguments through a mapping of the fields given (the
values already coerced to their types): moving every body onto the typed fields is issue 14's
remaining work (see docs/rules/solo_napoleonic.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from vedette.dice.sources import DiceSource
from vedette.rules.base import Outcome, Request
from vedette.rules.base import Procedure as OldProcedure
from vedette.rules.fields import arg, to_json
from vedette.rules.protocol import Plan, Procedure

TYPES: Mapping[str, Any] = {
    "str": str,
    "int": int,
    "float": float,
    "bool": bool,
    "list": list[str],
    "json": dict[str, Any],
}


def request_class(p: OldProcedure[Any]) -> type:
    """The frozen request dataclass of a procedure, from its declared arguments."""
    required: list[tuple[str, Any, Any]] = []
    optional: list[tuple[str, Any, Any]] = []
    for prm in p.params:
        tp = TYPES[prm.kind]
        if prm.required:
            required.append((prm.name, tp, arg(prm.help)))
        else:
            optional.append((prm.name, tp | None, arg(prm.help, default=None)))
    name = "".join(w.capitalize() for w in p.name.split("_")) + "Request"
    return dataclasses.make_dataclass(
        name,
        [*required, *optional],
        frozen=True,
        slots=True,
        namespace={"procedure_name": p.name, "__doc__": p.help},
    )


class KProcedure(Procedure[Any, Any]):
    """A Kuryakin procedure on the protocol: typed request, plan (the rules checked by the
    procedure's own odds, which raise what the roll would), resolve."""

    def request_json(self, request: Any) -> dict[str, Any]:
        data = to_json(request)
        return {k: v for k, v in data.items() if v is not None}


def given(request: Any) -> Request:
    """The fields given, as the procedure bodies read them."""
    data = to_json(request)
    return Request({k: v for k, v in data.items() if v is not None})


def typed(p: OldProcedure[Any]) -> KProcedure:
    old = p

    def plan(state: Any, request: Any) -> Plan:
        legacy = given(request)
        if old.odds is None:
            return Plan(request, data=legacy)
        odds = old.odds
        return Plan(request, data=legacy, step_odds_fn=lambda: odds(state, legacy))

    def resolve(state: Any, plan_: Plan, dice: DiceSource) -> Outcome:
        return old.run(state, plan_.data, dice)

    return KProcedure(p.name, request_class(p), plan, resolve, p.help, p.rule, p.query)
