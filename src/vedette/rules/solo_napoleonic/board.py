"""The Kuryakin table top: units with facing and markers, and the activation order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from vedette.render.svg import (
    _font,
    _piece,
    _side_colour,
    _table_svg,
    el,
    legend_entry,
    terrain_legend,
)
from vedette.rules.solo_napoleonic import geom
from vedette.rules.solo_napoleonic.actions import R_DIST, allowance, require_active


def solo_napoleonic(state: Any, sj: Mapping[str, Any]) -> str:
    bodies = [(u, geom.body(u)) for u in state.units]
    placed = [(u, b) for u, b in bodies if b is not None]
    xs = [c.x for _, b in placed for c in b.corners()] + [g.x for g in state.generals if g.x]
    ys = [c.y for _, b in placed for c in b.corners()] + [g.y for g in state.generals if g.y]
    for f in state.terrain:
        _, _, x1, y1 = f.shape.bounds
        xs.append(x1)
        ys.append(y1)
    width = max(xs, default=600) + 100
    depth = max(ys, default=400) + 100
    sides: list[str] = list(state.sides)
    pieces = []
    for u, b in placed:
        colour = _side_colour(sides, u.side)
        tip = (
            f"{u.name} ({u.kind}, {u.side}) {u.figures} figures, {u.formation},"
            f" {u.disorder} disorder, {u.status}"
        )
        label = f"{u.id} {u.figures}" + (f" D{u.disorder}" if u.disorder else "")
        pieces.append(_piece(u.id, b, depth, colour, label, str(u.status), tip, _font(width)))
    fs = _font(width)
    for g in state.generals:
        if g.x is not None and g.y is not None and not g.killed:
            ge = el(
                None,
                "g",
                {
                    "class": "general",
                    "data-general": g.id,
                    "data-pick": g.id,
                    "data-x": g.x,
                    "data-y": g.y,
                },
            )
            el(
                ge,
                "circle",
                {
                    "cx": g.x,
                    "cy": depth - g.y,
                    "r": f"{fs * 0.7:.0f}",
                    "fill": "#f5b041",
                    "stroke": "#111",
                },
            )
            el(
                ge,
                "text",
                {
                    "x": g.x,
                    "y": depth - g.y + fs * 1.8,
                    "font-size": f"{fs:.0f}",
                    "text-anchor": "middle",
                },
                g.id,
            )
            el(ge, "title", None, f"{g.name}: TH {g.th}, AV {g.av}, CR {g.cr}")
            pieces.append(ge)
    head = f"{state.title} · turn {sj.get('turn')} · {sj.get('phase')}"
    return _table_svg(width, depth, state.terrain, pieces, head, [], "tabletop solonap")


board = solo_napoleonic


# -- what the board means, and what changed on it -------------------------------------------------
def legend(state: Any) -> list[dict[str, object]]:
    sides = list(state.sides)
    out = [
        legend_entry(
            f"{sd} unit: id, figures, D disorder (white line: its front)",
            fill=_side_colour(sides, sd),
        )
        for sd in state.sides
    ]
    out.append(
        legend_entry("general (TH, AV, CR in the roster)", "circle", fill="#f5b041", stroke="#111")
    )
    out.append(legend_entry("faded: routed or destroyed", fill="#888", opacity=0.45))
    out += terrain_legend((f.kind for f in state.terrain), " (for the eye: no rule measures it)")
    order = []
    for c in state.queue():
        mark = "▶ " if c.holder == state.active else ""
        order.append(f"{mark}{c.key_text()}: {c.holder}")
    if order:
        out.append(legend_entry("activation order: " + ", ".join(order), "none"))
    if state.done:
        out.append(legend_entry("cards done: " + ", ".join(state.done), "none"))
    out.append(
        legend_entry(
            "drag a placed unit (or tap it, then its destination) to move it; rings on demand",
            "none",
        )
    )
    return out


def roster(state: Any) -> list[dict[str, object]]:
    cards = {}
    for c in state.cards:
        for uid in c.units:
            cards[uid] = f"card {c.key_text()}" + (f" ({c.holder})" if c.holder != uid else "")
    out: list[dict[str, object]] = []
    for u in state.units:
        marks = [u.status, u.formation]
        if u.disorder:
            marks.append(f"{u.disorder} disorder")
        if u.acted:
            marks.append("acted")
        if u.advancing:
            marks.append("advancing")
        where = (
            "-"
            if u.x is None or u.y is None
            else f"({u.x:.0f}, {u.y:.0f}) mm, facing {u.facing:.0f}°"
        )
        command = ("in command" if u.in_command else "out of command") + (
            f" of {u.brigade}" if u.brigade else ""
        )
        if u.brigade and state.control.get(u.brigade):
            command += f" (control {state.control[u.brigade]})"
        out.append(
            {
                "id": u.id,
                "side": u.side,
                "name": u.name,
                "where": where,
                "strength": f"{u.figures}/{u.start_figures or u.figures} figures",
                "status": ", ".join(marks),
                "command": command,
                "cards": cards.get(u.id, "-"),
            }
        )
    for g in state.generals:
        out.append(
            {
                "id": g.id,
                "side": g.side,
                "name": f"{g.name} ({g.rank})",
                "where": "-" if g.x is None or g.y is None else f"({g.x:.0f}, {g.y:.0f}) mm",
                "strength": f"TH {g.th or '-'}, AV {g.av or '-'}, CR {g.cr}",
                "status": "killed" if g.killed else "-",
                "command": f"under {g.superior}" if g.superior else "-",
                "cards": "-",
            }
        )
    for side, card in state.chance.items():
        out.append(
            {
                "id": side,
                "side": side,
                "name": "chance card held",
                "where": "-",
                "strength": "-",
                "status": card,
                "command": "-",
                "cards": card,
            }
        )
    return out


def changes(before: Any, after: Any) -> list[str]:
    """What to change on the real table: moves, figures lost, disorder and status markers."""
    out: list[str] = []
    old = {u.id: u for u in before.units}
    for u in after.units:
        p = old.get(u.id)
        if p is None:
            continue
        bits = []
        if (p.x, p.y) != (u.x, u.y) and u.x is not None and u.y is not None:
            if p.x is None or p.y is None:
                bits.append(f"place {u.id} at ({u.x:.0f}, {u.y:.0f}) mm")
            else:
                d = ((u.x - p.x) ** 2 + (u.y - p.y) ** 2) ** 0.5
                bits.append(f"move {u.id} {d / 10:.1f} cm to ({u.x:.0f}, {u.y:.0f}) mm")
        if u.facing != p.facing:
            bits.append(f"face {u.id} {u.facing:.0f}°")
        if u.figures != p.figures:
            bits.append(
                f"remove {p.figures - u.figures} figure(s) from {u.id} (now {u.figures})"
                if u.figures < p.figures
                else f"{u.id} now has {u.figures} figures"
            )
        if u.disorder != p.disorder:
            bits.append(f"{u.id} disorder {p.disorder} -> {u.disorder}")
        if u.status != p.status:
            bits.append(f"{u.id}: {p.status} -> {u.status}")
        if u.formation != p.formation:
            bits.append(f"{u.id} into {u.formation}")
        if bits:
            out.append("; ".join(bits))
    for side, card in after.chance.items():
        if before.chance.get(side) != card:
            out.append(f"{side} holds chance card {card}")
    return out


def move_check(state: Any, procedure: str, plan: Any) -> dict[str, object]:
    """A hand move's distance against the unit's move (Kuryakin, Move Distances), in cm; the
    random movement die and the swerve are rolled when it is done."""
    if procedure != "move":
        return {}
    req = plan.request  # the typed request (requests.Move) as the procedure body reads it
    u = state.unit(req.unit)
    require_active(state, u, R_DIST, "move", req.mode or "advance")
    base, want = allowance(state, u, req)  # one move an activation, within its move distance
    left = base - u.moved_mm - want
    return {
        "used": round(want / 10, 1),
        "left": round(left / 10, 1),
        "allowance": round(base / 10, 1),
        "units": "cm",
        "mm_per_unit": 10,
        "text": f"{u.id}: {want / 10:.1f} cm of {base / 10:.1f} cm, {left / 10:.1f} cm left"
        " (the movement die and swerve are rolled when done)",
    }


def rings(state: Any) -> dict[str, float]:
    """Kuryakin's command distances, in mm: brigadier control, senior command, friends near."""
    return {
        "control 150 mm": 150.0,
        "senior command 300 mm": 300.0,
        "friends within 300 mm": 300.0,
    }
