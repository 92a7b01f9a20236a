"""The push bus: a channel per game, every message to every subscriber of the channel, in the
order published.

:class:`Bus` is the interface the rooms use; :class:`InProcessBus` implements it for one
process (one worker). A bus across workers (Redis pub/sub, issue #12) implements the same two
methods; messages are JSON-ready dicts so that they can cross a process boundary as they are.

>>> import asyncio
>>> async def demo() -> list[dict[str, object]]:
...     bus = InProcessBus()
...     sub = bus.subscribe("game:1")
...     await bus.publish("game:1", {"n": 1})
...     await bus.publish("game:2", {"n": 2})  # nobody listens: dropped
...     await bus.publish("game:1", {"n": 3})
...     got = [await sub.get(), await sub.get()]
...     sub.close()
...     return got
>>> asyncio.run(demo())
[{'n': 1}, {'n': 3}]
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol


class Subscription(Protocol):
    """One subscriber's messages of one channel."""

    async def ready(self) -> None:
        """Return once every message published from now on will be received (a bus across
        processes subscribes over the network)."""
        ...

    async def get(self) -> dict[str, Any]:
        """The next message (waits for one)."""
        ...

    def close(self) -> None:
        """Stop receiving; idempotent."""
        ...


class Bus(Protocol):
    """Publish to a channel; subscribe to one."""

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        """Send ``message`` to every current subscriber of ``channel``."""
        ...

    def subscribe(self, channel: str) -> Subscription:
        """A subscription that receives every message published on ``channel`` from now on."""
        ...


class _Queue:
    def __init__(self, bus: InProcessBus, channel: str) -> None:
        self._bus = bus
        self._channel = channel
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def ready(self) -> None:
        return None  # subscribed as soon as made

    async def get(self) -> dict[str, Any]:
        return await self.queue.get()

    def close(self) -> None:
        self._bus._remove(self._channel, self)


class InProcessBus:
    """The bus of one process: a queue per subscriber (pushes to a slow reader wait in its
    queue, never block the others)."""

    def __init__(self) -> None:
        self._channels: dict[str, set[_Queue]] = {}

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        for sub in tuple(self._channels.get(channel, ())):
            sub.queue.put_nowait(message)

    def subscribe(self, channel: str) -> Subscription:
        sub = _Queue(self, channel)
        self._channels.setdefault(channel, set()).add(sub)
        return sub

    def _remove(self, channel: str, sub: _Queue) -> None:
        subs = self._channels.get(channel)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._channels[channel]

    def subscribers(self, channel: str) -> int:
        """How many subscribe to ``channel`` now."""
        return len(self._channels.get(channel, ()))

    def readers(self) -> int:
        """How many subscribe to any channel now (this process's open room sockets)."""
        return sum(len(subs) for subs in self._channels.values())
