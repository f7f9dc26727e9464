"""Dice: a die is a named tuple of faces (faces may repeat, e.g. two blank sides)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from vedette.errors import DiceError


@dataclass(frozen=True, slots=True)
class Die:
    """One die: ``name`` as written in notation (``d6``, ``d100``, ``dK8``) and its faces.

    A standard die ``dN`` has faces 1..N. A custom die declares its faces, which may repeat
    (Kuryakin's D8 is marked +1,+2,+3,0,0,-1,-2,-3).
    """

    name: str
    faces: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.faces:
            raise DiceError(f"die {self.name} has no faces")

    @property
    def sides(self) -> int:
        return len(self.faces)

    def weights(self) -> dict[int, int]:
        """Integer weight of each distinct face value."""
        out: dict[int, int] = {}
        for f in self.faces:
            out[f] = out.get(f, 0) + 1
        return out

    def check_face(self, face: int) -> int:
        """Return ``face`` if this die can show it, else raise a clear DiceError."""
        if face not in self.faces:
            if self.faces == tuple(range(1, self.sides + 1)):
                shown = f"1-{self.sides}"
            elif self.faces == tuple(range(self.sides)):
                shown = f"0-{self.sides - 1}"
            elif min(self.faces) > 0:  # (numbered cards left in a deck: 1,2,4)
                shown = ",".join(map(str, self.faces))
            else:
                shown = ",".join(f"{f:+d}" for f in self.faces)
            raise DiceError(f"{face} is not a face of {self.name} (faces: {shown})")
        return face


@dataclass(frozen=True, slots=True)
class DeckCard(Die):
    """A card turned up from a real deck (Kuryakin's deal with the player's own cards, reading
    K80): its faces are the numbers of the cards left in ``deck``, so a card turned up is not
    among the faces of the next one from the same deck. How many cards a deal turns up never
    depends on their numbers: the web page collects them all before it sends the deal."""

    deck: str = ""


def standard(sides: int) -> Die:
    """The ordinary die with faces 1..sides."""
    d = _COMMON.get(sides)
    if d is not None:
        return d
    if sides < 1:
        raise DiceError(f"a die needs at least one side, not {sides}")
    return Die(f"d{sides}", tuple(range(1, sides + 1)))


#: the dice the rulesets name, made once (a Die is an immutable value)
_COMMON: dict[int, Die] = {
    n: Die(f"d{n}", tuple(range(1, n + 1))) for n in (2, 3, 4, 6, 8, 10, 12, 20, 100)
}


#: Named custom dice known by default. Rulesets and users may add their own via
#: :func:`custom_dice` / a ``[dice]`` table in a data file.
CUSTOM: dict[str, Die] = {
    # Kuryakin, random movement: D8 marked +1,+2,+3,0,0,-1,-2,-3 (cm)
    "K8": Die("dK8", (1, 2, 3, 0, 0, -1, -2, -3)),
    # Kuryakin, random movement: D12 marked +5..+1,0,0,-1..-5 (cm)
    "K12": Die("dK12", (5, 4, 3, 2, 1, 0, 0, -1, -2, -3, -4, -5)),
    # percentile dice read 00-99 (two d10s, "00" is zero): Kuryakin's 80% passes 80 times in 100
    "P": Die("dP", tuple(range(100))),
    # Fudge/FATE die, a common precedent for the dNAME form
    "F": Die("dF", (-1, -1, 0, 0, 1, 1)),
}


def custom_dice(extra: Mapping[str, Iterable[int]] | None = None) -> dict[str, Die]:
    """The default custom dice, plus ``extra`` (name -> faces) from a data file."""
    out = dict(CUSTOM)
    for name, faces in (extra or {}).items():
        out[name] = Die(f"d{name}", tuple(int(f) for f in faces))
    return out
