"""2 by 2 (seed 003): session 20's leftovers of stated play at the table. A shot by a firer
with one range band is not asked the band; the shell shows an empty list choice as ``none`` and
reads it back; a stated melee's, shot's and rally's facts are picked from ``todo``'s choices,
not typed (free fields: every choice accepted); a rally with no HQ of its side in play is not
possible; a counter-charge's message says the unit counter-charges. Driven through the public
``Game`` API (``tests/two_by_two/battle.py``) and the shell (``vedette.cli.main``)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.two_by_two.battle import Battle, stated_walk
from vedette.cli.main import main
from vedette.errors import RuleViolation
from vedette.rules.two_by_two import todo

N = 19.05  # mm per [1]


def test_a_stated_shot_asks_the_band_only_of_a_firer_with_more_than_one() -> None:
    # Unit Summary: Militia range [1]; Infantry [1,2*] (*: [2] only with a skirmisher
    # screen); Foot Artillery [1½,4,8]. The referee keeps no positions, so which band a
    # target is in is the player's measure; but a firer with one band has nothing to pick:
    # todo offered "band= one of musket", a choice of one
    b = Battle.stated(
        ("M", "blue", "militia"),
        ("I", "blue", "infantry"),
        ("S", "blue", "infantry"),
        ("A", "blue", "foot_artillery"),
        ("R", "red", "infantry"),
    )
    b.do("formation", unit="S", screen=True)
    b.until("shoot", "blue")
    (militia,) = b.lines("shoot", firer="M")
    (line,) = b.lines("shoot", firer="I")
    for t in (militia, line):
        assert t.request == {"firer": t.request["firer"], "band": "musket"}
        assert t.open["target"] == ("R",) and "band" not in t.open and "within [1]" in t.text
    (screened,) = b.lines("shoot", firer="S")
    assert screened.request == {"firer": "S"}
    assert screened.open["band"] == ("musket", "skirmish")
    (gun,) = b.lines("shoot", firer="A")
    assert gun.open["band"] == ("canister", "short", "long")
    # the line runs as shown once the target is picked
    out = b.do("shoot", dice=[4], **militia.request, target="R")
    assert out.rolls[0].label == "M shoots R (musket)"


def _run(db: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["--db", str(db), *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_shell_shows_an_empty_list_choice_as_none_and_reads_it_back(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a stated voluntary rout's contagion (Unit Summary: "** rout whenever any rout w/in
    # [3]") offers none or the militia: the shell showed the first as '[]'
    db = tmp_path / "g.db"
    new = ("2x2", "new", "s", "--scenario", "close", "--option", "play=stated", "--seed", "1")
    assert _run(db, capsys, *new)[0] == 0
    code, out, _ = _run(db, capsys, "2x2", "todo")
    assert code == 0
    assert "choose contagion= one of none, A3" in out and "'[]'" not in out
    code, out, err = _run(db, capsys, "2x2", "rout", "unit=A4", "contagion=none", "--dice", "4")
    assert code == 0, err
    assert "Hussars 7" in out and "A3" not in out


def test_a_stated_melees_facts_are_picked_not_typed() -> None:
    # Melee: "Unit is Cavalry in town -2", a loser "in town or woods" holds, "Higher than
    # opponent +1", "HQ in base to base contact +1", "Overlap support +1 / extra unit beyond
    # 1". Stated, the player sees them on the table: todo offered only the contagion, and
    # each fact was a form field to fill in. Now each is a choice, "no" (or the supports the
    # referee knows) first; woods only for a unit that may enter them (Movement Modifiers:
    # Light Infantry, Cossacks), with the town in one field, an HQ's contact only where the
    # side has another HQ in play
    b = Battle.stated(
        ("B", "blue", "light"),
        ("B2", "blue", "infantry"),
        ("BH", "blue", "hq_division"),
        ("R", "red", "heavy_cavalry"),
        ("R2", "red", "infantry"),
    )
    b.until("move", "red")
    b.do("charge", unit="R", into="B", distance=2)
    b.until("melee", "red")
    (melee,) = b.lines("melee")
    assert melee.owed and melee.request == {"attacker": "R", "defender": "B"}
    no_yes = (False, True)
    assert melee.open == {
        "a_town": no_yes,
        "b_ground": ("neither", "town", "woods"),  # (one field: not both, reading 56)
        "higher": ("neither", "attacker", "defender"),
        "b_hq_contact": no_yes,
        "a_support": (0, 1),
        "b_support": (0, 1),
    }
    # a pick binds the roll: the cuirassiers in a town fight at -2
    out = b.do("melee", dice=[6, 1, 4], **melee.request, a_town=True)
    assert "cavalry in town, stated" in [m.reason for m in out.rolls[0].a.modifiers]
    # a tracked game measures them: no such choices
    t = Battle.quick(
        [
            {"id": "B", "side": "blue", "type": "light", "x": 300, "y": 100},
            {"id": "R", "side": "red", "type": "heavy_cavalry", "x": 300, "y": 112 + 3 * N},
        ]
    )
    t.until("move", "red")
    t.do("charge", unit="R", into="B")
    t.until("melee", "red")
    (tracked,) = t.lines("melee")
    assert tracked.complete


def test_stated_supports_offered_start_from_the_melees_the_referee_holds() -> None:
    # reading 20: stated, a friend in a melee with the same enemy is in contact with it, so
    # an overlap support the referee knows; the player may see one more beside it
    b = Battle.stated(
        ("B1", "blue", "infantry"),
        ("B2", "blue", "infantry"),
        ("B3", "blue", "infantry"),
        ("R", "red", "infantry"),
    )
    b.do("charge", unit="B1", into="R", distance=2)
    b.do("charge", unit="B2", into="R", distance=2)
    b.until("melee", "blue")
    first, _ = b.lines("melee")
    assert first.open["a_support"] == (1, 2)
    assert "b_support" not in first.open  # (red has no one else)
    assert "a_hq_contact" not in first.open and "a_ground" not in first.open


def test_a_counter_charge_says_the_unit_counter_charges() -> None:
    # Moving to contact: "Cavalry may counter-charge an enemy unit which moves within a 1/2
    # move or less": the message read "counter-charge: C moves [..]"
    b = Battle.quick(
        [
            {"id": "M", "side": "blue", "type": "infantry", "x": 300, "y": 100},
            {"id": "C", "side": "red", "type": "light_cavalry", "x": 300, "y": 146 + 6 + 3 * N},
        ]
    )
    b.do("move", unit="M", to=[300, 140])
    b.until("shoot", "red")
    out = b.do("countercharge", unit="C", target="M")
    assert out.message.startswith("C counter-charges [")
    assert "into contact with M: melee pending" in out.message


def test_a_stated_rally_with_no_hq_of_its_side_in_play_is_not_possible() -> None:
    # Rallying: "Div HQ more than [4] away, or Corps HQ more than [8] away: NP". Stated, vedette
    # assumes a unit in command (reading 41), but with no HQ of its side in play there is none
    # to be near: the rally was offered and rolled "ASSUMED in command"
    b = Battle.quick(
        [
            {"id": "P", "side": "blue", "type": "infantry", "pinned": True},
            {"id": "R", "side": "red", "type": "infantry"},
        ],
        options={"play": "stated"},
    )
    b.until("rally", "blue")
    assert not b.lines("rally")
    with pytest.raises(RuleViolation, match="no HQ of its side in play"):
        b.do("rally", dice=[6], unit="P")
    # an HQ in base contact (+1) stated with none in play contradicts the state: refused
    with pytest.raises(RuleViolation, match=r"no other HQ of its side.*Rallying"):
        b.do("rally", dice=[6], unit="P", in_command=True, hq_contact=True)
    # the player's own word still wins, as every stated fact does
    out = b.do("rally", dice=[6], unit="P", in_command=True)
    assert "P rallies" in out.message


def test_a_stated_rallys_facts_are_picked_not_typed() -> None:
    # Rallying: "HQ in base to base contact +1", "Enemy within [2] -2*", "*only Guards and units
    # in contact with HQ": picked from todo's choices (they were form fields). A Guard's line
    # offers both; another unit's "enemy within [2]" is a line of its own with its HQ contact
    # given (without it the rally is not possible: never offered)
    b = Battle.quick(
        [
            {"id": "G", "side": "blue", "type": "guard", "pinned": True},
            {"id": "I", "side": "blue", "type": "infantry", "pinned": True},
            {"id": "H", "side": "blue", "type": "hq_division"},
            {"id": "R", "side": "red", "type": "infantry"},
        ],
        options={"play": "stated"},
    )
    b.until("rally", "blue")
    no_yes = (False, True)
    (guard,) = b.lines("rally", unit="G")
    assert guard.request == {"unit": "G"}
    assert guard.open == {"hq_contact": no_yes, "enemy_near": no_yes}
    plain, near = b.lines("rally", unit="I")
    assert plain.request == {"unit": "I"} and plain.open == {"hq_contact": no_yes}
    assert near.request == {"unit": "I", "enemy_near": True, "hq_contact": True}
    assert near.complete and "an enemy within [2], an HQ in contact" in near.text
    out = b.do("rally", dice=[6], **near.request)
    reasons = [m.reason for m in out.rolls[0].modifiers]
    assert "HQ in base contact, stated" in reasons and "enemy within [2], stated" in reasons
    out = b.do("rally", dice=[4], **guard.request, hq_contact=False, enemy_near=True)
    assert out.rolls[0].final == 4 + 1 - 2  # Guards +1, enemy within [2] -2


def test_a_stated_shots_facts_are_picked_not_typed() -> None:
    # Resolving shooting: "Enfilade (target fired on flank or rear) +2", "Target is Infantry in
    # cover: behind wall or hedge -1, in woods/rough or town -1", "HQ in base to base contact
    # with firing unit +1": picked on the shot's line after the target, "no" first (they were
    # form fields); the HQ's contact only where the firer's side has an HQ in play
    b = Battle.stated(
        ("A", "blue", "foot_artillery"),
        ("H", "blue", "hq_division"),
        ("R", "red", "infantry"),
        ("RA", "red", "foot_artillery"),
    )
    b.until("shoot", "blue")
    (gun,) = b.lines("shoot", firer="A")
    assert list(gun.open) == ["target", "band", "enfilade", "cover", "hq_contact"]
    assert gun.open["enfilade"] == (False, True)
    assert gun.open["cover"] == ("none", "wall", "area", "both")
    out = b.do(
        "shoot", dice=[3], **gun.request, target="R", band="short", enfilade=True, cover="area"
    )
    reasons = [m.reason for m in out.rolls[0].modifiers]
    assert reasons == [
        "target infantry in woods/rough or town, stated",
        "enfilade: target's flank or rear, stated",
    ]
    assert out.rolls[0].final == 3 - 1 + 2
    b.until("shoot", "red")
    (red,) = b.lines("shoot", firer="RA")
    assert "hq_contact" not in red.open  # (red has no HQ)


def test_a_stated_lines_free_facts_are_accepted_whatever_is_picked() -> None:
    # a stated fact read for a modifier only is a free field (Todo.free: judged at its first
    # choice, not in every combination with the others, 16 times the work for four of them):
    # every choice of it must be accepted wherever the line is, in random stated play
    checked: set[str] = set()
    for g, lines, rng in stated_walk():
        for t in lines:
            base = {**t.request, **{k: rng.choice(cs) for k, cs in t.open.items()}}
            for k in t.free:
                for c in t.open[k]:
                    assert g.is_legal(t.procedure, {**base, k: c}), (t.command(), k, c)
                    checked.add(f"{t.procedure} {k}")
    assert {"melee a_town", "melee b_support", "shoot cover", "rally hq_contact"} <= checked


def test_simulated_candidates_combine_the_choices_of_play_not_the_free_facts() -> None:
    # vedette simulate's candidates for a line (todo._complete) shuffle every combination of
    # its open fields: with a shot's facts open that was 16 times as many (and as many draws);
    # a free fact is given its first choice, the usual answer
    b = Battle.stated(
        ("A", "blue", "foot_artillery"), ("H", "blue", "hq_division"), ("R", "red", "infantry")
    )
    b.until("shoot", "blue")
    (gun,) = b.lines("shoot", firer="A")
    assert gun.free == {"enfilade", "cover", "hq_contact"}
    got = todo._complete(b.state, gun, random.Random(1))
    assert len(got) == 3  # one target, three bands
    assert all(
        r["enfilade"] is False and r["cover"] == "none" and r["hq_contact"] is False for _, r in got
    )
