"""What a live move reads of its game and does not write, kept by a worker between moves.

A move of a live game wrote its record and its board's row, and read — every time, the same —
the event, the round, both players with their namesakes (for the labels), the event's
settings (for the ruleset) and the mover's account links (for the seat): nine of the fifteen
statements of a move (issue #11: a move's time was mostly the database's round trips and the
ORM's rows). Those reads are kept here, per board, and used again only while nothing they come
from can have changed:

- the *shapes* of the site and of the event (``store.versions``) are those the kept reads were
  made under: every write to the event but a game's progress (a move, a clock press, a result)
  changes the event's shape, and a write that names no event (a team's roster) the site's;
- the board's row — read afresh, locked, by every move — still has the values the kept reads
  were derived from (its players, komi, handicap, round or match): a nigiri that swapped the
  colours, a pairing changed, and the game is read again.

So the cache changes no answer, only its cost; a miss reads everything as before. One
worker's entries are its own (a process's memory), at most :data:`MAX_BOARDS` of them, the
least recently used dropped first.

>>> cache = GameCache(2)
>>> cache.put(("db", 1, 1, 1), KeptBoard((5, 7), (1, 2), "game", {}))
>>> cache.get(("db", 1, 1, 1), (5, 7), (1, 2)).game, cache.get(("db", 1, 1, 1), (5, 8), (1, 2))
('game', None)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from weiqi.services.lru import Lru

#: A board's place: the database (its URL), the event, the round and the board's key.
Key = tuple[str, int, int, object]

#: Boards one worker keeps (a national event's round of this many boards per worker).
MAX_BOARDS = 20_000

G = TypeVar("G")


@dataclass
class KeptBoard(Generic[G]):
    """A board's reads: the shapes and the row values they were made under, the game (its
    row to be replaced by the move's own), the seats found so far by user id and what its
    room read of the event."""

    shapes: tuple[int, int]
    row: tuple[Any, ...]
    game: G
    seats: dict[int, Any] = field(default_factory=dict)
    room: Any = None
    """What the game's room reads of its event for the board, once found (``services.live``:
    the round's start time, the play settings, the time control): none of it changes without
    changing the event's shape."""


class GameCache(Lru[Key, KeptBoard[Any]]):
    """The kept reads of one worker, by :data:`Key`; thread-safe."""

    def __init__(self, size: int = MAX_BOARDS) -> None:
        super().__init__(size)

    def get(self, key: Key, shapes: tuple[int, int], row: tuple[Any, ...]) -> KeptBoard[Any] | None:
        """The reads kept at ``key`` if made under ``shapes`` from ``row``, else ``None``."""
        with self._lock:
            kept = self._kept.get(key)
            if kept is None or kept.shapes != shapes or kept.row != row:
                return None
            self._kept.move_to_end(key)
            return kept

    def put(self, key: Key, kept: KeptBoard[Any]) -> None:
        """Keep ``kept`` at ``key`` (replacing what was there)."""
        if not self.enabled:
            return
        with self._lock:
            self._store(key, kept)


#: This worker's kept reads.
CACHE = GameCache()
