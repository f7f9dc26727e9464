"""Deferred decisions (O'Leary 6, 7): a bore-sighted location and a pre-registered hex are not
chosen at set-up; an extra die decides them later.

* 6.1: each time an eligible weapon fires, a third die: 1-2 the target location becomes its
  bore-sighted location for good; 3-5 still undetermined; 6 a direction die and a distance die
  give a hex that becomes it if that weapon could bore sight it (the player says), else still
  undetermined. 6.2: optional. 6.3: weapons grouped before the roll share one die.
* 7.1: the same after an AR is placed for an OBA module whose pre-registered hex is still
  undetermined; the AR may not be shifted after that die. 7.2: optional.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from vedette.dice import Check, DiceSource, Odds, Roll, Table, odds_from_weights
from vedette.dice.dist import expression_weights
from vedette.dice.notation import parse_expression
from vedette.errors import BadRequest, RuleViolation
from vedette.rules.base import Outcome, Request
from vedette.rules.solitaire_asl.fold import Patch
from vedette.rules.solitaire_asl.model import Counter, State


def _weapons(state: State, req: Request) -> list[Counter]:
    refs = [str(x) for x in req.get_list("weapons")]
    if not refs:
        raise BadRequest("missing 'weapons' (or 'weapon')")
    out = []
    for r in refs:
        hit = state.counter(r)
        if hit is None:
            raise BadRequest(f"no counter {r!r} (name weapons by counter id)")
        c = hit[1]
        if c.boresight_location is not None:
            raise RuleViolation(
                "O'Leary 6.1", f"{c.name} ({c.id}) already has its bore-sighted location"
            )
        if c.boresight != "eligible":
            why = "lost it" if c.boresight == "lost" else "is not allowed to bore sight"
            raise RuleViolation("O'Leary 6.1", f"{c.name} ({c.id}) {why}")
        out.append(c)
    return out


def boresight_check(
    state: State, req: Request, tables: Mapping[str, Table]
) -> tuple[list[Counter], str, Check]:
    ws = _weapons(state, req)
    target = req.get_str("target")
    state.layout.hex(target)  # a hex id on the scenario's boards
    names = ", ".join(f"{c.name} ({c.id})" for c in ws)
    t = tables["boresight"]
    return (
        ws,
        target,
        Check(t.dice or "1d6", (), t, f"bore sight die for {names} at {target}", t.rule),
    )


def prereg_check(state: State, req: Request, tables: Mapping[str, Table]) -> tuple[str, str, Check]:
    mid = req.get_str("module")
    m = next((o for o in state.oba if o.id == mid), None)
    if m is None:
        raise BadRequest(f"no OBA module {mid!r}")
    if not m.prereg:
        raise RuleViolation("O'Leary 7.1", f"OBA module {mid} has no pre-registered hex")
    if m.location is not None:
        raise RuleViolation("O'Leary 7.1", f"OBA module {mid} already has its pre-registered hex")
    ar = req.get_str("ar")
    state.layout.hex(ar)
    t = tables["prereg"]
    return (
        mid,
        ar,
        Check(t.dice or "1d6", (), t, f"pre-registration die for {mid} (AR {ar})", t.rule),
    )


def scatter_odds(data: Mapping[str, Any], rule: str) -> list[Odds]:
    """Exact odds of the direction die and the distance die thrown on a 6 (6.1, 7.1)."""
    sc = data.get("scatter", {})
    dirs = {int(k): str(v) for k, v in sc.get("directions", {}).items()}
    out = []
    for key, what in (("direction_die", "direction die"), ("distance_die", "distance die")):
        expr = str(sc.get(key, "1d6"))
        w = expression_weights(parse_expression(expr))
        describe = (
            {v: f"{v} = {dirs.get(v, 'no direction')}" for v in w}
            if key == "direction_die"
            else {v: f"{v} hex{'es' if v != 1 else ''}" for v in w}
        )
        o = odds_from_weights(f"{what} (thrown on a 6)", w, describe, rule)
        out.append(replace(o, expression=expr))
    return out


def scatter(
    state: State, origin: str, dice: DiceSource, data: Mapping[str, Any]
) -> tuple[list[Roll], str | None, str]:
    """The direction die and the distance die (6.1, 7.1): the hex they give, or None."""
    sc = data.get("scatter", {})
    dirs = {int(k): str(v) for k, v in sc.get("directions", {}).items()}
    rd = Check(str(sc.get("direction_die", "1d6")), (), None, "direction die").resolve(dice)
    rn = Check(str(sc.get("distance_die", "1d6")), (), None, "distance die").resolve(dice)
    assert isinstance(rd, Roll) and isinstance(rn, Roll)
    name = dirs.get(rd.final)
    if name is None:
        raise BadRequest(f"no direction for a direction die of {rd.final} in the scatter data")
    hexid = state.layout.neighbor(origin, name, rn.final)
    return [rd, rn], hexid, f"{rn.final} hex{'es' if rn.final > 1 else ''} {name} of {origin}"


def _deferred_die(
    state: State,
    req: Request,
    dice: DiceSource,
    check: Check,
    target: str,
    data: Mapping[str, Any],
    ask: str,
    refused: str,
) -> tuple[Roll, list[Roll], str | None, str | None, str]:
    """The die of 6.1/7.1: 1-2 this location, 3-5 undetermined, 6 a direction and a distance
    die give a candidate hex the player must accept (``candidate_ok``) or decide later.

    Returns (the die, every roll, the location now determined or None, a candidate awaiting
    the player's word or None, the message)."""
    r = check.resolve(dice)
    assert isinstance(r, Roll)
    rolls = [r]
    hit: str | None = None
    waiting: str | None = None
    msg = r.consequence or ""
    if r.row == "here":
        hit = target
    elif r.row == "scatter":
        more, hexid, where = scatter(state, target, dice, data)
        rolls += more
        if hexid is None:
            msg = f"{where} is off the boards: still undetermined"
        elif req.get_opt_str("candidate_ok") is None:
            waiting = hexid
            msg = f"{where} is {hexid}: {ask}"
        elif req.get_bool("candidate_ok"):
            hit = hexid
        else:
            msg = f"{hexid} {refused}: still undetermined"
    return r, rolls, hit, waiting, msg


def run_boresight(
    state: State,
    req: Request,
    dice: DiceSource,
    tables: Mapping[str, Table],
    data: Mapping[str, Any],
) -> Outcome:
    ws, target, check = boresight_check(state, req, tables)
    if not req.get_bool("roll", True):
        return Outcome(message="no bore sight die thrown (6.2): still undetermined")
    names = ", ".join(c.name for c in ws)
    r, rolls, hit, waiting, msg = _deferred_die(
        state,
        req,
        dice,
        check,
        target,
        data,
        f"could {names} bore sight a location there? answer with"
        f" 'decide id={ws[0].id} ok=true|false'",
        "could not be bore sighted",
    )
    p = Patch()
    if waiting is not None:
        for c in ws:
            p.pending("boresight", c.id, waiting)
    if hit is not None:
        for c in ws:
            stack, _ = state.counter(c.id) or (None, None)
            assert stack is not None
            cs = tuple(
                replace(x, boresight_location=hit) if x.id == c.id else x for x in stack.counters
            )
            state = state.with_stack(replace(stack, counters=cs))
            p.put_stack(state.stack(stack.id))  # type: ignore[arg-type]
        msg = f"{hit} is now the bore-sighted location of {', '.join(c.name for c in ws)}"
    return Outcome(
        (p.event("boresight", weapons=[c.id for c in ws], target=target, row=r.row),),
        tuple(rolls),
        msg,
        {"row": r.row, "boresight_location": hit, "weapons": [c.id for c in ws]},
        (check.odds(),),
    )


def run_prereg(
    state: State,
    req: Request,
    dice: DiceSource,
    tables: Mapping[str, Table],
    data: Mapping[str, Any],
) -> Outcome:
    mid, ar, check = prereg_check(state, req, tables)
    m = next(o for o in state.oba if o.id == mid)
    if not req.get_bool("roll", True):
        return Outcome(message="no pre-registration die thrown (7.2): still undetermined")
    r, rolls, hit, waiting, msg = _deferred_die(
        state,
        req,
        dice,
        check,
        ar,
        data,
        f"could {mid} pre-register it? answer with 'decide id={mid} ok=true|false'",
        "could not be pre-registered",
    )
    p = Patch()
    if waiting is not None:
        p.pending("prereg", mid, waiting)
    if hit is not None:
        msg = f"{hit} is now the pre-registered hex of {mid}"
    p.put_oba(replace(m, location=hit, ar=ar))
    msg += f"; the AR in {ar} may no longer be shifted (7.1)"
    return Outcome(
        (p.event("prereg", module=mid, ar=ar, row=r.row),),
        tuple(rolls),
        msg,
        {"row": r.row, "prereg": hit, "module": mid},
        (check.odds(),),
    )


def run_decide(state: State, req: Request) -> Outcome:
    """The player's word on a candidate hex from a direction and distance die (6.1, 7.1)."""
    ident = req.get_str("id")
    pend = [x for x in state.pending if x[1] == ident]
    if not pend:
        raise BadRequest(f"nothing is waiting for a decision about {ident!r}")
    kind, _, hexid = pend[0]
    ok = req.get_bool("ok")
    p = Patch().resolve_pending(kind, ident)
    if kind == "boresight":
        hit = state.counter(ident)
        assert hit is not None
        stack, c = hit
        if ok:
            cs = tuple(
                replace(x, boresight_location=hexid) if x.id == ident else x for x in stack.counters
            )
            p.put_stack(replace(stack, counters=cs))
            msg = f"{hexid} is now the bore-sighted location of {c.name} ({ident})"
        else:
            msg = f"{c.name} ({ident}): still undetermined"
    else:
        m = next(o for o in state.oba if o.id == ident)
        if ok:
            p.put_oba(replace(m, location=hexid))
            msg = f"{hexid} is now the pre-registered hex of {ident}"
        else:
            msg = f"{ident}: pre-registered hex still undetermined"
    return Outcome((p.event("decide", id=ident, ok=ok),), (), msg)
