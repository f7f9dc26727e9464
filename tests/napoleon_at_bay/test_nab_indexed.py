"""Napoleon At Bay's indexed state (issues 16, 29): a fold copies only what changed, looking for
forces to unfix only near the forces that moved finds what a scan of every force finds, and the
index of the hexes each side holds finds the forces in range a scan of every piece finds."""

from __future__ import annotations

import random
from typing import Any

import pytest

from vedette.rules.napoleon_at_bay import RULESET
from vedette.rules.napoleon_at_bay import ruleset as G
from vedette.rules.napoleon_at_bay.model import INDEXED_FROM, occupancy_of, side_columns
from vedette.sim.play import Setup, play_game


def _scenario(n: int = 160, size: int = 16) -> dict[str, Any]:
    rnd = random.Random(3)
    cells = [f"B{c:02d}{r:02d}" for c in range(1, size + 1) for r in range(1, size + 1)]
    rnd.shuffle(cells)
    forces = [
        {
            "id": f"{'Fr' if i % 2 else 'Ru'}{i}",
            "side": "Fr" if i % 2 else "Ru",
            "name": f"force {i}",
            "hexes": [cells[i]],
            "infantry": 3,
            "vedettes": 1,
        }
        for i in range(n)
    ]
    return {
        "scenario": {"title": "packed", "series": "1x", "first": "Fr"},
        "sides": {"Fr": "French", "Ru": "Russian"},
        "map": {"letter": "B", "columns": [1, size], "rows": [1, size]},
        "forces": forces,
    }


def test_unfixing_near_the_movers_equals_a_scan_of_every_force(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = RULESET.initial_state(_scenario(), {})
    assert len(state.pieces) > 64  # the local search is used, not the small-state scan
    rng = random.Random(9)
    # half the forces next to an enemy are fixed: moves away from them must unfix some
    fixed = [
        G.replace(p, fixed=True)
        for p in state.pieces.values()
        if G.fx.adjacent_to_enemy(state, p) and rng.random() < 0.5
    ]
    state = G._with_pieces(state, fixed)
    unfixed = 0
    for _ in range(300):
        p = rng.choice(list(state.pieces.values()))
        near = [h for h in state.map.neighbors(p.hexes[0]) if not state.occupancy.get(h)]
        if not near:
            continue
        e = G.Moved(force=p.id, from_=p.hexes, to=(rng.choice(near),))
        local = G.fold_moved(state, e)
        with monkeypatch.context() as m:
            m.setattr(G, "_unfix_near", lambda st, before, changed: G._unfix(st))
            scan = G.fold_moved(state, e)
        assert local == scan
        assert list(local.pieces) == list(scan.pieces)  # scenario order kept
        assert dict(local.occupancy.items()) == occupancy_of(local.pieces) or all(
            sorted(v) == sorted(occupancy_of(local.pieces)[h]) for h, v in local.occupancy.items()
        )
        unfixed += sum(1 for k, q in state.pieces.items() if q.fixed and not local.pieces[k].fixed)
        # the old state is untouched: a fold shares, never mutates
        assert state.pieces[p.id] == p
        state = local
    assert unfixed > 0  # the property was exercised


def _with_pieces_one_by_one(state: Any, changed: list[Any]) -> Any:
    """The reference: each changed piece leaves its hexes, then joins its new ones, one map
    update at a time (what ``_with_pieces`` did before it worked out the hexes first)."""
    pieces, occ = state.pieces, state.occupancy
    for p in changed:
        for h in pieces[p.id].hexes:
            rest = tuple(x for x in occ.get(h, ()) if x != p.id)
            occ = occ.set(h, rest) if rest else occ.discard(h)
        pieces = pieces.set(p.id, p)
    for p in changed:
        for h in p.hexes:
            occ = occ.set(h, (*occ.get(h, ()), p.id))
    # the index of each side's hexes made afresh from the pieces (not kept step by step)
    return G.replace(state, pieces=pieces, occupancy=occ, columns=side_columns(state.map, pieces))


@pytest.mark.parametrize("seed", range(6))
def test_pieces_put_in_leave_the_occupants_a_one_by_one_update_leaves(seed: int) -> None:
    """Moved, changed in place, swapped or stacked pieces (several hexes each, several at
    once): every hex's occupants, in order, as when each piece left and joined one by one;
    and the occupancy is always the index of the pieces."""
    rnd = random.Random(seed)
    state = RULESET.initial_state(_scenario(n=80, size=10), {})
    assert state.columns is not None  # a game big enough to keep the index of each side's hexes
    ids = list(state.pieces)
    hexes = [h for p in state.pieces.values() for h in p.hexes]
    for _ in range(150):
        changed = []
        for pid in rnd.sample(ids, rnd.randint(1, 4)):
            p = state.pieces[pid]
            how = rnd.random()
            if how < 0.3:  # changed in place
                changed.append(G.replace(p, fixed=not p.fixed))
            else:  # to one or two hexes, often where others stand
                to = tuple(dict.fromkeys(rnd.choice(hexes) for _ in range(rnd.randint(1, 2))))
                changed.append(G.replace(p, hexes=to))
        got = G._with_pieces(state, changed)
        want = _with_pieces_one_by_one(state, changed)
        assert got == want
        assert dict(got.occupancy.items()) == dict(want.occupancy.items())
        assert {h: set(v) for h, v in got.occupancy.items()} == {
            h: set(v) for h, v in occupancy_of(dict(got.pieces.items())).items()
        }
        state = got


def _plain_scan(state: Any, contact: Any) -> list[str]:
    """The forces in range by the plain definition (Herman (3)): every piece of the contact
    force's side that is a force, not fixed, not the contact force itself, some hex of it
    within the series' range (in hexes) of some hex of the contact force."""
    m, rng = state.map, state.config.support_range
    return sorted(
        p.id
        for p in state.pieces.values()
        if p.id != contact.id
        and p.side == contact.side
        and state.is_force(p)
        and not p.fixed
        and min(m.distance(a, b) for a in p.hexes for b in contact.hexes) <= rng
    )


def _packed_with_pairs(series: str) -> dict[str, Any]:
    """The packed scenario with every fifth force two hexes wide, in the given series."""
    sc = _scenario(n=INDEXED_FROM + 16, size=16)
    sc["scenario"]["series"] = series
    held = {f["hexes"][0] for f in sc["forces"]}
    m = RULESET.initial_state(sc, {}).map
    for f in sc["forces"][::5]:
        free = [h for h in m.neighbors(f["hexes"][0]) if h not in held]
        if free:
            f["hexes"].append(free[0])
            held.add(free[0])
    return sc


@pytest.mark.parametrize(
    ("scenario", "variant"),
    [("sample", "final"), ("1x", "final"), ("2x", "draft"), ("5x", "final")],
)
def test_the_index_of_each_sides_hexes_finds_what_a_plain_scan_finds(
    monkeypatch: pytest.MonkeyPatch, scenario: str, variant: str
) -> None:
    """Issue 29: the forces within a support range are read off an index of the hexes each side
    holds, kept by the folds (a game of more than INDEXED_FROM pieces; the sample, smaller,
    probes each hex in range). Over simulated games (moves, fixings, substitutions, two-hex
    forces), at every state: the index is the one made afresh from the pieces, and for every
    force the candidates in range are those a scan of every piece by hex distance finds."""
    sc = RULESET.scenario("sample") if scenario == "sample" else _packed_with_pairs(scenario)
    states: list[Any] = []
    substituted = []
    folded = RULESET.folded

    def keep(state: Any, events: Any) -> Any:
        out = folded(state, events)
        states.append(out)
        substituted.extend(e for e in events if isinstance(e, G.Substituted))
        return out

    monkeypatch.setattr(RULESET, "folded", keep)
    setup = Setup(RULESET.name, sc, options={"variant": variant}, max_actions=150)
    for i in range(8 if scenario == "sample" else 1):  # (the sample's games are short)
        play_game(setup, 29, i)
    assert len(states) > 60
    for st in states[::5]:
        assert st.columns == side_columns(st.map, st.pieces)
        assert (st.columns is None) == (scenario == "sample")
        for c in st.pieces.values():
            if st.is_force(c):
                got = [p.id for p in G.fx.candidates_in_range(st, c)]
                assert got == _plain_scan(st, c), c.id
    assert substituted  # substitutions (forces switching hexes) were among the events
