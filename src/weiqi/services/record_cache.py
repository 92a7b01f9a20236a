"""The verified game records a worker keeps in memory between transactions, so that a live
game's move does not read its whole record back from JSON and replay every event of it
(issue #11: that replay was half of a move's time, and grew with the game).

A record is only ever used again when what is stored is still exactly what was verified or
written: the stored JSON text equal to the one the kept record came from (or was stored as),
its stored head and ``seq`` the record's own — and the head's signature is checked again
under the site's key on every use (``services.games._load_record``). Reading the same text,
head and signature with ``GameRecord.from_json`` would give the same record, so the cache
changes no answer, only its cost: a write by another worker, the referee's page, a
correction, or a row rewritten outside weiqi makes the stored text differ, and the record is
read and verified again from what is stored.

One transaction owns a kept record at a time: :meth:`RecordCache.take` removes it, and it
comes back (:meth:`RecordCache.keep`) only when the transaction that took it commits — with
what that transaction stored, or unchanged. A transaction that failed or rolled back keeps
nothing (its record may hold an event that was never stored), and a record changed in memory
but not stored is dropped at the commit. Two threads of one worker therefore never share a
record object: the second to ask reads its own from the database, and the ``seq`` guard of
``services.games._store`` decides between their writes as between two workers'.

Only callers that do not let the record outlive their transaction ask for it to be kept
(``keep=True``: the live room's reads and writes); any caller may use a kept one.

>>> cache = RecordCache(2)
>>> key = ("db", "game_records", 1)
>>> cache.keep(key, KeptRecord(object(), "{}", "h", 1))  # type: ignore[arg-type]
>>> cache.take(key).head, cache.take(key)
('h', None)
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import event
from sqlalchemy.orm import Session

from weiqi.referee.record import GameRecord
from weiqi.services.lru import Lru

#: A stored record's place: the database (its URL), the table and the game's id.
Key = tuple[str, str, int]

#: How many records one worker keeps (the least recently used go first): a live round of
#: this many boards per worker reads no record twice.
MAX_RECORDS = 4096

_NOTED = "weiqi.record_cache.noted"


@dataclass(frozen=True)
class KeptRecord:
    """A verified record and the stored text, head and ``seq`` it is (or was stored as)."""

    record: GameRecord
    text: str
    head: str
    seq: int

    def still(self) -> bool:
        """Whether the record was not changed in memory since (appended to and not stored)."""
        return len(self.record) == self.seq and self.record.head == self.head


class RecordCache(Lru[Key, KeptRecord]):
    """The records of one worker, by :data:`Key`; thread-safe. ``enabled`` off is
    ``bench/live_act.py``'s reference."""

    def __init__(self, size: int = MAX_RECORDS) -> None:
        super().__init__(size)

    def take(self, key: Key) -> KeptRecord | None:
        """The record kept at ``key``, removed (now the caller's alone), or ``None``."""
        with self._lock:
            return self._kept.pop(key, None)

    def keep(self, key: Key, kept: KeptRecord) -> None:
        """Keep ``kept`` at ``key`` unless a longer record is kept there already."""
        if not self.enabled:
            return
        with self._lock:
            there = self._kept.get(key)
            if there is not None and there.seq > kept.seq:
                return
            self._store(key, kept)


#: This worker's records.
CACHE = RecordCache()


def note(session: Session, key: Key, kept: KeptRecord) -> None:
    """Keep ``kept`` at ``key`` once ``session``'s transaction commits (the last note of a
    key wins: a record loaded, then stored)."""
    session.info.setdefault(_NOTED, {})[key] = kept


def noted(session: Session, key: Key) -> bool:
    """Whether ``session`` will keep a record at ``key`` (it was loaded to be kept)."""
    return key in session.info.get(_NOTED, {})


@event.listens_for(Session, "after_commit")
def _committed(session: Session) -> None:
    for key, kept in session.info.pop(_NOTED, {}).items():
        if kept.still():
            CACHE.keep(key, kept)


@event.listens_for(Session, "after_rollback")
def _rolled_back(session: Session) -> None:
    session.info.pop(_NOTED, None)
