"""What the chance cards played on a unit do to it (Kuryakin, Move Sequence: "each side draws
one chance card ... plays it any time"): the deck read from the rule data once per game, the
effects a unit holds, the modifiers they give its rolls and the one-use effects a roll spends.
Read by the topic modules (movement, fire, morale, charges) below the cards' own procedures
(cards.py: dealing, activation, playing a chance card)."""

from __future__ import annotations

from vedette.dice import Modifier
from vedette.errors import DataError
from vedette.rules.solo_napoleonic.common import Changes
from vedette.rules.solo_napoleonic.events import ChanceCardApplied
from vedette.rules.solo_napoleonic.model import (
    EFFECT_KINDS,
    ROLL_KINDS,
    ChanceCard,
    ChanceEffect,
    State,
    Unit,
)

R_CHANCE = "Kuryakin, Move Sequence (chance cards)"


#: the deck read from a game's rule data, by the identity of its config (a game's config never
#: changes while it is played; the entry keeps it alive so its id is not reused)
_DECKS: dict[int, tuple[object, tuple[ChanceCard, ...]]] = {}


def chance_deck(state: State) -> list[ChanceCard]:
    """The chance deck as data, each card with its typed effect (read once per game's data)."""
    hit = _DECKS.get(id(state.config))
    if hit is not None and hit[0] is state.config:
        return list(hit[1])
    deck = _read_deck(state)
    if len(_DECKS) > 64:
        _DECKS.clear()
    _DECKS[id(state.config)] = (state.config, tuple(deck))
    return deck


def _read_deck(state: State) -> list[ChanceCard]:
    out = []
    for c in state.config.chance_cards:
        d = c.does
        if d.kind not in EFFECT_KINDS or any(r not in ROLL_KINDS for r in d.rolls):
            raise DataError(
                "solo_napoleonic data",
                f"chance card {c.id!r}: kind must be one of {', '.join(EFFECT_KINDS)}"
                f" and rolls among {', '.join(ROLL_KINDS)}",
            )
        does = ChanceEffect(d.kind, d.rolls, d.value, d.uses, d.on)
        out.append(ChanceCard(c.id, c.title, c.effect, does))
    return out


def card_by_id(state: State, cid: str) -> ChanceCard | None:
    for c in chance_deck(state):
        if c.id == cid:
            return c
    return None


def effects_on(state: State, u: Unit, kind: str, roll: str | None = None) -> list[ChanceCard]:
    """The chance cards played on ``u`` whose effect is ``kind`` (for ``roll``)."""
    out = []
    for cid in u.chance_effects:
        c = card_by_id(state, cid)
        if c is not None and c.does.kind == kind and (roll is None or roll in c.does.rolls):
            out.append(c)
    return out


def chance_mods(state: State, u: Unit, roll: str) -> tuple[Modifier, ...]:
    """The modifiers the chance cards played on ``u`` give its roll of kind ``roll``."""
    return tuple(
        Modifier(c.does.value, f"chance card: {c.title}", R_CHANCE)
        for c in effects_on(state, u, "modifier", roll)
    )


def use_effects(ch: Changes, uid: str, roll: str, kind: str = "modifier") -> None:
    """A roll of kind ``roll`` was made: its one-use chance effects are spent."""
    u = ch.state.unit(uid)
    spent = {c.id for c in effects_on(ch.state, u, kind, roll) if c.does.uses == 1}
    if spent:
        left = tuple(x for x in u.chance_effects if x not in spent)
        ch.unit(
            ChanceCardApplied,
            uid,
            f"chance card spent: {', '.join(sorted(spent))}",
            chance_effects=left,
        )
