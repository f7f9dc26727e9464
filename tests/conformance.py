"""Random play for the conformance suite: seeded games driven by ``legal_requests``, with every
refusal, undo, obligation and dice-rolling action checked as it happens.

Kept apart from the tests so that a failing seed can be replayed by hand::

    from tests.conformance import play_game
    play_game("solo_napoleonic", seed=3, steps=40)
"""

from __future__ import annotations

import json
import math
import os
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from vedette import rules
from vedette.dice.die import Die
from vedette.dice.sources import DiceNeeded, SeededSource
from vedette.engine import Game, Store, replay
from vedette.engine.referee import resign
from vedette.engine.session import Reservation, _overlaps, canonical_request, dice_ranges
from vedette.errors import DiceError, VedetteError
from vedette.rules.base import Ruleset
from vedette.rules.protocol import Chances, Todo, flow_violation, result_of

#: ``VEDETTE_CONFORMANCE_LONG=1``: larger trees enumerated, more samples
LONG = os.environ.get("VEDETTE_CONFORMANCE_LONG") == "1"
#: at most this many dice branches are played one by one with forced faces
EXHAUSTIVE_LEAVES = 216
#: branches enumerated (by ``Game.chances`` and here) before a tree is called too large
CHANCES_LIMIT = 5_000 if LONG else 400
#: seeded runs of ``resolve`` for the chi-square check of a large tree
SAMPLES = 2_000 if LONG else 400
#: the chi-square test's level (fixed seed, so the verdict is repeatable)
ALPHA_Z = 3.719  # one-sided normal quantile of 1e-4
CHI_SEED = 20261124
#: candidates tried per step before the step is given up
MAX_TRIES = 60
#: generic random requests mixed into those of a ruleset whose own are all legal
PROBES = 4


class ConformanceError(AssertionError):
    """A conformance property failed; the message names the ruleset, seed and step."""


class RefusedAfterRoll(ConformanceError):
    """An action accepted on the dice it rolled is refused on other dice: a refusal writes
    nothing, so the player learns the dice before spending them (and its odds cannot be
    computed). The rules should refuse it before the roll, or on every roll."""

    def __init__(self, procedure: str, message: str) -> None:
        self.procedure = procedure
        super().__init__(message)


@dataclass
class Figures:
    """What a run exercised (for the report)."""

    steps: int = 0
    performed: int = 0
    refused: int = 0
    undos: int = 0
    stuck: int = 0
    obligations: int = 0
    waived: int = 0
    redone: int = 0
    redone_rolls: int = 0
    physical_refused: int = 0
    odds_exhaustive: int = 0
    odds_leaves: int = 0
    odds_chi2: int = 0
    odds_samples: int = 0
    odds_rerolled: int = 0
    odds_too_large: int = 0
    procedures: dict[str, int] = field(default_factory=dict)
    odds_by_procedure: dict[str, int] = field(default_factory=dict)
    known: dict[str, str] = field(default_factory=dict)  # known defects met (procedure: why)

    def add(self, other: Figures) -> None:
        for k, v in vars(other).items():
            if k == "known":
                self.known.update(v)
            elif isinstance(v, dict):
                mine = getattr(self, k)
                for p, n in v.items():
                    mine[p] = mine.get(p, 0) + n
            else:
                setattr(self, k, getattr(self, k) + v)


# -- helpers ----------------------------------------------------------------------------------
def store_count(g: Game) -> int:
    return int(
        g.store.db.execute("SELECT COUNT(*) FROM events WHERE game_id=?", (g.id,)).fetchone()[0]
    )


def snapshot(g: Game) -> tuple[Any, ...]:
    return (g.state, len(g.records), store_count(g), g.position, g.effective, g.reservations)


def fork(g: Game, store: Store, name: str, physical: bool = True) -> Game:
    """A copy of ``g`` under ``name`` through export -> import (physical dice if asked)."""
    lines = g.export_jsonl().splitlines()
    if physical:
        created = json.loads(lines[1])
        created["payload"]["dice"] = "physical"
        lines[1] = json.dumps(created)
    return Game.import_jsonl(store, resign("\n".join(lines) + "\n"), name)


def check_todo(g: Game, where: str) -> list[Todo]:
    """``todo()`` names only procedures the game has, obligations first, in order."""
    todo = g.todo()
    owed = g.obligations()
    procs = g.procedures()
    for t in todo:
        if t.procedure not in procs:
            raise ConformanceError(f"{where}: todo names unknown procedure {t.procedure!r}")
        json.dumps(t.to_json())
    head = todo[: len(owed)]
    if [(t.owed, t.obligation, t.procedure) for t in head] != [
        (True, o.id, o.procedure) for o in owed
    ]:
        raise ConformanceError(f"{where}: todo does not list the obligations first: {todo}")
    if any(t.owed for t in todo[len(owed) :]):
        raise ConformanceError(f"{where}: an owed step comes after the open actions: {todo}")
    for t in todo[len(owed) :]:
        blocked = flow_violation(owed, t.procedure, t.request)
        if blocked is not None:
            raise ConformanceError(
                f"{where}: todo offers {t.command()!r}, which {blocked.id!r} blocks"
            )
    for o in owed:
        json.dumps(o.to_json())
    return todo


def own_dice(g: Game, proc: str, req: Mapping[str, Any], rng: random.Random) -> list[int]:
    """The faces a player of a physical-dice game would throw for this action: each die the
    game asks for (``DiceNeeded``), thrown at random, until it asks for none."""
    faces: list[int] = []
    for _ in range(200):
        try:
            dice = g.dice(faces, proc, dict(req))
            _, plan = g._prepare(proc, dict(req), faces)
            g.procedure(proc).resolve(g.state, plan, dice)
        except DiceNeeded as e:
            faces.append(rng.choice(e.die.faces))
            continue
        except Exception:  # (the rules refuse it: nothing more to throw)
            return faces
        return faces
    return faces


def try_perform(
    g: Game, proc: str, req: Mapping[str, Any], where: str, faces: Sequence[int] | None = None
) -> Any:
    """Perform; a refusal (a VedetteError, never another exception) leaves the game's state,
    its records in memory and in the store, its dice position and reservations unchanged.
    Returns the outcome, or None if refused."""
    before = snapshot(g)
    if faces is None and g.physical:  # the player's own dice: each die asked for is thrown
        # (thrown alike for the same action at the same point: a redo after undo is the same
        # throw, as a player re-entering the dice they rolled)
        try:
            full = g.procedure(proc).request_json(g.procedure(proc).parse(dict(req)))
        except VedetteError:
            full = dict(req)
        key = f"{proc}|{json.dumps(full, sort_keys=True, default=str)}|{len(g.effective)}"
        faces = own_dice(g, proc, req, random.Random(key))
    try:
        return g.perform(proc, dict(req), faces=faces)
    except VedetteError:
        after = snapshot(g)
        if after != before:
            raise ConformanceError(
                f"{where}: refused {proc} {dict(req)} changed the game"
                f" (records {before[1]}->{after[1]}, store {before[2]}->{after[2]},"
                f" position {before[3]}->{after[3]}, state changed: {before[0] != after[0]})"
            ) from None
        return None
    except Exception as e:
        raise ConformanceError(
            f"{where}: {proc} {dict(req)} raised {type(e).__name__}: {e} (not a VedetteError)"
        ) from e


def check_shown_odds(g: Game, proc: str, req: Mapping[str, Any], where: str) -> bool:
    """The odds shown before an action (``Game.odds``) are refused with a VedetteError or sum
    to exactly 1, step by step. Returns whether they were shown."""
    try:
        steps = g.odds(proc, dict(req))
    except VedetteError:
        return False
    except Exception as e:
        raise ConformanceError(
            f"{where}: odds of {proc} {dict(req)} raised {type(e).__name__}: {e}"
            " (not a VedetteError)"
        ) from e
    for o in steps:
        total = sum((r.p for r in o.rows), Fraction(0))
        if total != 1:
            raise ConformanceError(f"{where}: odds {o.label!r} of {proc} sum to {total}")
    return True


def check_obligations(g: Game, where: str, fig: Figures) -> None:
    """Every obligation can be waived (a logged event, then undone) and its own step is
    accepted or refused with a VedetteError."""
    for o in g.obligations():
        fig.obligations += 1
        before = snapshot(g)
        out = try_perform(g, "waive", {"obligation": o.id, "reason": "conformance"}, where)
        if out is None:
            raise ConformanceError(f"{where}: waiving {o.id!r} was refused")
        last = g.records[-1]
        if last.kind != "action" or last.payload["procedure"] != "waive":
            raise ConformanceError(f"{where}: waiving {o.id!r} was not logged")
        if [e["kind"] for e in last.payload["events"]] != ["waived"]:
            raise ConformanceError(f"{where}: waiving {o.id!r} logged {last.payload['events']}")
        if any(x.id == o.id for x in g.obligations()):
            raise ConformanceError(f"{where}: {o.id!r} is still owed after it was waived")
        if replay(g.ruleset, g.store.records(g.id)).state != g.state:
            raise ConformanceError(f"{where}: replay after waiving {o.id!r} differs")
        g.undo()
        fig.waived += 1
        if g.state != before[0] or not any(x.id == o.id for x in g.obligations()):
            raise ConformanceError(f"{where}: undoing the waiver of {o.id!r} did not restore it")
        done = try_perform(g, o.procedure, o.request, where)
        if done is not None and not g.ruleset.protocol_procedures()[o.procedure].query:
            g.undo()
        if g.state != before[0]:
            raise ConformanceError(f"{where}: discharging {o.id!r} then undoing changed the game")


# -- the dice tree ----------------------------------------------------------------------------
class _More(Exception):
    def __init__(self, die: Die) -> None:
        self.die = die


class _Reroll(Exception):
    pass


class _RefusedOn(Exception):
    def __init__(self, faces: tuple[int, ...], error: VedetteError) -> None:
        self.faces = faces
        self.error = error


class _Walker:
    """Follows a path of face indices and stops at the first die past it."""

    kind = "enumerated"

    def __init__(self, path: Sequence[int]) -> None:
        self.path = path
        self.i = 0
        self.faces: list[int] = []
        self.sizes: list[int] = []
        self.weight = Fraction(1)
        self.attempts: list[int] = []  # the depth at which each attempt began

    def face(self, die: Die) -> int:
        if self.i >= len(self.path):
            raise _More(die)
        k = self.path[self.i]
        self.i += 1
        self.weight /= die.sides
        self.sizes.append(die.sides)
        f = die.faces[k]
        self.faces.append(f)
        return f

    def begin_attempt(self) -> None:
        self.attempts.append(self.i)

    def reject_attempt(self) -> None:
        raise _Reroll()


@dataclass
class DiceTree:
    """The ways a procedure can draw its dice: each accepted sequence of faces with its
    probability, and, where a roll is made again on some results (a draw re-rolled, a d6
    re-rolled above N), one sequence of faces that an attempt rejected."""

    leaves: list[tuple[tuple[int, ...], Fraction]]
    rejected: tuple[int, ...] | None = None  # faces up to and including a rejected attempt


def dice_tree(run: Callable[[Any], Any], limit: int) -> DiceTree | None:
    """Every sequence of faces ``run`` can draw, with its probability; None if more than
    ``limit`` branches. A rejected attempt is rolled again from where it began, so a leaf's
    probability is conditioned on its attempts not being rejected."""
    raw: list[tuple[tuple[int, ...], Fraction, tuple[tuple[int, ...], ...]]] = []
    rejected: dict[tuple[int, ...], Fraction] = {}  # rejected weight under an attempt's node
    first_rejected: tuple[int, ...] | None = None
    stack: list[tuple[int, ...]] = [()]
    seen = 0
    while stack:
        path = stack.pop()
        w = _Walker(path)
        seen += 1
        if seen > limit:
            return None
        try:
            run(w)
        except _More as m:
            stack.extend((*path, k) for k in range(m.die.sides - 1, -1, -1))
            continue
        except VedetteError as e:
            raise _RefusedOn(tuple(w.faces), e) from e
        except _Reroll:
            start = w.attempts[-1]
            node = path[:start]
            rel = w.weight * math.prod(w.sizes[:start])
            rejected[node] = rejected.get(node, Fraction(0)) + rel
            if first_rejected is None:
                first_rejected = tuple(w.faces)
            continue
        raw.append((tuple(w.faces), w.weight, tuple(path[:a] for a in w.attempts)))
    leaves = []
    for faces, weight, nodes in raw:
        for node in nodes:
            weight /= 1 - rejected.get(node, Fraction(0))
        leaves.append((faces, weight))
    return DiceTree(leaves, first_rejected)


def chi2_critical(df: int, z: float = ALPHA_Z) -> float:
    """Wilson-Hilferty: the chi-square quantile for ``df`` degrees of freedom."""
    a = 2 / (9 * df)
    return df * (1 - a + z * math.sqrt(a)) ** 3


def chi2_fits(observed: Mapping[str, int], expected: Mapping[str, Fraction], n: int) -> str:
    """'' if the counts fit the probabilities, else why not."""
    stray = [k for k in observed if expected.get(k, 0) == 0]
    if stray:
        return f"outcomes with no chance were rolled: {stray}"
    bins: list[tuple[float, int]] = []
    small_e, small_o = 0.0, 0
    for k, p in expected.items():
        e = float(p) * n
        if e < 5:
            small_e += e
            small_o += observed.get(k, 0)
        else:
            bins.append((e, observed.get(k, 0)))
    if small_e > 0:
        bins.append((small_e, small_o))
    if len(bins) < 2:
        return ""
    stat = sum((o - e) ** 2 / e for e, o in bins)
    crit = chi2_critical(len(bins) - 1)
    if stat > crit:
        return f"chi-square {stat:.1f} > {crit:.1f} ({len(bins) - 1} df, n={n})"
    return ""


def check_odds(
    g: Game, store: Store, proc: str, req: Mapping[str, Any], where: str, fig: Figures
) -> None:
    """The odds of the whole procedure (``Game.chances``) are the frequencies of its outcomes
    when performed with every combination of forced dice (or, for a large tree, a chi-square
    fit of seeded runs of its ``resolve``). ``g`` has just performed ``proc`` ``req``."""
    fig.odds_by_procedure[proc] = fig.odds_by_procedure.get(proc, 0) + 1
    copy = fork(g, store, f"{g.name}.odds{len(g.records)}")
    copy.undo()  # back to the state the action was performed in
    p = copy.procedure(proc)
    plan = p.plan(copy.state, p.parse(dict(req)))
    state = copy.state

    def run(dice: Any) -> Any:
        return p.resolve(state, plan, dice)

    try:
        tree = dice_tree(run, CHANCES_LIMIT)
    except _RefusedOn as r:
        raise RefusedAfterRoll(
            proc,
            f"{where}: {proc} {dict(req)} was done on the dice it rolled, but is refused on"
            f" faces {list(r.faces)}: {r.error} (a refusal after the roll shows the dice)",
        ) from None
    if tree is None:
        fig.odds_too_large += 1  # too many branches to enumerate
        return
    exact: Chances = copy.chances(proc, req, limit=CHANCES_LIMIT)
    if not exact.exact:
        fig.odds_too_large += 1
        return
    want = {c.result: c.p for c in exact.rows}
    total = sum(want.values(), Fraction(0))
    if total != 1:
        raise ConformanceError(f"{where}: chances of {proc} {dict(req)} sum to {total}")
    if tree.rejected is not None:
        # the player's dice: a rejected attempt's faces, then an accepted sequence's, give
        # what that accepted sequence gives alone (the roll is made again, nothing else)
        faces, _ = tree.leaves[0]
        lone = _forced(copy, proc, req, faces, where)
        again = _forced(copy, proc, req, (*tree.rejected, *faces), where)
        if result_of(again) != result_of(lone):
            raise ConformanceError(
                f"{where}: {proc} {dict(req)}: faces {list(tree.rejected)} re-rolled then"
                f" {list(faces)} give {result_of(again)!r}, {list(faces)} alone"
                f" {result_of(lone)!r}"
            )
        fig.odds_rerolled += 1
    if len(tree.leaves) <= EXHAUSTIVE_LEAVES:
        freq: dict[str, Fraction] = {}
        for faces, w in tree.leaves:
            k = result_of(_forced(copy, proc, req, faces, where))
            freq[k] = freq.get(k, Fraction(0)) + w
        if freq != want:
            raise ConformanceError(
                f"{where}: {proc} {dict(req)}: chances {_show(want)} but forced dice give"
                f" {_show(freq)}"
            )
        fig.odds_exhaustive += 1
        fig.odds_leaves += len(tree.leaves)
        return
    src = SeededSource(CHI_SEED)
    counts: dict[str, int] = {}
    for _ in range(SAMPLES):
        k = result_of(run(src))
        counts[k] = counts.get(k, 0) + 1
    why = chi2_fits(counts, want, SAMPLES)
    if why:
        raise ConformanceError(
            f"{where}: {proc} {dict(req)}: {why}; chances {_show(want)} seeded {counts}"
        )
    fig.odds_chi2 += 1
    fig.odds_samples += SAMPLES


def _forced(copy: Game, proc: str, req: Mapping[str, Any], faces: Sequence[int], where: str) -> Any:
    """The outcome of ``proc`` performed on ``copy`` with the given faces (then undone)."""
    out = try_perform(copy, proc, req, f"{where} faces {list(faces)}", faces=faces)
    if out is None:
        raise ConformanceError(f"{where}: {proc} {dict(req)} refused faces {list(faces)}")
    copy.undo()
    return out


def _show(d: Mapping[str, Fraction]) -> str:
    return "{" + ", ".join(f"{k!r}: {v}" for k, v in sorted(d.items())) + "}"


def rolled(g: Game) -> bool:
    """The last action drew dice from the game's stream."""
    return bool(dice_ranges(g.records[-1].payload))


# -- undo and the dice ----------------------------------------------------------------------
def undo_and_maybe_redo(g: Game, rng: random.Random, where: str, fig: Figures) -> None:
    """Undo the latest action; half the time do it again at once, which must give the same
    dice and so the same rolls and events (undo cannot be used to re-roll)."""
    target = next(r for r in reversed(g.records) if r.seq == g.effective[-1])
    g.undo()
    # the live game after the undo (which may take the state kept from before the action) is
    # the game a fresh open folds from the log
    fresh = Game.open(g.store, g.name)
    for what in ("state", "position", "reservations", "effective", "top"):
        if getattr(fresh, what) != getattr(g, what):
            raise ConformanceError(f"{where}: after an undo, {what} differs from a fresh open")
    p = target.payload
    if not g.physical and dice_ranges(p):
        # a game played with its own dice refuses the player's dice for an undone roll
        before = snapshot(g)
        try:
            g.perform(str(p["procedure"]), p["request"], faces=[1])
        except DiceError as e:
            if "already rolled" not in str(e):
                raise ConformanceError(f"{where}: physical dice after undo: {e}") from None
        else:
            raise ConformanceError(f"{where}: physical dice accepted for an undone seeded roll")
        if snapshot(g) != before:
            raise ConformanceError(f"{where}: refused physical dice changed the game")
        fig.physical_refused += 1
    if rng.random() < 0.5:
        return
    out = try_perform(g, str(p["procedure"]), p["request"], f"{where} redo")
    if out is None:
        raise ConformanceError(f"{where}: redoing {p['procedure']} {p['request']} was refused")
    again = g.records[-1].payload
    if again["rolls"] != p["rolls"] or again["events"] != p["events"]:
        raise ConformanceError(
            f"{where}: redoing {p['procedure']} {p['request']} after undo rolled differently:"
            f" {[r.get('line') for r in p['rolls']]} then {[r.get('line') for r in again['rolls']]}"
        )
    fig.redone += 1
    fig.redone_rolls += len(p["rolls"])


def check_reserved_dice(g: Game, reserved: Sequence[Reservation], where: str) -> None:
    """The action just performed drew no die an undone action reserved, unless it is that
    very action again (same procedure, same request)."""
    p = g.records[-1].payload
    ranges = dice_ranges(p)
    key = (p["procedure"], canonical_request(p["request"]))
    for r in reserved:
        if _overlaps(r.ranges, ranges) and key != (r.procedure, r.request):
            raise ConformanceError(
                f"{where}: {p['procedure']} {p['request']} drew the dice reserved for the undone"
                f" {r.procedure} {r.request} (#{r.seq})"
            )


def check_audit(g: Game, where: str) -> None:
    """The dice audit counts each stream position at most once."""
    by_seq = {r.seq: r for r in g.records}
    seen: list[tuple[int, int]] = []
    for seq in dict.fromkeys(s for s, _ in g.counted_rolls()):
        ranges = dice_ranges(by_seq[seq].payload)
        if _overlaps(seen, ranges):
            raise ConformanceError(f"{where}: the dice audit counts the draws of #{seq} twice")
        seen.extend(ranges)


# -- one game ---------------------------------------------------------------------------------
def candidates(
    g: Game, rng: random.Random, owed: set[tuple[str, str]]
) -> list[tuple[str, dict[str, Any]]]:
    """What ``legal_requests`` offers, in the order a random player tries it: the owed steps
    first, then the rest shuffled, the open no-argument actions of ``todo`` mostly last (they
    are nearly always accepted, and would otherwise crowd out the actions with arguments)."""
    rs = g.ruleset
    cands = [(p, dict(r)) for p, r in rs.legal_requests(g.state, rng)]
    own = type(rs).legal_requests is not Ruleset.legal_requests
    if own:
        # a ruleset that offers only legal requests: probe refusals with the generic ones
        cands += list(Ruleset.legal_requests(rs, g.state, rng, n=PROBES))
    key = [(p, json.dumps(r, sort_keys=True, default=str)) for p, r in cands]
    open_now = {
        (t.procedure, json.dumps(dict(t.request), sort_keys=True, default=str))
        for t in g.todo()
        if not t.owed
    }
    first = [c for c, k in zip(cands, key, strict=True) if k in owed]
    late = [
        c
        for c, k in zip(cands, key, strict=True)
        if not own and k not in owed and k in open_now and rng.random() < 0.75
    ]
    rest = [c for c in cands if c not in first and c not in late]
    rng.shuffle(rest)
    rng.shuffle(late)
    return (first + rest + late)[:MAX_TRIES]


def play_game(
    name: str,
    seed: int,
    steps: int,
    store: Store | None = None,
    odds_checks: int = 3,
    fig: Figures | None = None,
    known: Mapping[str, str] | None = None,
) -> Game:
    """``steps`` steps of seeded random play of ruleset ``name``; every check on the way.
    ``known``: procedure -> a known defect of its odds check (:class:`RefusedAfterRoll`), met
    and recorded in ``fig.known`` instead of failing, so the rest of the game is checked."""
    store = store or Store(":memory:")
    fig = fig if fig is not None else Figures()
    rs = rules.get(name)
    rng = random.Random(seed)
    scenarios = list(rs.scenarios) or [""]
    scen = scenarios[seed % len(scenarios)]
    g = Game.create(
        store,
        f"{name}-{seed}",
        name,
        rs.scenario(scen) if scen else {},
        seed=seed,
        dice="physical" if seed % 2 else "seeded",
    )
    odds_done: dict[str, int] = {}
    for step in range(steps):
        where = f"{name} seed={seed} step={step}"
        fig.steps += 1
        check_todo(g, where)
        if g.obligations():
            check_obligations(g, where, fig)
        if g.effective and rng.random() < 0.08:
            undo_and_maybe_redo(g, rng, where, fig)
            fig.undos += 1
            continue
        owed = {
            (o.procedure, json.dumps(dict(o.request), sort_keys=True, default=str))
            for o in g.obligations()
        }
        for proc, req in candidates(g, rng, owed):
            reserved = g.reservations
            shown = check_shown_odds(g, proc, req, where)
            out = try_perform(g, proc, req, where)
            if out is not None and not shown:
                raise ConformanceError(f"{where}: {proc} {req} was done but its odds refused")
            if out is None:
                fig.refused += 1
                continue
            check_reserved_dice(g, reserved, where)
            fig.performed += 1
            fig.procedures[proc] = fig.procedures.get(proc, 0) + 1
            if (
                not rs.protocol_procedures()[proc].query
                and rolled(g)
                and odds_done.get(proc, 0) < 1
                and sum(odds_done.values()) < odds_checks
            ):
                odds_done[proc] = odds_done.get(proc, 0) + 1
                try:
                    check_odds(g, store, proc, req, where, fig)
                except RefusedAfterRoll as e:
                    if proc not in (known or {}):
                        raise
                    fig.known[proc] = f"{(known or {})[proc]} [{e}]"
            break
        else:
            fig.stuck += 1
    return g


def check_game(g: Game, store: Store) -> None:
    """Replay of the stored log == live; export -> import under a new name == live."""
    where = f"{g.name}"
    again = replay(g.ruleset, store.records(g.id))
    if again.state != g.state or again.position != g.position:
        raise ConformanceError(f"{where}: replay of the stored log differs from live play")
    if Game.open(store, g.name).state != g.state:
        raise ConformanceError(f"{where}: reopening the game differs from live play")
    copy = Game.import_jsonl(store, g.export_jsonl(), f"{g.name}.imported{len(g.records)}")
    if copy.state != g.state or copy.position != g.position:
        raise ConformanceError(f"{where}: export -> import differs from live play")
    if copy.reservations != g.reservations:
        raise ConformanceError(f"{where}: export -> import lost the dice reservations")
    if list(copy.counted_rolls()) != list(g.counted_rolls()):
        raise ConformanceError(f"{where}: export -> import changed the dice audit")
    check_audit(g, where)
    json.dumps(g.ruleset.state_json(g.state))
    assert isinstance(g.render(), str)


def check_logged_odds(
    g: Game, store: Store, per_procedure: int = 1, fig: Figures | None = None
) -> Figures:
    """:func:`check_odds` for the dice-rolling actions of a played (or saved) game, each from
    the state it was performed in: at most ``per_procedure`` of each procedure."""
    fig = fig if fig is not None else Figures()
    lines = g.export_jsonl().splitlines()
    done: dict[str, int] = {}
    for i in range(2, len(lines)):
        rec = json.loads(lines[i])
        if rec["kind"] != "action":
            continue
        p = rec["payload"]
        if done.get(p["procedure"], 0) >= per_procedure or not dice_ranges(p):
            continue
        done[p["procedure"]] = done.get(p["procedure"], 0) + 1
        part = resign("\n".join(lines[: i + 1]) + "\n")  # (a part of the game, signed)
        at = Game.import_jsonl(store, part, f"{g.name}@{rec['seq']}")
        check_odds(at, store, p["procedure"], p["request"], f"{g.name} #{rec['seq']}", fig)
    return fig
