"""Who plays the simulated battles: each ruleset's policies (``Ruleset.simulation()``, see
:mod:`vedette.rules.simulation`), picked by name. Plain-words descriptions are in
``docs/simulation.md``; this module names no ruleset."""

from __future__ import annotations

from vedette.errors import BadRequest
from vedette.rules.simulation import Candidate, Policy, SimPlay

__all__ = ["Candidate", "Policy", "SimPlay", "policy"]


def policy(name: str, play: SimPlay, title: str = "this ruleset") -> Policy:
    """The policy ``name`` of a ruleset, or a one-line error naming the ones it has."""
    found = play.policies.get(name)
    if found is None:
        raise BadRequest(
            f"--policy: no policy {name!r} for {title} (it plays: {', '.join(play.policies)})"
        )
    return found
