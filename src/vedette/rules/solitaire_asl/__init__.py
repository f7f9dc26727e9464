"""Solitaire Play of ASL (Mike O'Leary, 1994): dummy stacks, potential dummy stacks, HIP units
and dummy HIP counters, hidden fortifications, minefields and cloaked units that shift between
locations on a 2d6 shift DR; bore-sighted locations and pre-registered hexes decided later.

vedette keeps the bookkeeping and rolls; the player adjudicates ASL itself (LOS, terrain) and
states those facts. See docs/rules/solitaire_asl.md.
"""

from vedette.rules.solitaire_asl.ruleset import RULESET, SolitaireASL

__all__ = ["RULESET", "SolitaireASL"]
