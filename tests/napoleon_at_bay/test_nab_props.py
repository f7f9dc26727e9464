"""Napoleon At Bay's own properties: odds sum to 1, substitution keeps the map legal, never moves
a fixed force; these requests are refused. The generic properties (a refusal changes nothing,
replay and export -> import equal live play) are checked once for every ruleset in
tests/core/test_core_conformance.py, through the helpers of tests/conformance.py used here."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nab_helpers import force, grid, make, move, odds, play, scenario

from tests.conformance import check_game, try_perform
from tests.sizes import examples
from vedette.dice import SeededSource
from vedette.engine import Game, Store
from vedette.errors import VedetteError
from vedette.geometry.hexgrid import OffsetConvention

CONV = OffsetConvention()
CENTER = CONV.to_hex(6, 6)


def hid(col: int, row: int) -> str:
    return f"A{col:02d}{row:02d}"


NEAR = sorted(
    hid(*CONV.to_offset(h)) for h in CENTER.within(4) if h != CENTER and h.distance(CENTER) >= 2
)
TERRAIN = ["clear", "forest", "marsh", "lake", "rough"]


@st.composite
def situations(draw: st.DrawFn) -> tuple[Any, list[int], dict[str, Any]]:
    hexes = draw(st.lists(st.sampled_from(NEAR), min_size=0, max_size=8, unique=True))
    areas: dict[str, list[str]] = {}
    for h in draw(st.lists(st.sampled_from(NEAR), max_size=10, unique=True)):
        if h not in hexes and h not in ("A0504", "A0605"):
            areas.setdefault(draw(st.sampled_from(TERRAIN)), []).append(h)
    forces = [
        force("F1", "Fr", "A0504", infantry=2, cavalry=draw(st.integers(0, 3))),
        force("R1", "Ru", "A0606", vedettes=1, cavalry=draw(st.integers(0, 3))),
    ]
    taken = {"A0504", "A0606", "A0605"}
    for i, h in enumerate(hexes):
        if h in taken:
            continue
        hs = [h]
        if draw(st.booleans()):  # a two-hex force
            nb = [
                x
                for x in (
                    hid(*CONV.to_offset(n))
                    for n in CONV.to_hex(int(h[1:3]), int(h[3:5])).neighbors()
                )
                if x in NEAR and x not in taken | set(hexes)
            ]
            if nb:
                hs.append(draw(st.sampled_from(nb)))
        taken |= set(hs)
        side = draw(st.sampled_from(["Ru", "Ru", "Fr"]))
        forces.append(force(f"X{i}", side, *hs, infantry=1, fixed=draw(st.booleans())))
    faces = [draw(st.integers(0, 2**32))]  # the seed of the dice
    opts = {"variant": draw(st.sampled_from(["final", "draft"]))}
    return (forces, grid(areas=areas)), faces, opts


def _legal(state: Any) -> None:
    for h, ids in state.occupancy.items():
        fs = [state.pieces[i] for i in ids if state.is_force(state.pieces[i])]
        assert len(fs) <= state.config.forces_per_hex, h
        assert len({state.pieces[i].side for i in ids}) == 1, h
        assert state.map.passable(h)


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(situations())
def test_fixing_invariants(sit: tuple[Any, list[int], dict[str, Any]]) -> None:
    (forces, m), faces, opts = sit
    try:
        s = make(forces, m, **opts)
        s = move(s, "F1", "A0605")
    except VedetteError:
        return  # e.g. the moving force's way is blocked: nothing to check
    try:
        os_ = odds(s, moving="F1", contact="R1")
    except VedetteError:
        before = s
        try:
            play(s, "fix", source=SeededSource(faces[0]), moving="F1", contact="R1")
        except VedetteError:
            assert s == before
            return
        raise AssertionError("odds refused but fix accepted") from None
    for o in os_:
        assert sum((r.p for r in o.rows), Fraction(0)) == 1
    fixed_before = {p.id: p.hexes for p in s.pieces.values() if p.fixed}
    out, after = play(s, "fix", source=SeededSource(faces[0]), moving="F1", contact="R1")
    _legal(after)
    for pid, hexes in fixed_before.items():
        assert after.pieces[pid].hexes == hexes
    if out.details["result"] == "substitution":
        chosen = out.details["chosen"]
        assert os_[1].p(chosen) > 0
        assert after.pieces[chosen].hexes[0] == "A0606"
        assert set(after.pieces["R1"].hexes) & set(s.pieces[chosen].hexes)
    assert len(after.pieces) == len(s.pieces)


def test_these_requests_are_refused(tmp_path: Path) -> None:
    st_ = Store(tmp_path / "p.db")
    g = Game.create(
        st_,
        "p",
        "nab",
        scenario(
            [
                force("F1", "Fr", "A0504", infantry=2),
                force("R1", "Ru", "A0606", vedettes=1),
                force("R2", "Ru", "A0609", infantry=1),
            ]
        ),
        seed=3,
    )
    for proc, req in [
        ("fix", {"moving": "F1", "contact": "R1"}),
        ("move", {"force": "R1", "to": "A0607"}),
        ("move", {"force": "F1", "to": "A0606"}),
        ("end_combat", {}),
    ]:
        # try_perform: a refusal leaves state, log and dice unchanged
        assert try_perform(g, proc, req, "nab") is None, f"{proc} {req} was accepted"


def test_a_scripted_turn_replays(tmp_path: Path) -> None:
    st_ = Store(tmp_path / "r.db")
    from vedette.rules.napoleon_at_bay import RULESET

    g = Game.create(st_, "r", "nab", RULESET.scenario("sample"), seed=11)
    g.perform("move", {"force": "F1", "to": "W2020"})
    g.perform("fix", {"moving": "F1", "contact": "R1"})
    g.perform("end_movement", {})
    g.perform("end_combat", {})
    g.perform("move", {"force": "R3", "to": "W2723", "march": "force"})
    check_game(g, st_)
    g.undo()
    check_game(g, st_)
    assert g.state.phasing == "Ru" and g.state.turn == 1
