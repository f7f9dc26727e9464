"""The core patch event (issue 28): one entity's fields set with what they were; one decoder,
one fold, previous values recorded by the engine and checked when a game is imported; an
event upgraded from a version that did not record them imports as "not recorded"."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from vedette import rules
from vedette.engine import Game, Store
from vedette.engine.referee import resign
from vedette.errors import VedetteError
from vedette.rules.patch import Entities, Patch, comparable, fold_patch, patch_kind, previous
from vedette.rules.protocol import DomainEvent


@dataclass(frozen=True)
class Piece:
    id: str
    hex: str = "a1"
    hits: tuple[int, ...] = ()


@dataclass(frozen=True)
class Board:
    pieces: tuple[Piece, ...]

    def piece(self, pid: str) -> Piece:
        for p in self.pieces:
            if p.id == pid:
                return p
        raise VedetteError(f"no piece {pid!r}")


def _put(b: Board, pid: str, values: dict[str, Any]) -> Board:
    b.piece(pid)
    return Board(tuple(Piece(**{**p.__dict__, **values}) if p.id == pid else p for p in b.pieces))


ENTITIES = {"piece": Entities(Piece, Board.piece, _put)}


class PiecePatch(Patch):
    __slots__ = ()
    entity: ClassVar[str] = "piece"


Moved = patch_kind(PiecePatch, "moved", "a piece moved", "hex")
Hit = patch_kind(PiecePatch, "hit", "a piece hit")


def test_a_patch_folds_into_its_entity_and_logs_what_it_set_and_what_was() -> None:
    b = Board((Piece("p"), Piece("q")))
    e = previous(b, Moved("p", {"hex": "b2"}), ENTITIES)
    assert e.was == {"hex": "a1"}
    after = fold_patch(b, e, ENTITIES)
    assert after.piece("p").hex == "b2" and after.piece("q") == b.piece("q")
    logged = e.to_json()
    assert logged == {
        "kind": "moved",
        "v": 1,
        "data": {"entity": "piece", "id": "p", "set": {"hex": "b2"}, "was": {"hex": "a1"}},
    }
    assert Moved.decode(logged["data"]) == e
    # a list is logged as JSON and held as a tuple again
    hit = fold_patch(b, Hit.decode({"entity": "piece", "id": "q", "set": {"hits": [3]}}), ENTITIES)
    assert hit.piece("q").hits == (3,)


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"entity": "piece", "id": "p", "set": {"hex": "b2"}, "by": 1}, "has no field 'by'"),
        ({"entity": "unit", "id": "p", "set": {}}, "changes a piece, not a 'unit'"),
        ({"entity": "piece", "id": 3, "set": {}}, "'id' and 'why' must be text"),
        ({"entity": "piece", "id": "p", "set": [1]}, "'set' must be a table"),
        ({"entity": "piece", "id": "p", "set": {"hits": [1]}}, "cannot change 'hits'"),
        ({"entity": "piece", "id": "p", "set": {"hex": "b"}, "was": {"x": 1}}, "'was' must be"),
    ],
)
def test_a_malformed_patch_is_refused_in_one_line(data: dict[str, Any], says: str) -> None:
    with pytest.raises(VedetteError, match=says) as e:
        Moved.decode(data)
    assert "\n" not in str(e.value) and "'moved'" in str(e.value)


def test_the_fold_checks_each_field_against_the_entitys_type() -> None:
    b = Board((Piece("p"),))
    with pytest.raises(VedetteError, match="event 'hit': a piece has no field 'armour'"):
        fold_patch(b, Hit("p", {"armour": 2}), ENTITIES)
    with pytest.raises(VedetteError, match="no piece 'z'"):
        fold_patch(b, Hit("z", {"hits": (1,)}), ENTITIES)


def test_the_upgrade_ladder_runs_one_step_per_version_in_turn() -> None:
    class Thing(DomainEvent):
        kind: ClassVar[str] = "thing"
        version: ClassVar[int] = 3

        @classmethod
        def upgrade_v1(cls, d: dict[str, Any]) -> dict[str, Any]:
            return {**d, "steps": [*d.get("steps", []), 1]}

        @classmethod
        def upgrade_v2(cls, d: dict[str, Any]) -> dict[str, Any]:
            return {**d, "steps": [*d.get("steps", []), 2]}

    assert Thing.upgrade(1, {}) == {"steps": [1, 2]}
    assert Thing.upgrade(2, {}) == {"steps": [2]}


def test_previous_values_an_old_log_never_recorded_are_unknown_not_a_difference() -> None:
    mine = [{"kind": "moved", "v": 1, "data": {"entity": "piece", "id": "p", "set": {"hex": "b"}}}]
    mine[0]["data"]["was"] = {"hex": "a"}
    old = [{"kind": "moved", "v": 1, "data": {"entity": "piece", "id": "p", "set": {"hex": "b"}}}]
    assert comparable(mine, old) == old
    other = [{"kind": "moved", "v": 1, "data": {"entity": "piece", "id": "p", "set": {"hex": "c"}}}]
    assert comparable(mine, other) != other  # what it set still counts
    assert comparable(mine, mine) == mine  # recorded on both sides: compared


def _played(steps: int = 12) -> Game:
    """A 2 by 2 game played a few steps from ``todo`` (complete entries, seeded)."""
    rs = rules.get("two_by_two")
    g = Game.create(Store(":memory:"), "g", rs.name, rs.scenario("sample"), seed=3)
    rng = random.Random(3)
    for _ in range(steps):
        todo = [t for t in g.todo() if not t.open]
        t = rng.choice([t for t in todo if t.owed] or todo)
        g.perform(t.procedure, dict(t.request))
    return g


def test_a_new_games_patches_carry_previous_values_through_export_and_import() -> None:
    g = _played()
    patches = [
        e
        for r in g.records
        if r.kind == "action"
        for e in r.payload["events"]
        if "entity" in e.get("data", {})
    ]
    assert patches and all("was" in e["data"] for e in patches)
    again = Game.import_jsonl(Store(":memory:"), g.export_jsonl(), "again")
    assert again.state == g.state
    lines = again.export_jsonl().splitlines()[1:]
    assert lines == g.export_jsonl().splitlines()[1:]  # the previous values kept as logged


def test_a_forged_previous_value_is_refused_on_import() -> None:
    g = _played()
    lines = g.export_jsonl().splitlines()
    for i, line in enumerate(lines[1:], 1):
        rec = json.loads(line)
        evs = [e for e in rec.get("payload", {}).get("events", []) if "was" in e.get("data", {})]
        if evs:
            field = next(iter(evs[0]["data"]["was"]))
            evs[0]["data"]["was"][field] = "forged"
            lines[i] = json.dumps(rec)
            break
    with pytest.raises(VedetteError, match=r"events: event \d+ differs"):
        Game.import_jsonl(Store(":memory:"), resign("\n".join(lines)), "forged")


def _recording_put(b: Board, pid: str, values: dict[str, Any]) -> Board:
    _PUT.append(dict(values))
    return _put(b, pid, values)


_PUT: list[dict[str, Any]] = []


@pytest.mark.parametrize("reads", [("hex",), ("hits",), ("hex", "hits"), ("hits", "hex")])
def test_the_fields_read_back_are_read_as_one_pass_over_the_patch_reads_them(
    reads: tuple[str, ...],
) -> None:
    """The values a fold puts (issue 29: one field read back, the logged values copied and
    that field replaced) are the dict a pass over the patch's fields makes (the oracle), in
    the same order; with two read fields each is read in the patch's order."""
    order: list[str] = []

    def reader(name: str) -> Any:
        def read(b: Board, v: Any) -> Any:
            order.append(name)
            return f"{name}:{v}" if name == "hex" else tuple(v)

        return read

    ents = {
        "piece": Entities(Piece, Board.piece, _recording_put, read={r: reader(r) for r in reads})
    }
    b = Board((Piece("p"),))
    for s in (
        {"hex": "b2"},
        {"hits": [1, 2]},
        {"hits": [3], "hex": "c3"},
        {"hex": "d4", "hits": []},
    ):
        _PUT.clear()
        order.clear()
        fold_patch(b, Hit("p", dict(s)), ents)
        oracle = {k: ents["piece"].read[k](b, v) if k in reads else v for k, v in s.items()}
        assert list(_PUT[0].items()) == list(oracle.items())
        assert order[: len(order) // 2] == [k for k in s if k in reads]
