"""What a ruleset author imports: the referee protocol in one place (as ``import chess``).

A procedure is declared once, on its request class::

    from vedette.referee import Outcome, Plan, Procedure, arg, procedure, procedure_table

    @procedure("rest", rule="Toy 4")
    @dataclass(frozen=True, slots=True)
    class Rest:
        \"\"\"end the turn\"\"\"

    PROCEDURES = procedure_table(
        Procedure(Advance, plan_advance, resolve_advance),  # rolls: plan, then resolve
        Procedure.nodice(Rest, lambda state, req: Outcome(message="the turn ends")),
    )

The request class carries the procedure's name, its help (the docstring's first paragraph),
its rule and whether it is a query; ``Procedure`` adds how it is planned and resolved. A change
that only sets fields of one entity is the core's ``Patch``, a step that changes several (puts
one in, removes one, counts one on) a ``Patches`` of ``Change``s (a ruleset names its kinds
with ``patch_kind`` and says how its state holds each entity with ``Entities``). See
docs/architecture.md ("Writing a ruleset", "Patches and domain facts").
"""

from __future__ import annotations

from vedette.dice import (
    Check,
    DiceSource,
    Modifier,
    Odds,
    OddsRow,
    UnderCheck,
    table_from_data,
    tables_from_data,
)
from vedette.errors import BadRequest, DataError, RuleViolation, VedetteError
from vedette.rules.base import LazyModel, Outcome, Ruleset
from vedette.rules.fields import arg, to_json
from vedette.rules.patch import Change, Entities, Patch, Patches, patch_kind, patch_kinds
from vedette.rules.protocol import (
    DomainEvent,
    Event,
    Flow,
    GameOutcome,
    Obligation,
    Phase,
    Plan,
    Procedure,
    Todo,
    declared,
    derive_todo,
    procedure,
    procedure_table,
)
from vedette.rules.simulation import SimPlay

__all__ = [
    "BadRequest",
    "Change",
    "Check",
    "DataError",
    "DiceSource",
    "DomainEvent",
    "Entities",
    "Event",
    "Flow",
    "GameOutcome",
    "LazyModel",
    "Modifier",
    "Obligation",
    "Odds",
    "OddsRow",
    "Outcome",
    "Patch",
    "Patches",
    "Phase",
    "Plan",
    "Procedure",
    "RuleViolation",
    "Ruleset",
    "SimPlay",
    "Todo",
    "UnderCheck",
    "VedetteError",
    "arg",
    "declared",
    "derive_todo",
    "patch_kind",
    "patch_kinds",
    "procedure",
    "procedure_table",
    "table_from_data",
    "tables_from_data",
    "to_json",
]
