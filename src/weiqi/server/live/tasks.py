"""Stopping the live server's background tasks, for sure.

On CPython 3.11 a task cancelled while ``asyncio.wait_for`` inside it sees its awaited future
complete at the same moment swallows the cancellation (CPython gh-86296, fixed in 3.12 by
rewriting ``wait_for`` on ``asyncio.timeout``). redis-py sends and reads every command through
``wait_for``: a cancelled heartbeat or reader busy with a command went on as if nothing had
happened, about one cancellation in three in a tight loop, and whoever awaited it after one
``cancel()`` waited forever (the test suite's crowd test hung CI until its time ran out).
:func:`stop_tasks` cancels again those that go on.

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


async def stop_tasks(tasks: Iterable[asyncio.Task[Any] | None], every: float = 0.2) -> None:
    """Cancel ``tasks`` (``None`` ones skipped) and wait until every one is done, cancelling
    again every ``every`` seconds those that go on; their exceptions are dropped (a task being
    stopped has nobody left to tell)."""
    wanted = [t for t in tasks if t is not None]
    pending = {t for t in wanted if not t.done()}
    while pending:
        for task in pending:
            task.cancel()
        _done, pending = await asyncio.wait(pending, timeout=every)
    for task in wanted:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            task.result()
