"""Result tables: ranges, validation naming file and row, house-rule overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from vedette.data import load_toml, merge
from vedette.dice import parse_range, table_from_data, tables_from_data
from vedette.errors import DataError


@pytest.mark.parametrize(
    ("text", "lo", "hi"),
    [
        ("<=0", None, 0),
        ("1-7", 1, 7),
        ("8+", 8, None),
        (">=13", 13, None),
        ("5", 5, 5),
        ("-3--1", -3, -1),
        ("<3", None, 2),
        (">12", 13, None),
    ],
)
def test_ranges(text: str, lo: int | None, hi: int | None) -> None:
    a, b = parse_range(text)
    assert (a if lo is not None else None) == lo or a < -(10**8)
    assert (b if hi is not None else None) == hi or b > 10**8


def test_lookup_and_open_ends() -> None:
    t = table_from_data(
        "t",
        {
            "rows": [
                {"range": "<=0", "key": "a"},
                {"range": "1-7", "key": "b"},
                {"range": "8+", "key": "c"},
            ]
        },
    )
    assert [t.lookup(v).key for v in (-50, 0, 1, 7, 8, 99)] == ["a", "a", "b", "b", "c", "c"]


def test_closed_table_refuses_or_clamps() -> None:
    rows = [{"range": "1-2", "key": "lo"}, {"range": "3-6", "key": "hi"}]
    with pytest.raises(DataError, match="no row for 7"):
        table_from_data("t", {"rows": rows}).lookup(7)
    assert table_from_data("t", {"rows": rows, "clamp": True}).lookup(9).key == "hi"


def test_gap_is_an_error_naming_file_and_row(tmp_path: Path) -> None:
    f = tmp_path / "house.toml"
    f.write_text(
        '[tables.x]\n[[tables.x.rows]]\nrange="1-3"\n[[tables.x.rows]]\nrange="5-6"\n',
        encoding="utf-8",
    )
    with pytest.raises(DataError) as e:
        tables_from_data(load_toml(f), str(f))
    assert str(f) in str(e.value) and "row 2" in str(e.value) and "gap" in str(e.value)


def test_overlap_is_an_error() -> None:
    with pytest.raises(DataError, match="overlaps"):
        table_from_data("t", {"rows": [{"range": "1-4"}, {"range": "4-6"}]}, "f.toml")


def test_unreadable_range() -> None:
    with pytest.raises(DataError, match="cannot read range"):
        table_from_data("t", {"rows": [{"range": "one to three"}]}, "f.toml")


def test_house_rules_replace_tables_whole_and_merge_values() -> None:
    base = {
        "tables": {"a": {"rows": [{"range": "1-6"}]}, "b": {"rows": [{"range": "1-6"}]}},
        "units": {"inf": {"move": 4, "range": 2}},
    }
    house = {
        "tables": {"a": {"rows": [{"range": "1-3"}, {"range": "4-6"}]}},
        "units": {"inf": {"move": 5}},
    }
    m = merge(base, house)
    assert len(m["tables"]["a"]["rows"]) == 2 and len(m["tables"]["b"]["rows"]) == 1
    assert m["units"]["inf"] == {"move": 5, "range": 2}


def test_a_house_rule_merges_key_by_key_and_a_list_replaces_the_shipped_one_whole() -> None:
    """README, House rules: what a house-rule file does to the shipped data."""
    base = {"a": {"x": 1, "y": [1, 2, 3]}, "tables": {"t": {"dice": "1d6", "rule": "R"}}}
    m = merge(base, {"a": {"y": [9]}, "tables": {"t": {"rule": "mine"}}})
    assert m == {"a": {"x": 1, "y": [9]}, "tables": {"t": {"dice": "1d6", "rule": "mine"}}}


def test_a_house_table_may_give_only_its_rows() -> None:
    base = {"tables": {"a": {"dice": "1d6", "rule": "X 1", "rows": [{"range": "1-6"}]}}}
    house = {"tables": {"a": {"rows": [{"range": "1-3"}, {"range": "4-6"}]}}}
    t = tables_from_data(merge(base, house))["a"]
    assert t.dice == "1d6" and t.rule == "X 1" and len(t.rows) == 2


def test_a_tables_further_columns_are_declared_typed_and_read_as_fields() -> None:
    data = {
        "columns": {"follow_up": "str", "lost": {"type": "bool", "default": False}},
        "rows": [
            {"range": "1-3", "key": "held", "follow_up": "none"},
            {"range": "4-6", "key": "won", "follow_up": "advance", "lost": True},
        ],
    }
    t = table_from_data("melee", data, "f.toml")
    held, won = t.rows
    assert (held.follow_up, held.lost, won.follow_up, won.lost) == ("none", False, "advance", True)
    assert held.to_json() == {"range": "1-3", "key": "held", "result": "held", "follow_up": "none"}
    with pytest.raises(AttributeError, match="no column 'folow_up'"):
        _ = held.folow_up


@pytest.mark.parametrize(
    ("columns", "row", "words"),
    [
        ({}, {"extra": 1}, "no column 'extra' (it declares none)"),
        ({"follow_up": "str"}, {"folow_up": "none"}, "no column 'folow_up' (columns: follow_up)"),
        ({"follow_up": "str"}, {}, "row lacks follow_up"),
        ({"n": "int"}, {"n": "2"}, "column 'n' must be int"),
        ({"n": "int"}, {"n": True}, "column 'n' must be int"),
        ({"flag": "bool"}, {"flag": 1}, "column 'flag' must be bool"),
        ({"n": "number"}, {}, "column 'n' must be declared as one of str, int, float, bool"),
        ({"n": {"type": "int", "default": "0"}}, {}, "column 'n''s default is not int"),
    ],
)
def test_an_undeclared_missing_or_mistyped_column_is_refused_in_one_line(
    columns: dict[str, object], row: dict[str, object], words: str
) -> None:
    data = {"columns": columns, "rows": [{"range": "1-6", **row}]}
    with pytest.raises(DataError) as e:
        table_from_data("t", data, "f.toml")
    assert words in str(e.value) and "\n" not in str(e.value)


def test_a_house_rule_row_with_a_column_the_table_lacks_is_refused() -> None:
    from vedette import rules

    rs = rules.get("two_by_two")
    rows = [dict(r) for r in rs.data()["tables"]["melee"]["rows"]]
    rows[0] = {**rows[0], "follow_up": "pursue", "pursuit": 2}
    with pytest.raises(DataError, match="no column 'pursuit'"):
        rs.validate_house_rules({"tables": {"melee": {"rows": rows}}})
