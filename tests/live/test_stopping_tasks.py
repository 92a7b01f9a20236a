"""Background tasks busy with a Redis command stop when the server stops them.

On CPython 3.11 a cancellation that reaches ``asyncio.wait_for`` (which redis-py sends and reads
every command through) just as its future completes is lost: a heartbeat cancelled once went
on beating, and ``RedisPresence.close`` waited for it forever (the crowd test of
``test_workers.py`` hung CI for its whole 90 minutes). ``stop_tasks`` cancels again.
"""

from __future__ import annotations

import asyncio
import uuid

import redis.asyncio as aioredis

from weiqi.server.live.redis_bus import RedisBus, RedisPresence
from weiqi.server.live.tasks import stop_tasks

REDIS_URL = "redis://127.0.0.1:6379/0"
TRIES = 60


def test_a_task_in_the_middle_of_redis_commands_is_stopped_every_time() -> None:
    """60 loops of commands, each stopped after a different short while: every one ends within
    5 s, on a loaded machine too (one ``cancel()`` left about a third of them running; a
    ``cancel()`` every 20 ms, with CI's other tests running, left some running for seconds: the
    cancellations kept coming at the same point of the loop)."""

    async def run() -> list[bool]:
        client = aioredis.Redis.from_url(REDIS_URL)
        key = f"weiqi:test:{uuid.uuid4().hex[:8]}"

        async def beat() -> None:
            while True:
                await client.set(key, "1", ex=5)

        ended = []
        for n in range(TRIES):
            task = asyncio.get_running_loop().create_task(beat())
            await asyncio.sleep((n % 6) * 0.0004)
            await asyncio.wait_for(stop_tasks([task], every=0.02), timeout=5)
            ended.append(task.done())
        await client.aclose()
        return ended

    assert all(asyncio.run(run()))


def test_the_presence_and_the_bus_close_while_their_tasks_talk_to_redis() -> None:
    """A worker's presence (its heartbeat beating) and bus (its reader reading) closed at once
    after a join: each close ends within seconds, whatever the tasks were doing."""

    async def run() -> int:
        closed = 0
        for n in range(TRIES // 3):
            prefix = f"weiqi:test:{uuid.uuid4().hex[:8]}"
            presence = RedisPresence.from_url(REDIS_URL, prefix)
            bus = RedisBus.from_url(REDIS_URL, prefix)
            sub = bus.subscribe("game:1:1:1")
            await sub.ready()
            await presence.change("game:1:1:1", "B", 1)
            await asyncio.sleep((n % 4) * 0.001)
            sub.close()
            await asyncio.wait_for(asyncio.gather(presence.close(), bus.close()), timeout=10)
            closed += 1
        return closed

    assert asyncio.run(run()) == TRIES // 3
