"""Issue 11: a bounded fuzz suite over the trust boundary.

Seeded generators (``tests/fuzz/gen.py``) drive the CLI entry point ``vedette.cli.main.main``,
the scenario / house-rule / option / seed loaders of all four rulesets (``Game.create``), the
import of mutated exports (``Game.import_jsonl``) and the web API (in-process ASGI client).
Every case must end either in success (and then the game must show, log and take a request
without an internal error) or in a refusal: exit code 2 (or a 4xx) with one line, and the
database unchanged.

Each area has a base count of inputs: ``make test`` tries a quarter of it (about 750 inputs in
all, a second or two an area; every kind of mutation is still drawn), CI (``VEDETTE_EXAMPLES=1``,
tests/sizes.py) half of it (about 1,500), ``VEDETTE_FUZZ_LONG=1`` ten times it (about 30,000;
``VEDETTE_FUZZ_SCALE=N`` for any other factor of the base). Each case is seeded by (area,
number): a failure message names both and the case replays exactly.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import reprlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import sizes
from tests.fuzz import gen
from vedette import rules
from vedette.data import package_toml
from vedette.engine import Game, Store
from vedette.errors import VedetteError

SCALE = float(
    os.environ.get("VEDETTE_FUZZ_SCALE")
    or (10 if os.environ.get("VEDETTE_FUZZ_LONG") else 0.5 if sizes.SCALE >= 1 else 0.25)
)


def inputs(base: int) -> int:
    """The number of inputs of an area whose base count is ``base`` (see the docstring)."""
    return max(1, round(base * SCALE))


RULESETS = list(rules.BUILTIN)
FIXTURES = Path(__file__).parent.parent / "fixtures" / "saved_games_v0_1"
STATS: dict[str, list[float]] = {}


@contextlib.contextmanager
def counted(area: str, n: int) -> Iterator[dict[str, int]]:
    """Times an area; with a scale above 1 prints its figures (inputs, accepted, refused)."""
    t = time.perf_counter()
    tally = {"accepted": 0, "refused": 0}
    yield tally
    STATS.setdefault(area, [0, 0.0])
    STATS[area][0] += n
    STATS[area][1] += time.perf_counter() - t
    if SCALE > 1:
        print(
            f"\nfuzz {area}: {n} inputs in {time.perf_counter() - t:.1f}s"
            f" ({tally['accepted']} accepted, {tally['refused']} refused), 0 failures"
        )


def snapshot(st: Store) -> Any:
    db = st.db
    return (
        db.execute("SELECT id, name, ruleset FROM games ORDER BY id").fetchall(),
        db.execute("SELECT game_id, COUNT(*), MAX(seq) FROM events GROUP BY game_id").fetchall(),
        db.execute("SELECT key, value FROM settings ORDER BY key").fetchall(),
    )


def one_line(msg: str, where: str) -> None:
    assert msg.strip(), f"{where}: empty error"
    assert len(msg.strip().splitlines()) == 1, f"{where}: more than one line: {msg!r}"
    assert "Traceback" not in msg and "internal error" not in msg, f"{where}: {msg!r}"


def _pool(rs: Any) -> list[str]:
    """Plausible request values: every id and name of the ruleset's sample scenario."""
    out: list[str] = []

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            out.extend(str(k) for k in x)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
        elif isinstance(x, str):
            out.append(x)

    if rs.scenarios:
        walk(rs.scenario(next(iter(rs.scenarios))))
    return sorted(set(out)) or ["x"]


POOLS: dict[str, list[str]] = {}


def random_request(rng: random.Random, rs: Any, proc: Any) -> dict[str, Any]:
    """Half the values plausible (ids from the sample scenario, small numbers), half hostile."""
    pool = POOLS.setdefault(rs.name, _pool(rs))
    req: dict[str, Any] = {}
    for p in proc.params:
        if p.required or rng.random() < 0.3:
            r = rng.random()
            if r < 0.4:
                req[p.name] = rng.choice(pool)
            elif r < 0.55:
                req[p.name] = rng.choice([0, 1, 2, 3, 6, 10, 100, True, False, "true"])
            elif r < 0.8:
                req[p.name] = gen.value(rng)
            else:
                req[p.name] = rng.choice(gen.HOSTILE_STR)
    if rng.random() < 0.1:
        req[gen.typo(rng, proc.params[0].name if proc.params else "x")] = 1
    return req


def exercise(g: Game, rng: random.Random, where: str) -> None:
    """A game that was accepted must show, log, export, and take requests without an
    internal error (a refusal is a VedetteError)."""
    from vedette.web import aar, views
    from vedette.web.audit import dice_audit, with_charts
    from vedette.web.boards import svg

    g.render()
    json.dumps(g.ruleset.state_json(g.state), default=str)
    g.log_lines()
    views.log_page(g)
    for r in g.records:
        views.record_rows(r)
    views.todo(g)
    aar.report(g)
    g.export_jsonl()
    with_charts(dice_audit(g.log()))
    svg(g.ruleset.name, g.state, g.ruleset.state_json(g.state), g.render())
    procs = list(g.ruleset.procedures.values())
    for _ in range(2):
        proc = rng.choice(procs)
        req = random_request(rng, g.ruleset, proc)
        before = len(g.records)
        try:
            if rng.random() < 0.5:
                g.odds(proc.name, req)
            else:
                g.perform(proc.name, req, rng.choice([None, None, [rng.randint(1, 6)], [0], [7]]))
        except VedetteError as e:
            one_line(str(e), f"{where} {proc.name} {reprlib.repr(req)}")
            assert len(g.records) == before
        except Exception as e:  # pragma: no cover - the failure being looked for
            raise AssertionError(
                f"{where}: {proc.name} {reprlib.repr(req)}: {type(e).__name__}: {e}"
            ) from e


def refused_or_fine(st: Store, rng: random.Random, where: str, fn: Callable[[], Game]) -> bool:
    before = snapshot(st)
    try:
        g = fn()
    except VedetteError as e:
        one_line(str(e), where)
        assert snapshot(st) == before, f"{where}: refused but the database changed: {e}"
        return False
    except Exception as e:  # pragma: no cover
        raise AssertionError(f"{where}: {type(e).__name__}: {e}") from e
    exercise(g, rng, where)
    return True


# -- the loaders: scenarios, house rules, options, seeds, names ------------------------------------
def _house_base(rs: Any) -> dict[str, Any]:
    from vedette.schemas.rules import shipped_data

    return shipped_data(rs)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_fuzz_loaders(ruleset: str) -> None:
    rs = rules.get(ruleset)
    base = rs.scenario("sample")
    if ruleset == "napoleon_at_bay" and rs.scenarios:
        inline = dict(base, map=package_toml(rs.data_package, "sample_map.toml")["map"])
    else:
        inline = base
    shipped = _house_base(rs)
    opts = list(rs.options_model.model_fields) if rs.options_model else []
    st = Store(":memory:")
    n = inputs(250)
    accepted = 0
    with counted(f"loaders/{ruleset}", n) as tally:
        for i in range(n):
            rng = random.Random(f"loaders/{ruleset}/{i}")
            where = f"loaders/{ruleset} case {i}"
            scn = gen.mutate(rng, rng.choice([base, inline])) if rng.random() < 0.6 else base
            house: Any = None
            if rng.random() < 0.3:
                sub = {k: shipped[k] for k in rng.sample(sorted(shipped), k=min(2, len(shipped)))}
                house = gen.mutate(rng, sub)
            options: Any = None
            if rng.random() < 0.3:
                k = gen.typo(rng, rng.choice(opts)) if opts and rng.random() < 0.3 else None
                options = {k or (rng.choice(opts) if opts else "x"): gen.value(rng)}
            seed: Any = rng.choice([None, 1, 7, *gen.HOSTILE_NUM[:12]]) if rng.random() < 0.3 else 1
            name = f"g{i}" if rng.random() < 0.9 else rng.choice(gen.HOSTILE_STR)
            ok = refused_or_fine(
                st,
                rng,
                where,
                lambda scn=scn, house=house, options=options, seed=seed, name=name: Game.create(
                    st, name, ruleset, scn, seed, options, house
                ),
            )
            accepted += ok
            tally["accepted" if ok else "refused"] += 1
    assert accepted > 0  # the generator also makes valid games


# -- imports ---------------------------------------------------------------------------------------
def _exports() -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(FIXTURES.glob("*.jsonl"))]


def test_fuzz_imports() -> None:
    exports = _exports()
    st = Store(":memory:")
    n = inputs(500)
    with counted("imports", n) as tally:
        for i in range(n):
            rng = random.Random(f"imports/{i}")
            where = f"imports case {i}"
            text = rng.choice(exports)
            if rng.random() < 0.25:
                text = gen.mutate_text(rng, text)
            else:
                objs = [json.loads(x) for x in text.splitlines() if x.strip()]
                objs = gen.mutate(rng, objs)
                if rng.random() < 0.1 and len(objs) > 2:  # an action relabelled
                    k = rng.randrange(1, len(objs))
                    if isinstance(objs[k], dict):
                        objs[k]["kind"] = rng.choice(["undo", "action", "created", "x"])
                try:
                    text = "\n".join(json.dumps(o) for o in objs)
                except RecursionError:  # a value nested deeper than json can write: as text
                    text = text.replace('"payload": {', '"payload": ' + "[" * 3000 + "{", 1)
            ok = refused_or_fine(
                st, rng, where, lambda text=text, i=i: Game.import_jsonl(st, text, f"i{i}")
            )
            tally["accepted" if ok else "refused"] += 1


# -- the CLI entry point ---------------------------------------------------------------------------
def _argv(rng: random.Random, tmp: Path, games: list[str]) -> list[str]:
    from vedette.cli.main import ruleset_listing

    rs_name = rng.choice(RULESETS)
    alias = rng.choice([rs_name, *ruleset_listing()[rs_name]])
    rs = rules.get(rs_name)
    game = rng.choice([*games, "nope", "a/b", ""]) if games else "nope"

    def file(text: str, suffix: str) -> str:
        p = tmp / f"f{rng.randrange(10**9)}{suffix}"
        p.write_text(text, encoding="utf-8")
        return str(p)

    def scenario_file() -> str:
        r = rng.random()
        if r < 0.1:
            return rng.choice(["/etc/passwd", "/dev/zero", "/", str(tmp), "../x.toml", "nope.toml"])
        base = rs.scenario("sample")
        if r < 0.5:
            return file(gen.toml_text(gen.mutate(rng, base)), ".toml")
        src = package_toml.__module__  # the bundled file's text, damaged
        del src
        text = gen.toml_text(base)
        return file(gen.mutate_text(rng, text), ".toml")

    k = rng.random()
    if k < 0.1:
        expr = rng.choice(["2d6+1", "d6", "1d6 vs 1d6", "d%", "2x6", "9999d9999", "d0", "", "dK8"])
        args = ["roll" if rng.random() < 0.5 else "odds", expr]
        if rng.random() < 0.3:
            args += ["--seed", str(rng.choice(gen.HOSTILE_NUM[:12]))]
        if rng.random() < 0.3:
            args += ["--dice", rng.choice(["3", "7", "0", "1 2", "x", ""])]
        if rng.random() < 0.3:
            args += ["--table", rng.choice(["nab:fixing", "asl:shift", "nab:nope", "x", "nab"])]
        if args[0] == "odds" and rng.random() < 0.3:
            args = ["odds", "--under", rng.choice(["65", "-1", "1000", "x"])]
        return args
    if k < 0.15:
        house = file(gen.toml_text(gen.mutate(rng, _house_base(rs))), ".toml")
        return ["tables", alias, "--house-rules", rng.choice([house, "/etc", "/dev/zero"])]
    if k < 0.5:
        name = f"n{rng.randrange(10**6)}" if rng.random() < 0.8 else rng.choice(gen.HOSTILE_STR)
        args = (
            [alias, "new", name]
            if rng.random() < 0.5
            else ["game", "new", name, "--ruleset", alias]
        )
        if rng.random() < 0.6:
            args += [
                "--scenario",
                scenario_file() if rng.random() < 0.8 else rng.choice(["sample", "x"]),
            ]
        if rng.random() < 0.3:
            args += ["--seed", str(rng.choice(gen.HOSTILE_NUM[:12]))]
        if rng.random() < 0.4:
            opts = (list(rs.options_model.model_fields) if rs.options_model else []) or ["x"]
            key = rng.choice(opts) if rng.random() < 0.7 else gen.typo(rng, rng.choice(opts))
            val = rng.choice(
                ["true", "ture", "false", "2", "2x", "draft", "nan", "1e999", "", "[1]"]
            )
            args += ["--option", f"{key}={val}"]
        if rng.random() < 0.2:
            house = gen.mutate(rng, {k2: v for k2, v in list(_house_base(rs).items())[:2]})
            args += ["--house-rules", file(gen.toml_text(house), ".toml")]
        return args
    if k < 0.7:
        sub = rng.choice(["list", "show", "log", "undo", "export", "import", "use", "rename"])
        if sub in ("show", "log", "undo", "use"):
            return ["game", sub, game]
        if sub == "export":
            return ["game", "export", game, "-o", str(tmp / "out.jsonl")]
        if sub == "rename":
            return [
                "game",
                "rename",
                game,
                rng.choice([f"r{rng.randrange(10**6)}", *gen.HOSTILE_STR[:8]]),
            ]
        if sub == "import":
            text = rng.choice(_exports())
            text = gen.mutate_text(rng, text) if rng.random() < 0.8 else text
            return ["game", "import", file(text, ".jsonl"), "--name", f"i{rng.randrange(10**6)}"]
        return ["game", "list"]
    if k < 0.95:
        procs = list(rs.procedures.values())
        proc = rng.choice(procs)
        args = [
            alias,
            proc.name if rng.random() < 0.9 else gen.typo(rng, proc.name),
            "--game",
            game,
        ]
        for key, v in random_request(rng, rs, proc).items():
            try:
                text = v if isinstance(v, str) else json.dumps(v)
            except RecursionError:
                text = "[" * 3000 + "]" * 3000
            args.append(f"{key}={text}")
        if rng.random() < 0.3:
            args += ["--dice", rng.choice(["3", "7", "1 2 3", "x", "0"])]
        if rng.random() < 0.2:
            args.append("--odds")
        return args
    tokens = [
        "game",
        "new",
        "--db",
        "--json",
        "nab",
        "asl",
        "roll",
        "odds",
        "x",
        "=",
        "--seed",
        "-",
    ]
    return [rng.choice(tokens + gen.HOSTILE_STR[:10]) for _ in range(rng.randint(0, 5))]


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    from vedette.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as e:  # argparse's own --help
            code = int(e.code or 0)
    return code, out.getvalue(), err.getvalue()


def test_fuzz_cli(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    with Store(db) as st:
        for name in RULESETS:
            Game.create(st, f"s-{name}", name, rules.get(name).scenario("sample"), seed=1)
    games = [f"s-{name}" for name in RULESETS]
    n = inputs(500)
    st = Store(db)
    with counted("cli", n) as tally:
        for i in range(n):
            rng = random.Random(f"cli/{i}")
            argv = _argv(rng, tmp_path, games)
            argv = ["--db", str(db), *argv]
            before = snapshot(st)
            code, _, err = run_cli(argv)
            where = f"cli case {i}: {argv!r}"
            assert code in (0, 2), f"{where}: exit {code}: {err!r}"
            tally["accepted" if code == 0 else "refused"] += 1
            if code == 2:
                one_line(err, where)
                assert snapshot(st) == before, f"{where}: refused but the database changed"
            if i % 100 == 0:
                games = [g.name for g in st.games()][-20:]


# -- the web API (in-process ASGI) -----------------------------------------------------------------
def test_fuzz_web(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from vedette.web.app import create_app

    db = tmp_path / "web.db"
    with Store(db) as st0:
        for name in RULESETS:
            Game.create(st0, f"s-{name}", name, rules.get(name).scenario("sample"), seed=1)
    c = TestClient(create_app(db), base_url="http://localhost")
    page = c.get("/games/s-napoleon_at_bay").text
    token = page.split('name="csrf-token" content="')[1].split('"')[0]
    st = Store(db)
    names = [f"s-{n}" for n in RULESETS]
    n = inputs(400)
    with counted("web", n) as tally:
        for i in range(n):
            rng = random.Random(f"web/{i}")
            name = rng.choice([*names, "nope", "a%2Fb", "%00", "..", "x" * 300, "%3Cb%3E"])
            rs_name = name[2:] if name[2:] in RULESETS else rng.choice(RULESETS)
            rs = rules.get(rs_name)
            kind = rng.random()
            headers: dict[str, str] = {}
            if rng.random() < 0.85:
                headers["X-CSRF-Token"] = token if rng.random() < 0.9 else "wrong"
            if rng.random() < 0.15:
                headers["Origin"] = rng.choice(["null", "http://evil.example", "http://localhost"])
            method = "POST"
            body: bytes | None = None
            data: dict[str, str] | None = None
            files: dict[str, Any] | None = None
            if kind < 0.55:
                path = f"/api/games/{name}/{rng.choice(['perform', 'odds', 'perform', 'undo'])}"
                proc = rng.choice(list(rs.procedures.values()))
                obj: Any = {"procedure": proc.name, "request": random_request(rng, rs, proc)}
                if rng.random() < 0.3:
                    obj["dice"] = rng.choice(["3", "7", "x", 3, ["x"], [1, 2], [], None, "1 2"])
                if rng.random() < 0.2:
                    obj = gen.mutate(rng, obj)
                try:
                    body = json.dumps(obj).encode()
                except RecursionError:
                    body = (
                        b'{"procedure": "x", "request": {"a": ' + b"[" * 3000 + b"]" * 3000 + b"}}"
                    )
                headers["Content-Type"] = rng.choice(
                    ["application/json"] * 4 + ["text/plain", "application/x-www-form-urlencoded"]
                )
            elif kind < 0.7:
                path = "/games"
                scn = gen.mutate(rng, rs.scenario("sample"))
                data = {
                    "csrf": token,
                    "name": rng.choice([f"w{i}", *gen.HOSTILE_STR[:12]]),
                    "ruleset": rs_name,
                }
                if rng.random() < 0.5:
                    files = {"upload": ("s.toml", gen.toml_text(scn).encode())}
                else:
                    data["scenario"] = rng.choice(["sample", "x", "../../etc/passwd"])
                if rng.random() < 0.4:
                    data["options"] = rng.choice(
                        ["variant=draft", "vedete_strength=2", "x", "a=b,c", "officers=ture"]
                    )
                if rng.random() < 0.3:
                    data["seed"] = str(rng.choice(gen.HOSTILE_NUM[:12]))
            elif kind < 0.8:
                path = "/import"
                text = rng.choice(_exports())
                data = {"csrf": token, "name": rng.choice([f"im{i}", "a/b", ""])}
                files = {"upload": ("g.jsonl", gen.mutate_text(rng, text).encode())}
            elif kind < 0.85:
                path = f"/games/{name}/rename"
                data = {
                    "csrf": token if rng.random() < 0.9 else "x",
                    "new": rng.choice([f"rn{i}", *gen.HOSTILE_STR[:12]]),
                }
            else:
                method = rng.choice(["GET", "GET", "PUT", "DELETE"])
                path = rng.choice(
                    [
                        f"/games/{name}",
                        f"/api/games/{name}",
                        f"/games/{name}/audit",
                        f"/games/{name}/export",
                        "/",
                        "/static/app.js",
                        "/static/../../etc/passwd",
                        "/?error=%3Cscript%3E",
                    ]
                )
            before = snapshot(st)
            r = c.request(
                method,
                path,
                content=body,
                data=data,
                files=files,
                headers=headers,
                follow_redirects=False,
            )
            where = f"web case {i}: {method} {path} {headers} {(body or b'')[:200]!r} {data}"
            assert r.status_code < 500, f"{where}: {r.status_code} {r.text[:300]}"
            refused = r.status_code >= 400 or "error=" in r.headers.get("location", "")
            tally["refused" if refused else "accepted"] += 1
            if r.status_code >= 400:
                if r.headers.get("content-type", "").startswith("application/json"):
                    one_line(str(r.json().get("error", r.json().get("detail", ""))), where)
                assert snapshot(st) == before, f"{where}: refused but the database changed"
            if r.status_code == 303 and "error=" in r.headers.get("location", ""):
                assert snapshot(st) == before, f"{where}: refused but the database changed"
            if i % 100 == 0:
                names = [g.name for g in st.games()][:8]
