"""The store's own log decodes to the same events, and folds to the same states, on the fast
path (issue 16) as on the checked one.

Replay of a stored log decodes each event with ``Ruleset.decode_stored`` (a decoder built once
per event class that fills the dataclass directly) and folds it with ``evolve`` (a copy of the
state's fields without ``dataclasses.replace``). Here, for every shipped ruleset, every event of
a played game and of a release-0.1 log decodes the same (type, fields and their types) both
ways, also with its optional fields left out or null; a missing required field or an unknown
key is refused with the same one line; and ``evolve`` makes what ``dataclasses.replace`` makes,
for slotted and unslotted dataclasses, with or without a ``__post_init__`` or a value cached
beside the fields.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conformance import play_game
from tests.sizes import examples
from vedette import rules
from vedette.engine import Store
from vedette.errors import VedetteError
from vedette.rules.evolve import evolve

RULESETS = list(rules.BUILTIN)
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
OLD_LOGS = {
    "napoleon_at_bay": FIXTURES / "saved_games_v0_1" / "nab1.jsonl",
    "solitaire_asl": FIXTURES / "saved_games_v0_1" / "asl1.jsonl",
    "two_by_two": FIXTURES / "saved_games_v0_1" / "tt1.jsonl",
    "solo_napoleonic": FIXTURES / "saved_games_v0_1" / "k1.jsonl",
}


def _typed(v: Any) -> Any:
    """A value with the type of every part spelled out (1 and 1.0, a list and a tuple, differ)."""
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return (type(v), tuple((f.name, _typed(getattr(v, f.name))) for f in dataclasses.fields(v)))
    if isinstance(v, list | tuple | frozenset | set):
        items = sorted(map(repr, v)) if isinstance(v, frozenset | set) else map(_typed, v)
        return (type(v), tuple(items))
    if isinstance(v, dict):
        return (type(v), tuple((_typed(k), _typed(x)) for k, x in v.items()))
    return (type(v), repr(v))


def _both(rs: Any, e: dict[str, Any]) -> tuple[Any, Any]:
    """The event decoded checked and trusted, or each one's refusal."""
    out = []
    for decode in (rs.decode, rs.decode_stored):
        try:
            out.append(_typed(decode(e)))
        except VedetteError as err:
            out.append(("refused", str(err)))
    return out[0], out[1]


def _played(name: str) -> list[dict[str, Any]]:
    """Every event of a seeded game of ``name`` as stored (a fresh copy each time)."""
    return json.loads(_played_json(name))


@functools.cache
def _played_json(name: str) -> str:
    """The game is played once per test process: both tests below read it."""
    store = Store(":memory:")
    g = play_game(name, 5, 120, store, odds_checks=0)
    events = [e for r in store.records(g.id) if r.kind == "action" for e in r.payload["events"]]
    return json.dumps(events)


def _old(name: str) -> list[dict[str, Any]]:
    """Every event of ``name``'s release-0.1 log (upgraded as they are decoded)."""
    out = []
    for line in OLD_LOGS[name].read_text().splitlines()[1:]:
        rec = json.loads(line)
        if rec["kind"] == "action":
            out.extend(rec["payload"]["events"])
    return out


@pytest.mark.parametrize("name", RULESETS)
def test_every_stored_event_decodes_trusted_as_checked(name: str) -> None:
    rs = rules.get(name)
    events = _played(name) + _old(name)
    kinds = set()
    for e in events:
        checked, stored = _both(rs, e)
        assert checked[0] != "refused", checked
        assert stored == checked, e
        kinds.add(e["kind"])
    assert len(kinds) >= 3, kinds  # the game met several kinds of event


def _padded(v: Any) -> Any:
    if isinstance(v, str):
        return f" {v} "
    return [_padded(x) for x in v] if isinstance(v, list) else v


@pytest.mark.parametrize("name", RULESETS)
def test_a_field_left_out_null_padded_mistyped_or_unknown_decodes_alike(name: str) -> None:
    """Optional fields missing or null take their defaults, a required one is refused with
    the same line, an unknown key too; text with spaces about it and lists of numbers where
    text is expected are read alike: the same either way (events of the current versions)."""
    rs = rules.get(name)
    seen = set()
    for e in _played(name):
        if e["kind"] in seen or not isinstance(e.get("data"), dict):
            continue
        seen.add(e["kind"])
        for key, value in e["data"].items():
            for change in ("drop", "null", "padded", "numbers"):
                data = dict(e["data"])
                if change == "drop":
                    del data[key]
                elif change == "null":
                    data[key] = None
                elif change == "padded":  # text (alone or in a list) with spaces about it
                    data[key] = _padded(value)
                elif isinstance(value, list):  # a list of numbers, not of text
                    data[key] = [7 for _ in value] or [7]
                checked, stored = _both(rs, {**e, "data": data})
                if change == "numbers" and checked[0] == "refused":
                    # a value refused inside a list: the stored path names the event, not the item
                    checked, stored = checked[0], stored[0]
                assert stored == checked, (e["kind"], key, change)
        checked, stored = _both(rs, {**e, "data": {**e["data"], "no_such_field": 1}})
        assert stored == checked


# -- evolve ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Slotted:
    a: int
    b: tuple[int, ...] = ()
    c: str = "x"


@dataclass(frozen=True)
class InDict:
    a: int
    b: tuple[int, ...] = ()
    c: str = "x"


@dataclass(frozen=True)
class Checked:
    a: int
    b: tuple[int, ...] = ()
    c: str = "x"

    def __post_init__(self) -> None:
        object.__setattr__(self, "c", str(self.c).upper())


@dataclass(frozen=True)
class NotInit:
    a: int
    b: tuple[int, ...] = ()
    c: str = field(default="x", init=False)


@dataclass(frozen=True, slots=True)
class SlottedChild(InDict):
    d: int = 0


CLASSES = (Slotted, InDict, Checked, NotInit, SlottedChild)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(CLASSES),
    st.integers(),
    st.lists(st.integers(), max_size=3).map(tuple),
    st.dictionaries(
        st.sampled_from(["a", "b", "c", "d"]),
        st.one_of(st.integers(), st.sampled_from(["", "y", "Zz"]), st.tuples(st.integers())),
        max_size=3,
    ),
    st.booleans(),
)
def test_evolve_makes_what_replace_makes(
    cls: type, a: int, b: tuple[int, ...], changes: dict[str, Any], cache: bool
) -> None:
    obj = cls(a, b)
    if cache and hasattr(obj, "__dict__"):  # a value cached beside the fields is not copied
        object.__setattr__(obj, "_memo", 1)
    try:
        want = dataclasses.replace(obj, **changes)
    except (TypeError, ValueError) as err:  # a field it has not (or may not set)
        with pytest.raises(type(err)):
            evolve(obj, **changes)
        return
    got = evolve(obj, **changes)
    assert _typed(got) == _typed(want)
    assert type(got) is cls and not hasattr(got, "_memo")
    assert _typed(obj) == _typed(cls(a, b))  # the original is left as it was


@pytest.mark.parametrize(
    "name", ["napoleon_at_bay", "solitaire_asl", "two_by_two", "solo_napoleonic"]
)
def test_an_old_version_that_cannot_be_upgraded_is_one_line(name: str) -> None:
    """An event of an older version whose payload its ``upgrade`` cannot read (a damaged or
    hand-made log) is refused in one line naming the event; so is a version that is not a
    number: never a traceback (KeyError, TypeError ...)."""
    from vedette import rules
    from vedette.errors import VedetteError
    from vedette.rules.protocol import decode_event

    registry = {cls.kind: cls for cls in rules.get(name).events}
    old = [cls for cls in registry.values() if cls.version > 1]
    for cls in old:
        for data in ({}, {"set": "x"}, {"unit": None, "set": {"body": 3}}, [1, 2], "text"):
            for stored in (False, True):
                try:
                    decode_event(registry, {"kind": cls.kind, "v": 1, "data": data}, stored)
                except VedetteError as e:
                    assert str(e) and "\n" not in str(e)
    kind = next(iter(registry))
    with pytest.raises(VedetteError, match="not a number"):
        decode_event(registry, {"kind": kind, "v": "one", "data": {}})
