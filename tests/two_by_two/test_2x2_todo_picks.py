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
    """Issue 24 item 7: a stated shooting phase is one line per firer, the targets and the
    range bands open (was one line per firer x target x band: 47 lines for 5 units)."""
    g = _to_shoot_phase("stated")
    shots = [t for t in g.todo() if t.procedure == "shoot"]
    # unscreened infantry has one band ([2] only with a skirmisher screen): given, not asked;
    # the screened Légère picks its band, as the artillery does
    assert [t.command() for t in shots] == [
        *(f"shoot firer=F{i} band=musket" for i in (1, 2)),
        "shoot firer=F3",
        "shoot firer=F4",
    ]
    assert shots[2].open["band"] == ("musket", "skirmish")
    f1 = shots[0]
    # (and the contagion: Austria's Landwehr Wien, the ** unit a rout may take along)
    assert set(f1.open) == {"target", "enfilade", "cover", "hq_contact", "contagion"}
    assert "A1" in f1.open["target"]
    assert f1.open["contagion"] == ((), ("A3",))
    assert shots[3].open["band"] == ("canister", "short", "long")  # foot artillery's bands
    for t in shots:  # each choice runs as offered (planned: the rules check it)
        for target in t.open["target"][:3]:
            for band in t.open.get("band", (t.request.get("band"),)):
                g.odds("shoot", {**t.request, "target": target, "band": band})
    g.perform("shoot", {**f1.request, "target": "A1", "band": "musket"})
    assert not [t for t in g.todo() if t.request.get("firer") == "F1"]


def test_a_tracked_game_offers_only_targets_in_reach() -> None:
    g = _to_shoot_phase("tracked")
    for t in g.todo():
        if t.procedure == "shoot":
            for target in t.open["target"]:  # only targets in range and arc are offered
                assert g.is_legal("shoot", {**t.request, "target": target})
