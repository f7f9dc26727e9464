"""Issue 25's edges, fuzzed: imports of today's exports of every ruleset mutated and signed
again (the referee must refuse or vouch), house-rule files with hostile message templates and
numbers of thousands of digits, JSON bodies and query/path parameters with such numbers, lone
surrogates and control characters, and command lines with bytes that are not UTF-8.

Each case ends in success (the game then shows and plays without an internal error) or in one
line (exit 2 or 1 / a 4xx) with the database unchanged. ``make test`` tries a quarter of each
area's base count, CI half of it, ``VEDETTE_FUZZ_LONG=1`` ten times it
(tests/fuzz/test_fuzz.py); each case is seeded by (area, number)."""

from __future__ import annotations

import contextlib
import json
import os
import random
from pathlib import Path
from typing import Any

from tests.conformance import play_game
from tests.fuzz import gen
from tests.fuzz.test_fuzz import (
    RULESETS,
    counted,
    inputs,
    one_line,
    refused_or_fine,
    run_cli,
    snapshot,
)
from vedette import rules
from vedette.engine import Game, Store
from vedette.engine.referee import resign

BIG = "9" * 5000
TEXTS = ["\ud800", "a\udcff", "x\x1b[2Jy", "\x07", "\x9b31m", "ok\n\tfine", "é", "\x00"]
TEMPLATES = [
    "{nope}",
    "{contact:>400000000}",
    "{contact.__class__}",
    "{0}",
    "{contact!r}",
    "{",
    "}",
    "{contact}" * 100,
    "{contact} ok",
    "{{literal}} {contact}",
]


def _export(rs: str, seed: int) -> str:
    return play_game(rs, seed, 40, Store(":memory:"), odds_checks=0).export_jsonl()


def test_fuzz_refereed_imports() -> None:
    """Today's exports of every ruleset, mutated (a value anywhere, a line dropped, swapped
    or doubled) and signed again: refused in one line, or vouched for by the referee."""
    exports = [_export(rs, seed) for rs in RULESETS for seed in (2, 3)]
    st = Store(":memory:")
    n = inputs(300)
    with counted("refereed imports", n) as tally:
        for i in range(n):
            rng = random.Random(f"refereed/{i}")
            lines = rng.choice(exports).splitlines()
            head, body = lines[0], lines[1:]
            r = rng.random()
            if r < 0.6:
                k = rng.randrange(len(body))
                obj = gen.mutate(rng, json.loads(body[k]), n=1)
                try:
                    body[k] = json.dumps(obj)
                except (RecursionError, ValueError):
                    body[k] = body[k].replace("1", BIG, 1)
            elif r < 0.7:
                del body[rng.randrange(1, len(body))]
            elif r < 0.8 and len(body) > 2:
                a, b = rng.sample(range(1, len(body)), 2)
                body[a], body[b] = body[b], body[a]
            elif r < 0.9:
                k = rng.randrange(len(body))
                body.insert(k, body[k])
            else:
                k = rng.randrange(len(body))
                body[k] = body[k].replace('"', '"' + rng.choice(TEXTS), 1)
            text = "\n".join([head, *body]) + "\n"
            if rng.random() < 0.9:
                with contextlib.suppress(ValueError):
                    text = resign(text)
            ok = refused_or_fine(
                st,
                rng,
                f"refereed import {i}",
                lambda t=text, i=i: Game.import_jsonl(st, t, f"r{i}"),
            )
            tally["accepted" if ok else "refused"] += 1


def test_fuzz_house_rule_templates_and_numbers() -> None:
    rs = rules.get("napoleon_at_bay")
    st = Store(":memory:")
    keys = ["text_stays", "text_switch", "text_switch_multi", "text_no_candidate"]
    n = inputs(100)
    with counted("templates", n) as tally:
        for i in range(n):
            rng = random.Random(f"templates/{i}")
            fixing: dict[str, Any] = {rng.choice(keys): rng.choice(TEMPLATES + TEXTS)}
            if rng.random() < 0.3:
                fixing["drm"] = {"reason_only": rng.choice(TEMPLATES)}
            ok = refused_or_fine(
                st,
                rng,
                f"templates {i}",
                lambda f=fixing, i=i: Game.create(
                    st, f"t{i}", "nab", rs.scenario("sample"), 1, None, {"fixing": f}
                ),
            )
            tally["accepted" if ok else "refused"] += 1
            if ok:  # a fixing renders every message the house rule changed
                g = Game.create(
                    st, f"u{i}", "nab", rs.scenario("sample"), 1, None, {"fixing": fixing}
                )
                g.perform("move", {"force": "F1", "to": "W2020"})
                out = g.perform("fix", {"moving": "F1", "contact": "R1"})
                assert len(out.message) < 5_000


def test_fuzz_files_argv_and_params(tmp_path: Path) -> None:
    """TOML files with huge numbers or hostile text, argv with non-UTF-8 bytes and control
    characters, and query/path parameters out of range: one line each, nothing stored."""
    from fastapi.testclient import TestClient

    from vedette.web.app import create_app

    db = tmp_path / "e.db"
    with Store(db) as st0:
        Game.create(st0, "g", "nab", rules.get("nab").scenario("sample"), seed=1)
    st = Store(db)
    c = TestClient(create_app(db), base_url="http://localhost")
    token = c.get("/games/g").text.split('name="csrf-token" content="')[1].split('"')[0]
    n = inputs(200)
    bad_bytes = [os.fsdecode(b) for b in (b"\xff", b"g\xe9", b"\xc3", b"\xed\xa0\x80")]
    with counted("files, argv, bodies, params", n) as tally:
        for i in range(n):
            rng = random.Random(f"edges/{i}")
            before = snapshot(st)
            kind = rng.random()
            if kind < 0.3:
                f = tmp_path / f"h{i}.toml"
                f.write_text(
                    rng.choice(
                        [
                            f"[fixing]\nvedette_strength = {BIG}\n",
                            f'[fixing]\ntext_stays = "{rng.choice(TEMPLATES)}"\n',
                            '[fixing]\ntext_stays = "\\u001b[2J{contact}"\n',
                            f"x = {BIG}\n",
                        ]
                    )
                )
                argv = ["--db", str(db), "game", "new", f"n{i}", "--ruleset", "nab"]
                argv += ["--house-rules", str(f)]
                code, _, err = run_cli(argv)
                assert code in (0, 2), f"edges {i}: {argv} exit {code}: {err!r}"
            elif kind < 0.55:
                word = rng.choice([*bad_bytes, "a\x1b[31m", "x\x07", "\x85y"])
                argv = rng.choice(
                    [
                        ["--db", str(db), "game", "new", word, "--ruleset", "nab"],
                        ["--db", str(db), "nab", "move", f"force={word}", "to=W2020"],
                        ["--db", str(db), "game", "rename", "g", word],
                        ["--db", str(db), "game", "show", word],
                    ]
                )
                code, _, err = run_cli(argv)
                assert code == 2, f"edges {i}: {argv!r} exit {code}: {err!r}"
                one_line(err, f"edges {i}")
            elif kind < 0.8:
                path = rng.choice(
                    [
                        f"/api/games/g?since={rng.choice([BIG, '-1', '2' * 30, 'x', '1e9'])}",
                        f"/api/simulations/{rng.choice([BIG, '0', '-5', '9' * 25])}",
                        f"/simulations/{rng.choice([BIG, '9' * 25])}",
                        f"/games/g/log?before={rng.choice([BIG, '-1'])}",
                    ]
                )
                r = c.get(path)
                assert r.status_code < 500, f"edges {i}: {path[:80]} {r.status_code}"
                if r.status_code == 422:
                    assert "cannot process" not in r.text, f"edges {i}: {path[:80]} {r.text}"
            else:
                req = {"force": rng.choice(["F1", *TEXTS]), "to": "W2020"}
                body = json.dumps({"procedure": "move", "request": req}, ensure_ascii=True)
                if rng.random() < 0.4:
                    body = body.replace('"W2020"', BIG)
                if rng.random() < 0.3:
                    body = body[:-1] + f', "since": {BIG}}}'
                r = c.post(
                    "/api/games/g/perform",
                    content=body,
                    headers={"X-CSRF-Token": token, "Content-Type": "application/json"},
                )
                assert r.status_code < 500, f"edges {i}: {body[:100]} {r.status_code}"
                if r.status_code >= 400:
                    one_line(r.json()["error"], f"edges {i}")
                    assert "cannot process" not in r.text, f"edges {i}: {r.text[:200]}"
                else:
                    c.post("/api/games/g/undo", headers={"X-CSRF-Token": token}, json={})
                    tally["accepted"] += 1
                    continue
            if snapshot(st) != before:
                tally["accepted"] += 1
            else:
                tally["refused"] += 1
