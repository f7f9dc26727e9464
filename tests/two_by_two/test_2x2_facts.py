"""Derived geometry facts of 2 by 2 (the `facts` query and vedette.rules.two_by_two.facts)."""

from __future__ import annotations

import pytest

from tests.two_by_two.battle import Battle
from vedette.errors import BadRequest
from vedette.rules.two_by_two import facts

N = 19.05


def layout() -> Battle:
    terrain = [
        {"kind": "town", "name": "Dorf", "area": [[380, 380], [460, 380], [460, 460], [380, 460]]},
        {"kind": "wall", "name": "Mauer", "line": [[250, 330], [350, 330]]},
        {"kind": "hill", "name": "Höhe", "circle": [100, 100], "radius": 40},
    ]
    units = [
        {"id": "G", "side": "blue", "type": "foot_artillery", "x": 300, "y": 200},
        {"id": "H", "side": "blue", "type": "hq_division", "x": 300, "y": 188},
        {"id": "C", "side": "blue", "type": "hq_corps", "x": 100, "y": 100},
        {"id": "T", "side": "red", "type": "infantry", "x": 300, "y": 340},
        {"id": "V", "side": "red", "type": "infantry", "x": 420, "y": 420},
        {"id": "F", "side": "red", "type": "infantry", "x": 300, "y": 212, "facing": 90},
    ]
    return Battle.quick(units, terrain)


def test_distance_band_and_arcs() -> None:
    b = layout()
    out = b.do("facts", unit="G", target="T")
    t = out.details["target"]
    assert t["distance"] == pytest.approx((340 - 6 - 206) / N, abs=1e-3)
    assert t["range_band"] == "long"
    assert t["within"] == {"1": False, "2": False, "3": False, "4": False, "8": True}
    assert t["target_behind_wall_or_hedge"] is True
    assert t["unit_in_target_arc"] == "front" and t["in_fire_arc"] is True
    f = b.do("facts", unit="G", target="F").details["target"]
    assert f["contact"] is True and f["range_band"] == "canister"
    assert f["unit_in_target_arc"] == "right"  # F faces east: G is to its right (south)


def test_unit_facts() -> None:
    b = layout()
    g = b.do("facts", unit="G").details
    assert g["hq_in_contact"] is True
    assert g["division_hq_distance"] == 0.0
    assert g["enemies_within_2"] == ["F"]
    v = b.do("facts", unit="V").details
    assert v["in_cover"] is True and v["terrain"] == ["Dorf (town)"]
    s = b.state
    assert facts.on_hill(s, s.unit("C")) is True
    assert facts.hq_distances(s, s.unit("G"))[1] == pytest.approx(
        facts.distance_n(s, s.unit("G"), s.unit("C"))
    )
    assert facts.hq_distances(s, s.unit("T")) == (None, None)  # red has no HQ


def test_overlap_supports() -> None:
    units = [
        {"id": "A", "side": "blue", "type": "infantry", "x": 300, "y": 100},
        {"id": "L", "side": "blue", "type": "infantry", "x": 275, "y": 100},
        {"id": "X", "side": "blue", "type": "infantry", "x": 250, "y": 100, "disrupted": True},
        {"id": "K", "side": "blue", "type": "infantry", "x": 312, "y": 124, "facing": 270},
        {"id": "D", "side": "red", "type": "infantry", "x": 300, "y": 112},
    ]
    b = Battle.quick(units)
    s = b.state
    sup = facts.overlap_supports(s, s.unit("A"), s.unit("D"))
    assert sup is not None and sorted(u.id for u in sup) == ["K", "L"]


def test_unknown_positions() -> None:
    b = Battle.quick(
        [
            {"id": "A", "side": "blue", "type": "infantry"},
            {"id": "B", "side": "red", "type": "infantry"},
        ]
    )
    s = b.state
    assert facts.distance_n(s, s.unit("A"), s.unit("B")) is None
    assert facts.in_contact(s, s.unit("A"), s.unit("B")) is None
    with pytest.raises(BadRequest, match="does not know"):
        b.do("facts", unit="A", target="B")
