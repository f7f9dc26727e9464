"""Issue 29's Napoleon At Bay shortcuts against the code they stand for, over the states of
simulated games: a move's path searched only until its destination is settled is the path of
the whole search tree (``todo``'s), and the hexes 1 to 3 away read off the grid are a scan of
the map by distance."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from tests.napoleon_at_bay.test_nab_audit import _road_through_the_zoc
from vedette import rules
from vedette.engine import Game, Store
from vedette.rules.napoleon_at_bay import reach
from vedette.rules.napoleon_at_bay.model import NabState, Piece
from vedette.sim.play import Setup, play_game

RS = rules.get("napoleon_at_bay")


def _states(seed: int, index: int, most: int) -> Iterator[NabState]:
    setup = Setup(RS.name, RS.scenario("sample"), max_actions=most)
    played = play_game(setup, seed, index, record=True)
    g = Game.create(Store(":memory:"), "s", RS.name, dict(setup.scenario), played.dice_seed)
    for name, req in played.actions:
        yield g.state
        g.perform(name, req)


def _tree_path(state: NabState, p: Piece, target: str) -> tuple[int, tuple[str, ...]] | None:
    """The path read off the whole search tree (the oracle: the tree ``todo`` keeps)."""
    reach._TREES.clear()
    reach.tree(state, p)
    return reach.path_to(state, p, target)


def test_a_path_searched_to_its_end_is_the_whole_trees() -> None:
    checked = unreachable = begun_in_zoc = 0
    for n, st in enumerate(_states(7, 4, 150)):
        if n % 3 or st.phase != "movement":
            continue
        for p in st.pieces.values():
            if p.side != st.phasing or len(p.hexes) != 1:
                continue
            begun_in_zoc += bool(reach._limits(st, p)[2])  # (the whole tree: reading A23)
            # the simulator's tries, and farther hexes (around other pieces, enemy ones too)
            targets = set(reach._within_three(st.map, p.hexes[0]))
            targets |= {h for q in st.pieces.values() for h in q.hexes}
            for h in sorted(targets):
                reach._TREES.clear()  # no tree kept: the search stops at the target
                got = reach.path_to(st, p, h)
                assert got == _tree_path(st, p, h), (p.id, h)
                checked += 1
                unreachable += got is None
    assert checked > 500 and unreachable > 0 and begun_in_zoc > 0


def test_a_move_begun_in_a_zoc_keeps_the_whole_search(tmp_path: Path) -> None:
    """Reading A23 (a way that leaves the zone begun in stops where it comes back): the search
    to a destination alone would go on along the road through A0605; the whole search does
    not, and every hex's path is the whole tree's."""
    st = _road_through_the_zoc(tmp_path).game.state
    f1 = st.pieces["F1"]
    for h in st.map.ids:
        reach._TREES.clear()
        assert reach.path_to(st, f1, h) == _tree_path(st, f1, h), h
    reach._TREES.clear()
    assert reach.path_to(st, f1, "A0805") == (6, ("A0506", "A0605", "A0705", "A0805"))


def test_hexes_within_three_are_a_scan_of_the_map_by_distance() -> None:
    m = RS.initial_state(RS.scenario("sample"), {}).map
    for h in m.ids:
        want = [x for x in m.ids if 0 < m.distance(x, h) <= 3]
        assert reach._within_three(m, h) == want, h
