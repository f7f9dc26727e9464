"""One conformance suite for every ruleset (DESIGN principle 9): its data loads and validates,
every shipped table's odds sum to exactly 1 under any modifier, its bundled scenarios set up and
replay identically, and its state renders as text and JSON."""

from __future__ import annotations

import json
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
