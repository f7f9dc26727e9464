"""Every roll explains itself, in every ruleset (session 22, E1): the saved games of release
0.2 (``tests/fixtures``) performed again with today's referee, a simulated game of each
ruleset (``vedette simulate``'s play, stored) and a few actions none of them makes give every
procedure that rolls; each roll they log must show its dice, each modifier
with its reason and rule, the final figure those make, the table's row and its consequence,
and every die the action drew must be in its rolls (no die drawn unrecorded)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from vedette import rules
from vedette.engine import Game, Store
from vedette.engine.referee import physical_faces
from vedette.engine.session import dice_ranges
from vedette.sim.play import Setup, save_game

FIX = Path(__file__).resolve().parents[1] / "fixtures"
SAVED = {
    "napoleon_at_bay": [
        "events_v0_2/napoleon_at_bay.jsonl",
        "events_v0_2/house_dice/napoleon_at_bay.jsonl",
    ],
    "solitaire_asl": ["events_v0_2/solitaire_asl.jsonl"],
    "two_by_two": ["events_v0_2/two_by_two.jsonl"],
    "solo_napoleonic": ["events_v0_2/solo_napoleonic.jsonl"],
}  # fmt: skip
#: the procedures that roll dice, by ruleset (the rest roll none): the sweep must meet each
ROLLING = {
    "napoleon_at_bay": {"fix"},
    "solitaire_asl": {"boresight", "minefield", "prereg", "shift"},
    "two_by_two": {"melee", "rally", "reinforce", "rout", "setup_roll", "shoot"},
    "solo_napoleonic": {
        "brawl", "chance", "charge", "charge_home", "control", "deal", "disorder", "evade",
        "fire", "formation", "halt", "melee", "morale", "move", "rally", "reform", "staff",
        "start",
    },
}  # fmt: skip


#: the simulated game (its index, seed 7) that meets what the saved games do not: Kuryakin's
#: game 0 has no evasion or brawl since reading K108 (a step back takes no test to move off)
SIM_GAME = {"solo_napoleonic": 5}


def replayed(path: Path, store: Store) -> Iterator[Mapping[str, Any]]:
    """The actions of a saved game as today's referee logs them (each performed again, with
    the options its import takes: ``Ruleset.earlier_readings``)."""
    text = path.read_text()
    lines = [json.loads(x) for x in text.splitlines()[1:]]
    c = Game.import_jsonl(store, text, f"{path.parent.name}-{path.stem}").records[0].payload
    g = Game.create(
        store,
        f"{path.parent.name}-{path.stem}-again",
        c["ruleset"],
        c["scenario"],
        seed=int(c["seed"]),
        options=c.get("options", {}),
        house_rules=c.get("house_rules", {}),
    )
    for rec in lines[1:]:
        p = rec["payload"]
        if rec["kind"] == "undo":
            g.undo()
            continue
        seeded = (p.get("dice") or {}).get("source") == "seeded"
        g.perform(p["procedure"], p.get("request", {}), None if seeded else physical_faces(p))
        yield g.records[-1].payload


def extras(name: str, store: Store) -> Iterator[Mapping[str, Any]]:
    """A simulated game's actions (Kuryakin: an evasion, a charge home); actions neither makes:
    a minefield shift (ASL), the set-up roll (2 by 2)."""
    rs = rules.get(name)
    g, _ = save_game(
        store, f"sim-{name}", Setup(name, rs.scenario("sample")), 7, SIM_GAME.get(name, 0)
    )
    yield from (r.payload for r in g.records if r.kind == "action")
    if name == "solitaire_asl":
        g = Game.create(store, "asl", name, rs.scenario("sample"), seed=11)
        g.perform("phase", {"to": "MPh"})
        g.perform("minefield", {"entered": "M1", "other": "M2"})
        yield g.records[-1].payload
    elif name == "two_by_two":
        g = Game.create(store, "2x2", name, rs.scenario("setup"), seed=11)
        g.perform("setup_roll", {}, [2, 5])
        yield g.records[-1].payload


def parts(roll: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """A roll's own rolls (an opposed roll's two sides, its draws rolled again)."""
    if roll.get("type") == "opposed":
        for r in (roll["a"], roll["b"], *(x for d in roll.get("draws") or () for x in d)):
            yield from parts(r)
    else:
        yield roll


def unexplained(roll: Mapping[str, Any]) -> list[str]:
    """What a logged roll leaves unsaid."""
    out = []
    if not (roll.get("label") and roll.get("rule") and roll.get("line")):
        out.append("a label, a rule and a line")
    if roll.get("table") is not None and (roll.get("row") is None or not roll.get("consequence")):
        out.append(f"the row and consequence of table {roll['table']}")
    for r in parts(roll):
        if not r["dice"] or not all(isinstance(f["face"], int) for f in r["dice"]):
            out.append("its faces")
        for m in [*r["modifiers"], *r["superseded"]]:
            if not (m.get("reason") and m.get("rule")):
                out.append(f"modifier {m} with its reason and rule")
        shift = sum(m["value"] for m in r["modifiers"])
        if r.get("target") is not None:  # (an under-roll: the modifiers move the target)
            if r["target"] != r["base_target"] + shift:
                out.append(f"target {r['target']} from {r['base_target']} and its modifiers")
        elif r["modifiers"] and r["final"] != r["natural"] + shift:
            out.append(f"final {r['final']} from {r['natural']} and its modifiers")
        elif not r["modifiers"] and r["final"] != r["natural"] and r.get("type") == "roll":
            out.append(f"final {r['final']}: the dice say {r['natural']}, no modifier says why")
    return out


def recorded(payload: Mapping[str, Any]) -> int:
    """The dice an action's rolls show: each face, and each face rolled again (a casualty's
    die above the figures eligible: Kuryakin, Determining Casualties) its roll names."""
    n = 0
    for roll in payload["rolls"]:
        for r in parts(roll):
            n += len(r["dice"]) + len((r.get("details") or {}).get("ignored", ()))
    return n


@pytest.mark.parametrize("name", sorted(ROLLING))
def test_every_roll_of_every_rolling_procedure_explains_itself(name: str) -> None:
    store = Store(":memory:")
    rolled: set[str] = set()
    gaps: list[str] = []
    payloads = [p for f in SAVED[name] for p in replayed(FIX / f, store)]
    for p in [*payloads, *extras(name, store)]:
        proc = p["procedure"]
        drawn = sum(b - a for a, b in dice_ranges(p))
        if p["dice"].get("source") != "seeded":
            drawn = len(p["dice"].get("faces") or ())
        if drawn != recorded(p):
            gaps.append(f"{proc}: {drawn} dice drawn, {recorded(p)} in its rolls {p['rolls']}")
        if p["rolls"]:
            rolled.add(proc)
        for roll in p["rolls"]:
            gaps += [f"{proc}: {roll['line']!r} does not give {w}" for w in unexplained(roll)]
    assert not gaps, "\n".join(gaps[:10])
    assert rolled == ROLLING[name], "a procedure that rolls is not in the sweep (or no more rolls)"
