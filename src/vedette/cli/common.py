"""What the shell's commands share: the database, output, the options of a new game.

Imports only the standard library and click at module level, so that ``vedette --help`` stays
fast; the engine and the rulesets are imported inside the functions that need them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import click

from vedette.cli.plain import default_db, json_text, printable
from vedette.errors import BadRequest
from vedette.numerals import ascii_int, plain

F = TypeVar("F", bound=Callable[..., Any])


class AsciiInt(click.ParamType[int]):
    """A whole number typed in ASCII digits: click's ``int`` reads "３" as 3 and "1_0" as 10
    (Python's ``int``); refused as any other text is."""

    name = "integer"

    def convert(
        self, value: object, param: click.Parameter | None, ctx: click.Context | None
    ) -> int:
        if isinstance(value, int):
            return value
        try:
            return ascii_int(str(value))
        except ValueError:
            self.fail(f"{value!r} is not a valid integer.", param, ctx)


ASCII_INT = AsciiInt()


class AsciiIntRange(click.IntRange):
    """:class:`click.IntRange` for whole numbers typed in ASCII digits ("３" and "1_0" are
    refused in click's usual words, exit 2, as :class:`AsciiInt` refuses them)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, int):
            try:
                value = ascii_int(str(value))
            except ValueError:
                self.fail(f"{value!r} is not a valid integer.", param, ctx)
        return super().convert(value, param, ctx)


#: a dice stream's seed, as a game's (``schemas.game``: 0 to 2^64-1): ``roll --seed`` and
#: ``simulate --seed`` read it alike
SEED = AsciiIntRange(0, (1 << 64) - 1)


@dataclass
class Shell:
    """The root's options, handed to every command (``ctx.obj``)."""

    db: str | None = None

    @contextmanager
    def store(self) -> Iterator[Any]:
        # start-up: the command line loads this only for a command that needs it
        from vedette.engine import Store

        with Store(self.db or default_db()) as st:
            yield st


def shell() -> Shell:
    """The current command's :class:`Shell` (a default one outside ``vedette``'s root)."""
    ctx = click.get_current_context()
    obj = ctx.find_object(Shell)
    if obj is None:
        obj = ctx.ensure_object(Shell)
    return obj


def complete_game(ctx: click.Context, _param: click.Parameter, incomplete: str) -> list[Any]:
    """Shell completion of a game name: the games in the database (``--db`` or the default);
    nothing if the database does not exist yet (completing must not create it)."""
    from click.shell_completion import CompletionItem

    db = ctx.find_root().params.get("db") or default_db()
    if not os.path.isfile(db):
        return []
    try:
        # start-up: the command line loads this only for a command that needs it
        from vedette.engine import Store

        with Store(db) as st:
            games = st.games()
    except Exception:  # completion never fails loudly
        return []
    return [CompletionItem(g.name, help=g.ruleset) for g in games if g.name.startswith(incomplete)]


def out(as_json: bool, text: Sequence[str] | str, data: Any) -> None:
    """Print ``data`` as JSON with ``--json``, else the text lines (stripped of anything a
    terminal would take as a command)."""
    if as_json:
        click.echo(json_text(data))
    else:
        # start-up: the command line loads this only for a command that needs it
        from vedette.cli.term import echo  # rich on a terminal, plain text otherwise

        echo(printable(text if isinstance(text, str) else "\n".join(text)))


def parse_kv(items: Sequence[str], what: str = "argument") -> dict[str, Any]:
    """``KEY=VALUE`` items; each value read as JSON when it parses as JSON, else as text."""
    # start-up: the command line loads this only for a command that needs it
    from vedette.rules.base import parse_value

    result: dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise BadRequest(f"{what} {item!r}: write KEY=VALUE")
        if key in result:
            raise BadRequest(f"{what} {key!r} given twice")
        result[key] = parse_value(value)
    return result


def parse_dice(text: str | None) -> list[int] | None:
    """The faces given with ``--dice`` (None: roll from the game's seeded stream)."""
    if text is None:
        return None
    # start-up: the command line loads this only for a command that needs it
    from vedette.dice import parse_faces

    return parse_faces(text)


# -- options ----------------------------------------------------------------------------------
JSON_HELP = "print JSON instead of text"
DICE_HELP = "physical dice: the faces you rolled, in order ('3 5' or 3,5)"


def json_option(f: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help=JSON_HELP)(f)


def new_game_options(f: F) -> F:
    """The options of ``<ruleset> new`` (its help lists the ruleset's options below them)."""
    return _new_game_options(f, "a ruleset option (repeatable; the ruleset's are listed below)")


def game_new_options(f: F) -> F:
    """The options of ``game new`` (the ruleset is an option: its own help lists them)."""
    return _new_game_options(
        f, "a ruleset option (repeatable; 'vedette RULESET new --help' lists them)"
    )


def _new_game_options(f: F, option_help: str) -> F:
    for opt in reversed(
        [
            click.option(
                "--scenario",
                default="sample",
                show_default=True,
                help="a bundled scenario name, one of yours (`scenarios`) or a scenario TOML file",
            ),
            click.option("--seed", type=ASCII_INT, help="seed of the game's dice stream"),
            click.option(
                "--option",
                "options",
                multiple=True,
                metavar="KEY=VALUE",
                help=option_help,
            ),
            click.option(
                "--house-rules",
                metavar="FILE",
                help="a house-rule TOML file (merged over the shipped data)",
            ),
            click.option(
                "--physical-dice",
                is_flag=True,
                help="play with your own dice: every roll is typed with --dice",
            ),
            json_option,
        ]
    ):
        f = opt(f)
    return f


# -- ruleset options (--option KEY=VALUE) -------------------------------------------------------
@dataclass(frozen=True)
class OptionField:
    """One declared ruleset option, as ``new --help`` lists it."""

    name: str
    kind: str
    default: Any = None
    help: str = ""
    required: bool = False
    annotation: Any = None

    def describe(self) -> str:
        bits = [f"{self.name}={self.kind}"]
        if self.required:
            bits.append("(required)")
        elif self.default not in (None, "", (), []):
            bits.append(f"(default {_show(self.default)})")
        return " ".join(bits)


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list | tuple):
        return ",".join(map(str, v)) or "none"
    return str(v)


def _bounds(info: Any) -> str:
    """``[>=1]``: the numeric bounds declared on a pydantic field."""
    marks = {"ge": ">=", "gt": ">", "le": "<=", "lt": "<"}
    bits = [
        f"{sign}{getattr(m, attr)}"
        for m in getattr(info, "metadata", ()) or ()
        for attr, sign in marks.items()
        if getattr(m, attr, None) is not None
    ]
    return f" [{','.join(bits)}]" if bits else ""


def _kind(annotation: Any) -> str:
    import types
    import typing

    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return "|".join(str(a) for a in typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        parts = [a for a in typing.get_args(annotation) if a is not type(None)]
        return "|".join(_kind(a) for a in parts)
    if origin is not None:
        return getattr(origin, "__name__", str(origin))
    if isinstance(annotation, type):
        return annotation.__name__
    return str(annotation).replace("typing.", "")


def _constrained(info: Any) -> Any:
    """A pydantic field's annotation with its constraints (``Field(ge=1)`` ...), so that a value
    is checked as the model would check it."""
    from typing import Annotated

    annotation = getattr(info, "annotation", Any)
    metadata = tuple(getattr(info, "metadata", ()) or ())
    return Annotated[(annotation, *metadata)] if metadata else annotation


def option_fields(ruleset: Any) -> list[OptionField]:
    """The options a ruleset declares with ``options_model`` (a pydantic model: each field's
    name, annotation, default and description); none if it declares no model."""
    model = getattr(ruleset, "options_model", None)
    fields: Mapping[str, Any] = getattr(model, "model_fields", None) or {}
    result = []
    for name, info in fields.items():
        required = bool(getattr(info, "is_required", lambda: False)())
        default = None
        if not required:
            factory = getattr(info, "default_factory", None)
            default = factory() if callable(factory) else getattr(info, "default", None)
        result.append(
            OptionField(
                name=name,
                kind=_kind(getattr(info, "annotation", Any)) + _bounds(info),
                default=default,
                help=str(getattr(info, "description", "") or ""),
                required=required,
                annotation=_constrained(info),
            )
        )
    return result


def _has_number(value: Any) -> bool:
    """Whether a value read from typed text holds a number (not a truth value) anywhere."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return True
    if isinstance(value, Mapping):
        return any(_has_number(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_has_number(v) for v in value)
    return False


def _typed(text: str) -> str:
    """A value as typed, for a one-line refusal: a long one cut (5,000 characters were all
    echoed)."""
    return repr(text) if len(text) <= 60 else f"{text[:40]!r}... ({len(text)} characters)"


def parse_options(ruleset: Any, items: Sequence[str]) -> dict[str, Any]:
    """``--option KEY=VALUE`` items, checked against the ruleset's declared options (unknown
    keys refused with a did-you-mean, values typed by their declaration); read loosely (JSON or
    text) if the ruleset declares none."""

    declared = {f.name: f for f in option_fields(ruleset)}
    if not declared:
        return parse_kv(items, "--option")
    import difflib

    from pydantic import TypeAdapter, ValidationError

    # start-up: the command line loads this only for a command that needs it
    from vedette.rules.fields import unquote

    result: dict[str, Any] = {}
    for item in items:
        key, eq, text = item.partition("=")
        text = unquote(text)  # variant='draft': quoting, as parse_value reads it
        if not eq or not key:
            raise BadRequest(f"--option {item!r}: write KEY=VALUE")
        if key in result:
            raise BadRequest(f"--option {key!r} given twice")
        f = declared.get(key)
        if f is None:
            close = difflib.get_close_matches(key, list(declared), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise BadRequest(
                f"{ruleset.name} has no option {key!r}{hint} (has: {', '.join(declared)})"
            )
        adapter: Any = TypeAdapter(f.annotation)
        try:
            value = adapter.validate_python(text)
        except ValidationError as e:
            try:
                value = adapter.validate_json(text)
            except ValidationError:
                problem = e.errors()[0].get("msg", "invalid") if e.errors() else "invalid"
                raise BadRequest(
                    f"--option {key}: {problem} (it is {f.kind}), not {_typed(text)}"
                ) from None
        if _has_number(value) and (not plain(text) or text.strip() in ("true", "false")):
            # pydantic's lax reading takes "1_0" as 10, and true as 1: a number is typed in
            # ASCII digits (the web form's options and a scenario's refuse true as a number)
            raise BadRequest(
                f"--option {key}: not a number in ASCII digits (it is {f.kind}), not {_typed(text)}"
            )
        result[key] = adapter.dump_python(value, mode="json")
    return result
