"""Activation cards and chance cards (Kuryakin, Move Sequence; Movement).

One card per unit on the table, both sides together, numbered 1..N. A controlled formation gets
one card for all its units in command; a failed formation's units, out-of-command units and
units without a brigadier each get their own. Cards are dealt at random (a Fisher–Yates shuffle
whose swaps are die rolls from the injected source, so a game replays and a test can force it),
all revealed at once, and the lowest acts first. Unissued numbers are put aside.

A unit attacked with intent to melee jumps the queue: it is given the key just below the next
card still to act after the attacker's (Kuryakin's example: lancers #4 charge infantry #15; the
next card to act is #7, cards 5 and 6 being unissued, so the infantry become '6.5').
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from vedette.dice import DiceSource, Odds, standard
from vedette.dice.check import OddsRow
from vedette.dice.die import DeckCard
from vedette.dice.roll import Face, Roll, single
from vedette.dice.sources import DiceNeeded
from vedette.errors import BadRequest, RuleViolation
from vedette.rules.base import Outcome
from vedette.rules.solo_napoleonic import requests as rq
from vedette.rules.solo_napoleonic.actions import (
    after_charge_refusal,
    changing_refusal,
    failed_jumper_refusal,
    formation_refusal,
    halt_refusal,
    move_refusal,
    nothing_to_start,
    reform_refusal,
    start_refusal,
)
from vedette.rules.solo_napoleonic.chance import R_CHANCE, card_by_id, chance_deck
from vedette.rules.solo_napoleonic.common import Changes
from vedette.rules.solo_napoleonic.events import (
    ActivationEnded,
    CardActivated,
    CardsDealt,
    ChanceCardApplied,
    ChanceCardPlayed,
    MoraleMarked,
    QueueJumped,
    StandstillTested,
)
from vedette.rules.solo_napoleonic.flow import advance_left
from vedette.rules.solo_napoleonic.model import (
    Card,
    ChanceCard,
    State,
    Unit,
)

R_SEQ = "Kuryakin, Move Sequence / Movement"
R_JUMP = "Kuryakin, Movement (attacked units jump the queue)"


def holders(state: State) -> list[tuple[str, tuple[str, ...], bool]]:
    """(holder, units, is a formation card) for this turn, in a fixed order."""
    out: list[tuple[str, tuple[str, ...], bool]] = []
    seen: set[str] = set()
    for g in state.generals:
        if g.rank != "brigadier" or state.control.get(g.id) != "passed":
            continue
        units = tuple(u.id for u in state.brigade_units(g.id) if u.in_command)
        if units:
            out.append((g.id, units, True))
            seen.update(units)
    for u in state.units:
        if u.on_table and u.id not in seen:
            out.append((u.id, (u.id,), False))
    return out


def shuffle(n: int, dice: DiceSource) -> tuple[list[int], list[Roll]]:
    """Fisher–Yates shuffle of 1..n, each swap index a die roll from ``dice``."""
    deck = list(range(1, n + 1))
    rolls: list[Roll] = []
    for i in range(n - 1, 0, -1):
        f = dice.face(standard(i + 1))
        j = f - 1
        deck[i], deck[j] = deck[j], deck[i]
        rolls.append(
            single(
                i + 1, f, dice.kind, f"shuffle: card in place {i + 1} swaps with place {f}", R_SEQ
            )
        )
    return deck, rolls


def real_deck(state: State) -> bool:
    """Reading K80: the game deals a real deck (option ``deal=cards``, the default of a game
    played with the player's own dice): the card turned up for each holder in turn."""
    return state.options.get("deal") == "cards"


def turn_up(dice: DiceSource, name: str, left: list[int], ask: str, web: str, deck: str) -> int:
    """The number on the card turned up, one of ``left`` (the cards left in ``deck``): the
    player's own card (``dice`` their stated faces: ``ask`` and ``web`` word the ask for it),
    or under the game's dice one of ``left`` at random, each equally likely."""
    try:
        return dice.face(DeckCard(name, tuple(left), deck))
    except DiceNeeded as e:
        raise DiceNeeded(e.die, e.number, ask, web, worded=True) from None


def card_roll(name: str, face: int, dice: DiceSource, label: str, rule: str, then: str) -> Roll:
    """The record of a card turned up (a stated draw under the player's own cards)."""
    return Roll(
        "card",
        (Face(name, face),),
        face,
        final=face,
        label=label,
        rule=rule,
        consequence=then,
        source=dice.kind,
    )


def deal_real_deck(
    hs: list[tuple[str, tuple[str, ...], bool]], n: int, dice: DiceSource
) -> tuple[list[int], list[Roll]]:
    """Reading K80: a card turned up from the deck of 1..n for each holder in turn (the
    holders' fixed order), of the cards left; the last holder's card is not asked when one
    card is left (the whole deck dealt)."""
    left = list(range(1, n + 1))
    numbers: list[int] = []
    rolls: list[Roll] = []
    order = ", ".join(h for h, _, _ in hs)
    for k, (h, _, _) in enumerate(hs):
        if len(left) == 1:
            numbers.append(left[0])  # (the deck's last card: no choice, nothing to tell)
            break
        shown = ", ".join(map(str, left))
        ask = (
            f"deal: this game deals a real deck of {n} cards (deal=cards, reading K80): turn"
            f" one up for each of {order} in turn and give their numbers in that order,"
            " then each side's chance card (--dice), or deal by hand (cards=...); next:"
            f" {h}'s card, one of {shown}"
        )
        web = f"turn up {h}'s card and tap its number ({k + 1} of {len(hs)}; left: {shown})"
        f = turn_up(dice, f"card for {h}", left, ask, web, "activation")
        left.remove(f)
        numbers.append(f)
        rolls.append(
            card_roll(f"card for {h}", f, dice, f"{h} turns up a card", R_SEQ, f"{h} holds #{f}")
        )
    return numbers, rolls


def draw_chance_real(
    state: State, deck_c: list[ChanceCard], dice: DiceSource, given: Mapping[str, str] | None = None
) -> tuple[dict[str, str], list[Roll]]:
    """Reading K80: each side turns up a chance card from the real deck, numbered 1..k in the
    deck's order (``vedette solonap help``), of the cards left; a side whose card ``given``
    names (drawn by hand) draws none, and its card is out of the deck."""
    taken = set((given or {}).values())
    left = [i for i in range(1, len(deck_c) + 1) if deck_c[i - 1].id not in taken]
    chance: dict[str, str] = {}
    rolls: list[Roll] = []
    for side in state.sides:
        if given and side in given:
            continue
        if not left:
            break
        shown = ", ".join(f"{i} {deck_c[i - 1].id}" for i in left)
        ask = (
            f"deal: {side} draws a chance card from the real deck (deal=cards): give its"
            f" number after the activation cards (--dice), one of {shown}"
        )
        web = f"{side} draws a chance card: tap its number ({shown})"
        f = (
            left[0]
            if len(left) == 1
            else turn_up(dice, f"chance card for {side}", left, ask, web, "chance")
        )
        left.remove(f)
        c = deck_c[f - 1]
        chance[side] = c.id
        rolls.append(
            card_roll(
                f"chance card for {side}",
                f,
                dice,
                f"{side} draws a chance card",
                R_CHANCE,
                f"{c.title}: {c.effect}",
            )
        )
    return chance, rolls


def deal(state: State, req: rq.Deal, dice: DiceSource) -> Outcome:
    """Deal and reveal the activation cards, and each side's chance card. ``cards`` (a mapping
    holder -> number) and ``chance`` (side -> card id) enter cards dealt by hand."""
    hs = holders(state)
    n = sum(1 for u in state.units if u.on_table)
    rolls: list[Roll] = []
    given = req.cards
    if given is not None:
        if not isinstance(given, dict):
            raise BadRequest("'cards' must be a mapping holder -> card number")
        names = {h for h, _, _ in hs}
        if set(given) != names:
            raise BadRequest(f"'cards' must give a card to exactly: {', '.join(sorted(names))}")
        nums = [int(v) for v in given.values()]
        if len(set(nums)) != len(nums) or not all(1 <= x <= n for x in nums):
            raise BadRequest(f"card numbers must be different and 1-{n}")
        numbers = [int(given[h]) for h, _, _ in hs]
    elif real_deck(state):
        numbers, rolls = deal_real_deck(hs, n, dice)
    else:
        deck, rolls = shuffle(n, dice)
        numbers = deck[: len(hs)]
    cards = tuple(
        Card(h, num, float(num), units, form)
        for (h, units, form), num in zip(hs, numbers, strict=True)
    )
    ch = Changes(state)
    chance: dict[str, str] = {}
    deck_c = chance_deck(state)
    given_c = req.chance
    if given_c is not None:
        if not isinstance(given_c, dict):
            raise BadRequest("'chance' must be a mapping side -> chance card id")
        left_c = [c.id for c in deck_c]
        for side, cid in given_c.items():
            if side not in state.sides or cid not in {c.id for c in deck_c}:
                raise BadRequest(f"chance card {cid!r} for {side!r}: unknown side or card")
            if cid not in left_c:  # (one deck, each side draws from it: Move Sequence)
                raise BadRequest(
                    f"chance card {cid!r} for {side!r}: already drawn by another side (each"
                    " side draws its card from the one chance deck; Kuryakin, Move Sequence)"
                )
            left_c.remove(cid)
            chance[side] = str(cid)
    # Move Sequence: "each side draws one chance card": a side whose card is not given by hand
    # draws its own from what is left of the deck (``chance={}`` states that none is dealt)
    drawing = given_c is None or (bool(given_c) and len(chance) < len(state.sides))
    if drawing and deck_c and real_deck(state):
        drawn_c, drawn = draw_chance_real(state, deck_c, dice, chance)
        chance.update(drawn_c)
        rolls += drawn
    elif drawing:
        left = [c for c in deck_c if c.id not in set(chance.values())]
        for side in state.sides:
            if side in chance:
                continue
            if not left:
                break
            f = dice.face(standard(len(left)))
            c = left.pop(f - 1)
            chance[side] = c.id
            rolls.append(
                single(
                    len(left) + 1,
                    f,
                    dice.kind,
                    f"{side} draws a chance card",
                    R_CHANCE,
                    f"{c.title}: {c.effect}",
                )
            )
    ch.game(
        CardsDealt,
        "cards dealt and revealed",
        cards=cards,
        deck_size=n,
        phase="activation",
        active=None,
        done=(),
        chance=chance,
        chance_played=(),
    )
    order = ", ".join(f"#{c.key_text()} {c.holder}" for c in ch.state.queue())
    spare = sorted(set(range(1, n + 1)) - set(numbers))
    msg = f"cards revealed (1-{n}): {order}"
    if spare:
        msg += f"; spare: {', '.join(map(str, spare))}"
    return Outcome(
        tuple(ch.events),
        tuple(rolls),
        msg,
        {"order": [c.holder for c in ch.state.queue()], "spare": spare, "chance": chance},
    )


def deal_odds(state: State, req: rq.Deal) -> list[Odds]:
    if req.cards is not None:
        return []
    hs = holders(state)
    n = sum(1 for u in state.units if u.on_table)
    if not hs or n == 0:
        return []
    # every holder's card is uniform on 1..n; P(acts first among holders) is 1/len(hs)
    rows = tuple(OddsRow(h, f"{h} holds the lowest card", Fraction(1, len(hs))) for h, _, _ in hs)
    out = [Odds("who acts first", rows, rule=R_SEQ, note=f"{len(hs)} cards from 1-{n}")]
    given = req.chance if isinstance(req.chance, dict) else None
    if given is None or (given and len(given) < len(state.sides)):
        deck = [c for c in chance_deck(state) if c.id not in set((given or {}).values())]
        drawing = [s for s in state.sides if s not in (given or {})]
        # each side draws one card without replacement: each card is equally likely for each
        for side in drawing[: len(deck)]:
            crow = tuple(
                OddsRow(c.id, f"{c.title}: {c.effect}", Fraction(1, len(deck))) for c in deck
            )
            out.append(Odds(f"{side}'s chance card", crow, rule=R_CHANCE))
    return out


# -- activation ---------------------------------------------------------------------------------
#: whether a unit's fire and its charge are open on its card: ``(fire, charge)``
Attacks = Callable[[State, Unit], tuple[bool, bool]]


def by_type(state: State, u: Unit) -> tuple[bool, bool]:
    """Fire and charge by the unit's type alone (no target looked for)."""
    return u.kind == "infantry" or u.artillery or u.skirmishing, not (u.artillery or u.skirmishing)


def may_do(state: State, u: Unit, attacks: Attacks = by_type) -> list[str]:
    if not u.on_table:
        return []  # eliminated (or gone): its card lists nothing (issue 23)
    if u.morale_due:
        return ["test morale first (morale)"]
    rally = [] if u.rally_failed else ["rally"]
    if u.status == "routing":
        return ["move mode=rout (2D)", *rally]
    if u.must_rally:
        return rally + (["move mode=retire"] if u.status == "retiring" else [])
    if failed_jumper_refusal(state, u, "act") is not None:
        return []  # (reading K84: it failed the test the charge forced; its result stands)
    # (a unit's own actions listed only where the referee accepts them, as todo offers them:
    # no move and no test to move off without a move to make, unlimbered guns or its move made,
    # Moving From A Standstill; no halt for guns that do not move, reading K77; no reform
    # without chits or once it has done something, Disorder; one formation change a card, K71)
    movable = nothing_to_start(state, u) is None
    acts = ["move"] if movable and move_refusal(state, u) is None else []
    if formation_refusal(state, u) is None and after_charge_refusal(state, u, "formation") is None:
        acts.append("formation")
    # (fire and charge where todo offers them: ``attacks``, a target they may be made at)
    shoots, charges = attacks(state, u)
    if shoots:
        acts.append("fire")
    if charges:
        acts.append("charge")
    if reform_refusal(state, u) is None and changing_refusal(state, u, "reform") is None:
        acts.append("reform")
    if u.advancing:
        acts += ["halt"] if halt_refusal(state, u) is None else []
    elif start_refusal(state, u) is None:
        acts.append("start")
    if u.restricted_to:
        acts = [f"{a} (only against {u.restricted_to})" for a in acts]
    return acts


def next_card(
    state: State, req: rq.Next, dice: DiceSource, attacks: Attacks | None = by_type
) -> Outcome:
    """Finish the active card (its units have acted) and reveal whose turn it is; what each
    of its units may do (``may_do``: its fire and charge as ``attacks`` says; ``None``: the
    events alone, no words, for a reader of its verdict and events only: :func:`quiet_next`)."""
    ch = Changes(state)
    done = list(state.done)
    lapsed: list[str] = []
    if state.active is not None:
        done.append(state.active)
        for uid in state.active_units():
            u = state.unit(uid)
            if u.bound == "advance" and u.on_table:
                # Moving From A Standstill: it carries on regardless, but could not advance
                # (advance_left says why): the owed advance lapses, the reason logged
                why = advance_left(state, u)
                text = f"{uid}'s owed advance lapses: {why if isinstance(why, str) else 'unused'}"
                ch.unit(StandstillTested, uid, text, bound=None)
                lapsed.append(text)
            ch.unit(ActivationEnded, uid, "card finished", acted=True)
    for c in state.put_aside() if attacks is not None else ():
        # reading K69: a card with no unit left on the table is passed over, the reason logged
        lapsed.append(f"card #{c.key_text()} ({c.holder}) put aside: no unit of it on the table")
    c_next = state.next_after_active()
    if c_next is None:
        ch.game(CardActivated, "all cards played", done=tuple(done), active=None, phase="end")
        text = "every card has acted: end the turn (end_turn)"
        return Outcome(tuple(ch.events), (), "\n".join([*lapsed, text]), {"active": None})
    c = c_next
    ch.game(CardActivated, "next card", done=tuple(done), active=c.holder)
    units = [ch.state.unit(x) for x in c.units]
    if attacks is None:
        return Outcome(tuple(ch.events))
    lines = [
        *lapsed,
        f"card #{c.key_text()}: {c.holder}"
        + (" (controlled formation: move its units in any order)" if c.formation else ""),
    ]
    may = {u.id: may_do(ch.state, u, attacks) for u in units}
    for u in units:
        lines.append(f"  {u.id}: " + (", ".join(may[u.id]) or "no longer on the table"))
    return Outcome(
        tuple(ch.events),
        (),
        "\n".join(lines),
        {"active": c.holder, "card": c.key, "units": list(c.units), "may": may},
    )


def quiet_next(state: State, req: rq.Next, dice: DiceSource) -> Outcome:
    """:func:`next_card`'s events, without its words (what the next card's units may do, a
    look at each of them; the cards put aside on the way): its dry run (``plan``'s verdict,
    ``todo``'s) and the simulator's ``play`` read the verdict and the events, never the
    message."""
    return next_card(state, req, dice, None)


def jump_key(state: State, attacker: str, target: str) -> float:
    """The key the attacked unit jumps to: just below the next card to act after the attacker's
    (half a card below it), and after any unit that jumped there before."""
    ac = state.card_of(attacker)
    tc = state.card_of(target)
    a = ac.key if ac is not None else 0.0
    own = tc.holder if tc is not None and len(tc.units) == 1 else None
    queue = [c for c in state.queue() if c.holder != own]
    dealt = [c.key for c in queue if c.key > a and c.key == float(c.number)]
    if not dealt:
        jumped = [c.key for c in queue if c.key > a]
        return max([a, *jumped]) + 0.5
    nxt = min(dealt)
    floor = max([a, *[c.key for c in queue if a < c.key < nxt]])
    k = nxt - 0.5
    if k <= floor:
        k = (floor + nxt) / 2
    return k


def jump(ch: Changes, attacker: str, target: str) -> str:
    """Kuryakin, Movement: an attacked unit acts straight after its attacker, restricted to
    actions against it; one that has already acted tests morale at once (no second turn)."""
    st = ch.state
    t = st.unit(target)
    tc = st.card_of(target)
    if t.acted or (tc is not None and tc.holder in st.done):
        ch.unit(
            MoraleMarked, target, "attacked after acting: tests morale at once", morale_due=True
        )
        return f"{target} has already acted: it tests morale at once"
    key = jump_key(st, attacker, target)
    old = st.card_of(target)
    cards: list[Card] = []
    for c in st.cards:
        if old is not None and c.holder == old.holder:
            rest = tuple(x for x in c.units if x != target)
            if rest:
                cards.append(Card(c.holder, c.number, c.key, rest, c.formation))
            continue
        cards.append(c)
    num = old.number if old is not None else 0
    new = Card(target, num, key, (target,), False)
    cards.append(new)
    ch.game(QueueJumped, f"{target} attacked by {attacker}: jumps the queue", cards=tuple(cards))
    ch.unit(
        MoraleMarked, target, f"attacked by {attacker}", morale_due=True, restricted_to=attacker
    )
    was = f"#{old.key_text()}" if old is not None else "no card"
    return f"{target} ({was}) jumps to card '{new.key_text()}', straight after {attacker}"


def play_chance(state: State, req: rq.Chance, dice: DiceSource) -> Outcome:
    """Play a side's held chance card now (on whoever the holder chooses); cards not played
    are lost at the end of the turn."""
    side = req.side
    if side not in state.sides:
        raise BadRequest(f"no side {side!r} (sides: {', '.join(state.sides)})")
    cid = state.chance.get(side)
    if cid is None or cid in state.chance_played:
        raise RuleViolation(R_CHANCE, f"{side} holds no chance card to play")
    card = next(c for c in chance_deck(state) if c.id == cid)
    on = req.on
    rolls: list[Roll] = []
    if card.does.kind != "none":
        # checked before any die: plan refuses what the roll would (issue 22)
        if on is None:
            raise BadRequest(f"'{card.title}' acts on a unit: give on=UNIT (or on=random)")
        pool = chance_pool(state, side, card)
        if not pool:
            raise RuleViolation(R_CHANCE, f"'{card.title}': no {card.does.on} unit to play it on")
        if on != "random":
            state.unit(on)
            if on not in pool:
                raise RuleViolation(
                    R_CHANCE,
                    f"'{card.title}' is played on {_WHOSE[card.does.on]} unit; {on} is not one"
                    f" (eligible: {', '.join(pool)})",
                )
    elif on is not None and on != "random":
        state.unit(on)
    if on == "random" and card.does.kind != "none":
        # played "randomly if preferred": a die picks the unit it falls on, among the units
        # the card may be played on
        pool = chance_pool(state, side, card)
        f = dice.face(standard(len(pool)))
        on = pool[f - 1]
        rolls.append(
            single(
                len(pool),
                f,
                dice.kind,
                f"{side}'s chance card falls on a random unit",
                R_CHANCE,
                on,
            )
        )
    elif on == "random":
        on = None
    ch = Changes(state)
    ch.game(ChanceCardPlayed, f"{side} plays {cid}", chance_played=(*state.chance_played, cid))
    does = card.does
    applied = ""
    if does.kind != "none" and on is not None:
        u = ch.state.unit(on)
        if does.kind == "disorder":
            n = max(0, u.disorder + does.value)
            ch.unit(ChanceCardApplied, on, f"chance card {cid}", disorder=n)
            applied = f" ({on} now {n}D)"
        else:
            kw: dict[str, Any] = {"chance_effects": (*u.chance_effects, cid)}
            if does.kind == "no_move":
                # "may not move this turn": no advance owed, and a charge under way stops
                if u.bound == "advance":
                    kw["bound"] = None
                if u.charge_state == "declared":
                    kw["charge_state"] = "done"
                    kw["charge_step"] = None
            ch.unit(ChanceCardApplied, on, f"chance card {cid}", **kw)
            applied = f" ({on} holds it: {does.kind})"
    tgt = f" on {on}" if on else ""
    return Outcome(
        tuple(ch.events),
        tuple(rolls),
        f"{side} plays '{card.title}'{tgt}: {card.effect}{applied}",
        {"card": cid, "on": on},
    )


_WHOSE = {"friend": "a friendly", "enemy": "an enemy", "any": "any"}


def chance_pool(state: State, side: str, card: ChanceCard) -> list[str]:
    """The units a side's chance card may be played on: its own units ('friend'), the other
    side's ('enemy': "one enemy unit ...") or any unit on the table ('any'); each card's
    ``on`` is data (our own deck: an assumption)."""
    who = card.does.on
    return [
        u.id
        for u in state.units
        if u.on_table and (who == "any" or (u.side == side) == (who == "friend"))
    ]


def chance_odds(state: State, req: rq.Chance) -> list[Odds]:
    """Played "randomly if preferred": each eligible unit equally likely."""
    if req.on != "random":
        return []
    cid = state.chance.get(req.side)
    card = card_by_id(state, cid) if cid else None
    if card is None or card.does.kind == "none":
        return []
    pool = chance_pool(state, req.side, card)
    if not pool:
        return []
    rows = tuple(OddsRow(uid, f"falls on {uid}", Fraction(1, len(pool))) for uid in pool)
    return [Odds("the chance card falls on", rows, f"1d{len(pool)}", rule=R_CHANCE)]


def order_query(state: State, req: rq.Order, dice: DiceSource) -> Outcome:
    q = state.queue()
    lines = [
        f"#{c.key_text()} {c.holder}"
        + (f" ({', '.join(c.units)})" if c.formation else "")
        + (" ← active" if c.holder == state.active else "")
        for c in q
    ]
    data: dict[str, Any] = {
        "queue": [
            {"holder": c.holder, "key": c.key, "number": c.number, "units": list(c.units)}
            for c in q
        ]
    }
    return Outcome((), (), "\n".join(lines) or "no cards in play", data)
