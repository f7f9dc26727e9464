"""The Solitaire ASL board: locations and stacks coloured by status (TI dashed), the shifts made."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from vedette.render.svg import (
    _hex_points,
    _side_colour,
    _svg,
    badge,
    el,
    fan,
    legend_entry,
    to_text,
)
from vedette.rules.solitaire_asl.model import Op, State, kind_words
from vedette.rules.solitaire_asl.turn import phase_key, window

# -- Solitaire ASL: locations and stacks ----------------------------------------------------------
ASL_STATUS = {
    "potential_dummy": ("#f1c40f", "potential dummy"),
    "dummy": ("#95a5a6", "dummy stack"),
    "concealed": ("#5d6d7e", "concealed"),
    "revealed": ("#2e86c1", "revealed"),
    "hip": ("#8e44ad", "HIP"),
    "dummy_hip": ("#c39bd3", "dummy HIP"),
    "cloaked": ("#17202a", "cloaked"),
}


def asl(state: Any, sj: Mapping[str, Any]) -> str:
    layout = state.layout
    used: set[str] = {s.location for s in state.stacks}
    used |= {f.location for f in state.fortifications}
    used |= {m.location for m in state.minefields}
    used |= {loc.id for loc in state.locations}
    used.discard("")
    ring: set[str] = set()
    for hid in used:
        try:
            ring.update(layout.neighbors(hid))
        except (KeyError, ValueError):
            continue
    cells = sorted(used | ring)
    flat = layout.convention.orientation == "flat" if hasattr(layout, "convention") else True
    size = 40.0
    pos: dict[str, tuple[float, float]] = {}
    for hid in cells:
        try:
            h = layout.hex(hid)
        except (KeyError, ValueError):
            continue
        pos[hid] = (size * 1.5 * h.q, size * math.sqrt(3) * (h.r + h.q / 2))
    minx = min(p[0] for p in pos.values()) - size * 1.2
    miny = min(p[1] for p in pos.values()) - size * 1.2 - 24
    maxx = max(p[0] for p in pos.values()) + size * 1.2
    maxy = max(p[1] for p in pos.values()) + size * 1.2
    root = _svg(max(maxx - minx, 660), maxy - miny, "ASL locations", "asl-board")
    shifts = ", ".join(now_counted(state)) or "none"
    closed = ", ".join(now_closed(state)) or "none"
    el(
        root,
        "text",
        {"x": 6, "y": 14, "font-size": 13},
        f"{state.name} · {state.phasing} {state.phase} · shifts this phase: {shifts}"
        f" · closed: {closed}",
    )
    locs = {loc.id: loc for loc in state.locations}
    for hid, (x, y) in pos.items():
        loc = locs.get(hid)
        fill = "#f4f1e1" if hid in used else "#fbfaf4"
        tip = hid + (f" {loc.terrain} TEM {loc.tem:+d}" if loc is not None else "")
        if loc is not None and loc.los:
            tip += " (in enemy LOS)"
        poly = el(
            root,
            "polygon",
            {
                "class": "loc",
                "data-loc": hid,
                "data-pick": hid,
                "points": _hex_points(x - minx, y - miny, size, flat),
                "fill": fill,
                "stroke": "#aaa",
            },
        )
        el(poly, "title", None, tip)
        el(
            root,
            "text",
            {
                "x": x - minx,
                "y": y - miny - size * 0.6,
                "font-size": 11,
                "text-anchor": "middle",
                "fill": "#777",
                "pointer-events": "none",
            },
            hid,
        )
        if loc is not None and (loc.terrain or loc.tem):
            words = f"{loc.terrain or 'TEM'} {loc.tem:+d}" + (" LOS" if loc.los else "")
            el(
                root,
                "text",
                {
                    "class": "terrain",
                    "x": x - minx,
                    "y": y - miny + size * 0.5,
                    "font-size": 11,
                    "text-anchor": "middle",
                    "fill": "#4a3b1f",
                    "pointer-events": "none",
                },
                words,
            )
    mined = {m.location for m in state.minefields}
    forts = {f.location for f in state.fortifications}
    for f in state.fortifications:
        if f.location in pos:
            x, y = pos[f.location]
            el(
                root,
                "text",
                {
                    "class": "fort",
                    "data-fort": f.id,
                    "x": x - minx - (2 if f.location in mined else 0),
                    "y": y - miny + size * 0.78,
                    "text-anchor": "end" if f.location in mined else "middle",
                    "font-size": 11,
                    "fill": "#6e2c00",
                    "data-pick": f.id,
                },
                f"{f.words}{' (hidden)' if f.hidden else ''}",
            )
    for m in state.minefields:
        if m.location in pos:
            x, y = pos[m.location]
            label = f"mines {m.ap}AP/{m.at}AT" if (m.known or m.revealed) else "mines ?"
            el(
                root,
                "text",
                {
                    "class": "mines",
                    "data-mines": m.id,
                    "x": x - minx + (2 if m.location in forts else 0),
                    "y": y - miny + size * 0.78,
                    "text-anchor": "start" if m.location in forts else "middle",
                    "font-size": 11,
                    "fill": "#922b21",
                    "data-pick": m.id,
                },
                label,
            )
    by_loc: dict[str, list[Any]] = {}
    for s in state.stacks:
        by_loc.setdefault(s.location, []).append(s)
    sides = list(state.sides)
    for hid, stacks in by_loc.items():
        if hid not in pos:
            continue
        x, y = pos[hid]
        w, h = (30.0, 26.0) if len(stacks) == 1 else (26.0, 22.0)
        offsets = fan(len(stacks), w, h, size * 1.4)
        for s, (dx, dy) in zip(stacks, offsets, strict=True):
            colour, label = ASL_STATUS.get(str(s.status), ("#666", str(s.status)))
            cx = x - minx + dx - w / 2
            cy = y - miny + dy - h / 2 - size * 0.12
            edge = _side_colour(sides, s.side)
            ti = bool(getattr(s, "ti", False))
            n = len(s.counters) or getattr(s, "dummies", 0)
            g = el(
                root,
                "g",
                {
                    "class": "stack",
                    "data-stack": s.id,
                    "data-loc": hid,
                    "data-status": str(s.status),
                    "data-pick": s.id,
                    "data-count": len(stacks),
                },
            )
            el(
                g,
                "rect",
                {
                    "x": cx,
                    "y": cy,
                    "width": w,
                    "height": h,
                    "rx": 3,
                    "fill": colour,
                    "stroke": edge,
                    "stroke-width": 4 if ti else 2.5,
                    "stroke-dasharray": "4 2" if ti else None,
                },
            )
            text = {"fill": "#fff", "font-weight": 700}
            if s is not stacks[-1]:  # another fanned over it: its name in the uncovered corner
                at = {"x": cx + 1, "y": cy + 10, "font-size": 11, "text-anchor": "start"}
            else:
                at = {
                    "x": cx + w / 2,
                    "y": cy + h / 2 + 4,
                    "font-size": 11,
                    "text-anchor": "middle",
                }
            el(g, "text", {**at, **text}, s.id)
            el(g, "title", None, f"{s.side} {label}{' TI' if ti else ''}: {n} counter(s)")
        if len(stacks) > 1:
            lx, ly = offsets[-1]
            badge(root, x - minx + lx + w / 2, y - miny + ly - h / 2 - size * 0.12, len(stacks))
    return to_text(root)


board = asl


# -- what the board means, and what changed on it -------------------------------------------------
def legend(state: Any) -> list[dict[str, object]]:
    sides = list(state.sides)
    out = [
        legend_entry(
            f"{sd} (stack edge)", fill="#fff", stroke=_side_colour(sides, sd), stroke_width=3
        )
        for sd in state.sides
    ]
    out += [legend_entry(lbl, fill=c, stroke="#111") for c, lbl in ASL_STATUS.values()]
    out += [
        legend_entry(
            "TI: task in progress (dashed edge)",
            fill="#fff",
            stroke="#111",
            stroke_dasharray="4 2",
            stroke_width=3,
        ),
        legend_entry(
            "terrain TEM (LOS: in enemy LOS), written under the hex",
            "rect",
            fill="#f4f1e1",
            stroke="#aaa",
        ),
        legend_entry(
            "n: stacks in one location (each is clickable)", "circle", fill="#fff", stroke="#111"
        ),
    ]
    return out


def _label(status: object) -> str:
    return ASL_STATUS.get(str(status), ("", str(status)))[1]


_HIDDEN = {"potential_dummy", "concealed", "hip", "dummy_hip", "cloaked"}


def _contents(s: Any) -> str:
    """What a stack holds, as the board shows it: names only of revealed units; a count under
    concealment, HIP or cloaking (O'Leary 2.1, 3, 5); the dummies of a known dummy stack."""
    status = str(s.status)
    if status == "dummy":
        return f"{s.dummies} dummy counter(s)"
    if status in _HIDDEN:
        return f"{len(s.counters) or s.dummies} counter(s), hidden"
    return ", ".join(c.name or c.id for c in s.counters) or "-"


def roster(state: Any) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for s in state.stacks:
        marks = [_label(s.status)]
        if s.ti:
            marks.append("TI")
        if s.moved:
            marks.append("moved")
        out.append(
            {
                "id": s.id,
                "side": s.side,
                "name": _contents(s),
                "where": s.location + (f" ({kind_words(s.position)})" if s.position else ""),
                "strength": str(s.size),
                "status": ", ".join(marks),
            }
        )
    return out


def changes(before: Any, after: Any) -> list[str]:
    """What to change on the real board: stacks moved, their concealment, TI, removals."""
    old = {s.id: s for s in before.stacks}
    out: list[str] = []
    for s in after.stacks:
        p = old.get(s.id)
        if p is None:
            out.append(f"place {s.id} ({_label(s.status)}) in {s.location}")
            continue
        bits = []
        if p.location != s.location:
            bits.append(f"move {s.id} from {p.location} to {s.location}")
        if p.status != s.status:
            bits.append(f"{s.id}: {_label(p.status)} -> {_label(s.status)}")
        if s.ti != p.ti:
            bits.append(f"{'place' if s.ti else 'remove'} a TI counter on {s.id}")
        if len(s.counters) != len(p.counters):
            bits.append(f"{s.id} now holds {len(s.counters)} counter(s)")
        if bits:
            out.append("; ".join(bits))
    kept = {s.id for s in after.stacks}
    out += [f"remove {sid} from {old[sid].location}" for sid in old if sid not in kept]
    return out


def now_counted(state: State) -> list[str]:
    """The shifts counted in this phase (2.5: the +1 of later shifts), by side and kind: the
    counts of the player turn's earlier phases are kept too, and bear on nothing now."""
    pk = phase_key(state)
    return [f"{sd} {op}: {n}" for sd, k, op, n in state.counts if k == pk]


def now_closed(state: State) -> list[str]:
    """The kinds of shift closed now (2.5), by side: a window closed in an earlier phase is
    kept too, and closes nothing now unless it is this one (3.3.5: the enemy MPh and the DFPh
    are one window for HIP units)."""
    out = []
    for sd, op, w in state.closed:
        try:
            key = window(state, sd, Op(op)).key
        except ValueError:
            key = w
        if key == w:
            out.append(f"{sd} {op}")
    return out
