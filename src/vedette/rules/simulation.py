"""How the simulator plays a ruleset: the policies it may use and what may be done now.

A ruleset's :meth:`~vedette.rules.base.Ruleset.simulation` returns a :class:`SimPlay` (the
default: the random policy over ``legal_requests``); the end of a battle and its result are the
ruleset's own hooks (``Ruleset.outcome``, ``losses``, ``sides``, ``turn``). ``vedette.sim``
names no ruleset: it asks these.

Every policy takes what is owed first (``todo``'s order: obligations first, always): when the
state owes a step, only the candidates that discharge an obligation are considered. A policy
only *orders* the candidates; the engine's checks still refuse what the rules forbid, and the
next candidate is tried. Plain-words descriptions are in ``docs/simulation.md``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import repeat, starmap
from typing import TYPE_CHECKING, Any, ClassVar

from vedette.errors import DataError
from vedette.rules.protocol import Todo, _arg_text, iter_todo, judged, todo_entries, todo_key

if TYPE_CHECKING:  # start-up: a CLI step that does not simulate loads no random
    import random

Candidate = tuple[str, dict[str, Any]]
#: a line's candidates, in order: a list, or a lazy sequence built when first read (a policy
#: that ranks every line alike reads only the lines it tries)
Line = Iterable[Candidate]
Done = frozenset[tuple[str, str]]
Rank = Callable[[str, dict[str, Any], Any, Done], int | None]


@dataclass(frozen=True)
class Policy:
    """Orders the legal candidates: ``rank(name, request, state, done)`` gives each a rank
    (lower is tried first; None leaves it out); ties keep a random order drawn from the game's
    rng. ``done``: (procedure, unit) performed since the last ``next``."""

    name: str
    help: str
    rank: Rank
    #: the random policy's lines drawn one at a time (:func:`drawn`), not sorted by a key
    #: drawn for each line up front: the same law (every order of the lines equally likely),
    #: other games for a seed; a line is read (and completed) only when drawn
    draw: bool = False
    #: whether ``rank`` reads ``done`` (False: the simulator keeps no record of what was
    #: performed since the last ``next`` for it, and hands it an empty set)
    reads_done: bool = True

    def choose(
        self, state: Any, lines: Sequence[Line], rng: random.Random, done: Done = frozenset()
    ) -> Iterable[Candidate]:
        """Every candidate, best first: by rank, then the lines in a random order (each line
        keeps its own order). The random policy ranks every candidate alike: the lines are
        put in the order of their keys (the same draws) and read only as far as they are
        tried (the same order as sorting every candidate, unless two keys are equal); with
        ``draw``, drawn one at a time instead (:func:`drawn`)."""
        if self.rank is _random_rank and self.draw:
            return drawn(lines, rng)
        if self.rank is _random_rank:
            # (one draw a line, in order: the iteration in C, not a Python loop)
            keys = list(starmap(rng.random, repeat((), len(lines))))
            if len(set(keys)) == len(keys):
                return _in_order(lines, sorted(range(len(lines)), key=keys.__getitem__))
            return self._sorted(state, lines, keys, done)
        return self._sorted(state, lines, list(starmap(rng.random, repeat((), len(lines)))), done)

    def _sorted(
        self, state: Any, lines: Sequence[Line], keys: list[float], done: Done
    ) -> list[Candidate]:
        """Every candidate ranked, then by its line's key, its place in the line, the order
        found."""
        ranked: list[tuple[int, float, int, int]] = []
        kept: list[Candidate] = []
        rank = self.rank
        for line, key in zip(lines, keys, strict=True):
            for i, (name, req) in enumerate(line):
                r = rank(name, req, state, done)
                if r is not None:
                    # the last element, the candidate's place, keeps ties in the order found
                    ranked.append((r, key, i, len(kept)))
                    kept.append((name, req))
        ranked.sort()
        return [kept[x[3]] for x in ranked]


class LazyLine(Sequence[Candidate]):
    """A line whose candidates ``build()`` makes when the line is first read (a policy that
    ranks every line alike reads only the lines it tries)."""

    __slots__ = ("_build", "_built")

    def __init__(self, build: Callable[[], list[Candidate]]) -> None:
        self._build = build
        self._built: list[Candidate] | None = None

    def _all(self) -> list[Candidate]:
        if self._built is None:
            self._built = self._build()
        return self._built

    def __len__(self) -> int:
        return len(self._all())

    def __getitem__(self, i: Any) -> Any:
        return self._all()[i]

    def __iter__(self) -> Iterator[Candidate]:
        return iter(self._all())


def drawn(lines: Sequence[Line], rng: random.Random) -> Iterator[Candidate]:
    """The lines' candidates, a line drawn uniformly among the lines not yet tried each time
    (its candidates in its own order; the next line is drawn only if none is accepted): the
    lines come in a uniformly random order, as when sorted by a key drawn for each, but only
    the lines tried are read and one draw is made per line tried, not per line."""
    rest = list(range(len(lines)))
    while rest:
        k = rng.randrange(len(rest))
        i = rest[k]
        rest[k] = rest[-1]
        rest.pop()
        yield from lines[i]


def _in_order(lines: Sequence[Line], order: list[int]) -> Iterator[Candidate]:
    for i in order:
        yield from lines[i]


def _random_rank(name: str, req: dict[str, Any], state: Any, done: Done) -> int | None:
    return 0


RANDOM = Policy(
    "random",
    "random-legal: one open action at random, each line of the ruleset's todo equally"
    " likely (ending the phase included), its fields filled as legal_requests fills them",
    _random_rank,
    reads_done=False,
)
#: the random policy, its lines drawn one at a time (the same law; a ruleset's ``SimPlay``
#: that gives lazy lines plays it instead of :data:`RANDOM`: docs/simulation.md)
RANDOM_DRAWN = Policy(RANDOM.name, RANDOM.help, _random_rank, draw=True, reads_done=False)


def todo_lines(state: Any, ruleset: Any) -> list[Any]:
    """The ruleset's offers before ``plan`` filters them (its obligations and ``options``: a
    policy completes each and the engine judges it): only the owed lines while something is
    owed (the options are then not asked for)."""
    owed = ruleset.obligations(state)
    if owed:  # the owed lines only: the options are not asked (todo lists them after)
        return list(iter_todo(owed, ()))
    return list(ruleset.options(state))  # iter_todo's lines when nothing is owed: the options


class SimPlay:
    """A ruleset seen by the simulator: its policies, whose move it is, what may be done."""

    #: the policies that play this ruleset, by name (``random`` plays every ruleset)
    policies: ClassVar[Mapping[str, Policy]] = {"random": RANDOM}

    def acting_side(self, state: Any) -> str:
        """The side whose policy chooses now ('' for steps no side takes)."""
        return ""

    def lines(self, state: Any, ruleset: Any, rng: random.Random) -> Sequence[Line]:
        """What may be done now, one line per open action, each with the requests to try in
        order (the first the rules accept is played). Default: the ruleset's
        ``legal_requests``, one request a line; when something is owed, only what discharges
        it (obligations first, always)."""
        owed = {o.procedure for o in ruleset.obligations(state)}
        return [
            [(n, dict(r))] for n, r in ruleset.legal_requests(state, rng) if not owed or n in owed
        ]


def battle_end_turns(data: Mapping[str, Any], source: str = "rules data") -> int:
    """``[battle_end] max_turns`` of a ruleset's data (house rules applied): a whole number
    >= 1, or a one-line error naming the source."""
    sec = data.get("battle_end", {})
    turns = sec.get("max_turns") if isinstance(sec, Mapping) else None
    if not isinstance(turns, int) or isinstance(turns, bool) or turns < 1:
        raise DataError(
            source, f"[battle_end] max_turns must be a whole number >= 1, not {turns!r}"
        )
    return turns


class TodoSim(SimPlay):
    """The random policy over ``todo``'s lines, each open field filled with one of its accepted
    choices at random (what ``legal_requests`` does for Solitaire ASL), a line judged only when
    it is drawn: ``todo`` judges every offer (every combination of its open choices) to list
    the lines, the simulator judges the lines it tries. The same law (docs/simulation.md):
    every line ``todo`` would list equally likely, a line ``todo`` would drop skipped, owed
    lines only while something is owed; one line per request-and-choices (``todo`` drops an
    option with the key of an owed entry or of an option before it: here by the offer's key,
    the same for the shipped offers, tested)."""

    policies: ClassVar[Mapping[str, Policy]] = {"random": RANDOM_DRAWN}

    def lines(self, state: Any, ruleset: Any, rng: random.Random) -> Sequence[Line]:
        judge, entries = self.entries(state, ruleset)
        return [LazyLine(partial(_filled, t, owed, judge, rng)) for t, owed in entries]

    def entries(
        self, state: Any, ruleset: Any
    ) -> tuple[Callable[[str, Mapping[str, Any]], Any], list[tuple[Todo, bool]]]:
        """``todo``'s verdict on ``state`` and its entries not yet judged (each with whether it
        is owed), as the random policy counts them: owed lines only while something is owed,
        an option with the key of an owed line or of an option before it left out."""
        owed = ruleset.obligations(state)
        procs = {o.procedure for o in owed}
        out: list[tuple[Todo, bool]] = []
        seen: set[str] = set()
        # the options by their key's head (:func:`key_head`): two options with one key have
        # one head, so only options whose heads meet have their whole keys compared
        heads: dict[Any, list[Todo]] = {}
        for t, is_owed in todo_entries(owed, ruleset.options(state)):
            if owed and t.procedure not in procs:
                continue
            head = key_head(t)
            if is_owed:  # an option with an owed step's key is not listed again (todo)
                seen.add(todo_key(t))
                if head is not None:
                    heads.setdefault(head, [])  # an option with this head: its key checked
            else:
                met = heads.get(head) if head is not None else None
                if head is not None and met is None:
                    heads[head] = [t]
                else:
                    for m in met or ():  # the first with this head, its key not yet made
                        seen.add(todo_key(m))
                    if met:
                        met.clear()
                    key = todo_key(t)
                    if key in seen:
                        continue
                    seen.add(key)
            out.append((t, is_owed))
        return ruleset.todo_judge(state, owed), out


#: what ``shlex.quote`` leaves as it is (its own test of a word that needs no quotes)
_SHELL_SAFE = re.compile(r"[\w@%+=:,./-]+", re.ASCII).fullmatch


def key_head(t: Todo) -> tuple[str, str] | None:
    """The head of :func:`todo_key`: the procedure and the request's first ``KEY=VALUE`` when
    the shell takes that word as it is (``None`` otherwise, or with no request). Two options
    with one key have one head: the key is the procedure, the words, ``|``, the choices, and
    a word left unquoted holds no space, ``|`` or quote, so it ends where the other's does."""
    for k, v in t.request.items():
        word = f"{k}={v if type(v) is str else _arg_text(v)}"
        return (t.procedure, word) if _SHELL_SAFE(word) else None
    return None


def _filled(
    t: Todo, owed: bool, judge: Callable[[str, Mapping[str, Any]], Any], rng: random.Random
) -> list[Candidate]:
    """``t`` judged as ``todo`` judges it, its open fields each given one accepted choice at
    random (none: a line ``todo`` drops, or an owed step it marks refused)."""
    j = judged(t, judge, owed)
    if j is None or j.refused:
        return []
    return [(j.procedure, {**j.request, **{k: rng.choice(v) for k, v in j.open.items()}})]
