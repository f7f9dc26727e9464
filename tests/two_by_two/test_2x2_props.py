"""2 by 2's own properties: odds sum to exactly 1; a destroyed unit never acts; play by its
phases, through the engine, keeps the generic properties (a refusal changes nothing, replay and
export -> import equal live play), which tests/core/test_core_conformance.py checks for every
ruleset with the helpers of tests/conformance.py used here."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conformance import check_game, check_logged_odds, try_perform
from tests.sizes import examples
from tests.two_by_two.battle import Battle
from vedette.engine import Game, Store
from vedette.errors import RuleViolation, VedetteError
from vedette.rules.two_by_two import RULESET

N = 19.05
SHOOTERS = ["infantry", "guard", "light", "militia", "foot_artillery", "horse_artillery"]
ALL = sorted(RULESET.data()["units"])


@settings(max_examples=examples(60), deadline=None)
@given(
    st.sampled_from(SHOOTERS),
    st.sampled_from(ALL),
    st.floats(0.05, 1.0),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.sampled_from([0, 90, 180, 270]),
)
def test_shooting_odds_sum_to_one(
    firer: str, target: str, gap: float, screened: bool, disrupted: bool, pinned: bool, facing: int
) -> None:
    b = Battle.quick(
        [
            {
                "id": "B",
                "side": "blue",
                "type": firer,
                "x": 300,
                "y": 100,
                # (a screen only where the range shows [2*]: Unit Summary, reading 55)
                "screened": screened and RULESET.data()["units"][firer].get("star_range", False),
                "pinned": pinned,
            },
            {
                "id": "R",
                "side": "red",
                "type": target,
                "x": 300,
                "y": 112 + gap * N,
                "disrupted": disrupted,
                "facing": facing,
            },
        ]
    )
    b.until("shoot", "blue")
    for o in b.odds("shoot", firer="B", target="R"):
        assert sum((r.p for r in o.rows), Fraction(0)) == 1


@settings(max_examples=examples(60), deadline=None)
@given(
    st.sampled_from(ALL),
    st.sampled_from(ALL),
    st.sampled_from(["line", "attack_column", "road_column"]),
    st.booleans(),
    st.integers(0, 3),
)
def test_melee_odds_sum_to_one(
    a: str, d: str, formation: str, disrupted: bool, support: int
) -> None:
    b = Battle.quick(
        [
            {"id": "A", "side": "blue", "type": a, "x": 300, "y": 100, "formation": formation},
            {"id": "D", "side": "red", "type": d, "x": 300, "y": 112, "disrupted": disrupted},
        ]
    )
    b.until("melee", "blue")
    try:
        odds = b.odds("melee", attacker="A", defender="D", a_support=support)
    except RuleViolation:
        return  # may not initiate
    for o in odds:
        assert sum((r.p for r in o.rows), Fraction(0)) == 1
    assert odds[0].p("draw") == 0


def long_sample(seed: int) -> Battle:
    """The sample battle without a turn limit or AP threshold."""
    scn = dict(RULESET.scenario("sample"))
    scn["victory"] = {"max_turns": 0, "threshold_ap": 0}
    return Battle(scn, seed=seed)


def _nearest_enemy(b: Battle, uid: str) -> str | None:
    u = b.state.unit(uid)
    best: tuple[float, str] | None = None
    for e in b.state.live(b.state.enemy_of(u.side)):
        if u.body is None or e.body is None:
            continue
        d = u.body.centre.distance(e.body.centre)
        if best is None or d < best[0]:
            best = (d, e.id)
    return None if best is None else best[1]


def _random_request(b: Battle, rng: random.Random) -> tuple[str, dict[str, Any]]:
    """Mostly sensible requests for the phase (move toward the enemy, shoot the nearest,
    rally, resolve melees), with a share of nonsense to exercise refusals."""
    s = b.state
    ids = [u.id for u in s.units]
    if rng.random() < 0.25:  # nonsense
        u, v = rng.choice(ids), rng.choice(ids)
        proc = rng.choice(["move", "shoot", "rally", "melee", "rout", "face", "countercharge"])
        x, y = rng.uniform(0, 609.6), rng.uniform(0, 609.6)
        req: dict[str, Any] = {
            "move": {"unit": u, "to": [x, y]},
            "shoot": {"firer": u, "target": v},
            "rally": {"unit": u},
            "melee": {"attacker": u, "defender": v},
            "rout": {"unit": u},
            "face": {"unit": u, "toward": v},
            "countercharge": {"unit": u, "target": v, "to": [x, y]},
        }[proc]
        return proc, req
    if s.stage != "battle" or rng.random() < 0.06:
        return "next", {}
    mine = [u for u in s.live(s.actor)]
    if s.phase == "move":
        if rng.random() < 0.2 and s.rps:
            return "reinforce", {"rp": rng.choice([r.id for r in s.rps])}
        free = [u for u in mine if not u.moved and not u.disrupted]
        if not free:
            return "next", {}
        u = rng.choice(free)
        if u.body is None and u.entry:
            rp = s.rp(u.entry)
            inward = {"south": (0, 60), "north": (0, -60), "west": (60, 0), "east": (-60, 0)}
            edge = (
                "south"
                if rp.point.y < 1
                else "north"
                if rp.point.y > 608
                else "west"
                if rp.point.x < 1
                else "east"
            )
            dx, dy = inward[edge]
            sx = min(max(rp.point.x + dx / 10, 20), 590)
            sy = min(max(rp.point.y + dy / 10, 20), 590)
            return "move", {"unit": u.id, "path": [[sx, sy], [sx + dx, sy + dy]]}
        target = _nearest_enemy(b, u.id)
        if u.body is None or target is None:
            return "next", {}
        t = s.unit(target)
        assert t.body is not None
        d = u.body.centre.distance(t.body.centre)
        step = min(d - 12.0, rng.uniform(0.5, 1.05) * s.utype(u).move * N)
        heading = __import__("vedette.geometry.tabletop", fromlist=["bearing"]).bearing(
            u.body.centre, t.body.centre
        )
        if rng.random() < 0.9:
            to = u.body.centre + __import__(
                "vedette.geometry.tabletop", fromlist=["Vec"]
            ).Vec.heading(heading, max(step, 0))
            return "move", {"unit": u.id, "path": [[to.x, to.y]], "facing": heading}
        return "formation", {"unit": u.id, "formation": rng.choice(["line", "attack_column"])}
    if s.phase == "shoot":
        ready = [
            u
            for u in mine
            if not u.shot and not u.disrupted and (s.utype(u).can_shoot or s.utype(u).is_cavalry)
        ]
        if not ready:
            return "next", {}
        u = rng.choice(ready)
        t = _nearest_enemy(b, u.id)
        if t is None:
            return "next", {}
        if s.utype(u).is_cavalry:
            tb = s.unit(t).body
            if tb is not None:
                return "countercharge", {
                    "unit": u.id,
                    "target": t,
                    "to": [tb.centre.x, tb.centre.y + 12],
                }
        return "shoot", {"firer": u.id, "target": t}
    if s.phase == "rally":
        hurt = [u for u in mine if u.pinned or u.disrupted]
        if not hurt:
            return "next", {}
        return "rally", {"unit": rng.choice(hurt).id}
    if s.phase == "melee":
        if s.follow_ups:
            f = s.follow_ups[0]
            return "follow_up", {
                "unit": f.unit,
                "decline": (not f.mandatory) and rng.random() < 0.5,
            }
        if s.melees:
            m = s.melees[0]
            return "melee", {"attacker": m.attacker, "defender": m.defender}
    return "next", {}


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6))
def test_random_play_invariants(seed: int) -> None:
    rng = random.Random(seed)
    b = long_sample(seed)
    for _ in range(120):
        proc, req = _random_request(b, rng)
        before = b.state
        n_events = len(b.events)
        acted = [v for k, v in req.items() if k in ("unit", "firer", "attacker")]
        dead = [a for a in acted if isinstance(a, str) and b.state.unit(a).status == "destroyed"]
        try:
            b.do(proc, **req)
        except VedetteError:
            # a refused request changes nothing
            assert b.state is before and len(b.events) == n_events
            continue
        # a destroyed unit never acts
        assert not dead, f"{proc} by destroyed {dead}"
        for u in b.state.units:
            if u.status == "destroyed":
                assert u.body is None
                assert all(u.id not in (m.attacker, m.defender) for m in b.state.melees)
        if b.state.stage == "over":
            break
    assert b.replayed() == b.state


def test_engine_play_by_phases_conforms() -> None:
    rng = random.Random(8)
    st_ = Store(":memory:")
    # the close-quarters scenario: random play from todo reaches shots and melees early
    g = Game.create(st_, "g", "2x2", RULESET.scenario("close"), seed=11)
    shadow = Battle(RULESET.scenario("close"))
    for i in range(300):
        if i % 3 == 0:  # a random request, mostly refused (each refusal is checked)
            proc, req = _random_request(shadow, rng)
        else:  # a legal one from the referee, so that play reaches shots and melees
            cands = list(RULESET.legal_requests(g.state, rng))
            own = [c for c in cands if c[0] not in ("next", "next_phase")]
            proc, req = rng.choice(own) if own and rng.random() < 0.8 else rng.choice(cands)
        if try_perform(g, proc, req, "2x2") is not None:
            shadow.state = g.state
    check_game(g, st_)
    # the odds of the shots, melees and rolls met are the frequencies of their outcomes
    assert check_logged_odds(g, st_).odds_by_procedure.keys() >= {"shoot", "melee"}
