"""A game played with the player's own dice asks for the dice the step rolls whatever the
faces, not every roll its plan may make: following the ask is never refused. ASL's bore-sight
die (O'Leary 6.1) throws its scatter dice on a 6 only (it asked for three d6 and refused three
given on a 4); Kuryakin's staff rating rolls every general's TH, AV and Control dice (it asked
for one d6, then each further die one at a time)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.solo_napoleonic.test_solonap_text_3 import gen, unit
from tests.two_by_two.battle import Battle
from tests.web.test_web_browser_next import has, until
from vedette import rules
from vedette.cli.plain import todo_answer, todo_lines
from vedette.engine import Game, Store
from vedette.errors import DiceError
from vedette.web.app import create_app


def own(ruleset: str) -> Game:
    rs = rules.get(ruleset)
    return Game.create(Store(":memory:"), "own", rs.name, rs.scenario("sample"), 3, dice="physical")


def offered(g: Game, procedure: str) -> dict[str, object]:
    t = next(t for t in g.todo() if t.procedure == procedure)
    return {**t.request, **{k: v[0] for k, v in t.open.items()}}


def asked(g: Game, procedure: str, req: dict[str, object]) -> tuple[str, str]:
    with pytest.raises(DiceError) as e:
        g.perform(procedure, req)
    return str(e.value), str(getattr(e.value, "web", ""))


def test_the_bore_sight_die_is_asked_alone_and_its_scatter_dice_on_a_six() -> None:
    g = own("solitaire_asl")
    until(g, has("boresight"))
    req = offered(g, "boresight")
    cli, web = asked(g, "boresight", req)
    # the ask says every die the step may take, by name, all given in one line (session 21:
    # "roll 1d6 first (some faces call for more dice: each is asked for then)", one at a time)
    said = "roll 1d6 and, on a 6, the direction die and the distance die"
    assert said in cli and cli.endswith("give all their faces in order in one --dice")
    assert said in web and web.endswith("one tap on the dice buttons gives them all")
    assert "still undetermined" in g.perform("boresight", req, [4]).message  # one die: done
    g.undo()
    # the scatter dice, asked for in turn by their names in the rule (O'Leary 6.1; they were
    # "die #2 (d6)", "die #3 (d6)"), the direction die's ask saying the distance die follows
    for faces, called, then in (([6], "direction", True), ([6, 1], "distance", False)):
        with pytest.raises(DiceError) as e:
            g.perform("boresight", req, faces)
        cli, web = str(e.value), str(getattr(e.value, "web", ""))
        n = len(faces) + 1
        for text in (cli, web):
            assert f"die #{n}, the {called} die (d6, O'Leary 6.1), is needed" in text, text
        assert ("then the distance die" in cli) is then
        assert ("the distance die is asked for next" in web) is then
        assert web.endswith("it does the step") is not then
    assert "hex" in g.perform("boresight", req, [6, 1, 1]).message
    # a check of 2d6 (O'Leary 2.5) is asked as such
    until(g, has("shift"))
    assert "your own dice: roll 2d6 and give" in asked(g, "shift", offered(g, "shift"))[0]


def test_the_web_asks_for_the_pre_registration_scatter_dice_by_name(tmp_path: Path) -> None:
    """O'Leary 7.1: a 6 on the pre-registration die throws "a direction die and a distance
    die". The web's ask beside the dice pad called them "die #2 (d6)", "die #3 (d6)" and
    said of the direction die's face that it does the step (the distance die was still to
    come): it names each, and the direction die's ask says the distance die follows."""
    db = tmp_path / "own.db"
    rs = rules.get("solitaire_asl")
    Game.create(Store(db), "own", rs.name, rs.scenario("sample"), 3, dice="physical")
    g = Game.open(Store(db), "own")
    until(g, has("prereg"))
    c = TestClient(create_app(db), base_url="http://localhost")
    page = c.get("/games/own").text
    h = {"X-CSRF-Token": page.split('name="csrf-token" content="')[1].split('"')[0]}
    body = {"procedure": "prereg", "request": offered(g, "prereg"), "refusal": "answer"}
    r = c.post("/api/games/own/perform", json={**body, "dice": "6"}, headers=h).json()
    assert "die #2, the direction die (d6, O'Leary 7.1), is needed" in r["refused"], r
    assert r["refused"].endswith("the distance die is asked for next") and r["dice_needed"] == 2
    r = c.post("/api/games/own/perform", json={**body, "dice": "6 2"}, headers=h).json()
    assert "die #3, the distance die (d6, O'Leary 7.1), is needed" in r["refused"], r
    assert r["refused"].endswith("it does the step") and r["dice_needed"] == 3
    r = c.post("/api/games/own/perform", json={**body, "dice": "6 2 1"}, headers=h).json()
    assert "refused" not in r and "hex" in " ".join(r["lines"]), r


def test_the_staff_rating_asks_for_every_die_it_rolls() -> None:
    g = own("solo_napoleonic")
    req = offered(g, "staff")
    cli, _ = asked(g, "staff", req)
    dice = cli.split("roll ", 1)[1].split(" and give")[0]
    assert "first" not in dice and dice.startswith("2d6, 1d8")
    count = sum(int(part.split("d")[0]) for part in dice.split(", "))
    g.perform("staff", req, [3] * count)  # exactly what was asked
    assert g.records[-1].kind == "action"


def test_a_percentile_morale_test_asks_for_its_percentile_dice_alone(tmp_path: Path) -> None:
    """Kuryakin's morale test rolls percentile dice, and the result chart's d10 only if it
    fails (Morale: "roll a D10 and consult the following chart", reading K41). The ask named
    the d10 too (CLI: 'roll 1dP first (some faces call for more: a d10 ...)'; web: a d10 pad
    beside the percentile digits): it asks for the percentile dice only, and for the d10 when
    a failure draws it (the web page's pad then the d10's faces)."""
    scen = {
        "title": "own",
        "sides": ["French", "Allies"],
        "units": [unit("F1"), unit("A1", "Allies")],
        "generals": [gen("FB"), gen("AB", "Allies")],
    }
    db = tmp_path / "own.db"
    Game.create(Store(db), "own", "solonap", scen, 3, dice="physical")
    g = Game.open(Store(db), "own")
    cli, web = asked(g, "morale", {"unit": "F1"})
    for text in (cli, web):
        assert "roll 1dP" in text and "d10" not in text, text
    c = TestClient(create_app(db), base_url="http://localhost")
    page = c.get("/games/own").text
    h = {"X-CSRF-Token": page.split('name="csrf-token" content="')[1].split('"')[0]}
    body = {"procedure": "morale", "request": {"unit": "F1"}, "refusal": "answer"}
    r = c.post("/api/games/own/odds", json=body, headers=h).json()
    assert [d["name"] for d in r["own_dice"]] == ["dP"]
    r = c.post("/api/games/own/perform", json={**body, "dice": "99"}, headers=h).json()
    assert "die #2 (d10) is needed" in r["refused"]
    assert r["own_dice"] == [{"name": "d10", "faces": list(range(1, 11))}]
    r = c.post("/api/games/own/perform", json={**body, "dice": "99 5"}, headers=h).json()
    assert "retires half a move" in " ".join(r["lines"]), r


def test_a_two_by_two_melee_asks_for_its_two_dice_and_a_reroll_die_on_a_draw(
    tmp_path: Path,
) -> None:
    """2 by 2's melee (1d6 each, draws rerolled: Melee) asked for three dice: the probe gave
    both dice the same face, so every probe drew and rerolled. On a phone the second face's
    tap did nothing (the page waited for a third) and a third face was refused ('3 dice given
    but only 2 needed'). It asks for the two dice, and for a reroll's die when a draw calls
    for it; the odds tell the page two faces do the step."""
    units = [
        {"id": "R", "side": "red", "type": "infantry", "x": 300, "y": 112},
        {"id": "A", "side": "blue", "type": "foot_artillery", "x": 300, "y": 100},
    ]
    db = tmp_path / "own.db"
    g = Game.create(
        Store(db), "own", "two_by_two", Battle.quick(units, p1="red").scenario, 3, dice="physical"
    )
    while not (g.state.phase == "melee" and g.state.actor == "red"):
        g.perform("next", {})
    req = {"attacker": "R", "defender": "A", "contact": True}
    certain, more = g.dice_asked("melee", req)
    assert [d.name for d in certain] == ["d6", "d6"] and more
    c = TestClient(create_app(db), base_url="http://localhost")
    page = c.get("/games/own").text
    h = {"X-CSRF-Token": page.split('name="csrf-token" content="')[1].split('"')[0]}
    body = {"procedure": "melee", "request": req, "refusal": "answer"}
    assert c.post("/api/games/own/odds", json=body, headers=h).json()["own_needed"] == 2
    r = c.post("/api/games/own/perform", json={**body, "dice": "4 4"}, headers=h).json()
    assert "die #3 (d6) is needed" in r["refused"]  # a draw: the reroll's die asked for then
    r = c.post("/api/games/own/perform", json={**body, "dice": "3 5"}, headers=h).json()
    assert "R wins; A repulsed" in " ".join(r["lines"]), r


def test_the_plain_todo_says_which_dice_a_step_rolls_and_how_to_give_them() -> None:
    """The plain ``todo`` of a game played with the player's own dice: under a step that rolls
    (here Kuryakin's staff rating, open now), the dice in order and ``--dice FACES``; following
    it with that many faces does the step. A seeded game's ``todo`` says nothing of dice."""
    g = own("solonap")
    items, data = todo_answer(g)
    text = "\n".join(todo_lines(items, "vedette solonap", data["todo"]))
    assert "staff general=" in text
    assert "roll 2d6, 1d8 and give the faces in order as --dice FACES" in text, text
    staff = next(t for t in items if t.procedure == "staff")
    g.perform("staff", staff.request, [3, 3, 3])
    assert g.records[-1].kind == "action"
    rs = rules.get("solonap")
    seeded = Game.create(Store(":memory:"), "s", rs.name, rs.scenario("sample"), 3)
    items, data = todo_answer(seeded)
    assert "--dice" not in "\n".join(todo_lines(items, "vedette solonap", data["todo"]))
