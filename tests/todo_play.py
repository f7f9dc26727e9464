"""The referee's offer is a promise: seeded random games played only from ``todo``.

Each step reads ``todo``, picks one entry (an owed one first, as the rules require), fills each
open field with one of the choices the entry offers, and performs it. The properties (issue 22):

* every offered action is accepted (``offered_refused`` counts the ones that were not);
* every owed step is performable as offered (``dead_ends``: an owed entry ``plan`` refuses);
* ``todo`` is never empty before the game has ended (``empty``);
* replay == live (checked every ``REPLAY_EVERY`` steps and at the end);
* no step reaches a state the rules forbid (``forbidden``: the ruleset's ``INVARIANTS``, e.g.
  Kuryakin's routing unit that stops routing without a rally).

Kept apart from the tests so that a failing seed can be replayed by hand::

    from tests.todo_play import play
    play("twobytwo", "sample", seed=3, steps=80)

``python -m tests.todo_play RULESET [GAMES] [STEPS]`` runs many and prints the counts
(``JOBS=N`` processes; ``OPTIONS='{"play": "stated"}'`` game options, e.g. 2 by 2's stated
play; ``HOUSE_RULES='{...}'`` house rules; ``DICE=physical`` the player's own dice, each face
chosen at random when asked for; ``UNDO=0.1`` undo now and then; ``WAIVE=0.1`` waive an owed
step now and then). The option space the users have (every scenario under each option set
that changes the flow, ``OPTION_SETS``) is played by tests/core/test_todo_options.py.
"""

from __future__ import annotations

import copy
import random
import sys
from dataclasses import dataclass, field, replace
from typing import Any

from vedette import rules
from vedette.dice.sources import DiceNeeded
from vedette.engine import Game, Store, replay
from vedette.errors import VedetteError

#: replay the whole log and compare with the live state every this many steps
REPLAY_EVERY = 25


def solonap_forbidden(before: Any, after: Any, proc: str) -> list[str]:
    """What a Kuryakin step from ``before`` to ``after`` (by ``proc``) did that the rules forbid
    (issue 23): a routing unit that stopped routing without a rally, a unit that halted where it
    stood and moved, a general left behind by the unit he is attached to, a unit out of command
    from its own attached general who passed his control roll."""
    from vedette.rules.solo_napoleonic import geom

    out = []
    for b in before.units:
        a = after.unit(b.id)
        stopped = b.status == "routing" and a.status != "routing" and a.on_table
        if stopped and proc != "rally":
            out.append(f"{b.id} stopped routing without a rally ({proc})")
        # (it may still change formation where it stands)
        moved = (a.x, a.y) != (b.x, b.y) or (proc == "move" and a.moved_mm != b.moved_mm)
        # (an evade is the skirmisher rule's move, made even by a unit that halted: help page)
        if b.bound == "halt" and a.bound == "halt" and moved and proc != "evade":
            out.append(f"{b.id} halted where it stood, yet moved ({proc})")
        out += _once_a_card(before, b, a, proc, moved)
    for g in after.generals:
        if g.attached_to and not g.killed and after.has_unit(g.attached_to):
            u = after.unit(g.attached_to)
            d = geom.general_distance(g, u)
            if u.on_table and d is not None and d > 1.0:
                out.append(f"{g.id} left behind by {u.id} ({d:.0f}mm, {proc})")
            rolled = after.phase == "cards" and before.phase == "control"
            passed = after.control.get(g.id) == "passed" and u.brigade == g.id
            if rolled and passed and u.on_table and not u.in_command:
                out.append(f"{u.id} out of command from its own attached general {g.id}")
    return out


def _once_a_card(state: Any, b: Any, a: Any, proc: str, moved: bool) -> list[str]:
    """Readings K71-K73 (with their default options): a second formation change or standstill
    test on one card; a charger's own move after its charge other than a pursuit (its 1D), or
    its formation change; a test to move off after the unit's move (Moving From A Standstill)."""
    opts = getattr(state.config.options, "after_charge_move", None)
    if opts is None:  # (a build without these readings)
        return []
    out = []
    own = proc == "move" and b.bound not in ("rout", "retire", "retire_half")
    own = own and b.status != "routing"
    if opts == "pursuit" and own and moved and b.charge_state in ("done", "halted"):
        pursued = a.disorder > b.disorder or b.skirmishing
        if b.charge_state == "halted" or not pursued:
            out.append(f"{b.id} moved after its charge ({b.charge_state}) without pursuing")
    after = b.charge_state in ("done", "halted")
    if opts == "pursuit" and proc == "formation" and after and a != b:
        out.append(f"{b.id} changed formation after its charge ({b.charge_state})")
    per = state.config.options.formation_changes_per_card
    if per and proc == "formation" and b.formation_changes >= per and a != b:
        out.append(f"{b.id} changed formation more than {per} time(s) on its card")
    if proc == "start" and a != b and b.move_done:  # (Moving From A Standstill: nothing to start)
        out.append(f"{b.id} tested to move off after its move on the card")
    per = state.config.options.standstill_tests_per_card
    if per and proc in ("start", "halt") and b.standstill_tests >= per and a != b:
        out.append(f"{b.id} tested to move off or halt more than {per} time(s) on its card")
    return out


#: per ruleset: what a step must never do, beyond being accepted (a list of problems)
INVARIANTS: dict[str, Any] = {"solo_napoleonic": solonap_forbidden}


def night(scenario: dict[str, Any]) -> dict[str, Any]:
    """ASL's sample at night, a stack of each side cloaked (O'Leary 5: cloaking is a night
    rule)."""
    out = copy.deepcopy(scenario)
    out["night"] = True
    for st in out.get("stacks", []):
        if st["id"] in ("G1", "P1"):
            st["status"] = "cloaked"
    return out


def short(scenario: dict[str, Any]) -> dict[str, Any]:
    """A 2 by 2 scenario's battle cut short (its own [victory], which replaces the rules'
    default: 2 AP destroyed or 2 turns), so that random play reaches the end of the game."""
    return {**scenario, "victory": {"threshold_ap": 2, "max_turns": 2}}


def known(ruleset: str, section: str, **values: Any) -> dict[str, Any]:
    """The house-rule ``values`` of ``[section]`` that the ruleset's rules data has (a reading
    added on another branch is played once it is there, and refused by no older data)."""
    have = rules.get(ruleset).data().get(section, {})
    return {k: v for k, v in values.items() if k in have}


@dataclass(frozen=True)
class OptionSet:
    """One way the users set a game up: game options, house rules (the rules data changed, a
    reading chosen), the scenario changed (``scenario``: e.g. :func:`night`)."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    house_rules: dict[str, Any] = field(default_factory=dict)
    scenario: Any = None


#: per ruleset: the option sets that change the flow (the defaults first); every bundled
#: scenario is played under each (tests/core/test_todo_options.py)
OPTION_SETS: dict[str, tuple[OptionSet, ...]] = {
    "napoleon_at_bay": (
        OptionSet("default"),
        OptionSet("draft", {"variant": "draft"}),
        OptionSet("series 5x", {"series": "5x"}),
        OptionSet("substitute not fixed", {"substitute_is_fixed": False}),
        OptionSet("no roll without candidates", {"roll_without_candidates": False}),
        OptionSet("contact needs vedette", {"contact_needs_vedette_or_general": True}),
        OptionSet("moving loses fixed", {"moving_keeps_fixed": False}),
        OptionSet("one move per phase", {"one_move_per_phase": True}),
        OptionSet(
            "owed fixings kept, mover counts adjacent",
            {"owed_fixing_lapses": False, "mover_counts_adjacent": True},
        ),
        OptionSet("tie die dN, no vedette SP", {"tie_die": "dN", "vedette_strength": 0}),
        OptionSet(
            "draft, ZOC no stop, 2x",
            {"variant": "draft", "stop_at_zoc": False, "one_move_per_phase": True, "series": "2x"},
        ),
    ),
    "solitaire_asl": (
        OptionSet("default"),
        OptionSet("separate sizes", {"separate_counter_sizes": True}),
        OptionSet(
            "loose flow",
            house_rules={
                "flow": {
                    "ti_binds": False,
                    "firing_ends_start": False,
                    "minefield_entry_ends_start": False,
                },
                "drm": {"previous_counts": "all", "enemy_there_sees": False},
            },
        ),
        OptionSet("night", scenario=night),
        OptionSet(
            "night, side start",
            {"separate_counter_sizes": True},
            {"flow": {"cloaked_start": "side"}},
            night,
        ),
    ),
    "two_by_two": (
        OptionSet("default"),
        OptionSet("stated", {"play": "stated"}),
        OptionSet("tracked", {"play": "tracked"}),
        OptionSet(
            "other readings",
            house_rules={
                "movement": {"bridge_mode": "distance"},
                "rally": {"enemy_within_rule": "all", "hq_rule": "both"},
                "rout": {"contagion_sides": "any", "voluntary_rolls": False},
            },
        ),
        OptionSet(
            "short battle, no HQ rule", house_rules={"rally": {"hq_rule": "off"}}, scenario=short
        ),
        OptionSet("stated, short battle", {"play": "stated"}, scenario=short),
    ),
    "solo_napoleonic": (
        OptionSet("default"),
        OptionSet(
            "evade, collision, lost general readings",
            {"optional_figures": True},
            {
                "options": known(
                    "solo_napoleonic",
                    "options",
                    friendly_skirmishers_collide=True,  # K64
                    evade_morale="before",  # K65
                    lost_unit_general="killed",  # K66
                    evade_die="d10",
                ),
                "referee_morale": known(
                    "solo_napoleonic", "referee_morale", corps_influence_mm=300
                ),
            },
        ),
        OptionSet("officers", {"officers": True}),
        OptionSet("musicians", {"musicians": True}),
        OptionSet("standards", {"standards": True}),
        OptionSet("optional figures", {"optional_figures": True}),
        OptionSet(
            "other readings",
            house_rules={
                "options": {
                    "evade_caught": "stated",
                    "routing_runs": False,
                    "limbered_guns_fire": True,
                    "artillery_arc_deg": 45,
                    "nation_cr_on": "roll",
                    "failed_control_out_of_command": False,
                    "allocation_roll": "always",
                    "fire_disorder_to": "both",
                    "morale_casualties": "turn",
                    "below_average_zero": "up",
                    "percentile_reading": "1-100",
                    "control_strict": False,
                    "percentile_strict": False,
                    "volley_die": "d4",
                    "friends_routing_range_mm": 0,
                }
            },
        ),
    ),
}


def play_set(
    ruleset: str,
    scenario: str,
    s: OptionSet,
    seed: int,
    steps: int,
    dice: str = "seeded",
    undo: float = 0.0,
    waive: float = 0.0,
    store: Store | None = None,
) -> Counts:
    """One game of ``play`` under the option set ``s`` (named ``todo-SEED`` in ``store``)."""
    data = s.scenario(rules.get(ruleset).scenario(scenario)) if s.scenario else None
    return play(
        ruleset,
        scenario,
        seed,
        steps,
        options=s.options,
        house_rules=s.house_rules,
        dice=dice,
        undo=undo,
        scenario_data=data,
        waive=waive,
        store=store,
    )


@dataclass
class Counts:
    games: int = 0
    actions: int = 0
    offered_refused: int = 0
    dead_ends: int = 0
    empty: int = 0
    forbidden: int = 0
    ended: int = 0
    problems: list[str] = field(default_factory=list)
    procedures: dict[str, int] = field(default_factory=dict)

    def add(self, o: Counts) -> None:
        self.games += o.games
        self.actions += o.actions
        self.offered_refused += o.offered_refused
        self.dead_ends += o.dead_ends
        self.empty += o.empty
        self.forbidden += o.forbidden
        self.ended += o.ended
        self.problems.extend(o.problems)
        for k, v in o.procedures.items():
            self.procedures[k] = self.procedures.get(k, 0) + v

    @property
    def failures(self) -> int:
        return self.offered_refused + self.dead_ends + self.empty + self.forbidden

    def line(self) -> str:
        return (
            f"games {self.games}, actions {self.actions}, offered-but-refused"
            f" {self.offered_refused}, dead ends {self.dead_ends}, empty todo {self.empty},"
            f" forbidden states {self.forbidden}, ended {self.ended}"
        )


def ended(g: Game) -> bool:
    """Whether the game is over by its own rules (the ruleset's end, where it declares one)."""
    over = getattr(g.ruleset, "game_over", None)
    return bool(over(g.state)) if over is not None else False


def fill(t: Any, rng: random.Random) -> dict[str, Any]:
    """The entry's request with each open field set to one of its offered choices."""
    req = dict(t.request)
    for k, choices in t.open.items():
        req[k] = rng.choice(list(choices))
    return req


def perform(g: Game, procedure: str, req: dict[str, Any], rng: random.Random) -> None:
    """Perform ``procedure``; in a game played with the player's own dice, each die the
    referee asks for is rolled (a random face of that die) and the action given again."""
    if not g.physical:
        g.perform(procedure, req)
        return
    faces: list[int] = []
    while True:
        try:
            g.perform(procedure, req, faces or None)
            return
        except DiceNeeded as need:
            if len(faces) > 200:
                raise
            faces.append(rng.choice(need.die.faces))


def undo_some(
    g: Game, history: list[tuple[Any, Any, str, dict[str, Any]]], rng: random.Random
) -> str:
    """Undo the last one to three actions in force (in the middle of whatever sequence they
    were part of); each undo must give back the state before its action. Half the time, do
    the earliest one undone again: it was accepted there, so it must be again, and with the
    game's dice it draws the same dice (session.py: the undone action's dice stay reserved),
    so it reaches the same state (with the player's own dice, new faces are rolled). What
    went wrong, or ""."""
    if not history:
        return ""
    for _ in range(min(rng.choice((1, 1, 1, 2, 3)), len(history))):
        before, after, proc, req = history.pop()
        g.undo()
        if g.state != before:
            return f"undo of {proc} {req} left another state than before it"
    if rng.random() < 0.5:
        return ""
    # (the earliest action undone is done again: the state is the one it was offered in)
    try:
        perform(g, proc, req, rng)
    except VedetteError as e:
        return f"{proc} {req}, undone, refused when done again: {e}"
    if not g.physical and g.state != after:
        return f"{proc} {req}, undone and done again, reached another state"
    history.append((before, g.state, proc, req))
    return ""


def play(
    ruleset: str,
    scenario: str,
    seed: int,
    steps: int = 60,
    store: Store | None = None,
    options: dict[str, Any] | None = None,
    house_rules: dict[str, Any] | None = None,
    dice: str = "seeded",
    undo: float = 0.0,
    scenario_data: dict[str, Any] | None = None,
    waive: float = 0.0,
) -> Counts:
    """One seeded game of ``steps`` actions chosen from ``todo`` alone: with the game
    ``options`` and ``house_rules``; ``dice="physical"``: the player's own dice, each face
    chosen at random when the referee asks for it; ``undo``: the chance of undoing the action
    just played after each step (then playing on from todo, which may redo it or not);
    ``scenario_data``: the scenario's data changed (e.g. at night), else the bundled one;
    ``waive``: the chance of waiving an owed step instead of doing it (the Next panel's
    "waive...": the player's own call, after which play goes on)."""
    rs = rules.get(ruleset)
    rng = random.Random(seed)
    store = store or Store(":memory:")
    g = Game.create(
        store,
        f"todo-{seed}",
        rs.name,
        scenario_data or rs.scenario(scenario),
        seed=seed,
        options=options or {},
        house_rules=house_rules or {},
        dice=dice,
    )
    c = Counts(games=1)
    where = f"{ruleset}/{scenario} seed={seed}"
    history: list[tuple[Any, Any, str, dict[str, Any]]] = []  # (before, after, procedure, request)
    for step in range(steps):
        if ended(g):
            c.ended += 1
            break
        try:
            todo = g.todo(strict=True)
        except VedetteError as e:  # a malformed offer (protocol.MalformedOffer)
            c.offered_refused += 1
            c.problems.append(f"{where} step {step}: {e}")
            break
        except Exception as e:  # a defect judging an offer (strict mode hides none)
            c.offered_refused += 1
            c.problems.append(f"{where} step {step}: todo failed: {type(e).__name__}: {e}")
            break
        if not todo:
            c.empty += 1
            c.problems.append(f"{where} step {step}: todo is empty mid-game")
            break
        owed = [t for t in todo if t.owed]
        dead = [t for t in owed if t.refused]
        if dead:
            c.dead_ends += len(dead)
            c.problems.extend(
                f"{where} step {step}: owed {t.command()!r} is a dead end: {t.refused}"
                for t in dead
            )
            break
        t = rng.choice(owed or todo)
        req = fill(t, rng)
        if waive and t.owed and t.obligation and rng.random() < waive:
            t, req = replace(t, procedure="waive"), {"obligation": t.obligation}
        before = g.state
        try:
            perform(g, t.procedure, req, rng)
        except VedetteError as e:
            c.offered_refused += 1
            c.problems.append(f"{where} step {step}: offered {t.procedure} {req} refused: {e}")
            break
        check = INVARIANTS.get(rs.name)
        wrong = check(before, g.state, t.procedure) if check else []
        if wrong:
            c.forbidden += len(wrong)
            c.problems.extend(f"{where} step {step}: {w}" for w in wrong)
            break
        c.actions += 1
        c.procedures[t.procedure] = c.procedures.get(t.procedure, 0) + 1
        history.append((before, g.state, t.procedure, req))
        if undo and rng.random() < undo:
            wrong = undo_some(g, history, rng)
            if wrong:
                c.offered_refused += 1
                c.problems.append(f"{where} step {step}: {wrong}")
                break
        if step % REPLAY_EVERY == REPLAY_EVERY - 1 and replay(rs, g.records).state != g.state:
            c.problems.append(f"{where} step {step}: replay differs from live play")
            c.offered_refused += 1
            break
    if replay(rs, g.records).state != g.state:
        c.problems.append(f"{where}: replay differs from live play at the end")
        c.offered_refused += 1
    return c


def _chunk(
    args: tuple[str, list[tuple[str, int]], int, dict[str, Any] | None, dict[str, Any]],
) -> Counts:
    ruleset, games, steps, options, how = args
    total = Counts()
    for scenario, seed in games:
        total.add(play(ruleset, scenario, seed, steps, options=options, **how))
    return total


def run(
    ruleset: str,
    games: int,
    steps: int,
    seed0: int = 0,
    jobs: int = 1,
    options: dict[str, Any] | None = None,
    **how: Any,
) -> Counts:
    """``games`` games (the bundled scenarios in turn), on ``jobs`` processes; ``how``: the
    other arguments of :func:`play` (``dice``, ``undo``, ``waive``, ``house_rules``)."""
    scenarios = list(rules.get(ruleset).scenarios)
    todo = [(scenarios[i % len(scenarios)], seed0 + i) for i in range(games)]
    if jobs <= 1:
        return _chunk((ruleset, todo, steps, options, how))
    from concurrent.futures import ProcessPoolExecutor

    parts = [(ruleset, todo[i :: jobs * 8], steps, options, how) for i in range(jobs * 8)]
    total = Counts()
    with ProcessPoolExecutor(jobs) as pool:
        for c in pool.map(_chunk, parts):
            total.add(c)
    return total


if __name__ == "__main__":
    import os
    import time

    name = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    k = int(sys.argv[3]) if len(sys.argv) > 3 else 60
    jobs = int(os.environ.get("JOBS", "1"))
    import json

    opts = json.loads(os.environ.get("OPTIONS", "{}"))
    how = {
        "house_rules": json.loads(os.environ.get("HOUSE_RULES", "{}")),
        "dice": os.environ.get("DICE", "seeded"),
        "undo": float(os.environ.get("UNDO", "0")),
        "waive": float(os.environ.get("WAIVE", "0")),
    }
    t0 = time.perf_counter()
    out = run(name, n, k, jobs=jobs, options=opts, **how)
    print(name, out.line(), f"({time.perf_counter() - t0:.0f} s, {jobs} processes)")
    print(" ", dict(sorted(out.procedures.items())))
    for p in out.problems[:40]:
        print("  -", p)
