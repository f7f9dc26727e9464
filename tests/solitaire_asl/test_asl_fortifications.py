"""What a fortification may record once play has begun (session 16, helper A), through the
public ``Game`` API: a cave's complex and a tunnel's exit are set up with the scenario (ASL G11,
B8.6) and change only as O'Leary 4.4.1 and 4.4.2 allow, after a shift (reading A40); a CA only
for a kind that has one (4.4, reading A39); and the odds of a shift once its phase is closed
(2.5): every query answers alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.solitaire_asl.test_asl_flow import RU, goto, refused, sample
from vedette.engine import Game, Store
from vedette.errors import VedetteError


def forts(tmp_path: Path, house_rules: dict[str, Any] | None = None) -> Game:
    """Russian: a hidden cave C1 (4A1, complex K) and a dummy HIP counter X1 (4B1); a pillbox
    F1 (4C1) with a tunnel T1 from it to 4C2; a hidden foxhole H1 (4D1) and a dummy HIP
    counter X2 (4E1)."""
    scenario: dict[str, Any] = {
        "name": "forts",
        "sides": [RU, "German"],
        "first": RU,
        "stacks": [
            {"id": "X1", "side": RU, "location": "4B1", "status": "dummy_hip"},
            {"id": "X2", "side": RU, "location": "4E1", "status": "dummy_hip"},
            {"id": "X3", "side": RU, "location": "4F1", "status": "dummy_hip"},
        ],
        "fortifications": [
            {"id": "C1", "side": RU, "kind": "cave", "location": "4A1", "complex": "K"},
            {"id": "F1", "side": RU, "kind": "pillbox", "location": "4C1", "tem": 3},
            {
                "id": "T1",
                "side": RU,
                "kind": "tunnel",
                "location": "4C1",
                "tunnel_from": "F1",
                "exit": "4C2",
            },
            {"id": "H1", "side": RU, "kind": "foxhole", "location": "4D1", "tem": 2},
        ],
    }
    return Game.create(
        Store(tmp_path / "forts.db"), "g", "asl", scenario, seed=2, house_rules=house_rules or {}
    )


def fort(g: Game, fid: str) -> Any:
    f = g.state.fortification(fid)
    assert f is not None
    return f


# == 4.4.1: a cave complex ==
def test_4_4_1_a_cave_complex_changes_only_right_after_a_cave_shifts(tmp_path: Path) -> None:
    """The complex was set up with the scenario; ``fort complex=`` changed it at any time. 4.4.1:
    "If a cave counter is shifted ... that side may immediately modify the cave complex". So:
    refused in play, accepted right after the cave's shift (more than once: the whole complex
    may be re-formed), refused again once anything else is done."""
    g = forts(tmp_path)
    g.perform("fort", {"id": "C1", "complex": "K0"})  # set-up: the player's bookkeeping
    goto(g, "MPh")
    text = refused(g, "fort", {"id": "C1", "complex": "K2"}, [], "O'Leary 4.4.1", "C1", "K0")
    assert "\n" not in text
    g.perform("fort", {"id": "C1", "complex": "K0"})  # the same complex: nothing changes
    out = g.perform("shift", {"a": "C1", "b": "X1"}, faces=[1, 1])
    assert fort(g, "C1").location == "4B1", out.message
    # (the step named for the web and the CLI alike; todo offers it with its choices)
    assert any("cave complex" in c and "the fort action" in c for c in out.details["changes"])
    g.perform("fort", {"id": "C1", "complex": "K2"})
    g.perform("fort", {"id": "C1", "complex": "K3"})
    assert fort(g, "C1").complex == "K3"
    g.perform("act", {})
    refused(g, "fort", {"id": "C1", "complex": "K4"}, [], "O'Leary 4.4.1")
    assert fort(g, "C1").complex == "K3"


def test_4_4_1_a_refused_cave_shift_reforms_nothing(tmp_path: Path) -> None:
    g = forts(tmp_path)
    goto(g, "MPh")
    out = g.perform("shift", {"a": "C1", "b": "X1"}, faces=[5, 5])  # 10: refused
    assert fort(g, "C1").location == "4A1", out.message
    refused(g, "fort", {"id": "C1", "complex": "K2"}, [], "O'Leary 4.4.1")


# == 4.4.2: a tunnel's exit ==
def test_4_4_2_a_tunnel_exit_is_chosen_again_only_after_its_end_shifts(tmp_path: Path) -> None:
    """``fort exit=`` moved a tunnel's exit at any time. 4.4.2: the tunnel's location "may be
    changed following a shift of either end": in play a recorded exit is refused a change; the
    shift of its pillbox clears it, and the new exit is recorded once."""
    g = forts(tmp_path)
    g.perform("fort", {"id": "T1", "exit": "4C3"})  # set-up
    goto(g, "MPh")
    refused(g, "fort", {"id": "T1", "exit": "4C4"}, [], "O'Leary 4.4.2", "T1", "4C3")
    g.perform("fort", {"id": "T1", "exit": "4C3"})  # the same exit: nothing changes
    g.perform("shift", {"a": "F1", "b": "X2"}, faces=[1, 1])
    assert fort(g, "T1").location == "4E1" and fort(g, "T1").exit == ""
    g.perform("fort", {"id": "T1", "exit": "4E2"})
    assert fort(g, "T1").exit == "4E2"
    refused(g, "fort", {"id": "T1", "exit": "4E3"}, [], "O'Leary 4.4.2")


# == 4.4: a CA only where the kind has one ==
def test_4_4_a_foxhole_takes_no_ca(tmp_path: Path) -> None:
    """4.4: "Fortifications that possess a well defined CA (Ex: pillboxes, caves, panji) may
    choose their CA": a foxhole has none, yet ``fort ca=`` and a shift's ``ca=`` recorded one."""
    g = forts(tmp_path)
    text = refused(g, "fort", {"id": "H1", "ca": "N"}, [], "O'Leary 4.4", "foxhole H1")
    assert "\n" not in text
    g.perform("fort", {"id": "F1", "ca": "N/NE"})  # a pillbox has one
    goto(g, "MPh")
    refused(g, "shift", {"a": "H1", "b": "X3", "ca": {"H1": "N"}}, [1, 1], "O'Leary 4.4")
    g.perform("shift", {"a": "H1", "b": "X3"}, faces=[1, 1])
    assert fort(g, "H1").ca == ""


def test_4_4_reading_a39_the_kinds_with_a_ca_are_data(tmp_path: Path) -> None:
    g = forts(tmp_path, {"fortification_ca": {"foxhole": True}})
    g.perform("fort", {"id": "H1", "ca": "N"})
    assert fort(g, "H1").ca == "N"


# == 2.5: the odds of a shift once its phase is closed ==
def test_2_5_every_query_refuses_a_shift_of_a_closed_phase_alike(tmp_path: Path) -> None:
    """After an 8-10 "no other units may attempt to shift this phase" (2.5): ``chances shift``
    gave the odds of the DR as if it could be made while ``chances shifts`` (and ``plan``)
    refused. Each now refuses with the same reason; the timing alone (a query in set-up, issue
    24) still answers."""
    g = sample(tmp_path)
    (odds,) = g.odds("shift", {"a": "P2", "b": "D1"})  # set-up: the DR it would face
    assert sum(r.p for r in odds.rows) == 1
    goto(g, "MPh")
    out = g.perform("shift", {"a": "P1", "b": "D1"}, faces=[5, 5])
    assert out.rolls[0].row == "refused", out.message
    reasons = set()
    for query in (
        lambda: g.chances("shift", {"a": "P2", "b": "D1"}),
        lambda: g.odds("shift", {"a": "P2", "b": "D1"}),
        lambda: g.chances("shifts", {"shifts": ["P2:D1"]}),
        lambda: g.perform("plan", {"shifts": ["P2:D1"]}),
    ):
        with pytest.raises(VedetteError) as e:
            query()
        reasons.add(str(e.value))
    (reason,) = reasons
    assert "may shift no more dummy stacks" in reason and "O'Leary 2.5" in reason
    # HIP shifting is not closed (3.3.4): its odds are still given
    c = g.chances("shift", {"a": "4M6", "b": "4O8"})
    assert c.exact and c.rows


@pytest.mark.parametrize(
    ("fort", "words"),
    [
        ({"kind": "foxhole", "ca": "N"}, "no covered arc"),
        ({"kind": "pillbox", "complex": "K"}, "only caves"),
        ({"kind": "cave", "exit": "4A2"}, "only tunnels"),
    ],
)
def test_4_4_a_scenario_giving_a_kind_what_it_lacks_is_refused(
    tmp_path: Path, fort: dict[str, Any], words: str
) -> None:
    """The same readings hold for the scenario's set-up: a foxhole with a CA (A39), a pillbox
    in a cave complex or a cave with a tunnel exit is refused in one line, no game stored."""
    store = Store(tmp_path / "s.db")
    scenario = {
        "name": "bad",
        "sides": [RU, "German"],
        "first": RU,
        "fortifications": [{"id": "F1", "side": RU, "location": "4A1", **fort}],
    }
    with pytest.raises(VedetteError, match=words):
        Game.create(store, "g", "asl", scenario, seed=1)
    assert store.games() == []


def test_4_4_2_a_fortification_shifting_from_the_exit_takes_the_tunnel_with_it(
    tmp_path: Path,
) -> None:
    """4.4.2: "if the tunnel ends in another fortification ..., following the shift ... of that
    fortification ..., one may also change the location of the tunnel. However the tunnel must
    remain connected to the fortification that has been modified" (the example: it "must
    instead have one entrance in the fortified building location"). The exit used to stay in
    the location the foxhole had left; now the tunnel starts in the foxhole where it went and
    its other exit is chosen again (once: then it is fixed until the next shift)."""
    g = forts(tmp_path)
    g.perform("fort", {"id": "T1", "exit": "4D1"})  # set-up: the tunnel ends in foxhole H1
    goto(g, "MPh")
    refused(g, "fort", {"id": "T1", "exit": "4D2"}, [], "O'Leary 4.4.2")
    out = g.perform("shift", {"a": "H1", "b": "X3"}, faces=[1, 1])
    assert fort(g, "H1").location == "4F1", out.message
    assert any("T1" in c and "with the fort action" in c for c in out.details["changes"])
    t = fort(g, "T1")
    assert (t.tunnel_from, t.location, t.exit) == ("H1", "4F1", "")
    g.perform("fort", {"id": "T1", "exit": "4C1"})  # its other end back into the pillbox
    assert fort(g, "T1").exit == "4C1"
    g.perform("act", {})
    refused(g, "fort", {"id": "T1", "exit": "4D1"}, [], "O'Leary 4.4.2")


def test_4_4_2_a_tunnel_stays_when_a_fortification_remains_at_its_exit(tmp_path: Path) -> None:
    """A foxhole leaving the exit's location where the side's fortified building stays does not
    cut the tunnel off: it stays put, and its exit may be chosen again right then (reading
    A40)."""
    scenario: dict[str, Any] = {
        "name": "tunnel",
        "sides": [RU, "German"],
        "first": RU,
        "stacks": [{"id": "X3", "side": RU, "location": "4F1", "status": "dummy_hip"}],
        "fortifications": [
            {"id": "F1", "side": RU, "kind": "pillbox", "location": "4C1"},
            {"id": "T1", "side": RU, "kind": "tunnel", "location": "4C1", "tunnel_from": "F1"},
            {"id": "F2", "side": RU, "kind": "fortified_building", "location": "4D1"},
            {"id": "H1", "side": RU, "kind": "foxhole", "location": "4D1"},
        ],
    }
    g = Game.create(Store(tmp_path / "t.db"), "g", "asl", scenario, seed=2)
    g.perform("fort", {"id": "T1", "exit": "4D1"})
    goto(g, "MPh")
    out = g.perform("shift", {"a": "H1", "b": "X3"}, faces=[1, 1])
    assert fort(g, "H1").location == "4F1" and fort(g, "F2").location == "4D1"
    t = fort(g, "T1")
    assert (t.tunnel_from, t.location, t.exit) == ("F1", "4C1", "4D1")
    assert any("may be chosen again" in c for c in out.details["changes"])


# == the words of a kind ==
def test_a_fortified_building_is_named_in_words_and_typed_as_its_key(tmp_path: Path) -> None:
    """A kind is typed as its key (``kind=fortified_building``) but printed in words: the shift
    of a hidden fortified building (4.4.2, its tunnel with it), the refusal of a CA it does not
    have (4.4, A39) and the state shown said "fortified_building"; they say "fortified
    building"."""
    scenario: dict[str, Any] = {
        "name": "words",
        "sides": [RU, "German"],
        "first": RU,
        "stacks": [{"id": "X3", "side": RU, "location": "4F1", "status": "dummy_hip"}],
        "fortifications": [
            {"id": "F2", "side": RU, "kind": "fortified_building", "location": "4D1"},
            {"id": "T1", "side": RU, "kind": "tunnel", "location": "4D1", "tunnel_from": "F2"},
        ],
    }
    g = Game.create(Store(tmp_path / "w.db"), "g", "asl", scenario, seed=2)
    goto(g, "MPh")
    out = g.perform("shift", {"a": "F2", "b": "X3"}, faces=[1, 1])
    assert fort(g, "F2").kind == "fortified_building" and fort(g, "F2").location == "4F1"
    said = [out.message, *out.details["changes"], g.render()]
    said.append(refused(g, "fort", {"id": "F2", "ca": "1"}, [], "O'Leary 4.4"))
    assert any("fortified building F2" in s for s in said), said
    assert not any("fortified_building" in s for s in said), said


def test_4_4_2_todo_offers_the_tunnels_exit_to_choose_after_its_end_shifts(tmp_path: Path) -> None:
    """4.4.2: when the fortified end of a tunnel shifts, its other exit is chosen again. The
    outcome asked for it but only a typed ``fort id=T1 exit=..`` did it (a phone's player had to
    type): ``todo`` now offers it, open on the exit (the hexes next to the tunnel's end first),
    and its choice is taken; once chosen it is offered no more."""
    g = forts(tmp_path)
    assert not [t for t in g.todo() if t.procedure == "fort"]  # the exit set up: nothing to do
    goto(g, "MPh")
    g.perform("shift", {"a": "F1", "b": "X3"}, faces=[1, 1])
    assert fort(g, "T1").exit == ""
    (t,) = [t for t in g.todo() if t.procedure == "fort" and "exit" in t.open]
    assert t.request == {"id": "T1"} and "4F2" in t.open["exit"]  # next to 4F1, the new end
    g.perform("fort", {**t.request, "exit": t.open["exit"][0]})
    assert fort(g, "T1").exit == t.open["exit"][0]
    # (the pillbox's CA, chosen right after the shift (A43), is offered while only fort is done)
    assert [t.request for t in g.todo() if t.procedure == "fort"] == [{"id": "F1"}]
    g.perform("phase", {})
    assert not [t for t in g.todo() if t.procedure == "fort"]


def test_4_4_reading_a43_the_ca_of_a_shifted_fortification_is_chosen_after_the_shift(
    tmp_path: Path,
) -> None:
    """4.4: "Fortifications that possess a well defined CA ... may choose their CA" after the
    shift. It had to be typed into the shift itself as JSON (``ca='{"F1":".."}'``): once the
    shift was made, a hidden pillbox's CA could not change (3.2.2). Now a shift that moves it
    opens the choice until anything but ``fort`` is done (reading A43): ``todo`` offers it,
    one choice per hexside, named by the location it faces."""
    g = forts(tmp_path)
    g.perform("fort", {"id": "F1", "ca": "facing 4C2"})  # set-up's record
    goto(g, "MPh")
    refused(g, "fort", {"id": "F1", "ca": "facing 4B1"}, [], "O'Leary 3.2.2", "shift")
    g.perform("shift", {"a": "F1", "b": "X3"}, faces=[1, 1])
    assert fort(g, "F1").location == "4F1"
    g.perform("fort", {"id": "T1", "exit": "4F2"})  # its tunnel's exit is owed first (A45)
    (t,) = [t for t in g.todo() if t.procedure == "fort" and "ca" in t.open]
    assert t.request == {"id": "F1"} and t.rule == "O'Leary 4.4"
    assert len(t.open["ca"]) >= 3 and all(c.startswith("facing 4") for c in t.open["ca"])
    g.perform("fort", {"id": "F1", "ca": t.open["ca"][1]})
    g.perform("fort", {"id": "F1", "ca": t.open["ca"][0]})  # (only fort done since: still open)
    assert fort(g, "F1").ca == t.open["ca"][0]
    g.perform("phase", {})
    refused(g, "fort", {"id": "F1", "ca": t.open["ca"][1]}, [], "O'Leary 3.2.2")
    assert not [t for t in g.todo() if t.procedure == "fort" and "ca" in t.open]


def test_4_4_1_todo_offers_the_cave_complex_right_after_a_cave_shifts(tmp_path: Path) -> None:
    """4.4.1: a side whose cave shifted "may immediately modify the cave complex": it was done
    by typing ``fort id=C1 complex=..``. ``todo`` now offers it, open on the side's other
    complexes and a new one, while only ``fort`` is done after the shift (A40)."""
    g = forts(tmp_path)
    goto(g, "MPh")
    assert not [t for t in g.todo() if "complex" in t.open]
    g.perform("shift", {"a": "C1", "b": "X1"}, faces=[1, 1])
    (t,) = [t for t in g.todo() if t.procedure == "fort" and "complex" in t.open]
    assert t.request == {"id": "C1"} and t.open["complex"] == ("K1",)  # K is its own
    g.perform("fort", {"id": "C1", "complex": "K1"})
    assert fort(g, "C1").complex == "K1"
    g.perform("phase", {})
    assert not [t for t in g.todo() if "complex" in t.open]


def test_4_4_2_reading_a45_the_exit_of_a_tunnel_that_shifted_is_owed(tmp_path: Path) -> None:
    """4.4.2: when the pillbox at a tunnel's end shifts, "the location of the tunnel is shifted.
    One end of the tunnel must remain in the pillbox, while the other end can be chosen". The
    shift cleared the exit and ``todo`` offered it, but play went on with a tunnel that had no
    other end. Now its choice is owed: other actions are refused in one line naming the rule
    until the exit is chosen; a logged ``waive`` leaves it to be chosen later."""
    g = forts(tmp_path)
    goto(g, "MPh")
    g.perform("shift", {"a": "F1", "b": "X3"}, faces=[1, 1])
    assert fort(g, "T1").exit == "" and [o.id for o in g.obligations()] == ["tunnel:T1"]
    (t,) = [t for t in g.todo() if t.owed]
    assert t.procedure == "fort" and t.request == {"id": "T1"} and "4F2" in t.open["exit"]
    for proc, req in (("phase", {}), ("shift", {"a": "H1", "b": "X2"})):
        text = refused(g, proc, req, [1, 1], "O'Leary 4.4.2", "fort id=T1", "waive tunnel:T1")
        assert "\n" not in text
    g.perform("fort", {"id": "T1", "exit": t.open["exit"][0]})
    assert g.obligations() == () and fort(g, "T1").exit == t.open["exit"][0]
    g.perform("phase", {})
    # shifted back: owed again; waived, play goes on and the exit stays to be chosen
    goto(g, "MPh")
    g.perform("shift", {"a": "F1", "b": "X1"}, faces=[1, 1])
    assert [o.id for o in g.obligations()] == ["tunnel:T1"]
    g.perform("waive", {"obligation": "tunnel:T1"})
    g.perform("phase", {})
    assert fort(g, "T1").exit == "" and g.obligations() == ()
    assert [t.request for t in g.todo() if t.procedure == "fort"] == [{"id": "T1"}]
