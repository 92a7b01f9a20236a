"""Who is logged in, and the protections around it: signed session cookies, CSRF tokens.

The session cookie (Starlette's ``SessionMiddleware``: signed, HttpOnly, SameSite=Lax) holds a
random login-session token and a CSRF token. The login session itself is the server's (the
``login_sessions`` table): logging out, a password change or a reset ends it for good, on every
worker, whoever holds a copy of the cookie. Every request with an unsafe method must echo the
CSRF token, either in the form field ``csrf_token`` or in the ``X-CSRF-Token`` header (the JSON
API); a cross-site page can do neither, since it cannot read our pages or cookies.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Annotated, Any

from fastapi import Depends
from starlette.requests import Request

from weiqi.server.ratelimit import Limits
from weiqi.services.accounts import (
    UserInfo,
    authenticate,
    end_session,
    normalise_username,
    session_user,
    start_session,
)
from weiqi.services.actor import ANONYMOUS, Actor
from weiqi.services.server_clock import ServerClock
from weiqi.store.database import Database

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_SESSION = "sid"
_CSRF = "csrf"
_FLASH = "flash"


class LoginRequired(Exception):
    """The page or endpoint needs a logged-in user (pages redirect to the login page)."""


class BadCredentials(Exception):
    """A login with a wrong username or password (the API answers 401)."""


class CsrfFailed(Exception):
    """An unsafe request came without the session's CSRF token."""


def database(request: Request) -> Database:
    db: Database = request.app.state.db
    return db


def server_clock(request: Request) -> ServerClock:
    """The application's clock (``create_app(db, clock=...)``): what time it is for services."""
    clock: ServerClock = request.app.state.clock
    return clock


def csrf_token(request: Request) -> str:
    """The session's CSRF token, created on first use."""
    session: dict[str, Any] = request.session
    token = session.get(_CSRF)
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        session[_CSRF] = token
    return token


def session_csrf(request: Request) -> str | None:
    """The session's CSRF token if it has one already (nothing is created)."""
    token = request.session.get(_CSRF)
    return token if isinstance(token, str) else None


async def csrf_protect(request: Request) -> None:
    """App-wide dependency: reject an unsafe request whose CSRF token is missing or wrong."""
    if request.method in SAFE_METHODS:
        return
    expected = request.session.get(_CSRF)
    sent = request.headers.get(CSRF_HEADER)
    if sent is None and request.headers.get("content-type", "").startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    ):
        # FastAPI has already parsed (and cached) the form of a route with form fields.
        value = (await request.form()).get(CSRF_FIELD)
        sent = value if isinstance(value, str) else None
    if not (isinstance(expected, str) and sent and secrets.compare_digest(expected, sent)):
        raise CsrfFailed


def server_now(request: Request) -> datetime:
    """The server's time (never the client's), from the application's clock."""
    return server_clock(request).now()


def current_user(request: Request) -> UserInfo | None:
    """The logged-in user, or ``None``; a cookie whose login session has ended is cleared."""
    if hasattr(request.state, "user"):
        cached: UserInfo | None = request.state.user
        return cached
    user = None
    token = request.session.get(_SESSION)
    if isinstance(token, str):
        user = session_user(database(request), token, server_now(request))
        if user is None:
            request.session.clear()
    request.state.user = user
    return user


def current_actor(request: Request) -> Actor:
    user = current_user(request)
    return user.actor() if user else ANONYMOUS


def login_required(request: Request) -> UserInfo:
    user = current_user(request)
    if user is None:
        raise LoginRequired
    return user


CurrentUser = Annotated[UserInfo | None, Depends(current_user)]
LoggedIn = Annotated[UserInfo, Depends(login_required)]
CurrentActor = Annotated[Actor, Depends(current_actor)]
Db = Annotated[Database, Depends(database)]
AppClock = Annotated[ServerClock, Depends(server_clock)]


def log_in(request: Request, user: UserInfo) -> None:
    """Start a fresh session for ``user`` (a new CSRF token too, against session fixation)."""
    token = start_session(database(request), user.id, server_now(request))
    request.session.clear()
    request.session[_SESSION] = token
    csrf_token(request)
    request.state.user = user


def log_out(request: Request) -> None:
    """End the login session on the server, then forget the cookie."""
    token = request.session.get(_SESSION)
    if isinstance(token, str):
        end_session(database(request), token)
    request.session.clear()
    request.state.user = None


def flash(request: Request, message: str) -> None:
    """Show ``message`` (already translated) on the next page rendered for this session."""
    request.session[_FLASH] = [*request.session.get(_FLASH, []), message]


def has_flashes(request: Request) -> bool:
    """Whether a message waits for the next page of this session."""
    return bool(request.session.get(_FLASH))


def pop_flashes(request: Request) -> list[str]:
    messages = request.session.pop(_FLASH, [])
    return [m for m in messages if isinstance(m, str)]


def attempt_login(request: Request, username: str, password: str) -> UserInfo | None:
    """Log in if the password is right and the rate limits allow a try; ``None`` if wrong."""
    limits: Limits = request.app.state.login_limits
    address = request.client.host if request.client else "unknown"
    name = normalise_username(username)
    limits.attempt(address, name)  # counted before the slow check; forgiven on success
    user = authenticate(database(request), name, password)
    if user is None:
        return None
    limits.succeeded(address, name)
    log_in(request, user)
    return user


#: The "username" under which the login limits count the attempts to spend an invitation code —
#: a program's (``POST /api/invites/session``) or a person's signing up (``/signup``).
CODE_ATTEMPTS = "#invitation-code"


@contextmanager
def code_attempt(request: Request) -> Iterator[None]:
    """Count an attempt to spend an invitation code or to sign up against the login limits of
    the client's address, *before* the block runs (``TooManyAttempts`` instead when the limits
    are reached); forgiven when the block ends without an error, so a failure — an unknown or
    spent code, a taken username — stays counted, as a failed login does."""
    limits: Limits = request.app.state.login_limits
    address = request.client.host if request.client else "unknown"
    limits.attempt(address, CODE_ATTEMPTS)
    yield
    limits.succeeded(address, CODE_ATTEMPTS)


def safe_next(target: str | None) -> str:
    """Where to go after logging in or switching language: only a path on this site.

    >>> [safe_next(t) for t in ("/admin?x=1", "//evil.example/", "https://x", None)]
    ['/admin?x=1', '/', '/', '/']
    """
    if target and target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return "/"
