"""The JSON API: what the pages do, with the same services and therefore the same permissions.

Write requests need the session cookie and its CSRF token in the ``X-CSRF-Token`` header:
``GET /api/session`` returns the token (and sets the cookie), ``POST /api/session`` logs in.
"""

from __future__ import annotations

from datetime import datetime
from typing import Self

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import Response

from weiqi.roles import Role
from weiqi.server.inputs import ScreenedRoute, requires
from weiqi.server.security import (
    BadCredentials,
    CurrentActor,
    CurrentUser,
    Db,
    LoggedIn,
    attempt_login,
    csrf_token,
    log_in,
    log_out,
)
from weiqi.services import accounts, events
from weiqi.services.accounts import UserInfo
from weiqi.services.permissions import Action


class ErrorOut(BaseModel):
    """Every error of the API: a machine-readable kind and a one-line message."""

    error: str = Field(description="permission_denied, not_found, conflict, invalid_setting, …")
    message: str


_ERRORS: dict[int | str, dict[str, object]] = {
    status: {"model": ErrorOut, "description": text}
    for status, text in [
        (401, "Not logged in, or a wrong username or password"),
        (403, "The role may not do this, or the CSRF token is missing"),
        (404, "No such thing"),
        (409, "Contradicts what is stored"),
        (422, "Invalid input or setting"),
        (429, "Too many failed logins"),
    ]
}
router = APIRouter(route_class=ScreenedRoute, prefix="/api", responses=_ERRORS)


class FromService(BaseModel):
    """An answer's shape read off the service's value of the same fields (pydantic's
    ``from_attributes``): each field declared once, in the shape, never copied by hand.

    >>> from types import SimpleNamespace
    >>> class Out(FromService):
    ...     id: int
    >>> Out.of(SimpleNamespace(id=1, kept="in the service")).model_dump()
    {'id': 1}
    """

    model_config = ConfigDict(from_attributes=True)

    @classmethod
    def of(cls, value: object) -> Self:
        return cls.model_validate(value)


class UserOut(FromService):
    id: int
    username: str
    display_name: str
    is_admin: bool
    must_change_password: bool


class SessionOut(BaseModel):
    user: UserOut | None
    csrf_token: str = Field(description="send it back in the X-CSRF-Token header of writes")


class LoginIn(BaseModel):
    username: str
    password: str


class UserIn(BaseModel):
    username: str
    password: str
    display_name: str = ""
    is_admin: bool = False


class PasswordIn(BaseModel):
    current: str
    new: str


class EventOut(FromService):
    id: int
    name: str
    created_at: datetime


class RoleIn(BaseModel):
    user_id: int
    role: Role


class RoleOut(FromService):
    user_id: int
    username: str
    event_id: int
    role: Role


class AuditOut(FromService):
    at: datetime
    actor: str
    action: str
    subject: str
    detail: str


def _session(request: Request, user: UserInfo | None) -> SessionOut:
    return SessionOut(user=UserOut.of(user) if user else None, csrf_token=csrf_token(request))


@router.get("/session", tags=["session"])
def get_session(request: Request, user: CurrentUser) -> SessionOut:
    """Who is logged in, and the CSRF token for writes."""
    return _session(request, user)


@router.post("/session", tags=["session"])
def post_session(request: Request, body: LoginIn) -> SessionOut:
    """Log in (rate-limited: 5 failures a minute per address and username)."""
    user = attempt_login(request, body.username, body.password)
    if user is None:
        raise BadCredentials
    return _session(request, user)


@router.delete("/session", tags=["session"], status_code=204)
def delete_session(request: Request) -> Response:
    """Log out."""
    log_out(request)
    return Response(status_code=204)


@router.post("/account/password", tags=["session"])
def post_password(request: Request, db: Db, user: LoggedIn, body: PasswordIn) -> SessionOut:
    """Change your own password (ends your other sessions)."""
    updated = accounts.change_password(db, user.actor(), body.current, body.new)
    log_in(request, updated)
    return _session(request, updated)


@router.get("/users", tags=["users"])
def get_users(db: Db, actor: CurrentActor) -> list[UserOut]:
    """Every user (site administrators and organisers)."""
    return [UserOut.of(u) for u in accounts.list_users(db, actor)]


@router.post("/users", tags=["users"], status_code=201)
@requires(Action.CREATE_USER)
def post_user(db: Db, actor: CurrentActor, body: UserIn) -> UserOut:
    """Create a user (site administrators)."""
    user = accounts.create_user(
        db, actor, body.username, body.password, body.display_name, body.is_admin
    )
    return UserOut.of(user)


@router.get("/events", tags=["events"])
def get_events(db: Db) -> list[EventOut]:
    """Every event, newest first."""
    return [EventOut.of(e) for e in events.list_events(db)]


@router.get("/events/{event_id}", tags=["events"])
def get_event(db: Db, event_id: int) -> EventOut:
    return EventOut.of(events.get_event(db, event_id))


@router.get("/events/{event_id}/roles", tags=["roles"])
def get_roles(db: Db, event_id: int) -> list[RoleOut]:
    """Who holds which role in the event."""
    return [RoleOut.of(g) for g in accounts.event_roles(db, event_id)]


@router.post("/events/{event_id}/roles", tags=["roles"], status_code=201)
@requires(Action.GRANT_ROLE)
def post_role(db: Db, actor: CurrentActor, event_id: int, body: RoleIn) -> RoleOut:
    """Grant a role in the event (site administrators and the event's organisers)."""
    return RoleOut.of(accounts.grant_role(db, actor, body.user_id, event_id, body.role))


@router.delete("/events/{event_id}/roles/{user_id}/{role}", tags=["roles"], status_code=204)
@requires(Action.REVOKE_ROLE)
def delete_role(db: Db, actor: CurrentActor, event_id: int, user_id: int, role: Role) -> Response:
    """Revoke a role (site administrators and the event's organisers)."""
    accounts.revoke_role(db, actor, user_id, event_id, role)
    return Response(status_code=204)


@router.get("/events/{event_id}/audit", tags=["roles"])
def get_audit(db: Db, actor: CurrentActor, event_id: int) -> list[AuditOut]:
    """The event's administrative actions (roles granted and revoked …), newest first: for its
    organisers, its chief referee and the site administrators."""
    return [AuditOut.of(e) for e in accounts.audit_log(db, actor, event_id)]
