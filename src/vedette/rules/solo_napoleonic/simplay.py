"""How ``vedette simulate`` plays Kuryakin: the end of a battle (an assumption in the data,
``[battle_end]``), whose card it is, the lines a policy chooses from, and the cards policy."""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from vedette.errors import DataError
from vedette.rules.protocol import GameOutcome, parsed_shared
from vedette.rules.simulation import (
    RANDOM,
    Candidate,
    Done,
    LazyLine,
    Line,
    Policy,
    SimPlay,
    battle_end_turns,
    todo_lines,
)
from vedette.rules.solo_napoleonic import memo

END_CONDITION = (
    "army morale break (an assumption: the text gives none; [battle_end] of the rules data,"
    " house-rule overridable): a side with at least break_fraction (0.5) of its units routing"
    " or eliminated has broken, at any moment (the moment show and todo say BROKEN), and the"
    " other side wins (both at once: a draw); no break after max_turns (12) turns: a draw"
    " (turn limit)"
)


def battle_end(data: Mapping[str, Any], source: str = "rules data") -> tuple[float, int]:
    """``[battle_end]``: (break_fraction, max_turns), checked (0 < fraction <= 1, turns >= 1)."""
    turns = battle_end_turns(data, source)
    frac = data["battle_end"].get("break_fraction")
    if not isinstance(frac, int | float) or isinstance(frac, bool) or not 0 < frac <= 1:
        raise DataError(source, f"[battle_end] break_fraction must be in (0, 1], not {frac!r}")
    return float(frac), turns


def losses(state: Any) -> dict[str, int]:
    """Each side's units lost for its army's morale (``State.lost_ids``)."""
    return dict(state.lost_by_side())


def broken(state: Any, side: str, fraction: float) -> bool:
    """Whether ``side``'s army has broken: at least ``fraction`` of its units lost (the count
    ``standing`` shows and ``outcome`` ends a study on)."""
    n = state.side_sizes().get(side, 0)
    return bool(n > 0 and state.lost_by_side().get(side, 0) >= fraction * n)


def standing(state: Any) -> dict[str, Any]:
    """Reading K56 shown in a played game: the text has no victory conditions, so the house
    rule's army break (``[battle_end] break_fraction``) never ends a played game, but ``show``
    and ``todo`` say how each side stands against it: its units routing or lost of its total,
    the count at which it breaks, and whether it has (a study would end the game there)."""
    fraction = float(state.config.break_fraction)
    sides: dict[str, dict[str, Any]] = {}
    lost_by = losses(state)
    sizes = state.side_sizes()
    for s in state.sides:
        sides[str(s)] = {
            "lost": lost_by.get(s, 0),
            "units": sizes.get(s, 0),
            "breaks_at": math.ceil(fraction * sizes.get(s, 0) - 1e-9),
            "broken": broken(state, s, fraction),
        }
    words = "; ".join(
        f"{s} {d['lost']} of {d['units']} units routing or lost (breaks at {d['breaks_at']})"
        + (": BROKEN" if d["broken"] else "")
        for s, d in sides.items()
    )
    short = " · ".join(  # (the web's folded line: every side's count at a glance)
        f"{s} {d['lost']}/{d['units']} lost" + (", BROKEN" if d["broken"] else "")
        for s, d in sides.items()
    )
    return {
        "rule": "house rule [battle_end] (reading K56): not an end in a played game",
        "break_fraction": fraction,
        "sides": sides,
        "text": f"army morale (house rule, reading K56; the game goes on): {words}",
        "short": short,
    }


#: the last verdict of :func:`outcome`: (the lost units, the units' index, the game's data,
#: the sides broken), the objects kept alive (the states of a game share them until a unit is
#: lost or rallies)
_DOWN: list[Any] = [None, None, None, []]


def outcome(state: Any) -> GameOutcome | None:
    """The study's end (reading K56): an army broken at any moment, counted as ``standing``
    counts it (the moment ``show`` and ``todo`` say BROKEN); the turn limit at a turn's start."""
    lost_ids = state.lost_ids()
    if lost_ids:  # (none lost, none broken: the check of nearly every action)
        hit = _DOWN
        if hit[0] is lost_ids and hit[1] is state.index and hit[2] is state.config:
            down = hit[3]  # (as the state before: no unit lost or back since)
        else:
            fraction = state.config.break_fraction
            down = [s for s in state.sides if broken(state, s, fraction)]
            hit[:] = [lost_ids, state.index, state.config, down]
        if down and len(down) == len(state.sides):
            return GameOutcome("draw", "army broken", state.turn, losses(state))
        if down:
            winner = next(s for s in state.sides if s not in down)
            return GameOutcome(str(winner), "army broken", state.turn, losses(state))
    if state.phase != "control":
        return None
    if state.turn > state.config.max_turns:
        return GameOutcome("draw", "turn limit", state.turn, losses(state))
    return None


_CARDS: Mapping[str, int] = {
    "charge": 0,
    "fire": 1,
    "rally": 2,
    "chance": 3,
    "reform": 4,
    "move": 5,
    "formation": 6,
    "next": 9,
}


def _cards(name: str, candidate: dict[str, Any], state: Any, done: Done) -> int | None:
    if (name, str(candidate.get("unit", ""))) in done and "unit" in candidate:
        return None  # each action once a unit a card (what is owed is always done)
    return _CARDS.get(name, 7)


CARDS = Policy(
    "cards",
    "Kuryakin: on each card, every unit charges if it may, else fires, else rallies, plays"
    " a held chance card, reforms, moves (a full move ahead), changes formation, each at"
    " most once a unit a card; the next card when nothing is left; defensive fire when"
    " it may",
    _cards,
)


def _first_choices(
    procedure: str, given: dict[str, Any], open_: Mapping[str, Any]
) -> list[Candidate]:
    """An open entry's first eight combinations of choices, in the order offered (once per
    value: a unit's move is offered again and again at the same distances; the requests are
    read, never changed)."""
    if not memo.ENABLED:
        return _choices(procedure, given, open_)
    try:
        key = (procedure, tuple(given.items()), tuple(open_.items()))
        return memo.pure("first choices", key, lambda: _choices(procedure, given, open_))
    except TypeError:  # a value that is not hashable: made afresh
        return _choices(procedure, given, open_)


def _choices(procedure: str, given: dict[str, Any], open_: Mapping[str, Any]) -> list[Candidate]:
    fields = list(open_)
    combos = itertools.islice(itertools.product(*(open_[f] for f in fields)), 8)
    return [(procedure, {**given, **dict(zip(fields, c, strict=True))}) for c in combos]


#: ``refused(state, procedure, unit, request)``: true only of an action the rules are sure to
#: refuse before any die (``morale.quick_refused``: the ruleset hands it over)
Refused = Callable[[Any, str, str, Any], bool]


class KuryakinSim(SimPlay):
    policies: ClassVar[Mapping[str, Policy]] = {"random": RANDOM, "cards": CARDS}

    def __init__(self, refused: Refused) -> None:
        self.refused = refused
        #: the side of each card holder asked about, kept with the units' index (one object
        #: shared by every state of a game; a general's or a unit's side never changes)
        self._sides: tuple[Any, dict[str, str]] = (None, {})
        #: the generals last found all rated
        self._rated: Any = None

    def acting_side(self, state: Any) -> str:
        if state.phase != "activation" or state.active is None:
            return ""
        index, sides = self._sides
        if index is not state.index:
            sides = {}
            self._sides = (state.index, sides)
        holder = state.active
        side = sides.get(holder)
        if side is None:
            side = sides[holder] = _side_of(state, holder)
        return side

    def lines(self, state: Any, ruleset: Any, rng: random.Random) -> Sequence[Line]:
        """The ``todo`` lines (pre-filled by the ruleset); generals without ratings are rated
        first ('staff': the rules' own random ratings), as a player starting the game would.
        While nothing is owed, the ruleset's options are made as lines straight away
        (:func:`sim_line`: the same lines as from its ``Todo`` entries, :func:`todo_line`)."""
        if state.generals is not self._rated:
            if any(g.cr is None for g in state.generals):
                return [[("staff", {})]]
            self._rated = state.generals  # (a rating is never taken back)
        if not ruleset.obligations(state):
            made = ruleset.made_offers(state, sim_line)
            if not memo.ENABLED:  # the old path: every line as made, judged when tried
                return made  # type: ignore[no-any-return]
            out = _Lines(made)  # (list's own __init__: no Python frame a step)
            out.state, out.procs, out.refused = state, ruleset.procedures, self.refused
            return out
        return [todo_line(t) for t in todo_lines(state, ruleset)]


def _side_of(state: Any, holder: str) -> str:
    """The side of the general or unit ``holder`` ('' for neither)."""
    for g in state.generals:
        if g.id == holder:
            return str(g.side)
    for u in state.units:
        if u.id == holder:
            return str(u.side)
    return ""


#: the procedures whose lines the simulator tells refused at once (``morale.quick_refused``)
QUICK = frozenset({"fire", "charge", "reform", "halt", "start"})


class Quick(list[Candidate]):
    """The line of a fire or a charge at an enemy, a reform, a try to halt or to move off (its
    one candidate): many of these the rules refuse (out of arc, range or reach, a unit that
    fired or charged this turn, one that has nothing to reform), each of them found out by the
    quick check of ``morale.quick_refused`` when the line is drawn, without a trial of the
    candidate (:class:`_Lines`). Its parsed request is kept with it (a line is handed out
    again while its unit's offers stay the same)."""

    #: (made by list's own ``__init__`` from its one candidate: no Python frame a line)
    parsed: Any = None


class QuickMove(LazyLine):
    """A unit's move line (its choices made when first read): every choice refused where the
    unit may not move now (``morale.quick_refused``), told when the line is drawn."""

    __slots__ = ("unit",)

    def __init__(self, build: Callable[[], list[Candidate]], unit: str) -> None:
        super().__init__(build)
        self.unit = unit


class _Lines(list[Line]):
    """The lines of a step as the random policy draws them (by index): a line of
    :class:`Quick` or :class:`QuickMove` the rules are sure to refuse reads as an empty line,
    so no refused candidate of the kind is tried, and the lines are as many as made (the same
    draws, the same games). Iterated, the lines are as made (a policy that ranks every
    candidate: each one judged when tried)."""

    __slots__ = ("procs", "refused", "state")

    state: Any
    procs: Mapping[str, Any]
    refused: Refused

    def __getitem__(self, i: Any) -> Any:
        line = list.__getitem__(self, i)
        if type(line) is Quick:
            name, req = line[0]
            parsed = line.parsed
            if parsed is None:
                parsed = line.parsed = parsed_shared(self.procs[name], req)[0]
            if self.refused(self.state, name, parsed.unit, parsed):
                return ()
        elif type(line) is QuickMove and self.refused(self.state, "move", line.unit, None):
            return ()
        return line


def todo_line(t: Any) -> Line:
    """The line of a ``todo`` entry: an owed volley fires if it may, else holds its fire; an
    open entry, its first few choices in the order offered; else the entry as it stands."""
    given = dict(t.request)
    if t.procedure == "fire" and t.owed:  # fire if it may, else hold its fire
        return [("fire", given), ("fire", {**given, "hold": True})]
    if t.open:  # an open entry: its first few choices, in the order offered
        return LazyLine(functools.partial(_first_choices, t.procedure, given, t.open))
    return [(t.procedure, given)]


def sim_line(
    procedure: str,
    request: dict[str, Any],
    text: str,
    rule: str,
    open_: Mapping[str, tuple[Any, ...]] | None = None,
) -> Line:
    """An option (not owed) made straight as its line: :func:`todo_line` of its ``Todo``. The
    lines are kept with the options' memo and handed out again: their requests are read,
    never changed."""
    if open_:
        build = functools.partial(_first_choices, procedure, request, open_)
        if procedure == "move":
            return QuickMove(build, request["unit"])
        return LazyLine(build)
    if procedure in QUICK:
        return Quick(((procedure, request),))
    return [(procedure, request)]
