"""Deferred decisions (O'Leary 6, 7): a bore-sighted location and a pre-registered hex are not
chosen at set-up; an extra die decides them later.

* 6.1: each time an eligible weapon fires, a third die: 1-2 the target location becomes its
  bore-sighted location for good; 3-5 still undetermined; 6 a direction die and a distance die
  give a hex that becomes it if that weapon could bore sight it (the player says), else still
  undetermined. 6.2: optional. 6.3: weapons grouped before the roll share one die.
* 7.1: the same after an AR is placed for an OBA module whose pre-registered hex is still
  undetermined; the AR may not be shifted after that die. 7.2: optional.

When the player does not say at once whether the scattered hex could be used
(``candidate_ok``), each weapon (module) *owes* a ``decide`` (an obligation in ``State.owed``):
it may not roll its die again until it is answered (or waived), so a later shot can never
overtake the decision, and a location once determined never changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from vedette.dice import Check, DiceSource, Roll, Table, table_from_data
from vedette.dice.dist import expression_weights
from vedette.dice.notation import parse_expression
from vedette.dice.sources import DiceNeeded
from vedette.errors import BadRequest, RuleViolation
from vedette.rules.base import Outcome
from vedette.rules.protocol import Obligation, Plan
from vedette.rules.solitaire_asl.config import Config
from vedette.rules.solitaire_asl.events import BoardChanges
from vedette.rules.solitaire_asl.model import Counter, ObaModule, Stack, State
from vedette.rules.solitaire_asl.requests import BoresightRequest, DecideRequest, PreregRequest


def owed_for(state: State, what: str, ident: str) -> Obligation | None:
    return next((o for o in state.owed if o.id == f"{what}:{ident}"), None)


def _owed_first(o: Obligation, what: str, ident: str, label: str) -> RuleViolation:
    return RuleViolation(
        o.rule,
        f"{label} waits for your word on {o.request['hex']}: answer first with"
        f" 'decide id={ident} ok=true|false' (or waive it: 'waive {o.id}')",
    )


def fires(state: State, side: str) -> bool:
    """Whether ``side``'s weapons fire in the phase (``[fire_phases]``, reading A36)."""
    who = state.config.fire_phases.get(state.phase)
    return who is not None and who != ("other" if side == state.phasing else "phasing")


def find_counter(state: State, ref: str, what: str = "counter") -> tuple[Stack, Counter]:
    """A counter by id, or by its name when one counter has it."""
    hit = state.counter(ref)
    if hit is not None:
        return hit
    named = [(s, c) for s in state.stacks for c in s.counters if c.name == ref]
    if len(named) == 1:
        return named[0]
    if len(named) > 1:
        ids = ", ".join(c.id for _, c in named)
        raise BadRequest(f"several counters are called {ref!r} ({ids}): name one by id")
    raise BadRequest(f"no {what} {ref!r}")


def _weapons(state: State, refs: Sequence[str]) -> list[Counter]:
    if not refs:
        raise BadRequest("missing 'weapons'")
    out = []
    where: set[tuple[str, str]] = set()
    for r in refs:
        st, c = find_counter(state, str(r), "weapon")
        if st.ti and state.config.flow.ti_binds:
            raise RuleViolation(
                "O'Leary 2.5",
                f"{c.name} ({c.id}) is in {st.id}, TI until the end of the player turn: it does"
                " not fire",
            )
        if not fires(state, st.side):
            # 6.1: the third die is thrown "each time that unit fires" ([fire_phases])
            when = "at set-up" if state.phase == "setup" else f"in the {state.phase}"
            raise RuleViolation(
                "O'Leary 6.1",
                f"{c.name} ({c.id}): {st.side} weapons do not fire {when} (ASL A3): its"
                " bore-sight die is thrown when it fires",
            )
        where.add((st.side, st.location))
        if len(where) > 1:
            # 6.3: weapons share one die only within one firing stack
            raise RuleViolation(
                "O'Leary 6.3",
                "weapons share a bore-sight die only when they fire from one stack: "
                + ", ".join(f"{side} in {loc}" for side, loc in sorted(where)),
            )
        label = f"{c.name} ({c.id})"
        o = owed_for(state, "boresight", c.id)
        if o is not None:
            raise _owed_first(o, "boresight", c.id, label)
        if c.boresight_location is not None:
            raise RuleViolation(
                "O'Leary 6.1",
                f"{label} already has its bore-sighted location {c.boresight_location} (for good)",
            )
        if c.boresight != "eligible":
            why = "lost it (2.3)" if c.boresight == "lost" else "is not allowed to bore sight"
            raise RuleViolation("O'Leary 6.1", f"{label} {why}")
        if c in out:
            raise BadRequest(f"{label} is named twice")
        out.append(c)
    return out


def scatter_checks(config: Config, rule: str) -> tuple[Check, Check]:
    """The direction die and the distance die thrown on a 6 (6.1, 7.1), each read on a small
    table that names its faces (so their odds say what each face means)."""
    sc = config.scatter
    dirs = sc.directions
    out = []
    for key, what, expr in (
        ("direction_die", "direction die", sc.direction_die),
        ("distance_die", "distance die", sc.distance_die),
    ):
        faces = sorted(expression_weights(parse_expression(expr)))
        rows = [
            {
                "range": str(v),
                "key": str(v),
                "result": f"{v} = {dirs.get(v, 'no direction')}"
                if key == "direction_die"
                else f"{v} hex{'es' if v != 1 else ''}",
            }
            for v in faces
        ]
        t = table_from_data(key, {"rows": rows}, "solitaire_asl scatter")
        out.append(Check(expr, (), t, f"{what} (thrown on a 6)", rule))
    return out[0], out[1]


@dataclass(frozen=True)
class DeferredPlan:
    """What a bore-sight or pre-registration die concerns."""

    what: str  # boresight | prereg
    target: str
    weapons: tuple[Counter, ...] = ()
    module: ObaModule | None = None


def plan_boresight(
    state: State, req: BoresightRequest, tables: Mapping[str, Table], config: Config
) -> Plan:
    ws = _weapons(state, req.weapons)
    target = req.target
    state.layout.hex(target)  # a hex id on the scenario's boards
    names = ", ".join(f"{c.name} ({c.id})" for c in ws)
    t = tables["boresight"]
    die = Check(t.dice, (), t, f"bore sight die for {names} at {target}", t.rule)
    steps = (die, *scatter_checks(config, "O'Leary 6.1")) if req.roll else ()
    return Plan(req, steps, DeferredPlan("boresight", target, tuple(ws)))


def plan_prereg(
    state: State, req: PreregRequest, tables: Mapping[str, Table], config: Config
) -> Plan:
    m = next((o for o in state.oba if o.id == req.module), None)
    if m is None:
        raise BadRequest(f"no OBA module {req.module!r}")
    if not m.prereg:
        raise RuleViolation("O'Leary 7.1", f"OBA module {m.id} has no pre-registered hex")
    if m.location is not None:
        raise RuleViolation(
            "O'Leary 7.1", f"OBA module {m.id} already has its pre-registered hex {m.location}"
        )
    o = owed_for(state, "prereg", m.id)
    if o is not None:
        raise _owed_first(o, "prereg", m.id, f"OBA module {m.id}")
    if m.id in state.ar_now:
        # one die per AR placed, thrown before its accuracy roll; the AR may not be shifted
        # after it, so its module throws no other die this phase (reading A44)
        raise RuleViolation(
            "O'Leary 7.1",
            f"OBA module {m.id} has thrown its pre-registration die for its AR in {m.ar} this"
            " phase: the AR may not be shifted after the die, nor the die thrown again",
        )
    state.layout.hex(req.ar)
    t = tables["prereg"]
    die = Check(t.dice, (), t, f"pre-registration die for {m.id} (AR {req.ar})", t.rule)
    steps = (die, *scatter_checks(config, "O'Leary 7.1")) if req.roll else ()
    return Plan(req, steps, DeferredPlan("prereg", req.ar, module=m))


def scatter(
    state: State, origin: str, steps: Sequence[Any], dice: DiceSource, config: Config
) -> tuple[list[Roll], str | None, str]:
    """The direction die and the distance die (6.1, 7.1): the hex they give, or None."""
    dirs = config.scatter.directions
    rd = _named(steps[0], dice, "the direction die", "the distance die")
    rn = _named(steps[1], dice, "the distance die")
    name = dirs.get(rd.final)
    if name is None:
        raise BadRequest(f"no direction for a direction die of {rd.final} in the scatter data")
    hexid = state.layout.neighbor(origin, name, rn.final)
    return [rd, rn], hexid, f"{rn.final} hex{'es' if rn.final > 1 else ''} {name} of {origin}"


def _named(step: Check, dice: DiceSource, called: str, then: str = "") -> Roll:
    """``step`` rolled; with the player's own dice, a die not given is asked for by its name
    in the rule (6.1, 7.1: "a direction die and a distance die"), not by its number alone."""
    try:
        r = step.resolve(dice)
    except DiceNeeded as e:
        raise DiceNeeded(e.die, e.number, called=called, rule=step.rule, then=then) from None
    assert isinstance(r, Roll)
    return r


def _deferred_die(
    state: State, plan: Plan, dice: DiceSource, config: Config, refused: str
) -> tuple[Roll, list[Roll], str | None, str | None, str]:
    """The die of 6.1/7.1: 1-2 this location, 3-5 undetermined, 6 a direction and a distance
    die give a candidate hex the player must accept (``candidate_ok``) or decide later.

    Returns (the die, every roll, the location now determined or None, a candidate awaiting
    the player's word or None, the message)."""
    d: DeferredPlan = plan.data
    r = plan.steps[0].resolve(dice)
    assert isinstance(r, Roll)
    rolls = [r]
    hit: str | None = None
    waiting: str | None = None
    msg = r.consequence or ""
    ok = plan.request.candidate_ok
    if r.row == "here":
        hit = d.target
    elif r.row == "scatter":
        more, hexid, where = scatter(state, d.target, plan.steps[1:], dice, config)
        rolls += more
        if hexid is None:
            msg = f"{where} is off the boards: still undetermined"
        elif ok is None:
            waiting = hexid
            msg = f"{where} is {hexid}"
        elif ok:
            hit = hexid
        else:
            msg = f"{hexid} {refused}: still undetermined"
    elif r.row == "not_yet":
        msg = f"not {d.target}: still undetermined"
    return r, rolls, hit, waiting, msg


def resolve_boresight(state: State, plan: Plan, dice: DiceSource, config: Config) -> Outcome:
    d: DeferredPlan = plan.data
    ws = d.weapons
    if not plan.steps:
        return Outcome(message="no bore sight die thrown (6.2): still undetermined")
    r, rolls, hit, waiting, msg = _deferred_die(
        state, plan, dice, config, "could not be bore sighted"
    )
    p = BoardChanges()
    if waiting is not None:
        asks = "; ".join(f"'decide id={c.id} ok=true|false'" for c in ws)
        who = f"{ws[0].name} ({ws[0].id})" if len(ws) == 1 else "each weapon"
        msg += (
            f": could {who} bore sight a location there? Answer {asks}"
            f" before {'it fires' if len(ws) == 1 else 'they fire'} again (6.1"
            + (", 6.3)" if len(ws) > 1 else ")")
        )
    if hit is not None:
        for c in ws:
            stack, _ = state.counter(c.id) or (None, None)
            assert stack is not None
            cs = tuple(replace(x, boresight=hit) if x.id == c.id else x for x in stack.counters)
            state = state.with_stack(replace(stack, counters=cs))
            p.put_stack(state.stack(stack.id))  # type: ignore[arg-type]
        names = ", ".join(f"{c.name} ({c.id})" for c in ws)
        msg = f"{hit} is now the bore-sighted location of {names} for good: note it (6.1)"
    side = next((s.side for s in state.stacks if any(x.id == ws[0].id for x in s.counters)), "")
    ends = config.flow.firing_ends_start
    if ends and side == state.phasing and state.phase != "setup" and not state.acted:
        p.set("acted", True)  # a friendly unit has fired: the start of the phase is over
    return Outcome(
        (
            p.event(
                "boresight",
                weapons=tuple(c.id for c in ws),
                target=d.target,
                row=str(r.row),
                candidate=waiting,
            ),
        ),
        tuple(rolls),
        msg,
        {"row": r.row, "boresight_location": hit, "weapons": [c.id for c in ws]},
        result=_result(str(r.row), hit, waiting),
    )


def resolve_prereg(state: State, plan: Plan, dice: DiceSource, config: Config) -> Outcome:
    d: DeferredPlan = plan.data
    m = d.module
    assert m is not None
    ar = d.target
    if not plan.steps:
        return Outcome(message="no pre-registration die thrown (7.2): still undetermined")
    r, rolls, hit, waiting, msg = _deferred_die(
        state, plan, dice, config, "could not be pre-registered"
    )
    p = BoardChanges()
    if waiting is not None:
        msg += (
            f": could OBA module {m.id} pre-register it? Answer"
            f" 'decide id={m.id} ok=true|false' before its next pre-registration die (7.1)"
        )
    if hit is not None:
        msg = f"{hit} is now the pre-registered hex of {m.id} for the rest of the scenario"
    p.put_oba(replace(m, location=hit, ar=ar))
    msg += f"; the AR in {ar} may no longer be shifted (7.1)"
    return Outcome(
        (p.event("prereg", module=m.id, ar=ar, row=str(r.row), candidate=waiting),),
        tuple(rolls),
        msg,
        {"row": r.row, "prereg": hit, "module": m.id},
        result=_result(str(r.row), hit, waiting),
    )


def _result(row: str, hit: str | None, waiting: str | None) -> str:
    """The short name of the outcome, for the odds of the whole procedure."""
    if row != "scatter":
        return row
    if waiting is not None:
        return "scatter: a hex on the boards, to decide"
    return "scatter: determined" if hit is not None else "scatter: still undetermined"


@dataclass(frozen=True)
class Decision:
    what: str
    ident: str
    hex: str
    obligation: Obligation


def plan_decide(state: State, req: DecideRequest) -> Plan:
    """The player's word on a candidate hex (6.1, 7.1): only when one is owed."""
    ident = req.id
    m = next((o for o in state.oba if o.id == ident), None)
    if m is None:
        hit = state.counter(ident)
        if hit is None:
            hit = find_counter(state, ident, "weapon or OBA module")
        ident = hit[1].id
    o = owed_for(state, "boresight", ident) or owed_for(state, "prereg", ident)
    if o is None:
        if m is not None and m.location is not None:
            raise RuleViolation(
                "O'Leary 7.1", f"{m.id}'s pre-registered hex is {m.location}: it never changes"
            )
        hit = state.counter(ident)
        if hit is not None and hit[1].boresight_location is not None:
            c = hit[1]
            raise RuleViolation(
                "O'Leary 6.1",
                f"{c.name} ({c.id})'s bore-sighted location is {c.boresight_location}:"
                " it never changes",
            )
        raise BadRequest(f"nothing is waiting for a decision about {req.id!r}")
    hexid = str(o.request["hex"])
    if req.hex and req.hex != hexid:
        raise BadRequest(f"{req.id} waits for a word on {hexid}, not {req.hex}")
    what = o.id.split(":", 1)[0]
    return Plan(req, (), Decision(what, ident, hexid, o))


def resolve_decide(state: State, plan: Plan, dice: DiceSource) -> Outcome:
    d: Decision = plan.data
    ok = bool(plan.request.ok)
    p = BoardChanges()
    if d.what == "boresight":
        hit = state.counter(d.ident)
        assert hit is not None
        stack, c = hit
        label = f"{c.name} ({c.id})"
        if ok and c.boresight == "eligible":
            cs = tuple(
                replace(x, boresight=d.hex) if x.id == d.ident else x for x in stack.counters
            )
            p.put_stack(replace(stack, counters=cs))
            msg = f"{d.hex} is now the bore-sighted location of {label} for good: note it (6.1)"
        elif ok:
            msg = f"{label} has since lost its bore-sight eligibility (2.3): nothing to note"
        else:
            msg = f"{label}: bore-sighted location still undetermined"
    else:
        m = next(o for o in state.oba if o.id == d.ident)
        if ok:
            p.put_oba(replace(m, location=d.hex))
            msg = f"{d.hex} is now the pre-registered hex of {m.id} for the rest of the scenario"
        else:
            msg = f"{m.id}: pre-registered hex still undetermined"
    return Outcome((p.event("decide", id=d.ident, ok=ok, hex=d.hex, what=d.what),), (), msg)
