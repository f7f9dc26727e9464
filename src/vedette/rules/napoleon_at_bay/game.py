"""The ruleset: initial state from a scenario, events folded by ``apply_event``, the
procedures (move, fix, candidates, end_movement, end_combat) and the text map."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from vedette.dice.check import Odds
from vedette.dice.roll import AnyRoll
from vedette.dice.sources import DiceSource
from vedette.errors import BadRequest, DataError, RuleViolation, VedetteError
from vedette.rules.base import Event, Outcome, Param, Procedure, Request, Ruleset
from vedette.rules.napoleon_at_bay import fixing as fx
from vedette.rules.napoleon_at_bay.model import (
    DATA_PACKAGE,
    MARCHES,
    NabState,
    Piece,
    load_map,
    load_pieces,
    make_config,
    occupancy_of,
)
from vedette.rules.napoleon_at_bay.schema import NabOptions, NabScenario

SEQ = "Napoleon At Bay sequence of play"


# -- state -----------------------------------------------------------------------------------
def initial_state(
    data: Mapping[str, Any], scenario: Mapping[str, Any], options: Mapping[str, Any]
) -> NabState:
    config = make_config(data, scenario, options)
    hexmap = load_map(data, scenario)
    sides = {str(k): str(v) for k, v in dict(scenario.get("sides", {})).items()}
    if len(sides) < 2:
        raise DataError("scenario [sides]", 'two sides are needed, e.g. Fr = "French"')
    sc = dict(scenario.get("scenario", {}))
    first = str(sc.get("first", next(iter(sides))))
    if first not in sides:
        raise DataError("scenario [scenario]", f"first side {first!r} is not a side")
    order = (first, *[s for s in sides if s != first])
    pieces = load_pieces(scenario, hexmap, config, sides)
    st = NabState(
        map=hexmap,
        config=config,
        title=str(sc.get("title", "Napoleon At Bay")),
        sides=sides,
        order=order,
        pieces=pieces,
        occupancy=occupancy_of(pieces),
        turn=int(sc.get("turn", 1)),
        phasing=first,
    )
    return _unfix(st)


def _with_pieces(state: NabState, changed: Sequence[Piece], **kw: Any) -> NabState:
    pieces = dict(state.pieces)
    occ = {h: list(v) for h, v in state.occupancy.items()}
    for p in changed:
        old = state.pieces[p.id]
        for h in old.hexes:
            occ[h].remove(p.id)
            if not occ[h]:
                del occ[h]
        pieces[p.id] = p
    for p in changed:
        for h in p.hexes:
            occ.setdefault(h, []).append(p.id)
    return replace(state, pieces=pieces, occupancy={h: tuple(v) for h, v in occ.items()}, **kw)


def _unfix(state: NabState) -> NabState:
    """Herman (2): a fixed force stays fixed only while it remains adjacent to an enemy
    force."""
    free = [
        replace(p, fixed=False)
        for p in state.pieces.values()
        if p.fixed and not fx.adjacent_to_enemy(state, p)
    ]
    return _with_pieces(state, free) if free else state


def apply_event(state: NabState, event: Event) -> NabState:
    d = event.data
    k = event.kind
    if k == "moved":
        p = state.pieces[str(d["force"])]
        q = replace(
            p,
            hexes=tuple(d["to"]),
            march=d.get("march", "normal"),
            came_from=tuple(d.get("from", p.hexes)),
        )
        st = _with_pieces(state, [q], moving=p.id, moved=state.moved | {p.id})
    elif k == "fixed":
        p = state.pieces[str(d["force"])]
        st = _with_pieces(state, [replace(p, fixed=True)], last=dict(d))
    elif k == "substituted":
        flags = dict(d.get("fixed", {}))
        changed = []
        for c in d["changes"]:
            p = state.pieces[str(c["force"])]
            changed.append(replace(p, hexes=tuple(c["to"]), fixed=bool(flags.get(p.id, p.fixed))))
        st = _with_pieces(state, changed, last=dict(d))
    elif k == "phase":
        phase = str(d["phase"])
        if phase == "movement":
            cleared = [
                replace(p, march=None, came_from=()) for p in state.pieces.values() if p.march
            ]
            st = _with_pieces(
                state,
                cleared,
                phase="movement",
                phasing=str(d["phasing"]),
                turn=int(d["turn"]),
                moving=None,
                moved=frozenset(),
            )
        else:
            st = replace(state, phase="combat", moving=None)
    else:
        raise ValueError(f"unknown napoleon_at_bay event {k!r}")
    return _unfix(st)


# -- helpers ---------------------------------------------------------------------------------
def _hexes(state: NabState, req: Request, key: str, required: bool) -> tuple[str, ...] | None:
    if key not in req or req[key] is None:
        if required:
            raise BadRequest(f"missing '{key}'")
        return None
    digits = 2 * state.map.id_format.digits
    # an id without a letter ("0101") may arrive parsed as a number by the shell
    hs = tuple(
        str(h).zfill(digits) if isinstance(h, int) else str(h).strip().upper()
        for h in req.get_list(key)
    )
    if not hs:
        raise BadRequest(f"'{key}' needs one or more hexes")
    for h in hs:
        if h not in state.map:
            raise BadRequest(f"'{key}': hex {h} is not on the map")
    return hs


def _zoc_entered(state: NabState, p: Piece) -> list[Piece]:
    """The enemy forces whose ZOC the piece entered by its latest move (Herman (1))."""
    hexes, before = set(p.hexes), set(p.came_from)
    out = []
    for q in state.pieces.values():
        if q.side != p.side and state.is_force(q):
            zoc = fx.zoc_of(state, q)
            if hexes & zoc and not before & zoc:
                out.append(q)
    return out


def _fixable(state: NabState, moving: Piece, contact: Piece) -> str | None:
    try:
        fx.check_eligible(state, moving.id, contact.id)
    except RuleViolation as e:
        return str(e)
    return None


# -- procedures ------------------------------------------------------------------------------
def run_move(state: NabState, req: Request, dice: DiceSource) -> Outcome:
    """Move a piece of the phasing side (one call = the whole move of that piece)."""
    p = state.piece(req.get_str("force"))
    to = _hexes(state, req, "to", True)
    assert to is not None
    march = req.get_choice("march", MARCHES, "normal")
    if state.phase != "movement":
        raise RuleViolation(SEQ, "pieces move in the movement phase (now: combat, Herman 5)")
    if p.side != state.phasing:
        raise RuleViolation(
            SEQ, f"{p.id} is {state.side_name(p.side)}: it is not its movement phase"
        )
    if len(to) != len(p.hexes) or len(set(to)) != len(to):
        raise BadRequest(f"{p.id} occupies {len(p.hexes)} hex(es): give as many distinct hexes")
    for i, h in enumerate(to[1:], start=1):
        if not any(state.map.adjacent(h, x) for x in to[:i]):
            raise BadRequest(f"the hexes of a multi-hex force must touch ({h})")
    free = fx._free_for(state, p, {p.id})
    for h in to:
        if not state.map.passable(h):
            raise RuleViolation(
                "terrain", f"{h} is impassable ({state.map.terrain[state.map.index(h)]})"
            )
        if not free(h):
            raise RuleViolation(SEQ, f"{h} holds an enemy piece or a full stack")
    mp = state.map.movement_cost(p.hexes[0], to[0])
    if mp is None:
        raise RuleViolation("terrain", f"no path for {p.id} from {p.hexes[0]} to {to[0]}")
    ev = Event(
        "moved",
        {"force": p.id, "from": list(p.hexes), "to": list(to), "march": march, "mp": str(mp)},
    )
    after = apply_event(state, ev)
    moved = after.pieces[p.id]
    entered = _zoc_entered(after, moved) if state.is_force(p) else []
    lines = [
        f"{p.id} ({p.name}) {'force marches' if march == 'force' else 'moves'}"
        f" {','.join(p.hexes)} -> {','.join(to)} ({mp} MP)"
    ]
    zoc = []
    for q in entered:
        why = _fixable(after, moved, q)
        zoc.append(
            {
                "force": q.id,
                "name": q.name,
                "hexes": list(q.hexes),
                "fixable": why is None,
                "why_not": why,
            }
        )
        hint = (
            f": fix it with 'fix moving={p.id} contact={q.id}'"
            if why is None
            else f" (no fixing: {why})"
        )
        lines.append(f"{p.id} enters the ZOC of {q.id} ({q.name}, {','.join(q.hexes)}){hint}")
    ev = Event("moved", {**ev.data, "zoc_entered": [z["force"] for z in zoc]})
    return Outcome((ev,), (), "; ".join(lines), {"force": p.id, "mp": str(mp), "zoc": zoc})


def run_fix(state: NabState, req: Request, dice: DiceSource) -> Outcome:
    """Herman (1)-(4): fix the contact force's location."""
    moving, contact = fx.check_eligible(
        state, req.get_str("moving"), req.get_str("contact"), req.get_bool("repulse")
    )
    want_array = _hexes(state, req, "array", False)
    want_contact = _hexes(state, req, "contact_to", False)
    cfg = state.config
    draft = cfg.variant == "draft"
    texts = cfg.texts
    chosen = fx.choosable(state, moving, contact)
    base = {
        "moving": moving.id,
        "contact": contact.id,
        "variant": cfg.variant,
        "repulse": req.get_bool("repulse"),
    }
    details: dict[str, Any] = dict(base)
    rolls: list[AnyRoll] = []
    line = ""
    if chosen or cfg.roll_without_candidates:
        # Herman (3): the player rolls a die
        case = fx.drm_case(state, moving, contact)
        roll = fx.fixing_check(state, moving, contact).resolve(dice)
        rolls.append(roll)
        line = fx.bare_line(roll)  # type: ignore[arg-type]
        details.update(drm_case=case.number, drm_text=case.text, roll=roll.to_json())
        if roll.row == "stays":
            msg = f"{line}, " + texts.get("text_stays", "{contact} remains in hex").format(
                contact=contact.name
            )
            ev = Event("fixed", {**base, "force": contact.id, "result": "stays"})
            return Outcome(
                (ev,),
                tuple(rolls),
                msg,
                {
                    **details,
                    "result": "stays",
                    "chosen": None,
                    "changes": [],
                    "hexes": {},
                    "fixed": {contact.id: True},
                },
            )
    if not chosen:
        # Herman (4): none in range, or none that can legally take the contact force's place
        # ("do something reasonable"): the contact force is fixed where it is
        in_range = [p.id for p in fx.candidates_in_range(state, contact)]
        result = "no_legal_candidate" if in_range else "no_candidate"
        msg = texts.get(f"text_{result}", "{contact} remains in hex").format(
            contact=contact.name, range=cfg.support_range, forces=", ".join(in_range)
        )
        if rolls:
            msg = f"{line}, {msg}"
            # the table's 4-6 text promises a substitution: say what really happens
            rolls[0] = replace(rolls[0], consequence=msg[len(line) + 2 :])
            details["roll"] = rolls[0].to_json()
        ev = Event("fixed", {**base, "force": contact.id, "result": result})
        return Outcome(
            (ev,),
            tuple(rolls),
            msg,
            {
                **details,
                "result": result,
                "chosen": None,
                "in_range": in_range,
                "changes": [],
                "hexes": {},
                "fixed": {contact.id: True},
            },
        )
    tie = fx.tie_check(chosen, draft)
    if tie is not None:
        tr = tie.resolve(dice)
        rolls.append(tr)
        support = state.pieces[str(tr.row)]
    else:
        support = chosen[0]
    arrays = fx.support_arrays(state, moving, contact, support)
    notes = []
    sa = arrays[0]
    if want_array is not None:
        if want_array in arrays:
            sa = want_array
        else:
            notes.append(
                f"array {','.join(want_array)} is not legal for {support.id}; {','.join(sa)} used"
            )
    carr = fx.contact_arrays(state, contact, support, sa)
    ca = carr[0]
    if want_contact is not None:
        if want_contact in carr:
            ca = want_contact
        else:
            notes.append(
                f"{','.join(want_contact)} is not legal for {contact.id}; {','.join(ca)} used"
            )
    names = {"contact": contact.name, "support": support.name, "mover": moving.side}
    if len(sa) == 1:
        text = texts.get("text_switch", "{contact} and {support} switch places").format(**names)
    elif len(sa) == 2:
        text = texts.get("text_switch_multi", "{contact} and {support} switch places").format(
            hex=sa[0], other=sa[1], **names
        )
    else:
        text = texts.get("text_switch_many", "{contact} and {support} switch places").format(
            hexes=", ".join(sa), **names
        )
    changes = [
        {"force": support.id, "from": list(support.hexes), "to": list(sa)},
        {"force": contact.id, "from": list(contact.hexes), "to": list(ca)},
    ]
    flags = {support.id: cfg.substitute_is_fixed, contact.id: False}
    ev = Event("substituted", {**base, "support": support.id, "changes": changes, "fixed": flags})
    msg = f"{line}, {text}" + "".join(f" [{n}]" for n in notes)
    # every hex whose contents changed, with the pieces in it afterwards
    after = apply_event(state, ev)
    touched = sorted({h for c in changes for h in (*c["from"], *c["to"])})
    hexes = {h: list(after.occupancy.get(h, ())) for h in touched}
    return Outcome(
        (ev,),
        tuple(rolls),
        msg,
        {
            **details,
            "result": "substitution",
            "chosen": support.id,
            "changes": changes,
            "hexes": hexes,
            "fixed": flags,
            "arrays": [list(a) for a in arrays],
            "contact_arrays": [list(a) for a in carr],
            "candidates": [p.id for p in chosen],
        },
    )


def odds_fix(state: NabState, req: Request) -> list[Odds]:
    moving, contact = fx.check_eligible(
        state, req.get_str("moving"), req.get_str("contact"), req.get_bool("repulse")
    )
    return fx.all_odds(state, moving, contact)


def run_candidates(state: NabState, req: Request, dice: DiceSource) -> Outcome:
    """Query: the supporting forces in range of a contact force, closest in MP first."""
    contact = state.piece(req.get_str("contact"))
    mid = req.get_opt_str("moving")
    moving = state.piece(mid) if mid else None
    lines: list[str] = []
    rows: list[dict[str, Any]] = []
    eligible = None
    if moving is not None:
        eligible = _fixable(state, moving, contact)
    cands = fx.candidates_in_range(state, contact)
    for mp, tier in fx.mp_tiers(state, contact, cands):
        for p in tier:
            away = min(state.map.distance(a, b) for a in p.hexes for b in contact.hexes)
            arrays = fx.support_arrays(state, moving, contact, p) if moving is not None else []
            rows.append(
                {
                    "force": p.id,
                    "name": p.name,
                    "hexes": list(p.hexes),
                    "mp": None if mp is None else str(mp),
                    "hexes_away": away,
                    "arrays": [list(a) for a in arrays],
                }
            )
            mps = "beyond MP limit" if mp is None else f"{mp} MP"
            lines.append(f"{p.id} ({p.name}) at {','.join(p.hexes)}: {mps}, {fx.hexes_text(away)}")
    if not rows:
        lines.append(
            f"no supporting force within {state.config.support_range} hexes of {contact.id}"
        )
    odds: tuple[Odds, ...] = ()
    if moving is not None and eligible is None:
        odds = tuple(fx.all_odds(state, moving, contact))
        lines += [ln for o in odds for ln in o.lines()]
    elif eligible:
        lines.append(f"not eligible: {eligible}")
    return Outcome(
        (),
        (),
        "\n".join(lines),
        {"contact": contact.id, "candidates": rows, "eligible": eligible},
        odds,
    )


def run_end_movement(state: NabState, req: Request, dice: DiceSource) -> Outcome:
    if state.phase != "movement":
        raise RuleViolation(SEQ, "the movement phase is already over")
    ev = Event("phase", {"phase": "combat", "phasing": state.phasing, "turn": state.turn})
    fixed = [p.id for p in state.pieces.values() if p.fixed]
    pending = _pending_fixings(state)
    msg = (
        f"combat phase of {state.side_name(state.phasing)}: resolve combat"
        f" with the series rules (Herman 5); fixed: {', '.join(fixed) or 'none'}"
    )
    if pending:
        # Herman (5): combat follows *all* movement and fixing; not refused (the text lets
        # players circumvent it), but said
        msg += "; not fixed although a moving force entered its ZOC: " + ", ".join(
            f"{c} (by {m})" for m, c in pending
        )
    return Outcome(
        (ev,),
        (),
        msg,
        {
            "fixed": fixed,
            "unfixed_contacts": [{"moving": m, "contact": c} for m, c in pending],
        },
    )


def _pending_fixings(state: NabState) -> list[tuple[str, str]]:
    """(moving, contact) pairs that could still be fixed (Herman (1)): a moving force entered
    the ZOC of an eligible contact force and no fixing has been made."""
    out = []
    for mid in sorted(state.moved):
        m = state.pieces[mid]
        if not state.is_force(m):
            continue
        for q in state.pieces.values():
            entered = q.side != m.side and state.is_force(q) and set(m.hexes) & fx.zoc_of(state, q)
            if entered and _fixable(state, m, q) is None:
                out.append((m.id, q.id))
    return out


def run_end_combat(state: NabState, req: Request, dice: DiceSource) -> Outcome:
    if state.phase != "combat":
        raise RuleViolation(SEQ, "end the movement phase first")
    i = state.order.index(state.phasing)
    nxt = state.order[(i + 1) % len(state.order)]
    turn = state.turn + (1 if nxt == state.order[0] else 0)
    ev = Event("phase", {"phase": "movement", "phasing": nxt, "turn": turn})
    return Outcome((ev,), (), f"turn {turn}: movement phase of {state.side_name(nxt)}")


# -- rendering -------------------------------------------------------------------------------
def render(state: NabState) -> str:
    m = state.map
    cols = sorted({m.id_format.parse(h)[0] for h in m.ids})
    rows = sorted({m.id_format.parse(h)[1] for h in m.ids})
    w = 6
    out = [
        f"{state.title} - turn {state.turn}, {state.side_name(state.phasing)} "
        f"{state.phase} phase ({state.config.series} series, support range "
        f"{state.config.support_range} hexes, {state.config.variant} rules)"
    ]
    out.append("    " + "".join(f"{c:^{w}}" for c in cols))

    def cell(h: str) -> str:
        if h not in m:
            return " " * w
        ids = state.occupancy.get(h, ())
        if ids:
            txt = "+".join(ids) + ("!" if any(state.pieces[i].fixed for i in ids) else "")
        else:
            txt = m.terrain_kinds[m.terrain[m.index(h)]].symbol
            if h in roads:
                txt += "="
        return f"{txt[: w - 1]:^{w}}"

    roads = {
        m.ids[i]
        for (a, b), feats in m.hexside_features.items()
        if any(m.hexside_kinds[f].road for f in feats)
        for i in (a, b)
    }

    shifted = 0 if m.convention.shifted == "even" else 1
    for r in rows:
        if m.convention.orientation == "flat":
            # shifted columns sit half a hex lower: print them on a second line
            for half in (1 - shifted, shifted):
                cells = [cell(m.id_format.format(c, r)) if c % 2 == half else " " * w for c in cols]
                prefix = f"{r:>3} " if half != shifted else "    "
                out.append((prefix + "".join(cells)).rstrip())
        else:
            indent = " " * (w // 2) if r % 2 == shifted else ""
            cells = [cell(m.id_format.format(c, r)) for c in cols]
            out.append((f"{r:>3} " + indent + "".join(cells)).rstrip())
    out.append(
        "terrain: "
        + ", ".join(f"{k.symbol} {k.name}" for k in m.terrain_kinds.values())
        + "; = road; ! fixed"
    )
    for p in state.pieces.values():
        flags = []
        if p.fixed:
            flags.append("fixed")
        if p.march:
            flags.append(f"moved ({p.march} march)")
        units = []
        if p.infantry:
            units.append(f"{p.infantry} Inf")
        if p.cavalry:
            units.append(f"{p.cavalry} Cav")
        if p.vedettes:
            units.append(f"{p.vedettes} Vedette")
        units += p.generals
        kind = "" if p.kind == "force" else f" [{p.kind.replace('_', ' ')}]"
        where = ", ".join(m.label(h) for h in p.hexes)
        out.append(
            f"  {p.id:<4} {p.side} {p.name}{kind}: {where}; {', '.join(units) or '-'}"
            + (f" ({'; '.join(flags)})" if flags else "")
        )
    return "\n".join(out)


def state_json(state: NabState) -> dict[str, Any]:
    return {
        "title": state.title,
        "turn": state.turn,
        "phasing": state.phasing,
        "phase": state.phase,
        "moving": state.moving,
        "moved": sorted(state.moved),
        "config": state.config.to_json(),
        "sides": dict(state.sides),
        "map": {"name": state.map.name, "hexes": len(state.map)},
        "pieces": [p.to_json() for p in state.pieces.values()],
        "last": dict(state.last),
    }


class NapoleonAtBay(Ruleset[NabState]):
    name = "napoleon_at_bay"
    aliases = ("nab",)
    title = "Napoleon At Bay solitaire system (Mark Herman)"
    data_package = DATA_PACKAGE
    data_files = ("rules.toml",)
    options_model = NabOptions
    scenario_model = NabScenario
    #: the events ``apply_event`` folds (an import naming another kind is refused)
    event_kinds = ("moved", "fixed", "substituted", "phase")

    def __init__(self) -> None:
        self.scenarios = {
            "sample": "sample.toml",
            "example1": "example1.toml",
            "example2": "example2.toml",
            "example3": "example3.toml",
            "example4": "example4.toml",
        }
        P = Param
        self.procedures = {
            "move": Procedure(
                "move",
                run_move,
                "move a piece (records ZOC entry and march)",
                (
                    P("force", "the piece", "str", True),
                    P("to", 'destination hex(es): W2020 or ["W2020","W2021"]', "list", True),
                    P("march", "normal (default), command, initiative or force", "str"),
                ),
                rule=SEQ,
            ),
            "fix": Procedure(
                "fix",
                run_fix,
                "'fixing' a contact force's location",
                (
                    P("moving", "the moving force", "str", True),
                    P("contact", "the contact force", "str", True),
                    P("repulse", "a force-marching repulse", "bool"),
                    P("array", "hexes for a multi-hex supporting force (owner's choice)", "list"),
                    P("contact_to", "hex(es) for the contact force (owner's choice)", "list"),
                ),
                odds=odds_fix,
                rule="Herman (1)-(4)",
            ),
            "candidates": Procedure(
                "candidates",
                run_candidates,
                "supporting forces in range, closest in MP first",
                (
                    P("contact", "the contact force", "str", True),
                    P("moving", "the moving force (for odds and arrays)", "str"),
                ),
                query=True,
                rule="Herman (1), (4)",
            ),
            "end_movement": Procedure(
                "end_movement",
                run_end_movement,
                "end movement: the combat phase follows",
                rule="Herman (5)",
            ),
            "end_combat": Procedure(
                "end_combat", run_end_combat, "end combat: the next side moves", rule=SEQ
            ),
        }

    def initial_state(self, scenario: Mapping[str, Any], options: Mapping[str, Any]) -> NabState:
        return initial_state(self.data(options.get("house_rules")), scenario, options)

    def apply(self, state: NabState, event: Event) -> NabState:
        return apply_event(state, event)

    def render(self, state: NabState) -> str:
        return render(state)

    def state_json(self, state: NabState) -> dict[str, Any]:
        return state_json(state)


__all__ = ["NapoleonAtBay", "VedetteError", "apply_event", "initial_state"]
