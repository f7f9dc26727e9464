"""The core patch event: one entity's fields set, with what they were (issue 28).

A :class:`Patch` says "entity ``id`` of this kind now has these field values": a unit moved
(its position), pinned (its marker), a general rated, the turn's cards dealt. A ruleset
declares how its state holds each kind of entity (:class:`Entities`: the entity's type, how
to find one by id, how to set its fields, how a field's value is logged and read back) and
names its patch kinds with :func:`patch_kinds` (a kind is only a name the log shows, the
entity it changes and, optionally, the fields it may set); the core decodes, checks and folds
every one of them the same way. A fact that is not a plain field set (a melee declared, a
phase begun, a decision owed) stays a domain event of its own.

The JSON of a patch (the ``data`` of a logged event)::

    {"entity": "unit", "id": "fr-1", "set": {"pinned": true}, "was": {"pinned": false},
     "why": "shot at by au-2"}

``set``: the fields and their new values, as JSON (a tuple is a list; a field whose value is
not plain JSON is logged by its entity's ``write`` and read back by its ``read``). ``was``:
the same fields' values before the event, filled by the engine when the event is performed
(:meth:`Ruleset.recorded <vedette.rules.base.Ruleset.recorded>`). It is absent from an event
upgraded from a version that did not record it: "not recorded", never a value; the import's
referee then compares the rest of the event (:func:`comparable`). ``why``: the referee's words
(optional). The decoder checks the shape (one line naming the event and what is wrong); the
fold checks each field name against the entity's type.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from vedette.errors import VedetteError
from vedette.rules.fields import to_json
from vedette.rules.protocol import DomainEvent, event_kind

S = TypeVar("S")
P = TypeVar("P", bound="Patch")

_KEYS = frozenset({"entity", "id", "set", "was", "why"})


@dataclass(frozen=True, slots=True)
class Patch(DomainEvent):
    """One entity's fields set (``set_``: each value as the state holds it, a tuple not a
    list, or as its entity's ``write`` logs it where it has one), what they were (``was``, as
    logged; None: not recorded) and why. A ruleset's kinds are made by :func:`patch_kind`."""

    kind: ClassVar[str] = "patch"
    #: the kind of entity the kind changes ("unit", "general", "turn", ...)
    entity: ClassVar[str] = ""
    #: the fields the kind may set (None: any field of its entity)
    touches: ClassVar[frozenset[str] | None] = None
    id: str
    set_: Mapping[str, Any]
    was: Mapping[str, Any] | None = None
    why: str = ""

    @classmethod
    def decode(cls, data: Mapping[str, Any]) -> Patch:
        """The event from its payload, its shape checked (one line naming what is wrong)."""
        k = cls.kind
        if not isinstance(data, Mapping):
            raise VedetteError(f"event {k!r}: its data is not a table")
        if not data.keys() <= _KEYS:
            bad = sorted(str(x) for x in data if x not in _KEYS)
            raise VedetteError(f"event {k!r} has no field {bad[0]!r}")
        entity = data.get("entity", cls.entity)
        if entity != cls.entity:
            raise VedetteError(f"event {k!r} changes a {cls.entity}, not a {entity!r}")
        ident, why = data.get("id", ""), data.get("why", "")
        if type(ident) is not str or type(why) is not str:
            raise VedetteError(f"event {k!r}: 'id' and 'why' must be text")
        s = data.get("set")
        if type(s) is not dict:
            raise VedetteError(f"event {k!r}: 'set' must be a table of fields")
        if cls.touches is not None and not s.keys() <= cls.touches:
            bad = sorted(x for x in s if x not in cls.touches)
            raise VedetteError(f"event {k!r} cannot change {bad[0]!r}")
        was = data.get("was")
        if was is not None and (type(was) is not dict or not was.keys() <= s.keys()):
            raise VedetteError(f"event {k!r}: 'was' must be a table of the fields it sets")
        held = {k: tuple(v) if type(v) is list else v for k, v in s.items()}
        return cls(ident, held, was, why)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"entity": self.entity, "id": self.id, "set": to_json(self.set_)}
        if self.was is not None:
            data["was"] = to_json(self.was)
        if self.why:
            data["why"] = self.why
        return {"kind": self.kind, "v": self.version, "data": data}


def patch_kind(
    base: type[P], kind: str, doc: str = "", touches: str | None = None, entity: str = ""
) -> type[P]:
    """A patch kind of a ruleset: a subclass of ``base`` (which fixes the ``entity``, the
    ``version`` and the upgrade ladder) that only names the event. ``doc``: the rule it
    records; ``touches``: the fields it may set, space-separated (None: any field of its
    entity); ``entity``: where ``base`` leaves it open."""
    more: dict[str, Any] = {} if touches is None else {"touches": frozenset(touches.split())}
    if entity:
        more["entity"] = entity
    return event_kind(base, kind, doc, **more)


def patch_kinds(base: type[P], kinds: str) -> dict[str, type[P]]:
    """Patch kinds by name (``kinds`` space-separated), each free to set any field of its
    entity (see :func:`patch_kind`)."""
    return {k: patch_kind(base, k) for k in kinds.split()}


@dataclass(frozen=True)
class Entities(Generic[S]):
    """How a ruleset's state holds one kind of entity, for the patch fold.

    ``model``: the entity's dataclass (its fields are what a patch may set). ``get(state, id)``
    the entity (raising a one-line error if there is none); ``put(state, id, values)`` the
    state with those fields of it set (values as the state holds them). ``read[field](state,
    logged)`` a logged value as the field holds it (default: a list as a tuple);
    ``write[field](value)`` a field's value as it is logged (default: plain JSON).
    ``only``: the fields a patch may set, where not every field of the type (but ``id``)."""

    model: type[Any]
    get: Callable[[S, str], Any]
    put: Callable[[S, str, Mapping[str, Any]], S]
    read: Mapping[str, Callable[[S, Any], Any]] = field(default_factory=dict)
    write: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)
    only: Iterable[str] | None = None
    fields: frozenset[str] = field(init=False)
    #: the patch kinds whose every field is known to be one of the entity's
    checked: set[type[Patch]] = field(init=False, default_factory=set, compare=False)

    def __post_init__(self) -> None:
        names = frozenset(f.name for f in dataclasses.fields(self.model)) - {"id"}
        if self.only is not None:
            names = frozenset(self.only)
        object.__setattr__(self, "fields", names)

    def logged(self, name: str, value: Any) -> Any:
        """A field's value as a patch logs it."""
        w = self.write.get(name)
        return w(value) if w is not None else to_json(value)


#: the last folds, by the identity of the state, the patch and the entities: a procedure that
#: folds its own patches as it builds them (to read the state they leave) hands the same patch
#: objects to the engine or the simulator, which fold them onto the same state objects; the fold
#: is a pure function of the three (states and patches are frozen values), so the second fold is
#: the first's result. Each entry keeps its keys alive (no id is reused while it is here).
_FOLDED: dict[tuple[int, int, int], tuple[Any, Patch, Any, Any]] = {}


def fold_patch(state: S, e: Patch, entities: Mapping[str, Entities[S]]) -> S:
    """The one fold of every patch: the entity's fields set, each name checked against the
    entity's type (one line naming the event and the field). A fold of the same state, patch
    and entities objects as one of the last few is that fold's result (see ``_FOLDED``)."""
    key = (id(state), id(e), id(entities))
    hit = _FOLDED.get(key)
    if hit is not None and hit[0] is state and hit[1] is e and hit[2] is entities:
        return hit[3]  # type: ignore[no-any-return]
    out = _fold_patch(state, e, entities)
    if len(_FOLDED) >= 256:
        _FOLDED.clear()
    _FOLDED[key] = (state, e, entities, out)
    return out


def _fold_patch(state: S, e: Patch, entities: Mapping[str, Entities[S]]) -> S:
    ent = entities.get(e.entity)
    if ent is None:
        raise VedetteError(f"event {e.kind!r}: this ruleset has no {e.entity!r} to change")
    s = e.set_
    kind = type(e)
    if kind not in ent.checked:  # (a kind that may touch only the entity's fields: once)
        if not s.keys() <= ent.fields:
            bad = sorted(k for k in s if k not in ent.fields)
            raise VedetteError(f"event {e.kind!r}: a {e.entity} has no field {bad[0]!r}")
        if kind.touches is not None and kind.touches <= ent.fields:
            ent.checked.add(kind)
    read = ent.read
    if not read:  # (a logged list was made the tuple the state holds by the decoder)
        return ent.put(state, e.id, s)
    values = {k: read[k](state, v) if k in read else v for k, v in s.items()}
    return ent.put(state, e.id, values)


def previous(state: S, e: Patch, entities: Mapping[str, Entities[S]]) -> Patch:
    """``e`` with the values its fields have in ``state`` (the state it folds into) as its
    ``was``: the engine records them when the event is performed."""
    ent = entities.get(e.entity)
    if ent is None or e.was is not None:
        return e
    obj = ent.get(state, e.id)
    was = {k: ent.logged(k, getattr(obj, k)) for k in e.set_ if k in ent.fields}
    return dataclasses.replace(e, was=was)


def comparable(mine: Sequence[Any], theirs: Sequence[Any]) -> list[Any]:
    """``mine`` (events as JSON, as the referee performs them again) as ``theirs`` (a file's,
    upgraded) can be compared with it: where the file's patch has no ``was`` (upgraded from a
    version that did not record it), the previous values are unknown, not a difference."""
    out = list(mine)
    for i, (m, t) in enumerate(zip(mine, theirs, strict=False)):
        md = m.get("data") if isinstance(m, dict) else None
        td = t.get("data") if isinstance(t, dict) else None
        if isinstance(md, dict) and isinstance(td, dict) and "was" in md and "was" not in td:
            out[i] = {**m, "data": {k: v for k, v in md.items() if k != "was"}}
    return out
