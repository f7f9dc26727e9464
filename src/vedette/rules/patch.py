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
from vedette.rules.fields import spec_of, to_json
from vedette.rules.protocol import DomainEvent, event_kind

S = TypeVar("S")
P = TypeVar("P", bound=DomainEvent)

_KEYS = frozenset({"entity", "id", "set", "was", "why"})


def _table(where: str, data: Any, keys: frozenset[str] | None = None) -> None:
    """Refuse (one line) data that is not a table, or has a field not among ``keys``."""
    if not isinstance(data, Mapping):
        raise VedetteError(f"{where}: its data is not a table")
    if keys is not None and not data.keys() <= keys:
        bad = sorted(str(x) for x in data if x not in keys)
        raise VedetteError(f"{where} has no field {bad[0]!r}")


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
        _table(f"event {k!r}", data, _KEYS)
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
    base: type[P],
    kind: str,
    doc: str = "",
    touches: str | None = None,
    entity: str = "",
    **classvars: Any,
) -> type[P]:
    """A patch kind of a ruleset: a subclass of ``base`` (a :class:`Patch` or a
    :class:`Patches`, which fixes the ``entity``, the ``version`` and the upgrade ladder) that
    only names the event. ``doc``: the rule it records; ``touches``: the fields it may set,
    space-separated (None: any field of its entity); ``entity``: where ``base`` leaves it
    open; ``classvars``: any other class variable ``base`` declares."""
    more: dict[str, Any] = {} if touches is None else {"touches": frozenset(touches.split())}
    if entity:
        more["entity"] = entity
    return event_kind(base, kind, doc, **more, **classvars)


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
    #: for a kind of entity a patch may create and remove (:class:`Patches`' ``put`` and
    #: ``remove``): ``find(state, id)`` the entity or None; ``insert(state, entity)`` the state
    #: with it put in (a new one added, an existing one replaced); ``delete(state, id)`` the
    #: state without it; ``load(record)`` the entity from its logged record and ``dump(entity)``
    #: its record (default: the model's ``from_json`` and the entity's ``to_json``)
    find: Callable[[S, str], Any] | None = None
    insert: Callable[[S, Any], S] | None = None
    delete: Callable[[S, str], S] | None = None
    load: Callable[[Any], Any] | None = None
    dump: Callable[[Any], Any] | None = None
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

    def record(self, obj: Any) -> Any:
        """A whole entity as a patch logs it (``put``'s value, ``remove``'s ``was``)."""
        if self.dump is not None:
            return self.dump(obj)
        return obj.to_json() if hasattr(obj, "to_json") else to_json(obj)

    def entity(self, record: Any) -> Any:
        """An entity from its logged record."""
        if self.load is not None:
            return self.load(record)
        return self.model.from_json(record)


def fold_patch(state: S, e: Patch, entities: Mapping[str, Entities[S]]) -> S:
    """The one fold of every patch: the entity's fields set, each name checked against the
    entity's type (one line naming the event and the field). (No memo of the last folds: the
    procedure that folds its own patches hands the state it built to the simulator,
    ``Ruleset.folded``, and the engine folds the patches it records, other objects.)"""
    ent = entities.get(e.entity)
    if ent is None:
        raise VedetteError(f"event {e.kind!r}: this ruleset has no {e.entity!r} to change")
    return _set(state, ent, e.kind, e.entity, e.id, e.set_, type(e))


def _set(
    state: S,
    ent: Entities[S],
    kind: str,
    entity: str,
    ident: str,
    s: Mapping[str, Any],
    cls: type[Any] | None = None,
) -> S:
    """Fields of one entity set (each checked against its type, once per kind of patch whose
    every field it may set is one of the entity's)."""
    if cls is None or cls not in ent.checked:
        if not s.keys() <= ent.fields:
            bad = sorted(k for k in s if k not in ent.fields)
            raise VedetteError(f"event {kind!r}: a {entity} has no field {bad[0]!r}")
        touches = getattr(cls, "touches", None)
        if cls is not None and touches is not None and touches <= ent.fields:
            ent.checked.add(cls)
    read = ent.read
    if not read:  # (a logged list was made the tuple the state holds by the decoder)
        return ent.put(state, ident, s)
    if len(read) > 1:  # each read in the patch's order (the first refusal, if any, the same)
        values = {k: read[k](state, v) if k in read else v for k, v in s.items()}
        return ent.put(state, ident, values)
    # one field read back: the values as logged, copied in C, that field's replaced (the same
    # dict, in the same order)
    values = dict(s)
    ((k, r),) = read.items()
    if k in values:
        values[k] = r(state, values[k])
    return ent.put(state, ident, values)


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
        if not isinstance(md, dict) or not isinstance(td, dict):
            continue
        if "was" in md and "was" not in td:
            out[i] = {**m, "data": {k: v for k, v in md.items() if k != "was"}}
        mp, tp = md.get("patches"), td.get("patches")
        if isinstance(mp, list) and isinstance(tp, list):  # (a Patches: each change's)
            ps = [
                {k: v for k, v in a.items() if k != "was"}
                if isinstance(a, dict) and isinstance(b, dict) and "was" in a and "was" not in b
                else a
                for a, b in zip(mp, tp, strict=False)
            ]
            out[i] = {**m, "data": {**md, "patches": ps + mp[len(tp) :]}}
    return out


# -- several entities in one event -------------------------------------------------------------
class _NotRecorded:
    """The ``was`` of an entry upgraded from a version that did not record it."""

    def __repr__(self) -> str:
        return "NOT_RECORDED"


#: an entry's previous value(s) not recorded (an upgraded event): unknown, never a value
NOT_RECORDED: Any = _NotRecorded()

#: what an entry of a :class:`Patches` does to its entity
HOWS = ("set", "add", "put", "remove")
_OP_KEYS = frozenset({"entity", "id", "was", *HOWS})


@dataclass(frozen=True, slots=True)
class Change:
    """One entry of a :class:`Patches`: entity ``id`` of kind ``entity`` changed ``how``.

    * ``set``: fields set (``value``: the fields and their values, as the state holds them);
      ``was`` their previous values, as logged;
    * ``add``: whole-number fields counted on (``value``: each field's increment); ``was``
      their previous values;
    * ``put``: the whole entity put in, new or replacing one (``value``: its record as
      logged); ``was`` the record it replaced, or None where there was none;
    * ``remove``: the entity taken out (``value``: True); ``was`` its last record."""

    entity: str
    id: str
    how: str
    value: Any
    was: Any = NOT_RECORDED

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"entity": self.entity, "id": self.id, self.how: to_json(self.value)}
        if self.was is not NOT_RECORDED:
            d["was"] = self.was
        return d


def _change(k: str, i: int, raw: Any) -> Change:
    """Entry ``i`` of event ``k``'s ``patches``, its shape checked (one line)."""
    where = f"event {k!r}, change {i + 1}"
    _table(where, raw, _OP_KEYS)
    hows = [h for h in HOWS if h in raw]
    if len(hows) != 1:
        raise VedetteError(f"{where}: give one of 'set', 'add', 'put', 'remove'")
    how = hows[0]
    entity, ident = raw.get("entity"), raw.get("id")
    if type(entity) is not str or not entity or type(ident) is not str:
        raise VedetteError(f"{where}: 'entity' and 'id' must be text")
    value, was = raw[how], raw.get("was", NOT_RECORDED)
    if how in ("set", "add"):
        if type(value) is not dict:
            raise VedetteError(f"{where}: {how!r} must be a table of fields")
        if how == "add" and any(type(v) is not int for v in value.values()):
            raise VedetteError(f"{where}: 'add' counts on by whole numbers")
        if was is not NOT_RECORDED and (type(was) is not dict or not was.keys() <= value.keys()):
            raise VedetteError(f"{where}: 'was' must be a table of the fields it {how}s")
        if how == "set":
            value = {f: tuple(v) if type(v) is list else v for f, v in value.items()}
    elif how == "put":
        if type(value) is not dict:
            raise VedetteError(f"{where}: 'put' must be the entity's record (a table)")
        if was is not NOT_RECORDED and was is not None and type(was) is not dict:
            raise VedetteError(f"{where}: 'was' must be the record it replaced, or null")
    else:
        if value is not True:
            raise VedetteError(f"{where}: 'remove' must be true")
        if was is not NOT_RECORDED and type(was) is not dict:
            raise VedetteError(f"{where}: 'was' must be the record it removed")
    return Change(entity, ident, how, value, was)


@dataclass(frozen=True)
class Patches(DomainEvent):
    """One step's changes to several entities (:class:`Change`: fields set or counted on, an
    entity put in or removed) and why. A ruleset's kinds are made by :func:`patch_kind`; a kind
    may add fields of its own (a domain fact recorded with the step: the row read, the phase
    begun), declared as dataclass fields with defaults of a subclass, which keeps the one
    decoder and, unless it registers a fold of its own that calls :func:`fold_patches`, the
    one fold."""

    kind: ClassVar[str] = "patches"
    #: the kinds of entity the kind may change (None: any the ruleset has)
    entities: ClassVar[frozenset[str] | None] = None
    patches: tuple[Change, ...] = ()
    why: str = ""

    @classmethod
    def decode(cls, data: Mapping[str, Any]) -> Patches:
        """The event from its payload, its shape checked (one line naming what is wrong)."""
        k = cls.kind
        _table(f"event {k!r}", data)
        raw = data.get("patches", [])
        if type(raw) is not list:
            raise VedetteError(f"event {k!r}: 'patches' must be a list of changes")
        changes = tuple(_change(k, i, x) for i, x in enumerate(raw))
        if cls.entities is not None:
            for c in changes:
                if c.entity not in cls.entities:
                    raise VedetteError(f"event {k!r} cannot change a {c.entity!r}")
        rest = {x: v for x, v in data.items() if x != "patches"}
        built = _own_fields(cls).build(rest, f"{k}.")
        return dataclasses.replace(built, patches=changes)  # type: ignore[no-any-return]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"patches": [c.to_json() for c in self.patches]}
        for f in dataclasses.fields(self):
            if f.name not in ("patches", "why"):
                data[f.name.rstrip("_")] = to_json(getattr(self, f.name))
        if self.why:
            data["why"] = self.why
        return {"kind": self.kind, "v": self.version, "data": data}


def _own_fields(cls: type[Patches]) -> Any:
    """The request spec of a kind's fields (``spec_of`` keeps it per kind)."""
    return spec_of(cls)  # type: ignore[arg-type]


def _entities(e: Patches, c: Change, entities: Mapping[str, Entities[S]]) -> Entities[S]:
    ent = entities.get(c.entity)
    if ent is None:
        raise VedetteError(f"event {e.kind!r}: this ruleset has no {c.entity!r} to change")
    return ent


def _found(e: Patches, c: Change, ent: Entities[S], state: S) -> Any:
    if ent.find is None or ent.insert is None or ent.delete is None:
        raise VedetteError(f"event {e.kind!r}: a {c.entity} is not put in or removed")
    return ent.find(state, c.id)


def fold_change(state: S, e: Patches, c: Change, entities: Mapping[str, Entities[S]]) -> S:
    """One entry of ``e`` folded (each field and record checked: one line naming the event)."""
    ent = _entities(e, c, entities)
    if c.how == "set":
        return _set(state, ent, e.kind, c.entity, c.id, c.value)
    if c.how == "add":
        if not c.value.keys() <= ent.fields:
            bad = sorted(k for k in c.value if k not in ent.fields)
            raise VedetteError(f"event {e.kind!r}: a {c.entity} has no field {bad[0]!r}")
        now = ent.get(state, c.id)
        counts = {k: getattr(now, k) for k in c.value}
        if any(type(v) is not int for v in counts.values()):
            bad = next(k for k, v in counts.items() if type(v) is not int)
            raise VedetteError(f"event {e.kind!r}: a {c.entity}'s {bad!r} is not a count")
        return ent.put(state, c.id, {k: counts[k] + n for k, n in c.value.items()})
    old = _found(e, c, ent, state)
    assert ent.insert is not None and ent.delete is not None
    if c.how == "remove":
        if old is None:
            raise VedetteError(f"event {e.kind!r}: there is no {c.entity} {c.id!r} to remove")
        return ent.delete(state, c.id)
    try:
        obj = ent.entity(c.value)
    except VedetteError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as x:
        raise VedetteError(
            f"event {e.kind!r}: the {c.entity} {c.id!r} put in does not read"
            f" ({type(x).__name__}: {x})"
        ) from None
    if getattr(obj, "id", c.id) != c.id:
        raise VedetteError(f"event {e.kind!r}: the {c.entity} put in as {c.id!r} is {obj.id!r}")
    return ent.insert(state, obj)


def fold_patches(state: S, e: Patches, entities: Mapping[str, Entities[S]]) -> S:
    """The one fold of every :class:`Patches`: its changes in turn."""
    for c in e.patches:
        state = fold_change(state, e, c, entities)
    return state


def _was(state: S, e: Patches, c: Change, ent: Entities[S]) -> Any:
    if c.how in ("set", "add"):
        obj = ent.get(state, c.id)
        return {k: ent.logged(k, getattr(obj, k)) for k in c.value if k in ent.fields}
    old = _found(e, c, ent, state)
    return None if old is None else ent.record(old)


def previous_all(state: S, e: Patches, entities: Mapping[str, Entities[S]]) -> Patches:
    """``e`` with each change's previous value(s) (``was``) as they are when it is folded in
    turn from ``state``: the engine records them when the event is performed."""
    if all(c.was is not NOT_RECORDED for c in e.patches):
        return e
    out = []
    for c in e.patches:
        ent = _entities(e, c, entities)
        if c.was is NOT_RECORDED:
            c = dataclasses.replace(c, was=_was(state, e, c, ent))
        out.append(c)
        state = fold_change(state, e, c, entities)
    return dataclasses.replace(e, patches=tuple(out))
