"""The game's values: generals, units, activation cards and the whole state (Kuryakin).

Everything is a frozen dataclass; the state changes only by events folded in
:mod:`vedette.rules.solo_napoleonic.ruleset`. Positions are optional: a unit placed on the
table has a centre (``x``, ``y`` in mm; 1mm = 1 yard), a ``facing`` in degrees (0 = up the
table, clockwise) and a footprint (``width``, ``depth``). Without positions the player states
the facts (``in_command=true``, ``friendly_within_300=2``) in the request.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

from vedette.errors import BadRequest, DataError

if TYPE_CHECKING:
    from vedette.rules.solo_napoleonic.config import Config

GRADES = ("A", "B", "C", "D")
SIDES_DEFAULT = ("French", "Allies")
KINDS = (
    "infantry",
    "light_cavalry",
    "cavalry",
    "heavy_cavalry",
    "foot_artillery",
    "horse_artillery",
)
RANKS = ("brigadier", "division", "corps")
TH = ("below_average", "average", "above_average")
AV = ("timid", "normal", "aggressive")
STATUSES = ("steady", "retiring", "routing", "eliminated")
SPECIALS = ("officer", "musician", "standard")
SPECIAL_STATES = ("alive", "dead", "absent")
OPTIONAL_RULES = ("officers", "musicians", "standards")


def is_cavalry(kind: str) -> bool:
    return kind in ("light_cavalry", "cavalry", "heavy_cavalry")


def is_artillery(kind: str) -> bool:
    return kind in ("foot_artillery", "horse_artillery")


def grade_rank(grade: str) -> int:
    """A is the highest class (0), D the lowest (3)."""
    return GRADES.index(grade)


@dataclass(frozen=True)
class General:
    """A commander with three ratings (Kuryakin, Generals): Troop Handling, Attack Value and
    Control Rating (with its Grade). Not slotted: ``updated`` copies its ``__dict__``."""

    id: str
    name: str
    side: str
    rank: str = "brigadier"
    nation: str = ""
    superior: str | None = None
    th: str | None = None
    av: str | None = None
    grade: str | None = None
    cr: int | None = None
    attached_to: str | None = None
    x: float | None = None
    y: float | None = None
    killed: bool = False
    #: mm ridden this turn (an unattached general's own move: Kuryakin, Generals)
    moved_mm: float = 0.0

    @property
    def rated(self) -> bool:
        return self.th is not None and self.av is not None and self.cr is not None

    @property
    def placed(self) -> bool:
        return self.x is not None and self.y is not None

    def describe(self) -> str:
        th = (self.th or "?").replace("_", " ")
        av = (self.av or "?").replace("_", " ")
        cr = "?" if self.cr is None else str(self.cr)
        dead = " KILLED" if self.killed else ""
        return f"{self.id} {self.name} ({self.side} {self.rank}) TH {th}, AV {av}, CR {cr}{dead}"


class _OnTable:
    """``Unit.on_table`` (not eliminated, figures left), worked out once per unit object and
    kept in its ``__dict__``, where the next look-up finds it before this descriptor (a value
    asked thousands of times a game, of units that mostly do not change; issue 29).
    :func:`updated` drops the kept value when the status or the figures change; a unit made
    afresh (``__init__``, ``dataclasses.replace``) has none."""

    def __get__(self, u: Any, owner: Any = None) -> Any:
        if u is None:
            return self
        on = u.status != "eliminated" and u.figures > 0
        u.__dict__["on_table"] = on
        return on


@dataclass(frozen=True)
class Unit:
    """A battalion, regiment or battery. ``front`` is the number of figures in its front rank
    (for volleys and casualty allocation); ``disorder`` is its 'D' chits."""

    id: str
    name: str
    side: str
    kind: str
    grade: str
    figures: int
    brigade: str | None = None
    nation: str = ""
    formation: str = "line"
    front: int = 0
    disorder: int = 0
    status: str = "steady"
    advancing: bool = False
    cuirassiers: bool = False
    rifles: bool = False
    guards: bool = False
    crew: int = 0
    start_figures: int = 0
    officer: str | None = None
    musician: str | None = None
    standard: str | None = None
    officer_pos: int = 1
    standard_pos: int = 0
    musician_pos: int = 0
    must_rally: bool = False
    # position (optional)
    x: float | None = None
    y: float | None = None
    facing: float = 0.0
    width: float = 0.0
    depth: float = 0.0
    # this turn
    acted: bool = False
    moved_mm: float = 0.0
    move_done: bool = False  # its one move this activation is made (Kuryakin, Random Movement)
    fired: bool = False
    volleys_fired: int = 0
    reformed: bool = False
    casualties_turn: int = 0
    morale_due: bool = False
    restricted_to: str | None = None
    in_command: bool = True
    formation_target: str | None = None
    formation_quarters: int = 0
    lost_melee: bool = False
    start_failed: bool = False
    # the standstill tests (start, halt, an advance's own) and the formation changes (begun or
    # carried on) made this activation: readings K72 and K71 limit them per card
    standstill_tests: int = 0
    formation_changes: int = 0
    morale_failed: bool = False
    # a result that binds (issue 23): "advance" (it carries on regardless: it must advance),
    # "halt" (it halts where it stands: no move, no charge this turn), or the move a failed
    # morale test owes at once: "rout", "retire", "retire_half"
    bound: str | None = None
    charge_state: str | None = None  # declared | home | halted | done
    charge_target: str | None = None  # the unit charged (or fought in melee)
    # the charge as one guided sequence (Kuryakin, Charge Test; Charge Home Test; Melee): the
    # step owed next (see flow.py), and what binds for the turn
    charge_step: str | None = None
    charge_flank: bool = False  # the charge hits its target's flank or rear (stated, unplaced)
    charge_failed: bool = False  # failed its charge test: no charge this turn
    home_failed: bool = False  # failed its charge home test: no charge again this turn
    rally_failed: bool = False  # failed its rally this activation: no second try this turn
    melee_round: int = 0  # rounds fought this turn against charge_target
    melee_rounds: int = 0  # rounds allowed this turn (1 + the D3 further rounds); 0: not rolled
    # what the referee knows for the morale test it called (e.g. "co_killed"): filled in
    morale_facts: tuple[str, ...] = ()
    # chance cards played on the unit whose effect lasts (their ids; see ChanceEffect)
    chance_effects: tuple[str, ...] = ()
    # the units its move just ran into (Kuryakin, Disorder: "Each collision D3 D's per unit
    # involved"): the collision's chits are owed (flow.py) until rolled or waived
    collided: tuple[str, ...] = ()

    @property
    def placed(self) -> bool:
        return self.x is not None and self.y is not None

    #: on the table: not eliminated, figures left (kept with the unit once asked: see _OnTable)
    on_table = _OnTable()

    @property
    def charge_over(self) -> str | None:
        """Its charge this turn, once over: "done" or "halted" (reading K73), else None."""
        return self.charge_state if self.charge_state in ("done", "halted") else None

    @property
    def cavalry(self) -> bool:
        return is_cavalry(self.kind)

    @property
    def artillery(self) -> bool:
        return is_artillery(self.kind)

    @property
    def skirmishing(self) -> bool:
        """Skirmishers, and light cavalry fighting dismounted (Kuryakin, Skirmishers: mounted
        carbine fire follows the rules for dismounted fire)."""
        return self.formation == "skirmish" or (
            self.kind == "light_cavalry" and self.formation == "dismounted"
        )

    @property
    def mounted_skirmishers(self) -> bool:
        """Light cavalry skirmishing mounted, with carbines (Kuryakin, Skirmishers: "exactly
        for dismounted fire, except that cavalry cannot fire and move in the same turn")."""
        return self.formation == "skirmish" and self.cavalry

    def front_rank(self) -> int:
        """Figures in the front rank (never more than the unit has)."""
        return max(0, min(self.front, self.figures))

    def describe(self) -> str:
        bits = [f"{self.figures} figs", self.formation]
        if self.artillery:
            bits[0] = f"{self.figures} crew"
        head = f"{self.id} {self.name} [{self.side} {self.kind} {self.grade}] "
        if not self.on_table:
            # eliminated: what it had to do on the table (rally, chits owed, its command) is
            # gone with it
            return head + f"{bits[0]}, eliminated"
        if self.disorder:
            bits.append(f"{self.disorder}D")
        if self.status != "steady":
            bits.append(self.status)
        if self.must_rally:
            bits.append("must rally")
        if self.advancing:
            bits.append("advancing")
        if self.formation_target:
            bits.append(f"→{self.formation_target} in {self.formation_quarters}/4")
        for s in SPECIALS:
            v = getattr(self, s)
            if v is not None and v != "alive":
                bits.append(f"{s} {v}")
        if self.morale_due:
            bits.append("MORALE DUE")
        if self.collided:
            bits.append(f"COLLIDED with {', '.join(self.collided)}: chits due")
        if self.acted:
            bits.append("acted")
        if not self.in_command:
            bits.append("out of command")
        if self.placed:
            bits.append(f"@({self.x:.0f},{self.y:.0f}) facing {self.facing:.0f}°")
        return head + ", ".join(bits)


@dataclass(frozen=True, slots=True)
class Card:
    """An activation card (Kuryakin, Movement): ``holder`` is a brigadier's id for a controlled
    formation or a unit's id; ``key`` orders the queue (a unit that jumps the queue gets a
    fractional key such as 6.5); ``number`` is the card as dealt."""

    holder: str
    number: int
    key: float
    units: tuple[str, ...]
    formation: bool = False

    def key_text(self) -> str:
        return str(int(self.key)) if float(self.key).is_integer() else f"{self.key:g}"


#: what a chance card's effect does (Kuryakin, Move Sequence: the deck itself is missing from
#: the text; ours is labelled as our own in rules.toml)
EFFECT_KINDS = ("modifier", "reroll", "disorder", "no_move", "long_range", "move_bonus", "none")
#: the kinds of roll a modifier or a re-roll applies to
ROLL_KINDS = ("morale", "charge", "charge_home", "volley", "artillery", "standstill")


@dataclass(frozen=True, slots=True)
class ChanceEffect:
    """A chance card's effect, typed: ``modifier`` adds ``value`` to the unit's next roll of
    the named kinds (percent for tests, pips for dice); ``reroll`` rolls a failed test of the
    named kinds again, once; ``disorder`` adds (or, negative, removes) 'D' chits at once;
    ``no_move`` forbids the unit's moves this turn; ``long_range`` makes all fire at the unit
    long range this turn; ``move_bonus`` adds ``value`` percent to its move this turn."""

    kind: str = "none"
    rolls: tuple[str, ...] = ()
    value: int = 0
    uses: int = 1  # rolls it lasts; 0: the whole turn
    on: str = "any"  # friend | enemy | any: whose unit it may be played on (checked)


@dataclass(frozen=True, slots=True)
class ChanceCard:
    id: str
    title: str
    effect: str
    does: ChanceEffect = ChanceEffect()


#: a unit's statuses that count it lost to its army's morale (K56), as a unit with no figures
LOST_STATUS = ("routing", "eliminated")


def lost(u: Unit) -> bool:
    """Lost to its army's morale (the study's army break, reading K56): routing or eliminated."""
    return u.status in LOST_STATUS or u.figures <= 0


@dataclass(frozen=True)
class State:
    """The whole game."""

    title: str
    sides: tuple[str, ...]
    units: tuple[Unit, ...]
    generals: tuple[General, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    #: the rule data read once (shipped data and house rules; config.py)
    config: Config = field(default=None, repr=False, compare=False)  # type: ignore[assignment]
    turn: int = 1
    phase: str = "control"  # control | cards | activation | end
    control: Mapping[str, str] = field(default_factory=dict)  # brigadier -> passed|failed
    cards: tuple[Card, ...] = ()
    deck_size: int = 0
    active: str | None = None  # holder of the current card
    done: tuple[str, ...] = ()  # holders whose card is finished
    chance: Mapping[str, str] = field(default_factory=dict)  # side -> held card id
    chance_played: tuple[str, ...] = ()
    history: tuple[str, ...] = ()
    #: terrain features (geometry.tabletop.Feature) drawn on the board; no rule reads them
    terrain: tuple[Any, ...] = field(default=(), repr=False, compare=False)
    # derived indexes (not part of the game's value): a unit's place in ``units`` (places never
    # change, so the index is shared by every state ``replace`` makes from this one) and the
    # units holding an open charge sequence (kept up to date by ``with_unit``)
    index: Mapping[str, int] = field(default_factory=dict, repr=False, compare=False)
    charging: frozenset[str] | None = field(default=None, repr=False, compare=False)
    due: frozenset[str] | None = field(default=None, repr=False, compare=False)
    # the units bound by a result's move, and those owing a collision's chits (flow.none_owed:
    # asked before every action, so not a scan of every unit)
    bound_set: frozenset[str] | None = field(default=None, repr=False, compare=False)
    collided_set: frozenset[str] | None = field(default=None, repr=False, compare=False)
    # the units whose charge is declared and not yet home (a fire at one of them is defensive
    # fire: fire.is_reaction, asked by every fire's check and the card's listing)
    declared_set: frozenset[str] | None = field(default=None, repr=False, compare=False)
    # the routing units (flow.none_owed: whether one on the active card may owe its run)
    routing_set: frozenset[str] | None = field(default=None, repr=False, compare=False)
    # the units lost to their army's morale, routing or gone (the study's army break, K56:
    # simplay.outcome, asked before every action of a simulated game)
    lost_set: frozenset[str] | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.index) != len(self.units):
            object.__setattr__(self, "index", {u.id: i for i, u in enumerate(self.units)})
        if self.declared_set is None:  # (made once: every state folded from this one keeps it)
            self.declared_ids()

    # -- look-ups -----------------------------------------------------------------------
    def _pos(self, uid: str) -> int | None:
        try:  # (the index's place: the fewest steps, this is asked many times an action)
            i = self.index[uid]
            if self.units[i].id == uid:
                return i
        except (KeyError, IndexError):
            pass
        for j, u in enumerate(self.units):  # a state built by hand: scan
            if u.id == uid:
                return j
        return None

    def unit(self, uid: str) -> Unit:
        u = self.find(uid)
        if u is None:
            raise BadRequest(
                f"no unit {uid!r} (units: {', '.join(u.id for u in self.units) or 'none'})"
            )
        return u

    def find(self, uid: str) -> Unit | None:
        """The unit ``uid``, or None if the state holds none (one look-up: ``has_unit`` and
        ``unit`` together)."""
        try:
            u = self.units[self.index[uid]]
            if u.id == uid:  # the index's place (as _pos checks it)
                return u
        except (KeyError, IndexError):
            pass
        i = self._pos(uid)
        return None if i is None else self.units[i]

    def due_ids(self) -> frozenset[str]:
        """The units with a morale test due (a marker)."""
        if self.due is None:
            ids = frozenset(u.id for u in self.units if u.morale_due)
            object.__setattr__(self, "due", ids)
            return ids
        return self.due

    def charging_ids(self) -> frozenset[str]:
        """The units holding an open charge sequence (flow.py)."""
        if self.charging is None:
            ids = frozenset(u.id for u in self.units if u.charge_step is not None)
            object.__setattr__(self, "charging", ids)
            return ids
        return self.charging

    def bound_ids(self) -> frozenset[str]:
        """The units bound by a result to a move (``Unit.bound``)."""
        if self.bound_set is None:
            ids = frozenset(u.id for u in self.units if u.bound is not None)
            object.__setattr__(self, "bound_set", ids)
            return ids
        return self.bound_set

    def declared_ids(self) -> frozenset[str]:
        """The units whose charge is declared (``charge_state`` "declared")."""
        if self.declared_set is None:
            ids = frozenset(u.id for u in self.units if u.charge_state == "declared")
            object.__setattr__(self, "declared_set", ids)
            return ids
        return self.declared_set

    def collided_ids(self) -> frozenset[str]:
        """The units whose move ran into others, the collision's chits owed (``collided``)."""
        if self.collided_set is None:
            ids = frozenset(u.id for u in self.units if u.collided)
            object.__setattr__(self, "collided_set", ids)
            return ids
        return self.collided_set

    def routing_ids(self) -> frozenset[str]:
        """The routing units (``status`` "routing")."""
        if self.routing_set is None:
            ids = frozenset(u.id for u in self.units if u.status == "routing")
            object.__setattr__(self, "routing_set", ids)
            return ids
        return self.routing_set

    def lost_ids(self) -> frozenset[str]:
        """The units lost to their army's morale (:func:`lost`: routing or eliminated)."""
        if self.lost_set is None:
            ids = frozenset(u.id for u in self.units if lost(u))
            object.__setattr__(self, "lost_set", ids)
            return ids
        return self.lost_set

    def lost_by_side(self) -> Mapping[str, int]:
        """Each side's units lost to its army's morale (every side named; kept with the state
        for its lost units: the states folded from this one share it until one is lost or
        rallies)."""
        ids = self.lost_ids()
        hit = self.__dict__.get("_lost_by")
        if hit is not None and hit[0] is ids:
            return hit[1]  # type: ignore[no-any-return]
        out = dict.fromkeys(self.sides, 0)
        for uid in ids:
            side = self.unit(uid).side
            out[side] = out.get(side, 0) + 1
        object.__setattr__(self, "_lost_by", (ids, out))
        return out

    def side_sizes(self) -> Mapping[str, int]:
        """Each side's number of units (kept with the state for its units' index: a unit's
        side never changes, nor the units a game holds)."""
        hit = self.__dict__.get("_sizes")
        if hit is not None and hit[0] is self.index:
            return hit[1]  # type: ignore[no-any-return]
        sizes: dict[str, int] = {}
        for u in self.units:
            sizes[u.side] = sizes.get(u.side, 0) + 1
        object.__setattr__(self, "_sizes", (self.index, sizes))
        return sizes

    def _generals(self) -> Mapping[str, General]:
        """The generals by id (the first of an id), kept with the state for its generals
        tuple (a state ``but`` makes from this one shares the entry while it holds them)."""
        hit = self.__dict__.get("_by_id")
        if hit is not None and hit[0] is self.generals:
            return hit[1]  # type: ignore[no-any-return]
        by_id = {g.id: g for g in reversed(self.generals)}
        object.__setattr__(self, "_by_id", (self.generals, by_id))
        return by_id

    def general(self, gid: str) -> General:
        g = self._generals().get(gid)
        if g is not None:
            return g
        raise BadRequest(
            f"no general {gid!r} (generals: {', '.join(g.id for g in self.generals) or 'none'})"
        )

    def has_unit(self, uid: str) -> bool:
        return self._pos(uid) is not None

    def has_general(self, gid: str) -> bool:
        return gid in self._generals()

    def brigade_units(self, gid: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.brigade == gid and u.on_table)

    def brigadier_of(self, unit: Unit) -> General | None:
        if unit.brigade is None:
            return None
        return self._generals().get(unit.brigade)

    def chain(self, g: General) -> tuple[General, ...]:
        """The general's superiors, nearest first."""
        out: list[General] = []
        seen = {g.id}
        cur = g
        while (
            cur.superior is not None and cur.superior not in seen and self.has_general(cur.superior)
        ):
            cur = self.general(cur.superior)
            seen.add(cur.id)
            out.append(cur)
        return tuple(out)

    def option(self, name: str) -> bool:
        return bool(self.options.get(name, False))

    def _cards(self) -> CardIndex:
        return card_index(self.cards)

    def card_of(self, uid: str) -> Card | None:
        return self._cards().by_unit.get(uid)

    def spent(self, c: Card) -> bool:
        """No unit of the card is left on the table (reading K69: its card is put aside, like
        a spare counter; the active card stays active until ``next``)."""
        if c.holder == self.active:
            return False
        for uid in c.units:
            u = self.find(uid)
            if u is not None and u.on_table:
                return False
        return True

    def queue(self) -> tuple[Card, ...]:
        """Cards still to act, lowest first (a card whose units are gone is put aside: K69)."""
        done = set(self.done)
        return tuple(c for c in self._cards().ordered if c.holder not in done and not self.spent(c))

    def next_after_active(self) -> Card | None:
        """The card to act after the active one (the first, if none is active): cards act in
        key order and a jump only ever lands after the active card, so this is a bisection."""
        idx = self._cards()
        cur = idx.by_holder.get(self.active) if self.active is not None else None
        start = 0 if cur is None else bisect.bisect_right(idx.keys, cur.key)
        for i in range(start, len(idx.ordered)):
            c = idx.ordered[i]
            if c.holder not in self.done and c.holder != self.active and not self.spent(c):
                return c
        return None

    def put_aside(self) -> tuple[Card, ...]:
        """The cards passed over between the active card and the next one to act: their units
        are gone (reading K69)."""
        idx = self._cards()
        cur = idx.by_holder.get(self.active) if self.active is not None else None
        start = 0 if cur is None else bisect.bisect_right(idx.keys, cur.key)
        out: list[Card] = []
        for i in range(start, len(idx.ordered)):
            c = idx.ordered[i]
            if c.holder in self.done or c.holder == self.active:
                continue
            if not self.spent(c):
                break
            out.append(c)
        return tuple(out)

    def active_card(self) -> Card | None:
        if self.active is None:
            return None
        return self._cards().by_holder.get(self.active)

    def active_units(self) -> tuple[str, ...]:
        """The units on the active card, kept with the state for its cards and holder (asked
        several times a step; a state ``but`` makes from this one shares the entry, which
        holds for it only while its cards and holder are these)."""
        hit = self.__dict__.get("_active_units")
        if hit is not None and hit[0] is self.cards and hit[1] == self.active:
            return hit[2]  # type: ignore[no-any-return]
        c = self.active_card()
        out = c.units if c is not None else ()
        object.__setattr__(self, "_active_units", (self.cards, self.active, out))
        return out

    def with_unit(self, u: Unit) -> State:
        i = self._pos(u.id)
        if i is None:
            raise BadRequest(f"no unit {u.id!r}")
        return self._with_unit_at(i, u)

    def with_changed(self, uid: str, changes: Mapping[str, Any]) -> State:
        """``with_unit(updated(unit(uid), changes))``, the unit found once (a fold's step)."""
        i = self._pos(uid)
        if i is None:
            raise BadRequest(
                f"no unit {uid!r} (units: {', '.join(u.id for u in self.units) or 'none'})"
            )
        return self._with_unit_at(i, updated(self.units[i], changes))

    def _with_unit_at(self, i: int, u: Unit) -> State:
        old = self.units[i]
        units = list(self.units)  # (a list copied and made a tuple: the fastest way in Python)
        units[i] = u
        new = object.__new__(State)  # (``but``, inline: a fold's every step comes here)
        d = new.__dict__
        d.update(self.__dict__)
        d["units"] = tuple(units)
        if (old.charge_step is None) != (u.charge_step is None) and self.charging is not None:
            ids = self.charging
            d["charging"] = ids - {u.id} if u.charge_step is None else ids | {u.id}
        declared = u.charge_state == "declared"
        if (old.charge_state == "declared") != declared and self.declared_set is not None:
            ids = self.declared_set
            d["declared_set"] = ids | {u.id} if declared else ids - {u.id}
        if old.morale_due != u.morale_due and self.due is not None:
            due = self.due
            d["due"] = due | {u.id} if u.morale_due else due - {u.id}
        if (old.bound is None) != (u.bound is None) and self.bound_set is not None:
            ids = self.bound_set
            d["bound_set"] = ids - {u.id} if u.bound is None else ids | {u.id}
        if bool(old.collided) != bool(u.collided) and self.collided_set is not None:
            ids = self.collided_set
            d["collided_set"] = ids | {u.id} if u.collided else ids - {u.id}
        routing = u.status == "routing"
        if (old.status == "routing") != routing and self.routing_set is not None:
            ids = self.routing_set
            d["routing_set"] = ids | {u.id} if routing else ids - {u.id}
        if self.lost_set is not None:
            now = u.status in LOST_STATUS or u.figures <= 0
            if (old.status in LOST_STATUS or old.figures <= 0) != now:
                ids = self.lost_set
                d["lost_set"] = ids | {u.id} if now else ids - {u.id}
        return new

    def with_general(self, g: General) -> State:
        return self.but(generals=tuple([g if x.id == g.id else x for x in self.generals]))

    def but(self, **changes: Any) -> State:
        """This state with ``changes`` (fields of the state): a shallow copy, the fields not
        changed shared (``replace`` without re-running the checks of a new state; the index
        of the units is shared too, as a unit's place never changes)."""
        new = object.__new__(State)
        d = new.__dict__
        d.update(self.__dict__)
        d.update(changes)
        return new


@dataclass(frozen=True, slots=True)
class CardIndex:
    """The cards of a deal, ordered by key, and by holder and unit."""

    ordered: tuple[Card, ...]
    keys: tuple[float, ...]
    by_holder: Mapping[str, Card]
    by_unit: Mapping[str, Card]


_CARD_MEMO: dict[int, tuple[tuple[Card, ...], CardIndex]] = {}


def card_index(cards: tuple[Card, ...]) -> CardIndex:
    """Built once per deal (or jump): the states of a turn share the same ``cards`` tuple."""
    hit = _CARD_MEMO.get(id(cards))
    if hit is not None and hit[0] is cards:
        return hit[1]
    ordered = tuple(sorted(cards, key=lambda c: c.key))
    idx = CardIndex(
        ordered,
        tuple(c.key for c in ordered),
        {c.holder: c for c in cards},
        {uid: c for c in reversed(cards) for uid in c.units},
    )
    if len(_CARD_MEMO) > 32:
        _CARD_MEMO.clear()
    _CARD_MEMO[id(cards)] = (cards, idx)  # the tuple kept alive: its id cannot be reused
    return idx


UNIT_FIELDS = {f.name for f in fields(Unit)}
#: what a unit's body on the table is made from (geom.footprint_key, geom._body)
FOOTPRINT_FIELDS = frozenset({"x", "y", "facing", "width", "depth", "front", "figures"})
GENERAL_FIELDS = {f.name for f in fields(General)}


def updated(obj: Unit | General, changes: Mapping[str, Any]) -> Any:
    """A unit or general with ``changes`` (names of its fields, checked by the event): a
    shallow copy, the fields not changed shared. The replay folds one such change per event,
    and ``dataclasses.replace`` (``__init__`` again with every one of a unit's 60 fields)
    was most of its time; units and generals are plain frozen dataclasses for this."""
    if not changes:
        return obj
    new = object.__new__(type(obj))
    d = new.__dict__
    d.update(obj.__dict__)
    d.update(changes)
    if "on_table" in d and ("status" in changes or "figures" in changes):
        del d["on_table"]  # (kept by _OnTable for the old values)
    if "_body" in d and not FOOTPRINT_FIELDS.isdisjoint(changes):
        del d["_body"]  # (kept by geom.body for the old footprint)
    return new


def special_lost(u: Unit, s: str) -> bool:
    """The unit's special figure ``s`` (officer, musician, standard) dead or absent; a unit
    without one by the rules (its optional rule off, a battery's musician or standard) loses
    none."""
    return getattr(u, s) not in (None, "alive")


def unit_from_data(
    d: Mapping[str, Any], options: Mapping[str, Any], ranks: Mapping[str, Any], source: str
) -> Unit:
    """A unit from a scenario entry; the optional figures exist only with their rule on (a
    battery's officer only)."""
    unknown = set(d) - UNIT_FIELDS
    if unknown:
        raise DataError(source, f"unit {d.get('id')!r}: unknown field(s) {sorted(unknown)}")
    try:
        u = Unit(**{k: v for k, v in d.items()})
    except TypeError as e:
        raise DataError(source, f"unit {d.get('id')!r}: {e}") from None
    if u.kind not in KINDS:
        raise DataError(source, f"unit {u.id!r}: kind must be one of {', '.join(KINDS)}")
    if u.grade not in GRADES:
        raise DataError(source, f"unit {u.id!r}: grade must be one of {', '.join(GRADES)}")
    if u.figures < 0:
        raise DataError(source, f"unit {u.id!r}: figures must not be negative")
    if u.crew and u.crew != u.figures:  # (the field was once read nowhere: a given crew lost)
        raise DataError(
            source,
            f"unit {u.id!r}: crew {u.crew} but {u.figures} figures: a battery's figures are its"
            " crew (Kuryakin, Artillery: one model, one crew figure per piece); give figures",
        )
    front = u.front or math.ceil(u.figures / max(1, int(ranks.get(u.formation, 2))))
    specials: dict[str, Any] = {}
    for rule, s in zip(OPTIONAL_RULES, SPECIALS, strict=True):
        val = getattr(u, s)
        if s != "officer" and is_artillery(u.kind):
            # Kuryakin, Artillery: a battery is its model and crew, and "each battery may
            # include an officer figure": no musician, no standard bearer (none to lose)
            specials[s] = None
        elif options.get(rule):
            specials[s] = val if val in SPECIAL_STATES else "alive"
        else:
            specials[s] = None
    return replace(
        u,
        front=front,
        start_figures=u.start_figures or u.figures,
        standard_pos=u.standard_pos or (front + 1) // 2,
        musician_pos=u.musician_pos or front + 1,
        **specials,
    )


def general_from_data(d: Mapping[str, Any], source: str) -> General:
    unknown = set(d) - GENERAL_FIELDS
    if unknown:
        raise DataError(source, f"general {d.get('id')!r}: unknown field(s) {sorted(unknown)}")
    try:
        g = General(**dict(d))
    except TypeError as e:
        raise DataError(source, f"general {d.get('id')!r}: {e}") from None
    if g.rank not in RANKS:
        raise DataError(source, f"general {g.id!r}: rank must be one of {', '.join(RANKS)}")
    if g.th is not None and g.th not in TH:
        raise DataError(source, f"general {g.id!r}: th must be one of {', '.join(TH)}")
    if g.av is not None and g.av not in AV:
        raise DataError(source, f"general {g.id!r}: av must be one of {', '.join(AV)}")
    return g


#: each dataclass's field names, in order (``fields`` builds its tuple afresh at every call)
_NAMES: dict[type, tuple[str, ...]] = {}


def to_json(obj: Unit | General | Card) -> dict[str, Any]:
    names = _NAMES.get(type(obj))
    if names is None:
        names = _NAMES[type(obj)] = tuple(f.name for f in fields(obj))
    return {n: getattr(obj, n) for n in names}
