"""'Fixing' a force's location (Herman (1)-(4)): eligibility, the fixing roll, the choice of a
supporting force, and the substitution (placement of both forces).

Everything here is pure: it reads a :class:`NabState` and rolls only through Checks on the
injected dice source.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from vedette.dice.check import Check
from vedette.dice.modifiers import Modifier
from vedette.dice.roll import Roll
from vedette.dice.tables import Row, Table
from vedette.errors import RuleViolation
from vedette.rules.napoleon_at_bay.model import NabState, Piece

R1, R2, R3, R4 = "Herman (1)", "Herman (2)", "Herman (3)", "Herman (4)"
DRAFT = "Herman, first draft"
MAX_ARRAYS = 500


# -- geometry of forces ----------------------------------------------------------------------
def zoc_of(state: NabState, p: Piece) -> set[str]:
    """The hexes in a piece's zone of control (none if its kind exerts none)."""
    if p.kind not in state.config.zoc_kinds:
        return set()
    m = state.map
    return {h for x in p.hexes for h in m.zoc(x)} - set(p.hexes)


def adjacent_of(state: NabState, p: Piece) -> set[str]:
    m = state.map
    return {h for x in p.hexes for h in m.neighbors(x)} - set(p.hexes)


def enemy_forces_in(state: NabState, side: str, hexes: set[str], exclude: str = "") -> list[Piece]:
    out: dict[str, Piece] = {}
    for h in hexes:
        for q in state.forces_at(h):
            if q.side != side and q.id != exclude:
                out[q.id] = q
    return list(out.values())


def began_inside(p: Piece, zone: set[str]) -> bool:
    """Herman (1), reading A8: did ``p``'s latest move begin in ``zone`` and never leave it? Then
    it did not *enter* it. (``came_from``: the hexes it began in, then its lead's path.)"""
    n = len(p.hexes)
    start, via = p.came_from[:n], p.came_from[n:]
    return bool(set(start) & zone) and all(h in zone for h in via)


def entered_from(p: Piece, zone: set[str]) -> tuple[str, ...]:
    """Reading A25: where ``p`` stood just before its latest move last entered ``zone`` (its
    start hexes when the first step entered it, else the lead's hex before that step); ()
    when the move never entered it. (``came_from``: the hexes it began in, then its lead's
    path; the hexes it ends in come last.)"""
    n = len(p.hexes)
    stands = [p.came_from[:n], *((h,) for h in p.came_from[n:]), p.hexes]
    out: tuple[str, ...] = ()
    for before, now in itertools.pairwise(stands):
        if set(now) & zone and not set(before) & zone:
            out = tuple(before)
    return out


def adjacent_to_enemy(state: NabState, p: Piece) -> bool:
    """Herman (2): is the force adjacent to an enemy force (whatever the ZOC)? (``enemy_forces_in``
    its ``adjacent_of`` hexes, stopping at the first: every fold asks it of the fixed forces.)"""
    m, occupancy, pieces = state.map, state.occupancy, state.pieces
    forces, side, own = state.config.force_kinds, p.side, p.hexes
    for x in own:
        for h in m.near(x):
            if h not in own:
                for i in occupancy.get(h, ()):
                    q = pieces[i]
                    if q.side != side and q.kind in forces:
                        return True
    return False


# -- eligibility (Herman (1), (2); first draft) ------------------------------------------------
def check_eligible(
    state: NabState, moving_id: str, contact_id: str, repulse: bool = False
) -> tuple[Piece, Piece]:
    """The moving and contact forces of a 'fixing', or a RuleViolation naming the rule."""
    moving = state.piece(moving_id)
    contact = state.piece(contact_id)
    draft = state.config.variant == "draft"
    r1 = DRAFT if draft else R1
    if state.phase != "movement":
        raise RuleViolation(
            DRAFT if draft else "Herman (5)",
            "forces are fixed during movement, not in the combat phase",
        )
    for p, what in ((moving, "moving"), (contact, "contact")):
        if not state.is_force(p):
            raise RuleViolation(
                DRAFT if draft else R3, f"{p.id} ({p.name}) is a {p.kind}, not a force ({what})"
            )
    if moving.side != state.phasing or moving.id not in state.moved:
        raise RuleViolation(r1, f"{moving.id} ({moving.name}) is not a moving force this phase")
    if repulse and moving.march != "force":
        raise RuleViolation(r1, f"{moving.id} is not force marching: only a force march repulses")
    if contact.side == moving.side:
        raise RuleViolation(r1, f"{contact.id} and {moving.id} are on the same side")
    if contact.id in state.moved or contact.id == state.moving:
        raise RuleViolation(r1, f"{contact.id} ({contact.name}) is moving, not a contact force")
    if contact.fixed:
        raise RuleViolation(
            DRAFT if draft else R2,
            f"{contact.id} ({contact.name}) is fixed while it stays adjacent to an enemy force",
        )
    if state.config.contact_needs_vedette_or_general and not (contact.vedettes or contact.generals):
        raise RuleViolation(
            r1, f"{contact.id} ({contact.name}) has neither a vedette nor a general to be fixed"
        )
    czoc = zoc_of(state, contact)
    if not set(moving.hexes) & czoc:
        raise RuleViolation(
            r1, f"{moving.id} ({moving.name}) has not entered the ZOC of {contact.id}"
        )
    if began_inside(moving, czoc):
        raise RuleViolation(
            r1,
            f"{moving.id} ({moving.name}) began its move in the ZOC of {contact.id}:"
            " it did not enter it",
        )
    others = enemy_forces_in(state, contact.side, czoc, exclude=moving.id)
    if others:
        raise RuleViolation(
            r1,
            f"{contact.id} ({contact.name}) already has an enemy force in its ZOC"
            f" ({', '.join(o.id for o in others)})",
        )
    if not draft:
        adj = enemy_forces_in(state, contact.side, adjacent_of(state, contact), exclude=moving.id)
        if adj:
            raise RuleViolation(
                R1,
                f"{contact.id} ({contact.name}) already has an enemy force adjacent"
                f" ({', '.join(o.id for o in adj)})",
            )
        # reading A25: "or adjacent to it" read to count the moving force itself, next to the
        # contact force (across a hexside that blocks its ZOC) when it entered the ZOC
        if state.config.mover_counts_adjacent:
            near = adjacent_of(state, contact)
            stood = [h for h in entered_from(moving, czoc) if h in near]
            if stood:
                raise RuleViolation(
                    R1,
                    f"{contact.id} ({contact.name}) already had an enemy force adjacent:"
                    f" {moving.id} itself, in {','.join(stood)} before it entered the ZOC"
                    " (option mover_counts_adjacent, A25)",
                )
    return moving, contact


# -- the fixing roll (Herman (3)) ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class DrmCase:
    number: int  # Herman (3) DRM 1-4
    text: str
    modifiers: tuple[Modifier, ...]


def drm_case(state: NabState, moving: Piece, contact: Piece) -> DrmCase:
    """Herman (3) die roll modifiers 1-4, exactly one of which applies."""
    d = state.config.drm
    vs = state.config.vedette_strength

    def what(p: Piece) -> str:
        return "Vedette" if p.vedettes else "Cav"

    m, c = moving.has_cavalry, contact.has_cavalry
    if m and not c:
        r = d.reason_only.format(side=moving.side, what=what(moving))
        return DrmCase(1, r, _mods(d.only_moving_has, r, "Herman (3) DRM 1"))
    if c and not m:
        r = d.reason_only.format(side=contact.side, what=what(contact))
        return DrmCase(3, r, _mods(d.only_contact_has, r, "Herman (3) DRM 3"))
    if m and c:
        ms, cs = moving.cavalry_strength(vs), contact.cavalry_strength(vs)
        if ms > cs:
            r = d.reason_superior.format(side=moving.side)
            return DrmCase(2, r, _mods(d.superior_moving, r, "Herman (3) DRM 2"))
        if cs > ms:
            r = d.reason_superior.format(side=contact.side)
            return DrmCase(2, r, _mods(d.superior_contact, r, "Herman (3) DRM 2"))
        return DrmCase(2, f"equal cavalry ({ms} SP each)", _mods(d.tie, "tie", "Herman (3) DRM 2"))
    return DrmCase(4, "neither has cavalry or a vedette", _mods(d.neither, "no cavalry", R3))


def _mods(value: int, reason: str, rule: str) -> tuple[Modifier, ...]:
    return (Modifier(value, reason, rule),) if value else ()


def fixing_check(state: NabState, moving: Piece, contact: Piece) -> Check:
    """The one Check for both the odds and the roll of Herman (3)."""
    case = drm_case(state, moving, contact)
    return Check(state.config.dice, case.modifiers, state.config.table, "fixing", R3)


# -- supporting forces (Herman (1), (3), (4)) ------------------------------------------------
def candidates_in_range(state: NabState, contact: Piece) -> list[Piece]:
    """Herman (3): friendly forces (not garrisons, bridge trains, centers of operation) within
    the series' range, counted in hexes; a fixed force is never substituted (Herman (2))."""
    m = state.map
    rng = state.config.support_range
    occ = state.occupancy
    side, cid = contact.side, contact.id
    index = state.columns
    pieces = state.pieces
    forces = state.config.support_kinds  # (reading A26: the kinds of force that may support)
    seen: dict[str, Piece] = {}
    for h in contact.hexes:
        if index is None:  # (a small game keeps no index: each hex in range is probed)
            found = m.contents_within(h, rng, occ)
        else:  # only the hexes in range where the side has a piece, read off its index
            found = [occ[x] for x in m.indexed_within(h, rng, index.get(side, {}))]
        for ids in found:
            for pid in ids:
                if pid in seen or pid == cid:
                    continue
                p = pieces[pid]
                if p.side == side and p.kind in forces and not p.fixed:
                    seen[pid] = p
    return sorted(seen.values(), key=lambda p: p.id)


def _search_ends(
    state: NabState, contact: Piece, cands: Sequence[Piece]
) -> tuple[list[int], dict[int, list[Piece]], int | None]:
    """What a search of Herman (1)'s "closest in movement points" starts from and looks for:
    the contact force's hexes, the candidates by hex (map indexes), and the MP limit in the
    map's ticks (None: no limit; the limit is never negative, so its whole ticks are floored)."""
    index = state.map.index
    by_hex: dict[int, list[Piece]] = {}
    for p in cands:
        for h in p.hexes:
            i = index(h)
            got = by_hex.get(i)
            if got is None:
                by_hex[i] = [p]
            else:
                got.append(p)
    lim = state.config.mp_limit
    bound = None if lim is None else lim.numerator * state.map.denominator // lim.denominator
    return [index(h) for h in contact.hexes], by_hex, bound


def mp_tiers(
    state: NabState, contact: Piece, cands: Sequence[Piece]
) -> Iterator[tuple[Fraction | None, list[Piece]]]:
    """Herman (1): candidates grouped by the movement points they need to reach the contact
    force's hex, closest first; those beyond the MP limit (or cut off) come last (None).

    A lazy bounded Dijkstra: the caller stops when it has its force, so only the ground up to
    the closest candidates is searched.
    """
    m = state.map
    sources, by_hex, bound = _search_ends(state, contact, cands)
    left = {p.id: p for p in cands}
    cur: int | None = None
    tier: list[Piece] = []
    for d, i in m.search(sources, bound, targets=by_hex, direction="to"):
        if cur is not None and d != cur and tier:
            yield m.mp(cur), tier
            tier = []
        cur = d
        for p in by_hex[i]:
            if p.id in left:
                del left[p.id]
                tier.append(p)
    if tier and cur is not None:
        yield m.mp(cur), tier
    if left:
        yield None, sorted(left.values(), key=lambda p: p.id)


def closest_tier(state: NabState, contact: Piece, cands: Sequence[Piece]) -> list[Piece]:
    """Herman (1): the candidates closest in MP to the contact force's hex (all of them if
    none is within the MP limit: they rank equal, after every reachable force)."""
    sources, by_hex, bound = _search_ends(state, contact, cands)
    best, hexes = state.map.nearest(sources, by_hex, bound, direction="to")
    if best is None:
        return sorted(cands, key=lambda p: p.id)
    out: dict[str, Piece] = {}
    for i in hexes:
        for p in by_hex[i]:
            out[p.id] = p
    return list(out.values())


# -- placement (Herman (4)) --------------------------------------------------------------------
def _polyhexes(
    state: NabState, seeds: tuple[str, ...], size: int, free: Callable[[str], bool]
) -> list[tuple[str, ...]]:
    """Connected groups of ``size`` free hexes containing all ``seeds`` (seeds first)."""
    if len(seeds) >= size:
        return [seeds] if len(seeds) == size else []
    m = state.map
    start = frozenset(seeds)
    seen = {start}
    out: list[frozenset[str]] = []
    stack = [start]
    while stack and len(out) < MAX_ARRAYS:
        cur = stack.pop()
        if len(cur) == size:
            out.append(cur)
            continue
        frontier = {n for h in cur for n in m.neighbors(h)} - cur
        for n in sorted(frontier):
            if free(n):
                nxt = cur | {n}
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    return [seeds + tuple(sorted(s - start)) for s in out]


def _free_for(state: NabState, mover: Piece, leaving: set[str]) -> Callable[[str], bool]:
    """May ``mover`` be placed in a hex? Passable terrain, no enemy piece, room to stack
    (pieces in ``leaving`` do not count: they are switching places)."""
    m = state.map
    limit = state.config.forces_per_hex
    counts = state.is_force(mover)  # a garrison etc. does not use up the stacking room

    def free(h: str) -> bool:
        if not m.passable(h):
            return False
        n = 0
        for pid in state.occupancy.get(h, ()):
            if pid in leaving:
                continue
            p = state.pieces[pid]
            if p.side != mover.side:
                return False
            if state.is_force(p):
                n += 1
        return n < limit or not counts

    return free


def support_arrays(
    state: NabState, moving: Piece, contact: Piece, support: Piece
) -> list[tuple[str, ...]]:
    """Herman (4): the legal arrays of the supporting force in the contact force's location.

    It takes the contact force's hex(es) (part of them if it is smaller); a larger force
    puts its other components in touching hexes, each in the moving force's ZOC if
    possible (then only such arrays are legal), else any (the owning player's choice).
    Ordered: all-in-ZOC first, then fewest components out of the ZOC, then the closest to the
    contact location ("arrayed in the new location": the hexes each component is away from it,
    summed), then by hex ids.
    Arrays that leave no room for the contact force are not legal.
    """
    leaving = {contact.id, support.id}
    free = _free_for(state, support, leaving)
    k = len(support.hexes)
    if k >= len(contact.hexes):
        # the whole contact location, plus touching hexes for the other components
        if not all(free(h) for h in contact.hexes):
            return []
        arrays = _polyhexes(state, contact.hexes, k, free)
    else:
        # a smaller supporting force takes part of the contact force's location
        inside = set(contact.hexes)

        def free_inside(h: str) -> bool:
            return h in inside and free(h)

        found: dict[frozenset[str], tuple[str, ...]] = {}
        for h in contact.hexes:
            if free(h):
                for a in _polyhexes(state, (h,), k, free_inside):
                    found.setdefault(frozenset(a), a)
        arrays = list(found.values())
    # only arrays that leave room for the contact force are possible at all; among them, the
    # all-in-ZOC ones are required when there are any ("if possible")
    arrays = [a for a in arrays if contact_arrays(state, contact, support, a)]
    if len(arrays) < 2:
        return arrays  # (nothing to order, and one array is legal whether in the ZOC or not)
    m = state.map
    mzoc = {h for x in moving.hexes for h in m.zoc(x)} - set(moving.hexes)

    def spread(a: tuple[str, ...]) -> int:
        return sum(min(m.distance(h, c) for c in contact.hexes) for h in a)

    scored = sorted(arrays, key=lambda a: (sum(h not in mzoc for h in a), spread(a), a))
    if any(all(h in mzoc for h in a) for a in scored):
        scored = [a for a in scored if all(h in mzoc for h in a)]
    return scored


def contact_arrays(
    state: NabState, contact: Piece, support: Piece, support_array: tuple[str, ...]
) -> list[tuple[str, ...]]:
    """Herman (4): where the contact force goes: any of the vacated hexes (one-hex force);
    a multi-hex force is arrayed in the vacated location: final text "in a logical manner"
    (fewest hexes outside the vacated ones), first draft "as the owning player determines"
    (any connected array touching them)."""
    leaving = {contact.id, support.id}
    base = _free_for(state, contact, leaving)
    taken = set(support_array)

    def free(h: str) -> bool:
        return h not in taken and base(h)

    vacated = support.hexes
    m = len(contact.hexes)
    if m == 1:
        return [(h,) for h in vacated if free(h)]
    found: dict[tuple[str, ...], None] = {}
    for v in vacated:
        if free(v):
            for a in _polyhexes(state, (v,), m, free):
                found[a] = None
    arrays = sorted(found, key=lambda a: (sum(h not in vacated for h in a), a))
    if state.config.variant == "final" and arrays:
        best = sum(h not in vacated for h in arrays[0])
        arrays = [a for a in arrays if sum(h not in vacated for h in a) == best]
    return arrays


# -- choice of the supporting force ------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Ranked:
    """A supporting force in range, with the MP it needs (None: beyond the limit) and the
    hexes it is away, and whether it can legally be placed."""

    force: Piece
    mp: Fraction | None
    hexes_away: int
    legal: bool


def ranked_candidates(state: NabState, moving: Piece, contact: Piece) -> list[Ranked]:
    """Every force in range, closest in MP first (full search: for display and odds)."""
    m = state.map
    out: list[Ranked] = []
    cands = candidates_in_range(state, contact)
    for mp, tier in mp_tiers(state, contact, cands):
        for p in sorted(tier, key=lambda p: p.id):
            away = min(m.distance(a, b) for a in p.hexes for b in contact.hexes)
            out.append(Ranked(p, mp, away, bool(support_arrays(state, moving, contact, p))))
    return out


def choosable(state: NabState, moving: Piece, contact: Piece) -> list[Piece]:
    """The forces among which the die chooses: final text, the legal ones equally closest in
    MP (Herman (1), (4); an illegal placement falls to the next closest); first draft, every
    legal one in range (chosen at random)."""
    cands = candidates_in_range(state, contact)
    if state.config.variant == "draft":
        return [p for p in cands if support_arrays(state, moving, contact, p)]
    if not cands:
        return []
    # fast path: the closest tier alone (the usual case: it can be placed)
    first = closest_tier(state, contact, cands)
    legal = [p for p in first if support_arrays(state, moving, contact, p)]
    if legal:
        return sorted(legal, key=lambda p: p.id)
    for _, tier in mp_tiers(state, contact, cands):
        legal = [p for p in tier if support_arrays(state, moving, contact, p)]
        if legal:
            return sorted(legal, key=lambda p: p.id)
    return []


def tie_check(forces: Sequence[Piece], draft: bool) -> Check | None:
    """The die roll that picks one of several forces (Herman (1) ties; first draft: random).
    Two, three or six forces share a d6 evenly; otherwise a die with one face per force."""
    n = len(forces)
    if n < 2:
        return None
    sides = 6 if n in (2, 3, 6) else n
    per = sides // n
    rows = tuple(
        Row(
            i * per + 1,
            (i + 1) * per,
            p.id,
            f"{p.name} ({p.id})",
            f"{i * per + 1}-{(i + 1) * per}" if per > 1 else str(i * per + 1),
        )
        for i, p in enumerate(forces)
    )
    rule = DRAFT if draft else R1
    label = "random supporting force" if draft else f"tie among {n} equally close forces"
    return Check(f"1d{sides}", (), Table("support", rows, label, rule), label, rule)


def hexes_text(n: int) -> str:
    return f"{n} hex" if n == 1 else f"{n} hexes"


def bare_line(r: Roll) -> str:
    """The roll in the seed's style, without label or consequence: ``1d6=3+2 (...)=5``."""
    return replace(r, label="", consequence=None).line()
