"""The Solitaire Play of ASL ruleset (the plug-in class): its procedures, the flow it declares
(flow.py), its events and folds (fold.py), and the hooks the shared code asks."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from vedette.dice import DiceSource
from vedette.referee import Procedure, procedure_table
from vedette.rules.base import LazyModel, Outcome, Ruleset
from vedette.rules.protocol import GameOutcome, Plan, Todo
from vedette.rules.simulation import SimPlay, TodoSim
from vedette.rules.solitaire_asl import procedures as pr
from vedette.rules.solitaire_asl.boresight import (
    plan_boresight,
    plan_decide,
    plan_prereg,
    resolve_boresight,
    resolve_decide,
    resolve_prereg,
)
from vedette.rules.solitaire_asl.config import Config, make_config
from vedette.rules.solitaire_asl.events import ENTITIES, EVENTS
from vedette.rules.solitaire_asl.flow import FLOW
from vedette.rules.solitaire_asl.fold import FOLDS, apply_event
from vedette.rules.solitaire_asl.minefields import plan_minefield, run_minefield
from vedette.rules.solitaire_asl.model import State
from vedette.rules.solitaire_asl.offers import counter_offers, offers
from vedette.rules.solitaire_asl.planner import plan_planner, resolve_planner
from vedette.rules.solitaire_asl.render import render_state, state_json
from vedette.rules.solitaire_asl.requests import (
    ActRequest,
    BoresightRequest,
    DecideRequest,
    DropRequest,
    FortRequest,
    LegalRequest,
    LocationRequest,
    MergeRequest,
    MinefieldRequest,
    MoveRequest,
    PhaseRequest,
    PlaceRequest,
    PlanRequest,
    PreregRequest,
    RevealRequest,
    SettleRequest,
    ShiftRequest,
    StackRequest,
)
from vedette.rules.solitaire_asl.setup import build_state
from vedette.rules.solitaire_asl.shift import plan_shift, run_shift
from vedette.rules.solitaire_asl.turn import QUERY, game_turn

if TYPE_CHECKING:
    from vedette.rules.editor import Editor


class SolitaireASL(Ruleset[State]):
    name = "solitaire_asl"
    aliases = ("asl",)
    title = "Solitaire Play of ASL (O'Leary)"
    data_package = "vedette.rules.solitaire_asl.data"
    data_files = ("rules.toml",)
    options_model = LazyModel("vedette.rules.solitaire_asl.schema:AslOptions")
    #: divisors of the allotment (O'Leary 4.1, 4.6.1): 0 divided by zero when a game was set up
    house_rule_positive = ("allotment.*_per_*",)
    #: your own terrain kinds, with their TEM and whether they are Concealment Terrain
    house_rule_open_maps = ("terrain_tem", "terrain_concealment")
    scenario_model = LazyModel("vedette.rules.solitaire_asl.schema:AslScenario")
    scenarios: Mapping[str, str] = MappingProxyType({"sample": "sample.toml"})
    events = EVENTS
    folds = FOLDS
    entities = ENTITIES
    flow = FLOW
    #: the Next entries that move play on (ASL A3: the next phase of the player turn)
    phase_end = ("phase",)
    #: a cloaked shift's 11-12 row as release 0.2 gave it, the reading named for a player now
    reworded = (
        ("(the row does not speak of cloaked units: vedette's reading A10)", "(documented A10)"),
    )

    def __init__(self) -> None:
        self.procedures = procedure_table(
            Procedure.nodice(PhaseRequest, pr.run_phase),
            Procedure.nodice(ActRequest, pr.run_act),
            Procedure.nodice(MoveRequest, pr.run_move, pr.check_move),
            Procedure.nodice(MergeRequest, pr.run_merge),
            Procedure.nodice(StackRequest, pr.run_mark),
            Procedure.nodice(DropRequest, pr.run_drop),
            Procedure.nodice(RevealRequest, lambda s, r: pr.run_reveal(s, r, _d(s))),
            Procedure.nodice(PlaceRequest, lambda s, r: pr.run_place(s, r, _d(s))),
            Procedure.nodice(LocationRequest, lambda s, r: pr.run_location(s, r, _d(s))),
            Procedure.nodice(FortRequest, pr.run_fort),
            Procedure.nodice(SettleRequest, pr.run_settle),
            Procedure(ShiftRequest, _shift_plan, _shift_resolve),
            Procedure(MinefieldRequest, _mine_plan, _mine_resolve),
            Procedure(
                BoresightRequest,
                lambda s, r: plan_boresight(s, r, _t(s), _d(s)),
                lambda s, p, d: resolve_boresight(s, p, d, _d(s)),
            ),
            Procedure(
                PreregRequest,
                lambda s, r: plan_prereg(s, r, _t(s), _d(s)),
                lambda s, p, d: resolve_prereg(s, p, d, _d(s)),
            ),
            Procedure(DecideRequest, plan_decide, resolve_decide),
            Procedure.nodice(LegalRequest, lambda s, r: pr.run_legal(s, r, _d(s), _t(s))),
            Procedure(
                PlanRequest,
                lambda s, r: plan_planner(s, r, _d(s), _t(s)),
                lambda s, p, d: resolve_planner(s, p, d, _d(s), _t(s)),
            ),
        )

    _cache: ClassVar[dict[str, tuple[dict[str, Any], Config]]] = {}

    def data(self, house_rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return self._cached(house_rules)[0]

    def tables(self, house_rules: Mapping[str, Any] | None = None) -> Any:
        return self._cached(house_rules)[1].tables

    def config(self, house_rules: Mapping[str, Any] | None = None) -> Config:
        """The rule data read once per house rules (config.py); every game shares it."""
        return self._cached(house_rules)[1]

    def _cached(self, house_rules: Mapping[str, Any] | None) -> tuple[dict[str, Any], Config]:
        key = json.dumps(house_rules or {}, sort_keys=True, default=str)
        if key not in self._cache:
            d = super().data(house_rules)
            self._cache[key] = (d, make_config(d, "house rules" if house_rules else "rules data"))
        return self._cache[key]

    def initial_state(self, scenario: Mapping[str, Any], options: Mapping[str, Any]) -> State:
        return build_state(scenario, options, self.config(options.get("house_rules")))

    end_condition = (
        "a turn limit (an assumption: the solitaire system covers concealment, hidden placement"
        " and shifts, not the scenario's victory conditions): after [battle_end] max_turns (6)"
        " game turns the game is a draw"
    )

    strength_unit = "counters"

    def strength(self, state_json: Mapping[str, Any]) -> dict[str, float]:
        """Real counters in the stacks on the map (dummies are not losses)."""
        out: dict[str, float] = {}
        for st in state_json.get("stacks", []):
            out[st["side"]] = out.get(st["side"], 0) + len(st.get("counters") or [])
        return out

    def editor(self) -> Editor:
        from vedette.rules.solitaire_asl.editor import EDITOR  # start-up time: the builder only

        return EDITOR

    def sides(self, state: State) -> list[str]:
        return list(state.sides)

    def turn(self, state: State) -> int:
        return game_turn(state)

    def outcome(self, state: State) -> GameOutcome | None:
        if game_turn(state) > state.config.max_turns:
            return GameOutcome("draw", "turn limit", game_turn(state), {s: 0 for s in state.sides})
        return None

    def apply(self, state: State, event: Any) -> State:
        return apply_event(state, event)

    def options(self, state: State) -> list[Todo]:
        """The actions open now (offers.py): complete, or open with their choices."""
        return offers(state, state.config, state.config.tables)

    def counter_actions(self, state: State) -> dict[str, list[Todo]]:
        """The player's reports on each counter, reached from it on the board (offers.py)."""
        return counter_offers(state)

    def current_phase(self, state: State) -> str | None:
        return state.phase

    #: a query's plan opens the shift windows (turn.QUERY): the odds of a shift DR are shown
    #: in every phase, the shift itself waits for its window
    query_context = QUERY

    def simulation(self) -> SimPlay:
        """The random policy over ``todo``'s lines as ``legal_requests`` fills them, a line
        judged only when drawn (docs/simulation.md)."""
        return TodoSim()

    def legal_requests(
        self, state: State, rng: Any, n: int = 40
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        """Requests that are all legal now: ``todo``'s entries (owed first), each open field
        filled with one of its offered choices."""
        for t in self.todo(state)[:n]:
            if not t.refused:
                yield t.procedure, {**t.request, **{k: rng.choice(v) for k, v in t.open.items()}}

    def render(self, state: State) -> str:
        return render_state(state)

    def state_json(self, state: State) -> dict[str, Any]:
        return state_json(state)


def _d(state: State) -> Config:
    """The rules data of a game, typed (its house rules applied; built once per house rules)."""
    return state.config


def _t(state: State) -> Any:
    """The tables of a game (its house rules applied)."""
    return state.config.tables


#: the last shift planned and accepted: (state, request, in a query?, its plan). The
#: simulator judges the line it draws, then plays it: the same request on the same state,
#: planned once (a state, a parsed request and a plan never change; a query plans otherwise,
#: turn.QUERY)
_LAST_SHIFT: list[Any] = [None, None, None, None]


def _shift_plan(state: State, req: ShiftRequest) -> Plan:
    query = QUERY.get()
    last = _LAST_SHIFT
    if last[0] is state and last[1] is req and last[2] is query:
        return last[3]  # type: ignore[no-any-return]
    sp = plan_shift(state, req, _d(state), _t(state))
    plan = Plan(req, (sp.check,), sp)
    last[:] = [state, req, query, plan]
    return plan


def fresh_shift_plan(state: State, req: ShiftRequest) -> Plan:
    """:func:`_shift_plan` worked out afresh (the kept plan's oracle in its tests)."""
    sp = plan_shift(state, req, _d(state), _t(state))
    return Plan(req, (sp.check,), sp)


def _shift_resolve(state: State, plan: Plan, dice: DiceSource) -> Outcome:
    return run_shift(state, plan.data, dice)


def _mine_plan(state: State, req: MinefieldRequest) -> Plan:
    mp = plan_minefield(state, req, _d(state), _t(state))
    return Plan(req, (mp.check,), mp)


def _mine_resolve(state: State, plan: Plan, dice: DiceSource) -> Outcome:
    return run_minefield(state, plan.data, dice, _d(state))


RULESET = SolitaireASL()
