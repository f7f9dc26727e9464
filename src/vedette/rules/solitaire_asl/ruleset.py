"""Solitaire Play of ASL (Mike O'Leary, 1994): dummy stacks, potential dummy stacks, HIP units
and dummy HIP counters, hidden fortifications, minefields and cloaked units that shift between
locations on a 2d6 shift DR; bore-sighted locations and pre-registered hexes decided later.

vedette keeps the bookkeeping and rolls; the player adjudicates ASL itself (LOS, terrain) and
states those facts. See docs/rules/solitaire_asl.md.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from vedette.dice import DiceSource
from vedette.referee import Procedure, procedure_table
from vedette.rules.base import LazyModel, Outcome, Ruleset
from vedette.rules.protocol import Flow, GameOutcome, Phase, Plan, Todo
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
from vedette.rules.solitaire_asl.fold import EVENTS, FOLDS, apply_event
from vedette.rules.solitaire_asl.minefields import plan_minefield, run_minefield
from vedette.rules.solitaire_asl.model import SETUP, State
from vedette.rules.solitaire_asl.offers import offers
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
    ShiftRequest,
    StackRequest,
)
from vedette.rules.solitaire_asl.setup import build_state
from vedette.rules.solitaire_asl.shift import plan_shift, run_shift
from vedette.rules.solitaire_asl.turn import QUERY, game_turn

if TYPE_CHECKING:
    from vedette.rules.editor import Editor


def _flow() -> Flow:
    """The sequence of play (ASL A3) with the article's windows: set-up (placing the dummy
    counters, 3.1.1, 4.6.1; marking potential dummy stacks, 2.1), then each player turn's
    PFPh, MPh, DFPh, AFPh, RtPh, APh and CCPh. Shifts are tried in the phases some window of
    2.3, 3.3.2 or 5.1 opens (the plan checks which kind, whose, and the start of the phase);
    a weapon's bore-sight die goes with its fire (6.1: PFPh, MPh Defensive First Fire, DFPh,
    AFPh); an AR's pre-registration die with OBA (7.1: PFPh, DFPh); stacks move in the MPh,
    RtPh and APh, and a minefield exchange follows a unit's entry (4.6.2, 4.6.4)."""
    every = ("phase", "act", "merge", "drop")
    fire = ("boresight",)
    # each phase names the article's rules that open (or keep closed) what it allows: 2.2
    # (potential dummy stacks are made only at set-up), 2.3/5.1 (the starts of phases),
    # 3.3.2 (HIP windows), 4.6.2 (minefield entry), 6.1 (fire), 7.1 (OBA)
    play = {
        "PFPh": ((*every, "shift", *fire, "prereg"), "2.2, 3.3.2, 6.1, 7.1"),
        "MPh": ((*every, "shift", *fire, "move", "minefield"), "2.2, 2.3, 3.3.2, 4.6.2, 5.1, 6.1"),
        "DFPh": ((*every, "shift", *fire, "prereg"), "2.2, 3.3.2, 6.1, 7.1"),
        "AFPh": ((*every, "shift", *fire), "2.2, 5.1, 6.1"),
        "RtPh": ((*every, "move", "minefield"), "2.2, 2.3, 3.3.2, 4.6.2, 5.1"),
        "APh": ((*every, "shift", "move", "minefield"), "2.2, 2.3, 3.3.2, 4.6.2, 5.1"),
        "CCPh": (every, "2.2, 2.3, 3.3.2, 5.1"),
    }
    phases = [
        Phase.of(
            SETUP,
            ["place", "mark", "drop", "phase"],
            rule="O'Leary 2.3 (nothing moves or shifts in set-up); 2.1, 3.1.1, 4.6.1",
            ends="phase: the first player's PFPh",
        )
    ]
    phases += [
        Phase.of(
            name,
            allows,
            rule=f"ASL A3 ({name}); " + ", ".join(f"O'Leary {r}" for r in why.split(", ")),
            ends="phase",
        )
        for name, (allows, why) in play.items()
    ]
    # stating facts and what the ASL rules reveal, and the owed word on a scattered hex, at
    # any time
    return Flow(tuple(phases), always=frozenset({"location", "fort", "reveal", "decide"}))


class SolitaireASL(Ruleset[State]):
    name = "solitaire_asl"
    aliases = ("asl",)
    title = "Solitaire Play of ASL (O'Leary)"
    data_package = "vedette.rules.solitaire_asl.data"
    data_files = ("rules.toml",)
    options_model = LazyModel("vedette.rules.solitaire_asl.schema:AslOptions")
    scenario_model = LazyModel("vedette.rules.solitaire_asl.schema:AslScenario")
    scenarios: Mapping[str, str] = MappingProxyType({"sample": "sample.toml"})
    events = EVENTS
    folds = FOLDS
    flow = _flow()

    def __init__(self) -> None:
        self.procedures = procedure_table(
            Procedure.nodice(PhaseRequest, pr.run_phase),
            Procedure.nodice(ActRequest, pr.run_act),
            Procedure.nodice(MoveRequest, pr.run_move),
            Procedure.nodice(MergeRequest, pr.run_merge),
            Procedure.nodice(StackRequest, pr.run_mark),
            Procedure.nodice(DropRequest, pr.run_drop),
            Procedure.nodice(RevealRequest, lambda s, r: pr.run_reveal(s, r, _d(s))),
            Procedure.nodice(PlaceRequest, lambda s, r: pr.run_place(s, r, _d(s))),
            Procedure.nodice(LocationRequest, lambda s, r: pr.run_location(s, r, _d(s))),
            Procedure.nodice(FortRequest, pr.run_fort),
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

    def current_phase(self, state: State) -> str | None:
        return state.phase

    #: a query's plan opens the shift windows (turn.QUERY): the odds of a shift DR are shown
    #: in every phase, the shift itself waits for its window
    query_context = QUERY

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


def _shift_plan(state: State, req: ShiftRequest) -> Plan:
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
