"""Session 19 (helper X): the own-deck deal (reading K80, option ``deal=cards``) and the staff
rated a general a step (K81, ``staff_by=general``) attacked as the older surfaces are
(tests/core/test_trust_import.py, test_trust_bad_input.py). A tampered export of such a game
(a card dealt twice, a card not in the deck, a reorder, a hand-dealt card not a whole number,
one chance card drawn by both sides, a bad or unknown option, a house-rule die out of range) is
refused in one line, nothing stored; the honest export imports. At the command line and in the
web app a hand-dealt ``cards=`` number that is no whole number, and a chance card given to two
sides, are refused in one line (exit 2 / a 400), nothing stored: ``cards={"A4": 7.9}`` dealt
card 7, ``"x"`` was an internal error, and both sides could hold the one deck's same card
(Kuryakin, Move Sequence: each side draws one card from the Chance Card deck)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.core.test_trust_bad_input import refused
from tests.core.test_trust_import import assert_refused, parse, write
from vedette import rules
from vedette.engine import Game, Store
from vedette.web.app import create_app

GENERALS = ("Dessaix", "Morand", "Colbert", "Hohenfeld", "Bianchi")
#: the sample's holders once every brigadier passes control, in the deal's order
HOLDERS = ("Morand", "Colbert", "Bianchi", "F4", "A2", "A3", "A4")
HAND = dict(zip(HOLDERS, range(1, 8), strict=True))


def _to_deal(st: Store, name: str) -> Game:
    """A game with the player's own dice (deal=cards, staff_by=general) at its deal."""
    g = Game.create(st, name, "solonap", rules.get("solonap").scenario("sample"), seed=1,
                    dice="physical")  # fmt: skip
    assert g.created["options"] == {"deal": "cards", "staff_by": "general"}
    for gen in GENERALS:
        g.perform("staff", {"general": gen}, [3, 4, 5])
    g.perform("control", {}, [1, 1, 1])
    return g


@pytest.fixture(scope="module")
def export(tmp_path_factory: pytest.TempPathFactory) -> str:
    g = _to_deal(Store(tmp_path_factory.mktemp("deck") / "g.db"), "k")
    # (a card for each of seven holders of a deck of 10, then each side's chance card)
    g.perform("deal", {}, [3, 1, 2, 10, 5, 6, 7, 1, 2])
    return g.export_jsonl()


Records = list[dict[str, Any]]


def _deal(recs: Records) -> dict[str, Any]:
    return next(r for r in recs if r["kind"] == "action" and r["payload"]["procedure"] == "deal")


def _faces(recs: Records) -> list[int]:
    return _deal(recs)["payload"]["dice"]["faces"]  # type: ignore[no-any-return]


def dealt_twice(recs: Records) -> None:
    _faces(recs)[1] = _faces(recs)[0]  # Colbert turns up Morand's card


def not_in_deck(recs: Records) -> None:
    _faces(recs)[0] = 11  # a deck of 10


def reordered(recs: Records) -> None:
    f = _faces(recs)
    f[0], f[1] = f[1], f[0]


def chance_twice(recs: Records) -> None:
    _faces(recs)[-1] = _faces(recs)[-2]


def hand_fraction(recs: Records) -> None:
    _deal(recs)["payload"]["request"] = {"cards": {**HAND, "A4": 7.9}}


def hand_text(recs: Records) -> None:
    _deal(recs)["payload"]["request"] = {"cards": {**HAND, "A4": "x"}}


def hand_chance_twice(recs: Records) -> None:
    _deal(recs)["payload"]["request"] = {"chance": {"French": "inspired", "Austrians": "inspired"}}


def request_key(recs: Records) -> None:
    _deal(recs)["payload"]["request"] = {"deck": 10}


def staff_reordered(recs: Records) -> None:
    s = [r for r in recs if r["kind"] == "action" and r["payload"]["procedure"] == "staff"][1]
    f = s["payload"]["dice"]["faces"]
    f[0], f[2] = f[2], f[0]


def _created(key: str, value: Any) -> Callable[[Records], None]:
    def change(recs: Records) -> None:
        top, _, k = key.rpartition(".")
        recs[0]["payload"][top][k] = value

    return change


TAMPERINGS: dict[str, Callable[[Records], None]] = {
    "a card dealt twice": dealt_twice,
    "a card not in the deck": not_in_deck,
    "two cards swapped": reordered,
    "a chance card drawn twice": chance_twice,
    "a hand-dealt card 7.9": hand_fraction,
    "a hand-dealt card 'x'": hand_text,
    "a hand-drawn chance card twice": hand_chance_twice,
    "an unknown key in the deal": request_key,
    "a staff roll's faces reordered": staff_reordered,
    "deal=bogus": _created("options.deal", "bogus"),
    "an unknown option": _created("options.dael", "cards"),
    "deal=shuffle under the real deck's cards": _created("options.deal", "shuffle"),
    "staff_by=x": _created("options.staff_by", "x"),
    "a house-rule die of one face": _created("house_rules.dice", {"swerve_distance": 1}),
    "a house-rule die in words": _created("house_rules.dice", {"swerve_distance": "d7"}),
    "an unknown house-rule die": _created("house_rules.dice", {"control": 6}),
}


def test_the_honest_export_imports(export: str, tmp_path: Path) -> None:
    g = Game.import_jsonl(Store(tmp_path / "g.db"), export, "copy")
    assert g.export_jsonl().splitlines()[1:] == export.splitlines()[1:]


@pytest.mark.parametrize("kind", list(TAMPERINGS))
def test_a_tampered_own_deck_export_is_refused(export: str, kind: str, tmp_path: Path) -> None:
    head, recs = parse(export)
    tampered = copy.deepcopy(recs)
    TAMPERINGS[kind](tampered)
    assert tampered != recs
    assert_refused(Store(tmp_path / "g.db"), write(head, tampered), kind)


BAD_HANDS = [
    ("cards", {**HAND, "A4": 7.9}, "must be a whole number"),
    ("cards", {**HAND, "A4": "x"}, "must be a whole number"),
    ("cards", {**HAND, "A4": True}, "must be a whole number"),
    ("chance", {"French": "inspired", "Austrians": "inspired"}, "already drawn"),
]


@pytest.mark.parametrize(("field", "value", "why"), BAD_HANDS)
def test_a_bad_hand_deal_is_refused_at_the_command_line(
    field: str, value: Any, why: str, tmp_path: Path
) -> None:
    db = tmp_path / "g.db"
    _to_deal(Store(db), "k")
    extra = [] if field == "cards" else [f"cards={json.dumps(HAND)}"]
    err = refused(str(db), "solonap", "deal", f"{field}={json.dumps(value)}", *extra, "--game",
                  "k", "--dice", "1,2")  # fmt: skip
    assert why in err, err


@pytest.mark.parametrize(("field", "value", "why"), BAD_HANDS)
def test_a_bad_hand_deal_is_refused_by_the_web_app(
    field: str, value: Any, why: str, tmp_path: Path
) -> None:
    db = tmp_path / "g.db"
    _to_deal(Store(db), "k")
    before = Store(db).game("k").events
    c = TestClient(create_app(db), base_url="http://localhost")
    c.get("/")
    t = c.get("/games/k").text.split('name="csrf-token" content="')[1].split('"')[0]
    request = {field: value} if field == "cards" else {"cards": HAND, field: value}
    r = c.post("/api/games/k/perform", json={"procedure": "deal", "request": request,
               "dice": "1 2"}, headers={"X-CSRF-Token": t})  # fmt: skip
    assert r.status_code == 400 and why in r.json()["error"], r.text
    assert Store(db).game("k").events == before  # nothing stored


def test_a_hand_deal_of_whole_numbers_still_deals(tmp_path: Path) -> None:
    g = _to_deal(Store(tmp_path / "g.db"), "k")
    hand = {"cards": {**HAND, "A4": "7"}, "chance": {"French": "inspired", "Austrians": "smoke"}}
    out = g.perform("deal", hand)
    assert out.message.startswith("cards revealed (1-10): #1 Morand") and "#7 A4" in out.message


def test_undo_of_a_staff_step_or_a_deal_reveals_no_die(tmp_path: Path) -> None:
    """Undo cannot reveal the next die: a general's staff step undone and given again rolls
    the same dice; undone and given for another general, it rolls dice never drawn (not the
    undone step's, which would tell the player which general they suit). The same for a
    seeded game dealing a real deck (deal=cards): the deal undone deals the same cards."""
    scn = rules.get("solonap").scenario("sample")
    g = Game.create(Store(tmp_path / "g.db"), "s", "solonap", scn, seed=3,
                    options={"deal": "cards", "staff_by": "general"})  # fmt: skip
    first = g.perform("staff", {"general": "Dessaix"})
    drawn = g.position
    g.undo()
    assert g.perform("staff", {"general": "Dessaix"}).message == first.message
    g.undo()
    before = g.position
    g.perform("staff", {"general": "Morand"})
    assert before == drawn and g.records[-1].payload["dice"]["before"] >= drawn
    for gen in GENERALS:
        if gen != "Morand":
            g.perform("staff", {"general": gen})
    g.perform("control", {})
    dealt = g.perform("deal", {})
    g.undo()
    assert g.perform("deal", {}).message == dealt.message
