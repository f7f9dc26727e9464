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
