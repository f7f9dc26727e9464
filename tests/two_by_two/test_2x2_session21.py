"""2 by 2 (seed 003): session 21's stated play. A fact of a unit's own ground stated (or left
to its default) in a melee or a shot is held for the rest of the phase (reading 54): a
contradicting one is refused naming the rule, ``todo`` offers the held value alone, and the
unit's move (a follow-up) or the phase's end releases it. Driven through the public ``Game``
API (``tests/two_by_two/battle.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.two_by_two.battle import Battle, stated_walk
from vedette import rules
from vedette.cli.main import main
from vedette.engine import Game, Store
from vedette.engine.referee import resign
from vedette.errors import GameError, RuleViolation


def _two_melees() -> Battle:
    """Blue's B1 has charged red's R, and red's light cavalry RC has counter-charged B1 (2 by
    2, Moving to contact): in blue's melee phase B1 fights two melees, attacker and defender
    (the first stating R alone, ``b_support=0``: else RC fought beside R, reading 29).
    Red has an HQ in play (so its units may state an HQ in contact)."""
    b = Battle.stated(
        ("B1", "blue", "infantry"),
        ("R", "red", "infantry"),
        ("RC", "red", "light_cavalry"),
        ("RH", "red", "hq_division"),
    )
    b.do("charge", unit="B1", into="R", distance=2)
    b.until("shoot", "red")
    b.do("countercharge", unit="RC", target="B1", distance=3, within=True)
    b.until("melee", "blue")
    return b


def _held(b: Battle) -> list[dict[str, object]]:
    return rules.get("two_by_two").state_json(b.state)["held"]  # type: ignore[no-any-return]


def test_a_units_stated_ground_holds_for_the_phase_across_its_melees() -> None:
    # Melee: "Repulsed [2] (unit in town or woods remain in control)", "Recoils full move
    # unless in town or woods then Disrupted", "Unit is Cavalry in town -2". B1 was stated in
    # a town in its first melee and could be stated out of one in its second, the same phase:
    # two rulings on one unit's ground that cannot both be true
    b = _two_melees()
    out = b.do("melee", dice=[6, 4], attacker="B1", defender="R", a_town=True, b_support=0)
    assert "B1 wins" in out.message
    with pytest.raises(RuleViolation, match=r"B1 was ruled in a town.*reading 54.*b_town=true"):
        b.do("melee", dice=[1, 6], attacker="RC", defender="B1", b_town=False)
    # todo offers the held value alone, and the line runs as shown with it left out
    (line,) = b.lines("melee", attacker="RC", defender="B1")
    assert line.owed and line.open["b_town"] == (True,)
    assert line.open["a_town"] == (False, True)  # (RC's ground: nothing held)
    # RC 6, less 2 (cavalry vs ordered infantry), against B1's 2: B1 loses by 2 and, held
    # in a town, is disrupted instead of recoiling
    out = b.do("melee", dice=[6, 2], attacker="RC", defender="B1")
    assert out.details["melee"]["defender"]["town"] is True
    assert "B1 is in a town or woods: disrupted instead" in out.message
    assert b.replayed().held == b.state.held


def test_a_follow_up_and_the_phases_end_release_a_units_held_ground() -> None:
    # the ground was the unit's where it stood: once it has moved (a follow-up, Melee: "(voluntary
    # follow-up)") it may stand elsewhere, and the next phase rules afresh
    b = _two_melees()
    out = b.do("melee", dice=[6, 2], attacker="B1", defender="R", a_town=True, b_support=0)
    assert "B1: voluntary follow-up" in out.message
    assert {"unit": "B1", "fact": "town", "value": True} in _held(b)
    b.do("follow_up", unit="B1")
    assert not any(h["unit"] == "B1" for h in _held(b))
    (line,) = b.lines("melee", attacker="RC", defender="B1")
    assert line.open["b_town"] == (False, True)
    b.do("melee", dice=[6, 1], attacker="RC", defender="B1", a_town=True, b_town=False)
    assert {"unit": "RC", "fact": "town", "value": True} in _held(b)
    b.do("next")
    assert _held(b) == []


def test_an_hqs_move_releases_the_hq_contacts_held_for_its_side() -> None:
    # Melee: "HQ in base to base contact +1". B1 was stated in contact with its HQ BH; BH,
    # beaten in its own melee, is repulsed [2]: the contact may be gone, stated afresh
    b = Battle.stated(
        ("B1", "blue", "infantry"),
        ("BH", "blue", "hq_division"),
        ("R", "red", "infantry"),
        ("R2", "red", "infantry"),
        ("RC", "red", "light_cavalry"),
    )
    b.do("charge", unit="B1", into="R", distance=2)
    b.do("charge", unit="BH", into="R2", distance=2)
    b.until("shoot", "red")
    b.do("countercharge", unit="RC", target="B1", distance=3, within=True)
    b.until("melee", "blue")
    out = b.do("melee", dice=[5, 5], attacker="B1", defender="R", a_hq_contact=True, b_support=0)
    assert "B1 wins; R repulsed" in out.message
    (line,) = b.lines("melee", attacker="RC", defender="B1")
    assert line.open["b_hq_contact"] == (True,)
    out = b.do("melee", dice=[5, 3], attacker="BH", defender="R2")  # 5-3 against 3
    assert "R2 wins; BH repulsed" in out.message
    (line,) = b.lines("melee", attacker="RC", defender="B1")
    assert line.open["b_hq_contact"] == (False, True)
    b.do("melee", dice=[6, 2], attacker="RC", defender="B1", b_hq_contact=False)


def test_a_stated_game_saved_before_the_held_ground_still_imports() -> None:
    # an earlier release logged no facts_held event with a stated melee: its saved games,
    # re-refereed on import, must still import (Ruleset.added_events)
    b = _two_melees()
    b.do("melee", dice=[6, 4], attacker="B1", defender="R", a_town=True, b_support=0)
    b.do("melee", dice=[6, 2], attacker="RC", defender="B1", b_town=True)
    head, *lines = b.game.export_jsonl().splitlines()
    assert any("facts_held" in x for x in lines)
    old = []
    for line in lines:
        r = json.loads(line)
        events = r["payload"].get("events")
        if events is not None:
            r["payload"]["events"] = [e for e in events if e["kind"] != "facts_held"]
        old.append(json.dumps(r))
    text = resign("\n".join([head, *old]) + "\n")
    g = Game.import_jsonl(Store(":memory:"), text, "old")
    assert rules.get("two_by_two").state_json(g.state)["held"] == []
    # an action that lacks another kind of event still differs
    r = json.loads(old[-1])
    r["payload"]["events"] = r["payload"]["events"][1:]
    with pytest.raises(GameError, match="events"):
        Game.import_jsonl(
            Store(":memory:"), resign("\n".join([head, *old[:-1], json.dumps(r)])), "x"
        )


def test_a_shot_targets_stated_cover_holds_for_the_phase() -> None:
    # Resolving shooting: "Target is Infantry in cover ... in woods/rough or town -1". Two
    # blue firers at red's R in one shooting phase: R in a town for one, in the open for the
    # other
    b = Battle.stated(
        ("B1", "blue", "infantry"),
        ("B2", "blue", "infantry"),
        ("R", "red", "infantry"),
        ("R2", "red", "infantry"),
    )
    b.until("shoot", "blue")
    b.do("shoot", dice=[4], firer="B1", target="R", band="musket", cover="area")
    with pytest.raises(RuleViolation, match=r"R was ruled in woods/rough or town.*reading 54"):
        b.do("shoot", dice=[4], firer="B2", target="R", band="musket", cover="none")
    # R has a line of its own, its cover's choices those plan accepts; R2 keeps the shared line
    (own,) = b.lines("shoot", firer="B2", target="R")
    assert own.open["cover"] == ("area", "both") and "held" in own.text
    (shared,) = [t for t in b.lines("shoot", firer="B2") if "target" not in t.request]
    assert shared.open["target"] == ("R2",)
    out = b.do("shoot", dice=[4], **own.request)
    reasons = [m.reason for m in out.rolls[0].modifiers]
    assert "target infantry in woods/rough or town, held" in reasons


def test_a_stated_melee_may_not_have_each_side_higher_than_the_other() -> None:
    # Melee: "Higher than opponent +1". Stated, a_higher and b_higher were two yes/no picks:
    # both "yes" was accepted and gave each side its +1, though only one can stand higher
    b = _two_melees()
    with pytest.raises(RuleViolation, match=r"cannot each stand higher.*\(2 by 2, Melee\)"):
        b.do("melee", dice=[6, 3], attacker="B1", defender="R", a_higher=True, b_higher=True)
    # todo offers one field: which of the two, or neither (the usual answer first)
    (line,) = b.lines("melee", attacker="B1", defender="R")
    assert line.open["higher"] == ("neither", "attacker", "defender")
    assert "a_higher" not in line.open and "b_higher" not in line.open
    out = b.do("melee", dice=[6, 3], attacker="B1", defender="R", higher="defender")
    assert out.details["melee"]["defender"]["higher"] is True
    assert out.details["melee"]["attacker"]["higher"] is False
    assert "higher than opponent, stated" in [m.reason for m in out.rolls[0].b.modifiers]


def _ruling(g: Game, procedure: str, request: dict[str, Any]) -> Any:
    """What a request's roll rests on: each side's modifiers (values), the table's results."""
    check = rules.get("two_by_two").judge(g.state, procedure, request)[2].steps[0]
    return (
        sorted(m.value for m in check.modifiers),
        sorted(m.value for m in getattr(check, "b_modifiers", ()) or ()),
        [r.result for r in check.table.rows],
    )


def test_a_free_fact_left_out_is_its_first_choice_as_the_shell_says() -> None:
    # the shell prints a stated line's facts apart, "each the first if left out": a melee's
    # ten facts on one "choose:" line were hard to read. Left out, each must rule as its
    # first choice would, in random stated play (a held value, reading 54, included)
    checked: set[str] = set()
    for g, todo, rng in stated_walk():
        for t in todo:
            if not t.free:
                continue
            picks = {k: rng.choice(cs) for k, cs in t.open.items() if k not in t.free}
            first = {k: t.open[k][0] for k in t.free}
            left_out = _ruling(g, t.procedure, {**t.request, **picks})
            assert left_out == _ruling(g, t.procedure, {**t.request, **picks, **first})
            checked.add(t.procedure)
    assert checked == {"melee", "shoot", "rally"}


def test_the_shell_prints_a_stated_melees_facts_apart_grouped_by_their_choices(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a stated melee's "choose:" line held up to ten fields, each "one of false, true"
    db = tmp_path / "g.db"
    new = ("2x2", "new", "s", "--scenario", "close", "--option", "play=stated", "--seed", "1")
    assert main(["--db", str(db), *new]) == 0
    assert main(["--db", str(db), "2x2", "charge", "A1", "into=F1", "distance=2"]) == 0
    for _ in range(3):
        assert main(["--db", str(db), "2x2", "next"]) == 0
    capsys.readouterr()
    assert main(["--db", str(db), "2x2", "todo"]) == 0
    lines = capsys.readouterr().out.splitlines()
    i = next(n for n, x in enumerate(lines) if "do it:" in x and "melee attacker=A1" in x)
    end = next(n for n in range(i, len(lines)) if "waive it:" in lines[n])
    choose, *facts = lines[i + 1 : end]
    assert choose.split()[0] == "choose:" and "a_town" not in choose
    assert facts[0].split()[0] == "facts:"
    assert "a_town=, b_town=" in facts[0] and facts[0].endswith("each one of false, true")
    assert any("a_support=, b_support=" in x for x in facts)
    assert any("higher= one of neither, attacker, defender" in x for x in facts)
    assert facts[-1].endswith("(each the first if left out)")
    assert max(len(x) for x in lines[i:end]) < 120
