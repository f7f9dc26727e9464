"""The memos on a step's path (issue 29): a request parsed once, a patch folded once, a
request's JSON by its fields, a state's ``todo``. Each must give what the work it saves gives:
these tests fail if a memo hands back another request's or another state's answer."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from tests.core.test_core_patch import ENTITIES, Board, Hit, Moved, Piece
from vedette.referee import Procedure, arg, procedure
from vedette.rules.fields import to_json
from vedette.rules.patch import fold_patch
from vedette.rules.protocol import parsed_request


@procedure("mark", rule="Toy 1")
@dataclass(frozen=True, slots=True)
class Mark:
    """mark some squares"""

    squares: Any = arg("the squares", default=None)
    note: Any = arg("a note", default=None)


MARK = Procedure.nodice(Mark, lambda state, req: None)


def test_equal_requests_of_other_types_are_parsed_apart() -> None:
    # 1, 1.0 and True are equal (and hash alike) in Python: the memo must still tell them apart,
    # in a list as well as alone
    for raw in ({"note": 1}, {"note": True}, {"squares": [1, 2]}, {"squares": [True, 2]}):
        req, logged = parsed_request(MARK, raw)
        again = parsed_request(MARK, dict(raw))
        assert logged == {"squares": raw.get("squares"), "note": raw.get("note")}
        assert [type(v) for v in logged["squares"] or ()] == [
            type(v) for v in raw.get("squares") or ()
        ]
        assert type(logged["note"]) is type(raw.get("note"))
        assert again[1] == logged and again[0] == req


def test_a_logged_request_is_the_callers_own_copy() -> None:
    _, logged = parsed_request(MARK, {"squares": ["a1"]})
    logged["squares"] = ["z9"]
    logged["extra"] = 1
    assert parsed_request(MARK, {"squares": ["a1"]})[1] == {"squares": ["a1"], "note": None}


def test_a_request_with_a_table_or_a_list_of_lists_is_still_parsed() -> None:
    for raw in ({"note": {"a": 1}}, {"squares": [["a1", "a2"]]}):
        assert parsed_request(MARK, raw)[1] == {
            "squares": raw.get("squares"),
            "note": raw.get("note"),
        }


def test_a_patch_folded_again_gives_the_same_state_and_another_state_its_own() -> None:
    b = Board((Piece("p"), Piece("q")))
    e = Moved("p", {"hex": "b2"})
    first = fold_patch(b, e, ENTITIES)
    assert fold_patch(b, e, ENTITIES) == first
    # the same patch onto another state (where p stands elsewhere and q was hit): that state's
    other = Board((Piece("p", "c3"), Piece("q", hits=(2,))))
    moved = fold_patch(other, e, ENTITIES)
    assert moved.piece("p").hex == "b2" and moved.piece("q").hits == (2,)
    # an equal patch that is another object, and another patch onto the same state
    assert fold_patch(b, Moved("p", {"hex": "b2"}), ENTITIES) == first
    hit = fold_patch(b, Hit("q", {"hits": (4,)}), ENTITIES)
    assert hit.piece("p").hex == "a1" and hit.piece("q").hits == (4,)


@dataclass(frozen=True)
class _Kw:
    from_: str
    to: tuple[int, ...]
    inner: Piece


def test_a_dataclass_is_json_by_its_fields_a_keyword_field_without_its_underscore() -> None:
    v = _Kw("a1", (1, 2), Piece("p", hits=(3,)))
    want = {"from": "a1", "to": [1, 2], "inner": {"id": "p", "hex": "a1", "hits": [3]}}
    assert to_json(v) == want
    assert to_json([v, _Kw]) == [want, _Kw]  # a dataclass type is not an instance: as it is


def test_todo_kept_for_a_state_is_that_states_own() -> None:
    """``Ruleset.todo`` keeps its lines for the state object last asked: asked of states in
    turn (each after an action, then the first again, as after an undo), each state gets its
    own lines, those derived afresh; a caller changing the list it got changes no later answer."""
    from tests.todo_play import fill
    from vedette import rules
    from vedette.engine import Game, Store

    rs = rules.get("napoleon_at_bay")
    g = Game.create(Store(":memory:"), "kept", rs.name, rs.scenario("sample"), seed=3)
    states = [g.state]
    for _ in range(4):
        t = next(t for t in g.todo() if t.owed) if g.obligations() else g.todo()[0]
        g.perform(t.procedure, fill(t, random.Random(1)))
        states.append(g.state)

    def lines(todo: list[Any]) -> list[tuple[str, str, str]]:
        return [(t.command(), repr(t.open), t.refused) for t in todo]

    assert len({json.dumps(lines(rs.fresh_todo(s))) for s in states}) > 1
    for s in [*states, states[0], states[2], states[2], states[-1]]:
        got = rs.todo(s)
        assert lines(got) == lines(rs.fresh_todo(s))
        got.clear()
        assert lines(rs.todo(s)) == lines(rs.fresh_todo(s))


def test_a_scenario_sets_up_one_state_per_scenario_options_and_house_rules() -> None:
    """``Ruleset.initial`` keeps the state a scenario starts from, by value: the same
    scenario and options give the state built afresh; another scenario, other options or
    other house rules their own; a scenario changed after it was set up (a player's edit) its
    new state."""
    import copy

    from vedette import rules

    rs = rules.get("two_by_two")
    scen = rs.scenario("close")
    variants = [
        (scen, {}),
        (rs.scenario("sample"), {}),
        (scen, {"play": "stated"}),
        (scen, {"house_rules": {"movement": {"road_bonus": 2}}}),
    ]
    states = [rs.initial(s, o) for s, o in variants]
    for (s, o), got in zip(variants, states, strict=True):
        assert got == rs.initial_state(s, o)
        assert rs.initial(copy.deepcopy(s), dict(o)) is got  # (kept: the same value)
    assert len({repr(s) for s in states}) == len(variants)
    edited = copy.deepcopy(scen)
    edited["victory"]["max_turns"] = 2
    assert rs.initial(edited, {}) == rs.initial_state(edited, {}) != states[0]
