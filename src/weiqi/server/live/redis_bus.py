"""The push bus and the room presence shared by every worker through Redis (issue #12).

With ``WEIQI_REDIS_URL`` a move made on one worker reaches the players and spectators connected
to any other: :class:`RedisBus` publishes each message on the game's Redis channel and keeps
one pub/sub connection per process, which hands each message to the local subscribers of that
channel (the same per-subscriber queues as :class:`~weiqi.server.live.bus.InProcessBus`, so a
slow reader never blocks the others). Messages are JSON; PostgreSQL stays the source of truth:
a reader told of an update it cannot place after what it has (two workers' pushes of one game
can cross on the way) reads the game again from the database (``routes/live.py``).

:class:`RedisPresence` counts the connections of each colour per worker in one hash per game,
so that a game starts once both players are connected, to whichever workers. A worker's counts
count only while its heartbeat key lives (refreshed every few seconds): a worker killed with
``kill -9`` stops counting within :data:`HEARTBEAT_TTL` seconds without any clean-up.

>>> import asyncio
>>> async def demo(url: str) -> list[dict[str, object]]:
...     one, two = RedisBus.from_url(url), RedisBus.from_url(url)  # as two workers
...     sub = two.subscribe("game:doc")
...     await sub.ready()
...     await one.publish("game:doc", {"n": 1})
...     got = [await sub.get()]
...     sub.close()
...     await one.close(); await two.close()
...     return got
>>> asyncio.run(demo("redis://127.0.0.1:6379/0"))  # doctest: +SKIP
[{'n': 1}]
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from typing import Any

import redis.asyncio as aioredis

from weiqi.server.live.tasks import stop_tasks

#: Connections each client of a worker keeps to Redis at most; more commands at once wait for
#: one (up to :data:`POOL_WAIT` seconds). redis-py's own pool refuses the 101st command at once
#: ("Too many connections"): a worker joined by 2,400 sockets at once failed their presence.
#: With 50, a round start of 1,000 games and 10,000 spectators on one worker left commands
#: waiting past :data:`POOL_WAIT` while Redis saw the pool's connections idle (pushes of stored
#: moves lost, games stalled); with 500 none did, 326 connections open at the peak
#: (bench/README.md). The pool opens them only as they are needed.
POOL_SIZE = 500
POOL_WAIT = 30.0


def client(url: str) -> aioredis.Redis:
    """A Redis client of ``url`` whose commands wait for a free connection of its pool (of
    :data:`POOL_SIZE`) instead of failing when a crowd of them comes at once."""
    pool = aioredis.BlockingConnectionPool.from_url(
        url, max_connections=POOL_SIZE, timeout=POOL_WAIT
    )
    return aioredis.Redis(connection_pool=pool)


#: Seconds a worker's presence counts without a fresh heartbeat.
HEARTBEAT_TTL = 15
HEARTBEAT_EVERY = 5.0
PREFIX = "weiqi:live"


class _Local:
    """One local subscriber of a channel."""

    def __init__(self, bus: RedisBus, channel: str) -> None:
        self._bus = bus
        self.channel = channel
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._closed = False

    async def ready(self) -> None:
        await self._bus._subscribed(self.channel)

    async def get(self) -> dict[str, Any]:
        return await self.queue.get()

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._bus._remove(self)


class RedisBus:
    """The bus of every worker on one Redis (see the module's docstring)."""

    def __init__(self, client: aioredis.Redis, prefix: str = PREFIX) -> None:
        self._client = client
        self._prefix = prefix
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._locals: dict[str, set[_Local]] = {}
        self._ready: dict[str, asyncio.Future[None]] = {}
        self._lock = asyncio.Lock()

    @classmethod
    def from_url(cls, url: str, prefix: str = PREFIX) -> RedisBus:
        return cls(client(url), prefix)

    def _name(self, channel: str) -> str:
        return f"{self._prefix}:{channel}"

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        await self._client.publish(self._name(channel), json.dumps(message))

    def subscribe(self, channel: str) -> _Local:
        """A local subscriber; its messages flow once :meth:`_Local.ready` has returned (the
        Redis subscription is made then: before it, a message may be missed)."""
        sub = _Local(self, channel)
        self._locals.setdefault(channel, set()).add(sub)
        return sub

    async def _subscribed(self, channel: str) -> None:
        async with self._lock:
            if self._pubsub is None:
                self._pubsub = self._client.pubsub(ignore_subscribe_messages=False)
            waiting = self._ready.get(channel)
            if waiting is None:
                waiting = self._ready[channel] = asyncio.get_running_loop().create_future()
                await self._pubsub.subscribe(self._name(channel))
            if self._reader is None or self._reader.done():
                self._reader = asyncio.get_running_loop().create_task(self._read())
        await waiting

    async def _read(self) -> None:
        start = len(self._prefix) + 1
        while True:
            message = await self._pubsub.get_message(timeout=1.0)
            if message is None:
                continue
            name = message["channel"]
            channel = (name.decode() if isinstance(name, bytes) else str(name))[start:]
            if message["type"] == "subscribe":
                waiting = self._ready.get(channel)
                if waiting is not None and not waiting.done():
                    waiting.set_result(None)
                continue
            if message["type"] != "message":
                continue
            data = json.loads(message["data"])
            for sub in tuple(self._locals.get(channel, ())):
                sub.queue.put_nowait(data)

    def _remove(self, sub: _Local) -> None:
        subs = self._locals.get(sub.channel)
        if subs is None:
            return
        subs.discard(sub)
        if not subs:
            # The Redis subscription stays (one per game this worker has served, cheap for
            # Redis): unsubscribing could cross a new reader's subscription on the connection.
            del self._locals[sub.channel]

    def subscribers(self, channel: str) -> int:
        """How many local readers subscribe to ``channel`` now."""
        return len(self._locals.get(channel, ()))

    def readers(self) -> int:
        """How many local readers subscribe to any channel now."""
        return sum(len(subs) for subs in self._locals.values())

    async def close(self) -> None:
        await stop_tasks([self._reader])
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self._client.aclose()


class RedisPresence:
    """Which colours are connected to a room, over every worker (see the module's docstring)."""

    def __init__(self, client: aioredis.Redis, prefix: str = PREFIX) -> None:
        self._client = client
        self._prefix = prefix
        self.worker = secrets.token_hex(6)
        self._beat: asyncio.Task[None] | None = None
        self._first: asyncio.Task[None] | None = None

    @classmethod
    def from_url(cls, url: str, prefix: str = PREFIX) -> RedisPresence:
        return cls(client(url), prefix)

    def _alive_key(self, worker: str) -> str:
        return f"{self._prefix}:worker:{worker}"

    async def _beat_once(self) -> None:
        await self._client.set(self._alive_key(self.worker), "1", ex=HEARTBEAT_TTL)

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_EVERY)
            # a failed beat (Redis away a moment) is tried again at the next: the task that
            # ended on one left the worker's players uncounted 15 s later
            with contextlib.suppress(Exception):
                await self._beat_once()

    async def _alive(self) -> None:
        """The worker's heartbeat started, once (the first 400 joins at once had each started
        one, 399 of them beating on after ``close``), after its first beat is stored."""
        loop = asyncio.get_running_loop()
        first = self._first
        if first is None or (first.done() and (first.cancelled() or first.exception())):
            first = self._first = loop.create_task(self._beat_once())  # again if it failed
        if self._beat is None or self._beat.done():
            self._beat = loop.create_task(self._heartbeat())
        await asyncio.shield(first)  # a join given up must not cancel everyone's first beat

    async def change(self, channel: str, color: str, by: int) -> set[str]:
        """One more (``by=1``) or one fewer (``-1``) connection of ``color`` on this worker;
        the colours present after it — the change and the read in one round trip (a round's
        start is every player joining at once: a command each queued for the pool's
        connections behind thousands of others)."""
        await self._alive()
        key = f"{self._prefix}:presence:{channel}"
        async with self._client.pipeline(transaction=False) as pipe:
            pipe.hincrby(key, f"{self.worker}:{color}", by)
            pipe.hgetall(key)
            _count, counts = await pipe.execute()
        return await self._on_live_workers(counts)

    async def workers(self) -> int:
        """How many workers are alive (their heartbeat key lives)."""
        await self._alive()
        return sum([1 async for _ in self._client.scan_iter(self._alive_key("*"), count=100)])

    async def present(self, channel: str) -> set[str]:
        """The colours with a connection on a live worker."""
        counts = await self._client.hgetall(f"{self._prefix}:presence:{channel}")
        return await self._on_live_workers(counts)

    async def _on_live_workers(self, counts: dict[Any, Any]) -> set[str]:
        """The colours of a presence hash's ``worker:color`` counts that are on a live worker
        (this one is: it beats while it runs)."""
        by_worker: dict[str, set[str]] = {}
        for field, count in counts.items():
            name = field.decode() if isinstance(field, bytes) else str(field)
            worker, _, color = name.partition(":")
            if int(count) > 0:
                by_worker.setdefault(worker, set()).add(color)
        if not by_worker:
            return set()
        out = by_worker.pop(self.worker, set())
        if not by_worker:
            return out
        workers = list(by_worker)
        alive = await self._client.mget([self._alive_key(w) for w in workers])
        for worker, flag in zip(workers, alive, strict=True):
            if flag is not None:
                out |= by_worker[worker]
        return out

    async def close(self) -> None:
        await stop_tasks([self._beat, self._first])
        with contextlib.suppress(Exception):
            await self._client.delete(self._alive_key(self.worker))
            await self._client.aclose()


#: How long a claim on a due game keeps the other workers off it (its watcher starts at once).
LEASE_MS = 2_000


class RedisDeadlines:
    """The next wake-up of every running game, in one sorted set shared by the workers, so that
    a time-out is flagged at its deadline even when the worker watching the game has died
    (issue #12). Each watcher writes its game's next deadline or call-out here; every worker
    sweeps for entries past due (:data:`~weiqi.server.live.rooms.SWEEP_GRACE` after their time:
    a live watcher reschedules its entry before then) and, holding a short lease (``SET NX
    PX``, so one worker takes it), watches that game itself. The flag is still written once:
    under the event's lock, after the record is read again (``services.live.wake``).
    """

    def __init__(self, client: aioredis.Redis, prefix: str = PREFIX) -> None:
        self._client = client
        self._prefix = prefix
        self._key = f"{prefix}:deadlines"

    @classmethod
    def from_url(cls, url: str, prefix: str = PREFIX) -> RedisDeadlines:
        return cls(client(url), prefix)

    async def schedule(self, channel: str, at: float) -> None:
        """``channel``'s game next needs a look at ``at`` (a timestamp)."""
        await self._client.zadd(self._key, {channel: at})

    async def done(self, channel: str) -> None:
        """``channel``'s clock stopped: nothing to wake for."""
        await self._client.zrem(self._key, channel)

    async def due(self, before: float) -> list[str]:
        """The games whose wake-up is at or before ``before``."""
        found = await self._client.zrangebyscore(self._key, "-inf", before)
        return [c.decode() if isinstance(c, bytes) else str(c) for c in found]

    async def count_due(self, before: float) -> int:
        """How many games' wake-ups are at or before ``before`` (a monitor's figure)."""
        return int(await self._client.zcount(self._key, "-inf", before))

    async def pending(self, channel: str) -> bool:
        """Whether a watcher (of any worker) has scheduled ``channel``'s next wake-up."""
        return await self._client.zscore(self._key, channel) is not None

    async def claim(self, channel: str, worker: str) -> bool:
        """Whether this worker takes ``channel``'s overdue game (no other did in the lease)."""
        got = await self._client.set(f"{self._key}:lease:{channel}", worker, nx=True, px=LEASE_MS)
        return bool(got)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self._client.aclose()
