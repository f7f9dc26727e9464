"""Saved games of every ruleset's events as release 0.2 logs them (tests/fixtures/events_v0_2,
made by its ``make_fixtures.py`` before issue 28 gave the rulesets one patch event) still
import, and replay to the state they had when they were saved; replaying the import's own
store gives that state again.

Each is a sample scenario played by a seeded player (the first request ``legal_requests``
offered that the referee accepted), so its log holds most kinds of its ruleset's events.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from vedette import rules
from vedette.cli.main import main
from vedette.engine import Game, Store, replay
from vedette.engine.referee import resign
from vedette.engine.store import Record
from vedette.errors import GameError

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "events_v0_2"
RULESETS = sorted(p.name.removesuffix(".jsonl") for p in FIX.glob("*.jsonl"))


def _state(name: str, state: Any) -> Any:
    return json.loads(json.dumps(rules.get(name).state_json(state), sort_keys=True, default=str))


def test_every_shipped_ruleset_has_a_saved_game() -> None:
    assert sorted(rules.BUILTIN) == RULESETS


@pytest.mark.parametrize("name", RULESETS)
def test_a_saved_game_imports_and_replays_to_the_state_it_had(name: str, tmp_path: Path) -> None:
    saved = json.loads((FIX / f"{name}.state.json").read_text(encoding="utf-8"))
    text = (FIX / f"{name}.jsonl").read_text(encoding="utf-8")
    store = Store(str(tmp_path / "g.db"))
    g = Game.import_jsonl(store, text, "saved")
    assert len(g.records) == len(text.splitlines()) - 1
    assert _state(name, g.state) == saved
    again = Game.open(Store(str(tmp_path / "g.db")), "saved")  # from the store
    assert _state(name, again.state) == saved


@pytest.mark.parametrize("name", RULESETS)
def test_a_saved_games_own_events_fold_to_the_state_it_had(name: str) -> None:
    """The file's events as written (an older version upgraded on reading), folded."""
    saved = json.loads((FIX / f"{name}.state.json").read_text(encoding="utf-8"))
    lines = (FIX / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()[1:]
    records = [Record(**json.loads(line)) for line in lines]
    assert _state(name, replay(rules.get(name), records).state) == saved


HOUSE_DICE = FIX / "house_dice"


def test_a_saved_game_whose_house_dice_have_a_constant_imports(tmp_path: Path) -> None:
    """Release 0.2's roll lines hid a dice expression's constant (house rule ``[fixing] dice =
    "1d6+1"``: ``1d6+1=2=3+2 (only Ru has Cav)=5``; the referee now says
    ``1d6+1=2+1=3+2 ...``): such a game, re-refereed, reads its old lines as the new and
    imports to the state it had; a line whose die is not the one drawn is still refused."""
    name = "napoleon_at_bay"
    saved = json.loads((HOUSE_DICE / f"{name}.state.json").read_text(encoding="utf-8"))
    text = (HOUSE_DICE / f"{name}.jsonl").read_text(encoding="utf-8")
    assert "1d6+1=2=3+2 (only Ru has Cav)=5" in text  # (the old words, as 0.2 saved them)
    g = Game.import_jsonl(Store(str(tmp_path / "g.db")), text, "saved")
    assert len(g.records) == len(text.splitlines()) - 1
    assert _state(name, g.state) == saved
    fixes = [r.payload for r in g.records if r.payload.get("procedure") == "fix"]
    assert fixes and all(p["rolls"][0]["expression"] == "1d6+1" for p in fixes)
    said = "1d6+1=2=3+2 (only Ru has Cav)=5"
    wrong = resign(text.replace(said, said.replace("=2=", "=3=")))  # (a face not drawn)
    with pytest.raises(GameError, match="fix"):
        Game.import_jsonl(Store(str(tmp_path / "w.db")), wrong, "wrong")


LAPSE = FIX / "lapse"


def test_a_saved_game_that_met_a_later_rule_is_refereed_by_the_rules_it_was_played_by(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A release-0.2 Napoleon At Bay game (``lapse/make_lapse.py``, on 0.2's code) whose move
    into two ZOCs owed two fixings: the first brought R2 in, fixed, and 0.2 still rolled R2's
    owed fixing, which today's rules let lapse (Herman (2), A24). The CLI's import re-referees
    it by 0.2's rule (``owed_fixing_lapses=false``, an option), says so, records the option in
    the game (shown by ``show``, kept by an export) and gives the state 0.2 saved; a file whose
    dice were not the ones drawn is still refused."""
    db, path = str(tmp_path / "g.db"), LAPSE / "napoleon_at_bay.jsonl"
    saved = json.loads((LAPSE / "napoleon_at_bay.state.json").read_text(encoding="utf-8"))
    assert main(["--db", db, "game", "import", str(path), "--name", "old"]) == 0
    said = capsys.readouterr().out
    assert "release 0.2" in said and "owed_fixing_lapses=false" in said, said
    g = Game.open(Store(db), "old")
    assert g.created["options"] == {"owed_fixing_lapses": False}
    assert _board(g.state) == _board(saved)
    assert main(["--db", db, "game", "show", "old"]) == 0
    assert "owed_fixing_lapses=false" in capsys.readouterr().out.splitlines()[0]
    # exported again, it carries the option and imports by it as it stands
    again = Game.import_jsonl(Store(str(tmp_path / "h.db")), g.export_jsonl(), "again")
    assert again.imported_under == "" and _board(again.state) == _board(saved)
    # never trusted: the second fixing's die changed (the result with it) is refused
    text = path.read_text(encoding="utf-8")
    assert text.count("1d6=6, R2 and R1 switch places") == 1
    wrong = resign(text.replace("1d6=6, R2 and R1", "1d6=2, R2 and R1"))
    assert main(["--db", db, "game", "import", file_of(tmp_path, wrong), "--name", "w"]) != 0
    assert "#3 fix" in capsys.readouterr().err


def _board(state: Any) -> Any:
    """Where each force stands and whether it is fixed, the turn, phase and fixings owed (what
    0.2 saved and a player sees; later releases keep more of a move's path in the state)."""
    s = state if isinstance(state, dict) else _state("napoleon_at_bay", state)
    keep = ("turn", "phase", "phasing", "owed")
    pieces = [(p["id"], p["hexes"], p["fixed"]) for p in s["pieces"]]
    return pieces, {k: s.get(k) for k in keep}


def file_of(tmp_path: Path, text: str) -> str:
    p = tmp_path / "export.jsonl"
    p.write_text(text, encoding="utf-8")
    return str(p)
