"""Names for games the player did not name (issue 26: starting a game needs no typing)."""

from __future__ import annotations

from vedette.engine.store import Store


def free_name(store: Store, stem: str) -> str:
    """``stem-N`` with the smallest N that no game of ``store`` is called (``nab-1``)."""
    taken = {g.name for g in store.games()}
    n = 1
    while f"{stem}-{n}" in taken:
        n += 1
    return f"{stem}-{n}"


def default_stem(ruleset: object) -> str:
    """A ruleset's short name (its first alias: nab, asl, ...), for a game's default name."""
    aliases = tuple(getattr(ruleset, "aliases", ()) or ())
    return str(aliases[0] if aliases else getattr(ruleset, "name", "game"))
