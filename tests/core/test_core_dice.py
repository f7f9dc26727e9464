"""Dice sources, modifiers and the Roll record."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.sizes import examples
from vedette.dice import (
    Check,
    Modifier,
    PhysicalSource,
    ScriptedSource,
    SeededSource,
    UnderCheck,
    per_count,
    select,
    standard,
    table_from_data,
)
from vedette.dice.die import CUSTOM
from vedette.dice.roll import worded_before
from vedette.errors import DiceError

FIX = table_from_data(
    "fixing",
    {
        "rows": [
            {"range": "<=3", "key": "stays", "result": "Vedette remains in hex"},
            {"range": "4+", "key": "substituted", "result": "Vedette and Ru Inf switch places"},
        ]
    },
)


def test_seeded_stream_is_a_function_of_seed_and_position() -> None:
    d6 = standard(6)
    a = SeededSource(7)
    faces = [a.face(d6) for _ in range(50)]
    assert a.position == 50
    b = SeededSource(7, position=20)
    assert [b.face(d6) for _ in range(30)] == faces[20:]
    other = SeededSource(8)
    assert faces != [other.face(d6) for _ in range(50)]


def test_seeded_stream_is_uniform_enough() -> None:
    src = SeededSource(1234)
    d6 = standard(6)
    counts = Counter(src.face(d6) for _ in range(60000))
    for face in range(1, 7):
        assert abs(counts[face] - 10000) < 500  # ~5 sigma


def test_physical_source_refuses_impossible_faces() -> None:
    with pytest.raises(DiceError, match="7 is not a face of d6"):
        PhysicalSource([7]).face(standard(6))
    with pytest.raises(DiceError, match="not a face of dK8"):
        PhysicalSource([4]).face(CUSTOM["K8"])
    assert PhysicalSource([-3]).face(CUSTOM["K8"]) == -3


def test_physical_source_runs_out_clearly() -> None:
    src = PhysicalSource([3])
    src.face(standard(6))
    with pytest.raises(DiceError, match="not enough dice"):
        src.face(standard(6))
    extra = PhysicalSource([1, 2])
    extra.face(standard(6))
    with pytest.raises(DiceError, match="only 1 needed"):
        extra.check_all_used()


def test_roll_line_in_the_seed_style() -> None:
    r = Check("1d6", (Modifier(2, "only Ru has Vedette", "Herman (3) DRM 3"),), FIX).resolve(
        ScriptedSource([3])
    )
    assert r.line() == "1d6=3+2 (only Ru has Vedette)=5 → Vedette and Ru Inf switch places"
    j = r.to_json()
    assert j["dice"] == [{"die": "d6", "face": 3}]
    assert j["modifiers"] == [
        {"value": 2, "reason": "only Ru has Vedette", "rule": "Herman (3) DRM 3"}
    ]
    assert j["final"] == 5 and j["row"] == "substituted"
    json.dumps(j)


def test_a_roll_line_says_its_constant_and_the_dice_taken_away() -> None:
    """``vedette roll 1d6+2`` printed ``1d6+2=2=4``, ``2d6-1`` ``2d6-1=(3+1)=3``: the constant
    was in the total but nowhere in the sum. Each is said where it counts, and a roll whose
    modifiers are named keeps its line."""

    def line(expr: str, faces: list[int], *mods: Modifier) -> str:
        return Check(expr, mods).resolve(ScriptedSource(faces)).line()

    assert line("1d6+2", [2]) == "1d6+2=2+2=4"
    assert line("2d6-1", [3, 1]) == "2d6-1=(3+1)-1=3"
    assert line("2d6-1d6+1", [3, 4, 2]) == "2d6-1d6+1=(3+4-2)+1=6"
    assert line("1d6+2", [5], Modifier(1, "hill")) == "1d6+2=5+2=7+1 (hill)=8"
    assert line("1d6 vs 1d6-1", [4, 3]) == "A 1d6=4 vs B 1d6-1=3-1=2, difference +2"
    # unchanged: a plain die, a plain sum, fudge dice, named modifiers
    assert line("1d6", [4]) == "1d6=4"
    assert line("2d6", [3, 4]) == "2d6=(3+4)=7"
    assert line("4dF", [-1, 0, 1, -1]) == "4dF=(-1+0+1+-1)=-1"
    assert line("1d6", [3], Modifier(2, "uphill")) == "1d6=3+2 (uphill)=5"


@pytest.mark.parametrize(
    ("expr", "faces", "mods", "then"),
    [
        ("1d6+1", [2], [2], "fixing: 1d6+1=2=3+2 (only Ru has Cav)=5"),
        ("1d6+1", [3], [], "fixing: 1d6+1=3=4"),
        ("2d6-1", [3, 1], [], "fixing: 2d6-1=(3+1)=3"),
        ("-1d6", [3], [1], "fixing: -1d6=3=-3+1 (x)=-2"),
        ("2d6-1d6", [3, 4, 2], [-1], "fixing: 2d6-1d6=(3+4+2)=5-1 (x)=4"),
        ("1d6", [4], [2], "fixing: 1d6=4+2 (x)=6"),
    ],
)
def test_a_roll_line_as_release_0_2_said_it_reads_as_now(
    expr: str, faces: list[int], mods: list[int], then: str
) -> None:
    """A saved game of release 0.2 (lines as that release's ``Roll.line`` wrote them, which hid
    the constant and the die taken away) reads as the referee's line now, each pair put in
    (``worded_before``: what the importer does); a plain die needs none."""
    ms = [Modifier(v, "only Ru has Cav" if expr == "1d6+1" else "x") for v in mods]
    r = Check(expr, ms, label="fixing").resolve(ScriptedSource(faces))
    pairs = worded_before(json.loads(json.dumps(r.to_json())))
    for now, was in pairs:
        then = then.replace(was, now)
    assert then == r.line()
    assert bool(pairs) == (expr != "1d6")


def test_exclusive_group_only_largest_applies() -> None:
    mods = (
        Modifier(1, "normal size gun", "O'Leary 2.5", "size"),
        Modifier(3, "large vehicle", "O'Leary 2.5", "size"),
        Modifier(-1, "both HIP", "O'Leary 2.5"),
    )
    applied, superseded = select(mods)
    assert [m.value for m in applied] == [3, -1]
    assert [m.value for m in superseded] == [1]
    r = Check("2d6", mods).resolve(ScriptedSource([5, 6]))
    assert r.final == 13
    assert "not counted: +1 (normal size gun)" in r.line()


def test_per_count_modifier_with_cap() -> None:
    m = per_count(10, 4, "friendly unit within 300mm", "Kuryakin morale", cap=3, unit="%")
    assert m.value == 30
    assert "max 3" in m.reason
    assert per_count(-3, 5, "casualty", unit="%").value == -15


def test_under_check_moves_the_target_not_the_roll() -> None:
    u = UnderCheck(80, (Modifier(10, "friends near"), Modifier(-6, "2 casualties")))
    assert u.target() == 84
    r = u.resolve(ScriptedSource([84]))
    assert r.row == "pass" and r.final == 84
    assert UnderCheck(80, strict=True).resolve(ScriptedSource([80])).row == "fail"
    assert "≤80+10 (friends near)-6 (2 casualties)=84" in r.line()


def test_opposed_draws_are_rerolled_and_kept() -> None:
    c = Check("1d6 vs 1d6", (Modifier(1, "guard"),), None, "melee", reroll_draws=True)
    r = c.resolve(ScriptedSource([3, 4, 5, 2]))
    assert r.final == 4
    assert len(r.draws) == 1
    assert "draw 4-4, reroll" in r.line()


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(0, 2**40), st.integers(0, 10**6))
def test_seeded_faces_are_legal(seed: int, pos: int) -> None:
    for die in (standard(6), standard(100), CUSTOM["K12"]):
        assert SeededSource(seed, pos).face(die) in die.faces


@pytest.mark.parametrize("name", ["Roll", "Check"])
def test_a_records_own_init_sets_every_field_as_the_dataclass_would(name: str) -> None:
    """``Roll`` and ``Check`` set their fields in one step (issue 29): the ``__init__`` takes
    every field, in order, with the field's default, and sets each to the value given (a field
    added to the record and not to its ``__init__`` fails here); a roll's ``details`` defaults
    to a fresh table; a check stays a value (equal, hashed, frozen)."""
    import dataclasses
    import inspect

    from vedette.dice.roll import Face, Roll

    cls = {"Roll": Roll, "Check": Check}[name]
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = dataclasses.fields(cls)
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields, strict=True):
        if f.default is not dataclasses.MISSING:
            assert p.default == f.default, f.name
    given = {f.name: object() for f in fields}
    r = cls(**given)
    assert all(getattr(r, k) is v for k, v in given.items())
    c = Check("1d6", (Modifier(1, "x"),), None, "l")
    assert c == Check("1d6", (Modifier(1, "x"),), None, "l") and hash(c) == hash(
        Check("1d6", (Modifier(1, "x"),), None, "l")
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.label = "m"  # type: ignore[misc]
    a, b = Roll("1d6", (Face("d6", 2),), 2), Roll("1d6", (Face("d6", 2),), 2)
    assert a == b and a.details == {} and a.details is not b.details
    assert dataclasses.replace(a, label="x") == Roll("1d6", (Face("d6", 2),), 2, label="x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.final = 3  # type: ignore[misc]
    b = Roll("1d6", (Face("d6", 2),), 2, details={"x": 1})
    assert b.but(consequence="c", label="l") == dataclasses.replace(b, consequence="c", label="l")
    assert b.but(consequence="c").details is b.details and b.consequence is None
    with pytest.raises(TypeError):
        b.but(nothing=1)


def test_an_under_check_reads_its_roll_as_its_table_does() -> None:
    """``UnderCheck.resolve`` reads the dice without building its table (issue 29): the same
    record as the table's own reading of them (row, range, consequence, target) for every
    target, strict or not, any modifiers (an exclusive group among them), on percentile dice,
    a d8 and 2d6, each face met."""
    import random

    from vedette.dice.check import _natural, roll_faces
    from vedette.dice.roll import Roll

    def table_read(c: UnderCheck, faces: list[int]) -> Roll:  # the reading before issue 29
        e = c.parsed_expression()
        got = roll_faces(e, ScriptedSource(faces))
        natural = _natural(e, got)
        applied, superseded = select(c.modifiers)
        row = c.table().lookup(natural)
        return Roll(
            c.expression,
            tuple(got),
            natural,
            applied,
            superseded,
            natural,
            row.key,
            row.range_text,
            row.result,
            c.label,
            c.rule,
            "under",
            "scripted",
            c.target(),
            c.base,
            c.strict,
        )

    rng = random.Random(16)
    groups = [None, None, "size"]
    for _ in range(examples(2000)):
        expr, sides, n = rng.choice([("d100", 100, 1), ("dP", 100, 1), ("d8", 8, 1), ("2d6", 6, 2)])
        ms = tuple(
            Modifier(rng.randint(-30, 30), f"m{i}", "", rng.choice(groups))
            for i in range(rng.randint(0, 3))
        )
        c = UnderCheck(rng.randint(-10, 110), ms, expr, rng.random() < 0.5, "l", "r", "ok", "no")
        lo = 0 if expr == "dP" else 1
        faces = [rng.randint(lo, sides - 1 + lo) for _ in range(n)]
        assert c.resolve(ScriptedSource(faces)) == table_read(c, faces), (c, faces)


def test_one_die_read_without_the_general_loop_reads_as_it() -> None:
    """A one-die expression's faces and total are read without the general loop over its terms
    (issue 29): the same faces, in order, and the same total (sign and constant) as every
    term's dice read in turn, for one die, signed, with a constant, a custom die, and several."""
    import random

    from vedette.dice.check import roll_faces
    from vedette.dice.notation import parse_expression

    rng = random.Random(6)
    for text in ("d6", "1d8", "-1d6+3", "d10-2", "dK8", "2d6", "1d6+1d4-1", "3dF"):
        e = parse_expression(text)
        dice = [t.die for t in e.terms for _ in range(t.count)]
        signs = [t.sign for t in e.terms for _ in range(t.count)]
        for _ in range(50):
            faces = [rng.choice(d.faces) for d in dice]
            got = roll_faces(e, ScriptedSource(faces))
            assert [(f.die, f.face) for f in got] == [
                (d.name, x) for d, x in zip(dice, faces, strict=True)
            ]
            want = e.constant + sum(s * x for s, x in zip(signs, faces, strict=True))
            assert e.total(faces) == want, (text, faces)
