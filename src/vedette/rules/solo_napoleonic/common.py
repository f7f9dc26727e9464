"""Shared pieces: rule data, modifiers from data, exact distributions, casualty allocation and
the change list that turns a procedure's decisions into events."""

from __future__ import annotations

import math
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from operator import is_
from typing import Any

from vedette.dice import Check, DiceSource, Modifier, Odds, Roll, UnderCheck, per_count, standard
from vedette.dice.check import OddsRow
from vedette.dice.roll import single
from vedette.dice.sources import begin_attempt, branch, reject_attempt
from vedette.errors import DataError
from vedette.rules.patch import Entities, Patch, fold_patch
from vedette.rules.solo_napoleonic import memo
from vedette.rules.solo_napoleonic.events import (
    Fact,
    GeneralFact,
    GeneralMoved,
    TurnFact,
    UnitFact,
)
from vedette.rules.solo_napoleonic.model import (
    Card,
    General,
    State,
    Unit,
    special_lost,
    to_json,
    updated,
)

RULE = "Kuryakin"

FDist = dict[int, Fraction]

SECTION_RULES = {
    "formation_change": "Kuryakin, Formation Changing",
    "standstill": "Kuryakin, Moving From A Standstill",
    "reform": "Kuryakin, Disorder",
    "volley": "Kuryakin, Firing/Infantry",
    "artillery": "Kuryakin, Artillery",
    "melee_infantry": "Kuryakin, Melee/Infantry vs. Infantry",
    "melee_cavalry": "Kuryakin, Melee/Cavalry vs. Cavalry",
    "morale": "Kuryakin, Morale",
    "charge": "Kuryakin, Charge Test",
    "charge_home": "Kuryakin, Charge Home Test",
}


# -- data -------------------------------------------------------------------------------------


def optional_on(state: State, rule: str) -> bool:
    """Is an optional rule (officers, musicians, standards) switched on for this game?"""
    return bool(state.options.get(rule, False))


def nation_key(name: str, known: Container[str]) -> str:
    """A nation as a scenario writes it ("Russian", "Russians", "Dutch-Belgian", "dutch belgian")
    to its key in the rules data (Kuryakin, National Variations; Artillery's gunners): lower
    case, spaces and hyphens as "_", a plural's "s" dropped where only the singular is known."""
    k = name.strip().lower().replace("-", "_").replace(" ", "_")
    if k not in known and k.endswith("s") and k[:-1] in known:
        return k[:-1]
    return k


def officer_missing(state: State, u: Unit) -> bool:
    """Officers rule: dead, absent, or not in the front rank (the same effect as dead)."""
    if not optional_on(state, "officers"):
        return False
    return special_lost(u, "officer") or u.officer_pos > u.front_rank()


#: the modifiers made, by the identity of the rule data and the options they were read from
#: and what was asked (each entry keeps its data alive: no id is reused while it is here)
_MODIFIERS: dict[tuple[Any, ...], tuple[Any, Any, Modifier | None]] = {}


def modifier(
    state: State, section: str, key: str, count: int | None = None, reason: str | None = None
) -> Modifier | None:
    """The modifier ``key`` of ``[modifiers.SECTION]``; for a per-count entry, ``count`` of them
    (None when the count is 0 or the entry belongs to an optional rule that is off). A pure
    function of the rule data, the options and what is asked: made once for each (a morale
    test asks a score of them; a modifier is a frozen value)."""
    if not memo.enabled():  # (the old path: made afresh)
        return _modifier(state, section, key, count, reason)
    config, options = state.config, state.options
    k = (id(config), id(options), section, key, count, reason)
    hit = _MODIFIERS.get(k)
    if hit is not None and hit[0] is config and hit[1] is options:
        return hit[2]
    m = _modifier(state, section, key, count, reason)
    if len(_MODIFIERS) > 4096:
        _MODIFIERS.clear()
    _MODIFIERS[k] = (config, options, m)
    return m


memo.also_clear(_MODIFIERS.clear)


def _modifier(
    state: State, section: str, key: str, count: int | None, reason: str | None
) -> Modifier | None:
    e = state.config.modifiers.get(section, {}).get(key)
    if e is None:
        raise DataError("solo_napoleonic data", f"[modifiers.{section}] has no {key!r}")
    if e.optional and not optional_on(state, e.optional):
        return None
    rule = SECTION_RULES.get(section, RULE)
    unit = "%" if section in ("morale", "charge", "charge_home") else ""
    text = reason or e.reason
    if e.per:
        n = count if count is not None else 0
        if n <= 0:
            return None
        return per_count(e.value, n, text, rule, e.cap, unit, e.group)
    if count is not None and count <= 0:
        return None
    return Modifier(e.value, text, rule, e.group)


def mods(*ms: Modifier | None) -> tuple[Modifier, ...]:
    return tuple(m for m in ms if m is not None)


# -- exact distributions (Fractions) ------------------------------------------------------------
def die_dist(faces: Iterable[int], plus: int = 0, floor0: bool = True) -> FDist:
    fl = list(faces)
    out: FDist = {}
    for f in fl:
        v = f + plus
        if floor0:
            v = max(0, v)
        out[v] = out.get(v, Fraction(0)) + Fraction(1, len(fl))
    return out


def convolve(a: FDist, b: FDist) -> FDist:
    out: FDist = {}
    for va, pa in a.items():
        for vb, pb in b.items():
            out[va + vb] = out.get(va + vb, Fraction(0)) + pa * pb
    return out


def repeat(d: FDist, n: int) -> FDist:
    out: FDist = {0: Fraction(1)}
    for _ in range(n):
        out = convolve(out, d)
    return out


def map_dist(d: FDist, fn: Callable[[int], FDist]) -> FDist:
    out: FDist = {}
    for v, p in d.items():
        for w, q in fn(v).items():
            out[w] = out.get(w, Fraction(0)) + p * q
    return out


def binomial(n: int, p: Fraction) -> FDist:
    """Number of successes of ``n`` trials of probability ``p``."""
    return {k: math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)}


def odds_of(label: str, d: FDist, rule: str = "", note: str = "", noun: str = "") -> Odds:
    """Exact odds of a distribution given as Fractions (they sum to exactly 1)."""
    rows = tuple(
        OddsRow(str(v), f"{v} {noun}".strip() if noun else str(v), p)
        for v, p in sorted(d.items())
        if p
    )
    total = sum((r.p for r in rows), Fraction(0))
    if total != 1:
        raise AssertionError(f"odds of {label} sum to {total}, not 1")
    return Odds(label, rows, rule=rule, note=note)


def under(
    base: int,
    modifiers: tuple[Modifier, ...],
    label: str,
    rule: str,
    pass_text: str = "passes",
    fail_text: str = "fails",
    strict: bool = True,
    die: str = "dP",
) -> UnderCheck:
    """A percentile test (Kuryakin, Morale: "a roll on D100 below the final figure"): percentile
    dice BELOW the final figure. ``die`` is ``dP`` (the dice read 00-99: 80% passes 80 times in
    100) or ``d100`` (read 1-100: 80% passes 79 times in 100); ``strict=False`` lets the figure
    itself pass too."""
    return UnderCheck(base, modifiers, die, strict, label, rule, pass_text, fail_text)


def percentile_strict(state: State) -> bool:
    return state.config.options.percentile_strict


def percentile_die(state: State) -> str:
    """The percentile dice as the game reads them (``[options] percentile_reading``, checked
    when the data is read): ``dP`` (00-99, the default) or ``d100`` (1-100, the older strict
    reading)."""
    return "dP" if state.config.options.percentile_reading == "00-99" else "d100"


def pct_test(
    state: State,
    base: int,
    modifiers: tuple[Modifier, ...],
    label: str,
    rule: str,
    pass_text: str,
    fail_text: str,
) -> UnderCheck:
    """A percentile test read the game's way (die and comparison from the options)."""
    return under(
        base,
        modifiers,
        label,
        rule,
        pass_text,
        fail_text,
        percentile_strict(state),
        percentile_die(state),
    )


def fraction_check(rem: Fraction, label: str, rule: str, die: str = "dP") -> UnderCheck:
    """The percentage dice for the remainder ``rem`` of a number of hits (Kuryakin, Firing):
    one more hit with the remainder's percent (a remainder that is not a whole percent is
    rolled against its rounded percent), exactly that often on either reading: 00-99 below
    it, 1-100 at most it."""
    return UnderCheck(
        round(rem * 100),
        (),
        die,
        die == "dP",
        f"{label}: fraction {rem} of a hit",
        rule,
        "one more hit",
        "no extra hit",
    )


def fraction_roll(
    h: int, frac: Fraction, label: str, dice: DiceSource, rule: str, die: str = "dP"
) -> tuple[int, Roll | None]:
    """Resolve ``h × frac`` with percentage dice; returns the whole number and the roll made
    (none under an enumerating source, which branches on the check's two results)."""
    exact = h * frac
    whole = math.floor(exact)
    rem = exact - whole
    if rem == 0:
        return whole, None
    c = fraction_check(rem, label, rule, die)
    p_more = _passes(c.base, die)
    more, rolls = outcome_of(
        dice,
        {1: p_more, 0: 1 - p_more},
        lambda: _fraction_rolled(c, dice),
    )
    return whole + more, (rolls[0] if rolls else None)


def fraction_dist(h: int, frac: Fraction, die: str = "dP") -> FDist:
    """What :func:`fraction_roll` of ``h × frac`` gives, with its odds: the whole number, or
    one more with the remainder's percentage dice (the same check and odds it branches on)."""
    exact = h * frac
    whole = math.floor(exact)
    rem = exact - whole
    if rem == 0:
        return {whole: Fraction(1)}
    p_more = _passes(fraction_check(rem, "", "", die).base, die)
    return {whole: 1 - p_more, whole + 1: p_more}


def mix(d: FDist, stage: Callable[[int], FDist]) -> FDist:
    """The distribution after ``stage``, a roll whose odds depend only on the value ``d`` gave
    before it (a fraction of the hits, the saves of them): the sum over each value of its
    chance times the stage's odds, on integers over one common denominator, exactly."""
    parts = [(p, stage(v)) for v, p in d.items() if p]
    den = math.lcm(*(p.denominator for p, _ in parts))
    inner = math.lcm(*(q.denominator for _, st in parts for q in st.values()))
    out: dict[int, int] = {}
    for p, st in parts:
        a = p.numerator * (den // p.denominator)
        for w, q in st.items():
            out[w] = out.get(w, 0) + a * q.numerator * (inner // q.denominator)
    total = den * inner
    return {w: Fraction(n, total) for w, n in out.items() if n}


def saves_dist(n: int, save: int) -> FDist:
    """The casualties of ``n`` hits saved on ``save``-6 (a d6 each): ``fire.saves``' odds."""
    return count_dist(n, save - 1) if n > 0 else {0: Fraction(1)}


@cache
def _passes(pct: int, die: str) -> Fraction:
    """How often a fraction's percentage dice give one more hit (the check's own odds)."""
    return fraction_check(Fraction(pct, 100), "", "", die).odds().p("pass")


def _fraction_rolled(c: UnderCheck, dice: DiceSource) -> tuple[int, list[Roll]]:
    r = c.resolve(dice)
    return (1 if r.row == "pass" else 0), [r]


# -- whole checks: rolled, or one branch per result when odds are enumerated -------------------
def outcome_of(
    dice: DiceSource,
    dist: FDist | Callable[[], FDist],
    roll: Callable[[], tuple[int, list[Roll]]],
) -> tuple[int, list[Roll]]:
    """The result of a whole check whose exact distribution is ``dist``: under a source that
    enumerates (``dice.sources.branch``), one branch per distinct result with its probability
    and no dice; under any other source ``roll()`` rolls its dice (and returns the rolls made).
    ``dist`` must be the distribution of what ``roll`` returns (the tests check it against a
    face-by-face enumeration of the same dice); given as a function, it is computed only under
    a source that enumerates (a real roll, and the plan's dry run, need no odds)."""
    if getattr(dice, "branch", None) is None:
        return roll()
    if callable(dist):
        dist = dist()
    items = [(v, p) for v, p in sorted(dist.items()) if p]
    k = branch(dice, [p for _, p in items])
    if k is None:
        return roll()
    return items[k][0], []


def floored_sum_dist(check: Check, n: int) -> FDist:
    """The total of ``n`` rolls of ``check``, each counted at least 0 (a volley, a melee die),
    from the check's own exact weights."""
    return _floored_sum(check.expression, check.modifier_total(), n)


@cache
def _floored_sum(dice: str, plus: int, n: int) -> FDist:
    w = Check(dice, (Modifier(plus, "total"),) if plus else (), None).weights()
    tot = sum(w.values())
    one: FDist = {}
    for v, k in w.items():
        one[max(0, v)] = one.get(max(0, v), Fraction(0)) + Fraction(k, tot)
    return repeat(one, n)


@cache
def count_dist(n: int, counted: int, sides: int = 6) -> FDist:
    """How many of ``n`` dice of ``sides`` show one of ``counted`` faces (hits on 5-6: 2): the
    binomial, on integers (each count of the sides^n faces, then one Fraction)."""
    k = max(0, min(sides, counted))
    whole = sides**n
    return {
        i: Fraction(math.comb(n, i) * k**i * (sides - k) ** (n - i), whole) for i in range(n + 1)
    }


# -- casualty allocation ------------------------------------------------------------------------
POLY = (4, 6, 8, 10, 12, 20, 100)


def allocation_die(n: int) -> int:
    """The smallest usual die with at least ``n`` faces (16 figures: a D20, ignoring 17-20)."""
    for s in POLY:
        if s >= n:
            return s
    return n


@dataclass(frozen=True, slots=True)
class Allocation:
    """Who the casualties were (Kuryakin, Firing/Determining Casualties)."""

    ordinary: int
    specials_hit: tuple[str, ...]
    general_hit: bool
    general_killed: bool
    rolls: tuple[Roll, ...]


def allocate(
    casualties: int,
    eligible: int,
    positions: Mapping[str, int],
    dice: DiceSource,
    rule: str,
    general_pos: int | None = None,
    general_save: int = 3,
    always: bool = False,
) -> Allocation:
    """Roll a figure for each casualty among ``eligible`` figures (the front rank for fire, all
    eligible victims for melee). A roll on a special figure's position hits it (once per attack;
    a second roll on it is an ordinary soldier); rolls beyond ``eligible`` are ignored and rolled
    again. An attached general hit saves on ``general_save``+ (the casualty then falls on an
    ordinary soldier: assumption)."""
    if casualties <= 0 or eligible <= 0:
        return Allocation(max(0, casualties), (), False, False, ())
    if (
        not always
        and not any(1 <= p <= eligible for p in positions.values())
        and not (general_pos is not None and 1 <= general_pos <= eligible)
    ):
        # the roll only tells whether a special figure (or an attached general) was hit
        # (Kuryakin, Firing/Determining Casualties): with none among the eligible, every
        # casualty is an ordinary soldier and no die is rolled
        return Allocation(casualties, (), False, False, ())
    sides = allocation_die(eligible)
    die = standard(sides)
    rolls: list[Roll] = []
    hit: list[str] = []
    ordinary = 0
    g_hit = g_killed = False
    by_pos: dict[int, str] = {p: name for name, p in positions.items() if 1 <= p <= eligible}
    if general_pos is not None and 1 <= general_pos <= eligible:
        by_pos[general_pos] = "general"
    for i in range(casualties):
        ignored: list[int] = []
        while True:
            begin_attempt(dice)
            f = dice.face(die)
            if f <= eligible:
                break
            ignored.append(f)
            reject_attempt(dice)  # a face above the eligible figures is rolled again
        who = by_pos.get(f)
        note = ""
        save: Roll | None = None
        if who is not None and who not in hit and not (who == "general" and g_hit):
            if who == "general":
                g_hit = True
                s = dice.face(standard(6))
                if s >= general_save:
                    note = f"attached general hit, saves ({s}): an ordinary soldier falls"
                    ordinary += 1
                else:
                    g_killed = True
                    note = f"attached general hit, fails his save ({s}): KILLED"
                # his save is a die of its own in the record (the log replays every die)
                save = single(
                    6, s, dice.kind, f"attached general's save ({general_save}+)", rule, note
                )
            else:
                hit.append(who)
                note = f"{who} hit"
        else:
            ordinary += 1
            note = "ordinary soldier" if who is None else f"{who} already hit: ordinary soldier"
        ign = f" (ignored {', '.join(map(str, ignored))})" if ignored else ""
        rolls.append(
            single(
                sides,
                f,
                dice.kind,
                f"casualty {i + 1} of {casualties}: figure {f} of {eligible}{ign}",
                rule,
                note,
                {"ignored": ignored},
            )
        )
        if save is not None:
            rolls.append(save)
    return Allocation(ordinary, tuple(hit), g_hit, g_killed, tuple(rolls))


# -- changes -> events --------------------------------------------------------------------------
class Changes:
    """A procedure's working copy of the state and the facts that lead to it (their previous
    values are recorded by the engine when the action is performed). ``state`` is always the
    fold of ``events``, in turn, from the state it began with (``began``): the simulator takes
    it as the state the procedure's outcome leaves (:func:`built`), not folding them again."""

    __slots__ = ("began", "events", "notes", "state")

    def __init__(
        self, state: State, events: list[Any] | None = None, notes: list[str] | None = None
    ) -> None:
        self.state = state
        #: the state the events are folded from (None: events given, their origin unknown)
        self.began: State | None = state if not events else None
        self.events: list[Any] = [] if events is None else events
        self.notes: list[str] = [] if notes is None else notes

    def _record(self, e: Fact) -> None:
        self.events.append(e)
        self.state = fold_patch(self.state, e, ENTITIES)
        _LAST[0] = self

    def unit(self, ev: type[UnitFact], uid: str, why: str, **kw: Any) -> Unit:
        """Record ``ev`` for unit ``uid``: the values it leaves (those that change). The event
        is folded here as the core folds it (``patch.fold_patch``: its fields checked against
        a unit's, then the unit at the index's place updated), the unit found once."""
        state = self.state
        units = state.units
        i = state.index.get(uid)
        if i is not None and i < len(units) and units[i].id == uid:  # (as State.find)
            u = units[i]
        else:
            u, i = state.unit(uid), None
        held = u.__dict__  # (a unit's fields: a plain frozen dataclass, see model.updated)
        new = {k: v for k, v in kw.items() if held[k] != v}
        if not new:
            return u
        touches = ev.touches
        if touches is None or not touches.issuperset(new):
            _may(ev, new)
        e = ev(uid, new, None, why)
        self.events.append(e)
        if i is not None and (ev in _FITS or _fits(ev)):
            moved: Unit = updated(u, new)
            self.state = state._with_unit_at(i, moved)
        else:  # (the core's fold: its one-line refusal, a state built by hand)
            self.state = fold_patch(state, e, ENTITIES)
            moved = self.state.unit(uid)
        _LAST[0] = self
        if ("x" in new or "y" in new) and moved.placed:
            self.follow(moved)
        return moved

    def follow(self, u: Unit) -> None:
        """Generals attached to ``u`` go with it (Kuryakin, Firing: an attached general stands
        in its front rank; issue 23: he is never left behind)."""
        for g in self.state.generals:
            if g.attached_to == u.id and not g.killed:
                self.general(GeneralMoved, g.id, f"goes with {u.id}", x=u.x, y=u.y)

    def general(self, ev: type[GeneralFact], gid: str, why: str, **kw: Any) -> General:
        """Record ``ev`` for general ``gid`` (folded here as the core folds it)."""
        state = self.state
        g = state.general(gid)
        new = {k: v for k, v in kw.items() if getattr(g, k) != v}
        if not new:
            return g
        _may(ev, new)
        e = ev(gid, new, None, why)
        if ev not in _FITS and not _fits(ev):  # (the core's fold: its one-line refusal)
            self._record(e)
            return self.state.general(gid)
        self.events.append(e)
        moved: General = updated(g, new)
        self.state = state.with_general(moved)
        _LAST[0] = self
        return moved

    def game(self, ev: type[TurnFact], why: str, **kw: Any) -> None:
        """Record ``ev`` for the turn: its values logged as JSON, folded here as the core
        folds it (each read back from its JSON form, ``_GAME_VALUES``)."""
        if ev.touches is None or not ev.touches.issuperset(kw):
            _may(ev, kw)
        logged = {k: game_value_json(k, v) for k, v in kw.items()}
        e = ev("", logged, None, why)
        if ev not in _FITS and not _fits(ev):
            self._record(e)
            return
        self.events.append(e)
        self.state = self.state.but(**{k: _GAME_VALUES[k](v) for k, v in logged.items()})
        _LAST[0] = self

    def note(self, text: str) -> None:
        self.notes.append(text)


#: the facts whose every field is one of their entity's (the core's fold checks no more of
#: them: ``patch._set``)
_FITS: set[type[Any]] = set()


def _fits(ev: type[Fact]) -> bool:
    """Whether every field ``ev`` may set is one of its entity's (kept in ``_FITS``)."""
    if ev.touches is None or not ev.touches <= ENTITIES[ev.entity].fields:
        return False
    _FITS.add(ev)
    return True


#: the change list that last recorded an event (its state and events read by :func:`built`)
_LAST: list[Changes | None] = [None]


def built(state: State, events: Sequence[Any]) -> State | None:
    """The state ``events`` leave when folded in turn from ``state``, where the change list
    that recorded them last has it already (None: not known here, fold them): its events are
    these very objects, in this order, all of them, and it began with this very state. The fold
    is a pure function of the state and the events (frozen values), so its state is theirs."""
    ch = _LAST[0]
    if (
        ch is None
        or ch.began is not state
        or len(ch.events) != len(events)
        or not all(map(is_, ch.events, events))
    ):
        return None
    return ch.state


def _may(ev: type[Fact], changes: Mapping[str, Any]) -> None:
    bad = set(changes) - (ev.touches or frozenset())
    if bad:  # a programming error: the fact is recorded under the wrong name
        raise AssertionError(f"event {ev.kind!r} cannot change {', '.join(sorted(bad))}")


GAME_FIELDS = (
    "turn",
    "phase",
    "control",
    "cards",
    "deck_size",
    "active",
    "done",
    "chance",
    "chance_played",
    "history",
)


_GAME_FIELDS = frozenset(GAME_FIELDS)


def game_value_json(k: str, v: Any) -> Any:
    if k not in _GAME_FIELDS:
        raise ValueError(f"not a game field: {k}")
    if k == "cards":
        logged = [to_json(c) for c in v]
        if type(v) is tuple:  # (the fold reads these very tables back: see _cards)
            _CARDS_LOGGED.clear()
            _CARDS_LOGGED[id(logged)] = (logged, v)
        return logged
    if isinstance(v, tuple):
        return list(v)
    if isinstance(v, Mapping):
        return dict(v)
    return v


#: the cards last logged by :func:`game_value_json`, by the identity of their logged list (the
#: list held alive): the fold of the procedure's own event reads the cards it was given back,
#: not equal copies made from their tables (a replay's lists are other objects: read afresh)
_CARDS_LOGGED: dict[int, tuple[list[Any], tuple[Card, ...]]] = {}


def _cards(v: Any) -> tuple[Card, ...]:
    hit = _CARDS_LOGGED.get(id(v))
    if hit is not None and hit[0] is v:
        return hit[1]
    return tuple(
        Card(
            str(c["holder"]),
            int(c["number"]),
            float(c["key"]),
            tuple(c["units"]),
            bool(c.get("formation", False)),
        )
        for c in v
    )


def _same(v: Any) -> Any:
    return v


#: How each field of the turn is read back from its JSON form.
_GAME_VALUES: dict[str, Callable[[Any], Any]] = {
    "turn": _same,
    "phase": _same,
    "control": dict,
    "cards": _cards,
    "deck_size": _same,
    "active": _same,
    "done": tuple,
    "chance": dict,
    "chance_played": tuple,
    "history": tuple,
}


def _put_unit(state: State, uid: str, values: Mapping[str, Any]) -> State:
    i = state.index.get(uid)
    if i is not None and i < len(state.units):
        u = state.units[i]
        if u.id == uid:  # the index's place (as ``State._pos`` checks it): no look-up again
            return state._with_unit_at(i, updated(u, values))
    return state.with_changed(uid, values)


def _put_general(state: State, gid: str, values: Mapping[str, Any]) -> State:
    return state.with_general(updated(state.general(gid), values))


def _turn(state: State, _: str) -> State:
    return state


def _put_turn(state: State, _: str, values: Mapping[str, Any]) -> State:
    return state.but(**values)


def _read(conv: Callable[[Any], Any]) -> Callable[[State, Any], Any]:
    return lambda state, v: conv(v)


#: how a game holds its units, generals and turn, for the core's patch fold
#: (vedette.rules.patch): a unit's or general's tuple is logged as a list; the turn's fields
#: as JSON (its cards as tables), read back by ``_GAME_VALUES``
ENTITIES: dict[str, Entities[State]] = {
    "unit": Entities(Unit, State.unit, _put_unit),
    "general": Entities(General, State.general, _put_general),
    "turn": Entities(
        State,
        _turn,
        _put_turn,
        read={k: _read(conv) for k, conv in _GAME_VALUES.items() if conv is not _same},
        write={k: partial(game_value_json, k) for k in GAME_FIELDS},
        only=GAME_FIELDS,
    ),
}


def check_roll(check: Check, dice: DiceSource) -> Roll:
    r = check.resolve(dice)
    assert isinstance(r, Roll)
    return r


#: what a volley's, a melee die's or a battery's die modified below 0 gives (reading K24: never
#: below 0), and a formation change's die (no quarter of a move): its roll says so (it once
#: said the figure alone, the 0 only in the total or the message)
FLOORED = "counts 0 (never below 0)"


def floored_roll(check: Check, dice: DiceSource) -> Roll:
    """A die of hits (a volley, a melee die, a battery's) or of quarters of a move (a
    formation change): rolled; below 0 it counts 0, and its roll says so (:data:`FLOORED`)."""
    r = check_roll(check, dice)
    return r if r.final >= 0 else r.but(consequence=FLOORED)


def result_roll(check: UnderCheck | Check, dice: DiceSource) -> Roll:
    """A test read by its result alone (Kuryakin, Morale; Charge Test; Charge Home Test: the
    percentile tests, and the morale result chart): under a real source rolled and recorded as
    ever (seeded, physical, forced ``--dice``); under a source that enumerates
    (``dice.sources.branch``) one branch per distinct result (pass/fail, or each row of the
    chart) with the check's exact odds, so a percentile die costs 2 branches, not 100. The
    branch's Roll carries the result and no dice (no faces were rolled)."""
    if getattr(dice, "branch", None) is None:  # a real source: no odds computed, dice rolled
        return check.resolve(dice) if isinstance(check, UnderCheck) else check_roll(check, dice)
    o = check.odds()
    rows = [r for r in o.rows if r.p]
    k = branch(dice, [r.p for r in rows])
    assert k is not None
    row = rows[k]
    return Roll(
        expression=check.expression,
        faces=(),
        natural=0,
        modifiers=o.modifiers,
        superseded=o.superseded,
        row=row.key,
        range_text=row.range_text,
        consequence=row.result,
        label=o.label,
        rule=o.rule,
        table="under" if isinstance(check, UnderCheck) else getattr(check.table, "name", None),
        source=dice.kind,
        target=o.target,
        base_target=o.base_target,
        strict=o.strict,
    )


def fold_events(state: State, events: Iterable[Any]) -> State:
    """The state after a procedure's events, for a procedure built from others."""
    for e in events:
        if isinstance(e, Patch):
            state = fold_patch(state, e, ENTITIES)
    return state
