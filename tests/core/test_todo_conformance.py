"""Issue 22: the referee's offer is a promise. Seeded random games played only from ``todo``
(tests/todo_play.py) on every bundled scenario of every ruleset: every offered action is
accepted, every owed step is performable as offered, ``todo`` is never empty mid-game, replay
equals live play.

``make test`` plays ``VEDETTE_TODO_GAMES`` (default 3; 6 with ``VEDETTE_EXAMPLES=1``, see
tests/sizes.py) games per scenario, CI (``.ci/run``) 100;
``VEDETTE_CONFORMANCE_LONG=1`` plays 10,000 per ruleset and prints the counts."""

from __future__ import annotations

import os
import random
import shlex
from pathlib import Path

import pytest

from tests.sizes import runs
from tests.todo_play import Counts, ended, fill, play, run
from vedette import rules
from vedette.cli.main import main
from vedette.engine import Game, Store
from vedette.rules.protocol import command_text

#: (seeds 0, 1, 2: both dice modes and three draws of every scenario in the normal run)
GAMES = int(os.environ.get("VEDETTE_TODO_GAMES") or runs(6, 3))
STEPS = int(os.environ.get("VEDETTE_TODO_STEPS", "40"))
LONG = os.environ.get("VEDETTE_CONFORMANCE_LONG") == "1"
#: actions per scenario played through the CLI, verbatim from todo's lines
CLI_STEPS = 12

RULESETS = ("napoleon_at_bay", "solitaire_asl", "two_by_two", "solo_napoleonic")
CASES = [(r, s) for r in RULESETS for s in rules.get(r).scenarios]


@pytest.mark.parametrize(("ruleset", "scenario"), CASES)
def test_every_offer_is_accepted(ruleset: str, scenario: str) -> None:
    total = Counts()
    for seed in range(GAMES):
        total.add(play(ruleset, scenario, seed, STEPS))
    assert total.failures == 0, "\n".join([total.line(), *total.problems[:20]])
    assert total.actions > GAMES  # the games did something


@pytest.mark.skipif(not LONG, reason="VEDETTE_CONFORMANCE_LONG=1: 10,000 games per ruleset")
@pytest.mark.parametrize(
    ("ruleset", "options"),
    [(r, {}) for r in RULESETS] + [("two_by_two", {"play": "stated"})],
)
def test_ten_thousand_games_from_todo(ruleset: str, options: dict[str, str]) -> None:
    total = run(ruleset, 10_000, STEPS * 2, jobs=os.cpu_count() or 1, options=options)
    print(f"\n{ruleset} {options or ''}: {total.line()}")
    assert total.failures == 0, "\n".join([total.line(), *total.problems[:20]])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_complete_lines_run_verbatim_in_the_cli(
    ruleset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each entry ``todo`` offers, printed as its command (open fields filled from the offered
    choices), runs verbatim through the shell and is accepted."""
    db = str(tmp_path / "cli.db")
    rs = rules.get(ruleset)
    for seed, scenario in enumerate(rs.scenarios):
        name = f"v{seed}"
        assert main(["--db", db, ruleset, "new", name, "--scenario", scenario, "--seed", "7"]) == 0
        rng = random.Random(seed)
        for step in range(CLI_STEPS):
            with Store(db) as st:
                g = Game.open(st, name)
                if ended(g):
                    break
                todo = g.todo()
            assert todo, f"{ruleset}/{scenario} step {step}: todo empty"
            t = rng.choice([t for t in todo if t.owed] or todo)
            line = command_text(t.procedure, fill(t, rng))
            capsys.readouterr()
            code = main(["--db", db, ruleset, *shlex.split(line), "--game", name])
            err = capsys.readouterr().err
            assert code == 0, f"{ruleset}/{scenario} step {step}: '{line}' refused: {err}"
