"""Typed requests for every Kuryakin procedure (the referee protocol's request dataclasses).

One frozen dataclass per procedure: the core derives argument checking (unknown fields refused
with a did-you-mean, mistyped ones with one line naming the field), CLI help, the web form and
a JSON schema from it, and the procedure bodies read the request's attributes (a field no
procedure declares cannot be read: mypy and the slots refuse it). A fact left out (``None``)
is measured on the table when positions are kept, or takes the default the procedure says.
Facts shared by several procedures (the morale facts, the charge facts, the melee facts) are
declared once in a base class.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any

from vedette.dice import DiceSource, Odds
from vedette.errors import BadRequest, RuleViolation, VedetteError
from vedette.referee import Plan, arg, declared, procedure
from vedette.rules.base import Outcome
from vedette.rules.solo_napoleonic.memo import of_state


# -- turn, staff and cards --------------------------------------------------------------------
@procedure("staff", rule="Kuryakin, Generals", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Staff:
    """generate the staff's TH/AV/CR (or enter historical ratings)"""

    general: str | None = arg("one general (default: every unrated one)", default=None)
    th: str | None = arg("historical TH: below_average|average|above_average", default=None)
    av: str | None = arg("historical AV: timid|normal|aggressive", default=None)
    cr: int | None = arg("historical Control Rating", default=None)
    grade: str | None = arg("historical grade", default=None)
    reroll: bool | None = arg(
        "roll again for rated generals (house rule [options] staff_reroll only)", default=None
    )


@procedure(
    "control", rule="Kuryakin, Generals (control) / Movement (Control Phase)", omit_none=True
)
@dataclass(frozen=True, slots=True, kw_only=True)
class Control:
    """control phase: each brigadier rolls D8 under his CR"""

    out_of_command: list[str] | None = arg("units out of command (when not placed)", default=None)
    seniors_near: list[str] | None = arg(
        "div/corps commanders within 300mm (when not placed)", default=None
    )


@procedure("deal", rule="Kuryakin, Move Sequence / Movement", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Deal:
    """deal and reveal activation cards and chance cards"""

    cards: dict[str, int] | None = arg("cards dealt by hand: {holder: number}", default=None)
    chance: dict[str, str] | None = arg("chance cards drawn by hand: {side: card}", default=None)


@procedure("next", rule="Kuryakin, Move Sequence / Movement", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Next:
    """finish the active card and reveal whose turn it is"""


@procedure("order", rule="Kuryakin, Move Sequence / Movement", query=True, omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Order:
    """the card queue"""


@procedure("end_turn", rule="Kuryakin, Move Sequence", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class EndTurn:
    """end the turn"""

    force: bool | None = arg(
        "true: end it over the cards still to act, when none of them owes a step when it comes"
        " (a morale marker, a routing unit's run, a carried formation change)",
        default=None,
    )


@procedure("chance", rule="Kuryakin, Move Sequence (chance cards)", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Chance:
    """play a side's chance card"""

    side: str = arg("")
    on: str | None = arg("the unit it is played on, or random", default=None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Query:
    """A query that takes no argument (reasons, assumptions)."""


@procedure("reasons", rule="Kuryakin, Morale", query=True, omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Reasons(Query):
    """reasons for testing morale"""


@procedure("assumptions", query=True, omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Assumptions(Query):
    """list the default data that fills the text's missing tables"""


# -- one unit ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True, kw_only=True)
class OneUnit:
    """A procedure on one unit (start, halt, reform, close, status)."""

    unit: str = arg("unit id")


@procedure("start", rule="Kuryakin, Moving From A Standstill", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Start(OneUnit):
    """move from a standstill (d6)"""


@procedure("halt", rule="Kuryakin, Moving From A Standstill", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Halt(OneUnit):
    """stop an advance (d6: 6 carries on)"""


@procedure("reform", rule="Kuryakin, Disorder", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Reform(OneUnit):
    """reform: the whole turn, the reform die's chits removed ([dice] reform)"""


@procedure("close", rule="Kuryakin, Charge Test", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Close(OneUnit):
    """the charger moves up to its target (Charge Test)"""


@procedure("status", query=True, omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Status(OneUnit):
    """a unit's state and what it may do"""


@dataclass(frozen=True, slots=True, kw_only=True)
class MoraleFacts:
    """A morale-type test of one unit, with the facts a player may state when positions are
    not kept (Kuryakin, Morale; every morale-type procedure declares all of them)."""

    unit: str = arg("unit id")
    charged_by: str | None = arg(default=None)
    friendly_within_300: int | None = arg(default=None)
    in_command: bool | None = arg(default=None)
    casualties: int | None = arg(default=None)
    flank_rear: bool | None = arg(default=None)
    defending_cover: bool | None = arg(default=None)
    artillery_no_reply: bool | None = arg(default=None)
    melee_loser: bool | None = arg(default=None)
    co_killed: bool | None = arg(default=None)
    corps_killed: bool | None = arg(default=None)
    friends_routing: int | None = arg(default=None)
    vs_cavalry: bool | None = arg(default=None)
    charged_by_higher_class: bool | None = arg(default=None)
    officer_front: bool | None = arg(
        "the officer is in the front rank (optional rules)", default=None
    )
    standard_front: bool | None = arg(
        "the standard is in the front rank (optional rules)", default=None
    )


@procedure("morale", rule="Kuryakin, Morale", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Morale(MoraleFacts):
    """morale test (d100 under BPL + modifiers)"""


@procedure("rally", rule="Kuryakin, Morale", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Rally(MoraleFacts):
    """rally a routing/retiring unit (a morale test)"""


@procedure("require", rule="Kuryakin, Movement (attacked units jump the queue)", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Require(MoraleFacts):
    """a unit must test morale: marker, or at once if it has acted"""


@procedure("move", rule="Kuryakin, Random Movement", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Move:
    """move a unit (random distance, swerve)"""

    unit: str = arg("unit id")
    distance: float | None = arg("mm (default: a full move)", default=None)
    mode: str | None = arg("advance|move|retire|retreat|pursuit|rout", default=None)
    direction: float | None = arg("degrees from the facing (placed units)", default=None)
    toward: str | None = arg("the unit it moves toward (a restricted unit)", default=None)


@procedure("formation", rule="Kuryakin, Formation Changing", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Formation:
    """change formation (d4 quarters)"""

    unit: str = arg("unit id")
    to: str | None = arg("new formation", default=None)
    front: int | None = arg("figures in the new front", default=None)
    width: float | None = arg(
        "a skirmish line's frontage in mm (at most 4x its line's)", default=None
    )


@procedure("disorder", rule="Kuryakin, Disorder", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Disorder:
    """add/remove D chits; cause=collision rolls the collision die ([dice]) each"""

    cause: str = arg("")
    unit: str | None = arg(default=None)
    units: list[str] | None = arg(default=None)
    n: int | None = arg(default=None)
    remove: bool | None = arg(default=None)


@procedure("place", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Place:
    """put a unit or general on the table (mm)"""

    x: float = arg("")
    y: float = arg("")
    unit: str | None = arg(default=None)
    general: str | None = arg(default=None)
    facing: float | None = arg(default=None)
    width: float | None = arg(
        "frontage in mm (a skirmish line: at most 4x its line's)", default=None
    )
    depth: float | None = arg("depth in mm", default=None)


@procedure("attach", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Attach:
    """attach a general to a unit (unit=none detaches)"""

    general: str = arg("")
    unit: str = arg("unit id")


@procedure("general", rule="Kuryakin, Generals (a general's own move)", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Ride:
    """an unattached general rides (toward a unit, or to a point)"""

    general: str = arg("the general (not attached to a unit)")
    to: str | None = arg("a unit he rides toward (as far as his move takes him)", default=None)
    x: float | None = arg("or a point (mm) within his move", default=None)
    y: float | None = arg(default=None)


@procedure("evade", rule="Kuryakin, Melee/Cavalry vs. Infantry", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Evade:
    """skirmishers evade cavalry D20 cm"""

    unit: str = arg("unit id")
    caught: int | None = arg(default=None)


# -- fire, charge and melee -------------------------------------------------------------------
@procedure("fire", rule="Kuryakin, Firing/Infantry", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Fire:
    """fire: volleys, skirmishers or a battery"""

    unit: str = arg("unit id")
    target: str = arg("target unit id")
    range: str | None = arg("short|long (or canister for guns) when not placed", default=None)
    volleys: int | None = arg(default=None)
    cover: str | None = arg("none|soft|hard", default=None)
    moved: bool | None = arg(default=None)
    at_chargers: bool | None = arg(default=None)
    reaction: bool | None = arg("defensive fire at a charger", default=None)
    hold: bool | None = arg("hold the defensive fire owed at a charger", default=None)
    staff_officer: bool | None = arg(default=None)
    figures: int | None = arg(default=None)
    through_skirmishers: bool | None = arg(default=None)


@dataclass(frozen=True, slots=True, kw_only=True)
class ChargeFacts:
    """The facts of a charge test (Kuryakin, Charge Test, Charge Home)."""

    unit: str = arg("unit id")
    charging_inferior: bool | None = arg("the target is of a lower class", default=None)
    target_steady: bool | None = arg("the target has not failed morale", default=None)
    officer_front: bool | None = arg(
        "the officer is in the front rank (optional rules)", default=None
    )
    standard_front: bool | None = arg(
        "the standard is in the front rank (optional rules)", default=None
    )


@procedure("charge", rule="Kuryakin, Charge Test", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Charge(ChargeFacts):
    """declare a charge: the charge test"""

    target: str = arg("target unit id")
    flank_rear: bool | None = arg(
        "the charge hits the target's flank or rear (positions not kept)", default=None
    )


@procedure("charge_home", rule="Kuryakin, Charge Home Test", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class ChargeHome(ChargeFacts):
    """the charge home test"""

    uphill: bool | None = arg(default=None)
    obstacle: str | None = arg("obstacle|building", default=None)
    casualties_this_move: int | None = arg(default=None)
    test: bool | None = arg("test even if not needed", default=None)


@dataclass(frozen=True, slots=True, kw_only=True)
class MeleeFacts:
    """Two units in melee, with the facts a player may state when positions are not kept."""

    unit: str = arg("unit id")
    target: str = arg("target unit id")
    contact: bool | None = arg("the two are in contact (positions not kept)", default=None)
    a_figures: int | None = arg("figures of the attacker that count", default=None)
    b_figures: int | None = arg("figures of the defender that count", default=None)
    a_contact: int | None = arg("attacker's files in contact", default=None)
    b_contact: int | None = arg("defender's files in contact", default=None)
    a_hit_standing: bool | None = arg("the attacker is hit standing", default=None)
    b_hit_standing: bool | None = arg("the defender is hit standing", default=None)
    a_flank_rear: bool | None = arg(
        "the attacker's cavalry hit the enemy's flank or rear (+2)", default=None
    )
    b_flank_rear: bool | None = arg(
        "the defender's cavalry hit the enemy's flank or rear (+2)", default=None
    )


@procedure("melee", rule="Kuryakin, Melee", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Melee(MeleeFacts):
    """a round of melee"""

    round: int | None = arg(default=None)


@procedure("brawl", rule="Kuryakin, Melee", omit_none=True)
@dataclass(frozen=True, slots=True, kw_only=True)
class Brawl(MeleeFacts):
    """the further rounds of melee (their die: [dice] further_rounds)"""


# -- how a Kuryakin procedure plans: the dry run of its body -----------------------------------
Steps = tuple[
    Callable[[Any, Any], Plan],
    Callable[[Any, Plan, DiceSource], Outcome],
    Callable[[Any, Any], None],
    Callable[[Any, Any, DiceSource], Outcome],
]


def by_dry_run(
    body: Callable[[Any, Any, DiceSource], Outcome],
    odds: Callable[[Any, Any], Sequence[Odds]] | None = None,
    after_dice: tuple[str, ...] = (),
    refused: Callable[[Any, Any], bool] | None = None,
    read_early: Callable[[Any, Any], bool] | None = None,
) -> Steps:
    """``(plan, resolve, check, play)`` of a procedure whose ``body(state, request, dice)`` checks
    the rules and then rolls: ``plan`` is the body's dry run up to its first die (remembered
    per state; a query skips it), with ``odds(state, request)``, the odds of the steps it will
    take, shown before the roll; ``resolve`` runs the body; ``check`` is the dry run alone
    (``todo`` asks it of every offer); ``play`` is ``plan`` then ``resolve`` in one run of the
    body (the simulator): a verdict this state already has refuses at once, else the body runs
    with the real dice and refuses, before its first die, exactly where its dry run would.
    ``after_dice``: request fields the body reads only after
    its first die (a move's direction), so that its dry run, and the verdict, is the same
    whatever they are: requests that differ only there share one dry run (``todo`` offers a
    move in six directions); ``read_early(state, request)``: true of a request whose body reads
    them before its first die after all (a retirement's direction, reading K75), judged on the
    whole request. ``refused(state, request)``: true only of a request the body is
    sure to refuse before its first die, told more cheaply than the body tells it; ``play``
    (the simulator's alone: a refusal there is skipped, its words never read) then refuses at
    once, in words of its own. Registered as ``Procedure(Request, *by_dry_run(body, odds))``."""
    keys: dict[type, Callable[[Any], Any] | None] = {}
    quick = RuleViolation(
        "the simulator's quick check", f"refused: {getattr(body, '__name__', 'this action')}"
    )

    def key_of(state: Any, req: Any) -> Any:
        cls = type(req)
        if cls not in keys:
            kept = [f.name for f in fields(req) if f.name not in after_dice]
            # the request's fields but those: the key of its verdict (a tuple of their values)
            keys[cls] = attrgetter(*kept, kept[0]) if after_dice and kept else None
        get = keys[cls]
        if get is None or (read_early is not None and read_early(state, req)):
            return req
        return get(req)

    def check(state: Any, req: Any) -> None:
        memo = of_state(state)
        if memo is None:
            dry_run(body, state, req)
        else:
            judged(memo, body, state, key_of(state, req), req)

    def plan(state: Any, req: Any) -> Plan:
        if not QUERY.get() and not declared(type(req)).query:
            check(state, req)
        if odds is None:
            return Plan(req, data=req)
        return Plan(req, data=req, step_odds_fn=lambda: odds(state, req))

    def resolve(state: Any, plan_: Plan, dice: DiceSource) -> Outcome:
        return body(state, plan_.request, dice)

    def play(state: Any, req: Any, dice: DiceSource) -> Outcome:
        memo = of_state(state)
        # (a state never judged, as the simulator's mostly are: no verdict to look up)
        if memo is not None and _JUDGED in memo and not QUERY.get():
            try:
                hit = memo.get((body, key_of(state, req)))
            except TypeError:  # an unhashable request: no verdict kept for it
                hit = None
            if hit is not None and hit is not _ACCEPTED:
                raise hit.with_traceback(None)
        if refused is not None and memo is not None and refused(state, req):
            raise quick.with_traceback(None)  # (with the memos off: the body's own words)
        return body(state, req, dice)

    return plan, resolve, check, play


#: set while the ruleset judges a query (odds, chances): its plan skips the dry run, so the
#: odds of an action are shown whether or not it could be taken now (issue 22: queries are
#: never phase-bound)
QUERY: ContextVar[bool] = ContextVar("solonap_query", default=False)
#: set while a sequence's odds are worked out (``chances charge_to_melee``): its steps are played
#: as if the charger's card were up (issue 24: queries in every phase); every other rule binds
ANY_CARD: ContextVar[bool] = ContextVar("solonap_any_card", default=False)


class _FirstRoll(BaseException):
    """Raised by :class:`DryDice` at the first die: every check before it has passed."""


class DryDice:
    """A dice source that stops the procedure at its first die (the plan's dry run)."""

    kind = "dry"

    def face(self, die: Any) -> int:
        raise _FirstRoll()


#: a dry run that reached its first die (or the end of a body that rolls none): accepted
_ACCEPTED = object()
#: the key a state's memo holds once a verdict is kept in it
_JUDGED = "judged"


def judged(
    memo: dict[Any, Any],
    body: Callable[[Any, Any, DiceSource], Outcome],
    state: Any,
    key: Any,
    req: Any,
) -> None:
    """``dry_run(body, state, req)``, its verdict remembered in ``memo`` (the state's) under
    ``key``: accepted, or the refusal raised again (the same exception: the same words). An
    unhashable request (a list or a table in it) is judged afresh; so is an unexpected error."""
    try:
        k = (body, key)
        hit = memo.get(k)
    except TypeError:
        dry_run(body, state, req)
        return
    if hit is None:
        memo[_JUDGED] = True
        try:
            dry_run(body, state, req)
        except VedetteError as e:
            memo[k] = e
            raise
        memo[k] = _ACCEPTED
        return
    if hit is not _ACCEPTED:
        raise hit.with_traceback(None)


def dry_run(body: Callable[[Any, Any, DiceSource], Outcome], state: Any, req: Any) -> None:
    """Run ``body`` up to its first die: the rules it checks before rolling refuse here, in
    ``plan`` (so ``todo`` offers nothing the roll would then refuse). A body checks everything
    that can refuse it before its first die."""
    try:
        body(state, req, DryDice())
    except _FirstRoll:
        return


def count(value: int | None, key: str, default: int = 0) -> int:
    """A stated count (``None``: the default), never negative."""
    if value is None:
        return default
    if value < 0:
        raise BadRequest(f"'{key}' must not be negative")
    return value


def flag(value: bool | None, default: bool = False) -> bool:
    """A stated fact (``None``: the default)."""
    return default if value is None else value


def choice(value: str | None, key: str, choices: Sequence[str], default: str | None = None) -> str:
    """A stated choice (``None``: the default), one of ``choices``."""
    v = default if value is None else value
    if v is None:
        raise BadRequest(f"missing '{key}'")
    if v not in choices:
        raise BadRequest(f"'{key}' must be one of {', '.join(choices)}, not {v!r}")
    return v
