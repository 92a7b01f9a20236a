"""The application factory.

>>> from weiqi.store.database import Database
>>> db = Database("sqlite://"); db.upgrade()
>>> from fastapi.testclient import TestClient
>>> TestClient(create_app(db)).get("/health").json()["status"]
'ok'
"""

from __future__ import annotations

from pathlib import Path

from fastapi import Depends, FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.middleware.sessions import SessionMiddleware

from weiqi import __version__
from weiqi.server import errors
from weiqi.server.ratelimit import LoginLimits
from weiqi.server.routes import admin, api, auth, health, pages
from weiqi.server.security import csrf_protect
from weiqi.services.site import secret_key as stored_secret_key
from weiqi.store.database import Database

STATIC_DIR = Path(__file__).parent / "static"
SESSION_COOKIE = "weiqi_session"
SESSION_DAYS = 14


def create_app(
    db: Database,
    *,
    secret_key: str | None = None,
    https_only: bool = False,
    login_limits: LoginLimits | None = None,
) -> FastAPI:
    """The web application on ``db`` (already migrated: see ``Database.upgrade``).

    ``secret_key`` signs session cookies; by default a key generated once and kept in the
    database. ``https_only`` adds the cookie's ``Secure`` flag (behind TLS).
    """
    app = FastAPI(
        title="weiqi",
        version=__version__,
        description="Run Go (围棋) competitions under the Chinese Weiqi Competition Rules.",
        dependencies=[Depends(csrf_protect)],
    )
    app.state.db = db
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
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    for module in (health, auth, pages, admin, api):
        app.include_router(module.router)
    return app
