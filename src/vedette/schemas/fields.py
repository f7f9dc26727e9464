"""Field types shared by the scenario schemas: ids, names, bounded counts and coordinates."""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any, get_args, get_type_hints

from pydantic import AfterValidator, Field, create_model
from pydantic_core import PydanticCustomError

from vedette.data.limits import MAX_COORD, MAX_ID, MAX_ITEMS, hidden_char, hidden_problem
from vedette.schemas import Strict


def _shown_as_typed(text: str) -> str:
    """An id as the player types it to name the thing: nothing invisible or reordering in it
    (``F1`` and ``F1`` with a zero-width space after it would be two units that look alike)."""
    hidden = hidden_char(text)
    if hidden:
        raise PydanticCustomError("hidden_char", "{problem}", {"problem": hidden_problem(hidden)})
    return text


Id = Annotated[str, Field(min_length=1, max_length=MAX_ID), AfterValidator(_shown_as_typed)]
Name = Annotated[str, Field(max_length=200)]
Text = Annotated[str, Field(max_length=2_000)]
Count = Annotated[int, Field(ge=0, le=100_000)]
SmallInt = Annotated[int, Field(ge=-1_000, le=1_000)]
Coord = Annotated[float, Field(ge=-MAX_COORD, le=MAX_COORD)]
Point = Annotated[list[Coord], Field(min_length=2, max_length=2)]
Angle = Annotated[float, Field(ge=-3600.0, le=3600.0)]


def items(n: int = MAX_ITEMS) -> Any:
    return Field(default=[], max_length=n)


def model_from_dataclass(
    dc: type,
    name: str,
    overrides: dict[str, Any] | None = None,
    required: tuple[str, ...] = (),
    base: type[Strict] = Strict,
) -> type[Strict]:
    """A strict input model with the fields of a frozen dataclass (a scenario entry the loader
    builds with ``Cls(**entry)``): text, whole numbers, finite bounded numbers and booleans of
    the same names, every field optional except ``required``; ``overrides`` gives a field its own
    (annotation, default)."""
    hints = get_type_hints(dc)
    spec: dict[str, Any] = {}
    for f in dataclasses.fields(dc):
        if overrides and f.name in overrides:
            spec[f.name] = overrides[f.name]
            continue
        t = hints[f.name]
        args = [a for a in get_args(t) if a is not type(None)]
        base_t = args[0] if args and type(None) in get_args(t) else t
        ann: Any
        if base_t is bool:
            ann = bool
        elif base_t is int:
            ann = Annotated[int, Field(ge=-1_000_000, le=1_000_000)]
        elif base_t is float:
            ann = Coord
        elif base_t is str:
            ann = Name
        else:
            ann = Any
        default = None if f.name in required else _default(f)
        if default is None or type(None) in get_args(t):
            ann = ann | None if ann is not Any else Any
        spec[f.name] = (ann, ... if f.name in required else default)
    return create_model(name, __base__=base, **spec)


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return None
