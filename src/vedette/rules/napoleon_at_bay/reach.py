"""Where a move can go: the destinations ``todo`` offers for ``move force=F`` (issue 22).

The solitaire system leaves movement allowances to the series rules; what it adds is that a
moving force may not pass through an enemy piece, and (option ``stop_at_zoc``, the series'
ZOC rule) stops in the first enemy ZOC it enters (Herman (1): a ZOC it starts in is not
"entered" while the move stays in it; one it leaves and comes back into is, reading A8, so the
move stops there too, reading A23). The offer is the hexes the default (cheapest) path of
``plan_move`` reaches under those rules, where the piece may stand: passable terrain, no
enemy piece, room to stack.

Offered choices are capped (:data:`MOVE_CHOICES`): first the hexes in an enemy ZOC (where a
fixing may follow, Herman (1)), nearest first, then the nearest other hexes, then the
farthest ones, so that a player (and random play) can both probe the screen and march away.
Any other reachable hex can still be typed: the cap bounds the offer, not the rules.
"""

from __future__ import annotations

import heapq
from typing import Any

from vedette.rules.napoleon_at_bay import fixing as fx
from vedette.rules.napoleon_at_bay.model import NabState, Piece

#: at most this many destinations are offered per force (ZOC hexes, nearest, farthest)
MOVE_CHOICES = 30
#: of which at most this many are hexes in an enemy ZOC, and this many the nearest others
ZOC_CHOICES = 12
NEAR_CHOICES = 9


#: the last few search trees, by piece, each with the state it was made for (held, so that
#: its identity stays unique): ``todo`` judges every offered destination of a force with
#: ``plan_move`` on the same state, and each needs the same search
_TREES: dict[str, tuple[NabState, Tree]] = {}

#: a search's result: ticks to each hex reached, the step before each *label* on its cheapest
#: path, and the label each hex is reached by (None: labels are hex indices). A label is a hex
#: index plus the map's hex count times a mask of the zones the move began in that the path has
#: left (reading A23: coming back into one of them stops the move)
Tree = tuple[dict[int, int], dict[int, int], dict[int, int] | None]


_ZOCS: dict[str, tuple[NabState, list[tuple[Piece, set[str]]]]] = {}


def enemy_zocs(state: NabState, side: str) -> list[tuple[Piece, set[str]]]:
    """The ZOC of every enemy force of ``side`` that exerts one (Herman (1): the ZOCs a move
    may enter), kept for the state it was worked out for (todo judges many moves on one)."""
    hit = _ZOCS.get(side)
    if hit is not None and hit[0] is state:
        return hit[1]
    out = [
        (q, fx.zoc_of(state, q))
        for q in state.pieces.values()
        if q.side != side and state.is_force(q) and q.kind in state.config.zoc_kinds
    ]
    _ZOCS[side] = (state, out)
    return out


def tree(state: NabState, p: Piece) -> Tree:
    """The search from ``p``'s lead hex: ticks to each hex reached and the step before it on
    the cheapest path (the same path, ties to the lower hex index, as the map's
    ``cheapest_path`` with the same blocked and stopping hexes, when the move begins in no
    enemy ZOC)."""
    hit = _TREES.get(p.id)
    if hit is not None and hit[0] is state:
        return hit[1]
    found = _search(state, p)
    if len(_TREES) > 16:
        _TREES.clear()
    _TREES[p.id] = (state, found)
    return found


def path_to(state: NabState, p: Piece, target: str) -> tuple[int, tuple[str, ...]] | None:
    """The cheapest path of ``p``'s lead component to ``target`` (ticks, hex ids), or None."""
    m = state.map
    t = m.index(target)
    hit = _TREES.get(p.id)
    if hit is not None and hit[0] is state:
        dist, prev, best = hit[1]
    else:
        enemy, stops, home = _limits(state, p)
        if home:
            dist, prev, best = tree(state, p)
        else:
            # no tree kept for this state (the simulator plans one move a state) and no zone
            # begun in: search only until the target is settled; Dijkstra settles the same
            # hexes in the same order up to it, so its ticks and path are the whole tree's
            # (tests/napoleon_at_bay/test_nab_reach.py)
            dist, prev = m.cheapest_tree(m.index(p.hexes[0]), enemy, stops, target=t)
            best = None
    if t not in dist:
        return None
    src = m.index(p.hexes[0])
    idx = [best[t] if best is not None else t]
    while idx[-1] != src:
        idx.append(prev[idx[-1]])
    n = len(m.ids)
    return dist[t], tuple(m.ids[i % n] for i in reversed(idx))


def _search(state: NabState, p: Piece) -> Tree:
    """Ticks to every hex the lead component reaches by the rules ``plan_move`` applies to
    a move without a given path: never into an enemy-occupied hex, and no further from an
    enemy ZOC hex entered (``stop_at_zoc``): a ZOC the move began in is entered when the path
    comes back into it after leaving it (readings A8, A23)."""
    m = state.map
    enemy, stops, home = _limits(state, p)
    src = m.index(p.hexes[0])
    dist, prev = m.cheapest_tree(src, enemy, stops)
    if not home or not _goes_on_after_coming_back(src, prev, home):
        # (the cheapest ways, found as if a zone begun in never stopped the move, come back
        # into none and go on: they are the cheapest ways A23 allows too)
        return dist, prev, None
    return _search_home(m, src, enemy, stops, home)


def _limits(state: NabState, p: Piece) -> tuple[set[int], set[int], list[frozenset[int]]]:
    """What bounds ``p``'s search: the hexes holding an enemy piece, the enemy ZOC hexes a
    move stops in, and the enemy ZOCs the move begins in (``stop_at_zoc``)."""
    m = state.map
    enemy = {m.index(h) for q in state.pieces.values() if q.side != p.side for h in q.hexes}
    stops: set[int] = set()
    home: list[frozenset[int]] = []
    if state.config.stop_at_zoc and state.is_force(p):
        mine = set(p.hexes)
        for _, z in enemy_zocs(state, p.side):
            if not mine & z:
                stops.update(m.index(h) for h in z)
            else:
                home.append(frozenset(map(m.index, z)))
    return enemy, stops, home


def _goes_on_after_coming_back(src: int, prev: dict[int, int], home: list[frozenset[int]]) -> bool:
    """Does a path of the tree ``prev`` go on from a hex where it came back into a zone of
    ``home`` it had left (reading A23)?"""
    via = set(prev.values())
    for z in home:
        for v in z:
            if v == src or v not in via or v not in prev:
                continue
            u = prev[v]
            while u != src:
                if u not in z:
                    return True  # v's way left the zone: it stops in v, which others go on from
                u = prev[u]
    return False


def _search_home(
    m: Any, src: int, blocked: set[int], stops: set[int], home: list[frozenset[int]]
) -> Tree:
    """Dijkstra over labels (hex, zones left) for a move that began in the enemy ZOCs
    ``home``: moving on inside such a zone is free, but a path that left it stops where it
    comes back into it (reading A23: that is entering it, A8). Ties go to the lower label."""
    n = len(m.ids)
    inside: dict[int, int] = {}  # hex -> the home zones it is in, as bits
    for i, z in enumerate(home):
        for h in z:
            inside[h] = inside.get(h, 0) | 1 << i
    every = (1 << len(home)) - 1
    edges = m.out_edges
    dist: dict[int, int] = {}
    best: dict[int, int] = {}
    seen: dict[int, int] = {src: 0}
    prev: dict[int, int] = {}
    heap: list[tuple[int, int]] = [(0, src)]
    done: set[int] = set()
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        d, lab = pop(heap)
        if lab in done:
            continue
        done.add(lab)
        u = lab % n
        if u not in dist:
            dist[u] = d
            best[u] = lab
        mask = lab // n
        if lab != src:
            zones = inside.get(u, 0)
            if u in stops or mask & zones:
                continue  # a ZOC entered (or come back into): the move stops here
            mask |= every & ~zones  # going on from u: the home zones without u are left
        base = n * mask
        for v, c in edges[u]:
            if v in blocked:
                continue
            nd, nl = d + c, v + base
            old = seen.get(nl)
            if old is None or nd < old:
                seen[nl] = nd
                prev[nl] = lab
                push(heap, (nd, nl))
    return dist, prev, best


def _zoc_hexes(state: NabState, p: Piece) -> set[str]:
    return {h for _, z in enemy_zocs(state, p.side) for h in z}


def move_targets(state: NabState, p: Piece) -> tuple[str, ...]:
    """The destinations offered for ``p``: one hex id ("W2020") per one-hex force, a
    comma-joined array ("W2020,W2021") for a multi-hex force (its lead component reaches the
    first hex, the others stand in touching hexes). Capped at :data:`MOVE_CHOICES`."""
    m = state.map
    free = fx._free_for(state, p, {p.id})
    k = len(p.hexes)
    start = p.hexes[0]
    found: list[tuple[int, str, str]] = []  # (ticks, lead hex, offered value)
    for i, d in tree(state, p)[0].items():
        h = m.ids[i]
        if h == start or not free(h):
            continue
        if k == 1:
            found.append((d, h, h))
            continue
        arrays = fx._polyhexes(state, (h,), k, free)
        if arrays:
            found.append((d, h, ",".join(arrays[0])))
    found.sort()
    zoc = _zoc_hexes(state, p) - set(p.hexes) if state.is_force(p) else set()
    near_zoc = [f for f in found if any(x in zoc for x in f[2].split(","))][:ZOC_CHOICES]
    rest = [f for f in found if f not in near_zoc]
    far = MOVE_CHOICES - len(near_zoc) - NEAR_CHOICES
    chosen = near_zoc + rest[:NEAR_CHOICES]
    if far > 0:
        chosen += [f for f in rest[NEAR_CHOICES:][-far:]]
    return tuple(v for _, _, v in chosen)


#: the hexes 1 to 3 away from a hex, in the map's order, by map identity and hex (a map never
#: changes in a game; the entry keeps it alive so its id is not reused)
_WITHIN_THREE: dict[tuple[int, str], tuple[Any, tuple[str, ...]]] = {}


def _within_three(hexmap: Any, hex_id: str) -> list[str]:
    """``[h for h in map.ids if 0 < map.distance(h, hex_id) <= 3]``, measured once per map."""
    key = (id(hexmap), hex_id)
    hit = _WITHIN_THREE.get(key)
    if hit is None or hit[0] is not hexmap:
        if len(_WITHIN_THREE) > 20_000:
            _WITHIN_THREE.clear()
        # the 36 axial hexes around it that are on the map, in the map's order (the same as
        # a scan of every hex by distance: tests/napoleon_at_bay/test_nab_reach.py)
        near = (hexmap.id_at(h) for k in (1, 2, 3) for h in hexmap.hex(hex_id).ring(k))
        ring = tuple(sorted((h for h in near if h is not None), key=hexmap.index))
        hit = _WITHIN_THREE[key] = (hexmap, ring)
    return list(hit[1])


#: destinations tried for a force by ``legal_requests`` and the simulator (the first the rules
#: accept is played)
MOVE_TRIES = 6


def move_tries(state: NabState, p: Piece, rng: Any) -> list[tuple[str, dict[str, Any]]]:
    """The moves tried for the one-hex force ``p``, in order: up to :data:`MOVE_TRIES` hexes
    1 to 3 away, drawn at random (one shuffle from ``rng``)."""
    near = _within_three(state.map, p.hexes[0])
    rng.shuffle(near)
    return [("move", {"force": p.id, "to": [h]}) for h in near[:MOVE_TRIES]]
