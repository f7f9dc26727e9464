"""``Procedure.play`` (issue 29: simulated games faster): what the simulator calls instead of
``plan`` then ``resolve``, in one run of the procedure's body. On every offer of seeded games
(refused ones too: the options before ``plan`` judges them), it refuses exactly when plan or
resolve refuses, with the same words (but where its quick check refuses: a fire or a charge
clearly out of arc, range or reach, in words of its own, which the simulator never reads), and
otherwise gives the same events from the same dice. ``next``'s play lists a unit's fire and
charge by its type, its resolve only where todo offers them (session 19): the same events, the
listing's words apart."""

from __future__ import annotations

import random
from typing import Any

from tests.todo_play import ended, fill
from vedette import rules
from vedette.dice.sources import SegmentSource
from vedette.engine import Game, Store
from vedette.errors import VedetteError
from vedette.rules.protocol import iter_todo, parsed_request

RS = rules.get("solo_napoleonic")


def _run(p: Any, state: Any, req: Any, seed: int, one: bool) -> tuple[Any, ...]:
    """The refusal's words, or the events and the dice read."""
    src = SegmentSource(seed, [(7, None)])
    try:
        out = p.play(state, req, src) if one else p.resolve(state, p.plan(state, req), src)
    except VedetteError as e:
        return ("refused", type(e).__name__, str(e))
    return (out.events, out.message, src.ranges())


def test_play_is_plan_then_resolve_on_every_offer() -> None:
    procs = RS.protocol_procedures()
    compared = refused = quick = 0
    for seed in range(2):
        rng = random.Random(seed)
        g = Game.create(Store(":memory:"), f"p{seed}", RS.name, RS.scenario("sample"), seed=seed)
        for _ in range(30):
            if ended(g):
                break
            state = g.state
            offers = list(iter_todo(RS.obligations(state), RS.options(state)))
            for t in offers:
                p = procs[t.procedure]
                assert p.play is not None, t.procedure
                req = parsed_request(p, fill(t, rng))[0]
                one = _run(p, state, req, seed, True)
                two = _run(p, state, req, seed, False)
                if one[0] == "refused" and one[2].endswith("(the simulator's quick check)"):
                    assert two[0] == "refused", (t.procedure, req)
                    quick += 1
                elif t.procedure == "next" and one[0] != "refused":
                    assert (one[0], one[2]) == (two[0], two[2]), req  # (the listing apart)
                else:
                    assert one == two, (t.procedure, req)
                compared += 1
                refused += one[0] == "refused"
            todo = g.todo()
            t = rng.choice([t for t in todo if t.owed] or todo)
            g.perform(t.procedure, fill(t, rng))
    assert compared > 500 and refused > 100 and quick > 10, (compared, refused, quick)
