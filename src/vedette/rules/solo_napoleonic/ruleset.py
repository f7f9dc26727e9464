"""The Solo Napoleonic (Kuryakin) ruleset: state from a scenario, the fold of events, the
turn's end and the list of procedures."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from vedette.data import merge, package_toml
from vedette.dice import DiceSource
from vedette.errors import BadRequest, DataError, RuleViolation
from vedette.rules.base import Outcome, Param, Procedure, Request, Ruleset
from vedette.rules.solo_napoleonic import (
    actions,
    cards,
    fire,
    flow,
    melee,
    morale,
    requests,
    staff,
)
from vedette.rules.solo_napoleonic.common import (
    EVENTS,
    Changes,
    GameChanged,
    GeneralChanged,
    UnitChanged,
    apply_game,
    apply_general,
    apply_unit,
    fold_game,
    fold_general,
    fold_unit,
)
from vedette.rules.solo_napoleonic.model import (
    OPTIONAL_RULES,
    SIDES_DEFAULT,
    State,
    general_from_data,
    to_json,
    unit_from_data,
)
from vedette.rules.solo_napoleonic.schema import SolonapOptions, SolonapScenario

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


def end_turn(state: State, req: Request, dice: DiceSource) -> Outcome:
    """End of the turn: formations still changing take 1D; chance cards not played are lost;
    the per-turn marks are cleared; the next turn starts with the control phase."""
    if state.phase not in ("activation", "end"):
        raise RuleViolation(R_TURN, f"the turn has not been played (phase: {state.phase})")
    left = [c.holder for c in state.queue() if c.holder != state.active]
    if left and not req.get_bool("force"):
        raise RuleViolation(R_TURN, f"cards still to act: {', '.join(left)} (next)")
    ch = Changes(state)
    notes = []
    for u in state.units:
        if not u.on_table:
            continue
        kw: dict[str, Any] = {
            "acted": False,
            "moved_mm": 0.0,
            "fired": False,
            "volleys_fired": 0,
            "reformed": False,
            "casualties_turn": 0,
            "restricted_to": None,
            "lost_melee": False,
            "morale_failed": False,
            "charge_state": None,
            "charge_target": None,
            "charge_step": None,
            "charge_failed": False,
            "charge_flank": False,
            "home_failed": False,
            "melee_round": 0,
            "melee_rounds": 0,
            "morale_facts": (),
            "chance_effects": (),
            "start_failed": False,
            "morale_due": False,
        }
        if u.formation_target is not None and not u.skirmishing:
            kw["disorder"] = u.disorder + 1
            notes.append(f"{u.id} +1D (formation incomplete)")
        ch.unit(u.id, "end of turn", **kw)
    lost = [f"{s} loses {c}" for s, c in state.chance.items() if c not in state.chance_played]
    ch.game(
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


def status(state: State, req: Request, dice: DiceSource) -> Outcome:
    """What a unit is and may do (a query)."""
    u = state.unit(req.get_str("unit"))
    may = cards.may_do(state, u) if u.id in state.active_units() and not u.acted else []
    return Outcome(
        (),
        (),
        u.describe() + (f"; may: {', '.join(may)}" if may else ""),
        {"unit": to_json(u), "may": may},
    )


def reasons(state: State, req: Request, dice: DiceSource) -> Outcome:
    """The reasons for testing morale (default list: an assumption)."""
    rs = {k: v for k, v in state.data.get("morale_reasons", {}).items() if k != "assumption"}
    return Outcome((), (), "\n".join(f"{k}: {v}" for k, v in rs.items()), {"reasons": rs})


def assumption_paths(data: Any, path: str = "") -> list[str]:
    """Where the rule data carries an ``assumption`` mark (our default, not the text's)."""
    out: list[str] = []
    if isinstance(data, Mapping):
        mark = data.get("assumption")
        if mark:
            out.append(path + ("" if mark is True else f" ({mark})"))
        for k, v in data.items():
            if k != "assumption":
                out += assumption_paths(v, f"{path}.{k}" if path else str(k))
    elif isinstance(data, list):
        marked = [i for i, v in enumerate(data) if isinstance(v, Mapping) and v.get("assumption")]
        if marked and len(marked) == len(data):
            out.append(f"{path} (all {len(data)} entries)")
        else:
            for i, v in enumerate(data):
                out += assumption_paths(v, f"{path}[{i}]")
    return out


def assumptions(state: State, req: Request, dice: DiceSource) -> Outcome:
    """The default data filling the text's missing tables or gaps (replace any of it with
    --house-rules; see docs/rules/solo_napoleonic.md)."""
    paths = assumption_paths({k: v for k, v in state.data.items() if k != "options"})
    return Outcome(
        (),
        (),
        "default data (assumptions, editable with --house-rules):\n" + "\n".join(paths),
        {"assumptions": paths},
    )


U = Param("unit", "unit id", "str", True)
T = Param("target", "target unit id", "str", True)

#: Facts a player may state for a morale-type test when positions are not kept (Kuryakin,
#: Morale, Charge Test, Charge Home); every morale-type procedure declares all of them.
MORALE_FACTS = (
    Param("charged_by"),
    Param("friendly_within_300", kind="int"),
    Param("in_command", kind="bool"),
    Param("casualties", kind="int"),
    Param("flank_rear", kind="bool"),
    Param("defending_cover", kind="bool"),
    Param("artillery_no_reply", kind="bool"),
    Param("melee_loser", kind="bool"),
    Param("co_killed", kind="bool"),
    Param("corps_killed", kind="bool"),
    Param("friends_routing", kind="int"),
    Param("vs_cavalry", kind="bool"),
    Param("charged_by_higher_class", kind="bool"),
    Param("officer_front", "the officer is in the front rank (optional rules)", "bool"),
    Param("standard_front", "the standard is in the front rank (optional rules)", "bool"),
)
CHARGE_FACTS = (
    Param("charging_inferior", "the target is of a lower class", "bool"),
    Param("target_steady", "the target has not failed morale", "bool"),
    Param("officer_front", "the officer is in the front rank (optional rules)", "bool"),
    Param("standard_front", "the standard is in the front rank (optional rules)", "bool"),
)
MELEE_FACTS = (
    Param("contact", "the two are in contact (positions not kept)", "bool"),
    Param("a_figures", "figures of the attacker that count", "int"),
    Param("b_figures", "figures of the defender that count", "int"),
    Param("a_contact", "attacker's files in contact", "int"),
    Param("b_contact", "defender's files in contact", "int"),
    Param("a_hit_standing", "the attacker is hit standing", "bool"),
    Param("b_hit_standing", "the defender is hit standing", "bool"),
    Param("a_flank_rear", "the attacker's cavalry hit the enemy's flank or rear (+2)", "bool"),
    Param("b_flank_rear", "the defender's cavalry hit the enemy's flank or rear (+2)", "bool"),
)


def fire_bands(state: State, f: Any, t: Any) -> list[str | None]:
    """The range bands a volley may be stated at: none to state when both units are placed
    (the distance decides), else one entry per band of its Range Table (the player measures and
    picks one: no typing)."""
    from vedette.rules.solo_napoleonic import geom

    if geom.unit_distance(f, t) is not None:
        return [None]
    if f.artillery:
        key = "horse" if f.kind == "horse_artillery" else "foot"
        return [str(b["band"]) for b in state.data["artillery_ranges"][key]]
    return ["short", "long"]


def unit_options(state: State, u: Any) -> list[tuple[str, dict[str, Any], str, str]]:
    """A unit's actions open on its card: (procedure, request, text, rule)."""
    if u.morale_due:
        return []  # its marker is owed first
    if u.status == "routing":
        return [
            ("move", {"unit": u.id, "mode": "rout"}, f"{u.id} runs (rout, 2D)", flow.R_ROUT),
            ("rally", {"unit": u.id}, f"{u.id} tries to rally", morale.R_MORALE),
        ]
    if u.must_rally:
        return [("rally", {"unit": u.id}, f"{u.id} must rally", morale.R_MORALE)]
    enemies = [
        e.id
        for e in state.units
        if e.side != u.side and e.on_table and (u.restricted_to in (None, e.id))
    ]
    out: list[tuple[str, dict[str, Any], str, str]] = [
        ("move", {"unit": u.id}, f"{u.id} moves", actions.R_MOVE),
        ("formation", {"unit": u.id}, f"{u.id} changes formation", actions.R_FORM),
        ("reform", {"unit": u.id}, f"{u.id} reforms (the whole turn)", actions.R_DIS),
    ]
    can_fire = (u.kind == "infantry" or u.artillery or u.skirmishing) and u.charge_state is None
    can_fire = can_fire and not u.fired  # one volley a turn (Kuryakin, Firing)
    for e in enemies:
        if can_fire:
            for band in fire_bands(state, u, state.unit(e)):
                req = {"unit": u.id, "target": e, **({"range": band} if band else {})}
                at = f" ({band} range)" if band else ""
                out.append(("fire", req, f"{u.id} fires at {e}{at}", fire.R_FIRE))
        may_charge = not (u.artillery or u.skirmishing or u.fired or u.charge_failed)
        if may_charge and u.charge_state is None and not u.home_failed:
            out.append(
                ("charge", {"unit": u.id, "target": e}, f"{u.id} charges {e}", morale.R_CHARGE)
            )
    return out


def _procs() -> dict[str, Procedure[State]]:
    P = Procedure
    procs: list[Procedure[State]] = [
        P(
            "staff",
            staff.staff,
            "generate the staff's TH/AV/CR (or enter historical ratings)",
            (
                Param("general", "one general (default: every unrated one)"),
                Param("th", "historical TH: below_average|average|above_average"),
                Param("av", "historical AV: timid|normal|aggressive"),
                Param("cr", "historical Control Rating", "int"),
                Param("grade", "historical grade"),
                Param("reroll", "roll again for rated generals", "bool"),
            ),
            staff.staff_odds,
            rule=staff.R_GEN,
        ),
        P(
            "control",
            staff.control,
            "control phase: each brigadier rolls D8 under his CR",
            (
                Param("out_of_command", "units out of command (when not placed)", "list"),
                Param(
                    "seniors_near", "div/corps commanders within 300mm (when not placed)", "list"
                ),
            ),
            staff.control_odds,
            rule=staff.R_CTRL,
        ),
        P(
            "deal",
            cards.deal,
            "deal and reveal activation cards and chance cards",
            (
                Param("cards", "cards dealt by hand: {holder: number}", "json"),
                Param("chance", "chance cards drawn by hand: {side: card}", "json"),
            ),
            cards.deal_odds,
            rule=cards.R_SEQ,
        ),
        P(
            "next",
            cards.next_card,
            "finish the active card and reveal whose turn it is",
            rule=cards.R_SEQ,
        ),
        P("order", cards.order_query, "the card queue", query=True, rule=cards.R_SEQ),
        P(
            "require",
            cards.require_morale,
            "a unit must test morale: marker, or at once if it has acted",
            (U, *MORALE_FACTS),
            cards.require_odds,
            rule=cards.R_JUMP,
        ),
        P(
            "chance",
            cards.play_chance,
            "play a side's chance card",
            (Param("side", required=True), Param("on", "the unit it is played on, or random")),
            cards.chance_odds,
            rule=cards.R_CHANCE,
        ),
        P(
            "move",
            actions.move,
            "move a unit (random distance, swerve)",
            (
                U,
                Param("distance", "mm (default: a full move)", "float"),
                Param("mode", "advance|move|retire|retreat|pursuit|rout"),
                Param("direction", "degrees from the facing (placed units)", "float"),
                Param("toward", "the unit it moves toward (a restricted unit)"),
            ),
            actions.move_odds,
            rule=actions.R_MOVE,
        ),
        P(
            "start",
            actions.start,
            "move from a standstill (d6)",
            (U,),
            actions.start_odds,
            rule=actions.R_STAND,
        ),
        P(
            "halt",
            actions.halt,
            "stop an advance (d6: 6 carries on)",
            (U,),
            actions.halt_odds,
            rule=actions.R_STAND,
        ),
        P(
            "formation",
            actions.formation,
            "change formation (d4 quarters)",
            (
                U,
                Param("to", "new formation"),
                Param("front", "figures in the new front", "int"),
                Param("width", "a skirmish line's frontage in mm (at most 4x its line's)", "float"),
            ),
            actions.formation_odds,
            rule=actions.R_FORM,
        ),
        P(
            "disorder",
            actions.disorder,
            "add/remove D chits; cause=collision rolls D3 each",
            (
                Param("cause", required=True),
                Param("unit"),
                Param("units", kind="list"),
                Param("n", kind="int"),
                Param("remove", kind="bool"),
            ),
            actions.disorder_odds,
            rule=actions.R_DIS,
        ),
        P(
            "reform",
            actions.reform,
            "reform: the whole turn, D6 chits removed",
            (U,),
            actions.reform_odds,
            rule=actions.R_DIS,
        ),
        P(
            "fire",
            fire.fire,
            "fire: volleys, skirmishers or a battery",
            (
                U,
                T,
                Param("range", "short|long (or canister for guns) when not placed"),
                Param("volleys", kind="int"),
                Param("cover", "none|soft|hard"),
                Param("moved", kind="bool"),
                Param("at_chargers", kind="bool"),
                Param("reaction", "defensive fire at a charger", "bool"),
                Param("hold", "hold the defensive fire owed at a charger", "bool"),
                Param("staff_officer", kind="bool"),
                Param("figures", kind="int"),
                Param("through_skirmishers", kind="bool"),
            ),
            fire.fire_odds,
            rule=fire.R_FIRE,
        ),
        P(
            "charge",
            morale.charge,
            "declare a charge: the charge test",
            (
                U,
                T,
                *CHARGE_FACTS,
                Param(
                    "flank_rear",
                    "the charge hits the target's flank or rear (positions not kept)",
                    "bool",
                ),
            ),
            morale.charge_odds,
            rule=morale.R_CHARGE,
        ),
        P(
            "close",
            morale.close,
            "the charger moves up to its target (Charge Test)",
            (U,),
            rule=morale.R_CHARGE,
        ),
        P(
            "morale",
            morale.morale,
            "morale test (d100 under BPL + modifiers)",
            (U, *MORALE_FACTS),
            morale.morale_odds,
            rule=morale.R_MORALE,
        ),
        P(
            "rally",
            morale.rally,
            "rally a routing/retiring unit (a morale test)",
            (U, *MORALE_FACTS),
            morale.rally_odds,
            rule=morale.R_MORALE,
        ),
        P(
            "charge_home",
            morale.charge_home,
            "the charge home test",
            (
                U,
                Param("uphill", kind="bool"),
                Param("obstacle", "obstacle|building"),
                Param("casualties_this_move", kind="int"),
                Param("test", "test even if not needed", "bool"),
                *CHARGE_FACTS,
            ),
            morale.charge_home_odds,
            rule=morale.R_HOME,
        ),
        P(
            "melee",
            melee.melee,
            "a round of melee",
            (U, T, Param("round", kind="int"), *MELEE_FACTS),
            melee.melee_odds,
            rule=melee.R_MELEE,
        ),
        P(
            "brawl",
            melee.brawl,
            "D3 further rounds of melee",
            (U, T, *MELEE_FACTS),
            melee.brawl_odds,
            rule=melee.R_MELEE,
        ),
        P(
            "evade",
            melee.evade,
            "skirmishers evade cavalry D20 cm",
            (U, Param("caught", kind="int")),
            melee.evade_odds,
            rule=melee.R_CI,
        ),
        P(
            "place",
            actions.place,
            "put a unit or general on the table (mm)",
            (
                Param("unit"),
                Param("general"),
                Param("x", kind="float", required=True),
                Param("y", kind="float", required=True),
                Param("facing", kind="float"),
                Param("width", "frontage in mm (a skirmish line: at most 4x its line's)", "float"),
                Param("depth", "depth in mm", "float"),
            ),
        ),
        P(
            "attach",
            actions.attach,
            "attach a general to a unit (unit=none detaches)",
            (Param("general", required=True), U),
        ),
        P("end_turn", end_turn, "end the turn", (Param("force", kind="bool"),), rule=R_TURN),
        P("status", status, "a unit's state and what it may do", (U,), query=True),
        P("reasons", reasons, "reasons for testing morale", query=True, rule=morale.R_MORALE),
        P(
            "assumptions",
            assumptions,
            "list the default data that fills the text's missing tables",
            query=True,
        ),
    ]
    return {p.name: p for p in procs}


class SoloNapoleonic(Ruleset[State]):
    name = "solo_napoleonic"
    aliases = ("solonap", "kuryakin")
    title = "Solo Napoleonic Wargames Rules (Ilya Kuryakin, First Empire #52)"
    data_package = PKG
    data_files = ("rules.toml",)
    options_model = SolonapOptions
    scenario_model = SolonapScenario

    events = EVENTS

    def __init__(self) -> None:
        self.scenarios = {"sample": "sample.toml"}
        self.procedures = {k: requests.typed(p) for k, p in _procs().items()}
        self.folds = {UnitChanged: fold_unit, GeneralChanged: fold_general, GameChanged: fold_game}

    def initial_state(self, scenario: Mapping[str, Any], options: Mapping[str, Any]) -> State:
        house = options.get("house_rules") or {}
        data = self.data(house if isinstance(house, Mapping) else None)
        opts = game_options(scenario, options)
        src = str(scenario.get("title", "scenario"))
        ranks = data.get("formation_ranks", {})
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
        from vedette.rules.two_by_two.model import feature_from_data

        terrain = tuple(
            feature_from_data(f, i) for i, f in enumerate(scenario.get("terrain", []), 1)
        )
        state = State(str(scenario.get("title", "")), sides, units, gens, opts, data)
        return replace(state, terrain=terrain) if terrain else state

    def obligations(self, state: State) -> tuple[Any, ...]:
        """The steps owed now: the open charges' next steps and the morale markers of the
        units on the active card (flow.py)."""
        return flow.obligations(state)

    def waive(self, state: State, obligation: str) -> State:
        return flow.waive(state, obligation)

    def options(self, state: State) -> list[Any]:
        """The actions open now (after what is owed), requests pre-filled: the phase's step,
        and on the active card each unit's actions (what status and its card allow)."""
        from vedette.rules.protocol import Todo

        if state.phase == "control":
            if any(g.cr is None and not g.killed for g in state.generals):
                # the control roll needs every Control Rating: rate the staff first
                text = "rate the staff first: each unrated general's TH, AV and Control Rating"
                return [Todo("staff", {}, text, staff.R_GEN)]
            return [Todo("control", {}, "control phase: each brigadier rolls for control", R_TURN)]
        if state.phase == "cards":
            return [Todo("deal", {}, "deal and reveal the cards", cards.R_SEQ)]
        if state.phase == "end":
            return [Todo("end_turn", {}, "every card has acted: end the turn", R_TURN)]
        if state.phase != "activation":
            return []
        out: list[Any] = []
        for uid in state.active_units():
            u = state.unit(uid)
            if u.acted or not u.on_table:
                continue
            out += [Todo(proc, req, text, rule) for proc, req, text, rule in unit_options(state, u)]
        for side in state.sides:
            held = state.chance.get(side)
            if held and held not in state.chance_played:
                out.append(
                    Todo("chance", {"side": side}, f"{side} may play {held}", cards.R_CHANCE)
                )
        out.append(Todo("next", {}, "finish the card: the next card acts", cards.R_SEQ))
        return out

    def legal_requests(
        self, state: State, rng: Any, n: int = 40
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        """What is owed first (only that, while a step is owed), then the options open now."""
        owed = self.obligations(state)
        if owed:
            for o in owed:
                req = dict(o.request)
                if o.procedure == "fire" and rng.random() < 0.5:
                    req["hold"] = True
                yield o.procedure, req
            return
        opts = self.options(state)
        rng.shuffle(opts)
        for t in opts[:n]:
            yield t.procedure, dict(t.request)

    def apply(self, state: State, event: Any) -> State:
        """Untyped events of older logs (and typed ones, for scripts that call apply)."""
        f = self.folds.get(type(event))
        if f is not None:
            return f(state, event)
        k = event.kind
        if k == "unit_changed":
            return apply_unit(state, event.data)
        if k == "general_changed":
            return apply_general(state, event.data)
        if k == "game_changed":
            return apply_game(state, event.data)
        raise BadRequest(f"unknown event {k!r}")

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
