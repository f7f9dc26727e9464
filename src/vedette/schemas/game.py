"""Games at the trust boundary: a new game's name, seed, scenario, options and house rules, and
an imported log (the created record, every action and undo, every event payload's shape)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import Field

from vedette.data.limits import MAX_NAME, MAX_SEED
from vedette.engine.store import check_game_name
from vedette.errors import DataError
from vedette.rules.base import Ruleset
from vedette.schemas import Strict, validate

__all__ = ["check_created", "check_game_name", "check_head", "check_records", "check_seed"]


def check_seed(seed: Any, source: str = "seed") -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise DataError(source, f"the seed must be a whole number from 0 to 2^64-1, not {seed!r}")
    return seed


def check_created(
    rs: Ruleset[Any], created: Mapping[str, Any], source: str, checked: bool = False
) -> dict[str, Any]:
    """A ``created`` record (new game or import): every part checked before anything is stored.
    Returns the record with the options typed. ``checked``: its tree's bounds are checked
    already (a record of an export, see ``validate``)."""
    validate(CreatedModel, dict(created), source, checked=checked)
    check_seed(created["seed"], f"{source}: seed")
    rs.validate_scenario(created["scenario"], f"{source}: scenario")
    options = rs.validate_options(created.get("options", {}), f"{source}: options")
    rs.validate_house_rules(created.get("house_rules", {}), f"{source}: house rules")
    return {**created, "options": options}


class CreatedModel(Strict):
    ruleset: str = Field(max_length=64)
    scenario: dict[str, Any]
    options: dict[str, Any] = {}
    house_rules: dict[str, Any] = {}
    seed: int
    dice: Literal["seeded", "physical"] = "seeded"


# -- imported logs -----------------------------------------------------------------------------
MAX_EVENTS = 100_000
MAX_IMPORT_CHARS = 64 * 1024 * 1024


class EventModel(Strict):
    kind: str = Field(min_length=1, max_length=64)
    v: int = Field(1, ge=1, le=1_000)
    data: dict[str, Any] = {}


Position = Annotated[int, Field(ge=0, le=2**62)]


class DiceModel(Strict):
    source: Literal["seeded", "physical", "scripted"]
    before: Position
    after: Position
    # the stream positions drawn, in order (release 0.1: before..after)
    ranges: list[Annotated[list[Position], Field(min_length=2, max_length=2)]] | None = Field(
        None, max_length=10_000
    )
    # the faces given (the player's own dice, forced dice), in order, a void attempt's too
    # (release 0.2: read from the rolls, which do not keep those)
    faces: list[Annotated[int, Field(ge=-(2**31), le=2**31)]] | None = Field(
        None, max_length=10_000
    )


class RollModel(Strict, extra="allow"):
    line: str


class ActionModel(Strict):
    procedure: str = Field(min_length=1, max_length=64)
    request: dict[str, Any] = {}
    events: list[EventModel]
    rolls: list[RollModel] = []
    message: str = ""
    result: str = ""
    dice: DiceModel


class UndoModel(Strict):
    undoes: int = Field(ge=1)


class RecordModel(Strict):
    seq: int = Field(ge=1, le=MAX_EVENTS)
    kind: Literal["created", "action", "undo"]
    version: Literal[1] = 1
    at: str = Field("", max_length=64)
    payload: dict[str, Any]


class HeadModel(Strict):
    format: Literal["vedette-game"]
    version: Literal[1, 2]
    name: Annotated[str, Field(max_length=MAX_NAME)] | None = None
    ruleset: str = Field(max_length=64)
    # version 2: the count of record lines and the sha256 of them (each followed by a newline)
    records: int | None = Field(None, ge=1, le=MAX_EVENTS)
    sha256: str | None = Field(None, pattern="^[0-9a-f]{64}$")
    # a game an older release wrote, imported as its history (not vouched for by the referee)
    history: str | None = Field(None, max_length=2_000, pattern="^history from release ")


def check_head(head: Mapping[str, Any]) -> HeadModel:
    h = validate(HeadModel, dict(head), "export line 1")
    if h.version >= 2 and (h.records is None or h.sha256 is None):
        raise DataError("export line 1", "a version 2 export carries 'records' and 'sha256'")
    return h


def check_records(
    rs: Ruleset[Any], objs: Sequence[Mapping[str, Any]], head_ruleset: str
) -> list[dict[str, Any]]:
    """The records of an export (every line after the head), checked in order: numbering, kinds,
    the created record, each action's procedure, events (kinds the ruleset folds), rolls and
    dice positions (contiguous on the seeded stream), each undo naming the action it undoes."""
    if not objs:
        raise DataError("export", "no events after the head line")
    if len(objs) > MAX_EVENTS:
        raise DataError("export", f"more than {MAX_EVENTS} events")
    out: list[dict[str, Any]] = []
    in_force: list[int] = []
    position = 0
    kinds = event_kinds(rs)
    for n, o in enumerate(objs, start=1):
        src = f"export line {n + 1}"
        rec = validate(RecordModel, dict(o), src)
        if rec.seq != n:
            raise DataError(src, f"seq must be {n} (events are numbered 1, 2, 3, ... without gaps)")
        p = rec.payload
        if n == 1:
            if rec.kind != "created":
                raise DataError(src, "the first event must be 'created'")
            if p.get("ruleset") != rs.name:
                raise DataError(
                    src,
                    f"payload.ruleset: {p.get('ruleset')!r} is not {rs.name!r} ({head_ruleset})",
                )
            p = check_created(rs, p, f"{src}: payload", checked=True)
        elif rec.kind == "created":
            raise DataError(src, "only the first event may be 'created'")
        elif rec.kind == "action":
            proc_name = p.get("procedure")
            if isinstance(proc_name, str) and 0 < len(proc_name) <= 64:
                src = f"{src} (#{n} {proc_name})"
            a = validate(ActionModel, p, src, ("payload",), checked=True)  # (the record's)
            procs = {**rs.procedures, "waive": None}
            if a.procedure not in procs:
                raise DataError(
                    src, f"payload.procedure: {rs.name} has no procedure {a.procedure!r}"
                )
            proc = procs[a.procedure]
            if proc is not None and proc.query:
                raise DataError(
                    src, f"payload.procedure: {a.procedure!r} is a query (never logged)"
                )
            for i, e in enumerate(a.events):
                if kinds is not None and e.kind not in kinds:
                    raise DataError(src, f"payload.events[{i}].kind: unknown event {e.kind!r}")
            if a.dice.source == "seeded":
                if a.dice.after < a.dice.before:
                    raise DataError(src, "payload.dice.after: the stream never goes back")
                ranges = a.dice.ranges
                if ranges is None:
                    ranges = [[a.dice.before, a.dice.after]]
                for lo, hi in ranges:
                    # dice are drawn from positions already reached (a redo after an undo, or
                    # release 0.1's rewound stream) or from the high-water mark on: no gaps
                    if hi < lo or lo > position:
                        raise DataError(
                            src,
                            f"payload.dice.ranges: {lo}..{hi} skips stream positions"
                            f" (the stream has reached {position})",
                        )
                    position = max(position, hi)
            elif a.dice.after != a.dice.before or a.dice.before > position:
                raise DataError(src, "payload.dice: physical dice do not move the seeded stream")
            in_force.append(n)
        else:
            u = validate(UndoModel, p, src, ("payload",), checked=True)
            if not in_force or u.undoes != in_force[-1]:
                want = in_force[-1] if in_force else "nothing (no action in force)"
                raise DataError(src, f"payload.undoes: {u.undoes} does not undo {want}")
            in_force.pop()
        out.append({**rec.model_dump(), "payload": p})
    return out


def event_kinds(rs: Ruleset[Any]) -> frozenset[str] | None:
    """The event kinds a ruleset folds, when it declares them (``event_kinds``)."""
    kinds = getattr(rs, "event_kinds", None) or [e.kind for e in getattr(rs, "events", ())]
    return frozenset([*kinds, "waived"]) if kinds else None
