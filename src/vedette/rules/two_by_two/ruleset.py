"""The 2 by 2 Napoleonics ruleset plug-in: scenario loading, the fold, rendering, procedures."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, replace
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from vedette.data import merge
from vedette.errors import BadRequest, DataError
from vedette.geometry import tabletop as tt
from vedette.geometry.tabletop import Body, TableTop, Vec
from vedette.referee import Procedure, procedure_table
from vedette.rules.base import LazyModel, Outcome, Ruleset
from vedette.rules.protocol import (
    Event,
    GameOutcome,
    Obligation,
    Todo,
    derive_todo,
    todo_entries,
)
from vedette.rules.protocol import judged as protocol_judged
from vedette.rules.simulation import SimPlay
from vedette.rules.two_by_two import (
    facts,
    melee,
    movement,
    offers,
    rally,
    reinforcements,
    relative,
    setup,
    shooting,
    todo,
)
from vedette.rules.two_by_two import requests as rq
from vedette.rules.two_by_two.events import ENTITIES, EVENTS, FOLDS, PhaseBegan, Roles, apply_event
from vedette.rules.two_by_two.flow import FLOW, acting, acting_after, current_phase
from vedette.rules.two_by_two.model import (
    EDGES,
    FORMATIONS,
    PHASES,
    PLAYS,
    GameState,
    ReinforcementPoint,
    Rules,
    SideInfo,
    Unit,
    body_json,
    feature_from_data,
)
from vedette.rules.two_by_two.simplay import TwoByTwoSim

if TYPE_CHECKING:
    from vedette.rules.editor import Editor

SRC = "two_by_two scenario"
#: a unit's row named as the scenario builder places it beside its element (``units[0]``)
UNITS = f"{SRC} [[units]]"

#: the procedures that end a phase (their plan says what was left undone: TwoByTwo.judge)
_ENDS = frozenset(("next", "next_phase"))


def _sides(scn: Mapping[str, Any]) -> tuple[SideInfo, SideInfo]:
    raw = scn.get("sides")
    if not isinstance(raw, list) or len(raw) != 2:
        raise DataError(SRC, "a scenario needs exactly two [[sides]]")
    out = []
    for i, s in enumerate(raw, start=1):
        edge = str(s.get("edge", ""))
        if edge not in EDGES:
            raise DataError(SRC, f"side edge must be one of {', '.join(EDGES)}", i)
        out.append(SideInfo(str(s["id"]), str(s.get("name", s["id"])), edge))
    if out[0].id == out[1].id:
        raise DataError(SRC, "the two sides need different ids")
    return out[0], out[1]


def _units(
    rules: Rules,
    scn: Mapping[str, Any],
    sides: set[str],
    start: str,
    queued: set[str] = frozenset(),  # type: ignore[assignment]
    tracked: bool = True,
) -> tuple[Unit, ...]:
    """The scenario's units. A unit queued at a reinforcement point is off the table (in
    reserve) until it arrives (2 by 2, Game Setup: "places reinforcements ... next to it in
    order of appearance"; Reinforcements). A stated game keeps no positions."""
    units: list[Unit] = []
    seen: set[str] = set()
    for i, d in enumerate(scn.get("units", []), start=1):
        try:
            uid = str(d["id"])
            kind = str(d["type"])
            side = str(d["side"])
        except KeyError as e:
            raise DataError(UNITS, f"unit needs {e}", i) from None
        if uid in seen:
            raise DataError(UNITS, f"duplicate unit id {uid!r}", i)
        seen.add(uid)
        if kind not in rules.unit_types:
            raise DataError(UNITS, f"unknown unit type {kind!r}", i)
        if side not in sides:
            raise DataError(UNITS, f"unknown side {side!r}", i)
        body = None
        if "x" in d and tracked:
            body = Body(
                Vec(float(d["x"]), float(d["y"])),
                tt.normalise(float(d.get("facing", 0.0))),
                rules.footprint,
            )
        placed = body is not None or ("x" in d and not tracked)
        default_status = "table" if (start == "battle" or placed) else "reserve"
        if uid in queued and "x" not in d:
            default_status = "reserve"
        status = str(d.get("status", default_status))
        if status not in ("table", "reserve", "destroyed"):
            raise DataError(UNITS, f"bad status {status!r}", i)
        formation = str(d.get("formation", "line"))
        if formation not in FORMATIONS:
            raise DataError(UNITS, f"formation must be one of {', '.join(FORMATIONS)}", i)
        utype = rules.unit_types[kind]
        if d.get("screened", False) and not utype.star_range:  # (Unit Summary "*": reading 55)
            raise DataError(
                UNITS,
                f"{uid}: {utype.name} has no skirmisher screen: only units whose range shows"
                " [2*] put one out (2 by 2, Unit Summary)",
                i,
            )
        units.append(
            Unit(
                uid,
                side,
                kind,
                str(d.get("name", uid)),
                status,
                body if status == "table" else None,
                pinned=bool(d.get("pinned", False)),
                disrupted=bool(d.get("disrupted", False)),
                formation=formation,
                screened=bool(d.get("screened", False)),
            )
        )
    if not units:
        raise DataError(SRC, "a scenario needs [[units]]")
    return tuple(units)


#: an advance's or a retire's plan and resolve in one run, its events alone (the simulator:
#: its plan without the words and counter-charges no one reads there)
_play_adv = partial(relative.play_step, partial(relative.advance_step, words=False))


class TwoByTwo(Ruleset[GameState]):
    name = "two_by_two"
    aliases = ("twobytwo", "2x2")
    title = "2 by 2 Napoleonics"
    data_package = "vedette.rules.two_by_two.data"
    data_files = ("units.toml", "rules.toml")
    options_model = LazyModel("vedette.rules.two_by_two.schema:TwoByTwoOptions")
    scenario_model = LazyModel("vedette.rules.two_by_two.schema:TwoByTwoScenario")
    house_rule_open_maps = ("units",)
    # (Scale): a base's and a unit's sizes and [1] measure the table; a unit type's move (Unit
    # Summary) is a distance it may cover: 0 or less would divide by zero or run backward
    house_rule_positive = ("scale.base_*", "scale.unit_*", "units.*.move")
    scenarios: Mapping[str, str] = MappingProxyType(
        {
            "sample": "sample.toml",
            "setup": "setup.toml",
            "sample_far": "sample_far.toml",
            "close": "close.toml",
        }
    )

    events = EVENTS
    folds = FOLDS
    entities = ENTITIES

    flow = FLOW
    #: the Next entries that move play on (2 by 2, Sequence of play: the phase or set-up step ends)
    phase_end = ("next", "next_phase")
    #: a unit's own entries: its moves, formation, rout, charge (``unit``), its fire (``firer``)
    pick_fields = ("unit", "firer")
    #: stated play's ground held for the phase (reading 54), which an earlier release's
    #: stated melee or shot did not log: such a saved game still imports
    added_events = frozenset({"facts_held"})

    def _check_move(self, state: GameState, req: rq.Move) -> Outcome:
        """``check_move`` answers with the judgement ``move`` gets (the flow, what is owed,
        the distance spent this phase, the one-path rule, every movement rule), never its
        own."""
        verdict = self.is_legal(state, "move", req)
        return movement.check_move(state, req, "" if verdict.ok else verdict.reason)

    def current_phase(self, state: GameState) -> str | None:
        return current_phase(state)

    def game_over(self, state: GameState) -> bool:
        """The battle ended by the victory check (ASSUMPTION, [victory]: the text has none)."""
        return state.stage == "over"

    end_condition = (
        "the victory check at the end of each turn (an assumption: the text only says destroyed"
        " units count): a side's score is the AP of enemy units destroyed; the game ends when"
        " a score reaches [victory] threshold_ap (score) or max_turns is passed (turn limit);"
        " the higher score wins, equal scores draw"
    )

    #: a drag moves a unit to a point
    hand_move: ClassVar[Mapping[str, str] | None] = {
        "procedure": "move",
        "kind": "point",
    }
    strength_unit = "units"

    def strength(self, state_json: Mapping[str, Any]) -> dict[str, float]:
        """Units not destroyed (2 by 2's losses are whole units)."""
        out: dict[str, float] = {}
        for u in state_json.get("units", []):
            out.setdefault(u["side"], 0)
            if u.get("status") != "destroyed":
                out[u["side"]] += 1
        return out

    def editor(self) -> Editor:
        from vedette.rules.two_by_two.editor import EDITOR  # start-up time: the builder only

        return EDITOR

    def sides(self, state: GameState) -> list[str]:
        return [s.id for s in state.sides]

    def losses(self, state: GameState) -> dict[str, int]:
        """Units destroyed, per side."""
        out = {s.id: 0 for s in state.sides}
        for u in state.units:
            if u.status == "destroyed":
                out[u.side] = out.get(u.side, 0) + 1
        return out

    def outcome(self, state: GameState) -> GameOutcome | None:
        if state.stage != "over":
            return None
        threshold = state.rules.victory.threshold_ap
        scored = threshold > 0 and any(state.score(s.id) >= threshold for s in state.sides)
        return GameOutcome(
            str(state.winner) if state.winner else "draw",
            "score" if scored else "turn limit",
            state.turn,
            self.losses(state),
        )

    def simulation(self) -> SimPlay:
        return TwoByTwoSim()

    def judge(
        self,
        state: GameState,
        procedure: str,
        request: Any,
        owed: Any = None,
        query: bool = False,
    ) -> Any:
        """The core's judgement (flow, owed, plan), then who acts now (an action, never a
        query: the odds of a melee or a shot are open in every phase)."""
        proc = self.procedures.get(procedure)
        action = not query and proc is not None and not proc.query
        if action and self.flow.violation(current_phase(state), procedure) is None:
            acting(state, procedure, request)
        out = super().judge(state, procedure, request, owed, query)
        if action:
            acting_after(state, procedure, out[2])
        if procedure in _ENDS and not self._deriving and state.stage == "battle":
            out = self._left_undone(state, out)
        return out

    def _left_undone(self, state: GameState, judged: Any) -> Any:
        """``next``'s plan with what was left undone in the phase it ends: the lines ``todo``
        offered (a referee's words are a promise too: nothing ``plan`` would refuse). Said
        when a player ends a phase (the engine's judgement), not when ``todo`` judges its own
        "end the phase" line, nor in ``simulate`` (it plans ``next`` itself, message unread)."""
        name, req, plan = judged
        skipped = setup.left_undone(self._one_line_each(state), setup.MOVE_STEPS)
        if not skipped:
            return judged
        said = replace(
            plan.data,
            message=f"{plan.data.message} (left undone in the phase that ended: {skipped})",
        )
        return name, req, replace(plan, data=said)

    def __init__(self) -> None:
        self._deriving = 0  # todo being derived (its judgement of "next" says nothing)
        self.procedures = procedure_table(
            # set-up and the turn (2 by 2, Game Setup; Sequence of play)
            Procedure(rq.SetupRoll, setup.plan_setup_roll, setup.setup_roll),
            Procedure.nodice(rq.Deploy, setup.deploy),
            Procedure.nodice(rq.ChooseRP, setup.choose_rp),
            Procedure.nodice(rq.Next, setup.next_phase),
            Procedure.nodice(rq.NextPhase, setup.next_phase),
            # movement (Movement Modifiers; Moving to contact; Reinforcements)
            Procedure.nodice(rq.Move, movement.move),
            # (each with its events alone for the simulator: relative.play_step)
            Procedure(rq.Advance, relative.judge_advance, relative.resolve_step, play=_play_adv),
            Procedure(rq.Retire, relative.judge_advance, relative.resolve_step, play=_play_adv),
            Procedure(
                rq.Wheel,
                relative.judge_wheel,
                relative.resolve_step,
                play=partial(relative.play_step, relative.wheel_step),
            ),
            Procedure(
                rq.Turn,
                relative.judge_turn,
                relative.resolve_step,
                play=partial(relative.play_step, relative.turn_step),
            ),
            Procedure(rq.Charge, relative.judge_charge, relative.resolve_step),
            Procedure.nodice(rq.CheckMove, self._check_move),
            Procedure.nodice(rq.Formation, movement.formation),
            Procedure.nodice(rq.Face, movement.face),
            Procedure.nodice(rq.Countercharge, movement.countercharge),
            Procedure.nodice(rq.Place, movement.place),
            Procedure(rq.Reinforce, reinforcements.plan_reinforce, reinforcements.reinforce),
            # rallying, shooting, melee
            Procedure(rq.Rally, rally.plan_rally, rally.rally),
            Procedure(rq.Shoot, shooting.plan_shoot, shooting.shoot),
            Procedure(rq.Melee, melee.plan_melee, melee.melee),
            Procedure.nodice(rq.CheckMelee, melee.check_melee),
            Procedure.nodice(rq.FollowUp, melee.follow_up),
            Procedure(rq.Rout, melee.plan_voluntary_rout, melee.voluntary_rout),
            Procedure.nodice(rq.Facts, facts_query),
            Procedure.nodice(rq.Status, status_query),
        )

    # -- state ---------------------------------------------------------------------------
    def initial_state(self, scenario: Mapping[str, Any], options: Mapping[str, Any]) -> GameState:
        data = self.data()
        scn_rules = scenario.get("rules")
        if isinstance(scn_rules, Mapping):
            data = merge(data, scn_rules)  # the scenario's own rules
        hr = options.get("house_rules")
        if isinstance(hr, Mapping):
            data = merge(data, hr)  # the game's house rules win
        rules = _shared_rules(data)
        tbl = scenario.get("table", {})
        feats = tuple(feature_from_data(f, i) for i, f in enumerate(scenario.get("terrain", []), 1))
        table = _shared_table(
            TableTop(float(tbl.get("width", 609.6)), float(tbl.get("depth", 609.6)), feats)
        )
        sides = _sides(scenario)
        start = str(scenario.get("start", "setup"))
        if start not in ("setup", "battle"):
            raise DataError(SRC, "start must be 'setup' or 'battle'")
        play = str(options.get("play", scenario.get("play", "")) or "")
        if play and play not in PLAYS:
            raise BadRequest(f"play must be one of {', '.join(PLAYS)}, not {play!r}")
        queued = {str(q) for r in scenario.get("rps", []) for q in r.get("queue", [])}
        if not play:
            positioned = any("x" in d for d in scenario.get("units", []))
            play = "tracked" if positioned or start == "setup" else "stated"
        units = _units(rules, scenario, {s.id for s in sides}, start, queued, play == "tracked")
        rps: list[ReinforcementPoint] = []
        for i, r in enumerate(scenario.get("rps", []), start=1):
            try:
                x, y = r["at"]
                rps.append(
                    ReinforcementPoint(
                        str(r["id"]),
                        str(r["side"]),
                        str(r.get("kind", "rear")),
                        Vec(float(x), float(y)),
                        tuple(str(q) for q in r.get("queue", [])),
                    )
                )
            except (KeyError, TypeError, ValueError) as e:
                raise DataError(SRC, f"bad reinforcement point: {e}", i) from None
        victory = scenario.get("victory", {})
        if isinstance(victory, Mapping) and victory:
            rules = _shared_rules(merge(data, {"victory": victory}))  # the scenario's own
        state = GameState(
            rules=rules,
            table=table,
            sides=sides,
            units=units,
            rps=tuple(rps),
            title=str(scenario.get("title", "")),
            play=play,
            victory=dict(victory) if isinstance(victory, Mapping) else {},
        )
        if start == "battle":
            att = str(scenario.get("attacker", sides[1].id))
            if att not in (sides[0].id, sides[1].id):
                raise DataError(SRC, f"attacker {att!r} is not a side")
            dfn = sides[0].id if att == sides[1].id else sides[1].id
            state = apply_event(state, Roles(att, dfn))
            state = apply_event(state, PhaseBegan("battle", 1, 0))
        return state

    def apply(self, state: GameState, event: Event) -> GameState:
        raise ValueError(f"unknown 2 by 2 event {event.kind!r}")

    # -- the referee protocol: what is owed, what is open ----------------------------------
    def obligations(self, state: GameState) -> tuple[Obligation, ...]:
        """Owed before the phase may end (2 by 2, Melee): every pending melee in the melee
        phase, and a mandatory follow-up. Each may be waived (logged)."""
        return todo.obligations(state)

    def waive(self, state: GameState, obligation: str) -> GameState:
        return todo.waive(state, obligation)

    def legal_requests(
        self, state: GameState, rng: Any, n: int = 40
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        """Requests that are all legal now (random play, the conformance suite)."""
        return todo.legal_requests(state, rng, self.todo(state), n)

    def options(self, state: GameState) -> list[Todo]:
        """Who may still move, shoot, rally or melee now, and the reactions open."""
        return todo.options(state)

    def offers(self, state: GameState) -> Sequence[Todo]:
        """:meth:`options`, the list ``todo`` keeps (read only: the simulator's lines)."""
        return todo.offers(state)

    def folded(self, state: GameState, events: Any) -> GameState:
        """The state a procedure's events leave: the one the simulator's relative step made
        with its event, where it was played on this state (``relative.built``), else each
        event folded."""
        out = relative.built(state, events)
        return out if out is not None else super().folded(state, events)

    def _one_line_each(self, state: GameState) -> list[Todo]:
        """Of each procedure and unit (firer, RP) ``todo`` would offer a line for that a player
        would call left undone (``setup.undone``), its first line there: judged as ``todo``
        judges it (``protocol.judged``), the group's later lines left unjudged once one is
        kept (what was left undone names the group, not its lines)."""
        owed = self.obligations(state)
        judge = offers.judged(state, owed, lambda p, r: self.judge(state, p, r, owed=owed)[1])
        kept: set[tuple[str, str]] = set()
        out: list[Todo] = []
        for t, is_owed in todo_entries(owed, list(setup.undone(state, self.options(state)))):
            group = (t.procedure, setup.line_who(t))
            if is_owed or t.procedure in _ENDS or group in kept:
                continue
            if protocol_judged(t, judge, owed=False) is not None:
                kept.add(group)
                out.append(t)
        return out

    def fresh_todo(self, state: GameState, strict: bool = False) -> list[Todo]:
        """The core's ``todo`` (``protocol.derive_todo``: every line judged by ``plan``), its
        verdicts remembered from one state to the next where nothing they read has changed
        (:mod:`vedette.rules.two_by_two.offers`): the same lines, judged once."""
        owed = self.obligations(state)
        judge = offers.judged(state, owed, lambda p, r: self.judge(state, p, r, owed=owed)[1])
        judge = todo.contagion_apart(state, judge)  # (stated: a contagion judged on its own)
        self._deriving += 1  # its "end the phase" line is judged, not said (_left_undone)
        try:
            return derive_todo(owed, self.options(state), judge, strict)
        finally:
            self._deriving -= 1

    def memos_on(self) -> bool:
        """The core's memos (``todo``'s lines for the state last asked, the initial states) only
        while the offers memo is on (off: every line judged afresh, the old path the tests
        compare with)."""
        return offers.ENABLED

    # -- views ---------------------------------------------------------------------------
    def render(self, state: GameState) -> str:
        r = state.rules
        lines = [
            f"2 by 2 Napoleonics{': ' + state.title if state.title else ''}",
            state.phase_name(),
            "played tracked: vedette keeps positions and measures"
            if state.play == "tracked"
            else "played stated: the player measures and states the facts",
        ]
        if state.attacker:
            lines.append(
                f"Attacker {state.side(state.attacker).name}, Defender"
                f" {state.side(str(state.defender)).name} (player 1)"
            )
        for s in state.sides:
            lines.append(f"{s.name} ({s.edge} edge) — score {state.score(s.id)} AP destroyed")
            for u in state.units:
                if u.side != s.id:
                    continue
                t = state.utype(u)
                where = "position not recorded"
                if u.body is not None:
                    c = u.body.centre
                    where = (
                        f"at [{r.n(c.x):.1f},{r.n(c.y):.1f}] ({c.x:.0f},{c.y:.0f} mm)"
                        f" facing {u.body.facing:.0f}"
                    )
                marks = [
                    m
                    for m, on in (
                        ("PINNED", u.pinned),
                        ("DISRUPTED", u.disrupted),
                        ("routed", u.routed),
                        ("shot", u.shot),
                        ("moved", u.moved),
                        ("screened", u.screened),
                        (u.formation, u.formation != "line"),
                        (f"entering at {u.entry}", bool(u.entry)),
                    )
                    if on
                ]
                status = "" if u.status == "table" else f" [{u.status.upper()}]"
                shown = where if u.status == "table" else ""
                lines.append(
                    f"  {u.id:<6} {u.name:<22} {t.name:<16}{status} {shown}"
                    + (f" {' '.join(marks)}" if marks else "")
                )
        if state.table.features:
            lines.append(
                f"terrain ({state.table.width:.0f} x {state.table.depth:.0f} mm table): "
                + "; ".join(f"{f.name} ({f.kind})" for f in state.table.features)
            )
        else:
            lines.append("terrain: none (open ground)")
        for rp in state.rps:
            lines.append(
                f"RP {rp.id} ({state.side(rp.side).name}, {rp.kind})"
                f" at ({rp.point.x:.0f},{rp.point.y:.0f}): {', '.join(rp.queue) or 'empty'}"
            )
        for m in state.melees:
            cc = " (counter-charge)" if m.counter_charge else ""
            lines.append(f"melee pending: {m.attacker} vs {m.defender}{cc}")
        for f in state.follow_ups:
            lines.append(f"follow-up {'owed' if f.mandatory else 'offered'}: {f.unit}")
        if state.stage == "over":
            lines.append(
                f"winner: {state.side(state.winner).name if state.winner else 'none (draw)'}"
            )
        return "\n".join(lines)

    def state_json(self, state: GameState) -> dict[str, Any]:
        return state_to_json(state)


def state_to_json(state: GameState) -> dict[str, Any]:
    kind = PHASES[state.phase_index][0] if state.stage == "battle" else state.stage
    return {
        "stage": state.stage,
        "play": state.play,
        "setup_step": state.setup_step,
        "turn": state.turn,
        "phase_index": state.phase_index,
        "phase": kind,
        "phase_text": state.phase_name(),
        "actor": state.actor if state.stage == "battle" else None,
        "attacker": state.attacker,
        "defender": state.defender,
        "player_order": list(state.player_order),
        "extra_ap": state.extra_ap,
        "reinforcement_rolls": state.reinforcement_rolls,
        "scores": {s.id: state.score(s.id) for s in state.sides},
        "winner": state.winner,
        "units": [
            {
                "id": u.id,
                "side": u.side,
                "type": u.kind,
                "name": u.name,
                "status": u.status,
                "position": body_json(u.body),
                "pinned": u.pinned,
                "disrupted": u.disrupted,
                "routed": u.routed,
                "shot": u.shot,
                "formation": u.formation,
                "screened": u.screened,
                "moved": u.moved,
                "through_town": u.through_town,
                "countercharged": u.countercharged,
                "rallied": u.rallied,
                "meleed": u.meleed,
                "entry": u.entry,
            }
            for u in state.units
        ],
        "rps": [
            {
                "id": r.id,
                "side": r.side,
                "kind": r.kind,
                "at": [r.point.x, r.point.y],
                "queue": list(r.queue),
            }
            for r in state.rps
        ],
        "melees": [
            {"attacker": m.attacker, "defender": m.defender, "counter_charge": m.counter_charge}
            for m in state.melees
        ],
        "follow_ups": [
            {
                "unit": f.unit,
                "mandatory": f.mandatory,
                "into": None if f.into is None else [f.into.x, f.into.y],
            }
            for f in state.follow_ups
        ],
        "table": {
            "width": state.table.width,
            "depth": state.table.depth,
            "terrain": [{"kind": f.kind, "name": f.name} for f in state.table.features],
        },
        "victory": {**asdict(state.rules.victory), **dict(state.victory)},
        # stated play: the facts of a unit's ground held for the phase (reading 54)
        **(
            {"held": [{"unit": u, "fact": f, "value": v} for u, f, v in state.held]}
            if state.play == "stated"
            else {}
        ),
    }


#: the rules and the tables of the games started in this process, by value: every game of a
#: scenario shares one ``Rules`` and one ``TableTop`` (both immutable), so the terrain's shapes,
#: its prepared geometry and the paths measured on it are built once per map, not per game
_SHARED_RULES: dict[str, Rules] = {}
_SHARED_TABLES: dict[tuple[Any, ...], TableTop] = {}


def _shared_rules(data: Mapping[str, Any]) -> Rules:
    import json

    try:
        key = json.dumps(data, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        return Rules.from_data(data)
    hit = _SHARED_RULES.get(key)
    if hit is None:
        if len(_SHARED_RULES) > 64:
            _SHARED_RULES.clear()
        hit = _SHARED_RULES[key] = Rules.from_data(data)
    return hit


def _shared_table(table: TableTop) -> TableTop:
    key = (
        table.width,
        table.depth,
        tuple((f.kind, f.name, f.recipe) for f in table.features),
    )
    try:
        hit = _SHARED_TABLES.get(key)
    except TypeError:
        return table
    if hit is None:
        if len(_SHARED_TABLES) > 64:
            _SHARED_TABLES.clear()
        hit = _SHARED_TABLES[key] = table
    return hit


def status_query(state: GameState, req: rq.Status) -> Outcome:
    return Outcome((), (), state.phase_name(), {"state": state_to_json(state)})


def facts_query(state: GameState, req: rq.Facts) -> Outcome:
    """The derived geometry between a unit and (optionally) a target, all in [n]."""
    u = state.unit(req.unit)
    out: dict[str, Any] = {"unit": u.id, "position": body_json(u.body)}
    if u.body is not None:
        out["terrain"] = [
            f.name + f" ({f.kind})" for f in tt.body_features(u.body, state.table.features, "any")
        ]
        out["in_cover"] = facts.in_kinds(state, u, *facts.AREA_COVER)
        div, corps = facts.hq_distances(state, u)
        out["division_hq_distance"] = None if div is None else round(div, 3)
        out["corps_hq_distance"] = None if corps is None else round(corps, 3)
        out["hq_in_contact"] = facts.hq_in_contact(state, u)
        for n in (2, 3, 4, 8):
            w = facts.enemies_within(state, u, n)
            out[f"enemies_within_{n}"] = [e.id for e in w] if w is not None else None
    msg = [f"{u.name}"]
    if req.target is not None:
        t = state.unit(req.target)
        d = facts.distance_n(state, u, t)
        if d is None:
            raise BadRequest(f"vedette does not know where {u.name} or {t.name} stands")
        ut = state.utype(u)
        band = None
        for limit, name in zip(ut.ranges, ut.range_names, strict=True):
            if d <= limit + 1e-9:
                band = name
                break
        out["target"] = {
            "id": t.id,
            "distance": round(d, 3),
            "within": {str(n): d <= n + 1e-9 for n in (1, 2, 3, 4, 8)},
            "contact": facts.in_contact(state, u, t),
            "range_band": band,
            "in_fire_arc": facts.in_fire_arc(state, u, t),
            "unit_in_target_arc": facts.flank_or_rear(state, t, u),
            "target_in_unit_arc": facts.flank_or_rear(state, u, t),
            "target_behind_wall_or_hedge": facts.behind_wall_or_hedge(state, u, t),
            "overlap_supports": [s.id for s in (facts.overlap_supports(state, u, t) or [])],
        }
        msg.append(
            f"to {t.name}: [{d:.2f}], band {band or 'out of range'},"
            f" {u.name} is on {t.name}'s {out['target']['unit_in_target_arc']}"
        )
    return Outcome((), (), " ".join(msg), out)


RULESET = TwoByTwo()
__all__ = ["RULESET", "TableTop", "TwoByTwo", "Vec"]
