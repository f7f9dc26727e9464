"""A saved game reloads as it was: random games of every ruleset, exported and imported.

An import is refereed again, action by action (engine/referee.py): a record whose dice or
events the referee does not give again is refused, and a game the player saved cannot be
reloaded. Each game here is played at random, under a few option sets per ruleset: from
``todo`` alone (an entry picked, its open fields filled from its choices, now and then an
undo), with the game's dice and again with the player's own dice rolled at random; the first
played once more with its own faces given as the player's dice; and by the simulator's random
policy (:func:`vedette.sim.play.save_game`, waived owed steps included). Each is exported
(``Game.export_jsonl``, what ``vedette export`` writes) and imported into a fresh store
(``Game.import_jsonl``, what ``vedette import`` reads), and the imported game must have the
original's state, log, todo and board.

Kept apart from the tests so that a failing game can be replayed by hand::

    python -m tests.roundtrip [GAMES] [STEPS]      # every ruleset and option set
    python -m tests.roundtrip 20 300 solonap       # one ruleset
    SEED0=100 python -m tests.roundtrip 20 300     # other games

(its problems printed, each naming the ruleset, options, kind of game and seed).
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Mapping
from typing import Any

from vedette import rules
from vedette.dice.sources import DiceNeeded
from vedette.engine import Game, Store
from vedette.engine.referee import physical_faces
from vedette.errors import VedetteError
from vedette.sim.play import Setup, save_game

#: per ruleset: the option sets its games are played under (``Game.create``'s options; a
#: house-rule file as ``house_rules``)
OPTION_SETS: dict[str, list[dict[str, Any]]] = {
    "napoleon_at_bay": [{}, {"variant": "draft"}],
    "solitaire_asl": [{}],
    "two_by_two": [{}, {"play": "stated"}],
    "solo_napoleonic": [
        {},
        {"optional_figures": True},
        {"house_rules": {"options": {"friendly_skirmishers_collide": True}}},
        {
            "optional_figures": True,
            "house_rules": {
                "options": {
                    "allocation_roll": "always",
                    "evade_morale": "before",
                    "lost_unit_general": "killed",
                    "charge_through_friends": True,
                }
            },
        },
    ],
}

#: the chance a todo-driven step is an undo of the latest action instead (a player's undo)
UNDO_CHANCE = 0.03


def _json(rs: Any, state: Any) -> Any:
    return json.loads(json.dumps(rs.state_json(state), sort_keys=True, default=str))


def differences(g: Game) -> list[str]:
    """What the game exported and imported again lost or changed: '' the import refused, its
    state (as saved), position, log (records and their lines), todo, or board."""
    text = g.export_jsonl()
    try:
        copy = Game.import_jsonl(Store(":memory:"), text, g.name)
    except VedetteError as e:
        return [f"import refused after {len(g.records)} records: {e}"]
    out = []
    rs = g.ruleset
    if _json(rs, copy.state) != _json(rs, g.state):
        out.append("state differs")
    if copy.position != g.position:
        out.append(f"position differs: {copy.position} != {g.position}")
    if copy.export_jsonl().splitlines()[1:] != text.splitlines()[1:]:
        out.append("log records differ")
    if copy.log_lines() != g.log_lines():
        out.append("log lines differ")
    mine, theirs = g.todo(), copy.todo()
    if mine != theirs:
        gone = [t.command() for t in mine if t not in theirs]
        new = [t.command() for t in theirs if t not in mine]
        out.append(f"todo differs (lost {gone[:3]}, new {new[:3]})")
    if copy.render() != g.render():
        out.append("board differs")
    return out


def fill(t: Any, rng: random.Random) -> dict[str, Any]:
    req = dict(t.request)
    for k, choices in t.open.items():
        req[k] = rng.choice(list(choices))
    return req


def own_dice(g: Game, procedure: str, request: Mapping[str, Any], rng: random.Random) -> None:
    """Perform as a player with their own dice does: each die the referee asks for rolled at
    random (any face of it, one the rules then roll again included), until it is done."""
    faces: list[int] = []
    while True:
        try:
            g.perform(procedure, request, faces or None)
            return
        except DiceNeeded as e:
            faces.append(rng.choice(list(e.die.faces)))


def todo_game(
    ruleset: str,
    scenario: str,
    seed: int,
    steps: int,
    options: Mapping[str, Any],
    dice: str = "seeded",
) -> tuple[Game, list[str]]:
    """A game of ``steps`` actions picked from ``todo`` (owed ones first), an undo now and then;
    checked mid-game too (a game is saved at any point). Play stops at an offer the rules
    refuse (another sweep's business, tests/todo_play.py): what was played is still checked.
    ``dice="physical"``: played with the player's own dice, rolled at random (:func:`own_dice`)."""
    rs = rules.get(ruleset)
    rng = random.Random(seed)
    house = dict(options.get("house_rules") or {}) or None
    opts = {k: v for k, v in options.items() if k != "house_rules"}
    g = Game.create(
        Store(":memory:"), f"rt-{seed}", rs.name, rs.scenario(scenario), seed=seed,
        options=opts, house_rules=house, dice=dice,
    )  # fmt: skip
    out: list[str] = []
    mid = steps // 2
    for step in range(steps):
        if step == mid:
            out += [f"mid-game: {p}" for p in differences(g)]
        over = getattr(rs, "game_over", None)
        if over is not None and over(g.state):
            break
        if g.records[-1].kind == "action" and rng.random() < UNDO_CHANCE:
            g.undo()
            continue
        try:
            todo = g.todo()
        except VedetteError:
            break
        owed = [t for t in todo if t.owed and not t.refused]
        if not (owed or todo):
            break
        t = rng.choice(owed or todo)
        try:
            if dice == "physical":
                own_dice(g, t.procedure, fill(t, rng), rng)
            else:
                g.perform(t.procedure, fill(t, rng))
        except VedetteError:
            break
    return g, out


def sim_game(
    ruleset: str, scenario: str, seed: int, steps: int, options: Mapping[str, Any]
) -> Game:
    """Game ``seed`` of a study by the simulator's random policy, stored action by action."""
    rs = rules.get(ruleset)
    house = dict(options.get("house_rules") or {})
    opts = {k: v for k, v in options.items() if k != "house_rules"}
    setup = Setup(rs.name, rs.scenario(scenario), opts, house, max_actions=steps)
    g, _ = save_game(Store(":memory:"), f"sim-{seed}", setup, 1, seed)
    return g


def physical_copy(g: Game) -> Game:
    """The same game played with the player's own dice (``dice="physical"``): each action
    performed with the faces the seeded game drew for it (as an import reads them), each undo
    made again; its options those the seeded game played by (not the ruleset's own for a game
    played with the player's own dice: NAB's d10 tie die, Kuryakin's real deck, K80)."""
    made = g.created
    model = g.ruleset.options_model
    seeded = {k: model.model_fields[k].default for k in g.ruleset.physical_dice_options}
    c = Game.create(
        Store(":memory:"), f"own-{g.name}", g.ruleset.name, made["scenario"],
        seed=made["seed"], options={**seeded, **made["options"]},
        house_rules=made["house_rules"] or None, dice="physical",
    )  # fmt: skip
    for r in g.records[1:]:
        if r.kind == "undo":
            c.undo()
        elif r.kind == "action":
            c.perform(r.payload["procedure"], r.payload["request"], physical_faces(r.payload))
    return c


def sweep(games: int, steps: int, names: list[str] | None = None, seed0: int = 0) -> list[str]:
    """``games`` todo-driven and ``games`` simulated games per ruleset and option set (the
    ruleset's scenarios in turn), each exported and imported: the problems found."""
    problems = []
    for name in names or list(OPTION_SETS):
        rs = rules.get(name)
        scenarios = list(rs.scenarios)
        for options in OPTION_SETS[rs.name]:
            for i in range(seed0, seed0 + games):
                sc = scenarios[i % len(scenarios)]
                where = f"{rs.name}/{sc} options={json.dumps(options)}"
                g, mid = todo_game(rs.name, sc, i, steps, options)
                found = mid + differences(g)
                problems += [f"{where} todo seed={i}: {p}" for p in found]
                try:
                    own = physical_copy(g)
                except VedetteError as e:
                    problems.append(f"{where} todo seed={i}: own dice refused: {e}")
                else:
                    # (the options for the player's own dice, given their seeded values, are
                    # in the state: the rest is the same)
                    mine, theirs = _json(rs, own.state), _json(rs, g.state)
                    if isinstance(mine, dict) and rs.physical_dice_options:
                        for s in (mine, theirs):
                            s.pop("options", None)
                    if mine != theirs:
                        problems.append(f"{where} todo seed={i}: own dice: another state")
                    problems += [f"{where} own dice seed={i}: {p}" for p in differences(own)]
                o, mid = todo_game(rs.name, sc, i, steps, options, dice="physical")
                found = mid + differences(o)
                problems += [f"{where} own dice (random faces) seed={i}: {p}" for p in found]
                s = sim_game(rs.name, sc, i, steps, options)
                problems += [f"{where} sim game={i}: {p}" for p in differences(s)]
    return problems


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    k = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    only = [rules.canonical(a) for a in sys.argv[3:]] or None
    found = sweep(n, k, only, int(os.environ.get("SEED0", "0")))
    print(f"{len(found)} problems")
    for p in found:
        print("  -", p)
