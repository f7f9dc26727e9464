"""``vedette <ruleset> ...``: commands generated from the referee protocol.

One declaration is the source of every help text and argument here: a procedure's request
(:class:`~vedette.rules.fields.RequestSpec`: typed fields with help, units, choices, defaults),
its help and rule; the ruleset's title and its declared options. A ruleset adds no shell code.

A ruleset's group is built when the ruleset is named (``vedette nab ...``) and loads the ruleset
only when it must list or find a procedure, so ``vedette --help`` never imports one.

A procedure's fields are given as ``KEY=VALUE``, as ``--KEY VALUE`` (``--KEY/--no-KEY`` for
true/false fields), or positionally: the fields declared ``positional`` in order, or, if none
is, the required fields in declaration order (``vedette nab fix F1 R1`` is
``vedette nab fix moving=F1 contact=R1``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import click

from vedette.cli.common import (
    ASCII_INT,
    DICE_HELP,
    JSON_HELP,
    AsciiIntRange,
    complete_game,
    json_option,
    new_game_options,
    option_fields,
    out,
    parse_dice,
    shell,
)
from vedette.cli.plain import todo_answer, todo_lines
from vedette.errors import BadRequest, VedetteError

#: the shell's own options of every procedure; a field with one of these names is given as
#: KEY=VALUE or positionally only
RESERVED = frozenset({"game", "dice", "odds", "json", "seed", "help", "h"})

#: a negative number given positionally (``deploy A1 -5 3``): a value, not an option
NEGATIVE = re.compile(r"-\d+(\.\d*)?$")
#: the KEY of KEY=VALUE (an unknown one is refused with a did-you-mean, not taken as a value)
KEY = re.compile(r"[A-Za-z_][\w.-]*$")
#: marks such a value until the request is read (click would take it for an option)
NEG_MARK = "\x00"

BUILTIN_HELP = {
    "new": "start a game: NAME [--scenario S] [--seed N] [--option K=V] [--house-rules FILE]"
    " [--physical-dice]",
    "scenarios": "the bundled scenarios, then yours (--import FILE, --export NAME, --delete NAME)",
    "show": "the game as text (its map, units and phase)",
    "todo": "what is owed now (first), then the actions open now",
    "chances": "the exact odds of each end state of a sequence (or of a whole procedure):"
    " NAME [FIELDS ...] [--limit N]; bare: the sequences",
    "help": "this help: every procedure and its fields (--page: the players' page)",
}


def positional_fields(spec: Any) -> tuple[Any, ...]:
    """The fields that may be given positionally, in order: those declared ``positional``,
    else the required ones."""
    declared = tuple(f for f in spec.fields if f.positional)
    return declared or tuple(f for f in spec.fields if f.required)


def caps(field: Any) -> str:
    """A positional field as help shows it: ``TO``, or ``[TO]`` when it may be left out."""
    return field.name.upper() if field.required else f"[{field.name.upper()}]"


def signature(name: str, spec: Any) -> str:
    """``fix MOVING CONTACT``: a procedure with its positional fields (optional ones in
    brackets: ``phase [TO]``)."""
    return " ".join([name, *(caps(f) for f in positional_fields(spec))])


def field_rows(spec: Any) -> list[tuple[str, str]]:
    """Each field as (``name=kind [units] (required|default X)``, help)."""
    return [(f.describe(), f.help) for f in spec.fields]


def option_rows(ruleset: Any) -> list[tuple[str, str]]:
    return [(f.describe(), f.help) for f in option_fields(ruleset)]


def write_rows(formatter: click.HelpFormatter, rows: Sequence[tuple[str, str]], width: int) -> None:
    """A definition list whose second column starts at ``width`` (so that separate lists line
    up); a longer term gets a line of its own."""
    formatter.write_dl([(t.ljust(width) if d else t, d) for t, d in rows], col_max=width)


def _width(terms: Sequence[str], cap: int) -> int:
    return min(max((len(t) for t in terms), default=0), cap)


# -- the ruleset's group ---------------------------------------------------------------------
class RulesetGroup(click.Group):
    """``vedette <ruleset>``: new, scenarios, show, todo, help and one command per procedure
    (the ruleset's, and the referee's own ``waive``), built on demand."""

    def __init__(self, ruleset: str, aliases: Sequence[str] = ()) -> None:
        self.ruleset_name = ruleset
        self.aliases = tuple(aliases)
        short = aliases[0] if aliases else ruleset
        super().__init__(
            name=ruleset,
            help=f"{ruleset}: its procedures ('vedette {short} help')",
            invoke_without_command=True,
            callback=self._run_bare,
        )
        self._ruleset: Any = None
        self._built: dict[str, click.Command] = {}

    # the ruleset and its procedures, loaded on first use
    @property
    def ruleset(self) -> Any:
        if self._ruleset is None:
            # start-up: the command line loads this only for a command that needs it
            from vedette import rules

            self._ruleset = rules.get(self.ruleset_name)
        return self._ruleset

    def procedures(self) -> dict[str, Any]:
        """The ruleset's procedures on the protocol and the referee's ``waive``: what
        ``Game.procedures()`` holds, without a game."""
        # start-up: the command line loads this only for a command that needs it
        from vedette.engine.session import WAIVE

        procs = {**self.ruleset.protocol_procedures(), "waive": WAIVE}
        return {k: p for k, p in procs.items() if k not in BUILTIN_HELP}

    def _run_bare(self) -> None:
        ctx = click.get_current_context()
        if ctx.invoked_subcommand is None:
            click.echo(ctx.get_help())

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*BUILTIN_HELP, *self.procedures()]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self._built:
            return self._built[cmd_name]
        cmd: click.Command | None
        if cmd_name in BUILTIN_HELP:
            cmd = _builtin(self, cmd_name)
        else:
            proc = self.procedures().get(cmd_name)
            cmd = None if proc is None else ProcedureCommand(self, proc)
        if cmd is not None:
            self._built[cmd_name] = cmd
        return cmd

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        if (
            not ctx.resilient_parsing
            and not name.startswith("-")
            and self.get_command(ctx, name) is None
        ):
            known = list(self.procedures())
            import difflib  # start-up: only a mistyped name needs it

            close = difflib.get_close_matches(name, [*known, *BUILTIN_HELP], n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise BadRequest(
                f"{self.ruleset.name} has no procedure {name!r}{hint} (has: {', '.join(known)};"
                f" see 'vedette {ctx.info_name} help')"
            )
        return super().resolve_command(ctx, args)

    def format_usage(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_usage(
            ctx.command_path,
            "PROCEDURE [FIELDS ...] [--game G] [--dice FACES] [--odds] [--json]",
        )

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rs = self.ruleset
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(rs.title or rs.name)
            formatter.write_paragraph()
            names = ", ".join((rs.name, *(a for a in self.aliases if a != ctx.info_name)))
            formatter.write_text(
                f"Also called: {names}. FIELDS are KEY=VALUE, --KEY VALUE, or the"
                " fields shown in capitals in order; 'vedette"
                f" {ctx.info_name} PROCEDURE --help' shows one procedure."
            )

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Game commands"):
            rows = [(f"{n}", h) for n, h in BUILTIN_HELP.items()]
            formatter.write_dl(rows)
            opts = option_rows(self.ruleset)
            if opts:
                formatter.write_paragraph()
                formatter.write_text("options of 'new' (--option KEY=VALUE):")
                with formatter.indentation():
                    formatter.write_dl(opts)
        procs = self.procedures()
        sig_w = _width([signature(n, p.spec) for n, p in procs.items()], 26)
        fld_w = _width([f.describe() for p in procs.values() for f in p.spec.fields], 34)
        with formatter.section("Procedures (and their fields)"):
            for name, proc in procs.items():
                rule = f" ({proc.rule})" if proc.rule else ""
                query = " [query: logs nothing]" if proc.query else ""
                write_rows(
                    formatter, [(signature(name, proc.spec), f"{proc.help}{rule}{query}")], sig_w
                )
                rows = field_rows(proc.spec)
                if rows:
                    with formatter.indentation(), formatter.indentation():
                        write_rows(formatter, rows, fld_w)

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        formatter.write_paragraph()
        with formatter.indentation():
            formatter.write_text(
                "Options of every procedure: --game G (default: the current game), --dice FACES"
                " (your own dice), --odds (the odds of each step and of every outcome; rolls"
                " nothing), --json."
            )


def _stem(rs_name: str) -> str:
    """The ruleset's short name as a game's default name starts (its first alias), read from
    the registry (the ruleset itself is not loaded for a help text)."""
    # start-up: the registry alone loads no ruleset
    from vedette import rules

    return (rules.aliases(rs_name) or (rs_name,))[0]


def _builtin(group: RulesetGroup, name: str) -> click.Command:
    rs_name = group.ruleset_name

    if name == "new":

        @click.command(
            "new",
            help=f"Start a {rs_name} game from a scenario, called NAME (default: the ruleset's"
            f" short name and the next free number, e.g. {_stem(rs_name)}-1).",
        )
        @click.argument("name", required=False)
        @new_game_options
        def new(
            name: str | None,
            scenario: str,
            seed: int | None,
            options: Sequence[str],
            house_rules: str | None,
            physical_dice: bool,
            as_json: bool,
        ) -> None:
            # start-up: the command line loads this only for a command that needs it
            from vedette.cli.main import new_game

            new_game(rs_name, name, scenario, seed, options, house_rules, physical_dice, as_json)

        return NewCommand(group, new)

    if name == "scenarios":

        @click.command(
            "scenarios",
            help=f"The {rs_name} scenarios: the bundled ones, then yours (saved in the web"
            " app's scenario builder or imported here). --import FILE --name NAME keeps a"
            " scenario file (checked whole first); --export NAME prints one (yours or a bundled"
            " one) as TOML (the text --import and `new --scenario FILE` take); --delete NAME"
            " forgets one of yours.",
        )
        @click.option("--import", "import_file", metavar="FILE", help="keep this scenario file")
        @click.option("--name", metavar="NAME", help="the name to keep it under (with --import)")
        @click.option("--replace", is_flag=True, help="replace your scenario of that name")
        @click.option("--export", "export_name", metavar="NAME", help="print it as TOML")
        @click.option("--delete", "delete_name", metavar="NAME", help="forget it")
        @json_option
        def scenarios(**opts: Any) -> None:
            # start-up: the command line loads this only for a command that needs it
            from vedette.cli.scenarios import scenarios_command

            scenarios_command(group.ruleset, **opts)

        return scenarios

    if name == "show":

        @click.command("show", help="The game as text (its map, units and phase).")
        @click.option(
            "--game", help="the game (default: the current game)", shell_complete=complete_game
        )
        @json_option
        def show(game: str | None, as_json: bool) -> None:
            with shell().store() as st:
                g = _open(st, game, group)
                out(as_json, g.render(), {"game": g.name, "state": g.ruleset.state_json(g.state)})

        return show

    if name == "todo":

        @click.command(
            "todo",
            help="What the rules require now (owed: the rule, the command that discharges it,"
            " and how to waive it), then the actions open now.",
        )
        @click.option(
            "--game", help="the game (default: the current game)", shell_complete=complete_game
        )
        @json_option
        def todo(game: str | None, as_json: bool) -> None:
            ctx = click.get_current_context()
            prefix = f"vedette {ctx.parent.info_name if ctx.parent else rs_name}"
            with shell().store() as st:
                g = _open(st, game, group)
                items, data = todo_answer(g)
                lines = todo_lines(items, prefix, data["todo"], data.get("standing"))
                out(as_json, lines, data)

        return todo

    if name == "chances":
        return ChancesCommand(group)

    @click.command("help", help="Every procedure of the ruleset and its fields.")
    @click.option(
        "--page",
        is_flag=True,
        help="the players' page instead: how to play it here, with examples, and every"
        " reading chosen where the rules' text is unclear (Markdown; the web app's /help)",
    )
    def help_(page: bool) -> None:
        ctx = click.get_current_context()
        if page:
            click.echo(group.ruleset.help_page() or "(no players' page)")
            return
        click.echo(ctx.parent.get_help() if ctx.parent else group.get_help(ctx))

    return help_


def _open(st: Any, game: str | None, group: RulesetGroup) -> Any:
    # start-up: the command line loads this only for a command that needs it
    from vedette.engine import Game

    g = Game.open(st, game)
    if g.ruleset.name != group.ruleset.name:
        raise BadRequest(f"game {g.name!r} is a {g.ruleset.name} game, not {group.ruleset.name}")
    return g


class NewCommand(click.Command):
    """``<ruleset> new``, whose help lists the ruleset's declared options."""

    def __init__(self, group: RulesetGroup, base: click.Command) -> None:
        super().__init__(
            name=base.name,
            callback=base.callback,
            params=base.params,
            help=base.help,
            context_settings=base.context_settings,
        )
        self.group = group

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_options(ctx, formatter)
        rows = option_rows(self.group.ruleset)
        title = f"Options of {self.group.ruleset.name} (--option KEY=VALUE)"
        with formatter.section(title):
            if rows:
                formatter.write_dl(rows)
            else:
                formatter.write_text("none declared; any KEY=VALUE is passed to the ruleset")


# -- one procedure ---------------------------------------------------------------------------
class ProcedureCommand(click.Command):
    """``vedette <ruleset> <procedure> [FIELDS ...]``, generated from the procedure's request
    declaration."""

    def __init__(self, group: RulesetGroup, proc: Any) -> None:
        self.group = group
        self.proc = proc
        self.spec = proc.spec
        self.positional = positional_fields(proc.spec)
        params: list[click.Parameter] = [
            click.Argument(
                ["tokens"],
                nargs=-1,
                metavar="FIELDS",
                shell_complete=self._complete,
            ),
            click.Option(
                ["--game"],
                help="the game (default: the current game)",
                shell_complete=complete_game,
            ),
            click.Option(["--dice"], metavar="FACES", help=DICE_HELP),
            click.Option(
                ["--odds"],
                is_flag=True,
                help="the odds of each step and of every outcome of the whole procedure;"
                " rolls nothing",
            ),
            click.Option(["--json", "as_json"], is_flag=True, help=JSON_HELP),
            click.Option(
                ["--seed"],
                type=ASCII_INT,
                help="refused unless it is the game's own seed (a game rolls from its stream)",
            ),
        ]
        for f in self.spec.fields:
            if f.name in RESERVED or not f.name.isidentifier():
                continue
            spellings = dict.fromkeys((f.name, f.name.replace("_", "-")))  # --contact_to, -to
            if f.kind == "bool":
                decl = [f"--{n}/--no-{n}" for n in spellings]
                params.append(click.Option([*decl, f"field__{f.name}"], default=None, hidden=True))
            else:
                decl = [f"--{n}" for n in spellings]
                params.append(click.Option([*decl, f"field__{f.name}"], hidden=True))
        rule = f" ({proc.rule})" if proc.rule else ""
        query = " A query: it changes nothing and is not logged." if proc.query else ""
        super().__init__(
            name=proc.name,
            params=params,
            callback=self._run,
            help=f"{_sentence(proc.help)}{rule}.{query}" if proc.help else None,
            short_help=proc.help,
        )

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        takes_value = {
            o for p in self.params if isinstance(p, click.Option) and not p.is_flag for o in p.opts
        }
        marked: list[str] = []
        for a in args:
            prev = marked[-1] if marked else ""
            marked.append(NEG_MARK + a if NEGATIVE.match(a) and prev not in takes_value else a)
        return super().parse_args(ctx, marked)

    # -- help
    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        pieces = ["[OPTIONS]", *(caps(f) for f in self.positional)]
        if len(self.spec.fields) > len(self.positional):
            pieces.append("[KEY=VALUE]...")
        return pieces

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = field_rows(self.spec)
        if self.positional:
            caps = " ".join(f.name.upper() for f in self.positional)
            title = f"Fields (KEY=VALUE or --KEY VALUE; {caps} also positionally, in this order)"
        else:
            title = "Fields (KEY=VALUE or --KEY VALUE)"
        with formatter.section(title):
            if rows:
                write_rows(formatter, rows, _width([t for t, _ in rows], 40))
            else:
                formatter.write_text("none")
        super().format_options(ctx, formatter)

    def _complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
        from click.shell_completion import CompletionItem

        key, eq, value = incomplete.partition("=")
        if eq:
            f = self.spec.by_name.get(key)
            if f is None:
                return []
            values = list(f.choices) or (["true", "false"] if f.kind == "bool" else [])
            return [CompletionItem(f"{key}={v}") for v in values if str(v).startswith(value)]
        given = {t.partition("=")[0] for t in ctx.params.get("tokens", ()) or () if "=" in t}
        return [
            CompletionItem(f"{f.name}=", help=f.help)
            for f in self.spec.fields
            if f.name.startswith(incomplete) and f.name not in given
        ]

    # -- run
    def request(self, tokens: Sequence[str], options: Mapping[str, Any]) -> dict[str, Any]:
        """The raw request from KEY=VALUE tokens, --KEY options and positional values."""
        # start-up: the command line loads this only for a command that needs it
        from vedette.rules.base import parse_value

        raw: dict[str, Any] = {}
        loose: list[str] = []
        for t in (t.removeprefix(NEG_MARK) for t in tokens):
            key, eq, value = t.partition("=")
            if eq and KEY.match(key):
                if key in raw:
                    raise BadRequest(f"{self.proc.name}: '{key}' given twice")
                raw[key] = parse_value(value)
            elif eq and not key:
                raise BadRequest(f"argument {t!r}: write KEY=VALUE")
            else:
                loose.append(t)
        for k, v in options.items():
            if v is None:
                continue
            if k in raw:
                raise BadRequest(f"{self.proc.name}: '{k}' given twice")
            raw[k] = parse_value(v) if isinstance(v, str) else v
        free = [f for f in self.positional if f.name not in raw]
        if len(loose) > len(free):
            extra = loose[len(free)]
            if not self.positional:
                takes = "takes no positional values"
            else:
                names = ", ".join(f.name for f in self.positional)
                takes = f"takes at most {len(self.positional)} positional values ({names})"
            raise BadRequest(
                f"{self.proc.name} {takes}: {extra!r} is one too many (write KEY=VALUE)"
            )
        for f, v in zip(free, loose, strict=False):
            raw[f.name] = parse_value(v)
        return raw

    def _run(
        self,
        tokens: Sequence[str],
        game: str | None,
        dice: str | None,
        odds: bool,
        as_json: bool,
        seed: int | None,
        **fields: Any,
    ) -> None:

        options = {k.removeprefix("field__"): v for k, v in fields.items()}
        request = self.request(tokens, options)
        name = self.proc.name
        with shell().store() as st:
            g = _open(st, game, self.group)
            if seed is not None and seed != g.seed:
                raise BadRequest(
                    f"game {g.name!r} rolls from its own stream (seed {g.seed}, set when it was"
                    " created); use --dice for your own dice"
                )
            request = ask_open(g, self.proc, request, interactive=not as_json)
            if odds:
                show_odds(g, name, request, as_json)
                return
            seq = g.next_seq
            outcome = g.perform(name, request, parse_dice(dice))
            data = {
                "game": g.name,
                "seq": seq if not g.procedure(name).query else None,
                **outcome.to_json(),
            }
            out(as_json, outcome.lines(), data)


def open_choices(g: Any, proc: Any, request: Mapping[str, Any]) -> dict[str, list[Any]]:
    """The choices ``todo`` offers now for each required field of ``proc`` that ``request``
    leaves out (from the open entries of that procedure that agree with what was given)."""
    # start-up: the command line loads this only for a command that needs it
    from vedette.rules.protocol import _same

    missing = [f.name for f in proc.spec.fields if f.required and f.name not in request]
    if not missing:
        return {}
    found: dict[str, list[Any]] = {}
    for t in g.todo():
        if t.procedure != proc.name:
            continue
        given = {**t.request}
        if any(k in request and not _same(request[k], v) for k, v in given.items()):
            continue
        if any(
            k in request and not any(_same(request[k], c) for c in cs) for k, cs in t.open.items()
        ):
            continue
        for k in missing:
            options = list(t.open.get(k, ()))
            if k in given:
                options.append(given[k])
            for c in options:
                if not any(_same(c, x) for x in found.setdefault(k, [])):
                    found[k].append(c)
    return {k: v for k, v in found.items() if v}


def ask_open(
    g: Any, proc: Any, request: dict[str, Any], interactive: bool = True
) -> dict[str, Any]:
    """An open ``todo`` line run as printed: each missing field the game offers choices for is
    asked for on a terminal (the choices listed), or refused in one line listing them."""
    import sys

    # start-up: the command line loads this only for a command that needs it
    from vedette.rules.fields import spec_of
    from vedette.rules.protocol import _arg_text

    choices = open_choices(g, proc, request)
    if not choices:
        return request
    tty = interactive and sys.stdin.isatty() and sys.stdout.isatty()
    for k, cs in choices.items():
        shown = [_arg_text(c) for c in cs]
        if not tty:
            # a misspelt key (distanse=1) is the problem to name, not the field it left out
            spec_of(proc.request).check_known(request, proc.name)
            listed = ", ".join(shown[:20]) + (f", ... ({len(shown)} in all)" if cs[20:] else "")
            raise BadRequest(f"{proc.name}: give {k}= (one of: {listed})")
        picked = click.prompt(f"{k}", type=click.Choice(shown), show_choices=True)
        request[k] = cs[shown.index(picked)]
    return request


def _sentence(text: str) -> str:
    text = text.strip().rstrip(".")
    return text[:1].upper() + text[1:]


#: seconds of exact enumeration of a procedure's dice before ``--odds`` samples instead
ODDS_BUDGET = 2.0
#: seeded runs when sampling
ODDS_SAMPLES = 1_000
#: outcomes printed (``--json`` gives them all)
ODDS_ROWS = 12


class _OverBudget(Exception):
    pass


def whole_procedure_odds(g: Any, name: str, request: Mapping[str, Any]) -> Any:
    """What ``Game.chances`` gives (the exact odds of every outcome of the procedure, from
    its own resolve), with a time budget: a tree of dice too deep to enumerate in
    ``ODDS_BUDGET`` seconds is sampled instead (``exact=False``, with 95% intervals).
    The request was checked by ``Game.odds`` first (fields, rules, owed steps)."""
    import dataclasses
    import time

    # start-up: the command line loads this only for a command that needs it
    from vedette.rules.protocol import chances

    proc = g.procedure(name)
    plan = proc.plan(g.state, proc.parse(request))
    state = g.state
    deadline = time.monotonic() + ODDS_BUDGET

    def run(dice: Any) -> Any:
        if time.monotonic() > deadline:
            raise _OverBudget
        return proc.resolve(state, plan, dice)

    try:
        return chances(run)
    except _OverBudget:
        sampled = chances(lambda dice: proc.resolve(state, plan, dice), 0, ODDS_SAMPLES)
        note = f"too many dice branches to enumerate in {ODDS_BUDGET:g} s"
        return dataclasses.replace(sampled, note=note)


def show_odds(g: Any, name: str, request: Mapping[str, Any], as_json: bool) -> None:
    """The odds of each step the procedure knows it will take (``Game.odds``), then the odds
    of every outcome of the whole procedure (:func:`whole_procedure_odds`).

    JSON: a list, the steps' odds (``"type": "odds"``) then the whole procedure's
    (``"type": "chances"``)."""

    steps = g.odds(name, request)
    data: list[dict[str, Any]] = [o.to_json() for o in steps]
    lines = [ln for o in steps for ln in o.lines()]
    try:
        whole = whole_procedure_odds(g, name, request)
    except VedetteError as e:  # the procedure refuses in the state it would roll in
        lines.append(f"all outcomes: none ({e})")
        data.append({"type": "chances", "error": str(e), "rows": []})
    else:
        data.append(whole.to_json())
        if not steps and whole.exact and whole.leaves == 1:
            result = whole.rows[0].result if whole.rows else "done"
            lines.append(f"{name} rolls no dice (outcome: {result})")
        else:
            shown = whole.lines()
            more = len(shown) - 1 - ODDS_ROWS
            if more > 0:
                rest = sum(float(c.p) for c in whole.rows[ODDS_ROWS:])
                shown = shown[: 1 + ODDS_ROWS]
                shown.append(
                    f"  ... and {more} more outcomes ({rest * 100:.2f}% in all; --json lists them)"
                )
            lines.extend(shown)
    out(as_json, lines, data)


# -- chances: the odds of sequences ----------------------------------------------------------
#: dice branches enumerated before ``chances`` samples instead (``--limit``)
CHANCES_LIMIT = 20_000


def sequence_lines(seqs: Mapping[str, Any], prefix: str) -> list[str]:
    """The sequences of a ruleset, with their help, rule and fields."""
    if not seqs:
        return [
            "no sequences declared; any procedure's whole odds:"
            f" {prefix} chances PROCEDURE [FIELDS ...]"
        ]
    lines = []
    for name, proc in seqs.items():
        rule = f" ({proc.rule})" if proc.rule else ""
        lines.append(f"{signature(name, proc.spec)}")
        lines.append(f"    {proc.help}{rule}")
        lines.extend(f"      {t}  {h}" for t, h in field_rows(proc.spec))
    lines.append(f"odds: {prefix} chances NAME [FIELDS ...] [--limit N] [--json]")
    return lines


def sequence_json(name: str, proc: Any) -> dict[str, Any]:
    return {
        "name": name,
        "help": proc.help,
        "rule": proc.rule,
        "fields": proc.spec.json_schema(),
    }


class ChancesCommand(click.Command):
    """``vedette <ruleset> chances [NAME [FIELDS ...]]``: the sequences (bare), or the exact
    odds of each end state of one (``Game.chances``); a procedure's name gives the odds of
    every outcome of the whole procedure."""

    def __init__(self, group: RulesetGroup) -> None:
        self.group = group
        super().__init__(
            name="chances",
            params=[
                click.Argument(["name"], required=False),
                click.Argument(["tokens"], nargs=-1, metavar="[FIELDS]..."),
                click.Option(
                    ["--game"],
                    help="the game (default: the current game)",
                    shell_complete=complete_game,
                ),
                click.Option(
                    ["--limit"],
                    type=AsciiIntRange(min=1),
                    default=CHANCES_LIMIT,
                    show_default=True,
                    help="dice branches enumerated before sampling instead (with 95% intervals)",
                ),
                click.Option(["--json", "as_json"], is_flag=True, help=JSON_HELP),
            ],
            callback=self._run,
            help="The exact odds (fractions) of each end state of a sequence of procedures"
            " played in turn with the same dice, from the procedures' own code; NAME may also"
            " be a procedure (the odds of every outcome of it). Without NAME: the ruleset's"
            " sequences. A tree of more than --limit dice branches is sampled, and says so.",
            short_help=BUILTIN_HELP["chances"],
            context_settings={"ignore_unknown_options": True},
        )

    def _run(
        self,
        name: str | None,
        tokens: Sequence[str],
        game: str | None,
        limit: int,
        as_json: bool,
    ) -> None:

        ctx = click.get_current_context()
        prefix = f"vedette {ctx.parent.info_name if ctx.parent else self.group.ruleset_name}"
        seqs = self.group.ruleset.sequences()
        if name is None:
            if tokens:
                raise BadRequest("chances: name the sequence first")
            listed = [sequence_json(n, p) for n, p in seqs.items()]
            out(as_json, sequence_lines(seqs, prefix), listed)
            return
        proc = seqs.get(name) or self.group.procedures().get(name)
        if proc is None:
            known = [*seqs, *self.group.procedures()]
            import difflib  # start-up: only a mistyped name needs it

            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise BadRequest(
                f"{self.group.ruleset.name} has no sequence or procedure {name!r}{hint}"
                f" (sequences: {', '.join(seqs) or 'none'})"
            )
        for t in tokens:
            if t.startswith("-") and not NEGATIVE.match(t):
                raise BadRequest(f"chances {name}: {t!r}: write the fields as KEY=VALUE")
        request = ProcedureCommand(self.group, proc).request(tokens, {})
        with shell().store() as st:
            g = _open(st, game, self.group)
            c = g.chances(name, request, limit)
        # start-up: the command line loads this only for a command that needs it
        from vedette.rules.sequence import summary_of

        each = summary_of(proc, c)
        kind = "sequence" if name in seqs else "procedure"
        head = f"{name} ({kind}): " + (
            f"exact, {c.leaves} dice branches"
            if c.exact
            else f"SAMPLED, {c.leaves} runs, 95% intervals ({c.note})"
        )
        lines = [head]
        lines.extend(chance_line(row) for row in c.rows)
        if each:
            lines.append("each (the sum over the end states above):")
            lines.extend(chance_line(row) for row in each)
        result = {"game": g.name, "name": name, "kind": kind, **c.to_json()}
        result["each"] = [row.to_json() for row in each]
        out(as_json, lines, result)


def chance_line(row: Any) -> str:
    """``  83.33%          5/6  what``, with the 95% interval when sampled."""
    ci = f"  [95%: {row.low * 100:.1f}-{(row.high or 0) * 100:.1f}%]" if row.low is not None else ""
    return f"  {float(row.p) * 100:6.2f}%  {row.p!s:>11}  {row.result}{ci}"
