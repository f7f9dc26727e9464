"""The quick-reference sheet of a ruleset (issue 26): every table, modifier, range, distance
and threshold a player looks up, generated from the same rule data the referee reads (a game's
house rules applied), so the sheet cannot disagree with the referee.

Values come from ``Ruleset.data(house_rules)``; the words beside them are the comments of the
shipped data files (each value's own comment, or the comment lines just above it), read with
tomlkit, which keeps them. A value a house rule changed is marked so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

#: sections shown elsewhere on the sheet (the result tables, drawn as tables)
TABLES = "tables"


@dataclass(frozen=True, slots=True)
class Entry:
    """One value: its path in the data (``movement.road_bonus``), a label, the value as
    text, the shipped comment, and whether a house rule changed it."""

    path: str
    label: str
    value: str
    note: str = ""
    house: bool = False


@dataclass(frozen=True, slots=True)
class Grid:
    """A list of records (unit types, modifiers by case) drawn as a table."""

    path: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass
class Section:
    title: str
    path: str
    note: str = ""
    entries: list[Entry] = field(default_factory=list)
    grids: list[Grid] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "path": self.path,
            "note": self.note,
            "entries": [
                {
                    "path": e.path,
                    "label": e.label,
                    "value": e.value,
                    "note": e.note,
                    "house": e.house,
                }
                for e in self.entries
            ],
            "grids": [
                {"path": g.path, "columns": list(g.columns), "rows": [list(r) for r in g.rows]}
                for g in self.grids
            ],
            "sections": [s.to_json() for s in self.sections],
        }


def text(v: Any) -> str:
    """A value as the sheet prints it (numbers as a player writes them)."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:g}"
    if isinstance(v, list | tuple):
        return ", ".join(text(x) for x in v)
    if isinstance(v, Mapping):
        return "; ".join(f"{words(k)} {text(x)}" for k, x in v.items())
    return str(v)


def words(key: str) -> str:
    return str(key).replace("_", " ")


@cache
def comments(package: str, files: tuple[str, ...]) -> dict[str, str]:
    """``path -> comment`` from the shipped data files: a key's inline comment, else the
    comment lines just above it; a table's own comment lines under its path."""
    import tomlkit
    from tomlkit.items import Comment, Table, Whitespace
    from tomlkit.toml_document import TOMLDocument

    out: dict[str, str] = {}

    def walk(container: Any, prefix: str) -> None:
        pending: list[str] = []
        body = container.body if isinstance(container, TOMLDocument) else container.value.body
        for key, item in body:
            if isinstance(item, Comment):
                pending.append(item.as_string().strip().lstrip("#").strip())
                continue
            if isinstance(item, Whitespace) or key is None:
                if item.as_string().count("\n") > 1:
                    pending = []
                continue
            path = f"{prefix}{getattr(key, 'key', key)}"
            inline = item.trivia.comment.lstrip("#").strip() if hasattr(item, "trivia") else ""
            # (a top-level table's comment lines above it are the file's own header)
            note = " ".join([*(pending if prefix else []), inline]).strip()
            if note:
                out[path] = note
            pending = []
            if isinstance(item, Table):
                walk(item, f"{path}.")

    for f in files:
        raw = resources.files(package).joinpath(f).read_text(encoding="utf-8")
        walk(tomlkit.parse(raw), "")
    return out


def sheet(rs: Any, house_rules: Mapping[str, Any] | None = None) -> list[Section]:
    """Every value of the ruleset's rule data, section by section (the result tables apart:
    ``rs.tables``), each with its shipped comment and the house rule's mark."""
    data = rs.data(house_rules)
    shipped = rs.data(None)
    notes = comments(rs.data_package, tuple(rs.data_files))
    out = []
    for key, v in data.items():
        if key == TABLES:
            continue
        sec = Section(words(key).capitalize(), key, notes.get(key, ""))
        _fill(sec, v, key, notes, shipped.get(key))
        out.append(sec)
    return out


def _fill(sec: Section, v: Any, path: str, notes: Mapping[str, str], shipped: Any) -> None:
    if isinstance(v, Mapping):
        for k, x in v.items():
            p = f"{path}.{k}"
            was = shipped.get(k) if isinstance(shipped, Mapping) else None
            if isinstance(x, Mapping):
                sub = Section(words(k), p, notes.get(p, ""))
                _fill(sub, x, p, notes, was)
                sec.sections.append(sub)
            elif _records(x):
                sec.grids.append(_grid(p, x))
                if notes.get(p):
                    sec.entries.append(Entry(p, words(k), "(the table below)", notes[p]))
            elif isinstance(x, str) and "{" in x:
                continue  # a message template (the referee's wording), not a number to look up
            else:
                sec.entries.append(Entry(p, words(k), text(x), notes.get(p, ""), x != was))
    elif _records(v):
        sec.grids.append(_grid(path, v))
    else:
        sec.entries.append(Entry(path, words(path), text(v), notes.get(path, "")))


def _records(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, Mapping) for x in v)


def _grid(path: str, rows: Sequence[Mapping[str, Any]]) -> Grid:
    cols: list[str] = []
    for r in rows:
        cols.extend(k for k in r if k not in cols)
    return Grid(path, tuple(cols), tuple(tuple(text(r.get(c, "")) for c in cols) for r in rows))


def lines(sections: Sequence[Section], depth: int = 0) -> list[str]:
    """The sheet as plain text (the CLI's ``tables``)."""
    out: list[str] = []
    pad = "  " * depth
    for s in sections:
        out.append(f"{pad}{s.title}" + (f"  ({s.note})" if s.note else ""))
        for e in s.entries:
            mark = " [house rule]" if e.house else ""
            note = f"  -- {e.note}" if e.note else ""
            out.append(f"{pad}  {e.label}: {e.value}{mark}{note}")
        for g in s.grids:
            out.append(f"{pad}  {' | '.join(words(c) for c in g.columns)}")
            out.extend(f"{pad}  {' | '.join(r)}" for r in g.rows)
        out.extend(lines(s.sections, depth + 1))
    return out


#: the parts of the sheet shown beside an action's odds (issue 26): what a player looks up for
#: that action, by procedure (the sheet's top-level sections, named by their data key)
RELEVANT: dict[str, dict[str, tuple[str, ...]]] = {
    "napoleon_at_bay": {
        "fix": ("fixing", "movement"),
        "move": ("movement", "terrain", "hexsides", "stacking"),
    },
    "solitaire_asl": {
        "shift": ("drm", "operations", "consistency"),
        "act": ("operations",),
        "move": ("minefield",),
        "minefield": ("minefield",),
        "boresight": ("scatter",),
        "prereg": ("scatter",),
        "fort": ("fortification_tem",),
        "place": ("allotment", "hip_capacity"),
    },
    "two_by_two": {
        **{p: ("movement", "geometry") for p in ("move", "advance", "retire", "wheel", "turn")},
        "charge": ("movement", "melee"),
        "countercharge": ("melee",),
        "shoot": ("shooting",),
        "melee": ("melee",),
        "follow_up": ("melee",),
        "rally": ("rally",),
        "rout": ("rout",),
        "reinforce": ("reinforcements",),
        "place": ("reinforcements",),
        "setup_roll": ("setup",),
        "deploy": ("setup",),
    },
    "solo_napoleonic": {
        "move": ("move_distances", "random_movement", "dice"),
        "fire": ("ranges", "artillery_ranges", "modifiers", "fire"),
        "charge": ("modifiers", "bpl"),
        "charge_home": ("charge_home_failure",),
        "melee": ("melee_points", "melee_saves", "melee", "dice"),
        "brawl": ("melee_points", "melee_saves", "dice"),
        "morale": ("morale_reasons", "referee_morale", "bpl"),
        "rally": ("morale_reasons",),
        "formation": ("formation_ranks", "dice"),
        "start": ("dice",),
        "halt": ("dice",),
        "reform": ("dice",),
        "disorder": ("disorder", "dice"),
        "chance": ("chance_cards",),
        "general": ("generals",),
        "staff": ("generals",),
    },
}


def relevant(
    rs: Any, procedure: str, house_rules: Mapping[str, Any] | None = None
) -> list[Section]:
    """The sheet's sections a player looks up for ``procedure`` (``RELEVANT``), a game's house
    rules applied; none for a procedure with no numbers of its own."""
    want = RELEVANT.get(rs.name, {}).get(procedure, ())
    return [s for s in sheet(rs, house_rules) if s.path in want] if want else []
