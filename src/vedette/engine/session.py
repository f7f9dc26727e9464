"""A game session: the engine owns the dice source and the event log; state is the fold of
the log through the ruleset.

Log records:

* ``created``: ruleset, scenario (the full data, not a path), options, house rules, seed.
* ``action``: the procedure and request, the events, the rolls (JSON), the message, and the
  dice stream position before and after.
* ``undo``: undoes the latest action not already undone. Nothing is deleted. The stream
  position goes back with the action, so an undone roll made again gives the same dice:
  undo cannot be used to re-roll.
"""

from __future__ import annotations

import difflib
import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from vedette import rules
from vedette.dice.check import Odds
from vedette.dice.sources import DiceSource, PhysicalSource, SeededSource
from vedette.engine.store import Record, Store, iter_jsonl
from vedette.errors import BadRequest, GameError, VedetteError
from vedette.rules.base import Event, Outcome, Procedure, Request, Ruleset
from vedette.schemas.game import (
    check_created,
    check_game_name,
    check_head,
    check_records,
    check_request,
)

EXPORT_FORMAT = "vedette-game"


@dataclass(frozen=True, slots=True)
class Replayed:
    """The result of folding a log: state, dice position and the effective actions."""

    state: Any
    position: int
    effective: tuple[int, ...]  # seqs of actions in force, in order


def effective_actions(records: Sequence[Record]) -> list[Record]:
    """The actions still in force: each ``undo`` cancels the latest one in force."""
    stack: list[Record] = []
    for r in records:
        if r.kind == "action":
            stack.append(r)
        elif r.kind == "undo" and stack:
            stack.pop()
    return stack


def replay(ruleset: Ruleset[Any], records: Sequence[Record]) -> Replayed:
    """Fold a whole log. Same log, same state: always."""
    if not records or records[0].kind != "created":
        raise GameError("a game log must start with a 'created' event")
    c = records[0].payload
    state = ruleset.initial_state(c["scenario"], _options(c))
    actions = effective_actions(records[1:])
    position = 0
    apply = ruleset.apply
    for a in actions:
        for e in a.payload["events"]:
            state = apply(state, Event(e["kind"], e.get("data", {})))
        position = int(a.payload["dice"]["after"])
    return Replayed(state, position, tuple(a.seq for a in actions))


def _options(created: Mapping[str, Any]) -> dict[str, Any]:
    opts = dict(created.get("options", {}))
    if created.get("house_rules"):
        opts["house_rules"] = created["house_rules"]
    return opts


class Game:
    """One game: its log in the store, its state and its dice stream."""

    def __init__(self, store: Store, name: str) -> None:
        info = store.game(name)
        self.store = store
        self.id = info.id
        self.name = info.name
        self.ruleset: Ruleset[Any] = rules.get(info.ruleset)
        self.records: list[Record] = store.records(info.id)
        self._refresh()

    # -- construction -------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        store: Store,
        name: str,
        ruleset: str,
        scenario: Mapping[str, Any],
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        house_rules: Mapping[str, Any] | None = None,
    ) -> Game:
        rs_name = rules.canonical(ruleset)
        rs = rules.get(rs_name)
        first = {
            "ruleset": rs_name,
            "scenario": dict(scenario),
            "options": dict(options or {}),
            "house_rules": dict(house_rules or {}),
            "seed": seed if seed is not None else secrets.randbits(63),
        }
        check_game_name(name)
        first = json.loads(json.dumps(check_created(rs, first, "new game")))
        # validate before anything is written: the scenario must set up
        rs.initial_state(first["scenario"], _options(first))
        store.create_game(name, rs_name, first)
        store.set_setting("current_game", name)
        return cls(store, name)

    @classmethod
    def open(cls, store: Store, name: str | None = None) -> Game:
        if name is None:
            name = store.get_setting("current_game")
            if name is None:
                raise GameError("no game given and no current game (start one with 'game new')")
        return cls(store, name)

    # -- state --------------------------------------------------------------------------
    def _refresh(self) -> None:
        r = replay(self.ruleset, self.records)
        self.state: Any = r.state
        self.position = r.position
        self.effective = r.effective

    @property
    def created(self) -> Mapping[str, Any]:
        return self.records[0].payload

    @property
    def seed(self) -> int:
        return int(self.created["seed"])

    @property
    def next_seq(self) -> int:
        return self.records[-1].seq + 1

    def procedure(self, name: str) -> Procedure[Any]:
        procs = self.ruleset.procedures
        if name not in procs:
            raise BadRequest(
                f"{self.ruleset.name} has no procedure {name!r} (has: {', '.join(procs)})"
            )
        return procs[name]

    @staticmethod
    def check_arguments(proc: Procedure[Any], request: Mapping[str, Any]) -> None:
        """Refuse an argument the procedure does not declare (a typo would otherwise be
        ignored silently), suggesting the closest declared one."""
        known = [p.name for p in proc.params]
        for key in request:
            if key not in known:
                close = difflib.get_close_matches(key, known, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                takes = f" (takes: {', '.join(known)})" if known else " (it takes none)"
                raise BadRequest(f"{proc.name} has no argument {key!r}{hint}{takes}")

    def dice(self, faces: Sequence[int] | None = None) -> DiceSource:
        """The physical dice given, or the game's seeded stream at its current position."""
        if faces:
            return PhysicalSource(faces)
        return SeededSource(self.seed, self.position)

    # -- play ---------------------------------------------------------------------------
    def odds(self, procedure: str, request: Mapping[str, Any]) -> list[Odds]:
        proc = self.procedure(procedure)
        check_request(request)
        self.check_arguments(proc, request)
        if proc.odds is None:
            return []
        return list(proc.odds(self.state, Request(request)))

    def perform(
        self, procedure: str, request: Mapping[str, Any], faces: Sequence[int] | None = None
    ) -> Outcome:
        """Run a procedure; append its events (unless a query). Raises without writing
        anything if the request is bad, the rules forbid it, or the dice do not fit."""
        proc = self.procedure(procedure)
        check_request(request, faces)
        self.check_arguments(proc, request)
        source = self.dice(faces)
        outcome = proc.run(self.state, Request(request), source)
        if isinstance(source, PhysicalSource):
            source.check_all_used()
        if proc.query:
            return outcome
        # fold first: an event the ruleset cannot apply is refused before it is written
        state = self.state
        for e in outcome.events:
            state = self.ruleset.apply(state, e)
        after = source.position if isinstance(source, SeededSource) else self.position
        payload = {
            "procedure": procedure,
            "request": Request(request).to_json(),
            "events": [e.to_json() for e in outcome.events],
            "rolls": [r.to_json() for r in outcome.rolls],
            "message": outcome.message,
            "dice": {"source": source.kind, "before": self.position, "after": after},
        }
        rec = self.store.append(self.id, self.next_seq, "action", payload)
        self.records.append(rec)
        self.state = state
        self.position = after
        self.effective = (*self.effective, rec.seq)
        return outcome

    def undo(self) -> Record:
        """Undo the latest action in force (itself an event)."""
        if not self.effective:
            raise GameError("nothing to undo")
        target = self.effective[-1]
        rec = self.store.append(self.id, self.next_seq, "undo", {"undoes": target})
        self.records.append(rec)
        self._refresh()
        return rec

    # -- views --------------------------------------------------------------------------
    def log(self) -> list[Record]:
        return list(self.records)

    def log_lines(self) -> list[str]:
        undone = {r.seq for r in self.records if r.kind == "action"} - set(self.effective)
        out: list[str] = []
        for r in self.records:
            p = r.payload
            if r.kind == "created":
                out.append(f"#{r.seq} created: {p['ruleset']} (seed {p['seed']})")
            elif r.kind == "action":
                mark = " [undone]" if r.seq in undone else ""
                out.append(f"#{r.seq} {p['procedure']}{mark}")
                out.extend(f"    {roll['line']}" for roll in p.get("rolls", []))
                if p.get("message"):
                    out.extend(f"    {line}" for line in str(p["message"]).splitlines())
            elif r.kind == "undo":
                out.append(f"#{r.seq} undo #{p['undoes']}")
        return out

    def render(self) -> str:
        return self.ruleset.render(self.state)

    # -- export / import ----------------------------------------------------------------
    def export_jsonl(self) -> str:
        head = {
            "format": EXPORT_FORMAT,
            "version": 1,
            "name": self.name,
            "ruleset": self.ruleset.name,
        }
        lines = [json.dumps(head)] + [json.dumps(r.to_json()) for r in self.records]
        return "\n".join(lines) + "\n"

    @classmethod
    def import_jsonl(cls, store: Store, text: str, name: str | None = None) -> Game:
        objs = list(iter_jsonl(text))
        if not objs or objs[0].get("format") != EXPORT_FORMAT:
            raise GameError(
                f"not a vedette game export (first line must have format={EXPORT_FORMAT!r})"
            )
        head = check_head(objs[0])
        rs = rules.get(head.ruleset)
        records = [Record(**r) for r in check_records(rs, objs[1:], head.ruleset)]
        check_game_name(name or head.name)
        try:  # must replay cleanly, and show, before it is stored
            state = replay(rs, records).state
            json.dumps(rs.state_json(state), default=str)
            rs.render(state)
        except VedetteError:
            raise
        except Exception as e:
            raise GameError(f"export does not replay: {type(e).__name__}: {e}") from None
        store.import_game(str(name or head.name), rs.name, records)
        return cls(store, str(name or head.name))


def all_games(store: Store) -> Iterable[str]:
    return [g.name for g in store.games()]
