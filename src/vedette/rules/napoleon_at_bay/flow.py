"""The sequence of play of Napoleon At Bay, declared (Herman (5) and the series' sequence): each
side in turn moves, fixing the contact forces its moves make owed (Herman (1)-(4); the owed
fixings are held in the state, see ``ruleset.py``), then fights. The engine refuses a request
out of its phase, naming the rule."""

from __future__ import annotations

from vedette.rules.protocol import Flow, Phase

SEQ = "Napoleon At Bay sequence of play"

#: Herman (5) and the series' sequence of play: each side in turn moves (and fixes the
#: contact forces its moves make owed, Herman (1)-(4)), then fights
FLOW = Flow(
    phases=(
        Phase.of(
            "movement",
            ["move", "fix", "end_movement"],
            rule=f"{SEQ} (Herman (1), (5))",
            ends="end_movement, once every owed fixing is done (Herman (5))",
        ),
        Phase.of(
            "combat",
            ["end_combat"],
            rule=f"{SEQ} (Herman (5): combat after all movement and fixing)",
            ends="end_combat: the next side's movement phase",
        ),
    )
)
