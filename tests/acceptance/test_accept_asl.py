"""Acceptance tests for Mike O'Leary's "Solitaire Play of ASL" (seed 001), written from the rule
text first: each case states what a player reading the article expects, with every number
computed by hand from the rule cited. vedette is driven as a user would drive it: the public
``Game`` API (a SQLite store, forced dice) and, for one round trip, the CLI.

Readings of damaged/unclear text follow the seeds README (the unlabelled 2.5 row is 11-12;
"worst TEM" is the lower TEM) and, where the text is silent, vedette's documented choices
(docs/rules/solitaire_asl.md, noted where a test relies on one).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from vedette.cli.main import main
from vedette.engine import Game, Store
from vedette.engine.referee import resign
from vedette.errors import GameError, RuleViolation, VedetteError
from vedette.rules.base import Outcome

RU, GE = "Russian", "German"


# -- helpers --------------------------------------------------------------------------------------
def new_game(
    tmp_path: Path,
    stacks: list[dict[str, Any]] | None = None,
    house_rules: dict[str, Any] | None = None,
    **scen: Any,
) -> Game:
    """A game from a scenario written here; stacks, fortifications, minefields and OBA modules
    default to the Russian side (first player)."""
    scenario: dict[str, Any] = {"name": "acceptance", "sides": [RU, GE], "first": RU, **scen}
    scenario["stacks"] = [{"side": RU, **s} for s in stacks or []]
    for k in ("fortifications", "minefields", "oba"):
        if k in scenario:
            scenario[k] = [{"side": RU, **x} for x in scenario[k]]
    store = Store(tmp_path / "asl.db")
    return Game.create(store, "g", "asl", scenario, seed=7, house_rules=house_rules)


def goto(g: Game, phase: str, side: str = RU) -> None:
    """Advance phase by phase until ``side``'s ``phase`` (the next one that comes)."""
    for _ in range(40):
        g.perform("phase", {})
        if g.state.phase == phase and g.state.phasing == side:
            return
    raise AssertionError(f"never reached {side} {phase}")


def shift(g: Game, faces: list[int], **req: Any) -> Outcome:
    return g.perform("shift", req, faces=faces)


def drm(out: Outcome) -> int:
    r = out.rolls[0]
    return int(r.final - r.natural)  # type: ignore[union-attr]


def applied(out: Outcome) -> list[int]:
    return sorted(m.value for m in out.rolls[0].modifiers)  # type: ignore[union-attr]


def refused(g: Game, rule: str, proc: str, req: dict[str, Any], faces: list[int]) -> None:
    """The request is refused with a one-line error naming ``rule``; the log is unchanged."""
    before = len(g.records)
    state = g.state
    with pytest.raises(VedetteError) as e:
        g.perform(proc, req, faces=faces)
    assert rule in str(e.value), str(e.value)
    assert "\n" not in str(e.value)
    assert len(g.records) == before and g.state == state


def sq(cid: str, name: str = "4-4-7", kind: str = "squad", **kw: Any) -> dict[str, Any]:
    return {"id": cid, "name": name, "kind": kind, **kw}


def pds(sid: str, loc: str, *counters: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return {
        "id": sid,
        "location": loc,
        "status": "potential_dummy",
        "counters": list(counters),
        **kw,
    }


def dummy(sid: str, loc: str, n: int, **kw: Any) -> dict[str, Any]:
    return {"id": sid, "location": loc, "status": "dummy", "dummies": n, **kw}


def hip(sid: str, loc: str, *counters: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return {"id": sid, "location": loc, "status": "hip", "counters": list(counters), **kw}


def dhip(sid: str, loc: str, **kw: Any) -> dict[str, Any]:
    return {"id": sid, "location": loc, "status": "dummy_hip", **kw}


def where(g: Game, sid: str) -> str | None:
    s = g.state.stack(sid)
    return None if s is None else str(s.location)


def status(g: Game, sid: str) -> str | None:
    s = g.state.stack(sid)
    return None if s is None else str(s.status.value)


# A standard pair: a one-squad PDS in 4A1 and a two-counter dummy stack in 4C1 (2.3.2: 1 < 2),
# a second such pair in 4E1/4G1, and a HIP squad with a dummy HIP counter (4A5, 4C5).
def std_game(tmp_path: Path, tem: int = 0, los: bool = False, **scen: Any) -> Game:
    locs = [{"id": x, "tem": tem, "los": los} for x in ("4A1", "4C1", "4E1", "4G1")]
    return new_game(
        tmp_path,
        [
            pds("P1", "4A1", sq("p1")),
            dummy("D1", "4C1", 2),
            pds("P2", "4E1", sq("p2")),
            dummy("D2", "4G1", 2),
            hip("H1", "4A5", sq("h1")),
            dhip("X1", "4C5"),
        ],
        locations=scen.pop("locations", locs),
        **scen,
    )


# == 2.3 timing ===================================================================================
def test_2_3_pds_shift_at_start_of_own_mph_and_aph(tmp_path: Path) -> None:
    """2.3: a PDS may try at the start of its MPh or at the start of its APh."""
    g = std_game(tmp_path)
    goto(g, "MPh")
    out = shift(g, [2, 2], a="P1", b="D1")
    assert out.rolls[0].row == "allowed"  # type: ignore[union-attr]
    assert (where(g, "P1"), where(g, "D1")) == ("4C1", "4A1")
    goto(g, "APh")
    shift(g, [2, 2], a="P2", b="D2")
    assert (where(g, "P2"), where(g, "D2")) == ("4G1", "4E1")


@pytest.mark.parametrize(
    ("phase", "side"),
    [("PFPh", RU), ("DFPh", RU), ("AFPh", RU), ("RtPh", RU), ("CCPh", RU), ("MPh", GE)],
)
def test_2_3_pds_shift_refused_outside_own_mph_aph(tmp_path: Path, phase: str, side: str) -> None:
    """2.3: not in any other phase, and not in the enemy's MPh (the Russian PDS in the German
    player turn)."""
    g = std_game(tmp_path)
    goto(g, phase, side)
    refused(g, "O'Leary 2.3", "shift", {"a": "P1", "b": "D1"}, [2, 2])


def test_2_3_pds_shift_refused_after_a_friendly_unit_moved(tmp_path: Path) -> None:
    """2.3: "provided no friendly unit has yet moved/advanced" — once one has, it is too late."""
    g = std_game(tmp_path)
    goto(g, "MPh")
    g.perform("act", {})
    refused(g, "O'Leary 2.3", "shift", {"a": "P1", "b": "D1"}, [2, 2])
    goto(g, "APh")  # a new phase: its start is open again
    g.perform("move", {"stack": "P2", "to": "4E2"})  # a friendly unit advances
    refused(g, "O'Leary 2.3", "shift", {"a": "P1", "b": "D1"}, [2, 2])


# == 3.3.2 / 3.3.5 HIP timing =====================================================================
@pytest.mark.parametrize(
    ("phase", "side"),
    [("PFPh", RU), ("MPh", RU), ("APh", RU), ("MPh", GE), ("DFPh", GE)],
)
def test_3_3_2_hip_shift_allowed(tmp_path: Path, phase: str, side: str) -> None:
    """3.3.2: own PFPh, MPh, APh; the enemy's MPh; own DFPh (which falls in the enemy player
    turn). "At any time": even after friendly units have moved."""
    g = std_game(tmp_path)
    goto(g, phase, side)
    g.perform("act", {})
    shift(g, [2, 2], a="H1", b="X1")
    assert where(g, "H1") == "4C5" and where(g, "X1") == "4A5"


@pytest.mark.parametrize(
    ("phase", "side"),
    [("DFPh", RU), ("AFPh", RU), ("RtPh", RU), ("CCPh", RU), ("PFPh", GE), ("APh", GE)],
)
def test_3_3_2_hip_shift_refused(tmp_path: Path, phase: str, side: str) -> None:
    """3.3.2: not in any other phase (e.g. own AFPh, RtPh, CCPh; the enemy's PFPh or APh).
    The Russian DFPh of the Russian player turn is the German's DFPh, not the Russian's."""
    g = std_game(tmp_path)
    goto(g, phase, side)
    refused(g, "O'Leary 3.3.2", "shift", {"a": "H1", "b": "X1"}, [2, 2])


def test_3_3_5_example_enemy_mph_and_own_dfph_are_one_phase(tmp_path: Path) -> None:
    """3.3.5 example: a HIP shift failed in the enemy's MPh: no other stack of that side may try
    until its upcoming PFPh (the enemy MPh and own DFPh count as one phase)."""
    g = new_game(
        tmp_path,
        [
            hip("H1", "4A1", sq("a", "6-6-6")),
            hip("H2", "4C1", sq("b", "5-3-6")),
            hip("H3", "4E1", sq("c", "4-4-7")),
            dhip("X1", "4G1"),
        ],
    )
    goto(g, "MPh", GE)  # the Russians' enemy's MPh
    out = shift(g, [4, 5], a="H1", b="H2")  # 9 - 1 (both HIP) = 8: refused, closes
    assert out.rolls[0].final == 8 and out.rolls[0].row == "refused"  # type: ignore[union-attr]
    assert where(g, "H1") == "4A1" and status(g, "H1") == "hip"
    refused(g, "O'Leary 3.3.5", "shift", {"a": "H3", "b": "X1"}, [2, 2])
    goto(g, "DFPh", GE)  # the Russian DFPh: same "phase" for this purpose
    refused(g, "O'Leary 3.3.5", "shift", {"a": "H3", "b": "X1"}, [2, 2])
    goto(g, "PFPh", RU)  # the upcoming PFPh: open again, the failed stack may try again
    shift(g, [2, 2], a="H1", b="H2")
    assert where(g, "H1") == "4C1" and where(g, "H2") == "4A1"


def test_3_3_5_failed_hip_stack_tries_again_in_a_later_phase(tmp_path: Path) -> None:
    """3.3.5: a failed (not TI) HIP stack may try again in a later phase of that turn."""
    g = std_game(tmp_path)
    goto(g, "PFPh")
    shift(g, [4, 5], a="H1", b="X1")  # 9 - 1 = 8: refused, HIP closed for the PFPh
    refused(g, "O'Leary 2.5", "shift", {"a": "H1", "b": "X1"}, [2, 2])
    goto(g, "MPh")
    shift(g, [2, 2], a="H1", b="X1")
    assert where(g, "H1") == "4C5"


def test_3_3_5_merged_phase_is_for_retrying_only(tmp_path: Path) -> None:
    """3.3.5 merges the enemy MPh and own DFPh "for this purpose" (trying again after a failed
    shift); the +1 of 2.5 stays "in this phase": a HIP shift made in the enemy MPh adds no +1
    in the DFPh (vedette's reading, documented with 3.3.5)."""
    g = new_game(
        tmp_path,
        [hip("H1", "4A1", sq("a")), dhip("X1", "4C1"), dhip("X2", "4E1")],
        side=[{"name": RU, "hip_squads": 1}],
    )
    goto(g, "MPh", GE)
    assert drm(shift(g, [2, 2], a="H1", b="X1")) == -1
    assert drm(shift(g, [2, 2], a="H1", b="X2")) == 0  # same phase: +1
    goto(g, "DFPh", GE)
    assert drm(shift(g, [2, 2], a="H1", b="X1")) == -1


# == 5.1 cloaked timing ===========================================================================
def night_game(tmp_path: Path) -> Game:
    return new_game(
        tmp_path,
        [
            {"id": "C1", "location": "4A1", "status": "cloaked", "counters": [sq("c1")]},
            {"id": "C2", "location": "4C1", "status": "cloaked"},  # a dummy cloaking counter
            pds("P1", "4E1", sq("p1")),
            dummy("D1", "4G1", 2),
        ],
        night=True,
    )


@pytest.mark.parametrize("phase", ["MPh", "AFPh", "APh"])
def test_5_1_cloaked_shift_at_start_of_mph_afph_aph(tmp_path: Path, phase: str) -> None:
    """5.1: at the start of the unit's MPh, the side's AFPh, or the unit's APh. Night: -2
    (2.5), so 3+4 = 7 - 2 = 5: allowed."""
    g = night_game(tmp_path)
    goto(g, phase)
    out = shift(g, [3, 4], a="C1", b="C2")
    assert out.rolls[0].final == 5 and drm(out) == -2  # type: ignore[union-attr]
    assert where(g, "C1") == "4C1" and where(g, "C2") == "4A1"
    assert status(g, "C1") == "cloaked"


@pytest.mark.parametrize(("phase", "side"), [("PFPh", RU), ("DFPh", RU), ("MPh", GE)])
def test_5_1_cloaked_shift_refused_in_other_phases(tmp_path: Path, phase: str, side: str) -> None:
    g = night_game(tmp_path)
    goto(g, phase, side)
    refused(g, "O'Leary 5.1", "shift", {"a": "C1", "b": "C2"}, [2, 2])


def test_5_1_cloaked_shift_refused_once_the_phase_has_begun(tmp_path: Path) -> None:
    g = night_game(tmp_path)
    goto(g, "AFPh")
    g.perform("act", {})
    refused(g, "O'Leary 5.1", "shift", {"a": "C1", "b": "C2"}, [2, 2])


def test_5_1_cloaked_units_shift_only_under_another_cloaking_counter(tmp_path: Path) -> None:
    """5.1: "to any location beneath any other cloaking counter" — not with a dummy stack."""
    g = night_game(tmp_path)
    goto(g, "MPh")
    refused(g, "O'Leary 5.1", "shift", {"a": "C1", "b": "D1"}, [2, 2])


def lit_cloaked_game(tmp_path: Path) -> Game:
    """Night (-2), a cloaked squad in LOS of the enemy (+1) and a dummy cloaking counter, the
    scenario's shift DRM +3 (the 2.5 remark): in the Russian MPh."""
    g = new_game(
        tmp_path,
        [
            {"id": "C1", "location": "4A1", "status": "cloaked", "counters": [sq("c1")]},
            {"id": "C2", "location": "4C1", "status": "cloaked"},
        ],
        night=True,
        extra_drm=3,
        locations=[{"id": "4A1", "los": True}],
    )
    goto(g, "MPh")
    return g


def test_5_cloaked_rows_11_12_and_ge13(tmp_path: Path) -> None:
    """Night, DRM -2. 12 - 2 = 10: refused, closed, both still cloaked. Next phase, with LOS and
    the 2.5 remark's extra +3: 12 - 2 + 1 + 3 = 14 >= 13: the cloaked unit loses cloaking and is
    TI, the dummy cloaking counter is eliminated. (11-12 for cloaked units is not in the row's
    words: vedette's reading A10 keeps real cloaked units cloaked and removes the dummy.)"""
    g = night_game(tmp_path)
    goto(g, "MPh")
    out = shift(g, [6, 6], a="C1", b="C2")
    assert out.rolls[0].final == 10  # type: ignore[union-attr]
    assert (status(g, "C1"), status(g, "C2")) == ("cloaked", "cloaked")
    refused(g, "O'Leary 2.5", "shift", {"a": "C1", "b": "C2"}, [2, 2])
    g2 = lit_cloaked_game(tmp_path / "b")
    out = shift(g2, [6, 6], a="C1", b="C2")
    assert out.rolls[0].final == 14  # type: ignore[union-attr]
    c1 = g2.state.stack("C1")
    assert c1 is not None and c1.status.value == "revealed" and c1.ti
    assert g2.state.stack("C2") is None


def test_5_a_cloaked_11_12_says_its_reading_to_the_player_and_old_saves_import(
    tmp_path: Path,
) -> None:
    """11-12 on a cloaked shift (9 -2 night +1 LOS +3 scenario = 11): the row's words for
    cloaked units ended "(documented A10)", a note of the developers' page, not a player's
    words. The line says why (the row does not speak of cloaked units) and names the reading;
    a game saved with the old words (release 0.2) still imports, refereed again, and one whose
    row says anything else is refused."""
    g = lit_cloaked_game(tmp_path)
    out = shift(g, [4, 5], a="C1", b="C2")
    assert out.rolls[0].final == 11  # type: ignore[union-attr]
    said = "cloaked units stay cloaked, dummy cloaking counters are removed (the row does not"
    said += " speak of cloaked units: vedette's reading A10)"
    for text in (out.rolls[0].line(), out.message):
        assert said in text and "documented" not in text, text
    text = g.export_jsonl()
    old = resign(
        text.replace(
            "(the row does not speak of cloaked units: vedette's reading A10)", "(documented A10)"
        )
    )
    assert old.count("(documented A10)") >= 2  # the roll's line and the message
    kept = Game.import_jsonl(Store(tmp_path / "old.db"), old, "old")
    assert "(documented A10)" in kept.records[-1].payload["message"]
    wrong = resign(text.replace("vedette's reading A10", "vedette's reading A11"))
    with pytest.raises(GameError, match="rolls: "):
        Game.import_jsonl(Store(tmp_path / "wrong.db"), wrong, "wrong")


# == 2.3.1-2.3.4 counts, 3.3.1 ====================================================================
@pytest.mark.parametrize(("n_dummies", "ok"), [(3, False), (4, True), (5, True)])
def test_2_3_2_real_counters_strictly_fewer_than_dummies(
    tmp_path: Path, n_dummies: int, ok: bool
) -> None:
    """2.3.2 (and its example): 3 real counters (4-6-7, LMG, 8-1) need a dummy stack of at least
    4 concealment counters: 3 is refused (not strictly less), 4 and 5 are fine."""
    g = new_game(
        tmp_path,
        [
            pds("P1", "4A1", sq("a", "4-6-7"), sq("b", "LMG", "sw"), sq("c", "8-1", "leader")),
            dummy("D1", "4C1", n_dummies),
        ],
    )
    goto(g, "MPh")
    if ok:
        shift(g, [2, 2], a="P1", b="D1")
        assert where(g, "P1") == "4C1"
    else:
        refused(g, "O'Leary 2.3.2", "shift", {"a": "P1", "b": "D1"}, [2, 2])


@pytest.mark.parametrize(("n_b", "ok"), [(2, True), (1, False), (3, False)])
def test_2_3_3_two_pds_need_equal_real_counters(tmp_path: Path, n_b: int, ok: bool) -> None:
    g = new_game(
        tmp_path,
        [
            pds("P1", "4A1", sq("a1"), sq("a2")),
            pds("P2", "4C1", *[sq(f"b{i}") for i in range(n_b)]),
        ],
    )
    goto(g, "MPh")
    if ok:
        shift(g, [2, 2], a="P1", b="P2")
        assert (where(g, "P1"), where(g, "P2")) == ("4C1", "4A1")
    else:
        refused(g, "O'Leary 2.3.3", "shift", {"a": "P1", "b": "P2"}, [2, 2])


@pytest.mark.parametrize(("n_b", "ok"), [(3, True), (2, False), (4, False)])
def test_2_3_4_two_dummy_stacks_need_equal_counters(tmp_path: Path, n_b: int, ok: bool) -> None:
    g = new_game(tmp_path, [dummy("D1", "4A1", 3), dummy("D2", "4C1", n_b)])
    goto(g, "MPh")
    if ok:
        shift(g, [2, 2], a="D1", b="D2")
        assert (where(g, "D1"), where(g, "D2")) == ("4C1", "4A1")
    else:
        refused(g, "O'Leary 2.3.4", "shift", {"a": "D1", "b": "D2"}, [2, 2])


def test_2_3_1_only_complete_stacks(tmp_path: Path) -> None:
    """2.3.1: the entire stack in one location for a complete stack in the other."""
    g = new_game(
        tmp_path, [pds("P1", "4A1", sq("a1"), sq("a2", "8-1", "leader")), dummy("D1", "4C1", 3)]
    )
    goto(g, "MPh")
    refused(g, "O'Leary 2.3.1", "shift", {"a": "P1", "b": "D1", "move": ["a2"]}, [2, 2])


def test_3_3_1_hip_never_with_dummy_stacks_or_pds(tmp_path: Path) -> None:
    g = std_game(tmp_path)
    goto(g, "MPh")
    refused(g, "O'Leary 3.3.1", "shift", {"a": "H1", "b": "D1"}, [2, 2])
    refused(g, "O'Leary 3.3.1", "shift", {"a": "P1", "b": "X1"}, [2, 2])
    refused(g, "O'Leary 3.3.1", "shift", {"a": "X1", "b": "P1"}, [2, 2])


# == 2.5 DRMs =====================================================================================
def test_2_5_drm_enemy_los_either_location(tmp_path: Path) -> None:
    """+1 if either location is in the LOS of an enemy unit (only once for both)."""
    g = new_game(
        tmp_path,
        [pds("P1", "4A1", sq("a")), dummy("D1", "4C1", 2)],
        locations=[{"id": "4A1", "los": True}, {"id": "4C1", "los": True}],
    )
    goto(g, "MPh")
    assert drm(shift(g, [3, 3], a="P1", b="D1")) == 1


def test_2_5_drm_worst_tem_sign_reversed(tmp_path: Path) -> None:
    """-TEM: the worst (lower, seeds README) of the two TEMs with sign reversed: stone building
    +3 and woods +1 give -1."""
    g = new_game(
        tmp_path,
        [pds("P1", "4A1", sq("a")), dummy("D1", "4C1", 2)],
        locations=[{"id": "4A1", "tem": 3}, {"id": "4C1", "tem": 1}],
    )
    goto(g, "MPh")
    assert drm(shift(g, [3, 3], a="P1", b="D1")) == -1


def test_2_5_drm_both_hip(tmp_path: Path) -> None:
    """-1 if both stacks are HIP: a HIP squad with a dummy HIP counter, nothing else."""
    g = std_game(tmp_path)
    goto(g, "MPh")
    assert drm(shift(g, [3, 3], a="H1", b="X1")) == -1


def test_2_5_drm_lv_hindrance(tmp_path: Path) -> None:
    g = std_game(tmp_path, lv=True)
    goto(g, "MPh")
    assert drm(shift(g, [3, 3], a="P1", b="D1")) == -1


def test_2_5_drm_night(tmp_path: Path) -> None:
    """-2 at night, for every shift (here a PDS with a dummy stack)."""
    g = std_game(tmp_path, night=True)
    goto(g, "MPh")
    assert drm(shift(g, [3, 3], a="P1", b="D1")) == -2


def test_2_5_drm_emplaced_gun(tmp_path: Path) -> None:
    """-1 if either stack contains an emplaced Gun (a small Gun: starred 0)."""
    g = new_game(
        tmp_path,
        [
            pds("P1", "4A1", sq("g", "45L AT", "gun", size="small", emplaced=True)),
            dummy("D1", "4C1", 2),
        ],
    )
    goto(g, "MPh")
    assert drm(shift(g, [3, 3], a="P1", b="D1")) == -1


@pytest.mark.parametrize(
    ("kind", "size", "value"),
    [
        ("gun", "small", 0),
        ("gun", "normal", 1),
        ("gun", "large", 2),
        ("vehicle", "very_small", 0),
        ("vehicle", "small", 1),
        ("vehicle", "normal", 2),
        ("vehicle", "large", 3),
        ("vehicle", "very_large", 4),
    ],
)
def test_2_5_starred_drm_each_size(tmp_path: Path, kind: str, size: str, value: int) -> None:
    """The starred DRMs: small Guns / very small vehicles 0, normal Guns / small vehicles +1,
    large Guns / normal vehicles +2, large vehicles +3, very large vehicles +4."""
    g = new_game(
        tmp_path,
        [pds("P1", "4A1", sq("x", "X", kind, size=size)), dummy("D1", "4C1", 2)],
    )
    goto(g, "MPh")
    assert drm(shift(g, [3, 3], a="P1", b="D1")) == value


def test_2_5_starred_infantry_and_fortification_zero(tmp_path: Path) -> None:
    """Infantry and fortifications: starred 0. A hidden pillbox (TEM stated 0 here: its TEM is
    not used when it shifts, 4.3) with a dummy HIP counter: only -1 for both HIP."""
    g = new_game(
        tmp_path,
        [dhip("X1", "4C1")],
        fortifications=[{"id": "F1", "kind": "pillbox", "location": "4A1", "tem": 5}],
    )
    goto(g, "MPh")
    assert drm(shift(g, [3, 3], a="F1", b="X1")) == -1


def test_2_5_all_drms_combined_only_largest_starred(tmp_path: Path) -> None:
    """Cumulative DRMs with two starred ones: night -2, LV -1, enemy LOS +1, worst TEM (woods
    +1) -1, emplaced Gun -1, normal Gun +1 and large vehicle +3 -> only +3; one previous shift
    this phase +1. Total -2 - 1 + 1 - 1 - 1 + 3 + 1 = 0."""
    g = new_game(
        tmp_path,
        [
            pds(
                "P1",
                "4A1",
                sq("g", "76 INF", "gun", size="normal", emplaced=True),
                sq("c", "2-2-8", "crew"),
            ),
            pds("P2", "4C1", sq("v", "KV-2", "vehicle", size="large"), sq("l", "8-0", "leader")),
            pds("P3", "4E1", sq("p3")),
            dummy("D3", "4G1", 2),
        ],
        locations=[
            {"id": "4A1", "tem": 3, "los": True},
            {"id": "4C1", "tem": 1},
            {"id": "4E1", "tem": 0},
            {"id": "4G1", "tem": 0},
        ],
        night=True,
        lv=True,
    )
    goto(g, "MPh")
    first = shift(g, [1, 1], a="P3", b="D3")  # 2 - 2 (night) - 1 (LV) = -1: allowed, not counted
    assert first.rolls[0].final == -1  # type: ignore[union-attr]
    out = shift(g, [1, 1], a="P1", b="P2", emplaced=["g"])
    # the <= 0 shift before adds no +1 (2.5 table): -2 -1 +1 -1 -1 +3 = -1
    assert drm(out) == -1
    assert sorted(m.value for m in out.rolls[0].superseded) == [1]  # type: ignore[union-attr]
    assert applied(out) == [-2, -1, -1, -1, 1, 3]


def test_2_5_plus_one_per_previous_shift_and_le0_exception(tmp_path: Path) -> None:
    """+1 for each previous shift of that side this phase; a shift made on a final DR <= 0 does
    not incur it. TEM 2 everywhere (-2)."""
    g = new_game(
        tmp_path,
        [pds(f"P{i}", f"4{c}1", sq(f"p{i}")) for i, c in enumerate("ACE")]
        + [dummy(f"D{i}", f"4{c}3", 2) for i, c in enumerate("ACE")],
        locations=[{"id": f"4{c}{r}", "tem": 2} for c in "ACE" for r in (1, 3)],
    )
    goto(g, "MPh")
    o0 = shift(g, [1, 1], a="P0", b="D0")  # 2 - 2 = 0: allowed, no +1 later
    assert (o0.rolls[0].final, o0.rolls[0].row) == (0, "free")  # type: ignore[union-attr]
    o1 = shift(g, [2, 2], a="P1", b="D1")  # 4 - 2 = 2: allowed, counts
    assert drm(o1) == -2
    o2 = shift(g, [2, 2], a="P2", b="D2")  # 4 - 2 + 1 = 3
    assert drm(o2) == -1
    assert g.state.stack("P2").location == "4E3"  # type: ignore[union-attr]


def test_2_5_previous_shifts_do_not_carry_into_the_next_phase(tmp_path: Path) -> None:
    g = std_game(tmp_path)
    goto(g, "MPh")
    shift(g, [2, 2], a="P1", b="D1")
    goto(g, "APh")
    assert drm(shift(g, [2, 2], a="P2", b="D2")) == 0


def test_2_5_remark_scenario_extra_drm(tmp_path: Path) -> None:
    """2.5 remark: an extra -1 or -2 on every shift DR at the player's discretion."""
    g = std_game(tmp_path, extra_drm=-2)
    goto(g, "MPh")
    assert drm(shift(g, [3, 3], a="P1", b="D1")) == -2


# == 2.5 consequence rows =========================================================================
# TEM 2 everywhere: DRM -2. LOS: +1 (DRM -1). Natural 2..12.
@pytest.mark.parametrize(
    ("tem", "los", "faces", "final"),
    [(2, False, [1, 1], 0), (2, False, [1, 2], 1), (0, False, [3, 4], 7)],
)
def test_2_5_rows_le0_and_1_7_shift_allowed(
    tmp_path: Path, tem: int, los: bool, faces: list[int], final: int
) -> None:
    """<= 0 and 1-7: the shift is made, both stay concealed and the phase stays open; only 1-7
    bears the +1 on later shifts."""
    g = std_game(tmp_path, tem=tem, los=los)
    goto(g, "MPh")
    out = shift(g, faces, a="P1", b="D1")
    assert out.rolls[0].final == final  # type: ignore[union-attr]
    assert (where(g, "P1"), where(g, "D1")) == ("4C1", "4A1")
    assert (status(g, "P1"), status(g, "D1")) == ("potential_dummy", "dummy")
    later = shift(g, [3, 3], a="P2", b="D2")
    assert drm(later) == -tem + (0 if final <= 0 else 1)


@pytest.mark.parametrize(("faces", "final"), [([4, 4], 8), ([4, 6], 10)])
def test_2_5_rows_8_10_refused_phase_closed_both_unchanged(
    tmp_path: Path, faces: list[int], final: int
) -> None:
    """8-10: not exchanged; no other unit may shift this phase; both remain concealed and keep
    their status. HIP shifting is a distinct operation and stays open (3.3.4)."""
    g = std_game(tmp_path)
    goto(g, "MPh")
    out = shift(g, faces, a="P1", b="D1")
    assert out.rolls[0].final == final  # type: ignore[union-attr]
    assert (where(g, "P1"), where(g, "D1")) == ("4A1", "4C1")
    assert (status(g, "P1"), status(g, "D1")) == ("potential_dummy", "dummy")
    refused(g, "O'Leary 2.5", "shift", {"a": "P2", "b": "D2"}, [2, 2])
    shift(g, [2, 2], a="H1", b="X1")  # 3.3.4
    assert where(g, "H1") == "4C5"
    goto(g, "APh")  # another phase: open again
    shift(g, [2, 2], a="P2", b="D2")
    assert where(g, "P2") == "4G1"


@pytest.mark.parametrize(("faces", "final"), [([5, 6], 11), ([6, 6], 12)])
def test_2_5_rows_11_12_pds_keeps_concealment_dummy_eliminated(
    tmp_path: Path, faces: list[int], final: int
) -> None:
    """11-12 (the unlabelled row): not exchanged, phase closed; the PDS keeps its "?" but is no
    longer a potential dummy stack; the dummy stack is eliminated."""
    g = std_game(tmp_path)
    goto(g, "MPh")
    out = shift(g, faces, a="P1", b="D1")
    assert (out.rolls[0].final, out.rolls[0].range_text) == (final, "11-12")  # type: ignore[union-attr]
    assert g.state.stack("D1") is None
    p1 = g.state.stack("P1")
    assert p1 is not None and p1.location == "4A1" and p1.status.value == "concealed"
    assert not p1.ti
    refused(g, "O'Leary 2.5", "shift", {"a": "P2", "b": "D2"}, [2, 2])


def test_2_5_row_11_12_two_pds_both_lose_status(tmp_path: Path) -> None:
    g = new_game(tmp_path, [pds("P1", "4A1", sq("a")), pds("P2", "4C1", sq("b"))])
    goto(g, "MPh")
    shift(g, [5, 6], a="P1", b="P2")
    assert (status(g, "P1"), status(g, "P2")) == ("concealed", "concealed")
    assert (where(g, "P1"), where(g, "P2")) == ("4A1", "4C1")


@pytest.mark.parametrize(("faces", "los", "final"), [([6, 6], True, 13), ([6, 6], False, 12)])
def test_2_5_row_ge13_revealed_and_ti(
    tmp_path: Path, faces: list[int], los: bool, final: int
) -> None:
    """>= 13: both lose concealment, dummies eliminated, both TI for the rest of the player
    turn. 12 + 1 (LOS) = 13 is the row's lowest figure; 12 alone stays in 11-12."""
    g = new_game(
        tmp_path,
        [pds("P1", "4A1", sq("a")), pds("P2", "4C1", sq("b")), dummy("D1", "4E1", 2)],
        locations=[{"id": "4A1", "los": los}],
    )
    goto(g, "MPh")
    out = shift(g, faces, a="P1", b="P2")
    assert out.rolls[0].final == final  # type: ignore[union-attr]
    p1, p2 = g.state.stack("P1"), g.state.stack("P2")
    assert p1 is not None and p2 is not None
    if final >= 13:
        assert (p1.status.value, p2.status.value) == ("revealed", "revealed")
        assert p1.ti and p2.ti
    else:
        assert (p1.status.value, p2.status.value) == ("concealed", "concealed")
        assert not p1.ti and not p2.ti


def test_2_5_row_ge13_dummy_eliminated_ti_until_end_of_player_turn(tmp_path: Path) -> None:
    g = std_game(tmp_path, los=True)
    goto(g, "MPh")
    shift(g, [6, 6], a="P1", b="D1")  # 12 + 1 = 13
    assert g.state.stack("D1") is None
    p1 = g.state.stack("P1")
    assert p1 is not None and p1.status.value == "revealed" and p1.ti
    goto(g, "CCPh")  # still the Russian player turn
    assert g.state.stack("P1").ti  # type: ignore[union-attr]
    goto(g, "PFPh", GE)  # the next player turn
    assert not g.state.stack("P1").ti  # type: ignore[union-attr]


def test_2_5_hip_rows_11_12_and_ge13(tmp_path: Path) -> None:
    """On the same table for HIP: 11-12 the HIP unit loses HIP but keeps concealment, the dummy
    HIP counter is eliminated; >= 13 a HIP unit loses HIP and concealment and becomes TI."""
    g = new_game(
        tmp_path,
        [
            hip("H1", "4A1", sq("a")),
            dhip("X1", "4C1"),
            hip("H2", "4E1", sq("b")),
            hip("H3", "4G1", sq("c")),
        ],
        locations=[{"id": "4E1", "los": True}],
    )
    goto(g, "MPh")
    out = shift(g, [6, 6], a="H1", b="X1")  # 12 - 1 (both HIP) = 11
    assert out.rolls[0].final == 11  # type: ignore[union-attr]
    assert g.state.stack("X1") is None
    units = [s for s in g.state.stacks if any(c.id == "a" for c in s.counters)]
    assert len(units) == 1 and units[0].status.value == "concealed"
    assert units[0].location == "4A1" and not units[0].ti
    goto(g, "APh")
    out = shift(g, [6, 6], a="H2", b="H3")  # 12 - 1 + 1 (LOS) = 12: still 11-12
    assert out.rolls[0].final == 12  # type: ignore[union-attr]
    # a fresh pair for the >= 13 row needs +2 more: extra DRM via house-free scenario value
    g2 = new_game(
        tmp_path / "b",
        [hip("H1", "4A1", sq("a")), hip("H2", "4C1", sq("b"))],
        locations=[{"id": "4A1", "los": True}],
        extra_drm=1,
    )
    goto(g2, "MPh")
    out = shift(g2, [6, 6], a="H1", b="H2")  # 12 - 1 + 1 + 1 = 13
    assert out.rolls[0].final == 13  # type: ignore[union-attr]
    for cid in ("a", "b"):
        s = next(s for s in g2.state.stacks if any(c.id == cid for c in s.counters))
        assert s.status.value == "revealed" and s.ti


def test_2_5_odds_are_exact(tmp_path: Path) -> None:
    """DRM 0 (2.5 first example: -1 woods +1 LOS): P(allowed) = P(2d6 <= 7) = 21/36 = 7/12;
    8-10: 12/36 = 1/3; 11-12: 3/36 = 1/12; <= 0 and >= 13 impossible."""
    g = std_game(
        tmp_path,
        locations=[{"id": "4A1", "tem": 3, "los": True}, {"id": "4C1", "tem": 1}],
    )
    goto(g, "MPh")
    o = g.odds("shift", {"a": "P1", "b": "D1"})[0]
    assert o.p("allowed") == Fraction(7, 12)
    assert o.p("refused") == Fraction(1, 3)
    assert o.p("exposed") == Fraction(1, 12)
    assert o.p("free") == 0 and o.p("revealed") == 0


def test_2_5_row_11_12_two_dummy_stacks_both_eliminated(tmp_path: Path) -> None:
    """11-12: "dummy stacks are eliminated" — both, when two dummy stacks try (2.3.4)."""
    g = new_game(tmp_path, [dummy("D1", "4A1", 2), dummy("D2", "4C1", 2)])
    goto(g, "MPh")
    shift(g, [5, 6], a="D1", b="D2")
    assert g.state.stack("D1") is None and g.state.stack("D2") is None


def test_3_3_4_hip_closure_does_not_close_dummy_shifting(tmp_path: Path) -> None:
    """3.3.4, the other way round: a failed HIP shift does not stop dummy stacks shifting."""
    g = std_game(tmp_path)
    goto(g, "MPh")
    shift(g, [4, 5], a="H1", b="X1")  # 9 - 1 = 8
    shift(g, [2, 2], a="P1", b="D1")
    assert where(g, "P1") == "4C1"


def test_4_5_fortification_tem_only_when_it_stays(tmp_path: Path) -> None:
    """4.5: a HIP squad in a hidden pillbox (TEM 5) in woods (TEM 1) with a dummy HIP counter in
    a wooden building (TEM 2). Both shift together: the pillbox TEM is not used, worst TEM is the
    woods' 1 (-1). The squad alone, leaving the pillbox behind: its pillbox TEM 5 may count, the
    worst is then the building's 2 (-2). Plus -1 both HIP each time."""

    def make(sub: Path) -> Game:
        g = new_game(
            sub,
            [hip("H1", "4A1", sq("s"), position="pillbox"), dhip("X1", "4C1")],
            fortifications=[{"id": "F1", "kind": "pillbox", "location": "4A1", "tem": 5}],
            locations=[
                {"id": "4A1", "terrain": "woods", "tem": 1},
                {"id": "4C1", "terrain": "wooden building", "tem": 2},
            ],
        )
        goto(g, "MPh")
        return g

    g = make(tmp_path / "a")
    out = shift(g, [2, 3], a="4A1", b="X1")
    assert drm(out) == -2
    assert g.state.fortification("F1").location == "4C1"  # type: ignore[union-attr]
    assert _stack_of(g, "s").location == "4C1"
    g2 = make(tmp_path / "b")
    out = shift(g2, [2, 3], a="4A1", b="X1", move=["s"])
    assert drm(out) == -3
    assert g2.state.fortification("F1").location == "4A1"  # type: ignore[union-attr]


def test_legal_query_lists_shift_with_exact_chance(tmp_path: Path) -> None:
    """At the start of the MPh with DRM 0: P(final <= 7) = 21/36 = 7/12 for P1 <-> D1; HIP
    H1 <-> X1 has DRM -1 (both HIP): P(2d6 <= 8) = 26/36 = 13/18."""
    g = std_game(tmp_path)
    goto(g, "MPh")
    out = g.perform("legal", {"side": RU})
    rows = {(r["a"], r["b"]): r for r in out.details["legal"]}
    assert rows[("P1", "D1")]["p_allowed"] == "7/12"
    hip_rows = [r for r in out.details["legal"] if r["kind"] == "hip"]
    assert hip_rows and hip_rows[0]["p_allowed"] == "13/18"


def test_2_2_split_and_merge(tmp_path: Path) -> None:
    """2.2: splitting a PDS by movement gives two PDS; PDS in the same location and position
    merge at the end of their side's CCPh (not before)."""
    g = new_game(tmp_path, [pds("P1", "4A1", sq("a"), sq("b"))])
    goto(g, "MPh")
    g.perform("move", {"stack": "P1", "to": "4A2", "counters": ["b"]})
    other = next(s for s in g.state.stacks if s.id != "P1")
    assert other.status.value == "potential_dummy" and status(g, "P1") == "potential_dummy"
    g.perform("move", {"stack": other.id, "to": "4A1"})
    refused(g, "O'Leary 2.2", "merge", {"a": "P1", "b": other.id}, [])
    goto(g, "CCPh")
    g.perform("merge", {"a": "P1", "b": other.id})
    assert len(g.state.stacks) == 1 and g.state.stacks[0].real == 2


def test_2_4_2_stacks_in_two_locations_shift_as_one(tmp_path: Path) -> None:
    """2.4.2: a mortar crew and its spotter (two PDS) shift with as many dummy stacks on one DR:
    both pairs swap; it is one shift for the +1 of later shifts."""
    g2 = new_game(
        tmp_path,
        [
            pds("P1", "4A1", sq("m", "2-2-8", "crew")),
            dummy("D1", "4C1", 2),
            pds("P2", "4A2", sq("s", "8-0", "leader")),
            dummy("D2", "4C2", 2),
            pds("P3", "4E1", sq("x")),
            dummy("D3", "4G1", 2),
        ],
    )
    goto(g2, "MPh")
    out = shift(g2, [2, 3], a="P1", b="D1", also=[["P2", "D2"]])
    assert len(out.rolls) == 1
    assert (where(g2, "P1"), where(g2, "P2")) == ("4C1", "4C2")
    assert (where(g2, "D1"), where(g2, "D2")) == ("4A1", "4A2")
    assert drm(shift(g2, [2, 2], a="P3", b="D3")) == 1


def test_2_5_plus_one_counts_hip_shifts_among_hip_shifts(tmp_path: Path) -> None:
    """+1 per previous shift (here of HIP units, 3.3): the third HIP shift this phase has +2,
    with -1 both HIP: +1."""
    g = new_game(
        tmp_path,
        [hip("H1", "4A1", sq("a")), dhip("X1", "4C1"), dhip("X2", "4E1"), dhip("X3", "4G1")],
        side=[{"name": RU, "hip_squads": 2}],
    )
    goto(g, "MPh")
    assert drm(shift(g, [2, 2], a="H1", b="X1")) == -1
    assert drm(shift(g, [2, 2], a="H1", b="X2")) == 0
    assert drm(shift(g, [2, 2], a="H1", b="X3")) == 1
    assert _stack_of(g, "a").location == "4G1"  # 4A1 -> 4C1 -> 4E1 -> 4G1


def test_2_3_gun_emplaced_after_shift_only_if_allowed_at_start(tmp_path: Path) -> None:
    g = new_game(
        tmp_path,
        [
            pds("P1", "4A1", sq("g1", "45L AT", "gun", size="small", may_emplace=True)),
            dummy("D1", "4C1", 2),
            pds("P2", "4E1", sq("g2", "45L AT", "gun", size="small")),
            dummy("D2", "4G1", 2),
        ],
    )
    goto(g, "MPh")
    refused(g, "O'Leary 2.3", "shift", {"a": "P2", "b": "D2", "emplaced": ["g2"]}, [2, 2])
    shift(g, [2, 2], a="P1", b="D1", emplaced=["g1"], settings={"g1": "CA hexspine 2/3"})
    c = g.state.counter("g1")
    assert c is not None and c[1].emplaced and c[0].location == "4C1"


# == 2.5 worked examples ==========================================================================
SQUAD_LMG_LEADER = [sq("a1", "4-6-7"), sq("a2", "LMG", "sw"), sq("a3", "8-1", "leader")]


def test_2_5_example_1(tmp_path: Path) -> None:
    """Stone building in enemy LOS, 4-6-7 + LMG + 8-1, with a 4-counter dummy stack in woods:
    DR 7, -1 (woods) +1 (LOS) = 7: shift made, further shifts may follow this MPh."""
    g = new_game(
        tmp_path,
        [
            pds("P1", "4P5", *SQUAD_LMG_LEADER),
            dummy("D1", "4Q6", 4),
            pds("P2", "4A1", sq("x")),
            dummy("D2", "4C1", 2),
        ],
        locations=[
            {"id": "4P5", "terrain": "stone building", "tem": 3, "los": True},
            {"id": "4Q6", "terrain": "woods", "tem": 1},
        ],
    )
    goto(g, "MPh")
    out = shift(g, [3, 4], a="P1", b="D1")
    assert (out.rolls[0].natural, out.rolls[0].final) == (7, 7)  # type: ignore[union-attr]
    assert applied(out) == [-1, 1]
    assert (where(g, "P1"), where(g, "D1")) == ("4Q6", "4P5")
    assert drm(shift(g, [2, 2], a="P2", b="D2")) == 1  # may follow, with +1


def _example_2(tmp_path: Path, previous: int) -> tuple[Game, Outcome]:
    stacks = [
        pds(
            "P1",
            "4P5",
            sq("b1", "6-2-8"),
            sq("b2", "2-4-7", "hs"),
            sq("b3", "1-4-9", "hero"),
            sq("b4", "10-0", "leader"),
        ),
        dummy("D1", "4R4", 5),
    ]
    for i in range(previous):
        stacks += [pds(f"Q{i}", f"4A{i + 1}", sq(f"q{i}")), dummy(f"E{i}", f"4C{i + 1}", 2)]
    g = new_game(
        tmp_path,
        stacks,
        locations=[
            {"id": "4P5", "terrain": "woods", "tem": 1},
            {"id": "4R4", "terrain": "open ground", "tem": 0, "los": True},
        ],
    )
    goto(g, "APh")
    for i in range(previous):
        shift(g, [2, 2], a=f"Q{i}", b=f"E{i}")
    return g, shift(g, [5, 6], a="P1", b="D1")


def test_2_5_example_2_final_12(tmp_path: Path) -> None:
    """Woods (TEM 1) and open ground (TEM 0) in LOS: DR 11 + 1 = 12 (worst TEM is 0): not
    exchanged, dummy eliminated, the other keeps concealment but loses PDS status; no more
    shifts this APh."""
    g, out = _example_2(tmp_path, 0)
    assert (out.rolls[0].natural, out.rolls[0].final) == (11, 12)  # type: ignore[union-attr]
    assert g.state.stack("D1") is None
    assert status(g, "P1") == "concealed" and where(g, "P1") == "4P5"
    assert not g.state.stack("P1").ti  # type: ignore[union-attr]


def test_2_5_example_2_after_two_shifts_final_14(tmp_path: Path) -> None:
    """Two pairs already shifted this APh: +2, final 14: dummy eliminated, the other loses
    concealment and PDS status and becomes TI."""
    g, out = _example_2(tmp_path, 2)
    assert out.rolls[0].final == 14  # type: ignore[union-attr]
    assert g.state.stack("D1") is None
    p1 = g.state.stack("P1")
    assert p1 is not None and p1.status.value == "revealed" and p1.ti


def test_2_5_example_3_pillbox_and_cave(tmp_path: Path) -> None:
    """4-4-8 in a 1+5+7 pillbox with a 2-counter dummy stack in a 1+4+6 cave, no LOS: DRM -4
    (the cave's TEM, worst), DR 3 -> -1: allowed, and not counted for later +1."""
    g = new_game(
        tmp_path,
        [
            pds("P1", "4A1", sq("x", "4-4-8"), position="pillbox"),
            dummy("D1", "4C1", 2, position="cave"),
            pds("P2", "4E1", sq("y")),
            dummy("D2", "4G1", 2),
        ],
        fortifications=[
            {"id": "F1", "kind": "pillbox", "location": "4A1", "tem": 5, "hidden": False},
            {"id": "F2", "kind": "cave", "location": "4C1", "tem": 4, "hidden": False},
        ],
    )
    goto(g, "MPh")
    out = shift(g, [1, 2], a="P1", b="D1")
    assert (drm(out), out.rolls[0].final) == (-4, -1)  # type: ignore[union-attr]
    assert where(g, "P1") == "4C1"
    assert drm(shift(g, [2, 2], a="P2", b="D2")) == 0


def test_2_5_example_4_halftrack_and_tiger(tmp_path: Path) -> None:
    """SPW 250/1 (small vehicle +1) and Tiger (large +3), both in woods, no LOS: +2 = -1 + 3,
    the +1 superseded."""
    g = new_game(
        tmp_path,
        [
            pds("P1", "4A1", sq("h", "SPW 250/1", "vehicle", size="small")),
            pds("P2", "4C1", sq("t", "PzKpfw VIE", "vehicle", size="large")),
        ],
        locations=[{"id": "4A1", "tem": 1}, {"id": "4C1", "tem": 1}],
    )
    goto(g, "MPh")
    out = shift(g, [3, 3], a="P1", b="P2")
    assert drm(out) == 2
    assert applied(out) == [-1, 3]
    assert [m.value for m in out.rolls[0].superseded] == [1]  # type: ignore[union-attr]


# == 2.3 / 2.4 worked examples ====================================================================
def test_2_3_example_crest_and_foxhole(tmp_path: Path) -> None:
    """4-6-7 in crest status in a gully shifts with a 5-4-8 in a foxhole: the 5-4-8 takes crest
    status, the 4-6-7 the foxhole (the 5-4-8 had claimed it)."""
    g = new_game(
        tmp_path,
        [
            pds("P1", "4A1", sq("a", "4-6-7"), position="crest"),
            pds("P2", "4C1", sq("b", "5-4-8"), position="foxhole"),
        ],
    )
    goto(g, "MPh")
    refused(g, "O'Leary 2.3", "shift", {"a": "P1", "b": "P2", "positions": {"P2": ""}}, [2, 2])
    shift(g, [2, 2], a="P1", b="P2")
    p1, p2 = g.state.stack("P1"), g.state.stack("P2")
    assert p1 is not None and p2 is not None
    assert (p1.location, p1.position) == ("4C1", "foxhole")
    assert (p2.location, p2.position) == ("4A1", "crest")


@pytest.mark.parametrize(("mp_used", "ok"), [(10, True), (11, False)])
def test_2_4_example_bt7_and_t35(tmp_path: Path, mp_used: int, ok: bool) -> None:
    """BT-7 (23 MP) and T-35 (10 MP): once the BT-7 has used more than 10 MP, no exchange."""
    g = new_game(
        tmp_path,
        [
            pds("P1", "4A1", sq("bt", "BT-7", "vehicle", size="small", mp=23)),
            pds("P2", "4C1", sq("tt", "T-35", "vehicle", size="large", mp=10)),
        ],
    )
    goto(g, "MPh")
    g.perform("move", {"stack": "P1", "to": "4A2", "mp": mp_used})
    goto(g, "MPh")
    if ok:
        shift(g, [2, 2], a="P1", b="P2")
        assert where(g, "P1") == "4C1"
    else:
        refused(g, "O'Leary 2.4", "shift", {"a": "P1", "b": "P2"}, [2, 2])


@pytest.mark.parametrize(("los", "ok"), [(True, False), (False, True)])
def test_2_4_example_t34_into_open_ground(tmp_path: Path, los: bool, ok: bool) -> None:
    """T-34 in woods with a 2-counter dummy stack in open ground: refused if that location is in
    enemy LOS (a vehicle in OG in enemy LOS loses concealment at once)."""
    g = new_game(
        tmp_path,
        [pds("P1", "4A1", sq("t", "T-34", "vehicle", mp=17)), dummy("D1", "4C1", 2)],
        locations=[
            {"id": "4A1", "terrain": "woods", "tem": 1},
            {"id": "4C1", "terrain": "open ground", "concealment_terrain": False, "los": los},
        ],
    )
    goto(g, "MPh")
    if ok:
        shift(g, [2, 2], a="P1", b="D1")
        assert where(g, "P1") == "4C1"
    else:
        refused(g, "O'Leary 2.4", "shift", {"a": "P1", "b": "D1"}, [2, 2])


def test_2_3_pds_may_shift_with_itself(tmp_path: Path) -> None:
    """2.3: a PDS may attempt to exchange with itself (a vehicle re-chooses its TCA/CE-BU)."""
    g = new_game(tmp_path, [pds("P1", "4A1", sq("t", "T-34", "vehicle"))])
    goto(g, "MPh")
    out = shift(g, [3, 3], a="P1", settings={"t": "TCA 4, BU"})
    assert out.rolls[0].final == 8 or where(g, "P1") == "4A1"  # type: ignore[union-attr]
    assert where(g, "P1") == "4A1"


def test_2_3_boresight_eligibility_after_shift(tmp_path: Path) -> None:
    """2.3: bore-sight eligibility survives a successful shift only if neither stack changed
    location except by shifting: the dummy stack that moved conventionally costs it."""
    g = new_game(
        tmp_path,
        [
            pds("P1", "4A1", sq("w1", "HMG", "sw", boresight=True), sq("c1")),
            dummy("D1", "4C1", 3),
            pds("P2", "4E1", sq("w2", "MMG", "sw", boresight=True), sq("c2")),
            dummy("D2", "4G1", 3),
        ],
    )
    goto(g, "MPh")
    shift(g, [2, 2], a="P1", b="D1")
    w1 = g.state.counter("w1")
    assert w1 is not None and w1[1].boresight == "eligible"
    goto(g, "APh")
    g.perform("move", {"stack": "D2", "to": "4G2"})
    goto(g, "MPh")
    shift(g, [2, 2], a="P2", b="D2")
    w2 = g.state.counter("w2")
    assert w2 is not None and w2[1].boresight == "lost"


# == 3.1.1, 4.1, 4.6.1 set-up allotments ==========================================================
def test_3_1_1_five_hip_squads_six_dummies(tmp_path: Path) -> None:
    g = new_game(tmp_path, side=[{"name": RU, "hip_squads": 5}])
    assert g.state.allotment(RU).dummy_hip == 6
    g2 = new_game(tmp_path / "b", [hip("H1", "4A1", *[sq(f"s{i}") for i in range(5)])])
    assert g2.state.allotment(RU).dummy_hip == 6


def test_3_1_1_hip_at_gun_two_dummies_and_placement_limit(tmp_path: Path) -> None:
    """A HIP AT gun and nothing else: two dummy HIP counters (three locations in all). A third
    one may not be placed."""
    g = new_game(
        tmp_path,
        [hip("H1", "4A1", sq("g", "57L AT", "gun", size="small"), sq("c", "2-2-8", "crew"))],
    )
    assert g.state.allotment(RU).dummy_hip == 2
    g.perform("place", {"kind": "dummy_hip", "side": RU, "location": "4C1"})
    g.perform("place", {"kind": "dummy_hip", "side": RU, "location": "4E1"})
    refused(g, "O'Leary 3.1.1", "place", {"kind": "dummy_hip", "side": RU, "location": "4G1"}, [])


def test_4_1_fortification_allotments(tmp_path: Path) -> None:
    """4.1: one dummy HIP counter per hidden fortification without HIP units (a pillbox alone:
    +1; a foxhole with the HIP squad: +0); one per three panji hexsides (6 -> 2); minefields
    give none (4.6). One HIP squad: 1 + 1 = 2. Total 2 + 1 + 2 = 5."""
    g = new_game(
        tmp_path,
        [hip("H1", "4A1", sq("s"))],
        fortifications=[
            {"id": "F1", "kind": "pillbox", "location": "4C1"},
            {"id": "F2", "kind": "foxhole", "location": "4A1"},
            {"id": "F3", "kind": "panji", "location": "4E1", "hexsides": 6},
        ],
        minefields=[{"id": "M1", "location": "4G1", "ap": 6}],
    )
    assert g.state.allotment(RU).dummy_hip == 5


def test_4_1_fortification_with_a_dummy_hip_counter_brings_none(tmp_path: Path) -> None:
    """4.1: only a fortification that contains neither HIP units nor dummy HIP counters at the
    start brings a dummy. One HIP squad: 2 dummy HIP counters (3.1.1), one set up in the
    pillbox's location: the pillbox brings none; the trench alone brings one: 3."""
    g = new_game(
        tmp_path,
        [hip("H1", "4A1", sq("s")), dhip("X1", "4C1")],
        fortifications=[
            {"id": "F1", "kind": "pillbox", "location": "4C1"},
            {"id": "F2", "kind": "trench", "location": "4E1"},
        ],
    )
    assert g.state.allotment(RU).dummy_hip == 3


@pytest.mark.parametrize(("hexsides", "dummies"), [(3, 1), (5, 1), (6, 2)])
def test_4_1_panji_one_per_three_hexsides(tmp_path: Path, hexsides: int, dummies: int) -> None:
    g = new_game(
        tmp_path,
        fortifications=[{"id": "F1", "kind": "panji", "location": "4E1", "hexsides": hexsides}],
    )
    assert g.state.allotment(RU).dummy_hip == dummies


@pytest.mark.parametrize(
    ("ap", "at", "known", "dummies"),
    [(6, 0, False, 2), (6, 2, False, 4), (8, 0, False, 2), (2, 0, False, 0), (6, 1, True, 0)],
)
def test_4_6_1_dummy_minefields(
    tmp_path: Path, ap: int, at: int, known: bool, dummies: int
) -> None:
    """4.6.1: one dummy minefield per 3 FP of hidden AP factors and per AT factor; a known
    minefield brings none."""
    g = new_game(
        tmp_path, minefields=[{"id": "M1", "location": "4A1", "ap": ap, "at": at, "known": known}]
    )
    assert g.state.allotment(RU).dummy_minefields == dummies


# == 3.2.2, 3.3.3 HIP partial shifts ==============================================================
def test_3_2_2_hip_units_do_not_move_conventionally(tmp_path: Path) -> None:
    g = std_game(tmp_path)
    goto(g, "MPh")
    refused(g, "O'Leary 3.2.2", "move", {"stack": "H1", "to": "4A6"}, [])


def _three_squads(tmp_path: Path) -> Game:
    g = new_game(
        tmp_path,
        [
            hip(
                "H1",
                "4A1",
                sq("s1", "4-5-7"),
                sq("s2", "4-5-7"),
                sq("s3", "4-5-7"),
                sq("ld", "8-1", "leader"),
            ),
            dhip("X1", "4C1"),
        ],
    )
    goto(g, "MPh")
    return g


def _stack_of(g: Game, cid: str) -> Any:
    hit = g.state.counter(cid)
    assert hit is not None
    return hit[0]


def test_3_3_3_example_1_part_of_a_stack_shifts(tmp_path: Path) -> None:
    """3 4-5-7 and a leader may exchange with a lone dummy HIP counter, shifting only one squad
    and the leader; the two squads left keep HIP."""
    g = _three_squads(tmp_path)
    shift(g, [2, 3], a="H1", b="X1", move=["s1", "ld"])
    for cid in ("s1", "ld"):
        s = _stack_of(g, cid)
        assert (s.location, s.status.value) == ("4C1", "hip")
    for cid in ("s2", "s3"):
        s = _stack_of(g, cid)
        assert (s.location, s.status.value) == ("4A1", "hip")
    assert not any(s.location == "4C1" and s.status.value == "dummy_hip" for s in g.state.stacks)


def test_3_3_3_example_1_failed_attempt_remaining_squads_keep_hip(tmp_path: Path) -> None:
    """ "Regardless of the results of the shift attempt, the two remaining squads will retain
    their HIP status": on 11-12 only the squad and leader attempting lose HIP."""
    g = _three_squads(tmp_path)
    out = shift(g, [6, 6], a="H1", b="X1", move=["s1", "ld"])  # 12 - 1 = 11
    assert out.rolls[0].final == 11  # type: ignore[union-attr]
    for cid in ("s1", "ld"):
        s = _stack_of(g, cid)
        assert (s.location, s.status.value) == ("4A1", "concealed")
    for cid in ("s2", "s3"):
        assert _stack_of(g, cid).status.value == "hip"
    assert g.state.stack("X1") is None


def test_3_3_3_example_2_other_hip_unit_stays(tmp_path: Path) -> None:
    """A HIP 6-6-6 shifts to the location of a HIP 5-3-6, which does not move back: a dummy HIP
    counter is placed where the 6-6-6 was."""
    g = new_game(tmp_path, [hip("H1", "4A1", sq("a", "6-6-6")), hip("H2", "4C1", sq("b", "5-3-6"))])
    goto(g, "MPh")
    shift(g, [2, 3], a="H1", b="H2", back=[])
    assert _stack_of(g, "a").location == "4C1" and _stack_of(g, "b").location == "4C1"
    assert [s.status.value for s in g.state.stacks_at("4A1")] == ["dummy_hip"]


# == 4.3, 4.4.2 fortification examples ============================================================
def test_4_3_example_pillbox_with_foxhole_in_woods(tmp_path: Path) -> None:
    """A 1+3+5 pillbox in woods shifting with a foxhole in another woods location: the TEM DRM
    is -1 (woods); the fortifications' TEMs are not used. (Both HIP: another -1.)"""
    g = new_game(
        tmp_path,
        fortifications=[
            {"id": "F1", "kind": "pillbox", "location": "4A1", "tem": 3},
            {"id": "F2", "kind": "foxhole", "location": "4C1", "tem": 2},
        ],
        locations=[
            {"id": "4A1", "terrain": "woods", "tem": 1},
            {"id": "4C1", "terrain": "woods", "tem": 1},
        ],
    )
    goto(g, "MPh")
    out = shift(g, [2, 3], a="F1", b="F2")
    assert applied(out) == [-1, -1]
    assert g.state.fortification("F1").location == "4C1"  # type: ignore[union-attr]
    assert g.state.fortification("F2").location == "4A1"  # type: ignore[union-attr]


def test_4_3_example_fortified_stone_building(tmp_path: Path) -> None:
    """A fortified stone building location shifting to a dummy HIP counter in another stone
    building: TEM DRM -3."""
    g = new_game(
        tmp_path,
        [dhip("X1", "4C1")],
        fortifications=[{"id": "F1", "kind": "fortified_building", "location": "4A1", "tem": 4}],
        locations=[
            {"id": "4A1", "terrain": "stone building", "tem": 3},
            {"id": "4C1", "terrain": "stone building", "tem": 3},
        ],
    )
    goto(g, "MPh")
    out = shift(g, [2, 3], a="F1", b="X1")
    assert drm(out) == -4  # -3 TEM, -1 both HIP
    assert -3 in applied(out)


def test_4_4_2_example_tunnel_follows_pillbox(tmp_path: Path) -> None:
    """A tunnel joins a HIP pillbox and a HIP fortified building: when the pillbox shifts, one
    end stays in the pillbox and the other is chosen again."""
    g = new_game(
        tmp_path,
        [dhip("X1", "4E1")],
        fortifications=[
            {"id": "F1", "kind": "pillbox", "location": "4A1"},
            {"id": "F2", "kind": "fortified_building", "location": "4C1"},
            {"id": "T1", "kind": "tunnel", "location": "4A1", "tunnel_from": "F1", "exit": "4C1"},
        ],
    )
    goto(g, "MPh")
    shift(g, [2, 3], a="F1", b="X1")
    t = g.state.fortification("T1")
    assert t is not None and t.location == "4E1" and t.exit == ""


def test_4_2_fortification_only_where_it_could_be_set_up(tmp_path: Path) -> None:
    g = new_game(
        tmp_path,
        [dhip("X1", "4C1")],
        fortifications=[{"id": "F1", "kind": "pillbox", "location": "4A1"}],
        locations=[{"id": "4C1", "forbid": ["pillbox"]}],
    )
    goto(g, "MPh")
    refused(g, "O'Leary 4.2", "shift", {"a": "F1", "b": "X1"}, [2, 3])


def test_3_4_revealed_dummy_hip_is_removed(tmp_path: Path) -> None:
    g = std_game(tmp_path)
    goto(g, "MPh")
    g.perform("reveal", {"what": "X1"})
    assert g.state.stack("X1") is None


# == 4.6 minefields ===============================================================================
def mine_game(tmp_path: Path) -> Game:
    return new_game(
        tmp_path,
        [
            pds("P1", "4A5", sq("p")),
            dummy("D1", "4C5", 2),
            pds("P2", "4E5", sq("q")),
            dummy("D2", "4G5", 2),
            hip("H1", "4A8", sq("h")),
            dhip("X1", "4C8"),
        ],
        minefields=[
            {"id": "M1", "location": "4A1", "ap": 6},
            {"id": "M2", "location": "4C1", "at": 1},
            {"id": "M3", "location": "4E1", "ap": 3},
            {"id": "M4", "location": "4G1", "ap": 12},
            {"id": "K1", "location": "4I1", "ap": 6, "known": True},
        ],
    )


def test_4_6_2_exchange_allowed_both_revealed(tmp_path: Path) -> None:
    """A German unit enters M1 (6 AP): the Russian exchanges it with M2 (1 AT). DR 3+3 = 6, DRM
    +1 (the entered location holds an enemy unit, documented A8) -1 (both hidden minefields)
    = 6: exchanged; the unit meets M2's strength; both strengths revealed."""
    g = mine_game(tmp_path)
    goto(g, "MPh", GE)
    out = g.perform("minefield", {"entered": "M1", "other": "M2"}, faces=[3, 3])
    assert out.rolls[0].final == 6  # type: ignore[union-attr]
    m1, m2 = g.state.minefield("M1"), g.state.minefield("M2")
    assert m1 is not None and m2 is not None
    assert (m1.location, m2.location) == ("4C1", "4A1")
    assert m1.revealed and m2.revealed
    assert "1 AT" in out.message


def test_4_6_3_dr_8_refuses_only_that_exchange(tmp_path: Path) -> None:
    """Final >= 8: that exchange is refused, both strengths still revealed, and nothing else:
    another minefield may exchange later this MPh."""
    g = mine_game(tmp_path)
    goto(g, "MPh", GE)
    out = g.perform("minefield", {"entered": "M1", "other": "M2"}, faces=[4, 4])
    assert out.rolls[0].final == 8  # type: ignore[union-attr]
    m1, m2 = g.state.minefield("M1"), g.state.minefield("M2")
    assert m1 is not None and m2 is not None
    assert (m1.location, m2.location) == ("4A1", "4C1") and m1.revealed and m2.revealed
    assert out.details["revealed"] == {"M1": "6 AP", "M2": "1 AT"}
    assert g.state.closed == ()
    g.perform("minefield", {"entered": "M3", "other": "M4"}, faces=[2, 2])
    assert g.state.minefield("M3").location == "4G1"  # type: ignore[union-attr]


def test_4_6_2_no_exchange_with_a_revealed_minefield(tmp_path: Path) -> None:
    g = mine_game(tmp_path)
    goto(g, "MPh", GE)
    g.perform("minefield", {"entered": "M1", "other": "M2"}, faces=[4, 4])
    refused(g, "O'Leary 4.6", "minefield", {"entered": "M3", "other": "M1"}, [2, 2])


def test_4_6_4_minefield_shift_even_when_shifting_is_closed(tmp_path: Path) -> None:
    """Dummy shifting and HIP shifting both closed this Russian MPh (DR 8s): a minefield DR may
    still be made."""
    g = mine_game(tmp_path)
    goto(g, "MPh")
    shift(g, [4, 4], a="P1", b="D1")
    shift(g, [4, 5], a="H1", b="X1")  # 9 - 1 = 8
    refused(g, "O'Leary 2.5", "shift", {"a": "P2", "b": "D2"}, [2, 2])
    g.perform("minefield", {"entered": "M1", "other": "M2"}, faces=[2, 2])
    assert g.state.minefield("M1").location == "4C1"  # type: ignore[union-attr]


def test_4_6_5_hidden_only_with_hidden(tmp_path: Path) -> None:
    g = mine_game(tmp_path)
    goto(g, "MPh", GE)
    refused(g, "O'Leary 4.6.5", "minefield", {"entered": "M1", "other": "K1"}, [2, 2])


# == 6 bore sighting ==============================================================================
def bs_game(tmp_path: Path) -> Game:
    return new_game(
        tmp_path,
        [
            pds(
                "P1",
                "4A1",
                sq("w1", "HMG", "sw", boresight=True),
                sq("w2", "MMG", "sw", boresight=True),
                sq("w3", "LMG", "sw"),
                sq("c"),
            )
        ],
    )


def _bs(g: Game, cid: str) -> Any:
    hit = g.state.counter(cid)
    assert hit is not None
    return hit[1].boresight_location


@pytest.mark.parametrize(("face", "hit"), [(1, True), (2, True), (3, False), (5, False)])
def test_6_1_third_die_1_2_boresights_3_5_not_yet(tmp_path: Path, face: int, hit: bool) -> None:
    g = bs_game(tmp_path)
    goto(g, "PFPh")
    g.perform("boresight", {"weapons": ["w1"], "target": "4E5"}, faces=[face])
    assert _bs(g, "w1") == ("4E5" if hit else None)
    if hit:  # for all subsequent shots: no more dice
        refused(g, "O'Leary 6.1", "boresight", {"weapons": ["w1"], "target": "4E6"}, [1])
    else:
        g.perform("boresight", {"weapons": ["w1"], "target": "4E6"}, faces=[1])
        assert _bs(g, "w1") == "4E6"


@pytest.mark.parametrize(("ok", "expected"), [(True, "4E3"), (False, None)])
def test_6_1_six_direction_and_distance(tmp_path: Path, ok: bool, expected: str | None) -> None:
    """6: not this location; a direction die (1 = N, documented A12) and a distance die (2):
    4E3, two hexes north of 4E5; it becomes bore sighted only if the weapon could bore sight
    a location there."""
    g = bs_game(tmp_path)
    goto(g, "PFPh")
    out = g.perform(
        "boresight", {"weapons": ["w1"], "target": "4E5", "candidate_ok": ok}, faces=[6, 1, 2]
    )
    assert len(out.rolls) == 3
    assert _bs(g, "w1") == expected


def test_6_1_six_then_player_decides(tmp_path: Path) -> None:
    g = bs_game(tmp_path)
    goto(g, "PFPh")
    g.perform("boresight", {"weapons": ["w1"], "target": "4E5"}, faces=[6, 4, 3])  # S 3: 4E8
    assert _bs(g, "w1") is None
    g.perform("decide", {"id": "w1", "ok": True})
    assert _bs(g, "w1") == "4E8"


def test_6_1_weapon_not_eligible_refused(tmp_path: Path) -> None:
    g = bs_game(tmp_path)
    goto(g, "PFPh")
    refused(g, "O'Leary 6.1", "boresight", {"weapons": ["w3"], "target": "4E5"}, [1])


def test_6_2_not_required_to_throw(tmp_path: Path) -> None:
    g = bs_game(tmp_path)
    goto(g, "PFPh")
    state = g.state
    out = g.perform("boresight", {"weapons": ["w1"], "target": "4E5", "roll": False})
    assert out.rolls == () and g.state == state


def test_6_3_grouped_weapons_share_one_die(tmp_path: Path) -> None:
    g = bs_game(tmp_path)
    goto(g, "PFPh")
    out = g.perform("boresight", {"weapons": ["w1", "w2"], "target": "4E5"}, faces=[2])
    assert len(out.rolls) == 1
    assert _bs(g, "w1") == _bs(g, "w2") == "4E5"


def test_6_1_scatter_off_the_board_stays_undetermined(tmp_path: Path) -> None:
    """6: the direction (N) and distance (3) dice give no hex on the boards from 4E1: no
    location could be bore sighted there, so it stays undetermined."""
    g = bs_game(tmp_path)
    goto(g, "PFPh")
    g.perform("boresight", {"weapons": ["w1"], "target": "4E1"}, faces=[6, 1, 3])
    assert _bs(g, "w1") is None and g.state.pending == ()


def test_6_1_odds_of_the_third_die(tmp_path: Path) -> None:
    """1-2: 1/3; 3-5: 1/2; 6: 1/6."""
    g = bs_game(tmp_path)
    goto(g, "PFPh")
    o = g.odds("boresight", {"weapons": ["w1"], "target": "4E5"})[0]
    assert (o.p("here"), o.p("not_yet"), o.p("scatter")) == (
        Fraction(1, 3),
        Fraction(1, 2),
        Fraction(1, 6),
    )


# == 7 pre-registration ===========================================================================
def oba_game(tmp_path: Path) -> Game:
    return new_game(
        tmp_path,
        oba=[{"id": "O1", "prereg": True}, {"id": "O2", "prereg": False}],
        boards=[{"id": "4"}],
    )


def _module(g: Game, mid: str) -> Any:
    return next(o for o in g.state.oba if o.id == mid)


@pytest.mark.parametrize(("face", "hit"), [(1, True), (2, True), (3, False), (5, False)])
def test_7_1_die_1_2_preregisters_3_5_not(tmp_path: Path, face: int, hit: bool) -> None:
    g = oba_game(tmp_path)
    goto(g, "PFPh")
    g.perform("prereg", {"module": "O1", "ar": "4K5"}, faces=[face])
    assert _module(g, "O1").location == ("4K5" if hit else None)
    if hit:
        refused(g, "O'Leary 7.1", "prereg", {"module": "O1", "ar": "4K6"}, [1])


def test_7_1_six_direction_and_distance(tmp_path: Path) -> None:
    """6: direction 4 (S) and distance 1: 4K6, pre-registered if the module could have it."""
    g = oba_game(tmp_path)
    goto(g, "PFPh")
    g.perform("prereg", {"module": "O1", "ar": "4K5", "candidate_ok": True}, faces=[6, 4, 1])
    assert _module(g, "O1").location == "4K6"


def test_7_1_module_without_prereg_refused_and_7_2_optional(tmp_path: Path) -> None:
    g = oba_game(tmp_path)
    goto(g, "PFPh")
    refused(g, "O'Leary 7.1", "prereg", {"module": "O2", "ar": "4K5"}, [1])
    out = g.perform("prereg", {"module": "O1", "ar": "4K5", "roll": False})
    assert out.rolls == () and _module(g, "O1").location is None


# == 2.2 bookkeeping ==============================================================================
def test_2_2_no_new_pds_after_setup_and_drop_keeps_concealment(tmp_path: Path) -> None:
    g = new_game(
        tmp_path,
        [
            {"id": "C1", "location": "4A1", "status": "concealed", "counters": [sq("c")]},
            pds("P1", "4C1", sq("p")),
        ],
    )
    goto(g, "MPh")
    refused(g, "O'Leary 2.2", "mark", {"stack": "C1"}, [])
    g.perform("drop", {"stack": "P1"})
    assert status(g, "P1") == "concealed"


# == CLI round trip ===============================================================================
SCENARIO_TOML = """
name = "cli acceptance"
sides = ["Russian", "German"]
first = "Russian"
[[locations]]
id = "4P5"
terrain = "stone building"
tem = 3
los = true
[[locations]]
id = "4Q6"
terrain = "woods"
tem = 1
[[stacks]]
id = "P1"
side = "Russian"
location = "4P5"
status = "potential_dummy"
counters = ["4-6-7", "LMG", "8-1"]
[[stacks]]
id = "D1"
side = "Russian"
location = "4Q6"
status = "dummy"
dummies = 4
"""


def test_cli_round_trip_2_5_example_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "cli.db")
    scen = tmp_path / "s.toml"
    scen.write_text(SCENARIO_TOML)
    assert main(["--db", db, "asl", "new", "ex1", "--scenario", str(scen), "--seed", "3"]) == 0
    assert main(["--db", db, "asl", "phase", "to=MPh"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "asl", "shift", "a=P1", "b=D1", "--dice", "3 4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    text = json.dumps(data)
    assert '"final": 7' in text
    assert main(["--db", db, "asl", "shift", "a=P1", "b=P1", "--dice", "9 9"]) != 0
    err = capsys.readouterr()
    assert "9" in (err.err + err.out)
    # a refused request names the rule and writes nothing
    assert main(["--db", db, "asl", "phase", "to=DFPh"]) == 0
    capsys.readouterr()
    assert main(["--db", db, "asl", "shift", "a=P1", "b=D1", "--dice", "2 2"]) != 0
    assert "O'Leary 2.3" in capsys.readouterr().err


def test_refused_shift_raises_rule_violation_type(tmp_path: Path) -> None:
    g = std_game(tmp_path)
    goto(g, "PFPh")
    with pytest.raises(RuleViolation):
        g.perform("shift", {"a": "P1", "b": "D1"}, faces=[2, 2])
