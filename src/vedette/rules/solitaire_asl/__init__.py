"""Solitaire Play of ASL (Mike O'Leary, 1994): dummy stacks, potential dummy stacks, HIP units
and dummy HIP counters, hidden fortifications, minefields and cloaked units that shift between
locations on a 2d6 shift DR; bore-sighted locations and pre-registered hexes decided later.

vedette keeps the bookkeeping and rolls; the player adjudicates ASL itself (LOS, terrain) and
states those facts. See docs/rules/solitaire_asl.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from vedette.dice import DiceSource, Odds, tables_from_data
from vedette.rules.base import Event, Outcome, Param, Procedure, Request, Ruleset
from vedette.rules.solitaire_asl import procedures as pr
from vedette.rules.solitaire_asl.boresight import (
    boresight_check,
    prereg_check,
    run_boresight,
    run_decide,
    run_prereg,
    scatter_odds,
)
from vedette.rules.solitaire_asl.fold import apply_event
from vedette.rules.solitaire_asl.minefields import plan_minefield, run_minefield
from vedette.rules.solitaire_asl.model import State
from vedette.rules.solitaire_asl.render import render_state, state_json
from vedette.rules.solitaire_asl.schema import AslOptions, AslScenario
from vedette.rules.solitaire_asl.setup import build_state
from vedette.rules.solitaire_asl.shift import plan_shift, run_shift

SHIFT_PARAMS = (
    Param(
        "a", "stack id, counter id, fortification id or location (4P5) that shifts", required=True
    ),
    Param("b", "the other stack/location (default: a itself, 2.3)"),
    Param("kind", "dummy | hip | cloaked (default: from the stacks)"),
    Param(
        "also",
        "more pairs shifting as one stack on the same DR: [[a2, b2]]; HIP also {a, b, move, back}"
        " (2.4.2)",
        "json",
    ),
    Param("side", "whose stacks (when a location holds both sides')"),
    Param("move", "HIP: the units / dummy HIP / fortifications of a that shift (3.3.3)", "list"),
    Param("back", "HIP: those of b that shift back (default all; [] for none, 3.3.3)", "list"),
    Param("tem_a", "TEM of a's location as the player states it", "int"),
    Param("tem_b", "TEM of b's location as the player states it", "int"),
    Param("los", "either location in enemy LOS (overrides the stored facts)", "bool"),
    Param("los_a", "a's location in enemy LOS", "bool"),
    Param("los_b", "b's location in enemy LOS", "bool"),
    Param("lv", "an LV hindrance applies at all ranges", "bool"),
    Param("consistent", "false if the player finds the shift inconsistent (2.4)", "bool"),
    Param("placement_ok", "false if a fortification could not be set up there (4.2)", "bool"),
    Param("positions", "stack id -> portion it takes (must be the one it replaces, 2.3)", "json"),
    Param("settings", "after the exchange: counter id -> CA/TCA/VCA/CE-BU text (2.3)", "json"),
    Param("ca", "after the exchange: fortification id -> CA (4.4)", "json"),
    Param("emplaced", "Guns considered emplaced after the shift (2.3)", "list"),
    Param("into_fort", "HIP units go into the fortification of their new location (4.4)", "bool"),
    Param("occupants", "other stacks there taken to be in the shifted fortification (4.4)", "list"),
    Param("keep_concealment", "HIP units that lose HIP keep concealment (default true)", "bool"),
)


class SolitaireASL(Ruleset[State]):
    name = "solitaire_asl"
    aliases = ("asl",)
    title = "Solitaire Play of ASL (O'Leary)"
    data_package = "vedette.rules.solitaire_asl.data"
    data_files = ("rules.toml",)
    options_model = AslOptions
    scenario_model = AslScenario
    scenarios: Mapping[str, str] = MappingProxyType({"sample": "sample.toml"})

    def __init__(self) -> None:
        def _d(state: State) -> dict[str, Any]:
            return self.data(state.options.get("house_rules"))

        def _t(state: State) -> Any:
            return self.tables(state.options.get("house_rules"))

        def shift(state: State, req: Request, dice: DiceSource) -> Outcome:
            return run_shift(state, plan_shift(state, req, _d(state), _t(state)), dice)

        def shift_odds(state: State, req: Request) -> Sequence[Odds]:
            return [plan_shift(state, req, _d(state), _t(state)).check.odds()]

        def minefield(state: State, req: Request, dice: DiceSource) -> Outcome:
            d = _d(state)
            return run_minefield(state, plan_minefield(state, req, d, _t(state)), dice, d)

        def minefield_odds(state: State, req: Request) -> Sequence[Odds]:
            return [plan_minefield(state, req, _d(state), _t(state)).check.odds()]

        def nodice(fn: Any) -> Any:
            def run(state: State, req: Request, dice: DiceSource) -> Outcome:
                return fn(state, req)  # type: ignore[no-any-return]

            return run

        self.procedures = {
            "phase": Procedure(
                "phase",
                nodice(pr.run_phase),
                "advance to the next phase (or to=PHASE)",
                (Param("to", "PFPh|MPh|DFPh|AFPh|RtPh|APh|CCPh"),),
                rule="ASL A3",
            ),
            "act": Procedure(
                "act",
                nodice(pr.run_act),
                "a friendly unit has moved/advanced/fired this phase",
                rule="O'Leary 2.3, 5.1",
            ),
            "move": Procedure(
                "move",
                nodice(pr.run_move),
                "a stack (or part) moves conventionally",
                (
                    Param("stack", required=True),
                    Param("to", "location", required=True),
                    Param("counters", "the counters that move (a split, 2.2)", "list"),
                    Param("dummies", "a dummy stack: how many ? move", "int"),
                    Param("mp", "MP the vehicles used this phase (2.4)", "int"),
                    Param("position", "foxhole, crest, ..."),
                ),
                rule="O'Leary 2.2, 3.2.2",
            ),
            "merge": Procedure(
                "merge",
                nodice(pr.run_merge),
                "merge two stacks in one location",
                (Param("a", required=True), Param("b", required=True)),
                rule="O'Leary 2.2",
            ),
            "mark": Procedure(
                "mark",
                nodice(pr.run_mark),
                "mark a stack as a potential dummy stack (set-up)",
                (Param("stack", required=True),),
                rule="O'Leary 2.1",
            ),
            "drop": Procedure(
                "drop",
                nodice(pr.run_drop),
                "a potential dummy stack drops that status, keeps its ?",
                (Param("stack", required=True),),
                rule="O'Leary 2.2",
            ),
            "reveal": Procedure(
                "reveal",
                nodice(pr.run_reveal),
                "concealment/HIP/cloaking lost by the ASL rules; dummies removed",
                (
                    Param("what", "stack or fortification id", required=True),
                    Param("keep_concealment", "HIP/cloaked units keep a ?", "bool"),
                ),
                rule="O'Leary 2.2, 3.4, 5.2",
            ),
            "place": Procedure(
                "place",
                lambda s, r, d: pr.run_place(s, r, _d(s)),
                "place an allotted dummy HIP counter or dummy minefield (set-up)",
                (
                    Param("kind", "dummy_hip | dummy_minefield", required=True),
                    Param("side", required=True),
                    Param("location", required=True),
                    Param("position"),
                ),
                rule="O'Leary 3.1.1, 4.1, 4.6.1",
            ),
            "location": Procedure(
                "location",
                nodice(pr.run_location),
                "state the facts of a location",
                (
                    Param("id", required=True),
                    Param("tem", kind="int"),
                    Param("terrain"),
                    Param("los", kind="bool"),
                    Param("lv", kind="bool"),
                    Param("concealment_terrain", kind="bool"),
                    Param("forbid", kind="list"),
                ),
                rule="O'Leary 2.4, 2.5, 4.2",
            ),
            "fort": Procedure(
                "fort",
                nodice(pr.run_fort),
                "record a fortification's CA, cave complex or tunnel exit",
                (Param("id", required=True), Param("ca"), Param("complex"), Param("exit")),
                rule="O'Leary 4.4",
            ),
            "shift": Procedure(
                "shift",
                shift,
                "try to exchange two stacks' locations (shift DR)",
                SHIFT_PARAMS,
                odds=shift_odds,
                rule="O'Leary 2.3-2.5, 3.3, 4, 5",
            ),
            "minefield": Procedure(
                "minefield",
                minefield,
                "a unit enters an unrevealed minefield: try to exchange it",
                (
                    Param("entered", "minefield id or location", required=True),
                    Param("other", "minefield id or location", required=True),
                    Param("los", kind="bool"),
                    Param("los_a", kind="bool"),
                    Param("los_b", kind="bool"),
                    Param("tem_a", kind="int"),
                    Param("tem_b", kind="int"),
                    Param("lv", kind="bool"),
                ),
                odds=minefield_odds,
                rule="O'Leary 4.6",
            ),
            "boresight": Procedure(
                "boresight",
                lambda s, r, d: run_boresight(s, r, d, _t(s), _d(s)),
                "an eligible weapon fires: the bore sight die",
                (
                    Param("weapons", "counter ids sharing one die (6.3)", "list", True),
                    Param("target", "target location", required=True),
                    Param("roll", "false: do not throw (6.2)", "bool"),
                    Param(
                        "candidate_ok", "on a 6: could the scattered hex be bore sighted?", "bool"
                    ),
                ),
                odds=lambda s, r: [
                    boresight_check(s, r, _t(s))[2].odds(),
                    *scatter_odds(_d(s), "O'Leary 6.1"),
                ],
                rule="O'Leary 6",
            ),
            "prereg": Procedure(
                "prereg",
                lambda s, r, d: run_prereg(s, r, d, _t(s), _d(s)),
                "an AR is placed: the pre-registration die",
                (
                    Param("module", required=True),
                    Param("ar", "AR location", required=True),
                    Param("roll", kind="bool"),
                    Param("candidate_ok", kind="bool"),
                ),
                odds=lambda s, r: [
                    prereg_check(s, r, _t(s))[2].odds(),
                    *scatter_odds(_d(s), "O'Leary 7.1"),
                ],
                rule="O'Leary 7",
            ),
            "decide": Procedure(
                "decide",
                nodice(run_decide),
                "say whether a scattered hex could be bore sighted / pre-registered",
                (
                    Param("id", "weapon counter id or OBA module", required=True),
                    Param("ok", kind="bool", required=True),
                ),
                rule="O'Leary 6.1, 7.1",
            ),
            "legal": Procedure(
                "legal",
                lambda s, r, d: pr.run_legal(s, r, _d(s), _t(s)),
                "the shifts a side may try now, with their odds",
                (Param("side"),),
                query=True,
                rule="O'Leary 2.3, 3.3, 5.1",
            ),
        }

    _cache: ClassVar[dict[str, tuple[dict[str, Any], dict[str, Any]]]] = {}

    def data(self, house_rules: Mapping[str, Any] | None = None) -> dict[str, Any]:
        return self._cached(house_rules)[0]

    def tables(self, house_rules: Mapping[str, Any] | None = None) -> Any:
        return self._cached(house_rules)[1]

    def _cached(
        self, house_rules: Mapping[str, Any] | None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        key = json.dumps(house_rules or {}, sort_keys=True, default=str)
        if key not in self._cache:
            d = super().data(house_rules)
            self._cache[key] = (d, tables_from_data(d, f"{self.name} data"))
        return self._cache[key]

    def initial_state(self, scenario: Mapping[str, Any], options: Mapping[str, Any]) -> State:
        return build_state(scenario, options, self.data(options.get("house_rules")))

    def apply(self, state: State, event: Event) -> State:
        return apply_event(state, event)

    def render(self, state: State) -> str:
        return render_state(state)

    def state_json(self, state: State) -> dict[str, Any]:
        return state_json(state)


RULESET = SolitaireASL()
