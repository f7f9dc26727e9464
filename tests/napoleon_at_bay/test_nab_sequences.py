"""Napoleon At Bay 'screen' sequence (issue 17): a screen against successive movers, checked
against an enumeration of every pip written here from Herman (1)-(4): each mover that enters
the ZOC of an unfixed contact force owes a fixing; 1d6 + DRM, 1-3 the contact force stays and
is fixed, 4+ the supporting force in range (here at most one) takes its place and is fixed,
none in range: it stays fixed; a fixed force is never a contact or supporting force."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest

from vedette.engine import Game, Store
from vedette.errors import RuleViolation
from vedette.rules import get
from vedette.rules.sequence import summary_of

#: DRMs by hand from Herman (3): F1 (infantry only) vs R1 (vedette): only the contact force
#: has: +2. F2 (2 cavalry SP and a vedette) vs R2 (no cavalry): only the mover has: -2;
#: F2 (3 SP) vs R1 (1 SP): the mover is superior: -1.
DRM_F1_R1, DRM_F2_R2, DRM_F2_R1 = +2, -2, -1
START = {"R1": "W2121", "R2": "W2421", "R3": "W2724"}


def game(tmp_path: Path, series: str) -> Game:
    scn = {**get("nab").scenario("sample")}
    scn["scenario"] = {**scn["scenario"], "series": series}
    return Game.create(Store(tmp_path / "n.db"), "n", "nab", scn, seed=1)


def brute_force(series_range: int) -> dict[str, Fraction]:
    """Two movers: F1 -> W2020 (ZOC of R1 in W2121, R2 three hexes away) then F2 -> W2321 (ZOC
    of whoever is then in W2421; R3 in W2724 is four hexes from it, six from W2121)."""
    out: dict[str, Fraction] = {}
    for f1, f2 in itertools.product(range(1, 7), repeat=2):
        pos = dict(START)
        fixed = set()
        if f1 + DRM_F1_R1 <= 3:
            fixed.add("R1")
        else:  # R2 (3 hexes: in range of every series) takes R1's place
            pos["R1"], pos["R2"] = "W2421", "W2121"
            fixed.add("R2")
        contact = "R2" if "R1" in fixed else "R1"
        drm = DRM_F2_R2 if contact == "R2" else DRM_F2_R1
        if f2 + drm <= 3 or series_range < 4:
            fixed.add(contact)
        else:  # R3 is the only unfixed force within range
            pos[contact], pos["R3"] = "W2724", "W2421"
            fixed.add("R3")
        held = pos["R1"] == "W2121"
        part = {pid: f"{pid} {pos[pid]}{' fixed' if pid in fixed else ''}" for pid in pos}
        others = [p for p in ("R2", "R3") if p in fixed or pos[p] != START[p]]
        label = "; ".join([part["R1"], "F1 W2020", "F2 W2321", *(part[p] for p in others)])
        label = f"{'holds' if held else 'gives way'}: {label}"
        out[label] = out.get(label, Fraction(0)) + Fraction(1, 36)
    return out


@pytest.mark.parametrize(("series", "series_range"), [("5x", 3), ("2x", 5)])
def test_screen_against_two_movers_equals_brute_force(
    tmp_path: Path, series: str, series_range: int
) -> None:
    g = game(tmp_path, series)
    c = g.chances("screen", {"screen": "R1", "movers": ["F1", "F2"], "to": ["W2020", "W2321"]})
    assert c.exact
    assert {r.result: r.p for r in c.rows} == brute_force(series_range)
    each = {r.result: r.p for r in summary_of(get("nab").sequences()["screen"], c)}
    assert each["the screen holds"] == Fraction(1, 6)  # 1d6+2 <= 3: a 1
    assert each["the screen gives way"] == Fraction(5, 6)


def test_a_fixed_screen_is_not_fixed_again(tmp_path: Path) -> None:
    g = game(tmp_path, "5x")
    # F2 ends next to W2121 as well: whoever is there is already fixed, so no second roll
    c = g.chances("screen", {"screen": "R1", "movers": ["F1", "F2"], "to": ["W2020", "W2122"]})
    assert c.leaves == 6
    assert [r.p for r in c.rows] == [Fraction(5, 6), Fraction(1, 6)]


def test_a_later_move_the_fixings_made_illegal_is_named(tmp_path: Path) -> None:
    g = game(tmp_path, "5x")
    # F2 to W2421: R2 holds it, or R1 once it gave way; an enemy-held hex is refused (A17)
    c = g.chances("screen", {"screen": "R1", "movers": ["F1", "F2"], "to": ["W2020", "W2421"]})
    assert c.exact and all("F2 W1823 (could not move)" in r.result for r in c.rows)
    with pytest.raises(RuleViolation, match="Herman"):
        g.chances("screen", {"screen": "R3", "movers": ["F1"], "to": ["W2020"]})
