"""What the game page shows, as JSON: the log entries (each collapsed to its one-line
explanation, with its full record as readable rows), paged and incremental, and the referee's
"what next" (obligations first, then the actions open now), with the procedures' fields.

Nothing here knows a ruleset: it reads the log payloads and the protocol's ``Todo``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from vedette.engine import Game
from vedette.engine.store import Record

#: entries per page of the log
PAGE = 50
#: the longest value shown in one cell of a record table
CELL = 300


def rolls_of(payload: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """An action's rolls (an imported log's odd items left out)."""
    rolls = payload.get("rolls")
    return [x for x in rolls if isinstance(x, Mapping)] if isinstance(rolls, list) else []


def explain(r: Record) -> str:
    """The one-line explanation of a log entry: what was done and what came of it."""
    p = r.payload
    if r.kind == "created":
        return f"created: {p.get('ruleset', '')} (seed {p.get('seed', '')})"
    if r.kind == "undo":
        return f"undo #{p.get('undoes', '')}"
    proc = str(p.get("procedure", r.kind))
    message = str(p.get("message") or "").strip()
    line = message.splitlines()[0] if message else ""
    if not line:
        rolls = [str(x.get("line", "")) for x in rolls_of(p) if x.get("line")]
        line = "; ".join(rolls) or str(p.get("result") or "done")
    return f"{proc}: {line}"


def rows(value: Any, key: str = "", depth: int = 0) -> list[dict[str, Any]]:
    """A record as rows of a key/value table: nested mappings and lists (rolls, events,
    modifiers) become indented rows, scalars one cell each."""
    out: list[dict[str, Any]] = []
    if isinstance(value, Mapping):
        if key:
            out.append({"depth": depth, "key": key, "value": ""})
            depth += 1
        for k, v in value.items():
            out.extend(rows(v, str(k), depth))
    elif isinstance(value, list | tuple) and any(isinstance(x, Mapping | list) for x in value):
        out.append({"depth": depth, "key": key, "value": ""})
        for i, v in enumerate(value, 1):
            out.extend(rows(v, f"{key} {i}", depth + 1))
    else:
        if isinstance(value, list | tuple):
            text = ", ".join(str(x) for x in value)
        elif isinstance(value, str):
            text = value
        else:
            text = json.dumps(value)
        out.append({"depth": depth, "key": key, "value": text[:CELL]})
    return out


def record_rows(r: Record) -> list[dict[str, Any]]:
    """A log entry's full record as table rows (fetched when the player opens the entry)."""
    p = r.payload
    record: Any = p
    if r.kind == "created":
        record = {"ruleset": p.get("ruleset"), "seed": p.get("seed"), "options": p.get("options")}
    return rows(record)


def entry(r: Record, undone: bool) -> dict[str, Any]:
    """A log entry as the page lists it: its one-line explanation and its dice lines."""
    p = r.payload
    lines = [str(x.get("line", "")) for x in rolls_of(p)] if r.kind == "action" else []
    if r.kind == "action" and p.get("message"):
        lines.extend(str(p["message"]).splitlines())
    return {
        "seq": r.seq,
        "kind": r.kind,
        "procedure": str(p.get("procedure", r.kind)),
        "undone": undone,
        "line": explain(r),
        "lines": lines,
    }


def undone_seqs(g: Game, since: int = 0, undone: set[int] | None = None) -> list[int]:
    """The actions undone among the records after ``since``, and those the undos after it
    took back (older entries a client already shows): an undone action stays undone, so a
    client that has the log up to ``since`` needs no more (and a long game's answer does not
    grow with its age). ``undone``: ``g.undone(after=since)`` when the caller has it."""
    found = set(g.undone(after=since) if undone is None else undone)
    for r in g.records[max(0, since) :]:
        if r.kind == "undo" and isinstance(r.payload.get("undoes"), int):
            found.add(int(r.payload["undoes"]))
    return sorted(found)


def log_page(g: Game, before: int | None = None, limit: int = PAGE) -> dict[str, Any]:
    """Entries older than ``before`` (all when None), newest first, at most ``limit``; only
    that page of the log is read (a record's seq is its place in the log, from 1)."""
    end = len(g.records) if before is None else max(0, min(before - 1, len(g.records)))
    start = max(0, end - limit) if limit > 0 else end
    undone = g.undone(after=start)
    page = list(reversed(g.records[start:end]))
    return {"entries": [entry(r, r.seq in undone) for r in page], "more": start > 0}


def log_since(g: Game, since: int, undone: set[int] | None = None) -> list[dict[str, Any]]:
    """The entries after ``since``, newest first (only those records are read)."""
    undone = g.undone(after=since) if undone is None else undone
    return [entry(r, r.seq in undone) for r in reversed(g.records[max(0, since) :])]


#: field names a board pick of each kind may fill (the boards helper's ``vedette:pick``)
PICK_FIELDS: dict[str, tuple[str, ...]] = {
    "unit": (
        "unit", "force", "moving", "contact", "target", "attacker", "defender", "stack",
        "from_stack", "to_stack", "leader", "general", "brigade", "support", "counter",
        "piece", "shooter", "charger", "by", "mover", "a", "b", "firer", "toward", "charged_by",
        "screen", "movers", "what",
    ),
    "hex": ("to", "hex", "at", "where", "location", "path"),
    "location": ("location", "to", "at", "where", "hex", "a", "b"),
    "point": ("to", "at", "point", "x", "where"),
}  # fmt: skip


def pick_kinds(name: str) -> list[str]:
    """The kinds of board pick a field named ``name`` accepts (by its name: the request specs
    type values, not what they denote)."""
    return [k for k, names in PICK_FIELDS.items() if name in names]


def described(p: Any) -> dict[str, Any]:
    """A procedure (or a sequence) with its fields, required first, as the page's forms show
    them."""
    params = sorted(p.params, key=lambda x: not x.required)
    return {
        "name": p.name,
        "help": p.help,
        "rule": p.rule,
        "query": p.query,
        "odds": getattr(p, "odds", None) is not None,
        "params": [
            {
                "name": x.name,
                "help": x.help,
                "kind": x.kind,
                "required": x.required,
                "choices": list(x.choices),
                # each choice with the words shown for it (the value stays the key)
                "options": x.choice_labels(),
                "pick": " ".join(pick_kinds(x.name)),
            }
            for x in params
        ],
    }


def procedures(g: Game) -> list[dict[str, Any]]:
    """Every procedure with its fields, required first."""
    return [described(p) for p in g.procedures().values()]


def sequences(g: Game) -> list[dict[str, Any]]:
    """Every sequence of the ruleset (the odds panel's "whole sequence" part), as
    :func:`procedures` gives them."""
    try:
        return [described(p) for p in g.sequences().values()]
    except Exception:  # a ruleset's sequences module failing must not take the page down
        return []


def todo(g: Game) -> list[dict[str, Any]]:
    """The referee's "what next": obligations first, then the actions open now."""
    try:
        items = [t.to_json() for t in g.todo()]
    except Exception:  # a ruleset's todo failing must not take the page down
        return []
    items.sort(key=lambda t: not t["owed"])
    # (the entry that ends the phase: the page keeps it in view, however long the list;
    # the pieces it is about: a tap on one lists it first, Ruleset.pick_fields)
    fields = g.ruleset.pick_fields
    for t in items:
        if t["procedure"] in g.ruleset.phase_end:
            t["phase_end"] = True
        pieces = [str(v) for k in fields for v in named(t["request"].get(k))]
        if pieces:
            t["pieces"] = pieces
    return items


def named(value: Any) -> list[Any]:
    """The pieces a request field names: its value, each of a list's, none for None."""
    if value is None:
        return []
    return list(value) if isinstance(value, list | tuple) else [value]


def counters(g: Game) -> dict[str, list[dict[str, Any]]]:
    """The player's own reports on each counter (``Ruleset.counter_actions``): listed on the
    page when the counter is tapped on the board."""
    try:
        found = g.ruleset.judged_counter_actions(g.state)
    except Exception:  # (as todo: a ruleset's failing must not take the page down)
        return {}
    return {k: [t.to_json() for t in v] for k, v in found.items()}


def standing(g: Game) -> dict[str, Any] | None:
    """How the battle stands by a study's end that is no rule of the text (``Ruleset.standing``,
    as ``show`` and ``todo`` say it): one line beside the Next title; None: none."""
    try:
        return g.ruleset.standing(g.state)
    except Exception:  # (as todo: a ruleset's failing must not take the page down)
        return None


def view(g: Game, board: str, since: int | None = None) -> dict[str, Any]:
    """The current view: board, todo, the log entries after ``since`` (the first page and
    the game as text when None), and which actions are undone now."""
    last = g.records[-1].seq
    after = since if since is not None else max(0, last - PAGE)
    undone = g.undone(after=after)  # (read once: the log entries and the marks both need it)
    return {
        "game": g.name,
        "ruleset": g.ruleset.name,
        "seq": last,
        "board": board,
        "todo": todo(g),
        "standing": standing(g),
        "counters": counters(g),
        "log": log_since(g, since, undone) if since is not None else log_page(g)["entries"],
        "undone_seqs": undone_seqs(g, after, undone),
        # the game as text: in a full view only (an action's answer is what changed)
        **({"text": g.render()} if since is None else {}),
    }
