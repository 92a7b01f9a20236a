"""Stopping the live server's background tasks, for sure.

On CPython 3.11 a task cancelled while ``asyncio.wait_for`` inside it sees its awaited future
complete at the same moment swallows the cancellation (CPython gh-86296, fixed in 3.12 by
rewriting ``wait_for`` on ``asyncio.timeout``). redis-py sends every command through
``wait_for`` (when its socket has a timeout, 5 s by default): a cancelled heartbeat or reader
busy with a command went on as if nothing had happened, and whoever awaited it after one
``cancel()`` waited forever (the test suite's crowd test hung CI until its time ran out).
:func:`stop_tasks` cancels again those that go on, on each of the event loop's next turns:
cancelled again every 20 ms instead, a loop of commands on a loaded machine swallowed
hundreds of cancellations in a row (each came at the same point of its loop), and on each turn
one lands elsewhere within a few turns. anyio's cancel scopes do the same, and redis-py is
written to bear it.

>>> import asyncio
>>> async def demo() -> bool:
...     async def forever() -> None:
...         while True:
...             await asyncio.sleep(1)
...     task = asyncio.get_running_loop().create_task(forever())
...     await stop_tasks([task])
...     return task.cancelled()
>>> asyncio.run(demo())
True
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from typing import Any

#: Turns of the event loop on each of which the tasks still going are cancelled again, before
#: waiting :func:`stop_tasks`'s ``every`` seconds (a task busy with a slow clean-up, or shielded
#: from cancellation, should not keep the loop spinning).
TURNS = 100


async def stop_tasks(tasks: Iterable[asyncio.Task[Any] | None], every: float = 0.2) -> None:
    """Cancel ``tasks`` (``None`` ones skipped) and wait until every one is done, cancelling
    again those that go on on each of the loop's next :data:`TURNS` turns, then every
    ``every`` seconds; their exceptions are dropped (a task being stopped has nobody left to
    tell)."""
    wanted = [t for t in tasks if t is not None]
    pending = {t for t in wanted if not t.done()}
    while pending:
        for _turn in range(TURNS):
            for task in pending:
                task.cancel()
            await asyncio.sleep(0)
            pending = {t for t in pending if not t.done()}
            if not pending:
                break
        else:
            _done, pending = await asyncio.wait(pending, timeout=every)
    for task in wanted:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            task.result()
