"""Session 15 audit (helper F1): places where the referee differed from what a player holding
O'Leary's text would expect, each fixed and held here by a test quoting the rule."""

from __future__ import annotations

from pathlib import Path

from tests.solitaire_asl.test_asl_flow import RU, game, goto, refused, sample


def dummy_hip_count(g: object, location: str) -> int:
    state = g.state  # type: ignore[attr-defined]
    return sum(1 for s in state.stacks if s.location == location and s.status == "dummy_hip")


# == 3.1.1: a dummy HIP counter is one counter of the allotment ===================================
def test_3_1_1_two_dummy_hip_counters_in_one_location_do_not_merge(tmp_path: Path) -> None:
    """3.1.1 allots dummy HIP counters one by one; 2.2's merge is for potential dummy stacks.
    Merging two dummy HIP counters used to leave one stack showing a single dummy HIP counter
    (one of the allotment silently lost), and `todo` offered it."""
    g = sample(tmp_path)
    for _ in range(2):
        g.perform("place", {"kind": "dummy_hip", "side": RU, "location": "4Q6"})
    goto(g, "PFPh")
    assert dummy_hip_count(g, "4Q6") == 2
    assert not [t for t in g.todo() if t.procedure == "merge" and t.request["a"] == "X4Q6"]
    refused(g, "merge", {"a": "X4Q6", "b": "X4Q6b"}, [], "O'Leary 3.1.1", "single counter")
    assert dummy_hip_count(g, "4Q6") == 2


def test_5_two_dummy_cloaking_counters_do_not_merge(tmp_path: Path) -> None:
    g = game(
        tmp_path,
        [
            {"id": "C1", "location": "4A1", "status": "cloaked"},
            {"id": "C2", "location": "4A1", "status": "cloaked"},
        ],
        night=True,
    )
    goto(g, "CCPh")
    refused(g, "merge", {"a": "C1", "b": "C2"}, [], "O'Leary 5.2", "single counter")


def test_2_2_potential_dummy_stacks_still_merge(tmp_path: Path) -> None:
    g = game(
        tmp_path,
        [
            {
                "id": "P1",
                "location": "4A1",
                "status": "potential_dummy",
                "counters": [{"id": "a", "name": "4-4-7"}],
            },
            {
                "id": "P2",
                "location": "4A1",
                "status": "potential_dummy",
                "counters": [{"id": "b", "name": "4-4-7"}],
            },
        ],
    )
    goto(g, "CCPh")
    g.perform("merge", {"a": "P1", "b": "P2"})
    assert [len(s.counters) for s in g.state.stacks] == [2]
