"""2 by 2 Napoleonics: a short miniatures ruleset, refereed beside the table.

See docs/rules/two_by_two.md.

Modules: ``model`` (units, state, phases), ``facts`` (geometry the rules ask for), ``movement``,
``shooting``, ``melee``, ``rally``, ``reinforcements``, ``setup`` (set-up and the turn),
``events`` (the fold), ``ruleset`` (the plug-in). Numbers are data in ``data/*.toml``.
"""

from vedette.rules.two_by_two.ruleset import RULESET, TwoByTwo

__all__ = ["RULESET", "TwoByTwo"]
