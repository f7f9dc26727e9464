"""Napoleon At Bay sequences (docs/rules/napoleon_at_bay.md, "Sequences").

``screen``: a screen (a contact force) against k successive movers. Each mover makes its
``move`` in turn; every fixing the rules then owe (Herman (1): applied when a moving force
enters a contact force's ZOC) is resolved by ``fix`` before the next mover moves, exactly as
play must go. The end state names where each force concerned ends (the screen, the movers and
every force the fixings moved) and whether it is fixed; it begins with ``holds`` when the
screen is still in its hexes, else ``gives way``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vedette.errors import BadRequest, RuleViolation
from vedette.referee import procedure, procedure_table
from vedette.rules.fields import arg
from vedette.rules.napoleon_at_bay import fixing as fx
from vedette.rules.napoleon_at_bay.model import NabState
from vedette.rules.sequence import Steps, sequence

#: the most movers one screen sequence plays
MAX_MOVERS = 6


@procedure("screen", rule="Herman (1)-(4)", query=True)
@dataclass(frozen=True, slots=True)
class ScreenRequest:
    """a screen against k successive movers: each moves into its ZOC and every owed fixing is
    resolved; where each force ends"""

    screen: str = arg("the screening force (the contact force)", positional=True)
    movers: tuple[str, ...] = arg("the moving forces, in the order they move: F1,F2")
    to: tuple[str, ...] = arg("each mover's destination hex, in the same order: W2020,W2321")
    march: str = arg(
        "how they move (Herman (1)): normal, command, initiative or force", default="normal"
    )


def check_screen(state: NabState, r: ScreenRequest) -> None:
    screen = state.piece(r.screen)
    if not r.movers:
        raise BadRequest("movers: name at least one moving force")
    if len(r.movers) > MAX_MOVERS:
        raise BadRequest(f"movers: at most {MAX_MOVERS} in one sequence")
    if len(r.to) != len(r.movers):
        raise BadRequest(
            f"to: one destination hex per mover ({len(r.movers)} movers, {len(r.to)} hexes)"
        )
    if len(set(r.movers)) != len(r.movers):
        raise BadRequest("movers: each force moves once in a phase")
    for m in r.movers:
        p = state.piece(m)
        if p.side == screen.side:
            raise RuleViolation(
                fx.R1, f"{m} is on the screen's side ({screen.side}): only an enemy fixes it"
            )


def play_screen(steps: Steps, r: ScreenRequest) -> str:
    start = {p.id: (p.hexes, p.fixed) for p in steps.state.pieces.values()}
    refused: set[str] = set()
    for i, (m, h) in enumerate(zip(r.movers, r.to, strict=True)):
        req: dict[str, Any] = {"force": m, "to": [h], "march": r.march}
        if i == 0:  # before any die: a refusal here is the request's (plan plays it)
            moved = steps.step("move", req)
            if r.screen not in {z["force"] for z in moved.details.get("zoc", ())}:
                raise RuleViolation(
                    fx.R1, f"{m}'s move to {h} does not enter the ZOC of the screen {r.screen}"
                )
        elif isinstance(steps.attempt("move", req), Exception):
            refused.add(m)  # where the earlier fixings left the forces, this move is illegal
            continue
        # one at a time: a fixing can make another owed one lapse (Herman (2))
        while owed := steps.obligations():
            o = owed[0]
            steps.step(o.procedure, dict(o.request))
    return screen_label(steps.state, start, r, refused)


def screen_label(
    state: NabState,
    start: dict[str, tuple[tuple[str, ...], bool]],
    r: ScreenRequest,
    refused: set[str],
) -> str:
    moved_by_fixing = sorted(  # or fixed by it
        pid
        for pid, p in state.pieces.items()
        if (p.hexes, p.fixed) != start[pid] and pid not in r.movers and pid != r.screen
    )
    parts = []
    for pid in (r.screen, *r.movers, *moved_by_fixing):
        p = state.pieces[pid]
        mark = " fixed" if p.fixed else ""
        if pid in refused:
            mark += " (could not move)"
        parts.append(f"{pid} {','.join(p.hexes)}{mark}")
    held = state.pieces[r.screen].hexes == start[r.screen][0]
    return f"{'holds' if held else 'gives way'}: {'; '.join(parts)}"


def screen_facets(label: str) -> list[str]:
    """The screen holds or gives way; each force the sequence leaves fixed."""
    head, _, rest = label.partition(": ")
    out = ["the screen holds" if head == "holds" else f"the screen {head}"]
    out += [f"{p.split()[0]} ends fixed" for p in rest.split("; ") if p.endswith(" fixed")]
    return out


SEQUENCES = procedure_table(
    sequence(ScreenRequest, "napoleon_at_bay", play_screen, check_screen, screen_facets)
)
