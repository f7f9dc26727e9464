"""The Solo Napoleonic (Kuryakin) ruleset: state from a scenario, the fold of events, the
turn's end and the list of procedures."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from itertools import compress, repeat, starmap
from operator import attrgetter, eq, is_not, ne
from typing import TYPE_CHECKING, Any, ClassVar

from vedette.data import merge, package_toml
from vedette.dice import DiceSource
from vedette.dice.roll import Face, Roll
from vedette.errors import BadRequest, DataError, RuleViolation, VedetteError
from vedette.referee import Procedure, procedure_table
from vedette.rules.base import LazyModel, Outcome, Ruleset
from vedette.rules.patch import Patch
from vedette.rules.protocol import GameOutcome, Todo, derive_todo, parsed_request
from vedette.rules.simulation import SimPlay
from vedette.rules.solo_napoleonic import (
    actions,
    cards,
    chance,
    charging,
    fire,
    flow,
    geom,
    melee,
    memo,
    morale,
    simplay,
    staff,
)
from vedette.rules.solo_napoleonic import (
    requests as rq,
)
from vedette.rules.solo_napoleonic.common import ENTITIES, FLOORED, Changes, built
from vedette.rules.solo_napoleonic.config import Config, make_config
from vedette.rules.solo_napoleonic.events import (
    EVENTS,
    GENERAL_FACTS,
    TURN_FACTS,
    UNIT_FACTS,
    GeneralMoved,
    TurnEnded,
    TurnMarksCleared,
)
from vedette.rules.solo_napoleonic.flow import FLOW
from vedette.rules.solo_napoleonic.model import (
    OPTIONAL_RULES,
    SIDES_DEFAULT,
    State,
    general_from_data,
    to_json,
    unit_from_data,
)
from vedette.rules.solo_napoleonic.requests import by_dry_run

if TYPE_CHECKING:
    from vedette.rules.editor import Editor

PKG = "vedette.rules.solo_napoleonic.data"
R_TURN = "Kuryakin, Move Sequence"


def game_options(scenario: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """Scenario defaults, then the game's options. ``optional_figures=true`` switches on all
    three optional rules (officers, musicians, standard bearers)."""
    out: dict[str, Any] = dict(scenario.get("options", {}))
    out.update({k: v for k, v in options.items() if k != "house_rules"})
    if _truthy(out.get("optional_figures")):
        for r in OPTIONAL_RULES:
            out.setdefault(r, True)
    for r in OPTIONAL_RULES:
        out[r] = _truthy(out.get(r, False))
    return out


def _truthy(v: Any) -> bool:
    if isinstance(v, str):
        return v.lower() in ("1", "true", "yes", "on", "y")
    return bool(v)


#: the per-turn marks ``end_turn`` clears, and their cleared values, in order
_CLEARED: tuple[tuple[str, Any], ...] = (
    ("acted", False),
    ("moved_mm", 0.0),
    ("move_done", False),
    ("fired", False),
    ("volleys_fired", 0),
    ("reformed", False),
    ("casualties_turn", 0),
    ("restricted_to", None),
    ("lost_melee", False),
    ("morale_failed", False),
    ("charge_state", None),
    ("charge_target", None),
    ("charge_step", None),
    ("charge_failed", False),
    ("charge_flank", False),
    ("home_failed", False),
    ("rally_failed", False),
    ("melee_round", 0),
    ("melee_rounds", 0),
    ("morale_facts", ()),
    ("chance_effects", ()),
    ("start_failed", False),
    ("standstill_tests", 0),
    ("formation_changes", 0),
    ("morale_due", False),
    ("bound", None),
)
_CLEARED_OF = attrgetter(*(k for k, _ in _CLEARED))
_CLEARED_VALUES = tuple(v for _, v in _CLEARED)


def end_turn(state: State, req: rq.EndTurn, dice: DiceSource) -> Outcome:
    """End of the turn: formations still changing take 1D; chance cards not played are lost;
    the per-turn marks are cleared; the next turn starts with the control phase."""
    left = [c.holder for c in state.queue() if c.holder != state.active]
    if left and not req.force:
        raise RuleViolation(R_TURN, f"cards still to act: {', '.join(left)} (next)")
    owing = owed_on_cards(state) if left else []
    if owing:
        # Kuryakin, Movement: markers direct tests "when their turn comes", and a card owes what
        # its units must do (a rout's run, K60; a carried change, K87): ending the turn over
        # those cards would drop them unasked ('waive' is the way round, logged)
        raise RuleViolation(
            R_TURN,
            f"cards still to act owe steps when they come: {', '.join(owing)} ('next')",
        )
    ch = Changes(state)
    notes = []
    incomplete = state.config.disorder.formation_incomplete
    for u in state.units:
        if not u.on_table:
            continue
        # the marks not already clear (compared in C: ``Changes.unit`` records only those)
        kw = dict(compress(_CLEARED, map(ne, _CLEARED_OF(u), _CLEARED_VALUES)))
        if u.formation_target is not None and not u.skirmishing:
            kw["disorder"] = u.disorder + incomplete
            notes.append(f"{u.id} +{incomplete}D (formation incomplete)")
        if not kw:
            continue  # nothing to clear (what ``Changes.unit`` does with no change)
        ch.unit(TurnMarksCleared, u.id, "end of turn", **kw)
    for g in state.generals:
        if g.moved_mm:
            ch.general(GeneralMoved, g.id, "end of turn", moved_mm=0.0)
    lost = [f"{s} loses {c}" for s, c in state.chance.items() if c not in state.chance_played]
    ch.game(
        TurnEnded,
        "end of turn",
        turn=state.turn + 1,
        phase="control",
        control={},
        cards=(),
        active=None,
        done=(),
        chance={},
        chance_played=(),
        deck_size=0,
    )
    msg = f"turn {state.turn} ends; turn {state.turn + 1}: control phase"
    if notes or lost:
        msg += " (" + "; ".join(notes + lost) + ")"
    return Outcome(tuple(ch.events), (), msg)


def owed_on_cards(state: State) -> list[str]:
    """What the cards still to act owe when they come (``end_turn force=true`` ends the turn
    over them only when they owe nothing): a unit's morale marker, a routing unit's run (reading
    K60; not guns that cannot move, whose run is not owed) and a formation change carried into
    the turn (reading K87)."""
    out: list[str] = []
    runs = state.config.options.routing_runs
    for c in state.queue():
        if c.holder == state.active:
            continue
        for uid in c.units:
            u = state.unit(uid)
            if not u.on_table:
                continue
            if u.morale_due:
                out.append(f"{u.id}'s morale test")
            elif runs and u.status == "routing" and not u.move_done and flow.can_run(state, u):
                out.append(f"{u.id}'s rout")
            elif actions.change_carried(state, u):
                out.append(f"{u.id}'s formation change")
    return out


#: the dry runs ``todo`` judges a fire and a charge by (their verdicts kept per state, shared
#: with todo's: the same bodies)
_FIRE_CHECK = by_dry_run(fire.fire)[2]
_CHARGE_CHECK = by_dry_run(morale.charge)[2]


def attacks_open(state: State, u: Any) -> tuple[bool, bool]:
    """Whether ``todo`` offers ``u`` a fire and a charge: an offer at an enemy (the requests of
    ``enemy_offers``, one enemy after another) its procedure's dry run accepts. The card's
    listing (``next``, ``status``) names them only then, not by the unit's type alone."""
    shoots = charges = False
    for req, _ in _each_enemy_offer(state, u, _request_only):
        shot = isinstance(req, rq.Fire)
        if shoots if shot else charges:
            continue
        try:
            (_FIRE_CHECK if shot else _CHARGE_CHECK)(state, req)
        except VedetteError:
            continue
        if shot:
            shoots = True
        else:
            charges = True
        if shoots and charges:
            break
    return shoots, charges


def _request_only(*_: Any) -> None:
    """(``attacks_open`` reads the offers' requests, not the offers)"""


def next_card(state: State, req: rq.Next, dice: DiceSource) -> Outcome:
    """Finish the active card and reveal the next (``cards.next_card``), its units' fire and
    charge listed where todo offers them (:func:`attacks_open`)."""
    return cards.next_card(state, req, dice, attacks_open)


def status(state: State, req: rq.OneUnit, dice: DiceSource) -> Outcome:
    """What a unit is and may do (a query)."""
    u = state.unit(req.unit)
    active = u.id in state.active_units() and not u.acted
    may = cards.may_do(state, u, attacks_open) if active else []
    return Outcome(
        (),
        (),
        u.describe() + (f"; may: {', '.join(may)}" if may else ""),
        {"unit": to_json(u), "may": may},
    )


def reasons(state: State, req: rq.Query, dice: DiceSource) -> Outcome:
    """The reasons for testing morale (default list: an assumption)."""
    rs = dict(state.config.morale_reasons)
    return Outcome((), (), "\n".join(f"{k}: {v}" for k, v in rs.items()), {"reasons": rs})


def assumptions(state: State, req: rq.Query, dice: DiceSource) -> Outcome:
    """The default data filling the text's missing tables or gaps (replace any of it with
    --house-rules; see docs/rules/solo_napoleonic.md)."""
    paths = list(state.config.assumptions)
    return Outcome(
        (),
        (),
        "default data (assumptions, editable with --house-rules):\n" + "\n".join(paths),
        {"assumptions": paths},
    )


def fire_bands(state: State, f: Any, t: Any) -> list[str | None]:
    """The range bands a volley may be stated at: none to state when both units are placed
    (the distance decides), else one entry per band of its Range Table (the player measures and
    picks one: no typing)."""
    if (f.placed and t.placed) or fire.charging_at(f, t):
        # both placed: the distance decides (measured when the volley is judged, not here);
        # or fire at a charger: always short range (Charge Test)
        return [None]
    if f.artillery:
        key = "horse" if f.kind == "horse_artillery" else "foot"
        return [b.band for b in state.config.artillery_ranges[key]]
    return ["short", "long"]


#: the directions a move is offered in (degrees from the unit's facing: ahead, the two
#: obliques, the flanks, back); the player may type any other
DIRECTIONS = (0.0, 45.0, -45.0, 90.0, -90.0, 180.0)


def move_choices(state: State, u: Any) -> tuple[float, ...]:
    """The distances a move is offered at: what is left of the unit's move, and half of it
    (mm, rounded down to 0.1mm so that the allowance is never exceeded)."""
    try:
        base = actions.move_base(state, u)
    except VedetteError:
        return ()
    left = base - u.moved_mm
    out = [math.floor(x * 10) / 10 for x in (left, left / 2)]
    return tuple(dict.fromkeys(x for x in out if x > 0))


#: what the offers are made as: ``make(procedure, request, text, rule, open)`` gives one
#: offer (a ``Todo`` for ``todo`` and the players; the simulator's line for ``simulate``)
Make = Callable[..., Any]


def _todo(
    procedure: str,
    request: dict[str, Any],
    text: str,
    rule: str,
    open_: Mapping[str, tuple[Any, ...]] | None = None,
) -> Todo:
    if open_:
        return Todo(procedure, request, text, rule, open=open_)
    return Todo(procedure, request, text, rule)


def move_offer(
    state: State, u: Any, mode: str | None, text: str, rule: str, make: Make = _todo
) -> list[Any]:
    """A unit's move offers, open on the distance (and the direction when the unit is placed: a
    retirement or a retreat goes straight away from the enemy, reading K75, any other direction
    within ``[options] retire_arc_deg`` typed; an advance or a pursuit is offered forward only,
    reading K78, a plain move in every direction)."""
    dist = move_choices(state, u)
    if not dist:
        return []
    given: dict[str, Any] = {"unit": u.id}
    open_: dict[str, tuple[Any, ...]] = {"distance": dist}
    toward = mode in (None, "pursuit") and u.restricted_to is not None
    if toward:  # only toward its charger, straight at it (Kuryakin, Movement)
        given.update(mode=mode or "advance", toward=u.restricted_to)
        if mode is None:  # (the line says where: "A1 moves" alone read as any move)
            text = f"{text}: an advance toward {u.restricted_to}, its charger"
    elif mode is None and u.placed:
        # reading K78: the advance forward, the plain move any way (two lines: todo keeps the
        # choices of an open line field by field)
        ahead = {**open_, "direction": forward_directions(state)}
        moves = {**open_, "direction": DIRECTIONS}
        # (each line says which it is: two lines worded alike could not be told apart; a move
        # away from the enemy is a move of Retreat, reading K105: the line says its chits)
        plain = f"{text}: a plain move, {_plain_way(state, u)}{away_words(state, u)}"
        return [
            make("move", {**given, "mode": "advance"}, f"{text}: an advance, forward", rule, ahead),
            make("move", {**given, "mode": "move"}, plain, rule, moves),
        ]
    elif mode is None:
        open_["mode"] = ("advance", "move")
    else:
        given["mode"] = mode
    if u.placed and mode == "pursuit" and not toward:
        open_["direction"] = forward_directions(state)
    return [make("move", given, text, rule, open_)]


def _plain_way(state: State, u: Any) -> str:
    """Which way a plain move may go, for its todo line: any way, or only away from the enemy
    (:func:`actions.only_away_left`, readings K72 and K108), the directions todo keeps."""
    return "only away from the enemy" if actions.only_away_left(state, u) else "any way"


def away_words(state: State, u: Any) -> str:
    """What a plain move away from the enemy costs, for its todo line (reading K105: a move of
    Retreat, ``[disorder] retreat_move`` 'D' chits; skirmishers take none), or ""."""
    n = state.config.disorder.retreat_move
    if not state.config.options.away_move_chit or u.skirmishing or not n:
        return ""
    return f" (away: Retreat {n}D)"


def forward_directions(state: State) -> tuple[float, ...]:
    """The offered directions an advance or a pursuit may take (reading K78: within
    ``[options] advance_arc_deg`` of straight ahead)."""
    arc = state.config.options.advance_arc_deg
    return tuple(d for d in DIRECTIONS if abs(d) <= arc + 0.05)


def formations_of(state: State, u: Any) -> tuple[str, ...]:
    """The formations a unit of its kind may take (Kuryakin, Formation Changing)."""
    row = state.config.move_distances[u.kind]
    return tuple(k for k in row if k != u.formation)


#: a unit's own offers (all but those against the enemy), by what they are read from (the
#: unit's fields named in :func:`_own_key`) and how they are made: (the game's data, the key,
#: the offers before and after its offers against the enemy, whether those are made). The
#: unit that acts changes every action, but seldom in what these read (a fire, a charge test,
#: a chit), and the enemy units only change its offers against them (:func:`enemy_offers`);
#: a unit back as it was (the same game or another of a study) finds its offers again
_UNIT_OPTIONS: dict[tuple[tuple[Any, ...], Make], tuple[Any, tuple[Any, ...], Own]] = {}
#: a unit's own offers: those before its offers against the enemy, those after, and whether
#: its offers against the enemy are made at all
Own = tuple[list[Any], list[Any], bool]


#: what :func:`_own_options` reads of the unit (with the game's data): kept in step with it
#: and with the move's distances (``move_choices``: ``actions.move_base``); read in C. Of its
#: place only whether it is placed (a move's direction is open then): where it stands is read
#: by none of its own offers, so a unit that moved finds them again at its next activation.
#: A routing unit's are not kept (whether its run is owed reads the state: see unit_options)
_own_key: Callable[[Any], tuple[Any, ...]] = attrgetter(
    "id",
    "morale_due",
    "status",
    "must_rally",
    "formation_target",
    "formation_quarters",
    "formation",
    "advancing",
    "kind",
    "move_done",
    "moved_mm",
    "chance_effects",
    "restricted_to",
    "placed",
    "charge_over",
    "formation_changes",
    "standstill_tests",
)


def unit_options(state: State, u: Any, make: Make = _todo) -> list[Any]:
    """A unit's actions open on its card, before ``plan`` judges them (``todo`` keeps only
    what plan accepts), each made by ``make``."""
    if not memo.ENABLED:  # VEDETTE_SOLONAP_MEMO=0: the old path, the offers made afresh
        return _unit_options(state, u, make)
    if u.status == "routing":  # whether its run is owed reads more than its own fields
        return _unit_options(state, u, make)  # (``flow.routing_runs``): made afresh
    if u.bound in actions.RESULT_MOVES:  # (its result move owed: made afresh, see below)
        return _unit_options(state, u, make)
    key = (_own_key(u), make)
    hit = _UNIT_OPTIONS.get(key)
    if hit is not None and hit[0] is state.config:
        head, tail, enemies = hit[2]
    else:
        head, tail, enemies = own = _own_options(state, u, make)
        if len(_UNIT_OPTIONS) > 4096:
            _UNIT_OPTIONS.clear()
        _UNIT_OPTIONS[key] = (state.config, key, own)
    if not enemies:
        return [*head, *tail]
    return [*head, *enemy_offers(state, u, make), *tail]


def _unit_options(state: State, u: Any, make: Make = _todo) -> list[Any]:
    head, tail, enemies = _own_options(state, u, make)
    return [*head, *(enemy_offers(state, u, make) if enemies else ()), *tail]


def _own_options(state: State, u: Any, make: Make = _todo) -> Own:
    opts = state.config.options
    if u.morale_due:
        return [], [], False  # its marker is owed first
    rally = make("rally", {"unit": u.id}, f"{u.id} tries to rally", morale.R_MORALE)
    if u.status == "routing":
        if any(o.request["unit"] == u.id for o in flow.routing_runs(state)):
            return [rally], [], False  # its run is owed (reading K60): listed first by todo
        run = make(
            "move", {"unit": u.id, "mode": "rout"}, f"{u.id} runs (rout, 2D)", charging.R_ROUT
        )
        return [run, rally], [], False
    if u.must_rally:
        if u.status != "retiring" or u.bound in actions.RESULT_MOVES:
            # its morale result's retirement is owed (``flow.bound_moves``, the only distance
            # it may take): listed once, owed, not again as "carries out its retirement"
            return [rally], [], False
        text = f"{u.id} carries out its retirement"
        return [rally, *move_offer(state, u, "retire", text, charging.R_ROUT, make)], [], False
    out: list[Any] = []
    after_charge = u.charge_state in ("done", "halted") and opts.after_charge_move == "pursuit"
    if after_charge:
        # reading K73: after its charge, only a pursuit (none after a charge that halted)
        if u.charge_state == "done":
            text = f"{u.id} pursues (1D)"
            out += move_offer(state, u, "pursuit", text, actions.R_DIS, make)
    else:
        out += move_offer(state, u, None, f"{u.id} moves", actions.R_MOVE, make)
    if after_charge or (
        opts.formation_changes_per_card and u.formation_changes >= opts.formation_changes_per_card
    ):
        pass  # reading K73: a charger changes no formation; K71: its change(s) of this card made
    elif u.formation_target is not None:
        if not actions.change_stalled(state, u):  # (no move left: it goes on next turn)
            out.append(
                make(
                    "formation",
                    {"unit": u.id, "to": u.formation_target},
                    f"{u.id} goes on changing to {u.formation_target}",
                    actions.R_FORM,
                )
            )
    else:
        forms = formations_of(state, u)
        if forms:
            text = f"{u.id} changes formation"
            out.append(make("formation", {"unit": u.id}, text, actions.R_FORM, {"to": forms}))
    out.append(make("reform", {"unit": u.id}, f"{u.id} reforms (the whole turn)", actions.R_DIS))
    if opts.standstill_tests_per_card and u.standstill_tests >= opts.standstill_tests_per_card:
        pass  # reading K72: its test(s) of this card made
    elif u.advancing:
        out.append(make("halt", {"unit": u.id}, f"{u.id} tries to halt", actions.R_STAND))
    else:
        out.append(make("start", {"unit": u.id}, f"{u.id} moves off", actions.R_STAND))
    return out, [rally] if rally_open(u) else [], True


#: a unit's offers against the enemy (fire, charge), by unit id: (what they are read from, the
#: offers). Most of a unit's offers, and the same after most of its own actions (a move, a
#: formation change, a halt): kept apart from the offers a unit's every action changes
_ENEMY_OFFERS: dict[tuple[str, Make], tuple[tuple[Any, ...], Any, tuple[Any, ...], list[Any]]] = {}


#: what :func:`_enemy_offers` reads of the unit itself (read in C)
_enemy_key: Callable[[Any], tuple[Any, ...]] = attrgetter(
    "id",
    "side",
    "kind",
    "artillery",
    "skirmishing",
    "fired",
    "restricted_to",
    "placed",
    "formation",
)


def enemy_offers(state: State, u: Any, make: Make = _todo) -> list[Any]:
    """``u``'s fire and charge at each enemy on the table (in the scenario's order): read from
    the enemy units, the game's data and the few of ``u``'s fields named in ``_enemy_key``
    (:func:`fire_bands` reads the two units' placement, kind and declared charges)."""
    if not memo.ENABLED:
        return _enemy_offers(state, u, make)
    own = _enemy_key(u)
    units = state.units
    hit = _ENEMY_OFFERS.get((u.id, make))
    if hit is not None and hit[0] == own and hit[1] is state.config:
        if hit[2] is units:
            return hit[3]
        if _same_targets(hit[2], units, u.side, u.id):
            _ENEMY_OFFERS[u.id, make] = (own, state.config, units, hit[3])  # (compared next)
            return hit[3]
    key = (own, make, _targets(units, u.side, u.id))
    kept = _ENEMY_KEPT.get(key)
    if kept is not None and kept[0] is state.config:
        out = kept[1]
    else:
        out = _enemy_offers(state, u, make)
        if len(_ENEMY_KEPT) > 4096:
            _ENEMY_KEPT.clear()
        _ENEMY_KEPT[key] = (state.config, out)
    if len(_ENEMY_OFFERS) > 4096:
        _ENEMY_OFFERS.clear()
    _ENEMY_OFFERS[u.id, make] = (own, state.config, units, out)
    return out


#: a unit's offers against the enemy made before, by what they were made from: the unit's
#: fields (``_enemy_key``), how they are made and the units as :func:`_targets` reads them (the
#: data kept with them). A unit back as it was, facing the enemy as it was, finds them again:
#: its next activation after a fire or a formation change on its last, say
_ENEMY_KEPT: dict[tuple[Any, ...], tuple[Any, list[Any]]] = {}


def _targets(units: tuple[Any, ...], side: str, uid: str) -> tuple[Any, ...]:
    """The units as :func:`_same_targets` compares them for unit ``uid`` of ``side``: a friend
    as None (not read), an enemy by its id, presence on the table, placement, and charge at
    ``uid`` or not."""
    return tuple(
        None
        if e.side == side
        else (e.id, e.on_table, e.placed, e.charge_state == "declared" and e.charge_target == uid)
        for e in units
    )


def _same_targets(was: tuple[Any, ...], now: tuple[Any, ...], side: str, uid: str) -> bool:
    """The same units as far as :func:`_enemy_offers` reads them for unit ``uid`` of ``side``:
    each the same object (told in C), a friend before and after (not read), or an enemy with
    the same id, presence on the table, placement, and charge at ``uid`` or not
    (:func:`fire_bands`). An enemy that acted, fired or took a chit changes none of these."""
    if len(was) != len(now):
        return False
    for a, b in compress(zip(was, now, strict=True), map(is_not, was, now)):
        if a.side == side and b.side == side:
            continue  # a friend: its offers do not read it
        if (
            a.side != b.side
            or a.id != b.id
            or a.on_table != b.on_table
            or a.placed != b.placed
            or (a.charge_state == "declared" and a.charge_target == uid)
            != (b.charge_state == "declared" and b.charge_target == uid)
        ):
            return False
    return True


def _same_units(
    was: tuple[Any, ...], now: tuple[Any, ...], differ: Callable[[Any, Any], bool]
) -> bool:
    """The same units: each the same object, or two that ``differ`` does not tell apart."""
    if was is now:
        return True
    if len(was) != len(now):
        return False
    # (most are the same objects: told in C, and only the others compared)
    return not any(starmap(differ, compress(zip(was, now, strict=True), map(is_not, was, now))))


def _enemy_offers(state: State, u: Any, make: Make = _todo) -> list[Any]:
    return [o for _, o in _each_enemy_offer(state, u, make)]


def _each_enemy_offer(state: State, u: Any, make: Make = _todo) -> Iterator[tuple[Any, Any]]:
    """``u``'s fire and charge at each enemy on the table, one enemy after another, each with
    its request (:func:`attacks_open` stops at the first of each the rules accept)."""
    shooter = (u.kind == "infantry" or u.artillery or u.skirmishing) and not fire.limbered(state, u)
    # the offer names the heading of its own fire (a battery's is Artillery's, not Infantry's)
    rule = fire.R_ART if u.artillery else fire.R_SKIRM if u.skirmishing else fire.R_FIRE
    for e in state.units:
        if e.side == u.side or not e.on_table or u.restricted_to not in (None, e.id):
            continue
        if shooter and not u.fired:
            for band in fire_bands(state, u, e):
                given = {"unit": u.id, "target": e.id, **({"range": band} if band else {})}
                at = f" ({band} range)" if band else ""
                req = rq.Fire(unit=u.id, target=e.id, range=band or None)
                yield req, make("fire", given, f"{u.id} fires at {e.id}{at}", rule)
        if not (u.artillery or u.skirmishing):
            given = {"unit": u.id, "target": e.id}
            text = f"{u.id} charges {e.id}"
            yield rq.Charge(**given), make("charge", given, text, morale.R_CHARGE)


#: the last generals' offers, by how they are made: (the generals, the data, the active card's
#: holder and units, the units, the offers). A unit's action changes the units but seldom what
#: these offers read of them (see :func:`_same_places`)
_GENERAL_OFFERS: dict[Make, tuple[Any, Any, Any, Any, tuple[Any, ...], list[Any]]] = {}


def general_offers(
    state: State, make: Make = _todo, active: tuple[str, ...] | None = None
) -> list[Any]:
    """A brigadier whose units on the active card stray beyond his control range (150mm: they
    would be out of command at the next control phase) may ride toward them (Kuryakin,
    Generals). ``active``: ``state.active_units()``, when the caller has it."""
    if active is None:
        active = state.active_units()
    if not memo.ENABLED:
        return _general_offers(state, make, active)
    hit = _GENERAL_OFFERS.get(make)
    if (
        hit is not None
        and hit[0] is state.generals
        and hit[1] is state.config
        and hit[2] == state.active
        and hit[3] == active
        and _same_places(hit[4], state.units)
    ):
        if hit[4] is not state.units:  # compared with these next time: mostly the same objects
            _GENERAL_OFFERS[make] = (*hit[:4], state.units, hit[5])
        return hit[5]
    out = _general_offers(state, make, active)
    _GENERAL_OFFERS[make] = (state.generals, state.config, state.active, active, state.units, out)
    return out


def _same_places(was: tuple[Any, ...], now: tuple[Any, ...]) -> bool:
    """The same units as far as the generals' offers read them: each the same object, or with
    the same id, brigade, presence on the table and footprint (``geom.footprint_key``: what
    its body is made from)."""
    return _same_units(was, now, _placed_apart)


def _placed_apart(a: Any, b: Any) -> bool:
    return bool(
        a.id != b.id
        or a.brigade != b.brigade
        or a.on_table != b.on_table
        or geom.footprint_key(a) != geom.footprint_key(b)
    )


def _general_offers(state: State, make: Make, active: tuple[str, ...] | None = None) -> list[Any]:
    out: list[Any] = []
    reach = state.config.options.control_range_mm
    # the brigades with a unit on the table on the active card (a brigadier of none of them,
    # not holding the card himself, has nothing to do now)
    on_card: set[Any] | None = None
    for g in _brigadiers(state.generals):
        if state.active != g.id:
            if on_card is None:
                units = state.active_units() if active is None else active
                on_card = {u.brigade for u in map(state.unit, units) if u.on_table}
            if g.id not in on_card:
                continue
        if actions.general_reach(state, g) <= 0:
            continue  # his move is spent: he rides no more this turn
        far = _beyond(g, _brigade_units(state.units, g.id), reach)
        if far:
            text = f"{g.id} rides toward his units beyond {reach:.0f}mm (command would lapse)"
            out.append(
                make("general", {"general": g.id}, text, actions.R_GENERAL, {"to": tuple(far)})
            )
    return out


def _brigade_units(units: tuple[Any, ...], gid: str) -> tuple[Any, ...]:
    """``State.brigade_units``: the units of ``gid``'s brigade on the table, in order (told
    in C)."""
    mine = tuple(compress(units, map(eq, map(_BRIGADE, units), repeat(gid))))
    return tuple(compress(mine, map(_ON_TABLE, mine)))


#: the brigadiers who may ride last found, with the generals they were found among
_BRIGADIERS: list[Any] = [None, ()]


def _brigadiers(generals: tuple[Any, ...]) -> tuple[Any, ...]:
    """The brigadiers alive, unattached and placed, in order (kept for the generals' tuple:
    a general's every change makes a new one)."""
    if _BRIGADIERS[0] is generals:
        return _BRIGADIERS[1]  # type: ignore[no-any-return]
    out = tuple(
        g
        for g in generals
        if not (g.rank != "brigadier" or g.killed or g.attached_to or not g.placed)
    )
    if memo.ENABLED:
        _BRIGADIERS[:] = [generals, out]
    return out


#: a unit's (or general's) id, brigade, presence on the table
_ID = attrgetter("id")
_BRIGADE = attrgetter("brigade")
_ON_TABLE = attrgetter("on_table")

#: per general: what the answer is read from and those beyond the control range. It reads
#: positions only: where he stands, the range, and each unit's id and body (the one object
#: ``geom.body`` keeps per footprint, compared by identity): a unit that fired, took a chit or
#: changed card stands where it stood, and most actions move neither him nor his units
_BEYOND: dict[str, tuple[tuple[Any, ...], list[str]]] = {}


def _clear_offers() -> None:
    _UNIT_OPTIONS.clear()
    _ENEMY_OFFERS.clear()
    _ENEMY_KEPT.clear()
    _GENERAL_OFFERS.clear()
    _BEYOND.clear()
    _CHANCE.clear()
    _NEXT.clear()
    _BRIGADIERS[:] = [None, ()]


memo.also_clear(_clear_offers)


def _beyond(g: Any, units: Sequence[Any], reach: float) -> list[str]:
    """The ids of ``units`` further than ``reach`` from ``g`` (placed ones only)."""
    if not memo.ENABLED:
        return _far(g, units, reach)
    # (each unit's id, then each one's body: mapped in C)
    deps = (g.x, g.y, reach, *map(_ID, units), *map(geom.body, units))
    hit = _BEYOND.get(g.id)
    if hit is not None and hit[0] == deps:  # (a tuple's == tells the same objects at once)
        return hit[1]
    far = _far(g, units, reach)
    if len(_BEYOND) > 4096:
        _BEYOND.clear()
    _BEYOND[g.id] = (deps, far)
    return far


def _far(g: Any, units: Sequence[Any], reach: float) -> list[str]:
    far = []
    for u in units:
        if geom.general_within(g, u, reach) is False:
            far.append(u.id)
    return far


def rally_open(u: Any) -> bool:
    return bool(u.status in ("retiring", "routing") or u.must_rally)


#: a side's last chance card offer, by side and how it is made: (the card held, the data, the
#: units, the offer). Its units are those on the table (of a side): the same while no unit
#: leaves the table
_CHANCE: dict[tuple[str, Make], tuple[str, Any, tuple[Any, ...], list[Any]]] = {}


def chance_offers(state: State, side: str, held: str, make: Make = _todo) -> list[Any]:
    """The play of ``side``'s chance card ``held`` (not yet played): open on the units it may
    be played on (Kuryakin, Chance Cards), none if there are none."""
    if not memo.ENABLED:
        return _chance_offers(state, side, held, make)
    hit = _CHANCE.get((side, make))
    if (
        hit is not None
        and hit[0] == held
        and hit[1] is state.config
        and _same_units(hit[2], state.units, _tabled_apart)
    ):
        if hit[2] is not state.units:  # compared with these next time
            _CHANCE[side, make] = (held, state.config, state.units, hit[3])
        return hit[3]
    out = _chance_offers(state, side, held, make)
    if len(_CHANCE) > 64:
        _CHANCE.clear()
    _CHANCE[side, make] = (held, state.config, state.units, out)
    return out


def _tabled_apart(a: Any, b: Any) -> bool:
    """Two units a chance card's pool tells apart (``cards.chance_pool``)."""
    return bool(a.id != b.id or a.side != b.side or a.on_table != b.on_table)


def _chance_offers(state: State, side: str, held: str, make: Make) -> list[Any]:
    card = chance.card_by_id(state, held)
    text = f"{side} may play {held}"
    if card is None or card.does.kind == "none":
        return [make("chance", {"side": side}, text, chance.R_CHANCE)]
    pool = cards.chance_pool(state, side, card)
    if not pool:
        return []
    text += f" ({card.does.on} unit)"
    return [make("chance", {"side": side}, text, chance.R_CHANCE, {"on": (*pool[:29], "random")})]


def offers(state: State, make: Make = _todo) -> list[Any]:
    """The ruleset's ``options``, each made by ``make`` (the simulator makes its lines
    straight from them: no ``Todo`` it would only take apart)."""
    if state.phase == "control":
        unrated = [g for g in state.generals if not g.rated and not g.killed]
        if unrated:
            # the control roll needs every Control Rating (and the game every rating): rate
            # the staff first, only the ratings the scenario does not give
            if state.options.get("staff_by") == "general":
                # reading K81: a general a step, his dice (d6, d6, d8) the step's taps
                g = unrated[0]
                dice = {"th": "TH (d6)", "av": "AV (d6)", "cr": "Control Rating (d8)"}
                rolls = [dice[w] for w in staff.to_roll(g, rq.Staff(general=g.id))]
                what = ", ".join(rolls[:-1]) + (" and " if len(rolls) > 1 else "") + rolls[-1]
                text = f"rate the staff first: {g.id}'s {what}"
                return [make("staff", {"general": g.id}, text, staff.R_GEN)]
            text = "rate the staff first: each unrated general's TH, AV and Control Rating"
            return [make("staff", {}, text, staff.R_GEN)]
        return [make("control", {}, "control phase: each brigadier rolls for control", R_TURN)]
    if state.phase == "cards":
        text = "deal and reveal the cards"
        if cards.real_deck(state):  # reading K80: the player's deck, a card a holder in turn
            n = sum(1 for u in state.units if u.on_table)
            order = ", ".join(h for h, _, _ in cards.holders(state))
            text = f"deal from your deck of {n}: a card for each of {order} in turn, then"
            text += " each side's chance card"
        return [make("deal", {}, text, cards.R_SEQ)]
    if state.phase == "end":
        return [make("end_turn", {}, "every card has acted: end the turn", R_TURN)]
    out: list[Any] = []
    active = state.active_units()
    for uid in active:
        u = state.unit(uid)
        if u.acted or not u.on_table:
            continue
        out += unit_options(state, u, make)
    out += general_offers(state, make, active)
    for side in state.sides:
        held = state.chance.get(side)
        if held and held not in state.chance_played:
            out += chance_offers(state, side, held, make)
    nxt = _NEXT.get(make) if memo.ENABLED else None
    if nxt is None:  # (one offer per way of making it: read, never changed)
        nxt = make("next", {}, "finish the card: the next card acts", cards.R_SEQ)
        if memo.ENABLED:
            _NEXT[make] = nxt
    out.append(nxt)
    return out


#: the 'next' offer, by how it is made
_NEXT: dict[Make, Any] = {}


class SoloNapoleonic(Ruleset[State]):
    name = "solo_napoleonic"
    aliases = ("solonap", "kuryakin")
    title = "Solo Napoleonic Wargames Rules (Ilya Kuryakin, First Empire #52)"
    data_package = PKG
    data_files = ("rules.toml",)
    options_model = LazyModel("vedette.rules.solo_napoleonic.schema:SolonapOptions")
    scenario_model = LazyModel("vedette.rules.solo_napoleonic.schema:SolonapScenario")

    events = EVENTS
    entities = ENTITIES

    flow = FLOW
    #: the Next entries that move play on (Kuryakin, Move Sequence: the card, then the turn, ends)
    phase_end = ("next", "end_turn")
    #: a unit's own entries (``unit``; a disorder test names its ``units``), a general's ride
    pick_fields = ("unit", "units", "general")

    #: a game played with the player's own dice deals a real deck (reading K80: a card turned
    #: up for each holder, not a d10, d9 ... d2 shuffle) and rates a general a step (K81)
    physical_dice_options: ClassVar[Mapping[str, Any]] = {"deal": "cards", "staff_by": "general"}

    def current_phase(self, state: State) -> str:
        return state.phase

    #: a query's plan skips the dry run of the body (its odds are shown whether or not the
    #: action could be taken now)
    query_context = rq.QUERY

    def __init__(self) -> None:
        self.scenarios = {"sample": "sample.toml", "attached": "attached.toml"}
        D = by_dry_run  # each body checks the rules and then rolls: its plan is its dry run
        quick = D(cards.quiet_next)
        self.procedures = procedure_table(
            Procedure(rq.Staff, *D(staff.staff, staff.staff_odds)),
            Procedure(rq.Control, *D(staff.control, staff.control_odds)),
            Procedure(rq.Deal, *D(cards.deal, cards.deal_odds)),
            # 'next' refuses nothing its listing says: its dry run (todo's verdict, the plan)
            # and the simulator's play, whose words are never read (``Procedure.play``), say
            # nothing of what the card's units may do; only its resolve lists it, their fire
            # and charge where todo offers them (a search for targets at every card cost a
            # simulated game 50% more CPU; the listing by type alone, 2%); the same events
            Procedure(rq.Next, quick[0], D(next_card)[1], quick[2], quick[3]),
            Procedure(rq.Order, *D(cards.order_query)),
            Procedure(rq.Require, *D(morale.require_morale, morale.require_odds)),
            Procedure(rq.Chance, *D(cards.play_chance, cards.chance_odds)),
            Procedure(
                rq.Move,
                *D(
                    actions.move,
                    actions.move_odds,
                    after_dice=("direction",),
                    read_early=actions.direction_read_early,
                ),
            ),
            Procedure(rq.Start, *D(actions.start, actions.start_odds)),
            Procedure(rq.Halt, *D(actions.halt, actions.halt_odds)),
            Procedure(rq.Formation, *D(actions.formation, actions.formation_odds)),
            Procedure(rq.Disorder, *D(actions.disorder, actions.disorder_odds)),
            Procedure(rq.Reform, *D(actions.reform, actions.reform_odds)),
            Procedure(rq.Fire, *D(fire.fire, fire.fire_odds, refused=fire.refused)),
            Procedure(
                rq.Charge, *D(morale.charge, morale.charge_odds, refused=morale.charge_refused)
            ),
            Procedure(rq.Close, *D(morale.close)),
            Procedure(rq.Morale, *D(morale.morale, morale.morale_odds)),
            Procedure(rq.Rally, *D(morale.rally, morale.rally_odds)),
            Procedure(rq.ChargeHome, *D(morale.charge_home, morale.charge_home_odds)),
            Procedure(rq.Melee, *D(melee.melee, melee.melee_odds)),
            Procedure(rq.Brawl, *D(melee.brawl, melee.brawl_odds)),
            Procedure(rq.Evade, *D(melee.evade, melee.evade_odds)),
            Procedure(rq.Ride, *D(actions.ride)),
            Procedure(rq.Place, *D(actions.place)),
            Procedure(rq.Attach, *D(actions.attach)),
            Procedure(rq.EndTurn, *D(end_turn)),
            Procedure(rq.Status, *D(status)),
            Procedure(rq.Reasons, *D(reasons)),
            Procedure(rq.Assumptions, *D(assumptions)),
        )
        self._facts = {e.kind: e for e in (*UNIT_FACTS, *GENERAL_FACTS, *TURN_FACTS)}
        #: the state last asked for its obligations and its answer (states are immutable
        #: values: compared by identity, the entry holding the state)
        self._owed: tuple[Any, tuple[Any, ...]] = (None, ())

    def initial_state(self, scenario: Mapping[str, Any], options: Mapping[str, Any]) -> State:
        """The state a scenario starts from: one value per scenario and options (states are
        immutable, and a game is created, and replayed, from its scenario each time)."""
        if not memo.ENABLED:
            return self._initial_state(scenario, options)
        try:
            key = json.dumps([scenario, options], sort_keys=True)
        except (TypeError, ValueError):  # not plain JSON data: built afresh
            return self._initial_state(scenario, options)
        return memo.pure(
            "initial_state", (id(self), key), lambda: self._initial_state(scenario, options)
        )

    def _initial_state(self, scenario: Mapping[str, Any], options: Mapping[str, Any]) -> State:
        house = options.get("house_rules") or {}
        config = self.game_config(house if isinstance(house, Mapping) else None)
        opts = game_options(scenario, options)
        src = str(scenario.get("title", "scenario"))
        ranks = config.formation_ranks
        units = tuple(unit_from_data(u, opts, ranks, src) for u in scenario.get("units", []))
        gens = tuple(general_from_data(g, src) for g in scenario.get("generals", []))
        ids = [u.id for u in units] + [g.id for g in gens]
        if len(set(ids)) != len(ids):
            raise DataError(src, "unit and general ids must all be different")
        sides = tuple(scenario.get("sides", SIDES_DEFAULT))
        for u in units:
            if u.side not in sides:
                raise DataError(src, f"unit {u.id!r}: side {u.side!r} is not one of {sides}")
            if u.brigade is not None and u.brigade not in ids:
                raise DataError(src, f"unit {u.id!r}: no brigadier {u.brigade!r}")
        for g in gens:
            if g.side not in sides:
                raise DataError(src, f"general {g.id!r}: side {g.side!r} is not one of {sides}")
        # start-up: a scenario without terrain loads no 2 by 2 terrain model
        from vedette.rules.two_by_two.model import feature_from_data

        terrain = tuple(
            feature_from_data(f, i) for i, f in enumerate(scenario.get("terrain", []), 1)
        )
        state = State(str(scenario.get("title", "")), sides, units, gens, opts, config)
        return replace(state, terrain=terrain) if terrain else state

    def game_config(self, house_rules: Mapping[str, Any] | None) -> Config:
        """The rule data (shipped data and the game's house rules) read once: one value shared
        by every game with the same house rules (a game never changes its data), rather than
        read again per game (a game is created, and replayed, from its scenario each time)."""
        source = "house rules" if house_rules else "rules data"
        if not memo.ENABLED:
            return make_config(self.data(house_rules), source)
        key = json.dumps(house_rules or {}, sort_keys=True, default=str)
        return memo.pure(
            "rules_config", (id(self), key), lambda: make_config(self.data(house_rules), source)
        )

    end_condition = simplay.END_CONDITION

    #: a drag: distance and direction
    hand_move: ClassVar[Mapping[str, str] | None] = {
        "procedure": "move",
        "kind": "relative",
    }
    strength_unit = "figures"

    def earlier_roll(self, roll: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """A roll as release 0.2 logged it: a die of hits below 0 without what it counts
        (common.FLOORED); a random movement die without its brigadier's Troop Handling step
        as a modifier (actions.th_modified: the bare die, the step in the message alone)."""
        if roll.get("consequence") == FLOORED:  # (the 0 a die below 0 gives, said since)
            line = str(roll.get("line", "")).removesuffix(f" → {FLOORED}")
            return {**roll, "consequence": None, "line": line}
        mods: Sequence[Mapping[str, Any]] = roll.get("modifiers") or ()
        if not (
            roll.get("rule") == actions.R_MOVE
            and len(mods) == 1
            and "brigadier's TH" in str(mods[0].get("reason", ""))
        ):
            return None
        natural = int(roll.get("natural", 0))
        faces = tuple(Face(str(f["die"]), int(f["face"])) for f in roll.get("dice") or ())
        label = str(roll.get("label", ""))
        bare = Roll(str(roll.get("expression", "")), faces, natural, final=natural, label=label)
        return {**roll, "modifiers": [], "final": natural, "line": bare.line()}

    def strength(self, state_json: Mapping[str, Any]) -> dict[str, float]:
        """Figures left in the units (casualties are figures removed)."""
        out: dict[str, float] = {}
        for u in state_json.get("units", []):
            out[u["side"]] = out.get(u["side"], 0) + (u.get("figures") or 0)
        return out

    def editor(self) -> Editor:
        from vedette.rules.solo_napoleonic.editor import EDITOR  # start-up time: the builder only

        return EDITOR

    def sides(self, state: State) -> list[str]:
        return list(state.sides)

    def losses(self, state: State) -> dict[str, int]:
        """Units routing or eliminated, per side."""
        return simplay.losses(state)

    def outcome(self, state: State) -> GameOutcome | None:
        return simplay.outcome(state)

    def standing(self, state: State) -> dict[str, Any]:
        return simplay.standing(state)

    def simulation(self) -> SimPlay:
        return simplay.KuryakinSim(morale.quick_refused)

    def obligations(self, state: State) -> tuple[Any, ...]:
        """The steps owed now: the open charges' next steps and the morale markers of the
        units on the active card (flow.py); once per state (``todo`` asks, then the engine
        before it performs)."""
        if not memo.ENABLED:
            return flow.obligations(state)
        last = self._owed
        if last[0] is state:  # asked again of the state just asked (the simulator: twice a step)
            return last[1]
        if flow.none_owed(state):  # (most states: nothing to scan for)
            owed: tuple[Any, ...] = ()
        else:
            owed = memo.per_state(state, "obligations", lambda: flow.obligations(state))
        self._owed = (state, owed)
        return owed

    def waive(self, state: State, obligation: str) -> State:
        return flow.waive(state, obligation)

    def folded(self, state: State, events: Sequence[Any]) -> State:
        """The state a procedure's events leave: the one its change list built as it recorded
        them, where it began with this state (``common.built``), else each event folded."""
        out = built(state, events)
        return out if out is not None else super().folded(state, events)

    def todo(self, state: State, strict: bool = False) -> list[Any]:
        """The core's ``todo`` (obligations first, then what ``plan`` accepts), once per state:
        the engine and the web app ask it again of the state they just showed, and the
        simulator before every action."""
        if not memo.ENABLED:
            return super().todo(state, strict)
        got = memo.per_state(state, ("todo", strict), lambda: self._todo(state, strict))
        return list(got)

    def memos_on(self) -> bool:
        """(With the memos off, the core's ``todo`` derives every line afresh too.)"""
        return memo.ENABLED

    def _todo(self, state: State, strict: bool) -> list[Any]:
        owed = self.obligations(state)
        judge = self._judge_for_todo(state, owed)
        return derive_todo(owed, self.options(state), judge, strict)

    def _judge_for_todo(self, state: State, owed: Any) -> Any:
        """``judge`` as ``todo`` asks it (the core's ``Ruleset.todo``): the same verdicts. While
        nothing is owed, an action the flow allows now is judged by its procedure's ``check``
        alone (the parsed request, then the dry run of its body, remembered for this state):
        what ``judge`` does then, without building the plan a verdict does not need (an open
        move is judged in two dozen combinations). Anything else goes through ``judge``."""
        procs = self.protocol_procedures()
        phase = self.current_phase(state)
        refused: dict[str, bool] = {}

        def judge(procedure: str, request: Any) -> Any:
            proc = procs.get(procedure)
            check = getattr(proc, "check", None)
            if (
                proc is not None
                and check is not None
                and not owed
                and not proc.query
                and not rq.QUERY.get()
            ):
                no = refused.get(procedure)
                if no is None:
                    no = refused[procedure] = self.flow.violation(phase, procedure) is not None
                if not no and isinstance(request, Mapping):
                    req = parsed_request(proc, request)[0]
                    check(state, req)
                    return req
            return self.judge(state, procedure, request, owed=owed)[1]

        return judge

    def options(self, state: State) -> list[Any]:
        """The actions the rules allow now, before ``plan`` judges them (``todo`` keeps only
        what it accepts): the phase's step, and on the active card each unit's actions (open
        on their distances, directions, formations, chance card targets)."""
        return offers(state)

    def made_offers(self, state: State, make: Make) -> list[Any]:
        """:meth:`options`, each made by ``make`` (the simulator's lines: ``simplay.sim_line``)."""
        return offers(state, make)

    def legal_requests(
        self, state: State, rng: Any, n: int = 40
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        """What is owed first (only that, while a step is owed), then the options open now."""
        todo = self.todo(state)
        owed = [t for t in todo if t.owed]
        todo = owed or todo
        rng.shuffle(todo)
        for t in todo[:n]:
            fields = dict(t.request)
            for k, cs in t.open.items():
                fields[k] = rng.choice(list(cs))
            yield t.procedure, fields

    def decode(self, d: Mapping[str, Any]) -> Any:
        """A logged event: a current fact straight by its own decoder (the replay's hot path),
        anything else (older versions, legacy patches, the referee's own) by the core's."""
        cls = self._facts.get(d.get("kind"))  # type: ignore[arg-type]
        if cls is not None and d.get("v") == cls.version:
            data = d.get("data")
            return cls.decode(data if type(data) is dict else {})
        return super().decode(d)

    def apply(self, state: State, event: Any) -> State:
        """Untyped events of older logs (release 0.1's field patches, read as their typed
        kinds of version 1), and typed ones (for scripts that call apply)."""
        if isinstance(event, Patch):
            return self.fold(state, event)
        if event.kind in ("unit_changed", "general_changed", "game_changed"):
            typed = self.decode({"kind": event.kind, "v": 1, "data": dict(event.data)})
            return self.fold(state, typed)
        raise BadRequest(f"unknown event {event.kind!r}")

    def render(self, state: State) -> str:
        opt_on = [r for r in OPTIONAL_RULES if state.options.get(r)]
        lines = [
            f"{state.title} — turn {state.turn}, {state.phase} phase"
            + (f" (optional: {', '.join(opt_on)})" if opt_on else "")
        ]
        for side in state.sides:
            lines.append(f"{side}:")
            for g in state.generals:
                if g.side == side:
                    extra = f", with {g.attached_to}" if g.attached_to else ""
                    ctl = state.control.get(g.id)
                    lines.append(f"  {g.describe()}{extra}" + (f" — control {ctl}" if ctl else ""))
            for u in state.units:
                if u.side == side:
                    c = state.card_of(u.id)
                    card = f" [card #{c.key_text()}]" if c else ""
                    lines.append(f"    {u.describe()}{card}")
            held = state.chance.get(side)
            if held:
                lines.append(
                    f"  chance card: {held}" + (" (played)" if held in state.chance_played else "")
                )
        q = state.queue()
        if q:
            lines.append(
                "queue: "
                + ", ".join(
                    f"#{c.key_text()} {c.holder}" + ("*" if c.holder == state.active else "")
                    for c in q
                )
            )
        lines.append(simplay.standing(state)["text"])
        return "\n".join(lines)

    def state_json(self, state: State) -> dict[str, Any]:
        return {
            "title": state.title,
            "turn": state.turn,
            "phase": state.phase,
            "sides": list(state.sides),
            "options": dict(state.options),
            "control": dict(state.control),
            "active": state.active,
            "done": list(state.done),
            "cards": [to_json(c) for c in state.cards],
            "queue": [c.holder for c in state.queue()],
            "chance": dict(state.chance),
            "chance_played": list(state.chance_played),
            "units": [to_json(u) for u in state.units],
            "generals": [to_json(g) for g in state.generals],
            "history": list(state.history),
        }


def shipped_data() -> dict[str, Any]:
    return merge({}, package_toml(PKG, "rules.toml"))


RULESET = SoloNapoleonic()
