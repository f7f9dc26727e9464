"""The 'what next' of 2 by 2 offers whole shots, so the web page's next panel is one tap away
from each (issue 15): in a stated game one line per target and range band, in a tracked game one
per target within reach; every such line is a legal request as it stands."""

from __future__ import annotations

from vedette import rules
from vedette.engine import Game, Store


def _to_shoot_phase(play: str) -> Game:
    g = Game.create(
        Store(":memory:"), "g", "two_by_two", rules.get("two_by_two").scenario("sample"), 3,
        {"play": play},
    )  # fmt: skip
    while g.state.phase != "shoot":
        g.perform("next", {})
    return g


def test_a_stated_game_offers_each_target_and_band() -> None:
    g = _to_shoot_phase("stated")
    shots = [t for t in g.todo() if t.procedure == "shoot"]
    cmds = [t.command() for t in shots]
    assert "shoot firer=F1 target=A1 band=musket" in cmds
    assert all("target" in t.request and "band" in t.request for t in shots)
    for t in shots[:6]:  # each runs as offered (planned: the rules check it)
        g.odds("shoot", dict(t.request))
    g.perform("shoot", dict(shots[0].request))
    assert not [t for t in g.todo() if t.request.get("firer") == shots[0].request["firer"]]


def test_a_tracked_game_offers_only_targets_in_reach() -> None:
    g = _to_shoot_phase("tracked")
    for t in g.todo():
        if t.procedure == "shoot" and "target" in t.request:
            g.odds("shoot", dict(t.request))  # in range: no refusal
