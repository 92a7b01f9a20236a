"""Who is logged in, and the protections around it: signed session cookies, CSRF tokens.

The session cookie (Starlette's ``SessionMiddleware``: signed, HttpOnly, SameSite=Lax) holds the
user id, the user's ``session_epoch`` (bumped on a password change, which ends every other
session) and a CSRF token. Every request with an unsafe method must echo that token, either in
the form field ``csrf_token`` or in the ``X-CSRF-Token`` header (the JSON API); a cross-site page
can do neither, since it cannot read our pages or cookies.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import Depends
from starlette.requests import Request

from weiqi.server.ratelimit import LoginLimits
from weiqi.services.accounts import UserInfo, authenticate, get_user, normalise_username
from weiqi.services.actor import ANONYMOUS, Actor
from weiqi.services.server_clock import ServerClock
from weiqi.store.database import Database

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_USER = "uid"
_EPOCH = "epoch"
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


def current_user(request: Request) -> UserInfo | None:
    """The logged-in user, or ``None``; a session of an older ``session_epoch`` is ended."""
    if hasattr(request.state, "user"):
        cached: UserInfo | None = request.state.user
        return cached
    user = None
    user_id = request.session.get(_USER)
    if isinstance(user_id, int):
        user = get_user(database(request), user_id)
        if user is None or user.session_epoch != request.session.get(_EPOCH):
            user = None
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
    request.session.clear()
    request.session.update({_USER: user.id, _EPOCH: user.session_epoch})
    csrf_token(request)
    request.state.user = user


def log_out(request: Request) -> None:
    request.session.clear()
    request.state.user = None


def flash(request: Request, message: str) -> None:
    """Show ``message`` (already translated) on the next page rendered for this session."""
    request.session[_FLASH] = [*request.session.get(_FLASH, []), message]


def pop_flashes(request: Request) -> list[str]:
    messages = request.session.pop(_FLASH, [])
    return [m for m in messages if isinstance(m, str)]


def attempt_login(request: Request, username: str, password: str) -> UserInfo | None:
    """Log in if the password is right and the rate limits allow a try; ``None`` if wrong."""
    limits: LoginLimits = request.app.state.login_limits
    address = request.client.host if request.client else "unknown"
    name = normalise_username(username)
    limits.check(address, name)
    user = authenticate(database(request), name, password)
    if user is None:
        limits.failed(address, name)
        return None
    limits.succeeded(address, name)
    log_in(request, user)
    return user


def safe_next(target: str | None) -> str:
    """Where to go after logging in or switching language: only a path on this site.

    >>> [safe_next(t) for t in ("/admin?x=1", "//evil.example/", "https://x", None)]
    ['/admin?x=1', '/', '/', '/']
    """
    if target and target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return "/"
