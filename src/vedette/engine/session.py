"""A game session: the engine owns the dice source and the event log; state is the fold of
the log through the ruleset.

Log records:

* ``created``: ruleset, scenario (the full data, not a path), options, house rules, seed, and
  whether the game is played with the game's dice or the player's (``dice``).
* ``action``: the procedure and its typed request (as JSON), the events (typed, versioned), the
  rolls (JSON), the message, and the dice: the ranges of stream positions drawn.
* ``undo``: undoes the latest action not already undone. Nothing is deleted.

Undo cannot be used to learn or re-roll the dice: the dice an undone action drew stay reserved
for the same procedure with the same request (redo gives the same dice); any other action draws
past every die ever drawn. A game played with the game's dice refuses physical dice for an
action whose seeded roll was undone.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from vedette import __version__, rules
from vedette.data.limits import check_request
from vedette.dice.sources import (
    DiceNeeded,
    DicePath,
    DiceSource,
    OwnDice,
    PhysicalSource,
    SegmentSource,
    called_for,
    called_words,
    dice_asked,
    dice_paths,
    dice_words,
    one_tap,
)
from vedette.engine.snapshot import CODEC_VERSION, Unsnapshottable, dumps, model_key
from vedette.engine.store import (
    STORE_VERSION,
    IndexRow,
    Record,
    Snapshot,
    StorageError,
    Store,
    check_game_name,
    iter_jsonl,
)
from vedette.errors import BadRequest, DataError, DiceError, GameError, VedetteError
from vedette.hashes import blake2b
from vedette.rules.base import Outcome, Ruleset
from vedette.rules.protocol import (
    Chances,
    Obligation,
    Plan,
    Procedure,
    Todo,
    Verdict,
    Waived,
    WaiveRequest,
    chances,
    verdict_of,
)

if TYPE_CHECKING:
    from vedette.dice.check import Odds  # start-up time: the odds module loads when used
    from vedette.dice.die import Die

EXPORT_FORMAT = "vedette-game"
#: 2: the head line carries the records' count and digest (release 0.1 wrote 1: neither)
EXPORT_VERSION = 2
#: the release that wrote each older export format (a log it re-referees differently from
#: today's rules is imported flagged as that release's history)
OLD_RELEASE = {1: "0.1"}


def _fresh_seed() -> int:
    import secrets  # start-up time

    return secrets.randbits(63)


@dataclass(frozen=True, slots=True)
class Reservation:
    """Dice an undone action drew, kept for the same procedure with the same request."""

    procedure: str
    request: str  # canonical JSON
    ranges: tuple[tuple[int, int], ...]
    seq: int


def reservation(undone: Record) -> Reservation | None:
    """The dice an action drew, kept for the same procedure and request once it is undone
    (None if it drew none)."""
    ranges = dice_ranges(undone.payload)
    if not ranges:
        return None
    return Reservation(
        str(undone.payload.get("procedure")),
        canonical_request(undone.payload.get("request", {})),
        ranges,
        undone.seq,
    )


@dataclass(frozen=True, slots=True)
class Replayed:
    """The result of folding a log: state, dice high-water mark, the effective actions and
    the dice reserved by undone actions."""

    state: Any
    position: int
    effective: tuple[int, ...]  # seqs of actions in force, in order
    reservations: tuple[Reservation, ...] = ()


def effective_actions(records: Sequence[Record]) -> list[Record]:
    """The actions still in force: each ``undo`` cancels the latest one in force."""
    stack: list[Record] = []
    for r in records:
        if r.kind == "action":
            stack.append(r)
        elif r.kind == "undo" and stack:
            stack.pop()
    return stack


def dice_ranges(payload: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    """The stream positions an action drew (older logs: one range, before..after)."""
    d = payload.get("dice", {}) or {}
    if d.get("source") != "seeded":
        return ()
    if "ranges" in d:
        ranges = d["ranges"]
        if ranges == []:  # most actions draw nothing (read once per action by every replay)
            return ()
        return tuple((int(a), int(b)) for a, b in ranges if int(b) > int(a))
    a, b = int(d.get("before", 0)), int(d.get("after", 0))
    return ((a, b),) if b > a else ()


def _overlaps(x: Sequence[tuple[int, int]], y: Sequence[tuple[int, int]]) -> bool:
    return any(a < d and c < b for a, b in x for c, d in y)


def canonical_request(request: Mapping[str, Any]) -> str:
    return json.dumps(request, sort_keys=True, default=str)


def replay(ruleset: Ruleset[Any], records: Sequence[Record], stored: bool = False) -> Replayed:
    """Fold a whole log. Same log, same state: always. ``stored``: the log is the store's own
    (decoded without the input limits an imported log is checked against)."""
    if not records or records[0].kind != "created":
        raise GameError("a game log must start with a 'created' event")
    c = records[0].payload
    state = ruleset.initial(c["scenario"], _options(c))
    actions = effective_actions(records[1:])
    fold = ruleset.fold
    decode = ruleset.decode_stored if stored else ruleset.decode
    for a in actions:
        for e in a.payload["events"]:
            state = fold(state, decode(e))
    position, reservations = dice_book(records)
    return Replayed(state, position, tuple(a.seq for a in actions), reservations)


def dice_book(records: Sequence[Record]) -> tuple[int, tuple[Reservation, ...]]:
    """The stream's high-water mark and the dice reserved by undone actions."""
    high = 0
    stack: list[Record] = []
    reserved: list[Reservation] = []
    for r in records[1:]:
        if r.kind == "action":
            ranges = dice_ranges(r.payload)
            if ranges:
                for _, b in ranges:
                    if b > high:
                        high = b
                if reserved:  # a later action that drew the same positions consumed it
                    reserved = [x for x in reserved if not _overlaps(x.ranges, ranges)]
            stack.append(r)
        elif r.kind == "undo" and stack:
            kept = reservation(stack.pop())
            if kept is not None:
                reserved.append(kept)
    return high, tuple(reserved)


def counted_rolls(records: Sequence[Record]) -> Iterator[tuple[Record, Mapping[str, Any]]]:
    """Every roll of a log once: an undone roll made again from the same stream positions (a
    redo) counts once, as the later action; physical dice always count."""
    actions = [r for r in records if r.kind == "action"]
    drawn_later: set[int] = set()  # stream positions drawn by a later action
    keep = [True] * len(actions)
    for i in range(len(actions) - 1, -1, -1):
        positions = [p for a, b in dice_ranges(actions[i].payload) for p in range(a, b)]
        if any(p in drawn_later for p in positions):
            keep[i] = False
        drawn_later.update(positions)
    for i, a in enumerate(actions):
        if keep[i]:
            for roll in a.payload.get("rolls", []) or []:
                yield a, roll


def _options(created: Mapping[str, Any]) -> dict[str, Any]:
    opts = dict(created.get("options", {}))
    if created.get("house_rules"):
        opts["house_rules"] = created["house_rules"]
    return opts


def _plan_waive(state: Any, request: WaiveRequest) -> Plan:
    return Plan(request)


WAIVE: Procedure[Any, WaiveRequest] = Procedure(
    WaiveRequest,
    _plan_waive,
    lambda state, plan, dice: Outcome(
        (Waived(plan.request.obligation, plan.request.reason),),
        (),
        f"waived: {plan.request.obligation}"
        + (f" ({plan.request.reason})" if plan.request.reason else ""),
    ),
)


#: a snapshot of the state is kept every this many records (a cache; see engine/snapshot.py)
SNAPSHOT_EVERY = 64
_PAGE = 256


class Log(Sequence[Record]):
    """A game's records, read from the store a page at a time when first needed (and decoded
    then): opening a long game reads only what the fold needs."""

    def __init__(self, store: Callable[[], Store], game_id: int, length: int) -> None:
        self._store = store  # the game's current connection (the web swaps it per thread)
        self._gid = game_id
        self._n = length
        self._cache: dict[int, Record] = {}  # by index (seq - 1)

    def __len__(self) -> int:
        return self._n

    def _get(self, i: int) -> Record:
        rec = self._cache.get(i)
        if rec is None:
            rec = self._store().records(self._gid, after=i, upto=i + 1)[0]
            self._cache[i] = rec
        return rec

    def _range(self, lo: int, hi: int) -> list[Record]:
        """Records lo..hi-1 (by index), read in pages where not read yet."""
        out: list[Record] = []
        i = lo
        while i < hi:
            if i in self._cache:
                out.append(self._cache[i])
                i += 1
                continue
            upto = min(hi, i + _PAGE)
            for rec in self._store().records(self._gid, after=i, upto=upto):
                self._cache[rec.seq - 1] = rec
                out.append(rec)
            i = upto
        return out

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            lo, hi, step = i.indices(self._n)
            if step == 1:
                return self._range(lo, hi) if hi > lo else []
            return [self._get(j) for j in range(lo, hi, step)]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("log index out of range")
        return self._get(i)

    def __iter__(self) -> Iterator[Record]:
        for lo in range(0, self._n, _PAGE):
            yield from self._range(lo, min(self._n, lo + _PAGE))

    def append(self, rec: Record) -> None:
        """A record just appended to the store (seq ``len + 1``)."""
        self._cache[self._n] = rec
        self._n += 1


def index_log(records: Sequence[Record]) -> list[IndexRow]:
    """The log index of a whole log (see :class:`IndexRow`), as appends would have written."""
    rows: list[IndexRow] = []
    stack: list[int] = []
    below: dict[int, int] = {}
    undone: dict[int, int] = {}
    high = 0
    tops: list[int] = []
    for r in records:
        if r.kind == "action":
            for _, b in dice_ranges(r.payload):
                high = max(high, b)
            below[r.seq] = stack[-1] if stack else 0
            stack.append(r.seq)
        elif r.kind == "undo" and stack:
            undone[stack.pop()] = r.seq
        tops.append(stack[-1] if stack else 0)
        rows.append(IndexRow(r.seq, r.kind == "action", 0, below.get(r.seq, 0), high))
    return [
        IndexRow(x.seq, x.action, t, x.below, x.high, undone.get(x.seq, 0))
        for x, t in zip(rows, tops, strict=True)
    ]


def _book_json(high: int, reserved: Sequence[Reservation]) -> str:
    return json.dumps(
        {
            "high": high,
            "reserved": [
                [r.procedure, r.request, [list(x) for x in r.ranges], r.seq] for r in reserved
            ],
        },
        separators=(",", ":"),
    )


def _book_from_json(text: str) -> list[Reservation]:
    d = json.loads(text)
    return [
        Reservation(str(p), str(q), tuple((int(a), int(b)) for a, b in rr), int(seq))
        for p, q, rr, seq in d["reserved"]
    ]


def _seal(body: str, seq: int) -> str:
    """A snapshot's text: a digest of its body and the seq it was taken after, then the body
    (a damaged or misplaced snapshot is then recognised and passed over)."""
    return f"{_digest(body, seq)} {seq} {body}"


def _unseal(text: str, seq: int) -> str:
    digest, at, body = text.split(" ", 2)
    if at != str(seq) or digest != _digest(body, seq):
        raise ValueError("snapshot damaged")
    return body


def _digest(body: str, seq: int) -> str:
    return blake2b(f"{seq}:{body}".encode(), digest_size=16).hexdigest()


#: how many states before its latest actions a game object keeps for undo (see Game.undo)
UNDO_KEPT = 16


class Game:
    """One game: its log in the store, its state and its dice stream.

    Opening folds only from the latest snapshot still valid (see :meth:`_load`); the log's
    index (in the store) gives the actions in force, the dice high-water mark and each
    action's place, so nothing on the way to an action is O(events)."""

    def __init__(self, store: Store, name: str) -> None:
        self.store = store
        self._local = threading.local()
        self._effective: tuple[int, ...] | None = None
        #: the states before the latest actions this object performed, top last: an undo of
        #: the action on top takes its state from here instead of folding again (:meth:`undo`)
        self._before: list[tuple[int, Any]] = []
        self._pending: Snapshot | None = None
        #: an import's word on the rules it re-refereed the game by, when not today's
        #: (``_as_played``): '' otherwise
        self.imported_under = ""
        # read in one read transaction: a writer committing meanwhile (a server beside a CLI)
        # is not half seen; the caches it would write are written after it
        for _ in range(3):
            with store.reading():
                info = store.game(name)
                self.id = info.id
                self.name = info.name
                self.ruleset: Ruleset[Any] = rules.get(info.ruleset)
                self.records: Log = Log(self.reader, info.id, info.events)
                if store.index_count(self.id) == len(self.records):
                    self._model = self._snapshot_model()
                    self._initial = self.ruleset.initial(
                        self.created["scenario"], _options(self.created)
                    )
                    self._load()
                    break
                rows = index_log(list(self.records))
            self._ensure_index(rows)
        else:
            raise GameError(f"game {name!r} keeps changing while it is opened; try again")
        if self._pending is not None:
            self._put_snapshot(self._pending)
            self._pending = None

    def _put_snapshot(self, snap: Snapshot) -> None:
        """Keep a snapshot (a cache: a database that cannot be written keeps none)."""
        with contextlib.suppress(StorageError):
            self.store.put_snapshot(self.id, snap)

    # -- construction -------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        store: Store,
        name: str,
        ruleset: str,
        scenario: Mapping[str, Any],
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        house_rules: Mapping[str, Any] | None = None,
        dice: str = "seeded",
        current: bool = True,
    ) -> Game:
        """A new game, stored once its scenario sets up; ``current``: it becomes the current
        game (the CLI's ``new`` makes it so only once the game has been shown, and deletes
        a game it could not show)."""
        rs_name = rules.canonical(ruleset)
        rs = rules.get(rs_name)
        if dice not in ("seeded", "physical"):
            raise BadRequest(f"dice must be 'seeded' or 'physical', not {dice!r}")
        if dice == "physical":  # the ruleset's options for your own dice, unless given
            options = {**rs.physical_dice_options, **(options or {})}
        first = {
            "ruleset": rs_name,
            "scenario": dict(scenario),
            "options": dict(options or {}),
            "house_rules": dict(house_rules or {}),
            "seed": seed if seed is not None else _fresh_seed(),
            "dice": dice,
        }
        check_game_name(name)
        from vedette.schemas.game import check_created  # start-up time: pydantic

        first = json.loads(json.dumps(check_created(rs, first, "new game")))
        # validate before anything is written: the scenario must set up
        rs.initial(first["scenario"], _options(first))
        store.create_game(name, rs_name, first)
        if current:
            store.set_setting("current_game", name)
        return cls(store, name)

    @classmethod
    def open(cls, store: Store, name: str | None = None) -> Game:
        if name is None:
            name = store.get_setting("current_game")
            if name is None:
                raise GameError("no game given and no current game (start one with 'game new')")
        return cls(store, name)

    # -- state --------------------------------------------------------------------------
    def reader(self) -> Store:
        """A connection to read the game's log with from this thread: the game's own, or (a
        game kept between web requests is read from the threads of the pool) one of this
        thread's to the same database. The game's own writes through ``store``."""
        st = self.store
        if st.thread == threading.get_ident() or st.path == ":memory:":
            return st
        mine: Store | None = getattr(self._local, "store", None)
        if mine is None or mine.path != st.path:
            mine = self._local.store = Store(st.path)
        return mine

    def _ensure_index(self, rows: list[IndexRow]) -> None:
        """The log index rebuilt from the log (``rows``) where missing or incomplete (an older
        store), unless a writer completed it meanwhile."""
        with contextlib.suppress(StorageError):
            self.store.rebuild_index(self.id, rows)

    def _snapshot_model(self) -> int:
        """What a snapshot of this game depends on: a snapshot of another key is stale."""
        events = sorted((str(e.kind), int(getattr(e, "version", 1))) for e in self.ruleset.events)
        return model_key(
            self.ruleset.name,
            events,
            STORE_VERSION,
            CODEC_VERSION,
            __version__,
            self.created.get("options", {}),
            self.created.get("house_rules", {}),
        )

    def _load(self) -> None:
        """The state, the dice book and the action on top, from the latest snapshot still
        valid (its top action not undone since) and the actions in force after it; the dice
        book from the latest snapshot's and the records after it. A snapshot that is missing,
        stale or damaged is passed over (the log is the truth) and made again."""
        n = len(self.records)
        last = self.store.index_row(self.id, n)
        assert last is not None
        self.position = last.high
        self._top = last.top
        book = self.store.latest_book(self.id)
        reserved: list[Reservation] = []
        after = 1
        if book is not None:
            try:
                reserved, after = _book_from_json(book[1]), book[0]
            except (ValueError, KeyError, TypeError):
                reserved, after = [], 1
        tail = min(after, self.store.latest_snapshot_seq(self.id) or 1)
        if n - tail <= 4 * SNAPSHOT_EVERY:
            self.records[tail:n]  # the records after the latest snapshot, in one read
        self.reservations = tuple(self._advance_book(reserved, after))
        base, state = 1, self._initial
        for seq, top, top_undone in self.store.snapshot_bases(self.id, self._model):
            if top and top_undone:
                continue  # its top action was undone since: the state there is not in force
            try:
                body = _unseal(self.store.snapshot_state(self.id, seq) or "", seq)
                state = self.ruleset.restore(json.loads(body), self._initial)
            except Exception:  # a damaged snapshot: an earlier one, or the log
                continue
            base = seq
            break
        fold, decode = self.ruleset.fold, self.ruleset.decode_stored
        if base < tail and n - base <= 4 * SNAPSHOT_EVERY:
            self.records[base:tail]  # (an undo went below the latest snapshot)
        for seq in self.store.in_force(self.id, after=base):
            for e in self.records[seq - 1].payload["events"]:
                state = fold(state, decode(e))
        self.state: Any = state
        if n - base >= SNAPSHOT_EVERY:
            if self.store.db.in_transaction:  # (opening: written once the read is over)
                self._pending = self._snapshot(n)
            else:
                self._put_snapshot(self._snapshot(n))

    def _advance_book(self, reserved: list[Reservation], after: int) -> list[Reservation]:
        """:func:`dice_book`'s reservations carried on from record ``after`` to the end."""
        rows = self.store.index_rows(self.id, after - 1)
        prev_top = rows[0].top if rows and rows[0].seq == after else 0
        for row in rows[1:] if rows and rows[0].seq == after else rows:
            if row.action:
                ranges = dice_ranges(self.records[row.seq - 1].payload)
                reserved = [x for x in reserved if not _overlaps(x.ranges, ranges)]
            elif prev_top and self.records[row.seq - 1].kind == "undo":
                kept = reservation(self.records[prev_top - 1])
                if kept is not None:
                    reserved.append(kept)
            prev_top = row.top
        return reserved

    def _snapshot(self, seq: int) -> Snapshot:
        """A snapshot of the state now (after record ``seq``); its state is left out ('') if
        it cannot be written or would not come back equal."""
        text = ""
        try:
            data = self.ruleset.snapshot(self.state, self._initial)
            body = dumps(data)
            if self.ruleset.restore(json.loads(body), self._initial) == self.state:
                text = _seal(body, seq)
        except (Unsnapshottable, ValueError, TypeError):
            text = ""
        return Snapshot(seq, self._model, text, _book_json(self.position, self.reservations))

    @property
    def top(self) -> int:
        """The seq of the action in force on top of the log (0: none)."""
        return int(self._top)

    @property
    def effective(self) -> tuple[int, ...]:
        """The seqs of the actions in force, in order (read from the log index)."""
        if self._effective is None:
            self._effective = tuple(self.reader().in_force(self.id))
        return self._effective

    def undone(self, after: int = 0) -> set[int]:
        """The seqs of the undone actions (after record ``after``: read from that part of the
        log index only)."""
        rows = (
            self.reader()
            .db.execute(
                "SELECT seq FROM log_index WHERE game_id=? AND seq>? AND action=1 AND undone<>0",
                (self.id, after),
            )
            .fetchall()
        )
        return {int(r[0]) for r in rows}

    @property
    def created(self) -> Mapping[str, Any]:
        first: Record = self.records[0]
        return first.payload

    @property
    def seed(self) -> int:
        return int(self.created["seed"])

    @property
    def physical(self) -> bool:
        return self.created.get("dice") == "physical"

    @property
    def next_seq(self) -> int:
        return len(self.records) + 1

    def procedures(self) -> dict[str, Procedure[Any, Any]]:
        """The ruleset's procedures on the protocol, and the referee's own (``waive``)."""
        return {**self.ruleset.protocol_procedures(), "waive": WAIVE}

    def procedure(self, name: str) -> Procedure[Any, Any]:
        procs = self.procedures()
        if name not in procs:
            import difflib

            close = difflib.get_close_matches(name, list(procs), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise BadRequest(
                f"{self.ruleset.name} has no procedure {name!r}{hint} (has: {', '.join(procs)})"
            )
        return procs[name]

    def obligations(self) -> tuple[Obligation, ...]:
        return tuple(self.ruleset.obligations(self.state))

    def todo(self, strict: bool = False) -> list[Todo]:
        """Owed steps first, then the actions open now, each one ``plan`` accepts as shown
        (open fields: only accepted choices). ``strict``: a malformed offer raises."""
        return list(self.ruleset.todo(self.state, strict))

    def _reservation(self, procedure: str, request: Mapping[str, Any]) -> Reservation | None:
        key = canonical_request(request)
        for r in reversed(self.reservations):
            if r.procedure == procedure and r.request == key:
                return r
        return None

    def dice(
        self,
        faces: Sequence[int] | None = None,
        procedure: str = "",
        request: Mapping[str, Any] | None = None,
    ) -> DiceSource:
        """The physical dice given, or the game's seeded stream: the dice reserved for this
        very action if it was undone, then past every die ever drawn."""
        res = self._reservation(procedure, request or {}) if procedure else None
        if self.physical:  # the player's own dice, always: vedette never rolls for them
            return OwnDice(faces or ())
        if faces:
            if res is not None and not self.physical:
                done = f"the game already rolled the dice for this {procedure} (#{res.seq}, undone)"
                raise DiceError(
                    f"{done}: do it again without --dice to get the same dice",
                    f"{done}: empty the dice box and Roll / do it again to get the same dice",
                )
            return PhysicalSource(faces)
        segments: list[tuple[int, int | None]] = [] if res is None else list(res.ranges)
        segments.append((self.position, None))
        return SegmentSource(self.seed, segments)

    def sequences(self) -> dict[str, Procedure[Any, Any]]:
        """The ruleset's sequences (queries over several procedures; odds only)."""
        return dict(self.ruleset.sequences())

    def _prepare(
        self,
        procedure: str,
        request: Mapping[str, Any],
        faces: Sequence[int] | None = None,
        query: bool = False,
    ) -> tuple[Procedure[Any, Any], Plan]:
        check_request(request, faces)
        if procedure not in self.procedures() and procedure in self.sequences():
            seq = self.sequences()[procedure]
            return seq, seq.plan(self.state, seq.parse(request))
        proc = self.procedure(procedure)
        if procedure == "waive":  # the referee's own: no phase and no obligation forbids it
            req = proc.parse(request)
            owed = self.obligations()
            if not any(o.id == req.obligation for o in owed):
                raise BadRequest(
                    f"nothing owed is called {req.obligation!r}"
                    + (
                        f" (owed: {', '.join(o.id for o in owed)})"
                        if owed
                        else " (nothing is owed)"
                    )
                )
            return proc, proc.plan(self.state, req)
        # the declared flow, what is owed, then plan: the same judgement as todo's and
        # is_legal's; odds and chances are queries, never phase-bound
        _, _, plan = self.ruleset.judge(self.state, procedure, request, query=query)
        return proc, plan

    def is_legal(self, procedure: str, request: Mapping[str, Any]) -> Verdict:
        """Whether the rules accept ``procedure`` with ``request`` now, and if not why (the
        rule named); never raises (python-chess's ``is_legal``)."""

        def judge() -> None:
            check_request(request, None)
            if procedure not in self.procedures() and procedure in self.sequences():
                raise BadRequest(f"{procedure} is a sequence: it has odds only")
            self._prepare(procedure, request)

        return verdict_of(judge)

    # -- play ---------------------------------------------------------------------------
    def odds(self, procedure: str, request: Mapping[str, Any]) -> list[Odds]:
        """The odds of each chance step the procedure knows it will take."""
        _, plan = self._prepare(procedure, request, query=True)
        return plan.step_odds()

    def dice_asked(
        self, procedure: str, request: Mapping[str, Any]
    ) -> tuple[list[Die], list[Die] | None]:
        """The dice the step rolls whatever the faces, in order, and the further dice some
        faces call for (None: none): what a game played with the player's own dice asks for
        (:func:`~vedette.dice.sources.dice_asked`: the step run on chosen faces, nothing
        written)."""
        proc, plan = self._prepare(procedure, request, query=True)
        state = self.state
        return dice_asked(lambda d: proc.resolve(state, plan, d))

    def dice_paths(self, procedure: str, request: Mapping[str, Any]) -> list[DicePath] | None:
        """Every sequence of faces the step may take to its end, with the names of its dice
        (:func:`~vedette.dice.sources.dice_paths`; None: too many, or not dice alone): what a
        game played with the player's own dice may offer as one tap, or one ``--dice``, for a
        step whose dice depend on its faces (a bore-sight die's scatter dice, O'Leary 6.1)."""
        proc, plan = self._prepare(procedure, request, query=True)
        state = self.state
        return dice_paths(lambda d: proc.resolve(state, plan, d))

    def dice_called(
        self, procedure: str, request: Mapping[str, Any]
    ) -> tuple[list[int], list[str], str] | None:
        """For a step whose one first die's faces call for the same further dice: those faces,
        those dice by name, and the words for the whole roll ("1d6 and, on a 6, the direction
        die and the distance die", O'Leary 6.1); None otherwise (``dice_paths``)."""
        certain, more = self.dice_asked(procedure, request)
        if more is None or len(certain) != 1:
            return None
        paths = self.dice_paths(procedure, request)
        then = called_for(paths) if paths else None
        if then is None:
            return None
        return then[0], then[1], called_words(dice_words(certain), *then)

    def chances(self, procedure: str, request: Mapping[str, Any], limit: int = 20_000) -> Chances:
        """The exact odds of every outcome of the whole procedure, or of a sequence (its end
        states), from their own resolve; more than ``limit`` dice branches are sampled, and
        the result says so (``exact=False``, intervals, a note)."""
        proc, plan = self._prepare(procedure, request, query=True)
        state = self.state
        return chances(lambda dice: proc.resolve(state, plan, dice), limit)

    def perform(
        self, procedure: str, request: Mapping[str, Any], faces: Sequence[int] | None = None
    ) -> Outcome:
        """Run a procedure; append its events (unless a query). Raises without writing
        anything if the request is bad, the rules forbid it, or the dice do not fit."""
        if procedure not in self.procedures() and procedure in self.sequences():
            raise BadRequest(
                f"{procedure} is a sequence: it has odds only ('chances {procedure} ...'),"
                " play its steps one by one",
                web=f"{procedure} is a sequence: it has odds only ('Odds of a whole sequence'),"
                " play its steps one by one",
            )
        proc, plan = self._prepare(procedure, request, faces)
        req_json = proc.request_json(plan.request)
        source = self.dice(faces, procedure, req_json)
        try:
            outcome: Outcome = proc.resolve(self.state, plan, source)
        except DiceNeeded as need:
            if faces or need.worded:  # (a step's own words: a card to turn up, K80)
                raise
            # the dice the step draws whatever the faces (not every roll its plan may make: a
            # bore-sight die's scatter dice follow a 6 only, a morale test's chart d10 a
            # failure), and whether more may follow: those are not named (nor rolled) until a
            # face calls for them, each then asked for (DiceNeeded names it)
            state = self.state
            certain, more = dice_asked(lambda d: proc.resolve(state, plan, d))
            rolls = dice_words(certain) or need.die.name
            paths = dice_paths(lambda d: proc.resolve(state, plan, d)) if more else None
            then = called_for(paths) if paths and len(certain) == 1 else None
            if then is not None:  # (O'Leary 6.1: a 6 calls for the scatter dice)
                rolls = called_words(rolls, *then)
            elif more is not None:
                rolls += " first (some faces call for more dice: each is asked for then)"
            ask = f"{procedure}: this game is played with your own dice: roll {rolls}"
            raise DiceNeeded(
                need.die,
                need.number,
                f"{ask} and give the faces in order (--dice)"
                if then is None
                else f"{ask}; give all their faces in order in one --dice",
                f"{ask}: one tap on the dice buttons gives them all"
                if then is not None and paths and one_tap(paths)
                else f"{ask}, tap each face in order on the dice buttons: the last one does it",
                certain,
            ) from None
        if isinstance(source, PhysicalSource):
            source.check_all_used()
        if proc.query:
            return outcome
        # fold first: an event the ruleset cannot apply is refused before it is written
        state = self.state
        logged = []
        for e in outcome.events:
            e = self.ruleset.recorded(state, e)  # a patch: with its previous values
            logged.append(e)
            state = self.ruleset.fold(state, e)
        dice: dict[str, Any] = {"source": source.kind}
        if isinstance(source, SegmentSource):
            ranges = source.ranges()
            after = max([self.position, *(b for _, b in ranges)])
            dice.update(before=ranges[0][0] if ranges else self.position, after=after)
            dice["ranges"] = ranges
        else:
            dice.update(before=self.position, after=self.position)
            if isinstance(source, PhysicalSource) and source.used:
                # every face given, in order: a roll made again (a face above a unit's figures)
                # keeps its void faces only here, and the import performs them all again
                dice["faces"] = source.faces[: source.used]
        payload = {
            "procedure": procedure,
            "request": req_json,
            "events": [e.to_json() for e in logged],
            "rolls": [r.to_json() for r in outcome.rolls],
            "message": outcome.message,
            "result": outcome.result,
            "dice": dice,
        }
        seq = self.next_seq
        before = (self.state, self.position, self.reservations)
        drawn = dice_ranges(payload)
        self.state = state
        self.position = max([self.position, *(b for _, b in drawn)])
        self.reservations = tuple(x for x in self.reservations if not _overlaps(x.ranges, drawn))
        try:
            snap = self._snapshot(seq) if seq % SNAPSHOT_EVERY == 0 else None
            row = IndexRow(seq, True, seq, self._top, self.position)
            rec = self.store.append(self.id, seq, "action", payload, index=row, snapshot=snap)
        except BaseException:
            self.state, self.position, self.reservations = before
            raise
        self.records.append(rec)
        self._before.append((seq, before[0]))
        del self._before[:-UNDO_KEPT]
        self._top = seq
        if self._effective is not None:
            self._effective = (*self._effective, seq)
        return outcome

    def undo(self) -> Record:
        """Undo the latest action in force (itself an event): the state is folded again from
        the latest snapshot at or before the action now on top."""
        if not self._top:
            raise GameError("nothing to undo")
        target = self._top
        row = self.store.index_row(self.id, target)
        assert row is not None
        seq = self.next_seq
        rec = self.store.append(
            self.id,
            seq,
            "undo",
            {"undoes": target},
            index=IndexRow(seq, False, row.below, 0, self.position),
        )
        self.records.append(rec)
        if self._effective is not None:
            self._effective = self._effective[:-1]
        if self._before and self._before[-1][0] == target:
            # the state before the action on top, kept when it was performed: what a fold from
            # the latest snapshot would give (tests compare with a fresh open), without the fold
            self.state = self._before.pop()[1]
            self._top = row.below
            kept = reservation(self.records[target - 1])
            if kept is not None:  # its dice stay reserved for the same request
                self.reservations = (*self.reservations, kept)
            if seq % SNAPSHOT_EVERY == 0:  # (as an action would be: a snapshot every K records)
                self.store.put_snapshot(self.id, self._snapshot(seq))
        else:
            self._before.clear()
            self._load()
        return rec

    def counted_rolls(self) -> Iterator[tuple[int, Mapping[str, Any]]]:
        """Every roll of the game once, for the dice audit (see :func:`counted_rolls`)."""
        for rec, roll in counted_rolls(self.records):
            yield rec.seq, roll

    # -- views --------------------------------------------------------------------------
    def log(self) -> list[Record]:
        return list(self.records)

    @property
    def history(self) -> str:
        """'' for a game this release refereed; else what its import found (an older
        release's export that today's referee gives differently), shown in its log and
        after-action report."""
        return self.reader().note(self.id)

    def log_lines(self) -> list[str]:
        undone = self.undone()
        out: list[str] = [f"! {self.history}"] if self.history else []
        for r in self.records:
            p = r.payload
            if r.kind == "created":
                out.append(f"#{r.seq} created: {p['ruleset']} (seed {p['seed']})")
            elif r.kind == "action":
                mark = " [undone]" if r.seq in undone else ""
                out.append(f"#{r.seq} {p['procedure']}{mark}")
                out.extend(f"    {roll['line']}" for roll in p.get("rolls", []))
                if p.get("message"):
                    out.extend(f"    {line}" for line in str(p["message"]).splitlines())
            elif r.kind == "undo":
                out.append(f"#{r.seq} undo #{p['undoes']}")
        return out

    def render(self) -> str:
        return self.ruleset.render(self.state)

    # -- export / import ----------------------------------------------------------------
    def export_jsonl(self) -> str:
        """The whole log, one JSON record a line after a head line that carries the records'
        count and digest (a file cut short is refused on import)."""
        # start-up: the referee loads only to export, import or check a log
        from vedette.engine.referee import records_digest

        body = [json.dumps(r.to_json()) for r in self.records]
        head = {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "name": self.name,
            "ruleset": self.ruleset.name,
            "records": len(body),
            "sha256": records_digest(body),
            **({"history": self.history} if self.history else {}),
        }
        return "\n".join([json.dumps(head), *body]) + "\n"

    @classmethod
    def import_jsonl(cls, store: Store, text: str, name: str | None = None) -> Game:
        """A game from an export, refereed again action by action (see engine/referee.py):
        stored only if the referee gives every record as the file has it."""
        # start-up: the referee loads only to export, import or check a log
        from vedette.engine.referee import records_digest, referee
        from vedette.schemas.game import (  # start-up time: pydantic
            MAX_EVENTS,
            check_head,
            check_records,
        )

        if text.count("\n") + text.count("\r") > 2 * MAX_EVENTS + 2:  # (not split, nor read)
            raise DataError("export", f"more than {MAX_EVENTS} events")
        lines = [line for line in text.splitlines() if line.strip()]
        first = next(iter_jsonl(text), None)  # (the head alone: the rest is read once it fits)
        if first is None or first.get("format") != EXPORT_FORMAT:
            raise GameError(
                f"not a vedette game export (first line must have format={EXPORT_FORMAT!r})"
            )
        head = check_head(first)
        if len(lines) - 1 > MAX_EVENTS:  # (refused before millions of lines are read as JSON)
            raise DataError("export", f"more than {MAX_EVENTS} events")
        if head.version >= 2 and head.records != len(lines) - 1:
            if len(lines) - 1 < (head.records or 0):  # (cut short: a garbled line named first;
                for _ in iter_jsonl(text):  # a padded file is refused unread)
                    pass
            raise GameError(
                f"export is incomplete or padded: its head counts {head.records} records,"
                f" the file has {len(lines) - 1}"
            )
        objs = list(iter_jsonl(text))
        if head.version >= 2 and head.sha256 != records_digest(lines[1:]):
            raise GameError("export's records do not match the digest in its head line")
        rs = rules.get(head.ruleset)
        records = [Record(**r) for r in check_records(rs, objs[1:], head.ruleset)]
        check_game_name(name or head.name)
        note = ""
        note_under = ""
        if head.version < 2 or head.history:
            # an older release's export (or a game imported from one): kept as that release's
            # history, flagged, where today's referee gives it differently. The flag is the
            # referee's own words: a head's history names only the release (a file cannot
            # vouch for itself)
            release = OLD_RELEASE.get(head.version) or _history_release(head.history or "")
            differs = referee(rs, records, strict=False)
            if differs is not None:
                note = f"history from release {release}, not re-refereed: {differs}"
        else:
            records, note_under = _as_played(rs, records, referee)
        try:  # must replay cleanly, and show, before it is stored
            state = replay(rs, records).state
            json.dumps(rs.state_json(state), default=str)
            rs.render(state)
        except VedetteError:
            raise
        except Exception as e:
            raise GameError(f"export does not replay: {type(e).__name__}: {e}") from None
        store.import_game(str(name or head.name), rs.name, records, note=note)
        g = cls(store, str(name or head.name))
        g.imported_under = note_under
        return g


def _as_played(
    rs: Ruleset[Any], records: list[Record], referee: Callable[..., str | None]
) -> tuple[list[Record], str]:
    """The records to store, re-refereed by today's rules; failing that, by each of the
    ruleset's earlier readings (``Ruleset.earlier_readings``: an older release's rules kept as an
    option) the game does not set: the first under which every action re-referees equal is put
    in its created record (how it is played on, shown and exported) and said. Nothing the file
    says is trusted: the refusal under today's rules stands if none re-referees it."""
    try:
        referee(rs, records)
        return records, ""
    except GameError:
        created = records[0]
        options = dict(created.payload.get("options") or {})
        for release, readings, what in rs.earlier_readings:
            if any(k in options for k in readings):
                continue
            payload = {**created.payload, "options": {**options, **readings}}
            again = [replace(created, payload=payload), *records[1:]]
            if referee(rs, again, strict=False) is None:
                given = " ".join(f"{k}={json.dumps(v)}" for k, v in readings.items())
                return again, f"re-refereed as release {release} played it, {given}: {what}"
        raise


def _history_release(history: str) -> str:
    """The older release a head's ``history`` names ("history from release X, ..."), or a
    one-line refusal."""
    for release in OLD_RELEASE.values():
        if history.startswith(f"history from release {release},"):
            return release
    raise GameError(
        "export line 1: its history must name an older release"
        f" ({', '.join(OLD_RELEASE.values())}) as vedette writes it"
    )


def all_games(store: Store) -> Iterable[str]:
    return [g.name for g in store.games()]
