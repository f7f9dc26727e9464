"""One conformance suite for every ruleset (DESIGN principle 9): its data loads and validates,
every shipped table's odds sum to exactly 1 under any modifier, its bundled scenarios set up and
replay identically, and its state renders as text and JSON."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from vedette import rules
from vedette.dice import Check, Modifier
from vedette.engine import Game, Store, replay

RULESETS = list(rules.BUILTIN)


@pytest.mark.parametrize("name", RULESETS)
def test_registered_and_named(name: str) -> None:
    rs = rules.get(name)
    assert rs.name == name
    for alias in rules.aliases(name):
        assert rules.get(alias) is rs
    assert rs.procedures, f"{name} offers no procedures"
    assert rs.scenarios, f"{name} bundles no scenario"


@pytest.mark.parametrize("name", RULESETS)
def test_every_table_odds_sum_to_one(name: str) -> None:
    rs = rules.get(name)
    tables = rs.tables()
    for t in tables.values():
        if not t.dice:
            continue  # validated at load; its figure comes from a procedure's own arithmetic
        dice = t.dice
        for m in (-7, -2, 0, 1, 3, 9):
            if not t.clamp and m != 0:
                continue  # a closed table is read only on the figures its rules give it
            try:
                odds = Check(dice, (Modifier(m, "test"),), t).odds()
            except Exception as e:  # a closed table with its own dice must cover them
                raise AssertionError(f"{name}:{t.name} with {dice}{m:+d}: {e}") from e
            assert sum((r.p for r in odds.rows), Fraction(0)) == 1


@pytest.mark.parametrize("name", RULESETS)
def test_bundled_scenarios_set_up_and_replay(name: str, tmp_path: Path) -> None:
    rs = rules.get(name)
    st = Store(tmp_path / "c.db")
    for i, scen in enumerate(rs.scenarios):
        g = Game.create(st, f"g{i}", name, rs.scenario(scen), seed=1)
        assert replay(rs, st.records(g.id)).state == g.state
        assert isinstance(g.render(), str) and g.render()
        json.dumps(rs.state_json(g.state))


_READ = re.compile(
    r'req\.get_(?:str|opt_str|int|float|bool|list|choice)\(\s*"([a-z_0-9]+)"'
    r'|(?:fact|count_fact)\(\s*req\s*,\s*"([a-z_0-9]+)"'
    r'|"([a-z_0-9]+)" in req\b'
)


@pytest.mark.parametrize("name", RULESETS)
def test_every_argument_a_ruleset_reads_is_declared(name: str) -> None:
    """The engine refuses undeclared arguments, so a key a procedure reads but no procedure
    declares could never be given: scan the ruleset's source for the keys it reads."""
    rs = rules.get(name)
    declared = {p.name for proc in rs.procedures.values() for p in proc.params}
    package = Path(__file__).resolve().parents[2] / "src" / "vedette" / "rules" / name
    read = {
        next(g for g in m.groups() if g)
        for f in package.glob("*.py")
        for m in _READ.finditer(f.read_text(encoding="utf-8"))
    }
    assert read - declared == set()
