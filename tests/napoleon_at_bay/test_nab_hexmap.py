"""The declared hex map: ids, grid convention, terrain and hexside costs, ZOC, search."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nab_helpers import grid

from tests.sizes import examples
from vedette.errors import DataError
from vedette.geometry.hexmap import HexIds, HexMap, hexside_kinds, terrain_kinds
from vedette.rules.napoleon_at_bay import RULESET
from vedette.rules.napoleon_at_bay.model import load_map

DATA = RULESET.data()


def build(m: dict) -> HexMap:  # type: ignore[type-arg]
    return HexMap.from_data(m, terrain_kinds(DATA["terrain"]), hexside_kinds(DATA["hexsides"]))


def sample() -> HexMap:
    return load_map(DATA, {"map": {"file": "sample_map.toml"}})


def test_ids_and_seed_geometry() -> None:
    m = sample()
    assert HexIds("W", 2).parse("W1920") == (19, 20)
    # Herman's example: W2522 is the hex SE of W2421, which is 3 hexes from W2121
    se = m.convention.direction("SE")
    assert m.id_at(m.hex("W2421").neighbor(se)) == "W2522"
    assert m.distance("W2421", "W2121") == 3
    assert m.distance("W1920", "W2020") == 1 and m.adjacent("W2020", "W2121")
    assert m.names["W1920"] == "Vilnius" and m.label("W2121") == "W2121 (Asmjany)"
    assert "W9999" not in m
    with pytest.raises(ValueError):
        m.index("W9999")


def test_odd_shift_convention_changes_neighbours() -> None:
    even = build(grid())
    odd = build({**grid(), "shifted": "odd"})
    assert set(even.neighbors("A0505")) != set(odd.neighbors("A0505"))
    assert len(odd.neighbors("A0505")) == 6


@pytest.mark.parametrize("shifted", ["even", "odd"])
def test_neighbours_are_the_on_map_hexes_one_step_away_in_direction_order(shifted: str) -> None:
    """``neighbors`` (read by integer keys) lists what stepping each direction from the hex
    finds on the map, corner and edge hexes included."""
    for m in (build({**grid(), "shifted": shifted}), sample()):
        for h in m.ids:
            near = [m.id_at(m.hex(h).neighbor(d)) for d in range(6)]
            assert m.neighbors(h) == [x for x in near if x is not None], h


def test_costs_terrain_roads_rivers_bridges() -> None:
    m = build(
        grid(
            areas={"forest": ["A0203"], "lake": ["A0205"]},
            roads=[["A0101", "A0201", "A0301"]],
            hexsides=[
                ("river", [["A0102", "A0202"]]),
                ("river", [["A0103", "A0203"]]),
                ("bridge", [["A0103", "A0203"]]),
                ("impassable", [["A0104", "A0204"]]),
            ],
        )
    )
    assert m.step_cost("A0101", "A0201") == Fraction(1, 2)  # road
    assert m.step_cost("A0102", "A0202") == 2  # clear + river
    assert m.step_cost("A0103", "A0203") == 2  # forest, bridge cancels the river
    assert m.step_cost("A0104", "A0204") is None  # impassable hexside
    assert not m.passable("A0205")
    assert m.step_cost("A0105", "A0205") is None  # lake
    assert m.movement_cost("A0101", "A0301") == 1
    assert m.denominator == 2


def test_zoc_blocked_by_impassable_hexside_but_still_adjacent() -> None:
    m = build(grid(hexsides=[("impassable", [["A0505", "A0605"]])]))
    assert m.adjacent("A0505", "A0605")
    assert "A0605" not in m.zoc("A0505")
    assert len(m.zoc("A0505")) == 5


def test_search_is_bounded_and_directional() -> None:
    m = build(grid(areas={"marsh": ["A0505"]}))
    to = m.costs("A0505", direction="to")
    frm = m.costs("A0505", direction="from")
    n = "A0504"
    assert frm[n] == 1 and to[n] == 3  # entering the marsh costs 3
    within = m.costs("A0101", bound=2)
    assert max(within.values()) <= 2
    assert all(m.distance("A0101", h) <= 2 for h in within)


def test_bad_map_data_is_refused() -> None:
    with pytest.raises(DataError, match="not adjacent"):
        build(grid(roads=[["A0101", "A0303"]]))
    with pytest.raises(DataError, match="not on the map"):
        build(grid(areas={"forest": ["A9999"]}))
    with pytest.raises(DataError, match="unknown terrain"):
        build(grid(areas={"glacier": ["A0101"]}))
    with pytest.raises(DataError, match="columns"):
        build({"letter": "A"})


@settings(max_examples=examples(40), deadline=None)
@given(
    st.lists(
        st.sampled_from(["clear", "forest", "marsh", "lake", "rough", "free"]),
        min_size=64,
        max_size=64,
    ),
    st.sets(st.integers(0, 63), min_size=1, max_size=6),
    st.integers(0, 63),
    st.sampled_from([None, 0, 3, 6]),
)
def test_nearest_tier_agrees_with_the_full_search(
    terrain: list[str], targets: set[int], source: int, bound: int | None
) -> None:
    """``nearest`` (a queue of one bucket per cost) against the plain full search (a heap),
    on terrain that costs nothing to enter too (a house rule may say so: a hex reached at no
    extra cost joins the bucket being taken), bounded or not: the closest tier's cost and its
    hexes, in index order."""
    cells = [f"A{c:02d}{r:02d}" for c in range(1, 9) for r in range(1, 9)]
    areas: dict[str, list[str]] = {}
    for h, t in zip(cells, terrain, strict=True):
        areas.setdefault(t, []).append(h)
    kinds = terrain_kinds({**DATA["terrain"], "free": {"cost": 0}})
    m = HexMap.from_data(grid((1, 8), (1, 8), areas=areas), kinds, hexside_kinds(DATA["hexsides"]))
    full = {i: d for d, i in m.search([source], direction="to")}
    reach = {t: full[t] for t in targets if t in full and (bound is None or full[t] <= bound)}
    best, hexes = m.nearest([source], targets, bound, direction="to")
    if not reach:
        assert best is None and hexes == []
    else:
        assert best == min(reach.values())
        assert hexes == sorted(t for t, d in reach.items() if d == best)
    # bounded search never goes beyond its bound
    assert all(d <= 4 for d, _ in m.search([source], bound=4))


def test_nearest_across_ground_that_costs_nothing_to_enter() -> None:
    """A house rule may make a terrain cost 0 MP to enter: the hexes so reached are at the
    cost of the hex they came from, and ``nearest`` finds a target behind them (here every
    hex of the map but one column of forest is free: from every hex, the same tier as the
    full search)."""
    cells = [f"A{c:02d}{r:02d}" for c in range(1, 9) for r in range(1, 9)]
    areas = {"free": [h for h in cells if not h.startswith("A04")], "forest": cells[24:32]}
    kinds = terrain_kinds({**DATA["terrain"], "free": {"cost": 0}})
    m = HexMap.from_data(grid((1, 8), (1, 8), areas=areas), kinds, hexside_kinds(DATA["hexsides"]))
    targets = {m.index("A0808"), m.index("A0101"), m.index("A0501")}
    for source in range(len(m)):
        full = {i: d for d, i in m.search([source], direction="to")}
        best = min(full[t] for t in targets)
        assert m.nearest([source], targets, direction="to") == (
            best,
            sorted(t for t in targets if full[t] == best),
        )
    assert m.nearest([m.index("A0808")], {m.index("A0101")}, direction="to") == (
        m.denominator * 2,  # (the forest column's cost, then free ground)
        [m.index("A0101")],
    )


def test_contents_within_matches_distance() -> None:
    m = build(grid())
    contents = {h: h for h in m.ids}
    got = set(m.contents_within("A0606", 3, contents))
    assert got == {h for h in m.ids if m.distance("A0606", h) <= 3}


@settings(max_examples=examples(60), deadline=None)
@given(
    st.sampled_from(["flat", "pointy"]),
    st.sampled_from(["even", "odd"]),
    st.lists(st.integers(0, 143), max_size=40, unique=True),
    st.lists(st.integers(0, 143), max_size=10, unique=True),
    st.integers(0, 143),
    st.integers(0, 13),
)
def test_an_index_of_hexes_by_column_finds_those_within_a_radius(
    orientation: str, shifted: str, held: list[int], moved: list[int], centre: int, radius: int
) -> None:
    """Issue 29: the index of some hexes by axial column (kept by adding and removing hexes,
    as the folds keep each side's) equals the one made afresh, and the hexes of it within a
    radius are exactly those the hex distance puts there, whatever the grid's convention."""
    m = build({**grid(), "orientation": orientation, "shifted": shifted})
    ids = m.ids
    start = {ids[i] for i in held}
    gone = {ids[i] for i in moved} & start  # some held hexes left, some new ones taken
    came = {ids[i] for i in moved} - start
    cols = m.columns_changed(m.columns(start), added=came, removed=gone)
    now = (start - gone) | came
    assert cols == m.columns(now)
    c = ids[centre]
    got = m.indexed_within(c, radius, cols)
    assert len(got) == len(set(got))
    assert set(got) == {h for h in now if m.distance(c, h) <= radius}


def test_nearest_tier_on_the_sample_map_from_every_hex() -> None:
    """Issue 29: ``nearest`` (a queue of one bucket per cost) against the plain full
    search, from every hex of the sample map to the sample scenario's force hexes (each force
    alone, then all of them), both ways, bounded or not."""
    state = RULESET.initial_state(RULESET.scenario("sample"), {})
    m = state.map
    forces = [{m.index(h) for h in p.hexes} for p in state.pieces.values()]
    assert len(forces) > 2
    for direction in ("to", "from"):
        for source in range(len(m)):
            full = {i: d for d, i in m.search([source], direction=direction)}
            for targets in (*forces, set().union(*forces)):
                for bound in (None, 3 * m.denominator):
                    reach = {t: full[t] for t in targets if t in full}
                    if bound is not None:
                        reach = {t: d for t, d in reach.items() if d <= bound}
                    best, hexes = m.nearest([source], targets, bound, direction=direction)
                    if not reach:
                        assert (best, hexes) == (None, [])
                    else:
                        assert best == min(reach.values())
                        assert hexes == sorted(t for t, d in reach.items() if d == best)
