"""The core patch event of several entities (issue 28): one step's changes (fields set,
counted on, an entity put in or removed), one decoder, one fold; previous values recorded by
the engine (``was``), unknown in an event upgraded from a version that did not record them."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

import pytest

from vedette.errors import VedetteError
from vedette.rules.patch import (
    NOT_RECORDED,
    Change,
    Entities,
    Patches,
    comparable,
    fold_patches,
    patch_kind,
    previous_all,
)


@dataclass(frozen=True)
class Piece:
    id: str
    hex: str = "a1"
    hits: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "hex": self.hex, "hits": self.hits}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Piece:
        return cls(str(d["id"]), str(d.get("hex", "a1")), int(d.get("hits", 0)))


@dataclass(frozen=True)
class Board:
    pieces: tuple[Piece, ...] = ()
    turn: int = 1

    def find(self, pid: str) -> Piece | None:
        return next((p for p in self.pieces if p.id == pid), None)

    def piece(self, pid: str) -> Piece:
        p = self.find(pid)
        if p is None:
            raise VedetteError(f"no piece {pid!r}")
        return p


def _insert(b: Board, p: Piece) -> Board:
    kept = [x for x in b.pieces if x.id != p.id]
    return replace(b, pieces=(*kept, p))


def _put(b: Board, pid: str, values: dict[str, Any]) -> Board:
    return _insert(b, replace(b.piece(pid), **values))


def _delete(b: Board, pid: str) -> Board:
    return replace(b, pieces=tuple(x for x in b.pieces if x.id != pid))


ENTITIES = {
    "piece": Entities(Piece, Board.piece, _put, find=Board.find, insert=_insert, delete=_delete),
    "game": Entities(Board, lambda b, i: b, lambda b, i, v: replace(b, **v), only=("turn",)),
}


@dataclass(frozen=True)
class Step(Patches):
    kind: ClassVar[str] = "step"
    entities: ClassVar[frozenset[str] | None] = frozenset(ENTITIES)
    row: str = ""  # a fact of the kind's own


Fought = patch_kind(Step, "fought", "a fight")


def _step(*changes: Change, row: str = "") -> Patches:
    return Fought(patches=changes, row=row)


def test_one_event_puts_in_sets_counts_on_and_removes_and_logs_what_was() -> None:
    b = Board((Piece("p"), Piece("q", "c3", 1)))
    e = _step(
        Change("piece", "p", "set", {"hex": "b2"}),
        Change("piece", "q", "add", {"hits": 2}),
        Change("piece", "r", "put", {"id": "r", "hex": "d4", "hits": 0}),
        Change("piece", "p", "remove", True),
        Change("game", "-", "set", {"turn": 2}),
        row="won",
    )
    rec = previous_all(b, e, ENTITIES)
    after = fold_patches(b, rec, ENTITIES)
    assert after == Board((Piece("q", "c3", 3), Piece("r", "d4")), 2)
    logged = rec.to_json()
    assert logged == {
        "kind": "fought",
        "v": 1,
        "data": {
            "patches": [
                {"entity": "piece", "id": "p", "set": {"hex": "b2"}, "was": {"hex": "a1"}},
                {"entity": "piece", "id": "q", "add": {"hits": 2}, "was": {"hits": 1}},
                {
                    "entity": "piece",
                    "id": "r",
                    "put": {"id": "r", "hex": "d4", "hits": 0},
                    "was": None,
                },
                # (the record it removed is the one the set before it left)
                {
                    "entity": "piece",
                    "id": "p",
                    "remove": True,
                    "was": {"id": "p", "hex": "b2", "hits": 0},
                },
                {"entity": "game", "id": "-", "set": {"turn": 2}, "was": {"turn": 1}},
            ],
            "row": "won",
        },
    }
    assert Fought.decode(logged["data"]) == rec
    assert fold_patches(b, Fought.decode(logged["data"]), ENTITIES) == after


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ({"patches": {}}, "'patches' must be a list"),
        ({"patches": [1]}, "change 1: its data is not a table"),
        ({"patches": [{"entity": "piece", "id": "p", "set": {}, "by": 1}]}, "no field 'by'"),
        ({"patches": [{"entity": "piece", "id": "p"}]}, "give one of 'set'"),
        ({"patches": [{"entity": "piece", "id": "p", "set": {}, "remove": True}]}, "give one"),
        ({"patches": [{"entity": "piece", "id": 3, "set": {}}]}, "'entity' and 'id' must be"),
        ({"patches": [{"entity": "piece", "id": "p", "set": [1]}]}, "'set' must be a table"),
        ({"patches": [{"entity": "piece", "id": "p", "add": {"hits": "2"}}]}, "whole numbers"),
        ({"patches": [{"entity": "piece", "id": "p", "put": 3}]}, "'put' must be the entity"),
        ({"patches": [{"entity": "piece", "id": "p", "remove": 1}]}, "'remove' must be true"),
        (
            {"patches": [{"entity": "piece", "id": "p", "set": {"hex": "b"}, "was": {"x": 1}}]},
            "'was' must be a table of the fields",
        ),
        ({"patches": [{"entity": "wall", "id": "w", "set": {}}]}, "cannot change a 'wall'"),
        ({"patches": [], "rowe": "x"}, "rowe"),
    ],
)
def test_a_malformed_step_is_refused_in_one_line(data: dict[str, Any], says: str) -> None:
    with pytest.raises(VedetteError, match=says) as e:
        Fought.decode(data)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (Change("piece", "p", "set", {"armour": 1}), "a piece has no field 'armour'"),
        (Change("piece", "p", "add", {"armour": 1}), "a piece has no field 'armour'"),
        (Change("piece", "p", "add", {"hex": 1}), "a piece's 'hex' is not a count"),
        (Change("game", "-", "put", {"turn": 3}), "a game is not put in or removed"),
        (Change("piece", "z", "remove", True), "there is no piece 'z' to remove"),
        (Change("piece", "r", "put", {"hex": "b2"}), "the piece 'r' put in does not read"),
        (Change("piece", "r", "put", {"id": "s"}), "the piece put in as 'r' is 's'"),
        (Change("tree", "t", "set", {}), "this ruleset has no 'tree' to change"),
    ],
)
def test_the_fold_checks_each_change_against_the_entitys_type(change: Change, says: str) -> None:
    with pytest.raises(VedetteError, match=says) as e:
        fold_patches(Board((Piece("p"),)), _step(change), ENTITIES)
    assert "\n" not in str(e.value) and "'fought'" in str(e.value)


def test_previous_values_an_old_log_never_recorded_are_unknown_not_a_difference() -> None:
    old = [_step(Change("piece", "p", "set", {"hex": "b2"})).to_json()]
    assert "was" not in old[0]["data"]["patches"][0]
    assert Fought.decode(old[0]["data"]).patches[0].was is NOT_RECORDED
    mine = [previous_all(Board((Piece("p"),)), Fought.decode(old[0]["data"]), ENTITIES).to_json()]
    assert mine[0]["data"]["patches"][0]["was"] == {"hex": "a1"}
    assert comparable(mine, old) == old
    other = [_step(Change("piece", "p", "set", {"hex": "c3"})).to_json()]
    assert comparable(mine, other) != other  # what it set still counts
    assert comparable(mine, mine) == mine  # recorded on both sides: compared
