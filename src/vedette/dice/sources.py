"""Dice sources, injected into every procedure (never the global ``random``).

* :class:`SeededSource`: a counter-based stream. Face number ``n`` of seed ``s`` is a pure
  function of ``(s, n)``, so the stream is fully described by its seed and position, both of
  which the game log records: replay is exact, and an undone roll made again gets the same dice.
* :class:`PhysicalSource`: the faces the player rolled on the table, in order. A face the die
  does not have (a 7 on a d6) is a clear error.
* :class:`ScriptedSource`: forced faces for tests and worked examples.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from vedette.dice.die import Die
from vedette.errors import DiceError, VedetteError
from vedette.hashes import blake2b
from vedette.numerals import ascii_int

if TYPE_CHECKING:  # (a roll needs no fractions: only the odds do; start-up, issue 16)
    from fractions import Fraction


class DiceSource(Protocol):
    """Anything that can produce the next face of a die."""

    def face(self, die: Die) -> int: ...

    @property
    def kind(self) -> str: ...


class SeededSource:
    """Deterministic, position-addressable stream of faces.

    ``face`` draws index ``position`` of the stream and advances; the same (seed, position)
    always gives the same face for the same die. Uniformity: a 64-bit hash value is reduced
    by rejection sampling, so every face of an N-sided die has probability exactly 1/N.
    """

    kind = "seeded"

    def __init__(self, seed: int, position: int = 0) -> None:
        self.seed = int(seed)
        self.position = int(position)
        if not -(2**127) <= self.seed < 2**127:
            digits = len(str(abs(self.seed)))
            raise DiceError(f"a seed of {digits} digits is out of range (games take 0 to 2^64-1)")
        if not 0 <= self.position < 2**62:
            raise DiceError(f"dice stream position {self.position} is out of range")
        self._key = self.seed.to_bytes(16, "little", signed=True)

    def _word(self, counter: int) -> int:
        h = blake2b(counter.to_bytes(16, "little"), digest_size=8, key=self._key)
        return int.from_bytes(h.digest(), "little")

    def index(self, n: int) -> int:
        """A uniform index in [0, n) taken from the stream."""
        limit = (1 << 64) - ((1 << 64) % n)
        sub = 0
        while True:
            # each position may need (rarely) several words; sub-words live above 2**48
            w = self._word(self.position + (sub << 48))
            if w < limit:
                self.position += 1
                return w % n
            sub += 1

    def face(self, die: Die) -> int:
        return die.faces[self.index(die.sides)]


class PhysicalSource:
    """Faces rolled by the player on the table, consumed in order."""

    kind = "physical"

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = [int(f) for f in faces]
        self.used = 0

    def face(self, die: Die) -> int:
        if self.used >= len(self.faces):
            raise DiceError(
                f"not enough dice given: die #{self.used + 1} ({die.name}) is needed"
                f" but only {len(self.faces)} were entered"
            )
        f = die.check_face(self.faces[self.used])
        self.used += 1
        return f

    def unused(self) -> list[int]:
        return self.faces[self.used :]

    def check_all_used(self) -> None:
        """Raise if the player entered more faces than the procedure needed."""
        if self.used < len(self.faces):
            raise DiceError(
                f"{len(self.faces)} dice given but only {self.used} needed"
                f" (unused: {' '.join(map(str, self.unused()))})"
            )


class DiceNeeded(DiceError):
    """A game played with the player's own dice needs a die that was not given. ``dice``:
    the dice asked for (default: that die alone); ``worded``: the step's own words for the
    ask (a card turned up, not a die rolled), kept as they are; ``called``: the die's name in
    the rule's words, with ``rule`` (O'Leary 6.1's direction die), and ``then`` the die the
    rule throws after it (its distance die), each asked for in turn."""

    def __init__(
        self,
        die: Die,
        number: int,
        message: str = "",
        web: str = "",
        dice: Sequence[Die] = (),
        worded: bool = False,
        called: str = "",
        rule: str = "",
        then: str = "",
    ) -> None:
        self.die = die
        self.number = number
        self.dice = tuple(dice) or (die,)
        self.worded = worded
        self.called = called
        which = f"die #{number} ({die.name})"
        if called:
            which = f"die #{number}, {called} ({die.name}{f', {rule}' if rule else ''}),"
        need = f"this game is played with your own dice: {which} is needed"
        also = f", then {then}," if then else ""
        super().__init__(
            message or f"{need}; roll it{also} and give the faces in order (--dice)",
            web
            or f"{need}: roll it, tap its face after the others on the dice buttons: "
            + (f"{then} is asked for next" if then else "it does the step"),
        )


class OwnDice(PhysicalSource):
    """The dice of a game played with the player's own dice: only the faces given, never a
    die of vedette's (a missing one is asked for: :class:`DiceNeeded`)."""

    def face(self, die: Die) -> int:
        if self.used >= len(self.faces):
            raise DiceNeeded(die, self.used + 1)
        return super().face(die)


class ProbeCapped(DiceError):
    """A probe that drew more dice than it allows (a reroll on equal faces may never end)."""


class ProbeSource:
    """Faces picked by a rule, not rolled: each die's lowest (``pick`` 0), middle (1) or
    highest (2) face, or lowest and highest in turn (3: the first die's lowest; 4: its
    highest), every die drawn recorded. What a step would roll, learned without rolling: the
    ask of a game played with the player's own dice (:func:`dice_asked`)."""

    kind = "probe"

    def __init__(self, pick: int, cap: int = 100) -> None:
        self.pick, self.cap = pick, cap
        self.drawn: list[Die] = []

    def face(self, die: Die) -> int:
        if len(self.drawn) >= self.cap:
            raise ProbeCapped(f"more than {self.cap} dice drawn")
        self.drawn.append(die)
        faces = sorted(die.faces)
        pick = self.pick if self.pick < 3 else 2 * ((self.pick + len(self.drawn)) % 2)
        return faces[(len(faces) - 1) * pick // 2]


def dice_asked(run: Callable[[DiceSource], object]) -> tuple[list[Die], list[Die] | None]:
    """The dice ``run`` draws whatever the faces, in order, and the further dice it may draw
    on some faces (None: none): ``run`` made five times (every die's lowest, middle, then
    highest face; then lowest and highest in turn, each way round: a contest of two dice, the
    same face on both, always took one branch: a 2 by 2 melee against artillery drew its rout
    die on every run, so three dice were asked for, the tap on the second face did nothing and
    a third face was refused, 'only 2 needed'); the dice all five drew first, and those the
    longest run drew after them (a run that stopped on an error, a reroll that never ended,
    counts as drawing more). A guide to what to ask the player for, not a proof: a branch no
    run took may draw fewer."""
    runs: list[list[Die]] = []
    more = False
    for pick in (0, 1, 2, 3, 4):
        src = ProbeSource(pick)
        try:
            run(src)
        except VedetteError:  # (a reroll without end, a face the step then refuses)
            more = True
        runs.append(src.drawn)
    common: list[Die] = []
    for dice in zip(*runs, strict=False):
        if any(d != dice[0] for d in dice):
            break
        common.append(dice[0])
    longest = max(runs, key=len)
    if not more and len(longest) == len(common):
        return common, None
    return common, longest[len(common) :]


#: the most face sequences :func:`dice_paths` lists (a bore-sight die and its scatter dice on
#: a 6 are 5 + 36 = 41); more: none listed
MOST_PATHS = 48


@dataclass(frozen=True, slots=True)
class DicePath:
    """Faces a step may take, in order, to its end (``faces``), and the name of each die in
    the rule's words where the step gives one (``names``: O'Leary 6.1's "the direction die"),
    else the die's own (``d6``)."""

    faces: tuple[int, ...]
    names: tuple[str, ...]


def dice_paths(
    run: Callable[[DiceSource], object], most: int = MOST_PATHS
) -> list[DicePath] | None:
    """Every sequence of faces that takes ``run`` to its end, in order (the first die's faces
    lowest first, then the next die's ...): ``run`` made on each sequence, a die past it
    asked for (:class:`DiceNeeded`) and each of its faces tried in turn. ``None`` when there
    are more than ``most``, a die is asked for in the step's own words (a card turned up), or
    a sequence is refused: a game played with the player's own dice may then offer every
    face sequence of a step whose dice depend on its faces, one tap for all."""
    out: list[DicePath] = []
    todo: list[tuple[tuple[int, ...], tuple[str, ...]]] = [((), ())]
    while todo:
        faces, names = todo.pop()
        try:
            run(OwnDice(faces))
        except DiceNeeded as e:
            if e.worded or len(faces) >= MAX_PATH_DICE:
                return None
            name = e.called or f"1{e.die.name}"
            todo.extend(((*faces, f), (*names, name)) for f in sorted(set(e.die.faces))[::-1])
            continue
        except VedetteError:
            return None
        out.append(DicePath(faces, names))
        if len(out) > most:
            return None
    return out


def called_for(paths: Sequence[DicePath]) -> tuple[list[int], list[str]] | None:
    """The faces of a step's one first die that call for more dice, and those dice by name
    (O'Leary 6.1: a 6 calls for the direction die and the distance die), read from its face
    sequences; None when it is not so simple (other dice on other faces)."""
    longer = [p for p in paths if len(p.faces) > 1]
    names = {p.names[1:] for p in longer}
    if len(names) != 1 or any(len(p.faces) != 1 for p in paths if p not in longer):
        return None
    return sorted({p.faces[0] for p in longer}), list(names.pop())


def called_words(first: str, on: Sequence[int], then: Sequence[str]) -> str:
    """``1d6 and, on a 6, the direction die and the distance die``; ``1d6 and, on a 4, 5 or
    6, 1d7``."""
    faces = [str(f) for f in on]
    said = f"{', '.join(faces[:-1])} or {faces[-1]}" if len(faces) > 1 else faces[0]
    return f"{first} and, on a {said}, {' and '.join(then)}"


def one_tap(paths: Sequence[DicePath]) -> bool:
    """Whether the web page offers ``paths`` as one tap each: faces a button shows (1-10)."""
    return all(1 <= f <= 10 for p in paths for f in p.faces)


#: the most dice along one sequence :func:`dice_paths` follows
MAX_PATH_DICE = 8


def dice_words(dice: Sequence[Die]) -> str:
    """``2d6, 1d8``: the dice in order, a run of the same die counted."""
    out: list[list[Any]] = []
    for d in dice:
        if out and out[-1][1] == d.name:
            out[-1][0] += 1
        else:
            out.append([1, d.name])
    return ", ".join(f"{n}{name}" for n, name in out)


class ScriptedSource(PhysicalSource):
    """Forced faces for tests; identical checks to the physical source."""

    kind = "scripted"


def parse_faces(text: str) -> list[int]:
    """Parse ``"3 5"``/``"3,5"``/``"-1,+2"`` into faces; a clear error otherwise."""
    out: list[int] = []
    if any(not p.strip() for p in text.split(",")[1:-1]):
        raise DiceError(f"a die face is missing between two commas in {text[:40]!r}")
    for part in text.replace(",", " ").split():
        try:
            out.append(ascii_int(part))  # ("３", "1_0": no face, though int reads them)
        except ValueError:
            raise DiceError(f"die face {part!r} is not a whole number") from None
    if not out:
        raise DiceError("no dice faces given")
    return out


def begin_attempt(source: DiceSource) -> None:
    """Mark the start of one attempt of a roll that is made again on some results (a draw
    rerolled, a d6 re-rolled above N). An enumerating source conditions the odds on it."""
    hook = getattr(source, "begin_attempt", None)
    if hook is not None:
        hook()


def reject_attempt(source: DiceSource) -> None:
    """The attempt begun last is void and will be rolled again (see :func:`begin_attempt`)."""
    hook = getattr(source, "reject_attempt", None)
    if hook is not None:
        hook()


class SegmentSource(SeededSource):
    """The seeded stream read over given ranges of positions, in order: an action redone after
    an undo reads the dice it was given before, then continues past every die ever drawn."""

    def __init__(self, seed: int, segments: list[tuple[int, int | None]]) -> None:
        super().__init__(seed, segments[0][0])
        self.segments = [list(s) for s in segments]
        self._seg = 0
        self.used: list[list[int]] = [[segments[0][0], segments[0][0]]]

    def index(self, n: int) -> int:
        end = self.segments[self._seg][1]
        if end is not None and self.position >= end and self._seg + 1 < len(self.segments):
            self._seg += 1
            start = self.segments[self._seg][0]
            assert start is not None
            self.position = start
            self.used.append([self.position, self.position])
        v = super().index(n)
        self.used[-1][1] = self.position
        return v

    def ranges(self) -> list[list[int]]:
        return [r for r in self.used if r[1] > r[0]]


def branch(source: DiceSource, weights: Sequence[Fraction]) -> int | None:
    """Check-level branching. Under a source that enumerates a procedure's outcomes (it has a
    ``branch`` method: ``protocol.EnumeratingSource``), the index of one of ``len(weights)``
    outcomes of a whole check, each explored once with its exact probability (``weights`` sum
    to 1), so a check of many dice costs one branch per distinct result, not one per face.
    Under any other source ``None``: roll the check's dice as usual (and record the rolls)."""
    pick = getattr(source, "branch", None)
    return None if pick is None else int(pick(weights))
