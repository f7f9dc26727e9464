"""O'Leary 2.3 at the table (reading A46): right after a shift, a vehicle chooses its VCA/TCA
and CE/BU status, a Gun its CA and (if it could emplace at the start) its emplacement, by
choices ``todo`` offers (``settle``), where the shift's ``settings``/``emplaced`` had to be
typed as JSON. And ``todo --json`` gives the dice of an entry still open on a field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.solitaire_asl.test_asl_flow import game, goto, refused, sample, weapon
from vedette.cli.main import main
from vedette.engine import Game
from vedette.rules.solitaire_asl import RULESET

RU = "Russian"
GUN = {"id": "g7", "name": "76mm", "kind": "gun", "size": "normal", "may_emplace": True}


def settle(g: Game) -> list[object]:
    return [t for t in g.todo(strict=True) if t.procedure == "settle"]


def test_2_3_a_vehicle_chooses_its_arcs_and_ce_bu_by_taps_right_after_its_shift(
    tmp_path: Path,
) -> None:
    g = sample(tmp_path)
    goto(g, "MPh")
    assert not settle(g)
    g.perform("shift", {"a": "P2", "b": "P2"}, faces=[1, 1])  # the T-34 with itself
    (t,) = settle(g)
    assert t.request == {"id": "r4"} and t.rule == "O'Leary 2.3"
    # one arc per hexside of its location (4N3), then CE/BU: every choice accepted
    assert t.open["ca"] == tuple(f"facing {h}" for h in ("4M2", "4M3", "4N2", "4N4", "4O2", "4O3"))
    assert t.open["ce"] == ("BU", "CE")
    for ca in t.open["ca"]:
        for ce in t.open["ce"]:
            assert g.is_legal("settle", {"id": "r4", "ca": ca, "ce": ce})
    # the T-34's counter, tapped on the board, lists it too (the web page's own reports)
    tapped = RULESET.judged_counter_actions(g.state)["P2"]
    assert [t.request for t in tapped if t.procedure == "settle"] == [{"id": "r4"}]
    g.perform("settle", {"id": "r4", "ca": "facing 4N4", "ce": "CE"})
    assert weapon(g, "r4").settings == "VCA facing 4N4, TCA facing 4N4, CE"
    # still right after the shift: another choice replaces the first, a TCA of its own too
    (t,) = settle(g)
    assert t.open["ce"] == ("CE", "BU")  # as it stands first
    g.perform("settle", {"id": "r4", "tca": "facing 4M3", "ce": "BU"})
    assert weapon(g, "r4").settings == "VCA facing 4N4, TCA facing 4M3, BU"
    g.perform("act", {})
    assert not settle(g)  # something else was done: the moment after the shift is over


def shifted_gun(tmp_path: Path, gun: dict[str, object]) -> Game:
    """A HIP Gun in 4M6 just shifted (a DR of 2) with the dummy HIP counter in 4O8, in the MPh."""
    g = game(
        tmp_path,
        [
            {"id": "H1", "location": "4M6", "status": "hip", "counters": [gun]},
            {"id": "X1", "location": "4O8", "status": "dummy_hip"},
        ],
    )
    goto(g, "MPh")
    g.perform("shift", {"a": "H1", "b": "X1"}, faces=[1, 1])
    return g


def test_2_3_a_gun_that_shifts_is_emplaced_only_if_chosen_then(tmp_path: Path) -> None:
    """A HIP Gun allowed to emplace at the start shifts to a dummy HIP counter's location: it
    is not emplaced there unless the player says so right after the shift (then the -1 of an
    emplaced Gun applies to its next shift DR); later it is refused, naming 2.3, and a HIP
    Gun's CA changes only by a shift (3.2.2)."""
    g = shifted_gun(tmp_path, GUN)
    assert not weapon(g, "g7").emplaced
    (t,) = settle(g)
    assert t.open["emplaced"] == (True, False) and "facing 4O7" in t.open["ca"]
    g.perform("settle", {"id": "g7", "ca": "facing 4O7", "emplaced": True})
    gun = weapon(g, "g7")
    assert gun.emplaced and gun.settings == "CA facing 4O7"
    reasons = [m.reason for m in g.odds("shift", {"a": "g7", "b": "4M6"})[0].modifiers]
    assert any("emplaced Gun" in r for r in reasons)
    g.perform("phase", {})
    assert not settle(g)
    refused(g, "settle", {"id": "g7", "emplaced": False}, [], "O'Leary 2.3")
    refused(g, "settle", {"id": "g7", "ca": "facing 4P8"}, [], "O'Leary 3.2.2")


def test_2_3_a_gun_never_allowed_to_emplace_is_not_offered_it(tmp_path: Path) -> None:
    g = shifted_gun(tmp_path, {**GUN, "may_emplace": False})
    (t,) = settle(g)
    assert set(t.open) == {"ca"}
    refused(g, "settle", {"id": "g7", "emplaced": True}, [], "O'Leary 2.3", "not allowed")


def test_2_5_a_refused_shift_opens_no_choice(tmp_path: Path) -> None:
    g = sample(tmp_path)
    goto(g, "MPh")
    g.perform("shift", {"a": "P2", "b": "P2"}, faces=[5, 5])  # 10 +2 (normal vehicle)
    assert not settle(g)


def test_todo_json_gives_the_dice_of_an_entry_open_on_its_target(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With the player's own dice: the bore-sight die and the pre-registration die roll one d6
    whatever the target (more on a 6), so their entries, open on the target, say so; a shift
    (complete) gives its 2d6 as before."""
    db = str(tmp_path / "cli.db")

    def cli(*args: str) -> str:
        capsys.readouterr()
        assert main(["--db", db, "asl", *args]) == 0, args
        return capsys.readouterr().out

    cli("new", "d", "--scenario", "sample", "--physical-dice")
    cli("phase")
    todo = json.loads(cli("todo", "--json"))["todo"]
    d6 = {"name": "d6", "faces": [1, 2, 3, 4, 5, 6]}
    for proc, field in (("boresight", "target"), ("prereg", "ar")):
        (t,) = [t for t in todo if t["procedure"] == proc]
        assert t["open"][field] and t["dice"] == [d6] and t["more_dice"], t
    shift = next(t for t in todo if t["procedure"] == "shift")
    assert shift["dice"] == [d6, d6] and not shift["more_dice"]


def test_4_4_units_there_are_taken_into_a_shifted_fortification_by_taps(tmp_path: Path) -> None:
    """The sample's hidden pillbox F2 shifts to 4M6, where the HIP squads H1 stay (3.3.3): right
    after it, todo offers H1 as taken to be in it (4.4), ahead of the shifts; later the same
    request is refused, naming 4.4."""
    g = sample(tmp_path)
    goto(g, "PFPh")
    g.perform("shift", {"a": "F2", "b": "4M6", "back": []}, faces=[1, 1])
    first = g.todo(strict=True)[0]
    assert first.procedure == "fort" and first.open == {"occupant": ("H1",)}
    g.perform("fort", {"id": "F2", "occupant": "H1"})
    h1 = g.state.stack("H1")
    assert h1 is not None and h1.position == "pillbox"
    assert not [t for t in g.todo(strict=True) if "occupant" in t.open]
    g.perform("phase", {})
    refused(g, "fort", {"id": "F2", "occupant": "H1"}, [], "O'Leary 4.4", "right after a shift")


def test_3_3_3_todo_offers_the_partial_hip_shifts_as_taps(tmp_path: Path) -> None:
    """3.3.3: the HIP units of the other location need not come back, and part of a location's
    HIP things may shift alone: both are entries of todo (no typed move=/back=), each accepted;
    the first 3.3.3 example's one squad goes, the other stays HIP."""
    g = sample(tmp_path)
    goto(g, "PFPh")
    shifts = [t for t in g.todo(strict=True) if t.procedure == "shift"]
    stay = [t.request for t in shifts if t.request.get("back") == []]
    assert {"a": "4N3", "b": "4M6", "kind": "hip", "side": RU, "back": []} in stay
    (part,) = [t for t in shifts if t.open and t.request["b"] == "4O8"]
    assert part.request["a"] == "4M6" and part.open["move"] == (("r5",), ("r6",), ("F1",))
    for one in part.open["move"]:
        assert g.is_legal("shift", {**part.request, "move": one})
    g.perform("shift", {**part.request, "move": ("r5",)}, faces=[1, 1])
    where = {c.id: s.location for s in g.state.stacks for c in s.counters}
    assert where["r5"] == "4O8" and where["r6"] == "4M6"


def test_2_5_the_board_counts_this_phases_shifts_only(tmp_path: Path) -> None:
    """The board's heading says 'shifts this phase': two counted HIP shifts in the PFPh are not
    this phase's once the MPh begins (they add no +1 there, 2.5), and a window an 8+ closed
    in the PFPh closes nothing in the MPh (it listed 'Russian hip: 2, Russian hip: 1')."""
    g = sample(tmp_path)
    goto(g, "PFPh")
    g.perform("shift", {"a": "4M6", "b": "4O8"}, faces=[1, 1])
    g.perform("shift", {"a": "4M6", "b": "4O8"}, faces=[1, 2])
    g.perform("shift", {"a": "4M6", "b": "4O8"}, faces=[4, 4])  # 8 +2 -1 = 9: closes
    svg = RULESET.board_svg(g.state, RULESET.state_json(g.state)) or ""
    assert "shifts this phase: Russian hip: 2 · closed: Russian hip" in svg
    goto(g, "MPh")
    g.perform("shift", {"a": "4M6", "b": "4O8"}, faces=[1, 1])
    svg = RULESET.board_svg(g.state, RULESET.state_json(g.state)) or ""
    assert "shifts this phase: Russian hip: 1 · closed: none" in svg


def test_2_2_a_potential_dummy_stack_splits_only_by_moving_to_another_location(
    tmp_path: Path,
) -> None:
    """2.2: "The only potential dummy stacks are those ... created by splitting an already
    existing potential dummy stack ... by the movement of its components into two or more
    different locations". A part 'moved' to where it stands made a second potential dummy
    stack in 4P5 (and ended the start of the MPh); a part moving into a foxhole of its own
    location is a concealed stack; a part moving to another location stays one."""
    g = sample(tmp_path)
    goto(g, "MPh")
    refused(g, "move", {"stack": "P1", "to": "4P5", "counters": ["r3"]}, [], "O'Leary 2.2")
    assert not g.state.acted
    g.perform("move", {"stack": "P1", "to": "4P5", "counters": ["r3"], "position": "foxhole"})
    part = g.state.stack("P1b")
    assert part is not None and part.status.value == "concealed"
    g.perform("move", {"stack": "P1", "to": "4P6", "counters": ["r2"]})
    moved = g.state.stack("P1c")
    assert moved is not None and moved.status.value == "potential_dummy"
