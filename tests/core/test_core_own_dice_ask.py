"""A game played with the player's own dice asks for the dice the step rolls whatever the
faces, not every roll its plan may make: following the ask is never refused. ASL's bore-sight
die (O'Leary 6.1) throws its scatter dice on a 6 only (it asked for three d6 and refused three
given on a 4); Kuryakin's staff rating rolls every general's TH, AV and Control dice (it asked
for one d6, then each further die one at a time)."""

from __future__ import annotations

import pytest

from tests.web.test_web_browser_next import has, until
from vedette import rules
from vedette.engine import Game, Store
from vedette.errors import DiceError


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
    assert "roll 1d6 first (some faces call for more: a d6; each is asked for then)" in cli
    assert cli.endswith("and give the faces in order (--dice)")
    assert "roll 1d6 first" in web and web.endswith("on the dice buttons: the last one does it")
    assert "still undetermined" in g.perform("boresight", req, [4]).message  # one die: done
    g.undo()
    with pytest.raises(DiceError, match="die #2 \\(d6\\) is needed"):
        g.perform("boresight", req, [6])  # the scatter dice, asked for in turn
    assert "hex" in g.perform("boresight", req, [6, 1, 1]).message
    # a check of 2d6 (O'Leary 2.5) is asked as such
    until(g, has("shift"))
    assert "your own dice: roll 2d6 and give" in asked(g, "shift", offered(g, "shift"))[0]


def test_the_staff_rating_asks_for_every_die_it_rolls() -> None:
    g = own("solo_napoleonic")
    req = offered(g, "staff")
    cli, _ = asked(g, "staff", req)
    dice = cli.split("roll ", 1)[1].split(" and give")[0]
    assert "first" not in dice and dice.startswith("2d6, 1d8")
    count = sum(int(part.split("d")[0]) for part in dice.split(", "))
    g.perform("staff", req, [3] * count)  # exactly what was asked
    assert g.records[-1].kind == "action"
