"""The application factory.

>>> from weiqi.store.database import Database
>>> db = Database("sqlite://"); db.upgrade()
>>> from fastapi.testclient import TestClient
>>> TestClient(create_app(db)).get("/health").json()["status"]
'ok'
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.resources
import pkgutil
from pathlib import Path

from fastapi import APIRouter, Depends, FastAPI
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from weiqi import __version__
from weiqi.server import errors, routes
from weiqi.server.body_limit import BodyLimit
from weiqi.server.inputs import ScreenedRoute
from weiqi.server.live.lifespan import live_lifespan
from weiqi.server.page_cache import PUBLIC_RESPONSE, MemoryPages, PageCache, Pages, RedisPages
from weiqi.server.ratelimit import Limits, LoginLimits, RedisLoginLimits
from weiqi.server.security import csrf_protect
from weiqi.services.server_clock import SYSTEM_CLOCK, ServerClock
from weiqi.services.site import secret_key as stored_secret_key
from weiqi.services.site import site_id
from weiqi.store.database import Database

# Scripts and styles only from our own /static (no inline script, so an injected <script> or
# onclick="" does nothing); SVG boards and the voice clock's audio are data: or same-origin.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "media-src 'self' data: blob:; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)


class SecurityHeaders:
    """Headers every response carries: a Content-Security-Policy, no framing (clickjacking), no
    MIME sniffing, no full URLs leaking to other sites; HSTS when the site is served over TLS
    only; and ``Cache-Control: no-store`` on what a logged-in session receives, so that no proxy
    or shared browser cache keeps a page or JSON meant for one user (the public pages an
    anonymous reader gets from ``server/page_cache.py`` keep their own ``Cache-Control``).

    >>> from starlette.applications import Starlette
    >>> from starlette.testclient import TestClient
    >>> client = TestClient(SecurityHeaders(Starlette(), hsts=True))
    >>> response = client.get("/", cookies={SESSION_COOKIE: "x"})
    >>> response.headers["cache-control"], response.headers["strict-transport-security"]
    ('no-store', 'max-age=31536000; includeSubDomains')
    """

    HEADERS = (
        (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
        (b"x-frame-options", b"DENY"),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"same-origin"),
    )
    HSTS = (b"strict-transport-security", b"max-age=31536000; includeSubDomains")

    def __init__(self, app: ASGIApp, *, hsts: bool = False) -> None:
        self.app = app
        self.headers = [*self.HEADERS, self.HSTS] if hsts else list(self.HEADERS)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        private = _has_session_cookie(scope) and not scope["path"].startswith("/static/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), *self.headers]
                # An anonymous reader's public page (its session holds only a CSRF token)
                # keeps the page cache's Cache-Control.
                public = scope.get("state", {}).get(PUBLIC_RESPONSE, False)
                if private and not public:
                    headers = [(k, v) for k, v in headers if k.lower() != b"cache-control"]
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _has_session_cookie(scope: Scope) -> bool:
    cookie_name = SESSION_COOKIE.encode() + b"="
    return any(
        name == b"cookie"
        and any(part.strip().startswith(cookie_name) for part in value.split(b";"))
        for name, value in scope.get("headers", [])
    )


STATIC_DIR = Path(__file__).parent / "static"
# Swagger UI 5 (OpenAPI 3.1), shipped as files by fastapi-offline; only its files are used.
SWAGGER_DIR = Path(str(importlib.resources.files("fastapi_offline") / "static"))
SESSION_COOKIE = "weiqi_session"
SESSION_DAYS = 14


def create_app(
    db: Database,
    *,
    secret_key: str | None = None,
    https_only: bool = False,
    login_limits: Limits | None = None,
    redis_url: str | None = None,
    clock: ServerClock = SYSTEM_CLOCK,
    cache_pages: bool | Pages = True,
    open_signup: bool = True,
) -> FastAPI:
    """The web application on ``db`` (already migrated: see ``Database.upgrade``).

    ``secret_key`` signs session cookies; by default a key generated once and kept in the
    database. ``https_only`` adds the cookie's ``Secure`` flag and HSTS (behind TLS). With
    ``redis_url`` the login limits, the page cache and the live rooms' pushes and presence are
    shared by every process on that Redis. ``clock`` is the
    only source of "now" for the services the routes call (lineup deadlines, the times in game
    records, login sessions): the system clock unless a test gives a ``ManualClock``.
    ``cache_pages`` keeps the public pages per event version (``server/page_cache.py``): in
    this process, or on ``redis_url``'s Redis, shared by every worker (or in the ``Pages``
    given). ``open_signup``: anybody may make their own account (``/signup``); if false, only
    with an invitation code (``weiqi serve --signup code``).
    """
    app = FastAPI(
        title="weiqi",
        version=__version__,
        description="Run Go (围棋) competitions under the Chinese Weiqi Competition Rules.",
        dependencies=[Depends(csrf_protect)],
        docs_url=None,  # served by routes/docs.py from our own files: halls often have no internet
        redoc_url=None,
        lifespan=live_lifespan,
    )
    app.state.db = db
    app.state.clock = clock
    app.state.redis_url = redis_url  # the live rooms' bus and presence (routes/live.py)
    secret_key = secret_key or stored_secret_key(db)
    # this site's Redis keys: the same for every worker of the site (they share the database
    # and its key), apart from another site's on the same Redis (its logins, its rooms) — also
    # one that shares the key (one key file on one machine): each database has its own id.
    # Without Redis nothing is named (nor the database read here).
    site = (
        hashlib.sha256(f"{secret_key}\n{site_id(db)}".encode()).hexdigest()[:12]
        if redis_url
        else "local"
    )
    if login_limits is None:
        login_limits = (
            RedisLoginLimits.from_url(redis_url, prefix=f"weiqi:login:{site}")
            if redis_url
            else LoginLimits()
        )
    app.state.login_limits = login_limits
    app.state.open_signup = open_signup  # routes/signup.py
    if cache_pages is True:
        cache_pages = RedisPages.from_url(redis_url) if redis_url else MemoryPages()
    app.state.page_cache = PageCache(cache_pages) if cache_pages is not False else None
    # Innermost of the middlewares, so that its 413 page has the session and security headers.
    app.add_middleware(BodyLimit)
    app.state.live_prefix = f"weiqi:live:{site}"
    app.add_middleware(
        SessionMiddleware,
        secret_key=secret_key,
        session_cookie=SESSION_COOKIE,
        max_age=SESSION_DAYS * 24 * 3600,
        same_site="lax",
        https_only=https_only,
    )
    errors.install(app)
    app.add_middleware(SecurityHeaders, hsts=https_only)
    app.mount("/static/swagger", StaticFiles(directory=SWAGGER_DIR), name="swagger")
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    for router in routers():
        app.include_router(router)
    unscreened = [r.path for r in api_routes() if not isinstance(r, ScreenedRoute)]
    if unscreened:  # every request is authorized and screened before its body is read
        raise RuntimeError(f"routes without route_class=ScreenedRoute: {unscreened}")
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


def api_routes() -> list[APIRoute]:
    """Every endpoint of every router, at its full path. Read from the routers themselves:
    the application's own ``routes`` hold each included router as one entry (FastAPI 0.165),
    where a check of its endpoints would find none.

    >>> paths = {r.path for r in api_routes()}
    >>> "/api/events/{event_id}/rounds/{number}/results" in paths
    True
    """
    return [r for router in routers() for r in router.routes if isinstance(r, APIRoute)]
