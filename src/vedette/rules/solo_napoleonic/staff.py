"""Generals (Kuryakin, Generals; National Variations): random or historical ratings, and the
Control Phase (each brigadier rolls a D8 against his Control Rating)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from vedette.dice import Check, DiceSource, Modifier, Odds, Roll, UnderCheck
from vedette.dice.tables import Table
from vedette.errors import BadRequest, RuleViolation
from vedette.rules.base import Outcome
from vedette.rules.solo_napoleonic import geom
from vedette.rules.solo_napoleonic import requests as rq
from vedette.rules.solo_napoleonic.common import Changes, nation_key
from vedette.rules.solo_napoleonic.events import CommandChecked, ControlRolled, GeneralRated
from vedette.rules.solo_napoleonic.model import AV, TH, General, State

R_GEN = "Kuryakin, Generals"
R_NAT = "Kuryakin, National Variations"
R_CTRL = "Kuryakin, Generals (control) / Movement (Control Phase)"


def rating_table(state: State, which: str) -> Table:
    """The rating roll ``which`` (th, av, cr) of Kuryakin, Generals."""
    return state.config.ratings[which]


def national_modifier(state: State, g: General, which: str) -> tuple[Modifier, ...]:
    nations = state.config.nations
    nat = nations.get(nation_key(g.nation, nations)) if g.nation else None
    v = getattr(nat, which) if nat is not None else 0
    if not v:
        return ()
    return (Modifier(v, f"{g.nation} {which.upper()}", R_NAT),)


def cr_on_rating(state: State) -> bool:
    """Kuryakin, National Variations: "-1 CR" moves the Control Rating itself (the number the
    D8 must be under) by default; ``nation_cr_on = "roll"`` moves the grade roll instead."""
    return state.config.options.nation_cr_on == "rating"


def rating_check(state: State, g: General, which: str) -> Check:
    t = rating_table(state, which)
    nat = () if which == "cr" and cr_on_rating(state) else national_modifier(state, g, which)
    return Check(t.dice, nat, t, f"{g.id} {t.title}", R_GEN)


def national_cr(state: State, g: General) -> int:
    """The nation's change to the Control Rating itself (0 when it moves the roll)."""
    if not cr_on_rating(state):
        return 0
    return sum(m.value for m in national_modifier(state, g, "cr"))


def cr_odds(state: State, g: General) -> Odds:
    """The grade roll's odds, each row with the Control Rating it gives (after the nation)."""
    c = rating_check(state, g, "cr")
    o = c.odds()
    nat = national_cr(state, g)
    rows = []
    for r in o.rows:
        cr = state.config.grades[r.key].cr + nat
        note = f" ({g.nation} {nat:+d} CR)" if nat else ""
        rows.append(replace(r, result=f"{r.result}: CR {cr}{note}"))
    return replace(o, rows=tuple(rows))


#: the three ratings of a general (Kuryakin, Generals), in the order they are rolled
RATINGS = ("th", "av", "cr")


def to_roll(g: General, req: rq.Staff) -> tuple[str, ...]:
    """The ratings ``staff`` rolls for ``g``: those not yet given (a scenario may allocate some
    'historically', Generals; a rating given is never rolled again), or, under the house rule
    ``[options] staff_reroll`` (reading K91), all three with ``reroll=true`` or for a general
    named who is rated already."""
    missing = tuple(w for w in RATINGS if getattr(g, w) is None)
    return RATINGS if req.reroll or not missing else missing


def rerolls(state: State) -> bool:
    """Reading K91: a rating once rolled (or given) binds; ``[options] staff_reroll = true``
    is the house rule that rolls a rated general again and lets historical ratings replace
    any rating at any time (earlier builds)."""
    return state.config.options.staff_reroll


def play_begun(state: State) -> bool:
    """The first control roll has been made (the staff is created before it)."""
    return state.turn > 1 or state.phase != "control"


def _binds(problem: str, why: str = "a rating once rolled or given binds") -> RuleViolation:
    return RuleViolation(
        R_GEN, f"{problem}: {why} (reading K91; house rule [options] staff_reroll)"
    )


def _ratings(g: General) -> str:
    """``TH average, AV normal, CR 6`` (what is given so far)."""
    return g.describe().partition(") ")[2]


def _targets(state: State, req: rq.Staff) -> list[General]:
    gid = req.general
    redo = bool(req.reroll)
    if redo and not rerolls(state):
        raise _binds("a rated general is not rolled again ('reroll')")
    if gid is not None:
        g = state.general(gid)
        if g.rated and not redo and not rerolls(state):
            raise _binds(f"{g.id} is already rated ({_ratings(g)})")
        return [g]
    return [g for g in state.generals if redo or not g.rated]


def _check_historical(state: State, g: General, hist: Mapping[str, Any]) -> None:
    """Reading K91: historical ratings are the choice made as the staff is created ('if
    desired'): only for ratings not yet given, and before the first control roll."""
    if rerolls(state):
        return
    given = [w.upper() for w in RATINGS if w in hist and getattr(g, w) is not None]
    if given:
        raise _binds(f"{g.id}'s {', '.join(given)} already given ({_ratings(g)})")
    if play_begun(state):
        raise _binds(
            f"{g.id}'s ratings are rolled now ('staff general={g.id}')",
            "historical ratings are chosen as the staff is created, before the first control roll",
        )


def _historical(state: State, req: rq.Staff) -> dict[str, Any] | None:
    if req.th is None and req.av is None and req.cr is None and req.grade is None:
        return None
    out: dict[str, Any] = {}
    if req.th is not None:
        out["th"] = rq.choice(req.th, "th", TH)
    if req.av is not None:
        out["av"] = rq.choice(req.av, "av", AV)
    grades = state.config.grades
    if req.grade is not None:
        out["grade"] = rq.choice(req.grade, "grade", tuple(grades))
        out["cr"] = grades[out["grade"]].cr
    if req.cr is not None:
        cr = req.cr
        if not 1 <= cr <= 9:
            raise BadRequest("'cr' must be 1-9 (the D8 roll must be less than it)")
        out["cr"] = cr
        if "grade" not in out:
            same = [k for k, r in grades.items() if r.cr == cr]
            out["grade"] = same[0] if same else f"cr{cr}"
    return out


def staff(state: State, req: rq.Staff, dice: DiceSource) -> Outcome:
    """Rate the staff: roll TH (d6), AV (d6) and Grade/CR (d8) for every unrated general (or
    ``general=ID``), only the ratings not given, national variations added to the rolls; or
    enter historical ratings (``general=ID th=average av=aggressive cr=6``) for ratings not
    given, before the first control roll. A rating once rolled or given binds (reading K91)."""
    ch = Changes(state)
    hist = _historical(state, req)
    rolls: list[Roll] = []
    if hist is not None:
        gid = req.general
        if gid is None:
            raise BadRequest("historical ratings need 'general'")
        _check_historical(state, state.general(gid), hist)
        g = ch.general(GeneralRated, gid, "historical ratings entered (Kuryakin, Generals)", **hist)
        return Outcome(
            tuple(ch.events), (), f"{g.describe()} (historical)", {"general": gid, "ratings": hist}
        )
    targets = _targets(state, req)
    if not targets:
        again = " (reroll=true to roll again: house rule staff_reroll)" if rerolls(state) else ""
        raise RuleViolation(R_GEN, f"every general is already rated{again}")
    for g in targets:
        got: dict[str, Any] = {}
        for which in to_roll(g, req):
            r = rating_check(state, g, which).resolve(dice)
            assert isinstance(r, Roll)
            rolls.append(r)
            assert r.row is not None
            if which == "cr":
                grade = state.config.grades[r.row]
                got["grade"] = r.row
                nat = national_cr(state, g)
                got["cr"] = max(1, grade.cr + nat)
                if nat:
                    r = replace(
                        r,
                        consequence=f"{r.consequence}: CR {grade.cr} {nat:+d} "
                        f"({g.nation}, {R_NAT}) = {got['cr']}",
                    )
                    rolls[-1] = r
            else:
                got[which] = r.row
        ch.general(GeneralRated, g.id, "staff generated (Kuryakin, Generals)", **got)
    msg = "; ".join(ch.state.general(g.id).describe() for g in targets)
    return Outcome(tuple(ch.events), tuple(rolls), msg, {"generals": [g.id for g in targets]})


def staff_odds(state: State, req: rq.Staff) -> list[Odds]:
    hist = _historical(state, req)
    if hist is not None:
        if req.general is not None:
            _check_historical(state, state.general(req.general), hist)
        return []
    out: list[Odds] = []
    for g in _targets(state, req):
        for which in to_roll(g, req):
            out.append(cr_odds(state, g) if which == "cr" else rating_check(state, g, which).odds())
    return out


# -- control phase ------------------------------------------------------------------------------
def senior_modifier(state: State, senior: General) -> int:
    g = state.config.grades.get(str(senior.grade))
    return g.senior_modifier if g is not None else 0


def seniors_near(state: State, brig: General, req: rq.Control) -> list[General]:
    """Divisional and corps commanders within 300mm of the brigadier (positions, or the
    request's declared ``seniors_near`` list)."""
    stated = req.seniors_near
    reach = state.config.options.senior_range_mm
    out: list[General] = []
    for s in state.chain(brig):
        if s.killed:
            continue
        if stated is not None:
            if s.id in stated:
                out.append(s)
            continue
        d = geom.general_to_general(brig, s)
        if d is not None and d <= reach:
            out.append(s)
    return out


def control_check(state: State, brig: General, req: rq.Control) -> UnderCheck:
    """D8 needing LESS than the CR; a senior's modifier comes off the roll (raises the target)."""
    if brig.cr is None:
        raise RuleViolation(R_GEN, f"{brig.id} has no Control Rating yet: run 'staff' first")
    ms: list[Modifier] = []
    for s in seniors_near(state, brig, req):
        v = senior_modifier(state, s)
        if v:
            ms.append(
                Modifier(-v, f"{s.rank} commander {s.id} within 300mm ({v:+d} on the roll)", R_CTRL)
            )
    return UnderCheck(
        brig.cr,
        tuple(ms),
        "d8",
        state.config.options.control_strict,
        f"{brig.id} control",
        R_CTRL,
        f"{brig.id} controls: one card for his formation",
        f"{brig.id} fails: a card for each of his units",
    )


def brigadiers(state: State) -> list[General]:
    return [
        g
        for g in state.generals
        if g.rank == "brigadier" and not g.killed and state.brigade_units(g.id)
    ]


def unit_in_command(
    state: State, uid: str, req: rq.Control, out_list: list[str] | None
) -> tuple[bool, str]:
    u = state.unit(uid)
    brig = state.brigadier_of(u)
    if brig is None or brig.killed:
        return False, "no brigadier"
    if out_list is not None:
        return (uid not in out_list), "stated"
    reach = state.config.options.control_range_mm
    near = geom.general_reach(brig, u, reach)  # (measured only where rounding could tell)
    if near is None:
        return True, "not placed: assumed in command"
    return near[0], f"{near[1]:.0f}mm from {brig.id}"


def unrated_refusal(state: State) -> RuleViolation | None:
    """Reading K92: "Each commander has three ratings" (Generals), and the control roll reads
    them: each brigadier's Control Rating, and the Grade of a divisional or corps commander
    within 300mm, whose modifier comes off the roll. The staff is rated before the first control
    roll (what ``todo`` owes in the control phase): while a living general is unrated, the
    roll is refused (an unrated senior is not a Poor one, modifier 0)."""
    unrated = [g.id for g in state.generals if not g.rated and not g.killed]
    if not unrated:
        return None
    return RuleViolation(
        R_GEN,
        f"{', '.join(unrated)} not rated yet: each commander has three ratings (TH, AV, CR),"
        " rated before the control roll reads them: run 'staff' first (reading K92)",
    )


def control(state: State, req: rq.Control, dice: DiceSource) -> Outcome:
    """The Control Phase: every brigadier rolls; units beyond 150mm of their brigadier (or
    listed in ``out_of_command``) are out of command control. The staff is rated first
    (reading K92)."""
    no = unrated_refusal(state)
    if no is not None:
        raise no
    ch = Changes(state)
    rolls: list[Roll] = []
    result: dict[str, str] = {}
    for b in brigadiers(state):
        r = control_check(state, b, req).resolve(dice)
        rolls.append(r)
        result[b.id] = "passed" if r.row == "pass" else "failed"
    out_list = req.out_of_command
    failed_out = state.config.options.failed_control_out_of_command
    lines = []
    for u in state.units:
        if not u.on_table:
            continue
        ok, why = unit_in_command(state, u.id, req, out_list)
        if ok and failed_out and u.brigade is not None and result.get(u.brigade) == "failed":
            # Kuryakin, Generals/Movement: the brigadier "rolls for control"; a failed roll
            # leaves his units out of command control this move (only those beyond 150mm are
            # out "automatically"); option failed_control_out_of_command = false keeps them in
            ok, why = False, f"{u.brigade} failed his control roll"
        ch.unit(CommandChecked, u.id, f"command control ({why})", in_command=ok)
        if not ok:
            lines.append(f"{u.id} out of command ({why})")
    ch.game(ControlRolled, "control phase", control=result, phase="cards")
    msg = ", ".join(f"{k} {v}" for k, v in result.items()) or "no brigadiers"
    if lines:
        msg += "; " + "; ".join(lines)
    return Outcome(tuple(ch.events), tuple(rolls), msg, {"control": result})


def control_odds(state: State, req: rq.Control) -> list[Odds]:
    no = unrated_refusal(state)
    if no is not None:
        raise no
    return [control_check(state, b, req).odds() for b in brigadiers(state)]


def ratings_json(g: General) -> Mapping[str, Any]:
    return {"th": g.th, "av": g.av, "grade": g.grade, "cr": g.cr}
