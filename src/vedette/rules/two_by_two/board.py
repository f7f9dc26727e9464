"""The 2 by 2 table top: terrain shapes, units with facing and markers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vedette.render.svg import (
    _font,
    _piece,
    _side_colour,
    _table_svg,
    legend_entry,
    terrain_legend,
)
from vedette.rules.two_by_two import facts


def two_by_two(state: Any, sj: Mapping[str, Any]) -> str:
    table = state.table
    sides: list[str] = [sd.id for sd in state.sides]
    pieces = []
    for u in state.units:
        colour = _side_colour(sides, u.side)
        marks = [m for m in ("pinned", "disrupted", "routed", "shot") if getattr(u, m, False)]
        status = str(u.status) if u.status != "table" else ("routed" if u.routed else "table")
        tip = f"{u.name} ({u.kind}, {u.side}) {' '.join(marks) or 'steady'}"
        if u.body is not None and u.status == "table":
            label = u.id + ("".join(f" {m[0].upper()}" for m in marks))
            g = _piece(u.id, u.body, table.depth, colour, label, status, tip, _font(table.width))
            # counter-charge reach: 1/2 the unit's move (2 by 2, Moving to contact: the game's
            # [movement] countercharge_fraction, a house rule's too)
            reach = state.utype(u).move * state.rules.movement.countercharge_fraction
            g.set("data-half-move", f"{state.rules.mm(reach):.1f}")
            pieces.append(g)
    head = str(getattr(state, "title", "") or "2 by 2 Napoleonics")
    head += f" · turn {state.turn}" if state.turn else ""  # the phase: first line of the legend
    return _table_svg(table.width, table.depth, table.features, pieces, head, [], "tabletop")


board = two_by_two


# -- what the board means, and what changed on it -------------------------------------------------
MARKS = ("pinned", "disrupted", "routed", "shot")


def legend(state: Any) -> list[dict[str, object]]:
    sides = [sd.id for sd in state.sides]
    out = [
        legend_entry(f"{sd.name} unit (white line: its front)", fill=_side_colour(sides, sd.id))
        for sd in state.sides
    ]
    out.insert(0, legend_entry(state.phase_name(), "none"))
    out += [
        legend_entry("P pinned, D disrupted, R routed, S has shot (letters after the id)", "none"),
        legend_entry("faded: routed or off the table", fill="#888", opacity=0.45),
    ]
    out += terrain_legend(f.kind for f in state.table.features)
    if state.play == "tracked":
        out.append(
            legend_entry(
                "drag a unit (or tap it, then its destination) to move it; rings on demand",
                "none",
            )
        )
    return out


def _command(state: Any, u: Any) -> str:
    if state.utype(u).is_hq:
        return "HQ"
    div, corps = facts.hq_distances(state, u)
    if div is None and corps is None:
        return "-" if u.body is None else "no HQ"
    bits = []
    if div is not None:
        bits.append(f"Div HQ [{div:.1f}]")
    if corps is not None:
        bits.append(f"Corps HQ [{corps:.1f}]")
    return ", ".join(bits)


def roster(state: Any) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for u in state.units:
        t = state.utype(u)
        marks = [m for m in MARKS if getattr(u, m, False)]
        if u.moved:
            marks.append("moved")
        where = "-"
        if u.status != "table":
            where = u.status
        elif u.body is not None:
            where = (
                f"({u.body.centre.x:.0f}, {u.body.centre.y:.0f}) mm, facing {u.body.facing:.0f}°"
            )
        out.append(
            {
                "id": u.id,
                "side": state.side(u.side).name,
                "name": f"{u.name} ({t.name})",
                "where": where,
                "strength": f"move [{t.move:g}], {u.formation.replace('_', ' ')}"
                + (", screen out" if u.screened else ""),
                "status": ", ".join(marks) or "steady",
                "command": _command(state, u),
            }
        )
    return out


def changes(before: Any, after: Any) -> list[str]:
    """What to change on the real table: moves in [n] and where to, markers on and off."""
    out: list[str] = []
    old = {u.id: u for u in before.units}
    for u in after.units:
        p = old.get(u.id)
        if p is None:
            continue
        bits = []
        if u.body is not None and (p.body is None or p.body != u.body):
            c = u.body.centre
            if p.body is None:
                bits.append(
                    f"place {u.id} at ({c.x:.0f}, {c.y:.0f}) mm facing {u.body.facing:.0f}°"
                )
            else:
                dist = f" [{after.rules.n(p.body.centre.distance(c)):.1f}]"
                bits.append(
                    f"move {u.id}{dist} to ({c.x:.0f}, {c.y:.0f}) mm facing {u.body.facing:.0f}°"
                )
        if p.status != u.status:
            bits.append(f"{u.id}: {p.status} -> {u.status}")
        for m in MARKS:
            a, b = getattr(p, m, False), getattr(u, m, False)
            if b and not a:
                bits.append(f"mark {u.id} {m}")
            elif a and not b:
                bits.append(f"remove {u.id}'s {m} marker")
        if p.formation != u.formation:
            bits.append(f"{u.id} into {u.formation.replace('_', ' ')}")
        if bits:
            out.append("; ".join(bits))
    return out


def move_check(state: Any, procedure: str, plan: Any) -> dict[str, object]:
    """A hand move's length, cost and what is left of the allowance, in base units [n]."""
    outcome = getattr(plan, "data", None)
    details = getattr(outcome, "details", None)
    mv = details.get("move") if isinstance(details, dict) else None
    if not isinstance(mv, dict):
        return {}
    u = state.unit(mv["unit"])
    left = mv["allowance"] - mv["cost"]  # one move a phase (relative steps: see relative.py)
    return {
        "used": round(mv["cost"], 2),
        "left": round(left, 2),
        "allowance": mv["allowance"],
        "units": "[n]",
        "mm_per_unit": state.rules.base_mm,
        "text": f"{u.id}: [{mv['length']:.1f}] moved, costs [{mv['cost']:.1f}],"
        f" [{left:.1f}] left of [{mv['allowance']:g}]"
        + (f"; contact with {', '.join(mv['contacts'])}" if mv["contacts"] else ""),
    }


def rings(state: Any) -> dict[str, float | str]:
    """The rule distances a player may ring a unit with, in mm (2 by 2: Rallying's HQ ranges,
    the rally ban and rout contagion); a name instead of a number is a per-unit distance the
    board carries on each unit (``data-half-move``: counter-charge reach, the game's 1/2 of its
    move)."""
    sec = state.rules.rally
    mm = state.rules.base_mm
    return {
        f"Div HQ [{sec.division_range:g}]": mm * sec.division_range,
        f"Corps HQ [{sec.corps_range:g}]": mm * sec.corps_range,
        f"rally ban: enemy within [{sec.enemy_within:g}]": mm * sec.enemy_within,
        f"rout contagion [{state.rules.rout.contagion_radius:g}]": (
            mm * state.rules.rout.contagion_radius
        ),
        f"counter-charge: {state.rules.movement.countercharge_part} its move": "half-move",
    }
