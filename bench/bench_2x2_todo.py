"""2 by 2 Napoleonics: games played from ``todo`` alone (issue 22's conformance games) and
``vedette simulate`` games, this code against the code of a baseline commit (issues 22, 27, 29).

Each side runs in a fresh interpreter: the baseline's ``src`` (``git archive`` of ``--base
REF``, by default the commit before the 2 by 2 ``todo`` speed work) and this tree's ``src``,
alternating (base, new, base, new; quick mode: base, new), the faster run of each kept: the
machine is shared. Only the
games are timed (not the imports; one short game first warms each interpreter), by the
process's CPU time (and the clock). Cold with cold: every game starts from its scenario in a
process that played no other game of the run but the warm-up.

* **todo play**: the seeded games of ``tests/todo_play.py`` (every bundled scenario in turn,
  40 steps, tracked and stated play): each step reads ``todo``, picks an entry and performs it.
  The answer checked: the digest of every line of every ``todo`` (command, open choices,
  refusal, text, rule), of every record's request, dice, rolls, message and result, and of the
  game's log; they must be identical (the events' JSON is left out: its shape may change
  between the two codes, as issue 28's core patch event changed it, while the game does not).
  A rule changed on purpose since the baseline (``RULE_CHANGES``) may make a game differ: each
  game is compared on its own, and one that differs must differ first at an action's message
  to which such a change adds its words (named in the output); any other difference fails.
* **simulate**: ``vedette simulate``'s games (``vedette.sim.play.play_game``, the random policy
  and the aggressive one, seed 2026) on every bundled scenario (at most 300 actions a game; 80
  in quick mode). The policies now draw their lines otherwise than the baseline (the same law,
  other games for a seed: docs/simulation.md; bench_simulate.py compares the two laws), so the
  games are not compared one by one: the answer checked is that every game of this code,
  played again through the referee's engine (``Game.perform``, its own dice seed), is accepted
  action by action and ends with the same state.

The same code with the memo of ``todo``'s verdicts switched off
(``vedette.rules.two_by_two.offers.ENABLED = False``) is checked too: its todo lines must be
the same (tests/two_by_two/test_2x2_offers_memo.py does the same in CI).

Run: ``python bench/bench_2x2_todo.py [GAMES] [--base REF]`` (default 6 games per scenario and
way of play; ``VEDETTE_BENCH_QUICK=1``: 1). Prints ms per game of each side, the ratio and the
load. Not a test.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: rules changed on purpose since the baseline (a message's added words -> the change): a game
#: whose first difference from the baseline is an action's message that says the base's words
#: and then these is the same work under the rules as they are now, counted apart, not failed
RULE_CHANGES = {
    "out of contact with": "2 by 2 reading 48 (session 16): a melee loser pushed back leaves its"
    " other pending melees (they lapse)",
    "follow-up lapses": "2 by 2 reading 47: a melee winner beaten, routed or destroyed before"
    " it follows up loses its follow-up (session 8, the 10,000-game stated run)",
    "AP the set-up has each side place": "2 by 2 reading 30 (session 15): a deployment ended"
    " short of its AP is noted",
}
#: rules changed on purpose that reword or drop part of an action's message (from where the
#: base's message has the words on; the same words before them): the change
REWORDED = {
    "(left undone in the phase that ended:": "2 by 2, Sequence of play (sessions 15, 17): `next`"
    " names as left undone only what todo offered (it named lines the referee refused), and of"
    " it only the moves not begun, rolls, shots, counter-charges and rallies",
}
#: a +0 modifier said where a text's modifier is negated or cancelled (session 18)
_SAID_ZERO = (
    r"(?:\+0 \((?:target is Light Infantry|firer screened by skirmishers): [^)]*\))?(?=[+=-]|$)"
)
#: rules changed on purpose that change a figure an action's message states (a pattern of the
#: figure -> the change): explained when the two messages are the same once it is taken out
REFIGURED = {
    r"\[[0-9.]+\] of its move left": "2 by 2 reading 7 (session 15): a move that crossed a bridge"
    " stays at 1/2 rate for its later steps (what is left of it said)",
    r"(?<=\])(?:; [^;)]*)*(?=\))": "2 by 2, Movement Modifiers (session 18): a move's message"
    " says what made its cost or allowance (road, bridge, stream, town, woods/rough)",
    r" w(?:ins|on) \(": "2 by 2, Game Setup (session 18): the winner's name with 'won', right for"
    " a plural name ('Austrians won', not 'Austrians wins')",
    r" (?:moves|charges [^:]+:) \[": "2 by 2, Moving to contact (session 18): a stated charge's"
    " message says 'U charges V:' as a tracked one does ('U moves' before)",
    _SAID_ZERO: "2 by 2, Resolving shooting (session 18): a Light Infantry target's -1 negated by"
    " enemy cavalry near, and a screened firer's +1 cancelled by the target's screen, are said"
    " (+0)",
    r" \((?:a unit in town or woods stays in control|in town or woods: disrupted instead)\)": "2"
    " by 2, Melee (session 18): a repulse or recoil says the row's town-or-woods clause only of"
    " a loser in one",
    r" unless the winner is in a town(?=\))": "2 by 2, Melee (session 19): a 6+ loss says the"
    " row's 'unless the winner is in a town' only where the winner is in one",
    r"(?<=\S) pick(?:s|ed)(?= \w+ RP )": "2 by 2, Game Setup (session 19): a side 'picked' its"
    " RP, right for a plural name ('Austrians picks' before)",
    r"^counter-charge: | (?:moves|counter-charges)(?= \[)": "2 by 2, Moving to contact"
    " (session 20): a counter-charge's message says 'C counter-charges [n]' ('counter-charge:"
    " C moves [n]' before)",
}
#: rules changed on purpose that change what ``todo`` offers (a line's command's start -> whether
#: the change removes or adds such lines, or both for a line reworded, and the change): a game
#: whose first difference is a step whose lines (command and text) differ only by such lines is
#: counted apart, not failed
TODO_CHANGES: list[tuple[str, str, str]] = [
    (
        "rout unit=",
        "removed",
        "2 by 2 reading 18 (session 20): a pinned unit no longer routs voluntarily ('may only"
        " change facing')",
    ),
    (
        "rout unit=",
        "removed",
        "2 by 2 reading 18 (session 15): a disrupted unit, or an arrived reinforcement not yet"
        " on the table, no longer routs voluntarily",
    ),
    *(
        (
            key,
            "added",
            "2 by 2 reading 31 (session 15): a later charge no longer takes back a charged unit's"
            " turn to face and fire",
        )
        for key in ("shoot firer=", "face unit=")
    ),
    (
        "formation unit=",
        "added",
        "2 by 2, Reinforcements (session 15): in stated play an arrived reinforcement is offered"
        " a formation change before it enters, as the referee accepts",
    ),
    (
        "charge unit=",
        "added",
        "2 by 2, Reinforcements (session 15): in stated play an arrived reinforcement is offered"
        " its charge from the edge, as the referee accepts",
    ),
    *(
        (
            step,
            "added removed",
            "2 by 2 reading 7 (session 15): a move that crossed a bridge stays at 1/2 rate for its"
            " later steps (what is left of it offered)",
        )
        for step in ("advance unit=", "retire unit=", "wheel unit=")
    ),
    (
        "countercharge unit=",
        "added removed",
        "2 by 2, Moving to contact (session 15): a counter-charge turns to face an enemy not"
        " straight ahead (offered more often, its line reworded)",
    ),
    # session 16 (helper T16)
    (
        "turn unit=",
        "added",
        "2 by 2 reading 33 (session 16): a unit is offered its turns again after a move straight"
        " ahead (they were offered until it first turned)",
    ),
    (
        "formation unit=",
        "added",
        "2 by 2, Reinforcements (session 16): a tracked arrival is offered its formation before it"
        " is placed, as the referee accepts",
    ),
    (
        "charge unit=",
        "added",
        "2 by 2, Moving to contact (session 16): a unit with a neighbour touching its side may"
        " charge straight ahead (the neighbour stood 'in the way [0.00]')",
    ),
    (
        "countercharge unit=",
        "added removed",
        "2 by 2, Moving to contact (session 16): a counter-charge runs around a unit in its way"
        " (a line with its path), not through it",
    ),
    *(
        (
            key,
            "removed",
            "2 by 2, Reinforcements (session 16): an arrived reinforcement not yet entered is"
            " not a target, nor does it shoot",
        )
        for key in ("shoot firer=", "charge unit=")
    ),
    (
        "face unit=",
        "removed",
        "2 by 2, Moving to contact (session 16): in stated play a charged unit that turned to"
        " face is not offered it again",
    ),
    *(
        (
            key,
            "added removed",
            "2 by 2 reading 48 (session 16): a loser pushed back leaves its other pending melees",
        )
        for key in ("melee attacker=", "next")
    ),
    # session 16 (helper T2)
    *(
        (
            key,
            "removed",
            "2 by 2 reading 50 (session 16): a move may not pass through another unit (a step"
            " whose every distance would is not offered)",
        )
        for key in ("advance unit=", "retire unit=", "countercharge unit=", "move unit=")
    ),
    (
        "turn unit=",
        "removed",
        "2 by 2 reading 49 (session 16): no turn to face an enemy already faced",
    ),
    # session 17 (helper T3)
    (
        "turn unit=",
        "added",
        "2 by 2 reading 33 (session 17): a unit is offered its turns again after any step that"
        " spends (a retire, a wheel), not only after one straight ahead",
    ),
    (
        "countercharge unit=",
        "removed",
        "2 by 2 reading 33 (session 17): a path's corner turn (a counter-charge turning to face"
        " first) may not end on another base",
    ),
    # session 18 (helper T5)
    (
        "rout unit=",
        "removed",
        "2 by 2 reading 37 (session 18): a *** unit that charged does not rout voluntarily in"
        " the same move phase (its charge ended its move)",
    ),
    (
        "face unit=",
        "removed",
        "2 by 2 reading 52 (session 18): no turn to face a charger where either base would end"
        " on another",
    ),
    # session 19 (helper T6)
    (
        "countercharge unit=",
        "added removed",
        "2 by 2, Moving to contact (session 19): a stated counter-charge states what it crossed"
        " as a charge does (its road and bridge offered as choices, its line reworded)",
    ),
    (
        "shoot firer=",
        "added removed",
        "2 by 2 reading 44 (session 19): a stated fire on a charger in contact is not asked its"
        " range (the line complete, reworded)",
    ),
    *(
        (
            key,
            "removed",
            "2 by 2 reading 37 (session 19): a charge ends the charger's move even when its"
            " target routs away (no step, turn or voluntary rout after it)",
        )
        for key in ("advance unit=", "retire unit=", "wheel unit=", "turn unit=", "move unit=")
    ),
    (
        "rout unit=",
        "removed",
        "2 by 2 reading 37 (session 19): a charge ends the charger's move even when its target"
        " routs away (no voluntary rout after it)",
    ),
    # session 19 (helper T7)
    *(
        (
            key,
            "added removed",
            "2 by 2, Unit Summary ** and Melee (session 19): stated play offers a rout's contagion"
            " and a follow-up's contact as choices; a shot at an enemy in melee with the firer"
            " is a line of its own, not asked its band (reading 44)",
        )
        for key in ("rout unit=", "shoot firer=", "melee attacker=", "follow_up unit=")
    ),
    # session 20 (helper T8)
    (
        "shoot firer=",
        "added removed",
        "2 by 2, Unit Summary (session 20): a stated shot by a firer with one range band is"
        " given its band (the line reworded), only the target open",
    ),
    (
        "rally unit=",
        "added removed",
        "2 by 2, Rallying (session 20): a stated rally's facts offered as choices (an HQ in"
        " contact, an enemy within [2]: a line of its own for other than Guards); none where"
        " the side has no HQ in play",
    ),
    (
        "formation unit=",
        "removed",
        "2 by 2 reading 55 (session 21): Militia ('[1]', no '[2*]') puts out no skirmisher screen",
    ),
    (
        "rally unit=",
        "added",
        "2 by 2 reading 57 (session 22): an HQ rallying itself with an enemy within [2] may try",
    ),
]
CHOICES_CHANGED_18 = [
    (
        key,
        "2 by 2 reading 7 (session 18): a bridge's 1/2-rate figures offered only to the step"
        " (advance or retire) whose way meets it",
    )
    for key in ("advance unit=", "retire unit=")
]
#: rules changed on purpose that change the choices ``todo`` offers on a line (its command's
#: start -> the change): a game whose first difference is a step whose lines are the same but
#: for such choices is counted apart, not failed
CHOICES_CHANGED: list[tuple[str, str]] = [
    *(
        (
            key,
            "2 by 2 todo (session 16): a move offered at [1], [2], [3], half, all that is left"
            " and the road's +[1]; a retire at [1] and all that is left; a wheel or turn of 45"
            " or 90",
        )
        for key in (
            "advance unit=",
            "retire unit=",
            "wheel unit=",
            "turn unit=",
            "move unit=",
            "charge unit=",
            "countercharge unit=",
        )
    ),
    *(
        (
            key,
            "2 by 2, Reinforcements (session 16): an arrived reinforcement not yet entered is"
            " not a target",
        )
        for key in ("shoot firer=", "charge unit=", "melee attacker=")
    ),
    # session 16 (helper T2)
    *(
        (
            key,
            "2 by 2 readings 7 and 50 (session 16): an advance or retire over a bridge is"
            " offered its 1/2-rate maximum; none that would pass through another unit",
        )
        for key in ("advance unit=", "retire unit=", "countercharge unit=")
    ),
    ("turn unit=", "2 by 2 reading 49 (session 16): no turn to face an enemy already faced"),
    # session 17 (helper T3)
    *(
        (
            key,
            "2 by 2 reading 7 (session 17): an advance or retire is offered to stop just short"
            " of a bridge ahead or behind",
        )
        for key in ("advance unit=", "retire unit=")
    ),
    (
        "turn unit=",
        "2 by 2 todo (session 17): a turn offered at 45, 90 or 135 degrees either way (one turn"
        " reaches each of the eight facings)",
    ),
    *CHOICES_CHANGED_18,
    # session 19 (helper T7)
    *(
        (
            key,
            "2 by 2, Unit Summary ** and Melee (session 19): stated play offers a rout's contagion"
            " (none, each ** unit, each side's all) and a follow-up's contact (none, each enemy)"
            " as choices",
        )
        for key in ("rout unit=", "shoot firer=", "melee attacker=", "follow_up unit=")
    ),
    # session 20 (helper T8)
    (
        "melee attacker=",
        "2 by 2, Melee (session 20): a stated melee's facts (town, woods, higher, an HQ in"
        " contact, supports) offered as choices",
    ),
    (
        "rally unit=",
        "2 by 2, Rallying (session 20): a stated rally's facts (an HQ in contact, an enemy"
        " within [2] for Guards) offered as choices",
    ),
    (
        "shoot firer=",
        "2 by 2, Resolving shooting (session 20): a stated shot's facts (enfilade, cover, an HQ"
        " in contact) offered as choices",
    ),
    (
        "melee attacker=",
        "2 by 2 reading 56 (session 21): a stated melee side that may enter woods/rough is"
        " offered its ground in one field (neither, town, woods), not a town and woods apart",
    ),
    (
        "rally unit=",
        "2 by 2 reading 57 (session 22): a stated HQ rallying itself is offered an enemy within"
        " [2] as a Guards unit is",
    ),
]
QUICK = os.environ.get("VEDETTE_BENCH_QUICK", "") not in ("", "0")
BASE = "b550f36"  # main before the 2 by 2 todo speed work

PLAYER = r"""
import hashlib, json, random, sys, time
mode, games, memo, most = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1", int(sys.argv[4])
from vedette import rules
from vedette.engine import Game, Store
rs = rules.get("two_by_two")
try:
    from vedette.rules.two_by_two import offers
    offers.ENABLED = memo
except ImportError:
    pass
SCENARIOS = list(rs.scenarios)

def todo_game(scenario, seed, opts, h):
    # h: this game's digest; each step's lines go into it, and each action's message is kept
    # (a difference from the baseline must start at a message a rule change explains)
    rng = random.Random(seed)
    said = []
    g = Game.create(Store(":memory:"), f"t{seed}", rs.name, rs.scenario(scenario), seed=seed,
                    options=opts)
    for _ in range(40):
        if rs.game_over(g.state):
            break
        todo = g.todo(strict=True)
        for t in todo:
            h.update(repr((t.command(), sorted(t.open.items()), t.refused, t.owed, t.text,
                           t.rule)).encode())
        if not todo:
            break
        lines = [f"{t.command()} | {t.text}" for t in todo]
        choices = [f"{t.command()} | {sorted(t.open.items())}" for t in todo if t.open]
        t = rng.choice([t for t in todo if t.owed] or todo)
        req = dict(t.request)
        for k, cs in t.open.items():
            req[k] = rng.choice(list(cs))
        said.append((h.hexdigest(), g.perform(t.procedure, req).message, lines, choices))
    # what the game was, as the player saw it: each action's request, dice, rolls, message and
    # result, and the log (not the events' JSON: its shape changes between releases, e.g. the
    # core patch event of issue 28, while the game stays the same)
    for r in g.records:
        seen = {k: v for k, v in r.payload.items() if k != "events"}
        h.update(json.dumps(seen, sort_keys=True, default=str).encode())
    h.update("\n".join(g.log_lines()).encode())
    return said

PLAYED = []

def sim_game(scenario, index, opts, policy, h):
    from vedette.sim.play import Setup, play_game
    setup = Setup(rs.name, rs.scenario(scenario), options=opts, policies=(policy,),
                  max_actions=most)
    p = play_game(setup, 2026, index, record=True)
    h.update(repr(p.result).encode())
    h.update(json.dumps(p.actions, sort_keys=True, default=str).encode())
    PLAYED.append((setup, p))

def replayed(setup, p):
    # the game played again through the engine: every action accepted, the same end
    g = Game.create(Store(":memory:"), "r", rs.name, dict(setup.scenario), p.dice_seed,
                    dict(setup.options))
    for proc, req in p.actions:
        g.perform(proc, req)
    end = rs.outcome(g.state)
    r = p.result
    return len(g.records) - 1 == r.actions and (
        end is None if r.end not in ("victory", "draw") else end.winner == r.winner
    )

# warm-up: imports, the first game's one-off costs
if mode == "todo":
    todo_game(SCENARIOS[0], 10_000, {}, hashlib.sha256())
else:
    sim_game(SCENARIOS[0], 10_000, {}, "random", hashlib.sha256())
out = {}
for play, opts in (("tracked", {}), ("stated", {"play": "stated"})):
    h = hashlib.sha256()
    per_game = []
    t, cpu = time.perf_counter(), time.process_time()
    n = 0
    for scenario in SCENARIOS:
        for i in range(games):
            hg = hashlib.sha256()
            if mode == "todo":
                said = todo_game(scenario, i, opts, hg)
            else:
                said = []
                sim_game(scenario, i, opts, ("random", "aggressive")[i % 2], hg)
            h.update(hg.digest())
            per_game.append({"game": f"{scenario} {i}", "digest": hg.hexdigest(), "said": said})
            n += 1
    out[play] = {"cpu": (time.process_time() - cpu) / n, "wall": (time.perf_counter() - t) / n,
                 "digest": h.hexdigest(), "games": n, "per_game": per_game}
    if mode == "simulate":  # after the clock: every game replays through the engine
        out[play]["replayed"] = all(replayed(*sp) for sp in PLAYED)
        PLAYED.clear()
print(json.dumps(out))
"""


def differences(base: list[dict[str, Any]], new: list[dict[str, Any]]) -> tuple[int, list[str]]:
    """Games alike in both codes, and a line for each that is not: explained (its first
    difference is an action's message to which a rule change since the base adds words) or
    not ("UNEXPLAINED")."""
    same, lines = 0, []
    for b, n in zip(base, new, strict=True):
        if b["digest"] == n["digest"]:
            same += 1
            continue
        why = "UNEXPLAINED"
        for (bh, bm, *bl), (nh, nm, *nl) in zip(b["said"], n["said"], strict=False):
            if bh != nh:  # the todo lines differed before any message did
                base_l, new_l = (bl[0] if bl else []), (nl[0] if nl else [])
                base_c, new_c = (bl[1] if len(bl) > 1 else []), (nl[1] if len(nl) > 1 else [])
                why = (
                    _todo_change(base_l, new_l)
                    or (_choices_change(base_c, new_c) if set(base_l) == set(new_l) else None)
                    or (
                        f"{why}: lines only the base offers"
                        f" {sorted(set(base_l) - set(new_l))[:3]},"
                        f" only this code {sorted(set(new_l) - set(base_l))[:3]}"
                        + (
                            f"; choices only the base offers {sorted(set(base_c) - set(new_c))[:3]}"
                            if set(base_l) == set(new_l)
                            else ""
                        )
                    )
                )
                break
            if bm != nm:
                extra = nm[len(bm) :] if nm.startswith(bm) else ""
                why = (
                    next(
                        (f"{c} ({k!r})" for k, c in RULE_CHANGES.items() if k in extra),
                        None,
                    )
                    or next(
                        (
                            c
                            for k, c in REWORDED.items()
                            if k in bm and bm.split(k)[0].rstrip() == nm.split(k)[0].rstrip()
                        ),
                        None,
                    )
                    or next(
                        (
                            c
                            for k, c in REFIGURED.items()
                            if re.search(k, bm) and re.sub(k, "", bm) == re.sub(k, "", nm)
                        ),
                        f"{why}: the message {bm!r} became {nm!r}",
                    )
                )
                break
        lines.append(f"  {n['game']}: {why}")
    return same, lines


def _todo_change(base: list[str], new: list[str]) -> str | None:
    """The rule change (``TODO_CHANGES``) that explains a step's lines differing, if one does:
    every line only the base offers is one a change removes, every line only this code offers
    one a change adds (the same commands with other texts or choices: not explained)."""
    gone, came = set(base) - set(new), set(new) - set(base)
    if not gone and not came:
        return None
    found: set[str] = set()
    for lines, way in ((gone, "removed"), (came, "added")):
        for line in lines:
            hits = [c for k, w, c in TODO_CHANGES if way in w and line.startswith(k)]
            if not hits:
                return None
            found.add(" or ".join(hits))
    return "; ".join(sorted(found))


def _choices_change(base: list[str], new: list[str]) -> str | None:
    """The rule change (``CHOICES_CHANGED``) that explains a step's lines, the same in both
    codes, offering other choices, if one does: every line whose choices differ is one such a
    change gives other choices."""
    gone, came = set(base) - set(new), set(new) - set(base)
    if not gone and not came:
        return None
    found: set[str] = set()
    for line in gone | came:
        hits = [c for k, c in CHOICES_CHANGED if line.startswith(k)]
        if not hits:
            return None
        found.update(hits)
    return "; ".join(sorted(found))


def load() -> str:
    a, b, c = os.getloadavg()
    return f"load {a:.2f} {b:.2f} {c:.2f} on {os.cpu_count()} cores" + (" (quick)" if QUICK else "")


def play(src: Path, mode: str, games: int, memo: bool = True) -> dict[str, dict[str, float]]:
    env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{ROOT}"}
    most = str(80 if QUICK else 300)
    args = [sys.executable, "-c", PLAYER, mode, str(games), "1" if memo else "0", most]
    out = subprocess.run(args, env=env, capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        raise SystemExit(f"{mode} ({src}): {out.stderr.strip().splitlines()[-3:]}")
    return dict(json.loads(out.stdout))


def baseline(ref: str, into: Path) -> Path | None:
    """The baseline's ``src``, extracted from git (None without git or the commit)."""
    if ref == "none":
        return None
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", ref, "src"], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return into / "src"


def main() -> None:
    argv = sys.argv[1:]
    ref = BASE
    games = 1 if QUICK else 6
    while argv:
        a = argv.pop(0)
        if a == "--base":
            ref = argv.pop(0)
        else:
            games = int(a)
    new_src = ROOT / "src"
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        base_src = baseline(ref, Path(tmp))
        print(f"load before: {load()}", flush=True)
        for mode in ("todo", "simulate"):
            best: dict[tuple[str, str], dict[str, float]] = {}
            digests: dict[tuple[str, str], str] = {}
            sides = {"new": new_src, **({"base": base_src} if base_src else {})}
            for _ in range(1 if QUICK else 2):
                for side in ("base", "new"):
                    if side not in sides:
                        continue
                    for play_, fig in play(sides[side], mode, games).items():
                        k = (side, play_)
                        old = best.get(k)
                        if old is None or fig["cpu"] < old["cpu"]:
                            best[k] = fig
                        digests[k] = str(fig["digest"])
            if mode == "todo":
                off = play(new_src, mode, games, memo=False)
                for play_, fig in off.items():
                    if fig["digest"] != digests["new", play_]:
                        failed.append(f"todo {play_}: the memo on and off give other lines")
            for play_ in ("tracked", "stated"):
                new = best["new", play_]
                line = (
                    f"2 by 2 {mode:8} {play_:7}: new {new['cpu'] * 1000:7.1f} ms/game a CPU"
                    f" ({new['wall'] * 1000:.1f} by the clock)"
                )
                if mode == "simulate":
                    ok = bool(new.get("replayed"))
                    line += (
                        f"; each game replays identically in the engine: {'yes' if ok else 'NO'}"
                    )
                    if not ok:
                        failed.append(f"simulate {play_}: a game the engine does not replay")
                explained: list[str] = []
                alike = 0
                if ("base", play_) in best:
                    base = best["base", play_]
                    same = digests["base", play_] == digests["new", play_]
                    if mode == "todo" and not same:
                        alike, explained = differences(base["per_game"], new["per_game"])
                        same = not any("UNEXPLAINED" in x for x in explained)
                    line += (
                        f"; base ({ref}) {base['cpu'] * 1000:7.1f} ({base['wall'] * 1000:.1f});"
                        f" {base['cpu'] / new['cpu']:5.2f}x a CPU,"
                        f" {base['wall'] / new['wall']:.2f}x by the clock;"
                        + (
                            f" same lines: {'yes' if same else 'NO'}"
                            + (
                                f" ({alike} games alike; the others"
                                " differ where the rules changed since the base)"
                                if explained and same
                                else ""
                            )
                            if mode == "todo"
                            else " games not compared one by one (other draws, the same law)"
                        )
                    )
                    if not same and mode == "todo":
                        failed.append(f"{mode} {play_}: the new code differs from the baseline")
                print(f"{line}; {int(new['games'])} games; {load()}", flush=True)
                for x in explained:
                    print(x, flush=True)
        print(f"load after: {load()}")
    if failed:
        raise SystemExit("\n".join(failed))


if __name__ == "__main__":
    main()
