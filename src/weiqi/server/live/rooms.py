"""The game rooms of one server process: presence, the order of pushes, the clocks' wake-ups.

Every change of a game — a player's action, the start, a flag the server records — is done by
a service (``services/live.py``) in a worker thread while the game's lock is held, and its
snapshot is published on the game's channel before the lock is released: so pushes go out in
the order the record grew, and each snapshot lists exactly the events it added.

One asyncio task per running game (:meth:`LiveRooms.watch`) sleeps until the clock's next
deadline or call-out (``Clock.next_wakeup``, on the injected server clock), then asks the
service to look at the clock: a flag that has fallen is recorded and pushed even when nobody is
connected or sends anything; a call-out that is due is pushed for the players' browsers to show
and speak. An action wakes the task early so that it sleeps until the new deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol, TypeVar

from starlette.concurrency import run_in_threadpool

from weiqi.errors import WeiqiError
from weiqi.server.live.bus import Bus, InProcessBus
from weiqi.server.live.tasks import stop_tasks
from weiqi.services import live
from weiqi.services.games import BoardKey, TeamBoard
from weiqi.services.live import board_ref
from weiqi.services.server_clock import ServerClock
from weiqi.store.database import Database

log = logging.getLogger(__name__)

GameKey = tuple[int, int, BoardKey]
"""(event, round, board): the board as ``services.games`` names it (a number, a team board)."""

T = TypeVar("T")

#: Sleep at least this long between two looks at a clock (a clock that says "now" again, such
#: as a ``ManualClock`` nobody moves, is not spun on).
MIN_SLEEP = 0.02
#: Look a little after the deadline: the clock flags at or after it.
AFTER_DEADLINE = 0.005
#: With workers on Redis: how often each looks for games overdue, and how long after its time a
#: game counts as overdue (its own watcher, alive, has looked and rescheduled by then).
SWEEP_EVERY = 0.1
SWEEP_GRACE = 0.25
#: A game still due this long after its grace counts as overdue to a monitor.
OVERDUE = 1.0
#: How often the application looks for games to start at their round's start time, and how
#: far ahead (a watcher then sleeps until the exact time).
STARTS_EVERY = 1.0
STARTS_AHEAD = 60.0


class Deadlines(Protocol):
    """The games' next wake-ups shared by the workers (``redis_bus.RedisDeadlines``)."""

    async def schedule(self, channel: str, at: float) -> None: ...

    async def done(self, channel: str) -> None: ...

    async def due(self, before: float) -> list[str]: ...

    async def pending(self, channel: str) -> bool: ...

    async def claim(self, channel: str, worker: str) -> bool: ...

    async def count_due(self, before: float) -> int: ...


def parse_board_ref(text: str) -> BoardKey | None:
    """The board of :func:`board_ref`'s text, or None.

    >>> parse_board_ref("2"), parse_board_ref("1.4.0"), parse_board_ref("x")
    (2, TeamBoard(match=1, board=4, sitting=0), None)
    """
    parts = text.split(".")
    if not all(p.isdigit() for p in parts):
        return None
    if len(parts) == 1:
        return int(parts[0])
    if len(parts) == 3:
        return TeamBoard(int(parts[0]), int(parts[1]), int(parts[2]))
    return None


def game_key(name: str) -> GameKey | None:
    """The game of a channel name, or None.

    >>> game_key("game:3:1:2"), game_key("game:3:1:1.2.0"), game_key("other")
    ((3, 1, 2), (3, 1, TeamBoard(match=1, board=2, sitting=0)), None)
    """
    parts = name.split(":")
    if len(parts) != 4 or parts[0] != "game" or not all(p.isdigit() for p in parts[1:3]):
        return None
    board = parse_board_ref(parts[3])
    if board is None:
        return None
    return int(parts[1]), int(parts[2]), board


def channel(key: GameKey) -> str:
    """The bus channel of a game.

    >>> channel((3, 1, 2)), channel((3, 1, TeamBoard(1, 2)))
    ('game:3:1:2', 'game:3:1:1.2.0')
    """
    return f"game:{key[0]}:{key[1]}:{board_ref(key[2])}"


class Presence(Protocol):
    """Which colours are connected to a room: in this process (:class:`LocalPresence`) or over
    every worker (``redis_bus.RedisPresence``)."""

    async def change(self, channel: str, color: str, by: int) -> set[str]:
        """One more (``by=1``) or one fewer (``-1``) connection of ``color``; the colours
        present after it (what :meth:`present` would say, without asking again)."""
        ...

    async def present(self, channel: str) -> set[str]: ...


class LocalPresence:
    """The connections of one process.

    >>> import asyncio
    >>> p = LocalPresence()
    >>> asyncio.run(p.change("game:1:1:1", "B", 1))
    {'B'}
    >>> asyncio.run(p.change("game:1:1:1", "W", 1)) == asyncio.run(p.present("game:1:1:1"))
    True
    """

    def __init__(self) -> None:
        self._counts: dict[str, Counter[str]] = {}

    async def change(self, channel: str, color: str, by: int) -> set[str]:
        counts = self._counts.setdefault(channel, Counter())
        counts[color] += by
        if counts[color] <= 0:
            del counts[color]
        if not counts:
            del self._counts[channel]
        return set(counts)

    async def present(self, channel: str) -> set[str]:
        return set(self._counts.get(channel, ()))


class LiveRooms:
    """The rooms of this process (``app.state.live``), on the bus and presence given (this
    process's own by default; Redis's with ``WEIQI_REDIS_URL``, shared by every worker)."""

    def __init__(
        self,
        db: Database,
        clock: ServerClock,
        bus: Bus | None = None,
        presence: Presence | None = None,
        deadlines: Deadlines | None = None,
        worker: str = "",
    ) -> None:
        self.db = db
        self.clock = clock
        self.bus: Bus = bus or InProcessBus()
        self.presence: Presence = presence or LocalPresence()
        self.deadlines = deadlines
        self.worker = worker
        self._sweeper: asyncio.Task[None] | None = None
        self._starts: asyncio.Task[None] | None = None
        # SQLite takes one writer at a time for the whole file: the games' writes queue here,
        # as coroutines, instead of as threads spinning on the file's busy timeout (a crowd of
        # them outwaits it: a move refused with "database is locked")
        self._writes = asyncio.Semaphore(1) if db.engine.dialect.name == "sqlite" else None
        self._locks: dict[GameKey, asyncio.Lock] = {}
        self._watchers: dict[GameKey, asyncio.Task[None]] = {}
        self._nudges: dict[GameKey, asyncio.Event] = {}
        self._told: dict[GameKey, float | None] = {}
        """When to look at a game's clock next, as the change that nudged its watcher said."""
        self._away: dict[GameKey, dict[str, float]] = {}
        self._calls: dict[GameKey, dict[str, float]] = {}

    def lock(self, key: GameKey) -> asyncio.Lock:
        """The lock that orders the changes of one game and their pushes in this process."""
        found = self._locks.get(key)
        if found is None:
            found = self._locks[key] = asyncio.Lock()
        return found

    async def publish(self, key: GameKey, message: dict[str, Any]) -> None:
        await self.bus.publish(channel(key), message)

    async def change(self, key: GameKey, work: Callable[[], T]) -> T:
        """Run ``work`` (a service call returning an ``ActionOutcome``, a ``Snapshot`` or a
        ``Wake``) under the game's lock and push what it stored."""
        async with self.lock(key):
            result = await self._write(work)
            snap = getattr(result, "snapshot", result)
            if isinstance(snap, live.Snapshot) and snap.events:
                await self.publish(key, {"type": "update", "snapshot": snap.to_data()})
            # a player's action says when to look next: the watcher need not read the game
            if isinstance(result, live.ActionOutcome):
                self.nudge(key, result.next_at)
            else:
                self.nudge(key)
        return result

    async def _write(self, work: Callable[[], T]) -> T:
        """``work`` (a service call that may write) in a worker thread, one at a time on
        SQLite."""
        if self._writes is None:
            return await run_in_threadpool(work)
        async with self._writes:
            return await run_in_threadpool(work)

    # -- presence and the start --------------------------------------------------------------

    async def join(self, key: GameKey, color: str | None) -> None:
        """A connection to the room opened; a player's colour counts as present. Once both
        players are present (on any worker) the game starts (``live.start_game``:
        idempotent, under the event's lock)."""
        if color is None:
            return
        # a round's start is thousands of joins at once: one round trip to the presence store
        # for the change and who is there, the message built from that answer
        present = await self.presence.change(channel(key), color, 1)
        self._away.get(key, {}).pop(color, None)
        await self.publish(key, self._presence_message(key, present))
        if {"B", "W"} <= present:
            event_id, number, board = key
            await self.change(
                key, lambda: live.start_game(self.db, event_id, number, board, self.clock)
            )

    async def leave(self, key: GameKey, color: str | None) -> None:
        """A connection closed (the clock runs on: the rules' default, R-TIME-5 aside)."""
        if color is None:
            return
        present = await self.presence.change(channel(key), color, -1)
        if color not in present:
            self._away.setdefault(key, {})[color] = self.clock.now().timestamp()
        with contextlib.suppress(Exception):  # the bus gone with the application: nobody listens
            await self.publish(key, self._presence_message(key, present))

    async def present(self, key: GameKey) -> set[str]:
        """The colours with a connection to the room now."""
        return await self.presence.present(channel(key))

    def away_since(self, key: GameKey) -> dict[str, float]:
        """Since when (server time) each player who was connected and left is away."""
        return dict(self._away.get(key, {}))

    # -- a player's call for the referee -----------------------------------------------------

    def calls(self, key: GameKey) -> dict[str, float]:
        """The players of the game who called the referee and were not answered yet, with
        when (server time). Kept by this process only: a call is a knock on the door, not part
        of the game's record; a server restart forgets it (the player calls again). With
        several workers, each learns of the calls from the pushes its readers receive."""
        return dict(self._calls.get(key, {}))

    async def call_referee(self, key: GameKey, color: str) -> None:
        """The player of ``color`` calls the referee: the console shows it until a referee acts
        on the game or answers (:meth:`answer`)."""
        self._calls.setdefault(key, {}).setdefault(color, self.clock.now().timestamp())
        await self.publish(key, self._call_message(key))

    async def answer(self, key: GameKey) -> None:
        """A referee took up the game: its calls are answered (on every worker: the call may
        have reached another)."""
        self._calls.pop(key, None)
        await self.publish(key, self._call_message(key))

    def note_calls(self, key: GameKey, calls: dict[str, float]) -> None:
        """The calls of the game as a push (from any worker) says they are now."""
        if calls:
            self._calls[key] = dict(calls)
        else:
            self._calls.pop(key, None)

    def _call_message(self, key: GameKey) -> dict[str, Any]:
        return {"type": "call", "board": board_ref(key[2]), "calls": self.calls(key)}

    def _presence_message(self, key: GameKey, present: set[str]) -> dict[str, Any]:
        """The room's presence message (the referee console shows who is disconnected):
        ``{"type": "presence", "board": b, "present": ["B"], "away_since": {"W": t}}`` —
        ``away_since`` as this process saw the players leave (its readers merge them)."""
        return {
            "type": "presence",
            "board": board_ref(key[2]),
            "present": sorted(present),
            "away_since": self.away_since(key),
        }

    # -- the server's clock ------------------------------------------------------------------

    def nudge(self, key: GameKey, *next_at: float | None) -> None:
        """The game changed: its watcher recomputes when to wake (started if not running) —
        or wakes at ``next_at`` when the change said when (one value)."""
        if next_at:
            self._told[key] = next_at[0]
        else:
            self._told.pop(key, None)
        task = self._watchers.get(key)
        if task is None or task.done():
            self._nudges[key] = asyncio.Event()
            self._watchers[key] = asyncio.get_running_loop().create_task(self.watch(key))
        else:
            self._nudges[key].set()

    def look(self, key: GameKey, next_at: float | None) -> None:
        """A reader came into the room, the game read with when to look at it next
        (``live.Entry.wakeup``): watched from then on, unless this worker watches it already —
        every change made here wakes its watcher itself. A round's start is thousands of
        readers coming in, and each one's nudge made the watcher read the game again."""
        task = self._watchers.get(key)
        if next_at is None or (task is not None and not task.done()):
            return
        self.nudge(key, next_at)

    async def watch(self, key: GameKey) -> None:
        """Wake at the clock's next deadline or call-out until the clock stops."""
        event_id, number, board = key
        nudge = self._nudges[key]
        while True:
            nudge.clear()  # before the look: a change meanwhile wakes the wait below at once
            if key in self._told:
                next_at = self._told.pop(key)
            else:
                try:
                    next_at = await run_in_threadpool(
                        live.next_wakeup, self.db, event_id, number, board, self.clock
                    )
                except WeiqiError:  # the board is gone (its round unpaired), its record refused
                    return
            if next_at is None:
                if self.deadlines is not None:
                    await self.deadlines.done(channel(key))
                return
            if self.deadlines is not None:  # for another worker, should this one die
                await self.deadlines.schedule(channel(key), next_at)
            delay = max(MIN_SLEEP, next_at + AFTER_DEADLINE - self.clock.now().timestamp())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(nudge.wait(), timeout=delay)
                continue  # something changed: recompute
            async with self.lock(key):
                try:
                    woke = await self._write(
                        lambda: live.wake(self.db, event_id, number, board, self.clock)
                    )
                except WeiqiError:
                    return
                if woke.start_due:  # the round's start time: started with who is here now
                    snap = await self._write(partial(self._start, key, await self.present(key)))
                    woke = live.Wake(snap, bool(snap.events), None, None)
                if woke.changed:
                    await self.publish(key, {"type": "update", "snapshot": woke.snapshot.to_data()})
                if woke.callout is not None:
                    await self.publish(key, {"type": "callout", "callout": woke.callout})

    async def watch_starts(self) -> None:
        """Watch every game that starts at its round's start time (``live.scheduled_starts``:
        also a start set from the command line, or by another worker) from a little before
        it, so that the server starts it on time with nobody in the room. With workers on
        Redis one of them watches each (the first to claim it; the others see its wake-up
        scheduled)."""
        while True:
            try:
                await self._look_for_starts()
            except Exception:  # a database or Redis hiccup: the next look; said in the log
                log.exception("looking for the games to start failed")
            await asyncio.sleep(STARTS_EVERY)

    async def _look_for_starts(self) -> None:
        """One look of :meth:`watch_starts`: watch each game due to start that no watcher of
        this worker (nor, with workers on Redis, of another) has."""
        keys = await run_in_threadpool(live.scheduled_starts, self.db, self.clock, STARTS_AHEAD)
        for key in keys:
            task = self._watchers.get(key)
            if task is not None and not task.done():
                continue
            if self.deadlines is not None:
                name = channel(key)
                if await self.deadlines.pending(name):
                    continue  # another worker's watcher has it
                if not await self.deadlines.claim(name, self.worker):
                    continue
            self.nudge(key)

    def start_start_watch(self) -> None:
        """Begin :meth:`watch_starts` (once per process)."""
        if self._starts is None or self._starts.done():
            self._starts = asyncio.get_running_loop().create_task(self.watch_starts())

    def _start(self, key: GameKey, present: set[str]) -> live.Snapshot:
        """Start the game at its round's start time, with who is in the room now."""
        event_id, number, board = key
        return live.start_game(self.db, event_id, number, board, self.clock, present=present)

    # -- the workers' shared deadlines -------------------------------------------------------

    def start_sweeper(self) -> None:
        """Look for overdue games of any worker (with shared :attr:`deadlines`)."""
        if self.deadlines is not None and (self._sweeper is None or self._sweeper.done()):
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        assert self.deadlines is not None
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            with contextlib.suppress(Exception):  # Redis away a moment: the next sweep
                overdue = await self.deadlines.due(self.clock.now().timestamp() - SWEEP_GRACE)
                for name in overdue:
                    key = game_key(name)
                    if key is None:
                        continue
                    task = self._watchers.get(key)
                    if task is not None and not task.done():
                        continue  # watched here already
                    if await self.deadlines.claim(name, self.worker):
                        self.nudge(key)

    # -- what a monitor watches ---------------------------------------------------------------

    async def figures(self) -> dict[str, int | None]:
        """This worker's live figures (``GET /health/live``): ``readers`` — open room sockets
        here; ``watched`` — running games whose clock this worker watches; with workers on
        Redis, ``workers`` — how many are alive, and ``overdue`` — games whose deadline passed
        more than a second ago unlooked at (a sweep that does not keep up: it should stay 0).

        >>> import asyncio
        >>> from weiqi.services.server_clock import SYSTEM_CLOCK
        >>> rooms = LiveRooms(Database("sqlite://"), SYSTEM_CLOCK)
        >>> asyncio.run(rooms.figures())
        {'readers': 0, 'watched': 0, 'workers': None, 'overdue': None}
        """
        readers = getattr(self.bus, "readers", None)
        out: dict[str, int | None] = {
            "readers": readers() if callable(readers) else None,
            "watched": sum(not t.done() for t in self._watchers.values()),
            "workers": None,
            "overdue": None,
        }
        count = getattr(self.presence, "workers", None)
        if callable(count):
            out["workers"] = await count()
        if self.deadlines is not None:
            late = self.clock.now().timestamp() - SWEEP_GRACE - OVERDUE
            out["overdue"] = await self.deadlines.count_due(late)
        return out

    async def close(self) -> None:
        """Stop every watcher (the application shuts down)."""
        await stop_tasks([*self._watchers.values(), self._sweeper, self._starts])
        self._watchers.clear()
