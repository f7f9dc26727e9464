"""Napoleon At Bay's indexed state (issue 16): a fold copies only what changed, and looking for
forces to unfix only near the forces that moved finds what a scan of every force finds."""

from __future__ import annotations

import random
from typing import Any

import pytest

from vedette.rules.napoleon_at_bay import RULESET
from vedette.rules.napoleon_at_bay import ruleset as G
from vedette.rules.napoleon_at_bay.model import occupancy_of


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
    return G.replace(state, pieces=pieces, occupancy=occ)


@pytest.mark.parametrize("seed", range(6))
def test_pieces_put_in_leave_the_occupants_a_one_by_one_update_leaves(seed: int) -> None:
    """Moved, changed in place, swapped or stacked pieces (several hexes each, several at
    once): every hex's occupants, in order, as when each piece left and joined one by one;
    and the occupancy is always the index of the pieces."""
    rnd = random.Random(seed)
    state = RULESET.initial_state(_scenario(n=40, size=8), {})
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
