"""Data files of the Solo Napoleonic (Kuryakin) ruleset."""
