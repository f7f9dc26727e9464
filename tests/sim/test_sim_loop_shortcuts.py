"""The simulator's loop spares work a step need not do (issue 29): each shortcut gives what the
work it stands in for gives, over simulated games of 2 by 2 and Kuryakin."""

from __future__ import annotations

import random
from typing import Any

import pytest

import vedette.sim.play as sp
from vedette import rules
from vedette.rules.simulation import RANDOM, RANDOM_DRAWN, Policy
from vedette.rules.two_by_two import relative, simplay
from vedette.sim.play import Setup, play_game


def _setup(ruleset: str, policies: tuple[str, ...] = ("random",), n: int = 300) -> Setup:
    rs = rules.get(ruleset)
    return Setup(rs.name, rs.scenario("sample"), policies=policies, max_actions=n)


@pytest.mark.parametrize("ruleset", ["two_by_two", "solo_napoleonic"])
def test_a_request_parsed_by_its_identity_is_the_request_parsed_afresh(
    ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every request the loop tries, parsed once per request object (``_parsed``: the object
    seen again gives the answer kept), is the request its procedure parses afresh, with the
    same logged form; most are seen again (the lines' read-only requests)."""
    parse = sp._parsed
    again = tried = 0

    def checked(known: Any, proc: Any, req: Any) -> Any:
        nonlocal again, tried
        seen = id(req) in known and known[id(req)][0] is req
        got = parse(known, proc, req)
        want = proc.parse(dict(req))
        assert got[0] == want and dict(got[1]) == proc.request_json(want), (proc, req)
        tried += 1
        again += seen
        return got

    monkeypatch.setattr(sp, "_parsed", checked)
    for index in (0, 1):
        play_game(_setup(ruleset), 2026, index)
    # (a fifth, not a quarter, since an arrived reinforcement not on the table no longer has
    # its voluntary rout line, the same line step after step: session 15, F9)
    assert tried > 200 and again > tried // 5


@pytest.mark.parametrize("ruleset", ["two_by_two", "solo_napoleonic"])
def test_the_requests_known_from_game_to_game_are_the_requests_parsed_afresh(
    ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The requests the loop knows by their identity are kept from game to game
    (``_KNOWN``): a later game tries many request objects an earlier one tried, and each is
    the request its procedure parses afresh; what the loop keeps is forgotten at the start of
    a game once it holds more than ``_KNOWN_MAX`` requests."""
    parse = sp._parsed
    tried: list[set[int]] = []

    def checked(known: Any, proc: Any, req: Any) -> Any:
        assert known is sp._KNOWN
        got = parse(known, proc, req)
        want = proc.parse(dict(req))
        assert got[0] == want and dict(got[1]) == proc.request_json(want), (proc, req)
        tried[-1].add(id(req))
        return got

    monkeypatch.setattr(sp, "_parsed", checked)
    sp._KNOWN.clear()
    for index in (0, 1):
        tried.append(set())
        play_game(_setup(ruleset), 2026, index)
    # (a tenth: Kuryakin's advance and plain move are two lines since reading K78, their
    # requests made per direction; 2 by 2 shares more)
    assert len(tried[0] & tried[1]) > len(tried[1]) // 10
    assert set(sp._KNOWN) == tried[0] | tried[1]
    monkeypatch.setattr(sp, "_KNOWN_MAX", 10)
    tried.append(set())
    play_game(_setup(ruleset), 2026, 2)
    assert set(sp._KNOWN) == tried[2]  # (the earlier games' forgotten first)


def test_the_policies_that_keep_no_record_of_what_was_done_never_read_it() -> None:
    """A policy marked ``reads_done=False`` (the loop then keeps no set of what was performed
    since the last ``next`` and hands it an empty one) ranks every candidate of simulated
    2 by 2 states alike whatever was done; the cards policy, which reads it, is marked so."""
    rs = rules.get("two_by_two")
    play = rs.simulation()
    quiet = [RANDOM, RANDOM_DRAWN, simplay.AGGRESSIVE, simplay.CAUTIOUS]
    assert all(not p.reads_done for p in quiet)
    assert rules.get("solo_napoleonic").simulation().policies["cards"].reads_done
    states: list[Any] = []
    fold = rs.fold

    def recorded(state: Any, e: Any) -> Any:
        states.append(state)
        return fold(state, e)

    mp = pytest.MonkeyPatch()
    mp.setattr(rs, "fold", recorded)
    mp.setattr(relative, "built", lambda state, events: None)  # (every event folded)
    try:
        play_game(_setup("two_by_two", ("aggressive", "cautious")), 2026, 2)
    finally:
        mp.undo()
    ranked = 0
    for state in states[::7]:
        for line in play.lines(state, rs, random.Random(1)):
            for name, req in line:
                done = frozenset({(name, str(req.get("unit", ""))), ("move", "x")})
                for p in quiet:
                    assert p.rank(name, req, state, frozenset()) == p.rank(name, req, state, done)
                ranked += 1
    assert ranked > 500


def test_a_policy_that_reads_what_was_done_is_handed_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop keeps (procedure, unit) performed since the last ``next`` for a policy that
    reads it, and hands an empty set to one that does not."""
    seen: dict[bool, list[frozenset[tuple[str, str]]]] = {True: [], False: []}
    for reads in (True, False):

        def rank(name: str, req: Any, state: Any, done: Any, reads: bool = reads) -> int:
            seen[reads].append(done)
            return 0

        pol = Policy("probe", "a probe", rank, reads_done=reads)
        monkeypatch.setattr(sp, "side_policies", lambda rs, state, names, p=pol: {"": p})
        play_game(_setup("two_by_two", n=150), 2026, 0)
    assert any(("next", "") not in d and d for d in seen[True])
    assert seen[False] and not any(seen[False])
