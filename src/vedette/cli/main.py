"""The ``vedette`` command: a thin shell over the API, built with click.

The ruleset commands (``vedette <ruleset> <procedure> ...``) are generated from the procedures'
typed declarations (see :mod:`vedette.cli.rulesets`) and built only when a ruleset is named, so
``vedette --help`` imports no ruleset, engine, dice or web module. Every error caused by input
prints one line (``vedette: error: ...``) and exits non-zero; no traceback (set VEDETTE_DEBUG=1
to see one for an internal error). Shell completion: see the README ("Using it").
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

import click

from vedette import __version__
from vedette.cli.common import (
    ASCII_INT,
    DICE_HELP,
    SEED,
    AsciiIntRange,
    Shell,
    complete_game,
    game_new_options,
    json_option,
    out,
    parse_dice,
    parse_options,
    shell,
)
from vedette.cli.plain import default_db, error_line
from vedette.errors import BadRequest, GameError, VedetteError
from vedette.numerals import ascii_int

__all__ = ["cli", "default_db", "main"]

COMPLETE_VAR = "_VEDETTE_COMPLETE"
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return

    click.echo(f"vedette {__version__}")
    ctx.exit(0)


def ruleset_listing() -> dict[str, tuple[str, ...]]:
    """Every registered ruleset with its aliases (no ruleset module is imported)."""
    # start-up: the command line loads this only for a command that needs it
    from vedette.rules import REGISTRY  # the registry alone: no ruleset is imported

    return {k: tuple(aliases) for k, (_, aliases) in REGISTRY.items()}


def canonical_ruleset(name: str) -> str | None:
    """The canonical ruleset called ``name`` (or an alias), None if there is none."""
    n = name.lower()
    for k, aliases in ruleset_listing().items():
        if n == k or n in aliases:
            return k
    if not n.replace("_", "").replace("-", "").isalnum():
        return None
    # start-up: the command line loads this only for a command that needs it
    from vedette import rules  # a plug-in registered under a name we do not ship

    try:
        return rules.canonical(n)
    except BadRequest:
        return None


class Root(click.Group):
    """``vedette``: fixed commands, then one lazily built group per ruleset."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        names = list(self.commands)
        for k, aliases in ruleset_listing().items():
            names += [*aliases, k]
        return names

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        cmd = self.commands.get(cmd_name)
        if cmd is not None:
            return cmd
        rs = canonical_ruleset(cmd_name)
        if rs is None:
            return None
        groups: dict[str, click.Command] = self.__dict__.setdefault("_groups", {})
        if rs not in groups:
            # start-up: the command line loads this only for a command that needs it
            from vedette.cli.rulesets import RulesetGroup

            groups[rs] = RulesetGroup(rs, ruleset_listing().get(rs, ()))
        return groups[rs]

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        name = args[0]
        if self.get_command(ctx, name) is None and not ctx.resilient_parsing:
            if name.startswith("-"):
                self.parse_args(ctx, args)  # an option after the command name: click's error
            import difflib

            known = [*self.commands]
            for k, aliases in ruleset_listing().items():
                known += [k, *aliases]
            close = difflib.get_close_matches(name, known, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise click.UsageError(
                f"no command or ruleset {name!r}{hint} (see 'vedette --help')", ctx
            )
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(n, c.get_short_help_str(80)) for n, c in self.commands.items() if not c.hidden]
        with formatter.section("Commands"):
            formatter.write_dl(rows)
        rs_rows = [
            (
                ", ".join((*aliases, name)),
                f"its procedures: 'vedette {(aliases or (name,))[0]} help'",
            )
            for name, aliases in ruleset_listing().items()
        ]
        with formatter.section("Rulesets (vedette RULESET PROCEDURE [FIELDS] ...)"):
            formatter.write_dl(rs_rows)


@click.group(
    cls=Root,
    invoke_without_command=True,
    context_settings=CONTEXT,
    epilog="Errors print one line and exit 2. Shell completion: see the README ('Using it').",
)
@click.option(
    "--db",
    metavar="PATH",
    default=None,
    help="game database (default: $VEDETTE_DB, else vedette.sqlite3 in the user's data folder:"
    " ~/.local/share/vedette on Linux)",
)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_version,
    help="print the version and exit",
)
@click.pass_context
def cli(ctx: click.Context, db: str | None) -> None:
    """vedette: a solo wargaming referee."""
    ctx.obj = Shell(db)
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


# -- helpers --------------------------------------------------------------------------------
def parse_mod(text: str) -> Any:
    # start-up: the command line loads this only for a command that needs it
    from vedette.dice import Modifier

    value, _, reason = text.partition(":")
    try:
        v = ascii_int(value)
    except ValueError:
        raise BadRequest(f"modifier {text!r}: write VALUE:REASON, e.g. '+2:uphill'") from None
    return Modifier(v, reason or "modifier")


def custom(dice: Sequence[str]) -> Any:
    """The default custom dice plus those declared with --die NAME=FACES."""
    # start-up: the command line loads this only for a command that needs it
    from vedette.dice import custom_dice

    extra: dict[str, list[int]] = {}
    for item in dice:
        name, eq, faces = item.partition("=")
        if not eq or not name.isidentifier():
            raise BadRequest(f"--die {item!r}: write NAME=FACES, e.g. X=1,1,2,3")
        try:
            extra[name] = [ascii_int(f) for f in faces.replace(" ", "").split(",") if f]
        except ValueError:
            raise BadRequest(f"--die {item!r}: faces must be whole numbers") from None
        if not extra[name]:
            raise BadRequest(f"--die {item!r}: a die needs at least one face")
    return custom_dice(extra) if extra else None


def table_ref(ref: str, house: str | None = None) -> Any:
    # start-up: the command line loads this only for a command that needs it
    from vedette import rules
    from vedette.schemas.rules import load_house_rules

    rs_name, sep, tname = ref.partition(":")
    if not sep:
        raise BadRequest(
            f"table {ref!r}: write RULESET:TABLE ('vedette tables RULESET' lists its tables)"
        )
    rs = rules.get(rs_name)
    tables = rs.tables(load_house_rules(rs, house) if house else None)
    if tname not in tables:
        raise BadRequest(f"{rs.name} has no table {tname!r} (has: {', '.join(tables)})")
    return tables[tname]


def new_game(
    ruleset: str,
    name: str | None,
    scenario: str,
    seed: int | None,
    options: Sequence[str],
    house_rules: str | None,
    physical_dice: bool,
    as_json: bool,
) -> None:
    # start-up: the command line loads this only for a command that needs it
    from vedette import rules
    from vedette.engine import Game
    from vedette.engine.names import default_stem, free_name
    from vedette.schemas.rules import load_house_rules, load_scenario

    rs = rules.get(ruleset)
    if name and "=" in name:  # (a forgotten --option: 'new variant=draft' named a game)
        raise BadRequest(f"game name {name!r} has '=': an option is given as --option {name}")
    file = scenario.endswith(".toml")
    scen = load_scenario(rs, scenario) if file else {}
    house = load_house_rules(rs, house_rules) if house_rules else None
    opts = parse_options(rs, options)
    dice = "physical" if physical_dice else "seeded"
    with shell().store() as st:
        if not file:  # a bundled scenario, else one of yours (engine/scenarios.py)
            # start-up: the command line loads this only for a command that needs it
            from vedette.engine.scenarios import scenario_data

            scen = scenario_data(st, rs, scenario)
        name = name or free_name(st, default_stem(rs))
        g = Game.create(st, name, rs.name, scen, seed, opts, house, dice=dice, current=False)
        own = ", played with your own dice (--dice)" if physical_dice else ""
        chosen = [f"{k}={v}" for k, v in rs.physical_dice_options.items() if k not in opts]
        if physical_dice and chosen:
            own += f" ({', '.join(chosen)} for your own dice; --option KEY=VALUE to change)"
        try:  # shown before it becomes the current game: a game that cannot be shown is undone
            lines = [
                f"new {rs.name} game {g.name!r} (seed {g.seed}){own}; it is now the current"
                " game (other commands act on it unless given --game)",
                g.render(),
            ]
            data = {
                "game": g.name,
                "ruleset": rs.name,
                "seed": g.seed,
                "dice": dice,
                "options": dict(g.created.get("options", {})),
                "state": rs.state_json(g.state),
            }
        except BaseException:
            st.delete(g.name)
            raise
        st.set_setting("current_game", g.name)
        out(as_json, lines, data)


_MOD: dict[str, Any] = {"multiple": True, "metavar": "VALUE:REASON"}
_DIE: dict[str, Any] = {
    "multiple": True,
    "metavar": "NAME=FACES",
    "help": "declare a custom die, e.g. 'X=1,1,2,3' then use dX (repeatable)",
}


# -- commands -------------------------------------------------------------------------------
@cli.command("roll", short_help="roll dice: vedette roll 2d6+1")
@click.argument("expression")
@click.option("--mod", "mods", help="a modifier, e.g. '+2:uphill' (repeatable)", **_MOD)
@click.option("--table", metavar="RULESET:TABLE", help="read the result on a ruleset's table")
@click.option("--die", "dice_decl", **_DIE)
@click.option("--dice", metavar="FACES", help=DICE_HELP)
@click.option("--seed", type=SEED, help="seed of the dice stream")
@json_option
def cmd_roll(
    expression: str,
    mods: Sequence[str],
    table: str | None,
    dice_decl: Sequence[str],
    dice: str | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Roll dice (EXPRESSION: 2d6+1, d100, 1d6 vs 1d6, 2dX ...); the roll explains itself."""
    # start-up: the command line loads this only for a command that needs it
    from vedette.dice import Check, ScriptedSource, SeededSource

    modifiers = tuple(parse_mod(m) for m in mods)
    tbl = table_ref(table) if table else None
    f = parse_dice(dice)
    if f is not None:
        source: Any = ScriptedSource(f)
    else:
        # a fresh 63-bit seed (os.urandom: what secrets uses, without its imports)
        fresh = int.from_bytes(os.urandom(8), "little") >> 1
        source = SeededSource(seed if seed is not None else fresh)
    r = Check(expression, modifiers, tbl, custom=custom(dice_decl)).resolve(source)
    if f is not None:
        source.check_all_used()
    data = r.to_json()
    if f is None:
        data["seed"] = source.seed
    out(as_json, r.line(), data)


@cli.command("odds", short_help="exact odds of a roll, or of a table's rows")
@click.argument("expression", required=False)
@click.option("--mod", "mods", help="a modifier, e.g. '+2:uphill' (repeatable)", **_MOD)
@click.option("--bmod", "bmods", help="a modifier of side B of an opposed roll", **_MOD)
@click.option(
    "--table",
    metavar="RULESET:TABLE",
    help="a ruleset's table (its own dice unless an expression is given)",
)
@click.option("--under", type=ASCII_INT, help="percentile test: roll at most this figure")
@click.option("--strict", is_flag=True, help="with --under: roll strictly below")
@click.option("--reroll-draws", is_flag=True, help="opposed roll: reroll draws")
@click.option("--die", "dice_decl", **_DIE)
@json_option
def cmd_odds(
    expression: str | None,
    mods: Sequence[str],
    bmods: Sequence[str],
    table: str | None,
    under: int | None,
    strict: bool,
    reroll_draws: bool,
    dice_decl: Sequence[str],
    as_json: bool,
) -> None:
    """Exact odds, as fractions, of a roll (EXPRESSION), a table's rows or an under-roll."""
    # start-up: the command line loads this only for a command that needs it
    from vedette.dice import Check, UnderCheck

    modifiers = tuple(parse_mod(m) for m in mods)
    if under is not None:
        o = UnderCheck(under, modifiers, expression or "d100", strict, "under-roll").odds()
    else:
        tbl = table_ref(table) if table else None
        expr = expression or (tbl.dice if tbl is not None else None)
        if not expr:
            raise BadRequest("give a dice expression, or --table RULESET:TABLE")
        o = Check(
            expr,
            modifiers,
            tbl,
            tbl.title if tbl else expr,
            tbl.rule if tbl else "",
            tuple(parse_mod(m) for m in bmods),
            reroll_draws,
            custom=custom(dice_decl),
        ).odds()
    out(as_json, o.lines(), o.to_json())


@cli.command("tables", short_help="list the shipped tables of a ruleset")
@click.argument("ruleset")
@click.option("--house-rules", metavar="FILE", help="a house-rule TOML file to merge")
@json_option
def cmd_tables(ruleset: str, house_rules: str | None, as_json: bool) -> None:
    """The result tables of RULESET (with a house-rule file merged, if given)."""
    # start-up: the command line loads this only for a command that needs it
    from vedette import rules
    from vedette.schemas.rules import load_house_rules

    rs = rules.get(ruleset)
    tables = rs.tables(load_house_rules(rs, house_rules) if house_rules else None)
    lines = []
    for t in tables.values():
        lines.append(f"{rs.name}:{t.name}  {t.dice}  {t.title}  ({t.rule})")
        lines.extend(f"    {r.range_text:>6}  {r.result}" for r in t.rows)
    out(as_json, lines, [t.to_json() for t in tables.values()])


@cli.command("reference", short_help="a ruleset's quick-reference sheet: every number")
@click.argument("ruleset")
@click.option("--house-rules", metavar="FILE", help="a house-rule TOML file to merge")
@json_option
def cmd_reference(ruleset: str, house_rules: str | None, as_json: bool) -> None:
    """The quick-reference sheet of RULESET: its result tables, then every number of its rule
    data (modifiers, ranges, distances, thresholds) with the rule each cites, from the data
    the referee reads (a house-rule file merged, and its values marked, if given)."""
    # start-up: the command line loads this only for a command that needs it
    from vedette import rules
    from vedette.rules.quickref import lines as sheet_lines
    from vedette.rules.quickref import sheet
    from vedette.schemas.rules import load_house_rules

    rs = rules.get(ruleset)
    house = load_house_rules(rs, house_rules) if house_rules else None
    tables = rs.tables(house)
    text = []
    for t in tables.values():
        text.append(f"{t.title or t.name}  {t.dice}  ({t.rule})")
        text.extend(f"    {r.range_text:>6}  {r.result}" for r in t.rows)
    sections = sheet(rs, house)
    text.extend(sheet_lines(sections))
    data = {
        "ruleset": rs.name,
        "tables": [t.to_json() for t in tables.values()],
        "sections": [s.to_json() for s in sections],
    }
    out(as_json, text, data)


@cli.group(
    "game",
    short_help="games: new, list, show, log, undo, export, import, use, rename",
    invoke_without_command=True,
)
@click.pass_context
def cmd_game(ctx: click.Context) -> None:
    """Games in the database: start, list, show, log, undo, export, import, use, rename.

    NAME defaults to the current game (the last one started, imported or chosen with 'use').
    """
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())


@cmd_game.command("new")
@click.argument("name", required=False)
@click.option(
    "--ruleset", required=True, help="the ruleset, by name or alias ('vedette --help' lists them)"
)
@game_new_options
def game_new(
    name: str | None,
    ruleset: str,
    scenario: str,
    seed: int | None,
    options: Sequence[str],
    house_rules: str | None,
    physical_dice: bool,
    as_json: bool,
) -> None:
    """Start a game NAME (default: the ruleset and the next free number) from a scenario
    ('vedette RULESET new --help' lists its options)."""
    new_game(ruleset, name, scenario, seed, options, house_rules, physical_dice, as_json)


@cmd_game.command("list")
@json_option
def game_list(as_json: bool) -> None:
    """The games in the database."""
    with shell().store() as st:
        games = st.games()
        out(
            as_json,
            [f"{g.name}  {g.ruleset}  {g.events} events  {g.created}" for g in games]
            or ["no games yet"],
            [
                {"name": g.name, "ruleset": g.ruleset, "events": g.events, "created": g.created}
                for g in games
            ],
        )


@cmd_game.command("show")
@click.argument("name", required=False, shell_complete=complete_game)
@json_option
def game_show(name: str | None, as_json: bool) -> None:
    """The game as text (its map, units and phase)."""
    # start-up: the command line loads this only for a command that needs it
    from vedette.engine import Game

    with shell().store() as st:
        g = Game.open(st, name)
        history = [f"! {g.history}"] if g.history else []
        out(
            as_json,
            [*history, g.render()],
            {
                "game": g.name,
                "ruleset": g.ruleset.name,
                "state": g.ruleset.state_json(g.state),
                **({"history": g.history} if g.history else {}),
            },
        )


@cmd_game.command("log")
@click.argument("name", required=False, shell_complete=complete_game)
@json_option
def game_log(name: str | None, as_json: bool) -> None:
    """The game's log: every action with its rolls, undone ones marked."""
    # start-up: the command line loads this only for a command that needs it
    from vedette.engine import Game

    with shell().store() as st:
        g = Game.open(st, name)
        out(as_json, g.log_lines(), [r.to_json() for r in g.log()])


@cmd_game.command("undo")
@click.argument("name", required=False, shell_complete=complete_game)
@json_option
def game_undo(name: str | None, as_json: bool) -> None:
    """Undo the latest action in force (logged; its dice stay reserved for it)."""
    # start-up: the command line loads this only for a command that needs it
    from vedette.engine import Game

    with shell().store() as st:
        g = Game.open(st, name)
        rec = g.undo()
        out(as_json, f"undid #{rec.payload['undoes']} (as event #{rec.seq})", rec.to_json())


@cmd_game.command("export")
@click.argument("name", required=False, shell_complete=complete_game)
@click.option("-o", "--output", metavar="FILE", help="file to write (default: standard output)")
def game_export(name: str | None, output: str | None) -> None:
    """The game's whole log as JSON lines (import it with 'game import')."""
    # start-up: the command line loads this only for a command that needs it
    from vedette.engine import Game

    with shell().store() as st:
        text = Game.open(st, name).export_jsonl()

    try:
        if output:
            from pathlib import Path

            Path(output).write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)
            sys.stdout.flush()
    except OSError as e:
        # (nothing of the game changes: an export only reads it)
        where = output or "standard output"
        raise GameError(f"cannot write the export to {where}: {e.strerror or e}") from None


@cmd_game.command("import")
@click.argument("file")
@click.option("--name", help="the imported game's name (default: the exported one)")
def game_import(file: str, name: str | None) -> None:
    """Import a game exported with 'game export' (it must replay cleanly)."""
    # start-up: the command line loads this only for a command that needs it
    from vedette.data import read_text_file
    from vedette.engine import Game

    text = read_text_file(file, 64 * 1024 * 1024)
    with shell().store() as st:
        g = Game.import_jsonl(st, text, name)
        under = f" ({g.imported_under})" if g.imported_under else ""
        click.echo(f"imported {g.name!r}: {len(g.records)} events{under}")


@cmd_game.command("use")
@click.argument("name", shell_complete=complete_game)
def game_use(name: str) -> None:
    """Make NAME the current game."""
    # start-up: the command line loads this only for a command that needs it
    from vedette.engine import Game

    with shell().store() as st:
        Game.open(st, name)
        st.set_setting("current_game", name)
        click.echo(f"current game: {name}")


@cmd_game.command("rename")
@click.argument("old", shell_complete=complete_game)
@click.argument("new")
def game_rename(old: str, new: str) -> None:
    """Rename a game."""
    with shell().store() as st:
        st.rename(old, new)  # (the current game follows it)
        click.echo(f"renamed {old!r} to {new!r}")


@cli.command("simulate", short_help="balance study: many whole battles played by policies")
@click.argument("ruleset")
@click.option(
    "--scenario",
    default="sample",
    show_default=True,
    help="a bundled scenario name or a scenario TOML file",
)
@click.option(
    "--games", type=ASCII_INT, default=100, show_default=True, help="games (per swept value)"
)
@click.option("--seed", type=SEED, help="the study's seed: game i is determined by (seed, i)")
@click.option(
    "--policy",
    metavar="NAME[,NAME2]",
    help="who plays (one per side, in the scenario's side order): random (default), or one"
    " of the ruleset's own policies (a name it lacks is refused, listing them)",
)
@click.option(
    "--sweep",
    metavar="KNOB=A,B,C",
    help="play the study once per value of an option, a house-rule value SECTION.KEY or"
    " scenario.SECTION.KEY",
)
@click.option(
    "--workers", type=ASCII_INT, help="local worker processes (default: up to 4, the CPUs)"
)
@click.option("--scheduler", metavar="tcp://HOST:PORT", help="run on a Dask distributed cluster")
@click.option("--out", metavar="DIR", help="write result.json and the plots (SVG) there")
@click.option(
    "--csv",
    "csv_path",
    metavar="FILE",
    help="write one row per game (value, index, winner, end, how, turns, actions, losses and"
    " rolls per side) to FILE",
)
@click.option(
    "--max-actions",
    type=ASCII_INT,
    default=2000,
    show_default=True,
    help="a game still going after this many actions is counted unfinished",
)
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="a ruleset option")
@click.option(
    "--replay", type=ASCII_INT, metavar="INDEX", help="play game INDEX again (with --save)"
)
@click.option("--save", metavar="NAME", help="store the replayed game under NAME (web app)")
@click.option(
    "--keep/--no-keep",
    default=True,
    show_default=True,
    help="keep the result in the game database (the web app's /simulations)",
)
@json_option
def cmd_simulate(
    ruleset: str,
    scenario: str,
    games: int,
    seed: int | None,
    policy: str | None,
    sweep: str | None,
    workers: int | None,
    scheduler: str | None,
    out: str | None,
    max_actions: int,
    options: tuple[str, ...],
    replay: int | None,
    save: str | None,
    keep: bool,
    as_json: bool,
    csv_path: str | None = None,
) -> None:
    """Play GAMES whole battles of RULESET to their end, each determined by (seed, index), and
    report each side's win rate with a 95% interval, how the battles ended, their length and
    each side's losses (docs/simulation.md). A long study says first how long it will take.
    A simulation compares scenarios; it is not a verdict on them."""
    # start-up: the command line loads this only for a command that needs it
    from vedette.sim.cli import simulate

    simulate(
        shell().db or default_db(),
        ruleset,
        scenario,
        games,
        seed,
        policy,
        sweep,
        workers,
        scheduler,
        as_json,
        out,
        max_actions,
        options,
        replay,
        save,
        keep,
        csv_path,
    )


@cli.command("demo", short_help="play a ruleset's bundled worked example")
@json_option
def cmd_demo(as_json: bool) -> None:
    """Play the worked example of the first registered ruleset that has one (the
    ruleset's own demo) as a new game, step by step."""
    # start-up: the command line loads this only for a command that needs it
    from vedette import rules

    db = shell().db or default_db()
    for name in rules.names():
        if rules.get(name).demo(db, as_json):
            return
    raise click.ClickException("no ruleset has a demo")


@cli.command("serve", short_help="the local web app")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=AsciiIntRange(1, 65535), default=8765, show_default=True)
@click.option(
    "--no-preload", is_flag=True, help="do not create the sample games in an empty database"
)
@click.option(
    "--allow-host",
    multiple=True,
    metavar="NAME",
    help="a host name or address the app answers besides localhost (for a LAN; repeatable)",
)
@click.option(
    "--workers",
    type=AsciiIntRange(1, 64),
    default=None,
    help="server processes on the one port [default: one per core, at most 4]",
)
def cmd_serve(
    host: str, port: int, no_preload: bool, allow_host: tuple[str, ...], workers: int | None
) -> None:
    """The local web app (Ctrl-C stops it)."""
    # start-up: the command line loads this only for a command that needs it
    from vedette.web.server import serve

    serve(
        shell().db or default_db(),
        host,
        port,
        preload=not no_preload,
        allow=list(allow_host),
        workers=workers,
    )


# -- entry point ----------------------------------------------------------------------------
def _one_line(text: str) -> str:
    return error_line(text)


def _usage_error(e: click.UsageError) -> str:
    where = ""
    if e.ctx is not None and e.ctx.parent is not None:
        where = e.ctx.command_path.partition(" ")[2] + ": "
    return f"vedette: error: {where}{_one_line(e.format_message())}"


def _not_text(arg: str) -> str:
    """What is wrong with a command-line argument as text ('' if nothing): bytes that are not
    UTF-8 (Python keeps them as lone surrogates) or control characters other than newline
    and tab."""
    for ch in arg:
        if "\udc80" <= ch <= "\udcff" or "\ud800" <= ch <= "\udfff":
            return "is not valid UTF-8 text"
        if (ch < " " and ch not in "\n\t") or "\x7f" <= ch <= "\x9f":
            return f"holds a control character (U+{ord(ch):04X})"
    return ""


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``vedette`` with ``argv`` (default: the process's arguments); the exit code."""

    if argv is None:
        instruction = os.environ.get(COMPLETE_VAR)
        if instruction:
            from click.shell_completion import shell_complete

            return shell_complete(cli, {}, "vedette", COMPLETE_VAR, instruction)
    args = list(sys.argv[1:] if argv is None else argv)
    for i, arg in enumerate(args, start=1):
        bad = _not_text(arg)
        if bad:
            print(f"vedette: error: argument {i} {bad}", file=sys.stderr)
            return 2
    try:
        with cli.make_context("vedette", args) as ctx:
            cli.invoke(ctx)
    except click.exceptions.Exit as e:
        return e.exit_code
    except click.UsageError as e:
        print(_usage_error(e), file=sys.stderr)
        return 2
    except click.ClickException as e:
        print(f"vedette: error: {_one_line(e.format_message())}", file=sys.stderr)
        return e.exit_code
    except VedetteError as e:
        print(f"vedette: error: {_one_line(str(e))}", file=sys.stderr)
        return e.exit_code
    except (KeyboardInterrupt, click.Abort):
        return 130
    except BrokenPipeError:
        return 0
    except OSError as e:  # a file or the terminal (export to a directory, a full disk)
        where = f" {e.filename}" if e.filename else ""
        print(f"vedette: error: cannot write or read{where}: {e.strerror or e}", file=sys.stderr)
        return 1
    except Exception as e:
        if os.environ.get("VEDETTE_DEBUG"):
            raise
        msg = str(e).splitlines()[0] if str(e) else ""
        print(f"vedette: internal error: {type(e).__name__}: {msg}", file=sys.stderr)
        return 70
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
