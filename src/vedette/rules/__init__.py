"""Registry of rulesets: name and aliases -> ruleset. Modules are imported lazily so that
``vedette --help`` stays fast."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from vedette.errors import BadRequest

if TYPE_CHECKING:  # the base class is loaded with the first ruleset, not by the registry
    from vedette.rules.base import Ruleset

#: canonical name -> (module, aliases)
REGISTRY: dict[str, tuple[str, tuple[str, ...]]] = {
    "napoleon_at_bay": ("vedette.rules.napoleon_at_bay", ("nab",)),
    "solitaire_asl": ("vedette.rules.solitaire_asl", ("asl",)),
    "two_by_two": ("vedette.rules.two_by_two", ("twobytwo", "2x2")),
    "solo_napoleonic": ("vedette.rules.solo_napoleonic", ("solonap", "kuryakin")),
}

#: the rulesets vedette ships (plug-ins registered later, e.g. by tests, are not among them)
BUILTIN: tuple[str, ...] = tuple(REGISTRY)


def register(name: str, module: str, aliases: tuple[str, ...] = ()) -> None:
    REGISTRY[name] = (module, aliases)


def canonical(name: str) -> str:
    n = name.lower()
    for k, (_, aliases) in REGISTRY.items():
        if n == k or n in aliases:
            return k
    raise BadRequest(f"unknown ruleset {name!r} (known: {', '.join(names())})")


def names() -> list[str]:
    return list(REGISTRY)


def aliases(name: str) -> tuple[str, ...]:
    return REGISTRY[canonical(name)][1]


def get(name: str) -> Ruleset[Any]:
    mod = import_module(REGISTRY[canonical(name)][0])
    # start-up: the registry alone loads no ruleset ('vedette --help' lists them)
    from vedette.rules.base import Ruleset

    rs = mod.RULESET
    assert isinstance(rs, Ruleset)
    return rs
