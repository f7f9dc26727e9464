"""Issue 25: an import is the game re-refereed. Every action of an export is performed again
from its request and its dice; a history the referee does not give (any tampering of a real
export of any ruleset) is refused in one line naming the first action that differs, and
nothing is stored. Every honest export (and release 0.1's) still imports."""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conformance import play_game
from vedette.engine import Game, Store
from vedette.engine.referee import records_digest
from vedette.engine.session import dice_ranges
from vedette.errors import VedetteError

FIXTURES = Path(__file__).parent.parent / "fixtures" / "saved_games_v0_1"
#: a seeded game of each ruleset with several rolls, moves and (nab) a fixing
GAMES = {"napoleon_at_bay": 16, "solitaire_asl": 4, "two_by_two": 2, "solo_napoleonic": 4}
UNIT_KEYS = ("force", "unit", "stack", "general", "moving", "contact")

Records = list[dict[str, Any]]


@pytest.fixture(scope="module")
def exports() -> dict[str, str]:
    """A real export of each ruleset where every kind of tampering applies (a game with a
    move, two fixings or rolls one after the other, a substitution ...): the first of a few
    seeded games that has them."""
    out = {}
    for rs, first in GAMES.items():
        for seed in range(first, first + 40, 2):
            text = play_game(rs, seed, 80, Store(":memory:"), odds_checks=0).export_jsonl()
            if _every_tampering_applies(rs, text):
                out[rs] = text
                break
        else:
            raise AssertionError(f"{rs}: no seeded game where every tampering applies")
    return out


def _every_tampering_applies(rs: str, text: str) -> bool:
    _, recs = parse(text)
    for f in TAMPERINGS.values():
        try:
            if f(rs, copy.deepcopy(recs)) == recs:
                return False
        except (AssertionError, StopIteration, ValueError, IndexError, KeyError):
            return False
    return True


def parse(text: str) -> tuple[dict[str, Any], Records]:
    lines = text.splitlines()
    return json.loads(lines[0]), [json.loads(x) for x in lines[1:]]


def write(head: dict[str, Any], recs: Records, sign: bool = True) -> str:
    """The export of ``recs``; ``sign``: with the digest made again (as a tamperer would)."""
    body = [json.dumps(r) for r in recs]
    if sign:
        head = {**head, "records": len(body), "sha256": records_digest(body)}
    return "\n".join([json.dumps(head), *body]) + "\n"


def actions(recs: Records) -> list[dict[str, Any]]:
    return [r for r in recs if r["kind"] == "action"]


def rolling(recs: Records) -> list[dict[str, Any]]:
    return [r for r in actions(recs) if dice_ranges(r["payload"]) and r["payload"]["rolls"]]


def renumber(recs: Records) -> Records:
    """Seqs 1..n again (an undo's target follows its action)."""
    new = {r["seq"]: i for i, r in enumerate(recs, start=1)}
    for i, r in enumerate(recs, start=1):
        r["seq"] = i
        if r["kind"] == "undo":
            r["payload"]["undoes"] = new.get(r["payload"]["undoes"], r["payload"]["undoes"])
    return recs


def unit_ids(recs: Records) -> list[str]:
    seen: list[str] = []

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if k in UNIT_KEYS and isinstance(v, str) and v not in seen:
                    seen.append(v)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    for r in actions(recs):
        walk(r["payload"]["events"])
        walk(r["payload"]["request"])
    return seen


def other(value: str, pool: list[str]) -> str:
    return next(x for x in pool if x != value)


# -- the kinds of tampering (issue 25's list) ------------------------------------------------
def seed_changed(rs: str, recs: Records) -> Records:
    recs[0]["payload"]["seed"] += 1
    return recs


def face_changed(rs: str, recs: Records) -> Records:
    roll = rolling(recs)[0]["payload"]["rolls"][0]
    if roll.get("type") == "opposed":
        roll = roll["a"]
    die = roll["dice"][0]
    die["face"] = 1 if die["face"] != 1 else 2
    return recs


def rerolled(rs: str, recs: Records) -> Records:
    """A rolling action made again on other dice, its events, rolls and message those the
    referee gives for them: consistent with themselves, not with the seed."""
    target = rolling(recs)[0]
    at = recs.index(target)
    scratch = Store(":memory:")
    head = {"format": "vedette-game", "version": 1, "ruleset": rs}
    g = Game.import_jsonl(scratch, write(head, recs[:at], sign=False), "prefix")
    p = target["payload"]
    n = len([d for roll in p["rolls"] for d in _dice(roll)])
    for face in (1, 6, 2, 5, 3, 4):
        try:
            out = g.perform(p["procedure"], p["request"], [face] * n)
        except VedetteError:
            continue
        payload = g.records[-1].payload
        events = json.loads(json.dumps(payload["events"]))
        rolls = json.loads(json.dumps(payload["rolls"]).replace('"physical"', '"seeded"'))
        if events != p["events"] or rolls != p["rolls"]:
            p["events"], p["rolls"], p["message"], p["result"] = (
                events,
                rolls,
                out.message,
                out.result,
            )
            return recs
        g.undo()
    raise AssertionError(f"{rs}: no other dice give another outcome")


def _dice(roll: dict[str, Any]) -> list[Any]:
    if roll.get("type") == "opposed":
        return [d for pair in roll["draws"] for x in pair for d in _dice(x)] + [
            *_dice(roll["a"]),
            *_dice(roll["b"]),
        ]
    return list(roll["dice"])


def seeded_to_physical(rs: str, recs: Records) -> Records:
    """An action that drew the game's dice claims the player's own (the same faces): the
    dice after it then come from other positions of the stream."""
    rolls = rolling(recs)
    first = next(
        a["payload"]
        for i, a in enumerate(rolls)
        if any(
            dice_ranges(b["payload"])[0][0] >= dice_ranges(a["payload"])[-1][1]
            for b in rolls[i + 1 :]
        )
        and not any(
            dice_ranges(b["payload"])[0] == dice_ranges(a["payload"])[0] for b in rolls[i + 1 :]
        )
    )
    pos = dice_ranges(first)[0][0]
    first["dice"] = {"source": "physical", "before": pos, "after": pos}
    for roll in first["rolls"]:
        if "source" in roll:
            roll["source"] = "physical"
    return recs


def teleport(rs: str, recs: Records) -> Records:
    """A move's destination changed (to another place the log names)."""
    places: list[Any] = []
    for r in actions(recs):
        for e in r["payload"]["events"]:
            for key in ("to", "position", "location"):
                if key in e["data"] and e["data"][key] not in places:
                    places.append(e["data"][key])
    for r in actions(recs):
        for e in r["payload"]["events"]:
            if e["kind"] in ("moved", "move"):
                for key in ("to", "position", "location"):
                    if e["data"].get(key) is not None:
                        e["data"][key] = other(e["data"][key], places)
                        return recs
                if isinstance(e["data"].get("set", {}).get("y"), float):  # (solonap: mm)
                    e["data"]["set"]["y"] += 600.0
                    return recs
    raise AssertionError(f"{rs}: no move to tamper with")


def wrong_phase(rs: str, recs: Records) -> Records:
    """A later move of the log performed at the very start (another side's, another phase)."""
    moves = [
        r
        for r in actions(recs)
        if any(e["kind"] in ("moved", "move") for e in r["payload"]["events"])
    ]
    late = copy.deepcopy(moves[-1])
    return renumber([recs[0], late, *recs[1:]])


def substitution(rs: str, recs: Records) -> Records:
    """An event names another unit than the one the rules give (nab: a substitution by an
    out-of-range force)."""
    ids = unit_ids(recs)
    for r in actions(recs):
        for e in r["payload"]["events"]:
            for key in ("support", *UNIT_KEYS):
                value = e["data"].get(key)
                if (
                    isinstance(value, str)
                    and value in ids
                    and (rs != "napoleon_at_bay" or e["kind"] == "substituted")
                ):
                    e["data"][key] = other(value, ids)
                    return recs
    raise AssertionError(f"{rs}: no unit in an event")


def request_mismatch(rs: str, recs: Records) -> Records:
    """A request names another unit while its events still move the first."""
    ids = unit_ids(recs)
    for r in actions(recs):
        req = r["payload"]["request"]
        for key, v in req.items():
            if isinstance(v, str) and v in ids and r["payload"]["events"]:
                req[key] = other(v, ids)
                return recs
    raise AssertionError(f"{rs}: no request names a unit")


def relabelled(rs: str, recs: Records) -> Records:
    """A procedure's name changed (nab: 'fix' relabelled 'move')."""
    a = rolling(recs)[0]["payload"]
    names = [r["payload"]["procedure"] for r in actions(recs)]
    a["procedure"] = other(a["procedure"], names)
    return recs


def event_added(rs: str, recs: Records) -> Records:
    a = next(r for r in actions(recs) if r["payload"]["events"])["payload"]
    a["events"].append(copy.deepcopy(a["events"][-1]))
    return recs


def event_removed(rs: str, recs: Records) -> Records:
    a = next(r for r in actions(recs) if r["payload"]["events"])["payload"]
    a["events"].pop()
    return recs


def reordered(rs: str, recs: Records) -> Records:
    """Two actions swapped (nab: fix before move)."""
    i = recs.index(rolling(recs)[0])
    j = min(k for k in range(i + 1, len(recs)) if recs[k]["kind"] == "action")
    recs[i], recs[j] = recs[j], recs[i]
    return renumber(recs)


def destroyed(rs: str, recs: Records) -> Records:
    """An event marking a unit destroyed (or its ruleset's nearest loss) added to an action."""
    ids = unit_ids(recs)
    event = {
        "two_by_two": {
            "kind": "destroyed",
            "v": 2,
            "data": {"unit": ids[0], "off_table": True, "status": "destroyed"},
        },
        "napoleon_at_bay": {
            "kind": "fixed",
            "data": {"moving": ids[0], "contact": ids[1], "force": ids[1], "result": "fixed"},
        },
        "solitaire_asl": {"kind": "mark", "v": 2, "data": {"remove_stacks": [ids[0]]}},
        "solo_napoleonic": {
            "kind": "casualties_taken",
            "data": {"unit": ids[0], "set": {"status": "destroyed"}},
        },
    }[rs]
    actions(recs)[-1]["payload"]["events"].append(event)
    return recs


def message_changed(rs: str, recs: Records) -> Records:
    rolling(recs)[0]["payload"]["message"] += " (and the enemy routs)"
    return recs


TAMPERINGS: dict[str, Callable[[str, Records], Records]] = {
    f.__name__: f
    for f in (
        seed_changed,
        face_changed,
        rerolled,
        seeded_to_physical,
        teleport,
        wrong_phase,
        substitution,
        request_mismatch,
        relabelled,
        event_added,
        event_removed,
        reordered,
        destroyed,
        message_changed,
    )
}


def assert_refused(st: Store, text: str, why: str) -> str:
    before = [(g.name, g.events) for g in st.games()]
    with pytest.raises(VedetteError) as e:
        Game.import_jsonl(st, text, "tampered")
    msg = str(e.value)
    assert msg and "\n" not in msg, (why, msg)
    assert [(g.name, g.events) for g in st.games()] == before, why  # nothing stored
    return msg


@pytest.mark.parametrize("rs", list(GAMES))
def test_honest_export_imports_equal(exports: dict[str, str], rs: str, tmp_path: Path) -> None:
    st = Store(tmp_path / "g.db")
    g = Game.import_jsonl(st, exports[rs], "copy")
    assert g.export_jsonl().splitlines()[1:] == exports[rs].splitlines()[1:]
    assert g.history == ""


@pytest.mark.parametrize("kind", list(TAMPERINGS))
@pytest.mark.parametrize("rs", list(GAMES))
def test_tampered_export_refused(
    exports: dict[str, str], rs: str, kind: str, tmp_path: Path
) -> None:
    head, recs = parse(exports[rs])
    tampered = TAMPERINGS[kind](rs, copy.deepcopy(recs))
    assert tampered != recs
    st = Store(tmp_path / "g.db")
    msg = assert_refused(st, write(head, tampered), f"{rs} {kind}")
    assert "export line" in msg, msg


@pytest.mark.parametrize("rs", list(GAMES))
def test_truncated_export_refused(exports: dict[str, str], rs: str, tmp_path: Path) -> None:
    st = Store(tmp_path / "g.db")
    lines = exports[rs].splitlines(keepends=True)
    for cut in (len(lines) - 1, len(lines) // 2, 2):
        msg = assert_refused(st, "".join(lines[:cut]), f"{rs} cut at {cut}")
        assert "incomplete" in msg
    head, recs = parse(exports[rs])
    msg = assert_refused(st, write(head, recs[:-1], sign=False), rs)


def test_the_refusal_names_the_action_and_the_difference(exports: dict[str, str]) -> None:
    head, recs = parse(exports["napoleon_at_bay"])
    recs = face_changed("napoleon_at_bay", recs)
    seq = rolling(recs)[0]["seq"]
    msg = assert_refused(Store(":memory:"), write(head, recs), "face")
    assert msg.startswith(f"export line {seq + 1} (#{seq} fix): rolls: roll 1 differs"), msg


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.jsonl")), ids=lambda p: p.stem)
def test_release_0_1_exports_import_flagged(path: Path, tmp_path: Path) -> None:
    """Release 0.1's rules logged other messages and event fields: its games import as its
    history, flagged in the log and the after-action report, never silently vouched for."""
    st = Store(tmp_path / "g.db")
    g = Game.import_jsonl(st, path.read_text(encoding="utf-8"), "old")
    assert g.history.startswith("history from release 0.1, not re-refereed: export line")
    assert g.log_lines()[0] == f"! {g.history}"
    again = Game.open(Store(tmp_path / "g.db"), "old")
    assert again.history == g.history


def test_import_of_a_long_game_is_linear() -> None:
    """Re-refereeing costs the same per action at any length (never quadratic)."""
    times = {}
    for steps in (100, 400):
        g = play_game("napoleon_at_bay", 6, steps, Store(":memory:"), odds_checks=0)
        text = g.export_jsonl()
        t = time.perf_counter()
        Game.import_jsonl(Store(":memory:"), text, "copy")
        times[steps] = (time.perf_counter() - t) / len(g.records)
    assert times[400] < 3 * times[100] + 1e-3, times
