"""The ``vedette`` command: a thin shell over the API.

Heavy imports (numpy, rulesets, the web app) happen inside the commands that need them so that
``vedette --help`` starts fast. Every error caused by input prints one line and exits non-zero;
no traceback (set VEDETTE_DEBUG=1 to see one for an internal error).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

RULESET_NAMES = {
    "napoleon_at_bay": ("nab",),
    "solitaire_asl": ("asl",),
    "two_by_two": ("twobytwo", "2x2"),
    "solo_napoleonic": ("solonap", "kuryakin"),
}


class CliError(Exception):
    """A usage error in the shell itself."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise CliError(f"{self.prog}: error: {message}")


def default_db() -> str:
    env = os.environ.get("VEDETTE_DB")
    if env:
        return env
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return str(Path(base) / "vedette" / "vedette.sqlite3")


def common(p: argparse.ArgumentParser, dice: bool = True, seed: bool = True) -> None:
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    if dice:
        p.add_argument(
            "--dice", help="physical dice: the faces you rolled, in order ('3 5' or 3,5)"
        )
    if seed:
        p.add_argument("--seed", type=int, help="seed of the dice stream")


def build_parser() -> Parser:
    p = Parser(prog="vedette", description="vedette: a solo wargaming referee")
    p.add_argument(
        "--db", default=None, help="game database (default: $VEDETTE_DB or ~/.local/share)"
    )
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=Parser)

    r = sub.add_parser("roll", help="roll dice: vedette roll 2d6+1")
    r.add_argument("expression")
    r.add_argument(
        "--mod",
        action="append",
        default=[],
        metavar="VALUE:REASON",
        help="a modifier, e.g. '+2:uphill' (repeatable)",
    )
    r.add_argument("--table", help="read the result on RULESET:TABLE")
    r.add_argument(
        "--die",
        action="append",
        default=[],
        metavar="NAME=FACES",
        help="declare a custom die, e.g. 'X=1,1,2,3' then roll 2dX (repeatable)",
    )
    common(r)

    o = sub.add_parser("odds", help="exact odds of a roll, or of a table's rows")
    o.add_argument("expression", nargs="?", default=None)
    o.add_argument("--mod", action="append", default=[], metavar="VALUE:REASON")
    o.add_argument(
        "--bmod",
        action="append",
        default=[],
        metavar="VALUE:REASON",
        help="a modifier of side B of an opposed roll",
    )
    o.add_argument("--table", help="RULESET:TABLE (its own dice unless an expression is given)")
    o.add_argument("--under", type=int, help="percentile test: roll at most this figure")
    o.add_argument("--strict", action="store_true", help="with --under: roll strictly below")
    o.add_argument("--reroll-draws", action="store_true", help="opposed roll: reroll draws")
    o.add_argument(
        "--die",
        action="append",
        default=[],
        metavar="NAME=FACES",
        help="declare a custom die, e.g. 'X=1,1,2,3' then use dX (repeatable)",
    )
    o.add_argument("--json", action="store_true")

    t = sub.add_parser("tables", help="list the shipped tables of a ruleset")
    t.add_argument("ruleset")
    t.add_argument("--house-rules", help="a house-rule TOML file to merge")
    t.add_argument("--json", action="store_true")

    g = sub.add_parser(
        "game", help="games: new, list, show, log, undo, export, import, use, rename"
    )
    gs = g.add_subparsers(dest="gcmd", required=True, parser_class=Parser)
    gn = gs.add_parser("new", help="start a game from a scenario")
    gn.add_argument("name")
    gn.add_argument("--ruleset", required=True)
    _new_args(gn)
    for name in ("show", "log", "undo"):
        x = gs.add_parser(name)
        x.add_argument("name", nargs="?")
        x.add_argument("--json", action="store_true")
    gl = gs.add_parser("list")
    gl.add_argument("--json", action="store_true")
    ge = gs.add_parser("export")
    ge.add_argument("name", nargs="?")
    ge.add_argument("-o", "--output", help="file to write (default: standard output)")
    gi = gs.add_parser("import")
    gi.add_argument("file")
    gi.add_argument("--name")
    gu = gs.add_parser("use")
    gu.add_argument("name")
    gr = gs.add_parser("rename")
    gr.add_argument("old")
    gr.add_argument("new")

    d = sub.add_parser("demo", help="play the bundled sample game (Napoleon At Bay example)")
    d.add_argument("--json", action="store_true")

    sv = sub.add_parser("serve", help="the local web app")
    sv.add_argument("--host", default="127.0.0.1")
    sv.add_argument("--port", type=int, default=8765)
    sv.add_argument(
        "--no-preload",
        action="store_true",
        help="do not create the sample games in an empty database",
    )

    for rs, aliases in RULESET_NAMES.items():
        x = sub.add_parser(
            rs,
            aliases=list(aliases),
            add_help=False,
            help=f"{rs} procedures ('vedette {aliases[0]} help')",
        )
        x.add_argument("procedure", nargs="?", default="help")
        x.add_argument("-h", "--help", dest="procedure", action="store_const", const="help")
        x.add_argument("args", nargs=argparse.REMAINDER)
        x.set_defaults(ruleset=rs)
    return p


def _new_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--scenario",
        default="sample",
        help="a bundled scenario name or a scenario TOML file (default: sample)",
    )
    p.add_argument("--seed", type=int)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--house-rules", help="a house-rule TOML file (merged over the shipped data)")
    p.add_argument("--json", action="store_true")


# -- helpers --------------------------------------------------------------------------------
def out(args: argparse.Namespace, text: Sequence[str] | str, data: Any) -> None:
    if getattr(args, "json", False):
        print(json.dumps(data, indent=2, default=str, ensure_ascii=False))
    else:
        print(text if isinstance(text, str) else "\n".join(text))


def parse_mod(text: str) -> Any:
    from vedette.dice import Modifier
    from vedette.errors import BadRequest

    value, _, reason = text.partition(":")
    try:
        v = int(value)
    except ValueError:
        raise BadRequest(f"modifier {text!r}: write VALUE:REASON, e.g. '+2:uphill'") from None
    return Modifier(v, reason or "modifier")


def parse_kv(items: Sequence[str]) -> dict[str, Any]:
    from vedette.errors import BadRequest
    from vedette.rules.base import parse_value

    result: dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise BadRequest(f"argument {item!r}: write KEY=VALUE")
        result[key] = parse_value(value)
    return result


def faces(args: argparse.Namespace) -> list[int] | None:
    if getattr(args, "dice", None) is None:
        return None
    from vedette.dice import parse_faces

    return parse_faces(args.dice)


def store(args: argparse.Namespace) -> Any:
    from vedette.engine import Store

    return Store(args.db or default_db())


def custom(args: argparse.Namespace) -> Any:
    """The default custom dice plus those declared with --die NAME=FACES."""
    from vedette.dice import custom_dice
    from vedette.errors import BadRequest

    extra: dict[str, list[int]] = {}
    for item in getattr(args, "die", []):
        name, eq, faces = item.partition("=")
        if not eq or not name.isidentifier():
            raise BadRequest(f"--die {item!r}: write NAME=FACES, e.g. X=1,1,2,3")
        try:
            extra[name] = [int(f) for f in faces.replace(" ", "").split(",") if f]
        except ValueError:
            raise BadRequest(f"--die {item!r}: faces must be whole numbers") from None
        if not extra[name]:
            raise BadRequest(f"--die {item!r}: a die needs at least one face")
    return custom_dice(extra) if extra else None


def table_ref(ref: str, house: str | None = None) -> Any:
    from vedette import rules
    from vedette.data import load_toml
    from vedette.errors import BadRequest

    rs_name, sep, tname = ref.partition(":")
    if not sep:
        raise BadRequest(f"table {ref!r}: write RULESET:TABLE, e.g. nab:fixing")
    rs = rules.get(rs_name)
    tables = rs.tables(load_toml(house) if house else None)
    if tname not in tables:
        raise BadRequest(f"{rs.name} has no table {tname!r} (has: {', '.join(tables)})")
    return tables[tname]


# -- commands -------------------------------------------------------------------------------
def cmd_roll(args: argparse.Namespace) -> None:
    from vedette.dice import Check, ScriptedSource, SeededSource

    mods = tuple(parse_mod(m) for m in args.mod)
    table = table_ref(args.table) if args.table else None
    f = faces(args)
    if f is not None:
        source: Any = ScriptedSource(f)
    else:
        import secrets

        seed = args.seed if args.seed is not None else secrets.randbits(63)
        source = SeededSource(seed)
    r = Check(args.expression, mods, table, custom=custom(args)).resolve(source)
    if f is not None:
        source.check_all_used()
    data = r.to_json()
    if f is None:
        data["seed"] = source.seed
    out(args, r.line(), data)


def cmd_odds(args: argparse.Namespace) -> None:
    from vedette.dice import Check, UnderCheck
    from vedette.errors import BadRequest

    mods = tuple(parse_mod(m) for m in args.mod)
    if args.under is not None:
        o = UnderCheck(
            args.under, mods, args.expression or "d100", args.strict, "under-roll"
        ).odds()
    else:
        table = table_ref(args.table) if args.table else None
        expr = args.expression or (table.dice if table is not None else None)
        if not expr:
            raise BadRequest("give a dice expression, or --table RULESET:TABLE")
        o = Check(
            expr,
            mods,
            table,
            table.title if table else expr,
            table.rule if table else "",
            tuple(parse_mod(m) for m in args.bmod),
            args.reroll_draws,
            custom=custom(args),
        ).odds()
    out(args, o.lines(), o.to_json())


def cmd_tables(args: argparse.Namespace) -> None:
    from vedette import rules
    from vedette.data import load_toml

    rs = rules.get(args.ruleset)
    tables = rs.tables(load_toml(args.house_rules) if args.house_rules else None)
    lines = []
    for t in tables.values():
        lines.append(f"{rs.name}:{t.name}  {t.dice}  {t.title}  ({t.rule})")
        lines.extend(f"    {r.range_text:>6}  {r.result}" for r in t.rows)
    out(args, lines, [t.to_json() for t in tables.values()])


def new_game(args: argparse.Namespace, ruleset: str) -> None:
    from vedette import rules
    from vedette.data import load_toml
    from vedette.engine import Game

    rs = rules.get(ruleset)
    scen = args.scenario
    scenario = load_toml(scen) if Path(scen).suffix == ".toml" else rs.scenario(scen)
    house = load_toml(args.house_rules) if args.house_rules else None
    with store(args) as st:
        g = Game.create(st, args.name, rs.name, scenario, args.seed, parse_kv(args.option), house)
        out(
            args,
            [f"new {rs.name} game {g.name!r} (seed {g.seed})", g.render()],
            {"game": g.name, "ruleset": rs.name, "seed": g.seed, "state": rs.state_json(g.state)},
        )


def cmd_game(args: argparse.Namespace) -> None:
    from vedette.engine import Game

    c = args.gcmd
    if c == "new":
        new_game(args, args.ruleset)
        return
    with store(args) as st:
        if c == "list":
            games = st.games()
            out(
                args,
                [f"{g.name}  {g.ruleset}  {g.events} events  {g.created}" for g in games]
                or ["no games yet"],
                [
                    {"name": g.name, "ruleset": g.ruleset, "events": g.events, "created": g.created}
                    for g in games
                ],
            )
        elif c == "show":
            g = Game.open(st, args.name)
            out(
                args,
                g.render(),
                {"game": g.name, "ruleset": g.ruleset.name, "state": g.ruleset.state_json(g.state)},
            )
        elif c == "log":
            g = Game.open(st, args.name)
            out(args, g.log_lines(), [r.to_json() for r in g.log()])
        elif c == "undo":
            g = Game.open(st, args.name)
            rec = g.undo()
            out(args, f"undid #{rec.payload['undoes']} (as event #{rec.seq})", rec.to_json())
        elif c == "export":
            g = Game.open(st, args.name)
            text = g.export_jsonl()
            if args.output:
                Path(args.output).write_text(text, encoding="utf-8")
            else:
                sys.stdout.write(text)
        elif c == "import":
            try:
                text = Path(args.file).read_text(encoding="utf-8")
            except OSError as e:
                from vedette.errors import GameError

                raise GameError(f"cannot read {args.file}: {e.strerror}") from None
            g = Game.import_jsonl(st, text, args.name)
            print(f"imported {g.name!r}: {len(g.records)} events")
        elif c == "use":
            Game.open(st, args.name)
            st.set_setting("current_game", args.name)
            print(f"current game: {args.name}")
        elif c == "rename":
            st.rename(args.old, args.new)
            if st.get_setting("current_game") == args.old:
                st.set_setting("current_game", args.new)
            print(f"renamed {args.old!r} to {args.new!r}")


def cmd_ruleset(args: argparse.Namespace) -> None:
    """``vedette <ruleset> <procedure> [--game G] [KEY=VALUE ...] [--dice F] [--odds]``."""
    from vedette import rules
    from vedette.engine import Game
    from vedette.errors import BadRequest

    rs = rules.get(args.ruleset)
    proc = args.procedure
    rest = list(args.args)
    if proc in ("help", "-h", "--help"):
        print(ruleset_help(rs))
        return
    if proc == "new":
        p = Parser(prog=f"vedette {rs.name} new")
        p.add_argument("name")
        _new_args(p)
        a = p.parse_args(rest)
        a.db = args.db
        new_game(a, rs.name)
        return
    if proc == "scenarios":
        print("\n".join(rs.scenarios))
        return
    p = Parser(prog=f"vedette {rs.name} {proc}")
    p.add_argument("--game", help="the game (default: the current game)")
    p.add_argument("--odds", action="store_true", help="show the exact odds only; roll nothing")
    common(p)
    p.add_argument("kv", nargs="*", metavar="KEY=VALUE")
    a = p.parse_intermixed_args(rest)
    a.db = args.db
    with store(a) as st:
        g = Game.open(st, a.game)
        if g.ruleset.name != rs.name:
            raise BadRequest(f"game {g.name!r} is a {g.ruleset.name} game, not {rs.name}")
        if proc == "show":
            out(a, g.render(), {"game": g.name, "state": rs.state_json(g.state)})
            return
        if a.seed is not None and a.seed != g.seed:
            raise BadRequest(
                f"game {g.name!r} rolls from its own stream (seed {g.seed}, set when it was"
                " created); use --dice for your own dice"
            )
        request = parse_kv(a.kv)
        if a.odds:
            odds = g.odds(proc, request)
            lines = [ln for o in odds for ln in o.lines()] or [f"{proc} rolls no dice"]
            out(a, lines, [o.to_json() for o in odds])
            return
        seq = g.next_seq
        outcome = g.perform(proc, request, faces(a))
        data = {
            "game": g.name,
            "seq": seq if not g.procedure(proc).query else None,
            **outcome.to_json(),
        }
        out(a, outcome.lines(), data)


def ruleset_help(rs: Any) -> str:
    lines = [
        f"{rs.title or rs.name}: vedette {rs.name} PROCEDURE [--game G] [KEY=VALUE ...]"
        " [--dice FACES] [--odds] [--json]",
        "  new NAME [--scenario S] [--seed N] [--option K=V] [--house-rules FILE]",
        "  scenarios     bundled scenarios",
        "  show          the game as text",
    ]
    for p in rs.procedures.values():
        rule = f" ({p.rule})" if p.rule else ""
        lines.append(f"  {p.name:<13} {p.help}{rule}")
        for prm in p.params:
            req = " (required)" if prm.required else ""
            lines.append(f"      {prm.name}={prm.kind}{req}  {prm.help}")
    return "\n".join(lines)


def cmd_demo(args: argparse.Namespace) -> None:
    from vedette.rules.napoleon_at_bay.demo import run_demo

    run_demo(args)


def cmd_serve(args: argparse.Namespace) -> None:
    from vedette.web.server import serve

    serve(args.db or default_db(), args.host, args.port, preload=not args.no_preload)


COMMANDS: dict[str, Callable[[argparse.Namespace], None]] = {
    "roll": cmd_roll,
    "odds": cmd_odds,
    "tables": cmd_tables,
    "game": cmd_game,
    "demo": cmd_demo,
    "serve": cmd_serve,
}


def main(argv: Sequence[str] | None = None) -> int:
    from vedette.errors import VedetteError

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if getattr(args, "ruleset", None) and args.cmd not in COMMANDS:
            cmd_ruleset(args)
        else:
            COMMANDS[args.cmd](args)
    except CliError as e:
        print(str(e), file=sys.stderr)
        return 2
    except VedetteError as e:
        print(f"vedette: error: {e}", file=sys.stderr)
        return e.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:
        if os.environ.get("VEDETTE_DEBUG"):
            raise
        msg = str(e).splitlines()[0] if str(e) else ""
        print(f"vedette: internal error: {type(e).__name__}: {msg}", file=sys.stderr)
        return 70
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
