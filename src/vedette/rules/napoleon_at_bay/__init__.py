"""Napoleon At Bay solitaire system (Mark Herman, as inspired by Kevin Zucker).

When a moving force enters the zone of control of a non-moving *contact* force, a 'fixing'
roll (Herman (3)) decides whether the contact force is really there or switches places with a
nearby *supporting* force (Herman (4)). The first draft of the text is a selectable variant
(option ``variant=draft``). See docs/rules/napoleon_at_bay.md.
"""

from vedette.rules.napoleon_at_bay.ruleset import RULESET, NapoleonAtBay

__all__ = ["RULESET", "NapoleonAtBay"]
