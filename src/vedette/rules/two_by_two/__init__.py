"""2 by 2 Napoleonics: a short miniatures ruleset, refereed beside the table.

See docs/rules/two_by_two.md.

Modules: ``model`` (units, state, phases), ``facts`` (geometry the rules ask for), ``movement``,
``shooting``, ``melee``, ``rally``, ``reinforcements``, ``setup`` (set-up and the turn),
``events`` (the fold), ``ruleset`` (the plug-in). Numbers are data in ``data/*.toml``.
"""

from typing import Any

__all__ = ["RULESET", "TwoByTwo"]


def __getattr__(name: str) -> Any:
    """The plug-in, imported when first asked for (start-up time: Kuryakin reads 2 by 2's
    terrain from ``model`` and needs none of the rest)."""
    if name in __all__:
        # start-up: Kuryakin loads 2 by 2's terrain without its ruleset
        from vedette.rules.two_by_two import ruleset

        return getattr(ruleset, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
