"""What the toy's rules owe: a cheer for a natural six before the turn may end (Toy 3)."""

from __future__ import annotations

from vedette.referee import Obligation

CHEER = Obligation("cheer", "cheer", {}, "Toy 3", "a cheer for the six", blocks=("rest",))
