"""The live rooms' part of the application's life (issue #11): on start-up the games a server
restart interrupted are recovered from their records (``services/live_recovery.py``: the
downtime is a recorded pause, R-TIME-5) and watched again, so that their flags fall at the
deadline whether or not anybody reconnects; with several workers each sweeps the shared
deadlines (``LiveRooms.start_sweeper``); while the application runs it notes every
``HEARTBEAT_SECONDS`` that it is alive; on shutdown the watchers stop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from starlette.concurrency import run_in_threadpool

from weiqi.server.live.tasks import stop_tasks
from weiqi.services import live_recovery

log = logging.getLogger(__name__)


async def _heartbeat(app: Any) -> None:
    db, clock = app.state.db, app.state.clock
    while True:
        await asyncio.sleep(live_recovery.HEARTBEAT_SECONDS)
        try:
            await run_in_threadpool(live_recovery.beat, db, clock)
        except Exception:  # a database hiccup: the next beat tries again
            log.exception("live heartbeat failed")


@asynccontextmanager
async def live_lifespan(app: Any) -> AsyncIterator[None]:
    """Recover, watch and beat while the application runs."""
    from weiqi.server.routes.live import rooms  # the app's rooms (on Redis with workers)

    live_rooms = rooms(app)
    try:
        keys = await run_in_threadpool(live_recovery.recover, app.state.db, app.state.clock)
    except Exception:  # never keep the site from starting: the games recover on connection
        log.exception("live recovery failed")
        keys = []
    for key in keys:
        live_rooms.nudge(key)
    # with workers on Redis each sweeps the shared deadlines from its start, whether or not
    # anybody connects to it: a game whose worker died is flagged on time by another
    live_rooms.start_sweeper()
    # games that start at their round's start time start then, whoever is connected
    live_rooms.start_start_watch()
    beating = asyncio.get_running_loop().create_task(_heartbeat(app))
    try:
        yield
    finally:
        await stop_tasks([beating])
        await live_rooms.close()
