"""Solo Napoleonic Wargames Rules (Ilya Kuryakin, First Empire #52): card-driven activation,
random generals, random movement, disorder, fire, artillery, melee, morale and charges.

See docs/rules/solo_napoleonic.md for the rule-by-rule status and every assumption.
"""

from vedette.rules.solo_napoleonic.ruleset import RULESET, SoloNapoleonic

__all__ = ["RULESET", "SoloNapoleonic"]
