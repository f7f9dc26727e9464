"""The game as text and as JSON."""

from __future__ import annotations

from typing import Any

from vedette.rules.solitaire_asl.model import Stack, State, Status, kind_words
from vedette.rules.solitaire_asl.turn import game_turn, phase_title

_STATUS = {
    Status.POTENTIAL_DUMMY: "potential dummy",
    Status.DUMMY: "dummy",
    Status.CONCEALED: "concealed",
    Status.REVEALED: "revealed",
    Status.HIP: "HIP",
    Status.DUMMY_HIP: "dummy HIP",
    Status.CLOAKED: "cloaked",
}


def stack_text(s: Stack, waiting: dict[str, str] | None = None) -> str:
    """One stack as a line; ``waiting``: weapon id -> scattered hex awaiting the player."""
    if s.status == Status.DUMMY:
        what = f"{s.dummies} ?"
    elif s.status == Status.DUMMY_HIP:
        what = "dummy HIP counter"
    elif s.status == Status.CLOAKED and not s.counters:
        what = "dummy cloaking counter"
    else:
        bits = []
        for c in s.counters:
            t = c.name
            if c.kind == "vehicle" and c.mp is not None:
                t += f" [{c.mp_used}/{c.mp} MP]"
            if c.emplaced:
                t += " [emplaced]"
            if c.settings:
                t += f" [{c.settings}]"
            if c.boresight == "eligible" and (waiting or {}).get(c.id):
                t += f" [bore sight: {(waiting or {})[c.id]}? decide first]"
            elif c.boresight == "eligible":
                t += " [bore sight: undetermined]"
            elif c.boresight_location is not None:
                t += f" [bore sighted: {c.boresight_location}]"
            bits.append(t)
        what = ", ".join(bits)
    pos = f" ({kind_words(s.position)})" if s.position else ""
    ti = " TI" if s.ti else ""
    return f"{s.id:<6} {s.side:<10} {s.location}{pos:<12} {_STATUS[s.status]:<16}{ti} {what}"


def render_state(state: State) -> str:
    if state.phase == "setup":
        head = f"{state.name}: set-up ({state.first} moves first)"
    else:
        head = f"{state.name}: {phase_title(state)}"
        if state.acted:
            head += " (under way)"
    flags = []
    if state.night:
        flags.append("night")
    if state.lv:
        flags.append("LV hindrance")
    if state.extra_drm:
        flags.append(f"shift DRM {state.extra_drm:+d}")
    if flags:
        head += " [" + ", ".join(flags) + "]"
    out = [head, "", "Stacks:"]
    waiting = {i: h for k, i, h in state.pending if k == "boresight"}
    out += ["  " + stack_text(s, waiting) for s in state.stacks]
    if state.fortifications:
        out += ["", "Fortifications:"]
        for f in state.fortifications:
            extra = f" exit {f.exit or 'to choose'}" if f.kind == "tunnel" else ""
            out.append(
                f"  {f.id:<6} {f.side:<10} {f.words} in {f.location or '-'} TEM {f.tem:+d}"
                f" {'hidden' if f.hidden else 'revealed'}{extra}"
            )
    if state.minefields:
        out += ["", "Minefields:"]
        for m in state.minefields:
            if m.revealed:
                label = f"revealed: {m.strength}"
            else:
                label = f"{'known' if m.known else 'hidden'}: strength face down"
            out.append(f"  {m.id:<6} {m.side:<10} {m.location} {label}")
    if state.oba:
        out += ["", "OBA:"]
        for o in state.oba:
            pre = f"pre-registered hex {o.location or 'undetermined'}" if o.prereg else ""
            out.append(f"  {o.id:<6} {o.side:<10} {pre}")
    if state.locations:
        out += ["", "Locations:"]
        for loc in state.locations:
            bits = [f"TEM {loc.tem:+d}"]
            if loc.terrain:
                bits.insert(0, loc.terrain)
            if loc.los:
                bits.append("enemy LOS")
            if loc.lv:
                bits.append("LV")
            if not loc.concealment_terrain:
                bits.append("not concealment terrain")
            out.append(f"  {loc.id:<8} {', '.join(bits)}")
    out += ["", "Allotments:"]
    for a in state.allotments:
        out.append(
            f"  {a.side}: dummy HIP {a.dummy_hip_placed}/{a.dummy_hip},"
            f" dummy minefields {a.dummy_minefields_placed}/{a.dummy_minefields}"
        )
        out += [f"    {e}" for e in a.explain]
    if state.closed:
        out += ["", "Shifting over:"]
        out += [f"  {side} {op} ({w})" for side, op, w in state.closed]
    if state.owed:
        # in words, as a player reads it on the command line and in the web's text view
        # alike (``todo`` and the Next panel give each step: its command, its form, its waive)
        out += ["", "Owed now (answered before anything else):"]
        out += [f"  {o.text} ({o.rule}){OWED_WORDS.get(o.procedure, '')}" for o in state.owed]
    return "\n".join(out)


#: what each kind of owed step asks of the player, after its words (6.1, 7.1: the player's
#: word on a scattered hex; 4.6.2: the exchange of the entered minefield, or not; 4.4.2: the
#: tunnel's other exit)
OWED_WORDS = {
    "decide": ": yes or no",
    "minefield": ": with which minefield, or declined",
    "fort": ": where",
}


def state_json(state: State) -> dict[str, Any]:
    return {
        "name": state.name,
        "sides": list(state.sides),
        "phase": state.phase,
        "phasing": state.phasing,
        "player_turn": state.player_turn,
        "turn": game_turn(state),
        "acted": state.acted,
        "night": state.night,
        "extra_drm": state.extra_drm,
        "lv": state.lv,
        "layout": state.layout.to_json(),
        "stacks": [s.to_json() for s in state.stacks],
        "fortifications": [f.to_json() for f in state.fortifications],
        "minefields": [m.to_json() for m in state.minefields],
        "oba": [o.to_json() for o in state.oba],
        "locations": [loc.to_json() for loc in state.locations],
        "allotments": [a.to_json() for a in state.allotments],
        "shifts_counted": [list(c) for c in state.counts],
        "closed": [list(c) for c in state.closed],
        "pending": [list(p) for p in state.pending],
        "owed": [o.to_json() for o in state.owed],
        "phase_title": phase_title(state),
    }
