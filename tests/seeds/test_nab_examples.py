"""Herman's example table (seed 000, "Example: Series 5X Highway to the Kremlin"), row by
row, with the die forced to 3 as in the text. Moving force in Vilnius W1920 (moves to W2020,
entering the ZOC of Asmjany W2121); supporting force in Smorgoni W2421 (and W2522).

The procedure's message reproduces the seed's outcome text exactly (separator ", " as in the
seed; the Roll's own line() uses " → ")."""

from __future__ import annotations

from pathlib import Path

import pytest

from vedette.dice import ScriptedSource
from vedette.engine import Game, Store, replay
from vedette.rules.napoleon_at_bay import RULESET

ROWS = [
    ("example1", "1d6=3+2 (only Ru has Vedette)=5, Vedette and Ru Inf switch places"),
    ("example2", "1d6=3-1 (superior Fr Cav)=2, Vedette remains in hex"),
    ("example3", "1d6=3+1 (superior Ru Cav)=4, Vedette and Ru Mx switch places"),
]
ROW4_PREFIX = (
    "1d6=3+2 (only Ru has Vedette)=5, Vedette and Ru Mx switch places with one component of"
    " force placed in hex W2121 and the other component placed in"
)


def _fix(scen: str, face: int = 3):  # type: ignore[no-untyped-def]
    s = RULESET.initial_state(RULESET.scenario(scen), {})
    mv = RULESET.procedures["move"].run(s, {"force": "F1", "to": "W2020"}, ScriptedSource([]))
    for e in mv.events:
        s = RULESET.apply(s, e)
    out = RULESET.procedures["fix"].run(
        s, {"moving": "F1", "contact": "R1"}, ScriptedSource([face])
    )
    after = s
    for e in out.events:
        after = RULESET.apply(after, e)
    return s, out, after


@pytest.mark.parametrize(("scen", "line"), ROWS)
def test_example_rows_1_to_3(scen: str, line: str) -> None:
    _, out, after = _fix(scen)
    assert out.message == line
    roll = out.rolls[0]
    assert roll.line().startswith("fixing: " + line.split(",")[0] + " → ")
    if "switch" in line:
        assert after.pieces["R2"].hexes == ("W2121",)
        assert after.pieces["R1"].hexes == ("W2421",)
        assert after.pieces["R2"].fixed and not after.pieces["R1"].fixed
    else:
        assert after.pieces["R1"].hexes == ("W2121",) and after.pieces["R1"].fixed


def test_example_row_4_two_hex_force() -> None:
    _before, out, after = _fix("example4")
    assert out.message.startswith(ROW4_PREFIX)
    assert out.message.endswith("adjacent to W2121 and adjacent to the Fr force")
    mx = after.pieces["R2"].hexes
    assert mx[0] == "W2121"
    m = after.map
    other = mx[1]
    assert m.adjacent(other, "W2121") and m.adjacent(other, "W2020")  # the Fr force is in W2020
    assert other in out.message
    # the legal arrays are exactly the two hexes adjacent to both
    assert sorted(a[1] for a in out.details["arrays"]) == ["W2021", "W2120"]
    # the vedette goes to one of the vacated hexes
    assert after.pieces["R1"].hexes[0] in ("W2421", "W2522")


def test_example_through_a_game_and_replay(tmp_path: Path) -> None:
    st = Store(tmp_path / "g.db")
    g = Game.create(st, "ex1", "nab", RULESET.scenario("example1"), seed=7)
    g.perform("move", {"force": "F1", "to": "W2020"})
    out = g.perform("fix", {"moving": "F1", "contact": "R1"}, faces=[3])
    assert out.message == ROWS[0][1]
    assert replay(RULESET, st.records(g.id)).state == g.state


def test_example_odds() -> None:
    s, _, _ = _fix("example1")
    f = RULESET.procedures["fix"].odds
    assert f is not None
    o = list(f(s, {"moving": "F1", "contact": "R1"}))
    from fractions import Fraction

    assert o[0].p("stays") == Fraction(1, 6) and o[0].p("substitution") == Fraction(5, 6)
    assert o[1].p("R2") == Fraction(5, 6)


# -- the text's numbers (Herman (3)), final text and first draft, against the rule data --------
@pytest.mark.parametrize("variant", ["final", "draft"])
def test_fixing_table_and_drms_as_printed(variant: str) -> None:
    """Herman (3), in both texts: 1-3 the contact (non-moving) force remains, 4-6 a force is
    substituted; DRM 1 -2, DRM 2 -1 / +1 (none on a tie), DRM 3 +2, DRM 4 none."""
    opts = {} if variant == "final" else {"variant": "draft"}
    c = RULESET.initial_state(RULESET.scenario("example1"), opts).config
    assert [c.table.lookup(f).key for f in range(1, 7)] == ["stays"] * 3 + ["substitution"] * 3
    assert c.dice == "1d6"
    d = c.drm
    assert (d.only_moving_has, d.superior_moving, d.superior_contact, d.tie) == (-2, -1, 1, 0)
    assert (d.only_contact_has, d.neither) == (2, 0)


@pytest.mark.parametrize(("series", "hexes"), [("1x", 10), ("2x", 5), ("5x", 3)])
def test_support_range_by_series_as_printed(series: str, hexes: int) -> None:
    """Herman (3): a support force within 10 hexes (1x series), 5 (2x) or 3 (5x)."""
    scen = {**RULESET.scenario("example1")}
    scen["scenario"] = {**scen["scenario"], "series": series}
    assert RULESET.initial_state(scen, {}).config.support_range == hexes
