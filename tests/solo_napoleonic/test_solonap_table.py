"""Kuryakin at the real table (session 19, helper K8): a game played with the player's own dice
deals a real deck of activation cards, one tapped card a holder (reading K80), rates the staff
a general a step (reading K81), and the card's listing names fire and charge only where the
referee accepts them. Played through the public API (``Game.create`` / ``perform`` / ``todo``
/ ``dice_asked``)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from vedette import rules
from vedette.cli.main import main
from vedette.dice.sources import DiceNeeded
from vedette.engine import Game, Store
from vedette.errors import DiceError
from vedette.rules.solo_napoleonic import cards
from vedette.rules.solo_napoleonic.chance import chance_deck


def _game(tmp_path: Path, dice: str = "physical", **options: Any) -> Game:
    rs = rules.get("solo_napoleonic")
    scen = rs.scenario("sample")
    return Game.create(Store(tmp_path / "g.db"), "g", rs.name, scen, 3, dice=dice, options=options)


def _own(g: Game, procedure: str, request: dict[str, Any], pick: int = 0) -> list[int]:
    """``procedure`` done with the player's dice, each die asked for given its lowest face
    (``pick`` 0) or its highest (-1); the faces given."""
    faces: list[int] = []
    while True:
        try:
            g.perform(procedure, request, faces or None)
            return faces
        except DiceNeeded as e:
            faces.append(sorted(e.die.faces)[pick])


def _rated(g: Game) -> None:
    while any(t.procedure == "staff" for t in g.todo()):
        t = g.todo()[0]
        _own(g, "staff", dict(t.request))


# == reading K80: the player's own deck ==========================================================
def test_own_dice_deal_a_real_deck_one_card_tapped_a_holder(tmp_path: Path) -> None:
    """Movement: one card a unit on the table, "picked randomly", all "revealed at once". With
    the player's own dice the deal asked for a d10, d9 ... d2 (a Fisher-Yates shuffle: dice
    nobody owns) and two more dice for the chance cards. Reading K80: the player turns up a
    card from a real deck for each holder in turn and taps its number, one of the cards left;
    then each side's chance card. A card already dealt is refused; the ask names the holders."""
    g = _game(tmp_path)
    assert g.state.options["deal"] == "cards"  # a game played with the player's own dice
    _rated(g)
    _own(g, "control", {})  # lowest faces: every brigadier controls
    holders = [h for h, _, _ in cards.holders(g.state)]
    n = sum(1 for u in g.state.units if u.on_table)
    assert len(holders) < n  # controlled formations: a card each
    asked, more = g.dice_asked("deal", {})
    every = asked + (more or [])
    assert asked[0].name == f"card for {holders[0]}" and asked[0].faces == tuple(range(1, n + 1))
    assert all(" card for " in f" {d.name}" for d in every)  # cards turned up: no dN at all
    with pytest.raises(DiceNeeded, match="real deck") as ask:
        g.perform("deal", {})
    assert ", ".join(holders) in str(ask.value)
    before = len(g.records)
    with pytest.raises(DiceError, match="is not a face"):
        g.perform("deal", {}, [n, n])  # the same card twice
    assert len(g.records) == before
    # each holder's card, highest first; then chance cards 2 and 1 of the deck
    mine = list(range(n, n - len(holders), -1))
    out = g.perform("deal", {}, [*mine, 2, 1])
    assert {c.holder: c.number for c in g.state.cards} == dict(zip(holders, mine, strict=True))
    deck = chance_deck(g.state)
    assert g.state.chance == {"French": deck[1].id, "Austrians": deck[0].id}
    assert [r.label for r in out.rolls][:2] == [f"{h} turns up a card" for h in holders[:2]]
    assert out.details["order"] == holders[::-1]


def test_the_deal_from_the_cli_and_todo_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command line: `todo` names the holders in the order their cards are turned up, and
    `todo --json` gives each step's dice with their faces (the deal's first: the deck's cards);
    `deal --dice` takes the numbers turned up, in that order."""
    db = str(tmp_path / "cli.db")

    def cli(*args: str) -> str:
        capsys.readouterr()
        assert main(["--db", db, "solonap", *args]) == 0
        return capsys.readouterr().out

    cli("new", "k", "--seed", "9", "--physical-dice")
    staff = json.loads(cli("todo", "--json"))["todo"][0]
    assert [d["name"] for d in staff["dice"]] == ["d6", "d6", "d8"] and not staff["more_dice"]
    for g in ("Dessaix", "Morand", "Colbert", "Hohenfeld", "Bianchi"):
        cli("staff", f"general={g}", "--dice", "3 3 3")
    cli("control", "--dice", "1 1 1")
    entry = json.loads(cli("todo", "--json"))["todo"][0]
    first = entry["dice"][0]
    assert first["faces"] == list(range(1, 11)) and entry["more_dice"]
    holders = first["name"].removeprefix("card for ")
    assert f"a card for each of {holders}, " in entry["text"]
    assert holders in cli("todo")
    n = len(entry["text"].split(" in turn")[0].split(", "))
    out = cli("deal", "--dice", " ".join(str(k) for k in range(1, n + 3)))
    assert f"{holders} holds #1" in out


def test_the_decks_last_card_is_not_asked(tmp_path: Path) -> None:
    """Every brigadier fails his control roll: a card for each of the ten units, the whole deck
    dealt; the last unit's card is the one left, not asked (nine taps and two chance cards, where
    the shuffle asked for eleven dice)."""
    g = _game(tmp_path)
    _rated(g)
    _own(g, "control", {}, pick=-1)  # highest faces: every brigadier fails
    holders = [h for h, _, _ in cards.holders(g.state)]
    assert len(holders) == 10
    faces = _own(g, "deal", {})
    assert len(faces) == 9 + 2
    dealt = {c.holder: c.number for c in g.state.cards}
    assert sorted(dealt.values()) == list(range(1, 11))
    assert [dealt[h] for h in holders] == [*faces[:9], 10]


def test_the_games_own_dice_keep_the_shuffle(tmp_path: Path) -> None:
    """vedette's own dice deal as before: a recorded Fisher-Yates shuffle (d10, d9 ... d2), so
    the odds and the history of a seeded game are unchanged; ``deal=cards`` asks for the real
    deck's draw there too (one card of those left, each equally likely)."""
    g = _game(tmp_path / "a", dice="seeded")
    assert "deal" not in g.state.options
    g.perform("staff", {})
    g.perform("control", {})
    out = g.perform("deal", {})
    assert [r.expression for r in out.rolls][:3] == ["1d10", "1d9", "1d8"]
    assert out.rolls[0].label.startswith("shuffle")
    h = _game(tmp_path / "b", dice="seeded", deal="cards")
    h.perform("staff", {})
    h.perform("control", {})
    out = h.perform("deal", {})
    assert out.rolls[0].expression == "card" and out.rolls[0].label.endswith("turns up a card")
    assert len({c.number for c in h.state.cards}) == len(h.state.cards)


# == reading K81: the staff a general a step =====================================================
def test_own_dice_rate_the_staff_a_general_a_step(tmp_path: Path) -> None:
    """Generals: each commander's TH (D6), AV (D6) and Grade (D8). With the player's own dice
    todo offered one step rating all five generals: fifteen dice in one step, fifteen taps.
    Reading K81: it offers one general a step, his three dice; the game's own dice keep the
    one step (one tap: Roll)."""
    g = _game(tmp_path / "a")
    todo = g.todo()
    assert (todo[0].procedure, dict(todo[0].request)) == ("staff", {"general": "Dessaix"})
    asked, more = g.dice_asked("staff", dict(todo[0].request))
    assert [d.name for d in asked] == ["d6", "d6", "d8"] and more is None
    g.perform("staff", {"general": "Dessaix"}, [1, 2, 3])
    assert g.state.general("Dessaix").rated and not g.state.general("Morand").rated
    assert dict(g.todo()[0].request) == {"general": "Morand"}
    _rated(g)
    assert all(x.rated for x in g.state.generals)
    assert g.todo()[0].procedure == "control"
    seeded = _game(tmp_path / "b", dice="seeded")
    assert dict(seeded.todo()[0].request) == {}
    together = _game(tmp_path / "c", staff_by="all")
    assert dict(together.todo()[0].request) == {}


def test_a_rating_the_scenario_gives_is_not_rolled_again(tmp_path: Path) -> None:
    """Generals: ratings "can be allocated 'historically' if desired". A scenario giving Morand
    a Control Rating of 5 and Dessaix an Above Average TH: `staff` rolled all fifteen dice and
    Morand's CR became whatever the d8 gave. Only the ratings not given are rolled (thirteen
    dice; with the player's own dice Morand's step asks for his d6 and d6 alone)."""
    rs = rules.get("solo_napoleonic")
    scen = dict(rs.scenario("sample"))
    gens = [dict(x) for x in scen["generals"]]
    gens[0]["th"], gens[1]["cr"] = "above_average", 5
    scen["generals"] = gens
    g = Game.create(Store(tmp_path / "a.db"), "g", rs.name, scen, 3)
    asked, _ = g.dice_asked("staff", {})
    assert [d.name for d in asked[:5]] == ["d6", "d8", "d6", "d6", "d6"] and len(asked) == 13
    g.perform("staff", {})
    assert g.state.general("Morand").cr == 5
    assert g.state.general("Dessaix").th == "above_average"
    assert all(x.rated for x in g.state.generals)
    own = Game.create(Store(tmp_path / "b.db"), "g", rs.name, scen, 3, dice="physical")
    _own(own, "staff", {"general": "Dessaix"})
    t = own.todo()[0]
    assert dict(t.request) == {"general": "Morand"} and t.text.endswith("TH (d6) and AV (d6)")
    assert [d.name for d in own.dice_asked("staff", {"general": "Morand"})[0]] == ["d6", "d6"]


# == the card's listing: fire and charge where todo offers them ==================================
def _attacks(todo: list[Any], uid: str) -> set[str]:
    return {t.procedure for t in todo if t.procedure in ("fire", "charge") and not t.owed
            and t.request.get("unit") == uid}  # fmt: skip


def test_next_lists_fire_and_charge_only_where_todo_offers_them(tmp_path: Path) -> None:
    """`next` listed "fire" for every infantry unit and "charge" for every unit but guns and
    skirmishers, whether or not an enemy was in range or reach (the release-0.2 game's card #2:
    F1 "fire, charge" with no enemy within 370mm). A game played from todo: after each card
    turned, the units it lists fire and charge for are those todo offers them to."""
    g = _game(tmp_path, dice="seeded")
    rng = random.Random(19)
    compared = 0
    for _ in range(400):
        todo = g.todo()
        owed = [t for t in todo if t.owed]
        t = owed[0] if owed else rng.choice(todo)
        out = g.perform(t.procedure, {**t.request, **{k: rng.choice(v) for k, v in t.open.items()}})
        if t.procedure != "next" or not out.details.get("active"):
            continue
        now = g.todo()
        if any(x.owed for x in now):
            continue
        for uid, may in out.details["may"].items():
            listed = {a.split(" ")[0] for a in may} & {"fire", "charge"}
            assert listed == _attacks(now, uid), (uid, may)
            compared += 1
    assert compared > 20
