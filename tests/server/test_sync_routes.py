"""The routes that call the services are synchronous, so that FastAPI runs them in its
threadpool: the services wait for the database, and an ``async`` route calling them held the
event loop — and with it every live room, clock call-out and push of its worker — for as long
as they took (issue #10: an organiser's import of 1,000 players froze the games on the same
worker). Only the live rooms' routes are ``async``: they await the room's bus and run their
database work in the threadpool themselves."""

from __future__ import annotations

import inspect

from weiqi.server.app import routers

#: The modules whose routes are ``async`` on purpose (sockets, the rooms' bus, health).
ASYNC_MODULES = {"live", "live_referee", "live_referee_api", "health"}


def test_only_the_live_routes_are_async() -> None:
    async_elsewhere = sorted(
        f"{route.endpoint.__module__}.{route.endpoint.__name__}"
        for router in routers()
        for route in router.routes
        if inspect.iscoroutinefunction(getattr(route, "endpoint", None))
        and route.endpoint.__module__.rsplit(".", 1)[-1] not in ASYNC_MODULES
    )
    assert async_elsewhere == []
