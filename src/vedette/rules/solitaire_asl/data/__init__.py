"""Data files of the solitaire ASL ruleset (O'Leary 1994)."""
