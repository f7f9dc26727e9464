"""Events and their fold. Every event carries a patch: whole values to put or remove, counts,
closures, the phase. ``apply`` is deterministic, so replaying the log gives the same state."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from vedette.rules.base import Event
from vedette.rules.solitaire_asl.model import (
    Fortification,
    Location,
    Minefield,
    ObaModule,
    Stack,
    State,
    natural_key,
)


class Patch:
    """Builds an event's data: what to put, remove, count and close."""

    def __init__(self) -> None:
        self.d: dict[str, Any] = {}

    def _add(self, key: str, value: Any) -> Patch:
        self.d.setdefault(key, []).append(value)
        return self

    def put_stack(self, s: Stack) -> Patch:
        return self._add("put_stacks", s.to_json())

    def remove_stack(self, sid: str) -> Patch:
        return self._add("remove_stacks", sid)

    def put_fort(self, f: Fortification) -> Patch:
        return self._add("put_forts", f.to_json())

    def put_mine(self, m: Minefield) -> Patch:
        return self._add("put_mines", m.to_json())

    def remove_mine(self, mid: str) -> Patch:
        return self._add("remove_mines", mid)

    def put_oba(self, o: ObaModule) -> Patch:
        return self._add("put_oba", o.to_json())

    def put_location(self, loc: Location) -> Patch:
        return self._add("put_locations", loc.to_json())

    def count(self, side: str, phase_key: str, op: str) -> Patch:
        return self._add("count", [side, phase_key, op])

    def close(self, side: str, op: str, window: str) -> Patch:
        return self._add("close", [side, op, window])

    def pending(self, kind: str, ident: str, hex_id: str) -> Patch:
        return self._add("pending_add", [kind, ident, hex_id])

    def resolve_pending(self, kind: str, ident: str) -> Patch:
        return self._add("pending_remove", [kind, ident])

    def set(self, key: str, value: Any) -> Patch:
        self.d[key] = value
        return self

    def event(self, kind: str, **extra: Any) -> Event:
        return Event(kind, {**self.d, **extra})


def _replace_all(
    old: Iterable[Any], new: list[Any], drop: set[str], key: Any = None
) -> tuple[Any, ...]:
    by = {x.id: x for x in old if x.id not in drop}
    for x in new:
        by[x.id] = x
    items = list(by.values())
    if key is not None:
        items.sort(key=key)
    return tuple(items)


def apply_event(state: State, event: Event) -> State:
    d: Mapping[str, Any] = event.data
    s = state
    if "phase" in d:
        p = d["phase"]
        s = replace(
            s,
            phase=str(p["phase"]),
            phasing=str(p["phasing"]),
            player_turn=int(p["player_turn"]),
            acted=False,
        )
        if p.get("new_player_turn"):
            # TI lasts for the remainder of the player turn (O'Leary 2.5, >=13)
            s = replace(s, stacks=tuple(replace(x, ti=False) if x.ti else x for x in s.stacks))
            pt = str(s.player_turn - 1) + ":"
            s = replace(
                s,
                counts=tuple(c for c in s.counts if not c[1].startswith(pt)),
                closed=tuple(c for c in s.closed if not c[2].startswith(pt)),
            )
    if d.get("acted"):
        s = replace(s, acted=True)
    if "put_stacks" in d or "remove_stacks" in d:
        s = replace(
            s,
            stacks=_replace_all(
                s.stacks,
                [Stack.from_json(x) for x in d.get("put_stacks", [])],
                set(d.get("remove_stacks", [])),
                key=lambda x: natural_key(x.id),
            ),
            removed=(*s.removed, *d.get("remove_stacks", [])),
        )
    if "put_forts" in d:
        s = replace(
            s,
            fortifications=_replace_all(
                s.fortifications, [Fortification.from_json(x) for x in d["put_forts"]], set()
            ),
        )
    if "put_mines" in d or "remove_mines" in d:
        s = replace(
            s,
            minefields=_replace_all(
                s.minefields,
                [Minefield.from_json(x) for x in d.get("put_mines", [])],
                set(d.get("remove_mines", [])),
            ),
        )
    if "put_oba" in d:
        s = replace(
            s, oba=_replace_all(s.oba, [ObaModule.from_json(x) for x in d["put_oba"]], set())
        )
    if "put_locations" in d:
        s = replace(
            s,
            locations=_replace_all(
                s.locations,
                [Location.from_json(x) for x in d["put_locations"]],
                set(),
                key=lambda x: natural_key(x.id),
            ),
        )
    if "count" in d:
        counts = {(a, b, c): n for (a, b, c, n) in s.counts}
        for side, pk, op in d["count"]:
            counts[(side, pk, op)] = counts.get((side, pk, op), 0) + 1
        s = replace(s, counts=tuple((a, b, c, n) for (a, b, c), n in counts.items()))
    if "close" in d:
        closed = list(s.closed)
        for side, op, w in d["close"]:
            if (side, op, w) not in closed:
                closed.append((str(side), str(op), str(w)))
        s = replace(s, closed=tuple(closed))
    if "pending_remove" in d:
        gone = {(str(k), str(i)) for k, i in d["pending_remove"]}
        s = replace(s, pending=tuple(p for p in s.pending if (p[0], p[1]) not in gone))
    if "pending_add" in d:
        add = [(str(k), str(i), str(h)) for k, i, h in d["pending_add"]]
        s = replace(s, pending=(*s.pending, *add))
    if "allot" in d:
        a = d["allot"]
        allots = []
        for x in s.allotments:
            if x.side == a["side"]:
                x = replace(
                    x,
                    dummy_hip_placed=x.dummy_hip_placed + int(a.get("dummy_hip", 0)),
                    dummy_minefields_placed=x.dummy_minefields_placed
                    + int(a.get("dummy_minefields", 0)),
                )
            allots.append(x)
        s = replace(s, allotments=tuple(allots))
    if "serial" in d:
        s = replace(s, serial=int(d["serial"]))
    return s
