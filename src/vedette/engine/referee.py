"""An imported log re-refereed (issue 25): every action performed again through the engine, in
a scratch game of its own (in memory, never stored), from its request and its recorded dice.

Seeded dice are drawn again from the seed at the positions the dice book gives (an undone
action's reserved dice for its redo, else past every die ever drawn); physical dice are the
faces the file records, checked against the dice. Undo records are undone again, waivers are
the ``waive`` procedure. The record the referee produces (the request as parsed, the events,
the rolls, the message, the result and the dice positions) must equal the file's, or the import
is refused in one line naming the first action that differs and how.

An export carries a digest of its records (``sha256`` and ``records`` in its head line, format
version 2), so a file cut short at a line boundary is refused too; release 0.1's exports have
no digest and import when they re-referee equal.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from vedette.dice.roll import worded_before
from vedette.engine.session import Game, dice_ranges
from vedette.engine.store import Record, Store
from vedette.errors import GameError, VedetteError
from vedette.hashes import sha256
from vedette.rules.base import Ruleset
from vedette.rules.patch import comparable

#: how much of a differing value a refusal quotes
_QUOTE = 120


def records_digest(lines: Sequence[str]) -> str:
    """The digest of an export's record lines (each as written, without its newline)."""
    h = sha256()
    for line in lines:
        h.update(line.encode("utf-8", "surrogatepass"))
        h.update(b"\n")
    return h.hexdigest()


def resign(text: str) -> str:
    """``text`` (an export) with its head's count and digest made again for the records it
    has now: what anyone editing a file can do (the digest detects a file cut short, not a
    forgery: the referee does)."""
    lines = [line for line in text.splitlines() if line.strip()]
    head = json.loads(lines[0])
    if head.get("version", 1) >= 2:
        head.update(records=len(lines) - 1, sha256=records_digest(lines[1:]))
    return "\n".join([json.dumps(head), *lines[1:]]) + "\n"


def _quote(x: Any) -> str:
    text = x if isinstance(x, str) else json.dumps(x, sort_keys=True, default=str)
    text = " ".join(text.split())
    return repr(text if len(text) <= _QUOTE else text[: _QUOTE - 3] + "...")


def _plain(x: Any) -> Any:
    """``x`` as JSON would give it back (tuples as lists, keys as strings)."""
    return json.loads(json.dumps(x, default=str))


def _faces_of_roll(roll: Mapping[str, Any], out: list[int]) -> None:
    if roll.get("type") == "opposed":
        for pair in roll.get("draws", []) or []:
            for r in pair:
                _faces_of_roll(r, out)
        for side in ("a", "b"):
            if isinstance(roll.get(side), Mapping):
                _faces_of_roll(roll[side], out)
        return
    for d in roll.get("dice", []) or []:
        if isinstance(d, Mapping) and isinstance(d.get("face"), int):
            out.append(int(d["face"]))


def physical_faces(payload: Mapping[str, Any]) -> list[int]:
    """The faces a physical-dice action was given: as the dice record lists them, else (older
    exports) read from its rolls in the order they were rolled."""
    d = payload.get("dice", {}) or {}
    if isinstance(d.get("faces"), list):
        return [int(f) for f in d["faces"]]
    out: list[int] = []
    for roll in payload.get("rolls", []) or []:
        if isinstance(roll, Mapping):
            _faces_of_roll(roll, out)
    return out


def _dice_key(payload: Mapping[str, Any]) -> tuple[Any, ...]:
    """What an action's dice record says: the source, the stream positions and the ranges
    drawn. An action that drew no die at all is the same whatever source it names (a game of
    the player's own dice labels it 'physical', one of the game's dice 'seeded')."""
    d = payload.get("dice", {}) or {}
    source = d.get("source")
    ranges = dice_ranges({"dice": d})
    if not ranges and not (source != "seeded" and physical_faces(payload)):
        source = "none"
    return (source, int(d.get("before", 0)), int(d.get("after", 0)), ranges)


def _events_json(rs: Ruleset[Any], events: Sequence[Any]) -> list[Any]:
    """The events of a file as today's versions give them (an older event upgraded)."""
    return [_plain(rs.decode(e).to_json()) for e in events]


def _first_difference(mine: Sequence[Any], theirs: Sequence[Any], what: str) -> str:
    for i, (a, b) in enumerate(zip(theirs, mine, strict=False)):
        if a != b:
            return (
                f"{what} {i + 1} differs: the file has {_quote(a)}, the referee gives {_quote(b)}"
            )
    if len(theirs) > len(mine):
        return (
            f"the file has {len(theirs) - len(mine)} {what}(s) the referee does not give"
            f" (first: {_quote(theirs[len(mine)])})"
        )
    return (
        f"the referee gives {len(mine) - len(theirs)} {what}(s) more than the file"
        f" (first: {_quote(mine[len(theirs)])})"
    )


def _same_request(proc: Any, file: Any, mine: Any) -> bool:
    """The file's request is the one the referee logged (an older release logged it as given:
    then it must read the same)."""
    mine = _plain(mine)
    if file == mine:  # (the file's side is JSON as read: plain already)
        return True
    try:
        return bool(_plain(proc.request_json(proc.parse(file))) == mine)
    except Exception:  # (a request that does not parse is not the same)
        return False


def _reworded(
    rs: Ruleset[Any],
    file: Mapping[str, Any],
    mine: Mapping[str, Any],
    earlier: Sequence[str] = (),
) -> Mapping[str, Any]:
    """The file's message and rolls with each earlier release's wording (``rs.reworded``,
    and the roll lines of release 0.2, which hid a dice expression's constant: ``worded_before``
    of the referee's rolls) put as the referee words it now, each where that makes it the
    referee's (the message: or one of its ``earlier`` wordings)."""
    pairs = rs.reworded
    rolls = mine["rolls"]
    if file.get("message") != mine["message"] or [
        r.get("line") if isinstance(r, Mapping) else r for r in file.get("rolls") or ()
    ] != [r.get("line") for r in rolls]:  # (the lines differ: an older release's, maybe)
        pairs = (*pairs, *(pair for r in rolls for pair in worded_before(r)))
    if not pairs:
        return file
    said = {"message": file.get("message", ""), "rolls": file.get("rolls", [])}
    text = json.dumps(said, ensure_ascii=False)
    for now, then in pairs:
        text = text.replace(
            json.dumps(then, ensure_ascii=False)[1:-1], json.dumps(now, ensure_ascii=False)[1:-1]
        )
    now_said = json.loads(text)
    if now_said == said:
        return file
    out = dict(file)
    if now_said["message"] == mine["message"] or now_said["message"] in earlier:
        out["message"] = now_said["message"]
    if now_said["rolls"] == _plain(list(rolls)):
        out["rolls"] = now_said["rolls"]
    return out


def _compare(
    rs: Ruleset[Any],
    proc: Any,
    file: Mapping[str, Any],
    mine: Mapping[str, Any],
    earlier: Sequence[str] = (),
) -> str | None:
    """How the file's action differs from the referee's (None: equal). ``earlier``: the
    referee's message as earlier releases worded it (``Outcome.earlier``): a file with those
    very words says the same; so does one with an earlier release's words for a text the
    ruleset words otherwise now (``Ruleset.reworded``), in its message or its rolls, and one
    without the events of a kind a later release added (``Ruleset.added_events``), where it
    has none of that kind."""
    file = _reworded(rs, file, mine, earlier)
    if not _same_request(proc, file.get("request", {}), mine["request"]):
        return (
            f"its request {_quote(file.get('request', {}))} is not what the referee reads from it"
            f" ({_quote(mine['request'])})"
        )
    # the file's side is JSON as read (plain already), the referee's made plain to compare
    theirs_e = list(file.get("events", []))
    mine_e = _plain(list(mine["events"]))
    if theirs_e != mine_e and rs.added_events:  # (events a later release added: not said)
        kinds = {e.get("kind") for e in theirs_e if isinstance(e, dict)}
        if not kinds & rs.added_events:
            mine_e = [e for e in mine_e if e.get("kind") not in rs.added_events]
    if theirs_e != mine_e:
        with contextlib.suppress(Exception):  # (an event that does not decode differs)
            theirs_e = _events_json(rs, file.get("events", []))
            mine_e = comparable(mine_e, theirs_e)  # previous values an old log never had
        if theirs_e != mine_e:
            return "events: " + _first_difference(mine_e, theirs_e, "event")
    file_rolls = list(file.get("rolls", []) or [])
    mine_rolls = _plain(list(mine["rolls"]))
    if file_rolls != mine_rolls and len(file_rolls) == len(mine_rolls):
        # (a roll an earlier release explained otherwise: Ruleset.earlier_roll)
        file_rolls = [
            m if f != m and isinstance(m, Mapping) and rs.earlier_roll(m) == f else f
            for f, m in zip(file_rolls, mine_rolls, strict=True)
        ]
    if file_rolls != mine_rolls:
        lines_f = [r.get("line", r) if isinstance(r, dict) else r for r in file_rolls]
        lines_m = [r.get("line", r) if isinstance(r, dict) else r for r in mine_rolls]
        if lines_f != lines_m:
            return "rolls: " + _first_difference(lines_m, lines_f, "roll")
        return "rolls: " + _first_difference(mine_rolls, file_rolls, "roll")
    said = str(file.get("message", ""))
    if said != str(mine["message"]) and said not in earlier:
        return f"message: the file has {_quote(file.get('message', ''))}, the referee gives" + (
            f" {_quote(mine['message'])}"
        )
    if "result" in file and str(file["result"]) != str(mine["result"]):
        return f"result: the file has {_quote(file['result'])}, the referee gives" + (
            f" {_quote(mine['result'])}"
        )
    try:
        theirs_d = _dice_key(file)
    except (TypeError, ValueError):
        theirs_d = ()
    mine_d = _dice_key(mine)
    if theirs_d != mine_d:
        return (
            f"dice: the file has {_quote(file.get('dice'))},"
            f" the referee draws {_quote(mine['dice'])}"
        )
    return None


def referee(rs: Ruleset[Any], records: Sequence[Record], strict: bool = True) -> str | None:
    """Perform the whole log again in a scratch game; raise :class:`GameError` (one line) at
    the first record the referee does not produce as the file has it. Linear in the log.

    ``strict=False`` (an export of an older release, which has no digest): the first
    difference is returned instead (None: the log re-referees equal)."""
    try:
        _referee(rs, records)
    except GameError as e:
        if strict:
            raise
        return str(e)
    return None


def _referee(rs: Ruleset[Any], records: Sequence[Record]) -> None:
    c = records[0].payload
    scratch = Store(":memory:")
    try:
        g = Game.create(
            scratch,
            "import",
            rs.name,
            c["scenario"],
            seed=int(c["seed"]),
            options=c.get("options", {}),
            house_rules=c.get("house_rules", {}),
            # (the game's dice: every seeded record is drawn again from the seed, every
            # physical one performed with its faces, whichever the game was played with)
            dice="seeded",
        )
        for r in records[1:]:
            where = f"export line {r.seq + 1} (#{r.seq}"
            p = r.payload
            if r.kind == "undo":
                if g.top != int(p.get("undoes", 0)):
                    raise GameError(f"{where} undo): undoes #{p.get('undoes')}, not #{g.top}")
                g.undo()
                continue
            proc = str(p.get("procedure"))
            where += f" {proc})"
            source = (p.get("dice", {}) or {}).get("source")
            faces = None if source == "seeded" else physical_faces(p)
            try:
                done = g.perform(proc, p.get("request", {}), faces)
            except VedetteError as e:
                raise GameError(f"{where}: the referee refuses it: {e}") from None
            mine = g.records[-1]
            if mine.seq != r.seq:  # (a query is never logged: it cannot be in a file)
                raise GameError(f"{where}: {proc} is not an action the referee logs")
            why = _compare(rs, g.procedure(proc), p, mine.payload, done.earlier)
            if why is not None:
                raise GameError(f"{where}: {why}")
    except GameError as e:
        raise GameError(" ".join(str(e).split())) from None
    except VedetteError as e:
        raise GameError(f"the export's game does not set up: {' '.join(str(e).split())}") from None
    finally:
        scratch.close()
