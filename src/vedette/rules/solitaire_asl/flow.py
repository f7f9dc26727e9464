"""The sequence of play of Solitaire Play of ASL, declared: ASL A3's phases with the article's
windows (what each phase allows, and the rules that open it). The engine refuses a request out
of its phase, naming the rule."""

from __future__ import annotations

from vedette.rules.protocol import Flow, Phase
from vedette.rules.solitaire_asl.model import SETUP


def _flow() -> Flow:
    """The sequence of play (ASL A3) with the article's windows: set-up (placing the dummy
    counters, 3.1.1, 4.6.1; marking potential dummy stacks, 2.1), then each player turn's
    PFPh, MPh, DFPh, AFPh, RtPh, APh and CCPh. Shifts are tried in the phases some window of
    2.3, 3.3.2 or 5.1 opens (the plan checks which kind, whose, and the start of the phase);
    a weapon's bore-sight die goes with its fire (6.1: PFPh, MPh Defensive First Fire, DFPh,
    AFPh); an AR's pre-registration die with OBA (7.1: PFPh, DFPh); stacks move in the MPh,
    RtPh and APh, and a minefield exchange follows a unit's entry (4.6.2, 4.6.4)."""
    every = ("phase", "act", "merge", "drop")
    fire = ("boresight",)
    # each phase names the article's rules that open (or keep closed) what it allows: 2.2
    # (potential dummy stacks are made only at set-up), 2.3/5.1 (the starts of phases),
    # 3.3.2 (HIP windows), 4.6.2 (minefield entry), 6.1 (fire), 7.1 (OBA)
    play = {
        "PFPh": ((*every, "shift", *fire, "prereg"), "2.2, 3.3.2, 6.1, 7.1"),
        "MPh": ((*every, "shift", *fire, "move", "minefield"), "2.2, 2.3, 3.3.2, 4.6.2, 5.1, 6.1"),
        "DFPh": ((*every, "shift", *fire, "prereg"), "2.2, 3.3.2, 6.1, 7.1"),
        "AFPh": ((*every, "shift", *fire), "2.2, 5.1, 6.1"),
        "RtPh": ((*every, "move", "minefield"), "2.2, 2.3, 3.3.2, 4.6.2, 5.1"),
        "APh": ((*every, "shift", "move", "minefield"), "2.2, 2.3, 3.3.2, 4.6.2, 5.1"),
        "CCPh": (every, "2.2, 2.3, 3.3.2, 5.1"),
    }
    phases = [
        Phase.of(
            SETUP,
            ["place", "mark", "drop", "phase"],
            rule="O'Leary 2.3 (nothing moves or shifts in set-up); 2.1, 3.1.1, 4.6.1",
            ends="phase: the first player's PFPh",
        )
    ]
    phases += [
        Phase.of(
            name,
            allows,
            rule=f"ASL A3 ({name}); " + ", ".join(f"O'Leary {r}" for r in why.split(", ")),
            ends="phase",
        )
        for name, (allows, why) in play.items()
    ]
    # stating facts and what the ASL rules reveal, the owed word on a scattered hex, and what
    # is chosen right after a shift (2.3, 4.4: plan checks that a shift has just been made), at
    # any time
    return Flow(tuple(phases), always=frozenset({"location", "fort", "settle", "reveal", "decide"}))


FLOW = _flow()
