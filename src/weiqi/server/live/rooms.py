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
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool

from weiqi.errors import WeiqiError
from weiqi.server.live.bus import Bus, InProcessBus
from weiqi.services import live
from weiqi.services.server_clock import ServerClock
from weiqi.store.database import Database

GameKey = tuple[int, int, int]
"""(event, round, board)."""

T = TypeVar("T")

#: Sleep at least this long between two looks at a clock (a clock that says "now" again, such
#: as a ``ManualClock`` nobody moves, is not spun on).
MIN_SLEEP = 0.02
#: Look a little after the deadline: the clock flags at or after it.
AFTER_DEADLINE = 0.005


def channel(key: GameKey) -> str:
    """The bus channel of a game.

    >>> channel((3, 1, 2))
    'game:3:1:2'
    """
    return "game:{}:{}:{}".format(*key)


class LiveRooms:
    """The rooms of this process (``app.state.live``)."""

    def __init__(self, db: Database, clock: ServerClock, bus: Bus | None = None) -> None:
        self.db = db
        self.clock = clock
        self.bus: Bus = bus or InProcessBus()
        self._locks: dict[GameKey, asyncio.Lock] = {}
        self._present: dict[GameKey, Counter[str]] = {}
        self._watchers: dict[GameKey, asyncio.Task[None]] = {}
        self._nudges: dict[GameKey, asyncio.Event] = {}
        self._away: dict[GameKey, dict[str, float]] = {}
        self._calls: dict[GameKey, dict[str, float]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def lock(self, key: GameKey) -> asyncio.Lock:
        """The lock that orders the changes of one game and their pushes in this process."""
        found = self._locks.get(key)
        if found is None:
            found = self._locks[key] = asyncio.Lock()
        return found

    async def publish(self, key: GameKey, message: dict[str, Any]) -> None:
        await self.bus.publish(channel(key), message)

    async def change(self, key: GameKey, work: Callable[[], T]) -> T:
        """Run ``work`` (a service call returning an ``Outcome``, a ``Snapshot`` or a ``Wake``)
        under the game's lock and push what it stored."""
        async with self.lock(key):
            result = await run_in_threadpool(work)
            snap = getattr(result, "snapshot", result)
            if isinstance(snap, live.Snapshot) and snap.events:
                await self.publish(key, {"type": "update", "snapshot": snap.to_data()})
        self.nudge(key)
        return result

    # -- presence and the start --------------------------------------------------------------

    async def join(self, key: GameKey, color: str | None) -> None:
        """A connection to the room opened; a player's colour counts as present. Once both
        players are present the game starts (``live.start_game``: idempotent)."""
        if color is None:
            return
        present = self._present.setdefault(key, Counter())
        present[color] += 1
        self._away.get(key, {}).pop(color, None)
        if present[color] == 1:
            await self.publish(key, self.presence(key))
        if present["B"] and present["W"]:
            event_id, number, board = key
            await self.change(
                key, lambda: live.start_game(self.db, event_id, number, board, self.clock)
            )

    def leave(self, key: GameKey, color: str | None) -> None:
        """A connection closed (the clock runs on: the rules' default, R-TIME-5 aside)."""
        if color is None:
            return
        present = self._present.get(key)
        if present is not None:
            present[color] -= 1
            if present[color] <= 0:
                del present[color]
                self._away.setdefault(key, {})[color] = self.clock.now().timestamp()
                with contextlib.suppress(RuntimeError):  # no loop: the application is gone
                    task = asyncio.get_running_loop().create_task(
                        self.publish(key, self.presence(key))
                    )
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)

    def present(self, key: GameKey) -> set[str]:
        """The colours with a connection to the room now."""
        return set(self._present.get(key, Counter()))

    def away_since(self, key: GameKey) -> dict[str, float]:
        """Since when (server time) each player who was connected and left is away."""
        return dict(self._away.get(key, {}))

    # -- a player's call for the referee -----------------------------------------------------

    def calls(self, key: GameKey) -> dict[str, float]:
        """The players of the game who called the referee and were not answered yet, with
        when (server time). Kept by this process only: a call is a knock on the door, not part
        of the game's record; a server restart forgets it (the player calls again)."""
        return dict(self._calls.get(key, {}))

    async def call_referee(self, key: GameKey, color: str) -> None:
        """The player of ``color`` calls the referee: the console shows it until a referee acts
        on the game or answers (:meth:`answer`)."""
        self._calls.setdefault(key, {}).setdefault(color, self.clock.now().timestamp())
        await self.publish(key, self._call_message(key))

    async def answer(self, key: GameKey) -> None:
        """A referee took up the game: its calls are answered."""
        if self._calls.pop(key, None):
            await self.publish(key, self._call_message(key))

    def _call_message(self, key: GameKey) -> dict[str, Any]:
        return {"type": "call", "board": key[2], "calls": self.calls(key)}

    def presence(self, key: GameKey) -> dict[str, Any]:
        """The room's presence message (the referee console shows who is disconnected):
        ``{"type": "presence", "board": b, "present": ["B"], "away_since": {"W": t}}``."""
        return {
            "type": "presence",
            "board": key[2],
            "present": sorted(self.present(key)),
            "away_since": self.away_since(key),
        }

    # -- the server's clock ------------------------------------------------------------------

    def nudge(self, key: GameKey) -> None:
        """The game changed: its watcher recomputes when to wake (started if not running)."""
        task = self._watchers.get(key)
        if task is None or task.done():
            self._nudges[key] = asyncio.Event()
            self._watchers[key] = asyncio.get_running_loop().create_task(self.watch(key))
        else:
            self._nudges[key].set()

    async def watch(self, key: GameKey) -> None:
        """Wake at the clock's next deadline or call-out until the clock stops."""
        event_id, number, board = key
        nudge = self._nudges[key]
        while True:
            try:
                next_at = await run_in_threadpool(
                    live.next_wakeup, self.db, event_id, number, board, self.clock
                )
            except WeiqiError:  # the board is gone (its round unpaired), its record refused
                return
            if next_at is None:
                return
            delay = max(MIN_SLEEP, next_at + AFTER_DEADLINE - self.clock.now().timestamp())
            nudge.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(nudge.wait(), timeout=delay)
                continue  # something changed: recompute
            async with self.lock(key):
                try:
                    woke = await run_in_threadpool(
                        live.wake, self.db, event_id, number, board, self.clock
                    )
                except WeiqiError:
                    return
                if woke.changed:
                    await self.publish(key, {"type": "update", "snapshot": woke.snapshot.to_data()})
                if woke.callout is not None:
                    await self.publish(key, {"type": "callout", "callout": woke.callout})

    async def close(self) -> None:
        """Stop every watcher (the application shuts down)."""
        for task in self._watchers.values():
            task.cancel()
        for task in self._watchers.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._watchers.clear()
