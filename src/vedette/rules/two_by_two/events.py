"""Events of a 2 by 2 game and the fold that applies them (deterministic, replayable).

A unit event (``moved``, ``pinned``, ``disrupted``, ``rallied``, ``routed``, ``destroyed``,
``shot``, ``arrived``, ``deployed``, ``placed``, ``formation``, ``screen``, ``faced``,
``marker``) carries ``{"unit": id, "set": {field: value}}``: exactly the change to the unit.
Positions travel as ``{"x", "y", "facing"}`` in mm and degrees.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from vedette.geometry.tabletop import Body, Vec
from vedette.rules.base import Event
from vedette.rules.two_by_two.model import (
    PHASES,
    FollowUp,
    GameState,
    PendingMelee,
    ReinforcementPoint,
    body_json,
)

UNIT_EVENTS = frozenset(
    {
        "moved",
        "pinned",
        "disrupted",
        "rallied",
        "routed",
        "destroyed",
        "shot",
        "arrived",
        "deployed",
        "placed",
        "formation",
        "screen",
        "faced",
        "marker",
        "repulsed",
        "recoiled",
        "followed_up",
        "meleed",
    }
)
_UNIT_FIELDS = frozenset(
    {
        "status",
        "body",
        "pinned",
        "disrupted",
        "shot",
        "formation",
        "screened",
        "moved",
        "through_town",
        "rallied",
        "meleed",
        "entry",
        "routed",
        "countercharged",
        "spent",
        "turned",
        "straight_run",
        "road_only",
    }
)


def unit_event(kind: str, uid: str, **changes: Any) -> Event:
    """An event changing one unit; a ``body`` change is given as a Body (or None)."""
    data: dict[str, Any] = {}
    for k, v in changes.items():
        if k not in _UNIT_FIELDS:
            raise ValueError(f"unit has no field {k!r}")
        data[k] = body_json(v) if k == "body" else v
    return Event(kind, {"unit": uid, "set": data})


def _body(state: GameState, d: Mapping[str, Any] | None) -> Body | None:
    if d is None:
        return None
    return Body(Vec(float(d["x"]), float(d["y"])), float(d["facing"]), state.rules.footprint)


def apply_event(state: GameState, event: Event) -> GameState:
    """Fold one event into the state."""
    k, d = event.kind, event.data
    if k in UNIT_EVENTS:
        changes = dict(d["set"])
        if "body" in changes:
            changes["body"] = _body(state, changes["body"])
        return state.with_unit(str(d["unit"]), **changes)
    if k == "melee_pending":
        m = PendingMelee(str(d["attacker"]), str(d["defender"]), bool(d.get("counter_charge")))
        if m in state.melees:
            return state
        return replace(state, melees=(*state.melees, m))
    if k == "melee_resolved":
        a, b = str(d["attacker"]), str(d["defender"])
        return replace(
            state, melees=tuple(m for m in state.melees if (m.attacker, m.defender) != (a, b))
        )
    if k == "melees_cleared":
        gone = set(d["units"])
        return replace(
            state,
            melees=tuple(
                m for m in state.melees if m.attacker not in gone and m.defender not in gone
            ),
        )
    if k == "follow_up_offered":
        into = None if d.get("x") is None else Vec(float(d["x"]), float(d["y"]))
        f = FollowUp(str(d["unit"]), into, bool(d["mandatory"]))
        rest = tuple(x for x in state.follow_ups if x.unit != f.unit)
        return replace(state, follow_ups=(*rest, f))
    if k == "follow_up_closed":
        return replace(state, follow_ups=tuple(x for x in state.follow_ups if x.unit != d["unit"]))
    if k == "reinforcement_rolled":
        return replace(state, reinforcement_rolls=state.reinforcement_rolls + 1)
    if k == "rp_chosen":
        rp = ReinforcementPoint(
            str(d["id"]),
            str(d["side"]),
            str(d["kind"]),
            Vec(float(d["x"]), float(d["y"])),
            tuple(str(u) for u in d.get("queue", [])),
        )
        return replace(
            state,
            rps=(*state.rps, rp),
            setup_step=str(d.get("next_step", state.setup_step)),
        )
    if k == "rp_dequeued":
        rps = tuple(
            replace(r, queue=tuple(u for u in r.queue if u != d["unit"])) if r.id == d["rp"] else r
            for r in state.rps
        )
        return replace(state, rps=rps)
    if k == "roles":
        return replace(
            state,
            attacker=str(d["attacker"]),
            defender=str(d["defender"]),
            extra_ap=int(d.get("extra_ap", 0)),
            setup_step=str(d.get("next_step", state.setup_step)),
        )
    if k == "setup_step":
        return replace(state, setup_step=str(d["step"]))
    if k == "phase":
        return _new_phase(state, str(d["stage"]), int(d["turn"]), int(d["phase_index"]))
    if k == "game_over":
        w = d.get("winner")
        return replace(state, stage="over", winner=None if w is None else str(w))
    raise ValueError(f"unknown 2 by 2 event {k!r}")


def _new_phase(state: GameState, stage: str, turn: int, index: int) -> GameState:
    """Enter a phase; clear the markers that last one phase (2 by 2, Sequence of play).

    * a move phase: the phasing side's ``moved`` and relative-move markers are cleared (an
      arrived reinforcement keeps its ``entry`` until it enters: never stranded), the reinforcement
      rolls counted afresh, and the *non-phasing* side's ``shot`` markers cleared: its one shot
      of the turn falls in this half-turn (reaction fire now, or the shooting phase that
      follows); at the first phase of a turn every unit's ``through_town`` and
      ``countercharged`` are cleared ("cavalry may not move to contact on the same turn it
      moves through a town");
    * a rally phase clears ``rallied``; a melee phase clears ``meleed``.
    """
    st = replace(state, stage=stage, turn=turn, phase_index=index)
    if stage != "battle":
        return st
    kind = PHASES[index][0]
    units = st.units
    if kind == "move":
        mover = st.player_order[PHASES[index][2]]
        shooter = st.player_order[1 - PHASES[index][2]]
        new_turn = index == 0
        units = tuple(
            replace(
                u,
                moved=False if u.side == mover else u.moved,
                spent=0.0 if u.side == mover else u.spent,
                turned=False if u.side == mover else u.turned,
                straight_run=0.0 if u.side == mover else u.straight_run,
                road_only=True if u.side == mover else u.road_only,
                shot=False if u.side == shooter else u.shot,
                through_town=False if new_turn else u.through_town,
                countercharged=False if new_turn else u.countercharged,
            )
            for u in units
        )
        st = replace(st, reinforcement_rolls=0)
    elif kind == "rally":
        units = tuple(replace(u, rallied=False) for u in units)
    elif kind == "melee":
        units = tuple(replace(u, meleed=False) for u in units)
    return replace(st, units=units, follow_ups=())
