"""The player's own scenarios, kept in the store beside the games (issue 30).

A saved scenario is the same data a scenario file holds, checked by the same pydantic schema
(``Ruleset.scenario_model``) and set up once (``Ruleset.initial_state``) before it is stored, so a
game started from it is made exactly as from a file (``Game.create`` copies the data into the
game's first record: an export of the game carries it, and its import is refereed again from it).

Its TOML is one canonical text: the description as the opening comment (as the bundled files
have it), then the data as tomlkit writes it, with every whole number written as an integer (the
form a JSON client such as the web builder can send: ``900.0`` and ``900`` are one number to the
schemas). ``export`` of an ``imported`` text gives the same text again.

Every refusal lists each problem with the element it names (``loc``: ``forces[2].side``), so the
builder shows it beside that element; nothing is stored unless there is none.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from vedette.data import load_toml_text
from vedette.data.limits import check_tree
from vedette.engine.store import now
from vedette.errors import BadRequest, DataError, GameError, VedetteError
from vedette.rules.base import Ruleset

#: a saved scenario's name: travels in a URL path, a shell line and a file name unchanged
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
#: the longest description kept (the opening comment of the file)
MAX_DESCRIPTION = 2_000
#: a problem's leading key path in a message: ``forces[2].side: 'X' is not a side``
_LOC = re.compile(r"^([A-Za-z_][\w-]*(?:\[\d+\]|\.[\w-]+)*): (.+)$", re.S)


@dataclass(frozen=True)
class Problem:
    """One problem of a scenario: the element it names (``''``: the whole) and what is wrong."""

    loc: str
    msg: str

    def to_json(self) -> dict[str, str]:
        return {"loc": self.loc, "msg": self.msg}


class ScenarioRefused(DataError):
    """A scenario with problems: nothing was stored. ``problems`` names each element."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        where = f"{first.loc}: " if first.loc else ""
        super().__init__(source, f"{where}{first.msg}{more}")
        self.problems = problems


@dataclass(frozen=True)
class UserScenario:
    ruleset: str
    name: str
    title: str
    description: str
    data: dict[str, Any]
    created: str = ""
    updated: str = ""

    def info(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "yours": True,
        }


# -- the canonical form ---------------------------------------------------------------------------
def canonical(data: Any) -> Any:
    """``data`` with every whole float written as an integer (``900.0`` -> ``900``): one form for
    what a file and a JSON client give (the schemas take an integer wherever a number goes)."""
    if isinstance(data, Mapping):
        return {str(k): canonical(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [canonical(v) for v in data]
    if isinstance(data, float) and data.is_integer() and abs(data) < 2**53:
        return int(data)
    return data


def title_of(data: Mapping[str, Any], name: str) -> str:
    """A scenario's title as ``Ruleset.scenario_info`` reads it (``title``, ``scenario.title``
    or ``name``), else its name."""
    inner = data.get("scenario")
    title = data.get("title") or (inner.get("title") if isinstance(inner, Mapping) else None)
    return str(title or data.get("name") or name)


def dump_toml(data: Mapping[str, Any], description: str = "") -> str:
    """The canonical TOML of a scenario: its description as the opening comment, then the data."""
    import tomlkit

    head = ""
    words = " ".join(description.split())
    if words:
        head = "".join(f"# {line}\n" for line in textwrap.wrap(words, 94)) + "\n"
    return head + tomlkit.dumps(canonical(data))


def parse_toml(text: str, source: str = "scenario") -> tuple[dict[str, Any], str]:
    """A scenario's TOML: (its data, its description: the opening comment in words)."""
    data = load_toml_text(text, source)
    lead: list[str] = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lead.append(line.lstrip("#").strip())
    return data, " ".join(" ".join(lead).split())


# -- checks ---------------------------------------------------------------------------------------
def problems(rs: Ruleset[Any], data: Any) -> list[Problem]:
    """Every problem the scenario schema finds (each with the element it names), or, when it
    has none, the first one setting the scenario up finds; ``[]`` when the scenario is sound."""
    from pydantic import ValidationError

    # start-up: pydantic loads only where a scenario is checked
    from vedette.schemas import _is_internal, loc_text

    if not isinstance(data, Mapping):
        return [Problem("", "a scenario must be a table")]
    try:
        check_tree(data, "scenario")
    except DataError as e:
        return [_problem(_strip(str(e), "scenario"))]
    model = rs.scenario_model
    if model is not None:
        try:
            model.model_validate(dict(data))
        except ValidationError as e:
            out: list[Problem] = []
            for err in e.errors(include_url=False, include_input=False):
                loc = loc_text([p for p in err["loc"] if not _is_internal(p)])
                msg = " ".join(str(err["msg"]).split()).removeprefix("Value error, ")
                if err["type"] == "literal_error":
                    msg = msg.replace("Input should be", "must be")
                out.append(Problem(loc, msg) if loc else _problem(msg))
            return out or [Problem("", "invalid")]
        except (RecursionError, MemoryError):
            return [Problem("", "too deeply nested or too large")]
    try:
        rs.initial_state(data, rs.validate_options({}, "options"))
    except VedetteError as e:
        return [_problem(_strip(str(e), "scenario"))]
    except (KeyError, ValueError, TypeError, AttributeError, IndexError) as e:
        return [Problem("", f"does not set up: {type(e).__name__}: {e}")]
    return []


def _strip(msg: str, source: str) -> str:
    return msg[len(source) + 2 :] if msg.startswith(source + ": ") else msg


def _problem(msg: str) -> Problem:
    m = _LOC.match(msg)
    if m is not None:
        return Problem(m.group(1), m.group(2))
    m = _ROW.search(msg)  # a set-up error names a row of a list: ``[[forces]], row 3: R1: ...``
    if m is not None:
        return Problem(f"{m.group(1)}[{int(m.group(2)) - 1}]", msg[m.end() :].strip(" :"))
    return Problem("", msg)


_ROW = re.compile(r"\[\[(\w+)\]\], row (\d+)")


def check_name(rs: Ruleset[Any], name: object) -> str:
    if not isinstance(name, str) or not _NAME.match(name):
        raise BadRequest(
            f"scenario name {str(name)[:70]!r}: 1-64 letters, digits, '-' or '_',"
            " starting with a letter or digit"
        )
    if name in rs.scenarios:
        raise BadRequest(f"{name!r} is a bundled {rs.name} scenario: choose another name")
    return name


# -- the store ------------------------------------------------------------------------------------
def save(
    store: Any,
    rs: Ruleset[Any],
    name: str,
    data: Mapping[str, Any],
    description: str = "",
    replace: bool = False,
) -> UserScenario:
    """Check the scenario whole (name, schema, set-up) and keep it; nothing is written when it
    has a problem (:class:`ScenarioRefused` lists them). ``replace``: overwrite one of that name
    (the builder's save after opening it again)."""
    check_name(rs, name)
    if not isinstance(description, str) or len(description) > MAX_DESCRIPTION:
        raise BadRequest(f"a description of at most {MAX_DESCRIPTION} characters")
    data = canonical(data)
    found = problems(rs, data)
    if found:
        raise ScenarioRefused(f"scenario {name!r}", found)
    words = " ".join(description.split())
    title = title_of(data, name)
    stamp = now()
    with store._tx():
        had = store.db.execute(
            "SELECT created FROM scenarios WHERE ruleset=? AND name=?", (rs.name, name)
        ).fetchone()
        if had is not None and not replace:
            raise GameError(
                f"you have a {rs.name} scenario named {name!r} already (save it under another"
                " name, or replace it)"
            )
        store.db.execute(
            "INSERT INTO scenarios(ruleset, name, title, description, data, created, updated)"
            " VALUES (?,?,?,?,?,?,?) ON CONFLICT(ruleset, name) DO UPDATE SET"
            " title=excluded.title, description=excluded.description, data=excluded.data,"
            " updated=excluded.updated",
            (rs.name, name, title, words, json.dumps(data), stamp, stamp),
        )
    return get(store, rs, name)


def get(store: Any, rs: Ruleset[Any], name: str) -> UserScenario:
    row = store.db.execute(
        "SELECT name, title, description, data, created, updated FROM scenarios"
        " WHERE ruleset=? AND name=?",
        (rs.name, name),
    ).fetchone()
    if row is None:
        raise GameError(f"no {rs.name} scenario {name!r} (see `vedette {rs.name} scenarios`)")
    n, title, desc, data, created, updated = row
    return UserScenario(rs.name, str(n), str(title), str(desc), json.loads(data), created, updated)


def listing(store: Any, rs: Ruleset[Any]) -> list[UserScenario]:
    import sqlite3

    try:
        rows = store.db.execute(
            "SELECT name FROM scenarios WHERE ruleset=? ORDER BY name", (rs.name,)
        ).fetchall()
    except sqlite3.OperationalError:  # a read-only database from before rung 6: none yet
        return []
    return [get(store, rs, str(r[0])) for r in rows]


def delete(store: Any, rs: Ruleset[Any], name: str) -> None:
    get(store, rs, name)
    with store._tx():
        store.db.execute("DELETE FROM scenarios WHERE ruleset=? AND name=?", (rs.name, name))


def scenario_data(store: Any, rs: Ruleset[Any], name: str) -> dict[str, Any]:
    """The data of a scenario named for a new game: a bundled one, else one of yours."""
    if name in rs.scenarios:
        return rs.scenario(name)
    import sqlite3

    try:
        row = store.db.execute(
            "SELECT data FROM scenarios WHERE ruleset=? AND name=?", (rs.name, name)
        ).fetchone()
    except sqlite3.OperationalError:  # a read-only database from before rung 6
        row = None
    if row is None:
        yours = [s.name for s in listing(store, rs)]
        mine = f"; yours: {', '.join(yours)}" if yours else ""
        raise BadRequest(
            f"no {rs.name} scenario {name!r} (bundled: {', '.join(rs.scenarios)}{mine})"
        )
    return dict(json.loads(row[0]))


def infos(store: Any, rs: Ruleset[Any]) -> list[dict[str, Any]]:
    """The bundled scenarios then yours: name, title, description (and ``yours``)."""
    out: list[dict[str, Any]] = [{**rs.scenario_info(n), "yours": False} for n in rs.scenarios]
    return out + [s.info() for s in listing(store, rs)]


def export(store: Any, rs: Ruleset[Any], name: str) -> str:
    """A scenario's canonical TOML (what ``import_text`` and ``vedette new`` take): one of
    yours, or a bundled one (to start your own from)."""
    if name in rs.scenarios:
        return dump_toml(rs.scenario(name), rs.scenario_info(name)["description"])
    s = get(store, rs, name)
    return dump_toml(s.data, s.description)


def import_text(
    store: Any, rs: Ruleset[Any], name: str, text: str, replace: bool = False
) -> UserScenario:
    """Keep a scenario given as TOML (an export, a file written by hand, a bundled file)."""
    data, description = parse_toml(text, f"scenario {name!r}")
    return save(store, rs, name, data, description, replace)
