"""What the pages say about options, house-rule keys, flags and code names is what the code has.

The commands of the docs run (``test_docs_commands.py``), so they cannot drift; the prose can.
These checks read the prose where it names something the code declares:

- every option a ruleset declares (its ``options_model``, what ``--option KEY=VALUE`` takes)
  is named on its player page and on its developer page, and every ``KEY=VALUE`` of an option
  that a page names (the player page, the developer page, ``--option KEY=VALUE`` anywhere in
  the docs) is one the command line accepts (a placeholder in capitals, ``N``, stands for any
  value);
- a page names a yes/no option by the value that changes the game: the value that is not its
  default (``stop_at_zoc=false`` when the default is true), and ``(default X)`` beside one
  option gives its default;
- a house-rule key a page names as ``[table] key`` is in the ruleset's data, and
  ``[table] key = value`` (the way to change a reading) is a value of the shipped value's type,
  another than the shipped one, and a house-rule file holding only it is accepted;
- every key of a ruleset's rule data (its result tables and open maps aside) is named on one of
  its pages;
- every ``--flag`` the docs name is an option of a vedette command (or of the named tool);
- a command the prose writes out (``vedette serve [--port 8765]``) exists, takes each flag given,
  and has the default given in brackets;
- a Python file the docs name is in the repository;
- an environment variable the docs name (``VEDETTE_TODO_GAMES``) is one something reads;
- a ``make`` target the docs name is one of the Makefile's;
- a knob the docs sweep (``--sweep KNOB=A,B``, docs/simulation.md's list) is one ``simulate``
  takes, values included;
- a procedure written out in a ruleset's prose (``fix moving=F1 ...``) has the fields given, a
  value of a field of choices is one of them, and any ``KEY=`` a ruleset's page gives is a field
  of one of its procedures or one of its options;
- a backticked ``module.name`` or ``Class.name`` of vedette that the prose names exists, and a
  web address it gives is a route of the app;
- a backticked identifier of the code's shape is in the code or the rule data;
- a scenario a ruleset's page shows (a ``toml`` block) starts a game;
- every event kind a ruleset folds is named on its developer page;
- docs/architecture.md's Layout lists every package and module of vedette, and its route table
  every route of the web app;
- every procedure and sequence of a ruleset is named on both its pages;
- no ``--help`` text shows the docstrings' markup.
"""

from __future__ import annotations

import ast
import contextlib
import re
import tomllib
from pathlib import Path
from typing import Any

import click
import pytest

from tests.docs.test_reading_tables import (
    DEV_SECTION,
    PLAYER_SECTION,
    ROW,
    code_exists,
    defines,
    knob_exists,
    ruleset_data,
    section,
    sources,
)
from tests.docs.test_reading_tables import (
    text as source_text,
)
from vedette import rules
from vedette.cli.common import option_fields, parse_options
from vedette.cli.main import cli
from vedette.engine import Game, Store
from vedette.errors import BadRequest, VedetteError
from vedette.schemas.rules import check_house_rules
from vedette.sim.play import Setup
from vedette.sim.run import parse_sweep

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted(p.stem for p in (ROOT / "docs/rules").glob("*.md"))
DOCS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").rglob("*.md")),
    *sorted((ROOT / "src/vedette/rules").glob("*/data/help.md")),
]

OPTION = re.compile(r"`(--option )?([a-z_]+)=([^`\s]*)`")
DEFAULT = re.compile(r"\(default ([^)]+)\)")
HOUSE_KEY = re.compile(r"`\[([\w.]+)\]\s+([\w.]+)(?:\s*=\s*([^`]+))?`")
HOUSE_TABLE = re.compile(r"`\[([\w.]+)\]`")
FLAG = re.compile(r"(?<![\w-])(--[a-z][\w-]*)")
COMMAND_OPTION = re.compile(r"vedette (\w+) .*--option ([a-z_]+)=(\S+)")

# Flags the docs name that are not vedette's, each with the tool it belongs to.
OTHER_FLAGS = {
    "--frozen": "uv sync",
    "--quick": "python -m bench",
    "--only": "bench/bench_simulate.py",
    "--base": "bench/bench_simulate.py",
    "--parquet": "named as absent (docs/simulation.md: there is no --parquet)",
}


def pages(ruleset: str) -> list[Path]:
    return [
        ROOT / "src/vedette/rules" / ruleset / "data/help.md",
        ROOT / "docs/rules" / f"{ruleset}.md",
    ]


def declared(ruleset: str) -> dict[str, Any]:
    """The ruleset's options: name -> default."""
    return {f.name: f.default for f in option_fields(rules.get(ruleset))}


def accepted(ruleset: str, key: str, value: str) -> bool:
    """Does ``--option KEY=VALUE`` pass the command line's check? ``N`` (any capital word) and
    ``a|b`` (alternatives) are the pages' placeholders."""
    if not value or re.fullmatch(r"[A-Z]+", value):
        return key in declared(ruleset)
    try:
        for one in value.split("|"):
            parse_options(rules.get(ruleset), [f"{key}={one}"])
    except BadRequest:
        return False
    return True


def option_mentions(ruleset: str) -> list[tuple[str, str, str, str]]:
    """(where, line, key, value) of every option ``KEY=VALUE`` the ruleset's pages name."""
    names = declared(ruleset)
    found = []
    for page in pages(ruleset):
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            for m in OPTION.finditer(line):
                before = line[max(0, m.start() - 12) : m.start()]
                if m.group(2) in names or m.group(1) or re.search(r"\boption\s*$", before):
                    found.append((f"{page.relative_to(ROOT)}:{n}", line, m.group(2), m.group(3)))
    return found


def test_the_checks_can_fail() -> None:
    assert accepted("napoleon_at_bay", "stop_at_zoc", "false")
    assert accepted("napoleon_at_bay", "vedette_strength", "N")
    assert not accepted("napoleon_at_bay", "stop_at_zoc", "maybe")
    assert not accepted("napoleon_at_bay", "no_such_option", "true")
    assert not accepted("napoleon_at_bay", "variant", "final|third")
    assert house_change_problem("napoleon_at_bay", "fixing", "mp_limit", "60")  # the default
    assert house_change_problem("napoleon_at_bay", "fixing", "mp_limit", '"far"')  # a type
    assert house_change_problem("napoleon_at_bay", "fixing", "no_such_key", "1")
    assert house_change_problem("napoleon_at_bay", "fixing", "mp_limit", "40") is None
    assert isinstance(prose_command(["nab", "no_such_procedure"]), str)
    assert not isinstance(prose_command(["nab", "fix", "F1", "--odds"]), str)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_option_is_on_both_pages_and_every_option_named_exists(ruleset: str) -> None:
    player = pages(ruleset)[0].read_text(encoding="utf-8")
    unnamed = [k for k in declared(ruleset) if not re.search(rf"`(--option )?{k}=", player)]
    assert not unnamed, f"{ruleset}: options its player page does not name: {unnamed}"
    dev = pages(ruleset)[1].read_text(encoding="utf-8")
    unnamed = [k for k in declared(ruleset) if not re.search(rf"`[^`\n]*\b{k}\b[^`\n]*`", dev)]
    assert not unnamed, f"{ruleset}: options its developer page does not name: {unnamed}"
    wrong = [
        f"{where}: {key}={value}"
        for where, _, key, value in option_mentions(ruleset)
        if not accepted(ruleset, key, value)
    ]
    assert not wrong, f"{ruleset}: options the command line refuses: {wrong}"


def test_a_yes_no_option_is_named_by_the_value_that_changes_the_game() -> None:
    wrong, checked = [], 0
    for ruleset in RULESETS:
        defaults = declared(ruleset)
        for where, line, key, value in option_mentions(ruleset):
            default = defaults.get(key)
            if isinstance(default, bool) and value in ("true", "false"):
                checked += 1
                if (value == "true") == default:
                    wrong.append(f"{where}: {key}={value} is the default")
            stated = DEFAULT.findall(line)
            if len(stated) == 1 and len({k for k in OPTION.findall(line)}) == 1:
                checked += 1
                shown = str(default).lower() if isinstance(default, bool) else str(default)
                if stated[0].strip() != shown:
                    wrong.append(f"{where}: {key}: '(default {stated[0]})', the code's is {shown}")
    assert checked, "no yes/no option or stated default found on the pages"
    assert not wrong, wrong


def test_every_option_a_doc_gives_on_a_command_line_exists() -> None:
    wrong = []
    for doc in DOCS:
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for m in COMMAND_OPTION.finditer(line):
                try:
                    rs = rules.get(m.group(1))
                except VedetteError:
                    continue  # `vedette simulate ... --option`: the ruleset is further on
                if not accepted(rs.name, m.group(2), m.group(3).strip("`")):
                    wrong.append(f"{doc.relative_to(ROOT)}:{n}: {m.group(0)}")
    assert not wrong, wrong


def house_change_problem(ruleset: str, table: str, key: str, text: str) -> str | None:
    """What is wrong with ``[table] key = text`` offered as a way to change a reading, or None."""
    shipped: Any = ruleset_data(ruleset)
    for part in [*table.split("."), *key.split(".")]:
        shipped = shipped.get(part) if isinstance(shipped, dict) else None
    if shipped is None:
        return "no such key in the ruleset's data"
    value = tomllib.loads(f"x = {text}")["x"]
    if type(value) is not type(shipped) and not (
        isinstance(value, int | float) and isinstance(shipped, int | float)
    ):
        return f"{value!r} is not of the shipped value's type ({shipped!r})"
    if value == shipped:
        return f"{value!r} is the shipped value"
    tree: dict[str, Any] = {}
    here = tree
    for part in [*table.split("."), *key.split(".")[:-1]]:
        here = here.setdefault(part, {})
    here[key.split(".")[-1]] = value
    try:
        check_house_rules(rules.get(ruleset), tree, "house rule")
    except VedetteError as e:
        return f"refused: {e}"
    return None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_house_rule_key_a_page_names_exists_and_a_change_changes_it(ruleset: str) -> None:
    data = ruleset_data(ruleset)
    wrong = []
    for page in pages(ruleset):
        text = page.read_text(encoding="utf-8")
        for n, line in enumerate(text.splitlines(), 1):
            for m in HOUSE_KEY.finditer(line):
                table, key, value = m.groups()
                if value is None:
                    ok = knob_exists(data, table, key)
                    problem = None if ok else "no such key in the ruleset's data"
                else:
                    problem = house_change_problem(ruleset, table, key, value.strip())
                if problem:
                    wrong.append(f"{page.relative_to(ROOT)}:{n}: {m.group(0)}: {problem}")
    player = pages(ruleset)[0].read_text(encoding="utf-8")
    for line in section(player, PLAYER_SECTION).splitlines():
        if ROW.match(line):
            change = line.strip().strip("|").split("|")[-1]
            for table in HOUSE_TABLE.findall(change):
                if not knob_exists(data, table, None):
                    wrong.append(
                        f"{ruleset} help.md reading {line.split('|')[1].strip()}: [{table}]"
                    )
    assert not wrong, f"{ruleset}: {wrong}"


def data_keys(tree: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The path of every value of a rule-data tree (a table's keys, its sub-tables' keys ...)."""
    out: list[tuple[str, ...]] = []
    for key, value in tree.items():
        out += data_keys(value, (*path, key)) if isinstance(value, dict) else [(*path, key)]
    return out


def unnamed_keys(ruleset: str, texts: list[str]) -> list[str]:
    """The keys of the ruleset's rule data that the texts do not name: a key is named in
    backticks (``[melee] light_vs_cavalry``, ``light_vs_cavalry``), or its table (or one it is
    in) is named (``[melee]``) and the key is read there in words ("column of attack").
    Result tables (``tables.*``, checked whole by their own schema) and the open maps of
    entries a house rule may add to (2 by 2's unit types) are left out."""
    named: set[str] = set()
    tables: set[str] = set()
    for text in texts:
        for span in re.findall(r"`([^`]+)`", text):
            named |= set(re.findall(r"\w+", span))
            tables |= set(re.findall(r"\[([\w.*]+)\]", span))
    prose = " ".join(" ".join(texts).lower().split())
    skip = ("tables", *rules.get(ruleset).house_rule_open_maps)
    unnamed = []
    for path in data_keys(ruleset_data(ruleset)):
        if path[0] in skip or path[-1] in named:
            continue
        table = ".".join(path[:-1])
        in_table = any(
            re.fullmatch(re.escape(t).replace(r"\*", r"[^.]+") + r"(\..+)?", table) for t in tables
        )
        if not (in_table and path[-1].replace("_", " ").lower() in prose):
            unnamed.append(".".join(path))
    return unnamed


def test_unnamed_keys_can_fail() -> None:
    text = "Modifiers (`[melee]`): guards +1; column of attack +1."
    unnamed = unnamed_keys("two_by_two", [text])
    assert "melee.guards" not in unnamed and "melee.column_of_attack" not in unnamed
    assert "melee.road_column" in unnamed and "rally.elite" in unnamed
    assert "melee.road_column" not in unnamed_keys("two_by_two", [text + " `road_column`"])
    assert not [k for k in unnamed if k.startswith(("tables.", "units."))]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_key_of_the_rule_data_is_named_on_a_page(ruleset: str) -> None:
    """Every number, switch and text of the ruleset's rule data is a house rule's to change:
    a player or developer who reads the ruleset's two pages finds each key (a key added to
    ``rules.toml`` is documented with it; a key renamed leaves no page behind, as the test
    above holds every key a page names to the data)."""
    texts = [
        line for page in pages(ruleset) for line in page.read_text(encoding="utf-8").splitlines()
    ]
    unnamed = unnamed_keys(ruleset, texts)
    assert not unnamed, f"{ruleset}: rule-data keys neither of its pages names: {unnamed}"


# How the pages may word a small default in prose ("one test a card", "half its units").
NUMBER_WORDS = {0.5: ("half", "½"), 1: ("one", "once"), 2: ("two", "twice"), 3: ("three",)}


def option_key_lines(page: Path, key: str) -> list[tuple[int, str, bool]]:
    """(line number, line, whether it gives the key another value) of each line of the page
    naming a key of the ``[options]`` table: ``[options] key``, ``options.key``, or a bare
    ``key`` on a line that names ``[options]``."""
    found = []
    for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        named = re.findall(rf"`(?:\[options\]\s+|options\.)({key})\b(\s*=[^`]*)?`", line)
        if "[options]" in line:
            named += re.findall(rf"`({key})\b(\s*=[^`]*)?`", line)
        if named:
            found.append((n, line, all(value for _, value in named)))
    return found


def states_number(line: str, value: float) -> bool:
    shown = f"{value:g}"
    words = NUMBER_WORDS.get(value, ())
    return bool(re.search(rf"(?<![\d.]){re.escape(shown)}(?!\d)", line.replace(",", ""))) or any(
        re.search(rf"(?i)\b{w}\b" if w.isalpha() else re.escape(w), line) for w in words
    )


def test_states_number_can_fail() -> None:
    assert states_number("a unit beyond 150mm of its brigadier", 150)
    assert states_number("One, whatever its result", 1)
    assert not states_number("a unit beyond 1500mm of its brigadier", 150)
    assert not states_number("every unit", 1)


def test_every_key_of_an_options_table_is_on_a_page_with_its_number() -> None:
    """A ruleset's ``[options]`` table (rules.toml: the switches of its readings and the
    numbers of the text it keeps apart) is for a house rule to change: each key is named on the
    player's or the developer's page, and a line naming a number's key without giving it another
    value states the number the game plays with (``control_range_mm`` beside "150mm"); the
    developer page's reading table points at code (the player page words the reading), so its
    rows need not."""
    unnamed, unstated, checked = [], [], 0
    for ruleset in RULESETS:
        dev = pages(ruleset)[1]
        readings = set(section(dev.read_text(encoding="utf-8"), DEV_SECTION).splitlines())
        for key, value in ruleset_data(ruleset).get("options", {}).items():
            checked += 1
            lines = [(pg, *found) for pg in pages(ruleset) for found in option_key_lines(pg, key)]
            if not lines:
                unnamed.append(f"{ruleset} {key}")
            if isinstance(value, int | float) and not isinstance(value, bool):
                unstated += [
                    f"{page.relative_to(ROOT)}:{n}: {key} (the data's {value})"
                    for page, n, line, changed in lines
                    if not changed and line not in readings and not states_number(line, value)
                ]
    assert checked > 20, f"only {checked} [options] keys found: is rules.toml still read?"
    assert not unnamed, f"[options] keys neither of the ruleset's pages names: {unnamed}"
    assert not unstated, f"lines naming an [options] number without it: {unstated}"


def vedette_flags() -> set[str]:
    """Every option of every vedette command (ruleset groups and their procedures included)."""
    flags: set[str] = set()

    def walk(cmd: click.Command, ctx: click.Context) -> None:
        for p in cmd.get_params(ctx):
            flags.update(p.opts, p.secondary_opts)
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                if sub is not None:
                    walk(sub, click.Context(sub, info_name=name, parent=ctx))

    walk(cli, click.Context(cli, info_name="vedette"))
    return flags


def test_every_flag_the_docs_name_is_an_option_of_a_command() -> None:
    flags = vedette_flags()
    assert {"--seed", "--house-rules", "--odds", "--sweep"} <= flags
    for flag, tool in OTHER_FLAGS.items():
        assert flag not in flags, f"{flag} is vedette's now: take it out of OTHER_FLAGS ({tool})"
        where = tool.split()[0]
        if where.endswith(".py"):
            assert flag in (ROOT / where).read_text(encoding="utf-8"), f"{where} has no {flag}"
    unknown = [
        f"{doc.relative_to(ROOT)}:{n}: {m.group(1)}"
        for doc in DOCS
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1)
        for m in FLAG.finditer(line)
        if m.group(1) not in flags and m.group(1) not in OTHER_FLAGS
    ]
    assert not unknown, f"flags the docs name that no command has: {unknown}"


def prose_command(words: list[str]) -> tuple[click.Command, click.Context] | str:
    """The vedette command a prose ``vedette w1 w2 ...`` names (walking its sub-commands up to
    the first flag, field, placeholder or argument), or why it names none."""
    ctx = click.Context(cli, info_name="vedette")
    cmd: click.Command = cli
    for word in words:
        if not isinstance(cmd, click.Group) or re.match(r"[-\[<]|\.\.\.|[A-Z]+$|\w+=", word):
            break
        sub = cmd.get_command(ctx, word)
        if sub is None:
            return f"no command {word!r} under '{ctx.command_path}'"
        ctx = click.Context(sub, info_name=word, parent=ctx)
        cmd = sub
    return cmd, ctx


def test_a_command_the_prose_writes_out_exists_and_takes_the_flags_given() -> None:
    """`vedette serve [--port 8765]`, `vedette nab fix F1 R1 --odds`: outside the command blocks
    (which run), a command the prose writes out is one vedette has, and each ``--flag`` given
    is one of that command's own options (not only of some other command), with the default
    its ``--help`` shows where the prose gives one in brackets (``[--port 8765]``)."""
    wrong, checked = [], 0
    for doc in DOCS:
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for span in re.findall(r"`vedette ([^`]+)`", line):
                words = span.split()
                if words[:1] == ["--db"]:
                    words = words[2:]
                if words[:1] == ["toy"]:
                    continue  # docs/architecture.md's worked example: examples/toy, tests only
                found = prose_command(words)
                checked += 1
                if isinstance(found, str):
                    wrong.append(f"{doc.relative_to(ROOT)}:{n}: `vedette {span}`: {found}")
                    continue
                cmd, ctx = found
                params = {o: p for p in cmd.get_params(ctx) for o in [*p.opts, *p.secondary_opts]}
                for flag in FLAG.findall(span):
                    if flag not in params and flag != "--db":
                        wrong.append(f"{doc.relative_to(ROOT)}:{n}: {ctx.command_path}: {flag}")
                for flag, value in re.findall(r"\[(--[a-z][\w-]*) ([^\]\s]+)\]", span):
                    default = getattr(params.get(flag), "default", None)
                    if flag in params and not value.isupper() and str(default) != value:
                        wrong.append(
                            f"{doc.relative_to(ROOT)}:{n}: {ctx.command_path} [{flag} {value}]:"
                            f" its default is {default}"
                        )
    assert checked > 30, f"only {checked} commands found in the prose: is the pattern right?"
    assert not wrong, f"commands or flags the prose gives that vedette lacks: {wrong}"


def test_no_help_text_shows_the_sources_markup_or_a_flag_no_command_has() -> None:
    """A command's ``--help`` is written for players: no reST of the docstrings (``x``,
    :func:) leaks into it, every ``--flag`` it names is an option of a command, and what it says
    is listed below is."""
    leaks = []
    flags = vedette_flags()

    def walk(cmd: click.Command, ctx: click.Context) -> None:
        text = cmd.get_help(ctx)
        if re.search(r"``|:(func|data|class|meth):", text):
            leaks.append(ctx.command_path)
        leaks.extend(f"{ctx.command_path}: {f}" for f in FLAG.findall(text) if f not in flags)
        if "listed below" in text and "Options of " not in text:
            leaks.append(f"{ctx.command_path}: says its options are listed below; none are")
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(ctx):
                sub = cmd.get_command(ctx, name)
                if sub is not None:
                    walk(sub, click.Context(sub, info_name=name, parent=ctx))

    walk(cli, click.Context(cli, info_name="vedette"))
    assert not leaks, f"--help texts with source markup: {leaks}"


def data_values(tree: Any, key: str) -> list[Any]:
    """Every value of ``key`` anywhere in a rule-data tree."""
    if not isinstance(tree, dict):
        return []
    return [v for k, v in tree.items() if k == key] + [
        found for v in tree.values() for found in data_values(v, key)
    ]


def test_an_option_held_in_the_rule_data_too_has_the_same_default_in_both() -> None:
    """``new --help`` shows an option's declared default; a game without the option reads the
    rule data's value of the same key (a house rule may set it): the two must agree."""
    wrong, checked = {}, 0
    for ruleset in RULESETS:
        data = ruleset_data(ruleset)
        for key, default in declared(ruleset).items():
            values = [v for v in data_values(data, key) if not isinstance(v, dict)]
            checked += len(values)
            if any(v != default for v in values):
                wrong[f"{ruleset} {key}"] = (default, values)
    assert checked, "no option is held in the rule data"
    assert not wrong, f"option default against the data's value: {wrong}"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_procedure_the_pages_write_out_takes_the_fields_they_give_it(ruleset: str) -> None:
    """Prose (outside the command blocks, which run) writes procedures as `fix moving=F1 ...`,
    `vedette nab fix ...` or "`array=` on `fix`": each ``KEY=`` is a field of that procedure
    (or sequence), and a value given to a field of choices is one of them."""
    rs = rules.get(ruleset)
    fields = {name: {p.name for p in proc.params} for name, proc in rs.procedures.items()}
    fields.update({name: {p.name for p in s.params} for name, s in rs.sequences().items()})
    choices = {
        name: {p.name: p.choices for p in proc.params}
        for name, proc in [*rs.procedures.items(), *rs.sequences().items()]
    }
    wrong, checked = [], 0
    for page in pages(ruleset):
        block = False
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("```"):
                block = not block
                continue
            for key, name in [] if block else re.findall(r"`([a-z_]+)=[^`]*` on `(\w+)`", line):
                checked += 1
                if key not in fields.get(name, ()):
                    wrong.append(f"{page.name}:{n}: {key}= on {name}")
            for text in [] if block else re.findall(r"`([^`]+)`", line):
                text = re.sub(r"^vedette\s+\S+\s+", "", text)
                words = text.split()
                if not words or words[0] not in fields:
                    continue
                for key, value in re.findall(r"(?:^|[\s\[])([a-z_]+)=([^\s\]]*)", text):
                    checked += 1
                    if key not in fields[words[0]]:
                        wrong.append(f"{page.name}:{n}: {words[0]} {key}=")
                        continue
                    allowed = choices[words[0]].get(key, ())
                    wrong += [
                        f"{page.name}:{n}: {words[0]} {key}={one} (not one of {allowed})"
                        for one in value.replace("\\|", "|").strip("'\"").split("|")
                        if allowed and one and not one.isupper() and one not in allowed
                    ]
    assert checked, f"{ruleset}: no procedure with fields written out in prose"
    assert not wrong, f"{ruleset}: fields the procedure does not have or take so: {wrong}"


# Dotted names the prose gives that are not to be found, each with why.
GONE = {"base.Procedure": "docs/architecture.md says the older way is gone"}


def dotted_name_exists(ruleset: str | None, name: str) -> bool:
    """``module.function``, ``Class.attribute`` or ``package.module.Name`` in vedette (the
    ruleset's package first), or ``section.key`` of the ruleset's data."""
    parts = name.split(".")
    for rs in [ruleset] if ruleset else RULESETS:
        if code_exists(rs, name) or knob_exists(ruleset_data(rs), parts[0], ".".join(parts[1:])):
            return True
    module = ROOT / "src/vedette" / Path(*parts[:-1]).with_suffix(".py")
    return module.exists() and defines(module, parts[-1])


def test_every_module_or_class_member_the_prose_names_exists() -> None:
    """A backticked ``x.y`` whose head is a vedette module or class names code that exists
    (a function renamed or moved leaves the prose behind)."""
    everything = sources(RULESETS[0])[1]
    heads = {p.stem for p in everything} - {"__init__"}
    heads |= {c for p in everything for c in re.findall(r"^class (\w+)", source_text(p), re.M)}
    missing, checked = [], 0
    for page in DOCS:
        ruleset = next((rs for rs in RULESETS if rs in page.parts or page.stem == rs), None)
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            for name in re.findall(r"`([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(?:\(\))?`", line):
                parts = name.split(".")
                if parts[-1] in ("py", "toml", "md", "json", "jsonl") or parts[0] not in heads:
                    continue
                checked += 1
                if name not in GONE and not dotted_name_exists(ruleset, name):
                    missing.append(f"{page.relative_to(ROOT)}:{n}: {name}")
    assert checked > 100, f"only {checked} names checked: is the pattern still right?"
    assert not missing, f"names the code lacks: {missing}"


def web_routes() -> set[tuple[str, str]]:
    """(method, path template) of every route the web app's modules declare."""
    found = set()
    for module in sorted((ROOT / "src/vedette/web").glob("*.py")):
        source = module.read_text(encoding="utf-8")
        for method, path in re.findall(r"@\w+\.(get|post)\(\s*\"([^\"]+)\"", source):
            found.add((method.upper(), path))
    return found


def test_every_web_address_the_docs_give_is_a_route() -> None:
    """`/help/RULESET`, `GET /api/games/{name}/sequences` ...: a page or endpoint the docs send
    a reader to exists (NAME, RULESET, ID and ``{x}`` stand for any one part; a bundled
    ruleset's name for RULESET)."""
    routes = web_routes()
    assert ("GET", "/help/{ruleset}") in routes
    missing = []
    for doc in DOCS:
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for method, path in re.findall(r"`(?:(GET|POST) )?(/[^`\s]*)`", line):
                if path.startswith(("/dev/", "/tmp/")):
                    continue
                parts = path.split("?")[0].strip("/").split("/")
                if not any(
                    (not method or method == m)
                    and len(t.strip("/").split("/")) == len(parts)
                    and all(
                        a == b or b.startswith("{")
                        for a, b in zip(parts, t.strip("/").split("/"), strict=True)
                    )
                    for m, t in routes
                ):
                    missing.append(f"{doc.relative_to(ROOT)}:{n}: {method} {path}".strip())
    assert not missing, f"addresses no route answers: {missing}"


def test_every_route_is_in_the_architecture_pages_table() -> None:
    """docs/architecture.md's "The web app's routes" lists every address the app answers, each
    with its method and module (a route added is placed there for the next reader; one removed
    leaves no row behind)."""
    page = (ROOT / "docs/architecture.md").read_text(encoding="utf-8")
    table = section(page, "## The web app's routes")
    listed = {
        (m.group(1), m.group(2), m.group(3))
        for m in re.finditer(r"^\| `(GET|POST) (/[^`]*)` \| `(\w+)\.py` \|", table, re.M)
    }
    declared = set()
    for module in sorted((ROOT / "src/vedette/web").glob("*.py")):
        source = module.read_text(encoding="utf-8")
        for method, path in re.findall(r"@\w+\.(get|post)\(\s*\"([^\"]+)\"", source):
            declared.add((method.upper(), path, module.stem))
    assert len(declared) > 30, "is the pattern still right?"
    assert declared - listed == set(), f"routes the table lacks: {sorted(declared - listed)}"
    assert listed - declared == set(), f"rows no route answers: {sorted(listed - declared)}"


def test_every_identifier_the_prose_names_is_in_the_code_or_data() -> None:
    """A backticked identifier of the code's shape (``snake_case`` or ``camelCase``, four
    letters or more) names something the sources, tests, benches, examples or rule data
    define or use: a function renamed leaves no stale name in the prose."""
    files = [
        *ROOT.glob("src/**/*.py"),
        *ROOT.glob("src/**/*.toml"),
        *ROOT.glob("examples/**/*.py"),
        *ROOT.glob("tests/**/*.py"),
        *ROOT.glob("bench/*.py"),
    ]
    words = set(re.findall(r"\w+", "\n".join(f.read_text(encoding="utf-8") for f in files)))
    missing = [
        f"{doc.relative_to(ROOT)}:{n}: {name}"
        for doc in DOCS
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1)
        for name in re.findall(r"`([A-Za-z_]\w*)(?:\(\))?`", line)
        if len(name) >= 4 and ("_" in name or re.search(r"[a-z][A-Z]", name)) and name not in words
    ]
    assert not missing, f"names the code does not have: {missing}"


def test_every_python_file_the_docs_name_is_in_the_repository() -> None:
    """`bench/bench_nab.py`, `fixing.py`, `tests/conftest.py`: a Python file the docs name (by
    its path or its name alone) is one a reader finds in the repository, not a tool that lived
    outside it or a module since renamed."""
    present = [
        p.relative_to(ROOT).as_posix()
        for p in ROOT.rglob("*.py")
        if not {".venv", ".git", "node_modules"} & set(p.parts)
    ]
    missing = [
        f"{doc.relative_to(ROOT)}:{n}: {name}"
        for doc in DOCS
        for n, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1)
        for name in re.findall(r"(?<![\w/.-])((?:[\w.-]+/)*\w+\.py)\b", line)
        if not any(p == name or p.endswith("/" + name) for p in present)
    ]
    assert not missing, f"Python files the docs name that the repository lacks: {missing}"


def test_every_environment_variable_the_docs_name_is_read() -> None:
    """`VEDETTE_DB`, `VEDETTE_TODO_GAMES=N`, `VEDETTE_FUZZ_LONG=1` ...: a variable the docs tell
    a reader to set is one the code, the tests, the benches or the CI scripts read (a variable
    renamed leaves no dead advice behind)."""
    readers = [
        *ROOT.glob("src/**/*.py"),
        *ROOT.glob("tests/**/*.py"),
        *ROOT.glob("bench/*.py"),
        *ROOT.glob(".ci/*"),
        ROOT / "Makefile",
    ]
    variable = re.compile(r"(?<![A-Z_])_?VEDETTE_[A-Z]+(?:_[A-Z]+)*")
    read = set(variable.findall("\n".join(p.read_text("utf-8") for p in readers)))
    named = {
        (doc.relative_to(ROOT).as_posix(), name)
        for doc in DOCS
        for name in variable.findall(doc.read_text("utf-8"))
    }
    assert len(named) > 10, f"only {named}: is the pattern still right?"
    missing = sorted(f"{doc}: {name}" for doc, name in named if name not in read)
    assert not missing, f"environment variables the docs name that nothing reads: {missing}"


def test_every_make_target_the_docs_name_is_in_the_makefile() -> None:
    """`make run`, `make bench-quick` ...: a target the docs name is one of the Makefile's."""
    targets = set(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text("utf-8"), re.M))
    named = {
        (doc.relative_to(ROOT).as_posix(), name)
        for doc in DOCS
        for name in re.findall(r"(?:`|^)make ([a-z][\w-]*)", doc.read_text("utf-8"), re.M)
    }
    assert {"run", "test"} <= {name for _, name in named}, "is the pattern still right?"
    missing = sorted(f"{doc}: make {name}" for doc, name in named if name not in targets)
    assert not missing, f"make targets the docs name that the Makefile lacks: {missing}"


def test_every_knob_the_docs_sweep_is_one_simulate_takes() -> None:
    """`--sweep battle_end.max_turns=6,12`, and the knobs docs/simulation.md lists to sweep
    (`rally.elite=0,1,2`, `officers=false,true` ...): each, values included, is taken by
    `simulate --sweep` for one ruleset at least (its sample scenario), as the study would
    take it."""
    page = (ROOT / "docs/simulation.md").read_text(encoding="utf-8")
    knobs = section(page, "## Knobs to sweep")
    mentions = set(re.findall(r"`([a-z_][\w.]*=[^`\s]+)`", knobs))
    mentions |= {
        m for doc in DOCS for m in re.findall(r"--sweep ([a-z_][\w.]*=[^`\s]+)", doc.read_text())
    }
    setups = [Setup(rs, rules.get(rs).scenario("sample")) for rs in RULESETS]
    wrong = []
    for text in sorted(mentions):
        ok = False
        for setup in setups:
            with contextlib.suppress(VedetteError):
                parse_sweep(setup, text)
                ok = True
        if not ok:
            wrong.append(text)
    assert len(mentions) >= 5, f"only {sorted(mentions)}: is the pattern still right?"
    assert not wrong, f"knobs the docs sweep that no ruleset's study takes: {wrong}"


def test_a_scenario_a_page_shows_starts_a_game() -> None:
    """A ``toml`` block on a ruleset's pages is a scenario written out for players to copy:
    the ruleset takes it as it stands and a game starts from it."""
    blocks = [
        (ruleset, page, block)
        for ruleset in RULESETS
        for page in pages(ruleset)
        for block in re.findall(r"```toml\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    ]
    assert blocks, "no scenario shown on the rulesets' pages"
    for ruleset, page, block in blocks:
        game = Game.create(Store(":memory:"), "shown", ruleset, tomllib.loads(block), seed=1)
        assert game.todo(), f"{page.relative_to(ROOT)}: its scenario offers nothing to do"


def test_every_event_kind_is_named_on_its_developer_page() -> None:
    """A saved game is its events: the developer page names every kind its ruleset folds, so
    a kind added (or renamed) is told where the log's readers look."""
    unnamed = []
    for ruleset in RULESETS:
        page = pages(ruleset)[1].read_text(encoding="utf-8")
        kinds = {kind for e in rules.get(ruleset).events if (kind := getattr(e, "kind", None))}
        assert kinds, f"{ruleset}: no event kinds"
        unnamed += [f"{ruleset}: {k}" for k in sorted(kinds) if f"`{k}`" not in page]
    assert not unnamed, f"event kinds their developer page does not name: {unnamed}"


def test_every_procedure_and_sequence_is_on_both_pages() -> None:
    """A player finds every procedure and sequence of the ruleset on its page (`vedette
    RULESET help` lists them; the page says what they are for), and so does a developer."""
    unnamed = []
    for ruleset in RULESETS:
        rs = rules.get(ruleset)
        names = [*rs.procedures, *rs.sequences()]
        for page in pages(ruleset):
            said = page.read_text(encoding="utf-8")
            unnamed += [
                f"{page.relative_to(ROOT)}: {name}"
                for name in names
                if not re.search(rf"`{name}\b|vedette \S+ (chances )?{name}\b", said)
            ]
    assert not unnamed, f"procedures or sequences a page does not name: {unnamed}"


def test_the_readme_lists_every_bundled_ruleset_with_a_command_that_names_it() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = [
        line for line in readme.splitlines() if line.startswith("| ") and "docs/rules/" in line
    ]
    listed = {m for line in table for m in re.findall(r"docs/rules/(\w+)\.md", line)}
    assert listed == set(rules.BUILTIN) == set(RULESETS)
    for line in table:
        name = re.findall(r"docs/rules/(\w+)\.md", line)[0]
        command = re.findall(r"`vedette (\w+)`", line)
        assert command and rules.canonical(command[0]) == name, line


def test_the_readme_lists_every_bench() -> None:
    """The README's list of benches (what each measures, against what) names every
    ``bench/bench_*.py`` that ``make bench`` runs, and no other."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("Every bench prints ratios")
    listed = set(re.findall(r"`(bench_\w+)\.py`", readme[start : readme.index("\n## ", start)]))
    present = {p.stem for p in (ROOT / "bench").glob("bench_*.py")}
    assert present, "no bench found"
    assert present - listed == set(), f"benches the README does not list: {present - listed}"
    assert listed - present == set(), f"benches the README lists that are gone: {listed - present}"


def keyword_parameters(ruleset: str) -> set[str]:
    """The keyword parameters of the functions of the ruleset's package (a developer page may
    name one, bare: ``entering=``)."""
    names: set[str] = set()
    for path in sources(ruleset)[0]:
        for node in ast.walk(ast.parse(source_text(path))):
            if isinstance(node, ast.FunctionDef):
                every = [*node.args.args, *node.args.kwonlyargs]
                names |= {a.arg for a in every}
    return names


def test_every_key_a_ruleset_page_writes_as_key_equals_is_a_field_or_an_option() -> None:
    """`hold=true`, `caught=N`, `array=`: whatever procedure it belongs to, a ``KEY=`` a page
    gives is a field of one of the ruleset's procedures or sequences, or one of its options (a
    bare ``KEY=`` on the developer page may also be a keyword of the package's functions)."""
    unknown, checked = [], 0
    for ruleset in RULESETS:
        rs = rules.get(ruleset)
        known = set(declared(ruleset))
        for proc in [*rs.procedures.values(), *rs.sequences().values()]:
            known |= {p.name for p in proc.params}
        keywords = keyword_parameters(ruleset)
        for page in pages(ruleset):
            developers = page == pages(ruleset)[1]
            for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
                for key, value in re.findall(r"`(?:--option )?([a-z_]+)=([^`]*)`", line):
                    checked += 1
                    if key not in known and not (developers and not value and key in keywords):
                        unknown.append(f"{page.relative_to(ROOT)}:{n}: {key}=")
    assert checked > 50, f"only {checked} keys found: is the pattern still right?"
    assert not unknown, f"keys no procedure or option of the ruleset has: {unknown}"


def test_every_module_of_a_ruleset_is_named_on_its_developer_page() -> None:
    """A ruleset's developer page says where each rule lives: it names every module of the
    package (``fixing.py``), but for the modules every ruleset has, which docs/architecture.md's
    "The package shape" describes once (a module added is placed for the next reader)."""
    page = (ROOT / "docs/architecture.md").read_text(encoding="utf-8")
    shape = section(
        page.replace("### The package shape", "## The package shape"), "## The package shape"
    )
    common = set(re.findall(r"`(\w+)\.py`", shape.split("| anything else |")[0]))
    assert {"ruleset", "model", "board"} <= common, "the package shape table is not read"
    unnamed = []
    for ruleset in RULESETS:
        dev = pages(ruleset)[1].read_text(encoding="utf-8")
        for module in sorted((ROOT / "src/vedette/rules" / ruleset).glob("*.py")):
            named = re.search(rf"`(?:[\w/]+/)?{re.escape(module.name)}`", dev)
            if module.stem not in common and not named:
                unnamed.append(f"{ruleset}/{module.name}")
    assert not unnamed, f"modules their ruleset's developer page does not name: {unnamed}"


def test_the_architecture_layout_names_every_package_and_module_of_vedette() -> None:
    """docs/architecture.md's Layout block lists every sub-package and module of ``vedette``
    (a package added is placed there for the next reader)."""
    page = (ROOT / "docs/architecture.md").read_text(encoding="utf-8")
    layout = page[
        page.index("```text\nsrc/vedette/") : page.index("```", page.index("src/vedette/"))
    ]
    listed = set(re.findall(r"^  (\w+)(?:/|\.py)\s", layout, re.M))
    src = ROOT / "src/vedette"
    present = {p.name for p in src.iterdir() if (p / "__init__.py").exists()}
    present |= {p.stem for p in src.glob("*.py") if p.stem not in ("__init__", "__main__")}
    assert listed and present - listed == set(), f"not in the Layout: {present - listed}"
    assert listed - present == set(), f"in the Layout, not in vedette: {listed - present}"
