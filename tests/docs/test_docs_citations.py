"""What the code cites is on the pages: the readings it names, the rules its refusals and
procedures quote, the commands it has.

- a reading the code, rule data, tests, benches or pages cite ("reading K98", "readings 26,
  33", "Reading A10") is a row of the reading tables of its ruleset's pages: a ruleset's own
  files cite its own numbers (Napoleon At Bay and ASL both number theirs A1, A2 ...), a
  Kuryakin number (``K41``) is Kuryakin's wherever it is cited, and another file's ``reading
  A10`` or ``reading 57`` is one of some ruleset's;
- the rule a refusal (``RuleViolation``), a procedure (``rule=``) or a result table (its
  ``rule``) quotes is one its developer page numbers the same way: each O'Leary or Herman
  number is a row of the page's "Rule by rule" table (a section, one of its rows), each 2 by 2
  heading one the page lists as the text's, each Kuryakin heading is named in that table, and
  any other words (vedette's own rule) name a heading or a bold phrase of the page, or a table
  of the ruleset's data;
- every command of vedette but a ruleset's (whose procedures test_docs_knobs.py holds to their
  pages) is written out somewhere in the docs.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import click
import pytest

from tests.docs.test_reading_tables import DEV_SECTION, PLAYER_SECTION, ROW, ruleset_data, section
from vedette import rules
from vedette.cli.main import cli
from vedette.errors import VedetteError

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted(p.stem for p in (ROOT / "docs/rules").glob("*.md"))
DOCS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").rglob("*.md")),
    *sorted((ROOT / "src/vedette/rules").glob("*/data/help.md")),
]
SUFFIXES = (".py", ".toml", ".md", ".jsonl", ".js", ".html")

# "reading K98", "readings 7, 33 and 49", "Readings K71-K72", "reading A10's".
CITE = re.compile(r"(?i)\breadings?\s+([AK]?\d+(?:\s*(?:,|and|or|&|-|–)\s*[AK]?\d+)*)(?![\w.-]*\d)")
KURYAKIN = re.compile(r"\bK\d+\b")

# Refusal words that cite no rule of the text, each with why.
NOT_A_RULE = {
    "the simulator's quick check": "solo_napoleonic/requests.py: a refusal only the simulator "
    "meets, its words never read",
}


@functools.cache
def numbers(ruleset: str) -> frozenset[str]:
    """The readings the ruleset's pages number (test_reading_tables.py holds the two pages'
    tables to the same numbers, each once)."""
    dev = (ROOT / "docs/rules" / f"{ruleset}.md").read_text(encoding="utf-8")
    player = (ROOT / "src/vedette/rules" / ruleset / "data/help.md").read_text(encoding="utf-8")
    found = set()
    for text, heading in ((dev, DEV_SECTION), (player, PLAYER_SECTION)):
        found |= {
            m.group(1) for line in section(text, heading).splitlines() if (m := ROW.match(line))
        }
    return frozenset(found)


def cited(text: str, bare_k: bool = True) -> list[tuple[int, str, str]]:
    """(line, what, number) of every reading the text cites: "reading N" and its list, and a
    Kuryakin number anywhere (``bare_k``: not in ASL's files, where K0 is a cave complex)."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        for m in CITE.finditer(line):
            out += [(n, m.group(0), num) for num in re.findall(r"[AK]?\d+", m.group(1))]
        out += [(n, num, num) for num in KURYAKIN.findall(line)] if bare_k else []
    return out


def own_files(ruleset: str) -> list[Path]:
    places = [ROOT / "src/vedette/rules" / ruleset, ROOT / "tests" / ruleset]
    files = [f for p in places for f in p.rglob("*") if f.suffix in SUFFIXES]
    return [*files, ROOT / "docs/rules" / f"{ruleset}.md"]


def other_files() -> list[Path]:
    own = {f for rs in RULESETS for f in own_files(rs)}
    files = [
        *(f for f in (ROOT / "src").rglob("*") if f.suffix in SUFFIXES),
        *(f for f in (ROOT / "tests").rglob("*") if f.suffix in SUFFIXES),
        *(ROOT / "bench").glob("*.py"),
        *(ROOT / "docs").glob("*.md"),
        ROOT / "README.md",
    ]
    return [
        f for f in files if f not in own and "__pycache__" not in f.parts and f != Path(__file__)
    ]


def unknown_readings(path: Path, known: frozenset[str], bare_k: bool = True) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [
        f"{path.name}:{n}: {what!r}"
        for n, what, num in cited(text, bare_k)
        if num not in (numbers("solo_napoleonic") if num.startswith("K") else known)
    ]


def test_the_citation_checks_can_fail(tmp_path: Path) -> None:
    assert [num for _, _, num in cited("(readings 7, 33 and 49; reading K41's)")] == [
        "7",
        "33",
        "49",
        "K41",
        "K41",
    ]
    assert cited("a reading 1-100 percentile") and not cited("the reading 2.5 of the table")
    page = tmp_path / "page.py"
    page.write_text("# reading K9999, reading 57, reading A9999\n", encoding="utf-8")
    found = unknown_readings(page, numbers("two_by_two"))
    assert [f.split(": ", 1)[1] for f in found] == ["'reading K9999'", "'reading A9999'", "'K9999'"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_reading_a_rulesets_files_cite_is_on_its_pages(ruleset: str) -> None:
    files = own_files(ruleset)
    assert len(files) > 10, f"{ruleset}: only {files}"
    bare_k = ruleset != "solitaire_asl"
    wrong = [w for f in files for w in unknown_readings(f, numbers(ruleset), bare_k)]
    assert not wrong, f"{ruleset}: readings cited that its pages do not number: {wrong}"


def test_every_reading_the_other_files_cite_is_one_of_a_ruleset() -> None:
    """The engine, the web app, the benches, the general docs, the saved-game fixtures'
    patches: what they cite is on some ruleset's pages (a renumbered reading leaves no stale
    citation behind)."""
    every = frozenset().union(*(numbers(rs) for rs in RULESETS))
    files = other_files()
    assert sum(bool(cited(f.read_text(encoding="utf-8"))) for f in files) > 10
    wrong = [w for f in files for w in unknown_readings(f, every)]
    assert not wrong, f"readings cited that no ruleset's pages number: {wrong}"


def _strings(node: ast.expr | None, consts: dict[str, str]) -> list[str] | None:
    """The strings an expression giving a refusal's rule may be (None: not known here)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        a, b = _strings(node.body, consts), _strings(node.orelse, consts)
        return None if a is None or b is None else a + b
    name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
    return [consts[name]] if name in consts else None


def quoted_rules(ruleset: str) -> tuple[set[str], int]:
    """The rules the package quotes to a player: each ``RuleViolation``'s, each ``rule=`` given
    to a call (a procedure's declaration, a check, a modifier), a constant of the package or a
    literal, and each ``rule`` of its rule data; and how many quote a rule passed in from
    elsewhere (a parameter)."""
    trees = [ast.parse(f.read_text(encoding="utf-8")) for f in sorted(package(ruleset))]
    consts: dict[str, str] = {}
    for tree in trees:
        for node in tree.body:
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    pairs = (
                        zip(target.elts, node.value.elts, strict=False)
                        if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                        else [(target, node.value)]
                    )
                    for t, v in pairs:
                        if isinstance(t, ast.Name) and isinstance(v, ast.Constant):
                            consts.update({t.id: v.value} if isinstance(v.value, str) else {})
    found: set[str] = set()
    passed = 0
    for tree in trees:
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call):
                continue
            given = [k.value for k in call.keywords if k.arg == "rule"]
            if getattr(call.func, "id", getattr(call.func, "attr", None)) == "RuleViolation":
                given += call.args[:1]
            for arg in given:
                strings = _strings(arg, consts)
                if strings is None:
                    passed += 1
                else:
                    found |= set(strings)
    return found | set(data_rules(ruleset_data(ruleset))), passed


def data_rules(tree: object) -> list[str]:
    """Every ``rule = "..."`` of a rule-data tree (a result table cites its rule)."""
    if isinstance(tree, list):
        return [r for item in tree for r in data_rules(item)]
    if not isinstance(tree, dict):
        return []
    own = [v for k, v in tree.items() if k == "rule" and isinstance(v, str)]
    return own + [r for v in tree.values() for r in data_rules(v)]


def package(ruleset: str) -> list[Path]:
    return sorted((ROOT / "src/vedette/rules" / ruleset).rglob("*.py"))


def rule_rows(page: str) -> list[str]:
    """The first cells of the "Rule by rule" table of a developer page."""
    if "## Rule by rule" not in page:
        return []
    table = section(page, "## Rule by rule")
    return [line.split("|")[1].strip() for line in table.splitlines()[4:] if line.startswith("|")]


def headings(page: str) -> list[str]:
    return [h.lower() for h in re.findall(r"^#+ (.*)$", page, re.M)]


def rule_problem(ruleset: str, rule: str) -> str | None:
    """Why a rule a refusal or a procedure quotes is not one the ruleset's developer page
    numbers, or None. A quote may name several ("O'Leary 2.2, 2.3, 3.2.2", "O'Leary 2.3-2.5",
    "Herman (1)-(4)", "2 by 2, Melee / Resolving shooting"): each must be there; a section
    ("O'Leary 6") is there when a rule in it is; "ASL A3" (the ASL rulebook's) when the page
    names it."""
    page = (ROOT / "docs/rules" / f"{ruleset}.md").read_text(encoding="utf-8")
    rows = rule_rows(page)
    if rule.startswith(("O'Leary ", "Herman (")):
        said = re.sub(r"\s*\((?!\d\))[^)]*\)", "", rule)  # "(nothing moves in set-up)"
        said = re.sub(r"ASL [A-Z][\d.]*", "", said)
        wanted = re.findall(r"\(\d\)|(?<![\w.])\d+(?:\.\d+)*", said)
        missing = [
            number
            for number in wanted
            if not any(re.search(rf"(?<![\d.]){re.escape(number)}(?!\d)", row) for row in rows)
        ]
        asl = [a for a in re.findall(r"ASL [A-Z][\d.]*\d", rule) if a.split()[1] not in page]
        if not wanted:
            return "no rule number"
        return f"no such row: {missing + asl}" if missing or asl else None
    if rule.startswith("ASL "):
        return None if rule.split()[1] in page else "not named on the page"
    if rule.startswith("2 by 2, "):
        listed = re.search(r"sections are cited by their\s+headings: (.*?)\. Code", page, re.S)
        assert listed, "docs/rules/two_by_two.md no longer lists the text's headings"
        known = {h.lower() for h in re.findall(r"\*([^*]+)\*", listed.group(1))}
        said = re.sub(r"\s*\([^)]*\)", "", rule.removeprefix("2 by 2, ")).rstrip(" *")
        unknown = [h for h in re.split(r"\s*[,;/]\s*", said) if h.lower() not in known]
        return f"not a heading the page lists: {unknown}" if unknown else None
    if rule.startswith("Kuryakin, "):
        said = re.sub(r"\s*\([^)]*\)", "", rule.removeprefix("Kuryakin, "))
        table = " ".join(rows).lower().replace(".", "")
        unknown = [
            h for h in re.split(r"\s*[/;]\s*", said) if h.lower().replace(".", "") not in table
        ]
        return f"not in the page's Rule by rule table: {unknown}" if unknown else None
    words = re.sub(r"^(Napoleon At Bay|Herman,|2 by 2 on vedette,)\s+", "", rule).lower()
    bold = [b.lower() for b in re.findall(r"\*\*([^*]+)\*\*", page)]
    if any(words in h for h in [*headings(page), *bold]) or words in ruleset_data(ruleset):
        return None
    return "neither a heading nor a bold phrase of the page nor a table of the ruleset's data"


def test_the_rule_check_can_fail() -> None:
    assert rule_problem("solitaire_asl", "O'Leary 2.3.2") is None
    assert rule_problem("solitaire_asl", "O'Leary 2.3.9")
    assert rule_problem("napoleon_at_bay", "Herman (6)")
    assert rule_problem("two_by_two", "2 by 2, Rallying") is None
    assert rule_problem("two_by_two", "2 by 2, Rallying; Routing")
    assert rule_problem("solo_napoleonic", "Kuryakin, Firing/Infantry") is None
    assert rule_problem("solo_napoleonic", "Kuryakin, Flags")
    assert rule_problem("napoleon_at_bay", "Napoleon At Bay supply")
    assert rule_problem("solitaire_asl", "O'Leary 2.3-2.5, 3.3, 4, 5") is None
    assert rule_problem("solitaire_asl", "O'Leary 6") is None
    assert rule_problem("solitaire_asl", "O'Leary 2.2, 2.9")
    assert rule_problem("solitaire_asl", "O'Leary 9")
    assert rule_problem("napoleon_at_bay", "Herman (1)-(4)") is None
    assert rule_problem("napoleon_at_bay", "Herman (1)-(7)")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_rule_a_refusal_quotes_is_numbered_so_on_the_developer_page(ruleset: str) -> None:
    """A refusal says which rule forbids the request ("... (O'Leary 3.3.1)"): a reader who
    looks it up on the ruleset's page finds it under the same number or heading."""
    quoted, passed = quoted_rules(ruleset)
    assert len(quoted) >= 5, f"{ruleset}: {quoted} ({passed} quote a rule passed in)"
    wrong = [
        f"{rule!r}: {problem}"
        for rule in sorted(quoted)
        if rule not in NOT_A_RULE and (problem := rule_problem(ruleset, rule))
    ]
    assert not wrong, f"{ruleset}: refusals quoting rules its page does not: {wrong}"


def commands(group: click.Group, ctx: click.Context) -> list[str]:
    """Every command path under the group, a ruleset's group and its procedures left out."""
    out = []
    for name in group.list_commands(ctx):
        sub = group.get_command(ctx, name)
        if sub is None or name in rules.BUILTIN or _is_ruleset(name):
            continue
        sub_ctx = click.Context(sub, info_name=name, parent=ctx)
        out.append(sub_ctx.command_path)
        if isinstance(sub, click.Group):
            out += commands(sub, sub_ctx)
    return out


def _is_ruleset(name: str) -> bool:
    try:
        rules.canonical(name)
    except VedetteError:
        return False
    return True


def test_every_command_is_written_out_in_the_docs() -> None:
    """`vedette game rename`, `vedette odds` ...: a command a reader can type is one the README
    or a page shows (in a command block or the prose), so none is there only for who reads
    ``--help``."""
    every = commands(cli, click.Context(cli, info_name="vedette"))
    assert {"vedette serve", "vedette game undo"} <= set(every), every
    text = "\n".join(d.read_text(encoding="utf-8") for d in DOCS)
    shown = re.sub(r"(?:\.venv/bin/)?vedette(?: --db \S+)?", "vedette", text)
    missing = [c for c in every if not re.search(rf"{re.escape(c)}\b", shown)]
    assert not missing, f"commands no doc writes out: {missing}"
