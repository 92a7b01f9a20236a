"""The game record: an append-only log of events whose replay gives the game's state.

Each entry carries a sequence number, the time (a number the caller passes in), who acted, the
move number after it, and a hash chain: ``hash = sha256(previous hash + canonical JSON of the
entry)``. A record read from JSON is checked link by link and replayed; a tampered, reordered
or impossible log is refused with an :class:`~weiqi.errors.InputError` naming the event.

>>> from weiqi.rules.ruleset import Ruleset
>>> from weiqi.referee.events import Resign
>>> rec = GameRecord.start(Ruleset.chinese(9), ColorAssignment.by_organiser("Li", "Wang"),
...                        referee=GameActor.referee("r1"), at=0)
>>> _ = rec.play(Color.BLACK, "E5", at=12.5)
>>> _ = rec.append(Resign(), GameActor.player(Color.WHITE), at=30)
>>> rec.state.result.to_zh(), rec.state.move_number
('黑中盘胜', 1)
>>> again = GameRecord.from_json(rec.to_json())
>>> again.state == rec.state == replay(again)
True

The JSON form (version 1), canonical (sorted keys, no spaces, UTF-8)::

    {"entries": [ENTRY, …], "format": "weiqi-game-record", "version": 1}

    ENTRY = {"seq": 1, "at": 12.5, "move_number": 1,
             "actor": {"role": "player", "color": "B", "id": null},
             "event": {"kind": "move", "point": 40},
             "prev": "<hash of entry 0>", "hash": "<sha256 hex>"}

``hash`` is ``sha256(prev + canonical JSON of the entry without "hash")``; the first ``prev`` is
64 zeros. ``event.kind`` is one of :data:`~weiqi.referee.events.EVENT_TYPES`; its other keys are
the event's fields (fractions as ``"15/4"``, enums by value, results as ``Result.to_code()``).
Keep :attr:`GameRecord.head` with the stored result to detect a log rewritten end to end, and
its signature under a site key (:mod:`weiqi.referee.signature`) to detect a log rewritten with
its head by whoever can write where both are kept:

>>> from weiqi.referee.signature import record_key
>>> key = record_key("site secret")
>>> signature = rec.signature(key, "game_records/1")
>>> GameRecord.from_json(rec.to_json(), rec.head, key=key, signature=signature,
...                      context="game_records/1").head == rec.head
True
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass

from weiqi.clock.control import TimeControl
from weiqi.clock.lag import LagPolicy
from weiqi.clock.late import LatePolicy
from weiqi.errors import InputError, WeiqiError
from weiqi.messages import Msg
from weiqi.referee.actors import GameActor
from weiqi.referee.codec import canonical, from_data, to_data
from weiqi.referee.events import (
    ClockAction,
    ClockEvent,
    Move,
    Pass,
    RecordEvent,
    Start,
    event_from_data,
    event_to_data,
)
from weiqi.referee.nigiri import ColorAssignment
from weiqi.referee.signature import check_signature, sign_head
from weiqi.referee.state import Context, GameState, Referee, ResultChange
from weiqi.rules.color import Color
from weiqi.rules.ruleset import Ruleset
from weiqi.rules.vertex import parse_vertex

FORMAT = "weiqi-game-record"
VERSION = 1
#: The canonical JSON of a record after its ``entries`` (the keys sort after it).
_DOCUMENT_TAIL = canonical({"format": FORMAT, "version": VERSION})[1:]
GENESIS = "0" * 64


@dataclass(frozen=True)
class Entry:
    """One event in the record with its place, time, author and hash link."""

    seq: int
    at: float
    actor: GameActor
    move_number: int
    event: RecordEvent
    prev: str
    hash: str

    def body(self) -> dict[str, object]:
        """What the hash signs: everything but the hash itself."""
        return {
            "seq": self.seq,
            "at": self.at,
            "actor": to_data(self.actor),
            "move_number": self.move_number,
            "event": event_to_data(self.event),
            "prev": self.prev,
        }

    def to_data(self) -> dict[str, object]:
        return {**self.body(), "hash": self.hash}


def link(prev: str, body: dict[str, object]) -> str:
    """The hash of an entry: sha256 over the previous hash and the entry's canonical JSON."""
    return hashlib.sha256((prev + canonical(body)).encode()).hexdigest()


class GameRecord:
    """An append-only log of one game. :meth:`append` checks the event against the rules and
    the play mode first: an event the rules refuse raises and nothing is recorded."""

    def __init__(self) -> None:
        self._entries: list[Entry] = []
        self._referee = Referee()
        # the canonical JSON of the first entries, as :meth:`to_json` wrote them: an entry never
        # changes, so a record stored after every event encodes each event once
        self._texts: list[str] = []

    # -- building -----------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        ruleset: Ruleset,
        colors: ColorAssignment,
        *,
        referee: GameActor,
        at: float,
        time_control: TimeControl | None = None,
        late: LatePolicy | None = None,
        lag: LagPolicy | None = None,
    ) -> GameRecord:
        """A new record whose first event starts the game (``time_control`` ``None``: untimed,
        clock events are kept as data; ``late``: how late arrival is judged, R-TIME-6; ``lag``:
        the allowance for network lag of a game played online, ``None`` over the board)."""
        record = cls()
        record.append(Start(ruleset, colors, time_control, late, lag), referee, at)
        return record

    def append(self, event: RecordEvent, actor: GameActor, at: float) -> Entry:
        """Record ``event`` by ``actor`` at time ``at``; return its entry."""
        if isinstance(at, bool) or not isinstance(at, int | float):
            raise InputError("at", Msg("the time must be a number, not %(at)s", at=repr(at)))
        if self._entries and at < self._entries[-1].at:
            raise InputError(
                "at",
                Msg(
                    "time %(at)s is before the previous event's time %(at2)s",
                    at=at,
                    at2=self._entries[-1].at,
                ),
            )
        seq = len(self._entries)
        state = self._referee.apply(Context(seq, at, actor), event)
        prev = self._entries[-1].hash if self._entries else GENESIS
        partial = Entry(seq, at, actor, state.move_number, event, prev, "")
        entry = Entry(seq, at, actor, state.move_number, event, prev, link(prev, partial.body()))
        self._entries.append(entry)
        return entry

    def play(self, color: Color, vertex: str, at: float) -> Entry:
        """Convenience: the player of ``color`` plays at GTP ``vertex`` (``pass`` passes)."""
        assert self.state.ruleset is not None
        point = parse_vertex(vertex, self.state.ruleset.board_size)
        event: RecordEvent = Pass() if point is None else Move(point)
        return self.append(event, GameActor.player(color), at)

    def press_clock(self, color: Color, at: float, think: float | None = None) -> Entry:
        """The player of ``color`` presses the clock at ``at`` (``think``: their think time as
        their client measured it, seconds; see :class:`~weiqi.clock.lag.LagPolicy`)."""
        event = ClockEvent(ClockAction.PRESS, think=think)
        return self.append(event, GameActor.player(color), at)

    # -- reading ------------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The state after the last event."""
        return self._referee.state

    @property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def time_from(self, now: float) -> float:
        """``now``, or the last event's time when that is later: a record's times only go
        forward, so a clock read just before another writer appended (a few milliseconds
        earlier, or on another worker) is read as that event's time — for what is appended
        and for what is shown alike.

        >>> r = GameRecord.start(Ruleset.chinese(9), ColorAssignment.by_organiser("李", "王"),
        ...                      referee=GameActor.referee("王"), at=100.0)
        >>> r.time_from(99.99), r.time_from(101.0)
        (100.0, 101.0)
        """
        return max(now, self._entries[-1].at) if self._entries else now

    def __iter__(self) -> Iterator[Entry]:
        return iter(tuple(self._entries))

    @property
    def head(self) -> str:
        """The hash of the last entry. Each link only proves the order of what came before, so
        a whole log rewritten from some event on is consistent again; keeping the head apart
        (e.g. stored with the confirmed result) and passing it to :meth:`from_json` detects
        that."""
        return self._entries[-1].hash if self._entries else GENESIS

    def signature(self, key: bytes, context: str) -> str:
        """The signature of :attr:`head` under ``key`` for the record stored at ``context``
        (see :mod:`weiqi.referee.signature`)."""
        return sign_head(key, self.head, context)

    def history(self) -> tuple[ResultChange, ...]:
        """How the result came about: set, recounted, confirmed, corrected — who, when, why."""
        return self.state.result_history

    def prefix(self, n: int) -> GameRecord:
        """A record of the first ``n`` events (the log cut after event ``n - 1``)."""
        return GameRecord.from_entries(self._entries[:n])

    # -- JSON ---------------------------------------------------------------------------------

    def to_data(self) -> dict[str, object]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "entries": [e.to_data() for e in self._entries],
        }

    def to_json(self) -> str:
        """The canonical JSON of :meth:`to_data` (each entry encoded once per record).

        >>> from weiqi.rules.ruleset import Ruleset
        >>> r = GameRecord.start(Ruleset(board_size=9), ColorAssignment.by_organiser("李", "王"),
        ...                      referee=GameActor.referee("r"), at=0.0)
        >>> _ = r.play(Color.BLACK, "E5", 1.0)
        >>> first = r.to_json(); _ = r.play(Color.WHITE, "C3", 2.0)
        >>> r.to_json() == canonical(r.to_data()) and first != r.to_json()
        True
        """
        for entry in self._entries[len(self._texts) :]:
            self._texts.append(canonical(entry.to_data()))
        return '{"entries":[' + ",".join(self._texts) + "]," + _DOCUMENT_TAIL

    @classmethod
    def from_json(
        cls,
        text: str,
        head: str | None = None,
        *,
        key: bytes | None = None,
        signature: str | None = None,
        context: str = "",
    ) -> GameRecord:
        """Read a record, checking the format, every hash link and every event; with ``head``
        also that the log ends where it ended when that head was taken; with ``key`` also that
        ``signature`` signs that head (or, without ``head``, the log's own) at ``context`` — a
        missing signature is refused like a wrong one."""
        if key is not None and head is not None:  # cheap, and says best what was done
            check_signature(key, head, signature, context)
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise InputError(
                "game record",
                Msg("not JSON: %(msg)s at line %(lineno)s", msg=err.msg, lineno=err.lineno),
            ) from None
        record = cls.from_data(data, head)
        if key is not None and head is None:
            check_signature(key, record.head, signature, context)
        return record

    @classmethod
    def from_data(cls, data: object, head: str | None = None) -> GameRecord:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InputError("game record", Msg("not a %(FORMAT)s document", FORMAT=FORMAT))
        if data.get("version") != VERSION:
            raise InputError(
                "game record",
                Msg(
                    "version %(get)s is not supported (only %(VERSION)s)",
                    get=repr(data.get("version")),
                    VERSION=VERSION,
                ),
            )
        raw_entries = data.get("entries")
        if not isinstance(raw_entries, list):
            raise InputError("game record", Msg("'entries' must be a list"))
        record = cls.from_entries([_read_entry(raw, i) for i, raw in enumerate(raw_entries)])
        if head is not None and record.head != head:
            known = [e.seq for e in record.entries if e.hash == head]
            where = (
                f"it passes the stored head at event {known[0]} and goes on"
                if known
                else ("the stored head is not in it: the log was rewritten")
            )
            raise InputError(
                "game record", Msg("does not end at the stored head: %(where)s", where=where)
            )
        return record

    @classmethod
    def from_entries(cls, entries: list[Entry]) -> GameRecord:
        """Rebuild a record from entries, checking order, hash chain and the rules."""
        record = cls()
        prev = GENESIS
        for i, entry in enumerate(entries):
            where = f"event {entry.seq} ({entry.event.kind})"
            if entry.seq != i:
                raise InputError(where, Msg("out of order: expected event %(i)s here", i=i))
            if entry.prev != prev:
                raise InputError(
                    where, Msg("does not follow the event before it (hash chain broken)")
                )
            if link(prev, entry.body()) != entry.hash:
                raise InputError(where, Msg("altered: its hash does not match its content"))
            if i and entry.at < entries[i - 1].at:
                raise InputError(where, Msg("its time is before the previous event's"))
            try:
                state = record._referee.apply(Context(i, entry.at, entry.actor), entry.event)
            except WeiqiError as err:
                raise InputError(where, err.msg) from None
            if state.move_number != entry.move_number:
                raise InputError(
                    where,
                    Msg(
                        "records move %(move_number)s but the replay is at move %(move_number2)s",
                        move_number=entry.move_number,
                        move_number2=state.move_number,
                    ),
                )
            record._entries.append(entry)
            prev = entry.hash
        return record


def _read_entry(raw: object, index: int) -> Entry:
    if not isinstance(raw, dict):
        raise InputError(Msg("event %(index)s", index=index), Msg("not an object"))
    where = f"event {raw.get('seq', index)}"
    event = event_from_data(raw.get("event"), where)
    where = f"{where} ({event.kind})"
    for name in ("seq", "at", "actor", "move_number", "prev", "hash"):
        if name not in raw:
            raise InputError(where, Msg("missing field %(name)s", name=repr(name)))
    unknown = set(raw) - {"seq", "at", "actor", "move_number", "event", "prev", "hash"}
    if unknown:
        raise InputError(where, Msg("unknown field %(unknown)s", unknown=repr(sorted(unknown)[0])))
    try:
        return Entry(
            seq=from_data(int, raw["seq"], f"{where}.seq"),
            at=from_data(float, raw["at"], f"{where}.at"),
            actor=from_data(GameActor, raw["actor"], f"{where}.actor"),
            move_number=from_data(int, raw["move_number"], f"{where}.move_number"),
            event=event,
            prev=from_data(str, raw["prev"], f"{where}.prev"),
            hash=from_data(str, raw["hash"], f"{where}.hash"),
        )
    except InputError:
        raise
    except WeiqiError as err:
        raise InputError(where, err.msg) from None


def replay(record: GameRecord) -> GameState:
    """Replay the record's events from the start: the state they make (equal to
    ``record.state``)."""
    referee = Referee()
    for entry in record.entries:
        referee.apply(Context(entry.seq, entry.at, entry.actor), entry.event)
    return referee.state
