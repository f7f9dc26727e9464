"""Issue 28: each ruleset reads its rule data once, into a typed config (house rules applied),
and its rules code reads the config's fields, never a key of the data.

The scan walks every module of the shipped rulesets' packages and refuses the ways the data was
read before: ``state.data["generals"]["grade_rows"]`` (the rule data kept as a dict on the
state), a getter given a section and a key (``opt(state, "volley_die")``,
``rules.section("rally")``, ``rules.num("setup", "ap_each")``), a default written beside a key
of the data (``float(sec.get("division_range", 4))``) and a plan's choices passed as a dict
(``plan.options.get("ca", {})``), a dice table row's columns read as a dict (``row.data``,
``d.get("bind")``: a row's columns are declared and typed in the data and read as
``row.follow_up``) and any ``.data["key"]``. Only a ruleset's own ``config.py`` (where the
data is read) and the Ruleset's data hooks may touch the data itself.

The typed configs are checked too: a value missing from the data is one line naming it (its
default lives in the data file, once), and a house rule still changes what the game reads.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import sources
from vedette import rules
from vedette.errors import DataError

RULES = Path(rules.__file__).resolve().parent
PACKAGES = ("napoleon_at_bay", "two_by_two", "solitaire_asl", "solo_napoleonic")
#: the names the rule data (or one of its sections) went by when it was passed around
DATA_NAMES = {"data", "rule_data", "sec", "section", "drm", "mv"}
#: where the data is loaded and the config built from it (the Ruleset's hooks, the builders),
#: and where a payload is read (an old event upgraded, a stored value decoded)
LOADERS = {"data", "tables", "config", "game_config", "_cached", "initial_state", "make_config"}
LOADERS |= {"from_data", "load_map", "load_pieces", "from_json", "upgrade", "decode"}


def _parts(node: ast.AST) -> list[str]:
    """``a.b.c`` as ``["a", "b", "c"]`` (empty for anything else)."""
    out: list[str] = []
    while isinstance(node, ast.Attribute):
        out.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        out.append(node.id)
        return out[::-1]
    return []


def _key(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _reads(tree: ast.AST) -> Iterator[tuple[int, str]]:
    loaders: set[int] = set()
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef) and fn.name in LOADERS:
            loaders |= {id(n) for n in ast.walk(fn)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "data":
            base = _parts(node.value)
            if base and base[-1] in ("state", "st", "s"):
                yield node.lineno, f"{ast.unparse(node)}: the rule data kept on the state"
            if base and base[-1] in ("row", "r") and id(node) not in loaders:
                yield node.lineno, f"{ast.unparse(node)}: a table row's columns as a dict"
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "data"
            and _key(node.slice)
            and id(node) not in loaders
        ):
            yield node.lineno, f"{ast.unparse(node)}: a key of some data read as text"
        if not isinstance(node, ast.Call):
            continue
        func = _parts(node.func)
        args = node.args
        if id(node) in loaders:
            continue
        if func[-2:-1] in (["self"], ["RULESET"], ["rs"], ["ruleset"]) and func[-1] in (
            "data",
            "tables",
        ):
            yield node.lineno, f"{ast.unparse(node)}: the rule data read again in play"
        if func == ["opt"] and len(args) == 2 and _key(args[1]):
            yield node.lineno, f"{ast.unparse(node)}: an option read by its key"
        if func[-2:-1] in (["rules"], ["r"]) and func[-1] in ("section", "num", "text") and args:
            yield node.lineno, f"{ast.unparse(node)}: a section read by its key"
        if func[-1:] == ["get"] and len(args) == 2 and _key(args[0]):
            recv = func[:-1]
            if (recv[-1:] and recv[-1] in DATA_NAMES) or recv[-2:] == ["plan", "options"]:
                yield node.lineno, f"{ast.unparse(node)}: a key read with its default beside it"


def _modules() -> Iterator[Path]:
    for pkg in PACKAGES:
        for path in sorted((RULES / pkg).glob("*.py")):
            # config.py reads the data; editor.py a scenario draft's form; events.py and fold.py
            # the logged events' payloads
            if path.name not in ("config.py", "editor.py", "events.py", "fold.py"):
                yield path


def test_the_scan_finds_each_old_way_of_reading_the_data() -> None:
    old = """
def f(state, plan, sec, data):
    state.data["generals"]["grade_rows"]
    ch.state.data.get("options", {})
    opt(state, "volley_die")
    state.rules.section("rally")
    rules.num("setup", "ap_each")
    float(sec.get("division_range", 4))
    plan.options.get("ca", {})
    data.get("drm", {})
    RULESET.data(house)
    dict(row.data)
    row.data.get("bind", None)
    x.data["status"]
"""
    found = {line for line, _ in _reads(ast.parse(old))}
    assert found == set(range(3, len(old.splitlines()) + 1)), "each old way is found"
    new = """
def f(state, plan, u, row):
    state.config.options.volley_die
    state.rules.rally.division_range
    plan.options.ca
    u.get("x", 1)
    row.follow_up
    plan.data[0]
"""
    assert list(_reads(ast.parse(new))) == []


def test_rules_code_reads_no_key_of_the_rule_data() -> None:
    found = [
        f"{path.relative_to(RULES)}:{line}: {what}"
        for path in _modules()
        for line, what in _reads(sources.tree(path))
    ]
    assert not found, "\n".join(found)


def _without(data: dict[str, Any], section: str, key: str) -> dict[str, Any]:
    out = dict(data)
    out[section] = {k: v for k, v in data[section].items() if k != key}
    return out


@pytest.mark.parametrize(
    ("ruleset", "section", "key"),
    [
        ("two_by_two", "rally", "division_range"),
        ("solitaire_asl", "drm", "previous_shift"),
        ("solo_napoleonic", "options", "volley_die"),
        ("solo_napoleonic", "melee_points", "heavy_cavalry"),
    ],
)
def test_a_value_missing_from_the_data_is_one_line_naming_it(
    ruleset: str, section: str, key: str
) -> None:
    """Its default is in the data file, not in the code: without it the config refuses."""
    data = _without(rules.get(ruleset).data(), section, key)
    with pytest.raises(DataError, match=key) as e:
        _config(ruleset, data)
    assert "\n" not in str(e.value)


def _config(ruleset: str, data: dict[str, Any]) -> Any:
    if ruleset == "two_by_two":
        from vedette.rules.two_by_two.model import Rules

        return Rules.from_data(data)
    if ruleset == "solitaire_asl":
        from vedette.rules.solitaire_asl.config import make_config as asl

        return asl(data)
    from vedette.rules.solo_napoleonic.config import make_config as kur

    return kur(data)


@pytest.mark.parametrize(
    ("ruleset", "house", "read"),
    [
        ("two_by_two", {"rally": {"division_range": 6}}, lambda s: s.rules.rally.division_range),
        ("solitaire_asl", {"drm": {"night": -3}}, lambda s: s.config.drm.night),
        (
            "solo_napoleonic",
            {"options": {"volley_die": "d4"}},
            lambda s: s.config.options.volley_die,
        ),
    ],
)
def test_a_house_rule_changes_what_the_game_reads(ruleset: str, house: Any, read: Any) -> None:
    rs = rules.get(ruleset)
    shipped = read(rs.initial_state(rs.scenario("sample"), {}))
    ruled = read(rs.initial_state(rs.scenario("sample"), {"house_rules": house}))
    assert ruled != shipped
    (values,) = house.values()
    (value,) = values.values()
    assert ruled == value


def test_a_config_is_read_once_per_house_rules() -> None:
    """Every game with the same house rules shares one config (read once, not per game)."""
    for name, get in (
        ("solo_napoleonic", lambda s: s.config),
        ("solitaire_asl", lambda s: s.config),
        ("two_by_two", lambda s: s.rules),
    ):
        rs = rules.get(name)
        a = rs.initial_state(rs.scenario("sample"), {"house_rules": {}})
        b = rs.initial_state(rs.scenario("sample"), {})
        assert get(a) is get(b), name
