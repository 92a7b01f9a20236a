"""The application factory.

>>> from weiqi.store.database import Database
>>> db = Database("sqlite://"); db.upgrade()
>>> from fastapi.testclient import TestClient
>>> TestClient(create_app(db)).get("/health").json()["status"]
'ok'
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from fastapi import APIRouter, Depends, FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from weiqi import __version__
from weiqi.server import errors, routes
from weiqi.server.ratelimit import LoginLimits
from weiqi.server.security import csrf_protect
from weiqi.services.server_clock import SYSTEM_CLOCK, ServerClock
from weiqi.services.site import secret_key as stored_secret_key
from weiqi.store.database import Database


class SecurityHeaders:
    """Headers every response carries: no framing (clickjacking), no MIME sniffing, and no
    full URLs leaking to other sites."""

    HEADERS = (
        (b"x-frame-options", b"DENY"),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"same-origin"),
    )

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


STATIC_DIR = Path(__file__).parent / "static"
SESSION_COOKIE = "weiqi_session"
SESSION_DAYS = 14


def create_app(
    db: Database,
    *,
    secret_key: str | None = None,
    https_only: bool = False,
    login_limits: LoginLimits | None = None,
    clock: ServerClock = SYSTEM_CLOCK,
) -> FastAPI:
    """The web application on ``db`` (already migrated: see ``Database.upgrade``).

    ``secret_key`` signs session cookies; by default a key generated once and kept in the
    database. ``https_only`` adds the cookie's ``Secure`` flag (behind TLS). ``clock`` is the
    only source of "now" for the services the routes call (lineup deadlines, the times in game
    records): the system clock unless a test gives a ``ManualClock``.
    """
    app = FastAPI(
        title="weiqi",
        version=__version__,
        description="Run Go (围棋) competitions under the Chinese Weiqi Competition Rules.",
        dependencies=[Depends(csrf_protect)],
    )
    app.state.db = db
    app.state.clock = clock
    app.state.login_limits = login_limits or LoginLimits()
    app.add_middleware(
        SessionMiddleware,
        secret_key=secret_key or stored_secret_key(db),
        session_cookie=SESSION_COOKIE,
        max_age=SESSION_DAYS * 24 * 3600,
        same_site="lax",
        https_only=https_only,
    )
    errors.install(app)
    app.add_middleware(SecurityHeaders)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    for router in routers():
        app.include_router(router)
    return app


def routers() -> list[APIRouter]:
    """The ``router`` of every module in ``weiqi.server.routes``: a new area adds a module
    there and nothing else."""
    found = []
    for info in sorted(pkgutil.iter_modules(routes.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{routes.__name__}.{info.name}")
        router = getattr(module, "router", None)
        if isinstance(router, APIRouter):
            found.append(router)
    return found
