"""Kuryakin, Generals: a general's rolled ratings bind (reading K91, session 20, helper K11).
The ratings "can be allocated 'historically' if desired, but it is far more fun to randomly
generate your staff": a staff rolled again until it pleases is no random staff, so a rating
once rolled (or given by the scenario or entered) is neither rolled again nor replaced;
historical ratings are entered for ratings not given, before the first control roll. The house
rule ``[options] staff_reroll = true`` gives back the earlier builds' re-rolls. Played through
the public API (``Game.create`` / ``perform`` / ``todo``) and the CLI."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from vedette import rules
from vedette.cli.main import main
from vedette.engine import Game, Store
from vedette.errors import RuleViolation

GENERALS = ("Dessaix", "Morand", "Colbert", "Hohenfeld", "Bianchi")


def _game(tmp_path: Path, house: dict[str, Any] | None = None, **options: Any) -> Game:
    rs = rules.get("solo_napoleonic")
    scen = rs.scenario("sample")
    store = Store(tmp_path / "g.db")
    return Game.create(store, "g", rs.name, scen, 5, options=options, house_rules=house)


def _ratings(g: Game, gid: str) -> tuple[Any, ...]:
    x = g.state.general(gid)
    return (x.th, x.av, x.grade, x.cr)


def test_a_rolled_general_is_not_rolled_again(tmp_path: Path) -> None:
    """Rolled once, Dessaix keeps his ratings: naming him again, or ``reroll=true``, is refused
    in one line naming the rule and the reading, and rolls nothing (the dice stream is where it
    was). Before, each such request rolled all three again on fresh dice."""
    g = _game(tmp_path)
    g.perform("staff", {"general": "Dessaix"})
    kept, at = _ratings(g, "Dessaix"), g.position
    for req in ({"general": "Dessaix"}, {"general": "Dessaix", "reroll": True}):
        with pytest.raises(RuleViolation, match=r"Dessaix is already rated|'reroll'") as e:
            g.perform("staff", req)
        assert "Kuryakin, Generals" in str(e.value) and "K91" in str(e.value)
        assert "\n" not in str(e.value)
    g.perform("staff", {})  # the others, each rolled once
    with pytest.raises(RuleViolation, match=r"'reroll'.*K91"):
        g.perform("staff", {"reroll": True})
    with pytest.raises(RuleViolation, match="every general is already rated") as e:
        g.perform("staff", {})
    assert "reroll" not in str(e.value)  # no offer of what is refused
    assert _ratings(g, "Dessaix") == kept and g.position > at


def test_a_rolled_rating_is_not_replaced_by_historical_entry(tmp_path: Path) -> None:
    """Historical entry fills ratings not given: it cannot replace a rolled one."""
    g = _game(tmp_path)
    g.perform("staff", {"general": "Morand"})
    kept = _ratings(g, "Morand")
    with pytest.raises(RuleViolation, match=r"Morand's TH already given.*K91"):
        g.perform("staff", {"general": "Morand", "th": "above_average"})
    with pytest.raises(RuleViolation, match="Morand's CR already given"):
        g.perform("staff", {"general": "Morand", "grade": "good"})
    assert _ratings(g, "Morand") == kept


def test_historical_entry_once_before_the_first_control_roll(tmp_path: Path) -> None:
    """Entered once (a choice made as the staff is created), a historical rating binds as a
    rolled one does; a rating left unset may still be rolled; after the first control roll a
    general's ratings are rolled, not chosen."""
    g = _game(tmp_path)
    g.perform("staff", {"general": "Colbert", "th": "above_average"})
    with pytest.raises(RuleViolation, match="Colbert's TH already given"):
        g.perform("staff", {"general": "Colbert", "th": "below_average"})
    out = g.perform("staff", {"general": "Colbert"})  # AV and CR rolled, TH kept
    assert len(out.rolls) == 2 and g.state.general("Colbert").th == "above_average"
    g.perform("staff", {"general": "Morand", "th": "average", "av": "normal", "cr": 6})
    assert _ratings(g, "Morand") == ("average", "normal", "average", 6)
    # the control roll waits for the whole staff (reading K92); after it nothing is entered
    for gid in ("Dessaix", "Bianchi", "Hohenfeld"):
        g.perform("staff", {"general": gid})
    g.perform("control", {})
    with pytest.raises(RuleViolation, match=r"Hohenfeld's TH, AV, CR already given.*K91"):
        g.perform("staff", {"general": "Hohenfeld", "th": "average", "av": "normal", "cr": 7})


def test_the_house_rule_rolls_again(tmp_path: Path) -> None:
    """``[options] staff_reroll = true`` (house rule, earlier builds): a rated general named, or
    ``reroll=true``, is rolled again on fresh dice, and historical entry replaces a rating."""
    g = _game(tmp_path, {"options": {"staff_reroll": True}})
    g.perform("staff", {})
    again = g.perform("staff", {"general": "Dessaix"})
    assert len(again.rolls) == 3
    assert len(g.perform("staff", {"reroll": True}).rolls) == 3 * len(GENERALS)
    g.perform("staff", {"general": "Morand", "th": "above_average", "av": "timid", "cr": 5})
    assert _ratings(g, "Morand")[:2] == ("above_average", "timid")
    with pytest.raises(RuleViolation, match=r"reroll=true to roll again"):
        g.perform("staff", {})


def test_todo_never_offers_a_rated_general(tmp_path: Path) -> None:
    """With the player's own dice todo offers the staff a general a step (K81): each general
    once, then the control roll; a general rated historically is not offered."""
    g = _game(tmp_path, staff_by="general")
    g.perform("staff", {"general": "Morand", "th": "average", "av": "normal", "cr": 6})
    offered: list[str] = []
    while (t := g.todo()[0]).procedure == "staff":
        offered.append(t.request["general"])
        g.perform("staff", dict(t.request))
    assert sorted(offered) == sorted(set(GENERALS) - {"Morand"})
    assert g.todo()[0].procedure == "control"


def test_the_cli_refuses_a_reroll_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "cli.db")
    assert main(["--db", db, "solonap", "new", "k", "--seed", "9"]) == 0
    assert main(["--db", db, "solonap", "staff"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "solonap", "staff", "general=Morand"]) != 0
    cap = capsys.readouterr()
    (line,) = [x for x in (cap.out + cap.err).splitlines() if x.strip()]
    assert "Morand is already rated" in line and "Kuryakin, Generals" in line and "K91" in line
