"""Typed request fields: one declaration from which argument checking, CLI help, web forms and
a JSON schema are derived.

A procedure's request is a frozen dataclass. Each field carries its help text, units, choices
and whether it may be given positionally, in ``metadata`` (see :func:`arg`). :class:`RequestSpec`
reads that declaration and turns what a person typed (CLI ``KEY=VALUE`` strings, a web form, a
JSON body) into the typed request, refusing unknown fields with a did-you-mean and mistyped
values with one line naming the field.

The coercer is deliberately small: request fields are scalars, choices, lists of scalars and
small nested records; keeping it here (rather than importing pydantic) keeps a CLI action's
start-up short.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import math
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, dataclass
from fractions import Fraction
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin

from vedette.errors import BadRequest
from vedette.numerals import ascii_float, ascii_int, plain
from vedette.rules.evolve import plain_layout

#: the largest whole number a request field takes (SQLite's and JSON's safe range)
MAX_INT = 2**63 - 1
MAX_TEXT = 10_000
MAX_ITEMS = 1_000
MAX_DEPTH = 8


def arg(
    help: str = "",
    *,
    units: str = "",
    positional: bool = False,
    default: Any = MISSING,
    default_factory: Any = MISSING,
    labels: Mapping[str, str] | None = None,
) -> Any:
    """A request field with its help text (``dataclasses.field`` with metadata). ``labels``:
    the words a form shows for some of its choices (by value; the others show their value with
    spaces for underscores: ``attack_column`` as "attack column")."""
    meta = {"help": help, "units": units, "positional": positional, "labels": dict(labels or {})}
    if default_factory is not MISSING:
        return dataclasses.field(default_factory=default_factory, metadata=meta)
    return dataclasses.field(default=default, metadata=meta)


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One field of a request, as shells show it."""

    name: str
    kind: str  # str | int | float | bool | list | json | choice | fraction
    help: str = ""
    units: str = ""
    required: bool = False
    default: Any = None
    choices: tuple[str, ...] = ()
    positional: bool = False
    tp: Any = None  # the Python type the value is coerced to (None: the legacy loose reading)
    labels: tuple[str, ...] = ()  # the words a form shows for each choice, in their order

    def choice_labels(self) -> list[tuple[str, str]]:
        """Each choice (the value a request takes) with the words a form shows for it."""
        return [
            (c, self.labels[i] if i < len(self.labels) else c.replace("_", " "))
            for i, c in enumerate(self.choices)
        ]

    def describe(self) -> str:
        kind = "|".join(self.choices) if self.choices else self.kind
        bits = [f"{self.name}={kind}"]
        if self.units:
            bits.append(f"[{self.units}]")
        if self.required:
            bits.append("(required)")
        elif self.default not in (None, (), ""):
            bits.append(f"(default {_show(self.default)})")
        return " ".join(bits)

    def json_schema(self) -> dict[str, Any]:
        types_ = {
            "str": "string",
            "choice": "string",
            "int": "integer",
            "float": "number",
            "bool": "boolean",
            "list": "array",
            "fraction": "string",
        }
        out: dict[str, Any] = {"description": self.help}
        if self.kind in types_:
            out["type"] = types_[self.kind]
        if self.choices:
            out["enum"] = list(self.choices)
        if self.units:
            out["x-units"] = self.units
        if not self.required and self.default not in (None,):
            out["default"] = _jsonable(self.default)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "help": self.help,
            "units": self.units,
            "required": self.required,
            "default": _jsonable(self.default),
            "choices": list(self.choices),
            "positional": self.positional,
        }


def _show(v: Any) -> str:
    if isinstance(v, tuple | list):
        return ",".join(map(str, v)) or "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


#: the types :func:`_jsonable` hands back as they are (tested by exact type: a subclass, such as
#: an enum of ints, goes through the general tests)
_PLAIN = frozenset({str, int, float, bool, type(None)})
#: a dataclass type's fields as (JSON key, attribute), read once per type (a field named like a
#: keyword ends in "_", ``from_``: its JSON key does not); None for a type that is no dataclass
_DATA_FIELDS: dict[type, tuple[tuple[str, str], ...] | None] = {}


def _data_fields(tp: type) -> tuple[tuple[str, str], ...] | None:
    try:
        return _DATA_FIELDS[tp]
    except KeyError:
        pass
    names = None
    if dataclasses.is_dataclass(tp):
        names = tuple((f.name.rstrip("_"), f.name) for f in dataclasses.fields(tp))
    _DATA_FIELDS[tp] = names
    return names


def _jsonable(v: Any) -> Any:
    tp = type(v)
    if tp in _PLAIN:
        return v
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    if isinstance(v, Fraction):
        return str(v)
    names = _data_fields(tp)  # an instance's type (a dataclass type itself is not one)
    if names is not None:
        return {key: _jsonable(getattr(v, attr)) for key, attr in names}
    if isinstance(v, Mapping):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_jsonable(x) for x in v]
    return v


def to_json(obj: Any) -> Any:
    """A typed value (dataclass, tuple, Fraction ...) as JSON data."""
    return _jsonable(obj)


# -- coercion --------------------------------------------------------------------------------
_TRUE = ("1", "true", "yes", "y", "on")
_FALSE = ("0", "false", "no", "n", "off")


def _kind_of(tp: Any) -> tuple[str, tuple[str, ...]]:
    tp = _strip_optional(tp)
    origin = get_origin(tp)
    if origin is Literal:
        return "choice", tuple(str(a) for a in get_args(tp))
    if tp is bool:
        return "bool", ()
    if tp is int:
        return "int", ()
    if tp is float:
        return "float", ()
    if tp is str:
        return "str", ()
    if tp is Fraction:
        return "fraction", ()
    if origin in (tuple, list, frozenset):
        return "list", ()
    return "json", ()


def _strip_optional(tp: Any) -> Any:
    if get_origin(tp) in (Union, types.UnionType):
        args = [a for a in get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return tp


def _is_optional(tp: Any) -> bool:
    return get_origin(tp) in (Union, types.UnionType) and type(None) in get_args(tp)


def _depth(v: Any, d: int = 0) -> int:
    if d > MAX_DEPTH:
        return d
    if isinstance(v, Mapping):
        return max((_depth(x, d + 1) for x in v.values()), default=d + 1)
    if isinstance(v, list | tuple):
        return max((_depth(x, d + 1) for x in v), default=d + 1)
    return d


def coerce(tp: Any, value: Any, where: str) -> Any:
    """``value`` (JSON data or text a person typed) as type ``tp``, or a BadRequest naming
    ``where``."""
    try:
        fn = _coercer(tp)
    except TypeError:  # an unhashable annotation: not compiled
        fn = _compile(tp)
    return fn(value, where)


Coercer = Callable[[Any, str], Any]


@cache
def _coercer(tp: Any) -> Coercer:
    """The coercion for ``tp``, its type read once (the replay of a long log decodes every
    event's fields through here)."""
    return _compile(tp)


def _sub(tp: Any) -> Coercer:
    try:
        return _coercer(tp)
    except TypeError:
        return _compile(tp)


def _compile(tp: Any) -> Coercer:
    if tp is Any:
        return _coerce_any
    if _is_optional(tp):
        inner = _sub(_strip_optional(tp))

        def optional(value: Any, where: str) -> Any:
            if value is None or value == "":
                return None
            return inner(value, where)

        return optional
    origin = get_origin(tp)
    if origin is Literal:
        return _literal(get_args(tp))
    simple = _SIMPLE.get(tp)
    if simple is not None:
        return simple
    if origin in (tuple, list, frozenset):
        return _sequence(tp, origin, get_args(tp))
    if origin in (dict, Mapping) or tp is dict:
        kt, vt = get_args(tp) or (str, Any)
        key, val = _sub(kt), _sub(vt)

        def mapping(value: Any, where: str) -> Any:
            if isinstance(value, str):
                value = _json_text(value, where)
            if not isinstance(value, Mapping):
                raise BadRequest(f"'{where}' must be a table of KEY: VALUE, not {_short(value)}")
            return {key(k, where): val(v, f"{where}.{k}") for k, v in value.items()}

        return mapping
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        cls = tp

        def record(value: Any, where: str) -> Any:
            if isinstance(value, str):
                value = _json_text(value, where)
            if isinstance(value, cls):
                return value
            if not isinstance(value, Mapping):
                raise BadRequest(f"'{where}' must be a table, not {_short(value)}")
            return spec_of(cls).build(value, where + ".")

        return record

    def unsupported(value: Any, where: str) -> Any:
        raise BadRequest(f"'{where}': unsupported field type {tp!r}")  # a programming error

    return unsupported


def _coerce_any(value: Any, where: str) -> Any:
    if _depth(value) > MAX_DEPTH:
        raise BadRequest(f"'{where}' is nested too deeply")
    return value


def _literal(choices: tuple[Any, ...]) -> Coercer:
    def literal(value: Any, where: str) -> Any:
        for c in choices:
            if value == c or (isinstance(value, str) and str(c).lower() == value.strip().lower()):
                return c
        raise BadRequest(
            f"'{where}' must be one of {', '.join(map(str, choices))}, not {_short(value)}"
        )

    return literal


def _coerce_str(value: Any, where: str) -> Any:
    if type(value) is str:
        s = value.strip()
    elif isinstance(value, bool | Mapping | list | tuple):
        raise BadRequest(f"'{where}' must be text, not {_short(value)}")
    else:
        s = str(value).strip()
    if len(s) > MAX_TEXT:
        raise BadRequest(f"'{where}' is too long ({len(s)} characters; at most {MAX_TEXT})")
    return s


def _coerce_bool(value: Any, where: str) -> Any:
    if isinstance(value, bool):
        return value
    s = str(value).strip().lower()
    if s in _TRUE:
        return True
    if s in _FALSE:
        return False
    raise BadRequest(f"'{where}' must be true or false, not {_short(value)}")


def _coerce_int(value: Any, where: str) -> Any:
    if type(value) is int and -MAX_INT <= value <= MAX_INT:
        return value
    if isinstance(value, bool):
        raise BadRequest(f"'{where}' must be a whole number, not {_short(value)}")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str):
        try:
            value = ascii_int(value.strip())  # (not "３" nor "1_0", which int reads)
        except ValueError:
            raise BadRequest(f"'{where}' must be a whole number, not {_short(value)}") from None
    if not isinstance(value, int):
        raise BadRequest(f"'{where}' must be a whole number, not {_short(value)}")
    if abs(value) > MAX_INT:
        raise BadRequest(f"'{where}' is out of range ({_short(value)})")
    return value


def _coerce_float(value: Any, where: str) -> Any:
    if isinstance(value, bool):
        raise BadRequest(f"'{where}' must be a number, not {_short(value)}")
    try:
        f = ascii_float(value.strip()) if isinstance(value, str) else float(value)
    except (TypeError, ValueError, OverflowError):
        raise BadRequest(f"'{where}' must be a number, not {_short(value)}") from None
    if not math.isfinite(f):
        raise BadRequest(f"'{where}' must be a finite number, not {_short(value)}")
    return f


def _coerce_fraction(value: Any, where: str) -> Any:
    text = str(value).strip()
    try:
        if not plain(text):  # ("３/4", "1_0": Fraction reads them as numbers)
            raise ValueError(text)
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        raise BadRequest(f"'{where}' must be a number or fraction, not {_short(value)}") from None


_SIMPLE: dict[Any, Coercer] = {
    str: _coerce_str,
    bool: _coerce_bool,
    int: _coerce_int,
    float: _coerce_float,
    Fraction: _coerce_fraction,
}


def _sequence(tp: Any, origin: Any, args: tuple[Any, ...]) -> Coercer:
    if origin is tuple and args and (len(args) != 2 or args[1] is not Ellipsis):
        items_c = [_sub(a) for a in args]

        def fixed(value: Any, where: str) -> Any:
            items = _as_list(value, where)
            if len(items) > MAX_ITEMS:
                raise BadRequest(
                    f"'{where}' has too many items ({len(items)}; at most {MAX_ITEMS})"
                )
            if len(items) != len(items_c):
                raise BadRequest(f"'{where}' needs {len(items_c)} items, not {len(items)}")
            return tuple(
                c(x, f"{where}[{i}]") for i, (c, x) in enumerate(zip(items_c, items, strict=True))
            )

        return fixed
    inner = _sub(args[0] if args else Any)
    make: Callable[[list[Any]], Any] = (
        frozenset if origin is frozenset else (tuple if origin is tuple else list)
    )

    def sequence(value: Any, where: str) -> Any:
        items = _as_list(value, where)
        if len(items) > MAX_ITEMS:
            raise BadRequest(f"'{where}' has too many items ({len(items)}; at most {MAX_ITEMS})")
        return make([inner(x, f"{where}[{i}]") for i, x in enumerate(items)])

    return sequence


# -- trusted decoding: data the store wrote ------------------------------------------------------
def trusted(tp: Any) -> Coercer:
    """The coercion of ``tp`` for data this program wrote (a stored log): values already of
    their JSON shape are taken with no checks beyond their type (no size or depth limits: the
    store's data passed them when it was written or imported); anything else goes through the
    checking coercion, so a value decodes the same either way."""
    try:
        return _trusted(tp)
    except TypeError:
        return _compile_trusted(tp)


@cache
def _trusted(tp: Any) -> Coercer:
    return _compile_trusted(tp)


def _compile_trusted(tp: Any) -> Coercer:
    check = _sub(tp)
    if tp is Any:
        return lambda value, where: value
    if _is_optional(tp):
        inner = trusted(_strip_optional(tp))

        def optional(value: Any, where: str) -> Any:
            if value is None or value == "":
                return None
            return inner(value, where)

        return optional
    if tp is str:
        return lambda value, where: value.strip() if type(value) is str else check(value, where)
    if tp is int:
        return lambda value, where: value if type(value) is int else check(value, where)
    if tp is bool:
        return lambda value, where: value if type(value) is bool else check(value, where)
    origin = get_origin(tp)
    if origin is Literal:
        choices = frozenset(c for c in get_args(tp) if isinstance(c, str | int))
        return lambda value, where: value if value in choices else check(value, where)
    if origin in (tuple, list, frozenset):
        args = get_args(tp)
        if origin is tuple and args and (len(args) != 2 or args[1] is not Ellipsis):
            return check
        item = args[0] if args else Any
        inner = trusted(item)
        make: Callable[[Any], Any] = (
            frozenset if origin is frozenset else (tuple if origin is tuple else list)
        )
        if item is Any:  # the items as they are (a copy of the list)
            return lambda value, where: make(value) if type(value) is list else check(value, where)
        if item is str:  # the common case, without a Python call per item

            def strings(value: Any, where: str) -> Any:
                if type(value) is not list:
                    return check(value, where)
                try:
                    return make(map(str.strip, value))
                except TypeError:  # an item not text: converted as the checking path does
                    return make([x.strip() if type(x) is str else inner(x, where) for x in value])

            return strings

        def sequence(value: Any, where: str) -> Any:
            if type(value) is not list:
                return check(value, where)
            return make([inner(x, where) for x in value])

        return sequence
    if origin in (dict, Mapping) or tp is dict:
        kt, vt = get_args(tp) or (str, Any)
        key, val = trusted(kt), trusted(vt)

        def mapping(value: Any, where: str) -> Any:
            if type(value) is not dict:
                return check(value, where)
            return {key(k, where): val(v, where) for k, v in value.items()}

        return mapping
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        cls = tp

        def record(value: Any, where: str) -> Any:
            if type(value) is not dict:
                return check(value, where)
            return spec_of(cls).build_trusted(value, where + ".")

        return record
    return check


def _finite_or_text(text: str) -> Any:
    """A JSON number as a float, unless it is not finite (``1e400``): then its text, which
    the field's own check refuses in its usual words ("'tem' must be a whole number, not
    '1e400'"), not as a bare ``inf``."""
    f = float(text)
    return f if math.isfinite(f) else text


def unquote(text: str, quote: str = "'") -> str:
    """A typed value without the one pair of ``quote`` around it, if it has them: quoting, as
    in a shell (``unit='A1'`` passed on quoted, or typed in a form), never part of it."""
    if len(text) >= 2 and text[0] == text[-1] == quote:
        return text[1:-1]
    return text


def _int_or_text(text: str) -> Any:
    """A JSON whole number, unless beyond any field's range: then its text, which an int
    field refuses as "'tem' is out of range (...)" and a text field keeps as typed."""
    n = int(text)
    return n if -MAX_INT <= n <= MAX_INT else text


#: ``json.loads`` hooks for JSON from outside (``json_value``, the web app's request bodies)
JSON_HOOKS: dict[str, Any] = {
    "parse_float": _finite_or_text,
    "parse_int": _int_or_text,
    "parse_constant": str,
}


def json_value(text: str) -> Any:
    """JSON typed by a person: a number too large for a float (``1e400``) and ``NaN`` or
    ``Infinity`` (which Python's reader takes) are kept as text, so that no infinite or
    undefined number reaches a field; so is a whole number beyond any field's range."""
    return json.loads(text, **JSON_HOOKS)


def _json_text(value: str, where: str) -> Any:
    try:
        return json_value(value)
    except ValueError:
        raise BadRequest(f"'{where}' must be JSON, not {_short(value)}") from None


def _as_list(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, list | tuple | set | frozenset):
        return list(value)
    if isinstance(value, str):
        s = value.strip()
        if s.lower() == "none":  # (an empty list as a player says it, and as todo shows it)
            return []
        if s.startswith("["):
            v = _json_text(s, where)
            if not isinstance(v, list):
                raise BadRequest(f"'{where}' must be a list, not {_short(value)}")
            return v
        return [p.strip() for p in s.split(",") if p.strip()]
    if isinstance(value, Mapping):
        raise BadRequest(f"'{where}' must be a list, not {_short(value)}")
    return [value]


def _short(v: Any) -> str:
    r = repr(v)
    return r if len(r) <= 60 else r[:57] + "..."


# -- request specs ---------------------------------------------------------------------------
class RequestSpec:
    """The fields of a request type and how to build it from loose input."""

    def __init__(
        self,
        name: str,
        fields: Sequence[FieldSpec],
        build: Callable[[dict[str, Any]], Any] | None = None,
        cls: type | None = None,
    ) -> None:
        self.name = name
        self.fields = tuple(fields)
        self.by_name = {f.name: f for f in self.fields}
        self._build = build
        self._cls = cls  # the dataclass ``build`` makes (spec_of), for the trusted decoder
        self._plan: tuple[tuple[FieldSpec, Coercer | None], ...] | None = None
        self._trusted: Callable[[Mapping[str, Any], str], Any] | None = None

    @property
    def positional(self) -> tuple[FieldSpec, ...]:
        return tuple(f for f in self.fields if f.positional)

    def check_known(self, raw: Mapping[str, Any], what: str) -> None:
        known = list(self.by_name)
        for key in raw:
            if key not in self.by_name:
                close = difflib.get_close_matches(str(key), known, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else ""
                takes = f" (takes: {', '.join(known)})" if known else " (it takes none)"
                raise BadRequest(f"{what} has no argument {str(key)!r}{hint}{takes}")

    def build(self, raw: Mapping[str, Any], prefix: str = "") -> Any:
        plan = self._plan
        if plan is None:
            plan = self._plan = tuple(
                (f, None if f.tp is None else _sub(f.tp)) for f in self.fields
            )
        return self._run(raw, prefix, plan, True)

    def build_trusted(self, raw: Mapping[str, Any], prefix: str = "") -> Any:
        """:meth:`build` for data this program wrote (see :func:`trusted`)."""
        return self.trusted_decoder()(raw, prefix)

    def trusted_decoder(self) -> Callable[[Mapping[str, Any], str], Any]:
        """``decode(raw, prefix)``: :meth:`build_trusted`, for a caller that keeps it."""
        decode = self._trusted
        if decode is None:
            decode = self._trusted = self._trusted_decoder()
        return decode

    def _trusted_decoder(self) -> Callable[[Mapping[str, Any], str], Any]:
        """The trusted build, made once: for a plain dataclass (see ``evolve.plain_layout``) a
        decoder written out for its fields (as ``dataclasses`` writes ``__init__``) that fills
        every field (a missing one with its default, as ``__init__`` would; the scalars' type
        checked in line) and makes the instance directly; otherwise :meth:`_run` with the
        trusted converters."""
        plan = tuple((f, None if f.tp is None else trusted(f.tp)) for f in self.fields)
        cls = self._cls
        layout = None if cls is None else plain_layout(cls)
        if cls is None or layout is None:
            return lambda raw, prefix: self._run(raw, prefix, plan, False)
        scope: dict[str, Any] = {
            "known": frozenset(self.by_name),
            "check_known": self.check_known,
            "name": self.name,
            "cls": cls,
            "_new": object.__new__,
            "_set": object.__setattr__,
            "BadRequest": BadRequest,
        }
        lines = [
            "def decode(raw, prefix):",
            "    if not raw.keys() <= known:",
            "        check_known(raw, name)",
            "    new = _new(cls)",
            "    out = new.__dict__" if layout == "dict" else "",
        ]
        for j, ((f, conv), d) in enumerate(zip(plan, dataclasses.fields(cls), strict=True)):
            scope[f"c{j}"], scope[f"d{j}"], scope[f"f{j}"] = conv, d.default, d.default_factory
            value = "v" if conv is None else f"c{j}(v, prefix)"
            if f.tp is str:
                value = f"v.strip() if type(v) is str else {value}"
            elif f.tp in (int, bool):
                value = f"v if type(v) is {f.tp.__name__} else {value}"
            elif get_origin(f.tp) is tuple and get_args(f.tp)[1:] == (Ellipsis,):
                value = f"() if v == [] else {value}"  # most lists in a log are empty
            lines.append(f"    v = raw.get({f.name!r})")
            if f.required:
                scope[f"n{j}"] = f" ({f.help})" if f.help else ""
                lines += [
                    "    if v is None:",
                    f"        raise BadRequest(f\"missing '{{prefix}}{f.name}'\" + n{j})",
                ]
            else:
                missing = f"f{j}()" if d.default_factory is not MISSING else f"d{j}"
                value = f"{missing} if v is None else ({value})"
            lines.append(
                f"    out[{d.name!r}] = {value}"
                if layout == "dict"
                else f"    _set(new, {d.name!r}, {value})"
            )
        lines.append("    return new")
        exec("\n".join(lines), scope)  # the text is made here, from the dataclass's fields
        return scope["decode"]  # type: ignore[no-any-return]

    def _run(self, raw: Mapping[str, Any], prefix: str, plan: Any, named: bool) -> Any:
        """Check the keys, convert each field by ``plan`` (a checking or a trusted converter,
        given the field's path when ``named``), and build the request."""
        by_name = self.by_name
        for key in raw:
            if key not in by_name:
                self.check_known(raw, self.name)
        values: dict[str, Any] = {}
        for f, conv in plan:
            v = raw.get(f.name)
            if v is None:
                if f.required:
                    raise BadRequest(
                        f"missing '{prefix}{f.name}'" + (f" ({f.help})" if f.help else "")
                    )
                continue
            if conv is not None:
                v = conv(v, prefix + f.name if named else prefix)
            values[f.name] = v
        if self._build is None:
            return values
        return self._build(values)

    def json_schema(self) -> dict[str, Any]:
        return {
            "title": self.name,
            "type": "object",
            "additionalProperties": False,
            "properties": {f.name: f.json_schema() for f in self.fields},
            "required": [f.name for f in self.fields if f.required],
        }

    def help_lines(self) -> list[str]:
        return [f"{f.describe()}  {f.help}".rstrip() for f in self.fields]


@cache
def spec_of(cls: type) -> RequestSpec:
    """The request spec declared by a frozen dataclass's fields and their metadata."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        tp = hints[f.name]
        kind, choices = _kind_of(tp)
        required = f.default is MISSING and f.default_factory is MISSING
        default = (
            f.default
            if f.default is not MISSING
            else (f.default_factory() if f.default_factory is not MISSING else None)
        )
        out.append(
            FieldSpec(
                name=f.name.rstrip("_"),
                kind=kind,
                help=str(f.metadata.get("help", "")),
                units=str(f.metadata.get("units", "")),
                required=required,
                default=default,
                choices=choices,
                positional=bool(f.metadata.get("positional", False)),
                tp=tp,
                labels=tuple(
                    f.metadata.get("labels", {}).get(c, c.replace("_", " ")) for c in choices
                ),
            )
        )
    declared = getattr(cls, "__procedure__", None)  # protocol.procedure's declaration
    name = declared.name if declared is not None else cls.__name__
    py = {f.name.rstrip("_"): f.name for f in dataclasses.fields(cls)}
    return RequestSpec(
        str(name), out, lambda values: cls(**{py[k]: v for k, v in values.items()}), cls
    )
