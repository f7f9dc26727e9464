"""Drawing game boards (SVG), shared by the rulesets' own board views."""
